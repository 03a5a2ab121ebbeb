// AddSymbolicGradients against TensorFlow: each tests/oracle/grad_cases/<case>.pb (written by
// tests/oracle/make_grad_cases.py) holds a forward graph as TensorFlow builds it, the feeds, an
// initial gradient and tf.gradients' values. sg imports the graph, adds the gradients of "y"
// with respect to every placeholder, runs them and compares.
// Tolerance: |sg - tf| <= 1e-9 + 1e-9 * |tf| in double, 1e-5 + 1e-4 * |tf| in float (the sums
// run in other orders). A case whose gradient needs an op or kernel this build lacks is skipped,
// naming it.
#include <gtest/gtest.h>

#include <cmath>
#include <dirent.h>
#include <fstream>
#include <sstream>

#include "absl/strings/match.h"
#include "core/framework/attr_value_util.h"
#include "core/graph/graph_constructor.h"
#include "core/graph/gradients.h"
#include "core/runtime/session.h"

namespace sg {
namespace {

std::string CasesDir() { return std::string(SG_SOURCE_DIR) + "/tests/oracle/grad_cases"; }

std::vector<std::string> CaseNames() {
  std::vector<std::string> names;
  if (DIR* d = opendir(CasesDir().c_str())) {
    while (dirent* e = readdir(d)) {
      std::string n = e->d_name;
      if (absl::EndsWith(n, ".pb")) names.push_back(n.substr(0, n.size() - 3));
    }
    closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

double At(const Tensor& t, int64_t i) {
  return t.dtype() == DT_DOUBLE ? t.flat<double>()(i) : static_cast<double>(t.flat<float>()(i));
}

class GradientOracle : public ::testing::TestWithParam<std::string> {};

TEST_P(GradientOracle, MatchesTensorFlow) {
  std::ifstream in(CasesDir() + "/" + GetParam() + ".pb", std::ios::binary);
  ASSERT_TRUE(in.good());
  std::stringstream bytes;
  bytes << in.rdbuf();
  GraphDef def;
  ASSERT_TRUE(def.ParseFromString(bytes.str()));
  Graph g;
  absl::Status s = ImportGraphDef(def, ImportOptions(), &g);
  if (absl::IsNotFound(s)) GTEST_SKIP() << "missing op: " << s.message();
  ASSERT_TRUE(s.ok()) << s;

  const std::string kFeed = "oracle/feed/", kGrad = "oracle/grad/";
  std::vector<NodeBuilder::Output> xs;
  std::vector<Tensor> expected;
  std::vector<std::pair<std::string, Tensor>> feeds;
  for (Node* n : g.nodes()) {
    Tensor value;
    if (absl::StartsWith(n->name(), kFeed)) {
      ASSERT_TRUE(GetAttr(n->def().attr(), "value", &value).ok());
      feeds.push_back({n->name().substr(kFeed.size()) + ":0", value});
    } else if (absl::StartsWith(n->name(), kGrad)) {
      Node* x = g.FindNode(n->name().substr(kGrad.size()));
      ASSERT_NE(x, nullptr) << n->name();
      ASSERT_TRUE(GetAttr(n->def().attr(), "value", &value).ok());
      xs.push_back({x, 0});
      expected.push_back(value);
    }
  }
  Node* y = g.FindNode("y");
  Node* dy = g.FindNode("oracle/dy");
  ASSERT_TRUE(y != nullptr && dy != nullptr);
  ASSERT_FALSE(xs.empty());
  std::vector<NodeBuilder::Output> dxs;
  s = AddSymbolicGradients(&g, {{y, 0}}, xs, {{dy, 0}}, "", &dxs);
  // An op this build lacks skips; a gradient sg lacks ("No gradient defined") fails.
  if (absl::IsNotFound(s) && absl::StrContains(s.message(), "not registered")) {
    GTEST_SKIP() << "missing op: " << s.message();
  }
  ASSERT_TRUE(s.ok()) << s;

  GraphDef with_grads;
  g.ToGraphDef(&with_grads);
  std::unique_ptr<Session> sess;
  ASSERT_TRUE(NewSession(SessionOptions(), &sess).ok());
  ASSERT_TRUE(sess->Create(with_grads).ok());
  std::vector<std::string> fetches;
  for (const auto& d : dxs) {
    ASSERT_NE(d.node, nullptr) << "sg found no gradient where TensorFlow has one";
    fetches.push_back(d.node->name() + ":" + std::to_string(d.index));
  }
  std::vector<Tensor> got;
  s = sess->Run(feeds, fetches, {}, &got);
  if (absl::IsNotFound(s) || absl::IsUnimplemented(s)) GTEST_SKIP() << "missing kernel: " << s;
  ASSERT_TRUE(s.ok()) << s;
  for (size_t i = 0; i < xs.size(); ++i) {
    SCOPED_TRACE(xs[i].node->name());
    ASSERT_EQ(got[i].dtype(), expected[i].dtype());
    ASSERT_EQ(got[i].shape().DebugString(), expected[i].shape().DebugString());
    const bool is_double = got[i].dtype() == DT_DOUBLE;
    const double atol = is_double ? 1e-9 : 1e-5, rtol = is_double ? 1e-9 : 1e-4;
    for (int64_t j = 0; j < got[i].NumElements(); ++j) {
      const double want = At(expected[i], j);
      EXPECT_NEAR(At(got[i], j), want, atol + rtol * std::fabs(want)) << "element " << j;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(TensorFlow, GradientOracle, ::testing::ValuesIn(CaseNames()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace sg
