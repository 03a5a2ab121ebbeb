// Shape, ShapeN, Size and Rank: facts about the input's shape as small int tensors.
#include <limits>

#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"

namespace sg {
namespace {

// Writes `values` into a new int32 or int64 tensor; INVALID_ARGUMENT when a value does not fit.
absl::Status MakeIntTensor(OpKernelContext* ctx, DataType dtype, const TensorShape& shape,
                           absl::Span<const int64_t> values, Tensor* out) {
  SG_ASSIGN_OR_RETURN(*out, Tensor::Allocate(dtype, shape));
  for (size_t i = 0; i < values.size(); ++i) {
    if (dtype == DT_INT32) {
      if (values[i] > std::numeric_limits<int32_t>::max()) {
        return NodeError(ctx, "value ", values[i], " does not fit in int32; use out_type int64");
      }
      out->data<int32_t>()[i] = static_cast<int32_t>(values[i]);
    } else {
      out->data<int64_t>()[i] = values[i];
    }
  }
  return absl::OkStatus();
}

class ShapeOp final : public OpKernel {
 public:
  explicit ShapeOp(OpKernelConstruction* ctx) : OpKernel(ctx) { set_expensive(false); }
  void Compute(OpKernelContext* ctx) override {
    for (int i = 0; i < ctx->num_inputs(); ++i) {
      const TensorShape& s = ctx->input(i).shape();
      Tensor out;
      OP_REQUIRES_OK(ctx, MakeIntTensor(ctx, ctx->expected_output_dtype(i),
                                        TensorShape({s.dims()}), s.dim_sizes(), &out));
      ctx->set_output(i, out);
    }
  }
};
REGISTER_KERNEL_BUILDER(Name("Shape").Device(DEVICE_CPU), ShapeOp);
REGISTER_KERNEL_BUILDER(Name("ShapeN").Device(DEVICE_CPU), ShapeOp);

class SizeOp final : public OpKernel {
 public:
  explicit SizeOp(OpKernelConstruction* ctx) : OpKernel(ctx) { set_expensive(false); }
  void Compute(OpKernelContext* ctx) override {
    const int64_t n = ctx->input(0).NumElements();
    Tensor out;
    OP_REQUIRES_OK(ctx, MakeIntTensor(ctx, ctx->expected_output_dtype(0), TensorShape(),
                                      absl::MakeConstSpan(&n, 1), &out));
    ctx->set_output(0, out);
  }
};
REGISTER_KERNEL_BUILDER(Name("Size").Device(DEVICE_CPU), SizeOp);

class RankOp final : public OpKernel {
 public:
  explicit RankOp(OpKernelConstruction* ctx) : OpKernel(ctx) { set_expensive(false); }
  void Compute(OpKernelContext* ctx) override {
    ctx->set_output(0, Tensor::Scalar<int32_t>(ctx->input(0).dims()));
  }
};
REGISTER_KERNEL_BUILDER(Name("Rank").Device(DEVICE_CPU), RankOp);

}  // namespace
}  // namespace sg
