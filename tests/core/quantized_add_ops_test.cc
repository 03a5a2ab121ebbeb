// QuantizedAdd, QuantizedBiasAdd and QuantizeDownAndShrinkRange against plain float sums: each
// output level, read back as a float in the output range, is within an input level of the sum
// of the inputs' float values (the conformance cases check every bit against TensorFlow; these
// check the meaning, and the broadcasts TensorFlow's kernel leaves undefined).
#include <cmath>
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "tests/core/ops_testutil.h"

namespace sg {
namespace {

using test::NodeDefFor;
using test::RunKernel;

Tensor Quint8(std::vector<int64_t> shape, const std::vector<uint8_t>& v) {
  Tensor t(DT_QUINT8, TensorShape(shape));
  for (int64_t i = 0; i < t.NumElements(); ++i) t.data<uint8_t>()[i] = v[i % v.size()];
  return t;
}

Tensor Scalar(float v) {
  Tensor t(DT_FLOAT, TensorShape());
  t.data<float>()[0] = v;
  return t;
}

double Quint8Value(uint8_t q, float min, float max) { return min + q * (max - min) / 255.0; }
double Qint32Value(int32_t q, float min, float max) {
  return min + (static_cast<double>(q) + 2147483648.0) * (max - min) / 4294967295.0;
}

absl::StatusOr<std::vector<Tensor>> Add(const Tensor& x, const Tensor& y, float min_x,
                                        float max_x, float min_y, float max_y) {
  return RunKernel(NodeDefFor("QuantizedAdd", {{"T1", DT_QUINT8}, {"T2", DT_QUINT8}}),
                   {x, y, Scalar(min_x), Scalar(max_x), Scalar(min_y), Scalar(max_y)});
}

TEST(QuantizedAdd, MatchesFloatSumsOverBroadcasts) {
  const float min_x = -1.5f, max_x = 2.0f, min_y = -4.0f, max_y = -0.5f;
  const double tol = (max_x - min_x) / 255.0 + (max_y - min_y) / 255.0;
  struct Shapes {
    std::vector<int64_t> x, y, z;
  };
  for (const Shapes& s : std::vector<Shapes>{{{2, 3}, {2, 3}, {2, 3}},
                                             {{}, {2, 3}, {2, 3}},
                                             {{2, 3}, {1}, {2, 3}},
                                             {{4, 3}, {3}, {4, 3}},
                                             {{3}, {2, 2, 3}, {2, 2, 3}}}) {
    const Tensor x = Quint8(s.x, {0, 17, 255, 128, 3, 200, 99});
    const Tensor y = Quint8(s.y, {255, 0, 64, 1, 190});
    auto out = Add(x, y, min_x, max_x, min_y, max_y);
    ASSERT_TRUE(out.ok()) << out.status();
    const Tensor& z = (*out)[0];
    ASSERT_EQ(z.shape(), TensorShape(s.z));
    const float min_z = (*out)[1].data<float>()[0], max_z = (*out)[2].data<float>()[0];
    EXPECT_EQ(max_z, 4.0f * 16384.0f);
    EXPECT_EQ(min_z, -max_z);
    const int64_t nx = x.NumElements(), ny = y.NumElements();
    for (int64_t i = 0; i < z.NumElements(); ++i) {
      // The larger operand has the output's shape; the smaller one is a suffix of it.
      const double want = Quint8Value(x.data<uint8_t>()[i % nx], min_x, max_x) +
                          Quint8Value(y.data<uint8_t>()[i % ny], min_y, max_y);
      EXPECT_NEAR(Qint32Value(z.data<int32_t>()[i], min_z, max_z), want, tol) << i;
    }
  }
}

TEST(QuantizedAdd, BroadcastsTensorFlowLeavesUndefinedFail) {
  // Neither operand has the output's size: TensorFlow writes only part of its output.
  auto out = Add(Quint8({2, 1}, {1}), Quint8({1, 3}, {2}), -1, 1, -1, 1);
  EXPECT_EQ(out.status().code(), absl::StatusCode::kUnimplemented) << out.status();
  // Three folded dimensions: TensorFlow's UNIMPLEMENTED.
  out = Add(Quint8({2, 1, 3}, {1}), Quint8({2, 4, 3}, {2}), -1, 1, -1, 1);
  EXPECT_EQ(out.status().code(), absl::StatusCode::kUnimplemented) << out.status();
  // An empty operand against a vector.
  out = Add(Quint8({0, 3}, {1}), Quint8({3}, {2}), -1, 1, -1, 1);
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument) << out.status();
  // An empty range.
  out = Add(Quint8({3}, {1}), Quint8({3}, {2}), 1, 1, -1, 1);
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument) << out.status();
}

TEST(QuantizedBiasAdd, MatchesFloatSums) {
  const float min_in = -3.0f, max_in = 5.0f, min_b = -0.25f, max_b = 0.75f;
  const Tensor in = Quint8({3, 2, 4}, {0, 255, 31, 7, 128, 64, 250, 2, 90});
  const Tensor bias = Quint8({4}, {255, 0, 100, 200});
  auto out = RunKernel(NodeDefFor("QuantizedBiasAdd", {{"T1", DT_QUINT8},
                                                       {"T2", DT_QUINT8},
                                                       {"out_type", DT_QINT32}}),
                       {in, bias, Scalar(min_in), Scalar(max_in), Scalar(min_b), Scalar(max_b)});
  ASSERT_TRUE(out.ok()) << out.status();
  const float min_z = (*out)[1].data<float>()[0], max_z = (*out)[2].data<float>()[0];
  EXPECT_EQ(max_z, 5.0f * 131072.0f);
  EXPECT_EQ(min_z, -max_z);
  const double tol = (max_in - min_in) / 255.0 + (max_b - min_b) / 255.0;
  const Tensor& z = (*out)[0];
  for (int64_t i = 0; i < z.NumElements(); ++i) {
    const double want = Quint8Value(in.data<uint8_t>()[i], min_in, max_in) +
                        Quint8Value(bias.data<uint8_t>()[i % 4], min_b, max_b);
    EXPECT_NEAR(Qint32Value(z.data<int32_t>()[i], min_z, max_z), want, tol) << i;
  }
}

TEST(QuantizeDownAndShrinkRange, KeepsValuesInTheUsedRange) {
  const float min = -100.0f, max = 100.0f;
  Tensor in(DT_QINT32, TensorShape({5}));
  const std::vector<int32_t> levels = {-2000000000, -1000, 0, 5000000, 300000000};
  for (int i = 0; i < 5; ++i) in.data<int32_t>()[i] = levels[i];
  auto out = RunKernel(NodeDefFor("QuantizeDownAndShrinkRange", {{"Tinput", DT_QINT32},
                                                                 {"out_type", DT_QUINT8}}),
                       {in, Scalar(min), Scalar(max)});
  ASSERT_TRUE(out.ok()) << out.status();
  const float used_min = (*out)[1].data<float>()[0], used_max = (*out)[2].data<float>()[0];
  EXPECT_NEAR(used_min, Qint32Value(levels.front(), min, max), 1e-4);
  EXPECT_NEAR(used_max, Qint32Value(levels.back(), min, max), 1e-4);
  const Tensor& z = (*out)[0];
  for (int i = 0; i < 5; ++i) {
    EXPECT_NEAR(Quint8Value(z.data<uint8_t>()[i], used_min, used_max),
                Qint32Value(levels[i], min, max), (used_max - used_min) / 255.0)
        << i;
  }
}

}  // namespace
}  // namespace sg
