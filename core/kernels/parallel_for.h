// ParallelFor: Eigen's ThreadPoolDevice::parallelFor without its cost for small work.
//
//   ParallelFor(ctx->eigen_cpu_device(), n, Eigen::TensorOpCost(bytes_in, bytes_out, cycles),
//               [&](Eigen::Index begin, Eigen::Index end) { ... });
//
// Same split as parallelFor (fn gets disjoint [begin, end) ranges covering [0, n), on the
// device's pool and the calling thread). When Eigen's cost model gives the work one thread, fn
// runs here directly: parallelFor would first wrap it in a std::function, which allocates for a
// lambda holding more than two pointers, once per kernel call of every small op.
#ifndef SG_CORE_KERNELS_PARALLEL_FOR_H_
#define SG_CORE_KERNELS_PARALLEL_FOR_H_

#include <utility>

#include "unsupported/Eigen/CXX11/Tensor"

namespace sg {

template <typename Fn>
void ParallelFor(const Eigen::ThreadPoolDevice& device, Eigen::Index n,
                 const Eigen::TensorOpCost& cost, Fn&& fn) {
  if (n <= 0) return;
  const int threads = device.numThreads();
  if (n == 1 || threads <= 1 ||
      Eigen::TensorCostModel<Eigen::ThreadPoolDevice>::numThreads(static_cast<double>(n), cost,
                                                                 threads) == 1) {
    fn(Eigen::Index{0}, n);
    return;
  }
  device.parallelFor(n, cost, std::forward<Fn>(fn));
}

}  // namespace sg

#endif  // SG_CORE_KERNELS_PARALLEL_FOR_H_
