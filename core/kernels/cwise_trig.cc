// Trigonometric and hyperbolic element-wise kernels: Sin, Cos, Tan, Atan, Sinh, Cosh (unary) and
// Atan2 (binary, broadcasting). float and double use Eigen's functors (the vectorized sin and cos
// where Eigen has them); half and bfloat16 compute in float and round once; complex64 and
// complex128 call std::complex's functions element by element.
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

// y[i] = fn(x[i]) in a plain loop split over the pool (complex types: Eigen has no packet path
// for them, and the loop costs less to compile than an Eigen expression).
template <typename T, typename Fn>
void ForEach(const Device& d, In<T> x, OutF<T> y, Fn fn) {
  const T* in = x.data();
  T* out = y.data();
  ParallelFor(d, x.size(), Eigen::TensorOpCost(sizeof(T), sizeof(T), 60),
                [in, out, fn](Eigen::Index begin, Eigen::Index end) {
                  for (Eigen::Index i = begin; i < end; ++i) out[i] = fn(in[i]);
                });
}

// EigenOp<T> for float and double; FloatFn on the value widened to float for half and bfloat16;
// FloatFn's std::complex overload for complex64 and complex128 (what Eigen's scalar functors
// call for them in TensorFlow's kernels).
#define SG_TRIG_UNARY(NAME, EIGEN_OP, FLOAT_FN)                                           \
  struct NAME {                                                                           \
    template <typename T>                                                                 \
    void Run(const Device& d, In<T> x, OutF<T> y) const {                                 \
      if constexpr (kIsComplex<T>) {                                                      \
        ForEach<T>(d, x, y, [](T v) { return FLOAT_FN(v); });                             \
      } else if constexpr (!std::is_same<ComputeType<T>, T>::value) {                     \
        y.device(d) = x.unaryExpr(                                                        \
            [](T v) { return static_cast<T>(FLOAT_FN(static_cast<float>(v))); });         \
      } else {                                                                            \
        y.device(d) = x.unaryExpr(Eigen::internal::EIGEN_OP<T>());                        \
      }                                                                                   \
    }                                                                                     \
  }

SG_TRIG_UNARY(SinF, scalar_sin_op, std::sin);
SG_TRIG_UNARY(CosF, scalar_cos_op, std::cos);
SG_TRIG_UNARY(TanF, scalar_tan_op, std::tan);
SG_TRIG_UNARY(AtanF, scalar_atan_op, std::atan);
SG_TRIG_UNARY(SinhF, scalar_sinh_op, std::sinh);
SG_TRIG_UNARY(CoshF, scalar_cosh_op, std::cosh);
#undef SG_TRIG_UNARY

// atan2(y, x): the angle of the point (x, y), in (-pi, pi].
struct Atan2F : BinaryFunctorBase {
  template <typename T>
  T operator()(T y, T x) const {
    using W = ComputeType<T>;
    return static_cast<T>(std::atan2(static_cast<W>(y), static_cast<W>(x)));
  }
  static constexpr double kCost = 20.0;
};

#define SG_KERNEL(NAME, ...)                                                               \
  REGISTER_KERNEL_BUILDER(                                                                    \
      Name(NAME).Device(DEVICE_CPU).TypeConstraint("T", DataTypesOf(FloatTypesWithBf16())), \
      __VA_ARGS__)
SG_KERNEL("Atan2", BinaryOp<Atan2F, FloatTypesWithBf16>);
#undef SG_KERNEL

using TrigTypes = TypeList<float, double, half, bfloat16, complex64, complex128>;
#define SG_KERNEL(NAME, F)                                                                        \
  REGISTER_KERNEL_BUILDER(                                                                        \
      Name(NAME).Device(DEVICE_CPU).TypeConstraint("T", DataTypesOf(TrigTypes())), \
      UnaryOp<F, TrigTypes>)
SG_KERNEL("Sin", SinF);
SG_KERNEL("Cos", CosF);
SG_KERNEL("Tan", TanF);
SG_KERNEL("Atan", AtanF);
SG_KERNEL("Sinh", SinhF);
SG_KERNEL("Cosh", CoshF);
#undef SG_KERNEL

}  // namespace
}  // namespace sg
