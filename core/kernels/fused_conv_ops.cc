// Convolutions with work fused around them, as TensorFlow's graph rewrites and old graph
// transforms produce them: _FusedConv2D and _FusedDepthwiseConv2dNative (a bias or an inference
// batch norm, [_FusedConv2D: a residual added,] then an optional activation, on the output),
// FusedPadConv2D (a mirror pad of the input first) and FusedResizeAndPadConv2D (a bilinear
// resize, then the pad). The convolution is oneDNN's for float where it takes the case
// (onednn_conv.h), with the fused ops' bias or batch norm, residual and activation inside the
// primitive; conv_nd's otherwise, the epilogue then a second pass over the output. The
// pre-steps build the padded input as a temporary.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"
#include "core/kernels/conv_nd.h"
#include "core/kernels/fused_epilogue.h"
#include "core/kernels/onednn_conv.h"

namespace sg {
namespace {

enum class Epilogue { kBiasAdd, kBatchNorm };

// _FusedConv2D and (kDepthwise) _FusedDepthwiseConv2dNative: conv, then bias (args: bias) or
// batch norm (args: scale, offset, mean, variance; y = (x - mean) * scale / sqrt(variance +
// epsilon) + offset), then the activation. _FusedConv2D also takes fused_ops [BiasAdd, Add]
// [+ activation] (args: bias, then a residual of the output's shape added before the
// activation), as TensorFlow's oneDNN build does. A depthwise filter [KH, KW, C, M] is the
// grouped convolution's [KH, KW, 1, C * M] (one group per input channel), with the same bytes.
template <typename T, bool kDepthwise>
class FusedConv2DOp final : public OpKernel {
 public:
  explicit FusedConv2DOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, attrs_.Read(ctx, 2, /*allow_dilation=*/true));
    dnnl_.set_constant_filter(OneDnnConv::ConstFilterAttr(ctx));
    const std::string where = absl::StrCat(" (node '", ctx->def().name(), "')");
    const std::string op = ctx->def().op();
    OP_REQUIRES(ctx, attrs_.channels_last,
                errors::Unimplemented(op, " supports only NHWC on the CPU", where));
    std::string filter_format = "HWIO";
    if (ctx->HasAttr("filter_format")) {
      OP_REQUIRES_OK(ctx, ctx->GetAttr("filter_format", &filter_format));
    }
    OP_REQUIRES(ctx, filter_format == "HWIO",
                errors::Unimplemented(op, " supports only HWIO filters on the CPU", where));
    std::vector<std::string> ops;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("fused_ops", &ops));
    float epsilon = 0, alpha = 0;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("epsilon", &epsilon));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("leakyrelu_alpha", &alpha));
    epsilon_ = epsilon;
    alpha_ = alpha;
    int num_args = 0;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("num_args", &num_args));
    // [BiasAdd, Add, ...]: the residual is the second arg.
    residual_ = !kDepthwise && ops.size() >= 2 && ops[0] == "BiasAdd" && ops[1] == "Add";
    const size_t base = residual_ ? 2 : 1;
    const bool known = !ops.empty() && ops.size() <= base + 1 &&
                       (ops[0] == "BiasAdd" || ops[0] == "FusedBatchNorm");
    const std::string act = ops.size() == base + 1 ? ops[base] : "";
    // The activations sg's fused convolution has always taken (not Tanh / Sigmoid), and swish
    // (_MklSwish).
    const bool act_known = act != "Tanh" && act != "Sigmoid" &&
                           ParseFusedActivation(act, &activation_);
    OP_REQUIRES(ctx, known && act_known,
                errors::Unimplemented(op, " does not support fused_ops [",
                                      absl::StrJoin(ops, ", "), "] on the CPU", where));
    epilogue_ = ops[0] == "BiasAdd" ? Epilogue::kBiasAdd : Epilogue::kBatchNorm;
    const int want = epilogue_ == Epilogue::kBiasAdd ? (residual_ ? 2 : 1) : 4;
    OP_REQUIRES(ctx, num_args == want,
                errors::InvalidArgument(op, " with ", absl::StrJoin(ops, ", "), " takes ", want,
                                        " args, got ", num_args, where));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const Tensor& filter = ctx->input(1);
    TensorShape filter_shape = filter.shape();
    if constexpr (kDepthwise) {
      OP_REQUIRES(ctx, input.dims() == 4 && filter.dims() == 4,
                  NodeError(ctx, "input and filter must be 4-dimensional, got ",
                            input.shape().DebugString(), " and ",
                            filter.shape().DebugString()));
      OP_REQUIRES(ctx, input.dim_size(3) == filter.dim_size(2),
                  NodeError(ctx, "input and filter must have the same depth: ",
                            input.dim_size(3), " vs ", filter.dim_size(2)));
      int64_t out_c = 0;
      OP_REQUIRES(ctx, MultiplySizes(filter.dim_size(2), filter.dim_size(3), &out_c),
                  NodeError(ctx, "filter too large: ", filter.shape().DebugString()));
      filter_shape = TensorShape({filter.dim_size(0), filter.dim_size(1), 1, out_c});
      // No channels: no groups either; conv_nd would reject a zero filter depth.
      if (input.dim_size(3) == 0) filter_shape.set_dim(2, 0);
    }
    ConvNdGeometry g;
    absl::Status s = attrs_.Geometry(input.shape(), filter_shape, &g);
    OP_REQUIRES(ctx, s.ok(), NodeError(ctx, s.message()));
    OP_REQUIRES(ctx, g.filter_c > 0 || g.c == 0,
                NodeError(ctx, "filter depth must be positive, got ",
                          filter.shape().DebugString()));
    const int nargs = epilogue_ == Epilogue::kBiasAdd ? 1 : 4;
    for (int i = 0; i < nargs; ++i) {
      const Tensor& a = ctx->input(2 + i);
      OP_REQUIRES(ctx, a.dtype() == DataTypeToEnum<T>::value,
                  NodeError(ctx, "fused arg ", i, " has dtype ", DataTypeString(a.dtype()),
                            ", expected ", DataTypeString(DataTypeToEnum<T>::value)));
      OP_REQUIRES(ctx, a.dims() == 1 && a.dim_size(0) == g.out_c,
                  NodeError(ctx, "fused arg ", i, " must be a vector of ", g.out_c,
                            " elements (the output depth), got shape ",
                            a.shape().DebugString()));
    }
    const TensorShape out_shape = ConvNdOutputShape(2, g);
    Tensor* out;
    if (residual_) {
      // The residual goes into the output first (in place when its buffer is free to take),
      // and the convolution adds to it.
      const Tensor& residual = ctx->input(3);
      OP_REQUIRES(ctx, residual.dtype() == DataTypeToEnum<T>::value,
                  NodeError(ctx, "fused arg 1 has dtype ", DataTypeString(residual.dtype()),
                            ", expected ", DataTypeString(DataTypeToEnum<T>::value)));
      OP_REQUIRES(ctx, residual.shape() == out_shape,
                  NodeError(ctx, "the residual to add must have the output's shape ",
                            out_shape.DebugString(), ", got ", residual.shape().DebugString()));
      OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output(3, 0, out_shape, &out));
      if (out->NumElements() == 0) return;
      if (out->data<T>() != residual.data<T>()) {
        std::memcpy(out->data<T>(), residual.data<T>(), residual.NumElements() * sizeof(T));
      }
    } else {
      OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &out));
      if (out->NumElements() == 0) return;
    }
    if constexpr (std::is_same_v<T, float>) {
      // The whole op in one primitive where oneDNN takes the epilogue.
      if (FusedOnOneDnn(ctx, g, input, filter, out)) return;
    }
    // Else the convolution, then the epilogue over its output. With a residual, out holds it:
    // the convolution goes to a temporary, added to out.
    Tensor conv_temp;
    Tensor* conv_out = out;
    if (residual_) {
      OP_REQUIRES_OK(ctx, ctx->allocate_temp(DataTypeToEnum<T>::value, out_shape, &conv_temp));
      conv_out = &conv_temp;
    }
    bool done = false;
    if constexpr (std::is_same_v<T, float>) {
      done = dnnl_.Run(ctx, OneDnnConv::kForward, 2, g, input.data<float>(),
                       filter.data<float>(), conv_out->data<float>());
      if (!ctx->status().ok()) return;
    }
    if (!done) OP_REQUIRES_OK(ctx, ConvNdForward(ctx, g, input, filter, conv_out));
    if (residual_) out->flat<T>().device(ctx->eigen_cpu_device()) += conv_temp.flat<T>();
    // Per channel: y = (x - sub) * mul + add, then the activation.
    std::vector<T> sub(g.out_c, T(0)), mul(g.out_c, T(1)), add(g.out_c);
    if (epilogue_ == Epilogue::kBiasAdd) {
      const T* bias = ctx->input(2).data<T>();
      std::copy(bias, bias + g.out_c, add.begin());
    } else {
      const T* scale = ctx->input(2).data<T>();
      const T* offset = ctx->input(3).data<T>();
      const T* mean = ctx->input(4).data<T>();
      const T* var = ctx->input(5).data<T>();
      for (int64_t c = 0; c < g.out_c; ++c) {
        sub[c] = mean[c];
        mul[c] = scale[c] / std::sqrt(var[c] + static_cast<T>(epsilon_));
        add[c] = offset[c];
      }
    }
    const bool bias_only = epilogue_ == Epilogue::kBiasAdd;
    ApplyFusedEpilogue<T>(ctx->eigen_cpu_device(), out->data<T>(), out->NumElements() / g.out_c,
                          g.out_c, bias_only ? nullptr : sub.data(),
                          bias_only ? nullptr : mul.data(), add.data(), activation_,
                          static_cast<T>(alpha_));
  }

 private:
  // Runs the convolution with the bias or the batch norm (as y * scale + shift, scale =
  // scale / sqrt(variance + epsilon), shift = offset - mean * scale) and the activation as
  // oneDNN's bias and post-ops. Returns false when oneDNN does not take it; true when done or
  // failed (ctx's status set).
  bool FusedOnOneDnn(OpKernelContext* ctx, const ConvNdGeometry& g, const Tensor& input,
                     const Tensor& filter, Tensor* out) {
    OneDnnConv::Epilogue ep;
    // Tanh and Sigmoid: not taken by the constructor.
    if (!OneDnnConv::EpilogueAct(activation_, &ep.act)) return false;
    ep.alpha = static_cast<float>(alpha_);
    ep.sum = residual_;
    std::vector<float> scale, shift;
    if (epilogue_ == Epilogue::kBiasAdd) {
      ep.bias = ctx->input(2).data<float>();
    } else {
      const float* gamma = ctx->input(2).data<float>();
      const float* offset = ctx->input(3).data<float>();
      const float* mean = ctx->input(4).data<float>();
      const float* var = ctx->input(5).data<float>();
      scale.resize(g.out_c);
      shift.resize(g.out_c);
      for (int64_t c = 0; c < g.out_c; ++c) {
        scale[c] = gamma[c] / std::sqrt(var[c] + static_cast<float>(epsilon_));
        shift[c] = offset[c] - mean[c] * scale[c];
      }
      ep.scale = scale.data();
      ep.shift = shift.data();
    }
    return dnnl_.Run(ctx, OneDnnConv::kForward, 2, g, input.data<float>(), filter.data<float>(),
                     out->data<float>(), &ep);
  }

  ConvNdAttrs attrs_;
  OneDnnConv dnnl_;  // float only
  Epilogue epilogue_ = Epilogue::kBiasAdd;
  bool residual_ = false;  // fused_ops [BiasAdd, Add, ...]
  FusedActivation activation_ = FusedActivation::kNone;
  double epsilon_ = 0, alpha_ = 0;
};
REGISTER_KERNEL_BUILDER(Name("_FusedConv2D").Device(DEVICE_CPU).TypeConstraint<float>("T"),
                        FusedConv2DOp<float, false>);
REGISTER_KERNEL_BUILDER(Name("_FusedConv2D").Device(DEVICE_CPU).TypeConstraint<double>("T"),
                        FusedConv2DOp<double, false>);
REGISTER_KERNEL_BUILDER(
    Name("_FusedDepthwiseConv2dNative").Device(DEVICE_CPU).TypeConstraint<float>("T"),
    FusedConv2DOp<float, true>);
REGISTER_KERNEL_BUILDER(
    Name("_FusedDepthwiseConv2dNative").Device(DEVICE_CPU).TypeConstraint<double>("T"),
    FusedConv2DOp<double, true>);

// Where mirror padding reads position i of a dim of n elements (i may be before or past it).
inline int64_t Mirror(int64_t i, int64_t n, bool reflect) {
  if (i < 0) return reflect ? -i : -i - 1;
  if (i >= n) return reflect ? 2 * n - 2 - i : 2 * n - 1 - i;
  return i;
}

// FusedPadConv2D (kResize false) and FusedResizeAndPadConv2D (true): [resize,] mirror pad,
// conv. The resize is TensorFlow's legacy bilinear one (no half-pixel centers).
template <bool kResize>
class FusedPadConvOp final : public OpKernel {
 public:
  explicit FusedPadConvOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, attrs_.Read(ctx, 2, /*allow_dilation=*/false));
    std::string mode;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("mode", &mode));
    reflect_ = mode == "REFLECT";
    if (kResize) OP_REQUIRES_OK(ctx, ctx->GetAttr("resize_align_corners", &align_corners_));
  }

  void Compute(OpKernelContext* ctx) override {
    const int base = kResize ? 1 : 0;
    const Tensor& input = ctx->input(0);
    const Tensor& paddings = ctx->input(base + 1);
    const Tensor& filter = ctx->input(base + 2);
    OP_REQUIRES(ctx, input.dims() == 4,
                NodeError(ctx, "input must be 4-dimensional: ", input.shape().DebugString()));
    OP_REQUIRES(ctx, paddings.dims() == 2 && paddings.dim_size(0) == 4 &&
                         paddings.dim_size(1) == 2,
                NodeError(ctx, "paddings must have shape [4, 2], got ",
                          paddings.shape().DebugString()));
    const auto pads = IntValues(paddings);
    OP_REQUIRES(ctx, pads[0] == 0 && pads[1] == 0 && pads[6] == 0 && pads[7] == 0,
                NodeError(ctx, "Fused mirror padding only supports spatial padding"));
    int64_t h = input.dim_size(1), w = input.dim_size(2);
    if (kResize) {
      const Tensor& size = ctx->input(1);
      OP_REQUIRES(ctx, size.dims() == 1 && size.NumElements() == 2,
                  NodeError(ctx, "size must be a vector of 2 elements, got shape ",
                            size.shape().DebugString()));
      const auto sz = IntValues(size);
      OP_REQUIRES(ctx, sz[0] > 0 && sz[1] > 0,
                  NodeError(ctx, "output dimensions must be positive"));
      OP_REQUIRES(ctx, input.dim_size(1) > 0 && input.dim_size(2) > 0,
                  NodeError(ctx, "input to resize must have non-empty spatial dims, got ",
                            input.shape().DebugString()));
      h = sz[0];
      w = sz[1];
    }
    const int64_t dims[2] = {h, w};
    for (int d = 0; d < 2; ++d) {
      for (int side = 0; side < 2; ++side) {
        const int64_t p = pads[2 * (d + 1) + side];
        OP_REQUIRES(ctx, p >= 0, NodeError(ctx, "paddings must be non-negative: ", p));
        OP_REQUIRES(ctx, reflect_ ? p < dims[d] : p <= dims[d],
                    NodeError(ctx, "paddings must be ", reflect_ ? "less than" : "at most",
                              " the dimension size: ", p, " vs ", dims[d]));
      }
    }
    const int64_t n = input.dim_size(0), c = input.dim_size(3);
    const int64_t ph = h + pads[2] + pads[3], pw = w + pads[4] + pads[5];
    int64_t elements = 0;
    OP_REQUIRES(ctx, MultiplySizes(n, ph, &elements) && MultiplySizes(elements, pw, &elements) &&
                         MultiplySizes(elements, c, &elements),
                NodeError(ctx, "the padded input [", n, ", ", ph, ", ", pw, ", ", c,
                          "] is too large"));
    Tensor padded;
    OP_REQUIRES_OK(ctx, ctx->allocate_temp(input.dtype(), TensorShape({n, ph, pw, c}), &padded));
    ConvNdGeometry g;
    absl::Status s = attrs_.Geometry(padded.shape(), filter.shape(), &g);
    OP_REQUIRES(ctx, s.ok(), NodeError(ctx, s.message()));
    OP_REQUIRES(ctx, g.c == g.filter_c,
                NodeError(ctx, "input depth ", g.c, " does not match filter depth ",
                          g.filter_c));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, ConvNdOutputShape(2, g), &out));
    if (out->NumElements() == 0) return;
    switch (input.dtype()) {
      case DT_FLOAT: Pad<float>(input, h, w, pads, &padded); break;
      case DT_DOUBLE: Pad<double>(input, h, w, pads, &padded); break;
      case DT_HALF: Pad<half>(input, h, w, pads, &padded); break;
      case DT_BFLOAT16: Pad<bfloat16>(input, h, w, pads, &padded); break;
      default:
        ctx->SetStatus(errors::Unimplemented("dtype ", DataTypeString(input.dtype())));
        return;
    }
    if (input.dtype() == DT_FLOAT &&
        dnnl_.Run(ctx, OneDnnConv::kForward, 2, g, padded.data<float>(), filter.data<float>(),
                  out->data<float>())) {
      return;
    }
    OP_REQUIRES_OK(ctx, ConvNdForward(ctx, g, padded, filter, out));
  }

 private:
  // Writes the (resized to h x w, then) mirror-padded input into `padded`.
  template <typename T>
  void Pad(const Tensor& input, int64_t h, int64_t w, const absl::InlinedVector<int64_t, 8>& pads,
           Tensor* padded) const {
    const int64_t n = input.dim_size(0), ih = input.dim_size(1), iw = input.dim_size(2);
    const int64_t c = input.dim_size(3);
    const int64_t ph = padded->dim_size(1), pw = padded->dim_size(2);
    using A = std::conditional_t<std::is_same_v<T, double>, double, float>;
    const T* in = input.data<T>();
    T* out = padded->data<T>();
    auto scale = [&](int64_t in_size, int64_t out_size) {
      return align_corners_ && out_size > 1
                 ? static_cast<float>(in_size - 1) / static_cast<float>(out_size - 1)
                 : static_cast<float>(in_size) / static_cast<float>(out_size);
    };
    const float sy = scale(ih, h), sx = scale(iw, w);
    for (int64_t b = 0; b < n; ++b) {
      for (int64_t y = 0; y < ph; ++y) {
        const int64_t ry = Mirror(y - pads[2], h, reflect_);
        for (int64_t x = 0; x < pw; ++x) {
          const int64_t rx = Mirror(x - pads[4], w, reflect_);
          T* dst = out + ((b * ph + y) * pw + x) * c;
          if (!kResize) {
            std::copy_n(in + ((b * ih + ry) * iw + rx) * c, c, dst);
            continue;
          }
          // Weights in float, values in A, as TensorFlow's kernel.
          const float fy = ry * sy, fx = rx * sx;
          const int64_t y0 = static_cast<int64_t>(std::floor(fy));
          const int64_t x0 = static_cast<int64_t>(std::floor(fx));
          const int64_t y1 = std::min(y0 + 1, ih - 1), x1 = std::min(x0 + 1, iw - 1);
          const float dy = fy - static_cast<float>(y0), dx = fx - static_cast<float>(x0);
          const T* r0 = in + (b * ih + y0) * iw * c;
          const T* r1 = in + (b * ih + y1) * iw * c;
          for (int64_t k = 0; k < c; ++k) {
            const A tl = static_cast<A>(r0[x0 * c + k]);
            const A tr = static_cast<A>(r0[x1 * c + k]);
            const A bl = static_cast<A>(r1[x0 * c + k]);
            const A br = static_cast<A>(r1[x1 * c + k]);
            const A top = tl + (tr - tl) * dx, bottom = bl + (br - bl) * dx;
            dst[k] = static_cast<T>(top + (bottom - top) * dy);
          }
        }
      }
    }
  }

  ConvNdAttrs attrs_;
  OneDnnConv dnnl_;  // float only
  bool reflect_ = true, align_corners_ = false;
};
REGISTER_KERNEL_BUILDER(
    Name("FusedPadConv2D")
        .Device(DEVICE_CPU)
        .TypeConstraint("T", {DT_HALF, DT_BFLOAT16, DT_FLOAT, DT_DOUBLE})
        .HostMemory("paddings"),
    FusedPadConvOp<false>);
REGISTER_KERNEL_BUILDER(
    Name("FusedResizeAndPadConv2D")
        .Device(DEVICE_CPU)
        .TypeConstraint("T", {DT_HALF, DT_FLOAT, DT_DOUBLE})
        .HostMemory("size")
        .HostMemory("paddings"),
    FusedPadConvOp<true>);

}  // namespace
}  // namespace sg
