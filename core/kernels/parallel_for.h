// ParallelFor: a loop split over the intra-op pool and the calling thread, as Eigen's
// ThreadPoolDevice::parallelFor, without its costs for the small work of small steps.
//
//   ParallelFor(ctx->eigen_cpu_device(), n, Eigen::TensorOpCost(bytes_in, bytes_out, cycles),
//               [&](Eigen::Index begin, Eigen::Index end) { ... });
//
// fn gets disjoint [begin, end) ranges covering [0, n), on the calling thread and up to
// device.numThreads() - 1 pool threads; it returns when every range is done.
//   - When Eigen's cost model gives the work one thread, fn(0, n) runs here directly (parallelFor
//     would first wrap it in a std::function, which allocates for a lambda holding more than two
//     pointers, once per kernel call of every small op).
//   - Otherwise the ranges are claimed from a shared counter. A pool thread that starts late (a
//     sleeping thread took 45-60 us to wake on the 2-core VM) finds them already done by the
//     caller and returns without calling fn, so the caller never waits for a thread to wake, only
//     for ranges a pool thread has claimed and is running. It waits by yielding, not on a
//     condition variable (parallelFor's barrier put it to sleep and woke it: two context switches
//     per call).
//   - While another kernel call splits its work (a ParallelSection is open: steps running side
//     by side), fn(0, n) runs here directly too.
//   - Within a while of a kernel running oneDNN on its OpenMP team (openmp_team.h), the ranges
//     go to that team instead of the pool: its threads are spinning, the pool's asleep.
// Nothing here blocks on the pool, so a ParallelFor may run inside another's fn.
#ifndef SG_CORE_KERNELS_PARALLEL_FOR_H_
#define SG_CORE_KERNELS_PARALLEL_FOR_H_

#include <algorithm>
#include <atomic>
#include <memory>
#include <thread>
#include <utility>

#include "core/framework/intra_op_pool.h"
#include "core/framework/openmp_team.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace sg {

// Held by a kernel call while it splits its work over the intra-op threads (ParallelFor, a
// oneDNN primitive on an OpenMP team). When another call already does so (callers running steps
// on one session side by side, or inter-op parallelism), alone() is false and the kernel should
// run on its own thread instead: the cores are busy with the other steps, and handing ranges to
// pool threads only adds wake-ups and context switches.
class ParallelSection {
 public:
  ParallelSection() : alone_(ActiveParallelSections().fetch_add(1) == 0) {}
  ~ParallelSection() { ActiveParallelSections().fetch_sub(1); }
  ParallelSection(const ParallelSection&) = delete;
  ParallelSection& operator=(const ParallelSection&) = delete;
  bool alone() const { return alone_; }

 private:
  const bool alone_;
};

// Runs fn over [0, n) in ranges of `chunk` (the last may be shorter, chunk >= 1) on `threads`
// threads of the calling thread's OpenMP team (RunOnOpenMpTeam, openmp_team.h), each claiming
// ranges until none is left; returns when all are done. Returns false, calling nothing, when sg
// is built without OpenMP. The caller holds the ParallelSection (ParallelForChunks does).
template <typename Fn>
bool ParallelForChunksOnOpenMpTeam(Eigen::Index n, Eigen::Index chunk, int threads,
                                   const Fn& fn) {
  struct Team {
    std::atomic<Eigen::Index> next{0};
    Eigen::Index chunks, chunk, n;
    const Fn* fn;
  } team{{0}, (n + chunk - 1) / chunk, chunk, n, &fn};
  auto member = [](void* arg) {
    Team& t = *static_cast<Team*>(arg);
    for (Eigen::Index i; (i = t.next.fetch_add(1, std::memory_order_relaxed)) < t.chunks;) {
      (*t.fn)(i * t.chunk, std::min(t.n, (i + 1) * t.chunk));
    }
  };
  return RunOnOpenMpTeam(threads, member, &team);
}

// Runs fn over [0, n) in ranges of `chunk` (the last may be shorter) on the calling thread and
// up to `helpers` pool threads, as described above; with no helper, a single range or another
// ParallelSection open, as fn(0, n) on the calling thread.
template <typename Fn>
void ParallelForChunks(const Eigen::ThreadPoolDevice& device, Eigen::Index n, Eigen::Index chunk,
                       int helpers, const Fn& fn) {
  if (n <= 0) return;
  chunk = std::max<Eigen::Index>(1, chunk);
  const Eigen::Index chunks = (n + chunk - 1) / chunk;
  helpers = static_cast<int>(std::min<Eigen::Index>(helpers, chunks - 1));
  if (helpers <= 0) {
    fn(Eigen::Index{0}, n);
    return;
  }
  ParallelSection section;
  if (!section.alone()) {
    fn(Eigen::Index{0}, n);
    return;
  }
  // On the calling thread's OpenMP team, whose threads spin from the last oneDNN kernel while
  // the pool's sleep (openmp_team.h).
  if (OpenMpTeamRecentlyUsed() && ParallelForChunksOnOpenMpTeam(n, chunk, helpers + 1, fn)) {
    return;
  }
  struct Shared {
    std::atomic<Eigen::Index> next{0};
    std::atomic<Eigen::Index> done{0};
  };
  auto shared = std::make_shared<Shared>();
  // A pool thread owns a reference to `shared` only: fn may be gone by the time it runs, but then
  // no range is left for it to claim and it does not call fn.
  auto work = [shared, chunks, chunk, n, f = &fn] {
    for (Eigen::Index i; (i = shared->next.fetch_add(1, std::memory_order_relaxed)) < chunks;) {
      (*f)(i * chunk, std::min(n, (i + 1) * chunk));
      shared->done.fetch_add(1, std::memory_order_release);
    }
  };
  for (int h = 0; h < helpers; ++h) device.getPool()->Schedule(work);
  work();
  while (shared->done.load(std::memory_order_acquire) < chunks) std::this_thread::yield();
}

template <typename Fn>
void ParallelFor(const Eigen::ThreadPoolDevice& device, Eigen::Index n,
                 const Eigen::TensorOpCost& cost, const Fn& fn) {
  if (n <= 0) return;
  const int threads =
      n == 1 || device.numThreads() <= 1
          ? 1
          : Eigen::TensorCostModel<Eigen::ThreadPoolDevice>::numThreads(static_cast<double>(n),
                                                                        cost, device.numThreads());
  if (threads <= 1) {
    fn(Eigen::Index{0}, n);
    return;
  }
  // About four ranges per thread, for balance when one thread is slowed.
  const Eigen::Index chunk = (n + 4 * threads - 1) / (4 * threads);
  ParallelForChunks(device, n, chunk, threads - 1, fn);
}

}  // namespace sg

#endif  // SG_CORE_KERNELS_PARALLEL_FOR_H_
