// Per-step overhead of the distributed runtime: a two-task cluster (ps:0 and worker:0, GrpcServers
// in this process on loopback) runs d = c + x, c a scalar Const on the ps, x fed and d fetched on
// worker 0. Each step is a RunGraph to both tasks, one RecvTensor of the scalar from the ps over
// gRPC, and a CleanupGraph. The client reaches worker 0's master either in process (LocalMaster)
// or over gRPC (GrpcRemoteMaster). Reports the median step time (counter median_us).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
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

GraphDef ScalarGraph(const std::string& const_device = "/job:ps/task:0") {
  GraphDef g;
  NodeDef c = Node("c", "Const", {}, const_device);
  AddNodeAttr("dtype", DT_FLOAT, &c);
  AddNodeAttr("value", Tensor::Scalar<float>(1.0f), &c);
  NodeDef x = Node("x", "Placeholder", {}, "/job:worker/task:0");
  AddNodeAttr("dtype", DT_FLOAT, &x);
  NodeDef d = Node("d", "AddV2", {"c", "x"}, "/job:worker/task:0");
  AddNodeAttr("T", DT_FLOAT, &d);
  *g.add_node() = c;
  *g.add_node() = x;
  *g.add_node() = d;
  return g;
}

struct Cluster {
  std::vector<std::unique_ptr<ServerInterface>> servers;
  std::string worker_target;
  std::string ps_address;
};

Cluster* TheCluster() {
  static Cluster* cluster = [] {
    auto* c = new Cluster;
    const std::string spec = "ps=127.0.0.1:" + std::to_string(FreePort()) +
                             ";worker=127.0.0.1:" + std::to_string(FreePort());
    for (const char* job : {"ps", "worker"}) {
      std::unique_ptr<ServerInterface> server;
      auto def = ServerDefFromClusterSpec(spec, job, 0);
      if (!def.ok() || !NewGrpcServer(*def, TlsOptions(), &server).ok() || !server->Start().ok()) {
        std::fprintf(stderr, "could not start the %s server\n", job);
        std::exit(1);
      }
      c->servers.push_back(std::move(server));
    }
    c->worker_target = c->servers[1]->target();
    c->ps_address = c->servers[0]->target().substr(std::string("grpc://").size());
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

void BM_TwoTaskScalarStepLocalMaster(benchmark::State& state) {
  SessionOptions opts;
  opts.target = TheCluster()->worker_target;  // found in process: LocalMaster
  std::unique_ptr<Session> session;
  if (!NewSession(opts, &session).ok()) {
    state.SkipWithError("NewSession failed");
    return;
  }
  RunSteps(state, session.get());
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
  SessionOptions opts;
  opts.target = TheCluster()->worker_target;
  std::unique_ptr<Session> session;
  if (!NewSession(opts, &session).ok()) {
    state.SkipWithError("NewSession failed");
    return;
  }
  RunSteps(state, session.get(), ScalarGraph("/job:worker/task:0"));
}
BENCHMARK(BM_OneTaskScalarStepLocalMaster)->UseRealTime()->MinTime(2.0);

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

BENCHMARK_MAIN();
