#include "tools/dot_output.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tools/graph_dot.h"
#include "tools/proto_types.h"
#include "tools/proto_wire.h"

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
      DotInput in;
      in.src = SG_OperationName(src.oper);
      in.src_output = src.index;
      n.inputs.push_back(in);
    }
    std::vector<SG_Operation*> control(SG_OperationNumControlInputs(op));
    SG_OperationGetControlInputs(op, control.data(), static_cast<int>(control.size()));
    for (SG_Operation* c : control) {
      DotInput in;
      in.src = SG_OperationName(c);
      in.control = true;
      n.inputs.push_back(in);
    }
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

// Writes dot `text` to `path`: as it is for .dot/.gv, through Graphviz's dot for .svg.
SG_Code WriteDot(const std::string& text, const std::string& path, std::string* error) {
  const bool svg = EndsWith(path, ".svg");
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

bool CheckName(const std::string& path, std::string* error) {
  if (EndsWith(path, ".svg") || EndsWith(path, ".dot") || EndsWith(path, ".gv")) return true;
  *error = "--dot '" + path + "': the name must end in .dot (Graphviz text) or .svg";
  return false;
}

bool IsSend(const std::string& op) { return op == "_Send" || op == "_HostSend"; }
bool IsRecv(const std::string& op) { return op == "_Recv" || op == "_HostRecv"; }

// A node of a partition graph, with the rendezvous key ("send_device;recv_device;tensor_name")
// that pairs a _Send with its _Recv (";;" for other nodes).
struct PartitionNode {
  DotNode node;
  std::string key;
};
struct Partition {
  std::vector<PartitionNode> nodes;
};

// The string attr `key` of NodeDef `node`, or "".
std::string StringAttr(const google::protobuf::Message& node, const std::string& key) {
  const auto* r = node.GetReflection();
  const auto* f = Field(node, "attr");
  for (int i = 0; i < r->FieldSize(node, f); ++i) {
    const auto& e = r->GetRepeatedMessage(node, f, i);
    if (e.GetReflection()->GetString(e, Field(e, "key")) != key) continue;
    const auto& v = e.GetReflection()->GetMessage(e, Field(e, "value"));
    return v.GetReflection()->GetString(v, Field(v, "s"));
  }
  return "";
}

// The graphs of RunMetadata.partition_graphs, in order. Errors: SG_INVALID_ARGUMENT when there
// are none or the metadata is malformed, SG_INTERNAL when a graph does not parse.
SG_Code ReadPartitions(const std::string& run_metadata, std::vector<Partition>* out,
                       std::string* error) {
  WireReader r(run_metadata);
  WireField f;
  while (r.Next(&f)) {
    if (f.number != 3 || f.type != 2) continue;  // RunMetadata.partition_graphs
    auto graph = NewMessage("sg.GraphDef");
    if (!graph->ParseFromArray(f.bytes.data(), static_cast<int>(f.bytes.size()))) {
      *error = "a partition graph does not parse";
      return SG_INTERNAL;
    }
    Partition& p = out->emplace_back();
    const auto* gr = graph->GetReflection();
    const auto* node_f = Field(*graph, "node");
    for (int i = 0; i < gr->FieldSize(*graph, node_f); ++i) {
      const auto& node = gr->GetRepeatedMessage(*graph, node_f, i);
      const auto* nr = node.GetReflection();
      PartitionNode& n = p.nodes.emplace_back();
      n.node.name = nr->GetString(node, Field(node, "name"));
      n.node.op = nr->GetString(node, Field(node, "op"));
      n.node.device = nr->GetString(node, Field(node, "device"));
      const auto* in_f = Field(node, "input");
      for (int k = 0; k < nr->FieldSize(node, in_f); ++k) {
        n.node.inputs.push_back(ParseDotInput(nr->GetRepeatedString(node, in_f, k)));
      }
      n.key = StringAttr(node, "send_device") + ";" + StringAttr(node, "recv_device") + ";" +
              StringAttr(node, "tensor_name");
    }
  }
  if (!r.ok()) {
    *error = "the RunMetadata with the partition graphs is malformed";
    return SG_INVALID_ARGUMENT;
  }
  if (out->empty()) {
    *error = "the RunMetadata holds no partition graphs";
    return SG_INVALID_ARGUMENT;
  }
  return SG_OK;
}

}  // namespace

SG_Code WriteGraphDot(SG_Graph* graph, const std::string& path, const std::string& title,
                      std::string* error) {
  if (!CheckName(path, error)) return SG_INVALID_ARGUMENT;
  DotOptions options;
  options.title = title;
  return WriteDot(GraphToDot(Nodes(graph), options), path, error);
}

SG_Code WritePartitionsDot(const std::string& run_metadata, const std::string& path,
                           const std::string& title, std::string* error) {
  if (!CheckName(path, error)) return SG_INVALID_ARGUMENT;
  std::vector<Partition> partitions;
  const SG_Code code = ReadPartitions(run_metadata, &partitions, error);
  if (code != SG_OK) return code;
  std::vector<DotNode> nodes;
  std::map<std::string, std::string> send_of;  // rendezvous key -> the _Send's name
  std::vector<std::pair<size_t, std::string>> recvs;  // (node index, key)
  for (Partition& p : partitions) {
    for (PartitionNode& n : p.nodes) {
      if (IsSend(n.node.op)) send_of[n.key] = n.node.name;
      if (IsRecv(n.node.op)) recvs.emplace_back(nodes.size(), n.key);
      nodes.push_back(std::move(n.node));
    }
  }
  for (const auto& [i, key] : recvs) {
    auto s = send_of.find(key);
    if (s == send_of.end()) continue;  // fed by the client
    DotInput in;
    in.src = s->second;
    in.transfer = key.substr(key.rfind(';') + 1);
    nodes[i].inputs.push_back(in);
  }
  DotOptions options;
  options.title = title;
  options.group_by_device = true;
  options.cluster_threshold = 1 << 30;  // clusters by device, never by scope
  return WriteDot(GraphToDot(nodes, options), path, error);
}

SG_Code SummarizePartitions(const std::string& run_metadata, std::vector<PartitionSummary>* out,
                            std::string* error) {
  std::vector<Partition> partitions;
  const SG_Code code = ReadPartitions(run_metadata, &partitions, error);
  if (code != SG_OK) return code;
  out->clear();
  for (const Partition& p : partitions) {
    PartitionSummary sum;
    sum.nodes = static_cast<int>(p.nodes.size());
    for (const PartitionNode& n : p.nodes) {
      if (sum.device.empty()) sum.device = n.node.device;
      sum.sends += IsSend(n.node.op);
      sum.recvs += IsRecv(n.node.op);
    }
    out->push_back(std::move(sum));
  }
  return SG_OK;
}

}  // namespace sg_tool
