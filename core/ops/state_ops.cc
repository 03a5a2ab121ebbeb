// Reference variables (TensorFlow's state_ops): VariableV2 and the ops that read and update a
// variable through a reference input.
#include <vector>

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


// ScatterUpdate and friends: updates must be indices.shape + ref.shape[1:] (or a scalar); the
// output (the ref) has the shape of input 0. As TensorFlow's ScatterUpdateShape.
absl::Status ScatterUpdateShape(InferenceContext* c) {
  const PartialTensorShape& var = c->input(0);
  const PartialTensorShape& indices = c->input(1);
  const PartialTensorShape& updates = c->input(2);
  if (var.dims() == 0) {
    return c->Error("Shape must be at least rank 1 but is rank 0 for input 0");
  }
  if (updates.dims() != 0 && !var.unknown_rank() && !indices.unknown_rank()) {
    std::vector<int64_t> dims(indices.dim_sizes().begin(), indices.dim_sizes().end());
    for (int d = 1; d < var.dims(); ++d) dims.push_back(var.dim_size(d));
    if (!updates.IsCompatibleWith(PartialTensorShape(dims))) {
      return c->Error("updates shape ", updates.DebugString(), " must be indices.shape + ",
                      "ref.shape[1:] = ", PartialTensorShape(dims).DebugString(),
                      " or a scalar");
    }
  }
  c->set_output(0, var);
  return absl::OkStatus();
}

constexpr const char kScatterNumberTypes[] =
    "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, "
    "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}";
constexpr const char kScatterRealTypes[] = "T: {half, bfloat16, float, double, int32, int64}";

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

// Scatter<Op>(ref, indices, updates): for each i, ref[indices[i], ...] = (or +=, -=, *=, /=,
// min=, max=) updates[i, ...] (a scalar updates applies to every element of those rows), in the
// order of indices, as TensorFlow's state_ops. The output is the ref.
#define SG_REGISTER_SCATTER_REF(name, t_attr, locking) \
  REGISTER_OP(name)                                     \
      .Input("ref: Ref(T)")                             \
      .Input("indices: Tindices")                       \
      .Input("updates: T")                              \
      .Output("output_ref: Ref(T)")                     \
      .Attr(t_attr)                                     \
      .Attr("Tindices: {int32, int64}")                 \
      .Attr(locking)                                    \
      .SetShapeFn(ScatterUpdateShape)
SG_REGISTER_SCATTER_REF("ScatterUpdate", "T: type", "use_locking: bool = true");
SG_REGISTER_SCATTER_REF("ScatterAdd", kScatterNumberTypes, "use_locking: bool = false");
SG_REGISTER_SCATTER_REF("ScatterSub", kScatterNumberTypes, "use_locking: bool = false");
SG_REGISTER_SCATTER_REF("ScatterMul", kScatterNumberTypes, "use_locking: bool = false");
SG_REGISTER_SCATTER_REF("ScatterDiv", kScatterNumberTypes, "use_locking: bool = false");
SG_REGISTER_SCATTER_REF("ScatterMin", kScatterRealTypes, "use_locking: bool = false");
SG_REGISTER_SCATTER_REF("ScatterMax", kScatterRealTypes, "use_locking: bool = false");
#undef SG_REGISTER_SCATTER_REF

}  // namespace sg
