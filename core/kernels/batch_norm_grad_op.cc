// Gradients of the batch normalizations, as TensorFlow's CPU kernels.
//
// FusedBatchNormGrad, FusedBatchNormGradV2, FusedBatchNormGradV3: with m = reserve_space_1 and
// v = reserve_space_2 (the forward op's batch mean and biased variance in training, the
// population statistics in inference), r = rsqrt(v + epsilon), per channel over every other
// dim (count n):
//   training:  x_backprop      = scale * r * (dy - mean(dy) - xs * mean(dy * xs)), xs = (x - m) * r
//              scale_backprop  = sum(dy * xs)
//   inference: x_backprop      = dy * scale * r
//              scale_backprop  = sum(dy * (x - m)) * r
//   both:      offset_backprop = sum(dy)
// Inference takes channels-last layouts only (INVALID_ARGUMENT otherwise, as TensorFlow's CPU
// kernel). The last two outputs are empty [0] vectors, as TensorFlow's CPU kernel gives (they
// only exist for the GPU kernel). x and y_backprop are half, bfloat16 or float (float only for V1); the
// per-channel math runs in double and is rounded to float (and x_backprop to T) once.
//
// BatchNormWithGlobalNormalizationGrad (channels last, 4-D): with r = rsqrt(v + epsilon),
//   db = sum(backprop), dx = backprop * r [* gamma], dm = -db * r [* gamma],
//   dv = sum(backprop * (t - m)) * (-0.5 * r^3) [* gamma], dg = sum(backprop * (t - m)) * r
//   (dg is 0 without scale_after_normalization); half computes in float.
#include <cmath>
#include <string>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"
#include "core/kernels/cwise_ops_common.h"
#include "core/kernels/parallel_for.h"

namespace sg {
namespace {

class FusedBatchNormGradOp final : public OpKernel {
 public:
  explicit FusedBatchNormGradOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("epsilon", &epsilon_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("is_training", &is_training_));
    std::string format;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("data_format", &format));
    OP_REQUIRES(ctx, format == "NHWC" || format == "NCHW" || format == "NDHWC" ||
                         format == "NCDHW",
                errors::InvalidArgument("Invalid data format ", format, " (node '",
                                        ctx->def().name(), "')"));
    channels_last_ = format == "NHWC" || format == "NDHWC";
    OP_REQUIRES(ctx, is_training_ || channels_last_,
                errors::InvalidArgument("The implementation of ", ctx->def().op(),
                                        " with is_training=False only support NHWC tensor format "
                                        "for now (node '", ctx->def().name(), "')"));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& dy = ctx->input(0);
    const Tensor& x = ctx->input(1);
    const Tensor& scale = ctx->input(2);
    const Tensor& mean_t = ctx->input(3);
    const Tensor& var_t = ctx->input(4);
    OP_REQUIRES(ctx, dy.dims() == 4 || dy.dims() == 5,
                NodeError(ctx, "input must be 4 or 5-dimensional", dy.shape().DebugString()));
    OP_REQUIRES(ctx, x.dims() == 4 || x.dims() == 5,
                NodeError(ctx, "input must be 4 or 5-dimensional", x.shape().DebugString()));
    OP_REQUIRES(ctx, scale.dims() == 1,
                NodeError(ctx, "scale must be 1-dimensional", scale.shape().DebugString()));
    OP_REQUIRES(ctx, mean_t.dims() == 1,
                NodeError(ctx, "saved mean must be 1-dimensional",
                          mean_t.shape().DebugString()));
    OP_REQUIRES(ctx, var_t.dims() == 1,
                NodeError(ctx, "saved variance must be 1-dimensional",
                          var_t.shape().DebugString()));
    OP_REQUIRES(ctx, x.shape() == dy.shape(),
                NodeError(ctx, "x and y_backprop must have same shape, but x has shape ",
                          x.shape().DebugString(), " and y_backprop has shape ",
                          dy.shape().DebugString()));
    const int rank = x.dims();
    const int cdim = channels_last_ ? rank - 1 : 1;
    const int64_t channels = x.dim_size(cdim);
    static const char* const kNames[] = {"scale", "reserve_space_1", "reserve_space_2"};
    for (int i = 2; i < 5; ++i) {
      OP_REQUIRES(ctx, ctx->input(i).NumElements() == channels,
                  NodeError(ctx, kNames[i - 2],
                            " must have the same number of elements as the channels of x, got ",
                            ctx->input(i).NumElements(), " and ", channels));
    }
    Tensor *dx, *dscale, *doffset, *unused;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, x.shape(), &dx));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, scale.shape(), &dscale));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(2, scale.shape(), &doffset));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(3, TensorShape({0}), &unused));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(4, TensorShape({0}), &unused));
    // x viewed as [outer, channels, inner].
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < cdim; ++d) outer *= x.dim_size(d);
    for (int d = cdim + 1; d < rank; ++d) inner *= x.dim_size(d);
    const int64_t count = outer * inner;
    const float* sc = scale.data<float>();
    const float* m = mean_t.data<float>();
    const float* v = var_t.data<float>();
    float* ds = dscale->data<float>();
    float* dof = doffset->data<float>();
    const bool ok = DispatchTypes(TypeList<float, half, bfloat16>(), x.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const T* xs = x.data<T>();
      const T* g = dy.data<T>();
      T* out = dx->data<T>();
      // Per channel: r, sum(dy), sum(dy * (x - m)).
      std::vector<double> r(channels), sum_dy(channels, 0.0), sum_dyx(channels, 0.0);
      for (int64_t c = 0; c < channels; ++c) {
        r[c] = 1.0 / std::sqrt(static_cast<double>(v[c]) + static_cast<double>(epsilon_));
      }
      for (int64_t o = 0; o < outer; ++o) {
        for (int64_t c = 0; c < channels; ++c) {
          const int64_t base = (o * channels + c) * inner;
          double s = 0, sx = 0;
          for (int64_t i = 0; i < inner; ++i) {
            const double gi = static_cast<double>(g[base + i]);
            s += gi;
            sx += gi * (static_cast<double>(xs[base + i]) - m[c]);
          }
          sum_dy[c] += s;
          sum_dyx[c] += sx;
        }
      }
      // Per channel, x_backprop = a * dy + b * (x - m) + k.
      std::vector<double> a(channels), b(channels), k(channels);
      for (int64_t c = 0; c < channels; ++c) {
        dof[c] = static_cast<float>(sum_dy[c]);
        if (is_training_) {
          ds[c] = static_cast<float>(sum_dyx[c] * r[c]);
          const double n = static_cast<double>(count);
          const double mean_dy = count > 0 ? sum_dy[c] / n : 0.0;
          const double mean_dyxs = count > 0 ? sum_dyx[c] * r[c] / n : 0.0;
          const double coef = static_cast<double>(sc[c]) * r[c];
          a[c] = coef;
          b[c] = -coef * r[c] * mean_dyxs;
          k[c] = -coef * mean_dy;
        } else {
          ds[c] = static_cast<float>(sum_dyx[c] * r[c]);
          a[c] = static_cast<double>(sc[c]) * r[c];
          b[c] = 0;
          k[c] = 0;
        }
      }
      auto rows = [&](Eigen::Index begin, Eigen::Index end) {
        for (Eigen::Index row = begin; row < end; ++row) {
          const int64_t c = row % channels;
          const int64_t base = row * inner;
          for (int64_t i = 0; i < inner; ++i) {
            const double xc = static_cast<double>(xs[base + i]) - m[c];
            out[base + i] = static_cast<T>(static_cast<float>(
                a[c] * static_cast<double>(g[base + i]) + b[c] * xc + k[c]));
          }
        }
      };
      if (x.NumElements() > 0) {
        const double cost = static_cast<double>(inner * 4);
        ParallelFor(ctx->eigen_cpu_device(), outer * channels,
                                            Eigen::TensorOpCost(cost, cost, cost), rows);
      }
    });
    OP_REQUIRES(ctx, ok, UnsupportedType(*this, x.dtype()));
  }

 private:
  float epsilon_ = 0;
  bool is_training_ = true;
  bool channels_last_ = true;
};

REGISTER_KERNEL_BUILDER(Name("FusedBatchNormGrad").Device(DEVICE_CPU), FusedBatchNormGradOp);
REGISTER_KERNEL_BUILDER(Name("FusedBatchNormGradV2").Device(DEVICE_CPU), FusedBatchNormGradOp);
REGISTER_KERNEL_BUILDER(Name("FusedBatchNormGradV3").Device(DEVICE_CPU), FusedBatchNormGradOp);

class BatchNormWithGlobalNormalizationGradOp final : public OpKernel {
 public:
  explicit BatchNormWithGlobalNormalizationGradOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("variance_epsilon", &epsilon_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("scale_after_normalization", &scale_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& t = ctx->input(0);
    const Tensor& backprop = ctx->input(4);
    OP_REQUIRES(ctx, t.dims() == 4,
                NodeError(ctx, "input must be 4-dimensional", t.shape().DebugString()));
    OP_REQUIRES(ctx, backprop.shape() == t.shape(),
                NodeError(ctx, "backprop must have the input's shape ", t.shape().DebugString(),
                          ", got ", backprop.shape().DebugString()));
    const int64_t depth = t.dim_size(3);
    static const char* const kNames[] = {"mean", "variance", "gamma"};
    for (int i = 1; i < 4; ++i) {
      const Tensor& v = ctx->input(i);
      OP_REQUIRES(ctx, v.dims() == 1 && v.dim_size(0) == depth,
                  NodeError(ctx, kNames[i - 1], " must be a vector of ", depth,
                            " elements (the input's depth), got shape ",
                            v.shape().DebugString()));
    }
    Tensor* outs[5];
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, t.shape(), &outs[0]));
    for (int i = 1; i < 5; ++i) {
      OP_REQUIRES_OK(ctx, ctx->allocate_output(i, TensorShape({depth}), &outs[i]));
    }
    DispatchTypes(FloatTypes(), t.dtype(), [&](auto tag) {
      using T = decltype(tag);
      using A = ComputeType<T>;
      const T* x = t.data<T>();
      const T* mean = ctx->input(1).data<T>();
      const T* var = ctx->input(2).data<T>();
      const T* gamma = ctx->input(3).data<T>();
      const T* g = backprop.data<T>();
      const int64_t rows = depth > 0 ? t.NumElements() / depth : 0;
      std::vector<A> db(depth, A(0)), sum_gx(depth, A(0)), r(depth), mul(depth);
      for (int64_t row = 0; row < rows; ++row) {
        for (int64_t c = 0; c < depth; ++c) {
          const int64_t i = row * depth + c;
          db[c] += static_cast<A>(g[i]);
          sum_gx[c] += static_cast<A>(g[i]) * (static_cast<A>(x[i]) - static_cast<A>(mean[c]));
        }
      }
      T* dm = outs[1]->data<T>();
      T* dv = outs[2]->data<T>();
      T* dbo = outs[3]->data<T>();
      T* dg = outs[4]->data<T>();
      for (int64_t c = 0; c < depth; ++c) {
        r[c] = A(1) / std::sqrt(static_cast<A>(var[c]) + static_cast<A>(epsilon_));
        mul[c] = scale_ ? r[c] * static_cast<A>(gamma[c]) : r[c];
        dbo[c] = static_cast<T>(db[c]);
        dm[c] = static_cast<T>(-db[c] * mul[c]);
        dg[c] = static_cast<T>(scale_ ? sum_gx[c] * r[c] : A(0));
        const A cube = r[c] * (r[c] * r[c]) * A(-0.5);
        dv[c] = static_cast<T>(sum_gx[c] * (scale_ ? cube * static_cast<A>(gamma[c]) : cube));
      }
      T* dx = outs[0]->data<T>();
      for (int64_t row = 0; row < rows; ++row) {
        for (int64_t c = 0; c < depth; ++c) {
          const int64_t i = row * depth + c;
          dx[i] = static_cast<T>(static_cast<A>(g[i]) * mul[c]);
        }
      }
    });
  }

 private:
  float epsilon_ = 0;
  bool scale_ = false;
};
REGISTER_KERNEL_BUILDER(Name("BatchNormWithGlobalNormalizationGrad")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", DataTypesOf(FloatTypes())),
                        BatchNormWithGlobalNormalizationGradOp);

}  // namespace
}  // namespace sg
