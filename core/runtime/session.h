// Session: runs parts of a graph, many times. `Run(feeds, fetches, targets)` computes what the
// fetches and targets need, feeding any tensor of the graph (not only Placeholders). Sessions are
// made by NewSession from SessionOptions: the target picks the SessionFactory ("" or "local":
// DirectSession in this process; "grpc://host:port": the distributed runtime).
// Thread safety: Run, PRunSetup, PRun, Extend and ListDevices may be called concurrently; Close
// waits for runs in flight.
#ifndef SG_CORE_RUNTIME_SESSION_H_
#define SG_CORE_RUNTIME_SESSION_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/framework/status.h"
#include "core/framework/tensor.h"
#include "core/graph/shared_graph_def.h"
#include "core/proto/config.pb.h"
#include "core/proto/device_attributes.pb.h"
#include "core/proto/graph.pb.h"

namespace sg {

struct SessionOptions {
  std::string target;
  ConfigProto config;
};

class Session {
 public:
  virtual ~Session() = default;

  // Gives the session its graph. INVALID_ARGUMENT or NOT_FOUND for a graph that does not import.
  virtual absl::Status Create(const GraphDef& graph) = 0;
  // Adds nodes (and functions) to the session's graph.
  virtual absl::Status Extend(const GraphDef& graph) = 0;
  // Create and Extend with a graph whose NodeDefs the session may keep and share instead of
  // copying them (the C API hands over its graph's nodes so: a frozen graph's weights are not
  // copied). The NodeDefs are never changed. The same errors; by default the nodes are copied
  // into a GraphDef for Create/Extend.
  virtual absl::Status CreateShared(const SharedGraphDef& graph) {
    return Create(graph.ToGraphDef());
  }
  virtual absl::Status ExtendShared(const SharedGraphDef& graph) {
    return Extend(graph.ToGraphDef());
  }

  // One step. `inputs` are (tensor name "node:index", value) pairs; `output_names` are tensor
  // names (the same name may appear twice: both results are returned); `target_nodes` are node
  // names run for their effects. On success `outputs` holds one tensor per output name.
  // A feed whose shape contradicts its tensor's declared one runs, as TensorFlow's C API allows,
  // in a step built without the graph's static shapes (DirectSession).
  // Errors: INVALID_ARGUMENT for a tensor fed twice or a feed of the wrong dtype; NOT_FOUND for an unknown tensor or node; DEADLINE_EXCEEDED past
  // RunOptions.timeout_in_ms (or ConfigProto.operation_timeout_in_ms); CANCELLED after Close;
  // the failing kernel's error, naming the node.
  virtual absl::Status Run(const RunOptions& run_options,
                           const std::vector<std::pair<std::string, Tensor>>& inputs,
                           const std::vector<std::string>& output_names,
                           const std::vector<std::string>& target_nodes,
                           std::vector<Tensor>* outputs, RunMetadata* run_metadata) = 0;
  absl::Status Run(const std::vector<std::pair<std::string, Tensor>>& inputs,
                   const std::vector<std::string>& output_names,
                   const std::vector<std::string>& target_nodes, std::vector<Tensor>* outputs) {
    return Run(RunOptions(), inputs, output_names, target_nodes, outputs, nullptr);
  }

  // Partial runs: declare every feed, fetch and target once, then feed and fetch in pieces.
  virtual absl::Status PRunSetup(const std::vector<std::string>& input_names,
                                 const std::vector<std::string>& output_names,
                                 const std::vector<std::string>& target_nodes,
                                 std::string* handle) = 0;
  virtual absl::Status PRun(const std::string& handle,
                            const std::vector<std::pair<std::string, Tensor>>& inputs,
                            const std::vector<std::string>& output_names,
                            std::vector<Tensor>* outputs) = 0;
  // Frees a partial run that will not be finished.
  virtual void ReleasePRun(const std::string& handle) = 0;

  // Builds the step Run would run for these feeds (tensor names), fetches and targets, without
  // running it, and sets run_metadata->partition_graphs to the graphs each device would run: the
  // ones a run with RunOptions.output_partition_graphs returns. Nothing else of run_metadata is
  // set. No kernel of the step runs; building it may evaluate constant subgraphs, as a run's
  // first build does (core/graph/optimizer.h). Errors: Run's that come before a step starts
  // (INVALID_ARGUMENT for a tensor fed twice, NOT_FOUND for an unknown tensor or node, CANCELLED
  // after Close); UNIMPLEMENTED for a session that partitions only when it runs (the default).
  virtual absl::Status PartitionGraphs(const std::vector<std::string>& input_names,
                                       const std::vector<std::string>& output_names,
                                       const std::vector<std::string>& target_nodes,
                                       RunMetadata* run_metadata);

  virtual absl::Status ListDevices(std::vector<DeviceAttributes>* devices) = 0;
  // Waits for runs in flight, then releases the session's resources. Later calls fail with
  // CANCELLED. Calling Close twice is fine.
  virtual absl::Status Close() = 0;
};

class SessionFactory {
 public:
  virtual ~SessionFactory() = default;
  virtual bool AcceptsOptions(const SessionOptions& options) = 0;
  virtual absl::Status NewSession(const SessionOptions& options,
                                  std::unique_ptr<Session>* out) = 0;
  // Clears resource containers (variables) on the target; all containers when empty.
  virtual absl::Status Reset(const SessionOptions& options,
                             const std::vector<std::string>& containers) = 0;

  // Factories register once, at start-up, under a unique name.
  static void Register(const std::string& name, SessionFactory* factory);
  // INVALID_ARGUMENT naming the target when no factory accepts the options.
  static absl::Status GetFactory(const SessionOptions& options, SessionFactory** out);
};

absl::Status NewSession(const SessionOptions& options, std::unique_ptr<Session>* out);
absl::Status Reset(const SessionOptions& options, const std::vector<std::string>& containers);

}  // namespace sg

#endif  // SG_CORE_RUNTIME_SESSION_H_
