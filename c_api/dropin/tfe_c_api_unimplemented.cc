// TensorFlow's eager C API (tensorflow/c/eager/c_api.h), which sg does not implement: each
// function exists so that bindings bundling graph and eager code (Go's package `tensorflow`)
// link, and fails as tf_c_api_unimplemented.cc's do when called: TF_UNIMPLEMENTED in the status
// and NULL, 0 or the first enum value back; without a status, a note on stderr once; deletes
// are no-ops (no TFE_ object is ever made).
#include "c_api/dropin/tf_handles.h"
#include "tensorflow/c/eager/c_api.h"

using sg::dropin::NoteUnimplemented;
using sg::dropin::Unimplemented;

namespace {
constexpr char kEager[] = "sg has no eager runtime: build a graph and run it in a session";
}  // namespace

// The three shapes every function takes.
#define SG_TFE_FAILS(name, status, result) \
  do {                                     \
    Unimplemented(status, name, kEager);   \
    return result;                         \
  } while (0)
#define SG_TFE_NOTES(name, result)     \
  do {                                 \
    NoteUnimplemented(name, kEager);   \
    return result;                     \
  } while (0)

extern "C" {

// ---- Contexts and their options -----------------------------------------------------------------

TFE_ContextOptions* TFE_NewContextOptions(void) {
  SG_TFE_NOTES("TFE_NewContextOptions", nullptr);
}
void TFE_ContextOptionsSetConfig(TFE_ContextOptions* options, const void* proto,
                                 size_t proto_len, TF_Status* status) {
  SG_TFE_FAILS("TFE_ContextOptionsSetConfig", status, );
}
void TFE_ContextOptionsSetAsync(TFE_ContextOptions* options, unsigned char enable) {
  SG_TFE_NOTES("TFE_ContextOptionsSetAsync", );
}
void TFE_ContextOptionsSetDevicePlacementPolicy(TFE_ContextOptions* options,
                                                TFE_ContextDevicePlacementPolicy policy) {
  SG_TFE_NOTES("TFE_ContextOptionsSetDevicePlacementPolicy", );
}
void TFE_DeleteContextOptions(TFE_ContextOptions* options) {}

TFE_Context* TFE_NewContext(const TFE_ContextOptions* opts, TF_Status* status) {
  SG_TFE_FAILS("TFE_NewContext", status, nullptr);
}
void TFE_DeleteContext(TFE_Context* ctx) {}
TF_DeviceList* TFE_ContextListDevices(TFE_Context* ctx, TF_Status* status) {
  SG_TFE_FAILS("TFE_ContextListDevices", status, nullptr);
}
void TFE_ContextClearCaches(TFE_Context* ctx) { SG_TFE_NOTES("TFE_ContextClearCaches", ); }
void TFE_ContextSetThreadLocalDevicePlacementPolicy(TFE_Context* ctx,
                                                    TFE_ContextDevicePlacementPolicy policy) {
  SG_TFE_NOTES("TFE_ContextSetThreadLocalDevicePlacementPolicy", );
}
TFE_ContextDevicePlacementPolicy TFE_ContextGetDevicePlacementPolicy(TFE_Context* ctx) {
  SG_TFE_NOTES("TFE_ContextGetDevicePlacementPolicy", TFE_DEVICE_PLACEMENT_EXPLICIT);
}
void TFE_ContextSetServerDef(TFE_Context* ctx, int keep_alive_secs, const void* proto,
                             size_t proto_len, TF_Status* status) {
  SG_TFE_FAILS("TFE_ContextSetServerDef", status, );
}

// ---- Tensor handles -----------------------------------------------------------------------------

TFE_TensorHandle* TFE_NewTensorHandle(const TF_Tensor* t, TF_Status* status) {
  SG_TFE_FAILS("TFE_NewTensorHandle", status, nullptr);
}
void TFE_DeleteTensorHandle(TFE_TensorHandle* h) {}
TF_DataType TFE_TensorHandleDataType(TFE_TensorHandle* h) {
  SG_TFE_NOTES("TFE_TensorHandleDataType", TF_FLOAT);
}
int TFE_TensorHandleNumDims(TFE_TensorHandle* h, TF_Status* status) {
  SG_TFE_FAILS("TFE_TensorHandleNumDims", status, 0);
}
int64_t TFE_TensorHandleNumElements(TFE_TensorHandle* h, TF_Status* status) {
  SG_TFE_FAILS("TFE_TensorHandleNumElements", status, 0);
}
int64_t TFE_TensorHandleDim(TFE_TensorHandle* h, int dim_index, TF_Status* status) {
  SG_TFE_FAILS("TFE_TensorHandleDim", status, 0);
}
const char* TFE_TensorHandleDeviceName(TFE_TensorHandle* h, TF_Status* status) {
  SG_TFE_FAILS("TFE_TensorHandleDeviceName", status, nullptr);
}
const char* TFE_TensorHandleBackingDeviceName(TFE_TensorHandle* h, TF_Status* status) {
  SG_TFE_FAILS("TFE_TensorHandleBackingDeviceName", status, nullptr);
}
TFE_TensorHandle* TFE_TensorHandleCopySharingTensor(TFE_TensorHandle* h, TF_Status* status) {
  SG_TFE_FAILS("TFE_TensorHandleCopySharingTensor", status, nullptr);
}
TF_Tensor* TFE_TensorHandleResolve(TFE_TensorHandle* h, TF_Status* status) {
  SG_TFE_FAILS("TFE_TensorHandleResolve", status, nullptr);
}
TFE_TensorHandle* TFE_TensorHandleCopyToDevice(TFE_TensorHandle* h, TFE_Context* ctx,
                                               const char* device_name, TF_Status* status) {
  SG_TFE_FAILS("TFE_TensorHandleCopyToDevice", status, nullptr);
}
TFE_TensorDebugInfo* TFE_TensorHandleTensorDebugInfo(TFE_TensorHandle* h, TF_Status* status) {
  SG_TFE_FAILS("TFE_TensorHandleTensorDebugInfo", status, nullptr);
}
void TFE_DeleteTensorDebugInfo(TFE_TensorDebugInfo* debug_info) {}
int TFE_TensorDebugInfoOnDeviceNumDims(TFE_TensorDebugInfo* debug_info) {
  SG_TFE_NOTES("TFE_TensorDebugInfoOnDeviceNumDims", 0);
}
int64_t TFE_TensorDebugInfoOnDeviceDim(TFE_TensorDebugInfo* debug_info, int dim_index) {
  SG_TFE_NOTES("TFE_TensorDebugInfoOnDeviceDim", 0);
}

// ---- Ops ----------------------------------------------------------------------------------------

TFE_Op* TFE_NewOp(TFE_Context* ctx, const char* op_or_function_name, TF_Status* status) {
  SG_TFE_FAILS("TFE_NewOp", status, nullptr);
}
void TFE_DeleteOp(TFE_Op* op) {}
const char* TFE_OpGetName(const TFE_Op* op, TF_Status* status) {
  SG_TFE_FAILS("TFE_OpGetName", status, nullptr);
}
TFE_Context* TFE_OpGetContext(const TFE_Op* op, TF_Status* status) {
  SG_TFE_FAILS("TFE_OpGetContext", status, nullptr);
}
void TFE_OpSetDevice(TFE_Op* op, const char* device_name, TF_Status* status) {
  SG_TFE_FAILS("TFE_OpSetDevice", status, );
}
const char* TFE_OpGetDevice(const TFE_Op* op, TF_Status* status) {
  SG_TFE_FAILS("TFE_OpGetDevice", status, nullptr);
}
void TFE_OpAddInput(TFE_Op* op, TFE_TensorHandle* input, TF_Status* status) {
  SG_TFE_FAILS("TFE_OpAddInput", status, );
}
void TFE_OpAddInputList(TFE_Op* op, TFE_TensorHandle** inputs, int num_inputs,
                        TF_Status* status) {
  SG_TFE_FAILS("TFE_OpAddInputList", status, );
}
int TFE_OpGetFlatInputCount(const TFE_Op* op, TF_Status* status) {
  SG_TFE_FAILS("TFE_OpGetFlatInputCount", status, 0);
}
TFE_TensorHandle* TFE_OpGetFlatInput(const TFE_Op* op, int index, TF_Status* status) {
  SG_TFE_FAILS("TFE_OpGetFlatInput", status, nullptr);
}
TF_AttrType TFE_OpGetAttrType(TFE_Op* op, const char* attr_name, unsigned char* is_list,
                              TF_Status* status) {
  SG_TFE_FAILS("TFE_OpGetAttrType", status, TF_ATTR_STRING);
}
TF_AttrType TFE_OpNameGetAttrType(TFE_Context* ctx, const char* op_or_function_name,
                                  const char* attr_name, unsigned char* is_list,
                                  TF_Status* status) {
  SG_TFE_FAILS("TFE_OpNameGetAttrType", status, TF_ATTR_STRING);
}
void TFE_OpSetAttrString(TFE_Op* op, const char* attr_name, const void* value, size_t length) {
  SG_TFE_NOTES("TFE_OpSetAttrString", );
}
void TFE_OpSetAttrInt(TFE_Op* op, const char* attr_name, int64_t value) {
  SG_TFE_NOTES("TFE_OpSetAttrInt", );
}
void TFE_OpSetAttrFloat(TFE_Op* op, const char* attr_name, float value) {
  SG_TFE_NOTES("TFE_OpSetAttrFloat", );
}
void TFE_OpSetAttrBool(TFE_Op* op, const char* attr_name, unsigned char value) {
  SG_TFE_NOTES("TFE_OpSetAttrBool", );
}
void TFE_OpSetAttrType(TFE_Op* op, const char* attr_name, TF_DataType value) {
  SG_TFE_NOTES("TFE_OpSetAttrType", );
}
void TFE_OpSetAttrShape(TFE_Op* op, const char* attr_name, const int64_t* dims,
                        const int num_dims, TF_Status* out_status) {
  SG_TFE_FAILS("TFE_OpSetAttrShape", out_status, );
}
void TFE_OpSetAttrFunction(TFE_Op* op, const char* attr_name, const TFE_Op* value) {
  SG_TFE_NOTES("TFE_OpSetAttrFunction", );
}
void TFE_OpSetAttrFunctionName(TFE_Op* op, const char* attr_name, const char* data,
                               size_t length) {
  SG_TFE_NOTES("TFE_OpSetAttrFunctionName", );
}
void TFE_OpSetAttrTensor(TFE_Op* op, const char* attr_name, TF_Tensor* tensor,
                         TF_Status* status) {
  SG_TFE_FAILS("TFE_OpSetAttrTensor", status, );
}
void TFE_OpSetAttrStringList(TFE_Op* op, const char* attr_name, const void* const* values,
                             const size_t* lengths, int num_values) {
  SG_TFE_NOTES("TFE_OpSetAttrStringList", );
}
void TFE_OpSetAttrIntList(TFE_Op* op, const char* attr_name, const int64_t* values,
                          int num_values) {
  SG_TFE_NOTES("TFE_OpSetAttrIntList", );
}
void TFE_OpSetAttrFloatList(TFE_Op* op, const char* attr_name, const float* values,
                            int num_values) {
  SG_TFE_NOTES("TFE_OpSetAttrFloatList", );
}
void TFE_OpSetAttrBoolList(TFE_Op* op, const char* attr_name, const unsigned char* values,
                           int num_values) {
  SG_TFE_NOTES("TFE_OpSetAttrBoolList", );
}
void TFE_OpSetAttrTypeList(TFE_Op* op, const char* attr_name, const TF_DataType* values,
                           int num_values) {
  SG_TFE_NOTES("TFE_OpSetAttrTypeList", );
}
void TFE_OpSetAttrShapeList(TFE_Op* op, const char* attr_name, const int64_t** dims,
                            const int* num_dims, int num_values, TF_Status* out_status) {
  SG_TFE_FAILS("TFE_OpSetAttrShapeList", out_status, );
}
void TFE_OpSetAttrFunctionList(TFE_Op* op, const char* attr_name, const TFE_Op** value,
                               int num_values) {
  SG_TFE_NOTES("TFE_OpSetAttrFunctionList", );
}
int TFE_OpGetInputLength(TFE_Op* op, const char* input_name, TF_Status* status) {
  SG_TFE_FAILS("TFE_OpGetInputLength", status, 0);
}
int TFE_OpGetOutputLength(TFE_Op* op, const char* output_name, TF_Status* status) {
  SG_TFE_FAILS("TFE_OpGetOutputLength", status, 0);
}
void TFE_Execute(TFE_Op* op, TFE_TensorHandle** retvals, int* num_retvals, TF_Status* status) {
  if (num_retvals != nullptr) *num_retvals = 0;
  SG_TFE_FAILS("TFE_Execute", status, );
}

// ---- Functions and run metadata -----------------------------------------------------------------

void TFE_ContextAddFunctionDef(TFE_Context* ctx, const char* serialized_function_def,
                               size_t size, TF_Status* status) {
  SG_TFE_FAILS("TFE_ContextAddFunctionDef", status, );
}
void TFE_ContextAddFunction(TFE_Context* ctx, TF_Function* function, TF_Status* status) {
  SG_TFE_FAILS("TFE_ContextAddFunction", status, );
}
void TFE_ContextRemoveFunction(TFE_Context* ctx, const char* name, TF_Status* status) {
  SG_TFE_FAILS("TFE_ContextRemoveFunction", status, );
}
unsigned char TFE_ContextHasFunction(TFE_Context* ctx, const char* name) {
  SG_TFE_NOTES("TFE_ContextHasFunction", 0);
}
void TFE_ContextEnableRunMetadata(TFE_Context* ctx) {
  SG_TFE_NOTES("TFE_ContextEnableRunMetadata", );
}
void TFE_ContextDisableRunMetadata(TFE_Context* ctx) {
  SG_TFE_NOTES("TFE_ContextDisableRunMetadata", );
}
void TFE_ContextExportRunMetadata(TFE_Context* ctx, TF_Buffer* buf, TF_Status* status) {
  SG_TFE_FAILS("TFE_ContextExportRunMetadata", status, );
}
void TFE_ContextStartStep(TFE_Context* ctx) { SG_TFE_NOTES("TFE_ContextStartStep", ); }
void TFE_ContextEndStep(TFE_Context* ctx) { SG_TFE_NOTES("TFE_ContextEndStep", ); }

}  // extern "C"
