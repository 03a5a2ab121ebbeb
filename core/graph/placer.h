// Placer: gives every node of a graph a device from a list, honouring requested (possibly
// partial) device names, colocation (`_class` "loc:@name"), and keeping a variable's reference and
// resource consumers with it. Soft placement falls back to the default device when a request
// cannot be met.
#ifndef SG_CORE_GRAPH_PLACER_H_
#define SG_CORE_GRAPH_PLACER_H_

#include <functional>
#include <string>
#include <vector>

#include "core/graph/graph.h"

namespace sg {

struct PlacerOptions {
  bool allow_soft_placement = false;
  bool log_device_placement = false;
  // Where unconstrained nodes go; must be one of the devices. Empty: the first device.
  std::string default_device;
  // For tests of partitioning: groups of nodes without a request go to the devices in turn
  // instead of the default device, so that tensors cross devices (and tasks). A group keeps
  // colocated nodes, reference and resource consumers, and each outermost while loop together.
  bool round_robin = false;
};

// Sets node->assigned_device_name() for every node. INVALID_ARGUMENT naming the node when a
// request matches no device (and soft placement is off) or two colocated nodes ask for different
// devices.
absl::Status PlaceGraph(Graph* g, const std::vector<std::string>& devices,
                        const PlacerOptions& options);

}  // namespace sg

#endif  // SG_CORE_GRAPH_PLACER_H_
