#include "core/util/ragged_to_dense_util.h"

#include <algorithm>

namespace sg {

absl::Status ParseRowPartitionTypes(const std::vector<std::string>& names,
                                    std::vector<RowPartitionType>* types) {
  types->clear();
  for (const std::string& n : names) {
    if (n == "FIRST_DIM_SIZE") {
      types->push_back(RowPartitionType::kFirstDimSize);
    } else if (n == "VALUE_ROWIDS") {
      types->push_back(RowPartitionType::kValueRowIds);
    } else if (n == "ROW_SPLITS") {
      types->push_back(RowPartitionType::kRowSplits);
    } else {
      return errors::InvalidArgument("Unknown string for partition info type: ", n);
    }
  }
  return absl::OkStatus();
}

int RaggedRank(const std::vector<RowPartitionType>& types) {
  if (types.empty()) return 0;
  const int n = static_cast<int>(types.size());
  return types[0] == RowPartitionType::kFirstDimSize ? n - 1 : n;
}

absl::Status ValidateDefaultValueShape(const PartialTensorShape& default_value,
                                       const PartialTensorShape& values) {
  if (default_value.unknown_rank() || values.unknown_rank()) return absl::OkStatus();
  const int nd = default_value.dims(), nv = values.dims();
  if (nd >= nv) {
    return errors::InvalidArgument(
        "default_value.shape=", default_value.DebugString(), " and rt_input.flat_values.shape=",
        values.DebugString(), " are incompatible: default_value.rank = ", nd,
        "  must be less than rt_input.flat_values.rank = ", nv);
  }
  for (int i = 0; i < std::min(nd, nv - 1); ++i) {
    const int64_t d = default_value.dim_size(i), v = values.dim_size(i + 1);
    if (d >= 0 && v >= 0 && d != 1 && d != v) {
      return errors::InvalidArgument(
          "default_value.shape=", default_value.DebugString(),
          " and rt_input.flat_values.shape=", values.DebugString(),
          " are incompatible: default_value.shape[", i - nd, "] = ", d,
          " but rt_input.flat_values.shape[", i - nd, "] = ", v);
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<PartialTensorShape> CombineRaggedTensorToTensorShapes(
    int ragged_rank, const PartialTensorShape& shape, const PartialTensorShape& values) {
  if (shape.unknown_rank() && values.unknown_rank()) return PartialTensorShape();
  std::vector<int64_t> out;
  if (shape.unknown_rank()) {
    out.assign(ragged_rank + values.dims(), -1);
  } else {
    out.assign(shape.dim_sizes().begin(), shape.dim_sizes().end());
  }
  if (values.unknown_rank()) return PartialTensorShape(out);
  const int nout = static_cast<int>(out.size());
  if (ragged_rank + values.dims() != nout) {
    return errors::InvalidArgument("rt_input.shape and shape=", shape.DebugString(),
                                   " are incompatible: rt_input.rank = ",
                                   ragged_rank + values.dims(), " but shape.rank = ", nout);
  }
  for (int i = 1; i < values.dims(); ++i) {
    const int64_t v = values.dim_size(i);
    int64_t& o = out[nout - values.dims() + i];
    if (v < 0) continue;
    if (o >= 0 && o != v) {
      return errors::InvalidArgument("rt_input.shape and shape=", shape.DebugString(),
                                     " are incompatible: rt_input.shape[", i + ragged_rank,
                                     "] = ", v, " but shape[", i + ragged_rank, "] = ", o);
    }
    o = v;
  }
  return PartialTensorShape(out);
}

}  // namespace sg
