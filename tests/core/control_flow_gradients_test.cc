// Gradients through function calls (PartitionedCall, StatefulPartitionedCall, a library function
// as an op type, SymbolicGradient) and functional conditionals (If, StatelessIf, Case,
// StatelessCase) and loops (While, StatelessWhile): core/gradients/functional_grad.{h,cc},
// control_flow_grad.cc and while_grad.cc, checked against
// central finite differences in double on graphs written here, plus the errors that name the op
// for what has no gradient (an op in a body, a malformed v1 loop, a loop with a stateful body).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "absl/strings/match.h"
#include "core/gradients/functional_grad.h"
#include "core/gradients/grad_registry.h"
#include "core/graph/gradients.h"
#include "core/graph/graph_constructor.h"
#include "core/runtime/session.h"
#include "tests/core/no_gradient_op.h"
#include "google/protobuf/text_format.h"

namespace sg {
namespace {

using Out = NodeBuilder::Output;

// Double-valued functions:
//   mul_sin(a, b) -> (a*b + sin(a), exp(b))
//   scale(x, n: int32) -> x * double(n)                 (no gradient for n)
//   sq(x, y) -> x*x                                     (does not use y)
//   mul2(x, y) -> x*y
//   sin_add(x, y) -> sin(x) + y
//   outer(x, w) -> p + 2q where (p, q) = mul_sin(x, w)  (a call of mul_sin as an op type)
//   with_if(c: bool, x, y) -> If(c, x, y; sq, mul2)     (an If inside a function)
//   via_pcall(x, y) -> PartitionedCall(sin_add)(x, y) + x
// (The bodies combine a nested call's outputs with AddN, whose gradient needs no shapes: a call's
// outputs have no static shape, and broadcasting gradients of unknown shapes need
// BroadcastGradientArgs, which this branch does not register yet.)
//   pass_first(x, y) -> (x, x*y)                        (returns an argument as it is)
//   atan_of(x) -> atan(x)
//   no_grad_of(x) -> SgTestNoGradient(x)                (no gradient: no_gradient_op.h)
constexpr const char* kLibrary = R"pb(
  library {
    function {
      signature { name: "mul_sin" input_arg { name: "a" type: DT_DOUBLE }
                  input_arg { name: "b" type: DT_DOUBLE }
                  output_arg { name: "p" type: DT_DOUBLE } output_arg { name: "q" type: DT_DOUBLE } }
      node_def { name: "m" op: "Mul" input: "a" input: "b" attr { key: "T" value { type: DT_DOUBLE } } }
      node_def { name: "s" op: "Sin" input: "a" attr { key: "T" value { type: DT_DOUBLE } } }
      node_def { name: "sum" op: "AddV2" input: "m:z:0" input: "s:y:0"
                 attr { key: "T" value { type: DT_DOUBLE } } }
      node_def { name: "e" op: "Exp" input: "b" attr { key: "T" value { type: DT_DOUBLE } } }
      ret { key: "p" value: "sum:z:0" }
      ret { key: "q" value: "e:y:0" }
    }
    function {
      signature { name: "scale" input_arg { name: "x" type: DT_DOUBLE }
                  input_arg { name: "n" type: DT_INT32 } output_arg { name: "y" type: DT_DOUBLE } }
      node_def { name: "c" op: "Cast" input: "n" attr { key: "SrcT" value { type: DT_INT32 } }
                 attr { key: "DstT" value { type: DT_DOUBLE } } }
      node_def { name: "m" op: "Mul" input: "x" input: "c:y:0" attr { key: "T" value { type: DT_DOUBLE } } }
      ret { key: "y" value: "m:z:0" }
    }
    function {
      signature { name: "sq" input_arg { name: "x" type: DT_DOUBLE } input_arg { name: "y" type: DT_DOUBLE }
                  output_arg { name: "z" type: DT_DOUBLE } }
      node_def { name: "s" op: "Square" input: "x" attr { key: "T" value { type: DT_DOUBLE } } }
      ret { key: "z" value: "s:y:0" }
    }
    function {
      signature { name: "mul2" input_arg { name: "x" type: DT_DOUBLE } input_arg { name: "y" type: DT_DOUBLE }
                  output_arg { name: "z" type: DT_DOUBLE } }
      node_def { name: "m" op: "Mul" input: "x" input: "y" attr { key: "T" value { type: DT_DOUBLE } } }
      ret { key: "z" value: "m:z:0" }
    }
    function {
      signature { name: "sin_add" input_arg { name: "x" type: DT_DOUBLE } input_arg { name: "y" type: DT_DOUBLE }
                  output_arg { name: "z" type: DT_DOUBLE } }
      node_def { name: "s" op: "Sin" input: "x" attr { key: "T" value { type: DT_DOUBLE } } }
      node_def { name: "a" op: "AddV2" input: "s:y:0" input: "y" attr { key: "T" value { type: DT_DOUBLE } } }
      ret { key: "z" value: "a:z:0" }
    }
    function {
      signature { name: "outer" input_arg { name: "x" type: DT_DOUBLE } input_arg { name: "w" type: DT_DOUBLE }
                  output_arg { name: "y" type: DT_DOUBLE } }
      node_def { name: "call" op: "mul_sin" input: "x" input: "w" }
      node_def { name: "m" op: "AddN" input: "call:p:0" input: "call:q:0" input: "call:q:0"
                 attr { key: "T" value { type: DT_DOUBLE } } attr { key: "N" value { i: 3 } } }
      ret { key: "y" value: "m:sum:0" }
    }
    function {
      signature { name: "with_if" input_arg { name: "c" type: DT_BOOL }
                  input_arg { name: "x" type: DT_DOUBLE } input_arg { name: "y" type: DT_DOUBLE }
                  output_arg { name: "z" type: DT_DOUBLE } }
      node_def { name: "cond" op: "StatelessIf" input: "c" input: "x" input: "y"
                 attr { key: "Tcond" value { type: DT_BOOL } }
                 attr { key: "Tin" value { list { type: DT_DOUBLE type: DT_DOUBLE } } }
                 attr { key: "Tout" value { list { type: DT_DOUBLE } } }
                 attr { key: "then_branch" value { func { name: "sq" } } }
                 attr { key: "else_branch" value { func { name: "mul2" } } } }
      ret { key: "z" value: "cond:output:0" }
    }
    function {
      signature { name: "via_pcall" input_arg { name: "x" type: DT_DOUBLE } input_arg { name: "y" type: DT_DOUBLE }
                  output_arg { name: "z" type: DT_DOUBLE } }
      node_def { name: "call" op: "PartitionedCall" input: "x" input: "y"
                 attr { key: "Tin" value { list { type: DT_DOUBLE type: DT_DOUBLE } } }
                 attr { key: "Tout" value { list { type: DT_DOUBLE } } }
                 attr { key: "f" value { func { name: "sin_add" } } } }
      node_def { name: "m" op: "AddN" input: "call:output:0" input: "x"
                 attr { key: "T" value { type: DT_DOUBLE } } attr { key: "N" value { i: 2 } } }
      ret { key: "z" value: "m:sum:0" }
    }
    function {
      signature { name: "pass_first" input_arg { name: "x" type: DT_DOUBLE } input_arg { name: "y" type: DT_DOUBLE }
                  output_arg { name: "same" type: DT_DOUBLE } output_arg { name: "prod" type: DT_DOUBLE } }
      node_def { name: "m" op: "Mul" input: "x" input: "y" attr { key: "T" value { type: DT_DOUBLE } } }
      ret { key: "same" value: "x" }
      ret { key: "prod" value: "m:z:0" }
    }
    function {
      signature { name: "atan_of" input_arg { name: "x" type: DT_DOUBLE }
                  output_arg { name: "y" type: DT_DOUBLE } }
      node_def { name: "t" op: "Atan" input: "x" attr { key: "T" value { type: DT_DOUBLE } } }
      ret { key: "y" value: "t:y:0" }
    }
    function {
      signature { name: "loop_cond" input_arg { name: "i" type: DT_INT32 }
                  input_arg { name: "x" type: DT_DOUBLE } input_arg { name: "w" type: DT_DOUBLE }
                  output_arg { name: "more" type: DT_BOOL } }
      node_def { name: "n" op: "Const" attr { key: "dtype" value { type: DT_INT32 } }
                 attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape {} int_val: 3 } } } }
      node_def { name: "l" op: "Less" input: "i" input: "n:output:0" attr { key: "T" value { type: DT_INT32 } } }
      ret { key: "more" value: "l:z:0" }
    }
    function {
      signature { name: "loop_body" input_arg { name: "i" type: DT_INT32 }
                  input_arg { name: "x" type: DT_DOUBLE } input_arg { name: "w" type: DT_DOUBLE }
                  output_arg { name: "i1" type: DT_INT32 } output_arg { name: "z" type: DT_DOUBLE }
                  output_arg { name: "w1" type: DT_DOUBLE } }
      node_def { name: "one" op: "Const" attr { key: "dtype" value { type: DT_INT32 } }
                 attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape {} int_val: 1 } } } }
      node_def { name: "next" op: "AddV2" input: "i" input: "one:output:0" attr { key: "T" value { type: DT_INT32 } } }
      node_def { name: "c" op: "Cast" input: "next:z:0" attr { key: "SrcT" value { type: DT_INT32 } }
                 attr { key: "DstT" value { type: DT_DOUBLE } } }
      node_def { name: "s" op: "Sin" input: "x" attr { key: "T" value { type: DT_DOUBLE } } }
      node_def { name: "t" op: "Mul" input: "s:y:0" input: "c:y:0" attr { key: "T" value { type: DT_DOUBLE } } }
      node_def { name: "m" op: "Mul" input: "x" input: "w" attr { key: "T" value { type: DT_DOUBLE } } }
      node_def { name: "z" op: "AddV2" input: "m:z:0" input: "t:z:0" attr { key: "T" value { type: DT_DOUBLE } } }
      node_def { name: "same" op: "Identity" input: "w" attr { key: "T" value { type: DT_DOUBLE } } }
      ret { key: "i1" value: "next:z:0" }
      ret { key: "z" value: "z:z:0" }
      ret { key: "w1" value: "same:output:0" }
    }
    function {
      signature { name: "sum_below" input_arg { name: "i" type: DT_INT32 }
                  input_arg { name: "x" type: DT_DOUBLE } input_arg { name: "w" type: DT_DOUBLE }
                  output_arg { name: "more" type: DT_BOOL } }
      node_def { name: "axes" op: "Const" attr { key: "dtype" value { type: DT_INT32 } }
                 attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape { dim { size: 2 } }
                                                      int_val: 0 int_val: 1 } } } }
      node_def { name: "sum" op: "Sum" input: "x" input: "axes:output:0"
                 attr { key: "T" value { type: DT_DOUBLE } } attr { key: "Tidx" value { type: DT_INT32 } } }
      node_def { name: "limit" op: "Const" attr { key: "dtype" value { type: DT_DOUBLE } }
                 attr { key: "value" value { tensor { dtype: DT_DOUBLE tensor_shape {} double_val: 8 } } } }
      node_def { name: "l" op: "Less" input: "sum:output:0" input: "limit:output:0"
                 attr { key: "T" value { type: DT_DOUBLE } } }
      ret { key: "more" value: "l:z:0" }
    }
    function {
      signature { name: "noisy" input_arg { name: "x" type: DT_DOUBLE }
                  output_arg { name: "y" type: DT_DOUBLE } }
      node_def { name: "shape" op: "Const" attr { key: "dtype" value { type: DT_INT32 } }
                 attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape { dim { size: 2 } }
                                                      int_val: 2 int_val: 3 } } } }
      node_def { name: "r" op: "RandomUniform" input: "shape:output:0"
                 attr { key: "T" value { type: DT_INT32 } } attr { key: "dtype" value { type: DT_DOUBLE } } }
      node_def { name: "y" op: "AddV2" input: "x" input: "r:output:0" attr { key: "T" value { type: DT_DOUBLE } } }
      ret { key: "y" value: "y:z:0" }
    }
    function {
      signature { name: "no_grad_of" input_arg { name: "x" type: DT_DOUBLE }
                  output_arg { name: "y" type: DT_DOUBLE } }
      node_def { name: "t" op: "SgTestNoGradient" input: "x" attr { key: "T" value { type: DT_DOUBLE } } }
      ret { key: "y" value: "t:y:0" }
    }
  }
  node { name: "a" op: "Placeholder" attr { key: "dtype" value { type: DT_DOUBLE } }
         attr { key: "shape" value { shape { dim { size: 2 } dim { size: 3 } } } } }
  node { name: "b" op: "Placeholder" attr { key: "dtype" value { type: DT_DOUBLE } }
         attr { key: "shape" value { shape { dim { size: 2 } dim { size: 3 } } } } }
  node { name: "yes" op: "Const" attr { key: "dtype" value { type: DT_BOOL } }
         attr { key: "value" value { tensor { dtype: DT_BOOL tensor_shape {} bool_val: true } } } }
  node { name: "no" op: "Const" attr { key: "dtype" value { type: DT_BOOL } }
         attr { key: "value" value { tensor { dtype: DT_BOOL tensor_shape {} bool_val: false } } } }
  node { name: "shape23" op: "Const" attr { key: "dtype" value { type: DT_INT32 } }
         attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape { dim { size: 2 } }
                                              int_val: 2 int_val: 3 } } } }
  node { name: "three" op: "Const" attr { key: "dtype" value { type: DT_INT32 } }
         attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape {} int_val: 3 } } } }
  node { name: "zero" op: "Const" attr { key: "dtype" value { type: DT_INT32 } }
         attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape {} int_val: 0 } } } }
)pb";

// A call node "<name>" of `op` on `inputs` (text), with Tin/Tout/f when `f` is given.
std::string Call(const std::string& name, const std::string& op, const std::string& inputs,
                 const std::string& extra) {
  return "node { name: \"" + name + "\" op: \"" + op + "\" " + inputs + " " + extra + " }\n";
}
const char* kTwoDoubles =
    "attr { key: 'Tin' value { list { type: DT_DOUBLE type: DT_DOUBLE } } } ";
const char* kOneDoubleOut = "attr { key: 'Tout' value { list { type: DT_DOUBLE } } } ";
std::string Func(const std::string& attr, const std::string& f) {
  return "attr { key: '" + attr + "' value { func { name: '" + f + "' } } } ";
}

// "<name>" = Reshape(src, [2, 3]): gives a call's output (of unknown static shape) its shape, so
// that broadcasting gradients after it reduce with constants.
std::string Shaped(const std::string& name, const std::string& src) {
  return "node { name: '" + name + "' op: 'Reshape' input: '" + src +
         "' input: 'shape23' attr { key: 'T' value { type: DT_DOUBLE } } }\n";
}

struct FdCase {
  std::string name;
  std::string nodes;              // added to kLibrary; fetch "y:0", differentiate w.r.t. xs
  std::vector<std::string> xs = {"a", "b"};
};

std::vector<FdCase> FdCases() {
  const std::string ab = "input: 'a' input: 'b'";
  const std::string ms_out = "attr { key: 'Tout' value { list { type: DT_DOUBLE type: DT_DOUBLE } } } ";
  const std::string add_outs =
      Shaped("r0", "call:0") + Shaped("r1", "call:1") +
      "node { name: 'y' op: 'AddV2' input: 'r0' input: 'r1' "
      "attr { key: 'T' value { type: DT_DOUBLE } } }\n";
  const std::string if_attrs = std::string(kTwoDoubles) + kOneDoubleOut +
                               "attr { key: 'Tcond' value { type: DT_BOOL } } ";
  const std::string y_is_sin = "node { name: 'y' op: 'Sin' input: 'c:0' attr { key: 'T' value { type: DT_DOUBLE } } }\n";
  auto if_case = [&](const char* name, const char* op, const char* pred, const char* then_f,
                     const char* else_f) {
    return FdCase{name, Call("c", op, std::string("input: '") + pred + "' " + ab,
                             if_attrs + Func("then_branch", then_f) + Func("else_branch", else_f)) +
                            y_is_sin};
  };
  auto case_case = [&](const char* name, const char* op, int index) {
    std::string idx = "node { name: 'i' op: 'Const' attr { key: 'dtype' value { type: DT_INT32 } } "
                      "attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape {} int_val: " +
                      std::to_string(index) + " } } } }\n";
    return FdCase{name, idx + Call("c", op, "input: 'i' " + ab,
                                   std::string(kTwoDoubles) + kOneDoubleOut +
                                       "attr { key: 'branches' value { list { func { name: 'sq' } "
                                       "func { name: 'mul2' } func { name: 'sin_add' } } } } ") +
                                y_is_sin};
  };
  // While(i0, a, b) of loop_body (3 - i0 iterations under loop_cond), then y of its outputs.
  auto while_case = [&](const char* name, const char* op, const char* i0, const char* cond,
                        const std::string& y) {
    std::string nodes =
        Call("w", op, std::string("input: '") + i0 + "' " + ab,
             "attr { key: 'T' value { list { type: DT_INT32 type: DT_DOUBLE type: DT_DOUBLE } } } " +
                 Func("cond", cond) + Func("body", "loop_body")) +
        Shaped("x", "w:1") + Shaped("wout", "w:2");
    if (y == "y = sin(x)") {
      return FdCase{name, nodes + "node { name: 'y' op: 'Sin' input: 'x' "
                                  "attr { key: 'T' value { type: DT_DOUBLE } } }\n"};
    }
    return FdCase{name, nodes + "node { name: 'y' op: 'Mul' input: 'x' input: 'wout' "
                                "attr { key: 'T' value { type: DT_DOUBLE } } }\n"};
  };
  return {
      {"PartitionedCall", Call("call", "PartitionedCall", ab, kTwoDoubles + ms_out + Func("f", "mul_sin")) + add_outs},
      {"StatefulPartitionedCall",
       Call("call", "StatefulPartitionedCall", ab, kTwoDoubles + ms_out + Func("f", "mul_sin")) + add_outs},
      {"FunctionAsOpType", Call("call", "mul_sin", ab, "") + add_outs},
      {"OnlyOneOutputUsed",
       Call("call", "mul_sin", ab, "") +
           "node { name: 'y' op: 'Square' input: 'call:1' attr { key: 'T' value { type: DT_DOUBLE } } }\n"},
      {"IntegerArgument",
       Call("call", "scale", "input: 'a' input: 'three'", "") + Shaped("r0", "call:0") +
           "node { name: 'y' op: 'Mul' input: 'r0' input: 'b' attr { key: 'T' value { type: DT_DOUBLE } } }\n"},
      {"ReturnsAnArgument",
       Call("call", "pass_first", ab, "") + Shaped("r0", "call:0") + Shaped("r1", "call:1") +
           "node { name: 'y' op: 'Mul' input: 'r0' input: 'r1' attr { key: 'T' value { type: DT_DOUBLE } } }\n"},
      {"NestedCallAsOpType", Call("y", "outer", ab, "")},
      {"NestedPartitionedCall", Call("y", "via_pcall", ab, "")},
      {"CalledTwice",
       Call("call", "mul2", ab, "") + Call("call2", "mul2", "input: 'call:0' input: 'a'", "") +
           "node { name: 'y' op: 'Sin' input: 'call2:0' attr { key: 'T' value { type: DT_DOUBLE } } }\n"},
      if_case("IfTrue", "If", "yes", "mul_sin_p", "mul2"),
      if_case("IfFalse", "If", "no", "sin_add", "mul2"),
      if_case("StatelessIfThenIgnoresAnInput", "StatelessIf", "yes", "sq", "mul2"),
      if_case("StatelessIfElse", "StatelessIf", "no", "sq", "sin_add"),
      {"IfInsideAFunction", Call("y", "with_if", "input: 'yes' " + ab, "") +
                                Call("y2", "with_if", "input: 'no' " + ab, "") +
                                Shaped("r0", "y:0") + Shaped("r1", "y2:0") +
                                "node { name: 'y3' op: 'Mul' input: 'r0' input: 'r1' "
                                "attr { key: 'T' value { type: DT_DOUBLE } } }\n"},
      while_case("While", "While", "zero", "loop_cond", "y = sin(x)"),
      while_case("StatelessWhileBothOutputs", "StatelessWhile", "zero", "loop_cond", "y = x * w"),
      while_case("WhileNoIteration", "While", "three", "loop_cond", "y = x * w"),
      while_case("WhileUntilTheSumIsLarge", "While", "zero", "sum_below", "y = sin(x)"),
      case_case("Case0", "Case", 0),
      case_case("Case1", "Case", 1),
      case_case("StatelessCaseOutOfRangeTakesTheLast", "StatelessCase", 7),
  };
}

std::unique_ptr<Graph> Load(const std::string& text, absl::Status* status) {
  GraphDef def;
  if (!google::protobuf::TextFormat::ParseFromString(text, &def)) {
    *status = errors::InvalidArgument("bad text");
    return nullptr;
  }
  // Every double argument is declared [2, 3] and the others scalars, as TensorFlow records arg
  // shapes: the gradients then reduce broadcasts with constants (this branch has no
  // BroadcastGradientArgs op yet).
  for (FunctionDef& f : *def.mutable_library()->mutable_function()) {
    for (int i = 0; i < f.signature().input_arg_size(); ++i) {
      const bool is_double = f.signature().input_arg(i).type() == DT_DOUBLE;
      AttrValue shapes;
      PartialTensorShape(is_double ? std::vector<int64_t>{2, 3} : std::vector<int64_t>{})
          .AsProto(shapes.mutable_list()->add_shape());
      (*(*f.mutable_arg_attr())[i].mutable_attr())["_output_shapes"] = shapes;
    }
  }
  auto g = std::make_unique<Graph>();
  *status = g->mutable_flib()->AddLibrary(def.library());
  if (status->ok()) *status = ImportGraphDef(def, ImportOptions(), g.get());
  return g;
}

Tensor Random(std::mt19937* rng) {
  Tensor t(DT_DOUBLE, TensorShape({2, 3}));
  std::uniform_real_distribution<double> u(0.2, 1.2);
  for (int64_t i = 0; i < t.NumElements(); ++i) t.flat<double>()(i) = u(*rng);
  return t;
}

class CallAndCondGradient : public ::testing::TestWithParam<FdCase> {};

TEST_P(CallAndCondGradient, MatchesCentralFiniteDifferences) {
  const FdCase& c = GetParam();
  std::string nodes = c.nodes;
  // "mul_sin_p": the first output of mul_sin as a one-output function (for If's branches).
  std::string lib = kLibrary;
  lib.insert(lib.find("  library {") + 12, R"pb(
    function {
      signature { name: "mul_sin_p" input_arg { name: "x" type: DT_DOUBLE }
                  input_arg { name: "y" type: DT_DOUBLE } output_arg { name: "z" type: DT_DOUBLE } }
      node_def { name: "call" op: "mul_sin" input: "x" input: "y" }
      ret { key: "z" value: "call:p:0" }
    }
  )pb");
  absl::Status st;
  auto g = Load(lib + nodes, &st);
  ASSERT_TRUE(st.ok()) << st;
  Node* ynode = g->FindNode(g->FindNode("y3") ? "y3" : "y");
  ASSERT_NE(ynode, nullptr);
  std::vector<Out> xs;
  for (const std::string& x : c.xs) xs.push_back({g->FindNode(x), 0});
  std::vector<Out> dxs;
  st = AddSymbolicGradients(g.get(), {{ynode, 0}}, xs, {}, "", &dxs);
  ASSERT_TRUE(st.ok()) << st;
  GraphDef def;
  g->ToGraphDef(&def);
  std::unique_ptr<Session> sess;
  ASSERT_TRUE(NewSession(SessionOptions(), &sess).ok());
  st = sess->Create(def);
  ASSERT_TRUE(st.ok()) << st;
  std::mt19937 rng(11);
  std::vector<Tensor> values;
  for (size_t i = 0; i < xs.size(); ++i) values.push_back(Random(&rng));
  auto feeds = [&](const std::vector<Tensor>& v) {
    std::vector<std::pair<std::string, Tensor>> f;
    for (size_t i = 0; i < xs.size(); ++i) f.push_back({c.xs[i] + ":0", v[i]});
    return f;
  };
  std::vector<std::string> fetch;
  for (const Out& d : dxs) {
    ASSERT_NE(d.node, nullptr) << "no gradient returned";
    fetch.push_back(d.node->name() + ":" + std::to_string(d.index));
  }
  std::vector<Tensor> symbolic;
  st = sess->Run(feeds(values), fetch, {}, &symbolic);
  ASSERT_TRUE(st.ok()) << st;
  auto f = [&](const std::vector<Tensor>& v) {
    std::vector<Tensor> out;
    absl::Status s = sess->Run(feeds(v), {ynode->name() + ":0"}, {}, &out);
    EXPECT_TRUE(s.ok()) << s;
    double sum = 0;
    for (int64_t i = 0; s.ok() && i < out[0].NumElements(); ++i) sum += out[0].flat<double>()(i);
    return sum;
  };
  const double eps = 1e-6;
  for (size_t i = 0; i < xs.size(); ++i) {
    ASSERT_EQ(symbolic[i].NumElements(), values[i].NumElements()) << fetch[i];
    for (int64_t j = 0; j < values[i].NumElements(); ++j) {
      std::vector<Tensor> plus = values, minus = values;
      plus[i] = Tensor(DT_DOUBLE, values[i].shape());
      minus[i] = Tensor(DT_DOUBLE, values[i].shape());
      for (int64_t k = 0; k < values[i].NumElements(); ++k) {
        plus[i].flat<double>()(k) = values[i].flat<double>()(k) + (k == j ? eps : 0);
        minus[i].flat<double>()(k) = values[i].flat<double>()(k) - (k == j ? eps : 0);
      }
      const double numeric = (f(plus) - f(minus)) / (2 * eps);
      EXPECT_NEAR(symbolic[i].flat<double>()(j), numeric, 1e-6 + 1e-5 * std::fabs(numeric))
          << "d/d" << c.xs[i] << "[" << j << "]";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Functions, CallAndCondGradient, ::testing::ValuesIn(FdCases()),
                         [](const ::testing::TestParamInfo<FdCase>& info) { return info.param.name; });

// The graph of kLibrary plus `nodes`, or a failed test.
std::unique_ptr<Graph> MustLoad(const std::string& nodes) {
  absl::Status st;
  auto g = Load(std::string(kLibrary) + nodes, &st);
  EXPECT_TRUE(st.ok()) << st;
  return g;
}

TEST(CallGradient, IntegerArgumentGetsNoGradient) {
  auto g = MustLoad(Call("call", "scale", "input: 'a' input: 'three'", ""));
  std::vector<Out> dxs;
  ASSERT_TRUE(AddSymbolicGradients(g.get(), {{g->FindNode("call"), 0}},
                                   {{g->FindNode("a"), 0}, {g->FindNode("three"), 0}}, {}, "",
                                   &dxs)
                  .ok());
  EXPECT_NE(dxs[0].node, nullptr);
  EXPECT_EQ(dxs[1].node, nullptr);
}

TEST(CallGradient, TheGradientFunctionIsAddedOnceAndReused) {
  auto g = MustLoad(Call("call", "mul2", "input: 'a' input: 'b'", "") +
                    Call("call2", "mul2", "input: 'b' input: 'a'", ""));
  const int before = g->flib().num_functions();
  std::vector<Out> dxs;
  ASSERT_TRUE(AddSymbolicGradients(g.get(), {{g->FindNode("call"), 0}, {g->FindNode("call2"), 0}},
                                   {{g->FindNode("a"), 0}}, {}, "", &dxs)
                  .ok());
  EXPECT_EQ(g->flib().num_functions(), before + 1);
}

TEST(CallGradient, AnOpWithoutGradientInTheBodyIsNamed) {
  auto g = MustLoad(Call("call", "no_grad_of", "input: 'a'", ""));
  const int nodes = g->num_nodes(), functions = g->flib().num_functions();
  std::vector<Out> dxs;
  absl::Status st = AddSymbolicGradients(g.get(), {{g->FindNode("call"), 0}},
                                         {{g->FindNode("a"), 0}}, {}, "", &dxs);
  EXPECT_TRUE(absl::IsNotFound(st)) << st;
  EXPECT_TRUE(absl::StrContains(st.message(), "SgTestNoGradient")) << st;
  EXPECT_TRUE(absl::StrContains(st.message(), "no_grad_of")) << st;
  EXPECT_EQ(g->num_nodes(), nodes);
  EXPECT_EQ(g->flib().num_functions(), functions);
}

TEST(CallGradient, AFailureLeavesTheLibraryAsItWas) {
  // mul2's gradient function is built, then no_grad_of's fails: neither stays.
  auto g = MustLoad(Call("ok", "mul2", "input: 'a' input: 'b'", "") +
                    Call("bad", "no_grad_of", "input: 'a'", "") +
                    "node { name: 'y' op: 'AddN' input: 'ok:0' input: 'bad:0' "
                    "attr { key: 'T' value { type: DT_DOUBLE } } attr { key: 'N' value { i: 2 } } }\n");
  const int nodes = g->num_nodes(), functions = g->flib().num_functions();
  std::vector<Out> dxs;
  absl::Status st = AddSymbolicGradients(g.get(), {{g->FindNode("y"), 0}},
                                         {{g->FindNode("a"), 0}, {g->FindNode("b"), 0}}, {}, "",
                                         &dxs);
  EXPECT_TRUE(absl::IsNotFound(st)) << st;
  EXPECT_EQ(g->num_nodes(), nodes);
  EXPECT_EQ(g->flib().num_functions(), functions);
}

// A GradientDef names the gradient function of no_grad_of, whose body has no gradient: the
// library's function is used (as it would be instead of any body's):
// atan_grad(x, dy) = dy / (1 + x^2).
TEST(CallGradient, TheLibrarysGradientDefIsUsed) {
  std::string text = kLibrary;
  text.insert(text.find("library {") + 9, R"pb(
      function {
        signature { name: "atan_grad" input_arg { name: "x" type: DT_DOUBLE }
                    input_arg { name: "dy" type: DT_DOUBLE } output_arg { name: "dx" type: DT_DOUBLE } }
        node_def { name: "sq" op: "Square" input: "x" attr { key: "T" value { type: DT_DOUBLE } } }
        node_def { name: "one" op: "OnesLike" input: "x" attr { key: "T" value { type: DT_DOUBLE } } }
        node_def { name: "den" op: "AddV2" input: "sq:y:0" input: "one:y:0"
                   attr { key: "T" value { type: DT_DOUBLE } } }
        node_def { name: "q" op: "RealDiv" input: "dy" input: "den:z:0"
                   attr { key: "T" value { type: DT_DOUBLE } } }
        ret { key: "dx" value: "q:z:0" }
      }
      gradient { function_name: "no_grad_of" gradient_func: "atan_grad" }
  )pb");
  absl::Status st;
  auto g = Load(text + Call("call", "no_grad_of", "input: 'a'", ""), &st);
  ASSERT_TRUE(st.ok()) << st;
  std::vector<Out> dxs;
  st = AddSymbolicGradients(g.get(), {{g->FindNode("call"), 0}}, {{g->FindNode("a"), 0}}, {}, "",
                            &dxs);
  ASSERT_TRUE(st.ok()) << st;
  GraphDef def;
  g->ToGraphDef(&def);
  std::unique_ptr<Session> sess;
  ASSERT_TRUE(NewSession(SessionOptions(), &sess).ok());
  ASSERT_TRUE(sess->Create(def).ok());
  Tensor a(DT_DOUBLE, TensorShape({2, 3}));
  for (int i = 0; i < 6; ++i) a.flat<double>()(i) = 0.5 * i - 1;
  std::vector<Tensor> out;
  st = sess->Run({{"a", a}}, {dxs[0].node->name() + ":0"}, {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  for (int i = 0; i < 6; ++i) {
    const double x = 0.5 * i - 1;
    EXPECT_NEAR(out[0].flat<double>()(i), 1 / (1 + x * x), 1e-15) << i;
  }
}

TEST(CallGradient, AStatefulLoopAndAMalformedV1LoopAreErrorsNamingThem) {
  auto g = MustLoad(R"pb(
    node { name: "w" op: "While" input: "a"
           attr { key: "T" value { list { type: DT_DOUBLE } } }
           attr { key: "cond" value { func { name: "atan_of" } } }
           attr { key: "body" value { func { name: "noisy" } } } }
    node { name: "enter" op: "Enter" input: "b" attr { key: "T" value { type: DT_DOUBLE } }
           attr { key: "frame_name" value { s: "loop" } } }
    node { name: "exit" op: "Exit" input: "enter" attr { key: "T" value { type: DT_DOUBLE } } }
  )pb");
  std::vector<Out> dxs;
  absl::Status st = AddSymbolicGradients(g.get(), {{g->FindNode("w"), 0}}, {{g->FindNode("a"), 0}},
                                         {}, "", &dxs);
  // The gradient would run the loop again, drawing other random numbers.
  EXPECT_TRUE(absl::IsUnimplemented(st)) << st;
  EXPECT_TRUE(absl::StrContains(st.message(), "'w' (While)")) << st;
  EXPECT_TRUE(absl::StrContains(st.message(), "RandomUniform")) << st;
  st = AddSymbolicGradients(g.get(), {{g->FindNode("exit"), 0}}, {{g->FindNode("b"), 0}}, {}, "",
                            &dxs);
  // An Enter and an Exit alone are no loop (a v1 loop has Merges, Switches, a LoopCond...).
  EXPECT_TRUE(absl::IsInvalidArgument(st)) << st;
  EXPECT_TRUE(absl::StrContains(st.message(), "while loop 'loop' has no LoopCond")) << st;
}

// A variable read in one branch of an If: its handle (a resource input of the If) gets the
// gradient of its values from that branch, zeros from the other.
TEST(IfGradient, AVariableReadInOneBranchGetsItsValuesGradient) {
  constexpr const char* kFunctions = R"pb(
    library {
      function {
        signature { name: "read_sq" input_arg { name: "v" type: DT_RESOURCE }
                    input_arg { name: "x" type: DT_DOUBLE } output_arg { name: "z" type: DT_DOUBLE } }
        node_def { name: "r" op: "ReadVariableOp" input: "v" attr { key: "dtype" value { type: DT_DOUBLE } } }
        node_def { name: "s" op: "Square" input: "r:value:0" attr { key: "T" value { type: DT_DOUBLE } } }
        node_def { name: "z" op: "AddN" input: "s:y:0" input: "x"
                   attr { key: "T" value { type: DT_DOUBLE } } attr { key: "N" value { i: 2 } } }
        ret { key: "z" value: "z:sum:0" }
      }
      function {
        signature { name: "sin_x" input_arg { name: "v" type: DT_RESOURCE }
                    input_arg { name: "x" type: DT_DOUBLE } output_arg { name: "z" type: DT_DOUBLE } }
        node_def { name: "s" op: "Sin" input: "x" attr { key: "T" value { type: DT_DOUBLE } } }
        ret { key: "z" value: "s:y:0" }
      }
    }
    node { name: "v" op: "VarHandleOp" attr { key: "dtype" value { type: DT_DOUBLE } }
           attr { key: "shape" value { shape { dim { size: 2 } } } }
           attr { key: "shared_name" value { s: "v" } } }
    node { name: "init" op: "Const" attr { key: "dtype" value { type: DT_DOUBLE } }
           attr { key: "value" value { tensor { dtype: DT_DOUBLE tensor_shape { dim { size: 2 } }
                                                double_val: 3 double_val: -1 } } } }
    node { name: "assign" op: "AssignVariableOp" input: "v" input: "init"
           attr { key: "dtype" value { type: DT_DOUBLE } } }
    node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_DOUBLE } }
           attr { key: "shape" value { shape { dim { size: 2 } } } } }
    node { name: "p" op: "Placeholder" attr { key: "dtype" value { type: DT_BOOL } }
           attr { key: "shape" value { shape {} } } }
    node { name: "y" op: "If" input: "p" input: "v" input: "x"
           attr { key: "Tcond" value { type: DT_BOOL } }
           attr { key: "Tin" value { list { type: DT_RESOURCE type: DT_DOUBLE } } }
           attr { key: "Tout" value { list { type: DT_DOUBLE } } }
           attr { key: "then_branch" value { func { name: "read_sq" } } }
           attr { key: "else_branch" value { func { name: "sin_x" } } } }
  )pb";
  absl::Status st;
  auto g = Load(kFunctions, &st);
  ASSERT_TRUE(st.ok()) << st;
  std::vector<Out> dxs;
  st = AddSymbolicGradients(g.get(), {{g->FindNode("y"), 0}},
                            {{g->FindNode("v"), 0}, {g->FindNode("x"), 0}}, {}, "", &dxs);
  ASSERT_TRUE(st.ok()) << st;
  ASSERT_NE(dxs[0].node, nullptr);
  GraphDef def;
  g->ToGraphDef(&def);
  std::unique_ptr<Session> sess;
  ASSERT_TRUE(NewSession(SessionOptions(), &sess).ok());
  ASSERT_TRUE(sess->Create(def).ok());
  std::vector<Tensor> out;
  ASSERT_TRUE(sess->Run({}, {}, {"assign"}, &out).ok());
  Tensor x(DT_DOUBLE, TensorShape({2}));
  x.flat<double>()(0) = 0.5, x.flat<double>()(1) = -2;
  for (bool p : {true, false}) {
    st = sess->Run({{"x", x}, {"p", Tensor::Scalar<bool>(p)}},
                   {dxs[0].node->name() + ":" + std::to_string(dxs[0].index),
                    dxs[1].node->name() + ":" + std::to_string(dxs[1].index)},
                   {}, &out);
    ASSERT_TRUE(st.ok()) << st;
    SCOPED_TRACE(p);
    // true: d/dv sum(v^2 + x) = 2v = (6, -2), d/dx = 1; false: d/dv = 0, d/dx = cos(x).
    EXPECT_EQ(out[0].flat<double>()(0), p ? 6 : 0);
    EXPECT_EQ(out[0].flat<double>()(1), p ? -2 : 0);
    EXPECT_NEAR(out[1].flat<double>()(0), p ? 1 : std::cos(0.5), 1e-15);
    EXPECT_NEAR(out[1].flat<double>()(1), p ? 1 : std::cos(-2.0), 1e-15);
  }
}

// A While whose body reads a variable (its handle a loop variable, passed on unchanged):
// x(k+1) = x(k) * v for 3 iterations, y = sum(x(3)) = sum(x(0) * v^3), so
// dy/dx(0) = v^3 and dy/dv = 3 x(0) v^2, summed over the iterations into the variable's gradient.
TEST(WhileGradient, AVariableReadInTheBodyGetsItsValuesGradientSummed) {
  constexpr const char* kGraph = R"pb(
    library {
      function {
        signature { name: "count3" input_arg { name: "i" type: DT_INT32 }
                    input_arg { name: "v" type: DT_RESOURCE } input_arg { name: "x" type: DT_DOUBLE }
                    output_arg { name: "more" type: DT_BOOL } }
        node_def { name: "n" op: "Const" attr { key: "dtype" value { type: DT_INT32 } }
                   attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape {} int_val: 3 } } } }
        node_def { name: "l" op: "Less" input: "i" input: "n:output:0" attr { key: "T" value { type: DT_INT32 } } }
        ret { key: "more" value: "l:z:0" }
      }
      function {
        signature { name: "times_v" input_arg { name: "i" type: DT_INT32 }
                    input_arg { name: "v" type: DT_RESOURCE } input_arg { name: "x" type: DT_DOUBLE }
                    output_arg { name: "i1" type: DT_INT32 } output_arg { name: "v1" type: DT_RESOURCE }
                    output_arg { name: "x1" type: DT_DOUBLE } }
        node_def { name: "one" op: "Const" attr { key: "dtype" value { type: DT_INT32 } }
                   attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape {} int_val: 1 } } } }
        node_def { name: "next" op: "AddV2" input: "i" input: "one:output:0" attr { key: "T" value { type: DT_INT32 } } }
        node_def { name: "r" op: "ReadVariableOp" input: "v" attr { key: "dtype" value { type: DT_DOUBLE } } }
        node_def { name: "m" op: "Mul" input: "x" input: "r:value:0" attr { key: "T" value { type: DT_DOUBLE } } }
        ret { key: "i1" value: "next:z:0" }
        ret { key: "v1" value: "v" }
        ret { key: "x1" value: "m:z:0" }
      }
    }
    node { name: "v" op: "VarHandleOp" attr { key: "dtype" value { type: DT_DOUBLE } }
           attr { key: "shape" value { shape { dim { size: 2 } } } }
           attr { key: "shared_name" value { s: "v" } } }
    node { name: "init" op: "Const" attr { key: "dtype" value { type: DT_DOUBLE } }
           attr { key: "value" value { tensor { dtype: DT_DOUBLE tensor_shape { dim { size: 2 } }
                                                double_val: 1.5 double_val: -2 } } } }
    node { name: "assign" op: "AssignVariableOp" input: "v" input: "init"
           attr { key: "dtype" value { type: DT_DOUBLE } } }
    node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_DOUBLE } }
           attr { key: "shape" value { shape { dim { size: 2 } } } } }
    node { name: "zero" op: "Const" attr { key: "dtype" value { type: DT_INT32 } }
           attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape {} int_val: 0 } } } }
    node { name: "w" op: "While" input: "zero" input: "v" input: "x"
           attr { key: "T" value { list { type: DT_INT32 type: DT_RESOURCE type: DT_DOUBLE } } }
           attr { key: "cond" value { func { name: "count3" } } }
           attr { key: "body" value { func { name: "times_v" } } } }
    node { name: "axes" op: "Const" attr { key: "dtype" value { type: DT_INT32 } }
           attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape { dim { size: 1 } } int_val: 0 } } } }
    node { name: "y" op: "Sum" input: "w:2" input: "axes"
           attr { key: "T" value { type: DT_DOUBLE } } attr { key: "Tidx" value { type: DT_INT32 } } }
  )pb";
  GraphDef in;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(kGraph, &in));
  auto g = std::make_unique<Graph>();  // the args keep their unknown shapes
  absl::Status st = g->mutable_flib()->AddLibrary(in.library());
  if (st.ok()) st = ImportGraphDef(in, ImportOptions(), g.get());
  ASSERT_TRUE(st.ok()) << st;
  std::vector<Out> dxs;
  st = AddSymbolicGradients(g.get(), {{g->FindNode("y"), 0}},
                            {{g->FindNode("v"), 0}, {g->FindNode("x"), 0}}, {}, "", &dxs);
  ASSERT_TRUE(st.ok()) << st;
  ASSERT_NE(dxs[0].node, nullptr);
  ASSERT_NE(dxs[1].node, nullptr);
  GraphDef def;
  g->ToGraphDef(&def);
  std::unique_ptr<Session> sess;
  ASSERT_TRUE(NewSession(SessionOptions(), &sess).ok());
  ASSERT_TRUE(sess->Create(def).ok());
  std::vector<Tensor> out;
  ASSERT_TRUE(sess->Run({}, {}, {"assign"}, &out).ok());
  Tensor x(DT_DOUBLE, TensorShape({2}));
  x.flat<double>()(0) = 0.5, x.flat<double>()(1) = 3;
  st = sess->Run({{"x", x}},
                 {dxs[0].node->name() + ":" + std::to_string(dxs[0].index),
                  dxs[1].node->name() + ":" + std::to_string(dxs[1].index)},
                 {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  const double v[2] = {1.5, -2}, x0[2] = {0.5, 3};
  for (int i = 0; i < 2; ++i) {
    EXPECT_DOUBLE_EQ(out[0].flat<double>()(i), 3 * x0[i] * v[i] * v[i]) << i;
    EXPECT_DOUBLE_EQ(out[1].flat<double>()(i), v[i] * v[i] * v[i]) << i;
  }
}

// SymbolicGradient(a, b, dp, dq; f = mul_sin) = (dp * (b + cos a), dp * a + dq * exp b).
TEST(SymbolicGradient, RunsTheGradientOfF) {
  auto g = MustLoad(R"pb(
    node { name: "dp" op: "Placeholder" attr { key: "dtype" value { type: DT_DOUBLE } } }
    node { name: "dq" op: "Placeholder" attr { key: "dtype" value { type: DT_DOUBLE } } }
    node { name: "sg" op: "SymbolicGradient" input: "a" input: "b" input: "dp" input: "dq"
           attr { key: "Tin" value { list { type: DT_DOUBLE type: DT_DOUBLE type: DT_DOUBLE type: DT_DOUBLE } } }
           attr { key: "Tout" value { list { type: DT_DOUBLE type: DT_DOUBLE } } }
           attr { key: "f" value { func { name: "mul_sin" } } } }
    node { name: "sg_sq" op: "SymbolicGradient" input: "a" input: "b" input: "dp"
           attr { key: "Tin" value { list { type: DT_DOUBLE type: DT_DOUBLE type: DT_DOUBLE } } }
           attr { key: "Tout" value { list { type: DT_DOUBLE type: DT_DOUBLE } } }
           attr { key: "f" value { func { name: "sq" } } } }
  )pb");
  GraphDef def;
  g->ToGraphDef(&def);
  std::unique_ptr<Session> sess;
  ASSERT_TRUE(NewSession(SessionOptions(), &sess).ok());
  ASSERT_TRUE(sess->Create(def).ok());
  auto scalar = [](double v) {  // [2, 3] of v, as the functions declare their arguments
    Tensor t(DT_DOUBLE, TensorShape({2, 3}));
    for (int i = 0; i < 6; ++i) t.flat<double>()(i) = v;
    return t;
  };
  std::vector<Tensor> out;
  absl::Status st = sess->Run({{"a", scalar(0.5)}, {"b", scalar(2.0)}, {"dp", scalar(3.0)},
                               {"dq", scalar(-1.0)}},
                              {"sg:0", "sg:1", "sg_sq:0", "sg_sq:1"}, {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_NEAR(out[0].flat<double>()(0), 3.0 * (2.0 + std::cos(0.5)), 1e-12);
  EXPECT_NEAR(out[1].flat<double>()(0), 3.0 * 0.5 - std::exp(2.0), 1e-12);
  EXPECT_NEAR(out[2].flat<double>()(0), 3.0 * 2 * 0.5, 1e-12);
  EXPECT_EQ(out[3].flat<double>()(0), 0.0);  // sq does not use its second input: zeros
}

TEST(SymbolicGradient, WrongArityIsAnErrorNamingTheNode) {
  auto g = MustLoad(R"pb(
    node { name: "bad_grad" op: "SymbolicGradient" input: "a" input: "b"
           attr { key: "Tin" value { list { type: DT_DOUBLE type: DT_DOUBLE } } }
           attr { key: "Tout" value { list { type: DT_DOUBLE type: DT_DOUBLE } } }
           attr { key: "f" value { func { name: "mul_sin" } } } }
  )pb");
  GraphDef def;
  g->ToGraphDef(&def);
  std::unique_ptr<Session> sess;
  ASSERT_TRUE(NewSession(SessionOptions(), &sess).ok());
  absl::Status st = sess->Create(def);
  std::vector<Tensor> out;
  if (st.ok()) st = sess->Run({}, {"bad_grad:0"}, {}, &out);
  EXPECT_TRUE(absl::IsInvalidArgument(st)) << st;
  EXPECT_TRUE(absl::StrContains(st.message(), "bad_grad")) << st;
}

}  // namespace
}  // namespace sg
