#include "core/graph/graph_constructor.h"

#include <limits>
#include <set>

#include "core/framework/node_def_util.h"
#include "core/framework/shape_inference.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/text_format.h"

namespace sg {

absl::Status ParseGraphDef(absl::string_view bytes, GraphDef* gdef) {
  if (bytes.size() <= static_cast<size_t>(std::numeric_limits<int>::max()) &&
      gdef->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return absl::OkStatus();
  }
  gdef->Clear();
  google::protobuf::TextFormat::Parser parser;
  parser.AllowUnknownField(false);
  if (parser.ParseFromString(std::string(bytes), gdef)) return absl::OkStatus();
  gdef->Clear();
  return errors::InvalidArgument("Invalid GraphDef: the bytes are neither a binary nor a text ",
                                 "GraphDef (", bytes.size(), " bytes)");
}

namespace {

// Whether `proto` declares at most `max` elements (a malformed shape counts as large).
bool SmallTensorProto(const TensorProto& proto, int64_t max) {
  int64_t n = 1;
  for (const auto& d : proto.tensor_shape().dim()) {
    if (d.size() < 0) return false;
    if (d.size() == 0) return true;
    if (d.size() > max || n > max / d.size()) return false;
    n *= d.size();
  }
  return true;
}

}  // namespace

absl::Status InferNodeShapes(Node* node) {
  const OpRegistrationData& reg = node->op_reg();
  if (!reg.shape_fn) return absl::OkStatus();
  std::vector<PartialTensorShape> shapes(node->num_inputs());
  std::vector<Tensor> const_values(node->num_inputs());
  std::vector<const Tensor*> consts(node->num_inputs(), nullptr);
  for (int i = 0; i < node->num_inputs(); ++i) {
    const Edge* e = node->input_edge(i);
    if (e == nullptr) continue;
    if (!e->src->IsNextIteration()) shapes[i] = e->src->output_shapes()[e->src_output];
    auto held = e->src->tensor_attrs().find("value");
    if (e->src->type_string() == "Const" && held != e->src->tensor_attrs().end()) {
      if (held->second.NumElements() <= 1024) consts[i] = &held->second;
    } else if (e->src->type_string() == "Const") {
      auto it = e->src->def().attr().find("value");
      // Only small values are decoded (a shape, an axis): weights are not copied to be looked at.
      if (it != e->src->def().attr().end() && SmallTensorProto(it->second.tensor(), 1024)) {
        auto t = Tensor::FromProto(it->second.tensor());
        if (t.ok() && t->NumElements() <= 1024) {
          const_values[i] = *std::move(t);
          consts[i] = &const_values[i];
        }
      }
    }
  }
  InferenceContext c(&node->def(), shapes, consts, node->input_types(), node->output_types());
  SG_RETURN_IF_ERROR(reg.shape_fn(&c));
  for (int i = 0; i < node->num_outputs(); ++i) {
    (*node->mutable_output_shapes())[i] = c.output(i);
  }
  return absl::OkStatus();
}

namespace {

// Before producer 22 an empty Placeholder shape meant "unknown", not "scalar". `*def` is copied
// (MutableNodeDef) only when it changes.
void FixLegacyPlaceholder(int producer, std::shared_ptr<const NodeDef>* def) {
  if (producer >= 22 || ((*def)->op() != "Placeholder" && (*def)->op() != "PlaceholderV2")) return;
  auto it = (*def)->attr().find("shape");
  if (it != (*def)->attr().end() && it->second.has_shape() &&
      it->second.shape().dim_size() == 0 && !it->second.shape().unknown_rank()) {
    (*MutableNodeDef(def)->mutable_attr())["shape"].mutable_shape()->set_unknown_rank(true);
  }
}

class Importer {
 public:
  // The graph's nodes share the NodeDefs of `gdef` (a NodeDef is copied only when the import
  // changes it: a prefix, a default device, a legacy shape, missing default attrs). With
  // `consumed` (which is &gdef) the pointers are moved out, so that a NodeDef the caller gave
  // up is changed in place rather than copied.
  Importer(const SharedGraphDef& gdef, SharedGraphDef* consumed, const ImportOptions& opts,
           Graph* g, ImportResults* results)
      : gdef_(gdef), consumed_(consumed), opts_(opts), g_(g), results_(results) {}

  absl::Status Run() {
    const int producer = gdef_.has_versions ? gdef_.versions.producer() : 0;
    if (gdef_.has_versions) {
      if (producer < kGraphDefVersionMinProducer) {
        return errors::InvalidArgument("GraphDef producer version ", producer,
                                       " is older than the oldest sg reads (",
                                       kGraphDefVersionMinProducer, ")");
      }
      for (int bad : gdef_.versions.bad_consumers()) {
        if (bad == kGraphDefVersion) {
          return errors::InvalidArgument("GraphDef disallows consumer version ", bad);
        }
      }
    }
    ChooseNames();
    SG_RETURN_IF_ERROR(g_->mutable_flib()->AddLibrary(gdef_.library));
    if (g_->num_nodes() == 0 && gdef_.has_versions) {
      *g_->mutable_versions() = gdef_.versions;
    }
    // Nodes first, then edges, so inputs may name nodes that come later.
    const int num_nodes = static_cast<int>(gdef_.nodes.size());
    for (int k = 0; k < num_nodes; ++k) {
      const std::string name = gdef_.nodes[k]->name();
      if (names_.count(name)) {
        return Fail(errors::InvalidArgument("Duplicate node name in graph: '", Prefixed(name),
                                            "'"));
      }
      std::shared_ptr<const NodeDef> def =
          consumed_ != nullptr ? std::move(consumed_->nodes[k]) : gdef_.nodes[k];
      std::string new_name = Prefixed(name);
      if (uniquify_names_ && NameTaken(new_name)) new_name = UniqueName(new_name);
      if (new_name != def->name()) MutableNodeDef(&def)->set_name(std::move(new_name));
      FixLegacyPlaceholder(producer, &def);
      if (def->device().empty() && !opts_.default_device.empty()) {
        MutableNodeDef(&def)->set_device(opts_.default_device);
      }
      // Checked here rather than in AddNode, so that the message names the producer.
      if (const OpRegistrationData* reg = g_->flib().LookUp(def->op())) {
        absl::Status s = ValidateNodeDefAttrsDefined(*def, reg->op_def, producer);
        if (!s.ok()) return Fail(s);
      }
      auto node = g_->AddNode(std::move(def));
      if (!node.ok()) return Fail(node.status());
      names_[name] = *node;
      added_.push_back(*node);
    }
    std::set<std::pair<std::string, int>> used_map_keys;
    for (int k = 0; k < num_nodes; ++k) {
      Node* dst = added_[k];
      // The node keeps the GraphDef's inputs as written (AddNode does not touch them), and when the
      // GraphDef was consumed they are only there.
      const NodeDef& in = dst->def();
      int slot = 0;
      bool has_input = false;
      for (const std::string& input : in.input()) {
        std::string src_name;
        int index;
        if (!ParseTensorName(input, &src_name, &index)) {
          return Fail(errors::InvalidArgument("node '", dst->name(), "' has an empty input"));
        }
        has_input = true;
        if (index == kControlSlot) {
          auto cm = opts_.control_map.find(src_name);
          Node* src = cm != opts_.control_map.end() ? cm->second : Lookup(src_name);
          if (src == nullptr) return Fail(MissingNode(dst, input));
          g_->AddControlEdge(src, dst);
          continue;
        }
        Node* src;
        int src_index = index;
        auto im = opts_.input_map.find({src_name, index});
        if (im != opts_.input_map.end()) {
          used_map_keys.insert(im->first);
          src = im->second.first;
          src_index = im->second.second;
        } else {
          src = Lookup(src_name);
          if (src == nullptr) return Fail(MissingNode(dst, input));
        }
        if (slot >= dst->num_inputs()) {
          return Fail(errors::InvalidArgument("node '", dst->name(), "' (op ", dst->type_string(),
                                              ") has ", in.input_size(), " inputs but op ",
                                              dst->type_string(), " takes ", dst->num_inputs()));
        }
        auto e = g_->AddEdge(src, src_index, dst, slot);
        if (!e.ok()) return Fail(e.status());
        ++slot;
      }
      if (slot != dst->num_inputs()) {
        return Fail(errors::InvalidArgument("node '", dst->name(), "' (op ", dst->type_string(),
                                            ") has ", slot, " data inputs but the op takes ",
                                            dst->num_inputs()));
      }
      if (!has_input) {
        for (Node* c : opts_.control_dependencies) g_->AddControlEdge(c, dst);
      }
    }
    for (const auto& kv : opts_.input_map) {
      if (!used_map_keys.count(kv.first)) {
        if (results_) results_->missing_unused_input_map_keys.push_back(kv.first);
      }
    }
    auto order = TopologicalOrder(*g_);
    if (!order.ok()) return Fail(order.status());
    std::set<Node*> added(added_.begin(), added_.end());
    for (Node* n : *order) {
      if (!added.count(n)) continue;
      absl::Status s = InferNodeShapes(n);
      if (!s.ok()) return Fail(s);
    }
    if (results_) {
      for (const auto& rt : opts_.return_tensors) {
        Node* n = Lookup(rt.first);
        if (n == nullptr || rt.second < 0 || rt.second >= n->num_outputs()) {
          return Fail(errors::InvalidArgument("requested return tensor '", rt.first, ":",
                                              rt.second, "' is not in the graph"));
        }
        results_->return_tensors.push_back({n, rt.second});
      }
      for (const auto& name : opts_.return_nodes) {
        Node* n = Lookup(name);
        if (n == nullptr) {
          return Fail(errors::InvalidArgument("requested return node '", name,
                                              "' is not in the graph"));
        }
        results_->return_nodes.push_back(n);
      }
    }
    return absl::OkStatus();
  }

 private:
  std::string Prefixed(const std::string& name) const {
    return prefix_.empty() ? name : absl::StrCat(prefix_, "/", name);
  }
  // Each scope of `name`: "a" and "a/b" for "a/b/c".
  static void AddScopes(const std::string& name, std::set<std::string>* scopes) {
    for (size_t slash = name.find('/'); slash != std::string::npos;
         slash = name.find('/', slash + 1)) {
      scopes->insert(name.substr(0, slash));
    }
  }
  // Settles the prefix and whether names are uniquified (ImportOptions), and gathers the names
  // that renaming must avoid.
  void ChooseNames() {
    prefix_ = opts_.prefix;
    while (!prefix_.empty() && prefix_.back() == '/') prefix_.pop_back();
    const bool uniquify_prefix = !prefix_.empty() && opts_.uniquify_prefix;
    uniquify_names_ = opts_.uniquify_names && !uniquify_prefix;
    if (!uniquify_prefix && !uniquify_names_) return;
    for (const Node* n : g_->nodes()) AddScopes(n->name(), &graph_scopes_);
    // A new name must not be one that a node of the GraphDef will ask for: the GraphDef's names
    // and scopes, as TensorFlow checks them (without the prefix; with it once it is settled).
    for (const auto& n : gdef_.nodes) {
      gdef_names_.insert(n->name());
      AddScopes(n->name(), &gdef_names_);
    }
    if (uniquify_prefix && NameTaken(prefix_)) prefix_ = UniqueName(prefix_);
    if (uniquify_names_ && !prefix_.empty()) {
      gdef_names_.clear();
      for (const auto& n : gdef_.nodes) {
        gdef_names_.insert(Prefixed(n->name()));
        AddScopes(Prefixed(n->name()), &gdef_names_);
      }
    }
  }
  // Whether `name` is a node of the graph (one imported already included) or one of the scopes
  // its nodes had before the import.
  bool NameTaken(const std::string& name) const {
    return g_->FindNode(name) != nullptr || graph_scopes_.count(name) > 0;
  }
  // "base_1", "base_2", ...: the first that is not taken nor wanted by the GraphDef.
  std::string UniqueName(const std::string& base) const {
    for (int count = 1;; ++count) {
      std::string name = absl::StrCat(base, "_", count);
      if (!NameTaken(name) && !gdef_names_.count(name)) return name;
    }
  }
  Node* Lookup(const std::string& name) const {
    auto it = names_.find(name);
    return it == names_.end() ? nullptr : it->second;
  }
  absl::Status MissingNode(Node* dst, const std::string& input) const {
    return errors::InvalidArgument("Node '", dst->name(), "': Unknown input node '", input, "'");
  }
  // Undoes the partial import, keeping `g` as it was.
  absl::Status Fail(const absl::Status& s) {
    for (Node* n : added_) g_->RemoveNode(n);
    added_.clear();
    return s;
  }

  const SharedGraphDef& gdef_;
  SharedGraphDef* const consumed_;
  const ImportOptions& opts_;
  Graph* g_;
  ImportResults* results_;
  std::map<std::string, Node*> names_;
  std::vector<Node*> added_;
  std::string prefix_;  // opts_.prefix, made unique when uniquify_prefix asks
  bool uniquify_names_ = false;
  std::set<std::string> graph_scopes_;  // scopes of the graph's nodes before the import
  std::set<std::string> gdef_names_;    // names and scopes the GraphDef's nodes will take
};

}  // namespace

// SharedGraphDef (shared_graph_def.h) is defined here, beside its import.
SharedGraphDef SharedGraphDef::FromGraphDef(GraphDef gdef) {
  SharedGraphDef s;
  s.nodes.reserve(gdef.node_size());
  for (NodeDef& n : *gdef.mutable_node()) {
    s.nodes.push_back(std::make_shared<NodeDef>(std::move(n)));
  }
  s.library = std::move(*gdef.mutable_library());
  s.has_versions = gdef.has_versions();
  s.versions = std::move(*gdef.mutable_versions());
  return s;
}

GraphDef SharedGraphDef::ToGraphDef() const {
  GraphDef out;
  for (const auto& n : nodes) *out.add_node() = *n;
  if (library.function_size() > 0 || library.gradient_size() > 0) *out.mutable_library() = library;
  if (has_versions) *out.mutable_versions() = versions;
  return out;
}

absl::Status ImportGraphDef(const GraphDef& gdef, const ImportOptions& options, Graph* g,
                            ImportResults* results) {
  // One copy of each NodeDef, which the graph then owns.
  SharedGraphDef copy;
  copy.nodes.reserve(gdef.node_size());
  for (const NodeDef& n : gdef.node()) copy.nodes.push_back(std::make_shared<NodeDef>(n));
  copy.library = gdef.library();
  copy.has_versions = gdef.has_versions();
  copy.versions = gdef.versions();
  Importer importer(copy, &copy, options, g, results);
  return importer.Run();
}

absl::Status ImportGraphDef(GraphDef&& gdef, const ImportOptions& options, Graph* g,
                            ImportResults* results) {
  SharedGraphDef moved = SharedGraphDef::FromGraphDef(std::move(gdef));
  gdef.Clear();
  Importer importer(moved, &moved, options, g, results);
  return importer.Run();
}

absl::Status ImportGraphDef(const SharedGraphDef& gdef, const ImportOptions& options, Graph* g,
                            ImportResults* results) {
  Importer importer(gdef, /*consumed=*/nullptr, options, g, results);
  return importer.Run();
}

}  // namespace sg
