/* sg's copy of TensorFlow 2.21's tensorflow/c/tf_buffer.h: a block of bytes, usually a serialized
 * protocol buffer, passed in and out of the C API. */
#ifndef TENSORFLOW_C_TF_BUFFER_H_
#define TENSORFLOW_C_TF_BUFFER_H_

#include <stddef.h>

#include "tensorflow/c/c_api_macros.h"

#ifdef __cplusplus
extern "C" {
#endif

/* `data_deallocator`, when set, is called by TF_DeleteBuffer with (data, length). */
typedef struct TF_Buffer {
  const void* data;
  size_t length;
  void (*data_deallocator)(void* data, size_t length);
} TF_Buffer;

/* A new buffer holding a copy of `proto_len` bytes at `proto`; freed with TF_DeleteBuffer. */
TF_CAPI_EXPORT extern TF_Buffer* TF_NewBufferFromString(const void* proto, size_t proto_len);

/* A new empty buffer {NULL, 0, NULL}, as the functions that fill a buffer want it. */
TF_CAPI_EXPORT extern TF_Buffer* TF_NewBuffer(void);

/* Calls the deallocator (if any) on the data and frees the buffer; NULL is a no-op. */
TF_CAPI_EXPORT extern void TF_DeleteBuffer(TF_Buffer*);

/* The struct by value; the data stays owned by `buffer`. */
TF_CAPI_EXPORT extern TF_Buffer TF_GetBuffer(TF_Buffer* buffer);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_C_TF_BUFFER_H_ */
