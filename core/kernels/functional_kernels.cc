// Kernels of the helpers that lowering functional control flow inserts (core/ops/functional_ops.cc):
// _SwitchN, which routes a value to one of N outputs (the others become dead, as Switch's untaken
// output does), and ToBool, TensorFlow's conversion of an If or While condition to a bool.
#include "core/framework/op_kernel.h"

namespace sg {
namespace {

class SwitchNOp final : public OpKernel {
 public:
  explicit SwitchNOp(OpKernelConstruction* ctx) : OpKernel(ctx) { set_expensive(false); }
  void Compute(OpKernelContext* ctx) override {
    const Tensor& index = ctx->input(1);
    OP_REQUIRES(ctx, index.dtype() == DT_INT32 && index.dims() == 0,
                errors::InvalidArgument("_SwitchN '", name(),
                                        "': output_index must be a scalar int32, got shape ",
                                        index.shape().DebugString()));
    int32_t port = index.data<int32_t>()[0];
    // As TensorFlow's Case: an index out of range takes the last output (the default branch).
    if (port < 0 || port >= ctx->num_outputs()) port = ctx->num_outputs() - 1;
    ctx->set_output(port, ctx->input(0));
  }
};
REGISTER_KERNEL_BUILDER(Name("_SwitchN").Device(DEVICE_CPU), SwitchNOp);

template <typename T>
bool AnyNonZero(const Tensor& t) {
  return t.data<T>()[0] != T(0);
}

class ToBoolOp final : public OpKernel {
 public:
  explicit ToBoolOp(OpKernelConstruction* ctx) : OpKernel(ctx) { set_expensive(false); }
  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    bool v = false;
    if (in.dims() > 0) {
      v = in.NumElements() > 0;
    } else {
      switch (in.dtype()) {
        case DT_BOOL: v = in.data<bool>()[0]; break;
        case DT_FLOAT: v = AnyNonZero<float>(in); break;
        case DT_DOUBLE: v = AnyNonZero<double>(in); break;
        case DT_HALF: v = static_cast<float>(in.data<Eigen::half>()[0]) != 0.0f; break;
        case DT_BFLOAT16: v = static_cast<float>(in.data<Eigen::bfloat16>()[0]) != 0.0f; break;
        case DT_INT8: v = AnyNonZero<int8_t>(in); break;
        case DT_UINT8: v = AnyNonZero<uint8_t>(in); break;
        case DT_INT16: v = AnyNonZero<int16_t>(in); break;
        case DT_UINT16: v = AnyNonZero<uint16_t>(in); break;
        case DT_INT32: v = AnyNonZero<int32_t>(in); break;
        case DT_UINT32: v = AnyNonZero<uint32_t>(in); break;
        case DT_INT64: v = AnyNonZero<int64_t>(in); break;
        case DT_UINT64: v = AnyNonZero<uint64_t>(in); break;
        case DT_STRING: v = !in.data<tstring>()[0].empty(); break;
        default:
          ctx->CtxFailure(errors::InvalidArgument("ToBool '", name(), "': cannot convert a ",
                                                  DataTypeString(in.dtype()),
                                                  " scalar to bool"));
          return;
      }
    }
    ctx->set_output(0, Tensor::Scalar<bool>(v));
  }
};
REGISTER_KERNEL_BUILDER(Name("ToBool").Device(DEVICE_CPU), ToBoolOp);

}  // namespace
}  // namespace sg
