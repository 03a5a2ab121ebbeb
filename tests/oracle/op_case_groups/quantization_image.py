"""Op conformance cases: QuantizedResizeBilinear, QuantizedInstanceNorm and
QuantizedBatchNormWithGlobalNormalization."""

from op_case_lib import *  # noqa: F401,F403


def qrand(g, dt, shape, lo=None, hi=None):
    """A constant of quantized dtype `dt` (quint8, qint32) or float, uniform over [lo, hi] (the
    whole type by default; float: [-10, 10])."""
    if dt == "float32":
        return tf.constant(g.rng.uniform(-10 if lo is None else lo, 10 if hi is None else hi,
                                         tuple(shape)).astype(np.float32))
    holder = {"quint8": np.uint8, "qint32": np.int32}[dt]
    info = np.iinfo(holder)
    a = info.min if lo is None else lo
    b = info.max if hi is None else hi
    return tf.constant(g.rng.integers(a, b + 1, tuple(shape), dtype=np.int64).astype(holder),
                       dtype=dt)


def f32(v):
    return tf.constant(np.asarray(v, np.float32))


@group
def quant_resize_bilinear(g):
    op = raw.QuantizedResizeBilinear
    shapes = [("up", [1, 3, 4, 1], [7, 9]), ("down", [2, 9, 7, 2], [4, 3]),
              ("mixed", [1, 5, 6, 3], [3, 13]), ("wide3", [1, 4, 10, 3], [6, 17]),
              ("wide1", [2, 3, 12, 1], [5, 21]), ("c5", [1, 4, 4, 5], [9, 6]),
              ("one", [1, 1, 1, 2], [3, 4]), ("to1", [1, 5, 4, 2], [1, 1]),
              ("same", [1, 3, 4, 2], [3, 4]), ("row", [1, 1, 6, 2], [1, 11])]
    modes = [("legacy", False, False), ("align", True, False), ("half", False, True),
             ("align_half", True, True)]
    for dt in ("quint8", "qint32", "float32"):
        for sname, ins, size in shapes:
            for mname, ac, hp in modes:
                g.case(f"QuantizedResizeBilinear.{sgname(dt)}.{sname}_{mname}",
                       lambda: list(op(images=qrand(g, dt, ins), size=size, min=f32(-2.5),
                                       max=f32(7.0), align_corners=ac, half_pixel_centers=hp,
                                       name="op")))
        # Levels near the type's ends and small ranges of values.
        g.case(f"QuantizedResizeBilinear.{sgname(dt)}.narrow",
               lambda: list(op(images=qrand(g, dt, [2, 4, 5, 3], lo=3 if dt != "float32" else
                                            0.25, hi=9 if dt != "float32" else 0.5),
                               size=[11, 7], min=f32(0.0), max=f32(1.0), name="op")))
        # TensorFlow sets no range outputs when the output is empty: only the images fetched.
        g.case(f"QuantizedResizeBilinear.{sgname(dt)}.empty_batch",
               lambda: op(images=qrand(g, dt, [0, 3, 3, 2]), size=[5, 5], min=f32(0.0),
                          max=f32(1.0), name="op")[0])
    g.case("QuantizedResizeBilinear.qint32.extremes",
           lambda: list(op(images=tf.constant(np.array(
               [[[[2**31 - 1], [-2**31]], [[-2**31], [2**31 - 1]]]], np.int32), dtype="qint32"),
               size=[5, 7], min=f32(-1.0), max=f32(1.0), name="op")))
    g.case("QuantizedResizeBilinear.quint8.extremes",
           lambda: list(op(images=tf.constant(np.array(
               [[[[255], [0]], [[0], [255]]]], np.uint8), dtype="quint8"),
               size=[5, 7], min=f32(-1.0), max=f32(1.0), half_pixel_centers=True, name="op")))
    q8 = lambda shape: qrand(g, "quint8", shape)  # noqa: E731
    for ename, ins, size in [("zero_size", [1, 3, 3, 1], [0, 3]),
                             ("negative_size", [1, 3, 3, 1], [4, -1]),
                             ("empty_input", [1, 0, 3, 1], [4, 4]),
                             ("no_channels", [1, 3, 3, 0], [4, 4])]:
        g.case(f"QuantizedResizeBilinear.quint8.{ename}",
               lambda: op(images=hide_shape(q8(ins)), size=hide_shape(tf.constant(size)),
                          min=f32(0.0), max=f32(1.0), name="op")[0], error=True)
    g.case("QuantizedResizeBilinear.quint8.size_3",
           lambda: op(images=q8([1, 3, 3, 1]), size=hide_shape(tf.constant([4, 4, 1])),
                      min=f32(0.0), max=f32(1.0), name="op")[0], error=True)
    g.case("QuantizedResizeBilinear.quint8.not_4d",
           lambda: op(images=hide_rank(q8([3, 3, 1])), size=[4, 4], min=f32(0.0), max=f32(1.0),
                      name="op")[0], error=True)
    g.case("QuantizedResizeBilinear.quint8.min_not_scalar",
           lambda: op(images=q8([1, 3, 3, 1]), size=[4, 4], min=hide_rank(f32([0.0])),
                      max=f32(1.0), name="op")[0], error=True)


@group
def quant_instance_norm(g):
    op = raw.QuantizedInstanceNorm
    shapes = [("c1", [1, 4, 5, 1]), ("c3", [2, 3, 4, 3]), ("c8", [1, 5, 3, 8]),
              ("c16", [1, 6, 7, 16]), ("c17", [2, 3, 5, 17]), ("hw1", [2, 1, 1, 3]),
              ("tall", [1, 37, 2, 2])]
    ranges = [("sym", -1.5, 4.0), ("pos", 0.25, 2.0), ("wide", -300.0, 500.0)]
    for sname, shape in shapes:
        for rname, mn, mx in ranges:
            g.case(f"QuantizedInstanceNorm.quint8.{sname}_{rname}",
                   lambda: list(op(x=qrand(g, "quint8", shape), x_min=f32(mn), x_max=f32(mx),
                                   name="op")))
        g.case(f"QuantizedInstanceNorm.quint8.{sname}_given",
               lambda: list(op(x=qrand(g, "quint8", shape), x_min=f32(-1.0), x_max=f32(1.0),
                               output_range_given=True, given_y_min=-2.0, given_y_max=3.0,
                               name="op")))
    g.case("QuantizedInstanceNorm.quint8.narrow_levels",
           lambda: list(op(x=qrand(g, "quint8", [2, 5, 6, 4], lo=100, hi=104), x_min=f32(-1.0),
                           x_max=f32(1.0), name="op")))
    g.case("QuantizedInstanceNorm.quint8.given_tight",
           lambda: list(op(x=qrand(g, "quint8", [1, 3, 3, 2]), x_min=f32(-1.0), x_max=f32(1.0),
                           output_range_given=True, given_y_min=1.0, given_y_max=1.0005,
                           name="op")))
    g.case("QuantizedInstanceNorm.quint8.min_separation",
           lambda: list(op(x=qrand(g, "quint8", [1, 3, 4, 3]), x_min=f32(-1.0), x_max=f32(1.0),
                           min_separation=10.0, name="op")))
    g.case("QuantizedInstanceNorm.quint8.epsilon",
           lambda: list(op(x=qrand(g, "quint8", [2, 4, 4, 3]), x_min=f32(-1.0), x_max=f32(1.0),
                           variance_epsilon=0.5, name="op")))
    g.case("QuantizedInstanceNorm.quint8.constant",
           lambda: list(op(x=tf.constant(np.full([1, 2, 3, 2], 7, np.uint8), dtype="quint8"),
                           x_min=f32(-1.0), x_max=f32(1.0), name="op")))
    g.case("QuantizedInstanceNorm.quint8.empty_batch",
           lambda: list(op(x=qrand(g, "quint8", [0, 2, 2, 3]), x_min=f32(-1.0), x_max=f32(1.0),
                           name="op")))
    g.case("QuantizedInstanceNorm.quint8.empty_image",
           lambda: list(op(x=qrand(g, "quint8", [1, 0, 2, 3]), x_min=f32(-1.0), x_max=f32(1.0),
                           name="op")))
    g.case("QuantizedInstanceNorm.quint8.empty_range",
           lambda: op(x=qrand(g, "quint8", [1, 2, 2, 3]), x_min=f32(1.0), x_max=f32(1.0),
                      name="op")[0], error=True)
    g.case("QuantizedInstanceNorm.quint8.given_inverted",
           lambda: op(x=qrand(g, "quint8", [1, 2, 2, 3]), x_min=f32(-1.0), x_max=f32(1.0),
                      output_range_given=True, given_y_min=2.0, given_y_max=1.0,
                      name="op")[0], error=True)
    g.case("QuantizedInstanceNorm.quint8.min_not_scalar",
           lambda: op(x=qrand(g, "quint8", [1, 2, 2, 3]), x_min=hide_rank(f32([-1.0])),
                      x_max=f32(1.0), name="op")[0], error=True)


@group
def quant_batch_norm(g):
    op = raw.QuantizedBatchNormWithGlobalNormalization

    def bn(shape, depth=None, ranges=None, eps=0.001, scale=True, vec_shapes=None, mins=None,
           t=None):
        depth = shape[-1] if depth is None else depth
        r = ranges or {}
        vec = vec_shapes or {}
        m = mins or {}
        def rng_of(k, lo, hi):
            lo, hi = r.get(k, (lo, hi))
            return m.get(k, f32(lo)), f32(hi)
        args = {}
        for k, lo, hi in [("t", -1.0, 2.0), ("m", -1.0, 1.0), ("v", 0.0, 2.0),
                          ("beta", -1.0, 1.0), ("gamma", 0.0, 3.0)]:
            shape_k = shape if k == "t" else vec.get(k, [depth])
            args[k] = t if (k == "t" and t is not None) else qrand(g, "quint8", shape_k)
            args[k + "_min"], args[k + "_max"] = rng_of(k, lo, hi)
        return op(**args, out_type="qint32", variance_epsilon=eps,
                  scale_after_normalization=scale, name="op")

    range_sets = [
        ("unit", {}),
        ("skew", {"t": (-0.3, 12.7), "m": (0.5, 6.0), "v": (0.1, 4.0), "beta": (-5.0, -1.0),
                  "gamma": (0.25, 2.0)}),
        ("wide", {"t": (-500.0, 800.0), "m": (-200.0, 300.0), "v": (0.001, 0.05),
                  "beta": (-100.0, 100.0), "gamma": (1.0, 40.0)}),
        ("tiny_var", {"t": (-3.0, 3.0), "v": (0.0, 0.001), "gamma": (-2.0, 2.0)}),
    ]
    for sname, shape in [("c2", [1, 2, 3, 2]), ("c3", [2, 3, 4, 3]), ("c8", [1, 4, 5, 8])]:
        for rname, ranges in range_sets:
            for scale in (False, True):
                g.case(f"QuantizedBatchNormWithGlobalNormalization.quint8.{sname}_{rname}_"
                       f"{int(scale)}", lambda: list(bn(shape, ranges=ranges, scale=scale)))
    g.case("QuantizedBatchNormWithGlobalNormalization.quint8.eps",
           lambda: list(bn([1, 3, 3, 4], eps=0.5)))
    g.case("QuantizedBatchNormWithGlobalNormalization.quint8.flat_gamma",
           lambda: list(bn([1, 3, 3, 4], ranges={"gamma": (1.5, 1.5)})))
    g.case("QuantizedBatchNormWithGlobalNormalization.quint8.negative_var",
           lambda: list(bn([1, 2, 3, 3], ranges={"v": (-3.0, -1.0)}, eps=0.0)))
    # 1 / sqrt(0): infinite scales and NaN offsets.
    g.case("QuantizedBatchNormWithGlobalNormalization.quint8.zero_var",
           lambda: list(bn([1, 2, 3, 3], ranges={"v": (0.0, 0.0)}, eps=0.0)))
    g.case("QuantizedBatchNormWithGlobalNormalization.quint8.zero_var_flat_mean",
           lambda: list(bn([1, 2, 3, 3], ranges={"v": (0.0, 0.0), "m": (0.0, 0.0)}, eps=0.0)))
    # Scales beyond the output range's 2^20.
    g.case("QuantizedBatchNormWithGlobalNormalization.quint8.huge_scale",
           lambda: list(bn([1, 2, 3, 3], ranges={"v": (1e-14, 1e-13), "m": (-5e6, 5e6)},
                           eps=0.0)))
    g.case("QuantizedBatchNormWithGlobalNormalization.quint8.empty_batch",
           lambda: list(bn([0, 2, 2, 3])))
    g.case("QuantizedBatchNormWithGlobalNormalization.quint8.rank1_min",
           lambda: list(bn([1, 2, 2, 3], mins={"t": f32([-1.0])})))
    for ename, kw in [
            ("one_channel", dict(shape=[1, 2, 2, 1])),
            ("depth_mismatch", dict(shape=[1, 2, 2, 3], depth=4)),
            ("var_mismatch", dict(shape=[1, 2, 2, 3], vec_shapes={"v": [2]})),
            ("gamma_mismatch", dict(shape=[1, 2, 2, 3], vec_shapes={"gamma": [4]})),
            ("mean_2d", dict(shape=[1, 2, 2, 3], vec_shapes={"m": [3, 1]})),
            ("min_vector", dict(shape=[1, 2, 2, 3], mins={"m": [-1.0, 0.0]})),
            ("min_empty", dict(shape=[1, 2, 2, 3], mins={"gamma": []}))]:
        def build(kw=kw):
            kw = dict(kw)
            shape = kw.pop("shape")
            depth = kw.get("depth", shape[-1])
            vec = kw.get("vec_shapes", {})
            t = hide_rank(qrand(g, "quint8", shape))
            args = {}
            for k, lo, hi in [("t", -1.0, 2.0), ("m", -1.0, 1.0), ("v", 0.0, 2.0),
                              ("beta", -1.0, 1.0), ("gamma", 0.0, 3.0)]:
                args[k] = t if k == "t" else hide_rank(qrand(g, "quint8", vec.get(k, [depth])))
                args[k + "_min"] = hide_rank(f32(kw.get("mins", {}).get(k, lo)))
                args[k + "_max"] = f32(hi)
            return op(**args, out_type="qint32", variance_epsilon=0.001,
                      scale_after_normalization=True, name="op")[0]
        g.case(f"QuantizedBatchNormWithGlobalNormalization.quint8.{ename}", build, error=True)
    g.case("QuantizedBatchNormWithGlobalNormalization.quint8.not_4d",
           lambda: bn([2, 3], depth=3, t=hide_rank(qrand(g, "quint8", [2, 3])))[0], error=True)
