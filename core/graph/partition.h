// Partition: splits a placed graph into one GraphDef per device, replacing every edge between
// devices by a _Send/_Recv pair keyed with TensorFlow's rendezvous key fields.
#ifndef SG_CORE_GRAPH_PARTITION_H_
#define SG_CORE_GRAPH_PARTITION_H_

#include <functional>
#include <map>
#include <string>

#include "core/graph/graph.h"
#include "core/proto/graph.pb.h"

namespace sg {

struct PartitionOptions {
  // The incarnation of a device, written into _Send/_Recv attrs.
  std::function<uint64_t(const std::string& device)> get_incarnation;
};

// The partitioner cannot cut an edge into or out of a control-flow node (Switch, Merge, Enter,
// Exit, NextIteration). Where placement put the two ends of such a data edge on different devices
// (typically a fetch of a loop's Exit or a cond's Merge on another device), an Identity on the
// control-flow node's device takes the edge's place there, so that the cut falls between
// ordinary nodes. Every node must have an assigned device; the Identities get theirs.
absl::Status BridgeControlFlowEdges(Graph* g);

// Every node must have an assigned device. Edges between devices inside a while loop are not
// supported (UNIMPLEMENTED); the placer keeps a loop's nodes on one device when it can.
absl::Status PartitionGraph(const Graph& g, const PartitionOptions& options,
                            std::map<std::string, GraphDef>* partitions);

}  // namespace sg

#endif  // SG_CORE_GRAPH_PARTITION_H_
