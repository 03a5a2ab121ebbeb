// Abort ends the process, so no conformance case can run it (it is in the harness's kExcluded):
// here its kernel is built from a NodeDef, never run, to show the op and kernel are registered
// and take TensorFlow's attrs. Its OpDef is checked by opdef_test.
#include <memory>

#include <gtest/gtest.h>

#include "core/framework/node_def_util.h"
#include "core/framework/op.h"
#include "core/framework/op_kernel.h"
#include "tests/core/ops_testutil.h"

namespace sg {
namespace {

absl::Status BuildKernel(const NodeDef& node_in, std::unique_ptr<OpKernel>* kernel) {
  const OpDef* op_def;
  SG_RETURN_IF_ERROR(OpRegistry::Global()->LookUpOpDef(node_in.op(), &op_def));
  auto node = std::make_shared<NodeDef>(node_in);
  AddDefaultsToNodeDef(*op_def, node.get());
  SG_RETURN_IF_ERROR(ValidateNodeDef(*node, *op_def));
  return KernelRegistry::Global()->CreateKernel(test::TestDevice(), DEVICE_CPU, node, op_def,
                                                kernel);
}

TEST(Abort, KernelIsRegisteredWithItsAttrs) {
  std::unique_ptr<OpKernel> kernel;
  ASSERT_TRUE(BuildKernel(test::NodeDefFor("Abort", {{"error_msg", std::string("bye")},
                                                      {"exit_without_error", true}}),
                          &kernel)
                  .ok());
  EXPECT_EQ(kernel->type_string(), "Abort");
  EXPECT_EQ(kernel->num_inputs(), 0);
  EXPECT_EQ(kernel->num_outputs(), 0);
}

TEST(Abort, DefaultsFillTheAttrs) {
  std::unique_ptr<OpKernel> kernel;
  ASSERT_TRUE(BuildKernel(test::NodeDefFor("Abort", {}), &kernel).ok());
  EXPECT_EQ(kernel->def().attr().at("error_msg").s(), "");
  EXPECT_FALSE(kernel->def().attr().at("exit_without_error").b());
}

TEST(PrintV2, RejectsAnUnknownStream) {
  std::unique_ptr<OpKernel> kernel;
  absl::Status s = BuildKernel(
      test::NodeDefFor("PrintV2", {{"output_stream", std::string("nowhere")}}, 1), &kernel);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
}

TEST(PrintV2, DefaultEndIsANewline) {
  std::unique_ptr<OpKernel> kernel;
  ASSERT_TRUE(BuildKernel(test::NodeDefFor("PrintV2", {}, 1), &kernel).ok());
  EXPECT_EQ(kernel->def().attr().at("end").s(), "\n");
}

}  // namespace
}  // namespace sg
