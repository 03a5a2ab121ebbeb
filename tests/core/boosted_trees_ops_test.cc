// The BoostedTrees quantile ops beyond their conformance cases (op_cases/boosted_trees.pb.gz,
// written by TensorFlow 2.8.4): the summary and stream structures against hand-computed values, and
// the bad inputs on which TensorFlow's kernels CHECK-fail or read out of bounds (so no case can
// record TensorFlow's answer), where sg must return INVALID_ARGUMENT. Kernels run one by one on
// the shared test device, so a resource persists across calls; each test uses its own names.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "core/kernels/boosted_trees_quantiles.h"
#include "tests/core/kernel_runner.h"
#include "tests/core/ops_testutil.h"

namespace sg {
namespace {

using boosted_trees::QuantileStream;
using boosted_trees::QuantileSummary;
using boosted_trees::QuantileSummaryEntry;
using test::MakeTensor;
using test::RunNode;
using test::V;

// ---- the data structures ---------------------------------------------------------------------

std::vector<float> Row(const QuantileSummaryEntry& e) {
  return {e.value, e.weight, e.min_rank, e.max_rank};
}

TEST(QuantileSummary, MergeKeepsRankBounds) {
  // TensorFlow's documented example: (value, weight, min rank, max rank).
  QuantileSummary a, b;
  a.BuildFromSummaryEntries({{1, 3, 0, 3}, {4, 2, 3, 5}});
  b.BuildFromSummaryEntries({{3, 1, 0, 1}, {4, 1, 1, 2}});
  a.Merge(b);
  ASSERT_EQ(a.Size(), 3);
  EXPECT_EQ(Row(a.entries()[0]), std::vector<float>({1, 3, 0, 3}));
  EXPECT_EQ(Row(a.entries()[1]), std::vector<float>({3, 1, 3, 4}));
  EXPECT_EQ(Row(a.entries()[2]), std::vector<float>({4, 3, 4, 7}));
}

TEST(QuantileSummary, PruneDropsTheEntryLeavingTheSmallestGap) {
  QuantileSummary s;
  s.BuildFromSummaryEntries(
      {{0.3f, 1, 0, 1}, {0.6f, 1, 2, 3}, {1.2f, 10, 3, 13}, {12.1f, 1, 14, 15}});
  // Without 0.6 the gap is 3 - 1 = 2; without 1.2 it is 14 - 3 = 11.
  s.Prune(3);
  ASSERT_EQ(s.Size(), 3);
  EXPECT_EQ(s.entries()[1].value, 1.2f);
  // Equal gaps: the first goes. 0..5 with unit weights: every gap is 1, then 2 ...
  QuantileSummary t;
  t.BuildFromSummaryEntries({{0, 1, 0, 1}, {1, 1, 1, 2}, {2, 1, 2, 3}, {3, 1, 3, 4}, {4, 1, 4, 5}});
  t.Prune(3);
  std::vector<float> values;
  for (const auto& e : t.entries()) values.push_back(e.value);
  // Remove 1 (gap 1, first), then gaps are 2 (for 2), 1 (for 3): remove 3.
  EXPECT_EQ(values, std::vector<float>({0, 2, 4}));
}

TEST(QuantileStream, SmallInputIsExactWithCumulativeRanks) {
  // 6 entries fit one block (eps 0.01): the summary is the sorted, merged input.
  QuantileStream s(0.01, 7);
  for (float v : {3.f, 1.f, 2.f, 3.f, 5.f, 0.f}) s.PushEntry(v, 1);
  s.PushEntry(9, 0);   // ignored: weight 0
  s.PushEntry(9, -1);  // ignored: negative weight
  s.Finalize();
  const auto& e = s.FinalSummary().entries();
  ASSERT_EQ(e.size(), 5u);
  EXPECT_EQ(Row(e[0]), std::vector<float>({0, 1, 0, 1}));
  EXPECT_EQ(Row(e[1]), std::vector<float>({1, 1, 1, 2}));
  EXPECT_EQ(Row(e[2]), std::vector<float>({2, 1, 2, 3}));
  EXPECT_EQ(Row(e[3]), std::vector<float>({3, 2, 3, 5}));
  EXPECT_EQ(Row(e[4]), std::vector<float>({5, 1, 5, 6}));
  // Quartiles of 0 1 2 3 3 5 by rank: min, then the entries whose rank ranges hold 1.5, 3, 4.5.
  EXPECT_EQ(s.GenerateQuantiles(4), std::vector<float>({0, 1, 3, 3, 5}));
  // Few enough entries: every value is a boundary.
  EXPECT_EQ(s.GenerateBoundaries(10), std::vector<float>({0, 1, 2, 3, 5}));
}

TEST(QuantileStream, QuantileSpecsAsTensorFlow) {
  // The smallest level l with 2^l * block >= max_elements, block = ceil(l' / eps) + 1.
  EXPECT_EQ(QuantileStream::QuantileSpecs(0.01, 4), std::make_pair(int64_t{1}, int64_t{2}));
  EXPECT_EQ(QuantileStream::QuantileSpecs(0.01, 1000), std::make_pair(int64_t{3}, int64_t{201}));
  EXPECT_EQ(QuantileStream::QuantileSpecs(0.0, 50), std::make_pair(int64_t{1}, int64_t{50}));
  // No overflow at the int64 limit.
  auto big = QuantileStream::QuantileSpecs(0.5, std::numeric_limits<int64_t>::max());
  EXPECT_GT(big.first, 1);
}

TEST(QuantileStream, NaNsSortLastWithoutBreakingTheSort) {
  QuantileStream s(0.1, 100);
  for (int i = 0; i < 60; ++i) s.PushEntry(i % 3 == 0 ? NAN : static_cast<float>(i), 1);
  s.Finalize();
  const auto& e = s.FinalSummary().entries();
  ASSERT_FALSE(e.empty());
  EXPECT_EQ(e.front().value, 1);
  EXPECT_TRUE(std::isnan(e.back().value));
}

// ---- the kernels' checks ---------------------------------------------------------------------

absl::StatusOr<std::vector<TensorValue>> RunOp(const std::string& op, std::vector<test::AttrArg> a,
                                             std::vector<Tensor> inputs) {
  std::vector<TensorValue> in;
  for (auto& t : inputs) in.push_back(V(t));
  return RunNode(test::NodeDefFor(op, std::move(a), static_cast<int>(inputs.size())), op + "_n",
                 std::move(in));
}

Tensor Handle(const std::string& name) {
  auto out = RunOp("BoostedTreesQuantileStreamResourceHandleOp", {{"shared_name", name}}, {});
  EXPECT_TRUE(out.ok()) << out.status();
  return (*out)[0].value;
}

Tensor Scalar(float v) { return MakeTensor<float>({}, {v}); }
Tensor Int64(int64_t v) { return MakeTensor<int64_t>({}, {v}); }

absl::Status Create(const Tensor& h, float eps, int64_t n, int64_t max_elements = 1 << 20) {
  return RunOp("BoostedTreesCreateQuantileStreamResource", {{"max_elements", max_elements}},
             {h, Scalar(eps), Int64(n)})
      .status();
}

void ExpectInvalid(const absl::Status& s) {
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
}

// The data of TensorFlow's quantile_ops_test (testBasicQuantileBucketsSingleResource). The
// compression keeps 4 entries per feature ([0.3, 0.6, 1.2, 12.1], what that test expects); the
// prune to num_buckets = 3 then drops 0.6 (its removal leaves the smaller rank gap, 2 against 11),
// as TensorFlow 2.8.4 does.
TEST(BoostedTreesQuantileOps, TensorFlowsUnitTestBoundaries) {
  const Tensor h = Handle("tf_unit_test");
  ASSERT_TRUE(Create(h, 0.01f, 2, 1 << 16).ok());
  const Tensor f0 = MakeTensor<float>({6}, {1.2f, 12.1f, 0.3f, 0.5f, 0.6f, 2.2f});
  const Tensor f1 = MakeTensor<float>({6}, {2.3f, 1.2f, 1.1f, 2.6f, 3.2f, 0.8f});
  const Tensor w = MakeTensor<float>({6}, {10, 1, 1, 1, 1, 1});
  auto s = RunOp("BoostedTreesMakeQuantileSummaries", {{"num_features", 2}},
               {f0, f1, w, Scalar(0.01f)});
  ASSERT_TRUE(s.ok()) << s.status();
  ASSERT_TRUE(RunOp("BoostedTreesQuantileStreamResourceAddSummaries", {{"num_features", 2}},
                  {h, (*s)[0].value, (*s)[1].value})
                  .ok());
  ASSERT_TRUE(RunOp("BoostedTreesQuantileStreamResourceFlush", {}, {h, Int64(3)}).ok());
  auto b = RunOp("BoostedTreesQuantileStreamResourceGetBucketBoundaries", {{"num_features", 2}},
               {h});
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(test::Values<float>((*b)[0].value), std::vector<float>({0.3f, 1.2f, 12.1f}));
  EXPECT_EQ(test::Values<float>((*b)[1].value), std::vector<float>({0.8f, 2.3f, 3.2f}));
  auto buckets = RunOp("BoostedTreesBucketize", {{"num_features", 2}},
                     {f0, f1, (*b)[0].value, (*b)[1].value});
  ASSERT_TRUE(buckets.ok()) << buckets.status();
  // The first boundary >= each value.
  EXPECT_EQ(test::Values<int32_t>((*buckets)[0].value), std::vector<int32_t>({1, 2, 0, 1, 1, 2}));
  EXPECT_EQ(test::Values<int32_t>((*buckets)[1].value), std::vector<int32_t>({1, 1, 1, 2, 2, 0}));
}

// num_buckets 0 and 1 crash TensorFlow 2.8.4 (its prune runs out of interior entries); sg
// compresses and prunes to 2 entries: the minimum and the maximum.
TEST(BoostedTreesQuantileOps, FewBucketsGiveTheExtremes) {
  for (int64_t nb : {0, 1}) {
    const Tensor h = Handle("few_buckets" + std::to_string(nb));
    ASSERT_TRUE(Create(h, 0.1f, 1).ok());
    ASSERT_TRUE(RunOp("BoostedTreesQuantileStreamResourceAddSummaries", {{"num_features", 1}},
                    {h, MakeTensor<float>({3, 4}, {1, 1, 0, 1, 2, 1, 1, 2, 5, 1, 2, 3})})
                    .ok());
    ASSERT_TRUE(RunOp("BoostedTreesQuantileStreamResourceFlush", {}, {h, Int64(nb)}).ok());
    auto b = RunOp("BoostedTreesQuantileStreamResourceGetBucketBoundaries", {{"num_features", 1}},
                 {h});
    ASSERT_TRUE(b.ok()) << b.status();
    EXPECT_EQ(test::Values<float>((*b)[0].value), std::vector<float>({1, 5})) << nb;
  }
}

TEST(BoostedTreesQuantileOps, CreateRejectsWhatTensorFlowsStreamsQCheck) {
  ExpectInvalid(Create(Handle("create_bad"), 1.0f, 2));
  ExpectInvalid(Create(Handle("create_bad"), 2.0f, 1));
  ExpectInvalid(Create(Handle("create_bad"), 0.1f, 1, /*max_elements=*/0));
  ExpectInvalid(Create(Handle("create_bad"), 0.1f, (int64_t{1} << 20) + 1));
  // No streams: nothing to check, as in TensorFlow.
  EXPECT_TRUE(Create(Handle("create_none"), 1.0f, 0).ok());
}

TEST(BoostedTreesQuantileOps, MakeSummariesRejectsBadEpsilonAndSizes) {
  auto make = [](std::vector<Tensor> in) {
    const int n = static_cast<int>(in.size()) - 2;
    return RunOp("BoostedTreesMakeQuantileSummaries", {{"num_features", n}}, std::move(in))
        .status();
  };
  const Tensor f = MakeTensor<float>({3}, {1, 2, 3});
  const Tensor w = MakeTensor<float>({1}, {1});
  ExpectInvalid(make({f, w, Scalar(0)}));
  ExpectInvalid(make({f, w, Scalar(1)}));
  ExpectInvalid(make({f, w, Scalar(NAN)}));
  ExpectInvalid(make({f, w, MakeTensor<float>({1}, {0.1f})}));
  ExpectInvalid(make({f, MakeTensor<float>({2}, {1, 1}), Scalar(0.1f)}));
  ExpectInvalid(make({f, MakeTensor<float>({2}, {1, 2}), w, Scalar(0.1f)}));
  EXPECT_TRUE(make({f, MakeTensor<float>({3}, {1, 2, 3}), w, Scalar(0.1f)}).ok());
}

TEST(BoostedTreesQuantileOps, AddSummariesChecksShapesAndCountBeforeChangingAnything) {
  const Tensor h = Handle("add_bad");
  ASSERT_TRUE(Create(h, 0.1f, 2).ok());
  auto add = [&](std::vector<Tensor> s) {
    const int64_t n = static_cast<int64_t>(s.size());
    s.insert(s.begin(), h);
    return RunOp("BoostedTreesQuantileStreamResourceAddSummaries", {{"num_features", n}},
               std::move(s))
        .status();
  };
  const Tensor good = MakeTensor<float>({1, 4}, {1, 1, 0, 1});
  ExpectInvalid(add({good}));                                           // 1 summary, 2 streams
  ExpectInvalid(add({good, good, good}));                               // 3 summaries
  ExpectInvalid(add({good, MakeTensor<float>({1, 3}, {1, 1, 0})}));     // not [n, 4]
  ExpectInvalid(add({good, MakeTensor<float>({4}, {1, 1, 0, 1})}));     // not rank 2
  ASSERT_TRUE(add({good, good}).ok());
  auto flushed = RunOp("BoostedTreesFlushQuantileSummaries", {{"num_features", 2}}, {h});
  ASSERT_TRUE(flushed.ok()) << flushed.status();
  // One summary each: the rejected calls added nothing.
  EXPECT_EQ((*flushed)[0].value.dim_size(0), 1);
  EXPECT_EQ((*flushed)[1].value.dim_size(0), 1);
  ExpectInvalid(RunOp("BoostedTreesFlushQuantileSummaries", {{"num_features", 3}}, {h}).status());
}

TEST(BoostedTreesQuantileOps, FlushChecksNumBucketsAndQuantileCount) {
  const Tensor h = Handle("flush_bad");
  ASSERT_TRUE(Create(h, 0.1f, 1).ok());
  auto flush = [&](const Tensor& nb, bool quantiles) {
    return RunOp("BoostedTreesQuantileStreamResourceFlush", {{"generate_quantiles", quantiles}},
               {h, nb})
        .status();
  };
  ExpectInvalid(flush(MakeTensor<int64_t>({1}, {4}), false));
  ExpectInvalid(flush(Int64(4), true));  // an empty stream has no quantiles
  ExpectInvalid(flush(Int64(int64_t{1} << 40), true));
  ExpectInvalid(flush(Int64(std::numeric_limits<int64_t>::min()), true));
  auto add = [&]() {
    return RunOp("BoostedTreesQuantileStreamResourceAddSummaries", {{"num_features", 1}},
               {h, MakeTensor<float>({2, 4}, {1, 1, 0, 1, 2, 1, 1, 2})})
        .status();
  };
  ASSERT_TRUE(add().ok());
  ExpectInvalid(flush(Int64(2), true));  // 2 buckets would be 3 quantiles
  ASSERT_TRUE(add().ok());
  ASSERT_TRUE(flush(Int64(3), true).ok());
  auto b = RunOp("BoostedTreesQuantileStreamResourceGetBucketBoundaries", {{"num_features", 1}},
               {h});
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(test::Values<float>((*b)[0].value), std::vector<float>({1, 2, 2}));
  ExpectInvalid(RunOp("BoostedTreesQuantileStreamResourceGetBucketBoundaries",
                    {{"num_features", 2}}, {h})
                    .status());
}

TEST(BoostedTreesQuantileOps, DeserializeChecksCountAndRank) {
  const Tensor h = Handle("deserialize_bad");
  ASSERT_TRUE(Create(h, 0.1f, 1).ok());
  auto des = [&](std::vector<Tensor> b) {
    const int64_t n = static_cast<int64_t>(b.size());
    b.insert(b.begin(), h);
    return RunOp("BoostedTreesQuantileStreamResourceDeserialize", {{"num_streams", n}},
               std::move(b))
        .status();
  };
  const Tensor v = MakeTensor<float>({2}, {1, 2});
  ExpectInvalid(des({v, v}));
  ExpectInvalid(des({Scalar(1)}));
  ExpectInvalid(des({MakeTensor<float>({1, 2}, {1, 2})}));
  EXPECT_TRUE(des({v}).ok());
}

TEST(BoostedTreesQuantileOps, BucketizeRejectsValuesWithoutARow) {
  auto bucketize = [](const Tensor& values) {
    return RunOp("BoostedTreesBucketize", {{"num_features", 1}},
               {values, MakeTensor<float>({2}, {1, 2})})
        .status();
  };
  ExpectInvalid(bucketize(Scalar(1)));
  ExpectInvalid(bucketize(Tensor(DT_FLOAT, TensorShape({2, 0}))));
  EXPECT_TRUE(bucketize(MakeTensor<float>({3}, {0, 1, 5})).ok());
}

}  // namespace
}  // namespace sg
