// C API: sessions (made through the SessionFactory registry), runs, partial runs, a step's
// partition graphs, devices.
#include <cstring>
#include <map>

#include "c_api/c_api_internal.h"

namespace sg {
namespace c_api {

absl::Status ExtendSession(SG_Session* s) {
  absl::MutexLock session_lock(&s->mu);
  SharedGraphDef def;
  int num_node_ids, num_functions, function_removals;
  {
    // The graph is read as graph->graph, not through a `const Graph&`: Clang 14's
    // thread-safety analysis loses the lock of a member read through a const reference.
    SG_Graph* graph = s->graph;
    absl::MutexLock graph_lock(&graph->mu);
    num_node_ids = graph->graph.num_node_ids();
    num_functions = graph->graph.flib().num_functions();
    function_removals = graph->function_removals;
    // A removal followed by an addition leaves the count as it was: removals are counted too.
    const bool library_changed = num_functions != s->extended_functions ||
                                 function_removals != s->extended_function_removals;
    if (s->created && num_node_ids == s->extended_node_ids && !library_changed) {
      return absl::OkStatus();
    }
    def.has_versions = true;
    def.versions = graph->graph.versions();
    if (library_changed) graph->graph.flib().ToProto(&def.library);
    // The session shares the nodes' NodeDefs (immutable once shared) rather than copying them.
    for (int id = s->extended_node_ids; id < num_node_ids; ++id) {
      const Node* n = graph->graph.FindNodeId(id);
      if (n != nullptr) def.nodes.push_back(SharedNodeDef(*n));
    }
  }
  // On failure the counters stay, so the next run sends the same nodes again.
  SG_RETURN_IF_ERROR(s->created ? s->session->ExtendShared(def) : s->session->CreateShared(def));
  s->created = true;
  s->extended_node_ids = num_node_ids;
  s->extended_functions = num_functions;
  s->extended_function_removals = function_removals;
  return absl::OkStatus();
}

namespace {

// Names of feeds, fetches and targets, checked to be operations of the session's graph.
struct RunArgs {
  std::vector<std::pair<std::string, Tensor>> feeds;
  std::vector<std::string> feed_names;
  std::vector<std::string> fetches;
  std::vector<std::string> targets;
};

absl::Status CheckOutputOf(const Graph& g, SG_Output o, const std::string& what) {
  if (o.oper == nullptr) return errors::InvalidArgument(what, " has a NULL operation");
  const Node* n = ToNode(o.oper);
  if (g.FindNodeId(n->id()) != n) {
    return errors::NotFound(what, " ('", OutputName(o), "') is an operation of another graph");
  }
  if (o.index < 0 || o.index >= n->num_outputs()) {
    return errors::NotFound(what, ": there is no tensor '", OutputName(o), "' (operation '",
                            n->name(), "' has ", n->num_outputs(), " outputs)");
  }
  return absl::OkStatus();
}

absl::Status MakeRunArgs(SG_Session* s, const SG_Output* inputs, SG_Tensor* const* input_values,
                         int ninputs, bool with_values, const SG_Output* outputs, int noutputs,
                         const SG_Operation* const* targets, int ntargets, RunArgs* args) {
  SG_RETURN_IF_ERROR(CheckArray(inputs, ninputs, "inputs"));
  if (with_values) SG_RETURN_IF_ERROR(CheckArray(input_values, ninputs, "input_values"));
  SG_RETURN_IF_ERROR(CheckArray(outputs, noutputs, "outputs"));
  SG_RETURN_IF_ERROR(CheckArray(targets, ntargets, "target_opers"));
  SG_Graph* graph = s->graph;
  absl::MutexLock lock(&graph->mu);
  for (int i = 0; i < ninputs; ++i) {
    const std::string what = absl::StrCat("inputs[", i, "]");
    SG_RETURN_IF_ERROR(CheckOutputOf(graph->graph, inputs[i], what));
    const std::string name = OutputName(inputs[i]);
    args->feed_names.push_back(name);
    if (!with_values) continue;
    if (input_values[i] == nullptr) {
      return errors::InvalidArgument("input_values[", i, "] (feed of '", name, "') is NULL");
    }
    const DataType want = BaseType(ToNode(inputs[i].oper)->output_type(inputs[i].index));
    if (input_values[i]->dtype != want) {
      return errors::InvalidArgument("feed of '", name, "' has dtype ",
                                     DataTypeString(input_values[i]->dtype), " but '", name,
                                     "' is ", DataTypeString(want));
    }
    auto t = ToTensor(*input_values[i]);
    if (!t.ok()) return errors::Annotate(t.status(), absl::StrCat("feed of '", name, "': "));
    args->feeds.emplace_back(name, *std::move(t));
  }
  for (int i = 0; i < noutputs; ++i) {
    SG_RETURN_IF_ERROR(
        CheckOutputOf(graph->graph, outputs[i], absl::StrCat("outputs[", i, "]")));
    args->fetches.push_back(OutputName(outputs[i]));
  }
  for (int i = 0; i < ntargets; ++i) {
    if (targets[i] == nullptr) return errors::InvalidArgument("target_opers[", i, "] is NULL");
    const Node* n = ToNode(targets[i]);
    if (graph->graph.FindNodeId(n->id()) != n) {
      return errors::NotFound("target_opers[", i, "] ('", n->name(),
                              "') is an operation of another graph");
    }
    args->targets.push_back(n->name());
  }
  return absl::OkStatus();
}

// Hands `results` to C as new tensors, all or none, strings in the layout of s's graph.
absl::Status ExportOutputs(SG_Session* s, const std::vector<Tensor>& results,
                           SG_Tensor** output_values, int noutputs,
                           const std::vector<std::string>& names) {
  if (static_cast<int>(results.size()) != noutputs) {
    return errors::Internal("the session returned ", results.size(), " tensors for ", noutputs,
                            " fetches");
  }
  std::vector<std::unique_ptr<SG_Tensor>> made;
  for (int i = 0; i < noutputs; ++i) {
    auto t = FromTensor(results[i], s->graph->string_layout.load());
    if (!t.ok()) return errors::Annotate(t.status(), absl::StrCat("fetch of '", names[i], "': "));
    made.emplace_back(*t);
  }
  for (int i = 0; i < noutputs; ++i) output_values[i] = made[i].release();
  return absl::OkStatus();
}

void ClearOutputs(SG_Tensor** output_values, int noutputs) {
  if (output_values == nullptr) return;
  for (int i = 0; i < noutputs; ++i) output_values[i] = nullptr;
}

// Partial-run handles handed to C, so SG_DeletePRunHandle can release them in their session.
absl::Mutex* HandlesMu() {
  static auto* mu = new absl::Mutex;
  return mu;
}
std::map<const char*, SG_Session*>* Handles() {
  static auto* handles = new std::map<const char*, SG_Session*>;
  return handles;
}

}  // namespace
}  // namespace c_api
}  // namespace sg

using sg::c_api::Guard;
namespace errors = sg::errors;

extern "C" {

SG_Session* SG_NewSession(SG_Graph* graph, const SG_SessionOptions* opts, SG_Status* status) {
  SG_Session* result = nullptr;
  Guard("SG_NewSession", status, [&]() -> absl::Status {
    if (graph == nullptr) return errors::InvalidArgument("SG_NewSession: graph is NULL");
    if (opts == nullptr) return errors::InvalidArgument("SG_NewSession: options are NULL");
    std::unique_ptr<sg::Session> session;
    SG_RETURN_IF_ERROR(sg::NewSession(opts->options, &session));
    auto* s = new SG_Session;
    s->session = std::move(session);
    s->graph = graph;
    {
      absl::MutexLock lock(&graph->mu);
      ++graph->num_sessions;
    }
    result = s;
    return absl::OkStatus();
  });
  return result;
}

void SG_CloseSession(SG_Session* session, SG_Status* status) {
  Guard("SG_CloseSession", status, [&]() -> absl::Status {
    if (session == nullptr) return errors::InvalidArgument("SG_CloseSession: session is NULL");
    return session->session->Close();
  });
}

void SG_DeleteSession(SG_Session* session, SG_Status* status) {
  if (session == nullptr) {
    sg::c_api::SetOk(status);
    return;
  }
  Guard("SG_DeleteSession", status, [&]() -> absl::Status {
    absl::Status s = session->session->Close();
    {
      absl::MutexLock lock(sg::c_api::HandlesMu());
      auto* handles = sg::c_api::Handles();
      for (auto it = handles->begin(); it != handles->end();) {
        it = it->second == session ? handles->erase(it) : std::next(it);
      }
    }
    session->session.reset();
    sg::c_api::ReleaseGraph(session->graph, /*from_session=*/true);
    delete session;
    return s;
  });
}

void SG_SessionRun(SG_Session* session, const SG_Buffer* run_options, const SG_Output* inputs,
                   SG_Tensor* const* input_values, int ninputs, const SG_Output* outputs,
                   SG_Tensor** output_values, int noutputs,
                   const SG_Operation* const* target_opers, int ntargets,
                   SG_Buffer* run_metadata, SG_Status* status) {
  // Outputs are NULL on failure, so clear them first (when the array is usable at all).
  if (output_values != nullptr && noutputs > 0) sg::c_api::ClearOutputs(output_values, noutputs);
  Guard("SG_SessionRun", status, [&]() -> absl::Status {
    if (session == nullptr) return errors::InvalidArgument("SG_SessionRun: session is NULL");
    SG_RETURN_IF_ERROR(sg::c_api::CheckArray(output_values, noutputs, "output_values"));
    sg::RunOptions options;
    if (run_options != nullptr) {
      if ((run_options->data == nullptr && run_options->length > 0) ||
          run_options->length > INT32_MAX ||
          !options.ParseFromArray(run_options->data, static_cast<int>(run_options->length))) {
        return errors::InvalidArgument("Unparseable RunOptions proto");
      }
    }
    if (run_metadata != nullptr) {
      SG_RETURN_IF_ERROR(sg::c_api::CheckEmptyBuffer(run_metadata, "run_metadata"));
    }
    sg::c_api::RunArgs args;
    SG_RETURN_IF_ERROR(sg::c_api::MakeRunArgs(session, inputs, input_values, ninputs, true,
                                              outputs, noutputs, target_opers, ntargets, &args));
    SG_RETURN_IF_ERROR(sg::c_api::ExtendSession(session));
    std::vector<sg::Tensor> results;
    sg::RunMetadata metadata;
    SG_RETURN_IF_ERROR(session->session->Run(options, args.feeds, args.fetches, args.targets,
                                             &results,
                                             run_metadata != nullptr ? &metadata : nullptr));
    SG_RETURN_IF_ERROR(
        sg::c_api::ExportOutputs(session, results, output_values, noutputs, args.fetches));
    if (run_metadata != nullptr) {
      sg::c_api::FillBuffer(metadata.SerializeAsString(), run_metadata);
    }
    return absl::OkStatus();
  });
  if (status != nullptr && !status->status.ok() && output_values != nullptr && noutputs > 0) {
    for (int i = 0; i < noutputs; ++i) {
      SG_DeleteTensor(output_values[i]);
      output_values[i] = nullptr;
    }
  }
}

void SG_SessionGetPartitionGraphs(SG_Session* session, const SG_Output* inputs, int ninputs,
                                  const SG_Output* outputs, int noutputs,
                                  const SG_Operation* const* target_opers, int ntargets,
                                  SG_Buffer* run_metadata, SG_Status* status) {
  Guard("SG_SessionGetPartitionGraphs", status, [&]() -> absl::Status {
    if (session == nullptr) {
      return errors::InvalidArgument("SG_SessionGetPartitionGraphs: session is NULL");
    }
    SG_RETURN_IF_ERROR(sg::c_api::CheckEmptyBuffer(run_metadata, "run_metadata"));
    sg::c_api::RunArgs args;
    SG_RETURN_IF_ERROR(sg::c_api::MakeRunArgs(session, inputs, nullptr, ninputs, false, outputs,
                                              noutputs, target_opers, ntargets, &args));
    SG_RETURN_IF_ERROR(sg::c_api::ExtendSession(session));
    sg::RunMetadata metadata;
    SG_RETURN_IF_ERROR(
        session->session->PartitionGraphs(args.feed_names, args.fetches, args.targets, &metadata));
    sg::c_api::FillBuffer(metadata.SerializeAsString(), run_metadata);
    return absl::OkStatus();
  });
}

void SG_SessionPRunSetup(SG_Session* session, const SG_Output* inputs, int ninputs,
                         const SG_Output* outputs, int noutputs,
                         const SG_Operation* const* target_opers, int ntargets,
                         const char** handle, SG_Status* status) {
  if (handle != nullptr) *handle = nullptr;
  Guard("SG_SessionPRunSetup", status, [&]() -> absl::Status {
    if (session == nullptr) return errors::InvalidArgument("SG_SessionPRunSetup: session is NULL");
    if (handle == nullptr) return errors::InvalidArgument("SG_SessionPRunSetup: handle is NULL");
    sg::c_api::RunArgs args;
    SG_RETURN_IF_ERROR(sg::c_api::MakeRunArgs(session, inputs, nullptr, ninputs, false, outputs,
                                              noutputs, target_opers, ntargets, &args));
    SG_RETURN_IF_ERROR(sg::c_api::ExtendSession(session));
    std::string h;
    SG_RETURN_IF_ERROR(
        session->session->PRunSetup(args.feed_names, args.fetches, args.targets, &h));
    char* copy = new char[h.size() + 1];
    std::memcpy(copy, h.c_str(), h.size() + 1);
    {
      absl::MutexLock lock(sg::c_api::HandlesMu());
      (*sg::c_api::Handles())[copy] = session;
    }
    *handle = copy;
    return absl::OkStatus();
  });
}

void SG_SessionPRun(SG_Session* session, const char* handle, const SG_Output* inputs,
                    SG_Tensor* const* input_values, int ninputs, const SG_Output* outputs,
                    SG_Tensor** output_values, int noutputs,
                    const SG_Operation* const* target_opers, int ntargets, SG_Status* status) {
  if (output_values != nullptr && noutputs > 0) sg::c_api::ClearOutputs(output_values, noutputs);
  Guard("SG_SessionPRun", status, [&]() -> absl::Status {
    if (session == nullptr) return errors::InvalidArgument("SG_SessionPRun: session is NULL");
    if (handle == nullptr) return errors::InvalidArgument("SG_SessionPRun: handle is NULL");
    SG_RETURN_IF_ERROR(sg::c_api::CheckArray(output_values, noutputs, "output_values"));
    sg::c_api::RunArgs args;
    SG_RETURN_IF_ERROR(sg::c_api::MakeRunArgs(session, inputs, input_values, ninputs, true,
                                              outputs, noutputs, target_opers, ntargets, &args));
    // Targets were declared in PRunSetup; the session runs them with the last fetch.
    std::vector<sg::Tensor> results;
    SG_RETURN_IF_ERROR(session->session->PRun(handle, args.feeds, args.fetches, &results));
    return sg::c_api::ExportOutputs(session, results, output_values, noutputs, args.fetches);
  });
}

void SG_DeletePRunHandle(const char* handle) {
  if (handle == nullptr) return;
  SG_Session* session = nullptr;
  {
    absl::MutexLock lock(sg::c_api::HandlesMu());
    auto it = sg::c_api::Handles()->find(handle);
    if (it != sg::c_api::Handles()->end()) {
      session = it->second;
      sg::c_api::Handles()->erase(it);
    }
  }
  if (session != nullptr) {
    sg::c_api::GuardValue<int>(0, [&] {
      session->session->ReleasePRun(handle);
      return 0;
    });
  }
  delete[] handle;
}

SG_DeviceList* SG_SessionListDevices(SG_Session* session, SG_Status* status) {
  SG_DeviceList* result = nullptr;
  Guard("SG_SessionListDevices", status, [&]() -> absl::Status {
    if (session == nullptr) {
      return errors::InvalidArgument("SG_SessionListDevices: session is NULL");
    }
    auto list = std::make_unique<SG_DeviceList>();
    SG_RETURN_IF_ERROR(session->session->ListDevices(&list->devices));
    result = list.release();
    return absl::OkStatus();
  });
  return result;
}

void SG_DeleteDeviceList(SG_DeviceList* list) { delete list; }

int SG_DeviceListCount(const SG_DeviceList* list) {
  return list ? static_cast<int>(list->devices.size()) : 0;
}

static const sg::DeviceAttributes* Device(const SG_DeviceList* list, int index, const char* where,
                                          SG_Status* status) {
  const sg::DeviceAttributes* d = nullptr;
  Guard(where, status, [&]() -> absl::Status {
    if (list == nullptr) return errors::InvalidArgument(where, ": list is NULL");
    if (index < 0 || index >= static_cast<int>(list->devices.size())) {
      return errors::InvalidArgument(where, ": index ", index, " is out of range [0, ",
                                     list->devices.size(), ")");
    }
    d = &list->devices[index];
    return absl::OkStatus();
  });
  return d;
}

const char* SG_DeviceListName(const SG_DeviceList* list, int index, SG_Status* status) {
  const sg::DeviceAttributes* d = Device(list, index, "SG_DeviceListName", status);
  return d ? d->name().c_str() : nullptr;
}

const char* SG_DeviceListType(const SG_DeviceList* list, int index, SG_Status* status) {
  const sg::DeviceAttributes* d = Device(list, index, "SG_DeviceListType", status);
  return d ? d->device_type().c_str() : nullptr;
}

int64_t SG_DeviceListMemoryBytes(const SG_DeviceList* list, int index, SG_Status* status) {
  const sg::DeviceAttributes* d = Device(list, index, "SG_DeviceListMemoryBytes", status);
  return d ? d->memory_limit() : -1;
}

uint64_t SG_DeviceListIncarnation(const SG_DeviceList* list, int index, SG_Status* status) {
  const sg::DeviceAttributes* d = Device(list, index, "SG_DeviceListIncarnation", status);
  return d ? d->incarnation() : 0;
}

void SG_Reset(const SG_SessionOptions* opt, const char** containers, int ncontainers,
              SG_Status* status) {
  Guard("SG_Reset", status, [&]() -> absl::Status {
    if (opt == nullptr) return errors::InvalidArgument("SG_Reset: options are NULL");
    SG_RETURN_IF_ERROR(sg::c_api::CheckArray(containers, ncontainers, "SG_Reset: containers"));
    std::vector<std::string> names;
    for (int i = 0; i < ncontainers; ++i) {
      if (containers[i] == nullptr) {
        return errors::InvalidArgument("SG_Reset: containers[", i, "] is NULL");
      }
      names.push_back(containers[i]);
    }
    return sg::Reset(opt->options, names);
  });
}

}  // extern "C"
