// SpaceToDepth and DepthToSpace: blocks of block_size x block_size pixels move into the channels
// and back. Both are one strided copy: the output seen as a 6-D view whose dims each map to a
// stride of the input. NHWC only, as TensorFlow's CPU kernels (other layouts find no kernel).
#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"

namespace sg {
namespace {

class DepthSpaceOp final : public OpKernel {
 public:
  explicit DepthSpaceOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    to_depth_ = ctx->def().op() == "SpaceToDepth";
    OP_REQUIRES_OK(ctx, ctx->GetAttr("block_size", &block_size_));
    std::string format;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("data_format", &format));
    // TensorFlow registers no CPU kernel for the other layouts: its placement of the node fails
    // with INVALID_ARGUMENT.
    OP_REQUIRES(ctx, format == "NHWC",
                errors::InvalidArgument("no CPU kernel for ", ctx->def().op(),
                                        " with data_format ", format, " (only NHWC) (node '",
                                        ctx->def().name(), "')"));
    OP_REQUIRES(ctx, block_size_ >= 2,
                errors::InvalidArgument("block_size must be at least 2, got ", block_size_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    OP_REQUIRES(ctx, in.dims() == 4,
                NodeError(ctx, "Input rank should be: 4 instead of: ", in.dims()));
    const int64_t b = in.dim_size(0), h = in.dim_size(1), w = in.dim_size(2),
                  c = in.dim_size(3), bs = block_size_;
    int64_t bs2;
    OP_REQUIRES(ctx, MultiplySizes(bs, bs, &bs2),
                NodeError(ctx, "block_size ", bs, " is too large"));
    TensorShape out_shape;
    DimVector view, src_strides;
    if (to_depth_) {
      OP_REQUIRES(ctx, h % bs == 0 && w % bs == 0,
                  NodeError(ctx, "Image width ", w, " and height ", h,
                            " should be divisible by block_size: ", bs));
      int64_t depth;
      OP_REQUIRES(ctx, MultiplySizes(c, bs2, &depth),
                  NodeError(ctx, "output depth is too large"));
      out_shape = TensorShape({b, h / bs, w / bs, depth});
      // Output (n, y, x, by, bx, ch) reads input (n, y * bs + by, x * bs + bx, ch).
      view = {b, h / bs, w / bs, bs, bs, c};
      src_strides = {h * w * c, bs * w * c, bs * c, w * c, c, 1};
    } else {
      OP_REQUIRES(ctx, c % bs2 == 0,
                  NodeError(ctx, "Input depth dimension ", c, " should be divisible by: ", bs2));
      const int64_t oc = c / bs2;
      int64_t oh, ow;
      OP_REQUIRES(ctx, MultiplySizes(h, bs, &oh) && MultiplySizes(w, bs, &ow),
                  NodeError(ctx, "output height or width is too large"));
      out_shape = TensorShape({b, oh, ow, oc});
      // Output (n, y, by, x, bx, ch) reads input (n, y, x, (by * bs + bx) * oc + ch).
      view = {b, h, bs, w, bs, oc};
      src_strides = {h * w * c, w * c, bs * oc, c, oc, 1};
    }
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &out));
    if (out->NumElements() == 0) return;
    CopyStrided(&ctx->eigen_cpu_device(), in.dtype(), view, in.raw_data(), 0, src_strides,
                out->raw_data(), 0, RowMajorStrides(view));
  }

 private:
  bool to_depth_;
  int64_t block_size_;
};
REGISTER_KERNEL_BUILDER(Name("SpaceToDepth").Device(DEVICE_CPU), DepthSpaceOp);
REGISTER_KERNEL_BUILDER(Name("DepthToSpace").Device(DEVICE_CPU), DepthSpaceOp);

}  // namespace
}  // namespace sg
