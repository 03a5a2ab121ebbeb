// Conv3D (NDHWC, no dilations, as TensorFlow's CPU kernel), and Conv2D for half and bfloat16
// (computed in float; conv_ops.cc has the other dtypes), both through conv_nd's im2col path.
#include <string>

#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"
#include "core/kernels/conv_nd.h"

namespace sg {
namespace {

template <int kNd>
class ConvNdOp final : public OpKernel {
 public:
  explicit ConvNdOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, attrs_.Read(ctx, kNd, /*allow_dilation=*/kNd == 2));
    // TensorFlow's CPU Conv2D says UNIMPLEMENTED for NCHW, its Conv3D INVALID_ARGUMENT.
    const std::string msg = absl::StrCat("data_format ", attrs_.data_format,
                                         " is not supported on CPU (node '", ctx->def().name(),
                                         "', op ", ctx->def().op(), ")");
    OP_REQUIRES(ctx, attrs_.channels_last,
                kNd == 2 ? errors::Unimplemented(msg) : errors::InvalidArgument(msg));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const Tensor& filter = ctx->input(1);
    ConvNdGeometry g;
    absl::Status s = attrs_.Geometry(input.shape(), filter.shape(), &g);
    OP_REQUIRES(ctx, s.ok(), NodeError(ctx, s.message()));
    if (kNd == 3) {
      OP_REQUIRES(ctx, g.c == g.filter_c,
                  NodeError(ctx, "Number of channels in filter (", g.filter_c,
                            ") must match last dimension of input (", g.c, ")"));
    }
    OP_REQUIRES(ctx, g.filter_c > 0 || g.c == 0,
                NodeError(ctx, "filter depth must be positive, got ",
                          filter.shape().DebugString()));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, ConvNdOutputShape(kNd, g), &out));
    OP_REQUIRES_OK(ctx, ConvNdForward(ctx, g, input, filter, out));
  }

 private:
  ConvNdAttrs attrs_;
};

REGISTER_KERNEL_BUILDER(
    Name("Conv3D").Device(DEVICE_CPU).TypeConstraint("T", {DT_HALF, DT_BFLOAT16, DT_FLOAT,
                                                            DT_DOUBLE}),
    ConvNdOp<3>);
REGISTER_KERNEL_BUILDER(
    Name("Conv2D").Device(DEVICE_CPU).TypeConstraint("T", {DT_HALF, DT_BFLOAT16}), ConvNdOp<2>);

}  // namespace
}  // namespace sg
