#include "core/util/table_footer.h"

#include <fstream>

namespace sg {
namespace {

// LevelDB's table format: a 48-byte footer (two varint64 block handles, padding, an 8-byte
// magic number); each block is followed by a 5-byte trailer (compression type, CRC).
constexpr uint64_t kFooterSize = 48;
constexpr uint64_t kBlockTrailerSize = 5;

bool ReadVarint64(const unsigned char*& p, const unsigned char* end, uint64_t* v) {
  *v = 0;
  for (int shift = 0; shift <= 63 && p < end; shift += 7) {
    const uint64_t byte = *p++;
    *v |= (byte & 0x7f) << shift;
    if (byte < 0x80) return true;
  }
  return false;
}

}  // namespace

absl::Status CheckTableFooter(const std::string& path, uint64_t size) {
  auto bad = [&](const char* why) {
    return errors::DataLoss(path, " is not a valid table: ", why);
  };
  if (size < kFooterSize) return bad("it is shorter than a table footer");
  std::ifstream in(path, std::ios::binary);
  unsigned char footer[kFooterSize];
  in.seekg(static_cast<std::streamoff>(size - kFooterSize));
  if (!in.read(reinterpret_cast<char*>(footer), kFooterSize)) {
    return errors::DataLoss("cannot read the footer of ", path);
  }
  const unsigned char* p = footer;
  const unsigned char* end = footer + kFooterSize - 8;  // the handles precede the magic number
  const uint64_t limit = size - kFooterSize;
  for (int handle = 0; handle < 2; ++handle) {
    uint64_t offset, length;
    if (!ReadVarint64(p, end, &offset) || !ReadVarint64(p, end, &length)) {
      return bad("its footer's block handles do not parse");
    }
    if (offset > limit || length > limit - offset || kBlockTrailerSize > limit - offset - length) {
      return bad("its footer names a block past the end of the file");
    }
  }
  return absl::OkStatus();
}

}  // namespace sg
