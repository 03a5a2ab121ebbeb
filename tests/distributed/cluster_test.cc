// Multi-process clusters on loopback: `sg server` processes for ps:1, worker:2 (TestCluster), and
// this process as the client over grpc:// (GrpcSession -> GrpcRemoteMaster).
//
// - Every graph of ../shared/testdata/tf_graphs that tests/core/real_graphs_test.cc runs, and
//   tests/testdata/digits_mlp.pb, give the same results over grpc:// as in a local session, with
//   the servers placing unconstrained nodes round robin over the three tasks
//   (SG_TEST_ROUND_ROBIN_PLACEMENT=1 in the servers' environment: the master that places the
//   graph runs in worker 0's process).
// - Two client processes each add 1 to a counter on the ps 500 times, concurrently.
// - Failures: a task down at CreateSession, a worker killed in the middle of a step, a restarted
//   worker, an unreachable master, a malformed target; and TLS with certificates made here.
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <cstring>
#include <numeric>
#include <set>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>
#include <zlib.h>

#include "absl/strings/match.h"
#include "absl/time/clock.h"
#include "core/graph/graph_constructor.h"
#include "core/runtime/session.h"
#include "tests/distributed/cluster_util.h"
#include "tests/distributed/test_graphs.h"

extern char** environ;

namespace sg {
namespace {

using testing::ClusterOptions;
using testing::TestCluster;

std::string SharedDir() { return SG_SHARED_TESTDATA; }
std::string TestdataDir() { return std::string(SG_SOURCE_DIR) + "/tests/testdata"; }

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

std::unique_ptr<Session> NewSessionOn(const std::string& target, const GraphDef& gdef,
                                      ConfigProto config = {}) {
  SessionOptions opts;
  opts.target = target;
  opts.config = config;
  std::unique_ptr<Session> session;
  absl::Status s = NewSession(opts, &session);
  EXPECT_TRUE(s.ok()) << s;
  if (!s.ok()) return nullptr;
  s = session->Create(gdef);
  EXPECT_TRUE(s.ok()) << target << ": " << s;
  return session;
}

std::unique_ptr<Session> Load(const std::string& path, const std::string& target,
                              ConfigProto config = {}) {
  GraphDef gdef;
  absl::Status s = ParseGraphDef(ReadFile(path), &gdef);
  EXPECT_TRUE(s.ok()) << path << ": " << s;
  return NewSessionOn(target, gdef, config);
}

// ---- real graphs, locally and on the cluster ---------------------------------------------------

class ClusterGraphs : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ClusterOptions options;
    options.env.push_back("SG_TEST_ROUND_ROBIN_PLACEMENT=1");
    cluster_ = new TestCluster(options);
    start_status_ = new absl::Status(cluster_->Start({{"ps", 1}, {"worker", 2}}));
  }
  static void TearDownTestSuite() {
    delete cluster_;
    delete start_status_;
    cluster_ = nullptr;
  }
  void SetUp() override { ASSERT_TRUE(start_status_->ok()) << *start_status_; }

  // Each test runs its graph in a local session, then on the cluster.
  static std::vector<std::string> Targets() { return {"", cluster_->target("worker", 0)}; }
  static std::string Name(const std::string& target) {
    return target.empty() ? "local session" : "cluster " + target;
  }
  std::unique_ptr<Session> LoadShared(const std::string& file, const std::string& target) {
    return Load(SharedDir() + "/" + file, target);
  }

  static TestCluster* cluster_;
  static absl::Status* start_status_;
};
TestCluster* ClusterGraphs::cluster_ = nullptr;
absl::Status* ClusterGraphs::start_status_ = nullptr;

Tensor Ramp() {
  std::vector<float> v(784);
  for (int i = 0; i < 784; ++i) v[i] = 1.0f + i;
  return Make<float>({1, 784}, v);
}

Tensor MfccRamp(int frames) {
  std::vector<float> v(frames * 10);
  for (int i = 0; i < frames * 10; ++i) v[i] = static_cast<float>(i % 17 - 8);
  return Make<float>({1, frames, 10}, v);
}

TEST_F(ClusterGraphs, NodesAreSpreadOverEveryTask) {
  ConfigProto config;
  config.set_log_device_placement(true);
  GraphDef g;
  *g.add_node() = test::Placeholder("spread_x0");
  for (int i = 1; i <= 9; ++i) {
    *g.add_node() = test::Binary("spread_x" + std::to_string(i), "AddV2",
                                 "spread_x" + std::to_string(i - 1),
                                 "spread_x" + std::to_string(i - 1));
  }
  auto s = NewSessionOn(cluster_->target("worker", 0), g, config);
  ASSERT_NE(s, nullptr);
  std::vector<Tensor> out;
  absl::Status st = s->Run({{"spread_x0", Tensor::Scalar<float>(1)}}, {"spread_x9:0"}, {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(out[0].data<float>()[0], 512.0f);
  // The master (worker 0's process) logged where each node went.
  const std::string log = cluster_->ReadLog("worker", 0);
  std::set<std::string> tasks;
  std::istringstream lines(log);
  for (std::string line; std::getline(lines, line);) {
    if (!absl::StartsWith(line, "spread_x")) continue;
    for (const char* t : {"/job:ps/replica:0/task:0", "/job:worker/replica:0/task:0",
                          "/job:worker/replica:0/task:1"}) {
      if (absl::StrContains(line, t)) tasks.insert(t);
    }
  }
  EXPECT_EQ(tasks.size(), 3u) << log;
}

TEST_F(ClusterGraphs, AdditionFromTf2FeedsShapeOneIntoScalarPlaceholders) {
  SKIP_WITHOUT_SHARED();
  for (const auto& target : Targets()) {
    SCOPED_TRACE(Name(target));
    auto s = LoadShared("tfrust_addition.pb", target);
    std::vector<Tensor> out;
    absl::Status st =
        s->Run({{"x:0", Make<int32_t>({1}, {2})}, {"y:0", Make<int32_t>({1}, {40})}}, {"z:0"}, {},
               &out);
    ASSERT_TRUE(st.ok()) << st;
    EXPECT_EQ(Vals<int32_t>(out[0]), std::vector<int32_t>{42});
  }
}

TEST_F(ClusterGraphs, MultiplicationFromProducer9) {
  SKIP_WITHOUT_SHARED();
  for (const auto& target : Targets()) {
    SCOPED_TRACE(Name(target));
    auto s = LoadShared("tfrust_multiplication.pb", target);
    std::vector<Tensor> out;
    absl::Status st = s->Run(
        {{"a:0", Make<float>({3}, {1, 2, 3})}, {"b:0", Make<float>({3}, {4, 5, 6})}}, {"c:0"}, {},
        &out);
    ASSERT_TRUE(st.ok()) << st;
    EXPECT_EQ(Vals<float>(out[0]), (std::vector<float>{4, 10, 18}));
  }
}

TEST_F(ClusterGraphs, TextGraphAddsConstantsAndConstantsCanBeFed) {
  SKIP_WITHOUT_SHARED();
  for (const auto& target : Targets()) {
    SCOPED_TRACE(Name(target));
    auto s = LoadShared("tf_aot_test_graph_tfadd.pbtxt", target);
    std::vector<Tensor> out;
    absl::Status st = s->Run({}, {"x_y_sum:0"}, {}, &out);
    ASSERT_TRUE(st.ok()) << st;
    EXPECT_EQ(Vals<int32_t>(out[0]), std::vector<int32_t>{3});
    st = s->Run({{"x_const:0", Make<int32_t>({1}, {10})}, {"y_const:0", Make<int32_t>({1}, {32})}},
                {"x_y_sum:0"}, {}, &out);
    ASSERT_TRUE(st.ok()) << st;
    EXPECT_EQ(Vals<int32_t>(out[0]), std::vector<int32_t>{42});
  }
}

TEST_F(ClusterGraphs, WhileLoopRunsTenIterations) {
  SKIP_WITHOUT_SHARED();
  for (const auto& target : Targets()) {
    SCOPED_TRACE(Name(target));
    auto s = LoadShared("tf_grappler_while_loop.pbtxt", target);
    std::vector<Tensor> out;
    absl::Status st = s->Run({}, {"while/Exit:0", "while/Exit_1:0"}, {}, &out);
    ASSERT_TRUE(st.ok()) << st;
    EXPECT_EQ(Vals<int32_t>(out[0]), std::vector<int32_t>{10});
    EXPECT_EQ(out[1].shape(), TensorShape({2048, 2}));
    auto ones = Vals<float>(out[1]);
    EXPECT_EQ(std::count(ones.begin(), ones.end(), 1.0f), 4096);
  }
}

TEST_F(ClusterGraphs, CondTakesTheFalseBranchAndPropagatesDeadness) {
  SKIP_WITHOUT_SHARED();
  for (const auto& target : Targets()) {
    SCOPED_TRACE(Name(target));
    auto s = LoadShared("tf_grappler_merge_without_loops.pbtxt", target);
    std::vector<Tensor> out;
    absl::Status st = s->Run({}, {"concat:0", "cond/Merge:1"}, {}, &out);
    ASSERT_TRUE(st.ok()) << st;
    EXPECT_EQ(out[0].shape(), TensorShape({1, 2, 2}));
    EXPECT_EQ(Vals<float>(out[0]), std::vector<float>(4, 1.0f));
    EXPECT_EQ(Vals<int32_t>(out[1]), std::vector<int32_t>{1});
  }
}

TEST_F(ClusterGraphs, LibraryFunctionCalledAsAnOpType) {
  SKIP_WITHOUT_SHARED();
  for (const auto& target : Targets()) {
    SCOPED_TRACE(Name(target));
    auto s = LoadShared("tf_grappler_simple_function.pbtxt", target);
    std::vector<Tensor> out;
    absl::Status st = s->Run({}, {"MyAdd_55e046a8:0", "MyAdd_55e046a8_1:0"}, {}, &out);
    ASSERT_TRUE(st.ok()) << st;
    EXPECT_EQ(out[0].shape(), TensorShape({1, 2}));
    EXPECT_EQ(Vals<float>(out[0]), (std::vector<float>{4, 4}));
    EXPECT_EQ(Vals<float>(out[1]), (std::vector<float>{6, 6}));
  }
}

TEST_F(ClusterGraphs, VariablesInTextAndBinaryGiveTheSameAnswer) {
  SKIP_WITHOUT_SHARED();
  for (const auto& target : Targets()) {
    SCOPED_TRACE(Name(target));
    for (const char* file : {"fazibear_mul_vars.pbtxt", "fazibear_mul_vars.pb"}) {
      auto s = LoadShared(file, target);
      std::vector<Tensor> out;
      absl::Status st = s->Run({}, {}, {"init"}, &out);
      ASSERT_TRUE(st.ok()) << file << ": " << st;
      st = s->Run({}, {"c:0"}, {}, &out);
      ASSERT_TRUE(st.ok()) << file << ": " << st;
      EXPECT_EQ(Vals<float>(out[0]), std::vector<float>{30.0f}) << file;
    }
  }
}

TEST_F(ClusterGraphs, ReadingAVariableBeforeInitIsFailedPrecondition) {
  SKIP_WITHOUT_SHARED();
  for (const auto& target : Targets()) {
    SCOPED_TRACE(Name(target));
    // Variables on the cluster outlive sessions: clear what earlier tests left.
    SessionOptions opts;
    opts.target = target;
    ASSERT_TRUE(Reset(opts, {}).ok());
    auto s = LoadShared("fazibear_mul_vars.pb", target);
    std::vector<Tensor> out;
    absl::Status st = s->Run({}, {"c:0"}, {}, &out);
    EXPECT_EQ(st.code(), absl::StatusCode::kFailedPrecondition) << st;
  }
}

TEST_F(ClusterGraphs, RegressionWithoutVersions) {
  SKIP_WITHOUT_SHARED();
  for (const auto& target : Targets()) {
    SCOPED_TRACE(Name(target));
    auto s = LoadShared("tf2onnx_regression_frozen.pb", target);
    std::vector<Tensor> out;
    ASSERT_TRUE(s->Run({{"X:0", Make<float>({1}, {5.0f})}}, {"pred:0"}, {}, &out).ok());
    ExpectNear(Vals<float>(out[0]), {2.1193342f}, 1e-5);
    ASSERT_TRUE(s->Run({{"X:0", Make<float>({1}, {1.0f})}}, {"pred:0"}, {}, &out).ok());
    ExpectNear(Vals<float>(out[0]), {1.263487f}, 1e-5);
  }
}

TEST_F(ClusterGraphs, FullyConnectedLayersOnTheRamp) {
  SKIP_WITHOUT_SHARED();
  for (const auto& target : Targets()) {
    SCOPED_TRACE(Name(target));
    auto s = LoadShared("tf2onnx_fc_layers_frozen.pb", target);
    std::vector<Tensor> out;
    ASSERT_TRUE(s->Run({{"X:0", Ramp()}}, {"output:0"}, {}, &out).ok());
    auto v = Vals<float>(out[0]);
    ExpectNear(v, {-9757.53f, -2871.289f, 7155.592f, 1267.3668f, -12316.452f}, 1e-4);
    EXPECT_NEAR(std::accumulate(v.begin(), v.end(), 0.0), -55631.63, 55631.63 * 1e-4);
  }
}

TEST_F(ClusterGraphs, UnrolledLstmOnTheRamp) {
  SKIP_WITHOUT_SHARED();
  for (const auto& target : Targets()) {
    SCOPED_TRACE(Name(target));
    auto s = LoadShared("tf2onnx_lstm_frozen.pb", target);
    std::vector<Tensor> out;
    absl::Status st = s->Run({{"X:0", Ramp()}, {"keep_prob:0", Tensor::Scalar<float>(1.0f)}},
                             {"output:0"}, {}, &out);
    ASSERT_TRUE(st.ok()) << st;
    ExpectNear(Vals<float>(out[0]),
               {2.888637f, -0.260025f, -2.258126f, 6.429122f, -0.640279f, -3.364366f, -7.451693f,
                8.490965f, -6.879125f, 4.232458f},
               1e-4, 1e-5);
  }
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

TEST_F(ClusterGraphs, MnistMlpReachesItsPublishedAccuracyOnT10k) {
  SKIP_WITHOUT_SHARED();
  std::string images = Gunzip(SharedDir() + "/mnist_t10k/t10k-images-idx3-ubyte.gz");
  std::string labels = Gunzip(SharedDir() + "/mnist_t10k/t10k-labels-idx1-ubyte.gz");
  ASSERT_EQ(images.size(), 16u + 10000u * 784u);
  ASSERT_EQ(labels.size(), 8u + 10000u);
  for (const auto& target : Targets()) {
    SCOPED_TRACE(Name(target));
    auto s = LoadShared("mnist_mlp_frozen.pb", target);
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
    EXPECT_EQ(first20,
              (std::vector<int>{7, 2, 1, 0, 4, 1, 4, 9, 6, 9, 0, 6, 9, 0, 1, 5, 9, 7, 3, 4}));
    EXPECT_EQ(correct, 8989);
  }
}

TEST_F(ClusterGraphs, KeywordSpottingDnnFedThroughMfcc) {
  SKIP_WITHOUT_SHARED();
  for (const auto& target : Targets()) {
    SCOPED_TRACE(Name(target));
    auto s = LoadShared("arm_kws_dnn_s.pb", target);
    std::vector<Tensor> out;
    absl::Status st = s->Run({{"Mfcc:0", MfccRamp(25)}}, {"labels_softmax:0"}, {}, &out);
    ASSERT_TRUE(st.ok()) << st;
    ExpectNear(Vals<float>(out[0]),
               {0.000022f, 0.053936f, 0.006102f, 0.83809f, 0.000075f, 0.021041f, 0.000196f,
                0.000021f, 0.000241f, 0.000156f, 0.001394f, 0.078726f},
               1e-3, 2e-6);
  }
}

TEST_F(ClusterGraphs, KeywordSpottingDepthwiseCnnFedThroughMfcc) {
  SKIP_WITHOUT_SHARED();
  for (const auto& target : Targets()) {
    SCOPED_TRACE(Name(target));
    auto s = LoadShared("arm_kws_ds_cnn_s.pb", target);
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
}

TEST_F(ClusterGraphs, KeywordSpottingLstmWithWhileLoopAndTensorArrays) {
  SKIP_WITHOUT_SHARED();
  std::vector<float> local;
  for (const auto& target : Targets()) {
    SCOPED_TRACE(Name(target));
    auto s = LoadShared("arm_kws_lstm_s.pb", target);
    std::vector<Tensor> out;
    absl::Status st = s->Run({{"Mfcc:0", MfccRamp(25)}}, {"labels_softmax:0"}, {}, &out);
    ASSERT_TRUE(st.ok()) << st;
    auto p = Vals<float>(out[0]);
    ASSERT_EQ(p.size(), 12u);
    EXPECT_NEAR(std::accumulate(p.begin(), p.end(), 0.0), 1.0, 1e-5);
    if (target.empty()) {
      local = p;
    } else {
      ExpectNear(p, local, 1e-5, 1e-7);
    }
  }
}

TEST_F(ClusterGraphs, KeywordSpottingFromWavBytesHearsSilence) {
  SKIP_WITHOUT_SHARED();
  Tensor wav(DT_STRING, TensorShape({}));
  wav.data<tstring>()[0] = ReadFile(SharedDir() + "/kws_samples/silence.wav");
  for (const auto& target : Targets()) {
    SCOPED_TRACE(Name(target));
    for (const char* file : {"arm_kws_dnn_s.pb", "arm_kws_ds_cnn_s.pb", "arm_kws_lstm_s.pb"}) {
      auto s = LoadShared(file, target);
      std::vector<Tensor> out;
      absl::Status st = s->Run({{"wav_data:0", wav}}, {"labels_softmax:0"}, {}, &out);
      ASSERT_TRUE(st.ok()) << file << ": " << st;
      auto p = Vals<float>(out[0]);
      EXPECT_EQ(std::max_element(p.begin(), p.end()) - p.begin(), 0) << file << " (_silence_)";
    }
  }
}

// The float32 data of a .npy file (version 1, C order, little-endian) with `count` elements; empty
// when the file is not that.
std::vector<float> ReadNpyFloats(const std::string& path, size_t count) {
  const std::string bytes = ReadFile(path);
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0 || bytes[6] != 1) return {};
  const size_t header = 10 + (static_cast<unsigned char>(bytes[8]) |
                              static_cast<unsigned char>(bytes[9]) << 8);
  if (bytes.find("'<f4'", 10) > header || bytes.size() != header + count * 4) return {};
  std::vector<float> v(count);
  std::memcpy(v.data(), bytes.data() + header, count * 4);
  return v;
}

TEST_F(ClusterGraphs, DigitsClassifierGivesTheLocalProbabilities) {
  std::vector<float> x = ReadNpyFloats(TestdataDir() + "/digits_test_x.npy", 360 * 64);
  ASSERT_EQ(x.size(), 360u * 64u) << "digits_test_x.npy is not float32 [360, 64]";
  Tensor input(DT_FLOAT, TensorShape({360, 64}));
  std::memcpy(input.data<float>(), x.data(), x.size() * sizeof(float));
  std::vector<std::vector<float>> probs;
  for (const auto& target : Targets()) {
    SCOPED_TRACE(Name(target));
    auto s = Load(TestdataDir() + "/digits_mlp.pb", target);
    ASSERT_NE(s, nullptr);
    std::vector<Tensor> out;
    absl::Status st = s->Run({{"input:0", input}}, {"probs:0"}, {}, &out);
    ASSERT_TRUE(st.ok()) << st;
    ASSERT_EQ(out[0].shape(), TensorShape({360, 10}));
    probs.push_back(Vals<float>(out[0]));
  }
  ASSERT_EQ(probs.size(), 2u);
  ExpectNear(probs[1], probs[0], 1e-5, 1e-6);
}

// ---- two client processes on one counter -------------------------------------------------------

// Runs as a child process of TwoClientProcessesAddUpToExactly1000 (skipped otherwise).
TEST(CounterClient, AddsOneToTheCounterNTimes) {
  const char* target = std::getenv("SG_COUNTER_CLIENT_TARGET");
  const char* steps = std::getenv("SG_COUNTER_CLIENT_STEPS");
  if (target == nullptr || steps == nullptr) {
    GTEST_SKIP() << "runs only as a child process of ClusterCounter";
  }
  auto s = NewSessionOn(target, test::CounterGraph());
  ASSERT_NE(s, nullptr);
  std::vector<Tensor> out;
  for (int i = 0, n = std::atoi(steps); i < n; ++i) {
    absl::Status st = s->Run({}, {}, {"inc"}, &out);
    ASSERT_TRUE(st.ok()) << "step " << i << ": " << st;
  }
}

// Starts this test binary again with `env` added; returns its pid.
pid_t SpawnSelf(const std::string& filter, const std::vector<std::string>& env) {
  std::vector<std::string> args = {"/proc/self/exe", "--gtest_filter=" + filter};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> envs = env;
  for (char** e = environ; *e != nullptr; ++e) envs.push_back(*e);
  std::vector<char*> envp;
  for (auto& e : envs) envp.push_back(e.data());
  envp.push_back(nullptr);
  pid_t pid = -1;
  if (posix_spawn(&pid, "/proc/self/exe", nullptr, nullptr, argv.data(), envp.data()) != 0) {
    return -1;
  }
  return pid;
}

// The exit code of `pid`, or -1 when it did not end within `timeout` (it is then killed).
int WaitFor(pid_t pid, absl::Duration timeout) {
  absl::Time end = absl::Now() + timeout;
  while (absl::Now() < end) {
    int status = 0;
    pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    absl::SleepFor(absl::Milliseconds(20));
  }
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  return -1;
}

TEST(ClusterCounter, TwoClientProcessesAddUpToExactly1000) {
  TestCluster cluster;
  absl::Status st = cluster.Start({{"ps", 1}, {"worker", 2}});
  ASSERT_TRUE(st.ok()) << st;
  auto s = NewSessionOn(cluster.target("worker", 0), test::CounterGraph());
  ASSERT_NE(s, nullptr);
  std::vector<Tensor> out;
  ASSERT_TRUE(s->Run({}, {}, {"init"}, &out).ok());
  // One client talks to worker 0's master, the other to worker 1's: two masters, one variable.
  std::vector<pid_t> clients;
  for (int w = 0; w < 2; ++w) {
    pid_t pid = SpawnSelf("CounterClient.AddsOneToTheCounterNTimes",
                          {"SG_COUNTER_CLIENT_TARGET=" + cluster.target("worker", w),
                           "SG_COUNTER_CLIENT_STEPS=500"});
    ASSERT_GT(pid, 0);
    clients.push_back(pid);
  }
  for (pid_t pid : clients) EXPECT_EQ(WaitFor(pid, absl::Seconds(120)), 0);
  st = s->Run({}, {"read:0"}, {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(out[0].data<float>()[0], 1000.0f);
}

// ---- failures ----------------------------------------------------------------------------------

TEST(ClusterFailures, ATaskDownAtCreateSessionIsNamedWithItsAddress) {
  TestCluster cluster;
  absl::Status st = cluster.Start({{"ps", 1}, {"worker", 2}});
  ASSERT_TRUE(st.ok()) << st;
  cluster.Kill("worker", 1);
  SessionOptions opts;
  opts.target = cluster.target("worker", 0);
  opts.config.set_operation_timeout_in_ms(2000);
  std::unique_ptr<Session> s;
  ASSERT_TRUE(NewSession(opts, &s).ok());
  const absl::Time start = absl::Now();
  st = s->Create(test::CrossTaskGraph());
  EXPECT_TRUE(st.code() == absl::StatusCode::kUnavailable ||
              st.code() == absl::StatusCode::kDeadlineExceeded)
      << st;
  EXPECT_TRUE(absl::StrContains(st.message(), "/job:worker/replica:0/task:1")) << st;
  EXPECT_TRUE(absl::StrContains(st.message(), cluster.address("worker", 1))) << st;
  EXPECT_LT(absl::Now() - start, absl::Seconds(4));
}

// A long chain of 600x600 MatMuls on worker 1, and a small graph on the ps and worker 0.
GraphDef SlowGraph() {
  GraphDef g;
  const std::string w1 = "/job:worker/task:1";
  *g.add_node() = test::Const("shape", Make<int32_t>({2}, {600, 600}), w1);
  *g.add_node() = test::Node("r", "RandomUniform", {"shape"}, w1,
                             {{"dtype", test::TypeAttr(DT_FLOAT)}, {"T", test::TypeAttr(DT_INT32)}});
  std::string prev = "r";
  for (int i = 0; i < 400; ++i) {
    std::string name = "m" + std::to_string(i);
    *g.add_node() = test::Node(name, "MatMul", {prev, "r"}, w1, {{"T", test::TypeAttr(DT_FLOAT)}});
    prev = name;
  }
  *g.add_node() = test::Const("a", Tensor::Scalar<float>(3), "/job:ps");
  *g.add_node() = test::Binary("a2", "Mul", "a", "a", "/job:worker/task:0");
  return g;
}

TEST(ClusterFailures, AWorkerKilledMidStepFailsTheStepAndTheMasterStaysUsable) {
  TestCluster cluster;
  absl::Status st = cluster.Start({{"ps", 1}, {"worker", 2}});
  ASSERT_TRUE(st.ok()) << st;
  auto s = NewSessionOn(cluster.target("worker", 0), SlowGraph());
  ASSERT_NE(s, nullptr);
  RunOptions run_options;
  run_options.set_timeout_in_ms(10000);
  absl::Status step;
  absl::Duration took;
  std::thread t([&] {
    std::vector<Tensor> out;
    absl::Time start = absl::Now();
    step = s->Run(run_options, {}, {"m399:0"}, {}, &out, nullptr);
    took = absl::Now() - start;
  });
  absl::SleepFor(absl::Milliseconds(700));
  cluster.Kill("worker", 1);
  t.join();
  EXPECT_FALSE(step.ok());
  EXPECT_LT(took, absl::Seconds(12)) << step;
  EXPECT_TRUE(absl::StrContains(step.message(), "/job:worker/replica:0/task:1")) << step;
  // The master still serves steps that do not need the dead task.
  std::vector<Tensor> out;
  st = s->Run({}, {"a2:0"}, {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(out[0].data<float>()[0], 9.0f);
}

TEST(ClusterFailures, ARestartedWorkerAbortsTheOldSessionAndANewSessionWorks) {
  TestCluster cluster;
  absl::Status st = cluster.Start({{"ps", 1}, {"worker", 2}});
  ASSERT_TRUE(st.ok()) << st;
  auto s = NewSessionOn(cluster.target("worker", 0), test::CrossTaskGraph());
  ASSERT_NE(s, nullptr);
  std::vector<Tensor> out;
  st = s->Run({{"x", Tensor::Scalar<float>(1)}}, {"d:0"}, {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  cluster.Kill("worker", 1);
  st = cluster.StartTask("worker", 1);
  ASSERT_TRUE(st.ok()) << st;
  const absl::Time start = absl::Now();
  st = s->Run({{"x", Tensor::Scalar<float>(1)}}, {"d:0"}, {}, &out);
  EXPECT_EQ(st.code(), absl::StatusCode::kAborted) << st;
  EXPECT_LT(absl::Now() - start, absl::Seconds(5));
  auto s2 = NewSessionOn(cluster.target("worker", 0), test::CrossTaskGraph());
  ASSERT_NE(s2, nullptr);
  st = s2->Run({{"x", Tensor::Scalar<float>(1)}}, {"d:0"}, {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(out[0].data<float>()[0], 13.0f);
}

TEST(ClusterFailures, AnUnreachableMasterIsUnavailableWithinTheTimeout) {
  SessionOptions opts;
  opts.target = "grpc://127.0.0.1:" + std::to_string(testing::PickFreeLoopbackPort());
  opts.config.set_operation_timeout_in_ms(2000);
  std::unique_ptr<Session> s;
  ASSERT_TRUE(NewSession(opts, &s).ok());
  const absl::Time start = absl::Now();
  absl::Status st = s->Create(test::CrossTaskGraph());
  EXPECT_TRUE(st.code() == absl::StatusCode::kUnavailable ||
              st.code() == absl::StatusCode::kDeadlineExceeded)
      << st;
  EXPECT_LT(absl::Now() - start, absl::Seconds(3));
}

TEST(ClusterFailures, AMalformedTargetIsInvalidArgument) {
  SessionOptions opts;
  opts.target = "grpc://127.0.0.1:notaport";
  std::unique_ptr<Session> s;
  absl::Status st = NewSession(opts, &s);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
  EXPECT_TRUE(absl::StrContains(st.message(), "127.0.0.1:notaport")) << st;
}

// ---- TLS ---------------------------------------------------------------------------------------

TEST(ClusterTls, ACaSignedClusterServesTlsClientsAndRefusesPlaintext) {
  if (std::system("openssl version > /dev/null 2>&1") != 0) {
    GTEST_SKIP() << "skipped: openssl is not installed (scripts/install-deps.sh installs it)";
  }
  char tmpl[] = "/tmp/sg_tls_XXXXXX";
  const std::string dir = mkdtemp(tmpl);
  const std::string cmd =
      "cd " + dir +
      " && openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 1"
      " -subj /CN=sg-test-ca"
      " && openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr"
      " -subj /CN=localhost"
      " && printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\\n' > ext.cnf"
      " && openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial"
      " -out server.pem -days 1 -extfile ext.cnf";
  ASSERT_EQ(std::system(("(" + cmd + ") > " + dir + "/openssl.log 2>&1").c_str()), 0)
      << "openssl failed; see " << dir << "/openssl.log";
  ClusterOptions options;
  options.tls_cert = dir + "/server.pem";
  options.tls_key = dir + "/server.key";
  options.tls_ca = dir + "/ca.pem";
  TestCluster cluster(options);
  absl::Status st = cluster.Start({{"ps", 1}, {"worker", 2}});
  ASSERT_TRUE(st.ok()) << st;

  setenv("SG_GRPC_TLS_CA", options.tls_ca.c_str(), 1);
  auto s = NewSessionOn(cluster.target("worker", 0), test::CrossTaskGraph());
  unsetenv("SG_GRPC_TLS_CA");
  ASSERT_NE(s, nullptr);
  std::vector<Tensor> out;
  st = s->Run({{"x", Tensor::Scalar<float>(0.5f)}}, {"d:0"}, {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(out[0].data<float>()[0], 12.5f);

  SessionOptions plain;
  plain.target = cluster.target("worker", 0);
  plain.config.set_operation_timeout_in_ms(2000);
  std::unique_ptr<Session> p;
  ASSERT_TRUE(NewSession(plain, &p).ok());
  const absl::Time start = absl::Now();
  st = p->Create(test::CrossTaskGraph());
  EXPECT_EQ(st.code(), absl::StatusCode::kUnavailable) << st;
  EXPECT_LT(absl::Now() - start, absl::Seconds(3));
  std::system(("rm -rf " + dir).c_str());
}

}  // namespace
}  // namespace sg
