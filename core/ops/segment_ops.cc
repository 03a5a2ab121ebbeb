// Segment reductions and bin counts (TensorFlow's math_ops): UnsortedSegmentSum / Prod / Max /
// Min, the sorted Segment{Sum,Mean,Min,Max,Prod}, SparseSegment{Sum,Mean,SqrtN} with and
// without num_segments, and DenseBincount.
#include "core/framework/op.h"
#include "core/framework/shape_inference.h"

namespace sg {
namespace {

#define SG_NUMBER_TYPES                                                                    \
  "{float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, " \
  "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}"
#define SG_REAL_TYPES \
  "{float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64}"
#define SG_FLOAT_TYPES "{bfloat16, half, float, double}"

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

// [?] + data.shape[1:]: the sorted segment reductions (segment_ids a vector as long as data's
// first dim; the row count is the last id + 1, known only at run time).
absl::Status SegmentReductionShape(InferenceContext* c) {
  PartialTensorShape data, ids;
  SG_RETURN_IF_ERROR(c->WithRankAtLeast(0, 1, &data));
  SG_RETURN_IF_ERROR(c->WithRank(1, 1, &ids));
  if (data.unknown_rank()) {
    c->set_output(0, PartialTensorShape());
    return absl::OkStatus();
  }
  std::vector<int64_t> dims = {-1};
  for (int i = 1; i < data.dims(); ++i) dims.push_back(data.dim_size(i));
  c->set_output(0, PartialTensorShape(dims));
  return absl::OkStatus();
}

// SparseSegment*: data rank >= 1, indices and segment_ids vectors of one length; output
// [num_segments or ?] + data.shape[1:]. `num_segments_input` is -1 without that input.
absl::Status SparseSegmentReductionShapeImpl(InferenceContext* c, int num_segments_input) {
  PartialTensorShape data, indices, ids;
  SG_RETURN_IF_ERROR(c->WithRankAtLeast(0, 1, &data));
  SG_RETURN_IF_ERROR(c->WithRank(1, 1, &indices));
  SG_RETURN_IF_ERROR(c->WithRank(2, 1, &ids));
  if (!indices.unknown_rank() && !ids.unknown_rank() && indices.dim_size(0) >= 0 &&
      ids.dim_size(0) >= 0 && indices.dim_size(0) != ids.dim_size(0)) {
    return c->Error("Dimensions must be equal, but are ", indices.dim_size(0), " and ",
                    ids.dim_size(0), " for indices and segment_ids");
  }
  int64_t rows = -1;
  if (num_segments_input >= 0) {
    PartialTensorShape unused;
    SG_RETURN_IF_ERROR(c->WithRank(num_segments_input, 0, &unused));
    if (ConstScalarAsInt64(c->input_tensor(num_segments_input), &rows) && rows < 0) {
      return c->Error("Dimension size, given by scalar input ", num_segments_input,
                      ", must be non-negative but is ", rows);
    }
  }
  if (data.unknown_rank()) {
    c->set_output(0, PartialTensorShape());
    return absl::OkStatus();
  }
  std::vector<int64_t> dims = {rows};
  for (int i = 1; i < data.dims(); ++i) dims.push_back(data.dim_size(i));
  c->set_output(0, PartialTensorShape(dims));
  return absl::OkStatus();
}

absl::Status SparseSegmentReductionShape(InferenceContext* c) {
  return SparseSegmentReductionShapeImpl(c, -1);
}

absl::Status SparseSegmentReductionWithNumSegmentsShape(InferenceContext* c) {
  return SparseSegmentReductionShapeImpl(c, 3);
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

// output[s] reduces the rows i of data whose segment_ids[i] == s; segment_ids is a vector as long
// as data's first dim, sorted, >= 0 (INVALID_ARGUMENT otherwise). The output has
// segment_ids[-1] + 1 rows; an empty segment holds 0 (1 for SegmentProd). Mean divides the sum by
// the row count (integer division for integer types).
REGISTER_OP("SegmentSum")
    .Input("data: T")
    .Input("segment_ids: Tindices")
    .Output("output: T")
    .Attr("T: " SG_NUMBER_TYPES)
    .Attr("Tindices: {int32, int64}")
    .SetShapeFn(SegmentReductionShape);

REGISTER_OP("SegmentMean")
    .Input("data: T")
    .Input("segment_ids: Tindices")
    .Output("output: T")
    .Attr("T: " SG_NUMBER_TYPES)
    .Attr("Tindices: {int32, int64}")
    .SetShapeFn(SegmentReductionShape);

REGISTER_OP("SegmentProd")
    .Input("data: T")
    .Input("segment_ids: Tindices")
    .Output("output: T")
    .Attr("T: " SG_NUMBER_TYPES)
    .Attr("Tindices: {int32, int64}")
    .SetShapeFn(SegmentReductionShape);

REGISTER_OP("SegmentMin")
    .Input("data: T")
    .Input("segment_ids: Tindices")
    .Output("output: T")
    .Attr("T: " SG_REAL_TYPES)
    .Attr("Tindices: {int32, int64}")
    .SetShapeFn(SegmentReductionShape);

REGISTER_OP("SegmentMax")
    .Input("data: T")
    .Input("segment_ids: Tindices")
    .Output("output: T")
    .Attr("T: " SG_REAL_TYPES)
    .Attr("Tindices: {int32, int64}")
    .SetShapeFn(SegmentReductionShape);

// output[s] reduces the rows data[indices[j]] whose segment_ids[j] == s: their sum, their mean,
// or their sum over sqrt(count). segment_ids is sorted and >= 0; indices are rows of data. The
// output has segment_ids[-1] + 1 rows, or num_segments; an empty segment holds 0. The
// sparse_gradient attr only changes the gradient.
REGISTER_OP("SparseSegmentSum")
    .Input("data: T")
    .Input("indices: Tidx")
    .Input("segment_ids: Tsegmentids")
    .Output("output: T")
    .Attr("T: " SG_REAL_TYPES)
    .Attr("Tidx: {int32, int64} = DT_INT32")
    .Attr("Tsegmentids: {int32, int64} = DT_INT32")
    .Attr("sparse_gradient: bool = false")
    .SetShapeFn(SparseSegmentReductionShape);

REGISTER_OP("SparseSegmentSumWithNumSegments")
    .Input("data: T")
    .Input("indices: Tidx")
    .Input("segment_ids: Tsegmentids")
    .Input("num_segments: Tnumsegments")
    .Output("output: T")
    .Attr("T: " SG_REAL_TYPES)
    .Attr("Tidx: {int32, int64} = DT_INT32")
    .Attr("Tnumsegments: {int32, int64} = DT_INT32")
    .Attr("Tsegmentids: {int32, int64} = DT_INT32")
    .Attr("sparse_gradient: bool = false")
    .SetShapeFn(SparseSegmentReductionWithNumSegmentsShape);

// The gradients of SparseSegment{Sum,Mean,SqrtN}: grad [segments, ...] to [output_dim0, ...].
#define SG_SPARSE_SEGMENT_GRAD(name)                                                      \
  REGISTER_OP(name)                                                                       \
      .Input("grad: T")                                                                   \
      .Input("indices: Tidx")                                                             \
      .Input("segment_ids: Tsegmentids")                                                  \
      .Input("output_dim0: int32")                                                        \
      .Output("output: T")                                                                \
      .Attr("T: " SG_FLOAT_TYPES)                                                         \
      .Attr("Tidx: {int32, int64} = DT_INT32")                                            \
      .Attr("Tsegmentids: {int32, int64} = DT_INT32")                                     \
      .SetShapeFn(SparseSegmentReductionWithNumSegmentsShape)
SG_SPARSE_SEGMENT_GRAD("SparseSegmentSumGrad");
SG_SPARSE_SEGMENT_GRAD("SparseSegmentMeanGrad");
SG_SPARSE_SEGMENT_GRAD("SparseSegmentSqrtNGrad");
#undef SG_SPARSE_SEGMENT_GRAD

REGISTER_OP("SparseSegmentMean")
    .Input("data: T")
    .Input("indices: Tidx")
    .Input("segment_ids: Tsegmentids")
    .Output("output: T")
    .Attr("T: " SG_FLOAT_TYPES)
    .Attr("Tidx: {int32, int64} = DT_INT32")
    .Attr("Tsegmentids: {int32, int64} = DT_INT32")
    .Attr("sparse_gradient: bool = false")
    .SetShapeFn(SparseSegmentReductionShape);

REGISTER_OP("SparseSegmentMeanWithNumSegments")
    .Input("data: T")
    .Input("indices: Tidx")
    .Input("segment_ids: Tsegmentids")
    .Input("num_segments: Tnumsegments")
    .Output("output: T")
    .Attr("T: " SG_FLOAT_TYPES)
    .Attr("Tidx: {int32, int64} = DT_INT32")
    .Attr("Tnumsegments: {int32, int64} = DT_INT32")
    .Attr("Tsegmentids: {int32, int64} = DT_INT32")
    .Attr("sparse_gradient: bool = false")
    .SetShapeFn(SparseSegmentReductionWithNumSegmentsShape);

REGISTER_OP("SparseSegmentSqrtN")
    .Input("data: T")
    .Input("indices: Tidx")
    .Input("segment_ids: Tsegmentids")
    .Output("output: T")
    .Attr("T: " SG_FLOAT_TYPES)
    .Attr("Tidx: {int32, int64} = DT_INT32")
    .Attr("Tsegmentids: {int32, int64} = DT_INT32")
    .Attr("sparse_gradient: bool = false")
    .SetShapeFn(SparseSegmentReductionShape);

REGISTER_OP("SparseSegmentSqrtNWithNumSegments")
    .Input("data: T")
    .Input("indices: Tidx")
    .Input("segment_ids: Tsegmentids")
    .Input("num_segments: Tnumsegments")
    .Output("output: T")
    .Attr("T: " SG_FLOAT_TYPES)
    .Attr("Tidx: {int32, int64} = DT_INT32")
    .Attr("Tnumsegments: {int32, int64} = DT_INT32")
    .Attr("Tsegmentids: {int32, int64} = DT_INT32")
    .Attr("sparse_gradient: bool = false")
    .SetShapeFn(SparseSegmentReductionWithNumSegmentsShape);

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
#undef SG_FLOAT_TYPES

}  // namespace sg
