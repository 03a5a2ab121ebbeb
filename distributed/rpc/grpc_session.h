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
// Channel: the session config's rpc_options give the channel to a remote master its TLS files
// (sg_tls_ca_file: TLS with that CA; sg_tls_cert_file / sg_tls_key_file: the client's own
// certificate), message limit and gRPC arguments (ClientTlsOptions, DefaultChannelArguments in
// grpc_util.h, whose environment variables override them); use_rpc_for_inprocess_master sends
// even a server of this process the calls over gRPC.
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

// The master of a "grpc://host:port" target: the in-process one when there is one (unless
// config.rpc_options().use_rpc_for_inprocess_master()), else a gRPC client with the channel
// settings of config.rpc_options(). INVALID_ARGUMENT for a target that is not
// "grpc://host:port" or TLS files that cannot be read.
absl::Status MasterForTarget(const std::string& target, const ConfigProto& config,
                             std::unique_ptr<MasterInterface>* out);

}  // namespace sg

#endif  // SG_DISTRIBUTED_RPC_GRPC_SESSION_H_
