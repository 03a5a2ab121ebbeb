// Scans along one axis, with the exclusive and reverse attrs (exclusive writes the value before
// each step; reverse scans from the end):
//   Cumsum and Cumprod, real and complex types (half and bfloat16 accumulate in float);
//   CumulativeLogsumexp, as TensorFlow's CPU kernel: the step is acc = hi + log1p(exp(lo - hi))
//   with lo = min(acc, x), hi = max(acc, x), or hi itself when hi is -inf, starting from -inf, in
//   T itself (half and bfloat16 round after each operation). min and max keep their first
//   argument when a comparison with NaN fails, so a NaN x leaves -inf at -inf and adds log(2) to
//   a finite acc, as TensorFlow's do.
#include <limits>
#include <type_traits>

#include "core/kernels/cwise_ops_common.h"
#include "core/kernels/parallel_for.h"

namespace sg {
namespace {

enum class Scan { kSum, kProd, kLogSumExp };

template <typename T>
T LogAddExp(T a, T b) {
  const T lo = Eigen::numext::mini(a, b), hi = Eigen::numext::maxi(a, b);
  if (hi < Eigen::NumTraits<T>::lowest()) return hi;
  return T(Eigen::numext::log1p(Eigen::numext::exp(T(lo - hi))) + hi);
}

template <Scan S>
class ScanOp final : public OpKernel {
 public:
  explicit ScanOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("exclusive", &exclusive_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("reverse", &reverse_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    const Tensor& axis_t = ctx->input(1);
    int64_t axis;
    OP_REQUIRES(ctx, axis_t.dims() == 0 && ScalarAsInt64(axis_t, &axis),
                KernelError(*this, "ScanOp: axis must be a scalar, not ",
                            axis_t.shape().DebugString()));
    const int rank = x.dims();
    OP_REQUIRES(ctx, axis >= -rank && axis < rank,
                KernelError(*this, "ScanOp: Expected scan axis in the range [", -rank, ", ",
                            rank, "), but got ", axis));
    if (axis < 0) axis += rank;
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < rank; ++d) {
      if (d < axis) outer *= x.dim_size(d);
      if (d > axis) inner *= x.dim_size(d);
    }
    const int64_t len = rank == 0 ? 1 : x.dim_size(axis);
    auto run = [&](auto tag) {
      using T = decltype(tag);
      using Acc = std::conditional_t<S != Scan::kLogSumExp && (std::is_same<T, half>::value ||
                                                               std::is_same<T, bfloat16>::value),
                                     float, T>;
      Tensor* out;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(0, x.shape(), &out));
      const T* p = x.data<T>();
      T* o = out->data<T>();
      ParallelFor(ctx->eigen_cpu_device(),
          outer * inner, Eigen::TensorOpCost(len * sizeof(T), len * sizeof(T), len),
          [&](Eigen::Index begin, Eigen::Index end) {
            for (Eigen::Index i = begin; i < end; ++i) {
              const int64_t base = (i / inner) * len * inner + (i % inner);
              Acc acc;
              if constexpr (S == Scan::kProd) {
                acc = Acc(1);
              } else if constexpr (S == Scan::kSum) {
                acc = Acc(0);
              } else {
                acc = -Eigen::NumTraits<Acc>::infinity();
              }
              for (int64_t s = 0; s < len; ++s) {
                const int64_t j = reverse_ ? len - 1 - s : s;
                const int64_t at = base + j * inner;
                const Acc v = static_cast<Acc>(p[at]);
                if (exclusive_) o[at] = static_cast<T>(acc);
                if constexpr (S == Scan::kProd) {
                  acc = static_cast<Acc>(acc * v);
                } else if constexpr (S == Scan::kSum) {
                  acc = static_cast<Acc>(acc + v);
                } else {
                  acc = LogAddExp<Acc>(acc, v);
                }
                if (!exclusive_) o[at] = static_cast<T>(acc);
              }
            }
          });
    };
    using SumTypes = TypeList<float, double, half, bfloat16, int32_t, int64_t, int8_t, int16_t,
                              uint8_t, uint16_t, uint32_t, uint64_t, complex64, complex128>;
    bool ok;
    if constexpr (S == Scan::kLogSumExp) {
      ok = DispatchTypes(FloatTypesWithBf16(), x.dtype(), run);
    } else {
      ok = DispatchTypes(SumTypes(), x.dtype(), run);
    }
    if (!ok) ctx->CtxFailure(UnsupportedType(*this, x.dtype()));
  }

 private:
  bool exclusive_ = false, reverse_ = false;
};

REGISTER_KERNEL_BUILDER(Name("Cumsum").Device(DEVICE_CPU), ScanOp<Scan::kSum>);
REGISTER_KERNEL_BUILDER(Name("Cumprod").Device(DEVICE_CPU), ScanOp<Scan::kProd>);
REGISTER_KERNEL_BUILDER(Name("CumulativeLogsumexp").Device(DEVICE_CPU), ScanOp<Scan::kLogSumExp>);

}  // namespace
}  // namespace sg
