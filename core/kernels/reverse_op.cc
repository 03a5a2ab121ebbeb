// Reverse (a bool per dim) and ReverseV2 (a list of axes): a copy through negative strides.
// ReverseSequence: the first seq_lengths[b] entries along seq_dim reversed, per index b of
// batch_dim.
#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"

namespace sg {
namespace {

class ReverseOp final : public OpKernel {
 public:
  explicit ReverseOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    v2_ = ctx->def().op() == "ReverseV2";
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    const Tensor& axes_t = ctx->input(1);
    const int rank = in.dims();
    OP_REQUIRES(ctx, axes_t.dims() == 1,
                NodeError(ctx, "axis must be a vector, got ", axes_t.shape().DebugString()));
    std::vector<bool> flip(rank, false);
    if (v2_) {
      for (int64_t a : IntValues(axes_t)) {
        OP_REQUIRES(ctx, a >= -rank && a < rank,
                    NodeError(ctx, "'axis'[] = ", a, " is out of valid range [", -rank, ", ",
                              rank - 1, "]."));
        if (a < 0) a += rank;
        OP_REQUIRES(ctx, !flip[a], NodeError(ctx, "axis ", a, " specified more than once."));
        flip[a] = true;
      }
    } else {
      OP_REQUIRES(ctx, axes_t.NumElements() == rank,
                  NodeError(ctx, "'dims' must have the same number of values as 'input' has "
                                 "dimensions. 'input' has ", rank, "'dims' has ",
                            axes_t.NumElements(), " values"));
      for (int d = 0; d < rank; ++d) flip[d] = axes_t.data<bool>()[d];
    }
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, in.shape(), &out));
    if (in.NumElements() == 0) return;
    DimVector strides = RowMajorStrides(in.shape().dim_sizes());
    int64_t offset = 0;
    for (int d = 0; d < rank; ++d) {
      if (!flip[d]) continue;
      offset += (in.dim_size(d) - 1) * strides[d];
      strides[d] = -strides[d];
    }
    CopyStrided(&ctx->eigen_cpu_device(), in.dtype(), in.shape().dim_sizes(), in.raw_data(),
                offset, strides, out->raw_data(), 0, RowMajorStrides(in.shape().dim_sizes()));
  }

 private:
  bool v2_;
};
REGISTER_KERNEL_BUILDER(Name("Reverse").Device(DEVICE_CPU), ReverseOp);
REGISTER_KERNEL_BUILDER(Name("ReverseV2").Device(DEVICE_CPU), ReverseOp);

class ReverseSequenceOp final : public OpKernel {
 public:
  explicit ReverseSequenceOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("seq_dim", &seq_dim_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("batch_dim", &batch_dim_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    const Tensor& lens_t = ctx->input(1);
    const int rank = in.dims();
    OP_REQUIRES(ctx, lens_t.dims() == 1,
                NodeError(ctx, "seq_lengths must be 1-Dim, not ", lens_t.dims()));
    OP_REQUIRES(ctx, batch_dim_ >= 0 && batch_dim_ < rank,
                NodeError(ctx, "Invalid batch_dim ", batch_dim_, " for input of rank ", rank));
    OP_REQUIRES(ctx, seq_dim_ >= 0 && seq_dim_ < rank,
                NodeError(ctx, "Invalid seq_dim ", seq_dim_, " for input of rank ", rank));
    OP_REQUIRES(ctx, seq_dim_ != batch_dim_,
                NodeError(ctx, "seq_dim == batch_dim == ", seq_dim_));
    const int bd = static_cast<int>(batch_dim_), sd = static_cast<int>(seq_dim_);
    OP_REQUIRES(ctx, lens_t.dim_size(0) == in.dim_size(bd),
                NodeError(ctx, "Length of seq_lengths != input.dims(", bd, "), (",
                          lens_t.dim_size(0), " vs. ", in.dim_size(bd), ")"));
    const auto lens = IntValues(lens_t);
    for (size_t b = 0; b < lens.size(); ++b) {
      OP_REQUIRES(ctx, lens[b] >= 0, NodeError(ctx, "seq_lens(", b, ") < 0"));
      OP_REQUIRES(ctx, lens[b] <= in.dim_size(sd),
                  NodeError(ctx, "seq_lens(", b, ") > input.dims(", sd, ")"));
    }
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, in.shape(), &out));
    if (in.NumElements() == 0) return;
    const auto dims = in.shape().dim_sizes();
    const DimVector strides = RowMajorStrides(dims);
    CopyStrided(&ctx->eigen_cpu_device(), in.dtype(), dims, in.raw_data(), 0, strides,
                out->raw_data(), 0, strides);
    // Then each batch entry's reversed prefix over the copy.
    DimVector part(dims.begin(), dims.end()), reversed = strides;
    part[bd] = 1;
    reversed[sd] = -strides[sd];
    for (size_t b = 0; b < lens.size(); ++b) {
      if (lens[b] < 2) continue;
      part[sd] = lens[b];
      const int64_t at = static_cast<int64_t>(b) * strides[bd];
      CopyStrided(&ctx->eigen_cpu_device(), in.dtype(), part, in.raw_data(),
                  at + (lens[b] - 1) * strides[sd], reversed, out->raw_data(), at, strides);
    }
  }

 private:
  int64_t seq_dim_, batch_dim_;
};
REGISTER_KERNEL_BUILDER(Name("ReverseSequence").Device(DEVICE_CPU), ReverseSequenceOp);

}  // namespace
}  // namespace sg
