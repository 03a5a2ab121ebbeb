// CropAndResize: for each box (y1, x1, y2, x2, normalized so that 0 and 1 are the first and last
// pixel centers) of image[box_ind[b]], a crop_height x crop_width float sample, bilinear or nearest,
// with extrapolation_value where a sample falls outside the image. The sampling arithmetic and its
// order are TensorFlow's (crop_and_resize_op.cc), in float, so the crops match its bits (this file
// is built without fused multiply-adds, as every image_*.cc).
#include <cmath>
#include <vector>

#include "core/framework/op_kernel.h"

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

}  // namespace
}  // namespace sg
