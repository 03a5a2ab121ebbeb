// Sparse tensor ops (TensorFlow's sparse_ops): SparseToDense, SparseReshape and
// SparseFillEmptyRows. A sparse tensor is an int64 matrix of indices [N, rank], a vector of N
// values and an int64 vector dense_shape [rank].
#include <cstdint>
#include <vector>

#include "core/framework/op.h"
#include "core/framework/shape_inference.h"

namespace sg {
namespace {

using Shape = PartialTensorShape;

// Dim `d` of `s`, -1 when the rank or the dim is unknown.
int64_t DimOf(const Shape& s, int d) { return s.unknown_rank() ? -1 : s.dim_size(d); }

// Two dims that must agree: the known one of the two, or an error when both are known and differ.
absl::Status MergeDim(InferenceContext* c, int64_t a, int64_t b, int64_t* out,
                      const char* what) {
  if (a >= 0 && b >= 0 && a != b) {
    return c->Error(what, ": dimensions must be equal, but are ", a, " and ", b);
  }
  *out = a >= 0 ? a : b;
  return absl::OkStatus();
}

absl::Status SparseToDenseShape(InferenceContext* c) {
  Shape unused;
  SG_RETURN_IF_ERROR(c->WithRank(1, 1, &unused));
  c->set_output(0, c->InputAsShape(1));
  return absl::OkStatus();
}

absl::Status SparseReshapeShape(InferenceContext* c) {
  Shape indices, shape, new_shape;
  SG_RETURN_IF_ERROR(c->WithRank(0, 2, &indices));
  SG_RETURN_IF_ERROR(c->WithRank(1, 1, &shape));
  SG_RETURN_IF_ERROR(c->WithRank(2, 1, &new_shape));
  c->set_output(0, Shape({DimOf(indices, 0), DimOf(new_shape, 0)}));
  c->set_output(1, new_shape);
  return absl::OkStatus();
}

absl::Status SparseFillEmptyRowsShape(InferenceContext* c) {
  Shape indices, values, dense_shape, default_value;
  SG_RETURN_IF_ERROR(c->WithRank(0, 2, &indices));
  SG_RETURN_IF_ERROR(c->WithRank(1, 1, &values));
  SG_RETURN_IF_ERROR(c->WithRank(2, 1, &dense_shape));
  SG_RETURN_IF_ERROR(c->WithRank(3, 0, &default_value));
  int64_t n, rank;
  SG_RETURN_IF_ERROR(MergeDim(c, DimOf(indices, 0), DimOf(values, 0), &n, "indices and values"));
  SG_RETURN_IF_ERROR(
      MergeDim(c, DimOf(indices, 1), DimOf(dense_shape, 0), &rank, "indices and dense_shape"));
  if (rank == 0) return c->Error("dense_shape must not be empty");
  const Shape dense = c->InputAsShape(2);
  const int64_t rows = dense.unknown_rank() || dense.dims() == 0 ? -1 : dense.dim_size(0);
  c->set_output(0, Shape({-1, rank}));
  c->set_output(1, Shape({-1}));
  c->set_output(2, Shape({rows}));
  c->set_output(3, Shape({n}));
  return absl::OkStatus();
}

}  // namespace

// A dense tensor of shape output_shape holding default_value, with sparse_values (one per index,
// or a scalar for all) written at sparse_indices (a scalar, a vector of 1-d indices, or a
// [N, rank] matrix). validate_indices: indices must be in bounds, sorted and unique.
REGISTER_OP("SparseToDense")
    .Input("sparse_indices: Tindices")
    .Input("output_shape: Tindices")
    .Input("sparse_values: T")
    .Input("default_value: T")
    .Attr("validate_indices: bool = true")
    .Attr("T: type")
    .Attr("Tindices: {int32, int64}")
    .Output("dense: T")
    .SetShapeFn(SparseToDenseShape);

// The indices of a sparse tensor of shape input_shape, reshaped to new_shape (one dim may be -1:
// inferred), and the new shape with that dim filled in.
REGISTER_OP("SparseReshape")
    .Input("input_indices: int64")
    .Input("input_shape: int64")
    .Input("new_shape: int64")
    .Output("output_indices: int64")
    .Output("output_shape: int64")
    .SetShapeFn(SparseReshapeShape);

// The sparse tensor with one entry [row, 0, ...] = default_value added for each empty row,
// entries grouped by row; which rows were empty, and where each input entry went.
REGISTER_OP("SparseFillEmptyRows")
    .Input("indices: int64")
    .Input("values: T")
    .Input("dense_shape: int64")
    .Input("default_value: T")
    .Output("output_indices: int64")
    .Output("output_values: T")
    .Output("empty_row_indicator: bool")
    .Output("reverse_index_map: int64")
    .Attr("T: type")
    .SetShapeFn(SparseFillEmptyRowsShape);

// The gradient of SparseFillEmptyRows' values: d_values [N] and a scalar d_default_value.
REGISTER_OP("SparseFillEmptyRowsGrad")
    .Input("reverse_index_map: int64")
    .Input("grad_values: T")
    .Output("d_values: T")
    .Output("d_default_value: T")
    .Attr("T: type")
    .SetShapeFn([](InferenceContext* c) {
      PartialTensorShape map, grad;
      SG_RETURN_IF_ERROR(c->WithRank(0, 1, &map));
      SG_RETURN_IF_ERROR(c->WithRank(1, 1, &grad));
      c->set_output(0, map);
      c->set_output(1, PartialTensorShape({}));
      return absl::OkStatus();
    });

}  // namespace sg
