// Bincount, SparseBincount and RaggedBincount, as TensorFlow's CPU kernels.
//
// Each value v of the input falls into row r of the output (always 0 for Bincount and a 1-d
// SparseBincount; the first index of a 2-d sparse tensor; the ragged row). v >= size is ignored,
// v < 0 is INVALID_ARGUMENT. output[r, v] counts the values, or sums their weights in T (in input
// order), or is 1 where a value occurs (binary_output). Weights, when not empty, match the values
// one for one (RaggedBincount, as TensorFlow's, reads the first values.size() weights of any
// shape).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/kernels/cwise_ops_common.h"

namespace sg {
namespace {

using BinTypes = TypeList<int32_t, int64_t, float, double>;

int64_t IntAt(const Tensor& t, int64_t i) {
  return t.dtype() == DT_INT64 ? t.data<int64_t>()[i] : t.data<int32_t>()[i];
}

// Reads `size` (input i): a scalar >= 0.
absl::Status ReadSize(const OpKernel& k, const Tensor& t, int64_t* size) {
  if (t.dims() != 0) return KernelError(k, "Shape must be rank 0 but is rank ", t.dims());
  *size = IntAt(t, 0);
  if (*size < 0) return KernelError(k, "size (", *size, ") must be non-negative");
  return absl::OkStatus();
}

// Fills `out` ([rows, size], already allocated) from values[i] in row row_of(i).
template <typename RowOf>
absl::Status Count(const OpKernel& k, const Tensor& values, const Tensor& weights, int64_t size,
                   bool binary, RowOf row_of, Tensor* out) {
  const bool has_weights = weights.NumElements() > 0;
  const bool ok = DispatchTypes(BinTypes(), out->dtype(), [&](auto tag) {
    using T = decltype(tag);
    T* o = out->data<T>();
    std::fill(o, o + out->NumElements(), T(0));
    const T* w = has_weights ? weights.data<T>() : nullptr;
    for (int64_t i = 0; i < values.NumElements(); ++i) {
      const int64_t v = IntAt(values, i);
      if (v >= size) continue;
      T& cell = o[row_of(i) * size + v];
      if (binary) {
        cell = T(1);
      } else if constexpr (std::is_integral_v<T>) {
        using U = std::make_unsigned_t<T>;  // integer sums wrap, as TensorFlow's do
        cell = static_cast<T>(static_cast<U>(cell) + static_cast<U>(w ? w[i] : T(1)));
      } else {
        cell += w ? w[i] : T(1);
      }
    }
  });
  return ok ? absl::OkStatus() : UnsupportedType(k, out->dtype());
}

absl::Status CheckNonNegative(const OpKernel& k, const Tensor& values, const char* what) {
  for (int64_t i = 0; i < values.NumElements(); ++i) {
    if (IntAt(values, i) < 0) {
      return KernelError(k, what, " must be non-negative, got ", IntAt(values, i), " at ", i);
    }
  }
  return absl::OkStatus();
}

class BincountOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& arr = ctx->input(0);
    const Tensor& weights = ctx->input(2);
    int64_t size;
    OP_REQUIRES_OK(ctx, ReadSize(*this, ctx->input(1), &size));
    OP_REQUIRES(ctx, weights.NumElements() == 0 || weights.shape() == arr.shape(),
                KernelError(*this, "Input arr and weights should have the same shape, got ",
                            arr.shape().DebugString(), " and ", weights.shape().DebugString()));
    OP_REQUIRES_OK(ctx, CheckNonNegative(*this, arr, "Input arr"));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({size}), &out));
    OP_REQUIRES_OK(ctx, Count(*this, arr, weights, size, false, [](int64_t) { return 0; }, out));
  }
};
REGISTER_KERNEL_BUILDER(Name("Bincount").Device(DEVICE_CPU), BincountOp);

class SparseBincountOp final : public OpKernel {
 public:
  explicit SparseBincountOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("binary_output", &binary_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& indices = ctx->input(0);
    const Tensor& values = ctx->input(1);
    const Tensor& dense_shape = ctx->input(2);
    const Tensor& weights = ctx->input(4);
    int64_t size;
    OP_REQUIRES_OK(ctx, ReadSize(*this, ctx->input(3), &size));
    OP_REQUIRES(ctx, indices.dims() == 2,
                KernelError(*this, "Input indices must be a 2-dimensional tensor. Got: ",
                            indices.shape().DebugString()));
    OP_REQUIRES(ctx, values.dims() == 1 && values.dim_size(0) == indices.dim_size(0),
                KernelError(*this, "Number of values must match first dimension of indices. "
                                   "Got values shape ",
                            values.shape().DebugString(), " and indices shape ",
                            indices.shape().DebugString()));
    OP_REQUIRES(ctx, weights.NumElements() == 0 || weights.shape() == values.shape(),
                KernelError(*this, "Weights and values must have the same shape. Weight shape: ",
                            weights.shape().DebugString(),
                            "; values shape: ", values.shape().DebugString()));
    OP_REQUIRES(ctx, dense_shape.dims() == 1,
                KernelError(*this, "dense_shape must be a vector, got shape ",
                            dense_shape.shape().DebugString()));
    const int64_t rank = dense_shape.NumElements();
    OP_REQUIRES(ctx, rank == 1 || rank == 2,
                KernelError(*this, "Input must be a 1 or 2-dimensional sparse tensor, got rank ",
                            rank));
    OP_REQUIRES(ctx, indices.dim_size(1) == rank,
                KernelError(*this, "Indices have ", indices.dim_size(1),
                            " columns for a dense_shape of rank ", rank));
    const int64_t rows = rank == 1 ? 1 : dense_shape.data<int64_t>()[0];
    OP_REQUIRES(ctx, rows >= 0,
                KernelError(*this, "dense_shape[0] = ", rows, " must be non-negative"));
    const int64_t* idx = indices.data<int64_t>();
    for (int64_t i = 0; rank == 2 && i < values.NumElements(); ++i) {
      OP_REQUIRES(ctx, idx[i * 2] >= 0 && idx[i * 2] < rows,
                  KernelError(*this, "Index ", idx[i * 2], " at indices[", i,
                              ", 0] is out of range [0, ", rows, ")"));
    }
    OP_REQUIRES_OK(ctx, CheckNonNegative(*this, values, "Input values"));
    auto shape = rank == 1 ? TensorShape::Build({size}) : TensorShape::Build({rows, size});
    OP_REQUIRES(ctx, shape.ok(), KernelError(*this, shape.status().message()));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, *shape, &out));
    OP_REQUIRES_OK(ctx, Count(*this, values, weights, size, binary_,
                              [&](int64_t i) { return rank == 1 ? 0 : idx[i * 2]; }, out));
  }

 private:
  bool binary_;
};
REGISTER_KERNEL_BUILDER(Name("SparseBincount").Device(DEVICE_CPU), SparseBincountOp);

class RaggedBincountOp final : public OpKernel {
 public:
  explicit RaggedBincountOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("binary_output", &binary_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& splits = ctx->input(0);
    const Tensor& values = ctx->input(1);
    const Tensor& weights = ctx->input(3);
    int64_t size;
    OP_REQUIRES_OK(ctx, ReadSize(*this, ctx->input(2), &size));
    OP_REQUIRES(ctx, splits.dims() == 1 && splits.NumElements() > 0,
                KernelError(*this, "Splits must be a non-empty vector, got shape ",
                            splits.shape().DebugString()));
    const int64_t* s = splits.data<int64_t>();
    const int64_t rows = splits.NumElements() - 1;
    const int64_t n = values.NumElements();
    // TensorFlow reads weights[i] for each value without checking the shape: more weights are
    // accepted (the extra ones unused), fewer would read past them and are refused.
    OP_REQUIRES(ctx, weights.NumElements() == 0 || weights.NumElements() >= n,
                KernelError(*this, "Weights and values must have the same shape. Weight shape: ",
                            weights.shape().DebugString(),
                            "; values shape: ", values.shape().DebugString()));
    OP_REQUIRES(ctx, s[0] == 0, KernelError(*this, "Splits must start with 0, not with ", s[0]));
    OP_REQUIRES(ctx, s[rows] == n,
                KernelError(*this, "Splits must end with the number of values, got ", s[rows],
                            " instead of ", n));
    OP_REQUIRES_OK(ctx, CheckNonNegative(*this, values, "Input values"));
    auto shape = TensorShape::Build({rows, size});
    OP_REQUIRES(ctx, shape.ok(), KernelError(*this, shape.status().message()));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, *shape, &out));
    // row_of[i]: the ragged row of value i, the last row whose split is <= i, found by walking
    // the splits forward as TensorFlow does (so unsorted splits give TensorFlow's rows). The walk
    // stops by splits[rows] == n > i, and starts past splits[0] == 0 <= i.
    std::vector<int64_t> row_of(n);
    int64_t next = 0;
    for (int64_t i = 0; i < n; ++i) {
      while (next <= rows && i >= s[next]) ++next;
      row_of[i] = next - 1;
    }
    OP_REQUIRES_OK(ctx, Count(*this, values, weights, size, binary_,
                              [&](int64_t i) { return row_of[i]; }, out));
  }

 private:
  bool binary_;
};
REGISTER_KERNEL_BUILDER(Name("RaggedBincount").Device(DEVICE_CPU), RaggedBincountOp);

}  // namespace
}  // namespace sg
