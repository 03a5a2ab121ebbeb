#include "distributed/rpc/grpc_master_service.h"

#include "core/util/tsan_annotations.h"
#include "distributed/proto/master_service.grpc.pb.h"
#include "distributed/rpc/grpc_util.h"

namespace sg {
namespace {

class GrpcMasterService final : public grpc::MasterService::Service {
 public:
  explicit GrpcMasterService(Master* master) : master_(master) {}

  ::grpc::Status CreateSession(::grpc::ServerContext* ctx, const CreateSessionRequest* req,
                               CreateSessionResponse* resp) override {
    return Call(ctx, [&](CallOptions* o) { return master_->CreateSession(o, *req, resp); });
  }
  ::grpc::Status ExtendSession(::grpc::ServerContext* ctx, const ExtendSessionRequest* req,
                               ExtendSessionResponse* resp) override {
    return Call(ctx, [&](CallOptions* o) { return master_->ExtendSession(o, *req, resp); });
  }
  ::grpc::Status PartialRunSetup(::grpc::ServerContext* ctx, const PartialRunSetupRequest* req,
                                 PartialRunSetupResponse* resp) override {
    return Call(ctx, [&](CallOptions* o) { return master_->PartialRunSetup(o, *req, resp); });
  }
  ::grpc::Status RunStep(::grpc::ServerContext* ctx, const RunStepRequest* req,
                         RunStepResponse* resp) override {
    return Call(ctx, [&](CallOptions* o) { return master_->RunStep(o, *req, resp); });
  }
  ::grpc::Status ReleasePartialRun(::grpc::ServerContext* ctx, const ReleasePartialRunRequest* req,
                                   ReleasePartialRunResponse* resp) override {
    return Call(ctx, [&](CallOptions* o) { return master_->ReleasePartialRun(o, *req, resp); });
  }
  ::grpc::Status CloseSession(::grpc::ServerContext* ctx, const CloseSessionRequest* req,
                              CloseSessionResponse* resp) override {
    return Call(ctx, [&](CallOptions* o) { return master_->CloseSession(o, *req, resp); });
  }
  ::grpc::Status ListDevices(::grpc::ServerContext* ctx, const ListDevicesRequest* req,
                             ListDevicesResponse* resp) override {
    return Call(ctx, [&](CallOptions* o) { return master_->ListDevices(o, *req, resp); });
  }
  ::grpc::Status Reset(::grpc::ServerContext* ctx, const ResetRequest* req,
                       ResetResponse* resp) override {
    return Call(ctx, [&](CallOptions* o) { return master_->Reset(o, *req, resp); });
  }

 private:
  template <typename Fn>
  ::grpc::Status Call(::grpc::ServerContext* ctx, Fn fn) {
    tsan::Acquire(this);  // the server's set-up (GrpcServer::Start; core/util/tsan_annotations.h)
    CallOptions opts;
    opts.SetDeadline(FromGrpcDeadline(ctx->deadline()));
    absl::Status s = fn(&opts);
    if (!s.ok()) ctx->AddTrailingMetadata(kMasterErrorTrailer, "1");
    tsan::Release(this);  // for the server's stop
    return ToGrpcStatus(s);
  }

  Master* const master_;
};

}  // namespace

std::unique_ptr<::grpc::Service> NewGrpcMasterService(Master* master) {
  return std::make_unique<GrpcMasterService>(master);
}

}  // namespace sg
