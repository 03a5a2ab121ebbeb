// Kernels on quantized tensors that carry their float range as two scalar inputs beside them:
// QuantizedMaxPool and QuantizedAvgPool (NHWC windows; the range passes through),
// QuantizedRelu and QuantizedRelu6 (clamped at the levels of 0.0 and 6.0 in the input's range).
#include <algorithm>
#include <cmath>

#include "core/kernels/array_copy.h"
#include "core/kernels/cwise_ops_common.h"
#include "core/kernels/quantization_util.h"
#include "core/kernels/window_util.h"

namespace sg {
namespace {

// The level of float `x` in the range [min, max] of T (TensorFlow's FloatToQuantized): the
// range's width in float, the rest in double, each product rounded half away from zero.
template <typename T>
int64_t FloatToLevel(float x, float min, float max) {
  const double steps = std::ldexp(1.0, 8 * sizeof(T));
  const double adjust = steps / (steps - 1.0);
  const double scale = steps / (static_cast<double>(max - min) * adjust);
  const double q = std::round(x * scale) - std::round(min * scale) + kQuantLowest<T>;
  return static_cast<int64_t>(std::min(std::max(q, kQuantLowest<T>), kQuantHighest<T>));
}

absl::Status ScalarRange(OpKernelContext* ctx, int first) {
  for (int i = first; i <= first + 1; ++i) {
    if (ctx->input(i).NumElements() != 1) {
      return NodeError(ctx, "input ", i, " (a float range bound) must hold one value, got shape ",
                       ctx->input(i).shape().DebugString());
    }
  }
  return absl::OkStatus();
}

void PassRange(OpKernelContext* ctx, int first) {
  for (int i = 0; i < 2; ++i) {
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1 + i, TensorShape(), &out));
    out->data<float>()[0] = ctx->input(first + i).data<float>()[0];
  }
}

// ---- pooling -------------------------------------------------------------------------------

class QuantizedPoolOp : public OpKernel {
 public:
  explicit QuantizedPoolOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string p;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("ksize", &ksize_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("strides", &strides_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("padding", &p));
    OP_REQUIRES_OK(ctx, ParsePadding(p, &padding_));
    OP_REQUIRES(ctx, padding_ != Padding::kExplicit,
                KernelError(*this, "padding must be SAME or VALID"));
    OP_REQUIRES(ctx, ksize_.size() == 4 && strides_.size() == 4,
                KernelError(*this, "Sliding window ksize and strides fields must specify 4 ",
                            "dimensions"));
    OP_REQUIRES(ctx, ksize_[0] == 1 && strides_[0] == 1,
                errors::Unimplemented(type_string(), " (node '", name(), "'): Pooling is not ",
                                      "yet supported on the batch dimension."));
    OP_REQUIRES(ctx, ksize_[3] == 1 && strides_[3] == 1,
                errors::Unimplemented(type_string(), " (node '", name(), "'): Pooling over the ",
                                      "depth dimension is not supported."));
    OP_REQUIRES(ctx, ksize_[1] > 0 && ksize_[2] > 0 && strides_[1] > 0 && strides_[2] > 0,
                KernelError(*this, "Sliding window ksize and strides must be positive"));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    OP_REQUIRES_OK(ctx, ScalarRange(ctx, 1));
    OP_REQUIRES(ctx, in.dims() == 4,
                KernelError(*this, "input must be 4-dimensional, got ", in.shape().DebugString()));
    const int64_t n = in.dim_size(0), h = in.dim_size(1), w = in.dim_size(2), c = in.dim_size(3);
    int64_t oh, ow, pad_top, pad_left;
    absl::Status s = WindowedOutputSize(h, ksize_[1], 1, strides_[1], padding_, 0, 0, &oh,
                                        &pad_top);
    if (s.ok()) s = WindowedOutputSize(w, ksize_[2], 1, strides_[2], padding_, 0, 0, &ow,
                                       &pad_left);
    OP_REQUIRES(ctx, s.ok(), KernelError(*this, s.message()));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({n, oh, ow, c}), &out));
    PassRange(ctx, 1);
    if (!ctx->status().ok() || out->NumElements() == 0) return;
    const bool ok = DispatchQuantized(in.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const T* x = in.data<T>();
      T* y = out->data<T>();
      std::vector<int64_t> acc(c);
      for (int64_t b = 0; b < n; ++b) {
        for (int64_t i = 0; i < oh; ++i) {
          const int64_t hs = i * strides_[1] - pad_top;
          const int64_t h0 = std::max<int64_t>(hs, 0), h1 = std::min(hs + ksize_[1], h);
          for (int64_t j = 0; j < ow; ++j) {
            const int64_t ws = j * strides_[2] - pad_left;
            const int64_t w0 = std::max<int64_t>(ws, 0), w1 = std::min(ws + ksize_[2], w);
            std::fill(acc.begin(), acc.end(), max_ ? static_cast<int64_t>(kQuantLowest<T>) : 0);
            for (int64_t r = h0; r < h1; ++r) {
              for (int64_t q = w0; q < w1; ++q) {
                const T* px = x + ((b * h + r) * w + q) * c;
                for (int64_t k = 0; k < c; ++k) {
                  acc[k] = max_ ? std::max<int64_t>(acc[k], px[k]) : acc[k] + px[k];
                }
              }
            }
            T* py = y + ((b * oh + i) * ow + j) * c;
            // The average truncates toward zero, as TensorFlow's integer division does.
            const int64_t count = std::max<int64_t>(1, (h1 - h0) * (w1 - w0));
            for (int64_t k = 0; k < c; ++k) {
              py[k] = static_cast<T>(max_ ? acc[k] : acc[k] / count);
            }
          }
        }
      }
    });
    if (!ok) ctx->CtxFailure(UnsupportedType(*this, in.dtype()));
  }

 protected:
  bool max_ = true;

 private:
  std::vector<int64_t> ksize_, strides_;
  Padding padding_ = Padding::kValid;
};

class QuantizedMaxPoolOp final : public QuantizedPoolOp {
 public:
  using QuantizedPoolOp::QuantizedPoolOp;
};

class QuantizedAvgPoolOp final : public QuantizedPoolOp {
 public:
  explicit QuantizedAvgPoolOp(OpKernelConstruction* ctx) : QuantizedPoolOp(ctx) {
    max_ = false;
  }
};

// ---- activations ---------------------------------------------------------------------------

// QuantizedRelu (cap false) and QuantizedRelu6 (cap true): out = clamp(x, level(0), level(6)) in
// the input's type and range, which pass through. TensorFlow's CPU kernels have out_type equal
// to Tinput (quint8 and qint32).
class QuantizedReluOp final : public OpKernel {
 public:
  explicit QuantizedReluOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    cap_ = type_string() == "QuantizedRelu6";
    OP_REQUIRES(ctx, input_type(0) == output_type(0),
                KernelError(*this, "out_type must equal Tinput"));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    OP_REQUIRES_OK(ctx, ScalarRange(ctx, 1));
    const float min = ctx->input(1).data<float>()[0], max = ctx->input(2).data<float>()[0];
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, in.shape(), &out));
    PassRange(ctx, 1);
    if (!ctx->status().ok()) return;
    const bool ok = DispatchQuantized(in.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const int64_t zero = FloatToLevel<T>(0.0f, min, max);
      const int64_t six = cap_ ? FloatToLevel<T>(6.0f, min, max) : kQuantHighest<T>;
      const T* x = in.data<T>();
      T* y = out->data<T>();
      for (int64_t i = 0; i < in.NumElements(); ++i) {
        y[i] = static_cast<T>(std::min<int64_t>(std::max<int64_t>(x[i], zero), six));
      }
    });
    if (!ok) ctx->CtxFailure(UnsupportedType(*this, in.dtype()));
  }

 private:
  bool cap_ = false;
};

REGISTER_KERNEL_BUILDER(
    Name("QuantizedMaxPool").Device(DEVICE_CPU).TypeConstraint("T", {DT_QINT8, DT_QUINT8}),
    QuantizedMaxPoolOp);
REGISTER_KERNEL_BUILDER(
    Name("QuantizedAvgPool").Device(DEVICE_CPU).TypeConstraint("T", {DT_QINT8, DT_QUINT8}),
    QuantizedAvgPoolOp);
REGISTER_KERNEL_BUILDER(Name("QuantizedRelu")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("Tinput", {DT_QUINT8, DT_QINT32})
                            .TypeConstraint("out_type", {DT_QUINT8, DT_QINT32}),
                        QuantizedReluOp);
REGISTER_KERNEL_BUILDER(Name("QuantizedRelu6")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("Tinput", {DT_QUINT8, DT_QINT32})
                            .TypeConstraint("out_type", {DT_QUINT8, DT_QINT32}),
                        QuantizedReluOp);

}  // namespace
}  // namespace sg
