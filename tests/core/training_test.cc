// Training graphs written by TensorFlow 2.21 (tests/oracle/make_training_cases.py, whose docstring
// gives the format), trained in sg: each case's GraphDef is a tf.compat.v1 model with its gradient
// graph and one of tf.compat.v1.train's optimizers, as TensorFlow's minimize() writes it. The test
// runs the init op, then the train op once per step with TensorFlow's batch for that step, and
// compares the loss of every step and each variable after the last step with TensorFlow's
// (|sg - tf| <= atol + rtol * |tf|, the case's tolerances).
//
// TrainingCheckpoint.TensorFlowReadsWhatSgWrote then saves the trained variables with the graph's
// own Saver (SaveV2) and has TensorFlow restore that checkpoint (tests/oracle/read_checkpoint.py):
// TensorFlow must read exactly the values sg holds. It needs the TensorFlow oracle's venv and
// says "skipped: ..." without it (ctest shows it as skipped).
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "absl/status/status.h"
#include "core/framework/tensor.h"
#include "core/graph/graph_constructor.h"
#include "core/proto/graph.pb.h"
#include "core/runtime/session.h"
#include "tests/core/npy_tensor.h"
#include "tools/npy.h"

namespace sg {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

std::string CasesDir() { return std::string(SG_SOURCE_DIR) + "/tests/oracle/training"; }

std::vector<std::string> CaseDirs() {
  std::vector<std::string> dirs;
  if (!fs::is_directory(CasesDir())) return dirs;
  for (const auto& e : fs::directory_iterator(CasesDir())) {
    // (replicated.* cases, one graph per worker, are tests/distributed/replicated_training_test's.)
    if (fs::exists(e.path() / "graph.pb.gz")) dirs.push_back(e.path().string());
  }
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

struct TrainingCase {
  std::string dir, name;
  json meta;
  double rtol = 1e-4, atol = 1e-5;
};

absl::Status ReadCase(const std::string& dir, TrainingCase* c) {
  std::ifstream in(dir + "/case.json");
  if (!in) return absl::NotFoundError("no case.json in " + dir);
  c->meta = json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (c->meta.is_discarded() || !c->meta.is_object()) {
    return absl::InvalidArgumentError(dir + "/case.json does not parse");
  }
  c->dir = dir;
  c->name = c->meta.value("name", fs::path(dir).filename().string());
  c->rtol = c->meta.value("rtol", 1e-4);
  c->atol = c->meta.value("atol", 1e-5);
  return absl::OkStatus();
}

absl::Status Wrap(const absl::Status& s, const std::string& what) {
  if (s.ok()) return s;
  return absl::Status(s.code(), what + ": " + std::string(s.message()));
}

// A session holding the case's graph, its variables initialized.
absl::Status StartSession(const TrainingCase& c, std::unique_ptr<Session>* session) {
  std::string bytes;
  SG_RETURN_IF_ERROR(ReadGzip(c.dir + "/graph.pb.gz", &bytes));
  GraphDef gdef;
  SG_RETURN_IF_ERROR(ParseGraphDef(bytes, &gdef));
  SessionOptions opts;
  opts.config.set_operation_timeout_in_ms(120000);
  SG_RETURN_IF_ERROR(NewSession(opts, session));
  SG_RETURN_IF_ERROR(Wrap((*session)->Create(gdef), "creating the session"));
  std::vector<Tensor> none;
  return Wrap((*session)->Run({}, {}, {c.meta.value("init", "init")}, &none), "running init");
}

// Runs every step; OK when each step's loss matches TensorFlow's. `max_err` is the largest
// float difference seen.
absl::Status Train(const TrainingCase& c, Session* session, double* max_err) {
  Tensor losses;
  SG_RETURN_IF_ERROR(ReadTensor(c.dir + "/" + c.meta.value("losses", "losses.npy"), &losses));
  const int steps = c.meta.value("steps", 0);
  const json& feeds = c.meta["feeds"];
  if (steps <= 0 || !feeds.is_array() || static_cast<int>(feeds.size()) != steps ||
      losses.NumElements() != steps) {
    return absl::InvalidArgumentError(c.name + ": steps, feeds and losses do not agree");
  }
  const std::string train_op = c.meta.value("train_op", "train");
  const std::string loss = c.meta.value("loss", "loss:0");
  for (int step = 0; step < steps; ++step) {
    std::vector<std::pair<std::string, Tensor>> inputs;
    for (const json& f : feeds[step]) {
      Tensor t;
      SG_RETURN_IF_ERROR(ReadTensor(c.dir + "/" + f.value("file", ""), &t));
      inputs.emplace_back(f.value("name", ""), std::move(t));
    }
    std::vector<Tensor> out;
    const std::string where = "step " + std::to_string(step);
    SG_RETURN_IF_ERROR(Wrap(session->Run(inputs, {loss}, {train_op}, &out), where));
    Tensor want(DT_FLOAT, TensorShape({}));
    want.data<float>()[0] = losses.data<float>()[step];
    SG_RETURN_IF_ERROR(Wrap(Compare(out[0], want, c.rtol, c.atol, max_err), where + ", loss"));
  }
  return absl::OkStatus();
}

// The variables' values after training, fetched through the graph's final/<var> Identities.
absl::Status FetchVariables(const TrainingCase& c, Session* session,
                            std::vector<Tensor>* values) {
  std::vector<std::string> fetches;
  for (const json& v : c.meta["variables"]) fetches.push_back(v.value("fetch", ""));
  return Wrap(session->Run({}, fetches, {}, values), "fetching the variables");
}

absl::Status CheckVariables(const TrainingCase& c, const std::vector<Tensor>& got,
                            double* max_err) {
  size_t i = 0;
  for (const json& v : c.meta["variables"]) {
    Tensor want;
    SG_RETURN_IF_ERROR(ReadTensor(c.dir + "/" + v.value("file", ""), &want));
    SG_RETURN_IF_ERROR(Wrap(Compare(got[i++], want, c.rtol, c.atol, max_err),
                            "variable " + v.value("name", "")));
  }
  return absl::OkStatus();
}

TEST(Training, StepsMatchTensorFlow) {
  const std::vector<std::string> dirs = CaseDirs();
  ASSERT_FALSE(dirs.empty()) << "no training cases under " << CasesDir();
  int passed = 0;
  for (const std::string& dir : dirs) {
    TrainingCase c;
    ASSERT_TRUE(ReadCase(dir, &c).ok()) << dir;
    double max_err = 0;
    std::unique_ptr<Session> session;
    std::vector<Tensor> values;
    absl::Status s = StartSession(c, &session);
    if (s.ok()) s = Train(c, session.get(), &max_err);
    if (s.ok()) s = FetchVariables(c, session.get(), &values);
    if (s.ok()) s = CheckVariables(c, values, &max_err);
    EXPECT_TRUE(s.ok()) << c.name << ": " << s.message();
    std::printf("%s %-36s largest |sg - tf| %.3g\n", s.ok() ? "PASS" : "FAIL", c.name.c_str(),
                max_err);
    passed += s.ok();
  }
  std::printf("training: %d of %zu cases match TensorFlow\n", passed, dirs.size());
}

// The venv's python (tests/oracle/setup_venv.sh), or "" when it is not there.
std::string OraclePython() {
  const char* venv = std::getenv("SG_ORACLE_VENV");
  std::string dir;
  if (venv != nullptr) {
    dir = venv;
  } else {
    const char* cache = std::getenv("XDG_CACHE_HOME");
    const char* home = std::getenv("HOME");
    if (cache != nullptr) {
      dir = std::string(cache) + "/sg/tf-oracle";
    } else if (home != nullptr) {
      dir = std::string(home) + "/.cache/sg/tf-oracle";
    }
  }
  const std::string py = dir + "/bin/python";
  return !dir.empty() && fs::exists(py) ? py : "";
}

absl::Status WriteValue(const std::string& path, const Tensor& t) {
  std::vector<int64_t> dims(t.shape().dim_sizes().begin(), t.shape().dim_sizes().end());
  std::string error;
  if (!sg_tool::WriteNpy(path, static_cast<SG_DataType>(t.dtype()), dims, t.raw_data(),
                         t.TotalBytes(), &error)) {
    return absl::InternalError(error);
  }
  return absl::OkStatus();
}

// Trains a case in sg, saves it with the graph's Saver, and has TensorFlow restore the checkpoint.
TEST(TrainingCheckpoint, TensorFlowReadsWhatSgWrote) {
  const std::string python = OraclePython();
  if (python.empty()) {
    GTEST_SKIP() << "skipped: no TensorFlow oracle venv (tests/oracle/setup_venv.sh makes it)";
  }
  const std::vector<std::string> names = {"mlp_embed.adam.ref", "mlp_embed.ftrl.resource",
                                          "cnn.momentum.resource"};
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    TrainingCase c;
    ASSERT_TRUE(ReadCase(CasesDir() + "/" + name, &c).ok());
    std::unique_ptr<Session> session;
    double max_err = 0;
    std::vector<Tensor> values;
    ASSERT_TRUE(StartSession(c, &session).ok());
    absl::Status s = Train(c, session.get(), &max_err);
    ASSERT_TRUE(s.ok()) << s.message();
    ASSERT_TRUE(FetchVariables(c, session.get(), &values).ok());

    const fs::path tmp = fs::path(::testing::TempDir()) /
                         ("sg_training_" + std::to_string(getpid()) + "_" + name);
    fs::remove_all(tmp);
    fs::create_directories(tmp);
    const std::string prefix = (tmp / "model.ckpt").string();
    Tensor filename(DT_STRING, TensorShape({}));
    filename.data<std::string>()[0] = prefix;
    const json& saver = c.meta["saver"];
    std::vector<Tensor> saved;
    s = session->Run({{saver.value("filename", ""), filename}}, {saver.value("save", "")}, {},
                     &saved);
    ASSERT_TRUE(s.ok()) << "saving: " << s.message();

    // The values sg holds, one .npy per variable, for the reader to compare with what it restores.
    std::string args;
    size_t i = 0;
    for (const json& v : c.meta["variables"]) {
      const std::string file = (tmp / ("sg." + v.value("name", "") + ".npy")).string();
      ASSERT_TRUE(WriteValue(file, values[i++]).ok());
      args += " '" + v.value("name", "") + "=" + file + "'";
    }
    const std::string cmd = "'" + python + "' '" + std::string(SG_SOURCE_DIR) +
                            "/tests/oracle/read_checkpoint.py' '" + prefix + "'" + args;
    const int rc = std::system(cmd.c_str());
    EXPECT_EQ(rc, 0) << "TensorFlow did not read back sg's checkpoint: " << cmd;
    fs::remove_all(tmp);
  }
}

}  // namespace
}  // namespace sg
