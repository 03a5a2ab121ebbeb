#include "distributed/rpc/grpc_remote_master.h"

#include <algorithm>

#include "distributed/proto/master_service.grpc.pb.h"
#include "distributed/rpc/grpc_master_service.h"
#include "distributed/rpc/grpc_util.h"

namespace sg {
namespace {

constexpr int kMaxAttempts = 10;
constexpr absl::Duration kFirstBackoff = absl::Milliseconds(20);
constexpr absl::Duration kMaxBackoff = absl::Seconds(1);

class GrpcRemoteMaster : public MasterInterface {
  using Stub = grpc::MasterService::Stub;

 public:
  explicit GrpcRemoteMaster(std::shared_ptr<::grpc::Channel> channel)
      : stub_(grpc::MasterService::NewStub(std::move(channel))) {}

  absl::Status CreateSession(CallOptions* opts, const CreateSessionRequest& req,
                             CreateSessionResponse* resp) override {
    return Call(opts, req, resp, &Stub::CreateSession, "CreateSession");
  }
  absl::Status ExtendSession(CallOptions* opts, const ExtendSessionRequest& req,
                             ExtendSessionResponse* resp) override {
    return Call(opts, req, resp, &Stub::ExtendSession, "ExtendSession");
  }
  absl::Status PartialRunSetup(CallOptions* opts, const PartialRunSetupRequest& req,
                               PartialRunSetupResponse* resp) override {
    return Call(opts, req, resp, &Stub::PartialRunSetup, "PartialRunSetup");
  }
  absl::Status RunStep(CallOptions* opts, const RunStepRequest& req,
                       RunStepResponse* resp) override {
    return Call(opts, req, resp, &Stub::RunStep, "RunStep");
  }
  absl::Status ReleasePartialRun(CallOptions* opts, const ReleasePartialRunRequest& req,
                                 ReleasePartialRunResponse* resp) override {
    return Call(opts, req, resp, &Stub::ReleasePartialRun, "ReleasePartialRun");
  }
  absl::Status CloseSession(CallOptions* opts, const CloseSessionRequest& req,
                            CloseSessionResponse* resp) override {
    return Call(opts, req, resp, &Stub::CloseSession, "CloseSession");
  }
  absl::Status ListDevices(CallOptions* opts, const ListDevicesRequest& req,
                           ListDevicesResponse* resp) override {
    return Call(opts, req, resp, &Stub::ListDevices, "ListDevices");
  }
  absl::Status Reset(CallOptions* opts, const ResetRequest& req, ResetResponse* resp) override {
    return Call(opts, req, resp, &Stub::Reset, "Reset");
  }

 private:
  template <typename Req, typename Resp>
  using Method = ::grpc::Status (Stub::*)(::grpc::ClientContext*, const Req&, Resp*);

  template <typename Req, typename Resp>
  absl::Status Call(CallOptions* opts, const Req& req, Resp* resp, Method<Req, Resp> method,
                    const char* name) {
    const absl::Time deadline = opts->deadline();
    absl::Duration backoff = kFirstBackoff;
    for (int attempt = 1;; ++attempt) {
      if (opts->cancelled()) return errors::Cancelled(name, " was cancelled");
      ::grpc::ClientContext ctx;
      ctx.set_deadline(ToGrpcDeadline(deadline));
      ctx.set_wait_for_ready(false);
      opts->SetCancelCallback([&ctx]() { ctx.TryCancel(); });
      ::grpc::Status s = (stub_.get()->*method)(&ctx, req, resp);
      opts->ClearCancelCallback();
      if (s.ok()) return absl::OkStatus();
      const bool from_master = ctx.GetServerTrailingMetadata().count(kMasterErrorTrailer) > 0;
      if (s.error_code() != ::grpc::StatusCode::UNAVAILABLE || from_master ||
          attempt >= kMaxAttempts || absl::Now() + backoff >= deadline) {
        absl::Status out = FromGrpcStatus(s);
        if (from_master) return out;
        return errors::Annotate(out, absl::StrCat(name, " (after ", attempt, " attempt",
                                                  attempt > 1 ? "s" : "", "): "));
      }
      absl::SleepFor(backoff);
      backoff = std::min(backoff * 2, kMaxBackoff);
      resp->Clear();
    }
  }

  std::unique_ptr<Stub> stub_;
};

}  // namespace

std::unique_ptr<MasterInterface> NewGrpcRemoteMaster(std::shared_ptr<::grpc::Channel> channel) {
  return std::make_unique<GrpcRemoteMaster>(std::move(channel));
}

}  // namespace sg
