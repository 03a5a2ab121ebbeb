// Functional control flow (While, If, Case) lowered to v1 frames and run in a DirectSession, on
// GraphDefs written here by hand for what TensorFlow's own graphs (tests/oracle/tf2_graphs, run by
// testdata_graphs_test) do not show: conditions that are not bools (ToBool), a Case index out of
// range, a loop in two CPU devices' session, library functions never called, and the errors of
// malformed nodes. Expected values are worked out by hand in the comments.
#include <gtest/gtest.h>

#include "core/framework/tensor.h"
#include "core/proto/graph.pb.h"
#include "core/runtime/session.h"
#include "google/protobuf/text_format.h"

namespace sg {
namespace {

// A library with:
//   add_one(x: int32) -> x + 1
//   double_it(x: int32) -> x * 2
//   negate(x: int32) -> -x
//   below(i: int32, limit: int32) -> int32 (limit - i): non-zero means "go on", via ToBool
//   step(i: int32, limit: int32) -> (i + 1, limit)
//   broken(x: int32) -> NoSuchOp(x): never called by the graphs that load it
constexpr const char* kLibrary = R"pb(
  library {
    function {
      signature { name: "add_one" input_arg { name: "x" type: DT_INT32 }
                  output_arg { name: "y" type: DT_INT32 } }
      node_def { name: "one" op: "Const"
                 attr { key: "dtype" value { type: DT_INT32 } }
                 attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape {} int_val: 1 } } } }
      node_def { name: "sum" op: "AddV2" input: "x" input: "one:output:0"
                 attr { key: "T" value { type: DT_INT32 } } }
      ret { key: "y" value: "sum:z:0" }
    }
    function {
      signature { name: "double_it" input_arg { name: "x" type: DT_INT32 }
                  output_arg { name: "y" type: DT_INT32 } }
      node_def { name: "sum" op: "AddV2" input: "x" input: "x"
                 attr { key: "T" value { type: DT_INT32 } } }
      ret { key: "y" value: "sum:z:0" }
    }
    function {
      signature { name: "negate" input_arg { name: "x" type: DT_INT32 }
                  output_arg { name: "y" type: DT_INT32 } }
      node_def { name: "neg" op: "Neg" input: "x" attr { key: "T" value { type: DT_INT32 } } }
      ret { key: "y" value: "neg:y:0" }
    }
    function {
      signature { name: "below" input_arg { name: "i" type: DT_INT32 }
                  input_arg { name: "limit" type: DT_INT32 }
                  output_arg { name: "go_on" type: DT_INT32 } }
      node_def { name: "d" op: "Sub" input: "limit" input: "i"
                 attr { key: "T" value { type: DT_INT32 } } }
      ret { key: "go_on" value: "d:z:0" }
    }
    function {
      signature { name: "step" input_arg { name: "i" type: DT_INT32 }
                  input_arg { name: "limit" type: DT_INT32 }
                  output_arg { name: "i_next" type: DT_INT32 }
                  output_arg { name: "limit_out" type: DT_INT32 } }
      node_def { name: "call" op: "add_one" input: "i" }
      ret { key: "i_next" value: "call:y:0" }
      ret { key: "limit_out" value: "limit" }
    }
    function {
      signature { name: "broken" input_arg { name: "x" type: DT_INT32 }
                  output_arg { name: "y" type: DT_INT32 } }
      node_def { name: "bad" op: "NoSuchOp" input: "x" }
      ret { key: "y" value: "bad:y:0" }
    }
  }
)pb";

constexpr const char* kNodes = R"pb(
  node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_INT32 } } }
  node { name: "flag" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } } }
  node { name: "index" op: "Placeholder" attr { key: "dtype" value { type: DT_INT32 } } }
  node { name: "limit" op: "Placeholder" attr { key: "dtype" value { type: DT_INT32 } } }
  node {
    name: "if" op: "If" input: "flag" input: "x"
    attr { key: "Tcond" value { type: DT_FLOAT } }
    attr { key: "Tin" value { list { type: DT_INT32 } } }
    attr { key: "Tout" value { list { type: DT_INT32 } } }
    attr { key: "then_branch" value { func { name: "add_one" } } }
    attr { key: "else_branch" value { func { name: "negate" } } }
  }
  node {
    name: "case" op: "Case" input: "index" input: "x"
    attr { key: "Tin" value { list { type: DT_INT32 } } }
    attr { key: "Tout" value { list { type: DT_INT32 } } }
    attr { key: "branches" value { list { func { name: "add_one" } func { name: "double_it" }
                                          func { name: "negate" } } } }
  }
  node {
    name: "loop" op: "While" input: "x" input: "limit"
    attr { key: "T" value { list { type: DT_INT32 type: DT_INT32 } } }
    attr { key: "cond" value { func { name: "below" } } }
    attr { key: "body" value { func { name: "step" } } }
  }
)pb";

GraphDef Parse(const std::string& text) {
  GraphDef g;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &g)) << text;
  return g;
}

std::unique_ptr<Session> MakeSession(const GraphDef& g, int cpu_devices = 1) {
  SessionOptions opts;
  (*opts.config.mutable_device_count())["CPU"] = cpu_devices;
  std::unique_ptr<Session> s;
  EXPECT_TRUE(NewSession(opts, &s).ok());
  absl::Status st = s->Create(g);
  EXPECT_TRUE(st.ok()) << st;
  return s;
}

int32_t RunScalar(Session* s, const std::vector<std::pair<std::string, Tensor>>& feeds,
                  const std::string& fetch) {
  std::vector<Tensor> out;
  absl::Status st = s->Run(feeds, {fetch}, {}, &out);
  EXPECT_TRUE(st.ok()) << fetch << ": " << st;
  if (!st.ok() || out.size() != 1 || out[0].dtype() != DT_INT32) return INT32_MIN;
  return out[0].data<int32_t>()[0];
}

TEST(FunctionalOpsTest, IfConvertsANonBoolConditionAsToBool) {
  auto s = MakeSession(Parse(std::string(kLibrary) + kNodes));
  // flag 2.5 -> true -> add_one(4) = 5; flag 0 -> false -> negate(4) = -4.
  EXPECT_EQ(RunScalar(s.get(), {{"flag", Tensor::Scalar<float>(2.5f)}, {"x", Tensor::Scalar(4)}},
                      "if:0"),
            5);
  EXPECT_EQ(RunScalar(s.get(), {{"flag", Tensor::Scalar<float>(0.0f)}, {"x", Tensor::Scalar(4)}},
                      "if:0"),
            -4);
}

TEST(FunctionalOpsTest, CaseTakesTheLastBranchForAnIndexOutOfRange) {
  auto s = MakeSession(Parse(std::string(kLibrary) + kNodes));
  // x = 6: branch 0 -> 7, 1 -> 12, 2 -> -6; 3 and -1 are out of range -> branch 2 -> -6.
  const int32_t want[] = {7, 12, -6, -6, -6};
  const int32_t index[] = {0, 1, 2, 3, -1};
  for (int k = 0; k < 5; ++k) {
    EXPECT_EQ(RunScalar(s.get(), {{"index", Tensor::Scalar(index[k])}, {"x", Tensor::Scalar(6)}},
                        "case:0"),
              want[k])
        << "index " << index[k];
  }
}

TEST(FunctionalOpsTest, WhileWithAnIntConditionAndANestedCall) {
  // below() returns limit - i, non-zero while i != limit; step() calls add_one, a call inside
  // the loop body's function.
  for (int devices : {1, 2}) {
    auto s = MakeSession(Parse(std::string(kLibrary) + kNodes), devices);
    EXPECT_EQ(RunScalar(s.get(), {{"x", Tensor::Scalar(3)}, {"limit", Tensor::Scalar(10)}},
                        "loop:0"),
              10);
    EXPECT_EQ(RunScalar(s.get(), {{"x", Tensor::Scalar(10)}, {"limit", Tensor::Scalar(10)}},
                        "loop:0"),
              10);
    EXPECT_EQ(RunScalar(s.get(), {{"x", Tensor::Scalar(0)}, {"limit", Tensor::Scalar(4)}},
                        "loop:1"),
              4);
  }
}

TEST(FunctionalOpsTest, AFunctionNeverCalledDoesNotStopTheGraph) {
  // `broken` uses an op sg does not have; nothing calls it.
  auto s = MakeSession(Parse(std::string(kLibrary) + kNodes));
  EXPECT_EQ(RunScalar(s.get(), {{"index", Tensor::Scalar(1)}, {"x", Tensor::Scalar(2)}}, "case:0"),
            4);
}

TEST(FunctionalOpsTest, CallingABrokenFunctionNamesTheOp) {
  auto g = Parse(std::string(kLibrary) + R"pb(
    node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_INT32 } } }
    node { name: "call" op: "PartitionedCall" input: "x"
           attr { key: "Tin" value { list { type: DT_INT32 } } }
           attr { key: "Tout" value { list { type: DT_INT32 } } }
           attr { key: "f" value { func { name: "broken" } } } }
  )pb");
  SessionOptions opts;
  std::unique_ptr<Session> s;
  ASSERT_TRUE(NewSession(opts, &s).ok());
  absl::Status st = s->Create(g);
  if (st.ok()) {
    std::vector<Tensor> out;
    st = s->Run({{"x", Tensor::Scalar(1)}}, {"call:0"}, {}, &out);
  }
  ASSERT_FALSE(st.ok());
  EXPECT_NE(std::string(st.message()).find("NoSuchOp"), std::string::npos) << st;
}

TEST(FunctionalOpsTest, WhileCallingAMissingFunctionIsNotFound) {
  auto g = Parse(std::string(kLibrary) + R"pb(
    node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_INT32 } } }
    node { name: "loop" op: "While" input: "x"
           attr { key: "T" value { list { type: DT_INT32 } } }
           attr { key: "cond" value { func { name: "no_such_cond" } } }
           attr { key: "body" value { func { name: "add_one" } } } }
  )pb");
  SessionOptions opts;
  std::unique_ptr<Session> s;
  ASSERT_TRUE(NewSession(opts, &s).ok());
  absl::Status st = s->Create(g);
  std::vector<Tensor> out;
  if (st.ok()) st = s->Run({{"x", Tensor::Scalar(1)}}, {"loop:0"}, {}, &out);
  EXPECT_EQ(st.code(), absl::StatusCode::kNotFound) << st;
  EXPECT_NE(std::string(st.message()).find("no_such_cond"), std::string::npos) << st;
}

}  // namespace
}  // namespace sg
