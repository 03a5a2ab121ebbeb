// SG_Server: the C face of distributed/server_lib.h. Each function converts and delegates; the
// server comes from the ServerFactory registry (the gRPC server registers for protocol "grpc").
#include <memory>
#include <string>

#include "c_api/c_api_internal.h"
#include "distributed/server_lib.h"

struct SG_Server {
  std::unique_ptr<sg::ServerInterface> server;
  absl::Mutex mu;
  std::string target ABSL_GUARDED_BY(mu);
};

namespace {

SG_Server* Wrap(std::unique_ptr<sg::ServerInterface> server) {
  auto* s = new SG_Server;
  s->server = std::move(server);
  absl::MutexLock lock(&s->mu);
  s->target = s->server->target();
  return s;
}

absl::Status CheckServer(const SG_Server* server) {
  if (server == nullptr) return sg::errors::InvalidArgument("server is NULL");
  return absl::OkStatus();
}

}  // namespace

extern "C" {

SG_Server* SG_NewServer(const void* server_def, size_t len, SG_Status* status) {
  SG_Server* out = nullptr;
  sg::c_api::Guard("SG_NewServer", status, [&]() -> absl::Status {
    if (server_def == nullptr && len != 0) {
      return sg::errors::InvalidArgument("server_def is NULL");
    }
    sg::ServerDef def;
    if (len > static_cast<size_t>(INT32_MAX) ||
        !def.ParseFromArray(server_def, static_cast<int>(len))) {
      return sg::errors::InvalidArgument("server_def is not a serialized ServerDef");
    }
    std::unique_ptr<sg::ServerInterface> server;
    SG_RETURN_IF_ERROR(sg::NewServer(def, sg::ServerOptions(), &server));
    out = Wrap(std::move(server));
    return absl::OkStatus();
  });
  return out;
}

SG_Server* SG_NewServerFromClusterSpecWithTls(const char* cluster_spec, const char* job,
                                              int task, const char* cert_file,
                                              const char* key_file, const char* ca_file,
                                              SG_Status* status) {
  SG_Server* out = nullptr;
  sg::c_api::Guard("SG_NewServerFromClusterSpec", status, [&]() -> absl::Status {
    if (cluster_spec == nullptr) return sg::errors::InvalidArgument("cluster_spec is NULL");
    if (job == nullptr) return sg::errors::InvalidArgument("job is NULL");
    SG_ASSIGN_OR_RETURN(sg::ServerDef def, sg::ServerDefFromClusterSpec(cluster_spec, job, task));
    sg::ServerOptions options;
    if (cert_file != nullptr) options.tls.cert_file = cert_file;
    if (key_file != nullptr) options.tls.key_file = key_file;
    if (ca_file != nullptr) options.tls.ca_file = ca_file;
    std::unique_ptr<sg::ServerInterface> server;
    SG_RETURN_IF_ERROR(sg::NewServer(def, options, &server));
    out = Wrap(std::move(server));
    return absl::OkStatus();
  });
  return out;
}

SG_Server* SG_NewServerFromClusterSpec(const char* cluster_spec, const char* job, int task,
                                       SG_Status* status) {
  return SG_NewServerFromClusterSpecWithTls(cluster_spec, job, task, nullptr, nullptr, nullptr,
                                            status);
}

void SG_ServerStart(SG_Server* server, SG_Status* status) {
  sg::c_api::Guard("SG_ServerStart", status, [&]() -> absl::Status {
    SG_RETURN_IF_ERROR(CheckServer(server));
    SG_RETURN_IF_ERROR(server->server->Start());
    absl::MutexLock lock(&server->mu);
    server->target = server->server->target();
    return absl::OkStatus();
  });
}

void SG_ServerStop(SG_Server* server, SG_Status* status) {
  sg::c_api::Guard("SG_ServerStop", status, [&]() -> absl::Status {
    SG_RETURN_IF_ERROR(CheckServer(server));
    return server->server->Stop();
  });
}

void SG_ServerJoin(SG_Server* server, SG_Status* status) {
  sg::c_api::Guard("SG_ServerJoin", status, [&]() -> absl::Status {
    SG_RETURN_IF_ERROR(CheckServer(server));
    return server->server->Join();
  });
}

const char* SG_ServerTarget(SG_Server* server) {
  if (server == nullptr) return nullptr;
  absl::MutexLock lock(&server->mu);
  return server->target.c_str();
}

void SG_DeleteServer(SG_Server* server) {
  if (server == nullptr) return;
  sg::c_api::GuardValue(0, [&] {
    server->server->Stop().IgnoreError();
    server->server->Join().IgnoreError();
    return 0;
  });
  delete server;
}

}  // extern "C"
