// Resource variables: VarHandleOp makes a handle; the other ops find the Var through it.
#include "core/framework/op.h"
#include "core/framework/shape_inference.h"

namespace sg {
namespace {

absl::Status NoOutputs(InferenceContext* c) { return absl::OkStatus(); }

// Input 0 must be a scalar handle.
absl::Status ScalarHandle(InferenceContext* c) {
  PartialTensorShape unused;
  return c->WithRank(0, 0, &unused);
}

constexpr const char kResourceScatterNumberTypes[] =
    "dtype: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, "
    "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}";

}  // namespace

REGISTER_OP("VarHandleOp")
    .Output("resource: resource")
    .Attr("container: string = ''")
    .Attr("shared_name: string = ''")
    .Attr("debug_name: string = ''")  // for TensorFlow's messages; sg names the node instead
    .Attr("dtype: type")
    .Attr("shape: shape")
    .Attr("allowed_devices: list(string) = []")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Scalar);

REGISTER_OP("ReadVariableOp")
    .Input("resource: resource")
    .Output("value: dtype")
    .Attr("dtype: type")
    .SetIsStateful()
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(ScalarHandle(c));
      c->set_output(0, PartialTensorShape());
      return absl::OkStatus();
    });

// The shape of a variable's value, as a vector (TensorFlow's gradients of resource gathers use
// it). Its length is not inferred: sg keeps no shapes on resource handles.
REGISTER_OP("VariableShape")
    .Input("input: resource")
    .Output("output: out_type")
    .Attr("out_type: {int32, int64} = DT_INT32")
    .SetIsStateful()
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(ScalarHandle(c));
      c->set_output(0, PartialTensorShape({-1}));
      return absl::OkStatus();
    });

REGISTER_OP("AssignVariableOp")
    .Input("resource: resource")
    .Input("value: dtype")
    .Attr("dtype: type")
    .Attr("validate_shape: bool = false")
    .SetIsStateful()
    .SetShapeFn(ScalarHandle);

REGISTER_OP("AssignAddVariableOp")
    .Input("resource: resource")
    .Input("value: dtype")
    .Attr("dtype: type")
    .SetIsStateful()
    .SetShapeFn(ScalarHandle);

REGISTER_OP("AssignSubVariableOp")
    .Input("resource: resource")
    .Input("value: dtype")
    .Attr("dtype: type")
    .SetIsStateful()
    .SetShapeFn(ScalarHandle);

REGISTER_OP("VarIsInitializedOp")
    .Input("resource: resource")
    .Output("is_initialized: bool")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Scalar);

REGISTER_OP("DestroyResourceOp")
    .Input("resource: resource")
    .Attr("ignore_lookup_error: bool = true")
    .SetIsStateful()
    .SetShapeFn(NoOutputs);

REGISTER_OP("ResourceGather")
    .Input("resource: resource")
    .Input("indices: Tindices")
    .Attr("batch_dims: int = 0")
    .Attr("validate_indices: bool = true")
    .Output("output: dtype")
    .Attr("dtype: type")
    .Attr("Tindices: {int32, int64}")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Unknown);

// DisableCopyOnRead(resource): TensorFlow's switch of a variable to reads that alias its buffer
// (TF 2 SavedModels' save functions call it); sg's reads always do, so its kernel does nothing.
REGISTER_OP("DisableCopyOnRead")
    .Input("resource: resource")
    .SetIsStateful()
    .SetShapeFn(NoOutputs);

// ResourceGatherNd(resource, indices): GatherNd on the variable's value.
REGISTER_OP("ResourceGatherNd")
    .Input("resource: resource")
    .Input("indices: Tindices")
    .Output("output: dtype")
    .Attr("dtype: type")
    .Attr("Tindices: {int32, int64}")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Unknown);

// ResourceScatter<Op>(resource, indices, updates): the ref ops' Scatter<Op> on a resource
// variable, no output. The variable's shape is not known here, so the kernel checks the shapes.
#define SG_REGISTER_RESOURCE_SCATTER(name, dtype_attr) \
  REGISTER_OP(name)                                    \
      .Input("resource: resource")                     \
      .Input("indices: Tindices")                      \
      .Input("updates: dtype")                         \
      .Attr(dtype_attr)                                \
      .Attr("Tindices: {int32, int64}")                \
      .SetIsStateful()                                 \
      .SetShapeFn(NoOutputs)
SG_REGISTER_RESOURCE_SCATTER("ResourceScatterUpdate", "dtype: type");
SG_REGISTER_RESOURCE_SCATTER("ResourceScatterAdd", kResourceScatterNumberTypes);
SG_REGISTER_RESOURCE_SCATTER("ResourceScatterSub", kResourceScatterNumberTypes);
SG_REGISTER_RESOURCE_SCATTER("ResourceScatterMul", kResourceScatterNumberTypes);
SG_REGISTER_RESOURCE_SCATTER("ResourceScatterDiv", kResourceScatterNumberTypes);
SG_REGISTER_RESOURCE_SCATTER("ResourceScatterMin", kResourceScatterNumberTypes);
SG_REGISTER_RESOURCE_SCATTER("ResourceScatterMax", kResourceScatterNumberTypes);
#undef SG_REGISTER_RESOURCE_SCATTER

}  // namespace sg
