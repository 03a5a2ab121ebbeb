// Reshape, Squeeze and ExpandDims: the output shares the input's buffer under a new shape.
#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"

namespace sg {
namespace {

void SetReshaped(OpKernelContext* ctx, const Tensor& in, const TensorShape& shape) {
  Tensor out;
  if (!out.CopyFrom(in, shape)) {
    ctx->CtxFailure(NodeError(ctx, "cannot view ", in.shape().DebugString(), " as ",
                              shape.DebugString()));
    return;
  }
  ctx->set_output(0, out);
}

class ReshapeOp : public OpKernel {
 public:
  explicit ReshapeOp(OpKernelConstruction* ctx) : OpKernel(ctx) { set_expensive(false); }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    const Tensor& sizes = ctx->input(1);
    OP_REQUIRES(ctx, sizes.dims() == 1,
                NodeError(ctx, "sizes input must be 1-D, not ", sizes.shape().DebugString()));
    const auto dims = IntValues(sizes);
    // Product of the given sizes, leaving out zeros when a -1 must be inferred from them.
    bool has_zero = false;
    int unknown = -1;
    for (size_t i = 0; i < dims.size(); ++i) {
      if (dims[i] == -1) {
        OP_REQUIRES(ctx, unknown < 0,
                    NodeError(ctx, "Only one input size may be -1, not both ", unknown, " and ",
                              i));
        unknown = static_cast<int>(i);
      } else {
        OP_REQUIRES(ctx, dims[i] >= 0,
                    NodeError(ctx, "Size ", i, " must be non-negative, not ", dims[i]));
        has_zero |= dims[i] == 0;
      }
    }
    int64_t product = 1;
    for (size_t i = 0; i < dims.size(); ++i) {
      if (static_cast<int>(i) == unknown || (unknown >= 0 && dims[i] == 0)) continue;
      OP_REQUIRES(ctx, MultiplySizes(product, dims[i], &product),
                  NodeError(ctx, "Requested shape ", sizes.SummarizeValue(10),
                            " has more than 2^62 elements"));
    }
    std::vector<int64_t> out_dims(dims.begin(), dims.end());
    if (unknown >= 0) {
      int64_t n = 1;
      for (int d = 0; d < in.dims(); ++d) {
        if (in.dim_size(d) > 0 || !has_zero) n *= in.dim_size(d);
      }
      const int64_t missing = product == 0 ? 0 : n / product;
      OP_REQUIRES(ctx, product != 0 && product * missing == n,
                  NodeError(ctx, "Input to reshape is a tensor with ", in.NumElements(),
                            " values, but the requested shape requires a multiple of ",
                            product));
      out_dims[unknown] = missing;
    }
    auto shape = TensorShape::Build(out_dims);
    OP_REQUIRES(ctx, shape.ok(), NodeError(ctx, shape.status().message()));
    OP_REQUIRES(ctx, shape->num_elements() == in.NumElements(),
                NodeError(ctx, "Input to reshape is a tensor with ", in.NumElements(),
                          " values, but the requested shape has ", shape->num_elements()));
    SetReshaped(ctx, in, *shape);
  }
};
REGISTER_KERNEL_BUILDER(Name("Reshape").Device(DEVICE_CPU), ReshapeOp);

// Reshape of a quantized tensor: its float range (inputs 2 and 3) passes through.
class QuantizedReshapeOp final : public ReshapeOp {
 public:
  using ReshapeOp::ReshapeOp;

  void Compute(OpKernelContext* ctx) override {
    for (int i = 2; i <= 3; ++i) {
      OP_REQUIRES(ctx, ctx->input(i).dims() == 0,
                  NodeError(ctx, i == 2 ? "input_min" : "input_max", " must be a scalar, not ",
                            ctx->input(i).shape().DebugString()));
    }
    ReshapeOp::Compute(ctx);
    if (!ctx->status().ok()) return;
    ctx->set_output(1, ctx->input(2));
    ctx->set_output(2, ctx->input(3));
  }
};
REGISTER_KERNEL_BUILDER(Name("QuantizedReshape").Device(DEVICE_CPU), QuantizedReshapeOp);

class SqueezeOp final : public OpKernel {
 public:
  explicit SqueezeOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    set_expensive(false);
    OP_REQUIRES_OK(ctx, ctx->GetAttr("squeeze_dims", &squeeze_dims_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    const int rank = in.dims();
    std::vector<bool> squeeze(rank, false);
    for (int64_t d : squeeze_dims_) {
      OP_REQUIRES(ctx, d >= -rank && d < rank,
                  NodeError(ctx, "Tried to squeeze dim index ", d, " for tensor with ", rank,
                            " dimensions."));
      squeeze[d < 0 ? d + rank : d] = true;
    }
    std::vector<int64_t> out;
    for (int d = 0; d < rank; ++d) {
      const int64_t size = in.dim_size(d);
      if (squeeze_dims_.empty() ? size == 1 : squeeze[d]) {
        OP_REQUIRES(ctx, size == 1,
                    NodeError(ctx, "Can not squeeze dim[", d,
                              "], expected a dimension of 1, got ", size));
        continue;
      }
      out.push_back(size);
    }
    SetReshaped(ctx, in, TensorShape(out));
  }

 private:
  std::vector<int64_t> squeeze_dims_;
};
REGISTER_KERNEL_BUILDER(Name("Squeeze").Device(DEVICE_CPU), SqueezeOp);

class ExpandDimsOp final : public OpKernel {
 public:
  explicit ExpandDimsOp(OpKernelConstruction* ctx) : OpKernel(ctx) { set_expensive(false); }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    const Tensor& dim_t = ctx->input(1);
    OP_REQUIRES(ctx, dim_t.NumElements() == 1,
                NodeError(ctx, "'dim' must be a tensor with a single value, got ",
                          dim_t.shape().DebugString()));
    int64_t dim = IntValues(dim_t)[0];
    const int rank = in.dims();
    OP_REQUIRES(ctx, dim >= -1 - rank && dim <= rank,
                NodeError(ctx, "Tried to expand dim index ", dim, " for tensor with ", rank,
                          " dimensions."));
    if (dim < 0) dim += rank + 1;
    TensorShape shape = in.shape();
    shape.InsertDim(static_cast<int>(dim), 1);
    SetReshaped(ctx, in, shape);
  }
};
REGISTER_KERNEL_BUILDER(Name("ExpandDims").Device(DEVICE_CPU), ExpandDimsOp);

}  // namespace
}  // namespace sg
