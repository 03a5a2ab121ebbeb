// CumulativeLogsumexp, as TensorFlow's CPU kernel: a scan along `axis` whose step is
// acc = hi + log1p(exp(lo - hi)) with lo = min(acc, x), hi = max(acc, x), or hi itself when hi is
// -inf, starting from -inf, in T itself (half and bfloat16 round after each operation). min and
// max keep their first argument when a comparison with NaN fails, so a NaN x leaves -inf at -inf
// and adds log(2) to a finite acc, as TensorFlow's do. exclusive writes the value before the
// step; reverse scans from the end.
#include <cstdint>
#include <limits>

#include "core/framework/op_kernel.h"
#include "core/kernels/cwise_ops_common.h"

namespace sg {
namespace {

template <typename T>
T LogAddExp(T a, T b) {
  const T lo = Eigen::numext::mini(a, b), hi = Eigen::numext::maxi(a, b);
  if (hi < Eigen::NumTraits<T>::lowest()) return hi;
  return T(Eigen::numext::log1p(Eigen::numext::exp(T(lo - hi))) + hi);
}

class CumulativeLogsumexpOp final : public OpKernel {
 public:
  explicit CumulativeLogsumexpOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
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
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, x.shape(), &out));
    const bool ok = DispatchTypes(FloatTypesWithBf16(), x.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const T* p = x.data<T>();
      T* o = out->data<T>();
      for (int64_t i = 0; i < outer * inner; ++i) {
        const int64_t base = (i / inner) * len * inner + (i % inner);
        T acc = -Eigen::NumTraits<T>::infinity();
        for (int64_t s = 0; s < len; ++s) {
          const int64_t at = base + (reverse_ ? len - 1 - s : s) * inner;
          if (exclusive_) o[at] = acc;
          acc = LogAddExp<T>(acc, p[at]);
          if (!exclusive_) o[at] = acc;
        }
      }
    });
    OP_REQUIRES(ctx, ok, UnsupportedType(*this, x.dtype()));
  }

 private:
  bool exclusive_ = false, reverse_ = false;
};
REGISTER_KERNEL_BUILDER(Name("CumulativeLogsumexp").Device(DEVICE_CPU), CumulativeLogsumexpOp);

}  // namespace
}  // namespace sg
