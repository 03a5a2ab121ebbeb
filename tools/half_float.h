// The 16-bit floats of TensorFlow (DT_HALF: IEEE 754 binary16; DT_BFLOAT16: the top half of a
// binary32) from and to double, for the sg tool's command-line values, printing and .npy files.
//
//   uint16_t h = sg_tool::DoubleToHalf(1.0 / 3);     // 0x3555, 0.333251953125
//   float f = sg_tool::HalfToFloat(h);
//   uint16_t b = sg_tool::DoubleToBfloat16(1.00390625);  // 0x3F80: the tie goes to even (1.0)
//
// Rounding is to nearest, ties to even, as TensorFlow's (Eigen's) conversions: a value at or past
// the largest finite value plus half a step becomes infinity (half: 65520 -> inf), values too small
// for a normal number become subnormals or zero, NaN stays a (quiet) NaN with its sign. The input
// is rounded once, from the double (NumPy's float16 does the same for a Python float).
// Thread safety: pure functions.
#ifndef SG_TOOLS_HALF_FLOAT_H_
#define SG_TOOLS_HALF_FLOAT_H_

#include <cstdint>

namespace sg_tool {

uint16_t DoubleToHalf(double v);
uint16_t DoubleToBfloat16(double v);

// Exact: every half and bfloat16 value is a float.
float HalfToFloat(uint16_t bits);
float Bfloat16ToFloat(uint16_t bits);

}  // namespace sg_tool

#endif  // SG_TOOLS_HALF_FLOAT_H_
