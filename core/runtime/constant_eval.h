// Evaluating one tensor of a graph from its constants alone, without running the graph: what
// TensorFlow's TF_TryEvaluateConstant does (its EvaluateConstantTensor), for the C API's
// SG_TryEvaluateConstant.
//
//   SG_ASSIGN_OR_RETURN(std::optional<Tensor> value, EvaluateConstantTensor(graph, *node, 0));
//   if (value.has_value()) ...  // node:0 is a constant, *value
//
// The tensor is constant when everything it is computed from is: Consts; Shape, Size and Rank of
// tensors whose static shape is known well enough (as constant folding folds them,
// core/graph/optimizer.h), whatever those tensors are computed from; and stateless ops with a CPU
// kernel whose data inputs are constant. A Placeholder (with or without default), an _Arg or
// _Recv, a stateful op (variables, random numbers, queues), control flow (Switch, Merge, Enter,
// Exit, NextIteration, LoopCond), a function call or an op with a function attr, a node without
// inputs that is not a Const, or a reference, resource or variant value on the way make it not
// constant. Control dependencies do not change a value and are not followed.
// Thread safety: reads `graph`, which must not change during the call.
#ifndef SG_CORE_RUNTIME_CONSTANT_EVAL_H_
#define SG_CORE_RUNTIME_CONSTANT_EVAL_H_

#include <optional>

#include "core/framework/status.h"
#include "core/framework/tensor.h"
#include "core/graph/graph.h"

namespace sg {

// The value of output `index` of `node` (a node of `graph`) when it is constant (see above),
// computed with sg's CPU kernels in a session of its own on the constant nodes it needs; nullopt
// when it is not constant. Errors: INVALID_ARGUMENT for an index out of range; the error of a
// kernel that fails on the constants (e.g. an integer division by zero), naming the node.
absl::StatusOr<std::optional<Tensor>> EvaluateConstantTensor(const Graph& graph, const Node& node,
                                                             int index);

}  // namespace sg

#endif  // SG_CORE_RUNTIME_CONSTANT_EVAL_H_
