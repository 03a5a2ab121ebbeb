// InplaceUpdate / InplaceAdd / InplaceSub, DeepCopy, ParallelConcat, _ParallelConcatStart and
// _ParallelConcatUpdate, as TensorFlow's CPU kernels.
//
// Inplace<Op>(x, i, v): y = x with row i[j] of y replaced by (or added to, or less) row j of v, in
// order (a repeated row takes every update). As TensorFlow's kernel does, a row index is taken
// modulo x's row count (-1 is the last row, n the first). TensorFlow writes into x's own buffer;
// sg writes into x's buffer only when nothing else holds it, and otherwise into a copy, so a
// Const or a variable's value is never changed behind the graph's back.
//
// ParallelConcat stacks its [1, ...] values into the `shape` attr directly (TensorFlow rewrites it
// into the other two ops first; the result is the same). _ParallelConcatUpdate writes into its
// input's buffer, shared on purpose: the rewrite reads the rows back through the
// _ParallelConcatStart tensor they were written into.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/kernels/cwise_ops_common.h"
#include "core/kernels/element_copy.h"

namespace sg {
namespace {

enum class Inplace { kUpdate, kAdd, kSub };

using InplaceArithTypes = TypeList<float, double, half, bfloat16, int8_t, int16_t, int32_t,
                                   int64_t, uint8_t, uint16_t, uint32_t, uint64_t, complex64,
                                   complex128>;

template <Inplace K>
class InplaceOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    const Tensor& i = ctx->input(1);
    const Tensor& v = ctx->input(2);
    OP_REQUIRES(ctx, i.dims() == 1,
                KernelError(*this, "i must be a vector. ", i.shape().DebugString()));
    OP_REQUIRES(ctx, x.dims() == v.dims(),
                KernelError(*this, "x and v shape doesn't match (ranks differ): ",
                            x.shape().DebugString(), " vs. ", v.shape().DebugString()));
    for (int d = 1; d < x.dims(); ++d) {
      OP_REQUIRES(ctx, x.dim_size(d) == v.dim_size(d),
                  KernelError(*this, "x and v shape doesn't match at index ", d, " : ",
                              x.shape().DebugString(), " vs. ", v.shape().DebugString()));
    }
    OP_REQUIRES(ctx, i.dim_size(0) == v.dim_size(0),
                KernelError(*this, "i and x shape doesn't match at index 0: ",
                            i.shape().DebugString(), " vs. ", v.shape().DebugString()));
    if (x.NumElements() == 0 && v.NumElements() == 0) {
      ctx->set_output(0, x);
      return;
    }
    const int64_t rows = x.dim_size(0);
    OP_REQUIRES(ctx, rows > 0,
                KernelError(*this, "x of shape ", x.shape().DebugString(), " has no rows for v of "
                            "shape ", v.shape().DebugString()));
    Tensor y;
    if (Tensor* own = ctx->input_if_unique(0)) {
      y = *own;
    } else {
      y = x.DeepCopy();
    }
    const int64_t row = rows == 0 ? 0 : x.NumElements() / rows;
    const int32_t* idx = i.data<int32_t>();
    bool ok;
    if constexpr (K == Inplace::kUpdate) {
      ok = DispatchByCopy(x.dtype(), [&](auto tag) {
        using T = decltype(tag);
        T* o = static_cast<T*>(y.raw_data());
        const T* u = static_cast<const T*>(v.raw_data());
        for (int64_t j = 0; j < i.dim_size(0); ++j) {
          const int64_t r = ((idx[j] % rows) + rows) % rows;
          std::copy(u + j * row, u + (j + 1) * row, o + r * row);
        }
      });
    } else {
      ok = DispatchTypes(InplaceArithTypes(), x.dtype(), [&](auto tag) {
        using T = decltype(tag);
        T* o = y.data<T>();
        const T* u = v.data<T>();
        for (int64_t j = 0; j < i.dim_size(0); ++j) {
          const int64_t r = ((idx[j] % rows) + rows) % rows;
          for (int64_t e = 0; e < row; ++e) {
            T& cell = o[r * row + e];
            if constexpr (std::is_integral_v<T>) {
              using U = std::make_unsigned_t<T>;  // wraps, as TensorFlow's does
              cell = static_cast<T>(K == Inplace::kAdd
                                        ? static_cast<U>(cell) + static_cast<U>(u[j * row + e])
                                        : static_cast<U>(cell) - static_cast<U>(u[j * row + e]));
            } else {
              cell = K == Inplace::kAdd ? T(cell + u[j * row + e]) : T(cell - u[j * row + e]);
            }
          }
        }
      });
    }
    OP_REQUIRES(ctx, ok, UnsupportedType(*this, x.dtype()));
    ctx->set_output(0, y);
  }
};
REGISTER_KERNEL_BUILDER(Name("InplaceUpdate").Device(DEVICE_CPU), InplaceOp<Inplace::kUpdate>);
REGISTER_KERNEL_BUILDER(Name("InplaceAdd")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", DataTypesOf(InplaceArithTypes())),
                        InplaceOp<Inplace::kAdd>);
REGISTER_KERNEL_BUILDER(Name("InplaceSub")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", DataTypesOf(InplaceArithTypes())),
                        InplaceOp<Inplace::kSub>);

class DeepCopyOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;
  void Compute(OpKernelContext* ctx) override { ctx->set_output(0, ctx->input(0).DeepCopy()); }
};
REGISTER_KERNEL_BUILDER(Name("DeepCopy").Device(DEVICE_CPU), DeepCopyOp);

// Copies the one row of `update` into row `loc` of `out`.
absl::Status CopyRow(const OpKernel& k, const Tensor& update, int64_t loc, Tensor* out) {
  const int64_t row = out->dim_size(0) == 0 ? 0 : out->NumElements() / out->dim_size(0);
  const bool ok = DispatchByCopy(out->dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* u = static_cast<const T*>(update.raw_data());
    std::copy(u, u + row, static_cast<T*>(out->raw_data()) + loc * row);
  });
  return ok ? absl::OkStatus() : UnsupportedType(k, out->dtype());
}

// update must be [1] + value.shape[1:].
absl::Status CheckRow(const OpKernel& k, const TensorShape& whole, const Tensor& update,
                      const char* what) {
  if (update.dims() != whole.dims()) {
    return KernelError(k, what, " shape doesn't match: ", update.shape().DebugString(), " vs. ",
                       whole.DebugString());
  }
  for (int d = 1; d < whole.dims(); ++d) {
    if (update.dim_size(d) != whole.dim_size(d)) {
      return KernelError(k, what, " shape doesn't match: ", update.shape().DebugString(),
                         " vs. ", whole.DebugString());
    }
  }
  if (update.dim_size(0) != 1) {
    return KernelError(k, what, " shape doesn't match: ", update.shape().DebugString(),
                       " must have 1 as its first dimension");
  }
  return absl::OkStatus();
}

class ParallelConcatOp final : public OpKernel {
 public:
  explicit ParallelConcatOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("shape", &shape_));
  }

  void Compute(OpKernelContext* ctx) override {
    TensorShape shape;
    OP_REQUIRES(ctx, shape_.AsTensorShape(&shape) && shape.dims() >= 1,
                KernelError(*this, "shape must be fully defined and of rank >= 1, got ",
                            shape_.DebugString()));
    const int n = ctx->num_inputs();
    OP_REQUIRES(ctx, shape.dim_size(0) == n,
                KernelError(*this, "shape ", shape.DebugString(), " has ", shape.dim_size(0),
                            " rows for ", n, " values"));
    for (int j = 0; j < n; ++j) OP_REQUIRES_OK(ctx, CheckRow(*this, shape, ctx->input(j), "value"));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &out));
    for (int j = 0; j < n; ++j) OP_REQUIRES_OK(ctx, CopyRow(*this, ctx->input(j), j, out));
  }

 private:
  PartialTensorShape shape_;
};
REGISTER_KERNEL_BUILDER(Name("ParallelConcat").Device(DEVICE_CPU), ParallelConcatOp);

class ParallelConcatStartOp final : public OpKernel {
 public:
  explicit ParallelConcatStartOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("shape", &shape_));
  }

  void Compute(OpKernelContext* ctx) override {
    TensorShape shape;
    OP_REQUIRES(ctx, shape_.AsTensorShape(&shape),
                KernelError(*this, "shape must be fully defined, got ", shape_.DebugString()));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &out));
    // TensorFlow leaves the contents uninitialized; zeros keep sg's runs deterministic.
    if (out->dtype() != DT_STRING && out->dtype() != DT_VARIANT && out->TotalBytes() > 0) {
      std::memset(out->raw_data(), 0, out->TotalBytes());
    }
  }

 private:
  PartialTensorShape shape_;
};
REGISTER_KERNEL_BUILDER(Name("_ParallelConcatStart").Device(DEVICE_CPU), ParallelConcatStartOp);

class ParallelConcatUpdateOp final : public OpKernel {
 public:
  explicit ParallelConcatUpdateOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("loc", &loc_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& value = ctx->input(0);
    const Tensor& update = ctx->input(1);
    OP_REQUIRES(ctx, value.dims() >= 1, KernelError(*this, "value should be at least rank 1."));
    OP_REQUIRES(ctx, loc_ >= 0 && loc_ < value.dim_size(0),
                KernelError(*this, "loc = ", loc_, " is not a row of value, of shape ",
                            value.shape().DebugString()));
    OP_REQUIRES_OK(ctx, CheckRow(*this, value.shape(), update, "value and update"));
    Tensor out = value;  // shares value's buffer: see the file comment
    OP_REQUIRES_OK(ctx, CopyRow(*this, update, loc_, &out));
    ctx->set_output(0, out);
  }

 private:
  int64_t loc_;
};
REGISTER_KERNEL_BUILDER(Name("_ParallelConcatUpdate").Device(DEVICE_CPU), ParallelConcatUpdateOp);

}  // namespace
}  // namespace sg
