// C API: TensorFlow 2.x's strings (SG_TString, the layout TensorFlow documents in tf_tstring.h
// and ctstring_internal.h), one at a time and as the elements of a string tensor's buffer.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>

#include "c_api/c_api_internal.h"

#if !(defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
      __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
#error "SG_TString's encoding is implemented for little-endian hosts (TensorFlow's layout there)"
#endif

static_assert(sizeof(SG_TString) == 24, "SG_TString is TensorFlow's 24-byte TF_TString");
static_assert(alignof(SG_TString) == alignof(void*), "SG_TString aligns as a pointer");
static_assert(sizeof(SG_TString_Small) == 24 && sizeof(SG_TString_Raw) == 24,
              "the small string fills the 24 bytes");

namespace sg {
namespace c_api {
namespace {

// The size field holds the size shifted left by two, the type in the low bits.
constexpr size_t kMaxSize = std::numeric_limits<size_t>::max() >> 2;

SG_TString_Type TypeOf(const SG_TString* t) {
  return static_cast<SG_TString_Type>(t->u.raw.raw[0] & SG_TSTR_TYPE_MASK);
}

size_t SizeOf(const SG_TString* t) {
  switch (TypeOf(t)) {
    case SG_TSTR_SMALL: return t->u.smll.size >> 2;
    case SG_TSTR_LARGE: return t->u.large.size >> 2;
    case SG_TSTR_OFFSET: return t->u.offset.size >> 2;
    default: return t->u.view.size >> 2;
  }
}

// A large string's capacity for `size` bytes: one less than a multiple of 16, leaving room for
// the NUL.
size_t LargeCapacity(size_t size) { return ((size + 1 + 15) & ~size_t{15}) - 1; }

// Releases what the string owns (a large block, a view's owner) without touching its bytes.
void ReleaseStorage(SG_TString* t) {
  const SG_TString_Type type = TypeOf(t);
  if (type == SG_TSTR_LARGE) {
    std::free(t->u.large.ptr);
  } else if (type == SG_TSTR_VIEW && t->u.view.owner_ref != nullptr) {
    t->u.view.owner_ref->unref(t->u.view.owner_ref);
  }
}

void SetSmall(SG_TString* t, const char* bytes, size_t size) {
  std::memset(t, 0, sizeof(*t));
  t->u.smll.size = static_cast<uint8_t>(size << 2 | SG_TSTR_SMALL);
  if (size > 0) std::memcpy(t->u.smll.str, bytes, size);
}

}  // namespace

absl::Status TStringAt(const char* data, size_t len, int64_t n, int64_t i, const char** str,
                       size_t* size) {
  if ((data == nullptr && n > 0) || static_cast<uint64_t>(n) > len / sizeof(SG_TString)) {
    return errors::InvalidArgument("SG_STRING tensor of ", n, " elements in TensorFlow 2.x's ",
                                   "layout has ", len, " bytes, fewer than its ", n,
                                   " SG_TStrings need");
  }
  const char* at = data + i * sizeof(SG_TString);
  SG_TString t;  // read by copy: the caller's array need not be aligned
  std::memcpy(&t, at, sizeof(t));
  const size_t s = SizeOf(&t);
  const char* bytes = nullptr;
  switch (TypeOf(&t)) {
    case SG_TSTR_SMALL:
      if (s > SG_TSTRING_SMALL_CAPACITY) {
        return errors::InvalidArgument("SG_STRING tensor: element ", i, " is a small string of ",
                                       s, " bytes (at most ", SG_TSTRING_SMALL_CAPACITY, ")");
      }
      bytes = at + offsetof(SG_TString_Small, str);
      break;
    case SG_TSTR_OFFSET: {
      // The bytes follow the element inside the buffer, or the element is corrupt.
      const size_t room = len - i * sizeof(SG_TString);
      const uint32_t offset = t.u.offset.offset;
      if (offset > room || s > room - offset) {
        return errors::InvalidArgument("SG_STRING tensor: element ", i, " is an offset string of ",
                                       s, " bytes at offset ", offset, ", outside the ", room,
                                       " bytes from it to the end of the buffer");
      }
      bytes = at + offset;
      break;
    }
    case SG_TSTR_LARGE: bytes = t.u.large.ptr; break;
    default: bytes = t.u.view.ptr; break;
  }
  if (bytes == nullptr && s > 0) {
    return errors::InvalidArgument("SG_STRING tensor: element ", i, " has a NULL pointer and ",
                                   s, " bytes");
  }
  *str = bytes;
  *size = s;
  return absl::OkStatus();
}

std::shared_ptr<TensorBuffer> NewTStringBuffer(size_t len, int64_t n) {
  // aligned_alloc wants a multiple of the alignment; at least one block, so that an empty
  // tensor still has a buffer.
  const size_t rounded =
      (std::max<size_t>(len, 1) + kTensorAlignment - 1) & ~(kTensorAlignment - 1);
  if (rounded < len) return nullptr;
  void* data = std::aligned_alloc(kTensorAlignment, rounded);
  if (data == nullptr) return nullptr;
  std::memset(data, 0, rounded);
  std::unique_ptr<void, void (*)(void*)> guard(data, std::free);
  auto buf = std::make_shared<TensorBuffer>(data, len, [n](void* p, size_t) {
    auto* strings = static_cast<SG_TString*>(p);
    for (int64_t i = 0; i < n; ++i) SG_StringDealloc(&strings[i]);
    std::free(p);
  });
  guard.release();
  return buf;
}

}  // namespace c_api
}  // namespace sg

using sg::c_api::kMaxSize;
using sg::c_api::TypeOf;

extern "C" {

void SG_StringInit(SG_TString* t) {
  if (t != nullptr) std::memset(t, 0, sizeof(*t));
}

void SG_StringCopy(SG_TString* dst, const char* src, size_t size) {
  if (dst == nullptr || (src == nullptr && size > 0) || size > kMaxSize) return;
  if (size <= SG_TSTRING_SMALL_CAPACITY) {
    // `src` may lie in what dst owns: copied out before that is released.
    char bytes[SG_TSTRING_SMALL_CAPACITY];
    if (size > 0) std::memcpy(bytes, src, size);
    sg::c_api::ReleaseStorage(dst);
    sg::c_api::SetSmall(dst, bytes, size);
    return;
  }
  const SG_TString_Type type = TypeOf(dst);
  size_t cap = sg::c_api::LargeCapacity(size);
  if (type == SG_TSTR_LARGE && dst->u.large.ptr != nullptr) {
    const size_t old_cap = dst->u.large.cap;
    const size_t old_size = sg::c_api::SizeOf(dst);
    if (size < old_size && size < old_cap / 2) {
      cap = sg::c_api::LargeCapacity(old_cap / 2);
    } else if (size <= old_cap) {
      cap = old_cap;  // the block is kept
      std::memmove(dst->u.large.ptr, src, size);
      dst->u.large.ptr[size] = '\0';
      dst->u.large.size = size << 2 | SG_TSTR_LARGE;
      return;
    }
  }
  // A new block, filled before the old storage goes (`src` may lie in it).
  char* block = static_cast<char*>(std::malloc(cap + 1));
  if (block == nullptr) return;
  std::memcpy(block, src, size);
  block[size] = '\0';
  sg::c_api::ReleaseStorage(dst);
  dst->u.large.size = size << 2 | SG_TSTR_LARGE;
  dst->u.large.cap = cap;
  dst->u.large.ptr = block;
}

void SG_StringAssignView(SG_TString* dst, const char* src, size_t size) {
  if (dst == nullptr || (src == nullptr && size > 0) || size > kMaxSize) return;
  SG_StringDealloc(dst);
  dst->u.view.size = size << 2 | SG_TSTR_VIEW;
  dst->u.view.ptr = src;
  dst->u.view.owner_ref = nullptr;
}

const char* SG_StringGetDataPointer(const SG_TString* t) {
  if (t == nullptr) return nullptr;
  switch (TypeOf(t)) {
    case SG_TSTR_SMALL: return t->u.smll.str;
    case SG_TSTR_LARGE: return t->u.large.ptr;
    case SG_TSTR_OFFSET: return reinterpret_cast<const char*>(t) + t->u.offset.offset;
    default: return t->u.view.ptr;
  }
}

SG_TString_Type SG_StringGetType(const SG_TString* t) {
  return t == nullptr ? SG_TSTR_SMALL : TypeOf(t);
}

size_t SG_StringGetSize(const SG_TString* t) {
  return t == nullptr ? 0 : sg::c_api::SizeOf(t);
}

size_t SG_StringGetCapacity(const SG_TString* t) {
  if (t == nullptr) return 0;
  switch (TypeOf(t)) {
    case SG_TSTR_SMALL: return SG_TSTRING_SMALL_CAPACITY;
    case SG_TSTR_LARGE: return t->u.large.cap;
    default: return 0;
  }
}

void SG_StringDealloc(SG_TString* t) {
  if (t == nullptr) return;
  const SG_TString_Type type = TypeOf(t);
  if ((type == SG_TSTR_LARGE && t->u.large.ptr != nullptr) ||
      (type == SG_TSTR_VIEW && t->u.view.owner_ref != nullptr)) {
    sg::c_api::ReleaseStorage(t);
    SG_StringInit(t);
  }
}

}  // extern "C"
