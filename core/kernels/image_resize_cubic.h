// The cubic-convolution sampling ResizeBicubic (image_resize_ops.cc) and its gradient
// ResizeBicubicGrad (image_resize_grad_ops.cc) share: for an output pixel, the 4 input pixels it
// reads along one axis and their weights, as TensorFlow's resize_bicubic_op.cc computes them (a
// 1/1024-step table of the kernel, float arithmetic), so that both ops match its bits.
//
//   CubicSample s = CubicAt(x, in_width, scale, half_pixel_centers);
//   out[x] = in[s.index[0]] * s.weight[0] + ... + in[s.index[3]] * s.weight[3];
//
// Legacy sampling (half_pixel_centers false) samples at x * scale with a = -0.75, clamping the
// indices to the image (an edge pixel may repeat); half-pixel sampling at (x + 0.5) * scale - 0.5
// with Keys' a = -0.5, giving pixels outside the image no weight and renormalizing the others.
// Thread-safe (the tables are built once, on first use).
#ifndef SG_CORE_KERNELS_IMAGE_RESIZE_CUBIC_H_
#define SG_CORE_KERNELS_IMAGE_RESIZE_CUBIC_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace sg {
namespace resize_cubic {

// Entry 2i is the kernel's weight at distance i/1024, entry 2i+1 at 1 + i/1024.
constexpr int64_t kTableSize = 1 << 10;

inline std::vector<float> CubicTable(double a) {
  std::vector<float> table((kTableSize + 1) * 2);
  for (int64_t i = 0; i <= kTableSize; ++i) {
    float x = static_cast<float>(i * 1.0 / kTableSize);
    table[i * 2] = static_cast<float>(((a + 2) * x - (a + 3)) * x * x + 1);
    x += 1.0;
    table[i * 2 + 1] = static_cast<float>(((a * x - 5 * a) * x + 8 * a) * x - 4 * a);
  }
  return table;
}

inline const float* CubicWeights(bool keys) {
  static const std::vector<float>* const kKeys = new std::vector<float>(CubicTable(-0.5f));
  static const std::vector<float>* const kLegacy = new std::vector<float>(CubicTable(-0.75f));
  return keys ? kKeys->data() : kLegacy->data();
}

struct CubicSample {
  float weight[4];
  int64_t index[4];
};

// The 4 input pixels (of `limit`) that output pixel `out` reads, for `scale` input pixels per
// output pixel, and their weights.
inline CubicSample CubicAt(int64_t out, int64_t limit, float scale, bool half_pixel) {
  const float in = half_pixel ? (static_cast<float>(out) + 0.5f) * scale - 0.5f
                              : static_cast<float>(out) * scale;
  const int64_t in_floor = static_cast<int64_t>(std::floor(in));
  const float delta = in - in_floor;
  const int64_t offset = std::lrint(delta * kTableSize);
  const float* table = CubicWeights(half_pixel);
  CubicSample c;
  const float weights[4] = {table[offset * 2 + 1], table[offset * 2],
                            table[(kTableSize - offset) * 2],
                            table[(kTableSize - offset) * 2 + 1]};
  for (int k = 0; k < 4; ++k) {
    c.index[k] = std::min(limit - 1, std::max(int64_t{0}, in_floor - 1 + k));
  }
  if (!half_pixel) {
    std::copy(weights, weights + 4, c.weight);
    return c;
  }
  for (int k = 0; k < 4; ++k) c.weight[k] = c.index[k] == in_floor - 1 + k ? weights[k] : 0.0f;
  const float sum = c.weight[0] + c.weight[1] + c.weight[2] + c.weight[3];
  if (std::abs(sum) >= 1000.0f * std::numeric_limits<float>::min()) {
    const float inverse = 1.0f / sum;
    for (float& w : c.weight) w *= inverse;
  }
  return c;
}

}  // namespace resize_cubic
}  // namespace sg

#endif  // SG_CORE_KERNELS_IMAGE_RESIZE_CUBIC_H_
