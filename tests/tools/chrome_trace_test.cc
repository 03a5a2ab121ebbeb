// tools/chrome_trace.h on RunMetadata built here with known times, threads, shapes and transfers,
// its JSON read back with nlohmann/json.
#include "tools/chrome_trace.h"

#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/proto/config.pb.h"
#include "core/proto/graph.pb.h"
#include "core/proto/step_stats.pb.h"

namespace {

using nlohmann::json;

const char kDev0[] = "/job:w/replica:0/task:0/device:CPU:0";
const char kDev1[] = "/job:w/replica:0/task:1/device:CPU:0";

sg::NodeExecStats* AddNode(sg::DeviceStepStats* d, const std::string& name,
                           const std::string& label, int64_t start_ns, int64_t dur_ns,
                           uint32_t thread) {
  sg::NodeExecStats* n = d->add_node_stats();
  n->set_node_name(name);
  n->set_timeline_label(label);
  n->set_all_start_nanos(start_ns);
  n->set_all_start_micros(start_ns / 1000);
  n->set_all_end_rel_nanos(dur_ns);
  n->set_all_end_rel_micros(dur_ns / 1000);
  n->set_thread_id(thread);
  return n;
}

json Convert(const sg::RunMetadata& md) {
  std::string text, error;
  EXPECT_TRUE(sg_tool::RunMetadataToChromeTrace(md.SerializeAsString(), &text, &error)) << error;
  return json::parse(text);
}

std::vector<json> Events(const json& trace, const std::string& ph) {
  std::vector<json> out;
  for (const json& e : trace["traceEvents"]) {
    if (e["ph"] == ph) out.push_back(e);
  }
  return out;
}

TEST(ChromeTrace, SlicesCarryTimesThreadsOpsAndShapes) {
  sg::RunMetadata md;
  sg::DeviceStepStats* d = md.mutable_step_stats()->add_dev_stats();
  d->set_device(kDev0);
  (*d->mutable_thread_names())[7] = "worker 7";
  sg::NodeExecStats* a = AddNode(d, "a", "a = MatMul(x, y)", 5'000'000'123, 2'500, 7);
  sg::NodeOutput* out = a->add_output();
  out->set_slot(0);
  out->mutable_tensor_description()->set_dtype(sg::DT_FLOAT);
  out->mutable_tensor_description()->mutable_shape()->add_dim()->set_size(3);
  out->mutable_tensor_description()->mutable_shape()->add_dim()->set_size(10);
  out->mutable_tensor_description()->mutable_allocation_description()->set_requested_bytes(120);
  // Microseconds only (no nanosecond fields): ts and dur from them.
  sg::NodeExecStats* b = d->add_node_stats();
  b->set_node_name("b");
  b->set_timeline_label("b = Relu(a)");
  b->set_all_start_micros(5'000'001);
  b->set_all_end_rel_micros(4);
  b->set_thread_id(8);

  const json trace = Convert(md);
  std::map<std::string, json> slices;
  for (const json& e : Events(trace, "X")) slices[e["name"]] = e;
  ASSERT_EQ(slices.size(), 2u);
  EXPECT_DOUBLE_EQ(slices["a"]["ts"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(slices["a"]["dur"].get<double>(), 2.5);
  EXPECT_NEAR(slices["b"]["ts"].get<double>(), 0.877, 1e-9);  // 5000001000 - 5000000123 ns
  EXPECT_DOUBLE_EQ(slices["b"]["dur"].get<double>(), 4.0);
  EXPECT_EQ(slices["a"]["cat"], "MatMul");
  EXPECT_EQ(slices["a"]["args"]["op"], "MatMul");
  EXPECT_EQ(slices["a"]["args"]["inputs"], "x, y");
  EXPECT_EQ(slices["a"]["args"]["outputs"], json::array({"float32[3,10]"}));
  EXPECT_EQ(slices["a"]["args"]["output_bytes"], 120);
  EXPECT_EQ(slices["a"]["tid"], 7);
  EXPECT_EQ(slices["b"]["tid"], 8);
  EXPECT_EQ(slices["a"]["pid"], slices["b"]["pid"]);

  std::map<int, std::string> threads;
  std::string process;
  for (const json& e : Events(trace, "M")) {
    if (e["name"] == "thread_name") threads[e["tid"]] = e["args"]["name"];
    if (e["name"] == "process_name") process = e["args"]["name"];
  }
  EXPECT_EQ(process, kDev0);
  EXPECT_EQ(threads, (std::map<int, std::string>{{7, "worker 7"}, {8, "thread 8"}}));
  EXPECT_TRUE(Events(trace, "s").empty());
}

TEST(ChromeTrace, PairsTheKthSendOfAKeyWithItsKthReceive) {
  sg::RunMetadata md;
  sg::DeviceStepStats* d0 = md.mutable_step_stats()->add_dev_stats();
  d0->set_device(kDev0);
  sg::DeviceStepStats* d1 = md.mutable_step_stats()->add_dev_stats();
  d1->set_device(kDev1);
  // The send of a loop body ran twice (listed out of time order); the receive too; a client
  // feed's _Recv has no send.
  AddNode(d0, "snd", "snd = _Send(v)", 1'000'000'000 + 5'000, 1'000, 1);
  AddNode(d0, "snd", "snd = _Send(v)", 1'000'000'000, 1'000, 1);
  AddNode(d1, "rcv", "rcv = _Recv()", 1'000'000'000 + 500, 1'000, 2);
  AddNode(d1, "rcv", "rcv = _Recv()", 1'000'000'000 + 5'500, 2'000, 2);
  AddNode(d1, "feed", "feed = _Recv()", 1'000'000'000 + 100, 100, 2);
  sg::GraphDef* g0 = md.add_partition_graphs();
  sg::GraphDef* g1 = md.add_partition_graphs();
  for (auto [g, name, op] : {std::make_tuple(g0, "snd", "_Send"), std::make_tuple(g1, "rcv", "_Recv")}) {
    sg::NodeDef* n = g->add_node();
    n->set_name(name);
    n->set_op(op);
    (*n->mutable_attr())["send_device"].set_s(kDev0);
    (*n->mutable_attr())["recv_device"].set_s(kDev1);
    (*n->mutable_attr())["tensor_name"].set_s("edge_9_v");
  }
  sg::NodeDef* feed = g1->add_node();
  feed->set_name("feed");
  feed->set_op("_Recv");
  (*feed->mutable_attr())["send_device"].set_s("/job:w/replica:0/task:0/device:CPU:0;client");
  (*feed->mutable_attr())["recv_device"].set_s(kDev1);
  (*feed->mutable_attr())["tensor_name"].set_s("feed:0");

  const json trace = Convert(md);
  const std::vector<json> starts = Events(trace, "s"), finishes = Events(trace, "f");
  ASSERT_EQ(starts.size(), 2u);
  ASSERT_EQ(finishes.size(), 2u);
  // Starts at each send's start, on device 0 (pid 1); finishes at each receive's end, pid 2.
  EXPECT_EQ(starts[0]["id"], finishes[0]["id"]);
  EXPECT_EQ(starts[1]["id"], finishes[1]["id"]);
  EXPECT_NE(starts[0]["id"], starts[1]["id"]);
  EXPECT_DOUBLE_EQ(starts[0]["ts"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(finishes[0]["ts"].get<double>(), 1.5);
  EXPECT_DOUBLE_EQ(starts[1]["ts"].get<double>(), 5.0);
  EXPECT_DOUBLE_EQ(finishes[1]["ts"].get<double>(), 7.5);
  for (const json& e : starts) EXPECT_EQ(e["pid"], 1);
  for (const json& e : finishes) {
    EXPECT_EQ(e["pid"], 2);
    EXPECT_EQ(e["bp"], "e");
    EXPECT_EQ(e["name"], "edge_9_v");
  }
}

TEST(ChromeTrace, WithoutPartitionGraphsPairsBySgsEdgeNames) {
  sg::RunMetadata md;
  sg::DeviceStepStats* d0 = md.mutable_step_stats()->add_dev_stats();
  d0->set_device(kDev0);
  sg::DeviceStepStats* d1 = md.mutable_step_stats()->add_dev_stats();
  d1->set_device(kDev1);
  AddNode(d0, "edge_1_x/_send", "edge_1_x/_send = _Send(x)", 1'000'000, 1'000, 1);
  AddNode(d1, "edge_1_x/_recv", "edge_1_x/_recv = _Recv()", 1'000'000, 3'000, 1);
  const json trace = Convert(md);
  ASSERT_EQ(Events(trace, "s").size(), 1u);
  ASSERT_EQ(Events(trace, "f").size(), 1u);
  EXPECT_EQ(Events(trace, "f")[0]["name"], "edge_1_x");
  EXPECT_DOUBLE_EQ(Events(trace, "f")[0]["ts"].get<double>(), 3.0);
}

TEST(ChromeTrace, RejectsWhatHoldsNoStepStatistics) {
  std::string text, error;
  EXPECT_FALSE(sg_tool::RunMetadataToChromeTrace(std::string("\xff\xff\xff", 3), &text, &error));
  EXPECT_NE(error.find("not a RunMetadata"), std::string::npos) << error;
  sg::RunMetadata empty;
  EXPECT_FALSE(sg_tool::RunMetadataToChromeTrace(empty.SerializeAsString(), &text, &error));
  EXPECT_NE(error.find("no step statistics"), std::string::npos) << error;
}

TEST(ChromeTrace, EscapesNamesForJson) {
  sg::RunMetadata md;
  sg::DeviceStepStats* d = md.mutable_step_stats()->add_dev_stats();
  d->set_device(kDev0);
  AddNode(d, "we\"ird\\name\n", "we\"ird\\name\n = Identity(a)", 10'000, 0, 1);
  const json trace = Convert(md);
  ASSERT_EQ(Events(trace, "X").size(), 1u);
  EXPECT_EQ(Events(trace, "X")[0]["name"], "we\"ird\\name\n");
  EXPECT_DOUBLE_EQ(Events(trace, "X")[0]["dur"].get<double>(), 0.0);
}

}  // namespace
