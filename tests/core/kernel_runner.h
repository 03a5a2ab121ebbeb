// Test helper for stateful kernels: runs one node's kernel on TensorValue inputs (so reference
// inputs can be passed), on test::TestDevice() (so variables persist across calls), with a
// caller-owned step ResourceMgr (so TensorArrays persist across the ops of one "step").
// Unlike test::RunKernel it keeps reference outputs as references.
#ifndef SG_TESTS_CORE_KERNEL_RUNNER_H_
#define SG_TESTS_CORE_KERNEL_RUNNER_H_

#include <memory>
#include <string>
#include <vector>

#include "core/framework/node_def_util.h"
#include "core/framework/op.h"
#include "core/framework/op_kernel.h"
#include "tests/core/ops_testutil.h"

namespace sg {
namespace test {

// Runs `node` (named `name`, defaults added) on `inputs`; `step` may be null.
inline absl::StatusOr<std::vector<TensorValue>> RunNode(NodeDef node, const std::string& name,
                                                        std::vector<TensorValue> inputs,
                                                        ResourceMgr* step = nullptr) {
  node.set_name(name);
  const OpDef* op_def;
  SG_RETURN_IF_ERROR(OpRegistry::Global()->LookUpOpDef(node.op(), &op_def));
  auto def = std::make_shared<NodeDef>(std::move(node));
  AddDefaultsToNodeDef(*op_def, def.get());
  SG_RETURN_IF_ERROR(ValidateNodeDef(*def, *op_def));
  std::vector<DataType> in_types, out_types;
  SG_RETURN_IF_ERROR(InOutTypesForNode(*def, *op_def, &in_types, &out_types));
  if (in_types.size() != inputs.size()) {
    return errors::InvalidArgument("op ", def->op(), " takes ", in_types.size(), " inputs, got ",
                                   inputs.size());
  }
  // As the executor does: a value input fed from a reference gets a snapshot, and reading an
  // uninitialized variable that way fails.
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!IsRefType(in_types[i]) && inputs[i].is_ref()) {
      Tensor snap = inputs[i].Get();
      if (!snap.IsInitialized()) {
        return errors::FailedPrecondition("Attempting to use uninitialized value (input ", i,
                                          ")");
      }
      inputs[i] = TensorValue{snap};
    }
  }
  std::unique_ptr<OpKernel> kernel;
  SG_RETURN_IF_ERROR(
      KernelRegistry::Global()->CreateKernel(TestDevice(), DEVICE_CPU, def, op_def, &kernel));
  ResourceMgr local_step;
  OpKernelContext::Params params;
  params.device = TestDevice();
  params.op_kernel = kernel.get();
  params.inputs = &inputs;
  params.runner = [](std::function<void()> fn) { fn(); };
  params.step_resources = step != nullptr ? step : &local_step;
  OpKernelContext ctx(&params);
  kernel->Compute(&ctx);
  SG_RETURN_IF_ERROR(ctx.status());
  std::vector<TensorValue> outputs;
  for (int i = 0; i < ctx.num_outputs(); ++i) {
    if (!ctx.has_output(i)) return errors::Internal("output ", i, " was not set");
    outputs.push_back(ctx.output_value(i));
  }
  return outputs;
}

// A value input.
inline TensorValue V(const Tensor& t) { return TensorValue{t}; }

}  // namespace test
}  // namespace sg

#endif  // SG_TESTS_CORE_KERNEL_RUNNER_H_
