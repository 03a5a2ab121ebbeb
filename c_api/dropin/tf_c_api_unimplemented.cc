// TensorFlow C API functions sg does not implement. Each exists so that clients link and run
// whatever they do not call; called, it fails with TF_UNIMPLEMENTED and a message naming it
// (pointers come back NULL, counts 0). Functions without a status say so once on stderr, except
// deletes (nothing sg returns can reach them; NULL and anything else are no-ops).
#include <atomic>
#include <cstdio>
#include <mutex>
#include <set>
#include <string>

#include "c_api/dropin/tf_handles.h"

namespace sg {
namespace dropin {

void Unimplemented(TF_Status* status, const char* function, const char* why) {
  const std::string message =
      std::string(function) + " is not implemented by sg's libtensorflow (" + why + ")";
  SG_SetStatus(ToSg(status), SG_UNIMPLEMENTED, message.c_str());
}

void NoteUnimplemented(const char* function, const char* why) {
  static std::mutex mu;
  static auto* noted = new std::set<std::string>;
  std::lock_guard<std::mutex> lock(mu);
  if (noted->insert(function).second) {
    std::fprintf(stderr, "sg: %s is not implemented by sg's libtensorflow (%s)\n", function, why);
  }
}

}  // namespace dropin
}  // namespace sg

using sg::dropin::NoteUnimplemented;
using sg::dropin::Unimplemented;

namespace {
constexpr char kPlugins[] = "sg loads op libraries (TF_LoadLibrary), not device or file system plugins";
constexpr char kEdits[] = "sg's graphs are append-only: existing operations are not edited";
constexpr char kApiDefs[] = "sg has no API definitions";
constexpr char kAttrBuilder[] = "sg cannot ask for a kernel without making it";
}  // namespace

extern "C" {

// ---- Plugins: device and file system plugins (op libraries: tf_c_api_plugins.cc) ---------------------------------------

TF_Library* TF_LoadPluggableDeviceLibrary(const char* library_filename, TF_Status* status) {
  Unimplemented(status, "TF_LoadPluggableDeviceLibrary", kPlugins);
  return nullptr;
}
void TF_DeletePluggableDeviceLibraryHandle(TF_Library* lib_handle) {}
void TF_RegisterFilesystemPlugin(const char* plugin_filename, TF_Status* status) {
  Unimplemented(status, "TF_RegisterFilesystemPlugin", kPlugins);
}
void TF_RegisterLogListener(void (*listener)(const char*)) {
  NoteUnimplemented("TF_RegisterLogListener", "sg logs to stderr; the listener is not called");
}

// ---- API definitions (c_api.h) ------------------------------------------------------------------

TF_ApiDefMap* TF_NewApiDefMap(TF_Buffer* op_list_buffer, TF_Status* status) {
  Unimplemented(status, "TF_NewApiDefMap", kApiDefs);
  return nullptr;
}
void TF_DeleteApiDefMap(TF_ApiDefMap* apimap) {}
void TF_ApiDefMapPut(TF_ApiDefMap* api_def_map, const char* text, size_t text_len,
                     TF_Status* status) {
  Unimplemented(status, "TF_ApiDefMapPut", kApiDefs);
}
TF_Buffer* TF_ApiDefMapGet(TF_ApiDefMap* api_def_map, const char* name, size_t name_len,
                           TF_Status* status) {
  Unimplemented(status, "TF_ApiDefMapGet", kApiDefs);
  return nullptr;
}

// ---- Editing existing operations (c_api.h, TensorFlow's Python API) ----------------------------

void TF_UpdateEdge(TF_Graph* graph, TF_Output new_src, TF_Input dst, TF_Status* status) {
  Unimplemented(status, "TF_UpdateEdge", kEdits);
}
void TF_AddOperationControlInput(TF_Graph* graph, TF_Operation* op, TF_Operation* input) {
  NoteUnimplemented("TF_AddOperationControlInput", kEdits);
}
void TF_SetAttr(TF_Graph* graph, TF_Operation* op, const char* attr_name,
                TF_Buffer* attr_value_proto, TF_Status* status) {
  Unimplemented(status, "TF_SetAttr", kEdits);
}
void TF_ClearAttr(TF_Graph* graph, TF_Operation* op, const char* attr_name, TF_Status* status) {
  Unimplemented(status, "TF_ClearAttr", kEdits);
}
void TF_SetFullType(TF_Graph* graph, TF_Operation* op, const TF_Buffer* full_type_proto) {
  NoteUnimplemented("TF_SetFullType", kEdits);
}
void TF_SetRequestedDevice(TF_Graph* graph, TF_Operation* op, const char* device) {
  NoteUnimplemented("TF_SetRequestedDevice", kEdits);
}
void TF_RemoveAllControlInputs(TF_Graph* graph, TF_Operation* op) {
  NoteUnimplemented("TF_RemoveAllControlInputs", kEdits);
}
void TF_SetRequireShapeInferenceFns(TF_Graph* graph, bool require) {}  // sg always requires them
TF_Buffer* TF_GetHandleShapeAndType(TF_Graph* graph, TF_Output output) {
  NoteUnimplemented("TF_GetHandleShapeAndType", "sg keeps no handle shapes on graph outputs");
  return nullptr;
}
void TF_SetHandleShapeAndType(TF_Graph* graph, TF_Output output, const void* proto,
                              size_t proto_len, TF_Status* status) {
  Unimplemented(status, "TF_SetHandleShapeAndType", "sg keeps no handle shapes on graph outputs");
}
void TF_AddWhileInputHack(TF_Graph* graph, TF_Output new_src, TF_Operation* dst,
                          TF_Status* status) {
  Unimplemented(status, "TF_AddWhileInputHack", kEdits);
}
TF_ImportGraphDefResults* TF_GraphImportGraphDefWithResultsNoSerialization(
    TF_Graph* graph, const TF_Buffer* graph_def, const TF_ImportGraphDefOptions* options,
    TF_Status* status) {
  Unimplemented(status, "TF_GraphImportGraphDefWithResultsNoSerialization",
                "its buffer holds a C++ tensorflow::GraphDef; pass the serialized bytes to "
                "TF_GraphImportGraphDefWithResults");
  return nullptr;
}

// ---- c_api_experimental.h -----------------------------------------------------------------------

TF_Tensor* TF_DequeueNamedTensor(TF_Session* session, int tensor_id, TF_Status* status) {
  Unimplemented(status, "TF_DequeueNamedTensor", "TensorFlow's test helper over named queues");
  return nullptr;
}
void TF_EnqueueNamedTensor(TF_Session* session, int tensor_id, TF_Tensor* tensor,
                           TF_Status* status) {
  Unimplemented(status, "TF_EnqueueNamedTensor", "TensorFlow's test helper over named queues");
}

TF_AttrBuilder* TF_NewAttrBuilder(const char* op_name) {
  NoteUnimplemented("TF_NewAttrBuilder", kAttrBuilder);
  return nullptr;
}
void TF_DeleteAttrBuilder(TF_AttrBuilder* builder) {}
void TF_AttrBuilderSetType(TF_AttrBuilder* builder, const char* attr_name, TF_DataType value) {
  NoteUnimplemented("TF_AttrBuilderSetType", kAttrBuilder);
}
void TF_AttrBuilderSetTypeList(TF_AttrBuilder* builder, const char* attr_name,
                               const TF_DataType* values, int num_values) {
  NoteUnimplemented("TF_AttrBuilderSetTypeList", kAttrBuilder);
}
void TF_AttrBuilderCheckCanRunOnDevice(TF_AttrBuilder* builder, const char* device_type,
                                       TF_Status* status) {
  Unimplemented(status, "TF_AttrBuilderCheckCanRunOnDevice", kAttrBuilder);
}

}  // extern "C"
