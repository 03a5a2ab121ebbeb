// C API: tensors, TensorFlow 1.x's string tensor encoding (the one implementation of it: the
// tools and the bindings go through SG_NewStringTensor and SG_StringTensorGet), and the
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
  const char* data = t.buffer ? static_cast<const char*>(t.buffer->data()) : nullptr;
  const size_t len = t.buffer ? t.buffer->size() : 0;
  SG_RETURN_IF_ERROR(DecodeStrings(data, len, t.shape.num_elements(), out.data<tstring>()));
  return out;
}

absl::StatusOr<SG_Tensor*> FromTensor(const Tensor& t) {
  const DataType dt = BaseType(t.dtype());
  if (dt == DT_STRING) {
    const tstring* s = t.data<tstring>();
    return NewStringTensor(t.shape(),
                           [s](int64_t i) { return StringRef{s[i].data(), s[i].size()}; });
  }
  if (!DataTypeIsPod(dt)) {
    return errors::Unimplemented("a tensor of dtype ", DataTypeString(dt),
                                 " cannot be handed to C");
  }
  return new SG_Tensor{dt, t.shape(), t.buffer()};
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
      if (buf) result = new SG_Tensor{dt, *shape, std::move(buf)};
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
    const char* bytes = t->buffer ? static_cast<const char*>(t->buffer->data()) : nullptr;
    const size_t size = t->buffer ? t->buffer->size() : 0;
    const char* str;
    size_t len;
    SG_RETURN_IF_ERROR(errors::Annotate(sg::c_api::StringAt(bytes, size, n, index, &str, &len),
                                        "SG_StringTensorGet: "));
    *data = str;
    *length = len;
    return absl::OkStatus();
  });
}

}  // extern "C"
