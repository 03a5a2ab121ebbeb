// The BoostedTrees quantile ops, as TensorFlow's boosted_trees/quantile_ops.cc: a quantile stream
// resource (one weighted quantile stream per feature, boosted_trees_quantiles.h) made by
// BoostedTreesCreateQuantileStreamResource under the handle of
// BoostedTreesQuantileStreamResourceHandleOp (container, shared_name; the resource lives in the
// device's ResourceMgr until the session's resources are cleared), fed with summaries
// (BoostedTreesMakeQuantileSummaries makes them from a batch; ...AddSummaries adds them), flushed
// into bucket boundaries (...Flush, or ...Deserialize sets them), read back
// (...GetBucketBoundaries) and used by BoostedTreesBucketize. A summary is a float [n, 4] tensor,
// rows of (value, weight, min_rank, max_rank) sorted by value.
//
// Results are TensorFlow 2.8.4's, the last TensorFlow with these kernels (tests/oracle/README.md);
// num_buckets 0 and 1, which crash it, give the minimum and maximum.
// Where TensorFlow's kernels CHECK-fail or read out of bounds, these return INVALID_ARGUMENT
// naming the node: a summary not of shape [n, 4], a list longer than the resource's streams (or,
// for AddSummaries and GetBucketBoundaries, of another length), boundaries or num_buckets of the
// wrong rank, epsilon outside (0, 1), max_elements <= 0, features of different sizes, and a
// generate_quantiles flush whose stream cannot give num_buckets quantiles (empty, or
// num_buckets < 3). num_streams is at most 2^20 and a generate_quantiles num_buckets at most
// 2^24 (TensorFlow has no bound and would allocate whatever they say).
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "core/framework/op_kernel.h"
#include "core/framework/resource_mgr.h"
#include "core/kernels/boosted_trees_quantiles.h"
#include "core/kernels/cwise_ops_common.h"
#include "core/kernels/resource_handle_util.h"

namespace sg {
namespace {

using boosted_trees::QuantileStream;
using boosted_trees::QuantileSummaryEntry;

constexpr const char* kTypeName = "BoostedTreesQuantileStreamResource";
constexpr int64_t kMaxStreams = int64_t{1} << 20;
constexpr int64_t kMaxQuantiles = int64_t{1} << 24;

// num_streams quantile streams sharing eps and max_elements, and each stream's boundaries.
class QuantileStreamResource : public ResourceBase {
 public:
  QuantileStreamResource(float eps, int64_t max_elements, int64_t num_streams)
      : eps_(eps), max_elements_(max_elements), streams_(num_streams), boundaries_(num_streams) {}

  std::string DebugString() const override { return "QuantileStreamResource"; }
  absl::Mutex* mu() { return &mu_; }
  int64_t num_streams() const { return static_cast<int64_t>(streams_.size()); }

  // Stream i (0 <= i < num_streams), made on first use. Requires mu().
  QuantileStream* stream(int64_t i) {
    if (!streams_[i]) streams_[i] = std::make_unique<QuantileStream>(eps_, max_elements_);
    return streams_[i].get();
  }
  // Fresh streams (TensorFlow's ResetStreams). Requires mu().
  void ResetStreams() {
    for (auto& s : streams_) s.reset();
  }
  const std::vector<float>& boundaries(int64_t i) const { return boundaries_[i]; }
  void set_boundaries(int64_t i, std::vector<float> b) { boundaries_[i] = std::move(b); }

 private:
  absl::Mutex mu_;
  const float eps_;
  const int64_t max_elements_;
  std::vector<std::unique_ptr<QuantileStream>> streams_;
  std::vector<std::vector<float>> boundaries_;
};

// The resource input 0's handle names: NOT_FOUND when there is none.
absl::Status GetResource(OpKernelContext* ctx, std::shared_ptr<QuantileStreamResource>* r) {
  const ResourceHandle* h = nullptr;
  SG_RETURN_IF_ERROR(ResourceHandleFromInput(ctx, 0, &h));
  return ctx->resource_manager()->Lookup<QuantileStreamResource>(h->container, h->name, r);
}

// A float [rows, 4] tensor of the entries.
absl::Status SetSummaryOutput(OpKernelContext* ctx, int i,
                              const std::vector<QuantileSummaryEntry>& entries) {
  Tensor* out;
  SG_RETURN_IF_ERROR(
      ctx->allocate_output(i, TensorShape({static_cast<int64_t>(entries.size()), 4}), &out));
  float* o = out->data<float>();
  for (const auto& e : entries) {
    *o++ = e.value;
    *o++ = e.weight;
    *o++ = e.min_rank;
    *o++ = e.max_rank;
  }
  return absl::OkStatus();
}

// INVALID_ARGUMENT unless 0 < eps < 1 (TensorFlow's streams QCHECK it).
absl::Status CheckEpsilon(const OpKernel& k, float eps) {
  if (!(eps > 0)) return KernelError(k, "An epsilon value of zero is not allowed.");
  if (!(eps < 1)) return KernelError(k, "epsilon must be less than 1, got ", eps);
  return absl::OkStatus();
}

class QuantileStreamHandleOp final : public OpKernel {
 public:
  explicit QuantileStreamHandleOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("container", &handle_.container));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("shared_name", &handle_.name));
    if (handle_.container.empty()) handle_.container = ResourceMgr::kDefaultContainer;
    if (ctx->device() != nullptr) handle_.device = ctx->device()->name();
    handle_.type_name = kTypeName;
    set_expensive(false);
  }
  void Compute(OpKernelContext* ctx) override {
    OP_REQUIRES_OK(ctx, SetResourceHandleOutput(ctx, 0, handle_));
  }

 private:
  ResourceHandle handle_;
};
REGISTER_KERNEL_BUILDER(Name("BoostedTreesQuantileStreamResourceHandleOp").Device(DEVICE_CPU),
                        QuantileStreamHandleOp);

// True when the resource exists (TensorFlow's IsResourceInitialized).
class IsQuantileStreamInitializedOp final : public OpKernel {
 public:
  explicit IsQuantileStreamInitializedOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    set_expensive(false);
  }
  void Compute(OpKernelContext* ctx) override {
    const ResourceHandle* h = nullptr;
    OP_REQUIRES_OK(ctx, ResourceHandleFromInput(ctx, 0, &h));
    std::shared_ptr<QuantileStreamResource> r;
    const bool found =
        ctx->resource_manager()->Lookup<QuantileStreamResource>(h->container, h->name, &r).ok();
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape(), &out));
    out->scalar<bool>()() = found;
  }
};
REGISTER_KERNEL_BUILDER(
    Name("IsBoostedTreesQuantileStreamResourceInitialized").Device(DEVICE_CPU),
    IsQuantileStreamInitializedOp);

// Makes the resource unless it exists (then nothing changes, as in TensorFlow).
class CreateQuantileStreamOp final : public OpKernel {
 public:
  explicit CreateQuantileStreamOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("max_elements", &max_elements_));
  }
  void Compute(OpKernelContext* ctx) override {
    const ResourceHandle* h = nullptr;
    OP_REQUIRES_OK(ctx, ResourceHandleFromInput(ctx, 0, &h));
    const Tensor& eps_t = ctx->input(1);
    OP_REQUIRES(ctx, eps_t.dims() == 0,
                KernelError(*this, "epsilon must be a scalar, got a tensor of shape ",
                            eps_t.shape().DebugString()));
    const float eps = eps_t.scalar<float>()();
    OP_REQUIRES(ctx, eps > 0, KernelError(*this, "An epsilon value of zero is not allowed."));
    const Tensor& n_t = ctx->input(2);
    OP_REQUIRES(ctx, n_t.dims() == 0,
                KernelError(*this, "num_streams must be a scalar, got a tensor of shape ",
                            n_t.shape().DebugString()));
    const int64_t num_streams = n_t.scalar<int64_t>()();
    OP_REQUIRES(ctx, num_streams >= 0,
                KernelError(*this, "Num_streams input cannot be a negative integer"));
    OP_REQUIRES(ctx, num_streams <= kMaxStreams,
                KernelError(*this, "num_streams (", num_streams, ") is more than ", kMaxStreams));
    if (num_streams > 0) {  // TensorFlow's streams QCHECK these
      OP_REQUIRES_OK(ctx, CheckEpsilon(*this, eps));
      OP_REQUIRES(ctx, max_elements_ > 0,
                  KernelError(*this, "max_elements must be positive, got ", max_elements_));
    }
    std::shared_ptr<QuantileStreamResource> r;
    OP_REQUIRES_OK(ctx, ctx->resource_manager()->LookupOrCreate<QuantileStreamResource>(
                            h->container, h->name, &r,
                            [&](std::shared_ptr<QuantileStreamResource>* out) {
                              *out = std::make_shared<QuantileStreamResource>(
                                  eps, max_elements_, num_streams);
                              return absl::OkStatus();
                            }));
  }

 private:
  int64_t max_elements_;
};
REGISTER_KERNEL_BUILDER(Name("BoostedTreesCreateQuantileStreamResource").Device(DEVICE_CPU),
                        CreateQuantileStreamOp);

// Each feature's values (with the weights: one, or one per value) pushed through a stream of
// max_elements = batch size + 1 and finalized: its summary.
class MakeQuantileSummariesOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;
  void Compute(OpKernelContext* ctx) override {
    const int n = num_inputs() - 2;
    if (n <= 0) return;
    const Tensor& weights_t = ctx->input(n);
    const Tensor& eps_t = ctx->input(n + 1);
    const int64_t batch = ctx->input(0).NumElements();
    for (int i = 1; i < n; ++i) {
      OP_REQUIRES(ctx, ctx->input(i).NumElements() == batch,
                  KernelError(*this, "float_values[", i, "] has ", ctx->input(i).NumElements(),
                              " values, float_values[0] ", batch));
    }
    const int64_t num_weights = weights_t.NumElements();
    OP_REQUIRES(ctx, num_weights == 1 || num_weights == batch,
                KernelError(*this, "Weights should be a single value or same size as features."));
    OP_REQUIRES(ctx, eps_t.dims() == 0,
                KernelError(*this, "epsilon must be a scalar, got a tensor of shape ",
                            eps_t.shape().DebugString()));
    const float eps = eps_t.scalar<float>()();
    OP_REQUIRES_OK(ctx, CheckEpsilon(*this, eps));
    const float* w = weights_t.data<float>();
    for (int i = 0; i < n; ++i) {
      const float* v = ctx->input(i).data<float>();
      QuantileStream stream(eps, batch + 1);
      for (int64_t j = 0; j < batch; ++j) stream.PushEntry(v[j], num_weights > 1 ? w[j] : w[0]);
      stream.Finalize();
      OP_REQUIRES_OK(ctx, SetSummaryOutput(ctx, i, stream.FinalSummary().entries()));
    }
  }
};
REGISTER_KERNEL_BUILDER(Name("BoostedTreesMakeQuantileSummaries").Device(DEVICE_CPU),
                        MakeQuantileSummariesOp);

// Pushes summaries[i] into stream i.
class AddSummariesOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;
  void Compute(OpKernelContext* ctx) override {
    std::shared_ptr<QuantileStreamResource> r;
    OP_REQUIRES_OK(ctx, GetResource(ctx, &r));
    absl::MutexLock lock(r->mu());
    const int n = num_inputs() - 1;
    OP_REQUIRES(ctx, n == r->num_streams(),
                KernelError(*this, "got ", n, " summaries for a resource of ", r->num_streams(),
                            " streams"));
    for (int i = 0; i < n; ++i) {
      const Tensor& s = ctx->input(1 + i);
      OP_REQUIRES(ctx, s.dims() == 2 && s.dim_size(1) == 4,
                  KernelError(*this, "summaries[", i, "] must have shape [n, 4], got ",
                              s.shape().DebugString()));
    }
    for (int i = 0; i < n; ++i) {
      QuantileStream* stream = r->stream(i);
      if (stream->IsFinalized()) continue;  // as TensorFlow; flushes reset the streams
      const Tensor& s = ctx->input(1 + i);
      const float* p = s.data<float>();
      std::vector<QuantileSummaryEntry> entries(s.dim_size(0));
      for (auto& e : entries) {
        e = {p[0], p[1], p[2], p[3]};
        p += 4;
      }
      stream->PushSummary(std::move(entries));
    }
  }
};
REGISTER_KERNEL_BUILDER(
    Name("BoostedTreesQuantileStreamResourceAddSummaries").Device(DEVICE_CPU), AddSummariesOp);

// Finalizes streams 0..num_features-1, outputs their summaries, and resets every stream.
class FlushQuantileSummariesOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;
  void Compute(OpKernelContext* ctx) override {
    std::shared_ptr<QuantileStreamResource> r;
    OP_REQUIRES_OK(ctx, GetResource(ctx, &r));
    absl::MutexLock lock(r->mu());
    const int n = num_outputs();
    OP_REQUIRES(ctx, n <= r->num_streams(),
                KernelError(*this, "num_features (", n, ") is more than the resource's ",
                            r->num_streams(), " streams"));
    for (int i = 0; i < n; ++i) {
      QuantileStream* stream = r->stream(i);
      stream->Finalize();
      OP_REQUIRES_OK(ctx, SetSummaryOutput(ctx, i, stream->FinalSummary().entries()));
    }
    r->ResetStreams();
  }
};
REGISTER_KERNEL_BUILDER(Name("BoostedTreesFlushQuantileSummaries").Device(DEVICE_CPU),
                        FlushQuantileSummariesOp);

// Finalizes every stream into its bucket boundaries (num_buckets of them, duplicates dropped; or
// with generate_quantiles exactly num_buckets quantiles) and resets the streams.
class QuantileStreamFlushOp final : public OpKernel {
 public:
  explicit QuantileStreamFlushOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("generate_quantiles", &generate_quantiles_));
  }
  void Compute(OpKernelContext* ctx) override {
    std::shared_ptr<QuantileStreamResource> r;
    OP_REQUIRES_OK(ctx, GetResource(ctx, &r));
    absl::MutexLock lock(r->mu());
    const Tensor& nb_t = ctx->input(1);
    OP_REQUIRES(ctx, nb_t.dims() == 0,
                KernelError(*this, "num_buckets must be a scalar, got a tensor of shape ",
                            nb_t.shape().DebugString()));
    const int64_t num_buckets = nb_t.scalar<int64_t>()();
    if (generate_quantiles_) {  // TensorFlow CHECK-fails on a negative one
      OP_REQUIRES(ctx, num_buckets >= 0 && num_buckets <= kMaxQuantiles,
                  KernelError(*this, "num_buckets (", num_buckets, ") must be in [0, ",
                              kMaxQuantiles, "] to generate quantiles"));
    }
    std::vector<std::vector<float>> all(r->num_streams());
    absl::Status status;
    for (int64_t i = 0; i < r->num_streams() && status.ok(); ++i) {
      QuantileStream* stream = r->stream(i);
      stream->Finalize();
      if (generate_quantiles_) {
        all[i] = stream->GenerateQuantiles(num_buckets - 1);
        if (static_cast<int64_t>(all[i].size()) != num_buckets) {
          status = KernelError(*this, "stream ", i, " gives ", all[i].size(),
                               " quantiles, not num_buckets = ", num_buckets,
                               " (a stream needs values, and num_buckets must be at least 3)");
        }
      } else {
        all[i] = stream->GenerateBoundaries(num_buckets);
        all[i].erase(std::unique(all[i].begin(), all[i].end()), all[i].end());
      }
    }
    r->ResetStreams();
    OP_REQUIRES_OK(ctx, status);
    for (int64_t i = 0; i < r->num_streams(); ++i) r->set_boundaries(i, std::move(all[i]));
  }

 private:
  bool generate_quantiles_;
};
REGISTER_KERNEL_BUILDER(Name("BoostedTreesQuantileStreamResourceFlush").Device(DEVICE_CPU),
                        QuantileStreamFlushOp);

// Sets stream i's boundaries to bucket_boundaries[i] (a vector), for i < num_streams.
class DeserializeOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;
  void Compute(OpKernelContext* ctx) override {
    std::shared_ptr<QuantileStreamResource> r;
    OP_REQUIRES_OK(ctx, GetResource(ctx, &r));
    absl::MutexLock lock(r->mu());
    const int n = num_inputs() - 1;
    OP_REQUIRES(ctx, n <= r->num_streams(),
                KernelError(*this, "num_streams (", n, ") is more than the resource's ",
                            r->num_streams(), " streams"));
    for (int i = 0; i < n; ++i) {
      OP_REQUIRES(ctx, ctx->input(1 + i).dims() == 1,
                  KernelError(*this, "bucket_boundaries[", i, "] must be a vector, got shape ",
                              ctx->input(1 + i).shape().DebugString()));
    }
    for (int i = 0; i < n; ++i) {
      const Tensor& b = ctx->input(1 + i);
      r->set_boundaries(i, std::vector<float>(b.data<float>(), b.data<float>() + b.NumElements()));
    }
  }
};
REGISTER_KERNEL_BUILDER(
    Name("BoostedTreesQuantileStreamResourceDeserialize").Device(DEVICE_CPU), DeserializeOp);

class GetBucketBoundariesOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;
  void Compute(OpKernelContext* ctx) override {
    std::shared_ptr<QuantileStreamResource> r;
    OP_REQUIRES_OK(ctx, GetResource(ctx, &r));
    absl::MutexLock lock(r->mu());
    const int n = num_outputs();
    OP_REQUIRES(ctx, n == r->num_streams(),
                KernelError(*this, "num_features (", n, ") differs from the resource's ",
                            r->num_streams(), " streams"));
    for (int i = 0; i < n; ++i) {
      const std::vector<float>& b = r->boundaries(i);
      Tensor* out;
      OP_REQUIRES_OK(ctx,
                     ctx->allocate_output(i, TensorShape({static_cast<int64_t>(b.size())}), &out));
      std::copy(b.begin(), b.end(), out->data<float>());
    }
  }
};
REGISTER_KERNEL_BUILDER(
    Name("BoostedTreesQuantileStreamResourceGetBucketBoundaries").Device(DEVICE_CPU),
    GetBucketBoundariesOp);

// Bucket of each value: the index of the first boundary >= value (std::lower_bound), the last
// bucket for values above every boundary, 0 when there are no boundaries. As TensorFlow, the
// first dim_size(0) values of each float_values[i] (the shape function makes them vectors).
class BucketizeOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;
  void Compute(OpKernelContext* ctx) override {
    const int n = num_outputs();
    if (n == 0) return;
    OP_REQUIRES(ctx, ctx->input(n).dims() == 1,
                KernelError(*this, "Buckets should be flat vectors."));
    for (int i = 0; i < n; ++i) {
      const Tensor& v = ctx->input(i);
      OP_REQUIRES(ctx, v.dims() >= 1 && v.dim_size(0) <= v.NumElements(),
                  KernelError(*this, "float_values[", i, "] must be a vector, got shape ",
                              v.shape().DebugString()));
    }
    for (int i = 0; i < n; ++i) {
      const Tensor& values = ctx->input(i);
      const Tensor& bounds = ctx->input(n + i);
      const float* b = bounds.data<float>();
      const float* b_end = b + bounds.NumElements();
      const int64_t num_values = values.dim_size(0);
      Tensor* out;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(i, TensorShape({num_values}), &out));
      const float* v = values.data<float>();
      int32_t* o = out->data<int32_t>();
      for (int64_t j = 0; j < num_values; ++j) {
        if (b == b_end) {
          o[j] = 0;
          continue;
        }
        const float* it = std::lower_bound(b, b_end, v[j]);
        if (it == b_end) --it;
        o[j] = static_cast<int32_t>(it - b);
      }
    }
  }
};
REGISTER_KERNEL_BUILDER(Name("BoostedTreesBucketize").Device(DEVICE_CPU), BucketizeOp);

}  // namespace
}  // namespace sg
