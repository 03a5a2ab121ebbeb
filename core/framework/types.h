// Data types: the DataType enum of core/proto/types.proto (TensorFlow's numbers) and the C++ types
// that hold each one. Reference types (DT_FLOAT_REF = 101 ...) mark mutable variable outputs.
#ifndef SG_CORE_FRAMEWORK_TYPES_H_
#define SG_CORE_FRAMEWORK_TYPES_H_

#include <complex>
#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "core/framework/variant.h"
#include "core/proto/types.pb.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace sg {

using half = Eigen::half;
using bfloat16 = Eigen::bfloat16;
using complex64 = std::complex<float>;
using complex128 = std::complex<double>;
using tstring = std::string;

// Size in bytes of one element, 0 for DT_STRING, DT_RESOURCE, DT_VARIANT and unknown types.
int DataTypeSize(DataType dt);
// "float", "int32", "float_ref": TensorFlow's short names.
std::string DataTypeString(DataType dt);
// Accepts "float", "DT_FLOAT", "float32", "int64", "string", "bool", "half" ...
bool DataTypeFromString(absl::string_view s, DataType* dt);

inline bool IsRefType(DataType dt) { return dt > 100; }
inline DataType BaseType(DataType dt) {
  return IsRefType(dt) ? static_cast<DataType>(dt - 100) : dt;
}
inline DataType MakeRefType(DataType dt) {
  return IsRefType(dt) ? dt : static_cast<DataType>(dt + 100);
}
// Whether buffers of `dt` hold plain bytes (everything but string, resource, variant).
inline bool DataTypeIsPod(DataType dt) { return DataTypeSize(BaseType(dt)) > 0; }

template <typename T>
struct DataTypeToEnum;
#define SG_MATCH_TYPE_(T, E)                 \
  template <>                                \
  struct DataTypeToEnum<T> {                 \
    static constexpr DataType value = E;     \
  };
SG_MATCH_TYPE_(float, DT_FLOAT)
SG_MATCH_TYPE_(double, DT_DOUBLE)
SG_MATCH_TYPE_(int32_t, DT_INT32)
SG_MATCH_TYPE_(uint32_t, DT_UINT32)
SG_MATCH_TYPE_(uint16_t, DT_UINT16)
SG_MATCH_TYPE_(uint8_t, DT_UINT8)
SG_MATCH_TYPE_(int16_t, DT_INT16)
SG_MATCH_TYPE_(int8_t, DT_INT8)
SG_MATCH_TYPE_(tstring, DT_STRING)
SG_MATCH_TYPE_(complex64, DT_COMPLEX64)
SG_MATCH_TYPE_(complex128, DT_COMPLEX128)
SG_MATCH_TYPE_(int64_t, DT_INT64)
SG_MATCH_TYPE_(uint64_t, DT_UINT64)
SG_MATCH_TYPE_(bool, DT_BOOL)
SG_MATCH_TYPE_(half, DT_HALF)
SG_MATCH_TYPE_(bfloat16, DT_BFLOAT16)
SG_MATCH_TYPE_(Variant, DT_VARIANT)
#undef SG_MATCH_TYPE_

// Calls `fn(T{})` with the C++ type of `dt` for the numeric types listed; returns false when `dt`
// is not among them. Use it to dispatch a kernel body over dtypes:
//   bool ok = DispatchNumeric(dt, [&](auto tag) { using T = decltype(tag); ... });
template <typename Fn>
bool DispatchReal(DataType dt, Fn&& fn) {
  switch (dt) {
    case DT_FLOAT: fn(float{}); return true;
    case DT_DOUBLE: fn(double{}); return true;
    case DT_HALF: fn(half{}); return true;
    case DT_INT32: fn(int32_t{}); return true;
    case DT_INT64: fn(int64_t{}); return true;
    case DT_INT8: fn(int8_t{}); return true;
    case DT_INT16: fn(int16_t{}); return true;
    case DT_UINT8: fn(uint8_t{}); return true;
    case DT_UINT16: fn(uint16_t{}); return true;
    case DT_UINT32: fn(uint32_t{}); return true;
    case DT_UINT64: fn(uint64_t{}); return true;
    default: return false;
  }
}
template <typename Fn>
bool DispatchFloat(DataType dt, Fn&& fn) {
  switch (dt) {
    case DT_FLOAT: fn(float{}); return true;
    case DT_DOUBLE: fn(double{}); return true;
    case DT_HALF: fn(half{}); return true;
    default: return false;
  }
}
// Every type a tensor can hold by value and copy: numeric, bool, string.
template <typename Fn>
bool DispatchAll(DataType dt, Fn&& fn) {
  if (DispatchReal(dt, fn)) return true;
  switch (dt) {
    case DT_BOOL: fn(bool{}); return true;
    case DT_STRING: fn(tstring{}); return true;
    case DT_COMPLEX64: fn(complex64{}); return true;
    case DT_COMPLEX128: fn(complex128{}); return true;
    case DT_BFLOAT16: fn(bfloat16{}); return true;
    default: return false;
  }
}

}  // namespace sg

#endif  // SG_CORE_FRAMEWORK_TYPES_H_
