// Range: [start, start + delta, ...) up to limit, values accumulated by repeated addition of
// delta as TensorFlow's CPU kernel does. LinSpace: num evenly spaced values from start to stop.
#include <cmath>

#include "core/kernels/cwise_ops_common.h"

namespace sg {
namespace {

using RangeTypes = TypeList<float, double, half, bfloat16, int32_t, int64_t, int8_t, int16_t,
                            uint16_t, uint32_t>;

// A value as StrCat prints it: narrow integers as numbers, bfloat16 as float.
template <typename T>
auto Printable(T v) {
  if constexpr (std::is_same<T, bfloat16>::value) {
    return static_cast<float>(v);
  } else {
    return +v;
  }
}

class RangeOp final : public OpKernel {
 public:
  explicit RangeOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const char* names[3] = {"start", "limit", "delta"};
    for (int i = 0; i < 3; ++i) {
      OP_REQUIRES(ctx, ctx->input(i).dims() == 0,
                  KernelError(*this, names[i], " must be a scalar, not shape ",
                              ctx->input(i).shape().DebugString()));
    }
    const DataType dt = ctx->input(0).dtype();
    bool ok = DispatchTypes(RangeTypes(), dt, [&](auto tag) {
      using T = decltype(tag);
      using W = std::conditional_t<std::is_same<T, half>::value, float, T>;
      const W start = static_cast<W>(ctx->input(0).data<T>()[0]);
      const W limit = static_cast<W>(ctx->input(1).data<T>()[0]);
      const W delta = static_cast<W>(ctx->input(2).data<T>()[0]);
      OP_REQUIRES(ctx, delta != W(0),
                  KernelError(*this, "Requires delta != 0: ", Printable(delta)));
      if (delta > W(0)) {
        OP_REQUIRES(ctx, start <= limit,
                    KernelError(*this, "Requires start <= limit when delta > 0: ",
                                Printable(start), "/", Printable(limit)));
      } else {
        OP_REQUIRES(ctx, start >= limit,
                    KernelError(*this, "Requires start >= limit when delta < 0: ",
                                Printable(start), "/", Printable(limit)));
      }
      int64_t size;
      if constexpr (std::is_integral<W>::value) {
        const int64_t span = std::abs(static_cast<int64_t>(limit) - static_cast<int64_t>(start));
        const int64_t step = std::abs(static_cast<int64_t>(delta));
        size = (span + step - 1) / step;
      } else {
        // In T, as TensorFlow computes the size (bfloat16 rounds the quotient first).
        const W n = Eigen::numext::ceil(Eigen::numext::abs((limit - start) / delta));
        OP_REQUIRES(ctx, n <= static_cast<W>(std::numeric_limits<int32_t>::max()) * 64,
                    KernelError(*this, "Requires ((limit - start) / delta) <= 2^37"));
        size = static_cast<int64_t>(n);
      }
      Tensor* out;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({size}), &out));
      T* o = out->data<T>();
      W v = start;
      for (int64_t i = 0; i < size; ++i) {
        o[i] = static_cast<T>(v);
        v = static_cast<W>(v + delta);
      }
    });
    if (!ok) ctx->CtxFailure(UnsupportedType(*this, dt));
  }
};

REGISTER_KERNEL_BUILDER(
    Name("Range").Device(DEVICE_CPU).TypeConstraint("Tidx", DataTypesOf(RangeTypes())), RangeOp);

// LinSpace: num values from start to stop, start + i * step with the last one stop itself.
class LinSpaceOp final : public OpKernel {
 public:
  explicit LinSpaceOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const char* names[3] = {"start", "stop", "num"};
    for (int i = 0; i < 3; ++i) {
      OP_REQUIRES(ctx, ctx->input(i).dims() == 0,
                  KernelError(*this, names[i], " must be a scalar, not shape ",
                              ctx->input(i).shape().DebugString()));
    }
    const int64_t num = ctx->input(2).dtype() == DT_INT32 ? ctx->input(2).data<int32_t>()[0]
                                                          : ctx->input(2).data<int64_t>()[0];
    OP_REQUIRES(ctx, num > 0, KernelError(*this, "Requires num > 0: ", num));
    auto shape = TensorShape::Build({num});
    OP_REQUIRES(ctx, shape.ok(), KernelError(*this, shape.status().message()));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, *shape, &out));
    const bool ok = DispatchTypes(TypeList<float, double>(), out->dtype(), [&](auto tag) {
      using T = decltype(tag);
      const T start = ctx->input(0).data<T>()[0], stop = ctx->input(1).data<T>()[0];
      T* o = out->data<T>();
      if (num == 1) {
        o[0] = start;
        return;
      }
      const T step = (stop - start) / static_cast<T>(num - 1);
      for (int64_t i = 0; i < num - 1; ++i) o[i] = start + step * static_cast<T>(i);
      o[num - 1] = stop;
    });
    if (!ok) ctx->CtxFailure(UnsupportedType(*this, out->dtype()));
  }
};
// TensorFlow's CPU kernels: float and double (its OpDef also allows half and bfloat16).
REGISTER_KERNEL_BUILDER(Name("LinSpace").Device(DEVICE_CPU).TypeConstraint("T",
                                                                         {DT_FLOAT, DT_DOUBLE}),
                        LinSpaceOp);

}  // namespace
}  // namespace sg
