#include "tools/half_float.h"

#include <cmath>

namespace sg_tool {
namespace {

// A binary float of 1 sign bit, `E` exponent bits and `M` stored mantissa bits (IEEE 754 layout,
// bias 2^(E-1) - 1, subnormals, infinities and NaNs), held in the low 1 + E + M bits.
template <int E, int M>
uint16_t FromDouble(double v) {
  constexpr int kBias = (1 << (E - 1)) - 1;
  constexpr int kMinExp = 1 - kBias;  // of the normal numbers
  constexpr uint32_t kExpMask = (1u << E) - 1;
  constexpr uint32_t kOne = 1u << M;  // the implicit leading bit
  const uint32_t sign = std::signbit(v) ? 1u << (E + M) : 0;
  if (std::isnan(v)) return static_cast<uint16_t>(sign | kExpMask << M | kOne >> 1);
  const double a = std::fabs(v);
  if (std::isinf(a)) return static_cast<uint16_t>(sign | kExpMask << M);
  if (a == 0) return static_cast<uint16_t>(sign);
  int e;
  std::frexp(a, &e);
  int exp = e - 1;  // a = 1.f * 2^exp
  // Scaling by a power of two is exact, so nearbyint (to nearest even in the default rounding
  // mode) rounds the double once. Below the normals the step is that of the smallest normal.
  const int step_exp = (exp < kMinExp ? kMinExp : exp) - M;
  const double q = std::nearbyint(std::ldexp(a, -step_exp));
  uint32_t mant = static_cast<uint32_t>(q);
  if (exp < kMinExp) {
    // A subnormal; one that rounds up to kOne is the smallest normal, whose bits are the same.
    return static_cast<uint16_t>(sign | mant);
  }
  if (mant == 2 * kOne) {  // rounded up to the next power of two
    mant = kOne;
    ++exp;
  }
  if (exp > kBias) return static_cast<uint16_t>(sign | kExpMask << M);  // overflow: infinity
  return static_cast<uint16_t>(sign | static_cast<uint32_t>(exp + kBias) << M | (mant - kOne));
}

template <int E, int M>
float ToFloat(uint16_t bits) {
  constexpr int kBias = (1 << (E - 1)) - 1;
  constexpr uint32_t kExpMask = (1u << E) - 1;
  const bool negative = (bits >> (E + M)) & 1;
  const uint32_t exp = (bits >> M) & kExpMask;
  const uint32_t mant = bits & ((1u << M) - 1);
  float v;
  if (exp == kExpMask) {
    v = mant != 0 ? std::nanf("") : INFINITY;
  } else if (exp == 0) {
    v = std::ldexp(static_cast<float>(mant), 1 - kBias - M);
  } else {
    v = std::ldexp(static_cast<float>(mant | 1u << M), static_cast<int>(exp) - kBias - M);
  }
  return negative ? -v : v;
}

}  // namespace

uint16_t DoubleToHalf(double v) { return FromDouble<5, 10>(v); }
uint16_t DoubleToBfloat16(double v) { return FromDouble<8, 7>(v); }
float HalfToFloat(uint16_t bits) { return ToFloat<5, 10>(bits); }
float Bfloat16ToFloat(uint16_t bits) { return ToFloat<8, 7>(bits); }

}  // namespace sg_tool
