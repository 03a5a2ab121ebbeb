// Ragged ops that build, gather and convert ragged tensors (TensorFlow's ragged_math_ops,
// ragged_array_ops and ragged_conversion_ops): RaggedRange, RaggedGather, RaggedTensorToSparse.
// A ragged tensor is given as its row splits, outermost first, and its flat values.
#include <cstdint>
#include <vector>

#include "core/framework/op.h"
#include "core/framework/shape_inference.h"

namespace sg {
namespace {

using Shape = PartialTensorShape;

absl::Status RaggedRangeShape(InferenceContext* c) {
  int64_t rows = 1;
  for (int i = 0; i < 3; ++i) {
    const Shape& s = c->input(i);
    if (s.unknown_rank()) {
      rows = -1;
      continue;
    }
    if (s.dims() > 1) return c->Error("Shape must be at most rank 1 but is rank ", s.dims());
    if (s.dims() == 1 && rows == 1) rows = s.dim_size(0);
  }
  c->set_output(0, Shape({rows < 0 ? -1 : rows + 1}));
  c->set_output(1, Shape({-1}));
  return absl::OkStatus();
}

absl::Status RaggedGatherShape(InferenceContext* c) {
  int64_t params_rank, output_rank;
  SG_RETURN_IF_ERROR(c->GetAttr("PARAMS_RAGGED_RANK", &params_rank));
  SG_RETURN_IF_ERROR(c->GetAttr("OUTPUT_RAGGED_RANK", &output_rank));
  const Shape& indices = c->input(static_cast<int>(params_rank) + 1);
  if (!indices.unknown_rank() && indices.dims() + params_rank - 1 != output_rank) {
    return c->Error("expected OUTPUT_RAGGED_RANK = ", indices.dims() + params_rank - 1,
                    " (indices.rank + PARAMS_RAGGED_RANK - 1), got ", output_rank);
  }
  for (int64_t i = 0; i < params_rank; ++i) {
    Shape unused;
    SG_RETURN_IF_ERROR(c->WithRank(static_cast<int>(i), 1, &unused));
  }
  Shape values;
  SG_RETURN_IF_ERROR(c->WithRankAtLeast(static_cast<int>(params_rank), 1, &values));
  for (int64_t i = 0; i < output_rank; ++i) c->set_output(static_cast<int>(i), Shape({-1}));
  std::vector<int64_t> dims = {-1};
  if (values.unknown_rank()) {
    c->set_output(static_cast<int>(output_rank), Shape());
    return absl::OkStatus();
  }
  for (int d = 1; d < values.dims(); ++d) dims.push_back(values.dim_size(d));
  c->set_output(static_cast<int>(output_rank), Shape(dims));
  return absl::OkStatus();
}

absl::Status RaggedTensorToSparseShape(InferenceContext* c) {
  int64_t ragged_rank;
  SG_RETURN_IF_ERROR(c->GetAttr("RAGGED_RANK", &ragged_rank));
  for (int64_t i = 0; i < ragged_rank; ++i) {
    Shape unused;
    SG_RETURN_IF_ERROR(c->WithRank(static_cast<int>(i), 1, &unused));
  }
  Shape values;
  SG_RETURN_IF_ERROR(c->WithRankAtLeast(static_cast<int>(ragged_rank), 1, &values));
  const int64_t rank = values.unknown_rank() ? -1 : ragged_rank + values.dims();
  c->set_output(0, Shape({-1, rank}));
  c->set_output(1, Shape({-1}));
  c->set_output(2, Shape({rank}));
  return absl::OkStatus();
}

}  // namespace

// Row i of the result is range(starts[i], limits[i], deltas[i]); a scalar argument stands for
// every row (a single row when all three are scalars).
REGISTER_OP("RaggedRange")
    .Input("starts: T")
    .Input("limits: T")
    .Input("deltas: T")
    .Output("rt_nested_splits: Tsplits")
    .Output("rt_dense_values: T")
    .Attr("T: {bfloat16, float, double, int32, int64} = DT_INT32")
    .Attr("Tsplits: {int32, int64} = DT_INT64")
    .SetShapeFn(RaggedRangeShape);

// params[indices] for a ragged params (gathering its outermost rows); indices of rank k > 1 add
// k - 1 uniform outer ragged dimensions.
REGISTER_OP("RaggedGather")
    .Input("params_nested_splits: PARAMS_RAGGED_RANK * Tsplits")
    .Input("params_dense_values: Tvalues")
    .Input("indices: Tindices")
    .Output("output_nested_splits: OUTPUT_RAGGED_RANK * Tsplits")
    .Output("output_dense_values: Tvalues")
    .Attr("Tvalues: type")
    .Attr("Tindices: {int32, int64}")
    .Attr("Tsplits: {int32, int64} = DT_INT64")
    .Attr("PARAMS_RAGGED_RANK: int >= 1")
    .Attr("OUTPUT_RAGGED_RANK: int >= 0")
    .SetShapeFn(RaggedGatherShape);

// The sparse tensor (indices, values, dense_shape) holding a ragged tensor's values at their
// places; the dense shape is the ragged tensor's bounding box.
REGISTER_OP("RaggedTensorToSparse")
    .Input("rt_nested_splits: RAGGED_RANK * Tsplits")
    .Input("rt_dense_values: T")
    .Output("sparse_indices: int64")
    .Output("sparse_values: T")
    .Output("sparse_dense_shape: int64")
    .Attr("RAGGED_RANK: int >= 1")
    .Attr("T: type")
    .Attr("Tsplits: {int32, int64} = DT_INT64")
    .SetShapeFn(RaggedTensorToSparseShape);

}  // namespace sg
