/* sg's copy of TensorFlow 2.21's tensorflow/c/tf_tensor.h: dense tensors handed across the C API.
 *
 * A tensor is a dtype, a shape and a buffer of row-major elements. In sg's libtensorflow a
 * TF_STRING tensor holds TensorFlow 1.x's layout (a uint64 offset per element, then each string
 * as a varint length and its bytes: TF_StringEncode in c_api.h). */
#ifndef TENSORFLOW_C_TF_TENSOR_H_
#define TENSORFLOW_C_TF_TENSOR_H_

#include <stdbool.h>
#include <stdint.h>

#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/tf_datatype.h"
#include "tensorflow/c/tf_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where an allocation should live; versioned by struct_size (TF_ALLOCATOR_ATTRIBUTES_STRUCT_SIZE).
 * Used by TensorFlow's kernel and device plugin APIs, not by this header's functions. */
typedef struct TF_AllocatorAttributes {
  size_t struct_size;
  TF_Bool on_host; /* 1: host memory even on a device */
} TF_AllocatorAttributes;

#define TF_ALLOCATOR_ATTRIBUTES_STRUCT_SIZE TF_OFFSET_OF_END(TF_AllocatorAttributes, on_host)

typedef struct TF_Tensor TF_Tensor;

/* A tensor over caller memory: `len` bytes at `data`, dims `dims[0..num_dims)`. The library calls
 * `deallocator(data, len, deallocator_arg)` once when it no longer needs the memory (at once if it
 * copies misaligned data, see TF_TensorDefaultAlignment). NULL on bad arguments (a `len` that does
 * not fit the dims and dtype, an unknown dtype). Freed with TF_DeleteTensor. */
TF_CAPI_EXPORT extern TF_Tensor* TF_NewTensor(TF_DataType, const int64_t* dims, int num_dims,
                                              void* data, size_t len,
                                              void (*deallocator)(void* data, size_t len,
                                                                  void* arg),
                                              void* deallocator_arg);

/* The alignment in bytes the library wants for tensor data (64 in sg). */
TF_CAPI_EXPORT extern size_t TF_TensorDefaultAlignment(void);

/* A tensor with `len` uninitialized bytes, aligned; NULL on bad arguments. */
TF_CAPI_EXPORT extern TF_Tensor* TF_AllocateTensor(TF_DataType, const int64_t* dims,
                                                   int num_dims, size_t len);

/* `tensor` itself when its buffer may be reused in place (nobody else holds it), else NULL. */
TF_CAPI_EXPORT extern TF_Tensor* TF_TensorMaybeMove(TF_Tensor* tensor);

/* Frees a tensor; NULL is a no-op. */
TF_CAPI_EXPORT extern void TF_DeleteTensor(TF_Tensor*);

/* The dtype of a tensor. */
TF_CAPI_EXPORT extern TF_DataType TF_TensorType(const TF_Tensor*);

/* Gives the tensor new dims without touching its bytes. sg applies them only when they hold as
 * many elements as before (there is no status to report otherwise). */
TF_CAPI_EXPORT extern void TF_SetShape(TF_Tensor* tensor, const int64_t* dims, int num_dims);

/* The number of dims (0 for a scalar). */
TF_CAPI_EXPORT extern int TF_NumDims(const TF_Tensor*);

/* The size of dim `dim_index`, which must be in [0, TF_NumDims). */
TF_CAPI_EXPORT extern int64_t TF_Dim(const TF_Tensor* tensor, int dim_index);

/* The size of the data in bytes. */
TF_CAPI_EXPORT extern size_t TF_TensorByteSize(const TF_Tensor*);

/* The data, TF_TensorByteSize bytes, owned by the tensor. */
TF_CAPI_EXPORT extern void* TF_TensorData(const TF_Tensor*);

/* The number of elements (the product of the dims). */
TF_CAPI_EXPORT extern int64_t TF_TensorElementCount(const TF_Tensor* tensor);

/* Makes `to` share the buffer of `from`, viewed as `type` with dims `new_dims`; the byte sizes
 * must agree. */
TF_CAPI_EXPORT extern void TF_TensorBitcastFrom(const TF_Tensor* from, TF_DataType type,
                                                TF_Tensor* to, const int64_t* new_dims,
                                                int num_new_dims, TF_Status* status);

/* Whether the data is aligned to TF_TensorDefaultAlignment. */
TF_CAPI_EXPORT extern bool TF_TensorIsAligned(const TF_Tensor*);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_C_TF_TENSOR_H_ */
