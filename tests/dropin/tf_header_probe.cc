// Prints the facts a header set gives a client: each function's type (as the C++ ABI mangles it,
// so parameter and return types must match exactly, struct tags included), the layout of each
// value struct (offset, size and type of every member) and each enum value. tf_headers_test.sh
// compiles it once against TensorFlow's own headers and once against sg's, and compares.
// SG_PROBE_FUNCTIONS names a file of SG_PROBE_FUNCTION(TF_X) lines, written at test time from
// the functions TensorFlow's wheel exports (of ops.h and kernels.h, those sg declares).
#include <cstddef>
#include <cstdio>
#include <typeinfo>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/c_api_experimental.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/ops.h"
#include "tensorflow/c/tf_file_statistics.h"

#define SG_PROBE_FUNCTION(f) std::printf("function %s %s\n", #f, typeid(&f).name());
#define MEMBER(T, m)                                                                       \
  std::printf("member %s.%s offset %zu size %zu type %s\n", #T, #m, offsetof(T, m),        \
              sizeof(static_cast<T*>(nullptr)->m), typeid(static_cast<T*>(nullptr)->m).name());
#define SIZE(T) std::printf("size %s %zu align %zu\n", #T, sizeof(T), alignof(T));
#define VALUE(v) std::printf("value %s %lld\n", #v, static_cast<long long>(v));

int main() {
#include SG_PROBE_FUNCTIONS

  SIZE(TF_Buffer) MEMBER(TF_Buffer, data) MEMBER(TF_Buffer, length)
  MEMBER(TF_Buffer, data_deallocator)
  SIZE(TF_Input) MEMBER(TF_Input, oper) MEMBER(TF_Input, index)
  SIZE(TF_Output) MEMBER(TF_Output, oper) MEMBER(TF_Output, index)
  SIZE(TF_AttrMetadata) MEMBER(TF_AttrMetadata, is_list) MEMBER(TF_AttrMetadata, list_size)
  MEMBER(TF_AttrMetadata, type) MEMBER(TF_AttrMetadata, total_size)
  SIZE(TF_StringView) MEMBER(TF_StringView, data) MEMBER(TF_StringView, len)
  SIZE(TF_WhileParams) MEMBER(TF_WhileParams, ninputs) MEMBER(TF_WhileParams, cond_graph)
  MEMBER(TF_WhileParams, cond_inputs) MEMBER(TF_WhileParams, cond_output)
  MEMBER(TF_WhileParams, body_graph) MEMBER(TF_WhileParams, body_inputs)
  MEMBER(TF_WhileParams, body_outputs) MEMBER(TF_WhileParams, name)
  SIZE(TF_AllocatorAttributes) MEMBER(TF_AllocatorAttributes, struct_size)
  MEMBER(TF_AllocatorAttributes, on_host) VALUE(TF_ALLOCATOR_ATTRIBUTES_STRUCT_SIZE)
  SIZE(TF_FileStatistics) MEMBER(TF_FileStatistics, length)
  MEMBER(TF_FileStatistics, mtime_nsec) MEMBER(TF_FileStatistics, is_directory)
  SIZE(TF_ShapeAndType) MEMBER(TF_ShapeAndType, num_dims) MEMBER(TF_ShapeAndType, dims)
  MEMBER(TF_ShapeAndType, dtype)
  SIZE(TF_ShapeAndTypeList) MEMBER(TF_ShapeAndTypeList, num_items)
  MEMBER(TF_ShapeAndTypeList, items)
  SIZE(TStringOwnerCApi) MEMBER(TStringOwnerCApi, ref) MEMBER(TStringOwnerCApi, unref)
  MEMBER(TStringOwnerCApi, obj)
  SIZE(TF_TString) MEMBER(TF_TString, u.smll.size) MEMBER(TF_TString, u.smll.str)
  MEMBER(TF_TString, u.large.size) MEMBER(TF_TString, u.large.cap) MEMBER(TF_TString, u.large.ptr)
  MEMBER(TF_TString, u.offset.size) MEMBER(TF_TString, u.offset.offset)
  MEMBER(TF_TString, u.offset.count) MEMBER(TF_TString, u.view.size)
  MEMBER(TF_TString, u.view.ptr) MEMBER(TF_TString, u.view.owner_ref)
  MEMBER(TF_TString, u.raw.raw) VALUE(TF_TString_SmallCapacity)

  SIZE(TF_Code) SIZE(TF_DataType) SIZE(TF_AttrType) SIZE(TF_TString_Type)
  VALUE(TF_OK) VALUE(TF_CANCELLED) VALUE(TF_UNKNOWN) VALUE(TF_INVALID_ARGUMENT)
  VALUE(TF_DEADLINE_EXCEEDED) VALUE(TF_NOT_FOUND) VALUE(TF_ALREADY_EXISTS)
  VALUE(TF_PERMISSION_DENIED) VALUE(TF_UNAUTHENTICATED) VALUE(TF_RESOURCE_EXHAUSTED)
  VALUE(TF_FAILED_PRECONDITION) VALUE(TF_ABORTED) VALUE(TF_OUT_OF_RANGE) VALUE(TF_UNIMPLEMENTED)
  VALUE(TF_INTERNAL) VALUE(TF_UNAVAILABLE) VALUE(TF_DATA_LOSS)
  VALUE(TF_FLOAT) VALUE(TF_DOUBLE) VALUE(TF_INT32) VALUE(TF_UINT8) VALUE(TF_INT16) VALUE(TF_INT8)
  VALUE(TF_STRING) VALUE(TF_COMPLEX64) VALUE(TF_COMPLEX) VALUE(TF_INT64) VALUE(TF_BOOL)
  VALUE(TF_QINT8) VALUE(TF_QUINT8) VALUE(TF_QINT32) VALUE(TF_BFLOAT16) VALUE(TF_QINT16)
  VALUE(TF_QUINT16) VALUE(TF_UINT16) VALUE(TF_COMPLEX128) VALUE(TF_HALF) VALUE(TF_RESOURCE)
  VALUE(TF_VARIANT) VALUE(TF_UINT32) VALUE(TF_UINT64) VALUE(TF_FLOAT8_E5M2)
  VALUE(TF_FLOAT8_E4M3FN) VALUE(TF_FLOAT8_E4M3FNUZ) VALUE(TF_FLOAT8_E4M3B11FNUZ)
  VALUE(TF_FLOAT8_E5M2FNUZ) VALUE(TF_INT4) VALUE(TF_UINT4) VALUE(TF_INT2) VALUE(TF_UINT2)
  VALUE(TF_FLOAT4_E2M1FN)
  VALUE(TF_ATTR_STRING) VALUE(TF_ATTR_INT) VALUE(TF_ATTR_FLOAT) VALUE(TF_ATTR_BOOL)
  VALUE(TF_ATTR_TYPE) VALUE(TF_ATTR_SHAPE) VALUE(TF_ATTR_TENSOR) VALUE(TF_ATTR_PLACEHOLDER)
  VALUE(TF_ATTR_FUNC)
  VALUE(TF_TSTR_SMALL) VALUE(TF_TSTR_LARGE) VALUE(TF_TSTR_OFFSET) VALUE(TF_TSTR_VIEW)
  VALUE(TF_TSTR_TYPE_MASK)
  return 0;
}
