// Stacks: StackV2 (a DT_RESOURCE handle) and Stack (a reference to a string vector [container,
// name]) make a per-step stack of tensors in the step's ResourceMgr, as the TensorArrays do;
// StackPush(V2) pushes and forwards its input, StackPop(V2) pops, StackClose(V2) closes. The
// v1 while-loop gradients of TensorFlow 1.x graphs keep their forward values on these.
//
// Errors as TensorFlow's: INVALID_ARGUMENT for a pop of an empty stack, a push past max_size (a
// negative max_size is no limit), a push of another dtype, or any use of a closed stack but a
// second close; INTERNAL for a pop that asks for another dtype than the stack's.
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/kernels/resource_handle_util.h"

namespace sg {
namespace {

constexpr const char* kStackContainer = "_stacks";

class Stack final : public ResourceBase {
 public:
  Stack(std::string name, DataType dtype, int32_t max_size)
      : name_(std::move(name)), dtype_(dtype), max_size_(max_size) {}

  std::string DebugString() const override { return absl::StrCat("Stack[", name_, "]"); }

  absl::Status Push(const Tensor& value) {
    if (value.dtype() != dtype_) {
      return errors::InvalidArgument("Stack[", name_, "] holds ", DataTypeString(dtype_),
                                     ", but the pushed value is ", DataTypeString(value.dtype()));
    }
    absl::MutexLock lock(&mu_);
    SG_RETURN_IF_ERROR(CheckOpen());
    if (max_size_ >= 0 && static_cast<int64_t>(values_.size()) >= max_size_) {
      return errors::InvalidArgument("Stack[", name_, "] overflowed its max_size (", max_size_,
                                     ")");
    }
    values_.push_back(value);
    return absl::OkStatus();
  }

  absl::Status Pop(DataType want, Tensor* value) {
    absl::MutexLock lock(&mu_);
    SG_RETURN_IF_ERROR(CheckOpen());
    if (values_.empty()) {
      return errors::InvalidArgument("Stack[", name_, "] is empty.");
    }
    if (values_.back().dtype() != want) {
      return errors::Internal("Stack[", name_, "] popped a ",
                              DataTypeString(values_.back().dtype()), " tensor, but the op "
                              "expects ", DataTypeString(want));
    }
    *value = std::move(values_.back());
    values_.pop_back();
    return absl::OkStatus();
  }

  void Close() {
    absl::MutexLock lock(&mu_);
    closed_ = true;
    values_.clear();
  }

  // Stack's handle: a string vector [container, name] handed out by reference.
  Tensor* ref_handle(absl::Mutex** mu) {
    *mu = &handle_mu_;
    return &ref_handle_;
  }
  void set_ref_handle(Tensor t) {
    absl::MutexLock lock(&handle_mu_);
    ref_handle_ = std::move(t);
  }

 private:
  absl::Status CheckOpen() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    if (closed_) return errors::InvalidArgument("Stack[", name_, "] has already been closed.");
    return absl::OkStatus();
  }

  const std::string name_;
  const DataType dtype_;
  const int32_t max_size_;
  absl::Mutex mu_;
  std::vector<Tensor> values_ ABSL_GUARDED_BY(mu_);
  bool closed_ ABSL_GUARDED_BY(mu_) = false;
  absl::Mutex handle_mu_;
  Tensor ref_handle_ ABSL_GUARDED_BY(handle_mu_);
};

// The stack named by input 0: a resource handle or (Stack's) a reference to [container, name].
absl::Status LookupStack(OpKernelContext* ctx, std::shared_ptr<Stack>* stack) {
  if (ctx->step_resources() == nullptr) {
    return errors::Internal("node '", ctx->op_kernel().name(), "': no step resources");
  }
  std::string container, name;
  SG_RETURN_IF_ERROR(ResourceNameFromInput(ctx, 0, "stack", &container, &name));
  return ctx->step_resources()->Lookup<Stack>(container, name, stack);
}

class StackOp final : public OpKernel {
 public:
  explicit StackOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("elem_type", &dtype_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("stack_name", &stack_name_));
    if (stack_name_.empty()) stack_name_ = name();
    set_expensive(false);
  }

  void Compute(OpKernelContext* ctx) override {
    int32_t max_size = -1;
    if (ctx->num_inputs() > 0) {  // StackV2
      const Tensor& t = ctx->input(0);
      OP_REQUIRES(ctx, t.dims() == 0,
                  errors::InvalidArgument("max_size must be a scalar, but had shape: ",
                                          t.shape().DebugString()));
      max_size = t.data<int32_t>()[0];
    }
    OP_REQUIRES(ctx, ctx->step_resources() != nullptr,
                errors::Internal("node '", name(), "': no step resources"));
    // A node inside a loop runs once per iteration: every run makes its own stack.
    static std::atomic<int64_t> counter{0};
    const std::string unique = absl::StrCat(stack_name_, "_", counter.fetch_add(1));
    auto stack = std::make_shared<Stack>(unique, dtype_, max_size);
    OP_REQUIRES_OK(ctx, ctx->step_resources()->Create(kStackContainer, unique, stack));
    if (IsRefType(output_type(0))) {
      Tensor handle(DT_STRING, TensorShape({2}));
      handle.data<tstring>()[0] = kStackContainer;
      handle.data<tstring>()[1] = unique;
      stack->set_ref_handle(std::move(handle));
      absl::Mutex* mu;
      Tensor* ref = stack->ref_handle(&mu);
      ctx->set_output_ref(0, mu, ref);
      return;
    }
    ResourceHandle h;
    if (ctx->device() != nullptr) h.device = ctx->device()->name();
    h.container = kStackContainer;
    h.name = unique;
    h.type_name = "Stack";
    OP_REQUIRES_OK(ctx, SetResourceHandleOutput(ctx, 0, std::move(h)));
  }

 private:
  DataType dtype_;
  std::string stack_name_;
};
REGISTER_KERNEL_BUILDER(Name("StackV2").Device(DEVICE_CPU), StackOp);
REGISTER_KERNEL_BUILDER(Name("Stack").Device(DEVICE_CPU), StackOp);

class StackPushOp final : public OpKernel {
 public:
  explicit StackPushOp(OpKernelConstruction* ctx) : OpKernel(ctx) { set_expensive(false); }

  void Compute(OpKernelContext* ctx) override {
    std::shared_ptr<Stack> stack;
    OP_REQUIRES_OK(ctx, LookupStack(ctx, &stack));
    OP_REQUIRES_OK(ctx, stack->Push(ctx->input(1)));
    ctx->set_output(0, ctx->input(1));
  }
};
REGISTER_KERNEL_BUILDER(Name("StackPushV2").Device(DEVICE_CPU), StackPushOp);
REGISTER_KERNEL_BUILDER(Name("StackPush").Device(DEVICE_CPU), StackPushOp);

class StackPopOp final : public OpKernel {
 public:
  explicit StackPopOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("elem_type", &dtype_));
    set_expensive(false);
  }

  void Compute(OpKernelContext* ctx) override {
    std::shared_ptr<Stack> stack;
    OP_REQUIRES_OK(ctx, LookupStack(ctx, &stack));
    Tensor value;
    OP_REQUIRES_OK(ctx, stack->Pop(dtype_, &value));
    ctx->set_output(0, value);
  }

 private:
  DataType dtype_;
};
REGISTER_KERNEL_BUILDER(Name("StackPopV2").Device(DEVICE_CPU), StackPopOp);
REGISTER_KERNEL_BUILDER(Name("StackPop").Device(DEVICE_CPU), StackPopOp);

class StackCloseOp final : public OpKernel {
 public:
  explicit StackCloseOp(OpKernelConstruction* ctx) : OpKernel(ctx) { set_expensive(false); }

  void Compute(OpKernelContext* ctx) override {
    std::shared_ptr<Stack> stack;
    OP_REQUIRES_OK(ctx, LookupStack(ctx, &stack));
    stack->Close();  // closing twice is allowed
  }
};
REGISTER_KERNEL_BUILDER(Name("StackCloseV2").Device(DEVICE_CPU), StackCloseOp);
REGISTER_KERNEL_BUILDER(Name("StackClose").Device(DEVICE_CPU), StackCloseOp);

}  // namespace
}  // namespace sg
