// Gradient ops of the neural-network family, with TensorFlow's OpDefs and shape functions: the
// activation gradients (ReluGrad ... InvGrad), BiasAddGrad, L2Loss,
// SparseSoftmaxCrossEntropyWithLogits, BroadcastGradientArgs, the pooling, batch norm, depthwise
// convolution and LRN gradients. Kernels live in core/kernels/{cwise_grad_ops,bias_add_op,
// xent_op,nn_grad_misc_ops,pooling_grad_ops,batch_norm_grad_op,depthwise_conv_backprop_ops,
// lrn_op}.cc.
#include <cstdint>
#include <string>
#include <vector>

#include "core/framework/op.h"
#include "core/framework/shape_inference.h"

namespace sg {
namespace {

using Shape = PartialTensorShape;

// Output 0 is inputs 0 and 1 merged (they must agree where both are known).
absl::Status MergeBothInputs(InferenceContext* c) {
  auto merged = c->input(0).Merge(c->input(1));
  if (!merged.ok()) {
    return c->Error("inputs must have the same shape: ", c->input(0).DebugString(), " vs. ",
                    c->input(1).DebugString());
  }
  c->set_output(0, *merged);
  return absl::OkStatus();
}

// BiasAddGrad: out_backprop of rank >= 2 (>= 3 for NCHW) gives [channels] (the last dim, or
// dim 1 for NCHW).
absl::Status BiasAddGradShape(InferenceContext* c) {
  std::string format = "NHWC";
  c->GetAttr("data_format", &format).IgnoreError();
  Shape in;
  SG_RETURN_IF_ERROR(c->WithRankAtLeast(0, format == "NCHW" ? 3 : 2, &in));
  if (in.unknown_rank()) {
    c->set_output(0, Shape({-1}));
    return absl::OkStatus();
  }
  c->set_output(0, Shape({in.dim_size(format == "NCHW" ? 1 : in.dims() - 1)}));
  return absl::OkStatus();
}

// SparseSoftmaxCrossEntropyWithLogits: features [batch, classes], labels [batch].
absl::Status SparseXentShape(InferenceContext* c) {
  Shape features, labels;
  SG_RETURN_IF_ERROR(c->WithRank(0, 2, &features));
  SG_RETURN_IF_ERROR(c->WithRank(1, 1, &labels));
  int64_t batch = features.dim_size(0);
  const int64_t lb = labels.dim_size(0);
  if (batch >= 0 && lb >= 0 && batch != lb) {
    return c->Error("Dimensions must be equal, but are ", batch, " and ", lb);
  }
  if (batch < 0) batch = lb;
  c->set_output(0, Shape({batch}));
  c->set_output(1, Shape({batch, features.dim_size(1)}));
  return absl::OkStatus();
}

absl::Status BroadcastGradientArgsShape(InferenceContext* c) {
  Shape s;
  SG_RETURN_IF_ERROR(c->WithRank(0, 1, &s));
  SG_RETURN_IF_ERROR(c->WithRank(1, 1, &s));
  c->set_output(0, Shape({-1}));
  c->set_output(1, Shape({-1}));
  return absl::OkStatus();
}

// Output 0 has the shape of input `i`, which must have rank `rank`.
absl::Status ShapeOfInput(InferenceContext* c, int i, int rank) {
  Shape s;
  SG_RETURN_IF_ERROR(c->WithRank(i, rank, &s));
  c->set_output(0, s);
  return absl::OkStatus();
}

// Output 0 is the shape held by input 0 (a vector of `rank` values).
absl::Status ShapeFromShapeInput(InferenceContext* c, int rank) {
  Shape v;
  SG_RETURN_IF_ERROR(c->WithRank(0, 1, &v));
  Shape s = c->InputAsShape(0);
  if (s.unknown_rank()) s = Shape(std::vector<int64_t>(rank, -1));
  if (s.dims() != rank) {
    return c->Error("Shape must be rank ", rank, " but is rank ", s.dims());
  }
  c->set_output(0, s);
  return absl::OkStatus();
}

// FusedBatchNormGrad*: x_backprop has x's shape; scale and offset backprops [channels]; the
// two reserve spaces out are empty vectors.
absl::Status FusedBatchNormGradShape(InferenceContext* c) {
  std::string format = "NHWC";
  c->GetAttr("data_format", &format).IgnoreError();
  const int rank = format.size() == 5 ? 5 : 4;
  Shape dy, x, v;
  SG_RETURN_IF_ERROR(c->WithRank(0, rank, &dy));
  SG_RETURN_IF_ERROR(c->WithRank(1, rank, &x));
  auto merged = dy.Merge(x);
  if (!merged.ok()) {
    return c->Error("y_backprop and x must have the same shape: ", dy.DebugString(), " vs. ",
                    x.DebugString());
  }
  const bool channels_last = format == "NHWC" || format == "NDHWC";
  int64_t channels = merged->dim_size(channels_last ? rank - 1 : 1);
  for (int i = 2; i < 5; ++i) {
    SG_RETURN_IF_ERROR(c->WithRank(i, 1, &v));
    const int64_t n = v.dim_size(0);
    if (n >= 0 && channels >= 0 && n != channels) {
      return c->Error("Dimensions must be equal, but are ", channels, " and ", n);
    }
    if (channels < 0) channels = n;
  }
  c->set_output(0, *merged);
  c->set_output(1, Shape({channels}));
  c->set_output(2, Shape({channels}));
  c->set_output(3, Shape({0}));
  c->set_output(4, Shape({0}));
  return absl::OkStatus();
}

// DepthwiseConv2dNativeBackpropInput / Filter: the shape held by input `i` (4 values).
absl::Status DepthwiseBackpropShape(InferenceContext* c, int i) {
  Shape s;
  SG_RETURN_IF_ERROR(c->WithRank(i == 0 ? 1 : 0, 4, &s));
  SG_RETURN_IF_ERROR(c->WithRank(2, 4, &s));
  Shape v;
  SG_RETURN_IF_ERROR(c->WithRank(i, 1, &v));
  Shape out = c->InputAsShape(i);
  if (out.unknown_rank()) out = Shape(std::vector<int64_t>(4, -1));
  if (out.dims() != 4) return c->Error("Shape must be rank 4 but is rank ", out.dims());
  c->set_output(0, out);
  return absl::OkStatus();
}

// LRNGrad: the three inputs are 4-D of one shape.
absl::Status LRNGradShape(InferenceContext* c) {
  Shape merged;
  SG_RETURN_IF_ERROR(c->WithRank(0, 4, &merged));
  for (int i = 1; i < 3; ++i) {
    Shape s;
    SG_RETURN_IF_ERROR(c->WithRank(i, 4, &s));
    auto m = merged.Merge(s);
    if (!m.ok()) {
      return c->Error("inputs must have the same shape: ", merged.DebugString(), " vs. ",
                      s.DebugString());
    }
    merged = *m;
  }
  c->set_output(0, merged);
  return absl::OkStatus();
}

// BatchNormWithGlobalNormalizationGrad: dx has t's shape, the others [depth].
absl::Status BatchNormGlobalGradShape(InferenceContext* c) {
  Shape t, v;
  SG_RETURN_IF_ERROR(c->WithRank(0, 4, &t));
  int64_t depth = t.dim_size(3);
  for (int i = 1; i < 4; ++i) {
    SG_RETURN_IF_ERROR(c->WithRank(i, 1, &v));
    if (depth < 0) depth = v.dim_size(0);
  }
  SG_RETURN_IF_ERROR(c->WithRank(4, 4, &v));
  auto merged = t.Merge(v);
  if (!merged.ok()) {
    return c->Error("t and backprop must have the same shape: ", t.DebugString(), " vs. ",
                    v.DebugString());
  }
  c->set_output(0, *merged);
  for (int i = 1; i < 5; ++i) c->set_output(i, Shape({depth}));
  return absl::OkStatus();
}

}  // namespace

// ---- Activation gradients (TensorFlow's nn_ops) ---------------------------------------------

#define SG_REAL_TYPES \
  "{float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64}"

// backprops = gradients where features > 0 (and < 6 for Relu6Grad), else 0.
REGISTER_OP("ReluGrad").Input("gradients: T").Input("features: T").Output("backprops: T")
    .Attr("T: " SG_REAL_TYPES).SetShapeFn(MergeBothInputs);
REGISTER_OP("Relu6Grad").Input("gradients: T").Input("features: T").Output("backprops: T")
    .Attr("T: " SG_REAL_TYPES).SetShapeFn(MergeBothInputs);
#undef SG_REAL_TYPES
// EluGrad and SeluGrad take the forward op's outputs.
REGISTER_OP("EluGrad").Input("gradients: T").Input("outputs: T").Output("backprops: T")
    .Attr("T: {half, bfloat16, float, double}").SetShapeFn(MergeBothInputs);
REGISTER_OP("SeluGrad").Input("gradients: T").Input("outputs: T").Output("backprops: T")
    .Attr("T: {half, bfloat16, float, double}").SetShapeFn(MergeBothInputs);
REGISTER_OP("LeakyReluGrad").Input("gradients: T").Input("features: T").Output("backprops: T")
    .Attr("alpha: float = 0.2").Attr("T: {half, bfloat16, float, double} = DT_FLOAT")
    .SetShapeFn(MergeBothInputs);
REGISTER_OP("SoftplusGrad").Input("gradients: T").Input("features: T").Output("backprops: T")
    .Attr("T: {half, bfloat16, float, double}").SetShapeFn(MergeBothInputs);
REGISTER_OP("SoftsignGrad").Input("gradients: T").Input("features: T").Output("backprops: T")
    .Attr("T: {half, bfloat16, float, double}").SetShapeFn(MergeBothInputs);

// ---- Gradients of unary math ops, from their output y (TensorFlow's math_ops) ---------------

// z has y's shape (TensorFlow's kernel only checks that dy has as many elements).
#define SG_UNARY_GRAD_OP(NAME)                                                             \
  REGISTER_OP(NAME).Input("y: T").Input("dy: T").Output("z: T")                            \
      .Attr("T: {bfloat16, half, float, double, complex64, complex128}")                   \
      .SetShapeFn(shape_fns::Unchanged)
SG_UNARY_GRAD_OP("SigmoidGrad");  // z = dy * y * (1 - y)
SG_UNARY_GRAD_OP("TanhGrad");     // z = dy * (1 - y^2)
SG_UNARY_GRAD_OP("SqrtGrad");     // z = dy * 0.5 / conj(y)
SG_UNARY_GRAD_OP("RsqrtGrad");    // z = dy * -0.5 * conj(y)^3
SG_UNARY_GRAD_OP("ReciprocalGrad");  // z = -dy * conj(y)^2
SG_UNARY_GRAD_OP("InvGrad");
#undef SG_UNARY_GRAD_OP

// ---- Losses, bias and broadcast gradients ----------------------------------------------------

// The sum of out_backprop over every dim but the channel one.
REGISTER_OP("BiasAddGrad")
    .Input("out_backprop: T")
    .Output("output: T")
    .Attr("T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, "
          "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}")
    .Attr("data_format: {'NHWC', 'NCHW'} = 'NHWC'")
    .SetShapeFn(BiasAddGradShape);

// output = sum(t^2) / 2, a scalar.
REGISTER_OP("L2Loss").Input("t: T").Output("output: T")
    .Attr("T: {half, bfloat16, float, double}").SetShapeFn(shape_fns::Scalar);

// SoftmaxCrossEntropyWithLogits with labels as class indices in [0, classes).
REGISTER_OP("SparseSoftmaxCrossEntropyWithLogits")
    .Input("features: T")
    .Input("labels: Tlabels")
    .Output("loss: T")
    .Output("backprop: T")
    .Attr("T: {half, bfloat16, float, double}")
    .Attr("Tlabels: {int32, int64} = DT_INT64")
    .SetShapeFn(SparseXentShape);

// The reduction indices of the gradients of a broadcasting binary op with input shapes s0, s1.
REGISTER_OP("BroadcastGradientArgs")
    .Input("s0: T")
    .Input("s1: T")
    .Output("r0: T")
    .Output("r1: T")
    .Attr("T: {int32, int64} = DT_INT32")
    .SetShapeFn(BroadcastGradientArgsShape);

// ---- Pooling gradients -----------------------------------------------------------------------

#define SG_POOL_TYPES \
  "{float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64}"

// The gradient of AvgPool for an input of shape orig_input_shape.
REGISTER_OP("AvgPoolGrad")
    .Input("orig_input_shape: int32")
    .Input("grad: T")
    .Output("output: T")
    .Attr("ksize: list(int) >= 4")
    .Attr("strides: list(int) >= 4")
    .Attr("padding: {'SAME', 'VALID'}")
    .Attr("data_format: {'NHWC', 'NCHW'} = 'NHWC'")
    .Attr("T: {half, bfloat16, float, double}")
    .SetShapeFn([](InferenceContext* c) { return ShapeFromShapeInput(c, 4); });

// The gradient of MaxPool with respect to its input.
REGISTER_OP("MaxPoolGrad")
    .Input("orig_input: T")
    .Input("orig_output: T")
    .Input("grad: T")
    .Output("output: T")
    .Attr("ksize: list(int) >= 4")
    .Attr("strides: list(int) >= 4")
    .Attr("padding: {'SAME', 'VALID', 'EXPLICIT'}")
    .Attr("explicit_paddings: list(int) = []")
    .Attr("data_format: {'NHWC', 'NCHW'} = 'NHWC'")
    .Attr("T: " SG_POOL_TYPES " = DT_FLOAT")
    .SetShapeFn([](InferenceContext* c) { return ShapeOfInput(c, 0, 4); });

REGISTER_OP("MaxPoolGradV2")
    .Input("orig_input: T")
    .Input("orig_output: T")
    .Input("grad: T")
    .Input("ksize: int32")
    .Input("strides: int32")
    .Output("output: T")
    .Attr("padding: {'SAME', 'VALID'}")
    .Attr("data_format: {'NHWC', 'NCHW'} = 'NHWC'")
    .Attr("T: " SG_POOL_TYPES " = DT_FLOAT")
    .SetShapeFn([](InferenceContext* c) { return ShapeOfInput(c, 0, 4); });

// The gradient of MaxPoolGrad with respect to its grad input: orig_output's shape.
REGISTER_OP("MaxPoolGradGrad")
    .Input("orig_input: T")
    .Input("orig_output: T")
    .Input("grad: T")
    .Output("output: T")
    .Attr("ksize: list(int) >= 4")
    .Attr("strides: list(int) >= 4")
    .Attr("padding: {'SAME', 'VALID'}")
    .Attr("data_format: {'NHWC', 'NCHW'} = 'NHWC'")
    .Attr("T: " SG_POOL_TYPES)
    .SetShapeFn([](InferenceContext* c) { return ShapeOfInput(c, 1, 4); });

REGISTER_OP("MaxPoolGradGradV2")
    .Input("orig_input: T")
    .Input("orig_output: T")
    .Input("grad: T")
    .Input("ksize: int32")
    .Input("strides: int32")
    .Output("output: T")
    .Attr("padding: {'SAME', 'VALID'}")
    .Attr("data_format: {'NHWC', 'NCHW'} = 'NHWC'")
    .Attr("T: " SG_POOL_TYPES)
    .SetShapeFn([](InferenceContext* c) { return ShapeOfInput(c, 1, 4); });

// The gradient of MaxPoolWithArgmax, scattered by its argmax output.
REGISTER_OP("MaxPoolGradWithArgmax")
    .Input("input: T")
    .Input("grad: T")
    .Input("argmax: Targmax")
    .Output("output: T")
    .Attr("ksize: list(int) >= 4")
    .Attr("strides: list(int) >= 4")
    .Attr("padding: {'SAME', 'VALID'}")
    .Attr("include_batch_in_index: bool = false")
    .Attr("Targmax: {int32, int64}")
    .Attr("T: " SG_POOL_TYPES)
    .SetShapeFn([](InferenceContext* c) { return ShapeOfInput(c, 0, 4); });

REGISTER_OP("AvgPool3DGrad")
    .Input("orig_input_shape: int32")
    .Input("grad: T")
    .Output("output: T")
    .Attr("ksize: list(int) >= 5")
    .Attr("strides: list(int) >= 5")
    .Attr("padding: {'SAME', 'VALID'}")
    .Attr("data_format: {'NDHWC', 'NCDHW'} = 'NDHWC'")
    .Attr("T: {half, bfloat16, float, double}")
    .SetShapeFn([](InferenceContext* c) { return ShapeFromShapeInput(c, 5); });

REGISTER_OP("MaxPool3DGrad")
    .Input("orig_input: TInput")
    .Input("orig_output: TInput")
    .Input("grad: T")
    .Output("output: T")
    .Attr("ksize: list(int) >= 5")
    .Attr("strides: list(int) >= 5")
    .Attr("padding: {'SAME', 'VALID'}")
    .Attr("data_format: {'NDHWC', 'NCDHW'} = 'NDHWC'")
    .Attr("T: {half, bfloat16, float} = DT_FLOAT")
    .Attr("TInput: {half, bfloat16, float} = DT_FLOAT")
    .SetShapeFn([](InferenceContext* c) { return ShapeOfInput(c, 0, 5); });

REGISTER_OP("MaxPool3DGradGrad")
    .Input("orig_input: T")
    .Input("orig_output: T")
    .Input("grad: T")
    .Output("output: T")
    .Attr("ksize: list(int) >= 5")
    .Attr("strides: list(int) >= 5")
    .Attr("padding: {'SAME', 'VALID'}")
    .Attr("data_format: {'NDHWC', 'NCDHW'} = 'NDHWC'")
    .Attr("T: " SG_POOL_TYPES)
    .SetShapeFn([](InferenceContext* c) { return ShapeOfInput(c, 1, 5); });
#undef SG_POOL_TYPES

// ---- Batch normalization gradients -----------------------------------------------------------

REGISTER_OP("FusedBatchNormGrad")
    .Input("y_backprop: T")
    .Input("x: T")
    .Input("scale: T")
    .Input("reserve_space_1: T")
    .Input("reserve_space_2: T")
    .Output("x_backprop: T")
    .Output("scale_backprop: T")
    .Output("offset_backprop: T")
    .Output("reserve_space_3: T")
    .Output("reserve_space_4: T")
    .Attr("T: {float}")
    .Attr("epsilon: float = 0.0001")
    .Attr("data_format: {'NHWC', 'NCHW'} = 'NHWC'")
    .Attr("is_training: bool = true")
    .SetShapeFn(FusedBatchNormGradShape);

REGISTER_OP("FusedBatchNormGradV2")
    .Input("y_backprop: T")
    .Input("x: T")
    .Input("scale: float")
    .Input("reserve_space_1: U")
    .Input("reserve_space_2: U")
    .Output("x_backprop: T")
    .Output("scale_backprop: U")
    .Output("offset_backprop: U")
    .Output("reserve_space_3: U")
    .Output("reserve_space_4: U")
    .Attr("T: {half, bfloat16, float}")
    .Attr("U: {float}")
    .Attr("epsilon: float = 0.0001")
    .Attr("data_format: {'NHWC', 'NCHW'} = 'NHWC'")
    .Attr("is_training: bool = true")
    .SetShapeFn(FusedBatchNormGradShape);

REGISTER_OP("FusedBatchNormGradV3")
    .Input("y_backprop: T")
    .Input("x: T")
    .Input("scale: float")
    .Input("reserve_space_1: U")
    .Input("reserve_space_2: U")
    .Input("reserve_space_3: U")
    .Output("x_backprop: T")
    .Output("scale_backprop: U")
    .Output("offset_backprop: U")
    .Output("reserve_space_4: U")
    .Output("reserve_space_5: U")
    .Attr("T: {half, bfloat16, float}")
    .Attr("U: {float}")
    .Attr("epsilon: float = 0.0001")
    .Attr("data_format: {'NHWC', 'NCHW', 'NDHWC', 'NCDHW'} = 'NHWC'")
    .Attr("is_training: bool = true")
    .SetShapeFn(FusedBatchNormGradShape);

// The gradients of BatchNormWithGlobalNormalization (deprecated at GraphDef version 9).
REGISTER_OP("BatchNormWithGlobalNormalizationGrad")
    .Input("t: T")
    .Input("m: T")
    .Input("v: T")
    .Input("gamma: T")
    .Input("backprop: T")
    .Output("dx: T")
    .Output("dm: T")
    .Output("dv: T")
    .Output("db: T")
    .Output("dg: T")
    .Attr("T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, "
          "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}")
    .Attr("variance_epsilon: float")
    .Attr("scale_after_normalization: bool")
    .Deprecated(9, "Use tf.nn.batch_normalization()")
    .SetShapeFn(BatchNormGlobalGradShape);

// ---- Depthwise convolution and LRN gradients -------------------------------------------------

REGISTER_OP("DepthwiseConv2dNativeBackpropInput")
    .Input("input_sizes: int32")
    .Input("filter: T")
    .Input("out_backprop: T")
    .Output("output: T")
    .Attr("T: {half, bfloat16, float, double}")
    .Attr("strides: list(int)")
    .Attr("padding: {'SAME', 'VALID', 'EXPLICIT'}")
    .Attr("explicit_paddings: list(int) = []")
    .Attr("data_format: {'NHWC', 'NCHW'} = 'NHWC'")
    .Attr("dilations: list(int) = [1, 1, 1, 1]")
    .SetShapeFn([](InferenceContext* c) { return DepthwiseBackpropShape(c, 0); });

REGISTER_OP("DepthwiseConv2dNativeBackpropFilter")
    .Input("input: T")
    .Input("filter_sizes: int32")
    .Input("out_backprop: T")
    .Output("output: T")
    .Attr("T: {half, bfloat16, float, double}")
    .Attr("strides: list(int)")
    .Attr("padding: {'SAME', 'VALID', 'EXPLICIT'}")
    .Attr("explicit_paddings: list(int) = []")
    .Attr("data_format: {'NHWC', 'NCHW'} = 'NHWC'")
    .Attr("dilations: list(int) = [1, 1, 1, 1]")
    .SetShapeFn([](InferenceContext* c) { return DepthwiseBackpropShape(c, 1); });

REGISTER_OP("LRNGrad")
    .Input("input_grads: T")
    .Input("input_image: T")
    .Input("output_image: T")
    .Output("output: T")
    .Attr("depth_radius: int = 5")
    .Attr("bias: float = 1.0")
    .Attr("alpha: float = 1.0")
    .Attr("beta: float = 0.5")
    .Attr("T: {half, bfloat16, float} = DT_FLOAT")
    .SetShapeFn(LRNGradShape);

}  // namespace sg
