/* sg's copy of TensorFlow 2.21's tensorflow/c/tf_status.h: the status every fallible call takes
 * last. A TF_Status holds a code (TensorFlow's, the gRPC canonical codes) and a message.
 *
 * TensorFlow declares TF_Status and TF_Code over the TSL_ types of xla/tsl/c/tsl_status.h; the
 * two types are declared here with the same tags and values, so C++ clients mangle alike. Only
 * the TF_ functions are part of libtensorflow. */
#ifndef TENSORFLOW_C_TF_STATUS_H_
#define TENSORFLOW_C_TF_STATUS_H_

#include "tensorflow/c/c_api_macros.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef XLA_TSL_C_TSL_STATUS_H_ /* TensorFlow's own declarations of the same types */
typedef struct TSL_Status TSL_Status;

typedef enum TSL_Code {
  TSL_OK = 0,
  TSL_CANCELLED = 1,
  TSL_UNKNOWN = 2,
  TSL_INVALID_ARGUMENT = 3,
  TSL_DEADLINE_EXCEEDED = 4,
  TSL_NOT_FOUND = 5,
  TSL_ALREADY_EXISTS = 6,
  TSL_PERMISSION_DENIED = 7,
  TSL_UNAUTHENTICATED = 16,
  TSL_RESOURCE_EXHAUSTED = 8,
  TSL_FAILED_PRECONDITION = 9,
  TSL_ABORTED = 10,
  TSL_OUT_OF_RANGE = 11,
  TSL_UNIMPLEMENTED = 12,
  TSL_INTERNAL = 13,
  TSL_UNAVAILABLE = 14,
  TSL_DATA_LOSS = 15
} TSL_Code;

/* Called by TF_ForEachPayload once per payload. */
typedef void (*TSL_PayloadVisitor)(const char* key, const char* value, void* capture);
#endif

typedef struct TSL_Status TF_Status;
typedef TSL_Code TF_Code;

#define TF_OK TSL_OK
#define TF_CANCELLED TSL_CANCELLED
#define TF_UNKNOWN TSL_UNKNOWN
#define TF_INVALID_ARGUMENT TSL_INVALID_ARGUMENT
#define TF_DEADLINE_EXCEEDED TSL_DEADLINE_EXCEEDED
#define TF_NOT_FOUND TSL_NOT_FOUND
#define TF_ALREADY_EXISTS TSL_ALREADY_EXISTS
#define TF_PERMISSION_DENIED TSL_PERMISSION_DENIED
#define TF_UNAUTHENTICATED TSL_UNAUTHENTICATED
#define TF_RESOURCE_EXHAUSTED TSL_RESOURCE_EXHAUSTED
#define TF_FAILED_PRECONDITION TSL_FAILED_PRECONDITION
#define TF_ABORTED TSL_ABORTED
#define TF_OUT_OF_RANGE TSL_OUT_OF_RANGE
#define TF_UNIMPLEMENTED TSL_UNIMPLEMENTED
#define TF_INTERNAL TSL_INTERNAL
#define TF_UNAVAILABLE TSL_UNAVAILABLE
#define TF_DATA_LOSS TSL_DATA_LOSS

/* A new status holding TF_OK; freed with TF_DeleteStatus. */
TF_CAPI_EXPORT extern TF_Status* TF_NewStatus(void);

/* Frees a status; NULL is a no-op. */
TF_CAPI_EXPORT extern void TF_DeleteStatus(TF_Status*);

/* Sets code and message (copied). TF_OK clears the message. */
TF_CAPI_EXPORT extern void TF_SetStatus(TF_Status* s, TF_Code code, const char* msg);

/* Attaches payload `key` = `value` (both copied) to a status that is not TF_OK, replacing a
 * payload of the same key; on TF_OK it does nothing (as TensorFlow's). */
TF_CAPI_EXPORT void TF_SetPayload(TF_Status* s, const char* key, const char* value);

#define TF_PayloadVisitor TSL_PayloadVisitor

/* Calls `visitor(key, value, capture)` for each payload of `s`; the strings live for the call. */
TF_CAPI_EXPORT extern void TF_ForEachPayload(const TF_Status* s, TF_PayloadVisitor visitor,
                                             void* capture);

/* Sets `s` from errno value `error_code` (ENOENT -> TF_NOT_FOUND, EACCES ->
 * TF_PERMISSION_DENIED...), the message being `context` and the error's text. */
TF_CAPI_EXPORT extern void TF_SetStatusFromIOError(TF_Status* s, int error_code,
                                                   const char* context);

/* The code of `s`. */
TF_CAPI_EXPORT extern TF_Code TF_GetCode(const TF_Status* s);

/* The message of `s` ("" for TF_OK), owned by `s` until it is next changed or deleted. sg's
 * messages name the TF_ functions and types of these headers (the function that failed, or
 * another to call); sg's own functions without a TF_ twin keep their SG_ names. */
TF_CAPI_EXPORT extern const char* TF_Message(const TF_Status* s);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_C_TF_STATUS_H_ */
