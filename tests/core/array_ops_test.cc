// Array op kernels checked against plain reference loops written here, on small inputs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <type_traits>

#include "core/framework/node_def_util.h"
#include "core/framework/op.h"
#include "core/framework/shape_inference.h"
#include "tests/core/ops_testutil.h"

namespace sg {
namespace {

using test::MakeTensor;
using test::NodeDefFor;
using test::RunKernel;
using test::Values;

std::vector<int64_t> DimsOf(const Tensor& t) {
  return std::vector<int64_t>(t.shape().dim_sizes().begin(), t.shape().dim_sizes().end());
}

// A float tensor of `shape` holding 0, 1, 2, ... in row-major order.
Tensor Iota(std::vector<int64_t> shape) {
  Tensor t(DT_FLOAT, TensorShape(shape));
  for (int64_t i = 0; i < t.NumElements(); ++i) t.data<float>()[i] = static_cast<float>(i);
  return t;
}

Tensor Ints(std::vector<int32_t> v) {
  return MakeTensor<int32_t>({static_cast<int64_t>(v.size())}, v);
}
Tensor Int64s(std::vector<int64_t> v) {
  return MakeTensor<int64_t>({static_cast<int64_t>(v.size())}, v);
}

// Row-major flat index of `idx` in `shape`.
int64_t Flat(const std::vector<int64_t>& shape, const std::vector<int64_t>& idx) {
  int64_t f = 0;
  for (size_t d = 0; d < shape.size(); ++d) f = f * shape[d] + idx[d];
  return f;
}

// Calls fn(index) for every index of `shape` in row-major order.
template <typename Fn>
void ForEachIndex(const std::vector<int64_t>& shape, Fn fn) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  std::vector<int64_t> idx(shape.size(), 0);
  for (int64_t k = 0; k < n; ++k) {
    fn(idx);
    for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
}

TEST(Reshape, InfersTheMinusOneDimension) {
  auto out = RunKernel(NodeDefFor("Reshape", {{"T", DT_FLOAT}}), {Iota({2, 3, 4}), Ints({-1, 6})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(DimsOf((*out)[0]), (std::vector<int64_t>{4, 6}));
  EXPECT_EQ(Values<float>((*out)[0]), Values<float>(Iota({24})));
}

TEST(Reshape, InfersFromAnEmptyTensorWithAZeroDim) {
  auto out = RunKernel(NodeDefFor("Reshape", {{"T", DT_FLOAT}, {"Tshape", DT_INT64}}),
                       {Iota({0, 5}), Int64s({0, -1})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(DimsOf((*out)[0]), (std::vector<int64_t>{0, 5}));
}

TEST(Reshape, RejectsSizeMismatchAndHugeShapes) {
  auto mismatch = RunKernel(NodeDefFor("Reshape", {{"T", DT_FLOAT}}), {Iota({6}), Ints({4})});
  EXPECT_EQ(mismatch.status().code(), absl::StatusCode::kInvalidArgument);
  auto indivisible = RunKernel(NodeDefFor("Reshape", {{"T", DT_FLOAT}}), {Iota({6}), Ints({-1, 4})});
  EXPECT_EQ(indivisible.status().code(), absl::StatusCode::kInvalidArgument);
  auto two = RunKernel(NodeDefFor("Reshape", {{"T", DT_FLOAT}}), {Iota({6}), Ints({-1, -1})});
  EXPECT_EQ(two.status().code(), absl::StatusCode::kInvalidArgument);
  const int64_t big = int64_t{1} << 40;
  auto huge = RunKernel(NodeDefFor("Reshape", {{"T", DT_FLOAT}, {"Tshape", DT_INT64}}),
                        {Iota({6}), Int64s({big, big, 6})});
  EXPECT_EQ(huge.status().code(), absl::StatusCode::kInvalidArgument);
  auto huge_unknown = RunKernel(NodeDefFor("Reshape", {{"T", DT_FLOAT}, {"Tshape", DT_INT64}}),
                                {Iota({6}), Int64s({big, big, -1})});
  EXPECT_EQ(huge_unknown.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(Shape, ReportsShapeSizeAndRankInBothIntTypes) {
  Tensor x = Iota({2, 0, 3});
  auto s32 = RunKernel(NodeDefFor("Shape", {{"T", DT_FLOAT}}), {x});
  ASSERT_TRUE(s32.ok()) << s32.status();
  EXPECT_EQ(Values<int32_t>((*s32)[0]), (std::vector<int32_t>{2, 0, 3}));
  auto s64 = RunKernel(NodeDefFor("Shape", {{"T", DT_FLOAT}, {"out_type", DT_INT64}}), {x});
  ASSERT_TRUE(s64.ok());
  EXPECT_EQ(Values<int64_t>((*s64)[0]), (std::vector<int64_t>{2, 0, 3}));
  auto n = RunKernel(NodeDefFor("ShapeN", {{"T", DT_FLOAT}, {"N", 2}}), {x, Iota({})});
  ASSERT_TRUE(n.ok()) << n.status();
  EXPECT_EQ(Values<int32_t>((*n)[0]), (std::vector<int32_t>{2, 0, 3}));
  EXPECT_EQ((*n)[1].NumElements(), 0);
  auto size = RunKernel(NodeDefFor("Size", {{"T", DT_FLOAT}, {"out_type", DT_INT64}}),
                        {Iota({4, 5})});
  ASSERT_TRUE(size.ok());
  EXPECT_EQ(Values<int64_t>((*size)[0]), (std::vector<int64_t>{20}));
  auto rank = RunKernel(NodeDefFor("Rank", {{"T", DT_FLOAT}}), {x});
  ASSERT_TRUE(rank.ok());
  EXPECT_EQ(Values<int32_t>((*rank)[0]), (std::vector<int32_t>{3}));
}

TEST(Squeeze, RemovesAllOrListedUnitDims) {
  auto all = RunKernel(NodeDefFor("Squeeze", {{"T", DT_FLOAT}}), {Iota({1, 3, 1, 2})});
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(DimsOf((*all)[0]), (std::vector<int64_t>{3, 2}));
  auto some = RunKernel(NodeDefFor("Squeeze", {{"T", DT_FLOAT}, {"squeeze_dims", {-2}}}),
                        {Iota({1, 3, 1, 2})});
  ASSERT_TRUE(some.ok()) << some.status();
  EXPECT_EQ(DimsOf((*some)[0]), (std::vector<int64_t>{1, 3, 2}));
  auto bad = RunKernel(NodeDefFor("Squeeze", {{"T", DT_FLOAT}, {"squeeze_dims", {1}}}),
                       {Iota({1, 3, 1, 2})});
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(ExpandDims, InsertsAtNegativeAxis) {
  auto out = RunKernel(NodeDefFor("ExpandDims", {{"T", DT_FLOAT}}),
                       {Iota({2, 3}), Tensor::Scalar<int32_t>(-1)});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(DimsOf((*out)[0]), (std::vector<int64_t>{2, 3, 1}));
  auto bad = RunKernel(NodeDefFor("ExpandDims", {{"T", DT_FLOAT}}),
                       {Iota({2, 3}), Tensor::Scalar<int32_t>(4)});
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(ConcatV2, JoinsAlongNegativeAxisAsAReferenceLoop) {
  Tensor a = Iota({2, 3, 2}), b = Iota({2, 1, 2});
  auto out = RunKernel(NodeDefFor("ConcatV2", {{"T", DT_FLOAT}, {"N", 2}}),
                       {a, b, Tensor::Scalar<int32_t>(-2)});
  ASSERT_TRUE(out.ok()) << out.status();
  const Tensor& o = (*out)[0];
  ASSERT_EQ(DimsOf(o), (std::vector<int64_t>{2, 4, 2}));
  ForEachIndex({2, 4, 2}, [&](const std::vector<int64_t>& i) {
    float want = i[1] < 3 ? a.data<float>()[Flat({2, 3, 2}, i)]
                          : b.data<float>()[Flat({2, 1, 2}, {i[0], i[1] - 3, i[2]})];
    EXPECT_EQ(o.data<float>()[Flat({2, 4, 2}, i)], want);
  });
}

TEST(Concat, TakesTheAxisFirstAndJoinsStrings) {
  Tensor a = MakeTensor<tstring>({2}, {"a", "b"}), b = MakeTensor<tstring>({1}, {"c"});
  auto out = RunKernel(NodeDefFor("Concat", {{"T", DT_STRING}, {"N", 2}}),
                       {Tensor::Scalar<int32_t>(0), a, b});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<tstring>((*out)[0]), (std::vector<tstring>{"a", "b", "c"}));
}

TEST(ConcatV2, RejectsMismatchedShapesAndScalars) {
  auto bad = RunKernel(NodeDefFor("ConcatV2", {{"T", DT_FLOAT}, {"N", 2}}),
                       {Iota({2, 3}), Iota({3, 3}), Tensor::Scalar<int32_t>(1)});
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  auto axis = RunKernel(NodeDefFor("ConcatV2", {{"T", DT_FLOAT}, {"N", 2}}),
                        {Iota({2, 3}), Iota({2, 3}), Tensor::Scalar<int32_t>(2)});
  EXPECT_EQ(axis.status().code(), absl::StatusCode::kInvalidArgument);
  auto scalars = RunKernel(NodeDefFor("ConcatV2", {{"T", DT_FLOAT}, {"N", 2}}),
                           {Iota({}), Iota({}), Tensor::Scalar<int32_t>(0)});
  EXPECT_EQ(scalars.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(Pack, StacksOnAMiddleAxisAndUnpackUndoesIt) {
  Tensor a = Iota({2, 3}), b = MakeTensor<float>({2, 3}, {10, 11, 12, 13, 14, 15});
  auto out = RunKernel(NodeDefFor("Pack", {{"T", DT_FLOAT}, {"N", 2}, {"axis", 1}}), {a, b});
  ASSERT_TRUE(out.ok()) << out.status();
  const Tensor& o = (*out)[0];
  ASSERT_EQ(DimsOf(o), (std::vector<int64_t>{2, 2, 3}));
  ForEachIndex({2, 2, 3}, [&](const std::vector<int64_t>& i) {
    const Tensor& src = i[1] == 0 ? a : b;
    EXPECT_EQ(o.data<float>()[Flat({2, 2, 3}, i)], src.data<float>()[i[0] * 3 + i[2]]);
  });
  auto un = RunKernel(NodeDefFor("Unpack", {{"T", DT_FLOAT}, {"num", 2}, {"axis", -2}}), {o});
  ASSERT_TRUE(un.ok()) << un.status();
  EXPECT_EQ(Values<float>((*un)[0]), Values<float>(a));
  EXPECT_EQ(Values<float>((*un)[1]), Values<float>(b));
  auto bad = RunKernel(NodeDefFor("Unpack", {{"T", DT_FLOAT}, {"num", 3}, {"axis", 0}}), {o});
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(Split, SplitsEvenlyAlongAxis) {
  Tensor x = Iota({2, 6});
  auto out = RunKernel(NodeDefFor("Split", {{"T", DT_FLOAT}, {"num_split", 3}}),
                       {Tensor::Scalar<int32_t>(-1), x});
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->size(), 3u);
  EXPECT_EQ(Values<float>((*out)[1]), (std::vector<float>{2, 3, 8, 9}));
  auto bad = RunKernel(NodeDefFor("Split", {{"T", DT_FLOAT}, {"num_split", 4}}),
                       {Tensor::Scalar<int32_t>(1), x});
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(SplitV, InfersOneMinusOneSize) {
  Tensor x = Iota({5, 2});
  auto out = RunKernel(NodeDefFor("SplitV", {{"T", DT_FLOAT}, {"num_split", 3},
                                             {"Tlen", DT_INT32}}),
                       {x, Ints({1, -1, 2}), Tensor::Scalar<int32_t>(0)});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(DimsOf((*out)[1]), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(Values<float>((*out)[1]), (std::vector<float>{2, 3, 4, 5}));
  EXPECT_EQ(Values<float>((*out)[2]), (std::vector<float>{6, 7, 8, 9}));
  auto bad = RunKernel(NodeDefFor("SplitV", {{"T", DT_FLOAT}, {"num_split", 2},
                                             {"Tlen", DT_INT32}}),
                       {x, Ints({1, 1}), Tensor::Scalar<int32_t>(0)});
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(Slice, TakesToTheEndForMinusOne) {
  Tensor x = Iota({3, 4});
  auto out = RunKernel(NodeDefFor("Slice", {{"T", DT_FLOAT}, {"Index", DT_INT32}}),
                       {x, Ints({1, 1}), Ints({-1, 2})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(DimsOf((*out)[0]), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(Values<float>((*out)[0]), (std::vector<float>{5, 6, 9, 10}));
  auto bad = RunKernel(NodeDefFor("Slice", {{"T", DT_FLOAT}, {"Index", DT_INT32}}),
                       {x, Ints({1, 1}), Ints({3, 2})});
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
}

// Python's slice(b, e, s).indices(n) walked with a plain loop: the reference for one dim.
std::vector<int64_t> PySliceIndices(int64_t n, int64_t b, int64_t e, int64_t s, bool bmask,
                                    bool emask) {
  int64_t lo = s > 0 ? 0 : -1, hi = s > 0 ? n : n - 1;
  auto fix = [&](int64_t x) {
    if (x < 0) x += n;
    return std::min(std::max(x, lo), hi);
  };
  int64_t start = bmask ? (s > 0 ? 0 : n - 1) : fix(b);
  int64_t stop = emask ? (s > 0 ? n : -1) : fix(e);
  std::vector<int64_t> out;
  for (int64_t i = start; s > 0 ? i < stop : i > stop; i += s) out.push_back(i);
  return out;
}

TEST(StridedSlice, MatchesAReferenceOnRandomSpecs) {
  std::mt19937 rng(7);
  const std::vector<int64_t> shape = {4, 5, 3};
  Tensor x = Iota(shape);
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<int32_t> b(3), e(3), s(3);
    int64_t bmask = rng() % 8, emask = rng() % 8, shrink = rng() % 8;
    std::vector<std::vector<int64_t>> picks(3);
    std::vector<int64_t> want_shape;
    bool valid = true;
    for (int d = 0; d < 3; ++d) {
      const int n = static_cast<int>(shape[d]);
      b[d] = static_cast<int32_t>(rng() % (2 * n + 3)) - n - 1;
      e[d] = static_cast<int32_t>(rng() % (2 * n + 3)) - n - 1;
      s[d] = static_cast<int32_t>(rng() % 5) - 2;
      if (s[d] == 0) s[d] = 1;
      if ((shrink >> d) & 1) {
        s[d] = 1;
        const int64_t idx = b[d] < 0 ? b[d] + n : b[d];
        if (idx < 0 || idx >= n) valid = false;
        picks[d] = {idx};
      } else {
        picks[d] = PySliceIndices(n, b[d], e[d], s[d], (bmask >> d) & 1, (emask >> d) & 1);
        want_shape.push_back(static_cast<int64_t>(picks[d].size()));
      }
    }
    auto out = RunKernel(NodeDefFor("StridedSlice", {{"T", DT_FLOAT},
                                                     {"Index", DT_INT32},
                                                     {"begin_mask", bmask},
                                                     {"end_mask", emask},
                                                     {"shrink_axis_mask", shrink}}),
                         {x, Ints(b), Ints(e), Ints(s)});
    if (!valid) {
      EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
      continue;
    }
    ASSERT_TRUE(out.ok()) << out.status();
    const Tensor& o = (*out)[0];
    ASSERT_EQ(DimsOf(o), want_shape) << "trial " << trial;
    std::vector<float> want;
    for (int64_t i : picks[0]) {
      for (int64_t j : picks[1]) {
        for (int64_t k : picks[2]) want.push_back(x.data<float>()[Flat(shape, {i, j, k})]);
      }
    }
    EXPECT_EQ(Values<float>(o), want) << "trial " << trial;
  }
}

TEST(StridedSlice, HandlesEllipsisAndNewAxis) {
  Tensor x = Iota({2, 3, 4});
  // x[..., 1] : shape [2, 3]
  auto a = RunKernel(NodeDefFor("StridedSlice", {{"T", DT_FLOAT}, {"Index", DT_INT32},
                                                 {"ellipsis_mask", 1}, {"shrink_axis_mask", 2}}),
                     {x, Ints({0, 1}), Ints({0, 2}), Ints({1, 1})});
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(DimsOf((*a)[0]), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(Values<float>((*a)[0]), (std::vector<float>{1, 5, 9, 13, 17, 21}));
  // x[tf.newaxis, 1, ::-2] : shape [1, 2, 4]
  auto b = RunKernel(NodeDefFor("StridedSlice", {{"T", DT_FLOAT}, {"Index", DT_INT32},
                                                 {"new_axis_mask", 1}, {"shrink_axis_mask", 2},
                                                 {"begin_mask", 4}, {"end_mask", 4}}),
                     {x, Ints({0, 1, 0}), Ints({0, 2, 0}), Ints({1, 1, -2})});
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(DimsOf((*b)[0]), (std::vector<int64_t>{1, 2, 4}));
  EXPECT_EQ(Values<float>((*b)[0]),
            (std::vector<float>{20, 21, 22, 23, 12, 13, 14, 15}));
  // Scalar from x[1, 2, 3].
  auto c = RunKernel(NodeDefFor("StridedSlice", {{"T", DT_FLOAT}, {"Index", DT_INT32},
                                                 {"shrink_axis_mask", 7}}),
                     {x, Ints({1, 2, -1}), Ints({2, 3, 0}), Ints({1, 1, 1})});
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ((*c)[0].dims(), 0);
  EXPECT_EQ(Values<float>((*c)[0]), (std::vector<float>{23}));
  auto zero = RunKernel(NodeDefFor("StridedSlice", {{"T", DT_FLOAT}, {"Index", DT_INT32}}),
                        {x, Ints({0}), Ints({1}), Ints({0})});
  EXPECT_EQ(zero.status().code(), absl::StatusCode::kInvalidArgument);
  auto two_ellipses = RunKernel(
      NodeDefFor("StridedSlice", {{"T", DT_FLOAT}, {"Index", DT_INT32}, {"ellipsis_mask", 3}}),
      {x, Ints({0, 0}), Ints({0, 0}), Ints({1, 1})});
  EXPECT_EQ(two_ellipses.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(Transpose, PermutesLikeAReferenceLoop) {
  const std::vector<int64_t> shape = {2, 3, 4};
  Tensor x = Iota(shape);
  auto out = RunKernel(NodeDefFor("Transpose", {{"T", DT_FLOAT}, {"Tperm", DT_INT64}}),
                       {x, Int64s({2, 0, 1})});
  ASSERT_TRUE(out.ok()) << out.status();
  const Tensor& o = (*out)[0];
  ASSERT_EQ(DimsOf(o), (std::vector<int64_t>{4, 2, 3}));
  ForEachIndex({4, 2, 3}, [&](const std::vector<int64_t>& i) {
    EXPECT_EQ(o.data<float>()[Flat({4, 2, 3}, i)],
              x.data<float>()[Flat(shape, {i[1], i[2], i[0]})]);
  });
  auto bad = RunKernel(NodeDefFor("Transpose", {{"T", DT_FLOAT}}), {x, Ints({0, 0, 1})});
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(Transpose, MovesLargeInputsOnThePool) {
  const std::vector<int64_t> shape = {64, 33, 17};
  Tensor x = Iota(shape);
  auto out = RunKernel(NodeDefFor("Transpose", {{"T", DT_FLOAT}}), {x, Ints({1, 2, 0})});
  ASSERT_TRUE(out.ok()) << out.status();
  const Tensor& o = (*out)[0];
  bool all = true;
  ForEachIndex({33, 17, 64}, [&](const std::vector<int64_t>& i) {
    all &= o.data<float>()[Flat({33, 17, 64}, i)] ==
           x.data<float>()[Flat(shape, {i[2], i[0], i[1]})];
  });
  EXPECT_TRUE(all);
}

TEST(InvertPermutation, InvertsAndRejectsDuplicates) {
  auto out = RunKernel(NodeDefFor("InvertPermutation", {}), {Ints({3, 4, 0, 2, 1})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<int32_t>((*out)[0]), (std::vector<int32_t>{2, 4, 3, 0, 1}));
  auto bad = RunKernel(NodeDefFor("InvertPermutation", {}), {Ints({0, 0})});
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(Fill, FillsAndLikeOpsMatchShape) {
  auto out = RunKernel(NodeDefFor("Fill", {{"T", DT_INT32}}),
                       {Ints({2, 3}), Tensor::Scalar<int32_t>(7)});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<int32_t>((*out)[0]), std::vector<int32_t>(6, 7));
  auto neg = RunKernel(NodeDefFor("Fill", {{"T", DT_INT32}}),
                       {Ints({2, -3}), Tensor::Scalar<int32_t>(7)});
  EXPECT_EQ(neg.status().code(), absl::StatusCode::kInvalidArgument);
  auto zeros = RunKernel(NodeDefFor("ZerosLike", {{"T", DT_DOUBLE}}),
                         {MakeTensor<double>({2}, {3, 4})});
  ASSERT_TRUE(zeros.ok());
  EXPECT_EQ(Values<double>((*zeros)[0]), (std::vector<double>{0, 0}));
  auto ones = RunKernel(NodeDefFor("OnesLike", {{"T", DT_BOOL}}),
                        {MakeTensor<bool>({3}, {false, true, false})});
  ASSERT_TRUE(ones.ok());
  EXPECT_EQ(Values<bool>((*ones)[0]), (std::vector<bool>{true, true, true}));
}

// Fills larger than 8 MiB take non-temporal stores in 16-byte units, on ranges split at any
// element: every element is set, sizes are not multiples of 16 bytes.
TEST(Fill, LargeFillsSetEveryElement) {
  auto check = [](DataType dt, const Tensor& value, int64_t n, auto want) {
    using T = decltype(want);
    auto out = RunKernel(NodeDefFor("Fill", {{"T", dt}, {"index_type", DT_INT64}}),
                         {MakeTensor<int64_t>({1}, {n}), value});
    ASSERT_TRUE(out.ok()) << out.status();
    ASSERT_EQ((*out)[0].NumElements(), n);
    const T* d = (*out)[0].data<T>();
    int64_t wrong = 0;
    for (int64_t i = 0; i < n; ++i) wrong += d[i] != want;
    EXPECT_EQ(wrong, 0) << DataTypeString(dt) << " x " << n;
  };
  check(DT_FLOAT, Tensor::Scalar<float>(1.5f), (int64_t{16} << 20) + 5, 1.5f);
  check(DT_INT64, Tensor::Scalar<int64_t>(-3), (int64_t{8} << 20) + 3, int64_t{-3});
  check(DT_INT8, Tensor::Scalar<int8_t>(9), (int64_t{64} << 20) + 7, int8_t{9});
}

TEST(Tile, RepeatsLikeAReferenceLoop) {
  Tensor x = Iota({2, 3});
  auto out = RunKernel(NodeDefFor("Tile", {{"T", DT_FLOAT}}), {x, Ints({3, 2})});
  ASSERT_TRUE(out.ok()) << out.status();
  const Tensor& o = (*out)[0];
  ASSERT_EQ(DimsOf(o), (std::vector<int64_t>{6, 6}));
  ForEachIndex({6, 6}, [&](const std::vector<int64_t>& i) {
    EXPECT_EQ(o.data<float>()[i[0] * 6 + i[1]], x.data<float>()[(i[0] % 2) * 3 + i[1] % 3]);
  });
  auto empty = RunKernel(NodeDefFor("Tile", {{"T", DT_FLOAT}}), {x, Ints({0, 2})});
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(DimsOf((*empty)[0]), (std::vector<int64_t>{0, 6}));
  auto bad = RunKernel(NodeDefFor("Tile", {{"T", DT_FLOAT}}), {x, Ints({2})});
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(BroadcastTo, BroadcastsLikeNumpy) {
  Tensor x = MakeTensor<float>({3, 1}, {1, 2, 3});
  auto out = RunKernel(NodeDefFor("BroadcastTo", {{"T", DT_FLOAT}}), {x, Ints({2, 3, 2})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<float>((*out)[0]),
            (std::vector<float>{1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3}));
  auto bad = RunKernel(NodeDefFor("BroadcastTo", {{"T", DT_FLOAT}}), {x, Ints({2, 2})});
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(GatherV2, GathersOnAxisOneAndRejectsOutOfRangeIndices) {
  const std::vector<int64_t> shape = {2, 4, 3};
  Tensor params = Iota(shape);
  Tensor idx = MakeTensor<int64_t>({2, 2}, {3, 0, 1, 3});
  auto out = RunKernel(NodeDefFor("GatherV2", {{"Tparams", DT_FLOAT}, {"Tindices", DT_INT64},
                                               {"Taxis", DT_INT32}}),
                       {params, idx, Tensor::Scalar<int32_t>(-2)});
  ASSERT_TRUE(out.ok()) << out.status();
  const Tensor& o = (*out)[0];
  ASSERT_EQ(DimsOf(o), (std::vector<int64_t>{2, 2, 2, 3}));
  ForEachIndex({2, 2, 2, 3}, [&](const std::vector<int64_t>& i) {
    const int64_t j = idx.data<int64_t>()[i[1] * 2 + i[2]];
    EXPECT_EQ(o.data<float>()[Flat({2, 2, 2, 3}, i)], params.data<float>()[Flat(shape, {i[0], j, i[3]})]);
  });
  auto bad = RunKernel(NodeDefFor("GatherV2", {{"Tparams", DT_FLOAT}, {"Tindices", DT_INT32},
                                               {"Taxis", DT_INT32}}),
                       {params, Ints({4}), Tensor::Scalar<int32_t>(1)});
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  auto neg = RunKernel(NodeDefFor("Gather", {{"Tparams", DT_FLOAT}, {"Tindices", DT_INT32}}),
                       {params, Ints({-1})});
  EXPECT_EQ(neg.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(Gather, GathersStringRows) {
  Tensor params = MakeTensor<tstring>({3}, {"x", "y", "z"});
  auto out = RunKernel(NodeDefFor("Gather", {{"Tparams", DT_STRING}, {"Tindices", DT_INT32}}),
                       {params, Ints({2, 2, 0})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<tstring>((*out)[0]), (std::vector<tstring>{"z", "z", "x"}));
}

TEST(OneHot, PlacesOnValuesAlongTheAxis) {
  Tensor idx = MakeTensor<int32_t>({3}, {0, 2, -1});
  auto last = RunKernel(NodeDefFor("OneHot", {{"T", DT_FLOAT}, {"TI", DT_INT32}}),
                        {idx, Tensor::Scalar<int32_t>(3), Tensor::Scalar<float>(5),
                         Tensor::Scalar<float>(-1)});
  ASSERT_TRUE(last.ok()) << last.status();
  EXPECT_EQ(Values<float>((*last)[0]), (std::vector<float>{5, -1, -1, -1, -1, 5, -1, -1, -1}));
  auto first = RunKernel(NodeDefFor("OneHot", {{"T", DT_INT32}, {"TI", DT_UINT8}, {"axis", 0}}),
                         {MakeTensor<uint8_t>({2}, {1, 0}), Tensor::Scalar<int32_t>(2),
                          Tensor::Scalar<int32_t>(1), Tensor::Scalar<int32_t>(0)});
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(DimsOf((*first)[0]), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(Values<int32_t>((*first)[0]), (std::vector<int32_t>{0, 1, 1, 0}));
}

// Reference padding: out[i] = in[src(i)] where src maps each output coordinate per dim, or
// `fill` when a coordinate falls outside.
std::vector<float> RefPad(const Tensor& x, const std::vector<int64_t>& pads, int mode,
                          float fill, std::vector<int64_t>* out_shape) {
  const std::vector<int64_t> in_shape = DimsOf(x);
  out_shape->clear();
  for (size_t d = 0; d < in_shape.size(); ++d) {
    out_shape->push_back(in_shape[d] + pads[2 * d] + pads[2 * d + 1]);
  }
  std::vector<float> out;
  ForEachIndex(*out_shape, [&](const std::vector<int64_t>& i) {
    std::vector<int64_t> src(i.size());
    bool inside = true;
    for (size_t d = 0; d < i.size(); ++d) {
      int64_t k = i[d] - pads[2 * d];
      const int64_t n = in_shape[d];
      if (mode == 1) {  // REFLECT
        if (k < 0) k = -k;
        if (k >= n) k = 2 * (n - 1) - k;
      } else if (mode == 2) {  // SYMMETRIC
        if (k < 0) k = -k - 1;
        if (k >= n) k = 2 * n - 1 - k;
      }
      if (k < 0 || k >= n) inside = false;
      src[d] = k;
    }
    out.push_back(inside ? x.data<float>()[Flat(in_shape, src)] : fill);
  });
  return out;
}

TEST(Pad, PadsWithConstantsAndMirrorsLikeAReference) {
  Tensor x = Iota({3, 4});
  const std::vector<int64_t> pads = {1, 2, 3, 2};
  Tensor pads_t = MakeTensor<int32_t>({2, 2}, {1, 2, 3, 2});
  std::vector<int64_t> shape;
  auto pad = RunKernel(NodeDefFor("Pad", {{"T", DT_FLOAT}}), {x, pads_t});
  ASSERT_TRUE(pad.ok()) << pad.status();
  EXPECT_EQ(Values<float>((*pad)[0]), RefPad(x, pads, 0, 0, &shape));
  EXPECT_EQ(DimsOf((*pad)[0]), shape);
  auto v2 = RunKernel(NodeDefFor("PadV2", {{"T", DT_FLOAT}}),
                      {x, pads_t, Tensor::Scalar<float>(-7)});
  ASSERT_TRUE(v2.ok()) << v2.status();
  EXPECT_EQ(Values<float>((*v2)[0]), RefPad(x, pads, 0, -7, &shape));
  auto reflect = RunKernel(NodeDefFor("MirrorPad", {{"T", DT_FLOAT}, {"mode", "REFLECT"}}),
                           {x, MakeTensor<int32_t>({2, 2}, {2, 1, 3, 2})});
  ASSERT_TRUE(reflect.ok()) << reflect.status();
  EXPECT_EQ(Values<float>((*reflect)[0]), RefPad(x, {2, 1, 3, 2}, 1, 0, &shape));
  auto symmetric = RunKernel(NodeDefFor("MirrorPad", {{"T", DT_FLOAT}, {"mode", "SYMMETRIC"}}),
                             {x, MakeTensor<int32_t>({2, 2}, {3, 2, 4, 1})});
  ASSERT_TRUE(symmetric.ok()) << symmetric.status();
  EXPECT_EQ(Values<float>((*symmetric)[0]), RefPad(x, {3, 2, 4, 1}, 2, 0, &shape));
  auto too_far = RunKernel(NodeDefFor("MirrorPad", {{"T", DT_FLOAT}, {"mode", "REFLECT"}}),
                           {x, MakeTensor<int32_t>({2, 2}, {3, 0, 0, 0})});
  EXPECT_EQ(too_far.status().code(), absl::StatusCode::kInvalidArgument);
  auto negative = RunKernel(NodeDefFor("Pad", {{"T", DT_FLOAT}}),
                            {x, MakeTensor<int32_t>({2, 2}, {-1, 0, 0, 0})});
  EXPECT_EQ(negative.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(ReverseV2, ReversesListedAxes) {
  const std::vector<int64_t> shape = {2, 3, 2};
  Tensor x = Iota(shape);
  auto out = RunKernel(NodeDefFor("ReverseV2", {{"T", DT_FLOAT}}), {x, Ints({-1, 0})});
  ASSERT_TRUE(out.ok()) << out.status();
  ForEachIndex(shape, [&](const std::vector<int64_t>& i) {
    EXPECT_EQ((*out)[0].data<float>()[Flat(shape, i)],
              x.data<float>()[Flat(shape, {1 - i[0], i[1], 1 - i[2]})]);
  });
  auto old = RunKernel(NodeDefFor("Reverse", {{"T", DT_FLOAT}}),
                       {x, MakeTensor<bool>({3}, {false, true, false})});
  ASSERT_TRUE(old.ok()) << old.status();
  ForEachIndex(shape, [&](const std::vector<int64_t>& i) {
    EXPECT_EQ((*old)[0].data<float>()[Flat(shape, i)],
              x.data<float>()[Flat(shape, {i[0], 2 - i[1], i[2]})]);
  });
  auto dup = RunKernel(NodeDefFor("ReverseV2", {{"T", DT_FLOAT}}), {x, Ints({0, -3})});
  EXPECT_EQ(dup.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(Where, ListsCoordinatesOfTrueElements) {
  Tensor x = MakeTensor<bool>({2, 3}, {false, true, false, true, false, true});
  auto out = RunKernel(NodeDefFor("Where", {}), {x});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(DimsOf((*out)[0]), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(Values<int64_t>((*out)[0]), (std::vector<int64_t>{0, 1, 1, 0, 1, 2}));
  auto f = RunKernel(NodeDefFor("Where", {{"T", DT_FLOAT}}), {MakeTensor<float>({3}, {0, 2, 0})});
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(Values<int64_t>((*f)[0]), (std::vector<int64_t>{1}));
}

TEST(CheckNumerics, PassesFiniteValuesAndRejectsNanInEveryFloatType) {
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_HALF, DT_BFLOAT16}) {
    Tensor x(dt, TensorShape({3}));
    Tensor bad(dt, TensorShape({3}));
    DispatchAll(dt, [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_constructible_v<T, float>) {
        for (int i = 0; i < 3; ++i) x.data<T>()[i] = bad.data<T>()[i] = T(1.5f * i);
        bad.data<T>()[1] = T(std::nanf(""));
      }
    });
    NodeDef node = NodeDefFor("CheckNumerics", {{"T", dt}, {"message", std::string("x")}});
    auto ok = RunKernel(node, {x});
    ASSERT_TRUE(ok.ok()) << DataTypeString(dt) << ": " << ok.status();
    auto nan = RunKernel(node, {bad});
    EXPECT_EQ(nan.status().code(), absl::StatusCode::kInvalidArgument) << DataTypeString(dt);
  }
}

TEST(Unique, KeepsFirstAppearanceOrder) {
  auto out = RunKernel(NodeDefFor("Unique", {{"T", DT_INT32}}), {Ints({4, 1, 4, 2, 1})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<int32_t>((*out)[0]), (std::vector<int32_t>{4, 1, 2}));
  EXPECT_EQ(Values<int32_t>((*out)[1]), (std::vector<int32_t>{0, 1, 0, 2, 1}));
}

}  // namespace
}  // namespace sg

namespace sg {
namespace {

// Runs the shape function of `op` on partially known input shapes and constant inputs.
absl::StatusOr<std::vector<PartialTensorShape>> InferShapes(
    const NodeDef& node_in, std::vector<PartialTensorShape> shapes,
    std::vector<const Tensor*> consts) {
  const OpRegistrationData* reg = OpRegistry::Global()->LookUp(node_in.op());
  if (reg == nullptr) return errors::NotFound(node_in.op());
  NodeDef node = node_in;
  AddDefaultsToNodeDef(reg->op_def, &node);
  std::vector<DataType> in_types, out_types;
  SG_RETURN_IF_ERROR(InOutTypesForNode(node, reg->op_def, &in_types, &out_types));
  consts.resize(shapes.size(), nullptr);
  InferenceContext c(&node, shapes, consts, in_types, out_types);
  SG_RETURN_IF_ERROR(reg->shape_fn(&c));
  std::vector<PartialTensorShape> out;
  for (int i = 0; i < c.num_outputs(); ++i) out.push_back(c.output(i));
  return out;
}

TEST(ArrayShapeFns, ReshapeInfersFromAConstantShape) {
  Tensor shape = Ints({-1, 6});
  auto s = InferShapes(NodeDefFor("Reshape", {{"T", DT_FLOAT}}),
                       {PartialTensorShape({2, 3, 4}), PartialTensorShape({2})},
                       {nullptr, &shape});
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ((*s)[0], PartialTensorShape({4, 6}));
  auto partial = InferShapes(NodeDefFor("Reshape", {{"T", DT_FLOAT}}),
                             {PartialTensorShape({-1, 3}), PartialTensorShape({2})},
                             {nullptr, &shape});
  ASSERT_TRUE(partial.ok());
  EXPECT_EQ((*partial)[0], PartialTensorShape({-1, 6}));
  Tensor bad = Ints({5});
  auto mismatch = InferShapes(NodeDefFor("Reshape", {{"T", DT_FLOAT}}),
                              {PartialTensorShape({2, 3}), PartialTensorShape({1})},
                              {nullptr, &bad});
  EXPECT_EQ(mismatch.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(ArrayShapeFns, ConcatV2UsesAConstantAxis) {
  Tensor axis = Tensor::Scalar<int32_t>(-1);
  auto s = InferShapes(NodeDefFor("ConcatV2", {{"T", DT_FLOAT}, {"N", 2}}),
                       {PartialTensorShape({-1, 2}), PartialTensorShape({5, 3}),
                        PartialTensorShape::Scalar()},
                       {nullptr, nullptr, &axis});
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ((*s)[0], PartialTensorShape({5, 5}));
  auto unknown_axis = InferShapes(NodeDefFor("ConcatV2", {{"T", DT_FLOAT}, {"N", 2}}),
                                  {PartialTensorShape({-1, 2}), PartialTensorShape({5, 3}),
                                   PartialTensorShape::Scalar()},
                                  {});
  ASSERT_TRUE(unknown_axis.ok());
  EXPECT_EQ((*unknown_axis)[0], PartialTensorShape({-1, -1}));
}

TEST(ArrayShapeFns, StridedSliceKeepsUnknownDims) {
  Tensor b = Ints({0, 1}), e = Ints({0, 3}), st = Ints({1, 1});
  auto s = InferShapes(NodeDefFor("StridedSlice", {{"T", DT_FLOAT}, {"Index", DT_INT32},
                                                   {"begin_mask", 1}, {"end_mask", 1}}),
                       {PartialTensorShape({-1, 5, 4}), PartialTensorShape({2}),
                        PartialTensorShape({2}), PartialTensorShape({2})},
                       {nullptr, &b, &e, &st});
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ((*s)[0], PartialTensorShape({-1, 2, 4}));
}

TEST(EmptyTensors, FlowThroughDataMovementOps) {
  Tensor empty = Iota({0, 3});
  auto cat = RunKernel(NodeDefFor("ConcatV2", {{"T", DT_FLOAT}, {"N", 2}}),
                       {empty, Iota({2, 3}), Tensor::Scalar<int32_t>(0)});
  ASSERT_TRUE(cat.ok()) << cat.status();
  EXPECT_EQ(Values<float>((*cat)[0]), Values<float>(Iota({6})));
  auto tr = RunKernel(NodeDefFor("Transpose", {{"T", DT_FLOAT}}), {empty, Ints({1, 0})});
  ASSERT_TRUE(tr.ok()) << tr.status();
  EXPECT_EQ(DimsOf((*tr)[0]), (std::vector<int64_t>{3, 0}));
  auto g = RunKernel(NodeDefFor("GatherV2", {{"Tparams", DT_FLOAT}, {"Tindices", DT_INT32},
                                             {"Taxis", DT_INT32}}),
                     {Iota({2, 3}), MakeTensor<int32_t>({0}, {}), Tensor::Scalar<int32_t>(1)});
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ(DimsOf((*g)[0]), (std::vector<int64_t>{2, 0}));
  auto pad = RunKernel(NodeDefFor("Pad", {{"T", DT_FLOAT}}),
                       {empty, MakeTensor<int32_t>({2, 2}, {1, 0, 0, 0})});
  ASSERT_TRUE(pad.ok()) << pad.status();
  EXPECT_EQ(Values<float>((*pad)[0]), std::vector<float>(3, 0.0f));
}

TEST(StringTensors, MoveThroughSliceTransposeAndPad) {
  Tensor s = MakeTensor<tstring>({2, 2}, {"a", "b", "c", "d"});
  auto tr = RunKernel(NodeDefFor("Transpose", {{"T", DT_STRING}}), {s, Ints({1, 0})});
  ASSERT_TRUE(tr.ok()) << tr.status();
  EXPECT_EQ(Values<tstring>((*tr)[0]), (std::vector<tstring>{"a", "c", "b", "d"}));
  auto sl = RunKernel(NodeDefFor("Slice", {{"T", DT_STRING}, {"Index", DT_INT32}}),
                      {s, Ints({1, 0}), Ints({1, -1})});
  ASSERT_TRUE(sl.ok()) << sl.status();
  EXPECT_EQ(Values<tstring>((*sl)[0]), (std::vector<tstring>{"c", "d"}));
  auto pad = RunKernel(NodeDefFor("Pad", {{"T", DT_STRING}}),
                       {s, MakeTensor<int32_t>({2, 2}, {0, 0, 1, 0})});
  ASSERT_TRUE(pad.ok()) << pad.status();
  EXPECT_EQ(Values<tstring>((*pad)[0]), (std::vector<tstring>{"", "a", "b", "", "c", "d"}));
}

// ImmutableConst maps the start of a file as a tensor of the attrs' dtype and shape; a file too
// short for it, a missing file and a string dtype are errors, not crashes.
TEST(ImmutableConst, MapsAFileAndRejectsOneTooShort) {
  const std::string path =
      (std::filesystem::path(::testing::TempDir()) / "immutable_const_region").string();
  const std::vector<float> values = {1.5f, -2.0f, 3.25f, 4.0f, 5.0f, 6.5f, 99.0f};
  {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float));
  }
  auto node = [&](DataType dt, std::initializer_list<int64_t> dims, const std::string& file) {
    return NodeDefFor("ImmutableConst", {{"dtype", dt},
                                         {"shape", PartialTensorShape(dims)},
                                         {"memory_region_name", file}});
  };
  auto out = RunKernel(node(DT_FLOAT, {2, 3}, path), {});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(DimsOf((*out)[0]), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(Values<float>((*out)[0]), std::vector<float>(values.begin(), values.begin() + 6));
  EXPECT_EQ(RunKernel(node(DT_FLOAT, {2, 4}, path), {}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(RunKernel(node(DT_FLOAT, {1}, path + "_absent"), {}).status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(RunKernel(node(DT_STRING, {1}, path), {}).status().code(),
            absl::StatusCode::kInvalidArgument);
  std::remove(path.c_str());
}

struct Payload {
  static constexpr const char* kTypeName = "Payload";
  int value;
  std::string DebugString() const { return std::to_string(value); }
};

// WrapDatasetVariant and UnwrapDatasetVariant pass the variant itself through.
TEST(DatasetVariantWrappers, PassTheVariantThrough) {
  Tensor in(DT_VARIANT, TensorShape());
  in.data<Variant>()[0] = Variant(Payload{42});
  for (const char* op : {"WrapDatasetVariant", "UnwrapDatasetVariant"}) {
    auto out = RunKernel(NodeDefFor(op, {}), {in});
    ASSERT_TRUE(out.ok()) << op << ": " << out.status();
    const Payload* p = (*out)[0].data<Variant>()[0].get<Payload>();
    ASSERT_NE(p, nullptr) << op;
    EXPECT_EQ(p->value, 42) << op;
  }
}

}  // namespace
}  // namespace sg
