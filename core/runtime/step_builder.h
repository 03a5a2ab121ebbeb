// StepBuilder: how a session's graph becomes the graphs of one step, shared by the local session
// (DirectSession, which makes executors of them) and the cluster's master (MasterSession, which
// registers them with workers). TensorFlow splits the same work between GraphExecutionState and
// its client graphs.
//
// The builder keeps the session's graph as Create/Extend grow it, as shared NodeDefs
// (SharedGraphDef): each Extend's check and each step's graph share them with the client's graph
// rather than copy them. Each Extend places the whole
// graph (a node keeps its device when the graph is extended, so a variable stays where it is). When the whole graph cannot be placed (a node asks for a device the session does
// not have), the nodes it did not place are placed per step, and only a step that runs such a
// node fails. For a signature (feeds, fetches, targets) a build then:
//   1. rewrites the graph for the step: feeds replace the tensors they name, fetches get sinks
//      (_Arg/_Retval, or client-terminated _Recv/_Send), what the step does not need is pruned;
//   2. lowers functional control flow and inlines the function calls that are left;
//   3. gives every node its device: the whole graph's placement, the device of the tensor for a
//      feed or fetch node, and the placer (honouring those) for nodes that inlining made;
//   4. optimises the placed graph (core/graph/optimizer.h: identity removal, constant folding,
//      batch norm folding, fusion), unless options.optimizer turns that off;
//   5. bridges control-flow edges that cross devices (BridgeControlFlowEdges) and partitions the
//      graph into one GraphDef per device, with _Send/_Recv pairs between them (or, with
//      whole_graph_on_one_device, leaves a one-device graph whole).
// Thread-safe: Extend and Build may be called from any thread.
#ifndef SG_CORE_RUNTIME_STEP_BUILDER_H_
#define SG_CORE_RUNTIME_STEP_BUILDER_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "core/framework/tensor.h"
#include "core/graph/graph.h"
#include "core/graph/optimizer.h"
#include "core/graph/placer.h"
#include "core/graph/shared_graph_def.h"
#include "core/proto/graph.pb.h"

namespace sg {

struct StepBuilderOptions {
  std::vector<std::string> devices;  // every device a step may use (full names)
  // The incarnation of each of those devices, written into _Send/_Recv attrs.
  std::function<uint64_t(const std::string& device)> incarnation;
  // The client's end of client-terminated _Send/_Recv (StepSignature::use_rendezvous), and where
  // feed and fetch nodes go when their tensor's node has no device.
  std::string client_device;
  uint64_t client_incarnation = 0;
  PlacerOptions placer;  // soft placement, logging, the default device, the round-robin policy
  // true: a step whose nodes all run on one device gets that device's entry in
  // StepGraphs::partitions with an empty GraphDef, and runs StepGraphs::graph itself (no copy of
  // a frozen graph's weights into a GraphDef). DirectSession sets it; a master, which sends
  // GraphDefs to workers, does not.
  bool whole_graph_on_one_device = false;
  // The graph optimisation pass each step's graph goes through after placement (sessions take
  // it from ConfigProto.graph_options: GraphOptimizerOptionsFromConfig).
  GraphOptimizerOptions optimizer;
};

struct StepSignature {
  std::vector<std::string> feeds, fetches, targets;  // tensor and node names, any order
  // false: feeds are _Arg and fetches _Retval nodes, indexed by their position in
  // StepGraphs::feeds/fetches (a call frame). true: client-terminated _Recv/_Send nodes keyed by
  // the tensor's name (StepGraphs::feed_keys/fetch_keys), for partial runs and remote steps.
  bool use_rendezvous = false;
  // true: a feed may have any shape, as TensorFlow's C API allows (it does not check feeds
  // against the shapes a graph declares): the optimiser then takes no inferred shape as a fact,
  // and CheckFeed checks dtypes only. A session builds such a step for a feed that contradicts
  // its tensor's declared shape.
  bool any_feed_shapes = false;
};

struct StepGraphs {
  // The signature in canonical form: feeds sorted, fetches and targets sorted and unique.
  std::vector<std::string> feeds, fetches, targets;
  // Per feed: the dtype and shape the graph declares for the tensor (DT_INVALID / unknown when
  // the tensor is not in the graph).
  std::vector<DataType> feed_types;
  std::vector<PartialTensorShape> feed_shapes;
  // The signature's any_feed_shapes.
  bool any_feed_shapes = false;
  // With use_rendezvous: the rendezvous key of each feed and fetch, as the client sends and
  // receives them.
  std::vector<std::string> feed_keys, fetch_keys;
  // The step's graph after placement (before partitioning), and its pieces, one per device
  // (see StepBuilderOptions::whole_graph_on_one_device).
  std::unique_ptr<Graph> graph;
  std::map<std::string, GraphDef> partitions;
  int64_t graph_version = 0;

  // INVALID_ARGUMENT when a value of `dtype` and `shape` does not match feed i's declared dtype
  // or, unless any_feed_shapes, its (known, non-scalar) shape.
  absl::Status CheckFeed(int i, DataType dtype, const PartialTensorShape& shape) const;
  // Whether `shape` fits feed i's declared shape (the shape part of CheckFeed).
  bool FeedShapeFits(int i, const PartialTensorShape& shape) const;
  absl::Status CheckFeed(int i, const Tensor& value) const {
    return CheckFeed(i, value.dtype(), PartialTensorShape(value.shape()));
  }
  // The index of `feed` in `feeds` (which must hold it).
  int FeedIndex(const std::string& feed) const;
  int FetchIndex(const std::string& fetch) const;
};

class StepBuilder {
 public:
  explicit StepBuilder(StepBuilderOptions options);

  // Adds `graph`'s nodes and the functions the library lacks by name. The first call (Create)
  // also takes the graph's versions. INVALID_ARGUMENT (or the import's error) when the merged
  // graph does not import: a name used twice, an input that does not exist, an unknown op.
  absl::Status Extend(const GraphDef& graph);
  // The same, sharing `graph`'s NodeDefs rather than copying them.
  absl::Status Extend(const SharedGraphDef& graph);
  // How many successful Extend calls there have been.
  int64_t version() const;
  // Whether Extend has succeeded at least once.
  bool has_graph() const;

  // Builds the graphs of one step. INVALID_ARGUMENT for a tensor fed twice, a malformed name or
  // an output index out of range, NOT_FOUND for a node the graph lacks, and the errors of
  // lowering, inlining, placement and partitioning (which name the node at fault).
  absl::Status Build(const StepSignature& signature, StepGraphs* out);

 private:
  // Places `graph` (the whole graph, imported) and keeps every node's device in placement_.
  absl::Status PlaceWholeGraph(Graph* graph) ABSL_EXCLUSIVE_LOCKS_REQUIRED(place_mu_);

  const StepBuilderOptions options_;

  mutable absl::Mutex graph_mu_;
  SharedGraphDef graph_ ABSL_GUARDED_BY(graph_mu_);
  int64_t version_ ABSL_GUARDED_BY(graph_mu_) = 0;

  // The device of every node of the whole graph, as the last Extend placed it.
  absl::Mutex place_mu_;
  std::map<std::string, std::string> placement_ ABSL_GUARDED_BY(place_mu_);
};

}  // namespace sg

#endif  // SG_CORE_RUNTIME_STEP_BUILDER_H_
