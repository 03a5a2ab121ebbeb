// SG_LoadSessionFromSavedModel through libsg's C API only: the digits SavedModel of
// tests/testdata (made by make_testdata.py) and tfserving_half_plus_two_cpu of
// ../shared/testdata/tf_graphs (skipped plainly when absent), plus its errors.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "sg/c_api.h"

namespace {

const std::string kDigits = std::string(SG_SOURCE_DIR) + "/tests/testdata/digits_saved_model";
const std::string kHalfPlusTwo =
    std::string(SG_SHARED_TESTDATA) + "/tfserving_half_plus_two_cpu";

// The float32 payload of a little-endian .npy file (version 1.0).
std::vector<float> ReadNpy(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string b = ss.str();
  if (b.size() < 10) return {};
  const size_t header = 10 + (static_cast<uint8_t>(b[8]) | (static_cast<uint8_t>(b[9]) << 8));
  std::vector<float> v((b.size() - header) / 4);
  std::memcpy(v.data(), b.data() + header, v.size() * 4);
  return v;
}

struct Loaded {
  SG_Status* status = SG_NewStatus();
  SG_Graph* graph = SG_NewGraph();
  SG_SessionOptions* opts = SG_NewSessionOptions();
  SG_Buffer* meta = SG_NewBuffer();
  SG_Session* session = nullptr;

  Loaded(const std::string& dir, std::vector<const char*> tags) {
    session = SG_LoadSessionFromSavedModel(opts, nullptr, dir.c_str(), tags.data(),
                                           static_cast<int>(tags.size()), graph, meta, status);
  }
  ~Loaded() {
    if (session != nullptr) {
      SG_CloseSession(session, status);
      SG_DeleteSession(session, status);
    }
    SG_DeleteBuffer(meta);
    SG_DeleteSessionOptions(opts);
    SG_DeleteGraph(graph);
    SG_DeleteStatus(status);
  }

  // Runs one float feed -> one fetch; returns the fetched values.
  std::vector<float> Run(const char* in, std::vector<int64_t> dims, std::vector<float> values,
                         const char* out) {
    SG_Tensor* t = SG_AllocateTensor(SG_FLOAT, dims.data(), static_cast<int>(dims.size()),
                                     values.size() * sizeof(float));
    std::memcpy(SG_TensorData(t), values.data(), values.size() * sizeof(float));
    SG_Output feed = {SG_GraphOperationByName(graph, in), 0};
    SG_Output fetch = {SG_GraphOperationByName(graph, out), 0};
    SG_Tensor* result = nullptr;
    SG_SessionRun(session, nullptr, &feed, &t, 1, &fetch, &result, 1, nullptr, 0, nullptr,
                  status);
    SG_DeleteTensor(t);
    std::vector<float> v;
    if (result != nullptr) {
      const float* p = static_cast<const float*>(SG_TensorData(result));
      v.assign(p, p + SG_TensorElementCount(result));
      SG_DeleteTensor(result);
    }
    return v;
  }
};

TEST(LoadSessionFromSavedModel, DigitsGivesTensorFlowsProbabilities) {
  Loaded m(kDigits, {"serve"});
  ASSERT_EQ(SG_GetCode(m.status), SG_OK) << SG_Message(m.status);
  ASSERT_NE(m.session, nullptr);
  EXPECT_GT(m.meta->length, 0u);  // the serialized MetaGraphDef
  ASSERT_NE(SG_GraphOperationByName(m.graph, "save/restore_all"), nullptr);
  const std::vector<float> x = ReadNpy(std::string(SG_SOURCE_DIR) +
                                       "/tests/testdata/digits_test_x.npy");
  const std::vector<float> want = ReadNpy(std::string(SG_SOURCE_DIR) +
                                          "/tests/testdata/digits_tf_probs.npy");
  ASSERT_EQ(x.size(), 360u * 64);
  ASSERT_EQ(want.size(), 360u * 10);
  std::vector<float> got = m.Run("input", {360, 64}, x, "probs");
  ASSERT_EQ(SG_GetCode(m.status), SG_OK) << SG_Message(m.status);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_NEAR(got[i], want[i], 1e-6 + 1e-5 * std::fabs(want[i])) << "at " << i;
  }
}

TEST(LoadSessionFromSavedModel, HalfPlusTwoRestoresItsVariables) {
  std::ifstream probe(kHalfPlusTwo + "/saved_model.pb");
  if (!probe.good()) GTEST_SKIP() << "skipped: ../shared/testdata/tf_graphs is not present";
  Loaded m(kHalfPlusTwo, {"serve"});
  ASSERT_EQ(SG_GetCode(m.status), SG_OK) << SG_Message(m.status);
  EXPECT_EQ(m.Run("x", {3, 1}, {1, 2, 3}, "y"), (std::vector<float>{2.5f, 3.0f, 3.5f}));
  EXPECT_EQ(m.Run("x", {1, 1}, {4}, "y2"), (std::vector<float>{5.0f}));
}

TEST(LoadSessionFromSavedModel, ReportsClearErrors) {
  {
    Loaded m(kDigits, {"serve", "gpu"});
    EXPECT_EQ(m.session, nullptr);
    EXPECT_EQ(SG_GetCode(m.status), SG_NOT_FOUND);
    EXPECT_NE(std::string(SG_Message(m.status)).find("{gpu, serve}"), std::string::npos)
        << SG_Message(m.status);
    EXPECT_EQ(m.meta->length, 0u);
  }
  {
    Loaded m(kDigits + "/no_such_dir", {"serve"});
    EXPECT_EQ(m.session, nullptr);
    EXPECT_EQ(SG_GetCode(m.status), SG_NOT_FOUND);
  }
  {
    // The graph must be empty.
    SG_Status* s = SG_NewStatus();
    SG_Graph* g = SG_NewGraph();
    SG_OperationDescription* d = SG_NewOperation(g, "NoOp", "already_here");
    SG_FinishOperation(d, s);
    ASSERT_EQ(SG_GetCode(s), SG_OK);
    SG_SessionOptions* o = SG_NewSessionOptions();
    const char* tags[] = {"serve"};
    EXPECT_EQ(SG_LoadSessionFromSavedModel(o, nullptr, kDigits.c_str(), tags, 1, g, nullptr, s),
              nullptr);
    EXPECT_EQ(SG_GetCode(s), SG_INVALID_ARGUMENT);
    // NULL export_dir.
    SG_Graph* g2 = SG_NewGraph();
    EXPECT_EQ(SG_LoadSessionFromSavedModel(o, nullptr, nullptr, tags, 1, g2, nullptr, s), nullptr);
    EXPECT_EQ(SG_GetCode(s), SG_INVALID_ARGUMENT);
    SG_DeleteGraph(g2);
    SG_DeleteSessionOptions(o);
    SG_DeleteGraph(g);
    SG_DeleteStatus(s);
  }
}

}  // namespace
