// TensorArrays (the V3 family that tf.while_loop and dynamic_rnn graphs use).
//
// One deliberate difference from TensorFlow: TensorFlow's shape function says the handle of
// TensorArrayV3 is a vector of 2 while its kernel makes a scalar DT_RESOURCE; here the shape
// function says scalar, as the kernel makes, and the consumers accept a handle of either shape.
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
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(CheckHandle(c, 0));
      SG_RETURN_IF_ERROR(CheckScalar(c, 1));
      SG_RETURN_IF_ERROR(CheckScalar(c, 3));
      c->set_output(0, PartialTensorShape::Scalar());
      return absl::OkStatus();
    });

REGISTER_OP("TensorArrayReadV3")
    .Input("handle: resource")
    .Input("index: int32")
    .Input("flow_in: float")
    .Output("value: dtype")
    .Attr("dtype: type")
    .SetIsStateful()
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(CheckHandle(c, 0));
      SG_RETURN_IF_ERROR(CheckScalar(c, 1));
      SG_RETURN_IF_ERROR(CheckScalar(c, 2));
      c->set_output(0, PartialTensorShape());
      return absl::OkStatus();
    });

REGISTER_OP("TensorArrayGatherV3")
    .Input("handle: resource")
    .Input("indices: int32")
    .Input("flow_in: float")
    .Output("value: dtype")
    .Attr("dtype: type")
    .Attr("element_shape: shape = unknown")
    .SetIsStateful()
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(CheckHandle(c, 0));
      SG_RETURN_IF_ERROR(CheckVector(c, 1));
      SG_RETURN_IF_ERROR(CheckScalar(c, 2));
      PartialTensorShape element_shape;
      SG_RETURN_IF_ERROR(c->GetAttr("element_shape", &element_shape));
      c->set_output(0, PrependDim(c->input(1).dims() == 1 ? c->input(1).dim_size(0) : -1,
                                  element_shape));
      return absl::OkStatus();
    });

REGISTER_OP("TensorArrayScatterV3")
    .Input("handle: resource")
    .Input("indices: int32")
    .Input("value: T")
    .Input("flow_in: float")
    .Output("flow_out: float")
    .Attr("T: type")
    .SetIsStateful()
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(CheckHandle(c, 0));
      SG_RETURN_IF_ERROR(CheckVector(c, 1));
      SG_RETURN_IF_ERROR(CheckScalar(c, 3));
      c->set_output(0, PartialTensorShape::Scalar());
      return absl::OkStatus();
    });

REGISTER_OP("TensorArrayConcatV3")
    .Input("handle: resource")
    .Input("flow_in: float")
    .Output("value: dtype")
    .Output("lengths: int64")
    .Attr("dtype: type")
    .Attr("element_shape_except0: shape = unknown")
    .SetIsStateful()
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(CheckHandle(c, 0));
      SG_RETURN_IF_ERROR(CheckScalar(c, 1));
      c->set_output(0, PartialTensorShape());
      c->set_output(1, PartialTensorShape({-1}));
      return absl::OkStatus();
    });

REGISTER_OP("TensorArraySplitV3")
    .Input("handle: resource")
    .Input("value: T")
    .Input("lengths: int64")
    .Input("flow_in: float")
    .Output("flow_out: float")
    .Attr("T: type")
    .SetIsStateful()
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(CheckHandle(c, 0));
      SG_RETURN_IF_ERROR(CheckVector(c, 2));
      SG_RETURN_IF_ERROR(CheckScalar(c, 3));
      c->set_output(0, PartialTensorShape::Scalar());
      return absl::OkStatus();
    });

REGISTER_OP("TensorArraySizeV3")
    .Input("handle: resource")
    .Input("flow_in: float")
    .Output("size: int32")
    .SetIsStateful()
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(CheckHandle(c, 0));
      c->set_output(0, PartialTensorShape::Scalar());
      return absl::OkStatus();
    });

REGISTER_OP("TensorArrayCloseV3")
    .Input("handle: resource")
    .SetIsStateful()
    .SetShapeFn([](InferenceContext* c) { return CheckHandle(c, 0); });

}  // namespace sg
