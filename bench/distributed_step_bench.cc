// Per-step overhead of the distributed runtime: a two-task cluster on loopback, the ps task in a
// child process (forked before gRPC starts) and worker 0 in this one, as a client with an
// in-process server has it. Each step runs d = c + x, c a scalar Const on the ps, x fed and d
// fetched on worker 0: a RunGraph to both tasks (the one to worker 0 in process), the scalar
// coming back in the ps's RunGraph reply (the master's forwarding; a RecvTensor call before it),
// no CleanupGraph after a successful step. The client reaches worker 0's master either in
// process (LocalMaster) or over gRPC (GrpcRemoteMaster). Reports the median step time (counter
// median_us); BM_GrpcRoundTripToThePs gives the floor, one bare gRPC call to the ps.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <grpcpp/grpcpp.h>

#include "core/framework/attr_value_util.h"
#include "core/runtime/session.h"
#include "absl/synchronization/notification.h"
#include "distributed/rpc/grpc_remote_master.h"
#include "distributed/rpc/grpc_remote_worker.h"
#include "distributed/rpc/grpc_server.h"
#include "distributed/rpc/grpc_session.h"
#include "distributed/rpc/grpc_util.h"

namespace sg {
namespace {

int FreePort() {
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

NodeDef Node(const std::string& name, const std::string& op, std::vector<std::string> inputs,
             const std::string& device) {
  NodeDef n;
  n.set_name(name);
  n.set_op(op);
  n.set_device(device);
  for (auto& i : inputs) n.add_input(i);
  return n;
}

GraphDef ScalarGraph(const std::string& const_device = "/job:ps/task:0",
                     const std::string& add_device = "/job:worker/task:0") {
  GraphDef g;
  NodeDef c = Node("c", "Const", {}, const_device);
  AddNodeAttr("dtype", DT_FLOAT, &c);
  AddNodeAttr("value", Tensor::Scalar<float>(1.0f), &c);
  NodeDef x = Node("x", "Placeholder", {}, add_device);
  AddNodeAttr("dtype", DT_FLOAT, &x);
  NodeDef d = Node("d", "AddV2", {"c", "x"}, add_device);
  AddNodeAttr("T", DT_FLOAT, &d);
  *g.add_node() = c;
  *g.add_node() = x;
  *g.add_node() = d;
  return g;
}

struct Cluster {
  std::string spec;
  std::unique_ptr<ServerInterface> worker;  // task worker:0, in this process
  std::string worker_target;
  std::string ps_address;
};

std::unique_ptr<ServerInterface> StartServer(const std::string& spec, const char* job) {
  std::unique_ptr<ServerInterface> server;
  auto def = ServerDefFromClusterSpec(spec, job, 0);
  if (!def.ok() || !NewGrpcServer(*def, TlsOptions(), &server).ok() || !server->Start().ok()) {
    std::fprintf(stderr, "could not start the %s server\n", job);
    std::exit(1);
  }
  return server;
}

// Set by main before gRPC is used: the ps runs in a child process.
std::string g_spec;

Cluster* TheCluster() {
  static Cluster* cluster = [] {
    auto* c = new Cluster;
    c->spec = g_spec;
    c->worker = StartServer(c->spec, "worker");
    c->worker_target = c->worker->target();
    c->ps_address = c->spec.substr(3, c->spec.find(';') - 3);
    return c;
  }();
  return cluster;
}

void RunSteps(benchmark::State& state, Session* session, const GraphDef& graph = ScalarGraph()) {
  absl::Status s = session->Create(graph);
  if (!s.ok()) {
    state.SkipWithError(s.ToString().c_str());
    return;
  }
  std::vector<std::pair<std::string, Tensor>> feeds = {{"x", Tensor::Scalar<float>(2.0f)}};
  std::vector<Tensor> out;
  // The first step builds and registers the partitions; it is not a per-step cost.
  s = session->Run(feeds, {"d:0"}, {}, &out);
  if (!s.ok()) {
    state.SkipWithError(s.ToString().c_str());
    return;
  }
  std::vector<double> micros;
  for (auto _ : state) {
    auto start = std::chrono::steady_clock::now();
    s = session->Run(feeds, {"d:0"}, {}, &out);
    auto end = std::chrono::steady_clock::now();
    if (!s.ok() || out[0].data<float>()[0] != 3.0f) {
      state.SkipWithError(s.ToString().c_str());
      break;
    }
    micros.push_back(std::chrono::duration<double, std::micro>(end - start).count());
  }
  if (!micros.empty()) {
    std::sort(micros.begin(), micros.end());
    state.counters["median_us"] = micros[micros.size() / 2];
    state.counters["p90_us"] = micros[micros.size() * 9 / 10];
  }
  session->Close().IgnoreError();
}

// Steps of `graph` from a client whose session finds worker 0's master in process (LocalMaster).
void RunStepsOnLocalMaster(benchmark::State& state, const GraphDef& graph) {
  SessionOptions opts;
  opts.target = TheCluster()->worker_target;
  std::unique_ptr<Session> session;
  if (!NewSession(opts, &session).ok()) {
    state.SkipWithError("NewSession failed");
    return;
  }
  RunSteps(state, session.get(), graph);
}

void BM_TwoTaskScalarStepLocalMaster(benchmark::State& state) {
  RunStepsOnLocalMaster(state, ScalarGraph());
}
BENCHMARK(BM_TwoTaskScalarStepLocalMaster)->UseRealTime()->MinTime(2.0);

void BM_TwoTaskScalarStepRemoteMaster(benchmark::State& state) {
  SessionOptions opts;
  opts.target = TheCluster()->worker_target;
  const std::string address = opts.target.substr(std::string("grpc://").size());
  auto channel = ::grpc::CreateCustomChannel(address, ::grpc::InsecureChannelCredentials(),
                                             DefaultChannelArguments());
  auto session = NewGrpcSession(opts, NewGrpcRemoteMaster(channel));
  RunSteps(state, session.get());
}
BENCHMARK(BM_TwoTaskScalarStepRemoteMaster)->UseRealTime()->MinTime(2.0);

// For comparison: the same step with everything on worker 0 (no RPC between tasks; what is left
// is the master's own work and the in-process worker).
void BM_OneTaskScalarStepLocalMaster(benchmark::State& state) {
  RunStepsOnLocalMaster(state, ScalarGraph("/job:worker/task:0"));
}
BENCHMARK(BM_OneTaskScalarStepLocalMaster)->UseRealTime()->MinTime(2.0);

// The same step with every node on the ps, fed and fetched there: one RunGraph to the ps.
void BM_PsOnlyScalarStepLocalMaster(benchmark::State& state) {
  RunStepsOnLocalMaster(state, ScalarGraph("/job:ps/task:0", "/job:ps/task:0"));
}
BENCHMARK(BM_PsOnlyScalarStepLocalMaster)->UseRealTime()->MinTime(2.0);

// A 64 MiB float tensor made by Fill on `device` and fetched by a client on worker 0 (a
// LocalMaster session): from the master's own task (in-process hand-over) or from the ps (its
// RunGraph reply over gRPC). Issue 15's "tensors between tasks" figures.
GraphDef FillGraph(const std::string& device) {
  GraphDef g;
  NodeDef dims = Node("dims", "Const", {}, device);
  AddNodeAttr("dtype", DT_INT32, &dims);
  Tensor d(DT_INT32, TensorShape({1}));
  d.data<int32_t>()[0] = 16 << 20;
  AddNodeAttr("value", d, &dims);
  NodeDef x = Node("x", "Placeholder", {}, device);
  AddNodeAttr("dtype", DT_FLOAT, &x);
  NodeDef big = Node("big", "Fill", {"dims", "x"}, device);
  AddNodeAttr("T", DT_FLOAT, &big);
  AddNodeAttr("index_type", DT_INT32, &big);
  *g.add_node() = dims;
  *g.add_node() = x;
  *g.add_node() = big;
  return g;
}

void FetchLarge(benchmark::State& state, const std::string& device) {
  SessionOptions opts;
  opts.target = TheCluster()->worker_target;
  std::unique_ptr<Session> session;
  absl::Status s = NewSession(opts, &session);
  if (s.ok()) s = session->Create(FillGraph(device));
  if (!s.ok()) {
    state.SkipWithError(s.ToString().c_str());
    return;
  }
  std::vector<double> micros;
  float value = 0;
  for (auto _ : state) {
    value += 1;
    std::vector<Tensor> out;
    auto start = std::chrono::steady_clock::now();
    s = session->Run({{"x", Tensor::Scalar<float>(value)}}, {"big:0"}, {}, &out);
    auto end = std::chrono::steady_clock::now();
    if (!s.ok() || out[0].NumElements() != (16 << 20) ||
        out[0].data<float>()[(16 << 20) - 1] != value) {
      state.SkipWithError(s.ok() ? "wrong value" : s.ToString().c_str());
      break;
    }
    micros.push_back(std::chrono::duration<double, std::micro>(end - start).count());
  }
  if (!micros.empty()) {
    std::sort(micros.begin(), micros.end());
    state.counters["median_us"] = micros[micros.size() / 2];
  }
  session->Close().IgnoreError();
}

void BM_Fetch64MiBFromOwnTask(benchmark::State& state) {
  FetchLarge(state, "/job:worker/task:0");
}
BENCHMARK(BM_Fetch64MiBFromOwnTask)->UseRealTime()->MinTime(2.0);

void BM_Fetch64MiBFromPs(benchmark::State& state) { FetchLarge(state, "/job:ps/task:0"); }
BENCHMARK(BM_Fetch64MiBFromPs)->UseRealTime()->MinTime(2.0);

// The floor: one GetStatus round trip to the ps over gRPC (what any RPC on the step's path costs).
void BM_GrpcRoundTripToThePs(benchmark::State& state) {
  auto worker = NewGrpcRemoteWorker(
      ::grpc::CreateCustomChannel(TheCluster()->ps_address, ::grpc::InsecureChannelCredentials(),
                                  DefaultChannelArguments()),
      "/job:ps/replica:0/task:0", TheCluster()->ps_address);
  std::vector<double> micros;
  for (auto _ : state) {
    auto start = std::chrono::steady_clock::now();
    CallOptions opts;
    opts.SetTimeout(5000);
    GetStatusRequest req;
    GetStatusResponse resp;
    absl::Notification done;
    absl::Status status;
    worker->GetStatusAsync(&opts, &req, &resp, [&](const absl::Status& s) {
      status = s;
      done.Notify();
    });
    done.WaitForNotification();
    auto end = std::chrono::steady_clock::now();
    if (!status.ok()) {
      state.SkipWithError(status.ToString().c_str());
      break;
    }
    micros.push_back(std::chrono::duration<double, std::micro>(end - start).count());
  }
  if (!micros.empty()) {
    std::sort(micros.begin(), micros.end());
    state.counters["median_us"] = micros[micros.size() / 2];
    state.counters["p90_us"] = micros[micros.size() * 9 / 10];
  }
}
BENCHMARK(BM_GrpcRoundTripToThePs)->UseRealTime()->MinTime(2.0);

}  // namespace
}  // namespace sg

int main(int argc, char** argv) {
  const std::string ps = "127.0.0.1:" + std::to_string(sg::FreePort());
  sg::g_spec = "ps=" + ps + ";worker=127.0.0.1:" + std::to_string(sg::FreePort());
  int fds[2];
  if (pipe(fds) != 0) return 1;
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    auto server = sg::StartServer(sg::g_spec, "ps");
    char ok = 1;
    if (write(fds[1], &ok, 1) != 1) _exit(1);
    server->Join().IgnoreError();
    _exit(0);
  }
  close(fds[1]);
  char ok = 0;
  if (read(fds[0], &ok, 1) != 1 || !ok) {
    std::fprintf(stderr, "distributed_step_bench: the ps process did not start\n");
    kill(pid, SIGKILL);
    return 1;
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  return 0;
}
