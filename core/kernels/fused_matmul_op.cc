// _FusedMatMul (float): the product as MatMul computes it, then, row by row while the row is
// still in cache, the bias (fused_ops[0] = "BiasAdd", args = [bias]) and the activation
// (fused_ops[1]: Relu, Relu6, Elu, LeakyRelu with leakyrelu_alpha, Tanh, Sigmoid). TensorFlow's
// remapper and sg's graph optimiser (core/graph/optimizer.h) make these nodes.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"
#include "core/kernels/matmul_op.h"

namespace sg {
namespace {

enum class Activation { kNone, kRelu, kRelu6, kElu, kLeakyRelu, kTanh, kSigmoid };

class FusedMatMulOp final : public OpKernel {
 public:
  explicit FusedMatMulOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("transpose_a", &transpose_a_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("transpose_b", &transpose_b_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("leakyrelu_alpha", &alpha_));
    std::vector<std::string> ops;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("fused_ops", &ops));
    int64_t num_args = 0;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("num_args", &num_args));
    static const std::vector<std::pair<std::string, Activation>> kActs = {
        {"", Activation::kNone},       {"Relu", Activation::kRelu},
        {"Relu6", Activation::kRelu6}, {"Elu", Activation::kElu},
        {"LeakyRelu", Activation::kLeakyRelu}, {"Tanh", Activation::kTanh},
        {"Sigmoid", Activation::kSigmoid}};
    const std::string act = ops.size() == 2 ? ops[1] : "";
    auto it = std::find_if(kActs.begin(), kActs.end(),
                           [&](const auto& a) { return a.first == act; });
    const std::string where = absl::StrCat(" (node '", ctx->def().name(), "')");
    OP_REQUIRES(ctx,
                !ops.empty() && ops.size() <= 2 && ops[0] == "BiasAdd" && it != kActs.end(),
                errors::Unimplemented("_FusedMatMul does not support fused_ops [",
                                      absl::StrJoin(ops, ", "), "] on the CPU", where));
    OP_REQUIRES(ctx, num_args == 1,
                errors::InvalidArgument("_FusedMatMul with BiasAdd takes 1 arg, got ", num_args,
                                        where));
    activation_ = it->second;
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& a = ctx->input(0);
    const Tensor& b = ctx->input(1);
    const Tensor& bias = ctx->input(2);
    OP_REQUIRES(ctx, a.dims() == 2,
                NodeError(ctx, "In[0] is not a matrix: ", a.shape().DebugString()));
    OP_REQUIRES(ctx, b.dims() == 2,
                NodeError(ctx, "In[1] is not a matrix: ", b.shape().DebugString()));
    const int64_t m = a.dim_size(transpose_a_ ? 1 : 0), k = a.dim_size(transpose_a_ ? 0 : 1);
    const int64_t kb = b.dim_size(transpose_b_ ? 1 : 0), n = b.dim_size(transpose_b_ ? 0 : 1);
    OP_REQUIRES(ctx, k == kb,
                NodeError(ctx, "Matrix size-incompatible: In[0]: ", a.shape().DebugString(),
                          ", In[1]: ", b.shape().DebugString()));
    OP_REQUIRES(ctx, bias.dims() == 1 && bias.dim_size(0) == n,
                NodeError(ctx, "bias must be a vector of ", n,
                          " elements (the product's columns), got shape ",
                          bias.shape().DebugString()));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({m, n}), &out));
    if (out->NumElements() == 0) return;
    float* y = out->data<float>();
    MatMulFloat(ctx, a.data<float>(), b.data<float>(), y, m, k, n, transpose_a_, transpose_b_);
    const float* bv = bias.data<float>();
    const Activation act = activation_;
    const float alpha = alpha_;
    auto rows = [&](Eigen::Index begin, Eigen::Index end) {
      for (Eigen::Index r = begin; r < end; ++r) {
        float* row = y + r * n;
        for (int64_t c = 0; c < n; ++c) {
          float v = row[c] + bv[c];
          switch (act) {
            case Activation::kRelu: v = std::max(v, 0.0f); break;
            case Activation::kRelu6: v = std::min(std::max(v, 0.0f), 6.0f); break;
            case Activation::kElu: v = v < 0.0f ? std::expm1(v) : v; break;
            case Activation::kLeakyRelu: v = v > 0.0f ? v : v * alpha; break;
            default: break;
          }
          row[c] = v;
        }
      }
    };
    const auto& d = ctx->eigen_cpu_device();
    const double cost = static_cast<double>(n) * 4;
    if (m * n < 16384) {
      rows(0, m);
    } else {
      d.parallelFor(m, Eigen::TensorOpCost(cost, cost, cost), rows);
    }
    // Tanh and Sigmoid through Eigen's vectorised functions, as the Tanh and Sigmoid kernels.
    if (act == Activation::kTanh) {
      out->flat<float>().device(d) = out->flat<float>().tanh();
    } else if (act == Activation::kSigmoid) {
      out->flat<float>().device(d) = out->flat<float>().sigmoid();
    }
  }

 private:
  bool transpose_a_ = false, transpose_b_ = false;
  float alpha_ = 0.2f;
  Activation activation_ = Activation::kNone;
};

REGISTER_KERNEL_BUILDER(Name("_FusedMatMul").Device(DEVICE_CPU).TypeConstraint<float>("T"),
                        FusedMatMulOp);

}  // namespace
}  // namespace sg
