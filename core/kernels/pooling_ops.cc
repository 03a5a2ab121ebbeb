// MaxPool and AvgPool over NHWC windows. AvgPool divides by the number of input elements inside
// each window (padding excluded), as TensorFlow does; for float it runs on oneDNN's pooling
// primitive where that takes the case (onednn_pool.h). Otherwise work is split by output row on
// the pool.
#include <limits>

#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"
#include "core/kernels/onednn_pool.h"
#include "core/kernels/parallel_for.h"
#include "core/kernels/window_util.h"

namespace sg {
namespace {

struct PoolGeometry {
  int64_t n, h, w, c, kh, kw, sh, sw, oh, ow, pad_top, pad_left;
};

class PoolBase : public OpKernel {
 public:
  explicit PoolBase(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("ksize", &ksize_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("strides", &strides_));
    std::string p, format;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("padding", &p));
    OP_REQUIRES_OK(ctx, ParsePadding(p, &padding_));
    if (ctx->HasAttr("explicit_paddings")) {
      OP_REQUIRES_OK(ctx, ctx->GetAttr("explicit_paddings", &explicit_));
    }
    OP_REQUIRES_OK(ctx, ctx->GetAttr("data_format", &format));
    const std::string where = absl::StrCat(" (node '", ctx->def().name(), "', op ",
                                           ctx->def().op(), ")");
    // INVALID_ARGUMENT, as TensorFlow's CPU kernels ("only supports NHWC on device type CPU").
    OP_REQUIRES(ctx, format == "NHWC",
                errors::InvalidArgument("data_format ", format, " is not supported on CPU; only "
                                        "NHWC is", where));
    OP_REQUIRES(ctx, ksize_.size() == 4 && strides_.size() == 4,
                errors::InvalidArgument("Sliding window ksize and strides fields must specify 4 "
                                        "dimensions", where));
    OP_REQUIRES(ctx, ksize_[0] == 1 && strides_[0] == 1,
                errors::Unimplemented("Pooling is not yet supported on the batch dimension.",
                                      where));
    OP_REQUIRES(ctx, ksize_[3] == 1 && strides_[3] == 1,
                errors::Unimplemented("Pooling over the depth dimension is not supported.",
                                      where));
    OP_REQUIRES(ctx, ksize_[1] > 0 && ksize_[2] > 0,
                errors::InvalidArgument("Sliding window ksize must be positive", where));
    OP_REQUIRES(ctx, padding_ != Padding::kExplicit || explicit_.size() == 8,
                errors::InvalidArgument("explicit_paddings must have 8 values", where));
  }

 protected:
  absl::Status Geometry(OpKernelContext* ctx, const TensorShape& in, PoolGeometry* g) const {
    if (in.dims() != 4) {
      return NodeError(ctx, "input must be 4-dimensional, got ", in.DebugString());
    }
    g->n = in.dim_size(0);
    g->h = in.dim_size(1);
    g->w = in.dim_size(2);
    g->c = in.dim_size(3);
    g->kh = ksize_[1];
    g->kw = ksize_[2];
    g->sh = strides_[1];
    g->sw = strides_[2];
    const bool ex = padding_ == Padding::kExplicit;
    absl::Status s = WindowedOutputSize(g->h, g->kh, 1, g->sh, padding_, ex ? explicit_[2] : 0,
                                        ex ? explicit_[3] : 0, &g->oh, &g->pad_top);
    if (s.ok()) {
      s = WindowedOutputSize(g->w, g->kw, 1, g->sw, padding_, ex ? explicit_[4] : 0,
                             ex ? explicit_[5] : 0, &g->ow, &g->pad_left);
    }
    if (!s.ok()) return NodeError(ctx, s.message());
    return absl::OkStatus();
  }

  // Average-pools float through oneDNN; false when it does not take the case (see
  // OneDnnPool::Run).
  template <typename T>
  bool AvgPoolOnOneDnn(OpKernelContext* ctx, const PoolGeometry& g, const Tensor& input,
                       Tensor* out) {
    if constexpr (std::is_same_v<T, float>) {
      const OneDnnPool::Geometry dg = {g.n,  g.h,  g.w,  g.c,  g.kh,      g.kw,
                                       g.sh, g.sw, g.oh, g.ow, g.pad_top, g.pad_left};
      return dnnl_.Run(ctx, dg, input.data<float>(), out->data<float>());
    }
    return false;
  }

  // Runs body(n, oh, ow, h0, h1, w0, w1) for each output position, with the window clipped to
  // the input: rows [h0, h1), cols [w0, w1).
  template <typename Body>
  void ForEachWindow(OpKernelContext* ctx, const PoolGeometry& g, Body body) const {
    auto rows = [&](Eigen::Index begin, Eigen::Index end) {
      for (Eigen::Index row = begin; row < end; ++row) {
        const int64_t oh = row % g.oh, n = row / g.oh;
        const int64_t hs = oh * g.sh - g.pad_top;
        const int64_t h0 = std::max<int64_t>(hs, 0), h1 = std::min(hs + g.kh, g.h);
        for (int64_t ow = 0; ow < g.ow; ++ow) {
          const int64_t ws = ow * g.sw - g.pad_left;
          const int64_t w0 = std::max<int64_t>(ws, 0), w1 = std::min(ws + g.kw, g.w);
          body(n, oh, ow, h0, h1, w0, w1);
        }
      }
    };
    const double cost = static_cast<double>(g.ow * g.kh * g.kw * g.c);
    ParallelFor(ctx->eigen_cpu_device(), g.n * g.oh, Eigen::TensorOpCost(cost, cost, cost), rows);
  }

 private:
  std::vector<int64_t> ksize_, strides_, explicit_;
  Padding padding_ = Padding::kValid;
  OneDnnPool dnnl_;  // AvgPool, float only
};

template <typename T>
class MaxPoolOp final : public PoolBase {
 public:
  using PoolBase::PoolBase;

  // 2x2 windows at stride 2 that all lie inside the input (no padding): a downsampling pool
  // (MNIST's, VGG16's). Each output row is made in one pass over its two input rows, an
  // element's four inputs read at once, where the general loop below writes each output once per
  // tap. False, writing nothing, for other geometries.
  static bool MaxPool2x2(OpKernelContext* ctx, const PoolGeometry& g, const T* in, T* out) {
    if (g.kh != 2 || g.kw != 2 || g.sh != 2 || g.sw != 2 || g.pad_top != 0 ||
        g.pad_left != 0 || 2 * g.oh > g.h || 2 * g.ow > g.w) {
      return false;
    }
    auto rows = [&](Eigen::Index begin, Eigen::Index end) {
      for (Eigen::Index row = begin; row < end; ++row) {
        const int64_t oh = row % g.oh, n = row / g.oh;
        const T* top = in + ((n * g.h + 2 * oh) * g.w) * g.c;
        const T* bottom = top + g.w * g.c;
        T* dst = out + row * g.ow * g.c;
        for (int64_t ow = 0; ow < g.ow; ++ow) {
          const T* __restrict a = top + 2 * ow * g.c;
          const T* __restrict b = bottom + 2 * ow * g.c;
          T* __restrict y = dst + ow * g.c;
          // As the general loop: from the lowest value, a select per input, so that a NaN never
          // replaces the running maximum.
          for (int64_t c = 0; c < g.c; ++c) {
            T r = Eigen::NumTraits<T>::lowest();
            r = a[c] > r ? a[c] : r;
            r = a[c + g.c] > r ? a[c + g.c] : r;
            r = b[c] > r ? b[c] : r;
            r = b[c + g.c] > r ? b[c + g.c] : r;
            y[c] = r;
          }
        }
      }
    };
    const double cost = static_cast<double>(g.ow * 4 * g.c);
    ParallelFor(ctx->eigen_cpu_device(), g.n * g.oh, Eigen::TensorOpCost(cost, cost, cost), rows);
    return true;
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    PoolGeometry g;
    OP_REQUIRES_OK(ctx, Geometry(ctx, input.shape(), &g));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({g.n, g.oh, g.ow, g.c}), &out));
    if (out->NumElements() == 0) return;
    const T* in = input.data<T>();
    T* o = out->data<T>();
    if (MaxPool2x2(ctx, g, in, o)) return;
    ForEachWindow(ctx, g, [&](int64_t n, int64_t oh, int64_t ow, int64_t h0, int64_t h1,
                              int64_t w0, int64_t w1) {
      T* dst = o + ((n * g.oh + oh) * g.ow + ow) * g.c;
      std::fill(dst, dst + g.c, Eigen::NumTraits<T>::lowest());
      for (int64_t ih = h0; ih < h1; ++ih) {
        for (int64_t iw = w0; iw < w1; ++iw) {
          const T* x = in + ((n * g.h + ih) * g.w + iw) * g.c;
          // A select rather than a conditional store, so that the loop vectorizes; a NaN
          // never replaces the running maximum either way.
          for (int64_t c = 0; c < g.c; ++c) {
            const T v = x[c];
            dst[c] = v > dst[c] ? v : dst[c];
          }
        }
      }
    });
  }
};

template <typename T>
class AvgPoolOp final : public PoolBase {
 public:
  using PoolBase::PoolBase;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    PoolGeometry g;
    OP_REQUIRES_OK(ctx, Geometry(ctx, input.shape(), &g));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({g.n, g.oh, g.ow, g.c}), &out));
    if (out->NumElements() == 0) return;
    if (AvgPoolOnOneDnn<T>(ctx, g, input, out)) return;
    using A = std::conditional_t<std::is_same_v<T, double>, double, float>;
    const T* in = input.data<T>();
    T* o = out->data<T>();
    ForEachWindow(ctx, g, [&](int64_t n, int64_t oh, int64_t ow, int64_t h0, int64_t h1,
                              int64_t w0, int64_t w1) {
      const A count = static_cast<A>(std::max<int64_t>(0, h1 - h0) * std::max<int64_t>(0, w1 - w0));
      T* dst = o + ((n * g.oh + oh) * g.ow + ow) * g.c;
      // Sums in the output row itself when it has the accumulator's type (float, double): no
      // buffer to set up per window, and plain loops that vectorize.
      A* acc;
      thread_local std::vector<A> buffer;
      if constexpr (std::is_same_v<T, A>) {
        acc = dst;
      } else {
        buffer.resize(g.c);
        acc = buffer.data();
      }
      std::fill(acc, acc + g.c, A(0));
      for (int64_t ih = h0; ih < h1; ++ih) {
        for (int64_t iw = w0; iw < w1; ++iw) {
          const T* x = in + ((n * g.h + ih) * g.w + iw) * g.c;
          for (int64_t c = 0; c < g.c; ++c) acc[c] += static_cast<A>(x[c]);
        }
      }
      for (int64_t c = 0; c < g.c; ++c) dst[c] = static_cast<T>(acc[c] / count);
    });
  }
};

#define SG_REGISTER_MAX_POOL(T) \
  REGISTER_KERNEL_BUILDER(Name("MaxPool").Device(DEVICE_CPU).TypeConstraint<T>("T"), MaxPoolOp<T>)
SG_REGISTER_MAX_POOL(float);
SG_REGISTER_MAX_POOL(double);
SG_REGISTER_MAX_POOL(half);
SG_REGISTER_MAX_POOL(bfloat16);
SG_REGISTER_MAX_POOL(int32_t);
SG_REGISTER_MAX_POOL(int64_t);
SG_REGISTER_MAX_POOL(uint8_t);
SG_REGISTER_MAX_POOL(int8_t);
SG_REGISTER_MAX_POOL(int16_t);
SG_REGISTER_MAX_POOL(uint16_t);
#undef SG_REGISTER_MAX_POOL

REGISTER_KERNEL_BUILDER(Name("AvgPool").Device(DEVICE_CPU).TypeConstraint<float>("T"),
                        AvgPoolOp<float>);
REGISTER_KERNEL_BUILDER(Name("AvgPool").Device(DEVICE_CPU).TypeConstraint<double>("T"),
                        AvgPoolOp<double>);
REGISTER_KERNEL_BUILDER(Name("AvgPool").Device(DEVICE_CPU).TypeConstraint<half>("T"),
                        AvgPoolOp<half>);
REGISTER_KERNEL_BUILDER(Name("AvgPool").Device(DEVICE_CPU).TypeConstraint<bfloat16>("T"),
                        AvgPoolOp<bfloat16>);

}  // namespace
}  // namespace sg
