"""Op conformance cases: QuantizedAdd, QuantizedBiasAdd and QuantizeDownAndShrinkRange."""

from op_case_lib import *  # noqa: F401,F403
from op_case_groups.quantization import fconst, qconst, qvalues


def q8_edges(g, dt, shape):
    """Quantized values over the whole type with its two extreme levels first."""
    v = qvalues(g.rng, dt, shape)
    info = np.iinfo(v.dtype)
    v.flat[:2] = [info.min, info.max][:v.size]
    return tf.constant(v, dtype=dt)


# Ranges: symmetric, positive-only, negative-only, skewed, wide, tiny, and one that ends at 0.0.
ADD_RANGES = [("sym", -1.0, 1.0), ("pos", 0.5, 6.0), ("neg", -5.0, -1.0), ("skew", -0.3, 12.7),
              ("wide", -300.0, 200.0), ("tiny", -0.01, 0.02), ("top0", -2.5, 0.0)]


@group
def quant_add(g):
    pairs = [("sym_sym", ADD_RANGES[0], ADD_RANGES[0]), ("sym_pos", ADD_RANGES[0], ADD_RANGES[1]),
             ("neg_pos", ADD_RANGES[2], ADD_RANGES[1]), ("neg_neg", ADD_RANGES[2], ADD_RANGES[2]),
             ("skew_tiny", ADD_RANGES[3], ADD_RANGES[5]), ("wide_sym", ADD_RANGES[4],
                                                          ADD_RANGES[0]),
             ("tiny_wide", ADD_RANGES[5], ADD_RANGES[4]), ("top0_skew", ADD_RANGES[6],
                                                          ADD_RANGES[3])]
    # Broadcast patterns TensorFlow's kernel takes: a scalar (or one-element) operand, equal
    # shapes, and two folded dimensions where one operand has the output's shape (a suffix
    # vector, or [2, 1] against [2, 3], which TensorFlow repeats flat).
    shapes = [("same", [2, 3], [2, 3]), ("scalar_x", [], [3, 5]), ("scalar_y", [4, 3], []),
              ("one_x", [1], [7]), ("one_y", [2, 1, 3], [1, 1]), ("both_scalar", [], []),
              ("row_y", [4, 3], [3]), ("row_x", [5], [2, 5]), ("rank3_row", [2, 3, 4], [4]),
              ("col_y", [2, 3], [2, 1]), ("col_x", [3, 1], [3, 4]),
              ("inner_x", [3, 4], [2, 3, 4]), ("many", [300], [300])]
    for pname, (rx, mnx, mxx), (ry, mny, mxy) in pairs:
        for sname, xs, ys in shapes:
            g.case(f"QuantizedAdd.quint8.{pname}_{sname}",
                   lambda: list(raw.QuantizedAdd(
                       x=q8_edges(g, "quint8", xs), y=q8_edges(g, "quint8", ys),
                       min_x=fconst(mnx), max_x=fconst(mxx), min_y=fconst(mny),
                       max_y=fconst(mxy), name="op")))
    # Random ranges.
    for i in range(16):
        def build():
            def rng_range():
                mn = float(np.float32(g.rng.uniform(-50, 5)))
                return mn, float(np.float32(mn + g.rng.uniform(0.001, 60)))
            (mnx, mxx), (mny, mxy) = rng_range(), rng_range()
            xs, ys = [([6], [6]), ([], [9]), ([4, 5], [5]), ([7], [])][i % 4]
            return list(raw.QuantizedAdd(
                x=q8_edges(g, "quint8", xs), y=q8_edges(g, "quint8", ys), min_x=fconst(mnx),
                max_x=fconst(mxx), min_y=fconst(mny), max_y=fconst(mxy), name="op"))
        g.case(f"QuantizedAdd.quint8.random{i}", build)
    q8 = lambda shape: qconst(g, "quint8", shape)  # noqa: E731
    def rr():  # in each case's own graph
        return dict(min_x=fconst(-1.0), max_x=fconst(1.0), min_y=fconst(-2.0),
                    max_y=fconst(3.0))
    # Empty operands.
    for sname, xs, ys in [("empty", [0], [0]), ("empty_2d", [2, 0], [2, 0]),
                          ("scalar_empty", [], [0, 3]), ("empty_scalar", [0], [1])]:
        g.case(f"QuantizedAdd.quint8.{sname}",
               lambda: list(raw.QuantizedAdd(x=q8(xs), y=q8(ys), name="op", **rr())))
    # Errors: an empty operand against a vector ("Must have some elements to add"), a broadcast
    # over three folded dimensions, incompatible shapes, empty or reversed ranges, range
    # bounds that are not scalars.
    g.case("QuantizedAdd.quint8.empty_vs_vector",
           lambda: raw.QuantizedAdd(x=q8([0, 3]), y=q8([3]), name="op", **rr()), error=True)
    g.case("QuantizedAdd.quint8.vector_vs_empty",
           lambda: raw.QuantizedAdd(x=q8([3]), y=q8([0, 3]), name="op", **rr()), error=True)
    g.case("QuantizedAdd.quint8.general_broadcast",
           lambda: raw.QuantizedAdd(x=q8([2, 1, 3]), y=q8([2, 4, 3]), name="op", **rr()),
           error=True)
    g.case("QuantizedAdd.quint8.general_broadcast4",
           lambda: raw.QuantizedAdd(x=q8([2, 1, 3, 1]), y=q8([1, 4, 1, 2]), name="op", **rr()),
           error=True)
    g.case("QuantizedAdd.quint8.incompatible",
           lambda: raw.QuantizedAdd(x=hide_shape(q8([2, 3])), y=hide_shape(q8([2])), name="op",
                                    **rr()), error=True)
    for rname, mn, mx in [("x_equal", 1.0, 1.0), ("x_reversed", 2.0, -1.0)]:
        g.case(f"QuantizedAdd.quint8.{rname}",
               lambda: raw.QuantizedAdd(x=q8([3]), y=q8([3]), min_x=fconst(mn),
                                        max_x=fconst(mx), min_y=fconst(-1.0),
                                        max_y=fconst(1.0), name="op"), error=True)
    g.case("QuantizedAdd.quint8.y_equal",
           lambda: raw.QuantizedAdd(x=q8([3]), y=q8([3]), min_x=fconst(-1.0),
                                    max_x=fconst(1.0), min_y=fconst(0.0), max_y=fconst(0.0),
                                    name="op"), error=True)
    for bname in ("min_x", "max_x", "min_y", "max_y"):
        def bad():
            a = rr()
            a[bname] = hide_rank(fconst([0.5]))
            return raw.QuantizedAdd(x=q8([3]), y=q8([3]), name="op", **a)
        g.case(f"QuantizedAdd.quint8.{bname}_vector", bad, error=True)
    g.case("QuantizedAdd.quint8.min_x_empty",
           lambda: raw.QuantizedAdd(x=q8([3]), y=q8([3]), min_x=hide_rank(fconst(np.zeros([0]))),
                                    max_x=fconst(1.0), min_y=fconst(-1.0), max_y=fconst(1.0),
                                    name="op"), error=True)


BIAS_RANGES = ADD_RANGES + [("zero", 0.0, 0.0), ("point", 1.5, 1.5)]


@group
def quant_bias_add(g):
    for dt in ("quint8", "qint8"):
        pairs = [("sym_sym", BIAS_RANGES[0], BIAS_RANGES[0]),
                 ("pos_neg", BIAS_RANGES[1], BIAS_RANGES[2]),
                 ("neg_skew", BIAS_RANGES[2], BIAS_RANGES[3]),
                 ("wide_tiny", BIAS_RANGES[4], BIAS_RANGES[5]),
                 ("tiny_wide", BIAS_RANGES[5], BIAS_RANGES[4]),
                 ("top0_sym", BIAS_RANGES[6], BIAS_RANGES[0]),
                 ("zero_zero", BIAS_RANGES[7], BIAS_RANGES[7]),
                 ("point_sym", BIAS_RANGES[8], BIAS_RANGES[0]),
                 ("sym_point", BIAS_RANGES[0], BIAS_RANGES[8])]
        shapes = [("2d", [4, 3]), ("3d", [2, 3, 5]), ("4d", [2, 2, 3, 4]), ("one", [1, 1]),
                  ("long", [3, 257])]
        for pname, (ri, mni, mxi), (rb, mnb, mxb) in pairs:
            for sname, shape in shapes:
                g.case(f"QuantizedBiasAdd.{dt}.{pname}_{sname}",
                       lambda: list(raw.QuantizedBiasAdd(
                           input=q8_edges(g, dt, shape), bias=q8_edges(g, dt, shape[-1:]),
                           min_input=fconst(mni), max_input=fconst(mxi), min_bias=fconst(mnb),
                           max_bias=fconst(mxb), out_type=tf.qint32, name="op")))
        for i in range(12):
            def build():
                def rng_range():
                    mn = float(np.float32(g.rng.uniform(-40, 5)))
                    return mn, float(np.float32(mn + g.rng.uniform(0.001, 50)))
                (mni, mxi), (mnb, mxb) = rng_range(), rng_range()
                return list(raw.QuantizedBiasAdd(
                    input=q8_edges(g, dt, [5, 7]), bias=q8_edges(g, dt, [7]),
                    min_input=fconst(mni), max_input=fconst(mxi), min_bias=fconst(mnb),
                    max_bias=fconst(mxb), out_type=tf.qint32, name="op"))
            g.case(f"QuantizedBiasAdd.{dt}.random{i}", build)
        qd = lambda shape: qconst(g, dt, shape)  # noqa: E731
        def rr():  # in each case's own graph
            return dict(min_input=fconst(-1.0), max_input=fconst(1.0), min_bias=fconst(-2.0),
                        max_bias=fconst(3.0), out_type=tf.qint32, name="op")
        g.case(f"QuantizedBiasAdd.{dt}.empty",
               lambda: list(raw.QuantizedBiasAdd(input=qd([0, 3]), bias=qd([3]), **rr())))
        g.case(f"QuantizedBiasAdd.{dt}.empty_bias",
               lambda: raw.QuantizedBiasAdd(input=qd([2, 0]), bias=qd([0]), **rr()), error=True)
        g.case(f"QuantizedBiasAdd.{dt}.input_1d",
               lambda: raw.QuantizedBiasAdd(input=hide_rank(qd([3])), bias=qd([3]), **rr()),
               error=True)
        g.case(f"QuantizedBiasAdd.{dt}.bias_2d",
               lambda: raw.QuantizedBiasAdd(input=qd([2, 3]), bias=hide_rank(qd([1, 3])), **rr()),
               error=True)
        g.case(f"QuantizedBiasAdd.{dt}.mismatch",
               lambda: raw.QuantizedBiasAdd(input=hide_shape(qd([2, 3])), bias=hide_shape(qd([2])),
                                            **rr()), error=True)
        for bname in ("min_input", "max_input", "min_bias", "max_bias"):
            def bad():
                a = rr()
                a[bname] = hide_rank(fconst([0.5, 1.0]))
                return raw.QuantizedBiasAdd(input=qd([2, 3]), bias=qd([3]), **a)
            g.case(f"QuantizedBiasAdd.{dt}.{bname}_vector", bad, error=True)


@group
def quant_down_shrink(g):
    ranges = [("sym", -3.0, 3.0), ("pos", 0.5, 6.0), ("neg", -5.0, -1.0), ("skew", -0.3, 12.7),
              ("wide", -3e4, 2e4), ("tiny", -1e-3, 2e-3), ("equal", 1.5, 1.5),
              ("zero", 0.0, 0.0)]
    values = [("full", None, None), ("small", -5000, 700000), ("negative", -(1 << 30), -7),
              ("positive", 9, 1 << 28), ("narrow", 100000, 100400)]
    for rname, mn, mx in ranges:
        for vname, lo, hi in values:
            def build():
                if lo is None:
                    v = g.rng.integers(-2**31, 2**31, [4, 23]).astype(np.int32)
                    v.flat[:2] = [-2**31, 2**31 - 1]
                else:
                    v = g.rng.integers(lo, hi + 1, [4, 23]).astype(np.int32)
                return list(raw.QuantizeDownAndShrinkRange(
                    input=tf.constant(v, dtype=tf.qint32), input_min=fconst(mn),
                    input_max=fconst(mx), out_type=tf.quint8, name="op"))
            g.case(f"QuantizeDownAndShrinkRange.qint32.{rname}_{vname}", build)
    # Random ranges and values: the fixed-point offsets' rounding shows on values that sit
    # near a half level.
    for i in range(40):
        def build():
            mn = float(np.float32(g.rng.uniform(-100, 10)))
            mx = float(np.float32(mn + g.rng.uniform(0.01, 200)))
            n = int(g.rng.integers(1, 120))
            v = g.rng.integers(-2**31, 2**31, [n]).astype(np.int32)
            if i % 2:
                v = (v // int(g.rng.integers(2, 100000))).astype(np.int32)
            return list(raw.QuantizeDownAndShrinkRange(
                input=tf.constant(v, dtype=tf.qint32), input_min=fconst(mn),
                input_max=fconst(mx), out_type=tf.quint8, name="op"))
        g.case(f"QuantizeDownAndShrinkRange.qint32.random{i}", build)
    q32 = lambda v: tf.constant(np.asarray(v, np.int32), dtype=tf.qint32)  # noqa: E731
    def rr():  # in each case's own graph
        return dict(input_min=fconst(-2.0), input_max=fconst(4.0), out_type=tf.quint8,
                    name="op")
    for vname, v in [("scalar", 123456), ("one", [-2**31]), ("top", [2**31 - 1, 2**31 - 1]),
                     ("zeros", [0, 0, 0]), ("empty", np.zeros([0, 3])),
                     ("empty_rank1", np.zeros([0]))]:
        g.case(f"QuantizeDownAndShrinkRange.qint32.{vname}",
               lambda: list(raw.QuantizeDownAndShrinkRange(input=q32(v), **rr())))
    for bname in ("input_min", "input_max"):
        def bad():
            a = rr()
            a[bname] = hide_rank(fconst([1.0]))
            return raw.QuantizeDownAndShrinkRange(input=q32([1, 2]), **a)
        g.case(f"QuantizeDownAndShrinkRange.qint32.{bname}_vector", bad, error=True)


@group
def quant_requantize_random(g):
    """RequantizationRange and Requantize to qint8 on random ranges and values: where the float
    steps of TensorFlow's level -> float conversions show."""
    for i in range(24):
        def rng_range():
            mn = float(np.float32(g.rng.uniform(-100, 10)))
            return mn, float(np.float32(mn + g.rng.uniform(0.01, 200)))

        def values():
            v = g.rng.integers(-2**31, 2**31, [int(g.rng.integers(1, 60))]).astype(np.int32)
            if i % 2:
                v = (v // int(g.rng.integers(2, 100000))).astype(np.int32)
            return tf.constant(v, dtype=tf.qint32)

        def used_range():
            mn, mx = rng_range()
            return list(raw.RequantizationRange(input=values(), input_min=fconst(mn),
                                                input_max=fconst(mx), name="op"))
        g.case(f"RequantizationRange.qint32.random{i}", used_range)

        def to_qint8():
            mn, mx = rng_range()
            omn = float(np.float32(-g.rng.uniform(0.0, 50)))
            omx = float(np.float32(g.rng.uniform(0.0, 50)))
            return list(raw.Requantize(input=values(), input_min=fconst(mn), input_max=fconst(mx),
                                       requested_output_min=fconst(omn),
                                       requested_output_max=fconst(omx), out_type=tf.qint8,
                                       name="op"))
        g.case(f"Requantize.qint32.qint8_random{i}", to_qint8)
