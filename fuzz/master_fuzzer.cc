// Fuzz target: the MasterService's handlers (Master's methods, called in process as the gRPC
// service calls them) on fuzzed requests, over one in-process task (fuzz/in_process_task.h).
//
// The input is records (fuzz_util.h), one call each: the tag (mod 7) picks CreateSession,
// ExtendSession, PartialRunSetup, RunStep, CloseSession, ListDevices or Reset, the bytes are its
// request (binary proto; a record that does not parse is skipped). Handles the master made are
// reachable: a session_handle "$K" is the K-th session CreateSession returned in this input, a
// partial_run_handle "$K" the K-th PartialRunSetup's. Steps get a deadline (fuzz::kStepTimeoutMs
// when the request sets none or a longer one). After the last record every session is closed and
// the Master and Worker are destroyed. Any status is fine; a crash, a sanitizer report or a hang
// is a finding.
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz/fuzz_util.h"
#include "fuzz/in_process_task.h"

namespace sg {
namespace {

constexpr size_t kMaxCalls = 16;

int64_t Bounded(int64_t timeout_ms) {
  return timeout_ms > 0 && timeout_ms < fuzz::kStepTimeoutMs ? timeout_ms : fuzz::kStepTimeoutMs;
}

void RunCalls(Master* master, const std::vector<fuzz::Record>& records) {
  std::vector<std::string> sessions, partial_runs;
  for (const fuzz::Record& r : records) {
    CallOptions opts;
    opts.SetTimeout(2 * fuzz::kStepTimeoutMs);
    switch (r.tag % 7) {
      case 0: {
        CreateSessionRequest req;
        CreateSessionResponse resp;
        if (!fuzz::ParseRecord(r.bytes, &req)) break;
        req.mutable_config()->set_operation_timeout_in_ms(
            Bounded(req.config().operation_timeout_in_ms()));
        if (master->CreateSession(&opts, req, &resp).ok()) {
          sessions.push_back(resp.session_handle());
        }
        break;
      }
      case 1: {
        ExtendSessionRequest req;
        ExtendSessionResponse resp;
        if (!fuzz::ParseRecord(r.bytes, &req)) break;
        req.set_session_handle(fuzz::ResolveHandle(req.session_handle(), sessions));
        master->ExtendSession(&opts, req, &resp).IgnoreError();
        break;
      }
      case 2: {
        PartialRunSetupRequest req;
        PartialRunSetupResponse resp;
        if (!fuzz::ParseRecord(r.bytes, &req)) break;
        req.set_session_handle(fuzz::ResolveHandle(req.session_handle(), sessions));
        if (master->PartialRunSetup(&opts, req, &resp).ok()) {
          partial_runs.push_back(resp.partial_run_handle());
        }
        break;
      }
      case 3: {
        RunStepRequest req;
        RunStepResponse resp;
        if (!fuzz::ParseRecord(r.bytes, &req)) break;
        req.set_session_handle(fuzz::ResolveHandle(req.session_handle(), sessions));
        req.set_partial_run_handle(fuzz::ResolveHandle(req.partial_run_handle(), partial_runs));
        req.mutable_options()->set_timeout_in_ms(Bounded(req.options().timeout_in_ms()));
        master->RunStep(&opts, req, &resp).IgnoreError();
        break;
      }
      case 4: {
        CloseSessionRequest req;
        CloseSessionResponse resp;
        if (!fuzz::ParseRecord(r.bytes, &req)) break;
        req.set_session_handle(fuzz::ResolveHandle(req.session_handle(), sessions));
        master->CloseSession(&opts, req, &resp).IgnoreError();
        break;
      }
      case 5: {
        ListDevicesRequest req;
        ListDevicesResponse resp;
        if (!fuzz::ParseRecord(r.bytes, &req)) break;
        req.set_session_handle(fuzz::ResolveHandle(req.session_handle(), sessions));
        master->ListDevices(&opts, req, &resp).IgnoreError();
        break;
      }
      case 6: {
        ResetRequest req;
        ResetResponse resp;
        if (!fuzz::ParseRecord(r.bytes, &req)) break;
        master->Reset(&opts, req, &resp).IgnoreError();
        break;
      }
    }
  }
  for (const std::string& handle : sessions) {
    CallOptions opts;
    opts.SetTimeout(2 * fuzz::kStepTimeoutMs);
    CloseSessionRequest req;
    CloseSessionResponse resp;
    req.set_session_handle(handle);
    master->CloseSession(&opts, req, &resp).IgnoreError();
  }
}

}  // namespace
}  // namespace sg

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static auto* task = new sg::fuzz::InProcessTask;
  const auto records = sg::fuzz::SplitRecords(data, size, sg::kMaxCalls);
  if (records.empty()) return 0;
  task->NewInput(/*with_master=*/true);
  sg::RunCalls(task->master(), records);
  task->EndInput();
  return 0;
}
