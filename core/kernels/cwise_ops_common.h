// Shared pieces of the math kernels: dtype lists and dispatch over them, error helpers, and the
// generic element-wise kernels BinaryOp<F> (numpy broadcasting) and UnaryOp<F>.
//
// A binary functor F provides
//   template <typename T> struct Out { using type = ...; };   // output element type
//   template <typename T> Out<T>::type operator()(T x, T y) const;
//   template <typename T> absl::Status Check(const Tensor& x, const Tensor& y) const;  (optional,
//       via BinaryFunctorBase: e.g. integer division by zero)
//   static constexpr double kCost;
// A unary functor F provides
//   template <typename T> void Run(const Eigen::ThreadPoolDevice&, ConstFlat<T> in,
//                                  Flat<OutT> out) const;   // an Eigen expression
#ifndef SG_CORE_KERNELS_CWISE_OPS_COMMON_H_
#define SG_CORE_KERNELS_CWISE_OPS_COMMON_H_

#include <type_traits>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/framework/tensor.h"
#include "core/framework/types.h"
#include "core/kernels/broadcast.h"
#include "core/kernels/parallel_for.h"

namespace sg {

template <typename... Ts>
struct TypeList {};

// Calls fn(T{}) for the C++ type T in the list whose DataType is `dt`; false when none is.
template <typename... Ts, typename Fn>
bool DispatchTypes(TypeList<Ts...>, DataType dt, Fn&& fn) {
  return ((dt == DataTypeToEnum<Ts>::value ? (fn(Ts{}), true) : false) || ...);
}

// The DataTypes of a list, for a kernel's TypeConstraint: a dtype the op allows but the kernel
// cannot dispatch then fails when the kernel is created ("No registered kernel ..." naming the
// node), before the step runs.
template <typename... Ts>
std::vector<DataType> DataTypesOf(TypeList<Ts...>) {
  return {DataTypeToEnum<Ts>::value...};
}

using FloatTypes = TypeList<float, double, half>;
using FloatTypesWithBf16 = TypeList<float, double, half, bfloat16>;
using BitwiseTypes =
    TypeList<int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t>;
using IntTypes = TypeList<int32_t, int64_t, int8_t, int16_t, uint8_t, uint16_t>;
using SignedTypes = TypeList<float, double, half, int32_t, int64_t, int8_t, int16_t>;
using RealTypes =
    TypeList<float, double, half, int32_t, int64_t, int8_t, int16_t, uint8_t, uint16_t>;
using WideRealTypes = TypeList<float, double, half, int32_t, int64_t, int8_t, int16_t, uint8_t,
                               uint16_t, uint32_t, uint64_t>;

template <typename T>
constexpr bool kIsFloat = std::is_floating_point<T>::value || std::is_same<T, half>::value ||
                          std::is_same<T, bfloat16>::value;

// The type an element-wise kernel computes T in: float for half and bfloat16 (the result is
// rounded back to T once), T itself otherwise.
template <typename T>
using ComputeType = std::conditional_t<
    std::is_same<T, half>::value || std::is_same<T, bfloat16>::value, float, T>;

// A type list whose bfloat16 inputs run through the kernel's float instantiation: widened to
// float, computed, rounded to bfloat16 once (to nearest even). Eigen evaluates TensorFlow's
// bfloat16 expressions the same way, one function at a time (convert, compute in float, round),
// so only an expression of several steps can differ, by the roundings between its steps. It adds
// no instantiation of the functor, where a bfloat16 one would add an Eigen expression per op.
template <typename List>
struct Bf16ViaFloat {};

template <typename L>
struct Bf16Plan {
  using list = L;
  static constexpr bool kViaFloat = false;
};
template <typename L>
struct Bf16Plan<Bf16ViaFloat<L>> {
  using list = L;
  static constexpr bool kViaFloat = true;
};

// out[i] = float(in[i]) and out[i] = bfloat16(in[i]) (round to nearest even), over the pool.
inline void WidenBf16(const Eigen::ThreadPoolDevice& d, const bfloat16* in, float* out,
                      int64_t n) {
  ParallelFor(d, n, Eigen::TensorOpCost(2, 4, 1), [in, out](Eigen::Index b, Eigen::Index e) {
    for (Eigen::Index i = b; i < e; ++i) out[i] = static_cast<float>(in[i]);
  });
}
inline void NarrowToBf16(const Eigen::ThreadPoolDevice& d, const float* in, bfloat16* out,
                         int64_t n) {
  ParallelFor(d, n, Eigen::TensorOpCost(4, 2, 2), [in, out](Eigen::Index b, Eigen::Index e) {
    for (Eigen::Index i = b; i < e; ++i) out[i] = static_cast<bfloat16>(in[i]);
  });
}
// A float temp holding a bfloat16 tensor's values.
inline absl::Status WidenBf16Tensor(OpKernelContext* ctx, const Tensor& in, Tensor* out) {
  absl::Status s = ctx->allocate_temp(DT_FLOAT, in.shape(), out);
  if (!s.ok()) return s;
  WidenBf16(ctx->eigen_cpu_device(), in.data<bfloat16>(), out->data<float>(), in.NumElements());
  return absl::OkStatus();
}

// INVALID_ARGUMENT naming the op and node.
template <typename... Args>
absl::Status KernelError(const OpKernel& k, const Args&... args) {
  return errors::InvalidArgument(k.type_string(), " (node '", k.name(), "'): ", args...);
}

inline absl::Status UnsupportedType(const OpKernel& k, DataType dt) {
  return errors::Unimplemented(k.type_string(), " (node '", k.name(), "'): dtype ",
                               DataTypeString(dt), " is not supported");
}

// Reads a scalar (or one-element) integer input of dtype int16/int32/int64.
inline bool ScalarAsInt64(const Tensor& t, int64_t* v) {
  if (t.NumElements() != 1) return false;
  switch (t.dtype()) {
    case DT_INT32: *v = t.data<int32_t>()[0]; return true;
    case DT_INT64: *v = t.data<int64_t>()[0]; return true;
    case DT_INT16: *v = t.data<int16_t>()[0]; return true;
    default: return false;
  }
}

struct BinaryFunctorBase {
  template <typename T>
  struct Out {
    using type = T;
  };
  template <typename T>
  absl::Status Check(const OpKernel&, const Tensor&, const Tensor&) const {
    return absl::OkStatus();
  }
  static constexpr double kCost = 1.0;
};

// z = F(x, y) with numpy broadcasting, for the dtypes in `Types`.
template <typename F, typename Types>
class BinaryOp : public OpKernel {
 public:
  explicit BinaryOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    if (ctx->HasAttr("incompatible_shape_error")) {
      OP_REQUIRES_OK(ctx, ctx->GetAttr("incompatible_shape_error", &incompatible_shape_error_));
    }
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    const Tensor& y = ctx->input(1);
    BCast bcast(x.shape(), y.shape());
    if (!bcast.valid()) {
      if (!incompatible_shape_error_) {
        // Equal/NotEqual: a scalar "not equal" instead of an error.
        Tensor* out;
        OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape(), &out));
        out->data<bool>()[0] = type_string() == "NotEqual";
        return;
      }
      ctx->CtxFailure(KernelError(*this, "Incompatible shapes: ", x.shape().DebugString(),
                                  " vs. ", y.shape().DebugString()));
      return;
    }
    const F f;
    bool ok = DispatchTypes(Types(), x.dtype(), [&](auto tag) {
      using T = decltype(tag);
      using Out = typename F::template Out<T>::type;
      OP_REQUIRES_OK(ctx, f.template Check<T>(*this, x, y));
      Tensor* out = nullptr;
      const TensorShape& shape = bcast.output_shape();
      if (std::is_same<T, Out>::value && DataTypeIsPod(x.dtype()) && x.shape() == shape) {
        OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output(0, 0, shape, &out));
      } else if (std::is_same<T, Out>::value && DataTypeIsPod(x.dtype()) &&
                 y.shape() == shape) {
        OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output(1, 0, shape, &out));
      } else {
        OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &out));
      }
      BroadcastBinaryLoop(
          ctx->eigen_cpu_device(), bcast, x.data<T>(), y.data<T>(), out->data<Out>(),
          [f](const T& a, const T& b) { return static_cast<Out>(f(a, b)); }, F::kCost);
    });
    if (!ok) ctx->CtxFailure(UnsupportedType(*this, x.dtype()));
  }

 private:
  bool incompatible_shape_error_ = true;
};

// y = F(x) element-wise, for the dtypes in `Types` (a TypeList, or Bf16ViaFloat<TypeList> to run
// bfloat16 through the float instantiation); OutT is bool for predicates.
template <typename F, typename Types, bool kBoolOut = false>
class UnaryOp : public OpKernel {
 public:
  explicit UnaryOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    using Plan = Bf16Plan<Types>;
    if constexpr (Plan::kViaFloat) {
      if (x.dtype() == DT_BFLOAT16) {
        ComputeBf16(ctx, x);
        return;
      }
    }
    bool ok = DispatchTypes(typename Plan::list(), x.dtype(), [&](auto tag) {
      using T = decltype(tag);
      using Out = std::conditional_t<kBoolOut, bool, T>;
      Tensor* out = nullptr;
      if (kBoolOut) {
        OP_REQUIRES_OK(ctx, ctx->allocate_output(0, x.shape(), &out));
      } else {
        OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output(0, 0, x.shape(), &out));
      }
      if (x.NumElements() == 0) return;
      typename TTypes<T>::ConstFlat in(x.data<T>(), x.NumElements());
      F().template Run<T>(ctx->eigen_cpu_device(), in, out->flat<Out>());
    });
    if (!ok) ctx->CtxFailure(UnsupportedType(*this, x.dtype()));
  }

 private:
  // bfloat16 through F's float instantiation, in place in a float temp.
  void ComputeBf16(OpKernelContext* ctx, const Tensor& x) {
    Tensor* out = nullptr;
    if (kBoolOut) {
      OP_REQUIRES_OK(ctx, ctx->allocate_output(0, x.shape(), &out));
    } else {
      OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output(0, 0, x.shape(), &out));
    }
    const int64_t n = x.NumElements();
    if (n == 0) return;
    Tensor xf;
    OP_REQUIRES_OK(ctx, WidenBf16Tensor(ctx, x, &xf));
    const auto& d = ctx->eigen_cpu_device();
    typename TTypes<float>::ConstFlat in(xf.data<float>(), n);
    if constexpr (kBoolOut) {
      F().template Run<float>(d, in, out->flat<bool>());
    } else {
      F().template Run<float>(d, in, xf.flat<float>());
      NarrowToBf16(d, xf.data<float>(), out->data<bfloat16>(), n);
    }
  }
};

}  // namespace sg

#endif  // SG_CORE_KERNELS_CWISE_OPS_COMMON_H_
