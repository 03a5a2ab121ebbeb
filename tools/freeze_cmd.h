// `sg freeze`: a GraphDef (or a SavedModel's MetaGraph) plus a checkpoint gives a frozen GraphDef,
// as TensorFlow's freeze_graph (convert_variables_to_constants) makes it.
//
//   sg freeze --graph G.pb|G.pbtxt --checkpoint PREFIX --outputs a,b --out frozen.pb
//   sg freeze --saved_model DIR [--tag serve] [--checkpoint PREFIX] --outputs a,b --out frozen.pb
//
// The graph is pruned to the nodes the outputs (op names, ":k" and "^" accepted) need through
// data and control inputs; each variable left (VariableV2, Variable, VarHandleOp) becomes a Const
// of its checkpoint value (key: the variable's node name, as TensorFlow 1's Saver writes it; read
// with sg's RestoreV2 kernel through the C API), keeping its name and device; each ReadVariableOp
// of a VarHandleOp becomes an Identity (attr T = its dtype). The checkpoint of a SavedModel is
// DIR/variables/variables unless --checkpoint says otherwise. OUT is binary unless it ends in
// .pbtxt/.txt. The function library and versions are kept.
// Errors (one line, exit 1): an output that is not in the graph (NOT_FOUND); a variable the
// checkpoint lacks or holds with another dtype (the restore's message, naming the variable); an
// output that needs a variable's assignment or a resource op other than ReadVariableOp
// (UNIMPLEMENTED, naming the node).
#ifndef SG_TOOLS_FREEZE_CMD_H_
#define SG_TOOLS_FREEZE_CMD_H_

#include <string>
#include <vector>

namespace sg_tool {

// `args` are the arguments after "freeze". Returns the exit code.
int FreezeMain(const std::vector<std::string>& args);

}  // namespace sg_tool

#endif  // SG_TOOLS_FREEZE_CMD_H_
