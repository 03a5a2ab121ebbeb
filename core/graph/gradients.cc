// AddSymbolicGradients (gradients.h): TensorFlow's SymbolicGradientBuilder algorithm, written
// for sg's Graph and the gradient registry, with v1 while loops differentiated as functional
// loops (functionalize_loop.h, while_grad.h).
#include "core/graph/gradients.h"

#include <deque>
#include <map>
#include <set>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "core/framework/attr_value_util.h"
#include "core/gradients/grad_registry.h"
#include "core/gradients/while_grad.h"
#include "core/graph/functionalize_loop.h"

namespace sg {
namespace {

using Output = NodeBuilder::Output;
using Key = std::pair<int, int>;  // (node id, output index)

Key KeyOf(Output o) { return {o.node->id(), o.index}; }

absl::Status CheckOutput(const Graph& g, Output o, const char* what, size_t i) {
  if (o.node == nullptr) return errors::InvalidArgument("AddGradients: ", what, "[", i, "] is null");
  if (g.FindNodeId(o.node->id()) != o.node) {
    return errors::InvalidArgument("AddGradients: ", what, "[", i, "] is not a node of the graph");
  }
  if (o.index < 0 || o.index >= o.node->num_outputs()) {
    return errors::InvalidArgument("AddGradients: ", what, "[", i, "] names output ", o.index,
                                   " of '", o.node->name(), "', which has ",
                                   o.node->num_outputs(), " outputs");
  }
  return absl::OkStatus();
}

// Whether `name` is `prefix` or lives under it.
bool Under(const std::string& name, const std::string& prefix) {
  return name == prefix || absl::StartsWith(name, prefix + "/");
}

absl::StatusOr<std::string> ChoosePrefix(const Graph& g, const std::string& prefix) {
  std::vector<std::string> names;
  for (Node* n : g.nodes()) names.push_back(n->name());
  auto taken_by = [&](const std::string& p) -> const std::string* {
    for (const std::string& name : names) {
      if (Under(name, p)) return &name;
    }
    return nullptr;
  };
  if (!prefix.empty()) {
    if (const std::string* name = taken_by(prefix)) {
      return errors::InvalidArgument("prefix [", prefix,
                                     "] conflicts with existing node in the graph named [", *name,
                                     "]");
    }
    return prefix;
  }
  if (taken_by("gradients") == nullptr) return std::string("gradients");
  for (int i = 1;; ++i) {
    std::string p = absl::StrCat("gradients_", i);
    if (taken_by(p) == nullptr) return p;
  }
}

class Builder {
 public:
  Builder(Graph* g, GradScope* scope, const std::vector<Output>& ys,
          const std::vector<Output>& xs)
      : g_(g), scope_(scope), ys_(ys), xs_(xs) {}

  absl::Status Run(const std::vector<Output>& dys, std::vector<Output>* dxs);

 private:
  void Backprop(Output grad, Output src) {
    auto it = backprops_.find(KeyOf(src));
    if (it == backprops_.end()) return;
    it->second.push_back(grad);
    if (--pending_[src.node->id()] == 0) ready_.push_back(src.node);
  }
  // The sum of the gradients collected for `o`, or NoGradient() when none flowed.
  Output SumOf(Output o) {
    std::vector<Output> kept;
    for (const Output& g : backprops_[KeyOf(o)]) {
      if (!IsNoGradient(g)) kept.push_back(g);
    }
    if (kept.empty()) return NoGradient();
    if (kept.size() == 1) return kept[0];
    scope_->set_sub_scope("");
    return scope_->Op("AddN", {GradInput::List(kept)});
  }

  // A v1 while loop the backprop passes through: its gradient is computed once the gradients of
  // all its Exits that lead to a y are in (as TensorFlow's ProcessWhileLoop), by reading it as a
  // functional loop (functionalize_loop.h, while_grad.h).
  struct Loop {
    absl::StatusOr<V1Loop> loop;
    bool entered = false;
    int waiting = 0;  // Exits visited
    int ready = 0;
    std::vector<Output> dy;  // per variable
  };
  // The loops of the graph and, for each node of one, its loop's index.
  void FindLoops();
  absl::Status EnterLoop(int index, std::deque<Node*>* queue, std::vector<bool>* visited,
                         const std::vector<bool>& reaches_y);
  absl::Status ExitReady(Node* exit, Output dy);

  Graph* g_;
  GradScope* scope_;
  const std::vector<Output>& ys_;
  const std::vector<Output>& xs_;
  std::vector<Loop> loops_;
  std::map<int, int> loop_of_;  // node id -> index in loops_
  std::map<Key, std::vector<Output>> backprops_;
  std::vector<int> pending_;
  std::deque<Node*> ready_;
};

void Builder::FindLoops() {
  std::map<std::string, std::vector<Node*>> enters;  // by frame
  for (Node* n : g_->nodes()) {
    std::string frame;
    if (n->IsEnter() && GetAttr(n->def().attr(), "frame_name", &frame).ok()) {
      enters[frame].push_back(n);
    }
  }
  for (const auto& [frame, frame_enters] : enters) {
    Loop l;
    l.loop = FindV1Loop(*g_, frame);
    // A malformed loop keeps only its Enters, so its error is reported if the backprop reaches it.
    const std::vector<Node*>& nodes = l.loop.ok() ? l.loop->members : frame_enters;
    for (Node* n : nodes) loop_of_[n->id()] = static_cast<int>(loops_.size());
    if (l.loop.ok()) l.dy.assign(l.loop->enters.size(), NoGradient());
    loops_.push_back(std::move(l));
  }
}

absl::Status Builder::EnterLoop(int index, std::deque<Node*>* queue, std::vector<bool>* visited,
                                const std::vector<bool>& reaches_y) {
  Loop& l = loops_[index];
  if (!l.loop.ok()) {
    return errors::Annotate(l.loop.status(), "AddGradients: gradient of a while loop: ");
  }
  if (l.entered) return absl::OkStatus();
  l.entered = true;
  for (Node* exit : l.loop->exits) {
    if (exit == nullptr || !reaches_y[exit->id()]) continue;
    ++l.waiting;
    if (!(*visited)[exit->id()]) {
      (*visited)[exit->id()] = true;
      queue->push_back(exit);
    }
  }
  return absl::OkStatus();
}

absl::Status Builder::ExitReady(Node* exit, Output dy) {
  Loop& l = loops_[loop_of_.at(exit->id())];
  const V1Loop& loop = *l.loop;
  for (size_t i = 0; i < loop.exits.size(); ++i) {
    if (loop.exits[i] == exit) l.dy[i] = dy;
  }
  if (++l.ready < l.waiting) return absl::OkStatus();
  // All in: the gradients of the Enters' inputs.
  const size_t nv = loop.enters.size();
  std::vector<Node*> enters = loop.enters;
  enters.insert(enters.end(), loop.invariants.begin(), loop.invariants.end());
  std::vector<Output> dx(enters.size(), NoGradient());
  bool any = false;
  for (const Output& d : l.dy) any |= !IsNoGradient(d);
  if (any) {
    V1Loop functional = loop;
    SG_RETURN_IF_ERROR(FunctionalizeV1Loop(*g_, g_->mutable_flib(), &functional));
    LoopSpec spec;
    for (Node* e : enters) spec.inputs.push_back({e->input_edge(0)->src, e->input_edge(0)->src_output});
    spec.types = loop.types;
    spec.cond = functional.cond;
    spec.body = functional.body;
    spec.invariant.assign(enters.size(), false);
    for (size_t j = nv; j < enters.size(); ++j) spec.invariant[j] = true;
    spec.parallel_iterations = loop.parallel_iterations;
    std::vector<Output> dy = l.dy;
    dy.resize(enters.size(), NoGradient());
    scope_->set_sub_scope(loop.frame + "_grad");
    absl::Status s = LoopGradient(*scope_, spec, dy, &dx);
    if (!s.ok()) {
      return errors::Annotate(s, absl::StrCat("gradient of while loop '", loop.frame, "': "));
    }
    SG_RETURN_IF_ERROR(scope_->status());
  }
  for (size_t k = 0; k < enters.size(); ++k) {
    const Edge* in = enters[k]->input_edge(0);
    Backprop(IsDifferentiable(enters[k]->input_type(0)) ? dx[k] : NoGradient(),
             {in->src, in->src_output});
  }
  return absl::OkStatus();
}

absl::Status Builder::Run(const std::vector<Output>& dys, std::vector<Output>* dxs) {
  const int num_ids = g_->num_node_ids();
  // Nodes from which a y is reached along data edges.
  std::vector<bool> reaches_y(num_ids, false);
  std::deque<Node*> queue;
  for (const Output& y : ys_) {
    if (!reaches_y[y.node->id()]) {
      reaches_y[y.node->id()] = true;
      queue.push_back(y.node);
    }
  }
  while (!queue.empty()) {
    Node* n = queue.front();
    queue.pop_front();
    for (const Edge* e : n->in_edges()) {
      if (e->IsControlEdge() || reaches_y[e->src->id()]) continue;
      reaches_y[e->src->id()] = true;
      queue.push_back(e->src);
    }
  }
  for (const Output& x : xs_) {
    if (!reaches_y[x.node->id()]) {
      return errors::InvalidArgument("Cannot compute the partial derivative for node '",
                                     x.node->name(), "' as it's unreachable from the output node(s).");
    }
  }
  std::set<int> y_nodes;
  for (const Output& y : ys_) y_nodes.insert(y.node->id());

  FindLoops();
  auto in_loop = [&](const Node* n) { return loop_of_.count(n->id()) > 0 && !n->IsExit(); };
  for (const Output& x : xs_) {
    if (in_loop(x.node)) {
      return errors::Unimplemented("AddGradients: x '", x.node->name(),
                                   "' is inside a while loop; gradients with respect to values "
                                   "inside a loop are not supported");
    }
  }
  for (const Output& y : ys_) {
    if (in_loop(y.node)) {
      return errors::Unimplemented("AddGradients: y '", y.node->name(),
                                   "' is inside a while loop; gradients of values inside a loop "
                                   "are not supported");
    }
  }

  // Forward from the xs: the outputs that take part, and how many gradients each node awaits.
  // A v1 loop is passed over as a whole: from an Enter's input to the loop's Exits.
  pending_.assign(num_ids, 0);
  std::vector<bool> visited(num_ids, false);
  for (const Output& x : xs_) {
    if (!visited[x.node->id()]) {
      visited[x.node->id()] = true;
      queue.push_back(x.node);
    }
  }
  while (!queue.empty()) {
    Node* n = queue.front();
    queue.pop_front();
    for (int i = 0; i < n->num_outputs(); ++i) backprops_[{n->id(), i}];
    // A y awaits its initial gradient (once per listing) and, as any node, one from each
    // consumer that leads to a y: a y that feeds another y gets the sum of both, as TensorFlow's.
    int expected = 0;
    if (y_nodes.count(n->id())) {
      for (const Output& y : ys_) expected += y.node == n;
    }
    for (const Edge* e : n->out_edges()) {
      if (e->IsControlEdge() || !reaches_y[e->dst->id()]) continue;
      if (in_loop(e->dst)) {
        SG_RETURN_IF_ERROR(EnterLoop(loop_of_[e->dst->id()], &queue, &visited, reaches_y));
        ++expected;
        continue;
      }
      if (!visited[e->dst->id()]) {
        visited[e->dst->id()] = true;
        queue.push_back(e->dst);
      }
      ++expected;
    }
    pending_[n->id()] = expected;
  }
  for (size_t i = 0; i < ys_.size(); ++i) Backprop(dys[i], ys_[i]);

  std::map<Key, std::vector<size_t>> x_index;  // an x may be listed more than once
  for (size_t i = 0; i < xs_.size(); ++i) x_index[KeyOf(xs_[i])].push_back(i);
  std::vector<Output> result(xs_.size(), NoGradient());
  std::vector<bool> have(xs_.size(), false);

  while (!ready_.empty()) {
    Node* n = ready_.front();
    ready_.pop_front();
    std::vector<Output> dy(n->num_outputs());
    int num_no_grad = 0;
    for (int i = 0; i < n->num_outputs(); ++i) {
      dy[i] = SumOf({n, i});
      SG_RETURN_IF_ERROR(scope_->status());
      num_no_grad += IsNoGradient(dy[i]);
      auto it = x_index.find({n->id(), i});
      if (it != x_index.end()) {
        for (size_t k : it->second) {
          result[k] = dy[i];
          have[k] = true;
        }
      }
    }
    if (n->IsExit() && loop_of_.count(n->id())) {
      SG_RETURN_IF_ERROR(ExitReady(n, dy[0]));
      continue;
    }
    bool stop = true;
    for (const Edge* e : n->in_edges()) {
      if (!e->IsControlEdge() && backprops_.count({e->src->id(), e->src_output})) stop = false;
    }
    if (stop) continue;
    if (n->IsEnter() || n->IsExit() || n->IsNextIteration()) {  // not of a loop found above
      return errors::Unimplemented("AddGradients: gradients through control flow ('", n->name(),
                                   "', ", n->type_string(), ") outside a well-formed while loop "
                                   "are not supported");
    }
    // A call of a library function as an op type: as StatefulPartitionedCall (functional_grad.cc).
    const GradFunc* fn = GradRegistry::Global()->Lookup(
        n->IsFunctionCall() ? "StatefulPartitionedCall" : n->type_string());
    std::vector<Output> dx;
    if ((fn != nullptr && !*fn) || num_no_grad == n->num_outputs()) {
      dx.assign(n->num_inputs(), NoGradient());
    } else {
      if (fn == nullptr) {
        return errors::NotFound("No gradient defined for op: ", n->type_string(), " (node '",
                                n->name(), "')");
      }
      scope_->set_sub_scope(n->name() + "_grad");
      for (int i = 0; i < n->num_outputs(); ++i) {
        // A handle has no zeros (a While passing a variable on gets none for that output).
        if (IsNoGradient(dy[i]) && BaseType(n->output_type(i)) != DT_RESOURCE) {
          dy[i] = scope_->ZerosLike({n, i});
        }
      }
      absl::Status s = (*fn)(*scope_, *n, dy, &dx);
      SG_RETURN_IF_ERROR(s);
      SG_RETURN_IF_ERROR(scope_->status());
      if (static_cast<int>(dx.size()) != n->num_inputs()) {
        return errors::Internal("AddGradients: the gradient of ", n->type_string(), " returned ",
                                dx.size(), " gradients for ", n->num_inputs(), " inputs");
      }
    }
    for (const Edge* e : n->in_edges()) {
      if (e->IsControlEdge()) continue;
      Output g = dx[e->dst_input];
      // Integer (and other non-differentiable) values carry no gradient.
      if (!IsDifferentiable(n->input_type(e->dst_input))) g = NoGradient();
      Backprop(g, {e->src, e->src_output});
    }
  }
  // An x whose node has outputs outside the backprop (so it never became ready).
  for (size_t i = 0; i < xs_.size(); ++i) {
    if (!have[i] && pending_[xs_[i].node->id()] > 0) {
      result[i] = SumOf(xs_[i]);
      SG_RETURN_IF_ERROR(scope_->status());
      for (size_t k : x_index[KeyOf(xs_[i])]) {
        result[k] = result[i];
        have[k] = true;
      }
    }
  }
  *dxs = std::move(result);
  return absl::OkStatus();
}

}  // namespace

absl::Status AddSymbolicGradients(Graph* graph, const std::vector<Output>& ys,
                                  const std::vector<Output>& xs, const std::vector<Output>& dys,
                                  const std::string& prefix, std::vector<Output>* dxs) {
  if (graph == nullptr || dxs == nullptr) {
    return errors::InvalidArgument("AddGradients: graph or result is null");
  }
  if (ys.empty()) return errors::InvalidArgument("AddGradients: no y to differentiate");
  if (!dys.empty() && dys.size() != ys.size()) {
    return errors::InvalidArgument("AddGradients: ", dys.size(), " initial gradients for ",
                                   ys.size(), " ys");
  }
  for (size_t i = 0; i < ys.size(); ++i) SG_RETURN_IF_ERROR(CheckOutput(*graph, ys[i], "y", i));
  for (size_t i = 0; i < xs.size(); ++i) SG_RETURN_IF_ERROR(CheckOutput(*graph, xs[i], "x", i));
  for (size_t i = 0; i < dys.size(); ++i) {
    SG_RETURN_IF_ERROR(CheckOutput(*graph, dys[i], "dy", i));
    if (DTypeOf(dys[i]) != DTypeOf(ys[i])) {
      return errors::InvalidArgument("AddGradients: dy[", i, "] is ",
                                     DataTypeString(DTypeOf(dys[i])), " but y[", i, "] is ",
                                     DataTypeString(DTypeOf(ys[i])));
    }
  }
  SG_ASSIGN_OR_RETURN(std::string scope_name, ChoosePrefix(*graph, prefix));

  const int first_new_id = graph->num_node_ids();
  const FunctionLibrary flib_before = graph->flib();  // gradient functions of calls are added
  GradScope scope(graph, scope_name);
  std::vector<Output> initial = dys;
  if (initial.empty()) {
    for (const Output& y : ys) initial.push_back(scope.Op("OnesLike", {y}));
  }
  absl::Status s = scope.status();
  std::vector<Output> result;
  if (s.ok()) {
    Builder builder(graph, &scope, ys, xs);
    s = builder.Run(initial, &result);
  }
  if (!s.ok()) {
    // All or nothing: drop what this call added (newest first, so edges go before their nodes).
    for (int id = graph->num_node_ids() - 1; id >= first_new_id; --id) {
      if (Node* n = graph->FindNodeId(id)) graph->RemoveNode(n);
    }
    *graph->mutable_flib() = flib_before;
    return s;
  }
  *dxs = std::move(result);
  return absl::OkStatus();
}

}  // namespace sg
