// GrpcRemoteWorker: WorkerInterface over a gRPC channel to another task. Every call carries the
// CallOptions deadline (set-up and status calls get kDefaultSetupTimeoutMs when it has none) and
// CallOptions::StartCancel cancels it in flight. RecvTensor decodes the reply straight into the
// result's tensor. Transport failures (UNAVAILABLE, DEADLINE_EXCEEDED) name the task and address.
#ifndef SG_DISTRIBUTED_RPC_GRPC_REMOTE_WORKER_H_
#define SG_DISTRIBUTED_RPC_GRPC_REMOTE_WORKER_H_

#include <memory>
#include <string>

#include <grpcpp/channel.h>

#include "distributed/worker/worker_interface.h"

namespace sg {

// `task` ("/job:J/replica:0/task:T") and `address` are for error messages. RecvTensor calls go
// on `recv_channel` when it is given, every other call on `channel`.
std::unique_ptr<WorkerInterface> NewGrpcRemoteWorker(
    std::shared_ptr<::grpc::Channel> channel, const std::string& task, const std::string& address,
    std::shared_ptr<::grpc::Channel> recv_channel = nullptr);

}  // namespace sg

#endif  // SG_DISTRIBUTED_RPC_GRPC_REMOTE_WORKER_H_
