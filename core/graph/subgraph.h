// Rewriting a graph for one step: feeds replace the tensors they name, fetches get a sink each,
// and what the fetches and targets do not need is pruned, as TensorFlow's subgraph rewrite does.
#ifndef SG_CORE_GRAPH_SUBGRAPH_H_
#define SG_CORE_GRAPH_SUBGRAPH_H_

#include <string>
#include <vector>

#include "core/graph/graph.h"

namespace sg {

struct RewriteOptions {
  // false: feeds become _Arg nodes and fetches _Retval nodes (index = position in the lists).
  // true: feeds become _Recv nodes and fetches _Send nodes with client_terminated set, keyed by
  // the tensor name, for partial runs and remote steps.
  bool use_rendezvous = false;
  std::string client_device;        // the other end of those _Send/_Recv nodes
  uint64_t client_incarnation = 0;
  std::string device;               // requested device of the nodes added (may be empty)
};

// Rewrites `g` in place. Errors: NOT_FOUND for an unknown node, INVALID_ARGUMENT for an output
// index out of range or a tensor fed twice. Fetch names must be distinct.
absl::Status RewriteGraphForExecution(Graph* g, const std::vector<std::string>& feeds,
                                      const std::vector<std::string>& fetches,
                                      const std::vector<std::string>& targets,
                                      const RewriteOptions& options);

// Removes every node from which no node in `keep` can be reached.
void PruneForTargets(Graph* g, const std::vector<Node*>& keep);

// Lowers functional control flow (While, If, Case: lower_functional_ops.h) and replaces every
// call of a library function (a node whose op is a function, or PartitionedCall /
// StatefulPartitionedCall / RemoteCall, whose target input is computed first and otherwise
// unused: the body runs where the call is placed) by the function's body, repeatedly, until
// neither is left; the call
// node's name then names an IdentityN of the results. UNIMPLEMENTED for list-typed arguments,
// INVALID_ARGUMENT for recursion or nesting deeper than 64.
absl::Status InlineFunctionCalls(Graph* g);

}  // namespace sg

#endif  // SG_CORE_GRAPH_SUBGRAPH_H_
