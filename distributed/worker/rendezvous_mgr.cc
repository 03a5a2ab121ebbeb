#include "distributed/worker/rendezvous_mgr.h"

#include <vector>

#include "absl/random/random.h"
#include "core/framework/device_name.h"

namespace sg {
namespace {

constexpr size_t kRememberCleanedSteps = 10000;

int64_t NewRequestId() {
  static mutex mu;
  static absl::BitGen* gen = new absl::BitGen;
  mutex_lock lock(mu);
  // Non-zero, positive.
  return static_cast<int64_t>(absl::Uniform<uint64_t>(*gen) >> 1) | 1;
}

}  // namespace

std::string TaskOfDevice(const std::string& device) {
  ParsedDeviceName p;
  if (!ParsedDeviceName::Parse(device, &p) || !p.has_job || !p.has_task) return "";
  return p.TaskName();
}

// One RecvTensor in flight. Shared between the rendezvous (to cancel it) and the callback.
struct StepRendezvous::RemoteCall {
  CallOptions opts;
  RecvTensorRequest req;
  RecvTensorResult result;
};

StepRendezvous::StepRendezvous(const RendezvousEnv& env, int64_t step_id)
    : env_(env), step_id_(step_id) {}

StepRendezvous::~StepRendezvous() { StartAbort(errors::Cancelled("step ", step_id_, " ended")); }

absl::Status StepRendezvous::Send(const ParsedKey& key, const Tensor& value, bool is_dead) {
  return local_.Send(key, value, is_dead);
}

bool StepRendezvous::IsLocal(const ParsedKey& key) const {
  // A client-terminated key (feed or fetch) names the same device at both ends: it is always
  // delivered through RunGraph to the task that uses it.
  if (key.src_device == key.dst_device) return true;
  const std::string task = TaskOfDevice(key.src_device);
  return task.empty() || task == env_.task_name;
}

void StepRendezvous::RecvAsync(const ParsedKey& key, DoneCallback done) {
  if (IsLocal(key)) {
    local_.RecvAsync(key, std::move(done));
  } else {
    RecvRemoteAsync(key, std::move(done));
  }
}

void StepRendezvous::RecvLocalAsync(const ParsedKey& key, DoneCallback done) {
  local_.RecvAsync(key, [self = shared_from_this(), done = std::move(done)](
                            const absl::Status& s, const Tensor& value, bool is_dead) {
    done(s, value, is_dead);
    self->CheckDrained();
  });
}

void StepRendezvous::WhenDrained(std::function<void()> fn) {
  {
    mutex_lock lock(mu_);
    if (!abort_.ok()) return;
    on_drained_ = std::move(fn);
  }
  CheckDrained();
}

void StepRendezvous::CheckDrained() {
  std::function<void()> fn;
  {
    mutex_lock lock(mu_);
    if (!on_drained_ || !abort_.ok() || local_.Pending() > 0) return;
    fn = std::move(on_drained_);
    on_drained_ = nullptr;
  }
  fn();
}

void StepRendezvous::SetDeadline(absl::Time deadline) {
  mutex_lock lock(mu_);
  deadline_ = deadline;
}

void StepRendezvous::RecvRemoteAsync(const ParsedKey& key, DoneCallback done) {
  const std::string task = TaskOfDevice(key.src_device);
  WorkerInterface* worker =
      env_.worker_cache ? env_.worker_cache->GetOrCreateWorker(task) : nullptr;
  if (worker == nullptr) {
    done(errors::InvalidArgument("Rendezvous key '", key.full_key, "' names task ", task,
                                 ", which is not in the cluster"),
         Tensor(), false);
    return;
  }
  auto call = std::make_shared<RemoteCall>();
  call->req.set_step_id(step_id_);
  call->req.set_rendezvous_key(key.full_key);
  call->req.set_request_id(NewRequestId());
  {
    mutex_lock lock(mu_);
    if (!abort_.ok()) {
      absl::Status s = abort_;
      mu_.unlock();
      done(s, Tensor(), false);
      mu_.lock();
      return;
    }
    call->opts.SetDeadline(deadline_);
    calls_.insert(call);
  }
  worker->RecvTensorAsync(
      &call->opts, &call->req, &call->result,
      [weak = weak_from_this(), call, done = std::move(done)](const absl::Status& s) {
        if (auto self = weak.lock()) {
          mutex_lock lock(self->mu_);
          self->calls_.erase(call);
        }
        done(s, s.ok() ? call->result.tensor : Tensor(), s.ok() && call->result.is_dead);
      });
}

void StepRendezvous::StartAbort(const absl::Status& status) {
  std::vector<std::shared_ptr<RemoteCall>> calls;
  {
    mutex_lock lock(mu_);
    if (abort_.ok()) abort_ = status.ok() ? errors::Cancelled("step aborted") : status;
    calls.assign(calls_.begin(), calls_.end());
  }
  local_.StartAbort(status.ok() ? errors::Cancelled("step aborted") : status);
  // The calls' callbacks erase themselves; the shared_ptrs keep the options alive meanwhile.
  for (auto& c : calls) c->opts.StartCancel();
}

RendezvousMgr::~RendezvousMgr() { AbortAll(errors::Cancelled("worker shut down")); }

std::shared_ptr<StepRendezvous> RendezvousMgr::Find(int64_t step_id) {
  mutex_lock lock(mu_);
  auto it = table_.find(step_id);
  if (it != table_.end()) return it->second;
  auto r = std::make_shared<StepRendezvous>(env_, step_id);
  if (cleaned_.count(step_id)) {
    r->StartAbort(errors::Aborted("Step ", step_id, " has already been cleaned up"));
    return r;  // not kept: nobody would clean it up again
  }
  table_[step_id] = r;
  return r;
}

void RendezvousMgr::Cleanup(int64_t step_id, const absl::Status& status) {
  std::shared_ptr<StepRendezvous> r;
  {
    mutex_lock lock(mu_);
    auto it = table_.find(step_id);
    if (it != table_.end()) {
      r = std::move(it->second);
      table_.erase(it);
    }
    if (cleaned_.insert(step_id).second) {
      cleaned_order_.push_back(step_id);
      if (cleaned_order_.size() > kRememberCleanedSteps) {
        cleaned_.erase(cleaned_order_.front());
        cleaned_order_.pop_front();
      }
    }
  }
  if (r) {
    r->StartAbort(status.ok() ? errors::Cancelled("Step ", step_id, " was cleaned up") : status);
  }
}

void RendezvousMgr::CleanupWhenDrained(int64_t step_id) {
  std::shared_ptr<StepRendezvous> r;
  {
    mutex_lock lock(mu_);
    auto it = table_.find(step_id);
    if (it == table_.end()) return;
    r = it->second;
  }
  std::weak_ptr<StepRendezvous> weak = r;
  r->WhenDrained([this, step_id, weak] {
    {
      mutex_lock lock(mu_);
      auto it = table_.find(step_id);
      // Only the rendezvous this was asked for (not one made again for the same step id).
      if (it == table_.end() || it->second != weak.lock()) return;
    }
    Cleanup(step_id);
  });
}

void RendezvousMgr::AbortAll(const absl::Status& status) {
  std::vector<int64_t> steps;
  {
    mutex_lock lock(mu_);
    for (const auto& kv : table_) steps.push_back(kv.first);
  }
  for (int64_t step : steps) Cleanup(step, status);
}

}  // namespace sg
