#include "core/framework/cancellation.h"

#include <vector>

namespace sg {

CancellationManager::Token CancellationManager::NewToken() {
  absl::MutexLock lock(&mu_);
  return next_++;
}

bool CancellationManager::RegisterCallback(Token token, Callback cb) {
  absl::MutexLock lock(&mu_);
  if (cancelled_) return false;
  callbacks_[token] = std::move(cb);
  return true;
}

bool CancellationManager::DeregisterCallback(Token token) {
  absl::MutexLock lock(&mu_);
  if (cancelled_) return false;
  callbacks_.erase(token);
  return true;
}

void CancellationManager::StartCancel() {
  std::map<Token, Callback> callbacks;
  {
    absl::MutexLock lock(&mu_);
    if (cancelled_) return;
    cancelled_ = true;
    callbacks.swap(callbacks_);
  }
  for (auto& kv : callbacks) kv.second();
}

bool CancellationManager::IsCancelled() const {
  absl::MutexLock lock(&mu_);
  return cancelled_;
}

}  // namespace sg
