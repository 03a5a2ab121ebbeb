// BiasAdd (data_format NHWC: bias on the last dim; NCHW: bias on dim 1) and BiasAddV1, for the
// real and complex types.
#include "core/kernels/cwise_ops_common.h"

namespace sg {
namespace {

class BiasAddOp final : public OpKernel {
 public:
  explicit BiasAddOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string format = "NHWC";
    if (ctx->HasAttr("data_format")) {
      OP_REQUIRES_OK(ctx, ctx->GetAttr("data_format", &format));
    }
    OP_REQUIRES(ctx, format == "NHWC" || format == "NCHW",
                KernelError(*this, "Invalid data format ", format));
    nchw_ = format == "NCHW";
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& value = ctx->input(0);
    const Tensor& bias = ctx->input(1);
    OP_REQUIRES(ctx, value.dims() >= 2,
                KernelError(*this, "Input tensor must be at least 2D: ",
                            value.shape().DebugString()));
    OP_REQUIRES(ctx, bias.dims() == 1,
                KernelError(*this, "Biases must be 1D: ", bias.shape().DebugString()));
    const int channel_dim = nchw_ ? 1 : value.dims() - 1;
    OP_REQUIRES(ctx, bias.dim_size(0) == value.dim_size(channel_dim),
                KernelError(*this,
                            "Must provide as many biases as the channel dimension of the input "
                            "tensor: ",
                            bias.shape().DebugString(), " vs. ", value.shape().DebugString()));
    // The bias as a tensor that broadcasts against value: [C] or [C, 1, ..., 1].
    std::vector<int64_t> bias_dims(value.dims() - channel_dim, 1);
    bias_dims[0] = bias.dim_size(0);
    BCast bcast(value.shape(), TensorShape(bias_dims));
    using BiasTypes = TypeList<float, double, half, bfloat16, int32_t, int64_t, int8_t, int16_t,
                               uint8_t, uint16_t, uint32_t, uint64_t, complex64, complex128>;
    bool ok = DispatchTypes(BiasTypes(), value.dtype(), [&](auto tag) {
      using T = decltype(tag);
      Tensor* out;
      OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output(0, 0, value.shape(), &out));
      BroadcastBinaryLoop(ctx->eigen_cpu_device(), bcast, value.data<T>(), bias.data<T>(),
                          out->data<T>(), [](T a, T b) { return static_cast<T>(a + b); });
    });
    if (!ok) ctx->CtxFailure(UnsupportedType(*this, value.dtype()));
  }

 private:
  bool nchw_ = false;
};

REGISTER_KERNEL_BUILDER(Name("BiasAdd").Device(DEVICE_CPU), BiasAddOp);
REGISTER_KERNEL_BUILDER(Name("BiasAddV1").Device(DEVICE_CPU), BiasAddOp);

}  // namespace
}  // namespace sg
