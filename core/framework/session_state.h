// SessionState: what a session keeps for its kernels besides their resources: the cancellation
// that closing the session starts, which ends the waits of queue ops (a dequeue on an empty
// queue), so that Close, which waits for the runs in flight, returns; and the tensors that
// GetSessionHandle keeps for later runs (GetSessionTensor, DeleteSessionTensor).
//
// As in TensorFlow, GetSessionHandle's tensor goes first into its step's StepTensorStore (in the
// step's ResourceMgr), and into the SessionState only when the run succeeds and fetches the
// handle: a run cannot read the tensors it stores.
//
// A session puts one SessionState into the ResourceMgr of each of its devices (container
// kContainer, name kName), where kernels find it with FindSessionState:
//
//   std::shared_ptr<SessionState> state = FindSessionState(ctx->resource_manager());
//   if (state != nullptr) state->close_cancellation()->RegisterCallback(...);
//
// Thread safety: all methods are safe to call concurrently.
#ifndef SG_CORE_FRAMEWORK_SESSION_STATE_H_
#define SG_CORE_FRAMEWORK_SESSION_STATE_H_

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/framework/cancellation.h"
#include "core/framework/resource_mgr.h"

namespace sg {

class SessionState final : public ResourceBase {
 public:
  static constexpr const char* kContainer = "_session_state";
  static constexpr const char* kName = "state";

  std::string DebugString() const override { return "SessionState"; }

  // Cancelled once, when the session closes.
  CancellationManager* close_cancellation() { return &close_cancellation_; }

  // A number no other call of this session returns (the id in a session tensor's handle).
  // The session then looks for a StepTensorStore after each run (before the first call it
  // does not, at no cost).
  int64_t NewId();
  bool ids_taken() const { return ids_taken_.load(std::memory_order_relaxed); }
  // Keeps `value` under `handle`; ALREADY_EXISTS when the handle is taken.
  absl::Status AddTensor(const std::string& handle, const Tensor& value);
  // INVALID_ARGUMENT (TensorFlow's code) when no tensor has that handle, for both.
  absl::Status GetTensor(const std::string& handle, Tensor* value) const;
  absl::Status DeleteTensor(const std::string& handle);

 private:
  CancellationManager close_cancellation_;
  std::atomic<bool> ids_taken_{false};
  mutable absl::Mutex mu_;
  int64_t next_id_ ABSL_GUARDED_BY(mu_) = 0;
  std::map<std::string, Tensor> tensors_ ABSL_GUARDED_BY(mu_);
};

// The tensors GetSessionHandle stored in one step, by node name.
class StepTensorStore final : public ResourceBase {
 public:
  static constexpr const char* kContainer = "_session_tensors";
  static constexpr const char* kName = "store";

  std::string DebugString() const override { return "StepTensorStore"; }

  void Add(const std::string& node, const std::string& handle, const Tensor& value);
  // Moves into `state` the tensors of the nodes that `fetches` (tensor names) name.
  absl::Status SaveFetched(const std::vector<std::string>& fetches, SessionState* state);

 private:
  absl::Mutex mu_;
  std::map<std::string, std::pair<std::string, Tensor>> tensors_ ABSL_GUARDED_BY(mu_);
};

// The SessionState in `rm`, or null (a kernel run outside a session, or after a Reset).
std::shared_ptr<SessionState> FindSessionState(const ResourceMgr* rm);

}  // namespace sg

#endif  // SG_CORE_FRAMEWORK_SESSION_STATE_H_
