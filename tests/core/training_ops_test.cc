// The training ops on reference variables, kernel by kernel: what the conformance cases cannot
// show (snapshots taken before a step, a variable passed as its own slot, two steps locking the
// same variables in opposite orders) and a sparse step against a plain reference loop.
#include <gtest/gtest.h>

#include <cmath>
#include <thread>

#include "tests/core/kernel_runner.h"
#include "tests/core/ops_testutil.h"

namespace sg {
namespace {

using test::MakeTensor;
using test::RunNode;
using test::V;
using test::Values;

TensorValue MakeVariable(const std::string& name, const Tensor& init) {
  auto out = RunNode(test::NodeDefFor("VariableV2", {{"dtype", init.dtype()},
                                                     {"shape", PartialTensorShape(
                                                                   init.shape().dim_sizes())},
                                                     {"shared_name", ""}}),
                     name, {});
  EXPECT_TRUE(out.ok()) << out.status();
  TensorValue v = (*out)[0];
  NodeDef assign = test::NodeDefFor("Assign", {{"T", init.dtype()}});
  assign.add_input(name);
  assign.add_input("init");
  EXPECT_TRUE(RunNode(assign, name + "_assign", {v, V(init)}).ok());
  return v;
}

Tensor Scalar(float x) { return MakeTensor<float>({}, {x}); }

// ApplyMomentum(var, accum, lr, grad, momentum).
absl::Status Momentum(const TensorValue& var, const TensorValue& accum, float lr,
                      const Tensor& grad, float momentum, bool use_locking = false) {
  NodeDef node = test::NodeDefFor("ApplyMomentum", {{"T", DT_FLOAT}, {"use_locking", use_locking}});
  for (const char* in : {"var", "accum", "lr", "grad", "momentum"}) node.add_input(in);
  return RunNode(node, "momentum", {var, accum, V(Scalar(lr)), V(grad), V(Scalar(momentum))})
      .status();
}

TEST(TrainingOps, SnapshotTakenBeforeAStepKeepsTheOldValue) {
  TensorValue v = MakeVariable("gd_snapshot", MakeTensor<float>({2}, {1, 2}));
  Tensor snapshot = v.Get();
  NodeDef node = test::NodeDefFor("ApplyGradientDescent", {{"T", DT_FLOAT}});
  for (const char* in : {"var", "alpha", "delta"}) node.add_input(in);
  auto out = RunNode(node, "gd", {v, V(Scalar(0.5f)), V(MakeTensor<float>({2}, {2, 2}))});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].ref, v.ref);  // the ref output is the variable
  EXPECT_EQ(Values<float>(v.Get()), std::vector<float>({0, 1}));
  EXPECT_EQ(Values<float>(snapshot), std::vector<float>({1, 2}));
}

// sg's own rule: TensorFlow's result for an aliased slot depends on its copy-on-write and its
// Eigen expressions, so the conformance cases leave it out.
TEST(TrainingOps, AVariablePassedAsItsOwnSlotTakesBothUpdatesInTurn) {
  TensorValue v = MakeVariable("momentum_alias", MakeTensor<float>({3}, {1, -2, 4}));
  ASSERT_TRUE(Momentum(v, v, 0.5f, MakeTensor<float>({3}, {1, 1, -1}), 0.25f).ok());
  // accum = accum * momentum + grad, then var -= accum * lr, on the one buffer.
  std::vector<float> want;
  for (auto [x, g] : {std::pair{1.f, 1.f}, {-2.f, 1.f}, {4.f, -1.f}}) {
    x = x * 0.25f + g;
    want.push_back(x - x * 0.5f);
  }
  EXPECT_EQ(Values<float>(v.Get()), want);
}

TEST(TrainingOps, StepsLockingTheSameVariablesInOppositeOrdersDoNotDeadlock) {
  TensorValue a = MakeVariable("deadlock_a", MakeTensor<float>({4}, {0, 0, 0, 0}));
  TensorValue b = MakeVariable("deadlock_b", MakeTensor<float>({4}, {0, 0, 0, 0}));
  const Tensor grad = MakeTensor<float>({4}, {1e-3f, 1e-3f, 1e-3f, 1e-3f});
  auto run = [&](const TensorValue& var, const TensorValue& accum) {
    for (int i = 0; i < 300; ++i) {
      ASSERT_TRUE(Momentum(var, accum, 0.0f, grad, 0.0f, /*use_locking=*/true).ok());
    }
  };
  std::thread t1(run, a, b), t2(run, b, a);
  t1.join();
  t2.join();
  // lr 0 and momentum 0: each step sets accum to grad and leaves var alone.
  EXPECT_EQ(Values<float>(a.Get()), Values<float>(grad));
  EXPECT_EQ(Values<float>(b.Get()), Values<float>(grad));
}

TEST(TrainingOps, ALargeVariableTakesEveryElementsStep) {
  // Large enough for the device to shard the elements over its threads.
  constexpr int kN = 1 << 18;
  std::vector<float> init(kN), grad(kN);
  for (int i = 0; i < kN; ++i) {
    init[i] = static_cast<float>(i % 97);
    grad[i] = static_cast<float>(i % 13) - 6;
  }
  TensorValue v = MakeVariable("gd_large", MakeTensor<float>({kN}, init));
  NodeDef node = test::NodeDefFor("ApplyGradientDescent", {{"T", DT_FLOAT}});
  for (const char* in : {"var", "alpha", "delta"}) node.add_input(in);
  ASSERT_TRUE(RunNode(node, "gd", {v, V(Scalar(0.5f)), V(MakeTensor<float>({kN}, grad))}).ok());
  const std::vector<float> got = Values<float>(v.Get());
  for (int i = 0; i < kN; ++i) ASSERT_EQ(got[i], init[i] - grad[i] * 0.5f) << i;
}

TEST(TrainingOps, SparseAdagradMatchesAReferenceLoopAndRejectsABadIndex) {
  const std::vector<float> var0 = {1, 2, 3, 4, 5, 6}, accum0 = {1, 1, 2, 2, 3, 3};
  TensorValue var = MakeVariable("sparse_adagrad_var", MakeTensor<float>({3, 2}, var0));
  TensorValue accum = MakeVariable("sparse_adagrad_accum", MakeTensor<float>({3, 2}, accum0));
  const std::vector<int64_t> rows = {2, 0, 2};
  const std::vector<float> grad = {1, -1, 0.5f, 2, -3, 0.25f};
  NodeDef node = test::NodeDefFor("SparseApplyAdagrad", {{"T", DT_FLOAT}, {"Tindices", DT_INT64}});
  for (const char* in : {"var", "accum", "lr", "grad", "indices"}) node.add_input(in);
  auto run = [&](const std::vector<int64_t>& indices) {
    return RunNode(node, "adagrad",
                   {var, accum, V(Scalar(0.1f)), V(MakeTensor<float>({3, 2}, grad)),
                    V(MakeTensor<int64_t>({3}, indices))})
        .status();
  };
  ASSERT_TRUE(run(rows).ok());
  std::vector<float> want_var = var0, want_accum = accum0;
  for (size_t i = 0; i < rows.size(); ++i) {
    for (int j = 0; j < 2; ++j) {
      const float g = grad[i * 2 + j];
      float& a = want_accum[rows[i] * 2 + j];
      a += g * g;
      want_var[rows[i] * 2 + j] -= g * 0.1f * (1 / std::sqrt(a));
    }
  }
  std::vector<float> got_var = Values<float>(var.Get()), got_accum = Values<float>(accum.Get());
  for (int k = 0; k < 6; ++k) {
    EXPECT_NEAR(got_var[k], want_var[k], 1e-6) << k;
    EXPECT_FLOAT_EQ(got_accum[k], want_accum[k]) << k;
  }
  const absl::Status s = run({1, 3, 0});
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_NE(s.message().find("Index 3 at offset 1 in indices is out of range"), std::string::npos)
      << s;
  EXPECT_EQ(Values<float>(var.Get()), got_var);  // nothing written
}

}  // namespace
}  // namespace sg
