// Shape rules of RaggedTensorToTensor, shared by its shape function and its kernel (TensorFlow's
// ragged_to_dense_util): how the row partitions are spelled, and the output shape from the
// requested shape and the flat values' shape.
#ifndef SG_CORE_UTIL_RAGGED_TO_DENSE_UTIL_H_
#define SG_CORE_UTIL_RAGGED_TO_DENSE_UTIL_H_

#include <string>
#include <vector>

#include "core/framework/status.h"
#include "core/framework/tensor_shape.h"

namespace sg {

// One entry of the attr row_partition_types: FIRST_DIM_SIZE (a scalar: the number of rows; only
// first, followed by VALUE_ROWIDS), VALUE_ROWIDS (the row of each child, sorted) or ROW_SPLITS
// (row i's children are [splits[i], splits[i+1])).
enum class RowPartitionType { kFirstDimSize, kValueRowIds, kRowSplits };

// INVALID_ARGUMENT "Unknown string for partition info type: X" for a name outside the three.
absl::Status ParseRowPartitionTypes(const std::vector<std::string>& names,
                                    std::vector<RowPartitionType>* types);

// The number of ragged dimensions: one per partition, not counting a leading FIRST_DIM_SIZE.
int RaggedRank(const std::vector<RowPartitionType>& types);

// default_value must have a smaller rank than the flat values, and each of its dims must be 1 or
// the values' dim it lines up with (dim i of default_value against dim i+1 of the values).
// Unknown ranks pass. INVALID_ARGUMENT otherwise, with TensorFlow's message.
absl::Status ValidateDefaultValueShape(const PartialTensorShape& default_value,
                                       const PartialTensorShape& values);

// The output shape: `shape` (unknown rank: ragged_rank + values' rank dims of -1) with its inner
// dims (those of values[1:]) filled in from the values and checked against them. Unknown when both
// ranks are. INVALID_ARGUMENT when the ranks or a known inner dim disagree.
absl::StatusOr<PartialTensorShape> CombineRaggedTensorToTensorShapes(
    int ragged_rank, const PartialTensorShape& shape, const PartialTensorShape& values);

}  // namespace sg

#endif  // SG_CORE_UTIL_RAGGED_TO_DENSE_UTIL_H_
