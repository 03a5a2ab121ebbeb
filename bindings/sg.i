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
%ignore SG_SessionPRunSetup;   /* a C string the caller frees: sgb_SessionPRunSetup below */
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
SGB_JAVA_ARRAY(float, jfloatArray, float[], jfloat, GetFloatArrayElements, ReleaseFloatArrayElements, OUT_F32, 0)
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
SGB_GO_ARRAY(float, []float32, OUT_F32)
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
  (int64_t* out_dims, int n_out_dims),
  (int64_t* values_out, int nvalues_out),
  (int64_t* ranks_out, int nranks_out),
  (int64_t* lengths_out, int nlengths_out)
}
%apply (float* OUT_F32, int OUT_F32_LEN) { (float* values_out, int nvalues_out) }
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

/* The C arrays of one run or partial-run step, built from the bindings' int64 lists. */
typedef struct SGB_RunArrays {
  SG_Output* in;
  SG_Tensor** in_values;
  int nin;
  SG_Output* out;
  SG_Tensor** out_values;
  int nout;
  const SG_Operation** targets;
} SGB_RunArrays;

static void sgb_FreeRunArrays(SGB_RunArrays* a) {
  free(a->in);
  free(a->in_values);
  free(a->out);
  free(a->out_values);
  free((void*)a->targets);
}

/* feeds: (operation, index, tensor) triples, or (operation, index) pairs when feed_width is 2
 * (a partial run's declaration); fetches: (operation, index) pairs; targets: operations.
 * 0 with the status set on bad lengths or no memory (the arrays are then freed). */
static int sgb_MakeRunArrays(const int64_t* feeds, int nfeeds, int feed_width,
                             const int64_t* fetches, int nfetches, const int64_t* targets,
                             int ntargets, const char* where, SGB_RunArrays* a,
                             SG_Status* status) {
  memset(a, 0, sizeof(*a));
  if (nfeeds % feed_width != 0 || nfetches % 2 != 0 || ntargets < 0) {
    SG_SetStatus(status, SG_INVALID_ARGUMENT, where);
    return 0;
  }
  a->nin = nfeeds / feed_width;
  a->nout = nfetches / 2;
  a->in = (SG_Output*)malloc(sizeof(SG_Output) * (size_t)(a->nin > 0 ? a->nin : 1));
  a->in_values = (SG_Tensor**)calloc((size_t)(a->nin > 0 ? a->nin : 1), sizeof(SG_Tensor*));
  a->out = sgb_Outputs(fetches, a->nout);
  a->out_values = (SG_Tensor**)calloc((size_t)(a->nout > 0 ? a->nout : 1), sizeof(SG_Tensor*));
  a->targets =
      (const SG_Operation**)malloc(sizeof(SG_Operation*) * (size_t)(ntargets > 0 ? ntargets : 1));
  if (a->in == NULL || a->in_values == NULL || a->out == NULL || a->out_values == NULL ||
      a->targets == NULL) {
    sgb_FreeRunArrays(a);
    SG_SetStatus(status, SG_RESOURCE_EXHAUSTED, "sgb: out of memory for a run's arrays");
    return 0;
  }
  for (int i = 0; i < a->nin; ++i) {
    a->in[i].oper = (SG_Operation*)(intptr_t)feeds[feed_width * i];
    a->in[i].index = (int)feeds[feed_width * i + 1];
    if (feed_width == 3) a->in_values[i] = (SG_Tensor*)(intptr_t)feeds[3 * i + 2];
  }
  for (int i = 0; i < ntargets; ++i) a->targets[i] = (const SG_Operation*)(intptr_t)targets[i];
  return 1;
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
  SGB_RunArrays a;
  if (noutputs != nfetches / 2) {
    SG_SetStatus(status, SG_INVALID_ARGUMENT, "sgb_SessionRun: array lengths do not agree");
    return;
  }
  if (!sgb_MakeRunArrays(feeds, nfeeds, 3, fetches, nfetches, targets, ntargets,
                         "sgb_SessionRun: array lengths do not agree", &a, status)) {
    return;
  }
  SG_SessionRun(session, run_options, a.in, a.in_values, a.nin, a.out, a.out_values, a.nout,
                a.targets, ntargets, run_metadata, status);
  for (int i = 0; i < a.nout; ++i) outputs[i] = (int64_t)(intptr_t)a.out_values[i];
  sgb_FreeRunArrays(&a);
}

/* SG_SessionPRunSetup. feeds and fetches: (operation, index) pairs; targets: operations.
 * Returns the handle as an integer (0 on failure), which sgb_SessionPRun takes and
 * sgb_DeletePRunHandle frees. */
static int64_t sgb_SessionPRunSetup(SG_Session* session, const int64_t* feeds, int nfeeds,
                                    const int64_t* fetches, int nfetches,
                                    const int64_t* targets, int ntargets, SG_Status* status) {
  SGB_RunArrays a;
  const char* handle = NULL;
  if (!sgb_MakeRunArrays(feeds, nfeeds, 2, fetches, nfetches, targets, ntargets,
                         "sgb_SessionPRunSetup: array lengths do not agree", &a, status)) {
    return 0;
  }
  SG_SessionPRunSetup(session, a.in, a.nin, a.out, a.nout, a.targets, ntargets, &handle, status);
  sgb_FreeRunArrays(&a);
  return (int64_t)(intptr_t)handle;
}

/* SG_SessionPRun on a handle from sgb_SessionPRunSetup; arrays as sgb_SessionRun. */
static void sgb_SessionPRun(SG_Session* session, int64_t handle, const int64_t* feeds,
                            int nfeeds, const int64_t* fetches, int nfetches, int64_t* outputs,
                            int noutputs, const int64_t* targets, int ntargets,
                            SG_Status* status) {
  SGB_RunArrays a;
  if (noutputs != nfetches / 2) {
    SG_SetStatus(status, SG_INVALID_ARGUMENT, "sgb_SessionPRun: array lengths do not agree");
    return;
  }
  if (!sgb_MakeRunArrays(feeds, nfeeds, 3, fetches, nfetches, targets, ntargets,
                         "sgb_SessionPRun: array lengths do not agree", &a, status)) {
    return;
  }
  SG_SessionPRun(session, (const char*)(intptr_t)handle, a.in, a.in_values, a.nin, a.out,
                 a.out_values, a.nout, a.targets, ntargets, status);
  for (int i = 0; i < a.nout; ++i) outputs[i] = (int64_t)(intptr_t)a.out_values[i];
  sgb_FreeRunArrays(&a);
}

/* SG_DeletePRunHandle on a handle from sgb_SessionPRunSetup (0 is a no-op). */
static void sgb_DeletePRunHandle(int64_t handle) {
  SG_DeletePRunHandle((const char*)(intptr_t)handle);
}

/* ---- Attribute readers: SG_OperationGetAttrMetadata and the SG_OperationGetAttr* getters with
 * caller-sized int64/float arrays (sized from the metadata) and values returned directly. Errors
 * as the getters': SG_NOT_FOUND for a missing attr, SG_INVALID_ARGUMENT for another kind. */

/* values_out (4 slots): is_list, list_size, type (SG_AttrType), total_size. */
static void sgb_OperationGetAttrMetadata(SG_Operation* oper, const char* attr_name,
                                         int64_t* values_out, int nvalues_out,
                                         SG_Status* status) {
  if (nvalues_out < 4) {
    SG_SetStatus(status, SG_INVALID_ARGUMENT, "sgb_OperationGetAttrMetadata: 4 slots needed");
    return;
  }
  SG_AttrMetadata m = SG_OperationGetAttrMetadata(oper, attr_name, status);
  values_out[0] = m.is_list;
  values_out[1] = m.list_size;
  values_out[2] = (int64_t)m.type;
  values_out[3] = m.total_size;
}

/* A string attr's bytes in a new buffer the caller deletes (SG_DeleteBuffer); NULL on failure. */
static SG_Buffer* sgb_OperationGetAttrString(SG_Operation* oper, const char* attr_name,
                                             SG_Status* status) {
  SG_AttrMetadata m = SG_OperationGetAttrMetadata(oper, attr_name, status);
  if (SG_GetCode(status) != SG_OK) return NULL;
  if (m.type != SG_ATTR_STRING || m.is_list || m.total_size < 0) {
    /* The getter's kind check names the attr and both kinds. */
    char unused;
    SG_OperationGetAttrString(oper, attr_name, &unused, 0, status);
    if (SG_GetCode(status) == SG_OK) {
      SG_SetStatus(status, SG_INVALID_ARGUMENT, "sgb_OperationGetAttrString: not a string");
    }
    return NULL;
  }
  void* data = malloc((size_t)m.total_size + 1);
  if (data == NULL) {
    SG_SetStatus(status, SG_RESOURCE_EXHAUSTED, "sgb_OperationGetAttrString: out of memory");
    return NULL;
  }
  SG_OperationGetAttrString(oper, attr_name, data, (size_t)m.total_size, status);
  SG_Buffer* b = SG_GetCode(status) == SG_OK ? SG_NewBufferFromString(data, (size_t)m.total_size)
                                             : NULL;
  free(data);
  return b;
}

/* A list(string) attr: the strings laid end to end in a new buffer the caller deletes, and
 * their byte lengths in lengths_out (list_size slots). NULL on failure. */
static SG_Buffer* sgb_OperationGetAttrStringList(SG_Operation* oper, const char* attr_name,
                                                 int64_t* lengths_out, int nlengths_out,
                                                 SG_Status* status) {
  SG_AttrMetadata m = SG_OperationGetAttrMetadata(oper, attr_name, status);
  if (SG_GetCode(status) != SG_OK) return NULL;
  const int n = nlengths_out;
  const size_t total = m.total_size > 0 ? (size_t)m.total_size : 0;
  void** values = (void**)calloc((size_t)(n > 0 ? n : 1), sizeof(void*));
  size_t* lengths = (size_t*)calloc((size_t)(n > 0 ? n : 1), sizeof(size_t));
  char* storage = (char*)malloc(total + 1);
  char* joined = (char*)malloc(total + 1);
  SG_Buffer* b = NULL;
  if (values == NULL || lengths == NULL || storage == NULL || joined == NULL) {
    SG_SetStatus(status, SG_RESOURCE_EXHAUSTED, "sgb_OperationGetAttrStringList: out of memory");
  } else {
    SG_OperationGetAttrStringList(oper, attr_name, values, lengths, n, storage, total + 1, status);
    if (SG_GetCode(status) == SG_OK) {
      size_t at = 0;
      for (int i = 0; i < n; ++i) {
        if (lengths[i] > total - at) break; /* cannot happen: the getter checked the storage */
        memcpy(joined + at, values[i], lengths[i]);
        at += lengths[i];
        lengths_out[i] = (int64_t)lengths[i];
      }
      b = SG_NewBufferFromString(joined, at);
    }
  }
  free(values);
  free(lengths);
  free(storage);
  free(joined);
  return b;
}

static int64_t sgb_OperationGetAttrInt(SG_Operation* oper, const char* attr_name,
                                       SG_Status* status) {
  int64_t v = 0;
  SG_OperationGetAttrInt(oper, attr_name, &v, status);
  return v;
}

static float sgb_OperationGetAttrFloat(SG_Operation* oper, const char* attr_name,
                                      SG_Status* status) {
  float v = 0;
  SG_OperationGetAttrFloat(oper, attr_name, &v, status);
  return v;
}

/* 0 or 1. */
static int sgb_OperationGetAttrBool(SG_Operation* oper, const char* attr_name,
                                    SG_Status* status) {
  unsigned char v = 0;
  SG_OperationGetAttrBool(oper, attr_name, &v, status);
  return v != 0;
}

/* The SG_DataType number. */
static int sgb_OperationGetAttrType(SG_Operation* oper, const char* attr_name,
                                    SG_Status* status) {
  SG_DataType v = (SG_DataType)0;
  SG_OperationGetAttrType(oper, attr_name, &v, status);
  return (int)v;
}

static void sgb_OperationGetAttrIntList(SG_Operation* oper, const char* attr_name,
                                        int64_t* values_out, int nvalues_out,
                                        SG_Status* status) {
  int64_t none; /* an empty array may come as NULL, which the getter refuses */
  SG_OperationGetAttrIntList(oper, attr_name, nvalues_out > 0 ? values_out : &none, nvalues_out,
                             status);
}

static void sgb_OperationGetAttrFloatList(SG_Operation* oper, const char* attr_name,
                                          float* values_out, int nvalues_out,
                                          SG_Status* status) {
  float none;
  SG_OperationGetAttrFloatList(oper, attr_name, nvalues_out > 0 ? values_out : &none,
                               nvalues_out, status);
}

/* list(bool) as 0/1 and list(type) as SG_DataType numbers, widened to int64. */
static void sgb_OperationGetAttrBoolList(SG_Operation* oper, const char* attr_name,
                                         int64_t* values_out, int nvalues_out,
                                         SG_Status* status) {
  unsigned char* v = (unsigned char*)calloc((size_t)(nvalues_out > 0 ? nvalues_out : 1), 1);
  if (v == NULL) {
    SG_SetStatus(status, SG_RESOURCE_EXHAUSTED, "sgb_OperationGetAttrBoolList: out of memory");
    return;
  }
  SG_OperationGetAttrBoolList(oper, attr_name, v, nvalues_out, status);
  for (int i = 0; i < nvalues_out; ++i) values_out[i] = v[i] != 0;
  free(v);
}

static void sgb_OperationGetAttrTypeList(SG_Operation* oper, const char* attr_name,
                                         int64_t* values_out, int nvalues_out,
                                         SG_Status* status) {
  SG_DataType* v =
      (SG_DataType*)calloc((size_t)(nvalues_out > 0 ? nvalues_out : 1), sizeof(SG_DataType));
  if (v == NULL) {
    SG_SetStatus(status, SG_RESOURCE_EXHAUSTED, "sgb_OperationGetAttrTypeList: out of memory");
    return;
  }
  SG_OperationGetAttrTypeList(oper, attr_name, v, nvalues_out, status);
  for (int i = 0; i < nvalues_out; ++i) values_out[i] = (int64_t)v[i];
  free(v);
}

/* A shape attr's dims (rank from the metadata's total_size; -1 dims unknown). */
static void sgb_OperationGetAttrShape(SG_Operation* oper, const char* attr_name,
                                      int64_t* values_out, int nvalues_out,
                                      SG_Status* status) {
  int64_t none;
  SG_OperationGetAttrShape(oper, attr_name, nvalues_out > 0 ? values_out : &none, nvalues_out,
                           status);
}

/* A list(shape) attr: ranks_out[i] is shape i's rank (-1: unknown rank), and its dims follow
 * the previous shapes' in values_out (sized by the metadata's total_size). */
static void sgb_OperationGetAttrShapeList(SG_Operation* oper, const char* attr_name,
                                          int64_t* ranks_out, int nranks_out,
                                          int64_t* values_out, int nvalues_out,
                                          SG_Status* status) {
  const int n = nranks_out > 0 ? nranks_out : 1;
  int64_t** dims = (int64_t**)calloc((size_t)n, sizeof(int64_t*));
  int* num_dims = (int*)calloc((size_t)n, sizeof(int));
  int64_t* storage = (int64_t*)calloc((size_t)(nvalues_out > 0 ? nvalues_out : 1), sizeof(int64_t));
  if (dims == NULL || num_dims == NULL || storage == NULL) {
    SG_SetStatus(status, SG_RESOURCE_EXHAUSTED, "sgb_OperationGetAttrShapeList: out of memory");
  } else {
    SG_OperationGetAttrShapeList(oper, attr_name, dims, num_dims, nranks_out, storage,
                                 nvalues_out, status);
    if (SG_GetCode(status) == SG_OK) {
      int at = 0;
      for (int i = 0; i < nranks_out; ++i) {
        ranks_out[i] = num_dims[i];
        for (int j = 0; j < num_dims[i] && at < nvalues_out; ++j) values_out[at++] = dims[i][j];
      }
    }
  }
  free(dims);
  free(num_dims);
  free(storage);
}

/* A tensor attr's value: a new tensor the caller deletes; NULL on failure. */
static SG_Tensor* sgb_OperationGetAttrTensor(SG_Operation* oper, const char* attr_name,
                                             SG_Status* status) {
  SG_Tensor* t = NULL;
  SG_OperationGetAttrTensor(oper, attr_name, &t, status);
  return t;
}

/* A list(tensor) attr: new tensors (as integers) the caller deletes; all 0 on failure. */
static void sgb_OperationGetAttrTensorList(SG_Operation* oper, const char* attr_name,
                                           int64_t* values_out, int nvalues_out,
                                           SG_Status* status) {
  SG_Tensor** v = (SG_Tensor**)calloc((size_t)(nvalues_out > 0 ? nvalues_out : 1), sizeof(SG_Tensor*));
  if (v == NULL) {
    SG_SetStatus(status, SG_RESOURCE_EXHAUSTED, "sgb_OperationGetAttrTensorList: out of memory");
    return;
  }
  SG_OperationGetAttrTensorList(oper, attr_name, v, nvalues_out, status);
  for (int i = 0; i < nvalues_out; ++i) {
    values_out[i] = SG_GetCode(status) == SG_OK ? (int64_t)(intptr_t)v[i] : 0;
    if (SG_GetCode(status) != SG_OK && v[i] != NULL) SG_DeleteTensor(v[i]);
  }
  free(v);
}
%}
