// Runs the real TensorFlow graphs of ../shared/testdata/tf_graphs (see its MANIFEST.md for where
// each expected value comes from) through a DirectSession. The checks themselves are in
// tests/common/real_graph_checks.h, which tests/distributed/cluster_test.cc runs on a cluster
// too. Every test says plainly that it skipped when ../shared/ is absent, as it is in a user's
// clone.
#include <gtest/gtest.h>

#include "tests/common/real_graph_checks.h"

namespace sg {
namespace {

// Opens the shared graphs in a local DirectSession.
test::SessionOpener Local() { return test::SharedGraphOpener(""); }

TEST(RealGraphs, AdditionFromTf2FeedsShapeOneIntoScalarPlaceholders) {
  SG_SKIP_WITHOUT_SHARED();
  test::CheckAddition(Local());
}

TEST(RealGraphs, MultiplicationFromProducer9) {
  SG_SKIP_WITHOUT_SHARED();
  test::CheckMultiplication(Local());
}

TEST(RealGraphs, TextGraphAddsConstantsAndConstantsCanBeFed) {
  SG_SKIP_WITHOUT_SHARED();
  test::CheckTextGraphAdd(Local());
}

TEST(RealGraphs, WhileLoopRunsTenIterations) {
  SG_SKIP_WITHOUT_SHARED();
  test::CheckWhileLoop(Local());
}

TEST(RealGraphs, CondTakesTheFalseBranchAndPropagatesDeadness) {
  SG_SKIP_WITHOUT_SHARED();
  test::CheckCond(Local());
}

TEST(RealGraphs, LibraryFunctionCalledAsAnOpType) {
  SG_SKIP_WITHOUT_SHARED();
  test::CheckLibraryFunction(Local());
}

TEST(RealGraphs, VariablesInTextAndBinaryGiveTheSameAnswer) {
  SG_SKIP_WITHOUT_SHARED();
  test::CheckVariables(Local());
}

// Each local session has variables of its own, so none is initialized yet.
TEST(RealGraphs, ReadingAVariableBeforeInitIsFailedPrecondition) {
  SG_SKIP_WITHOUT_SHARED();
  test::CheckReadBeforeInitFails(Local());
}

TEST(RealGraphs, RegressionWithoutVersions) {
  SG_SKIP_WITHOUT_SHARED();
  test::CheckRegression(Local());
}

TEST(RealGraphs, FullyConnectedLayersOnTheRamp) {
  SG_SKIP_WITHOUT_SHARED();
  test::CheckFullyConnected(Local());
}

TEST(RealGraphs, UnrolledLstmOnTheRamp) {
  SG_SKIP_WITHOUT_SHARED();
  test::CheckUnrolledLstm(Local());
}

TEST(RealGraphs, MnistMlpReachesItsPublishedAccuracyOnT10k) {
  SG_SKIP_WITHOUT_SHARED();
  test::MnistT10k data;
  test::ReadMnistT10k(&data);
  if (::testing::Test::HasFatalFailure()) return;
  test::CheckMnistMlp(Local(), data);
}

TEST(RealGraphs, KeywordSpottingDnnFedThroughMfcc) {
  SG_SKIP_WITHOUT_SHARED();
  test::CheckKwsDnn(Local());
}

TEST(RealGraphs, KeywordSpottingDepthwiseCnnFedThroughMfcc) {
  SG_SKIP_WITHOUT_SHARED();
  test::CheckKwsDsCnn(Local());
}

TEST(RealGraphs, KeywordSpottingLstmWithWhileLoopAndTensorArrays) {
  SG_SKIP_WITHOUT_SHARED();
  test::CheckKwsLstm(Local());
}

TEST(RealGraphs, KeywordSpottingFromWavBytesHearsSilence) {
  SG_SKIP_WITHOUT_SHARED();
  test::CheckKwsHearsSilence(Local());
}

}  // namespace
}  // namespace sg
