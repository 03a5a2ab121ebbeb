// NodeBuilder: adds one node to a Graph from its op, attrs and inputs, as TensorFlow's NodeBuilder
// does. Used by the C API's SG_FinishOperation and by C++ callers that build graphs.
//
//   NodeBuilder b("sum", "AddN");
//   b.InputList({{x, 0}, {y, 0}});     // N and T are inferred from the inputs
//   SG_ASSIGN_OR_RETURN(Node* sum, b.Finalize(&graph));
#ifndef SG_CORE_GRAPH_NODE_BUILDER_H_
#define SG_CORE_GRAPH_NODE_BUILDER_H_

#include <string>
#include <vector>

#include "core/graph/graph.h"
#include "core/proto/graph.pb.h"

namespace sg {

class NodeBuilder {
 public:
  // An output of a node of the graph the node is added to.
  struct Output {
    Node* node;
    int index;
  };

  NodeBuilder(const std::string& name, const std::string& op);

  // The next input arg of the op: one tensor (Input) or a list (InputList), in the OpDef's order.
  NodeBuilder& Input(Output output);
  NodeBuilder& InputList(std::vector<Output> outputs);
  NodeBuilder& ControlInput(Node* node);
  NodeBuilder& Device(const std::string& device);
  NodeBuilder& Attr(const std::string& name, const AttrValue& value);
  // Adds "loc:@<node>" to the node's _class attr (colocation with that node).
  NodeBuilder& ColocateWith(const std::string& node);
  // The NodeDef so far (name, op, device, attrs; inputs are added by Finalize).
  NodeDef* mutable_def() { return &def_; }
  const NodeDef& def() const { return def_; }

  // Adds the node to `g`: looks up the op (the graph's library first), checks that there are as
  // many inputs as input args and that each is a list where the arg is, fills in the type and
  // length attrs the inputs imply unless set (T, N, Tlist), adds the op's default attrs,
  // validates the NodeDef, connects the edges and infers the output shapes. On any error the
  // graph is left as it was. Errors: NOT_FOUND for an unknown op; INVALID_ARGUMENT for an empty or
  // duplicate name, an input count or kind that does not match the OpDef, an input that is not a
  // node of `g` or names an output the node lacks, a type that does not match, or a failing shape
  // function (the message names the node and the op). Not thread-safe on one graph.
  absl::StatusOr<Node*> Finalize(Graph* g) const;

 private:
  struct InputArg {
    bool is_list;
    std::vector<Output> outputs;
  };
  NodeDef def_;
  std::vector<InputArg> inputs_;
  std::vector<Node*> control_inputs_;
  std::vector<std::string> colocation_;
};

}  // namespace sg

#endif  // SG_CORE_GRAPH_NODE_BUILDER_H_
