// The TF_ handles and value structs of sg's libtensorflow as sg's SG_ ones. Private to the
// drop-in library (c_api/dropin/*.cc); nothing here is exported.
//
// Handles: every opaque TF_X* is the SG_X* of the same object (TF_Status* is an SG_Status*,
// TF_Operation* an SG_Operation*, ...): the library never makes a TF_ object of its own for them,
// so a cast in each direction is the whole conversion. Handles sg has no SG_ type for
// (TF_DeprecatedSession, TF_CheckpointReader, TF_AttrBuilder) are defined by their .cc files.
//
// Value structs and enums: TF_Buffer, TF_Input, TF_Output, TF_AttrMetadata, TF_WhileParams and the TF_Code,
// TF_DataType and TF_AttrType numbers are checked below to be laid out as sg's, so arrays of them
// pass by cast too; single values are converted member by member anyway.
#ifndef SG_C_API_DROPIN_TF_HANDLES_H_
#define SG_C_API_DROPIN_TF_HANDLES_H_

#include <cstddef>

#include "c_api/include/sg/c_api.h"
#include "tensorflow/c/c_api.h"
#include "tensorflow/c/c_api_experimental.h"

namespace sg {
namespace dropin {

#define SG_DROPIN_SAME_HANDLE(TF, SG)                                          \
  inline SG* ToSg(TF* p) { return reinterpret_cast<SG*>(p); }                  \
  inline const SG* ToSg(const TF* p) { return reinterpret_cast<const SG*>(p); } \
  inline TF* ToTf(SG* p) { return reinterpret_cast<TF*>(p); }                  \
  inline const TF* ToTf(const SG* p) { return reinterpret_cast<const TF*>(p); }

SG_DROPIN_SAME_HANDLE(TF_Status, SG_Status)
SG_DROPIN_SAME_HANDLE(TF_Tensor, SG_Tensor)
SG_DROPIN_SAME_HANDLE(TF_SessionOptions, SG_SessionOptions)
SG_DROPIN_SAME_HANDLE(TF_Graph, SG_Graph)
SG_DROPIN_SAME_HANDLE(TF_OperationDescription, SG_OperationDescription)
SG_DROPIN_SAME_HANDLE(TF_Operation, SG_Operation)
SG_DROPIN_SAME_HANDLE(TF_ImportGraphDefOptions, SG_ImportGraphDefOptions)
SG_DROPIN_SAME_HANDLE(TF_ImportGraphDefResults, SG_ImportGraphDefResults)
SG_DROPIN_SAME_HANDLE(TF_Session, SG_Session)
SG_DROPIN_SAME_HANDLE(TF_DeviceList, SG_DeviceList)
SG_DROPIN_SAME_HANDLE(TF_Server, SG_Server)
SG_DROPIN_SAME_HANDLE(TF_Buffer, SG_Buffer)
SG_DROPIN_SAME_HANDLE(TF_Output, SG_Output)
SG_DROPIN_SAME_HANDLE(TF_Input, SG_Input)
SG_DROPIN_SAME_HANDLE(TF_Function, SG_Function)
SG_DROPIN_SAME_HANDLE(TF_FunctionOptions, SG_FunctionOptions)
SG_DROPIN_SAME_HANDLE(TF_Library, SG_Library)
#undef SG_DROPIN_SAME_HANDLE

// Arrays of handles and of layout-identical values.
inline SG_Operation** ToSg(TF_Operation** p) { return reinterpret_cast<SG_Operation**>(p); }
inline const SG_Operation* const* ToSg(const TF_Operation* const* p) {
  return reinterpret_cast<const SG_Operation* const*>(p);
}
inline SG_Tensor** ToSg(TF_Tensor** p) { return reinterpret_cast<SG_Tensor**>(p); }
inline SG_Tensor* const* ToSg(TF_Tensor* const* p) {
  return reinterpret_cast<SG_Tensor* const*>(p);
}
inline SG_Function** ToSg(TF_Function** p) { return reinterpret_cast<SG_Function**>(p); }
inline SG_Buffer** ToSg(TF_Buffer** p) { return reinterpret_cast<SG_Buffer**>(p); }
inline SG_Output** ToSg(TF_Output** p) { return reinterpret_cast<SG_Output**>(p); }
inline SG_Operation*** ToSg(TF_Operation*** p) { return reinterpret_cast<SG_Operation***>(p); }
inline SG_DataType* ToSg(TF_DataType* p) { return reinterpret_cast<SG_DataType*>(p); }
inline const SG_DataType* ToSg(const TF_DataType* p) {
  return reinterpret_cast<const SG_DataType*>(p);
}

// Single values.
inline SG_Output ToSgValue(TF_Output o) { return SG_Output{ToSg(o.oper), o.index}; }
inline SG_Input ToSgValue(TF_Input i) { return SG_Input{ToSg(i.oper), i.index}; }
inline TF_Output ToTfValue(SG_Output o) { return TF_Output{ToTf(o.oper), o.index}; }
inline TF_Buffer ToTfValue(SG_Buffer b) { return TF_Buffer{b.data, b.length, b.data_deallocator}; }
inline TF_AttrMetadata ToTfValue(SG_AttrMetadata m) {
  return TF_AttrMetadata{m.is_list, m.list_size, static_cast<TF_AttrType>(m.type), m.total_size};
}
inline SG_DataType ToSgValue(TF_DataType t) { return static_cast<SG_DataType>(t); }
inline TF_DataType ToTfValue(SG_DataType t) { return static_cast<TF_DataType>(t); }
inline SG_Code ToSgValue(TF_Code c) { return static_cast<SG_Code>(c); }
inline TF_Code ToTfValue(SG_Code c) { return static_cast<TF_Code>(c); }

// ---- Layout checks -----------------------------------------------------------------------------
#define SG_DROPIN_SAME_MEMBER(TF, SG, m)                        \
  static_assert(offsetof(TF, m) == offsetof(SG, m) &&           \
                    sizeof(TF{}.m) == sizeof(SG{}.m),           \
                #TF "." #m " is not laid out as " #SG "." #m)
#define SG_DROPIN_SAME_SIZE(TF, SG) \
  static_assert(sizeof(TF) == sizeof(SG) && alignof(TF) == alignof(SG), #TF " and " #SG " differ")

SG_DROPIN_SAME_SIZE(TF_Buffer, SG_Buffer);
SG_DROPIN_SAME_MEMBER(TF_Buffer, SG_Buffer, data);
SG_DROPIN_SAME_MEMBER(TF_Buffer, SG_Buffer, length);
SG_DROPIN_SAME_MEMBER(TF_Buffer, SG_Buffer, data_deallocator);
SG_DROPIN_SAME_SIZE(TF_Output, SG_Output);
SG_DROPIN_SAME_MEMBER(TF_Output, SG_Output, oper);
SG_DROPIN_SAME_MEMBER(TF_Output, SG_Output, index);
SG_DROPIN_SAME_SIZE(TF_Input, SG_Input);
SG_DROPIN_SAME_MEMBER(TF_Input, SG_Input, oper);
SG_DROPIN_SAME_MEMBER(TF_Input, SG_Input, index);
SG_DROPIN_SAME_SIZE(TF_AttrMetadata, SG_AttrMetadata);
SG_DROPIN_SAME_MEMBER(TF_AttrMetadata, SG_AttrMetadata, is_list);
SG_DROPIN_SAME_MEMBER(TF_AttrMetadata, SG_AttrMetadata, list_size);
SG_DROPIN_SAME_MEMBER(TF_AttrMetadata, SG_AttrMetadata, type);
SG_DROPIN_SAME_MEMBER(TF_AttrMetadata, SG_AttrMetadata, total_size);
SG_DROPIN_SAME_SIZE(TF_WhileParams, SG_WhileParams);
SG_DROPIN_SAME_MEMBER(TF_WhileParams, SG_WhileParams, ninputs);
SG_DROPIN_SAME_MEMBER(TF_WhileParams, SG_WhileParams, cond_graph);
SG_DROPIN_SAME_MEMBER(TF_WhileParams, SG_WhileParams, cond_inputs);
SG_DROPIN_SAME_MEMBER(TF_WhileParams, SG_WhileParams, cond_output);
SG_DROPIN_SAME_MEMBER(TF_WhileParams, SG_WhileParams, body_graph);
SG_DROPIN_SAME_MEMBER(TF_WhileParams, SG_WhileParams, body_inputs);
SG_DROPIN_SAME_MEMBER(TF_WhileParams, SG_WhileParams, body_outputs);
SG_DROPIN_SAME_MEMBER(TF_WhileParams, SG_WhileParams, name);
SG_DROPIN_SAME_SIZE(TF_Code, SG_Code);
SG_DROPIN_SAME_SIZE(TF_DataType, SG_DataType);
SG_DROPIN_SAME_SIZE(TF_AttrType, SG_AttrType);
#undef SG_DROPIN_SAME_MEMBER
#undef SG_DROPIN_SAME_SIZE

#define SG_DROPIN_SAME_VALUE(TF, SG) static_assert(static_cast<int>(TF) == static_cast<int>(SG), #TF)
SG_DROPIN_SAME_VALUE(TF_OK, SG_OK);
SG_DROPIN_SAME_VALUE(TF_CANCELLED, SG_CANCELLED);
SG_DROPIN_SAME_VALUE(TF_UNKNOWN, SG_UNKNOWN);
SG_DROPIN_SAME_VALUE(TF_INVALID_ARGUMENT, SG_INVALID_ARGUMENT);
SG_DROPIN_SAME_VALUE(TF_DEADLINE_EXCEEDED, SG_DEADLINE_EXCEEDED);
SG_DROPIN_SAME_VALUE(TF_NOT_FOUND, SG_NOT_FOUND);
SG_DROPIN_SAME_VALUE(TF_ALREADY_EXISTS, SG_ALREADY_EXISTS);
SG_DROPIN_SAME_VALUE(TF_PERMISSION_DENIED, SG_PERMISSION_DENIED);
SG_DROPIN_SAME_VALUE(TF_RESOURCE_EXHAUSTED, SG_RESOURCE_EXHAUSTED);
SG_DROPIN_SAME_VALUE(TF_FAILED_PRECONDITION, SG_FAILED_PRECONDITION);
SG_DROPIN_SAME_VALUE(TF_ABORTED, SG_ABORTED);
SG_DROPIN_SAME_VALUE(TF_OUT_OF_RANGE, SG_OUT_OF_RANGE);
SG_DROPIN_SAME_VALUE(TF_UNIMPLEMENTED, SG_UNIMPLEMENTED);
SG_DROPIN_SAME_VALUE(TF_INTERNAL, SG_INTERNAL);
SG_DROPIN_SAME_VALUE(TF_UNAVAILABLE, SG_UNAVAILABLE);
SG_DROPIN_SAME_VALUE(TF_DATA_LOSS, SG_DATA_LOSS);
SG_DROPIN_SAME_VALUE(TF_UNAUTHENTICATED, SG_UNAUTHENTICATED);
SG_DROPIN_SAME_VALUE(TF_FLOAT, SG_FLOAT);
SG_DROPIN_SAME_VALUE(TF_DOUBLE, SG_DOUBLE);
SG_DROPIN_SAME_VALUE(TF_INT32, SG_INT32);
SG_DROPIN_SAME_VALUE(TF_UINT8, SG_UINT8);
SG_DROPIN_SAME_VALUE(TF_INT16, SG_INT16);
SG_DROPIN_SAME_VALUE(TF_INT8, SG_INT8);
SG_DROPIN_SAME_VALUE(TF_STRING, SG_STRING);
SG_DROPIN_SAME_VALUE(TF_COMPLEX64, SG_COMPLEX64);
SG_DROPIN_SAME_VALUE(TF_INT64, SG_INT64);
SG_DROPIN_SAME_VALUE(TF_BOOL, SG_BOOL);
SG_DROPIN_SAME_VALUE(TF_QINT8, SG_QINT8);
SG_DROPIN_SAME_VALUE(TF_QUINT8, SG_QUINT8);
SG_DROPIN_SAME_VALUE(TF_QINT32, SG_QINT32);
SG_DROPIN_SAME_VALUE(TF_BFLOAT16, SG_BFLOAT16);
SG_DROPIN_SAME_VALUE(TF_QINT16, SG_QINT16);
SG_DROPIN_SAME_VALUE(TF_QUINT16, SG_QUINT16);
SG_DROPIN_SAME_VALUE(TF_UINT16, SG_UINT16);
SG_DROPIN_SAME_VALUE(TF_COMPLEX128, SG_COMPLEX128);
SG_DROPIN_SAME_VALUE(TF_HALF, SG_HALF);
SG_DROPIN_SAME_VALUE(TF_RESOURCE, SG_RESOURCE);
SG_DROPIN_SAME_VALUE(TF_VARIANT, SG_VARIANT);
SG_DROPIN_SAME_VALUE(TF_UINT32, SG_UINT32);
SG_DROPIN_SAME_VALUE(TF_UINT64, SG_UINT64);
SG_DROPIN_SAME_VALUE(TF_ATTR_STRING, SG_ATTR_STRING);
SG_DROPIN_SAME_VALUE(TF_ATTR_INT, SG_ATTR_INT);
SG_DROPIN_SAME_VALUE(TF_ATTR_FLOAT, SG_ATTR_FLOAT);
SG_DROPIN_SAME_VALUE(TF_ATTR_BOOL, SG_ATTR_BOOL);
SG_DROPIN_SAME_VALUE(TF_ATTR_TYPE, SG_ATTR_TYPE);
SG_DROPIN_SAME_VALUE(TF_ATTR_SHAPE, SG_ATTR_SHAPE);
SG_DROPIN_SAME_VALUE(TF_ATTR_TENSOR, SG_ATTR_TENSOR);
SG_DROPIN_SAME_VALUE(TF_ATTR_PLACEHOLDER, SG_ATTR_PLACEHOLDER);
SG_DROPIN_SAME_VALUE(TF_ATTR_FUNC, SG_ATTR_FUNC);
#undef SG_DROPIN_SAME_VALUE

// ---- Functions sg does not implement -----------------------------------------------------------
// Sets TF_UNIMPLEMENTED: "<function> is not implemented by sg's libtensorflow (<why>)".
void Unimplemented(TF_Status* status, const char* function, const char* why);
// For a function without a status: says so once per function on stderr.
void NoteUnimplemented(const char* function, const char* why);

}  // namespace dropin
}  // namespace sg

#endif  // SG_C_API_DROPIN_TF_HANDLES_H_
