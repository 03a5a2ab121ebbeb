// GrpcSession: core's Session over a master (MasterInterface), for targets "grpc://host:port".
// NewSession picks it through the SessionFactory registered as "GRPC_SESSION": when a server of
// this process has that target the session calls its Master directly (LocalMaster), otherwise
// over gRPC (GrpcRemoteMaster).
//
//   SessionOptions opts;
//   opts.target = "grpc://127.0.0.1:2222";
//   std::unique_ptr<Session> session;
//   SG_RETURN_IF_ERROR(NewSession(opts, &session));
//   SG_RETURN_IF_ERROR(session->Create(graph_def));
//   SG_RETURN_IF_ERROR(session->Run({{"x:0", x}}, {"y:0"}, {}, &outputs));
//
// Deadlines: CreateSession, ExtendSession, ListDevices, CloseSession and Reset end by
// ConfigProto.operation_timeout_in_ms, else kDefaultSetupTimeoutMs; a step by
// RunOptions.timeout_in_ms, else operation_timeout_in_ms (none: no deadline).
//
// TLS: when the environment variable SG_GRPC_TLS_CA names a PEM file, channels to remote
// masters use TLS with that CA (and SG_GRPC_TLS_CERT / SG_GRPC_TLS_KEY as the client's own
// certificate and key when set).
#ifndef SG_DISTRIBUTED_RPC_GRPC_SESSION_H_
#define SG_DISTRIBUTED_RPC_GRPC_SESSION_H_

#include <memory>
#include <string>

#include "core/runtime/session.h"
#include "distributed/master/master_interface.h"

namespace sg {

// A session over `master`. Thread-safe as Session requires.
std::unique_ptr<Session> NewGrpcSession(const SessionOptions& options,
                                        std::unique_ptr<MasterInterface> master);

// The master of a "grpc://host:port" target: the in-process one when there is one, else a gRPC
// client. INVALID_ARGUMENT for a target that is not "grpc://host:port".
absl::Status MasterForTarget(const std::string& target, std::unique_ptr<MasterInterface>* out);

}  // namespace sg

#endif  // SG_DISTRIBUTED_RPC_GRPC_SESSION_H_
