// C API: tensors, TensorFlow 1.x's string tensor encoding (the one implementation of it: the
// tools and the bindings go through SG_NewStringTensor and SG_StringTensorGet), string tensors
// in TensorFlow 2.x's layout (their elements are handled by c_api_tstring.cc), and the
// conversions between C tensors and sg::Tensor used at the session boundary.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>

#include "c_api/c_api_internal.h"
#include "core/framework/types.h"

namespace sg {
namespace c_api {
namespace {

constexpr size_t kOffsetBytes = sizeof(uint64_t);

size_t VarintLength(uint64_t v) {
  size_t n = 1;
  while (v >= 128) {
    v >>= 7;
    ++n;
  }
  return n;
}

char* PutVarint(char* dst, uint64_t v) {
  while (v >= 128) {
    *dst++ = static_cast<char>((v & 127) | 128);
    v >>= 7;
  }
  *dst++ = static_cast<char>(v);
  return dst;
}

// Reads a varint from [p, limit); returns the byte after it, or nullptr when malformed.
const char* GetVarint(const char* p, const char* limit, uint64_t* v) {
  uint64_t result = 0;
  for (int shift = 0; shift <= 63 && p < limit; shift += 7) {
    uint64_t byte = static_cast<unsigned char>(*p++);
    result |= (byte & 127) << shift;
    if (byte < 128) {
      *v = result;
      return p;
    }
  }
  return nullptr;
}

// Checks `dtype` and `dims` and builds the shape; INVALID_ARGUMENT naming the culprit.
absl::StatusOr<TensorShape> CheckedShape(SG_DataType dtype, const int64_t* dims, int num_dims) {
  const int dt = static_cast<int>(dtype);
  if (dt != DT_STRING && (dt <= 0 || dt > 100 || DataTypeSize(static_cast<DataType>(dt)) == 0)) {
    return errors::InvalidArgument("dtype ", dt, " cannot be held by a C tensor");
  }
  SG_RETURN_IF_ERROR(CheckArray(dims, num_dims, "dims"));
  for (int i = 0; i < num_dims; ++i) {
    if (dims[i] < 0) return errors::InvalidArgument("dims[", i, "] is ", dims[i], " (< 0)");
  }
  return TensorShape::Build(absl::Span<const int64_t>(dims, num_dims));
}

// Bytes a numeric tensor of `shape` needs, or an error on overflow.
absl::StatusOr<size_t> NumericBytes(DataType dt, const TensorShape& shape) {
  const size_t size = DataTypeSize(dt);
  const uint64_t n = static_cast<uint64_t>(shape.num_elements());
  if (n > std::numeric_limits<size_t>::max() / size) {
    return errors::InvalidArgument("a ", DataTypeString(dt), " tensor of shape ",
                                   shape.DebugString(), " is too large");
  }
  return n * size;
}

// The largest buffer TensorBuffer::Allocate makes.
constexpr uint64_t kMaxBufferBytes = uint64_t{1} << 62;

// Element `i` of TF 1.x's layout of `n` strings in [data, data + len): sets *str and *size, or
// INVALID_ARGUMENT saying what is corrupt. Reads only the table entry and the element itself.
absl::Status StringAt(const char* data, size_t len, int64_t n, int64_t i, const char** str,
                      size_t* size) {
  if (data == nullptr || static_cast<uint64_t>(n) > len / kOffsetBytes) {
    return errors::InvalidArgument("SG_STRING tensor of ", n, " elements has ", len,
                                   " bytes, fewer than its ", n, " offsets need");
  }
  const char* base = data + n * kOffsetBytes;
  const char* limit = data + len;
  const size_t data_len = limit - base;
  uint64_t offset;
  std::memcpy(&offset, data + i * kOffsetBytes, kOffsetBytes);
  if (offset >= data_len) {
    return errors::InvalidArgument("SG_STRING tensor: element ", i, " has offset ", offset,
                                   " outside the ", data_len, " data bytes");
  }
  uint64_t length;
  const char* p = GetVarint(base + offset, limit, &length);
  if (p == nullptr || length > static_cast<uint64_t>(limit - p)) {
    return errors::InvalidArgument("SG_STRING tensor: element ", i,
                                   " has a malformed or truncated length");
  }
  *str = p;
  *size = static_cast<size_t>(length);
  return absl::OkStatus();
}

// Decodes the TF 1.x string layout of `n` elements into `out` (may be nullptr to validate).
absl::Status DecodeStrings(const char* data, size_t len, int64_t n, tstring* out) {
  for (int64_t i = 0; i < n; ++i) {
    const char* str;
    size_t size;
    SG_RETURN_IF_ERROR(StringAt(data, len, n, i, &str, &size));
    if (out) out[i].assign(str, size);
  }
  return absl::OkStatus();
}

// The bytes TF 1.x's layout of `n` strings takes, `size(i)` bytes each; INVALID_ARGUMENT past
// kMaxBufferBytes.
template <typename SizeFn>
absl::StatusOr<size_t> EncodedBytes(int64_t n, SizeFn size) {
  const auto too_large = [n] {
    return errors::InvalidArgument("the encoding of ", n, " strings takes more than 2^62 bytes");
  };
  if (static_cast<uint64_t>(n) > kMaxBufferBytes / kOffsetBytes) return too_large();
  uint64_t total = static_cast<uint64_t>(n) * kOffsetBytes;
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t s = size(i);
    if (s > kMaxBufferBytes || VarintLength(s) + s > kMaxBufferBytes - total) return too_large();
    total += VarintLength(s) + s;
  }
  return static_cast<size_t>(total);
}

// One element to encode. Not absl::string_view, which checks its length on construction: here
// the length is the caller's, checked by EncodedBytes before any byte is read.
struct StringRef {
  const char* data;
  size_t size;
};

// Writes TF 1.x's layout of `n` strings, element i being `element(i)` (a StringRef), into
// `out`, which has EncodedBytes(n, ...) bytes.
template <typename ElementFn>
void EncodeStrings(int64_t n, ElementFn element, char* out) {
  char* p = out + n * kOffsetBytes;
  const char* base = p;
  for (int64_t i = 0; i < n; ++i) {
    const StringRef s = element(i);
    const uint64_t offset = p - base;
    std::memcpy(out + i * kOffsetBytes, &offset, kOffsetBytes);
    p = PutVarint(p, s.size);
    if (s.size > 0) std::memcpy(p, s.data, s.size);
    p += s.size;
  }
}

// Bytes of `n` SG_TStrings, or an error past kMaxBufferBytes.
absl::StatusOr<size_t> TStringBytes(int64_t n) {
  if (static_cast<uint64_t>(n) > kMaxBufferBytes / sizeof(SG_TString)) {
    return errors::InvalidArgument("a string tensor of ", n, " elements is too large");
  }
  return static_cast<size_t>(n) * sizeof(SG_TString);
}

bool KnownLayout(int layout) {
  return layout == SG_STRING_LAYOUT_ENCODED || layout == SG_STRING_LAYOUT_TSTRING;
}

// Element `i` of SG_STRING tensor `t`, in either layout.
absl::Status StringElement(const SG_Tensor& t, int64_t i, const char** str, size_t* size) {
  const char* data = t.buffer ? static_cast<const char*>(t.buffer->data()) : nullptr;
  const size_t len = t.buffer ? t.buffer->size() : 0;
  const int64_t n = t.shape.num_elements();
  if (t.string_layout == SG_STRING_LAYOUT_TSTRING) return TStringAt(data, len, n, i, str, size);
  return StringAt(data, len, n, i, str, size);
}

// A new SG_STRING tensor in TensorFlow 2.x's layout holding `shape`'s elements, element(i) each
// (a StringRef), copied.
template <typename ElementFn>
absl::StatusOr<SG_Tensor*> NewTStringTensor(const TensorShape& shape, ElementFn element) {
  const int64_t n = shape.num_elements();
  SG_ASSIGN_OR_RETURN(const size_t bytes, TStringBytes(n));
  auto buf = NewTStringBuffer(bytes, n);
  if (!buf) return errors::ResourceExhausted("cannot allocate ", bytes, " bytes for strings");
  auto* strings = static_cast<SG_TString*>(buf->data());
  for (int64_t i = 0; i < n; ++i) {
    const StringRef s = element(i);
    SG_StringCopy(&strings[i], s.data, s.size);
    if (SG_StringGetSize(&strings[i]) != s.size) {
      return errors::ResourceExhausted("cannot allocate ", s.size, " bytes for a string");
    }
  }
  auto* t = new SG_Tensor{DT_STRING, shape, std::move(buf)};
  t->string_layout = SG_STRING_LAYOUT_TSTRING;
  return t;
}

// A new SG_STRING tensor of `shape` holding `n` elements, element(i) each (see EncodeStrings).
template <typename ElementFn>
absl::StatusOr<SG_Tensor*> NewStringTensor(const TensorShape& shape, ElementFn element) {
  const int64_t n = shape.num_elements();
  SG_ASSIGN_OR_RETURN(const size_t total,
                      EncodedBytes(n, [&](int64_t i) { return element(i).size; }));
  auto buf = TensorBuffer::Allocate(DT_UINT8, static_cast<int64_t>(total));
  if (!buf) return errors::ResourceExhausted("cannot allocate ", total, " bytes for strings");
  EncodeStrings(n, element, static_cast<char*>(buf->data()));
  return new SG_Tensor{DT_STRING, shape, std::move(buf)};
}

}  // namespace

absl::StatusOr<Tensor> ToTensor(const SG_Tensor& t) {
  if (t.dtype != DT_STRING) return Tensor(t.dtype, t.shape, t.buffer);
  SG_ASSIGN_OR_RETURN(Tensor out, Tensor::Allocate(DT_STRING, t.shape));
  tstring* elements = out.data<tstring>();
  for (int64_t i = 0; i < t.shape.num_elements(); ++i) {
    const char* str;
    size_t size;
    SG_RETURN_IF_ERROR(StringElement(t, i, &str, &size));
    elements[i].assign(str, size);
  }
  return out;
}

absl::StatusOr<SG_Tensor*> FromTensor(const Tensor& t, SG_StringLayout string_layout) {
  const DataType dt = BaseType(t.dtype());
  if (dt == DT_STRING) {
    const tstring* s = t.data<tstring>();
    auto element = [s](int64_t i) { return StringRef{s[i].data(), s[i].size()}; };
    if (string_layout == SG_STRING_LAYOUT_TSTRING) return NewTStringTensor(t.shape(), element);
    return NewStringTensor(t.shape(), element);
  }
  if (!DataTypeIsPod(dt)) {
    return errors::Unimplemented("a tensor of dtype ", DataTypeString(dt),
                                 " cannot be handed to C");
  }
  return new SG_Tensor{dt, t.shape(), t.buffer()};
}

SG_StringLayout StringLayoutOf(const Node* n) {
  SG_Graph* g = GraphOf(n);
  return g == nullptr ? SG_STRING_LAYOUT_ENCODED : g->string_layout.load();
}

}  // namespace c_api
}  // namespace sg

using sg::c_api::Guard;
namespace errors = sg::errors;

extern "C" {

SG_Tensor* SG_NewTensor(SG_DataType dtype, const int64_t* dims, int num_dims, void* data,
                        size_t len, void (*deallocator)(void* data, size_t len, void* arg),
                        void* deallocator_arg) {
  // The deallocator runs exactly once: handed to the buffer, or here on every other path.
  bool handed_over = false;
  SG_Tensor* result = nullptr;
  try {
    auto shape = sg::c_api::CheckedShape(dtype, dims, num_dims);
    const auto dt = static_cast<sg::DataType>(dtype);
    bool ok = shape.ok() && !(data == nullptr && len > 0);
    if (ok && dt == sg::DT_STRING) {
      ok = sg::c_api::DecodeStrings(static_cast<const char*>(data), len, shape->num_elements(),
                                    nullptr)
               .ok();
    } else if (ok) {
      auto bytes = sg::c_api::NumericBytes(dt, *shape);
      ok = bytes.ok() && *bytes == len;
    }
    if (ok) {
      std::shared_ptr<sg::TensorBuffer> buf;
      const bool aligned = reinterpret_cast<uintptr_t>(data) % sg::kTensorAlignment == 0;
      if (aligned) {
        handed_over = true;
        buf = std::make_shared<sg::TensorBuffer>(
            data, len, [deallocator, deallocator_arg](void* p, size_t n) {
              if (deallocator) deallocator(p, n, deallocator_arg);
            });
      } else {
        // Kernels read tensors through aligned Eigen maps: copy into aligned memory.
        buf = sg::TensorBuffer::Allocate(sg::DT_UINT8, static_cast<int64_t>(len));
        if (buf) std::memcpy(buf->data(), data, len);
      }
      if (buf) {
        result = new SG_Tensor{dt, *shape, std::move(buf)};
        result->owns_memory = !aligned;
      }
    }
  } catch (...) {
    result = nullptr;
  }
  if (!handed_over && deallocator) deallocator(data, len, deallocator_arg);
  return result;
}

SG_Tensor* SG_AllocateTensor(SG_DataType dtype, const int64_t* dims, int num_dims, size_t len) {
  return sg::c_api::GuardValue<SG_Tensor*>(nullptr, [&]() -> SG_Tensor* {
    auto shape = sg::c_api::CheckedShape(dtype, dims, num_dims);
    if (!shape.ok()) return nullptr;
    const auto dt = static_cast<sg::DataType>(dtype);
    if (dt != sg::DT_STRING) {
      auto bytes = sg::c_api::NumericBytes(dt, *shape);
      if (!bytes.ok() || *bytes != len) return nullptr;
    }
    if (len > static_cast<size_t>(std::numeric_limits<int64_t>::max())) return nullptr;
    auto buf = sg::TensorBuffer::Allocate(sg::DT_UINT8, static_cast<int64_t>(len));
    if (!buf) return nullptr;
    return new SG_Tensor{dt, *shape, std::move(buf)};
  });
}

void SG_DeleteTensor(SG_Tensor* t) { delete t; }

SG_DataType SG_TensorType(const SG_Tensor* t) {
  return t ? static_cast<SG_DataType>(t->dtype) : static_cast<SG_DataType>(0);
}

int SG_NumDims(const SG_Tensor* t) { return t ? t->shape.dims() : -1; }

int64_t SG_Dim(const SG_Tensor* t, int dim_index) {
  if (t == nullptr || dim_index < 0 || dim_index >= t->shape.dims()) return -1;
  return t->shape.dim_size(dim_index);
}

size_t SG_TensorByteSize(const SG_Tensor* t) {
  if (t == nullptr) return 0;
  if (t->dtype == sg::DT_STRING) return t->buffer ? t->buffer->size() : 0;
  return static_cast<size_t>(t->shape.num_elements()) * sg::DataTypeSize(t->dtype);
}

void* SG_TensorData(const SG_Tensor* t) {
  return t && t->buffer ? t->buffer->data() : nullptr;
}

int64_t SG_TensorElementCount(const SG_Tensor* t) { return t ? t->shape.num_elements() : -1; }

unsigned char SG_TensorIsAligned(const SG_Tensor* t) {
  if (t == nullptr) return 0;
  return reinterpret_cast<uintptr_t>(SG_TensorData(t)) % sg::kTensorAlignment == 0;
}

size_t SG_TensorAlignment(void) { return sg::kTensorAlignment; }

size_t SG_StringEncodedSize(size_t len) { return sg::c_api::VarintLength(len) + len; }

size_t SG_StringEncode(const char* src, size_t src_len, char* dst, size_t dst_len,
                       SG_Status* status) {
  size_t written = 0;
  Guard("SG_StringEncode", status, [&]() -> absl::Status {
    if (src == nullptr && src_len > 0) {
      return errors::InvalidArgument("SG_StringEncode: src is NULL but src_len is ", src_len);
    }
    const size_t need = SG_StringEncodedSize(src_len);
    if (dst == nullptr || dst_len < need) {
      return errors::InvalidArgument("SG_StringEncode: dst_len ", dst_len, " is too small (",
                                     need, " bytes needed)");
    }
    char* p = sg::c_api::PutVarint(dst, src_len);
    if (src_len > 0) std::memcpy(p, src, src_len);
    written = need;
    return absl::OkStatus();
  });
  return written;
}

size_t SG_StringDecode(const char* src, size_t src_len, const char** dst, size_t* dst_len,
                       SG_Status* status) {
  size_t consumed = 0;
  Guard("SG_StringDecode", status, [&]() -> absl::Status {
    if (src == nullptr || dst == nullptr || dst_len == nullptr) {
      return errors::InvalidArgument("SG_StringDecode: src, dst and dst_len must not be NULL");
    }
    uint64_t size;
    const char* p = sg::c_api::GetVarint(src, src + src_len, &size);
    if (p == nullptr || size > static_cast<uint64_t>(src + src_len - p)) {
      return errors::InvalidArgument("SG_StringDecode: malformed or truncated string of ",
                                     src_len, " bytes");
    }
    *dst = p;
    *dst_len = size;
    consumed = (p - src) + size;
    return absl::OkStatus();
  });
  return consumed;
}

SG_Tensor* SG_NewStringTensor(const int64_t* dims, int num_dims, const char* const* data,
                              const size_t* lengths, int64_t num_elements, SG_Status* status) {
  SG_Tensor* result = nullptr;
  Guard("SG_NewStringTensor", status, [&]() -> absl::Status {
    auto shape = sg::c_api::CheckedShape(SG_STRING, dims, num_dims);
    if (!shape.ok()) return errors::Annotate(shape.status(), "SG_NewStringTensor: ");
    if (num_elements != shape->num_elements()) {
      return errors::InvalidArgument("SG_NewStringTensor: num_elements is ", num_elements,
                                     " but dims ", shape->DebugString(), " hold ",
                                     shape->num_elements());
    }
    if (num_elements > 0 && (data == nullptr || lengths == nullptr)) {
      return errors::InvalidArgument("SG_NewStringTensor: data and lengths must not be NULL for ",
                                     num_elements, " elements");
    }
    for (int64_t i = 0; i < num_elements; ++i) {
      if (data[i] == nullptr && lengths[i] > 0) {
        return errors::InvalidArgument("SG_NewStringTensor: data[", i, "] is NULL but lengths[",
                                       i, "] is ", lengths[i]);
      }
    }
    auto t = sg::c_api::NewStringTensor(
        *shape, [&](int64_t i) { return sg::c_api::StringRef{data[i], lengths[i]}; });
    if (!t.ok()) return errors::Annotate(t.status(), "SG_NewStringTensor: ");
    result = *t;
    return absl::OkStatus();
  });
  return result;
}

void SG_StringTensorGet(const SG_Tensor* t, int64_t index, const char** data, size_t* length,
                        SG_Status* status) {
  Guard("SG_StringTensorGet", status, [&]() -> absl::Status {
    if (t == nullptr || data == nullptr || length == nullptr) {
      return errors::InvalidArgument("SG_StringTensorGet: t, data and length must not be NULL");
    }
    if (t->dtype != sg::DT_STRING) {
      return errors::InvalidArgument("SG_StringTensorGet: the tensor is ",
                                     sg::DataTypeString(t->dtype), ", not string");
    }
    const int64_t n = t->shape.num_elements();
    if (index < 0 || index >= n) {
      return errors::InvalidArgument("SG_StringTensorGet: index ", index, " is outside [0, ", n,
                                     ")");
    }
    const char* str;
    size_t len;
    SG_RETURN_IF_ERROR(errors::Annotate(sg::c_api::StringElement(*t, index, &str, &len),
                                        "SG_StringTensorGet: "));
    *data = str;
    *length = len;
    return absl::OkStatus();
  });
}

SG_Tensor* SG_NewTensorWithLayout(SG_DataType dtype, const int64_t* dims, int num_dims,
                                   void* data, size_t len,
                                   void (*deallocator)(void* data, size_t len, void* arg),
                                   void* deallocator_arg, SG_StringLayout string_layout_arg) {
  const int string_layout = sg::c_api::LayoutNumber(string_layout_arg);
  if (sg::c_api::KnownLayout(string_layout) &&
      (string_layout == SG_STRING_LAYOUT_ENCODED || dtype != SG_STRING)) {
    return SG_NewTensor(dtype, dims, num_dims, data, len, deallocator, deallocator_arg);
  }
  // An SG_TString array (or an unknown layout, which fails). The deallocator runs exactly once:
  // handed to the buffer, or here on every other path.
  bool handed_over = false;
  SG_Tensor* result = nullptr;
  try {
    auto shape = sg::c_api::CheckedShape(dtype, dims, num_dims);
    if (shape.ok() && string_layout == SG_STRING_LAYOUT_TSTRING &&
        !(data == nullptr && len > 0)) {
      auto bytes = sg::c_api::TStringBytes(shape->num_elements());
      if (bytes.ok() && len >= *bytes && !(data == nullptr && *bytes > 0)) {
        // Wrapped whatever its alignment: kernels never read the SG_TStrings themselves.
        handed_over = true;
        auto buf = std::make_shared<sg::TensorBuffer>(
            data, len, [deallocator, deallocator_arg](void* p, size_t n) {
              if (deallocator) deallocator(p, n, deallocator_arg);
            });
        result = new SG_Tensor{sg::DT_STRING, *shape, std::move(buf)};
        result->string_layout = SG_STRING_LAYOUT_TSTRING;
        result->owns_memory = false;
      }
    }
  } catch (...) {
    result = nullptr;
  }
  if (!handed_over && deallocator) deallocator(data, len, deallocator_arg);
  return result;
}

SG_Tensor* SG_AllocateTensorWithLayout(SG_DataType dtype, const int64_t* dims, int num_dims,
                                       size_t len, SG_StringLayout string_layout_arg) {
  const int string_layout = sg::c_api::LayoutNumber(string_layout_arg);
  if (!sg::c_api::KnownLayout(string_layout)) return nullptr;
  if (string_layout == SG_STRING_LAYOUT_ENCODED || dtype != SG_STRING) {
    return SG_AllocateTensor(dtype, dims, num_dims, len);
  }
  return sg::c_api::GuardValue<SG_Tensor*>(nullptr, [&]() -> SG_Tensor* {
    auto shape = sg::c_api::CheckedShape(dtype, dims, num_dims);
    if (!shape.ok()) return nullptr;
    const int64_t n = shape->num_elements();
    auto bytes = sg::c_api::TStringBytes(n);
    if (!bytes.ok() || len < *bytes || len > sg::c_api::kMaxBufferBytes) return nullptr;
    auto buf = sg::c_api::NewTStringBuffer(len, n);
    if (!buf) return nullptr;
    auto* t = new SG_Tensor{sg::DT_STRING, *shape, std::move(buf)};
    t->string_layout = SG_STRING_LAYOUT_TSTRING;
    return t;
  });
}

SG_StringLayout SG_TensorStringLayout(const SG_Tensor* t) {
  return t != nullptr && t->dtype == sg::DT_STRING ? t->string_layout : SG_STRING_LAYOUT_ENCODED;
}

SG_Tensor* SG_TensorToStringLayout(const SG_Tensor* t, SG_StringLayout string_layout,
                                   SG_Status* status) {
  SG_Tensor* result = nullptr;
  Guard("SG_TensorToStringLayout", status, [&]() -> absl::Status {
    if (t == nullptr) return errors::InvalidArgument("SG_TensorToStringLayout: t is NULL");
    if (!sg::c_api::KnownLayout(sg::c_api::LayoutNumber(string_layout))) {
      return errors::InvalidArgument("SG_TensorToStringLayout: unknown layout ",
                                     sg::c_api::LayoutNumber(string_layout));
    }
    if (t->dtype != sg::DT_STRING) {
      result = new SG_Tensor(*t);
      return absl::OkStatus();
    }
    auto value = sg::c_api::ToTensor(*t);
    if (!value.ok()) return errors::Annotate(value.status(), "SG_TensorToStringLayout: ");
    SG_ASSIGN_OR_RETURN(result, sg::c_api::FromTensor(*value, string_layout));
    return absl::OkStatus();
  });
  return result;
}

SG_Tensor* SG_TensorMaybeMove(SG_Tensor* t) {
  if (t == nullptr || !t->owns_memory) return nullptr;
  return t->buffer == nullptr || t->buffer.use_count() == 1 ? t : nullptr;
}

void SG_TensorBitcastFrom(const SG_Tensor* from, SG_DataType type, SG_Tensor* to,
                          const int64_t* new_dims, int num_new_dims, SG_Status* status) {
  Guard("SG_TensorBitcastFrom", status, [&]() -> absl::Status {
    if (from == nullptr || to == nullptr) {
      return errors::InvalidArgument("SG_TensorBitcastFrom: from and to must not be NULL");
    }
    SG_RETURN_IF_ERROR(
        sg::c_api::CheckArray(new_dims, num_new_dims, "SG_TensorBitcastFrom: new_dims"));
    for (int i = 0; i < num_new_dims; ++i) {
      if (new_dims[i] < 0) {
        return errors::InvalidArgument("SG_TensorBitcastFrom: Expected a non-negative size, got ",
                                       new_dims[i]);
      }
    }
    SG_ASSIGN_OR_RETURN(sg::TensorShape shape,
                        sg::TensorShape::Build(absl::Span<const int64_t>(new_dims, num_new_dims)));
    const size_t in_size = SG_DataTypeSize(static_cast<SG_DataType>(from->dtype));
    const size_t out_size = SG_DataTypeSize(type);
    if (in_size == 0) {
      return errors::InvalidArgument("SG_TensorBitcastFrom: other tensor has zero-sized data ",
                                     "type (", sg::DataTypeString(from->dtype), ")");
    }
    if (out_size == 0) {
      return errors::InvalidArgument("SG_TensorBitcastFrom: specified output type is ",
                                     "zero-sized (dtype ", static_cast<int>(type), ")");
    }
    const unsigned __int128 in_bytes =
        static_cast<unsigned __int128>(from->shape.num_elements()) * in_size;
    const unsigned __int128 out_bytes =
        static_cast<unsigned __int128>(shape.num_elements()) * out_size;
    if (in_bytes != out_bytes) {
      return errors::InvalidArgument("SG_TensorBitcastFrom: input and output shapes/data type ",
                                     "sizes are not compatible (", from->shape.DebugString(),
                                     " of ", sg::DataTypeString(from->dtype), " into ",
                                     shape.DebugString(), " of ",
                                     sg::DataTypeString(static_cast<sg::DataType>(type)), ")");
    }
    std::shared_ptr<sg::TensorBuffer> buffer = from->buffer;  // `from` may be `to`
    const bool owns_memory = from->owns_memory;
    to->dtype = static_cast<sg::DataType>(type);
    to->shape = std::move(shape);
    to->buffer = std::move(buffer);
    to->owns_memory = owns_memory;
    to->string_layout = SG_STRING_LAYOUT_ENCODED;
    return absl::OkStatus();
  });
}

}  // extern "C"
