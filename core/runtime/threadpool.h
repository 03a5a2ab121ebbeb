// The inter-op thread pool a session runs its executors' nodes on (Eigen's non-blocking pool).
#ifndef SG_CORE_RUNTIME_THREADPOOL_H_
#define SG_CORE_RUNTIME_THREADPOOL_H_

#ifndef EIGEN_USE_THREADS
#define EIGEN_USE_THREADS
#endif
#include <functional>
#include <memory>

#include "unsupported/Eigen/CXX11/ThreadPool"

namespace sg {

class ThreadPool {
 public:
  // `num_threads` <= 0 picks the number of cores. With `spin` false an idle thread sleeps at
  // once instead of spinning a while for more work (for pools that wake rarely).
  explicit ThreadPool(int num_threads, bool spin = true);
  ~ThreadPool();  // runs what is queued, then joins
  void Schedule(std::function<void()> fn);
  int num_threads() const { return num_threads_; }

 private:
  int num_threads_;
  std::unique_ptr<Eigen::ThreadPool> pool_;
};

}  // namespace sg

#endif  // SG_CORE_RUNTIME_THREADPOOL_H_
