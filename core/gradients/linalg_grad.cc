// Gradients of the matrix ops sg registers (MatrixInverse, the diagonal family), with
// TensorFlow's formulas (tensorflow/python/ops/linalg_grad.py and array_grad.py).
#include "core/gradients/grad_registry.h"

namespace sg {
namespace {

using Fn = absl::Status;

GradOutput AdjMatMul(GradScope& s, GradOutput a, GradOutput b, bool adj_a, bool adj_b) {
  return s.Op("BatchMatMulV2", {a, b}, {{"adj_x", BoolAttr(adj_a)}, {"adj_y", BoolAttr(adj_b)}});
}

// d(A^-1) = -A^-H dY A^-H (or its adjoint form when the op inverts A^H).
Fn MatrixInverseGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  const bool adjoint = BoolAttrOf(op, "adjoint");
  GradOutput ainv = OutputOf(op, 0);
  GradOutput inner = AdjMatMul(s, dy[0], ainv, adjoint, !adjoint);
  dx->push_back(s.Neg(AdjMatMul(s, ainv, inner, !adjoint, false)));
  return s.status();
}

Fn MatrixDiagGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(s.Op("MatrixDiagPart", {dy[0]}));
  return s.status();
}

// MatrixDiagV2/V3(diagonal, k, num_rows, num_cols, padding_value): the band of dy.
// TensorFlow's python takes matrix_diag_part, i.e. MatrixDiagPartV3 with its default
// align (RIGHT_LEFT) for V2, and the op's align for V3.
Fn MatrixDiagV23Grad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradAttrs attrs = CopyAttrs(op, {"align"});
  if (attrs.empty()) {
    AttrValue align;
    align.set_s("RIGHT_LEFT");
    attrs.emplace_back("align", align);
  }
  GradOutput zero = s.ScalarOf(DTypeOf(dy[0]), 0.0);
  dx->push_back(s.Op("MatrixDiagPartV3", {dy[0], InputOf(op, 1), zero}, attrs));
  for (int i = 1; i < 5; ++i) dx->push_back(NoGradient());
  return s.status();
}

Fn MatrixDiagPartGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput x = InputOf(op, 0);
  PartialTensorShape xs = StaticShapeOf(x);
  if (!xs.unknown_rank() && xs.dims() >= 2 && xs.dim_size(xs.dims() - 1) >= 0 &&
      xs.dim_size(xs.dims() - 1) == xs.dim_size(xs.dims() - 2)) {
    dx->push_back(s.Op("MatrixDiag", {dy[0]}));
  } else {
    dx->push_back(s.Op("MatrixSetDiag", {s.ZerosLike(x), dy[0]}));
  }
  return s.status();
}

// MatrixDiagPartV2/V3(input, k, padding_value): dy placed on the band of a zero matrix (V2's
// python gradient uses the V3 ops with their default align, as TensorFlow's does).
Fn MatrixDiagPartV23Grad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput x = InputOf(op, 0), k = InputOf(op, 1);
  GradAttrs attrs = CopyAttrs(op, {"align"});
  PartialTensorShape xs = StaticShapeOf(x);
  const int r = xs.unknown_rank() ? -1 : xs.dims();
  if (r >= 2 && xs.dim_size(r - 2) >= 0 && xs.dim_size(r - 1) >= 0) {
    GradOutput zero = s.ScalarOf(DTypeOf(dy[0]), 0.0);
    GradOutput rows = s.ScalarI32(xs.dim_size(r - 2)), cols = s.ScalarI32(xs.dim_size(r - 1));
    dx->push_back(s.Op("MatrixDiagV3", {dy[0], k, rows, cols, zero}, attrs));
  } else {
    dx->push_back(s.Op("MatrixSetDiagV3", {s.ZerosLike(x), dy[0], k}, attrs));
  }
  dx->push_back(NoGradient());
  dx->push_back(NoGradient());
  return s.status();
}

Fn MatrixSetDiagGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput diag = s.Op("MatrixDiagPart", {dy[0]});
  dx->push_back(s.Op("MatrixSetDiag", {dy[0], s.ZerosLike(diag)}));
  dx->push_back(diag);
  return s.status();
}

// MatrixSetDiagV2/V3(input, diagonal, k). The zeros for the band take the diagonal's shape
// (TensorFlow computes the same shape from dy and k when the diagonal's is not static).
Fn MatrixSetDiagV23Grad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput k = InputOf(op, 2);
  GradAttrs attrs = CopyAttrs(op, {"align"});
  GradOutput zeros = s.ZerosLike(InputOf(op, 1));
  dx->push_back(s.Op("MatrixSetDiagV3", {dy[0], zeros, k}, attrs));
  GradOutput zero = s.ScalarOf(DTypeOf(dy[0]), 0.0);
  dx->push_back(s.Op("MatrixDiagPartV3", {dy[0], k, zero}, attrs));
  dx->push_back(NoGradient());
  return s.status();
}

SG_REGISTER_GRADIENT("MatrixInverse", MatrixInverseGrad);
SG_REGISTER_GRADIENT("MatrixDiag", MatrixDiagGrad);
SG_REGISTER_GRADIENT("MatrixDiagV2", MatrixDiagV23Grad);
SG_REGISTER_GRADIENT("MatrixDiagV3", MatrixDiagV23Grad);
SG_REGISTER_GRADIENT("MatrixDiagPart", MatrixDiagPartGrad);
SG_REGISTER_GRADIENT("MatrixDiagPartV2", MatrixDiagPartV23Grad);
SG_REGISTER_GRADIENT("MatrixDiagPartV3", MatrixDiagPartV23Grad);
SG_REGISTER_GRADIENT("MatrixSetDiag", MatrixSetDiagGrad);
SG_REGISTER_GRADIENT("MatrixSetDiagV2", MatrixSetDiagV23Grad);
SG_REGISTER_GRADIENT("MatrixSetDiagV3", MatrixSetDiagV23Grad);

}  // namespace
}  // namespace sg
