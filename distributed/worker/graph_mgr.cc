#include "distributed/worker/graph_mgr.h"

#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_format.h"
#include "core/graph/graph_constructor.h"
#include "core/graph/partition.h"
#include "core/graph/subgraph.h"

namespace sg {
namespace {

// The partitioner names its nodes "edge_<edge id>_<source>/_send" and so on; the master's
// partitioner already used such names in this graph, so the nodes the second partitioning adds
// get a "_G/" prefix. Nodes added by PartitionGraph come after the original nodes of each part.
// Which references point at added nodes is decided from the graph's edges, since an added node
// may have the name of an original one.
void RenameAddedNodes(const Graph& g, const std::map<std::string, int>& originals_per_device,
                      std::map<std::string, GraphDef>* parts) {
  constexpr char kPrefix[] = "_G/";
  for (auto& kv : *parts) {
    GraphDef& part = kv.second;
    auto it = originals_per_device.find(kv.first);
    const int first_added = it == originals_per_device.end() ? 0 : it->second;
    std::set<std::string> added;
    for (int i = first_added; i < part.node_size(); ++i) {
      NodeDef* n = part.mutable_node(i);
      added.insert(n->name());
      n->set_name(kPrefix + n->name());
    }
    if (added.empty()) continue;
    for (int i = 0; i < part.node_size(); ++i) {
      NodeDef* def = part.mutable_node(i);
      if (i >= first_added) {
        // An added _Send reads an original tensor, or the dummy of a control edge (also added).
        for (std::string& in : *def->mutable_input()) {
          if (!in.empty() && in[0] != '^' && absl::EndsWith(in, "/_ctrl_const") &&
              added.count(in)) {
            in = kPrefix + in;
          }
        }
        continue;
      }
      const Node* n = g.FindNode(def->name());
      if (n == nullptr) continue;
      std::set<std::string> local_control_sources;
      for (const Edge* e : n->in_edges()) {
        const bool crosses = e->src->assigned_device_name() != n->assigned_device_name();
        if (e->IsControlEdge()) {
          if (!crosses) local_control_sources.insert(e->src->name());
        } else if (crosses && e->dst_input < def->input_size()) {
          std::string& in = *def->mutable_input(e->dst_input);
          in = kPrefix + in;
        }
      }
      for (std::string& in : *def->mutable_input()) {
        if (in.empty() || in[0] != '^') continue;
        const std::string name = in.substr(1);
        if (added.count(name) && !local_control_sources.count(name)) in = std::string("^") + kPrefix + name;
      }
    }
  }
}

}  // namespace

Device* GraphMgr::FindDevice(const std::string& name) const {
  if (name.empty()) return devices_.empty() ? nullptr : devices_[0];
  for (Device* d : devices_) {
    if (d->name() == name) return d;
  }
  ParsedDeviceName spec;
  if (!ParsedDeviceName::Parse(name, &spec)) return nullptr;
  for (Device* d : devices_) {
    if (d->parsed_name().Matches(spec)) return d;
  }
  return nullptr;
}

absl::Status GraphMgr::Register(const std::string& session_handle, const GraphDef& gdef,
                                std::string* handle) {
  auto graph = std::make_unique<Graph>();
  SG_RETURN_IF_ERROR(ImportGraphDef(gdef, ImportOptions(), graph.get()));
  SG_RETURN_IF_ERROR(InlineFunctionCalls(graph.get()));
  std::map<std::string, int> per_device;
  for (Node* n : graph->nodes()) {
    Device* d = FindDevice(n->requested_device());
    if (d == nullptr) {
      return errors::InvalidArgument("RegisterGraph: node '", n->name(), "' is placed on '",
                                     n->requested_device(), "', which is not a device of ",
                                     devices_.empty() ? "this task"
                                                      : devices_[0]->parsed_name().TaskName());
    }
    n->set_assigned_device_name(d->name());
    ++per_device[d->name()];
  }

  auto item = std::make_shared<Item>();
  item->session_handle = session_handle;
  if (per_device.size() <= 1) {
    Device* d = per_device.empty() ? devices_[0] : FindDevice(per_device.begin()->first);
    SG_ASSIGN_OR_RETURN(auto exec, NewLocalExecutor(d, std::move(graph)));
    item->executors.push_back(std::move(exec));
  } else {
    PartitionOptions popts;
    popts.get_incarnation = [this](const std::string& name) -> uint64_t {
      Device* d = FindDevice(name);
      return d ? d->incarnation() : 0;
    };
    std::map<std::string, GraphDef> parts;
    SG_RETURN_IF_ERROR(PartitionGraph(*graph, popts, &parts));
    RenameAddedNodes(*graph, per_device, &parts);
    for (auto& kv : parts) {
      Device* d = FindDevice(kv.first);
      auto pg = std::make_unique<Graph>();
      SG_RETURN_IF_ERROR(ImportGraphDef(std::move(kv.second), ImportOptions(), pg.get()));
      for (Node* n : pg->nodes()) n->set_assigned_device_name(d->name());
      SG_ASSIGN_OR_RETURN(auto exec, NewLocalExecutor(d, std::move(pg)));
      item->executors.push_back(std::move(exec));
    }
  }
  *handle = absl::StrFormat("%016x", next_handle_.fetch_add(1));
  mutex_lock lock(mu_);
  items_[*handle] = std::move(item);
  return absl::OkStatus();
}

absl::Status GraphMgr::Deregister(const std::string& handle) {
  mutex_lock lock(mu_);
  if (items_.erase(handle) == 0) {
    return errors::Aborted("Graph handle ", handle,
                           " is not found (the worker may have restarted)");
  }
  return absl::OkStatus();
}

void GraphMgr::DeregisterSession(const std::string& session_handle) {
  mutex_lock lock(mu_);
  for (auto it = items_.begin(); it != items_.end();) {
    if (it->second->session_handle == session_handle) {
      it = items_.erase(it);
    } else {
      ++it;
    }
  }
}

std::shared_ptr<const GraphMgr::Item> GraphMgr::Lookup(const std::string& handle) const {
  mutex_lock lock(mu_);
  auto it = items_.find(handle);
  return it == items_.end() ? nullptr : it->second;
}

void GraphMgr::ExecuteAsync(const Item& item, const Executor::Args& args,
                            std::function<void(const absl::Status&)> done) {
  struct Barrier {
    Barrier(int n, Rendezvous* r, std::function<void(const absl::Status&)> d)
        : rendezvous(r), done(std::move(d)), remaining(n) {}
    Rendezvous* const rendezvous;
    std::function<void(const absl::Status&)> done;  // taken by the last executor out
    mutex mu;
    int remaining ABSL_GUARDED_BY(mu);
    absl::Status status ABSL_GUARDED_BY(mu);
  };
  if (item.executors.empty()) {
    done(absl::OkStatus());
    return;
  }
  auto* b = new Barrier(static_cast<int>(item.executors.size()), args.rendezvous,
                        std::move(done));
  for (const auto& exec : item.executors) {
    exec->RunAsync(args, [b](const absl::Status& s) {
      bool last;
      absl::Status st;
      Rendezvous* abort = nullptr;
      {
        mutex_lock lock(b->mu);
        if (!s.ok() && b->status.ok()) {
          b->status = s;
          abort = b->rendezvous;
        }
        // While this executor has not counted itself out, `b` stays alive.
        if (abort != nullptr) {
          b->mu.unlock();
          abort->StartAbort(s);
          b->mu.lock();
        }
        last = --b->remaining == 0;
        if (last) st = b->status;
      }
      if (last) {
        auto fn = std::move(b->done);
        delete b;
        fn(st);
      }
    });
  }
}

}  // namespace sg
