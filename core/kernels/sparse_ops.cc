// SparseToDense, SparseReshape, SparseFillEmptyRows and SparseFillEmptyRowsGrad, as
// TensorFlow's CPU kernels.
//
// SparseToDense: the output starts as default_value everywhere; each index (row i of a [N, rank]
// matrix, element i of a vector for a rank-1 output, or the scalar itself) receives
// sparse_values[i] (or the scalar sparse_values), in order, so a repeated index keeps the last
// value. An index outside output_shape is always INVALID_ARGUMENT; with validate_indices the
// indices must also be strictly increasing in row-major order.
//
// SparseReshape: each index is linearized in input_shape and split again in the new shape.
//
// SparseFillEmptyRows: the output lists the entries row by row (entries of one row in their input
// order); a row no entry falls in gets one entry [row, 0, ..., 0] holding default_value.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "core/framework/op_kernel.h"
#include "core/kernels/cwise_ops_common.h"
#include "core/kernels/element_copy.h"

namespace sg {
namespace {

int64_t IntAt(const Tensor& t, int64_t i) {
  return t.dtype() == DT_INT64 ? t.data<int64_t>()[i] : t.data<int32_t>()[i];
}

// "[a,b,c]": an index or shape in an error message.
std::string IndexString(const int64_t* idx, int64_t n) {
  return "[" + absl::StrJoin(idx, idx + n, ",") + "]";
}

// ---- SparseToDense --------------------------------------------------------------------------

class SparseToDenseOp final : public OpKernel {
 public:
  explicit SparseToDenseOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("validate_indices", &validate_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& indices = ctx->input(0);
    const Tensor& shape_in = ctx->input(1);
    const Tensor& values = ctx->input(2);
    const Tensor& def = ctx->input(3);
    OP_REQUIRES(ctx, indices.dims() <= 2,
                KernelError(*this, "sparse_indices should be a scalar, vector, or matrix, got "
                                   "shape ",
                            indices.shape().DebugString()));
    OP_REQUIRES(ctx, shape_in.dims() == 1,
                KernelError(*this, "output_shape should be a vector, got shape ",
                            shape_in.shape().DebugString()));
    const int64_t n = indices.dims() > 0 ? indices.dim_size(0) : 1;
    const int64_t rank = indices.dims() > 1 ? indices.dim_size(1) : 1;
    OP_REQUIRES(ctx,
                values.dims() == 0 || (values.dims() == 1 && values.NumElements() == n),
                KernelError(*this, "sparse_values has incorrect shape ",
                            values.shape().DebugString(), ", should be [] or [", n, "]"));
    OP_REQUIRES(ctx, def.dims() == 0,
                KernelError(*this, "default_value should be a scalar, got shape ",
                            def.shape().DebugString()));
    OP_REQUIRES(ctx, shape_in.NumElements() == rank,
                KernelError(*this, "output_shape has incorrect number of elements: ",
                            shape_in.NumElements(), " should be: ", rank));
    std::vector<int64_t> dims(rank);
    for (int64_t d = 0; d < rank; ++d) dims[d] = IntAt(shape_in, d);
    auto shape = TensorShape::Build(dims);
    OP_REQUIRES(ctx, shape.ok(), KernelError(*this, shape.status().message()));

    // Flat offsets of every index, checked before anything is written.
    std::vector<int64_t> offsets(n);
    std::vector<int64_t> idx(rank), prev(rank);
    for (int64_t i = 0; i < n; ++i) {
      int64_t flat = 0;
      for (int64_t d = 0; d < rank; ++d) {
        idx[d] = IntAt(indices, i * rank + d);
        OP_REQUIRES(ctx, idx[d] >= 0 && idx[d] < dims[d],
                    KernelError(*this, "indices[", i, "] = ", IndexString(idx.data(), d + 1),
                                " is out of bounds: need 0 <= index < ",
                                IndexString(dims.data(), rank)));
        flat = flat * dims[d] + idx[d];
      }
      if (validate_ && i > 0) {
        const int cmp = std::lexicographical_compare(prev.begin(), prev.end(), idx.begin(),
                                                     idx.end())
                            ? -1
                            : (prev == idx ? 0 : 1);
        OP_REQUIRES(ctx, cmp != 0,
                    KernelError(*this, "indices[", i, "] = ", IndexString(idx.data(), rank),
                                " is repeated"));
        OP_REQUIRES(ctx, cmp < 0,
                    KernelError(*this, "indices[", i, "] = ", IndexString(idx.data(), rank),
                                " is out of order. Many sparse ops require sorted indices. Use "
                                "`tf.sparse.reorder` to create a correctly ordered copy."));
      }
      prev.swap(idx);
      offsets[i] = flat;
    }

    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, *shape, &out));
    const bool scalar_values = values.dims() == 0;
    const bool ok = DispatchByCopy(out->dtype(), [&](auto tag) {
      using T = decltype(tag);
      T* o = static_cast<T*>(out->raw_data());
      const T* v = static_cast<const T*>(values.raw_data());
      std::fill(o, o + out->NumElements(), *static_cast<const T*>(def.raw_data()));
      for (int64_t i = 0; i < n; ++i) o[offsets[i]] = v[scalar_values ? 0 : i];
    });
    OP_REQUIRES(ctx, ok, UnsupportedType(*this, out->dtype()));
  }

 private:
  bool validate_;
};
REGISTER_KERNEL_BUILDER(Name("SparseToDense").Device(DEVICE_CPU), SparseToDenseOp);

// ---- SparseReshape --------------------------------------------------------------------------

class SparseReshapeOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& indices = ctx->input(0);
    const Tensor& in_shape = ctx->input(1);
    const Tensor& target = ctx->input(2);
    OP_REQUIRES(ctx, indices.dims() == 2,
                KernelError(*this, "Input indices should be a matrix but received shape ",
                            indices.shape().DebugString()));
    OP_REQUIRES(ctx, in_shape.dims() == 1,
                KernelError(*this, "Input shape should be a vector but received shape ",
                            in_shape.shape().DebugString()));
    OP_REQUIRES(ctx, target.dims() == 1,
                KernelError(*this, "Target shape should be a vector but received shape ",
                            target.shape().DebugString()));
    const int64_t n = indices.dim_size(0);
    const int64_t in_rank = in_shape.NumElements();
    const int64_t out_rank = target.NumElements();
    OP_REQUIRES(ctx, indices.dim_size(1) == in_rank,
                KernelError(*this, "Input tensor rank must match input shape length, but ",
                            indices.dim_size(1), " != ", in_rank));
    const int64_t* in_dims = in_shape.data<int64_t>();
    // The dense element count, saturating: a count past int64 can match no target shape.
    int64_t dense = 1;
    for (int64_t d = 0; d < in_rank; ++d) {
      OP_REQUIRES(ctx, in_dims[d] >= 0,
                  KernelError(*this, "Input shape has a negative dimension: ",
                              IndexString(in_dims, in_rank)));
      dense = (in_dims[d] != 0 && dense > std::numeric_limits<int64_t>::max() / in_dims[d])
                  ? std::numeric_limits<int64_t>::max()
                  : dense * in_dims[d];
    }
    std::vector<int64_t> out_dims(target.data<int64_t>(), target.data<int64_t>() + out_rank);
    int64_t unknown = -1, product = 1;
    for (int64_t d = 0; d < out_rank; ++d) {
      const int64_t s = out_dims[d];
      if (s == -1) {
        OP_REQUIRES(ctx, unknown == -1,
                    KernelError(*this, "only one output dimension may be -1, not both ",
                                unknown, " and ", d));
        unknown = d;
        continue;
      }
      OP_REQUIRES(ctx, s >= 0, KernelError(*this, "size ", d, " must be non-negative, not ", s));
      OP_REQUIRES(ctx, s == 0 || product <= std::numeric_limits<int64_t>::max() / s,
                  KernelError(*this, "Target shape ", IndexString(out_dims.data(), out_rank),
                              " has too many elements"));
      product *= s;
    }
    if (unknown != -1) {
      OP_REQUIRES(ctx, product > 0,
                  KernelError(*this, "Reshape cannot infer the missing input size for an empty "
                                     "tensor unless all specified input sizes are non-zero"));
      const int64_t missing = dense / product;
      OP_REQUIRES(ctx, missing * product == dense,
                  KernelError(*this, "Input to reshape is a SparseTensor with ", dense,
                              " dense values, but the requested shape requires a multiple of ",
                              product, ". inputShape=", IndexString(in_dims, in_rank),
                              " outputShape=", IndexString(out_dims.data(), out_rank)));
      out_dims[unknown] = missing;
    } else {
      OP_REQUIRES(ctx, product == dense,
                  KernelError(*this, "Input to reshape is a tensor with ", dense,
                              " dense values, but the requested shape has ", product,
                              ". inputShape=", IndexString(in_dims, in_rank),
                              " outputShape=", IndexString(out_dims.data(), out_rank)));
    }

    Tensor* shape_out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, TensorShape({out_rank}), &shape_out));
    std::copy(out_dims.begin(), out_dims.end(), shape_out->data<int64_t>());
    Tensor* idx_out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({n, out_rank}), &idx_out));
    const int64_t* in = indices.data<int64_t>();
    int64_t* o = idx_out->data<int64_t>();
    // Unsigned arithmetic: an index outside input_shape gives some index, never overflow.
    for (int64_t i = 0; i < n; ++i) {
      uint64_t flat = 0;
      for (int64_t d = 0; d < in_rank; ++d) {
        flat = flat * static_cast<uint64_t>(in_dims[d]) + static_cast<uint64_t>(in[i * in_rank + d]);
      }
      for (int64_t d = out_rank - 1; d >= 0; --d) {
        const uint64_t s = static_cast<uint64_t>(out_dims[d]);
        if (s == 0) {
          o[i * out_rank + d] = 0;
          continue;
        }
        o[i * out_rank + d] = static_cast<int64_t>(d == 0 ? flat : flat % s);
        flat /= s;
      }
    }
  }
};
REGISTER_KERNEL_BUILDER(Name("SparseReshape").Device(DEVICE_CPU), SparseReshapeOp);

// ---- SparseFillEmptyRows --------------------------------------------------------------------

class SparseFillEmptyRowsOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& indices = ctx->input(0);
    const Tensor& values = ctx->input(1);
    const Tensor& dense_shape = ctx->input(2);
    const Tensor& def = ctx->input(3);
    OP_REQUIRES(ctx, indices.dims() == 2,
                KernelError(*this, "indices must be a matrix, got shape ",
                            indices.shape().DebugString()));
    OP_REQUIRES(ctx, values.dims() == 1,
                KernelError(*this, "values must be a vector, got shape ",
                            values.shape().DebugString()));
    OP_REQUIRES(ctx, dense_shape.dims() == 1,
                KernelError(*this, "dense_shape must be a vector, got shape ",
                            dense_shape.shape().DebugString()));
    OP_REQUIRES(ctx, def.dims() == 0,
                KernelError(*this, "default_value must be a scalar, got shape ",
                            def.shape().DebugString()));
    const int64_t n = indices.dim_size(0);
    const int64_t rank = indices.dim_size(1);
    OP_REQUIRES(ctx, values.dim_size(0) == n,
                KernelError(*this, "The length of `values` (", values.dim_size(0),
                            ") must match the first dimension of `indices` (", n, ")"));
    OP_REQUIRES(ctx, dense_shape.NumElements() != 0,
                KernelError(*this, "Dense shape cannot be empty."));
    OP_REQUIRES(ctx, dense_shape.NumElements() == rank,
                KernelError(*this, "The length of `dense_shape` (", dense_shape.NumElements(),
                            ") must match the second dimension of `indices` (", rank, ")"));
    const int64_t rows = dense_shape.data<int64_t>()[0];
    OP_REQUIRES(ctx, rows >= 0,
                KernelError(*this, "dense_shape[0] = ", rows, " must be non-negative"));
    OP_REQUIRES(ctx, rows > 0 || n == 0,
                KernelError(*this, "Received SparseTensor with dense_shape[0] = 0 but "
                                   "indices.shape[0] = ",
                            n));
    // Allocated first: a huge dense_shape[0] fails here, as an allocation error, not below.
    Tensor* empty;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(2, TensorShape({rows}), &empty));
    const int64_t* in = indices.data<int64_t>();
    // count[r]: entries in row r (an empty row still takes one output slot).
    std::vector<int64_t> count(rows, 0);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t r = in[i * rank];
      OP_REQUIRES(ctx, r >= 0 && r < rows,
                  KernelError(*this, "indices(", i, ", 0) is invalid: ", r, " is not in [0, ",
                              rows, ")"));
      ++count[r];
    }
    std::vector<int64_t> start(rows);
    int64_t total = 0;
    for (int64_t r = 0; r < rows; ++r) {
      empty->data<bool>()[r] = count[r] == 0;
      start[r] = total;
      total += std::max<int64_t>(count[r], 1);
    }
    Tensor *idx_out, *val_out, *reverse;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({total, rank}), &idx_out));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, TensorShape({total}), &val_out));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(3, TensorShape({n}), &reverse));
    int64_t* oi = idx_out->data<int64_t>();
    int64_t* rev = reverse->data<int64_t>();
    std::vector<int64_t> next = start;
    for (int64_t i = 0; i < n; ++i) {
      const int64_t pos = next[in[i * rank]]++;
      rev[i] = pos;
      std::copy(in + i * rank, in + (i + 1) * rank, oi + pos * rank);
    }
    for (int64_t r = 0; r < rows; ++r) {
      if (count[r] != 0) continue;
      int64_t* row = oi + start[r] * rank;
      std::fill(row, row + rank, 0);
      row[0] = r;
    }
    const bool ok = DispatchByCopy(values.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const T* v = static_cast<const T*>(values.raw_data());
      T* o = static_cast<T*>(val_out->raw_data());
      const T d = *static_cast<const T*>(def.raw_data());
      for (int64_t r = 0; r < rows; ++r) {
        if (count[r] == 0) o[start[r]] = d;
      }
      for (int64_t i = 0; i < n; ++i) o[rev[i]] = v[i];
    });
    OP_REQUIRES(ctx, ok, UnsupportedType(*this, values.dtype()));
  }
};
REGISTER_KERNEL_BUILDER(Name("SparseFillEmptyRows").Device(DEVICE_CPU), SparseFillEmptyRowsOp);

// Every number type: TensorFlow's SparseFillEmptyRowsGrad kernel takes no bool or string.
using NumberTypes = TypeList<float, double, half, bfloat16, int8_t, int16_t, int32_t, int64_t,
                             uint8_t, uint16_t, uint32_t, uint64_t, complex64, complex128>;

// SparseFillEmptyRowsGrad: reverse_index_map [N] (SparseFillEmptyRows' output 3) and
// grad_values [N_full] (the gradient of its output values) in; d_values [N] =
// grad_values[reverse_index_map], and the scalar d_default_value sums, in order and in T, the
// gradients of the entries no input entry went to (the filled-in ones).
class SparseFillEmptyRowsGradOp final : public OpKernel {
 public:
  explicit SparseFillEmptyRowsGradOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& map = ctx->input(0);
    const Tensor& grad = ctx->input(1);
    OP_REQUIRES(ctx, map.dims() == 1,
                KernelError(*this, "reverse_index_map must be a vector, saw: ",
                            map.shape().DebugString()));
    OP_REQUIRES(ctx, grad.dims() == 1,
                KernelError(*this, "grad_values must be a vector, saw: ",
                            grad.shape().DebugString()));
    const int64_t n = map.NumElements(), n_full = grad.NumElements();
    Tensor *d_values, *d_default;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({n}), &d_values));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, TensorShape({}), &d_default));
    const int64_t* rev = map.data<int64_t>();
    std::vector<bool> visited(n_full, false);
    for (int64_t i = 0; i < n; ++i) {
      OP_REQUIRES(ctx, rev[i] >= 0 && rev[i] < n_full,
                  KernelError(*this, "Elements in reverse index must be in [0, ", n_full,
                              ") but got ", rev[i]));
      visited[rev[i]] = true;
    }
    const bool ok = DispatchTypes(NumberTypes(), grad.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const T* g = grad.data<T>();
      T* d = d_values->data<T>();
      for (int64_t i = 0; i < n; ++i) d[i] = g[rev[i]];
      T sum = T(0);
      for (int64_t j = 0; j < n_full; ++j) {
        if (!visited[j]) sum = static_cast<T>(sum + g[j]);
      }
      d_default->data<T>()[0] = sum;
    });
    OP_REQUIRES(ctx, ok, UnsupportedType(*this, grad.dtype()));
  }
};
REGISTER_KERNEL_BUILDER(Name("SparseFillEmptyRowsGrad")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", DataTypesOf(NumberTypes())),
                        SparseFillEmptyRowsGradOp);

}  // namespace
}  // namespace sg
