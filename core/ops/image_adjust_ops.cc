// Op definitions of the colour adjustments, with TensorFlow 2.21's OpDefs and shape functions:
// AdjustContrastv2, AdjustHue and AdjustSaturation (images [..., height, width, channels] and a
// scalar factor). Kernels: core/kernels/image_adjust_ops.cc.
#include "core/framework/op.h"
#include "core/framework/shape_inference.h"

namespace sg {
namespace {

// Images of rank 3 or more and a scalar (input 1) in; the images' shape out.
absl::Status AdjustShape(InferenceContext* c) {
  PartialTensorShape images, factor;
  SG_RETURN_IF_ERROR(c->WithRankAtLeast(0, 3, &images));
  SG_RETURN_IF_ERROR(c->WithRank(1, 0, &factor));
  c->set_output(0, images);
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("AdjustContrastv2")
    .Input("images: T")
    .Input("contrast_factor: float")
    .Output("output: T")
    .Attr("T: {half, float} = DT_FLOAT")
    .SetShapeFn(AdjustShape);

REGISTER_OP("AdjustHue")
    .Input("images: T")
    .Input("delta: float")
    .Output("output: T")
    .Attr("T: {half, float} = DT_FLOAT")
    .SetShapeFn(AdjustShape);

REGISTER_OP("AdjustSaturation")
    .Input("images: T")
    .Input("scale: float")
    .Output("output: T")
    .Attr("T: {half, float} = DT_FLOAT")
    .SetShapeFn(AdjustShape);

}  // namespace sg
