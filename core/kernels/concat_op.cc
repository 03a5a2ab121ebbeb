// ConcatV2 (values..., axis) and the older Concat (concat_dim, values...).
#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"

namespace sg {

// Joins `values` along `axis` (already checked to be in [0, rank)) into output 0. Shared with
// Pack, which concatenates inputs given a new axis of size 1.
void ConcatInto(OpKernelContext* ctx, const std::vector<Tensor>& values, int axis,
                const TensorShape& out_shape) {
  Tensor* out;
  OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &out));
  if (out->NumElements() == 0) return;
  int64_t outer = 1;
  for (int d = 0; d < axis; ++d) outer *= out_shape.dim_size(d);
  const int64_t out_cols = out->NumElements() / outer;
  int64_t col = 0;
  for (const Tensor& v : values) {
    const int64_t cols = outer == 0 ? 0 : v.NumElements() / outer;
    const int64_t shape[2] = {outer, cols};
    const int64_t src_strides[2] = {cols, 1};
    const int64_t dst_strides[2] = {out_cols, 1};
    CopyStrided(&ctx->eigen_cpu_device(), v.dtype(), shape, v.raw_data(), 0, src_strides,
                out->raw_data(), col, dst_strides);
    col += cols;
  }
}

namespace {

class ConcatOp final : public OpKernel {
 public:
  explicit ConcatOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    axis_first_ = ctx->def().op() == "Concat";
  }

  void Compute(OpKernelContext* ctx) override {
    const int n = ctx->num_inputs() - 1;
    const int first = axis_first_ ? 1 : 0;
    const Tensor& axis_t = ctx->input(axis_first_ ? 0 : n);
    OP_REQUIRES(ctx, axis_t.NumElements() == 1 && axis_t.dims() == 0,
                NodeError(ctx, "Concat dim tensor should be a scalar integer, but got shape ",
                          axis_t.shape().DebugString()));
    int64_t axis = IntValues(axis_t)[0];
    std::vector<Tensor> values;
    for (int i = 0; i < n; ++i) values.push_back(ctx->input(first + i));
    const Tensor& v0 = values[0];
    const int rank = v0.dims();
    OP_REQUIRES(ctx, rank > 0,
                NodeError(ctx, "Can't concatenate scalars (use tf.stack instead)"));
    OP_REQUIRES(ctx, axis >= -rank && axis < rank,
                NodeError(ctx, "ConcatOp : Expected concatenating dimensions in the range [",
                          -rank, ", ", rank, "), but got ", axis));
    if (axis < 0) axis += rank;
    TensorShape out_shape = v0.shape();
    int64_t total = 0;
    for (int i = 0; i < n; ++i) {
      const Tensor& v = values[i];
      OP_REQUIRES(ctx, v.dims() == rank,
                  NodeError(ctx, "ConcatOp : Ranks of all input tensors should match: shape[0] = ",
                            v0.shape().DebugString(), " vs. shape[", i,
                            "] = ", v.shape().DebugString()));
      for (int d = 0; d < rank; ++d) {
        OP_REQUIRES(ctx, d == axis || v.dim_size(d) == v0.dim_size(d),
                    NodeError(ctx, "ConcatOp : Dimension ", d,
                              " in both shapes must be equal: shape[0] = ",
                              v0.shape().DebugString(), " vs. shape[", i,
                              "] = ", v.shape().DebugString()));
      }
      total += v.dim_size(axis);
    }
    out_shape.set_dim(static_cast<int>(axis), total);
    ConcatInto(ctx, values, static_cast<int>(axis), out_shape);
  }

 private:
  bool axis_first_;
};
REGISTER_KERNEL_BUILDER(Name("ConcatV2").Device(DEVICE_CPU), ConcatOp);
REGISTER_KERNEL_BUILDER(Name("Concat").Device(DEVICE_CPU), ConcatOp);

}  // namespace
}  // namespace sg
