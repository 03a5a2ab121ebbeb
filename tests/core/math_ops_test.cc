// Element-wise math kernels against plain reference loops: binary ops with broadcasting, unary ops
// and activations, comparisons, Select/SelectV2, AddN, Cast, ClipByValue, BiasAdd, Range.
#include <cmath>
#include <functional>
#include <limits>
#include <random>

#include "core/framework/node_def_util.h"
#include "core/framework/op.h"
#include "core/framework/shape_inference.h"
#include "gtest/gtest.h"
#include "tests/core/ops_testutil.h"

namespace sg {
namespace {

using test::MakeTensor;
using test::NodeDefFor;
using test::RunKernel;
using test::Values;

// Numpy broadcasting by the book: each output index mapped back into each input.
template <typename T, typename Out>
std::vector<Out> RefBroadcast(const Tensor& x, const Tensor& y, std::vector<int64_t>* out_dims,
                              const std::function<Out(T, T)>& fn) {
  const int r = std::max(x.dims(), y.dims());
  std::vector<int64_t> xd(r, 1), yd(r, 1), od(r);
  for (int i = 0; i < x.dims(); ++i) xd[r - x.dims() + i] = x.dim_size(i);
  for (int i = 0; i < y.dims(); ++i) yd[r - y.dims() + i] = y.dim_size(i);
  int64_t n = 1;
  for (int i = 0; i < r; ++i) {
    od[i] = std::max(xd[i], yd[i]);
    if (xd[i] == 0 || yd[i] == 0) od[i] = 0;
    n *= od[i];
  }
  *out_dims = od;
  std::vector<Out> out(n);
  for (int64_t k = 0; k < n; ++k) {
    int64_t rem = k, xi = 0, yi = 0, xs = 1, ys = 1;
    for (int d = r - 1; d >= 0; --d) {
      const int64_t idx = rem % od[d];
      rem /= od[d];
      xi += (xd[d] == 1 ? 0 : idx) * xs;
      yi += (yd[d] == 1 ? 0 : idx) * ys;
      xs *= xd[d];
      ys *= yd[d];
    }
    out[k] = fn(x.data<T>()[xi], y.data<T>()[yi]);
  }
  return out;
}

template <typename T>
Tensor Iota(std::vector<int64_t> shape, double start = 0, double step = 1) {
  Tensor t(DataTypeToEnum<T>::value, TensorShape(shape));
  for (int64_t i = 0; i < t.NumElements(); ++i) t.data<T>()[i] = static_cast<T>(start + step * i);
  return t;
}

Tensor Run1(const std::string& op, DataType dt, const std::vector<Tensor>& inputs,
            std::vector<test::AttrArg> attrs = {}) {
  attrs.push_back({"T", dt});
  auto out = RunKernel(NodeDefFor(op, attrs), inputs);
  EXPECT_TRUE(out.ok()) << op << ": " << out.status();
  return out.ok() ? (*out)[0] : Tensor();
}

// Checks a binary float op against `fn` over several broadcasting shape pairs.
void CheckBinaryFloat(const std::string& op, std::function<float(float, float)> fn,
                      double lo = -3, double hi = 3) {
  const std::vector<std::pair<std::vector<int64_t>, std::vector<int64_t>>> cases = {
      {{2, 3}, {2, 3}},       {{}, {2, 3}},         {{2, 3}, {}},     {{4, 3}, {3}},
      {{4, 1}, {1, 5}},       {{2, 3, 4}, {3, 1}},  {{2, 1, 4}, {1, 3, 1}},
      {{3, 1, 2, 1, 2}, {1, 4, 1, 3, 1}},           {{0, 3}, {3}},    {{5}, {1}},
      {{1, 7, 1}, {2, 1, 3}}, {{1000}, {1000}},     {{300, 7}, {7}}};
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(lo, hi);
  for (const auto& [xs, ys] : cases) {
    Tensor x(DT_FLOAT, TensorShape(xs)), y(DT_FLOAT, TensorShape(ys));
    for (int64_t i = 0; i < x.NumElements(); ++i) x.data<float>()[i] = dist(rng);
    for (int64_t i = 0; i < y.NumElements(); ++i) y.data<float>()[i] = dist(rng);
    std::vector<int64_t> od;
    std::vector<float> want = RefBroadcast<float, float>(x, y, &od, fn);
    Tensor got = Run1(op, DT_FLOAT, {x, y});
    ASSERT_EQ(got.shape(), TensorShape(od)) << op;
    std::vector<float> g = Values<float>(got);
    for (size_t i = 0; i < want.size(); ++i) {
      if (std::isnan(want[i])) {
        EXPECT_TRUE(std::isnan(g[i])) << op << " at " << i;
      } else {
        EXPECT_NEAR(g[i], want[i], 1e-5 * (1 + std::abs(want[i]))) << op << " at " << i;
      }
    }
  }
}

TEST(BinaryOps, FloatArithmeticMatchesReferenceUnderBroadcasting) {
  CheckBinaryFloat("Add", [](float a, float b) { return a + b; });
  CheckBinaryFloat("AddV2", [](float a, float b) { return a + b; });
  CheckBinaryFloat("Sub", [](float a, float b) { return a - b; });
  CheckBinaryFloat("Mul", [](float a, float b) { return a * b; });
  CheckBinaryFloat("RealDiv", [](float a, float b) { return a / b; });
  CheckBinaryFloat("Div", [](float a, float b) { return a / b; });
  CheckBinaryFloat("FloorDiv", [](float a, float b) { return std::floor(a / b); });
  CheckBinaryFloat("FloorMod", [](float a, float b) {
    float r = std::fmod(a, b);
    return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
  });
  CheckBinaryFloat("TruncateMod", [](float a, float b) { return std::fmod(a, b); });
  CheckBinaryFloat("Maximum", [](float a, float b) { return std::max(a, b); });
  CheckBinaryFloat("Minimum", [](float a, float b) { return std::min(a, b); });
  CheckBinaryFloat("SquaredDifference", [](float a, float b) { return (a - b) * (a - b); });
  CheckBinaryFloat("Pow", [](float a, float b) { return std::pow(a, b); }, 0.1, 3);
}

TEST(BinaryOps, IntegerDivisionsFollowTensorFlow) {
  Tensor x = MakeTensor<int32_t>({6}, {7, -7, 7, -7, 0, std::numeric_limits<int32_t>::min()});
  Tensor y = MakeTensor<int32_t>({6}, {2, 2, -2, -2, 3, -1});
  EXPECT_EQ(Values<int32_t>(Run1("Div", DT_INT32, {x, y})),
            (std::vector<int32_t>{3, -3, -3, 3, 0, std::numeric_limits<int32_t>::min()}));
  EXPECT_EQ(Values<int32_t>(Run1("TruncateDiv", DT_INT32, {x, y})),
            (std::vector<int32_t>{3, -3, -3, 3, 0, std::numeric_limits<int32_t>::min()}));
  EXPECT_EQ(Values<int32_t>(Run1("FloorDiv", DT_INT32, {x, y})),
            (std::vector<int32_t>{3, -4, -4, 3, 0, std::numeric_limits<int32_t>::min()}));
  EXPECT_EQ(Values<int32_t>(Run1("FloorMod", DT_INT32, {x, y})),
            (std::vector<int32_t>{1, 1, -1, -1, 0, 0}));
  EXPECT_EQ(Values<int32_t>(Run1("TruncateMod", DT_INT32, {x, y})),
            (std::vector<int32_t>{1, -1, 1, -1, 0, 0}));
  Tensor x64 = MakeTensor<int64_t>({2, 2}, {9, -9, 10, 11});
  Tensor y64 = MakeTensor<int64_t>({2}, {4, 3});
  EXPECT_EQ(Values<int64_t>(Run1("FloorDiv", DT_INT64, {x64, y64})),
            (std::vector<int64_t>{2, -3, 2, 3}));
}

TEST(BinaryOps, IntegerDivisionByZeroIsInvalidArgument) {
  for (const char* op : {"Div", "FloorDiv", "FloorMod", "TruncateDiv", "TruncateMod"}) {
    auto out = RunKernel(NodeDefFor(op, {{"T", DT_INT32}}),
                         {MakeTensor<int32_t>({2}, {1, 2}), MakeTensor<int32_t>({2}, {1, 0})});
    ASSERT_FALSE(out.ok()) << op;
    EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument) << op;
    EXPECT_NE(out.status().message().find("division by zero"), std::string::npos);
  }
}

TEST(BinaryOps, IncompatibleShapesAreInvalidArgument) {
  auto out = RunKernel(NodeDefFor("Add", {{"T", DT_FLOAT}}),
                       {Iota<float>({2, 3}), Iota<float>({4})});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(out.status().message().find("Incompatible shapes"), std::string::npos);
  EXPECT_NE(out.status().message().find("test_node"), std::string::npos);
}

TEST(BinaryOps, IntegerAndHalfArithmetic) {
  Tensor a = MakeTensor<int64_t>({2, 2}, {1, 2, 3, 4});
  Tensor b = MakeTensor<int64_t>({2}, {10, -20});
  EXPECT_EQ(Values<int64_t>(Run1("Add", DT_INT64, {a, b})),
            (std::vector<int64_t>{11, -18, 13, -16}));
  EXPECT_EQ(Values<int64_t>(Run1("Mul", DT_INT64, {a, b})),
            (std::vector<int64_t>{10, -40, 30, -80}));
  EXPECT_EQ(Values<int64_t>(Run1("Maximum", DT_INT64, {a, b})),
            (std::vector<int64_t>{10, 2, 10, 4}));
  Tensor p = MakeTensor<int32_t>({4}, {2, -3, 5, 0});
  Tensor e = MakeTensor<int32_t>({4}, {10, 3, 0, 0});
  EXPECT_EQ(Values<int32_t>(Run1("Pow", DT_INT32, {p, e})),
            (std::vector<int32_t>{1024, -27, 1, 1}));
  auto neg = RunKernel(NodeDefFor("Pow", {{"T", DT_INT32}}), {p, MakeTensor<int32_t>({}, {-1})});
  EXPECT_EQ(neg.status().code(), absl::StatusCode::kInvalidArgument);
  Tensor h = MakeTensor<half>({3}, {half(1.5f), half(-2.0f), half(0.25f)});
  Tensor hs = MakeTensor<half>({}, {half(2.0f)});
  std::vector<half> got = Values<half>(Run1("Mul", DT_HALF, {h, hs}));
  EXPECT_EQ(static_cast<float>(got[0]), 3.0f);
  EXPECT_EQ(static_cast<float>(got[1]), -4.0f);
  EXPECT_EQ(static_cast<float>(got[2]), 0.5f);
  Tensor u = MakeTensor<uint8_t>({2}, {250, 3});
  EXPECT_EQ(Values<uint8_t>(Run1("Add", DT_UINT8, {u, MakeTensor<uint8_t>({}, {10})})),
            (std::vector<uint8_t>{4, 13}));
}

TEST(BinaryOps, StringAddConcatenates) {
  Tensor a(DT_STRING, TensorShape({2}));
  a.data<tstring>()[0] = "ab";
  a.data<tstring>()[1] = "c";
  Tensor b(DT_STRING, TensorShape({}));
  b.data<tstring>()[0] = "!";
  Tensor out = Run1("Add", DT_STRING, {a, b});
  EXPECT_EQ(out.data<tstring>()[0], "ab!");
  EXPECT_EQ(out.data<tstring>()[1], "c!");
}

TEST(BinaryOps, MaximumAndMinimumPropagateNaN) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  Tensor x = MakeTensor<float>({3}, {nan, 1, 2});
  Tensor y = MakeTensor<float>({3}, {1, nan, 3});
  std::vector<float> mx = Values<float>(Run1("Maximum", DT_FLOAT, {x, y}));
  EXPECT_TRUE(std::isnan(mx[0]) && std::isnan(mx[1]));
  EXPECT_EQ(mx[2], 3);
  std::vector<float> mn = Values<float>(Run1("Minimum", DT_FLOAT, {x, y}));
  EXPECT_TRUE(std::isnan(mn[0]) && std::isnan(mn[1]));
  EXPECT_EQ(mn[2], 2);
}

TEST(Comparisons, BroadcastAndReturnBool) {
  Tensor x = MakeTensor<int32_t>({2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor y = MakeTensor<int32_t>({3}, {2, 2, 7});
  struct Case {
    const char* op;
    std::function<bool(int32_t, int32_t)> fn;
  };
  for (const Case& c : {Case{"Equal", std::equal_to<int32_t>()},
                        Case{"NotEqual", std::not_equal_to<int32_t>()},
                        Case{"Less", std::less<int32_t>()},
                        Case{"LessEqual", std::less_equal<int32_t>()},
                        Case{"Greater", std::greater<int32_t>()},
                        Case{"GreaterEqual", std::greater_equal<int32_t>()}}) {
    std::vector<int64_t> od;
    std::vector<bool> want = RefBroadcast<int32_t, bool>(x, y, &od, c.fn);
    Tensor got = Run1(c.op, DT_INT32, {x, y});
    ASSERT_EQ(got.dtype(), DT_BOOL);
    ASSERT_EQ(got.shape(), TensorShape(od));
    for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(got.data<bool>()[i], want[i]) << c.op;
  }
}

TEST(Comparisons, EqualWithoutIncompatibleShapeErrorGivesScalar) {
  auto out = RunKernel(NodeDefFor("Equal", {{"T", DT_FLOAT}, {"incompatible_shape_error", false}}),
                       {Iota<float>({2}), Iota<float>({3})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].dims(), 0);
  EXPECT_FALSE((*out)[0].data<bool>()[0]);
  Tensor s1(DT_STRING, TensorShape({2})), s2(DT_STRING, TensorShape({2}));
  s1.data<tstring>()[0] = "a";
  s1.data<tstring>()[1] = "b";
  s2.data<tstring>()[0] = "a";
  s2.data<tstring>()[1] = "c";
  Tensor eq = Run1("Equal", DT_STRING, {s1, s2});
  EXPECT_TRUE(eq.data<bool>()[0]);
  EXPECT_FALSE(eq.data<bool>()[1]);
}

TEST(LogicalOps, AndOrNotBroadcast) {
  Tensor a = MakeTensor<bool>({2, 2}, {true, true, false, false});
  Tensor b = MakeTensor<bool>({2}, {true, false});
  auto and_out = RunKernel(NodeDefFor("LogicalAnd", {}), {a, b});
  ASSERT_TRUE(and_out.ok());
  EXPECT_EQ(Values<bool>((*and_out)[0]), (std::vector<bool>{true, false, false, false}));
  auto or_out = RunKernel(NodeDefFor("LogicalOr", {}), {a, b});
  EXPECT_EQ(Values<bool>((*or_out)[0]), (std::vector<bool>{true, true, true, false}));
  auto not_out = RunKernel(NodeDefFor("LogicalNot", {}), {b});
  EXPECT_EQ(Values<bool>((*not_out)[0]), (std::vector<bool>{false, true}));
}

// Checks a unary float op on a spread of values against `fn`.
void CheckUnaryFloat(const std::string& op, std::function<double(double)> fn, double lo,
                     double hi, std::vector<test::AttrArg> attrs = {}) {
  const int n = 257;
  Tensor x = Iota<float>({n}, lo, (hi - lo) / (n - 1));
  Tensor got = Run1(op, DT_FLOAT, {x}, attrs);
  ASSERT_EQ(got.shape(), x.shape());
  for (int i = 0; i < n; ++i) {
    const double want = fn(x.data<float>()[i]);
    EXPECT_NEAR(got.data<float>()[i], want, 2e-6 * (1 + std::abs(want)))
        << op << "(" << x.data<float>()[i] << ")";
  }
  // Double too, tighter.
  Tensor xd = Iota<double>({n}, lo, (hi - lo) / (n - 1));
  Tensor gd = Run1(op, DT_DOUBLE, {xd}, attrs);
  for (int i = 0; i < n; ++i) {
    const double want = fn(xd.data<double>()[i]);
    EXPECT_NEAR(gd.data<double>()[i], want, 1e-12 * (1 + std::abs(want))) << op;
  }
}

TEST(UnaryOps, MatchReferenceFunctions) {
  CheckUnaryFloat("Neg", [](double x) { return -x; }, -5, 5);
  CheckUnaryFloat("Abs", [](double x) { return std::abs(x); }, -5, 5);
  CheckUnaryFloat("Square", [](double x) { return x * x; }, -5, 5);
  CheckUnaryFloat("Sqrt", [](double x) { return std::sqrt(x); }, 0, 9);
  CheckUnaryFloat("Rsqrt", [](double x) { return 1 / std::sqrt(x); }, 0.1, 9);
  CheckUnaryFloat("Exp", [](double x) { return std::exp(x); }, -10, 10);
  CheckUnaryFloat("Log", [](double x) { return std::log(x); }, 0.01, 100);
  CheckUnaryFloat("Log1p", [](double x) { return std::log1p(x); }, -0.5, 10);
  CheckUnaryFloat("Tanh", [](double x) { return std::tanh(x); }, -6, 6);
  CheckUnaryFloat("Sigmoid", [](double x) { return 1 / (1 + std::exp(-x)); }, -10, 10);
  CheckUnaryFloat("Reciprocal", [](double x) { return 1 / x; }, 0.1, 9);
  CheckUnaryFloat("Inv", [](double x) { return 1 / x; }, -9, -0.1);
  CheckUnaryFloat("Sign", [](double x) { return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0); }, -2, 2);
  CheckUnaryFloat("Floor", [](double x) { return std::floor(x); }, -3, 3);
  CheckUnaryFloat("Ceil", [](double x) { return std::ceil(x); }, -3, 3);
  CheckUnaryFloat("Relu", [](double x) { return std::max(x, 0.0); }, -3, 3);
  CheckUnaryFloat("Relu6", [](double x) { return std::min(std::max(x, 0.0), 6.0); }, -3, 9);
  CheckUnaryFloat("Elu", [](double x) { return x < 0 ? std::exp(x) - 1 : x; }, -5, 5);
  CheckUnaryFloat("Selu",
                  [](double x) {
                    const double scale = 1.0507009873554804934193349852946;
                    const double alpha = 1.6732632423543772848170429916717;
                    return x < 0 ? scale * alpha * (std::exp(x) - 1) : scale * x;
                  },
                  -5, 5);
  CheckUnaryFloat("Softplus", [](double x) { return std::log1p(std::exp(x)); }, -20, 20);
  // alpha is a float attr, so doubles are scaled by float(0.2), as in TensorFlow.
  CheckUnaryFloat("LeakyRelu", [](double x) { return x < 0 ? double{0.2f} * x : x; }, -3, 3);
  CheckUnaryFloat("LeakyRelu", [](double x) { return x < 0 ? 0.5 * x : x; }, -3, 3,
                  {{"alpha", 0.5f}});
}

TEST(UnaryOps, RoundIsHalfToEven) {
  Tensor x = MakeTensor<float>({8}, {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, 2.4f, -2.6f, 3.0f});
  EXPECT_EQ(Values<float>(Run1("Round", DT_FLOAT, {x})),
            (std::vector<float>{0, 2, 2, -0.0f, -2, 2, -3, 3}));
  Tensor i = MakeTensor<int32_t>({2}, {3, -4});
  EXPECT_EQ(Values<int32_t>(Run1("Round", DT_INT32, {i})), (std::vector<int32_t>{3, -4}));
}

TEST(UnaryOps, IntegerAndHalfVariants) {
  Tensor i = MakeTensor<int32_t>({4}, {-3, 0, 2, -1});
  EXPECT_EQ(Values<int32_t>(Run1("Abs", DT_INT32, {i})), (std::vector<int32_t>{3, 0, 2, 1}));
  EXPECT_EQ(Values<int32_t>(Run1("Neg", DT_INT32, {i})), (std::vector<int32_t>{3, 0, -2, 1}));
  EXPECT_EQ(Values<int32_t>(Run1("Sign", DT_INT32, {i})), (std::vector<int32_t>{-1, 0, 1, -1}));
  EXPECT_EQ(Values<int32_t>(Run1("Square", DT_INT32, {i})), (std::vector<int32_t>{9, 0, 4, 1}));
  EXPECT_EQ(Values<int32_t>(Run1("Relu", DT_INT32, {i})), (std::vector<int32_t>{0, 0, 2, 0}));
  Tensor h = MakeTensor<half>({3}, {half(0.0f), half(1.0f), half(-2.0f)});
  std::vector<half> e = Values<half>(Run1("Exp", DT_HALF, {h}));
  EXPECT_NEAR(static_cast<float>(e[1]), std::exp(1.0f), 2e-3);
  EXPECT_NEAR(static_cast<float>(e[2]), std::exp(-2.0f), 1e-3);
  // Empty input.
  Tensor empty = Run1("Tanh", DT_FLOAT, {Tensor(DT_FLOAT, TensorShape({0, 3}))});
  EXPECT_EQ(empty.shape(), TensorShape({0, 3}));
}

TEST(UnaryOps, IsNanIsInfIsFinite) {
  const float inf = std::numeric_limits<float>::infinity();
  Tensor x = MakeTensor<float>({4}, {1.0f, std::nanf(""), inf, -inf});
  EXPECT_EQ(Values<bool>(Run1("IsNan", DT_FLOAT, {x})),
            (std::vector<bool>{false, true, false, false}));
  EXPECT_EQ(Values<bool>(Run1("IsInf", DT_FLOAT, {x})),
            (std::vector<bool>{false, false, true, true}));
  EXPECT_EQ(Values<bool>(Run1("IsFinite", DT_FLOAT, {x})),
            (std::vector<bool>{true, false, false, false}));
}

TEST(Select, PicksBySameShapeScalarOrRowCondition) {
  Tensor t = Iota<float>({2, 3}, 1);
  Tensor e = Iota<float>({2, 3}, -1, -1);
  Tensor same = MakeTensor<bool>({2, 3}, {true, false, true, false, true, false});
  EXPECT_EQ(Values<float>(Run1("Select", DT_FLOAT, {same, t, e})),
            (std::vector<float>{1, -2, 3, -4, 5, -6}));
  Tensor rows = MakeTensor<bool>({2}, {false, true});
  EXPECT_EQ(Values<float>(Run1("Select", DT_FLOAT, {rows, t, e})),
            (std::vector<float>{-1, -2, -3, 4, 5, 6}));
  Tensor scalar = MakeTensor<bool>({}, {false});
  EXPECT_EQ(Values<float>(Run1("Select", DT_FLOAT, {scalar, t, e})),
            (std::vector<float>{-1, -2, -3, -4, -5, -6}));
  auto bad = RunKernel(NodeDefFor("Select", {{"T", DT_FLOAT}}),
                       {MakeTensor<bool>({3}, {true, true, true}), t, e});
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(SelectV2, BroadcastsAllThreeInputs) {
  Tensor cond = MakeTensor<bool>({2, 1}, {true, false});
  Tensor t = Iota<int32_t>({1, 3}, 1);       // [1 2 3]
  Tensor e = MakeTensor<int32_t>({}, {-7});  // scalar
  EXPECT_EQ(Values<int32_t>(Run1("SelectV2", DT_INT32, {cond, t, e})),
            (std::vector<int32_t>{1, 2, 3, -7, -7, -7}));
  // A larger case against a reference.
  Tensor c2(DT_BOOL, TensorShape({3, 1, 4}));
  for (int i = 0; i < 12; ++i) c2.data<bool>()[i] = (i * 7) % 3 == 0;
  Tensor t2 = Iota<float>({2, 4}, 100), e2 = Iota<float>({3, 2, 1}, -100, -1);
  Tensor got = Run1("SelectV2", DT_FLOAT, {c2, t2, e2});
  ASSERT_EQ(got.shape(), TensorShape({3, 2, 4}));
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 2; ++b)
      for (int c = 0; c < 4; ++c) {
        const float want = c2.data<bool>()[a * 4 + c] ? t2.data<float>()[b * 4 + c]
                                                      : e2.data<float>()[a * 2 + b];
        EXPECT_EQ(got.data<float>()[(a * 2 + b) * 4 + c], want);
      }
  auto bad = RunKernel(NodeDefFor("SelectV2", {{"T", DT_FLOAT}}),
                       {MakeTensor<bool>({3}, {true, true, true}), Iota<float>({2}),
                        Iota<float>({2})});
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(AddN, SumsAllInputs) {
  Tensor a = Iota<float>({2, 2}, 1), b = Iota<float>({2, 2}, 10), c = Iota<float>({2, 2}, 100);
  auto out = RunKernel(NodeDefFor("AddN", {{"T", DT_FLOAT}, {"N", int64_t{3}}}), {a, b, c});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<float>((*out)[0]), (std::vector<float>{111, 114, 117, 120}));
  auto bad = RunKernel(NodeDefFor("AddN", {{"T", DT_FLOAT}, {"N", int64_t{2}}}),
                       {a, Iota<float>({4})});
  EXPECT_FALSE(bad.ok());
}

TEST(Cast, ConvertsLikeTensorFlow) {
  Tensor f = MakeTensor<float>({6}, {1.9f, -1.9f, 0.0f, 0.5f, -0.0f, 300.7f});
  auto run = [](const Tensor& x, DataType src, DataType dst) {
    auto out = RunKernel(NodeDefFor("Cast", {{"SrcT", src}, {"DstT", dst}}), {x});
    EXPECT_TRUE(out.ok()) << out.status();
    return (*out)[0];
  };
  EXPECT_EQ(Values<int32_t>(run(f, DT_FLOAT, DT_INT32)),
            (std::vector<int32_t>{1, -1, 0, 0, 0, 300}));
  EXPECT_EQ(Values<bool>(run(f, DT_FLOAT, DT_BOOL)),
            (std::vector<bool>{true, true, false, true, false, true}));
  EXPECT_EQ(Values<int64_t>(run(f, DT_FLOAT, DT_INT64)),
            (std::vector<int64_t>{1, -1, 0, 0, 0, 300}));
  Tensor b = MakeTensor<bool>({2}, {true, false});
  EXPECT_EQ(Values<float>(run(b, DT_BOOL, DT_FLOAT)), (std::vector<float>{1, 0}));
  Tensor i = MakeTensor<int64_t>({3}, {3, -1, 1 << 20});
  EXPECT_EQ(Values<double>(run(i, DT_INT64, DT_DOUBLE)), (std::vector<double>{3, -1, 1 << 20}));
  EXPECT_EQ(Values<int32_t>(run(i, DT_INT64, DT_INT32)), (std::vector<int32_t>{3, -1, 1 << 20}));
  std::vector<half> h = Values<half>(run(f, DT_FLOAT, DT_HALF));
  EXPECT_EQ(static_cast<float>(h[3]), 0.5f);
  EXPECT_EQ(Values<uint8_t>(run(MakeTensor<int32_t>({2}, {257, -1}), DT_INT32, DT_UINT8)),
            (std::vector<uint8_t>{1, 255}));
  // Same type passes through.
  EXPECT_EQ(Values<float>(run(f, DT_FLOAT, DT_FLOAT)), Values<float>(f));
}

TEST(ClipByValue, ClipsWithScalarAndTensorBounds) {
  Tensor t = MakeTensor<float>({4}, {-5, 0.5, 3, 10});
  Tensor lo = MakeTensor<float>({}, {0});
  Tensor hi = MakeTensor<float>({}, {4});
  EXPECT_EQ(Values<float>(Run1("ClipByValue", DT_FLOAT, {t, lo, hi})),
            (std::vector<float>{0, 0.5, 3, 4}));
  Tensor his = MakeTensor<float>({4}, {1, 1, 2, 20});
  EXPECT_EQ(Values<float>(Run1("ClipByValue", DT_FLOAT, {t, lo, his})),
            (std::vector<float>{0, 0.5, 2, 10}));
  auto bad = RunKernel(NodeDefFor("ClipByValue", {{"T", DT_FLOAT}}),
                       {t, MakeTensor<float>({2}, {0, 0}), hi});
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(BiasAdd, AddsAlongChannelDimension) {
  Tensor v = Iota<float>({2, 2, 3});
  Tensor b = MakeTensor<float>({3}, {100, 200, 300});
  Tensor got = Run1("BiasAdd", DT_FLOAT, {v, b});
  for (int i = 0; i < 12; ++i) EXPECT_EQ(got.data<float>()[i], i + 100 * (i % 3 + 1));
  Tensor bc = MakeTensor<float>({2}, {100, 200});
  Tensor nchw = Run1("BiasAdd", DT_FLOAT, {v, bc}, {{"data_format", std::string("NCHW")}});
  for (int i = 0; i < 12; ++i) EXPECT_EQ(nchw.data<float>()[i], i + 100 * ((i / 3) % 2 + 1));
  auto bad = RunKernel(NodeDefFor("BiasAdd", {{"T", DT_FLOAT}}), {v, bc});
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(Range, ProducesIntAndFloatSequences) {
  auto run = [](DataType dt, const std::vector<Tensor>& in) {
    return RunKernel(NodeDefFor("Range", {{"Tidx", dt}}), in);
  };
  auto a = run(DT_INT32, {MakeTensor<int32_t>({}, {3}), MakeTensor<int32_t>({}, {18}),
                          MakeTensor<int32_t>({}, {5})});
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(Values<int32_t>((*a)[0]), (std::vector<int32_t>{3, 8, 13}));
  auto b = run(DT_INT64, {MakeTensor<int64_t>({}, {5}), MakeTensor<int64_t>({}, {-1}),
                          MakeTensor<int64_t>({}, {-2})});
  EXPECT_EQ(Values<int64_t>((*b)[0]), (std::vector<int64_t>{5, 3, 1}));
  auto c = run(DT_FLOAT, {MakeTensor<float>({}, {0}), MakeTensor<float>({}, {1}),
                          MakeTensor<float>({}, {0.25f})});
  EXPECT_EQ(Values<float>((*c)[0]), (std::vector<float>{0, 0.25f, 0.5f, 0.75f}));
  auto d = run(DT_DOUBLE, {MakeTensor<double>({}, {1}), MakeTensor<double>({}, {1}),
                           MakeTensor<double>({}, {0.5})});
  EXPECT_EQ((*d)[0].NumElements(), 0);
  auto zero = run(DT_INT32, {MakeTensor<int32_t>({}, {0}), MakeTensor<int32_t>({}, {3}),
                             MakeTensor<int32_t>({}, {0})});
  EXPECT_EQ(zero.status().code(), absl::StatusCode::kInvalidArgument);
  auto wrong_way = run(DT_INT32, {MakeTensor<int32_t>({}, {5}), MakeTensor<int32_t>({}, {3}),
                                  MakeTensor<int32_t>({}, {1})});
  EXPECT_EQ(wrong_way.status().code(), absl::StatusCode::kInvalidArgument);
}

// Runs `op`'s shape function on partially known input shapes (and optional constant inputs).
absl::StatusOr<PartialTensorShape> InferShape(const std::string& op,
                                              std::vector<test::AttrArg> attrs,
                                              std::vector<PartialTensorShape> shapes,
                                              std::vector<const Tensor*> consts = {}) {
  const OpRegistrationData* reg = OpRegistry::Global()->LookUp(op);
  if (reg == nullptr) return errors::NotFound(op);
  NodeDef node = NodeDefFor(op, attrs);
  AddDefaultsToNodeDef(reg->op_def, &node);
  consts.resize(shapes.size(), nullptr);
  InferenceContext c(&node, shapes, consts, std::vector<DataType>(shapes.size(), DT_FLOAT),
                     {DT_FLOAT});
  SG_RETURN_IF_ERROR(reg->shape_fn(&c));
  return c.output(0);
}

TEST(ShapeFunctions, HandlePartiallyKnownShapes) {
  auto add = InferShape("Add", {{"T", DT_FLOAT}}, {PartialTensorShape({-1, 3}),
                                                   PartialTensorShape({4, 1, 1})});
  ASSERT_TRUE(add.ok()) << add.status();
  EXPECT_EQ(add->DebugString(), PartialTensorShape({4, -1, 3}).DebugString());
  EXPECT_FALSE(InferShape("Mul", {{"T", DT_FLOAT}}, {PartialTensorShape({2, 3}),
                                                    PartialTensorShape({4})})
                   .ok());
  auto bmm = InferShape("BatchMatMulV2", {{"T", DT_FLOAT}, {"adj_y", true}},
                        {PartialTensorShape({2, 1, -1, 5}), PartialTensorShape({7, 3, 5})});
  ASSERT_TRUE(bmm.ok()) << bmm.status();
  EXPECT_EQ(bmm->DebugString(), PartialTensorShape({2, 7, -1, 3}).DebugString());
  EXPECT_FALSE(InferShape("BatchMatMulV2", {{"T", DT_FLOAT}},
                          {PartialTensorShape({2, 4}), PartialTensorShape({5, 3})})
                   .ok());
  Tensor axis = MakeTensor<int32_t>({}, {-2});
  auto arg = InferShape("ArgMax", {{"T", DT_FLOAT}},
                        {PartialTensorShape({4, -1, 6}), PartialTensorShape({})}, {nullptr, &axis});
  ASSERT_TRUE(arg.ok()) << arg.status();
  EXPECT_EQ(arg->DebugString(), PartialTensorShape({4, 6}).DebugString());
  Tensor start = MakeTensor<float>({}, {1}), limit = MakeTensor<float>({}, {2}),
         delta = MakeTensor<float>({}, {0.3f});
  auto range = InferShape("Range", {{"Tidx", DT_FLOAT}},
                          {PartialTensorShape({}), PartialTensorShape({}), PartialTensorShape({})},
                          {&start, &limit, &delta});
  ASSERT_TRUE(range.ok()) << range.status();
  EXPECT_EQ(range->DebugString(), PartialTensorShape({4}).DebugString());
  auto sel = InferShape("Select", {{"T", DT_FLOAT}},
                        {PartialTensorShape({-1}), PartialTensorShape({3, -1}),
                         PartialTensorShape({-1, 2})});
  ASSERT_TRUE(sel.ok()) << sel.status();
  EXPECT_EQ(sel->DebugString(), PartialTensorShape({3, 2}).DebugString());
  Tensor shape = MakeTensor<int64_t>({2}, {3, 5});
  auto rnd = InferShape("RandomUniform", {{"T", DT_INT64}, {"dtype", DT_FLOAT}},
                        {PartialTensorShape({2})}, {&shape});
  ASSERT_TRUE(rnd.ok()) << rnd.status();
  EXPECT_EQ(rnd->DebugString(), PartialTensorShape({3, 5}).DebugString());
  auto unknown_axes = InferShape("Sum", {{"T", DT_FLOAT}, {"keep_dims", true}},
                                 {PartialTensorShape({2, 3}), PartialTensorShape({1})});
  ASSERT_TRUE(unknown_axes.ok());
  EXPECT_EQ(unknown_axes->DebugString(), PartialTensorShape({-1, -1}).DebugString());
}

}  // namespace
}  // namespace sg
