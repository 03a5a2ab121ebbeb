// The gradient functions of core/gradients/{segment,linalg,math_grad_extra,einsum,resource,
// image,second_order}_grad.cc and the later additions to nn_grad.cc and array_grad.cc
// (the ops in gradients_more_ops.h) against central finite differences: for inputs x and a
// forward graph y(x), the symbolic gradient of f(x) = sum(w * y(x)) (w random, given as the
// initial gradient) must match (f(x + eps e_j) - f(x - eps e_j)) / 2 eps for every element j.
// Complex-valued ops are checked inside real-valued functions (Complex in, Real/Imag out).
// And against TensorFlow: tests/oracle/grad_cases_more/<case>.pb (written by
// tests/oracle/make_grad_cases_more.py, the format of make_grad_cases.py) hold forward graphs as
// TensorFlow builds them, feeds, an initial gradient and tf.gradients' values; sg adds the
// gradients of "y" with respect to every placeholder and compares (1e-9 absolute + 1e-9
// relative in double, 1e-5 + 1e-4 in float).
// A case whose forward graph or gradient needs an op or kernel this build lacks (e.g. a *Grad
// op not registered yet) is skipped, naming it.
#include <gtest/gtest.h>

#include <functional>
#include <set>

#include "absl/strings/match.h"
#include "core/framework/attr_value_util.h"
#include "core/gradients/grad_registry.h"
#include "core/graph/gradients.h"
#include "core/runtime/session.h"
#include "tests/core/gradient_checker.h"
#include "tests/core/gradients_more_ops.h"

namespace sg {
namespace {

using gradcheck::GradCase;
using gradcheck::IntList;
using gradcheck::Missing;
using gradcheck::Placeholder;
using gradcheck::SessionFor;
using gradcheck::Str;
using gradcheck::TensorName;
using Out = gradcheck::Out;
using Xs = std::vector<Out>;
using Build = std::function<Out(GradScope&, const Xs&)>;

// Int constants of any shape.
Tensor Ints(DataType dt, std::vector<int64_t> dims, std::vector<int64_t> v) {
  Tensor t(dt, TensorShape(absl::Span<const int64_t>(dims)));
  for (size_t i = 0; i < v.size(); ++i) {
    if (dt == DT_INT64) {
      t.flat<int64_t>()(i) = v[i];
    } else {
      t.flat<int32_t>()(i) = static_cast<int32_t>(v[i]);
    }
  }
  return t;
}
Tensor I32(std::vector<int64_t> dims, std::vector<int64_t> v) { return Ints(DT_INT32, dims, v); }

class MoreGradientCheck : public ::testing::TestWithParam<GradCase> {};

TEST_P(MoreGradientCheck, MatchesCentralFiniteDifferences) {
  gradcheck::ExpectMatchesFiniteDifferences(GetParam(), /*seed=*/11);
}

GradOutput CDouble(GradScope& s, GradOutput re, GradOutput im) {
  return s.Op("Complex", {re, im}, {{"Tout", TypeAttr(DT_COMPLEX128)}});
}
GradOutput Part(GradScope& s, const char* type, GradOutput z) {
  return s.Op(type, {z}, {{"Tout", TypeAttr(DT_DOUBLE)}});
}

GradAttrs Window2D(const char* padding) {
  return {{"ksize", IntList({1, 2, 2, 1})}, {"strides", IntList({1, 2, 2, 1})}, {"padding", Str(padding)}};
}
GradAttrs Window3D() {
  return {{"ksize", IntList({1, 2, 2, 2, 1})}, {"strides", IntList({1, 2, 2, 2, 1})}, {"padding", Str("VALID")}};
}
GradAttrs Conv2DAttrs(bool strided = true) {
  return {{"strides", IntList({1, 1, strided ? 2 : 1, 1})}, {"padding", Str(strided ? "SAME" : "VALID")}};
}
GradAttrs Conv3DAttrs() {
  return {{"strides", IntList({1, 1, 1, 1, 1})}, {"padding", Str("VALID")}};
}

std::vector<GradCase> Cases() {
  auto unary = [](const char* name, std::vector<int64_t> dims, double lo, double hi, Build b) {
    return GradCase{name, {{dims, lo, hi}}, std::move(b)};
  };
  auto binary = [](const char* op, std::vector<int64_t> a, std::vector<int64_t> b, double lo,
                   double hi, double lo2, double hi2) {
    return GradCase{op, {{a, lo, hi}, {b, lo2, hi2}},
                    [op](GradScope& s, const Xs& x) { return s.Op(op, {x[0], x[1]}); }};
  };
  auto segment = [](const char* op, std::vector<int64_t> ids, double lo = -1, double hi = 1) {
    return GradCase{op, {{{5, 2}, lo, hi}}, [=](GradScope& s, const Xs& x) {
                      return s.Op(op, {x[0], s.Const(I32({5}, ids))});
                    }};
  };
  // Every segment gets an entry: an empty one's max/min is the dtype's lowest/highest value,
  // which would drown the finite differences.
  auto unsorted = [](const char* op, double lo = -1, double hi = 1) {
    return GradCase{op, {{{5, 2}, lo, hi}}, [=](GradScope& s, const Xs& x) {
                      return s.Op(op, {x[0], s.Const(I32({5}, {1, -1, 0, 1, 2})), s.ScalarI32(3)});
                    }};
  };
  auto sparse = [](const char* op, bool with_num) {
    return GradCase{op, {{{4, 3}}}, [=](GradScope& s, const Xs& x) {
                      std::vector<GradInput> in = {x[0], s.Const(I32({4}, {0, 2, 2, 3})),
                                                   s.Const(I32({4}, {0, 0, 1, 3}))};
                      if (with_num) in.push_back(s.ScalarI32(5));
                      return s.Op(op, in);
                    }};
  };
  auto scatter = [](const char* op) {
    return GradCase{op, {{{4, 2}}, {{2, 2}}}, [=](GradScope& s, const Xs& x) {
                      return s.Op(op, {x[0], s.Const(I32({2, 1}, {1, 3})), x[1]});
                    }};
  };
  auto stitch = [](const char* op) {
    return GradCase{op, {{{2, 3}}, {{2, 3}}}, [=](GradScope& s, const Xs& x) {
                      return s.Op(op, {GradInput::List({s.Const(I32({2}, {0, 2})), s.Const(I32({2}, {3, 1}))}),
                                       GradInput::List({x[0], x[1]})});
                    }};
  };
  auto complex_in = [](const char* name, std::vector<int64_t> dims,
                       std::function<Out(GradScope&, Out)> body) {
    return GradCase{name, {{dims}, {dims}}, [=](GradScope& s, const Xs& x) {
                      return body(s, CDouble(s, x[0], x[1]));
                    }};
  };
  auto fft = [&](const char* op, std::vector<int64_t> dims) {
    return complex_in(op, dims, [op](GradScope& s, Out z) {
      Out t = s.Op(op, {z});
      return s.Add(Part(s, "Real", t), s.Mul(s.ScalarOf(DT_DOUBLE, 0.7), Part(s, "Imag", t)));
    });
  };
  auto diag_v3 = [](const char* name, const char* op, std::vector<int64_t> dims, std::vector<int64_t> k,
                    const char* align, std::vector<GradInput> extra = {}) {
    return GradCase{name, {{dims}}, [=](GradScope& s, const Xs& x) {
                      std::vector<GradInput> in = {x[0], s.Const(I32({static_cast<int64_t>(k.size())}, k))};
                      for (const auto& e : extra) in.push_back(e);
                      GradAttrs attrs;
                      if (align != nullptr) attrs.emplace_back("align", Str(align));
                      in.push_back(s.ScalarOf(DT_DOUBLE, 0.0));
                      return s.Op(op, in, attrs);
                    }};
  };
  auto einsum = [](const char* name, const char* equation, std::vector<std::vector<int64_t>> dims) {
    GradCase gc{name, {}, [=](GradScope& s, const Xs& x) {
                  AttrValue eq;
                  eq.set_s(equation);
                  return s.Op("Einsum", {GradInput::List(x)}, {{"equation", eq}});
                }};
    for (auto& d : dims) gc.inputs.push_back({d});
    return gc;
  };
  // In float: the kernel interpolates in float, too coarse for double's finite-difference step;
  // the function is linear, so float's larger step is exact.
  auto projective = [](const char* op, bool v3) {
    return GradCase{op, {{{1, 4, 5, 2}}}, [=](GradScope& s, const Xs& x) {
                      Tensor t(DT_FLOAT, TensorShape({1, 8}));
                      const float v[] = {1, 0, 1, 0, 1, -1, 0, 0};
                      for (int i = 0; i < 8; ++i) t.flat<float>()(i) = v[i];
                      std::vector<GradInput> in = {x[0], s.Const(t), s.ConstI32({4, 5})};
                      if (v3) in.push_back(s.ScalarOf(DT_FLOAT, 0.0));
                      return s.Op(op, in, {{"interpolation", Str("BILINEAR")}, {"fill_mode", Str("CONSTANT")}});
                    },
                    DT_FLOAT};
  };

  // A pooling gradient op of x[1] (the pooled gradient, [1, 2, 2, 2]) with x[0] the pooled input
  // ([1, 4, 4, 2]); float, the kernels' main dtype.
  auto pool_grad = [](const char* name, Build b) {
    return GradCase{name, {{{1, 4, 4, 2}}, {{1, 2, 2, 2}}}, std::move(b), DT_FLOAT};
  };
  // FusedBatchNorm / V2 of x [2, 2, 2, 3], scale and offset; in inference with a constant mean
  // and variance (which get no gradient, as in TensorFlow).
  auto batch_norm = [](const char* name, bool training) {
    const std::string op = absl::StartsWith(name, "FusedBatchNormV2") ? "FusedBatchNormV2" : "FusedBatchNorm";
    return GradCase{name, {{{2, 2, 2, 3}}, {{3}, 0.5, 1.5}, {{3}}},
                    [op, training](GradScope& s, const Xs& x) {
                      Tensor mean(DT_FLOAT, TensorShape({training ? 0 : 3}));
                      Tensor var(DT_FLOAT, TensorShape({training ? 0 : 3}));
                      for (int i = 0; i < mean.NumElements(); ++i) {
                        mean.flat<float>()(i) = 0.1f * i - 0.1f;
                        var.flat<float>()(i) = 0.5f + 0.25f * i;
                      }
                      return s.Op(op, {x[0], x[1], x[2], s.Const(mean), s.Const(var)},
                                  {{"is_training", BoolAttr(training)}});
                    },
                    DT_FLOAT};
  };

  std::vector<GradCase> c = {
      // ---- segment_grad.cc
      segment("SegmentMean", {0, 0, 1, 2, 2}), segment("SegmentMax", {0, 0, 1, 1, 1}),
      segment("SegmentMin", {0, 1, 1, 1, 3}), segment("SegmentProd", {0, 0, 1, 3, 3}, 0.5, 1.5),
      unsorted("UnsortedSegmentProd", 0.5, 1.5), unsorted("UnsortedSegmentMax"),
      unsorted("UnsortedSegmentMin"),
      sparse("SparseSegmentSum", false), sparse("SparseSegmentSumWithNumSegments", true),
      sparse("SparseSegmentMean", false), sparse("SparseSegmentMeanWithNumSegments", true),
      sparse("SparseSegmentSqrtN", false), sparse("SparseSegmentSqrtNWithNumSegments", true),
      {"GatherNd", {{{3, 4}}},
       [](GradScope& s, const Xs& x) { return s.Op("GatherNd", {x[0], s.Const(I32({3, 2}, {0, 1, 2, 3, 0, 1}))}); }},
      {"GatherNdRows", {{{3, 4}}},
       [](GradScope& s, const Xs& x) { return s.Op("GatherNd", {x[0], s.Const(I32({2, 1}, {2, 0}))}); }},
      {"ScatterNd", {{{3, 2}}},
       [](GradScope& s, const Xs& x) {
         return s.Op("ScatterNd", {s.Const(I32({3, 1}, {1, 3, 1})), x[0], s.ConstI32({5, 2})});
       }},
      scatter("TensorScatterUpdate"), scatter("TensorScatterAdd"), scatter("TensorScatterSub"),
      scatter("ScatterNdNonAliasingAdd"), scatter("TensorScatterMin"), scatter("TensorScatterMax"),
      stitch("DynamicStitch"), stitch("ParallelDynamicStitch"),
      {"SparseToDense", {{{3}}, {{}}},
       [](GradScope& s, const Xs& x) {
         Out indices = s.Const(I32({3, 2}, {0, 1, 1, 2, 2, 0}));
         return s.Op("SparseToDense", {indices, s.ConstI32({3, 4}), x[0], x[1]});
       }},
      {"DynamicPartition", {{{5, 2}}},
       [](GradScope& s, const Xs& x) {
         auto parts = s.OpN("DynamicPartition", {x[0], s.Const(I32({5}, {1, 0, 1, 2, 0}))},
                            {{"num_partitions", IntAttr(3)}});
         if (parts.size() != 3) return NoGradient();
         // Partition 1 is unused: its gradient is ZerosLike.
         return s.Op("ConcatV2", {GradInput::List({parts[2], parts[0]}), s.ScalarI32(0)});
       }},
      {"TopKV2", {{{2, 5}}},
       [](GradScope& s, const Xs& x) { return s.Op("TopKV2", {x[0], s.ScalarI32(2)}); }},
      {"TopK", {{{3, 4}}},
       [](GradScope& s, const Xs& x) { return s.Op("TopK", {x[0]}, {{"k", IntAttr(3)}}); }},
      {"ReverseSequence", {{{3, 4}}},
       [](GradScope& s, const Xs& x) {
         return s.Op("ReverseSequence", {x[0], s.Const(Ints(DT_INT64, {3}, {2, 4, 1}))},
                     {{"seq_dim", IntAttr(1)}, {"batch_dim", IntAttr(0)}});
       }},
      {"Roll", {{{3, 4}}},
       [](GradScope& s, const Xs& x) { return s.Op("Roll", {x[0], s.ConstI32({1, -3}), s.ConstI32({0, 1})}); }},
      // ---- linalg_grad.cc
      {"MatrixInverse", {{{2, 3, 3}}},
       [](GradScope& s, const Xs& x) {
         Out well_conditioned = s.Add(x[0], s.Op("MatrixDiag", {s.Op("Fill", {s.ConstI32({3}), s.ScalarOf(DT_DOUBLE, 3)})}));
         return s.Op("MatrixInverse", {well_conditioned});
       }},
      {"MatrixInverseAdjoint", {{{3, 3}}},
       [](GradScope& s, const Xs& x) {
         Out well_conditioned = s.Add(x[0], s.Op("MatrixDiag", {s.Op("Fill", {s.ConstI32({3}), s.ScalarOf(DT_DOUBLE, 3)})}));
         return s.Op("MatrixInverse", {well_conditioned}, {{"adjoint", BoolAttr(true)}});
       }},
      unary("MatrixDiag", {2, 3}, -1, 1, [](GradScope& s, const Xs& x) { return s.Op("MatrixDiag", {x[0]}); }),
      {"MatrixDiagV2", {{{2, 3}}},
       [](GradScope& s, const Xs& x) {
         return s.Op("MatrixDiagV2", {x[0], s.ScalarI32(1), s.ScalarI32(-1), s.ScalarI32(-1), s.ScalarOf(DT_DOUBLE, 0)});
       }},
      {"MatrixDiagV3Band", {{{2, 2, 3}}},
       [](GradScope& s, const Xs& x) {
         return s.Op("MatrixDiagV3", {x[0], s.ConstI32({-1, 0}), s.ScalarI32(3), s.ScalarI32(3), s.ScalarOf(DT_DOUBLE, 0)},
                     {{"align", Str("LEFT_RIGHT")}});
       }},
      unary("MatrixDiagPart", {2, 3, 3}, -1, 1,
            [](GradScope& s, const Xs& x) { return s.Op("MatrixDiagPart", {x[0]}); }),
      unary("MatrixDiagPartNonSquare", {3, 4}, -1, 1,
            [](GradScope& s, const Xs& x) { return s.Op("MatrixDiagPart", {x[0]}); }),
      diag_v3("MatrixDiagPartV2", "MatrixDiagPartV2", {3, 4}, {1}, nullptr),
      diag_v3("MatrixDiagPartV3Band", "MatrixDiagPartV3", {2, 3, 4}, {-1, 1}, "LEFT_RIGHT"),
      {"MatrixSetDiag", {{{2, 3, 3}}, {{2, 3}}},
       [](GradScope& s, const Xs& x) { return s.Op("MatrixSetDiag", {x[0], x[1]}); }},
      {"MatrixSetDiagV2", {{{3, 4}}, {{3}}},
       [](GradScope& s, const Xs& x) { return s.Op("MatrixSetDiagV2", {x[0], x[1], s.ScalarI32(0)}); }},
      {"MatrixSetDiagV3Band", {{{3, 4}}, {{2, 3}}},
       [](GradScope& s, const Xs& x) {
         return s.Op("MatrixSetDiagV3", {x[0], x[1], s.ConstI32({0, 1})}, {{"align", Str("RIGHT_LEFT")}});
       }},
      // ---- math_grad_extra.cc
      binary("Xlogy", {2, 3}, {3}, 0.5, 2, 0.5, 2), binary("Xlog1py", {2, 3}, {3}, 0.5, 2, 0.5, 2),
      binary("Xdivy", {3}, {2, 3}, 0.5, 2, 0.5, 2), binary("DivNoNan", {2, 3}, {2, 1}, -1, 1, 0.5, 2),
      binary("MulNoNan", {2, 3}, {3}, -1, 1, -1, 1), binary("Atan2", {2, 3}, {2, 3}, -1, 1, -1, 1),
      binary("FloorMod", {2, 3}, {3}, 0.1, 3, 0.7, 1.3),
      unary("Erfc", {2, 3}, -1, 1, [](GradScope& s, const Xs& x) { return s.Op("Erfc", {x[0]}); }),
      unary("Prod", {2, 3, 4}, 0.5, 1.5,
            [](GradScope& s, const Xs& x) { return s.Op("Prod", {x[0], s.ConstI32({1})}); }),
      unary("ProdKeepDims", {2, 3, 4}, 0.5, 1.5,
            [](GradScope& s, const Xs& x) {
              return s.Op("Prod", {x[0], s.ConstI32({0, -1})}, {{"keep_dims", BoolAttr(true)}});
            }),
      // Axes computed in the graph: the permutation comes from ListDiff and DynamicStitch.
      unary("ProdAxesNotConstant", {2, 3, 4}, 0.5, 1.5,
            [](GradScope& s, const Xs& x) {
              return s.Op("Prod", {x[0], s.Op("Identity", {s.ConstI32({-1, 0})})});
            }),
      unary("Cumprod", {2, 4}, 0.5, 1.5,
            [](GradScope& s, const Xs& x) { return s.Op("Cumprod", {x[0], s.ScalarI32(1)}); }),
      unary("CumprodExclusiveReverse", {3, 2}, 0.5, 1.5,
            [](GradScope& s, const Xs& x) {
              return s.Op("Cumprod", {x[0], s.ScalarI32(0)},
                          {{"exclusive", BoolAttr(true)}, {"reverse", BoolAttr(true)}});
            }),
      unary("CumulativeLogsumexp", {2, 4}, -1, 1,
            [](GradScope& s, const Xs& x) {
              return s.Op("CumulativeLogsumexp", {x[0], s.ScalarI32(1)});
            }),
      // Reverse only: an exclusive one starts at log(0) = -inf, which finite differences cannot
      // take (the oracle case covers exclusive).
      unary("CumulativeLogsumexpReverse", {3, 2}, -1, 1,
            [](GradScope& s, const Xs& x) {
              return s.Op("CumulativeLogsumexp", {x[0], s.ScalarI32(0)}, {{"reverse", BoolAttr(true)}});
            }),
      complex_in("Complex", {2, 3}, [](GradScope& s, Out z) { return Part(s, "Real", s.Mul(z, z)); }),
      complex_in("RealOfProduct", {3}, [](GradScope& s, Out z) { return Part(s, "Real", s.Mul(z, s.Op("Exp", {z}))); }),
      complex_in("ImagOfSquare", {3}, [](GradScope& s, Out z) { return Part(s, "Imag", s.Mul(z, z)); }),
      complex_in("Conj", {3}, [](GradScope& s, Out z) { return Part(s, "Imag", s.Mul(s.Op("Conj", {z}), s.Mul(z, z))); }),
      complex_in("Angle", {2, 3}, [](GradScope& s, Out z) { return Part(s, "Angle", z); }),
      complex_in("ComplexAbs", {2, 3}, [](GradScope& s, Out z) { return Part(s, "ComplexAbs", z); }),
      fft("FFT", {2, 4}), fft("IFFT", {2, 4}), fft("FFT2D", {2, 3, 4}), fft("IFFT2D", {3, 4}),
      fft("FFT3D", {2, 2, 3}), fft("IFFT3D", {2, 3, 2}),
      complex_in("ConjugateTranspose", {2, 3}, [](GradScope& s, Out z) {
        return Part(s, "Imag", s.Op("ConjugateTranspose", {s.Mul(z, z), s.ConstI32({1, 0})}));
      }),
      {"RFFT", {{{2, 6}}},
       [](GradScope& s, const Xs& x) {
         Out t = s.Op("RFFT", {x[0], s.ConstI32({6})},
                      {{"Treal", TypeAttr(DT_DOUBLE)}, {"Tcomplex", TypeAttr(DT_COMPLEX128)}});
         return s.Add(Part(s, "Real", t), s.Mul(s.ScalarOf(DT_DOUBLE, 0.7), Part(s, "Imag", t)));
       }},
      {"RFFTOddLength", {{{3, 5}}},
       [](GradScope& s, const Xs& x) {
         Out t = s.Op("RFFT", {x[0], s.ConstI32({5})},
                      {{"Treal", TypeAttr(DT_DOUBLE)}, {"Tcomplex", TypeAttr(DT_COMPLEX128)}});
         return s.Add(Part(s, "Real", t), s.Mul(s.ScalarOf(DT_DOUBLE, 0.7), Part(s, "Imag", t)));
       }},
      complex_in("IRFFT", {2, 4}, [](GradScope& s, Out z) {
        return s.Op("IRFFT", {z, s.ConstI32({6})},
                    {{"Treal", TypeAttr(DT_DOUBLE)}, {"Tcomplex", TypeAttr(DT_COMPLEX128)}});
      }),
      complex_in("IRFFTOddLength", {2, 4}, [](GradScope& s, Out z) {
        return s.Op("IRFFT", {z, s.ConstI32({7})},
                    {{"Treal", TypeAttr(DT_DOUBLE)}, {"Tcomplex", TypeAttr(DT_COMPLEX128)}});
      }),
      {"RFFT2D", {{{2, 3, 4}}},
       [](GradScope& s, const Xs& x) {
         Out t = s.Op("RFFT2D", {x[0], s.ConstI32({3, 4})},
                      {{"Treal", TypeAttr(DT_DOUBLE)}, {"Tcomplex", TypeAttr(DT_COMPLEX128)}});
         return s.Add(Part(s, "Real", t), s.Mul(s.ScalarOf(DT_DOUBLE, 0.7), Part(s, "Imag", t)));
       }},
      {"RFFT2DOdd", {{{3, 5}}},
       [](GradScope& s, const Xs& x) {
         Out t = s.Op("RFFT2D", {x[0], s.ConstI32({3, 5})},
                      {{"Treal", TypeAttr(DT_DOUBLE)}, {"Tcomplex", TypeAttr(DT_COMPLEX128)}});
         return s.Add(Part(s, "Real", t), s.Mul(s.ScalarOf(DT_DOUBLE, 0.7), Part(s, "Imag", t)));
       }},
      complex_in("IRFFT2D", {2, 3, 3}, [](GradScope& s, Out z) {
        return s.Op("IRFFT2D", {z, s.ConstI32({3, 4})},
                    {{"Treal", TypeAttr(DT_DOUBLE)}, {"Tcomplex", TypeAttr(DT_COMPLEX128)}});
      }),
      complex_in("IRFFT2DOdd", {4, 3}, [](GradScope& s, Out z) {
        return s.Op("IRFFT2D", {z, s.ConstI32({4, 5})},
                    {{"Treal", TypeAttr(DT_DOUBLE)}, {"Tcomplex", TypeAttr(DT_COMPLEX128)}});
      }),
      // ---- einsum_grad.cc
      einsum("EinsumMatMul", "ij,jk->ik", {{2, 3}, {3, 4}}),
      einsum("EinsumBatch", "bij,bjk->bik", {{2, 2, 3}, {2, 3, 2}}),
      einsum("EinsumTranspose", "ij->ji", {{2, 3}}),
      einsum("EinsumRowSums", "ij->i", {{2, 3}}),
      einsum("EinsumSummedLabels", "ij,kj->", {{2, 3}, {4, 3}}),
      einsum("EinsumOuterSummed", "abc,cd->da", {{2, 3, 4}, {4, 2}}),
      // A repeated input label: the gradient is an Einsum with it repeated in the output ("i->ii").
      einsum("EinsumTrace", "ii->", {{3, 3}}),
      einsum("EinsumDiagonal", "ii->i", {{3, 3}}),
      einsum("EinsumDiagonalProduct", "iij,jk->ik", {{3, 3, 2}, {2, 4}}),
      einsum("EinsumRepeatedSummed", "iij,k->k", {{2, 2, 3}, {4}}),
      einsum("EinsumEllipsisBroadcast", "...ij,...jk->...ik", {{2, 1, 2, 3}, {3, 3, 2}}),
      einsum("EinsumEllipsisOneSide", "...ij,jk->...ik", {{2, 2, 3}, {3, 2}}),
      // ---- image_grad.cc
      {"CropAndResize", {{{1, 4, 4, 2}}, {{2, 4}, 0.1, 0.9}},
       [](GradScope& s, const Xs& x) {
         return s.Op("CropAndResize", {x[0], x[1], s.Const(I32({2}, {0, 0})), s.ConstI32({3, 3})});
       },
       DT_FLOAT},
      {"ResizeBicubic", {{{1, 3, 3, 1}}},
       [](GradScope& s, const Xs& x) { return s.Op("ResizeBicubic", {x[0], s.ConstI32({5, 4})}); },
       DT_FLOAT},
      // A translation by whole pixels: TensorFlow's inverse-transform gradient is exact there.
      projective("ImageProjectiveTransformV2", false), projective("ImageProjectiveTransformV3", true),
      {"ExtractImagePatches", {{{2, 4, 3, 2}}},
       [](GradScope& s, const Xs& x) {
         return s.Op("ExtractImagePatches", {x[0]},
                     {{"ksizes", IntList({1, 2, 2, 1})}, {"strides", IntList({1, 2, 1, 1})},
                      {"rates", IntList({1, 1, 2, 1})}, {"padding", Str("SAME")}});
       }},
      // ---- second_order_grad.cc: gradients of gradient ops.
      binary("ReluGrad", {2, 3}, {2, 3}, -1, 1, -1, 1),
      binary("Relu6Grad", {2, 3}, {2, 3}, -1, 1, -2, 8),
      {"LeakyReluGrad", {{{2, 3}}, {{2, 3}}},
       [](GradScope& s, const Xs& x) {
         AttrValue alpha;
         alpha.set_f(0.3f);
         return s.Op("LeakyReluGrad", {x[0], x[1]}, {{"alpha", alpha}});
       }},
      binary("EluGrad", {2, 3}, {2, 3}, -1, 1, -0.9, 1),
      binary("SeluGrad", {2, 3}, {2, 3}, -1, 1, -1.5, 1),
      binary("SoftplusGrad", {2, 3}, {2, 3}, -1, 1, -1, 1),
      binary("SigmoidGrad", {2, 3}, {2, 3}, 0.1, 0.9, -1, 1),
      binary("TanhGrad", {2, 3}, {2, 3}, -0.9, 0.9, -1, 1),
      binary("SqrtGrad", {2, 3}, {2, 3}, 0.5, 2, -1, 1),
      binary("RsqrtGrad", {2, 3}, {2, 3}, 0.5, 2, -1, 1),
      binary("ReciprocalGrad", {2, 3}, {2, 3}, 0.5, 2, -1, 1),
      binary("InvGrad", {2, 3}, {2, 3}, 0.5, 2, -1, 1),
      unary("BiasAddGrad", {2, 3, 4}, -1, 1, [](GradScope& s, const Xs& x) { return s.Op("BiasAddGrad", {x[0]}); }),
      unary("BiasAddGradNCHW", {2, 3, 4, 2}, -1, 1,
            [](GradScope& s, const Xs& x) {
              return s.Op("BiasAddGrad", {x[0]}, {{"data_format", Str("NCHW")}});
            }),
      unary("MirrorPadGrad", {5, 4}, -1, 1,
            [](GradScope& s, const Xs& x) {
              return s.Op("MirrorPadGrad", {x[0], s.Const(I32({2, 2}, {1, 1, 1, 0}))}, {{"mode", Str("REFLECT")}});
            }),
      unary("StridedSliceGrad", {2, 2}, -1, 1,
            [](GradScope& s, const Xs& x) {
              return s.Op("StridedSliceGrad", {s.ConstI32({4, 5}), s.ConstI32({0, 1}), s.ConstI32({4, 5}),
                                               s.ConstI32({2, 2}), x[0]});
            }),
      {"AvgPoolGrad", {{{1, 2, 2, 2}}},
       [](GradScope& s, const Xs& x) { return s.Op("AvgPoolGrad", {s.ConstI32({1, 4, 4, 2}), x[0]}, Window2D("VALID")); },
       DT_FLOAT},
      pool_grad("MaxPoolGrad", [](GradScope& s, const Xs& x) {
        return s.Op("MaxPoolGrad", {x[0], s.Op("MaxPool", {x[0]}, Window2D("VALID")), x[1]}, Window2D("VALID"));
      }),
      {"MaxPoolGradGrad", {{{1, 4, 4, 2}}, {{1, 4, 4, 2}}},
       [](GradScope& s, const Xs& x) {
         return s.Op("MaxPoolGradGrad", {x[0], s.Op("MaxPool", {x[0]}, Window2D("VALID")), x[1]}, Window2D("VALID"));
       },
       DT_FLOAT},
      pool_grad("MaxPoolGradV2", [](GradScope& s, const Xs& x) {
        GradAttrs attrs = {{"padding", Str("VALID")}};
        return s.Op("MaxPoolGradV2", {x[0], s.Op("MaxPool", {x[0]}, Window2D("VALID")), x[1],
                                      s.ConstI32({1, 2, 2, 1}), s.ConstI32({1, 2, 2, 1})}, attrs);
      }),
      {"AvgPool3DGrad", {{{1, 2, 2, 2, 2}}},
       [](GradScope& s, const Xs& x) { return s.Op("AvgPool3DGrad", {s.ConstI32({1, 4, 4, 4, 2}), x[0]}, Window3D()); },
       DT_FLOAT},
      {"MaxPool3DGrad", {{{1, 4, 4, 4, 2}}, {{1, 2, 2, 2, 2}}},
       [](GradScope& s, const Xs& x) {
         return s.Op("MaxPool3DGrad", {x[0], s.Op("MaxPool3D", {x[0]}, Window3D()), x[1]}, Window3D());
       },
       DT_FLOAT},
      {"MaxPool3DGradGrad", {{{1, 4, 4, 4, 2}}, {{1, 4, 4, 4, 2}}},
       [](GradScope& s, const Xs& x) {
         return s.Op("MaxPool3DGradGrad", {x[0], s.Op("MaxPool3D", {x[0]}, Window3D()), x[1]}, Window3D());
       },
       DT_FLOAT},
      {"Conv2DBackpropFilter", {{{1, 4, 4, 2}}, {{1, 4, 2, 3}}},
       [](GradScope& s, const Xs& x) {
         return s.Op("Conv2DBackpropFilter", {x[0], s.ConstI32({2, 2, 2, 3}), x[1]}, Conv2DAttrs());
       }},
      {"DepthwiseConv2dNativeBackpropFilter", {{{1, 4, 4, 2}}, {{1, 3, 3, 4}}},
       [](GradScope& s, const Xs& x) {
         return s.Op("DepthwiseConv2dNativeBackpropFilter", {x[0], s.ConstI32({2, 2, 2, 2}), x[1]}, Conv2DAttrs(false));
       }},
      {"DepthwiseConv2dNativeBackpropInput", {{{2, 2, 2, 2}}, {{1, 3, 3, 4}}},
       [](GradScope& s, const Xs& x) {
         return s.Op("DepthwiseConv2dNativeBackpropInput", {s.ConstI32({1, 4, 4, 2}), x[0], x[1]}, Conv2DAttrs(false));
       }},
      {"Conv3DBackpropFilterV2", {{{1, 3, 3, 3, 2}}, {{1, 2, 2, 2, 3}}},
       [](GradScope& s, const Xs& x) {
         return s.Op("Conv3DBackpropFilterV2", {x[0], s.ConstI32({2, 2, 2, 2, 3}), x[1]}, Conv3DAttrs());
       }},
      {"Conv3DBackpropInputV2", {{{2, 2, 2, 2, 3}}, {{1, 2, 2, 2, 3}}},
       [](GradScope& s, const Xs& x) {
         return s.Op("Conv3DBackpropInputV2", {s.ConstI32({1, 3, 3, 3, 2}), x[0], x[1]}, Conv3DAttrs());
       }},
      // ---- nn_grad.cc: the 3-D, v1 and global-normalization forms.
      {"Conv3D", {{{1, 3, 3, 3, 2}}, {{2, 2, 2, 2, 3}}},
       [](GradScope& s, const Xs& x) { return s.Op("Conv3D", {x[0], x[1]}, Conv3DAttrs()); }},
      {"AvgPool3D", {{{1, 4, 4, 4, 2}}},
       [](GradScope& s, const Xs& x) { return s.Op("AvgPool3D", {x[0]}, Window3D()); }, DT_FLOAT},
      {"MaxPool3D", {{{1, 4, 4, 4, 2}}},
       [](GradScope& s, const Xs& x) { return s.Op("MaxPool3D", {x[0]}, Window3D()); }, DT_FLOAT},
      // In double: float's finite-difference step would cross near-ties between a window's values.
      {"MaxPoolWithArgmax", {{{2, 4, 4, 2}}},
       [](GradScope& s, const Xs& x) { return s.Op("MaxPoolWithArgmax", {x[0]}, Window2D("SAME")); }},
      {"BiasAddV1", {{{2, 3}}, {{3}}},
       [](GradScope& s, const Xs& x) { return s.Op("BiasAddV1", {x[0], x[1]}); }},
      batch_norm("FusedBatchNorm", true), batch_norm("FusedBatchNormV2", true),
      batch_norm("FusedBatchNormInference", false), batch_norm("FusedBatchNormV2Inference", false),
      {"BatchNormWithGlobalNormalization", {{{1, 2, 2, 3}}, {{3}}, {{3}, 0.5, 1.5}, {{3}}, {{3}}},
       [](GradScope& s, const Xs& x) {
         AttrValue eps;
         eps.set_f(0.001f);
         return s.Op("BatchNormWithGlobalNormalization", {x[0], x[1], x[2], x[3], x[4]},
                     {{"variance_epsilon", eps}, {"scale_after_normalization", BoolAttr(true)}});
       }},
      // ---- array_grad.cc: pass-throughs, inverse pairs and the strided-slice update.
      unary("PlaceholderWithDefault", {2, 3}, -1, 1,
            [](GradScope& s, const Xs& x) {
              AttrValue shape;
              PartialTensorShape({2, 3}).AsProto(shape.mutable_shape());
              return s.Op("PlaceholderWithDefault", {x[0]}, {{"shape", shape}});
            }),
      unary("EnsureShape", {2, 3}, -1, 1,
            [](GradScope& s, const Xs& x) {
              AttrValue shape;
              PartialTensorShape({-1, 3}).AsProto(shape.mutable_shape());
              return s.Op("EnsureShape", {x[0]}, {{"shape", shape}});
            }),
      unary("DebugGradientIdentity", {2, 3}, -1, 1,
            [](GradScope& s, const Xs& x) { return s.Op("DebugGradientIdentity", {x[0]}); }),
      unary("Print", {2, 3}, -1, 1,
            [](GradScope& s, const Xs& x) {
              return s.Op("Print", {x[0], GradInput::List({s.Op("Shape", {x[0]})})}, {{"message", Str("sg test: ")}});
            }),
      unary("CheckNumerics", {2, 3}, -1, 1,
            [](GradScope& s, const Xs& x) { return s.Op("CheckNumerics", {x[0]}, {{"message", Str("x")}}); }),
      unary("CheckNumericsV2", {2, 3}, -1, 1,
            [](GradScope& s, const Xs& x) { return s.Op("CheckNumericsV2", {x[0]}, {{"message", Str("x")}}); }),
      unary("Reverse", {2, 3, 2}, -1, 1,
            [](GradScope& s, const Xs& x) {
              Tensor dims(DT_BOOL, TensorShape({3}));
              dims.flat<bool>()(0) = true, dims.flat<bool>()(1) = false, dims.flat<bool>()(2) = true;
              return s.Op("Reverse", {x[0], s.Const(dims)});
            }),
      unary("Diag", {2, 3}, -1, 1, [](GradScope& s, const Xs& x) { return s.Op("Diag", {x[0]}); }),
      unary("DiagPart", {2, 3, 2, 3}, -1, 1, [](GradScope& s, const Xs& x) { return s.Op("DiagPart", {x[0]}); }),
      unary("SpaceToBatchND", {1, 4, 3, 2}, -1, 1,
            [](GradScope& s, const Xs& x) {
              return s.Op("SpaceToBatchND", {x[0], s.ConstI32({2, 2}), s.Const(I32({2, 2}, {0, 0, 0, 1}))});
            }),
      unary("BatchToSpaceND", {4, 2, 2, 2}, -1, 1,
            [](GradScope& s, const Xs& x) {
              return s.Op("BatchToSpaceND", {x[0], s.ConstI32({2, 2}), s.Const(I32({2, 2}, {0, 1, 1, 0}))});
            }),
      unary("SpaceToBatch", {1, 4, 2, 2}, -1, 1,
            [](GradScope& s, const Xs& x) {
              return s.Op("SpaceToBatch", {x[0], s.Const(I32({2, 2}, {0, 0, 1, 1}))}, {{"block_size", IntAttr(2)}});
            }),
      unary("BatchToSpace", {4, 2, 3, 1}, -1, 1,
            [](GradScope& s, const Xs& x) {
              return s.Op("BatchToSpace", {x[0], s.Const(I32({2, 2}, {1, 0, 0, 2}))}, {{"block_size", IntAttr(2)}});
            }),
      unary("SpaceToDepth", {1, 4, 2, 3}, -1, 1,
            [](GradScope& s, const Xs& x) { return s.Op("SpaceToDepth", {x[0]}, {{"block_size", IntAttr(2)}}); }),
      unary("DepthToSpace", {1, 2, 1, 8}, -1, 1,
            [](GradScope& s, const Xs& x) { return s.Op("DepthToSpace", {x[0]}, {{"block_size", IntAttr(2)}}); }),
      {"TensorStridedSliceUpdate", {{{4, 3}}, {{2, 3}}},
       [](GradScope& s, const Xs& x) {
         return s.Op("TensorStridedSliceUpdate", {x[0], s.ConstI32({0, 0}), s.ConstI32({4, 3}), s.ConstI32({2, 1}), x[1]});
       }},
      {"TensorStridedSliceUpdateBroadcast", {{{4, 3}}, {{3}}},
       [](GradScope& s, const Xs& x) {
         return s.Op("TensorStridedSliceUpdate", {x[0], s.ConstI32({1, 0}), s.ConstI32({3, 3}), s.ConstI32({1, 1}), x[1]});
       }},
      // ---- segment_grad.cc
      {"SparseFillEmptyRows", {{{3}}, {{}}},
       [](GradScope& s, const Xs& x) {
         Tensor indices = Ints(DT_INT64, {3, 2}, {0, 1, 2, 0, 2, 2});
         auto outs = s.OpN("SparseFillEmptyRows", {s.Const(indices), x[0], s.Const(Ints(DT_INT64, {2}, {4, 3})), x[1]});
         return outs.size() == 4 ? outs[1] : NoGradient();
       }},
  };
  // The dynamic-shape paths.
  gradcheck::AddDynamicCases({"Prod", "ProdKeepDims", "SegmentMean", "SparseSegmentMean",
                              "UnsortedSegmentMax", "TopKV2", "GatherNd", "DynamicPartition",
                              "MatrixDiagPart", "MatrixDiagPartV2", "EinsumRowSums",
                              "EinsumOuterSummed", "ExtractImagePatches"},
                             &c);
  return c;
}

INSTANTIATE_TEST_SUITE_P(More, MoreGradientCheck, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<GradCase>& info) { return info.param.name; });

// ---- Against TensorFlow's tf.gradients ---------------------------------------------------------

std::string OracleDir() { return std::string(SG_SOURCE_DIR) + "/tests/oracle/grad_cases_more"; }

class MoreGradientOracle : public ::testing::TestWithParam<std::string> {};

TEST_P(MoreGradientOracle, MatchesTensorFlow) {
  gradcheck::ExpectMatchesOracleCase(OracleDir() + "/" + GetParam() + ".pb");
}

INSTANTIATE_TEST_SUITE_P(TensorFlow, MoreGradientOracle, ::testing::ValuesIn(gradcheck::OracleCaseNames(OracleDir())),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// ResourceGather: the variable's handle gets dy's rows summed into the rows gathered.
TEST(MoreGradients, ResourceGatherSumsRowsIntoTheVariable) {
  Graph g;
  GradScope fwd(&g, "fwd");
  AttrValue shape;
  PartialTensorShape({4, 2}).AsProto(shape.mutable_shape());
  Out handle = fwd.Op("VarHandleOp", {}, {{"dtype", TypeAttr(DT_FLOAT)}, {"shape", shape}});
  Tensor init(DT_FLOAT, TensorShape({4, 2}));
  for (int i = 0; i < 8; ++i) init.flat<float>()(i) = i;
  fwd.OpN("AssignVariableOp", {handle, fwd.Const(init)});  // no outputs
  Out y = fwd.Op("ResourceGather", {handle, fwd.Const(I32({3}, {2, 0, 2}))},
                 {{"dtype", TypeAttr(DT_FLOAT)}});
  Tensor w(DT_FLOAT, TensorShape({3, 2}));
  for (int i = 0; i < 6; ++i) w.flat<float>()(i) = i + 1;
  Out dy = fwd.Const(w);
  ASSERT_TRUE(fwd.status().ok()) << fwd.status();
  Xs dx;
  absl::Status s = AddSymbolicGradients(&g, {y}, {handle}, {dy}, "", &dx);
  ASSERT_TRUE(s.ok()) << s;
  auto sess = SessionFor(g);
  ASSERT_TRUE(sess.ok()) << sess.status();
  std::vector<Tensor> out;
  ASSERT_TRUE((*sess)->Run({}, {}, {"fwd/AssignVariableOp"}, &out).ok());
  s = (*sess)->Run({}, {TensorName(dx[0])}, {}, &out);
  ASSERT_TRUE(s.ok()) << s;
  ASSERT_EQ(out[0].shape().DebugString(), TensorShape({4, 2}).DebugString());
  const float want[] = {3, 4, 0, 0, 1 + 5, 2 + 6, 0, 0};
  for (int i = 0; i < 8; ++i) EXPECT_FLOAT_EQ(out[0].flat<float>()(i), want[i]) << i;
}

// ResourceGatherNd: the variable's handle gets dy scattered (summed) into the entries gathered.
TEST(MoreGradients, ResourceGatherNdScattersIntoTheVariable) {
  Graph g;
  GradScope fwd(&g, "fwd");
  AttrValue shape;
  PartialTensorShape({3, 2}).AsProto(shape.mutable_shape());
  Out handle = fwd.Op("VarHandleOp", {}, {{"dtype", TypeAttr(DT_FLOAT)}, {"shape", shape}});
  Tensor init(DT_FLOAT, TensorShape({3, 2}));
  for (int i = 0; i < 6; ++i) init.flat<float>()(i) = i;
  fwd.OpN("AssignVariableOp", {handle, fwd.Const(init)});
  Out y = fwd.Op("ResourceGatherNd", {handle, fwd.Const(I32({3, 2}, {2, 1, 0, 0, 2, 1}))},
                 {{"dtype", TypeAttr(DT_FLOAT)}});
  Tensor w(DT_FLOAT, TensorShape({3}));
  for (int i = 0; i < 3; ++i) w.flat<float>()(i) = i + 1;
  ASSERT_TRUE(fwd.status().ok()) << fwd.status();
  Xs dx;
  absl::Status s = AddSymbolicGradients(&g, {y}, {handle}, {fwd.Const(w)}, "", &dx);
  ASSERT_TRUE(s.ok()) << s;
  auto sess = SessionFor(g);
  ASSERT_TRUE(sess.ok()) << sess.status();
  std::vector<Tensor> out;
  ASSERT_TRUE((*sess)->Run({}, {}, {"fwd/AssignVariableOp"}, &out).ok());
  s = (*sess)->Run({}, {TensorName(dx[0])}, {}, &out);
  ASSERT_TRUE(s.ok()) << s;
  ASSERT_EQ(out[0].shape().DebugString(), TensorShape({3, 2}).DebugString());
  const float want[] = {2, 0, 0, 0, 0, 1 + 3};
  for (int i = 0; i < 6; ++i) EXPECT_FLOAT_EQ(out[0].flat<float>()(i), want[i]) << i;
}

// RefIdentity and DebugGradientRefIdentity hand the gradient to the ref variable unchanged.
TEST(MoreGradients, RefIdentitiesPassTheGradientToTheVariable) {
  Graph g;
  GradScope fwd(&g, "fwd");
  AttrValue shape;
  PartialTensorShape({2}).AsProto(shape.mutable_shape());
  Out var = fwd.Op("VariableV2", {}, {{"dtype", TypeAttr(DT_FLOAT)}, {"shape", shape}});
  Tensor init(DT_FLOAT, TensorShape({2}));
  init.flat<float>()(0) = 3, init.flat<float>()(1) = -1;
  fwd.Op("Assign", {var, fwd.Const(init)});
  Out ref = fwd.Op("DebugGradientRefIdentity", {fwd.Op("RefIdentity", {var})});
  Out y = fwd.Mul(fwd.Mul(ref, ref), fwd.ScalarOf(DT_FLOAT, 5));
  ASSERT_TRUE(fwd.status().ok()) << fwd.status();
  Xs dx;
  absl::Status s = AddSymbolicGradients(&g, {y}, {var}, {}, "", &dx);
  ASSERT_TRUE(s.ok()) << s;
  auto sess = SessionFor(g);
  ASSERT_TRUE(sess.ok()) << sess.status();
  std::vector<Tensor> out;
  ASSERT_TRUE((*sess)->Run({}, {}, {"fwd/Assign"}, &out).ok());
  s = (*sess)->Run({}, {TensorName(dx[0])}, {}, &out);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_FLOAT_EQ(out[0].flat<float>()(0), 30);  // d(5 v^2) = 10 v
  EXPECT_FLOAT_EQ(out[0].flat<float>()(1), -10);
}

// QuantizeAndDequantizeV2/V3 are straight-through estimators: dy flows to the input unchanged;
// V4 passes it only where the input lies in [input_min, input_max] (finite differences would see
// the quantizer's steps instead).
TEST(MoreGradients, QuantizeAndDequantizePassTheGradientStraightThrough) {
  for (const char* op : {"QuantizeAndDequantizeV2", "QuantizeAndDequantizeV3", "QuantizeAndDequantizeV4"}) {
    SCOPED_TRACE(op);
    Graph g;
    Out x = Placeholder(&g, "x", DT_FLOAT, {4});
    GradScope fwd(&g, "fwd");
    std::vector<GradInput> in = {x, fwd.ScalarOf(DT_FLOAT, -0.2), fwd.ScalarOf(DT_FLOAT, 0.3)};
    const bool v3 = std::string(op) == "QuantizeAndDequantizeV3";
    if (v3) in.push_back(fwd.ScalarI32(4));
    Out y = fwd.Op(op, in, {{"range_given", BoolAttr(true)}});
    Tensor w(DT_FLOAT, TensorShape({4}));
    for (int i = 0; i < 4; ++i) w.flat<float>()(i) = 0.5f * (i + 1);
    ASSERT_TRUE(fwd.status().ok()) << fwd.status();
    Xs dx;
    absl::Status s = AddSymbolicGradients(&g, {y}, {x}, {fwd.Const(w)}, "", &dx);
    ASSERT_TRUE(s.ok()) << s;
    auto sess = SessionFor(g);
    ASSERT_TRUE(sess.ok()) << sess.status();
    Tensor v(DT_FLOAT, TensorShape({4}));
    for (int i = 0; i < 4; ++i) v.flat<float>()(i) = 0.3f * i - 0.4f;  // -0.4 -0.1 0.2 0.5
    std::vector<Tensor> out;
    s = (*sess)->Run({{"x:0", v}}, {TensorName(dx[0])}, {}, &out);
    ASSERT_TRUE(s.ok()) << s;
    const bool clipped = std::string(op) == "QuantizeAndDequantizeV4";
    for (int i = 0; i < 4; ++i) {
      const bool inside = i == 1 || i == 2;
      EXPECT_FLOAT_EQ(out[0].flat<float>()(i), clipped && !inside ? 0.0f : w.flat<float>()(i)) << i;
    }
  }
}

// TensorFlow's NotDifferentiable ops among these families stop gradients without an error.
TEST(MoreGradients, NotDifferentiableOpsAreRegisteredWithoutAFunction) {
  for (const char* op : {"FloorDiv", "TruncateDiv", "ScatterNdUpdate", "ScatterNdAdd", "ScatterNdSub",
                         "VarIsInitializedOp", "Assign", "AssignAdd", "AssignSub", "NonMaxSuppression",
                         // not_differentiable.cc
                         "LinSpace", "RandomShuffle", "ApproximateEqual", "LogicalAnd", "InvertPermutation",
                         "TensorArrayV3", "StatelessRandomNormal", "QueueDequeue", "StringJoin",
                         "ResizeBilinearGrad", "ScatterAdd", "RaggedRange", "TensorArrayGradV3",
                         "FakeQuantWithMinMaxArgsGradient"}) {
    const GradFunc* fn = GradRegistry::Global()->Lookup(op);
    ASSERT_NE(fn, nullptr) << op;
    EXPECT_FALSE(*fn) << op;
  }
}

// A float path through a NotDifferentiable op (RandomShuffle) adds nothing, and is no error.
TEST(MoreGradients, NotDifferentiableOpStopsTheGradient) {
  Graph g;
  Out x = Placeholder(&g, "x", DT_FLOAT, {3});
  GradScope fwd(&g, "fwd");
  Out y = fwd.Add(fwd.Mul(x, x), fwd.Op("RandomShuffle", {x}));
  ASSERT_TRUE(fwd.status().ok()) << fwd.status();
  Xs dx;
  absl::Status s = AddSymbolicGradients(&g, {y}, {x}, {}, "", &dx);
  ASSERT_TRUE(s.ok()) << s;
  auto sess = SessionFor(g);
  ASSERT_TRUE(sess.ok()) << sess.status();
  Tensor v(DT_FLOAT, TensorShape({3}));
  for (int i = 0; i < 3; ++i) v.flat<float>()(i) = i + 1;
  std::vector<Tensor> out;
  s = (*sess)->Run({{"x:0", v}}, {TensorName(dx[0])}, {}, &out);
  ASSERT_TRUE(s.ok()) << s;
  for (int i = 0; i < 3; ++i) EXPECT_FLOAT_EQ(out[0].flat<float>()(i), 2 * (i + 1));
}

// Forms a gradient function does not handle are clear errors naming the node (and add nothing).
TEST(MoreGradients, UnhandledFormsAreErrorsNamingTheNode) {
  Graph g;
  Out x = Placeholder(&g, "x", DT_DOUBLE, {2, -1});
  GradScope fwd(&g, "fwd");
  // fft_length computed in the graph: the RFFT gradient's masks need it as a constant.
  Out rfft = fwd.Op("RFFT", {x, fwd.Op("Identity", {fwd.ConstI32({4})})},
                    {{"Treal", TypeAttr(DT_DOUBLE)}, {"Tcomplex", TypeAttr(DT_COMPLEX128)}});
  Out real = fwd.Op("Real", {rfft}, {{"Tout", TypeAttr(DT_DOUBLE)}});
  ASSERT_TRUE(fwd.status().ok()) << fwd.status();
  const size_t before = g.nodes().size();
  Xs dx;
  absl::Status s = AddSymbolicGradients(&g, {real}, {x}, {}, "", &dx);
  EXPECT_TRUE(absl::IsUnimplemented(s)) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), "fwd/RFFT")) << s;
  EXPECT_EQ(g.nodes().size(), before);
}

// Every op in gradients_more_ops.h has a registered gradient function and a case above.
TEST(MoreGradients, EveryOpHasAFiniteDifferenceCase) {
  // Checked by the tests above; the FakeQuant ops, straight-through estimators too, only
  // against TensorFlow (grad_cases_more/fake_quant.pb).
  std::set<std::string> covered = {"ResourceGather", "ResourceGatherNd", "RefIdentity",
                                   "DebugGradientRefIdentity", "QuantizeAndDequantizeV2",
                                   "QuantizeAndDequantizeV3", "QuantizeAndDequantizeV4",
                                   "FakeQuantWithMinMaxArgs",
                                   "FakeQuantWithMinMaxVars",
                                   "FakeQuantWithMinMaxVarsPerChannel"};
  for (const GradCase& c : Cases()) {
    for (const std::string& op : MoreGradientOps()) {
      if (absl::StartsWith(c.name, op)) covered.insert(op);
    }
  }
  for (const std::string& op : MoreGradientOps()) {
    const GradFunc* fn = GradRegistry::Global()->Lookup(op);
    ASSERT_NE(fn, nullptr) << op << " has no gradient registered";
    EXPECT_TRUE(*fn) << op;
    EXPECT_TRUE(covered.count(op)) << op << " has no case";
  }
}

}  // namespace
}  // namespace sg
