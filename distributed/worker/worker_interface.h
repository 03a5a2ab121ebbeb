// WorkerInterface: the calls a master (and a peer worker, for RecvTensor) makes on a worker, in
// process or over gRPC (GrpcRemoteWorker). Asynchronous: `done` runs once, on any thread.
#ifndef SG_DISTRIBUTED_WORKER_WORKER_INTERFACE_H_
#define SG_DISTRIBUTED_WORKER_WORKER_INTERFACE_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/framework/status.h"
#include "core/framework/tensor.h"
#include "distributed/call_options.h"
#include "distributed/proto/worker.pb.h"

namespace sg {

using StatusCallback = std::function<void(const absl::Status&)>;

// What RecvTensor delivers: the tensor decoded straight into its own buffer.
struct RecvTensorResult {
  Tensor tensor;
  bool is_dead = false;
};

class WorkerInterface {
 public:
  virtual ~WorkerInterface() = default;
  virtual void GetStatusAsync(CallOptions* opts, const GetStatusRequest* req,
                              GetStatusResponse* resp, StatusCallback done) = 0;
  virtual void CreateWorkerSessionAsync(CallOptions* opts, const CreateWorkerSessionRequest* req,
                                        CreateWorkerSessionResponse* resp,
                                        StatusCallback done) = 0;
  virtual void DeleteWorkerSessionAsync(CallOptions* opts, const DeleteWorkerSessionRequest* req,
                                        DeleteWorkerSessionResponse* resp,
                                        StatusCallback done) = 0;
  virtual void RegisterGraphAsync(CallOptions* opts, const RegisterGraphRequest* req,
                                  RegisterGraphResponse* resp, StatusCallback done) = 0;
  virtual void DeregisterGraphAsync(CallOptions* opts, const DeregisterGraphRequest* req,
                                    DeregisterGraphResponse* resp, StatusCallback done) = 0;
  // An implementation in the caller's process puts the values of req's recv_keys into
  // opts->tensor_handoff() when there is one, instead of resp's recv list (no copy); one behind
  // gRPC always fills resp.
  virtual void RunGraphAsync(CallOptions* opts, const RunGraphRequest* req, RunGraphResponse* resp,
                             StatusCallback done) = 0;
  virtual void CleanupGraphAsync(CallOptions* opts, const CleanupGraphRequest* req,
                                 CleanupGraphResponse* resp, StatusCallback done) = 0;
  virtual void CleanupAllAsync(CallOptions* opts, const CleanupAllRequest* req,
                               CleanupAllResponse* resp, StatusCallback done) = 0;
  virtual void RecvTensorAsync(CallOptions* opts, const RecvTensorRequest* req,
                               RecvTensorResult* result, StatusCallback done) = 0;

  // True for a worker in the caller's own process (the master's own task), which takes tensors
  // straight into a step's rendezvous with DeliverTensor.
  virtual bool InProcess() const { return false; }
  // Puts `value` into step `step_id`'s rendezvous under rendezvous key `key`, as a _Send of this
  // task would. The master uses it to hand its own task the tensors that another task's RunGraph
  // reply carried. Thread-safe. Errors: UNIMPLEMENTED unless InProcess(); INVALID_ARGUMENT for a
  // malformed key; the step's abort status (ABORTED once it was cleaned up) after it ended.
  virtual absl::Status DeliverTensor(int64_t step_id, const std::string& key, const Tensor& value);

  // Blocking helpers.
  absl::Status GetStatus(CallOptions* opts, const GetStatusRequest& req, GetStatusResponse* resp);
};

// Finds the WorkerInterface of a task by its name "/job:J/replica:0/task:T".
class WorkerCacheInterface {
 public:
  virtual ~WorkerCacheInterface() = default;
  virtual std::vector<std::string> ListWorkers() const = 0;
  // nullptr when the task is not in the cluster. The cache owns the worker.
  virtual WorkerInterface* GetOrCreateWorker(const std::string& task) = 0;
  // "host:port" of a task, for messages ("" when unknown).
  virtual std::string Address(const std::string& task) const = 0;
};

}  // namespace sg

#endif  // SG_DISTRIBUTED_WORKER_WORKER_INTERFACE_H_
