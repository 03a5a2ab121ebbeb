// Queues across steps: a dequeue waits for an enqueue of another step, a close wakes it with
// OUT_OF_RANGE, a close waits behind pending enqueues (or cancels them), and closing the session
// or the run's timeout ends a waiting step. No test depends on timing: where a step must be
// waiting before the next move, the test waits for a sign that it is (a marker queue's size, the
// queue's size), and every other outcome is the same whichever thread runs first.
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <google/protobuf/text_format.h>

#include "core/runtime/session.h"

namespace sg {
namespace {

// q: float scalars, capacity 2. marker: a second queue, enqueued to by `mark_then_dequeue`
// before it dequeues from q, so that marker's size tells that the step got that far.
constexpr const char* kGraph = R"pb(
  node { name: "q" op: "FIFOQueueV2"
         attr { key: "component_types" value { list { type: DT_FLOAT } } }
         attr { key: "shapes" value { list { shape {} } } }
         attr { key: "capacity" value { i: 2 } } }
  node { name: "marker" op: "FIFOQueueV2"
         attr { key: "component_types" value { list { type: DT_FLOAT } } } }
  node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } } }
  node { name: "xs" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } } }
  node { name: "n" op: "Placeholder" attr { key: "dtype" value { type: DT_INT32 } } }
  node { name: "enqueue" op: "QueueEnqueueV2" input: "q" input: "x"
         attr { key: "Tcomponents" value { list { type: DT_FLOAT } } } }
  node { name: "enqueue_many" op: "QueueEnqueueManyV2" input: "q" input: "xs"
         attr { key: "Tcomponents" value { list { type: DT_FLOAT } } } }
  node { name: "dequeue" op: "QueueDequeueV2" input: "q"
         attr { key: "component_types" value { list { type: DT_FLOAT } } } }
  node { name: "dequeue_many" op: "QueueDequeueManyV2" input: "q" input: "n"
         attr { key: "component_types" value { list { type: DT_FLOAT } } } }
  node { name: "close" op: "QueueCloseV2" input: "q" }
  node { name: "close_cancel" op: "QueueCloseV2" input: "q"
         attr { key: "cancel_pending_enqueues" value { b: true } } }
  node { name: "size" op: "QueueSizeV2" input: "q" }
  node { name: "is_closed" op: "QueueIsClosedV2" input: "q" }
  node { name: "one" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }
         attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape {}
                                              float_val: 1 } } } }
  node { name: "mark" op: "QueueEnqueueV2" input: "marker" input: "one"
         attr { key: "Tcomponents" value { list { type: DT_FLOAT } } } }
  node { name: "marker_size" op: "QueueSizeV2" input: "marker" }
  node { name: "mark_then_dequeue" op: "QueueDequeueV2" input: "q" input: "^mark"
         attr { key: "component_types" value { list { type: DT_FLOAT } } } }
)pb";

// Every case runs with inter-op pools of 2 threads and of 1. With 1, a step runs on its caller's
// thread while no other step does, and on the pool's thread otherwise: the steps that wait for
// each other here must still all finish.
class QueueTest : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    GraphDef graph;
    ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(kGraph, &graph));
    SessionOptions options;
    options.config.set_inter_op_parallelism_threads(GetParam());
    ASSERT_TRUE(NewSession(options, &session_).ok());
    ASSERT_TRUE(session_->Create(graph).ok());
  }

  absl::StatusOr<Tensor> Fetch(const std::string& name,
                               std::vector<std::pair<std::string, Tensor>> feeds = {}) {
    std::vector<Tensor> out;
    SG_RETURN_IF_ERROR(session_->Run(RunOptions(), feeds, {name}, {}, &out, nullptr));
    return out[0];
  }
  absl::Status Target(const std::string& name,
                      std::vector<std::pair<std::string, Tensor>> feeds = {}) {
    std::vector<Tensor> out;
    return session_->Run(RunOptions(), feeds, {}, {name}, &out, nullptr);
  }
  int32_t Size(const std::string& node) { return Fetch(node)->scalar<int32_t>()(); }
  // Returns once the queue `node` sizes reaches n: a step got as far as that.
  void WaitForSize(const std::string& node, int32_t n) {
    while (Size(node) != n) std::this_thread::yield();
  }

  std::unique_ptr<Session> session_;
};

TEST_P(QueueTest, DequeueWaitsForAnEnqueueOfAnotherStep) {
  absl::StatusOr<Tensor> got;
  std::thread consumer([&] { got = Fetch("mark_then_dequeue"); });
  WaitForSize("marker_size", 1);
  ASSERT_TRUE(Target("enqueue", {{"x", Tensor::Scalar<float>(7.5f)}}).ok());
  consumer.join();
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(got->scalar<float>()(), 7.5f);
  EXPECT_EQ(Size("size"), 0);
}

TEST_P(QueueTest, DequeueManyAboveCapacityTakesElementsAsTheyCome) {
  absl::StatusOr<Tensor> got;
  std::thread consumer([&] { got = Fetch("dequeue_many", {{"n", Tensor::Scalar<int32_t>(5)}}); });
  // Waits for room twice, whichever step starts first.
  ASSERT_TRUE(Target("enqueue_many", {{"xs", Tensor::Vector<float>({1, 2, 3, 4, 5})}}).ok());
  consumer.join();
  ASSERT_TRUE(got.ok()) << got.status();
  ASSERT_EQ(got->NumElements(), 5);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(got->data<float>()[i], i + 1);
}

TEST_P(QueueTest, ManyProducersAndConsumersPassEveryElementOnce) {
  // 4 producers of 50 distinct values, 4 consumers of 50, through a queue of capacity 2: every
  // step waits for the others, in whatever order they run, and all of them finish.
  constexpr int kThreads = 4, kEach = 50;
  std::vector<std::thread> threads;
  std::vector<absl::Status> produced(kThreads);
  std::vector<absl::StatusOr<Tensor>> consumed(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      Tensor xs(DT_FLOAT, TensorShape({kEach}));
      for (int i = 0; i < kEach; ++i) xs.data<float>()[i] = t * kEach + i;
      produced[t] = Target("enqueue_many", {{"xs", xs}});
    });
    threads.emplace_back([&, t] {
      consumed[t] = Fetch("dequeue_many", {{"n", Tensor::Scalar<int32_t>(kEach)}});
    });
  }
  for (auto& th : threads) th.join();
  std::vector<int> seen(kThreads * kEach, 0);
  for (int t = 0; t < kThreads; ++t) {
    ASSERT_TRUE(produced[t].ok()) << produced[t];
    ASSERT_TRUE(consumed[t].ok()) << consumed[t].status();
    ASSERT_EQ(consumed[t]->NumElements(), kEach);
    for (int i = 0; i < kEach; ++i) ++seen.at(static_cast<int>(consumed[t]->data<float>()[i]));
  }
  for (int v = 0; v < kThreads * kEach; ++v) EXPECT_EQ(seen[v], 1) << "value " << v;
  EXPECT_EQ(Size("size"), 0);
}

TEST_P(QueueTest, CloseWakesAWaitingDequeueWithOutOfRange) {
  absl::StatusOr<Tensor> got;
  std::thread consumer([&] { got = Fetch("mark_then_dequeue"); });
  WaitForSize("marker_size", 1);
  ASSERT_TRUE(Target("close").ok());
  consumer.join();
  EXPECT_EQ(got.status().code(), absl::StatusCode::kOutOfRange) << got.status();
  EXPECT_TRUE(Fetch("is_closed")->scalar<bool>()());
}

TEST_P(QueueTest, CloseWaitsBehindPendingEnqueues) {
  absl::Status enqueued, closed;
  std::thread producer([&] {
    enqueued = Target("enqueue_many", {{"xs", Tensor::Vector<float>({1, 2, 3, 4})}});
  });
  WaitForSize("size", 2);  // two in, two waiting for room
  std::thread closer([&] { closed = Target("close"); });
  auto got = Fetch("dequeue_many", {{"n", Tensor::Scalar<int32_t>(4)}});
  producer.join();
  closer.join();
  ASSERT_TRUE(got.ok()) << got.status();
  for (int i = 0; i < 4; ++i) EXPECT_EQ(got->data<float>()[i], i + 1);
  EXPECT_TRUE(enqueued.ok()) << enqueued;
  EXPECT_TRUE(closed.ok()) << closed;
  EXPECT_TRUE(Fetch("is_closed")->scalar<bool>()());
}

TEST_P(QueueTest, CancelPendingEnqueuesFailsThemAndKeepsWhatIsIn) {
  absl::Status enqueued;
  std::thread producer([&] {
    enqueued = Target("enqueue_many", {{"xs", Tensor::Vector<float>({1, 2, 3, 4})}});
  });
  WaitForSize("size", 2);
  ASSERT_TRUE(Target("close_cancel").ok());
  producer.join();
  EXPECT_EQ(enqueued.code(), absl::StatusCode::kCancelled) << enqueued;
  EXPECT_EQ(Fetch("dequeue")->scalar<float>()(), 1);
  EXPECT_EQ(Fetch("dequeue")->scalar<float>()(), 2);
  EXPECT_EQ(Fetch("dequeue").status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(Target("enqueue", {{"x", Tensor::Scalar<float>(1)}}).code(),
            absl::StatusCode::kCancelled);
}

TEST_P(QueueTest, ClosingTheSessionWakesAWaitingDequeue) {
  absl::StatusOr<Tensor> got;
  std::thread consumer([&] { got = Fetch("mark_then_dequeue"); });
  WaitForSize("marker_size", 1);  // the step is in flight: Close must end it, not wait for it
  ASSERT_TRUE(session_->Close().ok());
  consumer.join();
  EXPECT_EQ(got.status().code(), absl::StatusCode::kCancelled) << got.status();
}

TEST_P(QueueTest, TheRunsTimeoutEndsAWaitingDequeue) {
  RunOptions options;
  options.set_timeout_in_ms(20);
  std::vector<Tensor> out;
  absl::Status s = session_->Run(options, {}, {"dequeue"}, {}, &out, nullptr);
  EXPECT_EQ(s.code(), absl::StatusCode::kDeadlineExceeded) << s;
  // The cancelled dequeue left nothing behind: an enqueue and a dequeue still pair up.
  ASSERT_TRUE(Target("enqueue", {{"x", Tensor::Scalar<float>(3)}}).ok());
  EXPECT_EQ(Fetch("dequeue")->scalar<float>()(), 3);
}

INSTANTIATE_TEST_SUITE_P(InterOpThreads, QueueTest, ::testing::Values(2, 1),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return "inter_op_" + std::to_string(info.param);
                         });

}  // namespace
}  // namespace sg
