// _FusedMatMul: the product as MatMul computes it, then, row by row while the row is still in
// cache, the bias (fused_ops[0] = "BiasAdd", args = [bias]) and the activation (fused_ops[1]:
// Relu, Relu6, Elu, LeakyRelu with leakyrelu_alpha, Tanh, Sigmoid). float, and half and bfloat16
// computed in float (rounded once, at the end). TensorFlow's remapper and sg's graph optimiser
// (core/graph/optimizer.h) make these nodes.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"
#include "core/kernels/fused_epilogue.h"
#include "core/kernels/matmul_op.h"

namespace sg {
namespace {

template <typename T>
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
    const std::string where = absl::StrCat(" (node '", ctx->def().name(), "')");
    OP_REQUIRES(ctx,
                !ops.empty() && ops.size() <= 2 && ops[0] == "BiasAdd" &&
                    ParseFusedActivation(ops.size() == 2 ? ops[1] : "", &activation_),
                errors::Unimplemented("_FusedMatMul does not support fused_ops [",
                                      absl::StrJoin(ops, ", "), "] on the CPU", where));
    OP_REQUIRES(ctx, num_args == 1,
                errors::InvalidArgument("_FusedMatMul with BiasAdd takes 1 arg, got ", num_args,
                                        where));
    const_b_ = OneDnnConv::ConstFilterAttr(ctx);
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
    if constexpr (std::is_same_v<T, float>) {
      ComputeFloat(ctx, a, b, bias, m, k, n, out);
    } else {
      const auto& d = ctx->eigen_cpu_device();
      auto widen = [&](const Tensor& from, Tensor* to) -> absl::Status {
        SG_RETURN_IF_ERROR(ctx->allocate_temp(DT_FLOAT, from.shape(), to));
        if (from.NumElements() > 0) {
          to->flat<float>().device(d) = from.flat<T>().template cast<float>();
        }
        return absl::OkStatus();
      };
      Tensor fa, fb, fbias, fout;
      OP_REQUIRES_OK(ctx, widen(a, &fa));
      OP_REQUIRES_OK(ctx, widen(b, &fb));
      OP_REQUIRES_OK(ctx, widen(bias, &fbias));
      OP_REQUIRES_OK(ctx, ctx->allocate_temp(DT_FLOAT, out->shape(), &fout));
      ComputeFloat(ctx, fa, fb, fbias, m, k, n, &fout);
      out->flat<T>().device(d) = fout.flat<float>().template cast<T>();
    }
  }

 private:
  // The float product and epilogue into `out` ([m, n], float).
  void ComputeFloat(OpKernelContext* ctx, const Tensor& a, const Tensor& b, const Tensor& bias,
                    int64_t m, int64_t k, int64_t n, Tensor* out) {
    float* y = out->data<float>();
    // A constant b (float only: the other types' b is a temporary here) on the packed product,
    // the bias and an activation it has (all but Tanh and Sigmoid) in the same pass.
    if (const_b_ && std::is_same_v<T, float>) {
      OneDnnConv::Epilogue ep;
      ep.bias = bias.data<float>();
      ep.alpha = alpha_;
      const bool in_tile = OneDnnConv::EpilogueAct(activation_, &ep.act);
      if (ConstMatMulFloat(ctx, &product_, a.data<float>(), b, y, m, k, n, transpose_a_,
                           transpose_b_, in_tile ? &ep : nullptr)) {
        if (!in_tile) {
          ApplyFusedEpilogue<float>(ctx->eigen_cpu_device(), y, m, n, nullptr, nullptr,
                                    bias.data<float>(), activation_, alpha_);
        }
        return;
      }
    }
    MatMulFloat(ctx, a.data<float>(), b.data<float>(), y, m, k, n, transpose_a_, transpose_b_);
    ApplyFusedEpilogue<float>(ctx->eigen_cpu_device(), y, m, n, nullptr, nullptr,
                              bias.data<float>(), activation_, alpha_);
  }

  bool transpose_a_ = false, transpose_b_ = false;
  float alpha_ = 0.2f;
  FusedActivation activation_ = FusedActivation::kNone;
  bool const_b_ = false;   // b is a Const node's tensor (ConstMatMulFloat)
  PanelProduct product_;  // b packed, for ConstMatMulFloat
};

REGISTER_KERNEL_BUILDER(Name("_FusedMatMul").Device(DEVICE_CPU).TypeConstraint<float>("T"),
                        FusedMatMulOp<float>);
REGISTER_KERNEL_BUILDER(Name("_FusedMatMul").Device(DEVICE_CPU).TypeConstraint<half>("T"),
                        FusedMatMulOp<half>);
REGISTER_KERNEL_BUILDER(Name("_FusedMatMul").Device(DEVICE_CPU).TypeConstraint<bfloat16>("T"),
                        FusedMatMulOp<bfloat16>);

}  // namespace
}  // namespace sg
