// Symbolic gradients: adds to a graph the nodes that compute the partial derivatives of a sum of
// outputs with respect to other outputs, as TensorFlow's AddSymbolicGradients
// (tensorflow/cc/framework/gradients.h) and its C API TF_AddGradientsWithPrefix do. The gradient
// of each op comes from the gradient registry (core/gradients/grad_registry.h).
//
//   std::vector<NodeBuilder::Output> dxs;
//   SG_RETURN_IF_ERROR(AddSymbolicGradients(&g, {{loss, 0}}, {{w, 0}, {b, 0}}, {}, "", &dxs));
//   // dxs[0] = d(loss)/dw, dxs[1] = d(loss)/db, named "gradients/..."
#ifndef SG_CORE_GRAPH_GRADIENTS_H_
#define SG_CORE_GRAPH_GRADIENTS_H_

#include <string>
#include <vector>

#include "core/framework/status.h"
#include "core/graph/graph.h"
#include "core/graph/node_builder.h"

namespace sg {

// Adds to `graph` the nodes computing dxs[i] = sum over j of d(ys[j])/d(xs[i]), weighted by the
// initial gradients `dys` (one per y, the dtype and shape of its y) or by OnesLike(ys[j]) when
// `dys` is empty.
//
// Naming: every new node is named "<prefix>/...". An empty `prefix` takes "gradients", or
// "gradients_1", "gradients_2"... when a node already has that name or lives under it; an explicit
// prefix that is a node's name or the start of one ("<prefix>/...") is an error.
// Backprop runs in reverse topological order over the nodes that are both reachable from the xs
// and reach the ys along data edges; gradients from several consumers are summed with AddN.
// No gradient flows through StopGradient, through ops registered without one, or into values
// that carry none (integers, bools, strings: IsDifferentiable in grad_registry.h); an x that
// only such paths reach, or none, gets {nullptr, -1} in `dxs` (TensorFlow's NoGradient()), as
// TF_AddGradients returns it.
//
// Errors (INVALID_ARGUMENT unless said): empty `ys`; an output (y, x or dy) that is null, of
// another graph or out of range; `dys` of another length than `ys`; a taken explicit prefix; an
// x from which no y can be reached (as TensorFlow: "Cannot compute the partial derivative for
// node ..."); PreventGradient on the path (its message); NOT_FOUND "No gradient defined for op"
// naming the node and its type for an op without a registered gradient through which a
// gradient flows; UNIMPLEMENTED for v1 while loops and for a functional While whose cond or body
// is stateful (while_grad.cc); any error of a new node. On error the graph is left as it was and
// `dxs` untouched.
// Not thread-safe on one graph (the caller holds the graph's lock).
absl::Status AddSymbolicGradients(Graph* graph, const std::vector<NodeBuilder::Output>& ys,
                                  const std::vector<NodeBuilder::Output>& xs,
                                  const std::vector<NodeBuilder::Output>& dys,
                                  const std::string& prefix,
                                  std::vector<NodeBuilder::Output>* dxs);

}  // namespace sg

#endif  // SG_CORE_GRAPH_GRADIENTS_H_
