// C API: SG_LoadSessionFromSavedModel, over core/runtime/saved_model.h. The MetaGraphDef's graph
// is imported into the caller's (empty) graph, a session is made on that graph as SG_NewSession
// makes one, then the variables are restored and the init op run in it.
#include <string>
#include <unordered_set>

#include "c_api/c_api_internal.h"
#include "core/runtime/saved_model.h"


extern "C" {

SG_Session* SG_LoadSessionFromSavedModel(const SG_SessionOptions* session_options,
                                         const SG_Buffer* run_options, const char* export_dir,
                                         const char* const* tags, int tags_len, SG_Graph* graph,
                                         SG_Buffer* meta_graph_def, SG_Status* status) {
  namespace errors = sg::errors;
  SG_Session* result = nullptr;
  sg::c_api::Guard("SG_LoadSessionFromSavedModel", status, [&]() -> absl::Status {
    if (session_options == nullptr) {
      return errors::InvalidArgument("SG_LoadSessionFromSavedModel: session_options is NULL");
    }
    if (export_dir == nullptr) {
      return errors::InvalidArgument("SG_LoadSessionFromSavedModel: export_dir is NULL");
    }
    if (graph == nullptr) {
      return errors::InvalidArgument("SG_LoadSessionFromSavedModel: graph is NULL");
    }
    SG_RETURN_IF_ERROR(sg::c_api::CheckArray(tags, tags_len, "tags"));
    if (meta_graph_def != nullptr) {
      SG_RETURN_IF_ERROR(sg::c_api::CheckEmptyBuffer(meta_graph_def, "meta_graph_def"));
    }
    sg::RunOptions options;
    if (run_options != nullptr) {
      if ((run_options->data == nullptr && run_options->length > 0) ||
          run_options->length > INT32_MAX ||
          !options.ParseFromArray(run_options->data, static_cast<int>(run_options->length))) {
        return errors::InvalidArgument("Unparseable RunOptions proto");
      }
    }
    std::unordered_set<std::string> tag_set;
    for (int i = 0; i < tags_len; ++i) {
      if (tags[i] == nullptr) return errors::InvalidArgument("tags[", i, "] is NULL");
      tag_set.insert(tags[i]);
    }
    {
      absl::MutexLock lock(&graph->mu);
      if (graph->graph.num_nodes() > 0) {
        return errors::InvalidArgument(
            "SG_LoadSessionFromSavedModel: the graph must be empty, it has ",
            graph->graph.num_nodes(), " operations");
      }
    }

    sg::SavedModel saved_model;
    SG_RETURN_IF_ERROR(sg::ReadSavedModel(export_dir, &saved_model));
    sg::MetaGraphDef mg;
    SG_RETURN_IF_ERROR(sg::FindMetaGraphDef(saved_model, tag_set, export_dir, &mg));

    const std::string graph_bytes = mg.graph_def().SerializeAsString();
    SG_Buffer graph_buf = {graph_bytes.data(), graph_bytes.size(), nullptr};
    SG_Status import_status;
    SG_ImportGraphDefOptions* import_options = SG_NewImportGraphDefOptions();
    SG_GraphImportGraphDef(graph, &graph_buf, import_options, &import_status);
    SG_DeleteImportGraphDefOptions(import_options);
    SG_RETURN_IF_ERROR(errors::Annotate(
        import_status.status,
        absl::StrCat("importing the graph of SavedModel ", export_dir, ": ")));

    SG_Status new_status;
    SG_Session* session = SG_NewSession(graph, session_options, &new_status);
    SG_RETURN_IF_ERROR(new_status.status);
    absl::Status s = sg::c_api::ExtendSession(session);
    if (s.ok()) s = sg::RestoreSavedModelSession(options, mg, export_dir, session->session.get());
    if (!s.ok()) {
      SG_Status ignored;
      SG_CloseSession(session, &ignored);
      SG_DeleteSession(session, &ignored);
      return s;
    }
    if (meta_graph_def != nullptr) sg::c_api::FillBuffer(mg.SerializeAsString(), meta_graph_def);
    result = session;
    return absl::OkStatus();
  });
  return result;
}

}  // extern "C"
