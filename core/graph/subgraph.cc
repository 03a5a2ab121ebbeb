#include "core/graph/subgraph.h"

#include <deque>
#include <set>

#include "core/framework/node_def_util.h"
#include "core/framework/rendezvous.h"
#include "core/graph/lower_functional_ops.h"
#include "core/gradients/functional_grad.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"

namespace sg {
namespace {

absl::Status ResolveTensor(Graph* g, const std::string& name, Node** node, int* index,
                           const char* what) {
  std::string node_name;
  if (!ParseTensorName(name, &node_name, index) || *index < 0) {
    return errors::InvalidArgument(what, " '", name, "' is not a tensor name");
  }
  *node = g->FindNode(node_name);
  if (*node == nullptr) {
    return errors::NotFound(what, " '", name, "': no node named '", node_name, "' in the graph");
  }
  if (*index >= (*node)->num_outputs()) {
    return errors::InvalidArgument(what, " '", name, "': node '", node_name, "' has only ",
                                   (*node)->num_outputs(), " outputs");
  }
  return absl::OkStatus();
}

NodeDef TransferNode(const std::string& name, const std::string& op, DataType dtype,
                     const std::string& tensor_name, const RewriteOptions& o, bool is_send) {
  NodeDef def;
  def.set_name(name);
  def.set_op(op);
  def.set_device(o.device);
  AddNodeAttr(is_send ? "T" : "tensor_type", dtype, &def);
  AddNodeAttr("tensor_name", tensor_name, &def);
  AddNodeAttr("send_device", is_send ? o.device : o.client_device, &def);
  AddNodeAttr("recv_device", is_send ? o.client_device : o.device, &def);
  AddNodeAttr("send_device_incarnation",
              static_cast<int64_t>(is_send ? 0 : o.client_incarnation), &def);
  AddNodeAttr("client_terminated", true, &def);
  return def;
}

}  // namespace

void PruneForTargets(Graph* g, const std::vector<Node*>& keep) {
  std::vector<bool> reached(g->num_node_ids(), false);
  std::deque<Node*> queue;
  for (Node* n : keep) {
    if (!reached[n->id()]) {
      reached[n->id()] = true;
      queue.push_back(n);
    }
  }
  while (!queue.empty()) {
    Node* n = queue.front();
    queue.pop_front();
    for (const Edge* e : n->in_edges()) {
      if (!reached[e->src->id()]) {
        reached[e->src->id()] = true;
        queue.push_back(e->src);
      }
    }
  }
  for (Node* n : g->nodes()) {
    if (!reached[n->id()]) g->RemoveNode(n);
  }
}

absl::Status RewriteGraphForExecution(Graph* g, const std::vector<std::string>& feeds,
                                      const std::vector<std::string>& fetches,
                                      const std::vector<std::string>& targets,
                                      const RewriteOptions& options) {
  std::set<std::string> seen;
  std::vector<std::pair<Node*, int>> feed_tensors;
  for (const std::string& f : feeds) {
    if (!seen.insert(f).second) {
      return errors::InvalidArgument("tensor '", f, "' is fed more than once");
    }
    Node* n;
    int idx;
    SG_RETURN_IF_ERROR(ResolveTensor(g, f, &n, &idx, "feed"));
    feed_tensors.push_back({n, idx});
  }
  std::vector<std::pair<Node*, int>> fetch_tensors;
  for (const std::string& f : fetches) {
    Node* n;
    int idx;
    SG_RETURN_IF_ERROR(ResolveTensor(g, f, &n, &idx, "fetch"));
    fetch_tensors.push_back({n, idx});
  }
  std::vector<Node*> keep;
  for (const std::string& t : targets) {
    Node* n = g->FindNode(t);
    if (n == nullptr) return errors::NotFound("target '", t, "': no node of that name");
    keep.push_back(n);
  }
  // Feeds: rewire every consumer of the fed tensor to the new source.
  std::vector<std::pair<int, std::string>> ref_consumers;  // (node id, feed)
  for (size_t i = 0; i < feed_tensors.size(); ++i) {
    auto [node, idx] = feed_tensors[i];
    DataType dtype = BaseType(node->output_type(idx));
    NodeDef def;
    if (options.use_rendezvous) {
      def = TransferNode(g->NewName("_recv_" + node->name()), "_Recv", dtype, feeds[i], options,
                         false);
    } else {
      def.set_name(g->NewName("_arg_" + node->name()));
      def.set_op("_Arg");
      def.set_device(options.device);
      AddNodeAttr("T", dtype, &def);
      AddNodeAttr("index", static_cast<int64_t>(i), &def);
    }
    SG_ASSIGN_OR_RETURN(Node * src, g->AddNode(std::move(def)));
    *src->mutable_output_shapes() = {node->output_shapes()[idx]};
    std::vector<const Edge*> uses;
    for (const Edge* e : node->out_edges()) {
      if (e->src_output == idx) uses.push_back(e);
    }
    for (const Edge* e : uses) {
      Node* dst = e->dst;
      int slot = e->dst_input;
      g->RemoveEdge(e);
      if (IsRefType(dst->input_type(slot))) {
        // A fed tensor is a value: a consumer that wants the reference (Assign on a fed
        // variable) is left unconnected, and is an error only if the step needs it (below).
        ref_consumers.push_back({dst->id(), feeds[i]});
        continue;
      }
      SG_RETURN_IF_ERROR(g->AddEdge(src, 0, dst, slot).status());
    }
    for (auto& ft : fetch_tensors) {
      if (ft.first == node && ft.second == idx) ft = {src, 0};
    }
  }
  for (size_t i = 0; i < fetch_tensors.size(); ++i) {
    auto [node, idx] = fetch_tensors[i];
    DataType dtype = BaseType(node->output_type(idx));
    NodeDef def;
    if (options.use_rendezvous) {
      def = TransferNode(g->NewName("_send_" + node->name()), "_Send", dtype, fetches[i],
                         options, true);
    } else {
      def.set_name(g->NewName("_retval_" + node->name()));
      def.set_op("_Retval");
      def.set_device(options.device);
      AddNodeAttr("T", dtype, &def);
      AddNodeAttr("index", static_cast<int64_t>(i), &def);
    }
    SG_ASSIGN_OR_RETURN(Node * sink, g->AddNode(std::move(def)));
    SG_RETURN_IF_ERROR(g->AddEdge(node, idx, sink, 0).status());
    keep.push_back(sink);
  }
  PruneForTargets(g, keep);
  for (const auto& [id, feed] : ref_consumers) {
    if (Node* n = g->FindNodeId(id)) {
      return errors::InvalidArgument("node '", n->name(), "' needs a reference to '", feed,
                                     "', which is fed: a fed tensor is a value, not a variable");
    }
  }
  return absl::OkStatus();
}

// ---- Function inlining ----

namespace {

// Substitutes attr placeholders ("$T") in a body node from the call's attrs.
void SubstitutePlaceholders(const AttrMap& call_attrs, NodeDef* def) {
  for (auto& kv : *def->mutable_attr()) {
    if (kv.second.value_case() == AttrValue::kPlaceholder) {
      auto it = call_attrs.find(kv.second.placeholder());
      if (it != call_attrs.end()) kv.second = it->second;
    }
  }
}

// Replaces `call` by fdef's body. The call's inputs from `first_arg` on are the function's
// arguments; the ones before it (RemoteCall's target) only have to be computed first, so they
// become control inputs of the body.
absl::Status InlineOne(Graph* g, Node* call, const FunctionDef& fdef, const AttrMap& fn_attrs,
                       int first_arg) {
  const std::string prefix = call->name() + "/";
  const OpDef& sig = fdef.signature();
  for (const auto& arg : sig.input_arg()) {
    if (!arg.number_attr().empty() || !arg.type_list_attr().empty()) {
      return errors::Unimplemented("function '", sig.name(), "' has list argument '", arg.name(),
                                   "' (node '", call->name(), "')");
    }
  }
  // Save the call's edges, then free its name.
  std::vector<std::pair<Node*, int>> inputs(call->num_inputs() - first_arg);
  std::vector<Node*> control_in;
  for (const Edge* e : call->in_edges()) {
    if (e->IsControlEdge() || e->dst_input < first_arg) {
      control_in.push_back(e->src);
    } else {
      inputs[e->dst_input - first_arg] = {e->src, e->src_output};
    }
  }
  struct Out {
    Node* dst;
    int src_output, dst_input;
  };
  std::vector<Out> outs;
  for (const Edge* e : call->out_edges()) outs.push_back({e->dst, e->src_output, e->dst_input});
  const std::string call_name = call->name();
  const std::string call_device = call->requested_device();
  const std::string assigned = call->assigned_device_name();
  std::vector<DataType> out_types = call->output_types();
  std::vector<DataType> in_types(call->input_types().begin() + first_arg,
                                 call->input_types().end());
  if (static_cast<int>(in_types.size()) != sig.input_arg_size()) {
    return errors::InvalidArgument("node '", call_name, "' passes ", in_types.size(),
                                   " arguments to function '", sig.name(), "', which takes ",
                                   sig.input_arg_size());
  }
  g->RemoveNode(call);

  std::map<std::string, Node*> names;  // body names (and args) -> nodes
  for (int i = 0; i < sig.input_arg_size(); ++i) {
    NodeDef def;
    def.set_name(prefix + sig.input_arg(i).name());
    def.set_op("Identity");
    def.set_device(call_device);
    AddNodeAttr("T", BaseType(in_types[i]), &def);
    SG_ASSIGN_OR_RETURN(Node * n, g->AddNode(std::move(def)));
    if (inputs[i].first == nullptr) {
      return errors::InvalidArgument("input ", i, " of call '", call_name, "' is missing");
    }
    SG_RETURN_IF_ERROR(g->AddEdge(inputs[i].first, inputs[i].second, n, 0).status());
    for (Node* c : control_in) g->AddControlEdge(c, n);
    names[sig.input_arg(i).name()] = n;
  }
  std::vector<std::pair<Node*, const NodeDef*>> body;
  for (const NodeDef& nd : fdef.node_def()) {
    NodeDef def = nd;
    def.set_name(prefix + nd.name());
    def.clear_input();
    if (def.device().empty()) def.set_device(call_device);
    SubstitutePlaceholders(fn_attrs, &def);
    auto n = g->AddNode(std::move(def));
    if (!n.ok()) {
      return errors::Annotate(n.status(), absl::StrCat("in function '", sig.name(), "': "));
    }
    names[nd.name()] = *n;
    body.push_back({*n, &nd});
  }
  // Resolves "arg", "node:out_arg:index" or "node:index".
  auto resolve = [&](const std::string& ref, Node** node, int* index) -> absl::Status {
    std::vector<std::string> parts = absl::StrSplit(ref, ':');
    auto it = names.find(parts[0]);
    if (it == names.end()) {
      return errors::InvalidArgument("function '", sig.name(), "': unknown input '", ref, "'");
    }
    *node = it->second;
    *index = 0;
    if (parts.size() == 2) {
      if (!absl::SimpleAtoi(parts[1], index)) {
        return errors::InvalidArgument("function '", sig.name(), "': bad input '", ref, "'");
      }
    } else if (parts.size() == 3) {
      NameRangeMap outputs;
      SG_RETURN_IF_ERROR(NameRangesForNode((*node)->def(), (*node)->op_def(), nullptr, &outputs));
      auto r = outputs.find(parts[1]);
      int k;
      if (r == outputs.end() || !absl::SimpleAtoi(parts[2], &k)) {
        return errors::InvalidArgument("function '", sig.name(), "': bad input '", ref, "'");
      }
      *index = r->second.first + k;
    }
    return absl::OkStatus();
  };
  for (auto& [node, nd] : body) {
    int slot = 0;
    for (const std::string& in : nd->input()) {
      if (!in.empty() && in[0] == '^') {
        auto it = names.find(in.substr(1));
        if (it == names.end()) {
          return errors::InvalidArgument("function '", sig.name(), "': unknown control input '",
                                         in, "'");
        }
        g->AddControlEdge(it->second, node);
        continue;
      }
      Node* src;
      int idx;
      SG_RETURN_IF_ERROR(resolve(in, &src, &idx));
      SG_RETURN_IF_ERROR(g->AddEdge(src, idx, node, slot++).status());
    }
  }
  // A body node without inputs (a constant, say) waits for the call's inputs and control inputs,
  // as TensorFlow's inliner makes it: so it runs in the caller's frame and branch, and not at all
  // when the call's inputs are dead (a branch not taken).
  if (!control_in.empty() || !inputs.empty()) {
    Node* input_control = nullptr;
    for (auto& [node, nd] : body) {
      if (!node->in_edges().empty()) continue;
      if (input_control == nullptr) {
        NodeDef def;
        def.set_name(g->NewName(prefix + "input_control_node"));
        def.set_op("NoOp");
        def.set_device(call_device);
        SG_ASSIGN_OR_RETURN(input_control, g->AddNode(std::move(def)));
        for (Node* c : control_in) g->AddControlEdge(c, input_control);
        for (const auto& arg : sig.input_arg()) g->AddControlEdge(names[arg.name()], input_control);
      }
      g->AddControlEdge(input_control, node);
    }
  }
  // The call's name now names the results.
  NodeDef result;
  result.set_name(call_name);
  result.set_device(call_device);
  std::vector<std::pair<Node*, int>> rets;
  for (const auto& arg : sig.output_arg()) {
    auto it = fdef.ret().find(arg.name());
    if (it == fdef.ret().end()) {
      return errors::InvalidArgument("function '", sig.name(), "' does not return '", arg.name(),
                                     "'");
    }
    Node* src;
    int idx;
    SG_RETURN_IF_ERROR(resolve(it->second, &src, &idx));
    rets.push_back({src, idx});
  }
  if (rets.empty()) {
    result.set_op("NoOp");
  } else {
    result.set_op("IdentityN");
    std::vector<DataType> types;
    for (DataType t : out_types) types.push_back(BaseType(t));
    AddNodeAttr("T", absl::Span<const DataType>(types), &result);
  }
  SG_ASSIGN_OR_RETURN(Node * res, g->AddNode(std::move(result)));
  res->set_assigned_device_name(assigned);
  for (size_t i = 0; i < rets.size(); ++i) {
    SG_RETURN_IF_ERROR(g->AddEdge(rets[i].first, rets[i].second, res, i).status());
  }
  // Whatever the body does for its effects finishes before the call counts as done.
  for (auto& [node, nd] : body) {
    if (node->out_edges().empty()) g->AddControlEdge(node, res);
  }
  for (const Out& o : outs) {
    if (o.src_output == kControlSlot) {
      g->AddControlEdge(res, o.dst);
    } else {
      SG_RETURN_IF_ERROR(g->AddEdge(res, o.src_output, o.dst, o.dst_input).status());
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status InlineFunctionCalls(Graph* g) {
  for (int round = 0; round < 64; ++round) {
    bool any = false;
    for (Node* n : g->nodes()) {
      if (IsFunctionalControlFlow(*n)) {
        SG_RETURN_IF_ERROR(LowerFunctionalOp(g, n));
        any = true;
        continue;
      }
      const FunctionDef* fdef = nullptr;
      AttrMap attrs;  // copied only for a call, not for every node (Consts hold the weights)
      // RemoteCall runs f on the device its input 0 names; sg inlines f where the call is
      // placed, as PartitionedCall's, after computing the target.
      const int first_arg = n->type_string() == "RemoteCall" ? 1 : 0;
      if (n->IsFunctionCall()) {
        fdef = n->op_reg().function;
        attrs = n->def().attr();
      } else if (n->type_string() == "PartitionedCall" ||
                 n->type_string() == "StatefulPartitionedCall" ||
                 n->type_string() == "RemoteCall") {
        NameAttrList f;
        SG_RETURN_IF_ERROR(GetAttr(n->def().attr(), "f", &f));
        fdef = g->flib().Find(f.name());
        if (fdef == nullptr) {
          return errors::NotFound("node '", n->name(), "' calls unknown function '", f.name(),
                                  "'");
        }
        attrs = f.attr();
      } else if (n->type_string() == "SymbolicGradient") {  // runs f's gradient function
        SG_ASSIGN_OR_RETURN(fdef, SymbolicGradientFunction(g, *n));
        attrs.clear();
      }
      if (fdef == nullptr) continue;
      SG_RETURN_IF_ERROR(InlineOne(g, n, *fdef, attrs, first_arg));
      any = true;
    }
    if (!any) return absl::OkStatus();
  }
  return errors::InvalidArgument("function calls nest more than 64 deep (recursion?)");
}

}  // namespace sg
