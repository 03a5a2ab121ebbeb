#include "tools/npy_tensor.h"

#include <cstring>
#include <memory>

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

bool WriteTensorNpy(const std::string& path, const SG_Tensor* t, std::string* error) {
  if (SG_TensorType(t) == SG_STRING) {
    std::vector<std::string> items;
    if (!StringTensorItems(t, &items, error)) return false;
    return WriteNpyStrings(path, DimsOf(t), items, error);
  }
  return WriteNpy(path, SG_TensorType(t), DimsOf(t), SG_TensorData(t), SG_TensorByteSize(t), error);
}

}  // namespace sg_tool
