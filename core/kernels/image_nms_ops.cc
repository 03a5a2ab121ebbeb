// Non-maximum suppression, as TensorFlow's non_max_suppression_op.cc selects, orders and breaks
// ties:
//   NonMaxSuppression (V1..V5), NonMaxSuppressionWithOverlaps: boxes [n, 4] (corners in either
//     order) or overlaps [n, n], scores [n] -> the indices of the kept boxes [k] int32, best
//     first (equal scores: lower index first), at most max_output_size of them; V4 and V5 can
//     pad them with zeros to max_output_size and give the count; V5 gives the kept scores and
//     does soft-NMS (a Gaussian decay exp(-iou^2 / (2 sigma))) when soft_nms_sigma > 0.
//   CombinedNonMaxSuppression: boxes [batch, n, q, 4] (q: 1 or one box per class), scores
//     [batch, n, classes] -> per image the best max_total_size detections over every class, each
//     class first cut to max_output_size_per_class by NMS: boxes [batch, k, 4], scores and classes
//     (as floats) [batch, k], the count [batch].
// IoUs are computed in float whatever T is; the thresholds and soft-NMS decay in T.
#include <algorithm>
#include <cmath>
#include <deque>
#include <functional>
#include <limits>
#include <queue>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"
#include "core/kernels/parallel_for.h"

namespace sg {
namespace {

// Intersection over union of boxes i and j of a [n, 4] float array: 0 when either is empty.
float IoU(const float* boxes, int64_t i, int64_t j) {
  const float* a = boxes + 4 * i;
  const float* b = boxes + 4 * j;
  const float ymin_a = std::min(a[0], a[2]), xmin_a = std::min(a[1], a[3]);
  const float ymax_a = std::max(a[0], a[2]), xmax_a = std::max(a[1], a[3]);
  const float ymin_b = std::min(b[0], b[2]), xmin_b = std::min(b[1], b[3]);
  const float ymax_b = std::max(b[0], b[2]), xmax_b = std::max(b[1], b[3]);
  const float area_a = (ymax_a - ymin_a) * (xmax_a - xmin_a);
  const float area_b = (ymax_b - ymin_b) * (xmax_b - xmin_b);
  if (area_a <= 0 || area_b <= 0) return 0.0f;
  const float ymin = std::max(ymin_a, ymin_b), xmin = std::max(xmin_a, xmin_b);
  const float ymax = std::min(ymax_a, ymax_b), xmax = std::min(xmax_a, xmax_b);
  const float intersection = std::max(ymax - ymin, 0.0f) * std::max(xmax - xmin, 0.0f);
  return intersection / (area_a + area_b - intersection);
}

// A scalar input of a float type as T (the V2..V4 thresholds may be half or float).
template <typename T>
T ScalarAs(const Tensor& t) {
  return t.dtype() == DT_HALF ? static_cast<T>(t.data<half>()[0])
                              : static_cast<T>(t.data<float>()[0]);
}

absl::Status CheckScalar(OpKernelContext* ctx, int input, const char* what) {
  const Tensor& t = ctx->input(input);
  if (t.dims() != 0) {
    return NodeError(ctx, what, " must be 0-D, got shape ", t.shape().DebugString());
  }
  return absl::OkStatus();
}

// boxes [n, 4] (or overlaps [n, n]) and scores [n]: n, or an error.
absl::Status CheckBoxes(OpKernelContext* ctx, bool overlaps, int64_t* n) {
  const Tensor& boxes = ctx->input(0);
  const Tensor& scores = ctx->input(1);
  const char* what = overlaps ? "overlaps" : "boxes";
  if (boxes.dims() != 2) {
    return NodeError(ctx, what, " must be 2-D", boxes.shape().DebugString());
  }
  *n = boxes.dim_size(0);
  if (overlaps ? boxes.dim_size(1) != *n : boxes.dim_size(1) != 4) {
    return NodeError(ctx, overlaps ? "overlaps must be square" : "boxes must have 4 columns",
                     boxes.shape().DebugString());
  }
  if (scores.dims() != 1) {
    return NodeError(ctx, "scores must be 1-D", scores.shape().DebugString());
  }
  if (scores.dim_size(0) != *n) {
    return NodeError(ctx, "scores has incompatible shape (", *n, " boxes, ", scores.dim_size(0),
                     " scores)");
  }
  if (*n > INT32_MAX) return NodeError(ctx, "too many boxes: ", *n);
  return absl::OkStatus();
}

struct Selection {
  std::vector<int32_t> indices;
  std::vector<float> scores;  // as T, widened
};

// The greedy selection: take the best remaining candidate; a previously kept box overlapping it
// by more than iou_threshold removes it (hard NMS), or each kept box decays its score (soft NMS),
// after which it goes back in the queue. A candidate is compared with each kept box once.
template <typename T>
Selection SelectBoxes(const T* scores, int num_boxes, int max_output, T iou_threshold,
                      T score_threshold, T soft_nms_sigma,
                      const std::function<float(int, int)>& similarity) {
  struct Candidate {
    int index;
    T score;
    int compared;  // kept boxes [0, compared) have already been applied to score
  };
  auto worse = [](const Candidate& a, const Candidate& b) {
    return a.score < b.score || (a.score == b.score && a.index > b.index);
  };
  std::priority_queue<Candidate, std::deque<Candidate>, decltype(worse)> queue(worse);
  for (int i = 0; i < num_boxes; ++i) {
    if (scores[i] > score_threshold) queue.push(Candidate{i, scores[i], 0});
  }
  const bool soft = soft_nms_sigma > static_cast<T>(0.0f);
  const T scale = soft ? static_cast<T>(-0.5f) / soft_nms_sigma : static_cast<T>(0.0f);
  auto weight = [&](T sim) {
    const T w = static_cast<T>(std::exp(static_cast<float>(scale * sim * sim)));
    return soft || sim <= iou_threshold ? w : static_cast<T>(0.0f);
  };
  Selection out;
  std::vector<T> kept_scores;
  while (static_cast<int>(out.indices.size()) < max_output && !queue.empty()) {
    Candidate next = queue.top();
    queue.pop();
    const T original = next.score;
    bool suppressed = false;
    for (int j = static_cast<int>(out.indices.size()) - 1; j >= next.compared; --j) {
      const T sim = static_cast<T>(similarity(next.index, out.indices[j]));
      next.score = next.score * weight(sim);
      if (!soft && sim > iou_threshold) {
        suppressed = true;
        break;
      }
      if (next.score <= score_threshold) break;
    }
    next.compared = static_cast<int>(out.indices.size());
    if (suppressed) continue;
    if (next.score == original) {
      out.indices.push_back(next.index);
      kept_scores.push_back(next.score);
    } else if (next.score > score_threshold) {
      queue.push(next);
    }
  }
  out.scores.assign(kept_scores.begin(), kept_scores.end());
  return out;
}

// Writes the selection: indices (and scores), padded with zeros to max_output when asked, and
// the number of valid entries when the op has that output.
template <typename T>
void WriteSelection(OpKernelContext* ctx, const Selection& s, int max_output, bool pad,
                    bool with_scores, bool with_count) {
  const int64_t valid = static_cast<int64_t>(s.indices.size());
  const int64_t size = pad ? max_output : valid;
  Tensor* indices;
  OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({size}), &indices));
  int32_t* idx = indices->data<int32_t>();
  std::fill(idx, idx + size, 0);
  std::copy(s.indices.begin(), s.indices.end(), idx);
  int next = 1;
  if (with_scores) {
    Tensor* scores;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(next++, TensorShape({size}), &scores));
    T* sc = scores->data<T>();
    std::fill(sc, sc + size, static_cast<T>(0.0f));
    for (int64_t i = 0; i < valid; ++i) sc[i] = static_cast<T>(s.scores[i]);
  }
  if (with_count) {
    Tensor* count;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(next, TensorShape(), &count));
    *count->data<int32_t>() = static_cast<int32_t>(valid);
  }
}

// NonMaxSuppression (kVersion 1) to NonMaxSuppressionV5, and NonMaxSuppressionWithOverlaps
// (kVersion 0).
template <int kVersion, typename T>
class NonMaxSuppressionOp final : public OpKernel {
 public:
  explicit NonMaxSuppressionOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    if (kVersion == 1) OP_REQUIRES_OK(ctx, ctx->GetAttr("iou_threshold", &v1_iou_threshold_));
    if (kVersion >= 4) OP_REQUIRES_OK(ctx, ctx->GetAttr("pad_to_max_output_size", &pad_));
  }

  void Compute(OpKernelContext* ctx) override {
    OP_REQUIRES_OK(ctx, CheckScalar(ctx, 2, "max_output_size"));
    T iou_threshold = static_cast<T>(0.0f);
    T score_threshold = std::numeric_limits<T>::lowest();
    T sigma = static_cast<T>(0.0f);
    if (kVersion == 1) {
      iou_threshold = static_cast<T>(v1_iou_threshold_);
    } else {
      OP_REQUIRES_OK(ctx, CheckScalar(ctx, 3, kVersion == 0 ? "overlap_threshold"
                                                            : "iou_threshold"));
      iou_threshold = ScalarAs<T>(ctx->input(3));
    }
    if (kVersion != 0) {
      OP_REQUIRES(ctx,
                  iou_threshold >= static_cast<T>(0.0f) && iou_threshold <= static_cast<T>(1.0f),
                  NodeError(ctx, "iou_threshold must be in [0, 1]"));
    }
    if (kVersion == 0 || kVersion >= 3) {
      OP_REQUIRES_OK(ctx, CheckScalar(ctx, 4, "score_threshold"));
      score_threshold = ScalarAs<T>(ctx->input(4));
    }
    if (kVersion == 5) {
      OP_REQUIRES_OK(ctx, CheckScalar(ctx, 5, "soft_nms_sigma"));
      sigma = ScalarAs<T>(ctx->input(5));
      OP_REQUIRES(ctx, sigma >= static_cast<T>(0.0f),
                  NodeError(ctx, "soft_nms_sigma_val must be >= 0"));
    }
    int64_t n;
    OP_REQUIRES_OK(ctx, CheckBoxes(ctx, kVersion == 0, &n));
    const int max_output = ctx->input(2).data<int32_t>()[0];
    OP_REQUIRES(ctx, max_output >= 0, NodeError(ctx, "output size must be non-negative"));

    const Tensor& boxes = ctx->input(0);
    std::vector<float> box_values;
    std::function<float(int, int)> similarity;
    if (kVersion == 0) {
      const float* overlaps = boxes.data<float>();
      similarity = [overlaps, n](int i, int j) { return overlaps[i * n + j]; };
    } else {
      box_values.resize(boxes.NumElements());
      const T* b = boxes.data<T>();
      for (size_t i = 0; i < box_values.size(); ++i) box_values[i] = static_cast<float>(b[i]);
      const float* values = box_values.data();
      similarity = [values](int i, int j) { return IoU(values, i, j); };
    }
    const Selection selection =
        SelectBoxes<T>(ctx->input(1).data<T>(), static_cast<int>(n), max_output, iou_threshold,
                       score_threshold, sigma, similarity);
    WriteSelection<T>(ctx, selection, max_output, pad_, kVersion == 5, kVersion >= 4);
  }

 private:
  float v1_iou_threshold_ = 0.5f;
  bool pad_ = false;
};

REGISTER_KERNEL_BUILDER(Name("NonMaxSuppression").Device(DEVICE_CPU),
                        NonMaxSuppressionOp<1, float>);
REGISTER_KERNEL_BUILDER(Name("NonMaxSuppressionWithOverlaps").Device(DEVICE_CPU),
                        NonMaxSuppressionOp<0, float>);
#define SG_REGISTER_NMS(T)                                                                      \
  REGISTER_KERNEL_BUILDER(Name("NonMaxSuppressionV2").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          NonMaxSuppressionOp<2, T>);                                           \
  REGISTER_KERNEL_BUILDER(Name("NonMaxSuppressionV3").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          NonMaxSuppressionOp<3, T>);                                           \
  REGISTER_KERNEL_BUILDER(Name("NonMaxSuppressionV4").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          NonMaxSuppressionOp<4, T>);                                           \
  REGISTER_KERNEL_BUILDER(Name("NonMaxSuppressionV5").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          NonMaxSuppressionOp<5, T>);
SG_REGISTER_NMS(float)
SG_REGISTER_NMS(half)
#undef SG_REGISTER_NMS

// ---- CombinedNonMaxSuppression --------------------------------------------------------------

struct Detection {
  int box_index;  // -1: an empty slot
  float score;
  int class_index;
  float box[4];
};

// NMS of one class of one image into slots [class * per_class, (class + 1) * per_class).
// TensorFlow's queue here orders by score alone, so among equal scores the order is the heap's:
// the same std::priority_queue over a std::vector, filled in the same order, gives the same.
void NmsOneClass(const float* boxes, const float* scores, int num_boxes, int q, int num_classes,
                 int cls, int per_class, float score_threshold, float iou_threshold,
                 Detection* slots) {
  struct Candidate {
    int box_index;
    float score;
  };
  auto lower = [](const Candidate& a, const Candidate& b) { return a.score < b.score; };
  std::priority_queue<Candidate, std::vector<Candidate>, decltype(lower)> queue(lower);
  for (int i = 0; i < num_boxes; ++i) {
    const float s = scores[static_cast<int64_t>(i) * num_classes + cls];
    if (s > score_threshold) queue.emplace(Candidate{i, s});
  }
  const int box_column = q > 1 ? cls : 0;
  auto box_row = [&](int index) { return static_cast<int64_t>(index) * q + box_column; };
  std::vector<int> kept;
  while (static_cast<int>(kept.size()) < per_class && !queue.empty()) {
    const Candidate next = queue.top();
    queue.pop();
    bool keep = true;
    for (int j = static_cast<int>(kept.size()) - 1; j >= 0; --j) {
      if (IoU(boxes, box_row(next.box_index), box_row(kept[j])) > iou_threshold) {
        keep = false;
        break;
      }
    }
    if (!keep) continue;
    Detection& d = slots[kept.size()];
    d.box_index = next.box_index;
    d.score = next.score;
    d.class_index = cls;
    std::copy_n(boxes + 4 * box_row(next.box_index), 4, d.box);
    kept.push_back(next.box_index);
  }
}

class CombinedNonMaxSuppressionOp final : public OpKernel {
 public:
  explicit CombinedNonMaxSuppressionOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("pad_per_class", &pad_per_class_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("clip_boxes", &clip_boxes_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& boxes = ctx->input(0);
    const Tensor& scores = ctx->input(1);
    OP_REQUIRES(ctx, boxes.dims() == 4,
                NodeError(ctx, "boxes must be 4-D [batch, num_boxes, q, 4], got shape ",
                          boxes.shape().DebugString()));
    OP_REQUIRES(ctx, scores.dims() == 3,
                NodeError(ctx, "scores must be 3-D [batch, num_boxes, num_classes], got shape ",
                          scores.shape().DebugString()));
    const int64_t num_boxes = boxes.dim_size(1), num_classes = scores.dim_size(2);
    const int64_t q = boxes.dim_size(2);
    OP_REQUIRES(ctx, q == 1 || q == num_classes,
                NodeError(ctx, "third dimension of boxes must be either 1 or num classes"));
    OP_REQUIRES(ctx, boxes.dim_size(3) == 4, NodeError(ctx, "boxes must have 4 columns"));
    OP_REQUIRES(ctx, scores.dim_size(1) == num_boxes,
                NodeError(ctx, "scores has incompatible shape"));
    OP_REQUIRES(ctx, boxes.dim_size(0) == scores.dim_size(0),
                NodeError(ctx, "boxes and scores must have same batch size"));
    OP_REQUIRES(ctx, num_boxes <= INT32_MAX && num_classes <= INT32_MAX,
                NodeError(ctx, "too many boxes or classes"));
    OP_REQUIRES_OK(ctx, CheckScalar(ctx, 2, "max_size_per_class"));
    const int max_per_class = ctx->input(2).data<int32_t>()[0];
    OP_REQUIRES(ctx, max_per_class > 0, NodeError(ctx, "max_size_per_class must be positive"));
    OP_REQUIRES_OK(ctx, CheckScalar(ctx, 3, "max_total_size"));
    const int max_total = ctx->input(3).data<int32_t>()[0];
    OP_REQUIRES(ctx, max_total > 0, NodeError(ctx, "max_total_size must be > 0"));
    OP_REQUIRES_OK(ctx, CheckScalar(ctx, 4, "iou_threshold"));
    const float iou_threshold = ctx->input(4).data<float>()[0];
    OP_REQUIRES_OK(ctx, CheckScalar(ctx, 5, "score_threshold"));
    const float score_threshold = ctx->input(5).data<float>()[0];
    OP_REQUIRES(ctx, iou_threshold >= 0 && iou_threshold <= 1,
                NodeError(ctx, "iou_threshold must be in [0, 1]"));

    const int64_t batch = boxes.dim_size(0);
    const int per_class = static_cast<int>(std::min<int64_t>(max_per_class, num_boxes));
    const int64_t slots = int64_t{per_class} * num_classes;
    OP_REQUIRES(ctx, slots <= INT32_MAX,
                NodeError(ctx, "size_per_class * num_classes causes overflow"));
    // With pad_per_class, each image gives at most max_per_class per class.
    const int64_t all_classes = std::min<int64_t>(INT32_MAX, int64_t{max_per_class} * num_classes);
    const int64_t per_image = pad_per_class_ ? std::min<int64_t>(max_total, all_classes)
                                             : max_total;
    Tensor *out_boxes, *out_scores, *out_classes, *out_valid;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({batch, per_image, 4}), &out_boxes));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, TensorShape({batch, per_image}), &out_scores));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(2, TensorShape({batch, per_image}), &out_classes));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(3, TensorShape({batch}), &out_valid));

    const float* all_boxes = boxes.data<float>();
    const float* all_scores = scores.data<float>();
    const Detection empty{-1, -std::numeric_limits<float>::infinity(), -1, {0, 0, 0, 0}};
    auto image = [&](int64_t b) {
      std::vector<Detection> detections(slots, empty);
      const float* image_boxes = all_boxes + b * num_boxes * q * 4;
      const float* image_scores = all_scores + b * num_boxes * num_classes;
      for (int cls = 0; cls < num_classes; ++cls) {
        NmsOneClass(image_boxes, image_scores, static_cast<int>(num_boxes), static_cast<int>(q),
                    static_cast<int>(num_classes), cls, per_class, score_threshold,
                    iou_threshold, detections.data() + int64_t{cls} * per_class);
      }
      // By score alone, with std::sort as TensorFlow (equal scores keep its order).
      std::sort(detections.begin(), detections.end(),
                [](const Detection& a, const Detection& b) { return b.score < a.score; });
      const int64_t found = std::count_if(detections.begin(), detections.end(),
                                          [](const Detection& d) { return d.box_index > -1; });
      const int64_t count = std::min(found, per_image);
      float* ob = out_boxes->data<float>() + b * per_image * 4;
      float* os = out_scores->data<float>() + b * per_image;
      float* oc = out_classes->data<float>() + b * per_image;
      std::fill(ob, ob + per_image * 4, 0.0f);
      std::fill(os, os + per_image, 0.0f);
      std::fill(oc, oc + per_image, 0.0f);
      for (int64_t i = 0; i < count; ++i) {
        const Detection& d = detections[i];
        for (int k = 0; k < 4; ++k) {
          ob[4 * i + k] = clip_boxes_ ? std::max(std::min(d.box[k], 1.0f), 0.0f) : d.box[k];
        }
        os[i] = d.score;
        oc[i] = static_cast<float>(d.class_index);
      }
      out_valid->data<int32_t>()[b] = static_cast<int32_t>(count);
    };
    ParallelFor(ctx->eigen_cpu_device(),
        batch, Eigen::TensorOpCost(0, 0, 50.0 * num_boxes * num_classes),
        [&](Eigen::Index begin, Eigen::Index end) {
          for (Eigen::Index b = begin; b < end; ++b) image(b);
        });
  }

 private:
  bool pad_per_class_, clip_boxes_;
};
REGISTER_KERNEL_BUILDER(Name("CombinedNonMaxSuppression").Device(DEVICE_CPU),
                        CombinedNonMaxSuppressionOp);

}  // namespace
}  // namespace sg
