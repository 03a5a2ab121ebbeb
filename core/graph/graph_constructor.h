// Importing a GraphDef (binary or text, any TensorFlow version) into a Graph, with the options of
// TensorFlow's ImportGraphDef: a name prefix, input and control remapping, return outputs.
#ifndef SG_CORE_GRAPH_GRAPH_CONSTRUCTOR_H_
#define SG_CORE_GRAPH_GRAPH_CONSTRUCTOR_H_

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "core/graph/graph.h"
#include "core/graph/shared_graph_def.h"
#include "core/proto/graph.pb.h"

namespace sg {

// The newest GraphDef producer version sg reads like its own, and the oldest it accepts.
constexpr int kGraphDefVersion = 1882;
constexpr int kGraphDefVersionMinProducer = 0;

struct ImportOptions {
  std::string prefix;          // prepended as "prefix/" to every imported name
  std::string default_device;  // for nodes that request none
  // TensorFlow's renaming on a clash. uniquify_names: an imported node whose (prefixed) name is
  // already a node or a scope ("name/...") of the graph is named "name_1" ("name_2", ... the
  // first that is neither taken nor the name or a scope of another node of the GraphDef);
  // without it such a clash is an error. uniquify_prefix: a prefix that is already a node or a
  // scope of the graph becomes "prefix_1" (and so on) instead, which makes every imported name
  // new (uniquify_names then has nothing to do). Inputs, input_map keys and return names still
  // use the GraphDef's names.
  bool uniquify_names = false;
  bool uniquify_prefix = false;
  // Uses of "name:index" in the GraphDef are rewired to existing tensors.
  std::map<std::pair<std::string, int>, std::pair<Node*, int>> input_map;
  // Uses of "^name" in the GraphDef are rewired to existing nodes.
  std::map<std::string, Node*> control_map;
  // Every imported node that has no other input depends on these existing nodes.
  std::vector<Node*> control_dependencies;
  std::vector<std::pair<std::string, int>> return_tensors;  // names in the GraphDef
  std::vector<std::string> return_nodes;
};

struct ImportResults {
  std::vector<std::pair<Node*, int>> return_tensors;
  std::vector<Node*> return_nodes;
  // input_map keys that matched no use in the GraphDef.
  std::vector<std::pair<std::string, int>> missing_unused_input_map_keys;
};

// Adds the nodes of `gdef` to `g`, all or none: on error `g` is left as it was.
// Errors: INVALID_ARGUMENT for a duplicate name, a missing input node or output index, a dtype
// mismatch, a cycle that is not a loop, an unsupported producer version, a shape conflict or an
// attr the op does not define (the message names the producer version); NOT_FOUND for an unknown
// op. Messages name the node.
absl::Status ImportGraphDef(const GraphDef& gdef, const ImportOptions& options, Graph* g,
                            ImportResults* results = nullptr);
// The same, moving the NodeDefs out of `gdef` instead of copying them (a frozen graph's weights
// are most of its bytes); `gdef` is left empty, whatever the outcome.
absl::Status ImportGraphDef(GraphDef&& gdef, const ImportOptions& options, Graph* g,
                            ImportResults* results = nullptr);

// The same, the graph's nodes sharing the NodeDefs of `gdef` (each is copied only when the import
// changes it: a prefix, a default device, defaults for attrs it lacks).
absl::Status ImportGraphDef(const SharedGraphDef& gdef, const ImportOptions& options, Graph* g,
                            ImportResults* results = nullptr);
// Parses `bytes` as a binary GraphDef, or, failing that, as text format.
absl::Status ParseGraphDef(absl::string_view bytes, GraphDef* gdef);

// Runs the op's shape function for `node` with the shapes of its inputs (and the values of inputs
// produced by Const nodes) and stores the result in node->output_shapes().
absl::Status InferNodeShapes(Node* node);

}  // namespace sg

#endif  // SG_CORE_GRAPH_GRAPH_CONSTRUCTOR_H_
