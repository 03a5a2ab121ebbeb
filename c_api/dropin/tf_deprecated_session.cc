// TensorFlow's deprecated session API (TF_NewDeprecatedSession, TF_ExtendGraph, TF_Run,
// TF_PRunSetup, TF_PRun): the session gets its graph as serialized GraphDefs and names tensors
// "op:index", which is sg::Session's own interface, so each function converts and delegates to
// it. sg has no SG_ twin of this API; TensorFlow 1.x clients still use it.
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "c_api/c_api_internal.h"
#include "c_api/dropin/tf_handles.h"
#include "core/runtime/session.h"

using sg::dropin::ToSg;
using sg::dropin::ToTf;
namespace errors = sg::errors;

// The handle: sg's session, and whether it has a graph yet (Create, then Extend).
struct TF_DeprecatedSession {
  std::unique_ptr<sg::Session> session;
  absl::Mutex mu;
  bool created ABSL_GUARDED_BY(mu) = false;
};

namespace {

absl::Status Names(const char** names, int n, const char* what, std::vector<std::string>* out) {
  SG_RETURN_IF_ERROR(sg::c_api::CheckArray(names, n, what));
  for (int i = 0; i < n; ++i) {
    if (names[i] == nullptr) return errors::InvalidArgument(what, "[", i, "] is NULL");
    out->emplace_back(names[i]);
  }
  return absl::OkStatus();
}

absl::Status Feeds(const char** names, TF_Tensor** values, int n,
                   std::vector<std::pair<std::string, sg::Tensor>>* feeds) {
  std::vector<std::string> feed_names;
  SG_RETURN_IF_ERROR(Names(names, n, "input_names", &feed_names));
  SG_RETURN_IF_ERROR(sg::c_api::CheckArray(values, n, "inputs"));
  for (int i = 0; i < n; ++i) {
    if (values[i] == nullptr) {
      return errors::InvalidArgument("inputs[", i, "] (feed of '", feed_names[i], "') is NULL");
    }
    auto t = sg::c_api::ToTensor(*ToSg(values[i]));
    if (!t.ok()) {
      return errors::Annotate(t.status(), absl::StrCat("feed of '", feed_names[i], "': "));
    }
    feeds->emplace_back(feed_names[i], *std::move(t));
  }
  return absl::OkStatus();
}

// Hands `results` to C, all or none.
absl::Status Export(const std::vector<sg::Tensor>& results, TF_Tensor** outputs, int noutputs) {
  if (static_cast<int>(results.size()) != noutputs) {
    return errors::Internal("the session returned ", results.size(), " tensors for ", noutputs,
                            " fetches");
  }
  std::vector<std::unique_ptr<SG_Tensor>> made;
  for (const sg::Tensor& r : results) {
    SG_ASSIGN_OR_RETURN(SG_Tensor * t, sg::c_api::FromTensor(r));
    made.emplace_back(t);
  }
  for (int i = 0; i < noutputs; ++i) outputs[i] = ToTf(made[i].release());
  return absl::OkStatus();
}

absl::Status CheckSession(TF_DeprecatedSession* s, const char* function) {
  if (s == nullptr) return errors::InvalidArgument(function, ": session is NULL");
  if (s->session == nullptr) return errors::Cancelled(function, ": the session was deleted");
  return absl::OkStatus();
}

void ClearOutputs(TF_Tensor** outputs, int noutputs) {
  if (outputs == nullptr) return;
  for (int i = 0; i < noutputs; ++i) outputs[i] = nullptr;
}

}  // namespace

extern "C" {

TF_DeprecatedSession* TF_NewDeprecatedSession(const TF_SessionOptions* opts,
                                              TF_Status* status) {
  TF_DeprecatedSession* result = nullptr;
  sg::c_api::Guard("TF_NewDeprecatedSession", ToSg(status), [&]() -> absl::Status {
    if (opts == nullptr) return errors::InvalidArgument("TF_NewDeprecatedSession: opts is NULL");
    auto s = std::make_unique<TF_DeprecatedSession>();
    SG_RETURN_IF_ERROR(sg::NewSession(ToSg(opts)->options, &s->session));
    result = s.release();
    return absl::OkStatus();
  });
  return result;
}

void TF_CloseDeprecatedSession(TF_DeprecatedSession* s, TF_Status* status) {
  sg::c_api::Guard("TF_CloseDeprecatedSession", ToSg(status), [&]() -> absl::Status {
    SG_RETURN_IF_ERROR(CheckSession(s, "TF_CloseDeprecatedSession"));
    return s->session->Close();
  });
}

void TF_DeleteDeprecatedSession(TF_DeprecatedSession* s, TF_Status* status) {
  if (s == nullptr) {
    sg::c_api::SetOk(ToSg(status));
    return;
  }
  sg::c_api::Guard("TF_DeleteDeprecatedSession", ToSg(status), [&]() -> absl::Status {
    absl::Status closed = s->session->Close();
    delete s;
    return closed;
  });
}

void TF_ExtendGraph(TF_DeprecatedSession* s, const void* proto, size_t proto_len,
                    TF_Status* status) {
  sg::c_api::Guard("TF_ExtendGraph", ToSg(status), [&]() -> absl::Status {
    SG_RETURN_IF_ERROR(CheckSession(s, "TF_ExtendGraph"));
    if (proto == nullptr && proto_len > 0) {
      return errors::InvalidArgument("TF_ExtendGraph: proto is NULL but its length is ",
                                     proto_len);
    }
    sg::GraphDef def;
    SG_RETURN_IF_ERROR(sg::ParseGraphDef(
        absl::string_view(static_cast<const char*>(proto), proto_len), &def));
    absl::MutexLock lock(&s->mu);
    SG_RETURN_IF_ERROR(s->created ? s->session->Extend(def) : s->session->Create(def));
    s->created = true;
    return absl::OkStatus();
  });
}

void TF_Run(TF_DeprecatedSession* s, const TF_Buffer* run_options, const char** input_names,
            TF_Tensor** inputs, int ninputs, const char** output_names, TF_Tensor** outputs,
            int noutputs, const char** target_oper_names, int ntargets, TF_Buffer* run_metadata,
            TF_Status* status) {
  if (noutputs > 0) ClearOutputs(outputs, noutputs);
  sg::c_api::Guard("TF_Run", ToSg(status), [&]() -> absl::Status {
    SG_RETURN_IF_ERROR(CheckSession(s, "TF_Run"));
    sg::RunOptions options;
    if (run_options != nullptr) {
      if ((run_options->data == nullptr && run_options->length > 0) ||
          run_options->length > INT32_MAX ||
          !options.ParseFromArray(run_options->data, static_cast<int>(run_options->length))) {
        return errors::InvalidArgument("TF_Run: unparseable RunOptions proto");
      }
    }
    if (run_metadata != nullptr) {
      SG_RETURN_IF_ERROR(sg::c_api::CheckEmptyBuffer(ToSg(run_metadata), "run_metadata"));
    }
    std::vector<std::pair<std::string, sg::Tensor>> feeds;
    std::vector<std::string> fetches, targets;
    SG_RETURN_IF_ERROR(Feeds(input_names, inputs, ninputs, &feeds));
    SG_RETURN_IF_ERROR(Names(output_names, noutputs, "output_names", &fetches));
    SG_RETURN_IF_ERROR(sg::c_api::CheckArray(outputs, noutputs, "outputs"));
    SG_RETURN_IF_ERROR(Names(target_oper_names, ntargets, "target_oper_names", &targets));
    std::vector<sg::Tensor> results;
    sg::RunMetadata metadata;
    SG_RETURN_IF_ERROR(s->session->Run(options, feeds, fetches, targets, &results,
                                       run_metadata != nullptr ? &metadata : nullptr));
    SG_RETURN_IF_ERROR(Export(results, outputs, noutputs));
    if (run_metadata != nullptr) {
      sg::c_api::FillBuffer(metadata.SerializeAsString(), ToSg(run_metadata));
    }
    return absl::OkStatus();
  });
}

// The partial run lives in the session until it is closed: TF_DeletePRunHandle frees the handle
// string only (sg's SG_DeletePRunHandle knows the partial runs of TF_Session alone).
void TF_PRunSetup(TF_DeprecatedSession* s, const char** input_names, int ninputs,
                  const char** output_names, int noutputs, const char** target_oper_names,
                  int ntargets, const char** handle, TF_Status* status) {
  if (handle != nullptr) *handle = nullptr;
  sg::c_api::Guard("TF_PRunSetup", ToSg(status), [&]() -> absl::Status {
    SG_RETURN_IF_ERROR(CheckSession(s, "TF_PRunSetup"));
    if (handle == nullptr) return errors::InvalidArgument("TF_PRunSetup: handle is NULL");
    std::vector<std::string> feeds, fetches, targets;
    SG_RETURN_IF_ERROR(Names(input_names, ninputs, "input_names", &feeds));
    SG_RETURN_IF_ERROR(Names(output_names, noutputs, "output_names", &fetches));
    SG_RETURN_IF_ERROR(Names(target_oper_names, ntargets, "target_oper_names", &targets));
    std::string h;
    SG_RETURN_IF_ERROR(s->session->PRunSetup(feeds, fetches, targets, &h));
    char* copy = new char[h.size() + 1];
    std::memcpy(copy, h.c_str(), h.size() + 1);
    *handle = copy;
    return absl::OkStatus();
  });
}

void TF_PRun(TF_DeprecatedSession* s, const char* handle, const char** input_names,
             TF_Tensor** inputs, int ninputs, const char** output_names, TF_Tensor** outputs,
             int noutputs, const char** target_oper_names, int ntargets, TF_Status* status) {
  if (noutputs > 0) ClearOutputs(outputs, noutputs);
  sg::c_api::Guard("TF_PRun", ToSg(status), [&]() -> absl::Status {
    SG_RETURN_IF_ERROR(CheckSession(s, "TF_PRun"));
    if (handle == nullptr) return errors::InvalidArgument("TF_PRun: handle is NULL");
    std::vector<std::pair<std::string, sg::Tensor>> feeds;
    std::vector<std::string> fetches, targets;
    SG_RETURN_IF_ERROR(Feeds(input_names, inputs, ninputs, &feeds));
    SG_RETURN_IF_ERROR(Names(output_names, noutputs, "output_names", &fetches));
    SG_RETURN_IF_ERROR(sg::c_api::CheckArray(outputs, noutputs, "outputs"));
    // Targets were declared by TF_PRunSetup; they are checked for well-formedness only.
    SG_RETURN_IF_ERROR(Names(target_oper_names, ntargets, "target_oper_names", &targets));
    std::vector<sg::Tensor> results;
    SG_RETURN_IF_ERROR(s->session->PRun(handle, feeds, fetches, &results));
    return Export(results, outputs, noutputs);
  });
}

TF_DeviceList* TF_DeprecatedSessionListDevices(TF_DeprecatedSession* s, TF_Status* status) {
  TF_DeviceList* result = nullptr;
  sg::c_api::Guard("TF_DeprecatedSessionListDevices", ToSg(status), [&]() -> absl::Status {
    SG_RETURN_IF_ERROR(CheckSession(s, "TF_DeprecatedSessionListDevices"));
    auto list = std::make_unique<SG_DeviceList>();
    SG_RETURN_IF_ERROR(s->session->ListDevices(&list->devices));
    result = ToTf(list.release());
    return absl::OkStatus();
  });
  return result;
}

}  // extern "C"
