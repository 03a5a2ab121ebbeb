// What the gradient tests share (gradients_test, gradients_more_test, gradients_oracle_test):
// building placeholders and naming tensors, the central finite-difference checker of a gradient
// case, and the runner of a TensorFlow-written gradient case (tests/oracle/make_grad_cases.py's
// format).
//
//   INSTANTIATE_TEST_SUITE_P(..., ::testing::ValuesIn(Cases()), ...);
//   TEST_P(MyCheck, MatchesCentralFiniteDifferences) {
//     gradcheck::ExpectMatchesFiniteDifferences(GetParam(), /*seed=*/7);
//   }
//
// The checks report through googletest (EXPECT/ASSERT, and GTEST_SKIP for what this build lacks),
// so they are called from a test body, on the test's thread.
#ifndef SG_TESTS_CORE_GRADIENT_CHECKER_H_
#define SG_TESTS_CORE_GRADIENT_CHECKER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/framework/attr_value_util.h"
#include "core/framework/tensor.h"
#include "core/gradients/grad_registry.h"
#include "core/graph/graph.h"
#include "core/runtime/session.h"

namespace sg {
namespace gradcheck {

using Out = NodeBuilder::Output;

// "node:index", the name a session feeds or fetches `o` by.
std::string TensorName(Out o);

// Adds a Placeholder node `name` of dtype `dt` and shape `dims` (-1: unknown) to `g`. A failure to
// add it is a test failure and gives a null node.
Out Placeholder(Graph* g, const std::string& name, DataType dt, const std::vector<int64_t>& dims);

// Element `i` of a DT_FLOAT or DT_DOUBLE tensor, as a double; and its setter (rounded to float
// in a DT_FLOAT tensor).
double Get(const Tensor& t, int64_t i);
void Set(Tensor* t, int64_t i, double v);

// A DT_FLOAT or DT_DOUBLE tensor of shape `dims`, each element drawn uniformly from [lo, hi)
// by `rng`, in element order.
Tensor Random(DataType dt, const std::vector<int64_t>& dims, double lo, double hi,
              std::mt19937* rng);

// An int list attr; a string attr.
AttrValue IntList(std::vector<int64_t> v);
AttrValue Str(const char* v);

// A session on `g`'s GraphDef (the graph as it is now).
absl::StatusOr<std::unique_ptr<Session>> SessionFor(const Graph& g);

// NotFound or Unimplemented: an op or kernel this build lacks.
bool Missing(const absl::Status& s);

// One input of a gradient case: its shape and the range its values are drawn from.
struct Input {
  std::vector<int64_t> dims;
  double lo = -1, hi = 1;
};

// A gradient case: a forward graph y(x) built from placeholders for `inputs`.
struct GradCase {
  std::string name;  // starts with the op whose gradient it checks
  std::vector<Input> inputs;
  std::function<Out(GradScope&, const std::vector<Out>&)> build;
  DataType dtype = DT_DOUBLE;  // DT_DOUBLE or DT_FLOAT, of every input
  double eps = 0;  // the finite difference step when not the dtype's default
  // A gap of sg's that makes building the gradient fail with an error containing this text:
  // the case skips, naming it.
  std::string known_gap;
  // Placeholders of unknown dims (same rank): the gradients take their dynamic paths
  // (BroadcastGradientArgs, Shape, DynamicStitch...) instead of constants.
  bool dynamic = false;
};

void PrintTo(const GradCase& c, std::ostream* os);

// Appends to *cases a copy named "<name>Dynamic", with `dynamic` set, of each case whose name is
// in `names`.
void AddDynamicCases(const std::vector<std::string>& names, std::vector<GradCase>* cases);

// Checks the symbolic gradient of f(x) = sum(w * y(x)) (w random in [0.5, 1.5), given to
// AddSymbolicGradients as the initial gradient) with respect to every input against
// (f(x + eps e_j) - f(x - eps e_j)) / 2 eps for every element j: within 1e-6 + 1e-5 |numeric| in
// double (eps 1e-6), 2e-2 + 2e-2 |numeric| in float (eps 1e-2). The inputs' values and then w are
// drawn from an mt19937 seeded with `seed`. Skips, naming it, when an op or kernel is missing or
// the case's known_gap stops the gradient.
void ExpectMatchesFiniteDifferences(const GradCase& c, uint32_t seed);

// The names (without ".pb") of the gradient cases in `dir`, sorted.
std::vector<std::string> OracleCaseNames(const std::string& dir);

// Runs the TensorFlow-written gradient case `pb_path`: a GraphDef whose Const nodes
// "oracle/feed/<x>" hold the feeds, "oracle/grad/<x>" tf.gradients' values for each placeholder
// x, and "oracle/dy" the initial gradient of "y". sg adds the gradients of y with respect to every
// such x, runs them and compares within 1e-9 + 1e-9 |tf| in double, 1e-5 + 1e-4 |tf| in float.
// Skips, naming it, when an op or kernel is missing; a gradient sg lacks fails.
void ExpectMatchesOracleCase(const std::string& pb_path);

}  // namespace gradcheck
}  // namespace sg

#endif  // SG_TESTS_CORE_GRADIENT_CHECKER_H_
