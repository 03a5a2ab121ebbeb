// Image ops: decoding and encoding (JPEG, PNG, GIF, BMP), resizing, colour adjustments,
// projective transforms and non-maximum suppression, with TensorFlow 2.21's OpDefs and shape
// functions. Kernels: core/kernels/image_*.cc.
#include <algorithm>
#include <vector>

#include "core/framework/op.h"
#include "core/framework/shape_inference.h"

namespace sg {
namespace {

using Shape = PartialTensorShape;

// The value of a constant int32/int64 scalar input; false when it is not known.
bool ConstScalar(InferenceContext* c, int i, int64_t* v) {
  const Tensor* t = c->input_tensor(i);
  if (t == nullptr || t->NumElements() != 1) return false;
  if (t->dtype() == DT_INT32) {
    *v = t->data<int32_t>()[0];
  } else if (t->dtype() == DT_INT64) {
    *v = t->data<int64_t>()[0];
  } else {
    return false;
  }
  return true;
}

// A scalar string in, [height, width, channels] out (channels unknown when the attr is 0).
absl::Status DecodeImageShape(InferenceContext* c) {
  Shape unused;
  SG_RETURN_IF_ERROR(c->WithRank(0, 0, &unused));
  int64_t channels = 0;
  SG_RETURN_IF_ERROR(c->GetAttr("channels", &channels));
  if (channels < 0) return c->Error("channels must be non-negative, got ", channels);
  c->set_output(0, Shape({-1, -1, channels == 0 ? -1 : channels}));
  return absl::OkStatus();
}

// images [batch, height, width, channels] and size [2] in; the resized batch out.
absl::Status ResizeShape(InferenceContext* c) {
  Shape images, size;
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
  c->set_output(0, Shape({images.dim_size(0), height, width, images.dim_size(3)}));
  return absl::OkStatus();
}

// CropAndResize: [num_boxes, crop_height, crop_width, depth], num_boxes from boxes or box_ind.
absl::Status CropAndResizeShape(InferenceContext* c) {
  Shape image, boxes, box_ind, crop_size;
  SG_RETURN_IF_ERROR(c->WithRank(0, 4, &image));
  SG_RETURN_IF_ERROR(c->WithRank(1, 2, &boxes));
  SG_RETURN_IF_ERROR(c->WithRank(2, 1, &box_ind));
  SG_RETURN_IF_ERROR(c->WithRank(3, 1, &crop_size));
  if (boxes.dim_size(1) >= 0 && boxes.dim_size(1) != 4) {
    return c->Error("boxes must be [num_boxes, 4], got ", boxes.DebugString());
  }
  if (crop_size.dim_size(0) >= 0 && crop_size.dim_size(0) != 2) {
    return c->Error("crop_size must hold 2 elements, has shape ", crop_size.DebugString());
  }
  int64_t n = boxes.dim_size(0);
  if (n >= 0 && box_ind.dim_size(0) >= 0 && n != box_ind.dim_size(0)) {
    return c->Error("boxes ", boxes.DebugString(), " and box_ind ", box_ind.DebugString(),
                    " disagree on the number of boxes");
  }
  if (n < 0) n = box_ind.dim_size(0);
  int64_t h = -1, w = -1;
  const Tensor* t = c->input_tensor(3);
  if (t != nullptr && t->dtype() == DT_INT32 && t->NumElements() == 2) {
    h = t->data<int32_t>()[0];
    w = t->data<int32_t>()[1];
    if (h <= 0 || w <= 0) return c->Error("crop dimensions must be positive");
  }
  c->set_output(0, Shape({n, h, w, image.dim_size(3)}));
  return absl::OkStatus();
}

// ImageProjectiveTransformV2/V3: [batch, out_height, out_width, channels], the output size from
// output_shape when it is a constant (a negative entry unknown).
absl::Status ProjectiveTransformShape(InferenceContext* c) {
  Shape images, output_shape;
  SG_RETURN_IF_ERROR(c->WithRank(0, 4, &images));
  SG_RETURN_IF_ERROR(c->WithRank(2, 1, &output_shape));
  if (output_shape.dim_size(0) >= 0 && output_shape.dim_size(0) != 2) {
    return c->Error("output_shape must hold 2 elements, has shape ",
                    output_shape.DebugString());
  }
  int64_t height = -1, width = -1;
  const Tensor* t = c->input_tensor(2);
  if (t != nullptr && t->dtype() == DT_INT32 && t->NumElements() == 2) {
    height = std::max<int64_t>(t->data<int32_t>()[0], -1);
    width = std::max<int64_t>(t->data<int32_t>()[1], -1);
  }
  c->set_output(0, Shape({images.dim_size(0), height, width, images.dim_size(3)}));
  return absl::OkStatus();
}

// Images of the input's shape (rank >= 3); the colour adjustments. `scalar_input` >= 0: that
// input must be a scalar.
absl::Status AdjustShape(InferenceContext* c, int scalar_input) {
  Shape images, unused;
  SG_RETURN_IF_ERROR(c->WithRankAtLeast(0, 3, &images));
  if (scalar_input >= 0) SG_RETURN_IF_ERROR(c->WithRank(scalar_input, 0, &unused));
  c->set_output(0, images);
  return absl::OkStatus();
}

// boxes [n, 4], scores [n], then `scalars` scalar inputs; selected indices [?] (or
// [max_output_size] when padded and known), then the extra outputs.
absl::Status NmsShape(InferenceContext* c, int scalars, bool padded_outputs) {
  Shape boxes, scores, unused;
  SG_RETURN_IF_ERROR(c->WithRank(0, 2, &boxes));
  SG_RETURN_IF_ERROR(c->WithRank(1, 1, &scores));
  for (int i = 2; i < 2 + scalars; ++i) SG_RETURN_IF_ERROR(c->WithRank(i, 0, &unused));
  if (boxes.dim_size(1) >= 0 && boxes.dim_size(1) != 4) {
    return c->Error("boxes must have 4 columns, has shape ", boxes.DebugString());
  }
  const int64_t n = boxes.dim_size(0), m = scores.dim_size(0);
  if (n >= 0 && m >= 0 && n != m) {
    return c->Error("boxes ", boxes.DebugString(), " and scores ", scores.DebugString(),
                    " hold different numbers of boxes");
  }
  int64_t size = -1;
  bool pad = false;
  if (padded_outputs) {
    SG_RETURN_IF_ERROR(c->GetAttr("pad_to_max_output_size", &pad));
    int64_t max_size;
    if (pad && ConstScalar(c, 2, &max_size)) {
      if (max_size < 0) return c->Error("max_output_size must be non-negative, got ", max_size);
      size = max_size;
    }
  }
  for (int i = 0; i < c->num_outputs(); ++i) {
    const bool valid_count = padded_outputs && i == c->num_outputs() - 1;
    c->set_output(i, valid_count ? Shape::Scalar() : Shape({size}));
  }
  return absl::OkStatus();
}

}  // namespace

// ---- decoding and encoding ------------------------------------------------------------------

REGISTER_OP("DecodeJpeg")
    .Input("contents: string")
    .Attr("channels: int = 0")
    .Attr("ratio: int = 1")
    .Attr("fancy_upscaling: bool = true")
    .Attr("try_recover_truncated: bool = false")
    .Attr("acceptable_fraction: float = 1.0")
    .Attr("dct_method: string = ''")
    .Output("image: uint8")
    .SetShapeFn(DecodeImageShape);

// [crop_height, crop_width, channels] when the window is a known constant.
REGISTER_OP("DecodeAndCropJpeg")
    .Input("contents: string")
    .Input("crop_window: int32")
    .Attr("channels: int = 0")
    .Attr("ratio: int = 1")
    .Attr("fancy_upscaling: bool = true")
    .Attr("try_recover_truncated: bool = false")
    .Attr("acceptable_fraction: float = 1.0")
    .Attr("dct_method: string = ''")
    .Output("image: uint8")
    .SetShapeFn([](InferenceContext* c) {
      Shape window;
      SG_RETURN_IF_ERROR(c->WithRank(1, 1, &window));
      if (window.dim_size(0) >= 0 && window.dim_size(0) != 4) {
        return c->Error("crop_window must hold 4 elements, has shape ", window.DebugString());
      }
      SG_RETURN_IF_ERROR(DecodeImageShape(c));
      const Tensor* t = c->input_tensor(1);
      if (t != nullptr && t->NumElements() == 4) {
        const int32_t* w = t->data<int32_t>();
        c->set_output(0, Shape({std::max(w[2], -1), std::max(w[3], -1),
                                c->output(0).dim_size(2)}));
      }
      return absl::OkStatus();
    });

REGISTER_OP("ExtractJpegShape")
    .Input("contents: string")
    .Output("image_shape: output_type")
    .Attr("output_type: {int32, int64} = DT_INT32")
    .SetShapeFn([](InferenceContext* c) {
      Shape unused;
      SG_RETURN_IF_ERROR(c->WithRank(0, 0, &unused));
      c->set_output(0, Shape({3}));
      return absl::OkStatus();
    });

REGISTER_OP("DecodePng")
    .Input("contents: string")
    .Attr("channels: int = 0")
    .Attr("dtype: {uint8, uint16} = DT_UINT8")
    .Output("image: dtype")
    .SetShapeFn(DecodeImageShape);

REGISTER_OP("DecodeBmp")
    .Input("contents: string")
    .Output("image: uint8")
    .Attr("channels: int = 0")
    .SetShapeFn(DecodeImageShape);

REGISTER_OP("DecodeGif")
    .Input("contents: string")
    .Output("image: uint8")
    .SetShapeFn([](InferenceContext* c) {
      Shape unused;
      SG_RETURN_IF_ERROR(c->WithRank(0, 0, &unused));
      c->set_output(0, Shape({-1, -1, -1, 3}));
      return absl::OkStatus();
    });

// JPEG, PNG, GIF or BMP by its first bytes; [frames, height, width, channels] for a GIF when
// expand_animations, [height, width, channels] otherwise (so the rank is unknown until run).
REGISTER_OP("DecodeImage")
    .Input("contents: string")
    .Attr("channels: int = 0")
    .Attr("dtype: {uint8, uint16, float} = DT_UINT8")
    .Output("image: dtype")
    .Attr("expand_animations: bool = true")
    .SetShapeFn([](InferenceContext* c) {
      bool expand = true;
      SG_RETURN_IF_ERROR(c->GetAttr("expand_animations", &expand));
      if (!expand) return DecodeImageShape(c);
      Shape unused;
      SG_RETURN_IF_ERROR(c->WithRank(0, 0, &unused));
      return shape_fns::Unknown(c);
    });

// image [..., height, width, channels] in; one PNG string per image of the batch dims out.
REGISTER_OP("EncodePng")
    .Attr("compression: int = -1")
    .Attr("T: {uint8, uint16} = DT_UINT8")
    .Input("image: T")
    .Output("contents: string")
    .SetShapeFn([](InferenceContext* c) {
      Shape image;
      SG_RETURN_IF_ERROR(c->WithRankAtLeast(0, 3, &image));
      if (image.unknown_rank()) return shape_fns::Unknown(c);
      std::vector<int64_t> batch;
      for (int d = 0; d + 3 < image.dims(); ++d) batch.push_back(image.dim_size(d));
      c->set_output(0, Shape(batch));
      return absl::OkStatus();
    });

REGISTER_OP("EncodeJpeg")
    .Input("image: uint8")
    .Attr("format: {'', 'grayscale', 'rgb'} = ''")
    .Attr("quality: int = 95")
    .Attr("progressive: bool = false")
    .Attr("optimize_size: bool = false")
    .Attr("chroma_downsampling: bool = true")
    .Attr("density_unit: {'in', 'cm'} = 'in'")
    .Attr("x_density: int = 300")
    .Attr("y_density: int = 300")
    .Attr("xmp_metadata: string = ''")
    .Output("contents: string")
    .SetShapeFn([](InferenceContext* c) {
      Shape unused;
      SG_RETURN_IF_ERROR(c->WithRank(0, 3, &unused));
      c->set_output(0, Shape::Scalar());
      return absl::OkStatus();
    });

REGISTER_OP("EncodeJpegVariableQuality")
    .Input("images: uint8")
    .Input("quality: int32")
    .Output("contents: string")
    .SetShapeFn([](InferenceContext* c) {
      Shape unused;
      SG_RETURN_IF_ERROR(c->WithRank(0, 3, &unused));
      SG_RETURN_IF_ERROR(c->WithRank(1, 0, &unused));
      c->set_output(0, Shape::Scalar());
      return absl::OkStatus();
    });

// ---- resizing ---------------------------------------------------------------------------------

REGISTER_OP("ResizeBilinear")
    .Input("images: T")
    .Input("size: int32")
    .Output("resized_images: float")
    .Attr("T: {int8, uint8, int16, uint16, int32, int64, bfloat16, half, float, double, "
          "bfloat16}")
    .Attr("align_corners: bool = false")
    .Attr("half_pixel_centers: bool = false")
    .SetShapeFn(ResizeShape);

REGISTER_OP("ResizeNearestNeighbor")
    .Input("images: T")
    .Input("size: int32")
    .Output("resized_images: T")
    .Attr("T: {int8, uint8, int16, uint16, int32, int64, half, float, double, bfloat16}")
    .Attr("align_corners: bool = false")
    .Attr("half_pixel_centers: bool = false")
    .SetShapeFn(ResizeShape);

// The gradient of ResizeBilinear: grads [batch, h, w, c] back to original_image's [H, W].
REGISTER_OP("ResizeBilinearGrad")
    .Input("grads: float")
    .Input("original_image: T")
    .Output("output: T")
    .Attr("T: {float, bfloat16, half, double}")
    .Attr("align_corners: bool = false")
    .Attr("half_pixel_centers: bool = false")
    .SetShapeFn([](InferenceContext* c) {
      Shape grads, original;
      SG_RETURN_IF_ERROR(c->WithRank(0, 4, &grads));
      SG_RETURN_IF_ERROR(c->WithRank(1, 4, &original));
      c->set_output(0, original);
      return absl::OkStatus();
    });

// The gradient of ResizeNearestNeighbor: grads [batch, h, w, c] back to size [H, W].
REGISTER_OP("ResizeNearestNeighborGrad")
    .Input("grads: T")
    .Input("size: int32")
    .Output("output: T")
    .Attr("T: {uint8, int8, int32, half, float, double, bfloat16}")
    .Attr("align_corners: bool = false")
    .Attr("half_pixel_centers: bool = false")
    .SetShapeFn(ResizeShape);

REGISTER_OP("ResizeBicubic")
    .Input("images: T")
    .Input("size: int32")
    .Output("resized_images: float")
    .Attr("T: {int8, uint8, int16, uint16, int32, int64, half, float, double, bfloat16}")
    .Attr("align_corners: bool = false")
    .Attr("half_pixel_centers: bool = false")
    .SetShapeFn(ResizeShape);

// The gradient of ResizeBicubic: grads [batch, h, w, c] back to original_image's [H, W].
REGISTER_OP("ResizeBicubicGrad")
    .Input("grads: float")
    .Input("original_image: T")
    .Output("output: T")
    .Attr("T: {float, double}")
    .Attr("align_corners: bool = false")
    .Attr("half_pixel_centers: bool = false")
    .SetShapeFn([](InferenceContext* c) {
      Shape grads, original;
      SG_RETURN_IF_ERROR(c->WithRank(0, 4, &grads));
      SG_RETURN_IF_ERROR(c->WithRank(1, 4, &original));
      c->set_output(0, original);
      return absl::OkStatus();
    });

REGISTER_OP("ResizeArea")
    .Input("images: T")
    .Input("size: int32")
    .Output("resized_images: float")
    .Attr("T: {int8, uint8, int16, uint16, int32, int64, half, float, double, bfloat16}")
    .Attr("align_corners: bool = false")
    .SetShapeFn(ResizeShape);

// Bilinear or nearest samples of boxes of the batch's images (normalized corners y1, x1, y2, x2).
REGISTER_OP("CropAndResize")
    .Input("image: T")
    .Input("boxes: float")
    .Input("box_ind: int32")
    .Input("crop_size: int32")
    .Output("crops: float")
    .Attr("T: {uint8, uint16, int8, int16, int32, int64, half, float, double}")
    .Attr("method: {'bilinear', 'nearest'} = 'bilinear'")
    .Attr("extrapolation_value: float = 0")
    .SetShapeFn(CropAndResizeShape);

// The gradients of CropAndResize with respect to the image ([image_size], dtype T) and the
// boxes ([num_boxes, 4]).
REGISTER_OP("CropAndResizeGradImage")
    .Input("grads: float")
    .Input("boxes: float")
    .Input("box_ind: int32")
    .Input("image_size: int32")
    .Output("output: T")
    .Attr("T: {float, half, double}")
    .Attr("method: {'bilinear', 'nearest'} = 'bilinear'")
    .SetShapeFn([](InferenceContext* c) {
      Shape size;
      SG_RETURN_IF_ERROR(c->WithRank(3, 1, &size));
      const Shape value = c->InputAsShape(3);
      c->set_output(0, value.unknown_rank() ? Shape({-1, -1, -1, -1}) : value);
      return absl::OkStatus();
    });

REGISTER_OP("CropAndResizeGradBoxes")
    .Input("grads: float")
    .Input("image: T")
    .Input("boxes: float")
    .Input("box_ind: int32")
    .Output("output: float")
    .Attr("T: {uint8, uint16, int8, int16, int32, int64, half, float, double}")
    .Attr("method: {'bilinear'} = 'bilinear'")
    .SetShapeFn([](InferenceContext* c) {
      c->set_output(0, c->input(2));
      return absl::OkStatus();
    });

// ---- colour adjustments ---------------------------------------------------------------------

// Per image and channel, (x - mean) * contrast_factor + mean.
REGISTER_OP("AdjustContrastv2")
    .Input("images: T")
    .Input("contrast_factor: float")
    .Output("output: T")
    .Attr("T: {half, float} = DT_FLOAT")
    .SetShapeFn([](InferenceContext* c) { return AdjustShape(c, 1); });

// The first contrast op: any real image, float out, clamped to [min_value, max_value].
REGISTER_OP("AdjustContrast")
    .Input("images: T")
    .Input("contrast_factor: float")
    .Input("min_value: float")
    .Input("max_value: float")
    .Output("output: float")
    .Attr("T: {uint8, int8, int16, int32, int64, float, double}")
    .Deprecated(2, "Use AdjustContrastv2 instead")
    .SetShapeFn([](InferenceContext* c) { return AdjustShape(c, -1); });

// RGB images with their HSV saturation scaled.
REGISTER_OP("AdjustSaturation")
    .Input("images: T")
    .Input("scale: float")
    .Output("output: T")
    .Attr("T: {half, float} = DT_FLOAT")
    .SetShapeFn([](InferenceContext* c) { return AdjustShape(c, -1); });

// RGB images with delta added to their hue (in turns).
REGISTER_OP("AdjustHue")
    .Input("images: T")
    .Input("delta: float")
    .Output("output: T")
    .Attr("T: {half, float} = DT_FLOAT")
    .SetShapeFn([](InferenceContext* c) { return AdjustShape(c, -1); });

// ---- projective transforms ----------------------------------------------------------------

// Each output pixel samples the input through a 3x3 projective matrix (its first 8 entries).
REGISTER_OP("ImageProjectiveTransformV2")
    .Input("images: dtype")
    .Input("transforms: float")
    .Input("output_shape: int32")
    .Output("transformed_images: dtype")
    .Attr("dtype: {uint8, int32, int64, half, bfloat16, float, double}")
    .Attr("interpolation: string")
    .Attr("fill_mode: string = 'CONSTANT'")
    .SetShapeFn(ProjectiveTransformShape);

// As ImageProjectiveTransformV2, with the fill value an input.
REGISTER_OP("ImageProjectiveTransformV3")
    .Input("images: dtype")
    .Input("transforms: float")
    .Input("output_shape: int32")
    .Input("fill_value: float")
    .Output("transformed_images: dtype")
    .Attr("dtype: {uint8, int32, int64, half, bfloat16, float, double}")
    .Attr("interpolation: string")
    .Attr("fill_mode: string = 'CONSTANT'")
    .SetShapeFn(ProjectiveTransformShape);

// ---- non-maximum suppression ------------------------------------------------------------------

REGISTER_OP("NonMaxSuppression")
    .Input("boxes: float")
    .Input("scores: float")
    .Input("max_output_size: int32")
    .Output("selected_indices: int32")
    .Attr("iou_threshold: float = 0.5")
    .SetShapeFn([](InferenceContext* c) { return NmsShape(c, 1, false); });

REGISTER_OP("NonMaxSuppressionV2")
    .Input("boxes: T")
    .Input("scores: T")
    .Input("max_output_size: int32")
    .Input("iou_threshold: T_threshold")
    .Output("selected_indices: int32")
    .Attr("T: {half, float} = DT_FLOAT")
    .Attr("T_threshold: {half, float} = DT_FLOAT")
    .SetShapeFn([](InferenceContext* c) { return NmsShape(c, 2, false); });

REGISTER_OP("NonMaxSuppressionV3")
    .Input("boxes: T")
    .Input("scores: T")
    .Input("max_output_size: int32")
    .Input("iou_threshold: T_threshold")
    .Input("score_threshold: T_threshold")
    .Output("selected_indices: int32")
    .Attr("T: {half, float} = DT_FLOAT")
    .Attr("T_threshold: {half, float} = DT_FLOAT")
    .SetShapeFn([](InferenceContext* c) { return NmsShape(c, 3, false); });

REGISTER_OP("NonMaxSuppressionV4")
    .Input("boxes: T")
    .Input("scores: T")
    .Input("max_output_size: int32")
    .Input("iou_threshold: T_threshold")
    .Input("score_threshold: T_threshold")
    .Output("selected_indices: int32")
    .Output("valid_outputs: int32")
    .Attr("T: {half, float} = DT_FLOAT")
    .Attr("T_threshold: {half, float} = DT_FLOAT")
    .Attr("pad_to_max_output_size: bool = false")
    .SetShapeFn([](InferenceContext* c) { return NmsShape(c, 3, true); });

REGISTER_OP("NonMaxSuppressionV5")
    .Input("boxes: T")
    .Input("scores: T")
    .Input("max_output_size: int32")
    .Input("iou_threshold: T")
    .Input("score_threshold: T")
    .Input("soft_nms_sigma: T")
    .Output("selected_indices: int32")
    .Output("selected_scores: T")
    .Output("valid_outputs: int32")
    .Attr("T: {half, float} = DT_FLOAT")
    .Attr("pad_to_max_output_size: bool = false")
    .SetShapeFn([](InferenceContext* c) { return NmsShape(c, 4, true); });

// overlaps [n, n] stand for the boxes: the rest is NonMaxSuppressionV3's.
REGISTER_OP("NonMaxSuppressionWithOverlaps")
    .Input("overlaps: float")
    .Input("scores: float")
    .Input("max_output_size: int32")
    .Input("overlap_threshold: float")
    .Input("score_threshold: float")
    .Output("selected_indices: int32")
    .SetShapeFn([](InferenceContext* c) {
      Shape overlaps, scores, unused;
      SG_RETURN_IF_ERROR(c->WithRank(0, 2, &overlaps));
      SG_RETURN_IF_ERROR(c->WithRank(1, 1, &scores));
      for (int i = 2; i < 5; ++i) SG_RETURN_IF_ERROR(c->WithRank(i, 0, &unused));
      c->set_output(0, Shape({-1}));
      return absl::OkStatus();
    });

// boxes [batch, n, q, 4] (q is 1 or the number of classes), scores [batch, n, classes]; the
// detections of each image, max_total_size of them (fewer with pad_per_class) out.
REGISTER_OP("CombinedNonMaxSuppression")
    .Input("boxes: float")
    .Input("scores: float")
    .Input("max_output_size_per_class: int32")
    .Input("max_total_size: int32")
    .Input("iou_threshold: float")
    .Input("score_threshold: float")
    .Output("nmsed_boxes: float")
    .Output("nmsed_scores: float")
    .Output("nmsed_classes: float")
    .Output("valid_detections: int32")
    .Attr("pad_per_class: bool = false")
    .Attr("clip_boxes: bool = true")
    .SetShapeFn([](InferenceContext* c) {
      Shape boxes, scores, unused;
      SG_RETURN_IF_ERROR(c->WithRank(0, 4, &boxes));
      SG_RETURN_IF_ERROR(c->WithRank(1, 3, &scores));
      for (int i = 2; i < 6; ++i) SG_RETURN_IF_ERROR(c->WithRank(i, 0, &unused));
      int64_t batch = boxes.dim_size(0) >= 0 ? boxes.dim_size(0) : scores.dim_size(0);
      const int64_t classes = scores.dim_size(2);
      bool pad_per_class = false;
      SG_RETURN_IF_ERROR(c->GetAttr("pad_per_class", &pad_per_class));
      int64_t per_class = -1, total = -1, size = -1;
      const bool known_total = ConstScalar(c, 3, &total);
      if (known_total && total <= 0) return c->Error("max_total_size must be > 0, got ", total);
      if (!pad_per_class) {
        if (known_total) size = total;
      } else if (known_total && ConstScalar(c, 2, &per_class) && classes >= 0) {
        if (per_class <= 0) {
          return c->Error("max_output_size_per_class must be > 0, got ", per_class);
        }
        size = std::min(total, per_class * classes);
      }
      c->set_output(0, Shape({batch, size, 4}));
      c->set_output(1, Shape({batch, size}));
      c->set_output(2, Shape({batch, size}));
      c->set_output(3, Shape({batch}));
      return absl::OkStatus();
    });

}  // namespace sg
