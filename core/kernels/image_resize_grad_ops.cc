// ResizeBilinearGrad, ResizeNearestNeighborGrad and ResizeBicubicGrad: the gradients of
// ResizeBilinear, ResizeNearestNeighbor and ResizeBicubic (image_resize_ops.cc), as
// TensorFlow's CPU kernels compute them. Each
// resized pixel's gradient goes back to the input pixels it was sampled from, with the forward
// op's weights; the source coordinates are the forward op's (align_corners, half_pixel_centers),
// in float.
//
//   ResizeBilinearGrad(grads [b, h, w, c] float, original_image [., H, W, .] of T) ->
//     [b, H, W, c] of T: each grads pixel adds its four weighted shares, pixels in row-major
//     order. double adds each share in double; half and bfloat16 accumulate in float and round
//     once, as TensorFlow does.
//   ResizeNearestNeighborGrad(grads [b, h, w, c] of T, size [H, W] int32) -> [b, H, W, c] of T:
//     each grads pixel adds into the pixel the forward op read, in T.
//   ResizeBicubicGrad(grads [b, h, w, c] float, original_image [., H, W, .] float or double) ->
//     [b, H, W, c] of T: each grads pixel adds its 16 shares (grad * row weight * column weight,
//     the forward op's cubic weights, image_resize_cubic.h) in T, rows then columns, grads
//     pixels in row-major order.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/kernels/cwise_ops_common.h"
#include "core/kernels/image_resize_cubic.h"

namespace sg {
namespace {

// TensorFlow's CalculateResizeScale: `from` pixels sampled onto `to` pixels.
float GradScale(int64_t from, int64_t to, bool align_corners) {
  return align_corners && to > 1 ? static_cast<float>(from - 1) / static_cast<float>(to - 1)
                                 : static_cast<float>(from) / static_cast<float>(to);
}

class ResizeBilinearGradOp final : public OpKernel {
 public:
  explicit ResizeBilinearGradOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("align_corners", &align_corners_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("half_pixel_centers", &half_pixel_centers_));
  }

  void Compute(OpKernelContext* ctx) override {
    OP_REQUIRES(ctx, !(half_pixel_centers_ && align_corners_),
                KernelError(*this, "If half_pixel_centers is True, align_corners must be False."));
    const Tensor& grads = ctx->input(0);
    const Tensor& original = ctx->input(1);
    OP_REQUIRES(ctx, grads.dims() == 4,
                KernelError(*this, "input_grad must be 4-dimensional",
                            grads.shape().DebugString()));
    const int64_t batch = grads.dim_size(0), h = grads.dim_size(1), w = grads.dim_size(2),
                  c = grads.dim_size(3);
    OP_REQUIRES(ctx, h > 0 && w > 0, KernelError(*this, "resized dimensions must be positive."));
    OP_REQUIRES(ctx, original.dims() == 4,
                KernelError(*this, "original_image must be 4-dimensional",
                            original.shape().DebugString()));
    const int64_t in_h = original.dim_size(1), in_w = original.dim_size(2);
    OP_REQUIRES(ctx, in_h < INT32_MAX && in_w < INT32_MAX,
                KernelError(*this, "original sizes must be between 0 and max int32"));
    const float height_scale = GradScale(in_h, h, align_corners_);
    const float width_scale = GradScale(in_w, w, align_corners_);
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({batch, in_h, in_w, c}), &out));
    if (out->NumElements() == 0) return;
    const bool ok = DispatchTypes(FloatTypesWithBf16(), out->dtype(), [&](auto tag) {
      using T = decltype(tag);
      // half and bfloat16 sum in float; float and double in T.
      using A = std::conditional_t<std::is_same_v<T, double>, double, float>;
      std::vector<A> acc(out->NumElements(), A(0));
      const float* g = grads.data<float>();
      for (int64_t b = 0; b < batch; ++b) {
        for (int64_t y = 0; y < h; ++y) {
          const float in_y = Source(y, height_scale);
          const int64_t top = std::max(static_cast<int64_t>(std::floor(in_y)), int64_t{0});
          const int64_t bottom = std::min(static_cast<int64_t>(std::ceil(in_y)), in_h - 1);
          const float y_lerp = in_y - std::floor(in_y);
          const float inv_y = 1.0f - y_lerp;
          for (int64_t x = 0; x < w; ++x) {
            const float in_x = Source(x, width_scale);
            const int64_t left = std::max(static_cast<int64_t>(std::floor(in_x)), int64_t{0});
            const int64_t right = std::min(static_cast<int64_t>(std::ceil(in_x)), in_w - 1);
            const float x_lerp = in_x - std::floor(in_x);
            const float inv_x = 1.0f - x_lerp;
            const float* gp = g + ((b * h + y) * w + x) * c;
            A* tl = acc.data() + ((b * in_h + top) * in_w + left) * c;
            A* tr = acc.data() + ((b * in_h + top) * in_w + right) * c;
            A* bl = acc.data() + ((b * in_h + bottom) * in_w + left) * c;
            A* br = acc.data() + ((b * in_h + bottom) * in_w + right) * c;
            for (int64_t k = 0; k < c; ++k) {
              tl[k] += static_cast<A>(gp[k] * inv_y * inv_x);
              tr[k] += static_cast<A>(gp[k] * inv_y * x_lerp);
              bl[k] += static_cast<A>(gp[k] * y_lerp * inv_x);
              br[k] += static_cast<A>(gp[k] * y_lerp * x_lerp);
            }
          }
        }
      }
      T* o = out->data<T>();
      for (size_t i = 0; i < acc.size(); ++i) o[i] = static_cast<T>(acc[i]);
    });
    OP_REQUIRES(ctx, ok, UnsupportedType(*this, out->dtype()));
  }

 private:
  float Source(int64_t i, float scale) const {
    return half_pixel_centers_ ? (static_cast<float>(i) + 0.5f) * scale - 0.5f
                               : static_cast<float>(i) * scale;
  }

  bool align_corners_ = false, half_pixel_centers_ = false;
};
REGISTER_KERNEL_BUILDER(Name("ResizeBilinearGrad")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", DataTypesOf(FloatTypesWithBf16())),
                        ResizeBilinearGradOp);

using NearestGradTypes = TypeList<float, double, half, bfloat16, int8_t, uint8_t, int16_t,
                                  uint16_t, int32_t, int64_t, uint32_t, uint64_t>;

// Unlike the forward op, TensorFlow's gradient accepts align_corners and half_pixel_centers
// together (rounding half-pixel coordinates).
class ResizeNearestNeighborGradOp final : public OpKernel {
 public:
  explicit ResizeNearestNeighborGradOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("align_corners", &align_corners_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("half_pixel_centers", &half_pixel_centers_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& grads = ctx->input(0);
    const Tensor& size = ctx->input(1);
    OP_REQUIRES(ctx, grads.dims() == 4,
                KernelError(*this, "input must be 4-dimensional", grads.shape().DebugString()));
    OP_REQUIRES(ctx, size.dims() == 1,
                KernelError(*this, "shape_t must be 1-dimensional", size.shape().DebugString()));
    OP_REQUIRES(ctx, size.NumElements() == 2,
                KernelError(*this, "shape_t must have two elements",
                            size.shape().DebugString()));
    const int64_t out_h = size.data<int32_t>()[0], out_w = size.data<int32_t>()[1];
    OP_REQUIRES(ctx, out_h > 0 && out_w > 0,
                KernelError(*this, "shape_t's elements must be positive"));
    const int64_t batch = grads.dim_size(0), h = grads.dim_size(1), w = grads.dim_size(2),
                  c = grads.dim_size(3);
    auto shape = TensorShape::Build({batch, out_h, out_w, c});
    OP_REQUIRES(ctx, shape.ok(), KernelError(*this, shape.status().message()));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, *shape, &out));
    if (out->NumElements() == 0) return;
    const float height_scale = GradScale(out_h, h, align_corners_);
    const float width_scale = GradScale(out_w, w, align_corners_);
    std::vector<int64_t> ys(h), xs(w);
    for (int64_t y = 0; y < h; ++y) ys[y] = Target(y, height_scale, out_h);
    for (int64_t x = 0; x < w; ++x) xs[x] = Target(x, width_scale, out_w);
    const bool ok = DispatchTypes(NearestGradTypes(), grads.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const T* g = grads.data<T>();
      T* o = out->data<T>();
      std::fill(o, o + out->NumElements(), T(0));
      for (int64_t y = 0; y < h; ++y) {
        for (int64_t x = 0; x < w; ++x) {
          for (int64_t b = 0; b < batch; ++b) {
            const T* src = g + ((b * h + y) * w + x) * c;
            T* dst = o + ((b * out_h + ys[y]) * out_w + xs[x]) * c;
            for (int64_t k = 0; k < c; ++k) dst[k] = static_cast<T>(dst[k] + src[k]);
          }
        }
      }
    });
    OP_REQUIRES(ctx, ok, UnsupportedType(*this, grads.dtype()));
  }

 private:
  // The output pixel that grads pixel i came from (as the forward op picks it).
  int64_t Target(int64_t i, float scale, int64_t limit) const {
    const float in = half_pixel_centers_ ? (static_cast<float>(i) + 0.5f) * scale
                                         : static_cast<float>(i) * scale;
    const int64_t v = static_cast<int64_t>(align_corners_ ? std::round(in) : std::floor(in));
    return std::max(std::min(v, limit - 1), int64_t{0});
  }

  bool align_corners_ = false, half_pixel_centers_ = false;
};
REGISTER_KERNEL_BUILDER(Name("ResizeNearestNeighborGrad")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", DataTypesOf(NearestGradTypes())),
                        ResizeNearestNeighborGradOp);

class ResizeBicubicGradOp final : public OpKernel {
 public:
  explicit ResizeBicubicGradOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("align_corners", &align_corners_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("half_pixel_centers", &half_pixel_centers_));
  }

  void Compute(OpKernelContext* ctx) override {
    OP_REQUIRES(ctx, !(half_pixel_centers_ && align_corners_),
                KernelError(*this, "If half_pixel_centers is True, align_corners must be False."));
    const Tensor& grads = ctx->input(0);
    const Tensor& original = ctx->input(1);
    OP_REQUIRES(ctx, grads.dims() == 4,
                KernelError(*this, "input_grad must be 4-dimensional",
                            grads.shape().DebugString()));
    const int64_t batch = grads.dim_size(0), h = grads.dim_size(1), w = grads.dim_size(2),
                  c = grads.dim_size(3);
    OP_REQUIRES(ctx, h > 0 && w > 0, KernelError(*this, "resized dimensions must be positive."));
    OP_REQUIRES(ctx, original.dims() == 4,
                KernelError(*this, "original_image must be 4-dimensional",
                            original.shape().DebugString()));
    const int64_t in_h = original.dim_size(1), in_w = original.dim_size(2);
    OP_REQUIRES(ctx, in_h > 0 && in_w > 0,
                KernelError(*this, "original dimensions must be positive."));
    OP_REQUIRES(ctx, in_h < INT32_MAX && in_w < INT32_MAX,
                KernelError(*this, "original sizes must be between 0 and max int32"));
    const float height_scale = GradScale(in_h, h, align_corners_);
    const float width_scale = GradScale(in_w, w, align_corners_);
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({batch, in_h, in_w, c}), &out));
    if (out->NumElements() == 0) return;
    std::vector<resize_cubic::CubicSample> xs(w);
    for (int64_t x = 0; x < w; ++x) {
      xs[x] = resize_cubic::CubicAt(x, in_w, width_scale, half_pixel_centers_);
    }
    const bool ok = DispatchTypes(TypeList<float, double>(), out->dtype(), [&](auto tag) {
      using T = decltype(tag);
      const float* g = grads.data<float>();
      T* o = out->data<T>();
      std::fill(o, o + out->NumElements(), T(0));
      for (int64_t b = 0; b < batch; ++b) {
        for (int64_t y = 0; y < h; ++y) {
          const resize_cubic::CubicSample sy =
              resize_cubic::CubicAt(y, in_h, height_scale, half_pixel_centers_);
          for (int64_t x = 0; x < w; ++x) {
            const resize_cubic::CubicSample& sx = xs[x];
            for (int64_t k = 0; k < c; ++k) {
              // The grad is taken to T first, then times each weight (in T).
              const T grad = static_cast<T>(g[((b * h + y) * w + x) * c + k]);
              for (int i = 0; i < 4; ++i) {
                T* row = o + (b * in_h + sy.index[i]) * in_w * c + k;
                for (int j = 0; j < 4; ++j) {
                  row[sx.index[j] * c] += grad * sy.weight[i] * sx.weight[j];
                }
              }
            }
          }
        }
      }
    });
    OP_REQUIRES(ctx, ok, UnsupportedType(*this, out->dtype()));
  }

 private:
  bool align_corners_ = false, half_pixel_centers_ = false;
};
REGISTER_KERNEL_BUILDER(Name("ResizeBicubicGrad")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", DataTypesOf(TypeList<float, double>())),
                        ResizeBicubicGradOp);

}  // namespace
}  // namespace sg
