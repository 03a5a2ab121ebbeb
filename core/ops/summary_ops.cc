// Summary ops (TensorFlow's logging_ops summaries): ScalarSummary, HistogramSummary and
// MergeSummary, each giving a serialized Summary proto (core/proto/summary.proto) as a scalar
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

// The values of every serialized Summary of every input, in order, as one Summary; a tag that
// appears twice fails.
REGISTER_OP("MergeSummary")
    .Input("inputs: N * string")
    .Output("summary: string")
    .Attr("N: int >= 1")
    .SetShapeFn(shape_fns::Scalar);

}  // namespace sg
