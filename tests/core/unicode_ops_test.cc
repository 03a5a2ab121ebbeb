// What the conformance cases cannot show for the Unicode ops: TensorFlow 2.21's UnicodeDecode
// aborts with int32 row splits (a check failure in its kernel), so sg's int32 path is checked
// here against splits written down by hand.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "core/framework/types.h"
#include "tests/core/ops_testutil.h"

namespace sg {
namespace {

using test::MakeTensor;
using test::NodeDefFor;
using test::RunKernel;
using test::Values;

TEST(UnicodeDecode, Int32RowSplits) {
  // "ab", "" and "é" followed by a lone continuation byte (replaced by U+FFFD).
  Tensor in = MakeTensor<tstring>({3}, {"ab", "", "\xc3\xa9\x80"});
  auto out = RunKernel(NodeDefFor("UnicodeDecodeWithOffsets",
                                  {{"input_encoding", std::string("UTF-8")},
                                   {"Tsplits", DT_INT32}},
                                  1),
                       {in});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<int32_t>((*out)[0]), (std::vector<int32_t>{0, 2, 2, 4}));
  EXPECT_EQ(Values<int32_t>((*out)[1]), (std::vector<int32_t>{'a', 'b', 0xE9, 0xFFFD}));
  EXPECT_EQ(Values<int64_t>((*out)[2]), (std::vector<int64_t>{0, 1, 0, 2}));
}

TEST(UnicodeEncode, RejectsDecreasingSplits) {
  Tensor values = MakeTensor<int32_t>({2}, {'a', 'b'});
  Tensor splits = MakeTensor<int64_t>({4}, {0, 2, 1, 2});
  auto out = RunKernel(NodeDefFor("UnicodeEncode", {{"output_encoding", std::string("UTF-8")}},
                                  2),
                       {values, splits});
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument) << out.status();
}

}  // namespace
}  // namespace sg
