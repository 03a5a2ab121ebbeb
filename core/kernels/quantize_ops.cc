// QuantizeV2 (float -> quantized) and Dequantize (quantized -> float or bfloat16), per tensor or
// per slice along `axis`, in the three modes TensorFlow documents (and QuantizeAndDequantizeV2/
// V3/V4, float -> float through num_bits levels, below):
//   MIN_COMBINED  the range [min, max] spread over every level of T;
//   MIN_FIRST     the same with min rounded to a level first (as TensorFlow's graph rewrite
//                 tools do);
//   SCALED        0.0 maps to 0 and the range is made symmetric around it, one scale factor.
// Each float step is rounded as TensorFlow's CPU kernels round it (the cases check every bit):
// where TensorFlow computes in double or in float is noted at each formula.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>

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

  // TensorFlow's Eigen conversion (FloatToLevelEigen): round(x * s) less (round(lo * s) -
  // lowest), clamped, in float; s = (2^bits - 1) / (hi - lo) in double from the float
  // difference.
  template <typename T, typename Apply>
  static void MinFirst(float lo, float hi, Apply apply) {
    const FloatToLevelEigen<T> to_level(lo, hi);
    apply([=](float x) { return static_cast<T>(to_level(x)); });
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

// QuantizeAndDequantizeV2/V3/V4: float in, float out, each value rounded to one of the levels of
// a num_bits integer whose scale keeps 0.0 exact, the range [input_min, input_max] given or taken
// from the data (per slice along `axis`). The scale is the smaller of the two sides' (levels /
// bound); the other bound moves to the level it reaches. Values are clamped to the range only
// when it is given (TensorFlow's; a computed range holds every value but the moved bound).
// float and double, as TensorFlow's CPU kernels (its OpDef also allows half and bfloat16).
class QuantizeAndDequantizeOp final : public OpKernel {
 public:
  explicit QuantizeAndDequantizeOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("signed_input", &signed_input_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("range_given", &range_given_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("narrow_range", &narrow_range_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("axis", &axis_));
    v3_ = type_string() == "QuantizeAndDequantizeV3";
    if (!v3_) {
      OP_REQUIRES_OK(ctx, ctx->GetAttr("num_bits", &num_bits_));
      OP_REQUIRES_OK(ctx, CheckNumBits());
      std::string round_mode;
      OP_REQUIRES_OK(ctx, ctx->GetAttr("round_mode", &round_mode));
      OP_REQUIRES(ctx, round_mode == "HALF_TO_EVEN" || round_mode == "HALF_UP",
                  KernelError(*this, "round_mode must be HALF_TO_EVEN or HALF_UP, got ",
                              round_mode));
      half_up_ = round_mode == "HALF_UP";
    }
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    int num_bits = num_bits_;
    if (v3_) {
      const Tensor& bits = ctx->input(3);
      OP_REQUIRES(ctx, bits.dims() == 0,
                  KernelError(*this, "Invalid shape. The `num_bits` tensor should be a scalar. ",
                              "Got dimensions: ", bits.dims()));
      num_bits = bits.data<int32_t>()[0];
    }
    if (v3_) {
      const bool ok = num_bits > 0 && num_bits < (signed_input_ ? 62 : 63);
      OP_REQUIRES(ctx, ok,
                  KernelError(*this, "num_bits is out of range: ", num_bits, " with ",
                              "signed_input_ ", signed_input_ ? 1 : 0));
    }
    OP_REQUIRES(ctx, axis_ < in.dims(),
                KernelError(*this, "Shape must be at least rank ", axis_ + 1, " but is rank ",
                            in.dims()));
    AxisView v;
    if (axis_ < 0) {
      v.inner = in.NumElements();
    } else {
      for (int i = 0; i < axis_; ++i) v.outer *= in.dim_size(i);
      v.depth = in.dim_size(axis_);
      for (int i = axis_ + 1; i < in.dims(); ++i) v.inner *= in.dim_size(i);
    }
    const Tensor& min_t = ctx->input(1);
    const Tensor& max_t = ctx->input(2);
    if (range_given_) {
      for (const Tensor* t : {&min_t, &max_t}) {
        OP_REQUIRES(ctx, t->NumElements() == v.depth && (axis_ < 0 || t->dims() == 1),
                    KernelError(*this, "input_min and input_max must have ", v.depth,
                                " elements, got shape ", t->shape().DebugString()));
      }
    }
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, in.shape(), &out));
    if (in.NumElements() == 0) return;
    const bool ok = DispatchTypes(TypeList<float, double>(), in.dtype(), [&](auto tag) {
      using T = decltype(tag);
      using C = T;
      const T* x = in.data<T>();
      T* y = out->data<T>();
      const C min_q = signed_input_
                          ? static_cast<C>(-std::ldexp(1.0, num_bits - 1) + (narrow_range_ ? 1 : 0))
                          : C(0);
      const C max_q = signed_input_ ? static_cast<C>(std::ldexp(1.0, num_bits - 1) - 1)
                                    : static_cast<C>(std::ldexp(1.0, num_bits) - 1);
      for (int64_t c = 0; c < v.depth; ++c) {
        C lo, hi;
        if (range_given_) {
          lo = static_cast<C>(min_t.data<T>()[c]);
          hi = static_cast<C>(max_t.data<T>()[c]);
          if (!(lo <= hi)) {
            ctx->CtxFailure(KernelError(*this, "Invalid range: input_min ", static_cast<double>(lo),
                                        " > input_max ", static_cast<double>(hi)));
            return;
          }
        } else {
          lo = std::numeric_limits<C>::infinity();
          hi = -std::numeric_limits<C>::infinity();
          for (int64_t o = 0; o < v.outer; ++o) {
            const int64_t base = (o * v.depth + c) * v.inner;
            for (int64_t i = base; i < base + v.inner; ++i) {
              lo = std::min(lo, static_cast<C>(x[i]));
              hi = std::max(hi, static_cast<C>(x[i]));
            }
          }
        }
        const C big = std::numeric_limits<C>::max();
        const C from_min = min_q * lo > 0 ? min_q / lo : big;
        const C from_max = max_q * hi > 0 ? max_q / hi : big;
        C scale, inverse;
        if (from_min < from_max) {
          scale = from_min;
          inverse = lo / min_q;
          hi = max_q * inverse;
        } else {
          scale = from_max;
          inverse = hi / max_q;
          lo = min_q * inverse;
        }
        for (int64_t o = 0; o < v.outer; ++o) {
          const int64_t base = (o * v.depth + c) * v.inner;
          for (int64_t i = base; i < base + v.inner; ++i) {
            C val = static_cast<C>(x[i]);
            if (range_given_) val = std::max(std::min(val, hi), lo);
            const C scaled = val * scale;
            const C level = half_up_ ? std::floor(scaled + C(0.5)) : std::nearbyint(scaled);
            y[i] = static_cast<T>(level * inverse);
          }
        }
      }
    });
    if (!ok) ctx->CtxFailure(UnsupportedType(*this, in.dtype()));
  }

 private:
  absl::Status CheckNumBits() const {
    if (num_bits_ > 0 && num_bits_ < (signed_input_ ? 62 : 63)) return absl::OkStatus();
    return KernelError(*this, "num_bits is out of range: ", num_bits_, " with signed_input_ ",
                       signed_input_ ? 1 : 0);
  }

  bool signed_input_ = true, range_given_ = false, narrow_range_ = false, half_up_ = false;
  bool v3_ = false;
  int num_bits_ = 8;
  int axis_ = -1;
};

REGISTER_KERNEL_BUILDER(Name("QuantizeAndDequantizeV2")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", {DT_FLOAT, DT_DOUBLE}),
                        QuantizeAndDequantizeOp);
REGISTER_KERNEL_BUILDER(Name("QuantizeAndDequantizeV3")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", {DT_FLOAT, DT_DOUBLE}),
                        QuantizeAndDequantizeOp);
REGISTER_KERNEL_BUILDER(Name("QuantizeAndDequantizeV4")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", {DT_FLOAT, DT_DOUBLE}),
                        QuantizeAndDequantizeOp);
// QuantizeAndDequantizeV4Grad: gradients where min <= input <= max (the range of the input's
// slice along `axis`, or the one range when axis is -1), 0 elsewhere (NaN inputs too); zeros
// of the range's shape for min and max. float and double, as TensorFlow's CPU kernel.
class QuantizeAndDequantizeV4GradOp final : public OpKernel {
 public:
  explicit QuantizeAndDequantizeV4GradOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("axis", &axis_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& grad = ctx->input(0);
    const Tensor& in = ctx->input(1);
    const Tensor& mn = ctx->input(2);
    const Tensor& mx = ctx->input(3);
    OP_REQUIRES(ctx, axis_ >= -1, KernelError(*this, "Axis must be at least -1. Found ", axis_));
    OP_REQUIRES(ctx, axis_ == -1 || axis_ < in.dims(),
                KernelError(*this, "Axis should be -1 or 0 or a positive value less than ",
                            in.dims(), "but given axis value was ", axis_));
    OP_REQUIRES(ctx, in.shape() == grad.shape(),
                KernelError(*this, "gradient and input must be the same size"));
    OP_REQUIRES(ctx, mn.dims() <= 1,
                KernelError(*this, "Input min tensor must have dimension 0 or 1. Received ",
                            mn.dims(), "."));
    OP_REQUIRES(ctx, mx.dims() <= 1,
                KernelError(*this, "Input max tensor must have dimension 0 or 1. Received ",
                            mx.dims(), "."));
    const int64_t depth = axis_ == -1 ? 1 : in.dim_size(axis_);
    if (axis_ == -1) {
      OP_REQUIRES(ctx, mn.dims() == 0,
                  KernelError(*this, "input_min must be a scalar if axis is unspecified"));
      OP_REQUIRES(ctx, mx.dims() == 0,
                  KernelError(*this, "input_max must be a scalar if axis is unspecified"));
    } else {
      OP_REQUIRES(ctx, mn.dims() == 1 && mn.dim_size(0) == depth,
                  KernelError(*this, "min has incorrect size, expected ", depth, " was ",
                              mn.dims() == 1 ? mn.dim_size(0) : 1));
      OP_REQUIRES(ctx, mx.dims() == 1 && mx.dim_size(0) == depth,
                  KernelError(*this, "max has incorrect size, expected ", depth, " was ",
                              mx.dims() == 1 ? mx.dim_size(0) : 1));
    }
    Tensor *dx, *dmin, *dmax;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, in.shape(), &dx));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, mn.shape(), &dmin));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(2, mn.shape(), &dmax));
    // The input as [outer, depth, inner]: element i belongs to channel (i / inner) % depth.
    int64_t inner = 1;
    for (int d = axis_ + 1; axis_ != -1 && d < in.dims(); ++d) inner *= in.dim_size(d);
    const bool ok = DispatchTypes(TypeList<float, double>(), in.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const T* g = grad.data<T>();
      const T* x = in.data<T>();
      const T* lo = mn.data<T>();
      const T* hi = mx.data<T>();
      T* out = dx->data<T>();
      for (int64_t i = 0; i < in.NumElements(); ++i) {
        const int64_t c = axis_ == -1 ? 0 : (i / inner) % depth;
        out[i] = x[i] >= lo[c] && x[i] <= hi[c] ? g[i] : T(0);
      }
      std::fill(dmin->data<T>(), dmin->data<T>() + dmin->NumElements(), T(0));
      std::fill(dmax->data<T>(), dmax->data<T>() + dmax->NumElements(), T(0));
    });
    OP_REQUIRES(ctx, ok, UnsupportedType(*this, in.dtype()));
  }

 private:
  int axis_ = -1;
};
REGISTER_KERNEL_BUILDER(Name("QuantizeAndDequantizeV4Grad")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", {DT_FLOAT, DT_DOUBLE}),
                        QuantizeAndDequantizeV4GradOp);
REGISTER_KERNEL_BUILDER(Name("QuantizeV2").Device(DEVICE_CPU).TypeConstraint("T",
                                                                              QuantizedTypes()),
                        QuantizeV2Op);
REGISTER_KERNEL_BUILDER(Name("Dequantize").Device(DEVICE_CPU).TypeConstraint("T",
                                                                              QuantizedTypes()),
                        DequantizeOp);

}  // namespace
}  // namespace sg
