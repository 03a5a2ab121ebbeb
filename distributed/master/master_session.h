// MasterSession: one client session on a master. It holds the session's GraphDef and the devices
// of the cluster (found at creation), and for each run signature (sorted feeds, fetches, targets)
// a placed graph partitioned per task and registered with the workers once. A step runs every
// partition at once with RunGraph under a fresh step_id. After a step that failed (or a partial
// run) the master sends CleanupGraph to every task; after one that ran to its end each worker has
// dropped the step's state itself, once its peers took what it sent them, and no call is needed.
// A small tensor that another task sends to the master's own task rides in that task's RunGraph
// reply instead of a RecvTensor call, where that cannot hang the step (ForwardToLocalTask).
//
//   auto s = MasterSession::Create(env, handle, request, deadline);   // GetStatus + sessions
//   (*s)->Run(&call_opts, run_step_request, &response);
//   (*s)->Close();
//
// Internal to the master (master.cc owns the sessions).
#ifndef SG_DISTRIBUTED_MASTER_MASTER_SESSION_H_
#define SG_DISTRIBUTED_MASTER_MASTER_SESSION_H_

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/graph/graph.h"
#include "core/proto/device_attributes.pb.h"
#include "distributed/call_options.h"
#include "distributed/master/master.h"
#include "distributed/proto/master.pb.h"
#include "distributed/worker/worker_interface.h"

namespace sg {

struct StepGraph;
// How long CloseSession waits for a worker to drop its graphs and session (workers may be gone).
constexpr int64_t kCloseTimeoutMs = 3000;

// Lists the devices of every task of `cache` by calling GetStatus on all tasks at once. Each call
// ends by `deadline`; a task that does not answer fails the whole call with UNAVAILABLE or
// DEADLINE_EXCEEDED naming the task and its address. Devices come sorted by task name.
absl::Status ListClusterDevices(WorkerCacheInterface* cache, absl::Time deadline,
                                std::vector<DeviceAttributes>* devices);

// The device of nodes nothing constrains: the first worker task's CPU:0 when there is a worker
// job, else `client_device` (the master task's CPU:0).
std::string DefaultDeviceFor(const std::vector<std::string>& devices,
                             const std::string& client_device);

// The test-only round-robin placement (SG_TEST_ROUND_ROBIN_PLACEMENT=1): gives each group of
// nodes that must stay together a device in turn. A group is closed under colocation (`_class`),
// reference and resource edges, the neighbours of control-flow nodes (Switch, Merge, Enter, Exit,
// NextIteration, LoopCond: the partitioner cannot cut their edges) and whole while-loop frames
// (every node of a frame, nested frames included, goes with its outermost loop). A group with a
// node that requests a device goes where that request matches first. `g` must outlive the hook.
std::function<std::string(const Node*)> RoundRobinPlacement(const Graph& g,
                                                            const std::vector<std::string>& devices);

class MasterSession {
 public:
  // Checks that the graph imports, lists the cluster's devices and creates a worker session on
  // every task, all by `deadline`.
  static absl::StatusOr<std::shared_ptr<MasterSession>> Create(const MasterEnv& env,
                                                               const std::string& handle,
                                                               const CreateSessionRequest& req,
                                                               absl::Time deadline);
  ~MasterSession();

  const std::string& handle() const { return handle_; }
  int64_t graph_version() const;
  const std::vector<DeviceAttributes>& devices() const { return devices_; }

  // Appends nodes and functions. ABORTED when current_graph_version is not the session's.
  absl::Status Extend(const ExtendSessionRequest& req, ExtendSessionResponse* resp);

  // One step (or one piece of a partial run). The deadline is RunOptions.timeout_in_ms, else the
  // config's operation_timeout_in_ms, and never later than opts->deadline(). Errors of a
  // partition come back prefixed with its task; the others are cancelled.
  absl::Status Run(CallOptions* opts, const RunStepRequest& req, RunStepResponse* resp);
  absl::Status PartialRunSetup(CallOptions* opts, const PartialRunSetupRequest& req,
                               PartialRunSetupResponse* resp);
  // Ends a partial run that will not be finished: a piece in flight fails CANCELLED, and every
  // worker drops the step (CleanupGraph). OK when the handle is not (or no longer) held.
  absl::Status ReleasePartialRun(const std::string& partial_run_handle);

  // For the master's session GC: the session config's experimental.sg_session_gc_seconds (0:
  // never collected); MarkUsed records a call that names the session; IdleFor is how long no
  // call has, zero while one is in flight.
  double gc_seconds() const;
  void MarkUsed();
  absl::Duration IdleFor(absl::Time now);

  // Ends steps in flight with `status` (CANCELLED).
  void CancelSteps(const absl::Status& status);
  // Ends steps in flight with CANCELLED, waits for them, then deregisters the graphs and deletes
  // the worker sessions (each with kCloseTimeoutMs; errors ignored). Later calls fail CANCELLED.
  void Close();

 private:
  struct Impl;
  struct PartialRunState;
  explicit MasterSession(const MasterEnv& env, const std::string& handle);
  // One step, or one piece of a partial run, as RunPartitions runs it (master_session.cc).
  struct StepCall;
  // RunGraph on every partition of the call's step graph; fills the call's response in the
  // order of req.fetch().
  absl::Status RunPartitions(const StepCall& call);
  // CleanupGraph(step_id) to every partition's worker, without waiting (after a failed step or a
  // partial run).
  void CleanupStep(std::shared_ptr<const StepGraph> sg, int64_t step_id);

  std::unique_ptr<Impl> impl_;
  const std::string handle_;
  std::vector<DeviceAttributes> devices_;
  // Guarded by impl_->run_mu.
  std::map<std::string, std::shared_ptr<PartialRunState>> partial_runs_;
  int64_t next_partial_run_ = 0;
};

}  // namespace sg

#endif  // SG_DISTRIBUTED_MASTER_MASTER_SESSION_H_
