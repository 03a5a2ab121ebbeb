// Test helpers shared by the runners of TensorFlow-written cases (model_corpus_test,
// training_test): .npy files to sg Tensors, and comparing sg's tensors with TensorFlow's.
#ifndef SG_TESTS_CORE_NPY_TENSOR_H_
#define SG_TESTS_CORE_NPY_TENSOR_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "core/framework/tensor.h"

namespace sg {

// Appends the bytes of the gzip file `path` to `out`. NotFound when it cannot be opened, DataLoss
// when it does not decompress.
absl::Status ReadGzip(const std::string& path, std::string* out);

// "[2,3]".
std::string ShapeString(const std::vector<int64_t>& dims);

// A number with 7 significant digits, for messages.
std::string Num(double v);

// Reads a .npy file (NumPy float/int/bool arrays, and bytes `|S..` arrays as DT_STRING) into
// `out`. InvalidArgument when the file does not parse or its size does not match its header.
absl::Status ReadTensor(const std::string& path, Tensor* out);

// OK when `got` has `want`'s dtype and shape and its values match: floats (float, double) within
// |got - want| <= atol + rtol * |want| (NaN only where `want` has NaN, infinities exactly), other
// dtypes exactly. Else InvalidArgument naming how many values differ and the worst one.
// `max_err` (in and out) is raised to the largest |got - want| of a float comparison.
absl::Status Compare(const Tensor& got, const Tensor& want, double rtol, double atol,
                     double* max_err);

}  // namespace sg

#endif  // SG_TESTS_CORE_NPY_TENSOR_H_
