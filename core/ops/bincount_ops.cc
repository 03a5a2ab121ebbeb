// Bin counts (TensorFlow's math_ops): Bincount over a whole tensor, and SparseBincount and
// RaggedBincount over a sparse or ragged one (per row for a 2-d sparse tensor and for a ragged
// one). DenseBincount lives with the segment ops (segment_ops.cc).
#include <cstdint>

#include "core/framework/op.h"
#include "core/framework/shape_inference.h"

namespace sg {
namespace {

using Shape = PartialTensorShape;

// The known value of scalar input i; false when it is not a known constant.
bool ConstScalar(InferenceContext* c, int i, int64_t* v) {
  const Tensor* t = c->input_tensor(i);
  if (t == nullptr || t->NumElements() != 1) return false;
  *v = t->dtype() == DT_INT64 ? t->data<int64_t>()[0] : t->data<int32_t>()[0];
  return true;
}

// `size` (input i) must be a scalar >= 0; *size is -1 when its value is unknown.
absl::Status SizeInput(InferenceContext* c, int i, int64_t* size) {
  Shape unused;
  SG_RETURN_IF_ERROR(c->WithRank(i, 0, &unused));
  *size = -1;
  if (ConstScalar(c, i, size) && *size < 0) {
    return c->Error("size (", *size, ") must be non-negative");
  }
  return absl::OkStatus();
}

absl::Status BincountShape(InferenceContext* c) {
  int64_t size;
  SG_RETURN_IF_ERROR(SizeInput(c, 1, &size));
  c->set_output(0, Shape({size}));
  return absl::OkStatus();
}

absl::Status SparseBincountShape(InferenceContext* c) {
  int64_t size;
  SG_RETURN_IF_ERROR(SizeInput(c, 3, &size));
  const Tensor* dense_shape = c->input_tensor(2);
  if (dense_shape == nullptr) {
    c->set_output(0, Shape());
  } else if (dense_shape->NumElements() == 1) {
    c->set_output(0, Shape({size}));
  } else if (dense_shape->NumElements() == 2) {
    c->set_output(0, Shape({dense_shape->data<int64_t>()[0], size}));
  } else {
    return c->Error("Input must be less than rank 2");
  }
  return absl::OkStatus();
}

absl::Status RaggedBincountShape(InferenceContext* c) {
  int64_t size;
  SG_RETURN_IF_ERROR(SizeInput(c, 2, &size));
  Shape splits;
  SG_RETURN_IF_ERROR(c->WithRank(0, 1, &splits));
  const int64_t rows = splits.dim_size(0) > 0 ? splits.dim_size(0) - 1 : -1;
  c->set_output(0, Shape({rows, size}));
  return absl::OkStatus();
}

}  // namespace

// Counts (or sums the weights of) each value in [0, size) of `arr`, any shape; larger values are
// ignored, a negative one is an error. weights: arr's shape, or empty for all ones.
REGISTER_OP("Bincount")
    .Input("arr: int32")
    .Input("size: int32")
    .Input("weights: T")
    .Attr("T: {int32, int64, float32, float64}")
    .Output("bins: T")
    .SetShapeFn(BincountShape);

// As DenseBincount over the sparse tensor (indices, values, dense_shape): [size] for a 1-d one,
// [dense_shape[0], size] (a row per first index) for a 2-d one.
REGISTER_OP("SparseBincount")
    .Input("indices: int64")
    .Input("values: Tidx")
    .Input("dense_shape: int64")
    .Input("size: Tidx")
    .Input("weights: T")
    .Attr("Tidx: {int32, int64}")
    .Attr("T: {int32, int64, float32, float64}")
    .Attr("binary_output: bool = false")
    .Output("output: T")
    .SetShapeFn(SparseBincountShape);

// As DenseBincount per row of the ragged tensor (splits, values): [len(splits) - 1, size].
REGISTER_OP("RaggedBincount")
    .Input("splits: int64")
    .Input("values: Tidx")
    .Input("size: Tidx")
    .Input("weights: T")
    .Attr("Tidx: {int32, int64}")
    .Attr("T: {int32, int64, float32, float64}")
    .Attr("binary_output: bool = false")
    .Output("output: T")
    .SetShapeFn(RaggedBincountShape);

}  // namespace sg
