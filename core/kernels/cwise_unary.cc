// Unary element-wise kernels: Eigen expressions evaluated on the intra-op pool (vectorized exp,
// log, tanh...), plus the activations Relu, Relu6, Elu, Selu, LeakyRelu, Softplus, Softsign.
// Complex inputs run Eigen's scalar functions (numext::, which TensorFlow's kernels call too)
// element by element in a plain loop over the pool: Eigen has no packet path for most of them,
// and the loop costs far less to compile than an Eigen expression per op and dtype. bfloat16
// runs through the float instantiation (widened, computed, rounded once), except Softplus and
// Softsign, whose scalar or short expressions take bfloat16 itself.
#include <cmath>

#include "core/kernels/cwise_ops_common.h"
#include "core/kernels/parallel_for.h"

namespace sg {
namespace {

using Device = Eigen::ThreadPoolDevice;
template <typename T>
using In = typename TTypes<T>::ConstFlat;
template <typename T>
using OutF = typename TTypes<T>::Flat;

template <typename T>
constexpr bool kIsComplex =
    std::is_same<T, complex64>::value || std::is_same<T, complex128>::value;

// y[i] = fn(x[i]) in a plain loop split over the pool (complex types).
template <typename T, typename Fn>
void ForEach(const Device& d, In<T> x, OutF<T> y, Fn fn) {
  const T* in = x.data();
  T* out = y.data();
  ParallelFor(d, x.size(), Eigen::TensorOpCost(sizeof(T), sizeof(T), 40),
                [in, out, fn](Eigen::Index begin, Eigen::Index end) {
                  for (Eigen::Index i = begin; i < end; ++i) out[i] = fn(in[i]);
                });
}

#define SG_EIGEN_UNARY(NAME, EXPR)                                    \
  struct NAME {                                                       \
    template <typename T>                                             \
    void Run(const Device& d, In<T> x, OutF<T> y) const {             \
      y.device(d) = EXPR;                                             \
    }                                                                 \
  }
// EXPR for the real types; COMPLEX (of the element `v`) for complex ones.
#define SG_EIGEN_UNARY_C(NAME, EXPR, COMPLEX)                         \
  struct NAME {                                                       \
    template <typename T>                                             \
    void Run(const Device& d, In<T> x, OutF<T> y) const {             \
      if constexpr (kIsComplex<T>) {                                  \
        ForEach<T>(d, x, y, [](T v) { return COMPLEX; });             \
      } else {                                                        \
        y.device(d) = EXPR;                                           \
      }                                                               \
    }                                                                 \
  }

// A functor applied element by element (no packet path), for rounding rules Eigen lacks.
template <typename T, typename Fn>
void Map(const Device& d, In<T> x, OutF<T> y, Fn fn) {
  y.device(d) = x.unaryExpr(fn);
}

// Signed integers wrap around on overflow (two's complement, as TensorFlow's kernels give for
// Neg, Abs and Square of the most negative value or a large one): that arithmetic is done in an
// unsigned type of at least 32 bits, where wrapping is defined.
template <typename T>
constexpr bool kSignedInt = std::is_integral<T>::value && std::is_signed<T>::value;
template <typename T>
using WrapType = std::conditional_t<sizeof(T) <= 4, uint32_t, uint64_t>;
template <typename T>
T WrapNeg(T v) {
  return static_cast<T>(WrapType<T>(0) - static_cast<WrapType<T>>(v));
}

struct NegF {
  template <typename T>
  void Run(const Device& d, In<T> x, OutF<T> y) const {
    if constexpr (kSignedInt<T>) {
      Map<T>(d, x, y, [](T v) { return WrapNeg(v); });
    } else if constexpr (kIsComplex<T>) {
      ForEach<T>(d, x, y, [](T v) { return -v; });
    } else {
      y.device(d) = -x;
    }
  }
};
struct AbsF {
  template <typename T>
  void Run(const Device& d, In<T> x, OutF<T> y) const {
    if constexpr (kSignedInt<T>) {
      Map<T>(d, x, y, [](T v) { return v < 0 ? WrapNeg(v) : v; });
    } else {
      y.device(d) = x.abs();
    }
  }
};
struct SquareF {
  template <typename T>
  void Run(const Device& d, In<T> x, OutF<T> y) const {
    // Also the narrow unsigned types, which C++ promotes to int (65535 * 65535 overflows it).
    if constexpr (std::is_integral<T>::value) {
      Map<T>(d, x, y, [](T v) {
        const WrapType<T> w = static_cast<WrapType<T>>(v);
        return static_cast<T>(w * w);
      });
    } else if constexpr (kIsComplex<T>) {
      ForEach<T>(d, x, y, [](T v) {
        return T(v.real() * v.real() - v.imag() * v.imag(), 2 * v.real() * v.imag());
      });
    } else {
      y.device(d) = x.square();
    }
  }
};
// Eigen's fast packet sqrt is x * rsqrt(x), NaN for +inf; TensorFlow's sqrt(inf) is inf.
struct SqrtF {
  template <typename T>
  void Run(const Device& d, In<T> x, OutF<T> y) const {
    if constexpr (kIsComplex<T>) {
      ForEach<T>(d, x, y, [](T v) { return Eigen::numext::sqrt(v); });
    } else {
      y.device(d) = (x == x.constant(Eigen::NumTraits<T>::infinity())).select(x, x.sqrt());
    }
  }
};
SG_EIGEN_UNARY_C(RsqrtF, x.rsqrt(), Eigen::numext::rsqrt(v));
SG_EIGEN_UNARY_C(ExpF, x.exp(), Eigen::numext::exp(v));
SG_EIGEN_UNARY_C(LogF, x.log(), Eigen::numext::log(v));
SG_EIGEN_UNARY_C(Log1pF, x.log1p(), Eigen::numext::log1p(v));
SG_EIGEN_UNARY_C(TanhF, x.tanh(), Eigen::numext::tanh(v));
SG_EIGEN_UNARY_C(SigmoidF, x.sigmoid(), T(1) / (T(1) + Eigen::numext::exp(-v)));
SG_EIGEN_UNARY_C(ReciprocalF, x.inverse(), T(1) / v);
// Eigen's approximations, as TensorFlow's Erf and Erfc. TensorFlow 2.21's double Erf gives NaN
// for +-inf (its Eigen's double path does); sg gives the same.
struct ErfF {
  template <typename T>
  void Run(const Device& d, In<T> x, OutF<T> y) const {
    if constexpr (std::is_same<T, double>::value) {
      const T inf = Eigen::NumTraits<T>::infinity();
      const T nan = Eigen::NumTraits<T>::quiet_NaN();
      y.device(d) = (x.abs() == x.constant(inf)).select(x.constant(nan), x.erf());
    } else {
      y.device(d) = x.erf();
    }
  }
};
SG_EIGEN_UNARY(ErfcF, x.erfc());
SG_EIGEN_UNARY(FloorF, x.floor());
SG_EIGEN_UNARY(CeilF, x.ceil());
SG_EIGEN_UNARY(ReluF, x.cwiseMax(T(0)));
SG_EIGEN_UNARY(Relu6F, x.cwiseMax(T(0)).cwiseMin(T(6)));
SG_EIGEN_UNARY(EluF, (x < T(0)).select(x.exp() - T(1), x));

struct SeluF {
  template <typename T>
  void Run(const Device& d, In<T> x, OutF<T> y) const {
    const T scale = T(1.0507009873554804934193349852946);
    const T scale_alpha = T(1.7580993408473768599402175208123);
    y.device(d) = (x < T(0)).select(scale_alpha * (x.exp() - T(1)), scale * x);
  }
};

// log(1 + exp(x)) without overflow, with TensorFlow's thresholds. bfloat16 computes in float
// with bfloat16's threshold (log(2^-7) + 2: x above 2.84 gives x itself, as TensorFlow's).
struct SoftplusF {
  template <typename T>
  void Run(const Device& d, In<T> x, OutF<T> y) const {
    using W = ComputeType<T>;
    const W eps = std::is_same<T, bfloat16>::value
                      ? static_cast<W>(Eigen::NumTraits<bfloat16>::epsilon())
                      : std::numeric_limits<W>::epsilon();
    const W threshold = std::is_same<T, bfloat16>::value
                            ? static_cast<W>(static_cast<T>(std::log(eps))) + W(2)
                            : std::log(eps) + W(2);
    Map<T>(d, x, y, [threshold](T v) {
      const W w = static_cast<W>(v);
      if (w > -threshold) return v;
      if (w < threshold) return static_cast<T>(std::exp(w));
      return static_cast<T>(std::log1p(std::exp(w)));
    });
  }
};

// x / (1 + |x|), rounded after each step in the input's type as TensorFlow's kernel does.
SG_EIGEN_UNARY(SoftsignF, x / (x.abs() + x.constant(T(1))));

// Sign: -1, 0, 1; NaN stays NaN. A complex number's is z / |z| (0 for 0).
struct SignF {
  template <typename T>
  void Run(const Device& d, In<T> x, OutF<T> y) const {
    if constexpr (kIsComplex<T>) {
      ForEach<T>(d, x, y, [](T v) { return v == T(0) ? T(0) : v / std::abs(v); });
    } else {
      Map<T>(d, x, y, [](T v) {
        if constexpr (kIsFloat<T>) {
          if (Eigen::numext::isnan(v)) return v;
        }
        return v > T(0) ? T(1) : (v < T(0) ? T(-1) : T(0));
      });
    }
  }
};

// Round half to even, as TensorFlow's Round.
struct RoundF {
  template <typename T>
  void Run(const Device& d, In<T> x, OutF<T> y) const {
    if constexpr (std::is_integral<T>::value) {
      y.device(d) = x;
    } else {
      using W = std::conditional_t<std::is_same<T, half>::value, float, T>;
      Map<T>(d, x, y, [](T v) { return static_cast<T>(std::nearbyint(static_cast<W>(v))); });
    }
  }
};

struct IsNanF {
  template <typename T>
  void Run(const Device& d, In<T> x, OutF<bool> y) const {
    y.device(d) = x.unaryExpr([](T v) { return static_cast<bool>(Eigen::numext::isnan(v)); });
  }
};
struct IsInfF {
  template <typename T>
  void Run(const Device& d, In<T> x, OutF<bool> y) const {
    y.device(d) = x.unaryExpr([](T v) { return static_cast<bool>(Eigen::numext::isinf(v)); });
  }
};
struct IsFiniteF {
  template <typename T>
  void Run(const Device& d, In<T> x, OutF<bool> y) const {
    y.device(d) =
        x.unaryExpr([](T v) { return static_cast<bool>(Eigen::numext::isfinite(v)); });
  }
};
struct LogicalNotF {
  template <typename T>
  void Run(const Device& d, In<T> x, OutF<T> y) const {
    y.device(d) = x.unaryExpr([](bool v) { return !v; });
  }
};

// LeakyRelu carries its alpha attr; bfloat16 runs through the float path (one rounding).
class LeakyReluOp : public OpKernel {
 public:
  explicit LeakyReluOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("alpha", &alpha_));
  }
  void Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    const auto& d = ctx->eigen_cpu_device();
    if (x.dtype() == DT_BFLOAT16) {
      Tensor* out;
      OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output(0, 0, x.shape(), &out));
      const int64_t n = x.NumElements();
      if (n == 0) return;
      Tensor xf;
      OP_REQUIRES_OK(ctx, WidenBf16Tensor(ctx, x, &xf));
      Run<float>(d, xf.data<float>(), xf.data<float>(), n);
      NarrowToBf16(d, xf.data<float>(), out->data<bfloat16>(), n);
      return;
    }
    bool ok = DispatchTypes(FloatTypes(), x.dtype(), [&](auto tag) {
      using T = decltype(tag);
      Tensor* out;
      OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output(0, 0, x.shape(), &out));
      if (x.NumElements() == 0) return;
      Run<T>(d, x.data<T>(), out->data<T>(), x.NumElements());
    });
    if (!ok) ctx->CtxFailure(UnsupportedType(*this, x.dtype()));
  }

 private:
  template <typename T>
  void Run(const Device& d, const T* x, T* y, int64_t n) const {
    typename TTypes<T>::ConstFlat in(x, n);
    const T alpha = static_cast<T>(alpha_);
    typename TTypes<T>::Flat(y, n).device(d) = (in < T(0)).select(in * alpha, in);
  }

  float alpha_;
};

// bfloat16 runs through each functor's float instantiation (Bf16ViaFloat, cwise_ops_common.h).
using Floats = Bf16ViaFloat<FloatTypes>;
using SignedInts = Bf16ViaFloat<TypeList<float, double, half, int32_t, int64_t, int8_t, int16_t>>;
using SignedWithComplex = Bf16ViaFloat<
    TypeList<float, double, half, int32_t, int64_t, int8_t, int16_t, complex64, complex128>>;
using FloatWithComplex = Bf16ViaFloat<TypeList<float, double, half, complex64, complex128>>;
using WideReals = Bf16ViaFloat<WideRealTypes>;

#define SG_UNARY_KERNEL(NAME, F, ...) \
  REGISTER_KERNEL_BUILDER(Name(NAME).Device(DEVICE_CPU), UnaryOp<F, __VA_ARGS__>)

SG_UNARY_KERNEL("Neg", NegF, SignedWithComplex);
SG_UNARY_KERNEL("Abs", AbsF, SignedInts);
SG_UNARY_KERNEL("Square", SquareF,
                Bf16ViaFloat<TypeList<float, double, half, int32_t, int64_t, int8_t, int16_t,
                                      uint8_t, uint16_t, uint32_t, uint64_t, complex64,
                                      complex128>>);
SG_UNARY_KERNEL("Sqrt", SqrtF, FloatWithComplex);
SG_UNARY_KERNEL("Rsqrt", RsqrtF, FloatWithComplex);
SG_UNARY_KERNEL("Exp", ExpF, FloatWithComplex);
SG_UNARY_KERNEL("Log", LogF, FloatWithComplex);
SG_UNARY_KERNEL("Log1p", Log1pF, FloatWithComplex);
SG_UNARY_KERNEL("Tanh", TanhF, FloatWithComplex);
SG_UNARY_KERNEL("Sigmoid", SigmoidF, FloatWithComplex);
SG_UNARY_KERNEL("Reciprocal", ReciprocalF, FloatWithComplex);
SG_UNARY_KERNEL("Inv", ReciprocalF, FloatWithComplex);
SG_UNARY_KERNEL("Sign", SignF, SignedWithComplex);
SG_UNARY_KERNEL("Erf", ErfF, Floats);
SG_UNARY_KERNEL("Erfc", ErfcF, Floats);
SG_UNARY_KERNEL("Floor", FloorF, Floats);
SG_UNARY_KERNEL("Ceil", CeilF, Floats);
SG_UNARY_KERNEL("Round", RoundF, SignedInts);
SG_UNARY_KERNEL("Relu", ReluF, WideReals);
SG_UNARY_KERNEL("Relu6", Relu6F, WideReals);
SG_UNARY_KERNEL("Elu", EluF, Floats);
SG_UNARY_KERNEL("Selu", SeluF, Floats);
SG_UNARY_KERNEL("Softplus", SoftplusF, FloatTypesWithBf16);
SG_UNARY_KERNEL("Softsign", SoftsignF, FloatTypesWithBf16);
SG_UNARY_KERNEL("LogicalNot", LogicalNotF, TypeList<bool>);
REGISTER_KERNEL_BUILDER(Name("IsNan").Device(DEVICE_CPU), UnaryOp<IsNanF, Floats, true>);
REGISTER_KERNEL_BUILDER(Name("IsInf").Device(DEVICE_CPU), UnaryOp<IsInfF, Floats, true>);
REGISTER_KERNEL_BUILDER(Name("IsFinite").Device(DEVICE_CPU), UnaryOp<IsFiniteF, Floats, true>);
REGISTER_KERNEL_BUILDER(Name("LeakyRelu").Device(DEVICE_CPU), LeakyReluOp);
#undef SG_UNARY_KERNEL

}  // namespace
}  // namespace sg
