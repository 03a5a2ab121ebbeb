// The gradient of a while loop given as a cond and a body function, TensorFlow 2's functional
// form (While / StatelessWhile; v1 loops made functional by core/graph/functionalize_loop.h). How
// it is computed, and what it cannot do, is at the top of while_grad.cc.
#ifndef SG_CORE_GRADIENTS_WHILE_GRAD_H_
#define SG_CORE_GRADIENTS_WHILE_GRAD_H_

#include <vector>

#include "core/gradients/grad_registry.h"
#include "core/proto/attr_value.pb.h"

namespace sg {

struct LoopSpec {
  GradOutputs inputs;             // the initial values of the loop variables
  std::vector<DataType> types;    // their dtypes (base types)
  NameAttrList cond, body;        // cond(vars) -> a scalar; body(vars) -> vars, in g's library
  std::vector<bool> invariant;    // vars known to stay unchanged (may be shorter than inputs)
  int64_t parallel_iterations = 10;
};

// Adds to s's graph (and its library) the nodes computing the gradient of each loop variable's
// initial value from `dy`, the gradients of the loop's results (one per variable; NoGradient()
// where none reaches it). dx gets one entry per variable: NoGradient() for those that carry none
// (integers...), the gradient of the values for a variable (resource) the body reads.
// Errors: NOT_FOUND for a function not in the library or an op without a gradient in the body;
// UNIMPLEMENTED when the cond or body (or a function they call) has a stateful op other than a
// variable read, or a resource variable whose values get a gradient is not passed on unchanged;
// the errors of AddGradientFunction (functional_grad.h). The caller names the loop in them.
// Not thread-safe on one graph (as AddSymbolicGradients, whose caller holds the graph's lock).
absl::Status LoopGradient(GradScope& s, const LoopSpec& loop, const GradOutputs& dy,
                          GradOutputs* dx);

}  // namespace sg

#endif  // SG_CORE_GRADIENTS_WHILE_GRAD_H_
