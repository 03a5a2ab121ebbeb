#include "core/runtime/local_rendezvous.h"

namespace sg {

LocalRendezvous::~LocalRendezvous() { StartAbort(errors::Cancelled("rendezvous destroyed")); }

absl::Status LocalRendezvous::Send(const ParsedKey& key, const Tensor& value, bool is_dead) {
  DoneCallback waiter;
  {
    mutex_lock lock(mu_);
    if (!abort_.ok()) return abort_;
    Item& item = table_[key.full_key];
    if (item.has_value) {
      return errors::Internal("rendezvous key '", key.full_key, "' was sent twice");
    }
    if (item.waiter) {
      waiter = std::move(item.waiter);
      table_.erase(key.full_key);
    } else {
      item.has_value = true;
      item.value = value;
      item.is_dead = is_dead;
      return absl::OkStatus();
    }
  }
  waiter(absl::OkStatus(), value, is_dead);
  return absl::OkStatus();
}

void LocalRendezvous::RecvAsync(const ParsedKey& key, DoneCallback done) {
  Tensor value;
  bool is_dead = false;
  {
    mutex_lock lock(mu_);
    if (!abort_.ok()) {
      absl::Status s = abort_;
      mu_.unlock();
      done(s, Tensor(), false);
      mu_.lock();
      return;
    }
    Item& item = table_[key.full_key];
    if (!item.has_value) {
      if (item.waiter) {
        absl::Status s = errors::Internal("rendezvous key '", key.full_key,
                                          "' is received twice");
        mu_.unlock();
        done(s, Tensor(), false);
        mu_.lock();
        return;
      }
      item.waiter = std::move(done);
      return;
    }
    value = std::move(item.value);
    is_dead = item.is_dead;
    table_.erase(key.full_key);
  }
  done(absl::OkStatus(), value, is_dead);
}

size_t LocalRendezvous::Pending() {
  mutex_lock lock(mu_);
  return table_.size();
}

void LocalRendezvous::StartAbort(const absl::Status& status) {
  std::vector<DoneCallback> waiters;
  {
    mutex_lock lock(mu_);
    if (!abort_.ok()) return;
    abort_ = status;
    for (auto& kv : table_) {
      if (kv.second.waiter) waiters.push_back(std::move(kv.second.waiter));
    }
    table_.clear();
  }
  for (auto& w : waiters) w(status, Tensor(), false);
}

}  // namespace sg
