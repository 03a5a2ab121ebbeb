// Gradients of TensorFlow 2's functional conditionals, as cond_v2's _IfGrad and _CaseGrad
// (tensorflow/python/ops/cond_v2.py): the gradient of If(cond, x...) is an If on the same
// predicate (a Case on the same branch index) whose branches are the gradient functions of the
// forward branches (functional_grad.h), called on (x..., dy...). Each branch's gradient function
// returns one value per differentiable input, zeros when that branch does not use it, so both
// sides agree on their outputs. Differences from cond_v2: the gradient branches recompute the
// forward branch from x instead of reading intermediates the forward If exports. A resource input
// (a variable a branch reads) gets its values' gradient, ZerosLike(ReadVariableOp) in a branch
// that does not read it. The predicate / branch index gets none.
// The v1 while loop and the functional While have no gradient here: the builder's error names
// the node (UNIMPLEMENTED for Enter/Merge/Switch/NextIteration/Exit, NOT_FOUND for While).
#include <map>

#include "core/framework/attr_value_util.h"
#include "core/gradients/functional_grad.h"
#include "core/gradients/grad_registry.h"

namespace sg {
namespace {

// For the resource inputs of a conditional (variables a branch reads): the dtype of the gradient
// some branch gives each (the variable's values), found by differentiating the branches in a
// scratch copy of the library. UNIMPLEMENTED when two branches disagree.
absl::StatusOr<std::map<int, DataType>> ResourceGradientTypes(
    GradScope& s, const Node& op, const std::vector<NameAttrList>& fns) {
  const int n = op.num_inputs() - 1;
  std::map<int, DataType> types;
  GradientFunctionOptions o;
  o.zeros_for_missing = false;
  o.wanted.assign(n, false);
  bool any = false;
  for (int i = 0; i < n; ++i) {
    o.wanted[i] = BaseType(op.input_type(1 + i)) == DT_RESOURCE;
    any |= o.wanted[i];
  }
  if (!any) return types;
  FunctionLibrary scratch = s.graph()->flib();
  for (const NameAttrList& f : fns) {
    auto gf = AddGradientFunction(&scratch, f, o);
    if (!gf.ok()) {
      return errors::Annotate(gf.status(), absl::StrCat("gradient of '", op.name(), "' (",
                                                        op.type_string(), "): "));
    }
    const FunctionDef* gdef = scratch.Find(gf->name);
    for (size_t k = 0; k < gf->dx_of.size(); ++k) {
      const DataType t = gdef->signature().output_arg(k).type();
      auto [it, added] = types.emplace(gf->dx_of[k], t);
      if (!added && it->second != t) {
        return errors::Unimplemented("gradient of '", op.name(), "' (", op.type_string(),
                                     "): its branches give resource input ", gf->dx_of[k],
                                     " gradients of ", DataTypeString(it->second), " and ",
                                     DataTypeString(t));
      }
    }
  }
  return types;
}

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
  SG_ASSIGN_OR_RETURN(o.resource_value_types, ResourceGradientTypes(s, op, fns));
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

SG_REGISTER_GRADIENT("If", IfGrad);
SG_REGISTER_GRADIENT("StatelessIf", IfGrad);
SG_REGISTER_GRADIENT("Case", CaseGrad);
SG_REGISTER_GRADIENT("StatelessCase", CaseGrad);

}  // namespace
}  // namespace sg
