// Shared pieces of the quantization kernels: dispatch over the quantized dtypes (qint8, quint8,
// qint16, quint16, qint32, each held in the integer type of its width and signedness), the
// float -> integer conversion TensorFlow's CPU kernels perform, TensorFlow's level <-> float
// conversions (the double "reference" ones and the float Eigen ones; which one a kernel uses
// matters for the last bit) and its fixed-point qint32 -> quint8 requantization.
// A file including this header must be compiled with -ffp-contract=off (core/CMakeLists.txt):
// each float step is rounded on its own, as in TensorFlow's x86 build (no FMA).
#ifndef SG_CORE_KERNELS_QUANTIZATION_UTIL_H_
#define SG_CORE_KERNELS_QUANTIZATION_UTIL_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "core/framework/types.h"

namespace sg {

// Calls fn(T{}) with the integer type holding quantized dtype `dt`; false for other dtypes.
template <typename Fn>
bool DispatchQuantized(DataType dt, Fn&& fn) {
  switch (dt) {
    case DT_QINT8: fn(int8_t{}); return true;
    case DT_QUINT8: fn(uint8_t{}); return true;
    case DT_QINT16: fn(int16_t{}); return true;
    case DT_QUINT16: fn(uint16_t{}); return true;
    case DT_QINT32: fn(int32_t{}); return true;
    default: return false;
  }
}

inline std::vector<DataType> QuantizedTypes() {
  return {DT_QINT8, DT_QUINT8, DT_QINT16, DT_QUINT16, DT_QINT32};
}

template <typename T>
constexpr double kQuantLowest = static_cast<double>(std::numeric_limits<T>::lowest());
template <typename T>
constexpr double kQuantHighest = static_cast<double>(std::numeric_limits<T>::max());

// float -> T as x86's truncating conversion does it: through int32, where a value outside int32's
// range (or NaN) becomes INT32_MIN, then wrapped to T's width. Callers clamp first; only qint32
// outputs reach the out-of-range case (a float 2^31 is one past INT32_MAX).
template <typename T>
T FloatToQuantizedHolder(float v) {
  int32_t i;
  if (v >= -2147483648.0f && v < 2147483648.0f) {
    i = static_cast<int32_t>(v);
  } else {
    i = std::numeric_limits<int32_t>::min();
  }
  return static_cast<T>(i);
}

// ---- TensorFlow's scalar conversions (quantization_utils.h), in double ----------------------

// A double to int64 as x86's truncating conversion does it: NaN and values outside int64's range
// become INT64_MIN (what TensorFlow's unchecked casts give on x86).
inline int64_t DoubleToInt64X86(double v) {
  if (v >= -9223372036854775808.0 && v < 9223372036854775808.0) return static_cast<int64_t>(v);
  return std::numeric_limits<int64_t>::min();
}

// The level of float `x` in [min, max] spread over T's 2^bits levels, unclamped, as
// TensorFlow's FloatToQuantizedUnclamped: the range's width in float, the scale and both
// products in double, each product rounded half away from zero; min == max gives T's lowest.
template <typename T>
int64_t FloatToLevelUnclampedTF(float x, float min, float max) {
  const int64_t lowest = static_cast<int64_t>(std::numeric_limits<T>::lowest());
  if (min == max) return lowest;
  const double steps = std::ldexp(1.0, 8 * sizeof(T));
  const double range = static_cast<double>(max - min) * (steps / (steps - 1.0));
  const double scale = steps / range;
  const int64_t q = DoubleToInt64X86(std::round(x * scale) - std::round(min * scale));
  return static_cast<int64_t>(static_cast<uint64_t>(q) + static_cast<uint64_t>(lowest));
}

// As FloatToLevelUnclampedTF, clamped to T's levels (TensorFlow's FloatToQuantized).
template <typename T>
T FloatToLevelTF(float x, float min, float max) {
  const int64_t q = FloatToLevelUnclampedTF<T>(x, min, max);
  const int64_t lo = static_cast<int64_t>(std::numeric_limits<T>::lowest());
  const int64_t hi = static_cast<int64_t>(std::numeric_limits<T>::max());
  return static_cast<T>(std::min(std::max(q, lo), hi));
}

// The float value of level `q` of T in [min, max], as TensorFlow's QuantizedToFloat: the level
// width in double, the minimum rounded to a whole level in float, the sum in double; min == max
// gives min.
template <typename T>
float LevelToFloatTF(int64_t q, float min, float max) {
  if (min == max) return min;
  const double steps = std::ldexp(1.0, 8 * sizeof(T));
  const double range = static_cast<double>(max - min) * (steps / (steps - 1.0));
  const double scale = range / steps;
  const float scale_f = static_cast<float>(scale);
  const float min_rounded = std::round(min / scale_f) * scale_f;
  const double offset = static_cast<double>(q) - static_cast<double>(kQuantLowest<T>);
  return static_cast<float>(static_cast<double>(min_rounded) + offset * scale);
}

// ---- TensorFlow's Eigen conversions (DEQUANTIZE_WITH_EIGEN, QUANTIZE_WITH_EIGEN), in float --

// Level -> float in [min, max] as TensorFlow's QuantizedToFloatStruct: base + level * scale,
// every step in float.
template <typename T>
class LevelToFloatEigen {
 public:
  LevelToFloatEigen(float min, float max)
      : scale_(static_cast<float>((max - min) / (std::ldexp(1.0, 8 * sizeof(T)) - 1.0))) {
    const float min_rounded = max == min ? min : std::round(min / scale_) * scale_;
    base_ = min_rounded - static_cast<float>(kQuantLowest<T>) * scale_;
  }
  float operator()(int64_t q) const { return base_ + static_cast<float>(q) * scale_; }

 private:
  float scale_, base_;
};

// Float -> level of T in [min, max] as TensorFlow's FloatToQuantizedStruct: round(x * scale)
// less the rounded scaled minimum, in float, clamped to bounds that convert back to int32.
template <typename T>
class FloatToLevelEigen {
 public:
  FloatToLevelEigen(float min, float max)
      : scale_(max == min ? 0.0f
                          : static_cast<float>((std::ldexp(1.0, 8 * sizeof(T)) - 1.0) /
                                               (max - min))) {
    const float min_scaled = std::round(min * scale_);
    offset_ = min_scaled - static_cast<float>(kQuantLowest<T>);
    lower_ = std::max(static_cast<float>(kQuantLowest<T>), -2.147483648e+09f);
    upper_ = std::min(static_cast<float>(kQuantHighest<T>), +2.147483520e+09f);
  }
  int32_t operator()(float x) const {
    float v = std::round(x * scale_) - offset_;
    v = std::max(v, lower_);
    v = std::min(v, upper_);
    return FloatToQuantizedHolder<int32_t>(v);  // NaN (from a NaN range) as x86 converts it
  }

 private:
  float scale_, offset_, lower_, upper_;
};

// ---- fixed-point requantization -------------------------------------------------------------

// A double to int64 as a C++ cast truncates, saturated instead of undefined out of range.
inline int64_t TruncToInt64(double v) {
  if (!(v > -9.2e18)) return v != v ? 0 : std::numeric_limits<int64_t>::min();
  if (v > 9.2e18) return std::numeric_limits<int64_t>::max();
  return static_cast<int64_t>(v);
}

// qint32 levels in [in_min, in_max] -> quint8 levels in [out_min, out_max], in 16-bit fixed
// point as TensorFlow's RequantizeManyInNewRange<qint32, quint8> computes it (Requantize,
// QuantizeDownAndShrinkRange): a scale, the input range's centre and the output's minimum each
// become a multiple of 2^-16, the product's upper 32 bits are kept, and the sum is rounded half
// up and clamped.
inline void RequantizeToQuint8(const int32_t* in, int64_t n, float in_min, float in_max,
                               float out_min, float out_max, uint8_t* out) {
  constexpr int kShift = 16;
  const float in_range = in_max - in_min;
  const float out_range = out_max - out_min;
  const float recip_out_range = out_range == 0.0f ? 0.0f : static_cast<float>(255.0 / out_range);
  const float in_centre = static_cast<float>((in_min + in_max) / 2.0);
  const int64_t scale_fp =
      out_range == 0.0f ? 0 : TruncToInt64(255.0 * (1 << kShift) * in_range / out_range);
  // In float, as TensorFlow computes it (a double product moves a few outputs by one).
  const float in_offset = in_centre * recip_out_range * static_cast<float>(1 << kShift);
  const int64_t in_offset_fp = TruncToInt64(in_offset);
  // The output minimum's offset is rounded half away from zero (TensorFlow's std::lround);
  // truncating it moves values that sit just under a half level.
  const int64_t out_offset_fp =
      out_range == 0.0f
          ? 0
          : TruncToInt64(std::round((1 << kShift) * (out_min * 255.0) / out_range));
  const int64_t rounding = int64_t{1} << (kShift - 1);
  for (int64_t i = 0; i < n; ++i) {
    // The product wraps as TensorFlow's int64 arithmetic does (only for absurd range ratios).
    const int64_t product = static_cast<int64_t>(static_cast<uint64_t>(int64_t{in[i]}) *
                                                 static_cast<uint64_t>(scale_fp));
    // 128 bits: the saturated offsets of absurd ranges must not overflow.
    const __int128 value = static_cast<__int128>(product >> 32) + in_offset_fp;
    const __int128 q = (value - out_offset_fp + rounding) >> kShift;
    out[i] = static_cast<uint8_t>(q < 0 ? 0 : q > 255 ? 255 : static_cast<int>(q));
  }
}

// The float range qint32 levels q[0, n) of [min, max] cover, its minimum widened down to 0.0,
// each bound from LevelToFloatTF (TensorFlow's RequantizationRange and
// QuantizeDownAndShrinkRange); for n == 0 the values of levels INT32_MAX and INT32_MIN.
inline void UsedQint32Range(const int32_t* q, int64_t n, float min, float max, float* used_min,
                            float* used_max) {
  int32_t lo = std::numeric_limits<int32_t>::max(), hi = std::numeric_limits<int32_t>::min();
  for (int64_t i = 0; i < n; ++i) {
    lo = std::min(lo, q[i]);
    hi = std::max(hi, q[i]);
  }
  *used_min = std::min(0.0f, LevelToFloatTF<int32_t>(lo, min, max));
  *used_max = LevelToFloatTF<int32_t>(hi, min, max);
}

}  // namespace sg

#endif  // SG_CORE_KERNELS_QUANTIZATION_UTIL_H_
