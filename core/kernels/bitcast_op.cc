// Bitcast, as TensorFlow's CPU kernel: the output shares the input's buffer under the new dtype
// and shape (see core/ops/bitcast_ops.cc); nothing is copied.
#include <cstdint>

#include "core/framework/op_kernel.h"
#include "core/kernels/cwise_ops_common.h"

namespace sg {
namespace {

class BitcastOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    const DataType to = output_type(0);
    const int64_t from_size = DataTypeSize(in.dtype()), to_size = DataTypeSize(to);
    OP_REQUIRES(ctx, from_size > 0 && to_size > 0,
                KernelError(*this, "Cannot bitcast from ", DataTypeString(in.dtype()), " to ",
                            DataTypeString(to)));
    TensorShape shape = in.shape();
    if (from_size > to_size) {
      shape.AddDim(from_size / to_size);
    } else if (from_size < to_size) {
      OP_REQUIRES(ctx, in.dims() >= 1 && in.dim_size(in.dims() - 1) == to_size / from_size,
                  KernelError(*this, "Cannot bitcast from ", DataTypeString(in.dtype()), " to ",
                              DataTypeString(to), ": shape ", in.shape().DebugString(),
                              " must end in ", to_size / from_size));
      shape.RemoveDim(in.dims() - 1);
    }
    if (in.buffer() == nullptr) {  // no elements, so no buffer to share
      Tensor* out;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &out));
      return;
    }
    ctx->set_output(0, Tensor(to, shape, in.buffer()));
  }
};
REGISTER_KERNEL_BUILDER(Name("Bitcast").Device(DEVICE_CPU), BitcastOp);

}  // namespace
}  // namespace sg
