// Summary kernels, as TensorFlow's: ScalarSummary, HistogramSummary (TensorFlow's default bucket
// limits, empty buckets merged into the next non-empty one when encoded), TensorSummary,
// TensorSummaryV2 and MergeSummary. Each output is a serialized Summary proto.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>
#include <type_traits>
#include <unordered_set>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/kernels/cwise_ops_common.h"
#include "core/proto/summary.pb.h"

namespace sg {
namespace {

// Element i of a real-number tensor, as a double.
std::vector<double> AsDoubles(const Tensor& t) {
  std::vector<double> out(t.NumElements());
  DispatchAll(t.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_arithmetic_v<T> || std::is_same_v<T, half> ||
                  std::is_same_v<T, bfloat16>) {
      const T* p = t.data<T>();
      for (size_t i = 0; i < out.size(); ++i) {
        if constexpr (std::is_arithmetic_v<T>) {
          out[i] = static_cast<double>(p[i]);
        } else {
          out[i] = static_cast<double>(static_cast<float>(p[i]));  // half, bfloat16
        }
      }
    }
  });
  return out;
}

absl::Status SerializeScalar(const Summary& s, Tensor* out) {
  std::string bytes;
  if (!s.SerializeToString(&bytes)) return absl::InternalError("cannot serialize a Summary");
  out->data<tstring>()[0] = std::move(bytes);
  return absl::OkStatus();
}

class ScalarSummaryOp final : public OpKernel {
 public:
  explicit ScalarSummaryOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& tags = ctx->input(0);
    const Tensor& values = ctx->input(1);
    OP_REQUIRES(ctx, tags.shape() == values.shape(),
                KernelError(*this, "tags and values are not the same shape: ",
                            tags.shape().DebugString(), " != ", values.shape().DebugString()));
    Summary s;
    const tstring* t = tags.data<tstring>();
    DispatchAll(values.dtype(), [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_arithmetic_v<T> || std::is_same_v<T, half> ||
                    std::is_same_v<T, bfloat16>) {
        const T* v = values.data<T>();
        for (int64_t i = 0; i < tags.NumElements(); ++i) {
          Summary::Value* sv = s.add_value();
          sv->set_tag(t[i]);
          sv->set_simple_value(static_cast<float>(v[i]));
        }
      }
    });
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({}), &out));
    OP_REQUIRES_OK(ctx, SerializeScalar(s, out));
  }
};
REGISTER_KERNEL_BUILDER(Name("ScalarSummary").Device(DEVICE_CPU), ScalarSummaryOp);

// TensorFlow's default histogram bucket limits: -DBL_MAX, the negatives of the positive limits
// (descending in magnitude), 0, the positive limits 1e-12 * 1.1^k below 1e20, then DBL_MAX.
const std::vector<double>& DefaultBucketLimits() {
  static const std::vector<double>* limits = [] {
    std::vector<double> pos;
    for (double v = 1.0e-12; v < 1.0e20; v *= 1.1) pos.push_back(v);
    pos.push_back(DBL_MAX);
    auto* all = new std::vector<double>;
    for (auto it = pos.rbegin(); it != pos.rend(); ++it) all->push_back(-*it);
    all->push_back(0.0);
    all->insert(all->end(), pos.begin(), pos.end());
    return all;
  }();
  return *limits;
}

// Fills `h` as TensorFlow encodes a histogram of `values` over the default limits: bucket i
// counts the values v with limit[i - 1] <= v < limit[i]; a run of empty buckets is written as
// one entry, with the limit and count of its last bucket (so it merges with nothing that
// follows); an empty histogram is one bucket (DBL_MAX, 0).
void EncodeHistogram(const std::vector<double>& values, HistogramProto* h) {
  const std::vector<double>& limits = DefaultBucketLimits();
  std::vector<double> counts(limits.size(), 0.0);
  double lo = DBL_MAX, hi = -DBL_MAX, sum = 0.0, sum_squares = 0.0;
  for (double v : values) {
    size_t b = std::upper_bound(limits.begin(), limits.end(), v) - limits.begin();
    b = std::min(b, limits.size() - 1);
    counts[b] += 1.0;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    sum += v;
    sum_squares += v * v;
  }
  h->set_min(lo);
  h->set_max(hi);
  h->set_num(static_cast<double>(values.size()));
  h->set_sum(sum);
  h->set_sum_squares(sum_squares);
  for (size_t i = 0; i < counts.size();) {
    double limit = limits[i];
    double count = counts[i];
    ++i;
    if (count <= 0.0) {
      for (; i < counts.size() && counts[i] <= 0.0; ++i) {
        limit = limits[i];
        count = counts[i];
      }
    }
    h->add_bucket_limit(limit);
    h->add_bucket(count);
  }
  if (h->bucket_size() == 0) {
    h->add_bucket_limit(DBL_MAX);
    h->add_bucket(0.0);
  }
}

class HistogramSummaryOp final : public OpKernel {
 public:
  explicit HistogramSummaryOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& tag = ctx->input(0);
    const Tensor& values = ctx->input(1);
    OP_REQUIRES(ctx, tag.dims() == 0,
                KernelError(*this, "tags must be scalar, got shape ", tag.shape().DebugString()));
    const std::vector<double> v = AsDoubles(values);
    const std::string& name = tag.data<tstring>()[0];
    for (double x : v) {
      OP_REQUIRES(ctx, std::isfinite(x),
                  KernelError(*this, std::isnan(x) ? "Nan" : "Infinity",
                              " in summary histogram for: ", name));
    }
    Summary s;
    Summary::Value* sv = s.add_value();
    sv->set_tag(name);
    EncodeHistogram(v, sv->mutable_histo());
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({}), &out));
    OP_REQUIRES_OK(ctx, SerializeScalar(s, out));
  }
};
REGISTER_KERNEL_BUILDER(Name("HistogramSummary").Device(DEVICE_CPU), HistogramSummaryOp);

// A summary value's tensor, as TensorFlow writes it: strings element by element (string_val),
// other dtypes as tensor_content.
void SetSummaryTensor(const Tensor& t, Summary::Value* v) {
  if (t.dtype() == DT_STRING) {
    t.AsProtoField(v->mutable_tensor());
  } else {
    t.AsProtoTensorContent(v->mutable_tensor());
  }
}

// The attrs (description, labels, display_name) are not written: TensorFlow's kernel leaves the
// value's metadata empty.
class TensorSummaryOp final : public OpKernel {
 public:
  explicit TensorSummaryOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    Summary s;
    Summary::Value* v = s.add_value();
    v->set_node_name(name());
    SetSummaryTensor(ctx->input(0), v);
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({}), &out));
    OP_REQUIRES_OK(ctx, SerializeScalar(s, out));
  }
};
REGISTER_KERNEL_BUILDER(Name("TensorSummary").Device(DEVICE_CPU), TensorSummaryOp);

class TensorSummaryV2Op final : public OpKernel {
 public:
  explicit TensorSummaryV2Op(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& tag = ctx->input(0);
    const Tensor& metadata = ctx->input(2);
    OP_REQUIRES(ctx, tag.dims() == 0,
                KernelError(*this, "tag must be scalar, got shape ", tag.shape().DebugString()));
    OP_REQUIRES(ctx, metadata.dims() == 0,
                KernelError(*this, "serialized_summary_metadata must be scalar, got shape ",
                            metadata.shape().DebugString()));
    Summary s;
    Summary::Value* v = s.add_value();
    v->set_tag(std::string(tag.data<tstring>()[0]));
    SetSummaryTensor(ctx->input(1), v);
    // Bytes that do not parse leave the metadata empty or partial, as TensorFlow's kernel does.
    v->mutable_metadata()->ParseFromString(std::string(metadata.data<tstring>()[0]));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({}), &out));
    OP_REQUIRES_OK(ctx, SerializeScalar(s, out));
  }
};
REGISTER_KERNEL_BUILDER(Name("TensorSummaryV2").Device(DEVICE_CPU), TensorSummaryV2Op);

class MergeSummaryOp final : public OpKernel {
 public:
  explicit MergeSummaryOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    Summary merged;
    std::unordered_set<std::string> tags;
    for (int i = 0; i < ctx->num_inputs(); ++i) {
      const Tensor& in = ctx->input(i);
      for (int64_t j = 0; j < in.NumElements(); ++j) {
        Summary s;
        OP_REQUIRES(ctx, s.ParseFromString(in.data<tstring>()[j]),
                    KernelError(*this, "Could not parse one of the summary inputs (input ", i,
                                ", element ", j, ")"));
        for (Summary::Value& v : *s.mutable_value()) {
          // An empty tag is not checked for duplicates.
          OP_REQUIRES(ctx, v.tag().empty() || tags.insert(v.tag()).second,
                      KernelError(*this, "Duplicate tag ", v.tag(), " found in summary inputs"));
          *merged.add_value() = std::move(v);
        }
      }
    }
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({}), &out));
    OP_REQUIRES_OK(ctx, SerializeScalar(merged, out));
  }
};
REGISTER_KERNEL_BUILDER(Name("MergeSummary").Device(DEVICE_CPU), MergeSummaryOp);

}  // namespace
}  // namespace sg
