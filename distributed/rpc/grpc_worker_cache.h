// GrpcWorkerCache: the WorkerCacheInterface of a cluster given by a ClusterDef. A peer task's
// channel and GrpcRemoteWorker are made on first use (one per task); the own task is served in
// process by the local Worker directly.
//
//   GrpcWorkerCache cache(server_def.cluster(), "/job:worker/replica:0/task:0", tls);
//   cache.SetLocalWorker(&worker);
//   WorkerInterface* ps = cache.GetOrCreateWorker("/job:ps/replica:0/task:0");
//
// Thread safety: all methods may be called concurrently (SetLocalWorker before use).
#ifndef SG_DISTRIBUTED_RPC_GRPC_WORKER_CACHE_H_
#define SG_DISTRIBUTED_RPC_GRPC_WORKER_CACHE_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "core/proto/cluster.pb.h"
#include "core/proto/config.pb.h"
#include "distributed/rpc/grpc_server.h"
#include "distributed/worker/worker_interface.h"

namespace sg {

class GrpcWorkerCache : public WorkerCacheInterface {
 public:
  // `local_task` may be empty (a pure client); TLS options and `rpc` (message limits, gRPC
  // arguments: DefaultChannelArguments) apply to every channel.
  GrpcWorkerCache(const ClusterDef& cluster, std::string local_task, TlsOptions tls,
                  RPCOptions rpc = RPCOptions());
  ~GrpcWorkerCache() override;
  // Not owned; must outlive the cache's users.
  void SetLocalWorker(WorkerInterface* worker);

  std::vector<std::string> ListWorkers() const override;
  WorkerInterface* GetOrCreateWorker(const std::string& task) override;
  std::string Address(const std::string& task) const override;

 private:
  const std::string local_task_;
  const TlsOptions tls_;
  const RPCOptions rpc_;
  std::map<std::string, std::string> addresses_;  // task -> host:port
  absl::Mutex mu_;
  WorkerInterface* local_ ABSL_GUARDED_BY(mu_) = nullptr;
  std::map<std::string, std::unique_ptr<WorkerInterface>> remote_ ABSL_GUARDED_BY(mu_);
};

// "/job:J/replica:0/task:T".
std::string TaskName(const std::string& job, int task);

}  // namespace sg

#endif  // SG_DISTRIBUTED_RPC_GRPC_WORKER_CACHE_H_
