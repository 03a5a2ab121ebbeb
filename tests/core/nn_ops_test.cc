// NN op kernels checked against direct reference loops written here, on small random inputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>

#include "tests/core/ops_testutil.h"

namespace sg {
namespace {

using test::NodeDefFor;
using test::RunKernel;

template <typename T>
Tensor Random(std::vector<int64_t> shape, std::mt19937* rng) {
  Tensor t(DataTypeToEnum<T>::value, TensorShape(shape));
  std::uniform_real_distribution<double> u(-1, 1);
  for (int64_t i = 0; i < t.NumElements(); ++i) t.data<T>()[i] = static_cast<T>(u(*rng));
  return t;
}

// Output size and leading padding as TensorFlow documents them for SAME / VALID / explicit.
struct Dim {
  int64_t out, pad;
};
Dim RefWindow(int64_t in, int64_t k, int64_t stride, int64_t dilation, const std::string& padding,
              int64_t before = 0, int64_t after = 0) {
  const int64_t ek = (k - 1) * dilation + 1;
  if (padding == "SAME") {
    const int64_t out = (in + stride - 1) / stride;
    const int64_t total = std::max<int64_t>((out - 1) * stride + ek - in, 0);
    return {out, total / 2};
  }
  if (padding == "VALID") return {(in - ek) / stride + 1, 0};
  return {(in + before + after - ek) / stride + 1, before};
}

struct ConvCase {
  int64_t n, h, w, c, kh, kw, out_c, sh, sw, dh, dw;
  std::string padding;
  std::vector<int64_t> explicit_pads;  // [top, bottom, left, right] for EXPLICIT
};

// The 7-loop convolution: depthwise when `multiplier` > 0 (filter [kh, kw, c, multiplier]).
template <typename T>
std::vector<double> RefConv(const ConvCase& k, const Tensor& in, const Tensor& f,
                            int64_t multiplier, std::vector<int64_t>* shape) {
  const auto& e = k.explicit_pads;
  Dim hd = RefWindow(k.h, k.kh, k.sh, k.dh, k.padding, e.empty() ? 0 : e[0], e.empty() ? 0 : e[1]);
  Dim wd = RefWindow(k.w, k.kw, k.sw, k.dw, k.padding, e.empty() ? 0 : e[2], e.empty() ? 0 : e[3]);
  const int64_t oc = multiplier > 0 ? k.c * multiplier : k.out_c;
  *shape = {k.n, hd.out, wd.out, oc};
  std::vector<double> out(k.n * hd.out * wd.out * oc, 0.0);
  for (int64_t n = 0; n < k.n; ++n)
    for (int64_t oh = 0; oh < hd.out; ++oh)
      for (int64_t ow = 0; ow < wd.out; ++ow)
        for (int64_t o = 0; o < oc; ++o) {
          double s = 0;
          for (int64_t i = 0; i < k.kh; ++i)
            for (int64_t j = 0; j < k.kw; ++j)
              for (int64_t c = 0; c < k.c; ++c) {
                const int64_t ih = oh * k.sh - hd.pad + i * k.dh;
                const int64_t iw = ow * k.sw - wd.pad + j * k.dw;
                if (ih < 0 || ih >= k.h || iw < 0 || iw >= k.w) continue;
                double w;
                if (multiplier > 0) {
                  if (c != o / multiplier) continue;
                  w = static_cast<double>(
                      f.data<T>()[((i * k.kw + j) * k.c + c) * multiplier + o % multiplier]);
                } else {
                  w = static_cast<double>(f.data<T>()[((i * k.kw + j) * k.c + c) * oc + o]);
                }
                s += static_cast<double>(in.data<T>()[((n * k.h + ih) * k.w + iw) * k.c + c]) * w;
              }
          out[((n * hd.out + oh) * wd.out + ow) * oc + o] = s;
        }
  return out;
}

std::vector<int64_t> DimsOf(const Tensor& t) {
  return std::vector<int64_t>(t.shape().dim_sizes().begin(), t.shape().dim_sizes().end());
}

template <typename T>
void ExpectNear(const Tensor& got, const std::vector<double>& want, double tol,
                const std::string& what) {
  ASSERT_EQ(got.NumElements(), static_cast<int64_t>(want.size())) << what;
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_NEAR(static_cast<double>(got.data<T>()[i]), want[i], tol) << what << " at " << i;
  }
}

const std::vector<ConvCase>& ConvCases() {
  static const std::vector<ConvCase> cases = {
      {2, 5, 6, 3, 3, 3, 4, 1, 1, 1, 1, "SAME", {}},
      {2, 5, 6, 3, 3, 3, 4, 1, 1, 1, 1, "VALID", {}},
      {1, 7, 7, 2, 3, 2, 3, 2, 2, 1, 1, "SAME", {}},
      {1, 8, 7, 2, 2, 3, 5, 2, 1, 1, 1, "SAME", {}},
      {1, 7, 9, 3, 3, 3, 2, 2, 3, 1, 1, "VALID", {}},
      {2, 9, 8, 2, 3, 3, 2, 1, 1, 2, 2, "SAME", {}},
      {1, 9, 8, 2, 2, 3, 3, 1, 2, 2, 1, "VALID", {}},
      {2, 4, 5, 3, 1, 1, 6, 1, 1, 1, 1, "VALID", {}},
      {1, 6, 6, 3, 1, 1, 2, 2, 2, 1, 1, "SAME", {}},
      {1, 5, 6, 2, 3, 3, 3, 1, 2, 1, 1, "EXPLICIT", {2, 0, 1, 3}},
      {1, 2, 2, 1, 3, 3, 1, 1, 1, 1, 1, "VALID", {}},  // window larger than the input
  };
  return cases;
}

template <typename T>
void CheckConv2D(double tol) {
  std::mt19937 rng(1);
  for (const ConvCase& k : ConvCases()) {
    Tensor in = Random<T>({k.n, k.h, k.w, k.c}, &rng);
    Tensor f = Random<T>({k.kh, k.kw, k.c, k.out_c}, &rng);
    std::vector<int64_t> ex;
    if (!k.explicit_pads.empty()) {
      ex = {0, 0, k.explicit_pads[0], k.explicit_pads[1], k.explicit_pads[2], k.explicit_pads[3],
            0, 0};
    }
    NodeDef node = NodeDefFor("Conv2D", {{"T", DataTypeToEnum<T>::value},
                                         {"strides", {1, k.sh, k.sw, 1}},
                                         {"dilations", {1, k.dh, k.dw, 1}},
                                         {"padding", k.padding}});
    if (!ex.empty()) {
      SetAttrValue(absl::Span<const int64_t>(ex), &(*node.mutable_attr())["explicit_paddings"]);
    }
    auto out = RunKernel(node, {in, f});
    ASSERT_TRUE(out.ok()) << out.status();
    std::vector<int64_t> shape;
    std::vector<double> want = RefConv<T>(k, in, f, 0, &shape);
    EXPECT_EQ(DimsOf((*out)[0]), shape);
    ExpectNear<T>((*out)[0], want, tol,
                  absl::StrCat(k.padding, " k", k.kh, "x", k.kw, " s", k.sh, k.sw, " d", k.dh,
                               k.dw));
  }
}

TEST(Conv2D, MatchesDirectConvolutionInFloat) { CheckConv2D<float>(1e-4); }
TEST(Conv2D, MatchesDirectConvolutionInDouble) { CheckConv2D<double>(1e-10); }

TEST(Conv2D, MatchesOnALargerInputSplitAcrossThreads) {
  std::mt19937 rng(3);
  ConvCase k{3, 23, 19, 8, 3, 3, 16, 1, 1, 1, 1, "SAME", {}};
  Tensor in = Random<float>({k.n, k.h, k.w, k.c}, &rng);
  Tensor f = Random<float>({k.kh, k.kw, k.c, k.out_c}, &rng);
  auto out = RunKernel(NodeDefFor("Conv2D", {{"T", DT_FLOAT}, {"strides", {1, 1, 1, 1}},
                                             {"padding", "SAME"}}),
                       {in, f});
  ASSERT_TRUE(out.ok()) << out.status();
  std::vector<int64_t> shape;
  ExpectNear<float>((*out)[0], RefConv<float>(k, in, f, 0, &shape), 1e-4, "large");
}

TEST(Conv2D, RejectsBadShapesAndStrides) {
  std::mt19937 rng(2);
  Tensor in = Random<float>({1, 4, 4, 3}, &rng);
  auto depth = RunKernel(NodeDefFor("Conv2D", {{"T", DT_FLOAT}, {"strides", {1, 1, 1, 1}},
                                               {"padding", "SAME"}}),
                         {in, Random<float>({3, 3, 2, 4}, &rng)});
  EXPECT_FALSE(depth.ok());
  auto batch_stride = RunKernel(NodeDefFor("Conv2D", {{"T", DT_FLOAT}, {"strides", {2, 1, 1, 1}},
                                                      {"padding", "SAME"}}),
                                {in, Random<float>({3, 3, 3, 4}, &rng)});
  EXPECT_EQ(batch_stride.status().code(), absl::StatusCode::kInvalidArgument);
  auto too_big = RunKernel(NodeDefFor("Conv2D", {{"T", DT_FLOAT}, {"strides", {1, 1, 1, 1}},
                                                 {"padding", "VALID"}}),
                           {in, Random<float>({6, 1, 3, 4}, &rng)});
  EXPECT_EQ(too_big.status().code(), absl::StatusCode::kInvalidArgument);
  auto rank = RunKernel(NodeDefFor("Conv2D", {{"T", DT_FLOAT}, {"strides", {1, 1, 1, 1}},
                                              {"padding", "VALID"}}),
                        {Random<float>({4, 4, 3}, &rng), Random<float>({1, 1, 3, 4}, &rng)});
  EXPECT_EQ(rank.status().code(), absl::StatusCode::kInvalidArgument);
}

// The two gradients of the convolution of ConvCase k (no dilation), from the same loops as
// RefConv: dx [n, h, w, c] and dw [kh, kw, c, out_c] for output gradient dy.
void RefConvGrads(const ConvCase& k, const Tensor& in, const Tensor& f, const Tensor& dy,
                  std::vector<double>* dx, std::vector<double>* dw) {
  const auto& e = k.explicit_pads;
  Dim hd = RefWindow(k.h, k.kh, k.sh, 1, k.padding, e.empty() ? 0 : e[0], e.empty() ? 0 : e[1]);
  Dim wd = RefWindow(k.w, k.kw, k.sw, 1, k.padding, e.empty() ? 0 : e[2], e.empty() ? 0 : e[3]);
  dx->assign(k.n * k.h * k.w * k.c, 0.0);
  dw->assign(k.kh * k.kw * k.c * k.out_c, 0.0);
  for (int64_t n = 0; n < k.n; ++n)
    for (int64_t oh = 0; oh < hd.out; ++oh)
      for (int64_t ow = 0; ow < wd.out; ++ow)
        for (int64_t i = 0; i < k.kh; ++i)
          for (int64_t j = 0; j < k.kw; ++j) {
            const int64_t ih = oh * k.sh - hd.pad + i, iw = ow * k.sw - wd.pad + j;
            if (ih < 0 || ih >= k.h || iw < 0 || iw >= k.w) continue;
            for (int64_t c = 0; c < k.c; ++c)
              for (int64_t o = 0; o < k.out_c; ++o) {
                const double g = dy.data<float>()[((n * hd.out + oh) * wd.out + ow) * k.out_c + o];
                const int64_t x = ((n * k.h + ih) * k.w + iw) * k.c + c;
                const int64_t w = ((i * k.kw + j) * k.c + c) * k.out_c + o;
                (*dx)[x] += g * f.data<float>()[w];
                (*dw)[w] += g * in.data<float>()[x];
              }
          }
}

// The float gradients run through oneDNN's primitives where sg has them; these shapes cover
// both paddings, strides that leave input rows uncovered, explicit padding and a window larger
// than the input, and one larger layer (the training benchmark's second convolution).
TEST(Conv2DBackprop, InputAndFilterMatchDirectLoopsInFloat) {
  std::mt19937 rng(5);
  std::vector<ConvCase> cases;
  for (const ConvCase& k : ConvCases()) {
    if (k.dh == 1 && k.dw == 1) cases.push_back(k);
  }
  cases.push_back({4, 14, 14, 16, 5, 5, 32, 1, 1, 1, 1, "SAME", {}});
  cases.push_back({2, 15, 13, 8, 3, 3, 16, 2, 2, 1, 1, "VALID", {}});
  for (const ConvCase& k : cases) {
    const auto& e = k.explicit_pads;
    Dim hd = RefWindow(k.h, k.kh, k.sh, 1, k.padding, e.empty() ? 0 : e[0], e.empty() ? 0 : e[1]);
    Dim wd = RefWindow(k.w, k.kw, k.sw, 1, k.padding, e.empty() ? 0 : e[2], e.empty() ? 0 : e[3]);
    Tensor in = Random<float>({k.n, k.h, k.w, k.c}, &rng);
    Tensor f = Random<float>({k.kh, k.kw, k.c, k.out_c}, &rng);
    Tensor dy = Random<float>({k.n, hd.out, wd.out, k.out_c}, &rng);
    std::vector<double> dx, dw;
    RefConvGrads(k, in, f, dy, &dx, &dw);
    // dw sums n * out positions products in float: allow for more rounding on the large cases.
    const double tol = k.n * hd.out * wd.out > 200 ? 1e-3 : 1e-4;
    auto attrs = [&](const char* op) {
      NodeDef node = NodeDefFor(op, {{"T", DT_FLOAT},
                                     {"strides", {1, k.sh, k.sw, 1}},
                                     {"padding", k.padding}});
      if (!e.empty()) {
        const std::vector<int64_t> ex = {0, 0, e[0], e[1], e[2], e[3], 0, 0};
        SetAttrValue(absl::Span<const int64_t>(ex), &(*node.mutable_attr())["explicit_paddings"]);
      }
      return node;
    };
    auto sizes = [](std::vector<int32_t> v) {
      Tensor t(DT_INT32, TensorShape({static_cast<int64_t>(v.size())}));
      std::copy(v.begin(), v.end(), t.data<int32_t>());
      return t;
    };
    const std::string what = absl::StrCat(k.padding, " n", k.n, " ", k.h, "x", k.w, "x", k.c,
                                          " k", k.kh, "x", k.kw, " s", k.sh, k.sw);
    auto got_dx = RunKernel(attrs("Conv2DBackpropInput"),
                            {sizes({int32_t(k.n), int32_t(k.h), int32_t(k.w), int32_t(k.c)}), f,
                             dy});
    ASSERT_TRUE(got_dx.ok()) << what << ": " << got_dx.status();
    ExpectNear<float>((*got_dx)[0], dx, tol, "dx " + what);
    auto got_dw = RunKernel(attrs("Conv2DBackpropFilter"),
                            {in, sizes({int32_t(k.kh), int32_t(k.kw), int32_t(k.c),
                                        int32_t(k.out_c)}), dy});
    ASSERT_TRUE(got_dw.ok()) << what << ": " << got_dw.status();
    ExpectNear<float>((*got_dw)[0], dw, tol, "dw " + what);
  }
}

TEST(DepthwiseConv2dNative, MatchesDirectConvolutionWithMultiplier) {
  std::mt19937 rng(4);
  for (const ConvCase& k : ConvCases()) {
    if (k.padding == "EXPLICIT") continue;
    const int64_t mult = 2;
    Tensor in = Random<float>({k.n, k.h, k.w, k.c}, &rng);
    Tensor f = Random<float>({k.kh, k.kw, k.c, mult}, &rng);
    auto out = RunKernel(NodeDefFor("DepthwiseConv2dNative",
                                    {{"T", DT_FLOAT},
                                     {"strides", {1, k.sh, k.sw, 1}},
                                     {"dilations", {1, k.dh, k.dw, 1}},
                                     {"padding", k.padding}}),
                         {in, f});
    ASSERT_TRUE(out.ok()) << out.status();
    std::vector<int64_t> shape;
    std::vector<double> want = RefConv<float>(k, in, f, mult, &shape);
    EXPECT_EQ(DimsOf((*out)[0]), shape);
    ExpectNear<float>((*out)[0], want, 1e-5, k.padding);
  }
}

struct PoolCase {
  int64_t n, h, w, c, kh, kw, sh, sw;
  std::string padding;
};

// Reference pooling: max, or the mean over the window's elements inside the input.
std::vector<double> RefPool(const PoolCase& k, const Tensor& in, bool max,
                            std::vector<int64_t>* shape) {
  Dim hd = RefWindow(k.h, k.kh, k.sh, 1, k.padding), wd = RefWindow(k.w, k.kw, k.sw, 1, k.padding);
  *shape = {k.n, hd.out, wd.out, k.c};
  std::vector<double> out;
  for (int64_t n = 0; n < k.n; ++n)
    for (int64_t oh = 0; oh < hd.out; ++oh)
      for (int64_t ow = 0; ow < wd.out; ++ow)
        for (int64_t c = 0; c < k.c; ++c) {
          double best = -1e300, sum = 0;
          int count = 0;
          for (int64_t i = 0; i < k.kh; ++i)
            for (int64_t j = 0; j < k.kw; ++j) {
              const int64_t ih = oh * k.sh - hd.pad + i, iw = ow * k.sw - wd.pad + j;
              if (ih < 0 || ih >= k.h || iw < 0 || iw >= k.w) continue;
              const double v = in.data<float>()[((n * k.h + ih) * k.w + iw) * k.c + c];
              best = std::max(best, v);
              sum += v;
              ++count;
            }
          out.push_back(max ? best : sum / count);
        }
  return out;
}

TEST(Pooling, MaxAndAvgMatchReferenceLoops) {
  const std::vector<PoolCase> cases = {
      {2, 6, 6, 3, 2, 2, 2, 2, "VALID"}, {2, 5, 7, 3, 3, 3, 2, 2, "SAME"},
      {1, 5, 5, 2, 3, 3, 1, 1, "SAME"},  {1, 7, 6, 2, 3, 2, 2, 3, "VALID"},
      {1, 4, 4, 1, 4, 4, 1, 1, "SAME"},  {1, 6, 5, 2, 1, 1, 2, 2, "VALID"},
      // 2x2 at stride 2 (MaxPool's one-pass rows when no window meets padding): odd sizes whose
      // last row and column no window reaches, even sizes under SAME (no padding), odd sizes
      // under SAME (padding: the general loop), and channel counts around a vector's width.
      {2, 7, 5, 33, 2, 2, 2, 2, "VALID"}, {1, 6, 8, 17, 2, 2, 2, 2, "SAME"},
      {1, 5, 7, 9, 2, 2, 2, 2, "SAME"},   {3, 4, 4, 8, 2, 2, 2, 2, "VALID"},
  };
  std::mt19937 rng(5);
  for (const PoolCase& k : cases) {
    Tensor in = Random<float>({k.n, k.h, k.w, k.c}, &rng);
    for (bool max : {true, false}) {
      auto out = RunKernel(NodeDefFor(max ? "MaxPool" : "AvgPool",
                                      {{"T", DT_FLOAT},
                                       {"ksize", {1, k.kh, k.kw, 1}},
                                       {"strides", {1, k.sh, k.sw, 1}},
                                       {"padding", k.padding}}),
                           {in});
      ASSERT_TRUE(out.ok()) << out.status();
      std::vector<int64_t> shape;
      std::vector<double> want = RefPool(k, in, max, &shape);
      EXPECT_EQ(DimsOf((*out)[0]), shape);
      ExpectNear<float>((*out)[0], want, 1e-6, absl::StrCat(max ? "max " : "avg ", k.padding));
    }
  }
}

// A NaN in a window is passed over, not returned, as TensorFlow 2.21's MaxPool does (checked:
// windows [nan, 1, 1, nan] and [1, nan, 1, 5] give 1 and 5). Every tap position of a 2x2 window
// holds the NaN in some channel, for the one-pass 2x2 rows (VALID) and the general loop (SAME
// over odd sizes, with padding).
TEST(MaxPool, NaNsNeverWinAWindow) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (const std::string padding : {"VALID", "SAME"}) {
    const int64_t h = padding == "VALID" ? 2 : 3, w = padding == "VALID" ? 2 : 3, c = 20;
    Tensor in(DT_FLOAT, TensorShape({1, h, w, c}));
    float* x = in.data<float>();
    for (int64_t i = 0; i < h * w * c; ++i) x[i] = static_cast<float>(i % 7);
    // Channel ch's NaN sits at tap ch % 4 of the top-left window; its non-NaN values there are
    // the channel's others.
    std::vector<float> want(c);
    for (int64_t ch = 0; ch < c; ++ch) {
      float best = -std::numeric_limits<float>::infinity();
      for (int64_t t = 0; t < 4; ++t) {
        float& v = x[((t / 2) * w + t % 2) * c + ch];
        if (t == ch % 4) {
          v = nan;
        } else {
          best = std::max(best, v);
        }
      }
      want[ch] = best;
    }
    auto out = RunKernel(NodeDefFor("MaxPool", {{"T", DT_FLOAT},
                                                {"ksize", {1, 2, 2, 1}},
                                                {"strides", {1, 2, 2, 1}},
                                                {"padding", padding}}),
                         {in});
    ASSERT_TRUE(out.ok()) << out.status();
    const float* y = (*out)[0].data<float>();
    for (int64_t ch = 0; ch < c; ++ch) {
      EXPECT_EQ(y[ch], want[ch]) << padding << " channel " << ch;
    }
  }
}

TEST(Pooling, RejectsPoolingOverTheBatch) {
  std::mt19937 rng(6);
  auto out = RunKernel(NodeDefFor("MaxPool", {{"T", DT_FLOAT},
                                              {"ksize", {2, 1, 1, 1}},
                                              {"strides", {1, 1, 1, 1}},
                                              {"padding", "VALID"}}),
                       {Random<float>({2, 3, 3, 1}, &rng)});
  EXPECT_FALSE(out.ok());
}

TEST(MaxPool, WorksOnIntegers) {
  Tensor in = test::MakeTensor<int32_t>({1, 2, 2, 1}, {-3, -1, 1, -2});
  auto out = RunKernel(NodeDefFor("MaxPool", {{"T", DT_INT32},
                                              {"ksize", {1, 2, 2, 1}},
                                              {"strides", {1, 1, 1, 1}},
                                              {"padding", "SAME"}}),
                       {in});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(test::Values<int32_t>((*out)[0]), (std::vector<int32_t>{1, -1, 1, -2}));
}

// Reference batch norm over an NHWC tensor viewed as [rows, C].
void CheckBatchNorm(const std::string& op, bool training, const std::string& format) {
  std::mt19937 rng(7);
  const int64_t n = 2, h = 3, w = 2, c = 3;
  const bool nchw = format == "NCHW";
  Tensor x = Random<float>(nchw ? std::vector<int64_t>{n, c, h, w} : std::vector<int64_t>{n, h, w, c},
                           &rng);
  Tensor scale = Random<float>({c}, &rng), offset = Random<float>({c}, &rng);
  Tensor mean = Random<float>({c}, &rng), var = Random<float>({c}, &rng);
  for (int i = 0; i < c; ++i) var.data<float>()[i] = std::fabs(var.data<float>()[i]) + 0.5f;
  const float eps = 0.001f;
  std::vector<test::AttrArg> attrs = {{"T", DT_FLOAT}, {"epsilon", eps},
                                      {"is_training", training}, {"data_format", format}};
  if (op != "FusedBatchNorm") attrs.push_back({"U", DT_FLOAT});
  auto out = RunKernel(NodeDefFor(op, attrs), {x, scale, offset, mean, var});
  ASSERT_TRUE(out.ok()) << out.status();
  auto at = [&](int64_t i, int64_t k) {  // element k of channel... for row i
    return nchw ? ((i / (h * w)) * c + k) * h * w + i % (h * w) : i * c + k;
  };
  const int64_t rows = n * h * w;
  for (int64_t k = 0; k < c; ++k) {
    double m = mean.data<float>()[k], v = var.data<float>()[k];
    if (training) {
      m = 0;
      for (int64_t i = 0; i < rows; ++i) m += x.data<float>()[at(i, k)];
      m /= rows;
      v = 0;
      for (int64_t i = 0; i < rows; ++i) {
        const double d = x.data<float>()[at(i, k)] - m;
        v += d * d;
      }
      v /= rows;
    }
    for (int64_t i = 0; i < rows; ++i) {
      const double want = scale.data<float>()[k] * (x.data<float>()[at(i, k)] - m) /
                              std::sqrt(v + eps) +
                          offset.data<float>()[k];
      ASSERT_NEAR((*out)[0].data<float>()[at(i, k)], want, 1e-5) << op << " " << format;
    }
    EXPECT_NEAR((*out)[1].data<float>()[k], m, 1e-5);
    EXPECT_NEAR((*out)[2].data<float>()[k], training ? v * rows / (rows - 1) : v, 1e-5);
    EXPECT_NEAR((*out)[3].data<float>()[k], m, 1e-5);
    EXPECT_NEAR((*out)[4].data<float>()[k], v, 1e-5);
  }
}

TEST(FusedBatchNorm, InferenceNormalizesWithGivenStatistics) {
  CheckBatchNorm("FusedBatchNorm", false, "NHWC");
  CheckBatchNorm("FusedBatchNormV2", false, "NHWC");
  CheckBatchNorm("FusedBatchNormV3", false, "NHWC");
  CheckBatchNorm("FusedBatchNormV3", false, "NCHW");
}

TEST(FusedBatchNorm, TrainingUsesBatchStatistics) {
  CheckBatchNorm("FusedBatchNorm", true, "NHWC");
  CheckBatchNorm("FusedBatchNormV3", true, "NHWC");
  CheckBatchNorm("FusedBatchNormV3", true, "NCHW");
}

TEST(FusedBatchNorm, RejectsWrongChannelCount) {
  std::mt19937 rng(8);
  auto out = RunKernel(NodeDefFor("FusedBatchNormV3", {{"T", DT_FLOAT}, {"U", DT_FLOAT},
                                                       {"is_training", false}}),
                       {Random<float>({1, 2, 2, 3}, &rng), Random<float>({2}, &rng),
                        Random<float>({3}, &rng), Random<float>({3}, &rng),
                        Random<float>({3}, &rng)});
  EXPECT_FALSE(out.ok());
}

TEST(LRN, MatchesReference) {
  std::mt19937 rng(9);
  Tensor in = Random<float>({2, 2, 1, 7}, &rng);
  const int64_t r = 2;
  const float bias = 1.5f, alpha = 0.3f, beta = 0.75f;
  auto out = RunKernel(NodeDefFor("LRN", {{"T", DT_FLOAT}, {"depth_radius", r}, {"bias", bias},
                                          {"alpha", alpha}, {"beta", beta}}),
                       {in});
  ASSERT_TRUE(out.ok()) << out.status();
  std::vector<double> want;
  for (int64_t row = 0; row < 4; ++row) {
    for (int64_t c = 0; c < 7; ++c) {
      double s = 0;
      for (int64_t k = std::max<int64_t>(0, c - r); k <= std::min<int64_t>(6, c + r); ++k) {
        const double v = in.data<float>()[row * 7 + k];
        s += v * v;
      }
      want.push_back(in.data<float>()[row * 7 + c] / std::pow(bias + alpha * s, beta));
    }
  }
  ExpectNear<float>((*out)[0], want, 1e-5, "lrn");
}

}  // namespace
}  // namespace sg

namespace sg {
namespace {

// Timing only (run with --gtest_also_run_disabled_tests): a ResNet-like 3x3 layer.
TEST(Conv2D, DISABLED_TimesAResNetLayer) {
  std::mt19937 rng(10);
  Tensor in = Random<float>({8, 56, 56, 64}, &rng);
  Tensor f = Random<float>({3, 3, 64, 64}, &rng);
  NodeDef node = NodeDefFor("Conv2D", {{"T", DT_FLOAT}, {"strides", {1, 1, 1, 1}},
                                       {"padding", "SAME"}});
  for (int i = 0; i < 3; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    auto out = RunKernel(node, {in, f});
    ASSERT_TRUE(out.ok());
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double gflop = 2.0 * 8 * 56 * 56 * 64 * 64 * 9 / 1e9;
    std::printf("conv 8x56x56x64 3x3x64: %.1f ms, %.1f GFLOP/s\n", s * 1e3, gflop / s);
  }
}

}  // namespace
}  // namespace sg
