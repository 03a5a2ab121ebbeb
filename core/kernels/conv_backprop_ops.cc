// The convolution gradients: Conv2DBackpropInput (the transposed convolution), Conv2DBackpropFilter
// and the Conv3D ones (V2 with shape vectors, V1 with shape-giving tensors). Channels-last only
// and no dilations, as TensorFlow's CPU kernels. Float goes through oneDNN's primitives where they
// take the case (onednn_conv.h), everything else through conv_nd's im2col products.
#include <string>

#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"
#include "core/kernels/conv_nd.h"
#include "core/kernels/onednn_conv.h"

namespace sg {
namespace {

// Where a gradient op finds the shape it computes: a shape vector input (V2 and the 2-D ops)
// or the shape of a tensor input (the 3-D V1 ops).
enum class ShapeSource { kVector, kTensor };

class ConvBackpropBase : public OpKernel {
 public:
  ConvBackpropBase(OpKernelConstruction* ctx, int nd, ShapeSource source)
      : OpKernel(ctx), source_(source) {
    OP_REQUIRES_OK(ctx, attrs_.Read(ctx, nd, /*allow_dilation=*/false));
    OP_REQUIRES(ctx, attrs_.channels_last,
                errors::InvalidArgument(ctx->def().op(), " only supports ",
                                        nd == 2 ? "NHWC" : "NDHWC", " on the CPU, got ",
                                        attrs_.data_format, " (node '", ctx->def().name(), "')"));
  }

 protected:
  // The shape of gradient input `i`: its value as a shape vector, or its own shape. A
  // 2-element vector of a 2-D op gives the spatial dims only: batch from dy, depth from the
  // filter (`batch` and `depth`).
  absl::Status ShapeArg(OpKernelContext* ctx, int i, int64_t batch, int64_t depth,
                        TensorShape* shape) const {
    const Tensor& t = ctx->input(i);
    if (source_ == ShapeSource::kTensor) {
      *shape = t.shape();
      return absl::OkStatus();
    }
    const int rank = attrs_.nd + 2;
    if (t.dims() != 1) {
      return NodeError(ctx, "input ", i, " must be a shape vector, got shape ",
                       t.shape().DebugString());
    }
    SG_RETURN_IF_ERROR(ShapeFromIntVector(ctx, t, shape));
    if (shape->dims() == 2 && attrs_.nd == 2 && depth >= 0) {
      *shape = TensorShape({batch, shape->dim_size(0), shape->dim_size(1), depth});
    }
    if (shape->dims() != rank) {
      return NodeError(ctx, "input ", i, " must have ", rank, " elements, got ", shape->dims());
    }
    return absl::OkStatus();
  }

  // The geometry, after checking that the filter's depth is the input's and that dy has the
  // shape the convolution would produce.
  absl::Status Geometry(OpKernelContext* ctx, const TensorShape& input, const TensorShape& filter,
                        const TensorShape& dy, ConvNdGeometry* g) const {
    absl::Status s = attrs_.Geometry(input, filter, g);
    if (!s.ok()) return NodeError(ctx, s.message());
    if (g->c != g->filter_c) {
      return NodeError(ctx, "input depth ", g->c, " does not match filter input depth ",
                       g->filter_c, " (grouped convolution gradients are not supported)");
    }
    const TensorShape want = ConvNdOutputShape(attrs_.nd, *g);
    if (dy != want) {
      return NodeError(ctx, "out_backprop has shape ", dy.DebugString(),
                       " but the convolution's output has shape ", want.DebugString());
    }
    return absl::OkStatus();
  }

  ConvNdAttrs attrs_;
  const ShapeSource source_;
  OneDnnConv dnnl_;  // float only
};

template <int kNd, ShapeSource kSource>
class ConvBackpropInputOp final : public ConvBackpropBase {
 public:
  explicit ConvBackpropInputOp(OpKernelConstruction* ctx)
      : ConvBackpropBase(ctx, kNd, kSource) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& filter = ctx->input(1);
    const Tensor& dy = ctx->input(2);
    const int rank = attrs_.nd + 2;
    OP_REQUIRES(ctx, filter.dims() == rank,
                NodeError(ctx, "filter must be ", rank, "-dimensional: ",
                          filter.shape().DebugString()));
    OP_REQUIRES(ctx, dy.dims() == rank,
                NodeError(ctx, "out_backprop must be ", rank, "-dimensional: ",
                          dy.shape().DebugString()));
    TensorShape input_shape;
    OP_REQUIRES_OK(ctx, ShapeArg(ctx, 0, dy.dim_size(0), filter.dim_size(rank - 2),
                                 &input_shape));
    ConvNdGeometry g;
    OP_REQUIRES_OK(ctx, Geometry(ctx, input_shape, filter.shape(), dy.shape(), &g));
    Tensor* dx;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, input_shape, &dx));
    if (dx->dtype() == DT_FLOAT && dx->NumElements() > 0 &&
        dnnl_.Run(ctx, OneDnnConv::kBackwardData, attrs_.nd, g, filter.data<float>(),
                  dy.data<float>(), dx->data<float>())) {
      return;
    }
    OP_REQUIRES_OK(ctx, ConvNdBackpropInput(ctx, g, filter, dy, dx));
  }
};

template <int kNd, ShapeSource kSource>
class ConvBackpropFilterOp final : public ConvBackpropBase {
 public:
  explicit ConvBackpropFilterOp(OpKernelConstruction* ctx)
      : ConvBackpropBase(ctx, kNd, kSource) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const Tensor& dy = ctx->input(2);
    const int rank = attrs_.nd + 2;
    OP_REQUIRES(ctx, input.dims() == rank,
                NodeError(ctx, "input must be ", rank, "-dimensional: ",
                          input.shape().DebugString()));
    TensorShape filter_shape;
    OP_REQUIRES_OK(ctx, ShapeArg(ctx, 1, -1, -1, &filter_shape));
    ConvNdGeometry g;
    OP_REQUIRES_OK(ctx, Geometry(ctx, input.shape(), filter_shape, dy.shape(), &g));
    Tensor* dw;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, filter_shape, &dw));
    if (dw->dtype() == DT_FLOAT && dw->NumElements() > 0 &&
        dnnl_.Run(ctx, OneDnnConv::kBackwardWeights, attrs_.nd, g, input.data<float>(),
                  dy.data<float>(), dw->data<float>())) {
      return;
    }
    OP_REQUIRES_OK(ctx, ConvNdBackpropFilter(ctx, g, input, dy, dw));
  }
};

using Conv2DBackpropInputOp = ConvBackpropInputOp<2, ShapeSource::kVector>;
using Conv2DBackpropFilterOp = ConvBackpropFilterOp<2, ShapeSource::kVector>;
using Conv3DBackpropInputV2Op = ConvBackpropInputOp<3, ShapeSource::kVector>;
using Conv3DBackpropFilterV2Op = ConvBackpropFilterOp<3, ShapeSource::kVector>;
using Conv3DBackpropInputV1Op = ConvBackpropInputOp<3, ShapeSource::kTensor>;
using Conv3DBackpropFilterV1Op = ConvBackpropFilterOp<3, ShapeSource::kTensor>;

REGISTER_KERNEL_BUILDER(
    Name("Conv2DBackpropInput")
        .Device(DEVICE_CPU)
        .TypeConstraint("T", {DT_HALF, DT_BFLOAT16, DT_FLOAT, DT_DOUBLE, DT_INT32}),
    Conv2DBackpropInputOp);
REGISTER_KERNEL_BUILDER(
    Name("Conv2DBackpropFilter")
        .Device(DEVICE_CPU)
        .TypeConstraint("T", {DT_HALF, DT_BFLOAT16, DT_FLOAT, DT_DOUBLE}),
    Conv2DBackpropFilterOp);
REGISTER_KERNEL_BUILDER(
    Name("Conv3DBackpropInputV2")
        .Device(DEVICE_CPU)
        .TypeConstraint("T", {DT_HALF, DT_BFLOAT16, DT_FLOAT, DT_DOUBLE}),
    Conv3DBackpropInputV2Op);
REGISTER_KERNEL_BUILDER(
    Name("Conv3DBackpropFilterV2")
        .Device(DEVICE_CPU)
        .TypeConstraint("T", {DT_HALF, DT_BFLOAT16, DT_FLOAT, DT_DOUBLE}),
    Conv3DBackpropFilterV2Op);
REGISTER_KERNEL_BUILDER(
    Name("Conv3DBackpropInput").Device(DEVICE_CPU).TypeConstraint("T", {DT_HALF, DT_FLOAT,
                                                                         DT_DOUBLE}),
    Conv3DBackpropInputV1Op);
REGISTER_KERNEL_BUILDER(
    Name("Conv3DBackpropFilter").Device(DEVICE_CPU).TypeConstraint("T", {DT_HALF, DT_FLOAT,
                                                                          DT_DOUBLE}),
    Conv3DBackpropFilterV1Op);

}  // namespace
}  // namespace sg
