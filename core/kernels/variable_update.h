// Writes into a variable's tensor (ref variables and resource variables alike) without
// disturbing snapshots: readers of a variable share its buffer, so a write goes into the buffer
// in place only when no other tensor holds it, and otherwise into a new buffer that replaces the
// variable's tensor (copy on write).
//
// Every function here expects the caller to hold the variable's mutex exclusively.
#ifndef SG_CORE_KERNELS_VARIABLE_UPDATE_H_
#define SG_CORE_KERNELS_VARIABLE_UPDATE_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "core/framework/op_kernel.h"
#include "core/framework/tensor.h"

namespace sg {

// Makes *var hold a copy of `value` (its dtype and shape too). The variable never shares
// `value`'s buffer, which may be a caller's borrowed memory. RESOURCE_EXHAUSTED when memory runs
// out.
absl::Status CopyIntoVariable(OpKernelContext* ctx, const Tensor& value, Tensor* var);

enum class DenseUpdate { kAdd, kSub };

// *var = *var + value (or - value). Preconditions: *var is initialized and has `value`'s dtype
// and shape. INVALID_ARGUMENT for a dtype without arithmetic.
absl::Status ApplyDenseUpdate(OpKernelContext* ctx, DenseUpdate op, const Tensor& value,
                              Tensor* var);

// The dtypes ApplyDenseUpdate supports, for the TypeConstraint of the kernels that call it: a
// dtype the op allows beyond these (the quantized types) then fails at kernel creation.
const std::vector<DataType>& DenseUpdateTypes();

// Makes *var's buffer one that no other tensor shares (copying the contents when a snapshot
// holds it), so the caller may then write into it in place. RESOURCE_EXHAUSTED when memory runs
// out.
absl::Status EnsureUnshared(OpKernelContext* ctx, Tensor* var);

// Runs `update` on the variable that input `input` names, locked exclusively: a ref input (a
// VariableV2's output) or a DT_RESOURCE handle to a Var, which must hold `dtype`. For the kernels
// that change part of a variable (ScatterNdUpdate, ResourceStridedSliceAssign ...): `update`
// validates its other inputs against *var, then calls EnsureUnshared before writing.
// FAILED_PRECONDITION when the variable is uninitialized, NOT_FOUND when the resource does not
// exist, INVALID_ARGUMENT for a resource of another dtype; otherwise what `update` returns.
absl::Status UpdateVariable(OpKernelContext* ctx, int input, DataType dtype,
                            const std::function<absl::Status(Tensor* var)>& update);

// Reads the resource variable that input `input` (a DT_RESOURCE handle) names: *value then shares
// its buffer, and stays as it is when the variable is written later (writers copy on write).
// NOT_FOUND when the resource does not exist, INVALID_ARGUMENT when it holds another dtype than
// `dtype`, FAILED_PRECONDITION when it is uninitialized.
absl::Status ReadResourceVariable(OpKernelContext* ctx, int input, DataType dtype, Tensor* value);

// The variables behind several inputs of one kernel (ref inputs or DT_RESOURCE handles to Vars),
// locked exclusively together for the object's lifetime: each distinct mutex once, in address
// order, so kernels locking overlapping sets cannot deadlock, and an input that names the same
// variable as an earlier one gets that variable's tensor. For the training ops, which update a
// variable and its slots in one step.
class LockedVariables {
 public:
  LockedVariables() = default;
  LockedVariables(const LockedVariables&) = delete;
  LockedVariables& operator=(const LockedVariables&) = delete;
  ~LockedVariables();

  // Looks up and locks the variables of `inputs`, which must hold `dtype` and be initialized:
  // FAILED_PRECONDITION for an uninitialized variable (TensorFlow's "Attempting to use
  // uninitialized variables" message), NOT_FOUND for a resource that does not exist,
  // INVALID_ARGUMENT for a resource of another dtype. On error nothing stays locked.
  // (Clang's thread-safety analysis cannot follow a set of locks sized at run time: Lock and
  // UnlockAll are not analysed.)
  absl::Status Lock(OpKernelContext* ctx, const std::vector<int>& inputs, DataType dtype)
      ABSL_NO_THREAD_SAFETY_ANALYSIS;

  // The tensor of the k-th variable of `inputs`; valid while locked. Call EnsureUnshared on it
  // before writing.
  Tensor* tensor(int k) const { return tensors_[k]; }

  // Makes every distinct variable's buffer unshared (see EnsureUnshared).
  absl::Status EnsureAllUnshared(OpKernelContext* ctx);

 private:
  void UnlockAll() ABSL_NO_THREAD_SAFETY_ANALYSIS;

  std::vector<std::shared_ptr<Var>> vars_;  // keeps resource variables alive
  std::vector<absl::Mutex*> locked_;
  std::vector<Tensor*> tensors_;
};

}  // namespace sg

#endif  // SG_CORE_KERNELS_VARIABLE_UPDATE_H_
