/* TensorFlow C API names over sg: a program written against TensorFlow 1.x's C API compiles and
 * runs with sg by replacing its include line and linking -lsg:
 *
 *   #include "sg/tf_c_api.h"          (instead of the TensorFlow C API header)
 *   cc client.c $(pkg-config --cflags --libs sg)
 *
 *   TF_Status* s = TF_NewStatus();
 *   TF_Graph* g = TF_NewGraph();
 *   TF_GraphImportGraphDef(g, def, opts, s);
 *   TF_Session* sess = TF_NewSession(g, so, s);
 *   TF_SessionRun(sess, NULL, &in, &x, 1, &out, &y, 1, NULL, 0, NULL, s);
 *
 * Every TF_ name here is a typedef or a #define of the SG_ name with the same signature and the
 * same behaviour, so it adds no symbol to libsg and no ABI of its own (the binary calls SG_*).
 * Only what sg implements as TensorFlow does is mapped; a TF_ name that is missing here is
 * missing on purpose, and the compiler says so rather than the program misbehaving at run time:
 * - not implemented by sg: the eager API.
 * - TF_LoadLibrary loads an op library that registers through sg/ops.h and sg/kernels.h (SG_
 *   names); a library written against TensorFlow's ops.h and kernels.h needs the drop-in
 *   libtensorflow.so.2 (c_api/dropin).
 * TF_Version is SG_TensorFlowVersion ("2.21.0", the TensorFlow release sg follows; sg's own
 * version is SG_Version).
 *
 * Strings. TensorFlow 1.x's string tensors (TF_StringEncode) are what TF_NewTensor,
 * TF_AllocateTensor and the fetches of graphs from TF_NewGraph hold by default. A program written
 * for TensorFlow 2.x's (TF_TString, TF_StringInit, TF_StringCopy...; see "TensorFlow 2.x
 * strings" in c_api.h) defines SG_TF2_STRINGS before including this header: TF_NewTensor and
 * TF_AllocateTensor then make TF_STRING tensors of TF_TStrings, and TF_NewGraph makes graphs
 * whose sessions, attr values and constants hand out TF_TStrings:
 *
 *   #define SG_TF2_STRINGS
 *   #include "sg/tf_c_api.h"
 *   TF_Tensor* t = TF_AllocateTensor(TF_STRING, NULL, 0, sizeof(TF_TString));
 *   TF_StringInit((TF_TString*)TF_TensorData(t));
 *   TF_StringCopy((TF_TString*)TF_TensorData(t), "hi", 2);
 *
 * Struct tags differ (`struct TF_Buffer` is not declared; write `TF_Buffer`). TF_TensorIsAligned
 * returns unsigned char, not bool; so does the unref of a TStringOwnerCApi (SG_TStringOwner).
 */
#ifndef SG_TF_C_API_H_
#define SG_TF_C_API_H_

#include "sg/c_api.h"

/* ---- Types -------------------------------------------------------------------------------- */

typedef SG_Code TF_Code;
typedef SG_DataType TF_DataType;
typedef SG_AttrType TF_AttrType;
typedef SG_AttrMetadata TF_AttrMetadata;
typedef SG_Buffer TF_Buffer;
typedef SG_Input TF_Input;
typedef SG_Output TF_Output;

typedef SG_Status TF_Status;
typedef SG_Tensor TF_Tensor;
typedef SG_SessionOptions TF_SessionOptions;
typedef SG_Graph TF_Graph;
typedef SG_OperationDescription TF_OperationDescription;
typedef SG_Operation TF_Operation;
typedef SG_ImportGraphDefOptions TF_ImportGraphDefOptions;
typedef SG_ImportGraphDefResults TF_ImportGraphDefResults;
typedef SG_Session TF_Session;
typedef SG_Library TF_Library;
typedef SG_DeviceList TF_DeviceList;
typedef SG_Server TF_Server;
typedef SG_Function TF_Function;
typedef SG_FunctionOptions TF_FunctionOptions;
typedef SG_WhileParams TF_WhileParams;
typedef SG_TString TF_TString;
typedef SG_TString_Type TF_TString_Type;
typedef SG_TStringOwner TStringOwnerCApi;

/* ---- Enum values -------------------------------------------------------------------------- */

#define TF_OK SG_OK
#define TF_CANCELLED SG_CANCELLED
#define TF_UNKNOWN SG_UNKNOWN
#define TF_INVALID_ARGUMENT SG_INVALID_ARGUMENT
#define TF_DEADLINE_EXCEEDED SG_DEADLINE_EXCEEDED
#define TF_NOT_FOUND SG_NOT_FOUND
#define TF_ALREADY_EXISTS SG_ALREADY_EXISTS
#define TF_PERMISSION_DENIED SG_PERMISSION_DENIED
#define TF_RESOURCE_EXHAUSTED SG_RESOURCE_EXHAUSTED
#define TF_FAILED_PRECONDITION SG_FAILED_PRECONDITION
#define TF_ABORTED SG_ABORTED
#define TF_OUT_OF_RANGE SG_OUT_OF_RANGE
#define TF_UNIMPLEMENTED SG_UNIMPLEMENTED
#define TF_INTERNAL SG_INTERNAL
#define TF_UNAVAILABLE SG_UNAVAILABLE
#define TF_DATA_LOSS SG_DATA_LOSS
#define TF_UNAUTHENTICATED SG_UNAUTHENTICATED

#define TF_FLOAT SG_FLOAT
#define TF_DOUBLE SG_DOUBLE
#define TF_INT32 SG_INT32
#define TF_UINT8 SG_UINT8
#define TF_INT16 SG_INT16
#define TF_INT8 SG_INT8
#define TF_STRING SG_STRING
#define TF_COMPLEX64 SG_COMPLEX64
#define TF_COMPLEX SG_COMPLEX
#define TF_INT64 SG_INT64
#define TF_BOOL SG_BOOL
#define TF_QINT8 SG_QINT8
#define TF_QUINT8 SG_QUINT8
#define TF_QINT32 SG_QINT32
#define TF_BFLOAT16 SG_BFLOAT16
#define TF_QINT16 SG_QINT16
#define TF_QUINT16 SG_QUINT16
#define TF_UINT16 SG_UINT16
#define TF_COMPLEX128 SG_COMPLEX128
#define TF_HALF SG_HALF
#define TF_RESOURCE SG_RESOURCE
#define TF_VARIANT SG_VARIANT
#define TF_UINT32 SG_UINT32
#define TF_UINT64 SG_UINT64

#define TF_ATTR_STRING SG_ATTR_STRING
#define TF_ATTR_INT SG_ATTR_INT
#define TF_ATTR_FLOAT SG_ATTR_FLOAT
#define TF_ATTR_BOOL SG_ATTR_BOOL
#define TF_ATTR_TYPE SG_ATTR_TYPE
#define TF_ATTR_SHAPE SG_ATTR_SHAPE
#define TF_ATTR_TENSOR SG_ATTR_TENSOR
#define TF_ATTR_PLACEHOLDER SG_ATTR_PLACEHOLDER
#define TF_ATTR_FUNC SG_ATTR_FUNC

#define TF_TSTR_SMALL SG_TSTR_SMALL
#define TF_TSTR_LARGE SG_TSTR_LARGE
#define TF_TSTR_OFFSET SG_TSTR_OFFSET
#define TF_TSTR_VIEW SG_TSTR_VIEW
#define TF_TSTR_TYPE_MASK SG_TSTR_TYPE_MASK
#define TF_TString_SmallCapacity SG_TSTRING_SMALL_CAPACITY

/* ---- Version ------------------------------------------------------------------------------ */

#define TF_Version SG_TensorFlowVersion

/* ---- Status ------------------------------------------------------------------------------- */

#define TF_NewStatus SG_NewStatus
#define TF_DeleteStatus SG_DeleteStatus
#define TF_SetStatus SG_SetStatus
#define TF_GetCode SG_GetCode
#define TF_Message SG_Message

/* ---- Buffers ------------------------------------------------------------------------------ */

#define TF_NewBufferFromString SG_NewBufferFromString
#define TF_NewBuffer SG_NewBuffer
#define TF_DeleteBuffer SG_DeleteBuffer
#define TF_GetBuffer SG_GetBuffer

/* ---- Data types and tensors --------------------------------------------------------------- */

#define TF_DataTypeSize SG_DataTypeSize
#ifdef SG_TF2_STRINGS
/* TF_STRING tensors of TF_TStrings (the other dtypes as without SG_TF2_STRINGS). */
static inline TF_Tensor* sg_tf2_NewTensor(TF_DataType dtype, const int64_t* dims, int num_dims,
                                          void* data, size_t len,
                                          void (*deallocator)(void* data, size_t len, void* arg),
                                          void* deallocator_arg) {
  return SG_NewTensorWithLayout(dtype, dims, num_dims, data, len, deallocator, deallocator_arg,
                                SG_STRING_LAYOUT_TSTRING);
}
static inline TF_Tensor* sg_tf2_AllocateTensor(TF_DataType dtype, const int64_t* dims,
                                               int num_dims, size_t len) {
  return SG_AllocateTensorWithLayout(dtype, dims, num_dims, len, SG_STRING_LAYOUT_TSTRING);
}
#define TF_NewTensor sg_tf2_NewTensor
#define TF_AllocateTensor sg_tf2_AllocateTensor
#else
#define TF_NewTensor SG_NewTensor
#define TF_AllocateTensor SG_AllocateTensor
#endif
#define TF_TensorMaybeMove SG_TensorMaybeMove
#define TF_TensorBitcastFrom SG_TensorBitcastFrom
#define TF_DeleteTensor SG_DeleteTensor
#define TF_TensorType SG_TensorType
#define TF_NumDims SG_NumDims
#define TF_Dim SG_Dim
#define TF_TensorByteSize SG_TensorByteSize
#define TF_TensorData SG_TensorData
#define TF_TensorElementCount SG_TensorElementCount
#define TF_TensorIsAligned SG_TensorIsAligned
#define TF_StringEncode SG_StringEncode
#define TF_StringDecode SG_StringDecode
#define TF_StringEncodedSize SG_StringEncodedSize
#define TF_StringInit SG_StringInit
#define TF_StringCopy SG_StringCopy
#define TF_StringAssignView SG_StringAssignView
#define TF_StringGetDataPointer SG_StringGetDataPointer
#define TF_StringGetType SG_StringGetType
#define TF_StringGetSize SG_StringGetSize
#define TF_StringGetCapacity SG_StringGetCapacity
#define TF_StringDealloc SG_StringDealloc

/* ---- Session options ---------------------------------------------------------------------- */

#define TF_NewSessionOptions SG_NewSessionOptions
#define TF_SetTarget SG_SetTarget
#define TF_SetConfig SG_SetConfig
#define TF_DeleteSessionOptions SG_DeleteSessionOptions

/* ---- Graphs and operations ---------------------------------------------------------------- */

#ifdef SG_TF2_STRINGS
/* A graph that hands out TF_STRING tensors of TF_TStrings (NULL when out of memory). */
static inline TF_Graph* sg_tf2_NewGraph(void) {
  SG_Graph* graph = SG_NewGraph();
  SG_Status* status = SG_NewStatus();
  if (graph != NULL && status != NULL) {
    SG_GraphSetStringLayout(graph, SG_STRING_LAYOUT_TSTRING, status);
  }
  if (status == NULL || SG_GetCode(status) != SG_OK) {
    SG_DeleteGraph(graph);
    graph = NULL;
  }
  SG_DeleteStatus(status);
  return graph;
}
#define TF_NewGraph sg_tf2_NewGraph
#else
#define TF_NewGraph SG_NewGraph
#endif
#define TF_DeleteGraph SG_DeleteGraph
#define TF_GraphSetTensorShape SG_GraphSetTensorShape
#define TF_GraphGetTensorNumDims SG_GraphGetTensorNumDims
#define TF_GraphGetTensorShape SG_GraphGetTensorShape

#define TF_NewOperation SG_NewOperation
#define TF_SetDevice SG_SetDevice
#define TF_AddInput SG_AddInput
#define TF_AddInputList SG_AddInputList
#define TF_AddControlInput SG_AddControlInput
#define TF_ColocateWith SG_ColocateWith
#define TF_SetAttrString SG_SetAttrString
#define TF_SetAttrStringList SG_SetAttrStringList
#define TF_SetAttrInt SG_SetAttrInt
#define TF_SetAttrIntList SG_SetAttrIntList
#define TF_SetAttrFloat SG_SetAttrFloat
#define TF_SetAttrFloatList SG_SetAttrFloatList
#define TF_SetAttrBool SG_SetAttrBool
#define TF_SetAttrBoolList SG_SetAttrBoolList
#define TF_SetAttrType SG_SetAttrType
#define TF_SetAttrTypeList SG_SetAttrTypeList
#define TF_SetAttrPlaceholder SG_SetAttrPlaceholder
#define TF_SetAttrFuncName SG_SetAttrFuncName
#define TF_SetAttrShape SG_SetAttrShape
#define TF_SetAttrShapeList SG_SetAttrShapeList
#define TF_SetAttrTensorShapeProto SG_SetAttrTensorShapeProto
#define TF_SetAttrTensorShapeProtoList SG_SetAttrTensorShapeProtoList
#define TF_SetAttrTensor SG_SetAttrTensor
#define TF_SetAttrTensorList SG_SetAttrTensorList
#define TF_SetAttrValueProto SG_SetAttrValueProto
#define TF_FinishOperation SG_FinishOperation

#define TF_OperationName SG_OperationName
#define TF_OperationOpType SG_OperationOpType
#define TF_OperationDevice SG_OperationDevice
#define TF_OperationNumOutputs SG_OperationNumOutputs
#define TF_OperationOutputType SG_OperationOutputType
#define TF_OperationOutputListLength SG_OperationOutputListLength
#define TF_OperationNumInputs SG_OperationNumInputs
#define TF_OperationInputType SG_OperationInputType
#define TF_OperationInputListLength SG_OperationInputListLength
#define TF_OperationInput SG_OperationInput
#define TF_OperationOutputNumConsumers SG_OperationOutputNumConsumers
#define TF_OperationOutputConsumers SG_OperationOutputConsumers
#define TF_OperationNumControlInputs SG_OperationNumControlInputs
#define TF_OperationGetControlInputs SG_OperationGetControlInputs
#define TF_OperationNumControlOutputs SG_OperationNumControlOutputs
#define TF_OperationGetControlOutputs SG_OperationGetControlOutputs
#define TF_OperationGetAttrMetadata SG_OperationGetAttrMetadata
#define TF_OperationGetAttrString SG_OperationGetAttrString
#define TF_OperationGetAttrStringList SG_OperationGetAttrStringList
#define TF_OperationGetAttrInt SG_OperationGetAttrInt
#define TF_OperationGetAttrIntList SG_OperationGetAttrIntList
#define TF_OperationGetAttrFloat SG_OperationGetAttrFloat
#define TF_OperationGetAttrFloatList SG_OperationGetAttrFloatList
#define TF_OperationGetAttrBool SG_OperationGetAttrBool
#define TF_OperationGetAttrBoolList SG_OperationGetAttrBoolList
#define TF_OperationGetAttrType SG_OperationGetAttrType
#define TF_OperationGetAttrTypeList SG_OperationGetAttrTypeList
#define TF_OperationGetAttrShape SG_OperationGetAttrShape
#define TF_OperationGetAttrShapeList SG_OperationGetAttrShapeList
#define TF_OperationGetAttrTensorShapeProto SG_OperationGetAttrTensorShapeProto
#define TF_OperationGetAttrTensorShapeProtoList SG_OperationGetAttrTensorShapeProtoList
#define TF_OperationGetAttrTensor SG_OperationGetAttrTensor
#define TF_OperationGetAttrTensorList SG_OperationGetAttrTensorList
#define TF_OperationGetAttrValueProto SG_OperationGetAttrValueProto
#define TF_OperationToNodeDef SG_OperationToNodeDef

#define TF_GraphOperationByName SG_GraphOperationByName
#define TF_GraphNextOperation SG_GraphNextOperation
#define TF_GraphToGraphDef SG_GraphToGraphDef
#define TF_GraphGetOpDef SG_GraphGetOpDef
#define TF_GraphVersions SG_GraphVersions
#define TF_GraphToFunction SG_GraphToFunction
#define TF_GraphToFunctionWithControlOutputs SG_GraphToFunctionWithControlOutputs
#define TF_FunctionName SG_FunctionName
#define TF_FunctionToFunctionDef SG_FunctionToFunctionDef
#define TF_FunctionImportFunctionDef SG_FunctionImportFunctionDef
#define TF_FunctionSetAttrValueProto SG_FunctionSetAttrValueProto
#define TF_FunctionGetAttrValueProto SG_FunctionGetAttrValueProto
#define TF_DeleteFunction SG_DeleteFunction
#define TF_GraphCopyFunction SG_GraphCopyFunction
#define TF_GraphNumFunctions SG_GraphNumFunctions
#define TF_GraphGetFunctions SG_GraphGetFunctions
#define TF_GraphRemoveFunction SG_GraphRemoveFunction
#define TF_NewWhile SG_NewWhile
#define TF_FinishWhile SG_FinishWhile
#define TF_AbortWhile SG_AbortWhile
#define TF_GetAllOpList SG_GetAllOpList
#define TF_LoadLibrary SG_LoadLibrary
#define TF_GetOpList SG_GetOpList
#define TF_DeleteLibraryHandle SG_DeleteLibraryHandle
#define TF_TryEvaluateConstant SG_TryEvaluateConstant
#define TF_GetAllRegisteredKernels SG_GetAllRegisteredKernels
#define TF_GetRegisteredKernelsForOp SG_GetRegisteredKernelsForOp

/* ---- GraphDef import ---------------------------------------------------------------------- */

#define TF_NewImportGraphDefOptions SG_NewImportGraphDefOptions
#define TF_DeleteImportGraphDefOptions SG_DeleteImportGraphDefOptions
#define TF_ImportGraphDefOptionsSetPrefix SG_ImportGraphDefOptionsSetPrefix
#define TF_ImportGraphDefOptionsSetDefaultDevice SG_ImportGraphDefOptionsSetDefaultDevice
#define TF_ImportGraphDefOptionsSetUniquifyNames SG_ImportGraphDefOptionsSetUniquifyNames
#define TF_ImportGraphDefOptionsSetUniquifyPrefix SG_ImportGraphDefOptionsSetUniquifyPrefix
#define TF_ImportGraphDefOptionsAddInputMapping SG_ImportGraphDefOptionsAddInputMapping
#define TF_ImportGraphDefOptionsRemapControlDependency \
  SG_ImportGraphDefOptionsRemapControlDependency
#define TF_ImportGraphDefOptionsAddControlDependency SG_ImportGraphDefOptionsAddControlDependency
#define TF_ImportGraphDefOptionsAddReturnOutput SG_ImportGraphDefOptionsAddReturnOutput
#define TF_ImportGraphDefOptionsNumReturnOutputs SG_ImportGraphDefOptionsNumReturnOutputs
#define TF_ImportGraphDefOptionsAddReturnOperation SG_ImportGraphDefOptionsAddReturnOperation
#define TF_ImportGraphDefOptionsNumReturnOperations SG_ImportGraphDefOptionsNumReturnOperations
#define TF_GraphImportGraphDefWithResults SG_GraphImportGraphDefWithResults
#define TF_ImportGraphDefResultsReturnOutputs SG_ImportGraphDefResultsReturnOutputs
#define TF_ImportGraphDefResultsReturnOperations SG_ImportGraphDefResultsReturnOperations
#define TF_ImportGraphDefResultsMissingUnusedInputMappings \
  SG_ImportGraphDefResultsMissingUnusedInputMappings
#define TF_DeleteImportGraphDefResults SG_DeleteImportGraphDefResults
#define TF_GraphImportGraphDefWithReturnOutputs SG_GraphImportGraphDefWithReturnOutputs
#define TF_GraphImportGraphDef SG_GraphImportGraphDef
#define TF_AddGradients SG_AddGradients
#define TF_AddGradientsWithPrefix SG_AddGradientsWithPrefix

/* ---- Sessions ----------------------------------------------------------------------------- */

#define TF_NewSession SG_NewSession
#define TF_CloseSession SG_CloseSession
#define TF_DeleteSession SG_DeleteSession
#define TF_SessionRun SG_SessionRun
#define TF_SessionPRunSetup SG_SessionPRunSetup
#define TF_SessionPRun SG_SessionPRun
#define TF_DeletePRunHandle SG_DeletePRunHandle
#define TF_SessionListDevices SG_SessionListDevices
#define TF_DeleteDeviceList SG_DeleteDeviceList
#define TF_DeviceListCount SG_DeviceListCount
#define TF_DeviceListName SG_DeviceListName
#define TF_DeviceListType SG_DeviceListType
#define TF_DeviceListMemoryBytes SG_DeviceListMemoryBytes
#define TF_DeviceListIncarnation SG_DeviceListIncarnation
#define TF_Reset SG_Reset
#define TF_LoadSessionFromSavedModel SG_LoadSessionFromSavedModel

/* ---- Servers (distributed runtime) -------------------------------------------------------- */

#define TF_NewServer SG_NewServer
#define TF_ServerStart SG_ServerStart
#define TF_ServerStop SG_ServerStop
#define TF_ServerJoin SG_ServerJoin
#define TF_ServerTarget SG_ServerTarget
#define TF_DeleteServer SG_DeleteServer

#endif /* SG_TF_C_API_H_ */
