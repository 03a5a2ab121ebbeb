// Op definitions of complex numbers: Complex (a complex tensor from real and imaginary parts,
// broadcasting as numpy), Real, Imag, Conj, ComplexAbs and Angle, with TensorFlow 2.21's OpDefs.
// ConjugateTranspose sits beside Transpose in array_ops.cc. Kernels: core/kernels/complex_ops.cc.
#include "core/framework/op.h"
#include "core/framework/shape_inference.h"

namespace sg {

REGISTER_OP("Complex")
    .Input("real: T")
    .Input("imag: T")
    .Output("out: Tout")
    .Attr("T: {float, double} = DT_FLOAT")
    .Attr("Tout: {complex64, complex128} = DT_COMPLEX64")
    .SetShapeFn(shape_fns::BroadcastBinary);

// complex in, its real counterpart out, element by element.
#define SG_COMPLEX_TO_REAL_OP(NAME, IN, OUT)                 \
  REGISTER_OP(NAME)                                          \
      .Input(IN ": T")                                       \
      .Output(OUT ": Tout")                                  \
      .Attr("T: {complex64, complex128} = DT_COMPLEX64")     \
      .Attr("Tout: {float, double} = DT_FLOAT")              \
      .SetShapeFn(shape_fns::Unchanged)
SG_COMPLEX_TO_REAL_OP("Real", "input", "output");
SG_COMPLEX_TO_REAL_OP("Imag", "input", "output");
SG_COMPLEX_TO_REAL_OP("Angle", "input", "output");
SG_COMPLEX_TO_REAL_OP("ComplexAbs", "x", "y");
#undef SG_COMPLEX_TO_REAL_OP

REGISTER_OP("Conj")
    .Input("input: T")
    .Output("output: T")
    .Attr("T: {complex64, complex128, variant} = DT_COMPLEX64")
    .SetShapeFn(shape_fns::Unchanged);

}  // namespace sg
