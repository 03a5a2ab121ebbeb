// Nodes used only for their control edges become NoOps. A gradient graph groups each gradient
// with tf.tuple (gate_gradients=GATE_OP, the v1 optimizers' default): a NoOp waits for every
// gradient of an op by control edges, and an Identity of each reads it. When the step does not
// need one of those gradients (the gradient of the fed input of a first convolution), pruning
// drops its Identity but keeps the gradient itself, computed for nothing but the ordering, at the
// cost of a whole convolution per step. As TensorFlow's dependency optimizer does, such a node
// is replaced by a NoOp waiting for what it read: the same ordering, the same deadness (a NoOp
// with a dead control input is dead, as the node with a dead data input was), no work.
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "core/graph/optimizers/rewrite_util.h"

namespace sg {
namespace graph_opt {
namespace {

// Ops that write into a tensor they are given (_ParallelConcatUpdate into its
// _ParallelConcatStart, InplaceUpdate/Add/Sub): their effect is on a tensor others read.
bool ModifiesInputInPlace(const Node* n) {
  const std::string op = absl::AsciiStrToLower(n->type_string());
  if (absl::StrContains(op, "inplace") || op == "_parallelconcatupdate") return true;
  for (const char* attr : {"in_place", "inplace"}) {
    auto it = n->def().attr().find(attr);
    if (it != n->def().attr().end() && it->second.b()) return true;
  }
  return false;
}

// Whether `n` may become a NoOp: its outputs are read by nobody (control edges only), and
// running it has no effect of its own. A handle (string, resource or variant) or reference input
// may mean an effect the OpDef does not declare (TensorArrayReadV2 with clear_after_read clears
// the element it read), so a node with one stays.
bool ControlOnly(const Node* n, const std::set<std::string>& preserve) {
  if (preserve.count(n->name()) || n->num_outputs() == 0 || n->out_edges().empty()) return false;
  if (n->op_def().is_stateful() || n->IsControlFlow() || n->IsLoopCond() || n->IsFunctionCall() ||
      IsSink(n) || n->IsArg() || n->IsRecv() || n->IsSend() || n->num_inputs() == 0 ||
      ModifiesInputInPlace(n)) {
    return false;
  }
  for (DataType dt : n->input_types()) {
    if (IsRefType(dt) || dt == DT_STRING || dt == DT_RESOURCE || dt == DT_VARIANT) return false;
  }
  for (const Edge* e : n->out_edges()) {
    if (!e->IsControlEdge()) return false;
  }
  for (const Edge* e : n->in_edges()) {
    // A control edge from a Switch (or any control-flow node) does not carry the deadness of
    // the one output the node read; leave such nodes as they are.
    if (e->src->IsControlFlow() || e->src->IsLoopCond()) return false;
    if (!e->IsControlEdge() && IsRefType(e->src->output_type(e->src_output))) return false;
  }
  return true;
}

}  // namespace

absl::StatusOr<int> ControlOnlyToNoOps(Graph* g, const std::set<std::string>& preserve) {
  int replaced = 0;
  std::vector<Node*> work;
  for (Node* n : g->nodes()) {
    if (ControlOnly(n, preserve)) work.push_back(n);
  }
  while (!work.empty()) {
    Node* n = work.back();
    work.pop_back();
    if (!IsLive(*g, n) || !ControlOnly(n, preserve)) continue;
    std::vector<Node*> reads;
    for (int i = 0; i < n->num_inputs(); ++i) {
      if (Node* src = InputNode(n, i)) reads.push_back(src);
    }
    NodeDef def;
    def.set_op("NoOp");
    SG_RETURN_IF_ERROR(ReplaceNode(g, n, std::move(def), {}, reads).status());
    ++replaced;
    // What the node read may now be read by nobody either.
    for (Node* src : reads) {
      if (ControlOnly(src, preserve)) work.push_back(src);
    }
  }
  return replaced;
}

}  // namespace graph_opt
}  // namespace sg
