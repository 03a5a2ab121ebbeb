#include "core/framework/cancellation.h"

#include <vector>

namespace sg {

CancellationManager::Token CancellationManager::NewToken() {
  mutex_lock lock(mu_);
  return next_++;
}

bool CancellationManager::RegisterCallback(Token token, Callback cb) {
  mutex_lock lock(mu_);
  if (cancelled_) return false;
  callbacks_[token] = std::move(cb);
  return true;
}

bool CancellationManager::DeregisterCallback(Token token) {
  mutex_lock lock(mu_);
  if (cancelled_) return false;
  callbacks_.erase(token);
  return true;
}

void CancellationManager::StartCancel() {
  std::map<Token, Callback> callbacks;
  {
    mutex_lock lock(mu_);
    if (cancelled_) return;
    cancelled_ = true;
    callbacks.swap(callbacks_);
  }
  for (auto& kv : callbacks) kv.second();
}

bool CancellationManager::IsCancelled() const {
  mutex_lock lock(mu_);
  return cancelled_;
}

}  // namespace sg
