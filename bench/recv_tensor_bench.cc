// RecvTensor between two processes on loopback, against a raw TCP copy of the same bytes between
// the same two processes.
//
// The benchmark forks a server process before touching gRPC: it serves task 0 of the cluster
// "worker=127.0.0.1:P" (a GrpcServer) and, on another loopback port, a plain TCP sender. For each
// size, the parent (a gRPC client, as a peer worker's rendezvous is) registers a graph
// Const(N floats) -> _Send on the server once; each iteration runs a step (RunGraph), then times
// the RecvTensor that pulls the tensor (decoded into a new tensor, whose memory sg's host memory
// cache recycles), then cleans the step up. BM_RawTcp times reading the same number of bytes from
// the TCP sender, into a fresh buffer per copy (reuse:0) or into one buffer (reuse:1, the
// stronger baseline).
//
//   ./bench/recv_tensor_bench --benchmark_filter=64  (bytes_per_second is the figure)
#include <arpa/inet.h>
#include <malloc.h>
#include <benchmark/benchmark.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/synchronization/notification.h"
#include "core/framework/attr_value_util.h"
#include "core/framework/rendezvous.h"
#include "distributed/rpc/grpc_server.h"
#include "distributed/rpc/grpc_worker_cache.h"

namespace sg {
namespace {

int g_grpc_port = 0;
int g_tcp_port = 0;
constexpr int64_t kMaxBytes = int64_t{64} << 20;

int Listen(int* port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(*port);
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 || listen(fd, 4) != 0) {
    close(fd);
    return -1;
  }
  socklen_t len = sizeof(addr);
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  *port = ntohs(addr.sin_port);
  return fd;
}

int FreePort() {
  int port = 0;
  int fd = Listen(&port);
  close(fd);
  return port;
}

// The child: the raw TCP sender (8-byte request: how many bytes) and the gRPC server.
[[noreturn]] void ServeForever(int ready_fd) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  std::vector<char> data(kMaxBytes, 1);
  int tcp_port = g_tcp_port;
  int listen_fd = Listen(&tcp_port);
  std::unique_ptr<ServerInterface> server;
  auto def = ServerDefFromClusterSpec(absl::StrCat("worker=127.0.0.1:", g_grpc_port), "worker", 0);
  absl::Status s = def.ok() ? NewGrpcServer(*def, TlsOptions(), &server) : def.status();
  if (s.ok()) s = server->Start();
  char ok = s.ok() && listen_fd >= 0 ? 1 : 0;
  if (!s.ok()) std::fprintf(stderr, "server: %s\n", s.ToString().c_str());
  (void)!write(ready_fd, &ok, 1);
  close(ready_fd);
  while (true) {
    int conn = accept(listen_fd, nullptr, nullptr);
    if (conn < 0) continue;
    int64_t n;
    while (read(conn, &n, sizeof(n)) == sizeof(n)) {
      int64_t sent = 0;
      while (sent < n) {
        ssize_t w = write(conn, data.data() + sent, n - sent);
        if (w <= 0) break;
        sent += w;
      }
    }
    close(conn);
  }
}

struct Client {
  Client() {
    auto def = ServerDefFromClusterSpec(absl::StrCat("worker=127.0.0.1:", g_grpc_port), "worker",
                                        0);
    cache = std::make_unique<GrpcWorkerCache>(def->cluster(), "", TlsOptions());
    worker = cache->GetOrCreateWorker("/job:worker/replica:0/task:0");
    GetStatusResponse st;
    CallOptions opts;
    opts.SetTimeout(10000);
    absl::Status s = worker->GetStatus(&opts, GetStatusRequest(), &st);
    if (!s.ok()) std::fprintf(stderr, "GetStatus: %s\n", s.ToString().c_str());
    device = st.device_attributes(0).name();
    incarnation = st.device_attributes(0).incarnation();
  }

  template <typename Req, typename Resp, typename Fn>
  absl::Status Call(Fn fn, const Req& req, Resp* resp) {
    absl::Notification n;
    absl::Status status;
    CallOptions opts;
    opts.SetTimeout(60000);
    fn(&opts, &req, resp, [&](const absl::Status& s) {
      status = s;
      n.Notify();
    });
    n.WaitForNotification();
    return status;
  }

  // Registers Const(n floats) -> _Send once per size.
  const std::string& GraphFor(int64_t n) {
    auto it = graphs.find(n);
    if (it != graphs.end()) return it->second;
    RegisterGraphRequest req;
    GraphDef* g = req.mutable_graph_def();
    NodeDef* c = g->add_node();
    c->set_name("c");
    c->set_op("Const");
    c->set_device(device);
    Tensor value(DT_FLOAT, TensorShape({n}));
    for (int64_t i = 0; i < n; ++i) value.data<float>()[i] = static_cast<float>(i);
    AddNodeAttr("dtype", DT_FLOAT, c);
    AddNodeAttr("value", value, c);
    NodeDef* send = g->add_node();
    send->set_name("c/_send");
    send->set_op("_Send");
    send->set_device(device);
    send->add_input("c");
    AddNodeAttr("T", DT_FLOAT, send);
    AddNodeAttr("tensor_name", "edge_c", send);
    AddNodeAttr("send_device", device, send);
    AddNodeAttr("send_device_incarnation", static_cast<int64_t>(incarnation), send);
    AddNodeAttr("recv_device", "/job:client/replica:0/task:0/device:CPU:0", send);
    AddNodeAttr("client_terminated", false, send);
    RegisterGraphResponse resp;
    absl::Status s = Call<RegisterGraphRequest, RegisterGraphResponse>(
        [this](auto... a) { worker->RegisterGraphAsync(a...); }, req, &resp);
    if (!s.ok()) std::fprintf(stderr, "RegisterGraph: %s\n", s.ToString().c_str());
    return graphs[n] = resp.graph_handle();
  }

  std::unique_ptr<GrpcWorkerCache> cache;
  WorkerInterface* worker = nullptr;
  std::string device;
  uint64_t incarnation = 0;
  std::map<int64_t, std::string> graphs;
  int64_t next_step = 1;
};

Client* GetClient() {
  static Client* c = new Client;
  return c;
}

void BM_RecvTensor(benchmark::State& state) {
  const int64_t bytes = state.range(0);
  Client* c = GetClient();
  const std::string& handle = c->GraphFor(bytes / 4);
  const std::string key = Rendezvous::CreateKey(
      c->device, c->incarnation, "/job:client/replica:0/task:0/device:CPU:0", "edge_c",
      FrameAndIter());
  for (auto _ : state) {
    const int64_t step = c->next_step++;
    RunGraphRequest run;
    run.set_graph_handle(handle);
    run.set_step_id(step);
    RunGraphResponse run_resp;
    absl::Status s = c->Call<RunGraphRequest, RunGraphResponse>(
        [c](auto... a) { c->worker->RunGraphAsync(a...); }, run, &run_resp);
    RecvTensorRequest req;
    req.set_step_id(step);
    req.set_rendezvous_key(key);
    RecvTensorResult result;
    const auto start = std::chrono::steady_clock::now();
    if (s.ok()) {
      s = c->Call<RecvTensorRequest, RecvTensorResult>(
          [c](auto... a) { c->worker->RecvTensorAsync(a...); }, req, &result);
    }
    const auto end = std::chrono::steady_clock::now();
    state.SetIterationTime(std::chrono::duration<double>(end - start).count());
    if (!s.ok() || result.tensor.TotalBytes() != static_cast<size_t>(bytes)) {
      state.SkipWithError(s.ok() ? "wrong size" : std::string(s.message()).c_str());
      break;
    }
    CleanupGraphRequest cleanup;
    cleanup.set_step_id(step);
    CleanupGraphResponse cleanup_resp;
    c->Call<CleanupGraphRequest, CleanupGraphResponse>(
        [c](auto... a) { c->worker->CleanupGraphAsync(a...); }, cleanup, &cleanup_resp);
  }
  state.SetBytesProcessed(state.iterations() * bytes);
}
BENCHMARK(BM_RecvTensor)->Arg(4)->Arg(1 << 20)->Arg(kMaxBytes)->UseManualTime()->Unit(
    benchmark::kMillisecond);

void BM_RawTcp(benchmark::State& state) {
  const int64_t bytes = state.range(0);
  static int fd = -1;
  if (fd < 0) {
    fd = socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(g_tcp_port);
    if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
      state.SkipWithError("connect");
      return;
    }
  }
  // Arg 1: 0 reads into a fresh buffer per copy (new pages each time for 64 MiB), 1 into one
  // buffer reused across copies (the fastest a raw copy gets; RecvTensor's tensors reuse memory
  // through sg's host memory cache).
  const bool reuse = state.range(1) != 0;
  std::unique_ptr<char[]> kept;
  if (reuse) {
    kept.reset(new char[bytes]);
    std::memset(kept.get(), 0, bytes);
  }
  for (auto _ : state) {
    std::unique_ptr<char[]> fresh;
    if (!reuse) fresh.reset(new char[bytes]);
    char* const buf = reuse ? kept.get() : fresh.get();
    int64_t n = bytes;
    (void)!write(fd, &n, sizeof(n));
    int64_t got = 0;
    while (got < bytes) {
      ssize_t r = read(fd, buf + got, bytes - got);
      if (r <= 0) break;
      got += r;
    }
    benchmark::DoNotOptimize(buf);
    if (got != bytes) {
      state.SkipWithError("short read");
      break;
    }
  }
  state.SetBytesProcessed(state.iterations() * bytes);
}
BENCHMARK(BM_RawTcp)
    ->ArgNames({"bytes", "reuse"})
    ->ArgsProduct({{4, 1 << 20, kMaxBytes}, {0, 1}})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace sg

int main(int argc, char** argv) {
  // SG_BENCH_REUSE_MEMORY=1: large blocks come from (and go back to) the heap instead of fresh
  // mmaps, so neither side pays page faults for each new 64 MiB buffer (both benchmarks alike).
  if (const char* v = std::getenv("SG_BENCH_REUSE_MEMORY"); v != nullptr && v[0] == '1') {
    mallopt(M_MMAP_THRESHOLD, 1 << 30);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
  }
  sg::g_grpc_port = sg::FreePort();
  sg::g_tcp_port = sg::FreePort();
  int fds[2];
  if (pipe(fds) != 0) return 1;
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    sg::ServeForever(fds[1]);
  }
  close(fds[1]);
  char ok = 0;
  if (read(fds[0], &ok, 1) != 1 || !ok) {
    std::fprintf(stderr, "recv_tensor_bench: the server process did not start\n");
    kill(pid, SIGKILL);
    return 1;
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  kill(pid, SIGKILL);
  return 0;
}
