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
  int64_t count = 1;
  for (int64_t d : dims) count *= d;
  if (count != static_cast<int64_t>(items.size())) {
    *error = std::to_string(items.size()) + " strings do not fill a shape of " +
             std::to_string(count) + " elements";
    return nullptr;
  }
  const size_t table = 8 * items.size();
  size_t total = table;
  for (const auto& s : items) total += SG_StringEncodedSize(s.size());
  SG_Tensor* t = SG_AllocateTensor(SG_STRING, dims.data(), static_cast<int>(dims.size()), total);
  if (t == nullptr) {
    *error = "cannot allocate a string tensor of " + std::to_string(total) + " bytes";
    return nullptr;
  }
  char* base = static_cast<char*>(SG_TensorData(t));
  std::unique_ptr<SG_Status, StatusDeleter> s(SG_NewStatus());
  size_t offset = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    const uint64_t off = offset;
    std::memcpy(base + 8 * i, &off, 8);
    offset += SG_StringEncode(items[i].data(), items[i].size(), base + table + offset,
                              total - table - offset, s.get());
    if (SG_GetCode(s.get()) != SG_OK) {
      *error = SG_Message(s.get());
      SG_DeleteTensor(t);
      return nullptr;
    }
  }
  return t;
}

bool StringTensorItems(const SG_Tensor* t, std::vector<std::string>* items, std::string* error) {
  const int64_t n = SG_TensorElementCount(t);
  const char* data = static_cast<const char*>(SG_TensorData(t));
  const size_t size = SG_TensorByteSize(t);
  const size_t table = 8 * static_cast<size_t>(n);
  std::unique_ptr<SG_Status, StatusDeleter> s(SG_NewStatus());
  items->clear();
  items->reserve(n);
  for (int64_t i = 0; i < n; ++i) {
    uint64_t off;
    std::memcpy(&off, data + 8 * i, 8);
    const char* str = nullptr;
    size_t len = 0;
    if (table + off > size) {
      *error = "string " + std::to_string(i) + " starts past the end of the tensor";
      return false;
    }
    SG_StringDecode(data + table + off, size - table - off, &str, &len, s.get());
    if (SG_GetCode(s.get()) != SG_OK) {
      *error = "string " + std::to_string(i) + ": " + SG_Message(s.get());
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
