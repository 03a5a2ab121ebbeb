// Reference variables (TensorFlow's state_ops): VariableV2 and the ops that read and update a
// variable through a reference input.
#include "core/framework/op.h"
#include "core/framework/shape_inference.h"

namespace sg {
namespace {

// Output 0 is the `shape` attr.
absl::Status ExplicitShape(InferenceContext* c) {
  PartialTensorShape shape;
  SG_RETURN_IF_ERROR(c->GetAttr("shape", &shape));
  c->set_output(0, shape);
  return absl::OkStatus();
}

// Output 0 is inputs 0 and 1 merged: INVALID_ARGUMENT when their known dims disagree.
absl::Status MergeBothInputs(InferenceContext* c) {
  auto merged = c->input(0).Merge(c->input(1));
  if (!merged.ok()) {
    return c->Error("shapes ", c->input(0).DebugString(), " and ", c->input(1).DebugString(),
                    " are incompatible");
  }
  c->set_output(0, *merged);
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("VariableV2")
    .Output("ref: Ref(dtype)")
    .Attr("shape: shape")
    .Attr("dtype: type")
    .Attr("container: string = ''")
    .Attr("shared_name: string = ''")
    .SetIsStateful()
    .SetShapeFn(ExplicitShape);

// The old name. Its shape attr cannot tell a scalar from "unknown", so a scalar means unknown.
REGISTER_OP("Variable")
    .Output("ref: Ref(dtype)")
    .Attr("shape: shape")
    .Attr("dtype: type")
    .Attr("container: string = ''")
    .Attr("shared_name: string = ''")
    .SetIsStateful()
    .SetShapeFn([](InferenceContext* c) {
      PartialTensorShape shape;
      SG_RETURN_IF_ERROR(c->GetAttr("shape", &shape));
      c->set_output(0, shape.dims() <= 0 ? PartialTensorShape() : shape);
      return absl::OkStatus();
    });

REGISTER_OP("IsVariableInitialized")
    .Input("ref: Ref(dtype)")
    .Output("is_initialized: bool")
    .Attr("dtype: type")
    .SetAllowsUninitializedInput()
    .SetShapeFn(shape_fns::Scalar);

REGISTER_OP("TemporaryVariable")
    .Output("ref: Ref(dtype)")
    .Attr("shape: shape")
    .Attr("dtype: type")
    .Attr("var_name: string = ''")
    .SetIsStateful()
    .SetShapeFn(ExplicitShape);

REGISTER_OP("DestroyTemporaryVariable")
    .Input("ref: Ref(T)")
    .Output("value: T")
    .Attr("T: type")
    .Attr("var_name: string")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Assign")
    .Input("ref: Ref(T)")
    .Input("value: T")
    .Output("output_ref: Ref(T)")
    .Attr("T: type")
    .Attr("validate_shape: bool = true")
    .Attr("use_locking: bool = true")
    .SetAllowsUninitializedInput()
    .SetShapeFn([](InferenceContext* c) {
      bool validate_shape;
      SG_RETURN_IF_ERROR(c->GetAttr("validate_shape", &validate_shape));
      if (validate_shape) return MergeBothInputs(c);
      c->set_output(0, c->input(1));
      return absl::OkStatus();
    });

REGISTER_OP("AssignAdd")
    .Input("ref: Ref(T)")
    .Input("value: T")
    .Output("output_ref: Ref(T)")
    .Attr("T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, "
          "qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}")
    .Attr("use_locking: bool = false")
    .SetShapeFn(MergeBothInputs);

REGISTER_OP("AssignSub")
    .Input("ref: Ref(T)")
    .Input("value: T")
    .Output("output_ref: Ref(T)")
    .Attr("T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, "
          "qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}")
    .Attr("use_locking: bool = false")
    .SetShapeFn(MergeBothInputs);

}  // namespace sg
