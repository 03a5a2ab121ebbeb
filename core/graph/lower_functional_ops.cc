#include "core/graph/lower_functional_ops.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/framework/attr_value_util.h"
#include "core/framework/node_def_util.h"

namespace sg {
namespace {

using Port = std::pair<Node*, int>;

// What lowering keeps of the functional node before deleting it.
struct Saved {
  std::string name, device;
  AttrMap attrs;
  std::vector<Port> inputs;
  std::vector<Node*> control_in;
  struct Out {
    Node* dst;
    int src_output, dst_input;
  };
  std::vector<Out> outs;
  std::vector<DataType> in_types, out_types;
};

absl::StatusOr<Saved> SaveAndRemove(Graph* g, Node* n) {
  Saved s;
  s.name = n->name();
  s.device = n->requested_device();
  s.attrs = n->def().attr();
  s.in_types = n->input_types();
  s.out_types = n->output_types();
  s.inputs.assign(n->num_inputs(), {nullptr, 0});
  for (const Edge* e : n->in_edges()) {
    if (e->IsControlEdge()) {
      s.control_in.push_back(e->src);
    } else {
      s.inputs[e->dst_input] = {e->src, e->src_output};
    }
  }
  for (size_t i = 0; i < s.inputs.size(); ++i) {
    if (s.inputs[i].first == nullptr) {
      return errors::InvalidArgument("input ", i, " of ", n->type_string(), " node '", s.name,
                                     "' is not connected");
    }
  }
  for (const Edge* e : n->out_edges()) s.outs.push_back({e->dst, e->src_output, e->dst_input});
  g->RemoveNode(n);
  return s;
}

// Builds the nodes of one lowering, all on the lowered node's device and named below it.
class Builder {
 public:
  Builder(Graph* g, const Saved& s) : g_(g), s_(s) {}

  absl::StatusOr<Node*> Add(const std::string& op, const std::string& suffix, AttrMap attrs,
                            const std::vector<Port>& inputs,
                            const std::vector<Node*>& control_inputs = {}) {
    NodeDef def;
    def.set_name(g_->NewName(absl::StrCat(s_.name, "/", suffix)));
    def.set_op(op);
    def.set_device(s_.device);
    *def.mutable_attr() = std::move(attrs);
    SG_ASSIGN_OR_RETURN(Node * n, g_->AddNode(std::move(def)));
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (inputs[i].first == nullptr) continue;  // connected later (a Merge's back edge)
      SG_RETURN_IF_ERROR(g_->AddEdge(inputs[i].first, inputs[i].second, n, i).status());
    }
    for (Node* c : control_inputs) g_->AddControlEdge(c, n);
    return n;
  }

  absl::StatusOr<Node*> Unary(const std::string& op, const std::string& suffix, DataType t,
                              Port in, const std::vector<Node*>& control_inputs = {}) {
    AttrMap a;
    SetAttrValue(t, &a["T"]);
    return Add(op, suffix, std::move(a), {in}, control_inputs);
  }

  absl::StatusOr<Node*> Merge(const std::string& suffix, DataType t,
                              const std::vector<Port>& inputs) {
    AttrMap a;
    SetAttrValue(t, &a["T"]);
    SetAttrValue(static_cast<int64_t>(inputs.size()), &a["N"]);
    return Add("Merge", suffix, std::move(a), inputs);
  }

  // A PartitionedCall of `f` on `args`; InlineFunctionCalls replaces it by f's body.
  absl::StatusOr<Node*> Call(const std::string& suffix, const NameAttrList& f,
                             const std::vector<Port>& args, const std::vector<DataType>& in_types,
                             const std::vector<DataType>& out_types, Node* pivot) {
    if (g_->flib().Find(f.name()) == nullptr) {
      return errors::NotFound("node '", s_.name, "' calls function '", f.name(),
                              "', which is not in the graph's library");
    }
    AttrMap a;
    *a["f"].mutable_func() = f;
    SetAttrValue(absl::Span<const DataType>(in_types), &a["Tin"]);
    SetAttrValue(absl::Span<const DataType>(out_types), &a["Tout"]);
    return Add("StatefulPartitionedCall", suffix, std::move(a), args, {pivot});
  }

  // The node that takes the lowered node's name: an IdentityN of `results` (a NoOp when there
  // are none) after `done`, wired to the lowered node's consumers.
  absl::Status Finish(const std::vector<Port>& results, Node* done) {
    NodeDef def;
    def.set_name(s_.name);
    def.set_device(s_.device);
    if (results.empty()) {
      def.set_op("NoOp");
    } else {
      def.set_op("IdentityN");
      std::vector<DataType> types;
      for (const Port& p : results) types.push_back(BaseType(p.first->output_type(p.second)));
      AddNodeAttr("T", absl::Span<const DataType>(types), &def);
    }
    SG_ASSIGN_OR_RETURN(Node * res, g_->AddNode(std::move(def)));
    for (size_t i = 0; i < results.size(); ++i) {
      SG_RETURN_IF_ERROR(g_->AddEdge(results[i].first, results[i].second, res, i).status());
    }
    if (done != nullptr) g_->AddControlEdge(done, res);
    for (const Saved::Out& o : s_.outs) {
      if (o.src_output == kControlSlot) {
        g_->AddControlEdge(res, o.dst);
      } else {
        SG_RETURN_IF_ERROR(g_->AddEdge(res, o.src_output, o.dst, o.dst_input).status());
      }
    }
    return absl::OkStatus();
  }

 private:
  Graph* g_;
  const Saved& s_;
};

std::vector<DataType> BaseTypes(std::vector<DataType> v) {
  for (DataType& t : v) t = BaseType(t);
  return v;
}

// A ToBool of `p` unless it already is a bool (as TensorFlow converts If and While conditions).
absl::StatusOr<Port> AsBool(Builder& b, Port p, const std::string& suffix) {
  DataType t = BaseType(p.first->output_type(p.second));
  if (t == DT_BOOL) return p;
  SG_ASSIGN_OR_RETURN(Node * n, b.Unary("ToBool", suffix, t, p));
  return Port{n, 0};
}

// Common tail of If and Case: merges the branches' results and marks which branch ran.
absl::Status MergeBranches(Builder& b, const Saved& s, const std::vector<Node*>& calls,
                           const std::vector<Node*>& pivots, DataType pivot_type) {
  std::vector<Port> results;
  const int num_out = static_cast<int>(s.out_types.size());
  for (int j = 0; j < num_out; ++j) {
    std::vector<Port> ins;
    for (Node* c : calls) ins.push_back({c, j});
    SG_ASSIGN_OR_RETURN(Node * m, b.Merge(absl::StrCat("output_", j), BaseType(s.out_types[j]), ins));
    results.push_back({m, 0});
  }
  // Each branch's pivot, after the branch's call, reaches one Merge: the branch taken is live.
  std::vector<Port> done;
  for (size_t k = 0; k < calls.size(); ++k) {
    SG_ASSIGN_OR_RETURN(Node * d, b.Unary("Identity", absl::StrCat("branch_", k, "_done"),
                                          pivot_type, {pivots[k], 0}, {calls[k]}));
    done.push_back({d, 0});
  }
  SG_ASSIGN_OR_RETURN(Node * executed, b.Merge("branch_executed", pivot_type, done));
  return b.Finish(results, executed);
}

absl::Status LowerIf(Graph* g, Node* n) {
  SG_ASSIGN_OR_RETURN(Saved s, SaveAndRemove(g, n));
  NameAttrList then_f, else_f;
  SG_RETURN_IF_ERROR(GetAttr(s.attrs, "then_branch", &then_f));
  SG_RETURN_IF_ERROR(GetAttr(s.attrs, "else_branch", &else_f));
  Builder b(g, s);
  SG_ASSIGN_OR_RETURN(Port pred, AsBool(b, s.inputs[0], "cond_to_bool"));
  AttrMap sa;
  SetAttrValue(DT_BOOL, &sa["T"]);
  SG_ASSIGN_OR_RETURN(Node * sw_pred, b.Add("Switch", "switch_pred", sa, {pred, pred}, s.control_in));
  SG_ASSIGN_OR_RETURN(Node * pivot_f, b.Unary("Identity", "pivot_f", DT_BOOL, {sw_pred, 0}));
  SG_ASSIGN_OR_RETURN(Node * pivot_t, b.Unary("Identity", "pivot_t", DT_BOOL, {sw_pred, 1}));
  std::vector<Port> then_args, else_args;
  std::vector<DataType> arg_types;
  for (size_t i = 1; i < s.inputs.size(); ++i) {
    const DataType t = BaseType(s.in_types[i]);
    AttrMap a;
    SetAttrValue(t, &a["T"]);
    SG_ASSIGN_OR_RETURN(Node * sw, b.Add("Switch", absl::StrCat("switch_", i - 1), a,
                                         {s.inputs[i], pred}, s.control_in));
    else_args.push_back({sw, 0});
    then_args.push_back({sw, 1});
    arg_types.push_back(t);
  }
  const std::vector<DataType> out_types = BaseTypes(s.out_types);
  SG_ASSIGN_OR_RETURN(Node * then_call,
                      b.Call("then", then_f, then_args, arg_types, out_types, pivot_t));
  SG_ASSIGN_OR_RETURN(Node * else_call,
                      b.Call("else", else_f, else_args, arg_types, out_types, pivot_f));
  // Merge inputs in TensorFlow's order: the else branch first.
  return MergeBranches(b, s, {else_call, then_call}, {pivot_f, pivot_t}, DT_BOOL);
}

absl::Status LowerCase(Graph* g, Node* n) {
  SG_ASSIGN_OR_RETURN(Saved s, SaveAndRemove(g, n));
  const AttrValue* branches_attr;
  SG_RETURN_IF_ERROR(GetAttr(s.attrs, "branches", &branches_attr));
  const auto& branches = branches_attr->list().func();
  const int k = branches.size();
  if (k == 0) return errors::InvalidArgument("Case node '", s.name, "' has no branches");
  Builder b(g, s);
  auto switch_n = [&](const std::string& suffix, DataType t, Port data) {
    AttrMap a;
    SetAttrValue(t, &a["T"]);
    SetAttrValue(static_cast<int64_t>(k), &a["num_outs"]);
    return b.Add("_SwitchN", suffix, std::move(a), {data, s.inputs[0]}, s.control_in);
  };
  SG_ASSIGN_OR_RETURN(Node * sw_index, switch_n("switch_index", DT_INT32, s.inputs[0]));
  std::vector<Node*> pivots;
  for (int j = 0; j < k; ++j) {
    SG_ASSIGN_OR_RETURN(Node * p, b.Unary("Identity", absl::StrCat("pivot_", j), DT_INT32,
                                          {sw_index, j}));
    pivots.push_back(p);
  }
  std::vector<std::vector<Port>> args(k);
  std::vector<DataType> arg_types;
  for (size_t i = 1; i < s.inputs.size(); ++i) {
    const DataType t = BaseType(s.in_types[i]);
    SG_ASSIGN_OR_RETURN(Node * sw, switch_n(absl::StrCat("switch_", i - 1), t, s.inputs[i]));
    for (int j = 0; j < k; ++j) args[j].push_back({sw, j});
    arg_types.push_back(t);
  }
  const std::vector<DataType> out_types = BaseTypes(s.out_types);
  std::vector<Node*> calls;
  for (int j = 0; j < k; ++j) {
    SG_ASSIGN_OR_RETURN(Node * c, b.Call(absl::StrCat("branch_", j), branches[j], args[j],
                                         arg_types, out_types, pivots[j]));
    calls.push_back(c);
  }
  return MergeBranches(b, s, calls, pivots, DT_INT32);
}

// The dtype of `f`'s first result, its attrs resolved from the call.
absl::StatusOr<DataType> FirstResultType(const Graph& g, const NameAttrList& f,
                                         const std::string& caller) {
  const FunctionDef* fdef = g.flib().Find(f.name());
  if (fdef == nullptr) {
    return errors::NotFound("node '", caller, "' calls function '", f.name(),
                            "', which is not in the graph's library");
  }
  if (fdef->signature().output_arg_size() != 1) {
    return errors::InvalidArgument("the cond function '", f.name(), "' of While '", caller,
                                   "' must return one tensor, it returns ",
                                   fdef->signature().output_arg_size());
  }
  const OpDef::ArgDef& arg = fdef->signature().output_arg(0);
  if (arg.type() != DT_INVALID) return arg.type();
  DataType t;
  if (!arg.type_attr().empty() && GetAttr(f.attr(), arg.type_attr(), &t).ok()) return t;
  return errors::InvalidArgument("cannot tell the result type of cond function '", f.name(),
                                 "' of While '", caller, "'");
}

absl::Status LowerWhile(Graph* g, Node* n) {
  SG_ASSIGN_OR_RETURN(Saved s, SaveAndRemove(g, n));
  if (s.inputs.empty()) {
    return errors::InvalidArgument("While node '", s.name, "' has no loop variables");
  }
  NameAttrList cond_f, body_f;
  SG_RETURN_IF_ERROR(GetAttr(s.attrs, "cond", &cond_f));
  SG_RETURN_IF_ERROR(GetAttr(s.attrs, "body", &body_f));
  int64_t parallel = 10;
  if (s.attrs.count("parallel_iterations")) {
    SG_RETURN_IF_ERROR(GetAttr(s.attrs, "parallel_iterations", &parallel));
  }
  SG_ASSIGN_OR_RETURN(DataType cond_type, FirstResultType(*g, cond_f, s.name));
  Builder b(g, s);
  const std::vector<DataType> types = BaseTypes(s.in_types);
  const int nv = static_cast<int>(types.size());
  std::vector<Node*> merges;
  std::vector<Port> merged;
  for (int i = 0; i < nv; ++i) {
    AttrMap a;
    SetAttrValue(types[i], &a["T"]);
    SetAttrValue(s.name, &a["frame_name"]);
    SetAttrValue(false, &a["is_constant"]);
    SetAttrValue(parallel, &a["parallel_iterations"]);
    SG_ASSIGN_OR_RETURN(Node * enter, b.Add("Enter", absl::StrCat("enter_", i), std::move(a),
                                            {s.inputs[i]}, s.control_in));
    SG_ASSIGN_OR_RETURN(Node * m, b.Merge(absl::StrCat("merge_", i), types[i],
                                          {{enter, 0}, {nullptr, 0}}));
    merges.push_back(m);
    merged.push_back({m, 0});
  }
  SG_ASSIGN_OR_RETURN(Node * cond_call,
                      b.Call("cond", cond_f, merged, types, {cond_type}, merges[0]));
  SG_ASSIGN_OR_RETURN(Port pred, AsBool(b, {cond_call, 0}, "cond_to_bool"));
  SG_ASSIGN_OR_RETURN(Node * loop_cond, b.Add("LoopCond", "loop_cond", {}, {pred}));
  std::vector<Port> exits, body_args;
  for (int i = 0; i < nv; ++i) {
    AttrMap a;
    SetAttrValue(types[i], &a["T"]);
    SG_ASSIGN_OR_RETURN(Node * sw, b.Add("Switch", absl::StrCat("switch_", i), std::move(a),
                                         {merged[i], {loop_cond, 0}}));
    SG_ASSIGN_OR_RETURN(Node * exit, b.Unary("Exit", absl::StrCat("exit_", i), types[i], {sw, 0}));
    SG_ASSIGN_OR_RETURN(Node * in, b.Unary("Identity", absl::StrCat("body_input_", i), types[i],
                                           {sw, 1}));
    exits.push_back({exit, 0});
    body_args.push_back({in, 0});
  }
  SG_ASSIGN_OR_RETURN(Node * body_call,
                      b.Call("body", body_f, body_args, types, types, body_args[0].first));
  for (int i = 0; i < nv; ++i) {
    SG_ASSIGN_OR_RETURN(Node * next, b.Unary("NextIteration", absl::StrCat("next_", i),
                                             types[i], {body_call, i}));
    SG_RETURN_IF_ERROR(g->AddEdge(next, 0, merges[i], 1).status());
  }
  return b.Finish(exits, nullptr);
}

}  // namespace

bool IsFunctionalControlFlow(const Node& n) {
  const std::string& t = n.type_string();
  return t == "While" || t == "StatelessWhile" || t == "If" || t == "StatelessIf" ||
         t == "Case" || t == "StatelessCase";
}

absl::Status LowerFunctionalOp(Graph* g, Node* n) {
  const std::string t = n->type_string();
  if (t == "While" || t == "StatelessWhile") return LowerWhile(g, n);
  if (t == "If" || t == "StatelessIf") return LowerIf(g, n);
  if (t == "Case" || t == "StatelessCase") return LowerCase(g, n);
  return errors::InvalidArgument("node '", n->name(), "' (", t, ") is not functional control flow");
}

}  // namespace sg
