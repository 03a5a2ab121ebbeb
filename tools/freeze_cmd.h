// `sg freeze`: a GraphDef (or a SavedModel's MetaGraph) plus a checkpoint gives a frozen GraphDef,
// as TensorFlow's freeze_graph (convert_variables_to_constants) makes it.
//
//   sg freeze --graph G.pb|G.pbtxt --checkpoint PREFIX --outputs a,b --out frozen.pb
//   sg freeze --saved_model DIR [--tag serve] [--checkpoint PREFIX] --outputs a,b --out frozen.pb
//
// The graph is pruned to the nodes the outputs (op names, ":k" and "^" accepted) need through
// data and control inputs; each variable left (VariableV2, Variable, VarHandleOp) becomes a Const
// of its value, keeping its name and device; the uses of a VarHandleOp's handle are rewritten for
// the value (tools/freeze_handles.h: reads become Identity, ResourceGather GatherV2,
// ResourceGatherNd GatherNd, VariableShape Shape; the handle passed through Identity, IdentityN,
// v1 control flow, calls, If, Case and While takes the dtype), and the functions no node calls
// any more are dropped. The values:
//   --checkpoint PREFIX  read by key = the variable's node name, as TensorFlow 1's Saver writes
//                        it, with sg's RestoreV2 kernel through the C API;
//   a SavedModel without --checkpoint: loaded with SG_LoadSessionFromSavedModel, which restores
//                        the variables as TensorFlow's loader does (its restore op), so
//                        TensorFlow 2's object-based keys ("w/.ATTRIBUTES/VARIABLE_VALUE") work,
//                        and each variable read in that session.
// OUT is binary unless it ends in .pbtxt/.txt. The versions are kept.
// Errors (one line, exit 1): an output that is not in the graph (NOT_FOUND); a variable the
// checkpoint lacks or holds with another dtype (the restore's message, naming the variable); an
// output that needs a use of a variable a constant cannot stand for (an assignment, a
// ResourceApply*, a ResourceScatter*, a function returning the handle...), in the graph or in a
// function (UNIMPLEMENTED, naming the node, function and variable, before the values are read).
#ifndef SG_TOOLS_FREEZE_CMD_H_
#define SG_TOOLS_FREEZE_CMD_H_

#include <string>
#include <vector>

namespace sg_tool {

// `args` are the arguments after "freeze". Returns the exit code.
int FreezeMain(const std::vector<std::string>& args);

}  // namespace sg_tool

#endif  // SG_TOOLS_FREEZE_CMD_H_
