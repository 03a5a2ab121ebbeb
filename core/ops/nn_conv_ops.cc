// More NN ops, with TensorFlow's OpDefs and shape functions: convolution gradients (2-D and 3-D),
// 3-D convolution and pooling, pooling with tensor window sizes or argmax, data-format index
// maps, fused convolutions, image patches, morphological dilation and the old global batch
// norm. Kernels live in core/kernels/{conv_backprop_ops,conv_nd_ops,pooling_nd_ops,
// data_format_ops,fused_conv_ops,extract_patches_op,dilation_ops,batch_norm_global_op}.cc.
#include <string>
#include <vector>

#include "core/framework/op.h"
#include "core/framework/shape_inference.h"
#include "core/kernels/window_util.h"

namespace sg {
namespace {

using Shape = PartialTensorShape;

// Where the batch, spatial and channel dims sit in a rank nd + 2 shape of `format` (NHWC,
// NCHW, NDHWC or NCDHW).
struct FormatDims {
  int n = 0, c = 0;
  int spatial[3] = {0, 0, 0};
};

absl::Status GetFormatDims(InferenceContext* c, int nd, FormatDims* f) {
  std::string format = nd == 3 ? "NDHWC" : "NHWC";
  c->GetAttr("data_format", &format).IgnoreError();
  const bool channels_last = format.back() == 'C';
  if (static_cast<int>(format.size()) != nd + 2) {
    return c->Error("data_format ", format, " does not have ", nd + 2, " dims");
  }
  f->n = 0;
  f->c = channels_last ? nd + 1 : 1;
  for (int i = 0; i < nd; ++i) f->spatial[i] = channels_last ? i + 1 : i + 2;
  return absl::OkStatus();
}

// The shape of input `i` of rank `rank`, or a rank-`rank` shape of unknown dims.
absl::Status RankedInput(InferenceContext* c, int i, int rank, Shape* s) {
  SG_RETURN_IF_ERROR(c->WithRank(i, rank, s));
  if (s->unknown_rank()) *s = Shape(std::vector<int64_t>(rank, -1));
  return absl::OkStatus();
}

// Sets output `out_index` to the shape of a windowed op (convolution or pooling) on input 0:
// window[i] is spatial dim i's window (-1 unknown); strides, dilations and explicit paddings
// are in layout order (dilations may be empty: all 1); out_c -2 keeps the input's channels.
absl::Status WindowedShape(InferenceContext* c, int nd, const FormatDims& f,
                           const std::vector<int64_t>& window,
                           const std::vector<int64_t>& strides,
                           const std::vector<int64_t>& dilations, Padding padding,
                           const std::vector<int64_t>& explicit_pads, int64_t out_c,
                           int out_index = 0) {
  Shape in;
  SG_RETURN_IF_ERROR(RankedInput(c, 0, nd + 2, &in));
  if (static_cast<int>(strides.size()) != nd + 2) {
    return c->Error("strides must have ", nd + 2, " elements, got ", strides.size());
  }
  if (!dilations.empty() && static_cast<int>(dilations.size()) != nd + 2) {
    return c->Error("dilations must have ", nd + 2, " elements, got ", dilations.size());
  }
  if (padding == Padding::kExplicit && static_cast<int>(explicit_pads.size()) != 2 * (nd + 2)) {
    return c->Error("explicit_paddings must have ", 2 * (nd + 2), " elements, got ",
                    explicit_pads.size());
  }
  std::vector<int64_t> out(nd + 2, -1);
  out[f.n] = in.dim_size(f.n);
  out[f.c] = out_c == -2 ? in.dim_size(f.c) : out_c;
  for (int i = 0; i < nd; ++i) {
    const int dim = f.spatial[i];
    if (window[i] < 0) continue;
    const bool ex = padding == Padding::kExplicit;
    int64_t unused;
    absl::Status s = WindowedOutputSize(in.dim_size(dim), window[i],
                                        dilations.empty() ? 1 : dilations[dim], strides[dim],
                                        padding, ex ? explicit_pads[2 * dim] : 0,
                                        ex ? explicit_pads[2 * dim + 1] : 0, &out[dim], &unused);
    if (!s.ok()) return c->Error(s.message());
  }
  c->set_output(out_index, Shape(out));
  return absl::OkStatus();
}

absl::Status PaddingAttr(InferenceContext* c, Padding* padding) {
  std::string p;
  SG_RETURN_IF_ERROR(c->GetAttr("padding", &p));
  return ParsePadding(p, padding);
}

// Conv3D: input [N, D, H, W, C] (or NCDHW), filter [KD, KH, KW, C, out_c].
absl::Status Conv3DShape(InferenceContext* c) {
  FormatDims f;
  SG_RETURN_IF_ERROR(GetFormatDims(c, 3, &f));
  Shape in, filter;
  SG_RETURN_IF_ERROR(RankedInput(c, 0, 5, &in));
  SG_RETURN_IF_ERROR(RankedInput(c, 1, 5, &filter));
  const absl::Span<const int64_t> fd = filter.dim_sizes();
  const int64_t in_c = in.dim_size(f.c), f_c = fd[3];
  if (in_c >= 0 && f_c > 0 && in_c % f_c != 0) {
    return c->Error("Depth of input (", in_c, ") is not a multiple of input depth of filter (",
                    f_c, ")");
  }
  std::vector<int64_t> strides, dilations;
  SG_RETURN_IF_ERROR(c->GetAttr("strides", &strides));
  SG_RETURN_IF_ERROR(c->GetAttr("dilations", &dilations));
  Padding padding;
  SG_RETURN_IF_ERROR(PaddingAttr(c, &padding));
  return WindowedShape(c, 3, f, {fd[0], fd[1], fd[2]}, strides, dilations, padding, {}, fd[4]);
}

// The gradient ops whose output shape is the value of input `i` (a vector of rank values), or
// the shape of input `i` itself when `from_shape`.
absl::Status ShapeFromInput(InferenceContext* c, int i, int rank, bool from_shape) {
  Shape s;
  if (from_shape) {
    SG_RETURN_IF_ERROR(RankedInput(c, i, rank, &s));
  } else {
    Shape v;
    SG_RETURN_IF_ERROR(c->WithRank(i, 1, &v));
    s = c->InputAsShape(i);
    if (s.unknown_rank()) s = Shape(std::vector<int64_t>(rank, -1));
    if (s.dims() != rank) {
      return c->Error("input ", i, " must have ", rank, " elements, got ", s.dims());
    }
  }
  c->set_output(0, s);
  return absl::OkStatus();
}

// Conv2DBackpropInput: input_sizes holds the 4 dims of the input, or only its 2 spatial dims
// (batch from out_backprop, depth from the filter).
absl::Status Conv2DBackpropInputShape(InferenceContext* c) {
  FormatDims f;
  SG_RETURN_IF_ERROR(GetFormatDims(c, 2, &f));
  Shape sizes_v, filter, dy;
  SG_RETURN_IF_ERROR(c->WithRank(0, 1, &sizes_v));
  SG_RETURN_IF_ERROR(RankedInput(c, 1, 4, &filter));
  SG_RETURN_IF_ERROR(RankedInput(c, 2, 4, &dy));
  const Shape sizes = c->InputAsShape(0);
  if (sizes.dims() == 4) {
    c->set_output(0, sizes);
  } else if (sizes.dims() == 2) {
    std::vector<int64_t> out(4);
    out[f.n] = dy.dim_size(f.n);
    out[f.c] = filter.dim_size(2);
    out[f.spatial[0]] = sizes.dim_size(0);
    out[f.spatial[1]] = sizes.dim_size(1);
    c->set_output(0, Shape(out));
  } else if (sizes.unknown_rank()) {
    c->set_output(0, Shape({-1, -1, -1, -1}));
  } else {
    return c->Error("input_sizes must have 4 or 2 elements, got ", sizes.dims());
  }
  return absl::OkStatus();
}

// Pooling with ksize and strides attrs over rank nd + 2 inputs.
absl::Status PoolNdShape(InferenceContext* c, int nd) {
  FormatDims f;
  SG_RETURN_IF_ERROR(GetFormatDims(c, nd, &f));
  std::vector<int64_t> ksize, strides;
  SG_RETURN_IF_ERROR(c->GetAttr("ksize", &ksize));
  SG_RETURN_IF_ERROR(c->GetAttr("strides", &strides));
  if (static_cast<int>(ksize.size()) != nd + 2) {
    return c->Error("ksize must have ", nd + 2, " elements, got ", ksize.size());
  }
  Padding padding;
  SG_RETURN_IF_ERROR(PaddingAttr(c, &padding));
  std::vector<int64_t> window(nd);
  for (int i = 0; i < nd; ++i) window[i] = ksize[f.spatial[i]];
  return WindowedShape(c, nd, f, window, strides, {}, padding, {}, -2);
}

// MaxPoolV2: ksize and strides are inputs 1 and 2; unknown spatial dims when they are not
// constants.
absl::Status MaxPoolV2Shape(InferenceContext* c) {
  FormatDims f;
  std::string format = "NHWC";
  c->GetAttr("data_format", &format).IgnoreError();
  if (format == "NCHW_VECT_C") return shape_fns::Unknown(c);
  SG_RETURN_IF_ERROR(GetFormatDims(c, 2, &f));
  Shape kv, sv;
  SG_RETURN_IF_ERROR(c->WithRank(1, 1, &kv));
  SG_RETURN_IF_ERROR(c->WithRank(2, 1, &sv));
  const Shape ks = c->InputAsShape(1), ss = c->InputAsShape(2);
  Padding padding;
  SG_RETURN_IF_ERROR(PaddingAttr(c, &padding));
  if (ks.dims() != 4 || ss.dims() != 4 || !ks.IsFullyDefined() || !ss.IsFullyDefined()) {
    Shape in;
    SG_RETURN_IF_ERROR(RankedInput(c, 0, 4, &in));
    std::vector<int64_t> out(4, -1);
    out[f.n] = in.dim_size(f.n);
    out[f.c] = in.dim_size(f.c);
    c->set_output(0, Shape(out));
    return absl::OkStatus();
  }
  std::vector<int64_t> strides(ss.dim_sizes().begin(), ss.dim_sizes().end());
  return WindowedShape(c, 2, f, {ks.dim_size(f.spatial[0]), ks.dim_size(f.spatial[1])}, strides,
                       {}, padding, {}, -2);
}

absl::Status MaxPoolWithArgmaxShape(InferenceContext* c) {
  SG_RETURN_IF_ERROR(PoolNdShape(c, 2));
  c->set_output(1, c->output(0));
  return absl::OkStatus();
}

// ExtractImagePatches: [N, OH, OW, KR * KC * C].
absl::Status ExtractImagePatchesShape(InferenceContext* c) {
  std::vector<int64_t> ksizes, strides, rates;
  SG_RETURN_IF_ERROR(c->GetAttr("ksizes", &ksizes));
  SG_RETURN_IF_ERROR(c->GetAttr("strides", &strides));
  SG_RETURN_IF_ERROR(c->GetAttr("rates", &rates));
  if (ksizes.size() != 4 || strides.size() != 4 || rates.size() != 4) {
    return c->Error("ksizes, strides and rates must have 4 elements");
  }
  Padding padding;
  SG_RETURN_IF_ERROR(PaddingAttr(c, &padding));
  FormatDims f;
  SG_RETURN_IF_ERROR(GetFormatDims(c, 2, &f));
  Shape in;
  SG_RETURN_IF_ERROR(RankedInput(c, 0, 4, &in));
  const int64_t ch = in.dim_size(3);
  SG_RETURN_IF_ERROR(WindowedShape(c, 2, f, {ksizes[1], ksizes[2]}, strides, rates, padding, {},
                                   ch >= 0 ? ksizes[1] * ksizes[2] * ch : -1));
  return absl::OkStatus();
}

// _FusedConv2D: Conv2D's shape (HWIO filters; other filter formats give an unknown shape).
absl::Status FusedConv2DShape(InferenceContext* c) {
  std::string filter_format = "HWIO", format = "NHWC";
  c->GetAttr("filter_format", &filter_format).IgnoreError();
  c->GetAttr("data_format", &format).IgnoreError();
  if (filter_format != "HWIO" || format == "NCHW_VECT_C") return shape_fns::Unknown(c);
  FormatDims f;
  SG_RETURN_IF_ERROR(GetFormatDims(c, 2, &f));
  Shape in, filter;
  SG_RETURN_IF_ERROR(RankedInput(c, 0, 4, &in));
  SG_RETURN_IF_ERROR(RankedInput(c, 1, 4, &filter));
  std::vector<int64_t> strides, dilations = {1, 1, 1, 1}, explicit_pads;
  SG_RETURN_IF_ERROR(c->GetAttr("strides", &strides));
  c->GetAttr("dilations", &dilations).IgnoreError();
  c->GetAttr("explicit_paddings", &explicit_pads).IgnoreError();
  Padding padding;
  SG_RETURN_IF_ERROR(PaddingAttr(c, &padding));
  return WindowedShape(c, 2, f, {filter.dim_size(0), filter.dim_size(1)}, strides, dilations,
                       padding, explicit_pads, filter.dim_size(3));
}

// FusedPadConv2D and FusedResizeAndPadConv2D (`resize`): the convolution of the (resized,)
// padded input; spatial dims unknown unless size and paddings are constants.
absl::Status FusedPadConvShape(InferenceContext* c, bool resize) {
  const int base = resize ? 1 : 0;
  Shape in, filter, pads_s;
  SG_RETURN_IF_ERROR(RankedInput(c, 0, 4, &in));
  SG_RETURN_IF_ERROR(c->WithRank(base + 1, 2, &pads_s));
  SG_RETURN_IF_ERROR(RankedInput(c, base + 2, 4, &filter));
  std::vector<int64_t> dims(in.dim_sizes().begin(), in.dim_sizes().end());
  if (resize) {
    const Shape size = c->InputAsShape(1);
    dims[1] = size.dims() == 2 ? size.dim_size(0) : -1;
    dims[2] = size.dims() == 2 ? size.dim_size(1) : -1;
  }
  const Tensor* pads = c->input_tensor(base + 1);
  std::vector<int64_t> out = {in.dim_size(0), -1, -1, filter.dim_size(3)};
  if (pads != nullptr && pads->dtype() == DT_INT32 && pads->NumElements() == 8) {
    const int32_t* p = pads->data<int32_t>();
    std::vector<int64_t> strides;
    SG_RETURN_IF_ERROR(c->GetAttr("strides", &strides));
    if (strides.size() != 4) return c->Error("strides must have 4 elements");
    Padding padding;
    SG_RETURN_IF_ERROR(PaddingAttr(c, &padding));
    for (int d = 1; d < 3; ++d) {
      if (dims[d] < 0 || filter.dim_size(d - 1) < 0) continue;
      int64_t unused;
      absl::Status s = WindowedOutputSize(dims[d] + p[2 * d] + p[2 * d + 1],
                                          filter.dim_size(d - 1), 1, strides[d], padding, 0, 0,
                                          &out[d], &unused);
      if (!s.ok()) return c->Error(s.message());
    }
  }
  c->set_output(0, Shape(out));
  return absl::OkStatus();
}

// Dilation2D: [N, OH, OW, C] for a [FH, FW, C] filter spread by `rates`.
absl::Status Dilation2DShape(InferenceContext* c) {
  Shape filter;
  SG_RETURN_IF_ERROR(RankedInput(c, 1, 3, &filter));
  std::vector<int64_t> strides, rates;
  SG_RETURN_IF_ERROR(c->GetAttr("strides", &strides));
  SG_RETURN_IF_ERROR(c->GetAttr("rates", &rates));
  Padding padding;
  SG_RETURN_IF_ERROR(PaddingAttr(c, &padding));
  FormatDims f;
  SG_RETURN_IF_ERROR(GetFormatDims(c, 2, &f));
  return WindowedShape(c, 2, f, {filter.dim_size(0), filter.dim_size(1)}, strides, rates,
                       padding, {}, -2);
}

}  // namespace

REGISTER_OP("Dilation2D")
    .Input("input: T")
    .Input("filter: T")
    .Output("output: T")
    .Attr("T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
          "uint64}")
    .Attr("strides: list(int) >= 4")
    .Attr("rates: list(int) >= 4")
    .Attr("padding: {'SAME', 'VALID'}")
    .SetShapeFn(Dilation2DShape);

REGISTER_OP("Dilation2DBackpropInput")
    .Input("input: T")
    .Input("filter: T")
    .Input("out_backprop: T")
    .Output("in_backprop: T")
    .Attr("T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
          "uint64}")
    .Attr("strides: list(int) >= 4")
    .Attr("rates: list(int) >= 4")
    .Attr("padding: {'SAME', 'VALID'}")
    .SetShapeFn([](InferenceContext* c) { return ShapeFromInput(c, 0, 4, true); });

REGISTER_OP("Dilation2DBackpropFilter")
    .Input("input: T")
    .Input("filter: T")
    .Input("out_backprop: T")
    .Output("filter_backprop: T")
    .Attr("T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
          "uint64}")
    .Attr("strides: list(int) >= 4")
    .Attr("rates: list(int) >= 4")
    .Attr("padding: {'SAME', 'VALID'}")
    .SetShapeFn([](InferenceContext* c) { return ShapeFromInput(c, 1, 3, true); });

REGISTER_OP("BatchNormWithGlobalNormalization")
    .Input("t: T")
    .Input("m: T")
    .Input("v: T")
    .Input("beta: T")
    .Input("gamma: T")
    .Output("result: T")
    .Attr("T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, "
          "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}")
    .Attr("variance_epsilon: float")
    .Attr("scale_after_normalization: bool")
    .Deprecated(9, "Use tf.nn.batch_normalization()")
    .SetShapeFn([](InferenceContext* c) { return ShapeFromInput(c, 0, 4, true); });

REGISTER_OP("_FusedConv2D")
    .Input("input: T")
    .Input("filter: T")
    .Input("args: TArgs")
    .Input("host_args: num_host_args * float")
    .Output("output: T")
    .Attr("T: {half, float, double, int8, qint8}")
    .Attr("TArgs: list(type) >= 1")
    .Attr("num_args: int >= 0")
    .Attr("num_host_args: int >= 0 = 0")
    .Attr("strides: list(int)")
    .Attr("padding: {'SAME', 'VALID', 'EXPLICIT'}")
    .Attr("explicit_paddings: list(int) = []")
    .Attr("data_format: {'NHWC', 'NCHW', 'NCHW_VECT_C'} = 'NHWC'")
    .Attr("filter_format: {'HWIO', 'OIHW', 'OIHW_VECT_I'} = 'HWIO'")
    .Attr("dilations: list(int) = [1, 1, 1, 1]")
    .Attr("use_cudnn_on_gpu: bool = true")
    .Attr("fused_ops: list(string) = []")
    .Attr("epsilon: float = 0.0001")
    .Attr("leakyrelu_alpha: float = 0.2")
    .SetShapeFn(FusedConv2DShape);

REGISTER_OP("FusedPadConv2D")
    .Input("input: T")
    .Input("paddings: int32")
    .Input("filter: T")
    .Output("output: T")
    .Attr("T: {half, bfloat16, float, double}")
    .Attr("mode: {'REFLECT', 'SYMMETRIC'}")
    .Attr("strides: list(int)")
    .Attr("padding: {'SAME', 'VALID'}")
    .SetShapeFn([](InferenceContext* c) { return FusedPadConvShape(c, false); });

REGISTER_OP("FusedResizeAndPadConv2D")
    .Input("input: T")
    .Input("size: int32")
    .Input("paddings: int32")
    .Input("filter: T")
    .Output("output: T")
    .Attr("T: {half, float, double}")
    .Attr("resize_align_corners: bool = false")
    .Attr("mode: {'REFLECT', 'SYMMETRIC'}")
    .Attr("strides: list(int)")
    .Attr("padding: {'SAME', 'VALID'}")
    .SetShapeFn([](InferenceContext* c) { return FusedPadConvShape(c, true); });

REGISTER_OP("ExtractImagePatches")
    .Input("images: T")
    .Output("patches: T")
    .Attr("ksizes: list(int) >= 4")
    .Attr("strides: list(int) >= 4")
    .Attr("rates: list(int) >= 4")
    .Attr("T: {bfloat16, half, float, double, int8, int16, int32, int64, uint8, uint16, uint32, "
          "uint64, complex64, complex128, bool}")
    .Attr("padding: {'SAME', 'VALID'}")
    .SetShapeFn(ExtractImagePatchesShape);

REGISTER_OP("Conv2DBackpropInput")
    .Input("input_sizes: int32")
    .Input("filter: T")
    .Input("out_backprop: T")
    .Output("output: T")
    .Attr("T: {half, bfloat16, float, double, int32}")
    .Attr("strides: list(int)")
    .Attr("use_cudnn_on_gpu: bool = true")
    .Attr("padding: {'SAME', 'VALID', 'EXPLICIT'}")
    .Attr("explicit_paddings: list(int) = []")
    .Attr("data_format: {'NHWC', 'NCHW'} = 'NHWC'")
    .Attr("dilations: list(int) = [1, 1, 1, 1]")
    .SetShapeFn(Conv2DBackpropInputShape);

REGISTER_OP("Conv2DBackpropFilter")
    .Input("input: T")
    .Input("filter_sizes: int32")
    .Input("out_backprop: T")
    .Output("output: T")
    .Attr("T: {half, bfloat16, float, double}")
    .Attr("strides: list(int)")
    .Attr("use_cudnn_on_gpu: bool = true")
    .Attr("padding: {'SAME', 'VALID', 'EXPLICIT'}")
    .Attr("explicit_paddings: list(int) = []")
    .Attr("data_format: {'NHWC', 'NCHW'} = 'NHWC'")
    .Attr("dilations: list(int) = [1, 1, 1, 1]")
    .SetShapeFn([](InferenceContext* c) { return ShapeFromInput(c, 1, 4, false); });

REGISTER_OP("Conv3D")
    .Input("input: T")
    .Input("filter: T")
    .Output("output: T")
    .Attr("T: {half, bfloat16, float, double}")
    .Attr("strides: list(int) >= 5")
    .Attr("padding: {'SAME', 'VALID'}")
    .Attr("data_format: {'NDHWC', 'NCDHW'} = 'NDHWC'")
    .Attr("dilations: list(int) = [1, 1, 1, 1, 1]")
    .SetShapeFn(Conv3DShape);

REGISTER_OP("Conv3DBackpropInput")
    .Input("input: T")
    .Input("filter: T")
    .Input("out_backprop: T")
    .Output("output: T")
    .Attr("T: {half, float, double}")
    .Attr("strides: list(int) >= 5")
    .Attr("padding: {'SAME', 'VALID'}")
    .Attr("dilations: list(int) = [1, 1, 1, 1, 1]")
    .Deprecated(10, "Use Conv3DBackpropInputV2")
    .SetShapeFn([](InferenceContext* c) { return ShapeFromInput(c, 0, 5, true); });

REGISTER_OP("Conv3DBackpropFilter")
    .Input("input: T")
    .Input("filter: T")
    .Input("out_backprop: T")
    .Output("output: T")
    .Attr("T: {half, float, double}")
    .Attr("strides: list(int) >= 5")
    .Attr("padding: {'SAME', 'VALID'}")
    .Attr("dilations: list(int) = [1, 1, 1, 1, 1]")
    .Deprecated(10, "Use Conv3DBackpropFilterV2")
    .SetShapeFn([](InferenceContext* c) { return ShapeFromInput(c, 1, 5, true); });

REGISTER_OP("Conv3DBackpropInputV2")
    .Input("input_sizes: Tshape")
    .Input("filter: T")
    .Input("out_backprop: T")
    .Output("output: T")
    .Attr("T: {half, bfloat16, float, double}")
    .Attr("strides: list(int) >= 5")
    .Attr("padding: {'SAME', 'VALID'}")
    .Attr("data_format: {'NDHWC', 'NCDHW'} = 'NDHWC'")
    .Attr("dilations: list(int) = [1, 1, 1, 1, 1]")
    .Attr("Tshape: {int32, int64} = DT_INT32")
    .SetShapeFn([](InferenceContext* c) { return ShapeFromInput(c, 0, 5, false); });

REGISTER_OP("Conv3DBackpropFilterV2")
    .Input("input: T")
    .Input("filter_sizes: int32")
    .Input("out_backprop: T")
    .Output("output: T")
    .Attr("T: {half, bfloat16, float, double}")
    .Attr("strides: list(int) >= 5")
    .Attr("padding: {'SAME', 'VALID'}")
    .Attr("data_format: {'NDHWC', 'NCDHW'} = 'NDHWC'")
    .Attr("dilations: list(int) = [1, 1, 1, 1, 1]")
    .SetShapeFn([](InferenceContext* c) { return ShapeFromInput(c, 1, 5, false); });

REGISTER_OP("MaxPoolV2")
    .Input("input: T")
    .Input("ksize: int32")
    .Input("strides: int32")
    .Output("output: T")
    .Attr("T: {half, bfloat16, float, double, int32, int64, uint8, int16, int8, uint16, qint8} "
          "= DT_FLOAT")
    .Attr("padding: {'SAME', 'VALID'}")
    .Attr("data_format: {'NHWC', 'NCHW', 'NCHW_VECT_C'} = 'NHWC'")
    .SetShapeFn(MaxPoolV2Shape);

REGISTER_OP("MaxPoolWithArgmax")
    .Input("input: T")
    .Output("output: T")
    .Output("argmax: Targmax")
    .Attr("ksize: list(int) >= 4")
    .Attr("strides: list(int) >= 4")
    .Attr("Targmax: {int32, int64} = DT_INT64")
    .Attr("padding: {'SAME', 'VALID'}")
    .Attr("include_batch_in_index: bool = false")
    .Attr("T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
          "uint64}")
    .SetShapeFn(MaxPoolWithArgmaxShape);

REGISTER_OP("MaxPool3D")
    .Input("input: T")
    .Output("output: T")
    .Attr("ksize: list(int) >= 5")
    .Attr("strides: list(int) >= 5")
    .Attr("padding: {'SAME', 'VALID'}")
    .Attr("data_format: {'NDHWC', 'NCDHW'} = 'NDHWC'")
    .Attr("T: {half, bfloat16, float}")
    .SetShapeFn([](InferenceContext* c) { return PoolNdShape(c, 3); });

REGISTER_OP("AvgPool3D")
    .Input("input: T")
    .Output("output: T")
    .Attr("ksize: list(int) >= 5")
    .Attr("strides: list(int) >= 5")
    .Attr("padding: {'SAME', 'VALID'}")
    .Attr("data_format: {'NDHWC', 'NCDHW'} = 'NDHWC'")
    .Attr("T: {half, bfloat16, float, double}")
    .SetShapeFn([](InferenceContext* c) { return PoolNdShape(c, 3); });

REGISTER_OP("DataFormatDimMap")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {int32, int64} = DT_INT32")
    .Attr("src_format: string = 'NHWC'")
    .Attr("dst_format: string = 'NCHW'")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("DataFormatVecPermute")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {int32, int64} = DT_INT32")
    .Attr("src_format: string = 'NHWC'")
    .Attr("dst_format: string = 'NCHW'")
    .SetShapeFn(shape_fns::Unchanged);

}  // namespace sg
