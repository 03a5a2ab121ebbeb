// SessionState: what a session keeps for its kernels besides their resources: the cancellation
// that closing the session starts, which ends the waits of queue ops (a dequeue on an empty
// queue), so that Close, which waits for the runs in flight, returns; and the tensors that
// GetSessionHandle keeps for later runs (GetSessionTensor, DeleteSessionTensor).
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

#include <map>
#include <memory>
#include <string>

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
  int64_t NewId();
  // Keeps `value` under `handle`; ALREADY_EXISTS when the handle is taken.
  absl::Status AddTensor(const std::string& handle, const Tensor& value);
  // NOT_FOUND when no tensor has that handle.
  absl::Status GetTensor(const std::string& handle, Tensor* value) const;
  absl::Status DeleteTensor(const std::string& handle);

 private:
  CancellationManager close_cancellation_;
  mutable absl::Mutex mu_;
  int64_t next_id_ ABSL_GUARDED_BY(mu_) = 0;
  std::map<std::string, Tensor> tensors_ ABSL_GUARDED_BY(mu_);
};

// The SessionState in `rm`, or null (a kernel run outside a session, or after a Reset).
std::shared_ptr<SessionState> FindSessionState(const ResourceMgr* rm);

}  // namespace sg

#endif  // SG_CORE_FRAMEWORK_SESSION_STATE_H_
