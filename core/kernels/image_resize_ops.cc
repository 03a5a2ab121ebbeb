// ResizeBilinear, ResizeNearestNeighbor, ResizeBicubic and ResizeArea: images [batch, height,
// width, channels] of any real dtype and size [2] int32 (new height, new width) in; [batch,
// new_height, new_width, channels] out, float (nearest neighbor: the input's dtype). The source
// coordinates, weights and the order of each sum are TensorFlow's (resize_*_op.cc and
// image_resizer_state.h), in float, so the outputs match its bits:
//   align_corners: scale (in - 1) / (out - 1), so the corner pixels' centers meet;
//   half_pixel_centers: pixel centers at +0.5 (out x samples (x + 0.5) * scale - 0.5);
//   neither: TensorFlow's legacy out x samples x * scale.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"
#include "core/kernels/image_resize_cubic.h"
#include "core/kernels/parallel_for.h"

namespace sg {
namespace {

// Calls fn(T{}) for the dtypes the resize ops take.
template <typename Fn>
bool DispatchImageType(DataType dt, Fn&& fn) {
  switch (dt) {
    case DT_INT8: fn(int8_t{}); return true;
    case DT_UINT8: fn(uint8_t{}); return true;
    case DT_INT16: fn(int16_t{}); return true;
    case DT_UINT16: fn(uint16_t{}); return true;
    case DT_INT32: fn(int32_t{}); return true;
    case DT_INT64: fn(int64_t{}); return true;
    case DT_BFLOAT16: fn(bfloat16{}); return true;
    case DT_HALF: fn(half{}); return true;
    case DT_FLOAT: fn(float{}); return true;
    case DT_DOUBLE: fn(double{}); return true;
    default: return false;
  }
}

// The sizes and scales of one resize, checked as TensorFlow's ImageResizerState does.
struct Resize {
  int64_t batch, in_height, in_width, out_height, out_width, channels;
  float height_scale, width_scale;
};

// align_corners needs two pixels on each side (a single one has no corners to align).
float ResizeScale(int64_t in, int64_t out, bool align_corners) {
  return align_corners && in > 1 && out > 1
             ? static_cast<float>(in - 1) / static_cast<float>(out - 1)
             : static_cast<float>(in) / static_cast<float>(out);
}

// Where out pixel x samples, in input pixel coordinates.
inline float HalfPixel(int64_t x, float scale) {
  return (static_cast<float>(x) + 0.5f) * scale - 0.5f;
}
inline float Legacy(int64_t x, float scale) { return static_cast<float>(x) * scale; }

absl::Status ValidateResize(OpKernelContext* ctx, bool align_corners, bool half_pixel_centers,
                            Resize* r) {
  if (half_pixel_centers && align_corners) {
    return NodeError(ctx, "If half_pixel_centers is True, align_corners must be False.");
  }
  const Tensor& images = ctx->input(0);
  if (images.dims() != 4) {
    return NodeError(ctx, "input must be 4-dimensional", images.shape().DebugString());
  }
  r->batch = images.dim_size(0);
  r->channels = images.dim_size(3);
  if (r->channels <= 0) return NodeError(ctx, "image must have at least one channel");
  r->in_height = images.dim_size(1);
  r->in_width = images.dim_size(2);
  if (r->in_height <= 0 || r->in_width <= 0) {
    return NodeError(ctx, "input image must be of non-zero size");
  }
  if (r->in_height >= INT32_MAX || r->in_width >= INT32_MAX) {
    return NodeError(ctx, "input sizes must be between 0 and max int32");
  }
  const Tensor& size = ctx->input(1);
  if (size.dims() != 1) {
    return NodeError(ctx, "shape_t must be 1-dimensional", size.shape().DebugString());
  }
  if (size.NumElements() != 2) {
    return NodeError(ctx, "shape_t must have two elements", size.shape().DebugString());
  }
  r->out_height = size.data<int32_t>()[0];
  r->out_width = size.data<int32_t>()[1];
  if (r->out_height <= 0 || r->out_width <= 0) {
    return NodeError(ctx, "output dimensions must be positive");
  }
  r->height_scale = ResizeScale(r->in_height, r->out_height, align_corners);
  r->width_scale = ResizeScale(r->in_width, r->out_width, align_corners);
  if (std::ceil((r->out_height - 1) * r->height_scale) > static_cast<float>(INT64_MAX)) {
    return NodeError(ctx, "input image height scale would cause an overflow");
  }
  if (std::ceil((r->out_width - 1) * r->width_scale) > static_cast<float>(INT32_MAX)) {
    return NodeError(ctx, "input image width scale would cause an overflow");
  }
  return absl::OkStatus();
}

// Runs fn(b, y) for every output row, split across the device's threads.
template <typename Fn>
void ForEachRow(OpKernelContext* ctx, const Resize& r, double cost_per_row, Fn fn) {
  ParallelFor(ctx->eigen_cpu_device(),
      r.batch * r.out_height, Eigen::TensorOpCost(0, 0, cost_per_row),
      [&](Eigen::Index begin, Eigen::Index end) {
        for (Eigen::Index i = begin; i < end; ++i) fn(i / r.out_height, i % r.out_height);
      });
}

// ---- bilinear -----------------------------------------------------------------------------

struct Lerp {
  int64_t lower, upper;  // the two source pixels
  float weight;          // of the upper one
};

std::vector<Lerp> LerpWeights(int64_t out_size, int64_t in_size, float scale, bool half_pixel) {
  std::vector<Lerp> lerps(out_size);
  for (int64_t i = 0; i < out_size; ++i) {
    const float in = half_pixel ? HalfPixel(i, scale) : Legacy(i, scale);
    const float in_floor = std::floor(in);
    lerps[i].lower = std::max(static_cast<int64_t>(in_floor), int64_t{0});
    lerps[i].upper = std::min(static_cast<int64_t>(std::ceil(in)), in_size - 1);
    lerps[i].weight = in - in_floor;
  }
  return lerps;
}

// What ResizeBilinear and ResizeBicubic share: their attrs, the checks, and a float output of
// [batch, out_height, out_width, channels] that Impl::Fill<T> writes from the input's elements.
template <typename Impl>
class FloatResizeOp : public OpKernel {
 public:
  explicit FloatResizeOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("align_corners", &align_corners_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("half_pixel_centers", &half_pixel_centers_));
  }

  void Compute(OpKernelContext* ctx) override {
    Resize r;
    OP_REQUIRES_OK(ctx, ValidateResize(ctx, align_corners_, half_pixel_centers_, &r));
    Tensor* output;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(
                            0, TensorShape({r.batch, r.out_height, r.out_width, r.channels}),
                            &output));
    if (output->NumElements() == 0) return;
    DispatchImageType(ctx->input(0).dtype(), [&](auto tag) {
      static_cast<Impl*>(this)->template Fill<decltype(tag)>(
          ctx, r, ctx->input(0).data<decltype(tag)>(), output->data<float>());
    });
  }

 protected:
  bool align_corners_, half_pixel_centers_;
};

class ResizeBilinearOp final : public FloatResizeOp<ResizeBilinearOp> {
 public:
  using FloatResizeOp::FloatResizeOp;

  template <typename T>
  void Fill(OpKernelContext* ctx, const Resize& r, const T* in, float* out) {
    const int64_t c = r.channels, in_row = r.in_width * c, out_row = r.out_width * c;
    if (r.out_height == r.in_height && r.out_width == r.in_width) {
      const int64_t n = r.batch * r.in_height * in_row;
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<float>(in[i]);
      return;
    }
    const std::vector<Lerp> ys =
        LerpWeights(r.out_height, r.in_height, r.height_scale, half_pixel_centers_);
    const std::vector<Lerp> xs =
        LerpWeights(r.out_width, r.in_width, r.width_scale, half_pixel_centers_);
    ForEachRow(ctx, r, 8.0 * out_row, [&](int64_t b, int64_t y) {
      const T* top = in + (b * r.in_height + ys[y].lower) * in_row;
      const T* bottom = in + (b * r.in_height + ys[y].upper) * in_row;
      const float dy = ys[y].weight;
      float* o = out + (b * r.out_height + y) * out_row;
      for (int64_t x = 0; x < r.out_width; ++x) {
        const int64_t left = xs[x].lower * c, right = xs[x].upper * c;
        const float dx = xs[x].weight;
        for (int64_t k = 0; k < c; ++k) {
          const float tl = static_cast<float>(top[left + k]);
          const float tr = static_cast<float>(top[right + k]);
          const float bl = static_cast<float>(bottom[left + k]);
          const float br = static_cast<float>(bottom[right + k]);
          const float t = tl + (tr - tl) * dx;
          const float bo = bl + (br - bl) * dx;
          o[x * c + k] = t + (bo - t) * dy;
        }
      }
    });
  }

};
REGISTER_KERNEL_BUILDER(Name("ResizeBilinear").Device(DEVICE_CPU), ResizeBilinearOp);

// ---- nearest neighbor ---------------------------------------------------------------------

std::vector<int64_t> NearestIndices(int64_t out_size, int64_t in_size, float scale,
                                    bool align_corners, bool half_pixel) {
  std::vector<int64_t> indices(out_size);
  for (int64_t i = 0; i < out_size; ++i) {
    // With half-pixel centers the -0.5 is left out: floor (or round) does the right thing.
    const float in = half_pixel ? (static_cast<float>(i) + 0.5f) * scale : Legacy(i, scale);
    int64_t x = std::min(static_cast<int64_t>(align_corners ? std::round(in) : std::floor(in)),
                         in_size - 1);
    if (half_pixel) x = std::max(x, int64_t{0});
    indices[i] = x;
  }
  return indices;
}

class ResizeNearestNeighborOp final : public OpKernel {
 public:
  explicit ResizeNearestNeighborOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("align_corners", &align_corners_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("half_pixel_centers", &half_pixel_centers_));
  }

  void Compute(OpKernelContext* ctx) override {
    Resize r;
    OP_REQUIRES_OK(ctx, ValidateResize(ctx, align_corners_, half_pixel_centers_, &r));
    OP_REQUIRES(ctx, r.in_height < (1 << 24) && r.in_width < (1 << 24),
                NodeError(ctx, "nearest neighbor requires max height & width of 2^24"));
    const Tensor& images = ctx->input(0);
    Tensor* output;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(
                            0, TensorShape({r.batch, r.out_height, r.out_width, r.channels}),
                            &output));
    if (output->NumElements() == 0) return;
    const std::vector<int64_t> ys = NearestIndices(r.out_height, r.in_height, r.height_scale,
                                                   align_corners_, half_pixel_centers_);
    const std::vector<int64_t> xs = NearestIndices(r.out_width, r.in_width, r.width_scale,
                                                   align_corners_, half_pixel_centers_);
    const size_t pixel = static_cast<size_t>(r.channels) * DataTypeSize(images.dtype());
    const char* in = static_cast<const char*>(images.raw_data());
    char* out = static_cast<char*>(output->raw_data());
    ForEachRow(ctx, r, 1.0 * r.out_width * pixel, [&](int64_t b, int64_t y) {
      const char* src = in + (b * r.in_height + ys[y]) * r.in_width * pixel;
      char* dst = out + (b * r.out_height + y) * r.out_width * pixel;
      for (int64_t x = 0; x < r.out_width; ++x) {
        std::memcpy(dst + x * pixel, src + xs[x] * pixel, pixel);
      }
    });
  }

 private:
  bool align_corners_, half_pixel_centers_;
};
REGISTER_KERNEL_BUILDER(Name("ResizeNearestNeighbor").Device(DEVICE_CPU),
                        ResizeNearestNeighborOp);

// ---- bicubic ------------------------------------------------------------------------------

// The sampling (image_resize_cubic.h) is shared with ResizeBicubicGrad.
using resize_cubic::CubicAt;
using Cubic = resize_cubic::CubicSample;

class ResizeBicubicOp final : public FloatResizeOp<ResizeBicubicOp> {
 public:
  using FloatResizeOp::FloatResizeOp;

  template <typename T>
  void Fill(OpKernelContext* ctx, const Resize& r, const T* in, float* out) {
    const int64_t c = r.channels, in_row = r.in_width * c, out_row = r.out_width * c;
    std::vector<Cubic> xs(r.out_width);
    for (int64_t x = 0; x < r.out_width; ++x) {
      xs[x] = CubicAt(x, r.in_width, r.width_scale, half_pixel_centers_);
    }
    ForEachRow(ctx, r, 40.0 * out_row, [&](int64_t b, int64_t y) {
      const Cubic cy = CubicAt(y, r.in_height, r.height_scale, half_pixel_centers_);
      const T* rows[4];
      for (int k = 0; k < 4; ++k) rows[k] = in + (b * r.in_height + cy.index[k]) * in_row;
      float* o = out + (b * r.out_height + y) * out_row;
      for (int64_t x = 0; x < r.out_width; ++x) {
        const Cubic& cx = xs[x];
        for (int64_t ch = 0; ch < c; ++ch) {
          // Down the 4 rows at each of the 4 columns, then across: TensorFlow's order.
          float column[4];
          for (int k = 0; k < 4; ++k) {
            const int64_t at = cx.index[k] * c + ch;
            column[k] = static_cast<float>(rows[0][at]) * cy.weight[0] +
                        static_cast<float>(rows[1][at]) * cy.weight[1] +
                        static_cast<float>(rows[2][at]) * cy.weight[2] +
                        static_cast<float>(rows[3][at]) * cy.weight[3];
          }
          o[x * c + ch] = column[0] * cx.weight[0] + column[1] * cx.weight[1] +
                          column[2] * cx.weight[2] + column[3] * cx.weight[3];
        }
      }
    });
  }

};
REGISTER_KERNEL_BUILDER(Name("ResizeBicubic").Device(DEVICE_CPU), ResizeBicubicOp);

// ---- area ---------------------------------------------------------------------------------

int64_t Clamp(int64_t v, int64_t limit) { return std::min(limit - 1, std::max(int64_t{0}, v)); }

// The input pixels [start, end) that out pixel i covers, and how much of the first and last.
struct Span {
  int64_t start, end;
  float start_scale, end_scale;
};

// How much of input pixel v lies in [in0, in1) (in units of input pixels), as TensorFlow's
// ResizeArea computes it.
float Coverage(int64_t v, float in0, float in1, float scale) {
  if (v < in0) return v + 1 > in1 ? scale : v + 1 - in0;
  return v + 1 > in1 ? in1 - v : 1.0f;
}

class ResizeAreaOp final : public OpKernel {
 public:
  explicit ResizeAreaOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("align_corners", &align_corners_));
  }

  void Compute(OpKernelContext* ctx) override {
    Resize r;
    OP_REQUIRES_OK(ctx, ValidateResize(ctx, align_corners_, false, &r));
    Tensor* output;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(
                            0, TensorShape({r.batch, r.out_height, r.out_width, r.channels}),
                            &output));
    if (output->NumElements() == 0) return;
    DispatchImageType(ctx->input(0).dtype(), [&](auto tag) {
      Compute<decltype(tag)>(ctx, r, ctx->input(0).data<decltype(tag)>(),
                             output->data<float>());
    });
  }

 private:
  template <typename T>
  void Compute(OpKernelContext* ctx, const Resize& r, const T* in, float* out) {
    const int64_t c = r.channels, in_row = r.in_width * c, out_row = r.out_width * c;
    std::vector<Span> xs(r.out_width);
    for (int64_t x = 0; x < r.out_width; ++x) {
      const float in0 = x * r.width_scale, in1 = (x + 1) * r.width_scale;
      Span& s = xs[x];
      s.start = static_cast<int64_t>(std::floor(in0));
      s.start_scale = Coverage(s.start, in0, in1, r.width_scale);
      s.end = static_cast<int64_t>(std::ceil(in1));
      s.end_scale = Coverage(s.end - 1, in0, in1, r.width_scale);
    }
    const float scale = static_cast<float>(1.0 / (r.height_scale * r.width_scale));
    const double cost = 1.0 * out_row * (r.height_scale + 1) * (r.width_scale + 1);
    ForEachRow(ctx, r, cost, [&](int64_t b, int64_t y) {
      const float in0 = y * r.height_scale, in1 = (y + 1) * r.height_scale;
      const int64_t y_start = static_cast<int64_t>(std::floor(in0));
      const int64_t y_end = static_cast<int64_t>(std::ceil(in1));
      std::vector<const T*> rows;
      std::vector<float> row_scales;
      for (int64_t i = y_start; i < y_end; ++i) {
        row_scales.push_back(i < in0 ? (i + 1 > in1 ? r.height_scale : i + 1 - in0)
                                     : (i + 1 > in1 ? in1 - i : 1.0f));
        rows.push_back(in + (b * r.in_height + Clamp(i, r.in_height)) * in_row);
      }
      float* o = out + (b * r.out_height + y) * out_row;
      for (int64_t x = 0; x < r.out_width; ++x) {
        const Span& s = xs[x];
        for (int64_t ch = 0; ch < c; ++ch) {
          float sum = 0;
          for (size_t i = 0; i < rows.size(); ++i) {
            const T* row = rows[i];
            float sum_y = static_cast<float>(row[Clamp(s.start, r.in_width) * c + ch]) *
                          s.start_scale;
            if (s.start + 1 != s.end) {
              for (int64_t px = s.start + 1; px < s.end - 1; ++px) {
                sum_y += static_cast<float>(row[Clamp(px, r.in_width) * c + ch]);
              }
              sum_y += static_cast<float>(row[Clamp(s.end - 1, r.in_width) * c + ch]) *
                       s.end_scale;
            }
            sum += sum_y * row_scales[i];
          }
          o[x * c + ch] = sum * scale;
        }
      }
    });
  }

  bool align_corners_;
};
REGISTER_KERNEL_BUILDER(Name("ResizeArea").Device(DEVICE_CPU), ResizeAreaOp);

}  // namespace
}  // namespace sg
