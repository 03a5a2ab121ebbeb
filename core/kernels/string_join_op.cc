// StringJoin: element-wise concatenation of string tensors with a separator; scalars broadcast.
// ReduceJoin: concatenation along axes, as a sum reduces them.
#include <string>
#include <utility>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/kernels/cwise_ops_common.h"

namespace sg {
namespace {

class StringJoinOp final : public OpKernel {
 public:
  explicit StringJoinOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("separator", &separator_));
    set_expensive(false);
  }

  void Compute(OpKernelContext* ctx) override {
    const int n = ctx->num_inputs();
    TensorShape shape;
    bool have_shape = false;
    for (int i = 0; i < n; ++i) {
      const Tensor& in = ctx->input(i);
      if (in.dims() == 0) continue;
      if (!have_shape) {
        shape = in.shape();
        have_shape = true;
        continue;
      }
      OP_REQUIRES(ctx, in.shape() == shape,
                  errors::InvalidArgument("node '", name(), "' (op StringJoin): input ", i,
                                          " has shape ", in.shape().DebugString(),
                                          ", other non-scalar inputs have ",
                                          shape.DebugString()));
    }
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &out));
    tstring* o = out->data<tstring>();
    const int64_t count = shape.num_elements();
    for (int64_t e = 0; e < count; ++e) {
      std::string s;
      for (int i = 0; i < n; ++i) {
        const Tensor& in = ctx->input(i);
        if (i > 0) s += separator_;
        s += in.data<tstring>()[in.dims() == 0 ? 0 : e];
      }
      o[e] = std::move(s);
    }
  }

 private:
  std::string separator_;
};
REGISTER_KERNEL_BUILDER(Name("StringJoin").Device(DEVICE_CPU), StringJoinOp);

// Output element e joins the input elements whose kept coordinates are e's, the first reduced
// axis listed varying fastest. No axis reduced gives the input back; an empty reduced axis
// gives "".
class ReduceJoinOp final : public OpKernel {
 public:
  explicit ReduceJoinOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("keep_dims", &keep_dims_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("separator", &separator_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    const Tensor& axes = ctx->input(1);
    OP_REQUIRES(ctx, axes.dims() <= 1,
                KernelError(*this, "reduction_indices must be a scalar or a vector, got shape ",
                            axes.shape().DebugString()));
    const int rank = in.dims();
    std::vector<bool> reduced(rank, false);
    std::vector<int> order;  // the reduced axes as listed
    for (int64_t k = 0; k < axes.NumElements(); ++k) {
      const int32_t a = axes.data<int32_t>()[k];
      OP_REQUIRES(ctx, a >= -rank && a < rank,
                  absl::OutOfRangeError(absl::StrCat(
                      "ReduceJoin (node '", name(), "'): Invalid reduction dimension ", a,
                      " for input with ", rank, " dimension(s)")));
      const int d = a < 0 ? a + rank : a;
      OP_REQUIRES(ctx, !reduced[d], KernelError(*this, "Duplicate reduction dimension ", a));
      reduced[d] = true;
      order.push_back(d);
    }
    // Row-major strides of the input; then the offsets of the joined elements, in TensorFlow's
    // order: the first axis listed varies fastest, the last slowest.
    std::vector<int64_t> stride(rank, 1);
    for (int d = rank - 2; d >= 0; --d) stride[d] = stride[d + 1] * in.dim_size(d + 1);
    std::vector<int64_t> inner = {0};
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      const int d = *it;
      std::vector<int64_t> next;
      next.reserve(inner.size() * in.dim_size(d));
      for (int64_t off : inner) {
        for (int64_t i = 0; i < in.dim_size(d); ++i) next.push_back(off + i * stride[d]);
      }
      inner = std::move(next);
    }
    TensorShape out_shape;
    std::vector<int64_t> kept_size, kept_stride;
    for (int d = 0; d < rank; ++d) {
      if (reduced[d]) {
        if (keep_dims_) out_shape.AddDim(1);
        continue;
      }
      out_shape.AddDim(in.dim_size(d));
      kept_size.push_back(in.dim_size(d));
      kept_stride.push_back(stride[d]);
    }
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &out));
    const tstring* s = in.data<tstring>();
    tstring* o = out->data<tstring>();
    const int64_t count = out_shape.num_elements();
    std::vector<int64_t> at(kept_size.size(), 0);
    for (int64_t e = 0; e < count; ++e) {
      int64_t base = 0;
      for (size_t k = 0; k < at.size(); ++k) base += at[k] * kept_stride[k];
      std::string joined;
      for (size_t j = 0; j < inner.size(); ++j) {
        if (j > 0) joined += separator_;
        joined += s[base + inner[j]];
      }
      o[e] = std::move(joined);
      for (int k = static_cast<int>(at.size()) - 1; k >= 0 && ++at[k] == kept_size[k]; --k) {
        at[k] = 0;
      }
    }
  }

 private:
  bool keep_dims_;
  std::string separator_;
};
REGISTER_KERNEL_BUILDER(Name("ReduceJoin").Device(DEVICE_CPU), ReduceJoinOp);

}  // namespace
}  // namespace sg
