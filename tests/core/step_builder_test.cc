// StepBuilder and the rewrites it runs: whole-graph placement kept across Extend, feeds and
// fetches placed with their tensors, control-flow edges bridged across devices, partitions; and
// a local session with several CPU devices running loops and conds cut across them.
#include "core/runtime/step_builder.h"

#include <gtest/gtest.h>
#include <google/protobuf/util/message_differencer.h>

#include "core/graph/graph_constructor.h"
#include "core/graph/partition.h"
#include "core/runtime/session.h"
#include "tests/common/control_flow_graphs.h"

namespace sg {
namespace {

const char kCpu0[] = "/job:localhost/replica:0/task:0/device:CPU:0";
const char kCpu1[] = "/job:localhost/replica:0/task:0/device:CPU:1";
const char kCpu2[] = "/job:localhost/replica:0/task:0/device:CPU:2";

StepBuilderOptions ThreeDevices(bool round_robin = false) {
  StepBuilderOptions o;
  o.devices = {kCpu0, kCpu1, kCpu2};
  o.incarnation = [](const std::string& d) -> uint64_t { return d.back() - '0' + 100; };
  o.client_device = kCpu0;
  o.client_incarnation = 100;
  o.placer.round_robin = round_robin;
  return o;
}

// The device each node of `step`'s partitions is on.
std::map<std::string, std::string> DevicesOf(const StepGraphs& step) {
  std::map<std::string, std::string> where;
  for (const auto& [device, gdef] : step.partitions) {
    for (const NodeDef& n : gdef.node()) where[n.name()] = device;
  }
  return where;
}

TEST(StepBuilder, CanonicalSignatureAndFeedChecks) {
  StepBuilder b(ThreeDevices());
  ASSERT_TRUE(b.Extend(test::LoopThenCond()).ok());
  StepGraphs step;
  ASSERT_TRUE(b.Build({{"x:0"}, {"y:0", "out:0", "y:0"}, {"out", "out"}}, &step).ok());
  EXPECT_EQ(step.feeds, std::vector<std::string>({"x:0"}));
  EXPECT_EQ(step.fetches, std::vector<std::string>({"out:0", "y:0"}));
  EXPECT_EQ(step.targets, std::vector<std::string>({"out"}));
  ASSERT_EQ(step.feed_types.size(), 1u);
  EXPECT_EQ(step.feed_types[0], DT_FLOAT);
  EXPECT_TRUE(step.CheckFeed(0, Tensor::Scalar<float>(1)).ok());
  EXPECT_EQ(step.CheckFeed(0, Tensor::Scalar<int32_t>(1)).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(step.feed_keys.empty());  // a call frame, not a rendezvous
  // A tensor fed twice, an unknown node.
  EXPECT_EQ(b.Build({{"x:0", "x:0"}, {"y:0"}, {}}, &step).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(b.Build({{}, {"nope:0"}, {}}, &step).code(), absl::StatusCode::kNotFound);
}

TEST(StepBuilder, RendezvousKeysNameTheClientDevice) {
  StepBuilder b(ThreeDevices());
  ASSERT_TRUE(b.Extend(test::LoopThenCond()).ok());
  StepGraphs step;
  ASSERT_TRUE(b.Build({{"x:0"}, {"out:0"}, {}, /*use_rendezvous=*/true}, &step).ok());
  ASSERT_EQ(step.feed_keys.size(), 1u);
  EXPECT_EQ(step.feed_keys[0], std::string(kCpu0) + ";" + "0000000000000064;" + kCpu0 +
                                   ";x:0;0:0");
  EXPECT_EQ(step.fetch_keys[0],
            std::string(kCpu0) + ";0000000000000000;" + kCpu0 + ";out:0;0:0");
}

TEST(StepBuilder, FeedsAndFetchesGoWhereTheirTensorsAre) {
  StepBuilder b(ThreeDevices());
  ASSERT_TRUE(b.Extend(test::LoopThenCond(kCpu2, kCpu1, kCpu1)).ok());
  StepGraphs step;
  ASSERT_TRUE(b.Build({{"x:0"}, {"out:0"}, {}}, &step).ok());
  // Everything sits on CPU:1 or CPU:2; the _Arg of x on CPU:2 and the _Retval of out on CPU:1.
  EXPECT_EQ(step.partitions.count(kCpu0), 0u);
  for (const auto& [device, gdef] : step.partitions) {
    for (const NodeDef& n : gdef.node()) {
      if (n.op() == "_Arg") EXPECT_EQ(device, kCpu2) << n.name();
      if (n.op() == "_Retval") EXPECT_EQ(device, kCpu1) << n.name();
    }
  }
}

TEST(StepBuilder, PlacementIsKeptWhenTheGraphIsExtended) {
  StepBuilder b(ThreeDevices(/*round_robin=*/true));
  ASSERT_TRUE(b.Extend(test::LoopThenCond()).ok());
  StepGraphs first;
  ASSERT_TRUE(b.Build({{"x:0"}, {"out:0"}, {}}, &first).ok());
  const auto before = DevicesOf(first);
  // Round robin spread the graph (the loop's frame stays on one device).
  std::set<std::string> used;
  for (const auto& [node, device] : before) used.insert(device);
  EXPECT_GT(used.size(), 1u);
  EXPECT_EQ(before.at("merge_i"), before.at("exit_v"));
  GraphDef more;
  NodeDef* n = more.add_node();
  n->set_name("z");
  n->set_op("Neg");
  n->add_input("out");
  AttrValue t;
  t.set_type(DT_FLOAT);
  (*n->mutable_attr())["T"] = t;
  ASSERT_TRUE(b.Extend(more).ok());
  EXPECT_EQ(b.version(), 2);
  StepGraphs second;
  ASSERT_TRUE(b.Build({{"x:0"}, {"out:0", "z:0"}, {}}, &second).ok());
  const auto after = DevicesOf(second);
  for (const auto& [node, device] : before) {
    if (after.count(node)) EXPECT_EQ(after.at(node), device) << node;
  }
  EXPECT_EQ(second.graph_version, 2);
}

TEST(StepBuilder, AOneDeviceStepStaysWholeWhenAsked) {
  StepBuilderOptions o = ThreeDevices();
  o.devices = {kCpu0};
  o.whole_graph_on_one_device = true;
  StepBuilder whole(o);
  o.whole_graph_on_one_device = false;
  StepBuilder parted(o);
  for (StepBuilder* b : {&whole, &parted}) ASSERT_TRUE(b->Extend(test::LoopThenCond()).ok());
  StepGraphs w, p;
  ASSERT_TRUE(whole.Build({{"x:0"}, {"out:0"}, {}}, &w).ok());
  ASSERT_TRUE(parted.Build({{"x:0"}, {"out:0"}, {}}, &p).ok());
  // The same device, an empty GraphDef instead of a copy of the graph; the graph is the same.
  ASSERT_EQ(w.partitions.size(), 1u);
  ASSERT_EQ(p.partitions.size(), 1u);
  EXPECT_EQ(w.partitions.begin()->first, kCpu0);
  EXPECT_EQ(w.partitions.begin()->second.node_size(), 0);
  ASSERT_NE(w.graph, nullptr);
  EXPECT_EQ(w.graph->num_nodes(), p.partitions.begin()->second.node_size());
  for (Node* n : w.graph->nodes()) EXPECT_EQ(n->assigned_device_name(), kCpu0) << n->name();
  // Over three devices the step is still cut.
  StepBuilderOptions three = ThreeDevices(/*round_robin=*/true);
  three.whole_graph_on_one_device = true;
  StepBuilder spread(three);
  ASSERT_TRUE(spread.Extend(test::LoopThenCond()).ok());
  StepGraphs s;
  ASSERT_TRUE(spread.Build({{"x:0"}, {"out:0"}, {}}, &s).ok());
  EXPECT_GT(s.partitions.size(), 1u);
  for (const auto& [device, gdef] : s.partitions) EXPECT_GT(gdef.node_size(), 0) << device;
}

TEST(ImportGraphDef, MovingTheNodeDefsImportsTheSameGraph) {
  const GraphDef g = test::LoopThenCond();
  Graph copied, moved;
  ASSERT_TRUE(ImportGraphDef(g, ImportOptions(), &copied).ok());
  GraphDef given = g;
  ASSERT_TRUE(ImportGraphDef(std::move(given), ImportOptions(), &moved).ok());
  EXPECT_EQ(given.node_size(), 0);
  GraphDef a, b;
  copied.ToGraphDef(&a);
  moved.ToGraphDef(&b);
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(a, b));
  EXPECT_GT(a.node_size(), 5);
  // All or none, moved or not: a bad input leaves the graph as it was.
  GraphDef bad = g;
  bad.mutable_node(bad.node_size() - 1)->add_input("no_such_node");
  const int before = moved.num_nodes();
  ImportOptions prefixed;
  prefixed.prefix = "again";
  EXPECT_EQ(ImportGraphDef(std::move(bad), prefixed, &moved).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(moved.num_nodes(), before);
}

// w = Const (a 1000-float weight), x = Placeholder (without its `shape`, whose default the
// import adds), y = AddV2(x, w).
SharedGraphDef WeightGraph() {
  GraphDef g;
  NodeDef* w = g.add_node();
  w->set_name("w");
  w->set_op("Const");
  std::vector<float> values(1000, 0.5f);
  Tensor t = *Tensor::Allocate(DT_FLOAT, TensorShape({1000}));
  std::copy(values.begin(), values.end(), t.flat<float>().data());
  AttrValue value;
  t.AsProtoTensorContent(value.mutable_tensor());
  (*w->mutable_attr())["value"] = value;
  (*w->mutable_attr())["dtype"].set_type(DT_FLOAT);
  NodeDef* x = g.add_node();
  x->set_name("x");
  x->set_op("Placeholder");
  (*x->mutable_attr())["dtype"].set_type(DT_FLOAT);
  NodeDef* y = g.add_node();
  y->set_name("y");
  y->set_op("AddV2");
  y->add_input("x");
  y->add_input("w");
  (*y->mutable_attr())["T"].set_type(DT_FLOAT);
  return SharedGraphDef::FromGraphDef(std::move(g));
}

TEST(ImportGraphDef, SharesNodeDefsAndCopiesOnlyWhatItChanges) {
  const SharedGraphDef s = WeightGraph();
  const NodeDef* w = s.nodes[0].get();
  const NodeDef* x = s.nodes[1].get();
  Graph g;
  ASSERT_TRUE(ImportGraphDef(s, ImportOptions(), &g).ok());
  EXPECT_EQ(g.FindNode("w")->shared_def().get(), w);
  EXPECT_EQ(g.FindNode("y")->shared_def().get(), s.nodes[2].get());
  // Placeholder has a default attr the NodeDef lacks: the node has its own copy with it, and the
  // shared NodeDef is left as it was.
  EXPECT_NE(g.FindNode("x")->shared_def().get(), x);
  EXPECT_EQ(g.FindNode("x")->def().attr().count("shape"), 1u);
  EXPECT_EQ(x->attr().count("shape"), 0u);
  // A prefix renames, so the nodes are copies; the shared NodeDefs keep their names.
  Graph prefixed;
  ImportOptions p;
  p.prefix = "p";
  ASSERT_TRUE(ImportGraphDef(s, p, &prefixed).ok());
  EXPECT_NE(prefixed.FindNode("p/w")->shared_def().get(), w);
  EXPECT_EQ(w->name(), "w");
  // A clone shares. A requested device is the node's own (the NodeDef is not copied for it),
  // and the clone's export has it; an attr set on the clone's node copies the NodeDef first.
  std::unique_ptr<Graph> c = g.Clone();
  Node* cw = c->FindNode("w");
  EXPECT_EQ(cw->shared_def().get(), w);
  cw->set_requested_device(kCpu1);
  EXPECT_EQ(cw->requested_device(), kCpu1);
  EXPECT_EQ(cw->shared_def().get(), w);
  EXPECT_EQ(w->device(), "");
  EXPECT_EQ(g.FindNode("w")->requested_device(), "");
  GraphDef exported;
  c->ToGraphDef(&exported);
  for (const NodeDef& n : exported.node()) {
    EXPECT_EQ(n.device(), n.name() == "w" ? kCpu1 : "") << n.name();
  }
  AttrValue mark;
  mark.set_b(true);
  cw->AddAttr("_mark", mark);
  EXPECT_NE(cw->shared_def().get(), w);
  EXPECT_EQ(cw->def().attr().count("_mark"), 1u);
  EXPECT_EQ(w->attr().count("_mark"), 0u);
  EXPECT_EQ(g.FindNode("w")->def().attr().count("_mark"), 0u);
  EXPECT_EQ(cw->def().attr().at("value").tensor().tensor_content(),
            w->attr().at("value").tensor().tensor_content());
  // The export is the same as a GraphDef import's.
  Graph from_copy;
  ASSERT_TRUE(ImportGraphDef(s.ToGraphDef(), ImportOptions(), &from_copy).ok());
  GraphDef a, b;
  g.ToGraphDef(&a);
  from_copy.ToGraphDef(&b);
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(a, b));
}

TEST(StepBuilder, AStepSharesTheSessionsNodeDefs) {
  StepBuilderOptions o = ThreeDevices();
  o.devices = {kCpu0};
  o.whole_graph_on_one_device = true;
  StepBuilder b(o);
  const SharedGraphDef s = WeightGraph();
  ASSERT_TRUE(b.Extend(s).ok());
  StepGraphs step;
  ASSERT_TRUE(b.Build({{"x:0"}, {"y:0"}, {}}, &step).ok());
  ASSERT_NE(step.graph, nullptr);
  const Node* w = step.graph->FindNode("w");
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->assigned_device_name(), kCpu0);
  EXPECT_EQ(w->shared_def().get(), s.nodes[0].get());  // the weight is not copied
  EXPECT_EQ(s.nodes[0]->device(), "");
  // A second step and an Extend share it too.
  SharedGraphDef more;
  auto z = std::make_shared<NodeDef>();
  z->set_name("z");
  z->set_op("Neg");
  z->add_input("y");
  (*z->mutable_attr())["T"].set_type(DT_FLOAT);
  more.nodes.push_back(z);
  ASSERT_TRUE(b.Extend(more).ok());
  StepGraphs step2;
  ASSERT_TRUE(b.Build({{"x:0"}, {"z:0"}, {}}, &step2).ok());
  ASSERT_NE(step2.graph->FindNode("z"), nullptr);
  EXPECT_EQ(step2.graph->FindNode("z")->shared_def().get(), z.get());
  EXPECT_EQ(step2.graph->FindNode("w")->shared_def().get(), s.nodes[0].get());
  // An Extend that does not import changes nothing.
  SharedGraphDef bad;
  auto dup = std::make_shared<NodeDef>(*z);
  bad.nodes.push_back(dup);
  EXPECT_EQ(b.Extend(bad).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(b.version(), 2);
}

TEST(BridgeControlFlowEdges, LetsPartitionCutAnExitEdge) {
  GraphDef gdef = test::LoopThenCond("", kCpu1, kCpu0);
  Graph g;
  ASSERT_TRUE(ImportGraphDef(gdef, ImportOptions(), &g).ok());
  for (Node* n : g.nodes()) {
    n->set_assigned_device_name(n->requested_device().empty() ? kCpu0 : n->requested_device());
  }
  PartitionOptions popts;
  std::map<std::string, GraphDef> parts;
  // exit_v (CPU:1) -> y (CPU:0) crosses devices at an Exit.
  EXPECT_EQ(PartitionGraph(g, popts, &parts).code(), absl::StatusCode::kUnimplemented);
  ASSERT_TRUE(BridgeControlFlowEdges(&g).ok());
  Node* bridge = nullptr;
  for (Node* n : g.nodes()) {
    if (n->name().rfind("exit_v/_cf_bridge", 0) == 0) bridge = n;
  }
  ASSERT_NE(bridge, nullptr);
  EXPECT_EQ(bridge->type_string(), "Identity");
  EXPECT_EQ(bridge->assigned_device_name(), kCpu1);
  parts.clear();
  ASSERT_TRUE(PartitionGraph(g, popts, &parts).ok());
  EXPECT_EQ(parts.size(), 2u);
}

std::unique_ptr<Session> LocalSession(const GraphDef& g, int cpus, bool round_robin) {
  SessionOptions opts;
  (*opts.config.mutable_device_count())["CPU"] = cpus;
  opts.config.mutable_experimental()->set_sg_round_robin_placement(round_robin);
  std::unique_ptr<Session> s;
  EXPECT_TRUE(NewSession(opts, &s).ok());
  absl::Status st = s->Create(g);
  EXPECT_TRUE(st.ok()) << st;
  return s;
}

// The values LoopThenCond computes, by hand.
void ExpectLoopThenCond(Session* s, float x) {
  std::vector<Tensor> out;
  absl::Status st = s->Run({{"x:0", Tensor::Scalar<float>(x)}}, {"out:0", "exit_v:0", "y:0"}, {},
                           &out);
  ASSERT_TRUE(st.ok()) << st;
  const float y = 33 * x;
  EXPECT_EQ(out[0].data<float>()[0], x > 0 ? 2 * y : -y);
  EXPECT_EQ(out[1].data<float>()[0], 32 * x);
  EXPECT_EQ(out[2].data<float>()[0], y);
}

TEST(DirectSession, LoopAndCondCutAcrossTwoCpuDevices) {
  // The loop on CPU:1, what uses its Exit and the cond on CPU:0: a fetch of the Exit and an edge
  // out of it cross devices (before the shared step builder this was UNIMPLEMENTED locally).
  auto s = LocalSession(test::LoopThenCond("", "/device:CPU:1", "/device:CPU:0"), 2, false);
  ASSERT_NE(s, nullptr);
  ExpectLoopThenCond(s.get(), 1.5f);
  ExpectLoopThenCond(s.get(), -2.0f);
}

TEST(DirectSession, RoundRobinOverThreeCpuDevicesGivesTheSameAnswers) {
  auto s = LocalSession(test::LoopThenCond(), 3, true);
  ASSERT_NE(s, nullptr);
  ExpectLoopThenCond(s.get(), 0.25f);
  ExpectLoopThenCond(s.get(), -1.0f);
}

}  // namespace
}  // namespace sg
