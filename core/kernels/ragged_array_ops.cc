// RaggedRange, RaggedGather and RaggedTensorToSparse, as TensorFlow's CPU kernels.
//
// RaggedRange: row i holds start, start + delta, ... (each value the previous plus delta, in T)
// while short of limit; its length is ceil((limit - start) / delta), or 0 when delta points away
// from limit. delta == 0 is INVALID_ARGUMENT.
//
// RaggedGather: gathers whole outermost rows of a ragged params; every level of its splits must
// be non-empty, sorted, start at an index >= 0 and end within the next level. Indices of rank k
// give k - 1 uniform outer levels first; a scalar index drops the outermost level.
//
// RaggedTensorToSparse: splits must start at 0, never decrease and end at the next level's
// length. Each value (and each element within a value of rank > 1) becomes one sparse entry, in
// row-major order.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/kernels/cwise_ops_common.h"
#include "core/kernels/element_copy.h"

namespace sg {
namespace {

int64_t IntAt(const Tensor& t, int64_t i) {
  return t.dtype() == DT_INT64 ? t.data<int64_t>()[i] : t.data<int32_t>()[i];
}

// Allocates output `i` as a vector holding `splits` in the output's dtype (int32 or int64).
absl::Status WriteSplits(OpKernelContext* ctx, int i, const std::vector<int64_t>& splits) {
  Tensor* out;
  SG_RETURN_IF_ERROR(
      ctx->allocate_output(i, TensorShape({static_cast<int64_t>(splits.size())}), &out));
  if (out->dtype() == DT_INT32) {
    std::copy(splits.begin(), splits.end(), out->data<int32_t>());
  } else {
    std::copy(splits.begin(), splits.end(), out->data<int64_t>());
  }
  return absl::OkStatus();
}

int64_t SplitsMax(DataType dt) {
  return dt == DT_INT32 ? std::numeric_limits<int32_t>::max()
                        : std::numeric_limits<int64_t>::max();
}

// ---- RaggedRange ----------------------------------------------------------------------------

using RangeTypes = TypeList<bfloat16, float, double, int32_t, int64_t>;

class RaggedRangeOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor* in[3] = {&ctx->input(0), &ctx->input(1), &ctx->input(2)};
    const char* names[3] = {"starts", "limits", "deltas"};
    int64_t rows = -1;
    for (int k = 0; k < 3; ++k) {
      OP_REQUIRES(ctx, in[k]->dims() <= 1,
                  KernelError(*this, names[k], " must be a scalar or vector"));
      if (in[k]->dims() == 1) {
        OP_REQUIRES(ctx, rows == -1 || rows == in[k]->dim_size(0),
                    KernelError(*this, "starts, limits, and deltas must have the same shape"));
        rows = in[k]->dim_size(0);
      }
    }
    if (rows == -1) rows = 1;
    const int64_t splits_max = SplitsMax(output_type(0));
    const bool ok = DispatchTypes(RangeTypes(), in[0]->dtype(), [&](auto tag) {
      using T = decltype(tag);
      auto at = [&](int k, int64_t r) { return in[k]->data<T>()[in[k]->dims() == 0 ? 0 : r]; };
      std::vector<int64_t> splits(rows + 1, 0);
      for (int64_t r = 0; r < rows; ++r) {
        const T start = at(0, r), limit = at(1, r), delta = at(2, r);
        OP_REQUIRES(ctx, delta != T(0), KernelError(*this, "Requires delta != 0"));
        int64_t size = 0;
        if (!((delta > T(0) && limit < start) || (delta < T(0) && limit > start))) {
          if constexpr (std::is_integral_v<T>) {
            // |limit - start| and |delta| as unsigned: exact for every pair of T.
            const uint64_t span = limit >= start
                                      ? static_cast<uint64_t>(limit) - static_cast<uint64_t>(start)
                                      : static_cast<uint64_t>(start) - static_cast<uint64_t>(limit);
            const uint64_t step = delta > 0 ? static_cast<uint64_t>(delta)
                                            : 0 - static_cast<uint64_t>(delta);
            const uint64_t n = span / step + (span % step != 0 ? 1 : 0);
            OP_REQUIRES(ctx, n <= static_cast<uint64_t>(splits_max),
                        KernelError(*this, "Requires ((limit - start) / delta) <= ", splits_max));
            size = static_cast<int64_t>(n);
          } else {
            const T q = T((limit - start) / delta);  // in T, as TensorFlow rounds it
            const double n = std::ceil(std::abs(static_cast<double>(q)));  // NaN fails below
            // 2^63 (INT64_MAX rounded to double) is out of int64's range: refused.
            OP_REQUIRES(ctx, n <= static_cast<double>(splits_max) && n < 9223372036854775808.0,
                        KernelError(*this, "Requires ((limit - start) / delta) <= ", splits_max));
            size = static_cast<int64_t>(n);
          }
        }
        OP_REQUIRES(ctx, size <= splits_max - splits[r],
                    KernelError(*this, "The total range size overflowed, ", splits[r], " + ",
                                size, " > ", splits_max));
        splits[r + 1] = splits[r] + size;
      }
      OP_REQUIRES_OK(ctx, WriteSplits(ctx, 0, splits));
      Tensor* values;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(1, TensorShape({splits[rows]}), &values));
      T* v = values->data<T>();
      for (int64_t r = 0; r < rows; ++r) {
        T x = at(0, r);
        const T delta = at(2, r);
        for (int64_t j = splits[r]; j < splits[r + 1]; ++j) {
          v[j] = x;
          if constexpr (std::is_integral_v<T>) {
            using U = std::make_unsigned_t<T>;
            x = static_cast<T>(static_cast<U>(x) + static_cast<U>(delta));
          } else {
            x = T(x + delta);
          }
        }
      }
    });
    OP_REQUIRES(ctx, ok, UnsupportedType(*this, in[0]->dtype()));
  }
};
REGISTER_KERNEL_BUILDER(Name("RaggedRange").Device(DEVICE_CPU), RaggedRangeOp);

// ---- RaggedGather ---------------------------------------------------------------------------

// Copies the rows [begin, end) of each range of `values` (rows of `row` elements) to `out`, one
// after another.
void CopyRows(const Tensor& values, int64_t row,
              const std::vector<std::pair<int64_t, int64_t>>& ranges, Tensor* out) {
  DispatchByCopy(values.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* v = static_cast<const T*>(values.raw_data());
    T* o = static_cast<T*>(out->raw_data());
    for (const auto& [b, e] : ranges) o = std::copy(v + b * row, v + e * row, o);
  });
}

class RaggedGatherOp final : public OpKernel {
 public:
  explicit RaggedGatherOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("PARAMS_RAGGED_RANK", &params_rank_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("OUTPUT_RAGGED_RANK", &output_rank_));
  }

  void Compute(OpKernelContext* ctx) override {
    const int p = static_cast<int>(params_rank_);
    const Tensor& values = ctx->input(p);
    const Tensor& indices = ctx->input(p + 1);
    OP_REQUIRES(ctx, indices.dims() + params_rank_ - 1 == output_rank_,
                KernelError(*this, "OUTPUT_RAGGED_RANK = ", output_rank_, " must be ",
                            indices.dims() + params_rank_ - 1,
                            " (indices.rank + PARAMS_RAGGED_RANK - 1)"));
    OP_REQUIRES(ctx, values.dims() >= 1,
                KernelError(*this, "params.flat_values must have rank >= 1, got shape ",
                            values.shape().DebugString()));
    OP_REQUIRES(ctx, DataTypeSize(values.dtype()) > 0 || values.dtype() == DT_STRING ||
                         values.dtype() == DT_VARIANT,
                UnsupportedType(*this, values.dtype()));
    // Each level's splits: non-empty, sorted, from >= 0, ending within the next level.
    std::vector<std::vector<int64_t>> splits(p);
    for (int k = 0; k < p; ++k) {
      const Tensor& s = ctx->input(k);
      OP_REQUIRES(ctx, s.dims() == 1,
                  KernelError(*this, "params_nested_splits[", k, "] must be a vector"));
      OP_REQUIRES(ctx, s.NumElements() > 0,
                  KernelError(*this, "Ragged splits may not be empty"));
      splits[k].resize(s.NumElements());
      for (int64_t i = 0; i < s.NumElements(); ++i) splits[k][i] = IntAt(s, i);
      OP_REQUIRES(ctx, splits[k][0] >= 0,
                  KernelError(*this, "Ragged splits must not be negative"));
      OP_REQUIRES(ctx, std::is_sorted(splits[k].begin(), splits[k].end()),
                  KernelError(*this, "Ragged splits must be sorted"));
    }
    for (int k = 0; k < p; ++k) {
      const int64_t next =
          k + 1 < p ? static_cast<int64_t>(splits[k + 1].size()) - 1 : values.dim_size(0);
      OP_REQUIRES(ctx, splits[k].back() <= next,
                  KernelError(*this, "Ragged splits must not point past values"));
    }
    const int64_t nrows = static_cast<int64_t>(splits[0].size()) - 1;
    const int64_t n = indices.NumElements();
    std::vector<std::pair<int64_t, int64_t>> ranges(n);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t idx = IntAt(indices, i);
      OP_REQUIRES(ctx, idx >= 0 && idx < nrows,
                  KernelError(*this, "indices[", i, "] = ", idx, " is not in [0, ", nrows, ")"));
      ranges[i] = {idx, idx + 1};
    }

    int out = 0;
    // Uniform levels for indices' outer dims: level d has prod(shape[:d+1]) rows of shape[d+1].
    int64_t outer = 1;
    for (int d = 0; d + 1 < indices.dims(); ++d) {
      outer *= indices.dim_size(d);
      const int64_t width = indices.dim_size(d + 1);
      std::vector<int64_t> s(outer + 1);
      for (int64_t r = 0; r <= outer; ++r) s[r] = r * width;
      OP_REQUIRES_OK(ctx, WriteSplits(ctx, out++, s));
    }
    // Each level: the gathered rows' lengths become splits (except for a scalar index's own
    // row), and the ranges move down to the level below.
    for (int k = 0; k < p; ++k) {
      const std::vector<int64_t>& sk = splits[k];
      if (k > 0 || indices.dims() > 0) {
        std::vector<int64_t> s = {0};
        for (const auto& [b, e] : ranges) {
          for (int64_t r = b; r < e; ++r) s.push_back(s.back() + sk[r + 1] - sk[r]);
        }
        OP_REQUIRES_OK(ctx, WriteSplits(ctx, out++, s));
      }
      for (auto& range : ranges) range = {sk[range.first], sk[range.second]};
    }
    int64_t total = 0;
    for (const auto& [b, e] : ranges) total += e - b;
    TensorShape shape = values.shape();
    shape.set_dim(0, total);
    Tensor* out_values;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(out, shape, &out_values));
    const int64_t row = values.dim_size(0) == 0 ? 0 : values.NumElements() / values.dim_size(0);
    CopyRows(values, row, ranges, out_values);
  }

 private:
  int64_t params_rank_, output_rank_;
};
REGISTER_KERNEL_BUILDER(Name("RaggedGather").Device(DEVICE_CPU), RaggedGatherOp);

// ---- RaggedTensorToSparse -------------------------------------------------------------------

class RaggedTensorToSparseOp final : public OpKernel {
 public:
  explicit RaggedTensorToSparseOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("RAGGED_RANK", &ragged_rank_));
  }

  void Compute(OpKernelContext* ctx) override {
    const int r = static_cast<int>(ragged_rank_);
    const Tensor& values = ctx->input(r);
    OP_REQUIRES(ctx, values.dims() >= 1,
                KernelError(*this, "rt_dense_values must have rank >= 1, got shape ",
                            values.shape().DebugString()));
    std::vector<std::vector<int64_t>> splits(r);
    for (int k = 0; k < r; ++k) {
      const Tensor& s = ctx->input(k);
      OP_REQUIRES(ctx, s.dims() == 1,
                  KernelError(*this, "rt_nested_splits[", k, "] must be a vector"));
      OP_REQUIRES(ctx, s.NumElements() > 0,
                  KernelError(*this, "ragged splits may not be empty."));
      splits[k].resize(s.NumElements());
      for (int64_t i = 0; i < s.NumElements(); ++i) splits[k][i] = IntAt(s, i);
      OP_REQUIRES(ctx, splits[k][0] == 0,
                  KernelError(*this, "First value of ragged splits must be 0."));
      for (size_t i = 1; i < splits[k].size(); ++i) {
        OP_REQUIRES(ctx, splits[k][i] >= splits[k][i - 1],
                    KernelError(*this, "Ragged splits should be non decreasing, but we got ",
                                splits[k][i - 1], " followed by ", splits[k][i]));
      }
    }
    for (int k = 0; k < r; ++k) {
      const int64_t next =
          k + 1 < r ? static_cast<int64_t>(splits[k + 1].size()) - 1 : values.dim_size(0);
      OP_REQUIRES(ctx, splits[k].back() == next,
                  KernelError(*this, "Final value of ragged splits must match the length the "
                                     "corresponding ragged values."));
    }
    const int rank = r + values.dims();
    Tensor* dense_shape;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(2, TensorShape({rank}), &dense_shape));
    int64_t* ds = dense_shape->data<int64_t>();
    ds[0] = static_cast<int64_t>(splits[0].size()) - 1;
    for (int k = 0; k < r; ++k) {
      int64_t widest = 0;
      for (size_t i = 1; i < splits[k].size(); ++i) {
        widest = std::max(widest, splits[k][i] - splits[k][i - 1]);
      }
      ds[k + 1] = widest;
    }
    for (int d = 1; d < values.dims(); ++d) ds[r + d] = values.dim_size(d);

    // parent[k][i], col[k][i]: the row of level k that child i belongs to, and its place there.
    std::vector<std::vector<int64_t>> parent(r), col(r);
    for (int k = 0; k < r; ++k) {
      parent[k].resize(splits[k].back());
      col[k].resize(splits[k].back());
      for (size_t row = 0; row + 1 < splits[k].size(); ++row) {
        for (int64_t i = splits[k][row]; i < splits[k][row + 1]; ++i) {
          parent[k][i] = static_cast<int64_t>(row);
          col[k][i] = i - splits[k][row];
        }
      }
    }
    const int64_t nvals = values.dim_size(0);
    const int64_t inner = nvals == 0 ? 0 : values.NumElements() / nvals;
    Tensor* indices;
    OP_REQUIRES_OK(ctx,
                   ctx->allocate_output(0, TensorShape({values.NumElements(), rank}), &indices));
    int64_t* o = indices->data<int64_t>();
    std::vector<int64_t> outer(r + 1);
    for (int64_t v = 0; v < nvals; ++v) {
      int64_t q = v;
      for (int k = r - 1; k >= 0; --k) {
        outer[k + 1] = col[k][q];
        q = parent[k][q];
      }
      outer[0] = q;
      for (int64_t e = 0; e < inner; ++e) {
        int64_t* row = o + (v * inner + e) * rank;
        std::copy(outer.begin(), outer.end(), row);
        int64_t rest = e;
        for (int d = values.dims() - 1; d >= 1; --d) {
          row[r + d] = rest % values.dim_size(d);
          rest /= values.dim_size(d);
        }
      }
    }
    Tensor flat;
    OP_REQUIRES(ctx, flat.CopyFrom(values, TensorShape({values.NumElements()})),
                KernelError(*this, "cannot flatten rt_dense_values"));
    ctx->set_output(1, flat);
  }

 private:
  int64_t ragged_rank_;
};
REGISTER_KERNEL_BUILDER(Name("RaggedTensorToSparse").Device(DEVICE_CPU), RaggedTensorToSparseOp);

}  // namespace
}  // namespace sg
