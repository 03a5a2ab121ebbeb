"""Op conformance cases: Sparse tensors, ragged arrays, matrix inverses, LogSumExp, in-place ops and CTC decoders."""

from op_case_lib import *  # noqa: F401,F403


# ---- sparse tensors ------------------------------------------------------------------------


@group
def sparse_ops(g):
    I64 = "int64"
    for dt in UNIVERSE:
        for tidx in ("int32", "int64"):
            g.case(f"SparseToDense.{sgname(dt)}.{tidx}_matrix",
                   lambda: raw.SparseToDense(
                       sparse_indices=g.const([[0, 1], [1, 0], [1, 2], [2, 3]], tidx),
                       output_shape=g.const([3, 4], tidx), sparse_values=g.rand(dt, [4]),
                       default_value=g.rand(dt, []), name="op"))
        g.case(f"SparseToDense.{sgname(dt)}.vector_indices",
               lambda: raw.SparseToDense(sparse_indices=g.const([0, 2, 5], "int32"),
                                         output_shape=g.const([6], "int32"),
                                         sparse_values=g.rand(dt, [3]),
                                         default_value=g.rand(dt, []), name="op"))
        g.case(f"SparseToDense.{sgname(dt)}.scalar_value",
               lambda: raw.SparseToDense(sparse_indices=g.const([[0, 0, 1], [1, 1, 0]], I64),
                                         output_shape=g.const([2, 2, 2], I64),
                                         sparse_values=g.rand(dt, []),
                                         default_value=g.rand(dt, []), name="op"))
        rows = [[0, 1], [0, 3], [2, 0], [4, 2], [4, 3]]
        g.case(f"SparseFillEmptyRows.{sgname(dt)}.basic",
               lambda: raw.SparseFillEmptyRows(indices=g.const(rows, I64),
                                               values=g.rand(dt, [5]),
                                               dense_shape=g.const([6, 5], I64),
                                               default_value=g.rand(dt, []), name="op"))
    F = "float32"
    g.case("SparseToDense.float.scalar_index",
           lambda: raw.SparseToDense(sparse_indices=g.const(2, "int32"),
                                     output_shape=g.const([4], "int32"),
                                     sparse_values=g.const(7, F), default_value=g.const(1, F),
                                     name="op"))
    g.case("SparseToDense.float.empty",
           lambda: raw.SparseToDense(sparse_indices=g.const(np.zeros([0, 2]), I64),
                                     output_shape=g.const([2, 3], I64),
                                     sparse_values=g.const(np.zeros([0]), F),
                                     default_value=g.const(-1, F), name="op"))
    g.case("SparseToDense.float.unsorted_unvalidated",
           lambda: raw.SparseToDense(sparse_indices=g.const([[1, 1], [0, 0], [1, 1]], I64),
                                     output_shape=g.const([2, 2], I64),
                                     sparse_values=g.const([1, 2, 3], F),
                                     default_value=g.const(0, F), validate_indices=False,
                                     name="op"))
    def std_error(sname, indices, shape, vals, default=0.0, validate=True):
        g.case(f"SparseToDense.float.{sname}",
               lambda: raw.SparseToDense(sparse_indices=hide_rank(g.const(indices, I64)),
                                         output_shape=hide_rank(g.const(shape, I64)),
                                         sparse_values=hide_rank(g.const(vals, F)),
                                         default_value=hide_rank(g.const(default, F)),
                                         validate_indices=validate, name="op"), error=True)
    std_error("out_of_bounds", [[0, 1], [2, 0]], [2, 2], [1, 2])
    std_error("negative_index", [[0, -1]], [2, 2], [1])
    std_error("unsorted", [[1, 1], [0, 0]], [2, 2], [1, 2])
    std_error("repeated", [[1, 1], [1, 1]], [2, 2], [1, 2])
    std_error("values_shape", [[0, 0], [1, 1]], [2, 2], [1, 2, 3])
    std_error("default_not_scalar", [[0, 0]], [2, 2], [1], default=[1.0])
    std_error("shape_rank_mismatch", [[0, 0]], [2, 2, 2], [1])
    std_error("indices_rank3", [[[0, 0]]], [2, 2], [1])
    std_error("negative_shape", [[0, 0]], [2, -2], [1])

    def reshape(sname, indices, shape, new_shape, error=False):
        g.case(f"SparseReshape.{sname}",
               lambda: raw.SparseReshape(
                   input_indices=g.const(indices, I64),
                   input_shape=g.const(shape, I64),
                   new_shape=(hide_rank if error else lambda t: t)(g.const(new_shape, I64)),
                   name="op"), error=error)
    reshape("basic", [[0, 0, 1], [0, 2, 3], [1, 1, 0], [1, 2, 2]], [2, 3, 4], [6, 4])
    reshape("infer", [[0, 0, 1], [0, 2, 3], [1, 1, 0], [1, 2, 2]], [2, 3, 4], [-1, 2, 2])
    reshape("to_vector", [[0, 1], [2, 3]], [3, 4], [-1])
    reshape("same", [[0, 1], [2, 3]], [3, 4], [3, 4])
    reshape("to_rank4", [[0, 5], [2, 11]], [3, 12], [3, 2, 2, 3])
    reshape("empty", np.zeros([0, 2]), [0, 4], [2, 0, 3])
    reshape("empty_infer", np.zeros([0, 2]), [2, 4], [-1, 8])
    reshape("scalar_to_vec", np.zeros([1, 0]), [], [1])
    reshape("two_unknown", [[0, 1]], [3, 4], [-1, -1], error=True)
    reshape("wrong_count", [[0, 1]], [3, 4], [5, 2], error=True)
    reshape("not_multiple", [[0, 1]], [3, 4], [-1, 5], error=True)
    reshape("negative", [[0, 1]], [3, 4], [-2, -6], error=True)
    reshape("infer_from_zero", np.zeros([0, 2]), [0, 4], [-1, 0], error=True)
    g.case("SparseReshape.indices_rank_mismatch",
           lambda: raw.SparseReshape(input_indices=hide_rank(g.const([[0, 1, 2]], I64)),
                                     input_shape=g.const([3, 4], I64),
                                     new_shape=g.const([12], I64), name="op"), error=True)

    def fill(sname, indices, dense_shape, vals, dt=F, error=False):
        h = hide_rank if error else (lambda t: t)
        g.case(f"SparseFillEmptyRows.{sgname(dt)}.{sname}",
               lambda: raw.SparseFillEmptyRows(
                   indices=h(g.const(np.asarray(indices, np.int64).reshape(
                       -1, max(len(dense_shape), 1)), I64)),
                   values=h(g.const(vals, dt)), dense_shape=h(g.const(dense_shape, I64)),
                   default_value=g.const(-1, dt), name="op"), error=error)
    fill("no_empty", [[0, 0], [1, 1], [2, 0]], [3, 2], [1, 2, 3])
    fill("all_empty", np.zeros([0, 2]), [3, 2], np.zeros([0]))
    fill("unordered", [[3, 0], [1, 1], [3, 2], [0, 0], [1, 0]], [5, 4], [1, 2, 3, 4, 5])
    fill("rank1", [[1], [3]], [5], [1, 2])
    fill("rank3", [[1, 0, 2], [1, 1, 0]], [3, 2, 3], [1, 2])
    fill("zero_rows", np.zeros([0, 2]), [0, 3], np.zeros([0]))
    fill("row_out_of_range", [[0, 0], [3, 1]], [3, 2], [1, 2], error=True)
    fill("negative_row", [[-1, 0]], [3, 2], [1], error=True)
    fill("values_length", [[0, 0], [1, 1]], [3, 2], [1, 2, 3], error=True)
    fill("zero_rows_with_values", [[0, 0]], [0, 2], [1], error=True)
    g.case("SparseFillEmptyRows.float.empty_dense_shape",
           lambda: raw.SparseFillEmptyRows(indices=hide_rank(g.const(np.zeros([0, 0]), I64)),
                                           values=g.const(np.zeros([0]), F),
                                           dense_shape=hide_rank(g.const(np.zeros([0]), I64)),
                                           default_value=g.const(0, F), name="op"), error=True)
    g.case("SparseFillEmptyRows.float.default_not_scalar",
           lambda: raw.SparseFillEmptyRows(indices=g.const([[0, 0]], I64),
                                           values=g.const([1], F),
                                           dense_shape=g.const([2, 2], I64),
                                           default_value=hide_rank(g.const([0], F)), name="op"),
           error=True)


@group
def bincounts(g):
    I, I64 = "int32", "int64"
    for dt in ("int32", "int64", "float32", "float64"):
        none = lambda: g.const(np.zeros([0]), dt)  # noqa: E731
        g.case(f"Bincount.{sgname(dt)}.counts",
               lambda: raw.Bincount(arr=g.const(g.rng.integers(0, 7, [20]), I),
                                    size=g.const(5, I), weights=none(), name="op"))
        g.case(f"Bincount.{sgname(dt)}.weights_matrix",
               lambda: raw.Bincount(arr=g.const(g.rng.integers(0, 7, [3, 6]), I),
                                    size=g.const(6, I), weights=g.rand(dt, [3, 6], lo=0, hi=3),
                                    name="op"))
        for tidx in ("int32", "int64"):
            for sname, binary in [("counts", False), ("binary", True)]:
                g.case(f"SparseBincount.{sgname(dt)}.{tidx}_{sname}_1d",
                       lambda: raw.SparseBincount(
                           indices=g.const([[0], [2], [3], [7], [9]], I64),
                           values=g.const([1, 3, 1, 4, 9], tidx),
                           dense_shape=g.const([10], I64), size=g.const(5, tidx),
                           weights=none(), binary_output=binary, name="op"))
                g.case(f"SparseBincount.{sgname(dt)}.{tidx}_{sname}_2d_weights",
                       lambda: raw.SparseBincount(
                           indices=g.const([[0, 0], [0, 2], [2, 1], [2, 3], [3, 0], [3, 1]], I64),
                           values=g.const([1, 1, 0, 4, 2, 2], tidx),
                           dense_shape=g.const([5, 4], I64), size=g.const(4, tidx),
                           weights=g.rand(dt, [6], lo=0, hi=3), binary_output=binary,
                           name="op"))
                g.case(f"RaggedBincount.{sgname(dt)}.{tidx}_{sname}",
                       lambda: raw.RaggedBincount(
                           splits=g.const([0, 3, 3, 7, 8], I64),
                           values=g.const([1, 3, 1, 4, 0, 2, 6, 2], tidx),
                           size=g.const(5, tidx), weights=none(), binary_output=binary,
                           name="op"))
                g.case(f"RaggedBincount.{sgname(dt)}.{tidx}_{sname}_weights",
                       lambda: raw.RaggedBincount(
                           splits=g.const([0, 2, 6], I64),
                           values=g.const([1, 3, 1, 1, 0, 2], tidx),
                           size=g.const(4, tidx), weights=g.rand(dt, [6], lo=0, hi=3),
                           binary_output=binary, name="op"))
    F = "float32"
    nonef = lambda: g.const(np.zeros([0]), F)  # noqa: E731
    g.case("Bincount.float.size_zero",
           lambda: raw.Bincount(arr=g.const([1, 2], I), size=g.const(0, I), weights=nonef(),
                                name="op"))
    g.case("Bincount.float.empty",
           lambda: raw.Bincount(arr=g.const(np.zeros([0], np.int32)), size=g.const(3, I),
                                weights=nonef(), name="op"))
    g.case("Bincount.float.negative",
           lambda: raw.Bincount(arr=g.const([1, -1], I), size=g.const(3, I), weights=nonef(),
                                name="op"), error=True)
    g.case("Bincount.float.negative_size",
           lambda: raw.Bincount(arr=g.const([1, 2], I), size=hide_rank(g.const(-1, I)),
                                weights=nonef(), name="op"), error=True)
    g.case("Bincount.float.weights_shape",
           lambda: raw.Bincount(arr=g.const([1, 2], I), size=g.const(3, I),
                                weights=g.const([1, 2, 3], F), name="op"), error=True)
    g.case("SparseBincount.float.empty",
           lambda: raw.SparseBincount(indices=g.const(np.zeros([0, 2]), I64),
                                      values=g.const(np.zeros([0]), I),
                                      dense_shape=g.const([3, 4], I64), size=g.const(2, I),
                                      weights=nonef(), name="op"))
    def sb_error(sname, indices, values, dense_shape, size=3, weights=np.zeros([0])):
        g.case(f"SparseBincount.float.{sname}",
               lambda: raw.SparseBincount(indices=hide_rank(g.const(indices, I64)),
                                          values=hide_rank(g.const(values, I)),
                                          dense_shape=hide_rank(g.const(dense_shape, I64)),
                                          size=hide_rank(g.const(size, I)),
                                          weights=hide_rank(g.const(weights, F)), name="op"),
               error=True)
    sb_error("negative_value", [[0], [1]], [1, -2], [4])
    sb_error("negative_size", [[0], [1]], [1, 2], [4], size=-1)
    sb_error("weights_shape", [[0], [1]], [1, 2], [4], weights=[1.0])
    sb_error("row_out_of_range", [[0, 0], [5, 1]], [1, 2], [3, 4])
    sb_error("values_length", [[0, 0], [1, 1]], [1, 2, 0], [3, 4])
    sb_error("indices_vector", [0, 1], [1, 2], [4])
    g.case("RaggedBincount.float.no_rows",
           lambda: raw.RaggedBincount(splits=g.const([0], I64), values=g.const(np.zeros([0]), I),
                                      size=g.const(3, I), weights=nonef(), name="op"))
    def rb_error(sname, splits, values, size=3, weights=np.zeros([0])):
        g.case(f"RaggedBincount.float.{sname}",
               lambda: raw.RaggedBincount(splits=hide_rank(g.const(splits, I64)),
                                          values=hide_rank(g.const(values, I)),
                                          size=hide_rank(g.const(size, I)),
                                          weights=hide_rank(g.const(weights, F)), name="op"),
               error=True)
    rb_error("negative_value", [0, 2], [1, -1])
    rb_error("negative_size", [0, 2], [1, 1], size=-2)
    rb_error("splits_not_from_zero", [1, 2], [1, 1])
    rb_error("splits_past_values", [0, 2, 5], [1, 1, 0])
    rb_error("size_vector", [0, 2], [1, 1], size=[3])
    for sname, splits in [("splits_decreasing", [0, 2, 1, 3]), ("splits_bounce", [0, 3, 0, 3]),
                          ("empty_rows", [0, 1, 1, 3, 3])]:
        g.case(f"RaggedBincount.float.{sname}",
               lambda: raw.RaggedBincount(splits=g.const(splits, I64), values=g.const([1, 2, 1], I),
                                          size=g.const(3, I), weights=g.const([5, 7, 3], F),
                                          name="op"))


@group
def ragged_array(g):
    I64 = "int64"
    for dt in ("bfloat16", "float32", "float64", "int32", "int64"):
        for tsplits in ("int32", "int64"):
            g.case(f"RaggedRange.{sgname(dt)}.{tsplits}",
                   lambda: raw.RaggedRange(starts=g.const([0, 5, 2, -3], dt),
                                           limits=g.const([4, 1, 11, 3], dt),
                                           deltas=g.const([1, -2, 3, 2], dt), Tsplits=tsplits,
                                           name="op"))
        g.case(f"RaggedRange.{sgname(dt)}.broadcast",
               lambda: raw.RaggedRange(starts=g.const([0, 5, 2], dt), limits=g.const(10, dt),
                                       deltas=g.const([3, -1, 2], dt), name="op"))
        g.case(f"RaggedRange.{sgname(dt)}.scalars",
               lambda: raw.RaggedRange(starts=g.const(1, dt), limits=g.const(7, dt),
                                       deltas=g.const(2, dt), name="op"))
        g.case(f"RaggedRange.{sgname(dt)}.empty",
               lambda: raw.RaggedRange(starts=g.const(np.zeros([0]), dt),
                                       limits=g.const(np.zeros([0]), dt),
                                       deltas=g.const(1, dt), name="op"))
    for dt in ("float32", "float64", "bfloat16"):
        g.case(f"RaggedRange.{sgname(dt)}.fractional",
               lambda: raw.RaggedRange(starts=g.const([0.0, 5.0, -1.5], dt),
                                       limits=g.const([1.0, 2.0, 1.7], dt),
                                       deltas=g.const([0.1, -0.3, 0.25], dt), name="op"))
    g.case("RaggedRange.int32.zero_delta",
           lambda: raw.RaggedRange(starts=g.const([0, 1], "int32"), limits=g.const(4, "int32"),
                                   deltas=hide_rank(g.const([1, 0], "int32")), name="op"),
           error=True)
    g.case("RaggedRange.int32.shape_mismatch",
           lambda: raw.RaggedRange(starts=hide_rank(g.const([0, 1], "int32")),
                                   limits=hide_rank(g.const([4, 5, 6], "int32")),
                                   deltas=g.const(1, "int32"), name="op"), error=True)
    g.case("RaggedRange.int32.matrix",
           lambda: raw.RaggedRange(starts=hide_rank(g.const([[0, 1]], "int32")),
                                   limits=g.const(4, "int32"), deltas=g.const(1, "int32"),
                                   name="op"), error=True)

    # params: [[v0, v1], [], [v2, v3, v4], [v5]] over values of shape [6] or [6, 2].
    s1 = [0, 2, 2, 5, 6]
    for dt in UNIVERSE:
        for tsplits in ("int32", "int64"):
            for tidx in ("int32", "int64"):
                g.case(f"RaggedGather.{sgname(dt)}.{tsplits}_{tidx}",
                       lambda: raw.RaggedGather(params_nested_splits=[g.const(s1, tsplits)],
                                                params_dense_values=g.rand(dt, [6]),
                                                indices=g.const([2, 0, 1, 3, 2], tidx),
                                                OUTPUT_RAGGED_RANK=1, name="op"))
        g.case(f"RaggedGather.{sgname(dt)}.inner_dims",
               lambda: raw.RaggedGather(params_nested_splits=[g.const(s1, I64)],
                                        params_dense_values=g.rand(dt, [6, 2]),
                                        indices=g.const([3, 2], "int32"),
                                        OUTPUT_RAGGED_RANK=1, name="op"))
    F = "float32"
    g.case("RaggedGather.float.rank2_params",
           lambda: raw.RaggedGather(params_nested_splits=[g.const([0, 2, 3, 3], I64),
                                                          g.const([0, 1, 4, 6], I64)],
                                    params_dense_values=g.rand(F, [6]),
                                    indices=g.const([0, 2, 1, 0], "int32"),
                                    OUTPUT_RAGGED_RANK=2, name="op"))
    g.case("RaggedGather.float.matrix_indices",
           lambda: raw.RaggedGather(params_nested_splits=[g.const(s1, I64)],
                                    params_dense_values=g.rand(F, [6]),
                                    indices=g.const([[2, 0], [1, 3], [3, 3]], "int32"),
                                    OUTPUT_RAGGED_RANK=2, name="op"))
    g.case("RaggedGather.float.rank3_indices",
           lambda: raw.RaggedGather(params_nested_splits=[g.const(s1, I64)],
                                    params_dense_values=g.rand(F, [6]),
                                    indices=g.const([[[2], [0]], [[1], [3]]], "int32"),
                                    OUTPUT_RAGGED_RANK=3, name="op"))
    g.case("RaggedGather.float.scalar_index",
           lambda: raw.RaggedGather(params_nested_splits=[g.const(s1, I64)],
                                    params_dense_values=g.rand(F, [6]),
                                    indices=g.const(2, "int32"), OUTPUT_RAGGED_RANK=0, name="op"))
    g.case("RaggedGather.float.scalar_index_rank2",
           lambda: raw.RaggedGather(params_nested_splits=[g.const([0, 2, 3, 3], I64),
                                                          g.const([0, 1, 4, 6], I64)],
                                    params_dense_values=g.rand(F, [6]),
                                    indices=g.const(0, "int32"), OUTPUT_RAGGED_RANK=1, name="op"))
    g.case("RaggedGather.float.empty_indices",
           lambda: raw.RaggedGather(params_nested_splits=[g.const(s1, I64)],
                                    params_dense_values=g.rand(F, [6]),
                                    indices=g.const(np.zeros([0]), "int32"),
                                    OUTPUT_RAGGED_RANK=1, name="op"))
    g.case("RaggedGather.float.splits_not_from_zero",
           lambda: raw.RaggedGather(params_nested_splits=[g.const([1, 3, 5], I64)],
                                    params_dense_values=g.rand(F, [6]),
                                    indices=g.const([1, 0], "int32"),
                                    OUTPUT_RAGGED_RANK=1, name="op"))
    def gather_error(sname, splits, indices, nvals=6):
        g.case(f"RaggedGather.float.{sname}",
               lambda: raw.RaggedGather(params_nested_splits=[hide_rank(g.const(splits, I64))],
                                        params_dense_values=hide_rank(g.rand(F, [nvals])),
                                        indices=hide_rank(g.const(indices, "int32")),
                                        OUTPUT_RAGGED_RANK=1, name="op"), error=True)
    gather_error("index_out_of_range", s1, [1, 4])
    gather_error("negative_index", s1, [-1])
    gather_error("splits_unsorted", [0, 3, 2, 6], [1])
    gather_error("splits_past_values", [0, 2, 7], [1])
    gather_error("splits_empty", np.zeros([0]), np.zeros([0]))

    for dt in UNIVERSE:
        for tsplits in ("int32", "int64"):
            g.case(f"RaggedTensorToSparse.{sgname(dt)}.{tsplits}",
                   lambda: raw.RaggedTensorToSparse(rt_nested_splits=[g.const(s1, tsplits)],
                                                    rt_dense_values=g.rand(dt, [6]),
                                                    name="op"))
    g.case("RaggedTensorToSparse.float.rank2",
           lambda: raw.RaggedTensorToSparse(rt_nested_splits=[g.const([0, 1, 3], I64),
                                                              g.const([0, 2, 2, 3], I64)],
                                            rt_dense_values=g.rand(F, [3, 2]), name="op"))
    g.case("RaggedTensorToSparse.float.rank3_inner",
           lambda: raw.RaggedTensorToSparse(rt_nested_splits=[g.const([0, 2, 2, 3], I64),
                                                              g.const([0, 0, 3, 4], I64),
                                                              g.const([0, 1, 3, 3, 5], I64)],
                                            rt_dense_values=g.rand(F, [5, 2, 3]), name="op"))
    g.case("RaggedTensorToSparse.float.empty",
           lambda: raw.RaggedTensorToSparse(rt_nested_splits=[g.const([0, 0, 0], I64)],
                                            rt_dense_values=g.const(np.zeros([0]), F),
                                            name="op"))
    def to_sparse_error(sname, splits, nvals=5):
        g.case(f"RaggedTensorToSparse.float.{sname}",
               lambda: raw.RaggedTensorToSparse(
                   rt_nested_splits=[hide_rank(g.const(splits, I64))],
                   rt_dense_values=hide_rank(g.rand(F, [nvals])), name="op"), error=True)
    to_sparse_error("decreasing", [0, 3, 2, 5])
    to_sparse_error("not_from_zero", [1, 3, 5])
    to_sparse_error("wrong_end", [0, 3, 6])
    to_sparse_error("empty_splits", np.zeros([0]))


@group
def matrix_inverse(g):
    def invertible(dt, shape):
        # A dominant diagonal keeps the matrices well conditioned (and the comparison tight).
        m = shape[-1]
        v = g.vals(dt, shape, lo=-1, hi=1).astype(npdtype(dt))
        return g.const(v + (m + 1) * np.eye(m, dtype=npdtype(dt)), dt)
    # BatchMatrixInverse (gone from GraphDefs since version 13) runs in TensorFlow as
    # MatrixInverse and is stored under its own name.
    for op, dtypes in [("MatrixInverse", tf_types("MatrixInverse")),
                       ("BatchMatrixInverse", tf_types("BatchMatrixInverse"))]:
        ren = {"op": op} if op == "BatchMatrixInverse" else None
        for dt in dtypes:
            for adjoint in (False, True):
                g.case(f"{op}.{sgname(dt)}.{'adjoint' if adjoint else 'plain'}",
                       lambda: raw.MatrixInverse(input=invertible(dt, [2, 3, 4, 4]),
                                                 adjoint=adjoint, name="op"), rename=ren)
            g.case(f"{op}.{sgname(dt)}.one",
                   lambda: raw.MatrixInverse(input=invertible(dt, [1, 1]), name="op"),
                   rename=ren)
            g.case(f"{op}.{sgname(dt)}.empty",
                   lambda: raw.MatrixInverse(input=g.const(np.zeros([3, 0, 0]), dt), name="op"),
                   rename=ren)
            g.case(f"{op}.{sgname(dt)}.empty_batch",
                   lambda: raw.MatrixInverse(input=g.const(np.zeros([0, 2, 2]), dt), name="op"),
                   rename=ren)
            g.case(f"{op}.{sgname(dt)}.singular",
                   lambda: raw.MatrixInverse(input=g.const([[1, 2], [2, 4]], dt), name="op"),
                   error=True, rename=ren)
    F = "float32"
    g.case("MatrixInverse.float.pivoting",
           lambda: raw.MatrixInverse(input=g.const([[0, 1, 2], [3, 0, 1], [1, 2, 0]], F),
                                     name="op"))
    g.case("MatrixInverse.double.larger",
           lambda: raw.MatrixInverse(input=invertible("float64", [9, 9]), name="op"))
    g.case("MatrixInverse.float.not_square",
           lambda: raw.MatrixInverse(input=hide_rank(g.rand(F, [2, 3])), name="op"), error=True)
    g.case("MatrixInverse.float.vector",
           lambda: raw.MatrixInverse(input=hide_rank(g.rand(F, [3])), name="op"), error=True)
    g.case("MatrixInverse.float.zero_matrix",
           lambda: raw.MatrixInverse(input=g.const(np.zeros([2, 3, 3]), F), name="op"),
           error=True)


@group
def logsumexp_ops(g):
    for dt in tf_types("SoftmaxCrossEntropyWithLogits"):
        def probs(shape):
            p = g.rng.random(shape) + 0.1
            return g.const(p / p.sum(axis=-1, keepdims=True), dt)
        g.case(f"SoftmaxCrossEntropyWithLogits.{sgname(dt)}.basic",
               lambda: raw.SoftmaxCrossEntropyWithLogits(features=g.rand(dt, [4, 5]),
                                                         labels=probs([4, 5]), name="op"))
        g.case(f"SoftmaxCrossEntropyWithLogits.{sgname(dt)}.broadcast_labels",
               lambda: raw.SoftmaxCrossEntropyWithLogits(features=g.rand(dt, [3, 4]),
                                                         labels=probs([1, 4]), name="op"))
        g.case(f"SoftmaxCrossEntropyWithLogits.{sgname(dt)}.broadcast_features",
               lambda: raw.SoftmaxCrossEntropyWithLogits(features=g.rand(dt, [4]),
                                                         labels=probs([3, 4]), name="op"))
        g.case(f"SoftmaxCrossEntropyWithLogits.{sgname(dt)}.large_logits",
               lambda: raw.SoftmaxCrossEntropyWithLogits(
                   features=g.const([[60, -60, 7], [1000, 0, -1000]], dt) if dt != "float16"
                   else g.const([[60, -60, 7], [8000, 0, -8000]], dt),
                   labels=g.const([[0, 1, 0], [0.5, 0.5, 0]], dt), name="op"))
        for op in ("CumulativeLogsumexp",):
            for exclusive in (False, True):
                for reverse in (False, True):
                    g.case(f"{op}.{sgname(dt)}.ex{int(exclusive)}_rev{int(reverse)}",
                           lambda: raw.CumulativeLogsumexp(x=g.rand(dt, [3, 5]),
                                                           axis=g.const(1, "int32"),
                                                           exclusive=exclusive, reverse=reverse,
                                                           name="op"))
            g.case(f"{op}.{sgname(dt)}.axis0_int64",
                   lambda: raw.CumulativeLogsumexp(x=g.rand(dt, [4, 2, 3]),
                                                   axis=g.const(0, "int64"), name="op"))
            g.case(f"{op}.{sgname(dt)}.negative_axis",
                   lambda: raw.CumulativeLogsumexp(x=g.rand(dt, [2, 3, 4]),
                                                   axis=g.const(-2, "int32"), name="op"))
            g.case(f"{op}.{sgname(dt)}.special",
                   lambda: raw.CumulativeLogsumexp(x=g.const(special_values(dt), dt),
                                                   axis=g.const(0, "int32"), name="op"))
            g.case(f"{op}.{sgname(dt)}.special_exclusive_reverse",
                   lambda: raw.CumulativeLogsumexp(x=g.const(special_values(dt), dt),
                                                   axis=g.const(0, "int32"), exclusive=True,
                                                   reverse=True, name="op"))
    F = "float32"
    g.case("CumulativeLogsumexp.float.empty",
           lambda: raw.CumulativeLogsumexp(x=g.const(np.zeros([2, 0]), F),
                                           axis=g.const(1, "int32"), name="op"))
    g.case("CumulativeLogsumexp.float.minus_inf",
           lambda: raw.CumulativeLogsumexp(x=g.const([-np.inf, -np.inf, 0.0, -np.inf], F),
                                           axis=g.const(0, "int32"), name="op"))
    g.case("CumulativeLogsumexp.float.axis_out_of_range",
           lambda: raw.CumulativeLogsumexp(x=g.rand(F, [2, 3]),
                                           axis=hide_rank(g.const(2, "int32")), name="op"),
           error=True)
    g.case("CumulativeLogsumexp.float.axis_vector",
           lambda: raw.CumulativeLogsumexp(x=g.rand(F, [2, 3]),
                                           axis=hide_rank(g.const([1], "int32")), name="op"),
           error=True)
    g.case("SoftmaxCrossEntropyWithLogits.float.empty_batch",
           lambda: raw.SoftmaxCrossEntropyWithLogits(features=g.const(np.zeros([0, 3]), F),
                                                     labels=g.const(np.zeros([0, 3]), F),
                                                     name="op"))
    g.case("SoftmaxCrossEntropyWithLogits.float.not_broadcastable",
           lambda: raw.SoftmaxCrossEntropyWithLogits(features=hide_rank(g.rand(F, [2, 3])),
                                                     labels=hide_rank(g.rand(F, [2, 4])),
                                                     name="op"), error=True)
    g.case("SoftmaxCrossEntropyWithLogits.float.rank3",
           lambda: raw.SoftmaxCrossEntropyWithLogits(features=hide_rank(g.rand(F, [2, 2, 3])),
                                                     labels=hide_rank(g.rand(F, [2, 2, 3])),
                                                     name="op"), error=True)


def parallel_concat_start(g, shape, dt):
    """A _ParallelConcatStart node (tf.raw_ops has no wrapper for the internal op)."""
    graph = tf.compat.v1.get_default_graph()
    attrs = {"shape": attr_value_pb2.AttrValue(shape=tf.TensorShape(shape).as_proto()),
             "dtype": attr_value_pb2.AttrValue(type=tf.as_dtype(dt).as_datatype_enum)}
    return graph._create_op_internal("_ParallelConcatStart", [], [tf.as_dtype(dt)],
                                     attrs=attrs, name="start").outputs[0]


def parallel_concat_update(value, update, loc, name):
    graph = tf.compat.v1.get_default_graph()
    attrs = {"T": attr_value_pb2.AttrValue(type=value.dtype.as_datatype_enum),
             "loc": attr_value_pb2.AttrValue(i=loc)}
    return graph._create_op_internal("_ParallelConcatUpdate", [value, update], [value.dtype],
                                     attrs=attrs, name=name).outputs[0]


@group
def inplace_ops(g):
    # The cases of the internal _ParallelConcatStart / _ParallelConcatUpdate are named
    # ParallelConcat.*.internal_* (TensorFlow's name scopes cannot start with "_").
    I = "int32"
    arith = [d for d in UNIVERSE if d not in ("bool", "string")]
    for dt in UNIVERSE:
        g.case(f"InplaceUpdate.{sgname(dt)}.rows",
               lambda: raw.InplaceUpdate(x=g.rand(dt, [4, 3]), i=g.const([2, 0], I),
                                         v=g.rand(dt, [2, 3]), name="op"))
        g.case(f"DeepCopy.{sgname(dt)}.matrix",
               lambda: raw.DeepCopy(x=g.rand(dt, [2, 3]), name="op"))
        g.case(f"ParallelConcat.{sgname(dt)}.rows",
               lambda: raw.ParallelConcat(values=[g.rand(dt, [1, 2]) for _ in range(3)],
                                          shape=[3, 2], name="op"))
        def chained():
            start = parallel_concat_start(g, [3, 2], dt)
            u = start
            for k in (1, 0, 2):
                u = parallel_concat_update(u, g.rand(dt, [1, 2]), k, f"update{k}")
            return u
        g.case(f"ParallelConcat.{sgname(dt)}.internal_chained", chained)
        if dt in arith:
            for op in ("InplaceAdd", "InplaceSub"):
                g.case(f"{op}.{sgname(dt)}.rows",
                       lambda: op_fn(op)(x=g.rand(dt, [4, 3]), i=g.const([1, 3, 1], I),
                                         v=g.rand(dt, [3, 3]), name="op"))
    F = "float32"
    def rewritten():
        # TensorFlow's own rewrite of ParallelConcat: the updates write into start's buffer.
        start = parallel_concat_start(g, [2, 3], F)
        ups = [parallel_concat_update(start, g.rand(F, [1, 3]), k, f"update{k}") for k in (0, 1)]
        with tf.control_dependencies(ups):
            return tf.identity(start, name="out")
    g.case("ParallelConcat.float.internal_rewrite", rewritten)
    for op in ("InplaceUpdate", "InplaceAdd", "InplaceSub"):
        g.case(f"{op}.float.index_modulo",
               lambda: op_fn(op)(x=g.rand(F, [3, 2]), i=g.const([-1, 4, 3], I),
                                 v=g.rand(F, [3, 2]), name="op"))
        g.case(f"{op}.float.vector",
               lambda: op_fn(op)(x=g.rand(F, [5]), i=g.const([4, 1], I), v=g.rand(F, [2]),
                                 name="op"))
        g.case(f"{op}.float.empty",
               lambda: op_fn(op)(x=g.rand(F, [3, 0]), i=g.const([1], I), v=g.rand(F, [1, 0]),
                                 name="op"))
        g.case(f"{op}.float.no_rows",
               lambda: op_fn(op)(x=g.rand(F, [3, 2]), i=g.const(np.zeros([0]), I),
                                 v=g.rand(F, [0, 2]), name="op"))
        def err(sname, x, i, v):
            g.case(f"{op}.float.{sname}",
                   lambda: op_fn(op)(x=hide_rank(g.rand(F, x)), i=hide_rank(g.const(i, I)),
                                     v=hide_rank(g.rand(F, v)), name="op"), error=True)
        err("i_scalar", [3, 2], 1, [2])
        err("rank_mismatch", [3, 2], [1], [2])
        err("dim_mismatch", [3, 2], [1], [1, 3])
        err("count_mismatch", [3, 2], [1, 2], [1, 2])
    g.case("ParallelConcat.float.internal_loc_out_of_range",
           lambda: parallel_concat_update(parallel_concat_start(g, [2, 2], F),
                                          g.rand(F, [1, 2]), 2, "op"), error=True)

    types = tf_types("Bitcast")
    for src in types:
        for dst in types:
            def bitcast():
                a, b = np.dtype(npdtype(src)).itemsize, np.dtype(npdtype(dst)).itemsize
                shape = [2, 3] if a >= b else [2, b // a]
                lo, hi = (-100, 100) if is_int(src) else (-4, 4)
                return raw.Bitcast(input=g.rand(src, shape, lo=lo, hi=hi), type=dst, name="op")
            g.case(f"Bitcast.{sgname(src)}.to_{sgname(dst)}", bitcast)
    g.case("Bitcast.int8.scalar_to_wider",
           lambda: raw.Bitcast(input=hide_rank(g.const(1, "int8")), type="int16", name="op"),
           error=True)
    g.case("Bitcast.int8.wrong_last_dim",
           lambda: raw.Bitcast(input=hide_rank(g.const([[1, 2, 3]], "int8")), type="int32",
                               name="op"), error=True)
    g.case("Bitcast.float.empty",
           lambda: raw.Bitcast(input=g.const(np.zeros([0, 2]), F), type="uint8", name="op"))


@group
def ctc_decoder(g):
    I = "int32"
    for dt in tf_types("CTCGreedyDecoder"):
        for merge in (False, True):
            g.case(f"CTCGreedyDecoder.{sgname(dt)}.merge{int(merge)}",
                   lambda: raw.CTCGreedyDecoder(
                       inputs=g.const(np.round(g.rng.normal(size=[6, 3, 4]) * 4) / 4, dt),
                       sequence_length=g.const([6, 4, 0], I), merge_repeated=merge, name="op"))
        g.case(f"CTCGreedyDecoder.{sgname(dt)}.blank0",
               lambda: raw.CTCGreedyDecoder(
                   inputs=g.const(g.rng.normal(size=[5, 2, 3]), dt),
                   sequence_length=g.const([5, 3], I), blank_index=0, merge_repeated=True,
                   name="op"))
        g.case(f"CTCGreedyDecoder.{sgname(dt)}.ties",
               lambda: raw.CTCGreedyDecoder(
                   inputs=g.const(np.tile([[[1.0, 1.0, 0.0]], [[0.0, 2.0, 2.0]]], [1, 2, 1]), dt),
                   sequence_length=g.const([2, 1], I), name="op"))
    F = "float32"
    g.case("CTCGreedyDecoder.float.negative_length",
           lambda: raw.CTCGreedyDecoder(inputs=g.rand(F, [3, 2, 3]),
                                        sequence_length=g.const([-1, 2], I), name="op"))
    g.case("CTCGreedyDecoder.float.empty_batch",
           lambda: raw.CTCGreedyDecoder(inputs=g.const(np.zeros([3, 0, 3]), F),
                                        sequence_length=g.const(np.zeros([0]), I), name="op"),
           error=True)
    def err(sname, shape, lengths, **kw):
        g.case(f"CTCGreedyDecoder.float.{sname}",
               lambda: raw.CTCGreedyDecoder(inputs=hide_rank(g.rand(F, shape)),
                                            sequence_length=hide_rank(g.const(lengths, I)),
                                            name="op", **kw), error=True)
    err("length_past_time", [3, 2, 3], [4, 1])
    err("no_time", [0, 2, 3], [0, 0])
    err("batch_mismatch", [3, 2, 3], [1, 1, 1])
    err("inputs_rank2", [3, 2], [1, 1])
    err("no_classes", [3, 2, 0], [1, 1])
    err("blank_out_of_range", [3, 2, 3], [1, 1], blank_index=3)


@group
def sparse_cross(g):
    I64, S = "int64", "string"
    # Sparse column A (3 rows): row 0 {a0, a1}, row 1 {}, row 2 {a2}; B: row 0 {b0}, row 1 {b1},
    # row 2 {b2, b3}; dense column D [3, 2].
    def col(dt, vals, rows):
        idx = [[r, k] for r, n in enumerate(rows) for k in range(n)]
        return (g.const(np.asarray(idx, np.int64).reshape(-1, 2), I64), g.const(vals, dt),
                g.const([len(rows), max(rows)], I64))
    def a(dt):
        return col(dt, ["x", "yy", "z"] if dt == S else [7, -3, 123456789012], [2, 0, 1])
    def b(dt):
        return col(dt, ["p", "q", "r", "s"] if dt == S else [1, 2, 3, 4], [1, 1, 2])
    def dense(dt):
        return g.const([["d0", "d1"], ["d2", "d3"], ["d4", "d5"]] if dt == S
                       else [[10, 11], [12, 13], [14, 15]], dt)
    def inputs(sdts, ddts, rows_ok=True):
        cols = [make(dt) for make, dt in zip((a, b), sdts)]
        return dict(indices=[c[0] for c in cols], values=[c[1] for c in cols],
                    shapes=[c[2] for c in cols], dense_inputs=[dense(d) for d in ddts])
    combos = [("ss_s", [S, S], [S]), ("si_i", [S, I64], [I64]), ("ii_none", [I64, I64], []),
              ("none_s", [], [S]), ("s_none", [S], [])]
    for cname, sdts, ddts in combos:
        all_string = all(d == S for d in sdts + ddts)
        for internal in ([S, I64] if all_string else [I64]):
            g.case(f"SparseCross.string.{cname}_{internal}",
                   lambda: raw.SparseCross(**inputs(sdts, ddts), hashed_output=False,
                                           num_buckets=0, hash_key=0, out_type=S,
                                           internal_type=internal, name="op"))
        for buckets, key in [(0, 0), (100, 956888297470)]:
            g.case(f"SparseCross.int64.{cname}_hash{buckets}",
                   lambda: raw.SparseCross(**inputs(sdts, ddts), hashed_output=True,
                                           num_buckets=buckets, hash_key=key, out_type=I64,
                                           internal_type=I64, name="op"))
        g.case(f"SparseCrossV2.string.{cname}",
               lambda: raw.SparseCrossV2(**inputs(sdts, ddts), sep=g.const("--", S), name="op"))
        for buckets in (0, 50):
            g.case(f"SparseCrossHashed.int64.{cname}_b{buckets}",
                   lambda: raw.SparseCrossHashed(**inputs(sdts, ddts),
                                                 num_buckets=g.const(buckets, I64),
                                                 strong_hash=g.const(False), salt=g.const([1, 2], I64),
                                                 name="op"))
        if all_string:
            g.case(f"SparseCrossHashed.int64.{cname}_strong",
                   lambda: raw.SparseCrossHashed(**inputs(sdts, ddts),
                                                 num_buckets=g.const(0, I64),
                                                 strong_hash=g.const(True),
                                                 salt=g.const([137, -5], I64), name="op"))
    g.case("SparseCross.string.internal_string_int_input",
           lambda: raw.SparseCross(**inputs([S, I64], []), hashed_output=False, num_buckets=0,
                                   hash_key=0, out_type=S, internal_type=S, name="op"),
           error=True)
    def batch_mismatch():
        indices, values, shape = a(S)
        return raw.SparseCrossV2(indices=[indices], values=[values], shapes=[shape],
                                 dense_inputs=[hide_rank(g.const([["u"], ["v"]], S))],
                                 sep=g.const("_", S), name="op")
    g.case("SparseCrossV2.string.batch_mismatch", batch_mismatch, error=True)
    g.case("SparseCrossV2.string.indices_not_matrix",
           lambda: raw.SparseCrossV2(indices=[hide_rank(g.const([0, 1], I64))],
                                     values=[g.const(["a", "b"], S)],
                                     shapes=[g.const([2, 1], I64)], dense_inputs=[],
                                     sep=g.const("_", S), name="op"), error=True)


@group
def ctc_beam_search(g):
    I = "int32"
    for dt in tf_types("CTCBeamSearchDecoder"):
        for merge in (False, True):
            for width, paths in [(1, 1), (3, 2), (5, 5), (10, 3)]:
                g.case(f"CTCBeamSearchDecoder.{sgname(dt)}.w{width}_p{paths}_merge{int(merge)}",
                       lambda: raw.CTCBeamSearchDecoder(
                           inputs=g.const(g.rng.normal(size=[7, 3, 5]) * 2, dt),
                           sequence_length=g.const([7, 5, 6], I), beam_width=width,
                           top_paths=paths, merge_repeated=merge, name="op"))
        g.case(f"CTCBeamSearchDecoder.{sgname(dt)}.repeats",
               lambda: raw.CTCBeamSearchDecoder(
                   inputs=g.const(np.log(np.array(
                       [[[0.4, 0.4, 0.2]], [[0.4, 0.4, 0.2]], [[0.1, 0.1, 0.8]], [[0.6, 0.3, 0.1]],
                        [[0.6, 0.3, 0.1]]])), dt),
                   sequence_length=g.const([5], I), beam_width=4, top_paths=4,
                   merge_repeated=True, name="op"))
        g.case(f"CTCBeamSearchDecoder.{sgname(dt)}.uniform_ties",
               lambda: raw.CTCBeamSearchDecoder(
                   inputs=g.const(np.zeros([3, 2, 3]), dt),
                   sequence_length=g.const([3, 2], I), beam_width=4, top_paths=3, name="op"))
    F = "float32"
    g.case("CTCBeamSearchDecoder.float.one_class",
           lambda: raw.CTCBeamSearchDecoder(inputs=g.rand(F, [3, 2, 1]),
                                            sequence_length=g.const([3, 1], I), beam_width=3,
                                            top_paths=1, name="op"))
    g.case("CTCBeamSearchDecoder.float.long",
           lambda: raw.CTCBeamSearchDecoder(
               inputs=g.const(g.rng.normal(size=[40, 2, 12]) * 3, F),
               sequence_length=g.const([40, 33], I), beam_width=16, top_paths=4, name="op"))
    def err(sname, shape, lengths, width=3, paths=1):
        g.case(f"CTCBeamSearchDecoder.float.{sname}",
               lambda: raw.CTCBeamSearchDecoder(inputs=hide_rank(g.rand(F, shape)),
                                                sequence_length=hide_rank(g.const(lengths, I)),
                                                beam_width=width, top_paths=paths, name="op"),
               error=True)
    err("fewer_leaves", [3, 2, 3], [3, 0], paths=2)
    err("paths_past_width", [3, 2, 3], [3, 1], width=2, paths=3)
    err("length_past_time", [3, 2, 3], [4, 1])
    err("batch_mismatch", [3, 2, 3], [1, 1, 1])
    err("empty", [0, 2, 3], [0, 0])
