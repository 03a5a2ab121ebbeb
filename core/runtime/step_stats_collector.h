// StepStatsCollector: what the nodes of one step did, for RunMetadata.step_stats, as TensorFlow's
// collector of the same name gathers it when RunOptions.trace_level is above NO_TRACE. The
// executors of the step each add a NodeExecStats per kernel they ran (Executor::Args); the session
// then moves them into the step's RunMetadata.
//
//   StepStatsCollector collector;
//   args.stats_collector = &collector;            // every executor of the step
//   ... the step runs ...
//   collector.Finalize(run_metadata->mutable_step_stats());
//
// Thread-safe: Save may be called from any thread while the step runs.
#ifndef SG_CORE_RUNTIME_STEP_STATS_COLLECTOR_H_
#define SG_CORE_RUNTIME_STEP_STATS_COLLECTOR_H_

#include <map>
#include <string>
#include <vector>

#include "core/util/mutex.h"
#include "core/proto/step_stats.pb.h"

namespace sg {

class StepStatsCollector {
 public:
  // Records one kernel run on `device` (a full device name).
  void Save(const std::string& device, NodeExecStats stats);
  // Appends one DeviceStepStats per device to `out` (devices by name, nodes in the order they
  // finished) and empties the collector.
  void Finalize(StepStats* out);

 private:
  mutex mu_;
  std::map<std::string, std::vector<NodeExecStats>> by_device_ ABSL_GUARDED_BY(mu_);
};

}  // namespace sg

#endif  // SG_CORE_RUNTIME_STEP_STATS_COLLECTOR_H_
