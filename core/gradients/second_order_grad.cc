// Gradients of gradient ops (second derivatives: ReluGrad, TanhGrad, MaxPoolGrad,
// Conv2DBackpropFilter...), with TensorFlow's formulas (tensorflow/python/ops/nn_grad.py,
// math_grad.py and array_grad.py, their *GradGrad functions). Each is the derivative of the
// gradient op's output with respect to each of its inputs; inputs that only carry shapes or
// window sizes get none, and inputs a piecewise-constant output does not depend on (a max
// pool's argument, a ReLU's features) get zeros, as TensorFlow returns them.
#include "core/gradients/grad_registry.h"

namespace sg {
namespace {

using Fn = absl::Status;

// ReluGrad / Relu6Grad / LeakyReluGrad (gradients, features): the same op on the incoming
// gradient, zeros for the features.
Fn ReluFamilyGradGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput x = InputOf(op, 1);
  dx->push_back(s.Op(op.type_string(), {dy[0], x}, CopyAttrs(op, {"alpha"})));
  dx->push_back(s.ZerosLike(x));
  return s.status();
}

// EluGrad / SeluGrad (gradients, outputs): the same op on the incoming gradient; for the
// outputs, dy * gradients where the outputs are negative, 0 elsewhere.
Fn EluFamilyGradGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput g = InputOf(op, 0), out = InputOf(op, 1);
  dx->push_back(s.Op(op.type_string(), {dy[0], out}));
  GradOutput negative = s.Op("Less", {out, s.ScalarOf(DTypeOf(out), 0.0)});
  dx->push_back(s.Op("SelectV2", {negative, s.Mul(dy[0], g), s.ZerosLike(out)}));
  return s.status();
}

// SoftplusGrad (gradients, features): SoftplusGrad(dy, x), and dy * gradients / (e^-x + 2 + e^x).
Fn SoftplusGradGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput g = InputOf(op, 0), x = InputOf(op, 1);
  dx->push_back(s.Op("SoftplusGrad", {dy[0], x}));
  GradOutput denom = s.Add(s.Add(s.Op("Exp", {s.Neg(x)}), s.ScalarOf(DTypeOf(x), 2.0)),
                           s.Op("Exp", {x}));
  dx->push_back(s.RealDiv(s.Mul(dy[0], g), denom));
  return s.status();
}

// SigmoidGrad (y, g) = g * y * (1 - y): d/dy = dy * conj(g) * (1 - 2 conj(y)), d/dg =
// SigmoidGrad(conj(y), dy).
Fn SigmoidGradGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput a = s.Conj(InputOf(op, 0)), b = s.Conj(InputOf(op, 1));
  GradOutput gb = s.Mul(dy[0], b);
  dx->push_back(s.Sub(gb, s.Mul(s.Mul(s.ScalarOf(DTypeOf(gb), 2.0), gb), a)));
  dx->push_back(s.Op("SigmoidGrad", {a, dy[0]}));
  return s.status();
}

// TanhGrad (y, g) = g * (1 - y^2): d/dy = -2 dy conj(g) conj(y), d/dg = TanhGrad(conj(y), dy).
Fn TanhGradGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput a = s.Conj(InputOf(op, 0)), b = s.Conj(InputOf(op, 1));
  dx->push_back(s.Mul(s.Mul(s.Mul(dy[0], s.ScalarOf(DTypeOf(dy[0]), -2.0)), b), a));
  dx->push_back(s.Op("TanhGrad", {a, dy[0]}));
  return s.status();
}

// SqrtGrad (y, g) = 0.5 g / conj(y): with ga = dy / y, d/dy = -conj(ga) * output, d/dg = ga / 2.
Fn SqrtGradGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput ga = s.Op("Div", {dy[0], InputOf(op, 0)});
  dx->push_back(s.Mul(s.Neg(s.Conj(ga)), OutputOf(op, 0)));
  dx->push_back(s.Mul(s.ScalarOf(DTypeOf(ga), 0.5), ga));
  return s.status();
}

// RsqrtGrad (y, g) = -0.5 g conj(y)^3: d/dy = -1.5 conj(dy) g conj(y)^2, d/dg =
// RsqrtGrad(conj(y), dy).
Fn RsqrtGradGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput ca = s.Conj(InputOf(op, 0)), b = InputOf(op, 1), cg = s.Conj(dy[0]);
  dx->push_back(s.Mul(s.Mul(s.Mul(s.ScalarOf(DTypeOf(cg), -1.5), cg), b), s.Op("Square", {ca})));
  dx->push_back(s.Op("RsqrtGrad", {ca, dy[0]}));
  return s.status();
}

// ReciprocalGrad / InvGrad (y, g) = -g conj(y)^2: d/dy = -2 conj(dy) g conj(y), d/dg =
// ReciprocalGrad(conj(y), dy).
Fn ReciprocalGradGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput ca = s.Conj(InputOf(op, 0)), b = InputOf(op, 1), cg = s.Conj(dy[0]);
  dx->push_back(s.Mul(s.Mul(s.Mul(cg, s.ScalarOf(DTypeOf(cg), -2.0)), b), ca));
  dx->push_back(s.Op("ReciprocalGrad", {ca, dy[0]}));
  return s.status();
}

// BiasAddGrad (out_backprop): dy (the bias's shape) tiled over every dim but the channel's.
Fn BiasAddGradGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  std::string format = "NHWC";
  auto it = op.def().attr().find("data_format");
  if (it != op.def().attr().end()) format = it->second.s();
  GradOutput shape = s.Shape(InputOf(op, 0));
  GradOutput rank = s.Op("Size", {shape});
  GradOutput ones = s.Op("OnesLike", {shape});
  auto slice = [&](GradOutput t, GradOutput begin, GradOutput size) {
    return s.Op("Slice", {t, s.Reshape(begin, s.ConstI32({1})), s.Reshape(size, s.ConstI32({1}))});
  };
  auto concat = [&](GradOutputs parts) {
    return s.Op("ConcatV2", {GradInput::List(std::move(parts)), s.ScalarI32(0)});
  };
  GradOutput bias_shape = s.Shape(dy[0]);
  GradOutput expanded, multiples;
  if (format == "NCHW") {
    GradOutput rest = s.Sub(rank, s.ScalarI32(2));
    expanded = concat({slice(ones, s.ScalarI32(0), s.ScalarI32(1)), bias_shape,
                       slice(ones, s.ScalarI32(2), rest)});
    multiples = concat({slice(shape, s.ScalarI32(0), s.ScalarI32(1)), s.ConstI32({1}),
                        slice(shape, s.ScalarI32(2), rest)});
  } else {
    GradOutput lead = s.Sub(rank, s.ScalarI32(1));
    expanded = concat({slice(ones, s.ScalarI32(0), lead), bias_shape});
    multiples = concat({slice(shape, s.ScalarI32(0), lead), s.ConstI32({1})});
  }
  dx->push_back(s.Op("Tile", {s.Reshape(dy[0], expanded), multiples}));
  return s.status();
}

// MirrorPadGrad (grad, paddings): dy mirror-padded again.
Fn MirrorPadGradGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(s.Op("MirrorPad", {dy[0], InputOf(op, 1)}, CopyAttrs(op, {"mode"})));
  dx->push_back(NoGradient());
  return s.status();
}

// StridedSliceGrad (shape, begin, end, strides, dy): dy strided-sliced.
Fn StridedSliceGradGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  for (int i = 0; i < 4; ++i) dx->push_back(NoGradient());
  dx->push_back(s.Op("StridedSlice", {dy[0], InputOf(op, 1), InputOf(op, 2), InputOf(op, 3)},
                     CopyAttrs(op, {"begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask",
                                    "shrink_axis_mask"})));
  return s.status();
}

// AvgPoolGrad / AvgPool3DGrad (input shape, grad): the forward pooling of dy.
GradFunc AvgPoolGradGrad(const char* pool) {
  return [pool](GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
    dx->push_back(NoGradient());
    dx->push_back(
        s.Op(pool, {dy[0]}, CopyAttrs(op, {"ksize", "strides", "padding", "data_format"})));
    return s.status();
  };
}

// MaxPoolGrad / MaxPoolGradGrad and their 3-D forms (orig_input, orig_output, grad): zeros for
// the pooled tensors, `other` (the grad-grad or grad op) of dy for grad. MaxPoolGradV2 also
// takes ksize and strides as inputs, which get none.
GradFunc MaxPoolGradGrad(const char* other, bool v2) {
  return [other, v2](GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
    GradOutput x = InputOf(op, 0), y = InputOf(op, 1);
    dx->push_back(s.ZerosLike(x));
    dx->push_back(s.ZerosLike(y));
    if (v2) {
      dx->push_back(s.Op(other, {x, y, dy[0], InputOf(op, 3), InputOf(op, 4)},
                         CopyAttrs(op, {"padding", "data_format"})));
      dx->push_back(NoGradient());
      dx->push_back(NoGradient());
    } else {
      dx->push_back(s.Op(other, {x, y, dy[0]},
                         CopyAttrs(op, {"ksize", "strides", "padding", "data_format"})));
    }
    return s.status();
  };
}

// Conv2DBackpropFilter / Conv3DBackpropFilterV2 / DepthwiseConv2dNativeBackpropFilter
// (input, filter_sizes, out_backprop): `backprop_input` for the input, none for the sizes, the
// forward convolution of the input by dy for out_backprop.
GradFunc ConvBackpropFilterGrad(const char* backprop_input, const char* conv) {
  return [backprop_input, conv](GradScope& s, const Node& op, const GradOutputs& dy,
                                GradOutputs* dx) {
    GradAttrs attrs = CopyAttrs(op, {"strides", "padding", "explicit_paddings",
                                     "use_cudnn_on_gpu", "data_format", "dilations"});
    GradOutput x = InputOf(op, 0), out_backprop = InputOf(op, 2);
    dx->push_back(s.Op(backprop_input, {s.Shape(x), dy[0], out_backprop}, attrs));
    dx->push_back(NoGradient());
    dx->push_back(s.Op(conv, {x, dy[0]}, attrs));
    return s.status();
  };
}

// Conv3DBackpropInputV2 / DepthwiseConv2dNativeBackpropInput (input_sizes, filter,
// out_backprop): none for the sizes, `backprop_filter` for the filter, the forward convolution
// of dy by the filter for out_backprop.
GradFunc ConvBackpropInputGrad(const char* backprop_filter, const char* conv) {
  return [backprop_filter, conv](GradScope& s, const Node& op, const GradOutputs& dy,
                                 GradOutputs* dx) {
    GradAttrs attrs = CopyAttrs(op, {"strides", "padding", "explicit_paddings",
                                     "use_cudnn_on_gpu", "data_format", "dilations"});
    GradOutput filter = InputOf(op, 1), out_backprop = InputOf(op, 2);
    dx->push_back(NoGradient());
    dx->push_back(s.Op(backprop_filter, {dy[0], s.Shape(filter), out_backprop}, attrs));
    dx->push_back(s.Op(conv, {dy[0], filter}, attrs));
    return s.status();
  };
}

SG_REGISTER_GRADIENT("ReluGrad", ReluFamilyGradGrad);
SG_REGISTER_GRADIENT("Relu6Grad", ReluFamilyGradGrad);
SG_REGISTER_GRADIENT("LeakyReluGrad", ReluFamilyGradGrad);
SG_REGISTER_GRADIENT("EluGrad", EluFamilyGradGrad);
SG_REGISTER_GRADIENT("SeluGrad", EluFamilyGradGrad);
SG_REGISTER_GRADIENT("SoftplusGrad", SoftplusGradGrad);
SG_REGISTER_GRADIENT("SigmoidGrad", SigmoidGradGrad);
SG_REGISTER_GRADIENT("TanhGrad", TanhGradGrad);
SG_REGISTER_GRADIENT("SqrtGrad", SqrtGradGrad);
SG_REGISTER_GRADIENT("RsqrtGrad", RsqrtGradGrad);
SG_REGISTER_GRADIENT("ReciprocalGrad", ReciprocalGradGrad);
SG_REGISTER_GRADIENT("InvGrad", ReciprocalGradGrad);
SG_REGISTER_GRADIENT("BiasAddGrad", BiasAddGradGrad);
SG_REGISTER_GRADIENT("MirrorPadGrad", MirrorPadGradGrad);
SG_REGISTER_GRADIENT("StridedSliceGrad", StridedSliceGradGrad);
SG_REGISTER_GRADIENT("AvgPoolGrad", AvgPoolGradGrad("AvgPool"));
SG_REGISTER_GRADIENT("AvgPool3DGrad", AvgPoolGradGrad("AvgPool3D"));
SG_REGISTER_GRADIENT("MaxPoolGrad", MaxPoolGradGrad("MaxPoolGradGrad", false));
SG_REGISTER_GRADIENT("MaxPoolGradGrad", MaxPoolGradGrad("MaxPoolGrad", false));
SG_REGISTER_GRADIENT("MaxPoolGradV2", MaxPoolGradGrad("MaxPoolGradGradV2", true));
SG_REGISTER_GRADIENT("MaxPool3DGrad", MaxPoolGradGrad("MaxPool3DGradGrad", false));
SG_REGISTER_GRADIENT("MaxPool3DGradGrad", MaxPoolGradGrad("MaxPool3DGrad", false));
SG_REGISTER_GRADIENT("Conv2DBackpropFilter",
                     ConvBackpropFilterGrad("Conv2DBackpropInput", "Conv2D"));
SG_REGISTER_GRADIENT("Conv3DBackpropFilterV2",
                     ConvBackpropFilterGrad("Conv3DBackpropInputV2", "Conv3D"));
SG_REGISTER_GRADIENT("DepthwiseConv2dNativeBackpropFilter",
                     ConvBackpropFilterGrad("DepthwiseConv2dNativeBackpropInput",
                                            "DepthwiseConv2dNative"));
SG_REGISTER_GRADIENT("Conv3DBackpropInputV2",
                     ConvBackpropInputGrad("Conv3DBackpropFilterV2", "Conv3D"));
SG_REGISTER_GRADIENT("DepthwiseConv2dNativeBackpropInput",
                     ConvBackpropInputGrad("DepthwiseConv2dNativeBackpropFilter",
                                           "DepthwiseConv2dNative"));

}  // namespace
}  // namespace sg
