#include "tools/npy_tensor.h"

#include <cstring>
#include <memory>

#include "tools/half_float.h"
#include "tools/values.h"

namespace sg_tool {
namespace {

struct StatusDeleter {
  void operator()(SG_Status* s) const { SG_DeleteStatus(s); }
};

std::vector<int64_t> DimsOf(const SG_Tensor* t) {
  std::vector<int64_t> dims(SG_NumDims(t));
  for (size_t i = 0; i < dims.size(); ++i) dims[i] = SG_Dim(t, static_cast<int>(i));
  return dims;
}

}  // namespace

SG_Tensor* NewStringTensor(const std::vector<int64_t>& dims, const std::vector<std::string>& items,
                           std::string* error) {
  std::vector<const char*> data(items.size());
  std::vector<size_t> lengths(items.size());
  for (size_t i = 0; i < items.size(); ++i) {
    data[i] = items[i].data();
    lengths[i] = items[i].size();
  }
  std::unique_ptr<SG_Status, StatusDeleter> s(SG_NewStatus());
  SG_Tensor* t = SG_NewStringTensor(dims.data(), static_cast<int>(dims.size()), data.data(),
                                    lengths.data(), static_cast<int64_t>(items.size()), s.get());
  if (t == nullptr) *error = SG_Message(s.get());
  return t;
}

bool StringTensorItems(const SG_Tensor* t, std::vector<std::string>* items, std::string* error) {
  const int64_t n = SG_TensorElementCount(t);
  std::unique_ptr<SG_Status, StatusDeleter> s(SG_NewStatus());
  items->clear();
  items->reserve(n);
  for (int64_t i = 0; i < n; ++i) {
    const char* str = nullptr;
    size_t len = 0;
    SG_StringTensorGet(t, i, &str, &len, s.get());
    if (SG_GetCode(s.get()) != SG_OK) {
      *error = SG_Message(s.get());
      return false;
    }
    items->emplace_back(str, len);
  }
  return true;
}

SG_Tensor* TensorFromNpy(const NpyArray& npy, std::string* error) {
  if (npy.dtype == SG_STRING) return NewStringTensor(npy.shape, npy.strings, error);
  SG_Tensor* t = SG_AllocateTensor(npy.dtype, npy.shape.data(), static_cast<int>(npy.shape.size()),
                                   npy.data.size());
  if (t == nullptr) {
    *error = "cannot make a tensor of " + std::to_string(npy.data.size()) + " bytes";
    return nullptr;
  }
  if (!npy.data.empty()) std::memcpy(SG_TensorData(t), npy.data.data(), npy.data.size());
  return t;
}

bool NpyFeeds(SG_DataType file, SG_DataType want) {
  return file == want || (file == SG_FLOAT && want == SG_BFLOAT16);
}

SG_Tensor* TensorFromNpy(const NpyArray& npy, SG_DataType want, std::string* error) {
  if (npy.dtype == want) return TensorFromNpy(npy, error);
  if (!(npy.dtype == SG_FLOAT && want == SG_BFLOAT16)) {
    *error = std::string("a .npy array of ") + DtypeName(npy.dtype) + " cannot feed a " +
             DtypeName(want) + " tensor";
    return nullptr;
  }
  const size_t n = npy.data.size() / sizeof(float);
  SG_Tensor* t = SG_AllocateTensor(SG_BFLOAT16, npy.shape.data(),
                                   static_cast<int>(npy.shape.size()), n * sizeof(uint16_t));
  if (t == nullptr) {
    *error = "cannot make a bfloat16 tensor of " + std::to_string(n) + " values";
    return nullptr;
  }
  char* dst = static_cast<char*>(SG_TensorData(t));
  for (size_t i = 0; i < n; ++i) {
    float f;
    std::memcpy(&f, npy.data.data() + i * sizeof f, sizeof f);
    const uint16_t bits = DoubleToBfloat16(f);
    std::memcpy(dst + i * sizeof bits, &bits, sizeof bits);
  }
  return t;
}

bool WriteTensorNpy(const std::string& path, const SG_Tensor* t, std::string* error) {
  if (SG_TensorType(t) == SG_BFLOAT16) {
    const int64_t n = SG_TensorElementCount(t);
    std::vector<float> values(n);
    const char* src = static_cast<const char*>(SG_TensorData(t));
    for (int64_t i = 0; i < n; ++i) {
      uint16_t bits;
      std::memcpy(&bits, src + i * sizeof bits, sizeof bits);
      values[i] = Bfloat16ToFloat(bits);
    }
    return WriteNpy(path, SG_FLOAT, DimsOf(t), values.data(), values.size() * sizeof(float),
                    error);
  }
  if (SG_TensorType(t) == SG_STRING) {
    std::vector<std::string> items;
    if (!StringTensorItems(t, &items, error)) return false;
    return WriteNpyStrings(path, DimsOf(t), items, error);
  }
  return WriteNpy(path, SG_TensorType(t), DimsOf(t), SG_TensorData(t), SG_TensorByteSize(t), error);
}

}  // namespace sg_tool
