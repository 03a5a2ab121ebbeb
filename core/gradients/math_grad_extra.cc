// More math gradients: the x*log(y) family, the no-NaN products, Atan2, FloorMod, Erfc, Prod,
// Cumprod, CumulativeLogsumexp, complex numbers and the FFTs, with TensorFlow's formulas
// (tensorflow/python/ops/math_grad.py and ops/signal/fft_ops.py).
#include <cmath>
#include <functional>
#include <limits>

#include "core/gradients/grad_registry.h"

namespace sg {
namespace {

using Fn = absl::Status;

DataType RealOf(DataType complex) { return complex == DT_COMPLEX128 ? DT_DOUBLE : DT_FLOAT; }
DataType ComplexOf(DataType real) { return real == DT_DOUBLE ? DT_COMPLEX128 : DT_COMPLEX64; }

// Complex(re, im), Real(z), Imag(z) with Tout set from the input's dtype.
GradOutput MakeComplex(GradScope& s, GradOutput re, GradOutput im) {
  return s.Op("Complex", {re, im}, {{"Tout", TypeAttr(ComplexOf(DTypeOf(re)))}});
}
GradOutput RealPart(GradScope& s, const char* type, GradOutput z) {
  return s.Op(type, {z}, {{"Tout", TypeAttr(RealOf(DTypeOf(z)))}});
}

// x * f(y) ops: Xlogy (log y), Xlog1py (log1p y), Xdivy (1 / y).
Fn XlogyGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput x = InputOf(op, 0), y = InputOf(op, 1);
  DataType dt = DTypeOf(x);
  GradOutput not_zero_x = s.Cast(s.Op("NotEqual", {x, s.ScalarOf(dt, 0.0)}), dt);
  GradOutput px, py;
  const std::string& type = op.type_string();
  if (type == "Xlogy") {
    px = s.Op("Xlogy", {not_zero_x, y});
    py = s.Op("Xdivy", {x, y});
  } else if (type == "Xlog1py") {
    px = s.Op("Xlog1py", {not_zero_x, y});
    py = s.Op("Xdivy", {x, s.Add(y, s.ScalarOf(dt, 1.0))});
  } else {  // Xdivy
    px = s.Op("Xdivy", {not_zero_x, y});
    py = s.Op("Xdivy", {s.Neg(x), s.Op("Square", {y})});
  }
  s.ReduceBinary(x, y, s.Mul(px, dy[0]), s.Mul(py, dy[0]), dx);
  return s.status();
}

Fn DivNoNanGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput x = s.Conj(InputOf(op, 0)), y = s.Conj(InputOf(op, 1));
  GradOutput gx = s.Op("DivNoNan", {dy[0], y});
  GradOutput gy = s.Mul(dy[0], s.Op("DivNoNan", {s.Op("DivNoNan", {s.Neg(x), y}), y}));
  s.ReduceBinary(InputOf(op, 0), InputOf(op, 1), gx, gy, dx);
  return s.status();
}

Fn MulNoNanGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput x = InputOf(op, 0), y = InputOf(op, 1);
  s.ReduceBinary(x, y, s.Op("MulNoNan", {dy[0], y}), s.Op("MulNoNan", {x, dy[0]}), dx);
  return s.status();
}

// Atan2(y, x): dy' = x / (x^2 + y^2), dx' = -y / (x^2 + y^2).
Fn Atan2Grad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput y = InputOf(op, 0), x = InputOf(op, 1);
  GradOutput grad_inv = s.RealDiv(dy[0], s.Add(s.Op("Square", {y}), s.Op("Square", {x})));
  s.ReduceBinary(y, x, s.Mul(x, grad_inv), s.Mul(s.Neg(y), grad_inv), dx);
  return s.status();
}

// FloorMod(x, y) = x - floor(x / y) * y.
Fn FloorModGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput x = InputOf(op, 0), y = InputOf(op, 1);
  GradOutput floor_xy = s.Op("FloorDiv", {s.Conj(x), s.Conj(y)});
  s.ReduceBinary(x, y, dy[0], s.Mul(dy[0], s.Neg(floor_xy)), dx);
  return s.status();
}

Fn ErfcGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput x = s.Conj(InputOf(op, 0));
  GradOutput k = s.ScalarOf(DTypeOf(x), -1.1283791670955126);  // -2 / sqrt(pi)
  dx->push_back(s.Mul(s.Mul(dy[0], k), s.Op("Exp", {s.Neg(s.Op("Square", {x}))})));
  return s.status();
}

// Prod: the product of the other elements of each reduced group, from exclusive cumulative
// products both ways over the reduced axes moved to the front (TensorFlow's _ProdGrad; zeros
// are handled without dividing). The permutation and shapes are constants when x's rank and the
// axes are static, else computed in the graph as TensorFlow does (ListDiff, DynamicStitch).
Fn ProdGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput x = InputOf(op, 0);
  PartialTensorShape xs = StaticShapeOf(x);
  auto axes = ConstIntValues(InputOf(op, 1));
  GradOutput in_shape = s.Shape(x);
  GradOutput perm, inverse, kept_shape, red_count, other_count;
  auto count = [&](GradOutput dims) {
    return s.Op("Prod", {s.Op("GatherV2", {in_shape, dims, s.ScalarI32(0)}), s.ScalarI32(0)});
  };
  if (!xs.unknown_rank() && axes) {
    const int rank = xs.dims();
    std::vector<bool> reduced(rank, false);
    std::vector<int64_t> p;
    for (int64_t a : *axes) {
      int64_t v = a < 0 ? a + rank : a;
      if (v < 0 || v >= rank) {
        return errors::InvalidArgument("Prod gradient of '", op.name(), "': axis ", a,
                                       " out of range for rank ", rank);
      }
      if (!reduced[v]) p.push_back(v);
      reduced[v] = true;
    }
    const size_t num_reduced = p.size();
    for (int i = 0; i < rank; ++i) {
      if (!reduced[i]) p.push_back(i);
    }
    std::vector<int64_t> inv(rank), kept_one(rank, 1);
    for (int i = 0; i < rank; ++i) inv[p[i]] = i;
    Tensor m(DT_BOOL, TensorShape({rank}));
    for (int i = 0; i < rank; ++i) m.flat<bool>()(i) = reduced[i];
    kept_shape = s.Op("Select", {s.Const(m), s.ConstI32(kept_one), in_shape});
    perm = s.ConstI32(p);
    inverse = s.ConstI32(inv);
    std::vector<int64_t> red_axes(p.begin(), p.begin() + num_reduced);
    std::vector<int64_t> other_axes(p.begin() + num_reduced, p.end());
    red_count = red_axes.empty() ? s.ScalarI32(1) : count(s.ConstI32(red_axes));
    other_count = other_axes.empty() ? s.ScalarI32(1) : count(s.ConstI32(other_axes));
  } else {
    GradOutput rank = s.Op("Rank", {x});
    GradOutput reduced = s.Reshape(s.Cast(InputOf(op, 1), DT_INT32), s.ConstI32({-1}));
    reduced = s.Op("FloorMod", {s.Add(reduced, rank), rank});
    GradOutput idx = s.Op("Range", {s.ScalarI32(0), rank, s.ScalarI32(1)});
    GradOutput other = s.Op("ListDiff", {idx, reduced}, {{"out_idx", TypeAttr(DT_INT32)}});
    perm = s.Op("ConcatV2", {GradInput::List({reduced, other}), s.ScalarI32(0)});
    inverse = s.Op("InvertPermutation", {perm});
    GradOutput ones = s.Op("Fill", {s.Shape(reduced), s.ScalarI32(1)});
    kept_shape = s.Op("DynamicStitch",
                      {GradInput::List({idx, reduced}), GradInput::List({in_shape, ones})});
    red_count = count(reduced);
    other_count = count(other);
  }
  // dy with the reduced dims kept as 1, broadcast to x's shape.
  GradOutput grad = dy[0];
  if (!BoolAttrOf(op, "keep_dims")) grad = s.Reshape(grad, kept_shape);
  grad = s.Op("BroadcastTo", {grad, in_shape});
  GradOutput permuted = s.Transpose(x, perm);
  GradOutput permuted_shape = s.Shape(permuted);
  GradOutput flat_shape = s.Op("Pack", {GradInput::List({red_count, other_count})});
  GradOutput reshaped = s.Reshape(permuted, flat_shape);
  GradOutput left = s.Op("Cumprod", {reshaped, s.ScalarI32(0)}, {{"exclusive", BoolAttr(true)}});
  GradOutput right = s.Op("Cumprod", {reshaped, s.ScalarI32(0)},
                          {{"exclusive", BoolAttr(true)}, {"reverse", BoolAttr(true)}});
  GradOutput y = s.Reshape(s.Mul(s.Conj(left), s.Conj(right)), permuted_shape);
  GradOutput out = s.Mul(grad, s.Transpose(y, inverse));
  dx->push_back(s.Reshape(out, in_shape));
  dx->push_back(NoGradient());
  return s.status();
}

// Cumprod: cumsum(prod * dy) in the other direction, divided by x (0 where x is 0).
Fn CumprodGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput x = InputOf(op, 0), axis = InputOf(op, 1);
  GradAttrs attrs = CopyAttrs(op, {"exclusive", "reverse"});
  GradOutput prod = s.Op("Cumprod", {x, axis}, attrs);
  GradAttrs back = CopyAttrs(op, {"exclusive"});
  back.emplace_back("reverse", BoolAttr(!BoolAttrOf(op, "reverse")));
  GradOutput out = s.Op("Cumsum", {s.Mul(prod, dy[0]), axis}, back);
  dx->push_back(s.Op("DivNoNan", {out, x}));
  dx->push_back(NoGradient());
  return s.status();
}

// The lowest finite value of a float dtype, as a scalar constant (TensorFlow's dtype.min).
GradOutput LowestOf(GradScope& s, DataType dt) {
  Tensor t(dt, TensorShape({}));
  if (dt == DT_DOUBLE) {
    t.flat<double>()(0) = std::numeric_limits<double>::lowest();
  } else if (dt == DT_FLOAT) {
    t.flat<float>()(0) = std::numeric_limits<float>::lowest();
  } else {
    return s.ScalarOf(dt, -65504.0);  // half's lowest (bfloat16's is lower still)
  }
  return s.Const(t);
}

// CumulativeLogsumexp: dy split into its positive and negative parts, each carried in log space
// by a cumulative logsumexp in the other direction (TensorFlow's formula).
Fn CumulativeLogsumexpGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput x = InputOf(op, 0), axis = InputOf(op, 1), out = OutputOf(op, 0);
  DataType dt = DTypeOf(dy[0]);
  GradOutput lowest = LowestOf(s, dt), zero = s.ScalarOf(dt, 0.0);
  GradOutput log_pos =
      s.Op("SelectV2", {s.Op("Greater", {dy[0], zero}), s.Op("Log", {dy[0]}), lowest});
  GradOutput log_neg =
      s.Op("SelectV2", {s.Op("Less", {dy[0], zero}), s.Op("Log", {s.Neg(dy[0])}), lowest});
  GradAttrs back = CopyAttrs(op, {"exclusive"});
  back.emplace_back("reverse", BoolAttr(!BoolAttrOf(op, "reverse")));
  auto carry = [&](GradOutput log_part) {
    GradOutput acc = s.Op("CumulativeLogsumexp", {s.Sub(log_part, out), axis}, back);
    return s.Op("Exp", {s.Add(acc, x)});
  };
  dx->push_back(s.Sub(carry(log_pos), carry(log_neg)));
  dx->push_back(NoGradient());
  return s.status();
}

// ---- Complex numbers -----------------------------------------------------------------------

Fn ComplexGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  s.ReduceBinary(InputOf(op, 0), InputOf(op, 1), RealPart(s, "Real", dy[0]),
                 RealPart(s, "Imag", dy[0]), dx);
  return s.status();
}

Fn RealGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(MakeComplex(s, dy[0], s.ScalarOf(DTypeOf(dy[0]), 0.0)));
  return s.status();
}

Fn ImagGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(MakeComplex(s, s.ScalarOf(DTypeOf(dy[0]), 0.0), dy[0]));
  return s.status();
}

Fn ConjGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(s.Op("Conj", {dy[0]}));
  return s.status();
}

// Angle(z): -dy / (imag(z) + i real(z)).
Fn AngleGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput z = InputOf(op, 0);
  GradOutput flipped = MakeComplex(s, RealPart(s, "Imag", z), RealPart(s, "Real", z));
  GradOutput complex_grad = MakeComplex(s, dy[0], s.ScalarOf(DTypeOf(dy[0]), 0.0));
  dx->push_back(s.Mul(s.Neg(complex_grad), s.Op("Reciprocal", {flipped})));
  return s.status();
}

// ComplexAbs(z): dy * z / |z| (0 where |z| is 0).
Fn ComplexAbsGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput z = InputOf(op, 0), y = OutputOf(op, 0);
  GradOutput num = s.Mul(MakeComplex(s, dy[0], s.ZerosLike(dy[0])), z);
  dx->push_back(s.Op("DivNoNan", {num, MakeComplex(s, y, s.ZerosLike(y))}));
  return s.status();
}

// FFT/IFFT in 1-3 dims: the inverse transform of dy, times the transform's size (FFT) or its
// reciprocal (IFFT).
GradFunc FftGrad(const char* inverse_op, int rank, bool forward) {
  return [inverse_op, rank, forward](GradScope& s, const Node& op, const GradOutputs& dy,
                                     GradOutputs* dx) {
    DataType ct = DTypeOf(dy[0]), rt = RealOf(ct);
    GradOutput shape = s.Shape(dy[0]);
    GradOutput inner =
        s.Op("StridedSlice", {shape, s.ConstI32({-rank}), s.ConstI32({0}), s.ConstI32({1})},
             {{"end_mask", IntAttr(1)}});
    GradOutput size = s.Cast(s.Op("Prod", {inner, s.ScalarI32(0)}), rt);
    if (!forward) size = s.RealDiv(s.ScalarOf(rt, 1.0), size);
    GradOutput factor = MakeComplex(s, size, s.ScalarOf(rt, 0.0));
    dx->push_back(s.Mul(s.Op(inverse_op, {dy[0]}), factor));
    return s.status();
  };
}

// ConjugateTranspose: dy conjugate-transposed by the inverse permutation.
Fn ConjugateTransposeGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(s.Op("ConjugateTranspose", {dy[0], s.Op("InvertPermutation", {InputOf(op, 1)})}));
  dx->push_back(NoGradient());
  return s.status();
}

// The static last `rank` dims of x and the constant last fft_length, for the real FFTs.
absl::Status RealFftSizes(const Node& op, int rank, std::vector<int64_t>* dims, int64_t* fft_len) {
  PartialTensorShape xs = StaticShapeOf(InputOf(op, 0));
  auto len = ConstIntValues(InputOf(op, 1));
  bool ok = !xs.unknown_rank() && xs.dims() >= rank && len && !len->empty();
  for (int i = 0; ok && i < rank; ++i) {
    dims->push_back(xs.dim_size(xs.dims() - rank + i));
    ok = dims->back() > 0;
  }
  if (!ok) {
    return errors::Unimplemented(op.type_string(), " gradient of '", op.name(),
                                 "' needs static inner dims and a constant fft_length");
  }
  *fft_len = len->back();
  return absl::OkStatus();
}

// x[..., begin:end] on the last axis (end 0 = to the end).
GradOutput LastAxisSlice(GradScope& s, GradOutput x, int64_t begin, int64_t end) {
  return s.Op("StridedSlice", {x, s.ConstI32({0, begin}), s.ConstI32({0, end}), s.ConstI32({1, 1})},
              {{"ellipsis_mask", IntAttr(1)}, {"end_mask", IntAttr(end == 0 ? 2 : 0)}});
}

// A 1-D constant of dtype `dt` (float or double) with value f(i) at i.
Tensor RealVector(DataType dt, int64_t n, const std::function<double(int64_t)>& f) {
  Tensor t(dt, TensorShape({n}));
  for (int64_t i = 0; i < n; ++i) {
    if (dt == DT_DOUBLE) {
      t.flat<double>()(i) = f(i);
    } else {
      t.flat<float>()(i) = static_cast<float>(f(i));
    }
  }
  return t;
}

// RFFT / RFFT2D: 0.5 * (IRFFT(dy) * size + real(extra)), TensorFlow's _rfft_grad_helper, whose
// extra terms put back the halves of the spectrum RFFT leaves out: in 1-D
// dy[..., :1] + even * dy[..., -1:] * [1, -1, 1, ...]; in 2-D the same columns first multiplied
// by the [rows, rows] DFT matrix (conjugated).
GradFunc RfftGrad(int rank) {
  return [rank](GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
    std::vector<int64_t> dims;
    int64_t fft_len = 0;
    SG_RETURN_IF_ERROR(RealFftSizes(op, rank, &dims, &fft_len));
    DataType rt = DTypeOf(InputOf(op, 0)), ct = DTypeOf(dy[0]);
    GradAttrs types = {{"Treal", TypeAttr(rt)}, {"Tcomplex", TypeAttr(ct)}};
    GradOutput irfft = s.Op(rank == 1 ? "IRFFT" : "IRFFT2D", {dy[0], InputOf(op, 1)}, types);
    const int64_t cols = dims.back();
    int64_t size = 1;
    for (int64_t d : dims) size *= d;
    GradOutput ymask =
        s.Const(RealVector(rt, cols, [](int64_t i) { return i % 2 == 0 ? 1.0 : -1.0; }));
    const double is_even = fft_len % 2 == 0 ? 1.0 : 0.0;
    GradOutput y0 = LastAxisSlice(s, dy[0], 0, 1), ym = LastAxisSlice(s, dy[0], -1, 0);
    if (rank == 2) {
      const int64_t rows = dims[0];
      Tensor m(ct, TensorShape({rows, rows}));
      for (int64_t a = 0; a < rows; ++a) {
        for (int64_t b = 0; b < rows; ++b) {
          const double angle = -2.0 * M_PI * static_cast<double>(a * b) / static_cast<double>(rows);
          if (ct == DT_COMPLEX128) {
            m.flat<complex128>()(a * rows + b) = complex128(std::cos(angle), std::sin(angle));
          } else {
            m.flat<complex64>()(a * rows + b) =
                complex64(static_cast<float>(std::cos(angle)), static_cast<float>(std::sin(angle)));
          }
        }
      }
      GradOutput mask = s.Const(m);
      y0 = s.Op("BatchMatMulV2", {mask, s.Op("Conj", {y0})});
      ym = s.Op("BatchMatMulV2", {mask, s.Op("Conj", {ym})});
    }
    GradOutput extra = s.Add(RealPart(s, "Real", y0),
                             s.Mul(s.Mul(s.ScalarOf(rt, is_even), RealPart(s, "Real", ym)), ymask));
    GradOutput sum = s.Add(s.Mul(irfft, s.ScalarOf(rt, static_cast<double>(size))), extra);
    dx->push_back(s.Mul(s.ScalarOf(rt, 0.5), sum));
    dx->push_back(NoGradient());
    return s.status();
  };
}

// IRFFT / IRFFT2D: RFFT(dy) * [1, 2, ..., 2, (1 if fft_length is even)] / size (the number of
// elements in dy's transformed dims).
GradFunc IrfftGrad(int rank) {
  return [rank](GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
    std::vector<int64_t> dims;
    int64_t fft_len = 0;
    SG_RETURN_IF_ERROR(RealFftSizes(op, rank, &dims, &fft_len));
    DataType rt = DTypeOf(dy[0]), ct = DTypeOf(InputOf(op, 0));
    PartialTensorShape gs = StaticShapeOf(dy[0]);
    int64_t size = 1;
    for (int i = 0; i < rank && !gs.unknown_rank() && gs.dims() >= rank; ++i) {
      size *= gs.dim_size(gs.dims() - 1 - i);
    }
    if (gs.unknown_rank() || gs.dims() < rank || size <= 0) {
      return errors::Unimplemented(op.type_string(), " gradient of '", op.name(),
                                   "' needs dy's static shape");
    }
    const int64_t n = dims.back(), is_odd = fft_len % 2;
    Tensor mask = RealVector(rt, n, [&](int64_t i) {
      const bool single = i == 0 || (i == n - 1 && is_odd == 0 && n > 1);
      return (single ? 1.0 : 2.0) / static_cast<double>(size);
    });
    GradOutput rfft = s.Op(rank == 1 ? "RFFT" : "RFFT2D", {dy[0], InputOf(op, 1)},
                           {{"Treal", TypeAttr(rt)}, {"Tcomplex", TypeAttr(ct)}});
    dx->push_back(s.Mul(rfft, MakeComplex(s, s.Const(mask), s.ZerosLike(s.Const(mask)))));
    dx->push_back(NoGradient());
    return s.status();
  };
}

SG_REGISTER_GRADIENT("ConjugateTranspose", ConjugateTransposeGrad);
SG_REGISTER_GRADIENT("RFFT", RfftGrad(1));
SG_REGISTER_GRADIENT("IRFFT", IrfftGrad(1));
SG_REGISTER_GRADIENT("RFFT2D", RfftGrad(2));
SG_REGISTER_GRADIENT("IRFFT2D", IrfftGrad(2));
SG_REGISTER_GRADIENT("Xlogy", XlogyGrad);
SG_REGISTER_GRADIENT("Xlog1py", XlogyGrad);
SG_REGISTER_GRADIENT("Xdivy", XlogyGrad);
SG_REGISTER_GRADIENT("DivNoNan", DivNoNanGrad);
SG_REGISTER_GRADIENT("MulNoNan", MulNoNanGrad);
SG_REGISTER_GRADIENT("Atan2", Atan2Grad);
SG_REGISTER_GRADIENT("FloorMod", FloorModGrad);
SG_REGISTER_GRADIENT("Erfc", ErfcGrad);
SG_REGISTER_GRADIENT("Prod", ProdGrad);
SG_REGISTER_GRADIENT("Cumprod", CumprodGrad);
SG_REGISTER_GRADIENT("CumulativeLogsumexp", CumulativeLogsumexpGrad);
SG_REGISTER_GRADIENT("Complex", ComplexGrad);
SG_REGISTER_GRADIENT("Real", RealGrad);
SG_REGISTER_GRADIENT("Imag", ImagGrad);
SG_REGISTER_GRADIENT("Conj", ConjGrad);
SG_REGISTER_GRADIENT("Angle", AngleGrad);
SG_REGISTER_GRADIENT("ComplexAbs", ComplexAbsGrad);
SG_REGISTER_GRADIENT("FFT", FftGrad("IFFT", 1, true));
SG_REGISTER_GRADIENT("IFFT", FftGrad("FFT", 1, false));
SG_REGISTER_GRADIENT("FFT2D", FftGrad("IFFT2D", 2, true));
SG_REGISTER_GRADIENT("IFFT2D", FftGrad("FFT2D", 2, false));
SG_REGISTER_GRADIENT("FFT3D", FftGrad("IFFT3D", 3, true));
SG_REGISTER_GRADIENT("IFFT3D", FftGrad("FFT3D", 3, false));

// TensorFlow returns no gradient for these (math_grad.py registers functions returning None).
SG_REGISTER_NO_GRADIENT("FloorDiv");
SG_REGISTER_NO_GRADIENT("TruncateDiv");

}  // namespace
}  // namespace sg
