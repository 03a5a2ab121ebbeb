// Helpers shared by kernels that take or make DT_RESOURCE handles (resource variables,
// TensorArrays, queues, stacks): reading a handle from an input and building a handle output.
#ifndef SG_CORE_KERNELS_RESOURCE_HANDLE_UTIL_H_
#define SG_CORE_KERNELS_RESOURCE_HANDLE_UTIL_H_

#include <string>

#include "core/framework/op_kernel.h"
#include "core/framework/resource_mgr.h"

namespace sg {

// The handle held by input `i`, which must be a DT_RESOURCE tensor of one element.
// INVALID_ARGUMENT naming the node otherwise. The pointer lives as long as the input.
inline absl::Status ResourceHandleFromInput(OpKernelContext* ctx, int i,
                                            const ResourceHandle** handle) {
  const Tensor& t = ctx->input(i);
  if (t.dtype() != DT_RESOURCE || t.NumElements() != 1 || t.data<ResourceHandle>() == nullptr) {
    return errors::InvalidArgument("node '", ctx->op_kernel().name(), "' (op ",
                                   ctx->op_kernel().type_string(), "): input ", i,
                                   " must be one resource handle, got a ",
                                   DataTypeString(t.dtype()), " tensor of shape ",
                                   t.shape().DebugString());
  }
  *handle = t.data<ResourceHandle>();
  return absl::OkStatus();
}

// The container and name of the resource input `i` names: a DT_RESOURCE handle, or a vector of
// two strings [container, name], the handle of TensorFlow 1.x's queues, stacks and TensorArrays
// (given as a value or by reference; a reference is read under its mutex). `what` names the kind
// of resource in the error: INVALID_ARGUMENT naming the node for any other input.
inline absl::Status ResourceNameFromInput(OpKernelContext* ctx, int i, const char* what,
                                          std::string* container, std::string* name) {
  Tensor in = ctx->input(i);
  if (ctx->input_is_ref(i)) {
    absl::MutexLock lock(ctx->input_ref_mutex(i));
    in = *ctx->mutable_input_ref(i);
  }
  if (in.dtype() != DT_STRING) {
    const ResourceHandle* h = nullptr;
    SG_RETURN_IF_ERROR(ResourceHandleFromInput(ctx, i, &h));
    *container = h->container;
    *name = h->name;
    return absl::OkStatus();
  }
  if (in.dims() != 1 || in.NumElements() != 2) {
    return errors::InvalidArgument("node '", ctx->op_kernel().name(), "': a ", what,
                                   " handle must be a vector of 2 strings, got shape ",
                                   in.shape().DebugString());
  }
  *container = std::string(in.data<tstring>()[0]);
  *name = std::string(in.data<tstring>()[1]);
  return absl::OkStatus();
}

// Sets output `i` to a scalar DT_RESOURCE tensor holding `handle`.
inline absl::Status SetResourceHandleOutput(OpKernelContext* ctx, int i, ResourceHandle handle) {
  Tensor* out;
  SG_RETURN_IF_ERROR(ctx->allocate_output(i, TensorShape(), &out));
  *out->data<ResourceHandle>() = std::move(handle);
  return absl::OkStatus();
}

}  // namespace sg

#endif  // SG_CORE_KERNELS_RESOURCE_HANDLE_UTIL_H_
