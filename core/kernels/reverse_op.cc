// Reverse (a bool per dim) and ReverseV2 (a list of axes): a copy through negative strides.
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

}  // namespace
}  // namespace sg
