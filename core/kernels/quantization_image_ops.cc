// Kernels of the quantized image and normalization ops, each computing as TensorFlow's CPU
// kernel does on x86 (quantized_resize_bilinear_op.cc, quantized_instance_norm.cc,
// quantized_batch_norm_op.cc and quantization_utils.h), so the integer outputs match its bits:
//   QuantizedResizeBilinear (quint8, qint32, float): bilinear resizing in fixed point, the
//     weights carrying 7 fraction bits for quint8 (16-bit sums) and 30 for qint32 (64-bit sums,
//     each level first rounded to float, as TensorFlow widens it), each row interpolated, its
//     difference divided (truncating) by 2^bits before the column weight, the result rounded
//     half up and divided truncating; float is ResizeBilinear's float arithmetic. The range
//     passes through.
//   QuantizedInstanceNorm (quint8): per image and channel, the mean of the levels and the
//     variance of (x - mean) * level width, both summed in float in row order, then
//     level width * (x - mean) * 1/sqrt(variance + variance_epsilon), quantized into
//     [min, max] of those values (or the given range), widened to min_separation.
//   QuantizedBatchNormWithGlobalNormalization (quint8 -> qint32): TensorFlow's fixed-point
//     path, in the output range [-2^20, 2^20] (2048 levels per 1.0): each channel's scale and
//     offset become qint32 levels, each input its qint32 level; out = x * scale / 2048 + offset
//     in int32 arithmetic that wraps as TensorFlow's does.
// The file is compiled with -ffp-contract=off: every float step rounds on its own, as
// TensorFlow's build (no FMA) does.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"
#include "core/kernels/cwise_ops_common.h"

namespace sg {
namespace {

absl::Status SetScalarOutput(OpKernelContext* ctx, int i, float v) {
  Tensor* out;
  SG_RETURN_IF_ERROR(ctx->allocate_output(i, TensorShape(), &out));
  out->data<float>()[0] = v;
  return absl::OkStatus();
}

// Rounds half away from zero in double, as C's round().
inline double RoundHalfAway(double v) { return std::round(v); }

// ---- QuantizedToFloat / FloatToQuantized (quantization_utils.h) ---------------------------

// The float value of quint8 level q in [min, max]: the level width in double from the float
// range's width, the rounded minimum in float (as TensorFlow's round(min / float(width)) *
// float(width)), the sum in double.
float Quint8ToFloat(uint8_t q, float min, float max) {
  if (min == max) return min;
  const double steps = 256.0;
  const double range = static_cast<double>(max - min) * (steps / (steps - 1.0));
  const double width = range / steps;
  const float width_f = static_cast<float>(width);
  const float min_rounded = std::round(min / width_f) * width_f;
  return static_cast<float>(static_cast<double>(min_rounded) + static_cast<double>(q) * width);
}

// The qint32 level of `v` in [min, max], clamped to int32. A level outside int64 (an infinite
// or NaN `v` included) is INT32_MIN, as TensorFlow's x86 build computes it (found by
// experiment: its conversion gives INT64_MIN, which the clamp keeps at the bottom).
int32_t FloatToQint32(float v, float min, float max) {
  constexpr int64_t kLowest = std::numeric_limits<int32_t>::min();
  if (min == max) return static_cast<int32_t>(kLowest);
  const double steps = 4294967296.0;
  const double range = static_cast<double>(max - min) * (steps / (steps - 1.0));
  const double scale = steps / range;
  const double d = RoundHalfAway(static_cast<double>(v) * scale) -
                   RoundHalfAway(static_cast<double>(min) * scale);
  if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0)) {
    return static_cast<int32_t>(kLowest);
  }
  // In 128 bits: the sum of an int64 level near int64's bounds and INT32_MIN must not wrap.
  const __int128 q = static_cast<__int128>(static_cast<int64_t>(d)) + kLowest;
  if (q < kLowest) return static_cast<int32_t>(kLowest);
  if (q > std::numeric_limits<int32_t>::max()) return std::numeric_limits<int32_t>::max();
  return static_cast<int32_t>(q);
}

// ---- QuantizedResizeBilinear ---------------------------------------------------------------

struct ResizeSizes {
  int64_t batch, in_height, in_width, out_height, out_width, channels;
  float height_scale, width_scale;
};

float ResizeScale(int64_t in, int64_t out, bool align_corners) {
  return align_corners && out > 1 ? static_cast<float>(in - 1) / static_cast<float>(out - 1)
                                  : static_cast<float>(in) / static_cast<float>(out);
}

// TensorFlow's ImageResizerState checks (half_pixel_centers with align_corners is accepted:
// this kernel does not pass half_pixel_centers to them).
absl::Status ValidateResize(OpKernelContext* ctx, bool align_corners, ResizeSizes* r) {
  const Tensor& images = ctx->input(0);
  if (images.dims() != 4) {
    return NodeError(ctx, "input must be 4-dimensional", images.shape().DebugString());
  }
  const Tensor& size = ctx->input(1);
  if (size.dims() != 1) {
    return NodeError(ctx, "shape_t must be 1-dimensional", size.shape().DebugString());
  }
  if (size.NumElements() != 2) {
    return NodeError(ctx, "shape_t must have two elements", size.shape().DebugString());
  }
  r->batch = images.dim_size(0);
  r->in_height = images.dim_size(1);
  r->in_width = images.dim_size(2);
  r->channels = images.dim_size(3);
  r->out_height = size.data<int32_t>()[0];
  r->out_width = size.data<int32_t>()[1];
  if (r->in_height >= INT32_MAX || r->in_width >= INT32_MAX) {
    return NodeError(ctx, "input sizes must be between 0 and max int32");
  }
  if (r->channels <= 0) return NodeError(ctx, "image must have at least one channel");
  if (r->out_height <= 0 || r->out_width <= 0) {
    return NodeError(ctx, "output dimensions must be positive");
  }
  if (r->in_height <= 0 || r->in_width <= 0) {
    return NodeError(ctx, "input image must be of non-zero size");
  }
  r->height_scale = ResizeScale(r->in_height, r->out_height, align_corners);
  r->width_scale = ResizeScale(r->in_width, r->out_width, align_corners);
  if (std::ceil((r->out_height - 1) * r->height_scale) > static_cast<float>(INT64_MAX)) {
    return NodeError(ctx, "input image height scale would cause an overflow");
  }
  if (std::ceil((r->out_width - 1) * r->width_scale) > static_cast<float>(INT32_MAX)) {
    return NodeError(ctx, "input image width scale would cause an overflow");
  }
  return absl::OkStatus();
}

// One output coordinate's two source indices and its weight, as a float and in fixed point
// with `bits` fraction bits (truncated).
struct Lerp {
  int64_t lower, upper;
  float weight;
  int32_t fixed;
};

std::vector<Lerp> LerpCache(int64_t out_size, int64_t in_size, float scale, bool half_pixel,
                            int bits) {
  std::vector<Lerp> lerps(out_size);
  for (int64_t i = 0; i < out_size; ++i) {
    const float in = half_pixel ? (static_cast<float>(i) + 0.5f) * scale - 0.5f
                                : static_cast<float>(i) * scale;
    const float in_floor = std::floor(in);
    Lerp& l = lerps[i];
    l.upper = std::min(static_cast<int64_t>(std::ceil(in)), in_size - 1);
    l.lower = std::min(std::max(static_cast<int64_t>(in_floor), int64_t{0}), l.upper);
    l.weight = in - in_floor;
    l.fixed = static_cast<int32_t>((in - in_floor) * static_cast<float>(1 << bits));
  }
  return lerps;
}

// Interpolates quint8 levels with 7 fraction bits, as TensorFlow's 16-bit path (every
// intermediate fits 16 bits, so int arithmetic gives the same values).
inline uint8_t LerpQuint8(int32_t tl, int32_t tr, int32_t bl, int32_t br, int32_t dx,
                          int32_t dy) {
  constexpr int32_t kOne = 1 << 7;
  const int32_t top = tl * kOne + (tr - tl) * dx;
  const int32_t bottom = bl * kOne + (br - bl) * dx;
  const int32_t out = top + (bottom - top) / kOne * dy;
  return static_cast<uint8_t>((out + kOne / 2) / kOne);
}

// Interpolates qint32 levels with 30 fraction bits in int64 (truncating divisions, so a
// negative result rounds toward zero after the half is added, as TensorFlow's); the result
// wraps to int32 (2^31 becomes INT32_MIN, as in TensorFlow).
inline int32_t LerpQint32(int32_t tl_level, int32_t tr_level, int32_t bl_level,
                          int32_t br_level, int64_t dx, int64_t dy) {
  constexpr int64_t kOne = int64_t{1} << 30;
  // TensorFlow widens a qint32 to int64 through float (Eigen's QInt32 converts only to float):
  // a level beyond 2^24 loses its low bits first, and INT32_MAX becomes 2^31.
  auto widen = [](int32_t v) { return static_cast<int64_t>(static_cast<float>(v)); };
  const int64_t tl = widen(tl_level), tr = widen(tr_level);
  const int64_t bl = widen(bl_level), br = widen(br_level);
  const int64_t top = tl * kOne + (tr - tl) * dx;
  const int64_t bottom = bl * kOne + (br - bl) * dx;
  const int64_t out = top + (bottom - top) / kOne * dy;
  return static_cast<int32_t>((out + kOne / 2) / kOne);
}

inline float LerpFloat(float tl, float tr, float bl, float br, float dx, float dy) {
  const float top = tl + (tr - tl) * dx;
  const float bottom = bl + (br - bl) * dx;
  return top + (bottom - top) * dy;
}

template <typename T>
void ResizeRows(const ResizeSizes& r, bool half_pixel, const T* in, T* out) {
  // The weights' fraction bits: 7 for quint8, 30 for qint32 (float uses the float weights).
  constexpr int kBits =
      std::is_same<T, uint8_t>::value ? 7 : (std::is_same<T, int32_t>::value ? 30 : 0);
  const std::vector<Lerp> ys = LerpCache(r.out_height, r.in_height, r.height_scale, half_pixel,
                                         kBits);
  const std::vector<Lerp> xs = LerpCache(r.out_width, r.in_width, r.width_scale, half_pixel,
                                         kBits);
  const int64_t c = r.channels, in_row = r.in_width * c, out_row = r.out_width * c;
  for (int64_t b = 0; b < r.batch; ++b) {
    const T* image = in + b * r.in_height * in_row;
    for (int64_t y = 0; y < r.out_height; ++y) {
      const T* top = image + ys[y].lower * in_row;
      const T* bottom = image + ys[y].upper * in_row;
      T* o = out + (b * r.out_height + y) * out_row;
      for (int64_t x = 0; x < r.out_width; ++x) {
        const int64_t left = xs[x].lower * c, right = xs[x].upper * c;
        for (int64_t k = 0; k < c; ++k) {
          const T tl = top[left + k], tr = top[right + k];
          const T bl = bottom[left + k], br = bottom[right + k];
          if constexpr (std::is_same<T, uint8_t>::value) {
            o[x * c + k] = LerpQuint8(tl, tr, bl, br, xs[x].fixed, ys[y].fixed);
          } else if constexpr (std::is_same<T, int32_t>::value) {
            o[x * c + k] = LerpQint32(tl, tr, bl, br, xs[x].fixed, ys[y].fixed);
          } else {
            o[x * c + k] = LerpFloat(tl, tr, bl, br, xs[x].weight, ys[y].weight);
          }
        }
      }
    }
  }
}

class QuantizedResizeBilinearOp final : public OpKernel {
 public:
  explicit QuantizedResizeBilinearOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("align_corners", &align_corners_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("half_pixel_centers", &half_pixel_centers_));
  }

  void Compute(OpKernelContext* ctx) override {
    OP_REQUIRES(ctx, ctx->input(2).dims() == 0, NodeError(ctx, "min must be a scalar"));
    OP_REQUIRES(ctx, ctx->input(3).dims() == 0, NodeError(ctx, "max must be a scalar"));
    const float min = ctx->input(2).data<float>()[0];
    const float max = ctx->input(3).data<float>()[0];
    ResizeSizes r{};
    OP_REQUIRES_OK(ctx, ValidateResize(ctx, align_corners_, &r));
    const Tensor& in = ctx->input(0);
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(
                            0, TensorShape({r.batch, r.out_height, r.out_width, r.channels}),
                            &out));
    // TensorFlow leaves the range outputs unset for an empty output (fetching them fails);
    // here they pass through in every case.
    OP_REQUIRES_OK(ctx, SetScalarOutput(ctx, 1, min));
    OP_REQUIRES_OK(ctx, SetScalarOutput(ctx, 2, max));
    if (out->NumElements() == 0) return;
    if (r.out_height == r.in_height && r.out_width == r.in_width) {
      std::memcpy(out->raw_data(), in.raw_data(), in.TotalBytes());
      return;
    }
    switch (in.dtype()) {
      case DT_QUINT8:
        ResizeRows(r, half_pixel_centers_, in.data<uint8_t>(), out->data<uint8_t>());
        break;
      case DT_QINT32:
        ResizeRows(r, half_pixel_centers_, in.data<int32_t>(), out->data<int32_t>());
        break;
      case DT_FLOAT:
        ResizeRows(r, half_pixel_centers_, in.data<float>(), out->data<float>());
        break;
      default: ctx->CtxFailure(UnsupportedType(*this, in.dtype()));
    }
  }

 private:
  bool align_corners_ = false, half_pixel_centers_ = false;
};

// ---- QuantizedInstanceNorm -----------------------------------------------------------------

class QuantizedInstanceNormOp final : public OpKernel {
 public:
  explicit QuantizedInstanceNormOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("variance_epsilon", &epsilon_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("min_separation", &min_separation_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("output_range_given", &range_given_));
    if (range_given_) {
      OP_REQUIRES_OK(ctx, ctx->GetAttr("given_y_min", &given_min_));
      OP_REQUIRES_OK(ctx, ctx->GetAttr("given_y_max", &given_max_));
      OP_REQUIRES(ctx, given_min_ < given_max_,
                  KernelError(*this, "given_y_min must be less than given_y_max : ",
                              given_min_, " >= ", given_max_));
    }
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    OP_REQUIRES(ctx, ctx->input(1).dims() == 0,
                NodeError(ctx, "`x_min` must be rank 0 but is rank ", ctx->input(1).dims()));
    OP_REQUIRES(ctx, ctx->input(2).dims() == 0,
                NodeError(ctx, "`x_max` must be rank 0 but is rank ", ctx->input(2).dims()));
    const float in_min = ctx->input(1).data<float>()[0];
    const float in_max = ctx->input(2).data<float>()[0];
    const float level = (in_max - in_min) / 255.0f;
    OP_REQUIRES(ctx, in_min < in_max,
                NodeError(ctx, "input_min must be less than input_max : ", in_min, " >= ",
                          in_max));
    // (TensorFlow's kernel aborts on another rank.)
    OP_REQUIRES(ctx, x.dims() == 4,
                NodeError(ctx, "x must be 4-dimensional, got shape ", x.shape().DebugString()));
    const int64_t n = x.dim_size(0), h = x.dim_size(1), w = x.dim_size(2), c = x.dim_size(3);
    const int64_t hw = h * w;
    Tensor* y;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, x.shape(), &y));
    const uint8_t* px = x.data<uint8_t>();
    // The normalized values in float: per image and channel, the mean of the levels and the
    // mean of squares of level * (x - mean), each summed in order over (row, column).
    std::vector<float> normed(x.NumElements());
    std::vector<float> mean(c), inv_std(c);
    const float count = static_cast<float>(hw);
    for (int64_t b = 0; b < n; ++b) {
      const uint8_t* img = px + b * hw * c;
      std::fill(mean.begin(), mean.end(), 0.0f);
      for (int64_t p = 0; p < hw; ++p) {
        for (int64_t k = 0; k < c; ++k) mean[k] += static_cast<float>(img[p * c + k]);
      }
      for (int64_t k = 0; k < c; ++k) mean[k] /= count;
      std::vector<float> var(c, 0.0f);
      for (int64_t p = 0; p < hw; ++p) {
        for (int64_t k = 0; k < c; ++k) {
          const float d = level * (static_cast<float>(img[p * c + k]) - mean[k]);
          var[k] += d * d;
        }
      }
      for (int64_t k = 0; k < c; ++k) {
        var[k] /= count;
        inv_std[k] = 1.0f / std::sqrt(var[k] + epsilon_);
      }
      float* o = normed.data() + b * hw * c;
      for (int64_t p = 0; p < hw; ++p) {
        for (int64_t k = 0; k < c; ++k) {
          o[p * c + k] = level * (static_cast<float>(img[p * c + k]) - mean[k]) * inv_std[k];
        }
      }
    }
    float lo = given_min_, hi = given_max_;
    if (!range_given_) {
      lo = std::numeric_limits<float>::infinity();
      hi = -std::numeric_limits<float>::infinity();
      for (float v : normed) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
    }
    if (hi - lo < min_separation_) hi = lo + min_separation_;
    // Quantized in float as TensorFlow's QUANTIZE_WITH_EIGEN: the scale 255 / (hi - lo) in
    // double rounded to float, each level round(v * scale) - round(lo * scale), clamped.
    const float scale = hi == lo ? 0.0f : static_cast<float>(255.0 / static_cast<double>(hi - lo));
    const float lo_scaled = std::round(lo * scale);
    uint8_t* py = y->data<uint8_t>();
    for (size_t i = 0; i < normed.size(); ++i) {
      float q = std::round(normed[i] * scale) - lo_scaled;
      q = std::min(std::max(q, 0.0f), 255.0f);
      py[i] = static_cast<uint8_t>(static_cast<int32_t>(q));
    }
    OP_REQUIRES_OK(ctx, SetScalarOutput(ctx, 1, lo));
    OP_REQUIRES_OK(ctx, SetScalarOutput(ctx, 2, hi));
  }

 private:
  float epsilon_ = 1e-5f, min_separation_ = 1e-3f;
  bool range_given_ = false;
  float given_min_ = 0, given_max_ = 0;
};

// ---- QuantizedBatchNormWithGlobalNormalization ---------------------------------------------

class QuantizedBatchNormOp final : public OpKernel {
 public:
  explicit QuantizedBatchNormOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("variance_epsilon", &epsilon_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("scale_after_normalization", &scale_));
  }

  void Compute(OpKernelContext* ctx) override {
    static const char* const kRangeNames[] = {"input", "mean", "var", "beta", "gamma"};
    float mins[5], maxs[5];
    for (int i = 0; i < 5; ++i) {
      const Tensor& lo = ctx->input(3 * i + 1);
      OP_REQUIRES(ctx, lo.NumElements() == 1,
                  NodeError(ctx, kRangeNames[i], "_min must have 1 element"));
      mins[i] = lo.data<float>()[0];
      const Tensor& hi = ctx->input(3 * i + 2);
      OP_REQUIRES(ctx, hi.NumElements() == 1,
                  NodeError(ctx, kRangeNames[i], "_max must have 1 element"));
      maxs[i] = hi.data<float>()[0];
    }
    const Tensor& t = ctx->input(0);
    OP_REQUIRES(ctx, t.dims() == 4,
                NodeError(ctx, "input must be 4-dimensional", t.shape().DebugString()));
    static const char* const kVecNames[] = {"mean", "var", "beta", "gamma"};
    for (int i = 1; i < 5; ++i) {
      const Tensor& v = ctx->input(3 * i);
      OP_REQUIRES(ctx, v.dims() == 1,
                  NodeError(ctx, kVecNames[i - 1], " must be 1-dimensional",
                            v.shape().DebugString()));
    }
    const Tensor& mean = ctx->input(3);
    // TensorFlow asks for more than one channel.
    OP_REQUIRES(ctx, mean.NumElements() > 1, NodeError(ctx, "Must have at least a mean value"));
    const int64_t depth = mean.dim_size(0);
    OP_REQUIRES(ctx, depth == t.dim_size(3),
                NodeError(ctx, "Must provide as many means as the last dimension of the input "
                               "tensor: ", mean.shape().DebugString(), " vs. ",
                          t.shape().DebugString()));
    static const char* const kOthers[] = {"variance", "beta", "gamma"};
    for (int i = 2; i < 5; ++i) {
      const Tensor& v = ctx->input(3 * i);
      OP_REQUIRES(ctx, v.dim_size(0) == depth,
                  NodeError(ctx, "Mean and ", kOthers[i - 2], " tensors must have the same ",
                            "shape: ", mean.shape().DebugString(), " vs. ",
                            v.shape().DebugString()));
    }
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, t.shape(), &out));
    constexpr float kOutMin = -(1 << 20), kOutMax = 1 << 20;
    // Each channel's scale and offset as qint32 levels of the output range.
    std::vector<uint32_t> scale(depth), offset(depth);
    for (int64_t k = 0; k < depth; ++k) {
      auto value = [&](int i) {
        return Quint8ToFloat(ctx->input(3 * i).data<uint8_t>()[k], mins[i], maxs[i]);
      };
      const float m = value(1), v = value(2), beta = value(3), gamma = value(4);
      float s = 1.0f / std::sqrt(v + epsilon_);
      if (scale_) s = s * gamma;
      const float o = (-m * s) + beta;
      scale[k] = static_cast<uint32_t>(FloatToQint32(s, kOutMin, kOutMax));
      offset[k] = static_cast<uint32_t>(FloatToQint32(o, kOutMin, kOutMax));
    }
    const int32_t one = FloatToQint32(1.0f, kOutMin, kOutMax);
    const uint8_t* in = t.data<uint8_t>();
    int32_t* o = out->data<int32_t>();
    const int64_t n = t.NumElements();
    for (int64_t i = 0; i < n; ++i) {
      const int64_t k = i % depth;
      const uint32_t x =
          static_cast<uint32_t>(FloatToQint32(Quint8ToFloat(in[i], mins[0], maxs[0]), kOutMin,
                                              kOutMax));
      // int32 products and sums wrap (TensorFlow's qint32 arithmetic); the quotient truncates.
      const int32_t product = static_cast<int32_t>(x * scale[k]);
      const int32_t quotient = product == std::numeric_limits<int32_t>::min() && one == -1
                                   ? product
                                   : product / one;
      o[i] = static_cast<int32_t>(static_cast<uint32_t>(quotient) + offset[k]);
    }
    OP_REQUIRES_OK(ctx, SetScalarOutput(ctx, 1, kOutMin));
    OP_REQUIRES_OK(ctx, SetScalarOutput(ctx, 2, kOutMax));
  }

 private:
  float epsilon_ = 0;
  bool scale_ = false;
};

REGISTER_KERNEL_BUILDER(Name("QuantizedResizeBilinear")
                            .Device(DEVICE_CPU)
                            .HostMemory("size")
                            .TypeConstraint("T", {DT_QUINT8, DT_QINT32, DT_FLOAT}),
                        QuantizedResizeBilinearOp);
REGISTER_KERNEL_BUILDER(
    Name("QuantizedInstanceNorm").Device(DEVICE_CPU).TypeConstraint("T", {DT_QUINT8}),
    QuantizedInstanceNormOp);
REGISTER_KERNEL_BUILDER(Name("QuantizedBatchNormWithGlobalNormalization")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("Tinput", {DT_QUINT8})
                            .TypeConstraint("out_type", {DT_QINT32}),
                        QuantizedBatchNormOp);

}  // namespace
}  // namespace sg
