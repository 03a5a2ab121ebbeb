// The dense training ops, as TensorFlow's: Apply* on reference variables (the updated variable is
// forwarded as `out`) and ResourceApply* on resource variables. Every element of the variable and
// its slots takes one step of the update in training_ops.h (in parallel shards: elements are
// independent). The variables are locked together for the step whatever use_locking says
// (TensorFlow leaves unlocked updates racy).
#include "core/kernels/training_ops.h"

#include <array>
#include <vector>

#include "core/kernels/parallel_for.h"

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
class ApplyOp final : public TrainingOpBase<U, ApplyOp<U>> {
  using Base = TrainingOpBase<U, ApplyOp<U>>;

 public:
  explicit ApplyOp(OpKernelConstruction* ctx) : Base(ctx, /*sparse=*/false) {}

  // grad must have var's shape; every element then takes one step.
  template <typename T>
  absl::Status Step(OpKernelContext* ctx, LockedVariables* vars) {
    const Tensor& var = *vars->tensor(0);
    const Tensor& grad = ctx->input(this->layout().grad);
    if (grad.shape() != var.shape()) {
      return this->Error("var and grad do not have the same shape" + var.shape().DebugString() +
                         " " + grad.shape().DebugString());
    }
    SG_ASSIGN_OR_RETURN(const U<T> update, this->template MakeUpdate<T>(ctx));
    SG_RETURN_IF_ERROR(vars->EnsureAllUnshared(ctx));
    const std::array<T*, Base::kVars> data = Base::template VariableData<T>(*vars);
    // Elements are independent: shards of the variable update in parallel.
    const T* g = grad.data<T>();
    constexpr int kVars = Base::kVars;
    const Eigen::TensorOpCost cost((kVars + 1) * sizeof(T), kVars * sizeof(T), 8 * kVars);
    ParallelFor(ctx->eigen_cpu_device(),
        grad.NumElements(), cost, [&](Eigen::Index begin, Eigen::Index end) {
          ApplyElements(update, data.data(), begin, g + begin, end - begin,
                        std::make_index_sequence<kVars>());
        });
    return absl::OkStatus();
  }
};

constexpr DataType kHalfFloatDouble[] = {DT_HALF, DT_FLOAT, DT_DOUBLE};

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
