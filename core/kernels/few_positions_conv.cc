#include "core/kernels/few_positions_conv.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>

#include "core/kernels/parallel_for.h"

namespace sg {
namespace {

// The input coordinate that window tap t of output coordinate o meets in dim i (out of range:
// padding).
int64_t InputAt(const ConvNdGeometry& g, int i, int64_t o, int64_t t) {
  return o * g.s[i] - g.pad[i] + t * g.d[i];
}

}  // namespace

FewPositionsConv::FewPositionsConv() = default;
FewPositionsConv::~FewPositionsConv() = default;

FewPositionsConv::Taps FewPositionsConv::UsedTaps(const ConvNdGeometry& g) {
  // Per dim, the lowest and highest taps that meet data at some output coordinate; the taps
  // used run from the lowest corner to the highest in the flattened window order.
  int64_t lo[3], hi[3];
  for (int i = 0; i < 3; ++i) {
    lo[i] = g.k[i];
    hi[i] = -1;
    for (int64_t o = 0; o < g.out[i]; ++o) {
      for (int64_t t = 0; t < g.k[i]; ++t) {
        const int64_t at = InputAt(g, i, o, t);
        if (at >= 0 && at < g.in[i]) {
          lo[i] = std::min(lo[i], t);
          hi[i] = std::max(hi[i], t);
        }
      }
    }
    if (hi[i] < 0) return Taps{};  // no tap meets data in this dim
  }
  auto flat = [&g](const int64_t* t) { return (t[0] * g.k[1] + t[1]) * g.k[2] + t[2]; };
  return Taps{flat(lo), flat(hi) - flat(lo) + 1};
}

bool FewPositionsConv::Takes(const ConvNdGeometry& g, int threads) {
  if (g.c <= 0 || g.filter_c != g.c || g.out_c <= 0) return false;
  const int64_t positions = g.n * g.OutPositions();
  if (positions <= 0 || positions > kMaxPositions) return false;
  const Taps taps = UsedTaps(g);
  if (taps.count > 0 && taps.count < g.WindowSize()) return true;
  return g.WindowSize() == 1 && taps.count == 1 && threads > 1 &&
         positions <= kMaxSplitPositions &&
         ActiveParallelSections().load(std::memory_order_relaxed) == 0;
}

bool FewPositionsConv::Run(const Eigen::ThreadPoolDevice& device, const ConvNdGeometry& g,
                           const float* input, const float* filter, float* out,
                           const OneDnnConv::Epilogue* epilogue) {
  const Taps taps = UsedTaps(g);
  const int64_t positions = g.n * g.OutPositions();
  const int64_t k = taps.count * g.c;
  // Calls fn(q, f, input position or -1 for padding) for each output position q (in the
  // output's order: image, then spatial dims) and each tap used, f-th of the run.
  auto for_each_tap = [&](auto fn) {
    for (int64_t q = 0; q < positions; ++q) {
      const int64_t o[3] = {q / (g.out[1] * g.out[2]) % g.out[0], q / g.out[2] % g.out[1],
                            q % g.out[2]};
      for (int64_t f = 0; f < taps.count; ++f) {
        const int64_t flat = taps.first + f;
        const int64_t t[3] = {flat / (g.k[1] * g.k[2]), flat / g.k[2] % g.k[1], flat % g.k[2]};
        int64_t at = q / g.OutPositions();  // the image
        for (int i = 0; i < 3 && at >= 0; ++i) {
          const int64_t c = InputAt(g, i, o[i], t[i]);
          at = c < 0 || c >= g.in[i] ? -1 : at * g.in[i] + c;
        }
        fn(q, f, at);
      }
    }
  };
  const float* x[kMaxPositions];
  float* y[kMaxPositions];
  for (int64_t q = 0; q < positions; ++q) y[q] = out + q * g.out_c;
  // With one tap used that meets data at every position, each row is the input's own.
  bool direct = taps.count == 1;
  if (direct) {
    for_each_tap([&](int64_t q, int64_t, int64_t at) {
      if (at < 0) {
        direct = false;
      } else {
        x[q] = input + at * g.c;
      }
    });
  }
  std::unique_ptr<float[]> rows;
  if (!direct) {
    rows.reset(new (std::nothrow) float[positions * k]);
    if (rows == nullptr) return false;
    for_each_tap([&](int64_t q, int64_t f, int64_t at) {
      float* row = rows.get() + q * k + f * g.c;
      if (at < 0) {
        std::fill(row, row + g.c, 0.0f);
      } else {
        std::memcpy(row, input + at * g.c, g.c * sizeof(float));
      }
    });
    for (int64_t q = 0; q < positions; ++q) x[q] = rows.get() + q * k;
  }
  return product_.Run(device, /*split=*/true, x, positions, filter + taps.first * g.c * g.out_c,
                      k, g.out_c, /*b_transposed=*/false, y, epilogue);
}

}  // namespace sg
