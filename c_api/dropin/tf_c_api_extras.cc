// TensorFlow C API functions that have no SG_ twin but that sg honours through its internals
// (c_api_internal.h): status payloads and errno statuses, TF_SetShape, TF_TensorFromProto, the
// attr name iterators, TF_OperationAllInputs and TF_ExtendSession. Each
// converts, checks its arguments and delegates, as the SG_ functions do.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/cord.h"
#include "c_api/c_api_internal.h"
#include "c_api/dropin/tf_handles.h"
#include "core/proto/tensor.pb.h"

using sg::dropin::ToSg;
using sg::dropin::ToSgValue;
using sg::dropin::ToTf;
using sg::dropin::ToTfValue;
namespace errors = sg::errors;

namespace {

// The attr names of `oper` in name order (TensorFlow iterates them in its map's order, which it
// does not specify; a sorted order is stable across calls and runs).
std::vector<std::string> AttrNames(TF_Operation* oper) {
  std::vector<std::string> names;
  const sg::Node* n = sg::c_api::ToNode(ToSg(oper));
  for (const auto& attr : n->def().attr()) names.push_back(attr.first);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

extern "C" {

// ---- tf_status.h -------------------------------------------------------------------------------

void TF_SetPayload(TF_Status* s, const char* key, const char* value) {
  if (s == nullptr || key == nullptr) return;
  sg::c_api::GuardValue<int>(0, [&] {
    ToSg(s)->status.SetPayload(key, absl::Cord(value == nullptr ? "" : value));
    return 0;
  });
}

void TF_ForEachPayload(const TF_Status* s, TF_PayloadVisitor visitor, void* capture) {
  if (s == nullptr || visitor == nullptr) return;
  ToSg(s)->status.ForEachPayload([&](absl::string_view key, const absl::Cord& value) {
    const std::string k(key), v(value);
    visitor(k.c_str(), v.c_str(), capture);
  });
}

void TF_SetStatusFromIOError(TF_Status* s, int error_code, const char* context) {
  sg::c_api::Set(ToSg(s), absl::ErrnoToStatus(error_code, context == nullptr ? "" : context));
}

// ---- tf_tensor.h -------------------------------------------------------------------------------

void TF_SetShape(TF_Tensor* tensor, const int64_t* dims, int num_dims) {
  SG_Tensor* t = ToSg(tensor);
  if (t == nullptr || num_dims < 0 || (dims == nullptr && num_dims > 0)) return;
  int64_t elements = 1;
  for (int i = 0; i < num_dims; ++i) {
    if (dims[i] < 0) return;
    if (dims[i] != 0 && elements > INT64_MAX / dims[i]) return;
    elements *= dims[i];
  }
  // Without a status to report it, a shape that does not fit the bytes is ignored.
  if (elements != t->shape.num_elements()) return;
  sg::c_api::GuardValue<int>(0, [&] {
    t->shape = sg::TensorShape(absl::Span<const int64_t>(dims, num_dims));
    return 0;
  });
}

// ---- c_api.h -----------------------------------------------------------------------------------

void TF_TensorFromProto(const TF_Buffer* from, TF_Tensor* to, TF_Status* status) {
  sg::c_api::Guard("TF_TensorFromProto", ToSg(status), [&]() -> absl::Status {
    if (from == nullptr || to == nullptr) {
      return errors::InvalidArgument("TF_TensorFromProto: ", from == nullptr ? "from" : "to",
                                     " is NULL");
    }
    if (from->data == nullptr && from->length > 0) {
      return errors::InvalidArgument("TF_TensorFromProto: from->data is NULL but its length is ",
                                     from->length);
    }
    sg::TensorProto proto;
    if (from->length > INT32_MAX ||
        !proto.ParseFromArray(from->data, static_cast<int>(from->length))) {
      return errors::InvalidArgument("TF_TensorFromProto: the buffer is not a TensorProto");
    }
    SG_ASSIGN_OR_RETURN(sg::Tensor value, sg::Tensor::FromProto(proto));
    SG_ASSIGN_OR_RETURN(SG_Tensor * made, sg::c_api::FromTensor(value));
    *ToSg(to) = std::move(*made);
    delete made;
    return absl::OkStatus();
  });
}

void TF_OperationAllInputs(TF_Operation* oper, TF_Output* inputs, int max_inputs) {
  if (oper == nullptr || inputs == nullptr) return;
  const int n = std::min(max_inputs, TF_OperationNumInputs(oper));
  for (int i = 0; i < n; ++i) inputs[i] = TF_OperationInput(TF_Input{oper, i});
}

int TF_OperationGetNumAttrs(TF_Operation* oper) {
  if (oper == nullptr) return 0;
  return sg::c_api::ToNode(ToSg(oper))->def().attr_size();
}

int TF_OperationGetAttrNameLength(TF_Operation* oper, int i) {
  if (oper == nullptr) return -1;
  return sg::c_api::GuardValue<int>(-1, [&] {
    const std::vector<std::string> names = AttrNames(oper);
    return i >= 0 && i < static_cast<int>(names.size()) ? static_cast<int>(names[i].size())
                                                         : -1;
  });
}

void TF_OperationGetAttrName(TF_Operation* oper, int i, char* output, TF_Status* status) {
  sg::c_api::Guard("TF_OperationGetAttrName", ToSg(status), [&]() -> absl::Status {
    if (oper == nullptr || output == nullptr) {
      return errors::InvalidArgument("TF_OperationGetAttrName: ",
                                     oper == nullptr ? "oper" : "output", " is NULL");
    }
    const std::vector<std::string> names = AttrNames(oper);
    if (i < 0 || i >= static_cast<int>(names.size())) {
      return errors::OutOfRange("operation '", sg::c_api::ToNode(ToSg(oper))->name(), "' has ",
                                names.size(), " attrs, there is no attr ", i);
    }
    std::memcpy(output, names[i].data(), names[i].size());  // no NUL, as TensorFlow's
    return absl::OkStatus();
  });
}

void TF_ExtendSession(TF_Session* session, TF_Status* status) {
  sg::c_api::Guard("TF_ExtendSession", ToSg(status), [&]() -> absl::Status {
    if (session == nullptr) return errors::InvalidArgument("TF_ExtendSession: session is NULL");
    return sg::c_api::ExtendSession(ToSg(session));
  });
}

}  // extern "C"
