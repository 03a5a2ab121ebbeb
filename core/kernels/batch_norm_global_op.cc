// BatchNormWithGlobalNormalization, the pre-FusedBatchNorm inference batch norm of old graphs:
// per channel (the last dim), (t - m) * rsqrt(v + variance_epsilon) [* gamma] + beta. Half is
// computed in float.
#include <cmath>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"
#include "core/kernels/cwise_ops_common.h"
#include "core/kernels/parallel_for.h"

namespace sg {
namespace {

class BatchNormWithGlobalNormalizationOp final : public OpKernel {
 public:
  explicit BatchNormWithGlobalNormalizationOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("variance_epsilon", &epsilon_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("scale_after_normalization", &scale_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& t = ctx->input(0);
    OP_REQUIRES(ctx, t.dims() == 4,
                NodeError(ctx, "input must be 4-dimensional: ", t.shape().DebugString()));
    const int64_t depth = t.dim_size(3);
    static const char* const kNames[] = {"mean", "variance", "beta", "gamma"};
    for (int i = 1; i < 5; ++i) {
      const Tensor& v = ctx->input(i);
      OP_REQUIRES(ctx, v.dims() == 1 && v.dim_size(0) == depth,
                  NodeError(ctx, kNames[i - 1], " must be a vector of ", depth,
                            " elements (the input's depth), got shape ",
                            v.shape().DebugString()));
    }
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, t.shape(), &out));
    if (out->NumElements() == 0) return;
    DispatchTypes(FloatTypes(), t.dtype(), [&](auto tag) {
      using T = decltype(tag);
      using A = ComputeType<T>;
      std::vector<A> mean(depth), mul(depth), beta(depth);
      for (int64_t c = 0; c < depth; ++c) {
        mean[c] = static_cast<A>(ctx->input(1).data<T>()[c]);
        mul[c] = A(1) / std::sqrt(static_cast<A>(ctx->input(2).data<T>()[c]) +
                                  static_cast<A>(epsilon_));
        if (scale_) mul[c] *= static_cast<A>(ctx->input(4).data<T>()[c]);
        beta[c] = static_cast<A>(ctx->input(3).data<T>()[c]);
      }
      const T* in = t.data<T>();
      T* o = out->data<T>();
      const int64_t rows = t.NumElements() / depth;
      auto run = [&](Eigen::Index b, Eigen::Index e) {
        for (Eigen::Index r = b; r < e; ++r) {
          for (int64_t c = 0; c < depth; ++c) {
            const int64_t i = r * depth + c;
            o[i] = static_cast<T>((static_cast<A>(in[i]) - mean[c]) * mul[c] + beta[c]);
          }
        }
      };
      const double cost = static_cast<double>(depth * 3);
      ParallelFor(ctx->eigen_cpu_device(), rows, Eigen::TensorOpCost(cost, cost, cost), run);
    });
  }

 private:
  float epsilon_ = 0;
  bool scale_ = false;
};
REGISTER_KERNEL_BUILDER(Name("BatchNormWithGlobalNormalization")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", DataTypesOf(FloatTypes())),
                        BatchNormWithGlobalNormalizationOp);

}  // namespace
}  // namespace sg
