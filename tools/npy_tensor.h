// .npy files as C API tensors, for the sg tool: the one place that turns an NpyArray into an
// SG_Tensor (string tensors included) and a fetched SG_Tensor into a .npy file.
//
//   SG_Tensor* t = sg_tool::TensorFromNpy(npy, &error);   // feed it, then SG_DeleteTensor(t)
//   sg_tool::WriteTensorNpy("out/probs.npy", result, &error);
#ifndef SG_TOOLS_NPY_TENSOR_H_
#define SG_TOOLS_NPY_TENSOR_H_

#include <cstdint>
#include <string>
#include <vector>

#include "sg/c_api.h"
#include "tools/npy.h"

namespace sg_tool {

// A new SG_STRING tensor of `dims` holding `items` (row-major), made by SG_NewStringTensor.
// Ownership: the caller deletes the result. Errors: nullptr with `error` (the C API's message)
// when the count does not fill `dims` or the tensor cannot be allocated.
SG_Tensor* NewStringTensor(const std::vector<int64_t>& dims, const std::vector<std::string>& items,
                           std::string* error);

// The elements of an SG_STRING tensor, row-major, read with SG_StringTensorGet. false with
// `error` (the C API's message) for a malformed encoding.
bool StringTensorItems(const SG_Tensor* t, std::vector<std::string>* items, std::string* error);

// A new tensor with the dtype, shape and values of `npy` (strings as SG_STRING).
// Ownership: the caller deletes the result. Errors: nullptr with `error` when it cannot be made.
SG_Tensor* TensorFromNpy(const NpyArray& npy, std::string* error);

// Whether a .npy array of `file` dtype can feed a tensor of `want`: the same dtype, or float32
// for bfloat16 (NumPy has no bfloat16; WriteTensorNpy writes it as float32).
bool NpyFeeds(SG_DataType file, SG_DataType want);

// As TensorFromNpy, the tensor of dtype `want` (NpyFeeds(npy.dtype, want) must hold): float32
// values for a bfloat16 tensor are rounded to nearest even (tools/half_float.h).
SG_Tensor* TensorFromNpy(const NpyArray& npy, SG_DataType want, std::string* error);

// Writes `t` to `path`: numbers and bools as their .npy dtype (float16 as '<f2'), bfloat16 as
// float32 ('<f4', exact: NumPy has no bfloat16), strings as a bytes array (|S).
// false with `error` for a dtype .npy cannot hold (resource, variant...), a string ending in a
// NUL byte, or a file that cannot be written.
bool WriteTensorNpy(const std::string& path, const SG_Tensor* t, std::string* error);

}  // namespace sg_tool

#endif  // SG_TOOLS_NPY_TENSOR_H_
