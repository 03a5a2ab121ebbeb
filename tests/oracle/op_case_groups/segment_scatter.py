"""Op conformance cases: Ragged ranges, segment reductions, bincounts, scatters and strided-slice writes."""

from op_case_lib import *  # noqa: F401,F403


@group
def ragged(g):
    splits = lambda v, dt="int64": g.const(np.array(v), dt)  # noqa: E731
    r2t = raw.RaggedTensorToTensor
    for dt in UNIVERSE:
        g.case(f"RaggedTensorToTensor.{sgname(dt)}.row_splits",
               lambda: r2t(shape=g.const(-1, "int64"), values=g.rand(dt, [6]),
                           default_value=g.rand(dt, []),
                           row_partition_tensors=[splits([0, 2, 2, 5, 6])],
                           row_partition_types=["ROW_SPLITS"], name="op"))
        g.case(f"RaggedTensorToTensor.{sgname(dt)}.value_rowids",
               lambda: r2t(shape=g.const([-1, 2, 2], "int32"), values=g.rand(dt, [5, 2]),
                           default_value=g.rand(dt, [2]),
                           row_partition_tensors=[g.const(4, "int32"),
                                                  splits([0, 0, 0, 2, 2], "int32")],
                           row_partition_types=["FIRST_DIM_SIZE", "VALUE_ROWIDS"], name="op"))
    F = "float32"
    for sname, shape, sdt in [("shape_larger", [5, 4], "int64"), ("shape_smaller", [2, 1], "int32"),
                              ("shape_cols", [-1, 2], "int64"), ("shape_rows", [1, -1], "int32")]:
        g.case(f"RaggedTensorToTensor.float.{sname}",
               lambda: r2t(shape=g.const(shape, sdt), values=g.rand(F, [5]),
                           default_value=g.const(9, F),
                           row_partition_tensors=[splits([0, 2, 2, 5])],
                           row_partition_types=["ROW_SPLITS"], name="op"))
    g.case("RaggedTensorToTensor.float.two_levels",
           lambda: r2t(shape=g.const(-1, "int64"), values=g.rand(F, [6]),
                       default_value=g.const(0, F),
                       row_partition_tensors=[splits([0, 2, 4]), splits([0, 1, 1, 4, 6])],
                       row_partition_types=["ROW_SPLITS", "ROW_SPLITS"], name="op"))
    g.case("RaggedTensorToTensor.float.two_levels_fewer_rows",
           lambda: r2t(shape=g.const(-1, "int64"), values=g.rand(F, [6]),
                       default_value=g.const(0, F),
                       row_partition_tensors=[splits([0, 2, 5]), splits([0, 1, 1, 4, 6])],
                       row_partition_types=["ROW_SPLITS", "ROW_SPLITS"], name="op"))
    g.case("RaggedTensorToTensor.float.two_levels_rowids_truncated",
           lambda: r2t(shape=g.const([-1, -1, 2], "int64"), values=g.rand(F, [6]),
                       default_value=g.const(0, F),
                       row_partition_tensors=[g.const(3, "int64"), splits([0, 0, 1]),
                                              splits([0, 1, 1, 1, 2, 2])],
                       row_partition_types=["FIRST_DIM_SIZE", "VALUE_ROWIDS", "VALUE_ROWIDS"],
                       name="op"))
    g.case("RaggedTensorToTensor.float.default_broadcast",
           lambda: r2t(shape=g.const(-1, "int64"), values=g.rand(F, [3, 2, 3]),
                       default_value=g.rand(F, [1, 3]),
                       row_partition_tensors=[splits([0, 1, 1, 3])],
                       row_partition_types=["ROW_SPLITS"], name="op"))
    g.case("RaggedTensorToTensor.float.fewer_splits_than_values",
           lambda: r2t(shape=g.const(-1, "int64"), values=g.rand(F, [5]),
                       default_value=g.const(0, F),
                       row_partition_tensors=[splits([0, 2, 2, 4])],
                       row_partition_types=["ROW_SPLITS"], name="op"))
    g.case("RaggedTensorToTensor.float.no_rows",
           lambda: r2t(shape=g.const(-1, "int64"), values=g.const(np.zeros([0], np.float32)),
                       default_value=g.const(0, F), row_partition_tensors=[splits([0])],
                       row_partition_types=["ROW_SPLITS"], name="op"))
    g.case("RaggedTensorToTensor.float.empty_rows",
           lambda: r2t(shape=g.const(-1, "int64"), values=g.const(np.zeros([0], np.float32)),
                       default_value=g.const(0, F), row_partition_tensors=[splits([0, 0, 0])],
                       row_partition_types=["ROW_SPLITS"], name="op"))
    def error_case(sname, values, default, parts, types, shape=-1):
        g.case(f"RaggedTensorToTensor.float.{sname}",
               lambda: r2t(shape=hide_rank(g.const(shape, "int64")),
                           values=hide_rank(values()), default_value=hide_rank(default()),
                           row_partition_tensors=[hide_rank(p()) for p in parts],
                           row_partition_types=types, name="op"), error=True)
    v5 = lambda: g.rand(F, [5])  # noqa: E731
    zero = lambda: g.const(0, F)  # noqa: E731
    error_case("splits_decrease", v5, zero, [lambda: splits([0, 2, 1, 5])], ["ROW_SPLITS"])
    error_case("splits_start", v5, zero, [lambda: splits([1, 2, 2, 5])], ["ROW_SPLITS"])
    error_case("splits_empty", v5, zero, [lambda: splits(np.zeros([0], np.int64))],
               ["ROW_SPLITS"])
    error_case("rowids_past_rows", v5, zero,
               [lambda: g.const(2, "int64"), lambda: splits([0, 0, 2, 2, 2])],
               ["FIRST_DIM_SIZE", "VALUE_ROWIDS"])
    error_case("rowids_negative", v5, zero,
               [lambda: g.const(4, "int64"), lambda: splits([-1, 0, 2, 2, 2])],
               ["FIRST_DIM_SIZE", "VALUE_ROWIDS"])
    error_case("first_dim_negative", v5, zero,
               [lambda: g.const(-4, "int64"), lambda: splits([0, 0, 2, 2, 2])],
               ["FIRST_DIM_SIZE", "VALUE_ROWIDS"])
    error_case("inner_too_many_rows", lambda: g.rand(F, [6]), zero,
               [lambda: splits([0, 2, 3]), lambda: splits([0, 1, 1, 4, 6])],
               ["ROW_SPLITS", "ROW_SPLITS"])
    error_case("default_rank", v5, lambda: g.const([0], F), [lambda: splits([0, 2, 5])],
               ["ROW_SPLITS"])
    error_case("default_dims", lambda: g.rand(F, [3, 2]), lambda: g.const([7, 8, 9], F),
               [lambda: splits([0, 1, 3])], ["ROW_SPLITS"])
    error_case("shape_rank", lambda: g.rand(F, [3, 2]), zero, [lambda: splits([0, 1, 3])],
               ["ROW_SPLITS"], shape=[-1, -1])
    error_case("shape_inner_dim", lambda: g.rand(F, [3, 2]), zero, [lambda: splits([0, 1, 3])],
               ["ROW_SPLITS"], shape=[-1, -1, 3])
    error_case("shape_scalar", v5, zero, [lambda: splits([0, 2, 5])], ["ROW_SPLITS"], shape=3)
    error_case("shape_negative", v5, zero, [lambda: splits([0, 2, 5])], ["ROW_SPLITS"],
               shape=[-2, 2])


@group
def segment(g):
    for op in ("UnsortedSegmentSum", "UnsortedSegmentProd", "UnsortedSegmentMax",
               "UnsortedSegmentMin"):
        lo, hi = (-2, 3) if op == "UnsortedSegmentProd" else (-4, 4)
        for dt in tf_types(op):
            g.case(f"{op}.{sgname(dt)}.rows",
                   lambda: op_fn(op)(data=g.rand(dt, [6, 3], lo=lo, hi=hi),
                                     segment_ids=g.const([0, 2, -1, 0, 2, 2], "int32"),
                                     num_segments=g.const(4, "int32"), name="op"))
            if not is_main(dt):
                continue
            g.case(f"{op}.{sgname(dt)}.ids_2d",
                   lambda: op_fn(op)(data=g.rand(dt, [2, 3, 2], lo=lo, hi=hi),
                                     segment_ids=g.const([[1, 0, 1], [-1, 1, 4]], "int64"),
                                     num_segments=g.const(5, "int64"), name="op"))
            g.case(f"{op}.{sgname(dt)}.scalar_id",
                   lambda: op_fn(op)(data=g.rand(dt, [2, 2], lo=lo, hi=hi),
                                     segment_ids=g.const(1, "int32"),
                                     num_segments=g.const(3, "int32"), name="op"))
            g.case(f"{op}.{sgname(dt)}.vec",
                   lambda: op_fn(op)(data=g.rand(dt, [67], lo=lo, hi=hi),
                                     segment_ids=g.const(g.rng.integers(-1, 5, [67]), "int32"),
                                     num_segments=g.const(5, "int32"), name="op"))
            g.case(f"{op}.{sgname(dt)}.empty",
                   lambda: op_fn(op)(data=g.const(np.zeros([0, 2]), dt),
                                     segment_ids=g.const(np.zeros([0], np.int32)),
                                     num_segments=g.const(2, "int32"), name="op"))
            g.case(f"{op}.{sgname(dt)}.no_segments",
                   lambda: op_fn(op)(data=g.rand(dt, [3]),
                                     segment_ids=g.const([-1, -1, -1], "int32"),
                                     num_segments=g.const(0, "int32"), name="op"))
        if "int16" in [tf.as_dtype(d).name for d in
                       op_def_registry.get(op).attr[1].allowed_values.list.type]:
            g.case(f"{op}.float.int16_ids",
                   lambda: op_fn(op)(data=g.rand("float32", [4]),
                                     segment_ids=g.const([1, 1, 0, 1], "int16"),
                                     num_segments=g.const(2, "int32"), name="op"))
        g.case(f"{op}.float.id_out_of_range",
               lambda: op_fn(op)(data=g.rand("float32", [4]),
                                 segment_ids=g.const([0, 3, 1, 0], "int32"),
                                 num_segments=g.const(3, "int32"), name="op"), error=True)
        g.case(f"{op}.float.negative_num_segments",
               lambda: op_fn(op)(data=g.rand("float32", [4]),
                                 segment_ids=g.const([0, 1, 1, 0], "int32"),
                                 num_segments=hide_rank(g.const(-1, "int32")), name="op"),
               error=True)
        g.case(f"{op}.float.ids_not_prefix",
               lambda: op_fn(op)(data=g.rand("float32", [4]),
                                 segment_ids=hide_rank(g.const([0, 1], "int32")),
                                 num_segments=g.const(3, "int32"), name="op"), error=True)
        g.case(f"{op}.float.num_segments_vector",
               lambda: op_fn(op)(data=g.rand("float32", [4]),
                                 segment_ids=g.const([0, 1, 1, 0], "int32"),
                                 num_segments=hide_rank(g.const([3], "int32")), name="op"),
               error=True)
    for op in ("UnsortedSegmentMax", "UnsortedSegmentMin"):
        g.case(f"{op}.float.nan",
               lambda: op_fn(op)(data=g.const([1, np.nan, 3, np.nan, 1, np.inf, np.nan],
                                              "float32"),
                                 segment_ids=g.const([0, 1, 2, 0, 3, 3, 3], "int32"),
                                 num_segments=g.const(5, "int32"), name="op"))


@group
def bincount(g):
    for tidx in ("int32", "int64"):
        for dt in ("int32", "int64", "float32", "float64"):
            vals = lambda shape: g.const(g.rng.integers(0, 7, shape), tidx)  # noqa: E731
            none = lambda: g.const(np.zeros([0]), dt)  # noqa: E731
            for sname, binary in [("counts", False), ("binary", True)]:
                g.case(f"DenseBincount.{sgname(dt)}.{tidx}_{sname}",
                       lambda: raw.DenseBincount(input=vals([20]), size=g.const(5, tidx),
                                                 weights=none(), binary_output=binary, name="op"))
                g.case(f"DenseBincount.{sgname(dt)}.{tidx}_{sname}_weights",
                       lambda: raw.DenseBincount(input=vals([20]), size=g.const(5, tidx),
                                                 weights=g.rand(dt, [20], lo=0, hi=3),
                                                 binary_output=binary, name="op"))
                g.case(f"DenseBincount.{sgname(dt)}.{tidx}_{sname}_rows",
                       lambda: raw.DenseBincount(input=vals([3, 8]), size=g.const(6, tidx),
                                                 weights=g.rand(dt, [3, 8], lo=0, hi=3),
                                                 binary_output=binary, name="op"))
            g.case(f"DenseBincount.{sgname(dt)}.{tidx}_rows_unweighted",
                   lambda: raw.DenseBincount(input=vals([3, 8]), size=g.const(4, tidx),
                                             weights=none(), name="op"))
    I, F = "int32", "float32"
    g.case("DenseBincount.float.scalar_input",
           lambda: raw.DenseBincount(input=g.const(1, I), size=g.const(3, I),
                                     weights=g.const(np.zeros([0]), F), name="op"))
    g.case("DenseBincount.float.size_zero",
           lambda: raw.DenseBincount(input=g.const([1, 2], I), size=g.const(0, I),
                                     weights=g.const(np.zeros([0]), F), name="op"))
    g.case("DenseBincount.float.empty",
           lambda: raw.DenseBincount(input=g.const(np.zeros([0], np.int32)), size=g.const(3, I),
                                     weights=g.const(np.zeros([0]), F), name="op"))
    def error_case(sname, arr, size, weights):
        g.case(f"DenseBincount.float.{sname}",
               lambda: raw.DenseBincount(input=hide_rank(g.const(arr, I)),
                                         size=hide_rank(g.const(size, I)),
                                         weights=hide_rank(g.const(weights, F)), name="op"),
               error=True)
    error_case("negative", [1, -1, 2], 4, np.zeros([0]))
    error_case("negative_rows", [[1, -1, 2]], 4, np.zeros([0]))
    error_case("negative_size", [1, 2], -1, np.zeros([0]))
    error_case("size_vector", [1, 2], [3], np.zeros([0]))
    error_case("rank3", [[[1]]], 3, np.zeros([0]))
    error_case("weights_shape", [1, 2, 3], 4, [1.0, 2.0])


SORTED_SEGMENT_OPS = ["SegmentSum", "SegmentMean", "SegmentProd", "SegmentMin", "SegmentMax"]


@group
def segment_sorted(g):
    for op in SORTED_SEGMENT_OPS:
        lo, hi = (-2, 3) if op == "SegmentProd" else (-4, 4)
        for dt in tf_types(op):
            # Segment 2 is empty: 0 (1 for SegmentProd).
            g.case(f"{op}.{sgname(dt)}.rows",
                   lambda: op_fn(op)(data=g.rand(dt, [6, 3], lo=lo, hi=hi),
                                     segment_ids=g.const([0, 0, 1, 3, 3, 3], "int32"), name="op"))
            g.case(f"{op}.{sgname(dt)}.int64_ids",
                   lambda: op_fn(op)(data=g.rand(dt, [5, 2, 2], lo=lo, hi=hi),
                                     segment_ids=g.const([1, 1, 1, 2, 4], "int64"), name="op"))
            if not is_main(dt):
                continue
            g.case(f"{op}.{sgname(dt)}.vec",
                   lambda: op_fn(op)(data=g.rand(dt, [67], lo=lo, hi=hi),
                                     segment_ids=g.const(np.sort(g.rng.integers(0, 12, [67])),
                                                         "int32"), name="op"))
            g.case(f"{op}.{sgname(dt)}.one_row",
                   lambda: op_fn(op)(data=g.rand(dt, [1, 3], lo=lo, hi=hi),
                                     segment_ids=g.const([2], "int64"), name="op"))
            g.case(f"{op}.{sgname(dt)}.empty",
                   lambda: op_fn(op)(data=g.const(np.zeros([0, 2]), dt),
                                     segment_ids=g.const(np.zeros([0], np.int32)), name="op"))
            g.case(f"{op}.{sgname(dt)}.empty_inner",
                   lambda: op_fn(op)(data=g.const(np.zeros([3, 0]), dt),
                                     segment_ids=g.const([0, 1, 1], "int32"), name="op"))
        F = "float32"
        for sname, data, ids in [("unsorted", [3], [0, 2, 1]), ("negative", [3], [-1, 0, 1]),
                                 ("all_negative", [3], [-1, -1, -1]),
                                 ("size_mismatch", [3], [0, 1]), ("ids_matrix", [2, 2], [[0, 0],
                                                                                     [1, 1]]),
                                 ("scalar_data", [], [0])]:
            g.case(f"{op}.float.{sname}",
                   lambda: op_fn(op)(data=hide_rank(g.rand(F, data)),
                                     segment_ids=hide_rank(g.const(ids, "int32")), name="op"),
                   error=True)
    for op in ("SegmentMin", "SegmentMax"):
        g.case(f"{op}.float.nan",
               lambda: op_fn(op)(data=g.const([[np.nan, 1], [2, np.nan], [1, 3], [np.nan, np.nan],
                                               [3, np.inf], [np.nan, -np.inf]], "float32"),
                                 segment_ids=g.const([0, 0, 1, 1, 2, 2], "int32"), name="op"))
        g.case(f"{op}.float.nan_vec",
               lambda: op_fn(op)(data=g.const([np.nan, 2, 1, np.nan, 5, np.nan, np.nan, 4],
                                              "float32"),
                                 segment_ids=g.const([0, 0, 1, 1, 2, 2, 2, 3], "int32"),
                                 name="op"))
    # Sums in T itself: 1 + 1/256 is 1 in bfloat16, and so on.
    for dt, small in (("bfloat16", 1 / 256), ("float16", 1 / 2048)):
        for op in ("SegmentSum", "SegmentMean"):
            g.case(f"{op}.{sgname(dt)}.rounding",
                   lambda: op_fn(op)(data=g.const([[1], [small], [small], [small]], dt),
                                     segment_ids=g.const([0, 0, 0, 0], "int32"), name="op"))
    g.case("SegmentSum.half.overflow",
           lambda: raw.SegmentSum(data=g.const([60000, 60000, -60000], "float16"),
                                  segment_ids=g.const([0, 0, 0], "int32"), name="op"))
    g.case("SegmentMean.int8.wraps",
           lambda: raw.SegmentMean(data=g.const([127, 127, 1, -128, -128], "int8"),
                                   segment_ids=g.const([0, 0, 1, 2, 2], "int32"), name="op"))
    g.case("SegmentMean.uint8.many_rows",
           lambda: raw.SegmentMean(data=g.const(np.ones([300]), "uint8"),
                                   segment_ids=g.const(np.zeros([300], np.int32)), name="op"))


SPARSE_SEGMENT_OPS = ["SparseSegmentSum", "SparseSegmentMean", "SparseSegmentSqrtN"]


@group
def segment_sparse(g):
    for base in SPARSE_SEGMENT_OPS:
        for op in (base, base + "WithNumSegments"):
            with_num = op != base

            def call(data, indices, ids, num, nty="int32", hide=False, **kw):
                args = dict(data=data, indices=indices, segment_ids=ids, name="op", **kw)
                if with_num:
                    n = g.const(num, nty)
                    args["num_segments"] = hide_rank(n) if hide else n
                return op_fn(op)(**args)

            for dt in tf_types(op):
                # Segment 1 is empty; with num_segments 6, so are 4 and 5.
                g.case(f"{op}.{sgname(dt)}.rows",
                       lambda: call(g.rand(dt, [5, 3]), g.const([0, 4, 2, 2, 1], "int32"),
                                    g.const([0, 0, 2, 2, 3], "int32"), 6))
                g.case(f"{op}.{sgname(dt)}.int64",
                       lambda: call(g.rand(dt, [4, 2, 2]), g.const([3, 0, 3], "int64"),
                                    g.const([1, 1, 2], "int64"), 3, "int64"))
                if not (is_main(dt) or dt == "float64"):
                    continue
                g.case(f"{op}.{sgname(dt)}.mixed_index_types",
                       lambda: call(g.rand(dt, [4, 3]), g.const([1, 2, 3, 0], "int64"),
                                    g.const([0, 1, 1, 1], "int32"), 2, "int64"))
                g.case(f"{op}.{sgname(dt)}.vec",
                       lambda: call(g.rand(dt, [20]), g.const(g.rng.integers(0, 20, [30]),
                                                               "int32"),
                                    g.const(np.sort(g.rng.integers(0, 8, [30])), "int32"),
                                    9))
                g.case(f"{op}.{sgname(dt)}.empty",
                       lambda: call(g.rand(dt, [4, 2]), g.const(np.zeros([0], np.int32)),
                                    g.const(np.zeros([0], np.int32)), 3))
                g.case(f"{op}.{sgname(dt)}.sparse_gradient",
                       lambda: call(g.rand(dt, [3, 2]), g.const([2, 0], "int32"),
                                    g.const([0, 1], "int32"), 2, sparse_gradient=True))
            F, I = "float32", "int32"
            for sname, data, idx, ids, num in [
                    ("unsorted", [3, 2], [0, 1, 2], [1, 0, 1], 3),
                    ("negative_id", [3, 2], [0, 1, 2], [-1, 0, 1], 3),
                    ("all_negative", [3, 2], [0, 1], [-1, -1], 3),
                    ("index_out_of_range", [3, 2], [0, 3, 1], [0, 0, 1], 3),
                    ("negative_index", [3, 2], [0, -1, 1], [0, 0, 1], 3),
                    ("length_mismatch", [3, 2], [0, 1, 2], [0, 0], 3),
                    ("indices_matrix", [3, 2], [[0, 1]], [0, 0], 3),
                    ("ids_matrix", [3, 2], [0, 1], [[0, 0]], 3),
                    ("scalar_data", [], [0], [0], 3)] + ([
                    ("id_past_num_segments", [3, 2], [0, 1, 2], [0, 1, 3], 3),
                    ("negative_num_segments", [3, 2], [0, 1], [0, 0], -1),
                    ("num_segments_vector", [3, 2], [0, 1], [0, 0], [2])] if with_num else []):
                g.case(f"{op}.float.{sname}",
                       lambda: call(hide_rank(g.rand(F, data)), hide_rank(g.const(idx, I)),
                                    hide_rank(g.const(ids, I)), num, hide=True),
                       error=True)
        # half and bfloat16 sum in float and round once.
        for dt, small in (("bfloat16", 1 / 256), ("float16", 1 / 2048)):
            g.case(f"{base}.{sgname(dt)}.rounding",
                   lambda: op_fn(base)(data=g.const([1, small, small, small], dt),
                                       indices=g.const([0, 1, 2, 3], "int32"),
                                       segment_ids=g.const([0, 0, 0, 0], "int32"), name="op"))
    g.case("SparseSegmentSum.int8.wraps",
           lambda: raw.SparseSegmentSum(data=g.const([100, 100], "int8"),
                                        indices=g.const([0, 1, 1], "int32"),
                                        segment_ids=g.const([0, 0, 1], "int32"), name="op"))


TENSOR_SCATTER_OPS = ["TensorScatterUpdate", "TensorScatterAdd", "TensorScatterSub",
                      "TensorScatterMin", "TensorScatterMax"]


@group
def scatter_nd(g):
    I = "int32"
    for dt in tf_types("GatherNd", "Tparams"):
        g.case(f"GatherNd.{sgname(dt)}.elements",
               lambda: raw.GatherNd(params=g.rand(dt, [3, 4]),
                                    indices=g.const([[0, 1], [2, 3], [1, 0], [2, 3]], I),
                                    name="op"))
        g.case(f"GatherNd.{sgname(dt)}.rows",
               lambda: raw.GatherNd(params=g.rand(dt, [4, 3]),
                                    indices=g.const([[3], [0], [3]], "int64"), name="op"))
        if not is_main(dt):
            continue
        for sname, ps, idx, ity in [
                ("batch", [2, 3, 4], [[[0, 1]], [[1, 2]]], "int16"),
                ("depth0", [2, 3], np.zeros([2, 0]), I),
                ("one_index", [2, 3], [1, 2], "int64"),
                ("empty", [2, 3], np.zeros([0, 2]), I),
                ("empty_params_no_index", [0, 2], np.zeros([0, 1]), I),
                ("rank4", [2, 2, 3, 2], [[1, 0, 2], [0, 1, 1]], I)]:
            g.case(f"GatherNd.{sgname(dt)}.{sname}",
                   lambda: raw.GatherNd(params=g.rand(dt, ps), indices=g.const(idx, ity),
                                        name="op"))
        g.case(f"GatherNd.{sgname(dt)}.ignore_bad",
               lambda: raw.GatherNd(params=g.rand(dt, [3, 2]), indices=g.const([[1], [3], [-1]], I),
                                    bad_indices_policy="IGNORE", name="op"))
    for sname, ps, idx, ity, policy in [
            ("out_of_range", [2, 2], [[0, 1], [2, 0]], I, ""),
            ("negative", [2, 2], [[-1]], "int16", ""),
            ("out_of_range_error_policy", [3], [[3]], "int64", "ERROR"),
            ("too_deep", [2], [[0, 1]], I, ""),
            ("scalar_indices", [2], 1, I, ""),
            ("scalar_params", [], np.zeros([1, 0]), I, ""),
            ("empty_params", [0, 2], [[0]], I, ""),
            ("empty_slice", [2, 0], [[1]], I, "")]:
        g.case(f"GatherNd.float.{sname}",
               lambda: raw.GatherNd(params=hide_rank(g.rand("float32", ps)),
                                    indices=hide_rank(g.const(idx, ity)),
                                    bad_indices_policy=policy, name="op"), error=True)

    for dt in tf_types("ScatterNd"):
        # Index 1 twice: ScatterNd adds (bools OR, strings concatenate).
        g.case(f"ScatterNd.{sgname(dt)}.rows",
               lambda: raw.ScatterNd(indices=g.const([[1], [3], [1]], I),
                                     updates=g.rand(dt, [3, 2]), shape=g.const([4, 2], I),
                                     name="op"))
        if not is_main(dt):
            continue
        for sname, idx, ushape, shape, ity in [
                ("elements", [[0, 1], [2, 0], [0, 1]], [3], [3, 2], "int64"),
                ("batch", [[[0], [3]], [[3], [1]]], [2, 2, 3], [4, 3], I),
                ("empty", np.zeros([0, 1]), [0, 2], [3, 2], I),
                ("empty_output", np.zeros([0, 1]), [0], [0], I),
                ("rank3", [[1, 0], [0, 2]], [2, 2], [2, 3, 2], "int64")]:
            g.case(f"ScatterNd.{sgname(dt)}.{sname}",
                   lambda: raw.ScatterNd(indices=g.const(idx, ity), updates=g.rand(dt, ushape),
                                         shape=g.const(shape, ity), name="op"))
        g.case(f"ScatterNd.{sgname(dt)}.ignore_bad",
               lambda: raw.ScatterNd(indices=g.const([[1], [3], [-1], [0]], I),
                                     updates=g.rand(dt, [4, 2]), shape=g.const([3, 2], I),
                                     bad_indices_policy="IGNORE", name="op"))
    for sname, idx, ushape, shape in [
            ("out_of_range", [[0], [3]], [2], [3]),
            ("negative", [[0], [-1]], [2], [3]),
            ("depth0", np.zeros([2, 0]), [2, 3], [3]),
            ("depth8", np.zeros([1, 8]), [1], [1] * 8),
            ("updates_mismatch", [[0], [1]], [3], [2]),
            ("inner_mismatch", [[0], [1]], [2, 3], [2, 2]),
            ("scalar_updates", [1], [], [3]),
            ("vector_indices", [2], [2], [3, 2]),
            ("negative_dim", [[0]], [1, 0], [3, -1]),
            ("shape_matrix", [[0]], [1], [[2]]),
            ("updates_into_empty", [[0]], [1, 0], [3, 0])]:
        g.case(f"ScatterNd.float.{sname}",
               lambda: raw.ScatterNd(indices=hide_rank(g.const(idx, I)),
                                     updates=hide_rank(g.rand("float32", ushape)),
                                     shape=hide_rank(g.const(shape, I)), name="op"), error=True)

    for op in TENSOR_SCATTER_OPS:
        for dt in tf_types(op):
            g.case(f"{op}.{sgname(dt)}.rows",
                   lambda: op_fn(op)(tensor=g.rand(dt, [4, 2]),
                                     indices=g.const([[1], [3], [1]], I),
                                     updates=g.rand(dt, [3, 2]), name="op"))
            if not is_main(dt):
                continue
            for sname, tshape, idx, ushape, ity in [
                    ("elements", [3, 2], [[0, 1], [2, 0], [0, 1]], [3], "int64"),
                    ("batch", [4, 3], [[[0], [3]], [[3], [1]]], [2, 2, 3], I),
                    ("empty", [3, 2], np.zeros([0, 1]), [0, 2], I),
                    ("empty_tensor", [0], np.zeros([0, 1]), [0], I)]:
                g.case(f"{op}.{sgname(dt)}.{sname}",
                       lambda: op_fn(op)(tensor=g.rand(dt, tshape), indices=g.const(idx, ity),
                                         updates=g.rand(dt, ushape), name="op"))
            g.case(f"{op}.{sgname(dt)}.ignore_bad",
                   lambda: op_fn(op)(tensor=g.rand(dt, [3, 2]),
                                     indices=g.const([[1], [3], [-1], [0]], I),
                                     updates=g.rand(dt, [4, 2]), bad_indices_policy="IGNORE",
                                     name="op"))
        for sname, tshape, idx, ushape in [
                ("out_of_range", [3], [[0], [3]], [2]),
                ("negative", [3], [[0], [-1]], [2]),
                ("depth0", [3], np.zeros([2, 0]), [2, 3]),
                ("updates_mismatch", [3], [[0], [1]], [3]),
                ("inner_mismatch", [2, 2], [[0], [1]], [2, 3]),
                ("scalar_updates", [3], [1], []),
                ("scalar_tensor", [], [[0]], [1]),
                ("vector_indices", [3, 2], [2], [2]),
                ("updates_into_empty", [3, 0], [[0]], [1, 0])]:
            g.case(f"{op}.float.{sname}",
                   lambda: op_fn(op)(tensor=hide_rank(g.rand("float32", tshape)),
                                     indices=hide_rank(g.const(idx, I)),
                                     updates=hide_rank(g.rand("float32", ushape)), name="op"),
                   error=True)
    for op in ("TensorScatterMin", "TensorScatterMax", "TensorScatterAdd"):
        g.case(f"{op}.float.nan",
               lambda: op_fn(op)(tensor=g.const([np.nan, 2, 3, -1], "float32"),
                                 indices=g.const([[0], [1], [2], [2], [3]], I),
                                 updates=g.const([5, np.nan, -7, np.inf, np.nan], "float32"),
                                 name="op"))


SCATTER_ND_STATE_OPS = ["Update", "Add", "Sub", "Min", "Max"]


@group
def scatter_nd_state(g):
    """The in-place scatters on ref and resource variables, and ScatterNdNonAliasingAdd."""
    I = "int32"
    for kind in SCATTER_ND_STATE_OPS:
        ref_op, res_op = "ScatterNd" + kind, "ResourceScatterNd" + kind
        for dt in tf_types(ref_op):
            def ref_case(idx, ushape, shape=(4, 2), ity=I, kind=kind, dt=dt):
                v = raw.VariableV2(shape=list(shape), dtype=dt, name="v")
                a = raw.Assign(ref=v, value=g.rand(dt, list(shape), lo=0, hi=8), name="assign")
                with tf.control_dependencies([a]):
                    u = op_fn("ScatterNd" + kind)(ref=v, indices=g.const(idx, ity),
                                                  updates=g.rand(dt, ushape, lo=0, hi=3),
                                                  name="op")
                return raw.Identity(input=u, name="out")
            # Index 1 twice: in order (Update: the last wins).
            g.case(f"{ref_op}.{sgname(dt)}.rows", lambda: ref_case([[1], [3], [1]], [3, 2]))
            if is_main(dt):
                g.case(f"{ref_op}.{sgname(dt)}.elements",
                       lambda: ref_case([[0, 1], [2, 0], [0, 1]], [3], ity="int64"))
        for dt in tf_types(res_op) if kind == "Update" else tf_types(ref_op):
            def res_case(idx, ushape, shape=(4, 2), kind=kind, dt=dt, policy=""):
                h = raw.VarHandleOp(dtype=dt, shape=list(shape), shared_name="v", name="v")
                a = raw.AssignVariableOp(resource=h, value=g.rand(dt, list(shape), lo=0, hi=8),
                                         name="assign")
                with tf.control_dependencies([a]):
                    u = op_fn("ResourceScatterNd" + kind)(ref=h, indices=g.const(idx, I),
                                                          updates=hide_rank(
                                                              g.rand(dt, ushape, lo=0, hi=3)),
                                                          bad_indices_policy=policy, name="op")
                with tf.control_dependencies([u]):
                    return raw.ReadVariableOp(resource=h, dtype=dt, name="out")
            g.case(f"{res_op}.{sgname(dt)}.rows", lambda: res_case([[1], [3], [1]], [3, 2]))
            if is_main(dt):
                g.case(f"{res_op}.{sgname(dt)}.rank3",
                       lambda: res_case([[1, 0], [0, 2]], [2, 2], shape=(2, 3, 2)))
                g.case(f"{res_op}.{sgname(dt)}.ignore_bad",
                       lambda: res_case([[1], [4], [-1]], [3, 2], policy="IGNORE"))
        # Errors: an index out of range, updates of the wrong shape, an uninitialized variable.
        g.case(f"{res_op}.float.out_of_range",
               lambda: res_case([[0], [4]], [2, 2], dt="float32"), error=True)
        g.case(f"{res_op}.float.updates_mismatch",
               lambda: res_case([[0], [1]], [2, 3], dt="float32"), error=True)
        def uninitialized(kind=kind):
            v = raw.VariableV2(shape=[3], dtype="float32", name="v")
            return op_fn("ScatterNd" + kind)(ref=v, indices=g.const([[0]], I),
                                             updates=g.rand("float32", [1]), name="op")
        g.case(f"{ref_op}.float.uninitialized", uninitialized, error=True)
    # (A resource of another dtype is not a case: TensorFlow 2.21's kernel aborts the process.)
    # The variable's earlier value, read before the scatter, stays as it was.
    def snapshot():
        h = raw.VarHandleOp(dtype="float32", shape=[3], shared_name="v", name="v")
        a = raw.AssignVariableOp(resource=h, value=g.rand("float32", [3]), name="assign")
        with tf.control_dependencies([a]):
            before = raw.ReadVariableOp(resource=h, dtype="float32", name="before")
        with tf.control_dependencies([before]):
            u = raw.ResourceScatterNdAdd(ref=h, indices=g.const([[2]], I),
                                         updates=g.const([10], "float32"), name="op")
        with tf.control_dependencies([u]):
            after = raw.ReadVariableOp(resource=h, dtype="float32", name="after")
        return [raw.Identity(input=before, name="b"), after]
    g.case("ResourceScatterNdAdd.float.snapshot", snapshot)

    for dt in tf_types("ScatterNdNonAliasingAdd"):
        g.case(f"ScatterNdNonAliasingAdd.{sgname(dt)}.rows",
               lambda: raw.ScatterNdNonAliasingAdd(input=g.rand(dt, [4, 2]),
                                                   indices=g.const([[1], [3], [1]], I),
                                                   updates=g.rand(dt, [3, 2]), name="op"))
    g.case("ScatterNdNonAliasingAdd.float.out_of_range",
           lambda: raw.ScatterNdNonAliasingAdd(input=g.rand("float32", [3]),
                                               indices=g.const([[3]], I),
                                               updates=g.rand("float32", [1]), name="op"),
           error=True)


@group
def strided_slice_write(g):
    """TensorStridedSliceUpdate, StridedSliceAssign and ResourceStridedSliceAssign."""
    I = "int32"
    # (name, shape, begin, end, strides, value shape, masks)
    specs = [
        ("box", [3, 4], [0, 1], [3, 3], [1, 1], [3, 2], {}),
        ("broadcast_row", [3, 4], [0, 1], [3, 3], [1, 1], [2], {}),
        ("broadcast_scalar", [3, 4], [0, 0], [3, 4], [2, 3], [], {}),
        ("reverse", [5], [4], [0], [-2], [2], {}),
        ("shrink", [3, 4], [1], [2], [1], [4], dict(shrink_axis_mask=1)),
        ("shrink_leading_one", [3, 4], [1], [2], [1], [1, 4], dict(shrink_axis_mask=1)),
        ("masks", [2, 3, 4], [1, 0, 1], [0, 2, 0], [1, 1, 2], [2, 2, 2],
         dict(begin_mask=1, end_mask=4)),
        ("ellipsis_new_axis", [2, 3], [0, 0, 1], [0, 0, 3], [1, 1, 1], [1, 2],
         dict(ellipsis_mask=1, new_axis_mask=2)),
        ("empty", [3, 4], [2, 0], [2, 4], [1, 1], [0, 4], {}),
    ]
    for dt in UNIVERSE:
        for sname, shape, b, e, st, vshape, masks in specs:
            if not is_main(dt) and sname != "box":
                continue
            ity = "int64" if sname == "masks" else I
            g.case(f"TensorStridedSliceUpdate.{sgname(dt)}.{sname}",
                   lambda: raw.TensorStridedSliceUpdate(
                       input=g.rand(dt, shape), begin=g.const(b, ity), end=g.const(e, ity),
                       strides=g.const(st, ity), value=g.rand(dt, vshape), name="op", **masks))
        def ref_assign(dt=dt):
            v = raw.VariableV2(shape=[3, 4], dtype=dt, name="v")
            a = raw.Assign(ref=v, value=g.rand(dt, [3, 4]), name="assign")
            with tf.control_dependencies([a]):
                u = raw.StridedSliceAssign(ref=v, begin=g.const([1, 0], I),
                                           end=g.const([3, 4], I), strides=g.const([1, 2], I),
                                           value=g.rand(dt, [2, 2]), name="op")
            return raw.Identity(input=u, name="out")
        g.case(f"StridedSliceAssign.{sgname(dt)}.box", ref_assign)
        def resource_assign(dt=dt):
            h = raw.VarHandleOp(dtype=dt, shape=[3, 4], shared_name="v", name="v")
            a = raw.AssignVariableOp(resource=h, value=g.rand(dt, [3, 4]), name="assign")
            with tf.control_dependencies([a]):
                u = raw.ResourceStridedSliceAssign(ref=h, begin=g.const([2, 1], I),
                                                   end=g.const([0, 4], I),
                                                   strides=g.const([-1, 1], I),
                                                   value=g.rand(dt, [3]), name="op")
            with tf.control_dependencies([u]):
                return raw.ReadVariableOp(resource=h, dtype=dt, name="out")
        g.case(f"ResourceStridedSliceAssign.{sgname(dt)}.broadcast", resource_assign)
    for sname, shape, b, e, st, vshape in [
            ("not_broadcastable", [3, 4], [0, 1], [3, 3], [1, 1], [3]),
            ("zero_stride", [3, 4], [0], [3], [0], [3, 4]),
            ("shrink_out_of_range", [3, 4], [5], [6], [1], [4])]:
        masks = dict(shrink_axis_mask=1) if sname.startswith("shrink") else {}
        g.case(f"TensorStridedSliceUpdate.float.{sname}",
               lambda: raw.TensorStridedSliceUpdate(
                   input=g.rand("float32", shape), begin=g.const(b, I), end=g.const(e, I),
                   strides=g.const(st, I), value=g.rand("float32", vshape), name="op", **masks),
               error=True)
    def uninitialized():
        h = raw.VarHandleOp(dtype="float32", shape=[3], shared_name="v", name="v")
        op = raw.ResourceStridedSliceAssign(ref=h, begin=g.const([0], I), end=g.const([1], I),
                                            strides=g.const([1], I),
                                            value=g.rand("float32", [1]), name="op")
        with tf.control_dependencies([op]):
            return tf.constant(0, name="after")
    g.case("ResourceStridedSliceAssign.float.uninitialized", uninitialized, error=True)
