// TensorArray V3 ops, run kernel by kernel against one step's ResourceMgr.
#include <thread>

#include <gtest/gtest.h>

#include "tests/core/kernel_runner.h"
#include "tests/core/ops_testutil.h"

namespace sg {
namespace {

using test::MakeTensor;
using test::RunNode;
using test::V;
using test::Values;

const Tensor kFlow = Tensor::Scalar<float>(0.0f);

class TensorArrayTest : public ::testing::Test {
 protected:
  Tensor Create(int32_t size, std::vector<test::AttrArg> attrs = {}, DataType dtype = DT_FLOAT) {
    attrs.push_back({"dtype", dtype});
    auto out = RunNode(test::NodeDefFor("TensorArrayV3", attrs), "ta", {V(Tensor::Scalar(size))},
                       &step_);
    EXPECT_TRUE(out.ok()) << out.status();
    EXPECT_EQ((*out)[1].value.scalar<float>()(), 0.0f);
    return (*out)[0].value;
  }
  absl::Status Write(const Tensor& h, int32_t index, const Tensor& value) {
    auto out = RunNode(test::NodeDefFor("TensorArrayWriteV3", {{"T", value.dtype()}}), "write",
                       {V(h), V(Tensor::Scalar(index)), V(value), V(kFlow)}, &step_);
    if (out.ok()) EXPECT_EQ((*out)[0].value.dims(), 0);
    return out.status();
  }
  absl::StatusOr<Tensor> Read(const Tensor& h, int32_t index, DataType dtype = DT_FLOAT) {
    SG_ASSIGN_OR_RETURN(auto out,
                        RunNode(test::NodeDefFor("TensorArrayReadV3", {{"dtype", dtype}}), "read",
                                {V(h), V(Tensor::Scalar(index)), V(kFlow)}, &step_));
    return out[0].value;
  }
  absl::Status Scatter(const Tensor& h, const Tensor& indices, const Tensor& value) {
    return RunNode(test::NodeDefFor("TensorArrayScatterV3", {{"T", value.dtype()}}), "scatter",
                   {V(h), V(indices), V(value), V(kFlow)}, &step_)
        .status();
  }
  absl::StatusOr<Tensor> Gather(const Tensor& h, const Tensor& indices,
                                std::vector<test::AttrArg> attrs = {},
                                DataType dtype = DT_FLOAT) {
    attrs.push_back({"dtype", dtype});
    SG_ASSIGN_OR_RETURN(auto out, RunNode(test::NodeDefFor("TensorArrayGatherV3", attrs),
                                          "gather", {V(h), V(indices), V(kFlow)}, &step_));
    return out[0].value;
  }
  absl::StatusOr<int32_t> Size(const Tensor& h) {
    SG_ASSIGN_OR_RETURN(auto out, RunNode(test::NodeDefFor("TensorArraySizeV3", {}), "size",
                                          {V(h), V(kFlow)}, &step_));
    return out[0].value.scalar<int32_t>()();
  }

  ResourceMgr step_;
};

TEST_F(TensorArrayTest, WritesReadsAndReportsItsSize) {
  Tensor h = Create(3, {{"clear_after_read", false}});
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(Write(h, i, MakeTensor<float>({2}, {float(i), float(10 * i)})).ok());
  }
  EXPECT_EQ(*Size(h), 3);
  auto r = Read(h, 2);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Values<float>(*r), std::vector<float>({2, 20}));
  // clear_after_read=false: read again.
  EXPECT_EQ(Values<float>(*Read(h, 2)), std::vector<float>({2, 20}));
}

TEST_F(TensorArrayTest, ClearAfterReadAllowsOneReadPerIndex) {
  Tensor h = Create(2);
  ASSERT_TRUE(Write(h, 0, Tensor::Scalar<float>(1.5f)).ok());
  EXPECT_EQ(Read(h, 0)->scalar<float>()(), 1.5f);
  auto again = Read(h, 0);
  EXPECT_EQ(again.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(again.status().message().find("cleared"), std::string::npos);
  // A read index cannot be written again either.
  EXPECT_EQ(Write(h, 0, Tensor::Scalar<float>(2.f)).code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(TensorArrayTest, RejectsBadIndicesAndDoubleWrites) {
  Tensor h = Create(2);
  EXPECT_EQ(Write(h, 2, Tensor::Scalar<float>(1)).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Write(h, -1, Tensor::Scalar<float>(1)).code(), absl::StatusCode::kInvalidArgument);
  ASSERT_TRUE(Write(h, 1, Tensor::Scalar<float>(1)).ok());
  auto twice = Write(h, 1, Tensor::Scalar<float>(2));
  EXPECT_EQ(twice.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(twice.message().find("already been written"), std::string::npos) << twice;
  EXPECT_EQ(Read(h, 2).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Read(h, -1).status().code(), absl::StatusCode::kInvalidArgument);
  // Wrong dtypes.
  EXPECT_EQ(Write(h, 0, Tensor::Scalar<int32_t>(1)).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Read(h, 1, DT_INT32).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(TensorArrayTest, ReadOfAnUnwrittenIndexNeedsAKnownElementShape) {
  Tensor unknown = Create(2);
  EXPECT_EQ(Read(unknown, 0).status().code(), absl::StatusCode::kInvalidArgument);
  Tensor known = Create(2, {{"element_shape", PartialTensorShape({2, 1})}});
  auto zeros = Read(known, 1);
  ASSERT_TRUE(zeros.ok()) << zeros.status();
  EXPECT_EQ(zeros->shape(), TensorShape({2, 1}));
  EXPECT_EQ(Values<float>(*zeros), std::vector<float>({0, 0}));
}

TEST_F(TensorArrayTest, ChecksValuesAgainstTheElementShape) {
  Tensor h = Create(3, {{"element_shape", PartialTensorShape({-1, 2})}});
  EXPECT_EQ(Write(h, 0, MakeTensor<float>({3}, {1, 2, 3})).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(Write(h, 0, MakeTensor<float>({1, 2}, {1, 2})).ok());
  // identical_element_shapes pins the shape at the first write.
  Tensor same = Create(3, {{"identical_element_shapes", true}});
  ASSERT_TRUE(Write(same, 0, MakeTensor<float>({2}, {1, 2})).ok());
  EXPECT_EQ(Write(same, 1, MakeTensor<float>({3}, {1, 2, 3})).code(),
            absl::StatusCode::kInvalidArgument);
}

TEST_F(TensorArrayTest, DynamicSizeGrowsOnWrite) {
  Tensor h = Create(0, {{"dynamic_size", true}});
  EXPECT_EQ(*Size(h), 0);
  ASSERT_TRUE(Write(h, 4, Tensor::Scalar<float>(4)).ok());
  EXPECT_EQ(*Size(h), 5);
  EXPECT_EQ(Read(h, 4)->scalar<float>()(), 4.f);
  EXPECT_EQ(Read(h, 5).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(TensorArrayTest, ScatterThenGatherPermutesRows) {
  Tensor h = Create(4);
  Tensor value = MakeTensor<float>({4, 2}, {0, 1, 10, 11, 20, 21, 30, 31});
  Tensor scatter_idx = MakeTensor<int32_t>({4}, {3, 0, 2, 1});
  ASSERT_TRUE(Scatter(h, scatter_idx, value).ok());
  Tensor gather_idx = MakeTensor<int32_t>({3}, {0, 3, 1});
  auto g = Gather(h, gather_idx);
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ(g->shape(), TensorShape({3, 2}));
  // Reference: element k holds value row r where scatter_idx[r] == k.
  std::vector<float> expected;
  for (int32_t k : Values<int32_t>(gather_idx)) {
    for (int r = 0; r < 4; ++r) {
      if (scatter_idx.data<int32_t>()[r] == k) {
        expected.push_back(value.data<float>()[r * 2]);
        expected.push_back(value.data<float>()[r * 2 + 1]);
      }
    }
  }
  EXPECT_EQ(Values<float>(*g), expected);
}

TEST_F(TensorArrayTest, ScatterAndGatherReportErrors) {
  Tensor h = Create(2);
  EXPECT_EQ(Scatter(h, MakeTensor<int32_t>({2}, {0, 1}), MakeTensor<float>({3}, {1, 2, 3})).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Scatter(h, MakeTensor<int32_t>({1}, {2}), MakeTensor<float>({1}, {1})).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Scatter(h, MakeTensor<int32_t>({1}, {0}), Tensor::Scalar<float>(1)).code(),
            absl::StatusCode::kInvalidArgument);
  // Elements of different shapes cannot be stacked.
  Tensor mixed = Create(2, {{"clear_after_read", false}});
  ASSERT_TRUE(Write(mixed, 0, MakeTensor<float>({1}, {1})).ok());
  ASSERT_TRUE(Write(mixed, 1, MakeTensor<float>({2}, {1, 2})).ok());
  EXPECT_EQ(Gather(mixed, MakeTensor<int32_t>({2}, {0, 1})).status().code(),
            absl::StatusCode::kInvalidArgument);
  // An empty gather needs a fully defined element shape.
  Tensor none(DT_INT32, TensorShape({0}));
  EXPECT_EQ(Gather(mixed, none).status().code(), absl::StatusCode::kInvalidArgument);
  auto empty = Gather(mixed, none, {{"element_shape", PartialTensorShape({3})}});
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_EQ(empty->shape(), TensorShape({0, 3}));
  // A non-vector index list.
  EXPECT_EQ(Gather(mixed, Tensor::Scalar<int32_t>(0)).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST_F(TensorArrayTest, SplitThenConcatRoundTrips) {
  Tensor h = Create(3, {}, DT_INT32);
  Tensor value = MakeTensor<int32_t>({5, 2}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  Tensor lengths = MakeTensor<int64_t>({3}, {2, 0, 3});
  auto split = RunNode(test::NodeDefFor("TensorArraySplitV3", {{"T", DT_INT32}}), "split",
                       {V(h), V(value), V(lengths), V(kFlow)}, &step_);
  ASSERT_TRUE(split.ok()) << split.status();
  auto r = Read(h, 2, DT_INT32);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Values<int32_t>(*r), std::vector<int32_t>({4, 5, 6, 7, 8, 9}));

  Tensor h2 = Create(3, {}, DT_INT32);
  ASSERT_TRUE(RunNode(test::NodeDefFor("TensorArraySplitV3", {{"T", DT_INT32}}), "split",
                      {V(h2), V(value), V(lengths), V(kFlow)}, &step_)
                  .ok());
  auto concat = RunNode(test::NodeDefFor("TensorArrayConcatV3", {{"dtype", DT_INT32}}), "concat",
                        {V(h2), V(kFlow)}, &step_);
  ASSERT_TRUE(concat.ok()) << concat.status();
  EXPECT_EQ((*concat)[0].value.shape(), TensorShape({5, 2}));
  EXPECT_EQ(Values<int32_t>((*concat)[0].value), Values<int32_t>(value));
  EXPECT_EQ(Values<int64_t>((*concat)[1].value), std::vector<int64_t>({2, 0, 3}));

  Tensor bad = Create(3, {}, DT_INT32);
  EXPECT_EQ(RunNode(test::NodeDefFor("TensorArraySplitV3", {{"T", DT_INT32}}), "split",
                    {V(bad), V(value), V(MakeTensor<int64_t>({2}, {1, 1})), V(kFlow)}, &step_)
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
}

TEST_F(TensorArrayTest, ClosedArraysRejectEveryOperation) {
  Tensor h = Create(1);
  ASSERT_TRUE(Write(h, 0, Tensor::Scalar<float>(1)).ok());
  ASSERT_TRUE(RunNode(test::NodeDefFor("TensorArrayCloseV3", {}), "close", {V(h)}, &step_).ok());
  EXPECT_EQ(Read(h, 0).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Size(h).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(RunNode(test::NodeDefFor("TensorArrayCloseV3", {}), "close", {V(h)}, &step_).ok());
}

TEST_F(TensorArrayTest, EachRunOfTheNodeMakesANewArray) {
  Tensor a = Create(1);
  Tensor b = Create(1);
  EXPECT_NE(a.data<ResourceHandle>()->name, b.data<ResourceHandle>()->name);
  ASSERT_TRUE(Write(a, 0, Tensor::Scalar<float>(1)).ok());
  EXPECT_TRUE(Write(b, 0, Tensor::Scalar<float>(2)).ok());
  // A handle from another step is not found.
  ResourceMgr other_step;
  auto out = RunNode(test::NodeDefFor("TensorArraySizeV3", {}), "size", {V(a), V(kFlow)},
                     &other_step);
  EXPECT_EQ(out.status().code(), absl::StatusCode::kNotFound);
}

TEST_F(TensorArrayTest, HoldsStrings) {
  Tensor h = Create(2, {}, DT_STRING);
  Tensor v(DT_STRING, TensorShape({2}));
  v.data<tstring>()[0] = "x";
  v.data<tstring>()[1] = "yz";
  ASSERT_TRUE(Scatter(h, MakeTensor<int32_t>({2}, {1, 0}), v).ok());
  auto g = Gather(h, MakeTensor<int32_t>({2}, {0, 1}), {}, DT_STRING);
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ(g->data<tstring>()[0], "yz");
  EXPECT_EQ(g->data<tstring>()[1], "x");
}

TEST_F(TensorArrayTest, ParallelWritesAllLand) {
  const int n = 64;
  Tensor h = Create(n);
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = t; i < n; i += 4) {
        if (!Write(h, i, MakeTensor<float>({1}, {float(i)})).ok()) ++failures;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  std::vector<int32_t> all(n);
  std::vector<float> expected(n);
  for (int i = 0; i < n; ++i) all[i] = i, expected[i] = float(i);
  auto g = Gather(h, MakeTensor<int32_t>({n}, all));
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ(Values<float>(*g), expected);
}

TEST(TensorArrayV3, ShapeFunctionAgreesWithTheKernel) {
  auto out = test::RunKernel(test::NodeDefFor("TensorArrayV3", {{"dtype", DT_FLOAT}}),
                             {Tensor::Scalar<int32_t>(3)});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->at(0).dtype(), DT_RESOURCE);
  EXPECT_EQ(out->at(0).dims(), 0);
  auto bad = test::RunKernel(test::NodeDefFor("TensorArrayV3", {{"dtype", DT_FLOAT}}),
                             {Tensor::Scalar<int32_t>(-1)});
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace sg
