// GrpcServer in process: start, stop and restart on 127.0.0.1, ports in use, malformed cluster
// specs, and the WorkerService over real gRPC (RunGraph with a RecvTensor between two servers,
// large tensors, Stop ending a waiting step).
#include "distributed/rpc/grpc_server.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/notification.h"
#include "core/framework/attr_value_util.h"
#include "core/framework/rendezvous.h"
#include "distributed/rpc/grpc_remote_master.h"
#include "distributed/rpc/grpc_session.h"
#include "distributed/rpc/grpc_util.h"
#include "distributed/rpc/grpc_worker_cache.h"

namespace sg {
namespace {

std::unique_ptr<ServerInterface> MakeServer(const std::string& spec, const std::string& job,
                                            int task) {
  auto def = ServerDefFromClusterSpec(spec, job, task);
  EXPECT_TRUE(def.ok()) << def.status();
  if (!def.ok()) return nullptr;
  std::unique_ptr<ServerInterface> server;
  absl::Status s = NewGrpcServer(*def, TlsOptions(), &server);
  EXPECT_TRUE(s.ok()) << s;
  return server;
}

int PortOf(const std::string& target) {
  return std::stoi(target.substr(target.rfind(':') + 1));
}

// Whether something accepts connections on 127.0.0.1:port.
bool Listening(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(port);
  bool ok = connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
  close(fd);
  return ok;
}

TEST(ServerDefFromClusterSpec, ParsesJobsAndTasks) {
  auto def =
      ServerDefFromClusterSpec("ps=127.0.0.1:2222;worker=127.0.0.1:2223,localhost:2224", "worker",
                               1);
  ASSERT_TRUE(def.ok()) << def.status();
  EXPECT_EQ(def->job_name(), "worker");
  EXPECT_EQ(def->task_index(), 1);
  EXPECT_EQ(def->protocol(), "grpc");
  ASSERT_EQ(def->cluster().job_size(), 2);
  EXPECT_EQ(def->cluster().job(1).tasks().at(1), "localhost:2224");
}

TEST(ServerDefFromClusterSpec, RejectsMalformedSpecs) {
  for (const char* spec :
       {"", ";", "ps", "ps=", "=127.0.0.1:1", "ps=127.0.0.1", "ps=127.0.0.1:", "ps=127.0.0.1:x",
        "ps=127.0.0.1:70000", "ps=127.0.0.1:1;ps=127.0.0.1:2", "ps=127.0.0.1:1,,127.0.0.1:2",
        "p s=127.0.0.1:1", "ps=::1:2222", "ps=127.0.0.1:-1"}) {
    auto def = ServerDefFromClusterSpec(spec, "ps", 0);
    EXPECT_EQ(def.status().code(), absl::StatusCode::kInvalidArgument) << "spec '" << spec << "'";
  }
}

TEST(ServerDefFromClusterSpec, RejectsMissingJobOrTask) {
  const std::string spec = "ps=127.0.0.1:2222;worker=127.0.0.1:2223";
  auto no_job = ServerDefFromClusterSpec(spec, "chief", 0);
  EXPECT_EQ(no_job.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(no_job.status().message().find("chief"), std::string::npos);
  auto no_task = ServerDefFromClusterSpec(spec, "worker", 1);
  EXPECT_EQ(no_task.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(no_task.status().message().find("no task 1"), std::string::npos);
  EXPECT_EQ(ServerDefFromClusterSpec(spec, "worker", -1).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(NewGrpcServer, RejectsAMissingTaskOrAnotherProtocol) {
  ServerDef def = *ServerDefFromClusterSpec("worker=127.0.0.1:0", "worker", 0);
  std::unique_ptr<ServerInterface> server;
  def.set_task_index(3);
  EXPECT_EQ(NewGrpcServer(def, TlsOptions(), &server).code(), absl::StatusCode::kInvalidArgument);
  def.set_task_index(0);
  def.set_job_name("ps");
  EXPECT_EQ(NewGrpcServer(def, TlsOptions(), &server).code(), absl::StatusCode::kInvalidArgument);
  def.set_job_name("worker");
  def.set_protocol("grpc+verbs");
  EXPECT_EQ(NewGrpcServer(def, TlsOptions(), &server).code(), absl::StatusCode::kInvalidArgument);
}

// A server of protocol "test" from a factory of this test, to check that NewServer goes through
// the registry: it records the ServerDef and options it was made with.
class TestServer : public ServerInterface {
 public:
  explicit TestServer(std::string target) : target_(std::move(target)) {}
  absl::Status Start() override { return absl::OkStatus(); }
  absl::Status Stop() override { return absl::OkStatus(); }
  absl::Status Join() override { return absl::OkStatus(); }
  const std::string& target() const override { return target_; }

 private:
  const std::string target_;
};

class TestServerFactory : public ServerFactory {
 public:
  bool AcceptsOptions(const ServerDef& def) override { return def.protocol() == "test"; }
  absl::Status NewServer(const ServerDef& def, const ServerOptions& options,
                         std::unique_ptr<ServerInterface>* out) override {
    *out = std::make_unique<TestServer>(
        absl::StrCat("test://", def.job_name(), "/", def.task_index(), "/", options.tls.ca_file));
    return absl::OkStatus();
  }
};

TEST(ServerFactory, NewServerTakesTheFactoryOfTheProtocol) {
  static bool registered = [] {
    ServerFactory::Register("TEST_SERVER", new TestServerFactory);
    return true;
  }();
  ASSERT_TRUE(registered);
  ServerDef def = *ServerDefFromClusterSpec("worker=127.0.0.1:0", "worker", 0);
  std::unique_ptr<ServerInterface> server;

  // "grpc": the gRPC server, bound to a port of its own when started.
  ASSERT_TRUE(NewServer(def, ServerOptions(), &server).ok());
  ASSERT_TRUE(server->Start().ok());
  EXPECT_EQ(server->target().rfind("grpc://127.0.0.1:", 0), 0u) << server->target();
  EXPECT_NE(server->target(), "grpc://127.0.0.1:0");
  ASSERT_TRUE(server->Stop().ok());

  def.set_protocol("test");
  ServerOptions options;
  options.tls.ca_file = "ca.pem";
  ASSERT_TRUE(NewServer(def, options, &server).ok());
  EXPECT_EQ(server->target(), "test://worker/0/ca.pem");

  def.set_protocol("grpc+verbs");
  absl::Status s = NewServer(def, ServerOptions(), &server);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_NE(s.message().find("'grpc+verbs'"), std::string::npos) << s;
  EXPECT_NE(s.message().find("GRPC_SERVER, TEST_SERVER"), std::string::npos) << s;
}

TEST(NewGrpcServer, RejectsUnreadableTlsFiles) {
  ServerDef def = *ServerDefFromClusterSpec("worker=127.0.0.1:0", "worker", 0);
  std::unique_ptr<ServerInterface> server;
  TlsOptions tls;
  tls.cert_file = "/nonexistent/cert.pem";
  tls.key_file = "/nonexistent/key.pem";
  absl::Status s = NewGrpcServer(def, tls, &server);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("/nonexistent/cert.pem"), std::string::npos) << s;
}

TEST(GrpcServer, PicksAPortAndStartsStopsAndRestartsOnIt) {
  auto server = MakeServer("worker=localhost:0", "worker", 0);
  ASSERT_NE(server, nullptr);
  ASSERT_TRUE(server->Start().ok());
  const std::string target = server->target();
  EXPECT_EQ(target.rfind("grpc://127.0.0.1:", 0), 0u) << target;
  const int port = PortOf(target);
  ASSERT_GT(port, 0);
  EXPECT_TRUE(Listening(port));
  EXPECT_TRUE(server->Start().ok());  // already started: nothing happens
  ASSERT_TRUE(server->Stop().ok());
  EXPECT_FALSE(Listening(port));
  EXPECT_TRUE(server->Stop().ok());  // idempotent
  EXPECT_TRUE(server->Join().ok());  // not serving: returns at once
  // The same object again, on the same port.
  ASSERT_TRUE(server->Start().ok());
  EXPECT_EQ(server->target(), target);
  EXPECT_TRUE(Listening(port));
  ASSERT_TRUE(server->Stop().ok());
  server.reset();
  // A new server on the freed port.
  auto again = MakeServer(absl::StrCat("worker=127.0.0.1:", port), "worker", 0);
  ASSERT_NE(again, nullptr);
  absl::Status s = again->Start();
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(again->target(), target);
}

NodeDef* AddNode(GraphDef* g, const std::string& name, const std::string& op,
                 const std::string& device, std::vector<std::string> inputs = {}) {
  NodeDef* n = g->add_node();
  n->set_name(name);
  n->set_op(op);
  n->set_device(device);
  for (auto& in : inputs) n->add_input(in);
  return n;
}

// With a message limit of 1 MiB on the server and on the client's channel: a feed or a fetch over
// it is RESOURCE_EXHAUSTED, and the server still serves.
void ExpectOneMebibyteMessageLimit(Session* session) {
  // x: a float feed of any length; y = Fill([n], 1.5) with n fed: a fetch of n floats.
  GraphDef g;
  AddNodeAttr("dtype", DT_FLOAT, AddNode(&g, "x", "Placeholder", ""));
  NodeDef* axis = AddNode(&g, "axis", "Const", "");
  AddNodeAttr("dtype", DT_INT32, axis);
  AddNodeAttr("value", Tensor::Scalar<int32_t>(0), axis);
  NodeDef* sx = AddNode(&g, "sum_x", "Sum", "", {"x", "axis"});
  AddNodeAttr("T", DT_FLOAT, sx);
  AddNodeAttr("Tidx", DT_INT32, sx);
  AddNodeAttr("keep_dims", false, sx);
  AddNodeAttr("dtype", DT_INT32, AddNode(&g, "n", "Placeholder", ""));
  NodeDef* v = AddNode(&g, "v", "Const", "");
  AddNodeAttr("dtype", DT_FLOAT, v);
  AddNodeAttr("value", Tensor::Scalar<float>(1.5f), v);
  NodeDef* y = AddNode(&g, "y", "Fill", "", {"n", "v"});
  AddNodeAttr("T", DT_FLOAT, y);
  AddNodeAttr("index_type", DT_INT32, y);
  ASSERT_TRUE(session->Create(g).ok());

  auto floats = [](int64_t count) {
    Tensor t(DT_FLOAT, TensorShape({count}));
    for (int64_t i = 0; i < count; ++i) t.data<float>()[i] = 1.0f;
    return t;
  };
  auto shape = [](int32_t count) {
    Tensor t(DT_INT32, TensorShape({1}));
    t.data<int32_t>()[0] = count;
    return t;
  };
  std::vector<Tensor> out;
  // Under the limit both ways.
  absl::Status s = session->Run({{"x", floats(1000)}, {"n", shape(1000)}}, {"sum_x:0", "y:0"},
                                {}, &out);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(out[0].data<float>()[0], 1000.0f);
  EXPECT_EQ(out[1].NumElements(), 1000);
  // A 2 MiB feed: the client does not send it.
  s = session->Run({{"x", floats(512 * 1024)}}, {"sum_x:0"}, {}, &out);
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted) << s;
  EXPECT_NE(s.message().find("larger than max"), std::string::npos) << s;
  // A 2 MiB fetch: the server cannot send the reply.
  s = session->Run({{"n", shape(512 * 1024)}}, {"y:0"}, {}, &out);
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted) << s;
  EXPECT_NE(s.message().find("larger than max"), std::string::npos) << s;
  // The server is still usable.
  s = session->Run({{"x", floats(10)}}, {"sum_x:0"}, {}, &out);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(out[0].data<float>()[0], 10.0f);
}

// The limit from SG_GRPC_MAX_MESSAGE_BYTES (the default, 1 GiB, would need tensors of more than
// 1 GiB), which sets it for servers and channels alike.
TEST(GrpcServer, AMessageOverTheSizeLimitIsResourceExhausted) {
  ASSERT_EQ(setenv("SG_GRPC_MAX_MESSAGE_BYTES", "1048576", 1), 0);
  struct Unset {
    ~Unset() { unsetenv("SG_GRPC_MAX_MESSAGE_BYTES"); }
  } unset;
  ASSERT_EQ(MaxMessageBytes(), 1 << 20);
  auto server = MakeServer("worker=localhost:0", "worker", 0);
  ASSERT_NE(server, nullptr);
  ASSERT_TRUE(server->Start().ok());
  const std::string address = server->target().substr(std::string("grpc://").size());
  SessionOptions opts;
  opts.target = server->target();
  auto session = NewGrpcSession(
      opts, NewGrpcRemoteMaster(::grpc::CreateCustomChannel(
                address, ::grpc::InsecureChannelCredentials(), DefaultChannelArguments())));
  ExpectOneMebibyteMessageLimit(session.get());
  EXPECT_TRUE(session->Close().ok());
}

// The same limit from the options: the server's from its ServerDef's default_session_config, the
// client's from its session config (whose use_rpc_for_inprocess_master takes the session over
// gRPC to the server of its own process).
TEST(GrpcServer, TheMessageLimitComesFromTheRpcOptions) {
  ASSERT_EQ(getenv("SG_GRPC_MAX_MESSAGE_BYTES"), nullptr);
  auto def = ServerDefFromClusterSpec("worker=localhost:0", "worker", 0);
  ASSERT_TRUE(def.ok()) << def.status();
  def->mutable_default_session_config()->mutable_rpc_options()->set_sg_max_message_bytes(1 << 20);
  std::unique_ptr<ServerInterface> server;
  ASSERT_TRUE(NewGrpcServer(*def, TlsOptions(), &server).ok());
  ASSERT_TRUE(server->Start().ok());
  SessionOptions opts;
  opts.target = server->target();
  opts.config.mutable_rpc_options()->set_sg_max_message_bytes(1 << 20);
  opts.config.mutable_rpc_options()->set_use_rpc_for_inprocess_master(true);
  std::unique_ptr<Session> session;
  ASSERT_TRUE(NewSession(opts, &session).ok());
  ExpectOneMebibyteMessageLimit(session.get());
  EXPECT_TRUE(session->Close().ok());
}

// Each environment variable, when set, overrides its option.
TEST(GrpcUtil, EnvironmentVariablesOverrideTheRpcOptions) {
  const char* kVars[] = {"SG_GRPC_MAX_MESSAGE_BYTES", "SG_GRPC_ARGS", "SG_GRPC_TLS_CA",
                         "SG_GRPC_TLS_CERT", "SG_GRPC_TLS_KEY"};
  for (const char* v : kVars) ASSERT_EQ(getenv(v), nullptr) << v << " is set for the test";
  struct Unset {
    const char* const* vars;
    ~Unset() {
      for (int i = 0; i < 5; ++i) unsetenv(vars[i]);
    }
  } unset{kVars};
  RPCOptions rpc;
  rpc.set_sg_max_message_bytes(1000);
  (*rpc.mutable_sg_grpc_args())["grpc.a"] = 1;
  (*rpc.mutable_sg_grpc_args())["grpc.b"] = 2;
  rpc.set_sg_tls_ca_file("/config/ca.pem");
  rpc.set_sg_tls_cert_file("/config/cert.pem");
  rpc.set_sg_tls_key_file("/config/key.pem");
  using Args = std::vector<std::pair<std::string, int>>;
  EXPECT_EQ(MaxMessageBytes(RPCOptions()), kMaxMessageBytes);
  EXPECT_EQ(MaxMessageBytes(rpc), 1000);
  EXPECT_EQ(TransportArguments(rpc), (Args{{"grpc.a", 1}, {"grpc.b", 2}}));
  TlsOptions tls = ClientTlsOptions(rpc);
  EXPECT_EQ(tls.ca_file, "/config/ca.pem");
  EXPECT_EQ(tls.cert_file, "/config/cert.pem");
  EXPECT_EQ(tls.key_file, "/config/key.pem");
  RPCOptions no_ca = rpc;
  no_ca.clear_sg_tls_ca_file();
  tls = ClientTlsOptions(no_ca);
  EXPECT_TRUE(tls.ca_file.empty() && tls.cert_file.empty() && tls.key_file.empty())
      << "without a CA the channel is plaintext";

  setenv("SG_GRPC_MAX_MESSAGE_BYTES", "2000", 1);
  setenv("SG_GRPC_ARGS", "grpc.b=5,grpc.c=6", 1);
  setenv("SG_GRPC_TLS_CA", "/env/ca.pem", 1);
  setenv("SG_GRPC_TLS_KEY", "/env/key.pem", 1);
  EXPECT_EQ(MaxMessageBytes(rpc), 2000);
  EXPECT_EQ(TransportArguments(rpc), (Args{{"grpc.a", 1}, {"grpc.b", 5}, {"grpc.c", 6}}));
  tls = ClientTlsOptions(rpc);
  EXPECT_EQ(tls.ca_file, "/env/ca.pem");
  EXPECT_EQ(tls.cert_file, "/config/cert.pem");
  EXPECT_EQ(tls.key_file, "/env/key.pem");
  tls = ClientTlsOptions(no_ca);
  EXPECT_EQ(tls.ca_file, "/env/ca.pem");
}

TEST(GrpcServer, PortInUseIsUnavailableNamingTheAddress) {
  auto first = MakeServer("worker=127.0.0.1:0", "worker", 0);
  ASSERT_TRUE(first->Start().ok());
  const int port = PortOf(first->target());
  auto second = MakeServer(absl::StrCat("worker=127.0.0.1:", port), "worker", 0);
  absl::Status s = second->Start();
  EXPECT_EQ(s.code(), absl::StatusCode::kUnavailable) << s;
  EXPECT_NE(s.message().find(absl::StrCat("127.0.0.1:", port)), std::string::npos) << s;
  EXPECT_TRUE(first->Stop().ok());
}

TEST(GrpcServer, JoinReturnsWhenAnotherThreadStops) {
  auto server = MakeServer("worker=127.0.0.1:0", "worker", 0);
  ASSERT_TRUE(server->Start().ok());
  absl::Notification joined;
  std::thread t([&] {
    EXPECT_TRUE(server->Join().ok());
    joined.Notify();
  });
  EXPECT_FALSE(joined.WaitForNotificationWithTimeout(absl::Milliseconds(100)));
  ASSERT_TRUE(server->Stop().ok());
  EXPECT_TRUE(joined.WaitForNotificationWithTimeout(absl::Seconds(10)));
  t.join();
}

// ---- the WorkerService over gRPC: two servers, driven like a master would drive them. --------

void Transfer(NodeDef* n, DataType dtype, const std::string& name, const std::string& from,
              uint64_t inc, const std::string& to, bool client) {
  AddNodeAttr(n->op() == "_Send" ? "T" : "tensor_type", dtype, n);
  AddNodeAttr("tensor_name", name, n);
  AddNodeAttr("send_device", from, n);
  AddNodeAttr("send_device_incarnation", static_cast<int64_t>(inc), n);
  AddNodeAttr("recv_device", to, n);
  AddNodeAttr("client_terminated", client, n);
}

template <typename Req, typename Resp, typename Fn>
absl::Status Call(Fn fn, const Req& req, Resp* resp, CallOptions* opts = nullptr) {
  absl::Notification n;
  absl::Status status;
  CallOptions local;
  if (opts == nullptr) {
    local.SetTimeout(20000);
    opts = &local;
  }
  fn(opts, &req, resp, [&](const absl::Status& s) {
    status = s;
    n.Notify();
  });
  if (!n.WaitForNotificationWithTimeout(absl::Seconds(30))) {
    return errors::DeadlineExceeded("test wait");
  }
  return status;
}

class TwoServers : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string spec = absl::StrCat("worker=127.0.0.1:", Free(), ",127.0.0.1:", Free());
    s0_ = MakeServer(spec, "worker", 0);
    s1_ = MakeServer(spec, "worker", 1);
    ASSERT_TRUE(s0_->Start().ok());
    ASSERT_TRUE(s1_->Start().ok());
    cluster_ = *ServerDefFromClusterSpec(spec, "worker", 0);
    // A client's view of the cluster: every task over gRPC.
    cache_ = std::make_unique<GrpcWorkerCache>(cluster_.cluster(), "", TlsOptions());
    w0_ = cache_->GetOrCreateWorker("/job:worker/replica:0/task:0");
    w1_ = cache_->GetOrCreateWorker("/job:worker/replica:0/task:1");
    ASSERT_NE(w0_, nullptr);
    ASSERT_NE(w1_, nullptr);
    GetStatusResponse st0, st1;
    ASSERT_TRUE(w0_->GetStatus(nullptr, GetStatusRequest(), &st0).ok());
    ASSERT_TRUE(w1_->GetStatus(nullptr, GetStatusRequest(), &st1).ok());
    d0_ = st0.device_attributes(0).name();
    inc0_ = st0.device_attributes(0).incarnation();
    d1_ = st1.device_attributes(0).name();
    inc1_ = st1.device_attributes(0).incarnation();
  }

  static int Free() {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
    socklen_t len = sizeof(addr);
    getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
    close(fd);
    return ntohs(addr.sin_port);
  }

  std::string Register(WorkerInterface* w, const GraphDef& g) {
    RegisterGraphRequest req;
    *req.mutable_graph_def() = g;
    RegisterGraphResponse resp;
    absl::Status s = Call<RegisterGraphRequest, RegisterGraphResponse>(
        [w](auto... a) { w->RegisterGraphAsync(a...); }, req, &resp);
    EXPECT_TRUE(s.ok()) << s;
    return resp.graph_handle();
  }

  // Task 1 alone runs step `step_id` of the move graph: its _Recv waits in a RecvTensor to task 0
  // that nobody will answer. Stopping `server` must end that step with CANCELLED, promptly.
  void ExpectStopEndsTheWaitingStep(ServerInterface* server, int64_t step_id) {
    std::string h0, h1;
    RegisterMove(Tensor::Scalar<float>(1), &h0, &h1);
    RunGraphRequest r1;
    r1.set_graph_handle(h1);
    r1.set_step_id(step_id);
    r1.add_recv_key(OutKey());
    RunGraphResponse p1;
    absl::Notification done;
    absl::Status status;
    CallOptions opts;
    opts.SetTimeout(60000);
    w1_->RunGraphAsync(&opts, &r1, &p1, [&](const absl::Status& s) {
      status = s;
      done.Notify();
    });
    EXPECT_FALSE(done.WaitForNotificationWithTimeout(absl::Milliseconds(200)));
    const absl::Time start = absl::Now();
    ASSERT_TRUE(server->Stop().ok());
    ASSERT_TRUE(done.WaitForNotificationWithTimeout(absl::Seconds(10)));
    EXPECT_EQ(status.code(), absl::StatusCode::kCancelled) << status;
    EXPECT_LT(absl::Now() - start, absl::Seconds(5));
  }

  // Task 0 makes `value` (a Const) and sends it to task 1, which fetches it back as "out".
  void RegisterMove(const Tensor& value, std::string* h0, std::string* h1) {
    GraphDef g0;
    NodeDef* c = AddNode(&g0, "c", "Const", d0_);
    AddNodeAttr("dtype", value.dtype(), c);
    AddNodeAttr("value", value, c);
    Transfer(AddNode(&g0, "c/_send", "_Send", d0_, {"c"}), value.dtype(), "edge_c", d0_, inc0_,
             d1_, false);
    GraphDef g1;
    Transfer(AddNode(&g1, "c/_recv", "_Recv", d1_), value.dtype(), "edge_c", d0_, inc0_, d1_,
             false);
    Transfer(AddNode(&g1, "out", "_Send", d1_, {"c/_recv"}), value.dtype(), "out", d1_, inc1_,
             d1_, true);
    *h0 = Register(w0_, g0);
    *h1 = Register(w1_, g1);
  }

  std::string OutKey() const {
    return Rendezvous::CreateKey(d1_, inc1_, d1_, "out", FrameAndIter());
  }

  std::unique_ptr<ServerInterface> s0_, s1_;
  ServerDef cluster_;
  std::unique_ptr<GrpcWorkerCache> cache_;
  WorkerInterface* w0_ = nullptr;
  WorkerInterface* w1_ = nullptr;
  std::string d0_, d1_;
  uint64_t inc0_ = 0, inc1_ = 0;
};

TEST_F(TwoServers, RunGraphMovesALargeTensorWithRecvTensor) {
  // 4 Mi floats (16 MiB), each a distinct value so that any misplaced byte shows.
  Tensor value(DT_FLOAT, TensorShape({1024, 4096}));
  float* v = value.data<float>();
  for (int64_t i = 0; i < value.NumElements(); ++i) v[i] = static_cast<float>(i) * 0.5f;
  std::string h0, h1;
  RegisterMove(value, &h0, &h1);
  RunGraphRequest r0, r1;
  r0.set_graph_handle(h0);
  r0.set_step_id(7);
  r1.set_graph_handle(h1);
  r1.set_step_id(7);
  r1.add_recv_key(OutKey());
  RunGraphResponse p0, p1;
  absl::Notification n0;
  absl::Status st0;
  CallOptions o0;
  o0.SetTimeout(20000);
  w0_->RunGraphAsync(&o0, &r0, &p0, [&](const absl::Status& s) {
    st0 = s;
    n0.Notify();
  });
  absl::Status s1 = Call<RunGraphRequest, RunGraphResponse>(
      [this](auto... a) { w1_->RunGraphAsync(a...); }, r1, &p1);
  ASSERT_TRUE(n0.WaitForNotificationWithTimeout(absl::Seconds(30)));
  ASSERT_TRUE(st0.ok()) << st0;
  ASSERT_TRUE(s1.ok()) << s1;
  ASSERT_EQ(p1.recv_size(), 1);
  auto out = Tensor::FromProto(p1.recv(0).tensor());
  ASSERT_TRUE(out.ok());
  ASSERT_EQ(out->NumElements(), value.NumElements());
  EXPECT_EQ(std::memcmp(out->raw_data(), value.raw_data(), value.TotalBytes()), 0);
}

TEST_F(TwoServers, RecvTensorOverGrpcDeliversNumbersAndStrings) {
  Tensor strings(DT_STRING, TensorShape({3}));
  strings.data<tstring>()[0] = "a";
  strings.data<tstring>()[1] = std::string(5000, 'x');
  strings.data<tstring>()[2] = "";
  std::string h0, h1;
  RegisterMove(strings, &h0, &h1);
  RunGraphRequest r0;
  r0.set_graph_handle(h0);
  r0.set_step_id(8);
  RunGraphResponse p0;
  ASSERT_TRUE((Call<RunGraphRequest, RunGraphResponse>(
                   [this](auto... a) { w0_->RunGraphAsync(a...); }, r0, &p0))
                  .ok());
  // Ask task 0 directly, as task 1's rendezvous would.
  RecvTensorRequest req;
  req.set_step_id(8);
  req.set_rendezvous_key(Rendezvous::CreateKey(d0_, inc0_, d1_, "edge_c", FrameAndIter()));
  req.set_request_id(99);
  RecvTensorResult result;
  absl::Status s = Call<RecvTensorRequest, RecvTensorResult>(
      [this](auto... a) { w0_->RecvTensorAsync(a...); }, req, &result);
  ASSERT_TRUE(s.ok()) << s;
  ASSERT_EQ(result.tensor.dtype(), DT_STRING);
  ASSERT_EQ(result.tensor.NumElements(), 3);
  EXPECT_EQ(result.tensor.data<tstring>()[1], std::string(5000, 'x'));
  // The same request id again is refused.
  RecvTensorResult again;
  s = Call<RecvTensorRequest, RecvTensorResult>(
      [this](auto... a) { w0_->RecvTensorAsync(a...); }, req, &again);
  EXPECT_EQ(s.code(), absl::StatusCode::kAborted) << s;
}

TEST_F(TwoServers, UnknownGraphHandleOverGrpcIsAborted) {
  RunGraphRequest req;
  req.set_graph_handle("0000000000000bad");
  RunGraphResponse resp;
  absl::Status s = Call<RunGraphRequest, RunGraphResponse>(
      [this](auto... a) { w1_->RunGraphAsync(a...); }, req, &resp);
  EXPECT_EQ(s.code(), absl::StatusCode::kAborted) << s;
  EXPECT_NE(s.message().find("is not found"), std::string::npos) << s;
}

TEST_F(TwoServers, StopEndsAStepWaitingOnRecvTensorWithCancelled) {
  ExpectStopEndsTheWaitingStep(s1_.get(), 9);
}

// Stopping the task the RecvTensor waits on ends the receiver's step too.
TEST_F(TwoServers, StoppingTheSenderEndsTheReceiversStep) {
  ExpectStopEndsTheWaitingStep(s0_.get(), 10);
}

TEST_F(TwoServers, ACallToAStoppedTaskIsUnavailableNamingIt) {
  ASSERT_TRUE(s0_->Stop().ok());
  GetStatusResponse resp;
  CallOptions opts;
  opts.SetTimeout(5000);
  absl::Status s = w0_->GetStatus(&opts, GetStatusRequest(), &resp);
  EXPECT_EQ(s.code(), absl::StatusCode::kUnavailable) << s;
  EXPECT_NE(s.message().find("/job:worker/replica:0/task:0"), std::string::npos) << s;
}

}  // namespace
}  // namespace sg
