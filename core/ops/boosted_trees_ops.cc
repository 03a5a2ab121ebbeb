// The BoostedTrees quantile ops (TensorFlow's boosted_trees_ops, the ten in TF Lite's Flex
// allowlist): a quantile stream resource named by a DT_RESOURCE handle, summaries made from
// batches and added to it, bucket boundaries flushed from it, and bucketizing by boundaries.
// A summary is a float [n, 4] tensor of rows (value, weight, min_rank, max_rank).
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "core/framework/op.h"
#include "core/framework/shape_inference.h"

namespace sg {
namespace {

using Shape = PartialTensorShape;

// Each listed input must be a scalar.
absl::Status ScalarInputs(InferenceContext* c, std::initializer_list<int> inputs) {
  Shape unused;
  for (int i : inputs) SG_RETURN_IF_ERROR(c->WithRank(i, 0, &unused));
  return absl::OkStatus();
}

// Outputs 0..n-1 are summaries, [?, 4].
void SummaryOutputs(InferenceContext* c) {
  for (int i = 0; i < c->num_outputs(); ++i) c->set_output(i, Shape({-1, 4}));
}

absl::Status IsInitializedShape(InferenceContext* c) {
  SG_RETURN_IF_ERROR(ScalarInputs(c, {0}));
  c->set_output(0, Shape::Scalar());
  return absl::OkStatus();
}

absl::Status CreateShape(InferenceContext* c) { return ScalarInputs(c, {0, 1, 2}); }

absl::Status MakeSummariesShape(InferenceContext* c) {
  const int n = c->num_inputs() - 2;
  Shape unused;
  SG_RETURN_IF_ERROR(c->WithRank(n, 1, &unused));
  for (int i = 0; i < n; ++i) SG_RETURN_IF_ERROR(c->WithRank(i, 1, &unused));
  SummaryOutputs(c);
  return ScalarInputs(c, {n + 1});
}

absl::Status FlushSummariesShape(InferenceContext* c) {
  SummaryOutputs(c);
  return absl::OkStatus();
}

absl::Status AddSummariesShape(InferenceContext* c) {
  SG_RETURN_IF_ERROR(ScalarInputs(c, {0}));
  Shape unused;
  for (int i = 1; i < c->num_inputs(); ++i) SG_RETURN_IF_ERROR(c->WithRank(i, 2, &unused));
  return absl::OkStatus();
}

// As TensorFlow's: bucket_boundaries[0] must be a scalar here, though the kernel wants vectors
// (so graphs that run hide its shape).
absl::Status DeserializeShape(InferenceContext* c) { return ScalarInputs(c, {0, 1}); }

absl::Status StreamFlushShape(InferenceContext* c) { return ScalarInputs(c, {0, 1}); }

absl::Status GetBoundariesShape(InferenceContext* c) {
  SG_RETURN_IF_ERROR(ScalarInputs(c, {0}));
  for (int i = 0; i < c->num_outputs(); ++i) c->set_output(i, Shape({-1}));
  return absl::OkStatus();
}

absl::Status BucketizeShape(InferenceContext* c) {
  const int n = c->num_outputs();
  std::vector<Shape> values(n);
  for (int i = 0; i < n; ++i) {
    SG_RETURN_IF_ERROR(c->WithRank(i, 1, &values[i]));
    const int64_t d = values[i].dim_size(0), d0 = values[0].dim_size(0);
    if (d >= 0 && d0 >= 0 && d != d0) {
      return c->Error("float_values[", i, "] has ", d, " values, float_values[0] ", d0);
    }
  }
  for (int i = 0; i < n; ++i) c->set_output(i, values[i]);
  return absl::OkStatus();
}

}  // namespace

// A scalar handle to the quantile stream resource `shared_name` in `container` ("": the default).
REGISTER_OP("BoostedTreesQuantileStreamResourceHandleOp")
    .Output("resource: resource")
    .Attr("container: string = ''")
    .Attr("shared_name: string = ''")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Scalar);

// Whether the handle's resource exists.
REGISTER_OP("IsBoostedTreesQuantileStreamResourceInitialized")
    .Input("quantile_stream_resource_handle: resource")
    .Output("is_initialized: bool")
    .SetIsStateful()
    .SetShapeFn(IsInitializedShape);

// Makes the resource (unless it exists): num_streams streams of rank error epsilon (in (0, 1)),
// each for at most max_elements entries.
REGISTER_OP("BoostedTreesCreateQuantileStreamResource")
    .Input("quantile_stream_resource_handle: resource")
    .Input("epsilon: float")
    .Input("num_streams: int64")
    .Attr("max_elements: int = 1099511627776")
    .SetIsStateful()
    .SetShapeFn(CreateShape);

// A summary per feature of its values weighted by example_weights (one, or one per value).
REGISTER_OP("BoostedTreesMakeQuantileSummaries")
    .Input("float_values: num_features * float")
    .Input("example_weights: float")
    .Input("epsilon: float")
    .Output("summaries: num_features * float")
    .Attr("num_features: int >= 0")
    .SetShapeFn(MakeSummariesShape);

// The final summary of each of the first num_features streams; every stream starts anew.
REGISTER_OP("BoostedTreesFlushQuantileSummaries")
    .Input("quantile_stream_resource_handle: resource")
    .Output("summaries: num_features * float")
    .Attr("num_features: int >= 0")
    .SetIsStateful()
    .SetShapeFn(FlushSummariesShape);

// Adds summaries[i] to stream i (one summary per stream).
REGISTER_OP("BoostedTreesQuantileStreamResourceAddSummaries")
    .Input("quantile_stream_resource_handle: resource")
    .Input("summaries: num_features * float")
    .Attr("num_features: int >= 0")
    .SetIsStateful()
    .SetShapeFn(AddSummariesShape);

// Sets the bucket boundaries of the first num_streams streams (vectors).
REGISTER_OP("BoostedTreesQuantileStreamResourceDeserialize")
    .Input("quantile_stream_resource_handle: resource")
    .Input("bucket_boundaries: num_streams * float")
    .Attr("num_streams: int >= 1")
    .SetIsStateful()
    .SetShapeFn(DeserializeShape);

// Each stream's bucket boundaries from its summary (num_buckets of them without duplicates, or
// exactly num_buckets quantiles with generate_quantiles); the streams start anew.
REGISTER_OP("BoostedTreesQuantileStreamResourceFlush")
    .Input("quantile_stream_resource_handle: resource")
    .Input("num_buckets: int64")
    .Attr("generate_quantiles: bool = false")
    .SetIsStateful()
    .SetShapeFn(StreamFlushShape);

// Each stream's bucket boundaries (num_features must be the number of streams).
REGISTER_OP("BoostedTreesQuantileStreamResourceGetBucketBoundaries")
    .Input("quantile_stream_resource_handle: resource")
    .Output("bucket_boundaries: num_features * float")
    .Attr("num_features: int >= 0")
    .SetIsStateful()
    .SetShapeFn(GetBoundariesShape);

// buckets[i][j]: the index of the first of bucket_boundaries[i] >= float_values[i][j], the last
// one when none is (0 when there are no boundaries).
REGISTER_OP("BoostedTreesBucketize")
    .Input("float_values: num_features * float")
    .Input("bucket_boundaries: num_features * float")
    .Output("buckets: num_features * int32")
    .Attr("num_features: int >= 0")
    .SetShapeFn(BucketizeShape);

}  // namespace sg
