// TensorFlow's training ops (the optimizers' update steps): Apply* on reference variables
// (returning the updated variable as `out`), ResourceApply* on resource variables, and their
// Sparse forms, which update only the rows of `var` (and its slots) that `indices` names.
//
// Each op's OpDef is TensorFlow 2.21's. The inputs are, in order: the variable and its slot
// variables (ref or resource), then scalar hyperparameters of type T, the gradient (`grad`,
// `delta` for the gradient-descent ops) and, for the sparse forms, `indices` right after it.
#include <string>
#include <vector>

#include "core/framework/op.h"
#include "core/framework/shape_inference.h"

namespace sg {
namespace {

constexpr const char kNumberTypes[] =
    "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, "
    "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}";

// The shape function of a training op with `num_vars` variable inputs first and the gradient at
// input `grad`: every other input but `indices` (grad + 1 in a sparse op) must be a scalar; a ref
// op's variables (and, dense, the gradient) must agree in shape, which is the output's.
ShapeInferenceFn ApplyShape(int num_vars, int grad, bool sparse) {
  return [num_vars, grad, sparse](InferenceContext* c) -> absl::Status {
    const int indices = sparse ? grad + 1 : -1;
    PartialTensorShape unused;
    for (int i = num_vars; i < c->num_inputs(); ++i) {
      if (i == grad) continue;
      SG_RETURN_IF_ERROR(c->WithRank(i, i == indices ? 1 : 0, &unused));
    }
    if (sparse) SG_RETURN_IF_ERROR(c->WithRankAtLeast(grad, 1, &unused));
    if (c->input_type(0) == DT_RESOURCE) return absl::OkStatus();
    PartialTensorShape merged = c->input(0);
    for (int i = 1; i <= (sparse ? num_vars - 1 : num_vars); ++i) {
      const int in = i < num_vars ? i : grad;
      auto m = merged.Merge(c->input(in));
      if (!m.ok()) {
        return c->Error("shapes ", merged.DebugString(), " and ", c->input(in).DebugString(),
                        " of var and input ", in, " are incompatible");
      }
      merged = *m;
    }
    c->set_output(0, merged);
    return absl::OkStatus();
  };
}

// What tells an optimizer's ops apart: the variables it updates and its other inputs. From one
// description RegisterOptimizer registers up to four ops: Apply<name> (ref variables; returns
// the updated `var` as `out`), ResourceApply<name> (resource variables; stateful, no output),
// and the Sparse forms SparseApply<name> and ResourceSparseApply<name>, which take `indices`
// (attr Tindices) right after the gradient.
struct OptimizerOps {
  enum Variants {
    kRef = 1,             // Apply<name>
    kResource = 2,        // ResourceApply<name>
    kSparseRef = 4,       // SparseApply<name>
    kSparseResource = 8,  // ResourceSparseApply<name>
    kDense = kRef | kResource,
    kAll = kRef | kResource | kSparseRef | kSparseResource,
  };
  const char* name;
  int variants;
  // The slot variables, after `var`.
  std::vector<const char*> slots;
  // The other inputs in order, the gradient among them: "lr" is a T, "global_step: int64" says
  // its type.
  std::vector<const char*> args;
  // The gradient's name among `args` (the gradient-descent ops' dense forms call it `delta`); the
  // sparse forms call it `grad` always.
  const char* grad = "grad";
  // Attrs after T, Tindices and use_locking.
  std::vector<const char*> attrs = {};
};

void RegisterOptimizer(const OptimizerOps& o) {
  struct Variant {
    int flag;
    const char* prefix;
    bool resource, sparse;
  };
  static constexpr Variant kVariants[] = {
      {OptimizerOps::kRef, "Apply", false, false},
      {OptimizerOps::kResource, "ResourceApply", true, false},
      {OptimizerOps::kSparseRef, "SparseApply", false, true},
      {OptimizerOps::kSparseResource, "ResourceSparseApply", true, true},
  };
  for (const Variant& v : kVariants) {
    if (!(o.variants & v.flag)) continue;
    OpDefBuilder b(std::string(v.prefix) + o.name);
    const std::string var_type = v.resource ? ": resource" : ": Ref(T)";
    b.Input(std::string("var") + var_type);
    for (const char* slot : o.slots) b.Input(slot + var_type);
    int num_inputs = 1 + static_cast<int>(o.slots.size()), grad = -1;
    for (const char* arg : o.args) {
      const bool is_grad = std::string(arg) == o.grad;
      if (is_grad) grad = num_inputs;
      const std::string name = is_grad && v.sparse ? "grad" : arg;
      b.Input(name.find(':') == std::string::npos ? name + ": T" : name);
      ++num_inputs;
      if (is_grad && v.sparse) {
        b.Input("indices: Tindices");
        ++num_inputs;
      }
    }
    if (!v.resource) b.Output("out: Ref(T)");
    b.Attr(kNumberTypes);
    if (v.sparse) b.Attr("Tindices: {int32, int64}");
    b.Attr("use_locking: bool = false");
    for (const char* attr : o.attrs) b.Attr(attr);
    if (v.resource) b.SetIsStateful();
    b.SetShapeFn(ApplyShape(1 + static_cast<int>(o.slots.size()), grad, v.sparse));
    OpDefBuilderReceiver registered(b);
  }
}

// Each description's inputs and attrs are in the order of TensorFlow's OpDefs.
[[maybe_unused]] const bool kOptimizersRegistered = [] {
  using O = OptimizerOps;
  const char* kNesterov = "use_nesterov: bool = false";
  const char* kUpdateSlots = "update_slots: bool = true";
  const char* kLinearByLr = "multiply_linear_by_lr: bool = false";
  const OptimizerOps kOptimizers[] = {
      {"GradientDescent", O::kDense, {}, {"alpha", "delta"}, "delta"},
      {"Momentum", O::kAll, {"accum"}, {"lr", "grad", "momentum"}, "grad", {kNesterov}},
      {"KerasMomentum", O::kResource | O::kSparseResource, {"accum"}, {"lr", "grad", "momentum"},
       "grad", {kNesterov}},
      {"Adam", O::kDense, {"m", "v"},
       {"beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon", "grad"}, "grad",
       {kNesterov}},
      {"AdamWithAmsgrad", O::kResource, {"m", "v", "vhat"},
       {"beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon", "grad"}},
      {"AdaMax", O::kDense, {"m", "v"},
       {"beta1_power", "lr", "beta1", "beta2", "epsilon", "grad"}},
      {"Adagrad", O::kAll, {"accum"}, {"lr", "grad"}, "grad", {kUpdateSlots}},
      {"AdagradV2", O::kAll, {"accum"}, {"lr", "epsilon", "grad"}, "grad", {kUpdateSlots}},
      {"AdagradDA", O::kAll, {"gradient_accumulator", "gradient_squared_accumulator"},
       {"grad", "lr", "l1", "l2", "global_step: int64"}},
      {"Adadelta", O::kAll, {"accum", "accum_update"}, {"lr", "rho", "epsilon", "grad"}},
      {"RMSProp", O::kAll, {"ms", "mom"}, {"lr", "rho", "momentum", "epsilon", "grad"}},
      {"CenteredRMSProp", O::kAll, {"mg", "ms", "mom"},
       {"lr", "rho", "momentum", "epsilon", "grad"}},
      {"Ftrl", O::kAll, {"accum", "linear"}, {"grad", "lr", "l1", "l2", "lr_power"}, "grad",
       {kLinearByLr}},
      {"FtrlV2", O::kAll, {"accum", "linear"},
       {"grad", "lr", "l1", "l2", "l2_shrinkage", "lr_power"}, "grad", {kLinearByLr}},
      {"ProximalAdagrad", O::kAll, {"accum"}, {"lr", "l1", "l2", "grad"}},
      {"ProximalGradientDescent", O::kAll, {}, {"alpha", "l1", "l2", "delta"}, "delta"},
      {"AddSign", O::kDense, {"m"}, {"lr", "alpha", "sign_decay", "beta", "grad"}},
      {"PowerSign", O::kDense, {"m"}, {"lr", "logbase", "sign_decay", "beta", "grad"}},
  };
  for (const OptimizerOps& o : kOptimizers) RegisterOptimizer(o);
  return true;
}();

}  // namespace
}  // namespace sg
