// FakeQuantWithMinMaxArgs, FakeQuantWithMinMaxVars and FakeQuantWithMinMaxVarsPerChannel: float
// in, float out, each value rounded to the nearest of 2^num_bits (2^num_bits - 1 with
// narrow_range) evenly spaced levels.
//
// The range [min, max] is first "nudged" so that 0.0 is exactly a level: the zero point
// quant_min - min / scale is rounded and clamped to [quant_min, quant_max], which moves the range
// to [(quant_min - zp) * scale, (quant_max - zp) * scale]. A value is clamped to that range and
// becomes q = floor(x / scale + (zp - quant_min) + 0.5), a level counted from the bottom, and
// then (q - (zp - quant_min)) * scale. TensorFlow computes exactly these steps in float (x times
// the float reciprocal of the scale, then the two additions in that order), which the cases
// check bit for bit.
//
// The gradients (FakeQuantWithMinMaxArgsGradient, ...VarsGradient, ...VarsPerChannelGradient)
// pass a gradient through where the input lies in the nudged range [lo, hi] and 0 elsewhere;
// the Vars forms also sum, per range, the gradients below lo (for min) and above hi (for max).
#include <algorithm>
#include <cmath>
#include <vector>

#include "core/kernels/cwise_ops_common.h"

namespace sg {
namespace {

absl::Status CheckNumBits(const OpKernel& k, int num_bits) {
  if (num_bits < 2 || num_bits > 16) {
    return KernelError(k, "num_bits must be between 2 and 16, inclusive");
  }
  return absl::OkStatus();
}

// The nudged range of [min, max] and how to map a float onto it.
struct FakeQuantRange {
  float lo, hi;        // the nudged min and max
  float scale, inv;    // level spacing and its reciprocal
  float zero_offset;   // zp - quant_min: the level of 0.0, counted from the bottom

  FakeQuantRange(float min, float max, int num_bits, bool narrow_range) {
    const float quant_min = narrow_range ? 1.0f : 0.0f;
    const float quant_max = static_cast<float>((1 << num_bits) - 1);
    scale = (max - min) / (quant_max - quant_min);
    const float zp_from_min = quant_min - min / scale;
    float zp;
    if (zp_from_min < quant_min) {
      zp = quant_min;
    } else if (zp_from_min > quant_max) {
      zp = quant_max;
    } else {
      zp = std::round(zp_from_min);
    }
    lo = (quant_min - zp) * scale;
    hi = (quant_max - zp) * scale;
    inv = 1.0f / scale;
    zero_offset = zp - quant_min;
  }

  float Apply(float x) const {
    const float clamped = std::max(std::min(x, hi), lo);
    const float q = std::floor(clamped * inv + zero_offset + 0.5f);
    return (q - zero_offset) * scale;
  }
};

void FakeQuantFlat(const Tensor& in, const FakeQuantRange& r, Tensor* out) {
  const float* x = in.data<float>();
  float* y = out->data<float>();
  const int64_t n = in.NumElements();
  for (int64_t i = 0; i < n; ++i) y[i] = r.Apply(x[i]);
}

class FakeQuantWithMinMaxArgsOp final : public OpKernel {
 public:
  explicit FakeQuantWithMinMaxArgsOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    float min, max;
    int num_bits;
    bool narrow_range;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("min", &min));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("max", &max));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("num_bits", &num_bits));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("narrow_range", &narrow_range));
    OP_REQUIRES(ctx, min < max,
                KernelError(*this, "min has to be smaller than max, was: ", min, " >= ", max));
    OP_REQUIRES_OK(ctx, CheckNumBits(*this, num_bits));
    range_ = FakeQuantRange(min, max, num_bits, narrow_range);
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output(0, 0, in.shape(), &out));
    FakeQuantFlat(in, range_, out);
  }

 private:
  FakeQuantRange range_{-6.0f, 6.0f, 8, false};
};

class FakeQuantWithMinMaxVarsOp final : public OpKernel {
 public:
  explicit FakeQuantWithMinMaxVarsOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("num_bits", &num_bits_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("narrow_range", &narrow_range_));
    OP_REQUIRES_OK(ctx, CheckNumBits(*this, num_bits_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    const Tensor& min = ctx->input(1);
    const Tensor& max = ctx->input(2);
    OP_REQUIRES(ctx, min.dims() == 0,
                KernelError(*this, "`min` must be rank 0 but is rank ", min.dims()));
    OP_REQUIRES(ctx, max.dims() == 0,
                KernelError(*this, "`max` must be rank 0 but is rank ", max.dims()));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output(0, 0, in.shape(), &out));
    FakeQuantFlat(in,
                  FakeQuantRange(min.data<float>()[0], max.data<float>()[0], num_bits_,
                                 narrow_range_),
                  out);
  }

 private:
  int num_bits_ = 8;
  bool narrow_range_ = false;
};

class FakeQuantWithMinMaxVarsPerChannelOp final : public OpKernel {
 public:
  explicit FakeQuantWithMinMaxVarsPerChannelOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("num_bits", &num_bits_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("narrow_range", &narrow_range_));
    OP_REQUIRES_OK(ctx, CheckNumBits(*this, num_bits_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    const Tensor& min = ctx->input(1);
    const Tensor& max = ctx->input(2);
    OP_REQUIRES(ctx, in.dims() >= 1,
                KernelError(*this, "inputs must have rank at least 1, got shape ",
                            in.shape().DebugString()));
    const int64_t depth = in.dim_size(in.dims() - 1);
    OP_REQUIRES(ctx, min.dims() == 1 && min.dim_size(0) == depth,
                KernelError(*this, "min has incorrect size, expected ", depth, " was ",
                            min.shape().DebugString()));
    OP_REQUIRES(ctx, max.dims() == 1 && max.dim_size(0) == depth,
                KernelError(*this, "max has incorrect size, expected ", depth, " was ",
                            max.shape().DebugString()));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output(0, 0, in.shape(), &out));
    if (depth == 0) return;
    std::vector<FakeQuantRange> ranges;
    ranges.reserve(depth);
    for (int64_t c = 0; c < depth; ++c) {
      ranges.emplace_back(min.data<float>()[c], max.data<float>()[c], num_bits_, narrow_range_);
    }
    const float* x = in.data<float>();
    float* y = out->data<float>();
    const int64_t n = in.NumElements();
    for (int64_t i = 0; i < n; ++i) y[i] = ranges[i % depth].Apply(x[i]);
  }

 private:
  int num_bits_ = 8;
  bool narrow_range_ = false;
};

// ---- gradients ------------------------------------------------------------------------------

absl::Status CheckSameSize(const OpKernel& k, const Tensor& gradients, const Tensor& inputs) {
  if (gradients.shape() != inputs.shape()) {
    return KernelError(k, "gradients and inputs must be the same size: ",
                       gradients.shape().DebugString(), " vs ", inputs.shape().DebugString());
  }
  return absl::OkStatus();
}

class FakeQuantWithMinMaxArgsGradientOp final : public OpKernel {
 public:
  explicit FakeQuantWithMinMaxArgsGradientOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    float min, max;
    int num_bits;
    bool narrow_range;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("min", &min));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("max", &max));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("num_bits", &num_bits));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("narrow_range", &narrow_range));
    OP_REQUIRES(ctx, min < max,
                KernelError(*this, "min has to be smaller than max, was: ", min, " >= ", max));
    OP_REQUIRES_OK(ctx, CheckNumBits(*this, num_bits));
    range_ = FakeQuantRange(min, max, num_bits, narrow_range);
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& grad = ctx->input(0);
    const Tensor& in = ctx->input(1);
    OP_REQUIRES_OK(ctx, CheckSameSize(*this, grad, in));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, in.shape(), &out));
    const float* g = grad.data<float>();
    const float* x = in.data<float>();
    float* y = out->data<float>();
    for (int64_t i = 0; i < in.NumElements(); ++i) {
      y[i] = x[i] >= range_.lo && x[i] <= range_.hi ? g[i] : 0.0f;
    }
  }

 private:
  FakeQuantRange range_{-6.0f, 6.0f, 8, false};
};

// Both Vars gradients: inputs viewed as [rows, depth] with one range per column (depth 1 and a
// single range for the scalar form). Outputs 1 and 2 hold `depth` sums, rows in order.
class FakeQuantWithMinMaxVarsGradientOp final : public OpKernel {
 public:
  explicit FakeQuantWithMinMaxVarsGradientOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("num_bits", &num_bits_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("narrow_range", &narrow_range_));
    OP_REQUIRES_OK(ctx, CheckNumBits(*this, num_bits_));
    per_channel_ = ctx->def().op() == "FakeQuantWithMinMaxVarsPerChannelGradient";
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& grad = ctx->input(0);
    const Tensor& in = ctx->input(1);
    const Tensor& min = ctx->input(2);
    const Tensor& max = ctx->input(3);
    OP_REQUIRES_OK(ctx, CheckSameSize(*this, grad, in));
    int64_t depth = 1;
    TensorShape range_shape;
    if (per_channel_) {
      // TensorFlow's shape function allows ranks 1 to 4; its kernel takes any rank >= 1 (and
      // aborts on a scalar, which sg rejects).
      OP_REQUIRES(ctx, in.dims() >= 1,
                  KernelError(*this, "inputs must have rank at least 1, got shape ",
                              in.shape().DebugString()));
      depth = in.dim_size(in.dims() - 1);
      OP_REQUIRES(ctx, min.dims() == 1 && min.dim_size(0) == depth,
                  KernelError(*this, "min has incorrect size, expected ", depth, " was ",
                              min.shape().DebugString()));
      OP_REQUIRES(ctx, max.dims() == 1 && max.dim_size(0) == depth,
                  KernelError(*this, "max has incorrect size, expected ", depth, " was ",
                              max.shape().DebugString()));
      range_shape = TensorShape({depth});
    } else {
      OP_REQUIRES(ctx, min.dims() == 0,
                  KernelError(*this, "`min` must be rank 0 but is rank ", min.dims()));
      OP_REQUIRES(ctx, max.dims() == 0,
                  KernelError(*this, "`max` must be rank 0 but is rank ", max.dims()));
    }
    Tensor *dx, *dmin, *dmax;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, in.shape(), &dx));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, range_shape, &dmin));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(2, range_shape, &dmax));
    std::vector<FakeQuantRange> ranges;
    for (int64_t c = 0; c < depth; ++c) {
      ranges.emplace_back(min.data<float>()[c], max.data<float>()[c], num_bits_, narrow_range_);
    }
    float* below = dmin->data<float>();
    float* above = dmax->data<float>();
    std::fill(below, below + depth, 0.0f);
    std::fill(above, above + depth, 0.0f);
    if (depth == 0) return;
    const float* g = grad.data<float>();
    const float* x = in.data<float>();
    float* y = dx->data<float>();
    for (int64_t i = 0; i < in.NumElements(); ++i) {
      const int64_t c = i % depth;
      const FakeQuantRange& r = ranges[c];
      y[i] = x[i] >= r.lo && x[i] <= r.hi ? g[i] : 0.0f;
      if (x[i] < r.lo) below[c] += g[i];
      if (x[i] > r.hi) above[c] += g[i];
    }
  }

 private:
  int num_bits_ = 8;
  bool narrow_range_ = false;
  bool per_channel_ = false;
};

REGISTER_KERNEL_BUILDER(Name("FakeQuantWithMinMaxArgs").Device(DEVICE_CPU),
                        FakeQuantWithMinMaxArgsOp);
REGISTER_KERNEL_BUILDER(Name("FakeQuantWithMinMaxVars").Device(DEVICE_CPU),
                        FakeQuantWithMinMaxVarsOp);
REGISTER_KERNEL_BUILDER(Name("FakeQuantWithMinMaxVarsPerChannel").Device(DEVICE_CPU),
                        FakeQuantWithMinMaxVarsPerChannelOp);
REGISTER_KERNEL_BUILDER(Name("FakeQuantWithMinMaxArgsGradient").Device(DEVICE_CPU),
                        FakeQuantWithMinMaxArgsGradientOp);
REGISTER_KERNEL_BUILDER(Name("FakeQuantWithMinMaxVarsGradient").Device(DEVICE_CPU),
                        FakeQuantWithMinMaxVarsGradientOp);
REGISTER_KERNEL_BUILDER(Name("FakeQuantWithMinMaxVarsPerChannelGradient").Device(DEVICE_CPU),
                        FakeQuantWithMinMaxVarsGradientOp);

}  // namespace
}  // namespace sg
