// The master and the client session against an in-process cluster (ps:1, worker:2, each a
// GrpcServer on a free loopback port): a session whose target is one of these servers goes
// through LocalMaster, and the master reaches the other tasks over gRPC.
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <thread>

#include <gtest/gtest.h>

#include "absl/time/clock.h"
#include "core/framework/cancellation.h"
#include "core/framework/op.h"
#include "core/framework/op_kernel.h"
#include "core/framework/shape_inference.h"
#include "core/runtime/session.h"
#include "distributed/master/master.h"
#include "distributed/master/master_session.h"
#include "distributed/rpc/grpc_remote_master.h"
#include "distributed/rpc/grpc_session.h"
#include "distributed/rpc/grpc_util.h"
#include "distributed/rpc/grpc_server.h"
#include "tests/common/control_flow_graphs.h"
#include "tests/distributed/test_graphs.h"

namespace sg {
namespace {

using test::Binary;
using test::Const;
using test::Node;
using test::Placeholder;

class InProcessCluster : public ::testing::Test {
 protected:
  void SetUp() override {
    spec_ = test::LoopbackSpec(1, 2);
    for (auto [job, task] : {std::pair<const char*, int>{"ps", 0}, {"worker", 0}, {"worker", 1}}) {
      auto def = ServerDefFromClusterSpec(spec_, job, task);
      ASSERT_TRUE(def.ok()) << def.status();
      std::unique_ptr<ServerInterface> server;
      absl::Status s = NewGrpcServer(*def, TlsOptions(), &server);
      ASSERT_TRUE(s.ok()) << s;
      s = server->Start();
      ASSERT_TRUE(s.ok()) << s;
      servers_.push_back(std::move(server));
    }
  }
  void TearDown() override {
    for (auto& s : servers_) s->Stop().IgnoreError();
  }

  // worker:0's target ("grpc://127.0.0.1:P").
  const std::string& target() const { return servers_[1]->target(); }

  // Unless `config` says otherwise, the graph runs as written (opt_level L0): these graphs
  // move constants between tasks, which the graph optimiser would fold on the master instead.
  std::unique_ptr<Session> NewClusterSession(const GraphDef& g, ConfigProto config = {}) {
    SessionOptions opts;
    opts.target = target();
    if (!config.has_graph_options()) {
      config.mutable_graph_options()->mutable_optimizer_options()->set_opt_level(
          OptimizerOptions::L0);
    }
    opts.config = config;
    std::unique_ptr<Session> s;
    absl::Status st = NewSession(opts, &s);
    EXPECT_TRUE(st.ok()) << st;
    if (!st.ok()) return nullptr;
    st = s->Create(g);
    EXPECT_TRUE(st.ok()) << st;
    return s;
  }

  std::string spec_;
  std::vector<std::unique_ptr<ServerInterface>> servers_;
};

TEST_F(InProcessCluster, TheServersTargetIsFoundAsALocalMaster) {
  EXPECT_NE(LookupLocalMaster(target()), nullptr);
  EXPECT_EQ(LookupLocalMaster("grpc://127.0.0.1:1"), nullptr);
}

TEST_F(InProcessCluster, RunsAGraphSpreadOverThreeTasks) {
  auto s = NewClusterSession(test::CrossTaskGraph());
  ASSERT_NE(s, nullptr);
  std::vector<Tensor> out;
  absl::Status st = s->Run({{"x", Tensor::Scalar<float>(0.5f)}}, {"c:0", "d:0", "c:0"}, {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].data<float>()[0], 12.0f);
  EXPECT_EQ(out[1].data<float>()[0], 12.5f);
  EXPECT_EQ(out[2].data<float>()[0], 12.0f);
  // The signature is cached; a second step with another feed reuses it.
  st = s->Run({{"x", Tensor::Scalar<float>(2.0f)}}, {"d:0"}, {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(out[0].data<float>()[0], 14.0f);
  // Feeding an intermediate tensor replaces it.
  st = s->Run({{"c:0", Tensor::Scalar<float>(1.0f)}, {"x", Tensor::Scalar<float>(1.0f)}},
              {"d:0"}, {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(out[0].data<float>()[0], 2.0f);
  EXPECT_TRUE(s->Close().ok());
}

TEST_F(InProcessCluster, ListsTheDevicesOfEveryTask) {
  auto s = NewClusterSession(test::CrossTaskGraph());
  ASSERT_NE(s, nullptr);
  std::vector<DeviceAttributes> devices;
  ASSERT_TRUE(s->ListDevices(&devices).ok());
  std::set<std::string> names;
  for (const auto& d : devices) names.insert(d.name());
  EXPECT_TRUE(names.count("/job:ps/replica:0/task:0/device:CPU:0"));
  EXPECT_TRUE(names.count("/job:worker/replica:0/task:0/device:CPU:0"));
  EXPECT_TRUE(names.count("/job:worker/replica:0/task:1/device:CPU:0"));
  // The local device comes first: the master is worker:0's.
  EXPECT_EQ(devices[0].name(), "/job:worker/replica:0/task:0/device:CPU:0");
}

TEST_F(InProcessCluster, BadRequestsGiveClearErrors) {
  auto s = NewClusterSession(test::CrossTaskGraph());
  ASSERT_NE(s, nullptr);
  std::vector<Tensor> out;
  absl::Status st = s->Run({{"x", Tensor::Scalar<int32_t>(1)}}, {"d:0"}, {}, &out);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
  EXPECT_NE(st.message().find("dtype"), std::string::npos) << st;
  st = s->Run({}, {"nope:0"}, {}, &out);
  EXPECT_EQ(st.code(), absl::StatusCode::kNotFound) << st;
  st = s->Run({{"x", Tensor::Scalar<float>(1)}, {"x", Tensor::Scalar<float>(1)}}, {"d:0"}, {},
              &out);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
  // A node that asks for a task the cluster does not have.
  GraphDef bad;
  *bad.add_node() = Const("k", Tensor::Scalar<float>(1), "/job:worker/task:7");
  auto s2 = NewClusterSession(bad);
  ASSERT_NE(s2, nullptr);
  st = s2->Run({}, {"k:0"}, {}, &out);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
  // ... unless soft placement lets it fall back.
  ConfigProto soft;
  soft.set_allow_soft_placement(true);
  auto s3 = NewClusterSession(bad, soft);
  ASSERT_NE(s3, nullptr);
  st = s3->Run({}, {"k:0"}, {}, &out);
  EXPECT_TRUE(st.ok()) << st;
}

TEST_F(InProcessCluster, ExtendAddsNodesAndChecksTheVersion) {
  auto s = NewClusterSession(test::CrossTaskGraph());
  ASSERT_NE(s, nullptr);
  GraphDef more;
  *more.add_node() = Binary("e", "Mul", "c", "c", "/job:ps");
  ASSERT_TRUE(s->Extend(more).ok());
  std::vector<Tensor> out;
  absl::Status st = s->Run({}, {"e:0"}, {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(out[0].data<float>()[0], 144.0f);

  // At the master: a stale version is ABORTED.
  auto master = LookupLocalMaster(target());
  CallOptions opts;
  CreateSessionRequest creq;
  *creq.mutable_graph_def() = test::CrossTaskGraph();
  CreateSessionResponse cresp;
  ASSERT_TRUE(master->CreateSession(&opts, creq, &cresp).ok());
  ExtendSessionRequest ereq;
  ereq.set_session_handle(cresp.session_handle());
  ereq.set_current_graph_version(cresp.graph_version() + 5);
  *ereq.mutable_graph_def() = more;
  ExtendSessionResponse eresp;
  EXPECT_EQ(master->ExtendSession(&opts, ereq, &eresp).code(), absl::StatusCode::kAborted);
  ereq.set_current_graph_version(cresp.graph_version());
  EXPECT_TRUE(master->ExtendSession(&opts, ereq, &eresp).ok());
  EXPECT_EQ(eresp.new_graph_version(), cresp.graph_version() + 1);
  CloseSessionRequest close;
  close.set_session_handle(cresp.session_handle());
  CloseSessionResponse close_resp;
  EXPECT_TRUE(master->CloseSession(&opts, close, &close_resp).ok());
  // The handle is gone.
  EXPECT_EQ(master->CloseSession(&opts, close, &close_resp).code(), absl::StatusCode::kAborted);
  RunStepRequest run;
  run.set_session_handle(cresp.session_handle());
  RunStepResponse run_resp;
  EXPECT_EQ(master->RunStep(&opts, run, &run_resp).code(), absl::StatusCode::kAborted);
}

TEST_F(InProcessCluster, VariablesOnThePsOutliveSessionsUntilReset) {
  auto s1 = NewClusterSession(test::CounterGraph());
  ASSERT_NE(s1, nullptr);
  std::vector<Tensor> out;
  ASSERT_TRUE(s1->Run({}, {}, {"init"}, &out).ok());
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(s1->Run({}, {}, {"inc"}, &out).ok());
  ASSERT_TRUE(s1->Close().ok());

  auto s2 = NewClusterSession(test::CounterGraph());
  ASSERT_NE(s2, nullptr);
  absl::Status st = s2->Run({}, {"read:0"}, {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(out[0].data<float>()[0], 5.0f);

  SessionOptions opts;
  opts.target = target();
  ASSERT_TRUE(Reset(opts, {}).ok());
  auto s3 = NewClusterSession(test::CounterGraph());
  ASSERT_NE(s3, nullptr);
  st = s3->Run({}, {"read:0"}, {}, &out);
  EXPECT_EQ(st.code(), absl::StatusCode::kFailedPrecondition) << st;
}

TEST_F(InProcessCluster, ConcurrentStepsOfTwoSessionsAddUp) {
  auto init = NewClusterSession(test::CounterGraph());
  ASSERT_NE(init, nullptr);
  std::vector<Tensor> out;
  ASSERT_TRUE(init->Run({}, {}, {"init"}, &out).ok());
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 2; ++t) {
    threads.emplace_back([&] {
      auto s = NewClusterSession(test::CounterGraph());
      std::vector<Tensor> o;
      for (int i = 0; i < 100; ++i) {
        if (!s->Run({}, {}, {"inc"}, &o).ok()) failures++;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  ASSERT_TRUE(init->Run({}, {"read:0"}, {}, &out).ok());
  EXPECT_EQ(out[0].data<float>()[0], 200.0f);
}

// Tensors the ps sends to the master's own task (worker:0): a small one rides in the ps's
// RunGraph reply, one over 64 KiB goes by RecvTensor; both arrive, step after step.
TEST_F(InProcessCluster, TensorsFromThePsReachTheMastersTaskSmallOrLarge) {
  GraphDef g;
  *g.add_node() = Const("small", Tensor::Vector<float>({1, 2}), "/job:ps");
  Tensor big(DT_FLOAT, TensorShape({20000}));  // 80000 bytes
  for (int i = 0; i < 20000; ++i) big.data<float>()[i] = static_cast<float>(i);
  *g.add_node() = Const("big", big, "/job:ps");
  *g.add_node() = Placeholder("x", "/job:worker/task:0");
  *g.add_node() = Binary("s", "AddV2", "small", "x", "/job:worker/task:0");
  *g.add_node() = Binary("b", "AddV2", "big", "x", "/job:worker/task:0");
  auto session = NewClusterSession(g);
  ASSERT_NE(session, nullptr);
  std::vector<Tensor> out;
  for (float x : {0.5f, -3.0f, 10.0f}) {
    absl::Status st = session->Run({{"x", Tensor::Scalar<float>(x)}}, {"s:0", "b:0"}, {}, &out);
    ASSERT_TRUE(st.ok()) << st;
    ASSERT_EQ(out[0].NumElements(), 2);
    EXPECT_EQ(out[0].data<float>()[0], 1 + x);
    EXPECT_EQ(out[0].data<float>()[1], 2 + x);
    ASSERT_EQ(out[1].NumElements(), 20000);
    EXPECT_EQ(out[1].data<float>()[0], x);
    EXPECT_EQ(out[1].data<float>()[19999], 19999 + x);
  }
  // Steps of only the small tensor, then only the large one (signatures of their own).
  ASSERT_TRUE(session->Run({{"x", Tensor::Scalar<float>(1)}}, {"s:0"}, {}, &out).ok());
  EXPECT_EQ(out[0].data<float>()[1], 3.0f);
  ASSERT_TRUE(session->Run({{"x", Tensor::Scalar<float>(1)}}, {"b:0"}, {}, &out).ok());
  EXPECT_EQ(out[0].data<float>()[7], 8.0f);
  EXPECT_TRUE(session->Close().ok());
}

// The ps's partition fails (a variable read before it is set): the master's task, waiting for
// the value the ps's reply would have carried, ends with the ps's error instead of waiting out
// the timeout; once the variable is set the same step works.
TEST_F(InProcessCluster, AFailingPsFailsTheStepThatWaitsForItsReply) {
  GraphDef g;
  *g.add_node() = Node("v", "VariableV2", {}, "/job:ps/task:0",
                       {{"dtype", test::TypeAttr(DT_FLOAT)}, {"shape", test::ShapeAttr({})}});
  *g.add_node() = Node("read", "Identity", {"v"}, "", {{"T", test::TypeAttr(DT_FLOAT)}});
  *g.add_node() = Const("seven", Tensor::Scalar<float>(7), "/job:ps");
  *g.add_node() = Node("init", "Assign", {"v", "seven"}, "", {{"T", test::TypeAttr(DT_FLOAT)}});
  *g.add_node() = Placeholder("x", "/job:worker/task:0");
  *g.add_node() = Binary("d", "AddV2", "read", "x", "/job:worker/task:0");
  ConfigProto config;
  config.set_operation_timeout_in_ms(20000);
  auto session = NewClusterSession(g, config);
  ASSERT_NE(session, nullptr);
  std::vector<Tensor> out;
  const absl::Time start = absl::Now();
  absl::Status st = session->Run({{"x", Tensor::Scalar<float>(1)}}, {"d:0"}, {}, &out);
  EXPECT_EQ(st.code(), absl::StatusCode::kFailedPrecondition) << st;
  EXPECT_LT(absl::Now() - start, absl::Seconds(10));
  ASSERT_TRUE(session->Run({}, {}, {"init"}, &out).ok());
  st = session->Run({{"x", Tensor::Scalar<float>(1)}}, {"d:0"}, {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(out[0].data<float>()[0], 8.0f);
}

// A fetch is sent from the task that makes it, a feed goes to the task that uses it (as in
// TensorFlow): a graph wholly on the ps, fed and fetched, gives the same answers.
TEST_F(InProcessCluster, FeedsAndFetchesOfAGraphWhollyOnThePs) {
  GraphDef g;
  *g.add_node() = Const("a", Tensor::Scalar<float>(3), "/job:ps");
  *g.add_node() = Placeholder("x", "/job:ps");
  *g.add_node() = Binary("y", "Mul", "a", "x", "/job:ps");
  auto session = NewClusterSession(g);
  ASSERT_NE(session, nullptr);
  std::vector<Tensor> out;
  absl::Status st =
      session->Run({{"x", Tensor::Scalar<float>(5)}}, {"y:0", "a:0", "x:0"}, {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(out[0].data<float>()[0], 15.0f);
  EXPECT_EQ(out[1].data<float>()[0], 3.0f);
  EXPECT_EQ(out[2].data<float>()[0], 5.0f);
  EXPECT_TRUE(session->Close().ok());
}

// The client's session reaches worker 0's master in process: a tensor made on worker 0 comes
// back by reference (the Const's own buffer, run after run), not copied through the protos; one
// made on the ps still comes through its RunGraph reply.
TEST_F(InProcessCluster, FetchesFromTheMastersOwnTaskAreHandedOverWithoutACopy) {
  Tensor big(DT_FLOAT, TensorShape({512, 512}));
  for (int64_t i = 0; i < big.NumElements(); ++i) big.data<float>()[i] = static_cast<float>(i);
  GraphDef g;
  *g.add_node() = Const("big", big, "/job:worker/task:0");
  *g.add_node() = Const("a", Tensor::Scalar<float>(3), "/job:ps");
  *g.add_node() = Placeholder("x", "/job:ps");
  *g.add_node() = Binary("y", "Mul", "a", "x", "/job:ps");
  auto session = NewClusterSession(g);
  ASSERT_NE(session, nullptr);
  std::vector<Tensor> first, second;
  absl::Status st = session->Run({{"x", Tensor::Scalar<float>(5)}}, {"big:0", "y:0"}, {}, &first);
  ASSERT_TRUE(st.ok()) << st;
  st = session->Run({{"x", Tensor::Scalar<float>(2)}}, {"y:0", "big:0"}, {}, &second);
  ASSERT_TRUE(st.ok()) << st;
  ASSERT_EQ(first[0].NumElements(), big.NumElements());
  for (int64_t i = 0; i < big.NumElements(); ++i) {
    ASSERT_EQ(first[0].data<float>()[i], static_cast<float>(i)) << i;
  }
  EXPECT_EQ(first[1].data<float>()[0], 15.0f);
  EXPECT_EQ(second[0].data<float>()[0], 6.0f);
  EXPECT_EQ(second[1].data<float>(), first[0].data<float>());
  EXPECT_TRUE(session->Close().ok());
}

TEST_F(InProcessCluster, PartialRunsFeedAndFetchInPieces) {
  auto s = NewClusterSession(test::CrossTaskGraph());
  ASSERT_NE(s, nullptr);
  std::string handle;
  absl::Status st = s->PRunSetup({"x:0"}, {"c:0", "d:0"}, {}, &handle);
  ASSERT_TRUE(st.ok()) << st;
  std::vector<Tensor> out;
  st = s->PRun(handle, {}, {"c:0"}, &out);
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(out[0].data<float>()[0], 12.0f);
  st = s->PRun(handle, {{"x:0", Tensor::Scalar<float>(1)}}, {"d:0"}, &out);
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(out[0].data<float>()[0], 13.0f);
  // Finished: the handle is gone.
  st = s->PRun(handle, {}, {"d:0"}, &out);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
}

// A kernel that never finishes on its own: it ends (CANCELLED) when its step is cancelled, and
// counts that in g_steps_cancelled, which a test polls to see a step end on a worker.
std::atomic<int> g_waits_started{0};
std::atomic<int> g_steps_cancelled{0};
REGISTER_OP("SgTestWaitForCancel").Input("x: float").Output("y: float")
    .SetShapeFn(shape_fns::Unchanged);
class SgTestWaitForCancelOp : public AsyncOpKernel {
 public:
  using AsyncOpKernel::AsyncOpKernel;
  void ComputeAsync(OpKernelContext* ctx, DoneCallback done) override {
    ++g_waits_started;
    CancellationManager* cm = ctx->cancellation_manager();
    auto end = [ctx, done] {
      ++g_steps_cancelled;
      ctx->CtxFailure(errors::Cancelled("SgTestWaitForCancel: the step was cancelled"));
      done();
    };
    if (cm == nullptr || !cm->RegisterCallback(cm->NewToken(), end)) end();
  }
};
REGISTER_KERNEL_BUILDER(Name("SgTestWaitForCancel").Device(DEVICE_CPU), SgTestWaitForCancelOp);

// Waits (polling, up to `limit`) until pred() holds; false if it never did.
template <typename Pred>
bool Eventually(Pred pred, absl::Duration limit = absl::Seconds(10)) {
  const absl::Time end = absl::Now() + limit;
  while (!pred()) {
    if (absl::Now() > end) return false;
    absl::SleepFor(absl::Milliseconds(5));
  }
  return true;
}

// CrossTaskGraph plus w on worker 1, which waits until its step is cancelled.
GraphDef CrossTaskGraphWithWait() {
  GraphDef g = test::CrossTaskGraph();
  *g.add_node() = Node("w", "SgTestWaitForCancel", {"b"}, "/job:worker/task:1");
  return g;
}

// Starts a partial run of CrossTaskGraphWithWait whose w is waiting on worker 1; returns its
// handle.
std::string StartPartialRunWithAWaitingWorker(Session* s) {
  std::string handle;
  absl::Status st = s->PRunSetup({"x:0"}, {"c:0", "d:0", "w:0"}, {}, &handle);
  EXPECT_TRUE(st.ok()) << st;
  const int started = g_waits_started.load();
  std::vector<Tensor> out;
  st = s->PRun(handle, {}, {"c:0"}, &out);  // the first piece starts the step on every task
  EXPECT_TRUE(st.ok()) << st;
  EXPECT_TRUE(Eventually([&] { return g_waits_started.load() > started; }));
  return handle;
}

TEST_F(InProcessCluster, ReleasingAPartialRunEndsItOnTheMasterAndTheWorkers) {
  auto s = NewClusterSession(CrossTaskGraphWithWait());
  ASSERT_NE(s, nullptr);
  const std::string handle = StartPartialRunWithAWaitingWorker(s.get());
  const int cancelled = g_steps_cancelled.load();
  s->ReleasePRun(handle);
  // The worker's step ends (its waiting kernel is cancelled) without waiting for Close ...
  EXPECT_TRUE(Eventually([&] { return g_steps_cancelled.load() > cancelled; }))
      << "the partial run's step still runs on worker 1";
  // ... and the master forgets the handle.
  std::vector<Tensor> out;
  absl::Status st = s->PRun(handle, {{"x:0", Tensor::Scalar<float>(1)}}, {"d:0"}, &out);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
  // Releasing again, or a handle that never was, does nothing; the session lives on.
  s->ReleasePRun(handle);
  s->ReleasePRun("no such handle");
  st = s->Run({{"x", Tensor::Scalar<float>(1)}}, {"d:0"}, {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(out[0].data<float>()[0], 13.0f);
  EXPECT_TRUE(s->Close().ok());
}

TEST_F(InProcessCluster, ReleasingAPartialRunWorksOverGrpc) {
  SessionOptions opts;
  opts.target = target();
  opts.config.set_operation_timeout_in_ms(10000);
  auto s = NewGrpcSession(
      opts, NewGrpcRemoteMaster(::grpc::CreateCustomChannel(
                target().substr(strlen("grpc://")), ::grpc::InsecureChannelCredentials(),
                DefaultChannelArguments())));
  ASSERT_TRUE(s->Create(CrossTaskGraphWithWait()).ok());
  const std::string handle = StartPartialRunWithAWaitingWorker(s.get());
  const int cancelled = g_steps_cancelled.load();
  s->ReleasePRun(handle);
  EXPECT_TRUE(Eventually([&] { return g_steps_cancelled.load() > cancelled; }))
      << "the partial run's step still runs on worker 1";
  std::vector<Tensor> out;
  absl::Status st = s->PRun(handle, {{"x:0", Tensor::Scalar<float>(1)}}, {"d:0"}, &out);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
  EXPECT_TRUE(s->Close().ok());
}

// A piece of the partial run that waits when the run is released ends (CANCELLED), long before
// the session's timeout.
TEST_F(InProcessCluster, ReleasingAPartialRunEndsItsPieceInFlight) {
  ConfigProto config;
  config.set_operation_timeout_in_ms(30000);
  auto s = NewClusterSession(CrossTaskGraphWithWait(), config);
  ASSERT_NE(s, nullptr);
  const std::string handle = StartPartialRunWithAWaitingWorker(s.get());
  absl::Status piece;
  std::thread waiting([&] {
    std::vector<Tensor> out;
    piece = s->PRun(handle, {}, {"w:0"}, &out);  // w never finishes by itself
  });
  // Most likely the piece is in flight by now (CANCELLED); if not, it finds the handle released
  // (INVALID_ARGUMENT). Either way it must not wait for the timeout.
  absl::SleepFor(absl::Milliseconds(100));
  const absl::Time start = absl::Now();
  s->ReleasePRun(handle);
  waiting.join();
  EXPECT_LT(absl::Now() - start, absl::Seconds(10));
  EXPECT_TRUE(piece.code() == absl::StatusCode::kCancelled ||
              piece.code() == absl::StatusCode::kInvalidArgument)
      << piece;
  EXPECT_TRUE(s->Close().ok());
}

// A master that predates ReleasePartialRun answers UNIMPLEMENTED: the client's ReleasePRun
// returns and the partial run stays until Close, as it did before.
class MasterWithoutRelease : public MasterInterface {
 public:
  explicit MasterWithoutRelease(std::unique_ptr<MasterInterface> m) : m_(std::move(m)) {}
  absl::Status CreateSession(CallOptions* o, const CreateSessionRequest& rq,
                             CreateSessionResponse* rs) override {
    return m_->CreateSession(o, rq, rs);
  }
  absl::Status ExtendSession(CallOptions* o, const ExtendSessionRequest& rq,
                             ExtendSessionResponse* rs) override {
    return m_->ExtendSession(o, rq, rs);
  }
  absl::Status PartialRunSetup(CallOptions* o, const PartialRunSetupRequest& rq,
                               PartialRunSetupResponse* rs) override {
    return m_->PartialRunSetup(o, rq, rs);
  }
  absl::Status RunStep(CallOptions* o, const RunStepRequest& rq, RunStepResponse* rs) override {
    return m_->RunStep(o, rq, rs);
  }
  absl::Status ReleasePartialRun(CallOptions* o, const ReleasePartialRunRequest& rq,
                                 ReleasePartialRunResponse* rs) override {
    ++calls;
    return errors::Unimplemented("unknown method ReleasePartialRun");
  }
  absl::Status CloseSession(CallOptions* o, const CloseSessionRequest& rq,
                            CloseSessionResponse* rs) override {
    return m_->CloseSession(o, rq, rs);
  }
  absl::Status ListDevices(CallOptions* o, const ListDevicesRequest& rq,
                           ListDevicesResponse* rs) override {
    return m_->ListDevices(o, rq, rs);
  }
  absl::Status Reset(CallOptions* o, const ResetRequest& rq, ResetResponse* rs) override {
    return m_->Reset(o, rq, rs);
  }
  std::atomic<int> calls{0};

 private:
  std::unique_ptr<MasterInterface> m_;
};

TEST_F(InProcessCluster, ReleasePRunAgainstAnOlderMasterLeavesThePartialRunUntilClose) {
  SessionOptions opts;
  opts.target = target();
  auto* master = new MasterWithoutRelease(LookupLocalMaster(target()));
  auto s = NewGrpcSession(opts, std::unique_ptr<MasterInterface>(master));
  ASSERT_TRUE(s->Create(test::CrossTaskGraph()).ok());
  std::string handle;
  ASSERT_TRUE(s->PRunSetup({"x:0"}, {"c:0", "d:0"}, {}, &handle).ok());
  s->ReleasePRun(handle);
  EXPECT_EQ(master->calls.load(), 1);
  std::vector<Tensor> out;
  absl::Status st = s->PRun(handle, {{"x:0", Tensor::Scalar<float>(1)}}, {"d:0"}, &out);
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(out[0].data<float>()[0], 13.0f);
  EXPECT_TRUE(s->Close().ok());
}

// RunMetadata over the cluster: each task's step statistics and graphs, in the client's
// RunMetadata, through the in-process master and over gRPC.
TEST_F(InProcessCluster, RunMetadataGathersEveryTasksTraceAndGraphs) {
  // The graph as written, on three tasks: the optimiser would fold c = a * b into a Const.
  SessionOptions opts;
  opts.target = target();
  opts.config.mutable_graph_options()->mutable_optimizer_options()->set_opt_level(
      OptimizerOptions::L0);
  auto local = NewClusterSession(test::CrossTaskGraph(), opts.config);
  ASSERT_NE(local, nullptr);
  auto remote = NewGrpcSession(
      opts, NewGrpcRemoteMaster(::grpc::CreateCustomChannel(
                target().substr(strlen("grpc://")), ::grpc::InsecureChannelCredentials(),
                DefaultChannelArguments())));
  ASSERT_TRUE(remote->Create(test::CrossTaskGraph()).ok());
  for (Session* s : {local.get(), remote.get()}) {
    std::vector<Tensor> out;
    RunMetadata metadata;
    absl::Status st =
        s->Run(RunOptions(), {{"x", Tensor::Scalar<float>(0.5f)}}, {"d:0"}, {}, &out, &metadata);
    ASSERT_TRUE(st.ok()) << st;
    EXPECT_EQ(metadata.ByteSizeLong(), 0u) << "nothing was asked for";
    RunOptions options;
    options.set_trace_level(RunOptions::FULL_TRACE);
    options.set_output_partition_graphs(true);
    st = s->Run(options, {{"x", Tensor::Scalar<float>(0.5f)}}, {"d:0"}, {}, &out, &metadata);
    ASSERT_TRUE(st.ok()) << st;
    EXPECT_EQ(out[0].data<float>()[0], 12.5f);
    // a on the ps, c on worker 0, d on worker 1: each node where it ran.
    std::map<std::string, std::string> device_of;
    for (const DeviceStepStats& d : metadata.step_stats().dev_stats()) {
      for (const NodeExecStats& n : d.node_stats()) device_of[n.node_name()] = d.device();
    }
    EXPECT_EQ(device_of["a"], "/job:ps/replica:0/task:0/device:CPU:0");
    EXPECT_EQ(device_of["c"], "/job:worker/replica:0/task:0/device:CPU:0");
    EXPECT_EQ(device_of["d"], "/job:worker/replica:0/task:1/device:CPU:0");
    // One graph per device of the step.
    std::set<std::string> with_d;
    EXPECT_EQ(metadata.partition_graphs_size(), 3);
    for (const GraphDef& g : metadata.partition_graphs()) {
      for (const NodeDef& n : g.node()) {
        if (n.name() == "d") with_d.insert(n.device());
      }
    }
    EXPECT_EQ(with_d.size(), 1u);
  }
  remote->Close().IgnoreError();
}

// The session GC (experimental.sg_session_gc_seconds). The tests poll for the outcome with a
// deadline; no sleep decides a verdict.

// Whether the master still holds the session (ListDevices names it; ABORTED once it is gone).
// The call counts as a use of the session, so the tests do not poll with it.
bool MasterHasSession(MasterInterface* master, const std::string& handle) {
  CallOptions opts;
  ListDevicesRequest req;
  req.set_session_handle(handle);
  ListDevicesResponse resp;
  absl::Status s = master->ListDevices(&opts, req, &resp);
  EXPECT_TRUE(s.ok() || s.code() == absl::StatusCode::kAborted) << s;
  return s.ok();
}

TEST_F(InProcessCluster, ASessionUnusedForItsGcTimeoutIsClosedWithItsSteps) {
  auto master = LookupLocalMaster(target());
  ASSERT_NE(master, nullptr);
  CallOptions opts;
  auto create = [&](double gc_seconds) {
    CreateSessionRequest req;
    *req.mutable_graph_def() = CrossTaskGraphWithWait();
    req.mutable_config()->mutable_experimental()->set_sg_session_gc_seconds(gc_seconds);
    req.mutable_config()->set_operation_timeout_in_ms(30000);
    CreateSessionResponse resp;
    absl::Status s = master->CreateSession(&opts, req, &resp);
    EXPECT_TRUE(s.ok()) << s;
    return resp.session_handle();
  };
  // A session busy with a step that waits (on worker 1) until it is cancelled: never idle.
  const std::string busy = create(0.3);
  const int started = g_waits_started.load();
  absl::Status busy_status;
  std::thread busy_step([&] {
    CallOptions o;
    RunStepRequest r;
    r.set_session_handle(busy);
    r.add_fetch("w:0");
    RunStepResponse resp;
    busy_status = master->RunStep(&o, r, &resp);
  });
  ASSERT_TRUE(Eventually([&] { return g_waits_started.load() > started; }));
  // A client that went away in the middle of a partial run, leaving a step on worker 1.
  const std::string gone = create(0.3);
  PartialRunSetupRequest preq;
  preq.set_session_handle(gone);
  preq.add_feed("x:0");
  for (const char* f : {"c:0", "d:0", "w:0"}) preq.add_fetch(f);
  PartialRunSetupResponse presp;
  ASSERT_TRUE(master->PartialRunSetup(&opts, preq, &presp).ok());
  RunStepRequest piece;
  piece.set_session_handle(gone);
  piece.set_partial_run_handle(presp.partial_run_handle());
  piece.add_fetch("c:0");
  RunStepResponse piece_resp;
  ASSERT_TRUE(master->RunStep(&opts, piece, &piece_resp).ok());
  const int cancelled = g_steps_cancelled.load();
  // Without a timeout a session stays.
  const std::string kept = create(0);

  // The GC closes the idle session: its step on worker 1 ends, and the master forgot it.
  EXPECT_TRUE(Eventually([&] { return g_steps_cancelled.load() > cancelled; }))
      << "the idle session's step still runs on worker 1";
  EXPECT_FALSE(MasterHasSession(master.get(), gone));
  // The busy session, idle by its last call's time but with a step in flight, and the session
  // without a timeout are still there.
  EXPECT_TRUE(MasterHasSession(master.get(), busy));
  EXPECT_TRUE(MasterHasSession(master.get(), kept));
  for (const std::string& h : {busy, kept}) {
    CloseSessionRequest close;
    close.set_session_handle(h);
    CloseSessionResponse close_resp;
    EXPECT_TRUE(master->CloseSession(&opts, close, &close_resp).ok());
  }
  busy_step.join();
  EXPECT_EQ(busy_status.code(), absl::StatusCode::kCancelled) << busy_status;
}

TEST(SessionGc, TheServersDefaultSessionConfigSetsTheTimeout) {
  auto def = ServerDefFromClusterSpec(test::LoopbackSpec(0, 1), "worker", 0);
  ASSERT_TRUE(def.ok()) << def.status();
  def->mutable_default_session_config()->mutable_experimental()->set_sg_session_gc_seconds(0.2);
  std::unique_ptr<ServerInterface> server;
  ASSERT_TRUE(NewGrpcServer(*def, TlsOptions(), &server).ok());
  ASSERT_TRUE(server->Start().ok());
  SessionOptions opts;
  opts.target = server->target();
  std::unique_ptr<Session> session;
  ASSERT_TRUE(NewSession(opts, &session).ok());
  GraphDef g;
  *g.add_node() = Const("k", Tensor::Scalar<float>(7));
  ASSERT_TRUE(session->Create(g).ok());
  std::vector<Tensor> out;
  ASSERT_TRUE(session->Run({}, {"k:0"}, {}, &out).ok());
  // Once collected, the session's calls fail ABORTED naming it, as TensorFlow's do.
  absl::Status st;
  EXPECT_TRUE(Eventually([&] {
    st = session->Run({}, {"k:0"}, {}, &out);
    if (st.ok()) absl::SleepFor(absl::Milliseconds(300));  // an idle gap longer than 0.2 s
    return !st.ok();
  }));
  EXPECT_EQ(st.code(), absl::StatusCode::kAborted) << st;
  EXPECT_NE(st.message().find("not found"), std::string::npos) << st;
  session->Close().IgnoreError();
  server->Stop().IgnoreError();
}

TEST_F(InProcessCluster, AStepThatWaitsPastTheTimeoutIsDeadlineExceeded) {
  ConfigProto config;
  config.set_operation_timeout_in_ms(500);
  auto s = NewClusterSession(test::CrossTaskGraph(), config);
  ASSERT_NE(s, nullptr);
  std::string handle;
  ASSERT_TRUE(s->PRunSetup({"x:0"}, {"d:0"}, {}, &handle).ok());
  std::vector<Tensor> out;
  absl::Time start = absl::Now();
  // d needs x, which is never fed.
  absl::Status st = s->PRun(handle, {}, {"d:0"}, &out);
  EXPECT_EQ(st.code(), absl::StatusCode::kDeadlineExceeded) << st;
  EXPECT_LT(absl::Now() - start, absl::Seconds(3));
  // The session still works.
  st = s->Run({{"x", Tensor::Scalar<float>(1)}}, {"d:0"}, {}, &out);
  EXPECT_TRUE(st.ok()) << st;
}

// The step waits on worker 1 (w, until cancelled); Close comes once w has started, so the step is
// in flight whatever the timing.
TEST_F(InProcessCluster, ClosingTheSessionCancelsItsStepsInFlight) {
  auto master = LookupLocalMaster(target());
  ASSERT_NE(master, nullptr);
  CallOptions opts;
  CreateSessionRequest creq;
  *creq.mutable_graph_def() = CrossTaskGraphWithWait();
  CreateSessionResponse cresp;
  ASSERT_TRUE(master->CreateSession(&opts, creq, &cresp).ok());
  const int started = g_waits_started.load();
  absl::Status step_status;
  std::thread step([&] {
    CallOptions o;
    RunStepRequest r;
    r.set_session_handle(cresp.session_handle());
    r.add_fetch("w:0");  // waits until the step is cancelled
    RunStepResponse resp;
    step_status = master->RunStep(&o, r, &resp);
  });
  EXPECT_TRUE(Eventually([&] { return g_waits_started.load() > started; }));
  absl::Time start = absl::Now();
  CloseSessionRequest close;
  close.set_session_handle(cresp.session_handle());
  CloseSessionResponse close_resp;
  EXPECT_TRUE(master->CloseSession(&opts, close, &close_resp).ok());
  step.join();
  EXPECT_EQ(step_status.code(), absl::StatusCode::kCancelled) << step_status;
  EXPECT_LT(absl::Now() - start, absl::Seconds(3));
}

ConfigProto RoundRobin() {
  ConfigProto config;
  config.mutable_experimental()->set_sg_round_robin_placement(true);
  return config;
}

TEST_F(InProcessCluster, RoundRobinPlacementSpreadsNodesAndGivesTheSameAnswers) {
  // A chain of unconstrained nodes: round robin puts neighbours on different tasks.
  GraphDef g;
  *g.add_node() = Placeholder("x0");
  for (int i = 1; i <= 9; ++i) {
    *g.add_node() = Binary("x" + std::to_string(i), "AddV2", "x" + std::to_string(i - 1),
                           "x" + std::to_string(i - 1));
  }
  auto s = NewClusterSession(g, RoundRobin());
  ASSERT_NE(s, nullptr);
  std::vector<Tensor> out;
  absl::Status st = s->Run({{"x0", Tensor::Scalar<float>(1)}}, {"x9:0"}, {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(out[0].data<float>()[0], 512.0f);
}

// The same signatures through a local session (3 CPU devices) and the cluster (3 tasks), both
// built by the shared step builder: a loop and a cond cut across devices give the same values,
// and those computed by hand.
TEST_F(InProcessCluster, LoopsAndCondsCutAcrossDevicesGiveTheSameAnswersLocallyAndOnTheCluster) {
  struct Variant {
    const char* name;
    GraphDef cluster_graph, local_graph;
    bool round_robin;
  };
  const std::vector<Variant> variants = {
      {"round robin", test::LoopThenCond(), test::LoopThenCond(), true},
      {"loop on one device, the rest on another",
       test::LoopThenCond("/job:worker/task:1", "/job:ps/task:0", "/job:worker/task:0"),
       test::LoopThenCond("/device:CPU:1", "/device:CPU:2", "/device:CPU:0"), false},
  };
  for (const Variant& v : variants) {
    SCOPED_TRACE(v.name);
    ConfigProto config;
    config.mutable_experimental()->set_sg_round_robin_placement(v.round_robin);
    auto cluster = NewClusterSession(v.cluster_graph, config);
    ASSERT_NE(cluster, nullptr);
    SessionOptions local_opts;
    local_opts.config = config;
    (*local_opts.config.mutable_device_count())["CPU"] = 3;
    std::unique_ptr<Session> local;
    ASSERT_TRUE(NewSession(local_opts, &local).ok());
    ASSERT_TRUE(local->Create(v.local_graph).ok());
    for (float x : {1.5f, -2.0f}) {
      const std::vector<std::string> fetches = {"out:0", "exit_v:0", "y:0", "exit_i:0"};
      std::vector<Tensor> got_cluster, got_local;
      absl::Status st = cluster->Run({{"x:0", Tensor::Scalar<float>(x)}}, fetches, {},
                                     &got_cluster);
      ASSERT_TRUE(st.ok()) << st;
      st = local->Run({{"x:0", Tensor::Scalar<float>(x)}}, fetches, {}, &got_local);
      ASSERT_TRUE(st.ok()) << st;
      const float y = 33 * x;
      EXPECT_EQ(got_cluster[0].data<float>()[0], x > 0 ? 2 * y : -y);
      EXPECT_EQ(got_cluster[1].data<float>()[0], 32 * x);
      EXPECT_EQ(got_cluster[2].data<float>()[0], y);
      EXPECT_EQ(got_cluster[3].data<int32_t>()[0], 5);
      for (size_t i = 0; i < fetches.size(); ++i) {
        EXPECT_EQ(got_local[i].DebugString(), got_cluster[i].DebugString()) << fetches[i];
      }
    }
  }
}

TEST_F(InProcessCluster, ExtendingTheGraphKeepsTheDevicesOfItsNodes) {
  // Round robin over a graph that grows: the counter must not move (and lose its value).
  GraphDef g = test::CounterGraph();
  g.mutable_node(0)->clear_device();  // let round robin choose the counter's device too
  auto s = NewClusterSession(g, RoundRobin());
  ASSERT_NE(s, nullptr);
  std::vector<Tensor> out;
  absl::Status st = s->Run({}, {}, {"init"}, &out);
  ASSERT_TRUE(st.ok()) << st;
  ASSERT_TRUE(s->Run({}, {}, {"inc"}, &out).ok());
  for (int i = 0; i < 4; ++i) {
    GraphDef more;
    *more.add_node() = Binary("twice" + std::to_string(i), "Mul", "read", "read");
    ASSERT_TRUE(s->Extend(more).ok());
    st = s->Run({}, {"read:0", "twice" + std::to_string(i) + ":0"}, {}, &out);
    ASSERT_TRUE(st.ok()) << st;
    EXPECT_EQ(out[0].data<float>()[0], 1.0f);
    EXPECT_EQ(out[1].data<float>()[0], 1.0f);
  }
}

TEST_F(InProcessCluster, ARetriedRunStepIsNotRunTwice) {
  auto master = LookupLocalMaster(target());
  CallOptions opts;
  CreateSessionRequest creq;
  *creq.mutable_graph_def() = test::CounterGraph();
  CreateSessionResponse cresp;
  ASSERT_TRUE(master->CreateSession(&opts, creq, &cresp).ok());
  RunStepRequest run;
  run.set_session_handle(cresp.session_handle());
  run.add_target("init");
  run.set_request_id(12345);
  RunStepResponse resp;
  EXPECT_TRUE(master->RunStep(&opts, run, &resp).ok());
  absl::Status st = master->RunStep(&opts, run, &resp);
  EXPECT_EQ(st.code(), absl::StatusCode::kAborted) << st;
  run.set_request_id(12346);
  EXPECT_TRUE(master->RunStep(&opts, run, &resp).ok());
}

TEST(GrpcRemoteMaster, RetriesUntilTheMasterComesUp) {
  const std::string spec = test::LoopbackSpec(0, 1);
  auto def = ServerDefFromClusterSpec(spec, "worker", 0);
  ASSERT_TRUE(def.ok());
  std::unique_ptr<ServerInterface> server;
  ASSERT_TRUE(NewGrpcServer(*def, TlsOptions(), &server).ok());
  const std::string address = spec.substr(std::string("worker=").size());
  SessionOptions opts;
  opts.target = "grpc://" + address;
  opts.config.set_operation_timeout_in_ms(5000);
  // Over gRPC even though the server is in this process.
  auto session = NewGrpcSession(
      opts, NewGrpcRemoteMaster(::grpc::CreateCustomChannel(
                address, ::grpc::InsecureChannelCredentials(), DefaultChannelArguments())));
  std::thread later([&] {
    absl::SleepFor(absl::Milliseconds(300));
    EXPECT_TRUE(server->Start().ok());
  });
  const absl::Time start = absl::Now();
  absl::Status st = session->Create(test::CounterGraph());
  later.join();
  EXPECT_TRUE(st.ok()) << st;
  EXPECT_LT(absl::Now() - start, absl::Seconds(4));
  std::vector<Tensor> out;
  GraphDef g;
  *g.add_node() = Const("k", Tensor::Scalar<float>(7));
  auto s2 = NewGrpcSession(
      opts, NewGrpcRemoteMaster(::grpc::CreateCustomChannel(
                address, ::grpc::InsecureChannelCredentials(), DefaultChannelArguments())));
  ASSERT_TRUE(s2->Create(g).ok());
  st = s2->Run({}, {"k:0"}, {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(out[0].data<float>()[0], 7.0f);
  session->Close().IgnoreError();
  s2->Close().IgnoreError();
  server->Stop().IgnoreError();
}

TEST(MasterPlacement, TheDefaultDeviceIsTheFirstWorkerElseTheClient) {
  EXPECT_EQ(DefaultDeviceFor({"/job:ps/replica:0/task:0/device:CPU:0",
                              "/job:worker/replica:0/task:0/device:CPU:0"},
                             "/job:ps/replica:0/task:0/device:CPU:0"),
            "/job:worker/replica:0/task:0/device:CPU:0");
  EXPECT_EQ(DefaultDeviceFor({"/job:ps/replica:0/task:0/device:CPU:0",
                              "/job:chief/replica:0/task:0/device:CPU:0"},
                             "/job:chief/replica:0/task:0/device:CPU:0"),
            "/job:chief/replica:0/task:0/device:CPU:0");
}

TEST(GrpcSessionTarget, MalformedTargetsAreInvalidArgument) {
  for (const char* target : {"grpc://", "grpc://host", "grpc://:80", "grpc://h:port",
                             "grpc://h:99999", "grpc://a/b:1", "grpc://::1:80"}) {
    SessionOptions opts;
    opts.target = target;
    std::unique_ptr<Session> s;
    absl::Status st = NewSession(opts, &s);
    EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << target << ": " << st;
  }
}

TEST(CreateSession, ATaskThatIsDownIsUnavailableNamingTheTaskAndAddress) {
  const std::string spec = test::LoopbackSpec(1, 1);
  auto def = ServerDefFromClusterSpec(spec, "worker", 0);
  ASSERT_TRUE(def.ok());
  std::unique_ptr<ServerInterface> server;
  ASSERT_TRUE(NewGrpcServer(*def, TlsOptions(), &server).ok());
  ASSERT_TRUE(server->Start().ok());
  // The ps task is never started.
  SessionOptions opts;
  opts.target = server->target();
  opts.config.set_operation_timeout_in_ms(2000);
  std::unique_ptr<Session> s;
  ASSERT_TRUE(NewSession(opts, &s).ok());
  absl::Time start = absl::Now();
  absl::Status st = s->Create(test::CrossTaskGraph());
  EXPECT_TRUE(st.code() == absl::StatusCode::kUnavailable ||
              st.code() == absl::StatusCode::kDeadlineExceeded)
      << st;
  EXPECT_NE(st.message().find("/job:ps/replica:0/task:0"), std::string::npos) << st;
  std::string ps_address = spec.substr(3, spec.find(';') - 3);
  EXPECT_NE(st.message().find(ps_address), std::string::npos) << st;
  EXPECT_LT(absl::Now() - start, absl::Seconds(3));
  server->Stop().IgnoreError();
}

}  // namespace
}  // namespace sg
