// AddSymbolicGradients against TensorFlow: each tests/oracle/grad_cases/<case>.pb (written by
// tests/oracle/make_grad_cases.py) holds a forward graph as TensorFlow builds it, the feeds, an
// initial gradient and tf.gradients' values. sg imports the graph, adds the gradients of "y"
// with respect to every placeholder, runs them and compares.
// Tolerance: |sg - tf| <= 1e-9 + 1e-9 * |tf| in double, 1e-5 + 1e-4 * |tf| in float (the sums
// run in other orders). A case whose gradient needs an op or kernel this build lacks is skipped,
// naming it.
#include <gtest/gtest.h>

#include <string>

#include "tests/core/gradient_checker.h"

namespace sg {
namespace {

std::string CasesDir() { return std::string(SG_SOURCE_DIR) + "/tests/oracle/grad_cases"; }

class GradientOracle : public ::testing::TestWithParam<std::string> {};

TEST_P(GradientOracle, MatchesTensorFlow) {
  gradcheck::ExpectMatchesOracleCase(CasesDir() + "/" + GetParam() + ".pb");
}

INSTANTIATE_TEST_SUITE_P(TensorFlow, GradientOracle,
                         ::testing::ValuesIn(gradcheck::OracleCaseNames(CasesDir())),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace sg
