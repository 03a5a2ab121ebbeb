// The function library side of `sg freeze` (tools/freeze_cmd.h), for graphs written by
// TensorFlow 2 (tf.saved_model.save, Keras model.export), whose signatures call functions
// (StatefulPartitionedCall, PartitionedCall) with the variables' resource handles as arguments.
// When such a variable becomes a Const, the call passes its value instead, as TensorFlow's
// convert_variables_to_constants_v2 rewrites it: the call's Tin entry and the callee's argument
// take the variable's dtype, and inside the callee (and the functions it calls on, recursively)
// each ReadVariableOp of the argument becomes an Identity (its "name:value:0" uses renamed to
// "name:output:0") and each Identity of it takes the dtype.
//
//   ConvertCallInput(frozen_graph, call_node, /*index=*/1, /*dtype=*/SG_FLOAT);  // per variable
//   PruneLibrary(frozen_graph);  // drop the functions no node calls any more (save, restore...)
//
// The messages are sg.GraphDef / sg.NodeDef dynamic messages (tools/proto_types.h).
// Errors: CmdFail (tools/cmd_error.h): UNIMPLEMENTED naming the function and node when an argument
// is used other than by a read, an Identity or a call (an assignment, a resource gather...), or is
// returned; INVALID_ARGUMENT when a called function is missing or its argument is not a resource.
// Not thread-safe on the same graph.
#ifndef SG_TOOLS_FREEZE_FUNCTIONS_H_
#define SG_TOOLS_FREEZE_FUNCTIONS_H_

#include <google/protobuf/message.h>

namespace sg_tool {

// Data input `index` of `call` (a node of `graph`) becomes a value of `dtype` (an SG_DataType).
// A function argument already converted to `dtype` is left as it is.
void ConvertCallInput(google::protobuf::Message* graph, google::protobuf::Message* call, int index,
                      int dtype);

// Whether `op` is a call that ConvertCallInput rewrites.
bool IsFunctionCall(const std::string& op);

// Removes the library functions (and their gradients) that no node of `graph`, and no function
// they call, refers to: as op type, or in a func / list(func) attr.
void PruneLibrary(google::protobuf::Message* graph);

}  // namespace sg_tool

#endif  // SG_TOOLS_FREEZE_FUNCTIONS_H_
