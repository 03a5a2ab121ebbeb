// _Send and _Recv (and Send, Recv, _HostSend, _HostRecv, the same here): the two ends of a cross-device edge, meeting in the step's rendezvous under
// TensorFlow's key (with the frame and iteration, so loops may send once per iteration).
#include "core/framework/op_kernel.h"

namespace sg {
namespace {

struct TransferAttrs {
  std::string tensor_name, send_device, recv_device;
  int64_t send_device_incarnation = 0;

  absl::Status Read(OpKernelConstruction* ctx) {
    SG_RETURN_IF_ERROR(ctx->GetAttr("tensor_name", &tensor_name));
    SG_RETURN_IF_ERROR(ctx->GetAttr("send_device", &send_device));
    SG_RETURN_IF_ERROR(ctx->GetAttr("recv_device", &recv_device));
    return ctx->GetAttr("send_device_incarnation", &send_device_incarnation);
  }
  absl::Status Key(OpKernelContext* ctx, Rendezvous::ParsedKey* key) const {
    return Rendezvous::ParseKey(
        Rendezvous::CreateKey(send_device, static_cast<uint64_t>(send_device_incarnation),
                              recv_device, tensor_name, ctx->frame_iter()),
        key);
  }
};

class SendOp final : public OpKernel {
 public:
  explicit SendOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    set_expensive(false);
    OP_REQUIRES_OK(ctx, attrs_.Read(ctx));
  }
  void Compute(OpKernelContext* ctx) override {
    OP_REQUIRES(ctx, ctx->rendezvous() != nullptr,
                errors::Internal("_Send '", name(), "' has no rendezvous"));
    Rendezvous::ParsedKey key;
    OP_REQUIRES_OK(ctx, attrs_.Key(ctx, &key));
    OP_REQUIRES_OK(ctx, ctx->rendezvous()->Send(key, ctx->input(0), ctx->is_input_dead()));
  }

 private:
  TransferAttrs attrs_;
};
REGISTER_KERNEL_BUILDER(Name("_Send").Device(DEVICE_CPU), SendOp);
REGISTER_KERNEL_BUILDER(Name("Send").Device(DEVICE_CPU), SendOp);
REGISTER_KERNEL_BUILDER(Name("_HostSend").Device(DEVICE_CPU), SendOp);

class RecvOp final : public AsyncOpKernel {
 public:
  explicit RecvOp(OpKernelConstruction* ctx) : AsyncOpKernel(ctx) {
    set_expensive(false);
    OP_REQUIRES_OK(ctx, attrs_.Read(ctx));
  }
  void ComputeAsync(OpKernelContext* ctx, DoneCallback done) override {
    OP_REQUIRES_ASYNC(ctx, ctx->rendezvous() != nullptr,
                      errors::Internal("_Recv '", name(), "' has no rendezvous"), done);
    Rendezvous::ParsedKey key;
    OP_REQUIRES_OK_ASYNC(ctx, attrs_.Key(ctx, &key), done);
    ctx->rendezvous()->RecvAsync(
        key, [ctx, done = std::move(done)](const absl::Status& s, const Tensor& value,
                                           bool is_dead) {
          ctx->SetStatus(s);
          if (s.ok()) {
            if (is_dead) {
              *ctx->is_output_dead() = true;
            } else {
              ctx->set_output(0, value);
            }
          }
          done();
        });
  }

 private:
  TransferAttrs attrs_;
};
REGISTER_KERNEL_BUILDER(Name("_Recv").Device(DEVICE_CPU), RecvOp);
REGISTER_KERNEL_BUILDER(Name("Recv").Device(DEVICE_CPU), RecvOp);
REGISTER_KERNEL_BUILDER(Name("_HostRecv").Device(DEVICE_CPU), RecvOp);

}  // namespace
}  // namespace sg
