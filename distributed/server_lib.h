// Servers of a cluster's tasks, independent of the protocol: ServerInterface, the ServerFactory
// registry that makes one from a ServerDef (as TensorFlow's server_lib: a factory per protocol,
// chosen by ServerDef.protocol), and the cluster-spec parser of `sg server` and the C API.
//
// The gRPC server (distributed/rpc/grpc_server.h) registers itself for protocol "grpc". Callers
// outside distributed/ (the C API, tools) make servers through NewServer only, as sessions go
// through the SessionFactory registry.
#ifndef SG_DISTRIBUTED_SERVER_LIB_H_
#define SG_DISTRIBUTED_SERVER_LIB_H_

#include <memory>
#include <string>

#include "core/framework/status.h"
#include "distributed/proto/server.pb.h"

namespace sg {

struct TlsOptions {
  std::string cert_file, key_file, ca_file;  // PEM files; all empty: plaintext
};

// What a server is made with beyond its ServerDef.
struct ServerOptions {
  TlsOptions tls;
};

// One task's server, hosting its MasterService and WorkerService.
// Thread safety: every method may be called from any thread.
class ServerInterface {
 public:
  virtual ~ServerInterface() = default;
  // Binds and starts serving. UNAVAILABLE when the port is in use.
  virtual absl::Status Start() = 0;
  // Ends steps in flight with CANCELLED, stops serving and frees the port. Idempotent.
  virtual absl::Status Stop() = 0;
  // Blocks until Stop.
  virtual absl::Status Join() = 0;
  // "<protocol>://host:port", usable as a session target.
  virtual const std::string& target() const = 0;
};

// Makes servers for the ServerDefs it accepts. Factories register once, at start-up (a static
// registrar in the implementation's file), under a unique name; Register and GetFactory are
// thread-safe.
class ServerFactory {
 public:
  virtual ~ServerFactory() = default;
  // Whether this factory makes servers for `def` (its protocol). Must not block.
  virtual bool AcceptsOptions(const ServerDef& def) = 0;
  // Makes a server, not started, into *out (the caller owns it). INVALID_ARGUMENT when the
  // ServerDef names no such job/task or has a malformed address, or a TLS file is unreadable.
  // Called from any thread.
  virtual absl::Status NewServer(const ServerDef& def, const ServerOptions& options,
                                 std::unique_ptr<ServerInterface>* out) = 0;

  // The factory is never freed. A second factory under one name is a programming error (aborts).
  static void Register(const std::string& name, ServerFactory* factory);
  // The one factory that accepts `def`. INVALID_ARGUMENT naming the protocol when none does
  // (e.g. a protocol other than "grpc"; TensorFlow says NOT_FOUND, sg's C API has always said
  // INVALID_ARGUMENT), INTERNAL when several do.
  static absl::Status GetFactory(const ServerDef& def, ServerFactory** out);
};

// A server for `def` from the one factory that accepts it, not started, into *out (the caller
// owns it). Errors: those of ServerFactory::GetFactory, then those of the factory's NewServer;
// *out is untouched on error. Thread-safe.
absl::Status NewServer(const ServerDef& def, const ServerOptions& options,
                       std::unique_ptr<ServerInterface>* out);

// Parses "ps=127.0.0.1:2222;worker=127.0.0.1:2223,127.0.0.1:2224" into a ServerDef (protocol
// "grpc") for the given job and task. INVALID_ARGUMENT naming the fault for a malformed spec or a
// missing task.
absl::StatusOr<ServerDef> ServerDefFromClusterSpec(const std::string& spec, const std::string& job,
                                                   int task);

// Splits "host:port" or "[v6]:port". INVALID_ARGUMENT names the address.
absl::Status SplitHostPort(const std::string& address, std::string* host, int* port);

}  // namespace sg

#endif  // SG_DISTRIBUTED_SERVER_LIB_H_
