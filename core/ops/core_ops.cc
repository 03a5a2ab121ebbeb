// Ops every graph uses: constants, placeholders, identities, NoOp, and the internal ops sessions
// and partitions insert (_Arg, _Retval, _Send, _Recv). Semantics as TensorFlow's ops of the same
// names.
#include "core/framework/op.h"
#include "core/framework/shape_inference.h"

namespace sg {
namespace {

absl::Status ShapeFromAttr(InferenceContext* c, const char* attr) {
  PartialTensorShape shape;
  if (c->GetAttr(attr, &shape).ok()) {
    c->set_output(0, shape);
  } else {
    c->set_output(0, PartialTensorShape());
  }
  return absl::OkStatus();
}

absl::Status ConstShape(InferenceContext* c) {
  const AttrValue* value;
  SG_RETURN_IF_ERROR(c->GetAttr("value", &value));
  if (value->value_case() != AttrValue::kTensor) return c->Error("attr 'value' is not a tensor");
  auto shape = TensorShape::FromProto(value->tensor().tensor_shape());
  if (!shape.ok()) return c->Error(shape.status().message());
  c->set_output(0, PartialTensorShape(*shape));
  return absl::OkStatus();
}

absl::Status IdentityNShape(InferenceContext* c) {
  for (int i = 0; i < c->num_outputs(); ++i) c->set_output(i, c->input(i));
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("Const")
    .Output("output: dtype")
    .Attr("value: tensor")
    .Attr("dtype: type")
    .SetShapeFn(ConstShape);

// A constant read from the start of the file memory_region_name (mapped, not copied).
REGISTER_OP("ImmutableConst")
    .Output("tensor: dtype")
    .Attr("dtype: type")
    .Attr("shape: shape")
    .Attr("memory_region_name: string")
    .SetShapeFn([](InferenceContext* c) { return ShapeFromAttr(c, "shape"); });

REGISTER_OP("Placeholder")
    .Output("output: dtype")
    .Attr("dtype: type")
    .Attr("shape: shape = unknown")
    .SetShapeFn([](InferenceContext* c) { return ShapeFromAttr(c, "shape"); });

REGISTER_OP("PlaceholderV2")
    .Output("output: dtype")
    .Attr("dtype: type")
    .Attr("shape: shape")
    .Deprecated(23, "use Placeholder, which has meant the same since")
    .SetShapeFn([](InferenceContext* c) { return ShapeFromAttr(c, "shape"); });

REGISTER_OP("PlaceholderWithDefault")
    .Input("input: dtype")
    .Output("output: dtype")
    .Attr("dtype: type")
    .Attr("shape: shape")
    .SetShapeFn([](InferenceContext* c) {
      PartialTensorShape shape;
      SG_RETURN_IF_ERROR(c->GetAttr("shape", &shape));
      if (!shape.IsCompatibleWith(c->input(0))) {
        return c->Error("default value of shape ", c->input(0).DebugString(),
                        " does not match the declared shape ", shape.DebugString());
      }
      c->set_output(0, shape);
      return absl::OkStatus();
    });

REGISTER_OP("Identity").Input("input: T").Output("output: T").Attr("T: type").SetShapeFn(
    shape_fns::Unchanged);
REGISTER_OP("RefIdentity")
    .Input("input: Ref(T)")
    .Output("output: Ref(T)")
    .Attr("T: type")
    .SetAllowsUninitializedInput()
    .SetShapeFn(shape_fns::Unchanged);
// Identities the gradient code marks (tfdbg watches them); they pass their input through.
REGISTER_OP("DebugGradientIdentity")
    .Input("input: T")
    .Output("output: T")
    .Attr("T: type")
    .SetAllowsUninitializedInput()
    .SetShapeFn(shape_fns::Unchanged);
REGISTER_OP("DebugGradientRefIdentity")
    .Input("input: Ref(T)")
    .Output("output: Ref(T)")
    .Attr("T: type")
    .SetAllowsUninitializedInput()
    .SetShapeFn(shape_fns::Unchanged);
REGISTER_OP("Snapshot").Input("input: T").Output("output: T").Attr("T: type").SetShapeFn(
    shape_fns::Unchanged);
REGISTER_OP("StopGradient").Input("input: T").Output("output: T").Attr("T: type").SetShapeFn(
    shape_fns::Unchanged);
REGISTER_OP("PreventGradient")
    .Input("input: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("message: string = ''")
    .SetShapeFn(shape_fns::Unchanged);
REGISTER_OP("CheckNumerics")
    .Input("tensor: T")
    .Output("output: T")
    .Attr("T: {bfloat16, half, float, double}")
    .Attr("message: string")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Unchanged);
// As CheckNumerics; the error tells +Inf from -Inf.
REGISTER_OP("CheckNumericsV2")
    .Input("tensor: T")
    .Output("output: T")
    .Attr("T: {bfloat16, half, float, double}")
    .Attr("message: string")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Unchanged);
REGISTER_OP("IdentityN")
    .Input("input: T")
    .Output("output: T")
    .Attr("T: list(type) >= 1")
    .SetShapeFn(IdentityNShape);
REGISTER_OP("NoOp").SetShapeFn(shape_fns::Unknown);

// The feeds and fetches of a step, as the session rewrites them.
REGISTER_OP("_Arg").Output("output: T").Attr("T: type").Attr("index: int >= 0").SetIsStateful();
REGISTER_OP("_Retval").Input("input: T").Attr("T: type").Attr("index: int >= 0").SetIsStateful();

// Cross-device transfer through the step's rendezvous. Send and Recv are the names TensorFlow's
// graphs may hold; _HostSend and _HostRecv the forms whose tensor stays in host memory (the same
// on a CPU).
#define SG_REGISTER_SEND(name)                          \
  REGISTER_OP(name)                                     \
      .Input("tensor: T")                               \
      .Attr("T: type")                                  \
      .Attr("tensor_name: string")                      \
      .Attr("send_device: string")                      \
      .Attr("send_device_incarnation: int")             \
      .Attr("recv_device: string")                      \
      .Attr("client_terminated: bool = false")          \
      .SetIsStateful()
#define SG_REGISTER_RECV(name)                          \
  REGISTER_OP(name)                                     \
      .Output("tensor: tensor_type")                    \
      .Attr("tensor_type: type")                        \
      .Attr("tensor_name: string")                      \
      .Attr("send_device: string")                      \
      .Attr("send_device_incarnation: int")             \
      .Attr("recv_device: string")                      \
      .Attr("client_terminated: bool = false")          \
      .SetIsStateful()                                  \
      .SetIsDistributedCommunication()                  \
      .SetShapeFn(shape_fns::Unknown)
SG_REGISTER_SEND("_Send");
SG_REGISTER_SEND("Send");
SG_REGISTER_SEND("_HostSend");
SG_REGISTER_RECV("_Recv");
SG_REGISTER_RECV("Recv");
SG_REGISTER_RECV("_HostRecv");
#undef SG_REGISTER_SEND
#undef SG_REGISTER_RECV

// The arguments and results of a function running on a device other than its caller's: the same
// as _Arg and _Retval here.
REGISTER_OP("_DeviceArg")
    .Output("output: T")
    .Attr("T: type")
    .Attr("index: int >= 0")
    .SetIsStateful();
REGISTER_OP("_DeviceRetval")
    .Input("input: T")
    .Attr("T: type")
    .Attr("index: int >= 0")
    .SetIsStateful();

// Regroupings of N tensors that TensorFlow's function instantiation inserts: the outputs are the
// inputs, one for one.
REGISTER_OP("_ArrayToList")
    .Input("input: N * T")
    .Output("output: out_types")
    .Attr("T: type")
    .Attr("N: int >= 1")
    .Attr("out_types: list(type) >= 1")
    .SetShapeFn(IdentityNShape);
// The dataset variant passed through (TensorFlow wraps it to carry it across function
// boundaries; sg passes the variant itself).
REGISTER_OP("WrapDatasetVariant")
    .Input("input_handle: variant")
    .Output("output_handle: variant")
    .SetShapeFn(shape_fns::Scalar);
REGISTER_OP("UnwrapDatasetVariant")
    .Input("input_handle: variant")
    .Output("output_handle: variant")
    .SetShapeFn(shape_fns::Scalar);
REGISTER_OP("_ListToArray")
    .Input("input: Tin")
    .Output("output: N * T")
    .Attr("Tin: list(type) >= 1")
    .Attr("T: type")
    .Attr("N: int >= 1")
    .SetShapeFn(IdentityNShape);

}  // namespace sg

namespace sg {
// Calls of a library function by attr; sessions inline the body before running.
REGISTER_OP("PartitionedCall")
    .Input("args: Tin")
    .Output("output: Tout")
    .Attr("Tin: list(type) >= 0")
    .Attr("Tout: list(type) >= 0")
    .Attr("f: func")
    .Attr("config: string = ''")
    .Attr("config_proto: string = ''")
    .Attr("executor_type: string = ''");
// A call of f on the device `target` names. sg inlines f where the call is placed (the
// target is computed, then unused): in one process every device is the same CPU.
REGISTER_OP("RemoteCall")
    .Input("target: string")
    .Input("args: Tin")
    .Output("output: Tout")
    .Attr("Tin: list(type) >= 1")
    .Attr("Tout: list(type) >= 1")
    .Attr("f: func")
    .SetIsStateful();
REGISTER_OP("StatefulPartitionedCall")
    .Input("args: Tin")
    .Output("output: Tout")
    .Attr("Tin: list(type) >= 0")
    .Attr("Tout: list(type) >= 0")
    .Attr("f: func")
    .Attr("config: string = ''")
    .Attr("config_proto: string = ''")
    .Attr("executor_type: string = ''")
    .SetIsStateful()
    .SetIsDistributedCommunication();
}  // namespace sg
