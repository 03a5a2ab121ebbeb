// GrpcServer: one task of a cluster, hosting its MasterService and WorkerService on the port the
// cluster spec gives it, bound to the spec's host (loopback stays loopback).
//
// Settings come from the ServerDef's default_session_config (a ConfigProto): device_count, the
// thread pools, rpc_options (message limit and gRPC arguments of the server and of its channels
// to the other tasks), experimental.sg_session_gc_seconds (the master's session GC) and
// experimental.sg_tensor_cache_mb (the process's tensor cache); TLS from TlsOptions.
#ifndef SG_DISTRIBUTED_RPC_GRPC_SERVER_H_
#define SG_DISTRIBUTED_RPC_GRPC_SERVER_H_

#include <memory>
#include <string>

#include "core/framework/status.h"
#include "distributed/proto/server.pb.h"

namespace sg {

struct TlsOptions {
  std::string cert_file, key_file, ca_file;  // PEM files; all empty: plaintext
};

class ServerInterface {
 public:
  virtual ~ServerInterface() = default;
  // Binds and starts serving. UNAVAILABLE when the port is in use.
  virtual absl::Status Start() = 0;
  // Ends steps in flight with CANCELLED, stops serving and frees the port. Idempotent.
  virtual absl::Status Stop() = 0;
  // Blocks until Stop.
  virtual absl::Status Join() = 0;
  // "grpc://host:port", usable as a session target.
  virtual const std::string& target() const = 0;
};

// INVALID_ARGUMENT when the ServerDef names no such job/task, has a malformed address, or a
// protocol other than "grpc".
absl::Status NewGrpcServer(const ServerDef& def, const TlsOptions& tls,
                           std::unique_ptr<ServerInterface>* out);

// Parses "ps=127.0.0.1:2222;worker=127.0.0.1:2223,127.0.0.1:2224" into a ServerDef for the
// given job and task. INVALID_ARGUMENT naming the fault for a malformed spec or a missing task.
absl::StatusOr<ServerDef> ServerDefFromClusterSpec(const std::string& spec, const std::string& job,
                                                   int task);

}  // namespace sg

#endif  // SG_DISTRIBUTED_RPC_GRPC_SERVER_H_
