// The meaning of an Einsum equation for given input shapes, as TensorFlow's Einsum op defines
// it. Shared by the Einsum kernel and its shape function.
//
// An equation reads "<in0>,<in1>-><out>" (one or two inputs). Each subscript is a list of labels
// (ASCII letters, one per dim) with at most one ellipsis "..." standing for the dims not labelled.
// A label repeated within an input takes that input's diagonal; a label repeated in the output
// puts its values on the output's diagonal, zeros elsewhere (TensorFlow's inflation, which its
// Einsum gradient uses: "i->ii"); a label absent from the output is summed over; a label in both
// inputs and not in the output is contracted. Ellipsis dims
// broadcast against each other numpy-style (aligned from the right; 1 against n); the output
// must have an ellipsis when an input's covers any dim.
#ifndef SG_CORE_KERNELS_EINSUM_SPEC_H_
#define SG_CORE_KERNELS_EINSUM_SPEC_H_

#include <cstdint>
#include <vector>

#include "absl/strings/string_view.h"
#include "core/framework/status.h"
#include "core/kernels/array_copy.h"

namespace sg {

struct EinsumPlan {
  // Label ids: 0-51 the letters a-z, A-Z; 52 + j the j-th ellipsis dim counted from the left of
  // the widest ellipsis (so ellipsis dims of different inputs align from the right).
  std::vector<std::vector<int>> input_labels;  // per input, one label per dim
  std::vector<int> output_labels;              // one per output dim (a label may repeat)
  // Per label: the size after broadcasting (-1 when unknown), and whether the output has it.
  std::vector<int64_t> size;
  std::vector<bool> in_output;
  int num_labels() const { return static_cast<int>(size.size()); }
  DimVector OutputShape() const;
};

// `input_dims` holds each input's dims (-1 where unknown; the ranks must be known).
// INVALID_ARGUMENT (message without the node name) for a malformed equation, a count of inputs
// that does not match it, a rank that does not match a subscript, a label whose sizes differ, an
// output label that no input has, ellipsis dims that do not broadcast, or an
// ellipsis dim missing from the output.
absl::Status PlanEinsum(absl::string_view equation,
                        const std::vector<std::vector<int64_t>>& input_dims, EinsumPlan* plan);

}  // namespace sg

#endif  // SG_CORE_KERNELS_EINSUM_SPEC_H_
