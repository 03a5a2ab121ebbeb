// SoftmaxCrossEntropyWithLogits (TensorFlow's nn_ops) and CumulativeLogsumexp (math_ops): the two
// log-sum-exp ops of the portable op set.
#include <cstdint>

#include "core/framework/op.h"
#include "core/framework/shape_inference.h"

namespace sg {
namespace {

// Features and labels are [batch, classes] matrices, or broadcast to one; loss is [batch].
absl::Status SoftmaxXentShape(InferenceContext* c) {
  PartialTensorShape features;
  if (c->WithRank(0, 2, &features).ok()) {
    auto merged = features.Merge(c->input(1));
    if (merged.ok()) {
      c->set_output(0, PartialTensorShape({merged->dim_size(0)}));
      c->set_output(1, *merged);
      return absl::OkStatus();
    }
  }
  auto broadcast = shape_fns::Broadcast(c->input(0), c->input(1));
  if (!broadcast.ok()) return c->Error(broadcast.status().message());
  const PartialTensorShape& both = *broadcast;
  if (both.unknown_rank()) {
    return c->Error("Shape must be broadcasted with rank 2, but is rank is unknown.");
  }
  if (both.dims() != 2) {
    return c->Error("Shape must be broadcasted with rank 2, but is rank ", both.dims());
  }
  c->set_output(0, PartialTensorShape({both.dim_size(0)}));
  c->set_output(1, both);
  return absl::OkStatus();
}

}  // namespace

// loss[b] = -sum_c labels[b, c] * log_softmax(features)[b, c]; backprop = softmax(features) -
// labels. labels broadcast against features (numpy rules) to a matrix.
REGISTER_OP("SoftmaxCrossEntropyWithLogits")
    .Input("features: T")
    .Input("labels: T")
    .Output("loss: T")
    .Output("backprop: T")
    .Attr("T: {half, bfloat16, float, double}")
    .SetShapeFn(SoftmaxXentShape);

// out[i] = log(sum_{j <= i} exp(x[j])) along `axis` (j < i with exclusive, from the end with
// reverse).
REGISTER_OP("CumulativeLogsumexp")
    .Input("x: T")
    .Input("axis: Tidx")
    .Output("out: T")
    .Attr("exclusive: bool = false")
    .Attr("reverse: bool = false")
    .Attr("T: {bfloat16, half, float, double}")
    .Attr("Tidx: {int32, int64} = DT_INT32")
    .SetShapeFn(shape_fns::Unchanged);

}  // namespace sg
