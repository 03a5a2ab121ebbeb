// Session tensors across runs: a run that fetches GetSessionHandle's handle leaves its tensor in
// the session, a later run reads it back with GetSessionTensor, DeleteSessionTensor drops it; a
// handle computed but not fetched keeps nothing.
#include <gtest/gtest.h>
#include <google/protobuf/text_format.h>

#include "core/runtime/session.h"

namespace sg {
namespace {

constexpr const char* kGraph = R"pb(
  node { name: "c" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }
         attr { key: "value" value { tensor { dtype: DT_FLOAT
                                              tensor_shape { dim { size: 2 } }
                                              float_val: 1.5 float_val: -2 } } } }
  node { name: "h" op: "GetSessionHandle" input: "c" attr { key: "T" value { type: DT_FLOAT } } }
  node { name: "h_text" op: "Identity" input: "h" attr { key: "T" value { type: DT_STRING } } }
  node { name: "handle" op: "Placeholder" attr { key: "dtype" value { type: DT_STRING } } }
  node { name: "get" op: "GetSessionTensor" input: "handle"
         attr { key: "dtype" value { type: DT_FLOAT } } }
  node { name: "delete" op: "DeleteSessionTensor" input: "handle" }
)pb";

class SessionTensorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    GraphDef graph;
    ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(kGraph, &graph));
    ASSERT_TRUE(NewSession(SessionOptions(), &session_).ok());
    ASSERT_TRUE(session_->Create(graph).ok());
  }
  absl::StatusOr<Tensor> Fetch(const std::string& name, const std::string& handle = "") {
    std::vector<std::pair<std::string, Tensor>> feeds;
    if (!handle.empty()) {
      Tensor t(DT_STRING, TensorShape());
      t.data<tstring>()[0] = handle;
      feeds.emplace_back("handle", t);
    }
    std::vector<Tensor> out;
    SG_RETURN_IF_ERROR(session_->Run(RunOptions(), feeds, {name}, {}, &out, nullptr));
    return out[0];
  }
  absl::Status Delete(const std::string& handle) {
    Tensor t(DT_STRING, TensorShape());
    t.data<tstring>()[0] = handle;
    std::vector<Tensor> out;
    return session_->Run(RunOptions(), {{"handle", t}}, {}, {"delete"}, &out, nullptr);
  }

  std::unique_ptr<Session> session_;
};

TEST_F(SessionTensorTest, AFetchedHandleReadsBackInLaterRunsUntilDeleted) {
  auto h = Fetch("h");
  ASSERT_TRUE(h.ok()) << h.status();
  const std::string handle(h->data<tstring>()[0]);
  EXPECT_EQ(handle.substr(0, 4), "h;0;");
  for (int i = 0; i < 2; ++i) {  // reading does not consume it
    auto v = Fetch("get", handle);
    ASSERT_TRUE(v.ok()) << v.status();
    ASSERT_EQ(v->NumElements(), 2);
    EXPECT_EQ(v->data<float>()[0], 1.5f);
    EXPECT_EQ(v->data<float>()[1], -2.0f);
  }
  ASSERT_TRUE(Delete(handle).ok());
  EXPECT_EQ(Fetch("get", handle).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Delete(handle).code(), absl::StatusCode::kInvalidArgument);
  // The next handle has the next id.
  auto h2 = Fetch("h");
  ASSERT_TRUE(h2.ok()) << h2.status();
  EXPECT_EQ(std::string(h2->data<tstring>()[0]).substr(0, 4), "h;1;");
}

TEST_F(SessionTensorTest, AHandleNotFetchedKeepsNothing) {
  auto text = Fetch("h_text");
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_EQ(Fetch("get", std::string(text->data<tstring>()[0])).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace sg
