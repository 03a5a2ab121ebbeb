// Slice (begin, size with -1 meaning "to the end"), StridedSlice, and the strided-slice writes:
// TensorStridedSliceUpdate (into a copy), StridedSliceAssign (a ref variable) and
// ResourceStridedSliceAssign (a resource variable); and StridedSliceGrad, which writes dy into
// zeros of the sliced input's shape.
#include <algorithm>
#include <cstring>

#include "absl/strings/str_join.h"
#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"
#include "core/kernels/strided_slice_spec.h"
#include "core/kernels/variable_update.h"

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

absl::Status ReadMasks(OpKernelConstruction* ctx, StridedSliceMasks* masks);

// StridedSliceGrad, as TensorFlow's: output of `shape` (input 0), zero (empty strings for string
// tensors) except at the elements StridedSlice would read, which take dy (input 4) in order. dy
// must have exactly the slice's final shape.
class StridedSliceGradOp final : public OpKernel {
 public:
  explicit StridedSliceGradOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ReadMasks(ctx, &masks_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& shape_t = ctx->input(0);
    OP_REQUIRES(ctx, shape_t.dims() == 1,
                NodeError(ctx, "shape must be 1-D, got shape.shape = ",
                          shape_t.shape().DebugString()));
    TensorShape shape;
    OP_REQUIRES_OK(ctx, ShapeFromIntVector(ctx, shape_t, &shape));
    for (int i = 1; i <= 3; ++i) {
      OP_REQUIRES(ctx, ctx->input(i).dims() == 1,
                  NodeError(ctx, "begin, end and strides must be 1-D, got ",
                            ctx->input(i).shape().DebugString()));
    }
    StridedSlicePlan plan;
    absl::Status s = PlanStridedSlice(shape.dim_sizes(), IntValues(ctx->input(1)),
                                      IntValues(ctx->input(2)), IntValues(ctx->input(3)),
                                      masks_, &plan);
    OP_REQUIRES(ctx, s.ok(), NodeError(ctx, s.message()));
    const Tensor& dy = ctx->input(4);
    const bool same = dy.dims() == static_cast<int>(plan.final_shape.size()) &&
                      std::equal(plan.final_shape.begin(), plan.final_shape.end(),
                                 dy.shape().dim_sizes().begin());
    OP_REQUIRES(ctx, same,
                NodeError(ctx, "shape of dy was ", dy.shape().DebugString(), " instead of [",
                          absl::StrJoin(plan.final_shape, ","), "]"));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &out));
    if (out->NumElements() == 0) return;
    if (DataTypeIsPod(out->dtype())) {
      std::memset(out->raw_data(), 0, out->NumElements() * DataTypeSize(out->dtype()));
    }
    if (dy.NumElements() == 0) return;
    const DimVector out_dims = RowMajorStrides(shape.dim_sizes());
    DimVector dst_strides(shape.dims());
    int64_t offset = 0;
    for (int d = 0; d < shape.dims(); ++d) {
      offset += plan.begin[d] * out_dims[d];
      dst_strides[d] = plan.stride[d] * out_dims[d];
    }
    CopyStrided(&ctx->eigen_cpu_device(), dy.dtype(), plan.size, dy.raw_data(), 0,
                RowMajorStrides(plan.size), out->raw_data(), offset, dst_strides);
  }

 private:
  StridedSliceMasks masks_;
};
REGISTER_KERNEL_BUILDER(Name("StridedSliceGrad").Device(DEVICE_CPU), StridedSliceGradOp);

absl::Status ReadMasks(OpKernelConstruction* ctx, StridedSliceMasks* masks) {
  SG_RETURN_IF_ERROR(ctx->GetAttr("begin_mask", &masks->begin));
  SG_RETURN_IF_ERROR(ctx->GetAttr("end_mask", &masks->end));
  SG_RETURN_IF_ERROR(ctx->GetAttr("ellipsis_mask", &masks->ellipsis));
  SG_RETURN_IF_ERROR(ctx->GetAttr("new_axis_mask", &masks->new_axis));
  return ctx->GetAttr("shrink_axis_mask", &masks->shrink_axis);
}

// Writes input 4 (`value`, broadcast numpy-style to the slice's final shape) into the part of
// *dst that inputs 1-3 (begin, end, strides) and `masks` select, as StridedSliceAssign does.
absl::Status AssignSlice(OpKernelContext* ctx, const StridedSliceMasks& masks, Tensor* dst) {
  for (int i = 1; i <= 3; ++i) {
    if (ctx->input(i).dims() != 1) {
      return NodeError(ctx, "begin, end and strides must be 1-D, got ",
                       ctx->input(i).shape().DebugString());
    }
  }
  StridedSlicePlan plan;
  absl::Status s = PlanStridedSlice(dst->shape().dim_sizes(), IntValues(ctx->input(1)),
                                    IntValues(ctx->input(2)), IntValues(ctx->input(3)), masks,
                                    &plan);
  if (!s.ok()) return NodeError(ctx, s.message());
  const Tensor& value = ctx->input(4);
  if (value.dtype() != dst->dtype()) {
    return NodeError(ctx, "value of type ", DataTypeString(value.dtype()),
                     " cannot be assigned to a tensor of type ", DataTypeString(dst->dtype()));
  }
  // Broadcast value to the final shape: dims align at the right; value's extra leading dims (if
  // any) must be 1. An empty slice takes nothing from value, whatever its shape (as TensorFlow).
  const DimVector& final_shape = plan.final_shape;
  const int rank = static_cast<int>(final_shape.size());
  int64_t count = 1;
  for (int64_t d : final_shape) count *= d;
  if (count == 0) return absl::OkStatus();
  const int lead = value.dims() - rank;
  bool broadcastable = true;
  for (int j = 0; j < lead; ++j) broadcastable &= value.dim_size(j) == 1;
  const DimVector value_strides = RowMajorStrides(value.shape().dim_sizes());
  DimVector src_strides(rank, 0);
  for (int i = 0; i < rank; ++i) {
    const int j = i + lead;
    if (j < 0) continue;
    const int64_t v = value.dim_size(j);
    if (v == final_shape[i]) {
      src_strides[i] = value_strides[j];
    } else if (v != 1) {
      broadcastable = false;
    }
  }
  if (!broadcastable) {
    return NodeError(ctx, "Cannot broadcast input shape ", value.shape().DebugString(),
                     " into final shape [", absl::StrJoin(final_shape, ","), "]");
  }
  // Row-major order is the same over the final shape and over the per-input-dim extents (they
  // differ only by dims of size 1), so a dense value of `count` elements copies straight in.
  Tensor dense = value;
  if (value.NumElements() != count) {
    SG_RETURN_IF_ERROR(ctx->allocate_temp(value.dtype(), TensorShape({count}), &dense));
    CopyStrided(&ctx->eigen_cpu_device(), value.dtype(), final_shape, value.raw_data(), 0,
                src_strides, dense.raw_data(), 0, RowMajorStrides(final_shape));
  }
  const DimVector dst_dims = RowMajorStrides(dst->shape().dim_sizes());
  DimVector dst_strides(dst->dims());
  int64_t offset = 0;
  for (int d = 0; d < dst->dims(); ++d) {
    offset += plan.begin[d] * dst_dims[d];
    dst_strides[d] = plan.stride[d] * dst_dims[d];
  }
  CopyStrided(&ctx->eigen_cpu_device(), value.dtype(), plan.size, dense.raw_data(), 0,
              RowMajorStrides(plan.size), dst->raw_data(), offset, dst_strides);
  return absl::OkStatus();
}

class TensorStridedSliceUpdateOp final : public OpKernel {
 public:
  explicit TensorStridedSliceUpdateOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ReadMasks(ctx, &masks_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, in.shape(), &out));
    if (in.NumElements() > 0) {
      const DimVector strides = RowMajorStrides(in.shape().dim_sizes());
      CopyStrided(&ctx->eigen_cpu_device(), in.dtype(), in.shape().dim_sizes(), in.raw_data(), 0,
                  strides, out->raw_data(), 0, strides);
    }
    OP_REQUIRES_OK(ctx, AssignSlice(ctx, masks_, out));
  }

 private:
  StridedSliceMasks masks_;
};
REGISTER_KERNEL_BUILDER(Name("TensorStridedSliceUpdate").Device(DEVICE_CPU),
                        TensorStridedSliceUpdateOp);

// StridedSliceAssign (input 0 a ref, forwarded as the output) and ResourceStridedSliceAssign.
class StridedSliceAssignOp final : public OpKernel {
 public:
  explicit StridedSliceAssignOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ReadMasks(ctx, &masks_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("T", &dtype_));
  }

  void Compute(OpKernelContext* ctx) override {
    OP_REQUIRES_OK(ctx, UpdateVariable(ctx, 0, dtype_, [&](Tensor* var) {
      // A snapshot of the variable keeps its contents: AssignSlice writes into a buffer of the
      // variable's own (on an error, the copy holds the same values).
      SG_RETURN_IF_ERROR(EnsureUnshared(ctx, var));
      return AssignSlice(ctx, masks_, var);
    }));
    if (ctx->input_is_ref(0)) ctx->forward_ref_input_to_ref_output(0, 0);
  }

 private:
  StridedSliceMasks masks_;
  DataType dtype_;
};
REGISTER_KERNEL_BUILDER(Name("StridedSliceAssign").Device(DEVICE_CPU), StridedSliceAssignOp);
REGISTER_KERNEL_BUILDER(Name("ResourceStridedSliceAssign").Device(DEVICE_CPU),
                        StridedSliceAssignOp);

}  // namespace
}  // namespace sg
