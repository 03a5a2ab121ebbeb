// CallGroup: a set of asynchronous worker calls issued at once and waited for together, each
// with its own CallOptions carrying the group's deadline. Internal to the master.
//
//   CallGroup group(workers.size(), deadline);
//   for (int i = 0; i < n; ++i) workers[i]->GetStatusAsync(group.opts(i), &req, &resp[i], group.done(i));
//   group.Wait();
//   for (int i = 0; i < n; ++i) if (!group.status(i).ok()) ...
#ifndef SG_DISTRIBUTED_MASTER_CALL_GROUP_H_
#define SG_DISTRIBUTED_MASTER_CALL_GROUP_H_

#include <memory>
#include <vector>

#include "absl/time/time.h"
#include "core/framework/status.h"
#include "core/util/mutex.h"
#include "distributed/call_options.h"
#include "distributed/worker/worker_interface.h"

namespace sg {

class CallGroup {
 public:
  // How long past the deadline Wait lets the transport report its own DEADLINE_EXCEEDED before
  // it cancels the calls itself.
  static constexpr absl::Duration kGrace = absl::Milliseconds(300);

  CallGroup(int n, absl::Time deadline) : deadline_(deadline), calls_(n) {
    for (auto& c : calls_) {
      c = std::make_unique<Call>();
      c->opts.SetDeadline(deadline);
    }
    remaining_ = n;
  }
  CallGroup(const CallGroup&) = delete;
  CallGroup& operator=(const CallGroup&) = delete;

  int size() const { return static_cast<int>(calls_.size()); }
  CallOptions* opts(int i) { return &calls_[i]->opts; }

  // When set, the first error that is not CANCELLED cancels every other call still running.
  void set_cancel_others_on_error(bool v) { cancel_others_on_error_ = v; }

  // The callback to give call i; it must run exactly once.
  StatusCallback done(int i) {
    return [this, i](const absl::Status& s) { Finish(i, s); };
  }

  // Cancels every call still running.
  void CancelAll() {
    for (auto& c : calls_) c->opts.StartCancel();
  }

  // Waits for every call. Calls still running kGrace past the deadline are cancelled and then
  // waited for; timed_out() tells whether that happened.
  void Wait() {
    mutex_lock lock(mu_);
    if (deadline_ != absl::InfiniteFuture()) {
      while (!AllDone()) {
        if (!done_cv_.wait_until(mu_, deadline_ + kGrace) && !AllDone()) {
          timed_out_ = true;
          mu_.unlock();
          CancelAll();
          mu_.lock();
          break;
        }
      }
    }
    while (!AllDone()) done_cv_.wait(mu_);
  }

  bool timed_out() const {
    mutex_lock lock(mu_);
    return timed_out_;
  }
  absl::Status status(int i) const {
    mutex_lock lock(mu_);
    return calls_[i]->status;
  }
  // Indexes of failed calls in the order they failed.
  std::vector<int> failure_order() const {
    mutex_lock lock(mu_);
    return failures_;
  }

 private:
  struct Call {
    CallOptions opts;
    absl::Status status;
  };

  void Finish(int i, const absl::Status& s) {
    bool cancel_others = false;
    {
      mutex_lock lock(mu_);
      calls_[i]->status = s;
      if (!s.ok()) {
        failures_.push_back(i);
        if (cancel_others_on_error_ && !cancelling_ && s.code() != absl::StatusCode::kCancelled) {
          cancelling_ = true;
          cancel_others = true;
          ++cancelling_now_;  // keeps Wait (and the group) alive while we cancel
        }
      }
      --remaining_;
      if (AllDone()) done_cv_.notify_all();
    }
    if (!cancel_others) return;
    // Outside the lock: a cancel may complete another call on this thread.
    for (int j = 0; j < size(); ++j) {
      if (j != i) calls_[j]->opts.StartCancel();
    }
    mutex_lock lock(mu_);
    --cancelling_now_;
    if (AllDone()) done_cv_.notify_all();
  }

  bool AllDone() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return remaining_ == 0 && cancelling_now_ == 0;
  }

  const absl::Time deadline_;
  std::vector<std::unique_ptr<Call>> calls_;
  bool cancel_others_on_error_ = false;
  mutable mutex mu_;
  condition_variable done_cv_;  // AllDone() became true
  int remaining_ ABSL_GUARDED_BY(mu_) = 0;
  bool cancelling_ ABSL_GUARDED_BY(mu_) = false;
  int cancelling_now_ ABSL_GUARDED_BY(mu_) = 0;
  bool timed_out_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<int> failures_ ABSL_GUARDED_BY(mu_);
};

}  // namespace sg

#endif  // SG_DISTRIBUTED_MASTER_CALL_GROUP_H_
