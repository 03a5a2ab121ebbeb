// Kernels of complex numbers: Complex (real and imaginary parts in, broadcasting), Real, Imag,
// ComplexAbs (|z|, as hypot), Angle (atan2(imag, real)) and Conj. Each registers the dtype
// pairs TensorFlow's does: float with complex64, double with complex128.
#include <complex>

#include "core/kernels/cwise_ops_common.h"

namespace sg {
namespace {

struct ComplexF : BinaryFunctorBase {
  template <typename T>
  struct Out {
    using type = std::complex<T>;
  };
  template <typename T>
  std::complex<T> operator()(T re, T im) const {
    return {re, im};
  }
};

struct RealPartF {
  template <typename R>
  R operator()(const std::complex<R>& z) const { return z.real(); }
};
struct ImagPartF {
  template <typename R>
  R operator()(const std::complex<R>& z) const { return z.imag(); }
};
struct AbsF {
  template <typename R>
  R operator()(const std::complex<R>& z) const { return std::abs(z); }
};
struct AngleF {
  template <typename R>
  R operator()(const std::complex<R>& z) const { return std::arg(z); }
};

// out[i] = F(in[i]), a complex<R> tensor to an R tensor of the same shape.
template <typename F, typename R>
class ComplexToRealOp final : public OpKernel {
 public:
  explicit ComplexToRealOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, x.shape(), &out));
    if (x.NumElements() == 0) return;
    typename TTypes<std::complex<R>>::ConstFlat in(x.data<std::complex<R>>(), x.NumElements());
    out->flat<R>().device(ctx->eigen_cpu_device()) = in.unaryExpr(F());
  }
};

struct ConjF {
  template <typename T>
  void Run(const Eigen::ThreadPoolDevice& d, typename TTypes<T>::ConstFlat x,
           typename TTypes<T>::Flat y) const {
    y.device(d) = x.conjugate();
  }
};

REGISTER_KERNEL_BUILDER(Name("Complex")
                            .Device(DEVICE_CPU)
                            .TypeConstraint<float>("T")
                            .TypeConstraint<complex64>("Tout"),
                        BinaryOp<ComplexF, TypeList<float>>);
REGISTER_KERNEL_BUILDER(Name("Complex")
                            .Device(DEVICE_CPU)
                            .TypeConstraint<double>("T")
                            .TypeConstraint<complex128>("Tout"),
                        BinaryOp<ComplexF, TypeList<double>>);

#define SG_COMPLEX_TO_REAL_KERNEL(NAME, F)                                      \
  REGISTER_KERNEL_BUILDER(Name(NAME)                                            \
                              .Device(DEVICE_CPU)                               \
                              .TypeConstraint<complex64>("T")                   \
                              .TypeConstraint<float>("Tout"),                   \
                          ComplexToRealOp<F, float>);                           \
  REGISTER_KERNEL_BUILDER(Name(NAME)                                            \
                              .Device(DEVICE_CPU)                               \
                              .TypeConstraint<complex128>("T")                  \
                              .TypeConstraint<double>("Tout"),                  \
                          ComplexToRealOp<F, double>)
SG_COMPLEX_TO_REAL_KERNEL("Real", RealPartF);
SG_COMPLEX_TO_REAL_KERNEL("Imag", ImagPartF);
SG_COMPLEX_TO_REAL_KERNEL("ComplexAbs", AbsF);
SG_COMPLEX_TO_REAL_KERNEL("Angle", AngleF);
#undef SG_COMPLEX_TO_REAL_KERNEL

REGISTER_KERNEL_BUILDER(Name("Conj").Device(DEVICE_CPU).TypeConstraint("T", {DT_COMPLEX64,
                                                                             DT_COMPLEX128}),
                        UnaryOp<ConjF, TypeList<complex64, complex128>>);

}  // namespace
}  // namespace sg
