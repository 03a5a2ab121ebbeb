// The per-element update formulas of TensorFlow's training ops, shared by the dense kernels
// (training_ops.cc: Apply*, ResourceApply*) and the sparse ones (sparse_training_ops.cc:
// SparseApply*, ResourceSparseApply*), and the plumbing both use: where an op's inputs are and
// how its variables are locked.
//
// Each update is a template on the element type T with
//   kVars     the number of variable inputs (the variable, then its slots, in input order);
//   kRealOnly whether the formula compares or takes signs (no complex instantiation);
//   a constructor from UpdateArgs<T> (the op's scalar inputs and attrs), which also checks the
//     values where TensorFlow's CPU kernel does (Check);
//   operator()(T& var, T& slot..., T grad), applying one element's step in TensorFlow's
//     order of operations (as its functors in tensorflow/core/kernels/training_ops.cc), each
//     operation rounded to T as Eigen does for half and bfloat16.
// A sparse op applies the same formula to each element of the rows `indices` names, row by row
// in order (a duplicate index is applied twice). Where TensorFlow's sparse kernel arranges the
// algebra so that results differ beyond rounding (RMSProp's decay of an infinite ms, Ftrl's
// shrink of a NaN linear), the formula follows UpdateArgs::sparse; elsewhere the two kinds of
// kernel differ in the order of roundings only.
#ifndef SG_CORE_KERNELS_TRAINING_OPS_H_
#define SG_CORE_KERNELS_TRAINING_OPS_H_

#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "core/framework/op_kernel.h"
#include "core/kernels/variable_update.h"

namespace sg {
namespace training {

// What an update's constructor reads: the op's T-typed scalar inputs in input order (lr,
// momentum ... as the OpDef lists them, the gradient excluded), global_step (AdagradDA) and the
// attrs that change the formula.
template <typename T>
struct UpdateArgs {
  const T* s = nullptr;  // the scalars
  int64_t global_step = 0;
  bool use_nesterov = false;
  bool update_slots = true;
  bool multiply_linear_by_lr = false;
  bool sparse = false;            // a SparseApply* op (see the top of this file)
  std::string* error = nullptr;  // set by a constructor that rejects a scalar's value
};

template <typename T>
T Sqrt(T x) {
  return Eigen::numext::sqrt(x);
}
template <typename T>
T Rsqrt(T x) {
  return T(1) / Eigen::numext::sqrt(x);
}
// 0 for 0, else -1 or 1 (as Eigen's sign of a real).
template <typename T>
T Sign(T x) {
  return x == T(0) ? T(0) : (x < T(0) ? T(-1) : T(1));
}
template <typename T>
T Max(T a, T b) {
  return a < b ? b : a;
}
template <typename T>
T Min(T a, T b) {
  return b < a ? b : a;
}
template <typename T>
T Abs(T x) {
  return x < T(0) ? -x : x;
}
// pow and exp of a real; half and bfloat16 computed in float and rounded once, as Eigen does.
template <typename T>
T Pow(T x, T y) {
  if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16>) {
    return T(std::pow(static_cast<float>(x), static_cast<float>(y)));
  } else {
    return std::pow(x, y);
  }
}
template <typename T>
T Exp(T x) {
  if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16>) {
    return T(std::exp(static_cast<float>(x)));
  } else {
    return std::exp(x);
  }
}

// var -= grad * alpha.
template <typename T>
struct GradientDescentUpdate {
  static constexpr int kVars = 1;
  static constexpr bool kRealOnly = false;
  T lr;
  explicit GradientDescentUpdate(const UpdateArgs<T>& a) : lr(a.s[0]) {}
  void operator()(T& var, T g) const { var = var - g * lr; }
};

// Scalars lr, momentum.
template <typename T>
struct MomentumUpdate {
  static constexpr int kVars = 2;
  static constexpr bool kRealOnly = false;
  T lr, momentum;
  bool nesterov;
  explicit MomentumUpdate(const UpdateArgs<T>& a)
      : lr(a.s[0]), momentum(a.s[1]), nesterov(a.use_nesterov) {}
  void operator()(T& var, T& accum, T g) const {
    accum = accum * momentum + g;
    if (nesterov) {
      var = var - (g * lr + accum * momentum * lr);
    } else {
      var = var - accum * lr;
    }
  }
};

// Keras's momentum: accum holds the velocity, added to var. Scalars lr, momentum.
template <typename T>
struct KerasMomentumUpdate {
  static constexpr int kVars = 2;
  static constexpr bool kRealOnly = false;
  T lr, momentum;
  bool nesterov;
  explicit KerasMomentumUpdate(const UpdateArgs<T>& a)
      : lr(a.s[0]), momentum(a.s[1]), nesterov(a.use_nesterov) {}
  void operator()(T& var, T& accum, T g) const {
    accum = accum * momentum - g * lr;
    if (nesterov) {
      var = var + (accum * momentum - g * lr);
    } else {
      var = var + accum;
    }
  }
};

// Scalars beta1_power, beta2_power, lr, beta1, beta2, epsilon; the step size is
// lr * sqrt(1 - beta2_power) / (1 - beta1_power).
template <typename T>
struct AdamUpdate {
  static constexpr int kVars = 3;
  static constexpr bool kRealOnly = false;
  T alpha, one_minus_beta1, one_minus_beta2, beta1, epsilon;
  bool nesterov;
  explicit AdamUpdate(const UpdateArgs<T>& a)
      : alpha(a.s[2] * Sqrt(T(T(1) - a.s[1])) / (T(1) - a.s[0])),
        one_minus_beta1(T(1) - a.s[3]),
        one_minus_beta2(T(1) - a.s[4]),
        beta1(a.s[3]),
        epsilon(a.s[5]),
        nesterov(a.use_nesterov) {}
  void operator()(T& var, T& m, T& v, T g) const {
    m = m + (g - m) * one_minus_beta1;
    v = v + (g * g - v) * one_minus_beta2;
    if (nesterov) {
      var = var - ((g * one_minus_beta1 + beta1 * m) * alpha) / (Sqrt(v) + epsilon);
    } else {
      var = var - (m * alpha) / (Sqrt(v) + epsilon);
    }
  }
};

// Adam with vhat = max(vhat, v) in the denominator. Same scalars as Adam.
template <typename T>
struct AdamWithAmsgradUpdate {
  static constexpr int kVars = 4;
  static constexpr bool kRealOnly = true;
  AdamUpdate<T> adam;
  explicit AdamWithAmsgradUpdate(const UpdateArgs<T>& a) : adam(a) {}
  void operator()(T& var, T& m, T& v, T& vhat, T g) const {
    m = m + (g - m) * adam.one_minus_beta1;
    v = v + (g * g - v) * adam.one_minus_beta2;
    vhat = Max(vhat, v);
    var = var - (m * adam.alpha) / (Sqrt(vhat) + adam.epsilon);
  }
};

// Scalars beta1_power, lr, beta1, beta2, epsilon.
template <typename T>
struct AdaMaxUpdate {
  static constexpr int kVars = 3;
  static constexpr bool kRealOnly = true;
  T step, one_minus_beta1, beta2, epsilon;
  explicit AdaMaxUpdate(const UpdateArgs<T>& a)
      : step(a.s[1] / (T(1) - a.s[0])),
        one_minus_beta1(T(1) - a.s[2]),
        beta2(a.s[3]),
        epsilon(a.s[4]) {}
  void operator()(T& var, T& m, T& v, T g) const {
    m = m + (g - m) * one_minus_beta1;
    v = Max(T(beta2 * v), Abs(g));
    var = var - step * (m / (v + epsilon));
  }
};

// Scalar lr; update_slots false leaves accum as it is.
template <typename T>
struct AdagradUpdate {
  static constexpr int kVars = 2;
  static constexpr bool kRealOnly = false;
  T lr;
  bool update_slots;
  explicit AdagradUpdate(const UpdateArgs<T>& a) : lr(a.s[0]), update_slots(a.update_slots) {}
  void operator()(T& var, T& accum, T g) const {
    if (update_slots) accum = accum + g * g;
    var = var - g * lr * Rsqrt(accum);
  }
};

// Scalars lr, epsilon: var -= grad * lr / (sqrt(accum) + epsilon).
template <typename T>
struct AdagradV2Update {
  static constexpr int kVars = 2;
  static constexpr bool kRealOnly = false;
  T lr, epsilon;
  bool update_slots;
  explicit AdagradV2Update(const UpdateArgs<T>& a)
      : lr(a.s[0]), epsilon(a.s[1]), update_slots(a.update_slots) {}
  void operator()(T& var, T& accum, T g) const {
    if (update_slots) accum = accum + g * g;
    var = var - g * lr / (Sqrt(accum) + epsilon);
  }
};

// Adagrad dual averaging: var is recomputed from the accumulators. Scalars lr, l1, l2; the step
// count global_step enters as a float, as in TensorFlow.
template <typename T>
struct AdagradDAUpdate {
  static constexpr int kVars = 3;
  static constexpr bool kRealOnly = true;
  T lr, l1, l2, step_l1, l2_step_lr;
  explicit AdagradDAUpdate(const UpdateArgs<T>& a) : lr(a.s[0]), l1(a.s[1]), l2(a.s[2]) {
    const T step(static_cast<float>(a.global_step));
    step_l1 = step * l1;
    l2_step_lr = l2 * T(step * lr);
  }
  void operator()(T& var, T& ga, T& gsa, T g) const {
    ga = ga + g;
    gsa = gsa + g * g;
    if (l1 > T(0)) {
      var = lr * T(-1) * Sign(ga) * Max(T(Abs(ga) - step_l1), T(0)) / (l2_step_lr + Sqrt(gsa));
    } else {
      var = lr * ga * T(-1) / (l2_step_lr + Sqrt(gsa));
    }
  }
};

// Scalars lr, rho, epsilon.
template <typename T>
struct AdadeltaUpdate {
  static constexpr int kVars = 3;
  static constexpr bool kRealOnly = false;
  T lr, rho, one_minus_rho, epsilon;
  explicit AdadeltaUpdate(const UpdateArgs<T>& a)
      : lr(a.s[0]), rho(a.s[1]), one_minus_rho(T(1) - a.s[1]), epsilon(a.s[2]) {}
  void operator()(T& var, T& accum, T& accum_update, T g) const {
    accum = accum * rho + g * g * one_minus_rho;
    const T update = Sqrt(T(accum_update + epsilon)) * Rsqrt(T(accum + epsilon)) * g;
    var = var - update * lr;
    accum_update = accum_update * rho + update * update * one_minus_rho;
  }
};

// Scalars lr, rho, momentum, epsilon. TensorFlow's sparse kernels decay ms (and mg) as
// ms * rho + g^2 * (1 - rho) where the dense ones add (g^2 - ms) * (1 - rho), which differ when ms
// is infinite, and divide in another order; each form here follows its kernel.
template <typename T>
struct RMSPropUpdate {
  static constexpr int kVars = 3;
  static constexpr bool kRealOnly = false;
  T lr, rho, one_minus_rho, momentum, epsilon;
  bool sparse;
  explicit RMSPropUpdate(const UpdateArgs<T>& a)
      : lr(a.s[0]),
        rho(a.s[1]),
        one_minus_rho(T(1) - a.s[1]),
        momentum(a.s[2]),
        epsilon(a.s[3]),
        sparse(a.sparse) {}
  void operator()(T& var, T& ms, T& mom, T g) const {
    if (sparse) {
      ms = ms * rho + g * g * one_minus_rho;
      mom = mom * momentum + Rsqrt(T(ms + epsilon)) * lr * g;
    } else {
      ms = ms + (g * g - ms) * one_minus_rho;
      mom = mom * momentum + (g * lr) / Sqrt(T(ms + epsilon));
    }
    var = var - mom;
  }
};

// RMSProp with the mean gradient mg subtracted: the denominator is sqrt(ms - mg^2 + epsilon).
template <typename T>
struct CenteredRMSPropUpdate {
  static constexpr int kVars = 4;
  static constexpr bool kRealOnly = false;
  RMSPropUpdate<T> rms;
  explicit CenteredRMSPropUpdate(const UpdateArgs<T>& a) : rms(a) {}
  void operator()(T& var, T& mg, T& ms, T& mom, T g) const {
    if (rms.sparse) {
      ms = ms * rms.rho + g * g * rms.one_minus_rho;
      mg = mg * rms.rho + g * rms.one_minus_rho;
      const T denom = ms + rms.epsilon - mg * mg;
      mom = mom * rms.momentum + Rsqrt(denom) * rms.lr * g;
    } else {
      ms = ms + (g * g - ms) * rms.one_minus_rho;
      mg = mg + (g - mg) * rms.one_minus_rho;
      const T denom = (ms - mg * mg) + rms.epsilon;
      mom = mom * rms.momentum + (g * rms.lr) / Sqrt(denom);
    }
    var = var - mom;
  }
};

// FTRL-proximal. Scalars lr, l1, l2, [l2_shrinkage,] lr_power. With l2_shrinkage (FtrlV2) the
// gradient that enters `linear` is grad + 2 * l2_shrinkage * var; accum always gathers grad^2.
// multiply_linear_by_lr keeps linear scaled by lr. lr_power -0.5 takes square roots, any other
// value pow(accum, -lr_power). TensorFlow's sparse kernels check lr > 0, l1, l2, l2_shrinkage
// >= 0 and lr_power <= 0, and shrink linear by clamping it to [-l1, l1] where the dense ones
// select 0 when |linear| <= l1: the same but for a NaN linear, which the dense form makes 0.
template <typename T, bool kShrinkage>
struct FtrlUpdateImpl {
  static constexpr int kVars = 3;
  static constexpr bool kRealOnly = true;
  T lr, l1, l2, shrinkage, lr_power, two_l2, two_l2_lr, l1_lr;
  bool multiply, sparse, sqrt_power;
  explicit FtrlUpdateImpl(const UpdateArgs<T>& a)
      : lr(a.s[0]),
        l1(a.s[1]),
        l2(a.s[2]),
        shrinkage(kShrinkage ? a.s[3] : T(0)),
        lr_power(a.s[kShrinkage ? 4 : 3]),
        two_l2(T(2) * l2),
        two_l2_lr(T(2) * l2 * lr),
        l1_lr(l1 * lr),
        multiply(a.multiply_linear_by_lr),
        sparse(a.sparse),
        sqrt_power(lr_power == T(-0.5)) {
    if (!a.sparse) return;
    if (!(lr > T(0))) {
      *a.error = "lr is not a positive scalar";
    } else if (!(l1 >= T(0))) {
      *a.error = "l1 regularization strength is not a non-negative scalar";
    } else if (!(l2 >= T(0))) {
      *a.error = "l2 regularization strength is not a non-negative scalar";
    } else if (!(lr_power <= T(0))) {
      *a.error = "lr_power is not a non-positive scalar";
    } else if (kShrinkage && !(shrinkage >= T(0))) {
      *a.error = "l2 shrinkage regularization strength is not a non-negative scalar";
    }
  }
  T Power(T x) const { return sqrt_power ? Sqrt(x) : Pow(x, T(-lr_power)); }
  void operator()(T& var, T& accum, T& linear, T g) const {
    const T g_shrunk = kShrinkage ? T(g + T(T(2) * shrinkage) * var) : g;
    const T new_accum = accum + g * g;
    const T sigma = Power(new_accum) - Power(accum);
    const T bound = multiply ? l1_lr : l1;
    if (multiply) {
      linear = linear + (g_shrunk * lr - sigma * var);
    } else {
      linear = linear + (g_shrunk - sigma / lr * var);
    }
    const T y = multiply ? T(Power(new_accum) + two_l2_lr) : T(Power(new_accum) / lr + two_l2);
    if (sparse) {
      var = (Max(Min(linear, bound), T(-bound)) - linear) / y;
    } else {
      const T x = bound * Sign(linear) - linear;
      var = Abs(linear) > bound ? T(x / y) : T(0);
    }
    accum = accum + g * g;
  }
};
template <typename T>
using FtrlUpdate = FtrlUpdateImpl<T, false>;
template <typename T>
using FtrlV2Update = FtrlUpdateImpl<T, true>;

// Forward-backward splitting with Adagrad's step lr / sqrt(accum). Scalars lr, l1, l2, which
// TensorFlow's CPU kernels check: lr > 0, l1 >= 0, l2 >= 0.
template <typename T>
struct ProximalAdagradUpdate {
  static constexpr int kVars = 2;
  static constexpr bool kRealOnly = true;
  T lr, l1, l2;
  explicit ProximalAdagradUpdate(const UpdateArgs<T>& a) : lr(a.s[0]), l1(a.s[1]), l2(a.s[2]) {
    if (!(lr > T(0))) {
      *a.error = "lr is not a positive scalar";
    } else if (!(l1 >= T(0))) {
      *a.error = "l1 regularization strength is not a non-negative scalar";
    } else if (!(l2 >= T(0))) {
      *a.error = "l2 regularization strength is not a non-negative scalar";
    }
  }
  void operator()(T& var, T& accum, T g) const {
    accum = accum + g * g;
    const T step = lr * Rsqrt(accum);
    const T prox = var - g * step;
    if (l1 > T(0)) {
      var = Sign(prox) * Max(T(Abs(prox) - step * l1), T(0)) / (T(1) + l2 * step);
    } else {
      var = prox / (T(1) + l2 * step);
    }
  }
};

// Forward-backward splitting with a fixed step. Scalars alpha, l1, l2.
template <typename T>
struct ProximalGradientDescentUpdate {
  static constexpr int kVars = 1;
  static constexpr bool kRealOnly = true;
  T lr, l1, lr_l1, denom;
  explicit ProximalGradientDescentUpdate(const UpdateArgs<T>& a)
      : lr(a.s[0]), l1(a.s[1]), lr_l1(a.s[0] * a.s[1]), denom(T(1) + T(a.s[2] * a.s[0])) {}
  void operator()(T& var, T g) const {
    const T prox = var - g * lr;
    if (l1 > T(0)) {
      var = Sign(prox) * Max(T(Abs(prox) - lr_l1), T(0)) / denom;
    } else {
      var = prox / denom;
    }
  }
};

// Scalars lr, alpha, sign_decay, beta: var -= lr * (alpha + sign_decay * sign(g) * sign(m)) * g.
template <typename T>
struct AddSignUpdate {
  static constexpr int kVars = 2;
  static constexpr bool kRealOnly = true;
  T lr, alpha, sign_decay, beta, one_minus_beta;
  explicit AddSignUpdate(const UpdateArgs<T>& a)
      : lr(a.s[0]), alpha(a.s[1]), sign_decay(a.s[2]), beta(a.s[3]), one_minus_beta(T(1) - beta) {}
  void operator()(T& var, T& m, T g) const {
    m = m * beta + g * one_minus_beta;
    const T sign_gm = Sign(g) * Sign(m);
    var = var - lr * (alpha + sign_decay * sign_gm) * g;
  }
};

// Scalars lr, logbase, sign_decay, beta: var -= lr * exp(logbase * sign_decay * sign(g) *
// sign(m)) * g.
template <typename T>
struct PowerSignUpdate {
  static constexpr int kVars = 2;
  static constexpr bool kRealOnly = true;
  T lr, logbase, sign_decay, beta, one_minus_beta;
  explicit PowerSignUpdate(const UpdateArgs<T>& a)
      : lr(a.s[0]),
        logbase(a.s[1]),
        sign_decay(a.s[2]),
        beta(a.s[3]),
        one_minus_beta(T(1) - beta) {}
  void operator()(T& var, T& m, T g) const {
    m = m * beta + g * one_minus_beta;
    const T sign_gm = Sign(g) * Sign(m);
    const T scale = Exp(T(logbase * sign_decay * sign_gm));
    var = var - lr * scale * g;
  }
};

// Applies `u` to elements [0, n) of grad `g` and of each variable's data at `offset`.
template <typename U, typename T, size_t... I>
void ApplyElements(const U& u, T* const* vars, int64_t offset, const T* g, int64_t n,
                   std::index_sequence<I...>) {
  for (int64_t j = 0; j < n; ++j) u(vars[I][offset + j]..., g[j]);
}

// Where a training op's inputs are, from its OpDef: the leading ref or resource inputs are the
// variables; "grad" (or "delta"), "indices" and "global_step" by name; every other input is a
// T-typed scalar, in input order.
struct InputLayout {
  std::vector<int> vars;
  std::vector<std::string> var_names;
  std::vector<int> scalars;
  std::vector<std::string> scalar_names;
  int grad = -1;
  int indices = -1;
  int global_step = -1;

  // INVALID_ARGUMENT when the OpDef does not have that form.
  absl::Status Init(OpKernelConstruction* ctx, int num_vars);
};

// Invokes fn(T{}) for the dtypes a training update can have: half, bfloat16, float, double and,
// when `complex`, complex64 and complex128. False for any other dtype.
template <bool kComplex, typename Fn>
bool DispatchTrainingType(DataType dt, Fn&& fn) {
  switch (dt) {
    case DT_HALF: fn(half{}); return true;
    case DT_BFLOAT16: fn(bfloat16{}); return true;
    case DT_FLOAT: fn(float{}); return true;
    case DT_DOUBLE: fn(double{}); return true;
    default: break;
  }
  if constexpr (kComplex) {
    switch (dt) {
      case DT_COMPLEX64: fn(complex64{}); return true;
      case DT_COMPLEX128: fn(complex128{}); return true;
      default: break;
    }
  }
  return false;
}

// Reads the op's scalars into *s (and global_step): INVALID_ARGUMENT, as TensorFlow's "<input>
// is not a scalar", when one is not a scalar.
template <typename T>
absl::Status ReadScalars(OpKernelContext* ctx, const InputLayout& layout, std::vector<T>* s,
                         int64_t* global_step) {
  for (size_t k = 0; k < layout.scalars.size(); ++k) {
    const Tensor& t = ctx->input(layout.scalars[k]);
    if (t.dims() != 0) {
      return errors::InvalidArgument(layout.scalar_names[k], " is not a scalar: ",
                                     t.shape().DebugString(), " (node '",
                                     ctx->op_kernel().name(), "')");
    }
    s->push_back(t.data<T>()[0]);
  }
  if (layout.global_step >= 0) {
    const Tensor& t = ctx->input(layout.global_step);
    if (t.dims() != 0) {
      return errors::InvalidArgument("global_step is not a scalar: ", t.shape().DebugString(),
                                     " (node '", ctx->op_kernel().name(), "')");
    }
    *global_step = t.data<int64_t>()[0];
  }
  return absl::OkStatus();
}

// Locks the op's variables (LockedVariables::Lock), a resource that does not exist being
// INTERNAL "Invalid variable reference", as TensorFlow's training ops report it.
absl::Status LockTrainingVariables(OpKernelContext* ctx, const InputLayout& layout,
                                   DataType dtype, LockedVariables* vars);

// The attrs an update may use, read from those the op has; the rest keep their defaults.
struct TrainingAttrs {
  bool use_nesterov = false;
  bool update_slots = true;
  bool multiply_linear_by_lr = false;
  absl::Status Init(OpKernelConstruction* ctx);

  template <typename T>
  UpdateArgs<T> Args(const std::vector<T>& scalars, int64_t global_step, bool sparse,
                     std::string* error) const {
    UpdateArgs<T> a;
    a.s = scalars.data();
    a.global_step = global_step;
    a.use_nesterov = use_nesterov;
    a.update_slots = update_slots;
    a.multiply_linear_by_lr = multiply_linear_by_lr;
    a.sparse = sparse;
    a.error = error;
    return a;
  }
};

// The dtypes TensorFlow's CPU kernels register the training ops for (constant arrays: no static
// initializer, which training_ops.cc, compiled per x86-64 level, may not have).
constexpr DataType kFloatTypes[] = {DT_HALF, DT_BFLOAT16, DT_FLOAT, DT_DOUBLE};
constexpr DataType kFloatAndComplexTypes[] = {DT_HALF,   DT_BFLOAT16,  DT_FLOAT,
                                              DT_DOUBLE, DT_COMPLEX64, DT_COMPLEX128};
constexpr DataType kFloatDouble[] = {DT_FLOAT, DT_DOUBLE};

// What every training kernel does around its update: reads T and the input layout when it is
// built; in each step locks the variables (ref inputs or resource handles alike, all together,
// for the whole step), checks that the slots have var's shape, runs Derived::Step<T> (which
// checks its own inputs, builds the update with MakeUpdate and applies it) with the variables
// still locked, and at last forwards the ref variable as `out` (the ref forms' output).
// Derived is the kernel (CRTP): the dense and the sparse forms differ only in Step.
template <template <typename> class U, typename Derived>
class TrainingOpBase : public OpKernel {
 public:
  static constexpr int kVars = U<float>::kVars;

  void Compute(OpKernelContext* ctx) final {
    {
      LockedVariables vars;
      OP_REQUIRES_OK(ctx, LockTrainingVariables(ctx, layout_, dtype_, &vars));
      absl::Status s;
      const bool ok = DispatchTrainingType<!U<float>::kRealOnly>(dtype_, [&](auto tag) {
        using T = decltype(tag);
        s = CheckSlotShapes(vars);
        if (s.ok()) s = static_cast<Derived*>(this)->template Step<T>(ctx, &vars);
      });
      OP_REQUIRES(ctx, ok,
                  errors::InvalidArgument("node '", name(), "': ", type_string(),
                                          " has no kernel for ", DataTypeString(dtype_)));
      OP_REQUIRES_OK(ctx, s);
    }
    if (ctx->input_is_ref(0)) ctx->forward_ref_input_to_ref_output(0, 0);
  }

 protected:
  // `sparse`: a SparseApply* op (UpdateArgs::sparse).
  TrainingOpBase(OpKernelConstruction* ctx, bool sparse) : OpKernel(ctx), sparse_(sparse) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("T", &dtype_));
    OP_REQUIRES_OK(ctx, layout_.Init(ctx, kVars));
    OP_REQUIRES_OK(ctx, attrs_.Init(ctx));
  }

  const InputLayout& layout() const { return layout_; }

  // INVALID_ARGUMENT `what`, naming the node.
  absl::Status Error(const std::string& what) const {
    return errors::InvalidArgument(what, " (node '", name(), "')");
  }

  // The update of this step, from the op's scalars and attrs: INVALID_ARGUMENT when a scalar is
  // not a scalar or the update rejects its value.
  template <typename T>
  absl::StatusOr<U<T>> MakeUpdate(OpKernelContext* ctx) const {
    std::vector<T> scalars;
    int64_t global_step = 0;
    SG_RETURN_IF_ERROR(ReadScalars<T>(ctx, layout_, &scalars, &global_step));
    std::string error;
    U<T> update(attrs_.Args<T>(scalars, global_step, sparse_, &error));
    if (!error.empty()) return Error(error);
    return update;
  }

  // The data of var and of each slot, for ApplyElements; call vars->EnsureAllUnshared first.
  template <typename T>
  static std::array<T*, kVars> VariableData(const LockedVariables& vars) {
    std::array<T*, kVars> data;
    for (int k = 0; k < kVars; ++k) data[k] = vars.tensor(k)->template data<T>();
    return data;
  }

 private:
  absl::Status CheckSlotShapes(const LockedVariables& vars) const {
    const Tensor& var = *vars.tensor(0);
    for (int k = 1; k < kVars; ++k) {
      const Tensor& slot = *vars.tensor(k);
      if (slot.shape() != var.shape()) {
        return Error("var and " + layout_.var_names[k] + " do not have the same shape" +
                     var.shape().DebugString() + " " + slot.shape().DebugString());
      }
    }
    return absl::OkStatus();
  }

  const bool sparse_;
  DataType dtype_;
  InputLayout layout_;
  TrainingAttrs attrs_;
};

}  // namespace training
}  // namespace sg

#endif  // SG_CORE_KERNELS_TRAINING_OPS_H_
