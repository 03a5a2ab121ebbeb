// Output sizes and leading padding of sliding windows (convolution, pooling) along one spatial
// dim, with TensorFlow's arithmetic for padding 'VALID', 'SAME' and 'EXPLICIT'. Shared by the
// nn kernels and their shape functions.
#ifndef SG_CORE_KERNELS_WINDOW_UTIL_H_
#define SG_CORE_KERNELS_WINDOW_UTIL_H_

#include <cstdint>
#include <string>

#include "core/framework/status.h"

namespace sg {

enum class Padding { kValid, kSame, kExplicit };

// Parses "VALID" / "SAME" / "EXPLICIT"; INVALID_ARGUMENT otherwise.
absl::Status ParsePadding(const std::string& s, Padding* padding);

// For an input of `in` elements, a window of `k` elements spread by `dilation`, moving by
// `stride`: the number of outputs and the padding before the first element. `explicit_before` /
// `explicit_after` are used for kExplicit only. INVALID_ARGUMENT for non-positive k, stride or
// dilation, a dilated window, stride or padding beyond 2^40, or a negative output size. `in`
// may be -1 (unknown): then *out is -1.
absl::Status WindowedOutputSize(int64_t in, int64_t k, int64_t dilation, int64_t stride,
                                Padding padding, int64_t explicit_before, int64_t explicit_after,
                                int64_t* out, int64_t* pad_before);

}  // namespace sg

#endif  // SG_CORE_KERNELS_WINDOW_UTIL_H_
