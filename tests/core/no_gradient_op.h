// SgTestNoGradient: y = x (float or double; a CPU kernel forwards the input), an op with no
// gradient function, for the tests of what AddSymbolicGradients does on one. Any op of
// TensorFlow's may get a gradient in sg; this one never will. Include it in one file of a test
// program (it registers the op and its kernel).
#ifndef SG_TESTS_CORE_NO_GRADIENT_OP_H_
#define SG_TESTS_CORE_NO_GRADIENT_OP_H_

#include "core/framework/op.h"
#include "core/framework/op_kernel.h"
#include "core/framework/shape_inference.h"

namespace sg {

REGISTER_OP("SgTestNoGradient")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {float, double}")
    .SetShapeFn(shape_fns::Unchanged);

class SgTestNoGradientOp : public OpKernel {
 public:
  explicit SgTestNoGradientOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}
  void Compute(OpKernelContext* ctx) override { ctx->set_output(0, ctx->input(0)); }
};
REGISTER_KERNEL_BUILDER(Name("SgTestNoGradient").Device(DEVICE_CPU), SgTestNoGradientOp);

}  // namespace sg

#endif  // SG_TESTS_CORE_NO_GRADIENT_OP_H_
