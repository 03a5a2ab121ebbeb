// Transpose (perm as an int32/int64 input), ConjugateTranspose (the same, then each complex
// element conjugated) and InvertPermutation.
#include <complex>

#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"

namespace sg {
namespace {

// Conjugates the complex elements of `t` in place; other dtypes are left as they are.
void ConjugateInPlace(Tensor* t) {
  auto conj = [t](auto tag) {
    using C = decltype(tag);
    C* p = t->data<C>();
    for (int64_t i = 0; i < t->NumElements(); ++i) p[i] = std::conj(p[i]);
  };
  if (t->dtype() == DT_COMPLEX64) conj(complex64{});
  if (t->dtype() == DT_COMPLEX128) conj(complex128{});
}

class TransposeOp final : public OpKernel {
 public:
  explicit TransposeOp(OpKernelConstruction* ctx)
      : OpKernel(ctx), conjugate_(type_string() == "ConjugateTranspose") {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    const Tensor& perm_t = ctx->input(1);
    OP_REQUIRES(ctx, perm_t.dims() == 1,
                NodeError(ctx, "perm must be a vector, not ", perm_t.shape().DebugString()));
    const int rank = in.dims();
    OP_REQUIRES(ctx, perm_t.NumElements() == rank,
                NodeError(ctx, "transpose expects a vector of size ", rank,
                          ". But input(1) is a vector of size ", perm_t.NumElements()));
    auto perm = IntValues(perm_t);
    std::vector<bool> seen(rank, false);
    for (int i = 0; i < rank; ++i) {
      OP_REQUIRES(ctx, perm[i] >= 0 && perm[i] < rank,
                  NodeError(ctx, perm[i], " is out of range [0 .. ", rank, ")"));
      OP_REQUIRES(ctx, !seen[perm[i]],
                  NodeError(ctx, perm[i], " is duplicated in perm ", perm_t.SummarizeValue(10)));
      seen[perm[i]] = true;
    }
    const DimVector in_strides = RowMajorStrides(in.shape().dim_sizes());
    DimVector out_dims(rank), src_strides(rank);
    for (int i = 0; i < rank; ++i) {
      out_dims[i] = in.dim_size(static_cast<int>(perm[i]));
      src_strides[i] = in_strides[perm[i]];
    }
    const TensorShape out_shape(absl::MakeConstSpan(out_dims));
    bool identity = true;
    for (int i = 0; i < rank; ++i) identity &= perm[i] == i;
    const bool complex = in.dtype() == DT_COMPLEX64 || in.dtype() == DT_COMPLEX128;
    if (identity && !(conjugate_ && complex)) {
      ctx->set_output(0, in);
      return;
    }
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &out));
    CopyStrided(&ctx->eigen_cpu_device(), in.dtype(), out_dims, in.raw_data(), 0, src_strides,
                out->raw_data(), 0, RowMajorStrides(out_dims));
    if (conjugate_) ConjugateInPlace(out);
  }

 private:
  const bool conjugate_;
};
REGISTER_KERNEL_BUILDER(Name("Transpose").Device(DEVICE_CPU), TransposeOp);
REGISTER_KERNEL_BUILDER(Name("ConjugateTranspose").Device(DEVICE_CPU), TransposeOp);

class InvertPermutationOp final : public OpKernel {
 public:
  explicit InvertPermutationOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    OP_REQUIRES(ctx, in.dims() == 1,
                NodeError(ctx, "invert_permutation expects a 1D vector, got ",
                          in.shape().DebugString()));
    const int64_t n = in.NumElements();
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, in.shape(), &out));
    const auto v = IntValues(in);
    std::vector<int64_t> inv(n, -1);
    for (int64_t i = 0; i < n; ++i) {
      OP_REQUIRES(ctx, v[i] >= 0 && v[i] < n,
                  NodeError(ctx, v[i], " is not between 0 and ", n));
      OP_REQUIRES(ctx, inv[v[i]] == -1, NodeError(ctx, v[i], " is duplicated in the input."));
      inv[v[i]] = i;
    }
    for (int64_t i = 0; i < n; ++i) {
      if (in.dtype() == DT_INT32) {
        out->data<int32_t>()[i] = static_cast<int32_t>(inv[i]);
      } else {
        out->data<int64_t>()[i] = inv[i];
      }
    }
  }
};
REGISTER_KERNEL_BUILDER(Name("InvertPermutation").Device(DEVICE_CPU), InvertPermutationOp);

}  // namespace
}  // namespace sg
