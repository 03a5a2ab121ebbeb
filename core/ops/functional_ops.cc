// TensorFlow 2's functional control flow: While, If and Case (and their Stateless forms), whose
// bodies are functions of the graph's library, plus the two helpers their lowering uses, _SwitchN
// and ToBool. Sessions never run While/If/Case nodes as kernels: core/graph/lower_functional_ops.h
// rewrites them into v1 frames (Enter/Merge/Switch/NextIteration/Exit) and function calls, which
// are then inlined, as TensorFlow's lowering pass does.
#include "core/framework/op.h"
#include "core/framework/shape_inference.h"

namespace sg {
namespace {

// The outputs take the shapes of `output_shapes` when that attr lists one per output; otherwise
// `fallback` decides (the input shapes for a loop, unknown for a conditional).
absl::Status FunctionalShape(InferenceContext* c, bool outputs_like_inputs,
                             int first_data_input) {
  std::vector<PartialTensorShape> shapes;
  SG_RETURN_IF_ERROR(c->GetAttr("output_shapes", &shapes));
  if (static_cast<int>(shapes.size()) == c->num_outputs()) {
    for (int i = 0; i < c->num_outputs(); ++i) c->set_output(i, shapes[i]);
    return absl::OkStatus();
  }
  for (int i = 0; i < c->num_outputs(); ++i) {
    const int in = first_data_input + i;
    c->set_output(i, outputs_like_inputs && in < c->num_inputs() ? c->input(in)
                                                                 : PartialTensorShape());
  }
  return absl::OkStatus();
}

absl::Status WhileShape(InferenceContext* c) { return FunctionalShape(c, true, 0); }
absl::Status BranchShape(InferenceContext* c) { return FunctionalShape(c, false, 1); }

absl::Status SwitchNShape(InferenceContext* c) {
  for (int i = 0; i < c->num_outputs(); ++i) c->set_output(i, c->input(0));
  return absl::OkStatus();
}

}  // namespace

// While(input) loops `body` (a function from T to T) while `cond` (from T to a scalar; a
// non-bool result is converted as ToBool does) holds, and returns the last loop variables.
REGISTER_OP("While")
    .Input("input: T")
    .Output("output: T")
    .Attr("T: list(type) >= 0")
    .Attr("cond: func")
    .Attr("body: func")
    .Attr("output_shapes: list(shape) = []")
    .Attr("parallel_iterations: int = 10")
    .SetIsStateful()
    .SetShapeFn(WhileShape);
REGISTER_OP("StatelessWhile")
    .Input("input: T")
    .Output("output: T")
    .Attr("T: list(type) >= 0")
    .Attr("cond: func")
    .Attr("body: func")
    .Attr("output_shapes: list(shape) = []")
    .Attr("parallel_iterations: int = 10")
    .SetShapeFn(WhileShape);

// If(cond, input) calls then_branch(input) when cond (converted as ToBool does) is true, else
// else_branch(input).
REGISTER_OP("If")
    .Input("cond: Tcond")
    .Input("input: Tin")
    .Output("output: Tout")
    .Attr("Tcond: type")
    .Attr("Tin: list(type) >= 0")
    .Attr("Tout: list(type) >= 0")
    .Attr("then_branch: func")
    .Attr("else_branch: func")
    .Attr("output_shapes: list(shape) = []")
    .SetIsStateful()
    .SetShapeFn(BranchShape);
REGISTER_OP("StatelessIf")
    .Input("cond: Tcond")
    .Input("input: Tin")
    .Output("output: Tout")
    .Attr("Tcond: type")
    .Attr("Tin: list(type) >= 0")
    .Attr("Tout: list(type) >= 0")
    .Attr("then_branch: func")
    .Attr("else_branch: func")
    .Attr("output_shapes: list(shape) = []")
    .SetShapeFn(BranchShape);

// Case(branch_index, input) calls branches[branch_index](input); an index out of range calls the
// last branch.
REGISTER_OP("Case")
    .Input("branch_index: int32")
    .Input("input: Tin")
    .Output("output: Tout")
    .Attr("Tin: list(type) >= 0")
    .Attr("Tout: list(type) >= 0")
    .Attr("branches: list(func) >= 1")
    .Attr("output_shapes: list(shape) = []")
    .SetIsStateful()
    .SetShapeFn(BranchShape);
REGISTER_OP("StatelessCase")
    .Input("branch_index: int32")
    .Input("input: Tin")
    .Output("output: Tout")
    .Attr("Tin: list(type) >= 0")
    .Attr("Tout: list(type) >= 0")
    .Attr("branches: list(func) >= 1")
    .Attr("output_shapes: list(shape) = []")
    .SetShapeFn(BranchShape);

// _SwitchN(data, output_index) forwards data to outputs[output_index] (the last output when the
// index is out of range); the other outputs are dead.
REGISTER_OP("_SwitchN")
    .Input("data: T")
    .Input("output_index: int32")
    .Output("outputs: num_outs * T")
    .Attr("num_outs: int >= 1")
    .Attr("T: type")
    .SetShapeFn(SwitchNShape);

// ToBool(input): a scalar is true when non-zero (a string: non-empty); a tensor of any other rank
// is true when it has at least one element.
REGISTER_OP("ToBool")
    .Input("input: T")
    .Output("output: bool")
    .Attr("T: type")
    .SetShapeFn(shape_fns::Scalar);

}  // namespace sg
