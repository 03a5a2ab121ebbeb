// GrpcRemoteMaster: MasterInterface over a gRPC channel to another process's MasterService.
//
//   auto master = NewGrpcRemoteMaster(::grpc::CreateChannel("127.0.0.1:2222", creds));
//   master->RunStep(&call_opts, request, &response);
//
// Each call's deadline is CallOptions' deadline; CallOptions::StartCancel cancels it. A call that
// fails UNAVAILABLE because the master cannot be reached is retried (at most 10 attempts, with
// backoff, never past the deadline) with the very same request, so RunStep's request_id lets the
// master refuse to run a step twice. An UNAVAILABLE that the master itself reports (a worker is
// down) is returned at once.
#ifndef SG_DISTRIBUTED_RPC_GRPC_REMOTE_MASTER_H_
#define SG_DISTRIBUTED_RPC_GRPC_REMOTE_MASTER_H_

#include <memory>

#include <grpcpp/channel.h>

#include "distributed/master/master_interface.h"

namespace sg {

std::unique_ptr<MasterInterface> NewGrpcRemoteMaster(std::shared_ptr<::grpc::Channel> channel);

}  // namespace sg

#endif  // SG_DISTRIBUTED_RPC_GRPC_REMOTE_MASTER_H_
