// Pack (tf.stack) and Unpack (tf.unstack) along `axis`.
#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"

namespace sg {

void ConcatInto(OpKernelContext* ctx, const std::vector<Tensor>& values, int axis,
                const TensorShape& out_shape);

namespace {

class PackOp final : public OpKernel {
 public:
  explicit PackOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("axis", &axis_));
  }

  void Compute(OpKernelContext* ctx) override {
    const int n = ctx->num_inputs();
    const TensorShape& s0 = ctx->input(0).shape();
    const int rank = s0.dims() + 1;
    OP_REQUIRES(ctx, axis_ >= -rank && axis_ < rank,
                NodeError(ctx, "axis = ", axis_, " not in [", -rank, ", ", rank, ")"));
    const int axis = static_cast<int>(axis_ < 0 ? axis_ + rank : axis_);
    std::vector<Tensor> values;
    TensorShape one = s0;
    one.InsertDim(axis, 1);
    for (int i = 0; i < n; ++i) {
      const Tensor& v = ctx->input(i);
      OP_REQUIRES(ctx, v.shape() == s0,
                  NodeError(ctx, "Shapes of all inputs must match: values[0].shape = ",
                            s0.DebugString(), " != values[", i,
                            "].shape = ", v.shape().DebugString()));
      Tensor view;
      view.CopyFrom(v, one);
      values.push_back(view);
    }
    TensorShape out_shape = s0;
    out_shape.InsertDim(axis, n);
    ConcatInto(ctx, values, axis, out_shape);
  }

 private:
  int64_t axis_;
};
REGISTER_KERNEL_BUILDER(Name("Pack").Device(DEVICE_CPU), PackOp);

class UnpackOp final : public OpKernel {
 public:
  explicit UnpackOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("axis", &axis_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    const int rank = in.dims();
    const int num = ctx->num_outputs();
    OP_REQUIRES(ctx, axis_ >= -rank && axis_ < rank,
                NodeError(ctx, "axis = ", axis_, " not in [", -rank, ", ", rank, ")"));
    const int axis = static_cast<int>(axis_ < 0 ? axis_ + rank : axis_);
    OP_REQUIRES(ctx, in.dim_size(axis) == num,
                NodeError(ctx, "Input shape axis ", axis, " must equal ", num, ", got shape ",
                          in.shape().DebugString()));
    TensorShape out_shape = in.shape();
    out_shape.RemoveDim(axis);
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < axis; ++d) outer *= in.dim_size(d);
    for (int d = axis + 1; d < rank; ++d) inner *= in.dim_size(d);
    for (int i = 0; i < num; ++i) {
      Tensor* out;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(i, out_shape, &out));
      const int64_t shape[2] = {outer, inner};
      const int64_t src_strides[2] = {num * inner, 1};
      const int64_t dst_strides[2] = {inner, 1};
      CopyStrided(&ctx->eigen_cpu_device(), in.dtype(), shape, in.raw_data(), i * inner,
                  src_strides, out->raw_data(), 0, dst_strides);
    }
  }

 private:
  int64_t axis_;
};
REGISTER_KERNEL_BUILDER(Name("Unpack").Device(DEVICE_CPU), UnpackOp);

}  // namespace
}  // namespace sg
