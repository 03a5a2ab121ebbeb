// SoftmaxCrossEntropyWithLogits, as TensorFlow's CPU kernel. Per row b of the broadcast
// [batch, classes] inputs, with d = features - max(features) and s = sum(exp(d)):
//   loss[b] = sum_c labels[b, c] * (log(s) - d[c]),  backprop[b, c] = exp(d[c]) / s - labels[b, c].
// half and bfloat16 compute in float and round each output once.
// SparseSoftmaxCrossEntropyWithLogits: the same with one-hot labels given as class indices
// (int32 or int64), INVALID_ARGUMENT for an index outside [0, classes), as TensorFlow's kernel.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/kernels/cwise_ops_common.h"

namespace sg {
namespace {

class SoftmaxXentOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& features = ctx->input(0);
    const Tensor& labels = ctx->input(1);
    // Both inputs broadcast (numpy rules) to one shape, which must be a matrix.
    const int rank = std::max(features.dims(), labels.dims());
    std::vector<int64_t> dims(rank), fstride(rank), lstride(rank);
    int64_t fs = 1, ls = 1;
    for (int i = rank - 1; i >= 0; --i) {
      const int fi = i - (rank - features.dims()), li = i - (rank - labels.dims());
      const int64_t fd = fi >= 0 ? features.dim_size(fi) : 1;
      const int64_t ld = li >= 0 ? labels.dim_size(li) : 1;
      OP_REQUIRES(ctx, fd == ld || fd == 1 || ld == 1,
                  KernelError(*this, "logits and labels must be broadcastable: logits_size=",
                              features.shape().DebugString(),
                              " labels_size=", labels.shape().DebugString()));
      dims[i] = fd == 1 ? ld : fd;
      fstride[i] = fd == 1 ? 0 : fs;
      lstride[i] = ld == 1 ? 0 : ls;
      fs *= fd;
      ls *= ld;
    }
    OP_REQUIRES(ctx, rank == 2,
                KernelError(*this, "logits and labels must be either 2-dimensional, or "
                                   "broadcasted to be 2-dimensional"));
    const int64_t batch = dims[0], classes = dims[1];
    Tensor *loss, *backprop;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({batch}), &loss));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, TensorShape({batch, classes}), &backprop));
    const bool ok = DispatchTypes(FloatTypesWithBf16(), features.dtype(), [&](auto tag) {
      using T = decltype(tag);
      using C = ComputeType<T>;
      const T* f = features.data<T>();
      const T* l = labels.data<T>();
      T* lo = loss->data<T>();
      T* bp = backprop->data<T>();
      std::vector<C> d(classes);
      for (int64_t b = 0; b < batch; ++b) {
        auto feat = [&](int64_t c) { return static_cast<C>(f[b * fstride[0] + c * fstride[1]]); };
        auto lab = [&](int64_t c) { return static_cast<C>(l[b * lstride[0] + c * lstride[1]]); };
        C max = classes > 0 ? feat(0) : C(0);
        for (int64_t c = 1; c < classes; ++c) max = std::max(max, feat(c));
        C sum = 0;
        for (int64_t c = 0; c < classes; ++c) {
          d[c] = feat(c) - max;
          sum += std::exp(d[c]);
        }
        const C log_sum = std::log(sum);
        C total = 0;
        for (int64_t c = 0; c < classes; ++c) {
          total += lab(c) * (log_sum - d[c]);
          bp[b * classes + c] = static_cast<T>(std::exp(d[c]) / sum - lab(c));
        }
        lo[b] = static_cast<T>(total);
      }
    });
    OP_REQUIRES(ctx, ok, UnsupportedType(*this, features.dtype()));
  }
};
REGISTER_KERNEL_BUILDER(Name("SoftmaxCrossEntropyWithLogits").Device(DEVICE_CPU), SoftmaxXentOp);

class SparseSoftmaxXentOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& features = ctx->input(0);
    const Tensor& labels = ctx->input(1);
    OP_REQUIRES(ctx, features.dims() == 2,
                KernelError(*this, "logits must be 2-D, but got shape ",
                            features.shape().DebugString()));
    OP_REQUIRES(ctx, labels.dims() == 1,
                KernelError(*this, "labels must be 1-D, but got shape ",
                            labels.shape().DebugString()));
    OP_REQUIRES(ctx, features.dim_size(0) == labels.dim_size(0),
                KernelError(*this,
                            "logits and labels must have the same first dimension, got logits "
                            "shape ",
                            features.shape().DebugString(), " and labels shape ",
                            labels.shape().DebugString()));
    const int64_t batch = features.dim_size(0), classes = features.dim_size(1);
    OP_REQUIRES(ctx, classes > 0 || batch == 0,
                KernelError(*this, "Must have at least one class, but got logits shape ",
                            features.shape().DebugString()));
    // The labels as int64, each checked before any output is written.
    std::vector<int64_t> label(batch);
    for (int64_t b = 0; b < batch; ++b) {
      label[b] = labels.dtype() == DT_INT32 ? labels.data<int32_t>()[b]
                                            : labels.data<int64_t>()[b];
      OP_REQUIRES(ctx, label[b] >= 0 && label[b] < classes,
                  KernelError(*this, "Received a label value of ", label[b],
                              " which is outside the valid range of [0, ", classes, ")."));
    }
    Tensor *loss, *backprop;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({batch}), &loss));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, TensorShape({batch, classes}), &backprop));
    const bool ok = DispatchTypes(FloatTypesWithBf16(), features.dtype(), [&](auto tag) {
      using T = decltype(tag);
      using C = ComputeType<T>;
      const T* f = features.data<T>();
      T* lo = loss->data<T>();
      T* bp = backprop->data<T>();
      std::vector<C> d(classes);
      for (int64_t b = 0; b < batch; ++b) {
        const T* row = f + b * classes;
        C max = static_cast<C>(row[0]);
        for (int64_t c = 1; c < classes; ++c) max = std::max(max, static_cast<C>(row[c]));
        C sum = 0;
        for (int64_t c = 0; c < classes; ++c) {
          d[c] = static_cast<C>(row[c]) - max;
          sum += std::exp(d[c]);
        }
        lo[b] = static_cast<T>(std::log(sum) - d[label[b]]);
        for (int64_t c = 0; c < classes; ++c) {
          bp[b * classes + c] =
              static_cast<T>(std::exp(d[c]) / sum - (c == label[b] ? C(1) : C(0)));
        }
      }
    });
    OP_REQUIRES(ctx, ok, UnsupportedType(*this, features.dtype()));
  }
};
REGISTER_KERNEL_BUILDER(Name("SparseSoftmaxCrossEntropyWithLogits").Device(DEVICE_CPU),
                        SparseSoftmaxXentOp);

}  // namespace
}  // namespace sg
