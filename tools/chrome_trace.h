// A step's RunMetadata as a Chrome trace (the trace-event JSON format chrome://tracing and
// Perfetto load), for `sg run --trace FILE.json`.
//
//   std::string json, error;
//   if (!sg_tool::RunMetadataToChromeTrace(run_metadata_bytes, &json, &error)) ...;
//
// What it writes, from RunMetadata.step_stats (TensorFlow's step_stats.proto):
//   - one process (pid 1, 2, ...) per DeviceStepStats, named by a "process_name" metadata event
//     ("ph":"M") with the device's full name, and one thread (tid = NodeExecStats.thread_id) per
//     thread that ran its nodes, named by "thread_name" (DeviceStepStats.thread_names, else
//     "thread N");
//   - one complete event ("ph":"X") per NodeExecStats: name = the node's name, cat = its op
//     (from the timeline label "name = Op(inputs)"), ts and dur in microseconds (from the
//     nanosecond fields when set), ts counted from the step's earliest start; args: name, op,
//     inputs, outputs ("float32[3,10]" per output slot) and output_bytes;
//   - for each _Send/_Recv (or _HostSend/_HostRecv) pair, a flow ("ph":"s" on the send's slice at
//     its start, "ph":"f","bp":"e" on the receive's slice at its end) with a shared id. Pairs are
//     matched by rendezvous key (send_device;recv_device;tensor_name) read from
//     RunMetadata.partition_graphs when present (RunOptions.output_partition_graphs), else by node
//     name with its "/_send" or "/_recv" suffix removed (sg's partitioner names both ends
//     "edge_<id>_<src>/_send" and ".../_recv"); the k-th send of a key pairs with its k-th receive.
//
// Errors: false with a one-line `error` when the bytes are not a RunMetadata or it holds no step
// statistics (RunOptions.trace_level was NO_TRACE). Pure function: thread-safe; links without libsg.
#ifndef SG_TOOLS_CHROME_TRACE_H_
#define SG_TOOLS_CHROME_TRACE_H_

#include <string>

namespace sg_tool {

bool RunMetadataToChromeTrace(const std::string& run_metadata, std::string* json,
                              std::string* error);

// A serialized RunOptions asking for what the trace needs: trace_level FULL_TRACE and
// output_partition_graphs (for the rendezvous keys of the Send/Recv pairs).
std::string TraceRunOptions();

// Converts `run_metadata` and writes the JSON to `path`; false with `error` as above or when the
// file cannot be written.
bool WriteChromeTrace(const std::string& path, const std::string& run_metadata,
                      std::string* error);

}  // namespace sg_tool

#endif  // SG_TOOLS_CHROME_TRACE_H_
