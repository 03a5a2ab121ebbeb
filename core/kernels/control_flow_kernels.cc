// Kernels of the v1 control-flow ops. Frames, iterations and deadness are the executor's job:
// these kernels only move values (Switch leaves its untaken output unset, which the executor
// turns into a dead tensor).
#include "core/framework/op_kernel.h"

namespace sg {
namespace {

class SwitchOp final : public OpKernel {
 public:
  explicit SwitchOp(OpKernelConstruction* ctx) : OpKernel(ctx) { set_expensive(false); }
  void Compute(OpKernelContext* ctx) override {
    const Tensor& pred = ctx->input(1);
    OP_REQUIRES(ctx, pred.dtype() == DT_BOOL && pred.NumElements() == 1 && pred.dims() == 0,
                errors::InvalidArgument("The second input to Switch '", name(),
                                        "' must be a scalar bool, got shape ",
                                        pred.shape().DebugString()));
    int port = pred.data<bool>()[0] ? 1 : 0;
    if (ctx->input_is_ref(0)) {
      ctx->forward_ref_input_to_ref_output(0, port);
    } else {
      ctx->set_output(port, ctx->input(0));
    }
  }
};
REGISTER_KERNEL_BUILDER(Name("Switch").Device(DEVICE_CPU), SwitchOp);
REGISTER_KERNEL_BUILDER(Name("RefSwitch").Device(DEVICE_CPU), SwitchOp);

class MergeOp final : public OpKernel {
 public:
  explicit MergeOp(OpKernelConstruction* ctx) : OpKernel(ctx) { set_expensive(false); }
  void Compute(OpKernelContext* ctx) override {
    for (int i = 0; i < ctx->num_inputs(); ++i) {
      if (!ctx->input_is_ref(i) && !ctx->input(i).IsInitialized()) continue;
      if (ctx->input_is_ref(i)) {
        ctx->forward_ref_input_to_ref_output(i, 0);
      } else {
        ctx->set_output(0, ctx->input(i));
      }
      ctx->set_output(1, Tensor::Scalar<int32_t>(i));
      return;
    }
    ctx->CtxFailure(errors::Internal("Merge '", name(), "' ran with no live input"));
  }
};
REGISTER_KERNEL_BUILDER(Name("Merge").Device(DEVICE_CPU), MergeOp);
REGISTER_KERNEL_BUILDER(Name("RefMerge").Device(DEVICE_CPU), MergeOp);

// Forwards the ref input 1 + index.
class RefSelectOp final : public OpKernel {
 public:
  explicit RefSelectOp(OpKernelConstruction* ctx) : OpKernel(ctx) { set_expensive(false); }
  void Compute(OpKernelContext* ctx) override {
    const Tensor& index = ctx->input(0);
    OP_REQUIRES(ctx, index.dims() == 0 && index.dtype() == DT_INT32,
                errors::InvalidArgument("node '", name(), "': Index must be a scalar, got shape ",
                                        index.shape().DebugString()));
    const int32_t i = index.data<int32_t>()[0];
    const int n = ctx->num_inputs() - 1;
    OP_REQUIRES(ctx, i >= 0 && i < n,
                errors::InvalidArgument("node '", name(), "': Index must be in the range [0, ", n,
                                        ") but got ", i));
    OP_REQUIRES(ctx, ctx->input_is_ref(i + 1),
                errors::InvalidArgument("node '", name(), "': input ", i + 1, " is not a ref"));
    ctx->forward_ref_input_to_ref_output(i + 1, 0);
  }
};
REGISTER_KERNEL_BUILDER(Name("RefSelect").Device(DEVICE_CPU), RefSelectOp);

// Enter, Exit and NextIteration pass their input through; the executor moves it between frames
// and iterations.
class ForwardOp final : public OpKernel {
 public:
  explicit ForwardOp(OpKernelConstruction* ctx) : OpKernel(ctx) { set_expensive(false); }
  void Compute(OpKernelContext* ctx) override {
    if (ctx->input_is_ref(0)) {
      ctx->forward_ref_input_to_ref_output(0, 0);
    } else {
      ctx->set_output(0, ctx->input(0));
    }
  }
};
REGISTER_KERNEL_BUILDER(Name("Enter").Device(DEVICE_CPU), ForwardOp);
REGISTER_KERNEL_BUILDER(Name("RefEnter").Device(DEVICE_CPU), ForwardOp);
REGISTER_KERNEL_BUILDER(Name("Exit").Device(DEVICE_CPU), ForwardOp);
REGISTER_KERNEL_BUILDER(Name("RefExit").Device(DEVICE_CPU), ForwardOp);
REGISTER_KERNEL_BUILDER(Name("NextIteration").Device(DEVICE_CPU), ForwardOp);
REGISTER_KERNEL_BUILDER(Name("RefNextIteration").Device(DEVICE_CPU), ForwardOp);

class LoopCondOp final : public OpKernel {
 public:
  explicit LoopCondOp(OpKernelConstruction* ctx) : OpKernel(ctx) { set_expensive(false); }
  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    OP_REQUIRES(ctx, in.dims() == 0 && in.dtype() == DT_BOOL,
                errors::InvalidArgument("LoopCond '", name(),
                                        "' needs a scalar bool, got shape ",
                                        in.shape().DebugString()));
    ctx->set_output(0, in);
  }
};
REGISTER_KERNEL_BUILDER(Name("LoopCond").Device(DEVICE_CPU), LoopCondOp);

}  // namespace
}  // namespace sg
