// AddSymbolicGradients (core/graph/gradients.h) and the gradient registry (core/gradients/):
// every registered gradient function against central finite differences in double, and the
// builder's contract (prefixes, summing, stops, errors, the graph left as it was on error).
// A case whose forward or gradient graph needs an op that is not registered in this build (the
// gradient kernels land separately) is skipped, naming the op.
#include <gtest/gtest.h>

#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "core/framework/attr_value_util.h"
#include "core/gradients/grad_registry.h"
#include "core/graph/gradients.h"
#include "core/runtime/session.h"
#include "tests/core/gradient_checker.h"
#include "tests/core/gradients_more_ops.h"
#include "tests/core/no_gradient_op.h"

namespace sg {
namespace {

using gradcheck::GradCase;
using gradcheck::IntList;
using gradcheck::Placeholder;
using gradcheck::Str;
using gradcheck::TensorName;
using Out = gradcheck::Out;

std::vector<Out> Outs(GradScope& s, const std::string& type, std::vector<GradInput> in,
                      GradAttrs attrs = {}) {
  return s.OpN(type, std::move(in), std::move(attrs));
}

std::vector<GradCase> Cases() {
  auto unary = [](const char* op, double lo, double hi) {
    return GradCase{op, {{{2, 3}, lo, hi}},
                    [op](GradScope& s, const std::vector<Out>& x) { return s.Op(op, {x[0]}); }};
  };
  auto binary = [](const char* name, const char* op, std::vector<int64_t> a, std::vector<int64_t> b,
                   double lo = -1, double hi = 1) {
    return GradCase{name, {{a, lo, hi}, {b, lo, hi}},
                    [op](GradScope& s, const std::vector<Out>& x) { return s.Op(op, {x[0], x[1]}); }};
  };
  auto reduce = [](const char* name, const char* op, std::vector<int64_t> axes, bool keep) {
    return GradCase{name, {{{2, 3, 4}}}, [=](GradScope& s, const std::vector<Out>& x) {
                      return s.Op(op, {x[0], s.ConstI32(axes)}, {{"keep_dims", BoolAttr(keep)}});
                    }};
  };
  auto matmul = [](const char* name, bool ta, bool tb) {
    std::vector<int64_t> a = ta ? std::vector<int64_t>{3, 2} : std::vector<int64_t>{2, 3};
    std::vector<int64_t> b = tb ? std::vector<int64_t>{4, 3} : std::vector<int64_t>{3, 4};
    return GradCase{name, {{a}, {b}}, [=](GradScope& s, const std::vector<Out>& x) {
                      return s.MatMul(x[0], x[1], ta, tb);
                    }};
  };
  std::vector<GradCase> c = {
      unary("Identity", -1, 1), unary("Neg", -1, 1), unary("Square", -1, 1),
      unary("Exp", -1, 1), unary("Log", 0.5, 2), unary("Log1p", 0.5, 2), unary("Abs", 0.2, 1),
      unary("Sin", -1, 1), unary("Cos", -1, 1), unary("Sqrt", 0.5, 2), unary("Rsqrt", 0.5, 2),
      unary("Tanh", -1, 1), unary("Sigmoid", -1, 1), unary("Reciprocal", 0.5, 2),
      unary("Relu", -1, 1), unary("Relu6", -2, 8), unary("Elu", -1, 1),
      unary("Softplus", -1, 1), unary("Softmax", -1, 1), unary("LogSoftmax", -1, 1),
      unary("Snapshot", -1, 1), unary("Inv", 0.5, 2), unary("Softsign", -1, 1),
      unary("Selu", -1, 1), unary("Sign", -1, 1),
      {"LeakyRelu", {{{2, 3}}},
       [](GradScope& s, const std::vector<Out>& x) {
         AttrValue alpha;
         alpha.set_f(0.3f);
         return s.Op("LeakyRelu", {x[0]}, {{"alpha", alpha}});
       }},
      binary("AddV2", "AddV2", {2, 3}, {3}), binary("Add", "Add", {2, 1}, {2, 3}),
      binary("Sub", "Sub", {2, 3}, {2, 1}), binary("Mul", "Mul", {1, 3}, {2, 1}),
      binary("RealDiv", "RealDiv", {2, 3}, {3}, 0.5, 2), binary("Div", "Div", {3}, {2, 3}, 0.5, 2),
      binary("Maximum", "Maximum", {2, 3}, {3}), binary("Minimum", "Minimum", {2, 3}, {2, 3}),
      binary("Pow", "Pow", {2, 3}, {3}, 0.5, 2),
      binary("SquaredDifference", "SquaredDifference", {2, 3}, {3}),
      {"AddN", {{{2, 3}}, {{2, 3}}},
       [](GradScope& s, const std::vector<Out>& x) {
         return s.Op("AddN", {GradInput::List({x[0], x[1], x[0]})});
       }},
      reduce("Sum", "Sum", {1}, false), reduce("SumKeepDims", "Sum", {0, 2}, true),
      reduce("Mean", "Mean", {-1}, false), reduce("Max", "Max", {1}, false),
      reduce("Min", "Min", {0, 2}, true),
      matmul("MatMul", false, false), matmul("MatMulTransposeA", true, false),
      matmul("MatMulTransposeB", false, true), matmul("MatMulTransposeAB", true, true),
      {"BatchMatMulV2", {{{2, 1, 2, 3}}, {{3, 3, 4}}},
       [](GradScope& s, const std::vector<Out>& x) { return s.Op("BatchMatMulV2", {x[0], x[1]}); }},
      {"BatchMatMulV2Adjoint", {{{2, 3, 2}}, {{2, 4, 3}}},
       [](GradScope& s, const std::vector<Out>& x) {
         return s.Op("BatchMatMulV2", {x[0], x[1]},
                     {{"adj_x", BoolAttr(true)}, {"adj_y", BoolAttr(true)}});
       }},
      {"Reshape", {{{2, 3}}},
       [](GradScope& s, const std::vector<Out>& x) { return s.Reshape(x[0], s.ConstI32({3, 2})); }},
      {"ExpandDims", {{{2, 3}}}, [](GradScope& s, const std::vector<Out>& x) { return s.ExpandDims(x[0], 1); }},
      {"Squeeze", {{{2, 1, 3}}}, [](GradScope& s, const std::vector<Out>& x) { return s.Op("Squeeze", {x[0]}); }},
      {"Transpose", {{{2, 3, 4}}},
       [](GradScope& s, const std::vector<Out>& x) { return s.Transpose(x[0], s.ConstI32({2, 0, 1})); }},
      {"ConcatV2", {{{2, 3}}, {{2, 2}}},
       [](GradScope& s, const std::vector<Out>& x) {
         return s.Op("ConcatV2", {GradInput::List({x[0], x[1]}), s.ScalarI32(-1)});
       }},
      {"Pack", {{{2, 3}}, {{2, 3}}},
       [](GradScope& s, const std::vector<Out>& x) {
         return s.Op("Pack", {GradInput::List({x[0], x[1]})}, {{"axis", IntAttr(1)}});
       }},
      {"Unpack", {{{3, 2}}},
       [](GradScope& s, const std::vector<Out>& x) {
         // Only the second output is used: the first gets ZerosLike.
         return Outs(s, "Unpack", {x[0]}, {{"num", IntAttr(3)}, {"axis", IntAttr(0)}})[1];
       }},
      {"Slice", {{{3, 4}}},
       [](GradScope& s, const std::vector<Out>& x) {
         return s.Op("Slice", {x[0], s.ConstI32({1, 1}), s.ConstI32({2, -1})});
       }},
      {"StridedSlice", {{{4, 5}}},
       [](GradScope& s, const std::vector<Out>& x) {
         return s.Op("StridedSlice", {x[0], s.ConstI32({0, 1}), s.ConstI32({4, 5}), s.ConstI32({2, 2})});
       }},
      {"GatherV2", {{{4, 3}}},
       [](GradScope& s, const std::vector<Out>& x) {
         return s.Op("GatherV2", {x[0], s.ConstI32({2, 0, 2}), s.ScalarI32(0)});
       }},
      {"GatherV2Axis1", {{{2, 4, 3}}},
       [](GradScope& s, const std::vector<Out>& x) {
         Tensor idx(DT_INT32, TensorShape({2, 2}));
         idx.flat<int32_t>()(0) = 3, idx.flat<int32_t>()(1) = 1, idx.flat<int32_t>()(2) = 3,
         idx.flat<int32_t>()(3) = 0;
         return s.Op("GatherV2", {x[0], s.Const(idx), s.ScalarI32(1)});
       }},
      {"Gather", {{{4, 2}}},
       [](GradScope& s, const std::vector<Out>& x) { return s.Op("Gather", {x[0], s.ConstI32({1, 1, 3})}); }},
      {"Tile", {{{2, 3}}},
       [](GradScope& s, const std::vector<Out>& x) { return s.Op("Tile", {x[0], s.ConstI32({2, 3})}); }},
      {"Pad", {{{2, 3}}},
       [](GradScope& s, const std::vector<Out>& x) {
         Tensor p(DT_INT32, TensorShape({2, 2}));
         for (int i = 0; i < 4; ++i) p.flat<int32_t>()(i) = i % 3;
         return s.Op("Pad", {x[0], s.Const(p)});
       }},
      {"PadV2", {{{2, 3}}},
       [](GradScope& s, const std::vector<Out>& x) {
         Tensor p(DT_INT32, TensorShape({2, 2}));
         for (int i = 0; i < 4; ++i) p.flat<int32_t>()(i) = 1;
         return s.Op("PadV2", {x[0], s.Const(p), s.ScalarOf(DT_DOUBLE, 0.5)});
       }},
      {"Cast", {{{2, 3}}},
       // Through float: a step of 1e-6 would drown in float rounding; the function is linear.
       [](GradScope& s, const std::vector<Out>& x) { return s.Cast(s.Cast(x[0], DT_FLOAT), DT_DOUBLE); },
       DT_DOUBLE, 1e-2},
      {"Select", {{{2, 3}}, {{2, 3}}},
       [](GradScope& s, const std::vector<Out>& x) {
         return s.Op("Select", {s.Op("Greater", {x[0], x[1]}), x[0], x[1]});
       }},
      {"SelectV2", {{{2, 3}}, {{3}}},
       [](GradScope& s, const std::vector<Out>& x) {
         Tensor c(DT_BOOL, TensorShape({2, 1}));
         c.flat<bool>()(0) = true, c.flat<bool>()(1) = false;
         return s.Op("SelectV2", {s.Const(c), x[0], x[1]});
       }},
      {"BroadcastTo", {{{3}}},
       [](GradScope& s, const std::vector<Out>& x) { return s.Op("BroadcastTo", {x[0], s.ConstI32({2, 3})}); }},
      {"Fill", {{{}}},
       [](GradScope& s, const std::vector<Out>& x) { return s.Op("Fill", {s.ConstI32({2, 2}), x[0]}); }},
      {"BiasAdd", {{{2, 3}}, {{3}}},
       [](GradScope& s, const std::vector<Out>& x) { return s.Op("BiasAdd", {x[0], x[1]}); }},
      {"L2Loss", {{{2, 3}}}, [](GradScope& s, const std::vector<Out>& x) { return s.Op("L2Loss", {x[0]}); }},
      {"SoftmaxCrossEntropyWithLogits", {{{2, 3}}, {{2, 3}}},
       [](GradScope& s, const std::vector<Out>& x) {
         // TensorFlow's gradient assumes each row of labels sums to 1: they come from a Softmax.
         return s.Op("SoftmaxCrossEntropyWithLogits", {x[0], s.Op("Softmax", {x[1]})});
       }},
      {"SparseSoftmaxCrossEntropyWithLogits", {{{2, 3}}},
       [](GradScope& s, const std::vector<Out>& x) {
         return s.Op("SparseSoftmaxCrossEntropyWithLogits", {x[0], s.ConstI32({2, 0})});
       }},
      {"Conv2D", {{{1, 4, 4, 2}}, {{2, 2, 2, 3}}},
       [](GradScope& s, const std::vector<Out>& x) {
         return s.Op("Conv2D", {x[0], x[1]}, {{"strides", IntList({1, 1, 2, 1})}, {"padding", Str("SAME")}});
       }},
      {"MaxPool", {{{1, 4, 4, 2}}},
       [](GradScope& s, const std::vector<Out>& x) {
         return s.Op("MaxPool", {x[0]}, {{"ksize", IntList({1, 2, 2, 1})}, {"strides", IntList({1, 2, 2, 1})},
                                          {"padding", Str("VALID")}});
       }},
      {"AvgPool", {{{1, 4, 4, 2}}},
       [](GradScope& s, const std::vector<Out>& x) {
         return s.Op("AvgPool", {x[0]}, {{"ksize", IntList({1, 2, 2, 1})}, {"strides", IntList({1, 1, 1, 1})},
                                          {"padding", Str("SAME")}});
       }},
      {"FusedBatchNormV3", {{{2, 2, 2, 3}}, {{3}, 0.5, 1.5}, {{3}}},
       [](GradScope& s, const std::vector<Out>& x) {
         Tensor empty(DT_FLOAT, TensorShape({0}));
         return s.Op("FusedBatchNormV3", {x[0], x[1], x[2], s.Const(empty), s.Const(empty)});
       },
       DT_FLOAT},
      unary("Erf", -1, 1), unary("Sinh", -1, 1), unary("Cosh", -1, 1), unary("Tan", -1, 1),
      unary("Atan", -2, 2),
      {"Cumsum", {{{2, 4}}},
       [](GradScope& s, const std::vector<Out>& x) { return s.Op("Cumsum", {x[0], s.ScalarI32(1)}); }},
      {"CumsumExclusiveReverse", {{{3, 2}}},
       [](GradScope& s, const std::vector<Out>& x) {
         return s.Op("Cumsum", {x[0], s.ScalarI32(0)},
                     {{"exclusive", BoolAttr(true)}, {"reverse", BoolAttr(true)}});
       }},
      {"BatchMatMul", {{{2, 2, 3}}, {{2, 3, 4}}},
       [](GradScope& s, const std::vector<Out>& x) {
         return s.Op("BatchMatMul", {x[0], x[1]}, {{"adj_y", BoolAttr(false)}});
       }},
      {"Concat", {{{2, 3}}, {{1, 3}}},
       [](GradScope& s, const std::vector<Out>& x) {
         return s.Op("Concat", {s.ScalarI32(0), GradInput::List({x[0], x[1]})});
       }},
      {"Split", {{{2, 6}}},
       [](GradScope& s, const std::vector<Out>& x) {
         auto parts = Outs(s, "Split", {s.ScalarI32(1), x[0]}, {{"num_split", IntAttr(3)}});
         // The middle piece is unused: its gradient is ZerosLike.
         return s.Op("ConcatV2", {GradInput::List({parts[2], parts[0]}), s.ScalarI32(0)});
       }},
      {"SplitV", {{{2, 5}}},
       [](GradScope& s, const std::vector<Out>& x) {
         auto parts = Outs(s, "SplitV", {x[0], s.ConstI32({2, -1}), s.ScalarI32(1)},
                           {{"num_split", IntAttr(2)}});
         return s.Mul(parts[1], parts[1]);
       }},
      {"ReverseV2", {{{2, 3}}},
       [](GradScope& s, const std::vector<Out>& x) { return s.Op("ReverseV2", {x[0], s.ConstI32({1})}); }},
      {"IdentityN", {{{2, 3}}, {{3}}},
       [](GradScope& s, const std::vector<Out>& x) {
         auto outs = Outs(s, "IdentityN", {GradInput::List({x[0], x[1]})});
         return s.Mul(outs[0], outs[1]);
       }},
      {"MirrorPad", {{{3, 3}}},
       [](GradScope& s, const std::vector<Out>& x) {
         Tensor p(DT_INT32, TensorShape({2, 2}));
         p.flat<int32_t>()(0) = 1, p.flat<int32_t>()(1) = 1, p.flat<int32_t>()(2) = 2,
         p.flat<int32_t>()(3) = 0;
         return s.Op("MirrorPad", {x[0], s.Const(p)}, {{"mode", Str("REFLECT")}});
       }},
      {"Conv2DBackpropInput", {{{2, 2, 2, 3}}, {{1, 2, 2, 3}}},
       [](GradScope& s, const std::vector<Out>& x) {
         return s.Op("Conv2DBackpropInput", {s.ConstI32({1, 4, 4, 2}), x[0], x[1]},
                     {{"strides", IntList({1, 2, 2, 1})}, {"padding", Str("SAME")}});
       }},
      {"DepthwiseConv2dNative", {{{1, 4, 4, 2}}, {{2, 2, 2, 2}}},
       [](GradScope& s, const std::vector<Out>& x) {
         return s.Op("DepthwiseConv2dNative", {x[0], x[1]},
                     {{"strides", IntList({1, 1, 1, 1})}, {"padding", Str("VALID")}});
       }},
      {"MaxPoolV2", {{{1, 4, 4, 2}}},
       [](GradScope& s, const std::vector<Out>& x) {
         return s.Op("MaxPoolV2", {x[0], s.ConstI32({1, 2, 2, 1}), s.ConstI32({1, 2, 2, 1})},
                     {{"padding", Str("VALID")}});
       }},
      {"ResizeBilinear", {{{1, 3, 3, 2}}},
       // ResizeBilinear's output is float whatever the images: the case runs in float.
       [](GradScope& s, const std::vector<Out>& x) { return s.Op("ResizeBilinear", {x[0], s.ConstI32({5, 4})}); },
       DT_FLOAT},
      {"ResizeNearestNeighbor", {{{1, 2, 3, 1}}},
       [](GradScope& s, const std::vector<Out>& x) {
         return s.Op("ResizeNearestNeighbor", {x[0], s.ConstI32({4, 5})});
       }},
      {"LRN", {{{1, 2, 2, 6}}},
       [](GradScope& s, const std::vector<Out>& x) { return s.Op("LRN", {x[0]}, {{"depth_radius", IntAttr(2)}}); },
       DT_FLOAT},
      {"ClipByValue", {{{2, 3}, -2, 2}, {{2, 3}, -1, 0}, {{}, 0.5, 1}},
       [](GradScope& s, const std::vector<Out>& x) { return s.Op("ClipByValue", {x[0], x[1], x[2]}); }},
      {"UnsortedSegmentSum", {{{4, 2}}},
       [](GradScope& s, const std::vector<Out>& x) {
         // Segment -1 is dropped: its row gets a zero gradient.
         return s.Op("UnsortedSegmentSum", {x[0], s.ConstI32({2, -1, 0, 2}), s.ScalarI32(3)});
       }},
      {"SegmentSum", {{{4, 2}}},
       [](GradScope& s, const std::vector<Out>& x) { return s.Op("SegmentSum", {x[0], s.ConstI32({0, 0, 1, 3})}); }},
      {"ThreeConsumers", {{{2, 3}}},
       [](GradScope& s, const std::vector<Out>& x) {
         // x * x + exp(x): the gradients of three consumers of x summed by AddN.
         return s.Op("AddN", {GradInput::List({s.Mul(x[0], x[0]), s.Op("Exp", {x[0]})})});
       }},
  };
  // TensorLists of doubles (list_grad.cc): each case makes a list from x, applies the op and
  // reads the result back as a tensor.
  const GradAttrs f64 = {{"element_dtype", TypeAttr(DT_DOUBLE)}};
  auto from = [](GradScope& s, Out x) {  // rows of x [n, 2] as a list of [2]
    return s.Op("TensorListFromTensor", {x, s.ConstI32({2})});
  };
  auto stack = [f64](GradScope& s, Out list) {
    return s.Op("TensorListStack", {list, s.ConstI32({2})}, f64);
  };
  std::vector<GradCase> lists = {
      {"TensorListFromTensor", {{{3, 2}}},
       [=](GradScope& s, const std::vector<Out>& x) { return s.Op("Square", {stack(s, from(s, x[0]))}); }},
      {"TensorListStack", {{{3, 2}}},
       [=](GradScope& s, const std::vector<Out>& x) { return s.Op("Sin", {stack(s, from(s, x[0]))}); }},
      {"TensorListGetItem", {{{3, 2}}},
       [=](GradScope& s, const std::vector<Out>& x) {
         Out list = from(s, x[0]);
         Out a = s.Op("TensorListGetItem", {list, s.ScalarI32(1), s.ConstI32({2})}, f64);
         Out b = s.Op("TensorListGetItem", {list, s.ScalarI32(2), s.ConstI32({2})}, f64);
         return s.Mul(a, b);  // two reads of one list: their list gradients summed by AddN
       }},
      {"TensorListSetItem", {{{3, 2}}, {{2}}},
       [=](GradScope& s, const std::vector<Out>& x) {
         Out list = s.Op("TensorListSetItem", {from(s, x[0]), s.ScalarI32(1), s.Op("Sin", {x[1]})},
                         f64);
         return s.Op("Square", {stack(s, list)});
       }},
      {"TensorListPushBack", {{{3, 2}}, {{2}}},
       [=](GradScope& s, const std::vector<Out>& x) {
         return s.Op("Square", {stack(s, s.Op("TensorListPushBack", {from(s, x[0]), x[1]}, f64))});
       }},
      {"TensorListPopBack", {{{3, 2}}},
       [=](GradScope& s, const std::vector<Out>& x) {
         std::vector<Out> pop = Outs(s, "TensorListPopBack", {from(s, x[0]), s.ConstI32({2})}, f64);
         Out first = s.Op("TensorListGetItem", {pop[0], s.ScalarI32(0), s.ConstI32({2})}, f64);
         return s.Mul(pop[1], first);
       }},
      {"TensorListGather", {{{3, 2}}},
       [=](GradScope& s, const std::vector<Out>& x) {
         return s.Op("Square", {s.Op("TensorListGather", {from(s, x[0]), s.ConstI32({2, 0, 2}),
                                                         s.ConstI32({2})}, f64)});
       }},
      {"TensorListScatterV2", {{{2, 2}}},
       [=](GradScope& s, const std::vector<Out>& x) {
         // Elements 0 and 2 of 4 are never set: they stack as zeros.
         Out list = s.Op("TensorListScatterV2", {x[0], s.ConstI32({3, 1}), s.ConstI32({2}),
                                                 s.ScalarI32(4)}, f64);
         return s.Op("Sin", {stack(s, list)});
       }},
      {"TensorListScatter", {{{2, 2}}},
       [=](GradScope& s, const std::vector<Out>& x) {
         Out list = s.Op("TensorListScatter", {x[0], s.ConstI32({1, 0}), s.ConstI32({2})}, f64);
         return s.Op("Sin", {stack(s, list)});
       }},
      {"TensorListScatterIntoExistingList", {{{3, 2}}, {{1, 2}}},
       [=](GradScope& s, const std::vector<Out>& x) {
         Out list = s.Op("TensorListScatterIntoExistingList",
                         {from(s, x[0]), s.Op("Cos", {x[1]}), s.ConstI32({1})}, f64);
         return s.Op("Square", {stack(s, list)});
       }},
      {"TensorListResize", {{{3, 2}}},
       [=](GradScope& s, const std::vector<Out>& x) {
         return s.Op("Square", {stack(s, s.Op("TensorListResize", {from(s, x[0]), s.ScalarI32(2)}))});
       }},
      {"TensorListSplit", {{{5, 2}}},
       [=](GradScope& s, const std::vector<Out>& x) {
         // Rows 0-1, 2 and 3-4 as three elements, read back by Concat (rows in another order).
         Tensor l(DT_INT64, TensorShape({3}));
         l.flat<int64_t>()(0) = 2, l.flat<int64_t>()(1) = 1, l.flat<int64_t>()(2) = 2;
         Out list = s.Op("TensorListSplit", {x[0], s.ConstI32({-1, 2}), s.Const(l)}, f64);
         Out last = s.Op("TensorListGetItem", {list, s.ScalarI32(2), s.ConstI32({-1, 2})}, f64);
         return s.Mul(last, last);
       }},
      {"TensorListConcat", {{{3, 2}}},
       [=](GradScope& s, const std::vector<Out>& x) {
         // Elements [1, 2] each: Concat gives [3, 2].
         Out list = s.Op("TensorListFromTensor", {s.Op("ExpandDims", {x[0], s.ScalarI32(1)}),
                                                  s.ConstI32({1, 2})});
         AttrValue shape;
         PartialTensorShape({1, 2}).AsProto(shape.mutable_shape());
         GradAttrs attrs = f64;
         attrs.push_back({"element_shape", shape});
         return s.Op("Sin", {s.Op("TensorListConcat", {list}, attrs)});
       }},
      {"TensorListConcatV2", {{{3, 2}}},
       [=](GradScope& s, const std::vector<Out>& x) {
         Out list = s.Op("TensorListFromTensor", {s.Op("ExpandDims", {x[0], s.ScalarI32(1)}),
                                                  s.ConstI32({1, 2})});
         Tensor none(DT_INT64, TensorShape({0}));
         return s.Op("Sin", {s.Op("TensorListConcatV2", {list, s.ConstI32({-1, 2}), s.Const(none)},
                                  f64)});
       }},
  };
  c.insert(c.end(), lists.begin(), lists.end());
  // v1 conditionals (control_flow_grad.cc): Merge(f(Switch(x, p):0), g(Switch(x, p):1)).
  auto v1_cond = [](const char* name, bool p) {
    return GradCase{name, {{{2, 3}}}, [p](GradScope& s, const std::vector<Out>& x) {
                      Tensor t(DT_BOOL, TensorShape({}));
                      t.flat<bool>()(0) = p;
                      std::vector<Out> sw = Outs(s, "Switch", {x[0], s.Const(t)});
                      Out on_false = s.Op("Sin", {sw[0]});
                      Out on_true = s.Op("Square", {sw[1]});
                      return s.Op("Merge", {GradInput::List({on_false, on_true})});
                    }};
  };
  c.push_back(v1_cond("Switch", true));
  c.push_back(v1_cond("Merge", false));
  // The dynamic-shape paths of the broadcasting and shape-dependent gradients.
  gradcheck::AddDynamicCases({"AddV2", "Mul", "Div", "Maximum", "Pow", "SquaredDifference", "Sum",
                              "SumKeepDims", "Mean", "Max", "ConcatV2", "Slice", "Tile", "Pad",
                              "GatherV2", "Reshape", "SelectV2", "BroadcastTo", "BatchMatMulV2"},
                             &c);
  return c;
}

class GradientCheck : public ::testing::TestWithParam<GradCase> {};

TEST_P(GradientCheck, MatchesCentralFiniteDifferences) {
  gradcheck::ExpectMatchesFiniteDifferences(GetParam(), /*seed=*/7);
}

INSTANTIATE_TEST_SUITE_P(Registered, GradientCheck, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<GradCase>& info) { return info.param.name; });

// ---- The builder's contract ------------------------------------------------------------------

absl::StatusOr<std::vector<Tensor>> RunGraph(const Graph& g,
                                             std::vector<std::pair<std::string, Tensor>> feeds,
                                             std::vector<Out> fetches,
                                             std::vector<std::string> targets = {}) {
  GraphDef def;
  g.ToGraphDef(&def);
  std::unique_ptr<Session> sess;
  SG_RETURN_IF_ERROR(NewSession(SessionOptions(), &sess));
  SG_RETURN_IF_ERROR(sess->Create(def));
  std::vector<std::string> names;
  for (Out o : fetches) names.push_back(TensorName(o));
  std::vector<Tensor> out;
  if (!targets.empty()) SG_RETURN_IF_ERROR(sess->Run(feeds, {}, targets, &out));
  SG_RETURN_IF_ERROR(sess->Run(feeds, names, {}, &out));
  return out;
}

Tensor Vec(std::vector<float> v) {
  Tensor t(DT_FLOAT, TensorShape({static_cast<int64_t>(v.size())}));
  for (size_t i = 0; i < v.size(); ++i) t.flat<float>()(i) = v[i];
  return t;
}

int NodeCount(const Graph& g) { return static_cast<int>(g.nodes().size()); }

TEST(AddSymbolicGradients, DefaultsToOnesLikeAndNamesUnderGradients) {
  Graph g;
  Out x = Placeholder(&g, "x", DT_FLOAT, {3});
  GradScope fwd(&g, "fwd");
  Out y = fwd.Mul(x, x);
  std::vector<Out> dx;
  ASSERT_TRUE(AddSymbolicGradients(&g, {y}, {x}, {}, "", &dx).ok());
  EXPECT_TRUE(absl::StartsWith(dx[0].node->name(), "gradients/")) << dx[0].node->name();
  auto out = RunGraph(g, {{"x:0", Vec({1, -2, 3})}}, {dx[0]});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_FLOAT_EQ((*out)[0].flat<float>()(1), -4);
  // A second call takes the next free prefix, as TensorFlow's C API does.
  std::vector<Out> dx2;
  ASSERT_TRUE(AddSymbolicGradients(&g, {y}, {x}, {}, "", &dx2).ok());
  EXPECT_TRUE(absl::StartsWith(dx2[0].node->name(), "gradients_1/")) << dx2[0].node->name();
  std::vector<Out> dx3;
  ASSERT_TRUE(AddSymbolicGradients(&g, {y}, {x}, {}, "mine", &dx3).ok());
  EXPECT_TRUE(absl::StartsWith(dx3[0].node->name(), "mine/")) << dx3[0].node->name();
}

TEST(AddSymbolicGradients, ExplicitPrefixInUseIsAnErrorAndAddsNothing) {
  Graph g;
  Out x = Placeholder(&g, "x", DT_FLOAT, {3});
  GradScope fwd(&g, "fwd");
  Out y = fwd.Mul(x, x);
  const int before = NodeCount(g);
  std::vector<Out> dx;
  for (const char* prefix : {"x", "fwd"}) {
    absl::Status s = AddSymbolicGradients(&g, {y}, {x}, {}, prefix, &dx);
    EXPECT_TRUE(absl::IsInvalidArgument(s)) << s;
    EXPECT_TRUE(absl::StrContains(s.message(), "conflicts with existing node")) << s;
  }
  EXPECT_EQ(NodeCount(g), before);
  EXPECT_TRUE(dx.empty());
}

TEST(AddSymbolicGradients, SumsSeveralYsAndTakesInitialGradients) {
  Graph g;
  Out x = Placeholder(&g, "x", DT_FLOAT, {2});
  GradScope fwd(&g, "fwd");
  Out y1 = fwd.Mul(x, x), y2 = fwd.Neg(x);
  Out dy1 = fwd.Const(Vec({1, 10})), dy2 = fwd.Const(Vec({2, 3}));
  std::vector<Out> dx;
  ASSERT_TRUE(AddSymbolicGradients(&g, {y1, y2}, {x}, {dy1, dy2}, "", &dx).ok());
  auto out = RunGraph(g, {{"x:0", Vec({1, 2})}}, {dx[0]});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_FLOAT_EQ((*out)[0].flat<float>()(0), 1 * 2 * 1 - 2);   // 2x*dy1 - dy2
  EXPECT_FLOAT_EQ((*out)[0].flat<float>()(1), 10 * 2 * 2 - 3);
}

TEST(AddSymbolicGradients, AYThatFeedsAnotherYGetsBothGradients) {
  // y0 = x^2 and y1 = y0^2: d(y0 + y1)/dx = 2x + 4x^3 (TensorFlow's Go test
  // TestGraphAddGradientsSums: 114 at x = 3).
  Graph g;
  Out x = Placeholder(&g, "x", DT_FLOAT, {3});
  GradScope fwd(&g, "fwd");
  Out y0 = fwd.Op("Square", {x});
  Out y1 = fwd.Op("Square", {y0});
  for (bool y1_first : {false, true}) {
    std::vector<Out> ys = y1_first ? std::vector<Out>{y1, y0} : std::vector<Out>{y0, y1};
    std::vector<Out> dx;
    ASSERT_TRUE(AddSymbolicGradients(&g, ys, {x}, {}, "", &dx).ok());
    auto out = RunGraph(g, {{"x:0", Vec({1, 2, 3})}}, {dx[0]});
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_FLOAT_EQ((*out)[0].flat<float>()(0), 2 + 4);
    EXPECT_FLOAT_EQ((*out)[0].flat<float>()(1), 4 + 32);
    EXPECT_FLOAT_EQ((*out)[0].flat<float>()(2), 6 + 108);
  }
}

TEST(AddSymbolicGradients, StopGradientAndIntegersCarryNone) {
  Graph g;
  Out x = Placeholder(&g, "x", DT_FLOAT, {2});
  GradScope fwd(&g, "fwd");
  Out y = fwd.Add(fwd.Mul(x, fwd.ScalarOf(DT_FLOAT, 3)), fwd.Op("StopGradient", {x}));
  Out through_int = fwd.Cast(fwd.Cast(x, DT_INT32), DT_FLOAT);
  std::vector<Out> dx;
  ASSERT_TRUE(AddSymbolicGradients(&g, {y}, {x}, {}, "", &dx).ok());
  auto out = RunGraph(g, {{"x:0", Vec({1, 2})}}, {dx[0]});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_FLOAT_EQ((*out)[0].flat<float>()(0), 3);
  // Only an integer path: TensorFlow's NoGradient(), {nullptr, -1}.
  std::vector<Out> none;
  ASSERT_TRUE(AddSymbolicGradients(&g, {through_int}, {x}, {}, "", &none).ok());
  EXPECT_EQ(none[0].node, nullptr);
  EXPECT_EQ(none[0].index, -1);
}

TEST(AddSymbolicGradients, AnXListedTwiceGetsItsGradientTwice) {
  Graph g;
  Out x = Placeholder(&g, "x", DT_FLOAT, {2});
  GradScope fwd(&g, "fwd");
  Out y = fwd.Mul(x, fwd.ScalarOf(DT_FLOAT, 4));
  std::vector<Out> dx;
  ASSERT_TRUE(AddSymbolicGradients(&g, {y}, {x, x}, {}, "", &dx).ok());
  ASSERT_EQ(dx.size(), 2u);
  EXPECT_EQ(dx[0].node, dx[1].node);
  EXPECT_NE(dx[0].node, nullptr);
}

TEST(AddSymbolicGradients, UnreachableXIsAnError) {
  Graph g;
  Out x = Placeholder(&g, "x", DT_FLOAT, {2});
  Out z = Placeholder(&g, "z", DT_FLOAT, {2});
  GradScope fwd(&g, "fwd");
  Out y = fwd.Neg(x);
  std::vector<Out> dx;
  absl::Status s = AddSymbolicGradients(&g, {y}, {z}, {}, "", &dx);
  EXPECT_TRUE(absl::IsInvalidArgument(s)) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), "unreachable")) << s;
}

TEST(AddSymbolicGradients, PreventGradientAndOpsWithoutGradientAreErrorsThatAddNothing) {
  Graph g;
  Out x = Placeholder(&g, "x", DT_FLOAT, {2});
  GradScope fwd(&g, "fwd");
  AttrValue msg;
  msg.set_s("no way");
  Out prevented = fwd.Op("PreventGradient", {x}, {{"message", msg}});
  Out erf = fwd.Op("SgTestNoGradient", {x});
  ASSERT_TRUE(fwd.status().ok()) << fwd.status();
  const int before = NodeCount(g);
  std::vector<Out> dx;
  absl::Status s = AddSymbolicGradients(&g, {fwd.Neg(prevented)}, {x}, {}, "", &dx);
  const int with_neg = NodeCount(g);
  EXPECT_TRUE(absl::IsInvalidArgument(s)) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), "no way")) << s;
  s = AddSymbolicGradients(&g, {erf}, {x}, {}, "", &dx);
  EXPECT_TRUE(absl::IsNotFound(s)) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), "SgTestNoGradient") &&
              absl::StrContains(s.message(), "fwd/SgTestNoGradient"))
      << s;
  EXPECT_EQ(NodeCount(g), with_neg);
  EXPECT_EQ(with_neg, before + 1);
  // No gradient flows into SgTestNoGradient here (its only path is stopped): no error.
  Out stopped = fwd.Op("StopGradient", {erf});
  ASSERT_TRUE(AddSymbolicGradients(&g, {fwd.Add(stopped, x)}, {x}, {}, "", &dx).ok());
}

TEST(AddSymbolicGradients, BadArgumentsAreErrors) {
  Graph g, other;
  Out x = Placeholder(&g, "x", DT_FLOAT, {2});
  Out stranger = Placeholder(&other, "s", DT_FLOAT, {2});
  GradScope fwd(&g, "fwd");
  Out y = fwd.Neg(x);
  std::vector<Out> dx;
  EXPECT_TRUE(absl::IsInvalidArgument(AddSymbolicGradients(&g, {}, {x}, {}, "", &dx)));
  EXPECT_TRUE(absl::IsInvalidArgument(AddSymbolicGradients(&g, {{nullptr, 0}}, {x}, {}, "", &dx)));
  EXPECT_TRUE(absl::IsInvalidArgument(AddSymbolicGradients(&g, {y}, {{x.node, 3}}, {}, "", &dx)));
  EXPECT_TRUE(absl::IsInvalidArgument(AddSymbolicGradients(&g, {y}, {stranger}, {}, "", &dx)));
  EXPECT_TRUE(absl::IsInvalidArgument(AddSymbolicGradients(&g, {y}, {x}, {y, y}, "", &dx)));
  Out int_dy = fwd.ConstI32({1, 2});
  EXPECT_TRUE(absl::IsInvalidArgument(AddSymbolicGradients(&g, {y}, {x}, {int_dy}, "", &dx)));
  EXPECT_TRUE(absl::IsInvalidArgument(AddSymbolicGradients(nullptr, {y}, {x}, {}, "", &dx)));
  EXPECT_TRUE(dx.empty());
}

TEST(AddSymbolicGradients, ResourceVariableGetsItsValuesGradient) {
  Graph g;
  GradScope fwd(&g, "fwd");
  AttrValue dtype, shape;
  dtype.set_type(DT_FLOAT);
  PartialTensorShape({2}).AsProto(shape.mutable_shape());
  Out handle = fwd.Op("VarHandleOp", {}, {{"dtype", dtype}, {"shape", shape}});
  fwd.OpN("AssignVariableOp", {handle, fwd.Const(Vec({3, -1}))});  // no outputs
  Out value = fwd.Op("ReadVariableOp", {handle}, {{"dtype", dtype}});
  // Square: ReadVariableOp's shape is not inferred, and Mul's gradient would then need the
  // BroadcastGradientArgs kernel.
  Out y = fwd.Op("Square", {value});
  ASSERT_TRUE(fwd.status().ok()) << fwd.status();
  std::vector<Out> dx;
  absl::Status s = AddSymbolicGradients(&g, {y}, {handle}, {}, "", &dx);
  ASSERT_TRUE(s.ok()) << s;
  auto out = RunGraph(g, {}, {dx[0]}, {"fwd/AssignVariableOp"});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_FLOAT_EQ((*out)[0].flat<float>()(0), 6);
  EXPECT_FLOAT_EQ((*out)[0].flat<float>()(1), -2);
}

TEST(AddSymbolicGradients, RefVariableGetsTheGradientOfItsIdentity) {
  Graph g;
  GradScope fwd(&g, "fwd");
  AttrValue dtype, shape;
  dtype.set_type(DT_FLOAT);
  PartialTensorShape({2}).AsProto(shape.mutable_shape());
  Out var = fwd.Op("VariableV2", {}, {{"dtype", dtype}, {"shape", shape}});
  fwd.Op("Assign", {var, fwd.Const(Vec({3, -1}))});
  Out y = fwd.Mul(fwd.Op("Identity", {var}), fwd.ScalarOf(DT_FLOAT, 5));
  ASSERT_TRUE(fwd.status().ok()) << fwd.status();
  std::vector<Out> dx;
  absl::Status s = AddSymbolicGradients(&g, {y}, {var}, {}, "", &dx);
  ASSERT_TRUE(s.ok()) << s;
  auto out = RunGraph(g, {}, {dx[0]}, {"fwd/Assign"});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_FLOAT_EQ((*out)[0].flat<float>()(0), 5);
  EXPECT_FLOAT_EQ((*out)[0].flat<float>()(1), 5);
}

// Every registered gradient function has a finite-difference case above (named after its op),
// except those the builder tests check: PreventGradient (an error) and ReadVariableOp, the calls,
// conditionals and loops control_flow_gradients_test.cc checks, and those gradients_more_test.cc
// checks (gradients_more_ops.h).
TEST(GradRegistry, NoOpIsRegisteredTwice) {
  // Register keeps the first function and reports the second: two families claiming one op.
  EXPECT_TRUE(GradRegistry::Global()->Duplicates().empty())
      << absl::StrJoin(GradRegistry::Global()->Duplicates(), ", ");
  GradRegistry registry;
  EXPECT_TRUE(registry.Register("SgTestTwice", GradFunc()));
  EXPECT_FALSE(registry.Register("SgTestTwice", GradFunc()));
  EXPECT_EQ(registry.Duplicates(), std::vector<std::string>{"SgTestTwice"});
}

TEST(GradRegistry, EveryGradientFunctionHasAFiniteDifferenceCase) {
  std::set<std::string> covered = {"PreventGradient", "ReadVariableOp"};
  // Calls and conditionals: finite-difference cases in control_flow_gradients_test.cc.
  covered.insert({"PartitionedCall", "StatefulPartitionedCall", "If", "StatelessIf", "Case",
                  "StatelessCase", "While", "StatelessWhile"});
  covered.insert(MoreGradientOps().begin(), MoreGradientOps().end());  // gradients_more_test
  for (const GradCase& c : Cases()) {
    for (const std::string& op : GradRegistry::Global()->ListOps()) {
      if (absl::StartsWith(c.name, op)) covered.insert(op);
    }
  }
  for (const std::string& op : GradRegistry::Global()->ListOps()) {
    const GradFunc* fn = GradRegistry::Global()->Lookup(op);
    if (fn != nullptr && *fn) EXPECT_TRUE(covered.count(op)) << op << " has no case";
  }
}

}  // namespace
}  // namespace sg
