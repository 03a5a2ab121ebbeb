// MatrixInverse and BatchMatrixInverse, as TensorFlow's CPU kernel: each inner [M, M] matrix (its
// conjugate transpose with adjoint) is factored by Eigen's LU with partial pivoting and inverted
// from the factors. A matrix whose factorization has a pivot of exactly zero (or NaN) is
// INVALID_ARGUMENT "Input is not invertible."; a nearly singular one inverts to large values, as
// in TensorFlow. half is computed in float and rounded once (TensorFlow factors in half itself,
// which Debian's Eigen 3.4 cannot compile), so it can differ from TensorFlow's in the last bits.
#include <cstdint>
#include <type_traits>

#include "Eigen/LU"
#include "core/framework/op_kernel.h"
#include "core/kernels/cwise_ops_common.h"

namespace sg {
namespace {

using InverseTypes = TypeList<float, double, half, complex64, complex128>;

// T is the tensor's element type, C the type the factorization computes in.
template <typename T, typename C = T>
absl::Status InvertAll(const OpKernel& k, const Tensor& in, bool adjoint, int64_t m,
                       Tensor* out) {
  using Matrix = Eigen::Matrix<C, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using TMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using Real = typename Eigen::NumTraits<C>::Real;
  int64_t count = 1;  // the batch dims' product (m * m could overflow when a batch dim is 0)
  for (int d = 0; d + 2 < in.dims(); ++d) count *= in.dim_size(d);
  if (m == 0) count = 0;
  for (int64_t b = 0; b < count; ++b) {
    Eigen::Map<const TMatrix> a(in.data<T>() + b * m * m, m, m);
    Eigen::Map<TMatrix> o(out->data<T>() + b * m * m, m, m);
    const Matrix x = a.template cast<C>();
    Eigen::PartialPivLU<Matrix> lu = adjoint ? Eigen::PartialPivLU<Matrix>(x.adjoint())
                                             : Eigen::PartialPivLU<Matrix>(x);
    const Real min_pivot = lu.matrixLU().diagonal().cwiseAbs().minCoeff();
    if (!(min_pivot > Real(0))) return KernelError(k, "Input is not invertible.");
    o = lu.inverse().template cast<T>();
  }
  return absl::OkStatus();
}

class MatrixInverseOp final : public OpKernel {
 public:
  explicit MatrixInverseOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("adjoint", &adjoint_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    OP_REQUIRES(ctx, in.dims() >= 2,
                KernelError(*this, "Input tensor 0 must have rank >= 2, got shape ",
                            in.shape().DebugString()));
    const int64_t m = in.dim_size(in.dims() - 1);
    OP_REQUIRES(ctx, in.dim_size(in.dims() - 2) == m,
                KernelError(*this, "Input matrices must be squares, got shape ",
                            in.shape().DebugString()));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, in.shape(), &out));
    absl::Status s;
    const bool ok = DispatchTypes(InverseTypes(), in.dtype(), [&](auto tag) {
      using T = decltype(tag);
      s = InvertAll<T, std::conditional_t<std::is_same_v<T, half>, float, T>>(*this, in,
                                                                              adjoint_, m, out);
    });
    OP_REQUIRES(ctx, ok, UnsupportedType(*this, in.dtype()));
    OP_REQUIRES_OK(ctx, s);
  }

 private:
  bool adjoint_;
};
REGISTER_KERNEL_BUILDER(Name("MatrixInverse")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", DataTypesOf(InverseTypes())),
                        MatrixInverseOp);
REGISTER_KERNEL_BUILDER(Name("BatchMatrixInverse")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", DataTypesOf(InverseTypes())),
                        MatrixInverseOp);

}  // namespace
}  // namespace sg
