// CallOptions: the deadline and the cancellation of one RPC, whether it goes over gRPC or stays
// in process. No gRPC type appears here.
#ifndef SG_DISTRIBUTED_CALL_OPTIONS_H_
#define SG_DISTRIBUTED_CALL_OPTIONS_H_

#include <functional>
#include <map>
#include <string>

#include "absl/time/time.h"
#include "core/framework/tensor.h"
#include "core/util/mutex.h"

namespace sg {

// Default deadline for set-up and status calls (CreateSession, GetStatus, RegisterGraph...) when
// neither RunOptions nor ConfigProto give one.
constexpr int64_t kDefaultSetupTimeoutMs = 30000;

// Tensors that a call within one process hands over by reference instead of copying them into
// its response's TensorProtos: the fetches a LocalMaster returns to its client session, and the
// values the master's own worker returns from RunGraph. Only in-process implementations look at
// it (Master, Worker); a call over gRPC never sees one, and its tensors travel in the protos as
// TensorFlow's do. The caller owns it and reads it after the call returned. Thread-safe.
class TensorHandoff {
 public:
  // Adds (or replaces) the tensor named `name` (a fetch name or a rendezvous key).
  void Put(const std::string& name, const Tensor& value) {
    mutex_lock lock(mu_);
    tensors_[name] = value;
  }
  // Moves the tensor named `name` into *value; false, leaving *value alone, when there is none.
  bool Take(const std::string& name, Tensor* value) {
    mutex_lock lock(mu_);
    auto it = tensors_.find(name);
    if (it == tensors_.end()) return false;
    *value = std::move(it->second);
    tensors_.erase(it);
    return true;
  }

 private:
  mutex mu_;
  std::map<std::string, Tensor> tensors_ ABSL_GUARDED_BY(mu_);
};

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

  // Where an in-process callee may put the tensors of its response instead of their protos
  // (TensorHandoff); nullptr (the default): in the protos. Not owned; set before the call.
  void set_tensor_handoff(TensorHandoff* handoff) { handoff_ = handoff; }
  TensorHandoff* tensor_handoff() const { return handoff_; }

 private:
  absl::Time deadline_ = absl::InfiniteFuture();
  TensorHandoff* handoff_ = nullptr;
  mutable mutex mu_;
  std::function<void()> cancel_ ABSL_GUARDED_BY(mu_);
  bool cancelled_ ABSL_GUARDED_BY(mu_) = false;
};

}  // namespace sg

#endif  // SG_DISTRIBUTED_CALL_OPTIONS_H_
