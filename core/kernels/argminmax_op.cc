// ArgMax and ArgMin: the index of the first largest (smallest) value along one axis; NaNs are
// skipped.
#include "core/kernels/cwise_ops_common.h"
#include "core/kernels/parallel_for.h"

namespace sg {
namespace {

using ArgTypes = TypeList<float, double, half, bfloat16, int32_t, int64_t, int8_t, int16_t,
                          uint8_t, uint16_t, uint32_t, uint64_t, bool>;
using IndexTypes = TypeList<int64_t, int32_t, int16_t, uint16_t>;

template <bool kMax>
class ArgOp final : public OpKernel {
 public:
  explicit ArgOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    const Tensor& dim = ctx->input(1);
    int64_t axis;
    OP_REQUIRES(ctx, dim.dims() == 0 && ScalarAsInt64(dim, &axis),
                KernelError(*this, "dim must be a scalar, but received tensor of shape: ",
                            dim.shape().DebugString()));
    const int rank = in.dims();
    OP_REQUIRES(ctx, axis >= -rank && axis < rank,
                KernelError(*this, "Expected dimension in the range [", -rank, ", ", rank,
                            "), but got ", axis));
    if (axis < 0) axis += rank;
    OP_REQUIRES(ctx, in.dim_size(axis) > 0,
                KernelError(*this, "Reduction axis ", axis, " is empty in shape ",
                            in.shape().DebugString()));
    TensorShape out_shape;
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < rank; ++d) {
      if (d == axis) continue;
      out_shape.AddDim(in.dim_size(d));
      (d < axis ? outer : inner) *= in.dim_size(d);
    }
    const int64_t len = in.dim_size(axis);
    const DataType out_type = output_type(0);
    bool ok = DispatchTypes(ArgTypes(), in.dtype(), [&](auto tag) {
      using T = decltype(tag);
      DispatchTypes(IndexTypes(), out_type, [&](auto itag) {
        using I = decltype(itag);
        Tensor* out;
        OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &out));
        const T* p = in.data<T>();
        I* o = out->data<I>();
        ParallelFor(ctx->eigen_cpu_device(),
            outer * inner, Eigen::TensorOpCost(len * sizeof(T), sizeof(I), len),
            [&](Eigen::Index begin, Eigen::Index end) {
              for (Eigen::Index i = begin; i < end; ++i) {
                const T* row = p + (i / inner) * len * inner + (i % inner);
                // As TensorFlow's reducer: from the type's lowest (highest) value, so a NaN
                // never wins and a row of NaNs gives 0.
                int64_t best = 0;
                T best_v = kMax ? Eigen::NumTraits<T>::lowest() : Eigen::NumTraits<T>::highest();
                for (int64_t j = 0; j < len; ++j) {
                  const T v = row[j * inner];
                  if (kMax ? (best_v < v) : (v < best_v)) {
                    best = j;
                    best_v = v;
                  }
                }
                o[i] = static_cast<I>(best);
              }
            });
      });
    });
    if (!ok) ctx->CtxFailure(UnsupportedType(*this, in.dtype()));
  }
};

REGISTER_KERNEL_BUILDER(Name("ArgMax").Device(DEVICE_CPU), ArgOp<true>);
REGISTER_KERNEL_BUILDER(Name("ArgMin").Device(DEVICE_CPU), ArgOp<false>);

}  // namespace
}  // namespace sg
