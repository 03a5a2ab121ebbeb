// Cumsum and Cumprod along one axis, with the exclusive and reverse attrs; real and complex types.
#include "core/kernels/cwise_ops_common.h"

namespace sg {
namespace {

template <bool kProd>
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
    using ScanTypes = TypeList<float, double, half, int32_t, int64_t, int8_t, int16_t, uint8_t,
                               uint16_t, uint32_t, uint64_t, complex64, complex128>;
    bool ok = DispatchTypes(ScanTypes(), x.dtype(), [&](auto tag) {
      using T = decltype(tag);
      using Acc = std::conditional_t<std::is_same<T, half>::value, float, T>;
      Tensor* out;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(0, x.shape(), &out));
      const T* p = x.data<T>();
      T* o = out->data<T>();
      ctx->eigen_cpu_device().parallelFor(
          outer * inner, Eigen::TensorOpCost(len * sizeof(T), len * sizeof(T), len),
          [&](Eigen::Index begin, Eigen::Index end) {
            for (Eigen::Index i = begin; i < end; ++i) {
              const int64_t base = (i / inner) * len * inner + (i % inner);
              Acc acc = kProd ? Acc(1) : Acc(0);
              for (int64_t s = 0; s < len; ++s) {
                const int64_t j = reverse_ ? len - 1 - s : s;
                const int64_t at = base + j * inner;
                const Acc v = static_cast<Acc>(p[at]);
                if (exclusive_) o[at] = static_cast<T>(acc);
                acc = kProd ? static_cast<Acc>(acc * v) : static_cast<Acc>(acc + v);
                if (!exclusive_) o[at] = static_cast<T>(acc);
              }
            }
          });
    });
    if (!ok) ctx->CtxFailure(UnsupportedType(*this, x.dtype()));
  }

 private:
  bool exclusive_ = false, reverse_ = false;
};

REGISTER_KERNEL_BUILDER(Name("Cumsum").Device(DEVICE_CPU), ScanOp<false>);
REGISTER_KERNEL_BUILDER(Name("Cumprod").Device(DEVICE_CPU), ScanOp<true>);

}  // namespace
}  // namespace sg
