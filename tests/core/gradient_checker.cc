#include "tests/core/gradient_checker.h"

#include <dirent.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <utility>

#include "absl/strings/match.h"
#include "core/graph/graph_constructor.h"
#include "core/graph/gradients.h"

namespace sg {
namespace gradcheck {

std::string TensorName(Out o) { return o.node->name() + ":" + std::to_string(o.index); }

Out Placeholder(Graph* g, const std::string& name, DataType dt, const std::vector<int64_t>& dims) {
  NodeBuilder b(name, "Placeholder");
  AttrValue dtype, shape;
  dtype.set_type(dt);
  PartialTensorShape(dims).AsProto(shape.mutable_shape());
  b.Attr("dtype", dtype).Attr("shape", shape);
  auto n = b.Finalize(g);
  EXPECT_TRUE(n.ok()) << n.status();
  return {n.ok() ? *n : nullptr, 0};
}

double Get(const Tensor& t, int64_t i) {
  return t.dtype() == DT_DOUBLE ? t.flat<double>()(i) : static_cast<double>(t.flat<float>()(i));
}

void Set(Tensor* t, int64_t i, double v) {
  if (t->dtype() == DT_DOUBLE) {
    t->flat<double>()(i) = v;
  } else {
    t->flat<float>()(i) = static_cast<float>(v);
  }
}

Tensor Random(DataType dt, const std::vector<int64_t>& dims, double lo, double hi,
              std::mt19937* rng) {
  Tensor t(dt, TensorShape(absl::Span<const int64_t>(dims)));
  std::uniform_real_distribution<double> u(lo, hi);
  for (int64_t i = 0; i < t.NumElements(); ++i) Set(&t, i, u(*rng));
  return t;
}

AttrValue IntList(std::vector<int64_t> v) {
  AttrValue a;
  SetAttrValue(absl::Span<const int64_t>(v), &a);
  return a;
}

AttrValue Str(const char* v) {
  AttrValue a;
  SetAttrValue(v, &a);
  return a;
}

absl::StatusOr<std::unique_ptr<Session>> SessionFor(const Graph& g) {
  GraphDef def;
  g.ToGraphDef(&def);
  std::unique_ptr<Session> sess;
  SG_RETURN_IF_ERROR(NewSession(SessionOptions(), &sess));
  SG_RETURN_IF_ERROR(sess->Create(def));
  return sess;
}

bool Missing(const absl::Status& s) { return absl::IsNotFound(s) || absl::IsUnimplemented(s); }

void PrintTo(const GradCase& c, std::ostream* os) { *os << c.name; }

void AddDynamicCases(const std::vector<std::string>& names, std::vector<GradCase>* cases) {
  for (const std::string& name : names) {
    for (const GradCase& base : std::vector<GradCase>(*cases)) {
      if (base.name != name) continue;
      GradCase d = base;
      d.name += "Dynamic";
      d.dynamic = true;
      cases->push_back(d);
    }
  }
}

namespace {

// AddSymbolicGradients failed because an op is not registered in this build.
bool MissingOp(const absl::Status& s) {
  return absl::IsNotFound(s) && absl::StrContains(s.message(), "not registered");
}

}  // namespace

void ExpectMatchesFiniteDifferences(const GradCase& c, uint32_t seed) {
  Graph g;
  std::mt19937 rng(seed);
  std::vector<Out> xs;
  std::vector<Tensor> values;
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    std::vector<int64_t> declared = c.inputs[i].dims;
    if (c.dynamic) declared.assign(declared.size(), -1);
    xs.push_back(Placeholder(&g, "x" + std::to_string(i), c.dtype, declared));
    values.push_back(Random(c.dtype, c.inputs[i].dims, c.inputs[i].lo, c.inputs[i].hi, &rng));
  }
  GradScope fwd(&g, "fwd");
  Out y = c.build(fwd, xs);
  if (absl::IsNotFound(fwd.status())) GTEST_SKIP() << "missing op: " << fwd.status().message();
  ASSERT_TRUE(fwd.status().ok()) << fwd.status();
  auto feeds = [&](const std::vector<Tensor>& v) {
    std::vector<std::pair<std::string, Tensor>> f;
    for (size_t i = 0; i < xs.size(); ++i) f.push_back({TensorName(xs[i]), v[i]});
    return f;
  };
  // y's shape from a run: the dynamic cases and some outputs (DynamicPartition's) have no static
  // shape.
  std::vector<Tensor> out;
  {
    auto sess = SessionFor(g);
    ASSERT_TRUE(sess.ok()) << sess.status();
    absl::Status st = (*sess)->Run(feeds(values), {TensorName(y)}, {}, &out);
    if (Missing(st)) GTEST_SKIP() << "missing kernel: " << st;
    ASSERT_TRUE(st.ok()) << st;
  }
  std::vector<int64_t> ydims(out[0].shape().dim_sizes().begin(), out[0].shape().dim_sizes().end());
  // The weights of the scalar function checked: f(x) = sum(w * y(x)), w given as the initial dy.
  Tensor w = Random(c.dtype, ydims, 0.5, 1.5, &rng);
  std::vector<Out> dxs;
  absl::Status s = AddSymbolicGradients(&g, {y}, xs, {fwd.Const(w)}, "", &dxs);
  if (MissingOp(s)) GTEST_SKIP() << "missing op: " << s.message();
  if (!s.ok() && !c.known_gap.empty() && absl::StrContains(s.message(), c.known_gap)) {
    GTEST_SKIP() << "sg gap: " << s.message();
  }
  ASSERT_TRUE(s.ok()) << s;
  auto sess = SessionFor(g);
  ASSERT_TRUE(sess.ok()) << sess.status();
  std::vector<std::string> fetch;
  for (const Out& d : dxs) {
    ASSERT_NE(d.node, nullptr) << "no gradient returned";
    fetch.push_back(TensorName(d));
  }
  std::vector<Tensor> symbolic;
  s = (*sess)->Run(feeds(values), fetch, {}, &symbolic);
  if (Missing(s)) GTEST_SKIP() << "missing kernel: " << s;
  ASSERT_TRUE(s.ok()) << s;
  auto f = [&](const std::vector<Tensor>& v) {
    std::vector<Tensor> o;
    absl::Status st = (*sess)->Run(feeds(v), {TensorName(y)}, {}, &o);
    EXPECT_TRUE(st.ok()) << st;
    double sum = 0;
    for (int64_t i = 0; st.ok() && i < o[0].NumElements(); ++i) sum += Get(w, i) * Get(o[0], i);
    return sum;
  };
  const bool is_double = c.dtype == DT_DOUBLE;
  const double eps = c.eps > 0 ? c.eps : is_double ? 1e-6 : 1e-2;
  const double atol = is_double ? 1e-6 : 2e-2, rtol = is_double ? 1e-5 : 2e-2;
  for (size_t i = 0; i < xs.size(); ++i) {
    ASSERT_EQ(symbolic[i].shape().DebugString(), values[i].shape().DebugString())
        << "dx" << i << " " << fetch[i];
    for (int64_t j = 0; j < values[i].NumElements(); ++j) {
      std::vector<Tensor> plus = values, minus = values;
      plus[i] = Tensor(c.dtype, values[i].shape());
      minus[i] = Tensor(c.dtype, values[i].shape());
      for (int64_t k = 0; k < values[i].NumElements(); ++k) {
        Set(&plus[i], k, Get(values[i], k) + (k == j ? eps : 0));
        Set(&minus[i], k, Get(values[i], k) - (k == j ? eps : 0));
      }
      const double numeric = (f(plus) - f(minus)) / (2 * eps);
      EXPECT_NEAR(Get(symbolic[i], j), numeric, atol + rtol * std::fabs(numeric))
          << "dx" << i << "[" << j << "]";
    }
  }
}

std::vector<std::string> OracleCaseNames(const std::string& dir) {
  std::vector<std::string> names;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      std::string n = e->d_name;
      if (absl::EndsWith(n, ".pb")) names.push_back(n.substr(0, n.size() - 3));
    }
    closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

void ExpectMatchesOracleCase(const std::string& pb_path) {
  std::ifstream in(pb_path, std::ios::binary);
  ASSERT_TRUE(in.good()) << pb_path;
  std::stringstream bytes;
  bytes << in.rdbuf();
  GraphDef def;
  ASSERT_TRUE(def.ParseFromString(bytes.str()));
  Graph g;
  absl::Status s = ImportGraphDef(def, ImportOptions(), &g);
  if (absl::IsNotFound(s)) GTEST_SKIP() << "missing op: " << s.message();
  ASSERT_TRUE(s.ok()) << s;

  const std::string kFeed = "oracle/feed/", kGrad = "oracle/grad/";
  std::vector<Out> xs;
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
  std::vector<Out> dxs;
  s = AddSymbolicGradients(&g, {{y, 0}}, xs, {{dy, 0}}, "", &dxs);
  // An op this build lacks skips; a gradient sg lacks ("No gradient defined") fails.
  if (MissingOp(s)) GTEST_SKIP() << "missing op: " << s.message();
  ASSERT_TRUE(s.ok()) << s;

  auto sess = SessionFor(g);
  ASSERT_TRUE(sess.ok()) << sess.status();
  std::vector<std::string> fetches;
  for (const Out& d : dxs) {
    ASSERT_NE(d.node, nullptr) << "sg found no gradient where TensorFlow has one";
    fetches.push_back(TensorName(d));
  }
  std::vector<Tensor> got;
  s = (*sess)->Run(feeds, fetches, {}, &got);
  if (Missing(s)) GTEST_SKIP() << "missing kernel: " << s;
  ASSERT_TRUE(s.ok()) << s;
  for (size_t i = 0; i < xs.size(); ++i) {
    SCOPED_TRACE(xs[i].node->name());
    ASSERT_EQ(got[i].dtype(), expected[i].dtype());
    ASSERT_EQ(got[i].shape().DebugString(), expected[i].shape().DebugString());
    const bool is_double = got[i].dtype() == DT_DOUBLE;
    const double atol = is_double ? 1e-9 : 1e-5, rtol = is_double ? 1e-9 : 1e-4;
    for (int64_t j = 0; j < got[i].NumElements(); ++j) {
      const double want = Get(expected[i], j);
      EXPECT_NEAR(Get(got[i], j), want, atol + rtol * std::fabs(want)) << "element " << j;
    }
  }
}

}  // namespace gradcheck
}  // namespace sg
