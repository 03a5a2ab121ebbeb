// Op definitions of the FFT family with TensorFlow 2.21's OpDefs and shape functions: FFT, IFFT,
// FFT2D, IFFT2D, FFT3D, IFFT3D transform the inner 1, 2 or 3 dims of a complex tensor; RFFT,
// IRFFT and their 2D/3D forms go between real and complex with an fft_length input (the real
// side has fft_length's dims, the complex side fft_length[-1] / 2 + 1 in the last one).
// Kernels: core/kernels/fft_ops.cc.
#include "core/framework/op.h"
#include "core/framework/shape_inference.h"

namespace sg {
namespace {

using Shape = PartialTensorShape;

// The inner `rank` dims of input 0 are transformed in place: same shape out.
absl::Status ComplexFftShape(InferenceContext* c, int rank) {
  Shape in;
  SG_RETURN_IF_ERROR(c->WithRankAtLeast(0, rank, &in));
  c->set_output(0, in);
  return absl::OkStatus();
}

// Input 0's inner `rank` dims become the fft_length values (input 1, a [rank] vector), the last
// one halved plus one for a forward transform.
absl::Status RealFftShape(InferenceContext* c, int rank, bool forward) {
  Shape in, len;
  SG_RETURN_IF_ERROR(c->WithRankAtLeast(0, rank, &in));
  SG_RETURN_IF_ERROR(c->WithRank(1, 1, &len));
  if (len.dim_size(0) >= 0 && len.dim_size(0) != rank) {
    return c->Error("Dimension must be ", rank, " but is ", len.dim_size(0));
  }
  if (in.unknown_rank()) {
    c->set_output(0, Shape());
    return absl::OkStatus();
  }
  std::vector<int64_t> dims(in.dim_sizes().begin(), in.dim_sizes().end());
  const Tensor* t = c->input_tensor(1);
  const bool known = t != nullptr && t->dtype() == DT_INT32 && t->NumElements() == rank;
  const int outer = in.dims() - rank;
  for (int i = 0; i < rank; ++i) {
    int64_t d = known ? t->data<int32_t>()[i] : -1;
    if (known && forward && i == rank - 1) d = d / 2 + 1;
    dims[outer + i] = d < 0 ? -1 : d;
  }
  c->set_output(0, Shape(absl::MakeConstSpan(dims)));
  return absl::OkStatus();
}

}  // namespace

#define SG_FFT_OP(NAME, RANK)                                                   \
  REGISTER_OP(NAME)                                                             \
      .Input("input: Tcomplex")                                                 \
      .Output("output: Tcomplex")                                               \
      .Attr("Tcomplex: {complex64, complex128} = DT_COMPLEX64")                 \
      .SetShapeFn([](InferenceContext* c) { return ComplexFftShape(c, RANK); })
SG_FFT_OP("FFT", 1);
SG_FFT_OP("IFFT", 1);
SG_FFT_OP("FFT2D", 2);
SG_FFT_OP("IFFT2D", 2);
SG_FFT_OP("FFT3D", 3);
SG_FFT_OP("IFFT3D", 3);
#undef SG_FFT_OP

#define SG_RFFT_OP(NAME, RANK)                                                       \
  REGISTER_OP(NAME)                                                                  \
      .Input("input: Treal")                                                         \
      .Input("fft_length: int32")                                                    \
      .Output("output: Tcomplex")                                                    \
      .Attr("Treal: {float, double} = DT_FLOAT")                                     \
      .Attr("Tcomplex: {complex64, complex128} = DT_COMPLEX64")                      \
      .SetShapeFn([](InferenceContext* c) { return RealFftShape(c, RANK, true); })
SG_RFFT_OP("RFFT", 1);
SG_RFFT_OP("RFFT2D", 2);
SG_RFFT_OP("RFFT3D", 3);
#undef SG_RFFT_OP

#define SG_IRFFT_OP(NAME, RANK)                                                       \
  REGISTER_OP(NAME)                                                                   \
      .Input("input: Tcomplex")                                                       \
      .Input("fft_length: int32")                                                     \
      .Output("output: Treal")                                                        \
      .Attr("Treal: {float, double} = DT_FLOAT")                                      \
      .Attr("Tcomplex: {complex64, complex128} = DT_COMPLEX64")                       \
      .SetShapeFn([](InferenceContext* c) { return RealFftShape(c, RANK, false); })
SG_IRFFT_OP("IRFFT", 1);
SG_IRFFT_OP("IRFFT2D", 2);
SG_IRFFT_OP("IRFFT3D", 3);
#undef SG_IRFFT_OP

}  // namespace sg
