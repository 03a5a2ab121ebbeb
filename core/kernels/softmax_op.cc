// Softmax and LogSoftmax over the last axis, stable: the row's maximum is subtracted before exp.
// Rows are spread over the intra-op pool; each row is vectorized by Eigen. Half and bfloat16 are
// computed in float (one code path with float's) and rounded once.
#include <vector>

#include "core/kernels/cwise_ops_common.h"
#include "core/kernels/parallel_for.h"

namespace sg {
namespace {

template <bool kLog>
class SoftmaxOp final : public OpKernel {
 public:
  explicit SoftmaxOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& logits = ctx->input(0);
    OP_REQUIRES(ctx, logits.dims() >= 1,
                KernelError(*this, "logits must have >= 1 dimension, got ",
                            logits.shape().DebugString()));
    const int64_t cols = logits.dim_size(logits.dims() - 1);
    const int64_t rows = cols == 0 ? 0 : logits.NumElements() / cols;
    bool ok = DispatchTypes(FloatTypesWithBf16(), logits.dtype(), [&](auto tag) {
      using T = decltype(tag);
      using W = ComputeType<T>;
      using Row = Eigen::Array<W, Eigen::Dynamic, 1>;
      Tensor* out;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(0, logits.shape(), &out));
      if (rows == 0) return;
      const T* in = logits.data<T>();
      T* o = out->data<T>();
      ParallelFor(ctx->eigen_cpu_device(),
          rows, Eigen::TensorOpCost(cols * sizeof(T), cols * sizeof(T), cols * 20.0),
          [&](Eigen::Index begin, Eigen::Index end) {
            Row x(cols), y(cols);
            for (Eigen::Index r = begin; r < end; ++r) {
              for (int64_t c = 0; c < cols; ++c) x[c] = static_cast<W>(in[r * cols + c]);
              const W max = x.maxCoeff();
              y = x - max;
              if (kLog) {
                y -= std::log(y.exp().sum());
              } else {
                y = y.exp();
                y /= y.sum();
              }
              for (int64_t c = 0; c < cols; ++c) o[r * cols + c] = static_cast<T>(y[c]);
            }
          });
    });
    if (!ok) ctx->CtxFailure(UnsupportedType(*this, logits.dtype()));
  }
};

REGISTER_KERNEL_BUILDER(Name("Softmax").Device(DEVICE_CPU), SoftmaxOp<false>);
REGISTER_KERNEL_BUILDER(Name("LogSoftmax").Device(DEVICE_CPU), SoftmaxOp<true>);

}  // namespace
}  // namespace sg
