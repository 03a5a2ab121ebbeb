// CallOptions: the deadline and the cancellation of one RPC, whether it goes over gRPC or stays
// in process. No gRPC type appears here.
#ifndef SG_DISTRIBUTED_CALL_OPTIONS_H_
#define SG_DISTRIBUTED_CALL_OPTIONS_H_

#include <functional>

#include "absl/time/time.h"
#include "core/util/mutex.h"

namespace sg {

// Default deadline for set-up and status calls (CreateSession, GetStatus, RegisterGraph...) when
// neither RunOptions nor ConfigProto give one.
constexpr int64_t kDefaultSetupTimeoutMs = 30000;

class CallOptions {
 public:
  // absl::InfiniteFuture() means no deadline.
  void SetDeadline(absl::Time deadline) { deadline_ = deadline; }
  void SetTimeout(int64_t timeout_ms) {
    deadline_ = timeout_ms > 0 ? absl::Now() + absl::Milliseconds(timeout_ms)
                               : absl::InfiniteFuture();
  }
  absl::Time deadline() const { return deadline_; }

  // The transport installs a callback that cancels the call in flight; StartCancel runs it.
  void SetCancelCallback(std::function<void()> cb) {
    mutex_lock lock(mu_);
    cancel_ = std::move(cb);
  }
  void ClearCancelCallback() {
    mutex_lock lock(mu_);
    cancel_ = nullptr;
  }
  // Runs the cancel callback at most once. It is dropped before it runs: it often holds the
  // call's completion, which may own these options, and keeping it would close a cycle.
  void StartCancel() {
    std::function<void()> cb;
    {
      mutex_lock lock(mu_);
      cancelled_ = true;
      cb = std::move(cancel_);
      cancel_ = nullptr;
    }
    if (cb) cb();
  }
  bool cancelled() const {
    mutex_lock lock(mu_);
    return cancelled_;
  }

 private:
  absl::Time deadline_ = absl::InfiniteFuture();
  mutable mutex mu_;
  std::function<void()> cancel_ ABSL_GUARDED_BY(mu_);
  bool cancelled_ ABSL_GUARDED_BY(mu_) = false;
};

}  // namespace sg

#endif  // SG_DISTRIBUTED_CALL_OPTIONS_H_
