// CRC32C (Castagnoli polynomial), as checkpoints and LevelDB tables record it, plus the "mask"
// that TensorBundle applies before storing a CRC next to the data it covers.
//
//   uint32_t crc = crc32c::Value(data, n);
//   crc = crc32c::Extend(crc, more, m);        // same as Value over the concatenation
//   entry.set_crc32c(crc32c::Mask(crc));
#ifndef SG_CORE_UTIL_CRC32C_H_
#define SG_CORE_UTIL_CRC32C_H_

#include <cstddef>
#include <cstdint>

namespace sg {
namespace crc32c {

// The CRC32C of data[0, n) continuing from `init_crc` (the CRC of what came before).
uint32_t Extend(uint32_t init_crc, const void* data, size_t n);
inline uint32_t Value(const void* data, size_t n) { return Extend(0, data, n); }

// Stored CRCs are rotated and offset, so that a CRC of bytes that themselves hold a CRC does not
// degenerate. Unmask(Mask(c)) == c.
constexpr uint32_t kMaskDelta = 0xa282ead8u;
inline uint32_t Mask(uint32_t crc) { return ((crc >> 15) | (crc << 17)) + kMaskDelta; }
inline uint32_t Unmask(uint32_t masked) {
  uint32_t rot = masked - kMaskDelta;
  return (rot >> 17) | (rot << 15);
}

}  // namespace crc32c
}  // namespace sg

#endif  // SG_CORE_UTIL_CRC32C_H_
