// `sg convert IN OUT [--strip-default-attrs]`: a GraphDef between binary (.pb) and text (.pbtxt,
// .txt) form, chosen by each name's extension; with --strip-default-attrs, every attr whose value
// equals its op's OpDef default (sg's registry, SG_GetAllOpList) is dropped from the graph's
// nodes and its functions' nodes, as TensorFlow's strip_default_attrs does. Attrs of ops the
// registry does not have (functions, unknown ops) are left.
#ifndef SG_TOOLS_CONVERT_CMD_H_
#define SG_TOOLS_CONVERT_CMD_H_

#include <string>
#include <vector>

#include <google/protobuf/message.h>

namespace sg_tool {

// `args` are the arguments after "convert". Returns the exit code; errors print one line.
int ConvertMain(const std::vector<std::string>& args);

// Drops the default-valued attrs of `graph_def` (an sg.GraphDef) in place and returns how many
// it dropped.
int StripDefaultAttrs(google::protobuf::Message* graph_def);

}  // namespace sg_tool

#endif  // SG_TOOLS_CONVERT_CMD_H_
