// Binary element-wise kernels with numpy broadcasting: arithmetic, divisions (TensorFlow's
// integer rules), Maximum/Minimum, Pow, SquaredDifference, comparisons, logical and/or. The
// arithmetic ops, Pow, SquaredDifference, Equal and NotEqual also take complex64/complex128.
#include <cmath>
#include <limits>
#include <string>

#include "core/kernels/cwise_ops_common.h"

namespace sg {
namespace {

// Arithmetic on half and bfloat16 goes through float.
template <typename T>
using Wide = ComputeType<T>;
// a / b rounded to T (the quotient TensorFlow's Eigen expression floors or truncates).
template <typename T>
Wide<T> Quotient(T a, T b) {
  return static_cast<Wide<T>>(static_cast<T>(static_cast<Wide<T>>(a) / static_cast<Wide<T>>(b)));
}

template <typename T>
constexpr bool kIsComplex =
    std::is_same<T, complex64>::value || std::is_same<T, complex128>::value;

template <typename T>
bool AnyZero(const Tensor& t) {
  const T* p = t.data<T>();
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    if (p[i] == T(0)) return true;
  }
  return false;
}

// Integer divisions fail on a zero divisor, as TensorFlow's do.
struct IntDivCheck : BinaryFunctorBase {
  template <typename T>
  absl::Status Check(const OpKernel& k, const Tensor&, const Tensor& y) const {
    if constexpr (std::is_integral<T>::value) {
      if (AnyZero<T>(y)) return KernelError(k, "Integer division by zero");
    }
    return absl::OkStatus();
  }
};

// a / b rounded toward zero, without the trap of INT_MIN / -1 (wraps as TensorFlow's does).
template <typename T>
T TruncDivInt(T a, T b) {
  if constexpr (std::is_signed<T>::value) {
    if (b == T(-1)) return static_cast<T>(-static_cast<std::make_unsigned_t<T>>(a));
  }
  return static_cast<T>(a / b);
}
template <typename T>
T TruncModInt(T a, T b) {
  if constexpr (std::is_signed<T>::value) {
    if (b == T(-1)) return T(0);
  }
  return static_cast<T>(a % b);
}

struct AddF : BinaryFunctorBase {
  template <typename T>
  T operator()(const T& a, const T& b) const {
    if constexpr (std::is_integral<T>::value && !std::is_same<T, bool>::value) {
      using U = std::make_unsigned_t<T>;
      return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
    } else {
      return a + b;
    }
  }
};
struct SubF : BinaryFunctorBase {
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (std::is_integral<T>::value) {
      using U = std::make_unsigned_t<T>;
      return static_cast<T>(static_cast<U>(a) - static_cast<U>(b));
    } else {
      return a - b;
    }
  }
};
struct MulF : BinaryFunctorBase {
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (std::is_integral<T>::value) {
      using U = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned,
                                   std::make_unsigned_t<T>>;
      return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
    } else if constexpr (kIsComplex<T>) {
      // The textbook product, as Eigen's (TensorFlow's) kernels compute it; std::complex's
      // operator* is a library call that recovers infinities from NaN results.
      return T(a.real() * b.real() - a.imag() * b.imag(),
               a.real() * b.imag() + a.imag() * b.real());
    } else {
      return a * b;
    }
  }
};
struct RealDivF : BinaryFunctorBase {
  template <typename T>
  T operator()(T a, T b) const {
    return a / b;
  }
  static constexpr double kCost = 4.0;
};
// Div: floats divide; integers round toward zero.
struct DivF : IntDivCheck {
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (std::is_integral<T>::value) {
      return TruncDivInt(a, b);
    } else {
      return a / b;
    }
  }
  static constexpr double kCost = 4.0;
};
struct TruncateDivF : DivF {
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (std::is_integral<T>::value) {
      return TruncDivInt(a, b);
    } else {
      return static_cast<T>(std::trunc(Quotient(a, b)));
    }
  }
};
struct FloorDivF : IntDivCheck {
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (std::is_integral<T>::value) {
      T q = TruncDivInt(a, b);
      if constexpr (std::is_signed<T>::value) {
        if (TruncModInt(a, b) != 0 && ((a < 0) != (b < 0))) --q;
      }
      return q;
    } else {
      return static_cast<T>(std::floor(Quotient(a, b)));
    }
  }
  static constexpr double kCost = 8.0;
};
// The remainder with the divisor's sign (Python's %).
struct FloorModF : IntDivCheck {
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (std::is_integral<T>::value) {
      T r = TruncModInt(a, b);
      if constexpr (std::is_signed<T>::value) {
        if (r != 0 && ((r < 0) != (b < 0))) r = static_cast<T>(r + b);
      }
      return r;
    } else {
      using W = Wide<T>;
      W r = std::fmod(static_cast<W>(a), static_cast<W>(b));
      if (r != 0 && ((r < 0) != (static_cast<W>(b) < 0))) r += static_cast<W>(b);
      return static_cast<T>(r);
    }
  }
  static constexpr double kCost = 8.0;
};
// The remainder with the dividend's sign (C's %, fmod).
struct TruncateModF : IntDivCheck {
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (std::is_integral<T>::value) {
      return TruncModInt(a, b);
    } else {
      return static_cast<T>(std::fmod(static_cast<Wide<T>>(a), static_cast<Wide<T>>(b)));
    }
  }
  static constexpr double kCost = 8.0;
};
// NaN wins, as in TensorFlow 2.
struct MaximumF : BinaryFunctorBase {
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (kIsFloat<T>) {
      if (Eigen::numext::isnan(a)) return a;
      if (Eigen::numext::isnan(b)) return b;
    }
    return a < b ? b : a;
  }
};
struct MinimumF : BinaryFunctorBase {
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (kIsFloat<T>) {
      if (Eigen::numext::isnan(a)) return a;
      if (Eigen::numext::isnan(b)) return b;
    }
    return b < a ? b : a;
  }
};
struct PowF : BinaryFunctorBase {
  template <typename T>
  absl::Status Check(const OpKernel& k, const Tensor&, const Tensor& y) const {
    if constexpr (std::is_integral<T>::value && std::is_signed<T>::value) {
      const T* p = y.data<T>();
      for (int64_t i = 0; i < y.NumElements(); ++i) {
        if (p[i] < 0) return KernelError(k, "Integers to negative integer powers are not allowed");
      }
    }
    return absl::OkStatus();
  }
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (std::is_integral<T>::value) {
      using U = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned,
                                   std::make_unsigned_t<T>>;
      U result = 1, base = static_cast<U>(a);
      for (auto e = b; e > 0; e >>= 1) {
        if (e & 1) result *= base;
        base *= base;
      }
      return static_cast<T>(result);
    } else {
      return static_cast<T>(std::pow(static_cast<Wide<T>>(a), static_cast<Wide<T>>(b)));
    }
  }
  static constexpr double kCost = 20.0;
};
// |x - y|^2 for complex numbers: (x - y) * conj(x - y), as TensorFlow's.
struct SquaredDifferenceF : BinaryFunctorBase {
  template <typename T>
  T operator()(T a, T b) const {
    const T d = SubF()(a, b);
    if constexpr (kIsComplex<T>) {
      return MulF()(d, std::conj(d));
    } else {
      return MulF()(d, d);
    }
  }
};

struct BoolOut : BinaryFunctorBase {
  template <typename T>
  struct Out {
    using type = bool;
  };
};
struct EqualF : BoolOut {
  template <typename T>
  bool operator()(const T& a, const T& b) const { return a == b; }
};
struct NotEqualF : BoolOut {
  template <typename T>
  bool operator()(const T& a, const T& b) const { return a != b; }
};
struct LessF : BoolOut {
  template <typename T>
  bool operator()(T a, T b) const { return a < b; }
};
struct LessEqualF : BoolOut {
  template <typename T>
  bool operator()(T a, T b) const { return a <= b; }
};
struct GreaterF : BoolOut {
  template <typename T>
  bool operator()(T a, T b) const { return a > b; }
};
struct GreaterEqualF : BoolOut {
  template <typename T>
  bool operator()(T a, T b) const { return a >= b; }
};
struct LogicalAndF : BoolOut {
  bool operator()(bool a, bool b) const { return a && b; }
};
struct LogicalOrF : BoolOut {
  bool operator()(bool a, bool b) const { return a || b; }
};

// bfloat16 computes each operation in float and rounds the result (Eigen's bfloat16
// arithmetic, as TensorFlow's kernels run it): a scalar loop per type, no Eigen expression.
using AddTypes = TypeList<float, double, half, bfloat16, int32_t, int64_t, int8_t, int16_t,
                          uint8_t, uint16_t, uint32_t, uint64_t, tstring, complex64, complex128>;
using ArithTypes = TypeList<float, double, half, bfloat16, int32_t, int64_t, int8_t, int16_t,
                            uint8_t, uint16_t, uint32_t, uint64_t, complex64, complex128>;
using EqualTypes =
    TypeList<float, double, half, bfloat16, int32_t, int64_t, int8_t, int16_t, uint8_t, uint16_t,
             uint32_t, uint64_t, bool, tstring, complex64, complex128>;
using RealTypesBf16 = TypeList<float, double, half, bfloat16, int32_t, int64_t, int8_t, int16_t,
                               uint8_t, uint16_t, uint32_t, uint64_t>;

#define SG_BINARY_KERNEL(NAME, F, ...) \
  REGISTER_KERNEL_BUILDER(Name(NAME).Device(DEVICE_CPU), BinaryOp<F, __VA_ARGS__>)

SG_BINARY_KERNEL("Add", AddF, AddTypes);
SG_BINARY_KERNEL("AddV2", AddF, ArithTypes);
SG_BINARY_KERNEL("Sub", SubF, ArithTypes);
SG_BINARY_KERNEL("Mul", MulF, ArithTypes);
SG_BINARY_KERNEL("RealDiv", RealDivF,
                 TypeList<float, double, half, bfloat16, complex64, complex128>);
SG_BINARY_KERNEL("Div", DivF, ArithTypes);
SG_BINARY_KERNEL("TruncateDiv", TruncateDivF, RealTypesBf16);
SG_BINARY_KERNEL("FloorDiv", FloorDivF, RealTypesBf16);
SG_BINARY_KERNEL("FloorMod", FloorModF, RealTypesBf16);
SG_BINARY_KERNEL("TruncateMod", TruncateModF, TypeList<int32_t, int64_t, float, double, half>);
SG_BINARY_KERNEL("Maximum", MaximumF, RealTypesBf16);
SG_BINARY_KERNEL("Minimum", MinimumF, RealTypesBf16);
SG_BINARY_KERNEL("Pow", PowF,
                 TypeList<float, double, half, bfloat16, int32_t, int64_t, int8_t, int16_t,
                          complex64, complex128>);
SG_BINARY_KERNEL("SquaredDifference", SquaredDifferenceF,
                 TypeList<float, double, half, bfloat16, int32_t, int64_t, complex64, complex128>);
SG_BINARY_KERNEL("Equal", EqualF, EqualTypes);
SG_BINARY_KERNEL("NotEqual", NotEqualF, EqualTypes);
SG_BINARY_KERNEL("Less", LessF, RealTypesBf16);
SG_BINARY_KERNEL("LessEqual", LessEqualF, RealTypesBf16);
SG_BINARY_KERNEL("Greater", GreaterF, RealTypesBf16);
SG_BINARY_KERNEL("GreaterEqual", GreaterEqualF, RealTypesBf16);
SG_BINARY_KERNEL("LogicalAnd", LogicalAndF, TypeList<bool>);
SG_BINARY_KERNEL("LogicalOr", LogicalOrF, TypeList<bool>);
#undef SG_BINARY_KERNEL

}  // namespace
}  // namespace sg
