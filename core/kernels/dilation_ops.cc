// Grayscale morphological dilation: Dilation2D (out = max over the window of input + filter,
// per channel) and its gradients, which send each output's gradient to the input pixel or
// filter tap that won its max (the first one in window order on ties), as TensorFlow's kernels.
#include <algorithm>
#include <string>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"
#include "core/kernels/cwise_ops_common.h"
#include "core/kernels/parallel_for.h"
#include "core/kernels/window_util.h"

namespace sg {
namespace {

using DilationTypes = TypeList<float, double, half, bfloat16, int8_t, int16_t, int32_t, int64_t,
                               uint8_t, uint16_t, uint32_t, uint64_t>;

struct DilationGeometry {
  int64_t n, h, w, c, fh, fw, sh, sw, rh, rw, oh, ow, pad_top, pad_left;
};

class DilationBase : public OpKernel {
 public:
  explicit DilationBase(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("strides", &strides_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("rates", &rates_));
    std::string p;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("padding", &p));
    OP_REQUIRES_OK(ctx, ParsePadding(p, &padding_));
    const std::string where = absl::StrCat(" (node '", ctx->def().name(), "', op ",
                                           ctx->def().op(), ")");
    OP_REQUIRES(ctx, strides_.size() == 4 && rates_.size() == 4,
                errors::InvalidArgument("strides and rates must have 4 entries", where));
    OP_REQUIRES(ctx, strides_[0] == 1 && strides_[3] == 1,
                errors::InvalidArgument("Current implementation does not yet support strides "
                                        "in the batch and depth dimensions.", where));
    OP_REQUIRES(ctx, rates_[0] == 1 && rates_[3] == 1,
                errors::InvalidArgument("Current implementation does not yet support rates in "
                                        "the batch and depth dimensions.", where));
  }

 protected:
  // The geometry of inputs 0 (input) and 1 (filter).
  absl::Status Geometry(OpKernelContext* ctx, DilationGeometry* g) const {
    const Tensor& input = ctx->input(0);
    const Tensor& filter = ctx->input(1);
    if (input.dims() != 4) {
      return NodeError(ctx, "input must be 4-dimensional: ", input.shape().DebugString());
    }
    if (filter.dims() != 3) {
      return NodeError(ctx, "filter must be 3-dimensional: ", filter.shape().DebugString());
    }
    if (input.dim_size(3) != filter.dim_size(2)) {
      return NodeError(ctx, "input and filter must have the same depth: ", input.dim_size(3),
                       " vs ", filter.dim_size(2));
    }
    *g = DilationGeometry{input.dim_size(0), input.dim_size(1), input.dim_size(2),
                          input.dim_size(3), filter.dim_size(0), filter.dim_size(1),
                          strides_[1], strides_[2], rates_[1], rates_[2], 0, 0, 0, 0};
    if (g->fh == 0 || g->fw == 0) return NodeError(ctx, "filter must not be empty");
    absl::Status s = WindowedOutputSize(g->h, g->fh, g->rh, g->sh, padding_, 0, 0, &g->oh,
                                        &g->pad_top);
    if (s.ok()) {
      s = WindowedOutputSize(g->w, g->fw, g->rw, g->sw, padding_, 0, 0, &g->ow, &g->pad_left);
    }
    if (!s.ok()) return NodeError(ctx, s.message());
    return absl::OkStatus();
  }

  // For output (b, y, x) and channel d: the winning input row/col and filter tap.
  template <typename T>
  static void Argmax(const DilationGeometry& g, const T* in, const T* f, int64_t b, int64_t y,
                     int64_t x, int64_t d, T* best, int64_t* in_h, int64_t* in_w, int64_t* fi,
                     int64_t* fj) {
    const int64_t h0 = y * g.sh - g.pad_top, w0 = x * g.sw - g.pad_left;
    *best = Eigen::NumTraits<T>::lowest();
    *in_h = std::max<int64_t>(h0, 0);
    *in_w = std::max<int64_t>(w0, 0);
    *fi = 0;
    *fj = 0;
    for (int64_t i = 0; i < g.fh; ++i) {
      const int64_t hi = h0 + i * g.rh;
      if (hi < 0 || hi >= g.h) continue;
      for (int64_t j = 0; j < g.fw; ++j) {
        const int64_t wj = w0 + j * g.rw;
        if (wj < 0 || wj >= g.w) continue;
        const T v = static_cast<T>(in[((b * g.h + hi) * g.w + wj) * g.c + d] +
                                   f[(i * g.fw + j) * g.c + d]);
        if (v > *best) {
          *best = v;
          *in_h = hi;
          *in_w = wj;
          *fi = i;
          *fj = j;
        }
      }
    }
  }

  // Checks out_backprop (input 2) against the output shape.
  absl::Status CheckBackprop(OpKernelContext* ctx, const DilationGeometry& g) const {
    const TensorShape want({g.n, g.oh, g.ow, g.c});
    if (ctx->input(2).shape() != want) {
      return NodeError(ctx, "out_backprop has shape ", ctx->input(2).shape().DebugString(),
                       ", expected ", want.DebugString());
    }
    return absl::OkStatus();
  }

 private:
  std::vector<int64_t> strides_, rates_;
  Padding padding_ = Padding::kValid;
};

class Dilation2DOp final : public DilationBase {
 public:
  using DilationBase::DilationBase;

  void Compute(OpKernelContext* ctx) override {
    DilationGeometry g;
    OP_REQUIRES_OK(ctx, Geometry(ctx, &g));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({g.n, g.oh, g.ow, g.c}), &out));
    if (out->NumElements() == 0) return;
    DispatchTypes(DilationTypes(), out->dtype(), [&](auto tag) {
      using T = decltype(tag);
      const T* in = ctx->input(0).data<T>();
      const T* f = ctx->input(1).data<T>();
      T* o = out->data<T>();
      auto rows = [&](Eigen::Index begin, Eigen::Index end) {
        for (Eigen::Index row = begin; row < end; ++row) {
          const int64_t y = row % g.oh, b = row / g.oh;
          for (int64_t x = 0; x < g.ow; ++x) {
            for (int64_t d = 0; d < g.c; ++d) {
              int64_t ih, iw, fi, fj;
              Argmax(g, in, f, b, y, x, d, &o[((b * g.oh + y) * g.ow + x) * g.c + d], &ih, &iw,
                     &fi, &fj);
            }
          }
        }
      };
      const double cost = static_cast<double>(g.ow) * g.c * g.fh * g.fw;
      ParallelFor(ctx->eigen_cpu_device(), g.n * g.oh, Eigen::TensorOpCost(cost, cost, cost),
                                          rows);
    });
  }
};

// The input gradient: each image's outputs scatter into that image only, so images run in
// parallel, each in TensorFlow's order (rows, cols, channels).
class Dilation2DBackpropInputOp final : public DilationBase {
 public:
  using DilationBase::DilationBase;

  void Compute(OpKernelContext* ctx) override {
    DilationGeometry g;
    OP_REQUIRES_OK(ctx, Geometry(ctx, &g));
    OP_REQUIRES_OK(ctx, CheckBackprop(ctx, g));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, ctx->input(0).shape(), &out));
    if (out->NumElements() == 0) return;
    DispatchTypes(DilationTypes(), out->dtype(), [&](auto tag) {
      using T = decltype(tag);
      const T* in = ctx->input(0).data<T>();
      const T* f = ctx->input(1).data<T>();
      const T* dy = ctx->input(2).data<T>();
      T* dx = out->data<T>();
      std::fill(dx, dx + out->NumElements(), T(0));
      auto images = [&](Eigen::Index begin, Eigen::Index end) {
        for (Eigen::Index b = begin; b < end; ++b) {
          for (int64_t y = 0; y < g.oh; ++y) {
            for (int64_t x = 0; x < g.ow; ++x) {
              for (int64_t d = 0; d < g.c; ++d) {
                T best;
                int64_t ih, iw, fi, fj;
                Argmax(g, in, f, b, y, x, d, &best, &ih, &iw, &fi, &fj);
                T& acc = dx[((b * g.h + ih) * g.w + iw) * g.c + d];
                acc = static_cast<T>(acc + dy[((b * g.oh + y) * g.ow + x) * g.c + d]);
              }
            }
          }
        }
      };
      const double cost = static_cast<double>(g.oh) * g.ow * g.c * g.fh * g.fw;
      ParallelFor(ctx->eigen_cpu_device(), g.n, Eigen::TensorOpCost(cost, cost, cost), images);
    });
  }
};

// The filter gradient: every output adds into the shared filter, in TensorFlow's order.
class Dilation2DBackpropFilterOp final : public DilationBase {
 public:
  using DilationBase::DilationBase;

  void Compute(OpKernelContext* ctx) override {
    DilationGeometry g;
    OP_REQUIRES_OK(ctx, Geometry(ctx, &g));
    OP_REQUIRES_OK(ctx, CheckBackprop(ctx, g));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, ctx->input(1).shape(), &out));
    if (out->NumElements() == 0) return;
    DispatchTypes(DilationTypes(), out->dtype(), [&](auto tag) {
      using T = decltype(tag);
      const T* in = ctx->input(0).data<T>();
      const T* f = ctx->input(1).data<T>();
      const T* dy = ctx->input(2).data<T>();
      T* df = out->data<T>();
      std::fill(df, df + out->NumElements(), T(0));
      for (int64_t b = 0; b < g.n; ++b) {
        for (int64_t y = 0; y < g.oh; ++y) {
          for (int64_t x = 0; x < g.ow; ++x) {
            for (int64_t d = 0; d < g.c; ++d) {
              T best;
              int64_t ih, iw, fi, fj;
              Argmax(g, in, f, b, y, x, d, &best, &ih, &iw, &fi, &fj);
              T& acc = df[(fi * g.fw + fj) * g.c + d];
              acc = static_cast<T>(acc + dy[((b * g.oh + y) * g.ow + x) * g.c + d]);
            }
          }
        }
      }
    });
  }
};

#define SG_REGISTER_DILATION(NAME, KERNEL)                                               \
  REGISTER_KERNEL_BUILDER(                                                               \
      Name(NAME).Device(DEVICE_CPU).TypeConstraint("T", DataTypesOf(DilationTypes())), \
      KERNEL)
SG_REGISTER_DILATION("Dilation2D", Dilation2DOp);
SG_REGISTER_DILATION("Dilation2DBackpropInput", Dilation2DBackpropInputOp);
SG_REGISTER_DILATION("Dilation2DBackpropFilter", Dilation2DBackpropFilterOp);
#undef SG_REGISTER_DILATION

}  // namespace
}  // namespace sg
