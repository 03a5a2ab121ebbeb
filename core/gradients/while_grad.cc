// The gradient of a loop (while_grad.h): TensorFlow 2's While / StatelessWhile(x; cond, body),
// and v1 loops once core/graph/functionalize_loop.h has made them a cond and a body. The
// loop computes x(k+1) = body(x(k)) from x(0) = its inputs while cond(x(k)), and returns x(n),
// so d(out)/d(in) is the product of the body's Jacobians at x(n-1) ... x(0), applied backwards.
// TensorFlow's while_v2 (_WhileGrad) rewrites the forward While to also export the values the
// backward loop needs. This gradient leaves the forward op alone (a caller may hold it) and
// builds two new loops instead:
//
//   forward   While(x, 0, [] x A; fwd_cond, fwd_body): runs the loop again, counting the
//             iterations and pushing each iteration's input x_a(k) onto a TensorList, for every
//             loop variable a in A (those the body changes; see below);
//   backward  While(n, dy, acc, lists, x_p; n > 0, bwd_body): pops x(k) off the lists, and
//             applies the body's gradient function (functional_grad.h) to (x(k), dy), giving
//             the dy of the next step back; after n steps dy is the gradient of the inputs.
//
// Loop variables:
//  - differentiable values (floating point, complex, TensorLists: list_grad.cc): carry a dy,
//    zeros when no gradient reaches the While's output;
//  - variables (resources) a body reads: the body must pass the handle on unchanged; the
//    gradient of their values is summed over the iterations into an accumulator (acc);
//  - anything else (integers, strings...) gets no gradient but may be needed to differentiate
//    the body (a counter used as an index, the max iteration count).
// A variable the body returns as it got it (directly or through Identity: a captured value, a
// bound) is the same in every iteration and is passed to the backward loop once (x_p) instead
// of being pushed per iteration.
// Recomputing the loop repeats its side effects, so a cond or body (or a function it calls)
// with a stateful op other than reading a variable (ReadVariableOp, ResourceGather...) or
// Assert/NoOp is UNIMPLEMENTED, naming the op: a random op would give the backward loop other
// values than the forward loop had, and an assignment would be applied twice.
#include "core/gradients/while_grad.h"

#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "core/framework/attr_value_util.h"
#include "core/gradients/functional_grad.h"

namespace sg {
namespace {

using Output = NodeBuilder::Output;

// Stateful ops that recomputing a loop may run again: they read state without changing it.
const std::set<std::string, std::less<>>& RereadableStatefulOps() {
  static const auto* ops = new std::set<std::string, std::less<>>{
      "ReadVariableOp", "ResourceGather", "ResourceGatherNd", "VariableShape",
      "VarIsInitializedOp", "Assert", "NoOp", "StatefulPartitionedCall", "While", "If", "Case",
      "_Arg", "_Retval"};
  return *ops;
}

// OK when running `f` again has no effect the first run did not have (see the file comment);
// UNIMPLEMENTED naming the op and the function otherwise. Called functions are checked too.
absl::Status CheckRecomputable(const FunctionLibrary& lib, const std::string& f,
                               std::set<std::string>* seen) {
  if (!seen->insert(f).second) return absl::OkStatus();
  const FunctionDef* fdef = lib.Find(f);
  if (fdef == nullptr) {
    return errors::NotFound("function '", f, "' is not in the graph's library");
  }
  for (const NodeDef& nd : fdef->node_def()) {
    const OpRegistrationData* reg = lib.LookUp(nd.op());
    if (reg == nullptr) {
      return errors::NotFound("op '", nd.op(), "' of node '", nd.name(), "' in function '", f,
                              "' is not registered");
    }
    if (reg->function != nullptr) {
      SG_RETURN_IF_ERROR(CheckRecomputable(lib, nd.op(), seen));
      continue;
    }
    for (const auto& attr : nd.attr()) {
      const AttrValue& value = attr.second;
      if (value.has_func()) {
        SG_RETURN_IF_ERROR(CheckRecomputable(lib, value.func().name(), seen));
      }
      for (const NameAttrList& fn : value.list().func()) {
        SG_RETURN_IF_ERROR(CheckRecomputable(lib, fn.name(), seen));
      }
    }
    if (reg->op_def.is_stateful() && !RereadableStatefulOps().count(nd.op())) {
      return errors::Unimplemented("node '", nd.name(), "' (", nd.op(), ") in function '", f,
                                   "' is stateful; the gradient reruns the loop, which would run "
                                   "it again");
    }
  }
  return absl::OkStatus();
}

// For each output i of `f`: whether it returns input i unchanged (directly or through Identity
// nodes).
std::vector<bool> PassedThrough(const FunctionDef& fdef) {
  const OpDef& sig = fdef.signature();
  std::map<std::string, const NodeDef*> nodes;
  for (const NodeDef& nd : fdef.node_def()) nodes[nd.name()] = &nd;
  std::vector<bool> pass(sig.output_arg_size(), false);
  for (int i = 0; i < sig.output_arg_size() && i < sig.input_arg_size(); ++i) {
    auto it = fdef.ret().find(sig.output_arg(i).name());
    if (it == fdef.ret().end()) continue;
    std::string ref = it->second;
    for (int hops = 0; hops < 64; ++hops) {
      if (ref == sig.input_arg(i).name()) {
        pass[i] = true;
        break;
      }
      auto n = nodes.find(ref.substr(0, ref.find(':')));
      if (n == nodes.end() || n->second->op() != "Identity" || n->second->input_size() < 1 ||
          ref.size() == n->first.size() || ref.substr(n->first.size()) != ":output:0") {
        break;
      }
      ref = n->second->input(0);
    }
  }
  return pass;
}

// A function under construction: a scratch graph over (a copy of) the library, whose
// Placeholders are its arguments.
class FunctionBuilder {
 public:
  explicit FunctionBuilder(const FunctionLibrary& lib) : s_(&g_, "w") {
    *g_.mutable_flib() = lib;
  }
  GradScope& scope() { return s_; }
  Output Arg(DataType dt) {
    NodeDef def;
    def.set_name(absl::StrCat("arg_", args_.size()));
    def.set_op("Placeholder");
    AddNodeAttr("dtype", dt, &def);
    auto n = g_.AddNode(std::move(def));
    if (!n.ok()) {
      s_.UpdateStatus(n.status());
      return NoGradient();
    }
    args_.push_back({*n, 0});
    return args_.back();
  }
  // A call of `f` (with f's attrs) on `args`, returning `tout`.
  GradOutputs Call(const NameAttrList& f, const GradOutputs& args,
                   const std::vector<DataType>& tout) {
    AttrValue fn, types;
    *fn.mutable_func() = f;
    SetAttrValue(absl::Span<const DataType>(tout), &types);
    return s_.OpN("StatefulPartitionedCall", {GradInput::List(args)}, {{"f", fn}, {"Tout", types}});
  }
  // Adds the function returning `outs` to `lib` under a new name from `base`.
  absl::StatusOr<std::string> Finish(FunctionLibrary* lib, const std::string& base,
                                     const std::string& suffix, const GradOutputs& outs) {
    SG_RETURN_IF_ERROR(s_.status());
    std::vector<std::pair<std::string, Output>> named;
    for (size_t k = 0; k < outs.size(); ++k) named.push_back({absl::StrCat("out_", k), outs[k]});
    const std::string name = UniqueFunctionName(*lib, absl::StrCat(base, "_", suffix));
    SG_ASSIGN_OR_RETURN(FunctionDef fdef, FunctionDefFromGraph(g_, name, args_, named));
    SG_RETURN_IF_ERROR(lib->AddFunction(fdef));
    return name;
  }

 private:
  Graph g_;
  GradScope s_;
  GradOutputs args_;
};

NameAttrList Named(const std::string& name) {
  NameAttrList f;
  f.set_name(name);
  return f;
}

AttrValue FuncAttr(const std::string& name) {
  AttrValue v;
  v.mutable_func()->set_name(name);
  return v;
}

}  // namespace

absl::Status LoopGradient(GradScope& s, const LoopSpec& loop, const GradOutputs& dy,
                          GradOutputs* dx) {
  const int n = static_cast<int>(loop.inputs.size());
  dx->assign(n, NoGradient());
  const NameAttrList& cond_f = loop.cond;
  const NameAttrList& body_f = loop.body;
  FunctionLibrary* lib = s.graph()->mutable_flib();
  const FunctionDef* body = lib->Find(body_f.name());
  if (body == nullptr || lib->Find(cond_f.name()) == nullptr) {
    return errors::NotFound("function '", body == nullptr ? body_f.name() : cond_f.name(),
                            "' is not in the graph's library");
  }
  const std::vector<DataType>& types = loop.types;
  std::vector<bool> pass = PassedThrough(*body);
  pass.resize(n, false);
  for (int i = 0; i < n && i < static_cast<int>(loop.invariant.size()); ++i) {
    if (loop.invariant[i]) pass[i] = true;
  }
  SG_ASSIGN_OR_RETURN(std::vector<DataType> cond_types, FunctionResultTypes(*lib, cond_f));

  // The body's outputs that take a dy: the differentiable values (not resources, not integers).
  std::vector<bool> dy_wanted(n, false);
  for (int i = 0; i < n; ++i) dy_wanted[i] = types[i] != DT_RESOURCE && IsDifferentiable(types[i]);
  SG_ASSIGN_OR_RETURN(auto rtypes, ResourceGradientTypes(*lib, {body_f}, types, dy_wanted));
  std::vector<int> D, R, A, P;  // differentiable, resources, accumulated, passed through
  for (int i = 0; i < n; ++i) {
    if (types[i] == DT_RESOURCE) {
      if (!rtypes.count(i)) continue;
      if (!pass[i]) {
        return errors::Unimplemented("loop variable ", i, " is a resource whose values get a "
                                     "gradient, and the body does not return it unchanged");
      }
      R.push_back(i);
    } else if (IsDifferentiable(types[i])) {
      D.push_back(i);
    }
  }
  if (D.empty() && R.empty()) return s.status();
  for (int i = 0; i < n; ++i) {
    if (pass[i]) {
      P.push_back(i);
    } else {
      A.push_back(i);
    }
  }
  std::set<std::string> seen;
  SG_RETURN_IF_ERROR(CheckRecomputable(*lib, cond_f.name(), &seen));
  SG_RETURN_IF_ERROR(CheckRecomputable(*lib, body_f.name(), &seen));

  // The body's gradient function: (x_0..x_n-1, dy_d for d in D) -> dx for D and R.
  GradientFunctionOptions o;
  o.zeros_for_missing = true;
  o.wanted.assign(n, false);
  o.dy_wanted = dy_wanted;
  for (int d : D) o.wanted[d] = true;
  for (int r : R) o.wanted[r] = true;
  o.resource_value_types = rtypes;
  SG_ASSIGN_OR_RETURN(GradientFunction gf, AddGradientFunction(lib, body_f, o));
  SG_ASSIGN_OR_RETURN(std::vector<DataType> gf_types,
                      FunctionResultTypes(*lib, Named(gf.name)));
  const std::string base = body_f.name();
  const Output minus_one = s.ScalarI32(-1);
  SG_RETURN_IF_ERROR(s.status());

  // The forward loop: (x..., count, lists for A) -> (x..., count + 1, lists with x_a pushed).
  std::string fwd_cond, fwd_body;
  {
    FunctionBuilder c(*lib);
    GradOutputs xs;
    for (int i = 0; i < n; ++i) xs.push_back(c.Arg(types[i]));
    c.Arg(DT_INT32);
    for (size_t k = 0; k < A.size(); ++k) c.Arg(DT_VARIANT);
    GradOutputs r = c.Call(cond_f, xs, cond_types);
    SG_ASSIGN_OR_RETURN(fwd_cond, c.Finish(lib, base, "sg_fwd_cond", r));
  }
  {
    FunctionBuilder b(*lib);
    GradScope& bs = b.scope();
    GradOutputs xs, lists;
    for (int i = 0; i < n; ++i) xs.push_back(b.Arg(types[i]));
    Output count = b.Arg(DT_INT32);
    for (size_t k = 0; k < A.size(); ++k) lists.push_back(b.Arg(DT_VARIANT));
    GradOutputs outs = b.Call(body_f, xs, types);
    outs.push_back(bs.Add(count, bs.ScalarI32(1)));
    for (size_t k = 0; k < A.size(); ++k) {
      outs.push_back(bs.Op("TensorListPushBack", {lists[k], xs[A[k]]},
                           {{"element_dtype", TypeAttr(types[A[k]])}}));
    }
    SG_ASSIGN_OR_RETURN(fwd_body, b.Finish(lib, base, "sg_fwd_body", outs));
  }
  GradOutputs fwd_in;
  for (int i = 0; i < n; ++i) fwd_in.push_back(loop.inputs[i]);
  fwd_in.push_back(s.ScalarI32(0));
  for (int a : A) {
    fwd_in.push_back(s.Op("EmptyTensorList", {minus_one, minus_one},
                          {{"element_dtype", TypeAttr(types[a])}}));
  }
  GradAttrs loop_attrs = {{"parallel_iterations", IntAttr(loop.parallel_iterations)}};
  GradAttrs fwd_attrs = loop_attrs;
  fwd_attrs.push_back({"cond", FuncAttr(fwd_cond)});
  fwd_attrs.push_back({"body", FuncAttr(fwd_body)});
  GradOutputs fwd = s.OpN("While", {GradInput::List(fwd_in)}, fwd_attrs);
  SG_RETURN_IF_ERROR(s.status());

  // The backward loop: (count, dy for D, acc for R, lists for A, x_p for P).
  std::string bwd_cond, bwd_body;
  const size_t num_vars = 1 + D.size() + R.size() + A.size() + P.size();
  {
    FunctionBuilder c(*lib);
    Output count = c.Arg(DT_INT32);
    for (int d : D) c.Arg(types[d]);
    for (int r : R) c.Arg(rtypes[r]);
    for (size_t k = 0; k < A.size(); ++k) c.Arg(DT_VARIANT);
    for (int p : P) c.Arg(types[p]);
    Output more = c.scope().Op("Greater", {count, c.scope().ScalarI32(0)});
    SG_ASSIGN_OR_RETURN(bwd_cond, c.Finish(lib, base, "sg_bwd_cond", {more}));
  }
  {
    FunctionBuilder b(*lib);
    GradScope& bs = b.scope();
    Output count = b.Arg(DT_INT32);
    GradOutputs dys, accs, lists, xs(n, NoGradient());
    for (int d : D) dys.push_back(b.Arg(types[d]));
    for (int r : R) accs.push_back(b.Arg(rtypes[r]));
    for (size_t k = 0; k < A.size(); ++k) lists.push_back(b.Arg(DT_VARIANT));
    GradOutputs passed;
    for (int p : P) passed.push_back(xs[p] = b.Arg(types[p]));
    GradOutputs outs = {bs.Sub(count, bs.ScalarI32(1))};
    GradOutputs popped_lists;
    for (size_t k = 0; k < A.size(); ++k) {
      GradOutputs pop = bs.OpN("TensorListPopBack", {lists[k], bs.ScalarI32(-1)},
                               {{"element_dtype", TypeAttr(types[A[k]])}});
      SG_RETURN_IF_ERROR(bs.status());
      popped_lists.push_back(pop[0]);
      xs[A[k]] = pop[1];
    }
    GradOutputs args = xs;
    args.insert(args.end(), dys.begin(), dys.end());
    GradOutputs g = b.Call(Named(gf.name), args, gf_types);
    SG_RETURN_IF_ERROR(bs.status());
    std::map<int, Output> grad_of;
    for (size_t k = 0; k < gf.dx_of.size() && k < g.size(); ++k) grad_of[gf.dx_of[k]] = g[k];
    for (int d : D) outs.push_back(grad_of.at(d));
    for (size_t k = 0; k < R.size(); ++k) outs.push_back(bs.Add(accs[k], grad_of.at(R[k])));
    outs.insert(outs.end(), popped_lists.begin(), popped_lists.end());
    outs.insert(outs.end(), passed.begin(), passed.end());
    SG_ASSIGN_OR_RETURN(bwd_body, b.Finish(lib, base, "sg_bwd_body", outs));
  }
  GradOutputs bwd_in = {fwd[n]};
  for (int d : D) bwd_in.push_back(IsNoGradient(dy[d]) ? s.ZerosLike(fwd[d]) : dy[d]);
  for (int r : R) {
    Output value = s.Op("ReadVariableOp", {loop.inputs[r]}, {{"dtype", TypeAttr(rtypes[r])}});
    bwd_in.push_back(s.ZerosLike(value));
  }
  for (size_t k = 0; k < A.size(); ++k) bwd_in.push_back(fwd[n + 1 + k]);
  for (int p : P) bwd_in.push_back(loop.inputs[p]);
  GradAttrs bwd_attrs = loop_attrs;
  bwd_attrs.push_back({"cond", FuncAttr(bwd_cond)});
  bwd_attrs.push_back({"body", FuncAttr(bwd_body)});
  GradOutputs bwd = s.OpN("While", {GradInput::List(bwd_in)}, bwd_attrs);
  SG_RETURN_IF_ERROR(s.status());
  if (bwd.size() != num_vars) {
    return errors::Internal("the backward While has ", bwd.size(), " outputs, not ", num_vars);
  }
  for (size_t k = 0; k < D.size(); ++k) (*dx)[D[k]] = bwd[1 + k];
  for (size_t k = 0; k < R.size(); ++k) (*dx)[R[k]] = bwd[1 + D.size() + k];
  return s.status();
}

namespace {

absl::Status WhileGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  LoopSpec loop;
  for (int i = 0; i < op.num_inputs(); ++i) {
    loop.inputs.push_back(InputOf(op, i));
    loop.types.push_back(BaseType(op.input_type(i)));
  }
  absl::Status st = GetAttr(op.def().attr(), "cond", &loop.cond);
  if (st.ok()) st = GetAttr(op.def().attr(), "body", &loop.body);
  loop.parallel_iterations = IntAttrOf(op, "parallel_iterations", 10);
  if (st.ok()) st = LoopGradient(s, loop, dy, dx);
  if (st.ok()) return st;
  return errors::Annotate(st, absl::StrCat("gradient of '", op.name(), "' (", op.type_string(),
                                           "): "));
}

SG_REGISTER_GRADIENT("While", WhileGrad);
SG_REGISTER_GRADIENT("StatelessWhile", WhileGrad);

}  // namespace
}  // namespace sg
