/* sg's copy of TensorFlow 2.21's tensorflow/c/tf_tstring.h: TF_TString, TensorFlow's string
 * representation since 2.4 (24 bytes on 64-bit hosts), and the functions that read and write it.
 *
 * The layout below is TensorFlow's (tsl/platform/ctstring_internal.h) and is fixed: the two low
 * bits of the first byte give the representation (TF_TString_Type); the size is stored shifted
 * left by two over them. SMALL keeps up to TF_TString_SmallCapacity bytes inline; LARGE owns a
 * malloc'd buffer; VIEW points at bytes someone else owns; OFFSET points at bytes relative to the
 * string itself (serialized tensors). The TF_TString_* helpers that TensorFlow's clients call
 * inline (TensorFlow's Go package among them) are at the end, over the exported functions. */
#ifndef TENSORFLOW_C_TF_TSTRING_H_
#define TENSORFLOW_C_TF_TSTRING_H_

#include <stddef.h>
#include <stdint.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/tf_tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef TENSORFLOW_TSL_PLATFORM_CTSTRING_INTERNAL_H_ /* TensorFlow's own copy of the layout */
typedef enum TF_TString_Type {
  TF_TSTR_SMALL = 0x00,
  TF_TSTR_LARGE = 0x01,
  TF_TSTR_OFFSET = 0x02,
  TF_TSTR_VIEW = 0x03,
  TF_TSTR_TYPE_MASK = 0x03
} TF_TString_Type;

/* A reference count on the owner of a VIEW's bytes (ref/unref are the owner's). */
struct TStringOwnerCApi;
typedef void (*tstring_owner_ref_t)(struct TStringOwnerCApi* self);
typedef bool (*tstring_owner_unref_t)(struct TStringOwnerCApi* self);
typedef struct TStringOwnerCApi {
  tstring_owner_ref_t ref;
  tstring_owner_unref_t unref;
  void* obj;
} TStringOwnerCApi;

typedef struct TF_TString_Large {
  size_t size; /* (size << 2) | TF_TSTR_LARGE */
  size_t cap;
  char* ptr;
} TF_TString_Large;

typedef struct TF_TString_Offset {
  uint32_t size; /* (size << 2) | TF_TSTR_OFFSET */
  uint32_t offset; /* from the start of this struct */
  uint32_t count;
} TF_TString_Offset;

typedef struct TF_TString_View {
  size_t size; /* (size << 2) | TF_TSTR_VIEW */
  const char* ptr;
  TStringOwnerCApi* owner_ref;
} TF_TString_View;

typedef struct TF_TString_Raw {
  uint8_t raw[24];
} TF_TString_Raw;

typedef union TF_TString_Union {
  TF_TString_Large large;
  TF_TString_Offset offset;
  TF_TString_View view;
  TF_TString_Raw raw;
} TF_TString_Union;

enum {
  /* Bytes a SMALL string holds inline: the union less the size byte and a terminating NUL. */
  TF_TString_SmallCapacity = (sizeof(TF_TString_Union) - sizeof(/* NUL */ char) -
                              sizeof(/* size */ uint8_t))
};

typedef struct TF_TString_Small {
  uint8_t size; /* (size << 2) | TF_TSTR_SMALL */
  char str[TF_TString_SmallCapacity + sizeof(/* NUL */ char)];
} TF_TString_Small;

typedef struct TF_TString {
  union {
    TF_TString_Small smll;
    TF_TString_Large large;
    TF_TString_Offset offset;
    TF_TString_View view;
    TF_TString_Raw raw;
  } u;
} TF_TString;
#endif /* TENSORFLOW_TSL_PLATFORM_CTSTRING_INTERNAL_H_ */

/* Makes `t` the empty SMALL string (for memory that holds no string yet). */
TF_CAPI_EXPORT extern void TF_StringInit(TF_TString* t);

/* Sets `dst` to a copy of `size` bytes at `src` (any bytes, NULs too). */
TF_CAPI_EXPORT extern void TF_StringCopy(TF_TString* dst, const char* src, size_t size);

/* Sets `dst` to a VIEW of `size` bytes at `src`, which the caller keeps alive. */
TF_CAPI_EXPORT extern void TF_StringAssignView(TF_TString* dst, const char* src, size_t size);

/* The first byte of the string (valid while the string is unchanged). */
TF_CAPI_EXPORT extern const char* TF_StringGetDataPointer(const TF_TString* tstr);

/* The representation of `str`. */
TF_CAPI_EXPORT extern TF_TString_Type TF_StringGetType(const TF_TString* str);

/* The length in bytes. */
TF_CAPI_EXPORT extern size_t TF_StringGetSize(const TF_TString* tstr);

/* The bytes the string can hold without reallocating. */
TF_CAPI_EXPORT extern size_t TF_StringGetCapacity(const TF_TString* str);

/* Frees what the string owns and leaves it empty. */
TF_CAPI_EXPORT extern void TF_StringDealloc(TF_TString* tstr);

#ifndef TENSORFLOW_TSL_PLATFORM_CTSTRING_H_ /* TensorFlow's own inline helpers */
/* TensorFlow's inline helpers of the same names (ctstring.h), as calls of the functions above. */
static inline void TF_TString_Init(TF_TString* str) { TF_StringInit(str); }
static inline void TF_TString_Dealloc(TF_TString* str) { TF_StringDealloc(str); }
static inline TF_TString_Type TF_TString_GetType(const TF_TString* str) {
  return TF_StringGetType(str);
}
static inline size_t TF_TString_GetSize(const TF_TString* str) { return TF_StringGetSize(str); }
static inline size_t TF_TString_GetCapacity(const TF_TString* str) {
  return TF_StringGetCapacity(str);
}
static inline const char* TF_TString_GetDataPointer(const TF_TString* str) {
  return TF_StringGetDataPointer(str);
}
static inline void TF_TString_Copy(TF_TString* dst, const char* src, size_t size) {
  TF_StringCopy(dst, src, size);
}
static inline void TF_TString_AssignView(TF_TString* dst, const char* src, size_t size) {
  TF_StringAssignView(dst, src, size);
}
/* `dst` becomes a copy of `src`'s bytes (TensorFlow's TF_TString_Assign). */
static inline void TF_TString_Assign(TF_TString* dst, const TF_TString* src) {
  if (dst != src) TF_StringCopy(dst, TF_StringGetDataPointer(src), TF_StringGetSize(src));
}
#endif /* TENSORFLOW_TSL_PLATFORM_CTSTRING_H_ */

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_C_TF_TSTRING_H_ */
