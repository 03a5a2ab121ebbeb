#include "distributed/rpc/grpc_server.h"

#include <grpcpp/grpcpp.h>

#include <map>
#include <set>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/synchronization/mutex.h"
#include "core/framework/device.h"
#include "core/framework/host_memory.h"
#include "core/runtime/threadpool.h"
#include "core/util/tsan_annotations.h"
#include "distributed/master/master.h"
#include "distributed/rpc/grpc_master_service.h"
#include "distributed/rpc/grpc_util.h"
#include "distributed/rpc/grpc_worker_cache.h"
#include "distributed/rpc/grpc_worker_service.h"
#include "distributed/worker/worker.h"

namespace sg {
namespace {

// How long Stop lets calls in flight finish before gRPC cancels them.
constexpr absl::Duration kShutdownGrace = absl::Seconds(2);

class GrpcServer final : public ServerInterface {
 public:
  GrpcServer(const ServerDef& def, const TlsOptions& tls) : def_(def), tls_(tls) {}

  ~GrpcServer() override {
    Stop().IgnoreError();
    // The master uses the worker cache and the worker; the worker's steps use the pools.
    master_.reset();
    worker_.reset();
    cache_.reset();
    inter_op_.reset();
    devices_.clear();
    intra_op_.reset();
  }

  absl::Status Init() {
    if (!def_.protocol().empty() && def_.protocol() != "grpc") {
      return errors::InvalidArgument("ServerDef protocol '", def_.protocol(),
                                     "' is not supported (only \"grpc\")");
    }
    const JobDef* job = nullptr;
    for (const JobDef& j : def_.cluster().job()) {
      if (j.name() == def_.job_name()) job = &j;
    }
    if (job == nullptr) {
      return errors::InvalidArgument("The cluster has no job named '", def_.job_name(), "'");
    }
    auto it = job->tasks().find(def_.task_index());
    if (it == job->tasks().end()) {
      return errors::InvalidArgument("Job '", def_.job_name(), "' has no task ",
                                     def_.task_index());
    }
    SG_RETURN_IF_ERROR(SplitHostPort(it->second, &host_, &port_));
    if (def_.port() != 0) port_ = def_.port();
    if (host_ == "localhost") host_ = "127.0.0.1";
    // Check the TLS files now rather than at Start.
    SG_RETURN_IF_ERROR(MakeServerCredentials(tls_).status());
    SG_RETURN_IF_ERROR(MakeChannelCredentials(tls_).status());

    const ConfigProto& config = def_.default_session_config();
    if (config.experimental().has_sg_tensor_cache_mb()) {
      SetHostMemoryCacheMiB(config.experimental().sg_tensor_cache_mb());
    }
    int num_cpus = 1;
    auto dc = config.device_count().find("CPU");
    if (dc != config.device_count().end() && dc->second > 0) num_cpus = dc->second;
    task_name_ = TaskName(def_.job_name(), def_.task_index());
    intra_op_ = std::make_unique<IntraOpThreadPool>(config.intra_op_parallelism_threads());
    devices_ = NewCpuDevices(def_.job_name(), def_.task_index(), num_cpus, intra_op_.get());
    std::vector<Device*> devices;
    for (auto& d : devices_) devices.push_back(d.get());
    inter_op_ = std::make_unique<ThreadPool>(config.inter_op_parallelism_threads());

    cache_ = std::make_unique<GrpcWorkerCache>(def_.cluster(), task_name_, tls_,
                                               config.rpc_options());
    WorkerEnv wenv;
    wenv.task_name = task_name_;
    wenv.devices = devices;
    wenv.worker_cache = cache_.get();
    ThreadPool* pool = inter_op_.get();
    wenv.runner = [pool](std::function<void()> fn) { pool->Schedule(std::move(fn)); };
    worker_ = std::make_unique<Worker>(wenv);
    cache_->SetLocalWorker(worker_.get());

    MasterEnv menv;
    menv.local_task = task_name_;
    menv.local_devices = devices;
    menv.worker_cache = cache_.get();
    menv.default_session_config = config;
    master_ = std::make_unique<Master>(menv);
    target_ = absl::StrCat("grpc://", host_, ":", port_);
    return absl::OkStatus();
  }

  absl::Status Start() override {
    absl::MutexLock lock(&mu_);
    if (server_ != nullptr) return absl::OkStatus();
    const std::string address = absl::StrCat(host_, ":", port_);
    SG_ASSIGN_OR_RETURN(auto creds, MakeServerCredentials(tls_));
    auto worker_service = NewGrpcWorkerService(worker_.get());
    auto master_service = NewGrpcMasterService(master_.get());
    ::grpc::ServerBuilder builder;
    int bound_port = 0;
    builder.AddListeningPort(address, creds, &bound_port);
    const RPCOptions& rpc = def_.default_session_config().rpc_options();
    builder.SetMaxReceiveMessageSize(MaxMessageBytes(rpc));
    builder.SetMaxSendMessageSize(MaxMessageBytes(rpc));
    // Two servers must never share a port.
    builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
    for (const auto& kv : TransportArguments(rpc)) {
      builder.AddChannelArgument(kv.first, kv.second);
    }
    builder.RegisterService(worker_service.get());
    builder.RegisterService(master_service.get());
    worker_->Resume();  // after a Stop: calls may come in as soon as the server starts
    // gRPC's threads call the services: what this thread set up happens before (the services
    // acquire themselves in each call; core/util/tsan_annotations.h).
    tsan::Release(worker_service.get());
    tsan::Release(master_service.get());
    std::unique_ptr<::grpc::Server> server = builder.BuildAndStart();
    if (server == nullptr || bound_port == 0) {
      return errors::Unavailable("Could not start the server of ", task_name_, " on ", address,
                                 ": the address is in use or cannot be bound");
    }
    server_ = std::move(server);
    worker_service_ = std::move(worker_service);
    master_service_ = std::move(master_service);
    port_ = bound_port;  // a picked port is kept for restarts
    target_ = absl::StrCat("grpc://", host_, ":", port_);
    RegisterLocalMaster(target_, master_.get());
    return absl::OkStatus();
  }

  absl::Status Stop() override {
    absl::MutexLock lock(&mu_);
    if (server_ == nullptr) return absl::OkStatus();
    UnregisterLocalMaster(target_);
    const absl::Status cancelled = errors::Cancelled("The server of ", task_name_,
                                                     " was stopped");
    worker_->BeginStop(cancelled);
    master_->CancelAll();
    server_->Shutdown(ToGrpcDeadline(absl::Now() + kShutdownGrace));
    server_->Wait();
    server_.reset();
    // The services' last calls happen before (tsan_annotations.h).
    tsan::Acquire(worker_service_.get());
    tsan::Acquire(master_service_.get());
    worker_service_.reset();
    master_service_.reset();
    ++stops_;
    return absl::OkStatus();
  }

  absl::Status Join() override {
    absl::MutexLock lock(&mu_);
    if (server_ == nullptr) return absl::OkStatus();
    struct Arg {
      GrpcServer* server;
      int64_t stops;
    } arg{this, stops_};
    mu_.Await(absl::Condition(
        +[](Arg* a) ABSL_NO_THREAD_SAFETY_ANALYSIS { return a->server->stops_ != a->stops; },
        &arg));
    return absl::OkStatus();
  }

  const std::string& target() const override { return target_; }

 private:
  const ServerDef def_;
  const TlsOptions tls_;
  std::string host_;
  int port_ = 0;
  std::string task_name_;
  std::string target_;
  std::unique_ptr<IntraOpThreadPool> intra_op_;
  std::vector<std::unique_ptr<Device>> devices_;
  std::unique_ptr<ThreadPool> inter_op_;
  std::unique_ptr<GrpcWorkerCache> cache_;
  std::unique_ptr<Worker> worker_;
  std::unique_ptr<Master> master_;

  absl::Mutex mu_;
  std::unique_ptr<::grpc::Server> server_ ABSL_GUARDED_BY(mu_);
  std::unique_ptr<::grpc::Service> worker_service_ ABSL_GUARDED_BY(mu_);
  std::unique_ptr<::grpc::Service> master_service_ ABSL_GUARDED_BY(mu_);
  int64_t stops_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace

absl::Status NewGrpcServer(const ServerDef& def, const TlsOptions& tls,
                           std::unique_ptr<ServerInterface>* out) {
  auto server = std::make_unique<GrpcServer>(def, tls);
  SG_RETURN_IF_ERROR(server->Init());
  *out = std::move(server);
  return absl::OkStatus();
}

namespace {

// The ServerFactory for protocol "grpc" (server_lib.h), as TensorFlow's GrpcServerFactory.
class GrpcServerFactory : public ServerFactory {
 public:
  bool AcceptsOptions(const ServerDef& def) override { return def.protocol() == "grpc"; }
  absl::Status NewServer(const ServerDef& def, const ServerOptions& options,
                         std::unique_ptr<ServerInterface>* out) override {
    return NewGrpcServer(def, options.tls, out);
  }
};

struct GrpcServerRegistrar {
  GrpcServerRegistrar() { ServerFactory::Register("GRPC_SERVER", new GrpcServerFactory); }
} grpc_server_registrar;

}  // namespace

}  // namespace sg
