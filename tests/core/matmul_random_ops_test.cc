// MatMul / BatchMatMul(V2) against a triple loop, and the random ops against TensorFlow's own
// Philox streams (values recorded from TensorFlow 2.15 with the same seeds). Also PanelProduct
// (core/kernels/panel_product.h), which MatMul and _FusedMatMul run with a constant b of 5 to 32
// rows, directly and through those kernels.
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/framework/intra_op_pool.h"
#include "core/framework/node_def_util.h"
#include "core/framework/op.h"
#include "core/kernels/panel_product.h"
#include "gtest/gtest.h"
#include "tests/core/ops_testutil.h"

namespace sg {
namespace {

using test::MakeTensor;
using test::NodeDefFor;
using test::RunKernel;
using test::Values;

template <typename T>
Tensor RandomTensor(std::vector<int64_t> shape, int seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> dist(-4, 4);
  Tensor t(DataTypeToEnum<T>::value, TensorShape(shape));
  for (int64_t i = 0; i < t.NumElements(); ++i) t.data<T>()[i] = static_cast<T>(dist(rng));
  return t;
}

// c[b] = op(a[b]) * op(b[b]) with numpy-broadcast batch dims, by loops.
template <typename T>
Tensor RefBatchMatMul(const Tensor& x, const Tensor& y, bool ax, bool ay) {
  const int rx = x.dims(), ry = y.dims();
  const int64_t m = x.dim_size(ax ? rx - 1 : rx - 2), k = x.dim_size(ax ? rx - 2 : rx - 1);
  const int64_t n = y.dim_size(ay ? ry - 2 : ry - 1);
  const int rb = std::max(rx, ry) - 2;
  std::vector<int64_t> xb(rb, 1), yb(rb, 1), ob(rb);
  for (int i = 0; i < rx - 2; ++i) xb[rb - (rx - 2) + i] = x.dim_size(i);
  for (int i = 0; i < ry - 2; ++i) yb[rb - (ry - 2) + i] = y.dim_size(i);
  std::vector<int64_t> out_dims;
  int64_t nb = 1;
  for (int i = 0; i < rb; ++i) {
    ob[i] = xb[i] == 1 ? yb[i] : xb[i];
    out_dims.push_back(ob[i]);
    nb *= ob[i];
  }
  out_dims.push_back(m);
  out_dims.push_back(n);
  Tensor out(DataTypeToEnum<T>::value, TensorShape(out_dims));
  for (int64_t b = 0; b < nb; ++b) {
    int64_t rem = b, xi = 0, yi = 0, xs = 1, ys = 1;
    for (int d = rb - 1; d >= 0; --d) {
      const int64_t idx = rem % ob[d];
      rem /= ob[d];
      xi += (xb[d] == 1 ? 0 : idx) * xs;
      yi += (yb[d] == 1 ? 0 : idx) * ys;
      xs *= xb[d];
      ys *= yb[d];
    }
    const T* px = x.data<T>() + xi * m * k;
    const T* py = y.data<T>() + yi * k * n;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double s = 0;
        for (int64_t l = 0; l < k; ++l) {
          const double a = static_cast<double>(ax ? px[l * m + i] : px[i * k + l]);
          const double c = static_cast<double>(ay ? py[j * k + l] : py[l * n + j]);
          s += a * c;
        }
        out.data<T>()[(b * m + i) * n + j] = static_cast<T>(s);
      }
  }
  return out;
}

template <typename T>
void ExpectSame(const Tensor& got, const Tensor& want) {
  ASSERT_EQ(got.shape().DebugString(), want.shape().DebugString());
  for (int64_t i = 0; i < got.NumElements(); ++i) {
    ASSERT_EQ(static_cast<double>(got.data<T>()[i]), static_cast<double>(want.data<T>()[i]))
        << "at " << i;
  }
}

// With const_b, the node has the graph optimiser's `_sg_const_filter` mark (b is a Const).
template <typename T>
void CheckMatMul(int64_t m, int64_t k, int64_t n, bool const_b = false) {
  const DataType dt = DataTypeToEnum<T>::value;
  for (bool ta : {false, true}) {
    for (bool tb : {false, true}) {
      Tensor a = RandomTensor<T>(ta ? std::vector<int64_t>{k, m} : std::vector<int64_t>{m, k}, 1);
      Tensor b = RandomTensor<T>(tb ? std::vector<int64_t>{n, k} : std::vector<int64_t>{k, n}, 2);
      NodeDef def = NodeDefFor("MatMul", {{"T", dt}, {"transpose_a", ta}, {"transpose_b", tb}});
      if (const_b) AddNodeAttr("_sg_const_filter", true, &def);
      auto out = RunKernel(def, {a, b});
      ASSERT_TRUE(out.ok()) << out.status();
      // The reference treats a 2-D matrix as a batch of one.
      ExpectSame<T>((*out)[0], RefBatchMatMul<T>(a, b, ta, tb));
    }
  }
}

// Small integer-valued inputs: every product is exact, so results must match exactly.
TEST(MatMul, MatchesReferenceForAllTransposesAndTypes) {
  CheckMatMul<float>(3, 4, 5);
  CheckMatMul<float>(70, 80, 90);  // the threaded contraction path
  // One to four rows with b of at least 128K elements: split by columns over the test's
  // 2-thread pool (matmul_op.cc, kSplitColumnsMinB), the last chunk shorter than the others.
  CheckMatMul<float>(1, 640, 210);
  CheckMatMul<float>(4, 520, 260);
  CheckMatMul<double>(2, 600, 230);
  CheckMatMul<int32_t>(1, 1024, 130);
  CheckMatMul<double>(5, 2, 3);
  CheckMatMul<int32_t>(4, 3, 2);
  CheckMatMul<int64_t>(2, 2, 2);
  CheckMatMul<half>(3, 5, 4);
}

// A constant b: 5 to 32 rows (a not transposed) run on PanelProduct, the others as before.
// Small integers, so every order of summation gives the same floats.
TEST(MatMul, ConstantBMatchesReference) {
  for (int64_t m : {5, 8, 13, 32, 33, 4}) {
    SCOPED_TRACE(absl::StrCat(m, " rows"));
    // 4 panels and a part; from 25 rows (64^3 multiply-adds) split over the test's 2 threads.
    CheckMatMul<float>(m, 156, 70, true);
    CheckMatMul<float>(m, 3, 5, true);  // one part of a panel, on one thread
  }
  CheckMatMul<double>(8, 10, 20, true);  // float only: double ignores the mark
}

// The reference of _FusedMatMul [BiasAdd(, act)] on float inputs, in double.
std::vector<double> RefFusedMatMul(const Tensor& a, const Tensor& b, const Tensor& bias,
                                   bool tb, const std::string& act, double alpha) {
  const int64_t m = a.dim_size(0), k = a.dim_size(1), n = bias.NumElements();
  std::vector<double> out(m * n);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double v = bias.data<float>()[j];
      for (int64_t l = 0; l < k; ++l) {
        v += static_cast<double>(a.data<float>()[i * k + l]) *
             (tb ? b.data<float>()[j * k + l] : b.data<float>()[l * n + j]);
      }
      if (act == "Relu") v = std::max(v, 0.0);
      if (act == "Relu6") v = std::min(std::max(v, 0.0), 6.0);
      if (act == "Elu") v = v < 0 ? std::expm1(v) : v;
      if (act == "LeakyRelu") v = v > 0 ? v : alpha * v;
      if (act == "Tanh") v = std::tanh(v);
      if (act == "Sigmoid") v = 1 / (1 + std::exp(-v));
      if (act == "_MklSwish") v = v / (1 + std::exp(-v));
      out[i * n + j] = v;
    }
  }
  return out;
}

// _FusedMatMul with a constant b: the bias and Relu, Relu6, Elu, LeakyRelu or swish in
// PanelProduct's tiles, Tanh and Sigmoid after it; without the mark, the BLAS path.
TEST(FusedMatMul, ConstantBMatchesReferenceWithEachActivation) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-1, 1);
  auto random = [&](std::vector<int64_t> shape) {
    Tensor t(DT_FLOAT, TensorShape(shape));
    for (int64_t i = 0; i < t.NumElements(); ++i) t.data<float>()[i] = u(rng);
    return t;
  };
  const float alpha = 0.3f;
  for (const std::string act :
       {"", "Relu", "Relu6", "Elu", "LeakyRelu", "Tanh", "Sigmoid", "_MklSwish"}) {
    for (int64_t m : {8, 21, 2}) {
      for (bool tb : {false, true}) {
        for (bool constant : {true, false}) {
          const int64_t k = 37, n = 50;
          Tensor a = random({m, k});
          Tensor b = random(tb ? std::vector<int64_t>{n, k} : std::vector<int64_t>{k, n});
          Tensor bias = random({n});
          a.data<float>()[k + 2] = std::nanf("");  // row 1 is NaN throughout
          NodeDef def = NodeDefFor("_FusedMatMul", {{"T", DT_FLOAT}, {"transpose_b", tb}});
          AddNodeAttr("fused_ops",
                      act.empty() ? std::vector<std::string>{"BiasAdd"}
                                  : std::vector<std::string>{"BiasAdd", act},
                      &def);
          AddNodeAttr("num_args", 1, &def);
          AddNodeAttr("leakyrelu_alpha", alpha, &def);
          if (constant) AddNodeAttr("_sg_const_filter", true, &def);
          auto out = RunKernel(def, {a, b, bias});
          const std::string what = absl::StrCat("[BiasAdd ", act, "] ", m, " rows",
                                                tb ? " b transposed" : "",
                                                constant ? " constant" : "");
          ASSERT_TRUE(out.ok()) << what << ": " << out.status();
          const std::vector<double> want = RefFusedMatMul(a, b, bias, tb, act, alpha);
          const float* got = (*out)[0].data<float>();
          for (size_t i = 0; i < want.size(); ++i) {
            if (std::isnan(want[i])) {
              ASSERT_TRUE(std::isnan(got[i])) << what << ": element " << i << " is " << got[i];
            } else {
              ASSERT_NEAR(got[i], want[i], 1e-5 + 1e-5 * std::abs(want[i]))
                  << what << ": element " << i;
            }
          }
        }
      }
    }
  }
}

// For r < rows: y[r] = x[r] times b ([k, n], or [n, k] when tb), by a loop in double.
std::vector<double> RefProduct(const std::vector<float>& x, const std::vector<float>& b,
                               int64_t rows, int64_t k, int64_t n, bool tb) {
  std::vector<double> y(rows * n);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t i = 0; i < k; ++i) {
        s += static_cast<double>(x[r * k + i]) * (tb ? b[j * k + i] : b[i * n + j]);
      }
      y[r * n + j] = s;
    }
  }
  return y;
}

// Every row count up to kMaxRows (tiles of 1 to 6 rows), b's columns on and off the 16-column
// panels, both orientations, 2 threads and 1, each b run four times (packed once). A new b gets
// a new PanelProduct: one kept at the same address would be taken for the old one, as the
// contract says. The epilogues and a b replaced in one product are FewPositionsConv's tests'.
TEST(PanelProduct, MatchesTheReferenceLoop) {
  IntraOpPool pool(1, absl::Microseconds(50));
  const Eigen::ThreadPoolDevice two(&pool, 2), one(&pool, 1);
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-1, 1);
  auto random = [&](int64_t size) {
    std::vector<float> v(size);
    for (float& f : v) f = u(rng);
    return v;
  };
  for (int64_t rows = 1; rows <= PanelProduct::kMaxRows; ++rows) {
    for (const auto& [k, n] : {std::pair<int64_t, int64_t>{19, 40}, {1, 16}, {64, 5}}) {
      for (bool tb : {false, true}) {
        PanelProduct product;
        const std::vector<float> x = random(rows * k), b = random(k * n);
        const std::vector<double> want = RefProduct(x, b, rows, k, n, tb);
        std::vector<const float*> xr(rows);
        for (int64_t r = 0; r < rows; ++r) xr[r] = x.data() + r * k;
        for (const Eigen::ThreadPoolDevice* d : {&two, &one}) {
          for (int run = 0; run < 2; ++run) {
            const std::string what = absl::StrCat(rows, " rows, k ", k, ", n ", n,
                                                  tb ? ", b transposed, " : ", ",
                                                  d->numThreads(), " threads, run ", run);
            std::vector<float> y(rows * n, -7.0f);
            std::vector<float*> yr(rows);
            for (int64_t r = 0; r < rows; ++r) yr[r] = y.data() + r * n;
            ASSERT_TRUE(product.Run(*d, /*split=*/true, xr.data(), rows, b.data(), k, n, tb,
                                    yr.data(), nullptr))
                << what;
            for (int64_t i = 0; i < rows * n; ++i) {
              ASSERT_NEAR(y[i], want[i], 1e-5 + 1e-5 * std::abs(want[i]))
                  << what << ": element " << i;
            }
          }
        }
      }
    }
  }
}

// A copy shared through b_tensor keeps its tensor's buffer alive: a tensor made after the first
// is dropped cannot take its address while another product uses the copy, so it is packed anew
// rather than found. Without the reference (Packed::owner), the allocator hands the freed
// address to the second tensor and the second product reads the first one's values.
TEST(PanelProduct, SharedCopyIsFoundOnlyForItsTensor) {
  IntraOpPool pool(1, absl::Microseconds(50));
  const Eigen::ThreadPoolDevice one(&pool, 1);
  const int64_t rows = 8, k = 24, n = 40;
  std::vector<float> x(rows * k);
  for (int64_t i = 0; i < rows * k; ++i) x[i] = static_cast<float>(i % 5) - 2;
  std::vector<const float*> xr(rows);
  for (int64_t r = 0; r < rows; ++r) xr[r] = x.data() + r * k;
  auto run = [&](PanelProduct* p, const Tensor& b, std::vector<float>* y) {
    std::vector<float*> yr(rows);
    for (int64_t r = 0; r < rows; ++r) yr[r] = y->data() + r * n;
    return p->Run(one, false, xr.data(), rows, b.data<float>(), k, n, false, yr.data(), nullptr,
                  &b);
  };
  auto check = [&](const Tensor& b, const std::vector<float>& y, const std::string& what) {
    const std::vector<float> bv(b.data<float>(), b.data<float>() + k * n);
    const std::vector<double> want = RefProduct(x, bv, rows, k, n, false);
    for (int64_t i = 0; i < rows * n; ++i) {
      ASSERT_EQ(y[i], want[i]) << what << ": element " << i;
    }
  };
  PanelProduct first, second, third;
  std::vector<float> y(rows * n);
  {
    Tensor b(DT_FLOAT, TensorShape({k, n}));
    for (int64_t i = 0; i < k * n; ++i) b.data<float>()[i] = static_cast<float>(i % 3);
    ASSERT_TRUE(run(&first, b, &y));
    check(b, y, "first");
    ASSERT_TRUE(run(&second, b, &y));  // the same tensor: the shared copy
    check(b, y, "second, same tensor");
  }  // the test's reference to b is gone; first's and second's copy still holds one
  Tensor other(DT_FLOAT, TensorShape({k, n}));
  for (int64_t i = 0; i < k * n; ++i) other.data<float>()[i] = static_cast<float>(i % 7) - 3;
  ASSERT_TRUE(run(&third, other, &y));
  check(other, y, "third, another tensor");
}

TEST(MatMul, EmptyAndZeroInnerDimension) {
  auto out = RunKernel(NodeDefFor("MatMul", {{"T", DT_FLOAT}}),
                       {Tensor(DT_FLOAT, TensorShape({2, 0})), Tensor(DT_FLOAT, TensorShape({0, 3}))});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<float>((*out)[0]), std::vector<float>(6, 0.0f));
  out = RunKernel(NodeDefFor("MatMul", {{"T", DT_FLOAT}}),
                  {Tensor(DT_FLOAT, TensorShape({0, 4})), Tensor(DT_FLOAT, TensorShape({4, 3}))});
  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)[0].shape(), TensorShape({0, 3}));
}

TEST(MatMul, RejectsMismatchedInnerDimensions) {
  auto out = RunKernel(NodeDefFor("MatMul", {{"T", DT_FLOAT}}),
                       {RandomTensor<float>({2, 3}, 1), RandomTensor<float>({4, 2}, 2)});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
  out = RunKernel(NodeDefFor("MatMul", {{"T", DT_FLOAT}}),
                  {RandomTensor<float>({2, 3, 1}, 1), RandomTensor<float>({3, 2}, 2)});
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(BatchMatMul, MatchesReferenceWithAdjointsAndBroadcast) {
  struct Case {
    std::vector<int64_t> x, y;
    bool ax, ay;
    const char* op;
  };
  const std::vector<Case> cases = {
      {{3, 2, 4}, {3, 4, 5}, false, false, "BatchMatMul"},
      {{2, 2, 4, 3}, {2, 2, 5, 4}, true, true, "BatchMatMul"},
      {{3, 2, 4}, {4, 5}, false, false, "BatchMatMulV2"},
      {{2, 1, 2, 4}, {3, 4, 2}, false, false, "BatchMatMulV2"},
      {{1, 3, 4, 2}, {5, 1, 3, 4}, true, true, "BatchMatMulV2"},
      {{4, 70, 66}, {66, 70}, false, false, "BatchMatMulV2"},
      // One row, b of 138000 elements: split by columns for one matrix, not inside a batch's
      // pool tasks.
      {{1, 1, 600}, {600, 230}, false, false, "BatchMatMulV2"},
      {{3, 1, 600}, {230, 600}, false, true, "BatchMatMulV2"},
      {{0, 2, 3}, {3, 4}, false, false, "BatchMatMulV2"}};
  for (const Case& c : cases) {
    Tensor x = RandomTensor<float>(c.x, 3), y = RandomTensor<float>(c.y, 4);
    auto out = RunKernel(NodeDefFor(c.op, {{"T", DT_FLOAT}, {"adj_x", c.ax}, {"adj_y", c.ay}}),
                         {x, y});
    ASSERT_TRUE(out.ok()) << c.op << ": " << out.status();
    ExpectSame<float>((*out)[0], RefBatchMatMul<float>(x, y, c.ax, c.ay));
  }
  Tensor xi = RandomTensor<int32_t>({2, 3, 2}, 5), yi = RandomTensor<int32_t>({2, 2, 3}, 6);
  auto out = RunKernel(NodeDefFor("BatchMatMulV2", {{"T", DT_INT32}}), {xi, yi});
  ASSERT_TRUE(out.ok());
  ExpectSame<int32_t>((*out)[0], RefBatchMatMul<int32_t>(xi, yi, false, false));
}

TEST(BatchMatMul, RejectsUnequalBatchInV1AndIncompatibleInV2) {
  Tensor x = RandomTensor<float>({3, 2, 4}, 1), y = RandomTensor<float>({1, 4, 5}, 2);
  auto v1 = RunKernel(NodeDefFor("BatchMatMul", {{"T", DT_FLOAT}}), {x, y});
  EXPECT_EQ(v1.status().code(), absl::StatusCode::kInvalidArgument);
  auto v2 = RunKernel(NodeDefFor("BatchMatMulV2", {{"T", DT_FLOAT}}),
                      {x, RandomTensor<float>({2, 4, 5}, 2)});
  EXPECT_EQ(v2.status().code(), absl::StatusCode::kInvalidArgument);
  auto k = RunKernel(NodeDefFor("BatchMatMulV2", {{"T", DT_FLOAT}}),
                     {x, RandomTensor<float>({3, 5, 5}, 2)});
  EXPECT_EQ(k.status().code(), absl::StatusCode::kInvalidArgument);
}

// ---- Random ops -------------------------------------------------------------------------------

Tensor Shape1(int64_t n) { return MakeTensor<int32_t>({1}, {static_cast<int32_t>(n)}); }

template <typename T>
void ExpectValues(const Tensor& got, const std::vector<double>& want, double tol) {
  ASSERT_EQ(got.NumElements(), static_cast<int64_t>(want.size()));
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_NEAR(static_cast<double>(got.data<T>()[i]), want[i], tol) << "at " << i;
  }
}

TEST(RandomOps, UniformReproducesTensorFlowStream) {
  auto out = RunKernel(
      NodeDefFor("RandomUniform", {{"dtype", DT_FLOAT}, {"T", DT_INT32}, {"seed", int64_t{1}},
                                   {"seed2", int64_t{2}}}),
      {Shape1(6)});
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectValues<float>((*out)[0],
                      {0.406396746635437, 0.8575996160507202, 0.05539584159851074,
                       0.08587229251861572, 0.41215360164642334, 0.036630868911743164},
                      0);
  auto d = RunKernel(NodeDefFor("RandomUniform", {{"dtype", DT_DOUBLE}, {"T", DT_INT32},
                                                  {"seed", int64_t{1}}, {"seed2", int64_t{2}}}),
                     {Shape1(3)});
  ExpectValues<double>((*d)[0], {0.2511744980841868, 0.44316677020093853, 0.2972296290781924},
                       0);
  auto h = RunKernel(NodeDefFor("RandomUniform", {{"dtype", DT_HALF}, {"T", DT_INT32},
                                                  {"seed", int64_t{1}}, {"seed2", int64_t{2}}}),
                     {Shape1(5)});
  ExpectValues<half>((*h)[0], {0.2021484375, 0.4560546875, 0.802734375, 0.4658203125,
                               0.3623046875},
                     0);
  // A large output, filled in parallel: spot values and the sum.
  auto big = RunKernel(NodeDefFor("RandomUniform", {{"dtype", DT_FLOAT}, {"T", DT_INT32},
                                                    {"seed", int64_t{123}},
                                                    {"seed2", int64_t{456}}}),
                       {Shape1(100000)});
  const float* p = (*big)[0].data<float>();
  EXPECT_EQ(p[0], 0.08804428577423096f);
  EXPECT_EQ(p[99999], 0.5304501056671143f);
  EXPECT_EQ(p[50001], 0.9466323852539062f);
  double sum = 0;
  for (int i = 0; i < 100000; ++i) sum += p[i];
  EXPECT_NEAR(sum, 50045.2382683754, 1e-6);
}

TEST(RandomOps, SecondRunOfOneKernelContinuesTheStream) {
  // The kernel must keep its generator across runs: build it once via the registry.
  NodeDef node = NodeDefFor("RandomUniform", {{"dtype", DT_FLOAT}, {"T", DT_INT32},
                                              {"seed", int64_t{1}}, {"seed2", int64_t{2}}});
  const OpDef* op_def;
  ASSERT_TRUE(OpRegistry::Global()->LookUpOpDef("RandomUniform", &op_def).ok());
  auto shared = std::make_shared<NodeDef>(node);
  std::unique_ptr<OpKernel> kernel;
  ASSERT_TRUE(KernelRegistry::Global()
                  ->CreateKernel(test::TestDevice(), DEVICE_CPU, shared, op_def, &kernel)
                  .ok());
  std::vector<std::vector<float>> runs;
  for (int r = 0; r < 2; ++r) {
    std::vector<TensorValue> inputs = {TensorValue{Shape1(6)}};
    OpKernelContext::Params params;
    params.device = test::TestDevice();
    params.op_kernel = kernel.get();
    params.inputs = &inputs;
    OpKernelContext ctx(&params);
    kernel->Compute(&ctx);
    ASSERT_TRUE(ctx.status().ok()) << ctx.status();
    runs.push_back(Values<float>(ctx.output_value(0).Get()));
  }
  EXPECT_EQ(runs[1], (std::vector<float>{0.49945497512817383f, 0.06284701824188232f,
                                         0.4600658416748047f, 0.20280075073242188f,
                                         0.0886303186416626f, 0.9726002216339111f}));
}

TEST(RandomOps, NormalsReproduceTensorFlowStream) {
  auto n = RunKernel(
      NodeDefFor("RandomStandardNormal", {{"dtype", DT_FLOAT}, {"T", DT_INT32},
                                          {"seed", int64_t{1}}, {"seed2", int64_t{2}}}),
      {Shape1(5)});
  ASSERT_TRUE(n.ok()) << n.status();
  ExpectValues<float>((*n)[0],
                      {-1.0467792749404907, 0.8397045731544495, 1.235836386680603,
                       2.0637853145599365, 0.3037427067756653},
                      2e-7);
  auto nd = RunKernel(
      NodeDefFor("RandomStandardNormal", {{"dtype", DT_DOUBLE}, {"T", DT_INT32},
                                          {"seed", int64_t{7}}, {"seed2", int64_t{0}}}),
      {Shape1(3)});
  ExpectValues<double>((*nd)[0], {-2.326339586065351, -1.2699239428871103, -0.40152697215513494},
                       1e-14);
  auto t = RunKernel(NodeDefFor("TruncatedNormal", {{"dtype", DT_FLOAT}, {"T", DT_INT32},
                                                    {"seed", int64_t{1}}, {"seed2", int64_t{2}}}),
                     {Shape1(5)});
  ExpectValues<float>((*t)[0],
                      {-1.0467792749404907, 0.8397045731544495, 1.235836386680603,
                       0.3037427067756653, 0.38869091868400574},
                      2e-7);
  auto td = RunKernel(NodeDefFor("TruncatedNormal", {{"dtype", DT_DOUBLE}, {"T", DT_INT32},
                                                     {"seed", int64_t{1}}, {"seed2", int64_t{2}}}),
                      {Shape1(3)});
  ExpectValues<double>((*td)[0], {0.58105877128258, -1.557429113677359, -1.1295845092323191},
                       1e-14);
  auto tb = RunKernel(NodeDefFor("TruncatedNormal", {{"dtype", DT_FLOAT}, {"T", DT_INT32},
                                                     {"seed", int64_t{5}}, {"seed2", int64_t{9}}}),
                      {Shape1(3000)});
  const float* p = (*tb)[0].data<float>();
  const int idx[] = {0, 1, 2, 3, 1000, 2999};
  const double want[] = {0.5352789759635925, 0.13203659653663635, -1.879108190536499,
                         0.10361495614051819, -0.7913265824317932, 0.3381316065788269};
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(p[idx[i]], want[i], 2e-7);
  double sum = 0;
  for (int i = 0; i < 3000; ++i) {
    sum += p[i];
    EXPECT_LT(std::abs(p[i]), 2.0f);
  }
  EXPECT_NEAR(sum, 87.64334966504248, 1e-3);
}

TEST(RandomOps, UniformIntReproducesTensorFlowStream) {
  auto i = RunKernel(NodeDefFor("RandomUniformInt", {{"Tout", DT_INT32}, {"T", DT_INT32},
                                                     {"seed", int64_t{1}}, {"seed2", int64_t{2}}}),
                     {Shape1(5), MakeTensor<int32_t>({}, {-3}), MakeTensor<int32_t>({}, {10})});
  ASSERT_TRUE(i.ok()) << i.status();
  EXPECT_EQ(Values<int32_t>((*i)[0]), (std::vector<int32_t>{3, -2, 4, 0, -2}));
  auto l = RunKernel(NodeDefFor("RandomUniformInt", {{"Tout", DT_INT64}, {"T", DT_INT32},
                                                     {"seed", int64_t{3}}, {"seed2", int64_t{4}}}),
                     {Shape1(3), MakeTensor<int64_t>({}, {-5}),
                      MakeTensor<int64_t>({}, {int64_t{1} << 40})});
  ASSERT_TRUE(l.ok()) << l.status();
  EXPECT_EQ(Values<int64_t>((*l)[0]),
            (std::vector<int64_t>{294007197674, 111809909867, 535864027803}));
  auto bad = RunKernel(NodeDefFor("RandomUniformInt", {{"Tout", DT_INT32}, {"T", DT_INT32}}),
                       {Shape1(5), MakeTensor<int32_t>({}, {3}), MakeTensor<int32_t>({}, {3})});
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(RandomOps, UnseededKernelsDifferAndBadShapesFail) {
  auto run = [] {
    auto out = RunKernel(NodeDefFor("RandomUniform", {{"dtype", DT_FLOAT}, {"T", DT_INT64}}),
                         {MakeTensor<int64_t>({2}, {4, 4})});
    EXPECT_TRUE(out.ok()) << out.status();
    return Values<float>((*out)[0]);
  };
  std::vector<float> a = run(), b = run();
  EXPECT_EQ(a.size(), 16u);
  EXPECT_NE(a, b);
  for (float v : a) EXPECT_TRUE(v >= 0 && v < 1);
  auto neg = RunKernel(NodeDefFor("RandomUniform", {{"dtype", DT_FLOAT}, {"T", DT_INT32}}),
                       {MakeTensor<int32_t>({2}, {3, -1})});
  EXPECT_EQ(neg.status().code(), absl::StatusCode::kInvalidArgument);
  auto empty = RunKernel(NodeDefFor("RandomStandardNormal", {{"dtype", DT_FLOAT}, {"T", DT_INT32}}),
                         {MakeTensor<int32_t>({2}, {0, 5})});
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ((*empty)[0].shape(), TensorShape({0, 5}));
}

}  // namespace
}  // namespace sg
