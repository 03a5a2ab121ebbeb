// Gradients of TensorFlow 2's functional conditionals, as cond_v2's _IfGrad and _CaseGrad
// (tensorflow/python/ops/cond_v2.py): the gradient of If(cond, x...) is an If on the same
// predicate (a Case on the same branch index) whose branches are the gradient functions of the
// forward branches (functional_grad.h), called on (x..., dy...). Each branch's gradient function
// returns one value per differentiable input, zeros when that branch does not use it, so both
// sides agree on their outputs. Differences from cond_v2: the gradient branches recompute the
// forward branch from x instead of reading intermediates the forward If exports. A resource input
// (a variable a branch reads) gets its values' gradient, ZerosLike(ReadVariableOp) in a branch
// that does not read it. The predicate / branch index gets none.
// The functional While's gradient is in while_grad.cc.
#include <map>

#include "core/framework/attr_value_util.h"
#include "core/gradients/functional_grad.h"
#include "core/gradients/grad_registry.h"

namespace sg {
namespace {

// The gradient of a conditional with its branch selector at input 0 and its branches in `fns`;
// builds a node of the forward op's type with the gradient functions in `set_branches`.
absl::Status BranchesGrad(
    GradScope& s, const Node& op, const GradOutputs& dy, const std::vector<NameAttrList>& fns,
    const std::function<void(const std::vector<std::string>&, GradAttrs*)>& set_branches,
    GradOutputs* dx) {
  const int n = op.num_inputs() - 1;
  dx->assign(op.num_inputs(), NoGradient());
  GradientFunctionOptions o;
  o.zeros_for_missing = true;
  o.wanted.assign(n, false);
  std::vector<DataType> input_types;
  for (int i = 0; i < n; ++i) input_types.push_back(op.input_type(1 + i));
  auto rtypes = ResourceGradientTypes(s.graph()->flib(), fns, input_types);
  if (!rtypes.ok()) {
    return errors::Annotate(rtypes.status(), absl::StrCat("gradient of '", op.name(), "' (",
                                                          op.type_string(), "): "));
  }
  o.resource_value_types = *std::move(rtypes);
  bool any = false;
  std::vector<DataType> tout;
  std::vector<PartialTensorShape> shapes;
  for (int i = 0; i < n; ++i) {
    const DataType t = BaseType(op.input_type(1 + i));
    auto rt = o.resource_value_types.find(i);
    o.wanted[i] = t == DT_RESOURCE ? rt != o.resource_value_types.end() : IsDifferentiable(t);
    if (!o.wanted[i]) continue;
    any = true;
    tout.push_back(t == DT_RESOURCE ? rt->second : t);
    shapes.push_back(t == DT_RESOURCE ? PartialTensorShape() : StaticShapeOf(InputOf(op, 1 + i)));
  }
  if (!any) return s.status();
  std::vector<std::string> names;
  for (const NameAttrList& f : fns) {
    auto gf = AddGradientFunction(s.graph()->mutable_flib(), f, o);
    if (!gf.ok()) {
      return errors::Annotate(gf.status(), absl::StrCat("gradient of '", op.name(), "' (",
                                                        op.type_string(), "): "));
    }
    names.push_back(gf->name);
  }
  GradOutputs args;
  for (int i = 0; i < n; ++i) args.push_back(InputOf(op, 1 + i));
  args.insert(args.end(), dy.begin(), dy.end());
  AttrValue tout_attr, shapes_attr;
  SetAttrValue(absl::Span<const DataType>(tout), &tout_attr);
  for (const PartialTensorShape& sh : shapes) sh.AsProto(shapes_attr.mutable_list()->add_shape());
  GradAttrs attrs = {{"Tout", tout_attr}, {"output_shapes", shapes_attr}};
  set_branches(names, &attrs);
  GradOutputs outs = s.OpN(op.type_string(), {InputOf(op, 0), GradInput::List(args)}, attrs);
  SG_RETURN_IF_ERROR(s.status());
  int k = 0;
  for (int i = 0; i < n; ++i) {
    if (o.wanted[i]) (*dx)[1 + i] = outs[k++];
  }
  return s.status();
}

absl::Status IfGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  NameAttrList then_f, else_f;
  SG_RETURN_IF_ERROR(GetAttr(op.def().attr(), "then_branch", &then_f));
  SG_RETURN_IF_ERROR(GetAttr(op.def().attr(), "else_branch", &else_f));
  return BranchesGrad(
      s, op, dy, {then_f, else_f},
      [](const std::vector<std::string>& names, GradAttrs* attrs) {
        AttrValue t, e;
        t.mutable_func()->set_name(names[0]);
        e.mutable_func()->set_name(names[1]);
        attrs->emplace_back("then_branch", t);
        attrs->emplace_back("else_branch", e);
      },
      dx);
}

absl::Status CaseGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  const AttrValue* branches;
  SG_RETURN_IF_ERROR(GetAttr(op.def().attr(), "branches", &branches));
  std::vector<NameAttrList> fns(branches->list().func().begin(), branches->list().func().end());
  return BranchesGrad(
      s, op, dy, fns,
      [](const std::vector<std::string>& names, GradAttrs* attrs) {
        AttrValue b;
        for (const std::string& name : names) b.mutable_list()->add_func()->set_name(name);
        attrs->emplace_back("branches", b);
      },
      dx);
}

// v1 conditionals (tf.compat.v1.cond without control flow v2), as TensorFlow's python _SwitchGrad
// and _MergeGrad outside a loop. Switch(x, p) -> (x if !p, x if p): dx = Merge(dy_false,
// dy_true), which takes the one that is not dead (the builder gives the other ZerosLike of the
// dead output). Merge(x_0..x_n-1) -> (x_k, k): dx_i = Switch(dy, k == i):1, dead for the inputs
// that were not taken, so the gradient runs only through the branch that ran. (v1 loops are
// differentiated as a whole by the builder.)
absl::Status SwitchGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  *dx = {s.Op("Merge", {GradInput::List({dy[0], dy[1]})}), NoGradient()};
  return s.status();
}

absl::Status MergeGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->clear();
  for (int i = 0; i < op.num_inputs(); ++i) {
    GradOutput taken = s.Op("Equal", {OutputOf(op, 1), s.ScalarI32(i)});
    dx->push_back(s.Op("Switch", {dy[0], taken}, {}, 1));
  }
  return s.status();
}

SG_REGISTER_GRADIENT("Switch", SwitchGrad);
SG_REGISTER_GRADIENT("Merge", MergeGrad);
SG_REGISTER_GRADIENT("If", IfGrad);
SG_REGISTER_GRADIENT("StatelessIf", IfGrad);
SG_REGISTER_GRADIENT("Case", CaseGrad);
SG_REGISTER_GRADIENT("StatelessCase", CaseGrad);

}  // namespace
}  // namespace sg
