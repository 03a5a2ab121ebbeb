// `sg run --saved_model DIR ...` and `sg inspect --saved_model DIR`: SavedModels through
// SG_LoadSessionFromSavedModel, with signature keys in place of tensor names.
//
//   sg run --saved_model DIR [--tag serve]... [--signature serving_default]
//          --input KEY=VALUES|@file.npy ... [--output KEY]... [--config KEY=VALUE] [--out DIR]
//          [--trace FILE.json]
//   sg inspect --saved_model DIR [--tag serve]... [--dot FILE.dot|FILE.svg]
//
// VALUES is as for `sg run` (tools/values.h: nested lists, quoted strings, or a comma list
// optionally after a shape "[2,1]:1,2"); for a flat comma list, a signature
// shape with one unknown dim takes its size from the number of values. Errors are thrown as the
// tool's Error (code and message), as in sg_main.cc.
#ifndef SG_TOOLS_SAVED_MODEL_CMD_H_
#define SG_TOOLS_SAVED_MODEL_CMD_H_

#include <string>
#include <vector>

namespace sg_tool {

// Whether the arguments after the command name ask for a SavedModel.
bool HasSavedModelFlag(const std::vector<std::string>& args);

// `args` are the arguments after "run" / "inspect". Return the exit code.
int RunSavedModel(const std::vector<std::string>& args);
int InspectSavedModel(const std::vector<std::string>& args);

}  // namespace sg_tool

#endif  // SG_TOOLS_SAVED_MODEL_CMD_H_
