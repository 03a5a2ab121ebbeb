#include "distributed/master/master.h"

#include <algorithm>
#include <cstdio>
#include <deque>
#include <map>
#include <set>
#include <thread>

#include "absl/strings/match.h"
#include "absl/synchronization/mutex.h"
#include "core/framework/device.h"
#include "core/runtime/threadpool.h"
#include "distributed/master/call_group.h"
#include "distributed/master/master_session.h"

namespace sg {
namespace {

std::string NewSessionHandle() {
  char buf[17];
  std::snprintf(buf, sizeof(buf), "%016llx", static_cast<unsigned long long>(NewIncarnation()));
  return buf;
}

// Remembers the last request ids so that a retried RunStep is not executed twice.
class RecentRequestIds {
 public:
  explicit RecentRequestIds(size_t capacity) : capacity_(capacity) {}
  // false when `id` was seen already; id 0 is never tracked.
  bool Insert(int64_t id) {
    if (id == 0) return true;
    absl::MutexLock lock(&mu_);
    if (!set_.insert(id).second) return false;
    order_.push_back(id);
    if (order_.size() > capacity_) {
      set_.erase(order_.front());
      order_.pop_front();
    }
    return true;
  }

 private:
  const size_t capacity_;
  absl::Mutex mu_;
  std::set<int64_t> set_ ABSL_GUARDED_BY(mu_);
  std::deque<int64_t> order_ ABSL_GUARDED_BY(mu_);
};

// The deadline of a set-up call: the caller's, else the config's operation timeout, else the
// default, pulled in a little so that our error (which names the task) beats the caller's own
// DEADLINE_EXCEEDED.
absl::Time SetupDeadline(CallOptions* opts, const ConfigProto& config) {
  const absl::Time now = absl::Now();
  absl::Time d = opts->deadline();
  if (d == absl::InfiniteFuture()) {
    int64_t ms = config.operation_timeout_in_ms() > 0 ? config.operation_timeout_in_ms()
                                                       : kDefaultSetupTimeoutMs;
    return now + absl::Milliseconds(ms);
  }
  absl::Duration left = d - now;
  absl::Duration margin = std::min(absl::Milliseconds(500), left / 10);
  return d - margin;
}

// How often the session GC looks for idle sessions: a quarter of the shortest timeout, within
// these bounds (TensorFlow's master looks every 10 s).
constexpr absl::Duration kMinGcPeriod = absl::Milliseconds(10);
constexpr absl::Duration kMaxGcPeriod = absl::Seconds(10);

}  // namespace

struct Master::Impl {
  MasterEnv env;
  // One thread for background work (see MasterEnv::background): it runs what is queued before
  // it joins, so the step cleanups issued last still go out when the master is destroyed.
  std::unique_ptr<ThreadPool> background;
  absl::Mutex mu;
  std::map<std::string, std::shared_ptr<MasterSession>> sessions ABSL_GUARDED_BY(mu);
  RecentRequestIds recent{10000};

  // The session GC (ConfigProto.experimental.sg_session_gc_seconds): a thread, started with the
  // first session that has a timeout, closes the sessions idle for longer than theirs.
  std::thread gc_thread;  // started under mu
  bool gc_stop ABSL_GUARDED_BY(mu) = false;
  int64_t gc_sessions_added ABSL_GUARDED_BY(mu) = 0;  // wakes the GC to look at a new timeout

  // Every call that names a session counts as a use of it (for the GC).
  absl::StatusOr<std::shared_ptr<MasterSession>> Find(const std::string& handle) {
    absl::MutexLock lock(&mu);
    auto it = sessions.find(handle);
    if (it == sessions.end()) {
      return errors::Aborted("Session ", handle, " is not found.");
    }
    it->second->MarkUsed();
    return it->second;
  }

  void Add(const std::string& handle, std::shared_ptr<MasterSession> session) {
    absl::MutexLock lock(&mu);
    const bool collected = session->gc_seconds() > 0;
    sessions[handle] = std::move(session);
    if (!collected) return;
    ++gc_sessions_added;
    if (!gc_thread.joinable() && !gc_stop) gc_thread = std::thread([this] { GcLoop(); });
  }

  void GcLoop() {
    absl::MutexLock lock(&mu);
    while (!gc_stop) {
      double shortest = 0;
      for (const auto& kv : sessions) {
        const double g = kv.second->gc_seconds();
        if (g > 0 && (shortest == 0 || g < shortest)) shortest = g;
      }
      const absl::Duration period =
          shortest > 0 ? std::clamp(absl::Seconds(shortest) / 4, kMinGcPeriod, kMaxGcPeriod)
                       : kMaxGcPeriod;
      struct Wake {
        Impl* impl;
        int64_t added;
      } wake{this, gc_sessions_added};
      mu.AwaitWithTimeout(absl::Condition(
                              +[](Wake* w) ABSL_NO_THREAD_SAFETY_ANALYSIS {
                                return w->impl->gc_stop ||
                                       w->impl->gc_sessions_added != w->added;
                              },
                              &wake),
                          period);
      if (gc_stop) break;
      const absl::Time now = absl::Now();
      std::vector<std::shared_ptr<MasterSession>> idle;
      for (auto it = sessions.begin(); it != sessions.end();) {
        const double g = it->second->gc_seconds();
        if (g > 0 && it->second->IdleFor(now) > absl::Seconds(g)) {
          idle.push_back(std::move(it->second));
          it = sessions.erase(it);
        } else {
          ++it;
        }
      }
      if (idle.empty()) continue;
      mu.Unlock();
      for (auto& session : idle) {
        std::fprintf(stderr,
                     "sg: master of %s: closing session %s, unused for more than %g s "
                     "(sg_session_gc_seconds)\n",
                     env.local_task.c_str(), session->handle().c_str(), session->gc_seconds());
        session->Close();
      }
      idle.clear();
      mu.Lock();
    }
  }
};

Master::Master(const MasterEnv& env) : impl_(std::make_unique<Impl>()) {
  impl_->env = env;
  if (!impl_->env.background) {
    impl_->background = std::make_unique<ThreadPool>(1, /*spin=*/false);
    ThreadPool* pool = impl_->background.get();
    impl_->env.background = [pool](std::function<void()> fn) { pool->Schedule(std::move(fn)); };
  }
}

Master::~Master() {
  {
    absl::MutexLock lock(&impl_->mu);
    impl_->gc_stop = true;
  }
  if (impl_->gc_thread.joinable()) impl_->gc_thread.join();
  CancelAll();
  impl_->background.reset();  // runs the cleanups still queued
}

absl::Status Master::CreateSession(CallOptions* opts, const CreateSessionRequest& req,
                                   CreateSessionResponse* resp) {
  ConfigProto config = impl_->env.default_session_config;
  config.MergeFrom(req.config());
  const std::string handle = NewSessionHandle();
  SG_ASSIGN_OR_RETURN(auto session,
                      MasterSession::Create(impl_->env, handle, req, SetupDeadline(opts, config)));
  impl_->Add(handle, session);
  resp->set_session_handle(handle);
  resp->set_graph_version(session->graph_version());
  return absl::OkStatus();
}

absl::Status Master::ExtendSession(CallOptions* opts, const ExtendSessionRequest& req,
                                   ExtendSessionResponse* resp) {
  SG_ASSIGN_OR_RETURN(auto session, impl_->Find(req.session_handle()));
  return session->Extend(req, resp);
}

absl::Status Master::PartialRunSetup(CallOptions* opts, const PartialRunSetupRequest& req,
                                     PartialRunSetupResponse* resp) {
  if (!impl_->recent.Insert(req.request_id())) {
    return errors::Aborted("PartialRunSetup request ", req.request_id(),
                           " was received before (a retried call); it is not run twice");
  }
  SG_ASSIGN_OR_RETURN(auto session, impl_->Find(req.session_handle()));
  return session->PartialRunSetup(opts, req, resp);
}

absl::Status Master::RunStep(CallOptions* opts, const RunStepRequest& req,
                             RunStepResponse* resp) {
  absl::Status s = [&]() -> absl::Status {
    if (!impl_->recent.Insert(req.request_id())) {
      return errors::Aborted("RunStep request ", req.request_id(),
                             " was received before (a retried call); it is not run twice");
    }
    SG_ASSIGN_OR_RETURN(auto session, impl_->Find(req.session_handle()));
    return session->Run(opts, req, resp);
  }();
  if (!s.ok() && req.store_errors_in_response_body()) {
    resp->set_status_code(static_cast<error::Code>(s.code()));
    resp->set_status_error_message(std::string(s.message()));
    return absl::OkStatus();
  }
  return s;
}

absl::Status Master::ReleasePartialRun(CallOptions* opts, const ReleasePartialRunRequest& req,
                                       ReleasePartialRunResponse* resp) {
  SG_ASSIGN_OR_RETURN(auto session, impl_->Find(req.session_handle()));
  return session->ReleasePartialRun(req.partial_run_handle());
}

absl::Status Master::CloseSession(CallOptions* opts, const CloseSessionRequest& req,
                                  CloseSessionResponse* resp) {
  std::shared_ptr<MasterSession> session;
  {
    absl::MutexLock lock(&impl_->mu);
    auto it = impl_->sessions.find(req.session_handle());
    if (it == impl_->sessions.end()) {
      return errors::Aborted("Session ", req.session_handle(),
                             " is not found. Possibly, this master has restarted.");
    }
    session = it->second;
    impl_->sessions.erase(it);
  }
  session->Close();
  return absl::OkStatus();
}

absl::Status Master::ListDevices(CallOptions* opts, const ListDevicesRequest& req,
                                 ListDevicesResponse* resp) {
  std::vector<DeviceAttributes> devices;
  if (!req.session_handle().empty()) {
    SG_ASSIGN_OR_RETURN(auto session, impl_->Find(req.session_handle()));
    devices = session->devices();
  } else {
    SG_RETURN_IF_ERROR(ListClusterDevices(
        impl_->env.worker_cache, SetupDeadline(opts, impl_->env.default_session_config),
        &devices));
  }
  const std::string prefix = impl_->env.local_task + "/";
  for (const auto& d : devices) {
    *(absl::StartsWith(d.name(), prefix) ? resp->add_local_device() : resp->add_remote_device()) =
        d;
  }
  return absl::OkStatus();
}

absl::Status Master::Reset(CallOptions* opts, const ResetRequest& req, ResetResponse* resp) {
  // As TensorFlow's Reset: the master's sessions are closed, then every task's containers cleared.
  std::map<std::string, std::shared_ptr<MasterSession>> sessions;
  {
    absl::MutexLock lock(&impl_->mu);
    sessions.swap(impl_->sessions);
  }
  for (auto& kv : sessions) kv.second->Close();
  WorkerCacheInterface* cache = impl_->env.worker_cache;
  std::vector<std::string> tasks = cache->ListWorkers();
  CallGroup group(static_cast<int>(tasks.size()),
                  SetupDeadline(opts, impl_->env.default_session_config));
  CleanupAllRequest creq;
  for (const auto& c : req.container()) creq.add_container(c);
  std::vector<CleanupAllResponse> cresp(tasks.size());
  for (size_t i = 0; i < tasks.size(); ++i) {
    WorkerInterface* w = cache->GetOrCreateWorker(tasks[i]);
    if (w == nullptr) {
      group.done(i)(errors::Internal("no worker for task ", tasks[i]));
      continue;
    }
    w->CleanupAllAsync(group.opts(i), &creq, &cresp[i], group.done(i));
  }
  group.Wait();
  for (size_t i = 0; i < tasks.size(); ++i) {
    absl::Status s = group.status(i);
    if (!s.ok()) {
      std::string address = cache->Address(tasks[i]);
      return errors::Annotate(s, absl::StrCat("Reset: task ", tasks[i], " at ", address, ": "));
    }
  }
  return absl::OkStatus();
}

void Master::CancelAll() {
  std::vector<std::shared_ptr<MasterSession>> sessions;
  {
    absl::MutexLock lock(&impl_->mu);
    for (auto& kv : impl_->sessions) sessions.push_back(kv.second);
  }
  for (auto& s : sessions) {
    s->CancelSteps(errors::Cancelled("The server is stopping; the step was cancelled."));
  }
}

}  // namespace sg
