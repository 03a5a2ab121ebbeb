// RaggedTensorToTensor, as TensorFlow's: a ragged tensor given as its flat values and its row
// partitions (outermost first) becomes a dense tensor. Each value's place is found by walking the
// partitions: a row's children fill its columns from 0, and a child whose row or column falls
// outside the requested shape is dropped. Cells no value reaches hold default_value, broadcast to
// a value's shape (values.shape[1:]).
//
// Partitions must be well formed (row_splits start at 0 and never decrease, value_rowids are
// sorted and within their parent's rows, neither points past the values): TensorFlow reads
// outside its inputs on some malformed partitions, sg refuses them all with INVALID_ARGUMENT.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/kernels/broadcast.h"
#include "core/kernels/cwise_ops_common.h"
#include "core/util/ragged_to_dense_util.h"

namespace sg {
namespace {

constexpr int kShape = 0, kValues = 1, kDefault = 2, kFirstPartition = 3;

std::vector<int64_t> AsInt64s(const Tensor& t) {
  std::vector<int64_t> v(t.NumElements());
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    v[i] = t.dtype() == DT_INT64 ? t.data<int64_t>()[i] : t.data<int32_t>()[i];
  }
  return v;
}

// The widest row of a partition: the largest split difference, or the longest run of one rowid.
int64_t MaxWidth(RowPartitionType type, const std::vector<int64_t>& p) {
  int64_t widest = 0;
  if (type == RowPartitionType::kRowSplits) {
    for (size_t i = 1; i < p.size(); ++i) widest = std::max(widest, p[i] - p[i - 1]);
    return widest;
  }
  for (size_t i = 0; i < p.size();) {
    size_t j = i;
    while (j < p.size() && p[j] == p[i]) ++j;
    widest = std::max<int64_t>(widest, static_cast<int64_t>(j - i));
    i = j;
  }
  return widest;
}

template <typename T>
void FillOutput(const Tensor& values, const std::vector<T>& default_cell,
                const std::vector<int64_t>& cell_of_value, Tensor* out) {
  const int64_t inner = static_cast<int64_t>(default_cell.size());
  T* o = out->data<T>();
  const int64_t cells = inner == 0 ? 0 : out->NumElements() / inner;
  for (int64_t c = 0; c < cells; ++c) {
    std::copy(default_cell.begin(), default_cell.end(), o + c * inner);
  }
  const T* v = values.data<T>();
  for (size_t j = 0; j < cell_of_value.size(); ++j) {
    if (cell_of_value[j] < 0) continue;
    std::copy(v + j * inner, v + (j + 1) * inner, o + cell_of_value[j] * inner);
  }
}

class RaggedTensorToTensorOp final : public OpKernel {
 public:
  explicit RaggedTensorToTensorOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::vector<std::string> names;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("row_partition_types", &names));
    absl::Status s = ParseRowPartitionTypes(names, &types_);
    OP_REQUIRES(ctx, s.ok(), KernelError(*this, s.message()));
    int64_t n;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("num_row_partition_tensors", &n));
    OP_REQUIRES(ctx, n == static_cast<int64_t>(types_.size()),
                KernelError(*this, "row_partition_types has ", types_.size(),
                            " entries for num_row_partition_tensors = ", n));
    ragged_rank_ = RaggedRank(types_);
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& values = ctx->input(kValues);
    const Tensor& default_value = ctx->input(kDefault);

    // The partitions, checked on their own: one per ragged dimension, outermost first.
    const bool first_is_size = types_[0] == RowPartitionType::kFirstDimSize;
    std::vector<RowPartitionType> types;
    std::vector<std::vector<int64_t>> parts;
    for (size_t i = first_is_size ? 1 : 0; i < types_.size(); ++i) {
      const Tensor& t = ctx->input(kFirstPartition + static_cast<int>(i));
      OP_REQUIRES(ctx, types_[i] != RowPartitionType::kFirstDimSize,
                  KernelError(*this, "Cannot handle partition type FIRST_DIM_SIZE"));
      OP_REQUIRES(ctx, t.dims() == 1,
                  KernelError(*this, "row partition tensor ", i, " must be a vector, got shape ",
                              t.shape().DebugString()));
      types.push_back(types_[i]);
      parts.push_back(AsInt64s(t));
      const std::vector<int64_t>& p = parts.back();
      if (types_[i] == RowPartitionType::kRowSplits) {
        OP_REQUIRES(ctx, !p.empty(),
                    KernelError(*this, i == 0 ? "Invalid first partition input. Tensor requires "
                                                "at least one element."
                                              : "Invalid row split size."));
        bool ok = p[0] == 0;
        for (size_t k = 1; ok && k < p.size(); ++k) ok = p[k] >= p[k - 1];
        OP_REQUIRES(ctx, ok, KernelError(*this, "Invalid row split size."));
      } else {
        bool ok = true;
        for (size_t k = 0; ok && k < p.size(); ++k) ok = p[k] >= 0 && (k == 0 || p[k] >= p[k - 1]);
        OP_REQUIRES(ctx, ok,
                    KernelError(*this, "value_rowids must be non-negative and sorted (partition ",
                                i, ")"));
      }
    }

    // The number of rows.
    int64_t first_dim;
    const Tensor& first = ctx->input(kFirstPartition);
    if (first_is_size) {
      OP_REQUIRES(ctx, first.NumElements() == 1,
                  KernelError(*this, "FIRST_DIM_SIZE must be a scalar, got shape ",
                              first.shape().DebugString()));
      first_dim = AsInt64s(first)[0];
      OP_REQUIRES(ctx, first_dim >= 0,
                  KernelError(*this, "Dimension ", first_dim, " must be >= 0"));
    } else {
      OP_REQUIRES(ctx, types_[0] == RowPartitionType::kRowSplits,
                  KernelError(*this, "Cannot handle VALUE_ROWIDS in first dimension."));
      OP_REQUIRES(ctx, first.NumElements() >= 1,
                  KernelError(*this, "Invalid first partition input. Tensor requires at least "
                                     "one element."));
      first_dim = first.NumElements() - 1;
    }

    // The output shape.
    PartialTensorShape requested;
    OP_REQUIRES_OK(ctx, RequestedShape(ctx->input(kShape), &requested));
    absl::Status s = ValidateDefaultValueShape(default_value.shape(), values.shape());
    OP_REQUIRES(ctx, s.ok(), KernelError(*this, s.message()));
    auto combined = CombineRaggedTensorToTensorShapes(ragged_rank_, requested, values.shape());
    OP_REQUIRES(ctx, combined.ok(), KernelError(*this, combined.status().message()));
    std::vector<int64_t> dims(combined->dim_sizes().begin(), combined->dim_sizes().end());
    if (dims[0] < 0) dims[0] = first_dim;
    for (int k = 1; k <= ragged_rank_; ++k) {
      if (dims[k] < 0) dims[k] = MaxWidth(types[k - 1], parts[k - 1]);
    }
    auto shape = TensorShape::Build(dims);
    OP_REQUIRES(ctx, shape.ok(), KernelError(*this, shape.status().message()));

    // The elements of each level, outermost first: `count` of them, and cell[j], the output cell
    // (an index over the first ragged_rank + 1 dims) of element j, or -1 when it is dropped. Only
    // the elements the next level refers to are kept in `cell` (rows past the next partition's
    // are empty), so that a partition claiming many rows costs no memory.
    auto referenced = [&](int k) -> int64_t {  // elements of level k the next one reads
      if (k == ragged_rank_) return values.dim_size(0);
      const std::vector<int64_t>& p = parts[k];
      if (types[k] == RowPartitionType::kRowSplits) return static_cast<int64_t>(p.size()) - 1;
      return p.empty() ? 0 : p.back() + 1;
    };
    int64_t count = first_dim;
    std::vector<int64_t> cell(std::min(count, referenced(0)));
    for (size_t i = 0; i < cell.size(); ++i) {
      cell[i] = static_cast<int64_t>(i) < dims[0] ? static_cast<int64_t>(i) : -1;
    }
    for (int k = 0; k < ragged_rank_; ++k) {
      const std::vector<int64_t>& p = parts[k];
      const int64_t width = dims[k + 1];
      std::vector<int64_t> next;
      if (types[k] == RowPartitionType::kRowSplits) {
        const int64_t rows = static_cast<int64_t>(p.size()) - 1;
        OP_REQUIRES(ctx, rows <= count,
                    KernelError(*this, "Row partition size is greater than output size: ", rows,
                                " > ", count));
        count = p.back();
        next.resize(std::min(count, referenced(k + 1)));
        const int64_t kept = static_cast<int64_t>(next.size());
        for (int64_t r = 0; r < rows && p[r] < kept; ++r) {
          for (int64_t j = p[r]; j < p[r + 1] && j < kept; ++j) {
            const int64_t col = j - p[r];
            next[j] = (cell[r] >= 0 && col < width) ? cell[r] * width + col : -1;
          }
        }
      } else {
        OP_REQUIRES(ctx, p.empty() || p.back() < count,
                    KernelError(*this, "Got value_rowid=", p.back(), " which is not less than ",
                                count));
        count = static_cast<int64_t>(p.size());
        next.resize(std::min(count, referenced(k + 1)));
        int64_t col = 0;
        for (size_t j = 0; j < next.size(); ++j) {
          col = (j > 0 && p[j] == p[j - 1]) ? col + 1 : 0;
          const int64_t parent = cell[p[j]];
          next[j] = (parent >= 0 && col < width) ? parent * width + col : -1;
        }
      }
      cell.swap(next);
    }
    OP_REQUIRES(ctx, count <= values.dim_size(0),
                KernelError(*this, "the row partitions address ", count,
                            " values but there are ", values.dim_size(0)));

    // default_value broadcast to one value's shape.
    TensorShape element = values.shape();
    element.RemoveDim(0);
    BCast bcast(default_value.shape(), element);
    OP_REQUIRES(ctx, bcast.valid() && bcast.output_shape() == element,
                KernelError(*this, "Error broadcasting default_value of shape ",
                            default_value.shape().DebugString(), " to ",
                            element.DebugString()));

    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, *shape, &out));
    const std::vector<int64_t> strides = BroadcastStrides(default_value.shape(), element);
    bool ok = DispatchAll(values.dtype(), [&](auto tag) {
      using T = decltype(tag);
      std::vector<T> default_cell(element.num_elements());
      std::vector<int64_t> at(element.dims(), 0);
      for (int64_t e = 0; e < element.num_elements(); ++e) {
        int64_t src = 0;
        for (int d = 0; d < element.dims(); ++d) src += at[d] * strides[d];
        default_cell[e] = default_value.data<T>()[src];
        for (int d = element.dims() - 1; d >= 0 && ++at[d] == element.dim_size(d); --d) at[d] = 0;
      }
      FillOutput<T>(values, default_cell, cell, out);
    });
    OP_REQUIRES(ctx, ok, UnsupportedType(*this, values.dtype()));
  }

 private:
  // The shape input: a scalar -1 (unknown) or a vector whose -1 entries are unknown.
  absl::Status RequestedShape(const Tensor& t, PartialTensorShape* out) const {
    if (t.dims() > 1) {
      return KernelError(*this, "Shape must be at most rank 1 but is rank ", t.dims());
    }
    const std::vector<int64_t> dims = AsInt64s(t);
    for (int64_t d : dims) {
      if (d < -1) return KernelError(*this, "Dimension ", d, " must be >= -1");
    }
    if (t.dims() == 0) {
      if (dims[0] != -1) {
        return KernelError(*this, "The only valid scalar shape tensor is the fully unknown shape "
                                  "specified as -1.");
      }
      *out = PartialTensorShape();
      return absl::OkStatus();
    }
    *out = PartialTensorShape(dims);
    return absl::OkStatus();
  }

  std::vector<RowPartitionType> types_;
  int ragged_rank_;
};
REGISTER_KERNEL_BUILDER(Name("RaggedTensorToTensor").Device(DEVICE_CPU), RaggedTensorToTensorOp);

}  // namespace
}  // namespace sg
