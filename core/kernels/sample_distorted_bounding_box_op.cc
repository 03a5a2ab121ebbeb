// SampleDistortedBoundingBox, SampleDistortedBoundingBoxV2 and StatelessSampleDistortedBoundingBox:
// a random crop of an image (the data augmentation of Inception-style training), drawn as
// TensorFlow draws it so that seeded runs give TensorFlow's crop.
//
// Each attempt draws an aspect ratio (one float from the ratio range), then a height between the
// smallest and largest that fit the area range at that ratio (one 32-bit word, modulo), and a
// position (one word each for y and x, when there is room); the first crop that covers at least
// min_object_covered of some bounding box wins, else the whole image. The outputs are the crop's
// begin and size for Slice ([y, x, 0] and [h, w, -1]) and the crop as a [1, 1, 4] box.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/kernels/cwise_ops_common.h"
#include "core/kernels/philox_random.h"
#include "core/kernels/random_op_util.h"

namespace sg {
namespace {

using random::Philox4x32;

using ImageSizeTypes = TypeList<uint8_t, int8_t, int16_t, int32_t, int64_t>;

// w * h as float, multiplied in 64 bits (TensorFlow's int product overflows on huge images).
float PixelArea(int64_t w, int64_t h) { return static_cast<float>(w * h); }

// Pixel rectangle [min_x, max_x) x [min_y, max_y).
struct Rect {
  int min_x = 0, min_y = 0, max_x = 0, max_y = 0;

  float Area() const { return PixelArea(max_x - min_x, max_y - min_y); }
  Rect Intersect(const Rect& r) const {
    Rect i{std::max(min_x, r.min_x), std::max(min_y, r.min_y), std::min(max_x, r.max_x),
           std::min(max_y, r.max_y)};
    if (i.min_x > i.max_x || i.min_y > i.max_y) return Rect{};
    return i;
  }
};

// 32-bit words of a generator and what TensorFlow's simple sampler makes of them.
class Words {
 public:
  explicit Words(Philox4x32* gen) : sampler_(gen) {}
  float Float() { return random::Uint32ToFloat(sampler_()); }
  // Uniform in [0, n) as bits mod n; 0 < n < 2^32.
  int64_t Below(int64_t n) { return sampler_() % static_cast<uint32_t>(n); }

 private:
  random::SingleSampler sampler_;
};

// Sizes far beyond any image's saturate at 2^40 (TensorFlow's int conversions wrap there); the
// crop is then rejected as too large, and no product below overflows.
constexpr int64_t kHugeSize = int64_t{1} << 40;

int64_t RoundToSize(float x) {
  if (!(std::abs(x) < static_cast<float>(kHugeSize))) return x < 0 ? -kHugeSize : kHugeSize;
  return std::lrint(x);
}

int64_t TruncateToSize(double x) {
  if (!(std::abs(x) < static_cast<double>(kHugeSize))) return x < 0 ? -kHugeSize : kHugeSize;
  return static_cast<int64_t>(x);
}

// One attempt at a crop of aspect ratio `ratio` whose area, relative to the image's, is in
// [min_rel, max_rel]. False when none fits.
bool RandomCrop(int width, int height, float min_rel, float max_rel, float ratio, Words* words,
                Rect* crop) {
  if (max_rel <= 0 || ratio <= 0 || width <= 0 || height <= 0 || min_rel > max_rel) return false;
  const float min_area = min_rel * width * height;
  const float max_area = max_rel * width * height;
  int64_t h = RoundToSize(std::sqrt(min_area / ratio));
  int64_t max_h = RoundToSize(std::sqrt(max_area / ratio));
  if (RoundToSize(max_h * ratio) > width) {
    // The largest height whose rounded width still fits.
    const float kEps = 0.0000001f;
    max_h = TruncateToSize((width + 0.5 - kEps) / ratio);
    if (RoundToSize(max_h * ratio) > width) --max_h;
  }
  max_h = std::min<int64_t>(max_h, height);
  h = std::min(h, max_h);
  if (h < max_h) h += words->Below(max_h - h + 1);
  int64_t w = RoundToSize(h * ratio);
  // Rounding may leave the area just outside the range: try one row more, then one less.
  float area = PixelArea(w, h);
  if (area < min_area) {
    ++h;
    w = RoundToSize(h * ratio);
    area = PixelArea(w, h);
  }
  if (area > max_area) {
    --h;
    w = RoundToSize(h * ratio);
    area = PixelArea(w, h);
  }
  if (area < min_area || area > max_area || w > width || h > height || w <= 0 || h <= 0) {
    return false;
  }
  // Now 0 < w <= width and 0 < h <= height: all fit in int.
  const int y = h < height ? static_cast<int>(words->Below(height - h)) : 0;
  const int x = w < width ? static_cast<int>(words->Below(width - w)) : 0;
  *crop = Rect{x, y, x + static_cast<int>(w), y + static_cast<int>(h)};
  return true;
}

bool CoversAnObject(const Rect& crop, float min_covered, const std::vector<Rect>& boxes) {
  if (crop.Area() < 1.0f) return false;
  for (const Rect& box : boxes) {
    const float area = box.Area();
    if (area < 1.0f) continue;
    if (crop.Intersect(box).Area() / area >= min_covered) return true;
  }
  return false;
}

// V1 (min_object_covered attr), V2 (input 2) and stateless (input 2 and seed input 3).
enum class Variant { kV1, kV2, kStateless };

template <Variant V>
class SampleDistortedBoundingBoxOp final : public OpKernel {
 public:
  explicit SampleDistortedBoundingBoxOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    if constexpr (V != Variant::kStateless) OP_REQUIRES_OK(ctx, generator_.Init(ctx));
    if constexpr (V == Variant::kV1) {
      OP_REQUIRES_OK(ctx, ctx->GetAttr("min_object_covered", &min_object_covered_));
      OP_REQUIRES(ctx, min_object_covered_ >= 0,
                  KernelError(*this, "Min object covered must be non-negative: ",
                              min_object_covered_));
    }
    OP_REQUIRES_OK(ctx, ctx->GetAttr("aspect_ratio_range", &aspect_ratio_range_));
    OP_REQUIRES(ctx, aspect_ratio_range_.size() == 2,
                KernelError(*this, "Aspect ratio range field must specify 2 dimensions"));
    OP_REQUIRES(ctx, aspect_ratio_range_[0] > 0 && aspect_ratio_range_[1] > 0,
                KernelError(*this, "Aspect ratio range must be positive: [",
                            aspect_ratio_range_[0], ", ", aspect_ratio_range_[1], "]"));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("area_range", &area_range_));
    OP_REQUIRES(ctx, area_range_.size() == 2,
                KernelError(*this, "Area range field must specify 2 dimensions"));
    OP_REQUIRES(ctx, area_range_[0] > 0 && area_range_[1] > 0,
                KernelError(*this, "Area range must be positive: [", area_range_[0], ", ",
                            area_range_[1], "]"));
    OP_REQUIRES(ctx, area_range_[0] <= 1 && area_range_[1] <= 1,
                KernelError(*this, "Area range must be less than or equal to 1.0: [",
                            area_range_[0], ", ", area_range_[1], "]"));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("max_attempts", &max_attempts_));
    OP_REQUIRES(ctx, max_attempts_ > 0,
                KernelError(*this, "Max attempts must be positive: ", max_attempts_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("use_image_if_no_bounding_boxes", &use_image_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& size_t_ = ctx->input(0);
    OP_REQUIRES(ctx, size_t_.dims() == 1,
                KernelError(*this, "image_size must be 1-dimensional, got shape ",
                            size_t_.shape().DebugString()));
    OP_REQUIRES(ctx, size_t_.dim_size(0) == 3,
                KernelError(*this, "image_size must contain 3 values, got shape ",
                            size_t_.shape().DebugString()));
    int64_t hw[2] = {0, 0};
    DispatchTypes(ImageSizeTypes(), size_t_.dtype(), [&](auto tag) {
      using T = decltype(tag);
      for (int i = 0; i < 2; ++i) hw[i] = static_cast<int64_t>(size_t_.data<T>()[i]);
    });
    OP_REQUIRES(ctx, hw[0] >= 0 && hw[0] < std::numeric_limits<int32_t>::max(),
                KernelError(*this, "image height cannot be negative or >= int32 max, got ",
                            hw[0]));
    OP_REQUIRES(ctx, hw[1] >= 0 && hw[1] < std::numeric_limits<int32_t>::max(),
                KernelError(*this, "image width cannot be negative or >= int32 max, got ",
                            hw[1]));
    const int height = static_cast<int>(hw[0]), width = static_cast<int>(hw[1]);

    const Tensor& boxes_t = ctx->input(1);
    OP_REQUIRES(ctx, boxes_t.dims() == 3,
                KernelError(*this, "input boxes must be 3-dimensional [batch, num_boxes, "
                            "coords]: ", boxes_t.shape().DebugString()));
    OP_REQUIRES(ctx, boxes_t.dim_size(2) == 4,
                KernelError(*this, "bounding boxes must have shape [4] or [*, 4], got ",
                            boxes_t.shape().DebugString()));
    float min_covered = min_object_covered_;
    if constexpr (V != Variant::kV1) {
      const Tensor& m = ctx->input(2);
      OP_REQUIRES(ctx, m.dims() == 0,
                  KernelError(*this, "min_object_covered must be 0-D, got shape ",
                              m.shape().DebugString()));
      min_covered = m.data<float>()[0];
      OP_REQUIRES(ctx, min_covered >= 0,
                  KernelError(*this, "min_object_covered must be >= 0 but got ", min_covered));
    }
    Philox4x32 seeded;
    if constexpr (V == Variant::kStateless) {
      OP_REQUIRES_OK(ctx, random::CheckSeedShape(*this, ctx->input(3)));
      OP_REQUIRES_OK(ctx, random::GeneratorFromSeed(*this, ctx->input(3), &seeded));
    }

    std::vector<Rect> boxes;
    const float* b = boxes_t.data<float>();
    const int64_t num_boxes = boxes_t.NumElements() / 4;
    for (int64_t i = 0; i < num_boxes; ++i) {
      for (int j = 0; j < 4; ++j) {
        OP_REQUIRES(ctx, b[4 * i + j] >= 0.0f && b[4 * i + j] <= 1.0f,
                    KernelError(*this, "All bounding box coordinates must be in [0.0, 1.0]: ",
                                b[4 * i + j]));
      }
      // Box rows are [y_min, x_min, y_max, x_max], relative; truncated to pixels.
      boxes.push_back(Rect{static_cast<int>(b[4 * i + 1] * width),
                           static_cast<int>(b[4 * i] * height),
                           static_cast<int>(b[4 * i + 3] * width),
                           static_cast<int>(b[4 * i + 2] * height)});
    }
    const Rect image{0, 0, width, height};
    if (boxes.empty() || use_image_) {
      OP_REQUIRES(ctx, use_image_,
                  KernelError(*this, "No bounding boxes provided as input. One must enable "
                              "use_image_if_no_bounding_boxes if you wish to not provide any "
                              "bounding boxes."));
      boxes.push_back(image);
    }

    // A stateful run reserves 4 words per attempt (attempts that need more read on).
    Philox4x32 gen = V == Variant::kStateless
                         ? seeded
                         : generator_.Reserve((4 * static_cast<uint64_t>(max_attempts_) + 3) / 4);
    Words words(&gen);
    Rect crop = image;
    for (int i = 0; i < max_attempts_; ++i) {
      const float ratio =
          words.Float() * (aspect_ratio_range_[1] - aspect_ratio_range_[0]) +
          aspect_ratio_range_[0];
      Rect c;
      if (RandomCrop(width, height, area_range_[0], area_range_[1], ratio, &words, &c) &&
          CoversAnObject(c, min_covered, boxes)) {
        crop = c;
        break;
      }
    }

    Tensor *begin, *size, *bboxes;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({3}), &begin));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, TensorShape({3}), &size));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(2, TensorShape({1, 1, 4}), &bboxes));
    DispatchTypes(ImageSizeTypes(), size_t_.dtype(), [&](auto tag) {
      using T = decltype(tag);
      T* bg = begin->data<T>();
      T* sz = size->data<T>();
      bg[0] = static_cast<T>(crop.min_y);
      bg[1] = static_cast<T>(crop.min_x);
      bg[2] = static_cast<T>(0);
      sz[0] = static_cast<T>(crop.max_y - crop.min_y);
      sz[1] = static_cast<T>(crop.max_x - crop.min_x);
      sz[2] = static_cast<T>(-1);
    });
    float* out = bboxes->data<float>();
    out[0] = static_cast<float>(crop.min_y) / static_cast<float>(height);
    out[1] = static_cast<float>(crop.min_x) / static_cast<float>(width);
    out[2] = static_cast<float>(crop.max_y) / static_cast<float>(height);
    out[3] = static_cast<float>(crop.max_x) / static_cast<float>(width);
  }

 private:
  random::GuardedPhilox generator_;
  float min_object_covered_ = 0;
  std::vector<float> aspect_ratio_range_, area_range_;
  int64_t max_attempts_ = 0;
  bool use_image_ = false;
};

REGISTER_KERNEL_BUILDER(Name("SampleDistortedBoundingBox").Device(DEVICE_CPU)
                            .TypeConstraint("T", DataTypesOf(ImageSizeTypes())),
                        SampleDistortedBoundingBoxOp<Variant::kV1>);
REGISTER_KERNEL_BUILDER(Name("SampleDistortedBoundingBoxV2").Device(DEVICE_CPU)
                            .TypeConstraint("T", DataTypesOf(ImageSizeTypes())),
                        SampleDistortedBoundingBoxOp<Variant::kV2>);
REGISTER_KERNEL_BUILDER(Name("StatelessSampleDistortedBoundingBox").Device(DEVICE_CPU)
                            .TypeConstraint("T", DataTypesOf(ImageSizeTypes())),
                        SampleDistortedBoundingBoxOp<Variant::kStateless>);

}  // namespace
}  // namespace sg
