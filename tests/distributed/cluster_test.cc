// Multi-process clusters on loopback: `sg server` processes for ps:1, worker:2 (TestCluster), and
// this process as the client over grpc:// (GrpcSession -> GrpcRemoteMaster).
//
// - Every graph of ../shared/testdata/tf_graphs that tests/core/real_graphs_test.cc runs, and
//   tests/testdata/digits_mlp.pb, give the same results over grpc:// as in a local session with
//   three CPU devices, both placing unconstrained nodes round robin
//   (ConfigProto.experimental.sg_round_robin_placement; on the cluster the master that places
//   the graph runs in worker 0's process), so that the same step builder partitions each graph
//   over three devices both ways.
// - Two client processes each add 1 to a counter on the ps 500 times, concurrently.
// - Failures: a task down at CreateSession, a worker killed in the middle of a step, a restarted
//   worker, an unreachable master, a malformed target; and TLS with certificates made here.
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <functional>
#include <set>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>

#include "absl/strings/match.h"
#include "absl/time/clock.h"
#include "core/runtime/session.h"
#include "tests/common/real_graph_checks.h"
#include "tests/distributed/cluster_util.h"
#include "tests/distributed/test_graphs.h"

extern char** environ;

namespace sg {
namespace {

using testing::ClusterOptions;
using testing::TestCluster;

using test::ExpectNear;
using test::LoadGraph;
using test::Make;
using test::NewSessionOn;
using test::ReadFile;
using test::Vals;

std::string TestdataDir() { return std::string(SG_SOURCE_DIR) + "/tests/testdata"; }

// ---- real graphs, locally and on the cluster ---------------------------------------------------
// The checks are tests/common/real_graph_checks.h, which tests/core/real_graphs_test.cc runs in a
// local session only.

class ClusterGraphs : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    cluster_ = new TestCluster(ClusterOptions());
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
    return target.empty() ? "local session (3 CPU devices)" : "cluster " + target;
  }
  // Round robin placement; locally over three CPU devices, as many as the cluster has tasks.
  static ConfigProto Config(const std::string& target) {
    ConfigProto config;
    config.mutable_experimental()->set_sg_round_robin_placement(true);
    if (target.empty()) (*config.mutable_device_count())["CPU"] = 3;
    return config;
  }

  // Runs `check` on each of Targets() in turn, under a trace naming the target, and stops at the
  // first fatal failure (as an ASSERT in a loop of the test itself would).
  static void OnEachTarget(const std::function<void(const test::SessionOpener&)>& check) {
    for (const auto& target : Targets()) {
      SCOPED_TRACE(Name(target));
      check(test::SharedGraphOpener(target, Config(target)));
      if (HasFatalFailure()) return;
    }
  }

  static TestCluster* cluster_;
  static absl::Status* start_status_;
};
TestCluster* ClusterGraphs::cluster_ = nullptr;
absl::Status* ClusterGraphs::start_status_ = nullptr;

// The graphs of ../shared/testdata, which only the project's own checkout has: a ctest entry of
// their own (cluster_shared_graphs_test), reported as skipped without them.
class ClusterSharedGraphs : public ClusterGraphs {};

TEST_F(ClusterGraphs, NodesAreSpreadOverEveryTask) {
  ConfigProto config = Config(cluster_->target("worker", 0));
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

TEST_F(ClusterSharedGraphs, AdditionFromTf2FeedsShapeOneIntoScalarPlaceholders) {
  SG_SKIP_WITHOUT_SHARED();
  OnEachTarget(test::CheckAddition);
}

TEST_F(ClusterSharedGraphs, MultiplicationFromProducer9) {
  SG_SKIP_WITHOUT_SHARED();
  OnEachTarget(test::CheckMultiplication);
}

TEST_F(ClusterSharedGraphs, TextGraphAddsConstantsAndConstantsCanBeFed) {
  SG_SKIP_WITHOUT_SHARED();
  OnEachTarget(test::CheckTextGraphAdd);
}

TEST_F(ClusterSharedGraphs, WhileLoopRunsTenIterations) {
  SG_SKIP_WITHOUT_SHARED();
  OnEachTarget(test::CheckWhileLoop);
}

TEST_F(ClusterSharedGraphs, CondTakesTheFalseBranchAndPropagatesDeadness) {
  SG_SKIP_WITHOUT_SHARED();
  OnEachTarget(test::CheckCond);
}

TEST_F(ClusterSharedGraphs, LibraryFunctionCalledAsAnOpType) {
  SG_SKIP_WITHOUT_SHARED();
  OnEachTarget(test::CheckLibraryFunction);
}

TEST_F(ClusterSharedGraphs, VariablesInTextAndBinaryGiveTheSameAnswer) {
  SG_SKIP_WITHOUT_SHARED();
  OnEachTarget(test::CheckVariables);
}

TEST_F(ClusterSharedGraphs, ReadingAVariableBeforeInitIsFailedPrecondition) {
  SG_SKIP_WITHOUT_SHARED();
  for (const auto& target : Targets()) {
    SCOPED_TRACE(Name(target));
    // Variables on the cluster outlive sessions: clear what earlier tests left.
    SessionOptions opts;
    opts.target = target;
    ASSERT_TRUE(Reset(opts, {}).ok());
    test::CheckReadBeforeInitFails(test::SharedGraphOpener(target, Config(target)));
    if (HasFatalFailure()) return;
  }
}

TEST_F(ClusterSharedGraphs, RegressionWithoutVersions) {
  SG_SKIP_WITHOUT_SHARED();
  OnEachTarget(test::CheckRegression);
}

TEST_F(ClusterSharedGraphs, FullyConnectedLayersOnTheRamp) {
  SG_SKIP_WITHOUT_SHARED();
  OnEachTarget(test::CheckFullyConnected);
}

TEST_F(ClusterSharedGraphs, UnrolledLstmOnTheRamp) {
  SG_SKIP_WITHOUT_SHARED();
  OnEachTarget(test::CheckUnrolledLstm);
}

TEST_F(ClusterSharedGraphs, MnistMlpReachesItsPublishedAccuracyOnT10k) {
  SG_SKIP_WITHOUT_SHARED();
  test::MnistT10k data;  // read once for both targets
  test::ReadMnistT10k(&data);
  if (HasFatalFailure()) return;
  OnEachTarget([&](const test::SessionOpener& open) { test::CheckMnistMlp(open, data); });
}

TEST_F(ClusterSharedGraphs, KeywordSpottingDnnFedThroughMfcc) {
  SG_SKIP_WITHOUT_SHARED();
  OnEachTarget(test::CheckKwsDnn);
}

TEST_F(ClusterSharedGraphs, KeywordSpottingDepthwiseCnnFedThroughMfcc) {
  SG_SKIP_WITHOUT_SHARED();
  OnEachTarget(test::CheckKwsDsCnn);
}

// No reference values are published for this graph, so the cluster must also give what the local
// session gave (Targets() runs the local session first).
TEST_F(ClusterSharedGraphs, KeywordSpottingLstmWithWhileLoopAndTensorArrays) {
  SG_SKIP_WITHOUT_SHARED();
  std::vector<float> local;
  OnEachTarget([&](const test::SessionOpener& open) {
    std::vector<float> p;
    test::CheckKwsLstm(open, &p);
    if (HasFatalFailure()) return;
    if (local.empty()) {
      local = p;
    } else {
      ExpectNear(p, local, 1e-5, 1e-7);
    }
  });
}

TEST_F(ClusterSharedGraphs, KeywordSpottingFromWavBytesHearsSilence) {
  SG_SKIP_WITHOUT_SHARED();
  OnEachTarget(test::CheckKwsHearsSilence);
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
    auto s = LoadGraph(TestdataDir() + "/digits_mlp.pb", target, Config(target));
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

// CrossTaskGraph (d on worker 1 needs the feed x) and a small graph on the ps and worker 0.
GraphDef GraphWithAStepThatWaits() {
  GraphDef g = test::CrossTaskGraph();
  *g.add_node() = test::Const("a2_in", Tensor::Scalar<float>(3), "/job:ps");
  *g.add_node() = test::Binary("a2", "Mul", "a2_in", "a2_in", "/job:worker/task:0");
  return g;
}

// The step never ends by itself: a partial run fetches d without ever feeding x, so its piece on
// worker 1 waits. Whenever the kill lands (before the piece reached worker 1 or while it waits),
// the step must fail naming the task, long before the session's 30 s timeout.
TEST(ClusterFailures, AWorkerKilledMidStepFailsTheStepAndTheMasterStaysUsable) {
  TestCluster cluster;
  absl::Status st = cluster.Start({{"ps", 1}, {"worker", 2}});
  ASSERT_TRUE(st.ok()) << st;
  ConfigProto config;
  config.set_operation_timeout_in_ms(30000);
  auto s = NewSessionOn(cluster.target("worker", 0), GraphWithAStepThatWaits(), config);
  ASSERT_NE(s, nullptr);
  std::string handle;
  st = s->PRunSetup({"x:0"}, {"d:0"}, {}, &handle);
  ASSERT_TRUE(st.ok()) << st;
  absl::Status step;
  absl::Time start;
  std::thread t([&] {
    std::vector<Tensor> out;
    step = s->PRun(handle, {}, {"d:0"}, &out);
  });
  start = absl::Now();
  cluster.Kill("worker", 1);
  t.join();
  EXPECT_FALSE(step.ok());
  EXPECT_LT(absl::Now() - start, absl::Seconds(20)) << step;
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

  // The client's CA from its session config ...
  ConfigProto tls_config;
  tls_config.mutable_rpc_options()->set_sg_tls_ca_file(options.tls_ca);
  auto s = NewSessionOn(cluster.target("worker", 0), test::CrossTaskGraph(), tls_config);
  ASSERT_NE(s, nullptr);
  std::vector<Tensor> out;
  st = s->Run({{"x", Tensor::Scalar<float>(0.5f)}}, {"d:0"}, {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(out[0].data<float>()[0], 12.5f);
  // ... or from SG_GRPC_TLS_CA, which overrides the config's.
  setenv("SG_GRPC_TLS_CA", options.tls_ca.c_str(), 1);
  auto from_env = NewSessionOn(cluster.target("worker", 0), test::CrossTaskGraph());
  SessionOptions overridden;
  overridden.target = cluster.target("worker", 0);
  overridden.config.mutable_rpc_options()->set_sg_tls_ca_file(dir + "/no-such-ca.pem");
  std::unique_ptr<Session> o;
  absl::Status override_status = NewSession(overridden, &o);
  unsetenv("SG_GRPC_TLS_CA");
  ASSERT_NE(from_env, nullptr);
  st = from_env->Run({{"x", Tensor::Scalar<float>(0.5f)}}, {"d:0"}, {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_TRUE(override_status.ok()) << override_status;

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
