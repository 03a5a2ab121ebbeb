/* sg's copy of TensorFlow 2.21's tensorflow/c/c_api.h: build or import a graph, run it in a
 * session. It declares TensorFlow's functions with TensorFlow's signatures and struct layouts, so
 * that a TensorFlow C client compiles against it unchanged and runs with sg's libtensorflow.so.2
 * (c_api/dropin); the comments are sg's. The semantics are TensorFlow's ("as TensorFlow's TF_X");
 * where sg differs or cannot honour a function, its comment says so. A function sg does not
 * implement still links and fails with TF_UNIMPLEMENTED and a message naming it (NULL or 0 where
 * it has no status). The eager API (TFE_*) is not part of sg.
 *
 *   TF_Status* s = TF_NewStatus();
 *   TF_Graph* g = TF_NewGraph();
 *   TF_ImportGraphDefOptions* io = TF_NewImportGraphDefOptions();
 *   TF_GraphImportGraphDef(g, graph_def, io, s);             // a TF_Buffer with a .pb's bytes
 *   TF_SessionOptions* so = TF_NewSessionOptions();
 *   TF_Session* sess = TF_NewSession(g, so, s);
 *   TF_Output in = {TF_GraphOperationByName(g, "x"), 0}, out = {TF_GraphOperationByName(g, "y"), 0};
 *   TF_Tensor* y = NULL;
 *   TF_SessionRun(sess, NULL, &in, &x, 1, &out, &y, 1, NULL, 0, NULL, s);
 *   if (TF_GetCode(s) != TF_OK) fprintf(stderr, "%s\n", TF_Message(s));
 *
 * Conventions, as TensorFlow's: a fallible function takes a TF_Status* last; strings passed in are
 * copied; strings returned belong to the object that returned them; TF_New* pairs with
 * TF_Delete*, and the deletes accept NULL. sg reports NULL handles and bad counts as
 * TF_INVALID_ARGUMENT rather than crashing. */
#ifndef TENSORFLOW_C_C_API_H_
#define TENSORFLOW_C_C_API_H_

#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/tf_attrtype.h"
#include "tensorflow/c/tf_buffer.h"
#include "tensorflow/c/tf_datatype.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"
#include "tensorflow/c/tf_tstring.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Version and tensors from protos ---------------------------------------------------- */

/* The library's version string. */
TF_CAPI_EXPORT extern const char* TF_Version(void);

/* Replaces the contents of `to` by the tensor of serialized TensorProto `from`. */
TF_CAPI_EXPORT extern void TF_TensorFromProto(const TF_Buffer* from, TF_Tensor* to,
                                              TF_Status* status);

/* Bytes that are not NUL-terminated. */
typedef struct TF_StringView {
  const char* data;
  size_t len;
} TF_StringView;

/* ---- TensorFlow 1.x string encoding ------------------------------------------------------
 * Removed from TensorFlow in 2.4; sg keeps them so that 1.x clients build and run: TF_STRING
 * tensors of sg's libtensorflow hold n uint64 offsets followed by the strings, each a varint
 * length and its bytes, as TensorFlow 1.x's. */

/* Writes `src` (varint length, bytes) into `dst`; returns the bytes written, or 0 with
 * TF_INVALID_ARGUMENT when `dst_len` is too small. */
TF_CAPI_EXPORT extern size_t TF_StringEncode(const char* src, size_t src_len, char* dst,
                                             size_t dst_len, TF_Status* status);

/* Reads one encoded string at `src`: *dst points into `src`, *dst_len is its length; returns the
 * bytes consumed, or 0 with TF_INVALID_ARGUMENT for a malformed encoding. */
TF_CAPI_EXPORT extern size_t TF_StringDecode(const char* src, size_t src_len, const char** dst,
                                             size_t* dst_len, TF_Status* status);

/* The bytes TF_StringEncode writes for a string of `len` bytes. */
TF_CAPI_EXPORT extern size_t TF_StringEncodedSize(size_t len);

/* ---- Session options ---------------------------------------------------------------------- */

typedef struct TF_SessionOptions TF_SessionOptions;

/* New options (local target, default config); freed with TF_DeleteSessionOptions. */
TF_CAPI_EXPORT extern TF_SessionOptions* TF_NewSessionOptions(void);

/* The target: "" or "local" in process, "grpc://host:port" for a server of sg's. */
TF_CAPI_EXPORT extern void TF_SetTarget(TF_SessionOptions* options, const char* target);

/* Sets the config from a serialized ConfigProto; TF_INVALID_ARGUMENT when it does not parse. */
TF_CAPI_EXPORT extern void TF_SetConfig(TF_SessionOptions* options, const void* proto,
                                        size_t proto_len, TF_Status* status);

TF_CAPI_EXPORT extern void TF_DeleteSessionOptions(TF_SessionOptions*);

/* ---- Graphs ------------------------------------------------------------------------------- */

typedef struct TF_Graph TF_Graph;

/* A new empty graph; TF_DeleteGraph drops it (it lives on while sessions use it). */
TF_CAPI_EXPORT extern TF_Graph* TF_NewGraph(void);
TF_CAPI_EXPORT extern void TF_DeleteGraph(TF_Graph*);

typedef struct TF_OperationDescription TF_OperationDescription;
typedef struct TF_Operation TF_Operation;

/* One input of an operation (`index` among its inputs) or one output. */
typedef struct TF_Input {
  TF_Operation* oper;
  int index;
} TF_Input;

typedef struct TF_Output {
  TF_Operation* oper;
  int index;
} TF_Output;

typedef struct TF_Function TF_Function;
typedef struct TF_FunctionOptions TF_FunctionOptions;

/* Narrows the static shape of `output` (-1 for an unknown dim); an incompatible shape is
 * TF_INVALID_ARGUMENT. */
TF_CAPI_EXPORT extern void TF_GraphSetTensorShape(TF_Graph* graph, TF_Output output,
                                                  const int64_t* dims, const int num_dims,
                                                  TF_Status* status);

/* The static rank of `output`, -1 when unknown. */
TF_CAPI_EXPORT extern int TF_GraphGetTensorNumDims(TF_Graph* graph, TF_Output output,
                                                   TF_Status* status);

/* Writes the static dims of `output` (-1 unknown) into dims[0..num_dims), num_dims being its
 * rank. */
TF_CAPI_EXPORT extern void TF_GraphGetTensorShape(TF_Graph* graph, TF_Output output,
                                                  int64_t* dims, int num_dims,
                                                  TF_Status* status);

/* ---- Building operations ------------------------------------------------------------------
 * TF_NewOperation, then inputs and attrs, then TF_FinishOperation, which adds the operation to
 * the graph or reports the first error (and frees the description either way). */

/* As TF_NewOperation; TensorFlow's variant for callers holding the graph's lock, which a C client
 * cannot hold: in sg the two are the same. */
TF_CAPI_EXPORT extern TF_OperationDescription* TF_NewOperationLocked(TF_Graph* graph,
                                                                     const char* op_type,
                                                                     const char* oper_name);
TF_CAPI_EXPORT extern TF_OperationDescription* TF_NewOperation(TF_Graph* graph,
                                                               const char* op_type,
                                                               const char* oper_name);

TF_CAPI_EXPORT extern void TF_SetDevice(TF_OperationDescription* desc, const char* device);

/* Adds the next input (one tensor), or a list input. */
TF_CAPI_EXPORT extern void TF_AddInput(TF_OperationDescription* desc, TF_Output input);
TF_CAPI_EXPORT extern void TF_AddInputList(TF_OperationDescription* desc,
                                           const TF_Output* inputs, int num_inputs);

/* The operation runs after `input`. */
TF_CAPI_EXPORT extern void TF_AddControlInput(TF_OperationDescription* desc,
                                              TF_Operation* input);

/* The operation goes on the device of `op`. */
TF_CAPI_EXPORT extern void TF_ColocateWith(TF_OperationDescription* desc, TF_Operation* op);

/* Attr setters: the values are copied. */
TF_CAPI_EXPORT extern void TF_SetAttrString(TF_OperationDescription* desc,
                                            const char* attr_name, const void* value,
                                            size_t length);
TF_CAPI_EXPORT extern void TF_SetAttrStringList(TF_OperationDescription* desc,
                                                const char* attr_name,
                                                const void* const* values,
                                                const size_t* lengths, int num_values);
TF_CAPI_EXPORT extern void TF_SetAttrInt(TF_OperationDescription* desc, const char* attr_name,
                                         int64_t value);
TF_CAPI_EXPORT extern void TF_SetAttrIntList(TF_OperationDescription* desc,
                                             const char* attr_name, const int64_t* values,
                                             int num_values);
TF_CAPI_EXPORT extern void TF_SetAttrFloat(TF_OperationDescription* desc,
                                           const char* attr_name, float value);
TF_CAPI_EXPORT extern void TF_SetAttrFloatList(TF_OperationDescription* desc,
                                               const char* attr_name, const float* values,
                                               int num_values);
TF_CAPI_EXPORT extern void TF_SetAttrBool(TF_OperationDescription* desc, const char* attr_name,
                                          unsigned char value);
TF_CAPI_EXPORT extern void TF_SetAttrBoolList(TF_OperationDescription* desc,
                                              const char* attr_name,
                                              const unsigned char* values, int num_values);
TF_CAPI_EXPORT extern void TF_SetAttrType(TF_OperationDescription* desc, const char* attr_name,
                                          TF_DataType value);
TF_CAPI_EXPORT extern void TF_SetAttrTypeList(TF_OperationDescription* desc,
                                              const char* attr_name, const TF_DataType* values,
                                              int num_values);
TF_CAPI_EXPORT extern void TF_SetAttrPlaceholder(TF_OperationDescription* desc,
                                                 const char* attr_name,
                                                 const char* placeholder);
TF_CAPI_EXPORT extern void TF_SetAttrFuncName(TF_OperationDescription* desc,
                                              const char* attr_name, const char* value,
                                              size_t length);
/* num_dims -1: unknown rank; a dim of -1: unknown size. */
TF_CAPI_EXPORT extern void TF_SetAttrShape(TF_OperationDescription* desc, const char* attr_name,
                                           const int64_t* dims, int num_dims);
TF_CAPI_EXPORT extern void TF_SetAttrShapeList(TF_OperationDescription* desc,
                                               const char* attr_name,
                                               const int64_t* const* dims, const int* num_dims,
                                               int num_shapes);
/* Serialized TensorShapeProto(s). */
TF_CAPI_EXPORT extern void TF_SetAttrTensorShapeProto(TF_OperationDescription* desc,
                                                      const char* attr_name, const void* proto,
                                                      size_t proto_len, TF_Status* status);
TF_CAPI_EXPORT extern void TF_SetAttrTensorShapeProtoList(TF_OperationDescription* desc,
                                                          const char* attr_name,
                                                          const void* const* protos,
                                                          const size_t* proto_lens,
                                                          int num_shapes, TF_Status* status);
/* The tensor's contents are copied; the caller keeps `value`. */
TF_CAPI_EXPORT extern void TF_SetAttrTensor(TF_OperationDescription* desc,
                                            const char* attr_name, TF_Tensor* value,
                                            TF_Status* status);
TF_CAPI_EXPORT extern void TF_SetAttrTensorList(TF_OperationDescription* desc,
                                                const char* attr_name,
                                                TF_Tensor* const* values, int num_values,
                                                TF_Status* status);
/* A serialized AttrValue. */
TF_CAPI_EXPORT extern void TF_SetAttrValueProto(TF_OperationDescription* desc,
                                                const char* attr_name, const void* proto,
                                                size_t proto_len, TF_Status* status);

/* As TF_FinishOperation (see TF_NewOperationLocked). */
TF_CAPI_EXPORT extern TF_Operation* TF_FinishOperationLocked(TF_OperationDescription* desc,
                                                             TF_Status* status);
/* Adds the operation to the graph and frees `desc`; NULL and an error when the op is unknown,
 * inputs or attrs do not fit its definition, or its shape function fails. */
TF_CAPI_EXPORT extern TF_Operation* TF_FinishOperation(TF_OperationDescription* desc,
                                                       TF_Status* status);

/* ---- Reading operations ------------------------------------------------------------------- */

TF_CAPI_EXPORT extern const char* TF_OperationName(TF_Operation* oper);
TF_CAPI_EXPORT extern const char* TF_OperationOpType(TF_Operation* oper);
TF_CAPI_EXPORT extern const char* TF_OperationDevice(TF_Operation* oper);

TF_CAPI_EXPORT extern int TF_OperationNumOutputs(TF_Operation* oper);
TF_CAPI_EXPORT extern TF_DataType TF_OperationOutputType(TF_Output oper_out);
/* The number of tensors of output arg `arg_name` (a list arg may have several). */
TF_CAPI_EXPORT extern int TF_OperationOutputListLength(TF_Operation* oper, const char* arg_name,
                                                       TF_Status* status);

TF_CAPI_EXPORT extern int TF_OperationNumInputs(TF_Operation* oper);
TF_CAPI_EXPORT extern TF_DataType TF_OperationInputType(TF_Input oper_in);
TF_CAPI_EXPORT extern int TF_OperationInputListLength(TF_Operation* oper, const char* arg_name,
                                                      TF_Status* status);

/* The output feeding input `oper_in`. */
TF_CAPI_EXPORT extern TF_Output TF_OperationInput(TF_Input oper_in);

/* Writes the outputs feeding the first `max_inputs` inputs of `oper` into `inputs`;
 * max_inputs should be TF_OperationNumInputs(oper). */
TF_CAPI_EXPORT extern void TF_OperationAllInputs(TF_Operation* oper, TF_Output* inputs,
                                                 int max_inputs);

/* The inputs reading `oper_out`: their count, and up to `max_consumers` of them (returns the
 * count). */
TF_CAPI_EXPORT extern int TF_OperationOutputNumConsumers(TF_Output oper_out);
TF_CAPI_EXPORT extern int TF_OperationOutputConsumers(TF_Output oper_out, TF_Input* consumers,
                                                      int max_consumers);

/* Control edges in and out; the getters write up to max_* operations and return the count. */
TF_CAPI_EXPORT extern int TF_OperationNumControlInputs(TF_Operation* oper);
TF_CAPI_EXPORT extern int TF_OperationGetControlInputs(TF_Operation* oper,
                                                       TF_Operation** control_inputs,
                                                       int max_control_inputs);
TF_CAPI_EXPORT extern int TF_OperationNumControlOutputs(TF_Operation* oper);
TF_CAPI_EXPORT extern int TF_OperationGetControlOutputs(TF_Operation* oper,
                                                        TF_Operation** control_outputs,
                                                        int max_control_outputs);

/* What an attr holds: list_size is -1 for a single value; total_size is the byte length of a
 * string (list: the sum), the rank of a shape (list: the sum of known ranks), else -1. */
typedef struct TF_AttrMetadata {
  unsigned char is_list;
  int64_t list_size;
  TF_AttrType type;
  int64_t total_size;
} TF_AttrMetadata;

TF_CAPI_EXPORT extern TF_AttrMetadata TF_OperationGetAttrMetadata(TF_Operation* oper,
                                                                  const char* attr_name,
                                                                  TF_Status* status);

/* Attr getters, sized from TF_OperationGetAttrMetadata. Lists write at most max_values values;
 * string and shape lists put their bytes or dims into the caller's `storage`. */
TF_CAPI_EXPORT extern void TF_OperationGetAttrString(TF_Operation* oper, const char* attr_name,
                                                     void* value, size_t max_length,
                                                     TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrStringList(TF_Operation* oper,
                                                         const char* attr_name, void** values,
                                                         size_t* lengths, int max_values,
                                                         void* storage, size_t storage_size,
                                                         TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrInt(TF_Operation* oper, const char* attr_name,
                                                  int64_t* value, TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrIntList(TF_Operation* oper,
                                                      const char* attr_name, int64_t* values,
                                                      int max_values, TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrFloat(TF_Operation* oper, const char* attr_name,
                                                    float* value, TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrFloatList(TF_Operation* oper,
                                                        const char* attr_name, float* values,
                                                        int max_values, TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrBool(TF_Operation* oper, const char* attr_name,
                                                   unsigned char* value, TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrBoolList(TF_Operation* oper,
                                                       const char* attr_name,
                                                       unsigned char* values, int max_values,
                                                       TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrType(TF_Operation* oper, const char* attr_name,
                                                   TF_DataType* value, TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrTypeList(TF_Operation* oper,
                                                       const char* attr_name,
                                                       TF_DataType* values, int max_values,
                                                       TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrShape(TF_Operation* oper, const char* attr_name,
                                                    int64_t* value, int num_dims,
                                                    TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrShapeList(TF_Operation* oper,
                                                        const char* attr_name, int64_t** dims,
                                                        int* num_dims, int num_shapes,
                                                        int64_t* storage, int storage_size,
                                                        TF_Status* status);
/* Serialized TensorShapeProto(s) into the caller's buffers (freed with TF_DeleteBuffer). */
TF_CAPI_EXPORT extern void TF_OperationGetAttrTensorShapeProto(TF_Operation* oper,
                                                               const char* attr_name,
                                                               TF_Buffer* value,
                                                               TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrTensorShapeProtoList(TF_Operation* oper,
                                                                   const char* attr_name,
                                                                   TF_Buffer** values,
                                                                   int max_values,
                                                                   TF_Status* status);
/* New tensors the caller deletes. */
TF_CAPI_EXPORT extern void TF_OperationGetAttrTensor(TF_Operation* oper, const char* attr_name,
                                                     TF_Tensor** value, TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrTensorList(TF_Operation* oper,
                                                         const char* attr_name,
                                                         TF_Tensor** values, int max_values,
                                                         TF_Status* status);
/* The serialized AttrValue. */
TF_CAPI_EXPORT extern void TF_OperationGetAttrValueProto(TF_Operation* oper,
                                                         const char* attr_name,
                                                         TF_Buffer* output_attr_value,
                                                         TF_Status* status);

/* The number of attrs of `oper`, and the name of the i-th (in sg: in name order). The caller's
 * `output` has room for TF_OperationGetAttrNameLength(oper, i) bytes; no NUL is written. */
TF_CAPI_EXPORT extern int TF_OperationGetNumAttrs(TF_Operation* oper);
TF_CAPI_EXPORT extern int TF_OperationGetAttrNameLength(TF_Operation* oper, int i);
TF_CAPI_EXPORT extern void TF_OperationGetAttrName(TF_Operation* oper, int i, char* output,
                                                   TF_Status* status);

/* The operation named `oper_name`, or NULL. */
TF_CAPI_EXPORT extern TF_Operation* TF_GraphOperationByName(TF_Graph* graph,
                                                            const char* oper_name);

/* Iterates the operations: start with *pos = 0; NULL at the end. */
TF_CAPI_EXPORT extern TF_Operation* TF_GraphNextOperation(TF_Graph* graph, size_t* pos);

/* The graph as a serialized GraphDef, into an empty caller buffer. */
TF_CAPI_EXPORT extern void TF_GraphToGraphDef(TF_Graph* graph, TF_Buffer* output_graph_def,
                                              TF_Status* status);

/* The serialized OpDef of op type `op_name`. */
TF_CAPI_EXPORT extern void TF_GraphGetOpDef(TF_Graph* graph, const char* op_name,
                                            TF_Buffer* output_op_def, TF_Status* status);

/* The serialized VersionDef of the graph. */
TF_CAPI_EXPORT extern void TF_GraphVersions(TF_Graph* graph, TF_Buffer* output_version_def,
                                            TF_Status* status);

/* ---- Importing a GraphDef ----------------------------------------------------------------- */

typedef struct TF_ImportGraphDefOptions TF_ImportGraphDefOptions;

TF_CAPI_EXPORT extern TF_ImportGraphDefOptions* TF_NewImportGraphDefOptions(void);
TF_CAPI_EXPORT extern void TF_DeleteImportGraphDefOptions(TF_ImportGraphDefOptions* opts);

/* Imported names become "<prefix>/<name>". */
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsSetPrefix(TF_ImportGraphDefOptions* opts,
                                                             const char* prefix);
/* The device of imported nodes that name none. */
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsSetDefaultDevice(
    TF_ImportGraphDefOptions* opts, const char* device);
/* Rename imported nodes whose names are taken (and, for the prefix, the prefix itself). */
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsSetUniquifyNames(
    TF_ImportGraphDefOptions* opts, unsigned char uniquify_names);
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsSetUniquifyPrefix(
    TF_ImportGraphDefOptions* opts, unsigned char uniquify_prefix);
/* Reads of src_name:src_index in the GraphDef read `dst` of the graph instead. */
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsAddInputMapping(
    TF_ImportGraphDefOptions* opts, const char* src_name, int src_index, TF_Output dst);
/* Control edges from `src_name` come from `dst` instead. */
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsRemapControlDependency(
    TF_ImportGraphDefOptions* opts, const char* src_name, TF_Operation* dst);
/* Every imported node without inputs runs after `oper`. */
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsAddControlDependency(
    TF_ImportGraphDefOptions* opts, TF_Operation* oper);
/* Outputs and operations to hand back in the results, in order. */
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsAddReturnOutput(
    TF_ImportGraphDefOptions* opts, const char* oper_name, int index);
TF_CAPI_EXPORT extern int TF_ImportGraphDefOptionsNumReturnOutputs(
    const TF_ImportGraphDefOptions* opts);
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsAddReturnOperation(
    TF_ImportGraphDefOptions* opts, const char* oper_name);
TF_CAPI_EXPORT extern int TF_ImportGraphDefOptionsNumReturnOperations(
    const TF_ImportGraphDefOptions* opts);

typedef struct TF_ImportGraphDefResults TF_ImportGraphDefResults;

/* Arrays owned by `results`. */
TF_CAPI_EXPORT extern void TF_ImportGraphDefResultsReturnOutputs(
    TF_ImportGraphDefResults* results, int* num_outputs, TF_Output** outputs);
TF_CAPI_EXPORT extern void TF_ImportGraphDefResultsReturnOperations(
    TF_ImportGraphDefResults* results, int* num_opers, TF_Operation*** opers);
/* Input mappings whose source the GraphDef does not have. */
TF_CAPI_EXPORT extern void TF_ImportGraphDefResultsMissingUnusedInputMappings(
    TF_ImportGraphDefResults* results, int* num_missing_unused_input_mappings,
    const char*** src_names, int** src_indexes);
TF_CAPI_EXPORT extern void TF_DeleteImportGraphDefResults(TF_ImportGraphDefResults* results);

/* Imports a serialized GraphDef; on error the graph is unchanged and NULL is returned. */
TF_CAPI_EXPORT extern TF_ImportGraphDefResults* TF_GraphImportGraphDefWithResults(
    TF_Graph* graph, const TF_Buffer* graph_def, const TF_ImportGraphDefOptions* options,
    TF_Status* status);
/* TensorFlow's variant whose buffer holds a C++ tensorflow::GraphDef object: not available in sg
 * (TF_UNIMPLEMENTED); pass the serialized bytes to TF_GraphImportGraphDefWithResults. */
TF_CAPI_EXPORT extern TF_ImportGraphDefResults* TF_GraphImportGraphDefWithResultsNoSerialization(
    TF_Graph* graph, const TF_Buffer* graph_def, const TF_ImportGraphDefOptions* options,
    TF_Status* status);
/* Imports and writes the requested return outputs (num_return_outputs must be their count). */
TF_CAPI_EXPORT extern void TF_GraphImportGraphDefWithReturnOutputs(
    TF_Graph* graph, const TF_Buffer* graph_def, const TF_ImportGraphDefOptions* options,
    TF_Output* return_outputs, int num_return_outputs, TF_Status* status);
TF_CAPI_EXPORT extern void TF_GraphImportGraphDef(TF_Graph* graph, const TF_Buffer* graph_def,
                                                  const TF_ImportGraphDefOptions* options,
                                                  TF_Status* status);

/* ---- Functions (sg/c_api.h "Functions built from C" documents each: SG_GraphCopyFunction...) */

TF_CAPI_EXPORT extern void TF_GraphCopyFunction(TF_Graph* g, const TF_Function* func,
                                                const TF_Function* grad, TF_Status* status);
/* The number of functions in the graph's library (imported with a GraphDef or copied in). */
TF_CAPI_EXPORT extern int TF_GraphNumFunctions(TF_Graph* g);
TF_CAPI_EXPORT extern int TF_GraphGetFunctions(TF_Graph* g, TF_Function** funcs, int max_func,
                                               TF_Status* status);

/* The NodeDef of `oper`, serialized into an empty caller buffer. */
TF_CAPI_EXPORT extern void TF_OperationToNodeDef(TF_Operation* oper, TF_Buffer* output_node_def,
                                                 TF_Status* status);

/* ---- While loops built from C (sg/c_api.h "While loops built from C" documents each) ------- */

typedef struct TF_WhileParams {
  const int ninputs;
  TF_Graph* const cond_graph;
  const TF_Output* const cond_inputs;
  TF_Output cond_output;
  TF_Graph* const body_graph;
  const TF_Output* const body_inputs;
  TF_Output* const body_outputs;
  const char* name;
} TF_WhileParams;

TF_CAPI_EXPORT extern TF_WhileParams TF_NewWhile(TF_Graph* g, TF_Output* inputs, int ninputs,
                                                 TF_Status* status);
TF_CAPI_EXPORT extern void TF_FinishWhile(const TF_WhileParams* params, TF_Status* status,
                                          TF_Output* outputs);
TF_CAPI_EXPORT extern void TF_AbortWhile(const TF_WhileParams* params);

/* ---- Gradients ---------------------------------------------------------------------------- */

/* Adds the operations computing d(sum of y)/dx for each x into dy[0..nx); dx weights each y
 * (NULL: ones). The new operations are named "gradients..." (or "<prefix>/..."). */
TF_CAPI_EXPORT void TF_AddGradients(TF_Graph* g, TF_Output* y, int ny, TF_Output* x, int nx,
                                    TF_Output* dx, TF_Status* status, TF_Output* dy);
TF_CAPI_EXPORT void TF_AddGradientsWithPrefix(TF_Graph* g, const char* prefix, TF_Output* y,
                                              int ny, TF_Output* x, int nx, TF_Output* dx,
                                              TF_Status* status, TF_Output* dy);

/* ---- Functions, continued (as SG_GraphToFunction and its siblings in sg/c_api.h) --------- */

/* append_hash_to_fn_name: the name is fn_name + "_" + a hash of the FunctionDef, as TensorFlow
 * documents; the hash is not TensorFlow's. TensorFlow 2.21 appends 11 characters, the web-safe
 * base64 (no padding; '-' and '_' then written 'a' and 'A') of the 8 bytes of a 64-bit hash its
 * runtime computes over the FunctionDef with its own internal hash functions, which TensorFlow
 * does not specify; sg appends 16 lowercase hex digits of its own 64-bit fingerprint of the
 * FunctionDef. For a Placeholder "x" and Identity "y" made into "Named", TensorFlow 2.21 names
 * it "Named_4uXFoCbmCe8" and sg "Named_448c734b9ea0301c". Each is stable for the same function
 * on one library, so a client that reads the name back (TF_FunctionName) works with either; one
 * that wrote TensorFlow's hashed names down will not find them in sg. */
TF_CAPI_EXPORT extern TF_Function* TF_GraphToFunction(
    const TF_Graph* fn_body, const char* fn_name, unsigned char append_hash_to_fn_name,
    int num_opers, const TF_Operation* const* opers, int ninputs, const TF_Output* inputs,
    int noutputs, const TF_Output* outputs, const char* const* output_names,
    const TF_FunctionOptions* opts, const char* description, TF_Status* status);
TF_CAPI_EXPORT extern TF_Function* TF_GraphToFunctionWithControlOutputs(
    const TF_Graph* fn_body, const char* fn_name, unsigned char append_hash_to_fn_name,
    int num_opers, const TF_Operation* const* opers, int ninputs, const TF_Output* inputs,
    int noutputs, const TF_Output* outputs, const char* const* output_names,
    int ncontrol_outputs, const TF_Operation* const* control_outputs,
    const char* const* control_output_names, const TF_FunctionOptions* opts,
    const char* description, TF_Status* status);
TF_CAPI_EXPORT extern const char* TF_FunctionName(TF_Function* func);
TF_CAPI_EXPORT extern void TF_FunctionToFunctionDef(TF_Function* func,
                                                    TF_Buffer* output_func_def,
                                                    TF_Status* status);
TF_CAPI_EXPORT extern TF_Function* TF_FunctionImportFunctionDef(const void* proto,
                                                                size_t proto_len,
                                                                TF_Status* status);
TF_CAPI_EXPORT extern void TF_FunctionSetAttrValueProto(TF_Function* func,
                                                        const char* attr_name,
                                                        const void* proto, size_t proto_len,
                                                        TF_Status* status);
TF_CAPI_EXPORT extern void TF_FunctionGetAttrValueProto(TF_Function* func,
                                                        const char* attr_name,
                                                        TF_Buffer* output_attr_value,
                                                        TF_Status* status);
TF_CAPI_EXPORT extern void TF_DeleteFunction(TF_Function* func);

/* Evaluates `output` when it depends on constants only: 1 and a new tensor in *result, or 0. */
TF_CAPI_EXPORT extern unsigned char TF_TryEvaluateConstant(TF_Graph* graph, TF_Output output,
                                                           TF_Tensor** result,
                                                           TF_Status* status);

/* ---- Sessions ----------------------------------------------------------------------------- */

typedef struct TF_Session TF_Session;

/* A session running `graph` (which it keeps alive); operations added to the graph later are sent
 * to the session at its next run. */
TF_CAPI_EXPORT extern TF_Session* TF_NewSession(TF_Graph* graph, const TF_SessionOptions* opts,
                                                TF_Status* status);

/* Loads a SavedModel directory into the empty `graph` (tags select the MetaGraphDef), restores
 * its variables and runs its init op; `meta_graph_def` (may be NULL) receives the
 * MetaGraphDef. */
TF_CAPI_EXPORT extern TF_Session* TF_LoadSessionFromSavedModel(
    const TF_SessionOptions* session_options, const TF_Buffer* run_options,
    const char* export_dir, const char* const* tags, int tags_len, TF_Graph* graph,
    TF_Buffer* meta_graph_def, TF_Status* status);

/* Ends the session's use (running steps are cancelled); delete it after. */
TF_CAPI_EXPORT extern void TF_CloseSession(TF_Session*, TF_Status* status);
TF_CAPI_EXPORT extern void TF_DeleteSession(TF_Session*, TF_Status* status);

/* Feeds `ninputs` tensors (borrowed), fetches `noutputs` (new tensors the caller deletes) and
 * runs `ntargets` operations. run_options/run_metadata: serialized RunOptions / RunMetadata, or
 * NULL. */
TF_CAPI_EXPORT extern void TF_SessionRun(TF_Session* session, const TF_Buffer* run_options,
                                         const TF_Output* inputs,
                                         TF_Tensor* const* input_values, int ninputs,
                                         const TF_Output* outputs, TF_Tensor** output_values,
                                         int noutputs, const TF_Operation* const* target_opers,
                                         int ntargets, TF_Buffer* run_metadata, TF_Status*);

/* Partial runs: declare every feed, fetch and target once, then run in pieces. *handle is freed
 * with TF_DeletePRunHandle. */
TF_CAPI_EXPORT extern void TF_SessionPRunSetup(TF_Session*, const TF_Output* inputs, int ninputs,
                                               const TF_Output* outputs, int noutputs,
                                               const TF_Operation* const* target_opers,
                                               int ntargets, const char** handle, TF_Status*);
TF_CAPI_EXPORT extern void TF_SessionPRun(TF_Session*, const char* handle,
                                          const TF_Output* inputs,
                                          TF_Tensor* const* input_values, int ninputs,
                                          const TF_Output* outputs, TF_Tensor** output_values,
                                          int noutputs, const TF_Operation* const* target_opers,
                                          int ntargets, TF_Status*);
TF_CAPI_EXPORT extern void TF_DeletePRunHandle(const char* handle);

/* ---- The deprecated session API: graphs given as GraphDefs, tensors named "op:index" ------- */

typedef struct TF_DeprecatedSession TF_DeprecatedSession;

TF_CAPI_EXPORT extern TF_DeprecatedSession* TF_NewDeprecatedSession(const TF_SessionOptions*,
                                                                    TF_Status* status);
TF_CAPI_EXPORT extern void TF_CloseDeprecatedSession(TF_DeprecatedSession*, TF_Status* status);
TF_CAPI_EXPORT extern void TF_DeleteDeprecatedSession(TF_DeprecatedSession*, TF_Status* status);

/* Clears resource containers (variables) on the options' target; all when ncontainers is 0. */
TF_CAPI_EXPORT extern void TF_Reset(const TF_SessionOptions* opt, const char** containers,
                                    int ncontainers, TF_Status* status);

/* Adds the nodes of a serialized GraphDef to the session's graph. */
TF_CAPI_EXPORT extern void TF_ExtendGraph(TF_DeprecatedSession*, const void* proto,
                                          size_t proto_len, TF_Status*);

/* As TF_SessionRun with names; the input tensors are borrowed (as TensorFlow 2.x's). */
TF_CAPI_EXPORT extern void TF_Run(TF_DeprecatedSession*, const TF_Buffer* run_options,
                                  const char** input_names, TF_Tensor** inputs, int ninputs,
                                  const char** output_names, TF_Tensor** outputs, int noutputs,
                                  const char** target_oper_names, int ntargets,
                                  TF_Buffer* run_metadata, TF_Status*);
TF_CAPI_EXPORT extern void TF_PRunSetup(TF_DeprecatedSession*, const char** input_names,
                                        int ninputs, const char** output_names, int noutputs,
                                        const char** target_oper_names, int ntargets,
                                        const char** handle, TF_Status*);
TF_CAPI_EXPORT extern void TF_PRun(TF_DeprecatedSession*, const char* handle,
                                   const char** input_names, TF_Tensor** inputs, int ninputs,
                                   const char** output_names, TF_Tensor** outputs, int noutputs,
                                   const char** target_oper_names, int ntargets, TF_Status*);

/* ---- Devices ------------------------------------------------------------------------------ */

typedef struct TF_DeviceList TF_DeviceList;

TF_CAPI_EXPORT extern TF_DeviceList* TF_SessionListDevices(TF_Session* session,
                                                           TF_Status* status);
TF_CAPI_EXPORT extern TF_DeviceList* TF_DeprecatedSessionListDevices(
    TF_DeprecatedSession* session, TF_Status* status);
TF_CAPI_EXPORT extern void TF_DeleteDeviceList(TF_DeviceList* list);
TF_CAPI_EXPORT extern int TF_DeviceListCount(const TF_DeviceList* list);
/* Full name ("/job:localhost/replica:0/task:0/device:CPU:0"), type ("CPU"), memory, incarnation
 * of device `index`; strings owned by the list. */
TF_CAPI_EXPORT extern const char* TF_DeviceListName(const TF_DeviceList* list, int index,
                                                    TF_Status* status);
TF_CAPI_EXPORT extern const char* TF_DeviceListType(const TF_DeviceList* list, int index,
                                                    TF_Status* status);
TF_CAPI_EXPORT extern int64_t TF_DeviceListMemoryBytes(const TF_DeviceList* list, int index,
                                                       TF_Status* status);
TF_CAPI_EXPORT extern uint64_t TF_DeviceListIncarnation(const TF_DeviceList* list, int index,
                                                        TF_Status* status);

/* ---- Op libraries and the op registry ----------------------------------------------------- */

typedef struct TF_Library TF_Library;

/* Loads a shared library whose static initializers register ops and kernels through
 * tensorflow/c/ops.h and kernels.h (sg's SG_LoadLibrary, c_api.h). TF_GetOpList gives the ops it
 * registered as a serialized OpList owned by the handle; the library stays loaded after
 * TF_DeleteLibraryHandle. NOT_FOUND (with dlerror's text) when it cannot be loaded; the first
 * error of its registrations (ALREADY_EXISTS for an op registered before) otherwise. */
TF_CAPI_EXPORT extern TF_Library* TF_LoadLibrary(const char* library_filename,
                                                 TF_Status* status);
TF_CAPI_EXPORT extern TF_Buffer TF_GetOpList(TF_Library* lib_handle);
TF_CAPI_EXPORT extern void TF_DeleteLibraryHandle(TF_Library* lib_handle);

/* Every op sg registers, as a serialized OpList; freed with TF_DeleteBuffer. */
TF_CAPI_EXPORT extern TF_Buffer* TF_GetAllOpList(void);

/* API definitions (for op wrapper generators): not implemented by sg (TF_UNIMPLEMENTED). */
typedef struct TF_ApiDefMap TF_ApiDefMap;
TF_CAPI_EXPORT extern TF_ApiDefMap* TF_NewApiDefMap(TF_Buffer* op_list_buffer,
                                                    TF_Status* status);
TF_CAPI_EXPORT extern void TF_DeleteApiDefMap(TF_ApiDefMap* apimap);
TF_CAPI_EXPORT extern void TF_ApiDefMapPut(TF_ApiDefMap* api_def_map, const char* text,
                                           size_t text_len, TF_Status* status);
TF_CAPI_EXPORT extern TF_Buffer* TF_ApiDefMapGet(TF_ApiDefMap* api_def_map, const char* name,
                                                 size_t name_len, TF_Status* status);

/* The registered kernels (a serialized KernelList), all or those of one op. */
TF_CAPI_EXPORT extern TF_Buffer* TF_GetAllRegisteredKernels(TF_Status* status);
TF_CAPI_EXPORT extern TF_Buffer* TF_GetRegisteredKernelsForOp(const char* name,
                                                              TF_Status* status);

/* ---- Editing existing operations (TensorFlow's Python API; TF_UNIMPLEMENTED in sg) ------- */

TF_CAPI_EXPORT extern void TF_UpdateEdge(TF_Graph* graph, TF_Output new_src, TF_Input dst,
                                         TF_Status* status);

/* ---- Servers ------------------------------------------------------------------------------ */

typedef struct TF_Server TF_Server;

/* A server of one task from a serialized ServerDef; serves after TF_ServerStart. */
TF_CAPI_EXPORT extern TF_Server* TF_NewServer(const void* proto, size_t proto_len,
                                              TF_Status* status);
TF_CAPI_EXPORT extern void TF_ServerStart(TF_Server* server, TF_Status* status);
TF_CAPI_EXPORT extern void TF_ServerStop(TF_Server* server, TF_Status* status);
/* Blocks until the server stops. */
TF_CAPI_EXPORT extern void TF_ServerJoin(TF_Server* server, TF_Status* status);
/* "grpc://host:port", owned by the server. */
TF_CAPI_EXPORT extern const char* TF_ServerTarget(TF_Server* server);
TF_CAPI_EXPORT extern void TF_DeleteServer(TF_Server* server);

/* ---- Logging and file systems ------------------------------------------------------------- */

/* TensorFlow passes its log lines to `listener`; sg's library logs to stderr and never calls
 * it. */
TF_CAPI_EXPORT extern void TF_RegisterLogListener(void (*listener)(const char*));

/* Loads a file system plugin: not implemented by sg (TF_UNIMPLEMENTED). */
TF_CAPI_EXPORT extern void TF_RegisterFilesystemPlugin(const char* plugin_filename,
                                                       TF_Status* status);

/* ---- Editing existing operations, continued (TensorFlow's Python API) ----------------------
 * sg's graphs are append-only: these report TF_UNIMPLEMENTED where they have a status and do
 * nothing otherwise (see each). TF_ExtendSession is honoured. */

TF_CAPI_EXPORT extern void TF_AddOperationControlInput(TF_Graph* graph, TF_Operation* op,
                                                       TF_Operation* input);
TF_CAPI_EXPORT extern void TF_SetAttr(TF_Graph* graph, TF_Operation* op, const char* attr_name,
                                      TF_Buffer* attr_value_proto, TF_Status* status);
TF_CAPI_EXPORT extern void TF_ClearAttr(TF_Graph* graph, TF_Operation* op,
                                        const char* attr_name, TF_Status* status);
TF_CAPI_EXPORT extern void TF_SetFullType(TF_Graph* graph, TF_Operation* op,
                                          const TF_Buffer* full_type_proto);
TF_CAPI_EXPORT extern void TF_SetRequestedDevice(TF_Graph* graph, TF_Operation* op,
                                                 const char* device);
TF_CAPI_EXPORT extern void TF_RemoveAllControlInputs(TF_Graph* graph, TF_Operation* op);
/* sg requires a shape function of every op anyway: a no-op. */
TF_CAPI_EXPORT extern void TF_SetRequireShapeInferenceFns(TF_Graph* graph, bool require);
/* Sends the operations added to the session's graph since its last run to the session now. */
TF_CAPI_EXPORT extern void TF_ExtendSession(TF_Session* session, TF_Status* status);
TF_CAPI_EXPORT extern TF_Buffer* TF_GetHandleShapeAndType(TF_Graph* graph, TF_Output output);
TF_CAPI_EXPORT extern void TF_SetHandleShapeAndType(TF_Graph* graph, TF_Output output,
                                                    const void* proto, size_t proto_len,
                                                    TF_Status* status);
TF_CAPI_EXPORT extern void TF_AddWhileInputHack(TF_Graph* graph, TF_Output new_src,
                                                TF_Operation* dst, TF_Status* status);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_C_C_API_H_ */
