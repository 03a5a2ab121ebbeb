// Resource variables: a DT_RESOURCE handle names a Var in the device's ResourceMgr. The Var is
// created by the first AssignVariableOp; readers share its buffer, writers copy on write.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/kernels/element_copy.h"
#include "core/kernels/resource_handle_util.h"
#include "core/kernels/variable_update.h"

namespace sg {
namespace {

constexpr const char* kVarTypeName = "Var";

absl::Status LookupVar(OpKernelContext* ctx, const ResourceHandle& h, std::shared_ptr<Var>* var) {
  return ctx->resource_manager()->Lookup<Var>(h.container, h.name, var);
}

absl::Status WrongDtype(const char* what, DataType expected, DataType got) {
  return errors::InvalidArgument("Trying to ", what, " variable with wrong dtype. Expected ",
                                 DataTypeString(expected), " got ", DataTypeString(got));
}

class VarHandleOp final : public OpKernel {
 public:
  explicit VarHandleOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("container", &handle_.container));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("shared_name", &handle_.name));
    if (handle_.container.empty()) handle_.container = ResourceMgr::kDefaultContainer;
    if (handle_.name.empty()) handle_.name = name();
    if (ctx->device() != nullptr) handle_.device = ctx->device()->name();
    handle_.type_name = kVarTypeName;
    set_expensive(false);
  }

  void Compute(OpKernelContext* ctx) override {
    OP_REQUIRES_OK(ctx, SetResourceHandleOutput(ctx, 0, handle_));
  }

 private:
  ResourceHandle handle_;
};
REGISTER_KERNEL_BUILDER(Name("VarHandleOp").Device(DEVICE_CPU), VarHandleOp);

// The value of the variable input 0 names, shared (writers copy on write while it is alive).
// FAILED_PRECONDITION for a variable that does not exist or holds no value; INVALID_ARGUMENT
// when `want` (DT_INVALID: any) is not its dtype, checked before whether it holds a value.
absl::Status VariableValue(OpKernelContext* ctx, DataType want, Tensor* value) {
  const ResourceHandle* h;
  SG_RETURN_IF_ERROR(ResourceHandleFromInput(ctx, 0, &h));
  std::shared_ptr<Var> var;
  absl::Status s = LookupVar(ctx, *h, &var);
  if (!s.ok()) {
    return errors::FailedPrecondition(
        "Could not find variable ", h->name,
        ". This could mean that the variable has been deleted. In TF1, it can also "
        "mean the variable is uninitialized. Debug info: container=",
        h->container, ", status error message=", s.message());
  }
  if (want != DT_INVALID && var->dtype() != want) return WrongDtype("read", var->dtype(), want);
  absl::ReaderMutexLock lock(var->mu());
  if (!var->is_initialized || !var->tensor()->IsInitialized()) {
    return errors::FailedPrecondition("Attempting to use uninitialized value ", h->name);
  }
  *value = *var->tensor();
  return absl::OkStatus();
}

class ReadVariableOp final : public OpKernel {
 public:
  explicit ReadVariableOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("dtype", &dtype_));
    set_expensive(false);
  }

  void Compute(OpKernelContext* ctx) override {
    Tensor value;
    OP_REQUIRES_OK(ctx, VariableValue(ctx, dtype_, &value));
    ctx->set_output(0, value);
  }

 private:
  DataType dtype_;
};
REGISTER_KERNEL_BUILDER(Name("ReadVariableOp").Device(DEVICE_CPU), ReadVariableOp);

class AssignVariableOp final : public OpKernel {
 public:
  explicit AssignVariableOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("dtype", &dtype_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("validate_shape", &validate_shape_));
  }

  void Compute(OpKernelContext* ctx) override {
    const ResourceHandle* h;
    OP_REQUIRES_OK(ctx, ResourceHandleFromInput(ctx, 0, &h));
    const Tensor& value = ctx->input(1);
    std::shared_ptr<Var> var;
    OP_REQUIRES_OK(ctx, ctx->resource_manager()->LookupOrCreate<Var>(
                            h->container, h->name, &var, [this](std::shared_ptr<Var>* out) {
                              *out = std::make_shared<Var>(dtype_);
                              return absl::OkStatus();
                            }));
    OP_REQUIRES(ctx, var->dtype() == dtype_, WrongDtype("assign", var->dtype(), dtype_));
    absl::MutexLock lock(var->mu());
    Tensor* t = var->tensor();
    OP_REQUIRES(ctx, !validate_shape_ || !var->is_initialized || t->shape() == value.shape(),
                errors::InvalidArgument(
                    "Trying to assign to variable with tensor with wrong shape. Expected ",
                    t->shape().DebugString(), " got ", value.shape().DebugString()));
    OP_REQUIRES_OK(ctx, CopyIntoVariable(ctx, value, t));
    var->is_initialized = true;
  }

 private:
  DataType dtype_;
  bool validate_shape_;
};
REGISTER_KERNEL_BUILDER(Name("AssignVariableOp").Device(DEVICE_CPU), AssignVariableOp);

class AssignUpdateVariableOp final : public OpKernel {
 public:
  explicit AssignUpdateVariableOp(OpKernelConstruction* ctx)
      : OpKernel(ctx),
        op_(ctx->def().op() == "AssignAddVariableOp" ? DenseUpdate::kAdd : DenseUpdate::kSub) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("dtype", &dtype_));
  }

  void Compute(OpKernelContext* ctx) override {
    const ResourceHandle* h;
    OP_REQUIRES_OK(ctx, ResourceHandleFromInput(ctx, 0, &h));
    const Tensor& value = ctx->input(1);
    std::shared_ptr<Var> var;
    OP_REQUIRES_OK(ctx, LookupVar(ctx, *h, &var));
    OP_REQUIRES(ctx, var->dtype() == dtype_, WrongDtype("update", var->dtype(), dtype_));
    absl::MutexLock lock(var->mu());
    Tensor* t = var->tensor();
    OP_REQUIRES(ctx, var->is_initialized && t->IsInitialized(),
                errors::FailedPrecondition("Attempting to use uninitialized value ", h->name));
    OP_REQUIRES(ctx, t->shape() == value.shape(),
                errors::InvalidArgument("Cannot update variable with shape ",
                                        t->shape().DebugString(), " using a Tensor with shape ",
                                        value.shape().DebugString(),
                                        ", shapes must be equal."));
    OP_REQUIRES_OK(ctx, ApplyDenseUpdate(ctx, op_, value, t));
  }

 private:
  const DenseUpdate op_;
  DataType dtype_;
};
REGISTER_KERNEL_BUILDER(Name("AssignAddVariableOp")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("dtype", DenseUpdateTypes()),
                        AssignUpdateVariableOp);
REGISTER_KERNEL_BUILDER(Name("AssignSubVariableOp")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("dtype", DenseUpdateTypes()),
                        AssignUpdateVariableOp);

class VarIsInitializedOp final : public OpKernel {
 public:
  explicit VarIsInitializedOp(OpKernelConstruction* ctx) : OpKernel(ctx) { set_expensive(false); }

  void Compute(OpKernelContext* ctx) override {
    const ResourceHandle* h;
    OP_REQUIRES_OK(ctx, ResourceHandleFromInput(ctx, 0, &h));
    bool initialized = false;
    std::shared_ptr<Var> var;
    if (LookupVar(ctx, *h, &var).ok()) {
      absl::ReaderMutexLock lock(var->mu());
      initialized = var->is_initialized;
    }
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape(), &out));
    out->scalar<bool>()() = initialized;
  }
};
REGISTER_KERNEL_BUILDER(Name("VarIsInitializedOp").Device(DEVICE_CPU), VarIsInitializedOp);

// VariableShape: the dims of the variable's value. FAILED_PRECONDITION for a variable that does
// not exist or holds no value (as ReadVariableOp), INVALID_ARGUMENT for a dim out_type cannot hold.
class VariableShapeOp final : public OpKernel {
 public:
  explicit VariableShapeOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("out_type", &out_type_));
    set_expensive(false);
  }

  void Compute(OpKernelContext* ctx) override {
    Tensor value;
    OP_REQUIRES_OK(ctx, VariableValue(ctx, DT_INVALID, &value));
    const TensorShape& shape = value.shape();
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({shape.dims()}), &out));
    for (int i = 0; i < shape.dims(); ++i) {
      if (out_type_ == DT_INT32) {
        OP_REQUIRES(ctx, shape.dim_size(i) <= INT32_MAX,
                    errors::InvalidArgument("Shape has dim ", i, " of size ", shape.dim_size(i),
                                            ", which does not fit in int32"));
        out->data<int32_t>()[i] = static_cast<int32_t>(shape.dim_size(i));
      } else {
        out->data<int64_t>()[i] = shape.dim_size(i);
      }
    }
  }

 private:
  DataType out_type_;
};
REGISTER_KERNEL_BUILDER(Name("VariableShape").Device(DEVICE_CPU), VariableShapeOp);

class DestroyResourceOp final : public OpKernel {
 public:
  explicit DestroyResourceOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("ignore_lookup_error", &ignore_lookup_error_));
  }

  void Compute(OpKernelContext* ctx) override {
    const ResourceHandle* h;
    OP_REQUIRES_OK(ctx, ResourceHandleFromInput(ctx, 0, &h));
    absl::Status s = ctx->resource_manager()->Delete(h->container, h->name);
    if (!s.ok() && !ignore_lookup_error_) ctx->CtxFailure(s);
  }

 private:
  bool ignore_lookup_error_;
};
REGISTER_KERNEL_BUILDER(Name("DestroyResourceOp").Device(DEVICE_CPU), DestroyResourceOp);

// Gathers slices of a variable along axis batch_dims, as TensorFlow's ResourceGather: the output
// has shape params.shape[:b] + indices.shape[b:] + params.shape[b+1:] (b = batch_dims), and
// element [batch..., i..., rest...] is params[batch..., indices[batch..., i...], rest...].
// INVALID_ARGUMENT for a negative batch_dims, params of rank <= b (TensorFlow checks < b and
// then fails a CHECK), indices whose first b dims differ from params' (TensorFlow does not check
// and reads the wrong batch), or an index outside [0, params.shape[b]) (TensorFlow checks the
// flattened [0, prod(params.shape[:b+1])) only).
class ResourceGatherOp final : public OpKernel {
 public:
  explicit ResourceGatherOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("dtype", &dtype_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("batch_dims", &batch_dims_));
    OP_REQUIRES(ctx, batch_dims_ >= 0,
                errors::InvalidArgument("batch_dims is negative (", batch_dims_, ") (node '",
                                        name(), "')"));
  }

  void Compute(OpKernelContext* ctx) override {
    Tensor params;
    OP_REQUIRES_OK(ctx, ReadResourceVariable(ctx, 0, dtype_, &params));
    const Tensor& indices = ctx->input(1);
    OP_REQUIRES(ctx, params.dims() >= 1,
                errors::InvalidArgument("params must be at least 1 dimensional (node '", name(),
                                        "')"));
    OP_REQUIRES(ctx, params.dims() > batch_dims_,
                errors::InvalidArgument("params must have more than ", batch_dims_,
                                        " (batch_dims) dimensions but it has shape ",
                                        params.shape().DebugString(), " (node '", name(), "')"));
    const int b = static_cast<int>(batch_dims_);  // < params.dims()
    OP_REQUIRES(ctx, indices.dims() >= b,
                errors::InvalidArgument("indices must have at least ", b,
                                        " (batch_dims) dimensions but it has shape ",
                                        indices.shape().DebugString(), " (node '", name(), "')"));
    TensorShape out_shape;
    int64_t batches = 1;
    for (int d = 0; d < b; ++d) {
      OP_REQUIRES(ctx, indices.dim_size(d) == params.dim_size(d),
                  errors::InvalidArgument("indices.shape[", d, "] = ", indices.dim_size(d),
                                          " must equal params.shape[", d,
                                          "] = ", params.dim_size(d), " (batch_dims = ", b,
                                          ", node '", name(), "')"));
      out_shape.AddDim(params.dim_size(d));
      batches *= params.dim_size(d);
    }
    for (int d = b; d < indices.dims(); ++d) out_shape.AddDim(indices.dim_size(d));
    int64_t inner = 1;
    for (int d = b + 1; d < params.dims(); ++d) {
      out_shape.AddDim(params.dim_size(d));
      inner *= params.dim_size(d);
    }
    const int64_t n = indices.NumElements();
    const int64_t per_batch = batches == 0 ? 0 : n / batches;
    const int64_t limit = params.dim_size(b);
    // src[i]: the slice of params (in slices of `inner` elements) that output slice i copies.
    std::vector<int64_t> src(n);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t v = indices.dtype() == DT_INT32 ? indices.data<int32_t>()[i]
                                                    : indices.data<int64_t>()[i];
      OP_REQUIRES(ctx, v >= 0 && v < limit,
                  errors::InvalidArgument("indices[", i, "] = ", v, " is not in [0, ", limit,
                                          ") (node '", name(), "')"));
      src[i] = (i / per_batch) * limit + v;
    }
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &out));
    const bool ok = DispatchByCopy(dtype_, [&](auto tag) {
      using T = decltype(tag);
      const T* from = static_cast<const T*>(params.raw_data());
      T* to = static_cast<T*>(out->raw_data());
      for (int64_t i = 0; i < n; ++i) {
        std::copy(from + src[i] * inner, from + (src[i] + 1) * inner, to + i * inner);
      }
    });
    OP_REQUIRES(ctx, ok,
                errors::Unimplemented("node '", name(), "': ResourceGather of ",
                                      DataTypeString(dtype_), " is not supported"));
  }

 private:
  DataType dtype_;
  int64_t batch_dims_;
};
REGISTER_KERNEL_BUILDER(Name("ResourceGather").Device(DEVICE_CPU), ResourceGatherOp);

// sg's ReadVariableOp always shares the variable's buffer (writers copy while a read is alive), so
// there is no copy on read to disable: the op only checks that its input is a resource handle.
class DisableCopyOnReadOp final : public OpKernel {
 public:
  explicit DisableCopyOnReadOp(OpKernelConstruction* ctx) : OpKernel(ctx) { set_expensive(false); }
  void Compute(OpKernelContext* ctx) override {
    const ResourceHandle* h;
    OP_REQUIRES_OK(ctx, ResourceHandleFromInput(ctx, 0, &h));
  }
};
REGISTER_KERNEL_BUILDER(Name("DisableCopyOnRead").Device(DEVICE_CPU), DisableCopyOnReadOp);

}  // namespace
}  // namespace sg
