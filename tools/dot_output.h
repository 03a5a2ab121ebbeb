// `sg inspect --dot FILE.dot|FILE.svg`: an SG_Graph (or a step's partitions) drawn through
// tools/graph_dot.h, written as dot text, or as SVG by Graphviz's `dot` (Debian: graphviz) found
// on PATH.
//
//   std::string error;
//   SG_Code code = sg_tool::WriteGraphDot(graph, "g.svg", "model.pb", &error);
//
// Returns SG_OK, or: SG_INVALID_ARGUMENT when the name ends in neither .dot nor .svg or the file
// cannot be written; SG_UNAVAILABLE when .svg is asked for and `dot` is not on PATH (the message
// says to install graphviz or write .dot); SG_INTERNAL when `dot` fails. `graph` is borrowed.
// Not thread-safe with other users of `graph`.
#ifndef SG_TOOLS_DOT_OUTPUT_H_
#define SG_TOOLS_DOT_OUTPUT_H_

#include <string>
#include <vector>

#include "sg/c_api.h"

namespace sg_tool {

SG_Code WriteGraphDot(SG_Graph* graph, const std::string& path, const std::string& title,
                      std::string* error);

// `sg run --partition-dot FILE.dot|FILE.svg` and `sg inspect --partition --dot FILE`: draws the
// partition graphs of a step (RunMetadata.partition_graphs: a run returns them when
// RunOptions.output_partition_graphs asks, SG_SessionGetPartitionGraphs without running the
// step), one cluster per device, with each _Send joined to its _Recv (same send device, receive
// device and tensor name) by a bold red edge. Errors as WriteGraphDot, and SG_INVALID_ARGUMENT
// when the metadata is malformed or holds no partition graphs.
SG_Code WritePartitionsDot(const std::string& run_metadata, const std::string& path,
                           const std::string& title, std::string* error);

// One partition graph in a few numbers, for `sg inspect --partition`'s summary.
struct PartitionSummary {
  std::string device;  // of its nodes
  int nodes = 0;
  int sends = 0;  // _Send and _HostSend nodes
  int recvs = 0;  // _Recv and _HostRecv nodes
};

// Summarises the partition graphs of `run_metadata` (a serialized RunMetadata, from a traced run
// or SG_SessionGetPartitionGraphs), in their order. Errors: SG_INVALID_ARGUMENT when the
// metadata is malformed or holds no partition graphs, SG_INTERNAL when a graph does not parse.
SG_Code SummarizePartitions(const std::string& run_metadata, std::vector<PartitionSummary>* out,
                            std::string* error);

}  // namespace sg_tool

#endif  // SG_TOOLS_DOT_OUTPUT_H_
