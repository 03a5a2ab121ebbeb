// LRN (local response normalization) over the depth (last) dim of an NHWC tensor, and LRNGrad,
// its gradient as TensorFlow's CPU kernel computes it: with N_j = bias + alpha * sum of x_k^2 over
// the window of j and y the forward output,
//   dx_k = sum over j with k in j's window of dy_j * (-2 * alpha * beta * x_k * y_j / N_j
//          + (k == j ? N_j^-beta : 0)).
// half computes in float and rounds once.
#include <cmath>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"
#include "core/kernels/parallel_for.h"

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
    ParallelFor(ctx->eigen_cpu_device(), rows, Eigen::TensorOpCost(cost, cost, cost), work);
  }

 private:
  int64_t radius_;
  float bias_, alpha_, beta_;
};
template <typename T>
class LRNGradOp final : public OpKernel {
 public:
  explicit LRNGradOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("depth_radius", &radius_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("bias", &bias_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("alpha", &alpha_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("beta", &beta_));
    OP_REQUIRES(ctx, radius_ >= 0,
                errors::InvalidArgument("depth_radius must be non-negative (node '",
                                        ctx->def().name(), "')"));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& dy = ctx->input(0);
    const Tensor& x_t = ctx->input(1);
    const Tensor& y_t = ctx->input(2);
    OP_REQUIRES(ctx, dy.dims() == 4 && x_t.dims() == 4 && y_t.dims() == 4,
                NodeError(ctx, "inputs must be 4-dimensional"));
    OP_REQUIRES(ctx, dy.shape() == x_t.shape() && dy.shape() == y_t.shape(),
                NodeError(ctx, "input_grads, input_image, and out_image should have the same "
                               "shape"));
    const int64_t depth = dy.dim_size(3);
    const int64_t rows = dy.NumElements() / std::max<int64_t>(depth, 1);
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, dy.shape(), &out));
    if (dy.NumElements() == 0) return;
    const T* g = dy.data<T>();
    const T* x = x_t.data<T>();
    const T* y = y_t.data<T>();
    T* dx = out->data<T>();
    auto work = [&](Eigen::Index begin, Eigen::Index end) {
      std::vector<float> acc(depth);
      for (Eigen::Index r = begin; r < end; ++r) {
        const T* gp = g + r * depth;
        const T* xp = x + r * depth;
        const T* yp = y + r * depth;
        std::fill(acc.begin(), acc.end(), 0.0f);
        for (int64_t j = 0; j < depth; ++j) {
          const int64_t lo = std::max<int64_t>(0, j - radius_);
          const int64_t hi = std::min<int64_t>(depth - 1, j + radius_);
          float norm = 0;
          for (int64_t k = lo; k <= hi; ++k) {
            const float v = static_cast<float>(xp[k]);
            norm += v * v;
          }
          norm = alpha_ * norm + bias_;
          const float gj = static_cast<float>(gp[j]);
          const float coef = -2.0f * alpha_ * beta_ * static_cast<float>(yp[j]) / norm;
          for (int64_t k = lo; k <= hi; ++k) {
            float d = coef * static_cast<float>(xp[k]);
            if (k == j) d += std::pow(norm, -beta_);
            acc[k] += d * gj;
          }
        }
        T* dp = dx + r * depth;
        for (int64_t k = 0; k < depth; ++k) dp[k] = static_cast<T>(acc[k]);
      }
    };
    const double cost = static_cast<double>(depth * (4 * radius_ + 2));
    ParallelFor(ctx->eigen_cpu_device(), rows, Eigen::TensorOpCost(cost, cost, cost), work);
  }

 private:
  int64_t radius_;
  float bias_, alpha_, beta_;
};

REGISTER_KERNEL_BUILDER(Name("LRN").Device(DEVICE_CPU).TypeConstraint<float>("T"), LRNOp<float>);
REGISTER_KERNEL_BUILDER(Name("LRNGrad").Device(DEVICE_CPU).TypeConstraint<float>("T"),
                        LRNGradOp<float>);
REGISTER_KERNEL_BUILDER(Name("LRNGrad").Device(DEVICE_CPU).TypeConstraint<half>("T"),
                        LRNGradOp<half>);
REGISTER_KERNEL_BUILDER(Name("LRN").Device(DEVICE_CPU).TypeConstraint<half>("T"), LRNOp<half>);

}  // namespace
}  // namespace sg
