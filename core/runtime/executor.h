// Executor: runs one partition graph on one device, once per step, as TensorFlow's executor
// does: nodes run when their inputs are ready, in parallel on the inter-op pool; v1 control flow
// (frames and iterations for Enter/Exit/NextIteration, Switch/Merge) with dead-tensor
// propagation, at most an Enter's parallel_iterations iterations of a loop in flight at once (the
// next one starts when the oldest is done); control edges. Asynchronous at the core (RunAsync) with a blocking Run on top.
// Thread safety: one Executor may run many steps at once; each step has its own state.
#ifndef SG_CORE_RUNTIME_EXECUTOR_H_
#define SG_CORE_RUNTIME_EXECUTOR_H_

#include <functional>
#include <memory>

#include "core/framework/cancellation.h"
#include "core/framework/device.h"
#include "core/framework/op_kernel.h"
#include "core/framework/rendezvous.h"
#include "core/graph/graph.h"

namespace sg {

class StepStatsCollector;  // core/runtime/step_stats_collector.h

class Executor {
 public:
  struct Args {
    int64_t step_id = 0;
    Rendezvous* rendezvous = nullptr;
    CallFrameInterface* call_frame = nullptr;
    CancellationManager* cancellation_manager = nullptr;
    ResourceMgr* step_resources = nullptr;
    // Runs a closure on the inter-op pool; empty runs closures inline.
    std::function<void(std::function<void()>)> runner;
    // When set, every kernel run is recorded in it (RunOptions.trace_level); when null nothing
    // is timed or recorded.
    StepStatsCollector* stats_collector = nullptr;
  };
  using DoneCallback = std::function<void(const absl::Status&)>;

  virtual ~Executor() = default;
  // Runs one step; `done` gets OK or the first error (with the failing node's name). Everything
  // `args` points to must live until `done` runs.
  virtual void RunAsync(const Args& args, DoneCallback done) = 0;
  absl::Status Run(const Args& args);
  // The graph the executor runs (for RunMetadata.partition_graphs).
  virtual const Graph& graph() const = 0;
};

// Makes an executor for `graph` (every node placed on `device`), creating its kernels now:
// NOT_FOUND when an op has no kernel, the kernel's constructor error otherwise, INVALID_ARGUMENT
// for malformed control flow.
absl::StatusOr<std::unique_ptr<Executor>> NewLocalExecutor(Device* device,
                                                           std::unique_ptr<const Graph> graph);

}  // namespace sg

#endif  // SG_CORE_RUNTIME_EXECUTOR_H_
