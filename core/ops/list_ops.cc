// The TensorList ops (TensorFlow's list_ops): a list is a scalar DT_VARIANT tensor holding a
// TensorList (core/kernels/tensor_list.h). The OpDefs are TensorFlow 2.21's, less the
// experimental_full_type annotations on the list outputs, which sg's OpDef does not carry.
//
// The shape functions know less than TensorFlow's: sg's shape inference has no handle data, so a
// list's element shape is not carried from the op that made it to the ops that read it. What an
// op reads comes from its own element_shape input or attr; anything else is unknown.
#include "core/framework/op.h"
#include "core/framework/shape_inference.h"

namespace sg {
namespace {

// The shape a shape input (int32/int64 vector, or the scalar -1 for "unknown rank") says, as
// far as it is known.
absl::Status ShapeFromShapeInput(InferenceContext* c, int i, PartialTensorShape* out) {
  const PartialTensorShape& in = c->input(i);
  if (!in.unknown_rank() && in.dims() > 1) {
    return c->Error("element_shape must be at most rank 1 but is ", in.DebugString());
  }
  const Tensor* t = c->input_tensor(i);
  if (t == nullptr) {
    if (in.dims() == 1 && in.dim_size(0) >= 0) {
      *out = PartialTensorShape(std::vector<int64_t>(in.dim_size(0), -1));
    } else {
      *out = PartialTensorShape();
    }
    return absl::OkStatus();
  }
  std::vector<int64_t> dims;
  for (int64_t k = 0; k < t->NumElements(); ++k) {
    const int64_t d = t->dtype() == DT_INT64 ? t->data<int64_t>()[k] : t->data<int32_t>()[k];
    if (d < -1) return c->Error("element_shape has dimension ", d, " (must be >= -1)");
    dims.push_back(d);
  }
  if (t->dims() == 0) {
    if (dims[0] != -1) {
      return c->Error("a scalar element_shape must be -1 (unknown rank), got ", dims[0]);
    }
    *out = PartialTensorShape();
    return absl::OkStatus();
  }
  *out = PartialTensorShape(dims);
  return absl::OkStatus();
}

// [n] + shape (n = -1 for unknown); unknown when `shape`'s rank is.
PartialTensorShape Prepend(int64_t n, const PartialTensorShape& shape) {
  if (shape.unknown_rank()) return PartialTensorShape();
  std::vector<int64_t> dims = {n};
  for (int64_t d : shape.dim_sizes()) dims.push_back(d);
  return PartialTensorShape(dims);
}

// `shape` without its first dim; unknown when the rank is unknown.
absl::StatusOr<PartialTensorShape> DropFirstDim(InferenceContext* c,
                                                const PartialTensorShape& shape) {
  if (shape.unknown_rank()) return PartialTensorShape();
  if (shape.dims() == 0) return c->Error("Concat requires elements to be at least vectors");
  return PartialTensorShape(shape.dim_sizes().subspan(1));
}

absl::Status CheckRank(InferenceContext* c, int i, int rank) {
  PartialTensorShape unused;
  return c->WithRank(i, rank, &unused);
}

absl::Status CheckRankAtLeast(InferenceContext* c, int i, int rank) {
  PartialTensorShape unused;
  return c->WithRankAtLeast(i, rank, &unused);
}

// A list-valued output: a scalar variant. `scalars` are inputs that must be scalars.
ShapeInferenceFn ListOutput(std::vector<int> scalars) {
  return [scalars](InferenceContext* c) -> absl::Status {
    for (int i : scalars) SG_RETURN_IF_ERROR(CheckRank(c, i, 0));
    c->set_output(0, PartialTensorShape::Scalar());
    return absl::OkStatus();
  };
}

// An op that reads one element: a list and an element_shape input `shape_input`.
absl::Status ElementFromShapeInput(InferenceContext* c, int shape_input, int output) {
  PartialTensorShape element_shape;
  SG_RETURN_IF_ERROR(ShapeFromShapeInput(c, shape_input, &element_shape));
  c->set_output(output, element_shape);
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("EmptyTensorList")
    .Input("element_shape: shape_type")
    .Input("max_num_elements: int32")
    .Output("handle: variant")
    .Attr("element_dtype: type")
    .Attr("shape_type: {int32, int64}")
    .SetShapeFn([](InferenceContext* c) {
      PartialTensorShape unused;
      SG_RETURN_IF_ERROR(ShapeFromShapeInput(c, 0, &unused));
      return ListOutput({1})(c);
    });

REGISTER_OP("TensorListReserve")
    .Input("element_shape: shape_type")
    .Input("num_elements: int32")
    .Output("handle: variant")
    .Attr("element_dtype: type")
    .Attr("shape_type: {int32, int64}")
    .SetShapeFn([](InferenceContext* c) {
      PartialTensorShape unused;
      SG_RETURN_IF_ERROR(ShapeFromShapeInput(c, 0, &unused));
      return ListOutput({1})(c);
    });

REGISTER_OP("TensorListFromTensor")
    .Input("tensor: element_dtype")
    .Input("element_shape: shape_type")
    .Output("output_handle: variant")
    .Attr("element_dtype: type")
    .Attr("shape_type: {int32, int64}")
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(CheckRankAtLeast(c, 0, 1));
      PartialTensorShape unused;
      SG_RETURN_IF_ERROR(ShapeFromShapeInput(c, 1, &unused));
      return ListOutput({})(c);
    });

REGISTER_OP("TensorListStack")
    .Input("input_handle: variant")
    .Input("element_shape: int32")
    .Output("tensor: element_dtype")
    .Attr("element_dtype: type")
    .Attr("num_elements: int = -1")
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(CheckRank(c, 0, 0));
      PartialTensorShape element_shape;
      SG_RETURN_IF_ERROR(ShapeFromShapeInput(c, 1, &element_shape));
      int64_t num_elements;
      SG_RETURN_IF_ERROR(c->GetAttr("num_elements", &num_elements));
      c->set_output(0, Prepend(num_elements < 0 ? -1 : num_elements, element_shape));
      return absl::OkStatus();
    });

REGISTER_OP("TensorListGetItem")
    .Input("input_handle: variant")
    .Input("index: int32")
    .Input("element_shape: Tshape")
    .Output("item: element_dtype")
    .Attr("element_dtype: type")
    .Attr("Tshape: {int32, int64} = DT_INT32")
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(CheckRank(c, 0, 0));
      return ElementFromShapeInput(c, 2, 0);
    });

REGISTER_OP("TensorListSetItem")
    .Input("input_handle: variant")
    .Input("index: int32")
    .Input("item: element_dtype")
    .Output("output_handle: variant")
    .Attr("element_dtype: type")
    .Attr("resize_if_index_out_of_bounds: bool = false")
    .SetShapeFn(ListOutput({0}));

REGISTER_OP("TensorListPushBack")
    .Input("input_handle: variant")
    .Input("tensor: element_dtype")
    .Output("output_handle: variant")
    .Attr("element_dtype: type")
    .SetShapeFn(ListOutput({0}));

REGISTER_OP("TensorListPushBackBatch")
    .Input("input_handles: variant")
    .Input("tensor: element_dtype")
    .Output("output_handles: variant")
    .Attr("element_dtype: type")
    .SetShapeFn([](InferenceContext* c) {
      PartialTensorShape handles;
      SG_RETURN_IF_ERROR(c->WithRank(0, 1, &handles));
      SG_RETURN_IF_ERROR(CheckRankAtLeast(c, 1, 1));
      c->set_output(0, handles);
      return absl::OkStatus();
    });

REGISTER_OP("TensorListPopBack")
    .Input("input_handle: variant")
    .Input("element_shape: int32")
    .Output("output_handle: variant")
    .Output("tensor: element_dtype")
    .Attr("element_dtype: type")
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(CheckRank(c, 0, 0));
      c->set_output(0, PartialTensorShape::Scalar());
      return ElementFromShapeInput(c, 1, 1);
    });

REGISTER_OP("TensorListLength")
    .Input("input_handle: variant")
    .Output("length: int32")
    .SetShapeFn(ListOutput({0}));

// TensorFlow says [?]; the kernel gives the scalar -1 for a list of unknown element rank, so
// here the shape is unknown.
REGISTER_OP("TensorListElementShape")
    .Input("input_handle: variant")
    .Output("element_shape: shape_type")
    .Attr("shape_type: {int32, int64}")
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(CheckRank(c, 0, 0));
      c->set_output(0, PartialTensorShape());
      return absl::OkStatus();
    });

REGISTER_OP("TensorListResize")
    .Input("input_handle: variant")
    .Input("size: int32")
    .Output("output_handle: variant")
    .SetShapeFn(ListOutput({0, 1}));

REGISTER_OP("TensorListGather")
    .Input("input_handle: variant")
    .Input("indices: int32")
    .Input("element_shape: int32")
    .Output("values: element_dtype")
    .Attr("element_dtype: type")
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(CheckRank(c, 0, 0));
      PartialTensorShape element_shape;
      SG_RETURN_IF_ERROR(ShapeFromShapeInput(c, 2, &element_shape));
      const PartialTensorShape& indices = c->input(1);
      c->set_output(0, Prepend(indices.dims() == 1 ? indices.dim_size(0) : -1, element_shape));
      return absl::OkStatus();
    });

REGISTER_OP("TensorListScatter")
    .Input("tensor: element_dtype")
    .Input("indices: int32")
    .Input("element_shape: shape_type")
    .Output("output_handle: variant")
    .Attr("element_dtype: type")
    .Attr("shape_type: {int32, int64}")
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(CheckRankAtLeast(c, 0, 1));
      SG_RETURN_IF_ERROR(CheckRank(c, 1, 1));
      return ListOutput({})(c);
    });

REGISTER_OP("TensorListScatterV2")
    .Input("tensor: element_dtype")
    .Input("indices: int32")
    .Input("element_shape: shape_type")
    .Input("num_elements: int32")
    .Output("output_handle: variant")
    .Attr("element_dtype: type")
    .Attr("shape_type: {int32, int64}")
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(CheckRankAtLeast(c, 0, 1));
      SG_RETURN_IF_ERROR(CheckRank(c, 1, 1));
      return ListOutput({3})(c);
    });

REGISTER_OP("TensorListScatterIntoExistingList")
    .Input("input_handle: variant")
    .Input("tensor: element_dtype")
    .Input("indices: int32")
    .Output("output_handle: variant")
    .Attr("element_dtype: type")
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(CheckRankAtLeast(c, 1, 1));
      SG_RETURN_IF_ERROR(CheckRank(c, 2, 1));
      return ListOutput({0})(c);
    });

REGISTER_OP("TensorListConcat")
    .Input("input_handle: variant")
    .Output("tensor: element_dtype")
    .Output("lengths: int64")
    .Attr("element_dtype: type")
    .Attr("element_shape: shape = unknown")
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(CheckRank(c, 0, 0));
      PartialTensorShape element_shape;
      SG_RETURN_IF_ERROR(c->GetAttr("element_shape", &element_shape));
      SG_ASSIGN_OR_RETURN(PartialTensorShape rest, DropFirstDim(c, element_shape));
      c->set_output(0, Prepend(-1, rest));
      c->set_output(1, PartialTensorShape({-1}));
      return absl::OkStatus();
    });

REGISTER_OP("TensorListConcatV2")
    .Input("input_handle: variant")
    .Input("element_shape: shape_type")
    .Input("leading_dims: int64")
    .Output("tensor: element_dtype")
    .Output("lengths: int64")
    .Attr("element_dtype: type")
    .Attr("shape_type: {int32, int64}")
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(CheckRank(c, 0, 0));
      SG_RETURN_IF_ERROR(CheckRank(c, 2, 1));
      PartialTensorShape element_shape;
      SG_RETURN_IF_ERROR(ShapeFromShapeInput(c, 1, &element_shape));
      SG_ASSIGN_OR_RETURN(PartialTensorShape rest, DropFirstDim(c, element_shape));
      c->set_output(0, Prepend(-1, rest));
      c->set_output(1, PartialTensorShape({-1}));
      return absl::OkStatus();
    });

REGISTER_OP("TensorListConcatLists")
    .Input("input_a: variant")
    .Input("input_b: variant")
    .Output("output: variant")
    .Attr("element_dtype: type")
    .SetShapeFn([](InferenceContext* c) {
      absl::StatusOr<PartialTensorShape> merged = c->input(0).Merge(c->input(1));
      if (!merged.ok()) {
        return c->Error("input_a and input_b must have the same shape, got ",
                        c->input(0).DebugString(), " and ", c->input(1).DebugString());
      }
      c->set_output(0, *merged);
      return absl::OkStatus();
    });

REGISTER_OP("TensorListSplit")
    .Input("tensor: element_dtype")
    .Input("element_shape: shape_type")
    .Input("lengths: int64")
    .Output("output_handle: variant")
    .Attr("element_dtype: type")
    .Attr("shape_type: {int32, int64}")
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(CheckRankAtLeast(c, 0, 1));
      SG_RETURN_IF_ERROR(CheckRank(c, 2, 1));
      PartialTensorShape unused;
      SG_RETURN_IF_ERROR(ShapeFromShapeInput(c, 1, &unused));
      return ListOutput({})(c);
    });

}  // namespace sg
