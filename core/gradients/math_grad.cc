// Gradients of the math family (elementwise, reductions, matmul), with TensorFlow's formulas
// (tensorflow/cc/gradients/math_grad.cc, tensorflow/python/ops/math_grad.py).
#include "core/gradients/grad_registry.h"

namespace sg {
namespace {

using Fn = absl::Status;

// d/dx f(x) = dy * g(...): one input.
Fn IdentityGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(dy[0]);
  return s.status();
}

Fn NegGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(s.Neg(dy[0]));
  return s.status();
}

Fn SquareGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput x = InputOf(op, 0);
  GradOutput two_x = s.Mul(s.ScalarOf(DTypeOf(x), 2.0), x);
  dx->push_back(s.Mul(dy[0], s.Conj(two_x)));
  return s.status();
}

// Ops whose gradient is a *Grad op on (y, dy): Sqrt, Rsqrt, Tanh, Sigmoid, Reciprocal.
GradFunc OutputGradOp(const char* grad_op) {
  return [grad_op](GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
    dx->push_back(s.Op(grad_op, {OutputOf(op, 0), dy[0]}));
    return s.status();
  };
}

Fn ExpGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(s.Mul(dy[0], s.Conj(OutputOf(op, 0))));
  return s.status();
}

Fn LogGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(s.Mul(dy[0], s.Op("Reciprocal", {s.Conj(InputOf(op, 0))})));
  return s.status();
}

Fn Log1pGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput x = InputOf(op, 0);
  GradOutput one_plus_x = s.Add(s.ScalarOf(DTypeOf(x), 1.0), s.Conj(x));
  dx->push_back(s.RealDiv(dy[0], one_plus_x));
  return s.status();
}

Fn AbsGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(s.Mul(dy[0], s.Op("Sign", {InputOf(op, 0)})));
  return s.status();
}

// Sign: zero almost everywhere (TensorFlow returns zeros, not "no gradient").
Fn SignGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(s.ZerosLike(InputOf(op, 0)));
  return s.status();
}

Fn SinGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(s.Mul(dy[0], s.Conj(s.Op("Cos", {InputOf(op, 0)}))));
  return s.status();
}

Fn CosGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(s.Mul(dy[0], s.Neg(s.Conj(s.Op("Sin", {InputOf(op, 0)})))));
  return s.status();
}

Fn ErfGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput x = InputOf(op, 0);
  GradOutput two_over_root_pi = s.ScalarOf(DTypeOf(x), 1.1283791670955126);  // 2 / sqrt(pi)
  GradOutput slope = s.Mul(two_over_root_pi, s.Op("Exp", {s.Neg(s.Op("Square", {x}))}));
  dx->push_back(s.Mul(dy[0], s.Conj(slope)));
  return s.status();
}

Fn SinhGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(s.Mul(dy[0], s.Conj(s.Op("Cosh", {InputOf(op, 0)}))));
  return s.status();
}

Fn CoshGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(s.Mul(dy[0], s.Conj(s.Op("Sinh", {InputOf(op, 0)}))));
  return s.status();
}

// Tan: dy * sec(x)^2.
Fn TanGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput sec = s.Op("Reciprocal", {s.Op("Cos", {InputOf(op, 0)})});
  dx->push_back(s.Mul(dy[0], s.Conj(s.Op("Square", {sec}))));
  return s.status();
}

// Atan: dy / (1 + x^2).
Fn AtanGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput x = InputOf(op, 0);
  GradOutput one_plus = s.Add(s.ScalarOf(DTypeOf(x), 1.0), s.Op("Square", {x}));
  dx->push_back(s.Mul(dy[0], s.Op("Reciprocal", {one_plus})));
  return s.status();
}

// Cumsum: the cumulative sum of dy in the other direction.
Fn CumsumGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradAttrs attrs = CopyAttrs(op, {"exclusive"});
  attrs.emplace_back("reverse", BoolAttr(!BoolAttrOf(op, "reverse")));
  dx->push_back(s.Op("Cumsum", {dy[0], InputOf(op, 1)}, attrs));
  dx->push_back(NoGradient());
  return s.status();
}

// Binary ops, broadcasting: each side's gradient summed back to its shape.
Fn AddGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  s.ReduceBinary(InputOf(op, 0), InputOf(op, 1), dy[0], dy[0], dx);
  return s.status();
}

Fn SubGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  s.ReduceBinary(InputOf(op, 0), InputOf(op, 1), dy[0], s.Neg(dy[0]), dx);
  return s.status();
}

Fn MulGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput x = InputOf(op, 0), y = InputOf(op, 1);
  s.ReduceBinary(x, y, s.Mul(dy[0], s.Conj(y)), s.Mul(s.Conj(x), dy[0]), dx);
  return s.status();
}

// Div and RealDiv: dx = dy / y, dy' = dy * (-x / y) / y (with the op's own division).
GradFunc DivGrad(const char* div) {
  return [div](GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
    GradOutput x = s.Conj(InputOf(op, 0)), y = s.Conj(InputOf(op, 1));
    GradOutput gx = s.Op(div, {dy[0], y});
    GradOutput gy = s.Mul(dy[0], s.Op(div, {s.Op(div, {s.Neg(x), y}), y}));
    s.ReduceBinary(InputOf(op, 0), InputOf(op, 1), gx, gy, dx);
    return s.status();
  };
}

// Maximum / Minimum: the gradient goes to the side that was picked (x on ties).
GradFunc MaxMinGrad(const char* compare) {
  return [compare](GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
    GradOutput x = InputOf(op, 0), y = InputOf(op, 1);
    GradOutput zeros = s.ZerosLike(dy[0]);
    // The mask broadcast to dy's shape, so Select (which does not broadcast) takes it.
    GradOutput mask = s.Op(compare, {s.Add(x, s.ZerosLike(dy[0])), y});
    GradOutput gx = s.Op("Select", {mask, dy[0], zeros});
    GradOutput gy = s.Op("Select", {mask, zeros, dy[0]});
    s.ReduceBinary(x, y, gx, gy, dx);
    return s.status();
  };
}

// Pow: dx = dy * y * x^(y-1); dy' = dy * z * log(x) where x > 0, else 0.
Fn PowGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput x = s.Conj(InputOf(op, 0)), y = s.Conj(InputOf(op, 1));
  GradOutput z = s.Conj(OutputOf(op, 0));
  DataType dt = DTypeOf(x);
  GradOutput gx = s.Mul(s.Mul(dy[0], y), s.Op("Pow", {x, s.Sub(y, s.ScalarOf(dt, 1.0))}));
  GradOutput log_x;
  if (dt == DT_COMPLEX64 || dt == DT_COMPLEX128) {
    GradOutput nonzero = s.Op("NotEqual", {x, s.ZerosLike(x)});
    log_x = s.Op("Select", {nonzero, s.Op("Log", {x}), s.ZerosLike(x)});
  } else {
    GradOutput positive = s.Op("Greater", {x, s.ZerosLike(x)});
    GradOutput safe_x = s.Op("Select", {positive, x, s.Op("OnesLike", {x})});
    log_x = s.Op("Select", {positive, s.Op("Log", {safe_x}), s.ZerosLike(x)});
  }
  GradOutput gy = s.Mul(s.Mul(dy[0], z), log_x);
  s.ReduceBinary(InputOf(op, 0), InputOf(op, 1), gx, gy, dx);
  return s.status();
}

Fn SquaredDifferenceGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput x = InputOf(op, 0), y = InputOf(op, 1);
  GradOutput two_diff = s.Mul(s.ScalarOf(DTypeOf(x), 2.0), s.Sub(x, y));
  GradOutput gx = s.Mul(dy[0], s.Conj(two_diff));
  s.ReduceBinary(x, y, gx, s.Neg(gx), dx);
  return s.status();
}

Fn AddNGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->assign(op.num_inputs(), dy[0]);
  return s.status();
}

Fn CastGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  DataType src = DTypeOf(InputOf(op, 0));
  if (IsDifferentiable(src) && IsDifferentiable(DTypeOf(OutputOf(op, 0)))) {
    dx->push_back(s.Cast(dy[0], src));
  } else {
    dx->push_back(NoGradient());
  }
  return s.status();
}

// ---- Reductions ------------------------------------------------------------------------------

// The reduced axes of `op` (input 1) as non-negative ints, when constant and the rank known.
std::optional<std::vector<int64_t>> StaticAxes(const Node& op) {
  auto axes = ConstIntValues(InputOf(op, 1));
  PartialTensorShape xs = StaticShapeOf(InputOf(op, 0));
  if (!axes || xs.unknown_rank()) return std::nullopt;
  for (int64_t& a : *axes) {
    if (a < 0) a += xs.dims();
    if (a < 0 || a >= xs.dims()) return std::nullopt;
  }
  return axes;
}

// The shape of x with the reduced axes set to 1 (reduce with keep_dims), as an int32 tensor.
GradOutput KeptDimsShape(GradScope& s, const Node& op) {
  GradOutput x = InputOf(op, 0);
  PartialTensorShape xs = StaticShapeOf(x);
  if (auto axes = StaticAxes(op); axes && xs.IsFullyDefined()) {
    std::vector<int64_t> dims(xs.dim_sizes().begin(), xs.dim_sizes().end());
    for (int64_t a : *axes) dims[a] = 1;
    return s.ConstI32(dims);
  }
  // DynamicStitch([range(rank), (axes + rank) % rank], [shape(x), ones]), as TensorFlow.
  GradOutput shape = s.Shape(x);
  GradOutput rank = s.Op("Size", {shape});
  GradOutput axes = s.Cast(InputOf(op, 1), DT_INT32);
  axes = s.Op("FloorMod", {s.Add(axes, rank), rank});
  GradOutput range = s.Op("Range", {s.ScalarI32(0), rank, s.ScalarI32(1)});
  GradOutput ones = s.Op("Fill", {s.Shape(axes), s.ScalarI32(1)});
  return s.Op("DynamicStitch", {GradInput::List({range, axes}), GradInput::List({shape, ones})});
}

// dy reshaped to the kept-dims shape and broadcast back to x's shape.
GradOutput BroadcastBack(GradScope& s, const Node& op, GradOutput grad) {
  GradOutput x = InputOf(op, 0);
  GradOutput kept = s.Reshape(grad, KeptDimsShape(s, op));
  PartialTensorShape xs = StaticShapeOf(x);
  GradOutput shape = xs.IsFullyDefined()
                         ? s.ConstI32({xs.dim_sizes().begin(), xs.dim_sizes().end()})
                         : s.Shape(x);
  return s.Op("BroadcastTo", {kept, shape});
}

Fn SumGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(BroadcastBack(s, op, dy[0]));
  dx->push_back(NoGradient());
  return s.status();
}

Fn MeanGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput x = InputOf(op, 0), y = OutputOf(op, 0);
  GradOutput sum_grad = BroadcastBack(s, op, dy[0]);
  PartialTensorShape xs = StaticShapeOf(x), ys = StaticShapeOf(y);
  GradOutput factor;
  if (xs.IsFullyDefined() && ys.IsFullyDefined()) {
    int64_t out = std::max<int64_t>(ys.num_elements(), 1);
    factor = s.ScalarOf(DTypeOf(x), static_cast<double>(xs.num_elements() / out));
  } else {
    GradOutput zero = s.ScalarI32(0);
    GradOutput in_size = s.Op("Prod", {s.Shape(x), zero});
    GradOutput out_size = s.Op("Prod", {s.Shape(y), zero});
    GradOutput count = s.Op("FloorDiv", {in_size, s.Op("Maximum", {out_size, s.ScalarI32(1)})});
    factor = s.Cast(count, DTypeOf(x));
  }
  dx->push_back(s.RealDiv(sum_grad, factor));
  dx->push_back(NoGradient());
  return s.status();
}

// Max / Min: the gradient is shared equally among the elements equal to the result.
Fn MaxMinReduceGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput x = InputOf(op, 0);
  GradOutput kept = KeptDimsShape(s, op);
  GradOutput y = s.Reshape(OutputOf(op, 0), kept);
  GradOutput grad = s.Reshape(dy[0], kept);
  GradOutput indicators = s.Cast(s.Op("Equal", {y, x}), DTypeOf(x));
  GradOutput num_selected = s.Reshape(s.Sum(indicators, InputOf(op, 1)), kept);
  dx->push_back(s.Mul(s.RealDiv(indicators, num_selected), grad));
  dx->push_back(NoGradient());
  return s.status();
}

// ---- Matrix products -------------------------------------------------------------------------

Fn MatMulGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  const bool ta = BoolAttrOf(op, "transpose_a"), tb = BoolAttrOf(op, "transpose_b");
  GradOutput a = s.Conj(InputOf(op, 0)), b = s.Conj(InputOf(op, 1)), g = dy[0];
  if (!ta && !tb) {
    dx->push_back(s.MatMul(g, b, false, true));
    dx->push_back(s.MatMul(a, g, true, false));
  } else if (!ta && tb) {
    dx->push_back(s.MatMul(g, b, false, false));
    dx->push_back(s.MatMul(g, a, true, false));
  } else if (ta && !tb) {
    dx->push_back(s.MatMul(b, g, false, true));
    dx->push_back(s.MatMul(a, g, false, false));
  } else {
    dx->push_back(s.MatMul(b, g, true, true));
    dx->push_back(s.MatMul(g, a, true, true));
  }
  return s.status();
}

// BatchMatMul (no broadcasting) and BatchMatMulV2 (broadcasting batch dims), with the op's own
// type for the products.
Fn BatchMatMulGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  const bool ax = BoolAttrOf(op, "adj_x"), ay = BoolAttrOf(op, "adj_y");
  GradOutput x = InputOf(op, 0), y = InputOf(op, 1), g = dy[0];
  const std::string type = op.type_string();
  auto bmm = [&](GradOutput p, GradOutput q, bool adj_p, bool adj_q) {
    return s.Op(type, {p, q}, {{"adj_x", BoolAttr(adj_p)}, {"adj_y", BoolAttr(adj_q)}});
  };
  GradOutput gx, gy;
  if (!ax && !ay) {
    gx = bmm(g, y, false, true);
    gy = bmm(x, g, true, false);
  } else if (!ax && ay) {
    gx = bmm(g, y, false, false);
    gy = bmm(g, x, true, false);
  } else if (ax && !ay) {
    gx = bmm(y, g, false, true);
    gy = bmm(x, g, false, false);
  } else {
    gx = bmm(y, g, true, true);
    gy = bmm(g, x, true, true);
  }
  // Batch dims that broadcasting added or stretched are summed away.
  dx->push_back(s.SumToShapeOf(gx, x));
  dx->push_back(s.SumToShapeOf(gy, y));
  return s.status();
}

Fn SelectGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput c = InputOf(op, 0), zeros = s.ZerosLike(dy[0]);
  dx->push_back(NoGradient());
  dx->push_back(s.Op("Select", {c, dy[0], zeros}));
  dx->push_back(s.Op("Select", {c, zeros, dy[0]}));
  return s.status();
}

Fn SelectV2Grad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput c = InputOf(op, 0), zeros = s.ZerosLike(dy[0]);
  dx->push_back(NoGradient());
  dx->push_back(s.SumToShapeOf(s.Op("SelectV2", {c, dy[0], zeros}), InputOf(op, 1)));
  dx->push_back(s.SumToShapeOf(s.Op("SelectV2", {c, zeros, dy[0]}), InputOf(op, 2)));
  return s.status();
}

// ClipByValue(t, lo, hi): dy where lo <= t <= hi goes to t, below to lo, above to hi (each
// summed back to its shape).
Fn ClipByValueGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput t = InputOf(op, 0), lo = InputOf(op, 1), hi = InputOf(op, 2);
  GradOutput zeros = s.ZerosLike(dy[0]);
  GradOutput below = s.Op("Less", {t, lo}), above = s.Op("Greater", {t, hi});
  GradOutput outside = s.Op("LogicalOr", {below, above});
  dx->push_back(s.SumToShapeOf(s.Op("SelectV2", {outside, zeros, dy[0]}), t));
  dx->push_back(s.SumToShapeOf(s.Op("SelectV2", {below, dy[0], zeros}), lo));
  dx->push_back(s.SumToShapeOf(s.Op("SelectV2", {above, dy[0], zeros}), hi));
  return s.status();
}

SG_REGISTER_GRADIENT("ClipByValue", ClipByValueGrad);
SG_REGISTER_GRADIENT("Identity", IdentityGrad);
SG_REGISTER_GRADIENT("Snapshot", IdentityGrad);
SG_REGISTER_GRADIENT("Neg", NegGrad);
SG_REGISTER_GRADIENT("Square", SquareGrad);
SG_REGISTER_GRADIENT("Sqrt", OutputGradOp("SqrtGrad"));
SG_REGISTER_GRADIENT("Rsqrt", OutputGradOp("RsqrtGrad"));
SG_REGISTER_GRADIENT("Tanh", OutputGradOp("TanhGrad"));
SG_REGISTER_GRADIENT("Sigmoid", OutputGradOp("SigmoidGrad"));
SG_REGISTER_GRADIENT("Reciprocal", OutputGradOp("ReciprocalGrad"));
SG_REGISTER_GRADIENT("Inv", OutputGradOp("ReciprocalGrad"));
SG_REGISTER_GRADIENT("Exp", ExpGrad);
SG_REGISTER_GRADIENT("Log", LogGrad);
SG_REGISTER_GRADIENT("Log1p", Log1pGrad);
SG_REGISTER_GRADIENT("Abs", AbsGrad);
SG_REGISTER_GRADIENT("Sign", SignGrad);
SG_REGISTER_GRADIENT("Sin", SinGrad);
SG_REGISTER_GRADIENT("Cos", CosGrad);
SG_REGISTER_GRADIENT("Add", AddGrad);
SG_REGISTER_GRADIENT("AddV2", AddGrad);
SG_REGISTER_GRADIENT("Sub", SubGrad);
SG_REGISTER_GRADIENT("Mul", MulGrad);
SG_REGISTER_GRADIENT("Div", DivGrad("Div"));
SG_REGISTER_GRADIENT("RealDiv", DivGrad("RealDiv"));
SG_REGISTER_GRADIENT("Maximum", MaxMinGrad("GreaterEqual"));
SG_REGISTER_GRADIENT("Minimum", MaxMinGrad("LessEqual"));
SG_REGISTER_GRADIENT("Pow", PowGrad);
SG_REGISTER_GRADIENT("SquaredDifference", SquaredDifferenceGrad);
SG_REGISTER_GRADIENT("AddN", AddNGrad);
SG_REGISTER_GRADIENT("Cast", CastGrad);
SG_REGISTER_GRADIENT("Sum", SumGrad);
SG_REGISTER_GRADIENT("Mean", MeanGrad);
SG_REGISTER_GRADIENT("Max", MaxMinReduceGrad);
SG_REGISTER_GRADIENT("Min", MaxMinReduceGrad);
SG_REGISTER_GRADIENT("MatMul", MatMulGrad);
SG_REGISTER_GRADIENT("BatchMatMulV2", BatchMatMulGrad);
SG_REGISTER_GRADIENT("BatchMatMul", BatchMatMulGrad);
SG_REGISTER_GRADIENT("Erf", ErfGrad);
SG_REGISTER_GRADIENT("Sinh", SinhGrad);
SG_REGISTER_GRADIENT("Cosh", CoshGrad);
SG_REGISTER_GRADIENT("Tan", TanGrad);
SG_REGISTER_GRADIENT("Atan", AtanGrad);
SG_REGISTER_GRADIENT("Cumsum", CumsumGrad);
SG_REGISTER_GRADIENT("Select", SelectGrad);
SG_REGISTER_GRADIENT("SelectV2", SelectV2Grad);

// No gradient flows through these (TensorFlow registers them with none).
SG_REGISTER_NO_GRADIENT("Const");
SG_REGISTER_NO_GRADIENT("StopGradient");
SG_REGISTER_NO_GRADIENT("Shape");
SG_REGISTER_NO_GRADIENT("ShapeN");
SG_REGISTER_NO_GRADIENT("Rank");
SG_REGISTER_NO_GRADIENT("Size");
SG_REGISTER_NO_GRADIENT("ZerosLike");
SG_REGISTER_NO_GRADIENT("OnesLike");
SG_REGISTER_NO_GRADIENT("Equal");
SG_REGISTER_NO_GRADIENT("NotEqual");
SG_REGISTER_NO_GRADIENT("Less");
SG_REGISTER_NO_GRADIENT("LessEqual");
SG_REGISTER_NO_GRADIENT("Greater");
SG_REGISTER_NO_GRADIENT("GreaterEqual");
SG_REGISTER_NO_GRADIENT("ArgMax");
SG_REGISTER_NO_GRADIENT("ArgMin");
SG_REGISTER_NO_GRADIENT("Floor");
SG_REGISTER_NO_GRADIENT("Ceil");
SG_REGISTER_NO_GRADIENT("Round");
SG_REGISTER_NO_GRADIENT("Range");
SG_REGISTER_NO_GRADIENT("OneHot");
SG_REGISTER_NO_GRADIENT("BroadcastGradientArgs");
SG_REGISTER_NO_GRADIENT("RandomUniform");
SG_REGISTER_NO_GRADIENT("RandomStandardNormal");
SG_REGISTER_NO_GRADIENT("TruncatedNormal");

}  // namespace
}  // namespace sg
