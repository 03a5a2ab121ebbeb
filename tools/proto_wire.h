// A minimal protobuf wire-format reader for the sg tool, which sees libsg's C API only and so has
// no generated message classes: it walks the few fields it needs (field numbers as TensorFlow's
// .proto files give them) and skips the rest.
//
//   sg_tool::WireReader r(bytes);
//   sg_tool::WireField f;
//   while (r.Next(&f)) { if (f.number == 1 && f.type == 2) name = f.bytes; }
//   if (!r.ok()) ...   // truncated or malformed
//
// Views only: `bytes` must outlive the reader and the fields it returns. Not thread-safe.
#ifndef SG_TOOLS_PROTO_WIRE_H_
#define SG_TOOLS_PROTO_WIRE_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace sg_tool {

struct WireField {
  int number = 0;
  int type = 0;            // 0 varint, 1 fixed64, 2 length-delimited, 5 fixed32
  uint64_t value = 0;      // types 0, 1 and 5
  std::string_view bytes;  // type 2
};

class WireReader {
 public:
  explicit WireReader(std::string_view bytes) : p_(bytes.data()), end_(p_ + bytes.size()) {}

  // Reads the next field into `f`; false at the end or on malformed input (then ok() is false).
  bool Next(WireField* f) {
    if (p_ >= end_ || !ok_) return false;
    uint64_t tag;
    if (!Varint(&tag)) return false;
    f->number = static_cast<int>(tag >> 3);
    f->type = static_cast<int>(tag & 7);
    switch (f->type) {
      case 0: return Varint(&f->value);
      case 1: return Fixed(8, &f->value);
      case 5: return Fixed(4, &f->value);
      case 2: {
        uint64_t n;
        if (!Varint(&n)) return false;
        if (n > static_cast<uint64_t>(end_ - p_)) return Bad();
        f->bytes = std::string_view(p_, n);
        p_ += n;
        return true;
      }
      default: return Bad();
    }
  }
  bool ok() const { return ok_; }

 private:
  bool Varint(uint64_t* v) {
    *v = 0;
    for (int shift = 0; shift < 64 && p_ < end_; shift += 7) {
      const uint8_t b = static_cast<uint8_t>(*p_++);
      *v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return true;
    }
    return Bad();
  }
  bool Fixed(int n, uint64_t* v) {
    if (end_ - p_ < n) return Bad();
    *v = 0;
    for (int i = 0; i < n; ++i) *v |= static_cast<uint64_t>(static_cast<uint8_t>(p_[i])) << (8 * i);
    p_ += n;
    return true;
  }
  bool Bad() {
    ok_ = false;
    return false;
  }
  const char* p_;
  const char* end_;
  bool ok_ = true;
};

}  // namespace sg_tool

#endif  // SG_TOOLS_PROTO_WIRE_H_
