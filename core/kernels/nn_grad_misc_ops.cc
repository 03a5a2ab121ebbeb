// L2Loss (sum(t^2) / 2 as a scalar; half and bfloat16 sum in float and round once) and
// BroadcastGradientArgs (the reduction indices of a broadcasting binary op's gradients), as
// TensorFlow's kernels.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/kernels/cwise_ops_common.h"

namespace sg {
namespace {

class L2LossOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& t = ctx->input(0);
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape(), &out));
    const bool ok = DispatchTypes(FloatTypesWithBf16(), t.dtype(), [&](auto tag) {
      using T = decltype(tag);
      using C = ComputeType<T>;
      const T* in = t.data<T>();
      C sum = 0;
      for (int64_t i = 0; i < t.NumElements(); ++i) {
        const C v = static_cast<C>(in[i]);
        sum += v * v * C(0.5);
      }
      out->data<T>()[0] = static_cast<T>(sum);
    });
    OP_REQUIRES(ctx, ok, UnsupportedType(*this, t.dtype()));
  }
};
REGISTER_KERNEL_BUILDER(Name("L2Loss").Device(DEVICE_CPU), L2LossOp);

// For shapes s0 and s1 (vectors, numpy broadcasting): r_i lists, ascending, the dims of the
// broadcast shape that input i's gradient sums over: the dims where s_i is 1 (or missing) and
// the other is not, and the dims where both are 1. Identical shapes give two empty lists.
class BroadcastGradientArgsOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    std::vector<int64_t> shapes[2];
    for (int i = 0; i < 2; ++i) {
      const Tensor& s = ctx->input(i);
      OP_REQUIRES(ctx, s.dims() == 1,
                  KernelError(*this, "In[", i, "] must be a vector.", s.shape().DebugString()));
      for (int64_t j = 0; j < s.NumElements(); ++j) {
        shapes[i].push_back(s.dtype() == DT_INT32 ? s.data<int32_t>()[j]
                                                  : s.data<int64_t>()[j]);
      }
    }
    auto shape_string = [](const std::vector<int64_t>& v) {
      std::string out = "[";
      for (size_t i = 0; i < v.size(); ++i) out += (i ? "," : "") + std::to_string(v[i]);
      return out + "]";
    };
    std::vector<int64_t> reduce[2];
    if (shapes[0] != shapes[1]) {
      const size_t rank = std::max(shapes[0].size(), shapes[1].size());
      for (size_t k = 0; k < rank; ++k) {
        int64_t d[2];
        for (int i = 0; i < 2; ++i) {
          const size_t pad = rank - shapes[i].size();
          d[i] = k < pad ? 1 : shapes[i][k - pad];
        }
        OP_REQUIRES(ctx, d[0] == d[1] || d[0] == 1 || d[1] == 1,
                    KernelError(*this, "Incompatible shapes: ", shape_string(shapes[0]),
                                " vs. ", shape_string(shapes[1])));
        for (int i = 0; i < 2; ++i) {
          if (d[i] == 1) reduce[i].push_back(static_cast<int64_t>(k));
        }
      }
    }
    for (int i = 0; i < 2; ++i) {
      Tensor* out;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(
                              i, TensorShape({static_cast<int64_t>(reduce[i].size())}), &out));
      for (size_t j = 0; j < reduce[i].size(); ++j) {
        if (out->dtype() == DT_INT32) {
          out->data<int32_t>()[j] = static_cast<int32_t>(reduce[i][j]);
        } else {
          out->data<int64_t>()[j] = reduce[i][j];
        }
      }
    }
  }
};
REGISTER_KERNEL_BUILDER(Name("BroadcastGradientArgs").Device(DEVICE_CPU),
                        BroadcastGradientArgsOp);

}  // namespace
}  // namespace sg
