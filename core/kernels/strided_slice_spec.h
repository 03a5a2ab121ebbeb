// The meaning of a StridedSlice (begin, end, strides and the five masks) for an input shape, as
// TensorFlow defines it. Shared by the StridedSlice kernel and its shape function.
#ifndef SG_CORE_KERNELS_STRIDED_SLICE_SPEC_H_
#define SG_CORE_KERNELS_STRIDED_SLICE_SPEC_H_

#include <cstdint>

#include "absl/types/span.h"
#include "core/framework/status.h"
#include "core/kernels/array_copy.h"

namespace sg {

struct StridedSliceMasks {
  int64_t begin = 0, end = 0, ellipsis = 0, new_axis = 0, shrink_axis = 0;
};

// Per input dim: where the slice starts, its step and how many elements it takes; plus the
// final output shape (new axes inserted, shrunk axes removed).
struct StridedSlicePlan {
  DimVector begin, stride, size;  // one per input dim; input dims of unknown size get size -1
  DimVector final_shape;
};

// `input_dims` may hold -1 (unknown, for shape inference): such dims get size -1 unless shrunk.
// INVALID_ARGUMENT (message without the node name) for a zero stride, more than one ellipsis,
// mismatched spec lengths, too many indices, or a shrink index out of range.
absl::Status PlanStridedSlice(absl::Span<const int64_t> input_dims,
                              absl::Span<const int64_t> begin, absl::Span<const int64_t> end,
                              absl::Span<const int64_t> strides, const StridedSliceMasks& masks,
                              StridedSlicePlan* plan);

}  // namespace sg

#endif  // SG_CORE_KERNELS_STRIDED_SLICE_SPEC_H_
