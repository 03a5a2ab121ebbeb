#include "tools/dot_output.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tools/graph_dot.h"

extern char** environ;

namespace sg_tool {
namespace {

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The full path of `program` on PATH, or "".
std::string FindOnPath(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::string dirs = path != nullptr ? path : "/usr/bin:/bin";
  size_t start = 0;
  for (;;) {
    const size_t colon = dirs.find(':', start);
    std::string dir = dirs.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    if (dir.empty()) dir = ".";
    const std::string candidate = dir + "/" + program;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
    if (colon == std::string::npos) return "";
    start = colon + 1;
  }
}

std::vector<DotNode> Nodes(SG_Graph* graph) {
  std::vector<DotNode> nodes;
  size_t pos = 0;
  while (SG_Operation* op = SG_GraphNextOperation(graph, &pos)) {
    DotNode n;
    n.name = SG_OperationName(op);
    n.op = SG_OperationOpType(op);
    n.device = SG_OperationDevice(op);
    for (int i = 0; i < SG_OperationNumInputs(op); ++i) {
      const SG_Output src = SG_OperationInput(SG_Input{op, i});
      n.inputs.push_back(DotInput{SG_OperationName(src.oper), src.index, false});
    }
    std::vector<SG_Operation*> control(SG_OperationNumControlInputs(op));
    SG_OperationGetControlInputs(op, control.data(), static_cast<int>(control.size()));
    for (SG_Operation* c : control) n.inputs.push_back(DotInput{SG_OperationName(c), 0, true});
    nodes.push_back(std::move(n));
  }
  return nodes;
}

bool WriteText(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  return static_cast<bool>(out);
}

}  // namespace

SG_Code WriteGraphDot(SG_Graph* graph, const std::string& path, const std::string& title,
                      std::string* error) {
  const bool svg = EndsWith(path, ".svg");
  if (!svg && !EndsWith(path, ".dot") && !EndsWith(path, ".gv")) {
    *error = "--dot '" + path + "': the name must end in .dot (Graphviz text) or .svg";
    return SG_INVALID_ARGUMENT;
  }
  DotOptions options;
  options.title = title;
  const std::string text = GraphToDot(Nodes(graph), options);
  if (!svg) {
    if (WriteText(path, text)) return SG_OK;
    *error = "cannot write '" + path + "'";
    return SG_INVALID_ARGUMENT;
  }
  const std::string dot = FindOnPath("dot");
  if (dot.empty()) {
    *error = "--dot " + path + " needs Graphviz's `dot` on PATH (Debian: apt-get install "
             "graphviz); or write the text with --dot FILE.dot";
    return SG_UNAVAILABLE;
  }
  // The text goes through a file beside the output, so that no shell quoting is involved.
  const std::string tmp = path + ".tmp.dot";
  if (!WriteText(tmp, text)) {
    *error = "cannot write '" + tmp + "'";
    return SG_INVALID_ARGUMENT;
  }
  const std::string out_arg = "-o" + path;
  std::vector<char*> argv = {const_cast<char*>(dot.c_str()), const_cast<char*>("-Tsvg"),
                             const_cast<char*>(out_arg.c_str()), const_cast<char*>(tmp.c_str()),
                             nullptr};
  pid_t pid;
  int rc = posix_spawn(&pid, dot.c_str(), nullptr, nullptr, argv.data(), environ);
  int wstatus = 0;
  if (rc == 0 && waitpid(pid, &wstatus, 0) < 0) rc = -1;
  std::remove(tmp.c_str());
  if (rc != 0 || !WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0) {
    *error = "Graphviz's dot (" + dot + ") failed to write '" + path + "'";
    return SG_INTERNAL;
  }
  return SG_OK;
}

}  // namespace sg_tool
