// Binary element-wise kernels that guard a zero operand: Xdivy, Xlogy, Xlog1py (0 where x is 0,
// even when y is 0 or NaN), DivNoNan and MulNoNan (0 where y is 0, even when x is inf or NaN),
// all broadcasting; and ApproximateEqual (|x - y| < tolerance, inputs of one shape).
//
// half and bfloat16 round each step to the type, as TensorFlow's kernels do: Xlogy is
// x * T(log(y)), not one rounding of the exact product.
#include <cmath>

#include "core/kernels/cwise_ops_common.h"

namespace sg {
namespace {

template <typename T>
constexpr bool kIsComplexType =
    std::is_same<T, complex64>::value || std::is_same<T, complex128>::value;

// A complex x / y is x * conj(y) / |y|^2, as Eigen's vectorized complex division (TensorFlow's
// Xdivy) computes it: x / 0 is NaN, not std::complex's infinity.
struct XdivyF : BinaryFunctorBase {
  template <typename T>
  T operator()(T x, T y) const {
    if (x == T(0)) return T(0);
    if constexpr (kIsComplexType<T>) {
      const auto norm = y.real() * y.real() + y.imag() * y.imag();
      return T((x.real() * y.real() + x.imag() * y.imag()) / norm,
               (x.imag() * y.real() - x.real() * y.imag()) / norm);
    } else {
      return static_cast<T>(x / y);
    }
  }
  static constexpr double kCost = 4.0;
};
struct XlogyF : BinaryFunctorBase {
  template <typename T>
  T operator()(T x, T y) const {
    if (x == T(0)) return T(0);
    return static_cast<T>(x * static_cast<T>(std::log(static_cast<ComputeType<T>>(y))));
  }
  static constexpr double kCost = 20.0;
};
struct Xlog1pyF : BinaryFunctorBase {
  template <typename T>
  T operator()(T x, T y) const {
    if (x == T(0)) return T(0);
    if constexpr (kIsComplexType<T>) {
      return x * Eigen::numext::log1p(y);
    } else {
      return static_cast<T>(x * static_cast<T>(std::log1p(static_cast<ComputeType<T>>(y))));
    }
  }
  static constexpr double kCost = 20.0;
};
struct DivNoNanF : BinaryFunctorBase {
  template <typename T>
  T operator()(T x, T y) const {
    return y == T(0) ? T(0) : static_cast<T>(x / y);
  }
  static constexpr double kCost = 4.0;
};
struct MulNoNanF : BinaryFunctorBase {
  template <typename T>
  T operator()(T x, T y) const {
    return y == T(0) ? T(0) : static_cast<T>(x * y);
  }
};

using ApproximateEqualTypes = TypeList<float, double>;

// TensorFlow's CPU kernel has float and double only (the OpDef allows every number type).
class ApproximateEqualOp : public OpKernel {
 public:
  explicit ApproximateEqualOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("tolerance", &tolerance_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    const Tensor& y = ctx->input(1);
    OP_REQUIRES(ctx, x.shape() == y.shape(),
                KernelError(*this, "x and y must be of the same shape. x shape: ",
                            x.shape().DebugString(), ". y shape: ", y.shape().DebugString()));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, x.shape(), &out));
    const bool ok = DispatchTypes(ApproximateEqualTypes(), x.dtype(), [&](auto tag) {
      using T = decltype(tag);
      if (x.NumElements() == 0) return;
      typename TTypes<T>::ConstFlat a(x.data<T>(), x.NumElements());
      typename TTypes<T>::ConstFlat b(y.data<T>(), y.NumElements());
      const T tolerance = static_cast<T>(tolerance_);
      out->flat<bool>().device(ctx->eigen_cpu_device()) = (a - b).abs() < a.constant(tolerance);
    });
    if (!ok) ctx->CtxFailure(UnsupportedType(*this, x.dtype()));
  }

 private:
  float tolerance_ = 1e-5f;
};

// complex64 and complex128 as TensorFlow's: std::complex division and product, Eigen's complex
// log1p (numext), which TensorFlow's kernels call.
using ZeroGuardTypes = TypeList<float, double, half, bfloat16, complex64, complex128>;

#define SG_KERNEL(NAME, F)                                                                 \
  REGISTER_KERNEL_BUILDER(                                                                 \
      Name(NAME).Device(DEVICE_CPU).TypeConstraint("T", DataTypesOf(ZeroGuardTypes())), \
      BinaryOp<F, ZeroGuardTypes>)
SG_KERNEL("Xdivy", XdivyF);
SG_KERNEL("Xlogy", XlogyF);
SG_KERNEL("Xlog1py", Xlog1pyF);
SG_KERNEL("DivNoNan", DivNoNanF);
SG_KERNEL("MulNoNan", MulNoNanF);
#undef SG_KERNEL
REGISTER_KERNEL_BUILDER(Name("ApproximateEqual")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", DataTypesOf(ApproximateEqualTypes())),
                        ApproximateEqualOp);

}  // namespace
}  // namespace sg
