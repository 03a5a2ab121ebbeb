#include "core/kernels/pointwise_conv.h"

#include <atomic>
#include <cstdint>

#include "core/kernels/parallel_for.h"

namespace sg {

PointwiseConv::PointwiseConv() = default;
PointwiseConv::~PointwiseConv() = default;

bool PointwiseConv::Takes(const ConvNdGeometry& g, int threads) {
  if (threads <= 1 || g.c <= 0 || g.filter_c != g.c || g.out_c <= 0) return false;
  for (int i = 0; i < 3; ++i) {
    if (g.k[i] != 1 || g.pad[i] != 0) return false;
  }
  const int64_t positions = g.n * g.OutPositions();
  return positions > 0 && positions <= kMaxPositions &&
         ActiveParallelSections().load(std::memory_order_relaxed) == 0;
}

bool PointwiseConv::Run(const Eigen::ThreadPoolDevice& device, const ConvNdGeometry& g,
                        const float* input, const float* filter, float* out,
                        const OneDnnConv::Epilogue* epilogue) {
  // Each output position's input row (a 1x1 window without padding reads one position, at the
  // output's position times the strides) and output row.
  const int64_t positions = g.n * g.OutPositions();
  const float* x[kMaxPositions];
  float* y[kMaxPositions];
  int64_t p = 0;
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t o0 = 0; o0 < g.out[0]; ++o0) {
      for (int64_t o1 = 0; o1 < g.out[1]; ++o1) {
        for (int64_t o2 = 0; o2 < g.out[2]; ++o2, ++p) {
          const int64_t at =
              ((n * g.in[0] + o0 * g.s[0]) * g.in[1] + o1 * g.s[1]) * g.in[2] + o2 * g.s[2];
          x[p] = input + at * g.c;
          y[p] = out + p * g.out_c;
        }
      }
    }
  }
  return product_.Run(device, /*split=*/true, x, positions, filter, g.c, g.out_c,
                      /*b_transposed=*/false, y, epilogue);
}

}  // namespace sg
