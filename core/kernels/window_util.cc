#include "core/kernels/window_util.h"

#include <algorithm>

namespace sg {

absl::Status ParsePadding(const std::string& s, Padding* padding) {
  if (s == "VALID") {
    *padding = Padding::kValid;
  } else if (s == "SAME") {
    *padding = Padding::kSame;
  } else if (s == "EXPLICIT") {
    *padding = Padding::kExplicit;
  } else {
    return errors::InvalidArgument("Unknown padding '", s, "'");
  }
  return absl::OkStatus();
}

absl::Status WindowedOutputSize(int64_t in, int64_t k, int64_t dilation, int64_t stride,
                                Padding padding, int64_t explicit_before, int64_t explicit_after,
                                int64_t* out, int64_t* pad_before) {
  if (stride <= 0) return errors::InvalidArgument("Stride must be > 0, but got ", stride);
  if (dilation < 1) return errors::InvalidArgument("Dilation rate must be >= 1, but got ", dilation);
  if (k < 0) return errors::InvalidArgument("Window size must be >= 0, but got ", k);
  // Far beyond any real window, padding or stride, and small enough that the sums below cannot
  // overflow (input sizes are below 2^62; the dilated window stays below 2^40 + 1).
  constexpr int64_t kLimit = int64_t{1} << 40;
  if (k > kLimit || dilation > kLimit || (k > 1 && k - 1 > kLimit / dilation) ||
      stride > kLimit || explicit_before > kLimit || explicit_after > kLimit) {
    return errors::InvalidArgument("window size ", k, ", dilation ", dilation, ", stride ", stride,
                                   " or explicit padding ", explicit_before, "/", explicit_after,
                                   " makes a window beyond 2^40");
  }
  const int64_t ek = (k - 1) * dilation + 1;
  *pad_before = 0;
  if (in < 0) {
    *out = -1;
    if (padding == Padding::kExplicit) *pad_before = explicit_before;
    return absl::OkStatus();
  }
  switch (padding) {
    case Padding::kValid:
      *out = (in - ek + stride) / stride;
      break;
    case Padding::kSame: {
      *out = (in + stride - 1) / stride;
      const int64_t needed = std::max<int64_t>(0, (*out - 1) * stride + ek - in);
      *pad_before = needed / 2;
      break;
    }
    case Padding::kExplicit:
      if (explicit_before < 0 || explicit_after < 0) {
        return errors::InvalidArgument("explicit paddings must be non-negative");
      }
      *out = (in + explicit_before + explicit_after - ek + stride) / stride;
      *pad_before = explicit_before;
      break;
  }
  if (*out < 0) {
    return errors::InvalidArgument("Computed output size would be negative: ", *out,
                                   " [input_size: ", in, ", effective_filter_size: ", ek,
                                   ", stride: ", stride, "]");
  }
  return absl::OkStatus();
}

}  // namespace sg
