// Gradients of the resource-variable ops other than ReadVariableOp, with TensorFlow's formulas
// (tensorflow/python/ops/resource_variable_ops.py, array_grad.py, state_grad.py). ResourceGather's gradient is
// dense: TensorFlow's IndexedSlices summed into the variable's shape by UnsortedSegmentSum.
#include "core/framework/attr_value_util.h"
#include "core/gradients/grad_registry.h"

namespace sg {
namespace {

using Fn = absl::Status;

// The shape of the variable behind `handle`: a constant when the handle comes from a
// VarHandleOp with a fully defined shape attr, else VariableShape(handle) (TensorFlow's).
GradOutput VariableShapeOf(GradScope& s, GradOutput handle) {
  if (handle.node->type_string() == "VarHandleOp") {
    const auto& attrs = handle.node->def().attr();
    auto it = attrs.find("shape");
    if (it != attrs.end()) {
      auto shape = PartialTensorShape::FromProto(it->second.shape());
      if (shape.ok() && shape->IsFullyDefined()) {
        return s.ConstI32({shape->dim_sizes().begin(), shape->dim_sizes().end()});
      }
    }
  }
  return s.Op("VariableShape", {handle});
}

// ResourceGather(resource, indices): dy's rows summed into the variable's rows.
Fn ResourceGatherGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  if (IntAttrOf(op, "batch_dims") != 0) {
    return errors::Unimplemented("ResourceGather gradient of '", op.name(), "': batch_dims != 0");
  }
  GradOutput handle = InputOf(op, 0), indices = InputOf(op, 1);
  GradOutput params_shape = VariableShapeOf(s, handle);
  GradOutput size = s.Reshape(s.Op("Size", {indices}), s.ConstI32({1}));
  GradOutput tail =
      s.Op("StridedSlice", {params_shape, s.ConstI32({1}), s.ConstI32({0}), s.ConstI32({1})},
           {{"end_mask", IntAttr(1)}});
  GradOutput values_shape = s.Op("ConcatV2", {GradInput::List({size, tail}), s.ScalarI32(0)});
  GradOutput values = s.Reshape(dy[0], values_shape);
  GradOutput rows = s.Op("GatherV2", {params_shape, s.ScalarI32(0), s.ScalarI32(0)});
  dx->push_back(s.Op("UnsortedSegmentSum", {values, s.Reshape(indices, size), rows}));
  dx->push_back(NoGradient());
  return s.status();
}

// ResourceGatherNd(resource, indices): dy scattered (summed) into the variable's shape.
// TensorFlow's IndexedSlices for [n, 1] indices sums to the same dense value.
Fn ResourceGatherNdGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput handle = InputOf(op, 0), indices = InputOf(op, 1);
  GradOutput shape = s.Cast(VariableShapeOf(s, handle), DTypeOf(indices));
  dx->push_back(s.Op("ScatterNd", {indices, dy[0], shape}));
  dx->push_back(NoGradient());
  return s.status();
}

SG_REGISTER_GRADIENT("ResourceGather", ResourceGatherGrad);
SG_REGISTER_GRADIENT("ResourceGatherNd", ResourceGatherNdGrad);

// TensorFlow marks these NotDifferentiable.
SG_REGISTER_NO_GRADIENT("VarIsInitializedOp");
SG_REGISTER_NO_GRADIENT("VariableShape");
SG_REGISTER_NO_GRADIENT("Assign");
SG_REGISTER_NO_GRADIENT("AssignAdd");
SG_REGISTER_NO_GRADIENT("AssignSub");
SG_REGISTER_NO_GRADIENT("Assert");

}  // namespace
}  // namespace sg
