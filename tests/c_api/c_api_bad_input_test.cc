// Bad input through the C API (issue 2 §8): each row feeds one kind of bad input and expects
// one TensorFlow code and a message that names the culprit, with no crash, hang or leak.
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "sg/c_api.h"

namespace {

// A status, a graph and (on demand) a session, freed at the end of each row.
class Env {
 public:
  Env() : s_(SG_NewStatus()), g_(SG_NewGraph()), opts_(SG_NewSessionOptions()) {}
  ~Env() {
    if (sess_ != nullptr) SG_DeleteSession(sess_, s_);
    SG_DeleteSessionOptions(opts_);
    SG_DeleteGraph(g_);
    SG_DeleteStatus(s_);
  }
  SG_Status* s() { return s_; }
  SG_Graph* g() { return g_; }

  SG_Operation* Placeholder(const char* name, SG_DataType dt, std::vector<int64_t> dims,
                            bool unknown_rank = false) {
    SG_OperationDescription* d = SG_NewOperation(g_, "Placeholder", name);
    SG_SetAttrType(d, "dtype", dt);
    SG_SetAttrShape(d, "shape", dims.data(), unknown_rank ? -1 : static_cast<int>(dims.size()));
    return Must(SG_FinishOperation(d, s_));
  }
  SG_Operation* Binary(const char* op, const char* name, SG_Output a, SG_Output b) {
    SG_OperationDescription* d = SG_NewOperation(g_, op, name);
    SG_AddInput(d, a);
    SG_AddInput(d, b);
    return Must(SG_FinishOperation(d, s_));
  }
  SG_Session* Session() {
    if (sess_ == nullptr) sess_ = SG_NewSession(g_, opts_, s_);
    EXPECT_EQ(SG_GetCode(s_), SG_OK) << SG_Message(s_);
    return sess_;
  }
  // Runs with the given feeds and fetches; deletes the results and returns how many came back.
  int Run(std::vector<SG_Output> in, std::vector<SG_Tensor*> values, std::vector<SG_Output> out) {
    SG_Session* sess = Session();
    std::vector<SG_Tensor*> results(out.size(), reinterpret_cast<SG_Tensor*>(1));
    SG_SessionRun(sess, nullptr, in.data(), values.data(), static_cast<int>(in.size()),
                  out.data(), results.data(), static_cast<int>(out.size()), nullptr, 0, nullptr,
                  s_);
    int n = 0;
    for (SG_Tensor* t : results) {
      if (SG_GetCode(s_) != SG_OK) EXPECT_EQ(t, nullptr) << "outputs must be NULL on failure";
      if (t != nullptr) ++n;
      SG_DeleteTensor(t);
    }
    return n;
  }
  void Import(const std::string& text) {
    SG_Buffer* buf = SG_NewBufferFromString(text.data(), text.size());
    SG_GraphImportGraphDef(g_, buf, nullptr, s_);
    SG_DeleteBuffer(buf);
  }

 private:
  SG_Operation* Must(SG_Operation* op) {
    EXPECT_EQ(SG_GetCode(s_), SG_OK) << SG_Message(s_);
    return op;
  }
  SG_Status* s_;
  SG_Graph* g_;
  SG_SessionOptions* opts_;
  SG_Session* sess_ = nullptr;
};

SG_Tensor* Floats(std::vector<int64_t> dims, float fill = 1.0f) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  SG_Tensor* t = SG_AllocateTensor(SG_FLOAT, dims.data(), static_cast<int>(dims.size()),
                                   n * sizeof(float));
  for (int64_t i = 0; i < n; ++i) static_cast<float*>(SG_TensorData(t))[i] = fill;
  return t;
}

SG_Tensor* Int64s(std::vector<int64_t> values) {
  int64_t dims[1] = {static_cast<int64_t>(values.size())};
  SG_Tensor* t = SG_AllocateTensor(SG_INT64, dims, 1, values.size() * sizeof(int64_t));
  std::memcpy(SG_TensorData(t), values.data(), values.size() * sizeof(int64_t));
  return t;
}

int dealloc_calls = 0;
void CountingDealloc(void* data, size_t, void*) {
  ++dealloc_calls;
  std::free(data);
}

struct Row {
  const char* name;
  // Does the bad thing with env.s() as its status.
  std::function<void(Env&)> run;
  SG_Code code;
  std::string culprit;  // must appear in the message
};

const std::vector<Row>& Rows() {
  static const auto* rows = new std::vector<Row>{
      {"GarbageBytesAsGraphDef",
       [](Env& e) { e.Import(std::string("\x93\xff\x01garbage\x00\x17", 12)); },
       SG_INVALID_ARGUMENT, "GraphDef"},
      {"UnknownOpInFinishOperation",
       [](Env& e) {
         SG_FinishOperation(SG_NewOperation(e.g(), "NoSuchOp", "n"), e.s());
       },
       SG_NOT_FOUND, "NoSuchOp"},
      {"UnknownOpInGraphDef",
       [](Env& e) { e.Import("node { name: 'n' op: 'NoSuchOp' }"); }, SG_NOT_FOUND, "NoSuchOp"},
      {"MissingAttr",
       [](Env& e) { SG_FinishOperation(SG_NewOperation(e.g(), "Placeholder", "p"), e.s()); },
       SG_INVALID_ARGUMENT, "dtype"},
      {"MistypedAttr",
       [](Env& e) {
         SG_OperationDescription* d = SG_NewOperation(e.g(), "Placeholder", "p");
         SG_SetAttrInt(d, "dtype", 1);
         SG_FinishOperation(d, e.s());
       },
       SG_INVALID_ARGUMENT, "dtype"},
      {"MistypedAttrInGraphDef",
       [](Env& e) { e.Import("node { name: 'p' op: 'Placeholder' attr { key: 'dtype' value { s: 'x' } } }"); },
       SG_INVALID_ARGUMENT, "dtype"},
      {"DuplicateNodeName",
       [](Env& e) {
         e.Placeholder("x", SG_FLOAT, {2});
         SG_OperationDescription* d = SG_NewOperation(e.g(), "Placeholder", "x");
         SG_SetAttrType(d, "dtype", SG_FLOAT);
         SG_FinishOperation(d, e.s());
       },
       SG_INVALID_ARGUMENT, "'x'"},
      {"DuplicateNodeNameInGraphDef",
       [](Env& e) {
         e.Import("node { name: 'x' op: 'NoOp' } node { name: 'x' op: 'NoOp' }");
       },
       SG_INVALID_ARGUMENT, "'x'"},
      {"CycleWithoutNextIteration",
       [](Env& e) {
         e.Import(
             "node { name: 'a' op: 'Identity' input: 'b' attr { key: 'T' value { type: DT_FLOAT } } }"
             "node { name: 'b' op: 'Identity' input: 'a' attr { key: 'T' value { type: DT_FLOAT } } }");
       },
       SG_INVALID_ARGUMENT, "cycle"},
      {"InputNamesMissingNode",
       [](Env& e) {
         e.Import("node { name: 'a' op: 'Identity' input: 'nowhere' attr { key: 'T' value { type: DT_FLOAT } } }");
       },
       SG_INVALID_ARGUMENT, "nowhere"},
      {"InputNamesMissingOutputIndex",
       [](Env& e) {
         e.Import(
             "node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }"
             "node { name: 'a' op: 'Identity' input: 'x:3' attr { key: 'T' value { type: DT_FLOAT } } }");
       },
       SG_INVALID_ARGUMENT, "x:3"},
      {"AddInputOutputIndexOutOfRange",
       [](Env& e) {
         SG_Operation* x = e.Placeholder("x", SG_FLOAT, {2});
         SG_OperationDescription* d = SG_NewOperation(e.g(), "Identity", "id");
         SG_AddInput(d, SG_Output{x, 3});
         SG_FinishOperation(d, e.s());
       },
       SG_INVALID_ARGUMENT, "'x'"},
      {"AddInputFromAnotherGraph",
       [](Env& e) {
         Env other;
         SG_Operation* x = other.Placeholder("elsewhere", SG_FLOAT, {2});
         SG_OperationDescription* d = SG_NewOperation(e.g(), "Identity", "id");
         SG_AddInput(d, SG_Output{x, 0});
         SG_FinishOperation(d, e.s());
       },
       SG_INVALID_ARGUMENT, "another graph"},
      {"WrongNumberOfInputs",
       [](Env& e) {
         SG_Operation* x = e.Placeholder("x", SG_FLOAT, {2});
         SG_OperationDescription* d = SG_NewOperation(e.g(), "AddV2", "add");
         SG_AddInput(d, SG_Output{x, 0});
         SG_FinishOperation(d, e.s());
       },
       SG_INVALID_ARGUMENT, "'add'"},
      {"FeedOfWrongDtype",
       [](Env& e) {
         SG_Operation* x = e.Placeholder("x", SG_FLOAT, {2});
         int64_t dims[1] = {2};
         SG_Tensor* t = SG_AllocateTensor(SG_INT32, dims, 1, 8);
         e.Run({{x, 0}}, {t}, {{x, 0}});
         SG_DeleteTensor(t);
       },
       SG_INVALID_ARGUMENT, "x:0"},
      {"SameTensorFedTwice",
       [](Env& e) {
         SG_Operation* x = e.Placeholder("x", SG_FLOAT, {2});
         SG_Operation* y = e.Binary("AddV2", "y", {x, 0}, {x, 0});
         SG_Tensor* t = Floats({2});
         e.Run({{x, 0}, {x, 0}}, {t, t}, {{y, 0}});
         SG_DeleteTensor(t);
       },
       SG_INVALID_ARGUMENT, "x:0"},
      {"FetchOfUnknownTensor",
       [](Env& e) {
         SG_Operation* x = e.Placeholder("x", SG_FLOAT, {2});
         SG_Tensor* t = Floats({2});
         e.Run({{x, 0}}, {t}, {{x, 5}});
         SG_DeleteTensor(t);
       },
       SG_NOT_FOUND, "x:5"},
      {"FetchFromAnotherGraph",
       [](Env& e) {
         Env other;
         SG_Operation* elsewhere = other.Placeholder("elsewhere", SG_FLOAT, {2});
         SG_Operation* x = e.Placeholder("x", SG_FLOAT, {2});
         SG_Tensor* t = Floats({2});
         e.Run({{x, 0}}, {t}, {{elsewhere, 0}});
         SG_DeleteTensor(t);
       },
       SG_NOT_FOUND, "elsewhere"},
      {"NullInputsWithNonZeroCount",
       [](Env& e) {
         SG_Operation* x = e.Placeholder("x", SG_FLOAT, {2});
         SG_Output out{x, 0};
         SG_Tensor* r = nullptr;
         SG_SessionRun(e.Session(), nullptr, nullptr, nullptr, 1, &out, &r, 1, nullptr, 0,
                       nullptr, e.s());
         EXPECT_EQ(r, nullptr);
       },
       SG_INVALID_ARGUMENT, "inputs"},
      {"NullOutputValuesWithNonZeroCount",
       [](Env& e) {
         SG_Operation* x = e.Placeholder("x", SG_FLOAT, {2});
         SG_Output out{x, 0};
         SG_SessionRun(e.Session(), nullptr, nullptr, nullptr, 0, &out, nullptr, 1, nullptr, 0,
                       nullptr, e.s());
       },
       SG_INVALID_ARGUMENT, "output_values"},
      {"NullTargetsWithNonZeroCount",
       [](Env& e) {
         e.Placeholder("x", SG_FLOAT, {2});
         SG_SessionRun(e.Session(), nullptr, nullptr, nullptr, 0, nullptr, nullptr, 0, nullptr,
                       2, nullptr, e.s());
       },
       SG_INVALID_ARGUMENT, "target_opers"},
      {"NegativeCount",
       [](Env& e) {
         e.Placeholder("x", SG_FLOAT, {2});
         SG_SessionRun(e.Session(), nullptr, nullptr, nullptr, -1, nullptr, nullptr, 0, nullptr,
                       0, nullptr, e.s());
       },
       SG_INVALID_ARGUMENT, "negative"},
      {"NullInputListWithNonZeroCount",
       [](Env& e) {
         SG_OperationDescription* d = SG_NewOperation(e.g(), "AddN", "sum");
         SG_AddInputList(d, nullptr, 2);
         SG_FinishOperation(d, e.s());
       },
       SG_INVALID_ARGUMENT, "SG_AddInputList"},
      {"NullAttrListWithNonZeroCount",
       [](Env& e) {
         SG_OperationDescription* d = SG_NewOperation(e.g(), "Placeholder", "p");
         SG_SetAttrType(d, "dtype", SG_FLOAT);
         SG_SetAttrIntList(d, "shape", nullptr, 3);
         SG_FinishOperation(d, e.s());
       },
       SG_INVALID_ARGUMENT, "shape"},
      {"DimBelowMinusOne",
       [](Env& e) {
         SG_OperationDescription* d = SG_NewOperation(e.g(), "Placeholder", "p");
         SG_SetAttrType(d, "dtype", SG_FLOAT);
         int64_t dims[2] = {2, -7};
         SG_SetAttrShape(d, "shape", dims, 2);
         SG_FinishOperation(d, e.s());
       },
       SG_INVALID_ARGUMENT, "dims[1]"},
      {"SetTensorShapeDimBelowMinusOne",
       [](Env& e) {
         SG_Operation* x = e.Placeholder("x", SG_FLOAT, {2}, true);
         int64_t dims[1] = {-3};
         SG_GraphSetTensorShape(e.g(), {x, 0}, dims, 1, e.s());
       },
       SG_INVALID_ARGUMENT, "dims[0]"},
      {"SetTensorShapeContradiction",
       [](Env& e) {
         SG_Operation* x = e.Placeholder("x", SG_FLOAT, {2, 3});
         int64_t dims[2] = {2, 4};
         SG_GraphSetTensorShape(e.g(), {x, 0}, dims, 2, e.s());
       },
       SG_INVALID_ARGUMENT, "x:0"},
      {"NonEmptyOutputBuffer",
       [](Env& e) {
         SG_Buffer* buf = SG_NewBufferFromString("x", 1);
         SG_GraphToGraphDef(e.g(), buf, e.s());
         SG_DeleteBuffer(buf);
       },
       SG_INVALID_ARGUMENT, "non-empty"},
      {"UnparseableConfig",
       [](Env& e) {
         SG_SessionOptions* o = SG_NewSessionOptions();
         SG_SetConfig(o, "\xff\xff\xff", 3, e.s());
         SG_DeleteSessionOptions(o);
       },
       SG_INVALID_ARGUMENT, "ConfigProto"},
      {"UnknownTarget",
       [](Env& e) {
         SG_SessionOptions* o = SG_NewSessionOptions();
         SG_SetTarget(o, "carrier-pigeon://loft");
         SG_Session* s = SG_NewSession(e.g(), o, e.s());
         EXPECT_EQ(s, nullptr);
         SG_DeleteSessionOptions(o);
       },
       SG_INVALID_ARGUMENT, "carrier-pigeon://loft"},
      {"UniquifyNamesDoesNotHideADuplicateInTheGraphDef",
       [](Env& e) {
         SG_ImportGraphDefOptions* o = SG_NewImportGraphDefOptions();
         SG_ImportGraphDefOptionsSetUniquifyNames(o, 1);
         std::string text = "node { name: 'n' op: 'NoOp' } node { name: 'n' op: 'NoOp' }";
         SG_Buffer* buf = SG_NewBufferFromString(text.data(), text.size());
         SG_GraphImportGraphDef(e.g(), buf, o, e.s());
         SG_DeleteBuffer(buf);
         SG_DeleteImportGraphDefOptions(o);
       },
       SG_INVALID_ARGUMENT, "Duplicate node name in graph: 'n'"},
      {"TryEvaluateConstantOfNoOperation",
       [](Env& e) {
         SG_Tensor* result = reinterpret_cast<SG_Tensor*>(1);
         EXPECT_EQ(SG_TryEvaluateConstant(e.g(), {nullptr, 0}, &result, e.s()), 0);
         EXPECT_EQ(result, nullptr);
       },
       SG_INVALID_ARGUMENT, "NULL operation"},
      {"TryEvaluateConstantOutOfRange",
       [](Env& e) {
         SG_Operation* x = e.Placeholder("x", SG_FLOAT, {2});
         SG_Tensor* result = nullptr;
         EXPECT_EQ(SG_TryEvaluateConstant(e.g(), {x, 3}, &result, e.s()), 0);
       },
       SG_INVALID_ARGUMENT, "x:3"},
      {"BitcastOfAString",
       [](Env& e) {
         const char* word = "w";
         size_t len = 1;
         SG_Tensor* from = SG_NewStringTensor(nullptr, 0, &word, &len, 1, e.s());
         SG_Tensor* to = Floats({1});
         SG_TensorBitcastFrom(from, SG_FLOAT, to, nullptr, 0, e.s());
         EXPECT_EQ(SG_TensorType(to), SG_FLOAT);
         SG_DeleteTensor(from);
         SG_DeleteTensor(to);
       },
       SG_INVALID_ARGUMENT, "zero-sized"},
      {"UnknownStringLayout",
       [](Env& e) {
         SG_GraphSetStringLayout(e.g(), static_cast<SG_StringLayout>(9), e.s());
         EXPECT_EQ(SG_GraphStringLayout(e.g()), SG_STRING_LAYOUT_ENCODED);
       },
       SG_INVALID_ARGUMENT, "layout 9"},
      {"KernelsOfANullOp",
       [](Env& e) { EXPECT_EQ(SG_GetRegisteredKernelsForOp(nullptr, e.s()), nullptr); },
       SG_INVALID_ARGUMENT, "name is NULL"},
      {"ReshapeToHugeShapeAtGraphTime",
       [](Env& e) {
         SG_Operation* x = e.Placeholder("x", SG_FLOAT, {2});
         SG_Tensor* shape = Int64s({int64_t{1} << 40, int64_t{1} << 40});
         SG_OperationDescription* d = SG_NewOperation(e.g(), "Const", "shape");
         SG_SetAttrTensor(d, "value", shape, e.s());
         SG_SetAttrType(d, "dtype", SG_INT64);
         SG_Operation* c = SG_FinishOperation(d, e.s());
         SG_DeleteTensor(shape);
         ASSERT_EQ(SG_GetCode(e.s()), SG_OK) << SG_Message(e.s());
         SG_OperationDescription* r = SG_NewOperation(e.g(), "Reshape", "huge");
         SG_AddInput(r, {x, 0});
         SG_AddInput(r, {c, 0});
         SG_FinishOperation(r, e.s());
       },
       SG_INVALID_ARGUMENT, "huge"},
      {"ReshapeToHugeShapeAtRunTime",
       [](Env& e) {
         SG_Operation* x = e.Placeholder("x", SG_FLOAT, {}, true);
         SG_Operation* shape = e.Placeholder("shape", SG_INT64, {}, true);
         SG_Operation* r = e.Binary("Reshape", "huge", {x, 0}, {shape, 0});
         SG_Tensor* xt = Floats({2});
         SG_Tensor* st = Int64s({int64_t{1} << 40, int64_t{1} << 40, int64_t{1} << 40});
         e.Run({{x, 0}, {shape, 0}}, {xt, st}, {{r, 0}});
         SG_DeleteTensor(xt);
         SG_DeleteTensor(st);
       },
       SG_INVALID_ARGUMENT, "huge"},
      {"RunAfterClose",
       [](Env& e) {
         SG_Operation* x = e.Placeholder("x", SG_FLOAT, {2});
         SG_Session* sess = e.Session();
         SG_CloseSession(sess, e.s());
         ASSERT_EQ(SG_GetCode(e.s()), SG_OK) << SG_Message(e.s());
         SG_Tensor* t = Floats({2});
         e.Run({{x, 0}}, {t}, {{x, 0}});
         SG_DeleteTensor(t);
       },
       SG_CANCELLED, "closed"},
      {"PRunWithUnknownHandle",
       [](Env& e) {
         SG_Operation* x = e.Placeholder("x", SG_FLOAT, {2});
         SG_Output out{x, 0};
         SG_Tensor* r = nullptr;
         SG_SessionPRun(e.Session(), "no-such-handle", nullptr, nullptr, 0, &out, &r, 1,
                        nullptr, 0, e.s());
       },
       SG_INVALID_ARGUMENT, "no-such-handle"},
  };
  return *rows;
}

class BadInput : public ::testing::TestWithParam<Row> {};

TEST_P(BadInput, GivesItsCodeAndNamesTheCulprit) {
  const Row& row = GetParam();
  Env env;
  row.run(env);
  std::printf("  %s -> %d: %s\n", row.name, static_cast<int>(SG_GetCode(env.s())),
              SG_Message(env.s()));
  EXPECT_EQ(SG_GetCode(env.s()), row.code) << SG_Message(env.s());
  EXPECT_NE(std::string(SG_Message(env.s())).find(row.culprit), std::string::npos)
      << "message '" << SG_Message(env.s()) << "' does not name '" << row.culprit << "'";
}

INSTANTIATE_TEST_SUITE_P(CApi, BadInput, ::testing::ValuesIn(Rows()),
                         [](const ::testing::TestParamInfo<Row>& info) {
                           return std::string(info.param.name);
                         });

// ---- cases that are not a single error -------------------------------------------------------

TEST(NewTensor, LengthThatDoesNotMatchCallsTheDeallocatorOnce) {
  int64_t dims[2] = {2, 3};
  struct Case {
    SG_DataType dt;
    size_t len;
  };
  for (Case c : {Case{SG_FLOAT, 23}, Case{SG_FLOAT, 25}, Case{SG_INT64, 24}, Case{SG_STRING, 3}}) {
    dealloc_calls = 0;
    void* data = std::malloc(64);
    std::memset(data, 0, 64);
    SG_Tensor* t = SG_NewTensor(c.dt, dims, 2, data, c.len, CountingDealloc, nullptr);
    EXPECT_EQ(t, nullptr) << "dtype " << c.dt << " len " << c.len;
    EXPECT_EQ(dealloc_calls, 1);
  }
}

TEST(NewTensor, BadDimsCallTheDeallocatorOnce) {
  for (std::vector<int64_t> dims : {std::vector<int64_t>{-1, 2}, std::vector<int64_t>{2, -5}}) {
    dealloc_calls = 0;
    SG_Tensor* t = SG_NewTensor(SG_FLOAT, dims.data(), 2, std::malloc(64), 8, CountingDealloc,
                                nullptr);
    EXPECT_EQ(t, nullptr);
    EXPECT_EQ(dealloc_calls, 1);
  }
  dealloc_calls = 0;
  EXPECT_EQ(SG_NewTensor(SG_FLOAT, nullptr, 2, std::malloc(8), 8, CountingDealloc, nullptr),
            nullptr);
  EXPECT_EQ(dealloc_calls, 1);
  dealloc_calls = 0;
  EXPECT_EQ(SG_NewTensor(SG_FLOAT, nullptr, -1, std::malloc(8), 8, CountingDealloc, nullptr),
            nullptr);
  EXPECT_EQ(dealloc_calls, 1);
}

TEST(NewTensor, HugeShapeIsRejectedWithoutAllocating) {
  int64_t dims[3] = {int64_t{1} << 40, int64_t{1} << 40, int64_t{1} << 40};
  EXPECT_EQ(SG_AllocateTensor(SG_FLOAT, dims, 3, 0), nullptr);
  int64_t big[2] = {int64_t{1} << 31, int64_t{1} << 31};
  EXPECT_EQ(SG_AllocateTensor(SG_FLOAT, big, 2, 4), nullptr);
}

TEST(ZeroElementTensors, ComeBackWithTheirShape) {
  int64_t dims[2] = {0, 3};
  dealloc_calls = 0;
  SG_Tensor* empty = SG_NewTensor(SG_FLOAT, dims, 2, nullptr, 0, CountingDealloc, nullptr);
  ASSERT_NE(empty, nullptr);
  EXPECT_EQ(SG_TensorElementCount(empty), 0);
  EXPECT_EQ(SG_TensorByteSize(empty), 0u);

  Env e;
  SG_Operation* x = e.Placeholder("x", SG_FLOAT, {-1, 3});
  SG_Operation* y = e.Binary("AddV2", "y", {x, 0}, {x, 0});
  SG_Output in{x, 0}, out{y, 0};
  SG_Tensor* r = nullptr;
  SG_SessionRun(e.Session(), nullptr, &in, &empty, 1, &out, &r, 1, nullptr, 0, nullptr, e.s());
  ASSERT_EQ(SG_GetCode(e.s()), SG_OK) << SG_Message(e.s());
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(SG_NumDims(r), 2);
  EXPECT_EQ(SG_Dim(r, 0), 0);
  EXPECT_EQ(SG_Dim(r, 1), 3);
  EXPECT_EQ(SG_TensorByteSize(r), 0u);
  SG_DeleteTensor(r);
  SG_DeleteTensor(empty);
  EXPECT_EQ(dealloc_calls, 1);
}

TEST(SessionRun, SameOutputFetchedTwiceReturnsBoth) {
  Env e;
  SG_Operation* x = e.Placeholder("x", SG_FLOAT, {2});
  SG_Operation* y = e.Binary("AddV2", "y", {x, 0}, {x, 0});
  SG_Tensor* t = Floats({2}, 1.5f);
  SG_Output in{x, 0};
  SG_Output outs[2] = {{y, 0}, {y, 0}};
  SG_Tensor* r[2] = {nullptr, nullptr};
  SG_SessionRun(e.Session(), nullptr, &in, &t, 1, outs, r, 2, nullptr, 0, nullptr, e.s());
  ASSERT_EQ(SG_GetCode(e.s()), SG_OK) << SG_Message(e.s());
  for (SG_Tensor* out : r) {
    ASSERT_NE(out, nullptr);
    EXPECT_EQ(static_cast<float*>(SG_TensorData(out))[1], 3.0f);
    SG_DeleteTensor(out);
  }
  SG_DeleteTensor(t);
}

// SG_SessionRun's run_metadata buffer receives a serialized RunMetadata: empty without a trace,
// the nodes' statistics (their timeline labels among them) and the partition graph with one.
TEST(SessionRun, RunMetadataCarriesTheTraceAskedFor) {
  Env e;
  SG_Operation* x = e.Placeholder("x", SG_FLOAT, {2});
  SG_Operation* y = e.Binary("AddV2", "traced_sum", {x, 0}, {x, 0});
  SG_Tensor* t = Floats({2}, 1.5f);
  SG_Output in{x, 0};
  SG_Output out{y, 0};
  auto run = [&](const SG_Buffer* options) {
    SG_Buffer* meta = SG_NewBuffer();
    SG_Tensor* r = nullptr;
    SG_SessionRun(e.Session(), options, &in, &t, 1, &out, &r, 1, nullptr, 0, meta, e.s());
    EXPECT_EQ(SG_GetCode(e.s()), SG_OK) << SG_Message(e.s());
    SG_DeleteTensor(r);
    std::string bytes(static_cast<const char*>(meta->data), meta->length);
    SG_DeleteBuffer(meta);
    return bytes;
  };
  EXPECT_EQ(run(nullptr).size(), 0u);
  // RunOptions{trace_level: FULL_TRACE (field 1 = 3), output_partition_graphs: true (field 5)}.
  const unsigned char traced[4] = {0x08, 0x03, 0x28, 0x01};
  SG_Buffer* options = SG_NewBufferFromString(traced, sizeof traced);
  const std::string metadata = run(options);
  SG_DeleteBuffer(options);
  EXPECT_NE(metadata.find("traced_sum = AddV2("), std::string::npos)
      << "no NodeExecStats for traced_sum in " << metadata.size() << " bytes";
  EXPECT_NE(metadata.find("/job:localhost/replica:0/task:0/device:CPU:0"), std::string::npos);
  SG_DeleteTensor(t);
}

// The edge readers take the graph's lock: one thread reads an operation's consumers and control
// outputs while another adds operations that consume it (appending to the same edge lists). The
// counts only grow and end exact; without the lock the readers walk vectors being reallocated
// (AddressSanitizer reports it).
TEST(Graph, EdgeReadersTakeTheGraphsLock) {
  Env e;
  SG_Operation* x = e.Placeholder("x", SG_FLOAT, {2});
  constexpr int kOps = 400;
  std::atomic<bool> done{false};
  std::atomic<int> regressions{0};
  std::thread reader([&] {
    int last_consumers = 0, last_control = 0;
    std::vector<SG_Input> consumers(kOps);
    std::vector<SG_Operation*> control(kOps);
    while (!done.load()) {
      const int c = SG_OperationOutputConsumers({x, 0}, consumers.data(), kOps);
      const int k = SG_OperationGetControlOutputs(x, control.data(), kOps);
      if (c < last_consumers || k < last_control || c > kOps || k > kOps) ++regressions;
      last_consumers = c;
      last_control = k;
    }
  });
  SG_Status* s = SG_NewStatus();
  for (int i = 0; i < kOps; ++i) {
    const std::string name = "id" + std::to_string(i);
    SG_OperationDescription* d = SG_NewOperation(e.g(), "Identity", name.c_str());
    SG_AddInput(d, {x, 0});
    SG_AddControlInput(d, x);
    SG_FinishOperation(d, s);
    ASSERT_EQ(SG_GetCode(s), SG_OK) << SG_Message(s);
  }
  done = true;
  reader.join();
  SG_DeleteStatus(s);
  EXPECT_EQ(regressions.load(), 0);
  EXPECT_EQ(SG_OperationOutputNumConsumers({x, 0}), kOps);
  EXPECT_EQ(SG_OperationNumControlOutputs(x), kOps);
}

TEST(Handles, NullHandlesAreHarmless) {
  SG_DeleteTensor(nullptr);
  SG_DeleteGraph(nullptr);
  SG_DeleteBuffer(nullptr);
  SG_DeleteStatus(nullptr);
  SG_DeleteSessionOptions(nullptr);
  SG_DeleteImportGraphDefOptions(nullptr);
  SG_DeleteImportGraphDefResults(nullptr);
  SG_DeleteDeviceList(nullptr);
  SG_DeletePRunHandle(nullptr);
  SG_Status* s = SG_NewStatus();
  SG_DeleteSession(nullptr, s);
  EXPECT_EQ(SG_GetCode(s), SG_OK);
  SG_CloseSession(nullptr, s);
  EXPECT_EQ(SG_GetCode(s), SG_INVALID_ARGUMENT);
  EXPECT_EQ(SG_FinishOperation(nullptr, s), nullptr);
  EXPECT_EQ(SG_GetCode(s), SG_INVALID_ARGUMENT);
  EXPECT_EQ(SG_OperationNumOutputs(nullptr), -1);
  EXPECT_EQ(SG_GraphOperationByName(nullptr, "x"), nullptr);
  EXPECT_EQ(SG_TensorType(nullptr), 0);
  SG_GraphImportGraphDef(nullptr, nullptr, nullptr, s);
  EXPECT_EQ(SG_GetCode(s), SG_INVALID_ARGUMENT);
  SG_DeleteStatus(s);
}

}  // namespace
