// Ops that write rows of a tensor (TensorFlow's array_ops): InplaceUpdate / InplaceAdd /
// InplaceSub, DeepCopy, ParallelConcat and the two internal ops TensorFlow rewrites it into,
// _ParallelConcatStart and _ParallelConcatUpdate.
#include <cstdint>
#include <vector>

#include "core/framework/op.h"
#include "core/framework/shape_inference.h"

namespace sg {
namespace {

using Shape = PartialTensorShape;

absl::Status ShapeFromAttr(InferenceContext* c) {
  Shape shape;
  SG_RETURN_IF_ERROR(c->GetAttr("shape", &shape));
  c->set_output(0, shape);
  return absl::OkStatus();
}

// The `shape` attr, each value [1] + shape[1:] (known dims must agree).
absl::Status ParallelConcatShape(InferenceContext* c) {
  Shape shape;
  SG_RETURN_IF_ERROR(c->GetAttr("shape", &shape));
  for (int i = 0; i < c->num_inputs(); ++i) {
    const Shape& v = c->input(i);
    if (v.unknown_rank() || shape.unknown_rank()) continue;
    if (v.dims() != shape.dims()) {
      return c->Error("values[", i, "] has rank ", v.dims(), ", shape has rank ", shape.dims());
    }
    if (v.dims() == 0 || (v.dim_size(0) >= 0 && v.dim_size(0) != 1)) {
      return c->Error("values[", i, "] must have 1 as its first dimension, got ",
                      v.DebugString());
    }
    for (int d = 1; d < v.dims(); ++d) {
      if (v.dim_size(d) >= 0 && shape.dim_size(d) >= 0 && v.dim_size(d) != shape.dim_size(d)) {
        return c->Error("values[", i, "] has shape ", v.DebugString(), ", which does not fit ",
                        shape.DebugString());
      }
    }
  }
  c->set_output(0, shape);
  return absl::OkStatus();
}

}  // namespace

// y = x with rows i replaced by (added to, subtracted from) the rows of v.
REGISTER_OP("InplaceUpdate")
    .Input("x: T")
    .Input("i: int32")
    .Input("v: T")
    .Output("y: T")
    .Attr("T: type")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("InplaceAdd")
    .Input("x: T")
    .Input("i: int32")
    .Input("v: T")
    .Output("y: T")
    .Attr("T: type")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("InplaceSub")
    .Input("x: T")
    .Input("i: int32")
    .Input("v: T")
    .Output("y: T")
    .Attr("T: type")
    .SetShapeFn(shape_fns::Unchanged);

// A copy of x in a buffer of its own.
REGISTER_OP("DeepCopy")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: type")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Unchanged);

// The N values ([1] + shape[1:] each) stacked along dim 0 into `shape`.
REGISTER_OP("ParallelConcat")
    .Input("values: N * T")
    .Output("output: T")
    .Attr("N: int >= 1")
    .Attr("T: type")
    .Attr("shape: shape")
    .SetShapeFn(ParallelConcatShape);

// A tensor of `shape` whose rows _ParallelConcatUpdate then fills.
REGISTER_OP("_ParallelConcatStart")
    .Output("output: dtype")
    .Attr("shape: shape")
    .Attr("dtype: type")
    .SetIsStateful()
    .SetShapeFn(ShapeFromAttr);

// Writes `update` (one row) into row `loc` of `value`'s own buffer and outputs `value`.
REGISTER_OP("_ParallelConcatUpdate")
    .Input("value: T")
    .Input("update: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("loc: int")
    .SetShapeFn(shape_fns::Unchanged);

}  // namespace sg
