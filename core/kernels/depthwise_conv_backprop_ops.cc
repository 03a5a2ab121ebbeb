// DepthwiseConv2dNativeBackpropInput and DepthwiseConv2dNativeBackpropFilter, as TensorFlow's CPU
// kernels: NHWC only (UNIMPLEMENTED otherwise), equal row and column strides, padding VALID, SAME
// or EXPLICIT. With the filter [KH, KW, C, M], output channel c * M + q of the forward op is
// input channel c convolved with filter[:, :, c, q]; so
//   dx[n, ih, iw, c] = sum dy[n, oh, ow, c * M + q] * w[i, j, c, q],
//   dw[i, j, c, q]   = sum dy[n, oh, ow, c * M + q] * x[n, ih, iw, c],
// over the output positions whose window (row oh * stride - pad_top + i, col likewise + j)
// reaches the input pixel. As TensorFlow's CPU kernels, the dilations attr is accepted and
// ignored (the undilated gradient). float goes through oneDNN's grouped convolution gradients
// (onednn_conv.h) where it takes the case; otherwise direct loops, in which half and bfloat16
// sum in float and round once.
#include <algorithm>
#include <string>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"
#include "core/kernels/cwise_ops_common.h"
#include "core/kernels/onednn_conv.h"
#include "core/kernels/parallel_for.h"
#include "core/kernels/window_util.h"

namespace sg {
namespace {

struct DepthwiseGeometry {
  int64_t n, h, w, c, kh, kw, m, stride, oh, ow, pad_top, pad_left;
};

template <typename T>
using DwAcc = std::conditional_t<std::is_same<T, double>::value, double, float>;

class DepthwiseBackpropBase : public OpKernel {
 public:
  explicit DepthwiseBackpropBase(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string format, p;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("strides", &strides_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("padding", &p));
    OP_REQUIRES_OK(ctx, ParsePadding(p, &padding_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("explicit_paddings", &explicit_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("data_format", &format));
    const std::string where = absl::StrCat(" (node '", ctx->def().name(), "', op ",
                                           ctx->def().op(), ")");
    OP_REQUIRES(ctx, strides_.size() == 4,
                errors::InvalidArgument("Sliding window strides field must specify 4 "
                                        "dimensions", where));
    OP_REQUIRES(ctx, strides_[0] == 1 && strides_[3] == 1,
                errors::InvalidArgument("Current implementation does not yet support strides "
                                        "in the batch and depth dimensions.", where));
    OP_REQUIRES(ctx, strides_[1] == strides_[2],
                errors::InvalidArgument("Current implementation only supports equal length "
                                        "strides in the row and column dimensions.", where));
    OP_REQUIRES(ctx, padding_ != Padding::kExplicit || explicit_.size() == 8,
                errors::InvalidArgument("explicit_paddings must have 8 values for EXPLICIT "
                                        "padding", where));
    OP_REQUIRES(ctx, padding_ != Padding::kExplicit ||
                         (explicit_[0] == 0 && explicit_[1] == 0 && explicit_[6] == 0 &&
                          explicit_[7] == 0),
                errors::InvalidArgument("Explicit padding in the batch and depth dimensions is "
                                        "not supported", where));
    OP_REQUIRES(ctx, padding_ != Padding::kExplicit ||
                         std::all_of(explicit_.begin(), explicit_.end(),
                                     [](int64_t v) { return v >= 0; }),
                errors::InvalidArgument("All explicit padding values must be nonnegative",
                                        where));
    OP_REQUIRES(ctx, format == "NHWC",
                errors::Unimplemented("Depthwise convolution on CPU is only supported for NHWC "
                                      "format", where));
  }

 protected:
  // Checks the input, filter and out_backprop shapes against each other, as TensorFlow does.
  absl::Status Geometry(OpKernelContext* ctx, const TensorShape& in, const TensorShape& filter,
                        const TensorShape& dy, DepthwiseGeometry* g) const {
    const std::string op = type_string() == "DepthwiseConv2dNativeBackpropInput"
                               ? "DepthwiseConv2DBackpropInput: "
                               : "DepthwiseConv2DBackpropFilter: ";
    if (in.dims() != 4) return NodeError(ctx, op, "input must be 4-dimensional");
    if (filter.dims() != 4) return NodeError(ctx, op, "filter must be 4-dimensional");
    if (dy.dims() != 4) return NodeError(ctx, op, "out_backprop must be 4-dimensional");
    g->n = in.dim_size(0);
    g->h = in.dim_size(1);
    g->w = in.dim_size(2);
    g->c = in.dim_size(3);
    g->kh = filter.dim_size(0);
    g->kw = filter.dim_size(1);
    g->m = filter.dim_size(3);
    g->stride = strides_[1];
    if (g->c != filter.dim_size(2)) {
      return NodeError(ctx, op, "input and filter must have the same depth");
    }
    if (g->n != dy.dim_size(0)) {
      return NodeError(ctx, op, "input and out_backprop must have the same batch size");
    }
    if (g->c * g->m != dy.dim_size(3)) {
      return NodeError(ctx, op, "depth_multiplier * in_depth not equal to out_depth");
    }
    const bool ex = padding_ == Padding::kExplicit;
    absl::Status s = WindowedOutputSize(g->h, g->kh, 1, g->stride, padding_, ex ? explicit_[2] : 0,
                                        ex ? explicit_[3] : 0, &g->oh, &g->pad_top);
    if (s.ok()) {
      s = WindowedOutputSize(g->w, g->kw, 1, g->stride, padding_, ex ? explicit_[4] : 0,
                             ex ? explicit_[5] : 0, &g->ow, &g->pad_left);
    }
    if (!s.ok()) return NodeError(ctx, op, s.message());
    if (g->oh != dy.dim_size(1)) {
      return NodeError(ctx, op, "Number of rows of out_backprop doesn't match computed: actual = ",
                       dy.dim_size(1), ", computed = ", g->oh);
    }
    if (g->ow != dy.dim_size(2)) {
      return NodeError(ctx, op, "Number of cols of out_backprop doesn't match computed: actual = ",
                       dy.dim_size(2), ", computed = ", g->ow);
    }
    return absl::OkStatus();
  }

  // The shape held by int32 vector input `i` (input_sizes or filter_sizes), 4 values.
  absl::Status SizesInput(OpKernelContext* ctx, int i, TensorShape* shape) const {
    SG_RETURN_IF_ERROR(ShapeFromIntVector(ctx, ctx->input(i), shape));
    if (shape->dims() != 4) {
      return NodeError(ctx, i == 0 ? "input_sizes" : "filter_sizes",
                       " must have 4 elements, got ", shape->dims());
    }
    return absl::OkStatus();
  }

  // Calls fn(oh, ow, ih, iw, i, j) for every output position (oh, ow) and window tap (i, j)
  // that lands inside the input, on pixel (ih, iw).
  template <typename Fn>
  static void ForEachTap(const DepthwiseGeometry& g, Fn fn) {
    for (int64_t oh = 0; oh < g.oh; ++oh) {
      for (int64_t ow = 0; ow < g.ow; ++ow) {
        for (int64_t i = 0; i < g.kh; ++i) {
          const int64_t ih = oh * g.stride - g.pad_top + i;
          if (ih < 0 || ih >= g.h) continue;
          for (int64_t j = 0; j < g.kw; ++j) {
            const int64_t iw = ow * g.stride - g.pad_left + j;
            if (iw < 0 || iw >= g.w) continue;
            fn(oh, ow, ih, iw, i, j);
          }
        }
      }
    }
  }

  // `g` as a grouped convolution: one group per input channel, each with m outputs.
  static ConvNdGeometry ToNd(const DepthwiseGeometry& g) {
    ConvNdGeometry nd;
    nd.n = g.n;
    nd.c = g.c;
    nd.filter_c = 1;
    nd.out_c = g.c * g.m;
    nd.in[1] = g.h, nd.in[2] = g.w;
    nd.k[1] = g.kh, nd.k[2] = g.kw;
    nd.s[1] = nd.s[2] = g.stride;
    nd.out[1] = g.oh, nd.out[2] = g.ow;
    nd.pad[1] = g.pad_top, nd.pad[2] = g.pad_left;
    return nd;
  }

  std::vector<int64_t> strides_, explicit_;
  Padding padding_ = Padding::kValid;
  OneDnnConv dnnl_;  // float only
};

using DepthwiseTypes = TypeList<float, double, half, bfloat16>;

class DepthwiseBackpropInputOp final : public DepthwiseBackpropBase {
 public:
  using DepthwiseBackpropBase::DepthwiseBackpropBase;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& filter = ctx->input(1);
    const Tensor& dy = ctx->input(2);
    TensorShape in_shape;
    OP_REQUIRES_OK(ctx, SizesInput(ctx, 0, &in_shape));
    DepthwiseGeometry g;
    OP_REQUIRES_OK(ctx, Geometry(ctx, in_shape, filter.shape(), dy.shape(), &g));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, in_shape, &out));
    if (filter.dtype() == DT_FLOAT &&
        dnnl_.Run(ctx, OneDnnConv::kBackwardData, 2, ToNd(g), filter.data<float>(),
                  dy.data<float>(), out->data<float>())) {
      return;
    }
    const bool ok = DispatchTypes(DepthwiseTypes(), filter.dtype(), [&](auto tag) {
      using T = decltype(tag);
      using A = DwAcc<T>;
      const T* w = filter.data<T>();
      const T* grad = dy.data<T>();
      T* dx = out->data<T>();
      const int64_t in_image = g.h * g.w * g.c, out_image = g.oh * g.ow * g.c * g.m;
      auto images = [&](Eigen::Index begin, Eigen::Index end) {
        std::vector<A> acc(in_image);
        for (Eigen::Index b = begin; b < end; ++b) {
          std::fill(acc.begin(), acc.end(), A(0));
          const T* gb = grad + b * out_image;
          ForEachTap(g, [&](int64_t oh, int64_t ow, int64_t ih, int64_t iw, int64_t i,
                            int64_t j) {
            const T* gp = gb + (oh * g.ow + ow) * g.c * g.m;
            const T* wp = w + (i * g.kw + j) * g.c * g.m;
            A* dst = acc.data() + (ih * g.w + iw) * g.c;
            for (int64_t c = 0; c < g.c; ++c) {
              A s = 0;
              for (int64_t q = 0; q < g.m; ++q) {
                s += static_cast<A>(gp[c * g.m + q]) * static_cast<A>(wp[c * g.m + q]);
              }
              dst[c] += s;
            }
          });
          T* dxb = dx + b * in_image;
          for (int64_t k = 0; k < in_image; ++k) dxb[k] = static_cast<T>(acc[k]);
        }
      };
      const double cost = static_cast<double>(out_image * g.kh * g.kw * 2);
      ParallelFor(ctx->eigen_cpu_device(), g.n, Eigen::TensorOpCost(cost, cost, cost), images);
    });
    if (!ok) ctx->CtxFailure(UnsupportedType(*this, filter.dtype()));
  }
};

class DepthwiseBackpropFilterOp final : public DepthwiseBackpropBase {
 public:
  using DepthwiseBackpropBase::DepthwiseBackpropBase;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const Tensor& dy = ctx->input(2);
    TensorShape filter_shape;
    OP_REQUIRES_OK(ctx, SizesInput(ctx, 1, &filter_shape));
    DepthwiseGeometry g;
    OP_REQUIRES_OK(ctx, Geometry(ctx, input.shape(), filter_shape, dy.shape(), &g));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, filter_shape, &out));
    if (input.dtype() == DT_FLOAT &&
        dnnl_.Run(ctx, OneDnnConv::kBackwardWeights, 2, ToNd(g), input.data<float>(),
                  dy.data<float>(), out->data<float>())) {
      return;
    }
    const bool ok = DispatchTypes(DepthwiseTypes(), input.dtype(), [&](auto tag) {
      using T = decltype(tag);
      using A = DwAcc<T>;
      const T* x = input.data<T>();
      const T* grad = dy.data<T>();
      T* dw = out->data<T>();
      const int64_t in_image = g.h * g.w * g.c, out_image = g.oh * g.ow * g.c * g.m;
      const int64_t cm = g.c * g.m;
      // Each filter row i is one task: it owns dw[i, :, :, :].
      auto rows = [&](Eigen::Index begin, Eigen::Index end) {
        std::vector<A> acc(g.kw * cm);
        for (Eigen::Index i = begin; i < end; ++i) {
          std::fill(acc.begin(), acc.end(), A(0));
          for (int64_t b = 0; b < g.n; ++b) {
            for (int64_t oh = 0; oh < g.oh; ++oh) {
              const int64_t ih = oh * g.stride - g.pad_top + i;
              if (ih < 0 || ih >= g.h) continue;
              for (int64_t ow = 0; ow < g.ow; ++ow) {
                const T* gp = grad + b * out_image + (oh * g.ow + ow) * cm;
                for (int64_t j = 0; j < g.kw; ++j) {
                  const int64_t iw = ow * g.stride - g.pad_left + j;
                  if (iw < 0 || iw >= g.w) continue;
                  const T* xp = x + b * in_image + (ih * g.w + iw) * g.c;
                  A* dst = acc.data() + j * cm;
                  for (int64_t c = 0; c < g.c; ++c) {
                    const A xv = static_cast<A>(xp[c]);
                    for (int64_t q = 0; q < g.m; ++q) {
                      dst[c * g.m + q] += xv * static_cast<A>(gp[c * g.m + q]);
                    }
                  }
                }
              }
            }
          }
          for (int64_t k = 0; k < g.kw * cm; ++k) dw[i * g.kw * cm + k] = static_cast<T>(acc[k]);
        }
      };
      const double cost = static_cast<double>(g.n * out_image * g.kw * 2);
      ParallelFor(ctx->eigen_cpu_device(), g.kh, Eigen::TensorOpCost(cost, cost, cost), rows);
    });
    if (!ok) ctx->CtxFailure(UnsupportedType(*this, input.dtype()));
  }
};

REGISTER_KERNEL_BUILDER(Name("DepthwiseConv2dNativeBackpropInput").Device(DEVICE_CPU),
                        DepthwiseBackpropInputOp);
REGISTER_KERNEL_BUILDER(Name("DepthwiseConv2dNativeBackpropFilter").Device(DEVICE_CPU),
                        DepthwiseBackpropFilterOp);

}  // namespace
}  // namespace sg
