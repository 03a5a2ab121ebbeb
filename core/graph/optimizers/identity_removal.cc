// Identity removal: consumers of an Identity-like node read its input instead. Frozen Keras
// graphs read every weight through an Identity ("ReadVariableOp"), and inlined function calls
// leave an IdentityN per call; each is a kernel launch and an executor hop per step.
#include <vector>

#include "core/graph/optimizers/rewrite_util.h"

namespace sg {
namespace graph_opt {
namespace {

// Whether `n` may go: control edges would have to be rewired with a meaning of their own (a
// cond's pivot, an ordering), a reference input is read when the Identity runs, and an Identity
// between devices is the copy the graph asks for; loop and cond structure is left as it is.
bool Removable(const Node* n, const std::set<std::string>& preserve) {
  if (!IsIdentityLike(n) || preserve.count(n->name())) return false;
  if (n->num_inputs() != n->num_outputs() || n->num_inputs() == 0) return false;
  if (HasControlInputs(n) || HasControlOutputs(n)) return false;
  const std::string& device = n->assigned_device_name();
  for (int i = 0; i < n->num_inputs(); ++i) {
    const Edge* e = n->input_edge(i);
    if (e == nullptr) return false;
    const Node* src = e->src;
    if (IsRefType(src->output_type(e->src_output)) || src->IsControlFlow() || src->IsLoopCond() ||
        src->assigned_device_name() != device) {
      return false;
    }
  }
  for (const Edge* e : n->out_edges()) {
    const Node* dst = e->dst;
    if (IsSink(dst) || dst->IsControlFlow() || dst->IsLoopCond() ||
        dst->assigned_device_name() != device) {
      return false;
    }
  }
  return true;
}

}  // namespace

absl::StatusOr<int> RemoveIdentities(Graph* g, const std::set<std::string>& preserve) {
  int removed = 0;
  for (Node* n : g->nodes()) {
    if (!Removable(n, preserve)) continue;
    struct Use {
      int output;
      Node* dst;
      int slot;
    };
    std::vector<Use> uses;
    for (const Edge* e : n->out_edges()) uses.push_back({e->src_output, e->dst, e->dst_input});
    std::vector<std::pair<Node*, int>> sources;
    for (int i = 0; i < n->num_inputs(); ++i) {
      sources.push_back({n->input_edge(i)->src, n->input_edge(i)->src_output});
    }
    g->RemoveNode(n);
    for (const Use& u : uses) {
      const auto& [src, index] = sources[u.output];
      absl::Status s = g->AddEdge(src, index, u.dst, u.slot).status();
      if (!s.ok()) return errors::Internal("graph optimizer: identity removal: ", s.message());
    }
    ++removed;
  }
  return removed;
}

}  // namespace graph_opt
}  // namespace sg
