// SymbolicGradient (TensorFlow's functional_ops.cc): the gradient of function `f`. Its inputs are
// f's inputs then one dy per f output; its outputs are the dx of each of f's inputs (Tout = Tin's
// first entries). Sessions never run it as a kernel: InlineFunctionCalls (subgraph.h) replaces it
// by the body of f's gradient function (core/gradients/functional_grad.h), as it inlines every
// other function call.
#include "core/framework/op.h"
#include "core/framework/shape_inference.h"

namespace sg {
namespace {

// Output i has input i's shape (dx_i is shaped as x_i).
absl::Status SymbolicGradientShape(InferenceContext* c) {
  if (c->num_inputs() < c->num_outputs()) {
    return errors::InvalidArgument("SymbolicGradient has ", c->num_outputs(), " outputs but only ",
                                   c->num_inputs(), " inputs");
  }
  for (int i = 0; i < c->num_outputs(); ++i) c->set_output(i, c->input(i));
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("SymbolicGradient")
    .Input("input: Tin")
    .Output("output: Tout")
    .Attr("Tin: list(type) >= 1")
    .Attr("Tout: list(type) >= 1")
    .Attr("f: func")
    .SetShapeFn(SymbolicGradientShape);

}  // namespace sg
