/* sg's copy of TensorFlow 2.21's tensorflow/c/tf_datatype.h: element types, numbered as
 * TensorFlow's types.proto. sg computes with types 1-23; 24-33 are declared for completeness and
 * are refused by sg's functions (TF_INVALID_ARGUMENT, or NULL where there is no status). */
#ifndef TENSORFLOW_C_TF_DATATYPE_H_
#define TENSORFLOW_C_TF_DATATYPE_H_

#include <stddef.h>

#include "tensorflow/c/c_api_macros.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum TF_DataType {
  TF_FLOAT = 1,
  TF_DOUBLE = 2,
  TF_INT32 = 3, /* int32 tensors are always in host memory */
  TF_UINT8 = 4,
  TF_INT16 = 5,
  TF_INT8 = 6,
  TF_STRING = 7,
  TF_COMPLEX64 = 8, /* single-precision complex */
  TF_COMPLEX = 8,   /* the old name of TF_COMPLEX64 */
  TF_INT64 = 9,
  TF_BOOL = 10,
  TF_QINT8 = 11,   /* quantized int8 */
  TF_QUINT8 = 12,  /* quantized uint8 */
  TF_QINT32 = 13,  /* quantized int32 */
  TF_BFLOAT16 = 14,
  TF_QINT16 = 15,  /* quantized int16 */
  TF_QUINT16 = 16, /* quantized uint16 */
  TF_UINT16 = 17,
  TF_COMPLEX128 = 18, /* double-precision complex */
  TF_HALF = 19,
  TF_RESOURCE = 20,
  TF_VARIANT = 21,
  TF_UINT32 = 22,
  TF_UINT64 = 23,
  TF_FLOAT8_E5M2 = 24,
  TF_FLOAT8_E4M3FN = 25,
  TF_FLOAT8_E4M3FNUZ = 26,
  TF_FLOAT8_E4M3B11FNUZ = 27,
  TF_FLOAT8_E5M2FNUZ = 28,
  TF_INT4 = 29,
  TF_UINT4 = 30,
  TF_INT2 = 31,
  TF_UINT2 = 32,
  TF_FLOAT4_E2M1FN = 33
} TF_DataType;

/* Bytes of one element of `dt`; 0 for TF_STRING, TF_RESOURCE, TF_VARIANT and types sg lacks. */
TF_CAPI_EXPORT extern size_t TF_DataTypeSize(TF_DataType dt);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_C_TF_DATATYPE_H_ */
