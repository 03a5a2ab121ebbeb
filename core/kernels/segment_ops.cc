// UnsortedSegmentSum / Prod / Max / Min and DenseBincount, as TensorFlow's CPU kernels.
//
// UnsortedSegment<R>: output [num_segments] + data.shape[segment_ids.rank:]; row i of data
// (flattened over segment_ids' dims) goes into segment segment_ids[i], in order. A negative id
// drops the row; an id >= num_segments is INVALID_ARGUMENT. Integer sums and products wrap.
// Max keeps a NaN it meets until a later number replaces it (Min likewise), as TensorFlow's
// `max(value, current)` order does.
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/kernels/cwise_ops_common.h"

namespace sg {
namespace {

enum class Reduce { kSum, kProd, kMax, kMin };

// The unsigned type integer arithmetic of T wraps in (at least 32 bits: uint16 products promote
// to int otherwise, and overflow it).
template <typename T>
using WrapType = std::conditional_t<(sizeof(T) < 4), uint32_t, std::make_unsigned_t<T>>;

template <Reduce R, typename T>
T Identity() {
  if constexpr (R == Reduce::kSum) return T(0);
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
    *o = static_cast<T>(R == Reduce::kSum ? a + b : a * b);
  } else if constexpr (R == Reduce::kSum) {
    *o = *o + v;
  } else {
    *o = *o * v;
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
