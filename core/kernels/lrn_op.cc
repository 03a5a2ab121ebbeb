// LRN (local response normalization) over the depth (last) dim of an NHWC tensor.
#include <cmath>

#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"

namespace sg {
namespace {

// LRN over the last dim: out = in / (bias + alpha * sum of squares in [c - r, c + r])^beta.
template <typename T>
class LRNOp final : public OpKernel {
 public:
  explicit LRNOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("depth_radius", &radius_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("bias", &bias_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("alpha", &alpha_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("beta", &beta_));
    OP_REQUIRES(ctx, radius_ >= 0,
                errors::InvalidArgument("depth_radius must be non-negative (node '",
                                        ctx->def().name(), "')"));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    OP_REQUIRES(ctx, in.dims() == 4,
                NodeError(ctx, "input must be 4-dimensional, got ", in.shape().DebugString()));
    const int64_t depth = in.dim_size(3);
    const int64_t rows = in.NumElements() / std::max<int64_t>(depth, 1);
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, in.shape(), &out));
    if (in.NumElements() == 0) return;
    const T* x = in.data<T>();
    T* y = out->data<T>();
    auto work = [&](Eigen::Index begin, Eigen::Index end) {
      for (Eigen::Index r = begin; r < end; ++r) {
        const T* p = x + r * depth;
        T* q = y + r * depth;
        for (int64_t c = 0; c < depth; ++c) {
          float s = 0;
          const int64_t lo = std::max<int64_t>(0, c - radius_);
          const int64_t hi = std::min<int64_t>(depth - 1, c + radius_);
          for (int64_t k = lo; k <= hi; ++k) {
            const float v = static_cast<float>(p[k]);
            s += v * v;
          }
          q[c] = static_cast<T>(static_cast<float>(p[c]) * std::pow(bias_ + alpha_ * s, -beta_));
        }
      }
    };
    const double cost = static_cast<double>(depth * (2 * radius_ + 1));
    ctx->eigen_cpu_device().parallelFor(rows, Eigen::TensorOpCost(cost, cost, cost), work);
  }

 private:
  int64_t radius_;
  float bias_, alpha_, beta_;
};
REGISTER_KERNEL_BUILDER(Name("LRN").Device(DEVICE_CPU).TypeConstraint<float>("T"), LRNOp<float>);
REGISTER_KERNEL_BUILDER(Name("LRN").Device(DEVICE_CPU).TypeConstraint<half>("T"), LRNOp<half>);

}  // namespace
}  // namespace sg
