// The uses of a variable's resource handle that `sg freeze` (tools/freeze_cmd.h) rewrites when the
// variable's VarHandleOp becomes a Const of its value, in the graph and in the functions of its
// library, as TensorFlow's convert_variables_to_constants_v2 does: each ReadVariableOp of the
// handle becomes an Identity (attr dtype renamed T; in a function its "name:value:0" uses become
// "name:output:0"), an Identity that passes the handle on takes the dtype, and a function call
// (StatefulPartitionedCall, PartitionedCall) that takes the handle takes the value: its Tin entry
// and the callee's argument take the dtype, and the argument's uses in the callee are rewritten
// the same way, through the functions it calls in turn. One walk serves the graph and the
// functions (a scope each).
//
//   std::vector<FrozenHandle> vars = {{"w", SG_FLOAT, shape}};  // each VarHandleOp kept
//   ConvertHandleUses(frozen_graph, vars);  // the pruned sg.GraphDef, VarHandleOps still there
//   PruneLibrary(frozen_graph);  // drop the functions no node calls any more (save, restore...)
//
// The messages are sg.GraphDef / sg.NodeDef dynamic messages (tools/proto_types.h).
// Errors: CmdFail (tools/cmd_error.h): UNIMPLEMENTED naming the node (and function) and the
// variable for a use a constant cannot stand for (an assignment, ...) and for a function that
// returns the handle; INVALID_ARGUMENT when a called function is missing or its argument is not a
// resource. The graph may be half rewritten after an error. Not thread-safe on the same graph.
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
