// Kernels of the colour adjustments (ops in core/ops/image_adjust_ops.cc), on float images
// [..., height, width, channels] (the OpDefs allow half too; TensorFlow's CPU kernels, and so
// sg's, take float only):
//   AdjustContrastv2: each channel of each image moves from its mean by contrast_factor,
//     (x - mean) * factor + mean, the mean taken over height and width;
//   AdjustHue: RGB pixels to hue / value / range, the hue turned by delta (a full turn being 1)
//     and wrapped into [0, 1), back to RGB;
//   AdjustSaturation: RGB to HSV, the saturation scaled and clamped to [0, 1], back to RGB.
// The colour conversions are the six-sector formulas TensorFlow's kernels use.
#include <algorithm>
#include <cmath>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"

namespace sg {
namespace {

// The scalar float input `i`; INVALID_ARGUMENT naming `what` when it is not a scalar.
absl::Status ScalarInput(OpKernelContext* ctx, int i, const char* what, float* v) {
  const Tensor& t = ctx->input(i);
  if (t.dims() != 0) return NodeError(ctx, what, " must be scalar: ", t.shape().DebugString());
  *v = t.data<float>()[0];
  return absl::OkStatus();
}

absl::Status CheckImages(OpKernelContext* ctx, const Tensor& images) {
  if (images.dims() < 3) {
    return NodeError(ctx, "input must be at least 3-D, got shape", images.shape().DebugString());
  }
  return absl::OkStatus();
}

class AdjustContrastV2Op final : public OpKernel {
 public:
  explicit AdjustContrastV2Op(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& images = ctx->input(0);
    OP_REQUIRES_OK(ctx, CheckImages(ctx, images));
    float factor;
    OP_REQUIRES_OK(ctx, ScalarInput(ctx, 1, "contrast_factor", &factor));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, images.shape(), &out));
    if (images.NumElements() == 0) return;
    const int r = images.dims();
    const int64_t pixels = images.dim_size(r - 3) * images.dim_size(r - 2);
    const int64_t channels = images.dim_size(r - 1);
    const int64_t batch = images.NumElements() / (pixels * channels);
    const float* in = images.data<float>();
    float* o = out->data<float>();
    std::vector<float> mean(channels);
    for (int64_t b = 0; b < batch; ++b) {
      const float* x = in + b * pixels * channels;
      float* y = o + b * pixels * channels;
      std::fill(mean.begin(), mean.end(), 0.0f);
      for (int64_t p = 0; p < pixels; ++p) {
        for (int64_t c = 0; c < channels; ++c) mean[c] += x[p * channels + c];
      }
      for (int64_t c = 0; c < channels; ++c) mean[c] /= static_cast<float>(pixels);
      for (int64_t p = 0; p < pixels; ++p) {
        for (int64_t c = 0; c < channels; ++c) {
          const int64_t i = p * channels + c;
          y[i] = (x[i] - mean[c]) * factor + mean[c];
        }
      }
    }
  }
};

// Hue in [0, 1) (red 0, green 1/3, blue 2/3), the largest component and the range (largest
// minus smallest) of an RGB pixel.
void RgbToHueValueRange(float r, float g, float b, float* h, float* v, float* range) {
  *v = std::max(r, std::max(g, b));
  *range = *v - std::min(r, std::min(g, b));
  *h = 0.0f;
  if (*range > 0.0f) {
    const float norm = 1.0f / (6.0f * *range);
    if (r == *v) {
      *h = norm * (g - b);
    } else if (g == *v) {
      *h = norm * (b - r) + 2.0f / 6.0f;
    } else {
      *h = norm * (r - g) + 4.0f / 6.0f;
    }
  }
  if (*h < 0.0f) *h += 1.0f;
}

// The RGB pixel of hue h in [0, 1), largest component v and range c.
void HueValueRangeToRgb(float h, float v, float c, float* r, float* g, float* b) {
  const float m = v - c;
  const float dh = h * 6.0f;
  const int sector = static_cast<int>(dh);
  const float x = c * (1.0f - std::abs(std::fmod(dh, 2.0f) - 1.0f));
  float rr = 0, gg = 0, bb = 0;
  switch (sector) {
    case 0: rr = c, gg = x; break;
    case 1: rr = x, gg = c; break;
    case 2: gg = c, bb = x; break;
    case 3: gg = x, bb = c; break;
    case 4: rr = x, bb = c; break;
    case 5: rr = c, bb = x; break;
    default: break;
  }
  *r = rr + m;
  *g = gg + m;
  *b = bb + m;
}

// AdjustHue (kSaturation false: input 1 is delta) and AdjustSaturation (input 1 is scale).
template <bool kSaturation>
class AdjustHsvOp final : public OpKernel {
 public:
  explicit AdjustHsvOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& images = ctx->input(0);
    OP_REQUIRES_OK(ctx, CheckImages(ctx, images));
    const int64_t channels = images.dim_size(images.dims() - 1);
    OP_REQUIRES(ctx, channels == 3,
                NodeError(ctx, "input must have 3 channels but instead has ", channels,
                          " channels."));
    float factor;
    OP_REQUIRES_OK(ctx, ScalarInput(ctx, 1, kSaturation ? "scale" : "delta", &factor));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, images.shape(), &out));
    const float* in = images.data<float>();
    float* o = out->data<float>();
    ctx->eigen_cpu_device().parallelFor(
        images.NumElements() / 3, Eigen::TensorOpCost(12, 12, 30),
        [&](Eigen::Index begin, Eigen::Index end) {
          for (Eigen::Index p = begin; p < end; ++p) {
            const float* x = in + 3 * p;
            float* y = o + 3 * p;
            float h, v, range;
            RgbToHueValueRange(x[0], x[1], x[2], &h, &v, &range);
            if constexpr (kSaturation) {
              // The range is saturation times value.
              const float s = v > 0.0f ? range / v : 0.0f;
              range = std::min(1.0f, std::max(0.0f, s * factor)) * v;
            } else {
              h = std::fmod(h + factor, 1.0f);
              if (h < 0.0f) h += 1.0f;
            }
            HueValueRangeToRgb(h, v, range, &y[0], &y[1], &y[2]);
          }
        });
  }
};

#define SG_ADJUST_KERNEL(NAME, KERNEL) \
  REGISTER_KERNEL_BUILDER(Name(NAME).Device(DEVICE_CPU).TypeConstraint<float>("T"), KERNEL)
SG_ADJUST_KERNEL("AdjustContrastv2", AdjustContrastV2Op);
SG_ADJUST_KERNEL("AdjustHue", AdjustHsvOp<false>);
SG_ADJUST_KERNEL("AdjustSaturation", AdjustHsvOp<true>);
#undef SG_ADJUST_KERNEL

}  // namespace
}  // namespace sg
