// Conv2D (NHWC; float through oneDNN's convolution primitive where it takes the case, grouped or
// not; otherwise im2col in bounded chunks, then an Eigen contraction on the intra-op pool;
// grouped convolutions per group, or as a depthwise one when each group has one input channel)
// and DepthwiseConv2dNative (NHWC; float through oneDNN's grouped convolution, otherwise a direct
// loop split across the pool by output row).
#include <algorithm>
#include <cstring>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"
#include "core/kernels/onednn_conv.h"
#include "core/kernels/parallel_for.h"
#include "core/kernels/window_util.h"

namespace sg {
namespace {

// Geometry of a 2-D NHWC windowed op, validated from the node's attrs and the input shapes.
struct ConvGeometry {
  int64_t n, h, w, c;     // input
  int64_t kh, kw;         // window
  int64_t sh, sw, dh, dw;  // strides, dilations
  int64_t oh, ow;         // output
  int64_t pad_top, pad_left;
};

// Attrs shared by Conv2D and DepthwiseConv2dNative, read once per node.
struct ConvAttrs {
  std::vector<int64_t> strides, dilations, explicit_paddings;
  Padding padding = Padding::kValid;
  bool nhwc = true;

  absl::Status Read(OpKernelConstruction* ctx) {
    SG_RETURN_IF_ERROR(ctx->GetAttr("strides", &strides));
    SG_RETURN_IF_ERROR(ctx->GetAttr("dilations", &dilations));
    SG_RETURN_IF_ERROR(ctx->GetAttr("explicit_paddings", &explicit_paddings));
    std::string p, format;
    SG_RETURN_IF_ERROR(ctx->GetAttr("padding", &p));
    SG_RETURN_IF_ERROR(ParsePadding(p, &padding));
    SG_RETURN_IF_ERROR(ctx->GetAttr("data_format", &format));
    nhwc = format == "NHWC";
    const std::string where = absl::StrCat(" (node '", ctx->def().name(), "', op ",
                                           ctx->def().op(), ")");
    if (strides.size() != 4) {
      return errors::InvalidArgument("Sliding window strides field must specify 4 dimensions",
                                     where);
    }
    if (dilations.size() != 4) {
      return errors::InvalidArgument("Sliding window dilations field must specify 4 dimensions",
                                     where);
    }
    if (strides[0] != 1 || strides[3] != 1) {
      return errors::InvalidArgument("Current implementation does not yet support strides in "
                                     "the batch and depth dimensions.", where);
    }
    if (dilations[0] != 1 || dilations[3] != 1) {
      return errors::InvalidArgument("Current implementation does not yet support dilations in "
                                     "the batch and depth dimensions.", where);
    }
    if (padding == Padding::kExplicit) {
      if (explicit_paddings.size() != 8) {
        return errors::InvalidArgument("explicit_paddings must have 8 values for EXPLICIT "
                                       "padding", where);
      }
      if (explicit_paddings[0] != 0 || explicit_paddings[1] != 0 ||
          explicit_paddings[6] != 0 || explicit_paddings[7] != 0) {
        return errors::InvalidArgument("Explicit padding in the batch and depth dimensions is "
                                       "not supported", where);
      }
    }
    if (!nhwc) {
      return errors::Unimplemented("data_format ", format, " is not supported on CPU", where);
    }
    return absl::OkStatus();
  }

  absl::Status Geometry(OpKernelContext* ctx, const TensorShape& in, int64_t kh, int64_t kw,
                        ConvGeometry* g) const {
    if (in.dims() != 4) return NodeError(ctx, "input must be 4-dimensional", in.DebugString());
    g->n = in.dim_size(0);
    g->h = in.dim_size(1);
    g->w = in.dim_size(2);
    g->c = in.dim_size(3);
    g->kh = kh;
    g->kw = kw;
    g->sh = strides[1];
    g->sw = strides[2];
    g->dh = dilations[1];
    g->dw = dilations[2];
    const bool ex = padding == Padding::kExplicit;
    absl::Status s = WindowedOutputSize(g->h, kh, g->dh, g->sh, padding,
                                        ex ? explicit_paddings[2] : 0,
                                        ex ? explicit_paddings[3] : 0, &g->oh, &g->pad_top);
    if (s.ok()) {
      s = WindowedOutputSize(g->w, kw, g->dw, g->sw, padding, ex ? explicit_paddings[4] : 0,
                             ex ? explicit_paddings[5] : 0, &g->ow, &g->pad_left);
    }
    if (!s.ok()) return NodeError(ctx, s.message());
    return absl::OkStatus();
  }
};

// `g` as conv_nd's geometry (2-D: entry 0 of its spatial arrays has size 1), for a filter of
// depth fc and out_c output channels.
ConvNdGeometry ToNd(const ConvGeometry& g, int64_t fc, int64_t out_c) {
  ConvNdGeometry nd;
  nd.n = g.n;
  nd.c = g.c;
  nd.filter_c = fc;
  nd.out_c = out_c;
  nd.in[1] = g.h, nd.in[2] = g.w;
  nd.k[1] = g.kh, nd.k[2] = g.kw;
  nd.s[1] = g.sh, nd.s[2] = g.sw;
  nd.d[1] = g.dh, nd.d[2] = g.dw;
  nd.out[1] = g.oh, nd.out[2] = g.ow;
  nd.pad[1] = g.pad_top, nd.pad[2] = g.pad_left;
  return nd;
}

// Fills rows [row_begin, row_end) of the patch matrix: row r is output position r (n, oh, ow
// in row-major order) and holds the KH x KW x cn window of input channels [c0, c0 + cn), zeros
// where it is padding.
template <typename T>
void Im2Col(const ConvGeometry& g, const T* in, int64_t c0, int64_t cn, int64_t row_begin,
            int64_t row_end, T* patches) {
  const int64_t k = g.kh * g.kw * cn;
  for (int64_t r = row_begin; r < row_end; ++r) {
    const int64_t ow = r % g.ow, oh = (r / g.ow) % g.oh, n = r / (g.ow * g.oh);
    T* dst = patches + (r - row_begin) * k;
    for (int64_t i = 0; i < g.kh; ++i) {
      const int64_t ih = oh * g.sh - g.pad_top + i * g.dh;
      for (int64_t j = 0; j < g.kw; ++j, dst += cn) {
        const int64_t iw = ow * g.sw - g.pad_left + j * g.dw;
        if (ih < 0 || ih >= g.h || iw < 0 || iw >= g.w) {
          std::fill(dst, dst + cn, T(0));
        } else {
          std::memcpy(dst, in + ((n * g.h + ih) * g.w + iw) * g.c + c0, cn * sizeof(T));
        }
      }
    }
  }
}

// Accumulator type: half and bfloat16 sum in float.
template <typename T>
struct Acc {
  using type = T;
};
template <>
struct Acc<half> {
  using type = float;
};
template <>
struct Acc<bfloat16> {
  using type = float;
};

// A depthwise convolution: output channel c * m + q is input channel c convolved with filter
// [kh, kw, c, q] (filter layout [KH, KW, C, M]). A direct loop split across the pool by output
// row.
template <typename T>
void DepthwiseConv(const Eigen::ThreadPoolDevice& d, const ConvGeometry& g, const T* in,
                   const T* f, int64_t m, T* o) {
  using A = typename Acc<T>::type;
  const int64_t out_c = g.c * m;
  auto rows = [&](Eigen::Index begin, Eigen::Index end) {
    std::vector<A> acc(out_c);
    for (Eigen::Index row = begin; row < end; ++row) {
      const int64_t oh = row % g.oh, n = row / g.oh;
      for (int64_t ow = 0; ow < g.ow; ++ow) {
        std::fill(acc.begin(), acc.end(), A(0));
        for (int64_t i = 0; i < g.kh; ++i) {
          const int64_t ih = oh * g.sh - g.pad_top + i * g.dh;
          if (ih < 0 || ih >= g.h) continue;
          for (int64_t j = 0; j < g.kw; ++j) {
            const int64_t iw = ow * g.sw - g.pad_left + j * g.dw;
            if (iw < 0 || iw >= g.w) continue;
            const T* x = in + ((n * g.h + ih) * g.w + iw) * g.c;
            const T* w = f + (i * g.kw + j) * out_c;
            for (int64_t c = 0; c < g.c; ++c) {
              const A xv = static_cast<A>(x[c]);
              for (int64_t q = 0; q < m; ++q) {
                acc[c * m + q] += xv * static_cast<A>(w[c * m + q]);
              }
            }
          }
        }
        T* dst = o + ((n * g.oh + oh) * g.ow + ow) * out_c;
        for (int64_t c = 0; c < out_c; ++c) dst[c] = static_cast<T>(acc[c]);
      }
    }
  };
  const double cost = static_cast<double>(g.ow * g.kh * g.kw * out_c);
  ParallelFor(d, g.n * g.oh, Eigen::TensorOpCost(cost, cost, cost), rows);
}

template <typename T>
class Conv2DOp final : public OpKernel {
 public:
  explicit Conv2DOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, attrs_.Read(ctx));
    dnnl_.set_constant_filter(OneDnnConv::ConstFilterAttr(ctx));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const Tensor& filter = ctx->input(1);
    OP_REQUIRES(ctx, filter.dims() == 4,
                NodeError(ctx, "filter must be 4-dimensional: ", filter.shape().DebugString()));
    ConvGeometry g;
    OP_REQUIRES_OK(ctx, attrs_.Geometry(ctx, input.shape(), filter.dim_size(0),
                                        filter.dim_size(1), &g));
    OP_REQUIRES(ctx, filter.dim_size(2) > 0,
                NodeError(ctx, "filter depth must be positive, got ",
                          filter.shape().DebugString()));
    OP_REQUIRES(ctx, g.c % filter.dim_size(2) == 0,
                NodeError(ctx, "input depth must be evenly divisible by filter depth: ", g.c,
                          " vs ", filter.dim_size(2)));
    // Grouped convolution (as TensorFlow's): the input's channels form groups of the filter's
    // depth, and each group makes an equal share of the output channels.
    const int64_t fc = filter.dim_size(2);
    const int64_t groups = g.c / fc;
    const int64_t out_c = filter.dim_size(3);
    OP_REQUIRES(ctx, out_c % groups == 0,
                NodeError(ctx, "output depth must be evenly divisible by number of groups: ",
                          out_c, " vs ", groups));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({g.n, g.oh, g.ow, out_c}), &out));
    if (out->NumElements() == 0) return;
    const auto& d = ctx->eigen_cpu_device();
    const int64_t k = g.kh * g.kw * fc;
    const int64_t rows = g.n * g.oh * g.ow;
    if (k == 0) {
      out->flat<T>().device(d) = out->flat<T>().constant(T(0));
      return;
    }
    if constexpr (std::is_same_v<T, float>) {
      // Grouped or not (depthwise too): oneDNN takes TensorFlow's filter layout for each.
      if (dnnl_.Run(ctx, OneDnnConv::kForward, 2, ToNd(g, fc, out_c), input.data<float>(),
                    filter.data<float>(), out->data<float>())) {
        return;
      }
    }
    if (groups > 1 && fc == 1) {
      // One input channel per group: a depthwise convolution, whose filter [KH, KW, C, M] has
      // the same layout as this one [KH, KW, 1, C * M].
      DepthwiseConv<T>(d, g, input.data<T>(), filter.data<T>(), out_c / groups, out->data<T>());
      return;
    }
    if (groups > 1) {
      GroupedConv(ctx, g, input, filter, groups, out);
      return;
    }
    typename TTypes<T>::ConstMatrix f(filter.data<T>(), k, out_c);
    const Eigen::array<Eigen::IndexPair<Eigen::DenseIndex>, 1> dims = {
        Eigen::IndexPair<Eigen::DenseIndex>(1, 0)};
    const bool pointwise = g.kh == 1 && g.kw == 1 && g.sh == 1 && g.sw == 1 && g.pad_top == 0 &&
                           g.pad_left == 0 && g.oh == g.h && g.ow == g.w;
    if (pointwise) {
      typename TTypes<T>::ConstMatrix a(input.data<T>(), rows, k);
      typename TTypes<T>::Matrix o(out->data<T>(), rows, out_c);
      o.device(d) = a.contract(f, dims);
      return;
    }
    // Bound the patch buffer to about 16M elements; each chunk is im2col then one GEMM.
    const int64_t chunk = std::max<int64_t>(1, std::min<int64_t>(rows, (int64_t{1} << 24) / k));
    Tensor patches;
    OP_REQUIRES_OK(ctx, ctx->allocate_temp(DataTypeToEnum<T>::value, TensorShape({chunk, k}),
                                           &patches));
    const T* in = input.data<T>();
    for (int64_t r0 = 0; r0 < rows; r0 += chunk) {
      const int64_t r1 = std::min(rows, r0 + chunk);
      T* p = patches.data<T>();
      ParallelFor(d, r1 - r0, Eigen::TensorOpCost(k * sizeof(T), k * sizeof(T), k),
                    [&](Eigen::Index b, Eigen::Index e) {
                      Im2Col<T>(g, in, 0, g.c, r0 + b, r0 + e, p + b * k);
                    });
      typename TTypes<T>::ConstMatrix a(p, r1 - r0, k);
      typename TTypes<T>::Matrix o(out->data<T>() + r0 * out_c, r1 - r0, out_c);
      o.device(d) = a.contract(f, dims);
    }
  }

 private:
  // Each group is im2col over its input channels, then a product with its columns of the filter
  // (copied out contiguous) into a contiguous block, which is copied into its output columns.
  // Plain matrices only: the same product as the ungrouped path, no sliced Eigen expressions.
  void GroupedConv(OpKernelContext* ctx, const ConvGeometry& g, const Tensor& input,
                   const Tensor& filter, int64_t groups, Tensor* out) {
    const auto& d = ctx->eigen_cpu_device();
    const int64_t fc = filter.dim_size(2), out_c = filter.dim_size(3);
    const int64_t opg = out_c / groups;
    const int64_t k = g.kh * g.kw * fc;
    const int64_t rows = g.n * g.oh * g.ow;
    Tensor patches, group_filter, group_out;
    OP_REQUIRES_OK(ctx, ctx->allocate_temp(DataTypeToEnum<T>::value, TensorShape({rows, k}),
                                           &patches));
    OP_REQUIRES_OK(ctx, ctx->allocate_temp(DataTypeToEnum<T>::value, TensorShape({k, opg}),
                                           &group_filter));
    OP_REQUIRES_OK(ctx, ctx->allocate_temp(DataTypeToEnum<T>::value, TensorShape({rows, opg}),
                                           &group_out));
    const Eigen::array<Eigen::IndexPair<Eigen::DenseIndex>, 1> dims = {
        Eigen::IndexPair<Eigen::DenseIndex>(1, 0)};
    T* p = patches.data<T>();
    T* gf = group_filter.data<T>();
    T* go = group_out.data<T>();
    const T* in = input.data<T>();
    const T* f = filter.data<T>();
    T* o = out->data<T>();
    for (int64_t grp = 0; grp < groups; ++grp) {
      ParallelFor(d, rows, Eigen::TensorOpCost(k * sizeof(T), k * sizeof(T), k),
                    [&](Eigen::Index b, Eigen::Index e) {
                      Im2Col<T>(g, in, grp * fc, fc, b, e, p + b * k);
                    });
      for (int64_t r = 0; r < k; ++r) {
        std::memcpy(gf + r * opg, f + r * out_c + grp * opg, opg * sizeof(T));
      }
      typename TTypes<T>::ConstMatrix a(p, rows, k);
      typename TTypes<T>::ConstMatrix fm(gf, k, opg);
      typename TTypes<T>::Matrix om(go, rows, opg);
      om.device(d) = a.contract(fm, dims);
      for (int64_t r = 0; r < rows; ++r) {
        std::memcpy(o + r * out_c + grp * opg, go + r * opg, opg * sizeof(T));
      }
    }
  }

  ConvAttrs attrs_;
  OneDnnConv dnnl_;  // float only
};
REGISTER_KERNEL_BUILDER(Name("Conv2D").Device(DEVICE_CPU).TypeConstraint<float>("T"),
                        Conv2DOp<float>);
REGISTER_KERNEL_BUILDER(Name("Conv2D").Device(DEVICE_CPU).TypeConstraint<double>("T"),
                        Conv2DOp<double>);
REGISTER_KERNEL_BUILDER(Name("Conv2D").Device(DEVICE_CPU).TypeConstraint<int32_t>("T"),
                        Conv2DOp<int32_t>);

template <typename T>
class DepthwiseConv2dNativeOp final : public OpKernel {
 public:
  explicit DepthwiseConv2dNativeOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, attrs_.Read(ctx));
    dnnl_.set_constant_filter(OneDnnConv::ConstFilterAttr(ctx));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const Tensor& filter = ctx->input(1);
    OP_REQUIRES(ctx, filter.dims() == 4,
                NodeError(ctx, "filter must be 4-dimensional: ", filter.shape().DebugString()));
    ConvGeometry g;
    OP_REQUIRES_OK(ctx, attrs_.Geometry(ctx, input.shape(), filter.dim_size(0),
                                        filter.dim_size(1), &g));
    OP_REQUIRES(ctx, g.c == filter.dim_size(2),
                NodeError(ctx, "input and filter must have the same depth: ", g.c, " vs ",
                          filter.dim_size(2)));
    const int64_t m = filter.dim_size(3);
    const int64_t out_c = g.c * m;
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({g.n, g.oh, g.ow, out_c}), &out));
    if (out->NumElements() == 0) return;
    if constexpr (std::is_same_v<T, float>) {
      // A grouped convolution with one group per input channel, each with m outputs.
      if (dnnl_.Run(ctx, OneDnnConv::kForward, 2, ToNd(g, 1, out_c), input.data<float>(),
                    filter.data<float>(), out->data<float>())) {
        return;
      }
    }
    DepthwiseConv<T>(ctx->eigen_cpu_device(), g, input.data<T>(), filter.data<T>(), m,
                     out->data<T>());
  }

 private:
  ConvAttrs attrs_;
  OneDnnConv dnnl_;  // float only
};
REGISTER_KERNEL_BUILDER(
    Name("DepthwiseConv2dNative").Device(DEVICE_CPU).TypeConstraint<float>("T"),
    DepthwiseConv2dNativeOp<float>);
REGISTER_KERNEL_BUILDER(
    Name("DepthwiseConv2dNative").Device(DEVICE_CPU).TypeConstraint<double>("T"),
    DepthwiseConv2dNativeOp<double>);
REGISTER_KERNEL_BUILDER(
    Name("DepthwiseConv2dNative").Device(DEVICE_CPU).TypeConstraint<half>("T"),
    DepthwiseConv2dNativeOp<half>);
REGISTER_KERNEL_BUILDER(
    Name("DepthwiseConv2dNative").Device(DEVICE_CPU).TypeConstraint<bfloat16>("T"),
    DepthwiseConv2dNativeOp<bfloat16>);

}  // namespace
}  // namespace sg
