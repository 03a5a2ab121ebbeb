// The dense training ops, as TensorFlow's: Apply* on reference variables (the updated variable is
// forwarded as `out`) and ResourceApply* on resource variables. Every element of the variable and
// its slots takes one step of the update in training_ops.h (in parallel shards: elements are
// independent). The variables are locked together for the step whatever use_locking says
// (TensorFlow leaves unlocked updates racy).
#include "core/kernels/training_ops.h"

#include <string>
#include <vector>

namespace sg {
namespace training {

absl::Status InputLayout::Init(OpKernelConstruction* ctx, int num_vars) {
  const OpDef* op_def = ctx->op_def();
  if (op_def == nullptr) return errors::Internal("node '", ctx->def().name(), "': no OpDef");
  for (int i = 0; i < op_def->input_arg_size(); ++i) {
    const auto& arg = op_def->input_arg(i);
    if (i < num_vars) {
      if (!arg.is_ref() && arg.type() != DT_RESOURCE) {
        return errors::InvalidArgument("node '", ctx->def().name(), "': input ", i,
                                       " is not a variable");
      }
      vars.push_back(i);
      var_names.push_back(arg.name());
    } else if (arg.name() == "grad" || arg.name() == "delta") {
      grad = i;
    } else if (arg.name() == "indices") {
      indices = i;
    } else if (arg.name() == "global_step") {
      global_step = i;
    } else {
      scalars.push_back(i);
      scalar_names.push_back(arg.name());
    }
  }
  if (grad < 0) return errors::InvalidArgument("node '", ctx->def().name(), "': no gradient");
  return absl::OkStatus();
}

absl::Status TrainingAttrs::Init(OpKernelConstruction* ctx) {
  for (const auto& attr : ctx->op_def()->attr()) {
    if (attr.name() == "use_nesterov") SG_RETURN_IF_ERROR(ctx->GetAttr(attr.name(), &use_nesterov));
    if (attr.name() == "update_slots") SG_RETURN_IF_ERROR(ctx->GetAttr(attr.name(), &update_slots));
    if (attr.name() == "multiply_linear_by_lr") {
      SG_RETURN_IF_ERROR(ctx->GetAttr(attr.name(), &multiply_linear_by_lr));
    }
  }
  return absl::OkStatus();
}

absl::Status LockTrainingVariables(OpKernelContext* ctx, const InputLayout& layout,
                                  DataType dtype, LockedVariables* vars) {
  absl::Status s = vars->Lock(ctx, layout.vars, dtype);
  if (absl::IsNotFound(s)) {
    return errors::Internal("Invalid variable reference: ", s.message(), " (node '",
                            ctx->op_kernel().name(), "')");
  }
  return s;
}

namespace {

template <template <typename> class U>
class ApplyOp final : public OpKernel {
 public:
  explicit ApplyOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("T", &dtype_));
    OP_REQUIRES_OK(ctx, layout_.Init(ctx, U<float>::kVars));
    OP_REQUIRES_OK(ctx, attrs_.Init(ctx));
  }

  void Compute(OpKernelContext* ctx) override {
    {
      LockedVariables vars;
      OP_REQUIRES_OK(ctx, LockTrainingVariables(ctx, layout_, dtype_, &vars));
      absl::Status s;
      const bool ok = DispatchTrainingType<!U<float>::kRealOnly>(dtype_, [&](auto tag) {
        using T = decltype(tag);
        s = Apply<T>(ctx, &vars);
      });
      OP_REQUIRES(ctx, ok,
                  errors::InvalidArgument("node '", name(), "': ", type_string(),
                                          " has no kernel for ", DataTypeString(dtype_)));
      OP_REQUIRES_OK(ctx, s);
    }
    if (ctx->input_is_ref(0)) ctx->forward_ref_input_to_ref_output(0, 0);
  }

 private:
  template <typename T>
  absl::Status Apply(OpKernelContext* ctx, LockedVariables* vars) {
    constexpr int kVars = U<T>::kVars;
    const Tensor& var = *vars->tensor(0);
    for (int k = 1; k < kVars; ++k) {
      const Tensor& slot = *vars->tensor(k);
      if (slot.shape() != var.shape()) {
        return errors::InvalidArgument("var and ", layout_.var_names[k],
                                       " do not have the same shape",
                                       var.shape().DebugString(), " ",
                                       slot.shape().DebugString(), " (node '", name(), "')");
      }
    }
    const Tensor& grad = ctx->input(layout_.grad);
    if (grad.shape() != var.shape()) {
      return errors::InvalidArgument("var and grad do not have the same shape",
                                     var.shape().DebugString(), " ",
                                     grad.shape().DebugString(), " (node '", name(), "')");
    }
    std::vector<T> scalars;
    int64_t global_step = 0;
    SG_RETURN_IF_ERROR(ReadScalars<T>(ctx, layout_, &scalars, &global_step));
    std::string error;
    const U<T> update(attrs_.Args<T>(scalars, global_step, /*sparse=*/false, &error));
    if (!error.empty()) return errors::InvalidArgument(error, " (node '", name(), "')");
    SG_RETURN_IF_ERROR(vars->EnsureAllUnshared(ctx));
    T* data[kVars];
    for (int k = 0; k < kVars; ++k) data[k] = vars->tensor(k)->template data<T>();
    // Elements are independent: shards of the variable update in parallel.
    const T* g = grad.data<T>();
    const Eigen::TensorOpCost cost((kVars + 1) * sizeof(T), kVars * sizeof(T), 8 * kVars);
    ctx->eigen_cpu_device().parallelFor(
        grad.NumElements(), cost, [&](Eigen::Index begin, Eigen::Index end) {
          ApplyElements(update, data, begin, g + begin, end - begin,
                        std::make_index_sequence<kVars>());
        });
    return absl::OkStatus();
  }

  DataType dtype_;
  InputLayout layout_;
  TrainingAttrs attrs_;
};

const std::vector<DataType> kFloatTypes = {DT_HALF, DT_BFLOAT16, DT_FLOAT, DT_DOUBLE};
const std::vector<DataType> kFloatAndComplexTypes = {DT_HALF,   DT_BFLOAT16,   DT_FLOAT,
                                                     DT_DOUBLE, DT_COMPLEX64, DT_COMPLEX128};
const std::vector<DataType> kHalfFloatDouble = {DT_HALF, DT_FLOAT, DT_DOUBLE};
const std::vector<DataType> kFloatDouble = {DT_FLOAT, DT_DOUBLE};

// The ref and resource forms of one update, for the dtypes TensorFlow's CPU kernels register.
#define SG_REGISTER_APPLY(name, update, types)                                              \
  REGISTER_KERNEL_BUILDER(Name("Apply" name).Device(DEVICE_CPU).TypeConstraint("T", types), \
                          ApplyOp<update>);                                                 \
  REGISTER_KERNEL_BUILDER(                                                                  \
      Name("ResourceApply" name).Device(DEVICE_CPU).TypeConstraint("T", types),             \
      ApplyOp<update>)

SG_REGISTER_APPLY("GradientDescent", GradientDescentUpdate, kFloatAndComplexTypes);
SG_REGISTER_APPLY("Momentum", MomentumUpdate, kFloatAndComplexTypes);
SG_REGISTER_APPLY("Adam", AdamUpdate, kFloatAndComplexTypes);
SG_REGISTER_APPLY("AdaMax", AdaMaxUpdate, kHalfFloatDouble);
SG_REGISTER_APPLY("Adagrad", AdagradUpdate, kFloatAndComplexTypes);
SG_REGISTER_APPLY("AdagradV2", AdagradV2Update, kFloatAndComplexTypes);
SG_REGISTER_APPLY("AdagradDA", AdagradDAUpdate, kFloatDouble);
SG_REGISTER_APPLY("Adadelta", AdadeltaUpdate, kFloatAndComplexTypes);
SG_REGISTER_APPLY("RMSProp", RMSPropUpdate, kFloatAndComplexTypes);
SG_REGISTER_APPLY("CenteredRMSProp", CenteredRMSPropUpdate, kFloatAndComplexTypes);
SG_REGISTER_APPLY("Ftrl", FtrlUpdate, kFloatTypes);
SG_REGISTER_APPLY("FtrlV2", FtrlV2Update, kFloatTypes);
SG_REGISTER_APPLY("ProximalAdagrad", ProximalAdagradUpdate, kFloatDouble);
SG_REGISTER_APPLY("ProximalGradientDescent", ProximalGradientDescentUpdate, kFloatDouble);
SG_REGISTER_APPLY("AddSign", AddSignUpdate, kFloatTypes);
SG_REGISTER_APPLY("PowerSign", PowerSignUpdate, kFloatTypes);
#undef SG_REGISTER_APPLY

REGISTER_KERNEL_BUILDER(Name("ResourceApplyKerasMomentum")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", kFloatAndComplexTypes),
                        ApplyOp<KerasMomentumUpdate>);
REGISTER_KERNEL_BUILDER(Name("ResourceApplyAdamWithAmsgrad")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", kFloatTypes),
                        ApplyOp<AdamWithAmsgradUpdate>);

}  // namespace
}  // namespace training
}  // namespace sg
