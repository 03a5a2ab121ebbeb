// The float convolution kernels that run on oneDNN's primitives (core/kernels/onednn_conv.h):
// DepthwiseConv2dNative and its gradients, grouped Conv2D, strided 1x1 Conv2D gradients, and the
// filters kept in oneDNN's layout between runs under the _sg_const_filter attr, checked against
// plain reference loops in double written here, on odd shapes, strides, dilations, each padding,
// multipliers and batches. Also FewPositionsConv (core/kernels/few_positions_conv.h), which takes
// convolutions of few positions from them, directly and through _FusedConv2D.
// Without oneDNN (or with SG_ONEDNN_CONV=0) the same tests check sg's own loops.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_join.h"
#include "core/framework/node_def_util.h"
#include "core/framework/intra_op_pool.h"
#include "core/framework/op.h"
#include "core/kernels/few_positions_conv.h"
#include "tests/core/ops_testutil.h"

namespace sg {
namespace {

using test::NodeDefFor;
using test::RunKernel;

Tensor Random(std::vector<int64_t> shape, std::mt19937* rng) {
  Tensor t(DT_FLOAT, TensorShape(shape));
  std::uniform_real_distribution<float> u(-1, 1);
  for (int64_t i = 0; i < t.NumElements(); ++i) t.data<float>()[i] = u(*rng);
  return t;
}

Tensor IntVector(std::vector<int32_t> v) {
  Tensor t(DT_INT32, TensorShape({static_cast<int64_t>(v.size())}));
  std::copy(v.begin(), v.end(), t.data<int32_t>());
  return t;
}

// A 2-D convolution's geometry as the tests give it: input [n, h, w, c], filter
// [kh, kw, c / groups, out_c] (a depthwise one: [kh, kw, c, m], the same memory as
// [kh, kw, 1, c * m] with c groups).
struct Case {
  int64_t n, h, w, c, kh, kw, out_c, groups, sh, sw, dh, dw;
  std::string padding;
  std::vector<int64_t> pads;  // EXPLICIT: top, bottom, left, right

  std::string Name() const {
    return absl::StrCat(n, "x", h, "x", w, "x", c, " k", kh, "x", kw, " out_c ", out_c,
                        " groups ", groups, " s", sh, "x", sw, " d", dh, "x", dw, " ", padding);
  }
  // Output size and leading padding of one spatial dim, as TensorFlow defines them.
  void Window(int64_t in, int64_t k, int64_t s, int64_t d, int64_t before, int64_t after,
              int64_t* out, int64_t* pad) const {
    const int64_t ek = (k - 1) * d + 1;
    if (padding == "SAME") {
      *out = (in + s - 1) / s;
      *pad = std::max<int64_t>((*out - 1) * s + ek - in, 0) / 2;
    } else if (padding == "VALID") {
      *out = (in - ek) / s + 1;
      *pad = 0;
    } else {
      *out = (in + before + after - ek) / s + 1;
      *pad = before;
    }
  }
  int64_t oh, ow, pt, pl;  // set by Resolve
  void Resolve() {
    Window(h, kh, sh, dh, pads.empty() ? 0 : pads[0], pads.empty() ? 0 : pads[1], &oh, &pt);
    Window(w, kw, sw, dw, pads.empty() ? 0 : pads[2], pads.empty() ? 0 : pads[3], &ow, &pl);
  }
  int64_t fc() const { return c / groups; }

  // Calls fn(x_index, w_index, y_index) for every product of the convolution.
  template <typename Fn>
  void ForEachProduct(Fn fn) const {
    const int64_t opg = out_c / groups;
    for (int64_t b = 0; b < n; ++b)
      for (int64_t y = 0; y < oh; ++y)
        for (int64_t x = 0; x < ow; ++x)
          for (int64_t i = 0; i < kh; ++i)
            for (int64_t j = 0; j < kw; ++j) {
              const int64_t ih = y * sh - pt + i * dh, iw = x * sw - pl + j * dw;
              if (ih < 0 || ih >= h || iw < 0 || iw >= w) continue;
              for (int64_t o = 0; o < out_c; ++o)
                for (int64_t ci = 0; ci < fc(); ++ci) {
                  fn(((b * h + ih) * w + iw) * c + o / opg * fc() + ci,
                     ((i * kw + j) * fc() + ci) * out_c + o, ((b * oh + y) * ow + x) * out_c + o);
                }
            }
  }
};

std::vector<double> RefForward(const Case& k, const Tensor& x, const Tensor& f) {
  std::vector<double> y(k.n * k.oh * k.ow * k.out_c, 0.0);
  k.ForEachProduct([&](int64_t xi, int64_t wi, int64_t yi) {
    y[yi] += static_cast<double>(x.data<float>()[xi]) * f.data<float>()[wi];
  });
  return y;
}

std::vector<double> RefBackpropInput(const Case& k, const Tensor& f, const Tensor& dy) {
  std::vector<double> dx(k.n * k.h * k.w * k.c, 0.0);
  k.ForEachProduct([&](int64_t xi, int64_t wi, int64_t yi) {
    dx[xi] += static_cast<double>(dy.data<float>()[yi]) * f.data<float>()[wi];
  });
  return dx;
}

std::vector<double> RefBackpropFilter(const Case& k, const Tensor& x, const Tensor& dy) {
  std::vector<double> dw(k.kh * k.kw * k.fc() * k.out_c, 0.0);
  k.ForEachProduct([&](int64_t xi, int64_t wi, int64_t yi) {
    dw[wi] += static_cast<double>(dy.data<float>()[yi]) * x.data<float>()[xi];
  });
  return dw;
}

void ExpectNear(const Tensor& got, const std::vector<int64_t>& shape,
                const std::vector<double>& want, const std::string& what) {
  ASSERT_EQ(got.shape(), TensorShape(shape)) << what;
  ASSERT_EQ(got.NumElements(), static_cast<int64_t>(want.size())) << what;
  int bad = 0;
  for (int64_t i = 0; i < got.NumElements() && bad < 5; ++i) {
    const double g = got.data<float>()[i];
    if (!(std::abs(g - want[i]) <= 1e-4 + 1e-5 * std::abs(want[i]))) {
      ADD_FAILURE() << what << ": element " << i << " is " << g << ", want " << want[i];
      ++bad;
    }
  }
}

// One kernel run several times (as a node is, step after step), unlike test::RunKernel.
class Kernel {
 public:
  explicit Kernel(NodeDef def) {
    const OpDef* op_def;
    EXPECT_TRUE(OpRegistry::Global()->LookUpOpDef(def.op(), &op_def).ok());
    auto node = std::make_shared<NodeDef>(std::move(def));
    AddDefaultsToNodeDef(*op_def, node.get());
    absl::Status s = KernelRegistry::Global()->CreateKernel(test::TestDevice(), DEVICE_CPU,
                                                            node, op_def, &kernel_);
    EXPECT_TRUE(s.ok()) << s;
  }

  absl::StatusOr<Tensor> Run(const std::vector<Tensor>& inputs) {
    if (kernel_ == nullptr) return errors::Internal("no kernel");
    std::vector<TensorValue> values;
    for (const Tensor& t : inputs) values.push_back(TensorValue{t});
    OpKernelContext::Params params;
    params.device = test::TestDevice();
    params.op_kernel = kernel_.get();
    params.inputs = &values;
    params.runner = [](std::function<void()> fn) { fn(); };
    ResourceMgr step_resources;
    params.step_resources = &step_resources;
    OpKernelContext ctx(&params);
    kernel_->Compute(&ctx);
    SG_RETURN_IF_ERROR(ctx.status());
    return ctx.output_value(0).Get();
  }

 private:
  std::unique_ptr<OpKernel> kernel_;
};

NodeDef ConvNode(const std::string& op, const Case& k) {
  NodeDef n = NodeDefFor(op, {{"T", DT_FLOAT},
                              {"strides", {1, k.sh, k.sw, 1}},
                              {"dilations", {1, k.dh, k.dw, 1}},
                              {"padding", k.padding}});
  if (k.padding == "EXPLICIT") {
    AddNodeAttr("explicit_paddings",
                std::vector<int64_t>{0, 0, k.pads[0], k.pads[1], k.pads[2], k.pads[3], 0, 0}, &n);
  }
  return n;
}

// Depthwise geometries (out_c = c * multiplier, groups = c): odd sizes and channel counts that
// are not multiples of oneDNN's channel blocks, stride 2, each padding, dilations, multipliers
// 1 to 3, batches above 1.
std::vector<Case> DepthwiseCases() {
  std::vector<Case> cases = {
      {1, 7, 9, 17, 3, 3, 17, 17, 1, 1, 1, 1, "SAME", {}},
      {2, 8, 7, 5, 3, 3, 10, 5, 2, 2, 1, 1, "SAME", {}},
      {3, 9, 11, 16, 3, 3, 16, 16, 2, 2, 1, 1, "VALID", {}},
      {1, 6, 5, 3, 2, 3, 9, 3, 1, 1, 1, 1, "EXPLICIT", {1, 2, 0, 1}},
      {2, 10, 9, 33, 5, 5, 33, 33, 1, 1, 1, 1, "SAME", {}},
      {1, 9, 9, 4, 3, 3, 8, 4, 1, 1, 2, 2, "SAME", {}},
      {1, 12, 10, 32, 3, 3, 32, 32, 2, 2, 1, 1, "SAME", {}},
      {1, 4, 4, 7, 1, 1, 14, 7, 1, 1, 1, 1, "VALID", {}},
      {1, 5, 6, 2, 3, 2, 6, 2, 1, 1, 1, 1, "VALID", {}},
      {2, 15, 13, 48, 3, 3, 48, 48, 1, 1, 1, 1, "SAME", {}},
  };
  for (Case& k : cases) k.Resolve();
  return cases;
}

TEST(OneDnnConv, DepthwiseForward) {
  std::mt19937 rng(1);
  for (const Case& k : DepthwiseCases()) {
    Tensor x = Random({k.n, k.h, k.w, k.c}, &rng);
    Tensor f = Random({k.kh, k.kw, k.c, k.out_c / k.c}, &rng);
    auto out = RunKernel(ConvNode("DepthwiseConv2dNative", k), {x, f});
    ASSERT_TRUE(out.ok()) << k.Name() << ": " << out.status();
    ExpectNear((*out)[0], {k.n, k.oh, k.ow, k.out_c}, RefForward(k, x, f), k.Name());
  }
}

// The same geometries as Conv2D with filter depth 1 (TensorFlow's grouped form of depthwise).
TEST(OneDnnConv, Conv2DDepthwiseGroups) {
  std::mt19937 rng(2);
  for (const Case& k : DepthwiseCases()) {
    Tensor x = Random({k.n, k.h, k.w, k.c}, &rng);
    Tensor f = Random({k.kh, k.kw, 1, k.out_c}, &rng);
    auto out = RunKernel(ConvNode("Conv2D", k), {x, f});
    ASSERT_TRUE(out.ok()) << k.Name() << ": " << out.status();
    ExpectNear((*out)[0], {k.n, k.oh, k.ow, k.out_c}, RefForward(k, x, f), k.Name());
  }
}

TEST(OneDnnConv, Conv2DGrouped) {
  std::vector<Case> cases = {
      {1, 7, 6, 4, 3, 3, 6, 2, 1, 1, 1, 1, "SAME", {}},
      {2, 9, 8, 12, 3, 3, 8, 4, 2, 2, 1, 1, "VALID", {}},
      {1, 8, 9, 32, 3, 3, 64, 2, 1, 2, 1, 1, "EXPLICIT", {2, 1, 1, 0}},
      {1, 10, 10, 6, 3, 3, 9, 3, 1, 1, 2, 2, "SAME", {}},
  };
  std::mt19937 rng(3);
  for (Case& k : cases) {
    k.Resolve();
    Tensor x = Random({k.n, k.h, k.w, k.c}, &rng);
    Tensor f = Random({k.kh, k.kw, k.fc(), k.out_c}, &rng);
    auto out = RunKernel(ConvNode("Conv2D", k), {x, f});
    ASSERT_TRUE(out.ok()) << k.Name() << ": " << out.status();
    ExpectNear((*out)[0], {k.n, k.oh, k.ow, k.out_c}, RefForward(k, x, f), k.Name());
  }
}

// The gradients: TensorFlow's depthwise gradient ops take equal strides and no dilations.
TEST(OneDnnConv, DepthwiseBackprop) {
  std::mt19937 rng(4);
  for (const Case& k : DepthwiseCases()) {
    if (k.sh != k.sw || k.dh != 1 || k.dw != 1) continue;
    const int64_t m = k.out_c / k.c;
    Tensor x = Random({k.n, k.h, k.w, k.c}, &rng);
    Tensor f = Random({k.kh, k.kw, k.c, m}, &rng);
    Tensor dy = Random({k.n, k.oh, k.ow, k.out_c}, &rng);
    auto dx = RunKernel(ConvNode("DepthwiseConv2dNativeBackpropInput", k),
                        {IntVector({static_cast<int32_t>(k.n), static_cast<int32_t>(k.h),
                                    static_cast<int32_t>(k.w), static_cast<int32_t>(k.c)}),
                         f, dy});
    ASSERT_TRUE(dx.ok()) << k.Name() << ": " << dx.status();
    ExpectNear((*dx)[0], {k.n, k.h, k.w, k.c}, RefBackpropInput(k, f, dy), "dx " + k.Name());
    auto dw = RunKernel(ConvNode("DepthwiseConv2dNativeBackpropFilter", k),
                        {x,
                         IntVector({static_cast<int32_t>(k.kh), static_cast<int32_t>(k.kw),
                                    static_cast<int32_t>(k.c), static_cast<int32_t>(m)}),
                         dy});
    ASSERT_TRUE(dw.ok()) << k.Name() << ": " << dw.status();
    ExpectNear((*dw)[0], {k.kh, k.kw, k.c, m}, RefBackpropFilter(k, x, dy), "dw " + k.Name());
  }
}

// Conv2D's gradients for 1x1 filters with stride 2, on channel counts below oneDNN's blocks:
// oneDNN 2.6's 1x1 backward-weights kernel for AVX2 wrote past the end of the filter's gradient
// on these (heap corruption), so sg takes its next implementation. Each kernel runs three times,
// as a node does step after step.
TEST(OneDnnConv, Conv2DBackpropOf1x1Strided) {
  std::mt19937 rng(6);
  for (const auto& [c, out_c] : std::vector<std::pair<int64_t, int64_t>>{
           {3, 2}, {3, 3}, {2, 2}, {3, 16}, {1, 1}, {16, 16}}) {
    Case k = {1, 6, 6, c, 1, 1, out_c, 1, 2, 2, 1, 1, "VALID", {}};
    k.Resolve();
    Tensor x = Random({k.n, k.h, k.w, k.c}, &rng);
    Tensor f = Random({1, 1, k.c, k.out_c}, &rng);
    Tensor dy = Random({k.n, k.oh, k.ow, k.out_c}, &rng);
    Kernel dx_kernel(ConvNode("Conv2DBackpropInput", k));
    Kernel dw_kernel(ConvNode("Conv2DBackpropFilter", k));
    for (int run = 0; run < 3; ++run) {
      auto dx = dx_kernel.Run({IntVector({1, 6, 6, static_cast<int32_t>(c)}), f, dy});
      ASSERT_TRUE(dx.ok()) << k.Name() << ": " << dx.status();
      ExpectNear(*dx, {k.n, k.h, k.w, k.c}, RefBackpropInput(k, f, dy), "dx " + k.Name());
      auto dw = dw_kernel.Run(
          {x, IntVector({1, 1, static_cast<int32_t>(c), static_cast<int32_t>(out_c)}), dy});
      ASSERT_TRUE(dw.ok()) << k.Name() << ": " << dw.status();
      ExpectNear(*dw, {1, 1, k.c, k.out_c}, RefBackpropFilter(k, x, dy), "dw " + k.Name());
    }
  }
}

// _FusedConv2D with each epilogue (fused into oneDNN's primitive), with and without
// _sg_const_filter, on channel counts off oneDNN's blocks.
TEST(OneDnnConv, FusedConv2DEpilogues) {
  const std::vector<std::vector<std::string>> fused_ops = {
      {"BiasAdd"}, {"BiasAdd", "Relu"}, {"BiasAdd", "Relu6"}, {"BiasAdd", "Elu"},
      {"BiasAdd", "LeakyRelu"}, {"FusedBatchNorm"}, {"FusedBatchNorm", "Relu"},
      {"FusedBatchNorm", "Relu6"}, {"FusedBatchNorm", "Elu"}, {"FusedBatchNorm", "LeakyRelu"},
      {"BiasAdd", "_MklSwish"}, {"FusedBatchNorm", "_MklSwish"}};
  std::vector<Case> cases = {
      {2, 9, 8, 24, 3, 3, 40, 1, 1, 1, 1, 1, "SAME", {}},
      {1, 11, 10, 5, 3, 3, 19, 1, 2, 2, 1, 1, "VALID", {}},
      {1, 7, 7, 32, 1, 1, 48, 1, 1, 1, 1, 1, "VALID", {}},
      {1, 8, 9, 8, 3, 2, 16, 1, 1, 1, 2, 1, "EXPLICIT", {1, 2, 0, 1}},
      // Few positions: FewPositionsConv's, with a constant filter (1x1 on 2 threads; windows
      // with taps that meet only padding).
      {1, 2, 2, 24, 1, 1, 40, 1, 1, 1, 1, 1, "VALID", {}},
      {2, 3, 3, 17, 1, 1, 33, 1, 2, 2, 1, 1, "SAME", {}},
      {3, 1, 1, 20, 3, 3, 36, 1, 1, 1, 1, 1, "SAME", {}},
      {1, 1, 2, 12, 3, 3, 20, 1, 1, 1, 1, 1, "SAME", {}},
      // On blocked activations (OneDnnConv::BlocksActivations): out_c off the blocks, strided.
      {1, 9, 8, 64, 3, 3, 68, 1, 1, 1, 1, 1, "SAME", {}},
      {2, 10, 9, 72, 3, 3, 64, 1, 2, 2, 1, 1, "VALID", {}},
  };
  std::mt19937 rng(6);
  const float epsilon = 0.001f, alpha = 0.3f;
  for (Case& k : cases) {
    k.Resolve();
    for (const auto& ops : fused_ops) {
      for (bool constant : {false, true}) {
        const bool bn = ops[0] == "FusedBatchNorm";
        NodeDef def = ConvNode("_FusedConv2D", k);
        AddNodeAttr("fused_ops", ops, &def);
        AddNodeAttr("num_args", bn ? 4 : 1, &def);
        AddNodeAttr("TArgs", std::vector<DataType>(bn ? 4 : 1, DT_FLOAT), &def);
        AddNodeAttr("epsilon", epsilon, &def);
        AddNodeAttr("leakyrelu_alpha", alpha, &def);
        if (constant) AddNodeAttr("_sg_const_filter", true, &def);
        Tensor x = Random({k.n, k.h, k.w, k.c}, &rng);
        Tensor f = Random({k.kh, k.kw, k.c, k.out_c}, &rng);
        std::vector<Tensor> inputs = {x, f};
        for (int i = 0; i < (bn ? 4 : 1); ++i) {
          inputs.push_back(Random({k.out_c}, &rng));
          if (i == 3) {  // the variance: positive
            for (int64_t c = 0; c < k.out_c; ++c) {
              inputs.back().data<float>()[c] = 0.25f + std::abs(inputs.back().data<float>()[c]);
            }
          }
        }
        std::vector<double> want = RefForward(k, x, f);
        for (size_t i = 0; i < want.size(); ++i) {
          const int64_t c = static_cast<int64_t>(i) % k.out_c;
          auto arg = [&](int a) { return static_cast<double>(inputs[2 + a].data<float>()[c]); };
          double v = bn ? (want[i] - arg(2)) * arg(0) / std::sqrt(arg(3) + epsilon) + arg(1)
                        : want[i] + arg(0);
          const std::string act = ops.size() > 1 ? ops[1] : "";
          if (act == "Relu") v = std::max(v, 0.0);
          if (act == "Relu6") v = std::min(std::max(v, 0.0), 6.0);
          if (act == "Elu") v = v < 0 ? std::expm1(v) : v;
          if (act == "LeakyRelu") v = v > 0 ? v : v * alpha;
          if (act == "_MklSwish") v = v / (1 + std::exp(-v));
          want[i] = v;
        }
        const std::string what = absl::StrCat(k.Name(), " ", absl::StrJoin(ops, ","),
                                              constant ? " const filter" : "");
        Kernel kernel(def);
        for (int run = 0; run < 2; ++run) {  // the second with the filter kept, if constant
          auto got = kernel.Run(inputs);
          ASSERT_TRUE(got.ok()) << what << ": " << got.status();
          ExpectNear(*got, {k.n, k.oh, k.ow, k.out_c}, want, what);
        }
      }
    }
  }
}

// A kernel with _sg_const_filter keeps the filter laid out between runs: the same filter tensor
// again, another tensor of the same shape, a filter of another shape, then the first again must
// each give the reference's values, and the same bits as a kernel without the attr.
void CheckConstFilter(const std::string& op, Case k, int64_t other_out_c) {
  std::mt19937 rng(5);
  NodeDef def = ConvNode(op, k);
  NodeDef with_attr = def;
  AddNodeAttr("_sg_const_filter", true, &with_attr);
  Kernel cached(with_attr), plain(def);
  const bool depthwise = op == "DepthwiseConv2dNative";
  auto filter = [&](const Case& c) {
    return Random({c.kh, c.kw, depthwise ? c.c : c.fc(), depthwise ? c.out_c / c.c : c.out_c},
                  &rng);
  };
  Case other = k;
  other.out_c = other_out_c;
  Tensor fa = filter(k), fb = filter(k), fc = filter(other);
  Tensor x = Random({k.n, k.h, k.w, k.c}, &rng);
  struct Step {
    const Tensor* f;
    const Case* geometry;
    std::string what;
  };
  const Step steps[] = {{&fa, &k, "first run"},        {&fa, &k, "same filter"},
                        {&fb, &k, "another filter"},   {&fc, &other, "another shape"},
                        {&fa, &k, "first filter again"}, {&fa, &k, "first filter, cached"}};
  for (const Step& step : steps) {
    const std::string what = op + " " + k.Name() + ": " + step.what;
    auto got = cached.Run({x, *step.f});
    ASSERT_TRUE(got.ok()) << what << ": " << got.status();
    const Case& c = *step.geometry;
    ExpectNear(*got, {c.n, c.oh, c.ow, c.out_c}, RefForward(c, x, *step.f), what);
    auto want = plain.Run({x, *step.f});
    ASSERT_TRUE(want.ok()) << what << ": " << want.status();
    ASSERT_EQ(got->NumElements(), want->NumElements()) << what;
    EXPECT_EQ(0, std::memcmp(got->data<float>(), want->data<float>(),
                             got->NumElements() * sizeof(float)))
        << what << ": differs from the kernel without the attr";
  }
}

TEST(OneDnnConv, ConstFilterConv2D) {
  Case k = {2, 9, 8, 24, 3, 3, 40, 1, 1, 1, 1, 1, "SAME", {}};
  k.Resolve();
  CheckConstFilter("Conv2D", k, 56);
  Case strided = {1, 11, 12, 16, 5, 3, 32, 1, 2, 2, 1, 1, "VALID", {}};
  strided.Resolve();
  CheckConstFilter("Conv2D", strided, 16);
}

// Convolutions that OneDnnConv::BlocksActivations takes run on blocked activations (counted by
// OneDnnConv::BlockedRuns) and match the reference, plain and with a bias and Relu fused into
// the primitive; those it does not take (a 1x1 window, few channels, few positions) keep
// channels-last. Whether oneDNN asks for a blocked layout depends on the CPU: its AVX-512
// convolutions run on channels-last as they are, so there a case it takes may run unblocked.
// ctest's onednn_conv_avx2_test caps oneDNN at AVX2 (ONEDNN_MAX_CPU_ISA), where it blocks them:
// there the counts must be exact.
TEST(OneDnnConv, BlockedActivations) {
  if (!OneDnnConv::Available()) GTEST_SKIP() << "built without oneDNN";
  const char* isa = std::getenv("ONEDNN_MAX_CPU_ISA");
  const bool exact = isa != nullptr && std::string(isa) == "AVX2";
  struct Blocked {
    Case k;
    bool blocked;
  };
  std::vector<Blocked> cases = {
      {{1, 8, 8, 64, 3, 3, 64, 1, 1, 1, 1, 1, "SAME", {}}, true},
      {{2, 12, 11, 80, 3, 3, 70, 1, 2, 2, 1, 1, "SAME", {}}, true},
      {{1, 9, 9, 64, 3, 3, 96, 1, 1, 1, 2, 2, "VALID", {}}, true},
      {{1, 8, 8, 64, 1, 1, 64, 1, 1, 1, 1, 1, "VALID", {}}, false},
      {{1, 8, 8, 32, 3, 3, 64, 1, 1, 1, 1, 1, "SAME", {}}, false},
      {{1, 7, 7, 64, 3, 3, 64, 1, 1, 1, 1, 1, "SAME", {}}, false},
  };
  std::mt19937 rng(8);
  for (Blocked& b : cases) {
    Case& k = b.k;
    k.Resolve();
    for (bool fused : {false, true}) {
      NodeDef def = ConvNode(fused ? "_FusedConv2D" : "Conv2D", k);
      if (fused) {
        AddNodeAttr("fused_ops", std::vector<std::string>{"BiasAdd", "Relu"}, &def);
        AddNodeAttr("num_args", 1, &def);
        AddNodeAttr("TArgs", std::vector<DataType>{DT_FLOAT}, &def);
      }
      Tensor x = Random({k.n, k.h, k.w, k.c}, &rng);
      Tensor f = Random({k.kh, k.kw, k.c, k.out_c}, &rng);
      Tensor bias = Random({k.out_c}, &rng);
      std::vector<Tensor> inputs = {x, f};
      if (fused) inputs.push_back(bias);
      std::vector<double> want = RefForward(k, x, f);
      if (fused) {
        for (size_t i = 0; i < want.size(); ++i) {
          want[i] = std::max(want[i] + bias.data<float>()[i % k.out_c], 0.0);
        }
      }
      const std::string what = absl::StrCat(k.Name(), fused ? " BiasAdd,Relu" : "");
      Kernel kernel(def);
      const int64_t before = OneDnnConv::BlockedRuns(fused);
      const int64_t other_before = OneDnnConv::BlockedRuns(!fused);
      for (int run = 0; run < 2; ++run) {
        auto got = kernel.Run(inputs);
        ASSERT_TRUE(got.ok()) << what << ": " << got.status();
        ExpectNear(*got, {k.n, k.oh, k.ow, k.out_c}, want, what);
      }
      // The fused op's epilogue in the primitive, not in a second pass after a plain one.
      const int64_t blocked = OneDnnConv::BlockedRuns(fused) - before;
      if (b.blocked && !exact) {
        EXPECT_TRUE(blocked == 0 || blocked == 2) << what << ": " << blocked << " blocked runs";
      } else {
        EXPECT_EQ(blocked, b.blocked ? 2 : 0) << what;
      }
      EXPECT_EQ(OneDnnConv::BlockedRuns(!fused) - other_before, 0) << what;
    }
  }
}

TEST(OneDnnConv, ConstFilterDepthwise) {
  Case k = {1, 14, 13, 40, 3, 3, 40, 40, 2, 2, 1, 1, "SAME", {}};
  k.Resolve();
  CheckConstFilter("DepthwiseConv2dNative", k, 80);  // then multiplier 2
}

// FewPositionsConv run directly, against the reference loops: 1x1 convolutions of 1 to 8
// positions (strided too, batches above 1), and windows of which some taps meet only padding
// (the centre tap alone, a row of taps, taps meeting padding at some positions only, dilated,
// strided, explicit padding), output channels that are and are not multiples of its 16-channel
// panels, each epilogue, on 2 threads and on 1, twice each (the second with the filter already
// packed), then with another filter shape (packed again).
struct FewPositionsEpilogue {
  std::string name;
  bool bias, affine, sum;
  OneDnnConv::Epilogue::Act act;
};

double ApplyEpilogue(const FewPositionsEpilogue& e, double v, double bias, double scale,
                     double shift, double before, float alpha) {
  using Act = OneDnnConv::Epilogue::Act;
  if (e.bias) v += bias;
  if (e.affine) v = v * scale + shift;
  if (e.sum) v += before;
  switch (e.act) {
    case Act::kNone: break;
    case Act::kRelu: v = std::isnan(v) ? v : std::max(v, 0.0); break;
    case Act::kRelu6: v = std::isnan(v) ? v : std::min(std::max(v, 0.0), 6.0); break;
    case Act::kElu: v = v < 0 ? std::expm1(v) : v; break;
    case Act::kLeakyRelu: v = v > 0 ? v : v * alpha; break;
    case Act::kSwish: v = v / (1 + std::exp(-v)); break;
  }
  return v;
}

// ExpectNear's tolerance, with NaN equal to NaN.
bool CloseOrBothNan(double got, double want) {
  if (std::isnan(want)) return std::isnan(got);
  return std::abs(got - want) <= 1e-4 + 1e-5 * std::abs(want);
}

TEST(FewPositionsConv, MatchesTheReferenceWithEachEpilogue) {
  using Act = OneDnnConv::Epilogue::Act;
  const std::vector<FewPositionsEpilogue> epilogues = {
      {"none", false, false, false, Act::kNone},
      {"bias", true, false, false, Act::kNone},
      {"bias relu", true, false, false, Act::kRelu},
      {"scale relu6", false, true, false, Act::kRelu6},
      {"bias sum relu", true, false, true, Act::kRelu},
      {"bias elu", true, false, false, Act::kElu},
      {"bias scale leaky", true, true, false, Act::kLeakyRelu},
      {"bias swish", true, false, false, Act::kSwish},
      {"sum", false, false, true, Act::kNone},
  };
  std::vector<Case> cases = {
      {1, 2, 2, 40, 1, 1, 56, 1, 1, 1, 1, 1, "VALID", {}},   // 4 positions, 3.5 panels
      {2, 2, 2, 17, 1, 1, 16, 1, 1, 1, 1, 1, "VALID", {}},   // 8 positions, one panel
      {1, 1, 1, 3, 1, 1, 5, 1, 1, 1, 1, 1, "VALID", {}},     // one position, part of a panel
      {1, 3, 3, 24, 1, 1, 40, 1, 2, 2, 1, 1, "SAME", {}},    // strided: 2x2 of 3x3
      {1, 4, 3, 9, 1, 1, 33, 1, 2, 1, 1, 1, "VALID", {}},    // 2x3 of 4x3
      {2, 1, 3, 64, 1, 1, 100, 1, 1, 1, 1, 1, "SAME", {}},   // 6 positions
      {1, 2, 2, 300, 1, 1, 160, 1, 1, 1, 1, 1, "VALID", {}},  // longer rows
      {1, 1, 2, 5, 1, 1, 12, 1, 1, 1, 1, 1, "EXPLICIT", {0, 1, 1, 0}},  // rows of padding
      // Taps skipped (taken on 1 thread too):
      {8, 1, 1, 40, 1, 3, 36, 1, 1, 1, 1, 1, "SAME", {}},    // InceptionV3's: the centre tap
      {8, 1, 1, 24, 3, 1, 20, 1, 1, 1, 1, 1, "SAME", {}},
      {2, 1, 1, 33, 3, 3, 17, 1, 1, 1, 1, 1, "SAME", {}},
      {1, 1, 3, 9, 3, 3, 40, 1, 1, 1, 1, 1, "SAME", {}},     // one row of taps, padding at the ends
      {2, 2, 1, 10, 3, 3, 16, 1, 1, 1, 1, 1, "SAME", {}},    // one column: taps 1, 4, 7 and between
      {1, 3, 2, 8, 3, 3, 24, 1, 2, 2, 1, 1, "SAME", {}},     // strided
      {1, 2, 2, 6, 3, 3, 18, 1, 1, 1, 2, 2, "SAME", {}},     // dilated: only the centre meets data
      {1, 1, 2, 7, 2, 3, 9, 1, 1, 1, 1, 1, "EXPLICIT", {1, 0, 1, 1}},
  };
  IntraOpPool pool(1, absl::Microseconds(50));
  const Eigen::ThreadPoolDevice two(&pool, 2), one(&pool, 1);
  std::mt19937 rng(9);
  const float alpha = 0.3f;
  for (Case& k : cases) {
    k.Resolve();
    ConvNdGeometry g;
    const Padding padding = k.padding == "SAME"    ? Padding::kSame
                            : k.padding == "VALID" ? Padding::kValid
                                                   : Padding::kExplicit;
    std::vector<int64_t> explicit_pads;
    if (padding == Padding::kExplicit) explicit_pads = {0, 0, k.pads[0], k.pads[1],
                                                        k.pads[2], k.pads[3], 0, 0};
    ASSERT_TRUE(MakeConvNdGeometry(2, TensorShape({k.n, k.h, k.w, k.c}),
                                   TensorShape({k.kh, k.kw, k.c, k.out_c}), {1, k.sh, k.sw, 1},
                                   {1, k.dh, k.dw, 1}, padding, explicit_pads, &g)
                    .ok());
    const bool one_by_one = k.kh == 1 && k.kw == 1;
    ASSERT_TRUE(FewPositionsConv::Takes(g, 2)) << k.Name();
    EXPECT_EQ(FewPositionsConv::Takes(g, 1), !one_by_one) << k.Name();
    Tensor x = Random({k.n, k.h, k.w, k.c}, &rng);
    x.data<float>()[k.c + 1] = std::nanf("");  // one NaN: in a row that is read when unstrided
    Tensor f = Random({k.kh, k.kw, k.c, k.out_c}, &rng);
    Tensor other = Random({k.kh, k.kw, k.c, k.out_c + 8}, &rng);
    Tensor bias = Random({k.out_c}, &rng), scale = Random({k.out_c}, &rng),
           shift = Random({k.out_c}, &rng);
    const std::vector<double> conv = RefForward(k, x, f);
    const int64_t size = k.n * k.oh * k.ow * k.out_c;
    Tensor residual = Random({size}, &rng);
    FewPositionsConv few;
    for (const FewPositionsEpilogue& e : epilogues) {
      OneDnnConv::Epilogue ep;
      ep.bias = e.bias ? bias.data<float>() : nullptr;
      ep.scale = e.affine ? scale.data<float>() : nullptr;
      ep.shift = e.affine ? shift.data<float>() : nullptr;
      ep.sum = e.sum;
      ep.act = e.act;
      ep.alpha = alpha;
      for (const Eigen::ThreadPoolDevice* d : {&two, &one}) {
        for (int run = 0; run < 2; ++run) {
          const std::string what = absl::StrCat(k.Name(), " ", e.name, d == &two ? " 2" : " 1",
                                                " threads, run ", run);
          std::vector<float> out(residual.data<float>(), residual.data<float>() + size);
          ASSERT_TRUE(few.Run(*d, g, x.data<float>(), f.data<float>(), out.data(),
                              e.name == "none" ? nullptr : &ep))
              << what;
          int bad = 0;
          for (int64_t i = 0; i < size && bad < 5; ++i) {
            const int64_t c = i % k.out_c;
            const double want =
                ApplyEpilogue(e, conv[i], bias.data<float>()[c], scale.data<float>()[c],
                              shift.data<float>()[c], residual.data<float>()[i], alpha);
            if (!CloseOrBothNan(out[i], want)) {
              ADD_FAILURE() << what << ": element " << i << " is " << out[i] << ", want " << want;
              ++bad;
            }
          }
        }
      }
    }
    // Another shape at another address: packed again, then the first again.
    Case wide = k;
    wide.out_c = k.out_c + 8;
    ConvNdGeometry gw = g;
    gw.out_c = wide.out_c;
    for (const auto& [geometry, c, filter] :
         {std::tuple(&gw, &wide, &other), std::tuple(&g, &k, &f)}) {
      std::vector<float> out(geometry->n * geometry->OutPositions() * geometry->out_c);
      ASSERT_TRUE(few.Run(two, *geometry, x.data<float>(), filter->data<float>(), out.data(),
                          nullptr));
      const std::vector<double> want = RefForward(*c, x, *filter);
      for (size_t i = 0; i < want.size(); ++i) {
        ASSERT_TRUE(CloseOrBothNan(out[i], want[i]))
            << c->Name() << " after another shape: element " << i << " is " << out[i]
            << ", want " << want[i];
      }
    }
  }
}

TEST(FewPositionsConv, TakesTapsSkippedOr1x1OnTwoThreads) {
  auto geometry = [](std::vector<int64_t> in, std::vector<int64_t> filter, int64_t stride,
                     Padding padding) {
    ConvNdGeometry g;
    EXPECT_TRUE(MakeConvNdGeometry(2, TensorShape(in), TensorShape(filter), {1, stride, stride, 1},
                                   {1, 1, 1, 1}, padding, {0, 0, 1, 1, 1, 1, 0, 0}, &g)
                    .ok());
    return g;
  };
  auto takes = [&](std::vector<int64_t> in, std::vector<int64_t> filter, Padding padding,
                   int threads) {
    return FewPositionsConv::Takes(geometry(in, filter, 1, padding), threads);
  };
  EXPECT_TRUE(takes({1, 2, 4, 8}, {1, 1, 8, 4}, Padding::kValid, 2));
  EXPECT_FALSE(takes({1, 2, 4, 8}, {1, 1, 8, 4}, Padding::kValid, 1)) << "1x1 on 1 thread";
  EXPECT_FALSE(takes({1, 3, 3, 8}, {1, 1, 8, 4}, Padding::kValid, 2)) << "9 positions, 1x1";
  EXPECT_FALSE(takes({1, 2, 2, 8}, {3, 3, 8, 4}, Padding::kSame, 2)) << "every tap used";
  EXPECT_FALSE(takes({1, 3, 3, 8}, {3, 3, 8, 4}, Padding::kValid, 2)) << "every tap used";
  EXPECT_FALSE(takes({1, 2, 2, 8}, {1, 1, 4, 4}, Padding::kValid, 2)) << "two groups";
  EXPECT_FALSE(takes({1, 1, 1, 8}, {1, 1, 8, 4}, Padding::kExplicit, 2)) << "9 positions, padded";
  EXPECT_TRUE(takes({1, 1, 1, 8}, {3, 3, 8, 4}, Padding::kSame, 1)) << "the centre tap";
  EXPECT_TRUE(takes({32, 1, 1, 8}, {1, 3, 8, 4}, Padding::kSame, 1)) << "32 positions";
  EXPECT_FALSE(takes({33, 1, 1, 8}, {1, 3, 8, 4}, Padding::kSame, 1)) << "33 positions";
  EXPECT_TRUE(takes({1, 4, 1, 8}, {3, 3, 8, 4}, Padding::kSame, 1)) << "one column of taps";

  const FewPositionsConv::Taps centre =
      FewPositionsConv::UsedTaps(geometry({1, 1, 1, 8}, {3, 3, 8, 4}, 1, Padding::kSame));
  EXPECT_EQ(centre.first, 4);
  EXPECT_EQ(centre.count, 1);
  const FewPositionsConv::Taps column =
      FewPositionsConv::UsedTaps(geometry({1, 4, 1, 8}, {3, 3, 8, 4}, 1, Padding::kSame));
  EXPECT_EQ(column.first, 1);  // taps 1, 4 and 7, and those between
  EXPECT_EQ(column.count, 7);
}

}  // namespace
}  // namespace sg
