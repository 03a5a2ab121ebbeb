// AddSymbolicGradients (gradients.h): TensorFlow's SymbolicGradientBuilder algorithm, written
// for sg's Graph and the gradient registry.
#include "core/graph/gradients.h"

#include <deque>
#include <map>
#include <set>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "core/gradients/grad_registry.h"

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

  Graph* g_;
  GradScope* scope_;
  const std::vector<Output>& ys_;
  const std::vector<Output>& xs_;
  std::map<Key, std::vector<Output>> backprops_;
  std::vector<int> pending_;
  std::deque<Node*> ready_;
};

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

  // Forward from the xs: the outputs that take part, and how many gradients each node awaits.
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
    int expected = 0;
    if (y_nodes.count(n->id())) {
      for (const Output& y : ys_) expected += y.node == n;
    } else {
      for (const Edge* e : n->out_edges()) {
        if (e->IsControlEdge() || !reaches_y[e->dst->id()]) continue;
        if (!visited[e->dst->id()]) {
          visited[e->dst->id()] = true;
          queue.push_back(e->dst);
        }
        ++expected;
      }
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
    bool stop = true;
    for (const Edge* e : n->in_edges()) {
      if (!e->IsControlEdge() && backprops_.count({e->src->id(), e->src_output})) stop = false;
    }
    if (stop) continue;
    if (n->IsControlFlow()) {
      return errors::Unimplemented("AddGradients: gradients through control flow ('", n->name(),
                                   "', ", n->type_string(), ") are not supported");
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
        if (IsNoGradient(dy[i])) dy[i] = scope_->ZerosLike({n, i});
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
