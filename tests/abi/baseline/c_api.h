/* sg C API: build or load a TensorFlow-1.x-style static graph and run it in a session.
 *
 * This is libsg's ABI (SONAME libsg.so.1). It follows TensorFlow's client C API function for
 * function, with SG_ in place of TF_, so a TensorFlow C client maps one to one:
 *
 *   SG_Status* s = SG_NewStatus();
 *   SG_Graph* g = SG_NewGraph();
 *   SG_Buffer* def = SG_NewBufferFromString(bytes, nbytes);     // a .pb or .pbtxt file
 *   SG_ImportGraphDefOptions* io = SG_NewImportGraphDefOptions();
 *   SG_GraphImportGraphDef(g, def, io, s);
 *   SG_SessionOptions* so = SG_NewSessionOptions();
 *   SG_Session* sess = SG_NewSession(g, so, s);
 *   SG_Output in = {SG_GraphOperationByName(g, "input"), 0};
 *   SG_Output out = {SG_GraphOperationByName(g, "probs"), 0};
 *   SG_Tensor* result = NULL;
 *   SG_SessionRun(sess, NULL, &in, &x, 1, &out, &result, 1, NULL, 0, NULL, s);
 *   if (SG_GetCode(s) != SG_OK) fprintf(stderr, "%s\n", SG_Message(s));
 *
 * Conventions (they hold for every function below unless its comment says otherwise):
 * - Handles are opaque. SG_New<Type> pairs with SG_Delete<Type>; every SG_Delete* accepts NULL.
 * - A function that can fail takes an SG_Status* last. It is set to SG_OK on success; on failure
 *   it holds one of TensorFlow's codes and a one-line message naming the culprit (argument, node
 *   or attr). A NULL `status` is allowed only where a comment says so.
 * - NULL handles, NULL arrays with a non-zero count and negative counts are reported as
 *   SG_INVALID_ARGUMENT, never a crash. Output arguments are left untouched on failure unless a
 *   comment says otherwise.
 * - Strings passed in are copied; strings returned point into the object that returned them.
 * - Booleans are unsigned char (0 or 1) as in TensorFlow's C API.
 * - Enum values are fixed and only grow; a changed behaviour gets a new function.
 */
#ifndef SG_C_API_H_
#define SG_C_API_H_

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define SG_CAPI_EXPORT __declspec(dllexport)
#else
#define SG_CAPI_EXPORT __attribute__((visibility("default")))
#endif

/* The product version of this header (SG_Version() gives the library's at run time). It is not
 * the ABI version: that is the SONAME, libsg.so.1, which changes only on a deliberate break;
 * within it the ABI only grows, so a client built against this header runs with any later
 * libsg.so.1 (tests/abi checks it). */
#define SG_VERSION_MAJOR 0
#define SG_VERSION_MINOR 1
#define SG_VERSION_PATCH 0
#define SG_VERSION_STRING "0.1.0"
/* The TensorFlow release whose C API (TF_ names, struct layouts, TF_TString) sg follows. */
#define SG_TENSORFLOW_VERSION_STRING "2.21.0"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------
 * Version
 * ------------------------------------------------------------------------------------------- */

/* Returns the library's version, "MAJOR.MINOR.PATCH" (SG_VERSION_STRING of the build).
 * Ownership: a static string. Errors: none. Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern const char* SG_Version(void);

/* Returns the version of TensorFlow whose C API and graphs this library follows,
 * SG_TENSORFLOW_VERSION_STRING ("2.21.0"): what a TensorFlow client library over sg reports as
 * TF_Version(). It is not sg's version (SG_Version). Ownership: a static string. Errors: none.
 * Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern const char* SG_TensorFlowVersion(void);

/* ---------------------------------------------------------------------------------------------
 * Status
 * ------------------------------------------------------------------------------------------- */

/* TensorFlow's error codes (the gRPC canonical codes). */
typedef enum SG_Code {
  SG_OK = 0,
  SG_CANCELLED = 1,
  SG_UNKNOWN = 2,
  SG_INVALID_ARGUMENT = 3,
  SG_DEADLINE_EXCEEDED = 4,
  SG_NOT_FOUND = 5,
  SG_ALREADY_EXISTS = 6,
  SG_PERMISSION_DENIED = 7,
  SG_RESOURCE_EXHAUSTED = 8,
  SG_FAILED_PRECONDITION = 9,
  SG_ABORTED = 10,
  SG_OUT_OF_RANGE = 11,
  SG_UNIMPLEMENTED = 12,
  SG_INTERNAL = 13,
  SG_UNAVAILABLE = 14,
  SG_DATA_LOSS = 15,
  SG_UNAUTHENTICATED = 16
} SG_Code;

typedef struct SG_Status SG_Status;

/* Makes a status holding SG_OK.
 * Ownership: the caller frees it with SG_DeleteStatus. Errors: NULL when out of memory.
 * Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern SG_Status* SG_NewStatus(void);

/* Frees a status. Ownership: takes `s`; NULL is a no-op. Errors: none.
 * Preconditions: no other thread uses `s`. Threads: safe for distinct statuses. */
SG_CAPI_EXPORT extern void SG_DeleteStatus(SG_Status* s);

/* Sets the code and message (SG_OK clears the message).
 * Ownership: `msg` is copied; NULL means "". Errors: none; a NULL `s` is a no-op.
 * Preconditions: none. Threads: one writer per status. */
SG_CAPI_EXPORT extern void SG_SetStatus(SG_Status* s, SG_Code code, const char* msg);

/* Returns the code. Ownership: none. Errors: a NULL `s` reads as SG_INVALID_ARGUMENT.
 * Preconditions: none. Threads: safe while nobody writes `s`. */
SG_CAPI_EXPORT extern SG_Code SG_GetCode(const SG_Status* s);

/* Returns the message, "" for SG_OK.
 * Ownership: owned by `s`, valid until `s` is next modified or deleted.
 * Errors: a NULL `s` gives a static message. Preconditions: none.
 * Threads: safe while nobody writes `s`. */
SG_CAPI_EXPORT extern const char* SG_Message(const SG_Status* s);

/* ---------------------------------------------------------------------------------------------
 * Buffers
 * ------------------------------------------------------------------------------------------- */

/* A block of bytes, usually a serialized protocol buffer. Its layout is frozen.
 * `data_deallocator`, when set, is called by SG_DeleteBuffer with (data, length). */
typedef struct SG_Buffer {
  const void* data;
  size_t length;
  void (*data_deallocator)(void* data, size_t length);
} SG_Buffer;

/* Makes a buffer holding a copy of `proto_len` bytes at `proto`.
 * Ownership: the caller frees it with SG_DeleteBuffer (which frees the copy).
 * Errors: NULL when `proto` is NULL with a non-zero length, or out of memory.
 * Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern SG_Buffer* SG_NewBufferFromString(const void* proto, size_t proto_len);

/* Makes an empty buffer {NULL, 0, NULL}, the form every function that fills a buffer wants.
 * Ownership: the caller frees it with SG_DeleteBuffer. Errors: NULL when out of memory.
 * Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern SG_Buffer* SG_NewBuffer(void);

/* Calls the buffer's deallocator (if any) on its data and frees the struct.
 * Ownership: takes `buffer`; NULL is a no-op. Errors: none.
 * Preconditions: `buffer` came from SG_NewBuffer* or an sg function. Threads: not on one buffer. */
SG_CAPI_EXPORT extern void SG_DeleteBuffer(SG_Buffer* buffer);

/* Returns the struct by value. Ownership: the data stays owned by `buffer`.
 * Errors: a NULL `buffer` gives {NULL, 0, NULL}. Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern SG_Buffer SG_GetBuffer(SG_Buffer* buffer);

/* ---------------------------------------------------------------------------------------------
 * Data types
 * ------------------------------------------------------------------------------------------- */

/* TensorFlow's DataType numbers (types.proto). 0 (invalid) has no name. */
typedef enum SG_DataType {
  SG_FLOAT = 1,
  SG_DOUBLE = 2,
  SG_INT32 = 3,
  SG_UINT8 = 4,
  SG_INT16 = 5,
  SG_INT8 = 6,
  SG_STRING = 7,
  SG_COMPLEX64 = 8,
  SG_COMPLEX = 8,
  SG_INT64 = 9,
  SG_BOOL = 10,
  SG_QINT8 = 11,
  SG_QUINT8 = 12,
  SG_QINT32 = 13,
  SG_BFLOAT16 = 14,
  SG_QINT16 = 15,
  SG_QUINT16 = 16,
  SG_UINT16 = 17,
  SG_COMPLEX128 = 18,
  SG_HALF = 19,
  SG_RESOURCE = 20,
  SG_VARIANT = 21,
  SG_UINT32 = 22,
  SG_UINT64 = 23
} SG_DataType;

/* Returns the size in bytes of one element of `dt`, or 0 for SG_STRING, SG_RESOURCE,
 * SG_VARIANT and unknown values. Ownership: none. Errors: none. Preconditions: none.
 * Threads: safe. */
SG_CAPI_EXPORT extern size_t SG_DataTypeSize(SG_DataType dt);

/* ---------------------------------------------------------------------------------------------
 * Tensors
 *
 * A tensor is a dtype, a shape and a buffer of row-major elements. SG_STRING tensors use
 * TensorFlow 1.x's layout unless made otherwise (TensorFlow 2.x's array of SG_TString: see
 * "TensorFlow 2.x strings" below): n uint64 offsets (one per element, counted from the end of
 * the offset table), then each element as a varint length followed by its bytes (see
 * SG_StringEncode).
 * SG_NewStringTensor and SG_StringTensorGet write and read that layout whole, so that callers
 * need not know it:
 *
 *   const char* words[2] = {"sg", "a\0b"};
 *   size_t lengths[2] = {2, 3};
 *   int64_t dims[1] = {2};
 *   SG_Tensor* t = SG_NewStringTensor(dims, 1, words, lengths, 2, s);
 *   const char* w; size_t n;
 *   SG_StringTensorGet(t, 1, &w, &n, s);                        // w points into t; n == 3
 * ------------------------------------------------------------------------------------------- */

typedef struct SG_Tensor SG_Tensor;

/* Makes a tensor over caller memory `data` of `len` bytes, with `num_dims` dims `dims`.
 * Ownership: takes `data`: `deallocator(data, len, deallocator_arg)` is called exactly once,
 *   when the tensor dies, or before returning when the call fails (and also right away when
 *   `data` is not aligned to SG_TensorAlignment() bytes: sg then copies it). A NULL deallocator
 *   leaves the memory to the caller, who must keep it alive as long as the tensor.
 *   The caller frees the result with SG_DeleteTensor.
 * Errors: NULL when `dims` is NULL with num_dims > 0, num_dims < 0, a dim < 0, `dtype` is unknown,
 *   `data` is NULL with len > 0, or `len` does not equal the element count times
 *   SG_DataTypeSize(dtype) (for SG_STRING: `len` is not a well-formed encoding of that many
 *   strings). The C signature has no status (as TensorFlow's): check for NULL.
 * Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern SG_Tensor* SG_NewTensor(SG_DataType dtype, const int64_t* dims,
                                              int num_dims, void* data, size_t len,
                                              void (*deallocator)(void* data, size_t len,
                                                                  void* arg),
                                              void* deallocator_arg);

/* Makes a tensor with room for `len` bytes, aligned to SG_TensorAlignment(); the contents are
 * uninitialized. For SG_STRING, `len` is the size of the encoding the caller will write.
 * Ownership: the caller frees it with SG_DeleteTensor.
 * Errors: NULL for the argument errors of SG_NewTensor or when the memory cannot be had.
 * Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern SG_Tensor* SG_AllocateTensor(SG_DataType dtype, const int64_t* dims,
                                                   int num_dims, size_t len);

/* Frees a tensor (its memory goes when no session step or other tensor still uses it; with it,
 * for an SG_STRING tensor in TensorFlow 2.x's layout that sg allocated, its elements' storage).
 * Ownership: takes `t`; NULL is a no-op. Errors: none. Preconditions: none.
 * Threads: not concurrently with other uses of `t`. */
SG_CAPI_EXPORT extern void SG_DeleteTensor(SG_Tensor* t);

/* Returns the dtype (a reference dtype reads as its base type).
 * Ownership: none. Errors: a NULL `t` gives 0. Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern SG_DataType SG_TensorType(const SG_Tensor* t);

/* Returns the number of dims (0 for a scalar).
 * Ownership: none. Errors: a NULL `t` gives -1. Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern int SG_NumDims(const SG_Tensor* t);

/* Returns the size of dim `dim_index`.
 * Ownership: none. Errors: -1 for a NULL `t` or an index outside [0, SG_NumDims(t)).
 * Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern int64_t SG_Dim(const SG_Tensor* t, int dim_index);

/* Returns the size in bytes of the data (for SG_STRING, of the encoding, or of the SG_TString
 * array the tensor was made with).
 * Ownership: none. Errors: a NULL `t` gives 0. Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern size_t SG_TensorByteSize(const SG_Tensor* t);

/* Returns the data: SG_TensorByteSize(t) bytes, row-major, writable.
 * Ownership: owned by `t`, valid until it is deleted. Errors: NULL for a NULL `t` (or no bytes).
 * Preconditions: none. Threads: writes need the caller's own locking. */
SG_CAPI_EXPORT extern void* SG_TensorData(const SG_Tensor* t);

/* Returns the number of elements (the product of the dims, 1 for a scalar).
 * Ownership: none. Errors: a NULL `t` gives -1. Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern int64_t SG_TensorElementCount(const SG_Tensor* t);

/* Returns 1 when SG_TensorData(t) is aligned to SG_TensorAlignment() bytes (or is NULL).
 * Ownership: none. Errors: a NULL `t` gives 0. Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern unsigned char SG_TensorIsAligned(const SG_Tensor* t);

/* Returns the alignment in bytes sg wants for tensor data (64); SG_NewTensor copies data that
 * is not aligned so. Ownership: none. Errors: none. Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern size_t SG_TensorAlignment(void);

/* Writes `src_len` bytes of `src` as a varint length followed by the bytes into `dst`.
 * Returns the bytes written: SG_StringEncodedSize(src_len).
 * Ownership: none is taken. Errors: 0 and SG_INVALID_ARGUMENT when `dst_len` is too small or a
 *   pointer is NULL with a non-zero length.
 * Preconditions: `dst` and `src` do not overlap. Threads: safe. */
SG_CAPI_EXPORT extern size_t SG_StringEncode(const char* src, size_t src_len, char* dst,
                                             size_t dst_len, SG_Status* status);

/* Reads one string encoded by SG_StringEncode from `src` (at most `src_len` bytes): sets *dst
 * to its first byte (inside `src`) and *dst_len to its length. Returns the bytes consumed.
 * Ownership: *dst points into `src`. Errors: 0 and SG_INVALID_ARGUMENT for a truncated or
 *   malformed length, or a NULL pointer.
 * Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern size_t SG_StringDecode(const char* src, size_t src_len, const char** dst,
                                             size_t* dst_len, SG_Status* status);

/* Returns the bytes SG_StringEncode writes for a string of `len` bytes.
 * Ownership: none. Errors: none. Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern size_t SG_StringEncodedSize(size_t len);

/* Makes an SG_STRING tensor of `num_dims` dims `dims` holding `num_elements` strings, row-major:
 * element i is the `lengths[i]` bytes at `data[i]`, any bytes (NULs too; no terminator is read).
 * The buffer gets the layout above (offset table, then varint lengths and bytes), sized exactly.
 * Semantics: TensorFlow 1.x's TF_STRING tensor as a TensorFlow client built it with
 *   TF_AllocateTensor and one TF_StringEncode per element; TensorFlow has no single call for it.
 * Ownership: the bytes are copied; `dims`, `data` and `lengths` stay the caller's. The caller
 *   frees the result with SG_DeleteTensor.
 * Errors: NULL and SG_INVALID_ARGUMENT when num_dims < 0, `dims` is NULL with num_dims > 0, a dim
 *   is negative, the dims' product overflows, num_elements is not the dims' product (1 for
 *   num_dims 0), `data` or `lengths` is NULL with num_elements > 0, a data[i] is NULL with
 *   lengths[i] > 0, or the encoding's size overflows; NULL and SG_RESOURCE_EXHAUSTED when the
 *   memory cannot be had.
 * Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern SG_Tensor* SG_NewStringTensor(const int64_t* dims, int num_dims,
                                                    const char* const* data,
                                                    const size_t* lengths, int64_t num_elements,
                                                    SG_Status* status);

/* Reads element `index` (row-major, in [0, SG_TensorElementCount(t))) of an SG_STRING tensor
 * of either layout: sets *data to its first byte and *length to its size in bytes. The bytes
 * are not NUL-terminated and may hold NULs; an empty string gives *length 0 (and a *data not to
 * read).
 * Each call checks only what element `index` needs (the table's size, its offset, varint and
 * bytes), so reading every element one by one costs about as much as decoding the buffer once.
 * Semantics: TF_StringDecode of the element's offset in TensorFlow 1.x's layout, bounds-checked;
 *   SG_StringGetDataPointer and SG_StringGetSize of the element in TensorFlow 2.x's.
 * Ownership: *data points into the tensor's buffer (or the memory its element owns or views):
 *   valid until `t` is deleted or the element changed, read-only.
 * Errors: SG_INVALID_ARGUMENT, with *data and *length untouched, when `t`, `data` or `length`
 *   is NULL, `t` is not SG_STRING, `index` is out of range, or the buffer is corrupt there (a
 *   table shorter than the element count, an offset past the end, a malformed varint, a length
 *   past the end: possible when the bytes came from SG_AllocateTensor or were written through
 *   SG_TensorData; in TensorFlow 2.x's layout, an SG_TSTR_OFFSET element whose bytes are not
 *   inside the buffer, or a NULL pointer with a non-zero size).
 * Preconditions: none. Threads: safe with other reads of `t`; not while its data is written. */
SG_CAPI_EXPORT extern void SG_StringTensorGet(const SG_Tensor* t, int64_t index,
                                              const char** data, size_t* length,
                                              SG_Status* status);

/* ---------------------------------------------------------------------------------------------
 * TensorFlow 2.x strings (SG_TString) and the two layouts of SG_STRING tensors
 *
 * Since TensorFlow 2.4 the data of a TF_STRING tensor is an array of TF_TString: 24-byte strings
 * with the small-string optimisation. SG_TString is that struct bit for bit (size 24, alignment
 * of a pointer, the same members; tests/abi pins it), so a TensorFlow 2.x client's TF_TString*
 * may be passed wherever an SG_TString* is wanted, and the bytes sg writes are the bytes
 * TensorFlow writes. The encoding (sg builds for little-endian hosts only, where TensorFlow's is
 * this one): the two low bits of byte 0 are the SG_TString_Type;
 *   SG_TSTR_SMALL   the bytes are inline: u.smll.size is size << 2, u.smll.str holds the bytes
 *                   and a NUL after them; at most SG_TSTRING_SMALL_CAPACITY (22) bytes;
 *   SG_TSTR_LARGE   u.large.size is size << 2 | 1; u.large.ptr is a malloc()ed block of
 *                   u.large.cap + 1 bytes (the bytes, then a NUL), owned by the string; the
 *                   capacity is a multiple of 16 minus 1;
 *   SG_TSTR_OFFSET  read-only: u.offset.size (uint32) is size << 2 | 2 and the bytes start
 *                   u.offset.offset bytes after the SG_TString's own address (TensorFlow's
 *                   serialized form; sg reads it only inside a tensor's buffer);
 *   SG_TSTR_VIEW    read-only: u.view.size is size << 2 | 3; the bytes at u.view.ptr belong to
 *                   someone else; u.view.owner_ref, when not NULL, is released (its unref) by
 *                   SG_StringDealloc.
 * Twenty-four zero bytes are the empty small string (SG_StringInit).
 *
 * Layouts. An SG_Tensor of SG_STRING records which layout its data has:
 *   SG_STRING_LAYOUT_ENCODED  TensorFlow 1.x's (offsets, varint lengths, bytes; see above), what
 *                             SG_NewTensor, SG_AllocateTensor and SG_NewStringTensor make and what
 *                             sg hands out unless asked otherwise;
 *   SG_STRING_LAYOUT_TSTRING  TensorFlow 2.x's: SG_TensorElementCount(t) SG_TStrings, row-major,
 *                             at SG_TensorData(t).
 * Every function that reads a tensor (feeds of SG_SessionRun and SG_SessionPRun,
 * SG_SetAttrTensor(List), SG_StringTensorGet, SG_TensorToStringLayout) takes either layout. The
 * string tensors sg makes (fetches of SG_SessionRun and SG_SessionPRun, SG_OperationGetAttrTensor
 * (List), SG_TryEvaluateConstant) take the layout of their graph (SG_GraphSetStringLayout), the
 * ENCODED one unless it was set: so a TensorFlow 2.x client library over sg (a drop-in
 * libtensorflow) sets SG_STRING_LAYOUT_TSTRING on every graph it makes and allocates with
 * SG_AllocateTensorWithLayout, and a TensorFlow 1.x client sees the layout it was written for.
 *
 *   int64_t dims[1] = {2};
 *   SG_Tensor* t = SG_AllocateTensorWithLayout(SG_STRING, dims, 1, 2 * sizeof(SG_TString),
 *                                              SG_STRING_LAYOUT_TSTRING);
 *   SG_TString* s = (SG_TString*)SG_TensorData(t);              // two empty strings
 *   SG_StringCopy(&s[0], "sg", 2);
 *   SG_StringCopy(&s[1], long_text, strlen(long_text));        // heap-allocated when > 22 bytes
 *   ... feed t; fetch from a graph set to SG_STRING_LAYOUT_TSTRING ...
 *   SG_DeleteTensor(t);                                         // frees s[1]'s heap block too
 *
 * Ownership of the elements: a TSTRING tensor whose memory sg allocated (SG_AllocateTensor-
 * WithLayout, fetches, SG_TensorToStringLayout...) owns its elements' storage: when the memory
 * goes (SG_DeleteTensor of the last tensor using it) each element is released as by
 * SG_StringDealloc, as TF_DeleteTensor does. A tensor over caller memory (SG_NewTensorWithLayout)
 * leaves its elements to the caller's deallocator, as TensorFlow's TF_NewTensor does.
 * ------------------------------------------------------------------------------------------- */

/* The type in the two low bits of an SG_TString's first byte (TensorFlow's TF_TString_Type). */
typedef enum SG_TString_Type {
  SG_TSTR_SMALL = 0x00,
  SG_TSTR_LARGE = 0x01,
  SG_TSTR_OFFSET = 0x02,
  SG_TSTR_VIEW = 0x03,
  SG_TSTR_TYPE_MASK = 0x03
} SG_TString_Type;

/* The most bytes a small string holds inline. */
#define SG_TSTRING_SMALL_CAPACITY 22

/* The shared owner of a view's bytes (TensorFlow's TStringOwnerCApi): SG_StringDealloc of a view
 * calls unref(owner_ref); ref is for whoever copies the view. The return value of unref (whether
 * the owner was freed) is not used. */
typedef struct SG_TStringOwner {
  void (*ref)(struct SG_TStringOwner* self);
  unsigned char (*unref)(struct SG_TStringOwner* self);
  void* obj;
} SG_TStringOwner;

/* The members of the union, by type (TensorFlow's TF_TString_Large, _Offset, _View, _Raw and
 * _Small). */
typedef struct SG_TString_Large {
  size_t size;
  size_t cap;
  char* ptr;
} SG_TString_Large;

typedef struct SG_TString_Offset {
  uint32_t size;
  uint32_t offset;
  uint32_t count;
} SG_TString_Offset;

typedef struct SG_TString_View {
  size_t size;
  const char* ptr;
  SG_TStringOwner* owner_ref;
} SG_TString_View;

typedef struct SG_TString_Raw {
  uint8_t raw[24];
} SG_TString_Raw;

typedef struct SG_TString_Small {
  uint8_t size;
  char str[SG_TSTRING_SMALL_CAPACITY + 1];
} SG_TString_Small;

/* One string of a TensorFlow 2.x string tensor (TensorFlow's TF_TString); see above. */
typedef struct SG_TString {
  union {
    SG_TString_Small smll;
    SG_TString_Large large;
    SG_TString_Offset offset;
    SG_TString_View view;
    SG_TString_Raw raw;
  } u;
} SG_TString;

/* The string functions below follow TensorFlow's TF_String* (tf_tstring.h) exactly, types,
 * sizes and capacities included. Like those they take no status: a NULL `t` or `dst` is a
 * no-op (getters give SG_TSTR_SMALL, 0 or NULL), and a string passed in must be initialized
 * (SG_StringInit, or an element of a TSTRING tensor sg made). Ownership: a string owns its
 * large block; whoever owns the SG_TString releases it with SG_StringDealloc (a tensor's
 * elements are released with the tensor, see above). Threads: as for any memory. */

/* Makes `t` the empty small string (zeroes its 24 bytes) without releasing what it held. */
SG_CAPI_EXPORT extern void SG_StringInit(SG_TString* t);

/* Sets `dst` to a copy of the `size` bytes at `src` (any bytes, NULs too), NUL-terminated:
 * small when size <= SG_TSTRING_SMALL_CAPACITY (a large block dst held is freed, a view's owner
 * released), else large. A large dst keeps its block when size fits its capacity, except that
 * the block shrinks to capacity 16k - 1 >= cap / 2 + 1 when size is below both its old size and
 * half its capacity; a block too small grows to capacity 16k - 1 >= size; a small, offset or
 * view dst gets a new block of that capacity (a view's owner is released).
 * Errors: none reported; dst is left as it was when `src` is NULL with size > 0, when size is
 *   2^62 or more, or when the memory cannot be had. */
SG_CAPI_EXPORT extern void SG_StringCopy(SG_TString* dst, const char* src, size_t size);

/* Releases what `dst` held (SG_StringDealloc) and makes it a view of the `size` bytes at `src`,
 * which the caller keeps alive and unchanged as long as `dst` views them (owner_ref NULL).
 * Errors: none reported; dst is left as it was when `src` is NULL with size > 0 or size is 2^62
 *   or more. */
SG_CAPI_EXPORT extern void SG_StringAssignView(SG_TString* dst, const char* src, size_t size);

/* Returns the first of SG_StringGetSize(t) bytes (for small and large strings a NUL follows
 * them). Ownership: points into `t` or the memory it owns or views. */
SG_CAPI_EXPORT extern const char* SG_StringGetDataPointer(const SG_TString* t);

/* Returns the type (the two low bits of the first byte). */
SG_CAPI_EXPORT extern SG_TString_Type SG_StringGetType(const SG_TString* t);

/* Returns the size in bytes. */
SG_CAPI_EXPORT extern size_t SG_StringGetSize(const SG_TString* t);

/* Returns the capacity: SG_TSTRING_SMALL_CAPACITY for a small string, u.large.cap for a large
 * one, 0 for an offset or a view (read-only). */
SG_CAPI_EXPORT extern size_t SG_StringGetCapacity(const SG_TString* t);

/* Frees a large string's block, or releases a view's owner (when owner_ref is not NULL); either
 * way `t` becomes the empty small string. A small string, an offset and a view without owner are
 * left as they are. */
SG_CAPI_EXPORT extern void SG_StringDealloc(SG_TString* t);

/* The layout of an SG_STRING tensor's data; see above. */
typedef enum SG_StringLayout {
  SG_STRING_LAYOUT_ENCODED = 0,
  SG_STRING_LAYOUT_TSTRING = 1
} SG_StringLayout;

/* SG_NewTensor with the layout of SG_STRING data given: for SG_STRING and
 * SG_STRING_LAYOUT_TSTRING, `data` is an array of SG_TString, `len` at least
 * SG_TensorElementCount(result) * sizeof(SG_TString) bytes, wrapped as it is (never copied,
 * whatever its alignment, as TensorFlow's TF_NewTensor), its elements read when the tensor is
 * used and never released by sg (the deallocator's business). Other dtypes and
 * SG_STRING_LAYOUT_ENCODED: exactly SG_NewTensor.
 * Semantics: TensorFlow 2.x's TF_NewTensor (with SG_STRING_LAYOUT_TSTRING).
 * Ownership: as SG_NewTensor (the deallocator runs exactly once, on failure before returning).
 * Errors: NULL for the argument errors of SG_NewTensor, a `len` too small for the elements, or
 *   an unknown layout. Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern SG_Tensor* SG_NewTensorWithLayout(
    SG_DataType dtype, const int64_t* dims, int num_dims, void* data, size_t len,
    void (*deallocator)(void* data, size_t len, void* arg), void* deallocator_arg,
    SG_StringLayout string_layout);

/* SG_AllocateTensor with the layout of SG_STRING data given: for SG_STRING and
 * SG_STRING_LAYOUT_TSTRING, `len` bytes (at least SG_TensorElementCount(result) *
 * sizeof(SG_TString)) holding that many empty strings (all bytes zero), which the tensor owns
 * (see above). Other dtypes and SG_STRING_LAYOUT_ENCODED: exactly SG_AllocateTensor.
 * Semantics: TensorFlow 2.x's TF_AllocateTensor (whose string elements start uninitialized; sg
 *   zeroes them, so deleting an unwritten tensor is safe).
 * Ownership: the caller frees the result with SG_DeleteTensor.
 * Errors: NULL for the argument errors of SG_AllocateTensor, a `len` too small for the elements,
 *   an unknown layout, or when the memory cannot be had. Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern SG_Tensor* SG_AllocateTensorWithLayout(SG_DataType dtype,
                                                             const int64_t* dims, int num_dims,
                                                             size_t len,
                                                             SG_StringLayout string_layout);

/* Returns the layout of an SG_STRING tensor's data; SG_STRING_LAYOUT_ENCODED for other dtypes
 * and NULL. Ownership: none. Errors: none. Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern SG_StringLayout SG_TensorStringLayout(const SG_Tensor* t);

/* Returns a new tensor with t's dtype, shape and strings in layout `string_layout` (the strings
 * copied; a tensor of another dtype shares t's memory, as a new handle).
 * Ownership: `t` stays the caller's; the caller frees the result with SG_DeleteTensor.
 * Errors: NULL and SG_INVALID_ARGUMENT for a NULL `t`, an unknown layout, or string data that is
 *   corrupt (see SG_StringTensorGet); SG_RESOURCE_EXHAUSTED when the memory cannot be had.
 * Preconditions: none. Threads: safe with other reads of `t`. */
SG_CAPI_EXPORT extern SG_Tensor* SG_TensorToStringLayout(const SG_Tensor* t,
                                                        SG_StringLayout string_layout,
                                                        SG_Status* status);

/* Returns `t` when its memory may be reused in place (taken over, written as a result): sg
 * allocated it (SG_AllocateTensor*, a fetch, a copy SG_NewTensor made of unaligned data) and no
 * other tensor, session or variable shares it. Returns NULL otherwise (memory the caller lent
 * through SG_NewTensor*, or shared: e.g. the fetched value of a variable).
 * Semantics: TensorFlow's TF_TensorMaybeMove. Ownership: nothing changes hands; the result is
 *   `t` itself. Errors: NULL for a NULL `t`. Preconditions: none.
 * Threads: the answer may be stale if other threads use tensors sharing t's memory. */
SG_CAPI_EXPORT extern SG_Tensor* SG_TensorMaybeMove(SG_Tensor* t);

/* Makes `to` share from's memory as a tensor of dtype `type` and the `num_new_dims` dims
 * `new_dims`; the bytes are reinterpreted, not converted. What `to` held before is released.
 * Semantics: TensorFlow's TF_TensorBitcastFrom.
 * Ownership: `from` and `to` stay the caller's; the memory is shared until both are deleted.
 * Errors: SG_INVALID_ARGUMENT, with `to` unchanged, for a NULL `from` or `to`, num_new_dims < 0,
 *   NULL new_dims with num_new_dims > 0, a negative dim ("Expected a non-negative size"), a dtype
 *   of from or `type` without fixed size (SG_STRING, SG_RESOURCE, SG_VARIANT: "other tensor has
 *   zero-sized data type" / "specified output type is zero-sized"), or a byte count that differs
 *   ("input and output shapes/data type sizes are not compatible").
 * Preconditions: none. Threads: not concurrently with other uses of `to`. */
SG_CAPI_EXPORT extern void SG_TensorBitcastFrom(const SG_Tensor* from, SG_DataType type,
                                                SG_Tensor* to, const int64_t* new_dims,
                                                int num_new_dims, SG_Status* status);

/* ---------------------------------------------------------------------------------------------
 * Session options
 * ------------------------------------------------------------------------------------------- */

typedef struct SG_SessionOptions SG_SessionOptions;

/* Makes options for SG_NewSession: target "" (in-process), default ConfigProto.
 * Ownership: the caller frees them with SG_DeleteSessionOptions. Errors: NULL when out of memory.
 * Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern SG_SessionOptions* SG_NewSessionOptions(void);

/* Sets the target: "" or "local" for this process, "grpc://host:port" for a cluster.
 * Ownership: `target` is copied; NULL means "". Errors: none; a NULL `options` is a no-op.
 * Preconditions: none. Threads: not concurrently on one options object. */
SG_CAPI_EXPORT extern void SG_SetTarget(SG_SessionOptions* options, const char* target);

/* Replaces the ConfigProto with the serialized one in `proto` (`proto_len` bytes).
 * Ownership: the bytes are copied.
 * Errors: SG_INVALID_ARGUMENT "Unparseable ConfigProto" when the bytes do not parse (the options
 *   keep their old config), or for a NULL `options` or NULL `proto` with a non-zero length.
 * Preconditions: none. Threads: not concurrently on one options object. */
SG_CAPI_EXPORT extern void SG_SetConfig(SG_SessionOptions* options, const void* proto,
                                        size_t proto_len, SG_Status* status);

/* Frees the options. Ownership: takes `options`; NULL is a no-op. Errors: none.
 * Preconditions: none (sessions keep their own copy). Threads: not on options in use. */
SG_CAPI_EXPORT extern void SG_DeleteSessionOptions(SG_SessionOptions* options);

/* Typed setters over the ConfigProto, so a C client need not build protos:
 * intra_op_parallelism_threads (0 = chosen by sg: the number of cores),
 * inter_op_parallelism_threads (0 = chosen by sg: cores / intra-op threads, at least 1, so that
 * by default one kernel at a time runs on every core; negative = run in the caller's thread;
 * with 1, a step runs in its caller's thread while no other step of the session does and no
 * timeout applies, else on the pool's thread), operation_timeout_in_ms (0 = none),
 * device_count[device_type] (e.g. "CPU"), log_device_placement, allow_soft_placement.
 * Ownership: strings are copied.
 * Errors: SG_INVALID_ARGUMENT for a NULL `options`, a negative intra-op thread count, timeout or
 *   device count, or a NULL or empty device type.
 * Preconditions: none. Threads: not concurrently on one options object. */
SG_CAPI_EXPORT extern void SG_SetIntraOpParallelismThreads(SG_SessionOptions* options,
                                                           int num_threads, SG_Status* status);
SG_CAPI_EXPORT extern void SG_SetInterOpParallelismThreads(SG_SessionOptions* options,
                                                           int num_threads, SG_Status* status);
SG_CAPI_EXPORT extern void SG_SetOperationTimeoutInMs(SG_SessionOptions* options,
                                                      int64_t timeout_ms, SG_Status* status);
SG_CAPI_EXPORT extern void SG_SetDeviceCount(SG_SessionOptions* options,
                                             const char* device_type, int count,
                                             SG_Status* status);
SG_CAPI_EXPORT extern void SG_SetLogDevicePlacement(SG_SessionOptions* options,
                                                    unsigned char enable, SG_Status* status);
SG_CAPI_EXPORT extern void SG_SetAllowSoftPlacement(SG_SessionOptions* options,
                                                    unsigned char enable, SG_Status* status);

/* ---------------------------------------------------------------------------------------------
 * Graphs and operations
 * ------------------------------------------------------------------------------------------- */

typedef struct SG_Graph SG_Graph;
typedef struct SG_OperationDescription SG_OperationDescription;
typedef struct SG_Operation SG_Operation;

/* One input of an operation (index among its data inputs), or one output. Layout frozen. */
typedef struct SG_Input {
  SG_Operation* oper;
  int index;
} SG_Input;

typedef struct SG_Output {
  SG_Operation* oper;
  int index;
} SG_Output;

/* Makes an empty graph.
 * Ownership: the caller drops it with SG_DeleteGraph. Errors: NULL when out of memory.
 * Preconditions: none. Threads: safe. Every SG_Graph* function below locks the graph, so one
 * graph may be used from several threads. */
SG_CAPI_EXPORT extern SG_Graph* SG_NewGraph(void);

/* Drops the caller's reference: the graph is freed once no session uses it either.
 * Ownership: takes `g`; NULL is a no-op. Its SG_Operation* become invalid for the caller.
 * Errors: none. Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern void SG_DeleteGraph(SG_Graph* g);

/* Narrows the static shape of `output` to `dims` (-1 = unknown dim; num_dims = -1 = unknown
 * rank), merged with what shape inference already knows.
 * Ownership: `dims` is copied.
 * Errors: SG_INVALID_ARGUMENT for a NULL graph or operation, an output of another graph, an
 *   index out of range, num_dims < -1, NULL dims with num_dims > 0, a dim < -1, or a shape that
 *   contradicts the known one (the message gives both).
 * Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern void SG_GraphSetTensorShape(SG_Graph* graph, SG_Output output,
                                                  const int64_t* dims, const int num_dims,
                                                  SG_Status* status);

/* Returns the rank of `output` as far as known, -1 when unknown.
 * Ownership: none. Errors: -1 and SG_INVALID_ARGUMENT as for SG_GraphSetTensorShape.
 * Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern int SG_GraphGetTensorNumDims(SG_Graph* graph, SG_Output output,
                                                   SG_Status* status);

/* Writes the static shape of `output` (-1 for unknown dims) into `dims[0..num_dims)`.
 * Ownership: none. Errors: SG_INVALID_ARGUMENT as for SG_GraphSetTensorShape, or when
 *   `num_dims` differs from SG_GraphGetTensorNumDims (or NULL dims with num_dims > 0).
 * Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern void SG_GraphGetTensorShape(SG_Graph* graph, SG_Output output,
                                                  int64_t* dims, int num_dims,
                                                  SG_Status* status);

/* Starts describing a new operation of type `op_type` named `oper_name` in `graph`.
 * Ownership: the description is consumed by SG_FinishOperation (the only way to free it).
 *   Strings are copied.
 * Errors: none here: a NULL graph or name is reported by SG_FinishOperation.
 * Preconditions: none. Threads: a description is used by one thread. */
SG_CAPI_EXPORT extern SG_OperationDescription* SG_NewOperation(SG_Graph* graph,
                                                               const char* op_type,
                                                               const char* oper_name);

/* Requests a device, e.g. "/device:CPU:0". Ownership: copied. Errors: none (NULL is a no-op).
 * Preconditions: `desc` not finished. Threads: one thread per description. */
SG_CAPI_EXPORT extern void SG_SetDevice(SG_OperationDescription* desc, const char* device);

/* Adds the next data input (in the OpDef's order). Errors are reported by SG_FinishOperation:
 * a NULL operation, an output of another graph, an index out of range, a dtype that does not fit.
 * Ownership: none. Preconditions: `desc` not finished. Threads: one thread per description. */
SG_CAPI_EXPORT extern void SG_AddInput(SG_OperationDescription* desc, SG_Output input);

/* Adds a list input (an OpDef arg "N * T" or a list(type)) of `num_inputs` tensors.
 * Ownership: the array is copied. Errors: reported by SG_FinishOperation, including a NULL
 *   array with num_inputs > 0 and num_inputs < 0. Preconditions: `desc` not finished.
 * Threads: one thread per description. */
SG_CAPI_EXPORT extern void SG_AddInputList(SG_OperationDescription* desc, const SG_Output* inputs,
                                           int num_inputs);

/* Makes the operation run after `input`. Errors: reported by SG_FinishOperation.
 * Ownership: none. Preconditions: `desc` not finished. Threads: one thread per description. */
SG_CAPI_EXPORT extern void SG_AddControlInput(SG_OperationDescription* desc, SG_Operation* input);

/* Asks that the operation be placed with `op` (adds "loc:@name" to its _class attr).
 * Ownership: none. Errors: reported by SG_FinishOperation. Preconditions: `desc` not finished.
 * Threads: one thread per description. */
SG_CAPI_EXPORT extern void SG_ColocateWith(SG_OperationDescription* desc, SG_Operation* op);

/* Attribute setters: each sets attr `attr_name` of the description, replacing an earlier value.
 * Ownership: every value (strings, arrays, protos) is copied; SG_SetAttrTensor(List) copy the
 *   tensors' contents and leave the tensors to the caller.
 * Errors: argument errors (NULL arrays with a non-zero count, a negative count, a dim < -1, a
 *   proto that does not parse, a NULL tensor) are reported through `status` where the setter
 *   takes one, otherwise by SG_FinishOperation, naming the attr. Whether the attr fits the op is
 *   checked by SG_FinishOperation.
 * Preconditions: `desc` not finished. Threads: one thread per description.
 * Shapes: num_dims = -1 means unknown rank; a dim of -1 is an unknown dim. */
SG_CAPI_EXPORT extern void SG_SetAttrString(SG_OperationDescription* desc, const char* attr_name,
                                            const void* value, size_t length);
SG_CAPI_EXPORT extern void SG_SetAttrStringList(SG_OperationDescription* desc,
                                                const char* attr_name, const void* const* values,
                                                const size_t* lengths, int num_values);
SG_CAPI_EXPORT extern void SG_SetAttrInt(SG_OperationDescription* desc, const char* attr_name,
                                         int64_t value);
SG_CAPI_EXPORT extern void SG_SetAttrIntList(SG_OperationDescription* desc, const char* attr_name,
                                             const int64_t* values, int num_values);
SG_CAPI_EXPORT extern void SG_SetAttrFloat(SG_OperationDescription* desc, const char* attr_name,
                                           float value);
SG_CAPI_EXPORT extern void SG_SetAttrFloatList(SG_OperationDescription* desc,
                                               const char* attr_name, const float* values,
                                               int num_values);
SG_CAPI_EXPORT extern void SG_SetAttrBool(SG_OperationDescription* desc, const char* attr_name,
                                          unsigned char value);
SG_CAPI_EXPORT extern void SG_SetAttrBoolList(SG_OperationDescription* desc,
                                              const char* attr_name, const unsigned char* values,
                                              int num_values);
SG_CAPI_EXPORT extern void SG_SetAttrType(SG_OperationDescription* desc, const char* attr_name,
                                          SG_DataType value);
SG_CAPI_EXPORT extern void SG_SetAttrTypeList(SG_OperationDescription* desc,
                                              const char* attr_name, const SG_DataType* values,
                                              int num_values);
SG_CAPI_EXPORT extern void SG_SetAttrPlaceholder(SG_OperationDescription* desc,
                                                 const char* attr_name, const char* placeholder);
SG_CAPI_EXPORT extern void SG_SetAttrFuncName(SG_OperationDescription* desc,
                                              const char* attr_name, const char* value,
                                              size_t length);
SG_CAPI_EXPORT extern void SG_SetAttrShape(SG_OperationDescription* desc, const char* attr_name,
                                           const int64_t* dims, int num_dims);
/* `dims[i]` has `num_dims[i]` entries (-1: unknown rank, dims[i] may then be NULL). */
SG_CAPI_EXPORT extern void SG_SetAttrShapeList(SG_OperationDescription* desc,
                                               const char* attr_name, const int64_t* const* dims,
                                               const int* num_dims, int num_shapes);
SG_CAPI_EXPORT extern void SG_SetAttrTensorShapeProto(SG_OperationDescription* desc,
                                                      const char* attr_name, const void* proto,
                                                      size_t proto_len, SG_Status* status);
SG_CAPI_EXPORT extern void SG_SetAttrTensorShapeProtoList(SG_OperationDescription* desc,
                                                          const char* attr_name,
                                                          const void* const* protos,
                                                          const size_t* proto_lens,
                                                          int num_shapes, SG_Status* status);
SG_CAPI_EXPORT extern void SG_SetAttrTensor(SG_OperationDescription* desc, const char* attr_name,
                                            SG_Tensor* value, SG_Status* status);
SG_CAPI_EXPORT extern void SG_SetAttrTensorList(SG_OperationDescription* desc,
                                                const char* attr_name, SG_Tensor* const* values,
                                                int num_values, SG_Status* status);
/* `proto` is a serialized AttrValue. */
SG_CAPI_EXPORT extern void SG_SetAttrValueProto(SG_OperationDescription* desc,
                                                const char* attr_name, const void* proto,
                                                size_t proto_len, SG_Status* status);

/* Adds the described operation to the graph: checks it against its OpDef (inputs, dtypes,
 * attrs, defaults filled in), runs its shape function, and returns it.
 * Ownership: always consumes `desc`, on success and on failure. The operation belongs to the
 *   graph and lives as long as it.
 * Errors: NULL and SG_INVALID_ARGUMENT for a NULL description, graph or name, a duplicate name,
 *   a missing or mistyped attr, inputs that do not fit the OpDef, an input from another graph,
 *   or a shape function error; SG_NOT_FOUND for an unknown op type. The message names the
 *   operation and, where there is one, the attr or input.
 * Preconditions: none. Threads: safe (the graph is locked). */
SG_CAPI_EXPORT extern SG_Operation* SG_FinishOperation(SG_OperationDescription* desc,
                                                       SG_Status* status);

/* Operation getters. An operation does not change once finished, except that consumers and
 * control outputs are added as the graph grows.
 * Ownership: returned strings are owned by the graph and live as long as it.
 * Errors: a NULL operation gives "" / 0 / -1; an index out of range gives -1 or 0 (SG_Output
 *   with a NULL oper).
 * Preconditions: `oper` belongs to a live graph.
 * Threads: safe; consumer and control-output counts may change while another thread adds
 *   operations that use `oper`. */
SG_CAPI_EXPORT extern const char* SG_OperationName(SG_Operation* oper);
SG_CAPI_EXPORT extern const char* SG_OperationOpType(SG_Operation* oper);
SG_CAPI_EXPORT extern const char* SG_OperationDevice(SG_Operation* oper);
SG_CAPI_EXPORT extern int SG_OperationNumOutputs(SG_Operation* oper);
/* Returns 0 (invalid) for a NULL operation or an index out of range. */
SG_CAPI_EXPORT extern SG_DataType SG_OperationOutputType(SG_Output oper_out);
SG_CAPI_EXPORT extern int SG_OperationNumInputs(SG_Operation* oper);
SG_CAPI_EXPORT extern SG_DataType SG_OperationInputType(SG_Input oper_in);
/* Returns how many tensors the OpDef arg `arg_name` (an output or input arg) expands to;
 * -1 and SG_INVALID_ARGUMENT for an unknown arg name or a NULL operation. */
SG_CAPI_EXPORT extern int SG_OperationOutputListLength(SG_Operation* oper, const char* arg_name,
                                                       SG_Status* status);
SG_CAPI_EXPORT extern int SG_OperationInputListLength(SG_Operation* oper, const char* arg_name,
                                                      SG_Status* status);
/* The output feeding input `oper_in`; {NULL, -1} when out of range or not connected. */
SG_CAPI_EXPORT extern SG_Output SG_OperationInput(SG_Input oper_in);
SG_CAPI_EXPORT extern int SG_OperationOutputNumConsumers(SG_Output oper_out);
/* Fills up to `max_consumers` entries of `consumers`; returns the total number of consumers. */
SG_CAPI_EXPORT extern int SG_OperationOutputConsumers(SG_Output oper_out, SG_Input* consumers,
                                                      int max_consumers);
SG_CAPI_EXPORT extern int SG_OperationNumControlInputs(SG_Operation* oper);
/* Fills up to `max_control_inputs` entries; returns the total number of control inputs. */
SG_CAPI_EXPORT extern int SG_OperationGetControlInputs(SG_Operation* oper,
                                                       SG_Operation** control_inputs,
                                                       int max_control_inputs);
SG_CAPI_EXPORT extern int SG_OperationNumControlOutputs(SG_Operation* oper);
SG_CAPI_EXPORT extern int SG_OperationGetControlOutputs(SG_Operation* oper,
                                                        SG_Operation** control_outputs,
                                                        int max_control_outputs);

/* The kind of value an attr holds (TensorFlow's TF_AttrType numbers). */
typedef enum SG_AttrType {
  SG_ATTR_STRING = 0,
  SG_ATTR_INT = 1,
  SG_ATTR_FLOAT = 2,
  SG_ATTR_BOOL = 3,
  SG_ATTR_TYPE = 4,
  SG_ATTR_SHAPE = 5,
  SG_ATTR_TENSOR = 6,
  SG_ATTR_PLACEHOLDER = 7,
  SG_ATTR_FUNC = 8
} SG_AttrType;

/* What an attr holds. list_size is -1 for a single value; total_size is, for strings the byte
 * length (list: the sum), for shapes the rank (-1 unknown; list: the sum of known ranks), and -1
 * for the other kinds. */
typedef struct SG_AttrMetadata {
  unsigned char is_list;
  int64_t list_size;
  SG_AttrType type;
  int64_t total_size;
} SG_AttrMetadata;

/* Describes attr `attr_name` of `oper`.
 * Ownership: none. Errors: SG_INVALID_ARGUMENT for a NULL operation or name or an attr that
 *   holds no value; the attr's name is in the message. Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern SG_AttrMetadata SG_OperationGetAttrMetadata(SG_Operation* oper,
                                                                  const char* attr_name,
                                                                  SG_Status* status);

/* Attribute getters, one per kind. Each reads attr `attr_name` of `oper`.
 * Ownership: values are copied into caller memory, except SG_OperationGetAttrTensor(List)
 *   (new tensors the caller deletes) and the buffers of ...TensorShapeProto(List) (filled with
 *   a serialized TensorShapeProto each; the caller owns them).
 * Errors: SG_INVALID_ARGUMENT for a NULL operation, name or output pointer, an attr of another
 *   kind, or a caller array too small (lists are truncated to `max_values`, which is not an
 *   error; strings and shapes that do not fit in `storage` are); SG_NOT_FOUND when the
 *   operation has no such attr. The attr's name is in the message.
 * Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern void SG_OperationGetAttrString(SG_Operation* oper, const char* attr_name,
                                                     void* value, size_t max_length,
                                                     SG_Status* status);
SG_CAPI_EXPORT extern void SG_OperationGetAttrStringList(SG_Operation* oper,
                                                         const char* attr_name, void** values,
                                                         size_t* lengths, int max_values,
                                                         void* storage, size_t storage_size,
                                                         SG_Status* status);
SG_CAPI_EXPORT extern void SG_OperationGetAttrInt(SG_Operation* oper, const char* attr_name,
                                                  int64_t* value, SG_Status* status);
SG_CAPI_EXPORT extern void SG_OperationGetAttrIntList(SG_Operation* oper, const char* attr_name,
                                                      int64_t* values, int max_values,
                                                      SG_Status* status);
SG_CAPI_EXPORT extern void SG_OperationGetAttrFloat(SG_Operation* oper, const char* attr_name,
                                                    float* value, SG_Status* status);
SG_CAPI_EXPORT extern void SG_OperationGetAttrFloatList(SG_Operation* oper,
                                                        const char* attr_name, float* values,
                                                        int max_values, SG_Status* status);
SG_CAPI_EXPORT extern void SG_OperationGetAttrBool(SG_Operation* oper, const char* attr_name,
                                                   unsigned char* value, SG_Status* status);
SG_CAPI_EXPORT extern void SG_OperationGetAttrBoolList(SG_Operation* oper, const char* attr_name,
                                                       unsigned char* values, int max_values,
                                                       SG_Status* status);
SG_CAPI_EXPORT extern void SG_OperationGetAttrType(SG_Operation* oper, const char* attr_name,
                                                   SG_DataType* value, SG_Status* status);
SG_CAPI_EXPORT extern void SG_OperationGetAttrTypeList(SG_Operation* oper, const char* attr_name,
                                                       SG_DataType* values, int max_values,
                                                       SG_Status* status);
/* Copies min(num_dims, rank) dims; size `value` with SG_OperationGetAttrMetadata's total_size. */
SG_CAPI_EXPORT extern void SG_OperationGetAttrShape(SG_Operation* oper, const char* attr_name,
                                                    int64_t* value, int num_dims,
                                                    SG_Status* status);
/* dims[i] points into `storage` (NULL for unknown rank, num_dims[i] = -1). */
SG_CAPI_EXPORT extern void SG_OperationGetAttrShapeList(SG_Operation* oper,
                                                        const char* attr_name, int64_t** dims,
                                                        int* num_dims, int num_shapes,
                                                        int64_t* storage, int storage_size,
                                                        SG_Status* status);
SG_CAPI_EXPORT extern void SG_OperationGetAttrTensorShapeProto(SG_Operation* oper,
                                                               const char* attr_name,
                                                               SG_Buffer* value,
                                                               SG_Status* status);
/* Fills values[0..min(max_values, list size)) with new buffers the caller deletes. */
SG_CAPI_EXPORT extern void SG_OperationGetAttrTensorShapeProtoList(SG_Operation* oper,
                                                                   const char* attr_name,
                                                                   SG_Buffer** values,
                                                                   int max_values,
                                                                   SG_Status* status);
SG_CAPI_EXPORT extern void SG_OperationGetAttrTensor(SG_Operation* oper, const char* attr_name,
                                                     SG_Tensor** value, SG_Status* status);
SG_CAPI_EXPORT extern void SG_OperationGetAttrTensorList(SG_Operation* oper,
                                                         const char* attr_name,
                                                         SG_Tensor** values, int max_values,
                                                         SG_Status* status);

/* Writes attr `attr_name` as a serialized AttrValue into `output_attr_value`.
 * Ownership: the caller owns the buffer and its new contents (freed by SG_DeleteBuffer).
 * Errors: SG_INVALID_ARGUMENT for a NULL argument or a buffer that is not empty ("Passing
 *   non-empty SG_Buffer is invalid"); SG_NOT_FOUND for a missing attr.
 * Preconditions: the buffer came from SG_NewBuffer. Threads: safe. */
SG_CAPI_EXPORT extern void SG_OperationGetAttrValueProto(SG_Operation* oper,
                                                         const char* attr_name,
                                                         SG_Buffer* output_attr_value,
                                                         SG_Status* status);

/* Writes the operation as a serialized NodeDef. Ownership, errors and preconditions as for
 * SG_OperationGetAttrValueProto. Threads: safe. */
SG_CAPI_EXPORT extern void SG_OperationToNodeDef(SG_Operation* oper, SG_Buffer* output_node_def,
                                                 SG_Status* status);

/* Returns the operation named `oper_name`, or NULL when there is none (or an argument is NULL).
 * Ownership: the graph's. Errors: none. Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern SG_Operation* SG_GraphOperationByName(SG_Graph* graph,
                                                            const char* oper_name);

/* Iterates over the operations: start with *pos = 0, call until it returns NULL.
 * Ownership: the graph's. Errors: NULL for NULL arguments. Preconditions: none.
 * Threads: safe; operations added meanwhile may or may not be visited. */
SG_CAPI_EXPORT extern SG_Operation* SG_GraphNextOperation(SG_Graph* graph, size_t* pos);

/* Writes the whole graph (nodes, versions, function library) as a serialized GraphDef.
 * Ownership: the caller owns the buffer's new contents.
 * Errors: SG_INVALID_ARGUMENT for a NULL argument or a non-empty buffer.
 * Preconditions: the buffer came from SG_NewBuffer. Threads: safe. */
SG_CAPI_EXPORT extern void SG_GraphToGraphDef(SG_Graph* graph, SG_Buffer* output_graph_def,
                                              SG_Status* status);

/* Writes the serialized OpDef of `op_name` (a registered op or a function of the graph).
 * Ownership: as SG_GraphToGraphDef. Errors: SG_NOT_FOUND for an unknown op; otherwise as
 * SG_GraphToGraphDef. Preconditions: as SG_GraphToGraphDef. Threads: safe. */
SG_CAPI_EXPORT extern void SG_GraphGetOpDef(SG_Graph* graph, const char* op_name,
                                            SG_Buffer* output_op_def, SG_Status* status);

/* Writes the graph's serialized VersionDef. Ownership, errors, preconditions: as
 * SG_GraphToGraphDef. Threads: safe. */
SG_CAPI_EXPORT extern void SG_GraphVersions(SG_Graph* graph, SG_Buffer* output_version_def,
                                            SG_Status* status);

/* Sets the layout of the SG_STRING tensors sg makes from this graph: the fetches of sessions on
 * it (SG_SessionRun, SG_SessionPRun, also of sessions made before the call), the values of
 * SG_OperationGetAttrTensor(List) on its operations and of SG_TryEvaluateConstant. A new graph
 * has SG_STRING_LAYOUT_ENCODED. See "TensorFlow 2.x strings" above.
 * Ownership: none. Errors: SG_INVALID_ARGUMENT for a NULL graph or an unknown layout.
 * Preconditions: none. Threads: safe; runs in flight may use either layout. */
SG_CAPI_EXPORT extern void SG_GraphSetStringLayout(SG_Graph* graph, SG_StringLayout string_layout,
                                                   SG_Status* status);

/* Returns the graph's string layout (SG_STRING_LAYOUT_ENCODED for NULL).
 * Ownership: none. Errors: none. Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern SG_StringLayout SG_GraphStringLayout(SG_Graph* graph);

/* Computes `output` when it depends on constants alone, without a session: returns 1 and sets
 * *result to its value, or returns 0 (and *result NULL) when it is not constant. Constant are
 * Consts; Shape, Size and Rank of tensors whose static shape is known (fully; for Rank, the
 * rank), whatever computes those tensors; and stateless ops with a CPU kernel whose data inputs
 * are constant. Not constant: Placeholders (with default too), variables and other stateful ops
 * (random numbers, queues), control flow, function calls, a node without inputs other than a
 * Const, resource or variant values. Control dependencies are not followed. The ops needed are
 * run once on the CPU with sg's kernels; the graph is not changed.
 * Semantics: TensorFlow's TF_TryEvaluateConstant (which may also return 0 without an error).
 * Ownership: *result is a new tensor the caller deletes (SG_STRING in the graph's layout).
 * Errors: 0 and SG_INVALID_ARGUMENT for a NULL graph or result, a NULL operation, an operation
 *   of another graph, an index out of range; 0 and the kernel's error, naming the node, when a
 *   kernel fails on the constants (e.g. an integer division by zero).
 * Preconditions: none. Threads: safe (the graph is locked for the whole call). */
SG_CAPI_EXPORT extern unsigned char SG_TryEvaluateConstant(SG_Graph* graph, SG_Output output,
                                                           SG_Tensor** result,
                                                           SG_Status* status);

/* ---- Op libraries (c_api/c_api_plugins.cc) --------------------------------------------------
 * A shared library that adds op types and kernels to sg through sg/ops.h and sg/kernels.h (or,
 * loaded through the drop-in libtensorflow.so.2, TensorFlow's tensorflow/c/ops.h and kernels.h),
 * registering them from its static initializers (a C++ static object, or a C function marked
 * __attribute__((constructor))), as TensorFlow's TF_LoadLibrary expects. */
typedef struct SG_Library SG_Library;

/* Loads the op library at `library_filename` (dlopen, RTLD_NOW | RTLD_LOCAL) and returns a handle
 * whose op list holds the ops it registered, as TensorFlow's TF_LoadLibrary. Loading a library
 * again gives a new handle with the same op list and runs nothing again.
 * Ownership: the caller frees the handle with SG_DeleteLibraryHandle; the library itself stays
 * loaded for the life of the process (its kernels may be in use), as TensorFlow's does.
 * Errors (NULL returned): SG_INVALID_ARGUMENT for a NULL name; SG_NOT_FOUND when dlopen fails
 * (the message has dlerror's text); the first error of a registration the library made while
 * loading (SG_ALREADY_EXISTS for an op registered before, SG_INVALID_ARGUMENT for a bad spec;
 * SG_NOT_FOUND for a kernel of an op type that is not registered once the initializers have run).
 * Registrations that succeeded before such an error stay (the library stays loaded).
 * Threads: safe; loads are serialised. */
SG_CAPI_EXPORT extern SG_Library* SG_LoadLibrary(const char* library_filename, SG_Status* status);

/* The ops the library registered, as a serialized OpList, as TensorFlow's TF_GetOpList.
 * Ownership: the data belongs to the handle (data_deallocator is NULL); valid until
 * SG_DeleteLibraryHandle. A NULL handle gives an empty buffer. */
SG_CAPI_EXPORT extern SG_Buffer SG_GetOpList(SG_Library* lib_handle);

/* Frees the handle (not the library, which stays loaded). NULL is a no-op. */
SG_CAPI_EXPORT extern void SG_DeleteLibraryHandle(SG_Library* lib_handle);

/* Returns every registered op as a serialized OpList.
 * Ownership: the caller frees it with SG_DeleteBuffer. Errors: NULL when out of memory.
 * Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern SG_Buffer* SG_GetAllOpList(void);

/* Returns every registered kernel as a serialized KernelList (TensorFlow's kernel_def.proto: per
 * registration its op, device_type "CPU", a constraint per type attr with the allowed types,
 * host_memory_arg, priority), ordered by op name, each op's in registration order.
 * Semantics: TensorFlow's TF_GetAllRegisteredKernels, over sg's kernels.
 * Ownership: the caller frees the buffer with SG_DeleteBuffer.
 * Errors: NULL and SG_RESOURCE_EXHAUSTED when out of memory. Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern SG_Buffer* SG_GetAllRegisteredKernels(SG_Status* status);

/* Returns the kernels registered for op `name` as a serialized KernelList, as
 * SG_GetAllRegisteredKernels; an empty list for an op without kernels (or an unknown op).
 * Semantics: TensorFlow's TF_GetRegisteredKernelsForOp.
 * Ownership: as SG_GetAllRegisteredKernels. Errors: NULL and SG_INVALID_ARGUMENT for a NULL name.
 * Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern SG_Buffer* SG_GetRegisteredKernelsForOp(const char* name,
                                                              SG_Status* status);

/* ---------------------------------------------------------------------------------------------
 * GraphDef import
 * ------------------------------------------------------------------------------------------- */

typedef struct SG_ImportGraphDefOptions SG_ImportGraphDefOptions;
typedef struct SG_ImportGraphDefResults SG_ImportGraphDefResults;

/* Makes import options: no prefix, no mappings, nothing returned.
 * Ownership: the caller frees them with SG_DeleteImportGraphDefOptions.
 * Errors: NULL when out of memory. Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern SG_ImportGraphDefOptions* SG_NewImportGraphDefOptions(void);

/* Frees import options. Ownership: takes `opts`; NULL is a no-op. Errors: none.
 * Preconditions: none. Threads: not on options in use. */
SG_CAPI_EXPORT extern void SG_DeleteImportGraphDefOptions(SG_ImportGraphDefOptions* opts);

/* Import option setters. Every imported name gets "prefix/" in front (a trailing '/' of the
 * prefix is not doubled); nodes without a device get `device`; uniquify_names renames an
 * imported operation whose (prefixed) name is already an operation or a scope ("name/...") of
 * the graph to "name_1" (or "name_2"...: the first that is neither taken nor the name or scope
 * of another operation of the GraphDef), where without it such a clash fails the import;
 * uniquify_prefix does the same to a prefix that is already an operation or scope of the graph
 * (then no imported name can clash and uniquify_names has nothing to do; without a prefix it has
 * no effect), as TensorFlow's TF_ImportGraphDefOptionsSetUniquifyNames / SetUniquifyPrefix do;
 * mappings and return names still use the GraphDef's names; an input mapping
 * rewires uses of "src_name:src_index" in the GraphDef to `dst`, an existing tensor; a control
 * remapping rewires "^src_name" to `dst`; a control dependency makes every imported node that
 * has no input run after `oper`; return outputs and operations are looked up after the import
 * (names as in the GraphDef, without the prefix) and handed back in SG_ImportGraphDefResults.
 * Ownership: strings are copied; operations must stay in the graph imported into.
 * Errors: none here (the setters return void); a NULL `opts` is a no-op, and NULL names,
 *   negative indexes or operations of another graph are reported by the import, naming them.
 * Preconditions: none. Threads: not concurrently on one options object. */
SG_CAPI_EXPORT extern void SG_ImportGraphDefOptionsSetPrefix(SG_ImportGraphDefOptions* opts,
                                                             const char* prefix);
SG_CAPI_EXPORT extern void SG_ImportGraphDefOptionsSetDefaultDevice(
    SG_ImportGraphDefOptions* opts, const char* device);
SG_CAPI_EXPORT extern void SG_ImportGraphDefOptionsSetUniquifyNames(
    SG_ImportGraphDefOptions* opts, unsigned char uniquify_names);
SG_CAPI_EXPORT extern void SG_ImportGraphDefOptionsSetUniquifyPrefix(
    SG_ImportGraphDefOptions* opts, unsigned char uniquify_prefix);
SG_CAPI_EXPORT extern void SG_ImportGraphDefOptionsAddInputMapping(
    SG_ImportGraphDefOptions* opts, const char* src_name, int src_index, SG_Output dst);
SG_CAPI_EXPORT extern void SG_ImportGraphDefOptionsRemapControlDependency(
    SG_ImportGraphDefOptions* opts, const char* src_name, SG_Operation* dst);
SG_CAPI_EXPORT extern void SG_ImportGraphDefOptionsAddControlDependency(
    SG_ImportGraphDefOptions* opts, SG_Operation* oper);
SG_CAPI_EXPORT extern void SG_ImportGraphDefOptionsAddReturnOutput(
    SG_ImportGraphDefOptions* opts, const char* oper_name, int index);
/* Returns how many return outputs were added (0 for NULL). */
SG_CAPI_EXPORT extern int SG_ImportGraphDefOptionsNumReturnOutputs(
    const SG_ImportGraphDefOptions* opts);
SG_CAPI_EXPORT extern void SG_ImportGraphDefOptionsAddReturnOperation(
    SG_ImportGraphDefOptions* opts, const char* oper_name);
/* Returns how many return operations were added (0 for NULL). */
SG_CAPI_EXPORT extern int SG_ImportGraphDefOptionsNumReturnOperations(
    const SG_ImportGraphDefOptions* opts);

/* Imports the serialized GraphDef in `graph_def` (binary, or text format) into `graph`, all or
 * nothing. `options` may be NULL (defaults).
 * Ownership: the caller frees the results with SG_DeleteImportGraphDefResults; the graph_def
 *   buffer stays the caller's.
 * Errors: NULL and SG_INVALID_ARGUMENT for a NULL graph or buffer, bytes that are no GraphDef,
 *   a duplicate name (without uniquify_names), a missing input node or output index, a dtype
 *   mismatch, a cycle that is not a while loop, a bad mapping or return name; SG_NOT_FOUND for
 *   an unknown op. Messages name the node.
 * Preconditions: none. Threads: safe (the graph is locked). */
SG_CAPI_EXPORT extern SG_ImportGraphDefResults* SG_GraphImportGraphDefWithResults(
    SG_Graph* graph, const SG_Buffer* graph_def, const SG_ImportGraphDefOptions* options,
    SG_Status* status);

/* Result getters: the return outputs and operations, in the order they were requested, and the
 * input mappings that matched no use in the GraphDef.
 * Ownership: the arrays and strings are owned by `results` and live as long as it.
 * Errors: NULL `results` or output pointers give nothing (counts of 0 where a count pointer is
 *   given). Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern void SG_ImportGraphDefResultsReturnOutputs(
    SG_ImportGraphDefResults* results, int* num_outputs, SG_Output** outputs);
SG_CAPI_EXPORT extern void SG_ImportGraphDefResultsReturnOperations(
    SG_ImportGraphDefResults* results, int* num_opers, SG_Operation*** opers);
SG_CAPI_EXPORT extern void SG_ImportGraphDefResultsMissingUnusedInputMappings(
    SG_ImportGraphDefResults* results, int* num_missing_unused_input_mappings,
    const char*** src_names, int** src_indexes);

/* Frees import results. Ownership: takes `results`; NULL is a no-op. Errors: none.
 * Preconditions: none. Threads: not on results in use. */
SG_CAPI_EXPORT extern void SG_DeleteImportGraphDefResults(SG_ImportGraphDefResults* results);

/* Imports like SG_GraphImportGraphDefWithResults and writes the return outputs into
 * `return_outputs`. Ownership: none is transferred.
 * Errors: as SG_GraphImportGraphDefWithResults, and SG_INVALID_ARGUMENT when
 *   `num_return_outputs` differs from the options' count (then nothing is imported) or
 *   `return_outputs` is NULL with a non-zero count.
 * Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern void SG_GraphImportGraphDefWithReturnOutputs(
    SG_Graph* graph, const SG_Buffer* graph_def, const SG_ImportGraphDefOptions* options,
    SG_Output* return_outputs, int num_return_outputs, SG_Status* status);

/* Imports like SG_GraphImportGraphDefWithResults, discarding the results.
 * Ownership: none. Errors: as SG_GraphImportGraphDefWithResults. Preconditions: none.
 * Threads: safe. */
SG_CAPI_EXPORT extern void SG_GraphImportGraphDef(SG_Graph* graph, const SG_Buffer* graph_def,
                                                  const SG_ImportGraphDefOptions* options,
                                                  SG_Status* status);

/* ---------------------------------------------------------------------------------------------
 * Sessions
 * ------------------------------------------------------------------------------------------- */

typedef struct SG_Session SG_Session;
typedef struct SG_DeviceList SG_DeviceList;

/* Makes a session running `graph`, chosen by the options' target through the session factory
 * registry ("" or "local": in this process; "grpc://host:port": a cluster). The graph may keep
 * growing: each run first sends the session the operations added since the last run.
 * Ownership: the caller closes it with SG_CloseSession and frees it with SG_DeleteSession. The
 *   session keeps the graph alive (SG_DeleteGraph may come first); `opts` is copied.
 * Errors: NULL and SG_INVALID_ARGUMENT for a NULL argument or a target no factory accepts (the
 *   message names the target); the factory's error otherwise.
 * Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern SG_Session* SG_NewSession(SG_Graph* graph, const SG_SessionOptions* opts,
                                                SG_Status* status);

/* Closes the session: waits for runs in flight and releases its resources (on a cluster, tells
 * the master). Later runs fail with SG_CANCELLED. Closing twice is fine.
 * Ownership: none. Errors: SG_INVALID_ARGUMENT for a NULL session; the session's error.
 * Preconditions: none. Threads: safe; runs in flight finish first. */
SG_CAPI_EXPORT extern void SG_CloseSession(SG_Session* session, SG_Status* status);

/* Frees the session (closing it first if needed) and drops its reference to the graph.
 * Ownership: takes `session`; NULL is a no-op (status SG_OK). Local resources are freed even when
 *   an error is reported. Errors: the close's error. Preconditions: no other thread uses the
 *   session. Threads: not concurrently with other calls on `session`. */
SG_CAPI_EXPORT extern void SG_DeleteSession(SG_Session* session, SG_Status* status);

/* Runs one step: feeds inputs[i] = input_values[i], computes outputs[0..noutputs) into
 * output_values, and also runs `target_opers` for their effect. The same output may be fetched
 * twice: both results are returned. Any tensor may be fed, not only Placeholders.
 * `run_options` (a serialized RunOptions) may be NULL; `run_metadata` may be NULL or an empty
 * buffer that receives a serialized RunMetadata: step_stats (each node run: its device, times,
 * outputs' dtypes and shapes) when RunOptions.trace_level is above NO_TRACE, partition_graphs
 * when RunOptions.output_partition_graphs is set, else nothing (length 0).
 * Ownership: input tensors and buffers stay the caller's (borrowed for the call); each
 *   output_values[i] is a new tensor the caller deletes (SG_STRING ones in the string layout of
 *   the session's graph, SG_GraphSetStringLayout). On failure every output_values[i] is set to
 *   NULL.
 * Errors: SG_INVALID_ARGUMENT for a NULL session, NULL arrays with non-zero counts, negative
 *   counts, a NULL input tensor, a tensor fed twice, a feed whose dtype differs from the output
 *   it feeds (a shape that contradicts the graph's declared one is run, as TensorFlow's C API
 *   does, without the graph's static shapes), unparseable run_options, a non-empty
 *   run_metadata buffer; SG_NOT_FOUND for an output index out of range or an output or
 *   operation of another graph; SG_CANCELLED
 *   after SG_CloseSession; SG_DEADLINE_EXCEEDED past the timeout; a kernel's error naming its
 *   node.
 * Preconditions: none. Threads: concurrent runs on one session are allowed. */
SG_CAPI_EXPORT extern void SG_SessionRun(SG_Session* session, const SG_Buffer* run_options,
                                         const SG_Output* inputs, SG_Tensor* const* input_values,
                                         int ninputs, const SG_Output* outputs,
                                         SG_Tensor** output_values, int noutputs,
                                         const SG_Operation* const* target_opers, int ntargets,
                                         SG_Buffer* run_metadata, SG_Status* status);

/* Builds the step SG_SessionRun would run for these feeds, fetches and targets, without running
 * it, and writes into `run_metadata` a serialized RunMetadata whose partition_graphs are the
 * GraphDefs each device would run: the ones SG_SessionRun returns with
 * RunOptions.output_partition_graphs (a feed becomes an _Arg, a fetch a _Retval, an edge between
 * devices a _Send/_Recv pair with the same tensor_name). Only the names of the feeds count: no
 * values are given, and none need be (a feed left out here is a feed left out of the step, as in
 * SG_SessionRun). No kernel of the step runs; building it may evaluate constant subgraphs, as the
 * first SG_SessionRun of the step does (graph optimisation). A local session keeps the step it
 * built for later runs of the same signature. sg's own function (TensorFlow's C API has none).
 * Ownership: the arrays are borrowed; `run_metadata` must be an empty buffer (SG_NewBuffer), which
 *   receives the bytes; it is untouched on failure.
 * Errors: SG_INVALID_ARGUMENT for a NULL session, a NULL or non-empty run_metadata, and
 *   SG_SessionRun's argument errors on feeds, fetches and targets (NULL arrays with non-zero
 *   counts, negative counts, a tensor fed twice); SG_NOT_FOUND for an output index out of range
 *   or an output or operation of another graph; SG_CANCELLED after SG_CloseSession;
 *   SG_UNIMPLEMENTED for a cluster session (target "grpc://...": its workers split the step per
 *   device only when it runs; the message names the alternatives: a run with
 *   output_partition_graphs, or a local session); the graph's errors that building the step
 *   finds (a placement that cannot be satisfied, naming the node).
 * Preconditions: none. Threads: safe, also concurrently with runs of the session. */
SG_CAPI_EXPORT extern void SG_SessionGetPartitionGraphs(SG_Session* session,
                                                        const SG_Output* inputs, int ninputs,
                                                        const SG_Output* outputs, int noutputs,
                                                        const SG_Operation* const* target_opers,
                                                        int ntargets, SG_Buffer* run_metadata,
                                                        SG_Status* status);

/* Declares a partial run: all the feeds, fetches and targets its SG_SessionPRun calls will use.
 * Ownership: *handle is a new string the caller frees with SG_DeletePRunHandle.
 * Errors: as SG_SessionRun's argument errors; *handle is set to NULL on failure.
 * Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern void SG_SessionPRunSetup(SG_Session* session, const SG_Output* inputs,
                                               int ninputs, const SG_Output* outputs,
                                               int noutputs,
                                               const SG_Operation* const* target_opers,
                                               int ntargets, const char** handle,
                                               SG_Status* status);

/* Continues partial run `handle` with some of its declared feeds and fetches.
 * Ownership: as SG_SessionRun.
 * Errors: as SG_SessionRun, and SG_INVALID_ARGUMENT for an unknown handle or a feed or fetch that
 *   was not declared or was already done. Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern void SG_SessionPRun(SG_Session* session, const char* handle,
                                          const SG_Output* inputs,
                                          SG_Tensor* const* input_values, int ninputs,
                                          const SG_Output* outputs, SG_Tensor** output_values,
                                          int noutputs, const SG_Operation* const* target_opers,
                                          int ntargets, SG_Status* status);

/* Frees a partial-run handle; no more SG_SessionPRun calls may use it. The session releases
 * the partial run's state at once (an unfinished partial run is abandoned).
 * Ownership: takes `handle`; NULL is a no-op. Errors: none. Preconditions: the handle came from
 * SG_SessionPRunSetup. Threads: not concurrently with a PRun on the handle. */
SG_CAPI_EXPORT extern void SG_DeletePRunHandle(const char* handle);

/* Lists the devices the session can use.
 * Ownership: the caller frees the list with SG_DeleteDeviceList.
 * Errors: NULL and SG_INVALID_ARGUMENT for a NULL session; the session's error (SG_CANCELLED
 * once closed). Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern SG_DeviceList* SG_SessionListDevices(SG_Session* session,
                                                          SG_Status* status);

/* Frees a device list. Ownership: takes `list`; NULL is a no-op. Errors: none.
 * Preconditions: none. Threads: not on a list in use. */
SG_CAPI_EXPORT extern void SG_DeleteDeviceList(SG_DeviceList* list);

/* Returns the number of devices (0 for NULL). Ownership: none. Errors: none.
 * Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern int SG_DeviceListCount(const SG_DeviceList* list);

/* Device getters: full name ("/job:localhost/replica:0/task:0/device:CPU:0"), type ("CPU"),
 * memory limit in bytes, incarnation.
 * Ownership: strings are owned by the list.
 * Errors: SG_INVALID_ARGUMENT for a NULL list or an index outside [0, count); then NULL, -1 and
 *   0 are returned. Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern const char* SG_DeviceListName(const SG_DeviceList* list, int index,
                                                    SG_Status* status);
SG_CAPI_EXPORT extern const char* SG_DeviceListType(const SG_DeviceList* list, int index,
                                                    SG_Status* status);
SG_CAPI_EXPORT extern int64_t SG_DeviceListMemoryBytes(const SG_DeviceList* list, int index,
                                                       SG_Status* status);
SG_CAPI_EXPORT extern uint64_t SG_DeviceListIncarnation(const SG_DeviceList* list, int index,
                                                        SG_Status* status);

/* Clears resource containers (variables) on the options' target; all of them when
 * ncontainers is 0. Ownership: none is taken.
 * Errors: SG_INVALID_ARGUMENT for NULL options, NULL containers with a non-zero count or a NULL
 *   name, or a target no factory accepts. Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern void SG_Reset(const SG_SessionOptions* opt, const char** containers,
                                    int ncontainers, SG_Status* status);

/* ---- Servers (distributed runtime) ------------------------------------------------------
 * One task of a cluster: its MasterService and WorkerService on the address the cluster spec
 * gives the task. A session whose target is SG_ServerTarget() runs its graph on the cluster.
 *
 *   SG_Server* server = SG_NewServerFromClusterSpec(
 *       "ps=127.0.0.1:2222;worker=127.0.0.1:2223,127.0.0.1:2224", "worker", 0, status);
 *   SG_ServerStart(server, status);
 *   ... SG_ServerTarget(server) ... ("grpc://127.0.0.1:2223")
 *   SG_ServerStop(server, status);
 *   SG_DeleteServer(server);
 */
typedef struct SG_Server SG_Server;

/* Makes the server of one task from a serialized ServerDef (TensorFlow's tensorflow_server.proto
 * layout: cluster, job_name, task_index, default_session_config, protocol "grpc").
 * default_session_config.device_count["CPU"] sets the task's number of CPU devices (default 1).
 * The server does not serve until SG_ServerStart.
 * Ownership: the caller deletes the server with SG_DeleteServer; `server_def` is borrowed.
 * Errors: NULL and SG_INVALID_ARGUMENT for bytes that are not a ServerDef, a job or task the
 *   cluster does not have, a malformed address or another protocol.
 * Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern SG_Server* SG_NewServer(const void* server_def, size_t len,
                                              SG_Status* status);

/* Makes the server of task `task` of job `job` from a cluster spec such as
 * "ps=127.0.0.1:2222;worker=127.0.0.1:2223,127.0.0.1:2224" (jobs separated by ';', task addresses
 * by ',', task i being the i-th address). A host of "localhost" binds 127.0.0.1; port 0 picks a
 * free port at SG_ServerStart (SG_ServerTarget then gives it). Only the given host is bound
 * ("0.0.0.0" binds every interface).
 * Ownership: as SG_NewServer; the strings are borrowed.
 * Errors: NULL and SG_INVALID_ARGUMENT naming the fault for a malformed spec, a NULL argument, or
 *   a job or task the spec does not have.
 * Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern SG_Server* SG_NewServerFromClusterSpec(const char* cluster_spec,
                                                             const char* job, int task,
                                                             SG_Status* status);

/* As SG_NewServerFromClusterSpec, with TLS: the server presents `cert_file` and `key_file` (PEM)
 * and, when `ca_file` is given, verifies the certificates that clients present against it; its
 * own calls to the other tasks use TLS with the same files (the CA checks the peers, the
 * certificate and key identify this task). NULL or "" for all three is plaintext.
 * Ownership: as SG_NewServer; the strings are borrowed (files are read now).
 * Errors: as SG_NewServerFromClusterSpec, and SG_INVALID_ARGUMENT naming a file that cannot be
 *   read or a certificate without its key.
 * Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern SG_Server* SG_NewServerFromClusterSpecWithTls(
    const char* cluster_spec, const char* job, int task, const char* cert_file,
    const char* key_file, const char* ca_file, SG_Status* status);

/* Binds the task's address and starts serving; a started server is left as it is. A stopped
 * server may be started again (on the same port).
 * Ownership: none. Errors: SG_UNAVAILABLE naming the address when it is in use or cannot be
 *   bound; SG_INVALID_ARGUMENT for a NULL server.
 * Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern void SG_ServerStart(SG_Server* server, SG_Status* status);

/* Stops the server: steps in flight on it end with SG_CANCELLED, calls in flight get a short
 * grace period, then the port is free again. Stopping a server that is not serving does nothing.
 * Ownership: none. Errors: SG_INVALID_ARGUMENT for a NULL server.
 * Preconditions: none. Threads: safe; SG_ServerJoin callers return. */
SG_CAPI_EXPORT extern void SG_ServerStop(SG_Server* server, SG_Status* status);

/* Blocks until the server is stopped (SG_ServerStop from another thread); returns at once when it
 * is not serving.
 * Ownership: none. Errors: SG_INVALID_ARGUMENT for a NULL server.
 * Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern void SG_ServerJoin(SG_Server* server, SG_Status* status);

/* Returns the target of sessions on this server: "grpc://host:port".
 * Ownership: the string is owned by the server and valid until the next SG_ServerStart or
 *   SG_DeleteServer (a server asked for port 0 learns its port at its first start).
 * Errors: none; NULL for a NULL server. Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern const char* SG_ServerTarget(SG_Server* server);

/* Stops the server if it is serving and frees it.
 * Ownership: takes `server`; NULL is a no-op. Errors: none.
 * Preconditions: no other call on the server is in progress or follows. Threads: see above. */
SG_CAPI_EXPORT extern void SG_DeleteServer(SG_Server* server);
/* ---- end of servers --------------------------------------------------------------------- */

/* ---- SavedModel (c_api/c_api_saved_model.cc) -------------------------------------------- */

/* Loads a TensorFlow SavedModel directory as TF_LoadSessionFromSavedModel does: reads
 * <export_dir>/saved_model.pb (or saved_model.pbtxt), picks the MetaGraphDef whose tags are
 * exactly `tags`, imports its graph into `graph`, makes a session on that graph (as SG_NewSession),
 * restores the variables from <export_dir>/variables/variables through the saver's restore op and
 * runs the main op (or legacy init op), feeding the asset tensors their paths under
 * <export_dir>/assets. `run_options` (a serialized RunOptions, or NULL) applies to those runs.
 * Ownership: the caller closes and deletes the returned session; `graph` (which must be empty)
 *   gets the operations; when `meta_graph_def` is not NULL it receives the serialized
 *   MetaGraphDef (signatures), to be freed by the caller as any filled SG_Buffer.
 * Errors: NULL and SG_NOT_FOUND for a missing directory or saved_model file, or a tag set that
 *   matches no MetaGraphDef (the message lists the tag sets there are); SG_INVALID_ARGUMENT for a
 *   file that does not parse, a non-empty graph or meta_graph_def buffer, a NULL argument;
 *   SG_DATA_LOSS for a checkpoint whose bytes do not match their checksum; the restore's or init
 *   op's error otherwise (e.g. SG_INVALID_ARGUMENT for a variable of another dtype or shape).
 * Preconditions: none. Threads: safe. */
SG_CAPI_EXPORT extern SG_Session* SG_LoadSessionFromSavedModel(
    const SG_SessionOptions* session_options, const SG_Buffer* run_options,
    const char* export_dir, const char* const* tags, int tags_len, SG_Graph* graph,
    SG_Buffer* meta_graph_def, SG_Status* status);
/* ---- end of SavedModel ------------------------------------------------------------------ */

/* ---- Gradients (c_api/c_api_gradients.cc) ------------------------------------------------ */

/* Adds to `g` the operations computing the partial derivatives of the sum of the `ny` outputs
 * `y` with respect to each of the `nx` outputs `x`, as TF_AddGradientsWithPrefix does:
 * dy[i] = sum over j of d(y[j])/d(x[i]), each y[j] weighted by the initial gradient dx[j] (`dx`
 * holds `ny` outputs of y's dtypes and shapes, or is NULL for OnesLike(y[j])). Backprop runs over
 * the operations between the xs and the ys only; the gradients of several consumers are summed
 * with AddN. The new operations are named "<prefix>/...". A NULL `prefix` takes "gradients",
 * then "gradients_1", "gradients_2"... on later calls (the first such name that no operation has
 * or lives under); an explicit prefix must be unused.
 * No gradient flows through StopGradient, ops TensorFlow declares without one (Shape, Equal,
 * ArgMax...) or integer values: an x reached only through those gets dy[i] = {NULL, -1}, as
 * TensorFlow returns it.
 * Ownership: the new operations belong to `g`; the arrays stay the caller's. `dy` (nx entries)
 *   is written only on success.
 * Errors: SG_INVALID_ARGUMENT for a NULL graph, ny < 1, nx < 0, a NULL array with a count, a
 *   NULL or out-of-range output, an output of another graph, a dx of another dtype than its y,
 *   an explicit prefix that names an operation or the scope of one ("prefix [p] conflicts with
 *   existing node in the graph named [n]"), an x from which no y is reached ("Cannot compute
 *   the partial derivative for node ..."), or a PreventGradient on the way (its message);
 *   SG_NOT_FOUND "No gradient defined for op: <type> (node '<name>')" for an operation that a
 *   gradient reaches but that has no gradient function, or for a gradient op this build lacks;
 *   SG_UNIMPLEMENTED for a while loop (functional While / StatelessWhile, or a v1 loop of
 *   Enter/Merge/Switch/Exit nodes) whose condition or body holds a stateful op other than a
 *   variable read (the gradient runs the loop again, see below), for a v1 loop nested in another,
 *   and for an x or y inside a v1 loop. On error the graph is left as it was.
 * Loops: the gradient of a while loop runs the loop a second time, keeping each iteration's
 *   values on TensorLists, then runs the body's gradient backwards over them; it costs about two
 *   more runs of the loop and memory for every iteration's loop variables.
 * Conditionals: If / StatelessIf / Case / StatelessCase and v1 conds (Switch/Merge) are
 *   differentiated through the branch that ran.
 * Preconditions: none. Threads: safe (the graph is locked for the whole call). */
SG_CAPI_EXPORT extern void SG_AddGradientsWithPrefix(SG_Graph* g, const char* prefix,
                                                     SG_Output* y, int ny, SG_Output* x, int nx,
                                                     SG_Output* dx, SG_Status* status,
                                                     SG_Output* dy);

/* SG_AddGradientsWithPrefix with a NULL prefix, as TF_AddGradients. */
SG_CAPI_EXPORT extern void SG_AddGradients(SG_Graph* g, SG_Output* y, int ny, SG_Output* x,
                                           int nx, SG_Output* dx, SG_Status* status,
                                           SG_Output* dy);
/* ---- end of gradients ------------------------------------------------------------------- */

/* ---- Functions built from C ---------------------------------------------------------------
 * A function is a FunctionDef (TensorFlow's function.proto) held by an SG_Function handle. It is
 * made from a graph's operations (SG_GraphToFunction) or parsed from a serialized FunctionDef
 * (SG_FunctionImportFunctionDef), and copied into a graph (SG_GraphCopyFunction), where its name
 * becomes an op type: an operation of that type (or a PartitionedCall / StatefulPartitionedCall
 * whose attr `f` names it) runs the function; sg inlines it when it builds a step. Semantics as
 * TensorFlow's TF_GraphToFunction and its siblings in TensorFlow's c_api.h.
 * An SG_Function is independent of the graphs it came from or was copied into. Threads: a
 * function may be read (name, copy, serialize) from several threads at once; setting an attr
 * must not race with any other use of the same function. */
typedef struct SG_Function SG_Function;
/* Options of SG_GraphToFunction, as TensorFlow's TF_FunctionOptions: none exist yet and nothing
 * creates one; pass NULL. */
typedef struct SG_FunctionOptions SG_FunctionOptions;

/* Makes a function of operations of `fn_body`, as TensorFlow's TF_GraphToFunction.
 * fn_name:   the function's name, an op name ([A-Z][A-Za-z0-9_.\-/]*); with
 *            append_hash_to_fn_name 1 the name is fn_name + "_" + a hash of the FunctionDef
 *            (sg's own hash: 16 hex digits of a 64-bit fingerprint; it differs from
 *            TensorFlow's). Without the hash it must differ from the names of ops and of other
 *            functions of the graphs it is copied into.
 * num_opers, opers: the body. num_opers -1 (opers ignored): every operation of the graph except
 *            those `inputs` refer to, each of which must then have exactly one output (typically
 *            a Placeholder standing for the argument). num_opers >= 0: exactly `opers`, nothing
 *            skipped (0: a function without body, e.g. one returning its inputs).
 * ninputs, inputs: the tensors that become the function's arguments, in order; no tensor twice.
 *            Argument names are the producing operations' names normalized (letters lowercased,
 *            other characters except digits turned to '_', leading non-letters dropped; "unknown"
 *            when no letter is left), made unique with a suffix "_0", "_1", ...
 * noutputs, outputs: the tensors the function returns, in order (a tensor may repeat; a tensor
 *            that is also an input returns that argument).
 * output_names: NULL (names made from the producing operations' names as for the arguments) or
 *            `noutputs` distinct names ([a-z][a-z0-9_]*).
 * opts:      reserved; NULL. description: NULL or a text stored as the OpDef's description.
 * The FunctionDef's body nodes keep their operations' names (made unique against the argument
 * names), attrs and devices; their inputs are written as the FunctionDef convention asks:
 * an argument by its name, an output of a body node as "node:out_arg:index" (the OpDef output
 * arg it belongs to and the index within that arg), control inputs as "^node" (sorted).
 * Returns: a new function the caller deletes with SG_DeleteFunction; NULL on error.
 * Errors: SG_INVALID_ARGUMENT for a NULL graph, name or status-less call, a negative count or a
 *   NULL array with a positive count, an operation of another graph or an output index out of
 *   range, an input given twice, an input operation with other than one output when
 *   num_opers is -1, a body node input (data or control) neither among the inputs nor produced
 *   by the body, an output neither an input nor produced by the body, duplicate or empty output
 *   names. The graph is not changed.
 * Threads: safe; the graph is locked while it is read. */
SG_CAPI_EXPORT extern SG_Function* SG_GraphToFunction(
    const SG_Graph* fn_body, const char* fn_name, unsigned char append_hash_to_fn_name,
    int num_opers, const SG_Operation* const* opers, int ninputs, const SG_Output* inputs,
    int noutputs, const SG_Output* outputs, const char* const* output_names,
    const SG_FunctionOptions* opts, const char* description, SG_Status* status);

/* SG_GraphToFunction with control outputs, as TensorFlow's TF_GraphToFunctionWithControlOutputs:
 * each control_outputs[i] (an operation of the body) must have run when the function returns;
 * it is recorded in the OpDef's control_output list and the FunctionDef's control_ret map under
 * control_output_names[i] (distinct; NULL names the entries after their operations).
 * Ownership, errors and threads as SG_GraphToFunction; SG_INVALID_ARGUMENT as well for a control
 * output that is not part of the body. */
SG_CAPI_EXPORT extern SG_Function* SG_GraphToFunctionWithControlOutputs(
    const SG_Graph* fn_body, const char* fn_name, unsigned char append_hash_to_fn_name,
    int num_opers, const SG_Operation* const* opers, int ninputs, const SG_Output* inputs,
    int noutputs, const SG_Output* outputs, const char* const* output_names,
    int ncontrol_outputs, const SG_Operation* const* control_outputs,
    const char* const* control_output_names, const SG_FunctionOptions* opts,
    const char* description, SG_Status* status);

/* The function's name (its OpDef's name), as TensorFlow's TF_FunctionName. The string belongs to
 * `func` and lives as long as it does. NULL for a NULL function. Threads: safe. */
SG_CAPI_EXPORT extern const char* SG_FunctionName(SG_Function* func);

/* Serializes the function as a FunctionDef into `output_func_def`, as TensorFlow's
 * TF_FunctionToFunctionDef. Ownership: the buffer's bytes are new and released by
 * SG_DeleteBuffer. Errors: SG_INVALID_ARGUMENT for a NULL function or a NULL buffer or one that
 * already holds data. Threads: safe. */
SG_CAPI_EXPORT extern void SG_FunctionToFunctionDef(SG_Function* func, SG_Buffer* output_func_def,
                                                    SG_Status* status);

/* A new function from `proto_len` bytes of a serialized FunctionDef, as TensorFlow's
 * TF_FunctionImportFunctionDef. The bytes are copied. Returns a function the caller deletes with
 * SG_DeleteFunction, or NULL on error: SG_INVALID_ARGUMENT for NULL bytes with a positive length
 * or bytes that are not a FunctionDef with a named signature. Threads: safe. */
SG_CAPI_EXPORT extern SG_Function* SG_FunctionImportFunctionDef(const void* proto,
                                                                size_t proto_len,
                                                                SG_Status* status);

/* Sets the function attr `attr_name` (FunctionDef.attr, e.g. "_noinline") to a serialized
 * AttrValue, as TensorFlow's TF_FunctionSetAttrValueProto; an attr of that name is replaced.
 * Errors: SG_INVALID_ARGUMENT for a NULL function or name, NULL bytes with a positive length,
 * or bytes that are not an AttrValue; the function is unchanged then.
 * Threads: not safe with any other use of the same function. */
SG_CAPI_EXPORT extern void SG_FunctionSetAttrValueProto(SG_Function* func, const char* attr_name,
                                                        const void* proto, size_t proto_len,
                                                        SG_Status* status);

/* Serializes the function attr `attr_name` as an AttrValue into `output_attr_value`, as
 * TensorFlow's TF_FunctionGetAttrValueProto. Ownership: as SG_FunctionToFunctionDef.
 * Errors: SG_INVALID_ARGUMENT for a NULL function, name or buffer, a buffer that already holds
 * data, or an attr the function does not have ("Function '<f>' has no attr named '<a>'.").
 * Threads: safe. */
SG_CAPI_EXPORT extern void SG_FunctionGetAttrValueProto(SG_Function* func, const char* attr_name,
                                                        SG_Buffer* output_attr_value,
                                                        SG_Status* status);

/* Frees a function, as TensorFlow's TF_DeleteFunction; NULL is a no-op. Graphs it was copied into
 * keep their copy. Ownership: takes `func`. Errors: none. Threads: not while another thread uses
 * `func`. */
SG_CAPI_EXPORT extern void SG_DeleteFunction(SG_Function* func);

/* Adds `func` and, when not NULL, `grad` to the graph's function library and records `grad` as
 * the gradient function of `func` (the library's GradientDef), as TensorFlow's
 * TF_GraphCopyFunction. A function already in the library with the same definition is left as it
 * is (so copying twice is harmless); the gradient mapping can be added later this way.
 * After the call, operations of the graph may use func's name as their op type.
 * Errors: SG_INVALID_ARGUMENT for a NULL graph or func, a name that is a registered op, a
 *   different function of the same name already in the library, or func already having another
 *   gradient function. On error the graph is not changed.
 * Threads: safe (the graph is locked). */
SG_CAPI_EXPORT extern void SG_GraphCopyFunction(SG_Graph* g, const SG_Function* func,
                                                const SG_Function* grad, SG_Status* status);

/* The number of functions in the graph's library, as TensorFlow's TF_GraphNumFunctions; 0 for a
 * NULL graph. Threads: safe. */
SG_CAPI_EXPORT extern int SG_GraphNumFunctions(SG_Graph* g);

/* Fills funcs[0 .. n) with new copies of the first n = min(max_func, SG_GraphNumFunctions(g))
 * functions of the graph's library (in name order) and returns n, as TensorFlow's
 * TF_GraphGetFunctions. Ownership: the caller deletes each funcs[i] with SG_DeleteFunction.
 * Errors: SG_INVALID_ARGUMENT (returns 0, funcs untouched) for a NULL graph, a negative max_func,
 * or NULL funcs with a positive max_func. Threads: safe. */
SG_CAPI_EXPORT extern int SG_GraphGetFunctions(SG_Graph* g, SG_Function** funcs, int max_func,
                                               SG_Status* status);

/* Removes function `func_name` from the graph's library, with the gradient mapping recorded for
 * it (SG_GraphCopyFunction's `grad`), as TensorFlow's TF_GraphRemoveFunction;
 * SG_GraphNumFunctions drops by one. Sessions made from the graph before keep the function.
 * Errors: SG_INVALID_ARGUMENT for a NULL graph or name, a name not in the library ("Tried to
 *   remove non-existent function '<f>'."); SG_FAILED_PRECONDITION when an operation of the graph
 *   uses the function (as its op type, or in a function-valued attr such as a While's `body`):
 *   sg's graphs keep what their operations run (TensorFlow removes it and fails later). On error
 *   the library is not changed.
 * Threads: safe (the graph is locked). */
SG_CAPI_EXPORT extern void SG_GraphRemoveFunction(SG_Graph* g, const char* func_name,
                                                  SG_Status* status);
/* ---- end of functions ------------------------------------------------------------------- */

/* ---- While loops built from C (c_api/c_api_while.cc) ---------------------------------------
 * TensorFlow's TF_NewWhile / TF_FinishWhile / TF_AbortWhile: a loop over `ninputs` loop variables
 * whose condition and body are built, operation by operation, in two graphs of their own:
 *
 *   SG_Output init[2] = {i0, x0};
 *   SG_WhileParams p = SG_NewWhile(g, init, 2, s);             (check s)
 *   ... SG_NewOperation(p.cond_graph, "Less", ...) on p.cond_inputs[0] ...
 *   p.cond_output = less;                                      (a scalar SG_BOOL)
 *   ... p.body_outputs[0] = i + 1; p.body_outputs[1] = x * 2 (from p.body_inputs) ...
 *   p.name = "loop";
 *   SG_Output out[2];
 *   SG_FinishWhile(&p, s, out);                                (out: i and x when cond is false)
 *
 * SG_FinishWhile adds to the outer graph what TensorFlow's adds, a TensorFlow 1.x loop frame
 * named `name` (frame_name `name`, parallel_iterations 10) under the scope "<name>/" ("<name>_1/",
 * ... when an operation has that name or scope already): per variable i an Enter, a
 * Merge(Enter, NextIteration), a Switch(Merge, LoopCond) and an Exit (Enter, Enter_1, ...), the
 * condition's operations under "<name>/cond/" reading the Merges, one LoopCond, the body's
 * operations under "<name>/body/" reading the Switches' true outputs, and a NextIteration per
 * body output. A cond or body operation with no input besides the loop variables gets a control
 * input from the first Merge (cond) or Switch (body), so that it runs once per iteration.
 * Sessions run the frame as TensorFlow does, and SG_AddGradients differentiates it (see its
 * limits there: no stateful op other than a variable read in the cond or body, no nested loop).
 * Limits, as TensorFlow's: the cond and body read only the loop variables (an operation of the
 * outer graph cannot be an input: pass it as a loop variable the body returns unchanged); the
 * placeholders standing for the variables have an unknown shape. */

/* The loop under construction. SG_NewWhile sets every member except cond_output, body_outputs'
 * entries and name, which the caller sets before SG_FinishWhile. Laid out as TensorFlow's
 * TF_WhileParams. */
typedef struct SG_WhileParams {
  /* The number of loop variables: the length of cond_inputs, body_inputs and body_outputs. */
  const int ninputs;
  /* The condition: a graph whose cond_inputs[i] (a Placeholder "cond_input<i>" of the variable's
   * dtype) are the variables' current values; cond_output must be a scalar SG_BOOL of it. */
  SG_Graph* const cond_graph;
  const SG_Output* const cond_inputs;
  SG_Output cond_output;
  /* The body: body_inputs[i] (Placeholders "body_input<i>") are the current values;
   * body_outputs[i], outputs of body_graph of the same dtypes, are the next values. */
  SG_Graph* const body_graph;
  const SG_Output* const body_inputs;
  SG_Output* const body_outputs;
  /* The loop's name: its frame name and the scope of its operations (not empty). */
  const char* name;
} SG_WhileParams;

/* Starts a while loop in `g` over `ninputs` loop variables whose initial values are the outputs
 * `inputs` of g, as TensorFlow's TF_NewWhile.
 * Returns: the params, with new cond and body graphs and arrays that the params own, and
 *   body_outputs[i] = {NULL, -1} and name NULL for the caller to set. On error a params of
 *   zeros that must not be finished or aborted.
 * Ownership: `inputs` is read during the call only. The cond and body graphs and the arrays
 *   belong to the params until SG_FinishWhile or SG_AbortWhile frees them (the caller must not
 *   delete them); exactly one of the two must be called after a successful SG_NewWhile.
 *   `g` is kept alive until then even if SG_DeleteGraph is called on it.
 * Errors: SG_INVALID_ARGUMENT for a NULL graph, ninputs < 1 ("must be passed at least one
 *   input"), NULL inputs, or an input that is not an output of g; g is unchanged.
 * Threads: safe; the params themselves must be used by one thread at a time. */
SG_CAPI_EXPORT extern SG_WhileParams SG_NewWhile(SG_Graph* g, SG_Output* inputs, int ninputs,
                                                 SG_Status* status);

/* Adds the loop `params` describes to the graph SG_NewWhile was given (see the section above)
 * and sets outputs[0 .. params->ninputs) to the loop's results, the Exits: the variables'
 * values when the condition is false. As TensorFlow's TF_FinishWhile.
 * Ownership: frees the params' graphs and arrays, whether it succeeds or not (once the params
 *   were recognised as SG_NewWhile's): the params are invalid afterwards. The new operations
 *   belong to the outer graph. `outputs` is the caller's, written only on success.
 * Errors: SG_INVALID_ARGUMENT, the outer graph unchanged, for
 *   - NULL params, or params SG_NewWhile did not make (a copy with another ninputs, graph or
 *     array) or that were finished or aborted already ("must be created by a successful
 *     SG_NewWhile"): nothing is freed then;
 *   - NULL outputs, cond_output not set ("`cond_output` field isn't set"), a body output not
 *     set ("`body_outputs[i]` field isn't set"), a NULL ("`name` field is null") or empty name;
 *   - a loop of frame name `name` in the outer graph already ("While loop with frame name
 *     '<name>' already exists": TensorFlow's error, raised by TensorFlow after it has added the
 *     loop's operations; sg adds none);
 *   - cond_output not an output of cond_graph or not SG_BOOL, a body output not an output of
 *     body_graph or of another dtype than its variable; a cond or body operation that cannot be
 *     added to the outer graph (its message, naming the operation).
 * Threads: safe with other calls on the outer graph (which is locked while the loop is added). */
SG_CAPI_EXPORT extern void SG_FinishWhile(const SG_WhileParams* params, SG_Status* status,
                                          SG_Output* outputs);

/* Frees the params' graphs and arrays without adding a loop, as TensorFlow's TF_AbortWhile; the
 * outer graph is as it was before SG_NewWhile. NULL, and params SG_NewWhile did not make or that
 * were finished or aborted already, are no-ops. Errors: none. Threads: as SG_FinishWhile. */
SG_CAPI_EXPORT extern void SG_AbortWhile(const SG_WhileParams* params);
/* ---- end of while loops ----------------------------------------------------------------- */

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SG_C_API_H_ */
