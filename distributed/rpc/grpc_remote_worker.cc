#include "distributed/rpc/grpc_remote_worker.h"

#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>

#include <thread>

#include "core/util/tsan_annotations.h"
#include "distributed/proto/worker_service.grpc.pb.h"
#include "distributed/rpc/grpc_util.h"
#include "distributed/rpc/tensor_coding.h"

namespace sg {
namespace {

constexpr char kRecvTensorMethod[] = "/sg.grpc.WorkerService/RecvTensor";
constexpr char kRunGraphMethod[] = "/sg.grpc.WorkerService/RunGraph";
constexpr int kPollingThreads = 2;

// The completion of one call in flight.
class Tag {
 public:
  virtual ~Tag() = default;
  virtual void Complete() = 0;
};

// One completion queue for every outgoing worker call of the process, with its polling threads.
// It is never destroyed (calls may complete while the process exits). gRPC's callback client API
// is not used: with this gRPC (1.51, no background poller) it shares one refcounted queue between
// channels, whose shutdown when the last channel goes races with the next channel's first call.
class ClientQueue {
 public:
  static ::grpc::CompletionQueue* Get() {
    static ClientQueue* q = new ClientQueue;
    return &q->cq_;
  }

 private:
  ClientQueue() {
    for (int i = 0; i < kPollingThreads; ++i) {
      std::thread([this] {
        void* tag;
        bool ok;
        for (;;) {
          {
            tsan::IgnoreAccesses ignore;  // gRPC's code finishing the call (tsan_annotations.h)
            if (!cq_.Next(&tag, &ok)) break;
          }
          tsan::Acquire(tag);
          static_cast<Tag*>(tag)->Complete();
        }
      }).detach();
    }
  }
  ::grpc::CompletionQueue cq_;
};

struct ClientCall {
  ::grpc::ClientContext ctx;
  ::grpc::ByteBuffer request, response;  // RunGraph and RecvTensor only
};

template <typename Resp>
class UnaryTag : public Tag {
 public:
  UnaryTag(std::shared_ptr<ClientCall> call, std::function<void(::grpc::Status)> done)
      : call_(std::move(call)), done_(std::move(done)) {}
  void Start(std::unique_ptr<::grpc::ClientAsyncResponseReader<Resp>> reader, Resp* resp) {
    reader_ = std::move(reader);
    tsan::Release(this);  // for the polling thread that completes the call
    tsan::IgnoreAccesses ignore;
    reader_->StartCall();
    reader_->Finish(resp, &status_, this);
  }
  void Complete() override {
    done_(std::move(status_));
    delete this;
  }

 private:
  std::shared_ptr<ClientCall> call_;
  std::function<void(::grpc::Status)> done_;
  std::unique_ptr<::grpc::ClientAsyncResponseReader<Resp>> reader_;
  ::grpc::Status status_;
};

class GrpcRemoteWorker final : public WorkerInterface {
 public:
  GrpcRemoteWorker(std::shared_ptr<::grpc::Channel> channel, std::string task,
                   std::string address, std::shared_ptr<::grpc::Channel> recv_channel)
      : stub_(::sg::grpc::WorkerService::NewStub(channel)),
        run_graph_(channel),
        generic_(recv_channel ? recv_channel : channel),
        task_(std::move(task)),
        address_(std::move(address)) {}

#define SG_REMOTE_METHOD(Name, setup)                                                       \
  void Name##Async(CallOptions* opts, const Name##Request* req, Name##Response* resp,      \
                   StatusCallback done) override {                                          \
    auto call = Prepare(opts, setup);                                                       \
    auto* tag = new UnaryTag<Name##Response>(call, Completion(call, opts, std::move(done))); \
    tag->Start(stub_->PrepareAsync##Name(&call->ctx, *req, ClientQueue::Get()), resp);      \
  }
  SG_REMOTE_METHOD(GetStatus, true)
  SG_REMOTE_METHOD(CreateWorkerSession, true)
  SG_REMOTE_METHOD(DeleteWorkerSession, true)
  SG_REMOTE_METHOD(RegisterGraph, true)
  SG_REMOTE_METHOD(DeregisterGraph, true)
  SG_REMOTE_METHOD(CleanupGraph, true)
  SG_REMOTE_METHOD(CleanupAll, true)
#undef SG_REMOTE_METHOD

  // The reply's tensors go straight into aligned Tensors, in opts' TensorHandoff when it has
  // one (the master's calls), else into resp's recv list.
  void RunGraphAsync(CallOptions* opts, const RunGraphRequest* req, RunGraphResponse* resp,
                     StatusCallback done) override {
    auto call = Prepare(opts, false);
    SerializeToByteBuffer(*req, &call->request);
    auto complete = Completion(call, opts, std::move(done));
    TensorHandoff* handoff = opts != nullptr ? opts->tensor_handoff() : nullptr;
    auto* tag = new UnaryTag<::grpc::ByteBuffer>(
        call, [call, resp, handoff, complete = std::move(complete)](::grpc::Status s) {
          if (s.ok()) {
            absl::Status d = DecodeRunGraphResponse(&call->response, resp, handoff);
            if (!d.ok()) s = ToGrpcStatus(d);
          }
          complete(std::move(s));
        });
    tag->Start(run_graph_.PrepareUnaryCall(&call->ctx, kRunGraphMethod, call->request,
                                           ClientQueue::Get()),
               &call->response);
  }

  void RecvTensorAsync(CallOptions* opts, const RecvTensorRequest* req, RecvTensorResult* result,
                       StatusCallback done) override {
    auto call = Prepare(opts, false);
    SerializeToByteBuffer(*req, &call->request);
    auto complete = Completion(call, opts, std::move(done));
    auto* tag = new UnaryTag<::grpc::ByteBuffer>(
        call, [call, result, complete = std::move(complete)](::grpc::Status s) {
          if (s.ok()) {
            absl::Status d = DecodeRecvTensorResponse(&call->response, result);
            if (!d.ok()) s = ToGrpcStatus(d);
          }
          complete(std::move(s));
        });
    tag->Start(generic_.PrepareUnaryCall(&call->ctx, kRecvTensorMethod, call->request,
                                         ClientQueue::Get()),
               &call->response);
  }

 private:
  std::shared_ptr<ClientCall> Prepare(CallOptions* opts, bool setup) {
    auto call = std::make_shared<ClientCall>();
    absl::Time deadline = opts != nullptr ? opts->deadline() : absl::InfiniteFuture();
    if (setup && deadline == absl::InfiniteFuture()) {
      deadline = absl::Now() + absl::Milliseconds(kDefaultSetupTimeoutMs);
    }
    if (deadline != absl::InfiniteFuture()) call->ctx.set_deadline(ToGrpcDeadline(deadline));
    if (opts != nullptr) {
      // The callback keeps the context alive, so a cancel racing the completion is harmless.
      opts->SetCancelCallback([call] { call->ctx.TryCancel(); });
      if (opts->cancelled()) call->ctx.TryCancel();
    }
    return call;
  }

  std::function<void(::grpc::Status)> Completion(std::shared_ptr<ClientCall> call,
                                                 CallOptions* opts, StatusCallback done) {
    return [call, opts, done = std::move(done), task = task_,
            address = address_](::grpc::Status s) {
      if (opts != nullptr) opts->ClearCancelCallback();
      absl::Status st = FromGrpcStatus(s);
      if (st.code() == absl::StatusCode::kUnavailable ||
          st.code() == absl::StatusCode::kDeadlineExceeded) {
        st = absl::Status(st.code(), absl::StrCat("Task ", task, " at ", address, ": ",
                                                  st.message()));
      }
      done(st);
    };
  }

  std::unique_ptr<::sg::grpc::WorkerService::Stub> stub_;
  ::grpc::GenericStub run_graph_;  // RunGraph, on the main channel
  ::grpc::GenericStub generic_;    // RecvTensor, on its own channel when there is one
  const std::string task_;
  const std::string address_;
};

}  // namespace

std::unique_ptr<WorkerInterface> NewGrpcRemoteWorker(
    std::shared_ptr<::grpc::Channel> channel, const std::string& task, const std::string& address,
    std::shared_ptr<::grpc::Channel> recv_channel) {
  return std::make_unique<GrpcRemoteWorker>(std::move(channel), task, address,
                                            std::move(recv_channel));
}

}  // namespace sg
