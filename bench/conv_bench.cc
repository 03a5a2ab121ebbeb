// Convolution and pooling kernels at the shapes of MobileNetV2, ResNet50 and the MNIST CNN, one
// node per session (input fed, weights as Const nodes), float, NHWC. The first argument picks the
// shape, the second the intra-op threads; Conv2D and _FusedConv2D take a third, 1 to set the
// `_sg_const_filter` attr the graph optimiser puts on nodes whose filter is a Const.
// SG_ONEDNN_CONV=0 in the environment runs sg's own loops instead of oneDNN's primitives.
#include <random>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "core/framework/attr_value_util.h"
#include "core/runtime/session.h"

namespace sg {
namespace {

NodeDef MakeNode(const std::string& name, const std::string& op, std::vector<std::string> in) {
  NodeDef n;
  n.set_name(name);
  n.set_op(op);
  for (auto& i : in) n.add_input(i);
  AddNodeAttr(op == "Placeholder" || op == "Const" ? "dtype" : "T", DT_FLOAT, &n);
  return n;
}

Tensor Random(std::vector<int64_t> shape, uint32_t seed, float lo = -1, float hi = 1) {
  Tensor t(DT_FLOAT, TensorShape(shape));
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(lo, hi);
  for (int64_t i = 0; i < t.NumElements(); ++i) t.data<float>()[i] = u(rng);
  return t;
}

NodeDef ConstNode(const std::string& name, const Tensor& value) {
  NodeDef n;
  n.set_name(name);
  n.set_op("Const");
  AddNodeAttr("dtype", value.dtype(), &n);
  AddNodeAttr("value", value, &n);
  return n;
}

// Runs `op` (its inputs: "x", then the Const nodes named in `consts`) with x fed.
void RunOp(benchmark::State& state, const NodeDef& op, const Tensor& x,
           const std::vector<std::pair<std::string, Tensor>>& consts, int threads, double flops) {
  GraphDef g;
  *g.add_node() = MakeNode("x", "Placeholder", {});
  for (const auto& [name, value] : consts) *g.add_node() = ConstNode(name, value);
  *g.add_node() = op;
  SessionOptions opts;
  opts.config.set_intra_op_parallelism_threads(threads);
  opts.config.set_inter_op_parallelism_threads(1);
  std::unique_ptr<Session> s;
  if (!NewSession(opts, &s).ok() || !s->Create(g).ok()) {
    state.SkipWithError("session");
    return;
  }
  std::vector<Tensor> out;
  // The first run builds the kernels' primitives: not timed.
  if (!s->Run({{"x:0", x}}, {op.name() + ":0"}, {}, &out).ok()) {
    state.SkipWithError("first run");
    return;
  }
  for (auto _ : state) {
    absl::Status st = s->Run({{"x:0", x}}, {op.name() + ":0"}, {}, &out);
    if (!st.ok()) {
      state.SkipWithError(std::string(st.message()).c_str());
      break;
    }
  }
  if (flops > 0) {
    state.counters["GFLOP/s"] = benchmark::Counter(
        flops, benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
  }
}

void WindowAttrs(NodeDef* n, int64_t s, const std::string& padding) {
  AddNodeAttr("strides", std::vector<int64_t>{1, s, s, 1}, n);
  AddNodeAttr("padding", padding, n);
}

int64_t OutSize(int64_t in, int64_t s) { return (in + s - 1) / s; }  // SAME

// Depthwise: {n, h, w, c, k, stride, multiplier}.
struct DwShape {
  int64_t n, h, w, c, k, s, m;
};
const DwShape kDw[] = {
    {1, 112, 112, 32, 3, 1, 1},  // 0: MobileNetV2's first block
    {1, 112, 112, 96, 3, 2, 1},  // 1: its second, strided
    {1, 14, 14, 576, 3, 1, 1},   // 2: a late block
    {1, 56, 56, 32, 3, 1, 2},    // 3: multiplier 2
    {8, 56, 56, 32, 3, 1, 1},    // 4: batch 8
    {1, 7, 7, 960, 3, 1, 1},     // 5: MobileNetV2's last, small
};

void BM_DepthwiseConv2dNative(benchmark::State& state) {
  const DwShape& d = kDw[state.range(0)];
  NodeDef n = MakeNode("y", "DepthwiseConv2dNative", {"x", "f"});
  WindowAttrs(&n, d.s, "SAME");
  if (state.range(2)) AddNodeAttr("_sg_const_filter", true, &n);
  const double flops = 2.0 * d.n * OutSize(d.h, d.s) * OutSize(d.w, d.s) * d.c * d.m * d.k * d.k;
  RunOp(state, n, Random({d.n, d.h, d.w, d.c}, 1), {{"f", Random({d.k, d.k, d.c, d.m}, 2)}},
        state.range(1), flops);
}
BENCHMARK(BM_DepthwiseConv2dNative)
    ->ArgsProduct({{0, 1, 2, 3, 4, 5}, {1, 2}, {0, 1}})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

// The depthwise gradients at 8x28x28x64, 3x3, stride 1 and 2 (first argument).
void DepthwiseBackprop(benchmark::State& state, bool input) {
  const int32_t n = 8, h = 28, w = 28, c = 64, k = 3;
  const int32_t s = static_cast<int32_t>(state.range(0));
  const int64_t oh = OutSize(h, s), ow = OutSize(w, s);
  Tensor sizes(DT_INT32, TensorShape({4}));
  const std::vector<int32_t> dims = input ? std::vector<int32_t>{n, h, w, c}
                                          : std::vector<int32_t>{k, k, c, 1};
  for (int i = 0; i < 4; ++i) sizes.data<int32_t>()[i] = dims[i];
  NodeDef node = MakeNode("y", input ? "DepthwiseConv2dNativeBackpropInput"
                                     : "DepthwiseConv2dNativeBackpropFilter",
                          input ? std::vector<std::string>{"sizes", "f", "x"}
                                : std::vector<std::string>{"in", "sizes", "x"});
  WindowAttrs(&node, s, "SAME");
  std::vector<std::pair<std::string, Tensor>> consts = {{"sizes", sizes}};
  if (input) {
    consts.push_back({"f", Random({k, k, c, 1}, 2)});
  } else {
    consts.push_back({"in", Random({n, h, w, c}, 2)});
  }
  RunOp(state, node, Random({n, oh, ow, c}, 1), consts, state.range(1),
        2.0 * n * oh * ow * c * k * k);
}
void BM_DepthwiseBackpropInput(benchmark::State& state) { DepthwiseBackprop(state, true); }
void BM_DepthwiseBackpropFilter(benchmark::State& state) { DepthwiseBackprop(state, false); }
BENCHMARK(BM_DepthwiseBackpropInput)
    ->ArgsProduct({{1, 2}, {1, 2}})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
BENCHMARK(BM_DepthwiseBackpropFilter)
    ->ArgsProduct({{1, 2}, {1, 2}})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

// Conv2D: {n, h, w, c, k, out_c, stride}.
struct ConvShape {
  int64_t n, h, w, c, k, out_c, s;
};
const ConvShape kConv[] = {
    {1, 56, 56, 64, 3, 64, 1},    // 0: ResNet50's 3x3 at 56x56
    {1, 7, 7, 512, 3, 512, 1},    // 1: its 3x3 at 7x7 (a 9 MB filter)
    {1, 14, 14, 96, 1, 576, 1},   // 2: a MobileNetV2 expansion
    {1, 224, 224, 3, 7, 64, 2},   // 3: ResNet50's stem
    {64, 28, 28, 1, 5, 32, 1},    // 4: MNIST CNN's first layer, batch 64
    {1, 2, 2, 512, 1, 2048, 1},   // 5: ResNet50's last 1x1 at 64x64 input (2x2, a 4 MB filter)
    {1, 2, 2, 160, 1, 960, 1},    // 6: a MobileNetV2 expansion at 64x64 input
    {1, 4, 4, 96, 1, 576, 1},     // 7: another, 4x4
};

double ConvFlops(const ConvShape& d) {
  return 2.0 * d.n * OutSize(d.h, d.s) * OutSize(d.w, d.s) * d.out_c * d.k * d.k * d.c;
}

void BM_Conv2D(benchmark::State& state) {
  const ConvShape& d = kConv[state.range(0)];
  NodeDef n = MakeNode("y", "Conv2D", {"x", "f"});
  WindowAttrs(&n, d.s, "SAME");
  if (state.range(2)) AddNodeAttr("_sg_const_filter", true, &n);
  RunOp(state, n, Random({d.n, d.h, d.w, d.c}, 1), {{"f", Random({d.k, d.k, d.c, d.out_c}, 2)}},
        state.range(1), ConvFlops(d));
}
BENCHMARK(BM_Conv2D)
    ->ArgsProduct({{0, 1, 2, 3, 4, 5, 6, 7}, {1, 2}, {0, 1}})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

// _FusedConv2D with BiasAdd and Relu6 (fourth argument 0), or FusedBatchNorm and Relu (1).
void BM_FusedConv2D(benchmark::State& state) {
  const ConvShape& d = kConv[state.range(0)];
  const bool bn = state.range(3) == 1;
  std::vector<std::pair<std::string, Tensor>> consts = {
      {"f", Random({d.k, d.k, d.c, d.out_c}, 2)}, {"a0", Random({d.out_c}, 3)}};
  std::vector<std::string> inputs = {"x", "f", "a0"};
  if (bn) {
    consts.push_back({"a1", Random({d.out_c}, 4)});
    consts.push_back({"a2", Random({d.out_c}, 5)});
    consts.push_back({"a3", Random({d.out_c}, 6, 0.25, 2)});
    inputs.insert(inputs.end(), {"a1", "a2", "a3"});
  }
  NodeDef n = MakeNode("y", "_FusedConv2D", inputs);
  WindowAttrs(&n, d.s, "SAME");
  AddNodeAttr("num_args", static_cast<int64_t>(bn ? 4 : 1), &n);
  AddNodeAttr("TArgs", std::vector<DataType>(bn ? 4 : 1, DT_FLOAT), &n);
  AddNodeAttr("fused_ops",
              bn ? std::vector<std::string>{"FusedBatchNorm", "Relu"}
                 : std::vector<std::string>{"BiasAdd", "Relu6"},
              &n);
  if (state.range(2)) AddNodeAttr("_sg_const_filter", true, &n);
  RunOp(state, n, Random({d.n, d.h, d.w, d.c}, 1), consts, state.range(1), ConvFlops(d));
}
BENCHMARK(BM_FusedConv2D)
    ->ArgsProduct({{0, 1, 2, 4}, {1, 2}, {0, 1}, {0, 1}})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

// Conv2DBackpropInput and Conv2DBackpropFilter at the shapes of bench/make_train_graphs.py's CNN
// (batch 64, 5x5, SAME): {n, h, w, c, k, out_c, stride}.
const ConvShape kConvGrad[] = {
    {64, 28, 28, 1, 5, 16, 1},   // 0: its first layer (one input channel)
    {64, 14, 14, 16, 5, 32, 1},  // 1: its second
};

void ConvBackprop(benchmark::State& state, bool input) {
  const ConvShape& d = kConvGrad[state.range(0)];
  const int64_t oh = OutSize(d.h, d.s), ow = OutSize(d.w, d.s);
  // x is dy; the other operand (the filter, or the forward input) and the shape are Consts.
  NodeDef n = MakeNode("y", input ? "Conv2DBackpropInput" : "Conv2DBackpropFilter",
                       input ? std::vector<std::string>{"shape", "other", "x"}
                             : std::vector<std::string>{"other", "shape", "x"});
  WindowAttrs(&n, d.s, "SAME");
  Tensor shape(DT_INT32, TensorShape({4}));
  const std::vector<int64_t> dims = input ? std::vector<int64_t>{d.n, d.h, d.w, d.c}
                                          : std::vector<int64_t>{d.k, d.k, d.c, d.out_c};
  for (int i = 0; i < 4; ++i) shape.data<int32_t>()[i] = static_cast<int32_t>(dims[i]);
  const Tensor other =
      input ? Random({d.k, d.k, d.c, d.out_c}, 2) : Random({d.n, d.h, d.w, d.c}, 2);
  RunOp(state, n, Random({d.n, oh, ow, d.out_c}, 1), {{"shape", shape}, {"other", other}},
        state.range(1), ConvFlops(d));
}
void BM_Conv2DBackpropInput(benchmark::State& state) { ConvBackprop(state, true); }
void BM_Conv2DBackpropFilter(benchmark::State& state) { ConvBackprop(state, false); }
BENCHMARK(BM_Conv2DBackpropInput)
    ->ArgsProduct({{0, 1}, {1, 2}})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
BENCHMARK(BM_Conv2DBackpropFilter)
    ->ArgsProduct({{0, 1}, {1, 2}})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

// Pooling: {n, h, w, c, k, stride, padding same}.
struct PoolShape {
  int64_t n, h, w, c, k, s;
  bool same;
};
const PoolShape kPool[] = {
    {1, 112, 112, 64, 3, 2, true},  // 0: ResNet50's stem pool
    {64, 28, 28, 32, 2, 2, false},  // 1: the MNIST CNN's, batch 64
    {1, 7, 7, 1280, 7, 1, false},   // 2: a global pool (as AvgPool)
    {1, 35, 35, 192, 3, 1, true},   // 3: InceptionV3's branch pool
};

void Pool(benchmark::State& state, const std::string& op) {
  const PoolShape& d = kPool[state.range(0)];
  NodeDef n = MakeNode("y", op, {"x"});
  WindowAttrs(&n, d.s, d.same ? "SAME" : "VALID");
  AddNodeAttr("ksize", std::vector<int64_t>{1, d.k, d.k, 1}, &n);
  RunOp(state, n, Random({d.n, d.h, d.w, d.c}, 1), {}, state.range(1), 0);
}
void BM_MaxPool(benchmark::State& state) { Pool(state, "MaxPool"); }
void BM_AvgPool(benchmark::State& state) { Pool(state, "AvgPool"); }
// MaxPoolGrad: x fed, orig_output and the gradient as Consts (sg's kernel reads only the
// shape of orig_output).
void BM_MaxPoolGrad(benchmark::State& state) {
  const PoolShape& d = kPool[state.range(0)];
  NodeDef n = MakeNode("y", "MaxPoolGrad", {"x", "orig", "grad"});
  WindowAttrs(&n, d.s, d.same ? "SAME" : "VALID");
  AddNodeAttr("ksize", std::vector<int64_t>{1, d.k, d.k, 1}, &n);
  const int64_t oh = d.same ? OutSize(d.h, d.s) : (d.h - d.k) / d.s + 1;
  const int64_t ow = d.same ? OutSize(d.w, d.s) : (d.w - d.k) / d.s + 1;
  RunOp(state, n, Random({d.n, d.h, d.w, d.c}, 1),
        {{"orig", Random({d.n, oh, ow, d.c}, 2)}, {"grad", Random({d.n, oh, ow, d.c}, 3)}},
        state.range(1), 0);
}
BENCHMARK(BM_MaxPoolGrad)
    ->ArgsProduct({{0, 1}, {1, 2}})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
BENCHMARK(BM_MaxPool)
    ->ArgsProduct({{0, 1, 2, 3}, {1, 2}})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
BENCHMARK(BM_AvgPool)
    ->ArgsProduct({{0, 1, 2, 3}, {1, 2}})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

}  // namespace
}  // namespace sg

BENCHMARK_MAIN();
