// Bucketize: the index of the bucket each input value falls in, given sorted boundaries: the
// number of boundaries not greater than the value. Values compare with the float boundaries by
// C++'s usual conversions, as TensorFlow's kernel does (an int32 or int64 value as a float, a
// double value against the boundary widened to double).
#include <algorithm>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"

namespace sg {
namespace {

class BucketizeOp final : public OpKernel {
 public:
  explicit BucketizeOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("boundaries", &boundaries_));
    OP_REQUIRES(ctx, std::is_sorted(boundaries_.begin(), boundaries_.end()),
                errors::InvalidArgument("Expected sorted boundaries (node '", ctx->def().name(),
                                        "')"));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, in.shape(), &out));
    auto run = [&](auto tag) {
      using T = decltype(tag);
      const T* v = in.data<T>();
      int32_t* o = out->data<int32_t>();
      for (int64_t i = 0; i < in.NumElements(); ++i) {
        o[i] = static_cast<int32_t>(
            std::upper_bound(boundaries_.begin(), boundaries_.end(), v[i]) -
            boundaries_.begin());
      }
    };
    switch (in.dtype()) {
      case DT_INT32: run(int32_t{}); break;
      case DT_INT64: run(int64_t{}); break;
      case DT_FLOAT: run(float{}); break;
      case DT_DOUBLE: run(double{}); break;
      default:
        ctx->CtxFailure(NodeError(ctx, "unsupported dtype ", DataTypeString(in.dtype())));
    }
  }

 private:
  std::vector<float> boundaries_;
};
REGISTER_KERNEL_BUILDER(Name("Bucketize").Device(DEVICE_CPU), BucketizeOp);

}  // namespace
}  // namespace sg
