// tools/half_float.h: conversions checked against bit patterns worked out by hand.
#include "tools/half_float.h"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

namespace sg_tool {
namespace {

TEST(DoubleToHalf, RoundsToNearestEven) {
  // 1/3 = 1.0101...b * 2^-2: 10 bits after the point are 0101010101, the rest (0101...) is below
  // half a step, so down: exponent 13, mantissa 0x155 -> 0x3555 = 1365/4096.
  EXPECT_EQ(DoubleToHalf(1.0 / 3), 0x3555);
  EXPECT_EQ(HalfToFloat(0x3555), 0.333251953125f);
  EXPECT_EQ(DoubleToHalf(1.0), 0x3C00);
  EXPECT_EQ(DoubleToHalf(-2.0), 0xC000);
  EXPECT_EQ(DoubleToHalf(1.5), 0x3E00);
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: to the even one, 1. 1 + 3 * 2^-11 is halfway
  // between 1 + 2^-10 (odd) and 1 + 2^-9 (even): up.
  EXPECT_EQ(DoubleToHalf(1.0 + std::ldexp(1.0, -11)), 0x3C00);
  EXPECT_EQ(DoubleToHalf(1.0 + 3 * std::ldexp(1.0, -11)), 0x3C02);
  // Just past the halfway point goes up.
  EXPECT_EQ(DoubleToHalf(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -30)), 0x3C01);
}

TEST(DoubleToHalf, OverflowsToInfinityFromHalfAStepPastTheLargest) {
  EXPECT_EQ(DoubleToHalf(65504), 0x7BFF);  // the largest half
  // Steps are 32 at the top: 65519 is below 65504 + 16, 65520 is the tie and goes to the even
  // 65536, which is infinity.
  EXPECT_EQ(DoubleToHalf(65519), 0x7BFF);
  EXPECT_EQ(DoubleToHalf(65520), 0x7C00);
  EXPECT_EQ(DoubleToHalf(-1e6), 0xFC00);
  EXPECT_EQ(DoubleToHalf(std::numeric_limits<double>::infinity()), 0x7C00);
  EXPECT_TRUE(std::isinf(HalfToFloat(0x7C00)));
}

TEST(DoubleToHalf, SubnormalsZeroAndNaN) {
  EXPECT_EQ(DoubleToHalf(std::ldexp(1.0, -24)), 0x0001);        // the smallest subnormal
  EXPECT_EQ(DoubleToHalf(std::ldexp(1.0, -25)), 0x0000);        // half of it: tie to even 0
  EXPECT_EQ(DoubleToHalf(std::ldexp(1.5, -25)), 0x0001);        // past the tie
  EXPECT_EQ(DoubleToHalf(std::ldexp(3.0, -25)), 0x0002);        // 1.5 steps: tie to even 2
  EXPECT_EQ(DoubleToHalf(std::ldexp(1.0, -14)), 0x0400);        // the smallest normal
  EXPECT_EQ(DoubleToHalf(std::ldexp(1023.5, -24)), 0x0400);     // a subnormal rounding up to it
  EXPECT_EQ(HalfToFloat(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(HalfToFloat(0x03FF), std::ldexp(1023.0f, -24));
  EXPECT_EQ(DoubleToHalf(-0.0), 0x8000);
  EXPECT_EQ(DoubleToHalf(1e-30), 0x0000);
  EXPECT_EQ(DoubleToHalf(std::nan("")), 0x7E00);
  EXPECT_TRUE(std::isnan(HalfToFloat(0x7E00)));
}

TEST(DoubleToBfloat16, RoundsToNearestEven) {
  EXPECT_EQ(DoubleToBfloat16(1.0), 0x3F80);
  // 1.00390625 = 1 + 2^-8 is halfway between 1 and 1 + 2^-7: to the even one, 1.
  EXPECT_EQ(DoubleToBfloat16(1.00390625), 0x3F80);
  // 1.01171875 = 1 + 3 * 2^-8, halfway between 1 + 2^-7 (odd) and 1 + 2^-6 (even): up.
  EXPECT_EQ(DoubleToBfloat16(1.01171875), 0x3F82);
  EXPECT_EQ(Bfloat16ToFloat(0x3F82), 1.015625f);
  // 1/3: 1.0101010|1010...b * 2^-2, the rest above half a step, so up: mantissa 0x2B.
  EXPECT_EQ(DoubleToBfloat16(1.0 / 3), 0x3EAB);
  EXPECT_EQ(Bfloat16ToFloat(0x3EAB), 0.333984375f);
  EXPECT_EQ(DoubleToBfloat16(-2.5), 0xC020);
}

TEST(DoubleToBfloat16, RangeOfFloat) {
  // The largest bfloat16 is (2 - 2^-7) * 2^127; half a step past it (2^120) is the tie to
  // infinity.
  EXPECT_EQ(DoubleToBfloat16(std::ldexp(255.0, 120)), 0x7F7F);
  EXPECT_EQ(DoubleToBfloat16(std::ldexp(255.5, 120)), 0x7F80);
  EXPECT_EQ(DoubleToBfloat16(1e300), 0x7F80);
  EXPECT_EQ(DoubleToBfloat16(std::ldexp(1.0, -133)), 0x0001);  // the smallest subnormal
  EXPECT_EQ(Bfloat16ToFloat(0x0001), std::ldexp(1.0f, -133));
  EXPECT_EQ(DoubleToBfloat16(std::nan("")), 0x7FC0);
  EXPECT_EQ(DoubleToBfloat16(-std::numeric_limits<double>::infinity()), 0xFF80);
}

}  // namespace
}  // namespace sg_tool
