// Where (one input): the coordinates of the true / non-zero elements, as int64 [n, rank] in
// row-major order. Unique: the distinct values of a vector in order of first appearance.
#include <unordered_map>

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

class UniqueOp final : public OpKernel {
 public:
  explicit UniqueOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    OP_REQUIRES(ctx, in.dims() == 1,
                NodeError(ctx, "unique expects a 1D vector, got ", in.shape().DebugString()));
    const int64_t n = in.NumElements();
    Tensor* idx;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, in.shape(), &idx));
    auto run = [&](auto tag) {
      using T = decltype(tag);
      const T* v = in.data<T>();
      std::unordered_map<T, int64_t> first;
      std::vector<T> uniq;
      for (int64_t i = 0; i < n; ++i) {
        auto it = first.emplace(v[i], static_cast<int64_t>(uniq.size()));
        if (it.second) uniq.push_back(v[i]);
        if (idx->dtype() == DT_INT32) {
          idx->data<int32_t>()[i] = static_cast<int32_t>(it.first->second);
        } else {
          idx->data<int64_t>()[i] = it.first->second;
        }
      }
      Tensor* y;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(
                              0, TensorShape({static_cast<int64_t>(uniq.size())}), &y));
      std::copy(uniq.begin(), uniq.end(), y->data<T>());
    };
    switch (in.dtype()) {
      case DT_FLOAT: run(float{}); break;
      case DT_DOUBLE: run(double{}); break;
      case DT_INT32: run(int32_t{}); break;
      case DT_INT64: run(int64_t{}); break;
      case DT_INT8: run(int8_t{}); break;
      case DT_UINT8: run(uint8_t{}); break;
      case DT_INT16: run(int16_t{}); break;
      case DT_UINT16: run(uint16_t{}); break;
      case DT_BOOL: run(bool{}); break;
      case DT_STRING: run(tstring{}); break;
      default:
        ctx->CtxFailure(NodeError(ctx, "Unique does not support dtype ",
                                  DataTypeString(in.dtype())));
    }
  }
};
REGISTER_KERNEL_BUILDER(Name("Unique").Device(DEVICE_CPU), UniqueOp);

}  // namespace
}  // namespace sg
