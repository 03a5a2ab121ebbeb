// TensorArrays (the V3 family that tf.while_loop and dynamic_rnn graphs use, and the older V2
// and first versions), the partition/stitch pair DynamicPartition, DynamicStitch and
// ParallelDynamicStitch, the queues (FIFOQueue, PaddingFIFOQueue and the ops on them), stacks and
// session tensors.
//
// One deliberate difference from TensorFlow: TensorFlow's shape function says the handle of
// TensorArrayV3 is a vector of 2 while its kernel makes a scalar DT_RESOURCE; here the shape
// function says scalar, as the kernel makes, and the consumers accept a handle of either shape.
#include <algorithm>
#include <vector>

#include "core/framework/op.h"
#include "core/framework/shape_inference.h"

namespace sg {
namespace {

absl::Status NoOutputs(InferenceContext* c) { return absl::OkStatus(); }

// The handle input: a scalar (what the kernel makes) or TensorFlow's [2].
absl::Status CheckHandle(InferenceContext* c, int i) {
  const PartialTensorShape& h = c->input(i);
  if (h.dims() > 1 || (h.dims() == 1 && h.dim_size(0) != -1 && h.dim_size(0) != 2)) {
    return c->Error("a TensorArray handle must be a scalar, got ", h.DebugString());
  }
  return absl::OkStatus();
}

absl::Status CheckScalar(InferenceContext* c, int i) {
  PartialTensorShape unused;
  return c->WithRank(i, 0, &unused);
}

absl::Status CheckVector(InferenceContext* c, int i) {
  PartialTensorShape unused;
  return c->WithRank(i, 1, &unused);
}

// [n] + element_shape, where n is the length of vector input `indices`; unknown when the
// element shape's rank is unknown.
PartialTensorShape PrependDim(int64_t n, const PartialTensorShape& element_shape) {
  if (element_shape.unknown_rank()) return PartialTensorShape();
  std::vector<int64_t> dims = {n};
  for (int64_t d : element_shape.dim_sizes()) dims.push_back(d);
  return PartialTensorShape(absl::Span<const int64_t>(dims));
}

// The TensorArray ops of every version (the handle a scalar or a vector of 2).
absl::Status TensorArrayWriteShape(InferenceContext* c) {
  SG_RETURN_IF_ERROR(CheckHandle(c, 0));
  SG_RETURN_IF_ERROR(CheckScalar(c, 1));
  SG_RETURN_IF_ERROR(CheckScalar(c, 3));
  c->set_output(0, PartialTensorShape::Scalar());
  return absl::OkStatus();
}

absl::Status TensorArrayReadShape(InferenceContext* c) {
  SG_RETURN_IF_ERROR(CheckHandle(c, 0));
  SG_RETURN_IF_ERROR(CheckScalar(c, 1));
  SG_RETURN_IF_ERROR(CheckScalar(c, 2));
  c->set_output(0, PartialTensorShape());
  return absl::OkStatus();
}

absl::Status TensorArrayGatherShape(InferenceContext* c) {
  SG_RETURN_IF_ERROR(CheckHandle(c, 0));
  SG_RETURN_IF_ERROR(CheckVector(c, 1));
  SG_RETURN_IF_ERROR(CheckScalar(c, 2));
  PartialTensorShape element_shape;
  SG_RETURN_IF_ERROR(c->GetAttr("element_shape", &element_shape));
  c->set_output(0, PrependDim(c->input(1).dims() == 1 ? c->input(1).dim_size(0) : -1,
                              element_shape));
  return absl::OkStatus();
}

absl::Status TensorArrayScatterShape(InferenceContext* c) {
  SG_RETURN_IF_ERROR(CheckHandle(c, 0));
  SG_RETURN_IF_ERROR(CheckVector(c, 1));
  SG_RETURN_IF_ERROR(CheckScalar(c, 3));
  c->set_output(0, PartialTensorShape::Scalar());
  return absl::OkStatus();
}

absl::Status TensorArrayConcatShape(InferenceContext* c) {
  SG_RETURN_IF_ERROR(CheckHandle(c, 0));
  SG_RETURN_IF_ERROR(CheckScalar(c, 1));
  c->set_output(0, PartialTensorShape());
  c->set_output(1, PartialTensorShape({-1}));
  return absl::OkStatus();
}

absl::Status TensorArraySplitShape(InferenceContext* c) {
  SG_RETURN_IF_ERROR(CheckHandle(c, 0));
  SG_RETURN_IF_ERROR(CheckVector(c, 2));
  SG_RETURN_IF_ERROR(CheckScalar(c, 3));
  c->set_output(0, PartialTensorShape::Scalar());
  return absl::OkStatus();
}

absl::Status TensorArraySizeShape(InferenceContext* c) {
  SG_RETURN_IF_ERROR(CheckHandle(c, 0));
  c->set_output(0, PartialTensorShape::Scalar());
  return absl::OkStatus();
}

absl::Status TensorArrayCloseShape(InferenceContext* c) { return CheckHandle(c, 0); }

// TensorArray and TensorArrayV2: the string handle only, no flow.
absl::Status OldTensorArrayShape(InferenceContext* c) {
  SG_RETURN_IF_ERROR(CheckScalar(c, 0));
  c->set_output(0, PartialTensorShape({2}));
  return absl::OkStatus();
}

// TensorArrayPack: [?] + element_shape.
absl::Status TensorArrayPackShape(InferenceContext* c) {
  SG_RETURN_IF_ERROR(CheckHandle(c, 0));
  SG_RETURN_IF_ERROR(CheckScalar(c, 1));
  PartialTensorShape element_shape;
  SG_RETURN_IF_ERROR(c->GetAttr("element_shape", &element_shape));
  c->set_output(0, PrependDim(-1, element_shape));
  return absl::OkStatus();
}

// TensorArrayUnpack: (handle, value, flow_in) -> flow_out.
absl::Status TensorArrayUnpackShape(InferenceContext* c) {
  SG_RETURN_IF_ERROR(CheckHandle(c, 0));
  SG_RETURN_IF_ERROR(CheckScalar(c, 2));
  c->set_output(0, PartialTensorShape::Scalar());
  return absl::OkStatus();
}

// DynamicPartition: output i is [?] + data.shape[partitions.rank:]; partitions' shape must
// start data's.
absl::Status DynamicPartitionShape(InferenceContext* c) {
  const PartialTensorShape& data = c->input(0);
  const PartialTensorShape& partitions = c->input(1);
  PartialTensorShape out;
  if (!partitions.unknown_rank() && !data.unknown_rank()) {
    bool prefix = data.dims() >= partitions.dims();
    for (int i = 0; prefix && i < partitions.dims(); ++i) {
      const int64_t a = data.dim_size(i), b = partitions.dim_size(i);
      prefix = a < 0 || b < 0 || a == b;
    }
    if (!prefix) {
      return c->Error("data.shape = ", data.DebugString(),
                      " must start with partitions.shape = ", partitions.DebugString());
    }
    std::vector<int64_t> dims = {-1};
    for (int i = partitions.dims(); i < data.dims(); ++i) dims.push_back(data.dim_size(i));
    out = PartialTensorShape(dims);
  }
  for (int i = 0; i < c->num_outputs(); ++i) c->set_output(i, out);
  return absl::OkStatus();
}

// (Parallel)DynamicStitch: [max index + 1] (when every indices input is a constant, else ?) +
// the element shape data[i].shape[indices[i].rank:], which must agree across i.
absl::Status DynamicStitchShape(InferenceContext* c) {
  const int n = c->num_inputs() / 2;
  bool all_constant = true;
  int64_t max_index = -1;
  PartialTensorShape element;
  for (int i = 0; i < n; ++i) {
    if (const Tensor* t = c->input_tensor(i); t != nullptr && t->dtype() == DT_INT32) {
      for (int64_t k = 0; k < t->NumElements(); ++k) {
        max_index = std::max<int64_t>(max_index, t->data<int32_t>()[k]);
      }
    } else {
      all_constant = false;
    }
    const PartialTensorShape& indices = c->input(i);
    const PartialTensorShape& data = c->input(n + i);
    if (indices.unknown_rank() || data.unknown_rank()) continue;
    bool prefix = data.dims() >= indices.dims();
    for (int d = 0; prefix && d < indices.dims(); ++d) {
      const int64_t a = data.dim_size(d), b = indices.dim_size(d);
      prefix = a < 0 || b < 0 || a == b;
    }
    if (!prefix) {
      return c->Error("data[", i, "].shape = ", data.DebugString(),
                      " does not start with indices[", i, "].shape = ", indices.DebugString());
    }
    std::vector<int64_t> rest;
    for (int d = indices.dims(); d < data.dims(); ++d) rest.push_back(data.dim_size(d));
    auto merged = element.Merge(PartialTensorShape(rest));
    if (!merged.ok()) {
      return c->Error("data[", i, "].shape[", indices.dims(), ":] = ",
                      PartialTensorShape(rest).DebugString(), " does not match the other inputs' ",
                      element.DebugString());
    }
    element = *merged;
  }
  if (element.unknown_rank()) {
    c->set_output(0, PartialTensorShape());
    return absl::OkStatus();
  }
  std::vector<int64_t> dims = {all_constant ? max_index + 1 : -1};
  for (int64_t d : element.dim_sizes()) dims.push_back(d);
  c->set_output(0, PartialTensorShape(dims));
  return absl::OkStatus();
}

// The old reference handles (FIFOQueue, Stack, TensorArray): a string vector [container, name].
absl::Status TwoElementOutput(InferenceContext* c) {
  c->set_output(0, PartialTensorShape({2}));
  return absl::OkStatus();
}

// Input `i` is an old string handle: a vector of 2 (when known).
absl::Status CheckStringHandle(InferenceContext* c, int i) {
  const PartialTensorShape& h = c->input(i);
  if (h.unknown_rank()) return absl::OkStatus();
  if (h.dims() != 1 || (h.dim_size(0) != -1 && h.dim_size(0) != 2)) {
    return c->Error("a handle must be a vector of 2 strings, got shape ", h.DebugString());
  }
  return absl::OkStatus();
}

// QueueDequeueMany and QueueDequeueUpTo: n (input 1), when constant, must be >= 0.
absl::Status DequeueManyShape(InferenceContext* c) {
  SG_RETURN_IF_ERROR(CheckScalar(c, 1));
  if (const Tensor* n = c->input_tensor(1); n != nullptr && n->dtype() == DT_INT32 &&
                                            n->NumElements() == 1 && n->data<int32_t>()[0] < 0) {
    return c->Error("Input 'n' must be >= 0, but is ", n->data<int32_t>()[0]);
  }
  return shape_fns::Unknown(c);
}

}  // namespace

REGISTER_OP("TensorArrayV3")
    .Input("size: int32")
    .Attr("dtype: type")
    .Attr("element_shape: shape = unknown")
    .Attr("dynamic_size: bool = false")
    .Attr("clear_after_read: bool = true")
    .Attr("identical_element_shapes: bool = false")
    .Attr("tensor_array_name: string = ''")
    .Output("handle: resource")
    .Output("flow: float")
    .SetIsStateful()
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(CheckScalar(c, 0));
      c->set_output(0, PartialTensorShape::Scalar());
      c->set_output(1, PartialTensorShape::Scalar());
      return absl::OkStatus();
    });

REGISTER_OP("TensorArrayWriteV3")
    .Input("handle: resource")
    .Input("index: int32")
    .Input("value: T")
    .Input("flow_in: float")
    .Output("flow_out: float")
    .Attr("T: type")
    .SetIsStateful()
    .SetShapeFn(TensorArrayWriteShape);

REGISTER_OP("TensorArrayReadV3")
    .Input("handle: resource")
    .Input("index: int32")
    .Input("flow_in: float")
    .Output("value: dtype")
    .Attr("dtype: type")
    .SetIsStateful()
    .SetShapeFn(TensorArrayReadShape);

REGISTER_OP("TensorArrayGatherV3")
    .Input("handle: resource")
    .Input("indices: int32")
    .Input("flow_in: float")
    .Output("value: dtype")
    .Attr("dtype: type")
    .Attr("element_shape: shape = unknown")
    .SetIsStateful()
    .SetShapeFn(TensorArrayGatherShape);

REGISTER_OP("TensorArrayScatterV3")
    .Input("handle: resource")
    .Input("indices: int32")
    .Input("value: T")
    .Input("flow_in: float")
    .Output("flow_out: float")
    .Attr("T: type")
    .SetIsStateful()
    .SetShapeFn(TensorArrayScatterShape);

REGISTER_OP("TensorArrayConcatV3")
    .Input("handle: resource")
    .Input("flow_in: float")
    .Output("value: dtype")
    .Output("lengths: int64")
    .Attr("dtype: type")
    .Attr("element_shape_except0: shape = unknown")
    .SetIsStateful()
    .SetShapeFn(TensorArrayConcatShape);

REGISTER_OP("TensorArraySplitV3")
    .Input("handle: resource")
    .Input("value: T")
    .Input("lengths: int64")
    .Input("flow_in: float")
    .Output("flow_out: float")
    .Attr("T: type")
    .SetIsStateful()
    .SetShapeFn(TensorArraySplitShape);

REGISTER_OP("TensorArraySizeV3")
    .Input("handle: resource")
    .Input("flow_in: float")
    .Output("size: int32")
    .SetIsStateful()
    .SetShapeFn(TensorArraySizeShape);

REGISTER_OP("TensorArrayCloseV3")
    .Input("handle: resource")
    .SetIsStateful()
    .SetShapeFn(TensorArrayCloseShape);

// The gradient TensorArray of a forward one for `source` (found or made): handle and flow out.
absl::Status TensorArrayGradShape(InferenceContext* c) {
  SG_RETURN_IF_ERROR(CheckHandle(c, 0));
  for (int i = 0; i < c->num_outputs(); ++i) {
    c->set_output(i, c->output_type(i) == DT_STRING ? PartialTensorShape({2})
                                                    : PartialTensorShape::Scalar());
  }
  return absl::OkStatus();
}

REGISTER_OP("TensorArrayGradV3")
    .Input("handle: resource")
    .Input("flow_in: float")
    .Output("grad_handle: resource")
    .Output("flow_out: float")
    .Attr("source: string")
    .SetIsStateful()
    .SetShapeFn(TensorArrayGradShape);

// As TensorArrayGradV3, with shape_to_prepend in front of each element's shape.
REGISTER_OP("TensorArrayGradWithShape")
    .Input("handle: resource")
    .Input("flow_in: float")
    .Input("shape_to_prepend: int32")
    .Output("grad_handle: resource")
    .Output("flow_out: float")
    .Attr("source: string")
    .SetIsStateful()
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(CheckVector(c, 2));
      return TensorArrayGradShape(c);
    });

REGISTER_OP("TensorArrayGradV2")
    .Input("handle: string")
    .Input("flow_in: float")
    .Output("grad_handle: string")
    .Attr("source: string")
    .SetIsStateful()
    .SetShapeFn(TensorArrayGradShape)
    .Deprecated(26, "Use TensorArrayGradV3");

REGISTER_OP("TensorArrayGrad")
    .Input("handle: string")
    .Input("flow_in: float")
    .Output("grad_handle: Ref(string)")
    .Attr("source: string")
    .SetIsStateful()
    .SetShapeFn(TensorArrayGradShape)
    .Deprecated(16, "Use TensorArrayGradV3");

// The older TensorArrays, run by the V3 kernels: the V2 ops take a string vector
// [container, name] as handle, the first ones a reference to it; TensorArrayV2 and TensorArray
// have no flow output. TensorArrayPack and TensorArrayUnpack gather and scatter every index.
REGISTER_OP("TensorArrayV2")
    .Input("size: int32")
    .Attr("dtype: type")
    .Attr("element_shape: shape = unknown")
    .Attr("dynamic_size: bool = false")
    .Attr("clear_after_read: bool = true")
    .Attr("tensor_array_name: string = ''")
    .Output("handle: string")
    .SetIsStateful()
    .SetShapeFn(OldTensorArrayShape)
    .Deprecated(26, "Use TensorArrayV3");

REGISTER_OP("TensorArrayWriteV2")
    .Input("handle: string")
    .Input("index: int32")
    .Input("value: T")
    .Input("flow_in: float")
    .Output("flow_out: float")
    .Attr("T: type")
    .SetShapeFn(TensorArrayWriteShape)
    .Deprecated(26, "Use TensorArrayWriteV3");

REGISTER_OP("TensorArrayReadV2")
    .Input("handle: string")
    .Input("index: int32")
    .Input("flow_in: float")
    .Output("value: dtype")
    .Attr("dtype: type")
    .SetShapeFn(TensorArrayReadShape)
    .Deprecated(26, "Use TensorArrayReadV3");

REGISTER_OP("TensorArrayGatherV2")
    .Input("handle: string")
    .Input("indices: int32")
    .Input("flow_in: float")
    .Output("value: dtype")
    .Attr("dtype: type")
    .Attr("element_shape: shape = unknown")
    .SetShapeFn(TensorArrayGatherShape)
    .Deprecated(26, "Use TensorArrayGatherV3");

REGISTER_OP("TensorArrayScatterV2")
    .Input("handle: string")
    .Input("indices: int32")
    .Input("value: T")
    .Input("flow_in: float")
    .Output("flow_out: float")
    .Attr("T: type")
    .SetShapeFn(TensorArrayScatterShape)
    .Deprecated(26, "Use TensorArrayScatterV3");

REGISTER_OP("TensorArrayConcatV2")
    .Input("handle: string")
    .Input("flow_in: float")
    .Output("value: dtype")
    .Output("lengths: int64")
    .Attr("dtype: type")
    .Attr("element_shape_except0: shape = unknown")
    .SetShapeFn(TensorArrayConcatShape);

REGISTER_OP("TensorArraySplitV2")
    .Input("handle: string")
    .Input("value: T")
    .Input("lengths: int64")
    .Input("flow_in: float")
    .Output("flow_out: float")
    .Attr("T: type")
    .SetShapeFn(TensorArraySplitShape)
    .Deprecated(26, "Use TensorArraySplitV3");

REGISTER_OP("TensorArraySizeV2")
    .Input("handle: string")
    .Input("flow_in: float")
    .Output("size: int32")
    .SetShapeFn(TensorArraySizeShape)
    .Deprecated(26, "Use TensorArraySizeV3");

REGISTER_OP("TensorArrayCloseV2")
    .Input("handle: string")
    .SetShapeFn(TensorArrayCloseShape)
    .Deprecated(26, "Use TensorArrayCloseV3");

REGISTER_OP("TensorArray")
    .Input("size: int32")
    .Attr("dtype: type")
    .Attr("dynamic_size: bool = false")
    .Attr("clear_after_read: bool = true")
    .Attr("tensor_array_name: string = ''")
    .Attr("element_shape: shape = unknown")
    .Output("handle: Ref(string)")
    .SetIsStateful()
    .SetShapeFn(OldTensorArrayShape)
    .Deprecated(16, "Use TensorArrayV3");

REGISTER_OP("TensorArrayWrite")
    .Input("handle: Ref(string)")
    .Input("index: int32")
    .Input("value: T")
    .Input("flow_in: float")
    .Output("flow_out: float")
    .Attr("T: type")
    .SetShapeFn(TensorArrayWriteShape)
    .Deprecated(16, "Use TensorArrayWriteV3");

REGISTER_OP("TensorArrayRead")
    .Input("handle: Ref(string)")
    .Input("index: int32")
    .Input("flow_in: float")
    .Output("value: dtype")
    .Attr("dtype: type")
    .SetShapeFn(TensorArrayReadShape)
    .Deprecated(16, "Use TensorArrayReadV3");

REGISTER_OP("TensorArrayGather")
    .Input("handle: Ref(string)")
    .Input("indices: int32")
    .Input("flow_in: float")
    .Output("value: dtype")
    .Attr("dtype: type")
    .Attr("element_shape: shape = unknown")
    .SetShapeFn(TensorArrayGatherShape)
    .Deprecated(16, "Use TensorArrayGatherV3");

REGISTER_OP("TensorArrayScatter")
    .Input("handle: Ref(string)")
    .Input("indices: int32")
    .Input("value: T")
    .Input("flow_in: float")
    .Output("flow_out: float")
    .Attr("T: type")
    .SetShapeFn(TensorArrayScatterShape)
    .Deprecated(19, "Use TensorArrayGradV3");

REGISTER_OP("TensorArrayConcat")
    .Input("handle: Ref(string)")
    .Input("flow_in: float")
    .Output("value: dtype")
    .Output("lengths: int64")
    .Attr("dtype: type")
    .Attr("element_shape_except0: shape = unknown")
    .SetShapeFn(TensorArrayConcatShape)
    .Deprecated(16, "Use TensorArrayGradV3");

REGISTER_OP("TensorArraySplit")
    .Input("handle: Ref(string)")
    .Input("value: T")
    .Input("lengths: int64")
    .Input("flow_in: float")
    .Output("flow_out: float")
    .Attr("T: type")
    .SetShapeFn(TensorArraySplitShape)
    .Deprecated(16, "Use TensorArraySplitV3");

REGISTER_OP("TensorArraySize")
    .Input("handle: Ref(string)")
    .Input("flow_in: float")
    .Output("size: int32")
    .SetShapeFn(TensorArraySizeShape)
    .Deprecated(16, "Use TensorArraySizeV3");

REGISTER_OP("TensorArrayClose")
    .Input("handle: Ref(string)")
    .SetShapeFn(TensorArrayCloseShape)
    .Deprecated(16, "Use TensorArrayCloseV3");

REGISTER_OP("TensorArrayPack")
    .Input("handle: Ref(string)")
    .Input("flow_in: float")
    .Output("value: dtype")
    .Attr("dtype: type")
    .Attr("element_shape: shape = unknown")
    .SetShapeFn(TensorArrayPackShape)
    .Deprecated(16, "Use TensorArrayGatherV3 with RangeOp");

REGISTER_OP("TensorArrayUnpack")
    .Input("handle: Ref(string)")
    .Input("value: T")
    .Input("flow_in: float")
    .Output("flow_out: float")
    .Attr("T: type")
    .SetShapeFn(TensorArrayUnpackShape)
    .Deprecated(20, "Use TensorArrayScatterV3 with RangeOp");

// Splits the rows of data (indexed by partitions' dims) into num_partitions outputs: output i
// holds, in order, the rows whose partitions value is i. A value outside [0, num_partitions) is
// INVALID_ARGUMENT.
REGISTER_OP("DynamicPartition")
    .Input("data: T")
    .Input("partitions: int32")
    .Output("outputs: num_partitions * T")
    .Attr("num_partitions: int >= 1")
    .Attr("T: type")
    .SetShapeFn(DynamicPartitionShape);

// merged[indices[i][j...], ...] = data[i][j..., ...], i and j in order (a later duplicate wins);
// merged has max(indices) + 1 rows and rows no index names are zero. A negative index is
// INVALID_ARGUMENT. ParallelDynamicStitch computes the same (duplicates in any order).
REGISTER_OP("DynamicStitch")
    .Input("indices: N * int32")
    .Input("data: N * T")
    .Output("merged: T")
    .Attr("N: int >= 1")
    .Attr("T: type")
    .SetShapeFn(DynamicStitchShape);

REGISTER_OP("ParallelDynamicStitch")
    .Input("indices: N * int32")
    .Input("data: N * T")
    .Output("merged: T")
    .Attr("N: int >= 1")
    .Attr("T: type")
    .SetShapeFn(DynamicStitchShape);

// ---- queues -----------------------------------------------------------------------------
// A queue of tuples (one tensor per component, of the component_types), in the device's
// resources: it outlives steps, so a dequeue on an empty queue waits for an enqueue of another
// step (or fails with OUT_OF_RANGE once the queue is closed). The V2 ops take a DT_RESOURCE
// handle, the old ones a reference to a string vector [container, name].

#define SG_QUEUE_ATTRS                          \
  Attr("component_types: list(type) >= 1")      \
      .Attr("shapes: list(shape) >= 0 = []")    \
      .Attr("capacity: int = -1")               \
      .Attr("container: string = ''")           \
      .Attr("shared_name: string = ''")         \
      .SetIsStateful()

REGISTER_OP("FIFOQueueV2")
    .Output("handle: resource")
    .SG_QUEUE_ATTRS
    .SetShapeFn(shape_fns::Scalar);

REGISTER_OP("FIFOQueue")
    .Output("handle: Ref(string)")
    .SG_QUEUE_ATTRS
    .SetShapeFn(TwoElementOutput);

// As FIFOQueue; every component's shape is given, with unknown dims allowed, and DequeueMany
// pads each component to the largest shape of the batch (zeros, empty strings).
REGISTER_OP("PaddingFIFOQueueV2")
    .Output("handle: resource")
    .SG_QUEUE_ATTRS
    .SetShapeFn(shape_fns::Scalar);

REGISTER_OP("PaddingFIFOQueue")
    .Output("handle: Ref(string)")
    .SG_QUEUE_ATTRS
    .SetShapeFn(TwoElementOutput);

#undef SG_QUEUE_ATTRS

// The resource handle of a queue as an old string handle, for the old ops.
REGISTER_OP("FakeQueue")
    .Input("resource: resource")
    .Output("handle: Ref(string)")
    .SetIsStateful()
    .SetShapeFn(TwoElementOutput);

REGISTER_OP("QueueEnqueueV2")
    .Input("handle: resource")
    .Input("components: Tcomponents")
    .Attr("Tcomponents: list(type) >= 1")
    .Attr("timeout_ms: int = -1")
    .SetIsStateful()
    .SetShapeFn(NoOutputs);

REGISTER_OP("QueueEnqueue")
    .Input("handle: Ref(string)")
    .Input("components: Tcomponents")
    .Attr("Tcomponents: list(type) >= 1")
    .Attr("timeout_ms: int = -1")
    .SetShapeFn([](InferenceContext* c) { return CheckStringHandle(c, 0); });

// Each component's dim 0 indexes the elements to enqueue.
REGISTER_OP("QueueEnqueueManyV2")
    .Input("handle: resource")
    .Input("components: Tcomponents")
    .Attr("Tcomponents: list(type) >= 1")
    .Attr("timeout_ms: int = -1")
    .SetIsStateful()
    .SetShapeFn(NoOutputs);

REGISTER_OP("QueueEnqueueMany")
    .Input("handle: Ref(string)")
    .Input("components: Tcomponents")
    .Attr("Tcomponents: list(type) >= 1")
    .Attr("timeout_ms: int = -1")
    .SetShapeFn([](InferenceContext* c) { return CheckStringHandle(c, 0); });

REGISTER_OP("QueueDequeueV2")
    .Input("handle: resource")
    .Output("components: component_types")
    .Attr("component_types: list(type) >= 1")
    .Attr("timeout_ms: int = -1")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Unknown);

REGISTER_OP("QueueDequeue")
    .Input("handle: Ref(string)")
    .Output("components: component_types")
    .Attr("component_types: list(type) >= 1")
    .Attr("timeout_ms: int = -1")
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(CheckStringHandle(c, 0));
      return shape_fns::Unknown(c);
    });

// n elements, stacked along a new dim 0; OUT_OF_RANGE when the queue is closed with fewer.
REGISTER_OP("QueueDequeueManyV2")
    .Input("handle: resource")
    .Input("n: int32")
    .Output("components: component_types")
    .Attr("component_types: list(type) >= 1")
    .Attr("timeout_ms: int = -1")
    .SetIsStateful()
    .SetShapeFn(DequeueManyShape);

REGISTER_OP("QueueDequeueMany")
    .Input("handle: Ref(string)")
    .Input("n: int32")
    .Output("components: component_types")
    .Attr("component_types: list(type) >= 1")
    .Attr("timeout_ms: int = -1")
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(CheckStringHandle(c, 0));
      return DequeueManyShape(c);
    });

// As QueueDequeueMany, but a closed queue gives what it still holds (at least one element).
REGISTER_OP("QueueDequeueUpToV2")
    .Input("handle: resource")
    .Input("n: int32")
    .Output("components: component_types")
    .Attr("component_types: list(type) >= 1")
    .Attr("timeout_ms: int = -1")
    .SetIsStateful()
    .SetShapeFn(DequeueManyShape);

REGISTER_OP("QueueDequeueUpTo")
    .Input("handle: Ref(string)")
    .Input("n: int32")
    .Output("components: component_types")
    .Attr("component_types: list(type) >= 1")
    .Attr("timeout_ms: int = -1")
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(CheckStringHandle(c, 0));
      return DequeueManyShape(c);
    });

// Closes the queue: later enqueues fail with CANCELLED, dequeues drain what is left. Without
// cancel_pending_enqueues the close waits behind the enqueues already waiting for room.
REGISTER_OP("QueueCloseV2")
    .Input("handle: resource")
    .Attr("cancel_pending_enqueues: bool = false")
    .SetIsStateful()
    .SetShapeFn(NoOutputs);

REGISTER_OP("QueueClose")
    .Input("handle: Ref(string)")
    .Attr("cancel_pending_enqueues: bool = false")
    .SetShapeFn([](InferenceContext* c) { return CheckStringHandle(c, 0); });

REGISTER_OP("QueueSizeV2")
    .Input("handle: resource")
    .Output("size: int32")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Scalar);

REGISTER_OP("QueueSize")
    .Input("handle: Ref(string)")
    .Output("size: int32")
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(CheckStringHandle(c, 0));
      return shape_fns::Scalar(c);
    });

REGISTER_OP("QueueIsClosedV2")
    .Input("handle: resource")
    .Output("is_closed: bool")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Scalar);

REGISTER_OP("QueueIsClosed")
    .Input("handle: Ref(string)")
    .Output("is_closed: bool")
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(CheckStringHandle(c, 0));
      return shape_fns::Scalar(c);
    });

// ---- stacks -----------------------------------------------------------------------------
// A per-step stack of tensors of elem_type (TensorFlow 1.x's while-loop gradients keep forward
// values on them). StackV2 takes max_size (negative: no limit) and gives a DT_RESOURCE handle;
// Stack gives a reference to a string vector [container, name].

REGISTER_OP("StackV2")
    .Input("max_size: int32")
    .Output("handle: resource")
    .Attr("elem_type: type")
    .Attr("stack_name: string = ''")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Scalar);

// Pushes elem and outputs it.
REGISTER_OP("StackPushV2")
    .Input("handle: resource")
    .Input("elem: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("swap_memory: bool = false")
    .SetIsStateful()
    .SetShapeFn([](InferenceContext* c) {
      c->set_output(0, c->input(1));
      return absl::OkStatus();
    });

REGISTER_OP("StackPopV2")
    .Input("handle: resource")
    .Output("elem: elem_type")
    .Attr("elem_type: type")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Unknown);

REGISTER_OP("StackCloseV2")
    .Input("handle: resource")
    .SetIsStateful()
    .SetShapeFn(NoOutputs);

REGISTER_OP("Stack")
    .Output("handle: Ref(string)")
    .Attr("elem_type: type")
    .Attr("stack_name: string = ''")
    .SetIsStateful()
    .SetShapeFn(TwoElementOutput);

REGISTER_OP("StackPush")
    .Input("handle: Ref(string)")
    .Input("elem: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("swap_memory: bool = false")
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(CheckStringHandle(c, 0));
      c->set_output(0, c->input(1));
      return absl::OkStatus();
    });

REGISTER_OP("StackPop")
    .Input("handle: Ref(string)")
    .Output("elem: elem_type")
    .Attr("elem_type: type")
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(CheckStringHandle(c, 0));
      return shape_fns::Unknown(c);
    });

REGISTER_OP("StackClose")
    .Input("handle: Ref(string)")
    .SetShapeFn([](InferenceContext* c) { return CheckStringHandle(c, 0); });

// ---- session tensors ----------------------------------------------------------------------
// A tensor kept by the session for later runs, named by a handle string (core/kernels/
// session_ops.cc).

REGISTER_OP("GetSessionHandle")
    .Input("value: T")
    .Output("handle: string")
    .Attr("T: type")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Scalar);

REGISTER_OP("GetSessionHandleV2")
    .Input("value: T")
    .Output("handle: resource")
    .Attr("T: type")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Scalar);

REGISTER_OP("GetSessionTensor")
    .Input("handle: string")
    .Output("value: dtype")
    .Attr("dtype: type")
    .SetIsStateful()
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(CheckScalar(c, 0));
      return shape_fns::Unknown(c);
    });

REGISTER_OP("DeleteSessionTensor")
    .Input("handle: string")
    .SetIsStateful()
    .SetShapeFn([](InferenceContext* c) { return CheckScalar(c, 0); });

}  // namespace sg
