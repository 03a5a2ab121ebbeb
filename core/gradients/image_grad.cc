// Gradients of image ops: CropAndResize, ResizeBicubic, ExtractImagePatches and
// ImageProjectiveTransformV2/V3, with TensorFlow's formulas (tensorflow/python/ops/
// image_grad.py, image_ops.py, array_grad.py). TensorFlow's ExtractImagePatches gradient
// multiplies dy by a sparse 0/1 matrix mapping patch entries to input pixels; here the same sum
// is an UnsortedSegmentSum of dy's entries by input pixel.
#include "core/gradients/grad_registry.h"

namespace sg {
namespace {

using Fn = absl::Status;

GradOutput StaticOrDynamicShape(GradScope& s, GradOutput x) {
  PartialTensorShape xs = StaticShapeOf(x);
  if (xs.IsFullyDefined()) return s.ConstI32({xs.dim_sizes().begin(), xs.dim_sizes().end()});
  return s.Shape(x);
}

// CropAndResize(image, boxes, box_ind, crop_size): the image gets CropAndResizeGradImage
// (float images only, as TensorFlow), the boxes CropAndResizeGradBoxes.
Fn CropAndResizeGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput image = InputOf(op, 0), boxes = InputOf(op, 1), box_ind = InputOf(op, 2);
  DataType it = DTypeOf(image);
  if (it == DT_HALF || it == DT_FLOAT || it == DT_DOUBLE) {
    GradAttrs attrs = CopyAttrs(op, {"method"});
    attrs.emplace_back("T", TypeAttr(it));
    dx->push_back(s.Op("CropAndResizeGradImage",
                       {dy[0], boxes, box_ind, StaticOrDynamicShape(s, image)}, attrs));
  } else {
    dx->push_back(NoGradient());
  }
  dx->push_back(s.Op("CropAndResizeGradBoxes", {dy[0], image, boxes, box_ind}));
  dx->push_back(NoGradient());
  dx->push_back(NoGradient());
  return s.status();
}

Fn ResizeBicubicGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput images = InputOf(op, 0);
  DataType it = DTypeOf(images);
  if (it == DT_FLOAT || it == DT_DOUBLE) {
    dx->push_back(s.Op("ResizeBicubicGrad", {dy[0], images},
                       CopyAttrs(op, {"align_corners", "half_pixel_centers"})));
  } else {
    dx->push_back(NoGradient());
  }
  dx->push_back(NoGradient());
  return s.status();
}

// ExtractImagePatches: the patches of an image of pixel numbers (1-based, 0 = padding) say
// which input pixel each entry of dy came from; dy's entries are summed per pixel and the
// padding row dropped. Shapes are taken in the graph (TensorFlow's), so dims may be unknown.
Fn ExtractImagePatchesGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput x = InputOf(op, 0);
  std::vector<int64_t> ksizes;
  for (int64_t k : op.def().attr().at("ksizes").list().i()) ksizes.push_back(k);
  if (ksizes.size() != 4) {
    return errors::InvalidArgument("ExtractImagePatches gradient of '", op.name(),
                                   "': ksizes has ", ksizes.size(), " entries, not 4");
  }
  auto dim = [&](GradOutput shape, int i) {
    return s.Op("GatherV2", {shape, s.ScalarI32(i), s.ScalarI32(0)});
  };
  auto pack = [&](GradOutputs dims) { return s.Op("Pack", {GradInput::List(std::move(dims))}); };
  GradOutput in_shape = s.Shape(x, DT_INT64), out_shape = s.Shape(OutputOf(op, 0), DT_INT64);
  GradOutput batch = dim(in_shape, 0), rows = dim(in_shape, 1), cols = dim(in_shape, 2),
             channels = dim(in_shape, 3), rows_out = dim(out_shape, 1),
             cols_out = dim(out_shape, 2);
  auto i64 = [&](int64_t v) { return s.Cast(s.ScalarI32(v), DT_INT64); };
  GradOutput pixels = s.Mul(rows, cols);
  GradOutput one = i64(1);
  GradOutput pixel_ids = s.Reshape(s.Op("Range", {one, s.Add(pixels, one), one}),
                                   pack({one, rows, cols, one}));
  GradOutput patched = s.Op("ExtractImagePatches", {pixel_ids},
                            CopyAttrs(op, {"ksizes", "strides", "rates", "padding"}));
  GradOutput ids = s.Reshape(patched, s.ConstI32({-1}));
  GradOutput g = s.Reshape(
      dy[0], pack({batch, rows_out, cols_out, i64(ksizes[1]), i64(ksizes[2]), channels}));
  g = s.Transpose(g, s.ConstI32({1, 2, 3, 4, 0, 5}));
  g = s.Reshape(g, pack({i64(-1), s.Mul(batch, channels)}));
  GradOutput summed = s.Op("UnsortedSegmentSum", {g, ids, s.Add(pixels, one)});
  GradOutput per_pixel = s.Op("Slice", {summed, s.ConstI32({1, 0}), s.ConstI32({-1, -1})});
  GradOutput out = s.Reshape(per_pixel, pack({rows, cols, batch, channels}));
  dx->push_back(s.Transpose(out, s.ConstI32({2, 0, 1, 3})));
  return s.status();
}

// ImageProjectiveTransformV2/V3(images, transforms, output_shape[, fill_value]): dy transformed
// by the inverse transforms back to the images' size (TensorFlow's formula: the adjoint for
// translations and other one-to-one maps, an approximation otherwise). The transforms get none.
Fn ImageProjectiveTransformGrad(GradScope& s, const Node& op, const GradOutputs& dy,
                                GradOutputs* dx) {
  GradOutput images = InputOf(op, 0), transforms = InputOf(op, 1);
  // Flat [N, 8] transforms as [N, 3, 3] matrices (the implicit last entry 1), inverted, divided
  // by their last entry and flattened back.
  GradOutput flat = s.Reshape(transforms, s.ConstI32({-1, 8}));
  GradOutput n = s.Op("GatherV2", {s.Shape(flat), s.ScalarI32(0), s.ScalarI32(0)});
  GradOutput ones = s.Op("Fill", {s.Op("Pack", {GradInput::List({n, s.ScalarI32(1)})}),
                                  s.ScalarOf(DT_FLOAT, 1.0)});
  GradOutput matrices = s.Reshape(s.Op("ConcatV2", {GradInput::List({flat, ones}), s.ScalarI32(1)}),
                                  s.ConstI32({-1, 3, 3}));
  GradOutput inverse = s.Reshape(s.Op("MatrixInverse", {matrices}), s.ConstI32({-1, 9}));
  GradOutput last = s.Op("Slice", {inverse, s.ConstI32({0, 8}), s.ConstI32({-1, 1})});
  GradOutput normalized = s.RealDiv(inverse, last);
  GradOutput inverse_flat = s.Op("Slice", {normalized, s.ConstI32({0, 0}), s.ConstI32({-1, 8})});
  GradOutput size = s.Op("Slice", {s.Shape(images), s.ConstI32({1}), s.ConstI32({2})});
  std::vector<GradInput> in = {dy[0], inverse_flat, size};
  const bool v3 = op.type_string() == "ImageProjectiveTransformV3";
  if (v3) in.push_back(s.ScalarOf(DT_FLOAT, 0.0));
  dx->push_back(s.Op(op.type_string(), in, CopyAttrs(op, {"interpolation", "fill_mode"})));
  dx->push_back(NoGradient());
  dx->push_back(NoGradient());
  if (v3) dx->push_back(NoGradient());
  return s.status();
}

SG_REGISTER_GRADIENT("CropAndResize", CropAndResizeGrad);
SG_REGISTER_GRADIENT("ImageProjectiveTransformV2", ImageProjectiveTransformGrad);
SG_REGISTER_GRADIENT("ImageProjectiveTransformV3", ImageProjectiveTransformGrad);
SG_REGISTER_GRADIENT("ResizeBicubic", ResizeBicubicGrad);
SG_REGISTER_GRADIENT("ExtractImagePatches", ExtractImagePatchesGrad);

// TensorFlow marks these NotDifferentiable (image_ops_impl.py, image_grad.py).
SG_REGISTER_NO_GRADIENT("NonMaxSuppression");
SG_REGISTER_NO_GRADIENT("NonMaxSuppressionV2");
SG_REGISTER_NO_GRADIENT("NonMaxSuppressionWithOverlaps");
SG_REGISTER_NO_GRADIENT("SampleDistortedBoundingBox");
SG_REGISTER_NO_GRADIENT("SampleDistortedBoundingBoxV2");

}  // namespace
}  // namespace sg
