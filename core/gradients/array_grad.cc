// Gradients of the array family (reshapes, slicing, joining, gathers, padding, tiling), with
// TensorFlow's formulas (tensorflow/cc/gradients/array_grad.cc, python/ops/array_grad.py).
// Gather gradients are dense: TensorFlow's IndexedSlices become UnsortedSegmentSum into the
// params' shape.
#include "absl/strings/str_cat.h"
#include "core/framework/attr_value_util.h"
#include "core/gradients/grad_registry.h"

namespace sg {
namespace {

using Fn = absl::Status;

// x's shape: a constant when statically known, else Shape(x) (of dtype `dt`).
GradOutput ShapeOfInput(GradScope& s, GradOutput x, DataType dt = DT_INT32) {
  PartialTensorShape xs = StaticShapeOf(x);
  if (xs.IsFullyDefined() && dt == DT_INT32) {
    return s.ConstI32({xs.dim_sizes().begin(), xs.dim_sizes().end()});
  }
  return s.Shape(x, dt);
}

// Reshape, ExpandDims, Squeeze: the gradient is dy in x's shape.
Fn ReshapeLikeGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(s.Reshape(dy[0], ShapeOfInput(s, InputOf(op, 0))));
  for (int i = 1; i < op.num_inputs(); ++i) dx->push_back(NoGradient());
  return s.status();
}

Fn PreventGradientGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  std::string message;
  (void)GetAttr(op.def().attr(), "message", &message);
  return errors::InvalidArgument("Gradient explicitly disabled. Reason: ", message);
}

Fn TransposeGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput perm = InputOf(op, 1);
  GradOutput inverse;
  if (auto p = ConstIntValues(perm)) {
    std::vector<int64_t> inv(p->size());
    for (size_t i = 0; i < p->size(); ++i) {
      if ((*p)[i] < 0 || (*p)[i] >= static_cast<int64_t>(p->size())) {
        return errors::InvalidArgument("Transpose gradient: bad perm in '", op.name(), "'");
      }
      inv[(*p)[i]] = i;
    }
    inverse = s.ConstI32(inv);
  } else {
    inverse = s.Op("InvertPermutation", {perm});
  }
  dx->push_back(s.Transpose(dy[0], inverse));
  dx->push_back(NoGradient());
  return s.status();
}

// ConcatV2(values..., axis): each value's slice of dy, at offsets from ConcatOffset.
Fn ConcatV2Grad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  const int n = op.num_inputs() - 1;
  GradOutput axis = InputOf(op, n);
  PartialTensorShape ys = StaticShapeOf(OutputOf(op, 0));
  GradOutput norm_axis;
  if (auto a = ConstIntValues(axis); a && a->size() == 1 && !ys.unknown_rank()) {
    int64_t v = (*a)[0] < 0 ? (*a)[0] + ys.dims() : (*a)[0];
    norm_axis = s.ScalarI32(v);
  } else {
    GradOutput rank = s.Op("Rank", {InputOf(op, 0)});
    norm_axis = s.Op("FloorMod", {s.Cast(axis, DT_INT32), rank});
  }
  GradOutputs shapes;
  for (int i = 0; i < n; ++i) shapes.push_back(s.Shape(InputOf(op, i)));
  GradOutputs offsets = s.OpN("ConcatOffset", {norm_axis, GradInput::List(shapes)});
  if (!s.status().ok()) return s.status();
  for (int i = 0; i < n; ++i) dx->push_back(s.Op("Slice", {dy[0], offsets[i], shapes[i]}));
  dx->push_back(NoGradient());
  return s.status();
}

// Concat (v1: concat_dim first, then the values).
Fn ConcatGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  const int n = op.num_inputs() - 1;
  GradOutput axis = InputOf(op, 0);
  GradOutput rank = s.Op("Rank", {InputOf(op, 1)});
  GradOutput norm_axis = s.Op("FloorMod", {axis, rank});
  GradOutputs shapes;
  for (int i = 1; i <= n; ++i) shapes.push_back(s.Shape(InputOf(op, i)));
  GradOutputs offsets = s.OpN("ConcatOffset", {norm_axis, GradInput::List(shapes)});
  if (!s.status().ok()) return s.status();
  dx->push_back(NoGradient());
  for (int i = 0; i < n; ++i) dx->push_back(s.Op("Slice", {dy[0], offsets[i], shapes[i]}));
  return s.status();
}

// Split(split_dim, value) / SplitV(value, size_splits, split_dim): the pieces' gradients joined
// (outputs without one were given ZerosLike by the builder).
Fn SplitGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(NoGradient());
  dx->push_back(s.Op("ConcatV2", {GradInput::List(dy), InputOf(op, 0)}));
  return s.status();
}

Fn SplitVGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(s.Op("ConcatV2", {GradInput::List(dy), InputOf(op, 2)}));
  dx->push_back(NoGradient());
  dx->push_back(NoGradient());
  return s.status();
}

Fn ReverseV2Grad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(s.Op("ReverseV2", {dy[0], InputOf(op, 1)}));
  dx->push_back(NoGradient());
  return s.status();
}

Fn IdentityNGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  *dx = dy;
  return s.status();
}

Fn MirrorPadGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(s.Op("MirrorPadGrad", {dy[0], InputOf(op, 1)}, CopyAttrs(op, {"mode"})));
  dx->push_back(NoGradient());
  return s.status();
}

Fn PackGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradAttrs attrs = CopyAttrs(op, {"axis"});
  attrs.emplace_back("num", IntAttr(op.num_inputs()));
  *dx = s.OpN("Unpack", {dy[0]}, attrs);
  return s.status();
}

Fn UnpackGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(s.Op("Pack", {GradInput::List(dy)}, CopyAttrs(op, {"axis"})));
  return s.status();
}

// Slice: dy padded back to x's shape (before = begin, after = shape(x) - size(y) - begin).
Fn SliceGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput x = InputOf(op, 0), begin = InputOf(op, 1);
  DataType index_type = DTypeOf(begin);
  GradOutput in_shape = s.Shape(x, index_type), out_shape = s.Shape(OutputOf(op, 0), index_type);
  GradOutput after = s.Sub(s.Sub(in_shape, out_shape), begin);
  GradOutput paddings = s.Op("Pack", {GradInput::List({begin, after})}, {{"axis", IntAttr(1)}});
  dx->push_back(s.Op("Pad", {dy[0], paddings}));
  dx->push_back(NoGradient());
  dx->push_back(NoGradient());
  return s.status();
}

Fn StridedSliceGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput begin = InputOf(op, 1);
  GradOutput shape = s.Shape(InputOf(op, 0), DTypeOf(begin));
  dx->push_back(s.Op("StridedSliceGrad", {shape, begin, InputOf(op, 2), InputOf(op, 3), dy[0]},
                     CopyAttrs(op, {"begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask",
                                    "shrink_axis_mask"})));
  for (int i = 0; i < 3; ++i) dx->push_back(NoGradient());
  return s.status();
}

// Pad / PadV2 / MirrorPad's shape: dy sliced at the leading paddings, x's size.
Fn PadGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput x = InputOf(op, 0), paddings = InputOf(op, 1);
  GradOutput zero = s.Cast(s.ScalarI32(0), DTypeOf(paddings));
  GradOutput rank = s.Cast(s.Op("Rank", {x}), DTypeOf(paddings));
  GradOutput one = s.Cast(s.ScalarI32(1), DTypeOf(paddings));
  GradOutput before = s.Op("Slice", {paddings, s.Op("Pack", {GradInput::List({zero, zero})}),
                                     s.Op("Pack", {GradInput::List({rank, one})})});
  GradOutput begin = s.Reshape(before, s.ConstI32({-1}));
  dx->push_back(s.Op("Slice", {dy[0], begin, s.Shape(x, DTypeOf(paddings))}));
  for (int i = 1; i < op.num_inputs(); ++i) dx->push_back(NoGradient());
  return s.status();
}

// Tile: dy reshaped to [m0, d0, m1, d1, ...] and summed over the multiples' axes.
Fn TileGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput x = InputOf(op, 0), multiples = InputOf(op, 1);
  DataType mt = DTypeOf(multiples);
  GradOutput shape = s.Shape(x, mt);
  GradOutput stacked = s.Op("Pack", {GradInput::List({multiples, shape})}, {{"axis", IntAttr(1)}});
  GradOutput split_shape = s.Reshape(stacked, s.ConstI32({-1}));
  GradOutput size = s.Op("Size", {split_shape});
  GradOutput axes = s.Op("Range", {s.ScalarI32(0), size, s.ScalarI32(2)});
  GradOutput summed = s.Sum(s.Reshape(dy[0], split_shape), axes);
  dx->push_back(s.Reshape(summed, shape));
  dx->push_back(NoGradient());
  return s.status();
}

// GatherV2(params, indices, axis) with batch_dims 0, dense: dy's indices dims moved to the
// front, summed into params' axis dim by UnsortedSegmentSum, and moved back.
absl::Status GatherDense(GradScope& s, const Node& op, GradOutput grad, int64_t axis,
                         GradOutputs* dx) {
  GradOutput params = InputOf(op, 0), indices = InputOf(op, 1);
  PartialTensorShape ps = StaticShapeOf(params), is = StaticShapeOf(indices);
  if (ps.unknown_rank() || is.unknown_rank()) {
    return errors::Unimplemented("Gather gradient of '", op.name(),
                                 "' needs the ranks of params and indices");
  }
  const int p = ps.dims(), q = is.dims();
  if (axis < 0) axis += p;
  if (axis < 0 || axis >= p) {
    return errors::InvalidArgument("Gather gradient of '", op.name(), "': axis out of range");
  }
  std::vector<int64_t> perm;
  for (int i = 0; i < q; ++i) perm.push_back(axis + i);
  for (int i = 0; i < axis; ++i) perm.push_back(i);
  for (int i = axis + q; i < p - 1 + q; ++i) perm.push_back(i);
  GradOutput moved = axis == 0 ? grad : s.Transpose(grad, s.ConstI32(perm));
  GradOutput num = ps.dim_size(axis) >= 0
                       ? s.ScalarI32(ps.dim_size(axis))
                       : s.Op("GatherV2", {s.Shape(params), s.ScalarI32(axis), s.ScalarI32(0)});
  GradOutput summed = s.Op("UnsortedSegmentSum", {moved, indices, num});
  std::vector<int64_t> back;
  for (int i = 1; i <= axis; ++i) back.push_back(i);
  back.push_back(0);
  for (int i = axis + 1; i < p; ++i) back.push_back(i);
  dx->push_back(axis == 0 ? summed : s.Transpose(summed, s.ConstI32(back)));
  return s.status();
}

Fn GatherV2Grad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  if (IntAttrOf(op, "batch_dims") != 0) {
    return errors::Unimplemented("Gather gradient of '", op.name(), "': batch_dims != 0");
  }
  auto axis = ConstIntValues(InputOf(op, 2));
  if (!axis || axis->size() != 1) {
    return errors::Unimplemented("Gather gradient of '", op.name(), "' needs a constant axis");
  }
  SG_RETURN_IF_ERROR(GatherDense(s, op, dy[0], (*axis)[0], dx));
  dx->push_back(NoGradient());
  dx->push_back(NoGradient());
  return s.status();
}

Fn GatherGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  SG_RETURN_IF_ERROR(GatherDense(s, op, dy[0], 0, dx));
  dx->push_back(NoGradient());
  return s.status();
}

// Gathers dy at `ids`, with zeros where an id is negative (a dropped segment), as TensorFlow's
// _GatherDropNegatives.
GradOutput GatherDropNegatives(GradScope& s, GradOutput grad, GradOutput ids) {
  GradOutput zero = s.Cast(s.ScalarI32(0), DTypeOf(ids));
  GradOutput gathered = s.Op("GatherV2", {grad, s.Op("Maximum", {ids, zero}), s.ScalarI32(0)});
  GradOutput keep = s.Op("GreaterEqual", {ids, zero});
  // keep's shape followed by ones up to gathered's rank, so SelectV2 broadcasts it.
  GradOutput extra = s.Sub(s.Op("Rank", {gathered}), s.Op("Rank", {keep}));
  GradOutput ones = s.Op("Fill", {s.Reshape(extra, s.ConstI32({1})), s.ScalarI32(1)});
  GradOutput shape = s.Op("ConcatV2", {GradInput::List({s.Shape(keep), ones}), s.ScalarI32(0)});
  return s.Op("SelectV2", {s.Reshape(keep, shape), gathered, s.ZerosLike(gathered)});
}

Fn UnsortedSegmentSumGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(GatherDropNegatives(s, dy[0], InputOf(op, 1)));
  dx->push_back(NoGradient());
  dx->push_back(NoGradient());
  return s.status();
}

Fn SegmentSumGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(s.Op("GatherV2", {dy[0], InputOf(op, 1), s.ScalarI32(0)}));
  dx->push_back(NoGradient());
  return s.status();
}

// A variable's value: its gradient is the gradient of the handle (TensorFlow's resource path).
Fn ReadVariableGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(dy[0]);
  return s.status();
}

Fn FillGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(NoGradient());
  GradOutput axes = s.Op("Range", {s.ScalarI32(0), s.Op("Rank", {dy[0]}), s.ScalarI32(1)});
  dx->push_back(s.Sum(dy[0], axes));
  return s.status();
}

Fn BroadcastToGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(s.SumToShapeOf(dy[0], InputOf(op, 0)));
  dx->push_back(NoGradient());
  return s.status();
}

// Ops whose gradient is dy itself on input 0 and none on the rest (Print's data, the
// quantization range of QuantizeAndDequantizeV2/V3: a straight-through estimator).
Fn PassThroughFirstGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(dy[0]);
  for (int i = 1; i < op.num_inputs(); ++i) dx->push_back(NoGradient());
  return s.status();
}

// QuantizeAndDequantizeV4 (input, input_min, input_max): QuantizeAndDequantizeV4Grad, dy where
// the input lies in the range (a clipped straight-through estimator), zeros for the range.
Fn QuantizeAndDequantizeV4Grad(GradScope& s, const Node& op, const GradOutputs& dy,
                               GradOutputs* dx) {
  *dx = s.OpN("QuantizeAndDequantizeV4Grad",
              {dy[0], InputOf(op, 0), InputOf(op, 1), InputOf(op, 2)}, CopyAttrs(op, {"axis"}));
  return s.status();
}

// CheckNumerics / CheckNumericsV2: dy checked the same way, its message saying it is a gradient.
Fn CheckNumericsGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  std::string message;
  auto it = op.def().attr().find("message");
  if (it != op.def().attr().end()) message = it->second.s();
  AttrValue m;
  m.set_s("Not a number (NaN) or infinity (Inf) values detected in gradient. " + message);
  dx->push_back(s.Op(op.type_string(), {dy[0]}, {{"message", m}}));
  return s.status();
}

// Reverse (v1: a bool per dim): dy reversed the same way.
Fn ReverseGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(s.Op("Reverse", {dy[0], InputOf(op, 1)}));
  dx->push_back(NoGradient());
  return s.status();
}

// Diag and DiagPart undo each other.
GradFunc ByOp(const char* grad_op) {
  return [grad_op](GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
    dx->push_back(s.Op(grad_op, {dy[0]}));
    return s.status();
  };
}

// SpaceToBatch / BatchToSpace (x, paddings or crops; block_size) and their ND forms (x,
// block_shape, paddings or crops): the opposite op on dy, with the same block and amounts.
GradFunc OppositeBlockOp(const char* opposite, bool nd) {
  return [opposite, nd](GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
    if (nd) {
      dx->push_back(s.Op(opposite, {dy[0], InputOf(op, 1), InputOf(op, 2)}));
      dx->push_back(NoGradient());
    } else {
      dx->push_back(s.Op(opposite, {dy[0], InputOf(op, 1)}, CopyAttrs(op, {"block_size"})));
    }
    dx->push_back(NoGradient());
    return s.status();
  };
}

// SpaceToDepth / DepthToSpace: the opposite op on dy (not for NCHW_VECT_C, as TensorFlow).
GradFunc OppositeDepthOp(const char* opposite) {
  return [opposite](GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
    auto it = op.def().attr().find("data_format");
    if (it != op.def().attr().end() && it->second.s() == "NCHW_VECT_C") {
      return errors::InvalidArgument(op.type_string(), " gradient of '", op.name(),
                                     "': NCHW_VECT_C has none (it needs qint8)");
    }
    dx->push_back(s.Op(opposite, {dy[0]}, CopyAttrs(op, {"block_size", "data_format"})));
    return s.status();
  };
}

// TensorStridedSliceUpdate (input, begin, end, strides, value): the input gets dy with the
// updated slice zeroed; the value gets dy's slice, summed over the dims the value was
// broadcast along.
Fn TensorStridedSliceUpdateGrad(GradScope& s, const Node& op, const GradOutputs& dy,
                                GradOutputs* dx) {
  GradAttrs masks = CopyAttrs(op, {"begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask",
                                   "shrink_axis_mask"});
  GradOutput begin = InputOf(op, 1), end = InputOf(op, 2), strides = InputOf(op, 3);
  GradOutput slice = s.Op("StridedSlice", {dy[0], begin, end, strides}, masks);
  dx->push_back(s.Op("TensorStridedSliceUpdate",
                     {dy[0], begin, end, strides, s.ZerosLike(slice)}, masks));
  for (int i = 0; i < 3; ++i) dx->push_back(NoGradient());
  const DataType index = DTypeOf(begin);
  GradOutput slice_shape = s.Shape(slice, index);
  GradOutput value_shape = s.Shape(InputOf(op, 4), index);
  GradOutputs args = s.OpN("BroadcastGradientArgs", {slice_shape, value_shape});
  if (!s.status().ok()) return s.status();
  dx->push_back(s.Reshape(s.Sum(slice, args[1], true), value_shape));
  return s.status();
}

// FakeQuantWithMinMaxArgs / Vars / VarsPerChannel: their *Gradient ops (the Vars forms also
// give the gradients of min and max).
Fn FakeQuantArgsGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(s.Op("FakeQuantWithMinMaxArgsGradient", {dy[0], InputOf(op, 0)},
                     CopyAttrs(op, {"min", "max", "num_bits", "narrow_range"})));
  return s.status();
}

GradFunc FakeQuantVarsGrad(const char* grad_op) {
  return [grad_op](GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
    *dx = s.OpN(grad_op, {dy[0], InputOf(op, 0), InputOf(op, 1), InputOf(op, 2)},
                CopyAttrs(op, {"num_bits", "narrow_range"}));
    return s.status();
  };
}

SG_REGISTER_GRADIENT("Reshape", ReshapeLikeGrad);
SG_REGISTER_GRADIENT("ExpandDims", ReshapeLikeGrad);
SG_REGISTER_GRADIENT("Squeeze", ReshapeLikeGrad);
SG_REGISTER_GRADIENT("PreventGradient", PreventGradientGrad);
SG_REGISTER_GRADIENT("Transpose", TransposeGrad);
SG_REGISTER_GRADIENT("ConcatV2", ConcatV2Grad);
SG_REGISTER_GRADIENT("Concat", ConcatGrad);
SG_REGISTER_GRADIENT("Split", SplitGrad);
SG_REGISTER_GRADIENT("SplitV", SplitVGrad);
SG_REGISTER_GRADIENT("ReverseV2", ReverseV2Grad);
SG_REGISTER_GRADIENT("IdentityN", IdentityNGrad);
SG_REGISTER_GRADIENT("MirrorPad", MirrorPadGrad);
SG_REGISTER_GRADIENT("Pack", PackGrad);
SG_REGISTER_GRADIENT("Unpack", UnpackGrad);
SG_REGISTER_GRADIENT("Slice", SliceGrad);
SG_REGISTER_GRADIENT("StridedSlice", StridedSliceGrad);
SG_REGISTER_GRADIENT("Pad", PadGrad);
SG_REGISTER_GRADIENT("PadV2", PadGrad);
SG_REGISTER_GRADIENT("Tile", TileGrad);
SG_REGISTER_GRADIENT("GatherV2", GatherV2Grad);
SG_REGISTER_GRADIENT("Gather", GatherGrad);
SG_REGISTER_GRADIENT("ReadVariableOp", ReadVariableGrad);
SG_REGISTER_GRADIENT("UnsortedSegmentSum", UnsortedSegmentSumGrad);
SG_REGISTER_GRADIENT("SegmentSum", SegmentSumGrad);
SG_REGISTER_GRADIENT("Fill", FillGrad);
SG_REGISTER_GRADIENT("BroadcastTo", BroadcastToGrad);
SG_REGISTER_GRADIENT("PlaceholderWithDefault", PassThroughFirstGrad);
SG_REGISTER_GRADIENT("EnsureShape", PassThroughFirstGrad);
SG_REGISTER_GRADIENT("RefIdentity", PassThroughFirstGrad);
SG_REGISTER_GRADIENT("DebugGradientIdentity", PassThroughFirstGrad);
SG_REGISTER_GRADIENT("DebugGradientRefIdentity", PassThroughFirstGrad);
SG_REGISTER_GRADIENT("Print", PassThroughFirstGrad);
SG_REGISTER_GRADIENT("QuantizeAndDequantizeV2", PassThroughFirstGrad);
SG_REGISTER_GRADIENT("QuantizeAndDequantizeV3", PassThroughFirstGrad);
SG_REGISTER_GRADIENT("QuantizeAndDequantizeV4", QuantizeAndDequantizeV4Grad);
SG_REGISTER_GRADIENT("CheckNumerics", CheckNumericsGrad);
SG_REGISTER_GRADIENT("CheckNumericsV2", CheckNumericsGrad);
SG_REGISTER_GRADIENT("Reverse", ReverseGrad);
SG_REGISTER_GRADIENT("Diag", ByOp("DiagPart"));
SG_REGISTER_GRADIENT("DiagPart", ByOp("Diag"));
SG_REGISTER_GRADIENT("SpaceToBatch", OppositeBlockOp("BatchToSpace", false));
SG_REGISTER_GRADIENT("BatchToSpace", OppositeBlockOp("SpaceToBatch", false));
SG_REGISTER_GRADIENT("SpaceToBatchND", OppositeBlockOp("BatchToSpaceND", true));
SG_REGISTER_GRADIENT("BatchToSpaceND", OppositeBlockOp("SpaceToBatchND", true));
SG_REGISTER_GRADIENT("SpaceToDepth", OppositeDepthOp("DepthToSpace"));
SG_REGISTER_GRADIENT("DepthToSpace", OppositeDepthOp("SpaceToDepth"));
SG_REGISTER_GRADIENT("TensorStridedSliceUpdate", TensorStridedSliceUpdateGrad);
SG_REGISTER_GRADIENT("FakeQuantWithMinMaxArgs", FakeQuantArgsGrad);
SG_REGISTER_GRADIENT("FakeQuantWithMinMaxVars",
                     FakeQuantVarsGrad("FakeQuantWithMinMaxVarsGradient"));
SG_REGISTER_GRADIENT("FakeQuantWithMinMaxVarsPerChannel",
                     FakeQuantVarsGrad("FakeQuantWithMinMaxVarsPerChannelGradient"));

}  // namespace
}  // namespace sg
