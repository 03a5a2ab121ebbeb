/* bindings/sg.i: the one SWIG interface of sg's bindings, over c_api/include/sg/c_api.h only.
 *
 * SWIG runs in C mode (no -c++): the wrappers are C, so nothing can unwind through C++ frames.
 * Both languages get the same functions; only the typemaps differ:
 *
 *   - the trailing `SG_Status* status` disappears. Java: a failed status throws the
 *     org.sg.SgException subclass for its code (SgException.fromStatus) once the C call has
 *     returned. Go: it becomes `err *error`, set to a *StatusError (code and message) on failure.
 *   - opaque handles (SG_Graph*, SG_Tensor*, ...) are Java `long`s; in Go, SWIG's Swigcptr types.
 *   - (pointer, count) pairs are Java arrays / Go slices, borrowed for the call.
 *   - SGB_View (a tensor's or buffer's bytes, owned by that object) is a direct ByteBuffer in
 *     Java and a []byte over C memory in Go: valid only while the owner lives.
 *   - string tensors are made and read by the C API only (SG_NewStringTensor, SG_StringTensorGet,
 *     through sgb_NewStringTensor and sgb_StringTensorGet): neither language knows their layout.
 *
 * The sgb_ helpers below exist where the C API passes SG_Output by value or arrays of handles;
 * they only convert and delegate. The generated layer is private to each binding (package-private
 * classes in org.sg; Go package internal/capi); users see the hand-written types.
 */

%{
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sg/c_api.h"
%}

/* int64_t is `long` on the LP64 targets sg builds for (Linux x86-64, aarch64). */
#ifndef SWIGWORDSIZE32
#define SWIGWORDSIZE64
#endif
%include <stdint.i>
#ifdef SWIGJAVA
/* ... and Java's long is 64 bits too (SWIG's default maps C long to a Java int). */
%apply long long { long };
%apply unsigned long long { unsigned long };
#endif

/* ---- Not wrapped: function pointers, strings freed by the callee, by-value buffers. ---------- */
%ignore SG_NewTensor;          /* deallocator callback: use SG_AllocateTensor + sgb_TensorView */
%ignore SG_GetBuffer;          /* SG_Buffer is opaque here: use sgb_BufferView */
%ignore SG_Buffer;
%ignore SG_SessionPRunSetup;   /* returns a C string the caller frees: sgb_ helpers below */
%ignore SG_DeletePRunHandle;
%ignore SG_SessionPRun;
%ignore SG_StringDecode;       /* per element: the bindings use whole string tensors, below */
%ignore SG_StringEncode;
%ignore SG_NewStringTensor;    /* an array of pointers: sgb_NewStringTensor below */
%ignore SG_StringTensorGet;    /* pointer outputs: sgb_StringTensorGet below (a view) */
%ignore SG_LoadSessionFromSavedModel;  /* tags as an array of C strings: sgb_ helper below */
%ignore SG_NewTensorWithLayout;  /* deallocator callback, as SG_NewTensor */
/* TensorFlow 2.x's strings one by one (raw structs and pointers into them): the bindings use
 * whole string tensors (sgb_StringTensorGet reads both layouts). */
%ignore SG_TString;
%ignore SG_TString::u;
%ignore SG_TString_u;
%ignore SG_TString_Small;
%ignore SG_TString_Large;
%ignore SG_TString_Offset;
%ignore SG_TString_View;
%ignore SG_TString_Raw;
%ignore SG_TStringOwner;
%ignore SG_StringInit;
%ignore SG_StringCopy;
%ignore SG_StringAssignView;
%ignore SG_StringGetDataPointer;
%ignore SG_StringGetType;
%ignore SG_StringGetSize;
%ignore SG_StringGetCapacity;
%ignore SG_StringDealloc;
/* While loops built from C: SG_WhileParams has const members, which SWIG's C wrappers cannot
 * assign a returned value to; the bindings import loops as GraphDefs instead. */
%ignore SG_WhileParams;
%ignore SG_NewWhile;
%ignore SG_FinishWhile;
%ignore SG_AbortWhile;
%rename(attr_type) SG_AttrMetadata::type;  /* `type` is a Go keyword */

/* ================================================================================================
 * Java
 * ============================================================================================== */
#ifdef SWIGJAVA

%include <enumtypeunsafe.swg>  /* enums are ints: the hand-written DataType maps them */
%javaconst(1);

/* The generated classes are package-private: users see only the hand-written ones. */
%pragma(java) moduleclassmodifiers="final class"
%pragma(java) jniclassclassmodifiers="final class"
%typemap(javaclassmodifiers) SWIGTYPE, SWIGTYPE *, SWIGTYPE &, SWIGTYPE [] "final class"
%typemap(javaclassmodifiers) enum SWIGTYPE "final class"
/* libsg_jni.so is loaded (with the paths tried listed on failure) before the first native call. */
%pragma(java) jniclasscode=%{
  static {
    NativeLibrary.load();
  }
%}

%{
#include <jni.h>

/* Throws the SgException subclass for `s` (SgException.fromStatus builds it from the code and
 * the UTF-8 message bytes). Only sets the pending exception; the wrapper then returns. */
static void sgb_ThrowStatus(JNIEnv* jenv, const SG_Status* s) {
  jclass cls = (*jenv)->FindClass(jenv, "org/sg/SgException");
  if (cls == NULL) return; /* NoClassDefFoundError is pending */
  jmethodID from = (*jenv)->GetStaticMethodID(jenv, cls, "fromStatus", "(I[B)Lorg/sg/SgException;");
  if (from == NULL) return;
  const char* msg = SG_Message(s);
  jsize n = (jsize)strlen(msg);
  jbyteArray bytes = (*jenv)->NewByteArray(jenv, n);
  if (bytes == NULL) return;
  (*jenv)->SetByteArrayRegion(jenv, bytes, 0, n, (const jbyte*)msg);
  jobject ex = (*jenv)->CallStaticObjectMethod(jenv, cls, from, (jint)SG_GetCode(s), bytes);
  if (ex != NULL && !(*jenv)->ExceptionCheck(jenv)) (*jenv)->Throw(jenv, (jthrowable)ex);
  (*jenv)->DeleteLocalRef(jenv, bytes);
  (*jenv)->DeleteLocalRef(jenv, cls);
}

static void sgb_ThrowOom(JNIEnv* jenv, const char* what) {
  jclass cls = (*jenv)->FindClass(jenv, "java/lang/OutOfMemoryError");
  if (cls != NULL) (*jenv)->ThrowNew(jenv, cls, what);
}
%}

%typemap(in, numinputs=0) SG_Status* status %{
  $1 = SG_NewStatus();
  if ($1 == NULL) { sgb_ThrowOom(jenv, "SG_NewStatus"); return $null; }
%}
%typemap(argout) SG_Status* status %{
  if (SG_GetCode($1) != SG_OK) sgb_ThrowStatus(jenv, $1);
%}
%typemap(freearg) SG_Status* status %{ SG_DeleteStatus($1); %}

/* Opaque handles are plain longs (0 is NULL). */
%define SGB_JAVA_HANDLE(TYPE)
%typemap(jstype) TYPE* "long"
%typemap(javain) TYPE* "$javainput"
%typemap(javaout) TYPE* { return $jnicall; }
%enddef
SGB_JAVA_HANDLE(SG_Status)
SGB_JAVA_HANDLE(SG_Buffer)
SGB_JAVA_HANDLE(SG_Tensor)
SGB_JAVA_HANDLE(SG_SessionOptions)
SGB_JAVA_HANDLE(SG_Graph)
SGB_JAVA_HANDLE(SG_OperationDescription)
SGB_JAVA_HANDLE(SG_Operation)
SGB_JAVA_HANDLE(SG_ImportGraphDefOptions)
SGB_JAVA_HANDLE(SG_ImportGraphDefResults)
SGB_JAVA_HANDLE(SG_Session)
SGB_JAVA_HANDLE(SG_DeviceList)
SGB_JAVA_HANDLE(SG_Server)

/* (array, count) pairs. IN arrays are read only (JNI_ABORT); OUT arrays are copied back. */
%define SGB_JAVA_ARRAY(CTYPE, JNIARRAY, JAVAARRAY, JNIELEM, GET, RELEASE, NAME, MODE)
%typemap(jni) (CTYPE* NAME, int NAME##_LEN) #JNIARRAY
%typemap(jtype) (CTYPE* NAME, int NAME##_LEN) #JAVAARRAY
%typemap(jstype) (CTYPE* NAME, int NAME##_LEN) #JAVAARRAY
%typemap(javain) (CTYPE* NAME, int NAME##_LEN) "$javainput"
%typemap(in) (CTYPE* NAME, int NAME##_LEN) %{
  $1 = NULL;
  $2 = 0;
  if ($input != NULL) {
    $2 = (int)(*jenv)->GetArrayLength(jenv, $input);
    $1 = ($1_ltype)(*jenv)->GET(jenv, $input, NULL);
    if ($1 == NULL) return $null; /* OutOfMemoryError is pending */
  }
%}
%typemap(freearg) (CTYPE* NAME, int NAME##_LEN) %{
  if ($1 != NULL) (*jenv)->RELEASE(jenv, $input, (JNIELEM*)$1, MODE);
%}
%enddef
SGB_JAVA_ARRAY(const int64_t, jlongArray, long[], jlong, GetLongArrayElements, ReleaseLongArrayElements, IN_I64, JNI_ABORT)
SGB_JAVA_ARRAY(int64_t, jlongArray, long[], jlong, GetLongArrayElements, ReleaseLongArrayElements, OUT_I64, 0)
SGB_JAVA_ARRAY(const float, jfloatArray, float[], jfloat, GetFloatArrayElements, ReleaseFloatArrayElements, IN_F32, JNI_ABORT)
SGB_JAVA_ARRAY(const unsigned char, jbyteArray, byte[], jbyte, GetByteArrayElements, ReleaseByteArrayElements, IN_U8, JNI_ABORT)
SGB_JAVA_ARRAY(const SG_DataType, jintArray, int[], jint, GetIntArrayElements, ReleaseIntArrayElements, IN_DT, JNI_ABORT)

/* Bytes in: byte[] (null is an empty array). */
%typemap(jni) (const void* IN_BYTES, size_t IN_BYTES_LEN) "jbyteArray"
%typemap(jtype) (const void* IN_BYTES, size_t IN_BYTES_LEN) "byte[]"
%typemap(jstype) (const void* IN_BYTES, size_t IN_BYTES_LEN) "byte[]"
%typemap(javain) (const void* IN_BYTES, size_t IN_BYTES_LEN) "$javainput"
%typemap(in) (const void* IN_BYTES, size_t IN_BYTES_LEN) %{
  $1 = NULL;
  $2 = 0;
  if ($input != NULL) {
    $2 = (size_t)(*jenv)->GetArrayLength(jenv, $input);
    $1 = (*jenv)->GetByteArrayElements(jenv, $input, NULL);
    if ($1 == NULL) return $null;
  }
%}
%typemap(freearg) (const void* IN_BYTES, size_t IN_BYTES_LEN) %{
  if ($1 != NULL) (*jenv)->ReleaseByteArrayElements(jenv, $input, (jbyte*)$1, JNI_ABORT);
%}

/* Views out: a direct ByteBuffer over memory the tensor or buffer owns (null when empty). */
%typemap(jni) SGB_View "jobject"
%typemap(jtype) SGB_View "java.nio.ByteBuffer"
%typemap(jstype) SGB_View "java.nio.ByteBuffer"
%typemap(javaout) SGB_View { return $jnicall; }
%typemap(out) SGB_View %{
  $result = ($1.data != NULL && $1.len > 0)
      ? (*jenv)->NewDirectByteBuffer(jenv, $1.data, (jlong)$1.len) : NULL;
%}

#endif  /* SWIGJAVA */

/* ================================================================================================
 * Go
 * ============================================================================================== */
#ifdef SWIGGO

/* err *error: on failure the C side hands the status itself back through an int64 slot and
 * swigStatusError turns it into a *StatusError (and deletes it); on success it is deleted here. */
%typemap(gotype) SG_Status* status "*error"
%typemap(imtype) SG_Status* status "*int64"
%typemap(goin) SG_Status* status %{
  var swigStatusSlot$argnum int64
  $result = &swigStatusSlot$argnum
%}
%typemap(in) SG_Status* status %{ $1 = SG_NewStatus(); %}
%typemap(argout) SG_Status* status %{
  if ($1 == NULL) {
    *$input = -1;
  } else if (SG_GetCode($1) != SG_OK) {
    *$input = (long long)(intptr_t)$1;
    $1 = NULL; /* now Go's: swigStatusError deletes it */
  }
%}
%typemap(freearg) SG_Status* status %{ SG_DeleteStatus($1); %}
%typemap(goargout) SG_Status* status %{
  if *$input != 0 {
    swigErr := swigStatusError(*$input)
    if $1 != nil {
      *$1 = swigErr
    }
  }
%}

%insert(go_wrapper) %{
// StatusError is a failed SG_Status: TensorFlow's code and the one-line message.
type StatusError struct {
	Code    int
	Message string
}

func (e *StatusError) Error() string { return e.Message }

func swigStatusError(slot int64) error {
	if slot == -1 {
		return &StatusError{Code: int(SG_RESOURCE_EXHAUSTED), Message: "SG_NewStatus: out of memory"}
	}
	s := SwigcptrStruct_SS_SG_Status(uintptr(slot))
	e := &StatusError{Code: int(SG_GetCode(s)), Message: SG_Message(s)}
	SG_DeleteStatus(s)
	return e
}
%}

/* (array, count) pairs: Go slices, borrowed for the call (OUT slices are written in place). */
%define SGB_GO_ARRAY(CTYPE, GOTYPE, NAME)
%typemap(gotype) (CTYPE* NAME, int NAME##_LEN) #GOTYPE
%typemap(in) (CTYPE* NAME, int NAME##_LEN) %{
  $1 = ($1_ltype)$input.array;
  $2 = (int)$input.len;
%}
%enddef
SGB_GO_ARRAY(const int64_t, []int64, IN_I64)
SGB_GO_ARRAY(int64_t, []int64, OUT_I64)
SGB_GO_ARRAY(const float, []float32, IN_F32)
SGB_GO_ARRAY(const unsigned char, []byte, IN_U8)
SGB_GO_ARRAY(const SG_DataType, []int32, IN_DT)

%typemap(gotype) (const void* IN_BYTES, size_t IN_BYTES_LEN) "[]byte"
%typemap(in) (const void* IN_BYTES, size_t IN_BYTES_LEN) %{
  $1 = $input.array;
  $2 = (size_t)$input.len;
%}

/* Views: a []byte over C memory, valid while its owner lives. */
%typemap(gotype) SGB_View "[]byte"
%typemap(out) SGB_View %{
  $result.array = $1.data;
  $result.len = (intgo)$1.len;
  $result.cap = (intgo)$1.len;
%}

#endif  /* SWIGGO */

/* ---- Shared: which C parameters take which array and byte typemaps. ----------------------- */
%apply (const int64_t* IN_I64, int IN_I64_LEN) {
  (const int64_t* dims, int num_dims),
  (const int64_t* values, int num_values),
  (const int64_t* feeds, int nfeeds),
  (const int64_t* fetches, int nfetches),
  (const int64_t* targets, int ntargets),
  (const int64_t* inputs, int ninputs),
  (const int64_t* lengths, int nlengths),
  (const int64_t* ranks, int nranks),
  (const int64_t* tensors, int ntensors),
  (const int64_t* ys, int nys),
  (const int64_t* xs, int nxs),
  (const int64_t* dxs, int ndxs)
}
%apply (int64_t* OUT_I64, int OUT_I64_LEN) {
  (int64_t* outputs, int noutputs),
  (int64_t* out_dims, int n_out_dims)
}
%apply (const float* IN_F32, int IN_F32_LEN) { (const float* values, int num_values) }
%apply (const unsigned char* IN_U8, int IN_U8_LEN) { (const unsigned char* values, int num_values) }
%apply (const SG_DataType* IN_DT, int IN_DT_LEN) { (const SG_DataType* values, int num_values) }
%apply (const void* IN_BYTES, size_t IN_BYTES_LEN) {
  (const void* proto, size_t proto_len),
  (const void* value, size_t length),
  (const void* server_def, size_t len),
  (const void* data, size_t len)
}

/* SWIG's preprocessor only: SG_CAPI_EXPORT's visibility attribute means nothing to it. */
#define __attribute__(x)
%include "sg/c_api.h"

%{
/* Not wrapped: SG_Output values and arrays built from (operation, index) pairs. */
static SG_Output sgb_Out(SG_Operation* op, int index) {
  SG_Output o;
  o.oper = op;
  o.index = index;
  return o;
}

static SG_Output* sgb_Outputs(const int64_t* pairs, int n) {
  SG_Output* outs = (SG_Output*)malloc(sizeof(SG_Output) * (size_t)(n > 0 ? n : 1));
  if (outs == NULL) return NULL;
  for (int i = 0; i < n; ++i) {
    outs[i].oper = (SG_Operation*)(intptr_t)pairs[2 * i];
    outs[i].index = (int)pairs[2 * i + 1];
  }
  return outs;
}

%}

/* ---- Helpers: SG_Output by value and handle arrays as (operation, index) int64 lists. -------- */
%inline %{
/* Bytes owned by a tensor or buffer. */
typedef struct SGB_View {
  void* data;
  size_t len;
} SGB_View;

static SGB_View sgb_TensorView(SG_Tensor* t) {
  SGB_View v;
  v.data = SG_TensorData(t);
  v.len = SG_TensorByteSize(t);
  return v;
}

static SGB_View sgb_BufferView(SG_Buffer* b) {
  SGB_View v;
  v.data = b != NULL ? (void*)b->data : NULL;
  v.len = b != NULL ? b->length : 0;
  return v;
}

static SG_DataType sgb_OperationOutputType(SG_Operation* op, int index) {
  return SG_OperationOutputType(sgb_Out(op, index));
}

static int sgb_OperationOutputNumConsumers(SG_Operation* op, int index) {
  return SG_OperationOutputNumConsumers(sgb_Out(op, index));
}

static int sgb_GraphGetTensorNumDims(SG_Graph* graph, SG_Operation* op, int index,
                                     SG_Status* status) {
  return SG_GraphGetTensorNumDims(graph, sgb_Out(op, index), status);
}

static void sgb_GraphGetTensorShape(SG_Graph* graph, SG_Operation* op, int index,
                                    int64_t* out_dims, int n_out_dims, SG_Status* status) {
  SG_GraphGetTensorShape(graph, sgb_Out(op, index), out_dims, n_out_dims, status);
}

static void sgb_GraphSetTensorShape(SG_Graph* graph, SG_Operation* op, int index,
                                    const int64_t* dims, int num_dims, SG_Status* status) {
  SG_GraphSetTensorShape(graph, sgb_Out(op, index), dims, num_dims, status);
}

/* num_dims < 0 is an unknown rank; `dims` is then ignored. */
static void sgb_SetAttrShape(SG_OperationDescription* desc, const char* attr_name,
                             const int64_t* dims, int num_dims, int unknown_rank) {
  SG_SetAttrShape(desc, attr_name, dims, unknown_rank ? -1 : num_dims);
}

static void sgb_AddInput(SG_OperationDescription* desc, SG_Operation* op, int index) {
  SG_AddInput(desc, sgb_Out(op, index));
}

/* `inputs` is (operation, index) pairs. Errors are reported by SG_FinishOperation. */
static void sgb_AddInputList(SG_OperationDescription* desc, const int64_t* inputs, int ninputs) {
  SG_Output* outs = sgb_Outputs(inputs, ninputs / 2);
  if (outs == NULL) return;
  SG_AddInputList(desc, outs, ninputs / 2);
  free(outs);
}

/* The strings laid end to end in `data`, `lengths[i]` bytes each. */
static void sgb_SetAttrStringList(SG_OperationDescription* desc, const char* attr_name,
                                  const void* data, size_t len, const int64_t* lengths,
                                  int nlengths, SG_Status* status) {
  const void** values = (const void**)malloc(sizeof(void*) * (size_t)(nlengths > 0 ? nlengths : 1));
  size_t* sizes = (size_t*)malloc(sizeof(size_t) * (size_t)(nlengths > 0 ? nlengths : 1));
  size_t at = 0;
  int ok = values != NULL && sizes != NULL;
  for (int i = 0; ok && i < nlengths; ++i) {
    if (lengths[i] < 0 || (size_t)lengths[i] > len - at) {
      ok = 0;
      break;
    }
    values[i] = (const char*)data + at;
    sizes[i] = (size_t)lengths[i];
    at += sizes[i];
  }
  if (ok) {
    SG_SetAttrStringList(desc, attr_name, values, sizes, nlengths);
  } else {
    SG_SetStatus(status, SG_INVALID_ARGUMENT, "string list lengths do not match the bytes");
  }
  free(values);
  free(sizes);
}

/* An SG_STRING tensor of `dims` (SG_NewStringTensor) holding the strings laid end to end in
 * `data`, `lengths[i]` bytes each, row-major. One byte array and one length array because cgo
 * cannot pass Go memory holding Go pointers ([][]byte, []string) to C; Java does the same. */
static SG_Tensor* sgb_NewStringTensor(const int64_t* dims, int num_dims, const void* data,
                                      size_t len, const int64_t* lengths, int nlengths,
                                      SG_Status* status) {
  const size_t n = (size_t)(nlengths > 0 ? nlengths : 1);
  const char** each = (const char**)malloc(sizeof(char*) * n);
  size_t* sizes = (size_t*)malloc(sizeof(size_t) * n);
  size_t at = 0;
  int ok = each != NULL && sizes != NULL;
  SG_Tensor* t = NULL;
  for (int i = 0; ok && i < nlengths; ++i) {
    if (lengths[i] < 0 || (size_t)lengths[i] > len - at) {
      ok = 0;
      break;
    }
    each[i] = data != NULL ? (const char*)data + at : NULL;
    sizes[i] = (size_t)lengths[i];
    at += sizes[i];
  }
  if (each == NULL || sizes == NULL) {
    SG_SetStatus(status, SG_RESOURCE_EXHAUSTED, "sgb_NewStringTensor: out of memory");
  } else if (!ok || at != len) {
    SG_SetStatus(status, SG_INVALID_ARGUMENT, "string tensor lengths do not match the bytes");
  } else {
    t = SG_NewStringTensor(dims, num_dims, each, sizes, nlengths, status);
  }
  free((void*)each);
  free(sizes);
  return t;
}

/* Element `index` of an SG_STRING tensor (SG_StringTensorGet): a view of the tensor's bytes,
 * valid while it lives (empty on failure, with the status set). */
static SGB_View sgb_StringTensorGet(const SG_Tensor* t, int64_t index, SG_Status* status) {
  SGB_View v;
  const char* data = NULL;
  size_t len = 0;
  SG_StringTensorGet(t, index, &data, &len, status);
  v.data = (void*)data;
  v.len = len;
  return v;
}

/* Shape i has ranks[i] dims (-1: unknown rank, no dims), laid end to end in `dims`. */
static void sgb_SetAttrShapeList(SG_OperationDescription* desc, const char* attr_name,
                                 const int64_t* dims, int num_dims, const int64_t* ranks,
                                 int nranks, SG_Status* status) {
  const int64_t** each = (const int64_t**)malloc(sizeof(int64_t*) * (size_t)(nranks > 0 ? nranks : 1));
  int* counts = (int*)malloc(sizeof(int) * (size_t)(nranks > 0 ? nranks : 1));
  int at = 0;
  int ok = each != NULL && counts != NULL;
  for (int i = 0; ok && i < nranks; ++i) {
    counts[i] = (int)ranks[i];
    each[i] = ranks[i] > 0 ? dims + at : NULL;
    if (ranks[i] > 0) at += (int)ranks[i];
    if (ranks[i] < -1 || at > num_dims) ok = 0;
  }
  if (ok) {
    SG_SetAttrShapeList(desc, attr_name, each, counts, nranks);
  } else {
    SG_SetStatus(status, SG_INVALID_ARGUMENT, "shape list ranks do not match the dims");
  }
  free(each);
  free(counts);
}

static void sgb_SetAttrTensorList(SG_OperationDescription* desc, const char* attr_name,
                                  const int64_t* tensors, int ntensors, SG_Status* status) {
  SG_Tensor** values = (SG_Tensor**)malloc(sizeof(SG_Tensor*) * (size_t)(ntensors > 0 ? ntensors : 1));
  if (values == NULL) {
    SG_SetStatus(status, SG_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  for (int i = 0; i < ntensors; ++i) values[i] = (SG_Tensor*)(intptr_t)tensors[i];
  SG_SetAttrTensorList(desc, attr_name, values, ntensors, status);
  free(values);
}

/* The tags laid end to end in `data`, `lengths[i]` bytes each. */
static SG_Session* sgb_LoadSessionFromSavedModel(const SG_SessionOptions* session_options,
                                                 const SG_Buffer* run_options,
                                                 const char* export_dir, const void* data,
                                                 size_t len, const int64_t* lengths,
                                                 int nlengths, SG_Graph* graph,
                                                 SG_Buffer* meta_graph_def, SG_Status* status) {
  char** tags = (char**)calloc((size_t)(nlengths > 0 ? nlengths : 1), sizeof(char*));
  size_t at = 0;
  int ok = tags != NULL;
  for (int i = 0; ok && i < nlengths; ++i) {
    if (lengths[i] < 0 || (size_t)lengths[i] > len - at) {
      ok = 0;
      break;
    }
    tags[i] = (char*)malloc((size_t)lengths[i] + 1);
    if (tags[i] == NULL) {
      ok = 0;
      break;
    }
    memcpy(tags[i], (const char*)data + at, (size_t)lengths[i]);
    tags[i][lengths[i]] = '\0';
    at += (size_t)lengths[i];
  }
  SG_Session* session = NULL;
  if (ok) {
    session = SG_LoadSessionFromSavedModel(session_options, run_options, export_dir,
                                           (const char* const*)tags, nlengths, graph,
                                           meta_graph_def, status);
  } else {
    SG_SetStatus(status, SG_INVALID_ARGUMENT, "saved model tags do not match their lengths");
  }
  for (int i = 0; tags != NULL && i < nlengths; ++i) free(tags[i]);
  free(tags);
  return session;
}

/* SG_AddGradientsWithPrefix on (operation, index) pairs: ys, xs and dxs (none: ones, as
 * SG_AddGradients); `outputs` receives one (operation, index) pair per x. An empty prefix is
 * SG_AddGradients' default naming. */
static void sgb_AddGradients(SG_Graph* graph, const char* prefix, const int64_t* ys, int nys,
                             const int64_t* xs, int nxs, const int64_t* dxs, int ndxs,
                             int64_t* outputs, int noutputs, SG_Status* status) {
  if (nys % 2 != 0 || nxs % 2 != 0 || (ndxs != 0 && ndxs != nys) || noutputs != nxs) {
    SG_SetStatus(status, SG_INVALID_ARGUMENT, "sgb_AddGradients: array lengths do not agree");
    return;
  }
  const int ny = nys / 2, nx = nxs / 2;
  SG_Output* y = sgb_Outputs(ys, ny);
  SG_Output* x = sgb_Outputs(xs, nx);
  SG_Output* dx = ndxs > 0 ? sgb_Outputs(dxs, ny) : NULL;
  SG_Output* dy = (SG_Output*)calloc((size_t)(nx > 0 ? nx : 1), sizeof(SG_Output));
  if (y == NULL || x == NULL || (ndxs > 0 && dx == NULL) || dy == NULL) {
    SG_SetStatus(status, SG_RESOURCE_EXHAUSTED, "sgb_AddGradients: out of memory");
  } else {
    SG_AddGradientsWithPrefix(graph, prefix != NULL && prefix[0] != '\0' ? prefix : NULL, y, ny,
                              x, nx, dx, status, dy);
    for (int i = 0; i < nx; ++i) {
      outputs[2 * i] = SG_GetCode(status) == SG_OK ? (int64_t)(intptr_t)dy[i].oper : 0;
      outputs[2 * i + 1] = SG_GetCode(status) == SG_OK ? dy[i].index : 0;
    }
  }
  free(y);
  free(x);
  free(dx);
  free(dy);
}

/* One step. feeds: (operation, index, tensor) triples; fetches: (operation, index) pairs;
 * outputs: one slot per fetch, receives the new tensors (0 on failure); targets: operations. */
static void sgb_SessionRun(SG_Session* session, const SG_Buffer* run_options,
                           const int64_t* feeds, int nfeeds, const int64_t* fetches,
                           int nfetches, int64_t* outputs, int noutputs,
                           const int64_t* targets, int ntargets, SG_Buffer* run_metadata,
                           SG_Status* status) {
  if (nfeeds % 3 != 0 || nfetches % 2 != 0 || noutputs != nfetches / 2) {
    SG_SetStatus(status, SG_INVALID_ARGUMENT, "sgb_SessionRun: array lengths do not agree");
    return;
  }
  const int nin = nfeeds / 3, nout = nfetches / 2;
  SG_Output* in = (SG_Output*)malloc(sizeof(SG_Output) * (size_t)(nin > 0 ? nin : 1));
  SG_Tensor** in_values = (SG_Tensor**)malloc(sizeof(SG_Tensor*) * (size_t)(nin > 0 ? nin : 1));
  SG_Output* out = sgb_Outputs(fetches, nout);
  SG_Tensor** out_values = (SG_Tensor**)calloc((size_t)(nout > 0 ? nout : 1), sizeof(SG_Tensor*));
  const SG_Operation** target_ops =
      (const SG_Operation**)malloc(sizeof(SG_Operation*) * (size_t)(ntargets > 0 ? ntargets : 1));
  if (in == NULL || in_values == NULL || out == NULL || out_values == NULL || target_ops == NULL) {
    SG_SetStatus(status, SG_RESOURCE_EXHAUSTED, "sgb_SessionRun: out of memory");
  } else {
    for (int i = 0; i < nin; ++i) {
      in[i].oper = (SG_Operation*)(intptr_t)feeds[3 * i];
      in[i].index = (int)feeds[3 * i + 1];
      in_values[i] = (SG_Tensor*)(intptr_t)feeds[3 * i + 2];
    }
    for (int i = 0; i < ntargets; ++i) target_ops[i] = (const SG_Operation*)(intptr_t)targets[i];
    SG_SessionRun(session, run_options, in, in_values, nin, out, out_values, nout, target_ops,
                  ntargets, run_metadata, status);
    for (int i = 0; i < nout; ++i) outputs[i] = (int64_t)(intptr_t)out_values[i];
  }
  free(in);
  free(in_values);
  free(out);
  free(out_values);
  free((void*)target_ops);
}
%}
