// BiasAdd (data_format NHWC: bias on the last dim; NCHW: bias on dim 1) and BiasAddV1, for the
// real and complex types; BiasAddGrad, their gradient: the sum over every other dim, as
// TensorFlow's kernel (half and bfloat16 sum in float; integers wrap around).
#include <algorithm>
#include <vector>

#include "core/kernels/cwise_ops_common.h"
#include "core/kernels/parallel_for.h"

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

class BiasAddGradOp final : public OpKernel {
 public:
  explicit BiasAddGradOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string format;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("data_format", &format));
    OP_REQUIRES(ctx, format == "NHWC" || format == "NCHW",
                KernelError(*this, "Invalid data format ", format));
    nchw_ = format == "NCHW";
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& dy = ctx->input(0);
    OP_REQUIRES(ctx, dy.dims() >= 2,
                KernelError(*this, "Input tensor must be at least 2D: ",
                            dy.shape().DebugString()));
    // dy as [outer, channels, inner]: NHWC has inner 1, NCHW outer = the batch.
    const int channel_dim = nchw_ ? 1 : dy.dims() - 1;
    const int64_t channels = dy.dim_size(channel_dim);
    int64_t outer = 1, inner = 1;
    for (int i = 0; i < channel_dim; ++i) outer *= dy.dim_size(i);
    for (int i = channel_dim + 1; i < dy.dims(); ++i) inner *= dy.dim_size(i);
    using GradTypes = TypeList<float, double, half, bfloat16, int32_t, int64_t, int8_t, int16_t,
                               uint8_t, uint16_t, uint32_t, uint64_t, complex64, complex128>;
    bool ok = DispatchTypes(GradTypes(), dy.dtype(), [&](auto tag) {
      using T = decltype(tag);
      // Integers sum in their own type (wrapping as unsigned), floats in ComputeType.
      using Acc = std::conditional_t<std::is_integral<T>::value,
                                     std::conditional_t<sizeof(T) <= 4, uint32_t, uint64_t>,
                                     ComputeType<T>>;
      Tensor* out;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({channels}), &out));
      const T* in = dy.data<T>();
      T* o = out->data<T>();
      if (inner == 1) {
        // Channels last: dy is [outer, channels]. Each task sums a block of channels row by
        // row, reading its rows' contiguous slices once (a task per channel would stride
        // through the whole tensor once per channel). Each channel's sum still adds its
        // elements in row order, as below.
        constexpr int64_t kBlock = 64;
        const int64_t blocks = (channels + kBlock - 1) / kBlock;
        ParallelFor(ctx->eigen_cpu_device(),
            blocks, Eigen::TensorOpCost(outer * kBlock * sizeof(T), kBlock * sizeof(T),
                                        outer * kBlock),
            [=](Eigen::Index begin, Eigen::Index end) {
              std::vector<Acc> sum(kBlock);
              for (Eigen::Index blk = begin; blk < end; ++blk) {
                const int64_t c0 = blk * kBlock, cn = std::min(kBlock, channels - c0);
                std::fill(sum.begin(), sum.end(), Acc(0));
                for (int64_t a = 0; a < outer; ++a) {
                  const T* row = in + a * channels + c0;
                  for (int64_t c = 0; c < cn; ++c) sum[c] += static_cast<Acc>(row[c]);
                }
                for (int64_t c = 0; c < cn; ++c) o[c0 + c] = static_cast<T>(sum[c]);
              }
            });
        return;
      }
      ParallelFor(ctx->eigen_cpu_device(),
          channels, Eigen::TensorOpCost(outer * inner * sizeof(T), sizeof(T), outer * inner),
          [=](Eigen::Index begin, Eigen::Index end) {
            for (Eigen::Index c = begin; c < end; ++c) {
              Acc sum = Acc(0);
              for (int64_t a = 0; a < outer; ++a) {
                const T* row = in + (a * channels + c) * inner;
                for (int64_t b = 0; b < inner; ++b) sum += static_cast<Acc>(row[b]);
              }
              o[c] = static_cast<T>(sum);
            }
          });
    });
    if (!ok) ctx->CtxFailure(UnsupportedType(*this, dy.dtype()));
  }

 private:
  bool nchw_ = false;
};

REGISTER_KERNEL_BUILDER(Name("BiasAdd").Device(DEVICE_CPU), BiasAddOp);
REGISTER_KERNEL_BUILDER(Name("BiasAddGrad").Device(DEVICE_CPU), BiasAddGradOp);
REGISTER_KERNEL_BUILDER(Name("BiasAddV1").Device(DEVICE_CPU), BiasAddOp);

}  // namespace
}  // namespace sg
