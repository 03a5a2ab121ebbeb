// One training step through the C API: TensorFlow-written training graphs
// (bench/make_train_graphs.py: the digits MLP with Adam, a small CNN with momentum, batch 64)
// imported with TF_GraphImportGraphDef, initialized, then timed one TF_SessionRun of the train op
// per iteration, with the batch fed each time.
//
// The same source builds against sg (sg/tf_c_api.h, libsg: train_step_bench_sg) and against
// TensorFlow's C library (SG_BENCH_TENSORFLOW, the tensorflow-cpu wheel's headers and
// libtensorflow_cc.so.2: train_step_bench_tf); bench/train_step_bench.sh runs both in turn and
// reports medians and their ratio. TRAIN_BENCH_GRAPHS names the directory of the .pb files.
// Both run with their default session options (TensorFlow: its thread pools sized to the
// machine; sg: likewise).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#ifdef SG_BENCH_TENSORFLOW
#include "tensorflow/c/c_api.h"
#else
#include "sg/tf_c_api.h"
#endif

namespace {

std::string GraphPath(const std::string& name) {
  const char* dir = std::getenv("TRAIN_BENCH_GRAPHS");
  return std::string(dir != nullptr ? dir : ".") + "/" + name + ".pb";
}

struct Trainer {
  TF_Status* status = TF_NewStatus();
  TF_Graph* graph = TF_NewGraph();
  TF_SessionOptions* options = TF_NewSessionOptions();
  TF_Session* session = nullptr;
  std::vector<TF_Tensor*> feeds;
  std::vector<TF_Output> inputs;
  const TF_Operation* train = nullptr;
  std::string error;

  ~Trainer() {
    for (TF_Tensor* t : feeds) TF_DeleteTensor(t);
    if (session != nullptr) {
      TF_CloseSession(session, status);
      TF_DeleteSession(session, status);
    }
    TF_DeleteSessionOptions(options);
    TF_DeleteGraph(graph);
    TF_DeleteStatus(status);
  }

  bool Failed(const char* what) {
    if (TF_GetCode(status) == TF_OK) return false;
    error = std::string(what) + ": " + TF_Message(status);
    return true;
  }

  // Imports the graph, runs `init`, and makes a batch: x of `x_dims`, labels in [0, 10).
  bool Start(const std::string& name, const std::vector<int64_t>& x_dims) {
    std::ifstream in(GraphPath(name), std::ios::binary);
    if (!in) {
      error = "cannot read " + GraphPath(name) + " (set TRAIN_BENCH_GRAPHS)";
      return false;
    }
    std::stringstream bytes;
    bytes << in.rdbuf();
    const std::string def = bytes.str();
    TF_Buffer* buf = TF_NewBufferFromString(def.data(), def.size());
    TF_ImportGraphDefOptions* opts = TF_NewImportGraphDefOptions();
    TF_GraphImportGraphDef(graph, buf, opts, status);
    TF_DeleteImportGraphDefOptions(opts);
    TF_DeleteBuffer(buf);
    if (Failed("import")) return false;
    session = TF_NewSession(graph, options, status);
    if (Failed("session")) return false;
    const TF_Operation* init = TF_GraphOperationByName(graph, "init");
    train = TF_GraphOperationByName(graph, "train");
    TF_Operation* x = TF_GraphOperationByName(graph, "x");
    TF_Operation* labels = TF_GraphOperationByName(graph, "labels");
    if (init == nullptr || train == nullptr || x == nullptr || labels == nullptr) {
      error = "the graph lacks init, train, x or labels";
      return false;
    }
    TF_SessionRun(session, nullptr, nullptr, nullptr, 0, nullptr, nullptr, 0, &init, 1, nullptr,
                  status);
    if (Failed("init")) return false;

    std::mt19937 rng(1);
    std::uniform_real_distribution<float> pixel(0.0f, 1.0f);
    int64_t n = 1;
    for (int64_t d : x_dims) n *= d;
    TF_Tensor* xv = TF_AllocateTensor(TF_FLOAT, x_dims.data(), static_cast<int>(x_dims.size()),
                                      n * sizeof(float));
    for (int64_t i = 0; i < n; ++i) static_cast<float*>(TF_TensorData(xv))[i] = pixel(rng);
    const int64_t batch = x_dims[0];
    TF_Tensor* yv = TF_AllocateTensor(TF_INT32, &batch, 1, batch * sizeof(int32_t));
    for (int64_t i = 0; i < batch; ++i) static_cast<int32_t*>(TF_TensorData(yv))[i] = rng() % 10;
    feeds = {xv, yv};
    inputs = {TF_Output{x, 0}, TF_Output{labels, 0}};
    return true;
  }

  bool Step() {
    TF_SessionRun(session, nullptr, inputs.data(), feeds.data(), 2, nullptr, nullptr, 0, &train, 1,
                  nullptr, status);
    return !Failed("train step");
  }
};

void Run(benchmark::State& state, const std::string& name, const std::vector<int64_t>& x_dims) {
  Trainer t;
  if (!t.Start(name, x_dims) || !t.Step()) {  // one step before timing: first-run costs
    state.SkipWithError(t.error.c_str());
    return;
  }
  for (auto _ : state) {
    if (!t.Step()) {
      state.SkipWithError(t.error.c_str());
      break;
    }
  }
}

void BM_TrainStep_DigitsMlpAdam(benchmark::State& state) {
  Run(state, "digits_mlp_adam", {64, 64});
}
BENCHMARK(BM_TrainStep_DigitsMlpAdam)->Unit(benchmark::kMicrosecond)->UseRealTime();

void BM_TrainStep_CnnMomentum(benchmark::State& state) {
  Run(state, "cnn_momentum", {64, 28, 28, 1});
}
BENCHMARK(BM_TrainStep_CnnMomentum)->Unit(benchmark::kMicrosecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
