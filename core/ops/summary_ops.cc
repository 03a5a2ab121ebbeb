// Summary ops (TensorFlow's logging_ops summaries): ScalarSummary, HistogramSummary,
// TensorSummary, TensorSummaryV2 and MergeSummary, each giving a serialized Summary proto (core/proto/summary.proto) as a scalar
// string.
#include "core/framework/op.h"
#include "core/framework/shape_inference.h"

namespace sg {

// One Summary.Value per element: tag tags[i], simple_value values[i] (tags and values of one
// shape).
REGISTER_OP("ScalarSummary")
    .Input("tags: string")
    .Input("values: T")
    .Output("summary: string")
    .Attr("T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
          "uint64}")
    .SetShapeFn(shape_fns::Scalar);

// One Summary.Value tagged `tag` holding the histogram of every element of `values` over
// TensorFlow's default buckets (limits +-1e-12 * 1.1^k up to 1e20, and 0); NaN or infinity
// fails.
REGISTER_OP("HistogramSummary")
    .Input("tag: string")
    .Input("values: T")
    .Output("summary: string")
    .Attr("T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
          "uint64} = DT_FLOAT")
    .SetShapeFn(shape_fns::Scalar);

// One Summary.Value whose node_name is the node's name and whose tensor is `tensor`, without
// metadata (TensorFlow's deprecated form: its attrs are kept in the graph only).
REGISTER_OP("TensorSummary")
    .Input("tensor: T")
    .Output("summary: string")
    .Attr("T: type")
    .Attr("description: string = ''")
    .Attr("labels: list(string) = []")
    .Attr("display_name: string = ''")
    .SetShapeFn(shape_fns::Scalar);

// One Summary.Value tagged `tag` (a scalar) holding `tensor`, its metadata the SummaryMetadata
// serialized in the scalar `serialized_summary_metadata`.
REGISTER_OP("TensorSummaryV2")
    .Input("tag: string")
    .Input("tensor: T")
    .Input("serialized_summary_metadata: string")
    .Output("summary: string")
    .Attr("T: type")
    .SetShapeFn(shape_fns::Scalar);

// The values of every serialized Summary of every input, in order, as one Summary; a tag that
// appears twice fails.
REGISTER_OP("MergeSummary")
    .Input("inputs: N * string")
    .Output("summary: string")
    .Attr("N: int >= 1")
    .SetShapeFn(shape_fns::Scalar);

}  // namespace sg
