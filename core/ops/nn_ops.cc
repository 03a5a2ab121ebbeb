// NN ops: convolutions, pooling, batch normalization, LRN and top k, with TensorFlow's OpDefs and
// shape functions. Kernels live in core/kernels/{conv_ops,pooling_ops,batch_norm_op,lrn_op,
// topk_op}.cc; _FusedDepthwiseConv2dNative's in fused_conv_ops.cc.
#include "core/framework/op.h"
#include "core/framework/shape_inference.h"
#include "core/kernels/window_util.h"

namespace sg {
namespace {

using Shape = PartialTensorShape;

// Where N, H, W and C sit in a 4-D shape of `data_format`.
struct Layout {
  int n = 0, h = 1, w = 2, c = 3;
};

absl::Status GetLayout(InferenceContext* c, Layout* layout) {
  std::string format = "NHWC";
  c->GetAttr("data_format", &format).IgnoreError();
  if (format == "NHWC") {
    *layout = Layout{0, 1, 2, 3};
  } else if (format == "NCHW") {
    *layout = Layout{0, 2, 3, 1};
  } else {
    return c->Error("data_format ", format, " is not supported");
  }
  return absl::OkStatus();
}

// Output shape of a 2-D windowed op on input 0. `window` is ksize (pooling, in data_format
// order) or the filter's spatial sizes (conv); `out_channels` -2 keeps the input's.
absl::Status Windowed2DShape(InferenceContext* c, const Layout& l, int64_t kh, int64_t kw,
                             int64_t out_channels) {
  Shape in;
  SG_RETURN_IF_ERROR(c->WithRank(0, 4, &in));
  std::vector<int64_t> strides, dilations = {1, 1, 1, 1}, explicit_pads;
  SG_RETURN_IF_ERROR(c->GetAttr("strides", &strides));
  c->GetAttr("dilations", &dilations).IgnoreError();
  c->GetAttr("explicit_paddings", &explicit_pads).IgnoreError();
  if (strides.size() != 4) {
    return c->Error("strides must have 4 elements, got ", strides.size());
  }
  if (dilations.size() != 4) {
    return c->Error("dilations must have 4 elements, got ", dilations.size());
  }
  std::string padding_s;
  SG_RETURN_IF_ERROR(c->GetAttr("padding", &padding_s));
  Padding padding;
  SG_RETURN_IF_ERROR(ParsePadding(padding_s, &padding));
  if (padding == Padding::kExplicit && explicit_pads.size() != 8) {
    return c->Error("explicit_paddings must have 8 elements for EXPLICIT padding, got ",
                    explicit_pads.size());
  }
  auto pad = [&](int dim, int side) -> int64_t {
    return padding == Padding::kExplicit ? explicit_pads[2 * dim + side] : 0;
  };
  int64_t oh = -1, ow = -1, unused;
  if (kh >= 0) {
    absl::Status s = WindowedOutputSize(in.dim_size(l.h), kh, dilations[l.h], strides[l.h],
                                        padding, pad(l.h, 0), pad(l.h, 1), &oh, &unused);
    if (!s.ok()) return c->Error(s.message());
  }
  if (kw >= 0) {
    absl::Status s = WindowedOutputSize(in.dim_size(l.w), kw, dilations[l.w], strides[l.w],
                                        padding, pad(l.w, 0), pad(l.w, 1), &ow, &unused);
    if (!s.ok()) return c->Error(s.message());
  }
  std::vector<int64_t> out(4);
  out[l.n] = in.dim_size(l.n);
  out[l.h] = oh;
  out[l.w] = ow;
  out[l.c] = out_channels == -2 ? in.dim_size(l.c) : out_channels;
  c->set_output(0, Shape(out));
  return absl::OkStatus();
}

absl::Status Conv2DShape(InferenceContext* c) {
  Layout l;
  SG_RETURN_IF_ERROR(GetLayout(c, &l));
  Shape in, filter;
  SG_RETURN_IF_ERROR(c->WithRank(0, 4, &in));
  SG_RETURN_IF_ERROR(c->WithRank(1, 4, &filter));
  const int64_t in_c = in.dim_size(l.c), f_c = filter.dim_size(2);
  if (in_c >= 0 && f_c > 0 && in_c % f_c != 0) {
    return c->Error("Depth of input (", in_c, ") is not a multiple of input depth of filter (",
                    f_c, ")");
  }
  return Windowed2DShape(c, l, filter.dim_size(0), filter.dim_size(1), filter.dim_size(3));
}

absl::Status DepthwiseConv2DShape(InferenceContext* c) {
  Layout l;
  SG_RETURN_IF_ERROR(GetLayout(c, &l));
  Shape in, filter;
  SG_RETURN_IF_ERROR(c->WithRank(0, 4, &in));
  SG_RETURN_IF_ERROR(c->WithRank(1, 4, &filter));
  const int64_t in_c = in.dim_size(l.c), f_c = filter.dim_size(2), m = filter.dim_size(3);
  if (in_c >= 0 && f_c >= 0 && in_c != f_c) {
    return c->Error("input and filter must have the same depth: ", in_c, " vs ", f_c);
  }
  const int64_t ch = in_c >= 0 ? in_c : f_c;
  return Windowed2DShape(c, l, filter.dim_size(0), filter.dim_size(1),
                         ch >= 0 && m >= 0 ? ch * m : -1);
}

absl::Status PoolShape(InferenceContext* c) {
  Layout l;
  SG_RETURN_IF_ERROR(GetLayout(c, &l));
  std::vector<int64_t> ksize;
  SG_RETURN_IF_ERROR(c->GetAttr("ksize", &ksize));
  if (ksize.size() != 4) return c->Error("ksize must have 4 elements, got ", ksize.size());
  return Windowed2DShape(c, l, ksize[l.h], ksize[l.w], -2);
}

absl::Status BatchNormShape(InferenceContext* c) {
  std::string format = "NHWC";
  c->GetAttr("data_format", &format).IgnoreError();
  const bool channels_last = format == "NHWC" || format == "NDHWC";
  const int rank = format.size() == 5 ? 5 : 4;
  Shape x;
  SG_RETURN_IF_ERROR(c->WithRank(0, rank, &x));
  int64_t channels = x.dim_size(channels_last ? rank - 1 : 1);
  for (int i = 1; i < 5; ++i) {
    Shape v;
    SG_RETURN_IF_ERROR(c->WithRank(i, 1, &v));
    bool training = true;
    c->GetAttr("is_training", &training).IgnoreError();
    // In training the mean and variance inputs may be empty.
    if (i >= 3 && training) continue;
    const int64_t d = v.dim_size(0);
    if (d >= 0 && channels >= 0 && d != channels) {
      return c->Error("input ", i, " must have ", channels, " elements, got ", d);
    }
    if (channels < 0) channels = d;
  }
  c->set_output(0, x);
  for (int i = 1; i < 5; ++i) c->set_output(i, Shape({channels}));
  if (c->num_outputs() > 5) c->set_output(5, Shape());
  return absl::OkStatus();
}

// TopKV2 (k in input 1) and TopK (attr k): the last dim becomes k.
absl::Status TopKShape(InferenceContext* c) {
  Shape in;
  SG_RETURN_IF_ERROR(c->WithRankAtLeast(0, 1, &in));
  int64_t k = -1;
  if (c->num_inputs() > 1) {
    Shape ks;
    SG_RETURN_IF_ERROR(c->WithRank(1, 0, &ks));
    const Tensor* t = c->input_tensor(1);
    if (t != nullptr && t->NumElements() == 1) {
      switch (t->dtype()) {
        case DT_INT16: k = t->data<int16_t>()[0]; break;
        case DT_INT32: k = t->data<int32_t>()[0]; break;
        case DT_INT64: k = t->data<int64_t>()[0]; break;
        default: break;
      }
      if (k < 0) return c->Error("Need k >= 0, got ", k);
    }
  } else {
    SG_RETURN_IF_ERROR(c->GetAttr("k", &k));
    if (k < 0) return c->Error("Need k >= 0, got ", k);
  }
  if (in.unknown_rank()) {
    c->set_output(0, Shape());
    c->set_output(1, Shape());
    return absl::OkStatus();
  }
  std::vector<int64_t> out(in.dim_sizes().begin(), in.dim_sizes().end());
  const int64_t last = out.back();
  if (k >= 0 && last >= 0 && last < k) {
    return c->Error("input must have last dimension >= k = ", k, " but is ", last);
  }
  out.back() = k;
  c->set_output(0, Shape(out));
  c->set_output(1, Shape(out));
  return absl::OkStatus();
}

// InTopK and InTopKV2: [batch, classes] predictions and [batch] targets give [batch].
absl::Status InTopKShape(InferenceContext* c) {
  Shape preds, targets;
  SG_RETURN_IF_ERROR(c->WithRank(0, 2, &preds));
  SG_RETURN_IF_ERROR(c->WithRank(1, 1, &targets));
  if (c->num_inputs() > 2) {
    Shape k;
    SG_RETURN_IF_ERROR(c->WithRank(2, 0, &k));
  }
  const int64_t a = preds.dim_size(0), b = targets.dim_size(0);
  if (a >= 0 && b >= 0 && a != b) {
    return c->Error("predictions and targets have different batch sizes: ", a, " vs. ", b);
  }
  c->set_output(0, Shape({a >= 0 ? a : b}));
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("Conv2D")
    .Input("input: T")
    .Input("filter: T")
    .Output("output: T")
    .Attr("T: {half, bfloat16, float, double, int32}")
    .Attr("strides: list(int)")
    .Attr("use_cudnn_on_gpu: bool = true")
    .Attr("padding: {'SAME', 'VALID', 'EXPLICIT'}")
    .Attr("explicit_paddings: list(int) = []")
    .Attr("data_format: {'NHWC', 'NCHW'} = 'NHWC'")
    .Attr("dilations: list(int) = [1, 1, 1, 1]")
    .SetShapeFn(Conv2DShape);

REGISTER_OP("DepthwiseConv2dNative")
    .Input("input: T")
    .Input("filter: T")
    .Output("output: T")
    .Attr("T: {half, bfloat16, float, double}")
    .Attr("strides: list(int)")
    .Attr("padding: {'SAME', 'VALID', 'EXPLICIT'}")
    .Attr("explicit_paddings: list(int) = []")
    .Attr("data_format: {'NHWC', 'NCHW'} = 'NHWC'")
    .Attr("dilations: list(int) = [1, 1, 1, 1]")
    .SetShapeFn(DepthwiseConv2DShape);

// DepthwiseConv2dNative with a bias or an inference batch norm and an activation after it, as
// TensorFlow's remapper writes it (its attrs are _FusedConv2D's; no EXPLICIT padding).
REGISTER_OP("_FusedDepthwiseConv2dNative")
    .Input("input: T")
    .Input("filter: T")
    .Input("args: num_args * T")
    .Output("output: T")
    .Attr("T: {half, bfloat16, float, double}")
    .Attr("num_args: int >= 0")
    .Attr("strides: list(int)")
    .Attr("padding: {'SAME', 'VALID'}")
    .Attr("data_format: {'NHWC', 'NCHW'} = 'NHWC'")
    .Attr("dilations: list(int) = [1, 1, 1, 1]")
    .Attr("fused_ops: list(string) = []")
    .Attr("epsilon: float = 0.0001")
    .Attr("leakyrelu_alpha: float = 0.2")
    .SetShapeFn(DepthwiseConv2DShape);

REGISTER_OP("MaxPool")
    .Input("input: T")
    .Output("output: T")
    .Attr("T: {half, bfloat16, float, double, int32, int64, uint8, int16, int8, uint16, qint8} "
          "= DT_FLOAT")
    .Attr("ksize: list(int) >= 4")
    .Attr("strides: list(int) >= 4")
    .Attr("padding: {'SAME', 'VALID', 'EXPLICIT'}")
    .Attr("explicit_paddings: list(int) = []")
    .Attr("data_format: {'NHWC', 'NCHW', 'NCHW_VECT_C'} = 'NHWC'")
    .SetShapeFn(PoolShape);

REGISTER_OP("AvgPool")
    .Input("value: T")
    .Output("output: T")
    .Attr("ksize: list(int) >= 4")
    .Attr("strides: list(int) >= 4")
    .Attr("padding: {'SAME', 'VALID'}")
    .Attr("data_format: {'NHWC', 'NCHW'} = 'NHWC'")
    .Attr("T: {half, bfloat16, float, double}")
    .SetShapeFn(PoolShape);

REGISTER_OP("FusedBatchNorm")
    .Input("x: T")
    .Input("scale: T")
    .Input("offset: T")
    .Input("mean: T")
    .Input("variance: T")
    .Output("y: T")
    .Output("batch_mean: T")
    .Output("batch_variance: T")
    .Output("reserve_space_1: T")
    .Output("reserve_space_2: T")
    .Attr("T: {float}")
    .Attr("epsilon: float = 0.0001")
    .Attr("exponential_avg_factor: float = 1.0")
    .Attr("data_format: {'NHWC', 'NCHW'} = 'NHWC'")
    .Attr("is_training: bool = true")
    .SetShapeFn(BatchNormShape);

REGISTER_OP("FusedBatchNormV2")
    .Input("x: T")
    .Input("scale: U")
    .Input("offset: U")
    .Input("mean: U")
    .Input("variance: U")
    .Output("y: T")
    .Output("batch_mean: U")
    .Output("batch_variance: U")
    .Output("reserve_space_1: U")
    .Output("reserve_space_2: U")
    .Attr("T: {half, bfloat16, float}")
    .Attr("U: {float}")
    .Attr("epsilon: float = 0.0001")
    .Attr("exponential_avg_factor: float = 1.0")
    .Attr("data_format: {'NHWC', 'NCHW'} = 'NHWC'")
    .Attr("is_training: bool = true")
    .SetShapeFn(BatchNormShape);

REGISTER_OP("FusedBatchNormV3")
    .Input("x: T")
    .Input("scale: U")
    .Input("offset: U")
    .Input("mean: U")
    .Input("variance: U")
    .Output("y: T")
    .Output("batch_mean: U")
    .Output("batch_variance: U")
    .Output("reserve_space_1: U")
    .Output("reserve_space_2: U")
    .Output("reserve_space_3: U")
    .Attr("T: {half, bfloat16, float}")
    .Attr("U: {bfloat16, float}")
    .Attr("epsilon: float = 0.0001")
    .Attr("exponential_avg_factor: float = 1.0")
    .Attr("data_format: {'NHWC', 'NCHW', 'NDHWC', 'NCDHW'} = 'NHWC'")
    .Attr("is_training: bool = true")
    .SetShapeFn(BatchNormShape);

REGISTER_OP("LRN")
    .Input("input: T")
    .Output("output: T")
    .Attr("depth_radius: int = 5")
    .Attr("bias: float = 1.0")
    .Attr("alpha: float = 1.0")
    .Attr("beta: float = 0.5")
    .Attr("T: {half, bfloat16, float} = DT_FLOAT")
    .SetShapeFn([](InferenceContext* c) {
      Shape in;
      SG_RETURN_IF_ERROR(c->WithRank(0, 4, &in));
      c->set_output(0, in);
      return absl::OkStatus();
    });

REGISTER_OP("TopKV2")
    .Input("input: T")
    .Input("k: Tk")
    .Output("values: T")
    .Output("indices: index_type")
    .Attr("sorted: bool = true")
    .Attr("T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
          "uint64}")
    .Attr("Tk: {int16, int32, int64} = DT_INT32")
    .Attr("index_type: {int16, int32, int64} = DT_INT32")
    .SetShapeFn(TopKShape);

REGISTER_OP("TopK")
    .Input("input: T")
    .Output("values: T")
    .Output("indices: int32")
    .Attr("k: int >= 0")
    .Attr("sorted: bool = true")
    .Attr("T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
          "uint64}")
    .Deprecated(7, "Use TopKV2 instead")
    .SetShapeFn(TopKShape);

REGISTER_OP("InTopKV2")
    .Input("predictions: float")
    .Input("targets: T")
    .Input("k: T")
    .Output("precision: bool")
    .Attr("T: {int32, int64} = DT_INT32")
    .SetShapeFn(InTopKShape);

REGISTER_OP("InTopK")
    .Input("predictions: float")
    .Input("targets: T")
    .Output("precision: bool")
    .Attr("k: int")
    .Attr("T: {int32, int64} = DT_INT32")
    .SetShapeFn(InTopKShape);

}  // namespace sg
