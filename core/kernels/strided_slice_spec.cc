#include "core/kernels/strided_slice_spec.h"

#include <algorithm>

namespace sg {
namespace {

// Begin, stride and size of one dense dim of size `dim` (known, >= 0).
absl::Status PlanDim(int d, int64_t dim, int64_t b, int64_t e, int64_t s, bool begin_masked,
                     bool end_masked, bool shrink, int64_t* begin, int64_t* size) {
  if (shrink) {
    const int64_t idx = b < 0 ? b + dim : b;
    if (idx < 0 || idx >= dim) {
      return errors::InvalidArgument("slice index ", b, " of dimension ", d, " out of bounds.");
    }
    *begin = idx;
    *size = 1;
    return absl::OkStatus();
  }
  auto canonical = [&](int64_t x, bool masked, bool is_begin) -> int64_t {
    if (masked) {
      if (s > 0) return is_begin ? 0 : dim;
      return is_begin ? dim - 1 : -1;
    }
    if (x < 0) x += dim;
    return s > 0 ? std::clamp<int64_t>(x, 0, dim) : std::clamp<int64_t>(x, -1, dim - 1);
  };
  const int64_t cb = canonical(b, begin_masked, true);
  const int64_t ce = canonical(e, end_masked, false);
  *begin = cb;
  if (s > 0) {
    *size = ce > cb ? (ce - cb + s - 1) / s : 0;
  } else {
    *size = cb > ce ? (cb - ce + (-s) - 1) / (-s) : 0;
  }
  if (*size == 0) *begin = 0;
  return absl::OkStatus();
}

}  // namespace

absl::Status PlanStridedSlice(absl::Span<const int64_t> input_dims,
                              absl::Span<const int64_t> begin, absl::Span<const int64_t> end,
                              absl::Span<const int64_t> strides, const StridedSliceMasks& masks,
                              StridedSlicePlan* plan) {
  const int rank = static_cast<int>(input_dims.size());
  if (begin.size() != end.size() || begin.size() != strides.size()) {
    return errors::InvalidArgument(
        "Expected begin, end, and strides to be 1D equal size tensors, but got shapes [",
        begin.size(), "], [", end.size(), "], and [", strides.size(), "] instead.");
  }
  int sparse = static_cast<int>(begin.size());
  if (sparse > 63) return errors::InvalidArgument("strided slice spec has too many entries");
  int64_t ellipsis = masks.ellipsis;
  int ellipsis_count = 0;
  for (int i = 0; i < sparse; ++i) ellipsis_count += (ellipsis >> i) & 1;
  if (ellipsis_count > 1) {
    return errors::InvalidArgument("Multiple ellipses in slice spec not allowed");
  }
  // Without an ellipsis, one is implied after the last entry.
  const bool implicit_ellipsis = ellipsis_count == 0;
  const int entries = implicit_ellipsis ? sparse + 1 : sparse;
  if (implicit_ellipsis) ellipsis = int64_t{1} << sparse;

  plan->begin.assign(rank, 0);
  plan->stride.assign(rank, 1);
  plan->size.assign(rank, 0);
  plan->final_shape.clear();
  int dense = 0;
  for (int i = 0; i < entries; ++i) {
    const bool is_ellipsis = (ellipsis >> i) & 1;
    if (is_ellipsis) {
      // The ellipsis covers the dims not claimed by later real (non new-axis) entries.
      int later = 0;
      for (int j = i + 1; j < sparse; ++j) later += ((masks.new_axis >> j) & 1) ? 0 : 1;
      const int covered = std::max(0, rank - dense - later);
      for (int k = 0; k < covered; ++k, ++dense) {
        plan->begin[dense] = 0;
        plan->stride[dense] = 1;
        plan->size[dense] = input_dims[dense];
        plan->final_shape.push_back(input_dims[dense]);
      }
      continue;
    }
    if ((masks.new_axis >> i) & 1) {
      plan->final_shape.push_back(1);
      continue;
    }
    if (dense >= rank) {
      return errors::InvalidArgument("Index out of range using input dim ", dense,
                                     "; input has only ", rank, " dims");
    }
    const int64_t s = strides[i];
    if (s == 0) return errors::InvalidArgument("strides[", i, "] must be non-zero");
    const bool shrink = (masks.shrink_axis >> i) & 1;
    if (shrink && s < 0) {
      return errors::InvalidArgument("only stride 1 allowed on non-range indexing.");
    }
    const int64_t dim = input_dims[dense];
    if (dim < 0) {
      plan->size[dense] = shrink ? 1 : -1;
      plan->stride[dense] = shrink ? 1 : s;
    } else {
      plan->stride[dense] = shrink ? 1 : s;
      SG_RETURN_IF_ERROR(PlanDim(dense, dim, begin[i], end[i], s, (masks.begin >> i) & 1,
                                 (masks.end >> i) & 1, shrink, &plan->begin[dense],
                                 &plan->size[dense]));
    }
    if (!shrink) plan->final_shape.push_back(plan->size[dense]);
    ++dense;
  }
  return absl::OkStatus();
}

}  // namespace sg
