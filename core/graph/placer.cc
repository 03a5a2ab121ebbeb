#include "core/graph/placer.h"

#include <cstdio>
#include <numeric>

#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "core/framework/device_name.h"
#include "core/graph/union_find.h"

namespace sg {

absl::Status PlaceGraph(Graph* g, const std::vector<std::string>& devices,
                        const PlacerOptions& options) {
  if (devices.empty()) return errors::Internal("no devices to place on");
  std::vector<ParsedDeviceName> parsed(devices.size());
  for (size_t i = 0; i < devices.size(); ++i) ParsedDeviceName::Parse(devices[i], &parsed[i]);
  const std::string& default_device =
      options.default_device.empty() ? devices[0] : options.default_device;

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
      device = options.unconstrained_device ? options.unconstrained_device(n) : default_device;
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
