// Slice (begin, size with -1 meaning "to the end") and StridedSlice.
#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"
#include "core/kernels/strided_slice_spec.h"

namespace sg {
namespace {

// Copies the box starting at `begin` with steps `stride` and extents `size` (one per input dim)
// into a new output of `out_shape`, which has the same element count.
void CopyBox(OpKernelContext* ctx, const Tensor& in, absl::Span<const int64_t> begin,
             absl::Span<const int64_t> stride, absl::Span<const int64_t> size,
             const TensorShape& out_shape) {
  Tensor* out;
  OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &out));
  if (out->NumElements() == 0) return;
  const DimVector in_strides = RowMajorStrides(in.shape().dim_sizes());
  DimVector src_strides(in.dims());
  int64_t offset = 0;
  for (int d = 0; d < in.dims(); ++d) {
    offset += begin[d] * in_strides[d];
    src_strides[d] = stride[d] * in_strides[d];
  }
  CopyStrided(&ctx->eigen_cpu_device(), in.dtype(), size, in.raw_data(), offset, src_strides,
              out->raw_data(), 0, RowMajorStrides(size));
}

class SliceOp final : public OpKernel {
 public:
  explicit SliceOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    const Tensor& begin_t = ctx->input(1);
    const Tensor& size_t_ = ctx->input(2);
    const int rank = in.dims();
    OP_REQUIRES(ctx,
                begin_t.dims() == 1 && size_t_.dims() == 1 && begin_t.NumElements() == rank &&
                    size_t_.NumElements() == rank,
                NodeError(ctx, "Expected begin and size arguments to be 1-D tensors of size ",
                          rank, ", but got shapes ", begin_t.shape().DebugString(), " and ",
                          size_t_.shape().DebugString(), " instead."));
    const auto begin = IntValues(begin_t);
    auto size = IntValues(size_t_);
    for (int d = 0; d < rank; ++d) {
      const int64_t dim = in.dim_size(d);
      if (size[d] == -1) size[d] = dim - begin[d];
      OP_REQUIRES(ctx, begin[d] >= 0 && begin[d] <= dim,
                  NodeError(ctx, "Expected begin[", d, "] in [0, ", dim, "], but got ",
                            begin[d]));
      OP_REQUIRES(ctx, size[d] >= 0 && begin[d] + size[d] <= dim,
                  NodeError(ctx, "Expected size[", d, "] in [0, ", dim - begin[d],
                            "], but got ", size[d]));
    }
    const DimVector ones(rank, 1);
    CopyBox(ctx, in, begin, ones, size, TensorShape(absl::MakeConstSpan(size)));
  }
};
REGISTER_KERNEL_BUILDER(Name("Slice").Device(DEVICE_CPU), SliceOp);

class StridedSliceOp final : public OpKernel {
 public:
  explicit StridedSliceOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("begin_mask", &masks_.begin));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("end_mask", &masks_.end));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("ellipsis_mask", &masks_.ellipsis));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("new_axis_mask", &masks_.new_axis));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("shrink_axis_mask", &masks_.shrink_axis));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    for (int i = 1; i <= 3; ++i) {
      OP_REQUIRES(ctx, ctx->input(i).dims() == 1,
                  NodeError(ctx, "begin, end and strides must be 1-D, got ",
                            ctx->input(i).shape().DebugString()));
    }
    StridedSlicePlan plan;
    absl::Status s = PlanStridedSlice(in.shape().dim_sizes(), IntValues(ctx->input(1)),
                                      IntValues(ctx->input(2)), IntValues(ctx->input(3)),
                                      masks_, &plan);
    OP_REQUIRES(ctx, s.ok(), NodeError(ctx, s.message()));
    auto out_shape = TensorShape::Build(plan.final_shape);
    OP_REQUIRES(ctx, out_shape.ok(), NodeError(ctx, out_shape.status().message()));
    CopyBox(ctx, in, plan.begin, plan.stride, plan.size, *out_shape);
  }

 private:
  StridedSliceMasks masks_;
};
REGISTER_KERNEL_BUILDER(Name("StridedSlice").Device(DEVICE_CPU), StridedSliceOp);

}  // namespace
}  // namespace sg
