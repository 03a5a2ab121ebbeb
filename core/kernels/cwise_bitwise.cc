// Bitwise element-wise kernels on the integer types: BitwiseAnd/Or/Xor, LeftShift and RightShift
// (binary, broadcasting), Invert and PopulationCount (unary).
//
// Shifts follow TensorFlow: a shift amount below 0 counts as 0 and one past the width as the
// width - 1, so no shift is undefined; a left shift drops the bits shifted out (computed in the
// unsigned type), a right shift of a signed value copies the sign bit in.
#include <bitset>
#include <climits>
#include <type_traits>

#include "core/kernels/cwise_ops_common.h"

namespace sg {
namespace {

template <typename T>
int ClampedShift(T amount) {
  constexpr int kMax = static_cast<int>(sizeof(T) * CHAR_BIT) - 1;
  if constexpr (std::is_signed<T>::value) {
    if (amount < 0) return 0;
  }
  return amount > static_cast<T>(kMax) ? kMax : static_cast<int>(amount);
}

struct BitwiseAndF : BinaryFunctorBase {
  template <typename T>
  T operator()(T a, T b) const { return static_cast<T>(a & b); }
};
struct BitwiseOrF : BinaryFunctorBase {
  template <typename T>
  T operator()(T a, T b) const { return static_cast<T>(a | b); }
};
struct BitwiseXorF : BinaryFunctorBase {
  template <typename T>
  T operator()(T a, T b) const { return static_cast<T>(a ^ b); }
};
struct LeftShiftF : BinaryFunctorBase {
  template <typename T>
  T operator()(T a, T b) const {
    // Promoted to at least unsigned int, so that no signed value overflows.
    using U = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned,
                                 std::make_unsigned_t<T>>;
    return static_cast<T>(static_cast<U>(static_cast<std::make_unsigned_t<T>>(a))
                          << ClampedShift(b));
  }
};
struct RightShiftF : BinaryFunctorBase {
  template <typename T>
  T operator()(T a, T b) const {
    // For signed T an arithmetic shift (C++20 defines it; every C++17 compiler sg builds with
    // does it so).
    return static_cast<T>(a >> ClampedShift(b));
  }
};

struct InvertF {
  template <typename T>
  void Run(const Eigen::ThreadPoolDevice& d, typename TTypes<T>::ConstFlat x,
           typename TTypes<T>::Flat y) const {
    y.device(d) = x.unaryExpr([](T v) { return static_cast<T>(~v); });
  }
};

// PopulationCount: the number of 1 bits of each element's two's complement representation, as
// uint8.
class PopulationCountOp : public OpKernel {
 public:
  explicit PopulationCountOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, x.shape(), &out));
    const bool ok = DispatchTypes(BitwiseTypes(), x.dtype(), [&](auto tag) {
      using T = decltype(tag);
      using U = std::make_unsigned_t<T>;
      if (x.NumElements() == 0) return;
      typename TTypes<T>::ConstFlat in(x.data<T>(), x.NumElements());
      out->flat<uint8_t>().device(ctx->eigen_cpu_device()) = in.unaryExpr([](T v) {
        return static_cast<uint8_t>(std::bitset<sizeof(T) * CHAR_BIT>(static_cast<U>(v)).count());
      });
    });
    if (!ok) ctx->CtxFailure(UnsupportedType(*this, x.dtype()));
  }
};

#define SG_KERNEL(NAME, ...)                                                         \
  REGISTER_KERNEL_BUILDER(                                                              \
      Name(NAME).Device(DEVICE_CPU).TypeConstraint("T", DataTypesOf(BitwiseTypes())), \
      __VA_ARGS__)
SG_KERNEL("BitwiseAnd", BinaryOp<BitwiseAndF, BitwiseTypes>);
SG_KERNEL("BitwiseOr", BinaryOp<BitwiseOrF, BitwiseTypes>);
SG_KERNEL("BitwiseXor", BinaryOp<BitwiseXorF, BitwiseTypes>);
SG_KERNEL("LeftShift", BinaryOp<LeftShiftF, BitwiseTypes>);
SG_KERNEL("RightShift", BinaryOp<RightShiftF, BitwiseTypes>);
SG_KERNEL("Invert", UnaryOp<InvertF, BitwiseTypes>);
SG_KERNEL("PopulationCount", PopulationCountOp);
#undef SG_KERNEL

}  // namespace
}  // namespace sg
