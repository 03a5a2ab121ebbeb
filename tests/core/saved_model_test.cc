// SavedModel loading, TensorBundle checkpoints and the checkpoint / parsing kernels.
// Real SavedModels come from ../shared/testdata/tf_graphs (see its MANIFEST.md; tests skip plainly
// when it is absent) and from tests/testdata/digits_saved_model (made by make_testdata.py).
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <unordered_set>

#include <gtest/gtest.h>

#include "google/protobuf/text_format.h"
#include "core/framework/attr_value_util.h"
#include "core/graph/graph_constructor.h"
#include "core/proto/example.pb.h"
#include "core/runtime/saved_model.h"
#include "core/util/crc32c.h"
#include "core/util/tensor_bundle.h"
#include "tests/core/ops_testutil.h"

namespace sg {
namespace {

namespace fs = std::filesystem;
using test::MakeTensor;
using test::Values;

std::string SharedDir() { return SG_SHARED_TESTDATA; }
std::string TestdataDir() { return std::string(SG_SOURCE_DIR) + "/tests/testdata"; }

bool HaveShared() { return fs::exists(SharedDir() + "/MANIFEST.md"); }

#define SKIP_WITHOUT_SHARED()                                                                  \
  if (!HaveShared())                                                                           \
  GTEST_SKIP() << "skipped: ../shared/testdata/tf_graphs is not present (it exists only beside " \
                  "the project's own checkout)"

// A fresh directory under the test temp dir, removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    static int counter = 0;
    path_ = (fs::path(::testing::TempDir()) /
             ("sg_saved_model_test_" + std::to_string(getpid()) + "_" + std::to_string(counter++)))
                .string();
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  // SG_KEEP_TEST_OUTPUT=1 keeps the files (to read sg's checkpoints back with TensorFlow).
  ~TempDir() {
    std::error_code ec;
    if (std::getenv("SG_KEEP_TEST_OUTPUT") == nullptr) fs::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::string ReadAll(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

void WriteAll(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << bytes;
}

std::string Hex(const std::string& s) {
  static const char* d = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) {
    out.push_back(d[c >> 4]);
    out.push_back(d[c & 15]);
  }
  return out;
}

absl::Status Load(const std::string& dir, std::unique_ptr<Session>* session, MetaGraphDef* mg,
                  std::unordered_set<std::string> tags = {kSavedModelTagServe}) {
  return LoadSavedModel(SessionOptions(), RunOptions(), dir, tags, session, mg);
}

// A serialized tf.Example with float features.
std::string FloatExample(const std::map<std::string, std::vector<float>>& features) {
  Example ex;
  for (const auto& [key, values] : features) {
    auto* list = (*ex.mutable_features()->mutable_feature())[key].mutable_float_list();
    for (float v : values) list->add_value(v);
  }
  return ex.SerializeAsString();
}

Tensor Strings(std::vector<std::string> v) {
  Tensor t(DT_STRING, TensorShape({static_cast<int64_t>(v.size())}));
  for (size_t i = 0; i < v.size(); ++i) t.data<tstring>()[i] = v[i];
  return t;
}

// ---- CRC32C and the bundle format ------------------------------------------------------------

TEST(Crc32c, MatchesKnownValues) {
  // Standard check value of CRC-32C, and the RFC 3720 (iSCSI) vectors.
  EXPECT_EQ(crc32c::Value("123456789", 9), 0xe3069283u);
  std::string zeros(32, '\0'), ones(32, '\xff');
  EXPECT_EQ(crc32c::Value(zeros.data(), 32), 0x8a9136aau);
  EXPECT_EQ(crc32c::Value(ones.data(), 32), 0x62a8ab43u);
  EXPECT_EQ(crc32c::Extend(crc32c::Value("1234", 4), "56789", 5), 0xe3069283u);
  EXPECT_EQ(crc32c::Unmask(crc32c::Mask(0x12345678u)), 0x12345678u);
}

TEST(TensorBundle, ReadsTensorFlowsHalfPlusTwoCheckpoint) {
  SKIP_WITHOUT_SHARED();
  auto reader =
      BundleReader::Open(SharedDir() + "/tfserving_half_plus_two_cpu/variables/variables");
  ASSERT_TRUE(reader.ok()) << reader.status();
  EXPECT_EQ((*reader)->header().num_shards(), 1);
  std::vector<std::string> keys;
  for (const auto& [k, e] : (*reader)->entries()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"a", "a2", "b", "c", "c2"}));
  const std::map<std::string, float> want = {{"a", 0.5f}, {"a2", 0.5f}, {"b", 2}, {"c", 3},
                                             {"c2", 3}};
  for (const auto& [k, v] : want) {
    Tensor t;
    ASSERT_TRUE((*reader)->Lookup(k, &t).ok()) << k;
    EXPECT_EQ(t.dtype(), DT_FLOAT);
    EXPECT_EQ(t.dims(), 0);
    EXPECT_EQ(t.data<float>()[0], v) << k;
  }
}

TEST(TensorBundle, WritesStringsAndInt64ByteForByteAsTensorFlow) {
  // TensorFlow 2.15's SaveV2 of s = ["ab", "", "hello"], i = int64 [1, 2, 3] wrote this data file
  // and these CRCs (checked once with the oracle, written down here).
  const std::string tf_data =
      std::string("\x02\x00\x05\xa1\xca\x70\xaf" "abhello", 14) +
      std::string("\x01\0\0\0\0\0\0\0\x02\0\0\0\0\0\0\0\x03\0\0\0\0\0\0\0", 24);
  TempDir dir;
  const std::string prefix = dir.path() + "/ckpt/strs";
  BundleWriter w(prefix);
  ASSERT_TRUE(w.Add("s", Strings({"ab", "", "hello"})).ok());
  ASSERT_TRUE(w.Add("i", MakeTensor<int64_t>({3}, {1, 2, 3})).ok());
  ASSERT_TRUE(w.Finish().ok()) << w.status();
  EXPECT_EQ(Hex(ReadAll(BundleDataFilename(prefix, 0, 1))), Hex(tf_data));
  auto r = BundleReader::Open(prefix);
  ASSERT_TRUE(r.ok()) << r.status();
  BundleEntryProto s, i;
  ASSERT_TRUE((*r)->LookupEntry("s", &s).ok());
  ASSERT_TRUE((*r)->LookupEntry("i", &i).ok());
  EXPECT_EQ(s.crc32c(), 0x8011b787u);
  EXPECT_EQ(i.crc32c(), 0x2a8af2e1u);
  EXPECT_EQ(i.offset(), 14);
  EXPECT_EQ(i.size(), 24);
  Tensor got;
  ASSERT_TRUE((*r)->Lookup("s", &got).ok());
  EXPECT_EQ(Values<tstring>(got), (std::vector<tstring>{"ab", "", "hello"}));
  ASSERT_TRUE((*r)->Lookup("i", &got).ok());
  EXPECT_EQ(Values<int64_t>(got), (std::vector<int64_t>{1, 2, 3}));
}

TEST(TensorBundle, RejectsTruncatedIndexAndCorruptData) {
  TempDir dir;
  const std::string prefix = dir.path() + "/v";
  BundleWriter w(prefix);
  ASSERT_TRUE(w.Add("x", MakeTensor<float>({4}, {1, 2, 3, 4})).ok());
  ASSERT_TRUE(w.Add("x", MakeTensor<float>({1}, {1})).code() == absl::StatusCode::kInvalidArgument);
  ASSERT_TRUE(w.Finish().ok());

  std::string data = ReadAll(BundleDataFilename(prefix, 0, 1));
  data[5] ^= 0x40;
  WriteAll(BundleDataFilename(prefix, 0, 1), data);
  auto r = BundleReader::Open(prefix);
  ASSERT_TRUE(r.ok()) << r.status();
  Tensor t;
  EXPECT_EQ((*r)->Lookup("x", &t).code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ((*r)->Lookup("y", &t).code(), absl::StatusCode::kNotFound);

  const std::string index = ReadAll(BundleIndexFilename(prefix));
  WriteAll(BundleIndexFilename(prefix), index.substr(0, index.size() / 2));
  auto bad = BundleReader::Open(prefix);
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kDataLoss) << bad.status();
  EXPECT_EQ(BundleReader::Open(dir.path() + "/nothing").status().code(),
            absl::StatusCode::kNotFound);
}

TEST(TensorBundle, MergesShardsIntoOneBundle) {
  TempDir dir;
  for (int s = 0; s < 2; ++s) {
    BundleWriter w(dir.path() + "/tmp/part-0000" + std::to_string(s) + "-of-00002");
    ASSERT_TRUE(w.Add(s == 0 ? "a" : "b", MakeTensor<int32_t>({2}, {s, s + 10})).ok());
    ASSERT_TRUE(w.Finish().ok());
  }
  ASSERT_TRUE(MergeBundles({dir.path() + "/tmp/part-00000-of-00002",
                            dir.path() + "/tmp/part-00001-of-00002"},
                           dir.path() + "/model", /*delete_old_dirs=*/true)
                  .ok());
  EXPECT_FALSE(fs::exists(dir.path() + "/tmp"));
  EXPECT_TRUE(fs::exists(dir.path() + "/model.data-00001-of-00002"));
  auto r = BundleReader::Open(dir.path() + "/model");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)->header().num_shards(), 2);
  Tensor t;
  ASSERT_TRUE((*r)->Lookup("b", &t).ok());
  EXPECT_EQ(Values<int32_t>(t), (std::vector<int32_t>{1, 11}));
  ASSERT_TRUE((*r)->Lookup("a", &t).ok());
  EXPECT_EQ(Values<int32_t>(t), (std::vector<int32_t>{0, 10}));
}

// ---- Kernels -----------------------------------------------------------------------------------

TEST(StringJoin, JoinsElementwiseAndBroadcastsScalars) {
  auto out = test::RunKernel(test::NodeDefFor("StringJoin", {{"N", 3}, {"separator", "/"}}, 3),
                             {Strings({"a", "b"}), Tensor::Scalar<tstring>("x"),
                              Strings({"1", "2"})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<tstring>((*out)[0]), (std::vector<tstring>{"a/x/1", "b/x/2"}));
  auto bad = test::RunKernel(test::NodeDefFor("StringJoin", {{"N", 2}}, 2),
                             {Strings({"a", "b"}), Strings({"a", "b", "c"})});
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(ShardedFilename, FormatsShardNames) {
  auto out = test::RunKernel(test::NodeDefFor("ShardedFilename", {}, 3),
                             {Tensor::Scalar<tstring>("/ckpt/m"), Tensor::Scalar<int32_t>(3),
                              Tensor::Scalar<int32_t>(12)});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].data<tstring>()[0], "/ckpt/m-00003-of-00012");
  out = test::RunKernel(test::NodeDefFor("ShardedFilespec", {}, 2),
                        {Tensor::Scalar<tstring>("/ckpt/m"), Tensor::Scalar<int32_t>(2)});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].data<tstring>()[0], "/ckpt/m-\?\?\?\?\?-of-00002");
}

TEST(RegexFullMatch, MatchesWholeStringsOnly) {
  auto out = test::RunKernel(test::NodeDefFor("StaticRegexFullMatch", {{"pattern", "^s3://.*"}}),
                             {Strings({"s3://bucket/x", "/tmp/s3://", ""})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<bool>((*out)[0]), (std::vector<bool>{true, false, false}));
  out = test::RunKernel(test::NodeDefFor("RegexFullMatch", {}),
                        {Strings({"ab", "abc"}), Tensor::Scalar<tstring>("a.")});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<bool>((*out)[0]), (std::vector<bool>{true, false}));
  out = test::RunKernel(test::NodeDefFor("RegexFullMatch", {}),
                        {Strings({"ab"}), Tensor::Scalar<tstring>("(")});
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
}

AttrValue ShapeList(std::vector<PartialTensorShape> shapes) {
  AttrValue v;
  auto* list = v.mutable_list();
  for (const auto& s : shapes) s.AsProto(list->add_shape());
  return v;
}

NodeDef ParseExampleNode(int nsparse, std::vector<DataType> sparse_types,
                         std::vector<DataType> tdense, std::vector<PartialTensorShape> shapes) {
  NodeDef n = test::NodeDefFor("ParseExample",
                               {{"Nsparse", nsparse},
                                {"Ndense", static_cast<int>(tdense.size())},
                                {"sparse_types", absl::Span<const DataType>(sparse_types)},
                                {"Tdense", absl::Span<const DataType>(tdense)}},
                               2 + nsparse + 2 * static_cast<int>(tdense.size()));
  (*n.mutable_attr())["dense_shapes"] = ShapeList(shapes);
  return n;
}

TEST(ParseExample, ParsesFixedDenseFeaturesWithDefaults) {
  Example e1, e2;
  auto& f1 = *e1.mutable_features()->mutable_feature();
  f1["x"].mutable_float_list()->add_value(1.5f);
  f1["x"].mutable_float_list()->add_value(-2);
  f1["id"].mutable_int64_list()->add_value(7);
  f1["w"].mutable_bytes_list()->add_value("hi");
  auto& f2 = *e2.mutable_features()->mutable_feature();
  f2["x"].mutable_float_list()->add_value(3);
  f2["x"].mutable_float_list()->add_value(4);
  NodeDef n = ParseExampleNode(0, {}, {DT_FLOAT, DT_INT64, DT_STRING},
                               {{2}, PartialTensorShape::Scalar(), {1}});
  auto out = test::RunKernel(
      n, {Strings({e1.SerializeAsString(), e2.SerializeAsString()}), Strings({}),
          Tensor::Scalar<tstring>("x"), Tensor::Scalar<tstring>("id"),
          Tensor::Scalar<tstring>("w"), MakeTensor<float>({0}, {}), Tensor::Scalar<int64_t>(-1),
          Strings({"none"})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), TensorShape({2, 2}));
  EXPECT_EQ(Values<float>((*out)[0]), (std::vector<float>{1.5f, -2, 3, 4}));
  EXPECT_EQ((*out)[1].shape(), TensorShape({2}));
  EXPECT_EQ(Values<int64_t>((*out)[1]), (std::vector<int64_t>{7, -1}));
  EXPECT_EQ(Values<tstring>((*out)[2]), (std::vector<tstring>{"hi", "none"}));

  // A required feature that is missing, a wrong count, a wrong type: INVALID_ARGUMENT.
  NodeDef req = ParseExampleNode(0, {}, {DT_INT64}, {PartialTensorShape::Scalar()});
  auto missing = test::RunKernel(req, {Strings({e2.SerializeAsString()}), Strings({}),
                                       Tensor::Scalar<tstring>("id"), MakeTensor<int64_t>({0}, {})});
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(missing.status().message().find("required"), std::string::npos) << missing.status();
  NodeDef three = ParseExampleNode(0, {}, {DT_FLOAT}, {{3}});
  auto count = test::RunKernel(three, {Strings({e2.SerializeAsString()}), Strings({}),
                                       Tensor::Scalar<tstring>("x"), MakeTensor<float>({0}, {})});
  EXPECT_EQ(count.status().code(), absl::StatusCode::kInvalidArgument);
  auto type = test::RunKernel(req, {Strings({e1.SerializeAsString()}), Strings({}),
                                    Tensor::Scalar<tstring>("x"), MakeTensor<int64_t>({0}, {})});
  EXPECT_EQ(type.status().code(), absl::StatusCode::kInvalidArgument);
  auto garbage = test::RunKernel(req, {Strings({"\xff\xff\xff"}), Strings({}),
                                       Tensor::Scalar<tstring>("id"), MakeTensor<int64_t>({0}, {})});
  EXPECT_EQ(garbage.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(ParseExample, ParsesSparseAndVariableLengthFeatures) {
  const std::string e1 = FloatExample({{"v", {1, 2, 3}}});
  const std::string e2 = FloatExample({{"v", {4}}});
  const std::string e3 = FloatExample({});
  NodeDef n = ParseExampleNode(1, {DT_FLOAT}, {DT_FLOAT}, {{-1}});
  auto out = test::RunKernel(n, {Strings({e1, e2, e3}), Strings({}), Tensor::Scalar<tstring>("v"),
                                 Tensor::Scalar<tstring>("v"), Tensor::Scalar<float>(-1)});
  ASSERT_TRUE(out.ok()) << out.status();
  // Sparse: indices, values, dense shape.
  EXPECT_EQ((*out)[0].shape(), TensorShape({4, 2}));
  EXPECT_EQ(Values<int64_t>((*out)[0]), (std::vector<int64_t>{0, 0, 0, 1, 0, 2, 1, 0}));
  EXPECT_EQ(Values<float>((*out)[1]), (std::vector<float>{1, 2, 3, 4}));
  EXPECT_EQ(Values<int64_t>((*out)[2]), (std::vector<int64_t>{3, 3}));
  // Dense, variable length: padded with the default.
  EXPECT_EQ((*out)[3].shape(), TensorShape({3, 3}));
  EXPECT_EQ(Values<float>((*out)[3]), (std::vector<float>{1, 2, 3, 4, -1, -1, -1, -1, -1}));
}

TEST(ParseExampleV2, ParsesOneScalarExampleWithoutBatchDim) {
  NodeDef n = test::NodeDefFor("ParseExampleV2",
                               {{"num_sparse", 1},
                                {"sparse_types", absl::Span<const DataType>({DT_FLOAT})},
                                {"Tdense", absl::Span<const DataType>({DT_FLOAT})},
                                {"ragged_value_types", absl::Span<const DataType>({})},
                                {"ragged_split_types", absl::Span<const DataType>({})}},
                               6);
  (*n.mutable_attr())["dense_shapes"] = ShapeList({PartialTensorShape({2})});
  const std::string ex = FloatExample({{"x", {5, 6}}, {"s", {9}}});
  auto out = test::RunKernel(n, {Tensor::Scalar<tstring>(ex), Strings({}), Strings({"s"}),
                                 Strings({"x"}), Strings({}), MakeTensor<float>({0}, {})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<int64_t>((*out)[0]), (std::vector<int64_t>{0}));
  EXPECT_EQ((*out)[0].shape(), TensorShape({1, 1}));
  EXPECT_EQ(Values<float>((*out)[1]), (std::vector<float>{9}));
  EXPECT_EQ(Values<int64_t>((*out)[2]), (std::vector<int64_t>{1}));
  EXPECT_EQ((*out)[3].shape(), TensorShape({2}));
  EXPECT_EQ(Values<float>((*out)[3]), (std::vector<float>{5, 6}));
}

// ---- Real SavedModels ------------------------------------------------------------------------

TEST(SavedModel, HalfPlusTwoServesEverySignature) {
  SKIP_WITHOUT_SHARED();
  const std::string dir = SharedDir() + "/tfserving_half_plus_two_cpu";
  std::unique_ptr<Session> s;
  MetaGraphDef mg;
  ASSERT_TRUE(Load(dir, &s, &mg).ok());
  EXPECT_EQ(mg.signature_def_size(), 5);

  auto run = [&](const std::string& sig, const Tensor& in) {
    const SignatureDef& d = mg.signature_def().at(sig);
    std::vector<Tensor> out;
    absl::Status st = s->Run({{d.inputs().begin()->second.name(), in}},
                             {d.outputs().begin()->second.name()}, {}, &out);
    EXPECT_TRUE(st.ok()) << sig << ": " << st;
    return st.ok() ? Values<float>(out[0]) : std::vector<float>{};
  };
  EXPECT_EQ(run("serving_default", MakeTensor<float>({3, 1}, {1, 2, 3})),
            (std::vector<float>{2.5f, 3.0f, 3.5f}));
  const Tensor examples =
      Strings({FloatExample({{"x", {1}}}), FloatExample({{"x", {2}}, {"x2", {10}}}),
               FloatExample({{"x", {3}}})});
  EXPECT_EQ(run("regress_x_to_y", examples), (std::vector<float>{2.5f, 3.0f, 3.5f}));
  EXPECT_EQ(run("classify_x_to_y", examples), (std::vector<float>{2.5f, 3.0f, 3.5f}));
  EXPECT_EQ(run("regress_x_to_y2", examples), (std::vector<float>{3.5f, 4.0f, 4.5f}));
  EXPECT_EQ(run("regress_x2_to_y3", MakeTensor<float>({2, 1}, {4, 6})),
            (std::vector<float>{5.0f, 6.0f}));
  // y3 through the examples: x2 defaults to 0 where it is missing.
  std::vector<Tensor> out;
  ASSERT_TRUE(s->Run({{"tf_example:0", examples}}, {"y3:0"}, {}, &out).ok());
  EXPECT_EQ(Values<float>(out[0]), (std::vector<float>{3.0f, 8.0f, 3.0f}));
  // An example without the required x fails with INVALID_ARGUMENT.
  EXPECT_EQ(s->Run({{"tf_example:0", Strings({FloatExample({})})}}, {"y:0"}, {}, &out).code(),
            absl::StatusCode::kInvalidArgument);
  // The main op ran: it assigns the asset's file name to filename_tensor.
  ASSERT_TRUE(s->Run({}, {"filename_tensor:0"}, {}, &out).ok());
  EXPECT_EQ(out[0].data<tstring>()[0], "foo.txt");
  // The asset tensor (from the saved_model_assets collection) is fed its path in the export dir.
  std::vector<std::pair<std::string, Tensor>> feeds;
  ASSERT_TRUE(GetAssetFeeds(mg, dir, &feeds).ok());
  ASSERT_EQ(feeds.size(), 1u);
  EXPECT_EQ(feeds[0].first, "Const:0");
  EXPECT_EQ(feeds[0].second.data<tstring>()[0], dir + "/assets/foo.txt");
}

TEST(SavedModel, MatrixHalfPlusTwoHasNoVariables) {
  SKIP_WITHOUT_SHARED();
  std::unique_ptr<Session> s;
  MetaGraphDef mg;
  absl::Status st = Load(SharedDir() + "/tfserving_matrix_half_plus_two", &s, &mg);
  ASSERT_TRUE(st.ok()) << st;
  const SignatureDef& d = mg.signature_def().at("serving_default");
  EXPECT_EQ(d.inputs().at("x").name(), "x:0");
  std::vector<Tensor> out;
  ASSERT_TRUE(
      s->Run({{"x:0", MakeTensor<float>({1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9})}}, {"y:0"}, {}, &out)
          .ok());
  EXPECT_EQ(Values<float>(out[0]),
            (std::vector<float>{2.5f, 3, 3.5f, 4, 4.5f, 5, 5.5f, 6, 6.5f}));
}

TEST(SavedModel, CounterKeepsStateAcrossRuns) {
  SKIP_WITHOUT_SHARED();
  std::unique_ptr<Session> s;
  MetaGraphDef mg;
  absl::Status st = Load(SharedDir() + "/tfserving_counter", &s, &mg);
  ASSERT_TRUE(st.ok()) << st;
  auto output = [&](const std::string& sig) {
    return mg.signature_def().at(sig).outputs().begin()->second.name();
  };
  auto run = [&](const std::string& sig, std::vector<std::pair<std::string, Tensor>> feeds = {}) {
    std::vector<Tensor> out;
    absl::Status st = s->Run(feeds, {output(sig)}, {}, &out);
    EXPECT_TRUE(st.ok()) << sig << ": " << st;
    return st.ok() ? out[0].data<float>()[0] : -1.0f;
  };
  EXPECT_EQ(run("get_counter"), 0);
  EXPECT_EQ(run("incr_counter"), 1);
  const std::string delta = mg.signature_def().at("incr_counter_by").inputs().begin()->second.name();
  EXPECT_EQ(run("incr_counter_by", {{delta, Tensor::Scalar<float>(3)}}), 4);
  EXPECT_EQ(run("get_counter"), 4);
  EXPECT_EQ(run("reset_counter"), 0);
  EXPECT_EQ(run("get_counter"), 0);
}

std::vector<float> ReadNpyFloat(const std::string& path, std::vector<int64_t>* shape) {
  const std::string b = ReadAll(path);
  if (b.size() < 10 || b.compare(1, 5, "NUMPY") != 0) return {};
  const uint16_t hlen = static_cast<uint8_t>(b[8]) | (static_cast<uint8_t>(b[9]) << 8);
  const std::string header = b.substr(10, hlen);
  if (header.find("'<f4'") == std::string::npos) return {};
  shape->clear();
  size_t p = header.find("'shape': (") + 10;
  while (header[p] != ')') {
    shape->push_back(std::stoll(header.substr(p)));
    p = header.find_first_of(",)", p);
    if (header[p] == ',') ++p;
    while (header[p] == ' ') ++p;
  }
  std::vector<float> v((b.size() - 10 - hlen) / 4);
  std::memcpy(v.data(), b.data() + 10 + hlen, v.size() * 4);
  return v;
}

TEST(SavedModel, DigitsClassifierGivesTensorFlowsProbabilities) {
  std::unique_ptr<Session> s;
  MetaGraphDef mg;
  absl::Status st = Load(TestdataDir() + "/digits_saved_model", &s, &mg);
  ASSERT_TRUE(st.ok()) << st;
  const SignatureDef& d = mg.signature_def().at("serving_default");
  std::vector<int64_t> xs, ps;
  std::vector<float> x = ReadNpyFloat(TestdataDir() + "/digits_test_x.npy", &xs);
  std::vector<float> want = ReadNpyFloat(TestdataDir() + "/digits_tf_probs.npy", &ps);
  ASSERT_EQ(xs, (std::vector<int64_t>{360, 64}));
  ASSERT_EQ(ps, (std::vector<int64_t>{360, 10}));
  std::vector<Tensor> out;
  st = s->Run({{d.inputs().at("x").name(), MakeTensor<float>(xs, x)}}, {d.outputs().at("probs").name()},
              {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  std::vector<float> got = Values<float>(out[0]);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_NEAR(got[i], want[i], 1e-6 + 1e-5 * std::abs(want[i])) << "at " << i;
  }
}

TEST(SavedModel, TensorFlowsSaverGraphSavesAShardedCheckpointThatReloads) {
  // The digits model's own saver nodes (StaticRegexFullMatch, Select, StringJoin,
  // ShardedFilename, SaveV2, MergeV2Checkpoints) write its variables into a copy of the model,
  // which then loads and classifies exactly as the original.
  TempDir dir;
  const std::string copy = dir.path() + "/digits";
  fs::copy(TestdataDir() + "/digits_saved_model", copy, fs::copy_options::recursive);
  fs::remove_all(copy + "/variables");
  std::unique_ptr<Session> s;
  MetaGraphDef mg;
  ASSERT_TRUE(Load(TestdataDir() + "/digits_saved_model", &s, &mg).ok());
  const std::string prefix = copy + "/variables/variables";
  std::vector<Tensor> out;
  absl::Status st = s->Run({{mg.saver_def().filename_tensor_name(),
                             Tensor::Scalar<tstring>(prefix)}},
                           {mg.saver_def().save_tensor_name()}, {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(out[0].data<tstring>()[0], prefix);
  // Only the merged bundle is left: the per-shard temp directory is gone.
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(copy + "/variables")) {
    files.push_back(e.path().filename().string());
  }
  std::sort(files.begin(), files.end());
  EXPECT_EQ(files, (std::vector<std::string>{"variables.data-00000-of-00001",
                                             "variables.index"}));
  auto saved = BundleReader::Open(prefix);
  auto original = BundleReader::Open(TestdataDir() + "/digits_saved_model/variables/variables");
  ASSERT_TRUE(saved.ok() && original.ok());
  ASSERT_EQ((*saved)->entries().size(), (*original)->entries().size());
  for (const auto& [key, entry] : (*original)->entries()) {
    Tensor a, b;
    ASSERT_TRUE((*original)->Lookup(key, &a).ok());
    ASSERT_TRUE((*saved)->Lookup(key, &b).ok()) << key;
    EXPECT_EQ(a.shape(), b.shape()) << key;
    EXPECT_EQ(Values<float>(a), Values<float>(b)) << key;
  }
  std::unique_ptr<Session> reloaded;
  ASSERT_TRUE(Load(copy, &reloaded, &mg).ok());
  std::vector<Tensor> p1, p2;
  const Tensor x = MakeTensor<float>({1, 64}, std::vector<float>(64, 0.5f));
  ASSERT_TRUE(s->Run({{"input:0", x}}, {"probs:0"}, {}, &p1).ok());
  ASSERT_TRUE(reloaded->Run({{"input:0", x}}, {"probs:0"}, {}, &p2).ok());
  EXPECT_EQ(Values<float>(p1[0]), Values<float>(p2[0]));
}

// ---- Round trip: train in sg, SaveV2, RestoreV2 into a new session ---------------------------

NodeDef* AddNode(GraphDef* g, const std::string& name, const std::string& op,
                 std::vector<std::string> inputs) {
  NodeDef* n = g->add_node();
  n->set_name(name);
  n->set_op(op);
  for (auto& i : inputs) n->add_input(i);
  return n;
}

void AddVariable(GraphDef* g, const std::string& name, const Tensor& init) {
  NodeDef* v = AddNode(g, name, "VariableV2", {});
  AddNodeAttr("dtype", init.dtype(), v);
  AddNodeAttr("shape", PartialTensorShape(init.shape()), v);
  NodeDef* c = AddNode(g, name + "/initial_value", "Const", {});
  AddNodeAttr("dtype", init.dtype(), c);
  AddNodeAttr("value", init, c);
  AddNodeAttr("T", init.dtype(), AddNode(g, name + "/Assign", "Assign", {name, name + "/initial_value"}));
}

// w float [2], n int32, s string [2]; "train" adds delta to w and 1 to n; "save" / "restore_all"
// as a Saver builds them (names sorted, prefix fed to "prefix").
GraphDef TrainableGraph() {
  GraphDef g;
  AddVariable(&g, "w", MakeTensor<float>({2}, {1.0f, 2.0f}));
  AddVariable(&g, "n", Tensor::Scalar<int32_t>(0));
  AddVariable(&g, "s", Strings({"x", "yz"}));
  AddNode(&g, "init", "NoOp", {"^w/Assign", "^n/Assign", "^s/Assign"});
  NodeDef* d = AddNode(&g, "delta", "Const", {});
  AddNodeAttr("dtype", DT_FLOAT, d);
  AddNodeAttr("value", MakeTensor<float>({2}, {0.25f, -0.125f}), d);
  NodeDef* one = AddNode(&g, "one", "Const", {});
  AddNodeAttr("dtype", DT_INT32, one);
  AddNodeAttr("value", Tensor::Scalar<int32_t>(1), one);
  AddNodeAttr("T", DT_FLOAT, AddNode(&g, "w/step", "AssignAdd", {"w", "delta"}));
  AddNodeAttr("T", DT_INT32, AddNode(&g, "n/step", "AssignAdd", {"n", "one"}));
  AddNode(&g, "train", "NoOp", {"^w/step", "^n/step"});
  NodeDef* p = AddNode(&g, "prefix", "Placeholder", {});
  AddNodeAttr("dtype", DT_STRING, p);
  NodeDef* names = AddNode(&g, "names", "Const", {});
  AddNodeAttr("dtype", DT_STRING, names);
  AddNodeAttr("value", Strings({"n", "s", "w"}), names);
  NodeDef* slices = AddNode(&g, "slices", "Const", {});
  AddNodeAttr("dtype", DT_STRING, slices);
  AddNodeAttr("value", Strings({"", "", ""}), slices);
  const std::vector<DataType> dtypes = {DT_INT32, DT_STRING, DT_FLOAT};
  AddNodeAttr("dtypes", absl::Span<const DataType>(dtypes),
              AddNode(&g, "save", "SaveV2", {"prefix", "names", "slices", "n", "s", "w"}));
  AddNodeAttr("dtypes", absl::Span<const DataType>(dtypes),
              AddNode(&g, "restore", "RestoreV2", {"prefix", "names", "slices"}));
  AddNodeAttr("T", DT_INT32, AddNode(&g, "restore/n", "Assign", {"n", "restore"}));
  AddNodeAttr("T", DT_STRING, AddNode(&g, "restore/s", "Assign", {"s", "restore:1"}));
  AddNodeAttr("T", DT_FLOAT, AddNode(&g, "restore/w", "Assign", {"w", "restore:2"}));
  AddNode(&g, "restore_all", "NoOp", {"^restore/n", "^restore/s", "^restore/w"});
  return g;
}

TEST(Checkpoint, TrainedVariablesSurviveSaveAndRestore) {
  TempDir dir;
  const std::string prefix = dir.path() + "/train/model.ckpt";
  const GraphDef g = TrainableGraph();
  std::unique_ptr<Session> a;
  ASSERT_TRUE(NewSession(SessionOptions(), &a).ok());
  absl::Status st = a->Create(g);
  ASSERT_TRUE(st.ok()) << st;
  std::vector<Tensor> out;
  ASSERT_TRUE(a->Run({}, {}, {"init"}, &out).ok());
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(a->Run({}, {}, {"train"}, &out).ok());
  st = a->Run({{"prefix:0", Tensor::Scalar<tstring>(prefix)}}, {}, {"save"}, &out);
  ASSERT_TRUE(st.ok()) << st;
  std::vector<Tensor> trained;
  ASSERT_TRUE(a->Run({}, {"w:0", "n:0", "s:0"}, {}, &trained).ok());
  EXPECT_EQ(Values<float>(trained[0]), (std::vector<float>{1.75f, 1.625f}));
  EXPECT_EQ(trained[1].data<int32_t>()[0], 3);

  std::unique_ptr<Session> b;
  ASSERT_TRUE(NewSession(SessionOptions(), &b).ok());
  ASSERT_TRUE(b->Create(g).ok());
  st = b->Run({{"prefix:0", Tensor::Scalar<tstring>(prefix)}}, {}, {"restore_all"}, &out);
  ASSERT_TRUE(st.ok()) << st;
  ASSERT_TRUE(b->Run({}, {"w:0", "n:0", "s:0"}, {}, &out).ok());
  EXPECT_EQ(Values<float>(out[0]), Values<float>(trained[0]));
  EXPECT_EQ(Values<int32_t>(out[1]), Values<int32_t>(trained[1]));
  EXPECT_EQ(Values<tstring>(out[2]), (std::vector<tstring>{"x", "yz"}));

  // Restoring from a prefix with nothing there is NOT_FOUND, naming the file.
  st = b->Run({{"prefix:0", Tensor::Scalar<tstring>(dir.path() + "/none")}}, {}, {"restore_all"},
              &out);
  EXPECT_EQ(st.code(), absl::StatusCode::kNotFound) << st;
}

// ---- Bad input ---------------------------------------------------------------------------------

// A copy of half_plus_two in a temp dir, to damage.
std::string CopyHalfPlusTwo(const TempDir& dir) {
  const std::string dst = dir.path() + "/hp2";
  fs::copy(SharedDir() + "/tfserving_half_plus_two_cpu", dst, fs::copy_options::recursive);
  return dst;
}

absl::Status LoadStatus(const std::string& dir,
                        std::unordered_set<std::string> tags = {kSavedModelTagServe}) {
  std::unique_ptr<Session> s;
  MetaGraphDef mg;
  absl::Status st = Load(dir, &s, &mg, tags);
  if (!st.ok()) EXPECT_EQ(s, nullptr);
  return st;
}

TEST(SavedModelBadInput, MissingDirectoryOrFileIsNotFound) {
  TempDir dir;
  absl::Status st = LoadStatus(dir.path() + "/nope");
  EXPECT_EQ(st.code(), absl::StatusCode::kNotFound);
  EXPECT_NE(st.message().find("nope"), std::string::npos) << st;
  st = LoadStatus(dir.path());
  EXPECT_EQ(st.code(), absl::StatusCode::kNotFound);
  EXPECT_NE(st.message().find("saved_model.pb"), std::string::npos) << st;
}

TEST(SavedModelBadInput, CorruptSavedModelIsInvalidArgument) {
  TempDir dir;
  WriteAll(dir.path() + "/saved_model.pb", "\x0a\xff\xff\xff\x0f garbage");
  absl::Status st = LoadStatus(dir.path());
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
  fs::remove(dir.path() + "/saved_model.pb");
  WriteAll(dir.path() + "/saved_model.pbtxt", "meta_graphs { no_such_field: 1 }");
  st = LoadStatus(dir.path());
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
}

TEST(SavedModelBadInput, UnmatchedTagSetIsNotFoundListingTheTags) {
  SKIP_WITHOUT_SHARED();
  absl::Status st = LoadStatus(SharedDir() + "/tfserving_half_plus_two_cpu", {"serve", "gpu"});
  EXPECT_EQ(st.code(), absl::StatusCode::kNotFound);
  EXPECT_NE(st.message().find("{gpu, serve}"), std::string::npos) << st;
  EXPECT_NE(st.message().find("{serve}"), std::string::npos) << st;
  EXPECT_EQ(LoadStatus(SharedDir() + "/tfserving_half_plus_two_cpu", {}).code(),
            absl::StatusCode::kNotFound);
}

TEST(SavedModelBadInput, TruncatedIndexIsDataLoss) {
  SKIP_WITHOUT_SHARED();
  TempDir dir;
  const std::string sm = CopyHalfPlusTwo(dir);
  const std::string index = sm + "/variables/variables.index";
  WriteAll(index, ReadAll(index).substr(0, 100));
  absl::Status st = LoadStatus(sm);
  EXPECT_EQ(st.code(), absl::StatusCode::kDataLoss) << st;
  EXPECT_NE(st.message().find("variables.index"), std::string::npos) << st;
}

TEST(SavedModelBadInput, FlippedDataByteIsDataLoss) {
  SKIP_WITHOUT_SHARED();
  TempDir dir;
  const std::string sm = CopyHalfPlusTwo(dir);
  const std::string data = sm + "/variables/variables.data-00000-of-00001";
  std::string bytes = ReadAll(data);
  bytes[9] ^= 0x01;
  WriteAll(data, bytes);
  absl::Status st = LoadStatus(sm);
  EXPECT_EQ(st.code(), absl::StatusCode::kDataLoss) << st;
  EXPECT_NE(st.message().find("checksum"), std::string::npos) << st;
}

TEST(SavedModelBadInput, MissingShardIsNotFound) {
  SKIP_WITHOUT_SHARED();
  TempDir dir;
  const std::string sm = CopyHalfPlusTwo(dir);
  fs::remove(sm + "/variables/variables.data-00000-of-00001");
  absl::Status st = LoadStatus(sm);
  EXPECT_EQ(st.code(), absl::StatusCode::kNotFound) << st;
  EXPECT_NE(st.message().find("variables.data-00000-of-00001"), std::string::npos) << st;
}

// Replaces the model's checkpoint with one where `a` is `a_value` (the rest as TensorFlow's).
void RewriteCheckpoint(const std::string& sm, const Tensor& a_value) {
  const std::string prefix = sm + "/variables/variables";
  std::map<std::string, Tensor> values;
  {
    auto r = BundleReader::Open(prefix);
    ASSERT_TRUE(r.ok());
    for (const auto& [k, e] : (*r)->entries()) ASSERT_TRUE((*r)->Lookup(k, &values[k]).ok());
  }
  values["a"] = a_value;
  BundleWriter w(prefix);
  for (const auto& [k, v] : values) ASSERT_TRUE(w.Add(k, v).ok());
  ASSERT_TRUE(w.Finish().ok());
}

TEST(SavedModelBadInput, CheckpointDtypeOrShapeMismatchIsInvalidArgument) {
  SKIP_WITHOUT_SHARED();
  {
    TempDir dir;
    const std::string sm = CopyHalfPlusTwo(dir);
    RewriteCheckpoint(sm, Tensor::Scalar<int32_t>(7));
    absl::Status st = LoadStatus(sm);
    EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
    EXPECT_NE(st.message().find("int32"), std::string::npos) << st;
  }
  {
    TempDir dir;
    const std::string sm = CopyHalfPlusTwo(dir);
    RewriteCheckpoint(sm, MakeTensor<float>({2}, {1, 2}));
    absl::Status st = LoadStatus(sm);
    EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
  }
  {
    // A good rewrite loads and serves the new value: a = 1 gives y = x + 2.
    TempDir dir;
    const std::string sm = CopyHalfPlusTwo(dir);
    RewriteCheckpoint(sm, Tensor::Scalar<float>(1));
    std::unique_ptr<Session> s;
    MetaGraphDef mg;
    ASSERT_TRUE(Load(sm, &s, &mg).ok());
    std::vector<Tensor> out;
    ASSERT_TRUE(s->Run({{"x:0", MakeTensor<float>({1, 1}, {5})}}, {"y:0"}, {}, &out).ok());
    EXPECT_EQ(out[0].data<float>()[0], 7.0f);
  }
}

TEST(SavedModel, TextSavedModelLoadsLikeBinary) {
  SKIP_WITHOUT_SHARED();
  TempDir dir;
  const std::string sm = CopyHalfPlusTwo(dir);
  SavedModel model;
  ASSERT_TRUE(ReadSavedModel(sm, &model).ok());
  std::string text;
  ASSERT_TRUE(google::protobuf::TextFormat::PrintToString(model, &text));
  fs::remove(sm + "/saved_model.pb");
  WriteAll(sm + "/saved_model.pbtxt", text);
  std::unique_ptr<Session> s;
  MetaGraphDef mg;
  absl::Status st = Load(sm, &s, &mg);
  ASSERT_TRUE(st.ok()) << st;
  std::vector<Tensor> out;
  ASSERT_TRUE(s->Run({{"x:0", MakeTensor<float>({1, 1}, {2})}}, {"y2:0"}, {}, &out).ok());
  EXPECT_EQ(out[0].data<float>()[0], 4.0f);
  ASSERT_TRUE(s->Run({}, {"filename_tensor:0"}, {}, &out).ok());
  EXPECT_EQ(out[0].data<tstring>()[0], "foo.txt");
}

TEST(SavedModel, TextSavedModelWithTensorFlowAnyTypesParses) {
  // TensorFlow's text format spells the asset collection's Any with its type expanded.
  TempDir dir;
  WriteAll(dir.path() + "/saved_model.pbtxt", R"(
    saved_model_schema_version: 1
    meta_graphs {
      meta_info_def { tags: "serve" }
      collection_def {
        key: "saved_model_assets"
        value { any_list { value {
          [type.googleapis.com/tensorflow.AssetFileDef] {
            tensor_info { name: "vocab:0" } filename: "vocab.txt" } } } }
      }
    })");
  SavedModel model;
  absl::Status st = ReadSavedModel(dir.path(), &model);
  ASSERT_TRUE(st.ok()) << st;
  MetaGraphDef mg;
  ASSERT_TRUE(FindMetaGraphDef(model, {"serve"}, dir.path(), &mg).ok());
  std::vector<std::pair<std::string, Tensor>> feeds;
  ASSERT_TRUE(GetAssetFeeds(mg, dir.path(), &feeds).ok());
  ASSERT_EQ(feeds.size(), 1u);
  EXPECT_EQ(feeds[0].first, "vocab:0");
  EXPECT_EQ(feeds[0].second.data<tstring>()[0], dir.path() + "/assets/vocab.txt");
}

}  // namespace
}  // namespace sg
