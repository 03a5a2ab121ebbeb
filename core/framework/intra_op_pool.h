// IntraOpPool: the threads kernels split their work over (Eigen's ThreadPoolInterface, under the
// Eigen::ThreadPoolDevice every CPU kernel gets).
//
// Why not Eigen's own pool: a kernel of a small step hands part of its work to the pool and the
// next kernel does so again a few microseconds later. Eigen's pool keeps one idle thread
// spinning, but each Schedule from outside the pool also wakes a sleeping one (a futex call and a
// context switch; a woken thread took 45-60 us on the 2-core VM), and on a pool as large as the
// machine that thread then competes with the caller for a core. Here:
//   - an idle thread spins for `spin` before it sleeps, and at most num_threads - 1 spin at once
//     (the thread that scheduled the work is busy too, so spinners plus it fit the cores);
//   - Schedule wakes a sleeping thread only when there are more queued closures than spinners.
// Closures run in FIFO order; nothing is stolen or reordered.
//
// Thread safety: every member may be called from any thread. The destructor runs the closures
// still queued, then joins the threads; nothing may Schedule after it has started.
#ifndef SG_CORE_FRAMEWORK_INTRA_OP_POOL_H_
#define SG_CORE_FRAMEWORK_INTRA_OP_POOL_H_

#ifndef EIGEN_USE_THREADS
#define EIGEN_USE_THREADS
#endif
#include <atomic>
#include <deque>
#include <functional>
#include <thread>
#include <vector>

#include "absl/time/time.h"
#include "core/util/mutex.h"
#include "unsupported/Eigen/CXX11/ThreadPool"

namespace sg {

class IntraOpPool : public Eigen::ThreadPoolInterface {
 public:
  // `num_threads` >= 1 threads; `spin` is how long an idle thread polls for work before it
  // sleeps (zero: it sleeps at once).
  IntraOpPool(int num_threads, absl::Duration spin);
  ~IntraOpPool() override;
  IntraOpPool(const IntraOpPool&) = delete;
  IntraOpPool& operator=(const IntraOpPool&) = delete;

  void Schedule(std::function<void()> fn) override;
  int NumThreads() const override { return static_cast<int>(threads_.size()); }
  // The calling thread's index in [0, NumThreads()) if it is one of this pool's, else -1.
  int CurrentThreadId() const override;

 private:
  void WorkerLoop(int index);
  // Pops the oldest closure into `fn`; false when the queue is empty.
  bool TryPop(std::function<void()>* fn);

  const int64_t spin_ns_;
  const int max_spinners_;
  mutex mu_;
  condition_variable cv_;
  std::deque<std::function<void()>> queue_ ABSL_GUARDED_BY(mu_);
  int sleeping_ ABSL_GUARDED_BY(mu_) = 0;
  bool stop_ ABSL_GUARDED_BY(mu_) = false;
  std::atomic<int> queued_{0};     // queue_.size(), read by spinners without the lock
  std::atomic<int> spinning_{0};   // threads polling queued_
  std::vector<std::thread> threads_;
};

// The number of kernel calls in this process splitting their work over intra-op threads right now
// (ParallelSection, core/kernels/parallel_for.h). Defined here, outside the kernels compiled once
// per x86-64 level, so that every copy counts in the same place.
std::atomic<int>& ActiveParallelSections();

}  // namespace sg

#endif  // SG_CORE_FRAMEWORK_INTRA_OP_POOL_H_
