// FusedBatchNorm, FusedBatchNormV2 and FusedBatchNormV3 (forward). Inference normalizes with the
// given mean and variance; training with the batch's own statistics, and reports the batch mean
// and the unbiased batch variance (blended with the inputs by exponential_avg_factor), the batch
// mean and biased variance in reserve_space_1/2, as TensorFlow's CPU kernel does.
#include <cmath>

#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"
#include "core/kernels/parallel_for.h"

namespace sg {
namespace {

template <typename T>
class FusedBatchNormOp final : public OpKernel {
 public:
  explicit FusedBatchNormOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("epsilon", &epsilon_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("exponential_avg_factor", &avg_factor_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("is_training", &is_training_));
    std::string format;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("data_format", &format));
    channels_last_ = format == "NHWC" || format == "NDHWC";
    rank_ = format.size() == 5 ? 5 : 4;
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    OP_REQUIRES(ctx, x.dims() == rank_,
                NodeError(ctx, "input must be ", rank_, "-dimensional, got ",
                          x.shape().DebugString()));
    const int cdim = channels_last_ ? rank_ - 1 : 1;
    const int64_t channels = x.dim_size(cdim);
    for (int i = 1; i < 5; ++i) {
      const Tensor& v = ctx->input(i);
      // In training the mean and variance inputs may be empty (no running statistics yet).
      const bool may_be_empty = is_training_ && i >= 3 && v.NumElements() == 0;
      OP_REQUIRES(ctx, v.dims() == 1 && (v.dim_size(0) == channels || may_be_empty),
                  NodeError(ctx, "input ", i, " must be a vector of ", channels,
                            " values, got ", v.shape().DebugString()));
    }
    // x viewed as [outer, channels, inner].
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < cdim; ++d) outer *= x.dim_size(d);
    for (int d = cdim + 1; d < rank_; ++d) inner *= x.dim_size(d);
    const float* scale = ctx->input(1).data<float>();
    const float* offset = ctx->input(2).data<float>();
    const T* xs = x.data<T>();

    std::vector<double> mean(channels, 0.0), var(channels, 0.0);
    const int64_t count = outer * inner;
    if (is_training_) {
      for (int64_t o = 0; o < outer; ++o) {
        for (int64_t c = 0; c < channels; ++c) {
          const T* p = xs + (o * channels + c) * inner;
          double s = 0;
          for (int64_t i = 0; i < inner; ++i) s += static_cast<double>(p[i]);
          mean[c] += s;
        }
      }
      for (int64_t c = 0; c < channels; ++c) mean[c] /= static_cast<double>(count);
      for (int64_t o = 0; o < outer; ++o) {
        for (int64_t c = 0; c < channels; ++c) {
          const T* p = xs + (o * channels + c) * inner;
          double s = 0;
          for (int64_t i = 0; i < inner; ++i) {
            const double dlt = static_cast<double>(p[i]) - mean[c];
            s += dlt * dlt;
          }
          var[c] += s;
        }
      }
      for (int64_t c = 0; c < channels; ++c) var[c] /= static_cast<double>(count);
    } else {
      for (int64_t c = 0; c < channels; ++c) {
        mean[c] = ctx->input(3).data<float>()[c];
        var[c] = ctx->input(4).data<float>()[c];
      }
    }
    // y = x * a + b per channel.
    std::vector<float> a(channels), b(channels);
    for (int64_t c = 0; c < channels; ++c) {
      const double inv = 1.0 / std::sqrt(var[c] + static_cast<double>(epsilon_));
      a[c] = static_cast<float>(scale[c] * inv);
      b[c] = static_cast<float>(offset[c] - mean[c] * scale[c] * inv);
    }
    Tensor* y;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, x.shape(), &y));
    T* ys = y->data<T>();
    auto rows = [&](Eigen::Index begin, Eigen::Index end) {
      for (Eigen::Index r = begin; r < end; ++r) {
        const int64_t c = r % channels;
        const T* p = xs + r * inner;
        T* q = ys + r * inner;
        for (int64_t i = 0; i < inner; ++i) {
          q[i] = static_cast<T>(static_cast<float>(p[i]) * a[c] + b[c]);
        }
      }
    };
    if (x.NumElements() > 0) {
      ParallelFor(ctx->eigen_cpu_device(), outer * channels,
                                          Eigen::TensorOpCost(inner * sizeof(T),
                                                              inner * sizeof(T), 2 * inner),
                                          rows);
    }

    const TensorShape cshape({channels});
    Tensor *batch_mean, *batch_var, *saved_mean, *saved_var;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, cshape, &batch_mean));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(2, cshape, &batch_var));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(3, cshape, &saved_mean));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(4, cshape, &saved_var));
    const double adjust = count > 1 ? static_cast<double>(count) / (count - 1) : 1.0;
    const bool blend = is_training_ && avg_factor_ != 1.0f;
    const float f = avg_factor_;
    for (int64_t c = 0; c < channels; ++c) {
      float m = static_cast<float>(mean[c]);
      float v = static_cast<float>(is_training_ ? var[c] * adjust : var[c]);
      if (blend) {
        m = (1 - f) * ctx->input(3).data<float>()[c] + f * m;
        v = (1 - f) * ctx->input(4).data<float>()[c] + f * v;
      }
      batch_mean->data<float>()[c] = m;
      batch_var->data<float>()[c] = v;
      saved_mean->data<float>()[c] = static_cast<float>(mean[c]);
      saved_var->data<float>()[c] = static_cast<float>(var[c]);
    }
    if (ctx->num_outputs() > 5) {
      Tensor* reserve3;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(5, TensorShape({0}), &reserve3));
    }
  }

 private:
  float epsilon_, avg_factor_;
  bool is_training_, channels_last_;
  int rank_;
};

REGISTER_KERNEL_BUILDER(Name("FusedBatchNorm").Device(DEVICE_CPU).TypeConstraint<float>("T"),
                        FusedBatchNormOp<float>);
REGISTER_KERNEL_BUILDER(Name("FusedBatchNormV2").Device(DEVICE_CPU).TypeConstraint<float>("T"),
                        FusedBatchNormOp<float>);
REGISTER_KERNEL_BUILDER(Name("FusedBatchNormV2").Device(DEVICE_CPU).TypeConstraint<half>("T"),
                        FusedBatchNormOp<half>);
REGISTER_KERNEL_BUILDER(Name("FusedBatchNormV2").Device(DEVICE_CPU).TypeConstraint<bfloat16>("T"),
                        FusedBatchNormOp<bfloat16>);
REGISTER_KERNEL_BUILDER(Name("FusedBatchNormV3")
                            .Device(DEVICE_CPU)
                            .TypeConstraint<float>("T")
                            .TypeConstraint<float>("U"),
                        FusedBatchNormOp<float>);
REGISTER_KERNEL_BUILDER(Name("FusedBatchNormV3")
                            .Device(DEVICE_CPU)
                            .TypeConstraint<half>("T")
                            .TypeConstraint<float>("U"),
                        FusedBatchNormOp<half>);
REGISTER_KERNEL_BUILDER(Name("FusedBatchNormV3")
                            .Device(DEVICE_CPU)
                            .TypeConstraint<bfloat16>("T")
                            .TypeConstraint<float>("U"),
                        FusedBatchNormOp<bfloat16>);

}  // namespace
}  // namespace sg
