// Segment reductions and bin counts (TensorFlow's math_ops): UnsortedSegmentSum / Prod / Max /
// Min and DenseBincount.
#include "core/framework/op.h"
#include "core/framework/shape_inference.h"

namespace sg {
namespace {

#define SG_NUMBER_TYPES                                                                    \
  "{float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, " \
  "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}"
#define SG_REAL_TYPES \
  "{float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64}"

bool ConstScalarAsInt64(const Tensor* t, int64_t* v) {
  if (t == nullptr || t->dims() != 0) return false;
  *v = t->dtype() == DT_INT64 ? t->data<int64_t>()[0] : t->data<int32_t>()[0];
  return true;
}

// [num_segments] + data.shape[segment_ids.rank:]; segment_ids' shape must prefix data's.
absl::Status UnsortedSegmentReductionShape(InferenceContext* c) {
  PartialTensorShape unused;
  if (!c->WithRank(2, 0, &unused).ok()) {
    return c->Error("num_segments should be a scalar, not shape ", c->input(2).DebugString());
  }
  const PartialTensorShape& data = c->input(0);
  const PartialTensorShape& ids = c->input(1);
  if (ids.unknown_rank()) {
    c->set_output(0, PartialTensorShape());
    return absl::OkStatus();
  }
  if (!data.unknown_rank()) {
    bool prefix = data.dims() >= ids.dims();
    for (int i = 0; prefix && i < ids.dims(); ++i) {
      const int64_t a = data.dim_size(i), b = ids.dim_size(i);
      prefix = a < 0 || b < 0 || a == b;
    }
    if (!prefix) {
      return c->Error("data.shape = ", data.DebugString(),
                      " does not start with segment_ids.shape = ", ids.DebugString());
    }
  }
  int64_t n = -1;
  if (ConstScalarAsInt64(c->input_tensor(2), &n) && n < 0) {
    return c->Error("Input num_segments == ", n, " must not be negative.");
  }
  if (data.unknown_rank()) {
    c->set_output(0, PartialTensorShape());
    return absl::OkStatus();
  }
  std::vector<int64_t> dims = {n};
  for (int i = ids.dims(); i < data.dims(); ++i) dims.push_back(data.dim_size(i));
  c->set_output(0, PartialTensorShape(dims));
  return absl::OkStatus();
}

// [size] for a vector input, [rows, size] for a matrix.
absl::Status DenseBincountShape(InferenceContext* c) {
  const PartialTensorShape& in = c->input(0);
  if (!in.unknown_rank() && in.dims() > 2) {
    return c->Error("Shape must be at most rank 2 but is rank ", in.dims());
  }
  PartialTensorShape unused;
  if (!c->WithRank(1, 0, &unused).ok()) {
    return c->Error("Shape must be rank 0 but is rank ", c->input(1).dims());
  }
  int64_t size = -1;
  if (!ConstScalarAsInt64(c->input_tensor(1), &size)) {
    c->set_output(0, PartialTensorShape());
    return absl::OkStatus();
  }
  if (size < 0) return c->Error("size (", size, ") must be non-negative");
  if (in.dims() == 1) {
    c->set_output(0, PartialTensorShape({size}));
  } else if (in.dims() == 2) {
    c->set_output(0, PartialTensorShape({in.dim_size(0), size}));
  } else {
    c->set_output(0, PartialTensorShape());
  }
  return absl::OkStatus();
}

}  // namespace

// output[s, ...] reduces the data rows whose segment id is s; a negative id drops its row, one
// >= num_segments is an error. Empty segments hold 0 (Sum), 1 (Prod), the dtype's lowest (Max)
// or highest (Min) value.
REGISTER_OP("UnsortedSegmentSum")
    .Input("data: T")
    .Input("segment_ids: Tindices")
    .Input("num_segments: Tnumsegments")
    .Output("output: T")
    .Attr("T: " SG_NUMBER_TYPES)
    .Attr("Tindices: {int16, int32, int64}")
    .Attr("Tnumsegments: {int32, int64} = DT_INT32")
    .SetShapeFn(UnsortedSegmentReductionShape);

REGISTER_OP("UnsortedSegmentProd")
    .Input("data: T")
    .Input("segment_ids: Tindices")
    .Input("num_segments: Tnumsegments")
    .Output("output: T")
    .Attr("T: " SG_NUMBER_TYPES)
    .Attr("Tindices: {int32, int64}")
    .Attr("Tnumsegments: {int32, int64} = DT_INT32")
    .SetShapeFn(UnsortedSegmentReductionShape);

REGISTER_OP("UnsortedSegmentMax")
    .Input("data: T")
    .Input("segment_ids: Tindices")
    .Input("num_segments: Tnumsegments")
    .Output("output: T")
    .Attr("T: " SG_REAL_TYPES)
    .Attr("Tindices: {int32, int64}")
    .Attr("Tnumsegments: {int32, int64} = DT_INT32")
    .SetShapeFn(UnsortedSegmentReductionShape);

REGISTER_OP("UnsortedSegmentMin")
    .Input("data: T")
    .Input("segment_ids: Tindices")
    .Input("num_segments: Tnumsegments")
    .Output("output: T")
    .Attr("T: " SG_REAL_TYPES)
    .Attr("Tindices: {int32, int64}")
    .Attr("Tnumsegments: {int32, int64} = DT_INT32")
    .SetShapeFn(UnsortedSegmentReductionShape);

// Counts (or sums the weights of) each value in [0, size) of a vector, or of each row of a
// matrix; larger values are ignored, negative ones are an error. binary_output: 1 where a value
// occurs. weights: the input's shape, or empty for all ones.
REGISTER_OP("DenseBincount")
    .Input("input: Tidx")
    .Input("size: Tidx")
    .Input("weights: T")
    .Attr("Tidx: {int32, int64}")
    .Attr("T: {int32, int64, float32, float64}")
    .Attr("binary_output: bool = false")
    .Output("output: T")
    .SetShapeFn(DenseBincountShape);

#undef SG_NUMBER_TYPES
#undef SG_REAL_TYPES

}  // namespace sg
