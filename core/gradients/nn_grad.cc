// Gradients of the nn family (activations, softmax and losses, bias, convolution, pooling, batch
// norm, 3-D convolution and pooling), with TensorFlow's formulas (tensorflow/cc/gradients/nn_grad.cc, python/ops/nn_grad.py).
// Several emit TensorFlow's gradient ops (ReluGrad, BiasAddGrad, MaxPoolGrad...) by name.
#include "core/gradients/grad_registry.h"

namespace sg {
namespace {

using Fn = absl::Status;

// Activations whose gradient op takes (dy, forward input): ReluGrad, Relu6Grad, SoftplusGrad.
GradFunc InputGradOp(const char* grad_op) {
  return [grad_op](GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
    dx->push_back(s.Op(grad_op, {dy[0], InputOf(op, 0)}));
    return s.status();
  };
}

Fn EluGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(s.Op("EluGrad", {dy[0], OutputOf(op, 0)}));
  return s.status();
}

Fn SeluGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(s.Op("SeluGrad", {dy[0], OutputOf(op, 0)}));
  return s.status();
}

Fn LeakyReluGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(s.Op("LeakyReluGrad", {dy[0], InputOf(op, 0)}, CopyAttrs(op, {"alpha"})));
  return s.status();
}

// Softmax: (dy - sum(dy * y, -1)) * y.
Fn SoftmaxGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput y = OutputOf(op, 0);
  GradOutput sum = s.Sum(s.Mul(dy[0], y), s.ConstI32({-1}), true);
  dx->push_back(s.Mul(s.Sub(dy[0], sum), y));
  return s.status();
}

// LogSoftmax: dy - sum(dy, -1) * exp(y).
Fn LogSoftmaxGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput softmax = s.Op("Exp", {OutputOf(op, 0)});
  GradOutput sum = s.Sum(dy[0], s.ConstI32({-1}), true);
  dx->push_back(s.Sub(dy[0], s.Mul(sum, softmax)));
  return s.status();
}

bool IsZerosLike(GradOutput g) { return g.node != nullptr && g.node->type_string() == "ZerosLike"; }

// (loss, backprop) = f(logits, labels): d logits = dloss[:, None] * backprop (+ the term of the
// backprop output's own gradient when one flows); d labels = dloss[:, None] * -log_softmax.
Fn SoftmaxXentGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput dloss = s.ExpandDims(dy[0], -1);
  GradOutput logits_grad = s.Mul(dloss, OutputOf(op, 1));
  if (!IsZerosLike(dy[1])) {
    GradOutput softmax = s.Op("Softmax", {InputOf(op, 0)});
    GradOutput dot = s.Sum(s.Mul(dy[1], softmax), s.ConstI32({-1}), true);
    logits_grad = s.Add(logits_grad, s.Mul(s.Sub(dy[1], dot), softmax));
  }
  dx->push_back(logits_grad);
  dx->push_back(s.Mul(dloss, s.Neg(s.Op("LogSoftmax", {InputOf(op, 0)}))));
  return s.status();
}

Fn SparseSoftmaxXentGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput dloss = s.ExpandDims(dy[0], -1);
  GradOutput logits_grad = s.Mul(dloss, OutputOf(op, 1));
  if (!IsZerosLike(dy[1])) {
    GradOutput softmax = s.Op("Softmax", {InputOf(op, 0)});
    GradOutput dot = s.Sum(s.Mul(dy[1], softmax), s.ConstI32({-1}), true);
    logits_grad = s.Add(logits_grad, s.Mul(s.Sub(dy[1], dot), softmax));
  }
  dx->push_back(logits_grad);
  dx->push_back(NoGradient());
  return s.status();
}

Fn L2LossGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(s.Mul(InputOf(op, 0), dy[0]));
  return s.status();
}

Fn BiasAddGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(dy[0]);
  dx->push_back(s.Op("BiasAddGrad", {dy[0]}, CopyAttrs(op, {"data_format"})));
  return s.status();
}

Fn Conv2DGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradAttrs attrs = CopyAttrs(op, {"strides", "padding", "explicit_paddings", "use_cudnn_on_gpu",
                                   "data_format", "dilations"});
  GradOutput x = InputOf(op, 0), filter = InputOf(op, 1);
  dx->push_back(s.Op("Conv2DBackpropInput", {s.Shape(x), filter, dy[0]}, attrs));
  dx->push_back(s.Op("Conv2DBackpropFilter", {x, s.Shape(filter), dy[0]}, attrs));
  return s.status();
}

// Conv2DBackpropInput(input_sizes, filter, out_backprop): the transposed convolution's
// gradients are a Conv2DBackpropFilter and a Conv2D.
Fn Conv2DBackpropInputGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradAttrs attrs = CopyAttrs(op, {"strides", "padding", "explicit_paddings", "use_cudnn_on_gpu",
                                   "data_format", "dilations"});
  GradOutput filter = InputOf(op, 1), out_backprop = InputOf(op, 2);
  dx->push_back(NoGradient());
  dx->push_back(s.Op("Conv2DBackpropFilter", {dy[0], s.Shape(filter), out_backprop}, attrs));
  dx->push_back(s.Op("Conv2D", {dy[0], filter}, attrs));
  return s.status();
}

Fn DepthwiseConv2dGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradAttrs attrs =
      CopyAttrs(op, {"strides", "padding", "explicit_paddings", "data_format", "dilations"});
  GradOutput x = InputOf(op, 0), filter = InputOf(op, 1);
  dx->push_back(s.Op("DepthwiseConv2dNativeBackpropInput", {s.Shape(x), filter, dy[0]}, attrs));
  dx->push_back(s.Op("DepthwiseConv2dNativeBackpropFilter", {x, s.Shape(filter), dy[0]}, attrs));
  return s.status();
}

Fn MaxPoolV2Grad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(s.Op("MaxPoolGradV2",
                     {InputOf(op, 0), OutputOf(op, 0), dy[0], InputOf(op, 1), InputOf(op, 2)},
                     CopyAttrs(op, {"padding", "data_format"})));
  dx->push_back(NoGradient());
  dx->push_back(NoGradient());
  return s.status();
}

Fn LRNGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(s.Op("LRNGrad", {dy[0], InputOf(op, 0), OutputOf(op, 0)},
                     CopyAttrs(op, {"depth_radius", "bias", "alpha", "beta"})));
  return s.status();
}

// ResizeBilinear: ResizeBilinearGrad for floating-point images, none otherwise (as TensorFlow).
Fn ResizeBilinearGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput images = InputOf(op, 0);
  const DataType dt = DTypeOf(images);
  if (dt == DT_FLOAT || dt == DT_DOUBLE || dt == DT_HALF || dt == DT_BFLOAT16) {
    dx->push_back(s.Op("ResizeBilinearGrad", {dy[0], images},
                       CopyAttrs(op, {"align_corners", "half_pixel_centers"})));
  } else {
    dx->push_back(NoGradient());
  }
  dx->push_back(NoGradient());
  return s.status();
}

Fn ResizeNearestNeighborGrad(GradScope& s, const Node& op, const GradOutputs& dy,
                             GradOutputs* dx) {
  GradOutput hw = s.Op("Slice", {s.Shape(InputOf(op, 0)), s.ConstI32({1}), s.ConstI32({2})});
  dx->push_back(s.Op("ResizeNearestNeighborGrad", {dy[0], hw},
                     CopyAttrs(op, {"align_corners", "half_pixel_centers"})));
  dx->push_back(NoGradient());
  return s.status();
}

Fn MaxPoolGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(s.Op("MaxPoolGrad", {InputOf(op, 0), OutputOf(op, 0), dy[0]},
                     CopyAttrs(op, {"ksize", "strides", "padding", "explicit_paddings",
                                    "data_format"})));
  return s.status();
}

Fn AvgPoolGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(s.Op("AvgPoolGrad", {s.Shape(InputOf(op, 0)), dy[0]},
                     CopyAttrs(op, {"ksize", "strides", "padding", "data_format"})));
  return s.status();
}

// FusedBatchNorm / V2 / V3 (x, scale, offset, mean, variance): FusedBatchNormGrad / V2 / V3
// with the saved batch statistics in training, the population statistics (inputs 3, 4) in
// inference; V3's grad op also takes its sixth output.
GradFunc FusedBatchNormGrad(const char* grad_op, bool v3) {
  return [grad_op, v3](GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
    const bool training = BoolAttrOf(op, "is_training", true);
    GradOutput r1 = training ? OutputOf(op, 3) : InputOf(op, 3);
    GradOutput r2 = training ? OutputOf(op, 4) : InputOf(op, 4);
    std::vector<GradInput> in = {dy[0], InputOf(op, 0), InputOf(op, 1), r1, r2};
    if (v3) in.push_back(OutputOf(op, 5));
    GradOutputs g = s.OpN(grad_op, in, CopyAttrs(op, {"epsilon", "data_format", "is_training"}));
    if (!s.status().ok()) return s.status();
    dx->push_back(g[0]);
    dx->push_back(g[1]);
    dx->push_back(g[2]);
    dx->push_back(NoGradient());
    dx->push_back(NoGradient());
    return s.status();
  };
}

// BiasAddV1 (value, bias): dy, and dy summed over every dim but the last.
Fn BiasAddV1Grad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput rank = s.Op("Rank", {dy[0]});
  GradOutput axes = s.Op("Range", {s.ScalarI32(0), s.Sub(rank, s.ScalarI32(1)), s.ScalarI32(1)});
  dx->push_back(dy[0]);
  dx->push_back(s.Sum(dy[0], axes));
  return s.status();
}

Fn Conv3DGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradAttrs attrs = CopyAttrs(op, {"strides", "padding", "data_format", "dilations"});
  GradOutput x = InputOf(op, 0), filter = InputOf(op, 1);
  dx->push_back(s.Op("Conv3DBackpropInputV2", {s.Shape(x), filter, dy[0]}, attrs));
  dx->push_back(s.Op("Conv3DBackpropFilterV2", {x, s.Shape(filter), dy[0]}, attrs));
  return s.status();
}

Fn AvgPool3DGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(s.Op("AvgPool3DGrad", {s.Shape(InputOf(op, 0)), dy[0]},
                     CopyAttrs(op, {"ksize", "strides", "padding", "data_format"})));
  return s.status();
}

Fn MaxPool3DGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(s.Op("MaxPool3DGrad", {InputOf(op, 0), OutputOf(op, 0), dy[0]},
                     CopyAttrs(op, {"ksize", "strides", "padding", "data_format"})));
  return s.status();
}

// MaxPoolWithArgmax (input) -> (output, argmax): MaxPoolGradWithArgmax; the argmax output's
// gradient is ignored.
Fn MaxPoolWithArgmaxGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(s.Op("MaxPoolGradWithArgmax", {InputOf(op, 0), dy[0], OutputOf(op, 1)},
                     CopyAttrs(op, {"ksize", "strides", "padding", "include_batch_in_index"})));
  return s.status();
}

// BatchNormWithGlobalNormalization (t, m, v, beta, gamma): its grad op's five outputs (dx, dm,
// dv, db, dg).
Fn BatchNormGlobalGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  *dx = s.OpN("BatchNormWithGlobalNormalizationGrad",
              {InputOf(op, 0), InputOf(op, 1), InputOf(op, 2), InputOf(op, 4), dy[0]},
              CopyAttrs(op, {"variance_epsilon", "scale_after_normalization"}));
  return s.status();
}

SG_REGISTER_GRADIENT("Relu", InputGradOp("ReluGrad"));
SG_REGISTER_GRADIENT("Relu6", InputGradOp("Relu6Grad"));
SG_REGISTER_GRADIENT("Softplus", InputGradOp("SoftplusGrad"));
SG_REGISTER_GRADIENT("Softsign", InputGradOp("SoftsignGrad"));
SG_REGISTER_GRADIENT("Elu", EluGrad);
SG_REGISTER_GRADIENT("Selu", SeluGrad);
SG_REGISTER_GRADIENT("LeakyRelu", LeakyReluGrad);
SG_REGISTER_GRADIENT("Softmax", SoftmaxGrad);
SG_REGISTER_GRADIENT("LogSoftmax", LogSoftmaxGrad);
SG_REGISTER_GRADIENT("SoftmaxCrossEntropyWithLogits", SoftmaxXentGrad);
SG_REGISTER_GRADIENT("SparseSoftmaxCrossEntropyWithLogits", SparseSoftmaxXentGrad);
SG_REGISTER_GRADIENT("L2Loss", L2LossGrad);
SG_REGISTER_GRADIENT("BiasAdd", BiasAddGrad);
SG_REGISTER_GRADIENT("Conv2D", Conv2DGrad);
SG_REGISTER_GRADIENT("MaxPool", MaxPoolGrad);
SG_REGISTER_GRADIENT("MaxPoolV2", MaxPoolV2Grad);
SG_REGISTER_GRADIENT("Conv2DBackpropInput", Conv2DBackpropInputGrad);
SG_REGISTER_GRADIENT("DepthwiseConv2dNative", DepthwiseConv2dGrad);
SG_REGISTER_GRADIENT("LRN", LRNGrad);
SG_REGISTER_GRADIENT("ResizeBilinear", ResizeBilinearGrad);
SG_REGISTER_GRADIENT("ResizeNearestNeighbor", ResizeNearestNeighborGrad);
SG_REGISTER_GRADIENT("AvgPool", AvgPoolGrad);
SG_REGISTER_GRADIENT("FusedBatchNorm", FusedBatchNormGrad("FusedBatchNormGrad", false));
SG_REGISTER_GRADIENT("FusedBatchNormV2", FusedBatchNormGrad("FusedBatchNormGradV2", false));
SG_REGISTER_GRADIENT("FusedBatchNormV3", FusedBatchNormGrad("FusedBatchNormGradV3", true));
SG_REGISTER_GRADIENT("BiasAddV1", BiasAddV1Grad);
SG_REGISTER_GRADIENT("Conv3D", Conv3DGrad);
SG_REGISTER_GRADIENT("AvgPool3D", AvgPool3DGrad);
SG_REGISTER_GRADIENT("MaxPool3D", MaxPool3DGrad);
SG_REGISTER_GRADIENT("MaxPoolWithArgmax", MaxPoolWithArgmaxGrad);
SG_REGISTER_GRADIENT("BatchNormWithGlobalNormalization", BatchNormGlobalGrad);

}  // namespace
}  // namespace sg
