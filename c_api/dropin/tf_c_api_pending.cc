// TensorFlow C API functions whose SG_ twins another part of sg is adding to libsg (TF_TString
// strings, the version, tensor moves and bitcasts, constant evaluation, the kernel registry).
// Until they exist, each fails as an unimplemented function does (tf_c_api_unimplemented.cc).
// When they land, each body here becomes a one-line forward, as in tf_c_api.cc, and this file
// goes away: it is the only place that changes.
#include "c_api/dropin/tf_handles.h"

using sg::dropin::NoteUnimplemented;
using sg::dropin::Unimplemented;

namespace {
constexpr char kPending[] = "not yet in sg's C API";
}  // namespace

extern "C" {

// ---- c_api.h -------------------------------------------------------------------------------------

const char* TF_Version(void) {
  NoteUnimplemented("TF_Version", kPending);
  return nullptr;
}

unsigned char TF_TryEvaluateConstant(TF_Graph* graph, TF_Output output, TF_Tensor** result,
                                     TF_Status* status) {
  if (result != nullptr) *result = nullptr;
  Unimplemented(status, "TF_TryEvaluateConstant", kPending);
  return 0;
}

TF_Buffer* TF_GetAllRegisteredKernels(TF_Status* status) {
  Unimplemented(status, "TF_GetAllRegisteredKernels", kPending);
  return nullptr;
}

TF_Buffer* TF_GetRegisteredKernelsForOp(const char* name, TF_Status* status) {
  Unimplemented(status, "TF_GetRegisteredKernelsForOp", kPending);
  return nullptr;
}

// ---- tf_tensor.h ---------------------------------------------------------------------------------

// NULL is also what TensorFlow returns for a tensor it cannot move; no note needed.
TF_Tensor* TF_TensorMaybeMove(TF_Tensor* tensor) { return nullptr; }

void TF_TensorBitcastFrom(const TF_Tensor* from, TF_DataType type, TF_Tensor* to,
                          const int64_t* new_dims, int num_new_dims, TF_Status* status) {
  Unimplemented(status, "TF_TensorBitcastFrom", kPending);
}

// ---- tf_tstring.h --------------------------------------------------------------------------------

void TF_StringInit(TF_TString* t) { NoteUnimplemented("TF_StringInit", kPending); }
void TF_StringCopy(TF_TString* dst, const char* src, size_t size) {
  NoteUnimplemented("TF_StringCopy", kPending);
}
void TF_StringAssignView(TF_TString* dst, const char* src, size_t size) {
  NoteUnimplemented("TF_StringAssignView", kPending);
}
const char* TF_StringGetDataPointer(const TF_TString* tstr) {
  NoteUnimplemented("TF_StringGetDataPointer", kPending);
  return nullptr;
}
TF_TString_Type TF_StringGetType(const TF_TString* str) {
  NoteUnimplemented("TF_StringGetType", kPending);
  return TF_TSTR_SMALL;
}
size_t TF_StringGetSize(const TF_TString* tstr) {
  NoteUnimplemented("TF_StringGetSize", kPending);
  return 0;
}
size_t TF_StringGetCapacity(const TF_TString* str) {
  NoteUnimplemented("TF_StringGetCapacity", kPending);
  return 0;
}
void TF_StringDealloc(TF_TString* tstr) { NoteUnimplemented("TF_StringDealloc", kPending); }

}  // extern "C"
