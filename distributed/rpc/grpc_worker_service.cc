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
    tsan::Release(this);  // gRPC calls OnDone after OnCancel returns, maybe on another thread
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

// RunGraph's reactor: the worker hands the values of the request's recv_keys over in `handoff`,
// and the reply is written from their buffers (EncodeRunGraphResponse).
class RunGraphReactor : public Reactor {
 public:
  explicit RunGraphReactor(::grpc::CallbackServerContext* ctx) : Reactor(ctx) {
    opts()->set_tensor_handoff(&handoff);
  }
  RunGraphRequest req;
  RunGraphResponse resp;
  TensorHandoff handoff;
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
                    gs::WorkerService::WithRawCallbackMethod_RunGraph<
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
  SG_WORKER_METHOD(CleanupGraph)
  SG_WORKER_METHOD(CleanupAll)
#undef SG_WORKER_METHOD

  ::grpc::ServerUnaryReactor* RunGraph(::grpc::CallbackServerContext* ctx,
                                       const ::grpc::ByteBuffer* req,
                                       ::grpc::ByteBuffer* resp) override {
    tsan::Acquire(this);  // the server's set-up (GrpcServer::Start)
    auto* r = new RunGraphReactor(ctx);
    ::grpc::ByteBuffer request(*req);
    absl::Status s = ParseFromByteBuffer(&request, &r->req);
    if (!s.ok()) {
      r->FinishWith(ToGrpcStatus(s));
      tsan::Release(this);
      return r;
    }
    worker_->RunGraphAsync(r->opts(), &r->req, &r->resp, [r, resp](const absl::Status& s) {
      if (s.ok()) {
        // Each key once, in the request's order (an error in the body leaves them out).
        std::vector<std::pair<std::string, Tensor>> recv;
        if (r->resp.status_code() == error::OK) {
          for (const std::string& key : r->req.recv_key()) {
            Tensor value;
            if (r->handoff.Take(key, &value)) recv.emplace_back(key, std::move(value));
          }
        }
        EncodeRunGraphResponse(r->resp, recv, resp);
      }
      r->FinishWith(ToGrpcStatus(s));
    });
    tsan::Release(this);  // for the server's stop
    return r;
  }

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
