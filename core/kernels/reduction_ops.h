// The reduction kernels (Sum, Mean, Prod, Max, Min, All, Any) share ReductionOp<Kind>.
//
// The input's dims are folded (size-1 dims dropped, neighbours that are both reduced or both kept
// merged) into alternating kept/reduced groups. Each reduced group is then one Eigen reduction
// over a [A, B, C] view (B reduced), in one of four shapes (full, inner, outer, middle), on the
// intra-op pool. Half, bfloat16 and the narrow integer types accumulate in float / int32.
// Float and double sums with kept dims innermost (SumRows) add whole rows instead.
#ifndef SG_CORE_KERNELS_REDUCTION_OPS_H_
#define SG_CORE_KERNELS_REDUCTION_OPS_H_

#include <algorithm>
#include <limits>
#include <type_traits>
#include <vector>

#include "core/kernels/cwise_ops_common.h"
#include "core/kernels/parallel_for.h"

namespace sg {

enum class ReduceKind { kSum, kMean, kProd, kMax, kMin, kAll, kAny };

template <ReduceKind K, typename T>
struct ReducerFor;
template <typename T>
struct ReducerFor<ReduceKind::kSum, T> {
  using type = Eigen::internal::SumReducer<T>;
};
template <typename T>
struct ReducerFor<ReduceKind::kMean, T> {
  using type = Eigen::internal::SumReducer<T>;
};
template <typename T>
struct ReducerFor<ReduceKind::kProd, T> {
  using type = Eigen::internal::ProdReducer<T>;
};
template <typename T>
struct ReducerFor<ReduceKind::kMax, T> {
  using type = Eigen::internal::MaxReducer<T, Eigen::PropagateNaN>;
};
template <typename T>
struct ReducerFor<ReduceKind::kMin, T> {
  using type = Eigen::internal::MinReducer<T, Eigen::PropagateNaN>;
};
template <typename T>
struct ReducerFor<ReduceKind::kAll, T> {
  using type = Eigen::internal::AndReducer;
};
template <typename T>
struct ReducerFor<ReduceKind::kAny, T> {
  using type = Eigen::internal::OrReducer;
};

// The value of a reduction over nothing.
template <ReduceKind K, typename T>
T ReduceIdentity() {
  switch (K) {
    case ReduceKind::kSum: return T(0);
    case ReduceKind::kMean:
      if constexpr (kIsFloat<T>) return std::numeric_limits<T>::quiet_NaN();
      return T(0);
    case ReduceKind::kProd: return T(1);
    case ReduceKind::kMax:
      if constexpr (kIsFloat<T>) return -std::numeric_limits<T>::infinity();
      return std::numeric_limits<T>::lowest();
    case ReduceKind::kMin:
      if constexpr (kIsFloat<T>) return std::numeric_limits<T>::infinity();
      return std::numeric_limits<T>::max();
    case ReduceKind::kAll: return T(1);
    case ReduceKind::kAny: return T(0);
  }
  return T(0);
}

// Half and bfloat16 accumulate in float (TensorFlow's reductions do, through Eigen's reducers),
// the narrow integers in int32.
template <typename T>
using AccumulateType = std::conditional_t<
    std::is_same<T, half>::value || std::is_same<T, bfloat16>::value, float,
    std::conditional_t<std::is_integral<T>::value && !std::is_same<T, bool>::value &&
                           (sizeof(T) < 4),
                       int32_t, T>>;

// Kept values from which a sum with kept dims innermost adds whole rows (SumRows).
constexpr int64_t kSumRowsMinC = 8;

// out[a, c] = sum over b of in[a, b, c], for float and double with C >= kSumRowsMinC: a global
// average pool of channels-last data (Mean over height and width) is such a sum. Each out[a]
// block of columns starts as row b = 0 and adds rows b = 1, 2, ... in order, so the input is read
// once, front to back, and each output sums its values in b order. Eigen's reduction of this
// shape walks each output's B values C apart: EfficientNetB0's 17 Means (64x64 input, 1 thread,
// sg run --trace) took 12.8 us each that way, 3.2-4.8 this way.
template <typename T>
void SumRows(const Eigen::ThreadPoolDevice& d, const T* in, T* out, int64_t A, int64_t B,
             int64_t C) {
  using Row = Eigen::Array<T, Eigen::Dynamic, 1>;
  constexpr int64_t kBlock = 256;  // columns per range: 1 or 2 KB of sums, kept in L1
  const int64_t blocks = (C + kBlock - 1) / kBlock;
  const Eigen::TensorOpCost cost(static_cast<double>(B * kBlock * sizeof(T)),
                                 static_cast<double>(kBlock * sizeof(T)),
                                 static_cast<double>(B * kBlock) / 4);
  ParallelFor(d, A * blocks, cost, [&](Eigen::Index i0, Eigen::Index i1) {
    for (Eigen::Index i = i0; i < i1; ++i) {
      const int64_t a = i / blocks, c0 = i % blocks * kBlock;
      const int64_t n = std::min(C, c0 + kBlock) - c0;
      const T* x = in + a * B * C + c0;
      Eigen::Map<Row> o(out + a * C + c0, n);
      o = Eigen::Map<const Row>(x, n);
      for (int64_t b = 1; b < B; ++b) o += Eigen::Map<const Row>(x + b * C, n);
    }
  });
}

// out[a, c] = reduce over b of in[a, b, c].
template <ReduceKind K, typename T>
void ReducePassTyped(const Eigen::ThreadPoolDevice& d, const T* in, T* out, int64_t A, int64_t B,
                int64_t C) {
  using Reducer = typename ReducerFor<K, T>::type;
  using In1 = Eigen::TensorMap<Eigen::Tensor<const T, 1, Eigen::RowMajor, Eigen::DenseIndex>>;
  using In2 = Eigen::TensorMap<Eigen::Tensor<const T, 2, Eigen::RowMajor, Eigen::DenseIndex>>;
  using In3 = Eigen::TensorMap<Eigen::Tensor<const T, 3, Eigen::RowMajor, Eigen::DenseIndex>>;
  using Out0 = Eigen::TensorMap<Eigen::Tensor<T, 0, Eigen::RowMajor, Eigen::DenseIndex>>;
  using Out1 = Eigen::TensorMap<Eigen::Tensor<T, 1, Eigen::RowMajor, Eigen::DenseIndex>>;
  using Out2 = Eigen::TensorMap<Eigen::Tensor<T, 2, Eigen::RowMajor, Eigen::DenseIndex>>;
  const Eigen::array<Eigen::DenseIndex, 1> axis0{0}, axis1{1};
  if constexpr ((K == ReduceKind::kSum || K == ReduceKind::kMean) &&
                (std::is_same_v<T, float> || std::is_same_v<T, double>)) {
    if (C >= kSumRowsMinC && B > 1) {
      SumRows(d, in, out, A, B, C);
      return;
    }
  }
  if (A == 1 && C == 1) {
    Out0(out).device(d) = In1(in, B).reduce(axis0, Reducer());
  } else if (C == 1) {
    Out1(out, A).device(d) = In2(in, A, B).reduce(axis1, Reducer());
  } else if (A == 1) {
    Out1(out, C).device(d) = In2(in, B, C).reduce(axis0, Reducer());
  } else {
    Out2(out, A, C).device(d) = In3(in, A, B, C).reduce(axis1, Reducer());
  }
}

// As ReducePassTyped; signed integer sums and products wrap around on overflow (two's complement,
// as TensorFlow's kernels give on every machine it runs on), so they are computed in the unsigned
// type of the same width, where wrapping is defined.
template <ReduceKind K, typename T>
void ReducePass(const Eigen::ThreadPoolDevice& d, const T* in, T* out, int64_t A, int64_t B,
                int64_t C) {
  if constexpr (std::is_integral<T>::value && std::is_signed<T>::value &&
                (K == ReduceKind::kSum || K == ReduceKind::kMean || K == ReduceKind::kProd)) {
    using U = std::make_unsigned_t<T>;
    ReducePassTyped<K, U>(d, reinterpret_cast<const U*>(in), reinterpret_cast<U*>(out), A, B, C);
  } else {
    ReducePassTyped<K, T>(d, in, out, A, B, C);
  }
}

template <ReduceKind K, typename Types>
class ReductionOp : public OpKernel {
 public:
  explicit ReductionOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("keep_dims", &keep_dims_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    const Tensor& axes = ctx->input(1);
    const int rank = in.dims();
    std::vector<bool> reduced(rank, false);
    for (int64_t i = 0; i < axes.NumElements(); ++i) {
      const int64_t a =
          axes.dtype() == DT_INT64 ? axes.data<int64_t>()[i] : axes.data<int32_t>()[i];
      OP_REQUIRES(ctx, a >= -rank && a < rank,
                  KernelError(*this, "Invalid reduction dimension (", a, " for input with ",
                              rank, " dimension(s)"));
      OP_REQUIRES(ctx, !reduced[a < 0 ? a + rank : a],
                  KernelError(*this, "Invalid reduction arguments: Axes contains duplicate "
                              "dimension: ", a < 0 ? a + rank : a));
      reduced[a < 0 ? a + rank : a] = true;
    }
    TensorShape out_shape;
    int64_t count = 1;  // elements reduced into each output
    for (int d = 0; d < rank; ++d) {
      if (reduced[d]) {
        count *= in.dim_size(d);
        if (keep_dims_) out_shape.AddDim(1);
      } else {
        out_shape.AddDim(in.dim_size(d));
      }
    }
    bool ok = DispatchTypes(Types(), in.dtype(), [&](auto tag) {
      using T = decltype(tag);
      Tensor* out;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &out));
      if (out->NumElements() == 0) return;
      T* o = out->data<T>();
      if (in.NumElements() == 0) {
        std::fill(o, o + out->NumElements(), ReduceIdentity<K, T>());
        return;
      }
      using Acc = AccumulateType<T>;
      const auto& d = ctx->eigen_cpu_device();
      // Fold the dims into alternating groups.
      std::vector<int64_t> sizes;
      std::vector<bool> red;
      for (int i = 0; i < rank; ++i) {
        if (in.dim_size(i) == 1) continue;
        if (!sizes.empty() && red.back() == reduced[i]) {
          sizes.back() *= in.dim_size(i);
        } else {
          sizes.push_back(in.dim_size(i));
          red.push_back(reduced[i]);
        }
      }
      const int64_t n_in = in.NumElements();
      Tensor acc_in, acc_out;
      const Acc* src;
      if (std::is_same<T, Acc>::value) {
        src = reinterpret_cast<const Acc*>(in.data<T>());
      } else {
        OP_REQUIRES_OK(ctx, ctx->allocate_temp(DataTypeToEnum<Acc>::value,
                                               TensorShape({n_in}), &acc_in));
        acc_in.flat<Acc>().device(d) = typename TTypes<T>::ConstFlat(in.data<T>(), n_in)
                                           .template cast<Acc>();
        src = acc_in.data<Acc>();
      }
      Tensor buf[2];
      int which = 0;
      int64_t cur = n_in;
      bool any_reduced = false;
      // Reduce the groups from the innermost out; each pass shrinks the tensor.
      for (int g = static_cast<int>(sizes.size()) - 1; g >= 0; --g) {
        if (!red[g]) continue;
        any_reduced = true;
        int64_t A = 1, C = 1;
        for (int j = 0; j < g; ++j) A *= sizes[j];
        for (int j = g + 1; j < static_cast<int>(sizes.size()); ++j) C *= sizes[j];
        const int64_t B = sizes[g];
        OP_REQUIRES_OK(ctx, ctx->allocate_temp(DataTypeToEnum<Acc>::value,
                                               TensorShape({A * C}), &buf[which]));
        ReducePass<K, Acc>(d, src, buf[which].data<Acc>(), A, B, C);
        src = buf[which].data<Acc>();
        which ^= 1;
        sizes[g] = 1;
        cur = A * C;
      }
      (void)any_reduced;
      // src now holds the result (or the input when nothing was reduced).
      const int64_t n_out = out->NumElements();
      typename TTypes<Acc>::ConstFlat res(src, cur);
      auto out_flat = out->flat<T>();
      if constexpr (K == ReduceKind::kMean) {
        if (kIsFloat<Acc> || count > 0) {
          const Acc divisor = static_cast<Acc>(count);
          out_flat.device(d) = (res / divisor).template cast<T>();
          return;
        }
      }
      (void)n_out;
      out_flat.device(d) = res.template cast<T>();
    });
    if (!ok) ctx->CtxFailure(UnsupportedType(*this, in.dtype()));
  }

 private:
  bool keep_dims_ = false;
};

}  // namespace sg

#endif  // SG_CORE_KERNELS_REDUCTION_OPS_H_
