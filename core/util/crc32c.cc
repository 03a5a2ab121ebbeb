#include "core/util/crc32c.h"

#include <array>

namespace sg {
namespace crc32c {
namespace {

// Reflected form of the Castagnoli polynomial 0x1EDC6F41.
constexpr uint32_t kPoly = 0x82f63b78u;

// Slicing-by-4 tables: table[k][b] is the CRC contribution of byte b seen k bytes earlier.
struct Tables {
  std::array<std::array<uint32_t, 256>, 4> t;
  Tables() {
    for (uint32_t b = 0; b < 256; ++b) {
      uint32_t c = b;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ kPoly : c >> 1;
      t[0][b] = c;
    }
    for (uint32_t b = 0; b < 256; ++b) {
      for (int k = 1; k < 4; ++k) t[k][b] = (t[k - 1][b] >> 8) ^ t[0][t[k - 1][b] & 0xff];
    }
  }
};

const Tables& GetTables() {
  static const Tables* tables = new Tables;
  return *tables;
}

}  // namespace

uint32_t Extend(uint32_t init_crc, const void* data, size_t n) {
  const auto& t = GetTables().t;
  const auto* p = static_cast<const uint8_t*>(data);
  uint32_t c = ~init_crc;
  while (n >= 4) {
    c ^= static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
         (static_cast<uint32_t>(p[2]) << 16) | (static_cast<uint32_t>(p[3]) << 24);
    c = t[3][c & 0xff] ^ t[2][(c >> 8) & 0xff] ^ t[1][(c >> 16) & 0xff] ^ t[0][c >> 24];
    p += 4;
    n -= 4;
  }
  while (n-- > 0) c = t[0][(c ^ *p++) & 0xff] ^ (c >> 8);
  return ~c;
}

}  // namespace crc32c
}  // namespace sg
