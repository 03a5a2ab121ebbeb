// The run loop of `sg run`, shared by GraphDef runs (sg_main.cc) and SavedModel runs
// (saved_model_cmd.cc): one step repeated N times with its latency measured and a progress line on
// a terminal, the last run traced when a Chrome trace or the partition graphs are asked for, and
// what --repeat, --trace and --partition-dot print or write afterwards.
//
//   sg_tool::Step step{session, feeds, values, fetches, {}};
//   sg_tool::StepResult r = sg_tool::RunStep(step, repeat, /*trace_last=*/!trace.empty());
//   if (r.code != SG_OK) ...;                           // the first failed run's status
//   sg_tool::WriteRunViews(r.run_metadata, trace, partition_dot, title);
//   ... r.outputs[i].get() ...
//   if (repeat > 1) sg_tool::PrintRepeatStats(r.micros, values);
//
// Thread safety: one caller at a time per session (the progress line is on stderr).
#ifndef SG_TOOLS_STEP_RUNNER_H_
#define SG_TOOLS_STEP_RUNNER_H_

#include <memory>
#include <string>
#include <vector>

#include "sg/c_api.h"

namespace sg_tool {

// One step of a session. Everything is borrowed.
struct Step {
  SG_Session* session = nullptr;
  std::vector<SG_Output> feeds;
  std::vector<SG_Tensor*> values;  // one per feed
  std::vector<SG_Output> fetches;
  std::vector<const SG_Operation*> targets;
};

struct TensorDeleter {
  void operator()(SG_Tensor* t) const { SG_DeleteTensor(t); }
};

struct StepResult {
  SG_Code code = SG_OK;  // of the first run that failed; the runs stop there
  std::string message;
  std::vector<std::unique_ptr<SG_Tensor, TensorDeleter>> outputs;  // of the last run, one per fetch
  std::vector<double> micros;  // each timed run's wall time, in microseconds
  std::string run_metadata;    // the last run's RunMetadata when it was traced, else empty
};

// The N of --repeat N: a count from 1 to 100000000. Errors: CmdFail, INVALID_ARGUMENT.
int ParseRepeat(const std::string& text);

// Runs `step` `repeat` (>= 1) times with SG_SessionRun. With `trace_last`, one run asks for
// FULL_TRACE and the partition graphs (TraceRunOptions of tools/chrome_trace.h): the only run
// when `repeat` is 1, else one more after the `repeat` timed ones, so that tracing does not slow
// the runs --repeat measures (`micros` holds the timed runs only). Shows a progress line on stderr, rewritten at
// most 4 times a second, when stderr is a terminal and `repeat` > 1.
StepResult RunStep(const Step& step, int repeat, bool trace_last);

// Writes the views of a traced run: a Chrome trace to `trace` and the partition graphs drawn to
// `partition_dot` (tools/dot_output.h, titled `title`), each skipped when its path is empty.
// Errors: CmdFail (tools/cmd_error.h) naming the option.
void WriteRunViews(const std::string& run_metadata, const std::string& trace,
                   const std::string& partition_dot, const std::string& title);

// Prints the latency percentiles of `micros` (one per run, not empty) and the throughput, in
// items too when every feed has a first dimension of the same size (the batch):
//   runs: 100  min: 41.0 us  p50: 45.2 us  p90: 51.9 us  p99: 80.3 us
//   throughput: 21876.4 runs/s  7875504.0 items/s (batch 360)
void PrintRepeatStats(const std::vector<double>& micros, const std::vector<SG_Tensor*>& feeds);

}  // namespace sg_tool

#endif  // SG_TOOLS_STEP_RUNNER_H_
