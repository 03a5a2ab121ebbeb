// CropAndResize: for each box (y1, x1, y2, x2, normalized so that 0 and 1 are the first and last
// pixel centers) of image[box_ind[b]], a crop_height x crop_width float sample, bilinear or nearest,
// with extrapolation_value where a sample falls outside the image. The sampling arithmetic and its
// order are TensorFlow's (crop_and_resize_op.cc), in float, so the crops match its bits (this file
// is built without fused multiply-adds, as every image_*.cc).
//
// CropAndResizeGradImage and CropAndResizeGradBoxes: its gradients with respect to the image and
// the boxes, as TensorFlow's CPU kernels compute them (boxes in order, pixels row by row; the
// image gradient accumulates in T, the box gradient in float).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/framework/types.h"

namespace sg {
namespace {

template <typename Fn>
bool DispatchCropType(DataType dt, Fn&& fn) {
  switch (dt) {
    case DT_UINT8: fn(uint8_t{}); return true;
    case DT_UINT16: fn(uint16_t{}); return true;
    case DT_INT8: fn(int8_t{}); return true;
    case DT_INT16: fn(int16_t{}); return true;
    case DT_INT32: fn(int32_t{}); return true;
    case DT_INT64: fn(int64_t{}); return true;
    case DT_HALF: fn(half{}); return true;
    case DT_FLOAT: fn(float{}); return true;
    case DT_DOUBLE: fn(double{}); return true;
    default: return false;
  }
}

class CropAndResizeOp final : public OpKernel {
 public:
  explicit CropAndResizeOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string method;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("method", &method));
    OP_REQUIRES(ctx, method == "bilinear" || method == "nearest",
                errors::InvalidArgument("node '", name(), "': method must be 'bilinear' or ",
                                        "'nearest', got '", method, "'"));
    bilinear_ = method == "bilinear";
    OP_REQUIRES_OK(ctx, ctx->GetAttr("extrapolation_value", &extrapolation_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& image = ctx->input(0);
    const Tensor& boxes = ctx->input(1);
    const Tensor& box_ind = ctx->input(2);
    const Tensor& crop_size = ctx->input(3);
    auto bad = [&](auto... what) {
      return errors::InvalidArgument("node '", name(), "': ", what...);
    };
    OP_REQUIRES(ctx, image.dims() == 4,
                bad("input image must be 4-D, got shape ", image.shape().DebugString()));
    const int64_t batch = image.dim_size(0), height = image.dim_size(1),
                  width = image.dim_size(2), depth = image.dim_size(3);
    OP_REQUIRES(ctx, height > 0 && width > 0, bad("image dimensions must be positive"));
    OP_REQUIRES(ctx, boxes.dims() == 2 && boxes.dim_size(1) == 4,
                bad("boxes must be 2-D [num_boxes, 4], got shape ", boxes.shape().DebugString()));
    const int64_t num_boxes = boxes.dim_size(0);
    OP_REQUIRES(ctx, box_ind.dims() == 1 && box_ind.dim_size(0) == num_boxes,
                bad("box_index has incompatible shape ", box_ind.shape().DebugString(),
                    " for ", num_boxes, " boxes"));
    OP_REQUIRES(ctx, crop_size.dims() == 1 && crop_size.NumElements() == 2,
                bad("crop_size must be a length-2 vector, got shape ",
                    crop_size.shape().DebugString()));
    const int64_t crop_h = crop_size.data<int32_t>()[0], crop_w = crop_size.data<int32_t>()[1];
    OP_REQUIRES(ctx, crop_h > 0 && crop_w > 0, bad("crop dimensions must be positive"));
    const float* b = boxes.data<float>();
    for (int64_t i = 0; i < num_boxes * 4; ++i) {
      OP_REQUIRES(ctx, std::isfinite(b[i]),
                  bad("Boxes contains at least one element that is not finite"));
    }
    const int32_t* index = box_ind.data<int32_t>();
    for (int64_t i = 0; i < num_boxes; ++i) {
      OP_REQUIRES(ctx, index[i] >= 0 && index[i] < batch,
                  errors::OutOfRange("node '", name(), "': box_index has values outside [0, ",
                                     "batch_size) (box_index[", i, "] = ", index[i],
                                     ", batch_size ", batch, ")"));
    }
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({num_boxes, crop_h, crop_w, depth}),
                                             &out));
    const bool ok = DispatchCropType(image.dtype(), [&](auto tag) {
      using T = decltype(tag);
      Crop<T>(image.data<T>(), height, width, depth, b, index, num_boxes, crop_h, crop_w,
              out->data<float>());
    });
    OP_REQUIRES(ctx, ok, bad("unsupported image type ", DataTypeString(image.dtype())));
  }

 private:
  template <typename T>
  void Crop(const T* image, int64_t height, int64_t width, int64_t depth, const float* boxes,
            const int32_t* index, int64_t num_boxes, int64_t crop_h, int64_t crop_w,
            float* out) const {
    auto pixel = [&](int64_t n, int64_t y, int64_t x) {
      return image + ((n * height + y) * width + x) * depth;
    };
    for (int64_t bi = 0; bi < num_boxes; ++bi) {
      const float y1 = boxes[bi * 4], x1 = boxes[bi * 4 + 1], y2 = boxes[bi * 4 + 2],
                  x2 = boxes[bi * 4 + 3];
      const int64_t n = index[bi];
      const float height_scale =
          crop_h > 1 ? (y2 - y1) * static_cast<float>(height - 1) / static_cast<float>(crop_h - 1)
                     : 0.0f;
      const float width_scale =
          crop_w > 1 ? (x2 - x1) * static_cast<float>(width - 1) / static_cast<float>(crop_w - 1)
                     : 0.0f;
      for (int64_t y = 0; y < crop_h; ++y) {
        float* row = out + (bi * crop_h + y) * crop_w * depth;
        const float in_y = crop_h > 1
                               ? y1 * static_cast<float>(height - 1) +
                                     static_cast<float>(y) * height_scale
                               : 0.5f * (y1 + y2) * static_cast<float>(height - 1);
        if (in_y < 0 || in_y > static_cast<float>(height - 1)) {
          std::fill(row, row + crop_w * depth, extrapolation_);
          continue;
        }
        const int64_t top = static_cast<int64_t>(std::floor(in_y));
        const int64_t bottom = static_cast<int64_t>(std::ceil(in_y));
        const float y_lerp = in_y - static_cast<float>(top);
        for (int64_t x = 0; x < crop_w; ++x) {
          float* o = row + x * depth;
          const float in_x = crop_w > 1
                                 ? x1 * static_cast<float>(width - 1) +
                                       static_cast<float>(x) * width_scale
                                 : 0.5f * (x1 + x2) * static_cast<float>(width - 1);
          if (in_x < 0 || in_x > static_cast<float>(width - 1)) {
            std::fill(o, o + depth, extrapolation_);
            continue;
          }
          if (!bilinear_) {
            const T* p = pixel(n, static_cast<int64_t>(std::round(in_y)),
                               static_cast<int64_t>(std::round(in_x)));
            for (int64_t d = 0; d < depth; ++d) o[d] = static_cast<float>(p[d]);
            continue;
          }
          const int64_t left = static_cast<int64_t>(std::floor(in_x));
          const int64_t right = static_cast<int64_t>(std::ceil(in_x));
          const float x_lerp = in_x - static_cast<float>(left);
          const T* tl = pixel(n, top, left);
          const T* tr = pixel(n, top, right);
          const T* bl = pixel(n, bottom, left);
          const T* br = pixel(n, bottom, right);
          for (int64_t d = 0; d < depth; ++d) {
            const float top_v = static_cast<float>(tl[d]) +
                                (static_cast<float>(tr[d]) - static_cast<float>(tl[d])) * x_lerp;
            const float bottom_v =
                static_cast<float>(bl[d]) +
                (static_cast<float>(br[d]) - static_cast<float>(bl[d])) * x_lerp;
            o[d] = top_v + (bottom_v - top_v) * y_lerp;
          }
        }
      }
    }
  }

  bool bilinear_ = true;
  float extrapolation_ = 0;
};
REGISTER_KERNEL_BUILDER(Name("CropAndResize").Device(DEVICE_CPU), CropAndResizeOp);

// Where row (or column) i of a crop samples the image, as the forward op computes it: `lo`/`hi`
// are the box's two normalized edges, `size` the image's extent and `crop` the crop's. The
// single-sample form is computed in double, as TensorFlow's `0.5 * ...` is.
inline float CropSample(float lo, float hi, int64_t size, int64_t crop, int64_t i, float scale) {
  return crop > 1 ? lo * static_cast<float>(size - 1) + static_cast<float>(i) * scale
                  : static_cast<float>(0.5 * (lo + hi) * static_cast<double>(size - 1));
}

inline bool InsideImage(float v, int64_t size) {
  return v >= 0 && v <= static_cast<float>(size - 1);  // false for NaN
}

// Checks boxes [num_boxes, 4] and box_ind [num_boxes] (values in [0, batch)), as TensorFlow's
// ParseAndCheckBoxSizes and RunIfBoxIndexIsValid do.
absl::Status CheckBoxes(OpKernelContext* ctx, const Tensor& boxes, const Tensor& box_ind,
                        int64_t batch, int64_t* num_boxes) {
  const std::string& node = ctx->op_kernel().name();
  if (boxes.NumElements() == 0 && box_ind.NumElements() == 0) {
    *num_boxes = 0;
    return absl::OkStatus();
  }
  if (boxes.dims() != 2 || boxes.dim_size(1) != 4) {
    return errors::InvalidArgument("node '", node, "': boxes must be 2-D [num_boxes, 4], got ",
                                   boxes.shape().DebugString());
  }
  *num_boxes = boxes.dim_size(0);
  if (box_ind.dims() != 1 || box_ind.dim_size(0) != *num_boxes) {
    return errors::InvalidArgument("node '", node, "': box_index has incompatible shape ",
                                   box_ind.shape().DebugString());
  }
  const int32_t* index = box_ind.data<int32_t>();
  for (int64_t i = 0; i < *num_boxes; ++i) {
    if (index[i] < 0 || index[i] >= batch) {
      return errors::OutOfRange("node '", node, "': box_index has values outside [0, ",
                                "batch_size) (box_index[", i, "] = ", index[i], ")");
    }
  }
  return absl::OkStatus();
}

class CropAndResizeGradImageOp final : public OpKernel {
 public:
  explicit CropAndResizeGradImageOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string method;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("method", &method));
    OP_REQUIRES(ctx, method == "bilinear" || method == "nearest",
                errors::InvalidArgument("node '", name(), "': method must be 'bilinear' or ",
                                        "'nearest', got '", method, "'"));
    bilinear_ = method == "bilinear";
  }

  // grads [num_boxes, crop_h, crop_w, depth], boxes, box_ind, image_size [4] in; the image's
  // gradient [image_size] (dtype T) out.
  void Compute(OpKernelContext* ctx) override {
    const Tensor& grads = ctx->input(0);
    const Tensor& boxes = ctx->input(1);
    const Tensor& box_ind = ctx->input(2);
    const Tensor& image_size = ctx->input(3);
    auto bad = [&](auto... what) {
      return errors::InvalidArgument("node '", name(), "': ", what...);
    };
    OP_REQUIRES(ctx, grads.dims() == 4,
                bad("grads image must be 4-D, got shape ", grads.shape().DebugString()));
    const int64_t crop_h = grads.dim_size(1), crop_w = grads.dim_size(2);
    OP_REQUIRES(ctx, crop_h > 0 && crop_w > 0, bad("grads dimensions must be positive"));
    OP_REQUIRES(ctx, image_size.dims() == 1,
                bad("image_size must be 1-D, got shape ", image_size.shape().DebugString()));
    OP_REQUIRES(ctx, image_size.dim_size(0) == 4,
                bad("image_size must have 4 elements, got shape ",
                    image_size.shape().DebugString()));
    const int32_t* size = image_size.data<int32_t>();
    const int64_t batch = size[0], height = size[1], width = size[2], depth = size[3];
    int64_t num_boxes;
    // TensorFlow checks the box shapes before image_size's values and the indices after.
    OP_REQUIRES_OK(ctx, CheckBoxes(ctx, boxes, box_ind, INT64_MAX, &num_boxes));
    OP_REQUIRES(ctx, grads.dim_size(0) == num_boxes,
                bad("boxes and grads have incompatible shape"));
    OP_REQUIRES(ctx, height > 0 && width > 0, bad("image dimensions must be positive"));
    OP_REQUIRES(ctx, grads.dim_size(3) == depth, bad("image_size and grads are incompatible"));
    OP_REQUIRES(ctx, batch >= 0, bad("image_size[0] must be >= 0, got ", batch));
    auto shape = TensorShape::Build({batch, height, width, depth});
    OP_REQUIRES(ctx, shape.ok(), bad(shape.status().message()));
    OP_REQUIRES_OK(ctx, CheckBoxes(ctx, boxes, box_ind, batch, &num_boxes));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, *shape, &out));
    const bool ok = DispatchFloat(out->dtype(), [&](auto tag) {
      using T = decltype(tag);
      T* image = out->data<T>();
      std::fill(image, image + out->NumElements(), T(0));
      const float* b = boxes.data<float>();
      const float* g = grads.data<float>();
      const int32_t* index = box_ind.data<int32_t>();
      auto at = [&](int64_t n, int64_t y, int64_t x) {
        return image + ((n * height + y) * width + x) * depth;
      };
      for (int64_t bi = 0; bi < num_boxes; ++bi) {
        const float y1 = b[bi * 4], x1 = b[bi * 4 + 1], y2 = b[bi * 4 + 2], x2 = b[bi * 4 + 3];
        const int64_t n = index[bi];
        const float height_scale =
            crop_h > 1 ? (y2 - y1) * static_cast<float>(height - 1) /
                             static_cast<float>(crop_h - 1)
                       : 0.0f;
        const float width_scale =
            crop_w > 1 ? (x2 - x1) * static_cast<float>(width - 1) /
                             static_cast<float>(crop_w - 1)
                       : 0.0f;
        for (int64_t y = 0; y < crop_h; ++y) {
          const float in_y = CropSample(y1, y2, height, crop_h, y, height_scale);
          if (!InsideImage(in_y, height)) continue;
          const int64_t top = static_cast<int64_t>(std::floor(in_y));
          const int64_t bottom = static_cast<int64_t>(std::ceil(in_y));
          const float y_lerp = in_y - static_cast<float>(top);
          for (int64_t x = 0; x < crop_w; ++x) {
            const float in_x = CropSample(x1, x2, width, crop_w, x, width_scale);
            if (!InsideImage(in_x, width)) continue;
            const float* gp = g + ((bi * crop_h + y) * crop_w + x) * depth;
            if (!bilinear_) {
              T* p = at(n, static_cast<int64_t>(std::round(in_y)),
                        static_cast<int64_t>(std::round(in_x)));
              for (int64_t d = 0; d < depth; ++d) p[d] = p[d] + static_cast<T>(gp[d]);
              continue;
            }
            const int64_t left = static_cast<int64_t>(std::floor(in_x));
            const int64_t right = static_cast<int64_t>(std::ceil(in_x));
            const float x_lerp = in_x - static_cast<float>(left);
            T* tl = at(n, top, left);
            T* tr = at(n, top, right);
            T* bl = at(n, bottom, left);
            T* br = at(n, bottom, right);
            for (int64_t d = 0; d < depth; ++d) {
              const float dtop = (1 - y_lerp) * gp[d];
              tl[d] = tl[d] + static_cast<T>((1 - x_lerp) * dtop);
              tr[d] = tr[d] + static_cast<T>(x_lerp * dtop);
              const float dbottom = y_lerp * gp[d];
              bl[d] = bl[d] + static_cast<T>((1 - x_lerp) * dbottom);
              br[d] = br[d] + static_cast<T>(x_lerp * dbottom);
            }
          }
        }
      }
    });
    OP_REQUIRES(ctx, ok, bad("unsupported output type ", DataTypeString(out->dtype())));
  }

 private:
  bool bilinear_ = true;
};
REGISTER_KERNEL_BUILDER(Name("CropAndResizeGradImage").Device(DEVICE_CPU),
                        CropAndResizeGradImageOp);

class CropAndResizeGradBoxesOp final : public OpKernel {
 public:
  explicit CropAndResizeGradBoxesOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string method;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("method", &method));
    OP_REQUIRES(ctx, method == "bilinear",
                errors::InvalidArgument("node '", name(), "': method must be 'bilinear', got '",
                                        method, "'"));
  }

  // grads [num_boxes, crop_h, crop_w, depth], image [batch, height, width, depth], boxes,
  // box_ind in; the boxes' gradient [num_boxes, 4] (float) out.
  void Compute(OpKernelContext* ctx) override {
    const Tensor& grads = ctx->input(0);
    const Tensor& image = ctx->input(1);
    const Tensor& boxes = ctx->input(2);
    const Tensor& box_ind = ctx->input(3);
    auto bad = [&](auto... what) {
      return errors::InvalidArgument("node '", name(), "': ", what...);
    };
    OP_REQUIRES(ctx, grads.dims() == 4,
                bad("grads image must be 4-D, got shape ", grads.shape().DebugString()));
    const int64_t crop_h = grads.dim_size(1), crop_w = grads.dim_size(2),
                  depth = grads.dim_size(3);
    OP_REQUIRES(ctx, crop_h > 0 && crop_w > 0, bad("grads dimensions must be positive"));
    OP_REQUIRES(ctx, image.dims() == 4,
                bad("input image must be 4-D, got shape ", image.shape().DebugString()));
    const int64_t batch = image.dim_size(0), height = image.dim_size(1),
                  width = image.dim_size(2);
    OP_REQUIRES(ctx, height > 0 && width > 0, bad("image dimensions must be positive"));
    OP_REQUIRES(ctx, image.dim_size(3) == depth, bad("image, grads depth differ"));
    int64_t num_boxes;
    OP_REQUIRES_OK(ctx, CheckBoxes(ctx, boxes, box_ind, INT64_MAX, &num_boxes));
    OP_REQUIRES(ctx, grads.dim_size(0) == num_boxes,
                bad("boxes and grads have incompatible shape"));
    OP_REQUIRES_OK(ctx, CheckBoxes(ctx, boxes, box_ind, batch, &num_boxes));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({num_boxes, 4}), &out));
    float* db = out->data<float>();
    std::fill(db, db + num_boxes * 4, 0.0f);
    const bool ok = DispatchCropType(image.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const T* img = image.data<T>();
      const float* b = boxes.data<float>();
      const float* g = grads.data<float>();
      const int32_t* index = box_ind.data<int32_t>();
      auto at = [&](int64_t n, int64_t y, int64_t x) {
        return img + ((n * height + y) * width + x) * depth;
      };
      const float height_ratio =
          crop_h > 1 ? static_cast<float>(height - 1) / static_cast<float>(crop_h - 1) : 0.0f;
      const float width_ratio =
          crop_w > 1 ? static_cast<float>(width - 1) / static_cast<float>(crop_w - 1) : 0.0f;
      for (int64_t bi = 0; bi < num_boxes; ++bi) {
        const float y1 = b[bi * 4], x1 = b[bi * 4 + 1], y2 = b[bi * 4 + 2], x2 = b[bi * 4 + 3];
        const int64_t n = index[bi];
        const float height_scale = crop_h > 1 ? (y2 - y1) * height_ratio : 0.0f;
        const float width_scale = crop_w > 1 ? (x2 - x1) * width_ratio : 0.0f;
        float* o = db + bi * 4;
        for (int64_t y = 0; y < crop_h; ++y) {
          const float in_y = CropSample(y1, y2, height, crop_h, y, height_scale);
          if (!InsideImage(in_y, height)) continue;
          const int64_t top = static_cast<int64_t>(std::floor(in_y));
          const int64_t bottom = static_cast<int64_t>(std::ceil(in_y));
          const float y_lerp = in_y - static_cast<float>(top);
          for (int64_t x = 0; x < crop_w; ++x) {
            const float in_x = CropSample(x1, x2, width, crop_w, x, width_scale);
            if (!InsideImage(in_x, width)) continue;
            const int64_t left = static_cast<int64_t>(std::floor(in_x));
            const int64_t right = static_cast<int64_t>(std::ceil(in_x));
            const float x_lerp = in_x - static_cast<float>(left);
            const T* tlp = at(n, top, left);
            const T* trp = at(n, top, right);
            const T* blp = at(n, bottom, left);
            const T* brp = at(n, bottom, right);
            const float* gp = g + ((bi * crop_h + y) * crop_w + x) * depth;
            for (int64_t d = 0; d < depth; ++d) {
              const float tl = static_cast<float>(tlp[d]), tr = static_cast<float>(trp[d]);
              const float bl = static_cast<float>(blp[d]), br = static_cast<float>(brp[d]);
              float grad_y = (1 - x_lerp) * (bl - tl) + x_lerp * (br - tr);
              float grad_x = (1 - y_lerp) * (tr - tl) + y_lerp * (br - bl);
              grad_y *= gp[d];
              grad_x *= gp[d];
              if (crop_h > 1) {
                o[0] += grad_y * (static_cast<float>(height - 1) -
                                  static_cast<float>(y) * height_ratio);
                o[2] += grad_y * (static_cast<float>(y) * height_ratio);
              } else {  // in double, as TensorFlow's `* 0.5 *`
                const double half = grad_y * 0.5 * static_cast<double>(height - 1);
                o[0] = static_cast<float>(o[0] + half);
                o[2] = static_cast<float>(o[2] + half);
              }
              if (crop_w > 1) {
                o[1] += grad_x * (static_cast<float>(width - 1) -
                                  static_cast<float>(x) * width_ratio);
                o[3] += grad_x * (static_cast<float>(x) * width_ratio);
              } else {
                const double half = grad_x * 0.5 * static_cast<double>(width - 1);
                o[1] = static_cast<float>(o[1] + half);
                o[3] = static_cast<float>(o[3] + half);
              }
            }
          }
        }
      }
    });
    OP_REQUIRES(ctx, ok, bad("unsupported image type ", DataTypeString(image.dtype())));
  }
};
REGISTER_KERNEL_BUILDER(Name("CropAndResizeGradBoxes").Device(DEVICE_CPU),
                        CropAndResizeGradBoxesOp);

}  // namespace
}  // namespace sg
