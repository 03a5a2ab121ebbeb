// The checks of the real TensorFlow graphs in ../shared/testdata/tf_graphs (see its MANIFEST.md
// for where each expected value comes from), written once for every kind of session:
// tests/core/real_graphs_test.cc runs them in a local DirectSession, and
// tests/distributed/cluster_test.cc runs them in a local session and on a multi-process cluster.
// Each check opens its graphs through a SessionOpener, so the feeds, fetches and expected values
// cannot drift apart between the two.
//
// gtest's ASSERT_* in a check returns from the check only, not from the calling test: a caller
// that does more after a check first tests ::testing::Test::HasFatalFailure().
#ifndef SG_TESTS_COMMON_REAL_GRAPH_CHECKS_H_
#define SG_TESTS_COMMON_REAL_GRAPH_CHECKS_H_

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <functional>
#include <memory>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/graph/graph_constructor.h"
#include "core/runtime/session.h"

// Skips the calling test, saying why, when ../shared/testdata/tf_graphs is absent (as it is in a
// user's clone). A macro because GTEST_SKIP() must return from the test itself.
#define SG_SKIP_WITHOUT_SHARED()                                                   \
  if (!::sg::test::HaveShared())                                                   \
  GTEST_SKIP() << "skipped: ../shared/testdata/tf_graphs is not present "          \
                  "(it exists only beside the project's own checkout)"

namespace sg {
namespace test {

// ---- files -------------------------------------------------------------------------------------

inline std::string SharedDir() { return SG_SHARED_TESTDATA; }

inline bool HaveShared() {
  std::ifstream f(SharedDir() + "/MANIFEST.md");
  return f.good();
}

// The whole file at `path`; empty when it cannot be read.
inline std::string ReadFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// The uncompressed bytes of the gzip file at `path`; empty when it cannot be opened.
inline std::string Gunzip(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  std::string out;
  if (!f) return out;
  char buf[1 << 16];
  int n;
  while ((n = gzread(f, buf, sizeof(buf))) > 0) out.append(buf, n);
  gzclose(f);
  return out;
}

// ---- sessions ----------------------------------------------------------------------------------

// A session on `target` ("" for a local DirectSession) with `gdef` created in it. Failures are
// recorded as non-fatal; the result is null only when no session could be made at all.
inline std::unique_ptr<Session> NewSessionOn(const std::string& target, const GraphDef& gdef,
                                             const ConfigProto& config = {}) {
  SessionOptions opts;
  opts.target = target;
  opts.config = config;
  std::unique_ptr<Session> session;
  absl::Status s = NewSession(opts, &session);
  EXPECT_TRUE(s.ok()) << s;
  if (!s.ok()) return nullptr;
  s = session->Create(gdef);
  EXPECT_TRUE(s.ok()) << (target.empty() ? "local session" : target) << ": " << s;
  return session;
}

// NewSessionOn for the GraphDef (binary or text) in the file at `path`.
inline std::unique_ptr<Session> LoadGraph(const std::string& path, const std::string& target = "",
                                          const ConfigProto& config = {}) {
  GraphDef gdef;
  absl::Status s = ParseGraphDef(ReadFile(path), &gdef);
  EXPECT_TRUE(s.ok()) << path << ": " << s;
  return NewSessionOn(target, gdef, config);
}

// Opens a session for a graph file of SharedDir(), named relative to it.
using SessionOpener = std::function<std::unique_ptr<Session>(const std::string& file)>;

// The SessionOpener for `target` ("" for a local DirectSession) with `config`.
inline SessionOpener SharedGraphOpener(const std::string& target,
                                       const ConfigProto& config = {}) {
  return [target, config](const std::string& file) {
    return LoadGraph(SharedDir() + "/" + file, target, config);
  };
}

// ---- tensors -----------------------------------------------------------------------------------

template <typename T>
Tensor Make(std::vector<int64_t> shape, std::vector<T> values) {
  Tensor t(DataTypeToEnum<T>::value, TensorShape(shape));
  std::copy(values.begin(), values.end(), t.data<T>());
  return t;
}

template <typename T>
std::vector<T> Vals(const Tensor& t) {
  return std::vector<T>(t.data<T>(), t.data<T>() + t.NumElements());
}

// Each of `want` is within atol + rtol * |want| of the element of `got` at the same index.
inline void ExpectNear(const std::vector<float>& got, const std::vector<float>& want, double rtol,
                       double atol = 0) {
  ASSERT_GE(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_NEAR(got[i], want[i], atol + rtol * std::abs(want[i])) << "at " << i;
  }
}

// The [1, 784] input 1, 2, ..., 784 the tf2onnx graphs' expected values were computed on.
inline Tensor Ramp() {
  std::vector<float> v(784);
  for (int i = 0; i < 784; ++i) v[i] = 1.0f + i;
  return Make<float>({1, 784}, v);
}

// The [1, frames, 10] MFCC input (i % 17 - 8) the keyword spotting graphs' expected values were
// computed on.
inline Tensor MfccRamp(int frames) {
  std::vector<float> v(frames * 10);
  for (int i = 0; i < frames * 10; ++i) v[i] = static_cast<float>(i % 17 - 8);
  return Make<float>({1, frames, 10}, v);
}

// ---- the checks, one per graph (or group of graphs) ---------------------------------------------

// tfrust_addition.pb (TF2): shape [1] tensors fed into scalar placeholders.
inline void CheckAddition(const SessionOpener& open) {
  auto s = open("tfrust_addition.pb");
  ASSERT_NE(s, nullptr);
  std::vector<Tensor> out;
  absl::Status st = s->Run({{"x:0", Make<int32_t>({1}, {2})}, {"y:0", Make<int32_t>({1}, {40})}},
                           {"z:0"}, {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(Vals<int32_t>(out[0]), std::vector<int32_t>{42});
}

// tfrust_multiplication.pb, from a producer 9 GraphDef.
inline void CheckMultiplication(const SessionOpener& open) {
  auto s = open("tfrust_multiplication.pb");
  ASSERT_NE(s, nullptr);
  std::vector<Tensor> out;
  absl::Status st = s->Run(
      {{"a:0", Make<float>({3}, {1, 2, 3})}, {"b:0", Make<float>({3}, {4, 5, 6})}}, {"c:0"}, {},
      &out);
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(Vals<float>(out[0]), (std::vector<float>{4, 10, 18}));
}

// tf_aot_test_graph_tfadd.pbtxt: a text GraphDef adding two constants, first as they are, then
// with both constants fed.
inline void CheckTextGraphAdd(const SessionOpener& open) {
  auto s = open("tf_aot_test_graph_tfadd.pbtxt");
  ASSERT_NE(s, nullptr);
  std::vector<Tensor> out;
  absl::Status st = s->Run({}, {"x_y_sum:0"}, {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(Vals<int32_t>(out[0]), std::vector<int32_t>{3});
  st = s->Run({{"x_const:0", Make<int32_t>({1}, {10})}, {"y_const:0", Make<int32_t>({1}, {32})}},
              {"x_y_sum:0"}, {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(Vals<int32_t>(out[0]), std::vector<int32_t>{42});
}

// tf_grappler_while_loop.pbtxt: ten iterations, and a [2048, 2] tensor of ones out of the loop.
inline void CheckWhileLoop(const SessionOpener& open) {
  auto s = open("tf_grappler_while_loop.pbtxt");
  ASSERT_NE(s, nullptr);
  std::vector<Tensor> out;
  absl::Status st = s->Run({}, {"while/Exit:0", "while/Exit_1:0"}, {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(Vals<int32_t>(out[0]), std::vector<int32_t>{10});
  EXPECT_EQ(out[1].shape(), TensorShape({2048, 2}));
  auto ones = Vals<float>(out[1]);
  EXPECT_EQ(std::count(ones.begin(), ones.end(), 1.0f), 4096);
}

// tf_grappler_merge_without_loops.pbtxt: a v1 cond (Switch/Merge) that takes its false branch
// (Merge's value_index output is 1), the untaken branch's deadness not reaching the concat.
inline void CheckCond(const SessionOpener& open) {
  auto s = open("tf_grappler_merge_without_loops.pbtxt");
  ASSERT_NE(s, nullptr);
  std::vector<Tensor> out;
  absl::Status st = s->Run({}, {"concat:0", "cond/Merge:1"}, {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(out[0].shape(), TensorShape({1, 2, 2}));
  EXPECT_EQ(Vals<float>(out[0]), std::vector<float>(4, 1.0f));
  EXPECT_EQ(Vals<int32_t>(out[1]), std::vector<int32_t>{1});
}

// tf_grappler_simple_function.pbtxt: a function of the graph's library used as an op type.
inline void CheckLibraryFunction(const SessionOpener& open) {
  auto s = open("tf_grappler_simple_function.pbtxt");
  ASSERT_NE(s, nullptr);
  std::vector<Tensor> out;
  absl::Status st = s->Run({}, {"MyAdd_55e046a8:0", "MyAdd_55e046a8_1:0"}, {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(out[0].shape(), TensorShape({1, 2}));
  EXPECT_EQ(Vals<float>(out[0]), (std::vector<float>{4, 4}));
  EXPECT_EQ(Vals<float>(out[1]), (std::vector<float>{6, 6}));
}

// fazibear_mul_vars in text and in binary: init, then the product of the two variables.
inline void CheckVariables(const SessionOpener& open) {
  for (const char* file : {"fazibear_mul_vars.pbtxt", "fazibear_mul_vars.pb"}) {
    auto s = open(file);
    ASSERT_NE(s, nullptr) << file;
    std::vector<Tensor> out;
    absl::Status st = s->Run({}, {}, {"init"}, &out);
    ASSERT_TRUE(st.ok()) << file << ": " << st;
    st = s->Run({}, {"c:0"}, {}, &out);
    ASSERT_TRUE(st.ok()) << file << ": " << st;
    EXPECT_EQ(Vals<float>(out[0]), std::vector<float>{30.0f}) << file;
  }
}

// fazibear_mul_vars.pb without init: reading the variables is FailedPrecondition. The caller
// makes sure no earlier session left them initialized (variables on a cluster outlive sessions).
inline void CheckReadBeforeInitFails(const SessionOpener& open) {
  auto s = open("fazibear_mul_vars.pb");
  ASSERT_NE(s, nullptr);
  std::vector<Tensor> out;
  absl::Status st = s->Run({}, {"c:0"}, {}, &out);
  EXPECT_EQ(st.code(), absl::StatusCode::kFailedPrecondition) << st;
}

// tf2onnx_regression_frozen.pb, a GraphDef without versions, at two inputs.
inline void CheckRegression(const SessionOpener& open) {
  auto s = open("tf2onnx_regression_frozen.pb");
  ASSERT_NE(s, nullptr);
  std::vector<Tensor> out;
  absl::Status st = s->Run({{"X:0", Make<float>({1}, {5.0f})}}, {"pred:0"}, {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  ExpectNear(Vals<float>(out[0]), {2.1193342f}, 1e-5);
  st = s->Run({{"X:0", Make<float>({1}, {1.0f})}}, {"pred:0"}, {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  ExpectNear(Vals<float>(out[0]), {1.263487f}, 1e-5);
}

// tf2onnx_fc_layers_frozen.pb on Ramp(): the first five outputs and the sum of all of them.
inline void CheckFullyConnected(const SessionOpener& open) {
  auto s = open("tf2onnx_fc_layers_frozen.pb");
  ASSERT_NE(s, nullptr);
  std::vector<Tensor> out;
  absl::Status st = s->Run({{"X:0", Ramp()}}, {"output:0"}, {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  auto v = Vals<float>(out[0]);
  ExpectNear(v, {-9757.53f, -2871.289f, 7155.592f, 1267.3668f, -12316.452f}, 1e-4);
  EXPECT_NEAR(std::accumulate(v.begin(), v.end(), 0.0), -55631.63, 55631.63 * 1e-4);
}

// tf2onnx_lstm_frozen.pb (an unrolled LSTM) on Ramp(), with dropout off.
inline void CheckUnrolledLstm(const SessionOpener& open) {
  auto s = open("tf2onnx_lstm_frozen.pb");
  ASSERT_NE(s, nullptr);
  std::vector<Tensor> out;
  absl::Status st = s->Run({{"X:0", Ramp()}, {"keep_prob:0", Tensor::Scalar<float>(1.0f)}},
                           {"output:0"}, {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  ExpectNear(Vals<float>(out[0]),
             {2.888637f, -0.260025f, -2.258126f, 6.429122f, -0.640279f, -3.364366f, -7.451693f,
              8.490965f, -6.879125f, 4.232458f},
             1e-4, 1e-5);
}

// MNIST's t10k set as stored: IDX files with 16 and 8 bytes of header.
struct MnistT10k {
  std::string images;  // 10000 x 784 uint8 pixels after the header
  std::string labels;  // 10000 uint8 labels after the header
};

// Reads SharedDir()/mnist_t10k into `data`; a fatal failure when it is not the whole set.
inline void ReadMnistT10k(MnistT10k* data) {
  data->images = Gunzip(SharedDir() + "/mnist_t10k/t10k-images-idx3-ubyte.gz");
  data->labels = Gunzip(SharedDir() + "/mnist_t10k/t10k-labels-idx1-ubyte.gz");
  ASSERT_EQ(data->images.size(), 16u + 10000u * 784u);
  ASSERT_EQ(data->labels.size(), 8u + 10000u);
}

// mnist_mlp_frozen.pb on all of t10k in batches of 100: the first image's logits, the first 20
// predictions and the published accuracy (8989 right).
inline void CheckMnistMlp(const SessionOpener& open, const MnistT10k& data) {
  auto s = open("mnist_mlp_frozen.pb");
  ASSERT_NE(s, nullptr);
  int correct = 0;
  std::vector<int> first20;
  for (int b = 0; b < 100; ++b) {
    Tensor x(DT_FLOAT, TensorShape({100, 784}));
    for (int i = 0; i < 100 * 784; ++i) {
      x.data<float>()[i] = static_cast<uint8_t>(data.images[16 + b * 100 * 784 + i]) / 255.0f;
    }
    std::vector<Tensor> out;
    absl::Status st = s->Run({{"Placeholder:0", x}}, {"softmax_linear/add:0"}, {}, &out);
    ASSERT_TRUE(st.ok()) << st;
    const float* logits = out[0].data<float>();
    if (b == 0) {
      ExpectNear(std::vector<float>(logits, logits + 10),
                 {1.6687f, -3.31202f, -0.22582f, 2.88602f, -2.26915f, -0.22796f, -4.31634f,
                  8.89346f, -0.68356f, 4.02826f},
                 1e-4, 1e-4);
    }
    for (int i = 0; i < 100; ++i) {
      int best = std::max_element(logits + i * 10, logits + i * 10 + 10) - (logits + i * 10);
      if (b == 0 && i < 20) first20.push_back(best);
      correct += best == static_cast<uint8_t>(data.labels[8 + b * 100 + i]);
    }
  }
  EXPECT_EQ(first20,
            (std::vector<int>{7, 2, 1, 0, 4, 1, 4, 9, 6, 9, 0, 6, 9, 0, 1, 5, 9, 7, 3, 4}));
  EXPECT_EQ(correct, 8989);
}

// arm_kws_dnn_s.pb fed at its MFCC node: all twelve probabilities.
inline void CheckKwsDnn(const SessionOpener& open) {
  auto s = open("arm_kws_dnn_s.pb");
  ASSERT_NE(s, nullptr);
  std::vector<Tensor> out;
  absl::Status st = s->Run({{"Mfcc:0", MfccRamp(25)}}, {"labels_softmax:0"}, {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  ExpectNear(Vals<float>(out[0]),
             {0.000022f, 0.053936f, 0.006102f, 0.83809f, 0.000075f, 0.021041f, 0.000196f,
              0.000021f, 0.000241f, 0.000156f, 0.001394f, 0.078726f},
             1e-3, 2e-6);
}

// arm_kws_ds_cnn_s.pb (depthwise convolutions) fed at its MFCC node: the winner and four
// probabilities.
inline void CheckKwsDsCnn(const SessionOpener& open) {
  auto s = open("arm_kws_ds_cnn_s.pb");
  ASSERT_NE(s, nullptr);
  std::vector<Tensor> out;
  absl::Status st = s->Run({{"Mfcc:0", MfccRamp(49)}}, {"labels_softmax:0"}, {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  auto p = Vals<float>(out[0]);
  EXPECT_EQ(std::max_element(p.begin(), p.end()) - p.begin(), 5);
  EXPECT_NEAR(p[5], 0.840126f, 1e-4);
  EXPECT_NEAR(p[2], 0.146982f, 1e-4);
  EXPECT_NEAR(p[10], 0.007017f, 1e-5);
  EXPECT_NEAR(p[11], 0.005844f, 1e-5);
}

// arm_kws_lstm_s.pb (a while loop over TensorArrays) fed at its MFCC node: twelve probabilities
// that sum to 1. MANIFEST.md has no reference values for it, so they go to `probs` (when not
// null) for a caller to compare between sessions.
inline void CheckKwsLstm(const SessionOpener& open, std::vector<float>* probs = nullptr) {
  auto s = open("arm_kws_lstm_s.pb");
  ASSERT_NE(s, nullptr);
  std::vector<Tensor> out;
  absl::Status st = s->Run({{"Mfcc:0", MfccRamp(25)}}, {"labels_softmax:0"}, {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  auto p = Vals<float>(out[0]);
  ASSERT_EQ(p.size(), 12u);
  EXPECT_NEAR(std::accumulate(p.begin(), p.end(), 0.0), 1.0, 1e-5);
  if (probs != nullptr) *probs = p;
}

// The three keyword spotting graphs fed the bytes of kws_samples/silence.wav (decoded and turned
// into MFCCs in the graph): each hears _silence_ (label 0).
inline void CheckKwsHearsSilence(const SessionOpener& open) {
  Tensor wav(DT_STRING, TensorShape({}));
  wav.data<tstring>()[0] = ReadFile(SharedDir() + "/kws_samples/silence.wav");
  for (const char* file : {"arm_kws_dnn_s.pb", "arm_kws_ds_cnn_s.pb", "arm_kws_lstm_s.pb"}) {
    auto s = open(file);
    ASSERT_NE(s, nullptr) << file;
    std::vector<Tensor> out;
    absl::Status st = s->Run({{"wav_data:0", wav}}, {"labels_softmax:0"}, {}, &out);
    ASSERT_TRUE(st.ok()) << file << ": " << st;
    auto p = Vals<float>(out[0]);
    EXPECT_EQ(std::max_element(p.begin(), p.end()) - p.begin(), 0) << file << " (_silence_)";
  }
}

}  // namespace test
}  // namespace sg

#endif  // SG_TESTS_COMMON_REAL_GRAPH_CHECKS_H_
