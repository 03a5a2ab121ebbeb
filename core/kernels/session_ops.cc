// Session tensors: GetSessionHandle(V2) keeps a tensor for later runs of the session and outputs
// its handle, "<node>;<id>;<device>" (V2: a DT_RESOURCE handle of that name); GetSessionTensor
// reads it back from the handle and DeleteSessionTensor drops it. As in TensorFlow, the tensor is
// kept only when the run that makes it succeeds and fetches the handle
// (core/framework/session_state.h), so a run cannot read back its own handles.
#include <memory>
#include <string>

#include "core/framework/op_kernel.h"
#include "core/framework/session_state.h"
#include "core/kernels/resource_handle_util.h"

namespace sg {
namespace {

absl::StatusOr<std::shared_ptr<SessionState>> SessionStateOf(OpKernelContext* ctx) {
  std::shared_ptr<SessionState> state =
      ctx->device() != nullptr ? FindSessionState(ctx->resource_manager()) : nullptr;
  if (state == nullptr) {
    return errors::FailedPrecondition("node '", ctx->op_kernel().name(), "' (op ",
                                      ctx->op_kernel().type_string(),
                                      ") needs a session's state, and runs outside a session");
  }
  return state;
}

class GetSessionHandleOp final : public OpKernel {
 public:
  explicit GetSessionHandleOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    set_expensive(false);
  }

  void Compute(OpKernelContext* ctx) override {
    auto state = SessionStateOf(ctx);
    OP_REQUIRES_OK(ctx, state.status());
    OP_REQUIRES(ctx, ctx->step_resources() != nullptr,
                errors::Internal("node '", name(), "': no step resources"));
    const std::string device = ctx->device()->name();
    const std::string handle = absl::StrCat(name(), ";", (*state)->NewId(), ";", device);
    std::shared_ptr<StepTensorStore> store;
    OP_REQUIRES_OK(ctx, ctx->step_resources()->LookupOrCreate<StepTensorStore>(
                            StepTensorStore::kContainer, StepTensorStore::kName, &store,
                            [](std::shared_ptr<StepTensorStore>* s) {
                              *s = std::make_shared<StepTensorStore>();
                              return absl::OkStatus();
                            }));
    store->Add(name(), handle, ctx->input(0));
    if (output_type(0) == DT_RESOURCE) {
      ResourceHandle h;
      h.device = device;
      h.name = handle;
      h.type_name = "TensorHandle";
      OP_REQUIRES_OK(ctx, SetResourceHandleOutput(ctx, 0, std::move(h)));
    } else {
      Tensor out(DT_STRING, TensorShape());
      out.data<tstring>()[0] = handle;
      ctx->set_output(0, out);
    }
  }
};
REGISTER_KERNEL_BUILDER(Name("GetSessionHandle").Device(DEVICE_CPU), GetSessionHandleOp);
REGISTER_KERNEL_BUILDER(Name("GetSessionHandleV2").Device(DEVICE_CPU), GetSessionHandleOp);

absl::Status HandleInput(OpKernelContext* ctx, std::string* handle) {
  const Tensor& t = ctx->input(0);
  if (t.dims() != 0) {
    return errors::InvalidArgument("handle must be a scalar, got shape ",
                                   t.shape().DebugString());
  }
  *handle = std::string(t.data<tstring>()[0]);
  return absl::OkStatus();
}

class GetSessionTensorOp final : public OpKernel {
 public:
  explicit GetSessionTensorOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("dtype", &dtype_));
    set_expensive(false);
  }

  void Compute(OpKernelContext* ctx) override {
    auto state = SessionStateOf(ctx);
    OP_REQUIRES_OK(ctx, state.status());
    std::string handle;
    OP_REQUIRES_OK(ctx, HandleInput(ctx, &handle));
    Tensor value;
    OP_REQUIRES_OK(ctx, (*state)->GetTensor(handle, &value));
    OP_REQUIRES(ctx, value.dtype() == dtype_,
                errors::InvalidArgument("The tensor with handle '", handle, "' is a ",
                                        DataTypeString(value.dtype()), " tensor, not ",
                                        DataTypeString(dtype_)));
    ctx->set_output(0, value);
  }

 private:
  DataType dtype_;
};
REGISTER_KERNEL_BUILDER(Name("GetSessionTensor").Device(DEVICE_CPU), GetSessionTensorOp);

class DeleteSessionTensorOp final : public OpKernel {
 public:
  explicit DeleteSessionTensorOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    set_expensive(false);
  }

  void Compute(OpKernelContext* ctx) override {
    auto state = SessionStateOf(ctx);
    OP_REQUIRES_OK(ctx, state.status());
    std::string handle;
    OP_REQUIRES_OK(ctx, HandleInput(ctx, &handle));
    OP_REQUIRES_OK(ctx, (*state)->DeleteTensor(handle));
  }
};
REGISTER_KERNEL_BUILDER(Name("DeleteSessionTensor").Device(DEVICE_CPU), DeleteSessionTensorOp);

}  // namespace
}  // namespace sg
