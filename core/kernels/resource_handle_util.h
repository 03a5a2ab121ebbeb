// Helpers shared by kernels that take or make DT_RESOURCE handles (resource variables,
// TensorArrays): reading a handle from an input and building a handle output.
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

// Sets output `i` to a scalar DT_RESOURCE tensor holding `handle`.
inline absl::Status SetResourceHandleOutput(OpKernelContext* ctx, int i, ResourceHandle handle) {
  Tensor* out;
  SG_RETURN_IF_ERROR(ctx->allocate_output(i, TensorShape(), &out));
  *out->data<ResourceHandle>() = std::move(handle);
  return absl::OkStatus();
}

}  // namespace sg

#endif  // SG_CORE_KERNELS_RESOURCE_HANDLE_UTIL_H_
