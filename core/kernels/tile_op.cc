// Tile (repeat along each dim) and BroadcastTo (numpy broadcasting to a given shape). Both read
// the input through a view with zero strides on the repeated dims. TileGrad sums the tiles back.
#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"
#include "core/kernels/cwise_ops_common.h"

namespace sg {

namespace {

class TileOp final : public OpKernel {
 public:
  explicit TileOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    const Tensor& mult_t = ctx->input(1);
    const int rank = in.dims();
    OP_REQUIRES(ctx, mult_t.dims() == 1 && mult_t.NumElements() == rank,
                NodeError(ctx, "Expected multiples argument to be a vector of length ", rank,
                          " but got length ", mult_t.NumElements()));
    const auto mult = IntValues(mult_t);
    std::vector<int64_t> out_dims(rank);
    for (int d = 0; d < rank; ++d) {
      OP_REQUIRES(ctx, mult[d] >= 0,
                  NodeError(ctx, "Expected multiples[", d, "] >= 0, but got ", mult[d]));
      OP_REQUIRES(ctx, MultiplySizes(in.dim_size(d), mult[d], &out_dims[d]),
                  NodeError(ctx, "Tiled output dim ", d, " is too large"));
    }
    auto out_shape = TensorShape::Build(out_dims);
    OP_REQUIRES(ctx, out_shape.ok(), NodeError(ctx, out_shape.status().message()));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, *out_shape, &out));
    // The output as a [m0, d0, m1, d1, ...] view of the input with zero strides on the m's.
    const DimVector in_strides = RowMajorStrides(in.shape().dim_sizes());
    DimVector view, src;
    for (int d = 0; d < rank; ++d) {
      view.push_back(mult[d]);
      src.push_back(0);
      view.push_back(in.dim_size(d));
      src.push_back(in_strides[d]);
    }
    CopyStrided(&ctx->eigen_cpu_device(), in.dtype(), view, in.raw_data(), 0, src,
                out->raw_data(), 0, RowMajorStrides(view));
  }
};
REGISTER_KERNEL_BUILDER(Name("Tile").Device(DEVICE_CPU), TileOp);

// The dtypes TensorFlow's TileGrad kernel sums (others fail UNIMPLEMENTED, as there).
using TileGradTypes =
    TypeList<float, double, half, bfloat16, int16_t, int32_t, int64_t, complex64, complex128>;

// TileGrad: input [d0 * m0, d1 * m1, ...] to output [d0, d1, ...], each element the sum of its
// m0 * m1 * ... copies, in T, tiles taken with dim 0's index changing fastest (TensorFlow's
// order). A scalar or an all-ones `multiples` passes the input through (any dtype).
// Note: TensorFlow 2.21 registers its TileGrad kernels under an attr the op does not have, so
// it cannot run this op at all; sg runs it with the semantics of that kernel.
class TileGradOp final : public OpKernel {
 public:
  explicit TileGradOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    const Tensor& mult_t = ctx->input(1);
    OP_REQUIRES(ctx, mult_t.dims() <= 1,
                NodeError(ctx, "Expected multiples to be 1-D, but got shape ",
                          mult_t.shape().DebugString()));
    const int rank = in.dims();
    OP_REQUIRES(ctx, mult_t.NumElements() == rank,
                NodeError(ctx, "Expected multiples argument to be a vector of length ", rank,
                          " but got length ", mult_t.NumElements()));
    if (rank == 0) {
      ctx->set_output(0, in);
      return;
    }
    const auto mult = IntValues(mult_t);
    DimVector out_dims(rank);
    for (int d = 0; d < rank; ++d) {
      OP_REQUIRES(ctx, mult[d] > 0,
                  NodeError(ctx, "Expected multiples[", d, "] > 0, but got ", mult[d]));
      OP_REQUIRES(ctx, in.dim_size(d) % mult[d] == 0,
                  NodeError(ctx, "Expected input_dim[", d, "] to be divisible by multiples[",
                            d, "], but ", in.dim_size(d), " % ", mult[d], " != 0"));
      out_dims[d] = in.dim_size(d) / mult[d];
    }
    const TensorShape out_shape{absl::MakeConstSpan(out_dims)};
    if (out_shape == in.shape()) {
      ctx->set_output(0, in);
      return;
    }
    OP_REQUIRES(ctx, rank <= 7 && DispatchTypes(TileGradTypes(), in.dtype(), [](auto) {}),
                errors::Unimplemented("TileGradientOp : The input data type or dimension is "
                                      "not supported, DataType : ",
                                      DataTypeString(in.dtype()), ", Dimension : ", rank,
                                      " (node '", name(), "')"));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &out));
    if (out->NumElements() == 0) return;
    DispatchTypes(TileGradTypes(), in.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const DimVector in_strides = RowMajorStrides(in.shape().dim_sizes());
      const DimVector out_strides = RowMajorStrides(out_dims);
      const T* src = in.data<T>();
      T* dst = out->data<T>();
      const int64_t n = out->NumElements();
      DimVector tile(rank, 0);  // which copy, per dim; dim 0 changes fastest
      for (bool first = true;; first = false) {
        int64_t base = 0;
        for (int d = 0; d < rank; ++d) base += tile[d] * out_dims[d] * in_strides[d];
        for (int64_t i = 0; i < n; ++i) {
          int64_t at = base, rest = i;
          for (int d = 0; d < rank; ++d) {
            at += rest / out_strides[d] * in_strides[d];
            rest %= out_strides[d];
          }
          dst[i] = first ? src[at] : static_cast<T>(dst[i] + src[at]);
        }
        int d = 0;
        while (d < rank && tile[d] == mult[d] - 1) tile[d++] = 0;
        if (d == rank) break;
        ++tile[d];
      }
    });
  }
};
REGISTER_KERNEL_BUILDER(Name("TileGrad").Device(DEVICE_CPU), TileGradOp);

class BroadcastToOp final : public OpKernel {
 public:
  explicit BroadcastToOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    TensorShape out_shape;
    OP_REQUIRES_OK(ctx, ShapeFromIntVector(ctx, ctx->input(1), &out_shape));
    const int rank = out_shape.dims();
    OP_REQUIRES(ctx, in.dims() <= rank,
                NodeError(ctx, "Rank of input (", in.dims(),
                          ") must be no greater than rank of output shape (", rank, ")."));
    const int off = rank - in.dims();
    const DimVector in_strides = RowMajorStrides(in.shape().dim_sizes());
    DimVector src(rank, 0);
    for (int d = 0; d < in.dims(); ++d) {
      const int64_t a = in.dim_size(d), b = out_shape.dim_size(d + off);
      OP_REQUIRES(ctx, a == b || a == 1,
                  NodeError(ctx, "Unable to broadcast tensor of shape ", in.shape().DebugString(),
                            " to tensor of shape ", out_shape.DebugString()));
      src[d + off] = a == 1 ? 0 : in_strides[d];
    }
    if (out_shape == in.shape()) {
      ctx->set_output(0, in);
      return;
    }
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &out));
    CopyStrided(&ctx->eigen_cpu_device(), in.dtype(), out_shape.dim_sizes(), in.raw_data(), 0,
                src, out->raw_data(), 0, RowMajorStrides(out_shape.dim_sizes()));
  }
};
REGISTER_KERNEL_BUILDER(Name("BroadcastTo").Device(DEVICE_CPU), BroadcastToOp);

}  // namespace
}  // namespace sg
