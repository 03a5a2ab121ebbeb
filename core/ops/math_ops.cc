// Op definitions of the math family: element-wise arithmetic and comparisons (broadcasting as
// numpy), activations, Select, AddN, Cast, reductions, ArgMax/ArgMin, MatMul and BatchMatMul,
// BiasAdd, Softmax, Range, ClipByValue, Cumsum, trigonometric and bitwise ops. Names, attrs,
// defaults and allowed types are TensorFlow's.
#include <algorithm>
#include <cmath>
#include <set>

#include "core/framework/op.h"
#include "core/framework/shape_inference.h"
#include "core/kernels/einsum_spec.h"

namespace sg {
namespace {

// TensorFlow's type sets, spelled out.
#define SG_REAL_TYPES \
  "{float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64}"
#define SG_NUMBER_TYPES                                                                    \
  "{float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, " \
  "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}"
#define SG_FLOAT_TYPES "{half, bfloat16, float, double}"

// Reads the scalar value of a known constant input as int64.
bool ConstScalarAsInt64(const Tensor* t, int64_t* v) {
  if (t == nullptr || t->NumElements() != 1) return false;
  switch (t->dtype()) {
    case DT_INT32: *v = t->data<int32_t>()[0]; return true;
    case DT_INT64: *v = t->data<int64_t>()[0]; return true;
    case DT_INT16: *v = t->data<int16_t>()[0]; return true;
    default: return false;
  }
}

absl::Status UnchangedAtLeastRank1(InferenceContext* c) {
  PartialTensorShape s;
  SG_RETURN_IF_ERROR(c->WithRankAtLeast(0, 1, &s));
  c->set_output(0, s);
  return absl::OkStatus();
}

// Output shape of AddN: all inputs merged.
absl::Status AddNShape(InferenceContext* c) {
  PartialTensorShape out = c->input(0);
  for (int i = 1; i < c->num_inputs(); ++i) {
    auto merged = out.Merge(c->input(i));
    if (!merged.ok()) {
      return c->Error("inputs must have the same shape: ", out.DebugString(), " vs. ",
                      c->input(i).DebugString());
    }
    out = *merged;
  }
  c->set_output(0, out);
  return absl::OkStatus();
}

// Select: t and e have one shape; the condition is a scalar, of that shape, or a vector
// matching its first dim.
absl::Status SelectShape(InferenceContext* c) {
  auto te = c->input(1).Merge(c->input(2));
  if (!te.ok()) {
    return c->Error("'t' and 'e' must have the same shape: ", c->input(1).DebugString(),
                    " vs. ", c->input(2).DebugString());
  }
  const PartialTensorShape& cond = c->input(0);
  if (!cond.unknown_rank() && !te->unknown_rank() && cond.dims() > 0) {
    if (cond.dims() == 1 && te->dims() > 1) {
      if (cond.dim_size(0) >= 0 && te->dim_size(0) >= 0 && cond.dim_size(0) != te->dim_size(0)) {
        return c->Error("condition vector of size ", cond.dim_size(0),
                        " does not match the first dim of ", te->DebugString());
      }
    } else if (!cond.IsCompatibleWith(*te)) {
      return c->Error("condition ", cond.DebugString(), " and 't' ", te->DebugString(),
                      " must have the same shape");
    }
  }
  c->set_output(0, *te);
  return absl::OkStatus();
}

absl::Status SelectV2Shape(InferenceContext* c) {
  auto te = shape_fns::Broadcast(c->input(1), c->input(2));
  if (!te.ok()) return c->Error(te.status().message());
  auto all = shape_fns::Broadcast(c->input(0), *te);
  if (!all.ok()) return c->Error(all.status().message());
  c->set_output(0, *all);
  return absl::OkStatus();
}

// BatchMatMul (same batch dims) and BatchMatMulV2 (broadcast batch dims).
absl::Status BatchMatMulShape(InferenceContext* c, bool broadcast) {
  PartialTensorShape x, y;
  SG_RETURN_IF_ERROR(c->WithRankAtLeast(0, 2, &x));
  SG_RETURN_IF_ERROR(c->WithRankAtLeast(1, 2, &y));
  if (x.unknown_rank() || y.unknown_rank()) {
    c->set_output(0, PartialTensorShape());
    return absl::OkStatus();
  }
  bool adj_x = false, adj_y = false;
  c->GetAttr("adj_x", &adj_x).IgnoreError();
  c->GetAttr("adj_y", &adj_y).IgnoreError();
  const int rx = x.dims(), ry = y.dims();
  int64_t m = x.dim_size(adj_x ? rx - 1 : rx - 2), kx = x.dim_size(adj_x ? rx - 2 : rx - 1);
  int64_t ky = y.dim_size(adj_y ? ry - 1 : ry - 2), n = y.dim_size(adj_y ? ry - 2 : ry - 1);
  if (kx >= 0 && ky >= 0 && kx != ky) {
    return c->Error("Matrix size-incompatible: In[0]: ", x.DebugString(),
                    ", In[1]: ", y.DebugString());
  }
  PartialTensorShape bx(x.dim_sizes().subspan(0, rx - 2));
  PartialTensorShape by(y.dim_sizes().subspan(0, ry - 2));
  PartialTensorShape batch;
  if (broadcast) {
    auto b = shape_fns::Broadcast(bx, by);
    if (!b.ok()) return c->Error(b.status().message());
    batch = *b;
  } else {
    auto b = bx.Merge(by);
    if (!b.ok()) {
      return c->Error("batch dimensions must be equal: ", x.DebugString(), " vs. ",
                      y.DebugString());
    }
    batch = *b;
  }
  std::vector<int64_t> out(batch.dim_sizes().begin(), batch.dim_sizes().end());
  out.push_back(m);
  out.push_back(n);
  c->set_output(0, PartialTensorShape(out));
  return absl::OkStatus();
}

absl::Status ArgMinMaxShape(InferenceContext* c) {
  const PartialTensorShape& in = c->input(0);
  int64_t axis;
  if (in.unknown_rank()) {
    c->set_output(0, PartialTensorShape());
    return absl::OkStatus();
  }
  if (in.dims() == 0) return c->Error("input must have rank at least 1");
  if (!ConstScalarAsInt64(c->input_tensor(1), &axis)) {
    c->set_output(0, PartialTensorShape(std::vector<int64_t>(in.dims() - 1, -1)));
    return absl::OkStatus();
  }
  if (axis < -in.dims() || axis >= in.dims()) {
    return c->Error("Expected dimension in the range [", -in.dims(), ", ", in.dims(),
                    "), but got ", axis);
  }
  if (axis < 0) axis += in.dims();
  std::vector<int64_t> out;
  for (int d = 0; d < in.dims(); ++d) {
    if (d != axis) out.push_back(in.dim_size(d));
  }
  c->set_output(0, PartialTensorShape(out));
  return absl::OkStatus();
}

// Range: the length when start, limit and delta are known constants.
absl::Status RangeShape(InferenceContext* c) {
  for (int i = 0; i < 3; ++i) {
    const PartialTensorShape& s = c->input(i);
    if (!s.unknown_rank() && s.dims() != 0) {
      return c->Error("input ", i, " must be a scalar, not ", s.DebugString());
    }
  }
  const Tensor* ts[3] = {c->input_tensor(0), c->input_tensor(1), c->input_tensor(2)};
  if (ts[0] == nullptr || ts[1] == nullptr || ts[2] == nullptr) {
    c->set_output(0, PartialTensorShape({-1}));
    return absl::OkStatus();
  }
  if (ts[0]->dtype() != ts[1]->dtype() || ts[0]->dtype() != ts[2]->dtype()) {
    return c->Error("start, limit and delta must have one dtype");
  }
  // The kernel's arithmetic, in the input's type (half in float).
  int64_t size = -1;
  absl::Status status;
  DispatchReal(ts[0]->dtype(), [&](auto tag) {
    using T = decltype(tag);
    using W = std::conditional_t<std::is_same<T, half>::value, float, T>;
    const W start = static_cast<W>(ts[0]->data<T>()[0]);
    const W limit = static_cast<W>(ts[1]->data<T>()[0]);
    const W delta = static_cast<W>(ts[2]->data<T>()[0]);
    if (delta == W(0)) {
      status = c->Error("Requires delta != 0");
    } else if (delta > W(0) && start > limit) {
      status = c->Error("Requires start <= limit when delta > 0: ", +start, "/", +limit);
    } else if (delta < W(0) && start < limit) {
      status = c->Error("Requires start >= limit when delta < 0: ", +start, "/", +limit);
    } else if constexpr (std::is_integral<W>::value) {
      const int64_t span = std::abs(static_cast<int64_t>(limit) - static_cast<int64_t>(start));
      const int64_t step = std::abs(static_cast<int64_t>(delta));
      size = (span + step - 1) / step;
    } else {
      size = static_cast<int64_t>(std::ceil(std::abs((limit - start) / delta)));
    }
  });
  SG_RETURN_IF_ERROR(status);
  c->set_output(0, PartialTensorShape({size}));
  return absl::OkStatus();
}

absl::Status BiasAddShape(InferenceContext* c) {
  PartialTensorShape value;
  std::string format = "NHWC";
  c->GetAttr("data_format", &format).IgnoreError();
  SG_RETURN_IF_ERROR(c->WithRankAtLeast(0, 2, &value));
  PartialTensorShape bias;
  SG_RETURN_IF_ERROR(c->WithRank(1, 1, &bias));
  if (!value.unknown_rank()) {
    int64_t channels = value.dim_size(format == "NCHW" ? 1 : value.dims() - 1);
    if (channels >= 0 && bias.dim_size(0) >= 0 && channels != bias.dim_size(0)) {
      return c->Error("Must provide as many biases as the channel dimension of the input "
                      "tensor: ",
                      bias.DebugString(), " vs. ", value.DebugString());
    }
  }
  c->set_output(0, value);
  return absl::OkStatus();
}

// Equal/NotEqual: broadcasting, or (incompatible_shape_error = false) an unknown shape when the
// inputs do not broadcast, since the kernel then returns a scalar.
absl::Status EqualityShape(InferenceContext* c) {
  bool incompatible_shape_error = true;
  c->GetAttr("incompatible_shape_error", &incompatible_shape_error).IgnoreError();
  auto s = shape_fns::Broadcast(c->input(0), c->input(1));
  if (!s.ok()) {
    if (incompatible_shape_error) return c->Error(s.status().message());
    c->set_output(0, PartialTensorShape());
    return absl::OkStatus();
  }
  c->set_output(0, *s);
  return absl::OkStatus();
}

absl::Status ClipByValueShape(InferenceContext* c) { return shape_fns::Unchanged(c); }

// ApproximateEqual: x and y merged, without broadcasting.
absl::Status ApproximateEqualShape(InferenceContext* c) {
  auto merged = c->input(0).Merge(c->input(1));
  if (!merged.ok()) {
    return c->Error("x and y must have the same shape: ", c->input(0).DebugString(), " vs. ",
                    c->input(1).DebugString());
  }
  c->set_output(0, *merged);
  return absl::OkStatus();
}

// The output dims are the sizes of the output's labels (core/kernels/einsum_spec.h); unknown rank
// while an input's rank is unknown.
absl::Status EinsumShape(InferenceContext* c) {
  std::string equation;
  SG_RETURN_IF_ERROR(c->GetAttr("equation", &equation));
  std::vector<std::vector<int64_t>> dims;
  for (int i = 0; i < c->num_inputs(); ++i) {
    if (c->input(i).unknown_rank()) {
      c->set_output(0, PartialTensorShape());
      return absl::OkStatus();
    }
    const auto ds = c->input(i).dim_sizes();
    dims.emplace_back(ds.begin(), ds.end());
  }
  EinsumPlan plan;
  absl::Status s = PlanEinsum(equation, dims, &plan);
  if (!s.ok()) return c->Error(s.message());
  c->set_output(0, PartialTensorShape(plan.OutputShape()));
  return absl::OkStatus();
}

}  // namespace

// ---- Binary element-wise, broadcasting ----------------------------------------------------------

REGISTER_OP("Add")
    .Input("x: T").Input("y: T").Output("z: T")
    .Attr("T: {bfloat16, half, float, double, uint8, int8, int16, int32, int64, complex64, "
          "complex128, string}")
    .SetShapeFn(shape_fns::BroadcastBinary);

REGISTER_OP("AddV2")
    .Input("x: T").Input("y: T").Output("z: T")
    .Attr("T: {bfloat16, half, float, double, uint8, uint16, uint32, uint64, int8, int16, "
          "int32, int64, complex64, complex128}")
    .SetIsCommutative()
    .SetIsAggregate()
    .SetShapeFn(shape_fns::BroadcastBinary);

#define SG_ARITH_TYPES                                                                   \
  "{bfloat16, half, float, double, uint8, int8, uint16, int16, int32, uint32, uint64, " \
  "int64, complex64, complex128}"

REGISTER_OP("Sub").Input("x: T").Input("y: T").Output("z: T")
    .Attr("T: " SG_ARITH_TYPES).SetShapeFn(shape_fns::BroadcastBinary);
REGISTER_OP("Mul").Input("x: T").Input("y: T").Output("z: T")
    .Attr("T: " SG_ARITH_TYPES).SetIsCommutative().SetShapeFn(shape_fns::BroadcastBinary);
REGISTER_OP("RealDiv").Input("x: T").Input("y: T").Output("z: T")
    .Attr("T: " SG_ARITH_TYPES).SetShapeFn(shape_fns::BroadcastBinary);
REGISTER_OP("Div").Input("x: T").Input("y: T").Output("z: T")
    .Attr("T: " SG_ARITH_TYPES).SetShapeFn(shape_fns::BroadcastBinary);
REGISTER_OP("FloorDiv").Input("x: T").Input("y: T").Output("z: T")
    .Attr("T: " SG_ARITH_TYPES).SetShapeFn(shape_fns::BroadcastBinary);
REGISTER_OP("TruncateDiv").Input("x: T").Input("y: T").Output("z: T")
    .Attr("T: " SG_ARITH_TYPES).SetShapeFn(shape_fns::BroadcastBinary);
REGISTER_OP("FloorMod").Input("x: T").Input("y: T").Output("z: T")
    .Attr("T: {int8, int16, int32, int64, uint8, uint16, uint32, uint64, bfloat16, half, "
          "float, double}")
    .SetShapeFn(shape_fns::BroadcastBinary);
REGISTER_OP("TruncateMod").Input("x: T").Input("y: T").Output("z: T")
    .Attr("T: {int32, int64, bfloat16, half, float, double}")
    .SetShapeFn(shape_fns::BroadcastBinary);
REGISTER_OP("Maximum").Input("x: T").Input("y: T").Output("z: T")
    .Attr("T: {bfloat16, half, float, double, int8, uint8, int16, uint16, int32, uint32, "
          "int64, uint64}")
    .SetShapeFn(shape_fns::BroadcastBinary);
REGISTER_OP("Minimum").Input("x: T").Input("y: T").Output("z: T")
    .Attr("T: {bfloat16, half, float, double, int8, uint8, int16, uint16, int32, uint32, "
          "int64, uint64}")
    .SetShapeFn(shape_fns::BroadcastBinary);
REGISTER_OP("Pow").Input("x: T").Input("y: T").Output("z: T")
    .Attr("T: {bfloat16, float, half, double, int8, int16, int32, int64, complex64, "
          "complex128}")
    .SetShapeFn(shape_fns::BroadcastBinary);
REGISTER_OP("SquaredDifference").Input("x: T").Input("y: T").Output("z: T")
    .Attr("T: {bfloat16, half, float, double, int32, int64, complex64, complex128}")
    .SetIsCommutative()
    .SetShapeFn(shape_fns::BroadcastBinary);

REGISTER_OP("Equal").Input("x: T").Input("y: T").Output("z: bool")
    .Attr("T: type").Attr("incompatible_shape_error: bool = true")
    .SetIsCommutative().SetShapeFn(EqualityShape);
REGISTER_OP("NotEqual").Input("x: T").Input("y: T").Output("z: bool")
    .Attr("T: type").Attr("incompatible_shape_error: bool = true")
    .SetIsCommutative().SetShapeFn(EqualityShape);
REGISTER_OP("Less").Input("x: T").Input("y: T").Output("z: bool")
    .Attr("T: " SG_REAL_TYPES).SetShapeFn(shape_fns::BroadcastBinary);
REGISTER_OP("LessEqual").Input("x: T").Input("y: T").Output("z: bool")
    .Attr("T: " SG_REAL_TYPES).SetShapeFn(shape_fns::BroadcastBinary);
REGISTER_OP("Greater").Input("x: T").Input("y: T").Output("z: bool")
    .Attr("T: " SG_REAL_TYPES).SetShapeFn(shape_fns::BroadcastBinary);
REGISTER_OP("GreaterEqual").Input("x: T").Input("y: T").Output("z: bool")
    .Attr("T: " SG_REAL_TYPES).SetShapeFn(shape_fns::BroadcastBinary);
REGISTER_OP("LogicalAnd").Input("x: bool").Input("y: bool").Output("z: bool")
    .SetIsCommutative().SetShapeFn(shape_fns::BroadcastBinary);
REGISTER_OP("LogicalOr").Input("x: bool").Input("y: bool").Output("z: bool")
    .SetIsCommutative().SetShapeFn(shape_fns::BroadcastBinary);

#define SG_FLOAT_COMPLEX_TYPES "{half, bfloat16, float, double, complex64, complex128}"
REGISTER_OP("Atan2").Input("y: T").Input("x: T").Output("z: T")
    .Attr("T: {bfloat16, half, float, double}").SetShapeFn(shape_fns::BroadcastBinary);
REGISTER_OP("Xdivy").Input("x: T").Input("y: T").Output("z: T")
    .Attr("T: " SG_FLOAT_COMPLEX_TYPES).SetShapeFn(shape_fns::BroadcastBinary);
REGISTER_OP("Xlogy").Input("x: T").Input("y: T").Output("z: T")
    .Attr("T: " SG_FLOAT_COMPLEX_TYPES).SetShapeFn(shape_fns::BroadcastBinary);
REGISTER_OP("Xlog1py").Input("x: T").Input("y: T").Output("z: T")
    .Attr("T: " SG_FLOAT_COMPLEX_TYPES).SetShapeFn(shape_fns::BroadcastBinary);
REGISTER_OP("DivNoNan").Input("x: T").Input("y: T").Output("z: T")
    .Attr("T: {half, float, bfloat16, double, complex64, complex128}")
    .SetShapeFn(shape_fns::BroadcastBinary);
REGISTER_OP("MulNoNan").Input("x: T").Input("y: T").Output("z: T")
    .Attr("T: {bfloat16, half, float, double, complex64, complex128}")
    .SetShapeFn(shape_fns::BroadcastBinary);
#undef SG_FLOAT_COMPLEX_TYPES
// No broadcasting: x and y have one shape.
REGISTER_OP("ApproximateEqual").Input("x: T").Input("y: T").Output("z: bool")
    .Attr("T: " SG_NUMBER_TYPES).Attr("tolerance: float = 1e-05")
    .SetIsCommutative()
    .SetShapeFn(ApproximateEqualShape);

// ---- Bitwise ------------------------------------------------------------------------------------

#define SG_BITWISE_TYPES "{int8, int16, int32, int64, uint8, uint16, uint32, uint64}"
REGISTER_OP("BitwiseAnd").Input("x: T").Input("y: T").Output("z: T")
    .Attr("T: " SG_BITWISE_TYPES).SetIsCommutative().SetShapeFn(shape_fns::BroadcastBinary);
REGISTER_OP("BitwiseOr").Input("x: T").Input("y: T").Output("z: T")
    .Attr("T: " SG_BITWISE_TYPES).SetIsCommutative().SetShapeFn(shape_fns::BroadcastBinary);
REGISTER_OP("BitwiseXor").Input("x: T").Input("y: T").Output("z: T")
    .Attr("T: " SG_BITWISE_TYPES).SetIsCommutative().SetShapeFn(shape_fns::BroadcastBinary);
REGISTER_OP("LeftShift").Input("x: T").Input("y: T").Output("z: T")
    .Attr("T: " SG_BITWISE_TYPES).SetShapeFn(shape_fns::BroadcastBinary);
REGISTER_OP("RightShift").Input("x: T").Input("y: T").Output("z: T")
    .Attr("T: " SG_BITWISE_TYPES).SetShapeFn(shape_fns::BroadcastBinary);
REGISTER_OP("Invert").Input("x: T").Output("y: T")
    .Attr("T: " SG_BITWISE_TYPES).SetShapeFn(shape_fns::Unchanged);
REGISTER_OP("PopulationCount").Input("x: T").Output("y: uint8")
    .Attr("T: " SG_BITWISE_TYPES).SetShapeFn(shape_fns::Unchanged);
#undef SG_BITWISE_TYPES

// ---- Unary element-wise -------------------------------------------------------------------------

#define SG_UNARY_OP(NAME, TYPES) \
  REGISTER_OP(NAME).Input("x: T").Output("y: T").Attr("T: " TYPES) \
      .SetShapeFn(shape_fns::Unchanged)

SG_UNARY_OP("Neg", "{bfloat16, half, float, double, int8, int16, int32, int64, complex64, "
                   "complex128}");
SG_UNARY_OP("Abs", "{bfloat16, half, float, double, int8, int16, int32, int64}");
SG_UNARY_OP("Square", "{bfloat16, half, float, double, int8, int16, int32, int64, uint8, "
                      "uint16, uint32, uint64, complex64, complex128}");
SG_UNARY_OP("Sqrt", "{bfloat16, half, float, double, complex64, complex128}");
SG_UNARY_OP("Rsqrt", "{bfloat16, half, float, double, complex64, complex128}");
SG_UNARY_OP("Exp", "{bfloat16, half, float, double, complex64, complex128}");
SG_UNARY_OP("Log", "{bfloat16, half, float, double, complex64, complex128}");
SG_UNARY_OP("Log1p", "{bfloat16, half, float, double, complex64, complex128}");
SG_UNARY_OP("Tanh", "{bfloat16, half, float, double, complex64, complex128}");
SG_UNARY_OP("Sigmoid", "{bfloat16, half, float, double, complex64, complex128}");
SG_UNARY_OP("Reciprocal", "{bfloat16, half, float, double, int8, int16, int32, int64, "
                          "complex64, complex128}");
SG_UNARY_OP("Inv", "{bfloat16, half, float, double, int8, int16, int32, int64, complex64, "
                   "complex128}");
SG_UNARY_OP("Sign", "{bfloat16, half, float, double, int8, int16, int32, int64, complex64, "
                    "complex128}");
SG_UNARY_OP("Erf", "{bfloat16, half, float, double}");
SG_UNARY_OP("Erfc", "{bfloat16, half, float, double}");
SG_UNARY_OP("Floor", "{bfloat16, half, float, double}");
SG_UNARY_OP("Ceil", "{bfloat16, half, float, double}");
SG_UNARY_OP("Round", "{bfloat16, half, float, double, int8, int16, int32, int64, complex64, "
                     "complex128}");
#define SG_TRIG_TYPES "{bfloat16, half, float, double, complex64, complex128}"
SG_UNARY_OP("Sin", SG_TRIG_TYPES);
SG_UNARY_OP("Cos", SG_TRIG_TYPES);
SG_UNARY_OP("Tan", SG_TRIG_TYPES);
SG_UNARY_OP("Atan", SG_TRIG_TYPES);
SG_UNARY_OP("Sinh", SG_TRIG_TYPES);
SG_UNARY_OP("Cosh", SG_TRIG_TYPES);
#undef SG_TRIG_TYPES
#undef SG_UNARY_OP

#define SG_PREDICATE_OP(NAME)                                                                 \
  REGISTER_OP(NAME).Input("x: T").Output("y: bool").Attr("T: {bfloat16, half, float, double}") \
      .SetShapeFn(shape_fns::Unchanged)
SG_PREDICATE_OP("IsNan");
SG_PREDICATE_OP("IsInf");
SG_PREDICATE_OP("IsFinite");
#undef SG_PREDICATE_OP

REGISTER_OP("LogicalNot").Input("x: bool").Output("y: bool").SetShapeFn(shape_fns::Unchanged);

// Activations (TensorFlow defines these among its nn ops).
REGISTER_OP("Relu").Input("features: T").Output("activations: T")
    .Attr("T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, "
          "uint32, uint64, qint8}")
    .SetShapeFn(shape_fns::Unchanged);
REGISTER_OP("Relu6").Input("features: T").Output("activations: T")
    .Attr("T: " SG_REAL_TYPES).SetShapeFn(shape_fns::Unchanged);
REGISTER_OP("Elu").Input("features: T").Output("activations: T")
    .Attr("T: " SG_FLOAT_TYPES).SetShapeFn(shape_fns::Unchanged);
REGISTER_OP("Selu").Input("features: T").Output("activations: T")
    .Attr("T: " SG_FLOAT_TYPES).SetShapeFn(shape_fns::Unchanged);
REGISTER_OP("LeakyRelu").Input("features: T").Output("activations: T")
    .Attr("alpha: float = 0.2").Attr("T: " SG_FLOAT_TYPES " = DT_FLOAT")
    .SetShapeFn(shape_fns::Unchanged);
REGISTER_OP("Softplus").Input("features: T").Output("activations: T")
    .Attr("T: " SG_FLOAT_TYPES).SetShapeFn(shape_fns::Unchanged);
REGISTER_OP("Softsign").Input("features: T").Output("activations: T")
    .Attr("T: {half, bfloat16, float, double}").SetShapeFn(shape_fns::Unchanged);
REGISTER_OP("Softmax").Input("logits: T").Output("softmax: T")
    .Attr("T: " SG_FLOAT_TYPES).SetShapeFn(UnchangedAtLeastRank1);
REGISTER_OP("LogSoftmax").Input("logits: T").Output("logsoftmax: T")
    .Attr("T: " SG_FLOAT_TYPES).SetShapeFn(UnchangedAtLeastRank1);
REGISTER_OP("BiasAdd").Input("value: T").Input("bias: T").Output("output: T")
    .Attr("T: " SG_NUMBER_TYPES).Attr("data_format: {'NHWC', 'NCHW'} = 'NHWC'")
    .SetShapeFn(BiasAddShape);
REGISTER_OP("BiasAddV1").Input("value: T").Input("bias: T").Output("output: T")
    .Attr("T: " SG_NUMBER_TYPES).SetShapeFn(BiasAddShape);

// ---- Selection, sums, casts -----------------------------------------------------------------

REGISTER_OP("Select").Input("condition: bool").Input("t: T").Input("e: T")
    .Output("output: T").Attr("T: type").SetShapeFn(SelectShape);
REGISTER_OP("SelectV2").Input("condition: bool").Input("t: T").Input("e: T")
    .Output("output: T").Attr("T: type").SetShapeFn(SelectV2Shape);

REGISTER_OP("AddN").Input("inputs: N * T").Output("sum: T")
    .Attr("N: int >= 1")
    .Attr("T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, "
          "qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64, "
          "variant}")
    .SetIsCommutative()
    .SetIsAggregate()
    .SetShapeFn(AddNShape);

REGISTER_OP("Cast").Input("x: SrcT").Output("y: DstT")
    .Attr("SrcT: type").Attr("DstT: type").Attr("Truncate: bool = false")
    .SetShapeFn(shape_fns::Unchanged);
// Cast with its input and output in host memory (the same on a CPU).
REGISTER_OP("_HostCast").Input("x: SrcT").Output("y: DstT")
    .Attr("SrcT: type").Attr("DstT: type").Attr("Truncate: bool = false")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("ClipByValue").Input("t: T").Input("clip_value_min: T").Input("clip_value_max: T")
    .Output("output: T").Attr("T: " SG_NUMBER_TYPES).SetShapeFn(ClipByValueShape);

// ---- Reductions and scans -----------------------------------------------------------------------

#define SG_REDUCTION_OP(NAME, TYPES)                                                       \
  REGISTER_OP(NAME).Input("input: T").Input("reduction_indices: Tidx").Output("output: T") \
      .Attr("keep_dims: bool = false").Attr("T: " TYPES)                                   \
      .Attr("Tidx: {int32, int64} = DT_INT32").SetShapeFn(shape_fns::Reduction)
SG_REDUCTION_OP("Sum", SG_NUMBER_TYPES);
SG_REDUCTION_OP("Mean", SG_NUMBER_TYPES);
SG_REDUCTION_OP("Prod", SG_NUMBER_TYPES);
SG_REDUCTION_OP("Max", "{float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, "
                       "half, uint32, uint64, qint8, quint8, qint32, qint16, quint16}");
SG_REDUCTION_OP("Min", "{float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, "
                       "half, uint32, uint64, qint8, quint8, qint32, qint16, quint16}");
#undef SG_REDUCTION_OP
REGISTER_OP("All").Input("input: bool").Input("reduction_indices: Tidx").Output("output: bool")
    .Attr("keep_dims: bool = false").Attr("Tidx: {int32, int64} = DT_INT32")
    .SetShapeFn(shape_fns::Reduction);
REGISTER_OP("Any").Input("input: bool").Input("reduction_indices: Tidx").Output("output: bool")
    .Attr("keep_dims: bool = false").Attr("Tidx: {int32, int64} = DT_INT32")
    .SetShapeFn(shape_fns::Reduction);

#define SG_ARG_TYPES                                                                        \
  "{float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64, " \
  "qint8, quint8, qint32, qint16, quint16, bool}"
REGISTER_OP("ArgMax").Input("input: T").Input("dimension: Tidx").Output("output: output_type")
    .Attr("T: " SG_ARG_TYPES).Attr("Tidx: {int16, int32, int64} = DT_INT32")
    .Attr("output_type: {int16, uint16, int32, int64} = DT_INT64")
    .SetShapeFn(ArgMinMaxShape);
REGISTER_OP("ArgMin").Input("input: T").Input("dimension: Tidx").Output("output: output_type")
    .Attr("T: " SG_ARG_TYPES).Attr("Tidx: {int32, int64} = DT_INT32")
    .Attr("output_type: {int32, int64} = DT_INT64")
    .SetShapeFn(ArgMinMaxShape);
#undef SG_ARG_TYPES

REGISTER_OP("Cumsum").Input("x: T").Input("axis: Tidx").Output("out: T")
    .Attr("exclusive: bool = false").Attr("reverse: bool = false")
    .Attr("T: " SG_NUMBER_TYPES).Attr("Tidx: {int32, int64} = DT_INT32")
    .SetShapeFn(shape_fns::Unchanged);
REGISTER_OP("Cumprod").Input("x: T").Input("axis: Tidx").Output("out: T")
    .Attr("exclusive: bool = false").Attr("reverse: bool = false")
    .Attr("T: " SG_NUMBER_TYPES).Attr("Tidx: {int32, int64} = DT_INT32")
    .SetShapeFn(shape_fns::Unchanged);

// ---- Matrix products ----------------------------------------------------------------------------

REGISTER_OP("MatMul").Input("a: T").Input("b: T").Output("product: T")
    .Attr("transpose_a: bool = false").Attr("transpose_b: bool = false")
    .Attr("T: {bfloat16, half, float, double, int32, int64, uint8, uint16, uint32, uint64, "
          "complex64, complex128}")
    // Hints for TensorFlow's gradient placement; the kernel ignores them.
    .Attr("grad_a: bool = false").Attr("grad_b: bool = false")
    .SetShapeFn(shape_fns::MatMul);
// MatMul with its BiasAdd and an activation fused in (fused_ops = ["BiasAdd"] or ["BiasAdd",
// activation]), as TensorFlow's remapper and sg's graph optimiser (core/graph/optimizer.h) make
// it; args holds the bias. Kernel: core/kernels/fused_matmul_op.cc.
REGISTER_OP("_FusedMatMul").Input("a: T").Input("b: T").Input("args: num_args * T")
    .Output("product: T")
    .Attr("transpose_a: bool = false").Attr("transpose_b: bool = false")
    .Attr("T: {bfloat16, half, float}")
    .Attr("num_args: int >= 0")
    .Attr("fused_ops: list(string) = []")
    .Attr("epsilon: float = 0.0001")
    .Attr("leakyrelu_alpha: float = 0.2")
    .SetShapeFn(shape_fns::MatMul);
REGISTER_OP("BatchMatMul").Input("x: T").Input("y: T").Output("output: T")
    .Attr("T: {bfloat16, half, float, double, int32, int64, complex64, complex128}")
    .Attr("adj_x: bool = false").Attr("adj_y: bool = false")
    .Attr("grad_x: bool = false").Attr("grad_y: bool = false")  // hints, as MatMul's grad_a
    .SetShapeFn([](InferenceContext* c) { return BatchMatMulShape(c, false); });
REGISTER_OP("BatchMatMulV2").Input("x: T").Input("y: T").Output("output: T")
    .Attr("T: {bfloat16, half, float, double, int16, int32, int64, uint8, uint16, uint32, "
          "uint64, complex64, complex128}")
    .Attr("adj_x: bool = false").Attr("adj_y: bool = false")
    .Attr("grad_x: bool = false").Attr("grad_y: bool = false")  // hints, as MatMul's grad_a
    .SetShapeFn([](InferenceContext* c) { return BatchMatMulShape(c, true); });

// As TensorFlow's Einsum: see core/kernels/einsum_spec.h for the equation's meaning.
REGISTER_OP("Einsum").Input("inputs: N * T").Output("output: T")
    .Attr("equation: string").Attr("N: int >= 1").Attr("T: type")
    .SetShapeFn(EinsumShape);

// ---- Sequences ----------------------------------------------------------------------------------

REGISTER_OP("Range").Input("start: Tidx").Input("limit: Tidx").Input("delta: Tidx")
    .Output("output: Tidx")
    .Attr("Tidx: {bfloat16, half, float, double, int8, int16, int32, int64, uint16, uint32, "
          "uint64} = DT_INT32")
    .SetShapeFn(RangeShape);

}  // namespace sg
