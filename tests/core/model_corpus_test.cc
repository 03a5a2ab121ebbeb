// The model corpus (tests/oracle/make_corpus.py, tests/oracle/README.md): models written by
// TensorFlow 2.21 as TensorFlow writes them, run through sg and compared with TensorFlow's
// outputs. Frozen GraphDefs run in a DirectSession; TF2 SavedModels are loaded with
// LoadSavedModel and run through their signature, feeds and fetches named by signature keys.
//
// Cases come from two directories: tests/oracle/corpus (small models, committed) and, when the
// environment names it (SG_MODEL_CORPUS_GENERATED, set by ctest), the Keras applications the
// `model_corpus_generate` fixture writes into the build tree when the TensorFlow oracle's venv is
// there. Each case runs in a child process, so that a crash or a hang in one case is that case's
// failure and the others still run.
//
// Floats compare within the case's rtol/atol (|got - want| <= atol + rtol * |want|; 1e-4 / 1e-4
// unless case.json says otherwise, with its reason); integers, bools and strings exactly.
//
// What fails today is listed in kExpectedFailures, each with its reason: the test fails on a
// failure that is not listed, and on a listed case that now passes (so the list stays tight).
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/framework/op.h"
#include "core/framework/op_kernel.h"
#include "core/framework/tensor.h"
#include "core/framework/types.h"
#include "core/graph/graph_constructor.h"
#include "core/proto/graph.pb.h"
#include "core/runtime/saved_model.h"
#include "core/runtime/session.h"
#include "tests/core/npy_tensor.h"

namespace sg {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// ---- what fails today ---------------------------------------------------------------------------

struct ExpectedFailure {
  const char* name;    // the case, as in its case.json
  const char* reason;  // why it fails: the missing op or feature
};

// Empty today: every case passes. A case that cannot pass yet goes here with its reason, e.g.
//   {"image_jpeg.frozen", "Assert (central_crop's check of the image's size)"},
const std::vector<ExpectedFailure> kExpectedFailures = {};

const ExpectedFailure* FindExpectedFailure(const std::string& name) {
  for (const auto& e : kExpectedFailures) {
    if (name == e.name) return &e;
  }
  return nullptr;
}

// ---- reading a case -----------------------------------------------------------------------------

struct TensorRef {
  std::string name;  // graph tensor ("x:0") or signature key
  std::string file;
};

struct Run {
  std::vector<TensorRef> feeds, fetches;
};

struct Case {
  std::string dir;
  json meta;
  std::string name, form;
  double rtol = 1e-4, atol = 1e-4;
  std::vector<Run> runs;
};

absl::Status ReadCase(const std::string& dir, Case* c) {
  std::ifstream in(dir + "/case.json");
  if (!in) return absl::NotFoundError("no case.json in " + dir);
  c->meta = json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (c->meta.is_discarded() || !c->meta.is_object()) {
    return absl::InvalidArgumentError(dir + "/case.json does not parse");
  }
  c->dir = dir;
  c->name = c->meta.value("name", fs::path(dir).filename().string());
  c->form = c->meta.value("form", "");
  c->rtol = c->meta.value("rtol", 1e-4);
  c->atol = c->meta.value("atol", 1e-4);
  for (const json& r : c->meta.value("runs", json::array())) {
    Run run;
    for (const json& f : r.value("feeds", json::array())) {
      run.feeds.push_back({f.value("name", ""), f.value("file", "")});
    }
    for (const json& f : r.value("fetches", json::array())) {
      run.fetches.push_back({f.value("name", ""), f.value("file", "")});
    }
    c->runs.push_back(std::move(run));
  }
  if (c->form != "frozen" && c->form != "saved_model") {
    return absl::InvalidArgumentError(c->name + ": unknown form '" + c->form + "'");
  }
  return absl::OkStatus();
}

// ---- running a case -----------------------------------------------------------------------------

SessionOptions CorpusSessionOptions() {
  SessionOptions opts;
  opts.config.set_operation_timeout_in_ms(300000);
  return opts;
}

// Runs every run of `c`; OK when all outputs match. `max_err` is the largest float difference.
absl::Status RunCase(const Case& c, double* max_err) {
  std::unique_ptr<Session> session;
  std::map<std::string, std::string> input_names, output_names;  // key -> tensor (SavedModel)
  const std::string model = c.dir + "/" + c.meta.value("model", "");
  if (c.form == "frozen") {
    std::ifstream in(model, std::ios::binary);
    if (!in) return absl::NotFoundError("cannot read " + model);
    std::stringstream bytes;
    bytes << in.rdbuf();
    GraphDef gdef;
    SG_RETURN_IF_ERROR(ParseGraphDef(bytes.str(), &gdef));
    SG_RETURN_IF_ERROR(NewSession(CorpusSessionOptions(), &session));
    absl::Status s = session->Create(gdef);
    if (!s.ok()) return absl::Status(s.code(), "creating the session: " + std::string(s.message()));
  } else {
    MetaGraphDef meta;
    std::vector<std::string> tags = c.meta.value("tags", std::vector<std::string>{"serve"});
    absl::Status s = LoadSavedModel(CorpusSessionOptions(), RunOptions(), model,
                                    {tags.begin(), tags.end()}, &session, &meta);
    if (!s.ok()) return absl::Status(s.code(), "loading the SavedModel: " + std::string(s.message()));
    const std::string key = c.meta.value("signature", kDefaultServingSignatureDefKey);
    auto sig = meta.signature_def().find(key);
    if (sig == meta.signature_def().end()) {
      return absl::NotFoundError("the SavedModel has no signature '" + key + "'");
    }
    for (const auto& [k, info] : sig->second.inputs()) input_names[k] = info.name();
    for (const auto& [k, info] : sig->second.outputs()) output_names[k] = info.name();
  }
  auto tensor_name = [&](const std::map<std::string, std::string>& keys,
                         const std::string& name) -> absl::StatusOr<std::string> {
    if (c.form == "frozen") return name;
    auto it = keys.find(name);
    if (it == keys.end()) return absl::NotFoundError("the signature has no key '" + name + "'");
    return it->second;
  };

  for (size_t r = 0; r < c.runs.size(); ++r) {
    const Run& run = c.runs[r];
    const std::string where = "run " + std::to_string(r);
    std::vector<std::pair<std::string, Tensor>> feeds;
    for (const TensorRef& f : run.feeds) {
      Tensor t;
      SG_RETURN_IF_ERROR(ReadTensor(c.dir + "/" + f.file, &t));
      absl::StatusOr<std::string> name = tensor_name(input_names, f.name);
      if (!name.ok()) return name.status();
      feeds.emplace_back(*name, std::move(t));
    }
    std::vector<std::string> fetches;
    for (const TensorRef& f : run.fetches) {
      absl::StatusOr<std::string> name = tensor_name(output_names, f.name);
      if (!name.ok()) return name.status();
      fetches.push_back(*name);
    }
    std::vector<Tensor> outputs;
    absl::Status s = session->Run(RunOptions(), feeds, fetches, {}, &outputs, nullptr);
    if (!s.ok()) return absl::Status(s.code(), where + ": " + std::string(s.message()));
    for (size_t i = 0; i < run.fetches.size(); ++i) {
      Tensor want;
      SG_RETURN_IF_ERROR(ReadTensor(c.dir + "/" + run.fetches[i].file, &want));
      absl::Status cmp = Compare(outputs[i], want, c.rtol, c.atol, max_err);
      if (!cmp.ok()) {
        return absl::Status(cmp.code(), where + ", output '" + run.fetches[i].name + "': " +
                                            std::string(cmp.message()));
      }
    }
  }
  return session->Close();
}

// ---- why a case fails: what in its graph sg does not know ---------------------------------------

struct Census {
  std::set<std::string> missing_ops;   // op types sg does not register
  std::set<std::string> unknown_attrs;  // "Op.attr": attrs sg's OpDef of a known op lacks
  std::set<std::string> no_kernel;      // registered ops without a CPU kernel
};

// Ops sg replaces before it runs a graph (function calls are inlined; functional control flow is
// lowered to frames), so they need no kernel.
bool RewrittenAway(const std::string& op) {
  static const std::set<std::string> kOps = {"PartitionedCall", "StatefulPartitionedCall",
                                             "While", "StatelessWhile", "If", "StatelessIf",
                                             "Case", "StatelessCase"};
  return kOps.count(op) > 0;
}

absl::Status ModelGraph(const Case& c, GraphDef* gdef) {
  const std::string model = c.dir + "/" + c.meta.value("model", "");
  if (c.form == "frozen") {
    std::ifstream in(model, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    return ParseGraphDef(bytes.str(), gdef);
  }
  SavedModel sm;
  SG_RETURN_IF_ERROR(ReadSavedModel(model, &sm));
  MetaGraphDef meta;
  std::vector<std::string> tags = c.meta.value("tags", std::vector<std::string>{"serve"});
  SG_RETURN_IF_ERROR(FindMetaGraphDef(sm, {tags.begin(), tags.end()}, model, &meta));
  *gdef = meta.graph_def();
  return absl::OkStatus();
}

// Every node of the graph and of its functions, against sg's op and kernel registries.
Census TakeCensus(const GraphDef& gdef) {
  Census census;
  std::set<std::string> functions;
  for (const FunctionDef& f : gdef.library().function()) functions.insert(f.signature().name());
  auto check = [&](const NodeDef& node) {
    if (functions.count(node.op())) return;
    const OpRegistrationData* op = OpRegistry::Global()->LookUp(node.op());
    if (op == nullptr) {
      census.missing_ops.insert(node.op());
      return;
    }
    for (const auto& [name, value] : node.attr()) {
      if (name.empty() || name[0] == '_') continue;  // internal attrs are not in OpDefs
      bool found = false;
      for (const auto& a : op->op_def.attr()) found = found || a.name() == name;
      if (!found) census.unknown_attrs.insert(node.op() + "." + name);
    }
    if (!KernelRegistry::Global()->HasKernel(node.op()) && !RewrittenAway(node.op())) {
      census.no_kernel.insert(node.op());
    }
  };
  for (const NodeDef& n : gdef.node()) check(n);
  for (const FunctionDef& f : gdef.library().function()) {
    for (const NodeDef& n : f.node_def()) check(n);
  }
  return census;
}

std::string Join(const std::set<std::string>& items) {
  std::string s;
  for (const std::string& i : items) s += (s.empty() ? "" : ", ") + i;
  return s;
}

// "missing ops: A, B; attrs sg lacks: Op.x; no CPU kernel: While", or "" when sg knows it all.
std::string CensusLine(const Census& c) {
  std::string s;
  if (!c.missing_ops.empty()) s += "missing ops: " + Join(c.missing_ops);
  if (!c.unknown_attrs.empty()) s += std::string(s.empty() ? "" : "; ") + "attrs sg lacks: " + Join(c.unknown_attrs);
  if (!c.no_kernel.empty()) s += std::string(s.empty() ? "" : "; ") + "no CPU kernel: " + Join(c.no_kernel);
  return s;
}

Census ParseCensusLine(const std::string& line) {
  Census c;
  std::istringstream parts(line);
  std::string part;
  while (std::getline(parts, part, ';')) {
    part.erase(0, part.find_first_not_of(' '));
    const size_t colon = part.find(": ");
    if (colon == std::string::npos) continue;
    const std::string what = part.substr(0, colon);
    std::set<std::string>* into = what == "missing ops" ? &c.missing_ops
                                  : what == "attrs sg lacks" ? &c.unknown_attrs
                                  : what == "no CPU kernel" ? &c.no_kernel : nullptr;
    if (into == nullptr) continue;
    std::istringstream items(part.substr(colon + 2));
    std::string item;
    while (std::getline(items, item, ',')) {
      item.erase(0, item.find_first_not_of(' '));
      if (!item.empty()) into->insert(item);
    }
  }
  return c;
}

struct Result {
  std::string name;
  bool passed = false;
  std::string error;   // first error, one line
  std::string census;  // for a failure: CensusLine of its graph
  double max_err = 0;
  double seconds = 0;
};

std::string OneLine(std::string s) {
  for (char& ch : s) {
    if (ch == '\n' || ch == '\r') ch = ' ';
  }
  constexpr size_t kMax = 600;
  if (s.size() > kMax) s = s.substr(0, kMax) + "...";
  return s;
}

// Runs `c` in a child process: a crash, a sanitizer report or a hang fails the case only.
Result RunCaseIsolated(const Case& c, int timeout_seconds) {
  Result result;
  result.name = c.name;
  const auto start = std::chrono::steady_clock::now();
  int fds[2];
  if (pipe(fds) != 0) {
    result.error = "pipe failed";
    return result;
  }
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = fork();
  if (pid < 0) {
    result.error = "fork failed";
    return result;
  }
  if (pid == 0) {
    close(fds[0]);
    double max_err = 0;
    absl::Status s = RunCase(c, &max_err);
    std::string report = (s.ok() ? "PASS " : "FAIL ") + Num(max_err) + " " +
                         (s.ok() ? "" : OneLine(s.ToString()));
    GraphDef gdef;
    if (!s.ok() && ModelGraph(c, &gdef).ok()) report += "\n" + CensusLine(TakeCensus(gdef));
    const char* p = report.data();
    size_t left = report.size();
    while (left > 0) {
      const ssize_t n = write(fds[1], p, left);
      if (n <= 0) break;
      p += n;
      left -= n;
    }
    close(fds[1]);
    std::exit(0);  // exit (not _exit): LeakSanitizer checks the child too
  }
  close(fds[1]);
  auto left_ms = [&] {
    const auto elapsed = std::chrono::steady_clock::now() - start;
    return timeout_seconds * 1000 -
           static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count());
  };
  std::string report;
  bool timed_out = false;
  char buf[4096];
  for (;;) {  // the report, until EOF (the child closed the pipe or died)
    if (left_ms() <= 0) {
      timed_out = true;
      break;
    }
    pollfd pfd{fds[0], POLLIN, 0};
    if (poll(&pfd, 1, left_ms()) <= 0) continue;
    const ssize_t n = read(fds[0], buf, sizeof(buf));
    if (n <= 0) break;
    report.append(buf, n);
  }
  close(fds[0]);
  int status = 0;
  while (!timed_out && waitpid(pid, &status, WNOHANG) == 0) {  // its exit, within the time left
    if (left_ms() <= 0) timed_out = true;
    usleep(10000);
  }
  if (timed_out) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (timed_out) {
    result.error = "timed out after " + std::to_string(timeout_seconds) + " s";
  } else if (WIFSIGNALED(status)) {
    result.error = std::string("crashed: signal ") + std::to_string(WTERMSIG(status)) + " (" +
                   strsignal(WTERMSIG(status)) + ")";
  } else if (report.rfind("PASS ", 0) == 0 || report.rfind("FAIL ", 0) == 0) {
    std::istringstream in(report.substr(5));
    in >> result.max_err;
    std::getline(in, result.error);
    std::getline(in, result.census);
    if (!result.error.empty() && result.error[0] == ' ') result.error.erase(0, 1);
    result.passed = report[0] == 'P';
    if (result.passed && (!WIFEXITED(status) || WEXITSTATUS(status) != 0)) {
      result.passed = false;
      result.error = "exited with status " + std::to_string(WEXITSTATUS(status)) +
                     " after passing (a sanitizer report above?)";
    }
  } else {
    result.error = "the child exited with status " + std::to_string(WEXITSTATUS(status)) +
                   " without a report";
  }
  return result;
}

// ---- the corpus ---------------------------------------------------------------------------------

std::vector<std::string> CaseDirs(const std::string& root) {
  std::vector<std::string> dirs;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(root, ec)) {
    if (e.is_directory() && fs::exists(e.path() / "case.json")) dirs.push_back(e.path().string());
  }
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

TEST(ModelCorpus, RunsLikeTensorFlow) {
  std::vector<std::string> roots = {std::string(SG_SOURCE_DIR) + "/tests/oracle/corpus"};
  std::vector<std::string> skipped_notes;
  if (const char* gen = std::getenv("SG_MODEL_CORPUS_GENERATED")) {
    const std::string skipped_file = std::string(gen) + "/SKIPPED";
    std::ifstream skipped(skipped_file);
    std::string reason;
    if (skipped && std::getline(skipped, reason)) {
      skipped_notes.push_back("the Keras applications (generated at test time): " + reason);
    } else if (CaseDirs(gen).empty()) {
      skipped_notes.push_back(std::string("the Keras applications: ") + gen +
                              " holds no cases (the model_corpus_generate fixture did not run)");
    } else {
      roots.push_back(gen);
    }
  } else {
    skipped_notes.push_back(
        "the Keras applications: SG_MODEL_CORPUS_GENERATED is not set (ctest sets it outside "
        "sanitizer builds)");
  }
  const char* only = std::getenv("SG_MODEL_CORPUS_ONLY");  // a substring of case names, to debug

  std::vector<Result> results;
  int skipped = 0;
  for (const std::string& root : roots) {
    for (const std::string& dir : CaseDirs(root)) {
      Case c;
      absl::Status s = ReadCase(dir, &c);
      if (only != nullptr && c.name.find(only) == std::string::npos) {
        ++skipped;
        continue;
      }
      Result r;
      if (!s.ok()) {
        r.name = fs::path(dir).filename().string();
        r.error = OneLine(s.ToString());
      } else {
        r = RunCaseIsolated(c, c.meta.value("timeout_seconds", 600));
      }
      const ExpectedFailure* xf = FindExpectedFailure(r.name);
      if (r.passed) {
        std::printf("PASS   %-40s max |diff| %-10s %.1f s%s\n", r.name.c_str(),
                    Num(r.max_err).c_str(), r.seconds,
                    xf ? "  (listed as an expected failure: remove it)" : "");
      } else {
        std::printf("%s %-40s %s\n", xf ? "XFAIL " : "FAIL  ", r.name.c_str(), r.error.c_str());
        if (!r.census.empty()) std::printf("       %-40s %s\n", "", r.census.c_str());
        if (xf) std::printf("       %-40s expected: %s\n", "", xf->reason);
      }
      std::fflush(stdout);
      results.push_back(std::move(r));
    }
  }
  for (const std::string& note : skipped_notes) std::printf("skipped: %s\n", note.c_str());

  int passed = 0, failed = 0, expected = 0;
  std::vector<std::string> unexpected_failures, unexpected_passes;
  for (const Result& r : results) {
    const ExpectedFailure* xf = FindExpectedFailure(r.name);
    if (r.passed) {
      ++passed;
      if (xf) unexpected_passes.push_back(r.name);
    } else {
      ++failed;
      if (xf) {
        ++expected;
      } else {
        unexpected_failures.push_back(r.name + ": " + r.error);
      }
    }
  }
  // The failures by cause: each missing op or attr with the number of failing cases it is in.
  std::map<std::string, int> causes;
  for (const Result& r : results) {
    if (r.passed) continue;
    const Census c = ParseCensusLine(r.census);
    for (const auto& op : c.missing_ops) ++causes["missing op " + op];
    for (const auto& a : c.unknown_attrs) ++causes["attr sg's OpDef lacks " + a];
    for (const auto& op : c.no_kernel) ++causes["no CPU kernel for " + op];
  }
  if (!causes.empty()) std::printf("failing cases by cause (a case may have several):\n");
  for (const auto& [cause, n] : causes) std::printf("  %3d  %s\n", n, cause.c_str());
  std::printf("model corpus: %d passed, %d failed (%d skipped); %d of the failures expected\n",
              passed, failed, skipped + static_cast<int>(skipped_notes.size()), expected);
  for (const std::string& f : unexpected_failures) {
    ADD_FAILURE() << "unexpected failure (fix it, or list it in kExpectedFailures with its "
                     "reason): "
                  << f;
  }
  for (const std::string& p : unexpected_passes) {
    ADD_FAILURE() << p << " now passes: remove it from kExpectedFailures";
  }
  EXPECT_FALSE(results.empty()) << "no cases found under " << roots[0];
}

}  // namespace
}  // namespace sg
