// Op definitions of the random family: RandomUniform, RandomStandardNormal, TruncatedNormal,
// RandomUniformInt. Stateful: each run draws new values; seed/seed2 fix the sequence.
#include "core/framework/op.h"
#include "core/framework/shape_inference.h"

namespace sg {
namespace {

// The output's shape is the value of input 0 when it is a known constant.
absl::Status RandomShape(InferenceContext* c) {
  PartialTensorShape shape;
  SG_RETURN_IF_ERROR(c->WithRank(0, 1, &shape));
  c->set_output(0, c->InputAsShape(0));
  return absl::OkStatus();
}

absl::Status RandomUniformIntShape(InferenceContext* c) {
  for (int i = 1; i < 3; ++i) {
    const PartialTensorShape& s = c->input(i);
    if (!s.unknown_rank() && s.dims() != 0) {
      return c->Error(i == 1 ? "minval" : "maxval", " must be a scalar, got ", s.DebugString());
    }
  }
  return RandomShape(c);
}

}  // namespace

REGISTER_OP("RandomUniform").Input("shape: T").Output("output: dtype")
    .Attr("seed: int = 0").Attr("seed2: int = 0")
    .Attr("dtype: {half, bfloat16, float, double}").Attr("T: {int32, int64}")
    .SetIsStateful().SetShapeFn(RandomShape);
REGISTER_OP("RandomStandardNormal").Input("shape: T").Output("output: dtype")
    .Attr("seed: int = 0").Attr("seed2: int = 0")
    .Attr("dtype: {half, bfloat16, float, double}").Attr("T: {int32, int64}")
    .SetIsStateful().SetShapeFn(RandomShape);
REGISTER_OP("TruncatedNormal").Input("shape: T").Output("output: dtype")
    .Attr("seed: int = 0").Attr("seed2: int = 0")
    .Attr("dtype: {half, bfloat16, float, double}").Attr("T: {int32, int64}")
    .SetIsStateful().SetShapeFn(RandomShape);
REGISTER_OP("RandomUniformInt").Input("shape: T").Input("minval: Tout").Input("maxval: Tout")
    .Output("output: Tout")
    .Attr("seed: int = 0").Attr("seed2: int = 0")
    .Attr("Tout: {int32, int64}").Attr("T: {int32, int64}")
    .SetIsStateful().SetShapeFn(RandomUniformIntShape);

}  // namespace sg
