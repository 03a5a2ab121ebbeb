// TensorFlow's C API over sg's: every TF_ function whose SG_ twin exists converts its arguments
// (tf_handles.h) and calls it. The order follows tensorflow/c/*.h. Functions built from sg's
// internals are in tf_c_api_extras.cc, tf_deprecated_session.cc and tf_c_api_experimental.cc;
// string tensors, graphs (their string layout) and TF_TString in tf_c_api_strings.cc; those sg
// lacks in tf_c_api_unimplemented.cc.
//
// Everything is defined inside extern "C": a definition whose signature drifted from the header's
// declaration is then a compile error (two C functions of one name), not a silent C++ overload.
#include "c_api/dropin/tf_handles.h"

using sg::dropin::ToSg;
using sg::dropin::ToSgValue;
using sg::dropin::ToTf;
using sg::dropin::ToTfValue;

extern "C" {

// ---- tf_status.h ---------------------------------------------------------------------------------

TF_Status* TF_NewStatus(void) { return ToTf(SG_NewStatus()); }
void TF_DeleteStatus(TF_Status* s) { SG_DeleteStatus(ToSg(s)); }
void TF_SetStatus(TF_Status* s, TF_Code code, const char* msg) {
  SG_SetStatus(ToSg(s), ToSgValue(code), msg);
}
TF_Code TF_GetCode(const TF_Status* s) { return ToTfValue(SG_GetCode(ToSg(s))); }
const char* TF_Message(const TF_Status* s) {
  if (s == nullptr) return "TF_Message: NULL status";  // SG_Message would name itself
  return SG_Message(ToSg(s));
}

// ---- tf_buffer.h ---------------------------------------------------------------------------------

TF_Buffer* TF_NewBufferFromString(const void* proto, size_t proto_len) {
  return ToTf(SG_NewBufferFromString(proto, proto_len));
}
TF_Buffer* TF_NewBuffer(void) { return ToTf(SG_NewBuffer()); }
void TF_DeleteBuffer(TF_Buffer* buffer) { SG_DeleteBuffer(ToSg(buffer)); }
TF_Buffer TF_GetBuffer(TF_Buffer* buffer) { return ToTfValue(SG_GetBuffer(ToSg(buffer))); }

// ---- tf_datatype.h, tf_tensor.h ------------------------------------------------------------------

size_t TF_DataTypeSize(TF_DataType dt) { return SG_DataTypeSize(ToSgValue(dt)); }

size_t TF_TensorDefaultAlignment(void) { return SG_TensorAlignment(); }
void TF_DeleteTensor(TF_Tensor* t) { SG_DeleteTensor(ToSg(t)); }
TF_DataType TF_TensorType(const TF_Tensor* t) { return ToTfValue(SG_TensorType(ToSg(t))); }
int TF_NumDims(const TF_Tensor* t) { return SG_NumDims(ToSg(t)); }
int64_t TF_Dim(const TF_Tensor* t, int dim_index) { return SG_Dim(ToSg(t), dim_index); }
size_t TF_TensorByteSize(const TF_Tensor* t) { return SG_TensorByteSize(ToSg(t)); }
void* TF_TensorData(const TF_Tensor* t) { return SG_TensorData(ToSg(t)); }
int64_t TF_TensorElementCount(const TF_Tensor* t) { return SG_TensorElementCount(ToSg(t)); }
bool TF_TensorIsAligned(const TF_Tensor* t) { return SG_TensorIsAligned(ToSg(t)) != 0; }

// ---- c_api.h: session options, graphs --------------------------------------------------------------

TF_SessionOptions* TF_NewSessionOptions(void) { return ToTf(SG_NewSessionOptions()); }
void TF_SetTarget(TF_SessionOptions* options, const char* target) {
  SG_SetTarget(ToSg(options), target);
}
void TF_SetConfig(TF_SessionOptions* options, const void* proto, size_t proto_len,
                  TF_Status* status) {
  SG_SetConfig(ToSg(options), proto, proto_len, ToSg(status));
}
void TF_DeleteSessionOptions(TF_SessionOptions* options) {
  SG_DeleteSessionOptions(ToSg(options));
}


void TF_GraphSetTensorShape(TF_Graph* graph, TF_Output output, const int64_t* dims,
                            const int num_dims, TF_Status* status) {
  SG_GraphSetTensorShape(ToSg(graph), ToSgValue(output), dims, num_dims, ToSg(status));
}
int TF_GraphGetTensorNumDims(TF_Graph* graph, TF_Output output, TF_Status* status) {
  return SG_GraphGetTensorNumDims(ToSg(graph), ToSgValue(output), ToSg(status));
}
void TF_GraphGetTensorShape(TF_Graph* graph, TF_Output output, int64_t* dims, int num_dims,
                            TF_Status* status) {
  SG_GraphGetTensorShape(ToSg(graph), ToSgValue(output), dims, num_dims, ToSg(status));
}

// ---- c_api.h: building operations ----------------------------------------------------------------

// A C client cannot hold the graph's lock, so the *Locked variants are the plain functions.
TF_OperationDescription* TF_NewOperationLocked(TF_Graph* graph, const char* op_type,
                                               const char* oper_name) {
  return ToTf(SG_NewOperation(ToSg(graph), op_type, oper_name));
}
TF_OperationDescription* TF_NewOperation(TF_Graph* graph, const char* op_type,
                                         const char* oper_name) {
  return ToTf(SG_NewOperation(ToSg(graph), op_type, oper_name));
}
void TF_SetDevice(TF_OperationDescription* desc, const char* device) {
  SG_SetDevice(ToSg(desc), device);
}
void TF_AddInput(TF_OperationDescription* desc, TF_Output input) {
  SG_AddInput(ToSg(desc), ToSgValue(input));
}
void TF_AddInputList(TF_OperationDescription* desc, const TF_Output* inputs, int num_inputs) {
  SG_AddInputList(ToSg(desc), ToSg(inputs), num_inputs);
}
void TF_AddControlInput(TF_OperationDescription* desc, TF_Operation* input) {
  SG_AddControlInput(ToSg(desc), ToSg(input));
}
void TF_ColocateWith(TF_OperationDescription* desc, TF_Operation* op) {
  SG_ColocateWith(ToSg(desc), ToSg(op));
}
void TF_SetAttrString(TF_OperationDescription* desc, const char* attr_name, const void* value,
                      size_t length) {
  SG_SetAttrString(ToSg(desc), attr_name, value, length);
}
void TF_SetAttrStringList(TF_OperationDescription* desc, const char* attr_name,
                          const void* const* values, const size_t* lengths, int num_values) {
  SG_SetAttrStringList(ToSg(desc), attr_name, values, lengths, num_values);
}
void TF_SetAttrInt(TF_OperationDescription* desc, const char* attr_name, int64_t value) {
  SG_SetAttrInt(ToSg(desc), attr_name, value);
}
void TF_SetAttrIntList(TF_OperationDescription* desc, const char* attr_name,
                       const int64_t* values, int num_values) {
  SG_SetAttrIntList(ToSg(desc), attr_name, values, num_values);
}
void TF_SetAttrFloat(TF_OperationDescription* desc, const char* attr_name, float value) {
  SG_SetAttrFloat(ToSg(desc), attr_name, value);
}
void TF_SetAttrFloatList(TF_OperationDescription* desc, const char* attr_name,
                         const float* values, int num_values) {
  SG_SetAttrFloatList(ToSg(desc), attr_name, values, num_values);
}
void TF_SetAttrBool(TF_OperationDescription* desc, const char* attr_name, unsigned char value) {
  SG_SetAttrBool(ToSg(desc), attr_name, value);
}
void TF_SetAttrBoolList(TF_OperationDescription* desc, const char* attr_name,
                        const unsigned char* values, int num_values) {
  SG_SetAttrBoolList(ToSg(desc), attr_name, values, num_values);
}
void TF_SetAttrType(TF_OperationDescription* desc, const char* attr_name, TF_DataType value) {
  SG_SetAttrType(ToSg(desc), attr_name, ToSgValue(value));
}
void TF_SetAttrTypeList(TF_OperationDescription* desc, const char* attr_name,
                        const TF_DataType* values, int num_values) {
  SG_SetAttrTypeList(ToSg(desc), attr_name, ToSg(values), num_values);
}
void TF_SetAttrPlaceholder(TF_OperationDescription* desc, const char* attr_name,
                           const char* placeholder) {
  SG_SetAttrPlaceholder(ToSg(desc), attr_name, placeholder);
}
void TF_SetAttrFuncName(TF_OperationDescription* desc, const char* attr_name, const char* value,
                        size_t length) {
  SG_SetAttrFuncName(ToSg(desc), attr_name, value, length);
}
void TF_SetAttrShape(TF_OperationDescription* desc, const char* attr_name, const int64_t* dims,
                     int num_dims) {
  SG_SetAttrShape(ToSg(desc), attr_name, dims, num_dims);
}
void TF_SetAttrShapeList(TF_OperationDescription* desc, const char* attr_name,
                         const int64_t* const* dims, const int* num_dims, int num_shapes) {
  SG_SetAttrShapeList(ToSg(desc), attr_name, dims, num_dims, num_shapes);
}
void TF_SetAttrTensorShapeProto(TF_OperationDescription* desc, const char* attr_name,
                                const void* proto, size_t proto_len, TF_Status* status) {
  SG_SetAttrTensorShapeProto(ToSg(desc), attr_name, proto, proto_len, ToSg(status));
}
void TF_SetAttrTensorShapeProtoList(TF_OperationDescription* desc, const char* attr_name,
                                    const void* const* protos, const size_t* proto_lens,
                                    int num_shapes, TF_Status* status) {
  SG_SetAttrTensorShapeProtoList(ToSg(desc), attr_name, protos, proto_lens, num_shapes,
                                 ToSg(status));
}
void TF_SetAttrTensor(TF_OperationDescription* desc, const char* attr_name, TF_Tensor* value,
                      TF_Status* status) {
  SG_SetAttrTensor(ToSg(desc), attr_name, ToSg(value), ToSg(status));
}
void TF_SetAttrTensorList(TF_OperationDescription* desc, const char* attr_name,
                          TF_Tensor* const* values, int num_values, TF_Status* status) {
  SG_SetAttrTensorList(ToSg(desc), attr_name, ToSg(values), num_values, ToSg(status));
}
void TF_SetAttrValueProto(TF_OperationDescription* desc, const char* attr_name,
                          const void* proto, size_t proto_len, TF_Status* status) {
  SG_SetAttrValueProto(ToSg(desc), attr_name, proto, proto_len, ToSg(status));
}
TF_Operation* TF_FinishOperationLocked(TF_OperationDescription* desc, TF_Status* status) {
  return ToTf(SG_FinishOperation(ToSg(desc), ToSg(status)));
}
TF_Operation* TF_FinishOperation(TF_OperationDescription* desc, TF_Status* status) {
  return ToTf(SG_FinishOperation(ToSg(desc), ToSg(status)));
}

// ---- c_api.h: reading operations -----------------------------------------------------------------

const char* TF_OperationName(TF_Operation* oper) { return SG_OperationName(ToSg(oper)); }
const char* TF_OperationOpType(TF_Operation* oper) { return SG_OperationOpType(ToSg(oper)); }
const char* TF_OperationDevice(TF_Operation* oper) { return SG_OperationDevice(ToSg(oper)); }
int TF_OperationNumOutputs(TF_Operation* oper) { return SG_OperationNumOutputs(ToSg(oper)); }
TF_DataType TF_OperationOutputType(TF_Output oper_out) {
  return ToTfValue(SG_OperationOutputType(ToSgValue(oper_out)));
}
int TF_OperationOutputListLength(TF_Operation* oper, const char* arg_name, TF_Status* status) {
  return SG_OperationOutputListLength(ToSg(oper), arg_name, ToSg(status));
}
int TF_OperationNumInputs(TF_Operation* oper) { return SG_OperationNumInputs(ToSg(oper)); }
TF_DataType TF_OperationInputType(TF_Input oper_in) {
  return ToTfValue(SG_OperationInputType(ToSgValue(oper_in)));
}
int TF_OperationInputListLength(TF_Operation* oper, const char* arg_name, TF_Status* status) {
  return SG_OperationInputListLength(ToSg(oper), arg_name, ToSg(status));
}
TF_Output TF_OperationInput(TF_Input oper_in) {
  return ToTfValue(SG_OperationInput(ToSgValue(oper_in)));
}
int TF_OperationOutputNumConsumers(TF_Output oper_out) {
  return SG_OperationOutputNumConsumers(ToSgValue(oper_out));
}
int TF_OperationOutputConsumers(TF_Output oper_out, TF_Input* consumers, int max_consumers) {
  return SG_OperationOutputConsumers(ToSgValue(oper_out), ToSg(consumers), max_consumers);
}
int TF_OperationNumControlInputs(TF_Operation* oper) {
  return SG_OperationNumControlInputs(ToSg(oper));
}
int TF_OperationGetControlInputs(TF_Operation* oper, TF_Operation** control_inputs,
                                 int max_control_inputs) {
  return SG_OperationGetControlInputs(ToSg(oper), ToSg(control_inputs), max_control_inputs);
}
int TF_OperationNumControlOutputs(TF_Operation* oper) {
  return SG_OperationNumControlOutputs(ToSg(oper));
}
int TF_OperationGetControlOutputs(TF_Operation* oper, TF_Operation** control_outputs,
                                  int max_control_outputs) {
  return SG_OperationGetControlOutputs(ToSg(oper), ToSg(control_outputs), max_control_outputs);
}

TF_AttrMetadata TF_OperationGetAttrMetadata(TF_Operation* oper, const char* attr_name,
                                            TF_Status* status) {
  return ToTfValue(SG_OperationGetAttrMetadata(ToSg(oper), attr_name, ToSg(status)));
}
void TF_OperationGetAttrString(TF_Operation* oper, const char* attr_name, void* value,
                               size_t max_length, TF_Status* status) {
  SG_OperationGetAttrString(ToSg(oper), attr_name, value, max_length, ToSg(status));
}
void TF_OperationGetAttrStringList(TF_Operation* oper, const char* attr_name, void** values,
                                   size_t* lengths, int max_values, void* storage,
                                   size_t storage_size, TF_Status* status) {
  SG_OperationGetAttrStringList(ToSg(oper), attr_name, values, lengths, max_values, storage,
                                storage_size, ToSg(status));
}
void TF_OperationGetAttrInt(TF_Operation* oper, const char* attr_name, int64_t* value,
                            TF_Status* status) {
  SG_OperationGetAttrInt(ToSg(oper), attr_name, value, ToSg(status));
}
void TF_OperationGetAttrIntList(TF_Operation* oper, const char* attr_name, int64_t* values,
                                int max_values, TF_Status* status) {
  SG_OperationGetAttrIntList(ToSg(oper), attr_name, values, max_values, ToSg(status));
}
void TF_OperationGetAttrFloat(TF_Operation* oper, const char* attr_name, float* value,
                              TF_Status* status) {
  SG_OperationGetAttrFloat(ToSg(oper), attr_name, value, ToSg(status));
}
void TF_OperationGetAttrFloatList(TF_Operation* oper, const char* attr_name, float* values,
                                  int max_values, TF_Status* status) {
  SG_OperationGetAttrFloatList(ToSg(oper), attr_name, values, max_values, ToSg(status));
}
void TF_OperationGetAttrBool(TF_Operation* oper, const char* attr_name, unsigned char* value,
                             TF_Status* status) {
  SG_OperationGetAttrBool(ToSg(oper), attr_name, value, ToSg(status));
}
void TF_OperationGetAttrBoolList(TF_Operation* oper, const char* attr_name,
                                 unsigned char* values, int max_values, TF_Status* status) {
  SG_OperationGetAttrBoolList(ToSg(oper), attr_name, values, max_values, ToSg(status));
}
void TF_OperationGetAttrType(TF_Operation* oper, const char* attr_name, TF_DataType* value,
                             TF_Status* status) {
  SG_OperationGetAttrType(ToSg(oper), attr_name, ToSg(value), ToSg(status));
}
void TF_OperationGetAttrTypeList(TF_Operation* oper, const char* attr_name, TF_DataType* values,
                                 int max_values, TF_Status* status) {
  SG_OperationGetAttrTypeList(ToSg(oper), attr_name, ToSg(values), max_values, ToSg(status));
}
void TF_OperationGetAttrShape(TF_Operation* oper, const char* attr_name, int64_t* value,
                              int num_dims, TF_Status* status) {
  SG_OperationGetAttrShape(ToSg(oper), attr_name, value, num_dims, ToSg(status));
}
void TF_OperationGetAttrShapeList(TF_Operation* oper, const char* attr_name, int64_t** dims,
                                  int* num_dims, int num_shapes, int64_t* storage,
                                  int storage_size, TF_Status* status) {
  SG_OperationGetAttrShapeList(ToSg(oper), attr_name, dims, num_dims, num_shapes, storage,
                               storage_size, ToSg(status));
}
void TF_OperationGetAttrTensorShapeProto(TF_Operation* oper, const char* attr_name,
                                         TF_Buffer* value, TF_Status* status) {
  SG_OperationGetAttrTensorShapeProto(ToSg(oper), attr_name, ToSg(value), ToSg(status));
}
void TF_OperationGetAttrTensorShapeProtoList(TF_Operation* oper, const char* attr_name,
                                             TF_Buffer** values, int max_values,
                                             TF_Status* status) {
  SG_OperationGetAttrTensorShapeProtoList(ToSg(oper), attr_name, ToSg(values), max_values,
                                          ToSg(status));
}
void TF_OperationGetAttrTensor(TF_Operation* oper, const char* attr_name, TF_Tensor** value,
                               TF_Status* status) {
  SG_OperationGetAttrTensor(ToSg(oper), attr_name, ToSg(value), ToSg(status));
}
void TF_OperationGetAttrTensorList(TF_Operation* oper, const char* attr_name,
                                   TF_Tensor** values, int max_values, TF_Status* status) {
  SG_OperationGetAttrTensorList(ToSg(oper), attr_name, ToSg(values), max_values, ToSg(status));
}
void TF_OperationGetAttrValueProto(TF_Operation* oper, const char* attr_name,
                                   TF_Buffer* output_attr_value, TF_Status* status) {
  SG_OperationGetAttrValueProto(ToSg(oper), attr_name, ToSg(output_attr_value), ToSg(status));
}

TF_Operation* TF_GraphOperationByName(TF_Graph* graph, const char* oper_name) {
  return ToTf(SG_GraphOperationByName(ToSg(graph), oper_name));
}
TF_Operation* TF_GraphNextOperation(TF_Graph* graph, size_t* pos) {
  return ToTf(SG_GraphNextOperation(ToSg(graph), pos));
}
void TF_GraphToGraphDef(TF_Graph* graph, TF_Buffer* output_graph_def, TF_Status* status) {
  SG_GraphToGraphDef(ToSg(graph), ToSg(output_graph_def), ToSg(status));
}
void TF_GraphGetOpDef(TF_Graph* graph, const char* op_name, TF_Buffer* output_op_def,
                      TF_Status* status) {
  SG_GraphGetOpDef(ToSg(graph), op_name, ToSg(output_op_def), ToSg(status));
}
void TF_GraphVersions(TF_Graph* graph, TF_Buffer* output_version_def, TF_Status* status) {
  SG_GraphVersions(ToSg(graph), ToSg(output_version_def), ToSg(status));
}
void TF_OperationToNodeDef(TF_Operation* oper, TF_Buffer* output_node_def, TF_Status* status) {
  SG_OperationToNodeDef(ToSg(oper), ToSg(output_node_def), ToSg(status));
}

// ---- c_api.h: importing a GraphDef -----------------------------------------------------------------

TF_ImportGraphDefOptions* TF_NewImportGraphDefOptions(void) {
  return ToTf(SG_NewImportGraphDefOptions());
}
void TF_DeleteImportGraphDefOptions(TF_ImportGraphDefOptions* opts) {
  SG_DeleteImportGraphDefOptions(ToSg(opts));
}
void TF_ImportGraphDefOptionsSetPrefix(TF_ImportGraphDefOptions* opts, const char* prefix) {
  SG_ImportGraphDefOptionsSetPrefix(ToSg(opts), prefix);
}
void TF_ImportGraphDefOptionsSetDefaultDevice(TF_ImportGraphDefOptions* opts,
                                              const char* device) {
  SG_ImportGraphDefOptionsSetDefaultDevice(ToSg(opts), device);
}
void TF_ImportGraphDefOptionsSetUniquifyNames(TF_ImportGraphDefOptions* opts,
                                              unsigned char uniquify_names) {
  SG_ImportGraphDefOptionsSetUniquifyNames(ToSg(opts), uniquify_names);
}
void TF_ImportGraphDefOptionsSetUniquifyPrefix(TF_ImportGraphDefOptions* opts,
                                               unsigned char uniquify_prefix) {
  SG_ImportGraphDefOptionsSetUniquifyPrefix(ToSg(opts), uniquify_prefix);
}
void TF_ImportGraphDefOptionsAddInputMapping(TF_ImportGraphDefOptions* opts,
                                             const char* src_name, int src_index,
                                             TF_Output dst) {
  SG_ImportGraphDefOptionsAddInputMapping(ToSg(opts), src_name, src_index, ToSgValue(dst));
}
void TF_ImportGraphDefOptionsRemapControlDependency(TF_ImportGraphDefOptions* opts,
                                                    const char* src_name, TF_Operation* dst) {
  SG_ImportGraphDefOptionsRemapControlDependency(ToSg(opts), src_name, ToSg(dst));
}
void TF_ImportGraphDefOptionsAddControlDependency(TF_ImportGraphDefOptions* opts,
                                                  TF_Operation* oper) {
  SG_ImportGraphDefOptionsAddControlDependency(ToSg(opts), ToSg(oper));
}
void TF_ImportGraphDefOptionsAddReturnOutput(TF_ImportGraphDefOptions* opts,
                                             const char* oper_name, int index) {
  SG_ImportGraphDefOptionsAddReturnOutput(ToSg(opts), oper_name, index);
}
int TF_ImportGraphDefOptionsNumReturnOutputs(const TF_ImportGraphDefOptions* opts) {
  return SG_ImportGraphDefOptionsNumReturnOutputs(ToSg(opts));
}
void TF_ImportGraphDefOptionsAddReturnOperation(TF_ImportGraphDefOptions* opts,
                                                const char* oper_name) {
  SG_ImportGraphDefOptionsAddReturnOperation(ToSg(opts), oper_name);
}
int TF_ImportGraphDefOptionsNumReturnOperations(const TF_ImportGraphDefOptions* opts) {
  return SG_ImportGraphDefOptionsNumReturnOperations(ToSg(opts));
}
void TF_ImportGraphDefResultsReturnOutputs(TF_ImportGraphDefResults* results, int* num_outputs,
                                           TF_Output** outputs) {
  SG_ImportGraphDefResultsReturnOutputs(ToSg(results), num_outputs, ToSg(outputs));
}
void TF_ImportGraphDefResultsReturnOperations(TF_ImportGraphDefResults* results, int* num_opers,
                                              TF_Operation*** opers) {
  SG_ImportGraphDefResultsReturnOperations(ToSg(results), num_opers, ToSg(opers));
}
void TF_ImportGraphDefResultsMissingUnusedInputMappings(TF_ImportGraphDefResults* results,
                                                        int* num_missing_unused_input_mappings,
                                                        const char*** src_names,
                                                        int** src_indexes) {
  SG_ImportGraphDefResultsMissingUnusedInputMappings(
      ToSg(results), num_missing_unused_input_mappings, src_names, src_indexes);
}
void TF_DeleteImportGraphDefResults(TF_ImportGraphDefResults* results) {
  SG_DeleteImportGraphDefResults(ToSg(results));
}
TF_ImportGraphDefResults* TF_GraphImportGraphDefWithResults(
    TF_Graph* graph, const TF_Buffer* graph_def, const TF_ImportGraphDefOptions* options,
    TF_Status* status) {
  return ToTf(SG_GraphImportGraphDefWithResults(ToSg(graph), ToSg(graph_def), ToSg(options),
                                                ToSg(status)));
}
void TF_GraphImportGraphDefWithReturnOutputs(TF_Graph* graph, const TF_Buffer* graph_def,
                                             const TF_ImportGraphDefOptions* options,
                                             TF_Output* return_outputs, int num_return_outputs,
                                             TF_Status* status) {
  SG_GraphImportGraphDefWithReturnOutputs(ToSg(graph), ToSg(graph_def), ToSg(options),
                                          ToSg(return_outputs), num_return_outputs,
                                          ToSg(status));
}
void TF_GraphImportGraphDef(TF_Graph* graph, const TF_Buffer* graph_def,
                            const TF_ImportGraphDefOptions* options, TF_Status* status) {
  SG_GraphImportGraphDef(ToSg(graph), ToSg(graph_def), ToSg(options), ToSg(status));
}

// ---- c_api.h: gradients ----------------------------------------------------------------------------

void TF_AddGradients(TF_Graph* g, TF_Output* y, int ny, TF_Output* x, int nx, TF_Output* dx,
                     TF_Status* status, TF_Output* dy) {
  SG_AddGradients(ToSg(g), ToSg(y), ny, ToSg(x), nx, ToSg(dx), ToSg(status), ToSg(dy));
}
void TF_AddGradientsWithPrefix(TF_Graph* g, const char* prefix, TF_Output* y, int ny,
                               TF_Output* x, int nx, TF_Output* dx, TF_Status* status,
                               TF_Output* dy) {
  SG_AddGradientsWithPrefix(ToSg(g), prefix, ToSg(y), ny, ToSg(x), nx, ToSg(dx), ToSg(status),
                            ToSg(dy));
}

// ---- c_api.h: sessions ---------------------------------------------------------------------------

TF_Session* TF_NewSession(TF_Graph* graph, const TF_SessionOptions* opts, TF_Status* status) {
  return ToTf(SG_NewSession(ToSg(graph), ToSg(opts), ToSg(status)));
}
TF_Session* TF_LoadSessionFromSavedModel(const TF_SessionOptions* session_options,
                                         const TF_Buffer* run_options, const char* export_dir,
                                         const char* const* tags, int tags_len, TF_Graph* graph,
                                         TF_Buffer* meta_graph_def, TF_Status* status) {
  return ToTf(SG_LoadSessionFromSavedModel(ToSg(session_options), ToSg(run_options), export_dir,
                                           tags, tags_len, ToSg(graph), ToSg(meta_graph_def),
                                           ToSg(status)));
}
void TF_CloseSession(TF_Session* session, TF_Status* status) {
  SG_CloseSession(ToSg(session), ToSg(status));
}
void TF_DeleteSession(TF_Session* session, TF_Status* status) {
  SG_DeleteSession(ToSg(session), ToSg(status));
}
void TF_SessionRun(TF_Session* session, const TF_Buffer* run_options, const TF_Output* inputs,
                   TF_Tensor* const* input_values, int ninputs, const TF_Output* outputs,
                   TF_Tensor** output_values, int noutputs,
                   const TF_Operation* const* target_opers, int ntargets,
                   TF_Buffer* run_metadata, TF_Status* status) {
  SG_SessionRun(ToSg(session), ToSg(run_options), ToSg(inputs), ToSg(input_values), ninputs,
                ToSg(outputs), ToSg(output_values), noutputs, ToSg(target_opers), ntargets,
                ToSg(run_metadata), ToSg(status));
}
void TF_SessionPRunSetup(TF_Session* session, const TF_Output* inputs, int ninputs,
                         const TF_Output* outputs, int noutputs,
                         const TF_Operation* const* target_opers, int ntargets,
                         const char** handle, TF_Status* status) {
  SG_SessionPRunSetup(ToSg(session), ToSg(inputs), ninputs, ToSg(outputs), noutputs,
                      ToSg(target_opers), ntargets, handle, ToSg(status));
}
void TF_SessionPRun(TF_Session* session, const char* handle, const TF_Output* inputs,
                    TF_Tensor* const* input_values, int ninputs, const TF_Output* outputs,
                    TF_Tensor** output_values, int noutputs,
                    const TF_Operation* const* target_opers, int ntargets, TF_Status* status) {
  SG_SessionPRun(ToSg(session), handle, ToSg(inputs), ToSg(input_values), ninputs,
                 ToSg(outputs), ToSg(output_values), noutputs, ToSg(target_opers), ntargets,
                 ToSg(status));
}
void TF_DeletePRunHandle(const char* handle) { SG_DeletePRunHandle(handle); }
void TF_Reset(const TF_SessionOptions* opt, const char** containers, int ncontainers,
              TF_Status* status) {
  SG_Reset(ToSg(opt), containers, ncontainers, ToSg(status));
}

// ---- c_api.h: devices ------------------------------------------------------------------------------

TF_DeviceList* TF_SessionListDevices(TF_Session* session, TF_Status* status) {
  return ToTf(SG_SessionListDevices(ToSg(session), ToSg(status)));
}
void TF_DeleteDeviceList(TF_DeviceList* list) { SG_DeleteDeviceList(ToSg(list)); }
int TF_DeviceListCount(const TF_DeviceList* list) { return SG_DeviceListCount(ToSg(list)); }
const char* TF_DeviceListName(const TF_DeviceList* list, int index, TF_Status* status) {
  return SG_DeviceListName(ToSg(list), index, ToSg(status));
}
const char* TF_DeviceListType(const TF_DeviceList* list, int index, TF_Status* status) {
  return SG_DeviceListType(ToSg(list), index, ToSg(status));
}
int64_t TF_DeviceListMemoryBytes(const TF_DeviceList* list, int index, TF_Status* status) {
  return SG_DeviceListMemoryBytes(ToSg(list), index, ToSg(status));
}
uint64_t TF_DeviceListIncarnation(const TF_DeviceList* list, int index, TF_Status* status) {
  return SG_DeviceListIncarnation(ToSg(list), index, ToSg(status));
}

// ---- c_api.h: op registry, servers -----------------------------------------------------------------

TF_Buffer* TF_GetAllOpList(void) { return ToTf(SG_GetAllOpList()); }

TF_Server* TF_NewServer(const void* proto, size_t proto_len, TF_Status* status) {
  return ToTf(SG_NewServer(proto, proto_len, ToSg(status)));
}
void TF_ServerStart(TF_Server* server, TF_Status* status) {
  SG_ServerStart(ToSg(server), ToSg(status));
}
void TF_ServerStop(TF_Server* server, TF_Status* status) {
  SG_ServerStop(ToSg(server), ToSg(status));
}
void TF_ServerJoin(TF_Server* server, TF_Status* status) {
  SG_ServerJoin(ToSg(server), ToSg(status));
}
const char* TF_ServerTarget(TF_Server* server) { return SG_ServerTarget(ToSg(server)); }
void TF_DeleteServer(TF_Server* server) { SG_DeleteServer(ToSg(server)); }

}  // extern "C"
