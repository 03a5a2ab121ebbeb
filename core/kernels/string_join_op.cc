// StringJoin: element-wise concatenation of string tensors with a separator; scalars broadcast.
#include <string>
#include <vector>

#include "core/framework/op_kernel.h"

namespace sg {
namespace {

class StringJoinOp final : public OpKernel {
 public:
  explicit StringJoinOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("separator", &separator_));
    set_expensive(false);
  }

  void Compute(OpKernelContext* ctx) override {
    const int n = ctx->num_inputs();
    TensorShape shape;
    bool have_shape = false;
    for (int i = 0; i < n; ++i) {
      const Tensor& in = ctx->input(i);
      if (in.dims() == 0) continue;
      if (!have_shape) {
        shape = in.shape();
        have_shape = true;
        continue;
      }
      OP_REQUIRES(ctx, in.shape() == shape,
                  errors::InvalidArgument("node '", name(), "' (op StringJoin): input ", i,
                                          " has shape ", in.shape().DebugString(),
                                          ", other non-scalar inputs have ",
                                          shape.DebugString()));
    }
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &out));
    tstring* o = out->data<tstring>();
    const int64_t count = shape.num_elements();
    for (int64_t e = 0; e < count; ++e) {
      std::string s;
      for (int i = 0; i < n; ++i) {
        const Tensor& in = ctx->input(i);
        if (i > 0) s += separator_;
        s += in.data<tstring>()[in.dims() == 0 ? 0 : e];
      }
      o[e] = std::move(s);
    }
  }

 private:
  std::string separator_;
};
REGISTER_KERNEL_BUILDER(Name("StringJoin").Device(DEVICE_CPU), StringJoinOp);

}  // namespace
}  // namespace sg
