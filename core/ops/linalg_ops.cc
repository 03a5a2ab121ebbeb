// Linear algebra ops (TensorFlow's linalg_ops): MatrixInverse and its older name
// BatchMatrixInverse.
#include <cstdint>
#include <vector>

#include "core/framework/op.h"
#include "core/framework/shape_inference.h"

namespace sg {
namespace {

// [..., M, M] -> the same shape, the two inner dims merged.
absl::Status BatchSquareShape(InferenceContext* c) {
  PartialTensorShape in;
  SG_RETURN_IF_ERROR(c->WithRankAtLeast(0, 2, &in));
  if (in.unknown_rank()) {
    c->set_output(0, in);
    return absl::OkStatus();
  }
  std::vector<int64_t> dims(in.dim_sizes().begin(), in.dim_sizes().end());
  const int r = in.dims();
  const int64_t a = dims[r - 2], b = dims[r - 1];
  if (a >= 0 && b >= 0 && a != b) {
    return c->Error("Dimensions must be equal, but are ", a, " and ", b);
  }
  dims[r - 2] = dims[r - 1] = a >= 0 ? a : b;
  c->set_output(0, PartialTensorShape(dims));
  return absl::OkStatus();
}

}  // namespace

// The inverse (or, with adjoint, the inverse of the conjugate transpose) of each inner square
// matrix; a matrix with an exactly zero LU pivot is INVALID_ARGUMENT.
REGISTER_OP("MatrixInverse")
    .Input("input: T")
    .Output("output: T")
    .Attr("adjoint: bool = false")
    .Attr("T: {double, float, half, complex64, complex128}")
    .SetShapeFn(BatchSquareShape);

// MatrixInverse under its TensorFlow 1.0 name (deprecated there since GraphDef version 13).
REGISTER_OP("BatchMatrixInverse")
    .Input("input: T")
    .Output("output: T")
    .Attr("adjoint: bool = false")
    .Attr("T: {double, float}")
    .Deprecated(13, "Use MatrixInverse instead.")
    .SetShapeFn(BatchSquareShape);

}  // namespace sg
