// The errors of the sg tool's commands (sg_main.cc and the subcommands in their own files): a
// code and a one-line message, thrown by CmdFail and turned into "sg: CODE: message" on stderr
// and exit code 1 by Guarded (main() and each subcommand's entry point call it).
#ifndef SG_TOOLS_CMD_ERROR_H_
#define SG_TOOLS_CMD_ERROR_H_

#include <cstdio>
#include <string>

#include "sg/c_api.h"

namespace sg_tool {

struct CmdError {
  SG_Code code;
  std::string message;
};

[[noreturn]] inline void CmdFail(SG_Code code, const std::string& message) {
  throw CmdError{code, message};
}

inline const char* CmdCodeName(SG_Code code) {
  static const char* const kNames[] = {
      "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
      "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
      "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS",
      "UNAUTHENTICATED"};
  const int c = static_cast<int>(code);
  return c >= 0 && c <= 16 ? kNames[c] : "UNKNOWN";
}

template <typename Fn>
int Guarded(Fn&& fn) {
  try {
    return fn();
  } catch (const CmdError& e) {
    std::string message = e.message;
    for (char& c : message) {
      if (c == '\n') c = ' ';
    }
    std::fprintf(stderr, "sg: %s: %s\n", CmdCodeName(e.code), message.c_str());
    return 1;
  }
}

}  // namespace sg_tool

#endif  // SG_TOOLS_CMD_ERROR_H_
