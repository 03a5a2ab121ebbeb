// Where (one input): the coordinates of the true / non-zero elements, as int64 [n, rank] in
// row-major order (rank 1 or more).
#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"

namespace sg {
namespace {

class WhereOp final : public OpKernel {
 public:
  explicit WhereOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    const int rank = in.dims();
    // As TensorFlow's kernel (its shape function lets a scalar through).
    OP_REQUIRES(ctx, rank >= 1, NodeError(ctx, "WhereOp : Unhandled input dimensions: 0"));
    const int64_t n = in.NumElements();
    std::vector<int64_t> hits;
    const bool ok = DispatchAll(in.dtype(), [&](auto tag) {
      using T = decltype(tag);
      if constexpr (!std::is_same_v<T, tstring>) {
        const T* v = in.data<T>();
        for (int64_t i = 0; i < n; ++i) {
          if (v[i] != T(0)) hits.push_back(i);
        }
      }
    });
    OP_REQUIRES(ctx, ok && in.dtype() != DT_STRING,
                NodeError(ctx, "unsupported dtype ", DataTypeString(in.dtype())));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(
                            0, TensorShape({static_cast<int64_t>(hits.size()), rank}), &out));
    int64_t* o = out->data<int64_t>();
    for (size_t h = 0; h < hits.size(); ++h) {
      int64_t i = hits[h];
      for (int d = rank - 1; d >= 0; --d) {
        o[h * rank + d] = i % in.dim_size(d);
        i /= in.dim_size(d);
      }
    }
  }
};
// What DispatchAll covers, strings aside: the quantized types TensorFlow's op allows have no kernel.
REGISTER_KERNEL_BUILDER(Name("Where").Device(DEVICE_CPU).TypeConstraint(
                            "T", {DT_FLOAT, DT_DOUBLE, DT_HALF, DT_BFLOAT16, DT_INT8, DT_INT16,
                                  DT_INT32, DT_INT64, DT_UINT8, DT_UINT16, DT_UINT32, DT_UINT64,
                                  DT_BOOL, DT_COMPLEX64, DT_COMPLEX128}),
                        WhereOp);

}  // namespace
}  // namespace sg
