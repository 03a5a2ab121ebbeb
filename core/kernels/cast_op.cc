// Cast between the numeric types, complex and bool. Float to integer truncates toward zero (C++
// conversion, as TensorFlow's CPU kernel); anything to bool is `x != 0`; bool is 0 or 1. Half and
// bfloat16 convert through float. A complex number converts to a real type (bool included) as its
// real part does; a real one becomes a complex number with imaginary part 0. With Truncate, a
// float narrowed to half or bfloat16, and a double narrowed to float or half, round toward zero.
#include <cmath>
#include <cstring>

#include "core/kernels/cwise_ops_common.h"
#include "core/kernels/parallel_for.h"

namespace sg {
namespace {

using CastTypes = TypeList<float, double, half, bfloat16, int32_t, int64_t, int8_t, int16_t,
                           uint8_t, uint16_t, uint32_t, uint64_t, bool, complex64, complex128>;

template <typename T>
constexpr bool kIsNarrowFloat = std::is_same<T, half>::value || std::is_same<T, bfloat16>::value;
template <typename T>
constexpr bool kIsComplex =
    std::is_same<T, complex64>::value || std::is_same<T, complex128>::value;

template <typename D, typename S>
D Convert(S s) {
  if constexpr (std::is_same<D, S>::value) {
    return s;
  } else if constexpr (kIsComplex<S> && kIsComplex<D>) {
    using R = typename D::value_type;
    return D(static_cast<R>(s.real()), static_cast<R>(s.imag()));
  } else if constexpr (kIsComplex<S>) {
    return Convert<D, typename S::value_type>(s.real());
  } else if constexpr (kIsComplex<D>) {
    return D(Convert<typename D::value_type, S>(s), 0);
  } else if constexpr (std::is_same<D, bool>::value) {
    return s != S(0);
  } else if constexpr (std::is_same<S, bool>::value) {
    return s ? D(1) : D(0);
  } else if constexpr (kIsNarrowFloat<S>) {
    return Convert<D, float>(static_cast<float>(s));
  } else if constexpr (kIsNarrowFloat<D>) {
    return D(static_cast<float>(s));
  } else if constexpr (std::is_floating_point<S>::value && std::is_integral<D>::value) {
    // Out-of-range and NaN inputs are undefined in C++; give what x86 conversion (and so
    // TensorFlow) gives: the lowest value of int32 (int64 for the 64- and 32-bit unsigned
    // types), then the low bits for narrower types.
    using Wide = std::conditional_t<(sizeof(D) >= 4 && !std::is_same<D, int32_t>::value),
                                    int64_t, int32_t>;
    if (!(s == s) || s >= -static_cast<S>(std::numeric_limits<Wide>::lowest()) ||
        s < static_cast<S>(std::numeric_limits<Wide>::lowest())) {
      return static_cast<D>(std::numeric_limits<Wide>::lowest());
    }
    return static_cast<D>(static_cast<Wide>(s));
  } else {
    return static_cast<D>(s);
  }
}

// Significand bits (with the implicit one) of the floating types.
template <typename T>
constexpr int kSignificandBits = std::numeric_limits<T>::digits;
template <>
constexpr int kSignificandBits<half> = 11;
template <>
constexpr int kSignificandBits<bfloat16> = 8;

// Cast with Truncate: the significand bits D cannot hold are cleared first (NaN kept), so the
// conversion rounds toward zero, as TensorFlow's Truncate does.
template <typename D, typename S>
D TruncatingConvert(S s) {
  // TensorFlow rounds double to bfloat16 even with Truncate.
  if constexpr ((std::is_same<S, float>::value || std::is_same<S, double>::value) &&
                kIsFloat<D> && kSignificandBits<D> < kSignificandBits<S> &&
                !(std::is_same<S, double>::value && std::is_same<D, bfloat16>::value)) {
    if (!std::isnan(s)) {
      using Bits = std::conditional_t<sizeof(S) == 8, uint64_t, uint32_t>;
      Bits b;
      std::memcpy(&b, &s, sizeof(b));
      b &= ~((Bits{1} << (kSignificandBits<S> - kSignificandBits<D>)) - 1);
      std::memcpy(&s, &b, sizeof(b));
    }
  }
  return Convert<D, S>(s);
}

class CastOp final : public OpKernel {
 public:
  explicit CastOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("SrcT", &src_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("DstT", &dst_));
    // Older graphs have no Truncate.
    if (!ctx->GetAttr("Truncate", &truncate_).ok()) truncate_ = false;
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    if (src_ == dst_) {
      ctx->set_output(0, x);
      return;
    }
    bool found = false;
    DispatchTypes(CastTypes(), src_, [&](auto src_tag) {
      using S = decltype(src_tag);
      found = DispatchTypes(CastTypes(), dst_, [&](auto dst_tag) {
        using D = decltype(dst_tag);
        Tensor* out;
        OP_REQUIRES_OK(ctx, ctx->allocate_output(0, x.shape(), &out));
        const S* in = x.data<S>();
        D* o = out->data<D>();
        ParallelFor(ctx->eigen_cpu_device(),
            x.NumElements(), Eigen::TensorOpCost(sizeof(S), sizeof(D), 1),
            [&](Eigen::Index begin, Eigen::Index end) {
              if (truncate_) {
                for (Eigen::Index i = begin; i < end; ++i) o[i] = TruncatingConvert<D, S>(in[i]);
              } else {
                for (Eigen::Index i = begin; i < end; ++i) o[i] = Convert<D, S>(in[i]);
              }
            });
      });
    });
    OP_REQUIRES(ctx, found,
                errors::Unimplemented("Cast (node '", name(), "'): ", DataTypeString(src_),
                                      " to ", DataTypeString(dst_), " is not supported"));
  }

 private:
  DataType src_, dst_;
  bool truncate_;
};

REGISTER_KERNEL_BUILDER(Name("Cast").Device(DEVICE_CPU), CastOp);
REGISTER_KERNEL_BUILDER(Name("_HostCast").Device(DEVICE_CPU), CastOp);

}  // namespace
}  // namespace sg
