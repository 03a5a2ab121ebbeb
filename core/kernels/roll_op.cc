// Roll: each element moves `shift` places along its axis, wrapping around. A dim rolled by s is
// two pieces (the last s entries move to the front); the output is one strided copy per
// combination of pieces.
#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"

namespace sg {
namespace {

class RollOp final : public OpKernel {
 public:
  explicit RollOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    const Tensor& shift_t = ctx->input(1);
    const Tensor& axis_t = ctx->input(2);
    const int rank = in.dims();
    OP_REQUIRES(ctx, rank >= 1, NodeError(ctx, "input must be 1-D or higher"));
    OP_REQUIRES(ctx, shift_t.dims() <= 1,
                NodeError(ctx, "shift must be a scalar or a 1-D vector. Found: ",
                          shift_t.shape().DebugString()));
    OP_REQUIRES(ctx, axis_t.dims() <= 1,
                NodeError(ctx, "axis must be a scalar or a 1-D vector. Found: ",
                          axis_t.shape().DebugString()));
    OP_REQUIRES(ctx, shift_t.NumElements() == axis_t.NumElements(),
                NodeError(ctx, "shift and axis must have the same size"));
    const auto shifts = IntValues(shift_t);
    const auto axes = IntValues(axis_t);
    const auto dims = in.shape().dim_sizes();
    DimVector roll(rank, 0);  // in [0, dim)
    for (size_t i = 0; i < axes.size(); ++i) {
      int64_t a = axes[i];
      OP_REQUIRES(ctx, a >= -rank && a < rank,
                  NodeError(ctx, "axis ", a, " is out of range for a tensor of rank ", rank));
      if (a < 0) a += rank;
      const int64_t n = dims[a];
      if (n == 0) continue;
      roll[a] = (roll[a] + (shifts[i] % n + n) % n) % n;
    }
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, in.shape(), &out));
    if (in.NumElements() == 0) return;
    const DimVector strides = RowMajorStrides(dims);
    std::vector<int> rolled;
    for (int d = 0; d < rank; ++d) {
      if (roll[d] != 0) rolled.push_back(d);
    }
    // Bit i of `pieces` picks, for dim rolled[i], the piece that wraps (input [n - s, n) to
    // output [0, s)) instead of the one that moves up (input [0, n - s) to output [s, n)).
    for (int64_t pieces = 0; pieces < (int64_t{1} << rolled.size()); ++pieces) {
      DimVector shape(dims.begin(), dims.end());
      int64_t src = 0, dst = 0;
      for (size_t i = 0; i < rolled.size(); ++i) {
        const int d = rolled[i];
        const int64_t n = dims[d], s = roll[d];
        if (pieces >> i & 1) {
          shape[d] = s;
          src += (n - s) * strides[d];
        } else {
          shape[d] = n - s;
          dst += s * strides[d];
        }
      }
      CopyStrided(&ctx->eigen_cpu_device(), in.dtype(), shape, in.raw_data(), src, strides,
                  out->raw_data(), dst, strides);
    }
  }
};
REGISTER_KERNEL_BUILDER(Name("Roll").Device(DEVICE_CPU), RollOp);

}  // namespace
}  // namespace sg
