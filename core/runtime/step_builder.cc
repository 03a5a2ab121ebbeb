#include "core/runtime/step_builder.h"

#include <algorithm>
#include <utility>

#include "core/framework/node_def_util.h"
#include "core/framework/rendezvous.h"
#include "core/graph/graph_constructor.h"
#include "core/graph/partition.h"
#include "core/graph/subgraph.h"

namespace sg {
namespace {

std::string AttrString(const Node* n, const std::string& name) {
  auto it = n->def().attr().find(name);
  return it == n->def().attr().end() ? std::string() : it->second.s();
}

// For a feed or fetch node the rewrite added: the name of the node whose tensor it stands for.
// Empty for every other node.
std::string FedOrFetchedNode(const Node* n, const StepGraphs& step) {
  std::string tensor;
  const std::string& op = n->type_string();
  if (op == "_Arg" || op == "_Retval") {
    auto it = n->def().attr().find("index");
    if (it == n->def().attr().end()) return "";
    const auto& list = op == "_Arg" ? step.feeds : step.fetches;
    const int64_t i = it->second.i();
    if (i < 0 || i >= static_cast<int64_t>(list.size())) return "";
    tensor = list[i];
  } else if (op == "_Recv" || op == "_Send") {
    auto ct = n->def().attr().find("client_terminated");
    if (ct == n->def().attr().end() || !ct->second.b()) return "";
    tensor = AttrString(n, "tensor_name");
  } else {
    return "";
  }
  std::string node;
  int index;
  if (!ParseTensorName(tensor, &node, &index)) return "";
  return node;
}

absl::Status CheckUnique(std::vector<std::string>* names, bool fail_on_duplicate) {
  std::sort(names->begin(), names->end());
  auto dup = std::adjacent_find(names->begin(), names->end());
  if (dup != names->end() && fail_on_duplicate) {
    return errors::InvalidArgument("tensor '", *dup, "' is fed more than once");
  }
  names->erase(std::unique(names->begin(), names->end()), names->end());
  return absl::OkStatus();
}

}  // namespace

int StepGraphs::FeedIndex(const std::string& feed) const {
  return static_cast<int>(std::lower_bound(feeds.begin(), feeds.end(), feed) - feeds.begin());
}

int StepGraphs::FetchIndex(const std::string& fetch) const {
  return static_cast<int>(std::lower_bound(fetches.begin(), fetches.end(), fetch) -
                          fetches.begin());
}

absl::Status StepGraphs::CheckFeed(int i, DataType dtype, const PartialTensorShape& shape) const {
  if (dtype != feed_types[i]) {
    return errors::InvalidArgument("feed '", feeds[i], "' has dtype ", DataTypeString(dtype),
                                   " but the graph expects ", DataTypeString(feed_types[i]));
  }
  if (!any_feed_shapes && !FeedShapeFits(i, shape)) {
    return errors::InvalidArgument("feed '", feeds[i], "' has shape ", shape.DebugString(),
                                   ", which contradicts the shape ",
                                   feed_shapes[i].DebugString(), " the graph declares");
  }
  return absl::OkStatus();
}

bool StepGraphs::FeedShapeFits(int i, const PartialTensorShape& shape) const {
  // A known rank of 1 or more must match, with its known dims; a declared scalar is lenient, as
  // TensorFlow's C API is with old graphs.
  const PartialTensorShape& want = feed_shapes[i];
  return want.unknown_rank() || want.dims() == 0 || want.IsCompatibleWith(shape);
}

StepBuilder::StepBuilder(StepBuilderOptions options) : options_(std::move(options)) {}

int64_t StepBuilder::version() const {
  absl::MutexLock lock(&graph_mu_);
  return version_;
}

bool StepBuilder::has_graph() const { return version() > 0; }

absl::Status StepBuilder::Extend(const GraphDef& graph) {
  return Extend(SharedGraphDef::FromGraphDef(graph));
}

absl::Status StepBuilder::Extend(const SharedGraphDef& graph) {
  absl::MutexLock lock(&graph_mu_);
  // Copies pointers, not NodeDefs.
  SharedGraphDef merged = graph_;
  if (!merged.has_versions && graph.has_versions) {
    merged.has_versions = true;
    merged.versions = graph.versions;
  }
  merged.nodes.insert(merged.nodes.end(), graph.nodes.begin(), graph.nodes.end());
  for (const auto& f : graph.library.function()) {
    bool have = false;
    for (const auto& g : merged.library.function()) {
      have = have || g.signature().name() == f.signature().name();
    }
    if (!have) *merged.library.add_function() = f;
  }
  // The whole graph must still import: names unique, inputs that exist, ops that are known.
  Graph check;
  SG_RETURN_IF_ERROR(ImportGraphDef(merged, ImportOptions(), &check));
  graph_ = std::move(merged);
  ++version_;
  // The whole graph is placed now, on the graph just imported, rather than imported once more by
  // the next Build (a frozen graph's weights are most of its bytes). A graph that cannot be
  // placed (a node asks for a device this session lacks) does not stop a step that does not run
  // that node: Build then places its nodes step by step, and only a step that needs the node
  // fails.
  absl::MutexLock place_lock(&place_mu_);
  PlaceWholeGraph(&check).IgnoreError();
  return absl::OkStatus();
}

absl::Status StepBuilder::PlaceWholeGraph(Graph* graph) {
  // Nodes placed before keep their device.
  for (Node* n : graph->nodes()) {
    auto it = placement_.find(n->name());
    if (it != placement_.end()) n->set_requested_device(it->second);
  }
  SG_RETURN_IF_ERROR(PlaceGraph(graph, options_.devices, options_.placer));
  std::map<std::string, std::string> placement;
  for (Node* n : graph->nodes()) placement[n->name()] = n->assigned_device_name();
  placement_ = std::move(placement);
  return absl::OkStatus();
}

absl::Status StepBuilder::Build(const StepSignature& signature, StepGraphs* out) {
  out->feeds = signature.feeds;
  out->any_feed_shapes = signature.any_feed_shapes;
  out->fetches = signature.fetches;
  out->targets = signature.targets;
  SG_RETURN_IF_ERROR(CheckUnique(&out->feeds, /*fail_on_duplicate=*/true));
  SG_RETURN_IF_ERROR(CheckUnique(&out->fetches, false));
  SG_RETURN_IF_ERROR(CheckUnique(&out->targets, false));

  SharedGraphDef gdef;
  {
    absl::MutexLock lock(&graph_mu_);
    gdef = graph_;  // pointers: the step's graph shares the session's NodeDefs
    out->graph_version = version_;
  }
  auto graph = std::make_unique<Graph>();
  SG_RETURN_IF_ERROR(ImportGraphDef(gdef, ImportOptions(), graph.get()));
  gdef = SharedGraphDef();
  out->feed_types.clear();
  out->feed_shapes.clear();
  for (const std::string& f : out->feeds) {
    std::string node_name;
    int index;
    Node* n = nullptr;
    if (ParseTensorName(f, &node_name, &index) && index >= 0) n = graph->FindNode(node_name);
    if (n != nullptr && index < n->num_outputs()) {
      out->feed_types.push_back(BaseType(n->output_type(index)));
      out->feed_shapes.push_back(n->output_shapes()[index]);
    } else {
      out->feed_types.push_back(DT_INVALID);
      out->feed_shapes.push_back(PartialTensorShape());
    }
  }
  RewriteOptions rw;
  rw.use_rendezvous = signature.use_rendezvous;
  rw.client_device = options_.client_device;
  rw.client_incarnation = options_.client_incarnation;
  rw.device = options_.client_device;
  SG_RETURN_IF_ERROR(
      RewriteGraphForExecution(graph.get(), out->feeds, out->fetches, out->targets, rw));
  // After pruning, so that only the functions this step calls are lowered and inlined (a
  // SavedModel's save function, say, may use ops a serving step never runs).
  SG_RETURN_IF_ERROR(InlineFunctionCalls(graph.get()));

  // Devices: the whole graph's placement; a feed or fetch node goes where its tensor's node is
  // (so a feed travels to the device that uses it, and a fetch leaves from where it is made);
  // what inlining made is placed around those.
  {
    absl::MutexLock lock(&place_mu_);
    // placement_ is Extend's, of this version or (when another Extend came in between) a newer
    // one: this step's nodes are all in the newer graph, which only adds nodes, and keep their
    // devices there. Nodes without a placement are placed below.
    bool unplaced = false;
    for (Node* n : graph->nodes()) {
      auto it = placement_.find(n->name());
      if (it == placement_.end()) {
        const std::string node = FedOrFetchedNode(n, *out);
        if (!node.empty()) it = placement_.find(node);
      }
      if (it == placement_.end()) {
        unplaced = true;
        continue;
      }
      n->set_requested_device(it->second);
      n->set_assigned_device_name(it->second);
    }
    if (unplaced) SG_RETURN_IF_ERROR(PlaceGraph(graph.get(), options_.devices, options_.placer));
  }
  // After placement, so that a rewrite sees where each node runs (an Identity between devices is
  // a copy the graph asks for; a fusion keeps to one device) and the nodes it makes take the
  // devices of the nodes they replace.
  if (options_.optimizer.any()) {
    GraphOptimizerOptions opt = options_.optimizer;
    // A tensor declared as a scalar may be fed with any shape (CheckFeed is lenient with old
    // graphs), so the shapes inferred from such a feed are not facts to fold.
    for (const PartialTensorShape& s : out->feed_shapes) {
      if (!s.unknown_rank() && s.dims() == 0) opt.use_static_shapes = false;
    }
    if (signature.any_feed_shapes) opt.use_static_shapes = false;
    const std::set<std::string> preserve(out->targets.begin(), out->targets.end());
    SG_RETURN_IF_ERROR(OptimizeGraph(graph.get(), opt, preserve));
  }
  SG_RETURN_IF_ERROR(BridgeControlFlowEdges(graph.get()));
  PartitionOptions popts;
  popts.get_incarnation = options_.incarnation;
  out->partitions.clear();
  const std::string* one_device = nullptr;
  if (options_.whole_graph_on_one_device) {
    for (Node* n : graph->nodes()) {
      if (one_device == nullptr) {
        one_device = &n->assigned_device_name();
      } else if (n->assigned_device_name() != *one_device) {
        one_device = nullptr;
        break;
      }
    }
  }
  if (one_device != nullptr && !one_device->empty()) {
    out->partitions[*one_device];  // the step runs `graph` itself: no GraphDef of its weights
  } else {
    SG_RETURN_IF_ERROR(PartitionGraph(*graph, popts, &out->partitions));
  }

  out->feed_keys.clear();
  out->fetch_keys.clear();
  if (signature.use_rendezvous) {
    const std::string& client = options_.client_device;
    for (const std::string& f : out->feeds) {
      out->feed_keys.push_back(Rendezvous::CreateKey(client, options_.client_incarnation, client,
                                                     f, FrameAndIter()));
    }
    for (const std::string& f : out->fetches) {
      out->fetch_keys.push_back(Rendezvous::CreateKey(client, 0, client, f, FrameAndIter()));
    }
  }
  out->graph = std::move(graph);
  return absl::OkStatus();
}

}  // namespace sg
