#include "distributed/rpc/grpc_worker_cache.h"

#include <grpcpp/grpcpp.h>

#include "absl/strings/match.h"
#include "distributed/rpc/grpc_remote_worker.h"
#include "distributed/rpc/grpc_util.h"

namespace sg {

std::string TaskName(const std::string& job, int task) {
  return absl::StrCat("/job:", job, "/replica:0/task:", task);
}

GrpcWorkerCache::GrpcWorkerCache(const ClusterDef& cluster, std::string local_task,
                                 TlsOptions tls, RPCOptions rpc)
    : local_task_(std::move(local_task)), tls_(std::move(tls)), rpc_(std::move(rpc)) {
  for (const JobDef& job : cluster.job()) {
    for (const auto& kv : job.tasks()) addresses_[TaskName(job.name(), kv.first)] = kv.second;
  }
}

GrpcWorkerCache::~GrpcWorkerCache() = default;

void GrpcWorkerCache::SetLocalWorker(WorkerInterface* worker) {
  absl::MutexLock lock(&mu_);
  local_ = worker;
}

std::vector<std::string> GrpcWorkerCache::ListWorkers() const {
  std::vector<std::string> out;
  for (const auto& kv : addresses_) out.push_back(kv.first);
  return out;
}

std::string GrpcWorkerCache::Address(const std::string& task) const {
  auto it = addresses_.find(task);
  return it == addresses_.end() ? "" : it->second;
}

WorkerInterface* GrpcWorkerCache::GetOrCreateWorker(const std::string& task) {
  auto it = addresses_.find(task);
  if (it == addresses_.end()) return nullptr;
  absl::MutexLock lock(&mu_);
  if (task == local_task_ && local_ != nullptr) return local_;
  auto& worker = remote_[task];
  if (worker == nullptr) {
    std::string address = it->second;
    // The servers bind "localhost" as 127.0.0.1; dial the same address.
    if (absl::StartsWith(address, "localhost:")) {
      address = "127.0.0.1" + address.substr(strlen("localhost"));
    }
    auto creds = MakeChannelCredentials(tls_);
    std::shared_ptr<::grpc::ChannelCredentials> c =
        creds.ok() ? *creds : ::grpc::InsecureChannelCredentials();
    auto channel = ::grpc::CreateCustomChannel(address, c, DefaultChannelArguments(rpc_));
    // RecvTensor gets a connection of its own (a channel argument of its own keeps gRPC from
    // sharing the first one): a large tensor in flight does not hold up the RunGraph and
    // set-up calls behind it, and the two calls of a step are read by separate pollers.
    ::grpc::ChannelArguments recv_args = DefaultChannelArguments(rpc_);
    recv_args.SetString("sg.connection", "RecvTensor");
    auto recv_channel = ::grpc::CreateCustomChannel(address, c, recv_args);
    worker = NewGrpcRemoteWorker(std::move(channel), task, it->second, std::move(recv_channel));
  }
  return worker.get();
}

}  // namespace sg
