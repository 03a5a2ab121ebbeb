// NodeBuilder (core/graph/node_builder.h): attrs inferred from inputs, validation, edges, shapes,
// and a graph left as it was after any error.
#include "core/graph/node_builder.h"

#include <gtest/gtest.h>

#include "core/framework/attr_value_util.h"
#include "core/framework/tensor.h"

namespace sg {
namespace {

Node* Placeholder(Graph* g, const std::string& name, std::vector<int64_t> dims) {
  NodeBuilder b(name, "Placeholder");
  AttrValue dtype, shape;
  dtype.set_type(DT_FLOAT);
  PartialTensorShape(dims).AsProto(shape.mutable_shape());
  b.Attr("dtype", dtype).Attr("shape", shape);
  auto n = b.Finalize(g);
  EXPECT_TRUE(n.ok()) << n.status();
  return n.ok() ? *n : nullptr;
}

TEST(NodeBuilder, InfersTypeAndLengthAttrsAndShapes) {
  Graph g;
  Node* x = Placeholder(&g, "x", {2, 3});
  Node* y = Placeholder(&g, "y", {2, 3});
  NodeBuilder b("sum", "AddN");
  b.InputList({{x, 0}, {y, 0}, {x, 0}}).ControlInput(y).Device("/device:CPU:0");
  auto sum = b.Finalize(&g);
  ASSERT_TRUE(sum.ok()) << sum.status();
  const NodeDef& def = (*sum)->def();
  EXPECT_EQ(def.attr().at("N").i(), 3);
  EXPECT_EQ(def.attr().at("T").type(), DT_FLOAT);
  EXPECT_EQ(def.device(), "/device:CPU:0");
  EXPECT_EQ((*sum)->output_shapes()[0].DebugString(), PartialTensorShape({2, 3}).DebugString());
  int data = 0, control = 0;
  for (const Edge* e : (*sum)->in_edges()) (e->IsControlEdge() ? control : data)++;
  EXPECT_EQ(data, 3);
  EXPECT_EQ(control, 1);
  EXPECT_EQ((*sum)->graph(), &g);
}

TEST(NodeBuilder, ErrorsLeaveTheGraphAsItWas) {
  Graph g;
  Node* x = Placeholder(&g, "x", {2, 3});
  Node* v = Placeholder(&g, "v", {4});
  const int before = g.num_node_ids();
  auto count = [&] {
    int n = 0;
    for (Node* node : g.nodes()) n += node != nullptr;
    return n;
  };
  const int nodes = count();
  struct Case {
    const char* what;
    NodeBuilder builder;
    absl::StatusCode code;
  };
  Graph other;
  Node* stranger = Placeholder(&other, "s", {2, 3});
  std::vector<Case> cases = {
      {"unknown op", NodeBuilder("a", "NoSuchOp"), absl::StatusCode::kNotFound},
      {"too few inputs", NodeBuilder("b", "AddV2").Input({x, 0}),
       absl::StatusCode::kInvalidArgument},
      {"list where a tensor is taken",
       NodeBuilder("c", "AddV2").InputList({{x, 0}}).Input({x, 0}),
       absl::StatusCode::kInvalidArgument},
      {"output out of range", NodeBuilder("d", "Neg").Input({x, 3}),
       absl::StatusCode::kInvalidArgument},
      {"node of another graph", NodeBuilder("e", "Neg").Input({stranger, 0}),
       absl::StatusCode::kInvalidArgument},
      {"duplicate name", NodeBuilder("x", "Neg").Input({x, 0}),
       absl::StatusCode::kInvalidArgument},
      // The shape function refuses [2,3] + [4] after the node was added: it is removed again.
      {"shapes that do not broadcast", NodeBuilder("f", "AddV2").Input({x, 0}).Input({v, 0}),
       absl::StatusCode::kInvalidArgument},
  };
  for (Case& c : cases) {
    SCOPED_TRACE(c.what);
    auto n = c.builder.Finalize(&g);
    EXPECT_EQ(n.status().code(), c.code) << n.status();
    EXPECT_EQ(count(), nodes);
  }
  EXPECT_GE(g.num_node_ids(), before);
  EXPECT_TRUE(x->out_edges().empty());
  EXPECT_TRUE(v->out_edges().empty());
}

}  // namespace
}  // namespace sg
