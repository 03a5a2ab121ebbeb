// A graph as Graphviz dot text, for `sg inspect --dot FILE.dot|FILE.svg`.
//
//   std::vector<sg_tool::DotNode> nodes = ...;       // from SG_GraphNextOperation, or a GraphDef
//   std::string dot = sg_tool::GraphToDot(nodes, {});
//
// Each node is a box "name\nOp" whose dot id is its quoted name; a data edge is
// "src" -> "dst" [label="i"] with i the source's output index; a control edge is
// "src" -> "dst" [style=dashed]; a transfer (a _Send to its _Recv, in drawings of partitions) is
// "send" -> "recv" [style=bold, color=red, label="tensor name"].
//   - Small graphs (at most `cluster_threshold` nodes) are drawn flat, unless `group_by_device`
//     asks for one cluster per device (subgraph cluster_dev<k>, labelled with the device).
//   - Larger graphs are grouped by name scope: "a/b/op" sits in subgraph cluster_* "a" nested in
//     "a/b", down to a depth chosen so that at most `cluster_threshold` boxes remain; the nodes of
//     deeper scopes are collapsed into one box per scope at that depth ("a/b/c\n(N ops)",
//     shape=box3d), with the edges between boxes merged (a label "xN" counts merged edges) and
//     edges inside one box dropped.
// Inputs naming nodes that are not in `nodes` are drawn as edges from an ellipse of that name.
// Pure function, thread-safe; links without libsg.
#ifndef SG_TOOLS_GRAPH_DOT_H_
#define SG_TOOLS_GRAPH_DOT_H_

#include <string>
#include <vector>

namespace sg_tool {

struct DotInput {
  std::string src;     // the producing node's name
  int src_output = 0;  // its output index (ignored for control inputs)
  bool control = false;
  std::string transfer;  // non-empty: a _Send -> _Recv pair of this tensor name (bold, red)
};

struct DotNode {
  std::string name, op, device;
  std::vector<DotInput> inputs;  // in input order, control inputs last
};

struct DotOptions {
  int cluster_threshold = 200;
  bool group_by_device = false;
  std::string title;  // the graph's label, "" for none
};

std::string GraphToDot(const std::vector<DotNode>& nodes, const DotOptions& options);

// Parses one GraphDef input string ("op", "op:2", "^op") into `in`.
DotInput ParseDotInput(const std::string& input);

}  // namespace sg_tool

#endif  // SG_TOOLS_GRAPH_DOT_H_
