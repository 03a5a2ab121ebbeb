#include "tools/step_runner.h"

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <unistd.h>

#include "tools/chrome_trace.h"
#include "tools/cmd_error.h"
#include "tools/dot_output.h"

namespace sg_tool {
namespace {

// The batch size of a run: dim 0 shared by every feed (all of rank >= 1), else 0 (none).
int64_t BatchSize(const std::vector<SG_Tensor*>& feeds) {
  int64_t batch = 0;
  for (const SG_Tensor* t : feeds) {
    if (SG_NumDims(t) < 1) return 0;
    const int64_t d = SG_Dim(t, 0);
    if (batch != 0 && d != batch) return 0;
    batch = d;
  }
  return batch;
}

// The nearest-rank percentile `p` (0 < p <= 100) of sorted `v` (not empty).
double Percentile(const std::vector<double>& v, double p) {
  size_t rank = static_cast<size_t>(std::ceil(p / 100.0 * static_cast<double>(v.size())));
  rank = std::min(std::max<size_t>(rank, 1), v.size());
  return v[rank - 1];
}

// PrintRepeatStats with the batch size known (0: none).
void PrintLatency(std::vector<double> micros, int64_t batch) {
  double total = 0;
  for (double m : micros) total += m;
  std::sort(micros.begin(), micros.end());
  std::printf("runs: %zu  min: %.1f us  p50: %.1f us  p90: %.1f us  p99: %.1f us\n", micros.size(),
              micros.front(), Percentile(micros, 50), Percentile(micros, 90),
              Percentile(micros, 99));
  const double runs_per_s = total > 0 ? static_cast<double>(micros.size()) * 1e6 / total : 0;
  std::printf("throughput: %.1f runs/s", runs_per_s);
  if (batch > 0) {
    std::printf("  %.1f items/s (batch %" PRId64 ")", runs_per_s * static_cast<double>(batch),
                batch);
  }
  std::printf("\n");
}

// A progress line for `sg run --repeat N`, rewritten in place on stderr at most 4 times a second,
// only when stderr is a terminal and N > 1; otherwise it prints nothing.
class Progress {
 public:
  explicit Progress(int total)
      : total_(total), on_(total > 1 && isatty(fileno(stderr))), start_(Clock::now()), last_(start_) {}
  void Update(int done) {
    if (!on_) return;
    const auto now = Clock::now();
    if (done < total_ && now - last_ < std::chrono::milliseconds(250)) return;
    last_ = now;
    const double s = std::chrono::duration<double>(now - start_).count();
    std::fprintf(stderr, "\r\033[Ksg: run %d/%d (%.0f%%)  %.1f s  %.1f runs/s", done, total_,
                 100.0 * done / total_, s, s > 0 ? done / s : 0.0);
    std::fflush(stderr);
    shown_ = true;
  }
  void Clear() {
    if (shown_) std::fprintf(stderr, "\r\033[K");
    shown_ = false;
  }

 private:
  using Clock = std::chrono::steady_clock;
  int total_;
  bool on_;
  bool shown_ = false;
  Clock::time_point start_, last_;
};

}  // namespace

int ParseRepeat(const std::string& text) {
  char* end;
  const long n = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || n < 1 || n > 100000000) {
    CmdFail(SG_INVALID_ARGUMENT, "--repeat '" + text + "' is not a count >= 1");
  }
  return static_cast<int>(n);
}

StepResult RunStep(const Step& step, int repeat, bool trace_last) {
  StepResult result;
  std::vector<SG_Tensor*> outputs(step.fetches.size(), nullptr);
  auto release = [&outputs] {
    for (SG_Tensor*& t : outputs) {
      SG_DeleteTensor(t);
      t = nullptr;
    }
  };
  SG_Status* status = SG_NewStatus();
  Progress progress(repeat);
  std::string trace_metadata;
  // With --repeat N and a trace, the traced run is one more after the N timed ones: tracing
  // slows a step, and its time would skew the percentiles. A single run is timed traced.
  const bool extra_traced_run = trace_last && repeat > 1;
  const int runs = repeat + (extra_traced_run ? 1 : 0);
  for (int r = 0; r < runs && SG_GetCode(status) == SG_OK; ++r) {
    release();
    const bool traced = trace_last && r + 1 == runs;
    SG_Buffer* options = nullptr;
    SG_Buffer* metadata = nullptr;
    if (traced) {
      const std::string bytes = TraceRunOptions();
      options = SG_NewBufferFromString(bytes.data(), bytes.size());
      metadata = SG_NewBuffer();
    }
    const auto start = std::chrono::steady_clock::now();
    SG_SessionRun(step.session, options, step.feeds.data(), step.values.data(),
                  static_cast<int>(step.feeds.size()), step.fetches.data(), outputs.data(),
                  static_cast<int>(step.fetches.size()), step.targets.data(),
                  static_cast<int>(step.targets.size()), metadata, status);
    if (!(traced && extra_traced_run)) {
      result.micros.push_back(std::chrono::duration<double, std::micro>(
                                  std::chrono::steady_clock::now() - start)
                                  .count());
    }
    if (metadata != nullptr) {
      result.run_metadata.assign(static_cast<const char*>(metadata->data), metadata->length);
    }
    SG_DeleteBuffer(options);
    SG_DeleteBuffer(metadata);
    progress.Update(std::min(r + 1, repeat));
  }
  progress.Clear();
  result.code = SG_GetCode(status);
  result.message = SG_Message(status);
  SG_DeleteStatus(status);
  if (result.code != SG_OK) release();
  for (SG_Tensor* t : outputs) result.outputs.emplace_back(t);
  return result;
}

void WriteRunViews(const std::string& run_metadata, const std::string& trace,
                   const std::string& partition_dot, const std::string& title) {
  std::string error;
  if (!trace.empty() && !WriteChromeTrace(trace, run_metadata, &error)) {
    CmdFail(SG_INVALID_ARGUMENT, "--trace: " + error);
  }
  if (!partition_dot.empty()) {
    const SG_Code code = WritePartitionsDot(run_metadata, partition_dot, title, &error);
    if (code != SG_OK) CmdFail(code, "--partition-dot: " + error);
  }
}

void PrintRepeatStats(const std::vector<double>& micros, const std::vector<SG_Tensor*>& feeds) {
  PrintLatency(micros, BatchSize(feeds));
}

}  // namespace sg_tool
