// Reading and writing NumPy .npy files (format 1.0; 2.0 and 3.0 are read too), C order, for the
// sg tool and the tests. Numbers, bools and complex64/128 are little-endian element bytes; strings
// are NumPy bytes arrays (`|S<n>`) or, when reading, unicode arrays (`<U<n>` / `>U<n>`, stored as
// UTF-8). Strings are written as `|S` because a TensorFlow string is bytes, not text: `<U` would
// need every element to be valid UTF-8, `|S` holds any bytes. bfloat16 has no NumPy dtype.
// Object arrays (`|O`, pickled Python objects) are refused with a message saying how to save the
// array instead.
//
//   sg_tool::NpyArray a;
//   std::string error;
//   if (!sg_tool::ReadNpy("x.npy", &a, &error)) ...;            // a.dtype, a.shape, a.data / a.strings
//   sg_tool::WriteNpyStrings("y.npy", {2}, {"ab", "c"}, &error); // |S2
//
// Only the header's dtype enum of sg/c_api.h is used: this file links without libsg.
#ifndef SG_TOOLS_NPY_H_
#define SG_TOOLS_NPY_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sg/c_api.h"

namespace sg_tool {

struct NpyArray {
  SG_DataType dtype = SG_FLOAT;
  std::vector<int64_t> shape;
  std::string data;                  // row-major element bytes; empty for SG_STRING
  std::vector<std::string> strings;  // SG_STRING only: the elements, row-major (UTF-8 for <U)
};

// Reads `path` into `out`. On failure returns false and sets `error` to a one-line reason naming
// the file (not a .npy file, truncated, Fortran order, a dtype sg cannot hold, an object array,
// a unicode element that is not a code point).
bool ReadNpy(const std::string& path, NpyArray* out, std::string* error);

// Writes `dtype`, `shape` and `size` bytes at `data` to `path`; false with `error` when `dtype`
// has no .npy form here (SG_STRING: use WriteNpyStrings) or the file cannot be written.
bool WriteNpy(const std::string& path, SG_DataType dtype, const std::vector<int64_t>& shape,
              const void* data, size_t size, std::string* error);

// Writes `strings` (row-major, as many as `shape` holds) to `path` as a NumPy bytes array
// (`|S<longest>`, at least 1). false with `error` when an element ends in a NUL byte (NumPy
// drops trailing NULs of bytes elements, so the file could not give it back), the count does not
// match `shape`, or the file cannot be written.
bool WriteNpyStrings(const std::string& path, const std::vector<int64_t>& shape,
                     const std::vector<std::string>& strings, std::string* error);

// The .npy descr of a numeric or bool `dtype` ("<f4" ...), or "" when .npy cannot hold it as
// plain bytes (SG_STRING, SG_RESOURCE, ...).
std::string NpyDescr(SG_DataType dtype);

}  // namespace sg_tool

#endif  // SG_TOOLS_NPY_H_
