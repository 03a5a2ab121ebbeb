// The op conformance harness: every op sg registers, run on the cases TensorFlow 2.21 recorded in
// tests/oracle/op_cases/*.pb.gz (written by tests/oracle/make_op_cases.py, whose docstring gives
// the format). Each case is a few nodes under the prefix `case/`, mostly one op on Const inputs,
// with TensorFlow's outputs stored beside them as Consts; the harness runs each case in a fresh
// DirectSession and compares dtype, shape and values (ints, bools and strings exactly; floats
// within a tolerance by dtype), or the error code where TensorFlow failed. It reports each
// mismatch by case name, prints "op conformance: N ops, M cases checked", and fails when an op
// sg registers has neither a case nor an entry in kExcluded (a new op gets cases, nothing else).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include <gtest/gtest.h>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "core/framework/op.h"
#include "core/framework/tensor.h"
#include "core/framework/types.h"
#include "core/proto/graph.pb.h"
#include "core/runtime/session.h"
#include "tests/core/npy_tensor.h"

namespace sg {
namespace {

namespace fs = std::filesystem;

// Ops no case runs, and why.
const std::map<std::string, std::string> kExcluded = {
    {"_DeviceArg", "a function's argument on a device other than its caller's: no graph a session "
                   "runs holds one; the kernel is _Arg's"},
    {"_DeviceRetval", "a function's result on a device other than its caller's: no graph a "
                      "session runs holds one; the kernel is _Retval's"},
    {"ImmutableConst", "reads a file named by an attr, which a case cannot point at its own "
                       "directory; array_ops_test.ImmutableConst checks it"},
    {"WrapDatasetVariant", "needs a tf.data dataset variant, and sg has no dataset ops; "
                           "array_ops_test.DatasetVariantWrappers checks the pass-through"},
    {"UnwrapDatasetVariant", "as WrapDatasetVariant"},
    {"Abort", "ends the process: tests/core/logging_ops_test.cc builds its kernel, never runs it"},
    {"_FusedDepthwiseConv2dNative",
     "TensorFlow's CPU kernel for it exists only with its oneDNN rewrites on, which the cases "
     "turn off; graph_optimizer_test.FusedDepthwise* checks it against the unfused graph"},
};

// Ops that no TensorFlow graph holds but sg runs on the way to another op's cases: the other op.
const std::map<std::string, std::string> kCoveredThrough = {
    {"_Arg", "PartitionedCall"},
    {"_Retval", "PartitionedCall"},
};

// Dtypes that TensorFlow's OpDef allows and its CPU kernel runs but sg's kernel lacks. A case of
// such an (op, dtype) pair may fail with any error; one that passes anyway (AddN of one input
// forwards it) is checked as usual, and when none fails the entry must go. Empty now: every
// dtype TensorFlow's CPU kernels run has a kernel here; keep it so.
const std::map<std::string, std::set<std::string>> kDtypeGaps = {};

// Cases of what sg's kernels do not do at all, and why: they may fail, and must until the entry
// goes.
const std::map<std::string, std::string> kFeatureGaps = {
    {"RestoreV2.float.slice", "RestoreV2 restores whole tensors, not slices"},
    {"ParseExampleV2.none.ragged", "ParseExampleV2 has no ragged features"},
};

// ---- cases ---------------------------------------------------------------------------------

struct Case {
  std::string name;
  std::string op;     // the part before the first '.'
  std::string dtype;  // the part after it, when it names a dtype
  std::vector<NodeDef> nodes;
  std::vector<NodeDef> expects;  // Consts with _fetch
  std::vector<NodeDef> feeds;    // Consts with _feed
  std::vector<NodeDef> files;    // Consts with _path: written to ${TMP}/<_path> first
  const GraphDef* file = nullptr;  // versions and function library
};

std::string CasesDir() { return std::string(SG_SOURCE_DIR) + "/tests/oracle/op_cases"; }

const AttrValue* FindAttr(const NodeDef& n, const std::string& name) {
  auto it = n.attr().find(name);
  return it == n.attr().end() ? nullptr : &it->second;
}

struct Cases {
  std::vector<std::unique_ptr<GraphDef>> files;
  std::vector<Case> cases;
  std::vector<std::string> errors;
};

const Cases& LoadCases() {
  static const Cases* loaded = [] {
    auto* c = new Cases;
    std::vector<std::string> paths;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(CasesDir(), ec)) {
      const std::string p = e.path().string();
      if (absl::EndsWith(p, ".pb.gz")) paths.push_back(p);
    }
    if (ec) c->errors.push_back("cannot list " + CasesDir() + ": " + ec.message());
    std::sort(paths.begin(), paths.end());
    for (const std::string& p : paths) {
      std::string bytes;
      auto g = std::make_unique<GraphDef>();
      absl::Status st = ReadGzip(p, &bytes);
      if (st.ok() && !g->ParseFromString(bytes)) st = absl::DataLossError("bad GraphDef " + p);
      if (!st.ok()) {
        c->errors.push_back(std::string(st.message()));
        continue;
      }
      std::map<std::string, size_t> index;
      for (const NodeDef& n : g->node()) {
        const std::string name = n.name().substr(0, n.name().find('/'));
        auto [it, added] = index.emplace(name, c->cases.size());
        if (added) {
          Case k;
          k.name = name;
          std::vector<std::string> parts = absl::StrSplit(name, '.');
          k.op = parts[0];
          DataType dt;
          if (parts.size() > 1 && DataTypeFromString(parts[1], &dt)) k.dtype = parts[1];
          k.file = g.get();
          c->cases.push_back(std::move(k));
        }
        Case& k = c->cases[it->second];
        if (FindAttr(n, "_fetch") != nullptr) {
          k.expects.push_back(n);
        } else if (FindAttr(n, "_feed") != nullptr) {
          k.feeds.push_back(n);
        } else if (FindAttr(n, "_path") != nullptr) {
          k.files.push_back(n);
        } else {
          k.nodes.push_back(n);
        }
      }
      c->files.push_back(std::move(g));
    }
    return c;
  }();
  return *loaded;
}

// ---- comparison ----------------------------------------------------------------------------

struct Tolerance {
  double rtol, atol;
};

// float32 to about ten ulps, half and bfloat16 to about one, double to far less than TensorFlow
// and sg could differ by summing in another order.
Tolerance DefaultTolerance(DataType dt) {
  switch (dt) {
    case DT_FLOAT:
    case DT_COMPLEX64: return {1e-5, 1e-6};
    case DT_DOUBLE:
    case DT_COMPLEX128: return {1e-10, 1e-12};
    case DT_HALF: return {2e-3, 2e-3};
    case DT_BFLOAT16: return {1.6e-2, 1.6e-2};
    default: return {0, 0};
  }
}

bool Close(double got, double want, const Tolerance& tol) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want) || std::isinf(got)) return got == want;
  return std::fabs(got - want) <= tol.atol + tol.rtol * std::fabs(want);
}

template <typename T>
std::string Show(const T& v) {
  if constexpr (std::is_same<T, tstring>::value) {
    return "\"" + absl::CHexEscape(v) + "\"";
  } else if constexpr (std::is_same<T, complex64>::value || std::is_same<T, complex128>::value) {
    return absl::StrCat("(", v.real(), ",", v.imag(), ")");
  } else if constexpr (std::is_same<T, half>::value || std::is_same<T, bfloat16>::value) {
    return absl::StrCat(static_cast<float>(v));
  } else if constexpr (std::is_same<T, bool>::value) {
    return v ? "true" : "false";
  } else {
    return absl::StrCat(+v);
  }
}

template <typename T>
bool ElementMatches(const T& got, const T& want, const Tolerance& tol) {
  if constexpr (std::is_same<T, complex64>::value || std::is_same<T, complex128>::value) {
    return Close(got.real(), want.real(), tol) && Close(got.imag(), want.imag(), tol);
  } else if constexpr (std::is_floating_point<T>::value || std::is_same<T, half>::value ||
                       std::is_same<T, bfloat16>::value) {
    return Close(static_cast<double>(got), static_cast<double>(want), tol);
  } else {
    return got == want;
  }
}

// Empty when `got` matches `want`; else what differs (the first few elements).
std::string CompareTensors(const Tensor& got, const Tensor& want, const Tolerance& tol) {
  if (got.dtype() != want.dtype()) {
    return absl::StrCat("dtype ", DataTypeString(got.dtype()), ", expected ",
                        DataTypeString(want.dtype()));
  }
  if (got.shape() != want.shape()) {
    return absl::StrCat("shape ", got.shape().DebugString(), ", expected ",
                        want.shape().DebugString());
  }
  std::string diff;
  // The quantized types compare as the integers that hold them.
  DataType holder = want.dtype();
  switch (holder) {
    case DT_QINT8: holder = DT_INT8; break;
    case DT_QUINT8: holder = DT_UINT8; break;
    case DT_QINT16: holder = DT_INT16; break;
    case DT_QUINT16: holder = DT_UINT16; break;
    case DT_QINT32: holder = DT_INT32; break;
    default: break;
  }
  bool known = DispatchAll(holder, [&](auto tag) {
    using T = decltype(tag);
    int64_t bad = 0;
    for (int64_t i = 0; i < want.NumElements(); ++i) {
      const T& g = got.data<T>()[i];
      const T& w = want.data<T>()[i];
      if (ElementMatches(g, w, tol)) continue;
      if (++bad <= 4) absl::StrAppend(&diff, " [", i, "] ", Show(g), " vs ", Show(w), ";");
    }
    if (bad > 0) {
      diff = absl::StrCat(bad, " of ", want.NumElements(), " elements differ (got vs expected,",
                          " rtol ", tol.rtol, " atol ", tol.atol, "):", diff);
    }
  });
  if (!known) return "cannot compare dtype " + DataTypeString(want.dtype());
  return diff;
}

template <typename T>
void Moments(const Tensor& t, double* lo, double* hi, double* mean, double* std) {
  *lo = INFINITY, *hi = -INFINITY;
  double sum = 0, sum2 = 0;
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    const double v = static_cast<double>(t.data<T>()[i]);
    *lo = std::min(*lo, v), *hi = std::max(*hi, v);
    sum += v, sum2 += v * v;
  }
  const double n = std::max<double>(1, t.NumElements());
  *mean = sum / n;
  *std = std::sqrt(std::max(0.0, sum2 / n - *mean * *mean));
}

// "range": dtype, shape and every element in [_lo, _hi]; "moments": also the mean and standard
// deviation within _atol of _mean and _std.
std::string CheckStatistics(const Tensor& got, const Tensor& want, const NodeDef& expect,
                            const std::string& check) {
  if (got.dtype() != want.dtype() || got.shape() != want.shape()) {
    return CompareTensors(got, want, {0, 0});
  }
  double lo, hi, mean, std;
  auto moments = [&](auto tag) { Moments<decltype(tag)>(got, &lo, &hi, &mean, &std); };
  bool known = got.dtype() == DT_BFLOAT16 ? (moments(bfloat16{}), true)
                                          : DispatchReal(got.dtype(), moments);
  if (!known) return "cannot check the range of dtype " + DataTypeString(got.dtype());
  auto attr = [&](const char* name) {
    const AttrValue* a = FindAttr(expect, name);
    return a == nullptr ? NAN : a->f();
  };
  std::string diff;
  if (got.NumElements() > 0 && (lo < attr("_lo") || hi > attr("_hi"))) {
    absl::StrAppend(&diff, "values in [", lo, ", ", hi, "], expected within [", attr("_lo"),
                    ", ", attr("_hi"), "]; ");
  }
  if (check == "moments") {
    const double tol = attr("_atol");
    if (!(std::fabs(mean - attr("_mean")) <= tol) || !(std::fabs(std - attr("_std")) <= tol)) {
      absl::StrAppend(&diff, "mean ", mean, " std ", std, ", expected ", attr("_mean"), " and ",
                      attr("_std"), " within ", tol);
    }
  }
  return diff;
}

// ---- running -------------------------------------------------------------------------------

// Runs one case; returns what went wrong (empty when it matches TensorFlow).
std::vector<std::string> RunCase(const Case& c) {
  std::vector<std::string> problems;
  GraphDef g;
  *g.mutable_versions() = c.file->versions();
  *g.mutable_library() = c.file->library();
  for (const NodeDef& n : c.nodes) *g.add_node() = n;

  fs::path tmp;
  auto make_tmp = [&] {
    if (!tmp.empty()) return;
    // The process's id in the name: ctest runs this binary as several entries at once
    // (op_conformance_v2_test, ..._optimized_test), whose cases have the same names.
    tmp = fs::path(::testing::TempDir()) /
          ("op_conformance_" + std::to_string(getpid()) + "_" + c.name);
    fs::remove_all(tmp);
    fs::create_directories(tmp);
  };
  for (const NodeDef& f : c.files) {
    auto t = Tensor::FromProto(FindAttr(f, "value")->tensor());
    if (!t.ok() || t->dtype() != DT_STRING || t->NumElements() != 1) {
      return {"bad file node " + f.name()};
    }
    make_tmp();
    std::ofstream out(tmp / FindAttr(f, "_path")->s(), std::ios::binary);
    out << t->data<tstring>()[0];
    if (!out) return {"cannot write the file of " + f.name()};
  }
  std::vector<std::pair<std::string, Tensor>> feeds;
  for (const NodeDef& f : c.feeds) {
    auto t = Tensor::FromProto(FindAttr(f, "value")->tensor());
    if (!t.ok()) return {"bad feed " + f.name() + ": " + std::string(t.status().message())};
    if (t->dtype() == DT_STRING) {
      for (int64_t i = 0; i < t->NumElements(); ++i) {
        tstring& s = t->data<tstring>()[i];
        if (s.find("${TMP}") == std::string::npos) continue;
        make_tmp();
        s = absl::StrReplaceAll(s, {{"${TMP}", tmp.string()}});
      }
    }
    feeds.emplace_back(FindAttr(f, "_feed")->s(), *t);
  }
  std::vector<std::string> fetches, targets;
  for (const NodeDef& e : c.expects) {
    fetches.push_back(FindAttr(e, "_fetch")->s());
    if (const AttrValue* t = FindAttr(e, "_targets")) {
      for (const std::string& s : t->list().s()) targets.push_back(s);
    }
  }

  std::unique_ptr<Session> session;
  SessionOptions opts;
  opts.config.set_intra_op_parallelism_threads(2);
  opts.config.set_inter_op_parallelism_threads(2);
  // The cases' inputs are Consts: with the graph optimiser on, constant folding computes each
  // op once, on a one-thread device, when the step is built. Off (by default here), the kernels
  // run in the step on the session's pool, as they do in real graphs; on
  // (SG_OP_CONFORMANCE_OPTIMIZED=1, the ctest entry op_conformance_optimized_test), every case
  // checks constant folding's evaluation and Consts instead.
  if (std::getenv("SG_OP_CONFORMANCE_OPTIMIZED") == nullptr) {
    opts.config.mutable_graph_options()->mutable_optimizer_options()->set_opt_level(
        OptimizerOptions::L0);
  }
  absl::Status st = NewSession(opts, &session);
  if (st.ok()) st = session->Create(g);
  std::vector<Tensor> outputs;
  if (st.ok()) {
    RunOptions run_options;
    run_options.set_timeout_in_ms(60000);
    st = session->Run(run_options, feeds, fetches, targets, &outputs, nullptr);
  }
  if (session) session->Close().IgnoreError();
  if (!tmp.empty()) fs::remove_all(tmp);

  const AttrValue* want_error = FindAttr(c.expects.at(0), "_error");
  if (want_error != nullptr) {
    if (st.ok()) {
      problems.push_back(absl::StrCat("ran, but TensorFlow fails with code ", want_error->i()));
    } else if (want_error->i() >= 0 && static_cast<int>(st.code()) != want_error->i()) {
      problems.push_back(absl::StrCat("error code ", static_cast<int>(st.code()),
                                      ", TensorFlow's is ", want_error->i(), ": ",
                                      st.message()));
    }
    return problems;
  }
  if (!st.ok()) return {std::string(absl::StatusCodeToString(st.code())) + ": " +
                        std::string(st.message())};
  for (size_t i = 0; i < c.expects.size(); ++i) {
    const NodeDef& e = c.expects[i];
    auto want = Tensor::FromProto(FindAttr(e, "value")->tensor());
    if (!want.ok()) {
      problems.push_back("bad expectation " + e.name());
      continue;
    }
    const AttrValue* check = FindAttr(e, "_check");
    std::string diff;
    if (check != nullptr && check->s() != "value") {
      diff = CheckStatistics(outputs[i], *want, e, check->s());
    } else {
      Tolerance tol = DefaultTolerance(want->dtype());
      if (const AttrValue* a = FindAttr(e, "_rtol")) tol.rtol = a->f();
      if (const AttrValue* a = FindAttr(e, "_atol")) tol.atol = a->f();
      diff = CompareTensors(outputs[i], *want, tol);
    }
    if (!diff.empty()) problems.push_back(fetches[i] + ": " + diff);
  }
  return problems;
}

struct Report {
  int checked = 0;                      // cases run and compared
  std::set<std::string> ops;            // op types in the cases run
  std::vector<std::string> failures;    // "case: problem"
  std::map<std::string, std::set<std::string>> gaps_seen;  // op -> dtypes that failed as listed
  std::set<std::string> feature_gaps_seen;                 // kFeatureGaps cases that failed
  double seconds = 0;
};

bool IsGap(const Case& c) {
  if (kFeatureGaps.count(c.name) > 0) return true;
  auto it = kDtypeGaps.find(c.op);
  return !c.dtype.empty() && it != kDtypeGaps.end() && it->second.count(c.dtype) > 0;
}

const Report& RunAll() {
  static const Report* report = [] {
    auto* r = new Report;
    const auto start = std::chrono::steady_clock::now();
    const Cases& cases = LoadCases();
    for (const std::string& e : cases.errors) r->failures.push_back(e);
    // Optional filter for working on one op: SG_OP_CASES=Conv2D,MaxPool.
    std::set<std::string> only;
    if (const char* env = std::getenv("SG_OP_CASES")) only = absl::StrSplit(env, ',');
    for (const Case& c : cases.cases) {
      if (!only.empty() && only.count(c.op) == 0 && only.count(c.name) == 0 &&
          std::none_of(c.nodes.begin(), c.nodes.end(),
                       [&](const NodeDef& n) { return only.count(n.op()) > 0; })) {
        continue;
      }
      std::vector<std::string> problems = RunCase(c);
      // A case of a listed gap that passes anyway (AddN of one input forwards it) counts as
      // checked; the entry goes stale when none of its cases fails.
      if (IsGap(c) && !problems.empty()) {
        if (kFeatureGaps.count(c.name) > 0) {
          r->feature_gaps_seen.insert(c.name);
        } else {
          r->gaps_seen[c.op].insert(c.dtype);
        }
        continue;
      }
      ++r->checked;
      for (const NodeDef& n : c.nodes) r->ops.insert(n.op());
      for (const std::string& p : problems) r->failures.push_back(c.name + ": " + p);
    }
    for (const auto& g : cases.files) {
      for (const FunctionDef& f : g->library().function()) {
        for (const NodeDef& n : f.node_def()) r->ops.insert(n.op());
      }
    }
    r->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
  }();
  return *report;
}

std::vector<std::string> RegisteredOps() { return OpRegistry::Global()->ListOpNames(); }

// ---- tests ---------------------------------------------------------------------------------

TEST(OpConformance, EveryCaseMatchesTensorFlow) {
  const Report& r = RunAll();
  std::set<std::string> registered;
  for (const std::string& op : RegisteredOps()) registered.insert(op);
  int ops = 0;
  for (const std::string& op : r.ops) ops += registered.count(op);
  EXPECT_GT(r.checked, 0) << "no cases under " << CasesDir();
  for (const std::string& f : r.failures) ADD_FAILURE() << f;
  std::printf("op conformance: %d ops, %d cases checked (%zu failed) in %.1f s\n", ops, r.checked,
              r.failures.size(), r.seconds);
  std::printf("op conformance: dtypes TensorFlow runs and sg's kernels lack:");
  for (const auto& [op, dtypes] : r.gaps_seen) {
    std::printf(" %s(%s)", op.c_str(), absl::StrJoin(dtypes, ",").c_str());
  }
  std::printf("\n");
  for (const std::string& name : r.feature_gaps_seen) {
    std::printf("op conformance: not supported: %s (%s)\n", name.c_str(),
                kFeatureGaps.at(name).c_str());
  }
}

TEST(OpConformance, EveryRegisteredOpHasCasesOrAnExclusion) {
  if (std::getenv("SG_OP_CASES") != nullptr) GTEST_SKIP() << "SG_OP_CASES filters the cases";
  const Report& r = RunAll();
  std::vector<std::string> missing;
  for (const std::string& op : RegisteredOps()) {
    const bool covered = r.ops.count(op) > 0;
    auto ex = kExcluded.find(op);
    auto through = kCoveredThrough.find(op);
    if (ex != kExcluded.end()) {
      EXPECT_FALSE(covered) << op << " has cases now: drop its exclusion";
      std::printf("op conformance: excluded %s: %s\n", op.c_str(), ex->second.c_str());
    } else if (through != kCoveredThrough.end()) {
      EXPECT_TRUE(r.ops.count(through->second) > 0)
          << op << " is covered through " << through->second << ", which has no case";
      std::printf("op conformance: %s runs inside the cases of %s\n", op.c_str(),
                  through->second.c_str());
    } else if (!covered) {
      missing.push_back(op);
    }
  }
  EXPECT_TRUE(missing.empty()) << "ops sg registers without a case (add cases to "
                                  "tests/oracle/make_op_cases.py, or an exclusion with its "
                                  "reason): "
                               << absl::StrJoin(missing, " ");
}

// Each listed gap still fails somewhere: when sg gains the dtype or feature, its entry goes.
TEST(OpConformance, GapListsAreCurrent) {
  if (std::getenv("SG_OP_CASES") != nullptr) GTEST_SKIP() << "SG_OP_CASES filters the cases";
  const Report& r = RunAll();
  for (const auto& [name, why] : kFeatureGaps) {
    EXPECT_TRUE(r.feature_gaps_seen.count(name) > 0)
        << "kFeatureGaps lists " << name << ", which passes now (or has no case)";
  }
  for (const auto& [op, dtypes] : kDtypeGaps) {
    for (const std::string& dt : dtypes) {
      auto it = r.gaps_seen.find(op);
      EXPECT_TRUE(it != r.gaps_seen.end() && it->second.count(dt) > 0)
          << "kDtypeGaps lists " << op << " " << dt
          << ", whose cases all pass now (or which has no case)";
    }
  }
}

}  // namespace
}  // namespace sg
