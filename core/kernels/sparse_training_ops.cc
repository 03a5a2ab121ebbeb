// The sparse training ops, as TensorFlow's: SparseApply* on reference variables (the updated
// variable is forwarded as `out`) and ResourceSparseApply* on resource variables. Row i of `grad`
// updates row indices[i] of the variable and of its slots with the update in training_ops.h,
// rows in order, so a duplicate index takes two steps. var must have rank >= 1, indices must be a
// vector, grad must be [len(indices)] + var.shape[1:], and every index must be in
// [0, var.shape[0]) (checked before any row is written; TensorFlow's kernels may have written the
// rows before a bad index when they fail).
#include "core/kernels/training_ops.h"

#include <array>
#include <string>
#include <vector>

namespace sg {
namespace training {
namespace {

template <template <typename> class U>
class SparseApplyOp final : public TrainingOpBase<U, SparseApplyOp<U>> {
  using Base = TrainingOpBase<U, SparseApplyOp<U>>;

 public:
  explicit SparseApplyOp(OpKernelConstruction* ctx) : Base(ctx, /*sparse=*/true) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("Tindices", &index_type_));
    OP_REQUIRES(ctx, this->layout().indices >= 0,
                errors::InvalidArgument("node '", this->name(), "': no indices input"));
    // The kernels TensorFlow gives an "Inner dimension should be greater than zero" check.
    const std::string& op = this->type_string();
    for (const char* checked : {"Adagrad", "AdagradV2", "AdagradDA", "ProximalAdagrad",
                                "ProximalGradientDescent", "Ftrl", "FtrlV2"}) {
      if (op == std::string("SparseApply") + checked ||
          op == std::string("ResourceSparseApply") + checked) {
        check_inner_dim_ = true;
      }
    }
  }

  // The rows of grad against var's and indices (see the top of this file); then each row takes
  // one step, in order.
  template <typename T>
  absl::Status Step(OpKernelContext* ctx, LockedVariables* vars) {
    const Tensor& var = *vars->tensor(0);
    if (var.dims() < 1) return this->Error("var must be at least 1 dimensional");
    const Tensor& indices = ctx->input(this->layout().indices);
    if (indices.dims() != 1) return this->Error("indices must be one-dimensional");
    const Tensor& grad = ctx->input(this->layout().grad);
    if (grad.dims() != var.dims()) {
      return this->Error("grad must have var's rank " + std::to_string(var.dims()) +
                         ", got shape " + grad.shape().DebugString());
    }
    int64_t inner = 1;
    for (int d = 1; d < var.dims(); ++d) {
      if (var.dim_size(d) != grad.dim_size(d)) {
        return this->Error("var and grad must match in dimension " + std::to_string(d));
      }
      inner *= var.dim_size(d);
    }
    const int64_t n = indices.dim_size(0);
    if (grad.dim_size(0) != n) {
      return this->Error("grad must be the same size as indices in the first dimension.");
    }
    if (check_inner_dim_ && inner <= 0) {
      return this->Error("Inner dimension should be greater than zero.");
    }
    SG_ASSIGN_OR_RETURN(const U<T> update, this->template MakeUpdate<T>(ctx));
    std::vector<int64_t> rows;
    SG_RETURN_IF_ERROR(ReadIndices(indices, var.dim_size(0), &rows));
    if (n == 0 || inner == 0) return absl::OkStatus();
    SG_RETURN_IF_ERROR(vars->EnsureAllUnshared(ctx));
    const std::array<T*, Base::kVars> data = Base::template VariableData<T>(*vars);
    const T* g = grad.data<T>();
    for (int64_t i = 0; i < n; ++i) {
      ApplyElements(update, data.data(), rows[i] * inner, g + i * inner, inner,
                    std::make_index_sequence<Base::kVars>());
    }
    return absl::OkStatus();
  }

 private:
  // The rows `indices` names, each checked against [0, rows).
  absl::Status ReadIndices(const Tensor& indices, int64_t rows, std::vector<int64_t>* out) const {
    const int64_t n = indices.NumElements();
    out->resize(n);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t index = index_type_ == DT_INT32 ? indices.data<int32_t>()[i]
                                                    : indices.data<int64_t>()[i];
      if (index < 0 || index >= rows) {
        return this->Error("Index " + std::to_string(index) + " at offset " + std::to_string(i) +
                           " in indices is out of range");
      }
      (*out)[i] = index;
    }
    return absl::OkStatus();
  }

  DataType index_type_;
  bool check_inner_dim_ = false;
};

// TensorFlow registers no bfloat16 kernel for the sparse RMSProp forms.
const std::vector<DataType> kNoBfloat16Types = {DT_HALF, DT_FLOAT, DT_DOUBLE, DT_COMPLEX64,
                                                DT_COMPLEX128};
const std::vector<DataType> kIndexTypes = {DT_INT32, DT_INT64};

// The ref and resource forms of one sparse update.
#define SG_REGISTER_SPARSE_APPLY(name, update, types)                                \
  REGISTER_KERNEL_BUILDER(Name("SparseApply" name)                                   \
                              .Device(DEVICE_CPU)                                    \
                              .TypeConstraint("T", types)                            \
                              .TypeConstraint("Tindices", kIndexTypes),              \
                          SparseApplyOp<update>);                                    \
  REGISTER_KERNEL_BUILDER(Name("ResourceSparseApply" name)                           \
                              .Device(DEVICE_CPU)                                    \
                              .TypeConstraint("T", types)                            \
                              .TypeConstraint("Tindices", kIndexTypes),              \
                          SparseApplyOp<update>)

SG_REGISTER_SPARSE_APPLY("Momentum", MomentumUpdate, kFloatAndComplexTypes);
SG_REGISTER_SPARSE_APPLY("Adagrad", AdagradUpdate, kFloatAndComplexTypes);
SG_REGISTER_SPARSE_APPLY("AdagradV2", AdagradV2Update, kFloatAndComplexTypes);
SG_REGISTER_SPARSE_APPLY("AdagradDA", AdagradDAUpdate, kFloatDouble);
SG_REGISTER_SPARSE_APPLY("Adadelta", AdadeltaUpdate, kFloatAndComplexTypes);
SG_REGISTER_SPARSE_APPLY("RMSProp", RMSPropUpdate, kNoBfloat16Types);
SG_REGISTER_SPARSE_APPLY("CenteredRMSProp", CenteredRMSPropUpdate, kNoBfloat16Types);
SG_REGISTER_SPARSE_APPLY("Ftrl", FtrlUpdate, kFloatTypes);
SG_REGISTER_SPARSE_APPLY("FtrlV2", FtrlV2Update, kFloatTypes);
SG_REGISTER_SPARSE_APPLY("ProximalAdagrad", ProximalAdagradUpdate, kFloatDouble);
SG_REGISTER_SPARSE_APPLY("ProximalGradientDescent", ProximalGradientDescentUpdate,
                         kFloatDouble);
#undef SG_REGISTER_SPARSE_APPLY

REGISTER_KERNEL_BUILDER(Name("ResourceSparseApplyKerasMomentum")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", kFloatAndComplexTypes)
                            .TypeConstraint("Tindices", kIndexTypes),
                        SparseApplyOp<KerasMomentumUpdate>);

}  // namespace
}  // namespace training
}  // namespace sg
