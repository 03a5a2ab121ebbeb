#include "distributed/master/master_session.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <numeric>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "absl/synchronization/mutex.h"
#include "core/framework/attr_value_util.h"
#include "core/framework/device.h"
#include "core/framework/device_name.h"
#include "core/framework/node_def_util.h"
#include "core/framework/rendezvous.h"
#include "core/graph/graph_constructor.h"
#include "core/graph/partition.h"
#include "core/graph/placer.h"
#include "core/graph/subgraph.h"
#include "core/graph/union_find.h"
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

bool RoundRobinRequested() {
  const char* v = std::getenv("SG_TEST_ROUND_ROBIN_PLACEMENT");
  return v != nullptr && std::string(v) == "1";
}

// The first device matching `request`; with soft placement, the first of its job and task; else
// `fallback`.
std::string MatchDevice(const ParsedDeviceName& request, const std::vector<std::string>& devices,
                        const std::vector<ParsedDeviceName>& parsed, const std::string& fallback) {
  for (size_t i = 0; i < devices.size(); ++i) {
    if (parsed[i].Matches(request)) return devices[i];
  }
  ParsedDeviceName loose = request;
  loose.has_type = loose.has_id = false;
  for (size_t i = 0; i < devices.size(); ++i) {
    if (parsed[i].Matches(loose)) return devices[i];
  }
  return fallback;
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

std::function<std::string(const Node*)> RoundRobinPlacement(
    const Graph& g, const std::vector<std::string>& devices) {
  const int n = g.num_node_ids();
  UnionFind uf(n);
  const std::vector<Node*> nodes = g.nodes();
  for (Node* node : nodes) {
    auto cls = node->def().attr().find("_class");
    if (cls != node->def().attr().end()) {
      for (const std::string& c : cls->second.list().s()) {
        if (!absl::StartsWith(c, "loc:@")) continue;
        if (Node* other = g.FindNode(c.substr(5))) uf.Union(node->id(), other->id());
      }
    }
    const bool cf = node->IsControlFlow() || node->IsLoopCond();
    for (const Edge* e : node->in_edges()) {
      if (cf || e->src->IsControlFlow() || e->src->IsLoopCond()) {
        uf.Union(node->id(), e->src->id());
        continue;
      }
      if (e->IsControlEdge()) continue;
      DataType t = e->src->output_type(e->src_output);
      if (IsRefType(t) || t == DT_RESOURCE) uf.Union(node->id(), e->src->id());
    }
  }
  // While-loop frames: each node's depth and outermost frame, found from the roots forward.
  std::vector<int> depth(n, 0);
  std::vector<std::string> outer(n);
  std::vector<bool> seen(n, false);
  std::vector<Node*> queue;
  for (Node* node : nodes) {
    if (node->in_edges().empty()) {
      seen[node->id()] = true;
      queue.push_back(node);
    }
  }
  for (size_t q = 0; q < queue.size(); ++q) {
    Node* src = queue[q];
    int d = depth[src->id()];
    std::string o = outer[src->id()];
    if (src->IsEnter()) {
      if (d == 0) {
        auto it = src->def().attr().find("frame_name");
        o = it != src->def().attr().end() ? it->second.s() : src->name();
        o = "frame:" + o;
      }
      ++d;
    } else if (src->IsExit()) {
      d = std::max(0, d - 1);
      if (d == 0) o.clear();
    }
    for (const Edge* e : src->out_edges()) {
      Node* dst = e->dst;
      if (seen[dst->id()]) continue;
      seen[dst->id()] = true;
      depth[dst->id()] = d;
      outer[dst->id()] = o;
      queue.push_back(dst);
    }
  }
  std::map<std::string, int> frame_member;
  for (Node* node : nodes) {
    const std::string& o = outer[node->id()];
    if (o.empty()) continue;
    auto [it, inserted] = frame_member.emplace(o, node->id());
    if (!inserted) uf.Union(node->id(), it->second);
  }

  struct State {
    std::vector<int> root;
    std::map<int, ParsedDeviceName> request;
    std::map<int, std::string> chosen;
    std::vector<std::string> devices;
    std::vector<ParsedDeviceName> parsed;
    size_t next = 0;
  };
  auto st = std::make_shared<State>();
  st->root.assign(n, -1);
  st->devices = devices;
  for (const std::string& d : devices) {
    ParsedDeviceName p;
    ParsedDeviceName::Parse(d, &p);
    st->parsed.push_back(p);
  }
  for (Node* node : nodes) {
    int r = uf.Find(node->id());
    st->root[node->id()] = r;
    ParsedDeviceName p;
    if (!node->requested_device().empty() &&
        ParsedDeviceName::Parse(node->requested_device(), &p) && !st->request.count(r)) {
      st->request[r] = p;
    }
  }
  return [st](const Node* node) -> std::string {
    int r = node->id() < st->root.size() ? st->root[node->id()] : -1;
    if (r < 0) return st->devices[st->next++ % st->devices.size()];
    auto it = st->chosen.find(r);
    if (it != st->chosen.end()) return it->second;
    std::string device;
    auto req = st->request.find(r);
    if (req != st->request.end()) {
      device = MatchDevice(req->second, st->devices, st->parsed, st->devices[0]);
    } else {
      device = st->devices[st->next++ % st->devices.size()];
    }
    st->chosen[r] = device;
    return device;
  };
}

// The partitioner cannot cut an edge into or out of a control-flow node. Where placement put the
// two ends of such a data edge on different devices (typically a fetch of a loop's Exit or a
// cond's Merge, whose _Send sits on the client device), an Identity on the control-flow node's
// device takes the edge's place there, and the cut falls between ordinary nodes.
absl::Status BridgeControlFlowEdges(Graph* g) {
  std::vector<const Edge*> cut;
  for (Node* n : g->nodes()) {
    for (const Edge* e : n->in_edges()) {
      if (e->IsControlEdge()) continue;
      if (e->src->assigned_device_name() == n->assigned_device_name()) continue;
      if (e->src->IsControlFlow() || n->IsControlFlow()) cut.push_back(e);
    }
  }
  for (const Edge* e : cut) {
    Node* src = e->src;
    Node* dst = e->dst;
    const int src_output = e->src_output, dst_input = e->dst_input;
    const DataType dtype = BaseType(src->output_type(src_output));
    auto bridge = [&](Node* side) -> absl::StatusOr<Node*> {
      NodeDef def;
      def.set_name(g->NewName(absl::StrCat(src->name(), "/_cf_bridge")));
      def.set_op("Identity");
      def.set_device(side->assigned_device_name());
      AddNodeAttr("T", dtype, &def);
      SG_ASSIGN_OR_RETURN(Node * id, g->AddNode(std::move(def)));
      id->set_assigned_device_name(side->assigned_device_name());
      return id;
    };
    g->RemoveEdge(e);
    Node* from = src;
    int from_output = src_output;
    if (src->IsControlFlow()) {
      SG_ASSIGN_OR_RETURN(Node * id, bridge(src));
      SG_RETURN_IF_ERROR(g->AddEdge(from, from_output, id, 0).status());
      from = id;
      from_output = 0;
    }
    if (dst->IsControlFlow()) {
      SG_ASSIGN_OR_RETURN(Node * id, bridge(dst));
      SG_RETURN_IF_ERROR(g->AddEdge(from, from_output, id, 0).status());
      from = id;
      from_output = 0;
    }
    SG_RETURN_IF_ERROR(g->AddEdge(from, from_output, dst, dst_input).status());
  }
  return absl::OkStatus();
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
  std::vector<std::string> feeds;    // sorted
  std::vector<std::string> fetches;  // sorted, unique
  std::vector<DataType> feed_types;
  std::vector<PartialTensorShape> feed_shapes;
  std::vector<std::string> feed_keys, fetch_keys;
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

  mutable absl::Mutex graph_mu;
  GraphDef graph_def ABSL_GUARDED_BY(graph_mu);
  int64_t graph_version ABSL_GUARDED_BY(graph_mu) = 0;

  absl::Mutex build_mu;  // one signature is built at a time
  // The device of every node of the whole graph (as of placed_version), guarded by build_mu. As
  // TensorFlow does, the whole graph is placed, not each step's pruned piece, so that a variable
  // sits on one device whatever the step; nodes keep their device when the graph is extended.
  std::map<std::string, std::string> placement;
  int64_t placed_version = -1;

  absl::Status PlaceWholeGraph(const GraphDef& gdef) {
    Graph graph;
    SG_RETURN_IF_ERROR(ImportGraphDef(gdef, ImportOptions(), &graph));
    SG_RETURN_IF_ERROR(InlineFunctionCalls(&graph));
    for (Node* n : graph.nodes()) {
      auto it = placement.find(n->name());
      if (it != placement.end()) n->set_requested_device(it->second);
    }
    PlacerOptions po;
    po.allow_soft_placement = config.allow_soft_placement();
    po.log_device_placement = config.log_device_placement();
    po.default_device = DefaultDeviceFor(device_names, client_device);
    if (RoundRobinRequested()) po.unconstrained_device = RoundRobinPlacement(graph, device_names);
    SG_RETURN_IF_ERROR(PlaceGraph(&graph, device_names, po));
    placement.clear();
    for (Node* n : graph.nodes()) placement[n->name()] = n->assigned_device_name();
    return absl::OkStatus();
  }
  absl::Mutex cache_mu;
  std::map<std::string, std::shared_ptr<StepGraph>> cache ABSL_GUARDED_BY(cache_mu);

  absl::Mutex run_mu;
  bool closed ABSL_GUARDED_BY(run_mu) = false;
  int in_flight ABSL_GUARDED_BY(run_mu) = 0;
  // Steps in flight, each with where CancelSteps leaves its reason.
  std::map<CallGroup*, absl::Status*> steps ABSL_GUARDED_BY(run_mu);

  int64_t SetupTimeoutMs() const {
    return config.operation_timeout_in_ms() > 0 ? config.operation_timeout_in_ms()
                                                : kDefaultSetupTimeoutMs;
  }

  absl::Status BeginCall() {
    absl::MutexLock lock(&run_mu);
    if (closed) return errors::Cancelled("Session has been closed.");
    ++in_flight;
    return absl::OkStatus();
  }
  void EndCall() {
    absl::MutexLock lock(&run_mu);
    --in_flight;
  }

  // `partial`: for a partial run, which keeps every tensor on RecvTensor.
  absl::StatusOr<std::shared_ptr<StepGraph>> GetOrBuild(std::vector<std::string> feeds,
                                                        std::vector<std::string> fetches,
                                                        std::vector<std::string> targets,
                                                        const std::string& session_handle,
                                                        absl::Time deadline, bool partial);
  absl::Status Build(StepGraph* sg, const std::vector<std::string>& targets,
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
  {
    absl::MutexLock lock(&impl->graph_mu);
    impl->graph_def = req.graph_def();
  }
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
  absl::MutexLock lock(&impl_->graph_mu);
  return impl_->graph_version;
}

absl::Status MasterSession::Extend(const ExtendSessionRequest& req, ExtendSessionResponse* resp) {
  SG_RETURN_IF_ERROR(impl_->BeginCall());
  absl::Status status = [&]() -> absl::Status {
    absl::MutexLock lock(&impl_->graph_mu);
    if (req.current_graph_version() != impl_->graph_version) {
      return errors::Aborted("Current version is ", impl_->graph_version,
                             " but the caller expected ", req.current_graph_version(), ".");
    }
    GraphDef merged = impl_->graph_def;
    for (const auto& n : req.graph_def().node()) *merged.add_node() = n;
    for (const auto& f : req.graph_def().library().function()) {
      bool have = false;
      for (const auto& g : merged.library().function()) {
        have = have || g.signature().name() == f.signature().name();
      }
      if (!have) *merged.mutable_library()->add_function() = f;
    }
    if (merged.node_size() > 0 && !merged.has_versions() && req.graph_def().has_versions()) {
      *merged.mutable_versions() = req.graph_def().versions();
    }
    Graph check;
    SG_RETURN_IF_ERROR(ImportGraphDef(merged, ImportOptions(), &check));
    impl_->graph_def = std::move(merged);
    resp->set_new_graph_version(++impl_->graph_version);
    return absl::OkStatus();
  }();
  impl_->EndCall();
  return status;
}

absl::StatusOr<std::shared_ptr<StepGraph>> MasterSession::Impl::GetOrBuild(
    std::vector<std::string> feeds, std::vector<std::string> fetches,
    std::vector<std::string> targets, const std::string& session_handle, absl::Time deadline,
    bool partial) {
  std::sort(feeds.begin(), feeds.end());
  std::sort(fetches.begin(), fetches.end());
  fetches.erase(std::unique(fetches.begin(), fetches.end()), fetches.end());
  std::sort(targets.begin(), targets.end());
  targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
  const std::string key = absl::StrCat(absl::StrJoin(feeds, ","), "->", absl::StrJoin(fetches, ","),
                                       "/", absl::StrJoin(targets, ","), partial ? "/partial" : "");
  {
    absl::MutexLock lock(&cache_mu);
    auto it = cache.find(key);
    if (it != cache.end()) return it->second;
  }
  absl::MutexLock build_lock(&build_mu);
  {
    absl::MutexLock lock(&cache_mu);
    auto it = cache.find(key);
    if (it != cache.end()) return it->second;
  }
  auto sg = std::make_shared<StepGraph>();
  sg->feeds = std::move(feeds);
  sg->fetches = std::move(fetches);
  SG_RETURN_IF_ERROR(Build(sg.get(), targets, session_handle, deadline, partial));
  absl::MutexLock lock(&cache_mu);
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

absl::Status MasterSession::Impl::Build(StepGraph* sg, const std::vector<std::string>& targets,
                                        const std::string& session_handle, absl::Time deadline,
                                        bool partial) {
  GraphDef gdef;
  int64_t version;
  {
    absl::MutexLock lock(&graph_mu);
    gdef = graph_def;
    version = graph_version;
  }
  if (placed_version != version) {
    SG_RETURN_IF_ERROR(PlaceWholeGraph(gdef));
    placed_version = version;
  }
  Graph graph;
  SG_RETURN_IF_ERROR(ImportGraphDef(gdef, ImportOptions(), &graph));
  SG_RETURN_IF_ERROR(InlineFunctionCalls(&graph));
  for (const std::string& f : sg->feeds) {
    std::string node_name;
    int index;
    Node* n = nullptr;
    if (ParseTensorName(f, &node_name, &index) && index >= 0) n = graph.FindNode(node_name);
    if (n != nullptr && index < n->num_outputs()) {
      sg->feed_types.push_back(BaseType(n->output_type(index)));
      sg->feed_shapes.push_back(n->output_shapes()[index]);
    } else {
      sg->feed_types.push_back(DT_INVALID);
      sg->feed_shapes.push_back(PartialTensorShape());
    }
  }
  RewriteOptions rw;
  rw.use_rendezvous = true;
  rw.client_device = client_device;
  rw.client_incarnation = client_incarnation;
  rw.device = client_device;
  SG_RETURN_IF_ERROR(RewriteGraphForExecution(&graph, sg->feeds, sg->fetches, targets, rw));

  // Every node keeps the device the whole graph gave it. A feed's _Recv and a fetch's _Send (the
  // nodes the rewrite added) go where the fed or fetched node is, as in TensorFlow: a feed travels
  // in the RunGraph request of the task that uses it and a fetch in the RunGraph reply of the
  // task that makes it, with no RecvTensor through the client's task.
  for (Node* n : graph.nodes()) {
    auto it = placement.find(n->name());
    if (it == placement.end() && (n->type_string() == "_Recv" || n->type_string() == "_Send")) {
      auto name = n->def().attr().find("tensor_name");
      std::string node_name;
      int index;
      if (name != n->def().attr().end() && ParseTensorName(name->second.s(), &node_name, &index)) {
        it = placement.find(node_name);
      }
    }
    if (it != placement.end()) {
      n->set_assigned_device_name(it->second);
    } else if (incarnations.count(n->requested_device())) {
      n->set_assigned_device_name(n->requested_device());
    } else {
      return errors::Internal("node '", n->name(), "' of the step has no device");
    }
  }
  SG_RETURN_IF_ERROR(BridgeControlFlowEdges(&graph));

  PartitionOptions popts;
  popts.get_incarnation = [this](const std::string& device) -> uint64_t {
    auto it = incarnations.find(device);
    return it == incarnations.end() ? 0 : it->second;
  };
  std::map<std::string, GraphDef> per_device;
  SG_RETURN_IF_ERROR(PartitionGraph(graph, popts, &per_device));
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
  if (!partial) forward_keys = ForwardToLocalTask(graph, &per_task);
  if (!forward_keys.empty()) sg->local_worker = env.worker_cache->GetOrCreateWorker(env.local_task);

  for (const std::string& f : sg->feeds) {
    sg->feed_keys.push_back(
        Rendezvous::CreateKey(client_device, client_incarnation, client_device, f, FrameAndIter()));
  }
  for (const std::string& f : sg->fetches) {
    sg->fetch_keys.push_back(Rendezvous::CreateKey(client_device, 0, client_device, f, FrameAndIter()));
  }
  std::vector<bool> fetch_found(sg->fetches.size(), false);
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
      const auto& list = recv ? sg->feeds : sg->fetches;
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
  for (size_t i = 0; i < sg->fetches.size(); ++i) {
    if (!fetch_found[i]) {
      return errors::Internal("fetch '", sg->fetches[i], "' has no _Send in any partition");
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

// Feed checks against the graph: dtype, and a known rank of 1 or more with its known dims (a
// declared scalar is lenient, as DirectSession is).
absl::Status CheckFeed(const StepGraph& sg, int i, const TensorProto& t) {
  if (t.dtype() != sg.feed_types[i]) {
    return errors::InvalidArgument("feed '", sg.feeds[i], "' has dtype ", DataTypeString(t.dtype()),
                                   " but the graph expects ", DataTypeString(sg.feed_types[i]));
  }
  const PartialTensorShape& want = sg.feed_shapes[i];
  if (!want.unknown_rank() && want.dims() > 0) {
    auto got = PartialTensorShape::FromProto(t.tensor_shape());
    if (got.ok() && !want.IsCompatibleWith(*got)) {
      return errors::InvalidArgument("feed '", sg.feeds[i], "' has shape ", got->DebugString(),
                                     ", which contradicts the shape ", want.DebugString(),
                                     " the graph declares");
    }
  }
  return absl::OkStatus();
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
  absl::Mutex mu;  // one piece at a time
  std::set<std::string> pending_feeds ABSL_GUARDED_BY(mu);
  std::set<std::string> pending_fetches ABSL_GUARDED_BY(mu);
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
      absl::MutexLock lock(&im.run_mu);
      auto it = partial_runs_.find(req.partial_run_handle());
      if (it == partial_runs_.end()) {
        return errors::InvalidArgument("unknown partial run handle '", req.partial_run_handle(),
                                       "' (finished, failed, or never set up)");
      }
      run = it->second;
    }
    absl::MutexLock piece(&run->mu);
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
    absl::Status s = RunPartitions(*run->sg, run->step_id, feeds, fetches, true, last, deadline,
                                   timeout_ms, opts, req, resp);
    if (!s.ok() || last) {
      {
        absl::MutexLock lock(&im.run_mu);
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
  absl::Status s =
      RunPartitions(*sg, step_id, feeds, fetches, false, false, deadline, timeout_ms, opts, req,
                    resp);
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

absl::Status MasterSession::RunPartitions(const StepGraph& sg, int64_t step_id,
                                          const std::map<std::string, const TensorProto*>& feeds,
                                          const std::vector<std::string>& fetches, bool partial,
                                          bool last_partial, absl::Time deadline,
                                          int64_t timeout_ms, CallOptions* opts,
                                          const RunStepRequest& req, RunStepResponse* resp) {
  Impl& im = *impl_;
  std::vector<bool> fed(sg.feeds.size(), false), fetched(sg.fetches.size(), false);
  for (const auto& [name, t] : feeds) {
    int i = IndexOf(sg.feeds, name);
    if (i < 0) return errors::Internal("feed '", name, "' is not in the step's signature");
    SG_RETURN_IF_ERROR(CheckFeed(sg, i, *t));
    fed[i] = true;
  }
  for (const auto& name : fetches) {
    int i = IndexOf(sg.fetches, name);
    if (i < 0) return errors::Internal("fetch '", name, "' is not in the step's signature");
    fetched[i] = true;
  }

  const int n = static_cast<int>(sg.parts.size());
  std::vector<RunGraphRequest> greqs(n);
  std::vector<RunGraphResponse> gresps(n);
  for (int i = 0; i < n; ++i) {
    const MasterPartition& p = sg.parts[i];
    RunGraphRequest& g = greqs[i];
    g.set_graph_handle(p.graph_handle);
    g.set_step_id(step_id);
    g.set_session_handle(handle_);
    g.set_create_worker_session_called(true);
    g.set_request_id(NewRequestId());
    g.set_is_partial(partial);
    g.set_is_last_partial_run(last_partial);
    for (int f : p.feeds) {
      if (!fed[f]) continue;
      NamedTensorProto* nt = g.add_send();
      nt->set_name(sg.feed_keys[f]);
      *nt->mutable_tensor() = *feeds.at(sg.feeds[f]);
    }
    for (int f : p.fetches) {
      if (fetched[f]) g.add_recv_key(sg.fetch_keys[f]);
    }
    for (const std::string& key : p.forward_keys) g.add_recv_key(key);
  }

  CallGroup group(n, deadline);
  group.set_cancel_others_on_error(true);
  absl::Status cancel_status;
  {
    absl::MutexLock lock(&im.run_mu);
    im.steps[&group] = &cancel_status;
  }
  opts->SetCancelCallback([&group]() { group.CancelAll(); });
  if (opts->cancelled()) group.CancelAll();
  for (int i = 0; i < n; ++i) {
    StatusCallback done = group.done(i);
    if (!sg.parts[i].forward_keys.empty()) {
      // Hands the tensors the reply carries for the master's own task to its worker; a failed
      // hand-over fails this call, which cancels the rest of the step.
      done = [&sg, &gresps, i, step_id, done = std::move(done)](absl::Status s) {
        RunGraphResponse& r = gresps[i];
        if (s.ok() && r.status_code() != error::OK) {
          s = absl::Status(static_cast<absl::StatusCode>(r.status_code()),
                           r.status_error_message());
        }
        const std::vector<std::string>& keys = sg.parts[i].forward_keys;
        for (const NamedTensorProto& t : r.recv()) {
          if (!s.ok()) break;
          if (std::find(keys.begin(), keys.end(), t.name()) == keys.end()) continue;
          absl::StatusOr<Tensor> value = Tensor::FromProto(t.tensor());
          s = value.ok() ? sg.local_worker->DeliverTensor(step_id, t.name(), *value)
                         : value.status();
        }
        done(s);
      };
    }
    sg.parts[i].worker->RunGraphAsync(group.opts(i), &greqs[i], &gresps[i], std::move(done));
  }
  group.Wait();
  opts->ClearCancelCallback();
  {
    absl::MutexLock lock(&im.run_mu);
    im.steps.erase(&group);
  }

  // An error stored in a response body counts as the call's error.
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
  if (!order.empty()) {
    if (!cancel_status.ok()) return cancel_status;
    if (opts->cancelled()) return errors::Cancelled("the step was cancelled by its caller");
    int root = order[0];
    for (int i : order) {
      if (statuses[i].code() != absl::StatusCode::kCancelled) {
        root = i;
        break;
      }
    }
    absl::Status s = statuses[root];
    if (group.timed_out() || (deadline != absl::InfiniteFuture() && absl::Now() >= deadline &&
                              (s.code() == absl::StatusCode::kCancelled ||
                               s.code() == absl::StatusCode::kDeadlineExceeded))) {
      return errors::DeadlineExceeded("Timed out after ", timeout_ms,
                                      " ms waiting for the step to finish (", sg.parts[root].task,
                                      ": ", s.message(), ")");
    }
    return TaskError(s, sg.parts[root].task, im.env.worker_cache);
  }

  // Fetches back by name, in the caller's order.
  std::map<std::string, TensorProto*> by_key;
  for (int i = 0; i < n; ++i) {
    for (auto& r : *gresps[i].mutable_recv()) by_key[r.name()] = r.mutable_tensor();
  }
  std::set<std::string> moved;
  for (const std::string& f : req.fetch()) {
    const std::string& key = sg.fetch_keys[IndexOf(sg.fetches, f)];
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
    absl::MutexLock lock(&run->mu);
    run->pending_feeds.insert(sg->feeds.begin(), sg->feeds.end());
    run->pending_fetches.insert(sg->fetches.begin(), sg->fetches.end());
  }
  absl::MutexLock lock(&impl_->run_mu);
  const std::string handle = absl::StrCat(handle_, ";prun", ++next_partial_run_);
  partial_runs_[handle] = run;
  resp->set_partial_run_handle(handle);
  return absl::OkStatus();
}

void MasterSession::CancelSteps(const absl::Status& status) {
  absl::MutexLock lock(&impl_->run_mu);
  // Cancelling under the lock keeps each group alive: Run erases it under this lock first.
  for (auto& [group, reason] : impl_->steps) {
    *reason = status;
    group->CancelAll();
  }
}

void MasterSession::Close() {
  {
    absl::MutexLock lock(&impl_->run_mu);
    if (impl_->closed) return;
    impl_->closed = true;
  }
  CancelSteps(errors::Cancelled("Step was cancelled by an explicit call to Session::Close()."));
  {
    absl::MutexLock lock(&impl_->run_mu);
    impl_->run_mu.Await(absl::Condition(
        +[](int* n) { return *n == 0; }, &impl_->in_flight));
  }
  std::map<std::string, std::shared_ptr<PartialRunState>> partial_runs;
  {
    absl::MutexLock lock(&impl_->run_mu);
    partial_runs.swap(partial_runs_);
  }
  for (auto& kv : partial_runs) CleanupStep(kv.second->sg, kv.second->step_id);
  std::map<std::string, std::shared_ptr<StepGraph>> cache;
  {
    absl::MutexLock lock(&impl_->cache_mu);
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
