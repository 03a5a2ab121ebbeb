// GrpcServer: one task of a cluster, hosting its MasterService and WorkerService on the port the
// cluster spec gives it, bound to the spec's host (loopback stays loopback).
//
// Settings come from the ServerDef's default_session_config (a ConfigProto): device_count, the
// thread pools, rpc_options (message limit and gRPC arguments of the server and of its channels
// to the other tasks), experimental.sg_session_gc_seconds (the master's session GC) and
// experimental.sg_tensor_cache_mb (the process's tensor cache); TLS from TlsOptions.
// It registers itself as the ServerFactory for protocol "grpc" (distributed/server_lib.h).
#ifndef SG_DISTRIBUTED_RPC_GRPC_SERVER_H_
#define SG_DISTRIBUTED_RPC_GRPC_SERVER_H_

#include <memory>
#include <string>

#include "core/framework/status.h"
#include "distributed/proto/server.pb.h"
#include "distributed/server_lib.h"

namespace sg {

// INVALID_ARGUMENT when the ServerDef names no such job/task, has a malformed address, or a
// protocol other than "grpc".
absl::Status NewGrpcServer(const ServerDef& def, const TlsOptions& tls,
                           std::unique_ptr<ServerInterface>* out);

}  // namespace sg

#endif  // SG_DISTRIBUTED_RPC_GRPC_SERVER_H_
