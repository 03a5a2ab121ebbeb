// Pad (zeros), PadV2 (a given constant) and MirrorPad (REFLECT / SYMMETRIC), and MirrorPad's
// gradient MirrorPadGrad.
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"
#include "core/kernels/cwise_ops_common.h"

namespace sg {
namespace {

class PadOp final : public OpKernel {
 public:
  explicit PadOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    const std::string& op = ctx->def().op();
    has_constant_ = op == "PadV2";
    mirror_ = op == "MirrorPad";
    if (mirror_) {
      std::string mode;
      OP_REQUIRES_OK(ctx, ctx->GetAttr("mode", &mode));
      symmetric_ = mode == "SYMMETRIC";
    }
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    const Tensor& pads_t = ctx->input(1);
    const int rank = in.dims();
    OP_REQUIRES(ctx, pads_t.dims() == 2 && pads_t.dim_size(0) == rank && pads_t.dim_size(1) == 2,
                NodeError(ctx, "paddings must be a matrix of shape [", rank,
                          ", 2], got ", pads_t.shape().DebugString()));
    const auto pads = IntValues(pads_t);
    std::vector<int64_t> out_dims(rank);
    for (int d = 0; d < rank; ++d) {
      const int64_t l = pads[2 * d], r = pads[2 * d + 1], n = in.dim_size(d);
      OP_REQUIRES(ctx, l >= 0 && r >= 0,
                  NodeError(ctx, "Paddings must be non-negative: ", l, " ", r));
      if (mirror_) {
        const int64_t limit = symmetric_ ? n : n - 1;
        OP_REQUIRES(ctx, l <= limit && r <= limit,
                    NodeError(ctx, "paddings must be no greater than the dimension size",
                              symmetric_ ? "" : " minus one", ": ", l, ", ", r,
                              " greater than ", limit));
      }
      OP_REQUIRES(ctx, l <= kMaxTensorElements && r <= kMaxTensorElements - l - n,
                  NodeError(ctx, "padded dim ", d, " is too large"));
      out_dims[d] = n + l + r;
    }
    auto out_shape = TensorShape::Build(out_dims);
    OP_REQUIRES(ctx, out_shape.ok(), NodeError(ctx, out_shape.status().message()));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, *out_shape, &out));
    if (out->NumElements() == 0) return;
    const auto* device = &ctx->eigen_cpu_device();
    if (!mirror_) {
      Tensor value;
      if (has_constant_) {
        value = ctx->input(2);
        OP_REQUIRES(ctx, value.dims() == 0,
                    NodeError(ctx, "constant_values must be a scalar. Got: ",
                              value.shape().DebugString()));
      } else {
        const bool ok = DispatchAll(in.dtype(), [&](auto tag) {
          using T = decltype(tag);
          value = Tensor::Scalar<T>(T());
          if constexpr (!std::is_same_v<T, tstring>) value.data<T>()[0] = static_cast<T>(0);
        });
        OP_REQUIRES(ctx, ok, NodeError(ctx, "unsupported dtype ", DataTypeString(in.dtype())));
      }
      FillWithScalar(device, value, out);
    }
    const DimVector out_strides = RowMajorStrides(out_dims);
    int64_t interior = 0;
    for (int d = 0; d < rank; ++d) interior += pads[2 * d] * out_strides[d];
    CopyStrided(device, in.dtype(), in.shape().dim_sizes(), in.raw_data(), 0,
                RowMajorStrides(in.shape().dim_sizes()), out->raw_data(), interior, out_strides);
    if (!mirror_) return;
    // Fill the borders dim by dim: for dim d, copy one slab per padded position from its mirror
    // image, with dims before d already complete (full output extent) and later dims interior.
    for (int d = 0; d < rank; ++d) {
      const int64_t l = pads[2 * d], n = in.dim_size(d), r = pads[2 * d + 1];
      DimVector slab(rank);
      int64_t base = 0;
      for (int k = 0; k < rank; ++k) {
        if (k < d) {
          slab[k] = out_dims[k];
        } else if (k == d) {
          slab[k] = 1;
        } else {
          slab[k] = in.dim_size(k);
          base += pads[2 * k] * out_strides[k];
        }
      }
      const int64_t s = out_strides[d];
      const int64_t shift = symmetric_ ? 1 : 0;
      for (int64_t p = 0; p < l; ++p) {
        CopyStrided(device, in.dtype(), slab, out->raw_data(), base + (2 * l - shift - p) * s,
                    out_strides, out->raw_data(), base + p * s, out_strides);
      }
      for (int64_t q = 0; q < r; ++q) {
        CopyStrided(device, in.dtype(), slab, out->raw_data(),
                    base + (l + n - 2 + shift - q) * s, out_strides, out->raw_data(),
                    base + (l + n + q) * s, out_strides);
      }
    }
  }

 private:
  bool has_constant_ = false, mirror_ = false, symmetric_ = false;
};
REGISTER_KERNEL_BUILDER(Name("Pad").Device(DEVICE_CPU), PadOp);
REGISTER_KERNEL_BUILDER(Name("PadV2").Device(DEVICE_CPU), PadOp);
REGISTER_KERNEL_BUILDER(Name("MirrorPad").Device(DEVICE_CPU), PadOp);

using MirrorPadGradTypes = TypeList<float, double, half, bfloat16, int8_t, int16_t, int32_t,
                                    int64_t, uint8_t, uint16_t, uint32_t, uint64_t, complex64,
                                    complex128>;

// MirrorPadGrad, as TensorFlow's: input is a gradient of MirrorPad's output shape; each output
// element sums its own gradient and those of the padded elements that copied it. Dims are
// folded one at a time, 0 first; within a dim the value is (centre + left mirror) + right mirror,
// in T, as TensorFlow adds them.
class MirrorPadGradOp final : public OpKernel {
 public:
  explicit MirrorPadGradOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string mode;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("mode", &mode));
    symmetric_ = mode == "SYMMETRIC";
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    const Tensor& pads_t = ctx->input(1);
    const int rank = in.dims();
    OP_REQUIRES(ctx, rank <= 5,
                errors::Unimplemented("inputs rank not in [0,5]: ", rank, " (node '", name(),
                                      "', op MirrorPadGrad)"));
    OP_REQUIRES(ctx, pads_t.dims() == 2 && pads_t.dim_size(1) == 2,
                NodeError(ctx, "paddings must be a matrix with 2 columns: ",
                          pads_t.shape().DebugString()));
    OP_REQUIRES(ctx, pads_t.dim_size(0) == rank,
                NodeError(ctx, "The first dimension of paddings must be the rank of inputs",
                          pads_t.shape().DebugString(), " ", in.shape().DebugString()));
    const auto pads = IntValues(pads_t);
    DimVector out_dims(rank);
    for (int d = 0; d < rank; ++d) {
      const int64_t l = pads[2 * d], r = pads[2 * d + 1];
      OP_REQUIRES(ctx, l >= 0 && r >= 0,
                  NodeError(ctx, "Paddings must be non-negative: ", l, ", ", r));
      OP_REQUIRES(ctx, l <= in.dim_size(d) && r <= in.dim_size(d) - l,
                  NodeError(ctx, "paddings ", l, ", ", r, " exceed the input dim ",
                            in.dim_size(d)));
      const int64_t n = in.dim_size(d) - l - r;
      if (symmetric_) {
        OP_REQUIRES(ctx, l <= n && r <= n,
                    NodeError(ctx, "paddings must be no greater than the output dimension "
                              "size: ", l, ", ", r, " greater than ", n));
      } else {
        OP_REQUIRES(ctx, l < n && r < n,
                    NodeError(ctx, "paddings must be less than the output dimension size: ",
                              l, ", ", r, " not less than ", n));
      }
      out_dims[d] = n;
    }
    const TensorShape out_shape{absl::MakeConstSpan(out_dims)};
    if (out_shape == in.shape()) {
      ctx->set_output(0, in);
      return;
    }
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &out));
    const bool ok = DispatchTypes(MirrorPadGradTypes(), in.dtype(), [&](auto tag) {
      Fold<decltype(tag)>(in, pads, out);
    });
    OP_REQUIRES(ctx, ok, NodeError(ctx, "unsupported dtype ", DataTypeString(in.dtype())));
  }

 private:
  template <typename T>
  void Fold(const Tensor& in, absl::Span<const int64_t> pads, Tensor* out) const {
    const int rank = in.dims();
    DimVector dims(in.shape().dim_sizes().begin(), in.shape().dim_sizes().end());
    std::vector<T> cur(in.data<T>(), in.data<T>() + in.NumElements()), next;
    const int64_t shift = symmetric_ ? 1 : 0;
    for (int d = 0; d < rank; ++d) {
      const int64_t l = pads[2 * d], r = pads[2 * d + 1], n = out->dim_size(d);
      if (l == 0 && r == 0) continue;
      int64_t outer = 1, inner = 1;
      for (int k = 0; k < d; ++k) outer *= dims[k];
      for (int k = d + 1; k < rank; ++k) inner *= dims[k];
      const int64_t full = dims[d];
      next.assign(outer * n * inner, T());
      for (int64_t o = 0; o < outer; ++o) {
        const T* src = cur.data() + o * full * inner;
        T* dst = next.data() + o * n * inner;
        for (int64_t i = 0; i < n; ++i) {
          const int64_t p = l - shift - i;      // the left pad position mirroring i
          const int64_t q = n - 2 + shift - i;  // the right pad position mirroring i
          for (int64_t k = 0; k < inner; ++k) {
            T v = src[(l + i) * inner + k];
            if (p >= 0 && p < l) v = v + src[p * inner + k];
            if (q >= 0 && q < r) v = v + src[(l + n + q) * inner + k];
            dst[i * inner + k] = v;
          }
        }
      }
      dims[d] = n;
      cur.swap(next);
    }
    std::copy(cur.begin(), cur.end(), out->data<T>());
  }

  bool symmetric_ = false;
};
REGISTER_KERNEL_BUILDER(Name("MirrorPadGrad")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", DataTypesOf(MirrorPadGradTypes())),
                        MirrorPadGradOp);

}  // namespace
}  // namespace sg
