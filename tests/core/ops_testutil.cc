#include "tests/core/ops_testutil.h"

#include "core/framework/node_def_util.h"
#include "core/framework/op.h"
#include "core/framework/shape_inference.h"

namespace sg {
namespace test {

NodeDef NodeDefFor(const std::string& op, std::vector<AttrArg> attrs, int num_inputs) {
  NodeDef node;
  node.set_name("test_node");
  node.set_op(op);
  for (auto& a : attrs) (*node.mutable_attr())[a.name] = a.value;
  for (int i = 0; i < num_inputs; ++i) node.add_input(absl::StrCat("in", i));
  return node;
}

Device* TestDevice() {
  static IntraOpThreadPool* pool = new IntraOpThreadPool(2);
  static Device* device = NewCpuDevices("localhost", 0, 1, pool)[0].release();
  return device;
}

absl::StatusOr<std::vector<Tensor>> RunKernel(const NodeDef& node_in,
                                              const std::vector<Tensor>& inputs) {
  const OpDef* op_def;
  SG_RETURN_IF_ERROR(OpRegistry::Global()->LookUpOpDef(node_in.op(), &op_def));
  auto node = std::make_shared<NodeDef>(node_in);
  AddDefaultsToNodeDef(*op_def, node.get());
  SG_RETURN_IF_ERROR(ValidateNodeDef(*node, *op_def));
  std::vector<DataType> in_types, out_types;
  SG_RETURN_IF_ERROR(InOutTypesForNode(*node, *op_def, &in_types, &out_types));
  if (in_types.size() != inputs.size()) {
    return errors::InvalidArgument("op ", node->op(), " takes ", in_types.size(),
                                   " inputs, the test gave ", inputs.size());
  }
  std::unique_ptr<OpKernel> kernel;
  SG_RETURN_IF_ERROR(KernelRegistry::Global()->CreateKernel(TestDevice(), DEVICE_CPU, node,
                                                            op_def, &kernel));
  std::vector<TensorValue> values;
  for (const Tensor& t : inputs) values.push_back(TensorValue{t});
  OpKernelContext::Params params;
  params.device = TestDevice();
  params.op_kernel = kernel.get();
  params.inputs = &values;
  params.runner = [](std::function<void()> fn) { fn(); };
  ResourceMgr step_resources;
  params.step_resources = &step_resources;
  OpKernelContext ctx(&params);
  kernel->Compute(&ctx);
  SG_RETURN_IF_ERROR(ctx.status());
  std::vector<Tensor> outputs;
  for (int i = 0; i < ctx.num_outputs(); ++i) {
    if (!ctx.has_output(i)) return errors::Internal("output ", i, " was not set");
    outputs.push_back(ctx.output_value(i).Get());
  }
  // Cross-check the shape function.
  const OpRegistrationData* reg = OpRegistry::Global()->LookUp(node->op());
  if (reg->shape_fn) {
    std::vector<PartialTensorShape> shapes;
    std::vector<const Tensor*> consts;
    for (const Tensor& t : inputs) {
      shapes.push_back(PartialTensorShape(t.shape()));
      consts.push_back(&t);
    }
    InferenceContext ic(node.get(), shapes, consts, in_types, out_types);
    SG_RETURN_IF_ERROR(reg->shape_fn(&ic));
    for (int i = 0; i < ic.num_outputs(); ++i) {
      if (!ic.output(i).IsCompatibleWith(outputs[i].shape())) {
        return errors::Internal("shape function says output ", i, " is ",
                                ic.output(i).DebugString(), " but the kernel made ",
                                outputs[i].shape().DebugString());
      }
    }
  }
  return outputs;
}

}  // namespace test
}  // namespace sg
