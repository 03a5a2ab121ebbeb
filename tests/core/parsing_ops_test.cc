// The sequence-example kernels size some inputs and outputs by count attrs (Ncontext_sparse ...)
// and others by type lists; a NodeDef whose two disagree is refused when the kernel is built
// (TensorFlow's graphs never hold one, so no conformance case has it).
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "core/framework/node_def_util.h"
#include "core/framework/op.h"
#include "core/framework/op_kernel.h"
#include "tests/core/ops_testutil.h"

namespace sg {
namespace {

TEST(ParseSequenceExample, RejectsCountsThatDisagreeWithTypes) {
  NodeDef node = test::NodeDefFor(
      "ParseSequenceExample",
      {{"feature_list_dense_missing_assumed_empty", std::vector<std::string>{}},
       {"context_sparse_keys", std::vector<std::string>{}},
       {"context_dense_keys", std::vector<std::string>{}},
       {"feature_list_sparse_keys", std::vector<std::string>{}},
       {"feature_list_dense_keys", std::vector<std::string>{"a"}},
       {"Nfeature_list_dense", int64_t{2}},
       {"feature_list_dense_types", std::vector<DataType>{DT_FLOAT}}},
      2);
  (*node.mutable_attr())["feature_list_dense_shapes"].mutable_list()->add_shape()->add_dim()
      ->set_size(1);
  const OpDef* op_def;
  ASSERT_TRUE(OpRegistry::Global()->LookUpOpDef(node.op(), &op_def).ok());
  auto def = std::make_shared<NodeDef>(node);
  AddDefaultsToNodeDef(*op_def, def.get());
  std::unique_ptr<OpKernel> kernel;
  absl::Status s = KernelRegistry::Global()->CreateKernel(test::TestDevice(), DEVICE_CPU, def,
                                                          op_def, &kernel);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
}

}  // namespace
}  // namespace sg
