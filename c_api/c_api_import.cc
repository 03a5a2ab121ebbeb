// C API: importing a GraphDef into a graph, with TensorFlow's import options and results.
#include <utility>

#include "absl/strings/string_view.h"
#include "c_api/c_api_internal.h"

namespace sg {
namespace c_api {
namespace {

// Converts the C options for `g` (checking that the operations they name are g's).
absl::Status ToImportOptions(const SG_ImportGraphDefOptions& in, const Graph& g,
                             ImportOptions* out) {
  out->prefix = in.prefix;
  out->uniquify_names = in.uniquify_names;
  out->uniquify_prefix = in.uniquify_prefix;
  out->default_device = in.default_device;
  for (const auto& m : in.input_map) {
    const std::string what = absl::StrCat("input mapping '", m.first.first, ":", m.first.second,
                                          "'");
    if (m.first.first.empty() || m.first.second < 0) {
      return errors::InvalidArgument(what, ": the source must be a name and an index >= 0");
    }
    SG_RETURN_IF_ERROR(CheckOwned(g, m.second.oper, absl::StrCat(what, ": destination")));
    const Node* dst = ToNode(m.second.oper);
    if (m.second.index < 0 || m.second.index >= dst->num_outputs()) {
      return errors::InvalidArgument(what, ": destination ", OutputName(m.second),
                                     " is out of range (", dst->num_outputs(), " outputs)");
    }
    out->input_map[m.first] = {ToNode(m.second.oper), m.second.index};
  }
  for (const auto& m : in.control_map) {
    SG_RETURN_IF_ERROR(CheckOwned(
        g, m.second, absl::StrCat("control dependency remapping of '^", m.first, "'")));
    out->control_map[m.first] = ToNode(m.second);
  }
  for (SG_Operation* c : in.control_dependencies) {
    SG_RETURN_IF_ERROR(CheckOwned(g, c, "an added control dependency"));
    out->control_dependencies.push_back(ToNode(c));
  }
  for (const auto& r : in.return_outputs) {
    if (r.first.empty() || r.second < 0) {
      return errors::InvalidArgument("return output '", r.first, ":", r.second,
                                     "' needs a name and an index >= 0");
    }
  }
  out->return_tensors = in.return_outputs;
  for (const auto& r : in.return_operations) {
    if (r.empty()) return errors::InvalidArgument("a return operation has an empty name");
  }
  out->return_nodes = in.return_operations;
  return absl::OkStatus();
}

absl::Status Import(SG_Graph* graph, const SG_Buffer* graph_def,
                    const SG_ImportGraphDefOptions* options, SG_ImportGraphDefResults* results) {
  if (graph == nullptr) return errors::InvalidArgument("GraphDef import: graph is NULL");
  if (graph_def == nullptr) return errors::InvalidArgument("GraphDef import: graph_def is NULL");
  if (graph_def->data == nullptr && graph_def->length > 0) {
    return errors::InvalidArgument("GraphDef import: graph_def->data is NULL but its length is ",
                                   graph_def->length);
  }
  GraphDef def;
  SG_RETURN_IF_ERROR(ParseGraphDef(
      absl::string_view(static_cast<const char*>(graph_def->data), graph_def->length), &def));
  SG_ImportGraphDefOptions defaults;
  absl::MutexLock lock(&graph->mu);
  ImportOptions opts;
  SG_RETURN_IF_ERROR(ToImportOptions(options ? *options : defaults, graph->graph, &opts));
  ImportResults r;
  SG_RETURN_IF_ERROR(ImportGraphDef(std::move(def), opts, &graph->graph, &r));
  if (results != nullptr) {
    for (const auto& t : r.return_tensors) {
      results->return_outputs.push_back(SG_Output{ToOperation(t.first), t.second});
    }
    for (Node* n : r.return_nodes) results->return_operations.push_back(ToOperation(n));
    for (const auto& k : r.missing_unused_input_map_keys) {
      results->missing_names.push_back(k.first);
      results->missing_indexes.push_back(k.second);
    }
    for (const auto& s : results->missing_names) results->missing_name_ptrs.push_back(s.c_str());
  }
  return absl::OkStatus();
}

}  // namespace
}  // namespace c_api
}  // namespace sg

using sg::c_api::Guard;
using sg::c_api::GuardValue;
namespace errors = sg::errors;

namespace {

// The setters store what they are given; SG_GraphImportGraphDef* checks it, naming the culprit.
template <typename Fn>
void Store(SG_ImportGraphDefOptions* opts, Fn&& fn) {
  if (opts == nullptr) return;
  GuardValue<int>(0, [&] {
    fn();
    return 0;
  });
}

std::string Str(const char* s) { return s ? s : ""; }

}  // namespace

extern "C" {

SG_ImportGraphDefOptions* SG_NewImportGraphDefOptions(void) {
  return new (std::nothrow) SG_ImportGraphDefOptions;
}

void SG_DeleteImportGraphDefOptions(SG_ImportGraphDefOptions* opts) { delete opts; }


void SG_ImportGraphDefOptionsSetPrefix(SG_ImportGraphDefOptions* opts, const char* prefix) {
  Store(opts, [&] { opts->prefix = Str(prefix); });
}

void SG_ImportGraphDefOptionsSetDefaultDevice(SG_ImportGraphDefOptions* opts,
                                              const char* device) {
  Store(opts, [&] { opts->default_device = Str(device); });
}

void SG_ImportGraphDefOptionsSetUniquifyNames(SG_ImportGraphDefOptions* opts,
                                              unsigned char uniquify_names) {
  Store(opts, [&] { opts->uniquify_names = uniquify_names != 0; });
}

void SG_ImportGraphDefOptionsSetUniquifyPrefix(SG_ImportGraphDefOptions* opts,
                                               unsigned char uniquify_prefix) {
  Store(opts, [&] { opts->uniquify_prefix = uniquify_prefix != 0; });
}

void SG_ImportGraphDefOptionsAddInputMapping(SG_ImportGraphDefOptions* opts,
                                             const char* src_name, int src_index,
                                             SG_Output dst) {
  Store(opts, [&] { opts->input_map.push_back({{Str(src_name), src_index}, dst}); });
}

void SG_ImportGraphDefOptionsRemapControlDependency(SG_ImportGraphDefOptions* opts,
                                                    const char* src_name, SG_Operation* dst) {
  Store(opts, [&] { opts->control_map.push_back({Str(src_name), dst}); });
}

void SG_ImportGraphDefOptionsAddControlDependency(SG_ImportGraphDefOptions* opts,
                                                  SG_Operation* oper) {
  Store(opts, [&] { opts->control_dependencies.push_back(oper); });
}

void SG_ImportGraphDefOptionsAddReturnOutput(SG_ImportGraphDefOptions* opts,
                                             const char* oper_name, int index) {
  Store(opts, [&] { opts->return_outputs.push_back({Str(oper_name), index}); });
}

int SG_ImportGraphDefOptionsNumReturnOutputs(const SG_ImportGraphDefOptions* opts) {
  return opts ? static_cast<int>(opts->return_outputs.size()) : 0;
}

void SG_ImportGraphDefOptionsAddReturnOperation(SG_ImportGraphDefOptions* opts,
                                                const char* oper_name) {
  Store(opts, [&] { opts->return_operations.push_back(Str(oper_name)); });
}

int SG_ImportGraphDefOptionsNumReturnOperations(const SG_ImportGraphDefOptions* opts) {
  return opts ? static_cast<int>(opts->return_operations.size()) : 0;
}

SG_ImportGraphDefResults* SG_GraphImportGraphDefWithResults(
    SG_Graph* graph, const SG_Buffer* graph_def, const SG_ImportGraphDefOptions* options,
    SG_Status* status) {
  SG_ImportGraphDefResults* out = nullptr;
  Guard("SG_GraphImportGraphDefWithResults", status, [&]() -> absl::Status {
    auto results = std::make_unique<SG_ImportGraphDefResults>();
    SG_RETURN_IF_ERROR(sg::c_api::Import(graph, graph_def, options, results.get()));
    out = results.release();
    return absl::OkStatus();
  });
  return out;
}

void SG_ImportGraphDefResultsReturnOutputs(SG_ImportGraphDefResults* results, int* num_outputs,
                                           SG_Output** outputs) {
  if (num_outputs) *num_outputs = results ? static_cast<int>(results->return_outputs.size()) : 0;
  if (outputs) *outputs = results ? results->return_outputs.data() : nullptr;
}

void SG_ImportGraphDefResultsReturnOperations(SG_ImportGraphDefResults* results, int* num_opers,
                                              SG_Operation*** opers) {
  if (num_opers) *num_opers = results ? static_cast<int>(results->return_operations.size()) : 0;
  if (opers) *opers = results ? results->return_operations.data() : nullptr;
}

void SG_ImportGraphDefResultsMissingUnusedInputMappings(
    SG_ImportGraphDefResults* results, int* num_missing_unused_input_mappings,
    const char*** src_names, int** src_indexes) {
  if (num_missing_unused_input_mappings) {
    *num_missing_unused_input_mappings =
        results ? static_cast<int>(results->missing_names.size()) : 0;
  }
  if (src_names) *src_names = results ? results->missing_name_ptrs.data() : nullptr;
  if (src_indexes) *src_indexes = results ? results->missing_indexes.data() : nullptr;
}

void SG_DeleteImportGraphDefResults(SG_ImportGraphDefResults* results) { delete results; }

void SG_GraphImportGraphDefWithReturnOutputs(SG_Graph* graph, const SG_Buffer* graph_def,
                                             const SG_ImportGraphDefOptions* options,
                                             SG_Output* return_outputs, int num_return_outputs,
                                             SG_Status* status) {
  Guard("SG_GraphImportGraphDefWithReturnOutputs", status, [&]() -> absl::Status {
    SG_RETURN_IF_ERROR(sg::c_api::CheckArray(return_outputs, num_return_outputs,
                                             "SG_GraphImportGraphDefWithReturnOutputs: "
                                             "return_outputs"));
    const int expected = SG_ImportGraphDefOptionsNumReturnOutputs(options);
    if (num_return_outputs != expected) {
      return errors::InvalidArgument("SG_GraphImportGraphDefWithReturnOutputs: ",
                                     "num_return_outputs is ", num_return_outputs,
                                     " but the options request ", expected);
    }
    SG_ImportGraphDefResults results;
    SG_RETURN_IF_ERROR(sg::c_api::Import(graph, graph_def, options, &results));
    for (int i = 0; i < num_return_outputs; ++i) return_outputs[i] = results.return_outputs[i];
    return absl::OkStatus();
  });
}

void SG_GraphImportGraphDef(SG_Graph* graph, const SG_Buffer* graph_def,
                            const SG_ImportGraphDefOptions* options, SG_Status* status) {
  Guard("SG_GraphImportGraphDef", status, [&]() -> absl::Status {
    return sg::c_api::Import(graph, graph_def, options, nullptr);
  });
}

}  // extern "C"
