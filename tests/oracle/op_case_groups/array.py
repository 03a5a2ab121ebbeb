"""Op conformance cases: Concat and split, reshapes, gathers and slices, padding, fills, shapes, Where and Unique."""

from op_case_lib import *  # noqa: F401,F403


@group
def array_concat_split(g):
    for dt in tf_types("ConcatV2"):
        g.case(f"ConcatV2.{sgname(dt)}.axis0",
               lambda: raw.ConcatV2(values=[g.rand(dt, [2, 3]), g.rand(dt, [1, 3])],
                                    axis=g.const(0, "int32"), name="op"))
        g.case(f"Concat.{sgname(dt)}.axis1",
               lambda: raw.Concat(concat_dim=g.const(1, "int32"),
                                  values=[g.rand(dt, [2, 3]), g.rand(dt, [2, 1])], name="op"))
        g.case(f"Pack.{sgname(dt)}.axis0",
               lambda: raw.Pack(values=[g.rand(dt, [2, 3]) for _ in range(3)], name="op"))
        g.case(f"Unpack.{sgname(dt)}.axis0",
               lambda: list(raw.Unpack(value=g.rand(dt, [3, 2]), num=3, name="op")))
        g.case(f"Split.{sgname(dt)}.axis1",
               lambda: list(raw.Split(axis=g.const(1, "int32"), value=g.rand(dt, [2, 4]),
                                      num_split=2, name="op")))
        g.case(f"SplitV.{sgname(dt)}.axis0",
               lambda: list(raw.SplitV(value=g.rand(dt, [5, 2]),
                                       size_splits=g.const([1, -1, 2], "int32"),
                                       axis=g.const(0, "int32"), num_split=3, name="op")))
        if not is_main(dt):
            continue
        for sname, parts, axis in [("neg_axis", [[2, 3, 1], [2, 3, 2]], -1),
                                   ("empty_part", [[2, 0], [2, 3], [2, 1]], 1),
                                   ("all_empty", [[0, 3], [0, 3]], 0),
                                   ("int64_axis", [[1, 2], [2, 2]], 0),
                                   ("many", [[1, 3]] * 7, 0), ("vectors", [[3], [2], [0]], 0)]:
            ty = "int64" if sname == "int64_axis" else "int32"
            g.case(f"ConcatV2.{sgname(dt)}.{sname}",
                   lambda: raw.ConcatV2(values=[g.rand(dt, s) for s in parts],
                                        axis=g.const(axis, ty), name="op"))
        g.case(f"Concat.{sgname(dt)}.neg_axis",
               lambda: raw.Concat(concat_dim=g.const(-2, "int32"),
                                  values=[g.rand(dt, [1, 3]), g.rand(dt, [2, 3])], name="op"))
        g.case(f"ConcatV2.{sgname(dt)}.mismatch",
               lambda: raw.ConcatV2(values=[g.rand(dt, [2, 3]),
                                            tf.compat.v1.placeholder_with_default(
                                                g.rand(dt, [2, 2]), [None, None])],
                                    axis=g.const(0, "int32"), name="op"), error=True)
        for sname, shape, n, axis in [("scalars", [], 3, 0), ("axis1", [2, 3], 2, 1),
                                      ("axis_neg", [2, 3], 2, -1), ("empty", [0, 2], 2, 1),
                                      ("one", [3], 1, 0)]:
            g.case(f"Pack.{sgname(dt)}.{sname}",
                   lambda: raw.Pack(values=[g.rand(dt, shape) for _ in range(n)], axis=axis,
                                    name="op"))
        for sname, shape, n, axis in [("axis1", [2, 3, 2], 3, 1), ("axis_neg", [2, 4], 4, -1),
                                      ("vec", [4], 4, 0), ("empty", [2, 0], 2, 0)]:
            g.case(f"Unpack.{sgname(dt)}.{sname}",
                   lambda: list(raw.Unpack(value=g.rand(dt, shape), num=n, axis=axis,
                                           name="op")))
        for sname, shape, n, axis in [("axis0", [4, 2], 4, 0), ("neg", [2, 6], 3, -1),
                                      ("one", [3], 1, 0), ("empty", [0, 4], 2, 1)]:
            g.case(f"Split.{sgname(dt)}.{sname}",
                   lambda: list(raw.Split(axis=g.const(axis, "int32"), value=g.rand(dt, shape),
                                          num_split=n, name="op")))
        g.case(f"Split.{sgname(dt)}.uneven",
               lambda: list(raw.Split(axis=g.const(0, "int32"),
                                      value=tf.compat.v1.placeholder_with_default(
                                          g.rand(dt, [5]), [None]), num_split=2, name="op")),
               error=True)
        for sname, shape, sizes, axis, ty in [("neg", [2, 6], [3, 0, 3], -1, "int64"),
                                              ("one", [3, 2], [3], 0, "int32"),
                                              ("inferred_zero", [3], [3, -1], 0, "int32")]:
            g.case(f"SplitV.{sgname(dt)}.{sname}",
                   lambda: list(raw.SplitV(value=g.rand(dt, shape),
                                           size_splits=g.const(sizes, ty),
                                           axis=g.const(axis, "int32"), num_split=len(sizes),
                                           name="op")))


@group
def array_reshape(g):
    for dt in tf_types("Reshape"):
        g.case(f"Reshape.{sgname(dt)}.infer",
               lambda: raw.Reshape(tensor=g.rand(dt, [2, 6]), shape=g.const([3, -1], "int32"),
                                   name="op"))
        g.case(f"Transpose.{sgname(dt)}.rank3",
               lambda: raw.Transpose(x=g.rand(dt, [2, 3, 4]), perm=g.const([2, 0, 1], "int32"),
                                     name="op"))
        g.case(f"Tile.{sgname(dt)}.mat",
               lambda: raw.Tile(input=g.rand(dt, [2, 3]), multiples=g.const([2, 1], "int32"),
                                name="op"))
        g.case(f"BroadcastTo.{sgname(dt)}.row",
               lambda: raw.BroadcastTo(input=g.rand(dt, [3]), shape=g.const([2, 3], "int32"),
                                       name="op"))
        g.case(f"ExpandDims.{sgname(dt)}.axis0",
               lambda: raw.ExpandDims(input=g.rand(dt, [2, 3]), axis=g.const(0, "int32"),
                                      name="op"))
        g.case(f"Squeeze.{sgname(dt)}.all",
               lambda: raw.Squeeze(input=g.rand(dt, [1, 3, 1]), name="op"))
        g.case(f"ReverseV2.{sgname(dt)}.axis1",
               lambda: raw.ReverseV2(tensor=g.rand(dt, [2, 3]), axis=g.const([1], "int32"),
                                     name="op"))
        g.case(f"Reverse.{sgname(dt)}.dims",
               lambda: raw.Reverse(tensor=g.rand(dt, [2, 3]), dims=g.const([True, False]),
                                   name="op"))
        if not is_main(dt):
            continue
        for sname, shape, new, ty in [("to_scalar", [1, 1], [], "int32"),
                                      ("from_scalar", [], [1, 1, 1], "int64"),
                                      ("empty", [0, 4], [2, 0, -1], "int32"),
                                      ("flatten", [2, 3, 4], [-1], "int64"),
                                      ("same", [6], [6], "int32")]:
            g.case(f"Reshape.{sgname(dt)}.{sname}",
                   lambda: raw.Reshape(tensor=g.rand(dt, shape), shape=g.const(new, ty),
                                       name="op"))
        g.case(f"Reshape.{sgname(dt)}.bad_size",
               lambda: raw.Reshape(tensor=tf.compat.v1.placeholder_with_default(
                   g.rand(dt, [2, 3]), [None, None]), shape=g.const([4, -1], "int32"), name="op"),
               error=True)
        for sname, shape, perm, ty in [("rank2", [2, 3], [1, 0], "int64"),
                                       ("identity", [2, 3], [0, 1], "int32"),
                                       ("scalar", [], [], "int32"),
                                       ("rank5", [2, 1, 3, 2, 2], [4, 2, 0, 3, 1], "int32"),
                                       ("empty", [0, 3, 2], [1, 2, 0], "int32"),
                                       ("large", [33, 17], [1, 0], "int32")]:
            g.case(f"Transpose.{sgname(dt)}.{sname}",
                   lambda: raw.Transpose(x=g.rand(dt, shape), perm=g.const(perm, ty), name="op"))
        for sname, shape, mult, ty in [("rank3", [2, 1, 3], [1, 3, 2], "int64"),
                                       ("zero", [2, 3], [0, 2], "int32"),
                                       ("scalar", [], [], "int32"),
                                       ("empty", [0, 2], [3, 2], "int32")]:
            g.case(f"Tile.{sgname(dt)}.{sname}",
                   lambda: raw.Tile(input=g.rand(dt, shape), multiples=g.const(mult, ty),
                                    name="op"))
        for sname, shape, to, ty in [("scalar", [], [2, 3], "int64"),
                                     ("col", [2, 1], [2, 4], "int32"),
                                     ("rank_up", [3, 1], [2, 2, 3, 2], "int32"),
                                     ("same", [2, 3], [2, 3], "int32"),
                                     ("empty", [1, 3], [0, 3], "int32")]:
            g.case(f"BroadcastTo.{sgname(dt)}.{sname}",
                   lambda: raw.BroadcastTo(input=g.rand(dt, shape), shape=g.const(to, ty),
                                           name="op"))
        for sname, shape, axis, ty in [("neg", [2, 3], -1, "int32"), ("scalar", [], 0, "int64"),
                                       ("mid", [2, 3], 1, "int32"), ("neg_end", [2], -2, "int32")]:
            g.case(f"ExpandDims.{sgname(dt)}.{sname}",
                   lambda: raw.ExpandDims(input=g.rand(dt, shape), axis=g.const(axis, ty),
                                          name="op"))
        for sname, shape, axes in [("axis", [1, 3, 1], [0]), ("neg_axis", [2, 1, 1], [-1, 1]),
                                   ("none", [2, 3], []), ("to_scalar", [1, 1], []),
                                   ("empty", [0, 1], [1])]:
            g.case(f"Squeeze.{sgname(dt)}.{sname}",
                   lambda: raw.Squeeze(input=g.rand(dt, shape), axis=axes, name="op"))
        g.case(f"Squeeze.{sgname(dt)}.not_one",
               lambda: raw.Squeeze(input=tf.compat.v1.placeholder_with_default(
                   g.rand(dt, [2, 3]), [None, None]), axis=[0], name="op"), error=True)
        for sname, shape, axes, ty in [("all", [2, 3, 4], [0, 1, 2], "int64"),
                                       ("neg", [2, 3, 4], [-1, 0], "int32"),
                                       ("none", [2, 3], [], "int32"),
                                       ("empty", [0, 3], [0, 1], "int32"),
                                       ("vec", [67], [0], "int32")]:
            g.case(f"ReverseV2.{sgname(dt)}.{sname}",
                   lambda: raw.ReverseV2(tensor=g.rand(dt, shape), axis=g.const(axes, ty),
                                         name="op"))
        g.case(f"Reverse.{sgname(dt)}.rank3",
               lambda: raw.Reverse(tensor=g.rand(dt, [2, 3, 2]),
                                   dims=g.const([True, False, True]), name="op"))
        g.case(f"Reverse.{sgname(dt)}.scalar",
               lambda: raw.Reverse(tensor=g.rand(dt, []), dims=g.const(np.zeros([0], bool)),
                                   name="op"))
    for dt in tf_types("InvertPermutation"):
        for sname, perm in [("vec", [2, 0, 3, 1]), ("empty", []), ("one", [0])]:
            g.case(f"InvertPermutation.{sgname(dt)}.{sname}",
                   lambda: raw.InvertPermutation(x=g.const(perm, dt), name="op"))
        g.case(f"InvertPermutation.{sgname(dt)}.not_permutation",
               lambda: raw.InvertPermutation(x=g.const([0, 0, 1], dt), name="op"), error=True)


@group
def array_gather_slice(g):
    for dt in tf_types("GatherV2", "Tparams"):
        g.case(f"GatherV2.{sgname(dt)}.axis0",
               lambda: raw.GatherV2(params=g.rand(dt, [4, 3]), indices=g.const([3, 0, 3], "int32"),
                                    axis=g.const(0, "int32"), name="op"))
        g.case(f"Gather.{sgname(dt)}.vec",
               lambda: raw.Gather(params=g.rand(dt, [5]), indices=g.const([[4, 0], [1, 1]],
                                                                         "int64"), name="op"))
        g.case(f"Slice.{sgname(dt)}.mat",
               lambda: raw.Slice(input=g.rand(dt, [3, 4]), begin=g.const([1, 1], "int32"),
                                 size=g.const([2, -1], "int32"), name="op"))
        g.case(f"StridedSlice.{sgname(dt)}.basic",
               lambda: raw.StridedSlice(input=g.rand(dt, [4, 5]), begin=g.const([1, 0], "int32"),
                                        end=g.const([3, 5], "int32"),
                                        strides=g.const([1, 2], "int32"), name="op"))
        if not is_main(dt):
            continue
        for sname, ps, idx, axis, bd, ity in [
                ("axis1", [2, 4, 3], [[0, 3], [1, 1]], 1, 0, "int64"),
                ("axis_neg", [2, 4], [3, 1], -1, 0, "int32"),
                ("scalar_index", [4, 3], 2, 0, 0, "int32"),
                ("empty_index", [4, 3], np.zeros([0], np.int32), 0, 0, "int32"),
                ("empty_params", [4, 0], [1, 2], 0, 0, "int32"),
                ("batch_dims", [2, 4, 3], [[0, 3], [1, 2]], 1, 1, "int32"),
                ("batch_dims_axis2", [2, 3, 4], [[0, 3], [1, 2]], 2, 1, "int64"),
                ("batch_dims_neg", [2, 4, 3], [[0, 3], [1, 2]], -2, -1, "int32")]:
            g.case(f"GatherV2.{sgname(dt)}.{sname}",
                   lambda: raw.GatherV2(params=g.rand(dt, ps), indices=g.const(idx, ity),
                                        axis=g.const(axis, "int32"), batch_dims=bd, name="op"))
        g.case(f"GatherV2.{sgname(dt)}.out_of_range",
               lambda: raw.GatherV2(params=g.rand(dt, [4, 3]), indices=g.const([1, 4], "int32"),
                                    axis=g.const(0, "int32"), name="op"), error=True)
        g.case(f"GatherV2.{sgname(dt)}.negative_index",
               lambda: raw.GatherV2(params=g.rand(dt, [4, 3]), indices=g.const([-1], "int32"),
                                    axis=g.const(0, "int32"), name="op"), error=True)
        g.case(f"Gather.{sgname(dt)}.mat",
               lambda: raw.Gather(params=g.rand(dt, [4, 2]), indices=g.const([3, 3, 0], "int32"),
                                  validate_indices=False, name="op"))
        for sname, shape, begin, size, ty in [("all", [2, 3], [0, 0], [-1, -1], "int64"),
                                              ("empty", [2, 3], [1, 1], [0, 2], "int32"),
                                              ("scalar", [], [], [], "int32"),
                                              ("rank3", [3, 4, 2], [1, 0, 1], [2, 3, 1], "int32"),
                                              ("empty_in", [0, 3], [0, 1], [0, 2], "int32")]:
            g.case(f"Slice.{sgname(dt)}.{sname}",
                   lambda: raw.Slice(input=g.rand(dt, shape), begin=g.const(begin, ty),
                                     size=g.const(size, ty), name="op"))
        g.case(f"Slice.{sgname(dt)}.out_of_bounds",
               lambda: raw.Slice(input=tf.compat.v1.placeholder_with_default(
                   g.rand(dt, [2, 3]), [None, None]), begin=g.const([1, 1], "int32"),
                   size=g.const([2, 1], "int32"), name="op"), error=True)
        # begin, end, strides, begin_mask, end_mask, ellipsis_mask, new_axis_mask,
        # shrink_axis_mask
        for sname, shape, b, e, s, masks in [
                ("neg_stride", [5, 4], [4, 3], [0, 0], [-1, -2], (0, 0, 0, 0, 0)),
                ("neg_stride_masks", [5, 4], [0, 0], [0, 0], [-2, -1], (3, 3, 0, 0, 0)),
                ("shrink", [5, 4], [2, 1], [3, 3], [1, 1], (0, 0, 0, 0, 1)),
                ("shrink_all", [5, 4], [2, -1], [3, 0], [1, 1], (0, 0, 0, 0, 3)),
                ("new_axis", [5, 4], [0, 1, 0], [0, 3, 0], [1, 1, 1], (0, 0, 0, 1, 0)),
                ("ellipsis", [2, 3, 4], [0, 1], [0, 3], [1, 1], (0, 0, 1, 0, 0)),
                ("ellipsis_shrink", [2, 3, 4], [0, -1], [0, 0], [1, 1], (0, 0, 1, 0, 2)),
                ("ellipsis_new", [2, 3, 4], [0, 0, 1], [0, 0, 2], [1, 1, 1], (0, 0, 2, 1, 0)),
                ("masks", [4, 6], [1, 2], [3, 5], [1, 2], (1, 2, 0, 0, 0)),
                ("clamp", [4, 6], [-10, 2], [10, 100], [1, 3], (0, 0, 0, 0, 0)),
                ("empty", [4, 6], [3, 0], [1, 6], [1, 1], (0, 0, 0, 0, 0)),
                ("scalar_out", [4], [2], [3], [1], (0, 0, 0, 0, 1)),
                ("neg_index", [6], [-4], [-1], [1], (0, 0, 0, 0, 0)),
                ("rank4", [2, 3, 4, 5], [1, 0, 3, 1], [2, 3, 0, 5], [1, 2, -1, 2],
                 (0, 0, 0, 0, 1))]:
            ty = "int64" if sname in ("masks", "rank4") else "int32"
            g.case(f"StridedSlice.{sgname(dt)}.{sname}",
                   lambda: raw.StridedSlice(input=g.rand(dt, shape), begin=g.const(b, ty),
                                            end=g.const(e, ty), strides=g.const(s, ty),
                                            begin_mask=masks[0], end_mask=masks[1],
                                            ellipsis_mask=masks[2], new_axis_mask=masks[3],
                                            shrink_axis_mask=masks[4], name="op"))
        g.case(f"StridedSlice.{sgname(dt)}.zero_stride",
               lambda: raw.StridedSlice(input=g.rand(dt, [4]), begin=g.const([0], "int32"),
                                        end=tf.compat.v1.placeholder_with_default(
                                            g.const([3], "int32"), [None]),
                                        strides=tf.compat.v1.placeholder_with_default(
                                            g.const([0], "int32"), [None]), name="op"),
               error=True)


@group
def array_pad(g):
    for dt in tf_types("Pad"):
        g.case(f"Pad.{sgname(dt)}.mat",
               lambda: raw.Pad(input=g.rand(dt, [2, 3]), paddings=g.const([[1, 0], [2, 1]],
                                                                          "int32"), name="op"))
        g.case(f"MirrorPad.{sgname(dt)}.reflect",
               lambda: raw.MirrorPad(input=g.rand(dt, [3, 4]),
                                     paddings=g.const([[2, 1], [1, 3]], "int32"),
                                     mode="REFLECT", name="op"))
        if dt != "string":
            g.case(f"PadV2.{sgname(dt)}.mat",
                   lambda: raw.PadV2(input=g.rand(dt, [2, 3]),
                                     paddings=g.const([[0, 1], [1, 1]], "int64"),
                                     constant_values=g.rand(dt, []), name="op"))
        if not is_main(dt):
            continue
        for sname, shape, pads, ty in [("scalar", [], np.zeros([0, 2]), "int32"),
                                       ("empty", [0, 2], [[1, 1], [0, 2]], "int64"),
                                       ("zero", [2, 3], [[0, 0], [0, 0]], "int32"),
                                       ("rank4", [1, 2, 2, 1], [[0, 0], [1, 1], [2, 0], [0, 1]],
                                        "int32")]:
            g.case(f"Pad.{sgname(dt)}.{sname}",
                   lambda: raw.Pad(input=g.rand(dt, shape), paddings=g.const(pads, ty),
                                   name="op"))
        for mode in ("REFLECT", "SYMMETRIC"):
            for sname, shape, pads in [("vec", [4], [[3, 3]]), ("rank3", [2, 3, 2],
                                                                [[1, 1], [0, 2], [1, 0]]),
                                       ("zero", [2, 2], [[0, 0], [0, 0]])]:
                if mode == "SYMMETRIC" and sname == "vec":
                    pads = [[4, 4]]
                g.case(f"MirrorPad.{sgname(dt)}.{mode.lower()}_{sname}",
                       lambda: raw.MirrorPad(input=g.rand(dt, shape),
                                             paddings=g.const(pads, "int32"), mode=mode,
                                             name="op"))
        g.case(f"MirrorPad.{sgname(dt)}.too_wide",
               lambda: raw.MirrorPad(input=g.rand(dt, [3]),
                                     paddings=tf.compat.v1.placeholder_with_default(
                                         g.const([[3, 0]], "int32"), [None, 2]),
                                     mode="REFLECT", name="op"), error=True)
        g.case(f"Pad.{sgname(dt)}.negative",
               lambda: raw.Pad(input=g.rand(dt, [3]),
                               paddings=tf.compat.v1.placeholder_with_default(
                                   g.const([[-1, 0]], "int32"), [None, 2]), name="op"),
               error=True)


@group
def array_fill_onehot(g):
    for dt in tf_types("Fill"):
        g.case(f"Fill.{sgname(dt)}.mat",
               lambda: raw.Fill(dims=g.const([2, 3], "int32"), value=g.rand(dt, []), name="op"))
        g.case(f"ZerosLike.{sgname(dt)}.mat",
               lambda: raw.ZerosLike(x=g.rand(dt, [2, 3]), name="op"))
        if dt != "string":
            g.case(f"OnesLike.{sgname(dt)}.mat",
                   lambda: raw.OnesLike(x=g.rand(dt, [2, 3]), name="op"))
        g.case(f"OneHot.{sgname(dt)}.vec",
               lambda: raw.OneHot(indices=g.const([0, 2, -1, 5], "int32"),
                                  depth=g.const(4, "int32"), on_value=g.rand(dt, []),
                                  off_value=g.rand(dt, []), name="op"))
        if not is_main(dt):
            continue
        for sname, dims, ty in [("scalar", [], "int32"), ("empty", [0, 3], "int64"),
                                ("rank3", [2, 1, 2], "int64")]:
            g.case(f"Fill.{sgname(dt)}.{sname}",
                   lambda: raw.Fill(dims=g.const(dims, ty), value=g.rand(dt, []), name="op"))
        for sname, shape in [("scalar", []), ("empty", [0, 2])]:
            g.case(f"ZerosLike.{sgname(dt)}.{sname}",
                   lambda: raw.ZerosLike(x=g.rand(dt, shape), name="op"))
            if dt != "string":
                g.case(f"OnesLike.{sgname(dt)}.{sname}",
                       lambda: raw.OnesLike(x=g.rand(dt, shape), name="op"))
        for sname, idx, ity, depth, axis in [("axis0", [[0, 1], [2, 3]], "int64", 3, 0),
                                             ("axis1", [[0, 1], [2, -3]], "uint8", 3, 1),
                                             ("scalar", 1, "int32", 3, -1),
                                             ("depth0", [0, 1], "int32", 0, -1),
                                             ("empty", np.zeros([0, 2]), "int32", 2, -1)]:
            g.case(f"OneHot.{sgname(dt)}.{sname}",
                   lambda: raw.OneHot(indices=g.const(idx, ity), depth=g.const(depth, "int32"),
                                      on_value=g.rand(dt, []), off_value=g.rand(dt, []),
                                      axis=axis, name="op"))


@group
def array_shape(g):
    for dt in tf_types("Shape"):
        g.case(f"Shape.{sgname(dt)}.mat",
               lambda: raw.Shape(input=g.rand(dt, [2, 3]), name="op"))
        g.case(f"Size.{sgname(dt)}.mat", lambda: raw.Size(input=g.rand(dt, [2, 3]), name="op"))
        g.case(f"Rank.{sgname(dt)}.mat", lambda: raw.Rank(input=g.rand(dt, [2, 3]), name="op"))
        g.case(f"ShapeN.{sgname(dt)}.two",
               lambda: list(raw.ShapeN(input=[g.rand(dt, [2, 3]), g.rand(dt, [4])], name="op")))
        if not is_main(dt):
            continue
        for sname, shape in [("scalar", []), ("empty", [0, 3]), ("rank5", [1, 2, 1, 3, 1])]:
            for ot in ("int32", "int64"):
                g.case(f"Shape.{sgname(dt)}.{sname}_{ot}",
                       lambda: raw.Shape(input=g.rand(dt, shape), out_type=ot, name="op"))
                g.case(f"Size.{sgname(dt)}.{sname}_{ot}",
                       lambda: raw.Size(input=g.rand(dt, shape), out_type=ot, name="op"))
            g.case(f"Rank.{sgname(dt)}.{sname}",
                   lambda: raw.Rank(input=g.rand(dt, shape), name="op"))
        g.case(f"ShapeN.{sgname(dt)}.int64",
               lambda: list(raw.ShapeN(input=[g.rand(dt, []), g.rand(dt, [0, 2]),
                                              g.rand(dt, [1, 2, 3])], out_type="int64",
                                       name="op")))


@group
def array_where_unique(g):
    for dt in tf_types("Where"):
        g.case(f"Where.{sgname(dt)}.mat",
               lambda: raw.Where(condition=g.rand(dt, [3, 4], lo=-1, hi=1), name="op"))
        if not is_main(dt):
            continue
        for sname, shape in [("vec", [7]), ("scalar", []), ("empty", [0, 3]),
                             ("rank3", [2, 3, 2])]:
            g.case(f"Where.{sgname(dt)}.{sname}",
                   lambda: raw.Where(condition=g.rand(dt, shape, lo=-1, hi=1), name="op"),
                   error=sname == "scalar")
    for dt in tf_types("Unique"):
        for oi in ("int32", "int64"):
            g.case(f"Unique.{sgname(dt)}.vec_{oi}",
                   lambda: list(raw.Unique(x=g.rand(dt, [9], lo=-2, hi=2), out_idx=oi,
                                           name="op")))
        if is_main(dt):
            g.case(f"Unique.{sgname(dt)}.empty",
                   lambda: list(raw.Unique(x=g.rand(dt, [0]), name="op")))
            g.case(f"Unique.{sgname(dt)}.one",
                   lambda: list(raw.Unique(x=g.rand(dt, [1]), name="op")))
