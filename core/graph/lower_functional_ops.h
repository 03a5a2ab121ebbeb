// Lowering of TensorFlow 2's functional control flow into v1 frames, as TensorFlow's own lowering
// pass does, so that sg's executor runs it with its Switch/Merge/Enter/Exit semantics:
//
//   If / StatelessIf      Switch every input on the (ToBool'ed) condition, call then_branch on the
//                         true side and else_branch on the false side, Merge the results.
//   Case / StatelessCase  _SwitchN every input on the branch index (out of range: last branch),
//                         call each branch on its output, Merge the results.
//   While / StatelessWhile Enter -> Merge -> cond call -> LoopCond -> Switch -> body call ->
//                         NextIteration back into the Merge; Switch's false side -> Exit. The
//                         frame is named after the While node; parallel_iterations carries over.
//
// The branch and loop functions become PartitionedCall nodes, which InlineFunctionCalls
// (subgraph.h) then replaces by their bodies; each call has a control input from its branch's
// pivot (or the loop's), so the body's nodes without inputs live in the right branch or frame.
// The lowered node's name afterwards names an IdentityN of the results (a NoOp when there are
// none) that also waits for the branch taken, so consumers and control edges keep working.
#ifndef SG_CORE_GRAPH_LOWER_FUNCTIONAL_OPS_H_
#define SG_CORE_GRAPH_LOWER_FUNCTIONAL_OPS_H_

#include "core/graph/graph.h"

namespace sg {

// Whether `n` is a While, If or Case node (stateful or stateless).
bool IsFunctionalControlFlow(const Node& n);

// Replaces `n` (IsFunctionalControlFlow) by its lowered form; `n` is deleted. INVALID_ARGUMENT
// for a malformed node (a missing input, a While without loop variables, a branch count of 0),
// NOT_FOUND for a function missing from the graph's library.
absl::Status LowerFunctionalOp(Graph* g, Node* n);

}  // namespace sg

#endif  // SG_CORE_GRAPH_LOWER_FUNCTIONAL_OPS_H_
