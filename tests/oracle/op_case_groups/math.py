"""Op conformance cases: Element-wise math, casts, reductions, MatMul and Einsum."""

from op_case_lib import *  # noqa: F401,F403


# Shapes every dtype gets, and the extra ones the main dtypes (MAIN_DTYPES) get.
UNARY_SHAPES = [("mat", [2, 3])]
UNARY_SHAPES_MAIN = [("scalar", []), ("empty", [0, 3]), ("vec", [67]), ("rank4", [2, 1, 3, 2])]

# op, input arg name, value range, options.
#   tol: rtol for the float dtypes (transcendental functions: both libraries use Eigen's
#   approximations, but not always the same packet path).
UNARY = [
    ("Abs", "x", (-4, 4), {}),
    ("Ceil", "x", (-4, 4), {}),
    ("Elu", "features", (-4, 4), {"tol": 1e-5}),
    ("Erf", "x", (-4, 4), {"tol": 1e-5}),
    ("Erfc", "x", (-4, 4), {"tol": 1e-5}),
    ("Exp", "x", (-8, 8), {"tol": 1e-5}),
    ("Floor", "x", (-4, 4), {}),
    ("Inv", "x", (-4, 4), {"nonzero": True, "tol": 1e-5}),
    ("IsFinite", "x", (-4, 4), {}),
    ("IsInf", "x", (-4, 4), {}),
    ("IsNan", "x", (-4, 4), {}),
    ("Log", "x", (0.05, 8), {"tol": 1e-5}),
    ("Log1p", "x", (-0.9, 8), {"tol": 1e-5}),
    ("Neg", "x", (-4, 4), {}),
    ("Reciprocal", "x", (-4, 4), {"nonzero": True, "tol": 1e-5}),
    ("Relu", "features", (-4, 4), {}),
    ("Relu6", "features", (-8, 8), {}),
    ("Round", "x", (-4, 4), {}),
    ("Rsqrt", "x", (0.05, 8), {"tol": 1e-5}),
    ("Selu", "features", (-4, 4), {"tol": 1e-5}),
    ("Sigmoid", "x", (-8, 8), {"tol": 1e-5}),
    ("Sign", "x", (-4, 4), {}),
    ("Softplus", "features", (-20, 20), {"tol": 1e-5}),
    ("Sqrt", "x", (0, 8), {"tol": 1e-5}),
    ("Square", "x", (-4, 4), {}),
    ("Tanh", "x", (-5, 5), {"tol": 1e-5}),
    ("LogicalNot", "x", (0, 1), {}),
]


def shapes_for(dt, shapes, main_shapes):
    return shapes + (main_shapes if tf.as_dtype(dt).name in MAIN_DTYPES else [])


@group
def math_unary(g):
    for op, arg, (lo, hi), opt in UNARY:
        f = op_fn(op)
        types = tf_types(op) if op != "LogicalNot" else ["bool"]
        if op == "Round":
            # TensorFlow 2.21's CPU Round returns 0 for every int32 and int64 input (sg returns
            # the input, as earlier TensorFlows did): no case records that.
            types = [d for d in types if not is_int(d)]
        for dt in types:
            for sname, shape in shapes_for(dt, UNARY_SHAPES, UNARY_SHAPES_MAIN):
                g.case(f"{op}.{sgname(dt)}.{sname}",
                       lambda: f(**{arg: g.rand(dt, shape, lo=lo, hi=hi,
                                                nonzero=opt.get("nonzero", False))},
                                 name="op"))
            if is_float(dt) or is_int(dt):
                g.case(f"{op}.{sgname(dt)}.special",
                       lambda: f(**{arg: g.const(special_values(dt), dt)}, name="op"))
    for dt in tf_types("LeakyRelu"):
        for alpha in (0.2, 0.0, 1.5):
            g.case(f"LeakyRelu.{sgname(dt)}.alpha{alpha}",
                   lambda: raw.LeakyRelu(features=g.rand(dt, [2, 3]), alpha=alpha, name="op"))
        g.case(f"LeakyRelu.{sgname(dt)}.special",
               lambda: raw.LeakyRelu(features=g.const(special_values(dt), dt), name="op"))


# (name, x shape, y shape): numpy broadcasting, empty and scalar operands.
BINARY_SHAPES = [("same", [2, 3], [2, 3])]
BINARY_SHAPES_MAIN = [
    ("scalars", [], []), ("scalar_x", [], [2, 3]), ("scalar_y", [2, 3], []),
    ("row", [2, 3], [3]), ("col", [2, 1], [1, 3]), ("rank4", [2, 1, 3, 1], [4, 1, 2]),
    ("vec", [67], [67]), ("empty", [0, 3], [3]), ("empty_bcast", [2, 0], [2, 1]),
]

# op, options: lo/hi (x), ylo/yhi, nonzero y, int_div (integer division by zero fails), tol.
BINARY = [
    ("Add", {}), ("AddV2", {}), ("Sub", {}), ("Mul", {}),
    ("Div", {"nonzero": True, "int_div": True}),
    ("RealDiv", {"nonzero": True}),
    ("FloorDiv", {"nonzero": True, "int_div": True}),
    ("FloorMod", {"nonzero": True, "int_div": True}),
    ("TruncateDiv", {"nonzero": True, "int_div": True}),
    ("TruncateMod", {"nonzero": True, "int_div": True}),
    ("Maximum", {}), ("Minimum", {}),
    ("Pow", {"lo": 0.25, "hi": 3, "ylo": -2, "yhi": 3, "tol": 1e-5}),
    ("SquaredDifference", {}),
    ("Equal", {"lo": -1, "hi": 1}), ("NotEqual", {"lo": -1, "hi": 1}),
    ("Less", {"lo": -1, "hi": 1}), ("LessEqual", {"lo": -1, "hi": 1}),
    ("Greater", {"lo": -1, "hi": 1}), ("GreaterEqual", {"lo": -1, "hi": 1}),
    ("LogicalAnd", {}), ("LogicalOr", {}),
]


@group
def math_binary(g):
    for op, opt in BINARY:
        f = op_fn(op)
        types = tf_types(op) if op not in ("LogicalAnd", "LogicalOr") else ["bool"]
        lo, hi = opt.get("lo", -4), opt.get("hi", 4)
        ylo, yhi = opt.get("ylo", lo), opt.get("yhi", hi)
        if op == "Pow":
            ints = [d for d in types if is_int(d)]
        for dt in types:
            for sname, xs, ys in shapes_for(dt, BINARY_SHAPES, BINARY_SHAPES_MAIN):
                def build(xs=xs, ys=ys):
                    l, h, yl, yh = lo, hi, ylo, yhi
                    if op == "Pow" and not is_float(dt):
                        l, h, yl, yh = -3, 3, 0, 3
                    return f(x=g.rand(dt, xs, lo=l, hi=h),
                             y=g.rand(dt, ys, lo=yl, hi=yh, nonzero=opt.get("nonzero", False)),
                             name="op")
                g.case(f"{op}.{sgname(dt)}.{sname}", build)
            if is_float(dt) or is_int(dt):
                # Every special value against every other one.
                def special():
                    s = special_values(dt)
                    y = s
                    if is_int(dt) and opt.get("int_div"):
                        y = s[(s != 0) & (s != -1)]  # x / 0 fails; INT_MIN / -1 traps
                    if is_int(dt) and op == "Pow":
                        y = np.array([0, 1, 2, 3], dtype=s.dtype)
                    return f(x=g.const(s.reshape(-1, 1), dt), y=g.const(y.reshape(1, -1), dt),
                             name="op")
                g.case(f"{op}.{sgname(dt)}.special", special)
            if opt.get("int_div") and is_int(dt):
                # TensorFlow's TruncateDiv and TruncateMod fail with INTERNAL ("Unexpected error
                # in binary operator"), the others with INVALID_ARGUMENT: sg may say either.
                g.case(f"{op}.{sgname(dt)}.div_by_zero",
                       lambda: f(x=g.rand(dt, [3]), y=g.const([1, 0, 2], dt), name="op"),
                       error="any" if op.startswith("Truncate") else True)
            if op == "Pow" and is_int(dt) and tf.as_dtype(dt).min < 0:
                g.case(f"Pow.{sgname(dt)}.negative_exponent",
                       lambda: f(x=g.const([2, 3], dt), y=g.const([1, -1], dt), name="op"),
                       error=True)
            if op in ("Equal", "NotEqual"):
                g.case(f"{op}.{sgname(dt)}.incompatible",
                       lambda: f(x=g.rand(dt, [2, 3]), y=g.rand(dt, [4]),
                                 incompatible_shape_error=False, name="op"))
    # Integer division rounding on mixed signs, and float modulo signs.
    for op in ("Div", "FloorDiv", "FloorMod", "TruncateDiv", "TruncateMod"):
        for dt in [d for d in ("int32", "int64", "float32", "float64") if d in tf_types(op)]:
            g.case(f"{op}.{sgname(dt)}.signs",
                   lambda: op_fn(op)(x=g.const([7, -7, 7, -7, 6, -6, 0, 1], dt),
                                     y=g.const([2, 2, -2, -2, 3, -3, 5, -4], dt), name="op"))

# Trigonometric and hyperbolic functions: op, value range.
TRIG = [("Sin", (-8, 8)), ("Cos", (-8, 8)), ("Tan", (-1.5, 1.5)), ("Atan", (-8, 8)),
        ("Sinh", (-5, 5)), ("Cosh", (-5, 5))]


@group
def math_trig(g):
    for op, (lo, hi) in TRIG:
        f = op_fn(op)
        for dt in tf_types(op):
            for sname, shape in shapes_for(dt, UNARY_SHAPES, UNARY_SHAPES_MAIN):
                g.case(f"{op}.{sgname(dt)}.{sname}",
                       lambda: f(x=g.rand(dt, shape, lo=lo, hi=hi), name="op"))
            if is_float(dt):
                g.case(f"{op}.{sgname(dt)}.special",
                       lambda: f(x=g.const(special_values(dt), dt), name="op"))
    for dt in tf_types("Atan2"):
        for sname, ys, xs in shapes_for(dt, BINARY_SHAPES, BINARY_SHAPES_MAIN):
            g.case(f"Atan2.{sgname(dt)}.{sname}",
                   lambda: raw.Atan2(y=g.rand(dt, ys), x=g.rand(dt, xs), name="op"))
        # Every quadrant, the axes, signed zeros, infinities and NaN.
        g.case(f"Atan2.{sgname(dt)}.special",
               lambda: raw.Atan2(y=g.const(special_values(dt).reshape(-1, 1), dt),
                                 x=g.const(special_values(dt).reshape(1, -1), dt), name="op"))
    # Shapes that do not broadcast, seen only by the kernel.
    g.case("Atan2.float.incompatible",
           lambda: raw.Atan2(y=hide_shape(g.rand("float32", [2, 3])),
                             x=hide_shape(g.rand("float32", [4])), name="op"), error=True)


@group
def math_unary_extra(g):
    """Softsign and CheckNumericsV2."""
    for dt in tf_types("Softsign"):
        for sname, shape in shapes_for(dt, UNARY_SHAPES, UNARY_SHAPES_MAIN):
            g.case(f"Softsign.{sgname(dt)}.{sname}",
                   lambda: raw.Softsign(features=g.rand(dt, shape, lo=-20, hi=20), name="op"))
        g.case(f"Softsign.{sgname(dt)}.special",
               lambda: raw.Softsign(features=g.const(special_values(dt), dt), name="op"))
    for dt in tf_types("CheckNumericsV2"):
        g.case(f"CheckNumericsV2.{sgname(dt)}.finite",
               lambda: raw.CheckNumericsV2(tensor=g.rand(dt, [2, 3]), message="m", name="op"))
        for sname, v in [("nan", [1.0, np.nan]), ("pos_inf", [np.inf, 2.0]),
                         ("neg_inf", [-np.inf, 0.0]), ("all", [np.nan, np.inf, -np.inf])]:
            g.case(f"CheckNumericsV2.{sgname(dt)}.{sname}",
                   lambda: raw.CheckNumericsV2(tensor=g.const(v, dt), message="m", name="op"),
                   error=True)
    g.case("CheckNumericsV2.float.empty",
           lambda: raw.CheckNumericsV2(tensor=g.rand("float32", [0, 2]), message="", name="op"))


def bit_values(rng, dt, shape):
    """Integers over the whole range of `dt`."""
    info = np.iinfo(tf.as_dtype(dt).as_numpy_dtype)
    return rng.integers(info.min, info.max, size=shape, dtype=info.dtype, endpoint=True)


def shift_amounts(dt):
    """Shift amounts in range, at the width, past it and (signed types) negative."""
    dt = tf.as_dtype(dt)
    bits = dt.size * 8
    v = [0, 1, 3, bits - 1, bits, bits + 1, 2 * bits, dt.max]
    if dt.min < 0:
        v += [-1, -bits, dt.min]
    return np.array(sorted(set(v)), dtype=dt.as_numpy_dtype)


BITWISE_BINARY = ["BitwiseAnd", "BitwiseOr", "BitwiseXor", "LeftShift", "RightShift"]


@group
def math_bitwise(g):
    for op in BITWISE_BINARY:
        f = op_fn(op)
        for dt in tf_types(op):
            shift = op.endswith("Shift")
            for sname, xs, ys in shapes_for(dt, BINARY_SHAPES, BINARY_SHAPES_MAIN):
                def build(xs=xs, ys=ys):
                    x = bit_values(g.rng, dt, xs)
                    if shift:
                        bits = tf.as_dtype(dt).size * 8
                        y = g.rng.integers(0, bits, size=ys).astype(npdtype(dt))
                    else:
                        y = bit_values(g.rng, dt, ys)
                    return f(x=g.const(x, dt), y=g.const(y, dt), name="op")
                g.case(f"{op}.{sgname(dt)}.{sname}", build)
            s = special_values(dt)
            y = shift_amounts(dt) if shift else s
            g.case(f"{op}.{sgname(dt)}.special",
                   lambda: f(x=g.const(s.reshape(-1, 1), dt), y=g.const(y.reshape(1, -1), dt),
                             name="op"))
    for op in ("Invert", "PopulationCount"):
        f = op_fn(op)
        for dt in tf_types(op):
            for sname, shape in shapes_for(dt, UNARY_SHAPES, UNARY_SHAPES_MAIN):
                g.case(f"{op}.{sgname(dt)}.{sname}",
                       lambda: f(x=g.const(bit_values(g.rng, dt, shape), dt), name="op"))
            g.case(f"{op}.{sgname(dt)}.special",
                   lambda: f(x=g.const(special_values(dt), dt), name="op"))
    # Shapes that do not broadcast, seen only by the kernel.
    for op in BITWISE_BINARY:
        g.case(f"{op}.int32.incompatible",
               lambda: op_fn(op)(x=hide_shape(g.const([[1, 2, 3], [4, 5, 6]], "int32")),
                                 y=hide_shape(g.const([1, 2], "int32")), name="op"),
               error=True)


# Binary ops with a guard on a zero operand: op, x range, y range.
BINARY_EXTRA = [
    ("Xdivy", (-4, 4), (-4, 4)), ("Xlogy", (-4, 4), (0.05, 8)), ("Xlog1py", (-4, 4), (-0.9, 8)),
    ("DivNoNan", (-4, 4), (-4, 4)), ("MulNoNan", (-4, 4), (-4, 4)),
]


@group
def math_binary_extra(g):
    for op, (lo, hi), (ylo, yhi) in BINARY_EXTRA:
        f = op_fn(op)
        for dt in tf_types(op):
            for sname, xs, ys in shapes_for(dt, BINARY_SHAPES, BINARY_SHAPES_MAIN):
                def build(xs=xs, ys=ys):
                    x = g.vals(dt, xs, lo=lo, hi=hi)
                    y = g.vals(dt, ys, lo=ylo, hi=yhi)
                    # Zeros on both sides, which the guards are about.
                    if x.size:
                        x.reshape(-1)[0] = 0
                    if y.size > 1:
                        y.reshape(-1)[1] = 0
                    return f(x=g.const(x, dt), y=g.const(y, dt), name="op")
                g.case(f"{op}.{sgname(dt)}.{sname}", build)
            if is_float(dt):
                s = special_values(dt)
                g.case(f"{op}.{sgname(dt)}.special",
                       lambda: f(x=g.const(s.reshape(-1, 1), dt), y=g.const(s.reshape(1, -1), dt),
                                 name="op"))
        g.case(f"{op}.float.incompatible",
               lambda: f(x=hide_shape(g.rand("float32", [2, 3])),
                         y=hide_shape(g.rand("float32", [4])), name="op"), error=True)
    for dt in tf_types("ApproximateEqual"):
        for tol in (None, 0.5, 0.0, 2.0):
            def build(tol=tol):
                # Differences within [-1, 1], one of them tiny.
                x = g.vals(dt, [4, 5])
                y = x + g.vals(dt, [4, 5], lo=-1, hi=1)
                if is_float(dt):
                    y.reshape(-1)[0] = x.reshape(-1)[0] + np.asarray(1e-6, x.dtype)
                kw = {} if tol is None else {"tolerance": tol}
                return raw.ApproximateEqual(x=g.const(x, dt), y=g.const(y, dt), name="op", **kw)
            g.case(f"ApproximateEqual.{sgname(dt)}.tol{tol}", build)
        if is_float(dt):
            s = special_values(dt)
            g.case(f"ApproximateEqual.{sgname(dt)}.special",
                   lambda: raw.ApproximateEqual(
                       x=g.const(np.repeat(s, len(s)).reshape(len(s), len(s)), dt),
                       y=g.const(np.tile(s, len(s)).reshape(len(s), len(s)), dt),
                       tolerance=0.75, name="op"))
        if dt in ("float32", "float64"):
            g.case(f"ApproximateEqual.{sgname(dt)}.scalar",
                   lambda: raw.ApproximateEqual(x=g.const(1.0, dt), y=g.const(1.0 + 1e-6, dt),
                                                name="op"))
            g.case(f"ApproximateEqual.{sgname(dt)}.empty",
                   lambda: raw.ApproximateEqual(x=g.rand(dt, [0, 3]), y=g.rand(dt, [0, 3]),
                                                name="op"))
    # No broadcasting: shapes must be equal.
    g.case("ApproximateEqual.float.shape_mismatch",
           lambda: raw.ApproximateEqual(x=hide_rank(g.rand("float32", [2, 3])),
                                        y=hide_rank(g.rand("float32", [3])), name="op"),
           error=True)


@group
def math_select(g):
    for dt in tf_types("Select", universe=UNIVERSE):
        shapes = [("same", [2, 3], [2, 3])]
        if tf.as_dtype(dt).name in MAIN_DTYPES:
            shapes += [("scalar_cond", [], [2, 3]), ("row_cond", [2], [2, 3]),
                       ("scalars", [], []), ("empty", [0], [0, 3])]
        for sname, cs, xs in shapes:
            g.case(f"Select.{sgname(dt)}.{sname}",
                   lambda: raw.Select(condition=g.rand("bool", cs), x=g.rand(dt, xs),
                                      y=g.rand(dt, xs), name="op"))
    for dt in tf_types("SelectV2"):
        shapes = [("same", [2, 3], [2, 3], [2, 3])]
        if tf.as_dtype(dt).name in MAIN_DTYPES:
            shapes += [("bcast_cond", [3], [2, 3], [2, 3]), ("bcast_all", [2, 1, 1], [1, 3, 1],
                                                             [4]),
                       ("scalar_cond", [], [2, 3], [3]), ("scalars", [], [], []),
                       ("empty", [0, 1], [1, 3], [3])]
        for sname, cs, xs, ys in shapes:
            g.case(f"SelectV2.{sgname(dt)}.{sname}",
                   lambda: raw.SelectV2(condition=g.rand("bool", cs), t=g.rand(dt, xs),
                                        e=g.rand(dt, ys), name="op"))
    for dt in tf_types("ClipByValue"):
        shapes = [("scalar_bounds", [2, 3], []), ("same", [2, 3], [2, 3])]
        if tf.as_dtype(dt).name in MAIN_DTYPES:
            shapes += [("scalar", [], []), ("empty", [0, 2], [])]
        for sname, ts, bs in shapes:
            g.case(f"ClipByValue.{sgname(dt)}.{sname}",
                   lambda: raw.ClipByValue(t=g.rand(dt, ts, lo=-4, hi=4),
                                           clip_value_min=g.rand(dt, bs, lo=-2, hi=0),
                                           clip_value_max=g.rand(dt, bs, lo=1, hi=3), name="op"))
    for dt in tf_types("AddN"):
        for n in (1, 2, 3):
            g.case(f"AddN.{sgname(dt)}.n{n}",
                   lambda: raw.AddN(inputs=[g.rand(dt, [2, 3]) for _ in range(n)], name="op"))
        if tf.as_dtype(dt).name in MAIN_DTYPES:
            g.case(f"AddN.{sgname(dt)}.scalar",
                   lambda: raw.AddN(inputs=[g.rand(dt, []) for _ in range(4)], name="op"))
            g.case(f"AddN.{sgname(dt)}.empty",
                   lambda: raw.AddN(inputs=[g.rand(dt, [0, 2]) for _ in range(2)], name="op"))


@group
def math_misc(g):
    for dt in tf_types("BiasAdd"):
        g.case(f"BiasAdd.{sgname(dt)}.mat",
               lambda: raw.BiasAdd(value=g.rand(dt, [2, 3]), bias=g.rand(dt, [3]), name="op"))
        g.case(f"BiasAddV1.{sgname(dt)}.mat",
               lambda: raw.BiasAddV1(value=g.rand(dt, [2, 3]), bias=g.rand(dt, [3]), name="op"))
        if tf.as_dtype(dt).name in MAIN_DTYPES:
            g.case(f"BiasAdd.{sgname(dt)}.nhwc",
                   lambda: raw.BiasAdd(value=g.rand(dt, [2, 3, 2, 4]), bias=g.rand(dt, [4]),
                                       name="op"))
            g.case(f"BiasAdd.{sgname(dt)}.nchw",
                   lambda: raw.BiasAdd(value=g.rand(dt, [2, 3, 2, 4]), bias=g.rand(dt, [3]),
                                       data_format="NCHW", name="op"))
            g.case(f"BiasAdd.{sgname(dt)}.nchw_rank3",
                   lambda: raw.BiasAdd(value=g.rand(dt, [2, 3, 4]), bias=g.rand(dt, [3]),
                                       data_format="NCHW", name="op"))
            g.case(f"BiasAdd.{sgname(dt)}.empty",
                   lambda: raw.BiasAdd(value=g.rand(dt, [0, 3]), bias=g.rand(dt, [3]),
                                       name="op"))
    for op in ("Cumsum", "Cumprod"):
        for dt in tf_types(op):
            g.case(f"{op}.{sgname(dt)}.mat",
                   lambda: op_fn(op)(x=g.rand(dt, [3, 4], lo=-2, hi=2), axis=g.const(1, "int32"),
                                     name="op"))
            if tf.as_dtype(dt).name not in MAIN_DTYPES:
                continue
            for ex in (False, True):
                for rev in (False, True):
                    for axis in (0, -1):
                        g.case(f"{op}.{sgname(dt)}.ex{int(ex)}_rev{int(rev)}_axis{axis}",
                               lambda: op_fn(op)(x=g.rand(dt, [2, 3, 4], lo=-2, hi=2),
                                                 axis=g.const(axis, "int64"), exclusive=ex,
                                                 reverse=rev, name="op"))
            g.case(f"{op}.{sgname(dt)}.empty",
                   lambda: op_fn(op)(x=g.rand(dt, [0, 3]), axis=g.const(0, "int32"), name="op"))
            g.case(f"{op}.{sgname(dt)}.vec",
                   lambda: op_fn(op)(x=g.rand(dt, [67], lo=0.5, hi=1.5), axis=g.const(0, "int32"),
                                     name="op"))
    for op in ("Softmax", "LogSoftmax"):
        for dt in tf_types(op):
            g.case(f"{op}.{sgname(dt)}.mat",
                   lambda: op_fn(op)(logits=g.rand(dt, [3, 5]), name="op"))
            if tf.as_dtype(dt).name in MAIN_DTYPES:
                g.case(f"{op}.{sgname(dt)}.vec",
                       lambda: op_fn(op)(logits=g.rand(dt, [7], lo=-50, hi=50), name="op"))
                g.case(f"{op}.{sgname(dt)}.rank3",
                       lambda: op_fn(op)(logits=g.rand(dt, [2, 3, 4]), name="op"))
                g.case(f"{op}.{sgname(dt)}.empty",
                       lambda: op_fn(op)(logits=g.rand(dt, [0, 4]), name="op"))
                g.case(f"{op}.{sgname(dt)}.large",
                       lambda: op_fn(op)(logits=g.const([[1000, 999, -1000], [0, 0, 0]], dt),
                                         name="op"))
    for op in ("ArgMax", "ArgMin"):
        for dt in tf_types(op):
            for ot in ("int64", "int32"):
                g.case(f"{op}.{sgname(dt)}.axis0_{ot}",
                       lambda: op_fn(op)(input=g.rand(dt, [3, 4], lo=-2, hi=2),
                                         dimension=g.const(0, "int32"), output_type=ot,
                                         name="op"))
            if tf.as_dtype(dt).name in MAIN_DTYPES:
                g.case(f"{op}.{sgname(dt)}.axis_neg",
                       lambda: op_fn(op)(input=g.rand(dt, [2, 3, 4], lo=-2, hi=2),
                                         dimension=g.const(-1, "int64"), name="op"))
                g.case(f"{op}.{sgname(dt)}.vec",
                       lambda: op_fn(op)(input=g.rand(dt, [67]),
                                         dimension=g.const(0, "int32"), name="op"))
                g.case(f"{op}.{sgname(dt)}.empty_outer",
                       lambda: op_fn(op)(input=g.rand(dt, [0, 3]),
                                         dimension=g.const(1, "int32"), name="op"))
                g.case(f"{op}.{sgname(dt)}.empty_axis",
                       lambda: op_fn(op)(input=g.rand(dt, [3, 0]),
                                         dimension=g.const(1, "int32"), name="op"), error=True)
            if is_float(dt):
                g.case(f"{op}.{sgname(dt)}.special",
                       lambda: op_fn(op)(input=g.const(special_values(dt).reshape(4, 4), dt),
                                         dimension=g.const(1, "int32"), name="op"))
    for dt in [d for d in tf_types("Range", "Tidx") if d != "float16"]:  # no half shape fn
        for sname, (a, b, d) in [("up", (1, 10, 3)), ("down", (10, 1, -2)), ("empty", (3, 3, 1)),
                                 ("frac", (0.5, 3.0, 0.75))]:
            if sname == "down" and tf.as_dtype(dt).is_unsigned:
                continue
            if sname == "frac" and not is_float(dt):
                continue
            g.case(f"Range.{sgname(dt)}.{sname}",
                   lambda: raw.Range(start=g.const(a, dt), limit=g.const(b, dt),
                                     delta=g.const(d, dt), name="op"))
    g.case("Range.int32.zero_delta",
           lambda: raw.Range(start=g.const(0, "int32"), limit=g.const(3, "int32"),
                             delta=hide_shape(g.const(0, "int32")), name="op"), error=True)


CAST_VALUES = [0, 1, 2.5, 3.75, 100.25, 127]


def cast_values(src, dst):
    v = list(CAST_VALUES)
    signed = lambda d: not tf.as_dtype(d).is_unsigned and tf.as_dtype(d) != tf.bool
    if signed(src) and signed(dst):
        v += [-1, -2.5, -100.75, -128]
    if tf.as_dtype(src) == tf.bool:
        return np.array([True, False, True], dtype=bool)
    out = np.array(v, dtype=np.float64)
    if is_complex(src):
        out = out + 1j * np.array(v[::-1], dtype=np.float64)
    return out.astype(npdtype(src))


@group
def math_cast(g):
    types = [d for d in UNIVERSE if d != "string"]
    for src in types:
        for dst in types:
            if src == dst and src not in MAIN_DTYPES:
                continue
            # The dtype in the name is the complex one when there is one, so a kernel without
            # complex types lists one gap per complex dtype.
            name = (f"Cast.{sgname(dst)}.from_{sgname(src)}" if is_complex(dst) and
                    not is_complex(src) else f"Cast.{sgname(src)}.to_{sgname(dst)}")
            g.case(name, lambda: raw.Cast(x=g.const(cast_values(src, dst), src), DstT=dst,
                                          name="op"), rtol=0, atol=0)
    # Rounding to the narrow floats: to nearest even, or truncation with Truncate.
    v = np.array([1.0 + 2.0**-9, 1.0 + 3 * 2.0**-9, 1.0 - 2.0**-12, 3.14159265, -2.71828, 1e-6,
                  65519.0, 65520.0, 1e38, 1.0 + 2.0**-30, -(1.0 + 3 * 2.0**-25), np.nan, -np.inf],
                 dtype=np.float64)
    for src, dst in (("float32", "float16"), ("float32", "bfloat16"), ("float64", "float16"),
                     ("float64", "bfloat16"), ("float64", "float32")):
        if True:
            for trunc in (False, True):
                g.case(f"Cast.{sgname(src)}.to_{sgname(dst)}_rounding{'_truncate' * trunc}",
                       lambda: raw.Cast(x=g.const(v, src), DstT=dst, Truncate=trunc, name="op"),
                       rtol=0, atol=0)
    # Floats to integers: signed zeros and halves (truncation). NaN, infinities and values out of
    # the integer's range are undefined in C++, and TensorFlow's results for them depend on the
    # tensor's length (Eigen's vectorized path saturates where its scalar path wraps): no case.
    zh = np.array([0.0, -0.0, 0.5, -0.5, 1.5, 2.5, 0.999, 126.9], dtype=np.float64)
    for src in ("float32", "float64", "float16", "bfloat16"):
        for dst in INTS:
            x = zh if not tf.as_dtype(dst).is_unsigned else np.abs(zh)
            g.case(f"Cast.{sgname(src)}.to_{sgname(dst)}_halves",
                   lambda: raw.Cast(x=g.const(x, src), DstT=dst, name="op"), rtol=0, atol=0)
    # Wide integers to narrow floats: rounding, and the extremes.
    for src in ("int64", "uint64", "int32", "uint32"):
        for dst in ("float32", "float64", "float16", "bfloat16"):
            x = np.concatenate([special_values(src), np.array([2**24 + 1, 2**24 + 3, 65519, 65520,
                                                                2049, 2051], dtype=npdtype(src))])
            g.case(f"Cast.{sgname(src)}.to_{sgname(dst)}_special",
                   lambda: raw.Cast(x=g.const(x, src), DstT=dst, name="op"), rtol=0, atol=0)
    for src in FLOATS:
        for dst in FLOATS:
            if src != dst:
                g.case(f"Cast.{sgname(src)}.to_{sgname(dst)}_special",
                       lambda: raw.Cast(x=g.const(special_values(src), src), DstT=dst,
                                        name="op"), rtol=0, atol=0)
    for dt in ("float32", "int32", "bool"):
        for sname, shape in (("scalar", []), ("empty", [0, 2])):
            g.case(f"Cast.{sgname(dt)}.to_double_{sname}",
                   lambda: raw.Cast(x=g.rand(dt, shape), DstT="float64", name="op"),
                   rtol=0, atol=0)


# Reductions: (name, input shape, axes, keep_dims).
REDUCE_SHAPES = [
    ("axis1", [3, 4], [1], False), ("axis0_keep", [3, 4], [0], True),
]
REDUCE_SHAPES_MAIN = [
    ("all_axes", [2, 3, 4], [0, 1, 2], False), ("neg_axis", [2, 3, 4], [-1], False),
    ("two_axes_keep", [2, 3, 4], [0, 2], True), ("no_axes", [2, 3], [], False),
    ("scalar_axis", [2, 3], 1, False), ("scalar_in", [], [], False),
    ("empty_in", [0, 3], [0], False), ("empty_in_keep", [0, 3], [0, 1], True),
    ("empty_out", [0, 3], [1], False), ("vec", [67], [0], False),
    ("large", [3, 300], [1], False), ("large_inner", [300, 3], [0], False),
]


@group
def math_reduce(g):
    for op in ("Sum", "Prod", "Mean", "Max", "Min", "All", "Any"):
        types = tf_types(op) if op not in ("All", "Any") else ["bool"]
        for dt in types:
            for sname, shape, axes, keep in shapes_for(dt, REDUCE_SHAPES, REDUCE_SHAPES_MAIN):
                lo, hi = (0.5, 1.5) if op == "Prod" else (-4, 4)
                if op == "Prod" and not is_float(dt):
                    lo, hi = (1, 2)
                for tidx in (("int32", "int64") if sname == "axis1" else ("int32",)):
                    tag = f".{tidx}" if sname == "axis1" else ""
                    g.case(f"{op}.{sgname(dt)}.{sname}{tag}",
                           lambda: op_fn(op)(input=g.rand(dt, shape, lo=lo, hi=hi),
                                             axis=g.const(axes, tidx), keep_dims=keep,
                                             name="op"))
            if is_float(dt) and op not in ("All", "Any"):
                g.case(f"{op}.{sgname(dt)}.special",
                       lambda: op_fn(op)(input=g.const(special_values(dt).reshape(4, 4), dt),
                                         axis=g.const([1], "int32"), name="op"))
            if op == "Sum" and tf.as_dtype(dt).name in MAIN_DTYPES:
                g.case(f"Sum.{sgname(dt)}.bad_axis",
                       lambda: raw.Sum(input=g.rand(dt, [2, 3]),
                                       axis=hide_shape(g.const([2], "int32")), name="op"),
                       error=True)
                g.case(f"Sum.{sgname(dt)}.repeated_axis",
                       lambda: raw.Sum(input=g.rand(dt, [2, 3]), axis=g.const([1, -1], "int32"),
                                       name="op"), error=True)


@group
def matmul(g):
    for dt in tf_types("MatMul"):
        for ta in (False, True):
            for tb in (False, True):
                a = [4, 3] if ta else [3, 4]
                b = [5, 4] if tb else [4, 5]
                g.case(f"MatMul.{sgname(dt)}.t{int(ta)}{int(tb)}",
                       lambda: raw.MatMul(a=g.rand(dt, a, lo=-2, hi=2),
                                          b=g.rand(dt, b, lo=-2, hi=2),
                                          transpose_a=ta, transpose_b=tb, name="op"))
        if tf.as_dtype(dt).name in MAIN_DTYPES:
            for sname, a, b in [("k0", [2, 0], [0, 3]), ("m0", [0, 3], [3, 2]),
                                ("vecs", [1, 5], [5, 1]), ("large", [17, 33], [33, 9])]:
                g.case(f"MatMul.{sgname(dt)}.{sname}",
                       lambda: raw.MatMul(a=g.rand(dt, a, lo=-2, hi=2),
                                          b=g.rand(dt, b, lo=-2, hi=2), name="op"))
    for op in ("BatchMatMul", "BatchMatMulV2"):
        for dt in tf_types(op):
            for ax in (False, True):
                for ay in (False, True):
                    x = [2, 4, 3] if ax else [2, 3, 4]
                    y = [2, 5, 4] if ay else [2, 4, 5]
                    g.case(f"{op}.{sgname(dt)}.adj{int(ax)}{int(ay)}",
                           lambda: op_fn(op)(x=g.rand(dt, x, lo=-2, hi=2),
                                             y=g.rand(dt, y, lo=-2, hi=2),
                                             adj_x=ax, adj_y=ay, name="op"))
            if tf.as_dtype(dt).name not in MAIN_DTYPES:
                continue
            shapes = [("rank2", [3, 4], [4, 2]), ("rank4", [2, 3, 2, 4], [2, 3, 4, 2]),
                      ("empty_batch", [0, 2, 3], [0, 3, 2]), ("k0", [2, 2, 0], [2, 0, 3])]
            if op == "BatchMatMulV2":
                shapes += [("bcast", [2, 1, 2, 3], [3, 3, 4]), ("bcast_rank2", [3, 4], [2, 4, 3]),
                           ("bcast_empty", [0, 2, 3], [1, 3, 2])]
            for sname, x, y in shapes:
                g.case(f"{op}.{sgname(dt)}.{sname}",
                       lambda: op_fn(op)(x=g.rand(dt, x, lo=-2, hi=2),
                                         y=g.rand(dt, y, lo=-2, hi=2), name="op"))
# name, equation, input shapes: products, transposes, diagonals, sums, broadcasting ellipses.
EINSUM_CASES = [
    ("matmul", "ij,jk->ik", [[3, 4], [4, 5]]),
    ("matmul_ta", "ji,jk->ik", [[4, 3], [4, 5]]),
    ("matmul_tb", "ij,kj->ik", [[3, 4], [5, 4]]),
    ("matmul_out_t", "ij,jk->ki", [[3, 4], [4, 5]]),
    ("batch", "bij,bjk->bik", [[2, 3, 4], [2, 4, 5]]),
    ("dense", "abc,cd->abd", [[2, 3, 4], [4, 5]]),
    ("dense_heads", "abc,cde->abde", [[2, 3, 4], [4, 2, 3]]),
    ("attn_scores", "aecd,abcd->acbe", [[2, 3, 2, 4], [2, 5, 2, 4]]),
    ("attn_values", "acbe,aecd->abcd", [[2, 2, 5, 3], [2, 3, 2, 4]]),
    ("attn_out", "abcd,cde->abe", [[2, 3, 2, 4], [2, 4, 5]]),
    ("outer", "i,j->ij", [[3], [4]]),
    ("dot", "i,i->", [[5], [5]]),
    ("hadamard", "ij,ij->ij", [[3, 4], [3, 4]]),
    ("sum_one_side", "ij,jk->k", [[3, 4], [4, 5]]),
    ("diag_in_product", "iij,jk->ik", [[3, 3, 4], [4, 2]]),
    ("transpose", "ijk->kij", [[2, 3, 4]]),
    ("diag", "ii->i", [[4, 4]]),
    ("trace", "ii->", [[4, 4]]),
    ("sum_all", "ij->", [[3, 4]]),
    ("sum_axis", "ijk->ik", [[2, 3, 4]]),
    ("identity", "ij->ij", [[3, 4]]),
    ("ellipsis_matmul", "...ij,...jk->...ik", [[2, 1, 2, 3], [4, 3, 2]]),
    ("ellipsis_mid", "i...j,j...->i...", [[2, 3, 4], [4, 3]]),
    ("ellipsis_unary", "...ij->...ji", [[2, 3, 4]]),
    ("ellipsis_bcast", "...i,...i->...i", [[2, 1, 3], [4, 3]]),
    ("ellipsis_empty", "...ij,...jk->...ik", [[3, 4], [4, 2]]),
    ("scalar_times", ",ij->ij", [[], [2, 3]]),
    ("empty_m", "ij,jk->ik", [[0, 3], [3, 2]]),
    ("empty_k", "ij,jk->ik", [[2, 0], [0, 3]]),
    ("empty_sum", "ij->i", [[3, 0]]),
    ("upper_labels", "aB,BC->aC", [[2, 3], [3, 4]]),
    # A label repeated in the output: its values on the diagonal (Einsum's gradient uses these).
    ("inflate", "i->ii", [[3]]),
    ("inflate_product", "ij,jk->iik", [[2, 3], [3, 4]]),
    ("inflate_ellipsis", "...i->...ii", [[2, 3]]),
]


@group
def einsum(g):
    for dt in tf_types("Einsum", universe=[d for d in UNIVERSE if d not in ("bool", "string")]):
        main = tf.as_dtype(dt).name in MAIN_DTYPES
        for sname, eq, shapes in EINSUM_CASES:
            if not main and sname not in ("matmul", "batch", "attn_scores", "trace", "inflate"):
                continue
            tol = 1e-2 if dt in ("float16", "bfloat16") else None
            g.case(f"Einsum.{sgname(dt)}.{sname}",
                   lambda: raw.Einsum(inputs=[g.rand(dt, s, lo=-2, hi=2) for s in shapes],
                                      equation=eq, name="op"), rtol=tol, atol=tol)
    # Errors at run time (shapes hidden from the shape function). An ellipsis that covers dims of
    # an input and is not in the output is a shape function error in TensorFlow: no case.
    for sname, eq, shapes in [("k_mismatch", "ij,jk->ik", [[2, 3], [4, 2]]),
                              ("diag_mismatch", "ii->i", [[2, 3]]),
                              ("bcast_mismatch", "...i,...i->...i", [[2, 3], [4, 3]])]:
        g.case(f"Einsum.float32.{sname}",
               lambda: raw.Einsum(inputs=[hide_shape(g.rand("float32", s)) for s in shapes],
                                  equation=eq, name="op"), error=True)
