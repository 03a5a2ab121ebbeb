// TensorFlow 1.x while loops (frames of Enter / Merge / Switch / LoopCond / NextIteration / Exit
// nodes, as tf.compat.v1.while_loop builds them without control flow v2) read back as the
// functional form, TensorFlow 2's While: a cond and a body function over the loop variables.
// The gradient builder (gradients.h) differentiates a v1 loop this way (while_grad.h); the
// forward graph is not changed.
//
// A frame's parts, as TensorFlow's control_flow_ops.py builds them:
//   loop variable i:  Enter_i -> Merge_i(Enter_i, NextIteration_i) -> Switch_i(Merge_i, LoopCond)
//                     Switch_i:0 -> Exit_i (the loop's result), Switch_i:1 -> the body
//   the condition:    LoopCond(pred), pred computed from the Merges' outputs
//   invariants:       Enter(is_constant = true), read by the cond and the body
//   next values:      NextIteration_i(body result i)
#ifndef SG_CORE_GRAPH_FUNCTIONALIZE_LOOP_H_
#define SG_CORE_GRAPH_FUNCTIONALIZE_LOOP_H_

#include <string>
#include <vector>

#include "core/framework/status.h"
#include "core/graph/function_library.h"
#include "core/graph/graph.h"
#include "core/proto/attr_value.pb.h"

namespace sg {

struct V1Loop {
  std::string frame;                 // the Enters' frame_name
  std::vector<Node*> enters;         // enters[i]: the Enter of loop variable i
  std::vector<Node*> exits;          // exits[i]: its Exit, nullptr when it has none
  std::vector<Node*> invariants;     // the constant Enters
  std::vector<DataType> types;       // variables' then invariants' dtypes (base types)
  std::vector<Node*> members;        // every node of the frame, Enters and Exits included
  // Per variable: its Merge, its Switch on the loop condition and its NextIteration.
  std::vector<Node*> merges, switches, nexts;
  Node* loop_cond = nullptr;
  int64_t parallel_iterations = 10;
  // cond(vars..., invariants...) -> bool; body(vars..., invariants...) -> (vars...,
  // invariants...): added to a library by FunctionalizeV1Loop.
  NameAttrList cond, body;
};

// The v1 loop whose frame is `frame_name` in `g`: its variables in the order of their Enters'
// node ids. Errors (INVALID_ARGUMENT, naming the frame and the node): no Enter of that frame, an
// Enter of another frame inside it (a nested loop: UNIMPLEMENTED), a Merge that is not fed by one
// Enter and one NextIteration, not exactly one LoopCond, a Merge without its Switch.
absl::StatusOr<V1Loop> FindV1Loop(const Graph& g, const std::string& frame_name);

// Adds to `lib` the cond and body functions of `loop` (named after the frame, made unique) and
// sets loop->cond / loop->body. The functions hold copies of the frame's nodes between the Merges
// (cond) or the Switches' true outputs (body), the invariants and LoopCond / the NextIterations;
// control edges from the frame's control-flow nodes (pivots) are dropped. INVALID_ARGUMENT when
// the cond or body reads a value from outside the frame other than through an Enter, or a
// control-flow node inside them.
// Neither function changes `g`; both read it, so nothing may change it meanwhile.
absl::Status FunctionalizeV1Loop(const Graph& g, FunctionLibrary* lib, V1Loop* loop);

}  // namespace sg

#endif  // SG_CORE_GRAPH_FUNCTIONALIZE_LOOP_H_
