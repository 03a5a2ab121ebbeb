// Runs every graph of tests/testdata (made with real TensorFlow by make_testdata.py) through a
// DirectSession and compares each fetched tensor with TensorFlow's output in expected.json:
// dtype, shape, and values (floats within rtol 1e-5 / atol 1e-5, ints and bools exactly).
// Each graph's runs go in order through one session (variables.pb depends on it).
// A second test runs the whole digits test set (360 samples) through the frozen classifier and
// checks its probabilities against digits_tf_probs.npy and its accuracy against TensorFlow's.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/framework/tensor.h"
#include "core/framework/types.h"
#include "core/graph/graph_constructor.h"
#include "core/proto/graph.pb.h"
#include "core/runtime/session.h"

namespace sg {
namespace {

using json = nlohmann::json;

constexpr double kRtol = 1e-5;
constexpr double kAtol = 1e-5;

// The folders of graphs with an expected.json, below tests/: TensorFlow 1.x graphs (made with
// TensorFlow 2.15 in v1 mode) and graphs with TensorFlow 2's functional control flow (made by
// tests/oracle/make_tf2_graphs.py with TensorFlow 2.21).
constexpr const char* kGraphDirs[] = {"testdata", "oracle/tf2_graphs"};

std::string TestdataPath(const std::string& name) {
  return std::string(SG_SOURCE_DIR) + "/tests/testdata/" + name;
}

std::string TestsPath(const std::string& name) {
  return std::string(SG_SOURCE_DIR) + "/tests/" + name;
}

bool ReadFile(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  *out = ss.str();
  return true;
}

// DIR/expected.json, parsed once; null when missing or malformed (the tests then fail saying
// so).
const json& Expected(const std::string& dir) {
  static auto* cache = new std::map<std::string, json>();
  auto it = cache->find(dir);
  if (it == cache->end()) {
    std::string text;
    json j;
    if (ReadFile(TestsPath(dir + "/expected.json"), &text)) {
      j = json::parse(text, nullptr, /*allow_exceptions=*/false);
    }
    it = cache->emplace(dir, std::move(j)).first;
  }
  return it->second;
}

// "DIR/FILE" for every graph of every folder in kGraphDirs.
std::vector<std::string> GraphFiles() {
  std::vector<std::string> files;
  for (const char* dir : kGraphDirs) {
    const json& e = Expected(dir);
    if (e.is_object() && e.contains("graphs") && e["graphs"].is_array()) {
      for (const json& g : e["graphs"]) files.push_back(std::string(dir) + "/" + g.value("file", ""));
    }
  }
  return files;
}

absl::Status LoadGraph(const std::string& path, GraphDef* gdef) {
  std::string bytes;
  if (!ReadFile(TestsPath(path), &bytes)) {
    return absl::NotFoundError("cannot read " + TestsPath(path));
  }
  return ParseGraphDef(bytes, gdef);
}

// A TENSOR of expected.json ({"dtype", "shape", "values"}) as a Tensor.
Tensor TensorFromJson(const json& j) {
  DataType dt = DT_INVALID;
  const std::string dtype = j.at("dtype").get<std::string>();
  EXPECT_TRUE(DataTypeFromString(dtype, &dt)) << "unknown dtype " << dtype;
  std::vector<int64_t> dims = j.at("shape").get<std::vector<int64_t>>();
  Tensor t(dt, TensorShape(absl::Span<const int64_t>(dims)));
  const json& values = j.at("values");
  EXPECT_EQ(static_cast<int64_t>(values.size()), t.NumElements()) << "feed of " << dtype;
  const int64_t n = std::min<int64_t>(values.size(), t.NumElements());
  for (int64_t i = 0; i < n; ++i) {
    switch (dt) {
      case DT_FLOAT: t.data<float>()[i] = values[i].get<float>(); break;
      case DT_DOUBLE: t.data<double>()[i] = values[i].get<double>(); break;
      case DT_INT32: t.data<int32_t>()[i] = values[i].get<int32_t>(); break;
      case DT_INT64: t.data<int64_t>()[i] = values[i].get<int64_t>(); break;
      case DT_BOOL: t.data<bool>()[i] = values[i].get<bool>(); break;
      default: ADD_FAILURE() << "dtype " << dtype << " not handled by this test"; return t;
    }
  }
  return t;
}

std::string ShapeString(const std::vector<int64_t>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? "," : "") + std::to_string(dims[i]);
  return s + "]";
}

std::string FloatString(double v) {
  std::ostringstream ss;
  ss.precision(9);
  ss << v;
  return ss.str();
}

bool Close(double got, double want) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want)) return got == want;
  return std::fabs(got - want) <= kAtol + kRtol * std::fabs(want);
}

// Compares `got` with the TENSOR `want`; failures name `what` (graph, run, fetch). At most a few
// mismatching elements are listed, with their flat index.
void ExpectTensorMatches(const std::string& what, const json& want, const Tensor& got) {
  const std::string dtype = want.at("dtype").get<std::string>();
  DataType want_dt = DT_INVALID;
  ASSERT_TRUE(DataTypeFromString(dtype, &want_dt)) << what << ": unknown dtype " << dtype;
  ASSERT_TRUE(got.IsInitialized()) << what << ": fetched tensor is not initialized";
  ASSERT_EQ(DataTypeString(got.dtype()), DataTypeString(want_dt)) << what << ": dtype";
  const std::vector<int64_t> want_dims = want.at("shape").get<std::vector<int64_t>>();
  const std::vector<int64_t> got_dims(got.shape().dim_sizes().begin(),
                                      got.shape().dim_sizes().end());
  ASSERT_EQ(ShapeString(got_dims), ShapeString(want_dims)) << what << ": shape";
  const json& values = want.at("values");
  ASSERT_EQ(static_cast<int64_t>(values.size()), got.NumElements()) << what << ": element count";

  int mismatches = 0;
  std::ostringstream report;
  for (int64_t i = 0; i < got.NumElements(); ++i) {
    bool ok = true;
    std::string g, w;
    switch (want_dt) {
      case DT_FLOAT: {
        const double gv = got.data<float>()[i], wv = values[i].get<double>();
        ok = Close(gv, wv);
        g = FloatString(gv);
        w = values[i].dump();
        break;
      }
      case DT_DOUBLE: {
        const double gv = got.data<double>()[i], wv = values[i].get<double>();
        ok = Close(gv, wv);
        g = FloatString(gv);
        w = values[i].dump();
        break;
      }
      case DT_INT32:
        ok = got.data<int32_t>()[i] == values[i].get<int32_t>();
        g = std::to_string(got.data<int32_t>()[i]);
        w = values[i].dump();
        break;
      case DT_INT64:
        ok = got.data<int64_t>()[i] == values[i].get<int64_t>();
        g = std::to_string(got.data<int64_t>()[i]);
        w = values[i].dump();
        break;
      case DT_BOOL:
        ok = got.data<bool>()[i] == values[i].get<bool>();
        g = got.data<bool>()[i] ? "true" : "false";
        w = values[i].dump();
        break;
      default:
        FAIL() << what << ": dtype " << dtype << " not handled by this test";
    }
    if (!ok) {
      if (mismatches < 8) report << "\n  [" << i << "] expected " << w << ", got " << g;
      ++mismatches;
    }
  }
  EXPECT_EQ(mismatches, 0) << what << " (" << dtype << ShapeString(want_dims) << "): "
                           << mismatches << " of " << got.NumElements()
                           << " values differ (rtol 1e-5, atol 1e-5)"
                           << report.str();
}

TEST(TestdataGraphsTest, ExpectedJsonListsGraphs) {
  for (const char* dir : kGraphDirs) {
    EXPECT_TRUE(Expected(dir).is_object())
        << "cannot read or parse " << TestsPath(std::string(dir) + "/expected.json");
  }
  EXPECT_GE(GraphFiles().size(), 15u);
}

class TestdataGraphTest : public ::testing::TestWithParam<std::string> {};

TEST_P(TestdataGraphTest, MatchesTensorFlow) {
  const std::string file = GetParam();
  const std::string dir = file.substr(0, file.rfind('/'));
  const json* graph = nullptr;
  for (const json& g : Expected(dir)["graphs"]) {
    if (dir + "/" + g.value("file", "") == file) graph = &g;
  }
  ASSERT_NE(graph, nullptr);

  GraphDef gdef;
  absl::Status s = LoadGraph(file, &gdef);
  ASSERT_TRUE(s.ok()) << file << ": ParseGraphDef: " << s;
  std::unique_ptr<Session> session;
  s = NewSession(SessionOptions{}, &session);
  ASSERT_TRUE(s.ok()) << file << ": NewSession: " << s;
  s = session->Create(gdef);
  ASSERT_TRUE(s.ok()) << file << ": Create: " << s;

  for (const json& run : (*graph)["runs"]) {
    const std::string run_name = file + " run '" + run.value("name", "?") + "'";
    SCOPED_TRACE(run_name);
    std::vector<std::pair<std::string, Tensor>> feeds;
    for (const auto& kv : run["feeds"].items()) {
      feeds.emplace_back(kv.key(), TensorFromJson(kv.value()));
    }
    std::vector<std::string> fetch_names;
    std::vector<const json*> fetch_values;
    for (const auto& kv : run["fetches"].items()) {
      fetch_names.push_back(kv.key());
      fetch_values.push_back(&kv.value());
    }
    std::vector<std::string> targets = run.value("targets", std::vector<std::string>{});

    std::vector<Tensor> outputs;
    s = session->Run(feeds, fetch_names, targets, &outputs);
    // Later runs may depend on this one (variables), so stop at the first failing run.
    ASSERT_TRUE(s.ok()) << run_name << ": Run failed: " << s;
    ASSERT_EQ(outputs.size(), fetch_names.size()) << run_name;
    for (size_t i = 0; i < fetch_names.size(); ++i) {
      ExpectTensorMatches(run_name + " fetch " + fetch_names[i], *fetch_values[i], outputs[i]);
    }
  }
  EXPECT_TRUE(session->Close().ok());
}

std::string GraphTestName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name;
  for (char c : info.param.substr(0, info.param.rfind('.'))) {
    name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  }
  return name.empty() ? "graph" + std::to_string(info.index) : name;
}

INSTANTIATE_TEST_SUITE_P(Graphs, TestdataGraphTest, ::testing::ValuesIn(GraphFiles()),
                         GraphTestName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(TestdataGraphTest);

// ---- the digits test set ----------------------------------------------------------------------

// A .npy array (format 1.0/2.0/3.0, little-endian, C order) of '<f4', '<i4' or '<i8'.
struct NpyArray {
  std::string descr;
  std::vector<int64_t> shape;
  std::string data;  // raw little-endian bytes
  int64_t size() const {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
  }
};

absl::Status ReadNpy(const std::string& path, NpyArray* out) {
  std::string bytes;
  if (!ReadFile(path, &bytes)) return absl::NotFoundError("cannot read " + path);
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0) {
    return absl::InvalidArgumentError(path + ": not a .npy file");
  }
  const int major = static_cast<unsigned char>(bytes[6]);
  size_t header_len, header_start;
  if (major == 1) {
    header_len = static_cast<unsigned char>(bytes[8]) |
                 (static_cast<size_t>(static_cast<unsigned char>(bytes[9])) << 8);
    header_start = 10;
  } else {
    if (bytes.size() < 12) return absl::InvalidArgumentError(path + ": truncated header");
    header_len = 0;
    for (int i = 0; i < 4; ++i) {
      header_len |= static_cast<size_t>(static_cast<unsigned char>(bytes[8 + i])) << (8 * i);
    }
    header_start = 12;
  }
  if (bytes.size() < header_start + header_len) {
    return absl::InvalidArgumentError(path + ": truncated header");
  }
  const std::string header = bytes.substr(header_start, header_len);
  auto field = [&](const std::string& key) -> std::string {
    size_t p = header.find("'" + key + "'");
    if (p == std::string::npos) return "";
    p = header.find(':', p);
    if (p == std::string::npos) return "";
    ++p;
    while (p < header.size() && header[p] == ' ') ++p;
    if (p >= header.size()) return "";
    if (header[p] == '\'') {
      size_t e = header.find('\'', p + 1);
      return e == std::string::npos ? "" : header.substr(p + 1, e - p - 1);
    }
    if (header[p] == '(') {
      size_t e = header.find(')', p);
      return e == std::string::npos ? "" : header.substr(p + 1, e - p - 1);
    }
    size_t e = header.find_first_of(",}", p);
    return header.substr(p, e == std::string::npos ? std::string::npos : e - p);
  };
  out->descr = field("descr");
  if (field("fortran_order") != "False") {
    return absl::InvalidArgumentError(path + ": Fortran order is not supported");
  }
  out->shape.clear();
  std::stringstream dims(field("shape"));
  std::string dim;
  while (std::getline(dims, dim, ',')) {
    dim.erase(std::remove(dim.begin(), dim.end(), ' '), dim.end());
    if (!dim.empty()) out->shape.push_back(std::stoll(dim));
  }
  size_t item;
  if (out->descr == "<f4" || out->descr == "<i4") {
    item = 4;
  } else if (out->descr == "<i8") {
    item = 8;
  } else {
    return absl::InvalidArgumentError(path + ": dtype " + out->descr + " is not supported");
  }
  const size_t need = static_cast<size_t>(out->size()) * item;
  if (bytes.size() - header_start - header_len < need) {
    return absl::InvalidArgumentError(path + ": data shorter than its shape");
  }
  out->data = bytes.substr(header_start + header_len, need);
  return absl::OkStatus();
}

template <typename T>
std::vector<T> NpyValues(const NpyArray& a) {
  std::vector<T> v(a.size());
  std::memcpy(v.data(), a.data.data(), v.size() * sizeof(T));  // x86: little-endian
  return v;
}

int64_t ArgMax(const float* row, int64_t n) {
  return std::max_element(row, row + n) - row;
}

TEST(TestdataGraphsTest, DigitsTestSetMatchesTensorFlow) {
  NpyArray x, y, tf_probs;
  absl::Status s = ReadNpy(TestdataPath("digits_test_x.npy"), &x);
  ASSERT_TRUE(s.ok()) << s;
  s = ReadNpy(TestdataPath("digits_test_y.npy"), &y);
  ASSERT_TRUE(s.ok()) << s;
  s = ReadNpy(TestdataPath("digits_tf_probs.npy"), &tf_probs);
  ASSERT_TRUE(s.ok()) << s;
  ASSERT_EQ(x.descr, "<f4");
  ASSERT_EQ(y.descr, "<i4");
  ASSERT_EQ(tf_probs.descr, "<f4");
  ASSERT_EQ(x.shape, (std::vector<int64_t>{360, 64}));
  ASSERT_EQ(y.shape, (std::vector<int64_t>{360}));
  ASSERT_EQ(tf_probs.shape, (std::vector<int64_t>{360, 10}));
  const int64_t n = x.shape[0], classes = tf_probs.shape[1];
  const std::vector<float> xs = NpyValues<float>(x);
  const std::vector<int32_t> labels = NpyValues<int32_t>(y);
  const std::vector<float> want = NpyValues<float>(tf_probs);

  const json& digits = Expected("testdata")["digits_mlp"];
  ASSERT_TRUE(digits.is_object()) << "expected.json has no digits_mlp entry";
  const int64_t tf_correct = digits.value("test_correct", int64_t{-1});
  int64_t tf_argmax_correct = 0;
  for (int64_t i = 0; i < n; ++i) {
    tf_argmax_correct += ArgMax(&want[i * classes], classes) == labels[i];
  }
  ASSERT_EQ(tf_argmax_correct, tf_correct) << "digits_tf_probs.npy disagrees with expected.json";

  GraphDef gdef;
  s = LoadGraph("testdata/digits_mlp.pb", &gdef);
  ASSERT_TRUE(s.ok()) << "digits_mlp.pb: ParseGraphDef: " << s;
  std::unique_ptr<Session> session;
  ASSERT_TRUE(NewSession(SessionOptions{}, &session).ok());
  s = session->Create(gdef);
  ASSERT_TRUE(s.ok()) << "digits_mlp.pb: Create: " << s;

  // The whole set in one batch, then in batches of 64 (the last one short): the same executor
  // runs with another batch size each time.
  for (int64_t batch : {n, int64_t{64}}) {
    SCOPED_TRACE("batch " + std::to_string(batch));
    std::vector<float> got(n * classes);
    for (int64_t start = 0; start < n; start += batch) {
      const int64_t rows = std::min(batch, n - start);
      Tensor input(DT_FLOAT, TensorShape({rows, 64}));
      std::copy(&xs[start * 64], &xs[(start + rows) * 64], input.data<float>());
      std::vector<Tensor> outputs;
      s = session->Run({{"input:0", input}}, {"probs:0"}, {}, &outputs);
      ASSERT_TRUE(s.ok()) << "digits_mlp.pb rows " << start << ".." << start + rows << ": " << s;
      ASSERT_EQ(outputs.size(), 1u);
      ASSERT_EQ(outputs[0].dtype(), DT_FLOAT);
      ASSERT_EQ(outputs[0].shape().DebugString(), TensorShape({rows, classes}).DebugString());
      std::copy(outputs[0].data<float>(), outputs[0].data<float>() + rows * classes,
                &got[start * classes]);
    }
    int mismatches = 0;
    int64_t correct = 0;
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t c = 0; c < classes; ++c) {
        const float g = got[i * classes + c], w = want[i * classes + c];
        if (std::fabs(g - w) > 1e-5f) {
          if (++mismatches <= 8) {
            ADD_FAILURE() << "probs:0 sample " << i << " class " << c << ": expected " << w
                          << ", got " << g;
          }
        }
      }
      correct += ArgMax(&got[i * classes], classes) == labels[i];
    }
    EXPECT_EQ(mismatches, 0) << "probabilities differing from digits_tf_probs.npy by > 1e-5";
    EXPECT_EQ(correct, tf_correct) << "accuracy " << static_cast<double>(correct) / n
                                   << " vs TensorFlow's " << static_cast<double>(tf_correct) / n;
  }
  EXPECT_TRUE(session->Close().ok());
}

}  // namespace
}  // namespace sg
