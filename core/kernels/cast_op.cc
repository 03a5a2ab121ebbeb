// Cast between the numeric types and bool. Float to integer truncates toward zero (C++
// conversion, as TensorFlow's CPU kernel); anything to bool is `x != 0`; bool is 0 or 1. Half and
// bfloat16 convert through float.
#include "core/kernels/cwise_ops_common.h"

namespace sg {
namespace {

using CastTypes = TypeList<float, double, half, bfloat16, int32_t, int64_t, int8_t, int16_t,
                           uint8_t, uint16_t, uint32_t, uint64_t, bool>;

template <typename T>
constexpr bool kIsNarrowFloat = std::is_same<T, half>::value || std::is_same<T, bfloat16>::value;

template <typename D, typename S>
D Convert(S s) {
  if constexpr (std::is_same<D, S>::value) {
    return s;
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

class CastOp final : public OpKernel {
 public:
  explicit CastOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("SrcT", &src_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("DstT", &dst_));
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
        ctx->eigen_cpu_device().parallelFor(
            x.NumElements(), Eigen::TensorOpCost(sizeof(S), sizeof(D), 1),
            [&](Eigen::Index begin, Eigen::Index end) {
              for (Eigen::Index i = begin; i < end; ++i) o[i] = Convert<D, S>(in[i]);
            });
      });
    });
    OP_REQUIRES(ctx, found,
                errors::Unimplemented("Cast (node '", name(), "'): ", DataTypeString(src_),
                                      " to ", DataTypeString(dst_), " is not supported"));
  }

 private:
  DataType src_, dst_;
};

REGISTER_KERNEL_BUILDER(Name("Cast").Device(DEVICE_CPU), CastOp);

}  // namespace
}  // namespace sg
