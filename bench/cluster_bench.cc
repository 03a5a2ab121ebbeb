// Tensors between tasks, through the C API: a cluster of two tasks (/job:worker/task:0 and
// /job:worker/task:1) served in this process by TF_NewServer on loopback, and a session whose
// target is task 0's server (TF_ServerTarget), as a TensorFlow 1.x client of a cluster would make.
// Issue 15's "tensors between tasks" figures:
//   ScalarStepAcrossTasks    a fed scalar plus a constant on task 1, fetched: one step whose
//                            tensors cross between the tasks both ways
//   Fetch64MiBFromTask1      a 64 MiB float tensor made by Fill on task 1 and fetched
//   Fetch64MiBFromTask0      the same made on task 0, the session's own task
//   RawTcp64MiB              64 MiB written by one thread into a loopback TCP socket and read
//                            by another into a buffer reused between iterations: the floor
//                            the cross-task fetch is held to (the same code in both builds)
// Every step's fetched value is checked (its last element is the fed scalar). Times are per
// iteration (wall clock); the median of each benchmark's iterations is its `median_us` counter.
//
// The same source builds against sg (sg/tf_c_api.h, libsg: cluster_bench_sg) and against
// TensorFlow's C library (SG_BENCH_TENSORFLOW: cluster_bench_tf); bench/cluster_bench.sh runs
// them in turn and reports medians and ratios.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <benchmark/benchmark.h>

#ifdef SG_BENCH_TENSORFLOW
#include "tensorflow/c/c_api.h"
#else
#include "sg/tf_c_api.h"
#endif

namespace {

constexpr int64_t kBigElements = int64_t{16} << 20;  // 64 MiB of float

// A TCP socket bound to a free loopback port, and in *addr its address; -1 on failure (the
// caller closes the socket either way it is not -1).
int BoundLoopbackSocket(sockaddr_in* addr) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  *addr = sockaddr_in{};
  addr->sin_family = AF_INET;
  addr->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(*addr);
  if (fd >= 0 && (bind(fd, reinterpret_cast<sockaddr*>(addr), sizeof(*addr)) != 0 ||
                  getsockname(fd, reinterpret_cast<sockaddr*>(addr), &len) != 0)) {
    close(fd);
    return -1;
  }
  return fd;
}

// A free loopback port: bound, read back, closed (a later bind may race another process for
// it; this is a benchmark). -1 on failure.
int FreePort() {
  sockaddr_in a;
  const int fd = BoundLoopbackSocket(&a);
  if (fd < 0) return -1;
  close(fd);
  return ntohs(a.sin_port);
}

// Protocol-buffer wire encoding, for the few fields a ServerDef needs (tensorflow_server.proto:
// ServerDef cluster = 1, job_name = 2, task_index = 3, protocol = 5; cluster.proto: ClusterDef
// job = 1; JobDef name = 1, tasks = 2, a map<int32, string> whose entries are key = 1,
// value = 2).
void Varint(uint64_t v, std::string* out) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}
void Bytes(int field, const std::string& bytes, std::string* out) {
  Varint(static_cast<uint64_t>(field) << 3 | 2, out);
  Varint(bytes.size(), out);
  *out += bytes;
}
void Int(int field, uint64_t v, std::string* out) {
  Varint(static_cast<uint64_t>(field) << 3, out);
  Varint(v, out);
}

std::string ServerDef(const std::vector<int>& ports, int task) {
  std::string job;
  Bytes(1, "worker", &job);
  for (size_t i = 0; i < ports.size(); ++i) {
    std::string entry;
    Int(1, i, &entry);
    Bytes(2, "localhost:" + std::to_string(ports[i]), &entry);
    Bytes(2, entry, &job);
  }
  std::string cluster;
  Bytes(1, job, &cluster);
  std::string def;
  Bytes(1, cluster, &def);
  Bytes(2, "worker", &def);
  Int(3, task, &def);
  Bytes(5, "grpc", &def);
  return def;
}

// The two servers, started once for the process (TensorFlow's servers cannot be stopped and
// started again on the same ports within a process).
struct Cluster {
  std::vector<TF_Server*> servers;
  std::string target;
  std::string error;

  Cluster() {
    TF_Status* status = TF_NewStatus();
    const std::vector<int> ports = {FreePort(), FreePort()};
    for (int task = 0; task < 2; ++task) {
      const std::string def = ServerDef(ports, task);
      TF_Server* server = TF_NewServer(def.data(), def.size(), status);
      if (TF_GetCode(status) == TF_OK) TF_ServerStart(server, status);
      if (TF_GetCode(status) != TF_OK) {
        error = std::string("server of task ") + std::to_string(task) + ": " + TF_Message(status);
        break;
      }
      servers.push_back(server);
    }
    if (error.empty()) target = TF_ServerTarget(servers[0]);
    TF_DeleteStatus(status);
  }
};

Cluster* TheCluster() {
  static Cluster* cluster = new Cluster();  // never stopped: the process ends with it
  return cluster;
}

// A session on the cluster, over a graph its benchmark builds with the helpers below; every
// step feeds the float scalar placeholder `x` and fetches `out`, `elements` floats whose last is
// the fed value plus `added`.
struct ClusterSession {
  TF_Status* status = TF_NewStatus();
  TF_Graph* graph = TF_NewGraph();
  TF_Session* session = nullptr;
  TF_Operation* x = nullptr;
  TF_Operation* out = nullptr;
  int64_t elements = 1;
  float added = 0;
  float fed = 0;  // the last step's value of x
  std::string error;

  ~ClusterSession() {
    if (session != nullptr) {
      TF_CloseSession(session, status);
      TF_DeleteSession(session, status);
    }
    TF_DeleteGraph(graph);
    TF_DeleteStatus(status);
  }

  bool Failed(const char* what) {
    if (TF_GetCode(status) == TF_OK) return false;
    error = std::string(what) + ": " + TF_Message(status);
    return true;
  }

  TF_Operation* Placeholder(const char* name, const char* device) {
    TF_OperationDescription* d = TF_NewOperation(graph, "Placeholder", name);
    TF_SetDevice(d, device);
    TF_SetAttrType(d, "dtype", TF_FLOAT);
    return TF_FinishOperation(d, status);
  }

  TF_Operation* Const(const char* name, const char* device, TF_Tensor* value) {
    TF_OperationDescription* d = TF_NewOperation(graph, "Const", name);
    TF_SetDevice(d, device);
    TF_SetAttrType(d, "dtype", TF_TensorType(value));
    TF_SetAttrTensor(d, "value", value, status);
    TF_Operation* op = TF_GetCode(status) == TF_OK ? TF_FinishOperation(d, status) : nullptr;
    TF_DeleteTensor(value);
    return op;
  }

  TF_Operation* Binary(const char* type, const char* name, const char* device, TF_Operation* a,
                       TF_Operation* b) {
    TF_OperationDescription* d = TF_NewOperation(graph, type, name);
    TF_SetDevice(d, device);
    TF_AddInput(d, TF_Output{a, 0});
    TF_AddInput(d, TF_Output{b, 0});
    return TF_FinishOperation(d, status);
  }

  bool Start() {
    Cluster* c = TheCluster();
    if (!c->error.empty()) {
      error = c->error;
      return false;
    }
    TF_SessionOptions* opts = TF_NewSessionOptions();
    TF_SetTarget(opts, c->target.c_str());
    session = TF_NewSession(graph, opts, status);
    TF_DeleteSessionOptions(opts);
    return !Failed("session");
  }

  // One step, fed one more than the last; its fetched tensor is checked.
  bool Step() {
    fed += 1;
    TF_Tensor* feed = TF_AllocateTensor(TF_FLOAT, nullptr, 0, sizeof(float));
    *static_cast<float*>(TF_TensorData(feed)) = fed;
    TF_Output in{x, 0};
    TF_Output fetch{out, 0};
    TF_Tensor* result = nullptr;
    TF_SessionRun(session, nullptr, &in, &feed, 1, &fetch, &result, 1, nullptr, 0, nullptr,
                  status);
    TF_DeleteTensor(feed);
    if (Failed("step")) return false;
    bool ok = TF_TensorByteSize(result) == static_cast<size_t>(elements) * sizeof(float) &&
              static_cast<const float*>(TF_TensorData(result))[elements - 1] == fed + added;
    TF_DeleteTensor(result);
    if (!ok) error = "the fetched tensor is wrong";
    return ok;
  }
};

// Times `step` per iteration and reports the median as `median_us`; `error` says why when a step
// fails.
template <typename Step>
void Timed(benchmark::State& state, Step step, const std::string* error) {
  std::vector<double> micros;
  for (auto _ : state) {
    auto start = std::chrono::steady_clock::now();
    if (!step()) {
      state.SkipWithError(error->c_str());
      return;
    }
    micros.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
            .count());
  }
  std::sort(micros.begin(), micros.end());
  if (!micros.empty()) state.counters["median_us"] = micros[micros.size() / 2];
}

void BM_ScalarStepAcrossTasks(benchmark::State& state) {
  ClusterSession s;
  TF_Tensor* one = TF_AllocateTensor(TF_FLOAT, nullptr, 0, sizeof(float));
  *static_cast<float*>(TF_TensorData(one)) = 1.0f;
  TF_Operation* c = s.Const("one", "/job:worker/task:1", one);
  if (c != nullptr) s.x = s.Placeholder("x", "/job:worker/task:0");
  if (s.x != nullptr) s.out = s.Binary("AddV2", "y", "/job:worker/task:1", s.x, c);
  s.added = 1.0f;
  if (s.Failed("graph") || !s.Start() || !s.Step()) {
    state.SkipWithError(s.error.c_str());
    return;
  }
  Timed(state, [&] { return s.Step(); }, &s.error);
}
BENCHMARK(BM_ScalarStepAcrossTasks)->UseRealTime()->MinTime(2.0);

void FetchBig(benchmark::State& state, const char* device) {
  ClusterSession s;
  const int64_t rank1 = 1;
  TF_Tensor* dims = TF_AllocateTensor(TF_INT64, &rank1, 1, sizeof(int64_t));
  *static_cast<int64_t*>(TF_TensorData(dims)) = kBigElements;
  TF_Operation* d = s.Const("dims", device, dims);
  if (d != nullptr) s.x = s.Placeholder("x", device);
  if (s.x != nullptr) s.out = s.Binary("Fill", "big", device, d, s.x);
  s.elements = kBigElements;
  if (s.Failed("graph") || !s.Start() || !s.Step()) {
    state.SkipWithError(s.error.c_str());
    return;
  }
  Timed(state, [&] { return s.Step(); }, &s.error);
}

void BM_Fetch64MiBFromTask1(benchmark::State& state) { FetchBig(state, "/job:worker/task:1"); }
BENCHMARK(BM_Fetch64MiBFromTask1)->UseRealTime()->MinTime(2.0);

void BM_Fetch64MiBFromTask0(benchmark::State& state) { FetchBig(state, "/job:worker/task:0"); }
BENCHMARK(BM_Fetch64MiBFromTask0)->UseRealTime()->MinTime(2.0);

void BM_RawTcp64MiB(benchmark::State& state) {
  std::string error = "loopback socket setup failed";
  sockaddr_in a;
  const int listener = BoundLoopbackSocket(&a);
  int reader = -1;
  const int writer = socket(AF_INET, SOCK_STREAM, 0);
  if (listener >= 0 && listen(listener, 1) == 0 &&
      connect(writer, reinterpret_cast<sockaddr*>(&a), sizeof(a)) == 0) {
    reader = accept(listener, nullptr, nullptr);
  }
  if (listener >= 0) close(listener);
  if (reader < 0) {
    close(writer);
    state.SkipWithError(error.c_str());
    return;
  }
  const size_t bytes = kBigElements * sizeof(float);
  std::vector<char> src(bytes, 1), dst(bytes, 0);
  Timed(state,
        [&] {
          std::thread send([&] {
            for (size_t done = 0; done < bytes;) {
              ssize_t n = write(writer, src.data() + done, bytes - done);
              if (n <= 0) {
                shutdown(writer, SHUT_WR);  // the reader sees the end instead of waiting
                return;
              }
              done += n;
            }
          });
          size_t got = 0;
          while (got < bytes) {
            ssize_t n = read(reader, dst.data() + got, bytes - got);
            if (n <= 0) break;
            got += n;
          }
          send.join();
          error = "short read";
          return got == bytes && dst[bytes - 1] == 1;
        },
        &error);
  close(reader);
  close(writer);
}
BENCHMARK(BM_RawTcp64MiB)->UseRealTime()->MinTime(2.0);

}  // namespace

BENCHMARK_MAIN();
