// Master: the sessions of one task's MasterService. A MasterSession places a client graph over
// every device of the cluster, partitions it per task with _Send/_Recv, registers the partitions
// with the workers once per signature, and runs steps with RunGraph on all of them at once.
//
// Placement: nodes keep their requested (full or partial) devices, colocation and the devices of
// the variables they read or write; nodes nothing constrains go to
// "/job:worker/replica:0/task:0/device:CPU:0" when the cluster has a worker job, else to the
// master task's CPU:0. Feeds enter and fetches leave on the master task's CPU:0 (the client
// device). ConfigProto's allow_soft_placement and log_device_placement apply. As in TensorFlow the
// whole graph is placed (not each step's pruned piece), so a node has one device whatever the
// step, and nodes keep their devices when the graph is extended. Variables on a ps task live in
// that task's device ResourceMgr: across steps and client sessions, until Reset.
//
// Test only: with the environment variable SG_TEST_ROUND_ROBIN_PLACEMENT=1 in the master's
// process, unconstrained nodes are spread round robin over every device of the cluster, a
// while loop's frame and the neighbours of control-flow nodes kept together (see
// RoundRobinPlacement in master_session.h), so that _Send/_Recv carry most edges.
//
// Session GC: a session whose config (the server's default_session_config merged with the
// client's) has experimental.sg_session_gc_seconds > 0 is closed, as by CloseSession, once no
// call has named it for that long and none is in flight (TensorFlow's master has the same
// session_gc_seconds); later calls on it fail ABORTED, as for any unknown session.
//
// Deadlines: set-up calls (GetStatus, CreateWorkerSession, RegisterGraph) end by the call's
// deadline, else ConfigProto.operation_timeout_in_ms, else kDefaultSetupTimeoutMs; a step by
// RunOptions.timeout_in_ms, else operation_timeout_in_ms (none: no deadline).
#ifndef SG_DISTRIBUTED_MASTER_MASTER_H_
#define SG_DISTRIBUTED_MASTER_MASTER_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/framework/device.h"
#include "core/proto/config.pb.h"
#include "distributed/master/master_interface.h"
#include "distributed/worker/worker_interface.h"

namespace sg {

struct MasterEnv {
  std::string local_task;               // "/job:J/replica:0/task:T" of the hosting server
  std::vector<Device*> local_devices;   // that task's devices
  WorkerCacheInterface* worker_cache = nullptr;  // every task of the cluster, this one included
  ConfigProto default_session_config;
  // Runs work that a step's caller need not wait for (the CleanupGraph calls after a failed
  // step). Set by Master to its own background thread; when empty the work runs on the caller's
  // thread.
  std::function<void(std::function<void()>)> background;
};

// Thread-safe; the methods block until done (or the call's deadline).
class Master : public MasterInterface {
 public:
  explicit Master(const MasterEnv& env);
  ~Master() override;
  absl::Status CreateSession(CallOptions* opts, const CreateSessionRequest& req,
                             CreateSessionResponse* resp) override;
  absl::Status ExtendSession(CallOptions* opts, const ExtendSessionRequest& req,
                             ExtendSessionResponse* resp) override;
  absl::Status PartialRunSetup(CallOptions* opts, const PartialRunSetupRequest& req,
                               PartialRunSetupResponse* resp) override;
  absl::Status RunStep(CallOptions* opts, const RunStepRequest& req,
                       RunStepResponse* resp) override;
  absl::Status CloseSession(CallOptions* opts, const CloseSessionRequest& req,
                            CloseSessionResponse* resp) override;
  absl::Status ListDevices(CallOptions* opts, const ListDevicesRequest& req,
                           ListDevicesResponse* resp) override;
  // As TensorFlow's: closes this master's sessions, then clears the resource containers (all of
  // them when req.container is empty) on every task, variables included.
  absl::Status Reset(CallOptions* opts, const ResetRequest& req, ResetResponse* resp) override;
  absl::Status ReleasePartialRun(CallOptions* opts, const ReleasePartialRunRequest& req,
                                 ReleasePartialRunResponse* resp) override;
  // Ends every session's steps in flight with CANCELLED (server stop).
  void CancelAll();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The process-wide table of in-process masters by target ("grpc://host:port"): a GrpcSession
// whose target is here talks to it directly (LocalMaster), without serialization.
// "grpc://localhost:P" and "grpc://127.0.0.1:P" are the same target here.
void RegisterLocalMaster(const std::string& target, Master* master);
// After this returns no call through a LocalMaster is inside `master`: calls in flight have their
// steps cancelled (Master::CancelAll) and are waited for.
void UnregisterLocalMaster(const std::string& target);
// nullptr when no in-process server has that target. The returned interface does not own the
// master; it fails calls with UNAVAILABLE once the master is unregistered.
std::unique_ptr<MasterInterface> LookupLocalMaster(const std::string& target);

}  // namespace sg

#endif  // SG_DISTRIBUTED_MASTER_MASTER_H_
