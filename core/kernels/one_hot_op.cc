// OneHot: indices -> a tensor with a new depth axis holding on_value at the index, off_value
// elsewhere (indices outside [0, depth) give all off_value).
#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"

namespace sg {
namespace {

class OneHotOp final : public OpKernel {
 public:
  explicit OneHotOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("axis", &axis_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& indices = ctx->input(0);
    const Tensor& depth_t = ctx->input(1);
    const Tensor& on = ctx->input(2);
    const Tensor& off = ctx->input(3);
    const int rank = indices.dims();
    OP_REQUIRES(ctx, axis_ == -1 || (axis_ >= 0 && axis_ <= rank),
                NodeError(ctx, "Expected axis to be -1 or between [0, ", rank,
                          "].  But received: ", axis_));
    OP_REQUIRES(ctx, depth_t.dims() == 0 && on.dims() == 0 && off.dims() == 0,
                NodeError(ctx, "depth, on_value and off_value must be scalars"));
    const int64_t depth = depth_t.data<int32_t>()[0];
    OP_REQUIRES(ctx, depth >= 0, NodeError(ctx, "depth must be non-negative, got: ", depth));
    const int axis = axis_ == -1 ? rank : static_cast<int>(axis_);
    int64_t total;
    OP_REQUIRES(ctx, MultiplySizes(indices.NumElements(), depth, &total),
                NodeError(ctx, "OneHot output with depth ", depth, " is too large"));
    TensorShape out_shape = indices.shape();
    out_shape.InsertDim(axis, depth);
    int64_t prefix = 1, suffix = 1;
    for (int d = 0; d < axis; ++d) prefix *= indices.dim_size(d);
    for (int d = axis; d < rank; ++d) suffix *= indices.dim_size(d);
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &out));
    FillWithScalar(&ctx->eigen_cpu_device(), off, out);
    const auto idx = [&](int64_t i) -> int64_t {
      switch (indices.dtype()) {
        case DT_INT64: return indices.data<int64_t>()[i];
        case DT_INT32: return indices.data<int32_t>()[i];
        case DT_INT8: return indices.data<int8_t>()[i];
        case DT_UINT8: return indices.data<uint8_t>()[i];
        default: return -1;
      }
    };
    // Element [p, d, s] of the output is on_value when indices[p, s] == d.
    const int64_t n = indices.NumElements();
    DispatchAll(out->dtype(), [&](auto tag) {
      using T = decltype(tag);
      const T on_value = on.data<T>()[0];
      T* o = out->data<T>();
      for (int64_t i = 0; i < n; ++i) {
        const int64_t d = idx(i);
        if (d < 0 || d >= depth) continue;
        const int64_t p = i / suffix, s = i % suffix;
        o[(p * depth + d) * suffix + s] = on_value;
      }
    });
  }

 private:
  int64_t axis_;
};
REGISTER_KERNEL_BUILDER(Name("OneHot").Device(DEVICE_CPU), OneHotOp);

}  // namespace
}  // namespace sg
