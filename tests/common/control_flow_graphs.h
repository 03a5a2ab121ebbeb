// A small v1 control-flow graph, written node by node, for tests that partition loops and conds
// (tests/core/step_builder_test.cc, tests/distributed/master_session_test.cc).
#ifndef SG_TESTS_COMMON_CONTROL_FLOW_GRAPHS_H_
#define SG_TESTS_COMMON_CONTROL_FLOW_GRAPHS_H_

#include <string>
#include <utility>
#include <vector>

#include "core/framework/attr_value_util.h"
#include "core/framework/tensor.h"
#include "core/proto/graph.pb.h"

namespace sg {
namespace test {

// x: a float Placeholder (on `x_device`). A while loop doubles v = x five times (exit_v = 32x)
// while counting i to 5 (all its nodes on `loop_device`); y = exit_v + x (on `after_device`);
// then a cond on x > 0: out = y + y when true, -y when false (on `after_device`).
// So out = 66x for x > 0 and 33|x| otherwise.
inline GraphDef LoopThenCond(const std::string& x_device = "", const std::string& loop_device = "",
                             const std::string& after_device = "") {
  auto attr_type = [](DataType t) {
    AttrValue v;
    v.set_type(t);
    return v;
  };
  auto node = [](GraphDef* g, const std::string& name, const std::string& op,
                 std::vector<std::string> inputs, const std::string& device,
                 std::vector<std::pair<std::string, AttrValue>> attrs) {
    NodeDef* n = g->add_node();
    n->set_name(name);
    n->set_op(op);
    n->set_device(device);
    for (auto& i : inputs) n->add_input(i);
    for (auto& a : attrs) (*n->mutable_attr())[a.first] = a.second;
  };
  auto constant = [&](GraphDef* g, const std::string& name, const Tensor& t,
                      const std::string& device) {
    AttrValue value;
    SetAttrValue(t, &value);
    node(g, name, "Const", {}, device, {{"dtype", attr_type(t.dtype())}, {"value", value}});
  };
  AttrValue frame, yes, two;
  frame.set_s("doubling");
  yes.set_b(true);
  two.set_i(2);
  const AttrValue f32 = attr_type(DT_FLOAT), i32 = attr_type(DT_INT32);
  const std::string& L = loop_device;
  const std::string& A = after_device;
  GraphDef g;
  AttrValue shape;
  PartialTensorShape({}).AsProto(shape.mutable_shape());
  node(&g, "x", "Placeholder", {}, x_device, {{"dtype", f32}, {"shape", shape}});
  constant(&g, "i0", Tensor::Scalar<int32_t>(0), L);
  constant(&g, "five", Tensor::Scalar<int32_t>(5), L);
  constant(&g, "one", Tensor::Scalar<int32_t>(1), L);
  constant(&g, "two", Tensor::Scalar<float>(2), L);
  node(&g, "enter_i", "Enter", {"i0"}, L, {{"T", i32}, {"frame_name", frame}});
  node(&g, "enter_v", "Enter", {"x"}, L, {{"T", f32}, {"frame_name", frame}});
  for (const char* c : {"five", "one", "two"}) {
    node(&g, std::string(c) + "_enter", "Enter", {c}, L,
         {{"T", std::string(c) == "two" ? f32 : i32}, {"frame_name", frame}, {"is_constant", yes}});
  }
  node(&g, "merge_i", "Merge", {"enter_i", "next_i"}, L, {{"T", i32}, {"N", two}});
  node(&g, "merge_v", "Merge", {"enter_v", "next_v"}, L, {{"T", f32}, {"N", two}});
  node(&g, "less", "Less", {"merge_i", "five_enter"}, L, {{"T", i32}});
  node(&g, "cond", "LoopCond", {"less"}, L, {});
  node(&g, "switch_i", "Switch", {"merge_i", "cond"}, L, {{"T", i32}});
  node(&g, "switch_v", "Switch", {"merge_v", "cond"}, L, {{"T", f32}});
  node(&g, "add_i", "AddV2", {"switch_i:1", "one_enter"}, L, {{"T", i32}});
  node(&g, "mul_v", "Mul", {"switch_v:1", "two_enter"}, L, {{"T", f32}});
  node(&g, "next_i", "NextIteration", {"add_i"}, L, {{"T", i32}});
  node(&g, "next_v", "NextIteration", {"mul_v"}, L, {{"T", f32}});
  node(&g, "exit_i", "Exit", {"switch_i"}, L, {{"T", i32}});
  node(&g, "exit_v", "Exit", {"switch_v"}, L, {{"T", f32}});
  node(&g, "y", "AddV2", {"exit_v", "x"}, A, {{"T", f32}});
  constant(&g, "zero", Tensor::Scalar<float>(0), A);
  node(&g, "positive", "Greater", {"x", "zero"}, A, {{"T", f32}});
  node(&g, "branch", "Switch", {"y", "positive"}, A, {{"T", f32}});
  node(&g, "when_true", "AddV2", {"branch:1", "branch:1"}, A, {{"T", f32}});
  node(&g, "when_false", "Neg", {"branch:0"}, A, {{"T", f32}});
  node(&g, "out", "Merge", {"when_false", "when_true"}, A, {{"T", f32}, {"N", two}});
  return g;
}

}  // namespace test
}  // namespace sg

#endif  // SG_TESTS_COMMON_CONTROL_FLOW_GRAPHS_H_
