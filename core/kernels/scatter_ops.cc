// Scatter{Update,Add,Sub,Mul,Div,Min,Max} on ref variables and ResourceScatter{Update,Add,Sub,
// Mul,Div,Min,Max} on resource variables, as TensorFlow's scatter_op.cc and
// resource_variable_ops.cc CPU kernels.
//
// Row indices[i] of the variable (a slice of shape var.shape[1:]) is combined with updates[i, ...]
// (updates has shape indices.shape + var.shape[1:]) or, for a scalar updates, with that scalar,
// for each element i of indices in order: assigned (duplicates: the last wins), added,
// subtracted, multiplied, divided, or min/max-ed in turn. Integers wrap (ScatterDiv: truncating
// division). Min and Max keep a NaN already in the variable and ignore a NaN update, as TF's
// std::min/std::max order does.
//
// Dtypes, as TensorFlow's CPU kernels: Update any (TensorFlow's ResourceScatterUpdate lacks
// DT_RESOURCE); Add, Sub, Mul and Div the real and complex numbers; Min and Max the real numbers.
// Indices are int32 or int64, of any shape.
//
// Errors (INVALID_ARGUMENT naming the node unless said otherwise): a variable of rank 0; updates
// neither a scalar nor of shape indices.shape + var.shape[1:] (TensorFlow's resource kernels only
// check the rank and the indices prefix, then read past the updates); an index outside
// [0, var.shape[0]); ResourceScatterDiv with a zero anywhere in updates (TensorFlow's check, for
// every dtype); ScatterDiv of integers by zero (TensorFlow's process dies of SIGFPE). Every check
// runs before the first write, so a failed scatter leaves the variable as it was (TensorFlow's
// kernels have written the rows before a bad index). FAILED_PRECONDITION for an uninitialized
// variable; see UpdateVariable for the resource lookup's errors.
#include <string>
#include <type_traits>
#include <vector>

#include "absl/strings/str_join.h"
#include "core/framework/op_kernel.h"
#include "core/kernels/cwise_ops_common.h"
#include "core/kernels/element_copy.h"
#include "core/kernels/variable_update.h"

namespace sg {
namespace {

enum class Scatter { kUpdate, kAdd, kSub, kMul, kDiv, kMin, kMax };

// The unsigned type integer arithmetic of T wraps in (at least 32 bits, so that no promotion to
// int can overflow).
template <typename T>
using Unsigned = std::conditional_t<(sizeof(T) < 4), uint32_t, std::make_unsigned_t<T>>;

template <Scatter S, typename T>
inline void Combine(const T& u, T* p) {
  if constexpr (S == Scatter::kUpdate) {
    *p = u;
  } else if constexpr (S == Scatter::kMin) {
    *p = (u < *p) ? u : *p;
  } else if constexpr (S == Scatter::kMax) {
    *p = (*p < u) ? u : *p;
  } else if constexpr (std::is_integral_v<T>) {
    const auto a = static_cast<Unsigned<T>>(*p), b = static_cast<Unsigned<T>>(u);
    if constexpr (S == Scatter::kAdd) {
      *p = static_cast<T>(a + b);
    } else if constexpr (S == Scatter::kSub) {
      *p = static_cast<T>(a - b);
    } else if constexpr (S == Scatter::kMul) {
      *p = static_cast<T>(a * b);
    } else if constexpr (std::is_signed_v<T>) {
      // The divisor is not zero (checked); x / -1 wraps for the minimum instead of trapping.
      *p = u == T(-1) ? static_cast<T>(Unsigned<T>(0) - a) : static_cast<T>(*p / u);
    } else {
      *p = static_cast<T>(*p / u);
    }
  } else if constexpr (S == Scatter::kAdd) {
    *p = *p + u;
  } else if constexpr (S == Scatter::kSub) {
    *p = *p - u;
  } else if constexpr (S == Scatter::kMul) {
    *p = *p * u;
  } else {
    *p = *p / u;
  }
}

using ArithmeticTypes = TypeList<float, double, half, bfloat16, int32_t, int64_t, int8_t, int16_t,
                                 uint8_t, uint16_t, uint32_t, uint64_t, complex64, complex128>;
using MinMaxTypes = TypeList<float, double, half, bfloat16, int32_t, int64_t, int8_t, int16_t,
                             uint8_t, uint16_t, uint32_t, uint64_t>;
using IntegerTypes =
    TypeList<int32_t, int64_t, int8_t, int16_t, uint8_t, uint16_t, uint32_t, uint64_t>;

// Calls fn(T{}) for the element type the scatter S computes `dt` in; false for a dtype it lacks.
template <Scatter S, typename Fn>
bool DispatchScatter(DataType dt, Fn&& fn) {
  if constexpr (S == Scatter::kUpdate) {
    if (dt == DT_RESOURCE) {
      fn(ResourceHandle{});
      return true;
    }
    return DispatchByCopy(dt, fn);
  } else if constexpr (S == Scatter::kMin || S == Scatter::kMax) {
    return DispatchTypes(MinMaxTypes(), dt, fn);
  } else {
    return DispatchTypes(ArithmeticTypes(), dt, fn);
  }
}

int64_t IndexValue(const Tensor& indices, int64_t i) {
  return indices.dtype() == DT_INT32 ? indices.data<int32_t>()[i] : indices.data<int64_t>()[i];
}

// "[1,2]": the position of flat element i in `shape`, as TensorFlow's SliceDebugString.
std::string Position(const TensorShape& shape, int64_t i) {
  std::vector<int64_t> pos(shape.dims());
  for (int d = shape.dims() - 1; d >= 0; --d) {
    pos[d] = i % shape.dim_size(d);
    i /= shape.dim_size(d);
  }
  return shape.dims() == 0 ? "" : "[" + absl::StrJoin(pos, ",") + "]";
}

// Whether updates has shape indices.shape + var.shape[1:] (or is a scalar).
bool ValidShapes(const TensorShape& var, const Tensor& indices, const Tensor& updates) {
  if (updates.dims() == 0) return true;
  if (updates.dims() != indices.dims() + var.dims() - 1) return false;
  for (int d = 0; d < indices.dims(); ++d) {
    if (updates.dim_size(d) != indices.dim_size(d)) return false;
  }
  for (int d = 1; d < var.dims(); ++d) {
    if (updates.dim_size(indices.dims() + d - 1) != var.dim_size(d)) return false;
  }
  return true;
}

template <typename T>
bool HasZero(const Tensor& t) {
  const T* v = static_cast<const T*>(t.raw_data());
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    if (v[i] == T{}) return true;
  }
  return false;
}

template <Scatter S>
class ScatterOp final : public OpKernel {
 public:
  explicit ScatterOp(OpKernelConstruction* ctx)
      : OpKernel(ctx), resource_(ctx->input_type(0) == DT_RESOURCE) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr(resource_ ? "dtype" : "T", &dtype_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& indices = ctx->input(1);
    const Tensor& updates = ctx->input(2);
    OP_REQUIRES_OK(ctx, UpdateVariable(ctx, 0, dtype_, [&](Tensor* var) {
      return ScatterInto(ctx, indices, updates, var);
    }));
    if (!resource_) ctx->forward_ref_input_to_ref_output(0, 0);
  }

 private:
  absl::Status ScatterInto(OpKernelContext* ctx, const Tensor& indices, const Tensor& updates,
                           Tensor* var) const {
    if (var->dims() < 1) {
      return KernelError(*this, "params must be at least 1-D, got shape ",
                         var->shape().DebugString());
    }
    if (!ValidShapes(var->shape(), indices, updates)) {
      return KernelError(*this, "Must have updates.shape = indices.shape + params.shape[1:] or ",
                         "updates.shape = [], got updates.shape ",
                         updates.shape().DebugString(), ", indices.shape ",
                         indices.shape().DebugString(), ", params.shape ",
                         var->shape().DebugString());
    }
    if constexpr (S == Scatter::kDiv) {
      // The resource kernel refuses a zero divisor of any dtype; the ref one divides floats by
      // zero (inf, nan) and would trap on an integer zero.
      bool zero = false;
      if (resource_) {
        DispatchScatter<S>(dtype_, [&](auto tag) { zero = HasZero<decltype(tag)>(updates); });
        if (zero) return KernelError(*this, "updates must not contain 0");
      } else {
        DispatchTypes(IntegerTypes(), dtype_,
                      [&](auto tag) { zero = HasZero<decltype(tag)>(updates); });
        if (zero) return KernelError(*this, "Integer division by zero in updates");
      }
    }
    const int64_t n = indices.NumElements();
    const int64_t limit = var->dim_size(0);
    std::vector<int64_t> rows(n);
    for (int64_t i = 0; i < n; ++i) {
      rows[i] = IndexValue(indices, i);
      if (rows[i] < 0 || rows[i] >= limit) {
        return KernelError(*this, "indices", Position(indices.shape(), i), " = ", rows[i],
                           " is not in [0, ", limit, ")");
      }
    }
    if (n == 0) return absl::OkStatus();
    SG_RETURN_IF_ERROR(EnsureUnshared(ctx, var));
    const int64_t row = var->NumElements() / limit;
    const bool scalar = updates.dims() == 0;
    const bool ok = DispatchScatter<S>(dtype_, [&](auto tag) {
      using T = decltype(tag);
      T* p = static_cast<T*>(var->raw_data());
      const T* u = static_cast<const T*>(updates.raw_data());
      for (int64_t i = 0; i < n; ++i) {
        T* dst = p + rows[i] * row;
        const T* src = scalar ? u : u + i * row;
        for (int64_t k = 0; k < row; ++k) Combine<S>(src[scalar ? 0 : k], &dst[k]);
      }
    });
    return ok ? absl::OkStatus() : UnsupportedType(*this, dtype_);
  }

  const bool resource_;
  DataType dtype_;
};

std::vector<DataType> IndexTypes() { return {DT_INT32, DT_INT64}; }

#define SG_REGISTER_SCATTER(name, S, types)                                                \
  REGISTER_KERNEL_BUILDER(Name("Scatter" name)                                             \
                              .Device(DEVICE_CPU)                                          \
                              .TypeConstraint("T", types)                                  \
                              .TypeConstraint("Tindices", IndexTypes()),                   \
                          ScatterOp<S>);                                                   \
  REGISTER_KERNEL_BUILDER(Name("ResourceScatter" name)                                     \
                              .Device(DEVICE_CPU)                                          \
                              .TypeConstraint("dtype", types)                              \
                              .TypeConstraint("Tindices", IndexTypes()),                   \
                          ScatterOp<S>)
REGISTER_KERNEL_BUILDER(Name("ScatterUpdate")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("Tindices", IndexTypes()),
                        ScatterOp<Scatter::kUpdate>);
REGISTER_KERNEL_BUILDER(Name("ResourceScatterUpdate")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("Tindices", IndexTypes()),
                        ScatterOp<Scatter::kUpdate>);
SG_REGISTER_SCATTER("Add", Scatter::kAdd, DataTypesOf(ArithmeticTypes()));
SG_REGISTER_SCATTER("Sub", Scatter::kSub, DataTypesOf(ArithmeticTypes()));
SG_REGISTER_SCATTER("Mul", Scatter::kMul, DataTypesOf(ArithmeticTypes()));
SG_REGISTER_SCATTER("Div", Scatter::kDiv, DataTypesOf(ArithmeticTypes()));
SG_REGISTER_SCATTER("Min", Scatter::kMin, DataTypesOf(MinMaxTypes()));
SG_REGISTER_SCATTER("Max", Scatter::kMax, DataTypesOf(MinMaxTypes()));
#undef SG_REGISTER_SCATTER

}  // namespace
}  // namespace sg
