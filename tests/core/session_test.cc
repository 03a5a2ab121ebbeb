// DirectSession behaviour: pruning, feeding any tensor, caching, Extend, partial runs, several
// CPU devices, concurrency, Close, timeouts and the errors of bad requests.
#include <algorithm>
#include <atomic>
#include <new>
#include <set>
#include <stdexcept>
#include <thread>

#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "core/framework/attr_value_util.h"
#include "core/framework/op.h"
#include "core/framework/op_kernel.h"
#include "core/framework/shape_inference.h"
#include "core/runtime/session.h"

namespace sg {
namespace {

NodeDef Node(const std::string& name, const std::string& op, std::vector<std::string> inputs,
             std::vector<std::pair<std::string, AttrValue>> attrs = {}) {
  NodeDef n;
  n.set_name(name);
  n.set_op(op);
  for (auto& i : inputs) n.add_input(i);
  for (auto& a : attrs) (*n.mutable_attr())[a.first] = a.second;
  return n;
}
AttrValue TypeAttr(DataType t) {
  AttrValue v;
  v.set_type(t);
  return v;
}
AttrValue TensorAttr(const Tensor& t) {
  AttrValue v;
  SetAttrValue(t, &v);
  return v;
}
AttrValue ShapeAttr(std::vector<int64_t> dims) {
  AttrValue v;
  PartialTensorShape(dims).AsProto(v.mutable_shape());
  return v;
}
NodeDef Placeholder(const std::string& name, DataType t = DT_FLOAT,
                    std::vector<int64_t> shape = {}) {
  return Node(name, "Placeholder", {}, {{"dtype", TypeAttr(t)}, {"shape", ShapeAttr(shape)}});
}
NodeDef Const(const std::string& name, const Tensor& t) {
  return Node(name, "Const", {}, {{"dtype", TypeAttr(t.dtype())}, {"value", TensorAttr(t)}});
}
NodeDef Binary(const std::string& name, const std::string& op, const std::string& a,
               const std::string& b) {
  return Node(name, op, {a, b}, {{"T", TypeAttr(DT_FLOAT)}});
}

std::unique_ptr<Session> MakeSession(const GraphDef& g, ConfigProto config = {}) {
  SessionOptions opts;
  opts.config = config;
  std::unique_ptr<Session> s;
  EXPECT_TRUE(NewSession(opts, &s).ok());
  absl::Status st = s->Create(g);
  EXPECT_TRUE(st.ok()) << st;
  return s;
}

// z = x + y; w = z * c (c = 3).
GraphDef AddMulGraph() {
  GraphDef g;
  *g.add_node() = Placeholder("x");
  *g.add_node() = Placeholder("y");
  *g.add_node() = Const("c", Tensor::Scalar<float>(3.0f));
  *g.add_node() = Binary("z", "AddV2", "x", "y");
  *g.add_node() = Binary("w", "Mul", "z", "c");
  return g;
}

TEST(DirectSession, RunsOnlyWhatTheFetchesNeed) {
  auto s = MakeSession(AddMulGraph());
  std::vector<Tensor> out;
  // y is not fed: fetching z would fail, but fetching x only needs x.
  ASSERT_TRUE(s->Run({{"x:0", Tensor::Scalar<float>(2)}}, {"x:0"}, {}, &out).ok());
  EXPECT_EQ(out[0].data<float>()[0], 2);
  ASSERT_TRUE(s->Run({{"x:0", Tensor::Scalar<float>(2)}, {"y:0", Tensor::Scalar<float>(5)}},
                     {"w:0", "z:0"}, {}, &out)
                  .ok());
  EXPECT_EQ(out[0].data<float>()[0], 21);
  EXPECT_EQ(out[1].data<float>()[0], 7);
}

TEST(DirectSession, FeedsAnyTensorNotOnlyPlaceholders) {
  auto s = MakeSession(AddMulGraph());
  std::vector<Tensor> out;
  ASSERT_TRUE(s->Run({{"z:0", Tensor::Scalar<float>(10)}}, {"w:0"}, {}, &out).ok());
  EXPECT_EQ(out[0].data<float>()[0], 30);
  ASSERT_TRUE(s->Run({{"z:0", Tensor::Scalar<float>(1)}, {"c:0", Tensor::Scalar<float>(4)}},
                     {"w:0"}, {}, &out)
                  .ok());
  EXPECT_EQ(out[0].data<float>()[0], 4);
}

// A fed variable is a value for its readers (as a checkpoint's SaveV2 reads it); the Assign
// that wants its reference is an error only when the step needs it.
TEST(DirectSession, FeedsAVariableWhoseAssignTheStepDoesNotRun) {
  GraphDef g;
  *g.add_node() = Node("v", "VariableV2", {},
                       {{"dtype", TypeAttr(DT_FLOAT)}, {"shape", ShapeAttr({})}});
  *g.add_node() = Const("one", Tensor::Scalar<float>(1));
  *g.add_node() = Node("v/Assign", "Assign", {"v", "one"}, {{"T", TypeAttr(DT_FLOAT)}});
  *g.add_node() = Const("c", Tensor::Scalar<float>(3));
  *g.add_node() = Binary("w", "Mul", "v", "c");
  auto s = MakeSession(g);
  std::vector<Tensor> out;
  ASSERT_TRUE(s->Run({}, {}, {"v/Assign"}, &out).ok());
  absl::Status st = s->Run({{"v:0", Tensor::Scalar<float>(5)}}, {"w:0"}, {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(out[0].data<float>()[0], 15);
  ASSERT_TRUE(s->Run({}, {"w:0"}, {}, &out).ok());  // the variable itself is untouched
  EXPECT_EQ(out[0].data<float>()[0], 3);
  st = s->Run({{"v:0", Tensor::Scalar<float>(5)}}, {"w:0"}, {"v/Assign"}, &out);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("'v/Assign' needs a reference to 'v:0'"), std::string::npos) << st;
}

TEST(DirectSession, UnfedPlaceholderNamesItself) {
  auto s = MakeSession(AddMulGraph());
  std::vector<Tensor> out;
  absl::Status st = s->Run({{"x:0", Tensor::Scalar<float>(2)}}, {"z:0"}, {}, &out);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("'y'"), std::string::npos) << st;
}

TEST(DirectSession, SameFetchTwiceReturnsBoth) {
  auto s = MakeSession(AddMulGraph());
  std::vector<Tensor> out;
  ASSERT_TRUE(s->Run({{"z:0", Tensor::Scalar<float>(2)}}, {"w:0", "w:0"}, {}, &out).ok());
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].data<float>()[0], 6);
  EXPECT_EQ(out[1].data<float>()[0], 6);
}

TEST(DirectSession, RejectsBadRequests) {
  auto s = MakeSession(AddMulGraph());
  std::vector<Tensor> out;
  EXPECT_EQ(s->Run({{"x:0", Tensor::Scalar<float>(1)}, {"x:0", Tensor::Scalar<float>(1)}},
                   {"x:0"}, {}, &out)
                .code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s->Run({}, {"nope:0"}, {}, &out).code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(s->Run({}, {"c:3"}, {}, &out).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s->Run({}, {}, {"nope"}, &out).code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(s->Run({{"x:0", Tensor::Scalar<int32_t>(1)}}, {"x:0"}, {}, &out).code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(DirectSession, AFeedThatContradictsTheDeclaredShapeRunsWithItsOwnShape) {
  // As TensorFlow's C API: the declared [2, 3] is not checked. The optimiser would otherwise
  // fold Shape and Size of p to [2, 3] and 6 (it does for a feed that fits).
  GraphDef g;
  *g.add_node() = Placeholder("p", DT_FLOAT, {2, 3});
  *g.add_node() = Node("i", "Identity", {"p"}, {{"T", TypeAttr(DT_FLOAT)}});
  *g.add_node() = Node("shape", "Shape", {"p"},
                       {{"T", TypeAttr(DT_FLOAT)}, {"out_type", TypeAttr(DT_INT32)}});
  *g.add_node() = Node("size", "Size", {"p"},
                       {{"T", TypeAttr(DT_FLOAT)}, {"out_type", TypeAttr(DT_INT32)}});
  auto s = MakeSession(g);
  std::vector<Tensor> out;
  ASSERT_TRUE(s->Run({{"p:0", Tensor(DT_FLOAT, TensorShape({2, 3}))}}, {"shape:0", "size:0"}, {},
                     &out)
                  .ok());
  EXPECT_EQ(out[0].data<int32_t>()[1], 3);
  EXPECT_EQ(out[1].data<int32_t>()[0], 6);
  Tensor wide(DT_FLOAT, TensorShape({2, 4}));
  for (int k = 0; k < 8; ++k) wide.data<float>()[k] = k + 0.5f;
  for (int round = 0; round < 2; ++round) {  // the second time from the cache
    ASSERT_TRUE(s->Run({{"p:0", wide}}, {"i:0", "shape:0", "size:0"}, {}, &out).ok());
    ASSERT_EQ(out[0].shape(), TensorShape({2, 4}));
    for (int k = 0; k < 8; ++k) EXPECT_EQ(out[0].data<float>()[k], k + 0.5f);
    ASSERT_EQ(out[1].NumElements(), 2);
    EXPECT_EQ(out[1].data<int32_t>()[0], 2);
    EXPECT_EQ(out[1].data<int32_t>()[1], 4);
    EXPECT_EQ(out[2].data<int32_t>()[0], 8);
  }
  // A feed that fits still takes the usual step.
  ASSERT_TRUE(s->Run({{"p:0", Tensor(DT_FLOAT, TensorShape({2, 3}))}}, {"size:0"}, {}, &out).ok());
  EXPECT_EQ(out[0].data<int32_t>()[0], 6);
  // The dtype is still checked.
  absl::Status st = s->Run({{"p:0", Tensor(DT_INT32, TensorShape({2, 3}))}}, {"i:0"}, {}, &out);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("p:0"), std::string::npos) << st;
}

TEST(DirectSession, ExtendAddsNodesLater) {
  auto s = MakeSession(AddMulGraph());
  GraphDef more;
  *more.add_node() = Binary("v", "Sub", "w", "c");
  ASSERT_TRUE(s->Extend(more).ok());
  std::vector<Tensor> out;
  ASSERT_TRUE(s->Run({{"z:0", Tensor::Scalar<float>(2)}}, {"v:0"}, {}, &out).ok());
  EXPECT_EQ(out[0].data<float>()[0], 3);
  GraphDef dup;
  *dup.add_node() = Binary("v", "Sub", "w", "c");
  EXPECT_EQ(s->Extend(dup).code(), absl::StatusCode::kInvalidArgument);
}

TEST(DirectSession, PartialRunFeedsAndFetchesInPieces) {
  auto s = MakeSession(AddMulGraph());
  std::string handle;
  ASSERT_TRUE(s->PRunSetup({"x:0", "y:0"}, {"z:0", "w:0"}, {}, &handle).ok());
  std::vector<Tensor> out;
  ASSERT_TRUE(s->PRun(handle, {{"x:0", Tensor::Scalar<float>(1)},
                               {"y:0", Tensor::Scalar<float>(2)}},
                      {"z:0"}, &out)
                  .ok());
  EXPECT_EQ(out[0].data<float>()[0], 3);
  ASSERT_TRUE(s->PRun(handle, {}, {"w:0"}, &out).ok());
  EXPECT_EQ(out[0].data<float>()[0], 9);
  EXPECT_EQ(s->PRun(handle, {}, {"w:0"}, &out).code(), absl::StatusCode::kInvalidArgument);
}

TEST(DirectSession, ARefusedPartialRunCallUsesUpNothing) {
  auto s = MakeSession(AddMulGraph());
  std::string handle;
  ASSERT_TRUE(s->PRunSetup({"x:0", "y:0"}, {"z:0", "w:0"}, {}, &handle).ok());
  std::vector<Tensor> out;
  // x is declared, q is not: the call is refused and x stays unfed.
  EXPECT_EQ(s->PRun(handle, {{"x:0", Tensor::Scalar<float>(1)}, {"q:0", Tensor::Scalar<float>(5)}},
                    {}, &out)
                .code(),
            absl::StatusCode::kInvalidArgument);
  // A good feed with an undeclared fetch: refused, the feed not used up.
  EXPECT_EQ(s->PRun(handle, {{"x:0", Tensor::Scalar<float>(1)}}, {"nope:0"}, &out).code(),
            absl::StatusCode::kInvalidArgument);
  // The same fetch twice in one call: refused.
  EXPECT_EQ(s->PRun(handle, {}, {"z:0", "z:0"}, &out).code(), absl::StatusCode::kInvalidArgument);
  ASSERT_TRUE(s->PRun(handle, {{"x:0", Tensor::Scalar<float>(4)},
                               {"y:0", Tensor::Scalar<float>(2)}},
                      {"z:0", "w:0"}, &out)
                  .ok());
  EXPECT_EQ(out[0].data<float>()[0], 6);
  EXPECT_EQ(out[1].data<float>()[0], 18);
}

TEST(DirectSession, SeveralCpuDevicesExchangeTensorsThroughSendRecv) {
  GraphDef g = AddMulGraph();
  g.mutable_node(3)->set_device("/device:CPU:1");  // z on the second device
  ConfigProto config;
  (*config.mutable_device_count())["CPU"] = 2;
  auto s = MakeSession(g, config);
  std::vector<DeviceAttributes> devices;
  ASSERT_TRUE(s->ListDevices(&devices).ok());
  ASSERT_EQ(devices.size(), 2u);
  EXPECT_EQ(devices[1].name(), "/job:localhost/replica:0/task:0/device:CPU:1");
  std::vector<Tensor> out;
  absl::Status st =
      s->Run({{"x:0", Tensor::Scalar<float>(2)}, {"y:0", Tensor::Scalar<float>(5)}}, {"w:0"}, {},
             &out);
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(out[0].data<float>()[0], 21);
}

// The node stats of `name` in `stats` (nullptr when absent), and the device that ran it.
const NodeExecStats* FindNodeStats(const StepStats& stats, const std::string& name,
                                   std::string* device = nullptr) {
  for (const DeviceStepStats& d : stats.dev_stats()) {
    for (const NodeExecStats& n : d.node_stats()) {
      if (n.node_name() != name) continue;
      if (device != nullptr) *device = d.device();
      return &n;
    }
  }
  return nullptr;
}

TEST(DirectSession, RunMetadataHoldsTheTraceAndPartitionGraphsAskedFor) {
  GraphDef g = AddMulGraph();
  g.mutable_node(3)->set_device("/device:CPU:1");  // z on the second device
  ConfigProto config;
  (*config.mutable_device_count())["CPU"] = 2;
  auto s = MakeSession(g, config);
  const std::vector<std::pair<std::string, Tensor>> feeds = {{"x:0", Tensor::Scalar<float>(2)},
                                                             {"y:0", Tensor::Scalar<float>(5)}};
  std::vector<Tensor> out;
  // Not asked for: nothing.
  RunMetadata metadata;
  absl::Status st = s->Run(RunOptions(), feeds, {"w:0"}, {}, &out, &metadata);
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(metadata.ByteSizeLong(), 0u) << metadata.DebugString();

  for (RunOptions::TraceLevel level : {RunOptions::SOFTWARE_TRACE, RunOptions::FULL_TRACE}) {
    RunOptions options;
    options.set_trace_level(level);
    options.set_output_partition_graphs(true);
    metadata.Clear();
    const int64_t before_us = absl::ToUnixMicros(absl::Now());
    st = s->Run(options, feeds, {"w:0"}, {}, &out, &metadata);
    const int64_t after_us = absl::ToUnixMicros(absl::Now());
    ASSERT_TRUE(st.ok()) << st;
    EXPECT_EQ(out[0].data<float>()[0], 21);
    // One entry per node run, on the device that ran it, as TensorFlow's StepStats.
    std::string device;
    const NodeExecStats* z = FindNodeStats(metadata.step_stats(), "z", &device);
    ASSERT_NE(z, nullptr) << metadata.step_stats().DebugString();
    EXPECT_EQ(device, "/job:localhost/replica:0/task:0/device:CPU:1");
    // "name = Op(inputs)", from which timelines take the op; z's inputs, fed on the other device,
    // come through _Recvs.
    EXPECT_EQ(z->timeline_label().rfind("z = AddV2(", 0), 0u) << z->timeline_label();
    EXPECT_GE(z->all_start_micros(), before_us);
    EXPECT_LE(z->all_start_micros() + z->all_end_rel_micros(), after_us);
    EXPECT_GE(z->op_end_rel_micros(), 0);
    ASSERT_EQ(z->output_size(), 1);
    EXPECT_EQ(z->output(0).slot(), 0);
    EXPECT_EQ(z->output(0).tensor_description().dtype(), DT_FLOAT);
    EXPECT_EQ(z->output(0).tensor_description().shape().dim_size(), 0);
    EXPECT_EQ(z->output(0).tensor_description().allocation_description().requested_bytes(), 4);
    const NodeExecStats* w = FindNodeStats(metadata.step_stats(), "w", &device);
    ASSERT_NE(w, nullptr);
    EXPECT_EQ(device, "/job:localhost/replica:0/task:0/device:CPU:0");
    // w's input z comes from the other device: in w's partition, through a _Recv.
    EXPECT_EQ(w->timeline_label().rfind("w = Mul(", 0), 0u) << w->timeline_label();
    // One graph per device, which together hold the step's nodes.
    ASSERT_EQ(metadata.partition_graphs_size(), 2);
    std::set<std::string> nodes;
    for (const GraphDef& p : metadata.partition_graphs()) {
      for (const NodeDef& n : p.node()) nodes.insert(n.name());
    }
    for (const char* name : {"z", "w", "c"}) EXPECT_TRUE(nodes.count(name)) << name;
  }
}

// The tensor memory each node allocated, in its trace entry (TensorFlow's AllocatorMemoryUsed):
// a 16x32 by 32x8 product allocates its 16x8 float output (512 bytes) and keeps it live.
TEST(DirectSession, TraceRecordsTheMemoryEachNodeAllocated) {
  GraphDef g;
  *g.add_node() = Placeholder("a", DT_FLOAT, {16, 32});
  *g.add_node() = Placeholder("b", DT_FLOAT, {32, 8});
  *g.add_node() = Binary("p", "MatMul", "a", "b");
  auto s = MakeSession(g);
  Tensor a(DT_FLOAT, TensorShape({16, 32})), b(DT_FLOAT, TensorShape({32, 8}));
  for (int64_t i = 0; i < a.NumElements(); ++i) a.data<float>()[i] = 1;
  for (int64_t i = 0; i < b.NumElements(); ++i) b.data<float>()[i] = 2;
  RunOptions options;
  options.set_trace_level(RunOptions::FULL_TRACE);
  RunMetadata metadata;
  std::vector<Tensor> out;
  absl::Status st = s->Run(options, {{"a:0", a}, {"b:0", b}}, {"p:0"}, {}, &out, &metadata);
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(out[0].data<float>()[0], 64);  // 32 products of 1 * 2
  std::string device;
  const NodeExecStats* p = FindNodeStats(metadata.step_stats(), "p", &device);
  ASSERT_NE(p, nullptr) << metadata.step_stats().DebugString();
  ASSERT_EQ(p->memory_size(), 1) << p->DebugString();
  EXPECT_EQ(p->memory(0).allocator_name(), "cpu");
  EXPECT_EQ(p->memory(0).total_bytes(), 16 * 8 * 4);
  EXPECT_EQ(p->memory(0).peak_bytes(), 16 * 8 * 4);
  EXPECT_EQ(p->memory(0).live_bytes(), 16 * 8 * 4);
}

TEST(DirectSession, UnsatisfiableDeviceIsAnErrorUnlessSoftPlacement) {
  GraphDef g = AddMulGraph();
  g.mutable_node(3)->set_device("/device:GPU:0");
  auto s = MakeSession(g);
  std::vector<Tensor> out;
  absl::Status st = s->Run({{"z:0", Tensor::Scalar<float>(1)}}, {"z:0"}, {}, &out);
  EXPECT_TRUE(st.ok()) << "z is fed, so its node is pruned: " << st;
  st = s->Run({{"x:0", Tensor::Scalar<float>(1)}, {"y:0", Tensor::Scalar<float>(1)}}, {"z:0"},
              {}, &out);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("'z'"), std::string::npos) << st;
  ConfigProto soft;
  soft.set_allow_soft_placement(true);
  auto s2 = MakeSession(g, soft);
  EXPECT_TRUE(s2->Run({{"x:0", Tensor::Scalar<float>(1)}, {"y:0", Tensor::Scalar<float>(1)}},
                      {"z:0"}, {}, &out)
                  .ok());
}

TEST(DirectSession, ConcurrentRunsOnOneSessionAreSafe) {
  auto s = MakeSession(AddMulGraph());
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        std::vector<Tensor> out;
        float x = t, y = i;
        absl::Status st = s->Run(
            {{"x:0", Tensor::Scalar<float>(x)}, {"y:0", Tensor::Scalar<float>(y)}}, {"w:0"}, {},
            &out);
        if (!st.ok() || out[0].data<float>()[0] != (x + y) * 3) wrong++;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(wrong.load(), 0);
}

// Two products by one constant b of 8 rows (the graph optimiser marks them: their kernels share
// one packed copy of b, PanelProduct), run by 8 callers on each of two sessions at once. Small
// integers: every product is exact in float, and each caller checks its own rows.
TEST(DirectSession, ConcurrentRunsShareAPackedConstantB) {
  const int64_t m = 8, k = 24, n = 40;
  Tensor w(DT_FLOAT, TensorShape({k, n}));
  for (int64_t i = 0; i < k * n; ++i) w.data<float>()[i] = static_cast<float>(i % 5) - 2;
  GraphDef g;
  *g.add_node() = Placeholder("x", DT_FLOAT, {m, k});
  *g.add_node() = Const("w", w);
  *g.add_node() = Node("neg", "Neg", {"x"}, {{"T", TypeAttr(DT_FLOAT)}});
  *g.add_node() = Binary("mm1", "MatMul", "x", "w");
  *g.add_node() = Binary("mm2", "MatMul", "neg", "w");
  std::unique_ptr<Session> sessions[] = {MakeSession(g), MakeSession(g)};
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      Tensor x(DT_FLOAT, TensorShape({m, k}));
      for (int64_t i = 0; i < m * k; ++i) x.data<float>()[i] = static_cast<float>((i + t) % 7) - 3;
      for (int i = 0; i < 20; ++i) {
        std::vector<Tensor> out;
        absl::Status st = sessions[(t + i) % 2]->Run({{"x:0", x}}, {"mm1:0", "mm2:0"}, {}, &out);
        if (!st.ok() || out.size() != 2) {
          wrong++;
          continue;
        }
        for (int64_t r = 0; r < m; ++r) {
          for (int64_t j = 0; j < n; ++j) {
            float want = 0;
            for (int64_t l = 0; l < k; ++l) {
              want += x.data<float>()[r * k + l] * w.data<float>()[l * n + j];
            }
            if (out[0].data<float>()[r * n + j] != want ||
                out[1].data<float>()[r * n + j] != -want) {
              wrong++;
            }
          }
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(wrong.load(), 0);
}

// A loop whose condition never turns false: only the timeout ends it.
GraphDef EndlessLoop() {
  GraphDef g;
  AttrValue frame;
  frame.set_s("endless");
  *g.add_node() = Const("zero", Tensor::Scalar<int32_t>(0));
  *g.add_node() = Const("one", Tensor::Scalar<int32_t>(1));
  *g.add_node() = Const("yes", Tensor::Scalar<bool>(true));
  *g.add_node() = Node("enter", "Enter", {"zero"}, {{"T", TypeAttr(DT_INT32)}, {"frame_name", frame}});
  *g.add_node() = Node("yes_enter", "Enter", {"yes"},
                       {{"T", TypeAttr(DT_BOOL)}, {"frame_name", frame}, {"is_constant", [] {
                          AttrValue v;
                          v.set_b(true);
                          return v;
                        }()}});
  *g.add_node() = Node("one_enter", "Enter", {"one"},
                       {{"T", TypeAttr(DT_INT32)}, {"frame_name", frame}, {"is_constant", [] {
                          AttrValue v;
                          v.set_b(true);
                          return v;
                        }()}});
  AttrValue n2;
  n2.set_i(2);
  *g.add_node() = Node("merge", "Merge", {"enter", "next"}, {{"T", TypeAttr(DT_INT32)}, {"N", n2}});
  *g.add_node() = Node("cond", "LoopCond", {"yes_enter"});
  *g.add_node() = Node("switch", "Switch", {"merge", "cond"}, {{"T", TypeAttr(DT_INT32)}});
  *g.add_node() = Node("add", "AddV2", {"switch:1", "one_enter"}, {{"T", TypeAttr(DT_INT32)}});
  *g.add_node() = Node("next", "NextIteration", {"add"}, {{"T", TypeAttr(DT_INT32)}});
  *g.add_node() = Node("exit", "Exit", {"switch"}, {{"T", TypeAttr(DT_INT32)}});
  return g;
}

// A kernel that throws what its attr says: "bad_alloc" (as a failed allocation does, e.g. a
// TensorArray grown to an absurd size), "length_error", or anything else as a runtime_error.
REGISTER_OP("SgTestThrow").Input("x: float").Output("y: float").Attr("what: string")
    .SetShapeFn(shape_fns::Unchanged);
class SgTestThrowOp : public OpKernel {
 public:
  explicit SgTestThrowOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("what", &what_));
  }
  void Compute(OpKernelContext*) override {
    if (what_ == "bad_alloc") throw std::bad_alloc();
    if (what_ == "length_error") throw std::length_error("vector::_M_default_append");
    throw std::runtime_error(what_);
  }

 private:
  std::string what_;
};
REGISTER_KERNEL_BUILDER(Name("SgTestThrow").Device(DEVICE_CPU), SgTestThrowOp);

TEST(DirectSession, AKernelThatThrowsFailsItsNodeAndTheSessionLivesOn) {
  for (auto [what, code] : std::vector<std::pair<std::string, absl::StatusCode>>{
           {"bad_alloc", absl::StatusCode::kResourceExhausted},
           {"length_error", absl::StatusCode::kResourceExhausted},
           {"oops", absl::StatusCode::kInternal}}) {
    SCOPED_TRACE(what);
    GraphDef g;
    *g.add_node() = Placeholder("x");
    AttrValue w;
    w.set_s(what);
    *g.add_node() = Node("thrower", "SgTestThrow", {"x"}, {{"what", w}});
    *g.add_node() = Binary("ok", "AddV2", "x", "x");
    for (int cpus : {1, 2}) {  // on the caller's thread, and on the pool
      ConfigProto config;
      config.set_inter_op_parallelism_threads(cpus == 1 ? -1 : 2);
      auto s = MakeSession(g, config);
      std::vector<Tensor> out;
      absl::Status st = s->Run({{"x:0", Tensor::Scalar<float>(1)}}, {"thrower:0"}, {}, &out);
      EXPECT_EQ(st.code(), code) << st;
      EXPECT_NE(st.message().find("thrower"), std::string::npos) << st;
      st = s->Run({{"x:0", Tensor::Scalar<float>(1)}}, {"ok:0"}, {}, &out);
      ASSERT_TRUE(st.ok()) << st;
      EXPECT_EQ(out[0].data<float>()[0], 2.0f);
    }
  }
}

TEST(DirectSession, TimeoutCancelsTheStepWithDeadlineExceeded) {
  auto s = MakeSession(EndlessLoop());
  RunOptions options;
  options.set_timeout_in_ms(200);
  std::vector<Tensor> out;
  auto start = std::chrono::steady_clock::now();
  absl::Status st = s->Run(options, {}, {"exit:0"}, {}, &out, nullptr);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                std::chrono::steady_clock::now() - start)
                .count();
  EXPECT_EQ(st.code(), absl::StatusCode::kDeadlineExceeded) << st;
  EXPECT_LT(ms, 5000);
  // The session stays usable.
  ASSERT_TRUE(s->Run({}, {"one:0"}, {}, &out).ok());
}

TEST(DirectSession, OperationTimeoutFromConfig) {
  ConfigProto config;
  config.set_operation_timeout_in_ms(100);
  auto s = MakeSession(EndlessLoop(), config);
  std::vector<Tensor> out;
  EXPECT_EQ(s->Run({}, {"exit:0"}, {}, &out).code(), absl::StatusCode::kDeadlineExceeded);
}

// A kernel that holds its step until the test releases it: g_block_entered is notified when it
// starts, and it returns (its input) once g_block_release is notified.
absl::Notification* g_block_entered = nullptr;
absl::Notification* g_block_release = nullptr;
REGISTER_OP("SgTestBlock").Input("x: float").Output("y: float").SetShapeFn(shape_fns::Unchanged);
class SgTestBlockOp : public OpKernel {
 public:
  explicit SgTestBlockOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}
  void Compute(OpKernelContext* ctx) override {
    g_block_entered->Notify();
    g_block_release->WaitForNotification();
    ctx->set_output(0, ctx->input(0));
  }
};
REGISTER_KERNEL_BUILDER(Name("SgTestBlock").Device(DEVICE_CPU), SgTestBlockOp);

TEST(DirectSession, CloseWaitsForRunsAndLaterRunsAreCancelled) {
  absl::Notification entered, release;
  g_block_entered = &entered;
  g_block_release = &release;
  GraphDef g;
  *g.add_node() = Const("one", Tensor::Scalar<float>(1));
  *g.add_node() = Node("held", "SgTestBlock", {"one"});
  auto s = MakeSession(g);
  absl::Status run_status;
  std::thread runner([&] {
    std::vector<Tensor> out;
    run_status = s->Run({}, {"held:0"}, {}, &out);
  });
  entered.WaitForNotification();  // the step is in flight
  std::atomic<bool> close_returned{false};
  std::thread closer([&] {
    EXPECT_TRUE(s->Close().ok());
    close_returned = true;
  });
  // Close refuses new runs at once and then waits: once a run is refused, Close has begun, and it
  // cannot return while the held step is still running.
  std::vector<Tensor> out;
  while (s->Run({}, {"one:0"}, {}, &out).code() != absl::StatusCode::kCancelled) {
    std::this_thread::yield();
  }
  EXPECT_FALSE(close_returned.load()) << "Close returned before the run in flight ended";
  release.Notify();
  closer.join();
  runner.join();
  EXPECT_TRUE(close_returned.load());
  EXPECT_TRUE(run_status.ok()) << run_status;
  EXPECT_EQ(s->Run({}, {"one:0"}, {}, &out).code(), absl::StatusCode::kCancelled);
}

// A body kernel that counts how many of its runs are in flight at once. Each run waits until the
// most seen at once (g_probe_max) reaches `want`, or `timeout_ms` passes, so that iterations the
// executor lets overlap do overlap. A test that expects overlap gives a long timeout (it passes as
// soon as the overlap is seen); a test that expects none checks only that g_probe_max stays at
// most parallel_iterations, which no timing can break.
absl::Mutex g_probe_mu;
int g_probe_in_flight ABSL_GUARDED_BY(g_probe_mu) = 0;
int g_probe_max ABSL_GUARDED_BY(g_probe_mu) = 0;
REGISTER_OP("SgTestOverlapProbe").Input("x: int32").Output("y: int32").Attr("want: int")
    .Attr("timeout_ms: int").SetShapeFn(shape_fns::Unchanged);
class SgTestOverlapProbeOp : public OpKernel {
 public:
  explicit SgTestOverlapProbeOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("want", &want_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("timeout_ms", &timeout_ms_));
  }
  void Compute(OpKernelContext* ctx) override {
    absl::MutexLock lock(&g_probe_mu);
    ++g_probe_in_flight;
    g_probe_max = std::max(g_probe_max, g_probe_in_flight);
    auto enough = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(g_probe_mu) {
      return g_probe_max >= want_;
    };
    g_probe_mu.AwaitWithTimeout(absl::Condition(&enough), absl::Milliseconds(timeout_ms_));
    --g_probe_in_flight;
    ctx->set_output(0, ctx->input(0));
  }

 private:
  int64_t want_ = 2;
  int64_t timeout_ms_ = 0;
};
REGISTER_KERNEL_BUILDER(Name("SgTestOverlapProbe").Device(DEVICE_CPU), SgTestOverlapProbeOp);

// A v1 while loop (frame "count", parallel_iterations `parallel`): i counts 0..n-1 and acc sums
// probe(i), so each iteration's probe needs only its own i and may overlap the next iterations'.
GraphDef SummingLoop(int n, int64_t parallel, int64_t want, int64_t timeout_ms) {
  AttrValue frame, yes, two, par, want_attr, timeout_attr;
  frame.set_s("count");
  yes.set_b(true);
  two.set_i(2);
  par.set_i(parallel);
  want_attr.set_i(want);
  timeout_attr.set_i(timeout_ms);
  const AttrValue i32 = TypeAttr(DT_INT32);
  GraphDef g;
  *g.add_node() = Const("zero", Tensor::Scalar<int32_t>(0));
  *g.add_node() = Const("n", Tensor::Scalar<int32_t>(n));
  *g.add_node() = Const("one", Tensor::Scalar<int32_t>(1));
  for (const char* v : {"i", "acc"}) {
    *g.add_node() = Node(std::string("enter_") + v, "Enter", {"zero"},
                         {{"T", i32}, {"frame_name", frame}, {"parallel_iterations", par}});
  }
  for (const char* c : {"n", "one"}) {
    *g.add_node() = Node(std::string(c) + "_enter", "Enter", {c},
                         {{"T", i32}, {"frame_name", frame}, {"is_constant", yes},
                          {"parallel_iterations", par}});
  }
  for (const char* v : {"i", "acc"}) {
    *g.add_node() = Node(std::string("merge_") + v, "Merge",
                         {std::string("enter_") + v, std::string("next_") + v},
                         {{"T", i32}, {"N", two}});
  }
  *g.add_node() = Node("less", "Less", {"merge_i", "n_enter"}, {{"T", i32}});
  *g.add_node() = Node("cond", "LoopCond", {"less"});
  for (const char* v : {"i", "acc"}) {
    *g.add_node() = Node(std::string("switch_") + v, "Switch",
                         {std::string("merge_") + v, "cond"}, {{"T", i32}});
  }
  *g.add_node() = Node("add_i", "AddV2", {"switch_i:1", "one_enter"}, {{"T", i32}});
  *g.add_node() = Node("probe", "SgTestOverlapProbe", {"switch_i:1"},
                       {{"want", want_attr}, {"timeout_ms", timeout_attr}});
  *g.add_node() = Node("add_acc", "AddV2", {"switch_acc:1", "probe"}, {{"T", i32}});
  *g.add_node() = Node("next_i", "NextIteration", {"add_i"}, {{"T", i32}});
  *g.add_node() = Node("next_acc", "NextIteration", {"add_acc"}, {{"T", i32}});
  *g.add_node() = Node("exit_acc", "Exit", {"switch_acc"}, {{"T", i32}});
  return g;
}

TEST(DirectSession, ALoopRunsAtMostParallelIterationsIterationsAtOnce) {
  ConfigProto config;
  config.set_inter_op_parallelism_threads(4);
  constexpr int kIterations = 5;
  struct Case {
    int64_t parallel;
    int64_t want;        // the overlap each probe waits for
    int64_t timeout_ms;  // how long it waits
  };
  // parallel_iterations 1 and 2: each probe waits briefly for one more run than allowed, which must
  // never be seen. 2 and 10 (the default): the probes wait, as long as need be, for 2 and 3 runs at
  // once, which the executor must allow.
  for (const Case& c : {Case{1, 2, 20}, Case{2, 3, 20}, Case{2, 2, 60000}, Case{10, 3, 60000}}) {
    SCOPED_TRACE(absl::StrCat("parallel_iterations ", c.parallel, ", waiting for ", c.want));
    {
      absl::MutexLock lock(&g_probe_mu);
      g_probe_max = 0;
    }
    auto s = MakeSession(SummingLoop(kIterations, c.parallel, c.want, c.timeout_ms), config);
    std::vector<Tensor> out;
    absl::Status st = s->Run({}, {"exit_acc:0"}, {}, &out);
    ASSERT_TRUE(st.ok()) << st;
    EXPECT_EQ(out[0].data<int32_t>()[0], 0 + 1 + 2 + 3 + 4);
    absl::MutexLock lock(&g_probe_mu);
    EXPECT_LE(g_probe_max, c.parallel) << "more iterations ran at once than parallel_iterations";
    if (c.want <= c.parallel) {
      EXPECT_GE(g_probe_max, c.want) << "iterations of the loop did not overlap";
    }
  }
}

TEST(DirectSession, ParallelIterationsBelowOneIsInvalidArgument) {
  auto s = MakeSession(SummingLoop(3, 0, 1, 0));
  std::vector<Tensor> out;
  absl::Status st = s->Run({}, {"exit_acc:0"}, {}, &out);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
  EXPECT_NE(st.message().find("parallel_iterations"), std::string::npos) << st;
}

// Found by the graph fuzzer: a step with nothing to run (an empty graph, no fetches, no targets)
// used to wait forever (with a timeout, forever after it). It returns OK at once, as TensorFlow's.
TEST(DirectSession, AStepWithNothingToRunReturnsAtOnce) {
  auto s = MakeSession(GraphDef());
  std::vector<Tensor> out;
  RunOptions run_options;
  run_options.set_timeout_in_ms(60000);
  absl::Status st = s->Run(run_options, {}, {}, {}, &out, nullptr);
  EXPECT_TRUE(st.ok()) << st;
  EXPECT_TRUE(out.empty());
  st = s->Run({}, {}, {}, &out);
  EXPECT_TRUE(st.ok()) << st;
}

}  // namespace
}  // namespace sg
