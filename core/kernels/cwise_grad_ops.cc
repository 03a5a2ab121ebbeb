// Gradients of the element-wise activations and unary math ops, as TensorFlow's kernels:
//   ReluGrad(g, f)      = g * (f > 0)              Relu6Grad(g, f) = g * (0 < f < 6)
//   EluGrad(g, y)       = y < 0 ? g * (y + 1) : g  SeluGrad(g, y)  = y < 0 ? g * (y + sa) : g * s
//   LeakyReluGrad(g, f) = f > 0 ? g : g * alpha    SoftplusGrad(g, f) = g / (exp(-f) + 1)
//   SoftsignGrad(g, f)  = g / (|f| + 1)^2
//   SigmoidGrad(y, dy)  = dy * y * (1 - y)         TanhGrad(y, dy) = dy * (1 - y * y)
//   SqrtGrad(y, dy)     = 0.5 * dy / conj(y)       RsqrtGrad(y, dy) = -0.5 * dy * conj(y)^3
//   ReciprocalGrad / InvGrad(y, dy) = -dy * conj(y)^2
// (s, sa: Selu's scale and scale * alpha). SqrtGrad, RsqrtGrad and ReciprocalGrad give 0 where
// dy is 0, whatever y is (TensorFlow's mul_no_nan). The activation gradients need inputs of one
// shape; the unary math gradients, as TensorFlow's kernels, only inputs with as many elements
// (the output has input 0's shape). INVALID_ARGUMENT otherwise. half and bfloat16 compute in
// float and round once.
#include <cmath>
#include <complex>

#include "core/kernels/cwise_ops_common.h"
#include "core/kernels/parallel_for.h"

namespace sg {
namespace {

template <typename C>
C Conj(C v) {
  if constexpr (std::is_same<C, complex64>::value || std::is_same<C, complex128>::value) {
    return std::conj(v);
  } else {
    return v;
  }
}

struct NoAttrs {
  explicit NoAttrs(OpKernelConstruction*) {}
};

// Each functor maps the two inputs (as ComputeType) to the output (as ComputeType).
struct ReluGradF : NoAttrs {
  using NoAttrs::NoAttrs;
  template <typename C>
  C operator()(C g, C f) const {
    return g * static_cast<C>(f > C(0) ? 1 : 0);
  }
};
struct Relu6GradF : NoAttrs {
  using NoAttrs::NoAttrs;
  template <typename C>
  C operator()(C g, C f) const {
    return g * static_cast<C>(f > C(0) && f < C(6) ? 1 : 0);
  }
};
struct EluGradF : NoAttrs {
  using NoAttrs::NoAttrs;
  template <typename C>
  C operator()(C g, C y) const {
    return y < C(0) ? (y + C(1)) * g : g;
  }
};
struct SeluGradF : NoAttrs {
  using NoAttrs::NoAttrs;
  template <typename C>
  C operator()(C g, C y) const {
    const C scale = static_cast<C>(1.0507009873554804934193349852946);
    const C scale_alpha = static_cast<C>(1.7580993408473768599402175208123);
    return y < C(0) ? g * (y + scale_alpha) : g * scale;
  }
};
struct LeakyReluGradF {
  explicit LeakyReluGradF(OpKernelConstruction* ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("alpha", &alpha));
  }
  template <typename C>
  C operator()(C g, C f) const {
    return f > C(0) ? g : g * static_cast<C>(alpha);
  }
  float alpha = 0.2f;
};
struct SoftplusGradF : NoAttrs {
  using NoAttrs::NoAttrs;
  template <typename C>
  C operator()(C g, C f) const {
    return g / (std::exp(-f) + C(1));
  }
};
struct SoftsignGradF : NoAttrs {
  using NoAttrs::NoAttrs;
  template <typename C>
  C operator()(C g, C f) const {
    const C d = std::abs(f) + C(1);
    return g / (d * d);
  }
};
struct SigmoidGradF : NoAttrs {
  using NoAttrs::NoAttrs;
  template <typename C>
  C operator()(C y, C dy) const {
    return dy * (y * (C(1) - y));
  }
};
struct TanhGradF : NoAttrs {
  using NoAttrs::NoAttrs;
  template <typename C>
  C operator()(C y, C dy) const {
    return dy * (C(1) - y * y);
  }
};
struct SqrtGradF : NoAttrs {
  using NoAttrs::NoAttrs;
  template <typename C>
  C operator()(C y, C dy) const {
    if (dy == C(0)) return C(0);
    return (C(0.5) / Conj(y)) * dy;
  }
};
struct RsqrtGradF : NoAttrs {
  using NoAttrs::NoAttrs;
  template <typename C>
  C operator()(C y, C dy) const {
    if (dy == C(0)) return C(0);
    const C yc = Conj(y);
    return (C(-0.5) * (yc * yc)) * (yc * dy);
  }
};
struct ReciprocalGradF : NoAttrs {
  using NoAttrs::NoAttrs;
  template <typename C>
  C operator()(C y, C dy) const {
    if (dy == C(0)) return C(0);
    const C yc = Conj(y);
    return -(yc * yc) * dy;
  }
};

// out = F(in0, in1) element-wise, for the dtypes in `Types`; kSameShape: the inputs must have
// one shape, else only as many elements.
template <typename F, typename Types, bool kSameShape>
class GradOp final : public OpKernel {
 public:
  explicit GradOp(OpKernelConstruction* ctx) : OpKernel(ctx), f_(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& a = ctx->input(0);
    const Tensor& b = ctx->input(1);
    if (kSameShape) {
      OP_REQUIRES(ctx, a.shape() == b.shape(),
                  KernelError(*this, "gradients and features must have the same shape: ",
                              a.shape().DebugString(), " vs. ", b.shape().DebugString()));
    } else {
      OP_REQUIRES(ctx, a.NumElements() == b.NumElements(),
                  KernelError(*this,
                              "The two arguments to a cwise op must have same number of "
                              "elements, got ",
                              a.NumElements(), " and ", b.NumElements()));
    }
    const bool ok = DispatchTypes(Types(), a.dtype(), [&](auto tag) {
      using T = decltype(tag);
      using C = ComputeType<T>;
      Tensor* out = nullptr;
      OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output(0, 0, a.shape(), &out));
      const T* x = a.data<T>();
      const T* y = b.data<T>();
      T* z = out->data<T>();
      const F f = f_;
      ParallelFor(ctx->eigen_cpu_device(),
          a.NumElements(), Eigen::TensorOpCost(2 * sizeof(T), sizeof(T), 10),
          [x, y, z, f](Eigen::Index begin, Eigen::Index end) {
            for (Eigen::Index i = begin; i < end; ++i) {
              z[i] = static_cast<T>(f(static_cast<C>(x[i]), static_cast<C>(y[i])));
            }
          });
    });
    if (!ok) ctx->CtxFailure(UnsupportedType(*this, a.dtype()));
  }

 private:
  F f_;
};

using ReluTypes = TypeList<float, double, half, bfloat16, int32_t, int64_t, int8_t, int16_t,
                           uint8_t, uint16_t, uint32_t, uint64_t>;
using FloatWithComplex = TypeList<float, double, half, bfloat16, complex64, complex128>;

#define SG_GRAD_KERNEL(NAME, F, TYPES) \
  REGISTER_KERNEL_BUILDER(Name(NAME).Device(DEVICE_CPU), GradOp<F, TYPES, true>)
#define SG_UNARY_GRAD_KERNEL(NAME, F) \
  REGISTER_KERNEL_BUILDER(Name(NAME).Device(DEVICE_CPU), GradOp<F, FloatWithComplex, false>)
SG_GRAD_KERNEL("ReluGrad", ReluGradF, ReluTypes);
SG_GRAD_KERNEL("Relu6Grad", Relu6GradF, ReluTypes);
SG_GRAD_KERNEL("LeakyReluGrad", LeakyReluGradF, FloatTypesWithBf16);
SG_GRAD_KERNEL("EluGrad", EluGradF, FloatTypesWithBf16);
SG_GRAD_KERNEL("SeluGrad", SeluGradF, FloatTypesWithBf16);
SG_GRAD_KERNEL("SoftplusGrad", SoftplusGradF, FloatTypesWithBf16);
SG_GRAD_KERNEL("SoftsignGrad", SoftsignGradF, FloatTypesWithBf16);
SG_UNARY_GRAD_KERNEL("SigmoidGrad", SigmoidGradF);
SG_UNARY_GRAD_KERNEL("TanhGrad", TanhGradF);
SG_UNARY_GRAD_KERNEL("SqrtGrad", SqrtGradF);
SG_UNARY_GRAD_KERNEL("RsqrtGrad", RsqrtGradF);
SG_UNARY_GRAD_KERNEL("ReciprocalGrad", ReciprocalGradF);
SG_UNARY_GRAD_KERNEL("InvGrad", ReciprocalGradF);
#undef SG_GRAD_KERNEL
#undef SG_UNARY_GRAD_KERNEL

}  // namespace
}  // namespace sg
