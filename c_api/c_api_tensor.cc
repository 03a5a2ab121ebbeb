// C API: tensors, TensorFlow 1.x's string tensor encoding, and the conversions between C
// tensors and sg::Tensor used at the session boundary.
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

// Decodes the TF 1.x string layout of `n` elements into `out` (may be nullptr to validate).
absl::Status DecodeStrings(const char* data, size_t len, int64_t n, tstring* out) {
  if (n == 0) return absl::OkStatus();
  if (data == nullptr || static_cast<uint64_t>(n) > len / kOffsetBytes) {
    return errors::InvalidArgument("SG_STRING tensor of ", n, " elements has ", len,
                                   " bytes, fewer than its ", n, " offsets need");
  }
  const char* base = data + n * kOffsetBytes;
  const char* limit = data + len;
  const size_t data_len = limit - base;
  for (int64_t i = 0; i < n; ++i) {
    uint64_t offset;
    std::memcpy(&offset, data + i * kOffsetBytes, kOffsetBytes);
    if (offset >= data_len) {
      return errors::InvalidArgument("SG_STRING tensor: element ", i, " has offset ", offset,
                                     " outside the ", data_len, " data bytes");
    }
    uint64_t size;
    const char* p = GetVarint(base + offset, limit, &size);
    if (p == nullptr || size > static_cast<uint64_t>(limit - p)) {
      return errors::InvalidArgument("SG_STRING tensor: element ", i,
                                     " has a malformed or truncated length");
    }
    if (out) out[i].assign(p, size);
  }
  return absl::OkStatus();
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
    const int64_t n = t.NumElements();
    const tstring* s = t.data<tstring>();
    size_t total = n * kOffsetBytes;
    for (int64_t i = 0; i < n; ++i) total += VarintLength(s[i].size()) + s[i].size();
    auto buf = TensorBuffer::Allocate(DT_UINT8, static_cast<int64_t>(total));
    if (!buf) return errors::ResourceExhausted("cannot allocate ", total, " bytes for strings");
    char* out = static_cast<char*>(buf->data());
    char* p = out + n * kOffsetBytes;
    const char* base = p;
    for (int64_t i = 0; i < n; ++i) {
      uint64_t offset = p - base;
      std::memcpy(out + i * kOffsetBytes, &offset, kOffsetBytes);
      p = PutVarint(p, s[i].size());
      std::memcpy(p, s[i].data(), s[i].size());
      p += s[i].size();
    }
    return new SG_Tensor{DT_STRING, t.shape(), std::move(buf)};
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

}  // extern "C"
