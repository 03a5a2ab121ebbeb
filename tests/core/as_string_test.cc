// AsString against TensorFlow 2.21's tf.strings.as_string on the same values (outputs written
// down from TensorFlow), and its attr errors.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/core/ops_testutil.h"

namespace sg {
namespace {

using test::AttrArg;

absl::StatusOr<std::vector<std::string>> AsString(const Tensor& in, std::vector<AttrArg> attrs) {
  attrs.push_back(AttrArg("T", in.dtype()));
  auto out = test::RunKernel(test::NodeDefFor("AsString", attrs, 1), {in});
  if (!out.ok()) return out.status();
  std::vector<std::string> s;
  for (int64_t i = 0; i < (*out)[0].NumElements(); ++i) s.push_back((*out)[0].data<tstring>()[i]);
  return s;
}

using Strings = std::vector<std::string>;

TEST(AsString, FloatsAsTensorFlowFormatsThem) {
  const Tensor f = test::MakeTensor<float>({4}, {1.5f, -2.25f, 1e10f, 3.0f});
  EXPECT_EQ(*AsString(f, {}), (Strings{"1.500000", "-2.250000", "10000000000.000000", "3.000000"}));
  const Tensor two = test::MakeTensor<float>({2}, {1.5f, -2.25f});
  EXPECT_EQ(*AsString(two, {{"precision", int64_t{2}}, {"width", int64_t{8}}, {"fill", std::string("0")}}),
            (Strings{"00001.50", "-0002.25"}));
  const Tensor small = test::MakeTensor<float>({2}, {1.5f, -2.25e-5f});
  EXPECT_EQ(*AsString(small, {{"scientific", true}}), (Strings{"1.500000e+00", "-2.250000e-05"}));
  EXPECT_EQ(*AsString(small, {{"shortest", true}}), (Strings{"1.5", "-2.25e-05"}));
  const Tensor one = test::MakeTensor<float>({2}, {1.5f, -1.0f});
  EXPECT_EQ(*AsString(one, {{"fill", std::string("+")}, {"width", int64_t{10}}}),
            (Strings{" +1.500000", " -1.000000"}));
  EXPECT_EQ(*AsString(one, {{"fill", std::string("-")}, {"width", int64_t{10}}}),
            (Strings{"1.500000  ", "-1.000000 "}));
  EXPECT_EQ(*AsString(one, {{"fill", std::string("0")}, {"width", int64_t{10}}}),
            (Strings{"001.500000", "-01.000000"}));
  const Tensor big = test::MakeTensor<float>({1}, {1234567.0f});
  EXPECT_EQ(*AsString(big, {{"precision", int64_t{3}}, {"shortest", true}}), (Strings{"1.23e+06"}));
  const Tensor nan = test::MakeTensor<float>({2}, {NAN, INFINITY});
  EXPECT_EQ(*AsString(nan, {}), (Strings{"nan", "inf"}));
  const Tensor rounded = test::MakeTensor<float>({2}, {1.5f, 2.0f});
  EXPECT_EQ(*AsString(rounded, {{"precision", int64_t{0}}}), (Strings{"2", "2"}));
}

TEST(AsString, IntegersBoolsComplexAndStrings) {
  EXPECT_EQ(*AsString(test::MakeTensor<int32_t>({3}, {1, -20, 300}), {}),
            (Strings{"1", "-20", "300"}));
  EXPECT_EQ(*AsString(test::MakeTensor<int32_t>({2}, {7, -3}), {{"width", int64_t{5}}}),
            (Strings{"    7", "   -3"}));
  EXPECT_EQ(*AsString(test::MakeTensor<int32_t>({2}, {7, -3}),
                      {{"width", int64_t{5}}, {"fill", std::string("0")}}),
            (Strings{"00007", "-0003"}));
  EXPECT_EQ(*AsString(test::MakeTensor<uint8_t>({1}, {200}), {}), (Strings{"200"}));
  EXPECT_EQ(*AsString(test::MakeTensor<int8_t>({1}, {-5}), {}), (Strings{"-5"}));
  EXPECT_EQ(*AsString(test::MakeTensor<int64_t>({1}, {INT64_MAX}), {}),
            (Strings{"9223372036854775807"}));
  EXPECT_EQ(*AsString(test::MakeTensor<uint64_t>({1}, {UINT64_MAX}), {}),
            (Strings{"18446744073709551615"}));
  EXPECT_EQ(*AsString(test::MakeTensor<bool>({2}, {true, false}), {}), (Strings{"true", "false"}));
  EXPECT_EQ(*AsString(test::MakeTensor<bool>({1}, {true}), {{"width", int64_t{6}}}),
            (Strings{"true"}));
  EXPECT_EQ(*AsString(test::MakeTensor<complex64>({1}, {complex64(1, 2)}), {}),
            (Strings{"(1.000000,2.000000)"}));
  EXPECT_EQ(*AsString(test::MakeTensor<complex64>({1}, {complex64(1, 2)}),
                      {{"precision", int64_t{1}}, {"width", int64_t{5}}}),
            (Strings{"(  1.0,  2.0)"}));
  Tensor s(DT_STRING, TensorShape({2}));
  s.data<tstring>()[0] = "ab";
  s.data<tstring>()[1] = "abcdef";
  EXPECT_EQ(*AsString(s, {{"width", int64_t{4}}}), (Strings{"  ab", "abcdef"}));
  EXPECT_EQ(*AsString(s, {{"width", int64_t{4}}, {"fill", std::string("-")}}), (Strings{"ab  ", "abcdef"}));
  Tensor h(DT_HALF, TensorShape({1}));
  h.data<half>()[0] = half(1.5f);
  EXPECT_EQ(*AsString(h, {}), (Strings{"1.500000"}));
}

TEST(AsString, AttrErrorsAsTensorFlowRejectsThem) {
  const Tensor f = test::MakeTensor<float>({1}, {1.5f});
  const Tensor i = test::MakeTensor<int32_t>({1}, {1});
  EXPECT_EQ(AsString(f, {{"fill", std::string("x")}, {"width", int64_t{5}}}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(AsString(i, {{"fill", std::string("00")}, {"width", int64_t{5}}}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(AsString(f, {{"shortest", true}, {"scientific", true}}).status().code(),
            absl::StatusCode::kInvalidArgument);
  auto precision = AsString(i, {{"precision", int64_t{2}}});
  EXPECT_EQ(precision.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(precision.status().message().find("precision"), std::string::npos);
}

}  // namespace
}  // namespace sg
