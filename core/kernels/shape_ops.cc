// Shape, ShapeN, Size and Rank: facts about the input's shape as small int tensors.
// BroadcastArgs: the broadcast of two shapes. EnsureShape: the input, checked against a shape.
#include <algorithm>
#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"

namespace sg {
namespace {

// Writes `values` into a new int32 or int64 tensor; INVALID_ARGUMENT when a value does not fit.
absl::Status MakeIntTensor(OpKernelContext* ctx, DataType dtype, const TensorShape& shape,
                           absl::Span<const int64_t> values, Tensor* out) {
  SG_ASSIGN_OR_RETURN(*out, Tensor::Allocate(dtype, shape));
  for (size_t i = 0; i < values.size(); ++i) {
    if (dtype == DT_INT32) {
      if (values[i] > std::numeric_limits<int32_t>::max()) {
        return NodeError(ctx, "value ", values[i], " does not fit in int32; use out_type int64");
      }
      out->data<int32_t>()[i] = static_cast<int32_t>(values[i]);
    } else {
      out->data<int64_t>()[i] = values[i];
    }
  }
  return absl::OkStatus();
}

class ShapeOp final : public OpKernel {
 public:
  explicit ShapeOp(OpKernelConstruction* ctx) : OpKernel(ctx) { set_expensive(false); }
  void Compute(OpKernelContext* ctx) override {
    for (int i = 0; i < ctx->num_inputs(); ++i) {
      const TensorShape& s = ctx->input(i).shape();
      Tensor out;
      OP_REQUIRES_OK(ctx, MakeIntTensor(ctx, ctx->expected_output_dtype(i),
                                        TensorShape({s.dims()}), s.dim_sizes(), &out));
      ctx->set_output(i, out);
    }
  }
};
REGISTER_KERNEL_BUILDER(Name("Shape").Device(DEVICE_CPU), ShapeOp);
REGISTER_KERNEL_BUILDER(Name("ShapeN").Device(DEVICE_CPU), ShapeOp);

class SizeOp final : public OpKernel {
 public:
  explicit SizeOp(OpKernelConstruction* ctx) : OpKernel(ctx) { set_expensive(false); }
  void Compute(OpKernelContext* ctx) override {
    const int64_t n = ctx->input(0).NumElements();
    Tensor out;
    OP_REQUIRES_OK(ctx, MakeIntTensor(ctx, ctx->expected_output_dtype(0), TensorShape(),
                                      absl::MakeConstSpan(&n, 1), &out));
    ctx->set_output(0, out);
  }
};
REGISTER_KERNEL_BUILDER(Name("Size").Device(DEVICE_CPU), SizeOp);

class RankOp final : public OpKernel {
 public:
  explicit RankOp(OpKernelConstruction* ctx) : OpKernel(ctx) { set_expensive(false); }
  void Compute(OpKernelContext* ctx) override {
    ctx->set_output(0, Tensor::Scalar<int32_t>(ctx->input(0).dims()));
  }
};
REGISTER_KERNEL_BUILDER(Name("Rank").Device(DEVICE_CPU), RankOp);

// BroadcastArgs: the shape two shapes broadcast to (numpy's rules).
class BroadcastArgsOp final : public OpKernel {
 public:
  explicit BroadcastArgsOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}
  void Compute(OpKernelContext* ctx) override {
    const Tensor& a_t = ctx->input(0);
    const Tensor& b_t = ctx->input(1);
    for (int i = 0; i < 2; ++i) {
      OP_REQUIRES(ctx, ctx->input(i).dims() == 1,
                  NodeError(ctx, "In[", i, "] must be a vector. ",
                            ctx->input(i).shape().DebugString()));
    }
    const auto a = IntValues(a_t), b = IntValues(b_t);
    const size_t rank = std::max(a.size(), b.size());
    std::vector<int64_t> out(rank);
    auto shape_string = [](absl::Span<const int64_t> s) {
      return absl::StrCat("[", absl::StrJoin(s, ","), "]");
    };
    for (size_t i = 0; i < rank; ++i) {
      const int64_t x = i < a.size() ? a[a.size() - 1 - i] : 1;
      const int64_t y = i < b.size() ? b[b.size() - 1 - i] : 1;
      OP_REQUIRES(ctx, (x == y || x == 1 || y == 1) && x >= 0 && y >= 0,
                  NodeError(ctx, "Incompatible shapes: ", shape_string(a), " vs. ",
                            shape_string(b)));
      out[rank - 1 - i] = x == 1 ? y : x;
    }
    Tensor t;
    OP_REQUIRES_OK(ctx, MakeIntTensor(ctx, ctx->expected_output_dtype(0),
                                      TensorShape({static_cast<int64_t>(rank)}), out, &t));
    ctx->set_output(0, t);
  }
};
REGISTER_KERNEL_BUILDER(Name("BroadcastArgs").Device(DEVICE_CPU), BroadcastArgsOp);

// EnsureShape: the input, when its shape is compatible with attr shape; else INVALID_ARGUMENT.
class EnsureShapeOp final : public OpKernel {
 public:
  explicit EnsureShapeOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("shape", &shape_));
    set_expensive(false);
  }
  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    OP_REQUIRES(ctx, shape_.IsCompatibleWith(in.shape()),
                NodeError(ctx, "Shape of tensor ", name(), " ", in.shape().DebugString(),
                          " is not compatible with expected shape ", shape_.DebugString(), "."));
    ctx->set_output(0, in);
  }

 private:
  PartialTensorShape shape_;
};
REGISTER_KERNEL_BUILDER(Name("EnsureShape").Device(DEVICE_CPU), EnsureShapeOp);

}  // namespace
}  // namespace sg
