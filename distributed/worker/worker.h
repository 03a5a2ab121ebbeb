// Worker: one task's WorkerService. GraphMgr keeps the registered partitions (partitioned again
// per local device), RunGraph runs them for a step with a per-step rendezvous whose _Recv of a
// tensor from another task pulls it with RecvTensor; RecvTensor is served from the step's
// rendezvous without holding a thread while it waits.
#ifndef SG_DISTRIBUTED_WORKER_WORKER_H_
#define SG_DISTRIBUTED_WORKER_WORKER_H_

#include <memory>
#include <string>
#include <vector>

#include "core/framework/device.h"
#include "distributed/worker/worker_interface.h"

namespace sg {

struct WorkerEnv {
  std::string task_name;          // "/job:J/replica:0/task:T"
  std::vector<Device*> devices;   // this task's devices (incarnations fixed for the process)
  WorkerCacheInterface* worker_cache = nullptr;
  // Runs closures on the task's inter-op pool.
  std::function<void(std::function<void()>)> runner;
};

class Worker : public WorkerInterface {
 public:
  explicit Worker(const WorkerEnv& env);
  ~Worker() override;
  void GetStatusAsync(CallOptions* opts, const GetStatusRequest* req, GetStatusResponse* resp,
                      StatusCallback done) override;
  void CreateWorkerSessionAsync(CallOptions* opts, const CreateWorkerSessionRequest* req,
                                CreateWorkerSessionResponse* resp, StatusCallback done) override;
  void DeleteWorkerSessionAsync(CallOptions* opts, const DeleteWorkerSessionRequest* req,
                                DeleteWorkerSessionResponse* resp, StatusCallback done) override;
  void RegisterGraphAsync(CallOptions* opts, const RegisterGraphRequest* req,
                          RegisterGraphResponse* resp, StatusCallback done) override;
  void DeregisterGraphAsync(CallOptions* opts, const DeregisterGraphRequest* req,
                            DeregisterGraphResponse* resp, StatusCallback done) override;
  void RunGraphAsync(CallOptions* opts, const RunGraphRequest* req, RunGraphResponse* resp,
                     StatusCallback done) override;
  void CleanupGraphAsync(CallOptions* opts, const CleanupGraphRequest* req,
                         CleanupGraphResponse* resp, StatusCallback done) override;
  void CleanupAllAsync(CallOptions* opts, const CleanupAllRequest* req, CleanupAllResponse* resp,
                       StatusCallback done) override;
  bool InProcess() const override { return true; }
  absl::Status DeliverTensor(int64_t step_id, const std::string& key,
                             const Tensor& value) override;
  void RecvTensorAsync(CallOptions* opts, const RecvTensorRequest* req, RecvTensorResult* result,
                       StatusCallback done) override;
  // Ends every step in flight with `status` (CANCELLED for a server stop).
  void AbortAll(const absl::Status& status);
  // Server stop: from now on RunGraph and RecvTensor fail at once with `status`, so no step
  // starts between AbortAll and the transport's shutdown; then aborts the steps in flight.
  // Resume() (server restart) lets calls in again.
  void BeginStop(const absl::Status& status);
  void Resume();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sg

#endif  // SG_DISTRIBUTED_WORKER_WORKER_H_
