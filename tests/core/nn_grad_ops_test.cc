// NN gradient kernels on inputs the TensorFlow conformance cases cannot hold: where TensorFlow's
// kernel aborts the process or leaves its output uninitialized, sg returns an error or zeros.
#include <gtest/gtest.h>

#include "tests/core/ops_testutil.h"

namespace sg {
namespace {

using test::MakeTensor;
using test::NodeDefFor;
using test::RunKernel;
using test::Values;

absl::StatusOr<std::vector<Tensor>> GradWithArgmax(std::vector<int64_t> argmax,
                                                   bool include_batch) {
  Tensor input = MakeTensor<float>({2, 2, 2, 1}, {1, 2, 3, 4, 5, 6, 7, 8});
  Tensor grad = MakeTensor<float>({2, 1, 1, 1}, {10, 20});
  Tensor arg = MakeTensor<int64_t>({2, 1, 1, 1}, argmax);
  return RunKernel(NodeDefFor("MaxPoolGradWithArgmax", {{"T", DT_FLOAT},
                                                        {"Targmax", DT_INT64},
                                                        {"ksize", {1, 2, 2, 1}},
                                                        {"strides", {1, 2, 2, 1}},
                                                        {"padding", "VALID"},
                                                        {"include_batch_in_index", include_batch}}),
                   {input, grad, arg});
}

TEST(MaxPoolGradWithArgmax, ScattersWithinEachImage) {
  auto out = GradWithArgmax({3, 1}, false);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<float>((*out)[0]), (std::vector<float>{0, 0, 0, 10, 0, 20, 0, 0}));
  out = GradWithArgmax({3, 5}, true);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<float>((*out)[0]), (std::vector<float>{0, 0, 0, 10, 0, 20, 0, 0}));
}

// TensorFlow's kernel CHECK-fails (aborts) on these.
TEST(MaxPoolGradWithArgmax, RejectsAnArgmaxOutsideTheInput) {
  for (auto [argmax, include_batch] :
       std::vector<std::pair<std::vector<int64_t>, bool>>{
           {{0, 4}, false}, {{-1, 0}, false}, {{0, 8}, true}, {{-1, 0}, true}}) {
    auto out = GradWithArgmax(argmax, include_batch);
    ASSERT_FALSE(out.ok()) << argmax[0] << " " << argmax[1];
    EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument) << out.status();
  }
}

// TensorFlow returns uninitialized memory for an empty batch.
TEST(DepthwiseConv2dNativeBackpropFilter, EmptyBatchGivesZeros) {
  Tensor input(DT_FLOAT, TensorShape({0, 3, 3, 2}));
  Tensor dy(DT_FLOAT, TensorShape({0, 3, 3, 2}));
  auto out = RunKernel(NodeDefFor("DepthwiseConv2dNativeBackpropFilter",
                                  {{"T", DT_FLOAT},
                                   {"strides", {1, 1, 1, 1}},
                                   {"padding", "SAME"}}),
                       {input, MakeTensor<int32_t>({4}, {2, 2, 2, 1}), dy});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<float>((*out)[0]), std::vector<float>(8, 0.0f));
}

// TensorFlow indexes the input with the grad's depth; sg requires them equal.
TEST(AvgPoolGrad, RejectsAGradOfAnotherDepth) {
  Tensor grad(DT_FLOAT, TensorShape({1, 2, 2, 3}));
  auto out = RunKernel(NodeDefFor("AvgPoolGrad", {{"T", DT_FLOAT},
                                                  {"ksize", {1, 2, 2, 1}},
                                                  {"strides", {1, 2, 2, 1}},
                                                  {"padding", "VALID"}}),
                       {MakeTensor<int32_t>({4}, {1, 4, 4, 1}), grad});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument) << out.status();
}

}  // namespace
}  // namespace sg
