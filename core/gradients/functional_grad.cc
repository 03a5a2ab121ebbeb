// Gradient functions of library functions (functional_grad.h) and the gradients of function
// calls: PartitionedCall, StatefulPartitionedCall and a call of a library function as an op type.
// A call's gradient is a call of the same kind (PartitionedCall for PartitionedCall, else
// StatefulPartitionedCall) of f's gradient function on (the call's inputs, dy): the function the
// library's GradientDef names for f when there is one (as TensorFlow), else the one
// AddGradientFunction builds.
#include "core/gradients/functional_grad.h"

#include <algorithm>
#include <deque>
#include <map>
#include <set>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "core/framework/attr_value_util.h"
#include "core/framework/node_def_util.h"
#include "core/gradients/grad_registry.h"
#include "core/graph/gradients.h"
#include "core/graph/graph_constructor.h"
#include "core/util/fingerprint.h"

namespace sg {
namespace {

using Output = NodeBuilder::Output;

thread_local int gradient_function_depth = 0;

// The dtype of a function arg, its type attr resolved from the call's attrs.
absl::StatusOr<DataType> ArgType(const OpDef::ArgDef& arg, const NameAttrList& f) {
  if (!arg.number_attr().empty() || !arg.type_list_attr().empty()) {
    return errors::Unimplemented("gradient of function '", f.name(), "': list argument '",
                                 arg.name(), "' is not supported");
  }
  if (arg.type() != DT_INVALID) return arg.type();
  DataType t = DT_INVALID;
  if (!arg.type_attr().empty() && GetAttr(f.attr(), arg.type_attr(), &t).ok()) return t;
  return errors::InvalidArgument("gradient of function '", f.name(), "': cannot tell the dtype of '",
                                 arg.name(), "' (attr '", arg.type_attr(), "' not given)");
}

// "<f>_grad_<16 hex digits>": the fingerprint covers the attrs (in key order) and the options.
std::string GradientFunctionName(const NameAttrList& f, const GradientFunctionOptions& o) {
  std::map<std::string, std::string> attrs;
  for (const auto& [k, v] : f.attr()) v.SerializeToString(&attrs[k]);
  std::string key = f.name();
  for (const auto& [k, v] : attrs) absl::StrAppend(&key, "\n", k, "=", v);
  absl::StrAppend(&key, "\nzeros=", o.zeros_for_missing, "\nwanted=");
  for (bool w : o.wanted) key += w ? '1' : '0';
  for (const auto& [i, t] : o.resource_value_types) absl::StrAppend(&key, "\nresource", i, "=", t);
  if (!o.dy_wanted.empty()) {
    key += "\ndy_wanted=";
    for (bool w : o.dy_wanted) key += w ? '1' : '0';
  }
  return absl::StrCat(f.name(), "_grad_", absl::Hex(Fingerprint64(key), absl::kZeroPad16));
}

// Reads which input each output of an existing gradient function is for ("dx_<i>").
absl::StatusOr<GradientFunction> Existing(const FunctionDef& fdef) {
  GradientFunction gf{fdef.signature().name(), {}};
  for (const auto& arg : fdef.signature().output_arg()) {
    int i;
    if (!absl::StartsWith(arg.name(), "dx_") || !absl::SimpleAtoi(arg.name().substr(3), &i)) {
      return errors::InvalidArgument("function '", gf.name, "' is not a gradient function");
    }
    gf.dx_of.push_back(i);
  }
  return gf;
}

// f's body as a graph: a Placeholder per argument (named after it, shaped by the arg's
// "_output_shapes" when the FunctionDef records it), then the body's nodes under their names.
struct Body {
  std::vector<Output> xs, ys;
  std::vector<DataType> x_types, y_types;
};

absl::Status Instantiate(const FunctionDef& fdef, const NameAttrList& f, Graph* g, Body* body) {
  const OpDef& sig = fdef.signature();
  auto placeholder = [&](const std::string& name, DataType dt,
                         const PartialTensorShape& shape) -> absl::StatusOr<Output> {
    NodeDef def;
    def.set_name(name);
    def.set_op("Placeholder");
    AddNodeAttr("dtype", dt, &def);
    AddNodeAttr("shape", shape, &def);
    SG_ASSIGN_OR_RETURN(Node * n, g->AddNode(std::move(def)));
    return Output{n, 0};
  };
  std::map<std::string, Node*> names;
  for (int i = 0; i < sig.input_arg_size(); ++i) {
    SG_ASSIGN_OR_RETURN(DataType dt, ArgType(sig.input_arg(i), f));
    PartialTensorShape shape;
    auto it = fdef.arg_attr().find(i);
    if (it != fdef.arg_attr().end()) {
      auto s = it->second.attr().find("_output_shapes");
      if (s != it->second.attr().end() && s->second.list().shape_size() == 1) {
        auto parsed = PartialTensorShape::FromProto(s->second.list().shape(0));
        if (parsed.ok()) shape = *parsed;
      }
    }
    SG_ASSIGN_OR_RETURN(Output x, placeholder(sig.input_arg(i).name(), dt, shape));
    body->xs.push_back(x);
    body->x_types.push_back(dt);
    names[sig.input_arg(i).name()] = x.node;
  }
  std::vector<std::pair<Node*, const NodeDef*>> nodes;
  for (const NodeDef& nd : fdef.node_def()) {
    NodeDef def = nd;
    def.clear_input();
    for (auto& [k, v] : *def.mutable_attr()) {
      if (v.value_case() != AttrValue::kPlaceholder) continue;
      auto a = f.attr().find(v.placeholder());
      if (a == f.attr().end()) {
        return errors::InvalidArgument("gradient of function '", f.name(), "': node '", nd.name(),
                                       "' uses attr $", v.placeholder(), ", which is not given");
      }
      v = a->second;
    }
    auto n = g->AddNode(std::move(def));
    if (!n.ok()) return errors::Annotate(n.status(), absl::StrCat("in function '", f.name(), "': "));
    names[nd.name()] = *n;
    nodes.push_back({*n, &nd});
  }
  // "arg", "node:index" or "node:out_arg:index".
  auto resolve = [&](const std::string& ref) -> absl::StatusOr<Output> {
    std::vector<std::string> parts = absl::StrSplit(ref, ':');
    auto it = names.find(parts[0]);
    if (it == names.end() || parts.size() > 3) {
      return errors::InvalidArgument("function '", f.name(), "': unknown input '", ref, "'");
    }
    int index = 0;
    if (parts.size() == 2 && !absl::SimpleAtoi(parts[1], &index)) {
      return errors::InvalidArgument("function '", f.name(), "': bad input '", ref, "'");
    }
    if (parts.size() == 3) {
      NameRangeMap outs;
      SG_RETURN_IF_ERROR(NameRangesForNode(it->second->def(), it->second->op_def(), nullptr, &outs));
      auto r = outs.find(parts[1]);
      int k;
      if (r == outs.end() || !absl::SimpleAtoi(parts[2], &k) || k < 0 ||
          r->second.first + k >= r->second.second) {
        return errors::InvalidArgument("function '", f.name(), "': bad input '", ref, "'");
      }
      index = r->second.first + k;
    }
    return Output{it->second, index};
  };
  for (auto& [node, nd] : nodes) {
    int slot = 0;
    for (const std::string& in : nd->input()) {
      if (!in.empty() && in[0] == '^') {
        auto it = names.find(in.substr(1));
        if (it == names.end()) {
          return errors::InvalidArgument("function '", f.name(), "': unknown control input '", in,
                                         "'");
        }
        g->AddControlEdge(it->second, node);
        continue;
      }
      SG_ASSIGN_OR_RETURN(Output src, resolve(in));
      SG_RETURN_IF_ERROR(g->AddEdge(src.node, src.index, node, slot++).status());
    }
  }
  // Static shapes, as an import infers them: the gradients reduce broadcasts with constants
  // when both shapes are known.
  SG_ASSIGN_OR_RETURN(std::vector<Node*> order, TopologicalOrder(*g));
  for (Node* n : order) {
    absl::Status s = InferNodeShapes(n);
    if (!s.ok()) return errors::Annotate(s, absl::StrCat("in function '", f.name(), "': "));
  }
  for (const auto& arg : sig.output_arg()) {
    SG_ASSIGN_OR_RETURN(DataType dt, ArgType(arg, f));
    auto it = fdef.ret().find(arg.name());
    if (it == fdef.ret().end()) {
      return errors::InvalidArgument("function '", f.name(), "' does not return '", arg.name(), "'");
    }
    SG_ASSIGN_OR_RETURN(Output y, resolve(it->second));
    body->ys.push_back(y);
    body->y_types.push_back(dt);
  }
  return absl::OkStatus();
}

absl::StatusOr<FunctionDef> ToFunctionDef(const Graph& g, const std::string& name,
                                          const std::vector<Output>& args,
                                          const std::vector<std::pair<std::string, Output>>& outs) {
  FunctionDef fdef;
  OpDef* sig = fdef.mutable_signature();
  sig->set_name(name);
  std::map<int, std::string> arg_names;  // node id -> arg name
  for (const Output& a : args) {
    OpDef::ArgDef* arg = sig->add_input_arg();
    arg->set_name(a.node->name());
    arg->set_type(DTypeOf(a));
    arg_names[a.node->id()] = a.node->name();
  }
  std::vector<bool> keep(g.num_node_ids(), false);
  std::deque<Node*> queue;
  for (const auto& [n, o] : outs) {
    if (!keep[o.node->id()]) queue.push_back(o.node), keep[o.node->id()] = true;
  }
  while (!queue.empty()) {
    Node* n = queue.front();
    queue.pop_front();
    for (const Edge* e : n->in_edges()) {
      if (!keep[e->src->id()]) queue.push_back(e->src), keep[e->src->id()] = true;
    }
  }
  auto ref = [&](Output o) -> absl::StatusOr<std::string> {
    auto a = arg_names.find(o.node->id());
    if (a != arg_names.end()) return a->second;
    NameRangeMap ranges;
    SG_RETURN_IF_ERROR(NameRangesForNode(o.node->def(), o.node->op_def(), nullptr, &ranges));
    for (const auto& [arg, r] : ranges) {
      if (o.index >= r.first && o.index < r.second) {
        return absl::StrCat(o.node->name(), ":", arg, ":", o.index - r.first);
      }
    }
    return errors::Internal("output ", o.index, " of '", o.node->name(), "' has no arg");
  };
  for (Node* n : g.nodes()) {
    if (!keep[n->id()] || arg_names.count(n->id())) continue;
    NodeDef* def = fdef.add_node_def();
    *def = n->def();
    def->clear_input();
    std::vector<const Edge*> data(n->num_inputs(), nullptr);
    std::vector<std::string> control;
    for (const Edge* e : n->in_edges()) {
      if (e->IsControlEdge()) {
        if (!arg_names.count(e->src->id())) control.push_back("^" + e->src->name());
      } else {
        data[e->dst_input] = e;
      }
    }
    for (const Edge* e : data) {
      if (e == nullptr) return errors::Internal("node '", n->name(), "' has an unconnected input");
      SG_ASSIGN_OR_RETURN(std::string r, ref({e->src, e->src_output}));
      def->add_input(r);
    }
    std::sort(control.begin(), control.end());
    for (const std::string& c : control) def->add_input(c);
  }
  for (const auto& [out_name, o] : outs) {
    OpDef::ArgDef* arg = sig->add_output_arg();
    arg->set_name(out_name);
    arg->set_type(DTypeOf(o));
    SG_ASSIGN_OR_RETURN((*fdef.mutable_ret())[out_name], ref(o));
  }
  return fdef;
}

absl::StatusOr<GradientFunction> Build(FunctionLibrary* lib, const FunctionDef& fdef,
                                       const NameAttrList& f, const GradientFunctionOptions& o,
                                       const std::string& name) {
  Graph g;
  *g.mutable_flib() = *lib;
  Body body;
  SG_RETURN_IF_ERROR(Instantiate(fdef, f, &g, &body));
  const int n = static_cast<int>(body.xs.size());
  if (!o.wanted.empty() && static_cast<int>(o.wanted.size()) != n) {
    return errors::InvalidArgument("gradient of function '", f.name(), "': ", o.wanted.size(),
                                   " wanted flags for ", n, " inputs");
  }
  if (!o.dy_wanted.empty() && o.dy_wanted.size() != body.ys.size()) {
    return errors::InvalidArgument("gradient of function '", f.name(), "': ", o.dy_wanted.size(),
                                   " dy_wanted flags for ", body.ys.size(), " outputs");
  }
  // Only the outputs that take a dy are differentiated.
  if (!o.dy_wanted.empty()) {
    std::vector<Output> ys;
    std::vector<DataType> y_types;
    for (size_t j = 0; j < body.ys.size(); ++j) {
      if (!o.dy_wanted[j]) continue;
      ys.push_back(body.ys[j]);
      y_types.push_back(body.y_types[j]);
    }
    body.ys = std::move(ys);
    body.y_types = std::move(y_types);
  }
  // Each y through an Identity of its own: AddSymbolicGradients ignores what reaches a y node
  // from its other consumers (as TensorFlow's builder does), and a y may be an argument or feed
  // another y.
  GradScope ids(&g, "sg_y");
  for (Output& y : body.ys) y = ids.Op("Identity", {y});
  SG_RETURN_IF_ERROR(ids.status());
  // One dy per output, shaped as it.
  std::vector<Output> dys;
  for (size_t j = 0; j < body.ys.size(); ++j) {
    std::string dy_name = absl::StrCat("sg_dy_", j);
    while (g.FindNode(dy_name) != nullptr) dy_name += "_";
    NodeDef def;
    def.set_name(dy_name);
    def.set_op("Placeholder");
    AddNodeAttr("dtype", body.y_types[j], &def);
    AddNodeAttr("shape", StaticShapeOf(body.ys[j]), &def);
    SG_ASSIGN_OR_RETURN(Node * dy, g.AddNode(std::move(def)));
    SG_RETURN_IF_ERROR(InferNodeShapes(dy));
    dys.push_back({dy, 0});
  }
  // The xs a y is reached from along data edges, and that carry gradients.
  std::vector<bool> reaches(g.num_node_ids(), false);
  std::deque<Node*> queue;
  for (const Output& y : body.ys) {
    if (!reaches[y.node->id()]) queue.push_back(y.node), reaches[y.node->id()] = true;
  }
  while (!queue.empty()) {
    Node* node = queue.front();
    queue.pop_front();
    for (const Edge* e : node->in_edges()) {
      if (!e->IsControlEdge() && !reaches[e->src->id()]) {
        reaches[e->src->id()] = true;
        queue.push_back(e->src);
      }
    }
  }
  std::vector<int> diff;  // indices of the xs differentiated
  std::vector<Output> diff_xs;
  for (int i = 0; i < n; ++i) {
    const bool wanted = o.wanted.empty() || o.wanted[i];
    if (wanted && reaches[body.xs[i].node->id()] && IsDifferentiable(body.x_types[i])) {
      diff.push_back(i);
      diff_xs.push_back(body.xs[i]);
    }
  }
  std::vector<Output> grads(n, NoGradient());
  if (!diff_xs.empty() && !body.ys.empty()) {
    std::vector<Output> dxs;
    absl::Status s = AddSymbolicGradients(&g, body.ys, diff_xs, dys, "", &dxs);
    if (!s.ok()) return errors::Annotate(s, absl::StrCat("in function '", f.name(), "': "));
    for (size_t k = 0; k < diff.size(); ++k) grads[diff[k]] = dxs[k];
  }
  GradientFunction gf{name, {}};
  std::vector<std::pair<std::string, Output>> outs;
  GradScope zeros(&g, "zeros");
  for (int i = 0; i < n; ++i) {
    if (!o.wanted.empty() && !o.wanted[i]) continue;
    Output dx = grads[i];
    if (IsNoGradient(dx)) {
      if (!o.zeros_for_missing) continue;
      auto rt = o.resource_value_types.find(i);
      if (body.x_types[i] == DT_RESOURCE && rt != o.resource_value_types.end()) {
        GradOutput value =
            zeros.Op("ReadVariableOp", {body.xs[i]}, {{"dtype", TypeAttr(rt->second)}});
        dx = zeros.ZerosLike(value);
        SG_RETURN_IF_ERROR(zeros.status());
      } else if (body.x_types[i] == DT_RESOURCE) {
        return errors::Unimplemented("gradient of function '", f.name(), "': no gradient reaches "
                                     "resource input '", body.xs[i].node->name(), "'");
      } else {
        dx = zeros.ZerosLike(body.xs[i]);
        SG_RETURN_IF_ERROR(zeros.status());
      }
    }
    gf.dx_of.push_back(i);
    outs.push_back({absl::StrCat("dx_", i), dx});
  }
  std::vector<Output> args = body.xs;
  args.insert(args.end(), dys.begin(), dys.end());
  SG_ASSIGN_OR_RETURN(FunctionDef gdef, ToFunctionDef(g, name, args, outs));
  // Gradient functions of calls nested in the body.
  FunctionDefLibrary nested;
  g.flib().ToProto(&nested);
  nested.clear_gradient();  // the library's own GradientDefs, already in `lib`
  SG_RETURN_IF_ERROR(lib->AddLibrary(nested));
  SG_RETURN_IF_ERROR(lib->AddFunction(gdef));
  return gf;
}

// ---- Gradients of calls --------------------------------------------------------------------

// The function a call node runs: its "f" attr, or its op type (with the attrs f declares).
absl::StatusOr<NameAttrList> CalledFunction(const Node& op) {
  NameAttrList f;
  if (op.IsFunctionCall()) {
    f.set_name(op.type_string());
    for (const auto& a : op.op_def().attr()) {
      auto it = op.def().attr().find(a.name());
      if (it != op.def().attr().end()) (*f.mutable_attr())[a.name()] = it->second;
    }
    return f;
  }
  SG_RETURN_IF_ERROR(GetAttr(op.def().attr(), "f", &f));
  return f;
}

absl::Status CallGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  SG_ASSIGN_OR_RETURN(NameAttrList f, CalledFunction(op));
  FunctionLibrary* lib = s.graph()->mutable_flib();
  if (lib->Find(f.name()) == nullptr) {
    return errors::NotFound("gradient of '", op.name(), "' (", op.type_string(),
                            "): function '", f.name(), "' is not in the graph's library");
  }
  const int n = op.num_inputs();
  GradientFunction gf;
  // A GradientDef of the library names f's gradient function (all inputs, then all dys).
  FunctionDefLibrary proto;
  lib->ToProto(&proto);
  std::string custom;
  for (const GradientDef& gd : proto.gradient()) {
    if (gd.function_name() == f.name()) custom = gd.gradient_func();
  }
  if (!custom.empty()) {
    gf.name = custom;
    for (int i = 0; i < n; ++i) gf.dx_of.push_back(i);
  } else {
    GradientFunctionOptions o;
    o.zeros_for_missing = false;
    SG_ASSIGN_OR_RETURN(gf, AddGradientFunction(lib, f, o));
  }
  dx->assign(n, NoGradient());
  if (gf.dx_of.empty()) return s.status();
  const FunctionDef* gdef = lib->Find(gf.name);
  if (gdef == nullptr) {
    return errors::NotFound("gradient of '", op.name(), "': function '", gf.name,
                            "' is not in the graph's library");
  }
  GradOutputs args;
  for (int i = 0; i < n; ++i) args.push_back(InputOf(op, i));
  args.insert(args.end(), dy.begin(), dy.end());
  std::vector<DataType> tout;
  for (const auto& arg : gdef->signature().output_arg()) tout.push_back(arg.type());
  AttrValue fn, tout_attr;
  fn.mutable_func()->set_name(gf.name);
  if (!custom.empty()) *fn.mutable_func()->mutable_attr() = f.attr();
  SetAttrValue(absl::Span<const DataType>(tout), &tout_attr);
  const char* type = op.type_string() == "PartitionedCall" ? "PartitionedCall"
                                                           : "StatefulPartitionedCall";
  GradOutputs outs = s.OpN(type, {GradInput::List(args)}, {{"f", fn}, {"Tout", tout_attr}});
  if (!s.status().ok()) return s.status();
  if (outs.size() != gf.dx_of.size()) {
    return errors::InvalidArgument("gradient function '", gf.name, "' of '", op.name(),
                                   "' returns ", outs.size(), " values for ", gf.dx_of.size());
  }
  for (size_t k = 0; k < outs.size(); ++k) (*dx)[gf.dx_of[k]] = outs[k];
  return s.status();
}

SG_REGISTER_GRADIENT("PartitionedCall", CallGrad);
SG_REGISTER_GRADIENT("StatefulPartitionedCall", CallGrad);

}  // namespace

absl::StatusOr<GradientFunction> AddGradientFunction(FunctionLibrary* lib, const NameAttrList& f,
                                                     const GradientFunctionOptions& options) {
  const FunctionDef* fdef = lib->Find(f.name());
  if (fdef == nullptr) {
    return errors::NotFound("gradient: function '", f.name(), "' is not in the library");
  }
  const std::string name = GradientFunctionName(f, options);
  if (const FunctionDef* existing = lib->Find(name)) return Existing(*existing);
  if (gradient_function_depth >= 32) {
    return errors::InvalidArgument("gradient of function '", f.name(),
                                   "': functions nest more than 32 deep (recursion?)");
  }
  ++gradient_function_depth;
  const FunctionDef copy = *fdef;  // `lib` grows while the body is differentiated
  auto result = Build(lib, copy, f, options, name);
  --gradient_function_depth;
  return result;
}

absl::StatusOr<std::map<int, DataType>> ResourceGradientTypes(
    const FunctionLibrary& lib, const std::vector<NameAttrList>& fns,
    const std::vector<DataType>& input_types, const std::vector<bool>& dy_wanted) {
  const int n = static_cast<int>(input_types.size());
  std::map<int, DataType> types;
  GradientFunctionOptions o;
  o.zeros_for_missing = false;
  o.dy_wanted = dy_wanted;
  o.wanted.assign(n, false);
  bool any = false;
  for (int i = 0; i < n; ++i) {
    o.wanted[i] = BaseType(input_types[i]) == DT_RESOURCE;
    any |= o.wanted[i];
  }
  if (!any) return types;
  FunctionLibrary scratch = lib;
  for (const NameAttrList& f : fns) {
    SG_ASSIGN_OR_RETURN(GradientFunction gf, AddGradientFunction(&scratch, f, o));
    const FunctionDef* gdef = scratch.Find(gf.name);
    for (size_t k = 0; k < gf.dx_of.size(); ++k) {
      const DataType t = gdef->signature().output_arg(k).type();
      auto [it, added] = types.emplace(gf.dx_of[k], t);
      if (!added && it->second != t) {
        return errors::Unimplemented("resource input ", gf.dx_of[k], " gets gradients of ",
                                     DataTypeString(it->second), " and ", DataTypeString(t),
                                     " from the functions it is passed to");
      }
    }
  }
  return types;
}

absl::StatusOr<std::vector<DataType>> FunctionResultTypes(const FunctionLibrary& lib,
                                                          const NameAttrList& f) {
  const FunctionDef* fdef = lib.Find(f.name());
  if (fdef == nullptr) {
    return errors::NotFound("function '", f.name(), "' is not in the library");
  }
  std::vector<DataType> types;
  for (const auto& arg : fdef->signature().output_arg()) {
    SG_ASSIGN_OR_RETURN(DataType t, ArgType(arg, f));
    types.push_back(t);
  }
  return types;
}

std::string UniqueFunctionName(const FunctionLibrary& lib, absl::string_view stem) {
  if (lib.Find(stem) == nullptr) return std::string(stem);
  for (int i = 1;; ++i) {
    std::string name = absl::StrCat(stem, "_", i);
    if (lib.Find(name) == nullptr) return name;
  }
}

absl::StatusOr<FunctionDef> FunctionDefFromGraph(
    const Graph& g, const std::string& name, const std::vector<NodeBuilder::Output>& args,
    const std::vector<std::pair<std::string, NodeBuilder::Output>>& outs) {
  return ToFunctionDef(g, name, args, outs);
}

absl::StatusOr<const FunctionDef*> SymbolicGradientFunction(Graph* g, const Node& n) {
  NameAttrList f;
  SG_RETURN_IF_ERROR(GetAttr(n.def().attr(), "f", &f));
  const FunctionDef* fdef = g->flib().Find(f.name());
  if (fdef == nullptr) {
    return errors::NotFound("SymbolicGradient '", n.name(), "': function '", f.name(),
                            "' is not in the graph's library");
  }
  const int num_x = fdef->signature().input_arg_size();
  const int num_y = fdef->signature().output_arg_size();
  if (n.num_inputs() != num_x + num_y || n.num_outputs() != num_x) {
    return errors::InvalidArgument("SymbolicGradient '", n.name(), "' of function '", f.name(),
                                   "' (", num_x, " inputs, ", num_y, " outputs) must take ",
                                   num_x + num_y, " inputs and return ", num_x, "; it takes ",
                                   n.num_inputs(), " and returns ", n.num_outputs());
  }
  GradientFunctionOptions o;
  o.zeros_for_missing = true;
  auto gf = AddGradientFunction(g->mutable_flib(), f, o);
  if (!gf.ok()) {
    return errors::Annotate(gf.status(), absl::StrCat("SymbolicGradient '", n.name(), "': "));
  }
  const FunctionDef* gdef = g->flib().Find(gf->name);
  for (int i = 0; i < num_x; ++i) {
    const DataType want = BaseType(n.output_type(i));
    const DataType got = gdef->signature().output_arg(i).type();
    if (want != got || BaseType(n.input_type(i)) != want) {
      return errors::InvalidArgument("SymbolicGradient '", n.name(), "': output ", i, " is ",
                                     DataTypeString(want), " but the gradient of input ", i,
                                     " of '", f.name(), "' is ", DataTypeString(got));
    }
  }
  return gdef;
}

}  // namespace sg
