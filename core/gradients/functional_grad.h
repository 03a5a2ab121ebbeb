// Gradient functions of library functions, as TensorFlow's SymbolicGradient defines them: the
// gradient function of f(x_0..x_n-1) -> (y_0..y_m-1) takes (x_0..x_n-1, dy_0..dy_m-1) and returns
// dx_i = sum over j of dy_j * d(y_j)/d(x_i). It is built by instantiating f's body as a graph and
// differentiating it with AddSymbolicGradients (core/graph/gradients.h), so it RECOMPUTES f's
// forward values from x (TensorFlow's C++ SymbolicGradient does the same; its python keeps the
// forward intermediates instead): only the nodes the dxs need are kept, so the body's side
// effects are not repeated unless a dx needs them.
//
// Users: the gradients of PartitionedCall / StatefulPartitionedCall / a call of a library function
// as an op type (functional_grad.cc), of If / StatelessIf / Case / StatelessCase
// (control_flow_grad.cc), of While / StatelessWhile (while_grad.cc), and the SymbolicGradient
// op, which InlineFunctionCalls (subgraph.h) replaces by a call of the function built here.
#ifndef SG_CORE_GRADIENTS_FUNCTIONAL_GRAD_H_
#define SG_CORE_GRADIENTS_FUNCTIONAL_GRAD_H_

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/framework/status.h"
#include "core/graph/function_library.h"
#include "core/graph/graph.h"
#include "core/graph/node_builder.h"
#include "core/proto/attr_value.pb.h"

namespace sg {

struct GradientFunctionOptions {
  // Which of f's inputs get an output (empty: all). Inputs not listed get none.
  std::vector<bool> wanted;
  // true: every wanted input gets an output, ZerosLike(x) when no gradient reaches it (as
  // SymbolicGradient and cond_v2's branch gradients); UNIMPLEMENTED when such an input is a
  // resource not in resource_value_types. false: only the wanted inputs a gradient reaches get one.
  bool zeros_for_missing = true;
  // For zeros_for_missing: the value dtype of resource inputs (input index -> dtype), whose
  // missing gradient is then ZerosLike(ReadVariableOp(x)) of that dtype.
  std::map<int, DataType> resource_value_types;
  // Which of f's outputs take a dy (empty: all). The others are not differentiated (as if no
  // gradient reached them), e.g. a While body's resource and integer outputs.
  std::vector<bool> dy_wanted;
};

struct GradientFunction {
  std::string name;          // the function added to the library
  std::vector<int> dx_of;    // output k of the function is the gradient of f's input dx_of[k]
};

// Adds to `lib` the gradient function of `f` (f.name() instantiated with f.attr(): "$T"
// placeholders in the body take those values), named "<f>_grad_<fingerprint>", unless a function
// of that name is already there; nested gradient functions it needs are added too.
// Its inputs are f's inputs then one dy per wanted f output (that output's type); output k is
// "dx_<dx_of[k]>", of the dtype of that input (a resource input's: the dtype of its values).
// Errors: NOT_FOUND for an unknown function, an op without a gradient in the body (naming it),
// UNIMPLEMENTED for list-typed args or a missing resource gradient with zeros_for_missing,
// INVALID_ARGUMENT for a malformed body, recursion deeper than 32, or `wanted` / `dy_wanted` of
// another length.
absl::StatusOr<GradientFunction> AddGradientFunction(FunctionLibrary* lib, const NameAttrList& f,
                                                     const GradientFunctionOptions& options);

// For the resource inputs of a node calling `fns` on its inputs `input_types` (a conditional's
// branches, a While's body; variables the functions read): the dtype of the gradient some
// function gives each (the variable's values), keyed by input index; inputs no gradient reaches
// are left out. Found by differentiating in a scratch copy of `lib`, which is not changed.
// UNIMPLEMENTED when two functions disagree; AddGradientFunction's errors.
// `dy_wanted` as GradientFunctionOptions' (empty: every output takes a dy).
absl::StatusOr<std::map<int, DataType>> ResourceGradientTypes(
    const FunctionLibrary& lib, const std::vector<NameAttrList>& fns,
    const std::vector<DataType>& input_types, const std::vector<bool>& dy_wanted = {});

// The result dtypes of `f` (its type attrs resolved from f.attr()). NOT_FOUND when f is not in
// `lib`, UNIMPLEMENTED for list results, INVALID_ARGUMENT when a dtype cannot be told.
absl::StatusOr<std::vector<DataType>> FunctionResultTypes(const FunctionLibrary& lib,
                                                          const NameAttrList& f);

// `stem` when `lib` has no function of that name, else the first of "<stem>_1", "<stem>_2"...
// that is free.
std::string UniqueFunctionName(const FunctionLibrary& lib, absl::string_view stem);

// The FunctionDef `name` of the nodes of `g` that `outs` need (output name, tensor); the
// Placeholders `args` are its inputs, in order, named after their nodes. INTERNAL for a node
// with an unconnected input.
absl::StatusOr<FunctionDef> FunctionDefFromGraph(
    const Graph& g, const std::string& name, const std::vector<NodeBuilder::Output>& args,
    const std::vector<std::pair<std::string, NodeBuilder::Output>>& outs);

// The gradient function a SymbolicGradient node `n` of `g` runs: AddGradientFunction of its "f"
// attr with every input wanted and zeros for the ones no gradient reaches, added to g's library.
// INVALID_ARGUMENT naming the node when its inputs are not f's inputs then one per f output or its
// outputs are not one per f input of that input's dtype; AddGradientFunction's errors annotated.
absl::StatusOr<const FunctionDef*> SymbolicGradientFunction(Graph* g, const Node& n);

}  // namespace sg

#endif  // SG_CORE_GRADIENTS_FUNCTIONAL_GRAD_H_
