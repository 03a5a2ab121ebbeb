// ImageProjectiveTransformV2 and V3: images [batch, height, width, channels], transforms [1, 8]
// or [batch, 8] float, output_shape [2] int32 (and, V3, a float fill_value) in; images [batch,
// out_height, out_width, channels] of the input's dtype out. Output pixel (x, y) samples the input
// at ((a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) / k), k = c0 x + c1 y + 1 (the fill value where
// k is 0). All of it is float arithmetic in TensorFlow's order, so the outputs match its bits
// (this file, like every image_*.cc, is built without fused multiply-adds):
//   * fill modes move a coordinate outside [0, len - 1] back in: REFLECT mirrors it about the
//     pixel edges (d c b a | a b c d | d c b a); WRAP shifts it by whole periods of len, the
//     number of periods counted in steps of len - 1, as TensorFlow's kernel counts them;
//     NEAREST clamps; CONSTANT leaves it. The first three then clamp to [0, len - 1];
//   * NEAREST interpolation rounds half away from zero; BILINEAR weighs the four pixels around
//     the point. A pixel outside the image reads as the fill value (cast to the image dtype);
//   * integer images take the float result truncated, as x86's conversion does (out of range:
//     the integer's minimum, wrapped to the narrower type).
// An interpolation or fill mode other than those names (lowercase ones too) is an InvalidArgument
// here; TensorFlow's kernel logs it and writes all-fill (interpolation) or unspecified outputs.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"
#include "core/kernels/parallel_for.h"

namespace sg {
namespace {

enum class FillMode { kReflect, kWrap, kConstant, kNearest };

// x86's truncating float -> int32 conversion: NaN and out-of-range values give INT32_MIN.
inline int32_t TruncToInt32(float v) {
  if (!(v >= -2147483648.0f && v < 2147483648.0f)) return INT32_MIN;
  return static_cast<int32_t>(v);
}
inline int64_t TruncToInt64(float v) {
  if (!(v >= -9223372036854775808.0f && v < 9223372036854775808.0f)) return INT64_MIN;
  return static_cast<int64_t>(v);
}

// A float as the image dtype T.
template <typename T>
T FromFloat(float v) {
  if constexpr (std::is_same_v<T, int64_t>) {
    return TruncToInt64(v);
  } else if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(static_cast<uint32_t>(TruncToInt32(v)));
  } else {
    return static_cast<T>(v);
  }
}

// Moves coordinate v (along an axis of `len` pixels) as the fill mode says.
float MapCoordinate(float v, int64_t len, FillMode mode) {
  const float n = static_cast<float>(len);
  switch (mode) {
    case FillMode::kConstant:
      return v;
    case FillMode::kNearest:
      break;
    case FillMode::kReflect:
      if (v < 0) {
        if (len <= 1) {
          v = 0;
        } else {
          const float period = 2 * n;
          if (v < -period) v = period * static_cast<float>(TruncToInt32(-v / period)) + v;
          v = v < -n ? v + period : -v - 1;
        }
      } else if (v > n - 1) {
        if (len <= 1) {
          v = 0;
        } else {
          const float period = 2 * n;
          v -= period * static_cast<float>(TruncToInt32(v / period));
          if (v >= n) v = period - v - 1;
        }
      }
      break;
    case FillMode::kWrap:
      if (v < 0) {
        if (len <= 1) {
          v = 0;
        } else {
          v += n * static_cast<float>(TruncToInt32(-v / (n - 1)) + 1);
        }
      } else if (v > n - 1) {
        if (len <= 1) {
          v = 0;
        } else {
          v -= n * static_cast<float>(TruncToInt32(v / (n - 1)));
        }
      }
      break;
  }
  return std::min(std::max(v, 0.0f), n - 1);
}

template <typename Fn>
bool DispatchTransformType(DataType dt, Fn&& fn) {
  switch (dt) {
    case DT_UINT8: fn(uint8_t{}); return true;
    case DT_INT32: fn(int32_t{}); return true;
    case DT_INT64: fn(int64_t{}); return true;
    case DT_HALF: fn(half{}); return true;
    case DT_BFLOAT16: fn(bfloat16{}); return true;
    case DT_FLOAT: fn(float{}); return true;
    case DT_DOUBLE: fn(double{}); return true;
    default: return false;
  }
}

class ImageProjectiveTransformOp final : public OpKernel {
 public:
  explicit ImageProjectiveTransformOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string interpolation, fill_mode;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("interpolation", &interpolation));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("fill_mode", &fill_mode));
    OP_REQUIRES(ctx, interpolation == "NEAREST" || interpolation == "BILINEAR",
                errors::InvalidArgument("node '", name(), "': interpolation must be 'NEAREST' ",
                                        "or 'BILINEAR', got '", interpolation, "'"));
    bilinear_ = interpolation == "BILINEAR";
    if (fill_mode == "WRAP") {
      fill_mode_ = FillMode::kWrap;
    } else if (fill_mode == "CONSTANT") {
      fill_mode_ = FillMode::kConstant;
    } else if (fill_mode == "NEAREST") {
      fill_mode_ = FillMode::kNearest;
    } else if (fill_mode == "REFLECT") {
      fill_mode_ = FillMode::kReflect;
    } else {
      ctx->CtxFailure(errors::InvalidArgument(
          "node '", name(), "': fill_mode must be 'REFLECT', 'WRAP', 'CONSTANT' or 'NEAREST', ",
          "got '", fill_mode, "'"));
    }
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& images = ctx->input(0);
    const Tensor& transforms = ctx->input(1);
    const Tensor& output_shape = ctx->input(2);
    OP_REQUIRES(ctx, images.dims() == 4,
                NodeError(ctx, "Input images must have rank 4, got shape ",
                          images.shape().DebugString()));
    const int64_t batch = images.dim_size(0), height = images.dim_size(1),
                  width = images.dim_size(2), channels = images.dim_size(3);
    OP_REQUIRES(ctx,
                transforms.dims() == 2 && transforms.dim_size(1) == 8 &&
                    (transforms.dim_size(0) == 1 || transforms.dim_size(0) == batch),
                NodeError(ctx, "Input transform should be num_images x 8 or 1 x 8, got shape ",
                          transforms.shape().DebugString(), " for ", batch, " images"));
    OP_REQUIRES(ctx, output_shape.dims() == 1,
                NodeError(ctx, "output shape must be 1-dimensional, got shape ",
                          output_shape.shape().DebugString()));
    OP_REQUIRES(ctx, output_shape.NumElements() == 2,
                NodeError(ctx, "output shape must have two elements, got shape ",
                          output_shape.shape().DebugString()));
    const int64_t out_h = output_shape.data<int32_t>()[0];
    const int64_t out_w = output_shape.data<int32_t>()[1];
    OP_REQUIRES(ctx, out_h > 0 && out_w > 0,
                NodeError(ctx, "output dimensions must be positive, got [", out_h, ", ", out_w,
                          "]"));
    float fill = 0;
    if (ctx->num_inputs() > 3) {
      const Tensor& fill_value = ctx->input(3);
      OP_REQUIRES(ctx, fill_value.NumElements() == 1,
                  NodeError(ctx, "fill_value must be a scalar, got shape ",
                            fill_value.shape().DebugString()));
      fill = fill_value.data<float>()[0];
    }
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(
                            0, TensorShape({batch, out_h, out_w, channels}), &out));
    if (out->NumElements() == 0) return;
    const bool ok = DispatchTransformType(images.dtype(), [&](auto tag) {
      using T = decltype(tag);
      Transform<T>(ctx, images.data<T>(), batch, height, width, channels,
                   transforms.data<float>(), transforms.dim_size(0) == 1, FromFloat<T>(fill),
                   out_h, out_w, out->data<T>());
    });
    OP_REQUIRES(ctx, ok, NodeError(ctx, "unsupported image type ",
                                   DataTypeString(images.dtype())));
  }

 private:
  template <typename T>
  void Transform(OpKernelContext* ctx, const T* image, int64_t batch, int64_t height,
                 int64_t width, int64_t channels, const float* transforms, bool shared,
                 T fill, int64_t out_h, int64_t out_w, T* out) const {
    const float fill_f = static_cast<float>(fill);
    ParallelFor(ctx->eigen_cpu_device(),
        batch * out_h, Eigen::TensorOpCost(0, 0, 20.0 * out_w * channels),
        [&](Eigen::Index begin, Eigen::Index end) {
          for (Eigen::Index row = begin; row < end; ++row) {
            const int64_t b = row / out_h, y = row % out_h;
            const float* t = transforms + (shared ? 0 : b * 8);
            const T* img = image + b * height * width * channels;
            // Pixel (py, px) channel c as float; the fill value outside the image.
            auto read = [&](int64_t py, int64_t px, int64_t c) {
              return py >= 0 && py < height && px >= 0 && px < width
                         ? static_cast<float>(img[(py * width + px) * channels + c])
                         : fill_f;
            };
            T* o = out + row * out_w * channels;
            const float fy = static_cast<float>(y);
            for (int64_t x = 0; x < out_w; ++x, o += channels) {
              const float fx = static_cast<float>(x);
              const float k = t[6] * fx + t[7] * fy + 1.0f;
              if (k == 0) {
                std::fill(o, o + channels, fill);
                continue;
              }
              const float in_x =
                  MapCoordinate((t[0] * fx + t[1] * fy + t[2]) / k, width, fill_mode_);
              const float in_y =
                  MapCoordinate((t[3] * fx + t[4] * fy + t[5]) / k, height, fill_mode_);
              if (!bilinear_) {
                const int64_t px = TruncToInt64(std::round(in_x));
                const int64_t py = TruncToInt64(std::round(in_y));
                const bool inside = py >= 0 && py < height && px >= 0 && px < width;
                for (int64_t c = 0; c < channels; ++c) {
                  o[c] = inside ? img[(py * width + px) * channels + c] : fill;
                }
                continue;
              }
              const float x0 = std::floor(in_x), y0 = std::floor(in_y);
              const float x1 = x0 + 1, y1 = y0 + 1;
              const int64_t ix0 = TruncToInt64(x0), iy0 = TruncToInt64(y0);
              const int64_t ix1 = TruncToInt64(x1), iy1 = TruncToInt64(y1);
              for (int64_t c = 0; c < channels; ++c) {
                const float top =
                    (x1 - in_x) * read(iy0, ix0, c) + (in_x - x0) * read(iy0, ix1, c);
                const float bottom =
                    (x1 - in_x) * read(iy1, ix0, c) + (in_x - x0) * read(iy1, ix1, c);
                o[c] = FromFloat<T>((y1 - in_y) * top + (in_y - y0) * bottom);
              }
            }
          }
        });
  }

  bool bilinear_ = true;
  FillMode fill_mode_ = FillMode::kConstant;
};
REGISTER_KERNEL_BUILDER(Name("ImageProjectiveTransformV2").Device(DEVICE_CPU),
                        ImageProjectiveTransformOp);
REGISTER_KERNEL_BUILDER(Name("ImageProjectiveTransformV3").Device(DEVICE_CPU),
                        ImageProjectiveTransformOp);

}  // namespace
}  // namespace sg
