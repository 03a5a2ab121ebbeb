// Constant folding: nodes computed only from constants are evaluated once, here, with sg's own
// CPU kernels, and replaced by Consts. Frozen graphs are full of them: Keras's batch
// normalization computes gamma * rsqrt(variance + epsilon) and beta - mean * that on every run.
//
// A node is constant when it is a Const, or when it may be folded (Foldable) and all its inputs
// are constant. A folded node that a non-constant node reads, or that is fetched, becomes a Const
// of its own name (an Identity of a Const is read through instead, so that weights are not
// copied); the constants only other constants read are then dead and go. Each new Const depends,
// by control edges, on the non-constant nodes its value's cone depended on by control edges
// (usually a loop's or a cond branch's pivot): so it stays in its frame and is dead when the
// original would have been. A node that waited for a constant waits for those nodes instead.
#include <algorithm>
#include <functional>
#include <limits>
#include <memory>
#include <optional>

#include "core/framework/cancellation.h"
#include "core/framework/device.h"
#include "core/framework/op_kernel.h"
#include "core/graph/optimizers/rewrite_util.h"

namespace sg {
namespace graph_opt {
namespace {

// Ops that must run every step even though their OpDef is not stateful (they move data into or
// out of the step, or are the structure of control flow).
bool NeverFolded(const Node* n) {
  static const std::set<std::string> kOps = {
      "Const",     "HostConst", "Placeholder", "PlaceholderV2", "ControlTrigger",
      "_HostSend", "_HostRecv", "_Arg",        "_Retval",       "_Send",
      "_Recv",     "_DeviceArg", "_DeviceRetval", "NoOp"};
  return kOps.count(n->type_string()) > 0 || n->IsControlFlow() || n->IsLoopCond() ||
         n->IsFunctionCall();
}

bool ConstantDtype(DataType dt) {
  return !IsRefType(dt) && dt != DT_RESOURCE && dt != DT_VARIANT && dt != DT_INVALID;
}

bool Foldable(const Node* n, const std::set<std::string>& preserve) {
  if (NeverFolded(n) || preserve.count(n->name()) || n->op_def().is_stateful()) return false;
  if (n->num_outputs() == 0 || n->num_inputs() == 0) return false;
  for (DataType dt : n->input_types()) {
    if (!ConstantDtype(dt)) return false;
  }
  for (DataType dt : n->output_types()) {
    if (!ConstantDtype(dt)) return false;
  }
  // A fetched node keeps its name: one Const can stand for it only when it has one output.
  if (n->num_outputs() > 1) {
    for (const Edge* e : n->out_edges()) {
      if (IsSink(e->dst)) return false;
    }
  }
  return true;
}

struct NodeInfo {
  bool is_const = false;
  bool decoded = false;  // values hold the outputs (Const nodes decode on first use)
  std::vector<Tensor> values;
  // For an Identity-like node: output i is input i's value (the source node, its output).
  std::vector<std::pair<Node*, int>> alias;
  // Non-constant nodes the value depends on by control edges, sorted and unique.
  std::vector<Node*> controls;
};

void MergeControls(const std::vector<Node*>& from, std::vector<Node*>* into) {
  into->insert(into->end(), from.begin(), from.end());
}

void SortUnique(std::vector<Node*>* v) {
  std::sort(v->begin(), v->end(), [](Node* a, Node* b) { return a->id() < b->id(); });
  v->erase(std::unique(v->begin(), v->end()), v->end());
}

// Runs single kernels on a CPU device of its own (one intra-op thread): the values folded are
// small, and the session's devices are not known here (a master builds steps for remote ones).
class Evaluator {
 public:
  // The node's outputs for `inputs`, or nullopt when it cannot be evaluated (no CPU kernel, an
  // asynchronous kernel, a kernel error, a dead or reference output): the step then runs it and
  // reports any error.
  std::optional<std::vector<Tensor>> Run(const Node* n, const std::vector<Tensor>& inputs) {
    if (device_ == nullptr) {
      pool_ = std::make_unique<IntraOpThreadPool>(1);
      device_ = std::move(NewCpuDevices("localhost", 0, 1, pool_.get())[0]);
    }
    std::unique_ptr<OpKernel> kernel;
    if (!KernelRegistry::Global()
             ->CreateKernel(device_.get(), DEVICE_CPU, n->shared_def(), &n->op_def(), &kernel,
                            &n->tensor_attrs())
             .ok()) {
      return std::nullopt;
    }
    // An asynchronous kernel waits for something outside its inputs (a peer, a queue, the
    // step's cancellation), which a step being built does not have.
    if (kernel->AsAsync() != nullptr) return std::nullopt;
    std::vector<TensorValue> in(inputs.size());
    for (size_t i = 0; i < inputs.size(); ++i) in[i].value = inputs[i];
    CancellationManager cancellation;
    ResourceMgr step_resources;
    OpKernelContext::Params params;
    params.device = device_.get();
    params.op_kernel = kernel.get();
    params.inputs = &in;
    params.cancellation_manager = &cancellation;
    params.step_resources = &step_resources;
    params.runner = [](std::function<void()> fn) { fn(); };
    OpKernelContext ctx(&params);
    kernel->Compute(&ctx);
    if (!ctx.status().ok() || *ctx.is_output_dead()) return std::nullopt;
    std::vector<Tensor> out;
    for (int i = 0; i < ctx.num_outputs(); ++i) {
      const TensorValue& v = ctx.output_value(i);
      if (!ctx.has_output(i) || v.is_ref() || v.value.dtype() != n->output_type(i)) {
        return std::nullopt;
      }
      out.push_back(v.value);
    }
    return out;
  }

 private:
  std::unique_ptr<IntraOpThreadPool> pool_;
  std::unique_ptr<Device> device_;
};

size_t Bytes(const std::vector<Tensor>& values) {
  size_t total = 0;
  for (const Tensor& t : values) total += std::max(t.TotalBytes(), t.AllocatedBytes());
  return total;
}

}  // namespace

absl::StatusOr<int> FoldConstants(Graph* g, const GraphOptimizerOptions& options,
                                  const std::set<std::string>& preserve) {
  SG_ASSIGN_OR_RETURN(std::vector<Node*> order, TopologicalOrder(*g));
  std::vector<NodeInfo> info(g->num_node_ids());
  Evaluator evaluator;
  // Output `index` of constant node `src`: a Const's value is decoded on first use, an
  // Identity's is its input's.
  std::function<const Tensor*(Node*, int)> value_of = [&](Node* src,
                                                           int index) -> const Tensor* {
    NodeInfo& in = info[src->id()];
    if (!in.alias.empty()) return value_of(in.alias[index].first, in.alias[index].second);
    if (!in.decoded) {
      Tensor t;
      if (!ConstValue(src, &t)) return nullptr;
      in.values = {t};
      in.decoded = true;
    }
    return index < static_cast<int>(in.values.size()) ? &in.values[index] : nullptr;
  };
  auto all_inputs_const = [&](const Node* n) {
    for (const Edge* e : n->in_edges()) {
      if (!info[e->src->id()].is_const) return false;
    }
    for (int i = 0; i < n->num_inputs(); ++i) {
      if (n->input_edge(i) == nullptr) return false;
    }
    return true;
  };

  for (Node* n : order) {
    NodeInfo& ni = info[n->id()];
    if (n->type_string() == "Const" && ConstantDtype(n->output_type(0))) {
      ni.is_const = true;
    } else if (n->type_string() == "NoOp" && all_inputs_const(n)) {
      // Orders nothing but constants: what waits for it need only wait for their dependencies.
      ni.is_const = true;
    } else if (Foldable(n, preserve) && IsIdentityLike(n) && all_inputs_const(n)) {
      // Forwards its inputs: not evaluated, so that an Identity reading a weight costs no copy.
      ni.is_const = true;
      for (int i = 0; i < n->num_inputs(); ++i) {
        const Edge* e = n->input_edge(i);
        ni.alias.push_back({e->src, e->src_output});
        MergeControls(info[e->src->id()].controls, &ni.controls);
      }
    } else if (Foldable(n, preserve)) {
      // Shapes first: a Shape of a non-constant tensor may still be known.
      std::optional<Tensor> shape_value;
      if (options.use_static_shapes) shape_value = StaticShapeValue(n);
      if (shape_value.has_value()) {
        const Edge* e = n->input_edge(0);
        if (info[e->src->id()].is_const) {
          MergeControls(info[e->src->id()].controls, &ni.controls);
        } else {
          ni.controls.push_back(e->src);
        }
        ni.values = {*shape_value};
      } else {
        std::vector<Tensor> inputs;
        bool all_const = true;
        for (int i = 0; i < n->num_inputs() && all_const; ++i) {
          const Edge* e = n->input_edge(i);
          const Tensor* v = nullptr;
          if (e != nullptr && info[e->src->id()].is_const) v = value_of(e->src, e->src_output);
          if (v == nullptr) {
            all_const = false;
          } else {
            inputs.push_back(*v);
          }
        }
        if (!all_const) continue;
        std::optional<std::vector<Tensor>> out = evaluator.Run(n, inputs);
        if (!out.has_value() || Bytes(*out) > static_cast<size_t>(options.max_constant_bytes)) {
          continue;
        }
        ni.values = std::move(*out);
        for (const Edge* e : n->in_edges()) {
          if (!e->IsControlEdge()) MergeControls(info[e->src->id()].controls, &ni.controls);
        }
      }
      ni.is_const = true;
      ni.decoded = true;
    } else {
      continue;
    }
    // Control inputs: a constant one passes on its own dependencies, another is kept.
    for (const Edge* e : n->in_edges()) {
      if (!e->IsControlEdge()) continue;
      if (info[e->src->id()].is_const) {
        MergeControls(info[e->src->id()].controls, &ni.controls);
      } else {
        ni.controls.push_back(e->src);
      }
    }
    SortUnique(&ni.controls);
  }

  // A node that waits for a constant waits for that constant's dependencies instead (a frozen
  // Keras graph's output waits, through a NoOp, for every weight's read).
  for (Node* n : order) {
    const NodeInfo& ni = info[n->id()];
    if (!ni.is_const) continue;
    std::vector<const Edge*> waits;
    for (const Edge* e : n->out_edges()) {
      if (e->IsControlEdge() && !info[e->dst->id()].is_const) waits.push_back(e);
    }
    for (const Edge* e : waits) {
      Node* dst = e->dst;
      g->RemoveEdge(e);
      for (Node* c : ni.controls) g->AddControlEdge(c, dst);
    }
  }

  // The folded nodes a non-constant node reads.
  std::vector<Node*> frontier;
  for (Node* n : order) {
    const NodeInfo& ni = info[n->id()];
    if (!ni.is_const || n->type_string() == "Const" || n->num_outputs() == 0) continue;
    bool used_outside = false;
    for (const Edge* e : n->out_edges()) {
      used_outside = used_outside || !info[e->dst->id()].is_const;
    }
    if (used_outside) frontier.push_back(n);
  }
  int folded = 0;
  for (Node* n : frontier) {
    NodeInfo& ni = info[n->id()];
    if (!ni.alias.empty()) {
      // Identities of Consts: readers read the Const (unless the Identity is fetched, which
      // keeps its name, or the Const depends on less than the Identity does).
      bool fetched = false;
      for (const Edge* e : n->out_edges()) fetched = fetched || IsSink(e->dst);
      std::vector<std::pair<Node*, int>> roots;
      for (int i = 0; i < n->num_outputs() && !fetched; ++i) {
        std::pair<Node*, int> r = ni.alias[i];
        while (!info[r.first->id()].alias.empty()) r = info[r.first->id()].alias[r.second];
        if (r.first->type_string() != "Const" || info[r.first->id()].controls != ni.controls) {
          break;
        }
        roots.push_back(r);
      }
      if (static_cast<int>(roots.size()) == n->num_outputs()) {
        std::vector<const Edge*> uses;
        for (const Edge* e : n->out_edges()) {
          if (!e->IsControlEdge()) uses.push_back(e);
        }
        for (const Edge* e : uses) {
          const auto [root, index] = roots[e->src_output];
          Node* dst = e->dst;
          const int slot = e->dst_input;
          g->RemoveEdge(e);
          absl::Status s = g->AddEdge(root, index, dst, slot).status();
          if (!s.ok()) return errors::Internal("graph optimizer: constant folding: ", s.message());
        }
        ++folded;
        continue;
      }
    }
    std::vector<Tensor> values;
    for (int i = 0; i < n->num_outputs(); ++i) {
      const Tensor* v = value_of(n, i);
      if (v == nullptr) return errors::Internal("graph optimizer: no value for ", n->name());
      values.push_back(*v);
    }
    if (n->num_outputs() == 1) {
      SG_RETURN_IF_ERROR(ReplaceWithConst(g, n, values[0], ni.controls).status());
      ++folded;
      continue;
    }
    // Several outputs: a Const per output used, under new names (a fetched node is not
    // folded, see Foldable); the node itself is then dead.
    for (int i = 0; i < n->num_outputs(); ++i) {
      std::vector<const Edge*> uses;
      for (const Edge* e : n->out_edges()) {
        if (e->src_output == i) uses.push_back(e);
      }
      if (uses.empty()) continue;
      SG_ASSIGN_OR_RETURN(Node * c, AddConst(g, g->NewName(n->name()), values[i], Placement(n),
                                             ni.controls));
      for (const Edge* e : uses) {
        Node* dst = e->dst;
        const int slot = e->dst_input;
        g->RemoveEdge(e);
        absl::Status s = g->AddEdge(c, 0, dst, slot).status();
        if (!s.ok()) return errors::Internal("graph optimizer: constant folding: ", s.message());
      }
    }
    ++folded;
  }
  return folded;
}

}  // namespace graph_opt
}  // namespace sg
