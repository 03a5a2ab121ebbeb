// Kernels of the FFT family (ops in core/ops/spectral_ops.cc). A rank-r transform is r passes of
// 1-D transforms, one per axis. The 1-D transforms are KISS FFT's C++ template class (kissfft.hh
// from Debian's libkissfft-dev, BSD-3-Clause): a mixed-radix FFT for any length (radix 2, 3, 4, 5
// butterflies, a generic one for other primes), header only, so float and double both work
// although Debian builds the C library for float alone. TensorFlow's conventions:
//   * inverse transforms are scaled by 1 / (product of the transformed lengths);
//   * RFFT crops the input's inner dims to fft_length, IRFFT to fft_length with the last one
//     fft_length[-1] / 2 + 1; a shorter input dim is an error (the op does not zero-pad);
//   * IRFFT reads the half spectrum as Hermitian: the imaginary parts of the zero-frequency and
//     (even lengths) Nyquist terms of the last axis are ignored.
#include <kissfft.hh>

#include <cmath>
#include <complex>
#include <memory>
#include <vector>

#include "absl/strings/match.h"
#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"
#include "core/kernels/parallel_for.h"

namespace sg {
namespace {

// Transforms lines of one length and direction in place. KISS FFT writes out of place and reads
// with a stride, so a line is read where it lies and written back from `line_`. Not thread safe
// (the generic butterfly keeps scratch in the plan): one per thread.
template <typename R>
class LinePlan {
 public:
  LinePlan(int64_t n, bool inverse) : n_(n), fft_(static_cast<size_t>(n), inverse), line_(n) {}

  void Run(std::complex<R>* data, int64_t stride) {
    fft_.transform(data, line_.data(), 0, 1, static_cast<size_t>(stride));
    for (int64_t i = 0; i < n_; ++i) data[i * stride] = line_[i];
  }

 private:
  const int64_t n_;
  kissfft<R> fft_;
  std::vector<std::complex<R>> line_;
};

// Transforms a dense row-major block of shape `dims` along each of its first `naxes` axes.
template <typename R>
void TransformAxes(std::complex<R>* block, const std::vector<int64_t>& dims, int naxes,
                   bool inverse) {
  int64_t total = 1;
  for (int64_t d : dims) total *= d;
  if (total == 0) return;
  for (int a = 0; a < naxes; ++a) {
    const int64_t n = dims[a];
    if (n == 1) continue;
    int64_t stride = 1;
    for (size_t j = a + 1; j < dims.size(); ++j) stride *= dims[j];
    LinePlan<R> plan(n, inverse);
    for (int64_t outer = 0; outer < total / (n * stride); ++outer) {
      std::complex<R>* base = block + outer * n * stride;
      for (int64_t s = 0; s < stride; ++s) plan.Run(base + s, stride);
    }
  }
}

// Offset, in a row-major block of shape `from`, of row `r` of the leading dims of `within`
// (each no larger than `from`'s): how the inner rows of a cropped input are found.
int64_t RowOffset(int64_t r, const std::vector<int64_t>& within,
                  const std::vector<int64_t>& from) {
  int64_t offset = 0, stride = from.back();
  for (int i = static_cast<int>(within.size()) - 2; i >= 0; --i) {
    offset += (r % within[i]) * stride;
    r /= within[i];
    stride *= from[i];
  }
  return offset;
}

int64_t Product(const std::vector<int64_t>& v) {
  int64_t p = 1;
  for (int64_t d : v) p *= d;
  return p;
}

class FftOp final : public OpKernel {
 public:
  explicit FftOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    const std::string& op = type_string();
    inverse_ = op[0] == 'I';
    real_ = absl::StrContains(op, "RFFT");
    rank_ = absl::EndsWith(op, "3D") ? 3 : absl::EndsWith(op, "2D") ? 2 : 1;
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    OP_REQUIRES(ctx, in.dims() >= rank_,
                NodeError(ctx, "Input must have rank of at least ", rank_, " but got: ",
                          in.shape().DebugString()));
    const int outer = in.dims() - rank_;
    std::vector<int64_t> in_dims(rank_), fft(rank_);
    for (int i = 0; i < rank_; ++i) in_dims[i] = in.dim_size(outer + i);
    if (real_) {
      const Tensor& len = ctx->input(1);
      OP_REQUIRES(ctx, len.dims() == 1 && len.dim_size(0) == rank_,
                  NodeError(ctx, "fft_length must have shape [", rank_, "], got ",
                            len.shape().DebugString()));
      for (int i = 0; i < rank_; ++i) {
        fft[i] = len.data<int32_t>()[i];
        OP_REQUIRES(ctx, fft[i] >= 0,
                    NodeError(ctx, "fft_length[", i, "] must >= 0, but got: ", fft[i]));
      }
      for (int i = 0; i < rank_; ++i) {
        // The complex side's last dim holds the non-negative frequencies only.
        const int64_t need = inverse_ && i == rank_ - 1 ? fft[i] / 2 + 1 : fft[i];
        OP_REQUIRES(ctx, in_dims[i] >= need,
                    NodeError(ctx, "Input dimension ", outer + i, " must have length of at least ",
                              need, " but got: ", in_dims[i]));
      }
    } else {
      fft = in_dims;
    }
    TensorShape out_shape;
    for (int i = 0; i < outer; ++i) out_shape.AddDim(in.dim_size(i));
    for (int i = 0; i < rank_; ++i) {
      out_shape.AddDim(real_ && !inverse_ && i == rank_ - 1 ? fft[i] / 2 + 1 : fft[i]);
    }
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &out));
    if (out->NumElements() == 0) return;
    int64_t batch = 1;
    for (int i = 0; i < outer; ++i) batch *= in.dim_size(i);
    const bool single = in.dtype() == DT_COMPLEX64 || in.dtype() == DT_FLOAT;
    if (single) {
      Run<float>(ctx, in, out, batch, in_dims, fft);
    } else {
      Run<double>(ctx, in, out, batch, in_dims, fft);
    }
  }

 private:
  template <typename R>
  void Run(OpKernelContext* ctx, const Tensor& in, Tensor* out, int64_t batch,
           const std::vector<int64_t>& in_dims, const std::vector<int64_t>& fft) const {
    using C = std::complex<R>;
    const int64_t n = Product(fft);
    const int64_t in_block = Product(in_dims);
    const int64_t out_block = out->NumElements() / batch;
    const R scale = R(1) / static_cast<R>(n);
    auto work = [&](int64_t b) {
      if (!real_) {
        C* o = out->data<C>() + b * out_block;
        std::copy_n(in.data<C>() + b * in_block, in_block, o);
        TransformAxes(o, fft, rank_, inverse_);
        if (inverse_) {
          for (int64_t i = 0; i < out_block; ++i) o[i] *= scale;
        }
      } else if (!inverse_) {
        ForwardReal(in.data<R>() + b * in_block, in_dims, fft, out->data<C>() + b * out_block);
      } else {
        InverseReal(in.data<C>() + b * in_block, in_dims, fft, scale,
                    out->data<R>() + b * out_block);
      }
    };
    const double cost = 5.0 * n * std::max(1.0, std::log2(static_cast<double>(n)));
    ParallelFor(ctx->eigen_cpu_device(),
        batch, Eigen::TensorOpCost(in_block * sizeof(C), out_block * sizeof(C), cost),
        [&](Eigen::Index begin, Eigen::Index end) {
          for (Eigen::Index b = begin; b < end; ++b) work(b);
        });
  }

  // One block: each cropped row along the last axis transformed whole, its first n/2+1 terms
  // kept, then the leading axes transformed in the output.
  template <typename R>
  void ForwardReal(const R* in, const std::vector<int64_t>& in_dims,
                   const std::vector<int64_t>& fft, std::complex<R>* out) const {
    using C = std::complex<R>;
    const int64_t len = fft.back(), half = len / 2 + 1;
    std::vector<int64_t> out_dims = fft;
    out_dims.back() = half;
    const int64_t rows = Product(out_dims) / half;
    if (len == 0) {  // the transform of nothing: one zero term per row
      std::fill_n(out, rows * half, C(0));
      return;
    }
    std::vector<C> row(len);
    LinePlan<R> plan(len, false);
    for (int64_t r = 0; r < rows; ++r) {
      const R* src = in + RowOffset(r, fft, in_dims);
      for (int64_t i = 0; i < len; ++i) row[i] = C(src[i], R(0));
      if (len > 1) plan.Run(row.data(), 1);
      std::copy_n(row.data(), half, out + r * half);
    }
    TransformAxes(out, out_dims, rank_ - 1, false);
  }

  // One block: the cropped half spectrum copied out, its leading axes inverse-transformed, then
  // each row along the last axis extended by Hermitian symmetry and inverse-transformed; the
  // real parts, scaled, are the output.
  template <typename R>
  void InverseReal(const std::complex<R>* in, const std::vector<int64_t>& in_dims,
                   const std::vector<int64_t>& fft, R scale, R* out) const {
    using C = std::complex<R>;
    const int64_t len = fft.back(), half = len / 2 + 1;
    std::vector<int64_t> half_dims = fft;
    half_dims.back() = half;
    const int64_t rows = Product(half_dims) / half;
    std::vector<C> spectrum(rows * half);
    for (int64_t r = 0; r < rows; ++r) {
      std::copy_n(in + RowOffset(r, half_dims, in_dims), half, spectrum.data() + r * half);
    }
    TransformAxes(spectrum.data(), half_dims, rank_ - 1, true);
    if (len == 0) return;
    std::vector<C> row(len);
    LinePlan<R> plan(len, true);
    for (int64_t r = 0; r < rows; ++r) {
      const C* h = spectrum.data() + r * half;
      row[0] = C(h[0].real(), R(0));
      for (int64_t k = 1; k < half; ++k) row[k] = h[k];
      for (int64_t k = half; k < len; ++k) row[k] = std::conj(h[len - k]);
      if (len % 2 == 0) row[len / 2] = C(h[len / 2].real(), R(0));
      if (len > 1) plan.Run(row.data(), 1);
      for (int64_t i = 0; i < len; ++i) out[r * len + i] = row[i].real() * scale;
    }
  }

  bool inverse_, real_;
  int rank_;
};

#define SG_FFT_KERNEL(NAME) REGISTER_KERNEL_BUILDER(Name(NAME).Device(DEVICE_CPU), FftOp)
SG_FFT_KERNEL("FFT");
SG_FFT_KERNEL("IFFT");
SG_FFT_KERNEL("FFT2D");
SG_FFT_KERNEL("IFFT2D");
SG_FFT_KERNEL("FFT3D");
SG_FFT_KERNEL("IFFT3D");
#undef SG_FFT_KERNEL

// The real transforms pair float with complex64 and double with complex128 only.
#define SG_RFFT_KERNEL(NAME)                                                                \
  REGISTER_KERNEL_BUILDER(                                                                  \
      Name(NAME).Device(DEVICE_CPU).TypeConstraint<float>("Treal").TypeConstraint<complex64>( \
          "Tcomplex"),                                                                      \
      FftOp);                                                                               \
  REGISTER_KERNEL_BUILDER(Name(NAME)                                                        \
                              .Device(DEVICE_CPU)                                           \
                              .TypeConstraint<double>("Treal")                              \
                              .TypeConstraint<complex128>("Tcomplex"),                      \
                          FftOp)
SG_RFFT_KERNEL("RFFT");
SG_RFFT_KERNEL("IRFFT");
SG_RFFT_KERNEL("RFFT2D");
SG_RFFT_KERNEL("IRFFT2D");
SG_RFFT_KERNEL("RFFT3D");
SG_RFFT_KERNEL("IRFFT3D");
#undef SG_RFFT_KERNEL

}  // namespace
}  // namespace sg
