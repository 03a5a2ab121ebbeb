// Dispatch for kernels that only move elements (gathers, scatters by assignment, stitches,
// partitions): any dtype is moved as an unsigned integer of its size, a string or a variant, so
// one instantiation serves every dtype of that size.
//
//   bool ok = DispatchByCopy(t.dtype(), [&](auto tag) {
//     using T = decltype(tag);
//     std::copy(src.data_as<T>() ..., dst ...);   // via static_cast<T*>(t.raw_data())
//   });
#ifndef SG_CORE_KERNELS_ELEMENT_COPY_H_
#define SG_CORE_KERNELS_ELEMENT_COPY_H_

#include <cstdint>

#include "core/framework/tensor.h"
#include "core/framework/types.h"

namespace sg {

// A 16-byte element (complex128) moved as a whole.
struct CopyBytes16 {
  uint64_t lo, hi;
};

// Calls fn(T{}) with the type elements of `dt` are moved as; false when `dt` has none (a
// resource handle, or a size other than 1, 2, 4, 8 or 16 bytes).
template <typename Fn>
bool DispatchByCopy(DataType dt, Fn&& fn) {
  if (dt == DT_STRING) {
    fn(tstring{});
    return true;
  }
  if (dt == DT_VARIANT) {
    fn(Variant{});
    return true;
  }
  if (dt == DT_RESOURCE) return false;
  switch (DataTypeSize(dt)) {
    case 1: fn(uint8_t{}); return true;
    case 2: fn(uint16_t{}); return true;
    case 4: fn(uint32_t{}); return true;
    case 8: fn(uint64_t{}); return true;
    case 16: fn(CopyBytes16{}); return true;
    default: return false;
  }
}

}  // namespace sg

#endif  // SG_CORE_KERNELS_ELEMENT_COPY_H_
