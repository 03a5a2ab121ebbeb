/* sg kernels from C: the code that runs an op type (sg's own or one a library defines through
 * sg/ops.h), registered from C as TensorFlow's tensorflow/c/kernels.h does for TensorFlow.
 *
 *   static void* create(SG_OpKernelConstruction* c) { ... read attrs, return state ... }
 *   static void compute(void* state, SG_OpKernelContext* ctx) {
 *     SG_Tensor* x = NULL;
 *     SG_GetInput(ctx, 0, &x, status);
 *     SG_Tensor* y = SG_AllocateOutput(ctx, 0, SG_TensorType(x), dims, ndims, bytes, status);
 *     ... write SG_TensorData(y) ...; SG_DeleteTensor(y); SG_DeleteTensor(x);
 *   }
 *   SG_KernelBuilder* k = SG_NewKernelBuilder("AddOne", "CPU", create, compute, destroy);
 *   SG_KernelBuilder_TypeConstraint(k, "T", SG_FLOAT, status);
 *   SG_RegisterKernelBuilder("AddOneOp", k, status);                 (k is consumed)
 *
 * Life of a kernel: sg calls create_func once per node when a session first runs it (NULL
 * create_func: the state is NULL), compute_func once per step (possibly concurrently for
 * different steps: keep per-step data out of the state or guard it), and delete_func with the
 * state when the node's kernel is dropped, also after a construction that failed.
 *
 * Errors inside a kernel are recorded with SG_OpKernelConstruction_Failure /
 * SG_OpKernelContext_Failure: the session run (or kernel creation) then fails with that code and
 * message. The contexts are sg's, valid only during the call that receives them.
 * Tensors: SG_GetInput and SG_AllocateOutput hand out new SG_Tensor handles the kernel deletes
 * with SG_DeleteTensor; they share sg's buffers (no copy), so writing into an allocated output
 * is writing the output, and an input must not be written. SG_STRING inputs come as TensorFlow
 * 2.x's SG_TString arrays (copies).
 * Conventions are c_api.h's. */
#ifndef SG_KERNELS_H_
#define SG_KERNELS_H_

#include <stddef.h>
#include <stdint.h>

#include "c_api.h" /* sg/c_api.h, beside this header */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct SG_KernelBuilder SG_KernelBuilder;
typedef struct SG_OpKernelConstruction SG_OpKernelConstruction;
typedef struct SG_OpKernelContext SG_OpKernelContext;

/* ---- Registration --------------------------------------------------------------------------- */

/* Starts a kernel for op type `op_name` on devices of type `device_name` ("CPU": sg has no other
 * device type, so a kernel for another is registered but never chosen), as TensorFlow's
 * TF_NewKernelBuilder. create_func and delete_func may be NULL; compute_func may not.
 * Ownership: consumed by SG_RegisterKernelBuilder, or freed with SG_DeleteKernelBuilder.
 * Errors: NULL names or a NULL compute_func are reported by SG_RegisterKernelBuilder. */
SG_CAPI_EXPORT extern SG_KernelBuilder* SG_NewKernelBuilder(
    const char* op_name, const char* device_name, void* (*create_func)(SG_OpKernelConstruction*),
    void (*compute_func)(void*, SG_OpKernelContext*), void (*delete_func)(void*));

/* Restricts the kernel to nodes whose type attr `attr_name` is `type`, as TensorFlow's
 * TF_KernelBuilder_TypeConstraint (one call per attr; a second call on one attr means both
 * must hold). Errors: SG_INVALID_ARGUMENT for a NULL argument or a type sg does not know. */
SG_CAPI_EXPORT extern void SG_KernelBuilder_TypeConstraint(SG_KernelBuilder* kernel_builder,
                                                           const char* attr_name,
                                                           SG_DataType type, SG_Status* status);

/* Records that argument `arg_name` lives in host memory, as TensorFlow's
 * TF_KernelBuilder_HostMemory: listed by SG_GetAllRegisteredKernels; sg's CPU devices keep
 * every tensor in host memory anyway. A NULL argument is ignored. */
SG_CAPI_EXPORT extern void SG_KernelBuilder_HostMemory(SG_KernelBuilder* kernel_builder,
                                                       const char* arg_name);

/* The kernel's priority among kernels matching one node (higher wins; default 0), as
 * TensorFlow's TF_KernelBuilder_Priority. A NULL builder is ignored. */
SG_CAPI_EXPORT extern void SG_KernelBuilder_Priority(SG_KernelBuilder* kernel_builder,
                                                     int32_t priority_number);

/* Registers the kernel, as TensorFlow's TF_RegisterKernelBuilder. `kernel_name` names the
 * registration in messages only.
 * Ownership: `builder` is consumed whatever the outcome.
 * Errors: SG_INVALID_ARGUMENT for a NULL builder or name, or a builder without compute_func;
 * SG_NOT_FOUND ("Op type not registered 'X'") when the op type is unknown, except during
 * SG_LoadLibrary, where the check waits until the library's initializers have all run (so that a
 * library may register a kernel before its op) and fails the load instead.
 * Threads: safe (the kernel registry is locked). */
SG_CAPI_EXPORT extern void SG_RegisterKernelBuilder(const char* kernel_name,
                                                    SG_KernelBuilder* builder, SG_Status* status);

/* Frees a builder that was not registered. NULL is a no-op. */
SG_CAPI_EXPORT extern void SG_DeleteKernelBuilder(SG_KernelBuilder* builder);

/* ---- Construction (in create_func) ---------------------------------------------------------- */

/* Records an error for the kernel being made (status copied), as TensorFlow's
 * TF_OpKernelConstruction_Failure: the session run that creates it fails with it. An OK status is
 * ignored. */
SG_CAPI_EXPORT extern void SG_OpKernelConstruction_Failure(SG_OpKernelConstruction* ctx,
                                                           SG_Status* status);

/* Read attr `attr_name` of the node, as TensorFlow's TF_OpKernelConstruction_GetAttrType /
 * Int32 / Int64 / Float / Bool. Errors (*val untouched): SG_NOT_FOUND when the node has no such
 * attr; SG_INVALID_ARGUMENT when it is of another kind or an int does not fit in int32. */
SG_CAPI_EXPORT extern void SG_OpKernelConstruction_GetAttrType(SG_OpKernelConstruction* ctx,
                                                               const char* attr_name,
                                                               SG_DataType* val,
                                                               SG_Status* status);
SG_CAPI_EXPORT extern void SG_OpKernelConstruction_GetAttrInt32(SG_OpKernelConstruction* ctx,
                                                                const char* attr_name,
                                                                int32_t* val, SG_Status* status);
SG_CAPI_EXPORT extern void SG_OpKernelConstruction_GetAttrInt64(SG_OpKernelConstruction* ctx,
                                                                const char* attr_name,
                                                                int64_t* val, SG_Status* status);
SG_CAPI_EXPORT extern void SG_OpKernelConstruction_GetAttrFloat(SG_OpKernelConstruction* ctx,
                                                                const char* attr_name, float* val,
                                                                SG_Status* status);
SG_CAPI_EXPORT extern void SG_OpKernelConstruction_GetAttrBool(SG_OpKernelConstruction* ctx,
                                                               const char* attr_name,
                                                               unsigned char* val,
                                                               SG_Status* status);

/* Copies string attr `attr_name` into val[0, max_length) without a terminating NUL, as
 * TensorFlow's TF_OpKernelConstruction_GetAttrString; its length is what
 * SG_OpKernelConstruction_GetAttrSize gives as total_size.
 * Errors: SG_NOT_FOUND when missing; SG_INVALID_ARGUMENT when not a string or longer than
 * max_length. */
SG_CAPI_EXPORT extern void SG_OpKernelConstruction_GetAttrString(SG_OpKernelConstruction* ctx,
                                                                 const char* attr_name, char* val,
                                                                 size_t max_length,
                                                                 SG_Status* status);

/* The size of attr `attr_name`, as TensorFlow's TF_OpKernelConstruction_GetAttrSize: list_size
 * is the list's length (-1 for a single value); total_size the bytes of a string (or of all the
 * strings of a list), the dims of a shape, else -1.
 * Errors: SG_NOT_FOUND when missing. */
SG_CAPI_EXPORT extern void SG_OpKernelConstruction_GetAttrSize(SG_OpKernelConstruction* ctx,
                                                               const char* attr_name,
                                                               int32_t* list_size,
                                                               int32_t* total_size,
                                                               SG_Status* status);

/* Whether the node has attr `attr_name`, as TensorFlow's TF_OpKernelConstruction_HasAttr.
 * Errors: SG_INVALID_ARGUMENT for a NULL argument (and 0). */
SG_CAPI_EXPORT extern unsigned char SG_OpKernelConstruction_HasAttr(SG_OpKernelConstruction* ctx,
                                                                    const char* attr_name,
                                                                    SG_Status* status);

/* The node's name, NUL-terminated, valid while the kernel lives (TensorFlow's
 * TF_OpKernelConstruction_GetName returns it as a TF_StringView). */
SG_CAPI_EXPORT extern const char* SG_OpKernelConstruction_GetName(SG_OpKernelConstruction* ctx,
                                                                  size_t* len);

/* ---- Computation (in compute_func) ---------------------------------------------------------- */

/* The number of inputs and outputs of the node (list arguments count each tensor), as
 * TensorFlow's TF_NumInputs / TF_NumOutputs. */
SG_CAPI_EXPORT extern int SG_NumInputs(SG_OpKernelContext* ctx);
SG_CAPI_EXPORT extern int SG_NumOutputs(SG_OpKernelContext* ctx);

/* Sets *tensor to input `i`, as TensorFlow's TF_GetInput. Ownership: a new handle the caller
 * deletes, sharing the input's buffer (read only). Errors: SG_OUT_OF_RANGE for i out of
 * [0, NumInputs); SG_INVALID_ARGUMENT for NULL arguments (*tensor untouched). */
SG_CAPI_EXPORT extern void SG_GetInput(SG_OpKernelContext* ctx, int i, SG_Tensor** tensor,
                                       SG_Status* status);

/* The dtype of input `i` and the dtype output `i` must have, as TensorFlow's TF_InputDatatype /
 * TF_ExpectedOutputDataType; 0 (no dtype) when i is out of range (TensorFlow aborts). */
SG_CAPI_EXPORT extern SG_DataType SG_InputDatatype(SG_OpKernelContext* ctx, int index);
SG_CAPI_EXPORT extern SG_DataType SG_ExpectedOutputDataType(SG_OpKernelContext* ctx, int i);

/* Sets output `i` to `tensor`'s value, as TensorFlow's TF_SetOutput: numeric data is shared, not
 * copied; the caller keeps its handle. Errors: SG_OUT_OF_RANGE for i out of [0, NumOutputs);
 * SG_INVALID_ARGUMENT for a NULL tensor, a dtype other than the output's, or malformed string
 * data. The output is untouched on error. */
SG_CAPI_EXPORT extern void SG_SetOutput(SG_OpKernelContext* ctx, int i, const SG_Tensor* tensor,
                                        SG_Status* status);

/* Allocates output `index` with `num_dims` dims `dims` and returns it, as TensorFlow's
 * TF_AllocateOutput. `len` is the caller's idea of its size in bytes; sg checks it equals the
 * dtype's size times the elements. Ownership: a new handle the caller deletes with
 * SG_DeleteTensor; its data is the output's (uninitialised): write it before compute_func
 * returns.
 * Errors (NULL returned): SG_OUT_OF_RANGE for an index out of range; SG_INVALID_ARGUMENT for a
 * dtype other than the output's, a negative dim or a wrong len; SG_UNIMPLEMENTED for SG_STRING
 * (make a string tensor and SG_SetOutput it); SG_RESOURCE_EXHAUSTED when memory runs out. */
SG_CAPI_EXPORT extern SG_Tensor* SG_AllocateOutput(SG_OpKernelContext* context, int index,
                                                   SG_DataType dtype, const int64_t* dims,
                                                   int num_dims, size_t len, SG_Status* status);

/* Records an error for this step (status copied), as TensorFlow's TF_OpKernelContext_Failure:
 * the session run fails with it. An OK status is ignored; the first error recorded wins. */
SG_CAPI_EXPORT extern void SG_OpKernelContext_Failure(SG_OpKernelContext* ctx, SG_Status* status);

/* The step's id, as TensorFlow's TF_StepId. */
SG_CAPI_EXPORT extern int64_t SG_StepId(SG_OpKernelContext* ctx);

/* The node's name, NUL-terminated, with its length in *len when len is not NULL; valid during
 * compute_func (TensorFlow's TF_GetOpKernelName returns it as a TF_StringView). */
SG_CAPI_EXPORT extern const char* SG_GetOpKernelName(SG_OpKernelContext* ctx, size_t* len);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SG_KERNELS_H_ */
