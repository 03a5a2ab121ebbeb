// Variables: reference variables (VariableV2, Assign, AssignAdd ...) and resource variables
// (VarHandleOp, ReadVariableOp ...), run kernel by kernel on the shared test device so that
// state persists across calls as it does across steps.
#include <gtest/gtest.h>

#include "core/framework/shape_inference.h"
#include "tests/core/kernel_runner.h"
#include "tests/core/ops_testutil.h"

namespace sg {
namespace {

using test::MakeTensor;
using test::RunNode;
using test::V;
using test::Values;

TensorValue MakeVariable(const std::string& name, DataType dtype, PartialTensorShape shape,
                         const std::string& shared_name = "", const std::string& op = "VariableV2") {
  auto out = RunNode(test::NodeDefFor(op, {{"dtype", dtype},
                                           {"shape", shape},
                                           {"shared_name", shared_name}}),
                     name, {});
  EXPECT_TRUE(out.ok()) << out.status();
  EXPECT_TRUE((*out)[0].is_ref());
  return (*out)[0];
}

absl::StatusOr<TensorValue> Update(const std::string& op, const TensorValue& ref,
                                   const Tensor& value, std::vector<test::AttrArg> attrs = {}) {
  attrs.push_back({"T", value.dtype()});
  NodeDef node = test::NodeDefFor(op, attrs);
  node.add_input("var");
  node.add_input("value");
  SG_ASSIGN_OR_RETURN(auto out, RunNode(node, op + "_node", {ref, V(value)}));
  return out[0];
}

bool IsInitialized(const TensorValue& ref, DataType dtype) {
  auto out = RunNode(test::NodeDefFor("IsVariableInitialized", {{"dtype", dtype}}), "is_init",
                     {ref});
  EXPECT_TRUE(out.ok()) << out.status();
  return (*out)[0].value.scalar<bool>()();
}

TEST(VariableV2, StartsUninitializedAndRejectsUpdatesBeforeAssign) {
  TensorValue v = MakeVariable("lifecycle_uninit", DT_FLOAT, PartialTensorShape({3}));
  EXPECT_FALSE(IsInitialized(v, DT_FLOAT));
  EXPECT_FALSE(v.Get().IsInitialized());
  auto s = Update("AssignAdd", v, MakeTensor<float>({3}, {1, 2, 3})).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
  EXPECT_NE(s.message().find("Attempting to use uninitialized value var"), std::string::npos)
      << s;
}

TEST(VariableV2, KeepsItsValueAcrossRunsAndUpdates) {
  TensorValue v = MakeVariable("lifecycle", DT_FLOAT, PartialTensorShape({3}));
  auto assigned = Update("Assign", v, MakeTensor<float>({3}, {1, 2, 3}));
  ASSERT_TRUE(assigned.ok()) << assigned.status();
  EXPECT_TRUE(assigned->is_ref());
  EXPECT_EQ(assigned->ref, v.ref);
  EXPECT_TRUE(IsInitialized(v, DT_FLOAT));
  EXPECT_EQ(Values<float>(v.Get()), std::vector<float>({1, 2, 3}));

  ASSERT_TRUE(Update("AssignAdd", v, MakeTensor<float>({3}, {10, 20, 30})).ok());
  EXPECT_EQ(Values<float>(v.Get()), std::vector<float>({11, 22, 33}));
  ASSERT_TRUE(Update("AssignSub", v, MakeTensor<float>({3}, {1, 1, 1})).ok());
  EXPECT_EQ(Values<float>(v.Get()), std::vector<float>({10, 21, 32}));

  // A new kernel for the same node (another step) finds the same variable.
  TensorValue again = MakeVariable("lifecycle", DT_FLOAT, PartialTensorShape({3}));
  EXPECT_EQ(again.ref, v.ref);
  EXPECT_EQ(Values<float>(again.Get()), std::vector<float>({10, 21, 32}));
}

TEST(VariableV2, SnapshotTakenBeforeAnUpdateKeepsTheOldValue) {
  TensorValue v = MakeVariable("cow", DT_FLOAT, PartialTensorShape({2}));
  ASSERT_TRUE(Update("Assign", v, MakeTensor<float>({2}, {1, 2})).ok());
  Tensor snapshot = v.Get();
  ASSERT_TRUE(Update("AssignAdd", v, MakeTensor<float>({2}, {5, 5})).ok());
  EXPECT_EQ(Values<float>(snapshot), std::vector<float>({1, 2}));
  EXPECT_EQ(Values<float>(v.Get()), std::vector<float>({6, 7}));
  Tensor snapshot2 = v.Get();
  ASSERT_TRUE(Update("Assign", v, MakeTensor<float>({2}, {0, 0})).ok());
  EXPECT_EQ(Values<float>(snapshot2), std::vector<float>({6, 7}));
  EXPECT_EQ(Values<float>(v.Get()), std::vector<float>({0, 0}));
  ASSERT_TRUE(Update("AssignSub", v, MakeTensor<float>({2}, {1, 2})).ok());
  EXPECT_EQ(Values<float>(snapshot), std::vector<float>({1, 2}));
  EXPECT_EQ(Values<float>(snapshot2), std::vector<float>({6, 7}));
  EXPECT_EQ(Values<float>(v.Get()), std::vector<float>({-1, -2}));
}

TEST(VariableV2, UpdatesInPlaceWhenNoSnapshotIsHeld) {
  TensorValue v = MakeVariable("inplace", DT_INT32, PartialTensorShape({2}));
  ASSERT_TRUE(Update("Assign", v, MakeTensor<int32_t>({2}, {1, 2})).ok());
  const void* before = v.ref->raw_data();
  ASSERT_TRUE(Update("AssignAdd", v, MakeTensor<int32_t>({2}, {3, 4})).ok());
  EXPECT_EQ(v.ref->raw_data(), before);
  EXPECT_EQ(Values<int32_t>(v.Get()), std::vector<int32_t>({4, 6}));
}

TEST(Assign, CopiesTheValueInsteadOfSharingIt) {
  TensorValue v = MakeVariable("copy", DT_DOUBLE, PartialTensorShape({2}));
  Tensor value = MakeTensor<double>({2}, {1.5, 2.5});
  ASSERT_TRUE(Update("Assign", v, value).ok());
  value.data<double>()[0] = 100;
  EXPECT_EQ(Values<double>(v.Get()), std::vector<double>({1.5, 2.5}));
}

TEST(Assign, ValidatesShapeAgainstTheDeclaredShape) {
  TensorValue v = MakeVariable("validate", DT_FLOAT, PartialTensorShape({3}));
  auto s = Update("Assign", v, MakeTensor<float>({2}, {1, 2})).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_FALSE(IsInitialized(v, DT_FLOAT));
  // Without validation any shape goes, and later validated assigns compare with it.
  ASSERT_TRUE(
      Update("Assign", v, MakeTensor<float>({2}, {1, 2}), {{"validate_shape", false}}).ok());
  EXPECT_EQ(v.Get().shape(), TensorShape({2}));
  EXPECT_TRUE(Update("Assign", v, MakeTensor<float>({2}, {3, 4})).ok());
  EXPECT_EQ(Update("Assign", v, MakeTensor<float>({3}, {1, 2, 3})).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Values<float>(v.Get()), std::vector<float>({3, 4}));
}

TEST(Assign, AcceptsAnyShapeForAVariableOfUnknownShape) {
  TensorValue v = MakeVariable("unknown_shape", DT_FLOAT, PartialTensorShape());
  ASSERT_TRUE(Update("Assign", v, MakeTensor<float>({2, 2}, {1, 2, 3, 4})).ok());
  EXPECT_EQ(v.Get().shape(), TensorShape({2, 2}));
}

TEST(Assign, WorksOnStringsAndScalars) {
  TensorValue v = MakeVariable("strings", DT_STRING, PartialTensorShape({2}));
  Tensor s(DT_STRING, TensorShape({2}));
  s.data<tstring>()[0] = "a";
  s.data<tstring>()[1] = "bc";
  ASSERT_TRUE(Update("Assign", v, s).ok());
  EXPECT_EQ(v.Get().data<tstring>()[1], "bc");

  TensorValue x = MakeVariable("scalar", DT_INT64, PartialTensorShape::Scalar());
  ASSERT_TRUE(Update("Assign", x, Tensor::Scalar<int64_t>(41)).ok());
  ASSERT_TRUE(Update("AssignAdd", x, Tensor::Scalar<int64_t>(1)).ok());
  EXPECT_EQ(x.Get().scalar<int64_t>()(), 42);
}

TEST(AssignAdd, RejectsAValueOfAnotherShape) {
  TensorValue v = MakeVariable("add_shape", DT_FLOAT, PartialTensorShape({2}));
  ASSERT_TRUE(Update("Assign", v, MakeTensor<float>({2}, {1, 2})).ok());
  auto s = Update("AssignAdd", v, MakeTensor<float>({3}, {1, 2, 3})).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_EQ(Values<float>(v.Get()), std::vector<float>({1, 2}));
}

TEST(AssignAdd, MatchesAReferenceSumOnAZeroElementVariable) {
  TensorValue v = MakeVariable("empty", DT_FLOAT, PartialTensorShape({0, 3}));
  // A zero-element tensor counts as initialized, as in TensorFlow.
  ASSERT_TRUE(Update("Assign", v, Tensor(DT_FLOAT, TensorShape({0, 3}))).ok());
  ASSERT_TRUE(Update("AssignAdd", v, Tensor(DT_FLOAT, TensorShape({0, 3}))).ok());
  EXPECT_EQ(v.Get().shape(), TensorShape({0, 3}));
}

TEST(VariableV2, SharedNameAndContainerPickTheVariable) {
  TensorValue a = MakeVariable("node_a", DT_FLOAT, PartialTensorShape({1}), "shared_w");
  TensorValue b = MakeVariable("node_b", DT_FLOAT, PartialTensorShape({1}), "shared_w");
  EXPECT_EQ(a.ref, b.ref);
  auto c = RunNode(test::NodeDefFor("VariableV2", {{"dtype", DT_FLOAT},
                                                   {"shape", PartialTensorShape({1})},
                                                   {"shared_name", "shared_w"},
                                                   {"container", "other"}}),
                   "node_c", {});
  ASSERT_TRUE(c.ok());
  EXPECT_NE((*c)[0].ref, a.ref);
  // Another dtype under the same name is an error.
  auto d = RunNode(test::NodeDefFor("VariableV2", {{"dtype", DT_INT32},
                                                   {"shape", PartialTensorShape({1})},
                                                   {"shared_name", "shared_w"}}),
                   "node_d", {});
  EXPECT_EQ(d.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(Variable, BehavesAsVariableV2) {
  TensorValue v = MakeVariable("old_style", DT_FLOAT, PartialTensorShape({2}), "", "Variable");
  ASSERT_TRUE(Update("Assign", v, MakeTensor<float>({2}, {1, 2})).ok());
  ASSERT_TRUE(Update("AssignAdd", v, MakeTensor<float>({2}, {1, 2})).ok());
  EXPECT_EQ(Values<float>(v.Get()), std::vector<float>({2, 4}));
}

TEST(TemporaryVariable, LivesInTheStepUntilDestroyed) {
  ResourceMgr step;
  auto t = RunNode(test::NodeDefFor("TemporaryVariable", {{"dtype", DT_FLOAT},
                                                          {"shape", PartialTensorShape({2})},
                                                          {"var_name", "tmp"}}),
                   "tmp_node", {}, &step);
  ASSERT_TRUE(t.ok()) << t.status();
  TensorValue ref = (*t)[0];
  ASSERT_TRUE(Update("Assign", ref, MakeTensor<float>({2}, {7, 8})).ok());
  auto d = RunNode(test::NodeDefFor("DestroyTemporaryVariable",
                                    {{"T", DT_FLOAT}, {"var_name", "tmp"}}),
                   "destroy", {ref}, &step);
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(Values<float>((*d)[0].value), std::vector<float>({7, 8}));
  std::shared_ptr<Var> gone;
  EXPECT_EQ(step.Lookup<Var>("_temporary_variables", "tmp", &gone).code(),
            absl::StatusCode::kNotFound);
}

TEST(StateShapeFunctions, FollowTheAttrsAndInputs) {
  auto run = [](const NodeDef& node_in, std::vector<PartialTensorShape> in,
                std::vector<DataType> in_types, std::vector<DataType> out_types)
      -> absl::StatusOr<PartialTensorShape> {
    const OpRegistrationData* reg = OpRegistry::Global()->LookUp(node_in.op());
    NodeDef node = node_in;
    AddDefaultsToNodeDef(reg->op_def, &node);
    std::vector<const Tensor*> consts(in.size(), nullptr);
    InferenceContext c(&node, in, consts, in_types, out_types);
    SG_RETURN_IF_ERROR(reg->shape_fn(&c));
    return c.output(0);
  };
  auto v = run(test::NodeDefFor("VariableV2", {{"dtype", DT_FLOAT},
                                               {"shape", PartialTensorShape({2, -1})}}),
               {}, {}, {DT_FLOAT_REF});
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(*v, PartialTensorShape({2, -1}));
  auto a = run(test::NodeDefFor("Assign", {{"T", DT_FLOAT}}),
               {PartialTensorShape({2, -1}), PartialTensorShape({-1, 3})},
               {DT_FLOAT_REF, DT_FLOAT}, {DT_FLOAT_REF});
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(*a, PartialTensorShape({2, 3}));
  auto bad = run(test::NodeDefFor("AssignAdd", {{"T", DT_FLOAT}}),
                 {PartialTensorShape({2}), PartialTensorShape({3})}, {DT_FLOAT_REF, DT_FLOAT},
                 {DT_FLOAT_REF});
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  auto free = run(test::NodeDefFor("Assign", {{"T", DT_FLOAT}, {"validate_shape", false}}),
                  {PartialTensorShape({2}), PartialTensorShape({3})}, {DT_FLOAT_REF, DT_FLOAT},
                  {DT_FLOAT_REF});
  ASSERT_TRUE(free.ok());
  EXPECT_EQ(*free, PartialTensorShape({3}));
}

// ---- Row scatters on ref variables: what TensorFlow cannot show (its conformance cases are in
// tests/oracle/op_case_groups/scatter_vars.py) ----

absl::StatusOr<TensorValue> ScatterRef(const std::string& op, const TensorValue& ref,
                                       const Tensor& indices, const Tensor& updates) {
  NodeDef node = test::NodeDefFor(op, {{"T", updates.dtype()}, {"Tindices", indices.dtype()}});
  node.add_input("var");
  node.add_input("indices");
  node.add_input("updates");
  SG_ASSIGN_OR_RETURN(auto out, RunNode(node, op + "_node", {ref, V(indices), V(updates)}));
  return out[0];
}

TEST(ScatterDiv, AnIntegerZeroDivisorIsAnErrorAndWritesNothing) {
  // TensorFlow's process dies of SIGFPE here.
  TensorValue v = MakeVariable("scatter_div_zero", DT_INT32, PartialTensorShape({3}));
  ASSERT_TRUE(Update("Assign", v, MakeTensor<int32_t>({3}, {6, 7, 8})).ok());
  auto s = ScatterRef("ScatterDiv", v, MakeTensor<int32_t>({2}, {0, 1}),
                      MakeTensor<int32_t>({2}, {2, 0}))
               .status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_EQ(Values<int32_t>(v.Get()), std::vector<int32_t>({6, 7, 8}));
  // The minimum divided by -1 wraps instead of trapping.
  ASSERT_TRUE(Update("Assign", v, MakeTensor<int32_t>({3}, {INT32_MIN, 7, -7})).ok());
  auto out = ScatterRef("ScatterDiv", v, MakeTensor<int64_t>({3}, {0, 1, 2}),
                        MakeTensor<int32_t>({3}, {-1, 2, 2}));
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->ref, v.ref);
  EXPECT_EQ(Values<int32_t>(v.Get()), std::vector<int32_t>({INT32_MIN, 3, -3}));
}

TEST(ScatterAdd, ABadIndexAfterGoodOnesWritesNothing) {
  TensorValue v = MakeVariable("scatter_add_bad", DT_FLOAT, PartialTensorShape({3}));
  ASSERT_TRUE(Update("Assign", v, MakeTensor<float>({3}, {1, 2, 3})).ok());
  auto s = ScatterRef("ScatterAdd", v, MakeTensor<int32_t>({2}, {0, 3}),
                      MakeTensor<float>({2}, {10, 10}))
               .status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_NE(s.message().find("indices[1] = 3 is not in [0, 3)"), std::string::npos) << s;
  EXPECT_EQ(Values<float>(v.Get()), std::vector<float>({1, 2, 3}));
}

TEST(ScatterUpdate, ASnapshotKeepsItsValueAndTheLastDuplicateWins) {
  TensorValue v = MakeVariable("scatter_update_cow", DT_STRING, PartialTensorShape({2}));
  ASSERT_TRUE(Update("Assign", v, MakeTensor<tstring>({2}, {"a", "b"})).ok());
  Tensor snapshot = v.Get();
  ASSERT_TRUE(ScatterRef("ScatterUpdate", v, MakeTensor<int32_t>({3}, {1, 0, 1}),
                         MakeTensor<tstring>({3}, {"x", "y", "z"}))
                  .ok());
  EXPECT_EQ(Values<tstring>(snapshot), std::vector<tstring>({"a", "b"}));
  EXPECT_EQ(Values<tstring>(v.Get()), std::vector<tstring>({"y", "z"}));
}

// ---- Resource variables ----

Tensor Handle(const std::string& shared_name, DataType dtype = DT_FLOAT) {
  auto out = RunNode(test::NodeDefFor("VarHandleOp", {{"dtype", dtype},
                                                      {"shape", PartialTensorShape({2})},
                                                      {"shared_name", shared_name}}),
                     "handle_node", {});
  EXPECT_TRUE(out.ok()) << out.status();
  return (*out)[0].value;
}

absl::StatusOr<Tensor> Read(const Tensor& h, DataType dtype = DT_FLOAT) {
  SG_ASSIGN_OR_RETURN(auto out,
                      RunNode(test::NodeDefFor("ReadVariableOp", {{"dtype", dtype}}), "read",
                              {V(h)}));
  return out[0].value;
}

absl::Status ResourceUpdate(const std::string& op, const Tensor& h, const Tensor& value,
                            std::vector<test::AttrArg> attrs = {}) {
  attrs.push_back({"dtype", value.dtype()});
  return RunNode(test::NodeDefFor(op, attrs), "update", {V(h), V(value)}).status();
}

bool VarIsInitialized(const Tensor& h) {
  auto out = RunNode(test::NodeDefFor("VarIsInitializedOp", {}), "is_init", {V(h)});
  EXPECT_TRUE(out.ok()) << out.status();
  return (*out)[0].value.scalar<bool>()();
}

TEST(VarHandleOp, MakesAScalarHandleNamingTheVariable) {
  Tensor h = Handle("rv_handle");
  ASSERT_EQ(h.dtype(), DT_RESOURCE);
  EXPECT_EQ(h.dims(), 0);
  const ResourceHandle& rh = *h.data<ResourceHandle>();
  EXPECT_EQ(rh.name, "rv_handle");
  EXPECT_EQ(rh.container, "localhost");
  EXPECT_EQ(rh.device, test::TestDevice()->name());
  // The shape function agrees (scalar).
  auto out = test::RunKernel(test::NodeDefFor("VarHandleOp", {{"dtype", DT_FLOAT},
                                                              {"shape", PartialTensorShape({2})}}),
                             {});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->at(0).data<ResourceHandle>()->name, "test_node");
}

TEST(ResourceVariable, GoesThroughItsLifecycle) {
  Tensor h = Handle("rv_life");
  EXPECT_FALSE(VarIsInitialized(h));
  EXPECT_EQ(Read(h).status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(ResourceUpdate("AssignAddVariableOp", h, MakeTensor<float>({2}, {1, 1})).code(),
            absl::StatusCode::kNotFound);

  ASSERT_TRUE(ResourceUpdate("AssignVariableOp", h, MakeTensor<float>({2}, {1, 2})).ok());
  EXPECT_TRUE(VarIsInitialized(h));
  auto r = Read(h);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Values<float>(*r), std::vector<float>({1, 2}));

  // The earlier read is a snapshot: updates copy on write.
  ASSERT_TRUE(ResourceUpdate("AssignAddVariableOp", h, MakeTensor<float>({2}, {10, 10})).ok());
  EXPECT_EQ(Values<float>(*r), std::vector<float>({1, 2}));
  EXPECT_EQ(Values<float>(*Read(h)), std::vector<float>({11, 12}));
  ASSERT_TRUE(ResourceUpdate("AssignSubVariableOp", h, MakeTensor<float>({2}, {1, 2})).ok());
  EXPECT_EQ(Values<float>(*Read(h)), std::vector<float>({10, 10}));

  // Another handle op with the same shared_name sees the same variable.
  EXPECT_EQ(Values<float>(*Read(Handle("rv_life"))), std::vector<float>({10, 10}));
}

TEST(ResourceVariable, ReportsDtypeAndShapeMismatches) {
  Tensor h = Handle("rv_errors");
  ASSERT_TRUE(ResourceUpdate("AssignVariableOp", h, MakeTensor<float>({2}, {1, 2})).ok());
  EXPECT_EQ(Read(h, DT_INT32).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ResourceUpdate("AssignVariableOp", h, MakeTensor<int32_t>({2}, {1, 2})).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ResourceUpdate("AssignAddVariableOp", h, MakeTensor<float>({3}, {1, 2, 3})).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ResourceUpdate("AssignVariableOp", h, MakeTensor<float>({3}, {1, 2, 3}),
                           {{"validate_shape", true}})
                .code(),
            absl::StatusCode::kInvalidArgument);
  // Without validate_shape (the default) the variable takes the new shape.
  ASSERT_TRUE(ResourceUpdate("AssignVariableOp", h, MakeTensor<float>({3}, {1, 2, 3})).ok());
  EXPECT_EQ(Values<float>(*Read(h)), std::vector<float>({1, 2, 3}));
}

TEST(VariableShape, GivesTheDimsOfTheValueInEitherIntType) {
  Tensor h = Handle("rv_shape");
  auto shape_of = [&](DataType out_type) {
    return RunNode(test::NodeDefFor("VariableShape", {{"out_type", out_type}}), "shape", {V(h)});
  };
  // No value yet: as ReadVariableOp.
  EXPECT_EQ(shape_of(DT_INT32).status().code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(ResourceUpdate("AssignVariableOp", h,
                             MakeTensor<float>({2, 3}, {1, 2, 3, 4, 5, 6})).ok());
  auto i32 = shape_of(DT_INT32);
  ASSERT_TRUE(i32.ok()) << i32.status();
  EXPECT_EQ(Values<int32_t>((*i32)[0].value), std::vector<int32_t>({2, 3}));
  auto i64 = shape_of(DT_INT64);
  ASSERT_TRUE(i64.ok()) << i64.status();
  EXPECT_EQ(Values<int64_t>((*i64)[0].value), std::vector<int64_t>({2, 3}));
}

TEST(DestroyResourceOp, DeletesTheVariable) {
  Tensor h = Handle("rv_destroy");
  ASSERT_TRUE(ResourceUpdate("AssignVariableOp", h, Tensor::Scalar<float>(3)).ok());
  ASSERT_TRUE(RunNode(test::NodeDefFor("DestroyResourceOp", {}), "destroy", {V(h)}).ok());
  EXPECT_FALSE(VarIsInitialized(h));
  EXPECT_EQ(Read(h).status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(RunNode(test::NodeDefFor("DestroyResourceOp", {}), "destroy", {V(h)}).ok());
  EXPECT_EQ(RunNode(test::NodeDefFor("DestroyResourceOp", {{"ignore_lookup_error", false}}),
                    "destroy", {V(h)})
                .status()
                .code(),
            absl::StatusCode::kNotFound);
}

TEST(ResourceGather, GathersRowsLikeAReferenceLoop) {
  Tensor h = Handle("rv_gather");
  Tensor params = MakeTensor<float>({4, 2}, {0, 1, 10, 11, 20, 21, 30, 31});
  ASSERT_TRUE(ResourceUpdate("AssignVariableOp", h, params).ok());
  Tensor indices = MakeTensor<int64_t>({2, 2}, {3, 0, 1, 1});
  auto out = RunNode(test::NodeDefFor("ResourceGather", {{"dtype", DT_FLOAT},
                                                         {"Tindices", DT_INT64}}),
                     "gather", {V(h), V(indices)});
  ASSERT_TRUE(out.ok()) << out.status();
  const Tensor& g = (*out)[0].value;
  EXPECT_EQ(g.shape(), TensorShape({2, 2, 2}));
  std::vector<float> expected;
  for (int64_t i : Values<int64_t>(indices)) {
    for (int j = 0; j < 2; ++j) expected.push_back(params.data<float>()[i * 2 + j]);
  }
  EXPECT_EQ(Values<float>(g), expected);

  auto bad = RunNode(test::NodeDefFor("ResourceGather", {{"dtype", DT_FLOAT},
                                                         {"Tindices", DT_INT32}}),
                     "gather", {V(h), V(MakeTensor<int32_t>({1}, {4}))});
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
}

absl::Status ResourceScatter(const std::string& op, const Tensor& h, const Tensor& indices,
                             const Tensor& updates) {
  return RunNode(test::NodeDefFor(op, {{"dtype", updates.dtype()}, {"Tindices", indices.dtype()}}),
                 "scatter", {V(h), V(indices), V(updates)})
      .status();
}

TEST(ResourceScatterAdd, UpdatesWhoseRowsDifferFromTheVariablesAreAnError) {
  // TensorFlow checks only the rank and the indices prefix, then reads past the updates.
  Tensor h = Handle("rv_scatter_rows");
  ASSERT_TRUE(ResourceUpdate("AssignVariableOp", h, MakeTensor<float>({2, 2}, {1, 2, 3, 4})).ok());
  EXPECT_EQ(ResourceScatter("ResourceScatterAdd", h, MakeTensor<int32_t>({1}, {0}),
                            MakeTensor<float>({1, 3}, {1, 2, 3}))
                .code(),
            absl::StatusCode::kInvalidArgument);
  ASSERT_TRUE(ResourceScatter("ResourceScatterAdd", h, MakeTensor<int32_t>({2}, {1, 1}),
                              MakeTensor<float>({2, 2}, {10, 20, 100, 200}))
                  .ok());
  EXPECT_EQ(Values<float>(*Read(h)), std::vector<float>({1, 2, 113, 224}));
}

Tensor ResourceGatherBatched(const Tensor& h, const Tensor& indices, int batch_dims,
                             absl::StatusCode expect) {
  auto out = RunNode(test::NodeDefFor("ResourceGather", {{"dtype", DT_FLOAT},
                                                         {"Tindices", indices.dtype()},
                                                         {"batch_dims", batch_dims}}),
                     "gather", {V(h), V(indices)});
  EXPECT_EQ(out.status().code(), expect) << out.status();
  return out.ok() ? (*out)[0].value : Tensor();
}

TEST(ResourceGather, BatchDimsGatherWithinEachBatchAndCheckWhatTensorFlowDoesNot) {
  Tensor h = Handle("rv_gather_batch");
  ASSERT_TRUE(
      ResourceUpdate("AssignVariableOp", h, MakeTensor<float>({2, 3}, {0, 1, 2, 10, 11, 12})).ok());
  Tensor g = ResourceGatherBatched(h, MakeTensor<int32_t>({2, 2}, {2, 0, 1, 1}), 1,
                                   absl::StatusCode::kOk);
  EXPECT_EQ(g.shape(), TensorShape({2, 2}));
  EXPECT_EQ(Values<float>(g), std::vector<float>({2, 0, 11, 11}));
  // In range of the flattened batches but not of its own (TensorFlow reads the next batch).
  ResourceGatherBatched(h, MakeTensor<int32_t>({2, 1}, {4, 0}), 1,
                        absl::StatusCode::kInvalidArgument);
  // Batch dims that differ from the variable's (TensorFlow does not check them).
  ResourceGatherBatched(h, MakeTensor<int32_t>({3, 1}, {0, 0, 0}), 1,
                        absl::StatusCode::kInvalidArgument);
  // No axis left to gather along (TensorFlow fails a CHECK), and fewer index dims than batch dims.
  ResourceGatherBatched(h, MakeTensor<int32_t>({2, 3}, {0, 0, 0, 0, 0, 0}), 2,
                        absl::StatusCode::kInvalidArgument);
  ResourceGatherBatched(h, MakeTensor<int32_t>({}, {0}), 1, absl::StatusCode::kInvalidArgument);
  ResourceGatherBatched(h, MakeTensor<int32_t>({2, 1}, {0, 0}), -1,
                        absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace sg
