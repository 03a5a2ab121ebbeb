// Benchmarks of the local runtime: MatMul against plain library products in the same run, an MLP
// step, graph import and first run of a real 529-node graph, and the executor's cost per node.
#include <fstream>
#include <random>
#include <sstream>

#include <benchmark/benchmark.h>

#include "Eigen/Dense"
#include "core/framework/attr_value_util.h"
#include "core/framework/device.h"
#include "core/graph/graph_constructor.h"
#include "core/runtime/session.h"
#ifdef SG_BENCH_HAVE_DNNL
#include <omp.h>

#include "dnnl.h"
#endif

namespace sg {
namespace {

NodeDef MakeNode(const std::string& name, const std::string& op, std::vector<std::string> in,
                 DataType t = DT_FLOAT) {
  NodeDef n;
  n.set_name(name);
  n.set_op(op);
  for (auto& i : in) n.add_input(i);
  AddNodeAttr(op == "Placeholder" || op == "Const" ? "dtype" : "T", t, &n);
  return n;
}

NodeDef ConstNode(const std::string& name, const Tensor& value) {
  NodeDef n = MakeNode(name, "Const", {});
  AddNodeAttr("value", value, &n);
  return n;
}

Tensor Random(std::vector<int64_t> shape, uint32_t seed) {
  Tensor t(DT_FLOAT, TensorShape(shape));
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1, 1);
  for (int64_t i = 0; i < t.NumElements(); ++i) t.data<float>()[i] = u(rng);
  return t;
}

std::unique_ptr<Session> MakeSession(const GraphDef& g, int intra_threads) {
  SessionOptions opts;
  opts.config.set_intra_op_parallelism_threads(intra_threads);
  opts.config.set_inter_op_parallelism_threads(2);
  std::unique_ptr<Session> s;
  if (!NewSession(opts, &s).ok() || !s->Create(g).ok()) std::abort();
  return s;
}

constexpr int kN = 1024;
const double kMatMulFlops = 2.0 * kN * kN * kN;

void BM_SgMatMul(benchmark::State& state) {
  const int threads = state.range(0);
  GraphDef g;
  *g.add_node() = MakeNode("a", "Placeholder", {});
  *g.add_node() = MakeNode("b", "Placeholder", {});
  *g.add_node() = MakeNode("c", "MatMul", {"a", "b"});
  auto s = MakeSession(g, threads);
  Tensor a = Random({kN, kN}, 1), b = Random({kN, kN}, 2);
  std::vector<Tensor> out;
  for (auto _ : state) {
    if (!s->Run({{"a:0", a}, {"b:0", b}}, {"c:0"}, {}, &out).ok()) state.SkipWithError("run");
  }
  state.counters["GFLOP/s"] =
      benchmark::Counter(kMatMulFlops, benchmark::Counter::kIsIterationInvariantRate,
                         benchmark::Counter::kIs1000);
}
BENCHMARK(BM_SgMatMul)->Arg(1)->Arg(2)->UseRealTime()->MinTime(2.0);

void BM_EigenContraction(benchmark::State& state) {
  const int threads = state.range(0);
  IntraOpThreadPool pool(threads);
  Tensor a = Random({kN, kN}, 1), b = Random({kN, kN}, 2), c(DT_FLOAT, TensorShape({kN, kN}));
  Eigen::array<Eigen::IndexPair<Eigen::DenseIndex>, 1> dims{Eigen::IndexPair<Eigen::DenseIndex>(1, 0)};
  for (auto _ : state) {
    c.matrix<float>().device(*pool.device()) = a.matrix<float>().contract(b.matrix<float>(), dims);
    benchmark::DoNotOptimize(c.data<float>());
  }
  state.counters["GFLOP/s"] =
      benchmark::Counter(kMatMulFlops, benchmark::Counter::kIsIterationInvariantRate,
                         benchmark::Counter::kIs1000);
}
BENCHMARK(BM_EigenContraction)->Arg(1)->Arg(2)->UseRealTime()->MinTime(2.0);

void BM_EigenMatrixProduct(benchmark::State& state) {
  using Mat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  Mat a = Mat::Random(kN, kN), b = Mat::Random(kN, kN), c(kN, kN);
  // sg_core brings OpenMP (for oneDNN), and Eigen then parallelizes its product over all cores
  // unless told otherwise.
  Eigen::setNbThreads(state.range(0));
  for (auto _ : state) {
    c.noalias() = a * b;
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["GFLOP/s"] =
      benchmark::Counter(kMatMulFlops, benchmark::Counter::kIsIterationInvariantRate,
                         benchmark::Counter::kIs1000);
}
BENCHMARK(BM_EigenMatrixProduct)->Arg(1)->Arg(2)->UseRealTime()->MinTime(2.0);

// MatMul in double: sg's Eigen contraction (oneDNN takes only float), so the product is compiled
// with sg_core's flags (its -ffp-contract setting among them).
void BM_SgMatMulDouble(benchmark::State& state) {
  GraphDef g;
  *g.add_node() = MakeNode("a", "Placeholder", {}, DT_DOUBLE);
  *g.add_node() = MakeNode("b", "Placeholder", {}, DT_DOUBLE);
  *g.add_node() = MakeNode("c", "MatMul", {"a", "b"}, DT_DOUBLE);
  auto s = MakeSession(g, state.range(0));
  Tensor a(DT_DOUBLE, TensorShape({kN, kN})), b(DT_DOUBLE, TensorShape({kN, kN}));
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int64_t i = 0; i < a.NumElements(); ++i) a.data<double>()[i] = u(rng);
  for (int64_t i = 0; i < b.NumElements(); ++i) b.data<double>()[i] = u(rng);
  std::vector<Tensor> out;
  for (auto _ : state) {
    if (!s->Run({{"a:0", a}, {"b:0", b}}, {"c:0"}, {}, &out).ok()) state.SkipWithError("run");
  }
  state.counters["GFLOP/s"] =
      benchmark::Counter(kMatMulFlops, benchmark::Counter::kIsIterationInvariantRate,
                         benchmark::Counter::kIs1000);
}
BENCHMARK(BM_SgMatMulDouble)->Arg(1)->Arg(2)->UseRealTime()->MinTime(2.0);

// Conv2D, float, NHWC: 8x32x32x32 input, 3x3x32x64 filter, stride 1, SAME (Eigen's spatial
// convolution in sg_core).
void BM_SgConv2D(benchmark::State& state) {
  GraphDef g;
  *g.add_node() = MakeNode("x", "Placeholder", {});
  *g.add_node() = ConstNode("f", Random({3, 3, 32, 64}, 8));
  NodeDef conv = MakeNode("y", "Conv2D", {"x", "f"});
  AddNodeAttr("strides", std::vector<int64_t>{1, 1, 1, 1}, &conv);
  AddNodeAttr("padding", std::string("SAME"), &conv);
  *g.add_node() = conv;
  auto s = MakeSession(g, state.range(0));
  Tensor x = Random({8, 32, 32, 32}, 9);
  std::vector<Tensor> out;
  for (auto _ : state) {
    if (!s->Run({{"x:0", x}}, {"y:0"}, {}, &out).ok()) state.SkipWithError("run");
  }
  state.counters["GFLOP/s"] = benchmark::Counter(
      2.0 * 8 * 32 * 32 * 64 * 3 * 3 * 32, benchmark::Counter::kIsIterationInvariantRate,
      benchmark::Counter::kIs1000);
}
BENCHMARK(BM_SgConv2D)->Arg(1)->Arg(2)->UseRealTime()->MinTime(2.0);

#ifdef SG_BENCH_HAVE_DNNL
void BM_DnnlSgemm(benchmark::State& state) {
  omp_set_num_threads(state.range(0));
  Tensor a = Random({kN, kN}, 1), b = Random({kN, kN}, 2), c(DT_FLOAT, TensorShape({kN, kN}));
  for (auto _ : state) {
    dnnl_sgemm('N', 'N', kN, kN, kN, 1.0f, a.data<float>(), kN, b.data<float>(), kN, 0.0f,
               c.data<float>(), kN);
    benchmark::DoNotOptimize(c.data<float>());
  }
  state.counters["GFLOP/s"] =
      benchmark::Counter(kMatMulFlops, benchmark::Counter::kIsIterationInvariantRate,
                         benchmark::Counter::kIs1000);
}
BENCHMARK(BM_DnnlSgemm)->Arg(1)->Arg(2)->UseRealTime()->MinTime(2.0);
#endif

// 64x784 -> 512 ReLU -> 10 softmax, weights as constants.
void BM_MlpStep(benchmark::State& state) {
  GraphDef g;
  *g.add_node() = MakeNode("x", "Placeholder", {});
  *g.add_node() = ConstNode("w1", Random({784, 512}, 3));
  *g.add_node() = ConstNode("b1", Random({512}, 4));
  *g.add_node() = ConstNode("w2", Random({512, 10}, 5));
  *g.add_node() = ConstNode("b2", Random({10}, 6));
  *g.add_node() = MakeNode("h", "MatMul", {"x", "w1"});
  *g.add_node() = MakeNode("hb", "BiasAdd", {"h", "b1"});
  *g.add_node() = MakeNode("r", "Relu", {"hb"});
  *g.add_node() = MakeNode("o", "MatMul", {"r", "w2"});
  *g.add_node() = MakeNode("ob", "BiasAdd", {"o", "b2"});
  *g.add_node() = MakeNode("p", "Softmax", {"ob"});
  auto s = MakeSession(g, state.range(0));
  Tensor x = Random({64, 784}, 7);
  std::vector<Tensor> out;
  for (auto _ : state) {
    if (!s->Run({{"x:0", x}}, {"p:0"}, {}, &out).ok()) state.SkipWithError("run");
  }
}
BENCHMARK(BM_MlpStep)->Arg(2)->Unit(benchmark::kMicrosecond)->UseRealTime()->MinTime(2.0);

// Import of tf2onnx_lstm_frozen.pb (529 nodes), session creation and the first run (which builds
// and caches the executor), then later runs.
std::string LstmBytes() {
  std::ifstream f(std::string(SG_SHARED_TESTDATA) + "/tf2onnx_lstm_frozen.pb", std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

Tensor Ramp() {
  Tensor t(DT_FLOAT, TensorShape({1, 784}));
  for (int i = 0; i < 784; ++i) t.data<float>()[i] = 1.0f + i;
  return t;
}

void BM_LstmImportAndFirstRun(benchmark::State& state) {
  std::string bytes = LstmBytes();
  if (bytes.empty()) {
    state.SkipWithError("../shared/testdata is not present");
    return;
  }
  std::vector<Tensor> out;
  for (auto _ : state) {
    GraphDef gdef;
    if (!ParseGraphDef(bytes, &gdef).ok()) state.SkipWithError("parse");
    auto s = MakeSession(gdef, 2);
    if (!s->Run({{"X:0", Ramp()}, {"keep_prob:0", Tensor::Scalar<float>(1)}}, {"output:0"}, {},
                &out)
             .ok()) {
      state.SkipWithError("run");
    }
  }
}
BENCHMARK(BM_LstmImportAndFirstRun)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_LstmLaterRuns(benchmark::State& state) {
  std::string bytes = LstmBytes();
  if (bytes.empty()) {
    state.SkipWithError("../shared/testdata is not present");
    return;
  }
  GraphDef gdef;
  ParseGraphDef(bytes, &gdef).IgnoreError();
  auto s = MakeSession(gdef, 2);
  std::vector<Tensor> out;
  for (auto _ : state) {
    s->Run({{"X:0", Ramp()}, {"keep_prob:0", Tensor::Scalar<float>(1)}}, {"output:0"}, {}, &out)
        .IgnoreError();
  }
}
BENCHMARK(BM_LstmLaterRuns)->Unit(benchmark::kMicrosecond)->UseRealTime();

// A chain of N scalar AddV2 nodes: time per step / N is the executor's cost per node.
void BM_ExecutorCostPerNode(benchmark::State& state) {
  const int n = state.range(0);
  GraphDef g;
  *g.add_node() = MakeNode("x", "Placeholder", {});
  *g.add_node() = ConstNode("one", Tensor::Scalar<float>(1));
  std::string prev = "x";
  for (int i = 0; i < n; ++i) {
    std::string name = absl::StrCat("a", i);
    *g.add_node() = MakeNode(name, "AddV2", {prev, "one"});
    prev = name;
  }
  auto s = MakeSession(g, 1);
  std::vector<Tensor> out;
  for (auto _ : state) {
    s->Run({{"x:0", Tensor::Scalar<float>(0)}}, {prev + ":0"}, {}, &out).IgnoreError();
  }
  state.counters["ns/node"] = benchmark::Counter(
      n, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert,
      benchmark::Counter::kIs1000);
}
BENCHMARK(BM_ExecutorCostPerNode)->Arg(1000)->Unit(benchmark::kMicrosecond)->UseRealTime();

}  // namespace
}  // namespace sg

BENCHMARK_MAIN();
