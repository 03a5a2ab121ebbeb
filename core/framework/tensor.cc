#include "core/framework/tensor.h"

#include <cstdlib>
#include <cstring>
#include <new>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "core/framework/host_memory.h"
#include "core/framework/resource_mgr.h"

namespace sg {

TensorBuffer::TensorBuffer(void* data, size_t size, Release release)
    : data_(data), size_(size), release_(std::move(release)) {}

TensorBuffer::~TensorBuffer() {
  if (release_) release_(data_, size_);
}

std::shared_ptr<TensorBuffer> TensorBuffer::Allocate(DataType dt, int64_t n) {
  dt = BaseType(dt);
  if (dt == DT_STRING) {
    auto* strings = new (std::nothrow) tstring[n > 0 ? n : 1];
    if (strings == nullptr) return nullptr;
    return std::make_shared<TensorBuffer>(strings, n * sizeof(tstring),
                                          [](void* p, size_t) { delete[] static_cast<tstring*>(p); });
  }
  if (dt == DT_RESOURCE) {
    auto* handles = new (std::nothrow) ResourceHandle[n > 0 ? n : 1];
    if (handles == nullptr) return nullptr;
    return std::make_shared<TensorBuffer>(
        handles, n * sizeof(ResourceHandle),
        [](void* p, size_t) { delete[] static_cast<ResourceHandle*>(p); });
  }
  if (dt == DT_VARIANT) {
    auto* variants = new (std::nothrow) Variant[n > 0 ? n : 1];
    if (variants == nullptr) return nullptr;
    return std::make_shared<TensorBuffer>(
        variants, n * sizeof(Variant), [](void* p, size_t) { delete[] static_cast<Variant*>(p); });
  }
  size_t elem = DataTypeSize(dt);
  if (elem == 0) elem = 1;
  if (n < 0 || static_cast<uint64_t>(n) > (uint64_t{1} << 62) / elem) return nullptr;
  const size_t bytes = static_cast<size_t>(n) * elem;
  const size_t block = bytes > 0 ? bytes : 1;
  void* p = AllocateHostMemory(block, kTensorAlignment);
  if (p == nullptr) return nullptr;
  return std::make_shared<TensorBuffer>(
      p, bytes, [block](void* q, size_t) { FreeHostMemory(q, block, kTensorAlignment); });
}

Tensor::Tensor(DataType dtype, const TensorShape& shape)
    : dtype_(dtype), shape_(shape), buf_(TensorBuffer::Allocate(dtype, shape.num_elements())) {
  if (!buf_) {
    std::fprintf(stderr, "sg: out of memory allocating a %s tensor of shape %s\n",
                 DataTypeString(dtype).c_str(), shape.DebugString().c_str());
    std::abort();
  }
}

Tensor::Tensor(DataType dtype, const TensorShape& shape, std::shared_ptr<TensorBuffer> buffer)
    : dtype_(dtype), shape_(shape), buf_(std::move(buffer)) {}

absl::StatusOr<Tensor> Tensor::Allocate(DataType dtype, const TensorShape& shape) {
  auto buf = TensorBuffer::Allocate(dtype, shape.num_elements());
  if (!buf) {
    return errors::ResourceExhausted("cannot allocate a ", DataTypeString(dtype),
                                     " tensor of shape ", shape.DebugString());
  }
  return Tensor(dtype, shape, std::move(buf));
}

size_t Tensor::TotalBytes() const {
  if (BaseType(dtype_) == DT_STRING) return NumElements() * sizeof(tstring);
  if (dtype_ == DT_RESOURCE) return NumElements() * sizeof(ResourceHandle);
  if (dtype_ == DT_VARIANT) return NumElements() * sizeof(Variant);
  return NumElements() * DataTypeSize(dtype_);
}

size_t Tensor::AllocatedBytes() const {
  if (BaseType(dtype_) != DT_STRING) return TotalBytes();
  size_t n = 0;
  const tstring* s = data<tstring>();
  for (int64_t i = 0; i < NumElements(); ++i) n += s[i].size();
  return n;
}

bool Tensor::CopyFrom(const Tensor& other, const TensorShape& shape) {
  if (other.NumElements() != shape.num_elements()) return false;
  dtype_ = other.dtype_;
  shape_ = shape;
  buf_ = other.buf_;
  return true;
}

Tensor Tensor::DeepCopy() const {
  if (!IsInitialized()) return *this;
  Tensor out(dtype_, shape_);
  if (BaseType(dtype_) == DT_STRING) {
    std::copy(data<tstring>(), data<tstring>() + NumElements(), out.data<tstring>());
  } else if (dtype_ == DT_RESOURCE) {
    std::copy(data<ResourceHandle>(), data<ResourceHandle>() + NumElements(),
              out.data<ResourceHandle>());
  } else if (dtype_ == DT_VARIANT) {
    std::copy(data<Variant>(), data<Variant>() + NumElements(), out.data<Variant>());
  } else if (TotalBytes() > 0) {
    std::memcpy(out.raw_data(), raw_data(), TotalBytes());
  }
  return out;
}

namespace {

// Copies `vals` into `out`, repeating the last value over the rest (TensorFlow's rule for short
// *_val lists); an empty list gives zeros.
template <typename T, typename Rep>
void FillFromRepeated(const Rep& vals, T* out, int64_t n) {
  int64_t m = vals.size();
  for (int64_t i = 0; i < n; ++i) {
    out[i] = m == 0 ? T() : static_cast<T>(vals.Get(i < m ? i : m - 1));
  }
}

template <typename T, typename Rep>
void FillHalfFromRepeated(const Rep& vals, T* out, int64_t n) {
  int64_t m = vals.size();
  for (int64_t i = 0; i < n; ++i) {
    uint16_t bits = m == 0 ? 0 : static_cast<uint16_t>(vals.Get(i < m ? i : m - 1));
    out[i] = Eigen::numext::bit_cast<T>(bits);
  }
}

template <typename T, typename Rep>
void FillComplexFromRepeated(const Rep& vals, T* out, int64_t n) {
  int64_t m = vals.size() / 2;
  for (int64_t i = 0; i < n; ++i) {
    int64_t j = m == 0 ? -1 : (i < m ? i : m - 1);
    out[i] = j < 0 ? T() : T(vals.Get(2 * j), vals.Get(2 * j + 1));
  }
}

// Decodes TensorFlow's string-list encoding (all lengths as varints, then all bytes).
bool DecodeStringList(const std::string& src, tstring* out, int64_t n) {
  const uint8_t* p = reinterpret_cast<const uint8_t*>(src.data());
  const uint8_t* end = p + src.size();
  std::vector<uint64_t> lens(n);
  for (int64_t i = 0; i < n; ++i) {
    uint64_t v = 0;
    int shift = 0;
    while (true) {
      if (p >= end || shift > 63) return false;
      uint8_t b = *p++;
      v |= uint64_t{b & 0x7fu} << shift;
      if ((b & 0x80) == 0) break;
      shift += 7;
    }
    lens[i] = v;
  }
  for (int64_t i = 0; i < n; ++i) {
    if (static_cast<uint64_t>(end - p) < lens[i]) return false;
    out[i].assign(reinterpret_cast<const char*>(p), lens[i]);
    p += lens[i];
  }
  return p == end;
}

}  // namespace

absl::StatusOr<Tensor> Tensor::FromProto(const TensorProto& proto) {
  DataType dt = proto.dtype();
  if (dt == DT_VARIANT) {
    return errors::InvalidArgument(
        "cannot make a variant tensor from a TensorProto: sg does not deserialize variants "
        "(TensorLists are made by the list ops in the graph, not read from protos)");
  }
  if (dt == DT_INVALID || IsRefType(dt) || dt == DT_RESOURCE ||
      (DataTypeSize(dt) == 0 && dt != DT_STRING)) {
    return errors::InvalidArgument("cannot make a tensor of dtype ", DataTypeString(dt),
                                   " from a TensorProto");
  }
  SG_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::FromProto(proto.tensor_shape()));
  const int64_t n = shape.num_elements();
  SG_ASSIGN_OR_RETURN(Tensor t, Tensor::Allocate(dt, shape));
  if (!proto.tensor_content().empty()) {
    const std::string& c = proto.tensor_content();
    if (dt == DT_STRING) {
      if (!DecodeStringList(c, t.data<tstring>(), n)) {
        return errors::InvalidArgument("string tensor_content does not hold ", n, " strings");
      }
      return t;
    }
    if (c.size() != t.TotalBytes()) {
      return errors::InvalidArgument("tensor_content has ", c.size(), " bytes; a ",
                                     DataTypeString(dt), " tensor of shape ",
                                     shape.DebugString(), " needs ", t.TotalBytes());
    }
    std::memcpy(t.raw_data(), c.data(), c.size());
    if (dt == DT_BOOL) {
      // A bool holds 0 or 1; any other byte of the proto is true.
      auto* bytes = static_cast<unsigned char*>(t.raw_data());
      for (size_t i = 0; i < c.size(); ++i) bytes[i] = bytes[i] != 0;
    }
    return t;
  }
  switch (dt) {
    case DT_FLOAT: FillFromRepeated(proto.float_val(), t.data<float>(), n); break;
    case DT_DOUBLE: FillFromRepeated(proto.double_val(), t.data<double>(), n); break;
    case DT_INT32: FillFromRepeated(proto.int_val(), t.data<int32_t>(), n); break;
    case DT_INT16: FillFromRepeated(proto.int_val(), t.data<int16_t>(), n); break;
    case DT_INT8: FillFromRepeated(proto.int_val(), t.data<int8_t>(), n); break;
    case DT_UINT8: FillFromRepeated(proto.int_val(), t.data<uint8_t>(), n); break;
    case DT_UINT16: FillFromRepeated(proto.int_val(), t.data<uint16_t>(), n); break;
    case DT_QINT8: FillFromRepeated(proto.int_val(), t.data<int8_t>(), n); break;
    case DT_QUINT8: FillFromRepeated(proto.int_val(), t.data<uint8_t>(), n); break;
    case DT_QINT16: FillFromRepeated(proto.int_val(), t.data<int16_t>(), n); break;
    case DT_QUINT16: FillFromRepeated(proto.int_val(), t.data<uint16_t>(), n); break;
    case DT_QINT32: FillFromRepeated(proto.int_val(), t.data<int32_t>(), n); break;
    case DT_INT64: FillFromRepeated(proto.int64_val(), t.data<int64_t>(), n); break;
    case DT_UINT32: FillFromRepeated(proto.uint32_val(), t.data<uint32_t>(), n); break;
    case DT_UINT64: FillFromRepeated(proto.uint64_val(), t.data<uint64_t>(), n); break;
    case DT_BOOL: FillFromRepeated(proto.bool_val(), t.data<bool>(), n); break;
    case DT_HALF: FillHalfFromRepeated(proto.half_val(), t.data<half>(), n); break;
    case DT_BFLOAT16: FillHalfFromRepeated(proto.half_val(), t.data<bfloat16>(), n); break;
    case DT_COMPLEX64: FillComplexFromRepeated(proto.scomplex_val(), t.data<complex64>(), n); break;
    case DT_COMPLEX128:
      FillComplexFromRepeated(proto.dcomplex_val(), t.data<complex128>(), n);
      break;
    case DT_STRING: {
      const auto& v = proto.string_val();
      int64_t m = v.size();
      for (int64_t i = 0; i < n; ++i) {
        t.data<tstring>()[i] = m == 0 ? "" : v.Get(i < m ? i : m - 1);
      }
      break;
    }
    default:
      return errors::InvalidArgument("unsupported dtype ", DataTypeString(dt), " in TensorProto");
  }
  return t;
}

void Tensor::AsProtoTensorContent(TensorProto* proto) const {
  proto->Clear();
  proto->set_dtype(BaseType(dtype_));
  shape_.AsProto(proto->mutable_tensor_shape());
  if (BaseType(dtype_) == DT_STRING) {
    for (int64_t i = 0; i < NumElements(); ++i) proto->add_string_val(data<tstring>()[i]);
    return;
  }
  // Resource handles and variants hold pointers and strings, not bytes to send.
  if (!DataTypeIsPod(dtype_)) return;
  if (TotalBytes() > 0) {
    proto->set_tensor_content(static_cast<const char*>(raw_data()), TotalBytes());
  }
}

void Tensor::AsProtoField(TensorProto* proto) const {
  proto->Clear();
  DataType dt = BaseType(dtype_);
  proto->set_dtype(dt);
  shape_.AsProto(proto->mutable_tensor_shape());
  const int64_t n = NumElements();
  switch (dt) {
    case DT_FLOAT: for (int64_t i = 0; i < n; ++i) proto->add_float_val(data<float>()[i]); break;
    case DT_DOUBLE: for (int64_t i = 0; i < n; ++i) proto->add_double_val(data<double>()[i]); break;
    case DT_INT32: for (int64_t i = 0; i < n; ++i) proto->add_int_val(data<int32_t>()[i]); break;
    case DT_INT16: for (int64_t i = 0; i < n; ++i) proto->add_int_val(data<int16_t>()[i]); break;
    case DT_INT8: for (int64_t i = 0; i < n; ++i) proto->add_int_val(data<int8_t>()[i]); break;
    case DT_UINT8: for (int64_t i = 0; i < n; ++i) proto->add_int_val(data<uint8_t>()[i]); break;
    case DT_UINT16: for (int64_t i = 0; i < n; ++i) proto->add_int_val(data<uint16_t>()[i]); break;
    case DT_INT64: for (int64_t i = 0; i < n; ++i) proto->add_int64_val(data<int64_t>()[i]); break;
    case DT_UINT32: for (int64_t i = 0; i < n; ++i) proto->add_uint32_val(data<uint32_t>()[i]); break;
    case DT_UINT64: for (int64_t i = 0; i < n; ++i) proto->add_uint64_val(data<uint64_t>()[i]); break;
    case DT_BOOL: for (int64_t i = 0; i < n; ++i) proto->add_bool_val(data<bool>()[i]); break;
    case DT_STRING: for (int64_t i = 0; i < n; ++i) proto->add_string_val(data<tstring>()[i]); break;
    case DT_HALF:
      for (int64_t i = 0; i < n; ++i) {
        proto->add_half_val(Eigen::numext::bit_cast<uint16_t>(data<half>()[i]));
      }
      break;
    case DT_BFLOAT16:
      for (int64_t i = 0; i < n; ++i) {
        proto->add_half_val(Eigen::numext::bit_cast<uint16_t>(data<bfloat16>()[i]));
      }
      break;
    case DT_COMPLEX64:
      for (int64_t i = 0; i < n; ++i) {
        proto->add_scomplex_val(data<complex64>()[i].real());
        proto->add_scomplex_val(data<complex64>()[i].imag());
      }
      break;
    case DT_COMPLEX128:
      for (int64_t i = 0; i < n; ++i) {
        proto->add_dcomplex_val(data<complex128>()[i].real());
        proto->add_dcomplex_val(data<complex128>()[i].imag());
      }
      break;
    case DT_QINT8: for (int64_t i = 0; i < n; ++i) proto->add_int_val(data<int8_t>()[i]); break;
    case DT_QUINT8: for (int64_t i = 0; i < n; ++i) proto->add_int_val(data<uint8_t>()[i]); break;
    case DT_QINT16: for (int64_t i = 0; i < n; ++i) proto->add_int_val(data<int16_t>()[i]); break;
    case DT_QUINT16: for (int64_t i = 0; i < n; ++i) proto->add_int_val(data<uint16_t>()[i]); break;
    case DT_QINT32: for (int64_t i = 0; i < n; ++i) proto->add_int_val(data<int32_t>()[i]); break;
    default:
      AsProtoTensorContent(proto);
  }
}

std::string Tensor::SummarizeValue(int max_entries) const {
  std::string out;
  const int64_t n = NumElements();
  const int64_t shown = std::min<int64_t>(n, max_entries);
  DataType dt = BaseType(dtype_);
  for (int64_t i = 0; i < shown; ++i) {
    if (i) out += " ";
    switch (dt) {
      case DT_FLOAT: absl::StrAppend(&out, data<float>()[i]); break;
      case DT_DOUBLE: absl::StrAppend(&out, data<double>()[i]); break;
      case DT_HALF: absl::StrAppend(&out, static_cast<float>(data<half>()[i])); break;
      case DT_BFLOAT16: absl::StrAppend(&out, static_cast<float>(data<bfloat16>()[i])); break;
      case DT_INT32: absl::StrAppend(&out, data<int32_t>()[i]); break;
      case DT_INT64: absl::StrAppend(&out, data<int64_t>()[i]); break;
      case DT_INT16: absl::StrAppend(&out, data<int16_t>()[i]); break;
      case DT_INT8: absl::StrAppend(&out, data<int8_t>()[i]); break;
      case DT_UINT8: absl::StrAppend(&out, data<uint8_t>()[i]); break;
      case DT_UINT16: absl::StrAppend(&out, data<uint16_t>()[i]); break;
      case DT_UINT32: absl::StrAppend(&out, data<uint32_t>()[i]); break;
      case DT_UINT64: absl::StrAppend(&out, data<uint64_t>()[i]); break;
      case DT_BOOL: out += data<bool>()[i] ? "true" : "false"; break;
      case DT_STRING: absl::StrAppend(&out, "\"", absl::CEscape(data<tstring>()[i]), "\""); break;
      case DT_VARIANT: out += data<Variant>()[i].DebugString(); break;
      default: out += "?"; break;
    }
  }
  if (n > shown) out += "...";
  return out;
}

std::string Tensor::DebugString(int max_entries) const {
  return absl::StrCat("Tensor<type: ", DataTypeString(dtype_), " shape: ", shape_.DebugString(),
                      " values: ", SummarizeValue(max_entries), ">");
}

}  // namespace sg
