// Loading a TensorFlow SavedModel directory into a session, as TensorFlow's loader does:
//
//   <export_dir>/saved_model.pb (or saved_model.pbtxt)   SavedModel: one MetaGraphDef per tag set
//   <export_dir>/variables/variables.{index,data-*}       the variables' checkpoint (TensorBundle)
//   <export_dir>/assets/                                   files the graph reads (vocabularies...)
//
//   std::unique_ptr<Session> session;
//   MetaGraphDef meta_graph;
//   SG_RETURN_IF_ERROR(LoadSavedModel(SessionOptions(), RunOptions(), "/models/half_plus_two/123",
//                                     {kSavedModelTagServe}, &session, &meta_graph));
//   // meta_graph.signature_def().at("serving_default") maps input and output keys to tensors.
//
// The pieces are public too, for callers that keep the graph themselves (the C API): read the
// MetaGraphDef, create a session with its graph, then RestoreSavedModelSession.
#ifndef SG_CORE_RUNTIME_SAVED_MODEL_H_
#define SG_CORE_RUNTIME_SAVED_MODEL_H_

#include <memory>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "core/framework/status.h"
#include "core/framework/tensor.h"
#include "core/proto/meta_graph.pb.h"
#include "core/proto/saved_model.pb.h"
#include "core/runtime/session.h"

namespace sg {

constexpr char kSavedModelTagServe[] = "serve";
constexpr char kSavedModelTagTrain[] = "train";
constexpr char kDefaultServingSignatureDefKey[] = "serving_default";

// Reads <export_dir>/saved_model.pb, or failing that saved_model.pbtxt.
// Errors: NOT_FOUND when the directory or both files are missing; INVALID_ARGUMENT naming the
// file when it does not parse.
absl::Status ReadSavedModel(const std::string& export_dir, SavedModel* saved_model);

// The MetaGraphDef of `saved_model` whose tags are exactly `tags` (order and repeats ignored).
// NOT_FOUND listing the tag sets there are when none matches.
absl::Status FindMetaGraphDef(const SavedModel& saved_model,
                              const std::unordered_set<std::string>& tags,
                              const std::string& export_dir, MetaGraphDef* meta_graph_def);

// The (tensor name, <export_dir>/assets/<filename>) feeds for the graph's asset tensors, from
// MetaGraphDef.asset_file_def or else the "saved_model_assets" collection.
absl::Status GetAssetFeeds(const MetaGraphDef& meta_graph_def, const std::string& export_dir,
                           std::vector<std::pair<std::string, Tensor>>* feeds);

// On a session that already has meta_graph_def's graph: restores the variables from
// <export_dir>/variables/variables through the saver's restore op (skipped when there is no
// saver or no variables index), then runs the init op (signature "__saved_model_init_op", or
// collection "saved_model_main_op", or "legacy_init_op"), asset paths fed to both.
// Errors: the runs' errors (NOT_FOUND / DATA_LOSS / INVALID_ARGUMENT from RestoreV2...), with a
// note saying which step failed.
absl::Status RestoreSavedModelSession(const RunOptions& run_options,
                                      const MetaGraphDef& meta_graph_def,
                                      const std::string& export_dir, Session* session);

// All of the above: reads, picks the tag set, makes a session (NewSession(session_options)) with
// the graph, restores and initializes it. On error `session` and `meta_graph_def` are untouched.
absl::Status LoadSavedModel(const SessionOptions& session_options, const RunOptions& run_options,
                            const std::string& export_dir,
                            const std::unordered_set<std::string>& tags,
                            std::unique_ptr<Session>* session, MetaGraphDef* meta_graph_def);

}  // namespace sg

#endif  // SG_CORE_RUNTIME_SAVED_MODEL_H_
