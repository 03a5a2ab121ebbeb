/* sg's copy of TensorFlow 2.21's tensorflow/c/kernels.h: kernels written in C and registered by an
 * op library (TF_LoadLibrary). Every function is sg's SG_ function of the same name in
 * sg/kernels.h, where its ownership, errors and threads are documented; the semantics are
 * TensorFlow's. This header declares the subset sg implements: CPU kernels, their attrs at
 * construction, inputs and outputs at computation. Not here: asynchronous kernels, stream and
 * device access, attr lists and tensors, temporaries and forwarding.
 *
 *   TF_KernelBuilder* k = TF_NewKernelBuilder("AddOne", "CPU", create, compute, destroy);
 *   TF_KernelBuilder_TypeConstraint(k, "T", TF_FLOAT, status);
 *   TF_RegisterKernelBuilder("AddOneOp", k, status);                  (k is consumed) */
#ifndef TENSORFLOW_C_KERNELS_H_
#define TENSORFLOW_C_KERNELS_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/tf_buffer.h"
#include "tensorflow/c/tf_datatype.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct TF_KernelBuilder TF_KernelBuilder;
typedef struct TF_OpKernelConstruction TF_OpKernelConstruction;
typedef struct TF_OpKernelContext TF_OpKernelContext;

/* ---- Registration: builders are consumed by TF_RegisterKernelBuilder ----------------------- */
TF_CAPI_EXPORT extern TF_KernelBuilder* TF_NewKernelBuilder(
    const char* op_name, const char* device_name, void* (*create_func)(TF_OpKernelConstruction*),
    void (*compute_func)(void*, TF_OpKernelContext*), void (*delete_func)(void*));
TF_CAPI_EXPORT extern void TF_KernelBuilder_TypeConstraint(TF_KernelBuilder* kernel_builder,
                                                           const char* attr_name,
                                                           const TF_DataType type,
                                                           TF_Status* status);
TF_CAPI_EXPORT extern void TF_KernelBuilder_HostMemory(TF_KernelBuilder* kernel_builder,
                                                       const char* arg_name);
TF_CAPI_EXPORT extern void TF_KernelBuilder_Priority(TF_KernelBuilder* kernel_builder,
                                                     int32_t priority_number);
/* NOT_FOUND for an op type that is not registered (for a library being loaded: not registered
 * once its initializers have run, which fails the TF_LoadLibrary). */
TF_CAPI_EXPORT extern void TF_RegisterKernelBuilder(const char* kernel_name,
                                                    TF_KernelBuilder* builder, TF_Status* status);
TF_CAPI_EXPORT extern void TF_DeleteKernelBuilder(TF_KernelBuilder* builder);

/* ---- Computation: tensors handed out are the caller's to delete, sharing sg's buffers ------ */
TF_CAPI_EXPORT extern int TF_NumInputs(TF_OpKernelContext* ctx);
TF_CAPI_EXPORT extern int TF_NumOutputs(TF_OpKernelContext* ctx);
/* OUT_OF_RANGE for i outside [0, TF_NumInputs). */
TF_CAPI_EXPORT extern void TF_GetInput(TF_OpKernelContext* ctx, int i, TF_Tensor** tensor,
                                       TF_Status* status);
/* 0 for an index out of range (TensorFlow aborts). */
TF_CAPI_EXPORT extern TF_DataType TF_InputDatatype(TF_OpKernelContext* ctx, int index);
TF_CAPI_EXPORT extern void TF_SetOutput(TF_OpKernelContext* ctx, int i, const TF_Tensor* tensor,
                                        TF_Status* status);
TF_CAPI_EXPORT extern void TF_OpKernelConstruction_Failure(TF_OpKernelConstruction* ctx,
                                                           TF_Status* status);
TF_CAPI_EXPORT extern void TF_OpKernelContext_Failure(TF_OpKernelContext* ctx, TF_Status* status);
TF_CAPI_EXPORT extern TF_DataType TF_ExpectedOutputDataType(TF_OpKernelContext* ctx, int i);
TF_CAPI_EXPORT extern int64_t TF_StepId(TF_OpKernelContext* ctx);
/* The node's name; valid during the compute function. */
TF_CAPI_EXPORT extern TF_StringView TF_GetOpKernelName(TF_OpKernelContext* ctx);

/* ---- Construction: attrs of the node ------------------------------------------------------- */
TF_CAPI_EXPORT extern void TF_OpKernelConstruction_GetAttrSize(TF_OpKernelConstruction* ctx,
                                                               const char* attr_name,
                                                               int32_t* list_size,
                                                               int32_t* total_size,
                                                               TF_Status* status);
TF_CAPI_EXPORT extern void TF_OpKernelConstruction_GetAttrType(TF_OpKernelConstruction* ctx,
                                                               const char* attr_name,
                                                               TF_DataType* val,
                                                               TF_Status* status);
TF_CAPI_EXPORT extern void TF_OpKernelConstruction_GetAttrInt32(TF_OpKernelConstruction* ctx,
                                                                const char* attr_name,
                                                                int32_t* val, TF_Status* status);
TF_CAPI_EXPORT extern void TF_OpKernelConstruction_GetAttrInt64(TF_OpKernelConstruction* ctx,
                                                                const char* attr_name,
                                                                int64_t* val, TF_Status* status);
TF_CAPI_EXPORT extern void TF_OpKernelConstruction_GetAttrFloat(TF_OpKernelConstruction* ctx,
                                                                const char* attr_name, float* val,
                                                                TF_Status* status);
TF_CAPI_EXPORT extern void TF_OpKernelConstruction_GetAttrBool(TF_OpKernelConstruction* ctx,
                                                               const char* attr_name,
                                                               TF_Bool* val, TF_Status* status);
/* Copies the string without a NUL; INVALID_ARGUMENT when longer than max_length. */
TF_CAPI_EXPORT extern void TF_OpKernelConstruction_GetAttrString(TF_OpKernelConstruction* ctx,
                                                                 const char* attr_name, char* val,
                                                                 size_t max_length,
                                                                 TF_Status* status);
TF_CAPI_EXPORT extern bool TF_OpKernelConstruction_HasAttr(TF_OpKernelConstruction* ctx,
                                                           const char* attr_name,
                                                           TF_Status* status);
TF_CAPI_EXPORT extern TF_StringView TF_OpKernelConstruction_GetName(TF_OpKernelConstruction* ctx);

/* Output `index`, allocated; the returned tensor writes into it. `len` must be its byte size. */
TF_CAPI_EXPORT TF_Tensor* TF_AllocateOutput(TF_OpKernelContext* context, int index,
                                            TF_DataType dtype, const int64_t* dims, int num_dims,
                                            size_t len, TF_Status* status);

#ifdef __cplusplus
} /* end extern "C" */
#endif

#endif /* TENSORFLOW_C_KERNELS_H_ */
