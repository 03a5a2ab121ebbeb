// Quantized image and normalization ops: QuantizedResizeBilinear, QuantizedInstanceNorm and
// QuantizedBatchNormWithGlobalNormalization, with TensorFlow's OpDefs and shape functions (each
// quantized tensor travels with its float range as two scalars). Kernels live in
// core/kernels/quantization_image_ops.cc.
#include "core/framework/op.h"
#include "core/framework/shape_inference.h"

namespace sg {
namespace {

using Shape = PartialTensorShape;

#define SG_QUANTIZED_TYPES "{qint8, quint8, qint32, qint16, quint16}"

void ScalarRangeOutputs(InferenceContext* c) {
  c->set_output(1, Shape(std::vector<int64_t>{}));
  c->set_output(2, Shape(std::vector<int64_t>{}));
}

// As ResizeBilinear's: [batch, size[0], size[1], channels], the range inputs scalars.
absl::Status QuantizedResizeShape(InferenceContext* c) {
  Shape images, size, unused;
  SG_RETURN_IF_ERROR(c->WithRank(0, 4, &images));
  SG_RETURN_IF_ERROR(c->WithRank(1, 1, &size));
  if (size.dim_size(0) >= 0 && size.dim_size(0) != 2) {
    return c->Error("size must hold 2 elements, has shape ", size.DebugString());
  }
  int64_t height = -1, width = -1;
  const Tensor* t = c->input_tensor(1);
  if (t != nullptr && t->dtype() == DT_INT32 && t->NumElements() == 2) {
    height = t->data<int32_t>()[0];
    width = t->data<int32_t>()[1];
    if (height < 0 || width < 0) {
      return c->Error("size must be non-negative, got [", height, ",", width, "]");
    }
  }
  SG_RETURN_IF_ERROR(c->WithRank(2, 0, &unused));
  SG_RETURN_IF_ERROR(c->WithRank(3, 0, &unused));
  c->set_output(0, Shape({images.dim_size(0), height, width, images.dim_size(3)}));
  ScalarRangeOutputs(c);
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("QuantizedResizeBilinear")
    .Input("images: T")
    .Input("size: int32")
    .Input("min: float")
    .Input("max: float")
    .Output("resized_images: T")
    .Output("out_min: float")
    .Output("out_max: float")
    .Attr("T: {quint8, qint32, float}")
    .Attr("align_corners: bool = false")
    .Attr("half_pixel_centers: bool = false")
    .SetShapeFn(QuantizedResizeShape);

REGISTER_OP("QuantizedInstanceNorm")
    .Input("x: T")
    .Input("x_min: float")
    .Input("x_max: float")
    .Output("y: T")
    .Output("y_min: float")
    .Output("y_max: float")
    .Attr("T: " SG_QUANTIZED_TYPES)
    .Attr("output_range_given: bool = false")
    .Attr("given_y_min: float = 0")
    .Attr("given_y_max: float = 0")
    .Attr("variance_epsilon: float = 1e-05")
    .Attr("min_separation: float = 0.001")
    .SetShapeFn([](InferenceContext* c) {
      Shape unused;
      SG_RETURN_IF_ERROR(c->WithRank(1, 0, &unused));
      SG_RETURN_IF_ERROR(c->WithRank(2, 0, &unused));
      c->set_output(0, c->input(0));
      ScalarRangeOutputs(c);
      return absl::OkStatus();
    });

// t is [batch, height, width, depth]; m, v, beta and gamma are [depth] (merged with t's last
// dimension); the eight range inputs are not checked by the shape function (as TensorFlow's).
REGISTER_OP("QuantizedBatchNormWithGlobalNormalization")
    .Input("t: Tinput")
    .Input("t_min: float")
    .Input("t_max: float")
    .Input("m: Tinput")
    .Input("m_min: float")
    .Input("m_max: float")
    .Input("v: Tinput")
    .Input("v_min: float")
    .Input("v_max: float")
    .Input("beta: Tinput")
    .Input("beta_min: float")
    .Input("beta_max: float")
    .Input("gamma: Tinput")
    .Input("gamma_min: float")
    .Input("gamma_max: float")
    .Output("result: out_type")
    .Output("result_min: float")
    .Output("result_max: float")
    .Attr("Tinput: " SG_QUANTIZED_TYPES)
    .Attr("out_type: " SG_QUANTIZED_TYPES)
    .Attr("variance_epsilon: float")
    .Attr("scale_after_normalization: bool")
    .SetShapeFn([](InferenceContext* c) {
      Shape in;
      SG_RETURN_IF_ERROR(c->WithRank(0, 4, &in));
      int64_t depth = in.dim_size(3);
      for (int i = 1; i < 5; ++i) {
        Shape vec;
        SG_RETURN_IF_ERROR(c->WithRank(3 * i, 1, &vec));
        const int64_t d = vec.dim_size(0);
        if (depth >= 0 && d >= 0 && d != depth) {
          return c->Error("Dimensions must be equal, but are ", depth, " and ", d);
        }
        if (depth < 0) depth = d;
      }
      c->set_output(0, Shape({in.dim_size(0), in.dim_size(1), in.dim_size(2), depth}));
      ScalarRangeOutputs(c);
      return absl::OkStatus();
    });

}  // namespace sg
