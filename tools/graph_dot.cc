#include "tools/graph_dot.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace sg_tool {
namespace {

std::vector<std::string> SplitScope(const std::string& name) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    const size_t slash = name.find('/', start);
    parts.push_back(name.substr(start, slash == std::string::npos ? std::string::npos : slash - start));
    if (slash == std::string::npos) return parts;
    start = slash + 1;
  }
}

std::string Join(const std::vector<std::string>& parts, size_t n) {
  std::string s;
  for (size_t i = 0; i < n && i < parts.size(); ++i) s += (i ? "/" : "") + parts[i];
  return s;
}

std::string Quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

// What one box stands for: a node, or (collapsed) every node below a scope.
struct Box {
  std::string id, label;
  bool group = false;
  int count = 0;
  std::vector<std::string> cluster;  // the nested clusters it sits in, outermost first
};

// A cluster and the boxes and clusters inside it.
struct Cluster {
  std::string label;
  std::vector<const Box*> boxes;
  std::map<std::string, std::unique_ptr<Cluster>> children;
};

void EmitCluster(const Cluster& c, int indent, int* next_id, std::string* out) {
  const std::string pad(indent, ' ');
  for (const Box* b : c.boxes) {
    *out += pad + Quote(b->id) + " [label=" + Quote(b->label) +
            (b->group ? ", shape=box3d" : "") + "];\n";
  }
  for (const auto& [name, child] : c.children) {
    *out += pad + "subgraph cluster_" + std::to_string((*next_id)++) + " {\n";
    *out += pad + "  label=" + Quote(child->label) + ";\n";
    EmitCluster(*child, indent + 2, next_id, out);
    *out += pad + "}\n";
  }
}

}  // namespace

DotInput ParseDotInput(const std::string& input) {
  DotInput in;
  if (!input.empty() && input[0] == '^') {
    in.src = input.substr(1);
    in.control = true;
    return in;
  }
  in.src = input;
  const size_t colon = input.rfind(':');
  if (colon != std::string::npos && colon + 1 < input.size()) {
    char* end;
    const long v = std::strtol(input.c_str() + colon + 1, &end, 10);
    if (*end == '\0') {
      in.src = input.substr(0, colon);
      in.src_output = static_cast<int>(v);
    }
  }
  return in;
}

std::string GraphToDot(const std::vector<DotNode>& nodes, const DotOptions& options) {
  const bool grouped = static_cast<int>(nodes.size()) > options.cluster_threshold;
  std::vector<std::vector<std::string>> parts;
  for (const DotNode& n : nodes) parts.push_back(SplitScope(n.name));

  // The deepest scope depth that still leaves at most cluster_threshold boxes.
  auto boxes_at = [&](size_t depth) {
    std::set<std::string> groups;
    size_t singles = 0;
    for (const auto& p : parts) {
      if (p.size() - 1 <= depth) {
        ++singles;
      } else {
        groups.insert(Join(p, depth + 1));
      }
    }
    return singles + groups.size();
  };
  size_t depth = 0;
  if (grouped) {
    size_t max_depth = 0;
    for (const auto& p : parts) max_depth = std::max(max_depth, p.size() - 1);
    while (depth < max_depth &&
           boxes_at(depth + 1) <= static_cast<size_t>(options.cluster_threshold)) {
      ++depth;
    }
  }

  // Boxes, and the box of each node.
  std::map<std::string, Box> boxes;
  std::vector<std::string> box_of(nodes.size());
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < nodes.size(); ++i) {
    const DotNode& n = nodes[i];
    const auto& p = parts[i];
    index[n.name] = i;
    if (!grouped) {
      Box& b = boxes[n.name];
      b.id = n.name;
      b.label = n.name + "\n" + n.op;
      if (options.group_by_device && !n.device.empty()) b.cluster = {n.device};
      box_of[i] = n.name;
    } else if (p.size() - 1 <= depth) {
      Box& b = boxes[n.name];
      b.id = n.name;
      b.label = p.back() + "\n" + n.op;
      b.cluster.assign(p.begin(), p.end() - 1);
      box_of[i] = n.name;
    } else {
      const std::string id = Join(p, depth + 1);
      Box& b = boxes[id];
      b.id = id;
      b.group = true;
      ++b.count;
      b.label = p[depth] + "/\n(" + std::to_string(b.count) + " ops)";
      b.cluster.assign(p.begin(), p.begin() + depth);
      box_of[i] = id;
    }
  }

  std::string out = "digraph G {\n  rankdir=TB;\n  node [shape=box, fontname=\"Helvetica\"];\n";
  if (!options.title.empty()) out += "  label=" + Quote(options.title) + ";\n  labelloc=t;\n";
  Cluster root;
  for (const auto& [id, b] : boxes) {
    Cluster* c = &root;
    std::string path;
    for (const std::string& part : b.cluster) {
      path += (path.empty() ? "" : "/") + part;
      std::unique_ptr<Cluster>& child = c->children[part];
      if (!child) {
        child = std::make_unique<Cluster>();
        child->label = grouped ? path : part;
      }
      c = child.get();
    }
    c->boxes.push_back(&b);
  }
  int next_id = 0;
  EmitCluster(root, 2, &next_id, &out);

  // Edges: (src box, dst box, control, output index) -> count; in a grouped graph the output
  // index is not kept, so that all edges between two boxes merge into one.
  std::map<std::tuple<std::string, std::string, bool, int>, int> edges;
  std::map<std::pair<std::string, std::string>, std::string> transfers;
  std::set<std::string> external;
  for (size_t i = 0; i < nodes.size(); ++i) {
    for (const DotInput& in : nodes[i].inputs) {
      if (!in.transfer.empty()) {
        auto it = index.find(in.src);
        if (it != index.end() && box_of[it->second] != box_of[i]) {
          transfers[{box_of[it->second], box_of[i]}] = in.transfer;
        }
        continue;
      }
      auto it = index.find(in.src);
      std::string src;
      if (it == index.end()) {
        src = in.src;
        external.insert(src);
      } else {
        src = box_of[it->second];
      }
      if (src == box_of[i]) continue;
      ++edges[{src, box_of[i], in.control, grouped || in.control ? 0 : in.src_output}];
    }
  }
  for (const std::string& e : external) out += "  " + Quote(e) + " [shape=ellipse];\n";
  for (const auto& [key, count] : edges) {
    const auto& [src, dst, control, output] = key;
    std::string attrs;
    if (control) attrs = "style=dashed";
    if (grouped && count > 1) {
      attrs += std::string(attrs.empty() ? "" : ", ") + "label=\"x" + std::to_string(count) + "\"";
    } else if (!control && !grouped) {
      attrs = "label=\"" + std::to_string(output) + "\"";
    }
    out += "  " + Quote(src) + " -> " + Quote(dst) + (attrs.empty() ? "" : " [" + attrs + "]") +
           ";\n";
  }
  for (const auto& [ends, name] : transfers) {
    out += "  " + Quote(ends.first) + " -> " + Quote(ends.second) +
           " [style=bold, color=red, label=" + Quote(name) + "];\n";
  }
  out += "}\n";
  return out;
}

}  // namespace sg_tool
