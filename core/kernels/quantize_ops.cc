// QuantizeV2 (float -> quantized) and Dequantize (quantized -> float or bfloat16), per tensor or
// per slice along `axis`, in the three modes TensorFlow documents:
//   MIN_COMBINED  the range [min, max] spread over every level of T;
//   MIN_FIRST     the same with min rounded to a level first (as TensorFlow's graph rewrite
//                 tools do);
//   SCALED        0.0 maps to 0 and the range is made symmetric around it, one scale factor.
// Each float step is rounded as TensorFlow's CPU kernels round it (the cases check every bit):
// where TensorFlow computes in double or in float is noted at each formula.
#include <algorithm>
#include <cfloat>
#include <cmath>

#include "core/kernels/cwise_ops_common.h"
#include "core/kernels/quantization_util.h"

namespace sg {
namespace {

enum class Mode { kMinCombined, kMinFirst, kScaled };

absl::Status ParseMode(const OpKernel& k, const std::string& s, Mode* mode) {
  if (s == "MIN_COMBINED") {
    *mode = Mode::kMinCombined;
  } else if (s == "MIN_FIRST") {
    *mode = Mode::kMinFirst;
  } else if (s == "SCALED") {
    *mode = Mode::kScaled;
  } else {
    return KernelError(k, "Mode string must be 'MIN_COMBINED', 'MIN_FIRST', or 'SCALED', is '",
                       s, "'");
  }
  return absl::OkStatus();
}

float FlushDenormal(float v) { return std::fabs(v) < FLT_MIN ? 0.0f * v : v; }

float RoundHalfAway(float v) { return std::round(v); }
float RoundHalfEven(float v) { return std::nearbyint(v); }

// The input viewed as [outer, depth, inner] around `axis` (depth 1 without an axis).
struct AxisView {
  int64_t outer = 1, depth = 1, inner = 1;
};

// Checks min_range/max_range against the input and axis; fills the view.
absl::Status RangeView(const OpKernel& k, const Tensor& in, const Tensor& min,
                       const Tensor& max, int axis, bool quantize, AxisView* v) {
  if (axis < 0) {
    for (const Tensor* t : {&min, &max}) {
      if (t->NumElements() != 1) {
        return quantize
                   ? KernelError(k, "If axis is not specified, min_range and max_range must ",
                                 "contain a single float element, but they contain ",
                                 t->NumElements(), " elements")
                   : KernelError(k, "input_min_tensor and input_max_tensor must have as many ",
                                 "elements as input on the dequantization axis (-1), got ",
                                 t->NumElements(), ", expected 1");
      }
    }
    v->inner = in.NumElements();
    return absl::OkStatus();
  }
  if (axis >= in.dims()) {
    return KernelError(k, "Axis must be less than input dimension(", in.dims(), "), got ", axis);
  }
  const int64_t depth = in.dim_size(axis);
  for (const Tensor* t : {&min, &max}) {
    if (t->dims() != 1 || t->dim_size(0) != depth) {
      return KernelError(k, "min_range and max_range must be 1-D tensors of as many elements ",
                         "as input's dimension ", axis, " (", depth, "), got shape ",
                         t->shape().DebugString());
    }
  }
  for (int i = 0; i < axis; ++i) v->outer *= in.dim_size(i);
  v->depth = depth;
  for (int i = axis + 1; i < in.dims(); ++i) v->inner *= in.dim_size(i);
  return absl::OkStatus();
}

class QuantizeV2Op final : public OpKernel {
 public:
  explicit QuantizeV2Op(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string mode, round_mode;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("mode", &mode));
    OP_REQUIRES_OK(ctx, ParseMode(*this, mode, &mode_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("round_mode", &round_mode));
    OP_REQUIRES(ctx, round_mode == "HALF_AWAY_FROM_ZERO" || round_mode == "HALF_TO_EVEN",
                KernelError(*this, "Round mode string must be 'HALF_AWAY_FROM_ZERO' or ",
                            "'HALF_TO_EVEN', is '", round_mode, "'"));
    half_to_even_ = round_mode == "HALF_TO_EVEN";
    OP_REQUIRES(ctx, !half_to_even_ || mode_ == Mode::kScaled,
                KernelError(*this, "Round mode 'HALF_TO_EVEN' only supported for mode 'SCALED', ",
                            "but mode is '", mode, "'."));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("narrow_range", &narrow_range_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("axis", &axis_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("ensure_minimum_range", &ensure_minimum_range_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    const Tensor& min_t = ctx->input(1);
    const Tensor& max_t = ctx->input(2);
    AxisView v;
    OP_REQUIRES_OK(ctx, RangeView(*this, in, min_t, max_t, axis_, true, &v));
    OP_REQUIRES(ctx, mode_ != Mode::kMinFirst || axis_ < 0,
                errors::Unimplemented(type_string(), " (node '", name(), "'): MIN_FIRST mode is ",
                                      "not implemented for Quantize with axis != -1."));
    Tensor* out;
    Tensor* out_min;
    Tensor* out_max;
    const TensorShape range_shape =
        axis_ < 0 ? TensorShape() : TensorShape({v.depth});
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, in.shape(), &out));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, range_shape, &out_min));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(2, range_shape, &out_max));
    for (int64_t c = 0; c < v.depth; ++c) {
      const float mn = min_t.data<float>()[c], mx = max_t.data<float>()[c];
      OP_REQUIRES(ctx, mn <= mx,
                  KernelError(*this, "input_max_range must be larger than input_min_range."));
    }
    bool ok = DispatchQuantized(out->dtype(), [&](auto tag) {
      using T = decltype(tag);
      const float* x = in.data<float>();
      T* q = out->data<T>();
      for (int64_t c = 0; c < v.depth; ++c) {
        float lo, hi;
        Adjust(min_t.data<float>()[c], max_t.data<float>()[c], &lo, &hi);
        auto apply = [&](auto f) {
          for (int64_t o = 0; o < v.outer; ++o) {
            const int64_t base = (o * v.depth + c) * v.inner;
            for (int64_t i = base; i < base + v.inner; ++i) q[i] = f(x[i]);
          }
        };
        switch (mode_) {
          case Mode::kMinCombined: MinCombined<T>(lo, hi, apply); break;
          case Mode::kMinFirst: MinFirst<T>(lo, hi, apply); break;
          case Mode::kScaled: Scaled<T>(&lo, &hi, apply); break;
        }
        out_min->data<float>()[c] = lo;
        out_max->data<float>()[c] = hi;
      }
    });
    if (!ok) ctx->CtxFailure(UnsupportedType(*this, out->dtype()));
  }

 private:
  // The range actually used: it holds 0.0 and is at least ensure_minimum_range times the larger
  // of 1 and its largest magnitude wide.
  void Adjust(float mn, float mx, float* lo, float* hi) const {
    *lo = std::min(0.0f, mn);
    const float epsilon =
        std::max(1.0f, std::max(std::fabs(mn), std::fabs(mx))) * ensure_minimum_range_;
    *hi = std::max(0.0f, std::max(mx, *lo + epsilon));
  }

  // ((clamp(x) - lo) * scale - half) rounded, the scale's division in double; signed types are
  // shifted down by half their range.
  template <typename T, typename Apply>
  static void MinCombined(float lo, float hi, Apply apply) {
    const float scale =
        static_cast<float>((kQuantHighest<T> - kQuantLowest<T>) / static_cast<double>(hi - lo));
    const float half =
        std::is_signed<T>::value ? static_cast<float>((kQuantHighest<T> - kQuantLowest<T> + 1) / 2)
                                 : 0.0f;
    apply([=](float x) {
      const float clamped = std::min(std::max(x, lo), hi);
      return FloatToQuantizedHolder<T>(RoundHalfAway((clamped - lo) * scale - half));
    });
  }

  // round(x * s) - round(lo * s) + lowest, clamped, in float; s = 2^bits / ((hi - lo) * adjust)
  // in double from the float difference.
  template <typename T, typename Apply>
  static void MinFirst(float lo, float hi, Apply apply) {
    const double steps = std::ldexp(1.0, 8 * sizeof(T));
    const double adjust = steps / (steps - 1.0);
    const float s = static_cast<float>(steps / (static_cast<double>(hi - lo) * adjust));
    const float lo_scaled = RoundHalfAway(lo * s);
    const float lowest = static_cast<float>(kQuantLowest<T>);
    const float highest = static_cast<float>(kQuantHighest<T>);
    apply([=](float x) {
      const float v = RoundHalfAway(x * s) - lo_scaled + lowest;
      return FloatToQuantizedHolder<T>(std::min(std::max(v, lowest), highest));
    });
  }

  // One scale factor, the larger range side's; lo and hi become the range it covers.
  template <typename T, typename Apply>
  void Scaled(float* lo, float* hi, Apply apply) const {
    const float min_out = static_cast<float>(kQuantLowest<T>) + (narrow_range_ ? 1.0f : 0.0f);
    const float max_out = static_cast<float>(kQuantHighest<T>);
    const float from_min = min_out * *lo > 0 ? min_out / *lo : FLT_MAX;
    const float from_max = max_out * *hi > 0 ? max_out / *hi : FLT_MAX;
    const float scale = std::min(from_min, from_max);
    // TensorFlow's CPU threads flush denormals to zero: 1 / FLT_MAX (narrow quint8 with no
    // positive side) reads as 0.
    *lo = FlushDenormal(min_out / scale);
    *hi = FlushDenormal(max_out / scale);
    const float l = *lo, h = *hi;
    if (half_to_even_) {
      apply([=](float x) {
        return FloatToQuantizedHolder<T>(RoundHalfEven(std::min(std::max(x, l), h) * scale));
      });
    } else {
      apply([=](float x) {
        return FloatToQuantizedHolder<T>(RoundHalfAway(std::min(std::max(x, l), h) * scale));
      });
    }
  }

  Mode mode_ = Mode::kMinCombined;
  bool half_to_even_ = false;
  bool narrow_range_ = false;
  int axis_ = -1;
  float ensure_minimum_range_ = 0.01f;
};

class DequantizeOp final : public OpKernel {
 public:
  explicit DequantizeOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string mode;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("mode", &mode));
    OP_REQUIRES_OK(ctx, ParseMode(*this, mode, &mode_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("narrow_range", &narrow_range_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("axis", &axis_));
    DataType dtype = DT_FLOAT;
    if (ctx->HasAttr("dtype")) OP_REQUIRES_OK(ctx, ctx->GetAttr("dtype", &dtype));
    bf16_ = dtype == DT_BFLOAT16;
    OP_REQUIRES(ctx, !bf16_ || mode_ == Mode::kMinCombined,
                KernelError(*this, "When output type is bfloat16, Mode string must be ",
                            "'MIN_COMBINED', is '", mode, "'"));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    const Tensor& min_t = ctx->input(1);
    const Tensor& max_t = ctx->input(2);
    AxisView v;
    OP_REQUIRES_OK(ctx, RangeView(*this, in, min_t, max_t, axis_, false, &v));
    OP_REQUIRES(ctx, mode_ != Mode::kMinFirst || axis_ < 0,
                errors::Unimplemented(type_string(), " (node '", name(), "'): MIN_FIRST mode is ",
                                      "not implemented for Dequantize with axis != -1."));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, in.shape(), &out));
    bool ok = DispatchQuantized(in.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const T* q = in.data<T>();
      for (int64_t c = 0; c < v.depth; ++c) {
        const float mn = min_t.data<float>()[c], mx = max_t.data<float>()[c];
        auto apply = [&](auto f) {
          for (int64_t o = 0; o < v.outer; ++o) {
            const int64_t base = (o * v.depth + c) * v.inner;
            for (int64_t i = base; i < base + v.inner; ++i) {
              const float y = f(static_cast<float>(q[i]));
              if (bf16_) {
                out->data<bfloat16>()[i] = static_cast<bfloat16>(y);
              } else {
                out->data<float>()[i] = y;
              }
            }
          }
        };
        switch (mode_) {
          case Mode::kMinCombined: MinCombined<T>(mn, mx, apply); break;
          case Mode::kMinFirst: MinFirst<T>(mn, mx, apply); break;
          case Mode::kScaled: Scaled<T>(mn, mx, apply); break;
        }
      }
    });
    if (!ok) ctx->CtxFailure(UnsupportedType(*this, in.dtype()));
  }

 private:
  // (q + half) * ((max - min) / levels) + min, all in float.
  template <typename T, typename Apply>
  static void MinCombined(float mn, float mx, Apply apply) {
    const float levels = static_cast<float>(kQuantHighest<T> - kQuantLowest<T>);
    const float scale = (mx - mn) / levels;
    const float half =
        std::is_signed<T>::value ? static_cast<float>((kQuantHighest<T> - kQuantLowest<T> + 1) / 2)
                                 : 0.0f;
    apply([=](float q) { return (q + half) * scale + mn; });
  }

  // q * s + (min rounded to a level - lowest * s), in float; s from the float range in double.
  template <typename T, typename Apply>
  static void MinFirst(float mn, float mx, Apply apply) {
    if (mn == mx) {
      apply([=](float) { return mn; });
      return;
    }
    const double steps = std::ldexp(1.0, 8 * sizeof(T));
    const double adjust = steps / (steps - 1.0);
    const float s = static_cast<float>(static_cast<double>(mx - mn) * adjust / steps);
    const float min_rounded = std::round(mn / s) * s;
    const float offset = min_rounded - static_cast<float>(kQuantLowest<T>) * s;
    apply([=](float q) { return q * s + offset; });
  }

  template <typename T, typename Apply>
  void Scaled(float mn, float mx, Apply apply) const {
    const float max_out = static_cast<float>(kQuantHighest<T>);
    float scale;
    if (!std::is_signed<T>::value) {
      scale = mx / max_out;
    } else {
      const float min_out = static_cast<float>(kQuantLowest<T>) + (narrow_range_ ? 1.0f : 0.0f);
      scale = std::max(mn / min_out, mx / max_out);
    }
    apply([=](float q) { return q * scale; });
  }

  Mode mode_ = Mode::kMinCombined;
  bool narrow_range_ = false;
  bool bf16_ = false;
  int axis_ = -1;
};

REGISTER_KERNEL_BUILDER(Name("QuantizeV2").Device(DEVICE_CPU).TypeConstraint("T",
                                                                              QuantizedTypes()),
                        QuantizeV2Op);
REGISTER_KERNEL_BUILDER(Name("Dequantize").Device(DEVICE_CPU).TypeConstraint("T",
                                                                              QuantizedTypes()),
                        DequantizeOp);

}  // namespace
}  // namespace sg
