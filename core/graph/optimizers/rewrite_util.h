// What the graph optimiser's passes (core/graph/optimizer.h) share: the passes themselves, and
// small helpers to inspect nodes and to replace them while keeping names, devices and edges.
// Internal to core/graph (and core/runtime/constant_eval.cc, which evaluates constants the way
// constant folding does); not thread-safe on one graph.
#ifndef SG_CORE_GRAPH_OPTIMIZERS_REWRITE_UTIL_H_
#define SG_CORE_GRAPH_OPTIMIZERS_REWRITE_UTIL_H_

#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/framework/tensor.h"
#include "core/graph/graph.h"
#include "core/graph/optimizer.h"

namespace sg {
namespace graph_opt {

// ---- The passes, in the order OptimizeGraph runs them. Each returns how many rewrites it did.

absl::StatusOr<int> ControlOnlyToNoOps(Graph* g, const std::set<std::string>& preserve);
absl::StatusOr<int> RemoveIdentities(Graph* g, const std::set<std::string>& preserve);
absl::StatusOr<int> FoldConstants(Graph* g, const GraphOptimizerOptions& options,
                                  const std::set<std::string>& preserve);
absl::StatusOr<int> FoldPads(Graph* g, const std::set<std::string>& preserve);
absl::StatusOr<int> FoldBatchNorms(Graph* g, const std::set<std::string>& preserve);
absl::StatusOr<int> FuseOps(Graph* g, const GraphOptimizerOptions& options,
                            const std::set<std::string>& preserve);
int MarkConstFilters(Graph* g);
// Removes nodes that nothing uses any more (no out edges) and whose running has no effect:
// Consts and stateless ops other than sinks; repeatedly. Returns how many it removed.
int RemoveDeadNodes(Graph* g, const std::set<std::string>& preserve);

// ---- Helpers.

// Whether `n` is still in its graph (a pass may remove nodes it is iterating over).
bool IsLive(const Graph& g, const Node* n);
// Identity, IdentityN, Snapshot or StopGradient: outputs equal to inputs. (StopGradient only
// matters to gradient construction, which is over by the time a step's graph is built.)
bool IsIdentityLike(const Node* n);
// A step's sink: _Retval, or a _Send the client receives from.
bool IsSink(const Node* n);
bool HasControlInputs(const Node* n);
bool HasControlOutputs(const Node* n);
// The node feeding data input i (nullptr when unconnected) and its output index.
Node* InputNode(const Node* n, int i);
int InputIndex(const Node* n, int i);
// The only data consumer of `n`: nullptr unless n has exactly one out edge, a data edge from
// output 0.
Node* SoleConsumer(const Node* n);
// The node's attr `name` as a string ("" when absent or of another type).
std::string StringAttr(const Node* n, const std::string& name);
// Whether the node's attr `T` is `dtype`.
bool HasType(const Node* n, DataType dtype);
// Whether `n` is a "Const" node, with its value in `value` (false when it has none that
// decodes): the Tensor the node holds (tensor_attrs, shared), or the NodeDef's decoded.
bool ConstValue(const Node* n, Tensor* value);
// The dtype and shape of a Const node's value without decoding its elements (false when `n` is
// not a Const or its value does not say).
bool ConstDtypeAndShape(const Node* n, DataType* dtype, TensorShape* shape);
// The value of a Shape, Size or Rank node (int32 or int64) whose input's static shape is known
// well enough (fully for Shape and Size, its rank for Rank); nullopt otherwise.
std::optional<Tensor> StaticShapeValue(const Node* n);

// A node's requested and assigned device, kept while the node itself is replaced.
struct Placement {
  std::string requested, assigned;
  explicit Placement(const Node* n)
      : requested(n->requested_device()), assigned(n->assigned_device_name()) {}
};

// A NodeDef for a Const named `name` holding `value` (its device is set when it is added), for
// a GraphDef; the passes make Consts that hold their value decoded (AddConst, ReplaceWithConst).
NodeDef ConstNodeDef(const std::string& name, const Tensor& value);

// Adds `def` (with `tensor_attrs` held decoded beside it) to `g` at `where` (requested and
// assigned device), connects `inputs` to its input slots in order and `controls` as control
// inputs. The node's output shapes are `shapes` (left unknown unless there is one per output).
absl::StatusOr<Node*> AddNodeAt(Graph* g, NodeDef def, const Placement& where,
                                const std::vector<std::pair<Node*, int>>& inputs,
                                const std::vector<Node*>& controls,
                                std::vector<PartialTensorShape> shapes = {},
                                TensorAttrs tensor_attrs = {});
// A Const named `name` holding `value`, at `where`, after `controls`. The node holds `value`
// itself as its decoded "value" attr (shared, not encoded into the NodeDef), which the Const
// kernel then shares: `value` must not be written afterwards. A value whose buffer is not
// kTensorAlignment-aligned (caller memory) is copied first.
absl::StatusOr<Node*> AddConst(Graph* g, const std::string& name, const Tensor& value,
                               const Placement& where, const std::vector<Node*>& controls);
// The sources of `n`'s control inputs.
std::vector<Node*> ControlInputs(const Node* n);

// Replaces `old` by a node made from `def` under old's name: the new node takes old's device,
// `inputs` and `controls` (with old's own control inputs added when keep_control_inputs), and
// every out edge of old (output i of old becomes output i of the new node, control edges stay
// control edges), and old's output shapes. old is removed. `inputs` and `controls` must not name
// old.
// `tensor_attrs` are held decoded beside `def` (AddNodeAt).
absl::StatusOr<Node*> ReplaceNode(Graph* g, Node* old, NodeDef def,
                                  const std::vector<std::pair<Node*, int>>& inputs,
                                  std::vector<Node*> controls = {},
                                  bool keep_control_inputs = true,
                                  TensorAttrs tensor_attrs = {});
// Replaces `old` (one output) by a Const of its name holding `value` as AddConst does, after
// `controls` only (old's control inputs are dropped), with `value`'s shape as its output's.
absl::StatusOr<Node*> ReplaceWithConst(Graph* g, Node* old, const Tensor& value,
                                       const std::vector<Node*>& controls);

}  // namespace graph_opt
}  // namespace sg

#endif  // SG_CORE_GRAPH_OPTIMIZERS_REWRITE_UTIL_H_
