#include "core/graph/placer.h"

#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <numeric>

#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "core/framework/device_name.h"
#include "core/graph/union_find.h"

namespace sg {
namespace {

// The first device matching `request`; with soft placement, the first of its job and task; else
// `fallback`.
std::string MatchDevice(const ParsedDeviceName& request, const std::vector<std::string>& devices,
                        const std::vector<ParsedDeviceName>& parsed, const std::string& fallback) {
  for (size_t i = 0; i < devices.size(); ++i) {
    if (parsed[i].Matches(request)) return devices[i];
  }
  ParsedDeviceName loose = request;
  loose.has_type = loose.has_id = false;
  for (size_t i = 0; i < devices.size(); ++i) {
    if (parsed[i].Matches(loose)) return devices[i];
  }
  return fallback;
}


// PlacerOptions::round_robin: the device of each group without a request, by group.
std::function<std::string(const Node*)> RoundRobinPlacement(
    const Graph& g, const std::vector<std::string>& devices) {
  const int n = g.num_node_ids();
  UnionFind uf(n);
  const std::vector<Node*> nodes = g.nodes();
  for (Node* node : nodes) {
    auto cls = node->def().attr().find("_class");
    if (cls != node->def().attr().end()) {
      for (const std::string& c : cls->second.list().s()) {
        if (!absl::StartsWith(c, "loc:@")) continue;
        if (Node* other = g.FindNode(c.substr(5))) uf.Union(node->id(), other->id());
      }
    }
    const bool cf = node->IsControlFlow() || node->IsLoopCond();
    for (const Edge* e : node->in_edges()) {
      if (cf || e->src->IsControlFlow() || e->src->IsLoopCond()) {
        uf.Union(node->id(), e->src->id());
        continue;
      }
      if (e->IsControlEdge()) continue;
      DataType t = e->src->output_type(e->src_output);
      if (IsRefType(t) || t == DT_RESOURCE) uf.Union(node->id(), e->src->id());
    }
  }
  // While-loop frames: each node's depth and outermost frame, found from the roots forward.
  std::vector<int> depth(n, 0);
  std::vector<std::string> outer(n);
  std::vector<bool> seen(n, false);
  std::vector<Node*> queue;
  for (Node* node : nodes) {
    if (node->in_edges().empty()) {
      seen[node->id()] = true;
      queue.push_back(node);
    }
  }
  for (size_t q = 0; q < queue.size(); ++q) {
    Node* src = queue[q];
    int d = depth[src->id()];
    std::string o = outer[src->id()];
    if (src->IsEnter()) {
      if (d == 0) {
        auto it = src->def().attr().find("frame_name");
        o = it != src->def().attr().end() ? it->second.s() : src->name();
        o = "frame:" + o;
      }
      ++d;
    } else if (src->IsExit()) {
      d = std::max(0, d - 1);
      if (d == 0) o.clear();
    }
    for (const Edge* e : src->out_edges()) {
      Node* dst = e->dst;
      if (seen[dst->id()]) continue;
      seen[dst->id()] = true;
      depth[dst->id()] = d;
      outer[dst->id()] = o;
      queue.push_back(dst);
    }
  }
  std::map<std::string, int> frame_member;
  for (Node* node : nodes) {
    const std::string& o = outer[node->id()];
    if (o.empty()) continue;
    auto [it, inserted] = frame_member.emplace(o, node->id());
    if (!inserted) uf.Union(node->id(), it->second);
  }

  struct State {
    std::vector<int> root;
    std::map<int, ParsedDeviceName> request;
    std::map<int, std::string> chosen;
    std::vector<std::string> devices;
    std::vector<ParsedDeviceName> parsed;
    size_t next = 0;
  };
  auto st = std::make_shared<State>();
  st->root.assign(n, -1);
  st->devices = devices;
  for (const std::string& d : devices) {
    ParsedDeviceName p;
    ParsedDeviceName::Parse(d, &p);
    st->parsed.push_back(p);
  }
  for (Node* node : nodes) {
    int r = uf.Find(node->id());
    st->root[node->id()] = r;
    ParsedDeviceName p;
    if (!node->requested_device().empty() &&
        ParsedDeviceName::Parse(node->requested_device(), &p) && !st->request.count(r)) {
      st->request[r] = p;
    }
  }
  return [st](const Node* node) -> std::string {
    int r = node->id() < st->root.size() ? st->root[node->id()] : -1;
    if (r < 0) return st->devices[st->next++ % st->devices.size()];
    auto it = st->chosen.find(r);
    if (it != st->chosen.end()) return it->second;
    std::string device;
    auto req = st->request.find(r);
    if (req != st->request.end()) {
      device = MatchDevice(req->second, st->devices, st->parsed, st->devices[0]);
    } else {
      device = st->devices[st->next++ % st->devices.size()];
    }
    st->chosen[r] = device;
    return device;
  };
}

}  // namespace

absl::Status PlaceGraph(Graph* g, const std::vector<std::string>& devices,
                        const PlacerOptions& options) {
  if (devices.empty()) return errors::Internal("no devices to place on");
  std::vector<ParsedDeviceName> parsed(devices.size());
  for (size_t i = 0; i < devices.size(); ++i) ParsedDeviceName::Parse(devices[i], &parsed[i]);
  const std::string& default_device =
      options.default_device.empty() ? devices[0] : options.default_device;
  std::function<std::string(const Node*)> round_robin;
  if (options.round_robin) round_robin = RoundRobinPlacement(*g, devices);

  UnionFind groups(g->num_node_ids());
  for (Node* n : g->nodes()) {
    auto it = n->def().attr().find("_class");
    if (it != n->def().attr().end()) {
      for (const std::string& c : it->second.list().s()) {
        if (!absl::StartsWith(c, "loc:@")) continue;
        Node* other = g->FindNode(c.substr(5));
        if (other != nullptr) groups.Union(n->id(), other->id());
      }
    }
    for (const Edge* e : n->in_edges()) {
      if (e->IsControlEdge()) continue;
      // As TensorFlow: a consumer that takes a reference (Assign) or a resource handle must run
      // where the variable lives; one that reads a reference as a value may run anywhere.
      DataType t = n->input_type(e->dst_input);
      if (IsRefType(t) || t == DT_RESOURCE) groups.Union(n->id(), e->src->id());
    }
  }
  // Each group's request: the merge of its members' requests.
  std::map<int, ParsedDeviceName> request;
  std::map<int, const Node*> requester;
  for (Node* n : g->nodes()) {
    const std::string& dev = n->requested_device();
    if (dev.empty()) continue;
    ParsedDeviceName p;
    if (!ParsedDeviceName::Parse(dev, &p)) {
      return errors::InvalidArgument("node '", n->name(), "' has a malformed device '", dev, "'");
    }
    int root = groups.Find(n->id());
    auto it = request.find(root);
    if (it == request.end()) {
      request[root] = p;
      requester[root] = n;
      continue;
    }
    ParsedDeviceName& r = it->second;
    bool conflict = (p.has_job && r.has_job && p.job != r.job) ||
                    (p.has_task && r.has_task && p.task != r.task) ||
                    (p.has_type && r.has_type && p.type != r.type) ||
                    (p.has_id && r.has_id && p.id != r.id);
    if (conflict && !options.allow_soft_placement) {
      return errors::InvalidArgument("Cannot colocate nodes '", n->name(), "' (device '", dev,
                                     "') and '", requester[root]->name(), "' (device '",
                                     requester[root]->requested_device(), "')");
    }
    if (!conflict) r.MergeFrom(p);
  }
  std::map<int, std::string> chosen;
  for (Node* n : g->nodes()) {
    int root = groups.Find(n->id());
    auto c = chosen.find(root);
    if (c != chosen.end()) {
      n->set_assigned_device_name(c->second);
      continue;
    }
    std::string device;
    auto r = request.find(root);
    if (r == request.end()) {
      device = round_robin ? round_robin(n) : default_device;
    } else {
      for (size_t i = 0; i < devices.size() && device.empty(); ++i) {
        if (parsed[i].Matches(r->second)) device = devices[i];
      }
      if (device.empty() && options.allow_soft_placement) {
        // Keep the job and task if they exist; drop the device type and index.
        ParsedDeviceName loose = r->second;
        loose.has_type = loose.has_id = false;
        for (size_t i = 0; i < devices.size() && device.empty(); ++i) {
          if (parsed[i].Matches(loose)) device = devices[i];
        }
        if (device.empty()) device = default_device;
      }
      if (device.empty()) {
        return errors::InvalidArgument(
            "Cannot assign a device for operation '", requester[root]->name(),
            "': Could not satisfy explicit device specification '",
            requester[root]->requested_device(),
            "' because no devices matching that specification are registered in this process; "
            "available devices: ",
            absl::StrJoin(devices, ", "));
      }
    }
    chosen[root] = device;
    n->set_assigned_device_name(device);
  }
  if (options.log_device_placement) {
    for (Node* n : g->nodes()) {
      std::fprintf(stderr, "%s: (%s): %s\n", n->name().c_str(), n->type_string().c_str(),
                   n->assigned_device_name().c_str());
    }
  }
  return absl::OkStatus();
}

}  // namespace sg
