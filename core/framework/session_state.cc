#include "core/framework/session_state.h"

namespace sg {

int64_t SessionState::NewId() {
  ids_taken_.store(true, std::memory_order_relaxed);
  absl::MutexLock lock(&mu_);
  return next_id_++;
}

absl::Status SessionState::AddTensor(const std::string& handle, const Tensor& value) {
  absl::MutexLock lock(&mu_);
  if (!tensors_.emplace(handle, value).second) {
    return errors::AlreadyExists("A session tensor with handle '", handle, "' already exists");
  }
  return absl::OkStatus();
}

absl::Status SessionState::GetTensor(const std::string& handle, Tensor* value) const {
  absl::MutexLock lock(&mu_);
  auto it = tensors_.find(handle);
  if (it == tensors_.end()) {
    return errors::InvalidArgument("The tensor with handle '", handle,
                                   "' is not in the session store.");
  }
  *value = it->second;
  return absl::OkStatus();
}

absl::Status SessionState::DeleteTensor(const std::string& handle) {
  absl::MutexLock lock(&mu_);
  if (tensors_.erase(handle) == 0) {
    return errors::InvalidArgument("Failed to delete the tensor with handle '", handle,
                                   "': it is not in the session store.");
  }
  return absl::OkStatus();
}

void StepTensorStore::Add(const std::string& node, const std::string& handle,
                          const Tensor& value) {
  absl::MutexLock lock(&mu_);
  tensors_[node] = {handle, value};
}

absl::Status StepTensorStore::SaveFetched(const std::vector<std::string>& fetches,
                                          SessionState* state) {
  absl::MutexLock lock(&mu_);
  for (const std::string& fetch : fetches) {
    const std::string node = fetch.substr(0, fetch.rfind(':'));
    auto it = tensors_.find(node);
    if (it == tensors_.end()) continue;
    SG_RETURN_IF_ERROR(state->AddTensor(it->second.first, it->second.second));
    tensors_.erase(it);
  }
  return absl::OkStatus();
}

std::shared_ptr<SessionState> FindSessionState(const ResourceMgr* rm) {
  std::shared_ptr<SessionState> state;
  if (rm == nullptr || !rm->Lookup<SessionState>(SessionState::kContainer, SessionState::kName,
                                                &state).ok()) {
    return nullptr;
  }
  return state;
}

}  // namespace sg
