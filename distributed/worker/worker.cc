#include "distributed/worker/worker.h"

#include <atomic>
#include <deque>
#include <map>
#include <set>
#include <unordered_set>

#include "absl/strings/str_format.h"
#include "core/util/mutex.h"
#include "core/framework/cancellation.h"
#include "core/runtime/step_stats_collector.h"
#include "distributed/worker/graph_mgr.h"
#include "distributed/worker/rendezvous_mgr.h"

namespace sg {
namespace {

// Request ids remembered to reject retried RunGraph/RecvTensor calls (as TensorFlow's worker).
constexpr size_t kRememberRequestIds = 100000;

// One step of one registered graph on this worker (a partial run lives across several RunGraph
// calls).
struct Step {
  int64_t step_id = 0;
  std::shared_ptr<const GraphMgr::Item> item;
  std::shared_ptr<StepRendezvous> rendezvous;
  CancellationManager cancellation;
  ResourceMgr step_resources;
  // Set when the RunGraph request asks for a timeline (ExecutorOpts.record_timeline).
  std::unique_ptr<StepStatsCollector> stats;

  mutex mu;
  bool finished ABSL_GUARDED_BY(mu) = false;
  absl::Status status ABSL_GUARDED_BY(mu);
  std::vector<std::function<void(const absl::Status&)>> on_finish ABSL_GUARDED_BY(mu);

  // Runs `fn` with the step's status once all its executors are done (maybe at once).
  void WhenFinished(std::function<void(const absl::Status&)> fn) {
    absl::Status s;
    {
      mutex_lock lock(mu);
      if (!finished) {
        on_finish.push_back(std::move(fn));
        return;
      }
      s = status;
    }
    fn(s);
  }
};

// Calls `done` at most once: whichever of the value and the cancellation comes first.
struct OnceDone {
  std::atomic<bool> fired{false};
  bool Claim() { return !fired.exchange(true); }
};

}  // namespace

struct Worker::Impl {
  explicit Impl(const WorkerEnv& e)
      : env(e), graph_mgr(e.devices), rendezvous_mgr(RendezvousEnv{e.task_name, e.worker_cache}) {}

  const WorkerEnv env;
  GraphMgr graph_mgr;
  RendezvousMgr rendezvous_mgr;

  mutex mu;
  std::set<std::string> sessions ABSL_GUARDED_BY(mu);
  std::unordered_set<int64_t> request_ids ABSL_GUARDED_BY(mu);
  std::deque<int64_t> request_order ABSL_GUARDED_BY(mu);
  std::set<std::shared_ptr<Step>> active ABSL_GUARDED_BY(mu);
  condition_variable steps_done;  // active became empty
  std::map<int64_t, std::shared_ptr<Step>> partial_runs ABSL_GUARDED_BY(mu);
  absl::Status stopping ABSL_GUARDED_BY(mu);  // not OK between BeginStop and Resume

  absl::Status Stopping() {
    mutex_lock lock(mu);
    return stopping;
  }

  // False (and remembered) for a non-zero id seen before.
  bool FirstUse(int64_t request_id) {
    if (request_id == 0) return true;
    mutex_lock lock(mu);
    if (!request_ids.insert(request_id).second) return false;
    request_order.push_back(request_id);
    if (request_order.size() > kRememberRequestIds) {
      request_ids.erase(request_order.front());
      request_order.pop_front();
    }
    return true;
  }

  absl::Status CheckSession(const std::string& handle, bool create_worker_session_called) {
    if (!create_worker_session_called) return absl::OkStatus();
    mutex_lock lock(mu);
    if (sessions.count(handle)) return absl::OkStatus();
    return errors::Aborted("Session ", handle, " is not found on ", env.task_name,
                           " (the worker may have restarted)");
  }

  Device* FindDevice(const std::string& name) const {
    for (Device* d : env.devices) {
      if (d->name() == name) return d;
    }
    return nullptr;
  }

  // Starts the executors of `step`; the step is active until they finish.
  void Start(const std::shared_ptr<Step>& step) {
    absl::Status stop;
    {
      mutex_lock lock(mu);
      active.insert(step);
      stop = stopping;
    }
    if (!stop.ok()) {
      // BeginStop came after RunGraph's check: the step ends at once, as AbortAll ends it.
      step->rendezvous->StartAbort(stop);
      step->cancellation.StartCancel();
    }
    std::weak_ptr<StepRendezvous> weak_r = step->rendezvous;
    step->cancellation.RegisterCallback(step->cancellation.NewToken(), [weak_r, id = step->step_id] {
      if (auto r = weak_r.lock()) r->StartAbort(errors::Cancelled("Step ", id, " was cancelled"));
    });
    Executor::Args args;
    args.step_id = step->step_id;
    args.rendezvous = step->rendezvous.get();
    args.cancellation_manager = &step->cancellation;
    args.step_resources = &step->step_resources;
    args.runner = env.runner;
    args.stats_collector = step->stats.get();
    GraphMgr::ExecuteAsync(*step->item, args, [this, step](const absl::Status& s) {
      std::vector<std::function<void(const absl::Status&)>> fns;
      {
        mutex_lock lock(step->mu);
        step->finished = true;
        step->status = s;
        fns.swap(step->on_finish);
      }
      for (auto& fn : fns) fn(s);
      mutex_lock lock(mu);
      active.erase(step);
      if (active.empty()) steps_done.notify_all();
    });
  }

  // What RunGraph's ExecutorOpts ask for, into the response of a step that finished: the step's
  // statistics (record_timeline) and this task's graphs, one per device (record_partition_graphs).
  static void AddMetadata(const RunGraphRequest& req, Step& step, RunGraphResponse* resp) {
    if (step.stats != nullptr) step.stats->Finalize(resp->mutable_step_stats());
    if (req.exec_opts().record_partition_graphs()) {
      for (const auto& exec : step.item->executors) {
        exec->graph().ToGraphDef(resp->add_partition_graph());
      }
    }
  }

  // Pushes the RunGraph request's feeds into the step's rendezvous.
  static absl::Status SendInputs(const RunGraphRequest& req, Rendezvous* r) {
    for (const NamedTensorProto& nt : req.send()) {
      Rendezvous::ParsedKey key;
      SG_RETURN_IF_ERROR(Rendezvous::ParseKey(nt.name(), &key));
      SG_ASSIGN_OR_RETURN(Tensor t, Tensor::FromProto(nt.tensor()));
      SG_RETURN_IF_ERROR(r->Send(key, t, false));
    }
    return absl::OkStatus();
  }

  // Pulls every recv_key out of the rendezvous into `resp`, or into `handoff` when the caller
  // is in this process and gave one (no copy of the payloads). With `wait` false a value that is
  // not there yet is an error (the step finished without producing it).
  static void RecvOutputs(const RunGraphRequest* req, RunGraphResponse* resp, StepRendezvous* r,
                          TensorHandoff* handoff, bool wait, StatusCallback done) {
    struct State {
      State(int n, StatusCallback d) : done(std::move(d)), remaining(n), values(n) {}
      const StatusCallback done;
      mutex mu;
      int remaining ABSL_GUARDED_BY(mu);
      absl::Status status ABSL_GUARDED_BY(mu);
      std::vector<Tensor> values ABSL_GUARDED_BY(mu);
    };
    const int n = req->recv_key_size();
    if (n == 0) {
      done(absl::OkStatus());
      return;
    }
    auto st = std::make_shared<State>(n, std::move(done));
    auto finish_one = [st, req, resp, handoff](int i, const absl::Status& s, const Tensor& v,
                                               bool dead) {
      absl::Status status;
      std::vector<Tensor> values;
      {
        mutex_lock lock(st->mu);
        if (s.ok() && dead) {
          if (st->status.ok()) {
            st->status = errors::InvalidArgument("The tensor for rendezvous key ",
                                                 req->recv_key(i), " is dead (an untaken branch)");
          }
        } else if (!s.ok()) {
          if (st->status.ok()) st->status = s;
        } else {
          st->values[i] = v;
        }
        if (--st->remaining > 0) return;
        status = st->status;
        values = std::move(st->values);
      }
      if (status.ok()) {
        for (int j = 0; j < req->recv_key_size(); ++j) {
          if (handoff != nullptr) {
            handoff->Put(req->recv_key(j), values[j]);
            continue;
          }
          NamedTensorProto* out = resp->add_recv();
          out->set_name(req->recv_key(j));
          values[j].AsProtoTensorContent(out->mutable_tensor());
        }
      }
      st->done(status);
    };
    for (int i = 0; i < n; ++i) {
      Rendezvous::ParsedKey key;
      absl::Status s = Rendezvous::ParseKey(req->recv_key(i), &key);
      if (!s.ok()) {
        finish_one(i, s, Tensor(), false);
        continue;
      }
      auto got = std::make_shared<std::atomic<bool>>(false);
      r->RecvAsync(key, [finish_one, i, got](const absl::Status& s, const Tensor& v, bool dead) {
        got->store(true);
        finish_one(i, s, v, dead);
      });
      if (!wait && !got->load()) {
        // The waiter is failed by the abort, which reports this error for it.
        r->StartAbort(errors::InvalidArgument("RunGraph: recv_key ", req->recv_key(i),
                                              " was not produced by the graph"));
      }
    }
  }
};

Worker::Worker(const WorkerEnv& env) : impl_(std::make_unique<Impl>(env)) {}

Worker::~Worker() {
  AbortAll(errors::Cancelled("The worker was destroyed"));
  mutex_lock lock(impl_->mu);
  while (!impl_->active.empty()) impl_->steps_done.wait(impl_->mu);
}

void Worker::GetStatusAsync(CallOptions* opts, const GetStatusRequest* req,
                            GetStatusResponse* resp, StatusCallback done) {
  resp->clear_device_attributes();
  for (Device* d : impl_->env.devices) *resp->add_device_attributes() = d->attributes();
  done(absl::OkStatus());
}

void Worker::CreateWorkerSessionAsync(CallOptions* opts, const CreateWorkerSessionRequest* req,
                                      CreateWorkerSessionResponse* resp, StatusCallback done) {
  if (req->session_handle().empty()) {
    done(errors::InvalidArgument("CreateWorkerSession: empty session handle"));
    return;
  }
  {
    mutex_lock lock(impl_->mu);
    impl_->sessions.insert(req->session_handle());
  }
  done(absl::OkStatus());
}

void Worker::DeleteWorkerSessionAsync(CallOptions* opts, const DeleteWorkerSessionRequest* req,
                                      DeleteWorkerSessionResponse* resp, StatusCallback done) {
  {
    mutex_lock lock(impl_->mu);
    impl_->sessions.erase(req->session_handle());
  }
  impl_->graph_mgr.DeregisterSession(req->session_handle());
  done(absl::OkStatus());
}

void Worker::RegisterGraphAsync(CallOptions* opts, const RegisterGraphRequest* req,
                                RegisterGraphResponse* resp, StatusCallback done) {
  absl::Status s =
      impl_->CheckSession(req->session_handle(), req->create_worker_session_called());
  if (s.ok()) {
    std::string handle;
    s = impl_->graph_mgr.Register(req->session_handle(), req->graph_def(), &handle);
    if (s.ok()) resp->set_graph_handle(handle);
  }
  done(s);
}

void Worker::DeregisterGraphAsync(CallOptions* opts, const DeregisterGraphRequest* req,
                                  DeregisterGraphResponse* resp, StatusCallback done) {
  done(impl_->graph_mgr.Deregister(req->graph_handle()));
}

void Worker::RunGraphAsync(CallOptions* opts, const RunGraphRequest* req, RunGraphResponse* resp,
                           StatusCallback done) {
  Impl* impl = impl_.get();
  // Errors go into the response body when asked, with an OK call.
  auto finish = [opts, req, resp, done = std::move(done)](const absl::Status& s) {
    if (opts != nullptr) opts->ClearCancelCallback();
    if (!s.ok() && req->store_errors_in_response_body()) {
      resp->clear_recv();
      resp->set_status_code(static_cast<error::Code>(s.code()));
      resp->set_status_error_message(std::string(s.message()));
      done(absl::OkStatus());
      return;
    }
    done(s);
  };
  if (absl::Status stop = impl->Stopping(); !stop.ok()) {
    finish(stop);
    return;
  }
  if (!impl->FirstUse(req->request_id())) {
    finish(errors::Aborted("RunGraph request ", req->request_id(),
                           " was received more than once (a retried call is not run twice)"));
    return;
  }
  auto item = impl->graph_mgr.Lookup(req->graph_handle());
  if (item == nullptr) {
    finish(errors::Aborted("Graph handle ", req->graph_handle(), " is not found on ",
                           impl->env.task_name, " (the worker may have restarted)"));
    return;
  }
  absl::Status s = impl->CheckSession(req->session_handle(), req->create_worker_session_called());
  if (!s.ok()) {
    finish(s);
    return;
  }

  std::shared_ptr<Step> step;
  bool start = true;
  if (req->is_partial()) {
    mutex_lock lock(impl->mu);
    auto it = impl->partial_runs.find(req->step_id());
    if (it != impl->partial_runs.end()) {
      step = it->second;
      start = false;
    }
  }
  if (step == nullptr) {
    step = std::make_shared<Step>();
    step->step_id = req->step_id();
    step->item = item;
    step->rendezvous = impl->rendezvous_mgr.Find(req->step_id());
    if (req->exec_opts().record_timeline() && !req->is_partial()) {
      step->stats = std::make_unique<StepStatsCollector>();
    }
    if (req->is_partial()) {
      mutex_lock lock(impl->mu);
      impl->partial_runs[req->step_id()] = step;
    }
  }
  if (opts != nullptr) {
    step->rendezvous->SetDeadline(opts->deadline());
    std::weak_ptr<Step> weak = step;
    opts->SetCancelCallback([weak] {
      if (auto st = weak.lock()) st->cancellation.StartCancel();
    });
    if (opts->cancelled()) opts->StartCancel();  // cancelled before the callback was there
  }
  TensorHandoff* const handoff = opts != nullptr ? opts->tensor_handoff() : nullptr;
  s = Impl::SendInputs(*req, step->rendezvous.get());
  if (!s.ok()) {
    step->rendezvous->StartAbort(s);
    if (req->is_partial()) {
      mutex_lock lock(impl->mu);
      impl->partial_runs.erase(req->step_id());
    }
    if (!start) {
      step->WhenFinished([finish, s](const absl::Status&) { finish(s); });
    } else {
      finish(s);
    }
    return;
  }
  if (start) impl->Start(step);

  if (!req->is_partial()) {
    step->WhenFinished([impl, step, req, resp, handoff, finish](const absl::Status& s) {
      if (!s.ok()) {
        finish(s);
        return;
      }
      Impl::RecvOutputs(req, resp, step->rendezvous.get(), handoff, /*wait=*/false,
                        [impl, step, req, resp, finish](const absl::Status& s) {
                          // A step that ran to the end here is dropped once its peers took
                          // what it sent them; the master sends CleanupGraph only after a
                          // failed step.
                          if (s.ok()) {
                            impl->rendezvous_mgr.CleanupWhenDrained(step->step_id);
                            Impl::AddMetadata(*req, *step, resp);
                          }
                          finish(s);
                        });
    });
    return;
  }
  // A partial run: the outputs come while the executors still run; the last call also waits for
  // the end of the step.
  Impl::RecvOutputs(
      req, resp, step->rendezvous.get(), handoff, /*wait=*/true,
      [impl, step, req, finish](const absl::Status& s) {
        if (!s.ok() || req->is_last_partial_run()) {
          if (!s.ok()) step->cancellation.StartCancel();
          step->WhenFinished([impl, step, req, finish, s](const absl::Status& run_status) {
            {
              mutex_lock lock(impl->mu);
              auto it = impl->partial_runs.find(req->step_id());
              if (it != impl->partial_runs.end() && it->second == step) {
                impl->partial_runs.erase(it);
              }
            }
            finish(!run_status.ok() ? run_status : s);
          });
          return;
        }
        finish(s);
      });
}

absl::Status Worker::DeliverTensor(int64_t step_id, const std::string& key,
                                   const Tensor& value) {
  Rendezvous::ParsedKey parsed;
  SG_RETURN_IF_ERROR(Rendezvous::ParseKey(key, &parsed));
  return impl_->rendezvous_mgr.Find(step_id)->Send(parsed, value, false);
}

void Worker::CleanupGraphAsync(CallOptions* opts, const CleanupGraphRequest* req,
                               CleanupGraphResponse* resp, StatusCallback done) {
  std::shared_ptr<Step> partial;
  {
    mutex_lock lock(impl_->mu);
    auto it = impl_->partial_runs.find(req->step_id());
    if (it != impl_->partial_runs.end()) {
      partial = it->second;
      impl_->partial_runs.erase(it);
    }
  }
  if (partial) partial->cancellation.StartCancel();
  impl_->rendezvous_mgr.Cleanup(req->step_id());
  done(absl::OkStatus());
}

void Worker::CleanupAllAsync(CallOptions* opts, const CleanupAllRequest* req,
                             CleanupAllResponse* resp, StatusCallback done) {
  for (Device* d : impl_->env.devices) {
    if (req->container_size() == 0) {
      d->resource_manager()->Clear();
    } else {
      for (const std::string& c : req->container()) d->resource_manager()->Cleanup(c);
    }
  }
  done(absl::OkStatus());
}

void Worker::RecvTensorAsync(CallOptions* opts, const RecvTensorRequest* req,
                             RecvTensorResult* result, StatusCallback done) {
  if (absl::Status stop = impl_->Stopping(); !stop.ok()) {
    done(stop);
    return;
  }
  Rendezvous::ParsedKey key;
  absl::Status s = Rendezvous::ParseKey(req->rendezvous_key(), &key);
  if (!s.ok()) {
    done(s);
    return;
  }
  Device* src = impl_->FindDevice(key.src_device);
  if (src == nullptr) {
    done(errors::InvalidArgument("RecvTensor: the source device ", key.src_device,
                                 " of rendezvous key ", key.full_key, " is not a device of ",
                                 impl_->env.task_name));
    return;
  }
  if (src->incarnation() != key.src_incarnation) {
    done(errors::Aborted(absl::StrFormat(
        "RecvTensor expects incarnation %016x of device %s, but that device has incarnation "
        "%016x: its task was probably restarted",
        key.src_incarnation, key.src_device, src->incarnation())));
    return;
  }
  if (!impl_->FirstUse(req->request_id())) {
    done(errors::Aborted("RecvTensor request ", req->request_id(),
                         " was received more than once (a retried call is not run twice)"));
    return;
  }
  auto once = std::make_shared<OnceDone>();
  auto shared_done = std::make_shared<StatusCallback>(std::move(done));
  if (opts != nullptr) {
    opts->SetCancelCallback([once, shared_done] {
      if (once->Claim()) (*shared_done)(errors::Cancelled("RecvTensor was cancelled"));
    });
    if (opts->cancelled()) opts->StartCancel();
  }
  std::shared_ptr<StepRendezvous> r = impl_->rendezvous_mgr.Find(req->step_id());
  r->RecvLocalAsync(key, [once, shared_done, opts, result](const absl::Status& s,
                                                           const Tensor& v, bool dead) {
    if (!once->Claim()) return;  // cancelled: `opts` and `result` may be gone
    if (opts != nullptr) opts->ClearCancelCallback();
    if (s.ok()) {
      result->tensor = v;
      result->is_dead = dead;
    }
    (*shared_done)(s);
  });
}

void Worker::BeginStop(const absl::Status& status) {
  {
    mutex_lock lock(impl_->mu);
    impl_->stopping = status.ok() ? errors::Cancelled("the worker is stopping") : status;
  }
  AbortAll(status);
}

void Worker::Resume() {
  mutex_lock lock(impl_->mu);
  impl_->stopping = absl::OkStatus();
}

void Worker::AbortAll(const absl::Status& status) {
  std::vector<std::shared_ptr<Step>> steps;
  {
    mutex_lock lock(impl_->mu);
    steps.assign(impl_->active.begin(), impl_->active.end());
    impl_->partial_runs.clear();
  }
  for (auto& st : steps) {
    st->rendezvous->StartAbort(status);
    st->cancellation.StartCancel();
  }
  impl_->rendezvous_mgr.AbortAll(status);
}

}  // namespace sg
