/* sg's copy of TensorFlow 2.21's tensorflow/c/c_api_macros.h: the export macro and the two helper
 * macros the other headers use. Written for sg's libtensorflow.so.2 (c_api/dropin); the
 * declarations follow TensorFlow's, the text is sg's. */
#ifndef TENSORFLOW_C_C_API_MACROS_H_
#define TENSORFLOW_C_C_API_MACROS_H_

#ifdef SWIG
#define TF_CAPI_EXPORT
#elif defined(_WIN32)
#ifdef TF_COMPILE_LIBRARY
#define TF_CAPI_EXPORT __declspec(dllexport)
#else
#define TF_CAPI_EXPORT __declspec(dllimport)
#endif
#elif defined(TF_CAPI_WEAK)
/* A client that may run without the library defines TF_CAPI_WEAK: the symbols become weak. */
#define TF_CAPI_EXPORT __attribute__((visibility("default"))) __attribute((weak))
#else
#define TF_CAPI_EXPORT __attribute__((visibility("default")))
#endif

/* The boolean of the versioned structs (one byte). */
#ifndef TF_Bool
#define TF_Bool unsigned char
#endif

/* The size of TYPE up to and including MEMBER: how a versioned struct's `struct_size` is set. */
#ifndef TF_OFFSET_OF_END
#define TF_OFFSET_OF_END(TYPE, MEMBER) \
  (offsetof(TYPE, MEMBER) + sizeof(((TYPE *)0)->MEMBER))
#endif

#endif /* TENSORFLOW_C_C_API_MACROS_H_ */
