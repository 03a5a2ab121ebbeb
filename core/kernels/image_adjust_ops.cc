// AdjustContrastv2, AdjustSaturation and AdjustHue: float images [..., height, width, channels]
// (3 channels, RGB, for saturation and hue) and a float scalar in; images of the same shape out.
// TensorFlow's CPU kernels take float only, and so do these. AdjustContrast, the first contrast
// op, takes the integer and float images TensorFlow's kernels take and gives float, clamped.
// This file, like every image_*.cc, is built without fused multiply-adds.
//   * contrast: per image and channel, mean m of the height x width pixels; out = (x - m) * f
//     + m. sg sums down each column, then across the columns, and divides by their number;
//     TensorFlow sums in another (tree-like) order, so m can differ from its in the last bit;
//   * saturation (TensorFlow's bits): RGB -> HSV (hue in [0, 1), the 2/6 and 4/6 offsets added
//     in double), s scaled and clamped to [0, 1], HSV -> RGB through chroma c = s * v, m = v - c;
//   * hue: RGB -> (hue in [0, 6), a hue of 0 taken as 6; max; min); hue + 6 delta wrapped into
//     [0, 6); the rising or falling channel rebuilt as min + fraction * (max - min), max and min
//     kept as they are. Pixels whose hue falls in an odd sixth can differ from TensorFlow's in
//     the last bit of that channel (about 0.5% of channels).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"
#include "core/kernels/parallel_for.h"

namespace sg {
namespace {

// Checks images (rank >= 3, and 3 channels when `rgb`) and the scalar second input; *value
// gets the scalar.
absl::Status CheckImagesAndScalar(OpKernelContext* ctx, bool rgb, const char* scalar_name,
                                  float* value) {
  const Tensor& images = ctx->input(0);
  const Tensor& scalar = ctx->input(1);
  if (images.dims() < 3) {
    return NodeError(ctx, "input must be at least 3-D, got shape ", images.shape().DebugString());
  }
  if (rgb && images.dim_size(images.dims() - 1) != 3) {
    return NodeError(ctx, "input must have 3 channels but instead has ",
                     images.dim_size(images.dims() - 1), " channels");
  }
  if (scalar.dims() != 0) {
    return NodeError(ctx, scalar_name, " must be scalar: ", scalar.shape().DebugString());
  }
  *value = scalar.data<float>()[0];
  return absl::OkStatus();
}

// ---- contrast -----------------------------------------------------------------------------

// Per image and channel of `in` (cast to float), (x - mean) * factor + mean into `out`, then
// clamped to [lo, hi] when `clamp`.
template <typename T>
void AdjustContrast(OpKernelContext* ctx, const Tensor& images, float factor, bool clamp,
                    float lo, float hi, float* out) {
  const int d = images.dims();
  const int64_t height = images.dim_size(d - 3), width = images.dim_size(d - 2),
                channels = images.dim_size(d - 1);
  const int64_t image_size = height * width * channels;
  if (image_size == 0) return;
  const int64_t batch = images.NumElements() / image_size;
  const T* in = images.data<T>();
  const float count = static_cast<float>(height * width);
  ParallelFor(ctx->eigen_cpu_device(),
      batch, Eigen::TensorOpCost(0, 0, 6.0 * image_size),
      [&](Eigen::Index begin, Eigen::Index end) {
        std::vector<float> column(width * channels), mean(channels);
        for (Eigen::Index b = begin; b < end; ++b) {
          const T* img = in + b * image_size;
          std::fill(column.begin(), column.end(), 0.0f);
          for (int64_t y = 0; y < height; ++y) {
            const T* row = img + y * width * channels;
            for (int64_t i = 0; i < width * channels; ++i) {
              column[i] += static_cast<float>(row[i]);
            }
          }
          std::fill(mean.begin(), mean.end(), 0.0f);
          for (int64_t x = 0; x < width; ++x) {
            for (int64_t c = 0; c < channels; ++c) mean[c] += column[x * channels + c];
          }
          for (int64_t c = 0; c < channels; ++c) mean[c] /= count;
          float* dst = out + b * image_size;
          for (int64_t i = 0; i < height * width; ++i) {
            for (int64_t c = 0; c < channels; ++c) {
              const int64_t k = i * channels + c;
              float v = (static_cast<float>(img[k]) - mean[c]) * factor + mean[c];
              if (clamp) v = std::min(std::max(v, lo), hi);
              dst[k] = v;
            }
          }
        }
      });
}

class AdjustContrastV2Op final : public OpKernel {
 public:
  explicit AdjustContrastV2Op(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    float factor;
    OP_REQUIRES_OK(ctx, CheckImagesAndScalar(ctx, false, "contrast_factor", &factor));
    const Tensor& images = ctx->input(0);
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, images.shape(), &out));
    AdjustContrast<float>(ctx, images, factor, false, 0, 0, out->data<float>());
  }
};
REGISTER_KERNEL_BUILDER(Name("AdjustContrastv2").Device(DEVICE_CPU).TypeConstraint<float>("T"),
                        AdjustContrastV2Op);

// The first contrast op (deprecated since GraphDef version 2): any real image in, float out,
// clamped to [min_value, max_value].
class AdjustContrastOp final : public OpKernel {
 public:
  explicit AdjustContrastOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    float factor;
    OP_REQUIRES_OK(ctx, CheckImagesAndScalar(ctx, false, "contrast_factor", &factor));
    const Tensor& min_value = ctx->input(2);
    const Tensor& max_value = ctx->input(3);
    OP_REQUIRES(ctx, min_value.dims() == 0,
                NodeError(ctx, "min_value must be scalar: ", min_value.shape().DebugString()));
    OP_REQUIRES(ctx, max_value.dims() == 0,
                NodeError(ctx, "max_value must be scalar: ", max_value.shape().DebugString()));
    const Tensor& images = ctx->input(0);
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, images.shape(), &out));
    const float lo = min_value.data<float>()[0], hi = max_value.data<float>()[0];
    float* o = out->data<float>();
    switch (images.dtype()) {
      case DT_UINT8: AdjustContrast<uint8_t>(ctx, images, factor, true, lo, hi, o); break;
      case DT_INT8: AdjustContrast<int8_t>(ctx, images, factor, true, lo, hi, o); break;
      case DT_INT16: AdjustContrast<int16_t>(ctx, images, factor, true, lo, hi, o); break;
      case DT_INT32: AdjustContrast<int32_t>(ctx, images, factor, true, lo, hi, o); break;
      case DT_FLOAT: AdjustContrast<float>(ctx, images, factor, true, lo, hi, o); break;
      case DT_DOUBLE: AdjustContrast<double>(ctx, images, factor, true, lo, hi, o); break;
      default:
        ctx->CtxFailure(NodeError(ctx, "unsupported image type ",
                                  DataTypeString(images.dtype())));
    }
  }
};
REGISTER_KERNEL_BUILDER(Name("AdjustContrast")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", {DT_UINT8, DT_INT8, DT_INT16, DT_INT32, DT_FLOAT,
                                                  DT_DOUBLE}),
                        AdjustContrastOp);

// ---- saturation and hue --------------------------------------------------------------------

// Runs fn(rgb_in, rgb_out) on every pixel, split across the device's threads.
template <typename Fn>
void ForEachPixel(OpKernelContext* ctx, const Tensor& images, Tensor* out, Fn fn) {
  const int64_t pixels = images.NumElements() / 3;
  const float* in = images.data<float>();
  float* o = out->data<float>();
  ParallelFor(ctx->eigen_cpu_device(), pixels, Eigen::TensorOpCost(12, 12, 40),
                                      [&](Eigen::Index begin, Eigen::Index end) {
                                        for (Eigen::Index p = begin; p < end; ++p) {
                                          fn(in + p * 3, o + p * 3);
                                        }
                                      });
}

class AdjustSaturationOp final : public OpKernel {
 public:
  explicit AdjustSaturationOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    float scale;
    OP_REQUIRES_OK(ctx, CheckImagesAndScalar(ctx, true, "scale", &scale));
    const Tensor& images = ctx->input(0);
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, images.shape(), &out));
    ForEachPixel(ctx, images, out, [scale](const float* p, float* q) {
      const float r = p[0], g = p[1], b = p[2];
      // RGB -> HSV.
      const float v = std::max(r, std::max(g, b));
      const float range = v - std::min(r, std::min(g, b));
      float s = v > 0 ? range / v : 0.0f;
      float h = 0;
      if (range > 0) {
        const float norm = 1.0f / (6.0f * range);
        if (r == v) {
          h = norm * (g - b);
        } else if (g == v) {
          h = static_cast<float>(static_cast<double>(norm * (b - r)) + 2.0 / 6.0);
        } else {
          h = static_cast<float>(static_cast<double>(norm * (r - g)) + 4.0 / 6.0);
        }
        if (h < 0) h += 1;
      }
      s = std::min(1.0f, std::max(0.0f, s * scale));
      // HSV -> RGB.
      const float c = s * v;
      const float m = v - c;
      const float dh = h * 6.0f;
      const int category = static_cast<int>(dh);
      const float x = c * (1.0f - std::fabs(std::fmod(dh, 2.0f) - 1.0f));
      float rr = 0, gg = 0, bb = 0;
      switch (category) {
        case 0: rr = c; gg = x; break;
        case 1: rr = x; gg = c; break;
        case 2: gg = c; bb = x; break;
        case 3: gg = x; bb = c; break;
        case 4: rr = x; bb = c; break;
        case 5: rr = c; bb = x; break;
        default: break;
      }
      q[0] = rr + m;
      q[1] = gg + m;
      q[2] = bb + m;
    });
  }
};
REGISTER_KERNEL_BUILDER(Name("AdjustSaturation").Device(DEVICE_CPU).TypeConstraint<float>("T"),
                        AdjustSaturationOp);

class AdjustHueOp final : public OpKernel {
 public:
  explicit AdjustHueOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    float delta;
    OP_REQUIRES_OK(ctx, CheckImagesAndScalar(ctx, true, "delta", &delta));
    const Tensor& images = ctx->input(0);
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, images.shape(), &out));
    const float shift = delta * 6.0f;
    ForEachPixel(ctx, images, out, [shift](const float* p, float* q) {
      const float r = p[0], g = p[1], b = p[2];
      const float vmax = std::max(r, std::max(g, b));
      const float vmin = std::min(r, std::min(g, b));
      const float range = vmax - vmin;
      float h = 0;  // in [0, 6)
      if (range > 0) {
        if (r == vmax) {
          h = (g - b) / range;
        } else if (g == vmax) {
          h = (b - r) / range + 2.0f;
        } else {
          h = (r - g) / range + 4.0f;
        }
        if (h <= 0) h += 6;  // a hue of 0 (red) becomes 6, as TensorFlow's does
      }
      h = std::fmod(h + shift, 6.0f);
      if (h < 0) h += 6;
      const int category = static_cast<int>(std::floor(h));
      const float ratio = h - static_cast<float>(category);
      const float rising = vmin + ratio * range;
      const float falling = vmin + (1.0f - ratio) * range;
      float rr = vmin, gg = vmin, bb = vmin;
      switch (category) {
        case 0: rr = vmax; gg = rising; break;
        case 1: rr = falling; gg = vmax; break;
        case 2: gg = vmax; bb = rising; break;
        case 3: gg = falling; bb = vmax; break;
        case 4: rr = rising; bb = vmax; break;
        case 5: rr = vmax; bb = falling; break;
        default: break;
      }
      q[0] = rr;
      q[1] = gg;
      q[2] = bb;
    });
  }
};
REGISTER_KERNEL_BUILDER(Name("AdjustHue").Device(DEVICE_CPU).TypeConstraint<float>("T"),
                        AdjustHueOp);

}  // namespace
}  // namespace sg
