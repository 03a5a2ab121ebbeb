// ExtractImagePatches: each output pixel holds the (dilated) window of input pixels around it,
// window position-major with all channels, zeros off the input: conv_nd's im2col on bytes, so
// one kernel serves every dtype.
#include <string>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"
#include "core/kernels/conv_nd.h"
#include "core/kernels/parallel_for.h"

namespace sg {
namespace {

class ExtractImagePatchesOp final : public OpKernel {
 public:
  explicit ExtractImagePatchesOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("ksizes", &ksizes_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("strides", &strides_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("rates", &rates_));
    std::string p;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("padding", &p));
    OP_REQUIRES_OK(ctx, ParsePadding(p, &padding_));
    const std::string where = absl::StrCat(" (node '", ctx->def().name(), "')");
    OP_REQUIRES(ctx, ksizes_.size() == 4 && strides_.size() == 4 && rates_.size() == 4,
                errors::InvalidArgument("ksizes, strides and rates must have 4 entries", where));
    OP_REQUIRES(ctx, ksizes_[0] == 1 && ksizes_[3] == 1,
                errors::Unimplemented("Only support ksizes across space.", where));
    OP_REQUIRES(ctx, strides_[0] == 1 && strides_[3] == 1,
                errors::Unimplemented("Only support strides across space.", where));
    OP_REQUIRES(ctx, rates_[0] == 1 && rates_[3] == 1,
                errors::Unimplemented("Only support rates across space.", where));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& images = ctx->input(0);
    OP_REQUIRES(ctx, images.dims() == 4,
                NodeError(ctx, "input must be 4-dimensional: ", images.shape().DebugString()));
    ConvNdGeometry g;
    g.n = images.dim_size(0);
    g.c = images.dim_size(3);
    for (int e = 1; e < 3; ++e) {
      g.in[e] = images.dim_size(e);
      g.k[e] = ksizes_[e];
      g.s[e] = strides_[e];
      g.d[e] = rates_[e];
      absl::Status s = WindowedOutputSize(g.in[e], g.k[e], g.d[e], g.s[e], padding_, 0, 0,
                                          &g.out[e], &g.pad[e]);
      OP_REQUIRES(ctx, s.ok(), NodeError(ctx, s.message()));
    }
    int64_t window = 0, depth = 0, positions = 0;
    OP_REQUIRES(ctx, MultiplySizes(g.k[1], g.k[2], &window) &&
                         MultiplySizes(window, g.c, &depth) &&
                         MultiplySizes(g.out[1], g.out[2], &positions),
                NodeError(ctx, "ksizes ", g.k[1], "x", g.k[2], " are too large"));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(
                            0, TensorShape({g.n, g.out[1], g.out[2], depth}), &out));
    if (out->NumElements() == 0) return;
    const size_t elem = DataTypeSize(images.dtype());
    const char* in = static_cast<const char*>(images.raw_data());
    char* o = static_cast<char*>(out->raw_data());
    const double bytes = static_cast<double>(depth) * elem;
    ParallelFor(ctx->eigen_cpu_device(),
        g.n * g.OutPositions(), Eigen::TensorOpCost(bytes, bytes, 0),
        [&](Eigen::Index b, Eigen::Index e) {
          ConvNdPatches(g, in, elem, b, e, o + b * depth * elem);
        });
  }

 private:
  std::vector<int64_t> ksizes_, strides_, rates_;
  Padding padding_ = Padding::kValid;
};
REGISTER_KERNEL_BUILDER(
    Name("ExtractImagePatches")
        .Device(DEVICE_CPU)
        .TypeConstraint("T", {DT_BFLOAT16, DT_HALF, DT_FLOAT, DT_DOUBLE, DT_INT8, DT_INT16,
                              DT_INT32, DT_INT64, DT_UINT8, DT_UINT16, DT_UINT32, DT_UINT64,
                              DT_COMPLEX64, DT_COMPLEX128, DT_BOOL}),
    ExtractImagePatchesOp);

}  // namespace
}  // namespace sg
