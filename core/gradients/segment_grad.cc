// Gradients of the segment, scatter/gather-nd, SparseToDense, stitch/partition and reordering
// ops, with TensorFlow's formulas (tensorflow/python/ops/math_grad.py, array_grad.py,
// data_flow_grad.py, manip_grad.py, nn_grad.py, sparse_grad.py). Gradients TensorFlow returns as
// IndexedSlices are dense here (UnsortedSegmentSum into the params' rows, as TensorFlow's own
// conversion), and SparseSegmentMean/SqrtN's SparseSegment*Grad kernels are written as the same
// sums: grad rows divided by their segment's count (or its square root), gathered by segment id
// and summed into the data rows named by `indices`.
#include "core/gradients/grad_registry.h"

namespace sg {
namespace {

using Fn = absl::Status;

GradOutput Gather0(GradScope& s, GradOutput params, GradOutput ids) {
  return s.Op("GatherV2", {params, ids, s.ScalarI32(0)});
}

// Dim 0 of x, as an int32 scalar (a constant when static).
GradOutput Dim0(GradScope& s, GradOutput x) {
  PartialTensorShape xs = StaticShapeOf(x);
  if (!xs.unknown_rank() && xs.dims() > 0 && xs.dim_size(0) >= 0) {
    return s.ScalarI32(xs.dim_size(0));
  }
  return Gather0(s, s.Shape(x), s.ScalarI32(0));
}

// [shape(ids)..., 1, 1, ...] up to x's rank: a shape that broadcasts per-row values over x's
// inner dims (TensorFlow's ones_shape in _SegmentMeanGrad).
GradOutput RowBroadcastShape(GradScope& s, GradOutput ids, GradOutput x) {
  GradOutput inner_rank = s.Sub(s.Op("Rank", {x}), s.ScalarI32(1));
  GradOutput ones =
      s.Op("Fill", {s.Op("ExpandDims", {inner_rank, s.ScalarI32(0)}), s.ScalarI32(1)});
  return s.Op("ConcatV2", {GradInput::List({s.Shape(ids), ones}), s.ScalarI32(0)});
}

GradOutput BoolTrue(GradScope& s) {
  Tensor t(DT_BOOL, TensorShape({}));
  t.flat<bool>()(0) = true;
  return s.Const(t);
}

// TensorFlow's _GatherDropNegatives: rows of `params` at max(ids, 0), zeroed where ids < 0.
struct Dropped {
  GradOutput gathered, zero_clipped, is_positive;
};
Dropped GatherDropNegatives(GradScope& s, GradOutput params, GradOutput ids,
                            GradOutput zero_clipped = NoGradient(),
                            GradOutput is_positive = NoGradient()) {
  if (IsNoGradient(zero_clipped)) zero_clipped = s.Op("Maximum", {ids, s.ZerosLike(ids)});
  GradOutput gathered = Gather0(s, params, zero_clipped);
  if (IsNoGradient(is_positive)) {
    GradOutput positive = s.Op("GreaterEqual", {ids, s.ZerosLike(ids)});
    GradOutput extra = s.Sub(s.Op("Rank", {gathered}), s.Op("Rank", {positive}));
    GradOutput ones = s.Op("Fill", {s.Op("ExpandDims", {extra, s.ScalarI32(0)}), s.ScalarI32(1)});
    GradOutput shape =
        s.Op("ConcatV2", {GradInput::List({s.Shape(positive), ones}), s.ScalarI32(0)});
    positive = s.Reshape(positive, shape);
    GradOutput all_true = s.Op("Fill", {s.Shape(gathered), BoolTrue(s)});
    is_positive = s.Op("LogicalAnd", {positive, all_true});
  }
  GradOutput kept = s.Op("Select", {is_positive, gathered, s.ZerosLike(gathered)});
  return {kept, zero_clipped, is_positive};
}

void NoGradients(int n, GradOutputs* dx) {
  for (int i = 0; i < n; ++i) dx->push_back(NoGradient());
}

// ---- Segment reductions ----------------------------------------------------------------------

Fn SegmentMeanGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput data = InputOf(op, 0), ids = InputOf(op, 1);
  GradOutput ones = s.Op("Fill", {RowBroadcastShape(s, ids, data), s.ScalarOf(DTypeOf(data), 1.0)});
  GradOutput scaled = s.RealDiv(dy[0], s.Op("SegmentSum", {ones, ids}));
  dx->push_back(Gather0(s, scaled, ids));
  dx->push_back(NoGradient());
  return s.status();
}

// SegmentMax / SegmentMin: shared equally among the elements equal to their segment's result.
Fn SegmentMinOrMaxGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput data = InputOf(op, 0), ids = InputOf(op, 1);
  GradOutput is_selected = s.Op("Equal", {data, Gather0(s, OutputOf(op, 0), ids)});
  GradOutput num_selected = s.Op("SegmentSum", {s.Cast(is_selected, DTypeOf(dy[0])), ids});
  GradOutput gathered = Gather0(s, s.RealDiv(dy[0], num_selected), ids);
  dx->push_back(s.Op("Select", {is_selected, gathered, s.ZerosLike(data)}));
  dx->push_back(NoGradient());
  return s.status();
}

// SegmentProd / UnsortedSegmentProd: the product of the other elements (zeros handled as
// TensorFlow does: a segment with two zeros gets none).
Fn SegmentProdGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  const bool unsorted = op.num_inputs() == 3;
  GradOutput data = InputOf(op, 0), ids = InputOf(op, 1);
  auto segment = [&](const char* sorted_op, const char* unsorted_op, GradOutput v) {
    return unsorted ? s.Op(unsorted_op, {v, ids, InputOf(op, 2)}) : s.Op(sorted_op, {v, ids});
  };
  GradOutput is_zero = s.Op("Equal", {data, s.ZerosLike(data)});
  GradOutput num_zeros = segment("SegmentSum", "UnsortedSegmentSum", s.Cast(is_zero, DT_INT32));
  GradOutput grad = s.Op("SelectV2", {s.Op("Greater", {num_zeros, s.ScalarI32(1)}),
                                      s.ZerosLike(dy[0]), dy[0]});
  GradOutput non_zero_data = s.Op("SelectV2", {is_zero, s.Op("OnesLike", {data}), data});
  GradOutput non_zero_prod = segment("SegmentProd", "UnsortedSegmentProd", non_zero_data);
  GradOutput index = unsorted ? s.Op("Maximum", {ids, s.ZerosLike(ids)}) : ids;
  GradOutput gathered_prod = Gather0(s, OutputOf(op, 0), index);
  GradOutput gathered_non_zero_prod = Gather0(s, non_zero_prod, index);
  // Sorted: divided by the non-zero data; unsorted: by the data (TensorFlow's two versions).
  GradOutput by_el = s.RealDiv(gathered_prod, unsorted ? data : non_zero_data);
  GradOutput partial = s.Op("SelectV2", {is_zero, gathered_non_zero_prod, by_el});
  GradOutput gathered_grad =
      unsorted ? GatherDropNegatives(s, grad, ids, index).gathered : Gather0(s, grad, ids);
  dx->push_back(s.Mul(gathered_grad, partial));
  NoGradients(unsorted ? 2 : 1, dx);
  return s.status();
}

Fn UnsortedSegmentMinOrMaxGrad(GradScope& s, const Node& op, const GradOutputs& dy,
                               GradOutputs* dx) {
  GradOutput data = InputOf(op, 0), ids = InputOf(op, 1);
  Dropped out = GatherDropNegatives(s, OutputOf(op, 0), ids);
  GradOutput is_selected =
      s.Op("LogicalAnd", {s.Op("Equal", {data, out.gathered}), out.is_positive});
  GradOutput num_selected = s.Op(
      "UnsortedSegmentSum", {s.Cast(is_selected, DTypeOf(dy[0])), ids, InputOf(op, 2)});
  GradOutput weighted = s.RealDiv(dy[0], num_selected);
  GradOutput gathered =
      GatherDropNegatives(s, weighted, NoGradient(), out.zero_clipped, out.is_positive).gathered;
  dx->push_back(s.Op("Select", {is_selected, gathered, s.ZerosLike(gathered)}));
  NoGradients(2, dx);
  return s.status();
}

// SparseSegmentSum/Mean/SqrtN(data, indices, segment_ids[, num_segments]).
GradFunc SparseSegmentGrad(const char* scale) {
  const std::string mode = scale;
  return [mode](GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
    GradOutput data = InputOf(op, 0), indices = InputOf(op, 1), ids = InputOf(op, 2);
    GradOutput grad = dy[0];
    if (mode != "sum") {
      // Each segment's count of entries, at least 1, broadcast over the inner dims.
      GradOutput ones =
          s.Op("Fill", {RowBroadcastShape(s, ids, grad), s.ScalarOf(DTypeOf(grad), 1.0)});
      GradOutput counts = s.Op("UnsortedSegmentSum", {ones, ids, Dim0(s, grad)});
      counts = s.Op("Maximum", {counts, s.ScalarOf(DTypeOf(grad), 1.0)});
      if (mode == "sqrtn") counts = s.Op("Sqrt", {counts});
      grad = s.RealDiv(grad, counts);
    }
    dx->push_back(s.Op("UnsortedSegmentSum", {Gather0(s, grad, ids), indices, Dim0(s, data)}));
    NoGradients(op.num_inputs() - 1, dx);
    return s.status();
  };
}

// ---- Gather/scatter by n-d indices -----------------------------------------------------------

Fn GatherNdGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput params = InputOf(op, 0), indices = InputOf(op, 1);
  dx->push_back(s.Op("ScatterNd", {indices, dy[0], s.Shape(params, DTypeOf(indices))}));
  dx->push_back(NoGradient());
  return s.status();
}

Fn ScatterNdGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(NoGradient());
  dx->push_back(s.Op("GatherNd", {dy[0], InputOf(op, 0)}));
  dx->push_back(NoGradient());
  return s.status();
}

Fn TensorScatterUpdateGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput indices = InputOf(op, 1);
  dx->push_back(s.Op("TensorScatterUpdate", {dy[0], indices, s.ZerosLike(InputOf(op, 2))}));
  dx->push_back(NoGradient());
  dx->push_back(s.Op("GatherNd", {dy[0], indices}));
  return s.status();
}

// TensorScatterAdd, TensorScatterSub (negated updates) and ScatterNdNonAliasingAdd.
GradFunc TensorScatterAddGrad(bool negate) {
  return [negate](GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
    GradOutput updates = s.Op("GatherNd", {dy[0], InputOf(op, 1)});
    dx->push_back(dy[0]);
    dx->push_back(NoGradient());
    dx->push_back(negate ? s.Neg(updates) : updates);
    return s.status();
  };
}

// TensorScatterMin / Max: shared among the tensor element and the updates equal to the result.
Fn TensorScatterMinOrMaxGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput x = InputOf(op, 0), indices = InputOf(op, 1), y = InputOf(op, 2);
  GradOutput out = OutputOf(op, 0);
  DataType dt = DTypeOf(dy[0]);
  GradOutput x_ind = s.Cast(s.Op("Equal", {x, out}), dt);
  GradOutput y_ind = s.Cast(s.Op("Equal", {y, s.Op("GatherNd", {out, indices})}), dt);
  GradOutput ys_ind = s.Op("ScatterNd", {indices, y_ind, s.Shape(x, DTypeOf(indices))});
  GradOutput indicators = s.Add(x_ind, ys_ind);
  dx->push_back(s.RealDiv(s.Mul(dy[0], x_ind), indicators));
  dx->push_back(NoGradient());
  dx->push_back(s.Mul(s.Op("GatherNd", {s.RealDiv(dy[0], indicators), indices}), y_ind));
  return s.status();
}

// SparseToDense(sparse_indices, output_shape, sparse_values, default_value): the values get dy
// at their indices, the default value the rest of dy's sum (TensorFlow's sparse_grad.py).
Fn SparseToDenseGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput values_grad = s.Op("GatherNd", {dy[0], InputOf(op, 0)});
  auto sum_all = [&](GradOutput t) {
    return s.Sum(t, s.Op("Range", {s.ScalarI32(0), s.Op("Rank", {t}), s.ScalarI32(1)}));
  };
  dx->push_back(NoGradient());
  dx->push_back(NoGradient());
  dx->push_back(values_grad);
  dx->push_back(s.Sub(sum_all(dy[0]), sum_all(values_grad)));
  return s.status();
}

// ---- Stitch / partition ----------------------------------------------------------------------

// DynamicStitch / ParallelDynamicStitch(indices..., data...): data[i]'s gradient is dy's rows
// at indices[i] (every listed position, as TensorFlow, also one a later index overwrote).
Fn DynamicStitchGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  const int n = op.num_inputs() / 2;
  NoGradients(n, dx);
  for (int i = 0; i < n; ++i) {
    GradOutput idx = InputOf(op, i);
    if (DTypeOf(idx) != DT_INT32) idx = s.Cast(idx, DT_INT32);
    dx->push_back(Gather0(s, dy[0], idx));
  }
  return s.status();
}

Fn DynamicPartitionGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput data = InputOf(op, 0), partitions = InputOf(op, 1);
  GradOutput prefix = s.Shape(partitions);
  GradOutput count = s.Op("Prod", {prefix, s.ScalarI32(0)});
  GradOutput original = s.Reshape(s.Op("Range", {s.ScalarI32(0), count, s.ScalarI32(1)}), prefix);
  GradOutputs parts = s.OpN("DynamicPartition", {original, partitions},
                            CopyAttrs(op, {"num_partitions"}));
  if (!s.status().ok()) return s.status();
  GradOutput stitched =
      s.Op("ParallelDynamicStitch", {GradInput::List(parts), GradInput::List(dy)});
  dx->push_back(s.Reshape(stitched, s.Shape(data)));
  dx->push_back(NoGradient());
  return s.status();
}

// ---- Reordering -------------------------------------------------------------------------------

// TopK / TopKV2: dy scattered back to the positions the indices name, in the flat input.
Fn TopKGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  GradOutput x = InputOf(op, 0), indices = OutputOf(op, 1);
  DataType it = DTypeOf(indices);
  // The last dim of a shape, as int64.
  auto last_dim = [&](GradOutput shape) {
    return Gather0(s, s.Cast(shape, DT_INT64), s.Sub(s.Op("Size", {shape}), s.ScalarI32(1)));
  };
  GradOutput in_shape = s.Shape(x);
  GradOutput minus_one = s.Cast(s.ScalarI32(-1), DT_INT64);
  GradOutput ind_2d = s.Reshape(
      indices, s.Op("Pack", {GradInput::List({minus_one, last_dim(s.Shape(indices))})}));
  GradOutput in_last = last_dim(in_shape);
  GradOutput outer = s.Cast(Gather0(s, s.Shape(ind_2d), s.ScalarI32(0)), DT_INT64);
  GradOutput starts =
      s.Op("Range", {s.Cast(s.ScalarI32(0), DT_INT64), s.Mul(outer, in_last), in_last});
  GradOutput flat_ind = s.Reshape(
      s.Add(ind_2d, s.Cast(s.Op("ExpandDims", {starts, s.ScalarI32(-1)}), it)), s.ConstI32({-1}));
  GradOutput size = s.Reshape(s.Op("Prod", {in_shape, s.ScalarI32(0)}), s.ConstI32({1}));
  GradOutput scattered =
      s.Op("ScatterNd", {s.Op("ExpandDims", {flat_ind, s.ScalarI32(-1)}),
                         s.Reshape(dy[0], s.ConstI32({-1})), s.Cast(size, it)});
  dx->push_back(s.Reshape(scattered, in_shape));
  if (op.num_inputs() > 1) dx->push_back(NoGradient());  // TopKV2's k
  return s.status();
}

Fn ReverseSequenceGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(s.Op("ReverseSequence", {dy[0], InputOf(op, 1)},
                     CopyAttrs(op, {"seq_dim", "batch_dim"})));
  dx->push_back(NoGradient());
  return s.status();
}

Fn RollGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  dx->push_back(s.Op("Roll", {dy[0], s.Neg(InputOf(op, 1)), InputOf(op, 2)}));
  NoGradients(2, dx);
  return s.status();
}

// SparseFillEmptyRows(indices, values, dense_shape, default_value) -> (indices, values,
// empty_row_indicator, reverse_index_map): SparseFillEmptyRowsGrad maps the output values'
// gradient back to the input values and the default value (TensorFlow's sparse_grad.py).
Fn SparseFillEmptyRowsGrad(GradScope& s, const Node& op, const GradOutputs& dy,
                           GradOutputs* dx) {
  GradOutputs g = s.OpN("SparseFillEmptyRowsGrad", {OutputOf(op, 3), dy[1]});
  if (!s.status().ok()) return s.status();
  dx->push_back(NoGradient());
  dx->push_back(g[0]);
  dx->push_back(NoGradient());
  dx->push_back(g[1]);
  return s.status();
}

SG_REGISTER_GRADIENT("SegmentMean", SegmentMeanGrad);
SG_REGISTER_GRADIENT("SegmentMax", SegmentMinOrMaxGrad);
SG_REGISTER_GRADIENT("SegmentMin", SegmentMinOrMaxGrad);
SG_REGISTER_GRADIENT("SegmentProd", SegmentProdGrad);
SG_REGISTER_GRADIENT("UnsortedSegmentProd", SegmentProdGrad);
SG_REGISTER_GRADIENT("UnsortedSegmentMax", UnsortedSegmentMinOrMaxGrad);
SG_REGISTER_GRADIENT("UnsortedSegmentMin", UnsortedSegmentMinOrMaxGrad);
SG_REGISTER_GRADIENT("SparseSegmentSum", SparseSegmentGrad("sum"));
SG_REGISTER_GRADIENT("SparseSegmentSumWithNumSegments", SparseSegmentGrad("sum"));
SG_REGISTER_GRADIENT("SparseSegmentMean", SparseSegmentGrad("mean"));
SG_REGISTER_GRADIENT("SparseSegmentMeanWithNumSegments", SparseSegmentGrad("mean"));
SG_REGISTER_GRADIENT("SparseSegmentSqrtN", SparseSegmentGrad("sqrtn"));
SG_REGISTER_GRADIENT("SparseSegmentSqrtNWithNumSegments", SparseSegmentGrad("sqrtn"));
SG_REGISTER_GRADIENT("GatherNd", GatherNdGrad);
SG_REGISTER_GRADIENT("ScatterNd", ScatterNdGrad);
SG_REGISTER_GRADIENT("TensorScatterUpdate", TensorScatterUpdateGrad);
SG_REGISTER_GRADIENT("TensorScatterAdd", TensorScatterAddGrad(false));
SG_REGISTER_GRADIENT("TensorScatterSub", TensorScatterAddGrad(true));
SG_REGISTER_GRADIENT("ScatterNdNonAliasingAdd", TensorScatterAddGrad(false));
SG_REGISTER_GRADIENT("TensorScatterMin", TensorScatterMinOrMaxGrad);
SG_REGISTER_GRADIENT("TensorScatterMax", TensorScatterMinOrMaxGrad);
SG_REGISTER_GRADIENT("SparseFillEmptyRows", SparseFillEmptyRowsGrad);
SG_REGISTER_GRADIENT("SparseToDense", SparseToDenseGrad);
SG_REGISTER_GRADIENT("DynamicStitch", DynamicStitchGrad);
SG_REGISTER_GRADIENT("ParallelDynamicStitch", DynamicStitchGrad);
SG_REGISTER_GRADIENT("DynamicPartition", DynamicPartitionGrad);
SG_REGISTER_GRADIENT("TopK", TopKGrad);
SG_REGISTER_GRADIENT("TopKV2", TopKGrad);
SG_REGISTER_GRADIENT("ReverseSequence", ReverseSequenceGrad);
SG_REGISTER_GRADIENT("Roll", RollGrad);

// TensorFlow marks these NotDifferentiable (state_grad.py: the ref scatters).
SG_REGISTER_NO_GRADIENT("ScatterNdUpdate");
SG_REGISTER_NO_GRADIENT("ScatterNdAdd");
SG_REGISTER_NO_GRADIENT("ScatterNdSub");

}  // namespace
}  // namespace sg
