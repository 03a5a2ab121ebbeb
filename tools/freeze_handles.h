// The uses of a variable's resource handle that `sg freeze` (tools/freeze_cmd.h) rewrites when the
// variable's VarHandleOp becomes a Const of its value, in the graph and in the functions of its
// library, so that the frozen graph computes the same values, as TensorFlow's
// convert_variables_to_constants_v2 does. The uses that read:
//   ReadVariableOp    -> Identity (attr dtype renamed T; in a function its "name:value:0" uses
//                        become "name:output:0")
//   ResourceGather    -> GatherV2(value, indices, axis): axis a new Const "NAME/axis" of
//                        batch_dims (0 unless set; in the graph with a control input from the
//                        indices' node, so it runs in the gather's while frame or cond branch),
//                        batch_dims and Tindices kept, dtype renamed Tparams, validate_indices
//                        dropped
//   ResourceGatherNd  -> GatherNd (dtype renamed Tparams)
//   VariableShape     -> Shape (T = the dtype, out_type kept)
// The nodes that pass the handle on pass the value, and the uses of their outputs are rewritten
// in turn: Identity, IdentityN, and v1 control flow Enter, Switch, Merge, Exit, NextIteration
// (attr T, or its entry, = the dtype; "_output_shapes" dropped). A function that takes the handle
// takes the value: the callee's argument (its handle_data dropped, its recorded shapes the
// variable's) and the caller's type entry take the dtype, and the argument's uses are rewritten in
// the callee, through the functions it calls: StatefulPartitionedCall and PartitionedCall (Tin),
// If and StatelessIf (Tin; then_branch, else_branch), Case and StatelessCase (Tin; branches),
// While and StatelessWhile (T, output_shapes = the variable's declared shape; cond and body), whose
// body must give the handle back unchanged as the same loop variable (as a loop over a captured
// variable does): that output of the body and of the While is then the value, and the uses of the
// While's output are rewritten too. One walk serves the graph and the functions (a scope each).
//
//   std::vector<FrozenHandle> vars = {{"w", SG_FLOAT, shape}};  // each VarHandleOp kept
//   ConvertHandleUses(frozen_graph, vars);  // the pruned sg.GraphDef, VarHandleOps still there
//   PruneLibrary(frozen_graph);  // drop the functions no node calls any more (save, restore...)
//
// The messages are sg.GraphDef / sg.NodeDef dynamic messages (tools/proto_types.h).
// Errors: CmdFail (tools/cmd_error.h), thrown before anything is written: UNIMPLEMENTED naming the
// node (and function) and the variable for a use a constant cannot stand for (AssignVariableOp,
// AssignAdd/SubVariableOp, ResourceApply*, ResourceScatter*, any other op), for a function that
// returns the handle other than such a While body, for a Merge that joins the handle with a tensor
// that is not a frozen variable's handle, and for a tensor or argument reached by handles of two
// dtypes; INVALID_ARGUMENT when a called function is missing, its argument is not a resource, or a
// type attr lacks the entry. The graph may be half rewritten after an error.
// Not thread-safe on the same graph.
#ifndef SG_TOOLS_FREEZE_HANDLES_H_
#define SG_TOOLS_FREEZE_HANDLES_H_

#include <string>
#include <vector>

#include <google/protobuf/message.h>

namespace sg_tool {

// A variable being frozen: its VarHandleOp's node name, dtype (an SG_DataType) and declared shape
// (its sg.TensorShapeProto "shape" attr, or nullptr when it has none).
struct FrozenHandle {
  std::string name;
  int dtype;
  const google::protobuf::Message* shape;
};

// Rewrites the uses of the handles of `variables` in `graph` (an sg.GraphDef) and its functions
// for their values. `variables` and their shapes are borrowed for the call.
void ConvertHandleUses(google::protobuf::Message* graph, const std::vector<FrozenHandle>& variables);

// Removes the library functions (and their gradients) that no node of `graph`, and no function
// they call, refers to: as op type, or in a func / list(func) attr.
void PruneLibrary(google::protobuf::Message* graph);

}  // namespace sg_tool

#endif  // SG_TOOLS_FREEZE_HANDLES_H_
