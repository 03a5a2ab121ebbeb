"""Op conformance cases: the gradient ops of TF Lite's Flex allowlist (array, segment, fake-quant,
image and TensorArray gradients) that training graphs use."""

from op_case_lib import *  # noqa: F401,F403


NUMBER_TYPES = FLOATS + INTS + COMPLEX


def strided_slice_grad(g, dt, shape, begin, end, strides, **masks):
    """dy of the slice's shape, then StridedSliceGrad back to `shape`."""
    fwd = tf.strided_slice(tf.zeros(shape, "float32"), begin, end, strides, **masks)
    dy = g.rand(dt, fwd.shape.as_list())
    return raw.StridedSliceGrad(shape=g.const(shape, "int32"), begin=g.const(begin, "int32"),
                                end=g.const(end, "int32"), strides=g.const(strides, "int32"),
                                dy=dy, name="op", **masks)


@group
def misc_grad_array(g):
    # StridedSliceGrad: every dtype, then the masks on float.
    for dt in UNIVERSE:
        g.case(f"StridedSliceGrad.{sgname(dt)}.basic",
               lambda: strided_slice_grad(g, dt, [4, 5], [1, 0], [3, 5], [1, 2]))
    variants = {
        "negative_stride": ([5, 3], [4, 0], [0, 3], [-2, 1], {}),
        "begin_end_mask": ([4, 6], [1, 2], [3, 5], [1, 1], {"begin_mask": 1, "end_mask": 2}),
        "ellipsis": ([2, 3, 4], [0, 1], [1, 3], [1, 1], {"ellipsis_mask": 1}),
        "new_axis": ([3, 4], [0, 1, 0], [0, 3, 4], [1, 1, 2], {"new_axis_mask": 1}),
        "shrink": ([3, 4], [1, 0], [2, 4], [1, 1], {"shrink_axis_mask": 1}),
        "empty": ([3, 4], [2, 0], [1, 4], [1, 1], {}),
        "negative_indices": ([6], [-4], [-1], [1], {}),
    }
    for vname, (shape, b, e, s, masks) in variants.items():
        g.case(f"StridedSliceGrad.float.{vname}",
               lambda: strided_slice_grad(g, "float32", shape, b, e, s, **masks))
    g.case("StridedSliceGrad.float.int64_index",
           lambda: raw.StridedSliceGrad(shape=g.const([4, 3], "int64"),
                                        begin=g.const([1, 0], "int64"),
                                        end=g.const([4, 3], "int64"),
                                        strides=g.const([2, 1], "int64"),
                                        dy=g.rand("float32", [2, 3]), name="op"))
    g.case("StridedSliceGrad.float.dy_shape_mismatch",
           lambda: raw.StridedSliceGrad(shape=g.const([4, 3], "int32"),
                                        begin=g.const([0, 0], "int32"),
                                        end=g.const([2, 3], "int32"),
                                        strides=g.const([1, 1], "int32"),
                                        dy=hide_shape(g.rand("float32", [3, 3])), name="op"),
           error=True)
    g.case("StridedSliceGrad.float.zero_stride",
           lambda: raw.StridedSliceGrad(shape=g.const([4], "int32"), begin=g.const([0], "int32"),
                                        end=g.const([2], "int32"),
                                        strides=hide_shape(g.const([0], "int32")),
                                        dy=hide_shape(g.rand("float32", [2])), name="op"),
           error=True)
    g.case("StridedSliceGrad.float.shape_not_vector",
           lambda: raw.StridedSliceGrad(shape=hide_rank(g.const([[4]], "int32")),
                                        begin=g.const([0], "int32"), end=g.const([2], "int32"),
                                        strides=g.const([1], "int32"),
                                        dy=hide_shape(g.rand("float32", [2])), name="op"),
           error=True)

    # MirrorPadGrad: every number type, both modes.
    for dt in tf_types("MirrorPadGrad", universe=NUMBER_TYPES):
        for mode in ("REFLECT", "SYMMETRIC"):
            g.case(f"MirrorPadGrad.{sgname(dt)}.{mode.lower()}",
                   lambda: raw.MirrorPadGrad(input=g.rand(dt, [7, 6]),
                                             paddings=g.const([[2, 1], [1, 2]], "int32"),
                                             mode=mode, name="op"))
    for mode in ("REFLECT", "SYMMETRIC"):
        g.case(f"MirrorPadGrad.float.rank3_{mode.lower()}",
               lambda: raw.MirrorPadGrad(input=g.rand("float32", [5, 6, 7]),
                                         paddings=g.const([[1, 1], [0, 2], [2, 2]], "int64"),
                                         mode=mode, name="op"))
        g.case(f"MirrorPadGrad.float.rank5_{mode.lower()}",
               lambda: raw.MirrorPadGrad(input=g.rand("float32", [3, 2, 4, 3, 6]),
                                         paddings=g.const([[1, 0], [0, 0], [1, 1], [0, 1],
                                                           [2, 1]], "int32"),
                                         mode=mode, name="op"))
        g.case(f"MirrorPadGrad.float.no_padding_{mode.lower()}",
               lambda: raw.MirrorPadGrad(input=g.rand("float32", [3, 2]),
                                         paddings=g.const([[0, 0], [0, 0]], "int32"),
                                         mode=mode, name="op"))
    g.case("MirrorPadGrad.float.reflect_too_wide",
           lambda: raw.MirrorPadGrad(input=hide_shape(g.rand("float32", [5])),
                                     paddings=g.const([[2, 1]], "int32"), mode="REFLECT",
                                     name="op"), error=True)
    g.case("MirrorPadGrad.float.symmetric_too_wide",
           lambda: raw.MirrorPadGrad(input=hide_shape(g.rand("float32", [4])),
                                     paddings=g.const([[2, 1]], "int32"), mode="SYMMETRIC",
                                     name="op"), error=True)
    g.case("MirrorPadGrad.float.negative_padding",
           lambda: raw.MirrorPadGrad(input=hide_shape(g.rand("float32", [6])),
                                     paddings=hide_shape(g.const([[-1, 1]], "int32")),
                                     mode="REFLECT", name="op"), error=True)
    g.case("MirrorPadGrad.float.paddings_rows",
           lambda: raw.MirrorPadGrad(input=hide_shape(g.rand("float32", [6, 4])),
                                     paddings=hide_shape(g.const([[1, 1]], "int32")),
                                     mode="REFLECT", name="op"), error=True)
    g.case("MirrorPadGrad.float.rank6",
           lambda: raw.MirrorPadGrad(input=hide_rank(g.rand("float32", [2] * 6)),
                                     paddings=hide_shape(g.const([[0, 0]] * 6, "int32")),
                                     mode="SYMMETRIC", name="op"), error=True)

    # DebugGradientIdentity / DebugGradientRefIdentity pass their input through.
    for dt in UNIVERSE:
        g.case(f"DebugGradientIdentity.{sgname(dt)}.pass",
               lambda: raw.DebugGradientIdentity(input=g.rand(dt, [2, 3]), name="op"))
        def ref_identity():
            v = raw.VariableV2(shape=[3], dtype=dt, name="v")
            a = raw.Assign(ref=v, value=g.rand(dt, [3]), name="assign")
            return raw.Identity(input=raw.DebugGradientRefIdentity(input=a, name="op"),
                                name="out")
        g.case(f"DebugGradientRefIdentity.{sgname(dt)}.after_assign", ref_identity)


def tile_grad_edit(gdef, case):
    """TensorFlow 2.21 registers its TileGrad kernels under an attr ("Tmultiples") TileGrad does
    not have, so it cannot run the op: the case runs the sum of tiles as Reshape + Sum (node
    `op`) and is stored with `op` a TileGrad of nodes `x` and `m`."""
    for n in gdef.node:
        if n.name == f"{case}/op":
            t = n.attr["T"].type
            n.op = "TileGrad"
            del n.input[:]
            n.input.extend([f"{case}/x", f"{case}/m"])
            for a in list(n.attr.keys()):
                del n.attr[a]
            n.attr["T"].type = t


def tile_grad(g, dt, out_shape, mult):
    """TileGrad of a [d0 * m0, ...] input as the sum over a [m0, d0, m1, d1, ...] view whose
    tiles run dim 0 fastest: a transpose puts the tile axes first, reversed."""
    rank = len(out_shape)
    x = g.rand(dt, [d * m for d, m in zip(out_shape, mult)], name="x")
    g.const(mult, "int32", name="m")
    v = tf.reshape(x, [s for d, m in zip(out_shape, mult) for s in (m, d)])
    return tf.reduce_sum(v, axis=[2 * i for i in range(rank)], name="op")


@group
def misc_grad_tile(g):
    for dt in ["float32", "float64", "int32", "int64", "int16", "complex64", "complex128"]:
        g.case(f"TileGrad.{sgname(dt)}.basic", lambda: tile_grad(g, dt, [2, 3], [3, 2]),
               edit=tile_grad_edit)
    g.case("TileGrad.float.rank3", lambda: tile_grad(g, "float32", [2, 1, 3], [1, 4, 2]),
           edit=tile_grad_edit)
    g.case("TileGrad.float.rank1", lambda: tile_grad(g, "float32", [5], [3]),
           edit=tile_grad_edit)


@group
def misc_grad_segment(g):
    ops = ("SparseSegmentSumGrad", "SparseSegmentMeanGrad", "SparseSegmentSqrtNGrad")

    def seg(op, dt, grad_shape, indices, ids, dim0, idx_dt="int32", seg_dt="int32", hide=False):
        grad = g.rand(dt, grad_shape)
        ind = g.const(indices, idx_dt)
        sid = g.const(ids, seg_dt)
        if hide:
            grad, ind, sid = hide_shape(grad), hide_shape(ind), hide_shape(sid)
        return op_fn(op)(grad=grad, indices=ind, segment_ids=sid,
                         output_dim0=tf.compat.v1.placeholder_with_default(
                             g.const(dim0, "int32"), []) if hide else g.const(dim0, "int32"),
                         name="op")

    for op in ops:
        for dt in tf_types(op):
            g.case(f"{op}.{sgname(dt)}.basic",
                   lambda: seg(op, dt, [3, 4], [0, 2, 2, 1, 5, 3], [0, 0, 1, 1, 1, 2], 6))
        for it in ("int32", "int64"):
            for st in ("int32", "int64"):
                g.case(f"{op}.float.idx_{it}_seg_{st}",
                       lambda: seg(op, "float32", [4, 2], [1, 0, 3, 3], [0, 1, 1, 3], 5,
                                   it, st))
        g.case(f"{op}.double.rank3",
               lambda: seg(op, "float64", [2, 3, 2], [4, 4, 0], [0, 1, 1], 5))
        g.case(f"{op}.float.vector", lambda: seg(op, "float32", [3], [0, 1, 1], [0, 2, 2], 2))
        # No case with empty indices: TensorFlow's kernel then returns its output unwritten.
        g.case(f"{op}.float.zero_dim0", lambda: seg(op, "float32", [2, 3], [0], [0], 0))
        g.case(f"{op}.float.index_out_of_range",
               lambda: seg(op, "float32", [2, 3], [0, 4], [0, 1], 4, hide=True), error=True)
        g.case(f"{op}.float.negative_index",
               lambda: seg(op, "float32", [2, 3], [-1, 0], [0, 1], 4, hide=True), error=True)
        g.case(f"{op}.float.segment_out_of_range",
               lambda: seg(op, "float32", [2, 3], [0, 1], [0, 2], 4, hide=True), error=True)
        g.case(f"{op}.float.length_mismatch",
               lambda: seg(op, "float32", [2, 3], [0, 1, 2], [0, 1], 4, hide=True), error=True)
        g.case(f"{op}.float.negative_dim0",
               lambda: seg(op, "float32", [2, 3], [0, 1], [0, 1], -1, hide=True), error=True)

    # SparseFillEmptyRowsGrad: reverse_index_map [N], grad_values [N_full].
    for dt in tf_types("SparseFillEmptyRowsGrad", universe=NUMBER_TYPES):
        g.case(f"SparseFillEmptyRowsGrad.{sgname(dt)}.basic",
               lambda: raw.SparseFillEmptyRowsGrad(
                   reverse_index_map=g.const([0, 2, 3, 6], "int64"),
                   grad_values=g.rand(dt, [8]), name="op"))
    def from_forward():  # the reverse_index_map SparseFillEmptyRows makes (rows 1, 3, 4 empty)
        fill = raw.SparseFillEmptyRows(
            indices=g.const([[0, 1], [2, 0], [2, 2], [5, 1]], "int64"),
            values=g.rand("float32", [4]), dense_shape=g.const([6, 3], "int64"),
            default_value=g.const(0.0, "float32"), name="fill")
        return raw.SparseFillEmptyRowsGrad(reverse_index_map=fill.reverse_index_map,
                                           grad_values=g.rand("float32", [7]), name="op")
    g.case("SparseFillEmptyRowsGrad.float.from_forward", from_forward)
    g.case("SparseFillEmptyRowsGrad.float.empty",
           lambda: raw.SparseFillEmptyRowsGrad(reverse_index_map=g.const([], "int64"),
                                               grad_values=g.rand("float32", [0]), name="op"))
    g.case("SparseFillEmptyRowsGrad.float.index_out_of_range",
           lambda: raw.SparseFillEmptyRowsGrad(
               reverse_index_map=hide_shape(g.const([0, 5], "int64")),
               grad_values=hide_shape(g.rand("float32", [5])), name="op"), error=True)
    g.case("SparseFillEmptyRowsGrad.float.negative_index",
           lambda: raw.SparseFillEmptyRowsGrad(
               reverse_index_map=hide_shape(g.const([-1], "int64")),
               grad_values=hide_shape(g.rand("float32", [3])), name="op"), error=True)
    g.case("SparseFillEmptyRowsGrad.float.grad_not_vector",
           lambda: raw.SparseFillEmptyRowsGrad(
               reverse_index_map=g.const([0], "int64"),
               grad_values=hide_rank(g.rand("float32", [2, 2])), name="op"), error=True)


@group
def misc_grad_fake_quant(g):
    def inputs(shape):
        # Values on both sides of every range below, and on its nudged edges.
        return g.const(g.vals("float32", shape, lo=-8, hi=8))

    for nb, narrow in ((8, False), (8, True), (4, False), (2, True), (16, False)):
        tag = f"bits{nb}{'_narrow' if narrow else ''}"
        g.case(f"FakeQuantWithMinMaxArgsGradient.float.{tag}",
               lambda: raw.FakeQuantWithMinMaxArgsGradient(
                   gradients=g.rand("float32", [4, 5]), inputs=inputs([4, 5]), min=-5.3, max=6.1,
                   num_bits=nb, narrow_range=narrow, name="op"))
        g.case(f"FakeQuantWithMinMaxVarsGradient.float.{tag}",
               lambda: raw.FakeQuantWithMinMaxVarsGradient(
                   gradients=g.rand("float32", [4, 5]), inputs=inputs([4, 5]),
                   min=g.const(-3.7, "float32"), max=g.const(4.9, "float32"), num_bits=nb,
                   narrow_range=narrow, name="op"))
        g.case(f"FakeQuantWithMinMaxVarsPerChannelGradient.float.{tag}",
               lambda: raw.FakeQuantWithMinMaxVarsPerChannelGradient(
                   gradients=g.rand("float32", [6, 3]), inputs=inputs([6, 3]),
                   min=g.const([-3.7, 0.5, -8.0], "float32"),
                   max=g.const([4.9, 6.0, -1.0], "float32"), num_bits=nb, narrow_range=narrow,
                   name="op"))
    g.case("FakeQuantWithMinMaxArgsGradient.float.edges",
           lambda: raw.FakeQuantWithMinMaxArgsGradient(
               gradients=g.const([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], "float32"),
               inputs=g.const([-6.0, -6.01, 6.0, 6.01, 0.0, np.nan], "float32"), name="op"))
    g.case("FakeQuantWithMinMaxVarsGradient.float.scalar_input",
           lambda: raw.FakeQuantWithMinMaxVarsGradient(
               gradients=g.const(2.5, "float32"), inputs=g.const(9.0, "float32"),
               min=g.const(-1.0, "float32"), max=g.const(1.0, "float32"), name="op"))
    for rank_shape in ([5], [2, 3, 4], [2, 2, 3, 2]):
        g.case(f"FakeQuantWithMinMaxVarsPerChannelGradient.float.rank{len(rank_shape)}",
               lambda: raw.FakeQuantWithMinMaxVarsPerChannelGradient(
                   gradients=g.rand("float32", rank_shape), inputs=inputs(rank_shape),
                   min=g.const(np.linspace(-4, -1, rank_shape[-1]), "float32"),
                   max=g.const(np.linspace(1, 5, rank_shape[-1]), "float32"), name="op"))
    g.case("FakeQuantWithMinMaxVarsGradient.float.min_above_max",
           lambda: raw.FakeQuantWithMinMaxVarsGradient(
               gradients=g.rand("float32", [6]), inputs=inputs([6]),
               min=g.const(2.0, "float32"), max=g.const(-1.0, "float32"), name="op"))
    g.case("FakeQuantWithMinMaxVarsPerChannelGradient.float.rank5",
           lambda: raw.FakeQuantWithMinMaxVarsPerChannelGradient(
               gradients=hide_rank(g.rand("float32", [1, 2, 1, 2, 2])),
               inputs=hide_rank(inputs([1, 2, 1, 2, 2])), min=g.const([-1.0] * 2, "float32"),
               max=g.const([1.0] * 2, "float32"), name="op"))
    # No scalar-input case: TensorFlow's per-channel gradient kernel aborts the process on one.
    g.case("FakeQuantWithMinMaxArgsGradient.float.shape_mismatch",
           lambda: raw.FakeQuantWithMinMaxArgsGradient(
               gradients=hide_shape(g.rand("float32", [3])),
               inputs=hide_shape(g.rand("float32", [4])), name="op"), error=True)
    g.case("FakeQuantWithMinMaxArgsGradient.float.min_above_max",
           lambda: raw.FakeQuantWithMinMaxArgsGradient(
               gradients=g.rand("float32", [3]), inputs=g.rand("float32", [3]), min=2.0,
               max=1.0, name="op"), error=True)
    g.case("FakeQuantWithMinMaxArgsGradient.float.bits_17",
           lambda: raw.FakeQuantWithMinMaxArgsGradient(
               gradients=g.rand("float32", [3]), inputs=g.rand("float32", [3]), num_bits=17,
               name="op"), error=True)
    g.case("FakeQuantWithMinMaxVarsGradient.float.shape_mismatch",
           lambda: raw.FakeQuantWithMinMaxVarsGradient(
               gradients=hide_shape(g.rand("float32", [3])),
               inputs=hide_shape(g.rand("float32", [2])), min=g.const(-1.0, "float32"),
               max=g.const(1.0, "float32"), name="op"), error=True)
    g.case("FakeQuantWithMinMaxVarsGradient.float.min_not_scalar",
           lambda: raw.FakeQuantWithMinMaxVarsGradient(
               gradients=g.rand("float32", [3]), inputs=g.rand("float32", [3]),
               min=hide_rank(g.const([-1.0], "float32")), max=g.const(1.0, "float32"),
               name="op"), error=True)
    g.case("FakeQuantWithMinMaxVarsPerChannelGradient.float.min_size",
           lambda: raw.FakeQuantWithMinMaxVarsPerChannelGradient(
               gradients=g.rand("float32", [2, 3]), inputs=g.rand("float32", [2, 3]),
               min=hide_shape(g.const([-1.0, -1.0], "float32")),
               max=g.const([1.0, 1.0, 1.0], "float32"), name="op"), error=True)
    g.case("FakeQuantWithMinMaxVarsPerChannelGradient.float.shape_mismatch",
           lambda: raw.FakeQuantWithMinMaxVarsPerChannelGradient(
               gradients=hide_shape(g.rand("float32", [3, 3])),
               inputs=hide_shape(g.rand("float32", [2, 3])),
               min=g.const([-1.0] * 3, "float32"), max=g.const([1.0] * 3, "float32"),
               name="op"), error=True)


RESIZE_VARIANTS = [("legacy", {}), ("align_corners", {"align_corners": True}),
                   ("half_pixel", {"half_pixel_centers": True})]


@group
def misc_grad_resize(g):
    def bilinear(dt, grads_shape, orig_shape, **kw):
        return raw.ResizeBilinearGrad(grads=g.rand("float32", grads_shape),
                                      original_image=g.rand(dt, orig_shape), name="op", **kw)

    def nearest(dt, grads_shape, size, **kw):
        return raw.ResizeNearestNeighborGrad(grads=g.rand(dt, grads_shape),
                                             size=g.const(size, "int32"), name="op", **kw)

    for vname, kw in RESIZE_VARIANTS:
        for dt in tf_types("ResizeBilinearGrad"):
            g.case(f"ResizeBilinearGrad.{sgname(dt)}.up_{vname}",
                   lambda: bilinear(dt, [2, 7, 9, 3], [2, 4, 5, 3], **kw))
            g.case(f"ResizeBilinearGrad.{sgname(dt)}.down_{vname}",
                   lambda: bilinear(dt, [1, 4, 3, 2], [1, 9, 11, 2], **kw))
        for dt in tf_types("ResizeNearestNeighborGrad"):
            g.case(f"ResizeNearestNeighborGrad.{sgname(dt)}.up_{vname}",
                   lambda: nearest(dt, [2, 7, 9, 3], [4, 5], **kw))
            g.case(f"ResizeNearestNeighborGrad.{sgname(dt)}.down_{vname}",
                   lambda: nearest(dt, [1, 4, 3, 2], [9, 11], **kw))
        g.case(f"ResizeBilinearGrad.float.to_one_{vname}",
               lambda: bilinear("float32", [1, 5, 6, 2], [1, 1, 1, 2], **kw))
        g.case(f"ResizeBilinearGrad.float.from_one_{vname}",
               lambda: bilinear("float32", [1, 1, 1, 3], [1, 3, 2, 3], **kw))
        g.case(f"ResizeBilinearGrad.float.odd_ratio_{vname}",
               lambda: bilinear("float32", [1, 5, 7, 3], [1, 13, 17, 3], **kw))
        g.case(f"ResizeNearestNeighborGrad.float.to_one_{vname}",
               lambda: nearest("float32", [1, 5, 6, 2], [1, 1], **kw))
        g.case(f"ResizeNearestNeighborGrad.float.from_one_{vname}",
               lambda: nearest("float32", [1, 1, 1, 3], [3, 2], **kw))
        g.case(f"ResizeNearestNeighborGrad.int32.odd_ratio_{vname}",
               lambda: nearest("int32", [1, 5, 7, 3], [13, 17], **kw))
    g.case("ResizeBilinearGrad.float.batch_and_channels_from_grads",
           lambda: raw.ResizeBilinearGrad(grads=g.rand("float32", [2, 3, 5, 3]),
                                          original_image=hide_shape(g.rand("float32",
                                                                           [1, 4, 4, 1])),
                                          name="op"))
    g.case("ResizeBilinearGrad.float.same_size",
           lambda: bilinear("float32", [2, 3, 4, 2], [2, 3, 4, 2]))
    g.case("ResizeBilinearGrad.float.empty_batch",
           lambda: bilinear("float32", [0, 3, 4, 2], [0, 5, 6, 2]))
    g.case("ResizeBilinearGrad.float.both_centers",
           lambda: bilinear("float32", [1, 3, 3, 1], [1, 5, 5, 1], align_corners=True,
                            half_pixel_centers=True), error=True)
    g.case("ResizeBilinearGrad.float.grads_rank3",
           lambda: raw.ResizeBilinearGrad(grads=hide_rank(g.rand("float32", [3, 3, 1])),
                                          original_image=g.rand("float32", [1, 4, 4, 1]),
                                          name="op"), error=True)
    g.case("ResizeBilinearGrad.float.original_rank3",
           lambda: raw.ResizeBilinearGrad(grads=g.rand("float32", [1, 3, 3, 1]),
                                          original_image=hide_rank(g.rand("float32", [4, 4, 1])),
                                          name="op"), error=True)
    g.case("ResizeBilinearGrad.float.empty_grads",
           lambda: raw.ResizeBilinearGrad(grads=hide_shape(g.rand("float32", [1, 0, 3, 1])),
                                          original_image=g.rand("float32", [1, 4, 4, 1]),
                                          name="op"), error=True)
    def bicubic(dt, grads_shape, orig_shape, **kw):
        return raw.ResizeBicubicGrad(grads=g.rand("float32", grads_shape),
                                     original_image=g.rand(dt, orig_shape), name="op", **kw)

    for vname, kw in RESIZE_VARIANTS:
        for dt in tf_types("ResizeBicubicGrad"):
            g.case(f"ResizeBicubicGrad.{sgname(dt)}.up_{vname}",
                   lambda: bicubic(dt, [2, 7, 9, 3], [2, 4, 5, 3], **kw))
            g.case(f"ResizeBicubicGrad.{sgname(dt)}.down_{vname}",
                   lambda: bicubic(dt, [1, 4, 3, 2], [1, 9, 11, 2], **kw))
        g.case(f"ResizeBicubicGrad.float.to_one_{vname}",
               lambda: bicubic("float32", [1, 5, 6, 2], [1, 1, 1, 2], **kw))
        g.case(f"ResizeBicubicGrad.float.from_one_{vname}",
               lambda: bicubic("float32", [1, 1, 1, 3], [1, 3, 2, 3], **kw))
        g.case(f"ResizeBicubicGrad.float.odd_ratio_{vname}",
               lambda: bicubic("float32", [1, 5, 7, 3], [1, 13, 17, 3], **kw))
    g.case("ResizeBicubicGrad.float.same_size",
           lambda: bicubic("float32", [2, 3, 4, 2], [2, 3, 4, 2]))
    g.case("ResizeBicubicGrad.float.empty_batch",
           lambda: bicubic("float32", [0, 3, 4, 2], [0, 5, 6, 2]))
    g.case("ResizeBicubicGrad.float.both_centers",
           lambda: bicubic("float32", [1, 3, 3, 1], [1, 5, 5, 1], align_corners=True,
                           half_pixel_centers=True), error=True)
    g.case("ResizeBicubicGrad.float.original_rank3",
           lambda: raw.ResizeBicubicGrad(grads=g.rand("float32", [1, 3, 3, 1]),
                                         original_image=hide_rank(g.rand("float32", [4, 4, 1])),
                                         name="op"), error=True)
    g.case("ResizeBicubicGrad.float.empty_grads",
           lambda: raw.ResizeBicubicGrad(grads=hide_shape(g.rand("float32", [1, 0, 3, 1])),
                                         original_image=g.rand("float32", [1, 4, 4, 1]),
                                         name="op"), error=True)
    g.case("ResizeNearestNeighborGrad.float.same_size",
           lambda: nearest("float32", [2, 3, 4, 2], [3, 4]))
    g.case("ResizeNearestNeighborGrad.float.both_centers",
           lambda: nearest("float32", [1, 3, 5, 2], [7, 4], align_corners=True,
                           half_pixel_centers=True))
    g.case("ResizeNearestNeighborGrad.float.empty_batch",
           lambda: nearest("float32", [0, 3, 4, 2], [5, 6]))
    g.case("ResizeNearestNeighborGrad.float.zero_size",
           lambda: raw.ResizeNearestNeighborGrad(grads=g.rand("float32", [1, 3, 3, 1]),
                                                 size=hide_shape(g.const([0, 4], "int32")),
                                                 name="op"), error=True)
    g.case("ResizeNearestNeighborGrad.float.size_of_three",
           lambda: raw.ResizeNearestNeighborGrad(grads=g.rand("float32", [1, 3, 3, 1]),
                                                 size=hide_shape(g.const([2, 4, 1], "int32")),
                                                 name="op"), error=True)
    g.case("ResizeNearestNeighborGrad.float.grads_rank3",
           lambda: raw.ResizeNearestNeighborGrad(grads=hide_rank(g.rand("float32", [3, 3, 1])),
                                                 size=g.const([2, 2], "int32"), name="op"),
           error=True)


@group
def misc_grad_crop(g):
    boxes = [[0.1, 0.2, 0.8, 0.9], [0.0, 0.0, 1.0, 1.0], [0.9, 0.7, 0.2, 0.1],
             [-0.2, 0.3, 0.6, 1.3], [0.5, 0.5, 0.5, 0.5]]
    box_ind = [1, 0, 1, 0, 1]

    def grad_image(dt, crop, method="bilinear", bx=boxes, bi=box_ind, size=(2, 6, 7, 3)):
        return raw.CropAndResizeGradImage(
            grads=g.rand("float32", [len(bx), crop[0], crop[1], size[3]]),
            boxes=g.const(bx, "float32"), box_ind=g.const(bi, "int32"),
            image_size=g.const(list(size), "int32"), T=dt, method=method, name="op")

    def grad_boxes(dt, crop, bx=boxes, bi=box_ind, shape=(2, 6, 7, 3)):
        return raw.CropAndResizeGradBoxes(
            grads=g.rand("float32", [len(bx), crop[0], crop[1], shape[3]]),
            image=g.rand(dt, list(shape), lo=0, hi=100), boxes=g.const(bx, "float32"),
            box_ind=g.const(bi, "int32"), name="op")

    for dt in tf_types("CropAndResizeGradImage"):
        for method in ("bilinear", "nearest"):
            g.case(f"CropAndResizeGradImage.{sgname(dt)}.{method}",
                   lambda: grad_image(dt, (4, 5), method))
    for dt in tf_types("CropAndResizeGradBoxes"):
        g.case(f"CropAndResizeGradBoxes.{sgname(dt)}.bilinear",
               lambda: grad_boxes(dt, (4, 5)))
    for cname, crop in (("one_row", (1, 4)), ("one_col", (3, 1)), ("one_pixel", (1, 1))):
        for method in ("bilinear", "nearest"):
            g.case(f"CropAndResizeGradImage.float.{cname}_{method}",
                   lambda: grad_image("float32", crop, method))
        g.case(f"CropAndResizeGradBoxes.float.{cname}", lambda: grad_boxes("float32", crop))
    g.case("CropAndResizeGradImage.float.no_boxes",
           lambda: grad_image("float32", (2, 2), bx=np.zeros([0, 4]), bi=[]))
    g.case("CropAndResizeGradBoxes.float.no_boxes",
           lambda: grad_boxes("float32", (2, 2), bx=np.zeros([0, 4]), bi=[]))
    g.case("CropAndResizeGradImage.float.box_ind_out_of_range",
           lambda: grad_image("float32", (2, 2), bi=[0, 1, 2, 0, 1]), error=True)
    g.case("CropAndResizeGradBoxes.float.box_ind_out_of_range",
           lambda: grad_boxes("float32", (2, 2), bi=[0, 1, -1, 0, 1]), error=True)
    g.case("CropAndResizeGradImage.float.depth_mismatch",
           lambda: raw.CropAndResizeGradImage(
               grads=hide_shape(g.rand("float32", [1, 2, 2, 3])),
               boxes=g.const([[0, 0, 1, 1]], "float32"), box_ind=g.const([0], "int32"),
               image_size=hide_shape(g.const([1, 4, 4, 2], "int32")), T="float32", name="op"),
           error=True)
    g.case("CropAndResizeGradImage.float.zero_height",
           lambda: raw.CropAndResizeGradImage(
               grads=hide_shape(g.rand("float32", [1, 2, 2, 3])),
               boxes=g.const([[0, 0, 1, 1]], "float32"), box_ind=g.const([0], "int32"),
               image_size=hide_shape(g.const([1, 0, 4, 3], "int32")), T="float32", name="op"),
           error=True)
    g.case("CropAndResizeGradImage.float.negative_batch",
           lambda: raw.CropAndResizeGradImage(
               grads=hide_shape(g.rand("float32", [1, 2, 2, 3])),
               boxes=g.const([[0, 0, 1, 1]], "float32"), box_ind=g.const([0], "int32"),
               image_size=hide_shape(g.const([-1, 4, 4, 3], "int32")), T="float32", name="op"),
           error=True)
    g.case("CropAndResizeGradImage.float.boxes_grads_mismatch",
           lambda: raw.CropAndResizeGradImage(
               grads=hide_shape(g.rand("float32", [2, 2, 2, 3])),
               boxes=hide_shape(g.const([[0, 0, 1, 1]], "float32")),
               box_ind=hide_shape(g.const([0], "int32")),
               image_size=g.const([1, 4, 4, 3], "int32"), T="float32", name="op"), error=True)
    g.case("CropAndResizeGradBoxes.float.depth_mismatch",
           lambda: raw.CropAndResizeGradBoxes(
               grads=hide_shape(g.rand("float32", [1, 2, 2, 3])),
               image=hide_shape(g.rand("float32", [1, 4, 4, 2])),
               boxes=g.const([[0, 0, 1, 1]], "float32"), box_ind=g.const([0], "int32"),
               name="op"), error=True)
    g.case("CropAndResizeGradBoxes.float.boxes_columns",
           lambda: raw.CropAndResizeGradBoxes(
               grads=hide_shape(g.rand("float32", [1, 2, 2, 3])),
               image=g.rand("float32", [1, 4, 4, 3]),
               boxes=hide_shape(g.const([[0, 0, 1]], "float32")),
               box_ind=g.const([0], "int32"), name="op"), error=True)


def forward_array(g, dt, size=3, written=(0, 1, 2), element_shape=None, shape=(2,), **kw):
    """A TensorArrayV3 with `written` indices written: (handle, flow)."""
    if element_shape is not None:
        kw["element_shape"] = element_shape
    h, flow = raw.TensorArrayV3(size=g.const(size, "int32"), dtype=dt, name="ta", **kw)
    for i in written:
        flow = raw.TensorArrayWriteV3(handle=h, index=g.const(i, "int32"),
                                      value=g.rand(dt, list(shape)), flow_in=flow,
                                      name=f"write{i}")
    return h, flow


def grad_writes(g, dt, gh, flow, writes, shape=(2,)):
    for k, i in enumerate(writes):
        flow = raw.TensorArrayWriteV3(handle=gh, index=g.const(i, "int32"),
                                      value=g.rand(dt, list(shape)), flow_in=flow,
                                      name=f"grad_write{k}")
    return flow


def older_grads(suffix):
    """older_tensor_arrays(suffix) (resources.py), and TensorArrayGradV3 becomes
    TensorArrayGrad{suffix}, which has no flow output: its consumers take its flow_in."""
    from op_case_groups.resources import older_tensor_arrays
    base = older_tensor_arrays(suffix)

    def edit(gdef, name):
        grads = {n.name for n in gdef.node if n.op == "TensorArrayGradV3"}
        base(gdef, name)
        flow_in = {n.name: n.input[1] for n in gdef.node if n.name in grads}
        for n in gdef.node:
            for i, inp in enumerate(n.input):
                node, _, port = inp.partition(":")
                if node in flow_in and port == "1":
                    n.input[i] = flow_in[node]
    return edit


@group
def misc_grad_tensor_array(g):
    agg_types = ["float32", "float64", "float16", "bfloat16", "int32", "int64", "int8", "uint8",
                 "complex64", "complex128"]

    def aggregate(dt, op="TensorArrayGradV3"):
        h, flow = forward_array(g, dt)
        if op == "TensorArrayGradWithShape":
            gh, gflow = raw.TensorArrayGradWithShape(handle=h, flow_in=flow,
                                                     shape_to_prepend=g.const([3], "int32"),
                                                     source="gradients", name="op")
            shape = (3, 2)
        else:
            gh, gflow = raw.TensorArrayGradV3(handle=h, flow_in=flow, source="gradients",
                                              name="op")
            shape = (2,)
        gflow = grad_writes(g, dt, gh, gflow, [0, 2, 0], shape)
        return [raw.TensorArrayReadV3(handle=gh, index=g.const(0, "int32"), flow_in=gflow,
                                      dtype=dt, name="read0"),
                raw.TensorArrayGatherV3(handle=gh, indices=g.const([2, 1], "int32"),
                                        flow_in=gflow, dtype=dt, name="gather"),
                raw.TensorArraySizeV3(handle=gh, flow_in=gflow, name="size")]

    for dt in agg_types:
        g.case(f"TensorArrayGradV3.{sgname(dt)}.aggregate", lambda: aggregate(dt))
    g.case("TensorArrayGradWithShape.float.aggregate",
           lambda: aggregate("float32", "TensorArrayGradWithShape"))
    g.case("TensorArrayGradWithShape.int32.aggregate",
           lambda: aggregate("int32", "TensorArrayGradWithShape"))
    for dt in UNIVERSE:
        def once():  # one write per index: any dtype
            h, flow = forward_array(g, dt, written=(0, 1))
            gh, gflow = raw.TensorArrayGradV3(handle=h, flow_in=flow, source="grad", name="op")
            gflow = grad_writes(g, dt, gh, gflow, [1])
            return [raw.TensorArrayReadV3(handle=gh, index=g.const(1, "int32"), flow_in=gflow,
                                          dtype=dt, name="read"), gflow]
        g.case(f"TensorArrayGradV3.{sgname(dt)}.write_read", once)

    def same_source():  # a second grad op with the same source finds the same array
        h, flow = forward_array(g, "float32")
        gh1, f1 = raw.TensorArrayGradV3(handle=h, flow_in=flow, source="s", name="op")
        f1 = grad_writes(g, "float32", gh1, f1, [1])
        gh2, f2 = raw.TensorArrayGradV3(handle=h, flow_in=f1, source="s", name="op2")
        f2 = raw.TensorArrayWriteV3(handle=gh2, index=g.const(1, "int32"),
                                    value=g.rand("float32", [2]), flow_in=f2, name="w2")
        return raw.TensorArrayGatherV3(handle=gh1, indices=g.const([0, 1, 2], "int32"),
                                       flow_in=f2, dtype="float32", name="gather")
    g.case("TensorArrayGradV3.float.same_source", same_source)

    def other_source():  # another source: another array
        h, flow = forward_array(g, "float32")
        gh1, f1 = raw.TensorArrayGradV3(handle=h, flow_in=flow, source="a", name="op")
        f1 = grad_writes(g, "float32", gh1, f1, [1])
        gh2, f2 = raw.TensorArrayGradV3(handle=h, flow_in=f1, source="b", name="op2")
        return raw.TensorArrayReadV3(handle=gh2, index=g.const(1, "int32"), flow_in=f2,
                                     dtype="float32", name="read")
    g.case("TensorArrayGradV3.float.other_source", other_source)

    def unwritten_known_shape():  # an index the forward array never wrote: element_shape zeros
        h, flow = forward_array(g, "float32", written=(0,), element_shape=[2])
        gh, gflow = raw.TensorArrayGradV3(handle=h, flow_in=flow, source="g", name="op")
        return raw.TensorArrayReadV3(handle=gh, index=g.const(2, "int32"), flow_in=gflow,
                                     dtype="float32", name="read")
    g.case("TensorArrayGradV3.float.unwritten_known_shape", unwritten_known_shape)

    def unwritten_unknown_shape():
        h, flow = forward_array(g, "float32", written=(0,))
        gh, gflow = raw.TensorArrayGradV3(handle=h, flow_in=flow, source="g", name="op")
        return raw.TensorArrayReadV3(handle=gh, index=g.const(2, "int32"), flow_in=gflow,
                                     dtype="float32", name="read")
    g.case("TensorArrayGradV3.float.unwritten_unknown_shape", unwritten_unknown_shape,
           error=True)

    def aggregate_shape_mismatch():
        h, flow = forward_array(g, "float32")
        gh, gflow = raw.TensorArrayGradV3(handle=h, flow_in=flow, source="g", name="op")
        return raw.TensorArrayWriteV3(handle=gh, index=g.const(0, "int32"),
                                      value=g.rand("float32", [3]), flow_in=gflow, name="w")
    g.case("TensorArrayGradV3.float.aggregate_shape_mismatch", aggregate_shape_mismatch,
           error=True)

    def read_twice():  # gradient arrays clear each index on read
        h, flow = forward_array(g, "float32")
        gh, gflow = raw.TensorArrayGradV3(handle=h, flow_in=flow, source="g", name="op")
        gflow = grad_writes(g, "float32", gh, gflow, [0])
        r = raw.TensorArrayReadV3(handle=gh, index=g.const(0, "int32"), flow_in=gflow,
                                  dtype="float32", name="read")
        with tf.control_dependencies([r]):
            return raw.TensorArrayReadV3(handle=gh, index=g.const(0, "int32"), flow_in=gflow,
                                         dtype="float32", name="read2")
    g.case("TensorArrayGradV3.float.read_twice", read_twice, error=True)

    def grad_out_of_range():  # the gradient array does not grow
        h, flow = forward_array(g, "float32", dynamic_size=True)
        gh, gflow = raw.TensorArrayGradV3(handle=h, flow_in=flow, source="g", name="op")
        return grad_writes(g, "float32", gh, gflow, [3])
    g.case("TensorArrayGradV3.float.grad_out_of_range", grad_out_of_range, error=True)

    def forward_stops_growing():  # after a gradient, the forward array does not grow either
        h, flow = forward_array(g, "float32", dynamic_size=True)
        gh, gflow = raw.TensorArrayGradV3(handle=h, flow_in=flow, source="g", name="op")
        return raw.TensorArrayWriteV3(handle=h, index=g.const(5, "int32"),
                                      value=g.rand("float32", [2]), flow_in=gflow, name="w")
    g.case("TensorArrayGradV3.float.forward_stops_growing", forward_stops_growing, error=True)

    def closed():
        h, flow = forward_array(g, "float32")
        c = raw.TensorArrayCloseV3(handle=h, name="close")
        with tf.control_dependencies([c]):
            gh, gflow = raw.TensorArrayGradV3(handle=h, flow_in=flow, source="g", name="op")
        return gflow
    g.case("TensorArrayGradV3.float.closed", closed, error=True)


@group
def misc_grad_tensor_array_old(g):
    # TensorArrayGradV2 and TensorArrayGrad, which TensorFlow 2.21 no longer builds: each case
    # runs the V3 ops and is stored with the older ones (older_grads).
    for suffix in ("V2", ""):
        edit = older_grads(suffix)
        op = "TensorArrayGrad" + suffix
        for dt in ("float32", "int32", "float64"):
            def aggregate():
                h, flow = forward_array(g, dt)
                gh, gflow = raw.TensorArrayGradV3(handle=h, flow_in=flow, source="gradients",
                                                  name="op")
                gflow = grad_writes(g, dt, gh, gflow, [0, 2, 0])
                return [raw.TensorArrayReadV3(handle=gh, index=g.const(0, "int32"),
                                              flow_in=gflow, dtype=dt, name="read0"),
                        raw.TensorArrayGatherV3(handle=gh, indices=g.const([2, 1], "int32"),
                                                flow_in=gflow, dtype=dt, name="gather")]
            g.case(f"{op}.{sgname(dt)}.aggregate", aggregate, edit=edit)

        def same_source():
            h, flow = forward_array(g, "float32")
            gh1, f1 = raw.TensorArrayGradV3(handle=h, flow_in=flow, source="s", name="op")
            f1 = grad_writes(g, "float32", gh1, f1, [1])
            gh2, f2 = raw.TensorArrayGradV3(handle=h, flow_in=f1, source="s", name="op2")
            f2 = raw.TensorArrayWriteV3(handle=gh2, index=g.const(1, "int32"),
                                        value=g.rand("float32", [2]), flow_in=f2, name="w2")
            return raw.TensorArrayGatherV3(handle=gh1, indices=g.const([0, 1, 2], "int32"),
                                           flow_in=f2, dtype="float32", name="gather")
        g.case(f"{op}.float.same_source", same_source, edit=edit)
