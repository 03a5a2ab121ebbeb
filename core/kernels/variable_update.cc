#include "core/kernels/variable_update.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "core/kernels/resource_handle_util.h"

namespace sg {
namespace {

// Whether *var may be overwritten in place with `shape`-shaped contents of `dtype`.
bool Reusable(const Tensor& var, DataType dtype, const TensorShape& shape) {
  return var.IsInitialized() && var.dtype() == dtype && var.shape() == shape &&
         var.RefCountIsOne();
}

void CopyElements(const Tensor& from, Tensor* to) {
  if (DataTypeIsPod(from.dtype())) {
    if (from.NumElements() > 0) std::memcpy(to->raw_data(), from.raw_data(), from.TotalBytes());
  } else if (from.dtype() == DT_STRING) {
    std::copy(from.data<tstring>(), from.data<tstring>() + from.NumElements(),
              to->data<tstring>());
  } else if (from.dtype() == DT_RESOURCE) {
    std::copy(from.data<ResourceHandle>(), from.data<ResourceHandle>() + from.NumElements(),
              to->data<ResourceHandle>());
  } else if (from.dtype() == DT_VARIANT) {
    std::copy(from.data<Variant>(), from.data<Variant>() + from.NumElements(),
              to->data<Variant>());
  }
}

template <typename T>
void Update(const Eigen::ThreadPoolDevice& d, DenseUpdate op, const Tensor& old_value,
            const Tensor& value, Tensor* out) {
  auto o = out->flat<T>();
  if (op == DenseUpdate::kAdd) {
    o.device(d) = old_value.flat<T>() + value.flat<T>();
  } else {
    o.device(d) = old_value.flat<T>() - value.flat<T>();
  }
}

template <typename Fn>
bool DispatchArithmetic(DataType dt, Fn&& fn) {
  if (DispatchReal(dt, fn)) return true;
  switch (dt) {
    case DT_COMPLEX64: fn(complex64{}); return true;
    case DT_COMPLEX128: fn(complex128{}); return true;
    case DT_BFLOAT16: fn(bfloat16{}); return true;  // rounds each sum, as TensorFlow's
    default: return false;
  }
}

}  // namespace

const std::vector<DataType>& DenseUpdateTypes() {
  static const auto* types = [] {
    auto* v = new std::vector<DataType>;
    for (int t = DT_INVALID; t <= DataType_MAX; ++t) {
      if (DataType_IsValid(t) && DispatchArithmetic(static_cast<DataType>(t), [](auto) {})) {
        v->push_back(static_cast<DataType>(t));
      }
    }
    return v;
  }();
  return *types;
}

absl::Status CopyIntoVariable(OpKernelContext* ctx, const Tensor& value, Tensor* var) {
  if (Reusable(*var, value.dtype(), value.shape())) {
    CopyElements(value, var);
    return absl::OkStatus();
  }
  Tensor fresh;
  SG_RETURN_IF_ERROR(ctx->allocate_temp(value.dtype(), value.shape(), &fresh));
  CopyElements(value, &fresh);
  *var = std::move(fresh);
  return absl::OkStatus();
}

absl::Status ApplyDenseUpdate(OpKernelContext* ctx, DenseUpdate op, const Tensor& value,
                              Tensor* var) {
  // Decide before taking any extra reference to the variable's buffer.
  const bool in_place = Reusable(*var, value.dtype(), value.shape());
  Tensor out;
  if (in_place) {
    out = *var;
  } else {
    SG_RETURN_IF_ERROR(ctx->allocate_temp(value.dtype(), value.shape(), &out));
  }
  const Eigen::ThreadPoolDevice& d = ctx->eigen_cpu_device();
  bool ok = DispatchArithmetic(value.dtype(), [&](auto tag) {
    using T = decltype(tag);
    Update<T>(d, op, *var, value, &out);
  });
  if (!ok) {
    return errors::InvalidArgument("node '", ctx->op_kernel().name(), "': cannot add to or ",
                                   "subtract from a variable of type ",
                                   DataTypeString(value.dtype()));
  }
  if (!in_place) *var = std::move(out);
  return absl::OkStatus();
}

absl::Status EnsureUnshared(OpKernelContext* ctx, Tensor* var) {
  if (var->RefCountIsOne()) return absl::OkStatus();
  Tensor fresh;
  SG_RETURN_IF_ERROR(ctx->allocate_temp(var->dtype(), var->shape(), &fresh));
  CopyElements(*var, &fresh);
  *var = std::move(fresh);
  return absl::OkStatus();
}

absl::Status UpdateVariable(OpKernelContext* ctx, int input, DataType dtype,
                            const std::function<absl::Status(Tensor* var)>& update) {
  if (ctx->input_is_ref(input)) {
    absl::MutexLock lock(ctx->input_ref_mutex(input));
    Tensor* var = ctx->mutable_input_ref(input);
    if (!var->IsInitialized()) {
      return errors::FailedPrecondition("Attempting to use uninitialized value of node '",
                                        ctx->op_kernel().name(), "' input ", input);
    }
    return update(var);
  }
  const ResourceHandle* h;
  SG_RETURN_IF_ERROR(ResourceHandleFromInput(ctx, input, &h));
  std::shared_ptr<Var> var;
  SG_RETURN_IF_ERROR(ctx->resource_manager()->Lookup<Var>(h->container, h->name, &var));
  if (var->dtype() != dtype) {
    return errors::InvalidArgument("node '", ctx->op_kernel().name(),
                                   "': trying to update variable ", h->name, " of dtype ",
                                   DataTypeString(var->dtype()), " with ",
                                   DataTypeString(dtype));
  }
  absl::MutexLock lock(var->mu());
  if (!var->is_initialized || !var->tensor()->IsInitialized()) {
    return errors::FailedPrecondition("Attempting to use uninitialized value ", h->name);
  }
  return update(var->tensor());
}

absl::Status ReadResourceVariable(OpKernelContext* ctx, int input, DataType dtype, Tensor* value) {
  const ResourceHandle* h;
  SG_RETURN_IF_ERROR(ResourceHandleFromInput(ctx, input, &h));
  std::shared_ptr<Var> var;
  SG_RETURN_IF_ERROR(ctx->resource_manager()->Lookup<Var>(h->container, h->name, &var));
  if (var->dtype() != dtype) {
    return errors::InvalidArgument("node '", ctx->op_kernel().name(), "': trying to read variable ",
                                   h->name, " of dtype ", DataTypeString(var->dtype()), " as ",
                                   DataTypeString(dtype));
  }
  absl::ReaderMutexLock lock(var->mu());
  if (!var->is_initialized || !var->tensor()->IsInitialized()) {
    return errors::FailedPrecondition("Attempting to use uninitialized value ", h->name);
  }
  *value = *var->tensor();
  return absl::OkStatus();
}

LockedVariables::~LockedVariables() { UnlockAll(); }

void LockedVariables::UnlockAll() {
  for (auto it = locked_.rbegin(); it != locked_.rend(); ++it) (*it)->Unlock();
  locked_.clear();
}

absl::Status LockedVariables::Lock(OpKernelContext* ctx, const std::vector<int>& inputs,
                                   DataType dtype) {
  std::vector<absl::Mutex*> mus;
  std::vector<std::string> names;
  for (int input : inputs) {
    if (ctx->input_is_ref(input)) {
      mus.push_back(ctx->input_ref_mutex(input));
      tensors_.push_back(ctx->mutable_input_ref(input));
      const auto& def = ctx->op_kernel().def();
      std::string name = def.input_size() > input ? def.input(input) : ctx->op_kernel().name();
      names.push_back(name.substr(0, name.find(':')));
      vars_.push_back(nullptr);
      continue;
    }
    const ResourceHandle* h = nullptr;
    SG_RETURN_IF_ERROR(ResourceHandleFromInput(ctx, input, &h));
    std::shared_ptr<Var> var;
    SG_RETURN_IF_ERROR(ctx->resource_manager()->Lookup<Var>(h->container, h->name, &var));
    if (var->dtype() != dtype) {
      return errors::InvalidArgument("node '", ctx->op_kernel().name(),
                                     "': trying to update variable ", h->name, " of dtype ",
                                     DataTypeString(var->dtype()), " with ",
                                     DataTypeString(dtype));
    }
    mus.push_back(var->mu());
    tensors_.push_back(var->tensor());
    names.push_back(h->name);
    vars_.push_back(std::move(var));
  }
  std::vector<absl::Mutex*> order = mus;
  std::sort(order.begin(), order.end());
  order.erase(std::unique(order.begin(), order.end()), order.end());
  for (absl::Mutex* mu : order) {
    mu->Lock();
    locked_.push_back(mu);
  }
  for (size_t k = 0; k < inputs.size(); ++k) {
    const bool initialized =
        tensors_[k]->IsInitialized() && (vars_[k] == nullptr || vars_[k]->is_initialized);
    if (!initialized) {
      UnlockAll();
      return errors::FailedPrecondition("Attempting to use uninitialized variables: ", names[k],
                                        " (node '", ctx->op_kernel().name(), "')");
    }
  }
  return absl::OkStatus();
}

absl::Status LockedVariables::EnsureAllUnshared(OpKernelContext* ctx) {
  std::vector<Tensor*> distinct = tensors_;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  for (Tensor* t : distinct) SG_RETURN_IF_ERROR(EnsureUnshared(ctx, t));
  return absl::OkStatus();
}

}  // namespace sg
