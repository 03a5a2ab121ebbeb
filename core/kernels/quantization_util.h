// Shared pieces of the quantization kernels: dispatch over the quantized dtypes (qint8, quint8,
// qint16, quint16, qint32, each held in the integer type of its width and signedness) and the
// float -> integer conversion TensorFlow's CPU kernels perform.
#ifndef SG_CORE_KERNELS_QUANTIZATION_UTIL_H_
#define SG_CORE_KERNELS_QUANTIZATION_UTIL_H_

#include <cstdint>
#include <limits>
#include <type_traits>

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

}  // namespace sg

#endif  // SG_CORE_KERNELS_QUANTIZATION_UTIL_H_
