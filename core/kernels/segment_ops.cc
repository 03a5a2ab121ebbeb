// UnsortedSegmentSum / Prod / Max / Min, the sorted Segment{Sum,Mean,Prod,Min,Max},
// SparseSegment{Sum,Mean,SqrtN}[WithNumSegments] and DenseBincount, as TensorFlow's CPU kernels.
//
// UnsortedSegment<R>: output [num_segments] + data.shape[segment_ids.rank:]; row i of data
// (flattened over segment_ids' dims) goes into segment segment_ids[i], in order. A negative id
// drops the row; an id >= num_segments is INVALID_ARGUMENT. Integer sums and products wrap.
// Max keeps a NaN it meets until a later number replaces it (Min likewise), as TensorFlow's
// `max(value, current)` order does.
//
// Segment<R>: segment_ids is a sorted vector of ids >= 0, one per row of data; the output has
// segment_ids[-1] + 1 rows and an empty segment is 0 (1 for Prod). Rows are reduced in order in
// T itself (half and bfloat16 round after each add, integers wrap); Mean divides the sum by the
// row count in T (integer division for integers).
//
// SparseSegment<R>: as Segment<R> over the rows data[indices[j]], j in order; the output has
// num_segments rows when given. half and bfloat16 sum in float and round once, as TensorFlow's
// kernels do; Mean divides by the count, SqrtN by its square root.
//
// SparseSegment{Sum,Mean,SqrtN}Grad: the gradients of SparseSegment<R>, as TensorFlow's.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/kernels/cwise_ops_common.h"

namespace sg {
namespace {

enum class Reduce { kSum, kProd, kMax, kMin, kMean, kSqrtN };

// The unsigned type integer arithmetic of T wraps in (at least 32 bits: uint16 products promote
// to int otherwise, and overflow it).
template <typename T>
using WrapType = std::conditional_t<(sizeof(T) < 4), uint32_t, std::make_unsigned_t<T>>;

template <Reduce R, typename T>
T Identity() {
  if constexpr (R == Reduce::kSum || R == Reduce::kMean || R == Reduce::kSqrtN) return T(0);
  if constexpr (R == Reduce::kProd) return T(1);
  if constexpr (R == Reduce::kMax) return Eigen::NumTraits<T>::lowest();
  if constexpr (R == Reduce::kMin) return Eigen::NumTraits<T>::highest();
}

template <Reduce R, typename T>
inline void Accumulate(T v, T* o) {
  if constexpr (R == Reduce::kMax) {
    *o = (v < *o) ? *o : v;
  } else if constexpr (R == Reduce::kMin) {
    *o = (*o < v) ? *o : v;
  } else if constexpr (std::is_integral_v<T>) {
    using W = WrapType<T>;
    const W a = static_cast<W>(*o), b = static_cast<W>(v);
    if constexpr (R == Reduce::kProd) {
      *o = static_cast<T>(a * b);
    } else {
      *o = static_cast<T>(a + b);
    }
  } else if constexpr (R == Reduce::kProd) {
    *o = *o * v;
  } else {
    *o = *o + v;
  }
}

using SumTypes = TypeList<float, double, half, bfloat16, int32_t, int64_t, int8_t, int16_t,
                          uint8_t, uint16_t, uint32_t, uint64_t, complex64, complex128>;
using MaxTypes = TypeList<float, double, half, bfloat16, int32_t, int64_t, int8_t, int16_t,
                          uint8_t, uint16_t, uint32_t, uint64_t>;

int64_t IndexAt(const Tensor& t, int64_t i) {
  switch (t.dtype()) {
    case DT_INT16: return t.data<int16_t>()[i];
    case DT_INT32: return t.data<int32_t>()[i];
    default: return t.data<int64_t>()[i];
  }
}

// "[1,0]": the multi-index of flat element i of `shape`.
std::string MultiIndex(const TensorShape& shape, int64_t i) {
  std::vector<int64_t> at(shape.dims());
  for (int d = shape.dims() - 1; d >= 0; --d) {
    at[d] = i % shape.dim_size(d);
    i /= shape.dim_size(d);
  }
  return TensorShape(at).DebugString();
}

template <Reduce R>
class UnsortedSegmentOp final : public OpKernel {
 public:
  explicit UnsortedSegmentOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& data = ctx->input(0);
    const Tensor& ids = ctx->input(1);
    const Tensor& num = ctx->input(2);
    OP_REQUIRES(ctx, num.dims() == 0,
                KernelError(*this, "num_segments should be a scalar, not shape ",
                            num.shape().DebugString()));
    const int64_t segments = IndexAt(num, 0);
    OP_REQUIRES(ctx, segments >= 0,
                KernelError(*this, "Input num_segments == ", segments,
                            " must not be negative."));
    bool prefix = data.dims() >= ids.dims();
    for (int d = 0; prefix && d < ids.dims(); ++d) prefix = data.dim_size(d) == ids.dim_size(d);
    OP_REQUIRES(ctx, prefix,
                KernelError(*this, "data.shape = ", data.shape().DebugString(),
                            " does not start with segment_ids.shape = ",
                            ids.shape().DebugString()));
    std::vector<int64_t> dims = {segments};
    for (int d = ids.dims(); d < data.dims(); ++d) dims.push_back(data.dim_size(d));
    auto shape = TensorShape::Build(dims);
    OP_REQUIRES(ctx, shape.ok(), KernelError(*this, shape.status().message()));
    const int64_t rows = ids.NumElements();
    for (int64_t i = 0; i < rows; ++i) {
      const int64_t id = IndexAt(ids, i);
      OP_REQUIRES(ctx, id < segments,
                  KernelError(*this, "segment_ids", MultiIndex(ids.shape(), i), " = ", id,
                              " is out of range [0, ", segments, ")"));
    }
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, *shape, &out));
    const int64_t inner = rows == 0 ? 0 : data.NumElements() / rows;
    const bool ok = Dispatch(data.dtype(), [&](auto tag) {
      using T = decltype(tag);
      T* o = out->data<T>();
      const T* x = data.data<T>();
      std::fill(o, o + out->NumElements(), Identity<R, T>());
      for (int64_t i = 0; i < rows; ++i) {
        const int64_t id = IndexAt(ids, i);
        if (id < 0) continue;
        for (int64_t k = 0; k < inner; ++k) Accumulate<R>(x[i * inner + k], &o[id * inner + k]);
      }
    });
    OP_REQUIRES(ctx, ok, UnsupportedType(*this, data.dtype()));
  }

 private:
  template <typename Fn>
  static bool Dispatch(DataType dt, Fn&& fn) {
    if constexpr (R == Reduce::kSum || R == Reduce::kProd) {
      return DispatchTypes(SumTypes(), dt, fn);
    } else {
      return DispatchTypes(MaxTypes(), dt, fn);
    }
  }
};
REGISTER_KERNEL_BUILDER(Name("UnsortedSegmentSum")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", DataTypesOf(SumTypes())),
                        UnsortedSegmentOp<Reduce::kSum>);
REGISTER_KERNEL_BUILDER(Name("UnsortedSegmentProd")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", DataTypesOf(SumTypes())),
                        UnsortedSegmentOp<Reduce::kProd>);
REGISTER_KERNEL_BUILDER(Name("UnsortedSegmentMax")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", DataTypesOf(MaxTypes())),
                        UnsortedSegmentOp<Reduce::kMax>);
REGISTER_KERNEL_BUILDER(Name("UnsortedSegmentMin")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", DataTypesOf(MaxTypes())),
                        UnsortedSegmentOp<Reduce::kMin>);

// ---- Segment<R> and SparseSegment<R> (sorted segment ids) -----------------------------------

// The value an empty segment of the sorted reductions holds: 1 for Prod, else 0.
template <Reduce R, typename T>
T EmptySegmentValue() {
  return R == Reduce::kProd ? T(1) : T(0);
}

// The type SparseSegment<R> sums in: float for half and bfloat16, T otherwise.
template <typename T>
using SparseAccumType =
    std::conditional_t<std::is_same_v<T, half> || std::is_same_v<T, bfloat16>, float, T>;

// Checks that `ids` (a vector, n entries) is sorted with every id in [0, rows): the error
// TensorFlow gives for the first id that is not.
absl::Status CheckSortedIds(const OpKernel& k, const Tensor& ids, int64_t rows) {
  int64_t prev = 0;
  for (int64_t i = 0; i < ids.NumElements(); ++i) {
    const int64_t id = IndexAt(ids, i);
    if (i > 0 && id < prev) return KernelError(k, "segment ids are not increasing");
    if (id < 0 || id >= rows) {
      return KernelError(k, "Segment id ", id, " out of range [0, ", rows,
                         "), possibly because 'segment_ids' input is not sorted.");
    }
    prev = id;
  }
  return absl::OkStatus();
}

// [rows] + data.shape[1:].
absl::StatusOr<TensorShape> SegmentOutputShape(const Tensor& data, int64_t rows) {
  std::vector<int64_t> dims = {rows};
  for (int d = 1; d < data.dims(); ++d) dims.push_back(data.dim_size(d));
  return TensorShape::Build(dims);
}

template <Reduce R>
class SegmentOp final : public OpKernel {
 public:
  explicit SegmentOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& data = ctx->input(0);
    const Tensor& ids = ctx->input(1);
    OP_REQUIRES(ctx, data.dims() >= 1, KernelError(*this, "input must be at least rank 1"));
    OP_REQUIRES(ctx, ids.dims() == 1, KernelError(*this, "segment_ids should be a vector."));
    const int64_t n = ids.NumElements();
    OP_REQUIRES(ctx, n == data.dim_size(0),
                KernelError(*this, "segment_ids should be the same size as dimension 0 of "
                                   "input."));
    const int64_t last = n > 0 ? IndexAt(ids, n - 1) : -1;
    OP_REQUIRES(ctx, n == 0 || last >= 0, KernelError(*this, "segment ids must be >= 0"));
    OP_REQUIRES(ctx, last < kMaxTensorElements,
                KernelError(*this, "segment id ", last, " is too large"));
    const int64_t rows = last + 1;
    OP_REQUIRES_OK(ctx, CheckSortedIds(*this, ids, rows));
    auto shape = SegmentOutputShape(data, rows);
    OP_REQUIRES(ctx, shape.ok(), KernelError(*this, shape.status().message()));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, *shape, &out));
    const int64_t inner = n == 0 ? 0 : data.NumElements() / n;
    const bool ok = Dispatch(data.dtype(), [&](auto tag) {
      using T = decltype(tag);
      T* o = out->data<T>();
      const T* x = data.data<T>();
      std::fill(o, o + out->NumElements(), EmptySegmentValue<R, T>());
      // Each run of equal ids is one segment.
      for (int64_t begin = 0, end; begin < n; begin = end) {
        const int64_t id = IndexAt(ids, begin);
        for (end = begin + 1; end < n && IndexAt(ids, end) == id; ++end) {
        }
        T* row = o + id * inner;
        std::fill(row, row + inner, Identity<R, T>());
        for (int64_t i = begin; i < end; ++i) {
          for (int64_t k = 0; k < inner; ++k) Accumulate<R>(x[i * inner + k], &row[k]);
        }
        if constexpr (R == Reduce::kMean) {
          const T count = static_cast<T>(end - begin);
          // An integer count that wraps to 0 in T (over 255 rows of uint8) cannot divide.
          for (int64_t k = 0; k < inner; ++k) row[k] = count == T(0) ? T(0) : row[k] / count;
        }
      }
    });
    OP_REQUIRES(ctx, ok, UnsupportedType(*this, data.dtype()));
  }

 private:
  template <typename Fn>
  static bool Dispatch(DataType dt, Fn&& fn) {
    if constexpr (R == Reduce::kMax || R == Reduce::kMin) {
      return DispatchTypes(MaxTypes(), dt, fn);
    } else {
      return DispatchTypes(SumTypes(), dt, fn);
    }
  }
};
REGISTER_KERNEL_BUILDER(Name("SegmentSum")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", DataTypesOf(SumTypes())),
                        SegmentOp<Reduce::kSum>);
REGISTER_KERNEL_BUILDER(Name("SegmentMean")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", DataTypesOf(SumTypes())),
                        SegmentOp<Reduce::kMean>);
REGISTER_KERNEL_BUILDER(Name("SegmentProd")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", DataTypesOf(SumTypes())),
                        SegmentOp<Reduce::kProd>);
REGISTER_KERNEL_BUILDER(Name("SegmentMax")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", DataTypesOf(MaxTypes())),
                        SegmentOp<Reduce::kMax>);
REGISTER_KERNEL_BUILDER(Name("SegmentMin")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", DataTypesOf(MaxTypes())),
                        SegmentOp<Reduce::kMin>);

using SparseMeanTypes = TypeList<float, double, half, bfloat16>;

// R is kSum, kMean or kSqrtN; with_num_segments reads input 3.
template <Reduce R>
class SparseSegmentOp final : public OpKernel {
 public:
  explicit SparseSegmentOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    with_num_segments_ = ctx->num_inputs() == 4;
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& data = ctx->input(0);
    const Tensor& indices = ctx->input(1);
    const Tensor& ids = ctx->input(2);
    OP_REQUIRES(ctx, indices.dims() == 1, KernelError(*this, "indices should be a vector."));
    OP_REQUIRES(ctx, ids.dims() == 1, KernelError(*this, "segment_ids should be a vector."));
    const int64_t n = indices.NumElements();
    OP_REQUIRES(ctx, ids.NumElements() == n,
                KernelError(*this, "segment_ids and indices should have same size."));
    OP_REQUIRES(ctx, data.dims() >= 1,
                KernelError(*this, "data must be at least rank 1, got shape ",
                            data.shape().DebugString()));
    const int64_t last = n > 0 ? IndexAt(ids, n - 1) : -1;
    int64_t rows;
    if (with_num_segments_) {
      const Tensor& num = ctx->input(3);
      OP_REQUIRES(ctx, num.dims() == 0,
                  KernelError(*this, "num_segments should be a scalar, not shape ",
                              num.shape().DebugString()));
      rows = IndexAt(num, 0);
      OP_REQUIRES(ctx, rows >= 0,
                  KernelError(*this, "num_segments must be >= 0, got ", rows));
      OP_REQUIRES(ctx, last < rows, KernelError(*this, "segment ids must be < num_segments"));
    } else {
      OP_REQUIRES(ctx, n == 0 || last >= 0, KernelError(*this, "segment ids must be >= 0"));
      OP_REQUIRES(ctx, last < kMaxTensorElements,
                  KernelError(*this, "segment id ", last, " is too large"));
      rows = last + 1;
    }
    OP_REQUIRES_OK(ctx, CheckSortedIds(*this, ids, rows));
    const int64_t limit = data.dim_size(0);
    for (int64_t j = 0; j < n; ++j) {
      const int64_t index = IndexAt(indices, j);
      OP_REQUIRES(ctx, index >= 0 && index < limit,
                  KernelError(*this, "Bad: indices[", j, "] == ", index, " out of range [0, ",
                              limit, ")"));
    }
    auto shape = SegmentOutputShape(data, rows);
    OP_REQUIRES(ctx, shape.ok(), KernelError(*this, shape.status().message()));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, *shape, &out));
    int64_t inner = 1;
    for (int d = 1; d < data.dims(); ++d) inner *= data.dim_size(d);
    const bool ok = Dispatch(data.dtype(), [&](auto tag) {
      using T = decltype(tag);
      using A = SparseAccumType<T>;
      T* o = out->data<T>();
      const T* x = data.data<T>();
      std::fill(o, o + out->NumElements(), T(0));
      std::vector<A> acc(inner);
      for (int64_t begin = 0, end; begin < n; begin = end) {
        const int64_t id = IndexAt(ids, begin);
        for (end = begin + 1; end < n && IndexAt(ids, end) == id; ++end) {
        }
        std::fill(acc.begin(), acc.end(), A(0));
        for (int64_t j = begin; j < end; ++j) {
          const T* src = x + IndexAt(indices, j) * inner;
          for (int64_t k = 0; k < inner; ++k) {
            Accumulate<Reduce::kSum>(static_cast<A>(src[k]), &acc[k]);
          }
        }
        T* row = o + id * inner;
        if constexpr (R == Reduce::kSum) {
          for (int64_t k = 0; k < inner; ++k) row[k] = static_cast<T>(acc[k]);
        } else {
          const A count = static_cast<A>(end - begin);
          const A scale = R == Reduce::kMean ? count : std::sqrt(count);
          for (int64_t k = 0; k < inner; ++k) row[k] = static_cast<T>(acc[k] / scale);
        }
      }
    });
    OP_REQUIRES(ctx, ok, UnsupportedType(*this, data.dtype()));
  }

 private:
  template <typename Fn>
  static bool Dispatch(DataType dt, Fn&& fn) {
    if constexpr (R == Reduce::kSum) {
      return DispatchTypes(MaxTypes(), dt, fn);
    } else {
      return DispatchTypes(SparseMeanTypes(), dt, fn);
    }
  }

  bool with_num_segments_;
};
REGISTER_KERNEL_BUILDER(Name("SparseSegmentSum")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", DataTypesOf(MaxTypes())),
                        SparseSegmentOp<Reduce::kSum>);
REGISTER_KERNEL_BUILDER(Name("SparseSegmentSumWithNumSegments")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", DataTypesOf(MaxTypes())),
                        SparseSegmentOp<Reduce::kSum>);
REGISTER_KERNEL_BUILDER(Name("SparseSegmentMean").Device(DEVICE_CPU),
                        SparseSegmentOp<Reduce::kMean>);
REGISTER_KERNEL_BUILDER(Name("SparseSegmentMeanWithNumSegments").Device(DEVICE_CPU),
                        SparseSegmentOp<Reduce::kMean>);
REGISTER_KERNEL_BUILDER(Name("SparseSegmentSqrtN").Device(DEVICE_CPU),
                        SparseSegmentOp<Reduce::kSqrtN>);
REGISTER_KERNEL_BUILDER(Name("SparseSegmentSqrtNWithNumSegments").Device(DEVICE_CPU),
                        SparseSegmentOp<Reduce::kSqrtN>);

// ---- SparseSegment<R>Grad --------------------------------------------------------------------

// grad [num_segments, ...], indices and segment_ids [N] (sorted ids), output_dim0 M (the rows of
// the forward op's data) in; output [M, ...] out: row indices[j] accumulates
// grad[segment_ids[j]] * scale, j in order, in T (half and bfloat16 round after each multiply
// and add, as TensorFlow's kernel). scale is 1 (Sum), 1 / count (Mean) or 1 / sqrt(count)
// (SqrtN) with count the ids equal to segment_ids[j], computed in double and cast to T.
// A scale of exactly 1 adds the row unmultiplied. Rows no index names are 0.
template <Reduce R>
class SparseSegmentGradOp final : public OpKernel {
 public:
  explicit SparseSegmentGradOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& grad = ctx->input(0);
    const Tensor& indices = ctx->input(1);
    const Tensor& ids = ctx->input(2);
    const Tensor& dim0 = ctx->input(3);
    OP_REQUIRES(ctx, indices.dims() == 1, KernelError(*this, "indices should be a vector."));
    OP_REQUIRES(ctx, ids.dims() == 1, KernelError(*this, "segment_ids should be a vector."));
    OP_REQUIRES(ctx, dim0.dims() == 0, KernelError(*this, "output_dim0 should be a scalar."));
    const int64_t n = indices.NumElements();
    OP_REQUIRES(ctx, ids.NumElements() == n,
                KernelError(*this, "segment_ids and indices should have same size."));
    const int64_t m = dim0.data<int32_t>()[0];
    OP_REQUIRES(ctx, grad.dims() >= 1,
                KernelError(*this, "grad must be at least rank 1, got shape ",
                            grad.shape().DebugString()));
    OP_REQUIRES(ctx, m >= 0, KernelError(*this, "output_dim0 must be >= 0, got ", m));
    std::vector<int64_t> dims(grad.shape().dim_sizes().begin(), grad.shape().dim_sizes().end());
    dims[0] = m;
    auto shape = TensorShape::Build(dims);
    OP_REQUIRES(ctx, shape.ok(), KernelError(*this, shape.status().message()));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, *shape, &out));
    if (m == 0) return;
    if (n == 0) {  // TensorFlow leaves the output unwritten here; sg returns zeros
      std::memset(out->raw_data(), 0, out->NumElements() * DataTypeSize(out->dtype()));
      return;
    }
    const int64_t segments = grad.dim_size(0);
    OP_REQUIRES(ctx, IndexAt(ids, n - 1) < segments,
                KernelError(*this, "Invalid number of segments"));
    std::vector<double> scale;
    if constexpr (R != Reduce::kSum) {
      scale.assign(segments, 0.0);
      for (int64_t j = 0; j < n; ++j) {
        const int64_t id = IndexAt(ids, j);
        OP_REQUIRES(ctx, id >= 0 && id < segments,
                    KernelError(*this, "Segment id ", id, " out of range [0, ", segments,
                                ")."));
        scale[id] += 1;
      }
      for (double& c : scale) {
        c = R == Reduce::kMean ? 1.0 / std::max(c, 1.0) : 1.0 / std::sqrt(std::max(c, 1.0));
      }
    }
    int64_t inner = 1;
    for (int d = 1; d < grad.dims(); ++d) inner *= grad.dim_size(d);
    const bool ok = DispatchTypes(SparseMeanTypes(), grad.dtype(), [&](auto tag) {
      using T = decltype(tag);
      T* o = out->data<T>();
      const T* g = grad.data<T>();
      std::fill(o, o + out->NumElements(), T(0));
      std::vector<bool> written(m, false);
      for (int64_t j = 0; j < n; ++j) {
        const int64_t row = IndexAt(indices, j);
        OP_REQUIRES(ctx, row >= 0 && row < m,
                    KernelError(*this, "Index ", row, " out of range [0, ", m, ")."));
        const int64_t id = IndexAt(ids, j);
        OP_REQUIRES(ctx, id >= 0 && id < segments,
                    KernelError(*this, "Segment id ", id, " out of range [0, ", segments,
                                ")."));
        const T k = R == Reduce::kSum ? T(1) : static_cast<T>(scale[id]);
        const bool unit = k == T(1);
        const T* src = g + id * inner;
        T* dst = o + row * inner;
        for (int64_t i = 0; i < inner; ++i) {
          const T v = unit ? src[i] : static_cast<T>(src[i] * k);
          dst[i] = written[row] ? static_cast<T>(dst[i] + v) : v;
        }
        written[row] = true;
      }
    });
    OP_REQUIRES(ctx, ok, UnsupportedType(*this, grad.dtype()));
  }
};
REGISTER_KERNEL_BUILDER(Name("SparseSegmentSumGrad").Device(DEVICE_CPU),
                        SparseSegmentGradOp<Reduce::kSum>);
REGISTER_KERNEL_BUILDER(Name("SparseSegmentMeanGrad").Device(DEVICE_CPU),
                        SparseSegmentGradOp<Reduce::kMean>);
REGISTER_KERNEL_BUILDER(Name("SparseSegmentSqrtNGrad").Device(DEVICE_CPU),
                        SparseSegmentGradOp<Reduce::kSqrtN>);

// ---- DenseBincount --------------------------------------------------------------------------

// output[b] (vector input) or output[r, b] (matrix input, per row) counts the values equal to b
// in [0, size), or sums their weights; binary_output writes 1 wherever a count would be > 0.
// Values >= size are ignored; a negative value is INVALID_ARGUMENT.
class DenseBincountOp final : public OpKernel {
 public:
  explicit DenseBincountOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("binary_output", &binary_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    const Tensor& size_in = ctx->input(1);
    const Tensor& weights = ctx->input(2);
    OP_REQUIRES(ctx, size_in.dims() == 0,
                KernelError(*this, "Shape must be rank 0 but is rank ", size_in.dims()));
    const int64_t size = IndexAt(size_in, 0);
    OP_REQUIRES(ctx, size >= 0, KernelError(*this, "size (", size, ") must be non-negative"));
    OP_REQUIRES(ctx, in.dims() <= 2,
                KernelError(*this, "Shape must be at most rank 2 but is rank ", in.dims()));
    const bool has_weights = weights.NumElements() > 0;
    OP_REQUIRES(ctx, !has_weights || weights.shape() == in.shape(),
                KernelError(*this, "`weights` must be the same shape as `arr` or a length-0 "
                                   "`Tensor`, in which case it acts as all weights equal to 1. "
                                   "Received ",
                            weights.shape().DebugString()));
    const int64_t rows = in.dims() == 2 ? in.dim_size(0) : 1;
    const int64_t cols = in.dims() == 2 ? in.dim_size(1) : in.NumElements();
    for (int64_t i = 0; i < in.NumElements(); ++i) {
      const int64_t v = IndexAt(in, i);
      OP_REQUIRES(ctx, v >= 0,
                  in.dims() == 2
                      ? KernelError(*this, "Input 'in' must be non-negative! Negative input "
                                           "value found: ",
                                    v)
                      : KernelError(*this, "Input arr must be non-negative!"));
    }
    auto shape = in.dims() == 2 ? TensorShape::Build({rows, size}) : TensorShape::Build({size});
    OP_REQUIRES(ctx, shape.ok(), KernelError(*this, shape.status().message()));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, *shape, &out));
    const bool ok = DispatchTypes(TypeList<int32_t, int64_t, float, double>(),
                                  out->dtype(), [&](auto tag) {
      using T = decltype(tag);
      T* o = out->data<T>();
      std::fill(o, o + out->NumElements(), T(0));
      const T* w = has_weights ? weights.data<T>() : nullptr;
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t c = 0; c < cols; ++c) {
          const int64_t i = r * cols + c;
          const int64_t v = IndexAt(in, i);
          if (v >= size) continue;
          T& cell = o[r * size + v];
          if (binary_) {
            cell = T(1);
          } else {
            Accumulate<Reduce::kSum>(w != nullptr ? w[i] : T(1), &cell);
          }
        }
      }
    });
    OP_REQUIRES(ctx, ok, UnsupportedType(*this, out->dtype()));
  }

 private:
  bool binary_;
};
REGISTER_KERNEL_BUILDER(Name("DenseBincount").Device(DEVICE_CPU), DenseBincountOp);

}  // namespace
}  // namespace sg
