#include "distributed/rpc/grpc_worker_service.h"

#include <grpcpp/grpcpp.h>

#include "core/util/tsan_annotations.h"
#include "distributed/proto/worker_service.grpc.pb.h"
#include "distributed/rpc/grpc_util.h"
#include "distributed/rpc/tensor_coding.h"

namespace sg {
namespace {

namespace gs = ::sg::grpc;

// One call: its CallOptions live until gRPC is done with the call.
class Reactor : public ::grpc::ServerUnaryReactor {
 public:
  explicit Reactor(::grpc::CallbackServerContext* ctx) {
    opts_.SetDeadline(FromGrpcDeadline(ctx->deadline()));
    tsan::Release(this);  // gRPC may call OnCancel on another thread (tsan_annotations.h)
  }
  void OnCancel() override {
    tsan::Acquire(this);
    opts_.StartCancel();
  }
  void OnDone() override {
    tsan::Acquire(this);
    delete this;
  }
  CallOptions* opts() { return &opts_; }
  StatusCallback Done() {
    return [this](const absl::Status& s) { FinishWith(ToGrpcStatus(s)); };
  }
  // Finish, after which gRPC sends the reply and calls OnDone on a thread of its own.
  void FinishWith(const ::grpc::Status& s) {
    tsan::Release(this);
    tsan::IgnoreAccesses ignore;
    Finish(s);
  }

 private:
  CallOptions opts_;
};

class RecvTensorReactor : public Reactor {
 public:
  using Reactor::Reactor;
  RecvTensorRequest req;
  RecvTensorResult result;
};

using ServiceBase = gs::WorkerService::WithCallbackMethod_GetStatus<
    gs::WorkerService::WithCallbackMethod_CreateWorkerSession<
        gs::WorkerService::WithCallbackMethod_DeleteWorkerSession<
            gs::WorkerService::WithCallbackMethod_RegisterGraph<
                gs::WorkerService::WithCallbackMethod_DeregisterGraph<
                    gs::WorkerService::WithCallbackMethod_RunGraph<
                        gs::WorkerService::WithCallbackMethod_CleanupGraph<
                            gs::WorkerService::WithCallbackMethod_CleanupAll<
                                gs::WorkerService::WithRawCallbackMethod_RecvTensor<
                                    gs::WorkerService::Service>>>>>>>>>;

class GrpcWorkerService final : public ServiceBase {
 public:
  explicit GrpcWorkerService(WorkerInterface* worker) : worker_(worker) {}

#define SG_WORKER_METHOD(Name)                                                            \
  ::grpc::ServerUnaryReactor* Name(::grpc::CallbackServerContext* ctx,                   \
                                   const Name##Request* req, Name##Response* resp)       \
      override {                                                                          \
    tsan::Acquire(this); /* the server's set-up (GrpcServer::Start) */                    \
    auto* r = new Reactor(ctx);                                                           \
    worker_->Name##Async(r->opts(), req, resp, r->Done());                                \
    tsan::Release(this); /* for the server's stop */                                      \
    return r;                                                                             \
  }
  SG_WORKER_METHOD(GetStatus)
  SG_WORKER_METHOD(CreateWorkerSession)
  SG_WORKER_METHOD(DeleteWorkerSession)
  SG_WORKER_METHOD(RegisterGraph)
  SG_WORKER_METHOD(DeregisterGraph)
  SG_WORKER_METHOD(RunGraph)
  SG_WORKER_METHOD(CleanupGraph)
  SG_WORKER_METHOD(CleanupAll)
#undef SG_WORKER_METHOD

  ::grpc::ServerUnaryReactor* RecvTensor(::grpc::CallbackServerContext* ctx,
                                         const ::grpc::ByteBuffer* req,
                                         ::grpc::ByteBuffer* resp) override {
    tsan::Acquire(this);  // the server's set-up (GrpcServer::Start)
    auto* r = new RecvTensorReactor(ctx);
    ::grpc::ByteBuffer request(*req);
    absl::Status s = ParseFromByteBuffer(&request, &r->req);
    if (!s.ok()) {
      r->FinishWith(ToGrpcStatus(s));
      tsan::Release(this);
      return r;
    }
    worker_->RecvTensorAsync(r->opts(), &r->req, &r->result, [r, resp](const absl::Status& s) {
      if (s.ok()) EncodeRecvTensorResponse(r->result.tensor, r->result.is_dead, resp);
      r->result.tensor = Tensor();  // the reply's slice holds the buffer now
      r->FinishWith(ToGrpcStatus(s));
    });
    tsan::Release(this);  // for the server's stop
    return r;
  }

 private:
  WorkerInterface* const worker_;
};

}  // namespace

std::unique_ptr<::grpc::Service> NewGrpcWorkerService(WorkerInterface* worker) {
  return std::make_unique<GrpcWorkerService>(worker);
}

}  // namespace sg
