// Worker in process: two tasks' Workers with an in-process worker cache, graphs registered by
// hand (as a master would after partitioning), tensors moving between them with RecvTensor.
#include "distributed/worker/worker.h"

#include <gtest/gtest.h>

#include <map>

#include "absl/synchronization/notification.h"
#include "core/framework/attr_value_util.h"
#include "core/framework/device.h"
#include "core/framework/rendezvous.h"
#include "core/runtime/threadpool.h"

namespace sg {
namespace {

constexpr absl::Duration kWait = absl::Seconds(10);

class InProcessWorkerCache : public WorkerCacheInterface {
 public:
  std::vector<std::string> ListWorkers() const override {
    std::vector<std::string> out;
    for (const auto& kv : workers_) out.push_back(kv.first);
    return out;
  }
  WorkerInterface* GetOrCreateWorker(const std::string& task) override {
    auto it = workers_.find(task);
    return it == workers_.end() ? nullptr : it->second;
  }
  std::string Address(const std::string& task) const override { return "in-process"; }
  std::map<std::string, WorkerInterface*> workers_;
};

struct Task {
  Task(int task, int num_devices, WorkerCacheInterface* cache)
      : intra(std::make_unique<IntraOpThreadPool>(2)),
        devices(NewCpuDevices("worker", task, num_devices, intra.get())),
        pool(std::make_unique<ThreadPool>(4)) {
    WorkerEnv env;
    env.task_name = "/job:worker/replica:0/task:" + std::to_string(task);
    for (auto& d : devices) env.devices.push_back(d.get());
    env.worker_cache = cache;
    ThreadPool* p = pool.get();
    env.runner = [p](std::function<void()> fn) { p->Schedule(std::move(fn)); };
    worker = std::make_unique<Worker>(env);
  }
  ~Task() { worker.reset(); }
  const std::string& dev(int i = 0) const { return devices[i]->name(); }
  uint64_t inc(int i = 0) const { return devices[i]->incarnation(); }

  std::unique_ptr<IntraOpThreadPool> intra;
  std::vector<std::unique_ptr<Device>> devices;
  std::unique_ptr<ThreadPool> pool;
  std::unique_ptr<Worker> worker;
};

// Waits for an async call, bounded.
class Waiter {
 public:
  StatusCallback cb() {
    return [this](const absl::Status& s) {
      status_ = s;
      n_.Notify();
    };
  }
  bool Done(absl::Duration d = kWait) { return n_.WaitForNotificationWithTimeout(d); }
  absl::Status Wait() {
    if (!n_.WaitForNotificationWithTimeout(kWait)) return errors::DeadlineExceeded("test wait");
    return status_;
  }

 private:
  absl::Notification n_;
  absl::Status status_;
};

NodeDef* AddNode(GraphDef* g, const std::string& name, const std::string& op,
                 const std::string& device, std::vector<std::string> inputs = {}) {
  NodeDef* n = g->add_node();
  n->set_name(name);
  n->set_op(op);
  n->set_device(device);
  for (auto& in : inputs) n->add_input(in);
  return n;
}

void AddConst(GraphDef* g, const std::string& name, const std::string& device, const Tensor& t) {
  NodeDef* n = AddNode(g, name, "Const", device);
  AddNodeAttr("dtype", t.dtype(), n);
  AddNodeAttr("value", t, n);
}

void SetTransferAttrs(NodeDef* n, const std::string& tensor_name, const std::string& send_device,
                      uint64_t incarnation, const std::string& recv_device, bool client) {
  AddNodeAttr("tensor_name", tensor_name, n);
  AddNodeAttr("send_device", send_device, n);
  AddNodeAttr("send_device_incarnation", static_cast<int64_t>(incarnation), n);
  AddNodeAttr("recv_device", recv_device, n);
  AddNodeAttr("client_terminated", client, n);
}

void AddSend(GraphDef* g, const std::string& name, const std::string& input,
             const std::string& tensor_name, const std::string& from, uint64_t inc,
             const std::string& to, bool client = false) {
  NodeDef* n = AddNode(g, name, "_Send", from, {input});
  AddNodeAttr("T", DT_FLOAT, n);
  SetTransferAttrs(n, tensor_name, from, inc, to, client);
}

void AddRecv(GraphDef* g, const std::string& name, const std::string& tensor_name,
             const std::string& from, uint64_t inc, const std::string& to, bool client = false) {
  NodeDef* n = AddNode(g, name, "_Recv", to);
  AddNodeAttr("tensor_type", DT_FLOAT, n);
  SetTransferAttrs(n, tensor_name, from, inc, to, client);
}

std::string Key(const std::string& src, uint64_t inc, const std::string& dst,
                const std::string& name) {
  return Rendezvous::CreateKey(src, inc, dst, name, FrameAndIter());
}

class WorkerTest : public ::testing::Test {
 protected:
  WorkerTest() : t0_(0, 1, &cache_), t1_(1, 1, &cache_) {
    cache_.workers_["/job:worker/replica:0/task:0"] = t0_.worker.get();
    cache_.workers_["/job:worker/replica:0/task:1"] = t1_.worker.get();
  }

  std::string Register(Task& t, const GraphDef& g) {
    RegisterGraphRequest req;
    *req.mutable_graph_def() = g;
    RegisterGraphResponse resp;
    Waiter w;
    t.worker->RegisterGraphAsync(nullptr, &req, &resp, w.cb());
    absl::Status s = w.Wait();
    EXPECT_TRUE(s.ok()) << s;
    return resp.graph_handle();
  }

  // Task 0: x = Const{1,2} + feed f; sends x to task 1. Task 1: y = x * x, fetched as "y".
  void RegisterPair() {
    GraphDef g0;
    AddConst(&g0, "c", t0_.dev(), Tensor::Vector<float>({1, 2}));
    AddRecv(&g0, "f", "f", t0_.dev(), t0_.inc(), t0_.dev(), true);
    AddNodeAttr("T", DT_FLOAT, AddNode(&g0, "x", "Add", t0_.dev(), {"c", "f"}));
    AddSend(&g0, "x/_send", "x", "edge_x", t0_.dev(), t0_.inc(), t1_.dev());
    GraphDef g1;
    AddRecv(&g1, "x/_recv", "edge_x", t0_.dev(), t0_.inc(), t1_.dev());
    NodeDef* y = AddNode(&g1, "y", "Mul", t1_.dev(), {"x/_recv", "x/_recv"});
    AddNodeAttr("T", DT_FLOAT, y);
    AddSend(&g1, "y/_send", "y", "y", t1_.dev(), t1_.inc(), t1_.dev(), true);
    h0_ = Register(t0_, g0);
    h1_ = Register(t1_, g1);
  }

  // Task 0's RunGraph of step `step` of the pair, feeding `f`.
  RunGraphRequest PairStepOnTask0(int64_t step, const Tensor& f) {
    RunGraphRequest r0;
    r0.set_graph_handle(h0_);
    r0.set_step_id(step);
    NamedTensorProto* feed = r0.add_send();
    feed->set_name(Key(t0_.dev(), t0_.inc(), t0_.dev(), "f"));
    f.AsProtoTensorContent(feed->mutable_tensor());
    return r0;
  }

  InProcessWorkerCache cache_;
  Task t0_, t1_;
  std::string h0_, h1_;
};

TEST(WorkerTestGraphHandle, IsSixteenHexDigits) {
  InProcessWorkerCache cache;
  Task t(0, 1, &cache);
  GraphDef g;
  AddConst(&g, "c", t.dev(), Tensor::Scalar<float>(1));
  RegisterGraphRequest req;
  *req.mutable_graph_def() = g;
  RegisterGraphResponse resp;
  Waiter w;
  t.worker->RegisterGraphAsync(nullptr, &req, &resp, w.cb());
  ASSERT_TRUE(w.Wait().ok());
  EXPECT_EQ(resp.graph_handle().size(), 16u);
  EXPECT_EQ(resp.graph_handle().find_first_not_of("0123456789abcdef"), std::string::npos);
}

TEST_F(WorkerTest, GetStatusListsTheTaskDevices) {
  GetStatusRequest req;
  GetStatusResponse resp;
  Waiter w;
  t1_.worker->GetStatusAsync(nullptr, &req, &resp, w.cb());
  ASSERT_TRUE(w.Wait().ok());
  ASSERT_EQ(resp.device_attributes_size(), 1);
  EXPECT_EQ(resp.device_attributes(0).name(), "/job:worker/replica:0/task:1/device:CPU:0");
  EXPECT_EQ(resp.device_attributes(0).incarnation(), t1_.inc());
}

TEST_F(WorkerTest, RunGraphMovesATensorBetweenTasksWithRecvTensor) {
  RegisterPair();
  for (int64_t step = 1; step <= 3; ++step) {
    RunGraphRequest r0 = PairStepOnTask0(step, Tensor::Vector<float>({10.f * step, 20})), r1;
    RunGraphResponse p0, p1;
    r1.set_graph_handle(h1_);
    r1.set_step_id(step);
    const std::string fetch = Key(t1_.dev(), t1_.inc(), t1_.dev(), "y");
    r1.add_recv_key(fetch);
    Waiter w0, w1;
    // Task 1 first: its _Recv waits for task 0 through RecvTensor.
    t1_.worker->RunGraphAsync(nullptr, &r1, &p1, w1.cb());
    t0_.worker->RunGraphAsync(nullptr, &r0, &p0, w0.cb());
    ASSERT_TRUE(w0.Wait().ok());
    ASSERT_TRUE(w1.Wait().ok());
    ASSERT_EQ(p1.recv_size(), 1);
    EXPECT_EQ(p1.recv(0).name(), fetch);
    auto y = Tensor::FromProto(p1.recv(0).tensor());
    ASSERT_TRUE(y.ok());
    ASSERT_EQ(y->NumElements(), 2);
    const float x0 = 1 + 10.f * step;
    EXPECT_FLOAT_EQ(y->data<float>()[0], x0 * x0);
    EXPECT_FLOAT_EQ(y->data<float>()[1], 22.f * 22.f);
    CleanupGraphRequest c;
    c.set_step_id(step);
    CleanupGraphResponse cr;
    Waiter wc0, wc1;
    t0_.worker->CleanupGraphAsync(nullptr, &c, &cr, wc0.cb());
    t1_.worker->CleanupGraphAsync(nullptr, &c, &cr, wc1.cb());
    ASSERT_TRUE(wc0.Wait().ok());
    ASSERT_TRUE(wc1.Wait().ok());
  }
}

TEST_F(WorkerTest, RecvTensorWaitsForTheValueWithoutBlocking) {
  RegisterPair();
  RecvTensorRequest req;
  req.set_step_id(5);
  req.set_rendezvous_key(Key(t0_.dev(), t0_.inc(), t1_.dev(), "edge_x"));
  RecvTensorResult result;
  Waiter wr;
  t0_.worker->RecvTensorAsync(nullptr, &req, &result, wr.cb());
  EXPECT_FALSE(wr.Done(absl::Milliseconds(50)));  // nothing sent yet, and we were not blocked
  RunGraphRequest r0 = PairStepOnTask0(5, Tensor::Vector<float>({0, 0}));
  RunGraphResponse p0;
  Waiter w0;
  t0_.worker->RunGraphAsync(nullptr, &r0, &p0, w0.cb());
  ASSERT_TRUE(w0.Wait().ok());
  ASSERT_TRUE(wr.Wait().ok());
  EXPECT_FALSE(result.is_dead);
  ASSERT_EQ(result.tensor.NumElements(), 2);
  EXPECT_EQ(result.tensor.data<float>()[1], 2.f);
}

TEST_F(WorkerTest, UnknownGraphHandleIsAborted) {
  RunGraphRequest req;
  req.set_graph_handle("00000000deadbeef");
  req.set_step_id(1);
  RunGraphResponse resp;
  Waiter w;
  t0_.worker->RunGraphAsync(nullptr, &req, &resp, w.cb());
  absl::Status s = w.Wait();
  EXPECT_EQ(s.code(), absl::StatusCode::kAborted) << s;
  EXPECT_NE(s.message().find("is not found"), std::string::npos) << s;
}

TEST_F(WorkerTest, ErrorsGoInTheResponseBodyWhenAsked) {
  RunGraphRequest req;
  req.set_graph_handle("00000000deadbeef");
  req.set_store_errors_in_response_body(true);
  RunGraphResponse resp;
  Waiter w;
  t0_.worker->RunGraphAsync(nullptr, &req, &resp, w.cb());
  ASSERT_TRUE(w.Wait().ok());
  EXPECT_EQ(resp.status_code(), error::ABORTED);
  EXPECT_NE(resp.status_error_message().find("is not found"), std::string::npos);
}

TEST_F(WorkerTest, RepeatedRequestIdIsAbortedAndNotRunTwice) {
  GraphDef g;
  AddConst(&g, "c", t0_.dev(), Tensor::Scalar<float>(3));
  AddSend(&g, "c/_send", "c", "c", t0_.dev(), t0_.inc(), t0_.dev(), true);
  const std::string h = Register(t0_, g);
  for (int attempt = 0; attempt < 2; ++attempt) {
    RunGraphRequest req;
    req.set_graph_handle(h);
    req.set_step_id(100 + attempt);
    req.set_request_id(4242);
    req.add_recv_key(Key(t0_.dev(), t0_.inc(), t0_.dev(), "c"));
    RunGraphResponse resp;
    Waiter w;
    t0_.worker->RunGraphAsync(nullptr, &req, &resp, w.cb());
    absl::Status s = w.Wait();
    if (attempt == 0) {
      ASSERT_TRUE(s.ok()) << s;
      ASSERT_EQ(resp.recv_size(), 1);
    } else {
      EXPECT_EQ(s.code(), absl::StatusCode::kAborted) << s;
      EXPECT_EQ(resp.recv_size(), 0);
    }
  }
}

// A step that ran to its end keeps what it sent until the peer takes it, with no CleanupGraph,
// and is dropped then: a later RecvTensor of the step fails at once.
TEST_F(WorkerTest, AFinishedStepIsDroppedOnceItsPeerTookWhatItSent) {
  RegisterPair();
  RunGraphRequest r0 = PairStepOnTask0(7, Tensor::Vector<float>({5, 6}));
  RunGraphResponse p0;
  Waiter w0;
  t0_.worker->RunGraphAsync(nullptr, &r0, &p0, w0.cb());
  ASSERT_TRUE(w0.Wait().ok());
  RecvTensorRequest req;
  req.set_step_id(7);
  req.set_rendezvous_key(Key(t0_.dev(), t0_.inc(), t1_.dev(), "edge_x"));
  RecvTensorResult result;
  Waiter wr;
  t0_.worker->RecvTensorAsync(nullptr, &req, &result, wr.cb());
  ASSERT_TRUE(wr.Wait().ok());
  ASSERT_EQ(result.tensor.NumElements(), 2);
  EXPECT_EQ(result.tensor.data<float>()[0], 6.f);
  EXPECT_EQ(result.tensor.data<float>()[1], 8.f);
  RecvTensorResult again;
  Waiter wa;
  t0_.worker->RecvTensorAsync(nullptr, &req, &again, wa.cb());
  absl::Status s = wa.Wait();
  EXPECT_EQ(s.code(), absl::StatusCode::kAborted) << s;
  EXPECT_NE(s.message().find("cleaned up"), std::string::npos) << s;
}

// DeliverTensor puts a value into a step's rendezvous, where a _Recv whose key names this task
// at both ends waits for it (how the master hands over a tensor another task's reply carried).
TEST_F(WorkerTest, DeliverTensorFeedsAWaitingRecv) {
  EXPECT_TRUE(t0_.worker->InProcess());
  GraphDef g;
  AddRecv(&g, "in", "edge_in", t0_.dev(), t0_.inc(), t0_.dev());
  AddNodeAttr("T", DT_FLOAT, AddNode(&g, "sq", "Mul", t0_.dev(), {"in", "in"}));
  AddSend(&g, "sq/_send", "sq", "sq", t0_.dev(), t0_.inc(), t0_.dev(), true);
  const std::string h = Register(t0_, g);
  RunGraphRequest req;
  req.set_graph_handle(h);
  req.set_step_id(11);
  const std::string fetch = Key(t0_.dev(), t0_.inc(), t0_.dev(), "sq");
  req.add_recv_key(fetch);
  RunGraphResponse resp;
  Waiter w;
  t0_.worker->RunGraphAsync(nullptr, &req, &resp, w.cb());
  EXPECT_FALSE(w.Done(absl::Milliseconds(20)));  // waits for the value
  ASSERT_TRUE(t0_.worker
                  ->DeliverTensor(11, Key(t0_.dev(), t0_.inc(), t0_.dev(), "edge_in"),
                                  Tensor::Vector<float>({3, -4}))
                  .ok());
  ASSERT_TRUE(w.Wait().ok());
  ASSERT_EQ(resp.recv_size(), 1);
  auto sq = Tensor::FromProto(resp.recv(0).tensor());
  ASSERT_TRUE(sq.ok());
  EXPECT_EQ(sq->data<float>()[0], 9.f);
  EXPECT_EQ(sq->data<float>()[1], 16.f);
  // The step is over and dropped: a late delivery is refused, not kept.
  absl::Status late = t0_.worker->DeliverTensor(11, Key(t0_.dev(), t0_.inc(), t0_.dev(), "x"),
                                                Tensor::Scalar<float>(1));
  EXPECT_EQ(late.code(), absl::StatusCode::kAborted) << late;
}

TEST_F(WorkerTest, RecvTensorWithAnotherIncarnationIsAborted) {
  RecvTensorRequest req;
  req.set_step_id(1);
  req.set_rendezvous_key(Key(t0_.dev(), t0_.inc() ^ 1, t1_.dev(), "edge_x"));
  RecvTensorResult result;
  Waiter w;
  t0_.worker->RecvTensorAsync(nullptr, &req, &result, w.cb());
  absl::Status s = w.Wait();
  EXPECT_EQ(s.code(), absl::StatusCode::kAborted) << s;
  EXPECT_NE(s.message().find("incarnation"), std::string::npos) << s;
  EXPECT_NE(s.message().find("restarted"), std::string::npos) << s;
}

TEST_F(WorkerTest, RecvTensorOfADeviceOfAnotherTaskIsInvalid) {
  RecvTensorRequest req;
  req.set_step_id(1);
  req.set_rendezvous_key(Key(t1_.dev(), t1_.inc(), t0_.dev(), "edge_x"));
  RecvTensorResult result;
  Waiter w;
  t0_.worker->RecvTensorAsync(nullptr, &req, &result, w.cb());
  EXPECT_EQ(w.Wait().code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(WorkerTest, CleanupGraphEndsAPendingRecvTensor) {
  RecvTensorRequest req;
  req.set_step_id(9);
  req.set_rendezvous_key(Key(t0_.dev(), t0_.inc(), t1_.dev(), "edge_x"));
  RecvTensorResult result;
  Waiter w;
  t0_.worker->RecvTensorAsync(nullptr, &req, &result, w.cb());
  CleanupGraphRequest c;
  c.set_step_id(9);
  CleanupGraphResponse cr;
  Waiter wc;
  t0_.worker->CleanupGraphAsync(nullptr, &c, &cr, wc.cb());
  ASSERT_TRUE(wc.Wait().ok());
  EXPECT_EQ(w.Wait().code(), absl::StatusCode::kCancelled);
  // A RecvTensor arriving after the cleanup fails at once instead of waiting forever.
  RecvTensorResult late;
  Waiter wl;
  t0_.worker->RecvTensorAsync(nullptr, &req, &late, wl.cb());
  EXPECT_EQ(wl.Wait().code(), absl::StatusCode::kAborted);
}

TEST_F(WorkerTest, CancellingTheCallEndsAWaitingStep) {
  RegisterPair();
  RunGraphRequest r1;
  r1.set_graph_handle(h1_);
  r1.set_step_id(21);
  r1.add_recv_key(Key(t1_.dev(), t1_.inc(), t1_.dev(), "y"));
  RunGraphResponse p1;
  CallOptions opts;
  Waiter w;
  t1_.worker->RunGraphAsync(&opts, &r1, &p1, w.cb());
  EXPECT_FALSE(w.Done(absl::Milliseconds(50)));  // task 0 never runs: the step waits
  const absl::Time start = absl::Now();
  opts.StartCancel();
  EXPECT_EQ(w.Wait().code(), absl::StatusCode::kCancelled);
  EXPECT_LT(absl::Now() - start, absl::Seconds(2));
}

TEST_F(WorkerTest, AbortAllEndsStepsWithCancelled) {
  RegisterPair();
  RunGraphRequest r1;
  r1.set_graph_handle(h1_);
  r1.set_step_id(22);
  r1.add_recv_key(Key(t1_.dev(), t1_.inc(), t1_.dev(), "y"));
  RunGraphResponse p1;
  Waiter w;
  t1_.worker->RunGraphAsync(nullptr, &r1, &p1, w.cb());
  EXPECT_FALSE(w.Done(absl::Milliseconds(50)));
  t1_.worker->AbortAll(errors::Cancelled("stopping"));
  EXPECT_EQ(w.Wait().code(), absl::StatusCode::kCancelled);
}

TEST_F(WorkerTest, AStoppingWorkerRefusesNewStepsUntilResumed) {
  RegisterPair();
  auto run = [&](int64_t step) {
    RunGraphRequest r;
    r.set_graph_handle(h0_);
    r.set_step_id(step);
    NamedTensorProto* f = r.add_send();
    f->set_name(Key(t0_.dev(), t0_.inc(), t0_.dev(), "f"));
    Tensor::Vector<float>({10, 20}).AsProtoTensorContent(f->mutable_tensor());
    RunGraphResponse p;
    Waiter w;
    t0_.worker->RunGraphAsync(nullptr, &r, &p, w.cb());
    return w.Wait();
  };
  auto recv = [&](int64_t step) {
    RecvTensorRequest req;
    req.set_step_id(step);
    req.set_rendezvous_key(Key(t0_.dev(), t0_.inc(), t1_.dev(), "edge_x"));
    RecvTensorResult result;
    Waiter w;
    t0_.worker->RecvTensorAsync(nullptr, &req, &result, w.cb());
    absl::Status s = w.Wait();
    if (s.ok()) EXPECT_EQ(result.tensor.data<float>()[1], 22.0f);  // 2 + 20
    return s;
  };
  ASSERT_TRUE(run(31).ok());
  t0_.worker->BeginStop(errors::Cancelled("The server was stopped"));
  absl::Status s = run(32);
  EXPECT_EQ(s.code(), absl::StatusCode::kCancelled) << s;
  EXPECT_NE(s.message().find("stopped"), std::string::npos) << s;
  EXPECT_EQ(recv(31).code(), absl::StatusCode::kCancelled);
  t0_.worker->Resume();
  ASSERT_TRUE(run(33).ok());
  EXPECT_TRUE(recv(33).ok());
}

TEST_F(WorkerTest, RegisterGraphRejectsADeviceOfAnotherTask) {
  GraphDef g;
  AddConst(&g, "c", t1_.dev(), Tensor::Scalar<float>(1));
  RegisterGraphRequest req;
  *req.mutable_graph_def() = g;
  RegisterGraphResponse resp;
  Waiter w;
  t0_.worker->RegisterGraphAsync(nullptr, &req, &resp, w.cb());
  EXPECT_EQ(w.Wait().code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(WorkerTest, DeleteWorkerSessionDropsItsGraphs) {
  CreateWorkerSessionRequest creq;
  creq.set_session_handle("s1");
  CreateWorkerSessionResponse cresp;
  Waiter wc;
  t0_.worker->CreateWorkerSessionAsync(nullptr, &creq, &cresp, wc.cb());
  ASSERT_TRUE(wc.Wait().ok());
  RegisterGraphRequest req;
  req.set_session_handle("s1");
  req.set_create_worker_session_called(true);
  AddConst(req.mutable_graph_def(), "c", t0_.dev(), Tensor::Scalar<float>(1));
  RegisterGraphResponse resp;
  Waiter wr;
  t0_.worker->RegisterGraphAsync(nullptr, &req, &resp, wr.cb());
  ASSERT_TRUE(wr.Wait().ok());
  DeleteWorkerSessionRequest dreq;
  dreq.set_session_handle("s1");
  DeleteWorkerSessionResponse dresp;
  Waiter wd;
  t0_.worker->DeleteWorkerSessionAsync(nullptr, &dreq, &dresp, wd.cb());
  ASSERT_TRUE(wd.Wait().ok());
  RunGraphRequest run;
  run.set_graph_handle(resp.graph_handle());
  RunGraphResponse run_resp;
  Waiter wg;
  t0_.worker->RunGraphAsync(nullptr, &run, &run_resp, wg.cb());
  EXPECT_EQ(wg.Wait().code(), absl::StatusCode::kAborted);
  // Registering under the deleted session is refused too.
  Waiter wr2;
  t0_.worker->RegisterGraphAsync(nullptr, &req, &resp, wr2.cb());
  EXPECT_EQ(wr2.Wait().code(), absl::StatusCode::kAborted);
}

TEST(WorkerTwoDevices, PartitionsAgainPerLocalDevice) {
  InProcessWorkerCache cache;
  Task t(0, 2, &cache);
  cache.workers_["/job:worker/replica:0/task:0"] = t.worker.get();
  // a on CPU:0, b = a * a on CPU:1, c = b + a on CPU:0, fetched from CPU:0.
  GraphDef g;
  AddConst(&g, "a", t.dev(0), Tensor::Vector<float>({2, 3}));
  AddNodeAttr("T", DT_FLOAT, AddNode(&g, "b", "Mul", t.dev(1), {"a", "a"}));
  AddNodeAttr("T", DT_FLOAT, AddNode(&g, "c", "Add", t.dev(0), {"b", "a"}));
  // A name the partitioner would also pick: the worker's own edges must not clash with it.
  AddNodeAttr("T", DT_FLOAT, AddNode(&g, "edge_0_a/_send", "Identity", t.dev(0), {"c"}));
  AddSend(&g, "out", "edge_0_a/_send", "out", t.dev(0), t.inc(0), t.dev(0), true);
  RegisterGraphRequest req;
  *req.mutable_graph_def() = g;
  RegisterGraphResponse resp;
  Waiter w;
  t.worker->RegisterGraphAsync(nullptr, &req, &resp, w.cb());
  absl::Status s = w.Wait();
  ASSERT_TRUE(s.ok()) << s;
  RunGraphRequest run;
  run.set_graph_handle(resp.graph_handle());
  run.set_step_id(1);
  run.add_recv_key(Key(t.dev(0), t.inc(0), t.dev(0), "out"));
  RunGraphResponse run_resp;
  Waiter wr;
  t.worker->RunGraphAsync(nullptr, &run, &run_resp, wr.cb());
  s = wr.Wait();
  ASSERT_TRUE(s.ok()) << s;
  ASSERT_EQ(run_resp.recv_size(), 1);
  auto out = Tensor::FromProto(run_resp.recv(0).tensor());
  ASSERT_TRUE(out.ok());
  EXPECT_FLOAT_EQ(out->data<float>()[0], 6);
  EXPECT_FLOAT_EQ(out->data<float>()[1], 12);
}

}  // namespace
}  // namespace sg
