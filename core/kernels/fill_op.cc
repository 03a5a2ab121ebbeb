// Fill (dims, value), ZerosLike (of TensorLists too), OnesLike and Empty.
#include <cstring>

#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"
#include "core/kernels/tensor_list.h"

namespace sg {
namespace {

class FillOp final : public OpKernel {
 public:
  explicit FillOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& value = ctx->input(1);
    OP_REQUIRES(ctx, value.dims() == 0,
                NodeError(ctx, "value must be a scalar, got shape ", value.shape().DebugString()));
    TensorShape shape;
    OP_REQUIRES_OK(ctx, ShapeFromIntVector(ctx, ctx->input(0), &shape));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &out));
    FillWithScalar(&ctx->eigen_cpu_device(), value, out);
  }
};
REGISTER_KERNEL_BUILDER(Name("Fill").Device(DEVICE_CPU), FillOp);

// ZerosLike (ones = false) and OnesLike (ones = true).
class ConstantLikeOp final : public OpKernel {
 public:
  explicit ConstantLikeOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    ones_ = ctx->def().op() == "OnesLike";
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    if (in.dtype() == DT_VARIANT && !ones_) {
      Tensor* out;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(0, in.shape(), &out));
      for (int64_t i = 0; i < in.NumElements(); ++i) {
        const TensorList* list = in.data<Variant>()[i].get<TensorList>();
        OP_REQUIRES(ctx, list != nullptr,
                    NodeError(ctx, "ZerosLike of a variant that is not a TensorList: '",
                              in.data<Variant>()[i].DebugString(), "'"));
        TensorList zeros;
        absl::Status st = ZerosLikeList(*list, &zeros);
        OP_REQUIRES(ctx, st.ok(), NodeError(ctx, st.message()));
        out->data<Variant>()[i] = Variant(std::move(zeros));
      }
      return;
    }
    Tensor value;
    const bool ok = DispatchAll(in.dtype(), [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_same_v<T, tstring>) {
        value = Tensor::Scalar<T>(T());
      } else {
        value = Tensor::Scalar<T>(ones_ ? static_cast<T>(1) : static_cast<T>(0));
      }
    });
    OP_REQUIRES(ctx, ok, NodeError(ctx, "unsupported dtype ", DataTypeString(in.dtype())));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, in.shape(), &out));
    FillWithScalar(&ctx->eigen_cpu_device(), value, out);
  }

 private:
  bool ones_;
};
REGISTER_KERNEL_BUILDER(Name("ZerosLike").Device(DEVICE_CPU), ConstantLikeOp);
REGISTER_KERNEL_BUILDER(Name("OnesLike").Device(DEVICE_CPU), ConstantLikeOp);

// Empty: a tensor of the given shape. sg always zeroes it, so init (zeros asked for) or not the
// values are the same.
class EmptyOp final : public OpKernel {
 public:
  explicit EmptyOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    TensorShape shape;
    OP_REQUIRES_OK(ctx, ShapeFromIntVector(ctx, ctx->input(0), &shape));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &out));
    if (DataTypeIsPod(out->dtype()) && out->NumElements() > 0) {
      std::memset(out->raw_data(), 0, out->TotalBytes());
    }
  }
};
REGISTER_KERNEL_BUILDER(Name("Empty").Device(DEVICE_CPU), EmptyOp);

}  // namespace

}  // namespace sg
