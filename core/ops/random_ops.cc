// Op definitions of the random family. Stateful: RandomUniform, RandomStandardNormal,
// TruncatedNormal, RandomUniformInt (each run draws new values; seed/seed2 fix the sequence).
// Stateless: the Stateless* ops, whose values are a function of their seed (or key, counter and
// algorithm) and shape.
#include <vector>

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

// Input `i` is a vector of `size` elements when its shape is known.
absl::Status VectorOfSize(InferenceContext* c, int i, const char* what, int64_t size) {
  PartialTensorShape s;
  SG_RETURN_IF_ERROR(c->WithRank(i, 1, &s));
  if (!s.unknown_rank() && s.dim_size(0) >= 0 && s.dim_size(0) != size) {
    return c->Error(what, " must have shape [", size, "], got ", s.DebugString());
  }
  return absl::OkStatus();
}

// Shape, seed[2]: the output's shape is the value of `shape`.
absl::Status StatelessShape(InferenceContext* c) {
  SG_RETURN_IF_ERROR(VectorOfSize(c, 1, "seed", 2));
  return RandomShape(c);
}

absl::Status StatelessUniformIntShape(InferenceContext* c) {
  PartialTensorShape s;
  SG_RETURN_IF_ERROR(c->WithRank(2, 0, &s));
  SG_RETURN_IF_ERROR(c->WithRank(3, 0, &s));
  return StatelessShape(c);
}

// Shape, key[1], counter (a vector), alg (a scalar).
absl::Status StatelessShapeV2(InferenceContext* c) {
  PartialTensorShape s;
  SG_RETURN_IF_ERROR(VectorOfSize(c, 1, "key", 1));
  SG_RETURN_IF_ERROR(c->WithRank(2, 1, &s));
  SG_RETURN_IF_ERROR(c->WithRank(3, 0, &s));
  return RandomShape(c);
}

absl::Status StatelessUniformIntShapeV2(InferenceContext* c) {
  PartialTensorShape s;
  SG_RETURN_IF_ERROR(c->WithRank(4, 0, &s));
  SG_RETURN_IF_ERROR(c->WithRank(5, 0, &s));
  return StatelessShapeV2(c);
}

// Shape followed by the shape of input `param` (RandomGamma's alpha, RandomPoisson's rate).
absl::Status ShapeThenParameter(InferenceContext* c) {
  PartialTensorShape shape;
  SG_RETURN_IF_ERROR(c->WithRank(0, 1, &shape));
  const PartialTensorShape samples = c->InputAsShape(0);
  const PartialTensorShape& param = c->input(1);
  if (samples.unknown_rank() || param.unknown_rank()) {
    c->set_output(0, PartialTensorShape());
    return absl::OkStatus();
  }
  std::vector<int64_t> dims(samples.dim_sizes().begin(), samples.dim_sizes().end());
  dims.insert(dims.end(), param.dim_sizes().begin(), param.dim_sizes().end());
  c->set_output(0, PartialTensorShape(dims));
  return absl::OkStatus();
}

// Logits [batch, classes], num_samples (a scalar): output [batch, num_samples].
absl::Status MultinomialShape(InferenceContext* c) {
  PartialTensorShape logits, n;
  SG_RETURN_IF_ERROR(c->WithRank(0, 2, &logits));
  SG_RETURN_IF_ERROR(c->WithRank(1, 0, &n));
  int64_t samples = -1;
  if (const Tensor* t = c->input_tensor(1); t != nullptr && t->NumElements() == 1) {
    samples = t->data<int32_t>()[0];
    if (samples < 0) return c->Error("num_samples should be non-negative, got ", samples);
  }
  c->set_output(0, PartialTensorShape({logits.unknown_rank() ? -1 : logits.dim_size(0),
                                       samples}));
  return absl::OkStatus();
}

// image_size [3], bounding_boxes [batch, boxes, 4], then `scalars` scalar inputs and, when
// `seed`, a seed pair: outputs begin [3], size [3], bboxes [1, 1, 4].
template <int kScalars, bool kSeed>
absl::Status SampleDistortedBoundingBoxShape(InferenceContext* c) {
  SG_RETURN_IF_ERROR(VectorOfSize(c, 0, "image_size", 3));
  PartialTensorShape s;
  SG_RETURN_IF_ERROR(c->WithRank(1, 3, &s));
  if (!s.unknown_rank() && s.dim_size(2) >= 0 && s.dim_size(2) != 4) {
    return c->Error("bounding_boxes must have shape [batch, boxes, 4], got ", s.DebugString());
  }
  for (int i = 2; i < 2 + kScalars; ++i) SG_RETURN_IF_ERROR(c->WithRank(i, 0, &s));
  if (kSeed) SG_RETURN_IF_ERROR(VectorOfSize(c, 2 + kScalars, "seed", 2));
  c->set_output(0, PartialTensorShape({3}));
  c->set_output(1, PartialTensorShape({3}));
  c->set_output(2, PartialTensorShape({1, 1, 4}));
  return absl::OkStatus();
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

REGISTER_OP("StatelessRandomUniform").Input("shape: T").Input("seed: Tseed")
    .Output("output: dtype")
    .Attr("dtype: {half, bfloat16, float, double} = DT_FLOAT").Attr("T: {int32, int64} = DT_INT32")
    .Attr("Tseed: {int32, int64} = DT_INT64").SetShapeFn(StatelessShape);
REGISTER_OP("StatelessRandomNormal").Input("shape: T").Input("seed: Tseed")
    .Output("output: dtype")
    .Attr("dtype: {half, bfloat16, float, double} = DT_FLOAT").Attr("T: {int32, int64} = DT_INT32")
    .Attr("Tseed: {int32, int64} = DT_INT64").SetShapeFn(StatelessShape);
REGISTER_OP("StatelessTruncatedNormal").Input("shape: T").Input("seed: Tseed")
    .Output("output: dtype")
    .Attr("dtype: {half, bfloat16, float, double} = DT_FLOAT").Attr("T: {int32, int64} = DT_INT32")
    .Attr("Tseed: {int32, int64} = DT_INT64").SetShapeFn(StatelessShape);
REGISTER_OP("StatelessRandomUniformInt").Input("shape: T").Input("seed: Tseed")
    .Input("minval: dtype").Input("maxval: dtype").Output("output: dtype")
    .Attr("dtype: {int32, int64}").Attr("T: {int32, int64}")
    .Attr("Tseed: {int32, int64} = DT_INT64").SetShapeFn(StatelessUniformIntShape);
REGISTER_OP("StatelessRandomUniformFullInt").Input("shape: T").Input("seed: Tseed")
    .Output("output: dtype")
    .Attr("dtype: {int32, int64, uint32, uint64} = DT_UINT64")
    .Attr("T: {int32, int64} = DT_INT32")
    .Attr("Tseed: {int32, int64, uint32, uint64} = DT_INT64").SetShapeFn(StatelessShape);
REGISTER_OP("StatelessRandomGetKeyCounterAlg").Input("seed: Tseed")
    .Output("key: uint64").Output("counter: uint64").Output("alg: int32")
    .Attr("Tseed: {int32, int64} = DT_INT64")
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(VectorOfSize(c, 0, "seed", 2));
      c->set_output(0, PartialTensorShape({1}));
      c->set_output(1, PartialTensorShape({2}));
      c->set_output(2, PartialTensorShape::Scalar());
      return absl::OkStatus();
    });
REGISTER_OP("StatelessRandomGetKeyCounter").Input("seed: Tseed")
    .Output("key: uint64").Output("counter: uint64")
    .Attr("Tseed: {int32, int64} = DT_INT64")
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(VectorOfSize(c, 0, "seed", 2));
      c->set_output(0, PartialTensorShape({1}));
      c->set_output(1, PartialTensorShape({2}));
      return absl::OkStatus();
    });
REGISTER_OP("StatelessRandomGetAlg").Output("alg: int32").SetIsStateful()
    .SetShapeFn(shape_fns::Scalar);
REGISTER_OP("StatelessRandomUniformV2").Input("shape: Tshape").Input("key: uint64")
    .Input("counter: uint64").Input("alg: int32").Output("output: dtype")
    .Attr("dtype: {half, bfloat16, float, double} = DT_FLOAT")
    .Attr("Tshape: {int32, int64} = DT_INT32").SetShapeFn(StatelessShapeV2);
REGISTER_OP("StatelessRandomNormalV2").Input("shape: Tshape").Input("key: uint64")
    .Input("counter: uint64").Input("alg: int32").Output("output: dtype")
    .Attr("dtype: {half, bfloat16, float, double} = DT_FLOAT")
    .Attr("Tshape: {int32, int64} = DT_INT32").SetShapeFn(StatelessShapeV2);
REGISTER_OP("StatelessTruncatedNormalV2").Input("shape: Tshape").Input("key: uint64")
    .Input("counter: uint64").Input("alg: int32").Output("output: dtype")
    .Attr("dtype: {half, bfloat16, float, double} = DT_FLOAT")
    .Attr("Tshape: {int32, int64} = DT_INT32").SetShapeFn(StatelessShapeV2);
REGISTER_OP("StatelessRandomUniformIntV2").Input("shape: Tshape").Input("key: uint64")
    .Input("counter: uint64").Input("alg: int32").Input("minval: dtype").Input("maxval: dtype")
    .Output("output: dtype")
    .Attr("dtype: {int32, int64, uint32, uint64}").Attr("Tshape: {int32, int64} = DT_INT32")
    .SetShapeFn(StatelessUniformIntShapeV2);
REGISTER_OP("StatelessRandomUniformFullIntV2").Input("shape: Tshape").Input("key: uint64")
    .Input("counter: uint64").Input("alg: int32").Output("output: dtype")
    .Attr("dtype: {int32, int64, uint32, uint64} = DT_UINT64")
    .Attr("Tshape: {int32, int64} = DT_INT32").SetShapeFn(StatelessShapeV2);

REGISTER_OP("RandomShuffle").Input("value: T").Output("output: T")
    .Attr("seed: int = 0").Attr("seed2: int = 0").Attr("T: type")
    .SetIsStateful().SetShapeFn(shape_fns::Unchanged);
REGISTER_OP("StatelessShuffle").Input("value: T").Input("key: uint64").Input("counter: uint64")
    .Input("alg: int32").Output("output: T").Attr("T: type")
    .SetShapeFn([](InferenceContext* c) {
      PartialTensorShape s;
      SG_RETURN_IF_ERROR(VectorOfSize(c, 1, "key", 1));
      SG_RETURN_IF_ERROR(c->WithRank(2, 1, &s));
      SG_RETURN_IF_ERROR(c->WithRank(3, 0, &s));
      return shape_fns::Unchanged(c);
    });
REGISTER_OP("Multinomial").Input("logits: T").Input("num_samples: int32")
    .Output("output: output_dtype")
    .Attr("seed: int = 0").Attr("seed2: int = 0")
    .Attr("T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
          "uint64}")
    .Attr("output_dtype: {int32, int64} = DT_INT64")
    .SetIsStateful().SetShapeFn(MultinomialShape);
REGISTER_OP("StatelessMultinomial").Input("logits: T").Input("num_samples: int32")
    .Input("seed: Tseed").Output("output: output_dtype")
    .Attr("T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
          "uint64}")
    .Attr("Tseed: {int32, int64} = DT_INT64").Attr("output_dtype: {int32, int64} = DT_INT64")
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(VectorOfSize(c, 2, "seed", 2));
      return MultinomialShape(c);
    });
REGISTER_OP("RandomGamma").Input("shape: S").Input("alpha: T").Output("output: T")
    .Attr("seed: int = 0").Attr("seed2: int = 0")
    .Attr("S: {int32, int64}").Attr("T: {half, float, double}")
    .SetIsStateful().SetShapeFn(ShapeThenParameter);
REGISTER_OP("RandomPoisson").Input("shape: S").Input("rate: dtype").Output("output: dtype")
    .Attr("seed: int = 0").Attr("seed2: int = 0")
    .Attr("S: {int32, int64}").Attr("dtype: {half, float, double}")
    .SetIsStateful().Deprecated(25, "Replaced by RandomPoissonV2")
    .SetShapeFn(ShapeThenParameter);
REGISTER_OP("RandomPoissonV2").Input("shape: S").Input("rate: R").Output("output: dtype")
    .Attr("seed: int = 0").Attr("seed2: int = 0")
    .Attr("S: {int32, int64}").Attr("R: {half, float, double, int32, int64} = DT_DOUBLE")
    .Attr("dtype: {half, float, double, int32, int64} = DT_INT64")
    .SetIsStateful().SetShapeFn(ShapeThenParameter);
REGISTER_OP("StatelessRandomGammaV2").Input("shape: T").Input("seed: Tseed").Input("alpha: dtype")
    .Output("output: dtype")
    .Attr("dtype: {half, float, double}").Attr("T: {int32, int64}")
    .Attr("Tseed: {int32, int64} = DT_INT64").SetShapeFn(StatelessShape);
REGISTER_OP("StatelessRandomGammaV3").Input("shape: shape_dtype").Input("key: uint64")
    .Input("counter: uint64").Input("alg: int32").Input("alpha: dtype").Output("output: dtype")
    .Attr("dtype: {half, float, double}").Attr("shape_dtype: {int32, int64} = DT_INT32")
    .SetShapeFn(StatelessShapeV2);
REGISTER_OP("StatelessRandomPoisson").Input("shape: T").Input("seed: Tseed").Input("lam: Rtype")
    .Output("output: dtype")
    .Attr("Rtype: {half, float, double, int32, int64}")
    .Attr("dtype: {half, float, double, int32, int64}").Attr("T: {int32, int64}")
    .Attr("Tseed: {int32, int64} = DT_INT64").SetShapeFn(StatelessShape);

REGISTER_OP("SampleDistortedBoundingBox").Input("image_size: T")
    .Input("bounding_boxes: float").Output("begin: T").Output("size: T")
    .Output("bboxes: float")
    .Attr("T: {uint8, int8, int16, int32, int64}").Attr("seed: int = 0").Attr("seed2: int = 0")
    .Attr("min_object_covered: float = 0.1")
    .Attr("aspect_ratio_range: list(float) = [0.75, 1.33]")
    .Attr("area_range: list(float) = [0.05, 1.0]").Attr("max_attempts: int = 100")
    .Attr("use_image_if_no_bounding_boxes: bool = false")
    .SetIsStateful().SetShapeFn(SampleDistortedBoundingBoxShape<0, false>);
REGISTER_OP("SampleDistortedBoundingBoxV2").Input("image_size: T")
    .Input("bounding_boxes: float").Input("min_object_covered: float").Output("begin: T")
    .Output("size: T").Output("bboxes: float")
    .Attr("T: {uint8, int8, int16, int32, int64}").Attr("seed: int = 0").Attr("seed2: int = 0")
    .Attr("aspect_ratio_range: list(float) = [0.75, 1.33]")
    .Attr("area_range: list(float) = [0.05, 1.0]").Attr("max_attempts: int = 100")
    .Attr("use_image_if_no_bounding_boxes: bool = false")
    .SetIsStateful().SetShapeFn(SampleDistortedBoundingBoxShape<1, false>);
REGISTER_OP("StatelessSampleDistortedBoundingBox").Input("image_size: T")
    .Input("bounding_boxes: float").Input("min_object_covered: float").Input("seed: Tseed")
    .Output("begin: T").Output("size: T").Output("bboxes: float")
    .Attr("T: {uint8, int8, int16, int32, int64}").Attr("Tseed: {int32, int64}")
    .Attr("aspect_ratio_range: list(float) = [0.75, 1.33]")
    .Attr("area_range: list(float) = [0.05, 1.0]").Attr("max_attempts: int = 100")
    .Attr("use_image_if_no_bounding_boxes: bool = false")
    .SetShapeFn(SampleDistortedBoundingBoxShape<1, true>);

}  // namespace sg
