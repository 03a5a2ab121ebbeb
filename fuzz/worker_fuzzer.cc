// Fuzz target: the WorkerService's handlers (Worker's methods, called in process as the gRPC
// service calls them) on fuzzed requests, over one in-process task (fuzz/in_process_task.h).
//
// The input is records (fuzz_util.h), one call each: the tag (mod 9) picks GetStatus,
// CreateWorkerSession, DeleteWorkerSession, RegisterGraph, DeregisterGraph, RunGraph,
// CleanupGraph, CleanupAll or RecvTensor, the bytes are its request (binary proto; a record that
// does not parse is skipped). A graph_handle "$K" is the K-th handle RegisterGraph returned in
// this input. Like the gRPC transport at a call's deadline, a call not done after
// 2 * fuzz::kStepTimeoutMs is cancelled (CallOptions::StartCancel); it must then finish. After
// the last record the Worker is destroyed. Any status is fine; a crash, a sanitizer report or a
// hang is a finding.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/synchronization/notification.h"
#include "fuzz/fuzz_util.h"
#include "fuzz/in_process_task.h"

namespace sg {
namespace {

constexpr size_t kMaxCalls = 16;

// Calls `start(opts, done)` and waits for `done`, cancelling the call past its deadline; returns
// the call's status.
template <typename Start>
absl::Status Call(Start start) {
  CallOptions opts;
  opts.SetTimeout(2 * fuzz::kStepTimeoutMs);
  absl::Notification finished;
  absl::Status status;
  start(&opts, [&](const absl::Status& s) {
    status = s;
    finished.Notify();
  });
  if (!finished.WaitForNotificationWithTimeout(absl::Milliseconds(2 * fuzz::kStepTimeoutMs))) {
    opts.StartCancel();
    finished.WaitForNotification();
  }
  return status;
}

// Call, for the records whose status does not matter.
template <typename Start>
void Run(Start start) {
  Call(std::move(start)).IgnoreError();
}

void RunCalls(Worker* w, const std::vector<fuzz::Record>& records) {
  std::vector<std::string> graphs;
  for (const fuzz::Record& r : records) {
    switch (r.tag % 9) {
      case 0: {
        GetStatusRequest req;
        GetStatusResponse resp;
        if (!fuzz::ParseRecord(r.bytes, &req)) break;
        Run([&](CallOptions* o, StatusCallback d) { w->GetStatusAsync(o, &req, &resp, d); });
        break;
      }
      case 1: {
        CreateWorkerSessionRequest req;
        CreateWorkerSessionResponse resp;
        if (!fuzz::ParseRecord(r.bytes, &req)) break;
        Run([&](CallOptions* o, StatusCallback d) {
          w->CreateWorkerSessionAsync(o, &req, &resp, d);
        });
        break;
      }
      case 2: {
        DeleteWorkerSessionRequest req;
        DeleteWorkerSessionResponse resp;
        if (!fuzz::ParseRecord(r.bytes, &req)) break;
        Run([&](CallOptions* o, StatusCallback d) {
          w->DeleteWorkerSessionAsync(o, &req, &resp, d);
        });
        break;
      }
      case 3: {
        RegisterGraphRequest req;
        RegisterGraphResponse resp;
        if (!fuzz::ParseRecord(r.bytes, &req)) break;
        if (Call([&](CallOptions* o, StatusCallback d) {
              w->RegisterGraphAsync(o, &req, &resp, d);
            }).ok()) {
          graphs.push_back(resp.graph_handle());
        }
        break;
      }
      case 4: {
        DeregisterGraphRequest req;
        DeregisterGraphResponse resp;
        if (!fuzz::ParseRecord(r.bytes, &req)) break;
        req.set_graph_handle(fuzz::ResolveHandle(req.graph_handle(), graphs));
        Run([&](CallOptions* o, StatusCallback d) {
          w->DeregisterGraphAsync(o, &req, &resp, d);
        });
        break;
      }
      case 5: {
        RunGraphRequest req;
        RunGraphResponse resp;
        if (!fuzz::ParseRecord(r.bytes, &req)) break;
        req.set_graph_handle(fuzz::ResolveHandle(req.graph_handle(), graphs));
        Run([&](CallOptions* o, StatusCallback d) { w->RunGraphAsync(o, &req, &resp, d); });
        break;
      }
      case 6: {
        CleanupGraphRequest req;
        CleanupGraphResponse resp;
        if (!fuzz::ParseRecord(r.bytes, &req)) break;
        Run([&](CallOptions* o, StatusCallback d) { w->CleanupGraphAsync(o, &req, &resp, d); });
        break;
      }
      case 7: {
        CleanupAllRequest req;
        CleanupAllResponse resp;
        if (!fuzz::ParseRecord(r.bytes, &req)) break;
        Run([&](CallOptions* o, StatusCallback d) { w->CleanupAllAsync(o, &req, &resp, d); });
        break;
      }
      case 8: {
        RecvTensorRequest req;
        RecvTensorResult result;
        if (!fuzz::ParseRecord(r.bytes, &req)) break;
        Run([&](CallOptions* o, StatusCallback d) { w->RecvTensorAsync(o, &req, &result, d); });
        break;
      }
    }
  }
}

}  // namespace
}  // namespace sg

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static auto* task = new sg::fuzz::InProcessTask;
  const auto records = sg::fuzz::SplitRecords(data, size, sg::kMaxCalls);
  if (records.empty()) return 0;
  task->NewInput(/*with_master=*/false);
  sg::RunCalls(task->worker(), records);
  task->EndInput();
  return 0;
}
