// ConcatV2 (values..., axis) and the older Concat (concat_dim, values...). ConcatOffset: where
// each input of a concatenation starts.
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

// ConcatOffset: where each input of a concatenation along concat_dim starts in the output.
class ConcatOffsetOp final : public OpKernel {
 public:
  explicit ConcatOffsetOp(OpKernelConstruction* ctx) : OpKernel(ctx) { set_expensive(false); }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& dim_t = ctx->input(0);
    OP_REQUIRES(ctx, dim_t.dims() == 0,
                NodeError(ctx, "Concat dim tensor should be a scalar integer, but got shape ",
                          dim_t.shape().DebugString()));
    const int n = ctx->num_inputs() - 1;
    for (int i = 0; i < n; ++i) {
      OP_REQUIRES(ctx, ctx->input(1 + i).dims() == 1,
                  NodeError(ctx, "input ", i, " should be a vector, but got shape ",
                            ctx->input(1 + i).shape().DebugString()));
    }
    const auto first = IntValues(ctx->input(1));
    const int64_t rank = static_cast<int64_t>(first.size());
    int64_t axis = dim_t.data<int32_t>()[0];
    if (axis < 0) axis += rank;
    OP_REQUIRES(ctx, axis >= 0 && axis < rank,
                NodeError(ctx, "Concat dim is out of range: ", dim_t.data<int32_t>()[0], " vs. ",
                          rank));
    int64_t offset = 0;
    for (int i = 0; i < n; ++i) {
      const Tensor& s_t = ctx->input(1 + i);
      const auto s = IntValues(s_t);
      OP_REQUIRES(ctx, static_cast<int64_t>(s.size()) == rank,
                  NodeError(ctx, "input ", i, " should contain ", rank, " elements, but got ",
                            s.size()));
      Tensor* out;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(i, TensorShape({rank}), &out));
      for (int64_t d = 0; d < rank; ++d) {
        OP_REQUIRES(ctx, d == axis || s[d] == first[d],
                    NodeError(ctx, "All dimensions except ", axis, " must match. Input ", i,
                              " has shape ", s_t.SummarizeValue(10),
                              " and doesn't match input 0 with shape ",
                              ctx->input(1).SummarizeValue(10), "."));
        const int64_t v = d == axis ? offset : 0;
        if (out->dtype() == DT_INT32) {
          out->data<int32_t>()[d] = static_cast<int32_t>(v);
        } else {
          out->data<int64_t>()[d] = v;
        }
      }
      // Wraps as TensorFlow's does on absurd sizes, without signed overflow.
      offset = static_cast<int64_t>(static_cast<uint64_t>(offset) +
                                    static_cast<uint64_t>(s[axis]));
    }
  }
};
REGISTER_KERNEL_BUILDER(Name("ConcatOffset").Device(DEVICE_CPU), ConcatOffsetOp);

}  // namespace
}  // namespace sg
