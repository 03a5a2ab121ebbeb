#include "distributed/rpc/grpc_session.h"

#include <algorithm>
#include <map>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "core/util/mutex.h"
#include "core/framework/device.h"
#include "distributed/master/master.h"
#include "distributed/rpc/grpc_remote_master.h"
#include "distributed/rpc/grpc_util.h"

namespace sg {
namespace {

constexpr char kScheme[] = "grpc://";

// How much longer than the step's own timeout the client waits for the master's answer, so that
// the master's error (which says what timed out) arrives before the RPC's.
constexpr absl::Duration kStepDeadlineSlack = absl::Seconds(2);

// CloseSession (also sent from the destructor) does not wait long for a master that is gone.
constexpr int64_t kCloseSessionTimeoutMs = 5000;

int64_t NewRequestId() {
  return static_cast<int64_t>(NewIncarnation() & ((uint64_t{1} << 62) - 1)) | 1;
}

// "host:port" out of "grpc://host:port"; host may be a bracketed IPv6 address.
absl::StatusOr<std::string> HostPort(const std::string& target) {
  auto bad = [&](const char* why) {
    return errors::InvalidArgument("malformed target '", target, "': ", why,
                                   " (expected grpc://host:port)");
  };
  if (!absl::StartsWith(target, kScheme)) return bad("it does not start with grpc://");
  std::string rest = target.substr(sizeof(kScheme) - 1);
  size_t colon = rest.rfind(':');
  if (colon == std::string::npos) return bad("no port");
  std::string host = rest.substr(0, colon), port = rest.substr(colon + 1);
  if (host.empty()) return bad("no host");
  if (host.find_first_of("/ ;,") != std::string::npos) return bad("the host is not a host name");
  if (host.front() != '[' && host.find(':') != std::string::npos) {
    return bad("an IPv6 host must be in brackets");
  }
  int p = 0;
  if (port.empty() || port.find_first_not_of("0123456789") != std::string::npos ||
      !absl::SimpleAtoi(port, &p) || p <= 0 || p > 65535) {
    return bad("the port is not a number in 1..65535");
  }
  return rest;
}

int64_t SetupTimeoutMs(const ConfigProto& config) {
  return config.operation_timeout_in_ms() > 0 ? config.operation_timeout_in_ms()
                                              : kDefaultSetupTimeoutMs;
}

class GrpcSession : public Session {
 public:
  GrpcSession(const SessionOptions& options, std::unique_ptr<MasterInterface> master)
      : options_(options), master_(std::move(master)) {}

  ~GrpcSession() override { Close().IgnoreError(); }

  absl::Status Create(const GraphDef& graph) override {
    mutex_lock lock(graph_mu_);
    if (closed_) return errors::Cancelled("Session has been closed.");
    if (!handle_.empty()) return errors::AlreadyExists("Session::Create called twice; use Extend");
    return CreateLocked(graph);
  }

  absl::Status Extend(const GraphDef& graph) override {
    mutex_lock lock(graph_mu_);
    if (closed_) return errors::Cancelled("Session has been closed.");
    if (handle_.empty()) return CreateLocked(graph);
    ExtendSessionRequest req;
    req.set_session_handle(handle_);
    *req.mutable_graph_def() = graph;
    req.set_current_graph_version(graph_version_);
    ExtendSessionResponse resp;
    CallOptions opts;
    opts.SetTimeout(SetupTimeoutMs(options_.config));
    SG_RETURN_IF_ERROR(master_->ExtendSession(&opts, req, &resp));
    graph_version_ = resp.new_graph_version();
    return absl::OkStatus();
  }

  absl::Status Run(const RunOptions& run_options,
                   const std::vector<std::pair<std::string, Tensor>>& inputs,
                   const std::vector<std::string>& output_names,
                   const std::vector<std::string>& target_nodes, std::vector<Tensor>* outputs,
                   RunMetadata* run_metadata) override {
    return DoRun(run_options, inputs, output_names, target_nodes, "", outputs, run_metadata);
  }

  absl::Status PRunSetup(const std::vector<std::string>& input_names,
                         const std::vector<std::string>& output_names,
                         const std::vector<std::string>& target_nodes,
                         std::string* handle) override {
    SG_ASSIGN_OR_RETURN(std::string session, BeginCall());
    PartialRunSetupRequest req;
    req.set_session_handle(session);
    for (const auto& s : input_names) req.add_feed(s);
    for (const auto& s : output_names) req.add_fetch(s);
    for (const auto& s : target_nodes) req.add_target(s);
    req.set_request_id(NewRequestId());
    PartialRunSetupResponse resp;
    CallOptions opts;
    opts.SetTimeout(SetupTimeoutMs(options_.config));
    absl::Status s = master_->PartialRunSetup(&opts, req, &resp);
    if (s.ok()) *handle = resp.partial_run_handle();
    EndCall();
    return s;
  }

  absl::Status PRun(const std::string& handle,
                    const std::vector<std::pair<std::string, Tensor>>& inputs,
                    const std::vector<std::string>& output_names,
                    std::vector<Tensor>* outputs) override {
    return DoRun(RunOptions(), inputs, output_names, {}, handle, outputs, nullptr);
  }

  // Not on a cluster: the master registers one graph per task and each worker splits it again
  // per device, so the graphs a run reports (RunGraphResponse.partition_graph) exist only in the
  // workers; handing them over without a step would take new master and worker calls.
  absl::Status PartitionGraphs(const std::vector<std::string>&, const std::vector<std::string>&,
                               const std::vector<std::string>&, RunMetadata*) override {
    {
      mutex_lock lock(graph_mu_);
      if (closed_) return errors::Cancelled("Session has been closed.");
    }
    return errors::Unimplemented(
        "a cluster session (target '", options_.target,
        "') partitions a step only when it runs it: run the step with "
        "RunOptions.output_partition_graphs, or partition it in a local session (target \"\", "
        "as many CPU devices through ConfigProto.device_count)");
  }

  // Asks the master to end the partial run (ReleasePartialRun, sg's own call). Errors are
  // ignored: a master of an older sg answers UNIMPLEMENTED and keeps the partial run until the
  // session is closed; one that is gone has nothing left to free.
  void ReleasePRun(const std::string& handle) override {
    absl::StatusOr<std::string> session = BeginCall();
    if (!session.ok()) return;
    ReleasePartialRunRequest req;
    req.set_session_handle(*session);
    req.set_partial_run_handle(handle);
    ReleasePartialRunResponse resp;
    CallOptions opts;
    opts.SetTimeout(std::min(SetupTimeoutMs(options_.config), kCloseSessionTimeoutMs));
    master_->ReleasePartialRun(&opts, req, &resp).IgnoreError();
    EndCall();
  }

  absl::Status ListDevices(std::vector<DeviceAttributes>* devices) override {
    std::string session;
    {
      mutex_lock lock(graph_mu_);
      session = handle_;
    }
    ListDevicesRequest req;
    req.set_session_handle(session);
    ListDevicesResponse resp;
    CallOptions opts;
    opts.SetTimeout(SetupTimeoutMs(options_.config));
    SG_RETURN_IF_ERROR(master_->ListDevices(&opts, req, &resp));
    devices->clear();
    for (const auto& d : resp.local_device()) devices->push_back(d);
    for (const auto& d : resp.remote_device()) devices->push_back(d);
    return absl::OkStatus();
  }

  absl::Status Close() override {
    std::string session;
    {
      mutex_lock lock(graph_mu_);
      if (closed_) return absl::OkStatus();
      closed_ = true;
      while (in_flight_ != 0) calls_done_.wait(graph_mu_);
      session = handle_;
    }
    if (session.empty()) return absl::OkStatus();
    CloseSessionRequest req;
    req.set_session_handle(session);
    CloseSessionResponse resp;
    CallOptions opts;
    opts.SetTimeout(std::min(SetupTimeoutMs(options_.config), kCloseSessionTimeoutMs));
    return master_->CloseSession(&opts, req, &resp);
  }

 private:
  absl::Status CreateLocked(const GraphDef& graph) ABSL_EXCLUSIVE_LOCKS_REQUIRED(graph_mu_) {
    CreateSessionRequest req;
    *req.mutable_graph_def() = graph;
    *req.mutable_config() = options_.config;
    req.set_target(options_.target);
    CreateSessionResponse resp;
    CallOptions opts;
    opts.SetTimeout(SetupTimeoutMs(options_.config));
    SG_RETURN_IF_ERROR(master_->CreateSession(&opts, req, &resp));
    handle_ = resp.session_handle();
    graph_version_ = resp.graph_version();
    return absl::OkStatus();
  }

  // The session handle, counting the call in flight; Close waits for it.
  absl::StatusOr<std::string> BeginCall() {
    mutex_lock lock(graph_mu_);
    if (closed_) return errors::Cancelled("Session has been closed.");
    if (handle_.empty()) {
      return errors::FailedPrecondition("Session::Create was not called: the session has no graph");
    }
    ++in_flight_;
    return handle_;
  }
  void EndCall() {
    mutex_lock lock(graph_mu_);
    if (--in_flight_ == 0) calls_done_.notify_all();
  }

  absl::Status DoRun(const RunOptions& run_options,
                     const std::vector<std::pair<std::string, Tensor>>& inputs,
                     const std::vector<std::string>& output_names,
                     const std::vector<std::string>& target_nodes,
                     const std::string& partial_run_handle, std::vector<Tensor>* outputs,
                     RunMetadata* run_metadata) {
    SG_ASSIGN_OR_RETURN(std::string session, BeginCall());
    struct EndOnExit {
      GrpcSession* s;
      ~EndOnExit() { s->EndCall(); }
    } end{this};

    RunStepRequest req;
    req.set_session_handle(session);
    req.set_partial_run_handle(partial_run_handle);
    for (const auto& [name, value] : inputs) {
      NamedTensorProto* f = req.add_feed();
      f->set_name(name);
      value.AsProtoTensorContent(f->mutable_tensor());
    }
    std::set<std::string> fetched;
    for (const auto& name : output_names) {
      if (fetched.insert(name).second) req.add_fetch(name);
    }
    for (const auto& t : target_nodes) req.add_target(t);
    *req.mutable_options() = run_options;
    int64_t timeout_ms = run_options.timeout_in_ms() > 0
                             ? run_options.timeout_in_ms()
                             : options_.config.operation_timeout_in_ms();
    if (timeout_ms > 0) req.mutable_options()->set_timeout_in_ms(timeout_ms);
    req.set_store_errors_in_response_body(true);
    req.set_request_id(NewRequestId());

    CallOptions opts;
    if (timeout_ms > 0) {
      opts.SetDeadline(absl::Now() + absl::Milliseconds(timeout_ms) + kStepDeadlineSlack);
    }
    // A master in this process (LocalMaster) hands the fetches over by reference.
    TensorHandoff handoff;
    opts.set_tensor_handoff(&handoff);
    RunStepResponse resp;
    SG_RETURN_IF_ERROR(master_->RunStep(&opts, req, &resp));
    if (resp.status_code() != error::OK) {
      return absl::Status(static_cast<absl::StatusCode>(resp.status_code()),
                          resp.status_error_message());
    }
    std::map<std::string, const TensorProto*> by_name;
    for (const auto& t : resp.tensor()) by_name[t.name()] = &t.tensor();
    std::vector<Tensor> result;
    result.reserve(output_names.size());
    std::map<std::string, Tensor> decoded;
    for (const auto& name : output_names) {
      auto d = decoded.find(name);
      if (d != decoded.end()) {
        result.push_back(d->second);
        continue;
      }
      Tensor t;
      if (!handoff.Take(name, &t)) {
        auto it = by_name.find(name);
        if (it == by_name.end()) {
          return errors::Internal("the master did not return fetch '", name, "'");
        }
        SG_ASSIGN_OR_RETURN(t, Tensor::FromProto(*it->second));
      }
      decoded.emplace(name, t);
      result.push_back(std::move(t));
    }
    *outputs = std::move(result);
    if (run_metadata != nullptr) run_metadata->Swap(resp.mutable_metadata());
    return absl::OkStatus();
  }

  const SessionOptions options_;
  const std::unique_ptr<MasterInterface> master_;
  mutex graph_mu_;
  std::string handle_ ABSL_GUARDED_BY(graph_mu_);
  int64_t graph_version_ ABSL_GUARDED_BY(graph_mu_) = 0;
  bool closed_ ABSL_GUARDED_BY(graph_mu_) = false;
  int in_flight_ ABSL_GUARDED_BY(graph_mu_) = 0;
  condition_variable calls_done_;  // in_flight_ went to 0
};

class GrpcSessionFactory : public SessionFactory {
 public:
  bool AcceptsOptions(const SessionOptions& options) override {
    return absl::StartsWith(options.target, kScheme);
  }
  absl::Status NewSession(const SessionOptions& options, std::unique_ptr<Session>* out) override {
    std::unique_ptr<MasterInterface> master;
    SG_RETURN_IF_ERROR(MasterForTarget(options.target, options.config, &master));
    *out = NewGrpcSession(options, std::move(master));
    return absl::OkStatus();
  }
  absl::Status Reset(const SessionOptions& options,
                     const std::vector<std::string>& containers) override {
    std::unique_ptr<MasterInterface> master;
    SG_RETURN_IF_ERROR(MasterForTarget(options.target, options.config, &master));
    ResetRequest req;
    for (const auto& c : containers) req.add_container(c);
    ResetResponse resp;
    CallOptions opts;
    opts.SetTimeout(SetupTimeoutMs(options.config));
    return master->Reset(&opts, req, &resp);
  }
};

struct GrpcSessionRegistrar {
  GrpcSessionRegistrar() { SessionFactory::Register("GRPC_SESSION", new GrpcSessionFactory); }
};
GrpcSessionRegistrar registrar;

}  // namespace

std::unique_ptr<Session> NewGrpcSession(const SessionOptions& options,
                                        std::unique_ptr<MasterInterface> master) {
  return std::make_unique<GrpcSession>(options, std::move(master));
}

absl::Status MasterForTarget(const std::string& target, const ConfigProto& config,
                             std::unique_ptr<MasterInterface>* out) {
  SG_ASSIGN_OR_RETURN(std::string host_port, HostPort(target));
  const RPCOptions& rpc = config.rpc_options();
  if (!rpc.use_rpc_for_inprocess_master()) {
    if (auto local = LookupLocalMaster(target)) {
      *out = std::move(local);
      return absl::OkStatus();
    }
  }
  SG_ASSIGN_OR_RETURN(auto creds, MakeChannelCredentials(ClientTlsOptions(rpc)));
  *out = NewGrpcRemoteMaster(
      ::grpc::CreateCustomChannel(host_port, creds, DefaultChannelArguments(rpc)));
  return absl::OkStatus();
}

}  // namespace sg
