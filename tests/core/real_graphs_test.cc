// Runs the real TensorFlow graphs of ../shared/testdata/tf_graphs (see its MANIFEST.md for where
// each expected value comes from) through a DirectSession. Every test says plainly that it
// skipped when ../shared/ is absent, as it is in a user's clone.
#include <fstream>
#include <numeric>
#include <sstream>

#include <gtest/gtest.h>
#include <zlib.h>

#include "core/graph/graph_constructor.h"
#include "core/runtime/session.h"

namespace sg {
namespace {

std::string SharedDir() { return SG_SHARED_TESTDATA; }

bool HaveShared() {
  std::ifstream f(SharedDir() + "/MANIFEST.md");
  return f.good();
}

#define SKIP_WITHOUT_SHARED()                                                              \
  if (!HaveShared()) GTEST_SKIP() << "skipped: ../shared/testdata/tf_graphs is not present " \
                                     "(it exists only beside the project's own checkout)"

std::string ReadFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::unique_ptr<Session> Load(const std::string& file, const ConfigProto& config = {}) {
  GraphDef gdef;
  absl::Status s = ParseGraphDef(ReadFile(SharedDir() + "/" + file), &gdef);
  EXPECT_TRUE(s.ok()) << file << ": " << s;
  SessionOptions opts;
  opts.config = config;
  std::unique_ptr<Session> session;
  EXPECT_TRUE(NewSession(opts, &session).ok());
  s = session->Create(gdef);
  EXPECT_TRUE(s.ok()) << file << ": " << s;
  return session;
}

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

void ExpectNear(const std::vector<float>& got, const std::vector<float>& want, double rtol,
                double atol = 0) {
  ASSERT_GE(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_NEAR(got[i], want[i], atol + rtol * std::abs(want[i])) << "at " << i;
  }
}

Tensor Ramp() {
  std::vector<float> v(784);
  for (int i = 0; i < 784; ++i) v[i] = 1.0f + i;
  return Make<float>({1, 784}, v);
}

TEST(RealGraphs, AdditionFromTf2FeedsShapeOneIntoScalarPlaceholders) {
  SKIP_WITHOUT_SHARED();
  auto s = Load("tfrust_addition.pb");
  std::vector<Tensor> out;
  ASSERT_TRUE(s->Run({{"x:0", Make<int32_t>({1}, {2})}, {"y:0", Make<int32_t>({1}, {40})}},
                     {"z:0"}, {}, &out)
                  .ok());
  EXPECT_EQ(Vals<int32_t>(out[0]), std::vector<int32_t>{42});
}

TEST(RealGraphs, MultiplicationFromProducer9) {
  SKIP_WITHOUT_SHARED();
  auto s = Load("tfrust_multiplication.pb");
  std::vector<Tensor> out;
  ASSERT_TRUE(s->Run({{"a:0", Make<float>({3}, {1, 2, 3})}, {"b:0", Make<float>({3}, {4, 5, 6})}},
                     {"c:0"}, {}, &out)
                  .ok());
  EXPECT_EQ(Vals<float>(out[0]), (std::vector<float>{4, 10, 18}));
}

TEST(RealGraphs, TextGraphAddsConstantsAndConstantsCanBeFed) {
  SKIP_WITHOUT_SHARED();
  auto s = Load("tf_aot_test_graph_tfadd.pbtxt");
  std::vector<Tensor> out;
  ASSERT_TRUE(s->Run({}, {"x_y_sum:0"}, {}, &out).ok());
  EXPECT_EQ(Vals<int32_t>(out[0]), std::vector<int32_t>{3});
  ASSERT_TRUE(s->Run({{"x_const:0", Make<int32_t>({1}, {10})},
                      {"y_const:0", Make<int32_t>({1}, {32})}},
                     {"x_y_sum:0"}, {}, &out)
                  .ok());
  EXPECT_EQ(Vals<int32_t>(out[0]), std::vector<int32_t>{42});
}

TEST(RealGraphs, WhileLoopRunsTenIterations) {
  SKIP_WITHOUT_SHARED();
  auto s = Load("tf_grappler_while_loop.pbtxt");
  std::vector<Tensor> out;
  absl::Status st = s->Run({}, {"while/Exit:0", "while/Exit_1:0"}, {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(Vals<int32_t>(out[0]), std::vector<int32_t>{10});
  EXPECT_EQ(out[1].shape(), TensorShape({2048, 2}));
  auto ones = Vals<float>(out[1]);
  EXPECT_EQ(std::count(ones.begin(), ones.end(), 1.0f), 4096);
}

TEST(RealGraphs, CondTakesTheFalseBranchAndPropagatesDeadness) {
  SKIP_WITHOUT_SHARED();
  auto s = Load("tf_grappler_merge_without_loops.pbtxt");
  std::vector<Tensor> out;
  absl::Status st = s->Run({}, {"concat:0", "cond/Merge:1"}, {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(out[0].shape(), TensorShape({1, 2, 2}));
  EXPECT_EQ(Vals<float>(out[0]), std::vector<float>(4, 1.0f));
  EXPECT_EQ(Vals<int32_t>(out[1]), std::vector<int32_t>{1});
}

TEST(RealGraphs, LibraryFunctionCalledAsAnOpType) {
  SKIP_WITHOUT_SHARED();
  auto s = Load("tf_grappler_simple_function.pbtxt");
  std::vector<Tensor> out;
  absl::Status st = s->Run({}, {"MyAdd_55e046a8:0", "MyAdd_55e046a8_1:0"}, {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(out[0].shape(), TensorShape({1, 2}));
  EXPECT_EQ(Vals<float>(out[0]), (std::vector<float>{4, 4}));
  EXPECT_EQ(Vals<float>(out[1]), (std::vector<float>{6, 6}));
}

TEST(RealGraphs, VariablesInTextAndBinaryGiveTheSameAnswer) {
  SKIP_WITHOUT_SHARED();
  for (const char* file : {"fazibear_mul_vars.pbtxt", "fazibear_mul_vars.pb"}) {
    auto s = Load(file);
    std::vector<Tensor> out;
    absl::Status st = s->Run({}, {}, {"init"}, &out);
    ASSERT_TRUE(st.ok()) << file << ": " << st;
    st = s->Run({}, {"c:0"}, {}, &out);
    ASSERT_TRUE(st.ok()) << file << ": " << st;
    EXPECT_EQ(Vals<float>(out[0]), std::vector<float>{30.0f}) << file;
  }
}

TEST(RealGraphs, ReadingAVariableBeforeInitIsFailedPrecondition) {
  SKIP_WITHOUT_SHARED();
  auto s = Load("fazibear_mul_vars.pb");
  std::vector<Tensor> out;
  absl::Status st = s->Run({}, {"c:0"}, {}, &out);
  EXPECT_EQ(st.code(), absl::StatusCode::kFailedPrecondition) << st;
}

TEST(RealGraphs, RegressionWithoutVersions) {
  SKIP_WITHOUT_SHARED();
  auto s = Load("tf2onnx_regression_frozen.pb");
  std::vector<Tensor> out;
  ASSERT_TRUE(s->Run({{"X:0", Make<float>({1}, {5.0f})}}, {"pred:0"}, {}, &out).ok());
  ExpectNear(Vals<float>(out[0]), {2.1193342f}, 1e-5);
  ASSERT_TRUE(s->Run({{"X:0", Make<float>({1}, {1.0f})}}, {"pred:0"}, {}, &out).ok());
  ExpectNear(Vals<float>(out[0]), {1.263487f}, 1e-5);
}

TEST(RealGraphs, FullyConnectedLayersOnTheRamp) {
  SKIP_WITHOUT_SHARED();
  auto s = Load("tf2onnx_fc_layers_frozen.pb");
  std::vector<Tensor> out;
  ASSERT_TRUE(s->Run({{"X:0", Ramp()}}, {"output:0"}, {}, &out).ok());
  auto v = Vals<float>(out[0]);
  ExpectNear(v, {-9757.53f, -2871.289f, 7155.592f, 1267.3668f, -12316.452f}, 1e-4);
  EXPECT_NEAR(std::accumulate(v.begin(), v.end(), 0.0), -55631.63, 55631.63 * 1e-4);
}

TEST(RealGraphs, UnrolledLstmOnTheRamp) {
  SKIP_WITHOUT_SHARED();
  auto s = Load("tf2onnx_lstm_frozen.pb");
  std::vector<Tensor> out;
  absl::Status st =
      s->Run({{"X:0", Ramp()}, {"keep_prob:0", Tensor::Scalar<float>(1.0f)}}, {"output:0"}, {},
             &out);
  ASSERT_TRUE(st.ok()) << st;
  ExpectNear(Vals<float>(out[0]),
             {2.888637f, -0.260025f, -2.258126f, 6.429122f, -0.640279f, -3.364366f, -7.451693f,
              8.490965f, -6.879125f, 4.232458f},
             1e-4, 1e-5);
}

std::string Gunzip(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  std::string out;
  if (!f) return out;
  char buf[1 << 16];
  int n;
  while ((n = gzread(f, buf, sizeof(buf))) > 0) out.append(buf, n);
  gzclose(f);
  return out;
}

TEST(RealGraphs, MnistMlpReachesItsPublishedAccuracyOnT10k) {
  SKIP_WITHOUT_SHARED();
  std::string images = Gunzip(SharedDir() + "/mnist_t10k/t10k-images-idx3-ubyte.gz");
  std::string labels = Gunzip(SharedDir() + "/mnist_t10k/t10k-labels-idx1-ubyte.gz");
  ASSERT_EQ(images.size(), 16u + 10000u * 784u);
  ASSERT_EQ(labels.size(), 8u + 10000u);
  auto s = Load("mnist_mlp_frozen.pb");
  int correct = 0;
  std::vector<int> first20;
  for (int b = 0; b < 100; ++b) {
    Tensor x(DT_FLOAT, TensorShape({100, 784}));
    for (int i = 0; i < 100 * 784; ++i) {
      x.data<float>()[i] = static_cast<uint8_t>(images[16 + b * 100 * 784 + i]) / 255.0f;
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
      correct += best == static_cast<uint8_t>(labels[8 + b * 100 + i]);
    }
  }
  EXPECT_EQ(first20, (std::vector<int>{7, 2, 1, 0, 4, 1, 4, 9, 6, 9, 0, 6, 9, 0, 1, 5, 9, 7, 3, 4}));
  EXPECT_EQ(correct, 8989);
}

Tensor MfccRamp(int frames) {
  std::vector<float> v(frames * 10);
  for (int i = 0; i < frames * 10; ++i) v[i] = static_cast<float>(i % 17 - 8);
  return Make<float>({1, frames, 10}, v);
}

TEST(RealGraphs, KeywordSpottingDnnFedThroughMfcc) {
  SKIP_WITHOUT_SHARED();
  auto s = Load("arm_kws_dnn_s.pb");
  std::vector<Tensor> out;
  absl::Status st = s->Run({{"Mfcc:0", MfccRamp(25)}}, {"labels_softmax:0"}, {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  ExpectNear(Vals<float>(out[0]),
             {0.000022f, 0.053936f, 0.006102f, 0.83809f, 0.000075f, 0.021041f, 0.000196f,
              0.000021f, 0.000241f, 0.000156f, 0.001394f, 0.078726f},
             1e-3, 2e-6);
}

TEST(RealGraphs, KeywordSpottingDepthwiseCnnFedThroughMfcc) {
  SKIP_WITHOUT_SHARED();
  auto s = Load("arm_kws_ds_cnn_s.pb");
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

TEST(RealGraphs, KeywordSpottingLstmWithWhileLoopAndTensorArrays) {
  SKIP_WITHOUT_SHARED();
  auto s = Load("arm_kws_lstm_s.pb");
  std::vector<Tensor> out;
  absl::Status st = s->Run({{"Mfcc:0", MfccRamp(25)}}, {"labels_softmax:0"}, {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  auto p = Vals<float>(out[0]);
  ASSERT_EQ(p.size(), 12u);
  EXPECT_NEAR(std::accumulate(p.begin(), p.end(), 0.0), 1.0, 1e-5);
}

TEST(RealGraphs, KeywordSpottingFromWavBytesHearsSilence) {
  SKIP_WITHOUT_SHARED();
  Tensor wav(DT_STRING, TensorShape({}));
  wav.data<tstring>()[0] = ReadFile(SharedDir() + "/kws_samples/silence.wav");
  for (const char* file : {"arm_kws_dnn_s.pb", "arm_kws_ds_cnn_s.pb", "arm_kws_lstm_s.pb"}) {
    auto s = Load(file);
    std::vector<Tensor> out;
    absl::Status st = s->Run({{"wav_data:0", wav}}, {"labels_softmax:0"}, {}, &out);
    ASSERT_TRUE(st.ok()) << file << ": " << st;
    auto p = Vals<float>(out[0]);
    EXPECT_EQ(std::max_element(p.begin(), p.end()) - p.begin(), 0) << file << " (_silence_)";
  }
}

}  // namespace
}  // namespace sg
