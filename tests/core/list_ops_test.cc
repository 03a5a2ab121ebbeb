// DT_VARIANT tensors and the TensorList ops (core/ops/list_ops.cc, core/kernels/list_kernels.cc),
// kernel by kernel and in v1 while loops run by a DirectSession.
//
// Expected values and errors are TensorFlow 2.21's, from eager calls written beside each check
// with R = tf.raw_ops, E = tf.constant([], tf.int32), fromt(t, s) = R.TensorListFromTensor(
// tensor=t, element_shape=s), reserve(s, n) = R.TensorListReserve(element_shape=s,
// num_elements=n, element_dtype=tf.float32), empty(s, m) = R.EmptyTensorList(element_shape=s,
// max_num_elements=m, element_dtype=tf.float32), stack(l, s) = R.TensorListStack(input_handle=l,
// element_shape=s, element_dtype=tf.float32), get(l, i, s) = R.TensorListGetItem(...),
// setit(l, i, v, resize) = R.TensorListSetItem(...), push(l, v) = R.TensorListPushBack(...).
// Where sg departs from TensorFlow (on inputs TensorFlow crashes on or mishandles) the test says
// so.
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "core/framework/node_def_util.h"
#include "core/graph/graph_constructor.h"
#include "core/kernels/tensor_list.h"
#include "core/proto/graph.pb.h"
#include "core/runtime/session.h"
#include "tests/core/kernel_runner.h"
#include "tests/core/ops_testutil.h"

namespace sg {
namespace {

using test::MakeTensor;
using test::NodeDefFor;
using test::RunKernel;
using test::Values;

// ---- Helpers -----------------------------------------------------------------------------------

Tensor I32(int32_t v) { return Tensor::Scalar<int32_t>(v); }
// An element_shape input: the dims, -1 where unknown.
Tensor Shape(std::vector<int32_t> dims) {
  return MakeTensor<int32_t>({static_cast<int64_t>(dims.size())}, dims);
}
// The element_shape input of an unknown rank.
Tensor Unknown() { return I32(-1); }
Tensor Floats(std::vector<int64_t> shape, std::vector<float> v) {
  return MakeTensor<float>(std::move(shape), std::move(v));
}

absl::StatusOr<Tensor> Run1(const std::string& op, std::vector<test::AttrArg> attrs,
                            const std::vector<Tensor>& inputs, int output = 0) {
  SG_ASSIGN_OR_RETURN(std::vector<Tensor> out, RunKernel(NodeDefFor(op, attrs), inputs));
  return out[output];
}

absl::StatusOr<Tensor> Empty(const Tensor& shape, int32_t max = -1, DataType dt = DT_FLOAT) {
  return Run1("EmptyTensorList", {{"element_dtype", dt}, {"shape_type", shape.dtype()}},
              {shape, I32(max)});
}
absl::StatusOr<Tensor> Reserve(const Tensor& shape, int32_t n, DataType dt = DT_FLOAT) {
  return Run1("TensorListReserve", {{"element_dtype", dt}, {"shape_type", shape.dtype()}},
              {shape, I32(n)});
}
absl::StatusOr<Tensor> FromTensor(const Tensor& t, const Tensor& shape = Unknown()) {
  return Run1("TensorListFromTensor",
              {{"element_dtype", t.dtype()}, {"shape_type", shape.dtype()}}, {t, shape});
}
absl::StatusOr<Tensor> Stack(const Tensor& list, const Tensor& shape = Unknown(),
                             DataType dt = DT_FLOAT, int64_t num_elements = -1) {
  return Run1("TensorListStack", {{"element_dtype", dt}, {"num_elements", num_elements}},
              {list, shape});
}
absl::StatusOr<Tensor> GetItem(const Tensor& list, int32_t index,
                               const Tensor& shape = Unknown(), DataType dt = DT_FLOAT) {
  return Run1("TensorListGetItem", {{"element_dtype", dt}}, {list, I32(index), shape});
}
absl::StatusOr<Tensor> SetItem(const Tensor& list, int32_t index, const Tensor& item,
                               bool resize = false) {
  return Run1("TensorListSetItem",
              {{"element_dtype", item.dtype()}, {"resize_if_index_out_of_bounds", resize}},
              {list, I32(index), item});
}
absl::StatusOr<Tensor> PushBack(const Tensor& list, const Tensor& item) {
  return Run1("TensorListPushBack", {{"element_dtype", item.dtype()}}, {list, item});
}
absl::StatusOr<Tensor> Resize(const Tensor& list, int32_t size) {
  return Run1("TensorListResize", {}, {list, I32(size)});
}
absl::StatusOr<Tensor> Gather(const Tensor& list, std::vector<int32_t> indices,
                              const Tensor& shape = Unknown()) {
  return Run1("TensorListGather", {{"element_dtype", DT_FLOAT}},
              {list, MakeTensor<int32_t>({static_cast<int64_t>(indices.size())}, indices), shape});
}
int32_t Length(const Tensor& list) {
  auto out = Run1("TensorListLength", {}, {list});
  EXPECT_TRUE(out.ok()) << out.status();
  return out.ok() ? out->scalar<int32_t>()() : -100;
}
// TensorListElementShape as int64 values (shape [] for the scalar -1 of an unknown rank).
Tensor ElementShape(const Tensor& list) {
  auto out = Run1("TensorListElementShape", {{"shape_type", DT_INT64}}, {list});
  EXPECT_TRUE(out.ok()) << out.status();
  return out.ok() ? *out : Tensor();
}

// The list a variant scalar holds.
const TensorList* ListIn(const Tensor& t) {
  if (t.dtype() != DT_VARIANT || t.NumElements() != 1) return nullptr;
  return t.data<Variant>()[0].get<TensorList>();
}

// An INVALID_ARGUMENT that contains `part` and names the node.
void ExpectInvalid(const absl::Status& s, const std::string& part) {
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_NE(s.message().find(part), absl::string_view::npos) << s;
  EXPECT_NE(s.message().find("'test_node'"), absl::string_view::npos) << s;
}

#define ASSERT_OK_AND_ASSIGN(lhs, ...)                \
  auto lhs##_or = (__VA_ARGS__);                      \
  ASSERT_TRUE(lhs##_or.ok()) << lhs##_or.status();    \
  auto lhs = *std::move(lhs##_or)

// ---- Variant tensors ---------------------------------------------------------------------------

struct Pair {
  static constexpr const char* kTypeName = "Pair";
  int a, b;
  std::string DebugString() const { return absl::StrCat("Pair(", a, ", ", b, ")"); }
};

TEST(VariantTensor, AllocatesEmptyVariantsAndCopiesShareTheValues) {
  Tensor t(DT_VARIANT, TensorShape({2}));
  EXPECT_TRUE(t.data<Variant>()[0].is_empty());
  EXPECT_EQ(t.TotalBytes(), 2 * sizeof(Variant));
  t.data<Variant>()[0] = Variant(Pair{1, 2});
  EXPECT_EQ(t.data<Variant>()[0].TypeName(), "Pair");
  EXPECT_EQ(t.data<Variant>()[0].get<TensorList>(), nullptr);
  EXPECT_EQ(t.data<Variant>()[1].get<Pair>(), nullptr);
  EXPECT_EQ(t.DebugString(),
            "Tensor<type: variant shape: [2] values: Variant<type: Pair value: Pair(1, 2)> "
            "Variant<empty>>");

  Tensor copy = t.DeepCopy();
  EXPECT_FALSE(copy.SharesBufferWith(t));
  // Element-wise: the copy's Variant shares the value, it does not copy it.
  EXPECT_EQ(copy.data<Variant>()[0].get<Pair>(), t.data<Variant>()[0].get<Pair>());
  EXPECT_EQ(copy.data<Variant>()[0].get<Pair>()->b, 2);
  // Shared, so neither may write it.
  EXPECT_EQ(copy.data<Variant>()[0].GetMutableIfUnique<Pair>(), nullptr);
  copy = Tensor();
  ASSERT_NE(t.data<Variant>()[0].GetMutableIfUnique<Pair>(), nullptr);
}

TEST(VariantTensor, ProtosRefuseVariantsWithAClearError) {
  TensorProto proto;
  proto.set_dtype(DT_VARIANT);
  proto.mutable_tensor_shape();
  auto t = Tensor::FromProto(proto);
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(t.status().message().find("variant"), absl::string_view::npos) << t.status();

  // Encoding writes no bytes of the Variant objects (pointers), so decoding fails as above.
  Tensor v(DT_VARIANT, TensorShape({3}));
  v.data<Variant>()[1] = Variant(Pair{3, 4});
  v.AsProtoTensorContent(&proto);
  EXPECT_EQ(proto.dtype(), DT_VARIANT);
  EXPECT_TRUE(proto.tensor_content().empty());
  EXPECT_FALSE(Tensor::FromProto(proto).ok());
}

TEST(VariantTensor, PassesThroughIdentityAndDataMovementKernels) {
  ASSERT_OK_AND_ASSIGN(a, FromTensor(Floats({2}, {1, 2})));
  ASSERT_OK_AND_ASSIGN(b, FromTensor(Floats({1}, {3})));
  ASSERT_OK_AND_ASSIGN(same, Run1("Identity", {{"T", DT_VARIANT}}, {a}));
  EXPECT_TRUE(same.SharesBufferWith(a));

  // ConcatV2 and GatherV2 move Variants element-wise (the lists are shared, not rebuilt).
  Tensor a1(DT_VARIANT, TensorShape({1})), b1(DT_VARIANT, TensorShape({1}));
  a1.data<Variant>()[0] = a.data<Variant>()[0];
  b1.data<Variant>()[0] = b.data<Variant>()[0];
  ASSERT_OK_AND_ASSIGN(
      ab, Run1("ConcatV2", {{"T", DT_VARIANT}, {"N", 2}, {"Tidx", DT_INT32}}, {a1, b1, I32(0)}));
  ASSERT_EQ(ab.shape(), TensorShape({2}));
  EXPECT_EQ(ab.data<Variant>()[0].get<TensorList>(), ListIn(a));
  EXPECT_EQ(ab.data<Variant>()[1].get<TensorList>(), ListIn(b));
  ASSERT_OK_AND_ASSIGN(
      ba, Run1("GatherV2", {{"Tparams", DT_VARIANT}, {"Tindices", DT_INT32}, {"Taxis", DT_INT32}},
               {ab, MakeTensor<int32_t>({2}, {1, 0}), I32(0)}));
  EXPECT_EQ(ba.data<Variant>()[0].get<TensorList>(), ListIn(b));
  EXPECT_EQ(ba.data<Variant>()[1].get<TensorList>(), ListIn(a));
  ASSERT_OK_AND_ASSIGN(snap, Run1("Snapshot", {{"T", DT_VARIANT}}, {a}));
  EXPECT_FALSE(snap.SharesBufferWith(a));
  EXPECT_EQ(ListIn(snap), ListIn(a));
}

TEST(VariantTensor, TensorArraysKeepVariantElements) {
  // A TensorArray of lists: scattered and gathered row by row, the lists themselves shared.
  ASSERT_OK_AND_ASSIGN(a, FromTensor(Floats({2}, {1, 2})));
  ASSERT_OK_AND_ASSIGN(b, FromTensor(Floats({1}, {3})));
  Tensor lists(DT_VARIANT, TensorShape({2}));
  lists.data<Variant>()[0] = a.data<Variant>()[0];
  lists.data<Variant>()[1] = b.data<Variant>()[0];
  ResourceMgr step;
  const Tensor flow = Tensor::Scalar<float>(0);
  auto ta = test::RunNode(NodeDefFor("TensorArrayV3", {{"dtype", DT_VARIANT}}), "ta",
                          {test::V(I32(2))}, &step);
  ASSERT_TRUE(ta.ok()) << ta.status();
  const Tensor handle = (*ta)[0].value;
  auto scatter = test::RunNode(NodeDefFor("TensorArrayScatterV3", {{"T", DT_VARIANT}}), "scatter",
                               {test::V(handle), test::V(MakeTensor<int32_t>({2}, {0, 1})),
                                test::V(lists), test::V(flow)},
                               &step);
  ASSERT_TRUE(scatter.ok()) << scatter.status();
  auto gather = test::RunNode(NodeDefFor("TensorArrayGatherV3", {{"dtype", DT_VARIANT}}),
                              "gather",
                              {test::V(handle), test::V(MakeTensor<int32_t>({2}, {1, 0})),
                               test::V(flow)},
                              &step);
  ASSERT_TRUE(gather.ok()) << gather.status();
  const Tensor& back = (*gather)[0].value;
  ASSERT_EQ(back.shape(), TensorShape({2}));
  EXPECT_EQ(back.data<Variant>()[0].get<TensorList>(), ListIn(b));
  EXPECT_EQ(back.data<Variant>()[1].get<TensorList>(), ListIn(a));
}

// ---- Making, reading and stacking lists ------------------------------------------------------

TEST(TensorListFromTensor, RoundTripsThroughStack) {
  // stack(fromt([[1,2,3],[4,5,6]], [3]), [3]) -> [[1,2,3],[4,5,6]]
  Tensor t = Floats({2, 3}, {1, 2, 3, 4, 5, 6});
  ASSERT_OK_AND_ASSIGN(list, FromTensor(t, Shape({3})));
  EXPECT_EQ(list.dtype(), DT_VARIANT);
  EXPECT_EQ(list.dims(), 0);
  EXPECT_EQ(Length(list), 2);
  EXPECT_EQ(Values<int64_t>(ElementShape(list)), std::vector<int64_t>({3}));
  EXPECT_EQ(ListIn(list)->DebugString(),
            "TensorList<element_dtype: float element_shape: [3] size: 2>");
  ASSERT_OK_AND_ASSIGN(back, Stack(list, Shape({3})));
  EXPECT_EQ(back.shape(), TensorShape({2, 3}));
  EXPECT_EQ(Values<float>(back), Values<float>(t));
  // The elements are copies: the list does not alias the tensor it came from.
  ASSERT_OK_AND_ASSIGN(row1, GetItem(list, 1));
  EXPECT_EQ(row1.shape(), TensorShape({3}));
  EXPECT_EQ(Values<float>(row1), std::vector<float>({4, 5, 6}));
  EXPECT_FALSE(row1.SharesBufferWith(t));
}

TEST(TensorListFromTensor, KeepsTheGivenElementShapeAndChecksIt) {
  // R.TensorListElementShape(fromt([[1.,2.]], -1)) -> -1; fromt([[1.,2.]], [-1]) -> [-1]
  ASSERT_OK_AND_ASSIGN(unknown, FromTensor(Floats({1, 2}, {1, 2})));
  EXPECT_EQ(ElementShape(unknown).dims(), 0);
  EXPECT_EQ(Values<int64_t>(ElementShape(unknown)), std::vector<int64_t>({-1}));
  ASSERT_OK_AND_ASSIGN(partial, FromTensor(Floats({1, 2}, {1, 2}), Shape({-1})));
  EXPECT_EQ(Values<int64_t>(ElementShape(partial)), std::vector<int64_t>({-1}));
  // fromt([[1.,2.]], [3]): "Specified a list with shape [3] from a tensor with shape [2]"
  ExpectInvalid(FromTensor(Floats({1, 2}, {1, 2}), Shape({3})).status(),
                "Specified a list with shape [3] from a tensor with shape [2]");
  // fromt(1., -1): "Tensor must be at least a vector, but saw shape: []"
  ExpectInvalid(FromTensor(Tensor::Scalar<float>(1)).status(), "at least a vector");
}

TEST(TensorListFromTensor, MakesListsOfScalarsAndOfStrings) {
  // get(fromt([1.,2.], -1), 0, -1) has shape []
  ASSERT_OK_AND_ASSIGN(scalars, FromTensor(Floats({2}, {1, 2})));
  ASSERT_OK_AND_ASSIGN(first, GetItem(scalars, 0));
  EXPECT_EQ(first.shape(), TensorShape({}));
  EXPECT_EQ(first.scalar<float>()(), 1);
  // stack(fromt(["a","b"])) -> [b'a', b'b']
  Tensor strings(DT_STRING, TensorShape({2}));
  strings.data<tstring>()[0] = "a";
  strings.data<tstring>()[1] = "b";
  ASSERT_OK_AND_ASSIGN(slist, FromTensor(strings));
  ASSERT_OK_AND_ASSIGN(sback, Stack(slist, Unknown(), DT_STRING));
  EXPECT_EQ(Values<tstring>(sback), std::vector<tstring>({"a", "b"}));
}

TEST(EmptyTensorList, StacksToAnEmptyTensorOnlyWhenTheElementShapeIsKnown) {
  // stack(empty([2,3], -1), -1) has shape [0, 2, 3]
  ASSERT_OK_AND_ASSIGN(known, Empty(Shape({2, 3})));
  EXPECT_EQ(Length(known), 0);
  ASSERT_OK_AND_ASSIGN(stacked, Stack(known));
  EXPECT_EQ(stacked.shape(), TensorShape({0, 2, 3}));
  // stack(empty(-1, -1), -1): "Tried to stack elements of an empty list with non-fully-defined
  // element_shape: <unknown>"
  ASSERT_OK_AND_ASSIGN(unknown, Empty(Unknown()));
  ExpectInvalid(Stack(unknown).status(), "empty list with non-fully-defined element_shape");
  // stack(empty(-1, -1), [0]) has shape [0, 0]: the input completes the shape.
  ASSERT_OK_AND_ASSIGN(given, Stack(unknown, Shape({0})));
  EXPECT_EQ(given.shape(), TensorShape({0, 0}));
  // An int64 element_shape works the same.
  ASSERT_OK_AND_ASSIGN(wide, Empty(MakeTensor<int64_t>({2}, {2, -1})));
  EXPECT_EQ(Values<int64_t>(ElementShape(wide)), std::vector<int64_t>({2, -1}));
}

TEST(EmptyTensorList, RejectsBadShapesAndMaxNumElements) {
  // reserve([-2], 1): "Dimension -2 must be >= -1"; reserve(3, 1): "The only valid scalar shape
  // tensor is the fully unknown shape specified as -1."; reserve([[1]], 1): "Shape must be at
  // most rank 1 but is rank 2"
  ExpectInvalid(Empty(Shape({-2})).status(), "Dimension -2 must be >= -1");
  ExpectInvalid(Empty(I32(3)).status(), "The only valid scalar shape tensor");
  ExpectInvalid(Empty(MakeTensor<int32_t>({1, 1}, {1})).status(), "at most rank 1");
  // R.EmptyTensorList(element_shape=-1, max_num_elements=[1], ...): "max_num_elements expected
  // to be a scalar but got shape: [1]"
  auto bad_max = Run1("EmptyTensorList", {{"element_dtype", DT_FLOAT}, {"shape_type", DT_INT32}},
                      {Unknown(), MakeTensor<int32_t>({1}, {1})});
  ExpectInvalid(bad_max.status(), "max_num_elements expected to be a scalar");
}

TEST(TensorListReserve, UnsetItemsStackAsZerosOfAFullyDefinedShape) {
  // stack(reserve([2], 3), -1) -> [[0,0],[0,0],[0,0]]
  ASSERT_OK_AND_ASSIGN(full, Reserve(Shape({2}), 3));
  EXPECT_EQ(Length(full), 3);
  ASSERT_OK_AND_ASSIGN(zeros, Stack(full));
  EXPECT_EQ(zeros.shape(), TensorShape({3, 2}));
  EXPECT_EQ(Values<float>(zeros), std::vector<float>(6, 0.0f));
  // stack(reserve([-1], 3), -1): "Tried to stack list which only contains uninitialized tensors
  // and has a non-fully-defined element_shape: [?]"
  ASSERT_OK_AND_ASSIGN(partial, Reserve(Shape({-1}), 3));
  ExpectInvalid(Stack(partial).status(), "only contains uninitialized tensors");
  // stack(reserve([-1], 3), [2]) -> zeros of [3, 2]
  ASSERT_OK_AND_ASSIGN(given, Stack(partial, Shape({2})));
  EXPECT_EQ(given.shape(), TensorShape({3, 2}));
  // stack(setit(reserve([-1], 3), 1, [7.,8.]), -1) -> [[0,0],[7,8],[0,0]]: a set item tells
  // the shape.
  ASSERT_OK_AND_ASSIGN(one, SetItem(partial, 1, Floats({2}, {7, 8})));
  ASSERT_OK_AND_ASSIGN(mixed, Stack(one));
  EXPECT_EQ(Values<float>(mixed), std::vector<float>({0, 0, 7, 8, 0, 0}));
  // stack(reserve(E, 2, tf.string)) -> [b'', b'']; bools are False.
  ASSERT_OK_AND_ASSIGN(strings, Reserve(Shape({}), 2, DT_STRING));
  ASSERT_OK_AND_ASSIGN(empty_strings, Stack(strings, Unknown(), DT_STRING));
  EXPECT_EQ(Values<tstring>(empty_strings), std::vector<tstring>({"", ""}));
  // R.TensorListReserve(element_shape=-1, num_elements=-1, ...): "The num_elements to reserve
  // must be a non negative number, but got -1"
  ExpectInvalid(Reserve(Unknown(), -1).status(), "must be a non negative number, but got -1");
}

TEST(TensorListStack, ChecksDtypeCountAndShapes) {
  ASSERT_OK_AND_ASSIGN(ints, FromTensor(MakeTensor<int32_t>({2}, {1, 2})));
  // R.TensorListStack(input_handle=fromt([1,2]), element_shape=-1, element_dtype=tf.float32):
  // "Invalid data types; op elements float but list elements int32"
  ExpectInvalid(Stack(ints).status(), "Invalid data types; op elements float but list elements "
                                      "int32");
  ASSERT_OK_AND_ASSIGN(two, FromTensor(Floats({2}, {1, 2})));
  // stack(fromt([1.,2.]), num_elements=3): "Operation expected a list with 3 elements but got a
  // list with 2 elements."
  ExpectInvalid(Stack(two, Unknown(), DT_FLOAT, 3).status(),
                "expected a list with 3 elements but got a list with 2 elements");
  ASSERT_OK_AND_ASSIGN(ok, Stack(two, Unknown(), DT_FLOAT, 2));
  EXPECT_EQ(Values<float>(ok), std::vector<float>({1, 2}));
  // stack(fromt([[1.,2.]], [2]), [3]): "Incompatible shapes during merge: [3] vs. [2]"
  ASSERT_OK_AND_ASSIGN(pairs, FromTensor(Floats({1, 2}, {1, 2}), Shape({2})));
  ExpectInvalid(Stack(pairs, Shape({3})).status(), "[3] vs. [2]");
  // stack(push(push(empty(-1), [1.]), [1.,2.])): "Incompatible shapes during merge: [1] vs. [2]"
  ASSERT_OK_AND_ASSIGN(e, Empty(Unknown()));
  ASSERT_OK_AND_ASSIGN(p1, PushBack(e, Floats({1}, {1})));
  ASSERT_OK_AND_ASSIGN(p2, PushBack(p1, Floats({2}, {1, 2})));
  ExpectInvalid(Stack(p2).status(), "[1] vs. [2]");
  // A non-list variant: "Input handle is not a list"
  ExpectInvalid(Stack(Tensor(DT_VARIANT, TensorShape({}))).status(), "is not a list");
  // R.TensorListLength(tf.stack([empty(-1)])): "Input list must be a scalar saw: [1]"
  auto vector_of_lists = Run1("TensorListLength", {}, {Tensor(DT_VARIANT, TensorShape({1}))});
  EXPECT_EQ(vector_of_lists.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(TensorListGetItem, ReadsItemsAndRejectsIndicesOutOfRange) {
  ASSERT_OK_AND_ASSIGN(list, FromTensor(Floats({2}, {1, 2})));
  ASSERT_OK_AND_ASSIGN(second, GetItem(list, 1));
  EXPECT_EQ(second.scalar<float>()(), 2);
  // get(fromt([1.,2.]), -1): "Trying to access element -1 in a list with 2 elements."
  ExpectInvalid(GetItem(list, -1).status(), "Trying to access element -1 in a list with 2");
  ExpectInvalid(GetItem(list, 2).status(), "Trying to access element 2 in a list with 2");
  ExpectInvalid(GetItem(list, 0, Unknown(), DT_INT32).status(), "Invalid data types");
  // get(setit(reserve(-1, 2), 0, [1.,2.]), 1) -> [0, 0]: the shape comes from item 0.
  ASSERT_OK_AND_ASSIGN(r, Reserve(Unknown(), 2));
  ASSERT_OK_AND_ASSIGN(r0, SetItem(r, 0, Floats({2}, {1, 2})));
  ASSERT_OK_AND_ASSIGN(zeros, GetItem(r0, 1));
  EXPECT_EQ(zeros.shape(), TensorShape({2}));
  EXPECT_EQ(Values<float>(zeros), std::vector<float>({0, 0}));
  // With nothing set and no shape: "Trying to read an uninitialized tensor but element_shape is
  // not fully defined"
  ExpectInvalid(GetItem(r, 1).status(), "element_shape is not fully defined");
  ASSERT_OK_AND_ASSIGN(given, GetItem(r, 1, Shape({1, 3})));
  EXPECT_EQ(given.shape(), TensorShape({1, 3}));
}

TEST(TensorListSetItem, MakesANewListAndLeavesTheInputAlone) {
  ASSERT_OK_AND_ASSIGN(list, FromTensor(Floats({2}, {1, 2})));
  ASSERT_OK_AND_ASSIGN(changed, SetItem(list, 0, Tensor::Scalar<float>(5)));
  ASSERT_OK_AND_ASSIGN(now, Stack(changed));
  EXPECT_EQ(Values<float>(now), std::vector<float>({5, 2}));
  ASSERT_OK_AND_ASSIGN(before, Stack(list));
  EXPECT_EQ(Values<float>(before), std::vector<float>({1, 2}));
  // The untouched element is shared, not copied.
  EXPECT_TRUE(ListIn(changed)->tensors[1].SharesBufferWith(ListIn(list)->tensors[1]));
}

TEST(TensorListSetItem, ResizesOnlyWhenAskedAndNeverForNegativeIndices) {
  ASSERT_OK_AND_ASSIGN(list, FromTensor(Floats({2}, {1, 2})));
  // setit(fromt([1.,2.]), 2, 5.): "Trying to modify element 2 in a list with 2 elements."
  ExpectInvalid(SetItem(list, 2, Tensor::Scalar<float>(5)).status(),
                "Trying to modify element 2 in a list with 2 elements");
  ExpectInvalid(SetItem(list, -1, Tensor::Scalar<float>(5)).status(),
                "Trying to modify element -1");
  // stack(setit(fromt([1.,2.]), 3, 5., True), -1) -> [1, 2, 0, 5]
  ASSERT_OK_AND_ASSIGN(grown, SetItem(list, 3, Tensor::Scalar<float>(5), true));
  EXPECT_EQ(Length(grown), 4);
  ASSERT_OK_AND_ASSIGN(stacked, Stack(grown));
  EXPECT_EQ(Values<float>(stacked), std::vector<float>({1, 2, 0, 5}));
  // TensorFlow 2.21 crashes on setit(fromt([1.,2.]), -1, 5., True); sg refuses it.
  ExpectInvalid(SetItem(list, -1, Tensor::Scalar<float>(5), true).status(),
                "Trying to modify element -1");
  // setit(fromt([1.,2.], E), 0, [1.]): "Tried to set a tensor with incompatible shape at a list
  // index. Item element shape: [1] list shape: []"
  ASSERT_OK_AND_ASSIGN(scalars, FromTensor(Floats({2}, {1, 2}), Shape({})));
  ExpectInvalid(SetItem(scalars, 0, Floats({1}, {1})).status(),
                "Item element shape: [1] list shape: []");
  // R.TensorListSetItem(input_handle=fromt([1.,2.]), index=0, item=1): "Invalid data types; op
  // elements int32 but list elements float"
  ExpectInvalid(SetItem(list, 0, I32(1)).status(),
                "op elements int32 but list elements float");
}

TEST(TensorListPushBack, AppendsAndEnforcesDtypeShapeAndMaxNumElements) {
  ASSERT_OK_AND_ASSIGN(e, Empty(Shape({2}), 2));
  ASSERT_OK_AND_ASSIGN(one, PushBack(e, Floats({2}, {1, 2})));
  ASSERT_OK_AND_ASSIGN(two, PushBack(one, Floats({2}, {3, 4})));
  EXPECT_EQ(Length(e), 0);
  EXPECT_EQ(Length(one), 1);
  ASSERT_OK_AND_ASSIGN(stacked, Stack(two));
  EXPECT_EQ(Values<float>(stacked), std::vector<float>({1, 2, 3, 4}));
  // push(push(empty(-1, 1), 1.), 2.): "Tried to push item into a full list list size: 1
  // max_num_elements: 1"
  ExpectInvalid(PushBack(two, Floats({2}, {5, 6})).status(),
                "Tried to push item into a full list list size: 2 max_num_elements: 2");
  // push(empty([2]), [1.]): "Tried to append a tensor with incompatible shape to a list. Op
  // element shape: [1] list shape: [2]"
  ExpectInvalid(PushBack(e, Floats({1}, {1})).status(),
                "Op element shape: [1] list shape: [2]");
  // R.TensorListPushBack(input_handle=empty([2]), tensor=[1,2]): "Invalid data types; op
  // elements int32 but list elements float"
  ExpectInvalid(PushBack(e, MakeTensor<int32_t>({2}, {1, 2})).status(),
                "op elements int32 but list elements float");
  // R.TensorListResize keeps max_num_elements: push(R.TensorListResize(empty(-1, 1), 1), 1.)
  // fails as full.
  ASSERT_OK_AND_ASSIGN(e1, Empty(Unknown(), 1));
  ASSERT_OK_AND_ASSIGN(r1, Resize(e1, 1));
  ExpectInvalid(PushBack(r1, Tensor::Scalar<float>(1)).status(), "full list");
}

TEST(TensorListPushBack, UpdatesInPlaceOnlyWhatNothingElseHolds) {
  ASSERT_OK_AND_ASSIGN(list, Empty(Unknown()));
  const TensorList* original = ListIn(list);
  NodeDef push = NodeDefFor("TensorListPushBack", {{"element_dtype", DT_FLOAT}});
  // The test keeps `list`: the kernel must make a new list.
  auto shared = test::RunNode(push, "push", {test::V(list), test::V(Tensor::Scalar<float>(1))});
  ASSERT_TRUE(shared.ok()) << shared.status();
  EXPECT_NE(ListIn((*shared)[0].value), original);
  EXPECT_EQ(original->tensors.size(), 0u);
  // Handed over (as the executor hands a kernel its inputs): the same list grows.
  // (Moved into the inputs vector: an initializer list would hold a second reference.)
  std::vector<TensorValue> in;
  in.push_back(TensorValue{std::move(list)});
  in.push_back(test::V(Tensor::Scalar<float>(2)));
  auto owned = test::RunNode(push, "push", std::move(in));
  ASSERT_TRUE(owned.ok()) << owned.status();
  EXPECT_EQ(ListIn((*owned)[0].value), original);
  EXPECT_EQ(original->tensors.size(), 1u);
  // A second tensor holding the same Variant (a Snapshot, say) also keeps it from being reused.
  Tensor out = (*owned)[0].value;
  owned->clear();
  Tensor snapshot = out.DeepCopy();
  in.clear();
  in.push_back(TensorValue{std::move(out)});
  in.push_back(test::V(Tensor::Scalar<float>(3)));
  auto after_copy = test::RunNode(push, "push", std::move(in));
  ASSERT_TRUE(after_copy.ok()) << after_copy.status();
  EXPECT_NE(ListIn((*after_copy)[0].value), original);
  EXPECT_EQ(ListIn(snapshot)->tensors.size(), 1u);
  EXPECT_EQ(ListIn((*after_copy)[0].value)->tensors.size(), 2u);
}

TEST(TensorListPopBack, ReturnsTheLastItemAndTheShorterList) {
  NodeDef pop = NodeDefFor("TensorListPopBack", {{"element_dtype", DT_FLOAT}});
  // R.TensorListPopBack(input_handle=fromt([1.,2.]), element_shape=-1, ...) -> ([1.], 2.)
  ASSERT_OK_AND_ASSIGN(list, FromTensor(Floats({2}, {1, 2})));
  ASSERT_OK_AND_ASSIGN(out, RunKernel(pop, {list, Unknown()}));
  EXPECT_EQ(out[1].scalar<float>()(), 2);
  ASSERT_OK_AND_ASSIGN(rest, Stack(out[0]));
  EXPECT_EQ(Values<float>(rest), std::vector<float>({1}));
  EXPECT_EQ(Length(list), 2);
  // Popping an unset item of a known shape gives zeros; of an unknown shape, an error.
  ASSERT_OK_AND_ASSIGN(known, Reserve(Shape({2}), 1));
  ASSERT_OK_AND_ASSIGN(zeros, RunKernel(pop, {known, Unknown()}));
  EXPECT_EQ(Values<float>(zeros[1]), std::vector<float>({0, 0}));
  ASSERT_OK_AND_ASSIGN(unknown, Reserve(Unknown(), 1));
  ExpectInvalid(RunKernel(pop, {unknown, Unknown()}).status(),
                "element_shape is not fully defined");
  // "Trying to pop from an empty list."
  ASSERT_OK_AND_ASSIGN(e, Empty(Unknown()));
  ExpectInvalid(RunKernel(pop, {e, Unknown()}).status(), "Trying to pop from an empty list");
}

TEST(TensorListResize, GrowsWithUnsetItemsAndShrinks) {
  // stack(R.TensorListResize(fromt([1.,2.]), 4), E) -> [1, 2, 0, 0]; to 1 -> [1]
  ASSERT_OK_AND_ASSIGN(list, FromTensor(Floats({2}, {1, 2})));
  ASSERT_OK_AND_ASSIGN(grown, Resize(list, 4));
  ASSERT_OK_AND_ASSIGN(g, Stack(grown, Shape({})));
  EXPECT_EQ(Values<float>(g), std::vector<float>({1, 2, 0, 0}));
  ASSERT_OK_AND_ASSIGN(shrunk, Resize(list, 1));
  ASSERT_OK_AND_ASSIGN(s, Stack(shrunk, Shape({})));
  EXPECT_EQ(Values<float>(s), std::vector<float>({1}));
  // "TensorListSlice expects size to be non-negative. Got: -1" (sg names the op it runs)
  ExpectInvalid(Resize(list, -1).status(), "expects size to be non-negative. Got: -1");
}

TEST(TensorListGather, GathersInIndexOrderWithZerosForUnsetItems) {
  // R.TensorListGather(fromt([1.,2.,3.]), [2,0,2], -1) -> [3, 1, 3]
  ASSERT_OK_AND_ASSIGN(list, FromTensor(Floats({3}, {1, 2, 3})));
  ASSERT_OK_AND_ASSIGN(g, Gather(list, {2, 0, 2}));
  EXPECT_EQ(Values<float>(g), std::vector<float>({3, 1, 3}));
  // "Trying to gather element -1 in a list with 3 elements." (and 3 likewise)
  ExpectInvalid(Gather(list, {-1}).status(), "element -1 in a list with 3 elements");
  ExpectInvalid(Gather(list, {3}).status(), "element 3 in a list with 3 elements");
  // Gathering nothing needs a known shape: "Tried to gather 0-elements from a list with
  // non-fully-defined shape: <unknown>"; with E it is a [0] tensor.
  ExpectInvalid(Gather(list, {}).status(), "Tried to gather 0-elements");
  ASSERT_OK_AND_ASSIGN(none, Gather(list, {}, Shape({})));
  EXPECT_EQ(none.shape(), TensorShape({0}));
  // gather(setit(reserve([-1], 3), 0, [1.,2.]), [1, 0]) -> [[0,0],[1,2]]
  ASSERT_OK_AND_ASSIGN(r, Reserve(Shape({-1}), 3));
  ASSERT_OK_AND_ASSIGN(r0, SetItem(r, 0, Floats({2}, {1, 2})));
  ASSERT_OK_AND_ASSIGN(mixed, Gather(r0, {1, 0}));
  EXPECT_EQ(mixed.shape(), TensorShape({2, 2}));
  EXPECT_EQ(Values<float>(mixed), std::vector<float>({0, 0, 1, 2}));
}

// ---- Scatter, split and concat -------------------------------------------------------------

// TensorListScatter, or TensorListScatterV2 when `num_elements` is given.
absl::StatusOr<Tensor> Scatter(const Tensor& t, std::vector<int32_t> indices, const Tensor& shape,
                               std::optional<int32_t> num_elements = std::nullopt) {
  std::vector<Tensor> inputs = {
      t, MakeTensor<int32_t>({static_cast<int64_t>(indices.size())}, indices), shape};
  if (num_elements) inputs.push_back(I32(*num_elements));
  return Run1(num_elements ? "TensorListScatterV2" : "TensorListScatter",
              {{"element_dtype", t.dtype()}, {"shape_type", DT_INT32}}, inputs);
}

TEST(TensorListScatter, PutsRowsAtIndicesAndLaterRowsWin) {
  // stack(R.TensorListScatter([1.,2.,3.], [3,0,3], E), E) -> [2, 0, 0, 3]
  ASSERT_OK_AND_ASSIGN(list, Scatter(Floats({3}, {1, 2, 3}), {3, 0, 3}, Shape({})));
  ASSERT_OK_AND_ASSIGN(s, Stack(list, Shape({})));
  EXPECT_EQ(Values<float>(s), std::vector<float>({2, 0, 0, 3}));
  // "Indices in TensorListScatter must all be non-negative."
  ExpectInvalid(Scatter(Floats({3}, {1, 2, 3}), {3, -1, 3}, Shape({})).status(),
                "must all be non-negative");
  // Two indices for three rows.
  ExpectInvalid(Scatter(Floats({3}, {1, 2, 3}), {3, 1}, Shape({})).status(), "2 vs. 3");
  ExpectInvalid(Scatter(Floats({2}, {1, 2}), {0, 1}, Shape({1})).status(),
                "Specified a list with shape [1] from a tensor with shape []");
}

TEST(TensorListScatterV2, SizesTheListByNumElements) {
  // stack(R.TensorListScatterV2([1.,2.], [1,0], E, 4), E) -> [2, 1, 0, 0]
  ASSERT_OK_AND_ASSIGN(list, Scatter(Floats({2}, {1, 2}), {1, 0}, Shape({}), 4));
  ASSERT_OK_AND_ASSIGN(s, Stack(list, Shape({})));
  EXPECT_EQ(Values<float>(s), std::vector<float>({2, 1, 0, 0}));
  // num_elements -1: as long as the largest index needs (2).
  ASSERT_OK_AND_ASSIGN(fit, Scatter(Floats({2}, {1, 2}), {1, 0}, Shape({}), -1));
  EXPECT_EQ(Length(fit), 2);
  // "TensorListScatter: Trying to scatter at index 3 in list with size 2"
  ExpectInvalid(Scatter(Floats({2}, {1, 2}), {1, 3}, Shape({}), 2).status(),
                "Trying to scatter at index 3 in list with size 2");
  // "TensorListScatter expects num_elements >= -1, found: -3"
  ExpectInvalid(Scatter(Floats({2}, {1, 2}), {1, 0}, Shape({}), -3).status(),
                "num_elements >= -1, found: -3");
}

TEST(TensorListScatterIntoExistingList, OverwritesAndGrowsTheList) {
  NodeDef op = NodeDefFor("TensorListScatterIntoExistingList", {{"element_dtype", DT_FLOAT}});
  // R.TensorListScatterIntoExistingList(fromt([1.,2.]), [5.,6.], [1,0]) stacks to [6, 5].
  ASSERT_OK_AND_ASSIGN(list, FromTensor(Floats({2}, {1, 2})));
  ASSERT_OK_AND_ASSIGN(swapped,
                       RunKernel(op, {list, Floats({2}, {5, 6}), MakeTensor<int32_t>({2}, {1, 0})}));
  ASSERT_OK_AND_ASSIGN(s, Stack(swapped[0]));
  EXPECT_EQ(Values<float>(s), std::vector<float>({6, 5}));
  // Indices [3, 0]: items 0, 1, 3 are 6, 2, 5 as in TensorFlow. Item 2 is unset in sg, so a
  // stack with a scalar shape reads it as 0 (TensorFlow fills it with an empty [0] tensor and
  // the same stack fails).
  ASSERT_OK_AND_ASSIGN(grown,
                       RunKernel(op, {list, Floats({2}, {5, 6}), MakeTensor<int32_t>({2}, {3, 0})}));
  ASSERT_OK_AND_ASSIGN(g, Stack(grown[0], Shape({})));
  EXPECT_EQ(Values<float>(g), std::vector<float>({6, 2, 0, 5}));
  // TensorFlow 2.21 crashes on a negative index; sg refuses it.
  ExpectInvalid(RunKernel(op, {list, Floats({2}, {5, 6}), MakeTensor<int32_t>({2}, {-1, 0})})
                    .status(),
                "must all be non-negative");
  ASSERT_OK_AND_ASSIGN(scalars, FromTensor(Floats({2}, {1, 2}), Shape({})));
  ExpectInvalid(
      RunKernel(op, {scalars, Floats({1, 2}, {5, 6}), MakeTensor<int32_t>({1}, {0})}).status(),
      "Tried to scatter elements of shape [2] into a list with element shape []");
}

absl::StatusOr<Tensor> Split(const Tensor& t, const Tensor& shape, std::vector<int64_t> lengths) {
  return Run1("TensorListSplit", {{"element_dtype", t.dtype()}, {"shape_type", DT_INT32}},
              {t, shape, MakeTensor<int64_t>({static_cast<int64_t>(lengths.size())}, lengths)});
}

TEST(TensorListSplit, CutsTheTensorIntoPiecesOfTheGivenLengths) {
  // [get(R.TensorListSplit([1.,2.,3.], [-1], [1,0,2]), i) for i in 0..2] -> [1.], [], [2.,3.]
  ASSERT_OK_AND_ASSIGN(list, Split(Floats({3}, {1, 2, 3}), Shape({-1}), {1, 0, 2}));
  EXPECT_EQ(Length(list), 3);
  EXPECT_EQ(Values<int64_t>(ElementShape(list)), std::vector<int64_t>({-1}));
  ASSERT_OK_AND_ASSIGN(a, GetItem(list, 0));
  ASSERT_OK_AND_ASSIGN(b, GetItem(list, 1));
  ASSERT_OK_AND_ASSIGN(c, GetItem(list, 2));
  EXPECT_EQ(Values<float>(a), std::vector<float>({1}));
  EXPECT_EQ(b.shape(), TensorShape({0}));
  EXPECT_EQ(Values<float>(c), std::vector<float>({2, 3}));
  // "Unused values in tensor. Length of tensor: 3 Values used: 2"
  ExpectInvalid(Split(Floats({3}, {1, 2, 3}), Shape({-1}), {1, 1}).status(),
                "Length of tensor: 3 Values used: 2");
  // "Attempting to slice [1, 4] from tensor with length 3"
  ExpectInvalid(Split(Floats({3}, {1, 2, 3}), Shape({-1}), {1, 3}).status(),
                "Attempting to slice [1, 4] from tensor with length 3");
  ExpectInvalid(Split(Floats({3}, {1, 2, 3}), Shape({-1}), {-1, 4}).status(),
                "Invalid value in lengths: -1");
  // "TensorListSplit requires element_shape to be at least of rank 1, but saw: []"
  ExpectInvalid(Split(Floats({3}, {1, 2, 3}), Shape({}), {3}).status(), "at least of rank 1");
  // "tensor shape [1,3] is not compatible with element_shape [?,2]"
  ExpectInvalid(Split(Floats({1, 3}, {1, 2, 3}), Shape({-1, 2}), {1}).status(),
                "tensor shape [1,3] is not compatible with element_shape [?,2]");
}

// TensorListConcat (V1, element_shape attr) or, with `leading`, TensorListConcatV2.
absl::StatusOr<std::vector<Tensor>> ConcatV1(const Tensor& list,
                                             PartialTensorShape shape = PartialTensorShape()) {
  return RunKernel(
      NodeDefFor("TensorListConcat", {{"element_dtype", DT_FLOAT}, {"element_shape", shape}}),
      {list});
}
absl::StatusOr<std::vector<Tensor>> ConcatV2(const Tensor& list, const Tensor& shape,
                                             std::vector<int64_t> leading = {}) {
  return RunKernel(
      NodeDefFor("TensorListConcatV2", {{"element_dtype", DT_FLOAT}, {"shape_type", DT_INT32}}),
      {list, shape, MakeTensor<int64_t>({static_cast<int64_t>(leading.size())}, leading)});
}

TEST(TensorListConcat, JoinsElementsAlongTheirFirstDim) {
  // R.TensorListConcat(push(push(empty(-1), [1.]), [2.,3.])) -> ([1, 2, 3], [1, 2])
  ASSERT_OK_AND_ASSIGN(e, Empty(Unknown()));
  ASSERT_OK_AND_ASSIGN(p1, PushBack(e, Floats({1}, {1})));
  ASSERT_OK_AND_ASSIGN(mixed, PushBack(p1, Floats({2}, {2, 3})));
  ASSERT_OK_AND_ASSIGN(v1, ConcatV1(mixed));
  EXPECT_EQ(Values<float>(v1[0]), std::vector<float>({1, 2, 3}));
  EXPECT_EQ(Values<int64_t>(v1[1]), std::vector<int64_t>({1, 2}));
  // ConcatV2 of [[1,2]] and [[3,4],[5,6]] -> [[1,2],[3,4],[5,6]], lengths [1, 2]
  ASSERT_OK_AND_ASSIGN(q1, PushBack(e, Floats({1, 2}, {1, 2})));
  ASSERT_OK_AND_ASSIGN(rows, PushBack(q1, Floats({2, 2}, {3, 4, 5, 6})));
  ASSERT_OK_AND_ASSIGN(v2, ConcatV2(rows, Unknown()));
  EXPECT_EQ(v2[0].shape(), TensorShape({3, 2}));
  EXPECT_EQ(Values<float>(v2[0]), std::vector<float>({1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(Values<int64_t>(v2[1]), std::vector<int64_t>({1, 2}));
  // "Concat saw a scalar shape at index 0 but requires at least vectors."
  ASSERT_OK_AND_ASSIGN(scalars, FromTensor(Floats({2}, {1, 2})));
  ExpectInvalid(ConcatV1(scalars).status(), "Concat saw a scalar shape at index 0");
  // [[1,2]] then [[3,4,5]]: "Incompatible shapes during merge: [2] vs. [3]"
  ASSERT_OK_AND_ASSIGN(bad, PushBack(q1, Floats({1, 3}, {3, 4, 5})));
  ExpectInvalid(ConcatV2(bad, Unknown()).status(), "[2] vs. [3]");
}

TEST(TensorListConcat, SizesUnsetElementsFromLeadingDimsOrTheSetOnes) {
  ASSERT_OK_AND_ASSIGN(e, Empty(Unknown()));
  ASSERT_OK_AND_ASSIGN(s1, PushBack(e, Floats({2}, {1, 2})));
  ASSERT_OK_AND_ASSIGN(s2, PushBack(s1, Floats({2}, {3, 4})));
  ASSERT_OK_AND_ASSIGN(same, Resize(s2, 3));
  // V1, set elements all of length 2: R.TensorListConcat(...) -> ([1,2,3,4,0,0], [2,2,2])
  ASSERT_OK_AND_ASSIGN(v1, ConcatV1(same));
  EXPECT_EQ(Values<float>(v1[0]), std::vector<float>({1, 2, 3, 4, 0, 0}));
  EXPECT_EQ(Values<int64_t>(v1[1]), std::vector<int64_t>({2, 2, 2}));
  // V2 with leading_dims [5,5,1]: only the unset element's entry counts -> lengths [2,2,1]
  ASSERT_OK_AND_ASSIGN(ld, ConcatV2(same, Unknown(), {5, 5, 1}));
  EXPECT_EQ(Values<float>(ld[0]), std::vector<float>({1, 2, 3, 4, 0}));
  EXPECT_EQ(Values<int64_t>(ld[1]), std::vector<int64_t>({2, 2, 1}));
  // Set lengths 1 and 2 and an unset element: V1 "Concating lists with uninitialized tensors
  // is not supported in this version of TensorListConcat"; V2 "List contains uninitialized
  // tensor at index 2 but leading_dims has only 0 elements."
  ASSERT_OK_AND_ASSIGN(m1, PushBack(e, Floats({1}, {1})));
  ASSERT_OK_AND_ASSIGN(m2, PushBack(m1, Floats({2}, {2, 3})));
  ASSERT_OK_AND_ASSIGN(mixed, Resize(m2, 3));
  ExpectInvalid(ConcatV1(mixed).status(), "not supported in this version of TensorListConcat");
  ExpectInvalid(ConcatV2(mixed, Unknown()).status(),
                "uninitialized tensor at index 2 but leading_dims has only 0 elements");
  // V2's element_shape gives the first dim: R.TensorListConcatV2(reserve... resized empty([-1])
  // to 2, [3], []) -> zeros [6], lengths [3, 3]; an element of another length is an error.
  ASSERT_OK_AND_ASSIGN(unset, Reserve(Shape({-1}), 2));
  ASSERT_OK_AND_ASSIGN(threes, ConcatV2(unset, Shape({3})));
  EXPECT_EQ(Values<float>(threes[0]), std::vector<float>(6, 0.0f));
  EXPECT_EQ(Values<int64_t>(threes[1]), std::vector<int64_t>({3, 3}));
  ExpectInvalid(ConcatV2(mixed, Shape({2})).status(),
                "does not match the first dim of list element at index: 0 Expected: 2 Actual: 1");
  ExpectInvalid(ConcatV2(unset, Unknown(), {-1, 1}).status(), "leading_dims[0] is -1");
}

TEST(TensorListConcat, NeedsTheInnerShapeForEmptyLists) {
  // R.TensorListConcat(empty([-1, 2])): "All except the first dimension must be fully defined
  // when concating an empty tensor list. element_shape: <unknown>" (V1 reads only its attr)
  ASSERT_OK_AND_ASSIGN(e, Empty(Shape({-1, 2})));
  ExpectInvalid(ConcatV1(e).status(), "All except the first dimension must be fully defined");
  // With the attr [-1, 2]: shapes [0, 2] and [0].
  ASSERT_OK_AND_ASSIGN(v1, ConcatV1(e, PartialTensorShape({-1, 2})));
  EXPECT_EQ(v1[0].shape(), TensorShape({0, 2}));
  EXPECT_EQ(v1[1].shape(), TensorShape({0}));
  // V2 merges the list's shape: R.TensorListConcatV2(empty([-1, 2]), -1, []) has shape [0, 2].
  ASSERT_OK_AND_ASSIGN(v2, ConcatV2(e, Unknown()));
  EXPECT_EQ(v2[0].shape(), TensorShape({0, 2}));
  // R.TensorListConcatV2(empty(E), -1, []): "Concat requires elements to be at least vectors,
  // found scalars instead."
  ASSERT_OK_AND_ASSIGN(scalar_list, Empty(Shape({})));
  ExpectInvalid(ConcatV2(scalar_list, Unknown()).status(), "at least vectors");
}

TEST(TensorListConcat, UsesTheSetElementsOfAListWithAKnownShape) {
  // sg departs here: TensorFlow 2.21's R.TensorListConcat(push(empty([1]), [1.])) fails with
  // "Trying to concat list with only uninitialized tensors ..." although the element is set.
  ASSERT_OK_AND_ASSIGN(e, Empty(Shape({1})));
  ASSERT_OK_AND_ASSIGN(one, PushBack(e, Floats({1}, {7})));
  ASSERT_OK_AND_ASSIGN(v1, ConcatV1(one));
  EXPECT_EQ(Values<float>(v1[0]), std::vector<float>({7}));
  EXPECT_EQ(Values<int64_t>(v1[1]), std::vector<int64_t>({1}));
}

TEST(TensorListConcatLists, AppendsListsElementWise) {
  NodeDef op = NodeDefFor("TensorListConcatLists", {{"element_dtype", DT_FLOAT}});
  // stack(R.TensorListConcatLists(fromt([1.,2.]), fromt([3.]))) -> [1, 2, 3]
  ASSERT_OK_AND_ASSIGN(a, FromTensor(Floats({2}, {1, 2})));
  ASSERT_OK_AND_ASSIGN(b, FromTensor(Floats({1}, {3})));
  ASSERT_OK_AND_ASSIGN(ab, RunKernel(op, {a, b}));
  ASSERT_OK_AND_ASSIGN(s, Stack(ab[0]));
  EXPECT_EQ(Values<float>(s), std::vector<float>({1, 2, 3}));
  // Batches: [[1],[2]] + [[3],[4,5]] -> [1,3] and [2,4,5].
  ASSERT_OK_AND_ASSIGN(one, FromTensor(Floats({1}, {1})));
  ASSERT_OK_AND_ASSIGN(two, FromTensor(Floats({1}, {2})));
  ASSERT_OK_AND_ASSIGN(three, FromTensor(Floats({1}, {3})));
  ASSERT_OK_AND_ASSIGN(four_five, FromTensor(Floats({2}, {4, 5})));
  Tensor left(DT_VARIANT, TensorShape({2})), right(DT_VARIANT, TensorShape({2}));
  left.data<Variant>()[0] = one.data<Variant>()[0];
  left.data<Variant>()[1] = two.data<Variant>()[0];
  right.data<Variant>()[0] = three.data<Variant>()[0];
  right.data<Variant>()[1] = four_five.data<Variant>()[0];
  ASSERT_OK_AND_ASSIGN(batch, RunKernel(op, {left, right}));
  ASSERT_EQ(batch[0].shape(), TensorShape({2}));
  const TensorList* first = batch[0].data<Variant>()[0].get<TensorList>();
  const TensorList* second = batch[0].data<Variant>()[1].get<TensorList>();
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(first->tensors.size(), 2u);
  ASSERT_EQ(second->tensors.size(), 3u);
  EXPECT_EQ(second->tensors[2].scalar<float>()(), 5);
  // "Incompatible input TensorList tensor shapes: [2] vs. []"
  ExpectInvalid(RunKernel(op, {left, a}).status(), "[2] vs. []");
  // "input_a and input_b TensorList element shapes are not identical at index 0.  Saw [] vs.
  // <unknown>"
  ASSERT_OK_AND_ASSIGN(scalar_shape, FromTensor(Floats({2}, {1, 2}), Shape({})));
  ExpectInvalid(RunKernel(op, {scalar_shape, b}).status(), "Saw [] vs. <unknown>");
  // "input_b[0].dtype != element_dtype.  Saw: int32 vs. float"
  ASSERT_OK_AND_ASSIGN(ints, FromTensor(MakeTensor<int32_t>({1}, {3})));
  ExpectInvalid(RunKernel(op, {a, ints}).status(), "Saw: int32 vs. float");
}

TEST(TensorListPushBackBatch, PushesOneRowOntoEachList) {
  NodeDef op = NodeDefFor("TensorListPushBackBatch", {{"element_dtype", DT_FLOAT}});
  // R.TensorListPushBackBatch(tf.stack([fromt([1.]), empty(-1)]), [7., 8.]) stacks to [1, 7]
  // and [8].
  ASSERT_OK_AND_ASSIGN(one, FromTensor(Floats({1}, {1})));
  ASSERT_OK_AND_ASSIGN(e, Empty(Unknown()));
  Tensor handles(DT_VARIANT, TensorShape({2}));
  handles.data<Variant>()[0] = one.data<Variant>()[0];
  handles.data<Variant>()[1] = e.data<Variant>()[0];
  ASSERT_OK_AND_ASSIGN(out, RunKernel(op, {handles, Floats({2}, {7, 8})}));
  ASSERT_EQ(out[0].shape(), TensorShape({2}));
  const TensorList* first = out[0].data<Variant>()[0].get<TensorList>();
  const TensorList* second = out[0].data<Variant>()[1].get<TensorList>();
  ASSERT_EQ(first->tensors.size(), 2u);
  EXPECT_EQ(first->tensors[1].scalar<float>()(), 7);
  ASSERT_EQ(second->tensors.size(), 1u);
  EXPECT_EQ(second->tensors[0].scalar<float>()(), 8);
  EXPECT_EQ(Length(one), 1);  // the inputs are unchanged
  // "Expected tensor.shape[0] == input_handles.size, but saw 1 vs. 2"
  ExpectInvalid(RunKernel(op, {handles, Floats({1}, {7})}).status(), "saw 1 vs. 2");
  // "Expected input_handles to be a vector, but saw shape: []"
  ExpectInvalid(RunKernel(op, {one, Floats({1}, {7})}).status(), "to be a vector");
}

// ---- Lists carried through v1 while loops ---------------------------------------------------

NodeDef Node(const std::string& name, const std::string& op, std::vector<std::string> inputs,
             std::vector<test::AttrArg> attrs = {}) {
  NodeDef n = NodeDefFor(op, std::move(attrs));
  n.set_name(name);
  for (auto& i : inputs) n.add_input(i);
  return n;
}
NodeDef Const(const std::string& name, const Tensor& t) {
  return Node(name, "Const", {}, {{"dtype", t.dtype()}, {"value", t}});
}

// for (i = 0; i < n; ++i) { reserved[i] = [i, i*i]; pushed.push_back(float(i)); }, as the v1
// control-flow ops TensorFlow's tf.while_loop builds, then the lists stacked after the loop.
GraphDef ListWhileLoop() {
  GraphDef g;
  auto add = [&](NodeDef n) { *g.add_node() = std::move(n); };
  const std::string frame = "list_loop";
  add(Node("n", "Placeholder", {}, {{"dtype", DT_INT32}, {"shape", PartialTensorShape({})}}));
  add(Const("zero", I32(0)));
  add(Const("one", I32(1)));
  add(Const("pair_shape", Shape({2})));
  add(Const("scalar_shape", Shape({})));
  add(Const("no_max", I32(-1)));
  add(Node("reserve", "TensorListReserve", {"pair_shape", "n"},
           {{"element_dtype", DT_FLOAT}, {"shape_type", DT_INT32}}));
  add(Node("empty", "EmptyTensorList", {"scalar_shape", "no_max"},
           {{"element_dtype", DT_FLOAT}, {"shape_type", DT_INT32}}));
  // Loop invariants.
  for (const char* v : {"n", "one"}) {
    add(Node(std::string(v) + "_enter", "Enter", {v},
             {{"T", DT_INT32}, {"frame_name", frame}, {"is_constant", true}}));
  }
  // Loop variables: Enter -> Merge(enter, next) -> Switch(merge, cond); Switch:1 feeds the body,
  // whose result goes to NextIteration; Switch:0 leaves through Exit.
  struct Var {
    std::string name, init, next;
    DataType dtype;
  };
  const Var vars[] = {{"i", "zero", "i_plus_one", DT_INT32},
                      {"reserved", "reserve", "set_item", DT_VARIANT},
                      {"pushed", "empty", "push_back", DT_VARIANT}};
  for (const Var& v : vars) {
    add(Node(v.name + "_enter", "Enter", {v.init}, {{"T", v.dtype}, {"frame_name", frame}}));
    add(Node(v.name + "_merge", "Merge", {v.name + "_enter", v.name + "_next"},
             {{"T", v.dtype}, {"N", 2}}));
    add(Node(v.name + "_switch", "Switch", {v.name + "_merge", "cond"}, {{"T", v.dtype}}));
    add(Node(v.name + "_next", "NextIteration", {v.next}, {{"T", v.dtype}}));
    add(Node(v.name + "_exit", "Exit", {v.name + "_switch"}, {{"T", v.dtype}}));
  }
  add(Node("less", "Less", {"i_merge", "n_enter"}, {{"T", DT_INT32}}));
  add(Node("cond", "LoopCond", {"less"}));
  add(Node("x", "Cast", {"i_switch:1"}, {{"SrcT", DT_INT32}, {"DstT", DT_FLOAT}}));
  add(Node("x_squared", "Mul", {"x", "x"}, {{"T", DT_FLOAT}}));
  add(Node("item", "Pack", {"x", "x_squared"}, {{"T", DT_FLOAT}, {"N", 2}}));
  add(Node("set_item", "TensorListSetItem", {"reserved_switch:1", "i_switch:1", "item"},
           {{"element_dtype", DT_FLOAT}}));
  add(Node("push_back", "TensorListPushBack", {"pushed_switch:1", "x"},
           {{"element_dtype", DT_FLOAT}}));
  add(Node("i_plus_one", "AddV2", {"i_switch:1", "one_enter"}, {{"T", DT_INT32}}));
  // After the loop.
  add(Node("stacked", "TensorListStack", {"reserved_exit", "pair_shape"},
           {{"element_dtype", DT_FLOAT}}));
  add(Node("pushed_stacked", "TensorListStack", {"pushed_exit", "scalar_shape"},
           {{"element_dtype", DT_FLOAT}}));
  add(Node("length", "TensorListLength", {"pushed_exit"}));
  return g;
}

std::unique_ptr<Session> MakeSession(const GraphDef& g) {
  std::unique_ptr<Session> s;
  EXPECT_TRUE(NewSession(SessionOptions(), &s).ok());
  absl::Status st = s->Create(g);
  EXPECT_TRUE(st.ok()) << st;
  return s;
}

TEST(ListsInV1WhileLoops, AreWrittenEachIterationAndStackedAfterTheLoop) {
  auto s = MakeSession(ListWhileLoop());
  ASSERT_NE(s, nullptr);
  // By hand: item i is [i, i*i]; pushed holds 0 .. n-1. Run twice: a step must not see the
  // lists of the one before.
  for (int run = 0; run < 2; ++run) {
    std::vector<Tensor> out;
    absl::Status st = s->Run({{"n:0", I32(4)}},
                             {"stacked:0", "pushed_stacked:0", "length:0", "reserved_exit:0"}, {},
                             &out);
    ASSERT_TRUE(st.ok()) << st;
    EXPECT_EQ(out[0].shape(), TensorShape({4, 2}));
    EXPECT_EQ(Values<float>(out[0]), std::vector<float>({0, 0, 1, 1, 2, 4, 3, 9}));
    EXPECT_EQ(Values<float>(out[1]), std::vector<float>({0, 1, 2, 3}));
    EXPECT_EQ(out[2].scalar<int32_t>()(), 4);
    // A fetched list is a variant scalar holding the TensorList.
    ASSERT_NE(ListIn(out[3]), nullptr);
    EXPECT_EQ(ListIn(out[3])->tensors.size(), 4u);
  }
  // No iterations: the reserved list of 0 and the empty list stack to empty tensors.
  std::vector<Tensor> out;
  absl::Status st = s->Run({{"n:0", I32(0)}}, {"stacked:0", "pushed_stacked:0"}, {}, &out);
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(out[0].shape(), TensorShape({0, 2}));
  EXPECT_EQ(out[1].shape(), TensorShape({0}));
}

// A graph tests/oracle/make_list_ops_graph.py wrote with TensorFlow 2.21, run with n = 5.
std::vector<Tensor> RunOracleGraph(const std::string& file, const std::vector<std::string>& fetches) {
  std::ifstream in(std::string(SG_SOURCE_DIR) + "/tests/oracle/list_graphs/" + file,
                   std::ios::binary);
  EXPECT_TRUE(in.good()) << file;
  const std::string bytes{std::istreambuf_iterator<char>(in), {}};
  GraphDef g;
  absl::Status st = ParseGraphDef(bytes, &g);
  EXPECT_TRUE(st.ok()) << st;
  auto s = MakeSession(g);
  if (s == nullptr) return {};
  std::vector<Tensor> out;
  st = s->Run({{"n:0", I32(5)}}, fetches, {}, &out);
  EXPECT_TRUE(st.ok()) << st;
  return out;
}

TEST(ListsInV1WhileLoops, RunTensorFlowsOwnGraph) {
  // The values make_list_ops_graph.py prints for while_v1.pb.
  std::vector<Tensor> out = RunOracleGraph(
      "while_v1.pb", {"stacked:0", "gathered:0", "concatenated:0", "lengths:0", "length:0"});
  ASSERT_EQ(out.size(), 5u);
  EXPECT_EQ(out[0].shape(), TensorShape({5, 2}));
  EXPECT_EQ(Values<float>(out[0]), std::vector<float>({0, 0, 1, 1, 2, 4, 3, 9, 4, 16}));
  EXPECT_EQ(Values<float>(out[1]), std::vector<float>({14, 10}));
  EXPECT_EQ(Values<float>(out[2]), std::vector<float>({1, 2, 2, 3, 3, 3, 4, 4, 4, 4}));
  EXPECT_EQ(Values<int64_t>(out[3]), std::vector<int64_t>({0, 1, 2, 3, 4}));
  EXPECT_EQ(out[4].scalar<int32_t>()(), 5);
}

// ---- Arithmetic on lists (the gradients of list ops start from and sum lists) -----------------

TEST(ListArithmetic, ZerosLikeKeepsTheLengthAndZeroesTheSetElements) {
  ASSERT_OK_AND_ASSIGN(reserved, Reserve(Shape({2}), 3));
  ASSERT_OK_AND_ASSIGN(list, SetItem(reserved, 1, Floats({2}, {4, -5})));
  ASSERT_OK_AND_ASSIGN(zeros, Run1("ZerosLike", {{"T", DT_VARIANT}}, {list}));
  EXPECT_EQ(Length(zeros), 3);
  EXPECT_EQ(ListIn(zeros)->tensors[0].dtype(), DT_INVALID);  // unset stays unset
  ASSERT_OK_AND_ASSIGN(stacked, Stack(zeros, Shape({2})));
  EXPECT_EQ(Values<float>(stacked), std::vector<float>({0, 0, 0, 0, 0, 0}));
  // The input list is not changed.
  ASSERT_OK_AND_ASSIGN(item, GetItem(list, 1));
  EXPECT_EQ(Values<float>(item), std::vector<float>({4, -5}));
}

TEST(ListArithmetic, AddNSumsElementByElementAndTakesTheSetOne) {
  // a = [1 2, unset, 3 4], b = [10 20, 5 6, unset]: a + b = [11 22, 5 6, 3 4].
  ASSERT_OK_AND_ASSIGN(ra, Reserve(Shape({2}), 3));
  ASSERT_OK_AND_ASSIGN(a1, SetItem(ra, 0, Floats({2}, {1, 2})));
  ASSERT_OK_AND_ASSIGN(a, SetItem(a1, 2, Floats({2}, {3, 4})));
  ASSERT_OK_AND_ASSIGN(rb, Reserve(Shape({2}), 3));
  ASSERT_OK_AND_ASSIGN(b1, SetItem(rb, 0, Floats({2}, {10, 20})));
  ASSERT_OK_AND_ASSIGN(b, SetItem(b1, 1, Floats({2}, {5, 6})));
  ASSERT_OK_AND_ASSIGN(sum, Run1("AddN", {{"T", DT_VARIANT}, {"N", 2}}, {a, b}));
  ASSERT_OK_AND_ASSIGN(stacked, Stack(sum, Shape({2})));
  EXPECT_EQ(Values<float>(stacked), std::vector<float>({11, 22, 5, 6, 3, 4}));
  // Lists of other lengths do not add.
  ASSERT_OK_AND_ASSIGN(short_list, Reserve(Shape({2}), 2));
  ExpectInvalid(Run1("AddN", {{"T", DT_VARIANT}, {"N", 2}}, {a, short_list}).status(),
                "Trying to add two lists of tensors with different lengths");
}

TEST(ListsInFunctionalWhileLoops, RunTensorArraysOfTensorFlow2) {
  // The values make_list_ops_graph.py prints for while_v2.pb: TensorArrays (TensorLists) carried
  // through a StatelessWhile, which sg lowers to v1 frames.
  std::vector<Tensor> out = RunOracleGraph(
      "while_v2.pb",
      {"stacked:0", "gathered:0", "dynamic:0", "dynamic_size:0", "concatenated:0"});
  ASSERT_EQ(out.size(), 5u);
  EXPECT_EQ(out[0].shape(), TensorShape({5, 2}));
  EXPECT_EQ(Values<float>(out[0]), std::vector<float>({0, 0, 1, 1, 2, 4, 3, 9, 4, 16}));
  EXPECT_EQ(out[1].shape(), TensorShape({2, 2}));
  EXPECT_EQ(Values<float>(out[1]), std::vector<float>({4, 16, 0, 0}));
  EXPECT_EQ(Values<float>(out[2]), std::vector<float>({0, 0, 3, 0, 6, 0, 9, 0, 12}));
  EXPECT_EQ(out[3].scalar<int32_t>()(), 9);
  EXPECT_EQ(Values<float>(out[4]), std::vector<float>({0, 0, 1, 1, 2, 4, 3, 9, 4, 16}));
}

}  // namespace
}  // namespace sg
