// The sparse training ops, as TensorFlow's: SparseApply* on reference variables (the updated
// variable is forwarded as `out`) and ResourceSparseApply* on resource variables. Row i of `grad`
// updates row indices[i] of the variable and of its slots with the update in training_ops.h,
// rows in order, so a duplicate index takes two steps. var must have rank >= 1, indices must be a
// vector, grad must be [len(indices)] + var.shape[1:], and every index must be in
// [0, var.shape[0]) (checked before any row is written; TensorFlow's kernels may have written the
// rows before a bad index when they fail).
#include <string>
#include <vector>

#include "core/kernels/training_ops.h"

namespace sg {
namespace training {
namespace {

template <template <typename> class U>
class SparseApplyOp final : public OpKernel {
 public:
  explicit SparseApplyOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("T", &dtype_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("Tindices", &index_type_));
    OP_REQUIRES_OK(ctx, layout_.Init(ctx, U<float>::kVars));
    OP_REQUIRES(ctx, layout_.indices >= 0,
                errors::InvalidArgument("node '", name(), "': no indices input"));
    OP_REQUIRES_OK(ctx, attrs_.Init(ctx));
    // The kernels TensorFlow gives an "Inner dimension should be greater than zero" check.
    const std::string& op = type_string();
    for (const char* checked : {"Adagrad", "AdagradV2", "AdagradDA", "ProximalAdagrad",
                                "ProximalGradientDescent", "Ftrl", "FtrlV2"}) {
      if (op == std::string("SparseApply") + checked ||
          op == std::string("ResourceSparseApply") + checked) {
        check_inner_dim_ = true;
      }
    }
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
  absl::Status Error(const std::string& what) const {
    return errors::InvalidArgument(what, " (node '", name(), "')");
  }

  // The rows `indices` names, each checked against [0, rows).
  absl::Status ReadIndices(const Tensor& indices, int64_t rows, std::vector<int64_t>* out) const {
    const int64_t n = indices.NumElements();
    out->resize(n);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t index = index_type_ == DT_INT32 ? indices.data<int32_t>()[i]
                                                    : indices.data<int64_t>()[i];
      if (index < 0 || index >= rows) {
        return Error("Index " + std::to_string(index) + " at offset " + std::to_string(i) +
                     " in indices is out of range");
      }
      (*out)[i] = index;
    }
    return absl::OkStatus();
  }

  template <typename T>
  absl::Status Apply(OpKernelContext* ctx, LockedVariables* vars) {
    constexpr int kVars = U<T>::kVars;
    const Tensor& var = *vars->tensor(0);
    for (int k = 1; k < kVars; ++k) {
      const Tensor& slot = *vars->tensor(k);
      if (slot.shape() != var.shape()) {
        return Error("var and " + layout_.var_names[k] + " do not have the same shape" +
                     var.shape().DebugString() + " " + slot.shape().DebugString());
      }
    }
    if (var.dims() < 1) return Error("var must be at least 1 dimensional");
    const Tensor& indices = ctx->input(layout_.indices);
    if (indices.dims() != 1) return Error("indices must be one-dimensional");
    const Tensor& grad = ctx->input(layout_.grad);
    if (grad.dims() != var.dims()) {
      return Error("grad must have var's rank " + std::to_string(var.dims()) + ", got shape " +
                   grad.shape().DebugString());
    }
    int64_t inner = 1;
    for (int d = 1; d < var.dims(); ++d) {
      if (var.dim_size(d) != grad.dim_size(d)) {
        return Error("var and grad must match in dimension " + std::to_string(d));
      }
      inner *= var.dim_size(d);
    }
    const int64_t n = indices.dim_size(0);
    if (grad.dim_size(0) != n) {
      return Error("grad must be the same size as indices in the first dimension.");
    }
    if (check_inner_dim_ && inner <= 0) {
      return Error("Inner dimension should be greater than zero.");
    }
    std::vector<T> scalars;
    int64_t global_step = 0;
    SG_RETURN_IF_ERROR(ReadScalars<T>(ctx, layout_, &scalars, &global_step));
    std::string error;
    const U<T> update(attrs_.Args<T>(scalars, global_step, /*sparse=*/true, &error));
    if (!error.empty()) return Error(error);
    std::vector<int64_t> rows;
    SG_RETURN_IF_ERROR(ReadIndices(indices, var.dim_size(0), &rows));
    if (n == 0 || inner == 0) return absl::OkStatus();
    SG_RETURN_IF_ERROR(vars->EnsureAllUnshared(ctx));
    T* data[kVars];
    for (int k = 0; k < kVars; ++k) data[k] = vars->tensor(k)->template data<T>();
    const T* g = grad.data<T>();
    for (int64_t i = 0; i < n; ++i) {
      ApplyElements(update, data, rows[i] * inner, g + i * inner, inner,
                    std::make_index_sequence<kVars>());
    }
    return absl::OkStatus();
  }

  DataType dtype_, index_type_;
  InputLayout layout_;
  TrainingAttrs attrs_;
  bool check_inner_dim_ = false;
};

const std::vector<DataType> kFloatTypes = {DT_HALF, DT_BFLOAT16, DT_FLOAT, DT_DOUBLE};
const std::vector<DataType> kFloatAndComplexTypes = {DT_HALF,   DT_BFLOAT16,   DT_FLOAT,
                                                     DT_DOUBLE, DT_COMPLEX64, DT_COMPLEX128};
// TensorFlow registers no bfloat16 kernel for the sparse RMSProp forms.
const std::vector<DataType> kNoBfloat16Types = {DT_HALF, DT_FLOAT, DT_DOUBLE, DT_COMPLEX64,
                                                DT_COMPLEX128};
const std::vector<DataType> kFloatDouble = {DT_FLOAT, DT_DOUBLE};
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
