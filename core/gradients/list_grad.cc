// Gradients of the TensorList ops (TensorFlow 2's TensorArray and the lists a While loop
// accumulates into), with the formulas of TensorFlow's list_ops.py: the gradient of a list is a
// list of the same length whose element i is the gradient of element i; an element never set
// reads as zeros (tensor_list.h), so a gradient list can leave elements no gradient reaches
// unset. Several gradients of one list are summed by AddN (of lists, element by element).
#include "core/gradients/grad_registry.h"

namespace sg {
namespace {

GradAttrs ElementDtype(const Node& op) { return CopyAttrs(op, {"element_dtype"}); }

// Shape(x)[1:]: the shape of the elements of a stacked tensor.
GradOutput ElementShapeOf(GradScope& s, GradOutput stacked) {
  return s.Op("Slice", {s.Shape(stacked), s.ConstI32({1}), s.ConstI32({-1})});
}

// A list of the length and element shape of list `like` with no element set: the gradient of a
// list when only some elements get one.
GradOutput EmptyListLike(GradScope& s, const Node& op, GradOutput like) {
  GradOutput shape = s.Op("TensorListElementShape", {like}, {{"shape_type", TypeAttr(DT_INT32)}});
  GradOutput length = s.Op("TensorListLength", {like});
  return s.Op("TensorListReserve", {shape, length}, ElementDtype(op));
}

// PushBack(list, x): (dlist', dx) = PopBack(dresult).
absl::Status PushBackGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutputs pop = s.OpN("TensorListPopBack", {dy[0], s.Shape(InputOf(op, 1))}, ElementDtype(op));
  SG_RETURN_IF_ERROR(s.status());
  *dx = {pop[0], pop[1]};
  return s.status();
}

// PopBack(list) -> (list', x): dlist = PushBack(dlist' or an empty list, dx or zeros).
absl::Status PopBackGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput dlist = dy[0];
  if (IsNoGradient(dlist)) {
    GradOutput shape =
        s.Op("TensorListElementShape", {OutputOf(op, 0)}, {{"shape_type", TypeAttr(DT_INT32)}});
    dlist = s.Op("EmptyTensorList", {shape, s.ScalarI32(-1)}, ElementDtype(op));
  }
  GradOutput delement = IsNoGradient(dy[1]) ? s.ZerosLike(OutputOf(op, 1)) : dy[1];
  *dx = {s.Op("TensorListPushBack", {dlist, delement}, ElementDtype(op)), NoGradient()};
  return s.status();
}

// Stack(list) -> t: dlist = FromTensor(dt).
absl::Status StackGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput shape = ElementShapeOf(s, dy[0]);
  *dx = {s.Op("TensorListFromTensor", {dy[0], shape}, ElementDtype(op)), NoGradient()};
  return s.status();
}

// FromTensor(t) -> list: dt = Stack(dlist) with t's element shape (unset elements: zeros).
absl::Status FromTensorGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradAttrs attrs = ElementDtype(op);
  const PartialTensorShape t_shape = StaticShapeOf(InputOf(op, 0));
  if (t_shape.dims() > 0 && t_shape.dim_size(0) >= 0) {
    attrs.push_back({"num_elements", IntAttr(t_shape.dim_size(0))});
  }
  GradOutput shape = ElementShapeOf(s, InputOf(op, 0));
  *dx = {s.Op("TensorListStack", {dy[0], shape}, attrs), NoGradient()};
  return s.status();
}

// GetItem(list, i) -> x: dlist = a list of list's length with dx at i.
absl::Status GetItemGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput empty = EmptyListLike(s, op, InputOf(op, 0));
  *dx = {s.Op("TensorListSetItem", {empty, InputOf(op, 1), dy[0]}, ElementDtype(op)),
         NoGradient(), NoGradient()};
  return s.status();
}

// SetItem(list, i, x) -> list': dlist = dlist' with zeros at i, dx = dlist'[i].
absl::Status SetItemGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput item = InputOf(op, 2);
  GradOutput dlist = s.Op("TensorListSetItem", {dy[0], InputOf(op, 1), s.ZerosLike(item)},
                          ElementDtype(op));
  if (BoolAttrOf(op, "resize_if_index_out_of_bounds")) {
    dlist = s.Op("TensorListResize", {dlist, s.Op("TensorListLength", {InputOf(op, 0)})});
  }
  GradOutput ditem =
      s.Op("TensorListGetItem", {dy[0], InputOf(op, 1), s.Shape(item)}, ElementDtype(op));
  *dx = {dlist, NoGradient(), ditem};
  return s.status();
}

// Gather(list, indices) -> t: element i of dlist is the sum of the rows of dt gathered from i.
// (TensorFlow scatters dt's rows into an empty list, so of an index gathered twice only one
// row counts; summing them is the derivative, which finite differences check.)
absl::Status GatherGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput length = s.Op("TensorListLength", {InputOf(op, 0)});
  GradOutput rows = s.Op("UnsortedSegmentSum", {dy[0], InputOf(op, 1), length});
  *dx = {s.Op("TensorListFromTensor", {rows, ElementShapeOf(s, dy[0])}), NoGradient(),
         NoGradient()};
  return s.status();
}

// Scatter / ScatterV2(t, indices, ...) -> list: dt = Gather(dlist, indices).
absl::Status ScatterGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput t = InputOf(op, 0);
  dx->assign(op.num_inputs(), NoGradient());
  (*dx)[0] = s.Op("TensorListGather", {dy[0], InputOf(op, 1), ElementShapeOf(s, t)},
                  ElementDtype(op));
  return s.status();
}

// ScatterIntoExistingList(list, t, indices) -> list': dlist = dlist' with zeros at indices,
// dt = Gather(dlist', indices).
absl::Status ScatterIntoExistingGrad(GradScope& s, const Node& op, const GradOutputs& dy,
                                     GradOutputs* dx) {
  GradOutput t = InputOf(op, 1);
  GradOutput dlist = s.Op("TensorListScatterIntoExistingList",
                          {dy[0], s.ZerosLike(t), InputOf(op, 2)}, ElementDtype(op));
  GradOutput dt =
      s.Op("TensorListGather", {dy[0], InputOf(op, 2), ElementShapeOf(s, t)}, ElementDtype(op));
  *dx = {dlist, dt, NoGradient()};
  return s.status();
}

// Resize(list, n) -> list': dlist = Resize(dlist', length of list).
absl::Status ResizeGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  *dx = {s.Op("TensorListResize", {dy[0], s.Op("TensorListLength", {InputOf(op, 0)})}),
         NoGradient()};
  return s.status();
}

// Concat / ConcatV2(list) -> (t, lengths): dlist = Split(dt, lengths), elements of the list's
// element shape.
absl::Status ConcatGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput shape =
      s.Op("TensorListElementShape", {InputOf(op, 0)}, {{"shape_type", TypeAttr(DT_INT64)}});
  dx->assign(op.num_inputs(), NoGradient());
  (*dx)[0] = s.Op("TensorListSplit", {dy[0], shape, OutputOf(op, 1)}, ElementDtype(op));
  return s.status();
}

// Split(t, element_shape, lengths) -> list: dt = ConcatV2(dlist) with t's rows per element.
absl::Status SplitGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput t = InputOf(op, 0);
  GradOutput shape =
      s.Op("ConcatV2", {GradInput::List({s.ConstI32({-1}), ElementShapeOf(s, t)}), s.ScalarI32(0)});
  GradOutputs concat =
      s.OpN("TensorListConcatV2", {dy[0], shape, InputOf(op, 2)}, ElementDtype(op));
  SG_RETURN_IF_ERROR(s.status());
  *dx = {concat[0], NoGradient(), NoGradient()};
  return s.status();
}

SG_REGISTER_GRADIENT("TensorListConcat", ConcatGrad);
SG_REGISTER_GRADIENT("TensorListConcatV2", ConcatGrad);
SG_REGISTER_GRADIENT("TensorListSplit", SplitGrad);
SG_REGISTER_GRADIENT("TensorListPushBack", PushBackGrad);
SG_REGISTER_GRADIENT("TensorListPopBack", PopBackGrad);
SG_REGISTER_GRADIENT("TensorListStack", StackGrad);
SG_REGISTER_GRADIENT("TensorListFromTensor", FromTensorGrad);
SG_REGISTER_GRADIENT("TensorListGetItem", GetItemGrad);
SG_REGISTER_GRADIENT("TensorListSetItem", SetItemGrad);
SG_REGISTER_GRADIENT("TensorListGather", GatherGrad);
SG_REGISTER_GRADIENT("TensorListScatter", ScatterGrad);
SG_REGISTER_GRADIENT("TensorListScatterV2", ScatterGrad);
SG_REGISTER_GRADIENT("TensorListScatterIntoExistingList", ScatterIntoExistingGrad);
SG_REGISTER_GRADIENT("TensorListResize", ResizeGrad);
// Lists made from shapes and lengths only.
SG_REGISTER_NO_GRADIENT("EmptyTensorList");
SG_REGISTER_NO_GRADIENT("TensorListReserve");

}  // namespace
}  // namespace sg
