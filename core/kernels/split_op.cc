// Split (split_dim, value) into num_split equal parts and SplitV (value, size_splits, split_dim).
#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"

namespace sg {
namespace {

class SplitOp final : public OpKernel {
 public:
  explicit SplitOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    is_v_ = ctx->def().op() == "SplitV";
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(is_v_ ? 0 : 1);
    const Tensor& axis_t = ctx->input(is_v_ ? 2 : 0);
    const int num = ctx->num_outputs();
    OP_REQUIRES(ctx, axis_t.NumElements() == 1,
                NodeError(ctx, "split_dim must be a scalar, got ", axis_t.shape().DebugString()));
    const int rank = in.dims();
    int64_t axis = IntValues(axis_t)[0];
    OP_REQUIRES(ctx, axis >= -rank && axis < rank,
                NodeError(ctx, "-input rank(-", rank, ") <= split_dim < input rank (", rank,
                          "), but got ", axis));
    if (axis < 0) axis += rank;
    const int64_t dim = in.dim_size(static_cast<int>(axis));
    std::vector<int64_t> sizes(num, 0);
    if (!is_v_) {
      OP_REQUIRES(ctx, dim % num == 0,
                  NodeError(ctx, "Number of ways to split should evenly divide the split "
                                 "dimension, but got split_dim ", axis, " (size = ", dim,
                            ") and num_split ", num));
      std::fill(sizes.begin(), sizes.end(), dim / num);
    } else {
      const Tensor& st = ctx->input(1);
      OP_REQUIRES(ctx, st.dims() == 1 && st.NumElements() == num,
                  NodeError(ctx, "size_splits must be a vector of ", num, " values, got shape ",
                            st.shape().DebugString()));
      const auto given = IntValues(st);
      int unknown = -1;
      int64_t sum = 0;
      for (int i = 0; i < num; ++i) {
        sizes[i] = given[i];
        if (given[i] == -1) {
          OP_REQUIRES(ctx, unknown < 0,
                      NodeError(ctx, "There can only be one -1 in the input."));
          unknown = i;
        } else {
          OP_REQUIRES(ctx, given[i] >= 0,
                      NodeError(ctx, "Split size at index ", i,
                                " must be >= 0. Got: ", given[i]));
          sum += given[i];
        }
      }
      if (unknown >= 0) {
        OP_REQUIRES(ctx, sum <= dim,
                    NodeError(ctx, "Determined shape must either match input shape along "
                                   "split_dim exactly if fully specified, or be less than the "
                                   "size of the input along split_dim if not fully specified. "
                                   "Got: ", sum));
        sizes[unknown] = dim - sum;
      } else {
        OP_REQUIRES(ctx, sum == dim,
                    NodeError(ctx, "Determined shape must either match input shape along "
                                   "split_dim exactly if fully specified, or be less than the "
                                   "size of the input along split_dim if not fully specified. "
                                   "Got: ", sum));
      }
    }
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < axis; ++d) outer *= in.dim_size(d);
    for (int d = static_cast<int>(axis) + 1; d < rank; ++d) inner *= in.dim_size(d);
    int64_t start = 0;
    for (int i = 0; i < num; ++i) {
      TensorShape shape = in.shape();
      shape.set_dim(static_cast<int>(axis), sizes[i]);
      Tensor* out;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(i, shape, &out));
      const int64_t view[2] = {outer, sizes[i] * inner};
      const int64_t src_strides[2] = {dim * inner, 1};
      const int64_t dst_strides[2] = {sizes[i] * inner, 1};
      CopyStrided(&ctx->eigen_cpu_device(), in.dtype(), view, in.raw_data(), start * inner,
                  src_strides, out->raw_data(), 0, dst_strides);
      start += sizes[i];
    }
  }

 private:
  bool is_v_;
};
REGISTER_KERNEL_BUILDER(Name("Split").Device(DEVICE_CPU), SplitOp);
REGISTER_KERNEL_BUILDER(Name("SplitV").Device(DEVICE_CPU), SplitOp);

}  // namespace
}  // namespace sg
