#include "core/runtime/saved_model.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "google/protobuf/text_format.h"
#include "core/util/tensor_bundle.h"

namespace sg {
namespace {

namespace fs = std::filesystem;

constexpr char kSavedModelFilenamePb[] = "saved_model.pb";
constexpr char kSavedModelFilenamePbTxt[] = "saved_model.pbtxt";
constexpr char kAssetsCollection[] = "saved_model_assets";
constexpr char kMainOpCollection[] = "saved_model_main_op";
constexpr char kLegacyInitOpCollection[] = "legacy_init_op";
constexpr char kInitOpSignatureKey[] = "__saved_model_init_op";

std::string Join(const std::string& dir, const std::string& name) {
  return (fs::path(dir) / name).string();
}

// Text-format SavedModels spell Any payloads as "[type.googleapis.com/tensorflow.X] {...}"; the
// same message is sg.X here, with the same fields.
class TensorFlowAnyFinder : public google::protobuf::TextFormat::Finder {
 public:
  const google::protobuf::Descriptor* FindAnyType(const google::protobuf::Message& message,
                                                  const std::string& prefix,
                                                  const std::string& name) const override {
    std::string full = name;
    if (absl::StartsWith(full, "tensorflow.")) full = "sg." + full.substr(11);
    return message.GetDescriptor()->file()->pool()->FindMessageTypeByName(full);
  }
};

absl::Status ReadFile(const std::string& path, std::string* bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return errors::NotFound("cannot open ", path);
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return errors::DataLoss("cannot read ", path);
  *bytes = std::move(ss).str();
  return absl::OkStatus();
}

std::string TagSetString(const std::vector<std::string>& tags) {
  std::vector<std::string> sorted(tags.begin(), tags.end());
  std::sort(sorted.begin(), sorted.end());
  return absl::StrCat("{", absl::StrJoin(sorted, ", "), "}");
}

// The node named by a one-entry node_list collection, or "" when the collection is absent.
absl::Status GetOpFromCollection(const MetaGraphDef& mg, const std::string& key,
                                 std::string* op_name) {
  auto it = mg.collection_def().find(key);
  if (it == mg.collection_def().end()) return absl::OkStatus();
  const CollectionDef& c = it->second;
  if (!c.has_node_list() || c.node_list().value_size() != 1) {
    return errors::FailedPrecondition("collection ", key,
                                      " must hold exactly one node name, as a node_list");
  }
  *op_name = c.node_list().value(0);
  return absl::OkStatus();
}

absl::Status GetInitOp(const MetaGraphDef& mg, std::string* op_name) {
  auto sig = mg.signature_def().find(kInitOpSignatureKey);
  if (sig != mg.signature_def().end()) {
    auto out = sig->second.outputs().find(kInitOpSignatureKey);
    if (out != sig->second.outputs().end()) {
      *op_name = out->second.name();
      return absl::OkStatus();
    }
  }
  SG_RETURN_IF_ERROR(GetOpFromCollection(mg, kMainOpCollection, op_name));
  if (!op_name->empty()) return absl::OkStatus();
  return GetOpFromCollection(mg, kLegacyInitOpCollection, op_name);
}

// "name:0" -> "name": a run target is a node.
std::string NodeName(const std::string& tensor_name) {
  std::string n = tensor_name;
  if (!n.empty() && n[0] == '^') n.erase(0, 1);
  const size_t colon = n.find(':');
  if (colon != std::string::npos) n.resize(colon);
  return n;
}

}  // namespace

absl::Status ReadSavedModel(const std::string& export_dir, SavedModel* saved_model) {
  std::error_code ec;
  if (!fs::is_directory(export_dir, ec)) {
    return errors::NotFound("SavedModel directory ", export_dir, " not found");
  }
  const std::string pb = Join(export_dir, kSavedModelFilenamePb);
  const std::string pbtxt = Join(export_dir, kSavedModelFilenamePbTxt);
  std::string bytes;
  if (fs::exists(pb, ec)) {
    SG_RETURN_IF_ERROR(ReadFile(pb, &bytes));
    if (!saved_model->ParseFromString(bytes)) {
      return errors::InvalidArgument(pb, " does not parse as a SavedModel (corrupt or not binary)");
    }
    return absl::OkStatus();
  }
  if (fs::exists(pbtxt, ec)) {
    SG_RETURN_IF_ERROR(ReadFile(pbtxt, &bytes));
    google::protobuf::TextFormat::Parser parser;
    TensorFlowAnyFinder finder;
    parser.SetFinder(&finder);
    if (!parser.ParseFromString(bytes, saved_model)) {
      return errors::InvalidArgument(pbtxt, " does not parse as a text SavedModel");
    }
    return absl::OkStatus();
  }
  return errors::NotFound("no ", kSavedModelFilenamePb, " or ", kSavedModelFilenamePbTxt,
                          " in SavedModel directory ", export_dir);
}

absl::Status FindMetaGraphDef(const SavedModel& saved_model,
                              const std::unordered_set<std::string>& tags,
                              const std::string& export_dir, MetaGraphDef* meta_graph_def) {
  std::vector<std::string> available;
  for (const MetaGraphDef& mg : saved_model.meta_graphs()) {
    const auto& t = mg.meta_info_def().tags();
    std::unordered_set<std::string> have(t.begin(), t.end());
    if (have == tags) {
      *meta_graph_def = mg;
      return absl::OkStatus();
    }
    available.push_back(TagSetString(std::vector<std::string>(t.begin(), t.end())));
  }
  return errors::NotFound("no MetaGraphDef in SavedModel ", export_dir, " has the tags ",
                          TagSetString(std::vector<std::string>(tags.begin(), tags.end())),
                          "; its tag sets are: ",
                          available.empty() ? "(none)" : absl::StrJoin(available, " "));
}

absl::Status GetAssetFeeds(const MetaGraphDef& mg, const std::string& export_dir,
                           std::vector<std::pair<std::string, Tensor>>* feeds) {
  std::vector<AssetFileDef> assets(mg.asset_file_def().begin(), mg.asset_file_def().end());
  if (assets.empty()) {
    auto it = mg.collection_def().find(kAssetsCollection);
    if (it != mg.collection_def().end()) {
      // The Any's type URL names tensorflow.AssetFileDef; the bytes are the same as sg's.
      for (const auto& any : it->second.any_list().value()) {
        AssetFileDef a;
        if (!a.ParseFromString(any.value())) {
          return errors::InvalidArgument("collection ", kAssetsCollection,
                                         " holds an entry that is not an AssetFileDef");
        }
        assets.push_back(std::move(a));
      }
    }
  }
  const std::string assets_dir = Join(export_dir, "assets");
  for (const AssetFileDef& a : assets) {
    if (a.tensor_info().name().empty()) {
      return errors::InvalidArgument("asset ", a.filename(), " names no tensor");
    }
    feeds->emplace_back(a.tensor_info().name(),
                        Tensor::Scalar<tstring>(Join(assets_dir, a.filename())));
  }
  return absl::OkStatus();
}

absl::Status RestoreSavedModelSession(const RunOptions& run_options, const MetaGraphDef& mg,
                                      const std::string& export_dir, Session* session) {
  std::vector<std::pair<std::string, Tensor>> asset_feeds;
  SG_RETURN_IF_ERROR(GetAssetFeeds(mg, export_dir, &asset_feeds));

  const SaverDef& saver = mg.saver_def();
  const std::string prefix = Join(Join(export_dir, "variables"), "variables");
  std::error_code ec;
  if (!saver.restore_op_name().empty() && fs::exists(BundleIndexFilename(prefix), ec)) {
    std::vector<std::pair<std::string, Tensor>> feeds = asset_feeds;
    feeds.emplace_back(saver.filename_tensor_name(), Tensor::Scalar<tstring>(prefix));
    std::vector<Tensor> unused;
    absl::Status s = session->Run(run_options, feeds, {}, {NodeName(saver.restore_op_name())},
                                  &unused, nullptr);
    if (!s.ok()) {
      return errors::Annotate(
          s, absl::StrCat("restoring the variables of SavedModel ", export_dir, " from ", prefix,
                          ": "));
    }
  }

  std::string init_op;
  SG_RETURN_IF_ERROR(GetInitOp(mg, &init_op));
  if (!init_op.empty()) {
    std::vector<Tensor> unused;
    absl::Status s =
        session->Run(run_options, asset_feeds, {}, {NodeName(init_op)}, &unused, nullptr);
    if (!s.ok()) {
      return errors::Annotate(s, absl::StrCat("running the init op ", init_op,
                                              " of SavedModel ", export_dir, ": "));
    }
  }
  return absl::OkStatus();
}

absl::Status LoadSavedModel(const SessionOptions& session_options, const RunOptions& run_options,
                            const std::string& export_dir,
                            const std::unordered_set<std::string>& tags,
                            std::unique_ptr<Session>* session, MetaGraphDef* meta_graph_def) {
  SavedModel saved_model;
  SG_RETURN_IF_ERROR(ReadSavedModel(export_dir, &saved_model));
  MetaGraphDef mg;
  SG_RETURN_IF_ERROR(FindMetaGraphDef(saved_model, tags, export_dir, &mg));
  std::unique_ptr<Session> s;
  SG_RETURN_IF_ERROR(NewSession(session_options, &s));
  absl::Status status = s->Create(mg.graph_def());
  if (!status.ok()) {
    s->Close().IgnoreError();
    return errors::Annotate(status,
                            absl::StrCat("importing the graph of SavedModel ", export_dir, ": "));
  }
  status = RestoreSavedModelSession(run_options, mg, export_dir, s.get());
  if (!status.ok()) {
    s->Close().IgnoreError();
    return status;
  }
  *session = std::move(s);
  *meta_graph_def = std::move(mg);
  return absl::OkStatus();
}

}  // namespace sg
