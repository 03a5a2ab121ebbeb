"""Op conformance cases: Fake quantization, quantize and dequantize, the Quantized* kernels."""

from op_case_lib import *  # noqa: F401,F403


# ---- quantization ---------------------------------------------------------------------------

QUANTIZED = ["qint8", "quint8", "qint32", "qint16", "quint16"]


def qvalues(rng, dt, shape, lo=None, hi=None):
    """A numpy array of the integer type holding quantized dtype `dt`, uniform over [lo, hi]
    (the whole type by default, at most +-2^20 for qint32)."""
    np_dt = tf.as_dtype(dt).as_numpy_dtype
    holder = {"qint8": np.int8, "quint8": np.uint8, "qint16": np.int16, "quint16": np.uint16,
              "qint32": np.int32}[tf.as_dtype(dt).name]
    info = np.iinfo(holder)
    a = info.min if lo is None else lo
    b = info.max if hi is None else hi
    if holder == np.int32:
        a, b = max(a, -(1 << 20)), min(b, 1 << 20)
    del np_dt
    return rng.integers(a, b + 1, tuple(shape)).astype(holder)


def qconst(g, dt, shape, lo=None, hi=None):
    return tf.constant(qvalues(g.rng, dt, shape, lo, hi), dtype=dt)


def fconst(v):
    return tf.constant(np.asarray(v, np.float32))


@group
def quant_fake(g):
    def inputs(shape, lo, hi):
        v = g.vals("float32", shape, lo=lo, hi=hi)
        v.flat[:4] = [lo, hi, 0.0, (lo + hi) / 2][:v.size]
        return v
    specials = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-3, -1e-3, 60.0, -60.0, 0.5,
                         -0.5, 2.5], np.float32)
    for bits in (2, 4, 8, 16):
        for narrow in (False, True):
            for mn, mx in [(-6.0, 6.0), (-1.0, 3.5), (0.25, 2.0), (-3.0, -0.5), (-0.1, 7.3)]:
                g.case(f"FakeQuantWithMinMaxArgs.bits{bits}_{int(narrow)}_{mn}_{mx}",
                       lambda: raw.FakeQuantWithMinMaxArgs(
                           inputs=g.const(inputs([4, 17], mn - 1, mx + 1)), min=mn, max=mx,
                           num_bits=bits, narrow_range=narrow, name="op"))
                g.case(f"FakeQuantWithMinMaxVars.bits{bits}_{int(narrow)}_{mn}_{mx}",
                       lambda: raw.FakeQuantWithMinMaxVars(
                           inputs=g.const(inputs([3, 19], mn - 1, mx + 1)), min=fconst(mn),
                           max=fconst(mx), num_bits=bits, narrow_range=narrow, name="op"))
            g.case(f"FakeQuantWithMinMaxVarsPerChannel.bits{bits}_{int(narrow)}",
                   lambda: raw.FakeQuantWithMinMaxVarsPerChannel(
                       inputs=g.const(inputs([7, 5], -8, 8)),
                       min=fconst([-6.0, -1.0, 0.25, -3.0, -0.1]),
                       max=fconst([6.0, 3.5, 2.0, -0.5, 7.3]), num_bits=bits,
                       narrow_range=narrow, name="op"))
    # Random ranges: values on half levels are where the order of the float steps shows.
    for i in range(12):
        def random_range():
            mn = float(np.float32(g.rng.uniform(-10, 1)))
            mx = float(np.float32(mn + g.rng.uniform(0.01, 20)))
            bits = int(g.rng.integers(2, 17))
            narrow = bool(g.rng.integers(0, 2))
            x = g.rng.uniform(mn - 3, mx + 3, [257]).astype(np.float32)
            return mn, mx, bits, narrow, x
        g.case(f"FakeQuantWithMinMaxArgs.random{i}",
               lambda: (lambda mn, mx, bits, narrow, x: raw.FakeQuantWithMinMaxArgs(
                   inputs=g.const(x), min=mn, max=mx, num_bits=bits, narrow_range=narrow,
                   name="op"))(*random_range()))
        g.case(f"FakeQuantWithMinMaxVars.random{i}",
               lambda: (lambda mn, mx, bits, narrow, x: raw.FakeQuantWithMinMaxVars(
                   inputs=g.const(x), min=fconst(mn), max=fconst(mx), num_bits=bits,
                   narrow_range=narrow, name="op"))(*random_range()))
    g.case("FakeQuantWithMinMaxArgs.special",
           lambda: raw.FakeQuantWithMinMaxArgs(inputs=g.const(specials), name="op"))
    g.case("FakeQuantWithMinMaxArgs.scalar",
           lambda: raw.FakeQuantWithMinMaxArgs(inputs=fconst(1.3), min=-1.0, max=2.0, name="op"))
    g.case("FakeQuantWithMinMaxArgs.empty",
           lambda: raw.FakeQuantWithMinMaxArgs(inputs=fconst(np.zeros([0, 3])), name="op"))
    g.case("FakeQuantWithMinMaxVars.special",
           lambda: raw.FakeQuantWithMinMaxVars(inputs=g.const(specials), min=fconst(-2.0),
                                               max=fconst(5.0), name="op"))
    # min > max and min == max run: TensorFlow gives the nudged (reversed) range, or NaN.
    g.case("FakeQuantWithMinMaxVars.reversed",
           lambda: raw.FakeQuantWithMinMaxVars(inputs=g.const(specials), min=fconst(2.0),
                                               max=fconst(1.0), name="op"))
    g.case("FakeQuantWithMinMaxVars.equal",
           lambda: raw.FakeQuantWithMinMaxVars(inputs=g.const(specials), min=fconst(1.0),
                                               max=fconst(1.0), name="op"))
    g.case("FakeQuantWithMinMaxVarsPerChannel.special",
           lambda: raw.FakeQuantWithMinMaxVarsPerChannel(
               inputs=g.const(specials.reshape([2, 2, 3])), min=fconst([-1.0, 0.0, 2.0]),
               max=fconst([1.0, 1.0, 1.0]), name="op"))
    g.case("FakeQuantWithMinMaxVarsPerChannel.vector",
           lambda: raw.FakeQuantWithMinMaxVarsPerChannel(
               inputs=g.const(inputs([4], -2, 2)), min=fconst([-1.0, 0.0, -2.0, 0.5]),
               max=fconst([1.0, 1.0, 2.0, 1.5]), num_bits=5, name="op"))
    g.case("FakeQuantWithMinMaxVarsPerChannel.empty",
           lambda: raw.FakeQuantWithMinMaxVarsPerChannel(
               inputs=fconst(np.zeros([0, 2])), min=fconst([-1.0, 0.0]),
               max=fconst([1.0, 1.0]), name="op"))
    # Errors.
    g.case("FakeQuantWithMinMaxArgs.min_not_below_max",
           lambda: raw.FakeQuantWithMinMaxArgs(inputs=fconst([1.0]), min=1.0, max=1.0,
                                               name="op"), error=True)
    g.case("FakeQuantWithMinMaxArgs.num_bits_1",
           lambda: raw.FakeQuantWithMinMaxArgs(inputs=fconst([1.0]), num_bits=1, name="op"),
           error=True)
    g.case("FakeQuantWithMinMaxVars.num_bits_17",
           lambda: raw.FakeQuantWithMinMaxVars(inputs=fconst([1.0]), min=fconst(-1.0),
                                               max=fconst(1.0), num_bits=17, name="op"),
           error=True)
    g.case("FakeQuantWithMinMaxVars.min_vector",
           lambda: raw.FakeQuantWithMinMaxVars(inputs=fconst([1.0]),
                                               min=hide_rank(fconst([-1.0])),
                                               max=fconst(1.0), name="op"), error=True)
    g.case("FakeQuantWithMinMaxVarsPerChannel.wrong_depth",
           lambda: raw.FakeQuantWithMinMaxVarsPerChannel(
               inputs=hide_shape(fconst(np.zeros([2, 4]))), min=hide_shape(fconst([-1.0] * 3)),
               max=hide_shape(fconst([1.0] * 3)), name="op"), error=True)


@group
def quant_convert(g):
    modes = ["MIN_COMBINED", "MIN_FIRST", "SCALED"]
    for dt in QUANTIZED:
        for mode in modes:
            rounds = ["HALF_AWAY_FROM_ZERO"] + (["HALF_TO_EVEN"] if mode == "SCALED" else [])
            for rm in rounds:
                for narrow in ([False, True] if mode == "SCALED" else [False]):
                    for rname, mn, mx in [("sym", -2.0, 2.0), ("pos", 0.5, 6.0),
                                          ("neg", -5.0, -1.0), ("skew", -0.7, 9.3),
                                          ("tiny", 0.0, 0.001)]:
                        tag = f"{mode.lower()}_{rm[5:].lower()}_{int(narrow)}_{rname}"
                        def build():
                            x = g.vals("float32", [5, 13], lo=mn - 1, hi=mx + 1)
                            x.flat[:3] = [mn, mx, 0.0]
                            x.flat[3:9] = g.rng.uniform(mn - 1, mx + 1, 6).astype(np.float32)
                            return list(raw.QuantizeV2(input=g.const(x), min_range=fconst(mn),
                                                       max_range=fconst(mx), T=dt, mode=mode,
                                                       round_mode=rm, narrow_range=narrow,
                                                       name="op"))
                        g.case(f"QuantizeV2.{dt}.{tag}", build)
            for narrow in ([False, True] if mode == "SCALED" else [False]):
                for rname, mn, mx in [("sym", -2.0, 2.0), ("pos", 0.5, 6.0), ("neg", -5.0, -1.0),
                                      ("skew", -0.7, 9.3), ("equal", 1.5, 1.5)]:
                    g.case(f"Dequantize.{dt}.{mode.lower()}_{int(narrow)}_{rname}",
                           lambda: raw.Dequantize(input=qconst(g, dt, [4, 9]),
                                                  min_range=fconst(mn), max_range=fconst(mx),
                                                  mode=mode, narrow_range=narrow, name="op"))
        g.case(f"Dequantize.{dt}.bfloat16",
               lambda: raw.Dequantize(input=qconst(g, dt, [3, 7]), min_range=fconst(-1.3),
                                      max_range=fconst(4.1), dtype=tf.bfloat16, name="op"))
        # Per-axis ranges.
        for mode in ["MIN_COMBINED", "SCALED"]:
            for axis in (0, 1, 2):
                def build_q():
                    x = g.vals("float32", [3, 4, 2], lo=-6, hi=6)
                    d = x.shape[axis]
                    mn = g.rng.uniform(-5, 0.5, d).astype(np.float32)
                    mx = (mn + g.rng.uniform(0.1, 8, d)).astype(np.float32)
                    return list(raw.QuantizeV2(input=g.const(x), min_range=fconst(mn),
                                               max_range=fconst(mx), T=dt, mode=mode, axis=axis,
                                               name="op"))
                g.case(f"QuantizeV2.{dt}.{mode.lower()}_axis{axis}", build_q)

                def build_d():
                    q = qconst(g, dt, [3, 4, 2])
                    d = [3, 4, 2][axis]
                    mn = g.rng.uniform(-5, 0.5, d).astype(np.float32)
                    mx = (mn + g.rng.uniform(0.1, 8, d)).astype(np.float32)
                    return raw.Dequantize(input=q, min_range=fconst(mn), max_range=fconst(mx),
                                          mode=mode, axis=axis, narrow_range=axis == 1,
                                          name="op")
                g.case(f"Dequantize.{dt}.{mode.lower()}_axis{axis}", build_d)
    g.case("QuantizeV2.quint8.ensure_minimum_range",
           lambda: list(raw.QuantizeV2(input=g.rand("float32", [9], lo=-1, hi=1),
                                       min_range=fconst(0.0), max_range=fconst(0.0),
                                       T=tf.quint8, ensure_minimum_range=0.5, name="op")))
    g.case("QuantizeV2.qint8.empty",
           lambda: list(raw.QuantizeV2(input=fconst(np.zeros([0, 2])), min_range=fconst(-1.0),
                                       max_range=fconst(1.0), T=tf.qint8, name="op")))
    g.case("QuantizeV2.quint8.scalar",
           lambda: list(raw.QuantizeV2(input=fconst(0.4), min_range=fconst(-1.0),
                                       max_range=fconst(1.0), T=tf.quint8, name="op")))
    # Errors.
    g.case("QuantizeV2.qint8.min_above_max",
           lambda: raw.QuantizeV2(input=fconst([1.0]), min_range=fconst(2.0),
                                  max_range=fconst(1.0), T=tf.qint8, name="op"), error=True)
    g.case("QuantizeV2.qint8.half_to_even_min_combined",
           lambda: raw.QuantizeV2(input=fconst([1.0]), min_range=fconst(-1.0),
                                  max_range=fconst(1.0), T=tf.qint8, round_mode="HALF_TO_EVEN",
                                  name="op"), error=True)
    g.case("QuantizeV2.qint8.axis_out_of_range",
           lambda: raw.QuantizeV2(input=hide_rank(fconst(np.zeros([2, 2]))),
                                  min_range=fconst([-1.0, -1.0]), max_range=fconst([1.0, 1.0]),
                                  T=tf.qint8, axis=2, name="op"), error=True)
    g.case("QuantizeV2.qint8.axis_wrong_depth",
           lambda: raw.QuantizeV2(input=hide_shape(fconst(np.zeros([2, 3]))),
                                  min_range=hide_shape(fconst([-1.0, -1.0])),
                                  max_range=hide_shape(fconst([1.0, 1.0])),
                                  T=tf.qint8, axis=1, name="op"), error=True)
    g.case("QuantizeV2.quint8.min_first_axis",
           lambda: raw.QuantizeV2(input=fconst(np.zeros([2, 3])),
                                  min_range=fconst([-1.0, -1.0]), max_range=fconst([1.0, 1.0]),
                                  T=tf.quint8, axis=0, mode="MIN_FIRST", name="op"), error=True)
    g.case("QuantizeV2.qint8.range_not_scalar",
           lambda: raw.QuantizeV2(input=fconst([1.0]), min_range=hide_rank(fconst([-1.0, 0.0])),
                                  max_range=fconst(1.0), T=tf.qint8, name="op"), error=True)
    g.case("Dequantize.qint8.range_not_scalar",
           lambda: raw.Dequantize(input=qconst(g, "qint8", [2]),
                                  min_range=hide_rank(fconst([-1.0, 0.0])),
                                  max_range=fconst(1.0), name="op"), error=True)
    g.case("Dequantize.qint8.axis_wrong_depth",
           lambda: raw.Dequantize(input=hide_shape(qconst(g, "qint8", [2, 3])),
                                  min_range=hide_shape(fconst([-1.0, -1.0])),
                                  max_range=hide_shape(fconst([1.0, 1.0])), axis=1, name="op"),
           error=True)
    g.case("Dequantize.qint8.bfloat16_scaled",
           lambda: raw.Dequantize(input=qconst(g, "qint8", [2]), min_range=fconst(-1.0),
                                  max_range=fconst(1.0), mode="SCALED", dtype=tf.bfloat16,
                                  name="op"), error=True)


@group
def quant_ops(g):
    for dt in QUANTIZED + ["float32", "int32", "uint8"]:
        def reshape(shape):
            t = qconst(g, dt, [2, 3, 2]) if dt in QUANTIZED else g.rand(dt, [2, 3, 2])
            return list(raw.QuantizedReshape(tensor=t, shape=g.const(shape, "int32"),
                                             input_min=fconst(-1.5), input_max=fconst(2.5),
                                             name="op"))
        g.case(f"QuantizedReshape.{sgname(dt)}.infer", lambda: reshape([3, -1]))
        g.case(f"QuantizedReshape.{sgname(dt)}.flat", lambda: reshape([12]))
    g.case("QuantizedReshape.quint8.int64_shape",
           lambda: list(raw.QuantizedReshape(tensor=qconst(g, "quint8", [4, 2]),
                                             shape=g.const([2, 2, 2], "int64"),
                                             input_min=fconst(0.0), input_max=fconst(1.0),
                                             name="op")))
    g.case("QuantizedReshape.quint8.bad_size",
           lambda: raw.QuantizedReshape(tensor=hide_shape(qconst(g, "quint8", [4, 2])),
                                        shape=hide_shape(g.const([3, 3], "int32")),
                                        input_min=fconst(0.0), input_max=fconst(1.0),
                                        name="op"), error=True)
    for dt in QUANTIZED:
        for op in ("QuantizedMaxPool", "QuantizedAvgPool"):
            for sname, shape, k, st, pad in [("valid", [2, 5, 6, 3], [1, 2, 2, 1], [1, 2, 2, 1],
                                              "VALID"),
                                             ("same", [1, 5, 5, 2], [1, 3, 3, 1], [1, 2, 2, 1],
                                              "SAME"),
                                             ("wide", [1, 4, 7, 1], [1, 1, 4, 1], [1, 1, 1, 1],
                                              "SAME"),
                                             ("empty", [0, 3, 3, 2], [1, 2, 2, 1], [1, 1, 1, 1],
                                              "VALID")]:
                g.case(f"{op}.{dt}.{sname}",
                       lambda: list(op_fn(op)(input=qconst(g, dt, shape), min_input=fconst(-2.0),
                                              max_input=fconst(3.0), ksize=k, strides=st,
                                              padding=pad, name="op")))
        for op in ("QuantizedRelu", "QuantizedRelu6"):
            for out in QUANTIZED:
                for rname, mn, mx in [("sym", -8.0, 8.0), ("pos", 1.5, 9.0), ("neg", -5.0, -1.0),
                                      ("skew", -0.3, 12.7), ("small", -1.0, 3.0)]:
                    g.case(f"{op}.{dt}.{out}_{rname}",
                           lambda: list(op_fn(op)(features=qconst(g, dt, [5, 31]),
                                                  min_features=fconst(mn),
                                                  max_features=fconst(mx), out_type=out,
                                                  name="op")))
    g.case("QuantizedMaxPool.quint8.not_4d",
           lambda: raw.QuantizedMaxPool(input=hide_rank(qconst(g, "quint8", [3, 3, 2])),
                                        min_input=fconst(0.0), max_input=fconst(1.0),
                                        ksize=[1, 2, 2, 1], strides=[1, 1, 1, 1],
                                        padding="VALID", name="op"), error=True)
    g.case("QuantizedAvgPool.quint8.batch_window",
           lambda: raw.QuantizedAvgPool(input=qconst(g, "quint8", [2, 3, 3, 1]),
                                        min_input=fconst(0.0), max_input=fconst(1.0),
                                        ksize=[2, 2, 2, 1], strides=[1, 1, 1, 1],
                                        padding="VALID", name="op"), error="any")


@group
def quant_products(g):
    ranges = [("sym", -1.0, 1.0, -2.0, 2.0), ("pos", 0.5, 6.0, -3.0, 0.25),
              ("neg", -5.0, -1.0, 1.0, 9.0), ("skew", -0.3, 12.7, -6.1, 2.2)]
    # TensorFlow's CPU kernels are quint8 x quint8 -> qint32; other pairings get cases that
    # TensorFlow drops (no kernel), except QuantizedConv2D's quint8 x qint8, whose TensorFlow
    # kernel returns empty tensors.
    for t1 in QUANTIZED:
        for t2 in QUANTIZED:
            for rname, mna, mxa, mnb, mxb in ranges if (t1, t2) == ("quint8", "quint8") \
                    else ranges[:1]:
                for ta, tb in [(False, False), (True, False), (False, True), (True, True)]:
                    g.case(f"QuantizedMatMul.{t1}.{t2}_{rname}_{int(ta)}{int(tb)}",
                           lambda: list(raw.QuantizedMatMul(
                               a=qconst(g, t1, [5, 3] if ta else [3, 5]),
                               b=qconst(g, t2, [4, 5] if tb else [5, 4]), min_a=fconst(mna),
                               max_a=fconst(mxa), min_b=fconst(mnb), max_b=fconst(mxb),
                               transpose_a=ta, transpose_b=tb, name="op")))
                for sname, xs, ys in [("same", [2, 3], [2, 3]), ("scalar_x", [], [2, 3]),
                                      ("scalar_y", [2, 3], []), ("row", [4, 3], [3]),
                                      ("col", [2, 1], [2, 3]), ("rank3", [2, 3], [4, 2, 3])]:
                    g.case(f"QuantizedMul.{t1}.{t2}_{rname}_{sname}",
                           lambda: list(raw.QuantizedMul(
                               x=qconst(g, t1, xs), y=qconst(g, t2, ys), min_x=fconst(mna),
                               max_x=fconst(mxa), min_y=fconst(mnb), max_y=fconst(mxb),
                               name="op")))
                if t2 == "qint8":
                    continue
                for sname, ins, fs, st, pad in [("valid", [2, 5, 6, 3], [3, 2, 3, 4], 1, "VALID"),
                                                ("same", [1, 5, 5, 2], [3, 3, 2, 3], 2, "SAME"),
                                                ("same1", [2, 4, 3, 1], [2, 2, 1, 2], 1, "SAME")]:
                    g.case(f"QuantizedConv2D.{t1}.{t2}_{rname}_{sname}",
                           lambda: list(raw.QuantizedConv2D(
                               input=qconst(g, t1, ins), filter=qconst(g, t2, fs),
                               min_input=fconst(mna), max_input=fconst(mxa),
                               min_filter=fconst(mnb), max_filter=fconst(mxb),
                               strides=[1, st, st, 1], padding=pad, name="op")))
    q8 = lambda shape: qconst(g, "quint8", shape)  # noqa: E731
    g.case("QuantizedMatMul.quint8.mismatch",
           lambda: raw.QuantizedMatMul(a=hide_shape(q8([2, 3])), b=hide_shape(q8([2, 3])),
                                       min_a=fconst(-1.0), max_a=fconst(1.0), min_b=fconst(-1.0),
                                       max_b=fconst(1.0), name="op"), error=True)
    g.case("QuantizedMul.quint8.incompatible",
           lambda: raw.QuantizedMul(x=hide_shape(q8([2, 3])), y=hide_shape(q8([2])),
                                    min_x=fconst(-1.0), max_x=fconst(1.0), min_y=fconst(-1.0),
                                    max_y=fconst(1.0), name="op"), error=True)
    g.case("QuantizedConv2D.quint8.empty",
           lambda: raw.QuantizedConv2D(input=q8([0, 4, 4, 1]), filter=q8([2, 2, 1, 1]),
                                       min_input=fconst(-1.0), max_input=fconst(1.0),
                                       min_filter=fconst(-1.0), max_filter=fconst(1.0),
                                       strides=[1, 1, 1, 1], padding="VALID", name="op"),
           error=True)
    g.case("QuantizedConv2D.quint8.dilated",
           lambda: raw.QuantizedConv2D(input=q8([1, 4, 4, 1]), filter=q8([2, 2, 1, 1]),
                                       min_input=fconst(-1.0), max_input=fconst(1.0),
                                       min_filter=fconst(-1.0), max_filter=fconst(1.0),
                                       strides=[1, 1, 1, 1], padding="VALID",
                                       dilations=[1, 2, 2, 1], name="op"), error=True)
    g.case("QuantizedConv2D.quint8.unequal_strides",
           lambda: raw.QuantizedConv2D(input=q8([1, 4, 4, 1]), filter=q8([2, 2, 1, 1]),
                                       min_input=fconst(-1.0), max_input=fconst(1.0),
                                       min_filter=fconst(-1.0), max_filter=fconst(1.0),
                                       strides=[1, 2, 1, 1], padding="VALID", name="op"),
           error=True)
    g.case("QuantizedConv2D.quint8.depth_mismatch",
           lambda: raw.QuantizedConv2D(input=hide_shape(q8([1, 4, 4, 2])),
                                       filter=hide_shape(q8([2, 2, 1, 1])),
                                       min_input=fconst(-1.0), max_input=fconst(1.0),
                                       min_filter=fconst(-1.0), max_filter=fconst(1.0),
                                       strides=[1, 1, 1, 1], padding="VALID", name="op"),
           error=True)


@group
def quant_requantize(g):
    ranges = [("sym", -3.0, 3.0), ("pos", 0.5, 6.0), ("neg", -5.0, -1.0), ("skew", -0.3, 12.7),
              ("wide", -300.0, 200.0)]
    outs = [("sym", -2.0, 2.0), ("zero_top", -1.5, 0.0), ("pos", 0.0, 7.5), ("narrow", -0.1, 0.2),
            ("empty", 0.0, 0.0)]
    for tin in QUANTIZED:
        for rname, mn, mx in ranges:
            for sname, lo, hi in [("full", None, None), ("small", -5000, 700000)]:
                g.case(f"RequantizationRange.{tin}.{rname}_{sname}",
                       lambda: list(raw.RequantizationRange(input=qconst(g, tin, [3, 11], lo, hi),
                                                            input_min=fconst(mn),
                                                            input_max=fconst(mx), name="op")))
            for tout in QUANTIZED:
                for oname, omn, omx in outs if (tin, tout) in [("qint32", "quint8"),
                                                               ("qint32", "qint8")] else outs[:1]:
                    def build():
                        v = qvalues(g.rng, tin, [4, 23])
                        if tin == "qint32":  # the whole int32 range, not only +-2^20
                            v = g.rng.integers(-2**31, 2**31, [4, 23]).astype(np.int32)
                        v.flat[:2] = [np.iinfo(v.dtype).min, np.iinfo(v.dtype).max]
                        return list(raw.Requantize(
                            input=tf.constant(v, dtype=tin), input_min=fconst(mn),
                            input_max=fconst(mx), requested_output_min=fconst(omn),
                            requested_output_max=fconst(omx), out_type=tout, name="op"))
                    g.case(f"Requantize.{tin}.{tout}_{rname}_{oname}", build)
    # Values inside narrow requested ranges: where the fixed-point offsets' rounding shows.
    for i in range(24):
        def narrow():
            mn = np.float32(g.rng.uniform(-10, 3))
            mx = np.float32(mn + g.rng.uniform(0.1, 10))
            v = g.rng.integers(-2**31, 2**31, [int(g.rng.integers(1, 60))]).astype(np.int32)
            if i % 3 == 0:
                v = (v // 1000).astype(np.int32)
            step = (np.float64(mx) - np.float64(mn)) / 4294967295.0
            lo = np.float32(min(0.0, mn + (int(v.min()) + 2**31) * step))
            hi = np.float32(mn + (int(v.max()) + 2**31) * step)
            return list(raw.Requantize(
                input=tf.constant(v, dtype=tf.qint32), input_min=fconst(mn), input_max=fconst(mx),
                requested_output_min=fconst(lo), requested_output_max=fconst(max(hi, lo)),
                out_type=tf.quint8, name="op"))
        g.case(f"Requantize.qint32.narrow{i}", narrow)
    g.case("RequantizationRange.qint32.empty",
           lambda: list(raw.RequantizationRange(input=qconst(g, "qint32", [0, 3]),
                                                input_min=fconst(-1.0), input_max=fconst(1.0),
                                                name="op")))
    g.case("Requantize.qint32.empty",
           lambda: list(raw.Requantize(input=qconst(g, "qint32", [2, 0]), input_min=fconst(-1.0),
                                       input_max=fconst(1.0), requested_output_min=fconst(-1.0),
                                       requested_output_max=fconst(1.0), out_type=tf.quint8,
                                       name="op")))
    for oname, omn, omx in [("positive_min", 0.5, 2.0), ("reversed", -1.0, -2.0)]:
        g.case(f"Requantize.qint32.{oname}",
               lambda: raw.Requantize(input=qconst(g, "qint32", [3]), input_min=fconst(-1.0),
                                      input_max=fconst(1.0), requested_output_min=fconst(omn),
                                      requested_output_max=fconst(omx), out_type=tf.quint8,
                                      name="op"), error=True)


@group
def quant_concat(g):
    range_sets = [("same", [(-2.0, 3.0)] * 3), ("mixed", [(-2.0, 3.0), (-0.5, 1.0), (-4.0, 0.5)]),
                  ("positive", [(0.3, 1.4), (0.6, 5.2), (0.3, 1.4)]),
                  ("negative", [(-3.1, -0.1), (-3.1, -0.1), (-3.1, -0.1)]),
                  ("negative_mixed", [(-3.2, -0.3), (-1.0, -0.2), (-6.0, -5.0)])]
    for dt in QUANTIZED + ["float32", "int32"]:
        for rname, ranges in range_sets if dt in ("quint8", "qint32") else range_sets[:1]:
            for axis, shapes in [(0, [[2, 3], [1, 3], [3, 3]]), (1, [[2, 1], [2, 4], [2, 2]]),
                                 (2, [[2, 1, 3], [2, 1, 1], [2, 1, 2]])]:
                def build():
                    vals = [qconst(g, dt, sh) if dt in QUANTIZED else g.rand(dt, sh)
                            for sh in shapes]
                    return list(raw.QuantizedConcat(
                        concat_dim=g.const(axis, "int32"), values=vals,
                        input_mins=[fconst(r[0]) for r in ranges],
                        input_maxes=[fconst(r[1]) for r in ranges], name="op"))
                g.case(f"QuantizedConcat.{sgname(dt)}.{rname}_axis{axis}", build)
    q8 = lambda shape: qconst(g, "quint8", shape)  # noqa: E731
    g.case("QuantizedConcat.quint8.two_empty",
           lambda: list(raw.QuantizedConcat(concat_dim=g.const(1, "int32"),
                                            values=[q8([2, 0]), q8([2, 0])],
                                            input_mins=[fconst(-1.0)] * 2,
                                            input_maxes=[fconst(1.0)] * 2, name="op")))
    g.case("QuantizedConcat.quint8.mismatch",
           lambda: raw.QuantizedConcat(concat_dim=g.const(0, "int32"),
                                       values=[hide_shape(q8([2, 3])), hide_shape(q8([2, 2]))],
                                       input_mins=[fconst(-1.0)] * 2,
                                       input_maxes=[fconst(1.0)] * 2, name="op"), error=True)
    g.case("QuantizedConcat.quint8.axis_out_of_range",
           lambda: raw.QuantizedConcat(concat_dim=hide_shape(g.const(2, "int32")),
                                       values=[hide_shape(q8([2, 3])), hide_shape(q8([2, 3]))],
                                       input_mins=[fconst(-1.0)] * 2,
                                       input_maxes=[fconst(1.0)] * 2, name="op"), error=True)
    g.case("QuantizedConcat.quint8.negative_axis",
           lambda: raw.QuantizedConcat(concat_dim=hide_shape(g.const(-1, "int32")),
                                       values=[hide_shape(q8([2, 3])), hide_shape(q8([2, 3]))],
                                       input_mins=[fconst(-1.0)] * 2,
                                       input_maxes=[fconst(1.0)] * 2, name="op"), error="any")


@group
def quant_and_dequant(g):
    for op in ("QuantizeAndDequantizeV2", "QuantizeAndDequantizeV3", "QuantizeAndDequantizeV4"):
        for dt in tf_types(op):
            variants = [("default", {}), ("given", {"range_given": True}),
                        ("unsigned", {"signed_input": False}),
                        ("narrow_given", {"narrow_range": True, "range_given": True}),
                        ("bits4", {"num_bits": 4}), ("axis1", {"axis": 1})]
            if op != "QuantizeAndDequantizeV3":
                variants += [("half_up", {"round_mode": "HALF_UP"}),
                             ("half_up_given", {"round_mode": "HALF_UP", "range_given": True})]
            for vname, attrs in variants:
                def build():
                    a = dict(attrs)
                    bits = a.pop("num_bits", 8)
                    axis = a.get("axis", -1)
                    x = g.vals(dt, [3, 5], lo=-3, hi=4)
                    lo, hi = (-1.5, 2.0) if axis < 0 else ([-1.5, -1.0, -3.0, 0.0, -0.5],
                                                         [2.0, 1.0, 0.5, 3.0, 0.25])
                    if "unsigned" in vname:
                        lo = 0.0
                    args = dict(input=g.const(x, dt), input_min=g.const(lo, dt),
                                input_max=g.const(hi, dt), name="op", **a)
                    if op == "QuantizeAndDequantizeV3":
                        args["num_bits"] = g.const(bits, "int32")
                        args.setdefault("range_given", False)
                        if "given" in vname:
                            args["range_given"] = True
                    else:
                        args["num_bits"] = bits
                    return op_fn(op)(**args)
                g.case(f"{op}.{sgname(dt)}.{vname}", build)
        g.case(f"{op}.float.bad_range",
               lambda: op_fn(op)(input=fconst([1.0]), input_min=fconst(2.0), input_max=fconst(1.0),
                                 range_given=True, name="op",
                                 **({"num_bits": g.const(8, "int32")}
                                    if op == "QuantizeAndDequantizeV3" else {})), error=True)
        g.case(f"{op}.float.empty",
               lambda: op_fn(op)(input=fconst(np.zeros([0, 2])), input_min=fconst(0.0),
                                 input_max=fconst(0.0), name="op",
                                 **({"num_bits": g.const(8, "int32")}
                                    if op == "QuantizeAndDequantizeV3" else {})))
    g.case("QuantizeAndDequantizeV2.float.num_bits_0",
           lambda: raw.QuantizeAndDequantizeV2(input=fconst([1.0]), input_min=fconst(0.0),
                                               input_max=fconst(0.0), num_bits=0, name="op"),
           error=True)
    g.case("QuantizeAndDequantizeV3.float.num_bits_vector",
           lambda: raw.QuantizeAndDequantizeV3(input=fconst([1.0]), input_min=fconst(-1.0),
                                               input_max=fconst(1.0),
                                               num_bits=hide_rank(g.const([3], "int32")),
                                               name="op"), error=True)


@group
def quant_and_dequant_grad(g):
    def grad(dt, shape, lo, hi, **kw):
        x = g.rand(dt, shape, lo=-3, hi=3)
        return raw.QuantizeAndDequantizeV4Grad(gradients=g.rand(dt, shape), input=x,
                                               input_min=g.const(lo, dt),
                                               input_max=g.const(hi, dt), name="op", **kw)

    for dt in tf_types("QuantizeAndDequantizeV4Grad"):
        g.case(f"QuantizeAndDequantizeV4Grad.{sgname(dt)}.scalar_range",
               lambda: grad(dt, [3, 5], -1.5, 2.0))
        g.case(f"QuantizeAndDequantizeV4Grad.{sgname(dt)}.axis0",
               lambda: grad(dt, [3, 5], [-1.5, -3.0, 0.0], [2.0, 0.5, 3.0], axis=0))
        g.case(f"QuantizeAndDequantizeV4Grad.{sgname(dt)}.axis1_3d",
               lambda: grad(dt, [2, 4, 3], [-1.0, -2.0, 0.0, -3.0], [1.0, 0.5, 2.0, 3.0], axis=1))
    # Inputs on the bounds are inside; NaN is outside.
    g.case("QuantizeAndDequantizeV4Grad.float.bounds_and_nan",
           lambda: raw.QuantizeAndDequantizeV4Grad(
               gradients=g.rand("float32", [6]),
               input=g.const([-1.0, 1.0, -1.0001, 1.0001, float("nan"), 0.0], "float32"),
               input_min=g.const(-1.0, "float32"), input_max=g.const(1.0, "float32"), name="op"))
    g.case("QuantizeAndDequantizeV4Grad.float.last_axis",
           lambda: grad("float32", [2, 3], [-1.0, 0.0, -2.0], [1.0, 2.0, 0.0], axis=1))
    g.case("QuantizeAndDequantizeV4Grad.float.empty",
           lambda: grad("float32", [0, 2], -1.0, 1.0))
    g.case("QuantizeAndDequantizeV4Grad.float.range_not_scalar",
           lambda: raw.QuantizeAndDequantizeV4Grad(
               gradients=g.rand("float32", [2, 3]), input=g.rand("float32", [2, 3]),
               input_min=hide_rank(g.const([-1.0, -1.0], "float32")),
               input_max=hide_rank(g.const([1.0, 1.0], "float32")), name="op"), error=True)
    g.case("QuantizeAndDequantizeV4Grad.float.range_size",
           lambda: raw.QuantizeAndDequantizeV4Grad(
               gradients=g.rand("float32", [2, 3]), input=g.rand("float32", [2, 3]),
               input_min=hide_shape(g.const([-1.0, -1.0], "float32")),
               input_max=hide_shape(g.const([1.0, 1.0], "float32")), axis=1, name="op"),
           error=True)
    g.case("QuantizeAndDequantizeV4Grad.float.shapes_differ",
           lambda: raw.QuantizeAndDequantizeV4Grad(
               gradients=hide_shape(g.rand("float32", [2, 3])),
               input=hide_shape(g.rand("float32", [3, 2])),
               input_min=g.const(-1.0, "float32"), input_max=g.const(1.0, "float32"),
               name="op"), error=True)
