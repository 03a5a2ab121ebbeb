// The "shape_and_slices" strings of SaveV2 / RestoreV2: empty for a whole tensor, otherwise
// "<dim0> <dim1> ... <slice>" where <slice> has one extent per dim, ':'-separated, each "-" (the
// whole dim) or "<start>,<length>". E.g. "10 20 0,5:-" is rows 0..4 of a [10, 20] tensor.
#ifndef SG_CORE_UTIL_SAVED_TENSOR_SLICE_H_
#define SG_CORE_UTIL_SAVED_TENSOR_SLICE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/framework/status.h"
#include "core/framework/tensor_shape.h"

namespace sg {

struct SavedSliceSpec {
  std::vector<int64_t> full_shape;
  // Per dim: start and length; length -1 means the whole dim.
  std::vector<std::pair<int64_t, int64_t>> extents;

  // Whether the slice covers the whole tensor.
  bool IsFull() const;
  TensorShape FullShape() const;
  // The shape of the slice itself.
  TensorShape SliceShape() const;
};

// INVALID_ARGUMENT naming the spec when it does not parse or an extent falls outside its dim.
absl::Status ParseShapeAndSlice(const std::string& text, SavedSliceSpec* spec);

}  // namespace sg

#endif  // SG_CORE_UTIL_SAVED_TENSOR_SLICE_H_
