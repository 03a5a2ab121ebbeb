// Reference variables: VariableV2 (and its old name Variable) hand out a reference to a Var's
// tensor in the device's ResourceMgr; Assign, AssignAdd, AssignSub and IsVariableInitialized
// work on that reference. TemporaryVariable keeps its Var in the step's resources instead.
#include <memory>
#include <string>

#include "core/framework/op_kernel.h"
#include "core/kernels/variable_update.h"

namespace sg {
namespace {

// The name to show for the variable behind reference input `i`: the producing node's name.
std::string RefInputName(const OpKernel& kernel, int i) {
  if (kernel.def().input_size() <= i) return kernel.name();
  std::string in = kernel.def().input(i);
  size_t colon = in.find(':');
  if (colon != std::string::npos) in.resize(colon);
  return in;
}

absl::Status NotARef(const OpKernel& kernel) {
  return errors::InvalidArgument("node '", kernel.name(), "' (op ", kernel.type_string(),
                                 "): input 0 must be a reference to a variable");
}

// An uninitialized variable's tensor: no buffer, but the declared shape when it is fully known
// (Assign with validate_shape checks against it); DT_INVALID when the shape is not known.
Tensor UninitializedTensor(DataType dtype, const PartialTensorShape& declared) {
  TensorShape shape;
  if (!declared.AsTensorShape(&shape)) return Tensor();
  return Tensor(dtype, shape, nullptr);
}

class VariableOp final : public OpKernel {
 public:
  explicit VariableOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("shape", &shape_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("container", &container_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("shared_name", &shared_name_));
    dtype_ = BaseType(ctx->output_type(0));
    if (shared_name_.empty()) shared_name_ = name();
    // The old Variable op cannot tell a scalar shape from an unknown one.
    if (type_string() == "Variable" && shape_.dims() == 0) shape_ = PartialTensorShape();
    set_expensive(false);
  }

  void Compute(OpKernelContext* ctx) override {
    std::shared_ptr<Var> var;
    OP_REQUIRES_OK(ctx, ctx->resource_manager()->LookupOrCreate<Var>(
                            container_, shared_name_, &var, [this](std::shared_ptr<Var>* out) {
                              *out = std::make_shared<Var>(dtype_);
                              *(*out)->tensor() = UninitializedTensor(dtype_, shape_);
                              return absl::OkStatus();
                            }));
    OP_REQUIRES(ctx, var->dtype() == dtype_,
                errors::InvalidArgument("node '", name(), "': variable ", shared_name_,
                                        " already exists with dtype ",
                                        DataTypeString(var->dtype()), ", not ",
                                        DataTypeString(dtype_)));
    ctx->set_output_ref(0, var->mu(), var->tensor());
    // Keeps the variable alive while this kernel may still hand out references to it, even if
    // its container is reset.
    absl::MutexLock lock(&mu_);
    last_var_ = std::move(var);
  }

 private:
  PartialTensorShape shape_;
  DataType dtype_;
  std::string container_, shared_name_;
  absl::Mutex mu_;
  std::shared_ptr<Var> last_var_ ABSL_GUARDED_BY(mu_);
};
REGISTER_KERNEL_BUILDER(Name("VariableV2").Device(DEVICE_CPU), VariableOp);
REGISTER_KERNEL_BUILDER(Name("Variable").Device(DEVICE_CPU), VariableOp);

class AssignOp final : public OpKernel {
 public:
  explicit AssignOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("validate_shape", &validate_shape_));
    set_expensive(false);
  }

  void Compute(OpKernelContext* ctx) override {
    OP_REQUIRES(ctx, ctx->input_is_ref(0), NotARef(*this));
    const Tensor& rhs = ctx->input(1);
    {
      absl::MutexLock lock(ctx->input_ref_mutex(0));
      Tensor* lhs = ctx->mutable_input_ref(0);
      // A DT_INVALID tensor is a variable of unknown declared shape that was never assigned.
      const bool has_shape = lhs->dtype() != DT_INVALID;
      OP_REQUIRES(ctx, !validate_shape_ || !has_shape || lhs->shape() == rhs.shape(),
                  errors::InvalidArgument(
                      "Assign requires shapes of both tensors to match. lhs shape= ",
                      lhs->shape().DebugString(), " rhs shape= ", rhs.shape().DebugString(),
                      " (node '", name(), "')"));
      OP_REQUIRES_OK(ctx, CopyIntoVariable(ctx, rhs, lhs));
    }
    ctx->forward_ref_input_to_ref_output(0, 0);
  }

 private:
  bool validate_shape_;
};
REGISTER_KERNEL_BUILDER(Name("Assign").Device(DEVICE_CPU), AssignOp);

class DenseUpdateOp final : public OpKernel {
 public:
  explicit DenseUpdateOp(OpKernelConstruction* ctx)
      : OpKernel(ctx),
        op_(ctx->def().op() == "AssignAdd" ? DenseUpdate::kAdd : DenseUpdate::kSub) {}

  void Compute(OpKernelContext* ctx) override {
    OP_REQUIRES(ctx, ctx->input_is_ref(0), NotARef(*this));
    const Tensor& value = ctx->input(1);
    {
      absl::MutexLock lock(ctx->input_ref_mutex(0));
      Tensor* var = ctx->mutable_input_ref(0);
      OP_REQUIRES(ctx, var->IsInitialized(),
                  errors::FailedPrecondition("Attempting to use uninitialized value ",
                                             RefInputName(*this, 0)));
      OP_REQUIRES(ctx, var->shape() == value.shape(),
                  errors::InvalidArgument(type_string(),
                                          " requires shapes of both tensors to match. lhs "
                                          "shape= ",
                                          var->shape().DebugString(), " rhs shape= ",
                                          value.shape().DebugString(), " (node '", name(),
                                          "')"));
      OP_REQUIRES_OK(ctx, ApplyDenseUpdate(ctx, op_, value, var));
    }
    ctx->forward_ref_input_to_ref_output(0, 0);
  }

 private:
  const DenseUpdate op_;
};
REGISTER_KERNEL_BUILDER(
    Name("AssignAdd").Device(DEVICE_CPU).TypeConstraint("T", DenseUpdateTypes()), DenseUpdateOp);
REGISTER_KERNEL_BUILDER(
    Name("AssignSub").Device(DEVICE_CPU).TypeConstraint("T", DenseUpdateTypes()), DenseUpdateOp);

class IsVariableInitializedOp final : public OpKernel {
 public:
  explicit IsVariableInitializedOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    set_expensive(false);
  }

  void Compute(OpKernelContext* ctx) override {
    OP_REQUIRES(ctx, ctx->input_is_ref(0), NotARef(*this));
    bool initialized;
    {
      absl::ReaderMutexLock lock(ctx->input_ref_mutex(0));
      initialized = ctx->mutable_input_ref(0)->IsInitialized();
    }
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape(), &out));
    out->scalar<bool>()() = initialized;
  }
};
REGISTER_KERNEL_BUILDER(Name("IsVariableInitialized").Device(DEVICE_CPU),
                        IsVariableInitializedOp);

// A variable that lives for one step, in the step's resources under var_name (or the node's
// name). Its contents start uninitialized in value but count as initialized, as TensorFlow's.
class TemporaryVariableOp final : public OpKernel {
 public:
  explicit TemporaryVariableOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    PartialTensorShape shape;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("shape", &shape));
    OP_REQUIRES(ctx, shape.AsTensorShape(&shape_),
                errors::InvalidArgument("node '", name(), "': TemporaryVariable needs a fully ",
                                        "defined shape, got ", shape.DebugString()));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("var_name", &var_name_));
    if (var_name_.empty()) var_name_ = name();
    dtype_ = BaseType(ctx->output_type(0));
  }

  void Compute(OpKernelContext* ctx) override {
    OP_REQUIRES(ctx, ctx->step_resources() != nullptr,
                errors::Internal("node '", name(), "': no step resources"));
    auto var = std::make_shared<Var>(dtype_);
    OP_REQUIRES_OK(ctx, ctx->allocate_temp(dtype_, shape_, var->tensor()));
    var->is_initialized = true;
    OP_REQUIRES_OK(ctx, ctx->step_resources()->Create(kTempContainer, var_name_, var));
    ctx->set_output_ref(0, var->mu(), var->tensor());
  }

  static constexpr const char* kTempContainer = "_temporary_variables";

 private:
  TensorShape shape_;
  DataType dtype_;
  std::string var_name_;
};
REGISTER_KERNEL_BUILDER(Name("TemporaryVariable").Device(DEVICE_CPU), TemporaryVariableOp);

class DestroyTemporaryVariableOp final : public OpKernel {
 public:
  explicit DestroyTemporaryVariableOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("var_name", &var_name_));
    OP_REQUIRES(ctx, !var_name_.empty(),
                errors::InvalidArgument("node '", name(), "': var_name must not be empty"));
  }

  void Compute(OpKernelContext* ctx) override {
    OP_REQUIRES(ctx, ctx->input_is_ref(0), NotARef(*this));
    OP_REQUIRES(ctx, ctx->step_resources() != nullptr,
                errors::Internal("node '", name(), "': no step resources"));
    Tensor value;
    {
      absl::ReaderMutexLock lock(ctx->input_ref_mutex(0));
      value = *ctx->mutable_input_ref(0);
    }
    ctx->set_output(0, value);
    // The output keeps the buffer alive after the Var itself is gone.
    OP_REQUIRES_OK(ctx, ctx->step_resources()->Delete(TemporaryVariableOp::kTempContainer,
                                                      var_name_));
  }

 private:
  std::string var_name_;
};
REGISTER_KERNEL_BUILDER(Name("DestroyTemporaryVariable").Device(DEVICE_CPU),
                        DestroyTemporaryVariableOp);

}  // namespace
}  // namespace sg
