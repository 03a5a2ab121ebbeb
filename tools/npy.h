// Reading and writing NumPy .npy files (format version 1.0, little-endian, C order) for the sg
// tool. Only the dtypes sg tensors hold as plain bytes are supported.
#ifndef SG_TOOLS_NPY_H_
#define SG_TOOLS_NPY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "sg/c_api.h"

namespace sg_tool {

struct NpyArray {
  SG_DataType dtype = SG_FLOAT;
  std::vector<int64_t> shape;
  std::string data;  // row-major element bytes
};

// Reads `path` into `out`. On failure returns false and sets `error` to a one-line reason.
bool ReadNpy(const std::string& path, NpyArray* out, std::string* error);

// Writes `dtype`, `shape` and `size` bytes at `data` to `path`; false with `error` on failure.
bool WriteNpy(const std::string& path, SG_DataType dtype, const std::vector<int64_t>& shape,
              const void* data, size_t size, std::string* error);

// The .npy descr of `dtype` ("<f4" ...), or "" when .npy cannot hold it.
std::string NpyDescr(SG_DataType dtype);

}  // namespace sg_tool

#endif  // SG_TOOLS_NPY_H_
