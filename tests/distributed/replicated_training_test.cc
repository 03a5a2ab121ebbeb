// Between-graph replicated training on a local cluster, as a TensorFlow 1.x program does it:
// `sg server` processes for ps:1 and worker:2 (TestCluster), and two clients in this process, one
// per worker, each with a GrpcSession on its own worker's target. Each client runs the GraphDef
// TensorFlow wrote for its worker (tests/oracle/training/replicated.linear.sgd, made by
// make_training_cases.py: tf.compat.v1.train.replica_device_setter puts the variables on the ps
// and the gradient graph on the worker) and steps it on its own batches, concurrently, with
// nothing to synchronize the two but the variables on the ps (asynchronous updates).
//
// - The loss on the whole dataset falls to TensorFlow's single-process value for the same number
//   of updates (within 25% of it: the order of asynchronous updates is not fixed, and the loss
//   is near the data's noise floor there, 1/300 of where it starts).
// - Killing worker 1's process while both train fails worker 1's client's step (an error, not a
//   hang), while worker 0's client keeps training.
#include <atomic>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "absl/time/clock.h"
#include "core/framework/tensor.h"
#include "core/graph/graph_constructor.h"
#include "core/runtime/session.h"
#include "tests/common/real_graph_checks.h"
#include "tests/core/npy_tensor.h"
#include "tests/distributed/cluster_util.h"

namespace sg {
namespace {

using json = nlohmann::json;
using testing::ClusterOptions;
using testing::TestCluster;

class ReplicatedTraining : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::string(SG_SOURCE_DIR) + "/tests/oracle/training/replicated.linear.sgd";
    std::ifstream in(dir_ + "/case.json");
    ASSERT_TRUE(in) << "no case.json in " << dir_;
    meta_ = json::parse(in, nullptr, /*allow_exceptions=*/false);
    ASSERT_TRUE(meta_.is_object());
    ASSERT_TRUE(ReadTensor(dir_ + "/x.npy", &x_).ok());
    ASSERT_TRUE(ReadTensor(dir_ + "/y.npy", &y_).ok());
    absl::Status st = cluster_.Start({{"ps", 1}, {"worker", 2}});
    ASSERT_TRUE(st.ok()) << st;
  }

  // A session on worker `w`'s target holding worker w's graph.
  std::unique_ptr<Session> Open(int w) {
    std::string bytes;
    EXPECT_TRUE(ReadGzip(dir_ + "/" + meta_["graphs"][w].get<std::string>(), &bytes).ok());
    GraphDef gdef;
    EXPECT_TRUE(ParseGraphDef(bytes, &gdef).ok());
    ConfigProto config;
    config.set_operation_timeout_in_ms(30000);
    // As tf.compat.v1.train.MonitoredTrainingSession's: replica_device_setter puts the global
    // step's VarIsInitializedOp on the worker, and its resource input wants it on the ps.
    config.set_allow_soft_placement(true);
    return test::NewSessionOn(cluster_.target("worker", w), gdef, config);
  }

  // Rows of worker w's k-th batch, as case.json's "batches" says.
  std::pair<Tensor, Tensor> Batch(int w, int k) const {
    const int batch = meta_["batch"], n = static_cast<int>(x_.shape().dim_size(0));
    const int d = static_cast<int>(x_.shape().dim_size(1));
    Tensor bx(DT_FLOAT, TensorShape({batch, d})), by(DT_FLOAT, TensorShape({batch, 1}));
    for (int i = 0; i < batch; ++i) {
      const int row = (w * batch + k * 2 * batch + i) % n;
      for (int j = 0; j < d; ++j) bx.data<float>()[i * d + j] = x_.data<float>()[row * d + j];
      by.data<float>()[i] = y_.data<float>()[row];
    }
    return {bx, by};
  }

  absl::Status Step(Session* s, int w, int k) const {
    auto [bx, by] = Batch(w, k);
    std::vector<Tensor> out;
    return s->Run({{"x:0", bx}, {"y:0", by}}, {}, {meta_.value("train_op", "train")}, &out);
  }

  float Loss(Session* s) const {
    std::vector<Tensor> out;
    absl::Status st = s->Run({{"x:0", x_}, {"y:0", y_}}, {meta_.value("loss", "loss:0")}, {}, &out);
    EXPECT_TRUE(st.ok()) << st;
    return st.ok() ? out[0].data<float>()[0] : -1;
  }

  TestCluster cluster_{ClusterOptions()};
  std::string dir_;
  json meta_;
  Tensor x_, y_;
};

TEST_F(ReplicatedTraining, AsynchronousWorkersReachTheSingleProcessLoss) {
  auto s0 = Open(0), s1 = Open(1);
  ASSERT_NE(s0, nullptr);
  ASSERT_NE(s1, nullptr);
  std::vector<Tensor> none;
  absl::Status st = s0->Run({}, {}, {meta_.value("init", "init")}, &none);  // the chief
  ASSERT_TRUE(st.ok()) << st;
  const float initial = Loss(s1.get());  // worker 1 reads the ps's variables too
  EXPECT_NEAR(initial, meta_["initial_loss"].get<double>(), 1e-4);

  const int steps = meta_["steps_per_worker"];
  absl::Status st0, st1;
  std::thread t0([&] {
    for (int k = 0; k < steps && st0.ok(); ++k) st0 = Step(s0.get(), 0, k);
  });
  std::thread t1([&] {
    for (int k = 0; k < steps && st1.ok(); ++k) st1 = Step(s1.get(), 1, k);
  });
  t0.join();
  t1.join();
  ASSERT_TRUE(st0.ok()) << st0;
  ASSERT_TRUE(st1.ok()) << st1;
  const double single = meta_["final_loss"];
  const float final0 = Loss(s0.get()), final1 = Loss(s1.get());
  EXPECT_EQ(final0, final1) << "both workers read the same variables on the ps";
  EXPECT_NEAR(final0, single, 0.25 * single)
      << "from " << initial << "; TensorFlow's single process reaches " << single;
  // The global step on the ps counted every update of both workers.
  std::vector<Tensor> gs;
  st = s0->Run({}, {"global_step/Read/ReadVariableOp:0"}, {}, &gs);
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(gs[0].data<int64_t>()[0], 2 * steps);
}

TEST_F(ReplicatedTraining, AKilledWorkerFailsItsStepAndTheOtherWorkerGoesOn) {
  auto s0 = Open(0), s1 = Open(1);
  ASSERT_NE(s0, nullptr);
  ASSERT_NE(s1, nullptr);
  std::vector<Tensor> none;
  absl::Status st = s0->Run({}, {}, {meta_.value("init", "init")}, &none);
  ASSERT_TRUE(st.ok()) << st;
  // Worker 1 trains until its step fails; the kill comes after it has stepped at least once.
  std::atomic<int> steps1{0};
  absl::Status st1;
  absl::Time failed_at;
  std::thread t1([&] {
    for (int k = 0; st1.ok(); ++k) {
      st1 = Step(s1.get(), 1, k);
      if (st1.ok()) steps1.fetch_add(1);
    }
    failed_at = absl::Now();
  });
  while (steps1.load() < 3) absl::SleepFor(absl::Milliseconds(5));
  const absl::Time killed_at = absl::Now();
  cluster_.Kill("worker", 1);
  t1.join();
  EXPECT_FALSE(st1.ok());
  EXPECT_LT(failed_at - killed_at, absl::Seconds(20)) << st1;
  // Worker 0 goes on training, through the ps, without worker 1.
  const float before = Loss(s0.get());
  for (int k = 0; k < 20; ++k) {
    st = Step(s0.get(), 0, k);
    ASSERT_TRUE(st.ok()) << "worker 0's step " << k << " after worker 1 died: " << st;
  }
  EXPECT_LT(Loss(s0.get()), before);
}

}  // namespace
}  // namespace sg
