#include "distributed/master/master_session.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <numeric>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "core/util/mutex.h"
#include "core/framework/attr_value_util.h"
#include "core/framework/device.h"
#include "core/framework/device_name.h"
#include "core/framework/node_def_util.h"
#include "core/framework/rendezvous.h"
#include "core/graph/graph_constructor.h"
#include "core/runtime/step_builder.h"
#include "distributed/master/call_group.h"

namespace sg {
namespace {

std::string TaskOf(const std::string& device) {
  ParsedDeviceName p;
  if (!ParsedDeviceName::Parse(device, &p)) return device;
  return p.TaskName();
}

// A random step id with the top bits cleared (TensorFlow leaves them to other id spaces).
int64_t NewStepId() { return static_cast<int64_t>(NewIncarnation() & ((uint64_t{1} << 56) - 1)); }

int64_t NewRequestId() {
  return static_cast<int64_t>(NewIncarnation() & ((uint64_t{1} << 62) - 1)) | 1;
}

// The task errors of a fan-out, with the task and its address in front.
absl::Status TaskError(const absl::Status& s, const std::string& task,
                       WorkerCacheInterface* cache) {
  // The transport may have named the task already.
  if (absl::StrContains(s.message(), task)) return s;
  std::string address = cache ? cache->Address(task) : "";
  return errors::Annotate(
      s, absl::StrCat("From ", task, address.empty() ? "" : absl::StrCat(" (", address, ")"),
                      ": "));
}

// Sends `send` to every worker without waiting; the request and response live until done.
template <typename Req, typename Resp, typename Fn>
void FireAndForget(WorkerInterface* worker, Req req, int64_t timeout_ms, Fn call) {
  struct State {
    CallOptions opts;
    Req req;
    Resp resp;
  };
  auto* st = new State;
  st->req = std::move(req);
  st->opts.SetTimeout(timeout_ms);
  call(worker, &st->opts, &st->req, &st->resp, [st](const absl::Status&) { delete st; });
}

}  // namespace

absl::Status ListClusterDevices(WorkerCacheInterface* cache, absl::Time deadline,
                                std::vector<DeviceAttributes>* devices) {
  std::vector<std::string> tasks = cache->ListWorkers();
  std::sort(tasks.begin(), tasks.end());
  std::vector<WorkerInterface*> workers(tasks.size());
  for (size_t i = 0; i < tasks.size(); ++i) {
    workers[i] = cache->GetOrCreateWorker(tasks[i]);
    if (workers[i] == nullptr) {
      return errors::Internal("the worker cache lists task ", tasks[i], " but has no worker for it");
    }
  }
  CallGroup group(static_cast<int>(tasks.size()), deadline);
  GetStatusRequest req;
  std::vector<GetStatusResponse> resp(tasks.size());
  for (size_t i = 0; i < tasks.size(); ++i) {
    workers[i]->GetStatusAsync(group.opts(i), &req, &resp[i], group.done(i));
  }
  group.Wait();
  devices->clear();
  for (size_t i = 0; i < tasks.size(); ++i) {
    absl::Status s = group.status(i);
    if (!s.ok()) {
      if (group.timed_out() && s.code() == absl::StatusCode::kCancelled) {
        s = errors::DeadlineExceeded("no answer to GetStatus before the deadline");
      }
      absl::Status out(s.code() == absl::StatusCode::kDeadlineExceeded
                           ? s.code()
                           : absl::StatusCode::kUnavailable,
                       s.message());
      std::string address = cache->Address(tasks[i]);
      if (absl::StrContains(out.message(), tasks[i]) &&
          (address.empty() || absl::StrContains(out.message(), address))) {
        return errors::Annotate(out, "a task of the cluster is not reachable: ");
      }
      return errors::Annotate(out, absl::StrCat("task ", tasks[i], " at ",
                                                address.empty() ? "<unknown address>" : address,
                                                " is not reachable: "));
    }
    for (const auto& d : resp[i].device_attributes()) devices->push_back(d);
  }
  return absl::OkStatus();
}

std::string DefaultDeviceFor(const std::vector<std::string>& devices,
                             const std::string& client_device) {
  const std::string worker0 = "/job:worker/replica:0/task:0/device:CPU:0";
  if (std::find(devices.begin(), devices.end(), worker0) != devices.end()) return worker0;
  return client_device;
}

// ---- MasterSession ------------------------------------------------------------------------

// The piece of a step graph that runs on one task.
struct MasterPartition {
  std::string task;
  WorkerInterface* worker = nullptr;
  std::string graph_handle;
  std::vector<int> feeds;    // indexes into StepGraph::feeds whose client _Recv is here
  std::vector<int> fetches;  // indexes into StepGraph::fetches whose client _Send is here
  // Rendezvous keys of the tensors this partition sends to the master's own task, which its
  // RunGraph reply carries (recv_key) instead of a RecvTensor call (see ForwardToLocalTask).
  std::vector<std::string> forward_keys;
};

// Everything one run signature needs, registered with the workers.
struct StepGraph {
  StepGraphs step;  // the signature in canonical order, feed dtypes and shapes, rendezvous keys
  std::vector<MasterPartition> parts;
  // The master's own task's worker, in process: where forwarded tensors go (DeliverTensor).
  WorkerInterface* local_worker = nullptr;
};

struct MasterSession::Impl {
  MasterEnv env;
  ConfigProto config;
  std::string client_device;
  uint64_t client_incarnation = 0;
  std::vector<std::string> device_names;
  std::map<std::string, uint64_t> incarnations;
  std::vector<std::string> tasks;

  // The session's graph, its placement, and how a signature becomes partitions. Made by Create
  // once the cluster's devices are known.
  std::unique_ptr<StepBuilder> builder;
  mutex extend_mu;  // makes Extend's version check and the extension one step

  mutex build_mu;  // one signature is built (and registered) at a time
  mutex cache_mu;
  std::map<std::string, std::shared_ptr<StepGraph>> cache ABSL_GUARDED_BY(cache_mu);

  mutex run_mu;
  bool closed ABSL_GUARDED_BY(run_mu) = false;
  int in_flight ABSL_GUARDED_BY(run_mu) = 0;
  condition_variable calls_done;  // in_flight went to 0
  absl::Time last_used ABSL_GUARDED_BY(run_mu) = absl::Now();  // for the session GC
  // Steps in flight, each with where CancelSteps leaves its reason.
  std::map<CallGroup*, absl::Status*> steps ABSL_GUARDED_BY(run_mu);

  int64_t SetupTimeoutMs() const {
    return config.operation_timeout_in_ms() > 0 ? config.operation_timeout_in_ms()
                                                : kDefaultSetupTimeoutMs;
  }

  absl::Status BeginCall() {
    mutex_lock lock(run_mu);
    if (closed) return errors::Cancelled("Session has been closed.");
    ++in_flight;
    last_used = absl::Now();
    return absl::OkStatus();
  }
  void EndCall() {
    mutex_lock lock(run_mu);
    if (--in_flight == 0) calls_done.notify_all();
    last_used = absl::Now();
  }

  // `partial`: for a partial run, which keeps every tensor on RecvTensor.
  absl::StatusOr<std::shared_ptr<StepGraph>> GetOrBuild(const std::vector<std::string>& feeds,
                                                        const std::vector<std::string>& fetches,
                                                        const std::vector<std::string>& targets,
                                                        const std::string& session_handle,
                                                        absl::Time deadline, bool partial);
  absl::Status Build(const StepSignature& signature, StepGraph* sg,
                     const std::string& session_handle, absl::Time deadline, bool partial);
  void Deregister(const StepGraph& sg, const std::string& session_handle);
  std::map<std::string, std::vector<std::string>> ForwardToLocalTask(
      const Graph& graph, std::map<std::string, GraphDef>* per_task);
};

MasterSession::MasterSession(const MasterEnv& env, const std::string& handle)
    : impl_(std::make_unique<Impl>()), handle_(handle) {
  impl_->env = env;
}

MasterSession::~MasterSession() = default;

absl::StatusOr<std::shared_ptr<MasterSession>> MasterSession::Create(
    const MasterEnv& env, const std::string& handle, const CreateSessionRequest& req,
    absl::Time deadline) {
  if (env.worker_cache == nullptr) return errors::Internal("the master has no worker cache");
  {
    Graph check;
    absl::Status s = ImportGraphDef(req.graph_def(), ImportOptions(), &check);
    if (!s.ok()) return s;
  }
  std::shared_ptr<MasterSession> session(new MasterSession(env, handle));
  Impl* impl = session->impl_.get();
  impl->config = env.default_session_config;
  impl->config.MergeFrom(req.config());
  SG_RETURN_IF_ERROR(ListClusterDevices(env.worker_cache, deadline, &session->devices_));
  impl->client_device = env.local_task + "/device:CPU:0";
  std::set<std::string> tasks;
  for (const auto& d : session->devices_) {
    impl->device_names.push_back(d.name());
    impl->incarnations[d.name()] = d.incarnation();
    tasks.insert(TaskOf(d.name()));
    if (d.name() == impl->client_device) impl->client_incarnation = d.incarnation();
  }
  if (impl->client_incarnation == 0) {
    // The local task did not list a CPU:0; take its first device.
    for (const auto& d : session->devices_) {
      if (absl::StartsWith(d.name(), env.local_task + "/")) {
        impl->client_device = d.name();
        impl->client_incarnation = d.incarnation();
        break;
      }
    }
    if (impl->client_incarnation == 0) {
      return errors::Internal("the master's own task ", env.local_task, " lists no device");
    }
  }
  impl->tasks.assign(tasks.begin(), tasks.end());
  StepBuilderOptions bo;
  bo.devices = impl->device_names;
  bo.incarnation = [impl](const std::string& device) -> uint64_t {
    auto it = impl->incarnations.find(device);
    return it == impl->incarnations.end() ? 0 : it->second;
  };
  bo.client_device = impl->client_device;
  bo.client_incarnation = impl->client_incarnation;
  bo.placer.allow_soft_placement = impl->config.allow_soft_placement();
  bo.placer.log_device_placement = impl->config.log_device_placement();
  bo.placer.default_device = DefaultDeviceFor(impl->device_names, impl->client_device);
  bo.placer.round_robin = impl->config.experimental().sg_round_robin_placement();
  bo.optimizer = GraphOptimizerOptionsFromConfig(impl->config.graph_options());
  impl->builder = std::make_unique<StepBuilder>(std::move(bo));
  SG_RETURN_IF_ERROR(impl->builder->Extend(req.graph_def()));

  CallGroup group(static_cast<int>(impl->tasks.size()), deadline);
  CreateWorkerSessionRequest wreq;
  wreq.set_session_handle(handle);
  wreq.set_isolate_session_state(impl->config.isolate_session_state());
  for (const auto& d : session->devices_) *wreq.add_cluster_device_attributes() = d;
  std::vector<CreateWorkerSessionResponse> wresp(impl->tasks.size());
  for (size_t i = 0; i < impl->tasks.size(); ++i) {
    WorkerInterface* w = env.worker_cache->GetOrCreateWorker(impl->tasks[i]);
    if (w == nullptr) {
      group.done(i)(errors::Internal("no worker for task ", impl->tasks[i]));
      continue;
    }
    w->CreateWorkerSessionAsync(group.opts(i), &wreq, &wresp[i], group.done(i));
  }
  group.Wait();
  absl::Status first;
  for (size_t i = 0; i < impl->tasks.size(); ++i) {
    absl::Status s = group.status(i);
    if (!s.ok() && first.ok()) first = TaskError(s, impl->tasks[i], env.worker_cache);
  }
  if (!first.ok()) {
    // Drop the worker sessions that were made.
    for (size_t i = 0; i < impl->tasks.size(); ++i) {
      if (!group.status(i).ok()) continue;
      DeleteWorkerSessionRequest dreq;
      dreq.set_session_handle(handle);
      FireAndForget<DeleteWorkerSessionRequest, DeleteWorkerSessionResponse>(
          env.worker_cache->GetOrCreateWorker(impl->tasks[i]), dreq, kCloseTimeoutMs,
          [](WorkerInterface* w, CallOptions* o, auto* rq, auto* rs, StatusCallback cb) {
            w->DeleteWorkerSessionAsync(o, rq, rs, std::move(cb));
          });
    }
    return first;
  }
  return session;
}

int64_t MasterSession::graph_version() const {
  return impl_->builder->version() - 1;  // Create's graph is version 0
}

absl::Status MasterSession::Extend(const ExtendSessionRequest& req, ExtendSessionResponse* resp) {
  SG_RETURN_IF_ERROR(impl_->BeginCall());
  absl::Status status = [&]() -> absl::Status {
    mutex_lock lock(impl_->extend_mu);
    const int64_t version = graph_version();
    if (req.current_graph_version() != version) {
      return errors::Aborted("Current version is ", version, " but the caller expected ",
                             req.current_graph_version(), ".");
    }
    SG_RETURN_IF_ERROR(impl_->builder->Extend(req.graph_def()));
    resp->set_new_graph_version(version + 1);
    return absl::OkStatus();
  }();
  impl_->EndCall();
  return status;
}

absl::StatusOr<std::shared_ptr<StepGraph>> MasterSession::Impl::GetOrBuild(
    const std::vector<std::string>& feeds, const std::vector<std::string>& fetches,
    const std::vector<std::string>& targets, const std::string& session_handle,
    absl::Time deadline, bool partial) {
  // Feeds keep duplicates, so that a tensor fed twice never matches a cached signature.
  auto canonical = [](std::vector<std::string> v, bool unique) {
    std::sort(v.begin(), v.end());
    if (unique) v.erase(std::unique(v.begin(), v.end()), v.end());
    return absl::StrJoin(v, ",");
  };
  const std::string key = absl::StrCat(canonical(feeds, false), "->", canonical(fetches, true),
                                       "/", canonical(targets, true), partial ? "/partial" : "");
  {
    mutex_lock lock(cache_mu);
    auto it = cache.find(key);
    if (it != cache.end()) return it->second;
  }
  mutex_lock build_lock(build_mu);
  {
    mutex_lock lock(cache_mu);
    auto it = cache.find(key);
    if (it != cache.end()) return it->second;
  }
  auto sg = std::make_shared<StepGraph>();
  SG_RETURN_IF_ERROR(Build(StepSignature{feeds, fetches, targets, /*use_rendezvous=*/true},
                           sg.get(), session_handle, deadline, partial));
  mutex_lock lock(cache_mu);
  cache[key] = sg;
  return sg;
}

namespace {

// The largest tensor ForwardToLocalTask moves in a RunGraph reply; a larger one keeps
// RecvTensor, whose reply is written from the tensor's own buffer.
constexpr int64_t kMaxForwardBytes = 64 << 10;

bool BoolAttr(const NodeDef& n, const std::string& name) {
  auto it = n.attr().find(name);
  return it != n.attr().end() && it->second.b();
}

std::string StringAttr(const NodeDef& n, const std::string& name) {
  auto it = n.attr().find(name);
  return it == n.attr().end() ? "" : it->second.s();
}

// Whether the tensor a partition's _Send sends has a static size of at most kMaxForwardBytes.
bool SmallEnough(const Graph& graph, const NodeDef& send) {
  if (send.input_size() < 1) return false;
  // The empty tensor that stands for a control edge.
  if (absl::EndsWith(send.input(0), "/_ctrl_const")) return true;
  std::string name;
  int index = 0;
  if (!ParseTensorName(send.input(0), &name, &index) || index < 0) return false;
  const Node* n = graph.FindNode(name);
  if (n == nullptr || index >= static_cast<int>(n->output_shapes().size())) return false;
  const PartialTensorShape& shape = n->output_shapes()[index];
  if (!shape.IsFullyDefined()) return false;
  const int size = DataTypeSize(BaseType(n->output_type(index)));
  return shape.num_elements() * (size > 0 ? size : 64) <= kMaxForwardBytes;
}

}  // namespace

// A tensor that another task sends to the master's own task usually costs a RecvTensor call,
// made while that task's RunGraph is in flight: two RPCs per task and step. Here the tensor
// rides in the sender's RunGraph reply instead (as a recv_key, like a fetch) and the master
// hands it to its in-process worker (DeliverTensor), which leaves one RPC. This is sg's own
// step, not TensorFlow's; it applies only where it cannot hang a step or lose a value:
// - the master's own task runs a partition of the step in this process;
// - the sending partition receives nothing from another task, so it runs to its end on its
//   own, and has no control flow, so it sends no dead tensors;
// - the tensor has a static size of at most kMaxForwardBytes.
// Both ends' keys are rewritten to name the receiving device as sender too, which makes the key
// local in each task's rendezvous. Returns the keys per sending task.
std::map<std::string, std::vector<std::string>> MasterSession::Impl::ForwardToLocalTask(
    const Graph& graph, std::map<std::string, GraphDef>* per_task) {
  std::map<std::string, std::vector<std::string>> keys;
  const std::string& local = env.local_task;
  auto local_part = per_task->find(local);
  if (local_part == per_task->end()) return keys;
  WorkerInterface* local_worker = env.worker_cache->GetOrCreateWorker(local);
  if (local_worker == nullptr || !local_worker->InProcess()) return keys;
  std::map<std::string, NodeDef*> local_recvs;  // by tensor_name
  for (NodeDef& n : *local_part->second.mutable_node()) {
    if (n.op() == "_Recv" && !BoolAttr(n, "client_terminated")) {
      local_recvs[StringAttr(n, "tensor_name")] = &n;
    }
  }
  static const std::set<std::string> kControlFlow = {"Switch", "RefSwitch", "Merge", "RefMerge",
                                                      "Enter",  "RefEnter",  "Exit",  "RefExit",
                                                      "NextIteration", "RefNextIteration"};
  for (auto& [task, gd] : *per_task) {
    if (task == local) continue;
    bool self_contained = true;
    for (const NodeDef& n : gd.node()) {
      if (kControlFlow.count(n.op()) ||
          (n.op() == "_Recv" && !BoolAttr(n, "client_terminated") &&
           TaskOf(StringAttr(n, "send_device")) != task)) {
        self_contained = false;
        break;
      }
    }
    if (!self_contained) continue;
    for (NodeDef& send : *gd.mutable_node()) {
      if (send.op() != "_Send" || BoolAttr(send, "client_terminated")) continue;
      const std::string to = StringAttr(send, "recv_device");
      if (TaskOf(to) != local) continue;
      const std::string tensor_name = StringAttr(send, "tensor_name");
      auto recv = local_recvs.find(tensor_name);
      if (recv == local_recvs.end() || !SmallEnough(graph, send)) continue;
      AddNodeAttr("send_device", to, &send);
      AddNodeAttr("send_device", to, recv->second);
      const int64_t incarnation = send.attr().at("send_device_incarnation").i();
      keys[task].push_back(Rendezvous::CreateKey(to, static_cast<uint64_t>(incarnation), to,
                                                 tensor_name, FrameAndIter()));
    }
  }
  return keys;
}

absl::Status MasterSession::Impl::Build(const StepSignature& signature, StepGraph* sg,
                                        const std::string& session_handle, absl::Time deadline,
                                        bool partial) {
  SG_RETURN_IF_ERROR(builder->Build(signature, &sg->step));
  std::map<std::string, GraphDef>& per_device = sg->step.partitions;
  // One graph per task; the worker splits it again per device.
  std::map<std::string, GraphDef> per_task;
  for (auto& [device, part] : per_device) {
    GraphDef& t = per_task[TaskOf(device)];
    if (!t.has_versions()) *t.mutable_versions() = part.versions();
    if (t.library().function_size() == 0 && part.library().function_size() > 0) {
      *t.mutable_library() = part.library();
    }
    for (auto& node : *part.mutable_node()) t.add_node()->Swap(&node);
  }

  std::map<std::string, std::vector<std::string>> forward_keys;
  if (!partial) forward_keys = ForwardToLocalTask(*sg->step.graph, &per_task);
  sg->step.graph.reset();
  per_device.clear();
  if (!forward_keys.empty()) sg->local_worker = env.worker_cache->GetOrCreateWorker(env.local_task);

  std::vector<bool> fetch_found(sg->step.fetches.size(), false);
  for (auto& [task, gd] : per_task) {
    MasterPartition p;
    p.task = task;
    p.worker = env.worker_cache->GetOrCreateWorker(task);
    if (p.worker == nullptr) return errors::Internal("no worker for task ", task);
    p.forward_keys = std::move(forward_keys[task]);
    for (const NodeDef& node : gd.node()) {
      const bool recv = node.op() == "_Recv", send = node.op() == "_Send";
      if (!recv && !send) continue;
      auto ct = node.attr().find("client_terminated");
      if (ct == node.attr().end() || !ct->second.b()) continue;
      const std::string& name = node.attr().at("tensor_name").s();
      const auto& list = recv ? sg->step.feeds : sg->step.fetches;
      auto it = std::lower_bound(list.begin(), list.end(), name);
      if (it == list.end() || *it != name) continue;
      int idx = static_cast<int>(it - list.begin());
      if (recv) {
        p.feeds.push_back(idx);
      } else {
        p.fetches.push_back(idx);
        fetch_found[idx] = true;
      }
    }
    sg->parts.push_back(std::move(p));
  }
  for (size_t i = 0; i < sg->step.fetches.size(); ++i) {
    if (!fetch_found[i]) {
      return errors::Internal("fetch '", sg->step.fetches[i], "' has no _Send in any partition");
    }
  }

  // Register every partition with its worker at once.
  const int n = static_cast<int>(sg->parts.size());
  CallGroup group(n, deadline);
  std::vector<RegisterGraphRequest> reqs(n);
  std::vector<RegisterGraphResponse> resps(n);
  int i = 0;
  for (auto& [task, gd] : per_task) {
    reqs[i].set_session_handle(session_handle);
    reqs[i].set_create_worker_session_called(true);
    reqs[i].mutable_graph_def()->Swap(&gd);
    *reqs[i].mutable_graph_options() = config.graph_options();
    ++i;
  }
  for (int j = 0; j < n; ++j) {
    sg->parts[j].worker->RegisterGraphAsync(group.opts(j), &reqs[j], &resps[j], group.done(j));
  }
  group.Wait();
  absl::Status first;
  for (int j = 0; j < n; ++j) {
    absl::Status s = group.status(j);
    if (s.ok()) {
      sg->parts[j].graph_handle = resps[j].graph_handle();
    } else if (first.ok()) {
      first = TaskError(s, sg->parts[j].task, env.worker_cache);
    }
  }
  if (!first.ok()) {
    Deregister(*sg, session_handle);
    return first;
  }
  return absl::OkStatus();
}

void MasterSession::Impl::Deregister(const StepGraph& sg, const std::string& session_handle) {
  for (const MasterPartition& p : sg.parts) {
    if (p.graph_handle.empty()) continue;
    DeregisterGraphRequest req;
    req.set_graph_handle(p.graph_handle);
    req.set_session_handle(session_handle);
    req.set_create_worker_session_called(true);
    FireAndForget<DeregisterGraphRequest, DeregisterGraphResponse>(
        p.worker, req, kCloseTimeoutMs,
        [](WorkerInterface* w, CallOptions* o, auto* rq, auto* rs, StatusCallback cb) {
          w->DeregisterGraphAsync(o, rq, rs, std::move(cb));
        });
  }
}

namespace {

// Feed checks against the graph (StepGraphs::CheckFeed); a shape that does not parse is left to
// the worker.
absl::Status CheckFeed(const StepGraph& sg, int i, const TensorProto& t) {
  auto shape = PartialTensorShape::FromProto(t.tensor_shape());
  return sg.step.CheckFeed(i, t.dtype(), shape.ok() ? *shape : PartialTensorShape());
}

int IndexOf(const std::vector<std::string>& sorted, const std::string& name) {
  auto it = std::lower_bound(sorted.begin(), sorted.end(), name);
  return it != sorted.end() && *it == name ? static_cast<int>(it - sorted.begin()) : -1;
}

}  // namespace

// A partial run in progress: its step id and what is still to be fed and fetched.
struct MasterSession::PartialRunState {
  std::shared_ptr<StepGraph> sg;
  int64_t step_id = 0;
  mutex mu;  // one piece at a time
  std::set<std::string> pending_feeds ABSL_GUARDED_BY(mu);
  std::set<std::string> pending_fetches ABSL_GUARDED_BY(mu);
  // Guarded by Impl::run_mu: the RunGraph calls of the piece in flight, if any, which
  // ReleasePartialRun cancels; whether it was released (a piece that was waiting then fails).
  CallGroup* piece = nullptr;
  bool released = false;
};

struct MasterSession::StepCall {
  const StepGraph& sg;
  int64_t step_id;
  const std::map<std::string, const TensorProto*>& feeds;  // fed in this call, by name
  const std::vector<std::string>& fetches;                 // fetched in this call, sorted, unique
  PartialRunState* partial;  // the partial run this is a piece of; nullptr for a whole step
  bool last_partial;         // the partial run's last piece
  absl::Time deadline;
  int64_t timeout_ms;  // the timeout the deadline came from, for its error message
  CallOptions* opts;
  const RunStepRequest& req;
  RunStepResponse* resp;

  // One RunGraph request per partition: the feeds and fetches of this call that it holds.
  absl::Status MakeRequests(const std::string& session_handle,
                            std::vector<RunGraphRequest>* greqs) const;
  // The callback of partition i's RunGraph: it hands the tensors the reply carries for the
  // master's own task to that task's worker; a failed hand-over fails the call, which cancels the
  // rest of the step.
  StatusCallback Completion(int i, std::vector<RunGraphResponse>* gresps,
                            std::vector<TensorHandoff>* handoffs, StatusCallback done) const;
  // The step's error once every call ended, or OK: the first failure that is not a cancellation
  // it caused, named with its task; DEADLINE_EXCEEDED when the deadline ended it.
  absl::Status Failure(const CallGroup& group, const std::vector<RunGraphResponse>& gresps,
                       const absl::Status& cancel_status, WorkerCacheInterface* cache) const;
  // The tasks' statistics and graphs (when asked for), and the fetches by name: in `resp`, or
  // handed to the caller by reference when it is in this process and gave a TensorHandoff.
  // `handoffs` holds what the master's own worker returned that way (one per partition).
  absl::Status CollectReplies(std::vector<RunGraphResponse>* gresps,
                              std::vector<TensorHandoff>* handoffs) const;
};

absl::Status MasterSession::Run(CallOptions* opts, const RunStepRequest& req,
                                RunStepResponse* resp) {
  SG_RETURN_IF_ERROR(impl_->BeginCall());
  struct EndCallOnExit {
    Impl* impl;
    ~EndCallOnExit() { impl->EndCall(); }
  } end_call{impl_.get()};
  Impl& im = *impl_;

  const int64_t timeout_ms = req.options().timeout_in_ms() > 0
                                 ? req.options().timeout_in_ms()
                                 : im.config.operation_timeout_in_ms();
  absl::Time deadline =
      timeout_ms > 0 ? absl::Now() + absl::Milliseconds(timeout_ms) : absl::InfiniteFuture();
  deadline = std::min(deadline, opts->deadline());

  std::map<std::string, const TensorProto*> feeds;
  for (const auto& f : req.feed()) {
    if (!feeds.emplace(f.name(), &f.tensor()).second) {
      return errors::InvalidArgument("tensor '", f.name(), "' is fed more than once");
    }
  }
  std::vector<std::string> fetches(req.fetch().begin(), req.fetch().end());
  std::sort(fetches.begin(), fetches.end());
  fetches.erase(std::unique(fetches.begin(), fetches.end()), fetches.end());

  if (!req.partial_run_handle().empty()) {
    std::shared_ptr<PartialRunState> run;
    {
      mutex_lock lock(im.run_mu);
      auto it = partial_runs_.find(req.partial_run_handle());
      if (it == partial_runs_.end()) {
        return errors::InvalidArgument("unknown partial run handle '", req.partial_run_handle(),
                                       "' (finished, failed, or never set up)");
      }
      run = it->second;
    }
    mutex_lock piece(run->mu);
    for (const auto& [name, t] : feeds) {
      if (!run->pending_feeds.count(name)) {
        return errors::InvalidArgument("'", name, "' was not declared as a feed of this partial "
                                       "run, or was fed already");
      }
    }
    for (const auto& name : fetches) {
      if (!run->pending_fetches.count(name)) {
        return errors::InvalidArgument("'", name, "' was not declared as a fetch of this partial "
                                       "run, or was fetched already");
      }
    }
    for (const auto& [name, t] : feeds) run->pending_feeds.erase(name);
    for (const auto& name : fetches) run->pending_fetches.erase(name);
    const bool last = run->pending_feeds.empty() && run->pending_fetches.empty();
    absl::Status s = RunPartitions(StepCall{*run->sg, run->step_id, feeds, fetches, run.get(),
                                            last, deadline, timeout_ms, opts, req, resp});
    if (!s.ok() || last) {
      {
        mutex_lock lock(im.run_mu);
        partial_runs_.erase(req.partial_run_handle());
      }
      CleanupStep(run->sg, run->step_id);
    }
    return s;
  }

  const absl::Time setup_deadline =
      std::min(opts->deadline(), absl::Now() + absl::Milliseconds(im.SetupTimeoutMs()));
  std::vector<std::string> feed_names;
  for (const auto& kv : feeds) feed_names.push_back(kv.first);
  std::vector<std::string> targets(req.target().begin(), req.target().end());
  SG_ASSIGN_OR_RETURN(std::shared_ptr<StepGraph> sg,
                      im.GetOrBuild(feed_names, fetches, targets, handle_, setup_deadline,
                                    /*partial=*/false));
  const int64_t step_id = NewStepId();
  absl::Status s = RunPartitions(StepCall{*sg, step_id, feeds, fetches, /*partial=*/nullptr,
                                          /*last_partial=*/false, deadline, timeout_ms, opts, req,
                                          resp});
  // After a step that ran to its end on every task, each worker has dropped the step's state
  // itself (once its peers took what it sent them): CleanupGraph is for a failed step only.
  if (!s.ok()) CleanupStep(sg, step_id);
  return s;
}

void MasterSession::CleanupStep(std::shared_ptr<const StepGraph> sg, int64_t step_id) {
  // Every worker drops the step's state, wherever it stopped. The calls go out from the master's
  // background thread: the step's caller does not wait for them (as TensorFlow's master, which
  // cleans up asynchronously too).
  auto send = [sg = std::move(sg), step_id] {
    for (const MasterPartition& p : sg->parts) {
      CleanupGraphRequest c;
      c.set_step_id(step_id);
      FireAndForget<CleanupGraphRequest, CleanupGraphResponse>(
          p.worker, c, kCloseTimeoutMs,
          [](WorkerInterface* w, CallOptions* o, auto* rq, auto* rs, StatusCallback cb) {
            w->CleanupGraphAsync(o, rq, rs, std::move(cb));
          });
    }
  };
  if (impl_->env.background) {
    impl_->env.background(std::move(send));
  } else {
    send();
  }
}


absl::Status MasterSession::StepCall::MakeRequests(const std::string& session_handle,
                                                   std::vector<RunGraphRequest>* greqs) const {
  std::vector<bool> fed(sg.step.feeds.size(), false), fetched(sg.step.fetches.size(), false);
  for (const auto& [name, t] : feeds) {
    int i = IndexOf(sg.step.feeds, name);
    if (i < 0) return errors::Internal("feed '", name, "' is not in the step's signature");
    SG_RETURN_IF_ERROR(CheckFeed(sg, i, *t));
    fed[i] = true;
  }
  for (const auto& name : fetches) {
    int i = IndexOf(sg.step.fetches, name);
    if (i < 0) return errors::Internal("fetch '", name, "' is not in the step's signature");
    fetched[i] = true;
  }
  greqs->assign(sg.parts.size(), RunGraphRequest());
  for (size_t i = 0; i < sg.parts.size(); ++i) {
    const MasterPartition& p = sg.parts[i];
    RunGraphRequest& g = (*greqs)[i];
    g.set_graph_handle(p.graph_handle);
    g.set_step_id(step_id);
    g.set_session_handle(session_handle);
    g.set_create_worker_session_called(true);
    g.set_request_id(NewRequestId());
    g.set_is_partial(partial != nullptr);
    g.set_is_last_partial_run(last_partial);
    // As TensorFlow's master: a trace asks every task for its step statistics, and
    // output_partition_graphs for the graphs it ran.
    if (partial == nullptr && req.options().trace_level() > RunOptions::NO_TRACE) {
      g.mutable_exec_opts()->set_record_timeline(true);
    }
    if (partial == nullptr && req.options().output_partition_graphs()) {
      g.mutable_exec_opts()->set_record_partition_graphs(true);
    }
    for (int f : p.feeds) {
      if (!fed[f]) continue;
      NamedTensorProto* nt = g.add_send();
      nt->set_name(sg.step.feed_keys[f]);
      *nt->mutable_tensor() = *feeds.at(sg.step.feeds[f]);
    }
    for (int f : p.fetches) {
      if (fetched[f]) g.add_recv_key(sg.step.fetch_keys[f]);
    }
    for (const std::string& key : p.forward_keys) g.add_recv_key(key);
  }
  return absl::OkStatus();
}

StatusCallback MasterSession::StepCall::Completion(int i, std::vector<RunGraphResponse>* gresps,
                                                   std::vector<TensorHandoff>* handoffs,
                                                   StatusCallback done) const {
  if (sg.parts[i].forward_keys.empty()) return done;
  return [&sg = sg, gresps, handoffs, i, step_id = step_id,
          done = std::move(done)](absl::Status s) {
    RunGraphResponse& r = (*gresps)[i];
    if (s.ok() && r.status_code() != error::OK) {
      s = absl::Status(static_cast<absl::StatusCode>(r.status_code()), r.status_error_message());
    }
    const std::vector<std::string>& keys = sg.parts[i].forward_keys;
    for (const NamedTensorProto& t : r.recv()) {
      if (!s.ok()) break;
      if (std::find(keys.begin(), keys.end(), t.name()) == keys.end()) continue;
      absl::StatusOr<Tensor> value = Tensor::FromProto(t.tensor());
      s = value.ok() ? sg.local_worker->DeliverTensor(step_id, t.name(), *value)
                     : value.status();
    }
    // A worker in this process hands its values over instead (a test's in-process cluster).
    for (const std::string& key : keys) {
      Tensor value;
      if (!s.ok()) break;
      if ((*handoffs)[i].Take(key, &value)) {
        s = sg.local_worker->DeliverTensor(step_id, key, value);
      }
    }
    done(s);
  };
}

absl::Status MasterSession::StepCall::Failure(const CallGroup& group,
                                              const std::vector<RunGraphResponse>& gresps,
                                              const absl::Status& cancel_status,
                                              WorkerCacheInterface* cache) const {
  // An error stored in a response body counts as the call's error.
  const int n = static_cast<int>(sg.parts.size());
  std::vector<absl::Status> statuses(n);
  std::vector<int> order = group.failure_order();
  for (int i = 0; i < n; ++i) {
    statuses[i] = group.status(i);
    if (statuses[i].ok() && gresps[i].status_code() != error::OK) {
      statuses[i] = absl::Status(static_cast<absl::StatusCode>(gresps[i].status_code()),
                                 gresps[i].status_error_message());
      order.push_back(i);
    }
  }
  if (order.empty()) return absl::OkStatus();
  if (!cancel_status.ok()) return cancel_status;
  if (opts->cancelled()) return errors::Cancelled("the step was cancelled by its caller");
  int root = order[0];
  for (int i : order) {
    if (statuses[i].code() != absl::StatusCode::kCancelled) {
      root = i;
      break;
    }
  }
  const absl::Status& s = statuses[root];
  if (group.timed_out() || (deadline != absl::InfiniteFuture() && absl::Now() >= deadline &&
                            (s.code() == absl::StatusCode::kCancelled ||
                             s.code() == absl::StatusCode::kDeadlineExceeded))) {
    return errors::DeadlineExceeded("Timed out after ", timeout_ms,
                                    " ms waiting for the step to finish (", sg.parts[root].task,
                                    ": ", s.message(), ")");
  }
  return TaskError(s, sg.parts[root].task, cache);
}

absl::Status MasterSession::StepCall::CollectReplies(std::vector<RunGraphResponse>* gresps,
                                                     std::vector<TensorHandoff>* handoffs) const {
  for (RunGraphResponse& r : *gresps) {
    for (DeviceStepStats& d : *r.mutable_step_stats()->mutable_dev_stats()) {
      resp->mutable_metadata()->mutable_step_stats()->add_dev_stats()->Swap(&d);
    }
    for (GraphDef& g : *r.mutable_partition_graph()) {
      resp->mutable_metadata()->add_partition_graphs()->Swap(&g);
    }
  }
  // Fetches back by name, in the caller's order.
  std::map<std::string, TensorProto*> by_key;
  for (RunGraphResponse& r : *gresps) {
    for (auto& t : *r.mutable_recv()) by_key[t.name()] = t.mutable_tensor();
  }
  std::map<std::string, Tensor> handed;  // by key, from the master's own worker
  TensorHandoff* const to_caller = opts->tensor_handoff();
  std::set<std::string> moved;
  for (const std::string& f : req.fetch()) {
    const std::string& key = sg.step.fetch_keys[IndexOf(sg.step.fetches, f)];
    auto h = handed.find(key);
    if (h == handed.end()) {
      Tensor value;
      for (TensorHandoff& from : *handoffs) {
        if (from.Take(key, &value)) {
          h = handed.emplace(key, std::move(value)).first;
          break;
        }
      }
    }
    if (h != handed.end()) {
      if (to_caller != nullptr) {
        to_caller->Put(f, h->second);
      } else {
        NamedTensorProto* out = resp->add_tensor();
        out->set_name(f);
        h->second.AsProtoTensorContent(out->mutable_tensor());
      }
      continue;
    }
    auto t = by_key.find(key);
    if (t == by_key.end()) return errors::Internal("no worker returned fetch '", f, "'");
    NamedTensorProto* out = resp->add_tensor();
    out->set_name(f);
    if (moved.insert(key).second) {
      out->mutable_tensor()->Swap(t->second);
      t->second = out->mutable_tensor();
    } else {
      *out->mutable_tensor() = *t->second;
    }
  }
  return absl::OkStatus();
}

absl::Status MasterSession::RunPartitions(const StepCall& call) {
  Impl& im = *impl_;
  std::vector<RunGraphRequest> greqs;
  SG_RETURN_IF_ERROR(call.MakeRequests(handle_, &greqs));
  const int n = static_cast<int>(greqs.size());
  std::vector<RunGraphResponse> gresps(n);

  CallGroup group(n, call.deadline);
  group.set_cancel_others_on_error(true);
  absl::Status cancel_status;
  {
    mutex_lock lock(im.run_mu);
    if (call.partial != nullptr) {
      if (call.partial->released) return errors::Cancelled("The partial run was released");
      call.partial->piece = &group;
    }
    im.steps[&group] = &cancel_status;
  }
  call.opts->SetCancelCallback([&group]() { group.CancelAll(); });
  if (call.opts->cancelled()) group.CancelAll();
  // The master's own worker is in this process: it hands the fetched tensors over by reference
  // (a worker behind gRPC ignores the handoff).
  std::vector<TensorHandoff> handoffs(n);
  for (int i = 0; i < n; ++i) {
    group.opts(i)->set_tensor_handoff(&handoffs[i]);
    call.sg.parts[i].worker->RunGraphAsync(group.opts(i), &greqs[i], &gresps[i],
                                           call.Completion(i, &gresps, &handoffs,
                                                           group.done(i)));
  }
  group.Wait();
  call.opts->ClearCancelCallback();
  {
    mutex_lock lock(im.run_mu);
    im.steps.erase(&group);
    if (call.partial != nullptr) call.partial->piece = nullptr;
  }
  SG_RETURN_IF_ERROR(call.Failure(group, gresps, cancel_status, im.env.worker_cache));
  return call.CollectReplies(&gresps, &handoffs);
}

absl::Status MasterSession::PartialRunSetup(CallOptions* opts, const PartialRunSetupRequest& req,
                                            PartialRunSetupResponse* resp) {
  SG_RETURN_IF_ERROR(impl_->BeginCall());
  struct EndCallOnExit {
    Impl* impl;
    ~EndCallOnExit() { impl->EndCall(); }
  } end_call{impl_.get()};
  std::vector<std::string> feeds(req.feed().begin(), req.feed().end());
  {
    std::set<std::string> seen;
    for (const auto& f : feeds) {
      if (!seen.insert(f).second) {
        return errors::InvalidArgument("tensor '", f, "' is fed more than once");
      }
    }
  }
  const absl::Time setup_deadline =
      std::min(opts->deadline(), absl::Now() + absl::Milliseconds(impl_->SetupTimeoutMs()));
  SG_ASSIGN_OR_RETURN(
      std::shared_ptr<StepGraph> sg,
      impl_->GetOrBuild(feeds, {req.fetch().begin(), req.fetch().end()},
                        {req.target().begin(), req.target().end()}, handle_, setup_deadline,
                        /*partial=*/true));
  auto run = std::make_shared<PartialRunState>();
  run->sg = sg;
  run->step_id = NewStepId();
  {
    mutex_lock lock(run->mu);
    run->pending_feeds.insert(sg->step.feeds.begin(), sg->step.feeds.end());
    run->pending_fetches.insert(sg->step.fetches.begin(), sg->step.fetches.end());
  }
  mutex_lock lock(impl_->run_mu);
  const std::string handle = absl::StrCat(handle_, ";prun", ++next_partial_run_);
  partial_runs_[handle] = run;
  resp->set_partial_run_handle(handle);
  return absl::OkStatus();
}

absl::Status MasterSession::ReleasePartialRun(const std::string& partial_run_handle) {
  std::shared_ptr<PartialRunState> run;
  {
    mutex_lock lock(impl_->run_mu);
    auto it = partial_runs_.find(partial_run_handle);
    if (it == partial_runs_.end()) return absl::OkStatus();  // finished, failed or released
    run = std::move(it->second);
    partial_runs_.erase(it);
    run->released = true;
    // A piece in flight ends CANCELLED; it then cleans the step up itself too.
    if (run->piece != nullptr) {
      auto reason = impl_->steps.find(run->piece);
      if (reason != impl_->steps.end()) {
        *reason->second = errors::Cancelled("The partial run ", partial_run_handle,
                                            " was released");
      }
      run->piece->CancelAll();
    }
  }
  // Each worker ends the step (its executors are cancelled) and drops its state, as for a
  // partial run that Close finds unfinished.
  CleanupStep(run->sg, run->step_id);
  return absl::OkStatus();
}

double MasterSession::gc_seconds() const {
  return impl_->config.experimental().sg_session_gc_seconds();
}

void MasterSession::MarkUsed() {
  mutex_lock lock(impl_->run_mu);
  impl_->last_used = absl::Now();
}

absl::Duration MasterSession::IdleFor(absl::Time now) {
  mutex_lock lock(impl_->run_mu);
  if (impl_->in_flight > 0) return absl::ZeroDuration();
  return now - impl_->last_used;
}

void MasterSession::CancelSteps(const absl::Status& status) {
  mutex_lock lock(impl_->run_mu);
  // Cancelling under the lock keeps each group alive: Run erases it under this lock first.
  for (auto& [group, reason] : impl_->steps) {
    *reason = status;
    group->CancelAll();
  }
}

void MasterSession::Close() {
  {
    mutex_lock lock(impl_->run_mu);
    if (impl_->closed) return;
    impl_->closed = true;
  }
  CancelSteps(errors::Cancelled("Step was cancelled by an explicit call to Session::Close()."));
  {
    mutex_lock lock(impl_->run_mu);
    while (impl_->in_flight != 0) impl_->calls_done.wait(impl_->run_mu);
  }
  std::map<std::string, std::shared_ptr<PartialRunState>> partial_runs;
  {
    mutex_lock lock(impl_->run_mu);
    partial_runs.swap(partial_runs_);
  }
  for (auto& kv : partial_runs) CleanupStep(kv.second->sg, kv.second->step_id);
  std::map<std::string, std::shared_ptr<StepGraph>> cache;
  {
    mutex_lock lock(impl_->cache_mu);
    cache.swap(impl_->cache);
  }
  for (auto& kv : cache) impl_->Deregister(*kv.second, handle_);
  for (const std::string& task : impl_->tasks) {
    WorkerInterface* w = impl_->env.worker_cache->GetOrCreateWorker(task);
    if (w == nullptr) continue;
    DeleteWorkerSessionRequest req;
    req.set_session_handle(handle_);
    FireAndForget<DeleteWorkerSessionRequest, DeleteWorkerSessionResponse>(
        w, req, kCloseTimeoutMs,
        [](WorkerInterface* w, CallOptions* o, auto* rq, auto* rs, StatusCallback cb) {
          w->DeleteWorkerSessionAsync(o, rq, rs, std::move(cb));
        });
  }
}

}  // namespace sg
