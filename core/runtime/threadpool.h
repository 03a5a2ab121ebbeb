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

// The size of the inter-op pool beside an intra-op pool of `intra_threads`, for ConfigProto's
// inter_op_parallelism_threads = `configured`: `configured` when it is positive; for 0 ("chosen
// by the runtime") one thread per share of the cores the intra-op pool leaves, cores /
// intra_threads, at least 1. With the intra-op pool on every core (sg's default), steps then run
// one kernel at a time, each on all cores, as ONNX Runtime's default sequential mode does: two
// kernels side by side would each fork a team of intra-op threads (oneDNN's OpenMP teams are
// per calling thread), twice as many threads as cores, which measured 1.7x slower on the small
// CNN's training step and 2-3x on the digits MLP's (bench/train_step_profile at inter-op 1 and
// 2 on 2 cores). A negative `configured` is returned as is (the caller's thread runs the step).
int InterOpThreadsFor(int configured, int intra_threads);

}  // namespace sg

#endif  // SG_CORE_RUNTIME_THREADPOOL_H_
