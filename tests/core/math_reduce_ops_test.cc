// Reductions, ArgMax/ArgMin, Cumsum/Cumprod and Softmax/LogSoftmax against reference loops.
#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <set>

#include "gtest/gtest.h"
#include "tests/core/ops_testutil.h"

namespace sg {
namespace {

using test::MakeTensor;
using test::NodeDefFor;
using test::RunKernel;
using test::Values;

Tensor RandomFloats(std::vector<int64_t> shape, int seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-2, 2);
  Tensor t(DT_FLOAT, TensorShape(shape));
  for (int64_t i = 0; i < t.NumElements(); ++i) t.data<float>()[i] = dist(rng);
  return t;
}

// Reference reduction: every input element folded into its output slot.
std::vector<double> RefReduce(const Tensor& in, const std::set<int>& axes, double init,
                              const std::function<double(double, double)>& fn,
                              std::vector<int64_t>* kept_dims) {
  const int r = in.dims();
  std::vector<int64_t> out_dims;
  for (int d = 0; d < r; ++d) {
    if (!axes.count(d)) out_dims.push_back(in.dim_size(d));
  }
  int64_t n_out = 1;
  for (int64_t d : out_dims) n_out *= d;
  std::vector<double> out(n_out, init);
  for (int64_t k = 0; k < in.NumElements(); ++k) {
    int64_t rem = k, o = 0, stride = 1;
    for (int d = r - 1; d >= 0; --d) {
      const int64_t idx = rem % in.dim_size(d);
      rem /= in.dim_size(d);
      if (!axes.count(d)) {
        o += idx * stride;
        stride *= in.dim_size(d);
      }
    }
    out[o] = fn(out[o], in.data<float>()[k]);
  }
  *kept_dims = out_dims;
  return out;
}

TEST(Reductions, FloatReductionsMatchReferenceOverAxisPatterns) {
  const std::vector<int64_t> shape = {3, 4, 5, 6};
  Tensor in = RandomFloats(shape, 1);
  const std::vector<std::vector<int64_t>> axis_sets = {
      {}, {0}, {1}, {3}, {-1}, {0, 1}, {1, 2}, {0, 2}, {1, 3}, {0, 3}, {0, 1, 2, 3}, {-4, 2}};
  struct Op {
    const char* name;
    double init;
    std::function<double(double, double)> fn;
  };
  const std::vector<Op> ops = {
      {"Sum", 0, [](double a, double b) { return a + b; }},
      {"Mean", 0, [](double a, double b) { return a + b; }},
      {"Prod", 1, [](double a, double b) { return a * b; }},
      {"Max", -INFINITY, [](double a, double b) { return std::max(a, b); }},
      {"Min", INFINITY, [](double a, double b) { return std::min(a, b); }}};
  for (const Op& op : ops) {
    for (const auto& axes : axis_sets) {
      for (bool keep : {false, true}) {
        std::set<int> ax;
        for (int64_t a : axes) ax.insert(a < 0 ? a + 4 : a);
        std::vector<int64_t> dims;
        std::vector<double> want = RefReduce(in, ax, op.init, op.fn, &dims);
        if (std::string(op.name) == "Mean") {
          int64_t count = 1;
          for (int a : ax) count *= shape[a];
          for (double& w : want) w /= count;
        }
        std::vector<int64_t> want_shape;
        for (int d = 0; d < 4; ++d) {
          if (!ax.count(d)) {
            want_shape.push_back(shape[d]);
          } else if (keep) {
            want_shape.push_back(1);
          }
        }
        Tensor axes_t(DT_INT32, TensorShape({static_cast<int64_t>(axes.size())}));
        for (size_t i = 0; i < axes.size(); ++i) axes_t.data<int32_t>()[i] = axes[i];
        auto out = RunKernel(
            NodeDefFor(op.name, {{"T", DT_FLOAT}, {"keep_dims", keep}}), {in, axes_t});
        ASSERT_TRUE(out.ok()) << op.name << ": " << out.status();
        const Tensor& got = (*out)[0];
        ASSERT_EQ(got.shape(), TensorShape(want_shape)) << op.name;
        for (size_t i = 0; i < want.size(); ++i) {
          EXPECT_NEAR(got.data<float>()[i], want[i], 1e-4 * (1 + std::abs(want[i])))
              << op.name << " axes size " << axes.size() << " at " << i;
        }
      }
    }
  }
}

// Float and double sums and means with the kept dims innermost (a global average pool of
// channels-last data) add whole rows (reduction_ops.h's SumRows): kept sizes below and above
// its 256-column ranges, one and several kept outer rows, against the reference.
TEST(Reductions, SumsWithKeptDimsInnermostMatchTheReference) {
  struct Case {
    std::vector<int64_t> shape;
    std::vector<int32_t> axes;
  };
  const std::vector<Case> cases = {{{2, 7, 9, 300}, {1, 2}},
                                   {{1, 5, 5, 8}, {1, 2}},
                                   {{40, 1000}, {0}},
                                   {{3, 2, 17}, {1}},
                                   {{2, 3, 4, 5, 9}, {0, 2}}};
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    for (const char* op : {"Sum", "Mean"}) {
      for (const Case& c : cases) {
        Tensor in_f = RandomFloats(c.shape, 4);
        Tensor in(dt, in_f.shape());
        for (int64_t i = 0; i < in.NumElements(); ++i) {
          if (dt == DT_FLOAT) {
            in.data<float>()[i] = in_f.data<float>()[i];
          } else {
            in.data<double>()[i] = in_f.data<float>()[i];
          }
        }
        std::set<int> ax(c.axes.begin(), c.axes.end());
        std::vector<int64_t> dims;
        std::vector<double> want =
            RefReduce(in_f, ax, 0, [](double a, double b) { return a + b; }, &dims);
        if (std::string(op) == "Mean") {
          int64_t count = 1;
          for (int a : ax) count *= c.shape[a];
          for (double& w : want) w /= count;
        }
        Tensor axes_t(DT_INT32, TensorShape({static_cast<int64_t>(c.axes.size())}));
        std::copy(c.axes.begin(), c.axes.end(), axes_t.data<int32_t>());
        auto out = RunKernel(NodeDefFor(op, {{"T", dt}}), {in, axes_t});
        ASSERT_TRUE(out.ok()) << op << ": " << out.status();
        const Tensor& got = (*out)[0];
        ASSERT_EQ(got.shape(), TensorShape(dims)) << op;
        for (size_t i = 0; i < want.size(); ++i) {
          const double g = dt == DT_FLOAT ? got.data<float>()[i] : got.data<double>()[i];
          EXPECT_NEAR(g, want[i], 1e-4 * (1 + std::abs(want[i])))
              << op << " " << DataTypeString(dt) << " " << TensorShape(c.shape).DebugString()
              << " at " << i;
        }
      }
    }
  }
}

// As TensorFlow: an axis named twice (2 and -2 of a rank-4 input) is an error.
TEST(Reductions, RejectsDuplicateAxes) {
  Tensor in = RandomFloats({3, 4, 5, 6}, 1);
  for (std::vector<int32_t> axes : {std::vector<int32_t>{2, 2}, std::vector<int32_t>{2, -2}}) {
    auto out = RunKernel(NodeDefFor("Sum", {{"T", DT_FLOAT}}),
                         {in, MakeTensor<int32_t>({2}, axes)});
    EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument) << out.status();
  }
}

TEST(Reductions, IntegerHalfAndBoolTypes) {
  Tensor i = MakeTensor<int32_t>({2, 3}, {1, 2, 3, 4, 5, 7});
  auto run = [](const char* op, DataType dt, const Tensor& x, const Tensor& axes) {
    std::vector<test::AttrArg> attrs = {{"Tidx", axes.dtype()}};
    if (dt != DT_BOOL) attrs.push_back({"T", dt});
    auto out = RunKernel(NodeDefFor(op, attrs), {x, axes});
    EXPECT_TRUE(out.ok()) << out.status();
    return (*out)[0];
  };
  Tensor ax1 = MakeTensor<int64_t>({}, {1});
  EXPECT_EQ(Values<int32_t>(run("Sum", DT_INT32, i, ax1)), (std::vector<int32_t>{6, 16}));
  // Integer mean truncates.
  EXPECT_EQ(Values<int32_t>(run("Mean", DT_INT32, i, ax1)), (std::vector<int32_t>{2, 5}));
  EXPECT_EQ(Values<int32_t>(run("Max", DT_INT32, i, MakeTensor<int32_t>({}, {0}))),
            (std::vector<int32_t>{4, 5, 7}));
  EXPECT_EQ(Values<int32_t>(run("Prod", DT_INT32, i, MakeTensor<int32_t>({0}, {}))),
            Values<int32_t>(i));
  Tensor h = MakeTensor<half>({4}, {half(1.0f), half(2.5f), half(-0.5f), half(4.0f)});
  EXPECT_EQ(static_cast<float>(Values<half>(run("Sum", DT_HALF, h, MakeTensor<int64_t>({}, {0})))[0]),
            7.0f);
  Tensor b = MakeTensor<bool>({2, 2}, {true, false, true, true});
  Tensor ax = MakeTensor<int32_t>({}, {1});
  EXPECT_EQ(Values<bool>(run("All", DT_BOOL, b, ax)), (std::vector<bool>{false, true}));
  EXPECT_EQ(Values<bool>(run("Any", DT_BOOL, b, ax)), (std::vector<bool>{true, true}));
  EXPECT_EQ(Values<bool>(run("All", DT_BOOL, b, MakeTensor<int32_t>({2}, {0, 1}))),
            (std::vector<bool>{false}));
  Tensor u8 = MakeTensor<uint8_t>({3}, {200, 100, 1});
  EXPECT_EQ(Values<uint8_t>(run("Sum", DT_UINT8, u8, MakeTensor<int32_t>({}, {0}))),
            (std::vector<uint8_t>{45}));
}

TEST(Reductions, EmptyInputsGiveIdentityAndScalarsPassThrough) {
  Tensor empty(DT_FLOAT, TensorShape({0, 3}));
  auto run = [&](const char* op, const Tensor& x, const Tensor& axes) {
    auto out = RunKernel(NodeDefFor(op, {{"T", DT_FLOAT}}), {x, axes});
    EXPECT_TRUE(out.ok()) << out.status();
    return (*out)[0];
  };
  Tensor ax0 = MakeTensor<int32_t>({}, {0});
  EXPECT_EQ(Values<float>(run("Sum", empty, ax0)), (std::vector<float>{0, 0, 0}));
  EXPECT_EQ(Values<float>(run("Prod", empty, ax0)), (std::vector<float>{1, 1, 1}));
  EXPECT_EQ(run("Max", empty, ax0).data<float>()[0], -std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(run("Mean", empty, ax0).data<float>()[0]));
  EXPECT_EQ(run("Sum", empty, MakeTensor<int32_t>({}, {1})).shape(), TensorShape({0}));
  Tensor scalar = MakeTensor<float>({}, {4.5f});
  EXPECT_EQ(Values<float>(run("Sum", scalar, MakeTensor<int32_t>({0}, {}))),
            (std::vector<float>{4.5f}));
}

TEST(Reductions, OutOfRangeAxisIsInvalidArgument) {
  auto out = RunKernel(NodeDefFor("Sum", {{"T", DT_FLOAT}}),
                       {RandomFloats({2, 3}, 2), MakeTensor<int32_t>({}, {2})});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
  // A scalar has no axis to reduce, as in TensorFlow.
  out = RunKernel(NodeDefFor("Sum", {{"T", DT_FLOAT}}),
                  {MakeTensor<float>({}, {1}), MakeTensor<int32_t>({}, {0})});
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
  out = RunKernel(NodeDefFor("Max", {{"T", DT_FLOAT}}),
                  {RandomFloats({2, 3}, 2), MakeTensor<int32_t>({}, {-3})});
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(Reductions, LargeFullSumUsesThreadsCorrectly) {
  Tensor in(DT_FLOAT, TensorShape({1 << 20}));
  for (int64_t i = 0; i < in.NumElements(); ++i) in.data<float>()[i] = (i % 7) - 3;
  auto out = RunKernel(NodeDefFor("Sum", {{"T", DT_FLOAT}}), {in, MakeTensor<int32_t>({}, {0})});
  double want = 0;
  for (int64_t i = 0; i < in.NumElements(); ++i) want += (i % 7) - 3;
  EXPECT_NEAR((*out)[0].data<float>()[0], want, 1e-3);
}

TEST(ArgMinMax, FindFirstExtremumAlongAxis) {
  Tensor in = MakeTensor<float>({2, 3}, {1, 5, 5, 7, -1, 7});
  auto run = [&](const char* op, int32_t axis, DataType out_type) {
    auto out = RunKernel(NodeDefFor(op, {{"T", DT_FLOAT}, {"output_type", out_type}}),
                         {in, MakeTensor<int32_t>({}, {axis})});
    EXPECT_TRUE(out.ok()) << out.status();
    return (*out)[0];
  };
  EXPECT_EQ(Values<int64_t>(run("ArgMax", 1, DT_INT64)), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(Values<int64_t>(run("ArgMax", 0, DT_INT64)), (std::vector<int64_t>{1, 0, 1}));
  EXPECT_EQ(Values<int32_t>(run("ArgMin", -1, DT_INT32)), (std::vector<int32_t>{0, 1}));
  EXPECT_EQ(Values<int32_t>(run("ArgMin", 0, DT_INT32)), (std::vector<int32_t>{0, 1, 0}));
  // Against a reference on a 3-D input, middle axis.
  Tensor r = RandomFloats({4, 5, 6}, 3);
  auto out = RunKernel(NodeDefFor("ArgMax", {{"T", DT_FLOAT}}), {r, MakeTensor<int64_t>({}, {1})});
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ((*out)[0].shape(), TensorShape({4, 6}));
  for (int a = 0; a < 4; ++a)
    for (int c = 0; c < 6; ++c) {
      int best = 0;
      for (int b = 1; b < 5; ++b) {
        if (r.data<float>()[(a * 5 + b) * 6 + c] > r.data<float>()[(a * 5 + best) * 6 + c]) {
          best = b;
        }
      }
      EXPECT_EQ((*out)[0].data<int64_t>()[a * 6 + c], best);
    }
  auto bad = RunKernel(NodeDefFor("ArgMax", {{"T", DT_FLOAT}}),
                       {in, MakeTensor<int32_t>({}, {2})});
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  auto empty = RunKernel(NodeDefFor("ArgMax", {{"T", DT_FLOAT}}),
                         {Tensor(DT_FLOAT, TensorShape({0, 2})), MakeTensor<int32_t>({}, {0})});
  EXPECT_EQ(empty.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(Cumsum, HonoursExclusiveAndReverse) {
  Tensor x = MakeTensor<float>({2, 3}, {1, 2, 3, 4, 5, 6});
  auto run = [&](const char* op, int axis, bool exclusive, bool reverse) {
    auto out = RunKernel(NodeDefFor(op, {{"T", DT_FLOAT}, {"exclusive", exclusive},
                                         {"reverse", reverse}}),
                         {x, MakeTensor<int32_t>({}, {axis})});
    EXPECT_TRUE(out.ok()) << out.status();
    return Values<float>((*out)[0]);
  };
  EXPECT_EQ(run("Cumsum", 1, false, false), (std::vector<float>{1, 3, 6, 4, 9, 15}));
  EXPECT_EQ(run("Cumsum", 1, true, false), (std::vector<float>{0, 1, 3, 0, 4, 9}));
  EXPECT_EQ(run("Cumsum", 1, false, true), (std::vector<float>{6, 5, 3, 15, 11, 6}));
  EXPECT_EQ(run("Cumsum", -1, true, true), (std::vector<float>{5, 3, 0, 11, 6, 0}));
  EXPECT_EQ(run("Cumsum", 0, false, false), (std::vector<float>{1, 2, 3, 5, 7, 9}));
  EXPECT_EQ(run("Cumprod", 1, false, false), (std::vector<float>{1, 2, 6, 4, 20, 120}));
  EXPECT_EQ(run("Cumprod", 0, true, false), (std::vector<float>{1, 1, 1, 1, 2, 3}));
  auto bad = RunKernel(NodeDefFor("Cumsum", {{"T", DT_FLOAT}}),
                       {x, MakeTensor<int32_t>({}, {2})});
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(Softmax, MatchesReferenceAndIsStable) {
  Tensor x = RandomFloats({5, 7}, 4);
  x.data<float>()[3] = 1000.0f;  // would overflow exp without the max shift
  auto sm = RunKernel(NodeDefFor("Softmax", {{"T", DT_FLOAT}}), {x});
  auto lsm = RunKernel(NodeDefFor("LogSoftmax", {{"T", DT_FLOAT}}), {x});
  ASSERT_TRUE(sm.ok() && lsm.ok());
  for (int r = 0; r < 5; ++r) {
    double mx = -INFINITY, sum = 0;
    for (int c = 0; c < 7; ++c) mx = std::max<double>(mx, x.data<float>()[r * 7 + c]);
    for (int c = 0; c < 7; ++c) sum += std::exp(x.data<float>()[r * 7 + c] - mx);
    for (int c = 0; c < 7; ++c) {
      const double logp = x.data<float>()[r * 7 + c] - mx - std::log(sum);
      EXPECT_NEAR((*sm)[0].data<float>()[r * 7 + c], std::exp(logp), 1e-6);
      EXPECT_NEAR((*lsm)[0].data<float>()[r * 7 + c], logp, 1e-6 * (1 + std::abs(logp)) + 1e-6);
    }
  }
  auto bad = RunKernel(NodeDefFor("Softmax", {{"T", DT_FLOAT}}), {MakeTensor<float>({}, {1})});
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  auto empty = RunKernel(NodeDefFor("Softmax", {{"T", DT_FLOAT}}),
                         {Tensor(DT_FLOAT, TensorShape({3, 0}))});
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ((*empty)[0].shape(), TensorShape({3, 0}));
}

}  // namespace
}  // namespace sg
