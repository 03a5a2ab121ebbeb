#!/usr/bin/env python3
"""Writes the op conformance cases: TensorFlow 2.21's results for every op sg registers.

    PY=$(tests/oracle/setup_venv.sh)
    $PY tests/oracle/make_op_cases.py                 # every group, into tests/oracle/op_cases/
    $PY tests/oracle/make_op_cases.py --only math_unary array_shape

A case is a handful of nodes that TensorFlow builds in a tf.compat.v1 Graph, mostly one op from
tf.raw_ops on Const inputs, so each NodeDef is exactly what TensorFlow writes (every attr, defaults
included). TensorFlow runs each case (its graph optimizations off, so the kernels compute) and the
outputs are stored beside the case as Consts. Each group of cases becomes one binary GraphDef,
`op_cases/<group>.pb.gz` (gzip keeps the repository small):

  * every node of case C is named `C/...`; a case name has no '/' and reads `Op.dtype.variant`
    (the dtype part, sg's spelling of the dtype under test, is absent when there is none);
  * `C/_expect<i>` is a Const holding the expected value of the tensor named by its attr
    `_fetch` (a string). Optional attrs on it: `_rtol`, `_atol` (floats: a tolerance other than
    the dtype's default), `_check` ("value" by default; "range": dtype, shape and every element
    in [`_lo`, `_hi`] only, for unseeded random ops; "moments": also mean and standard deviation
    within `_atol` of `_mean` and `_std`), `_error` (an int: the run must fail with this error
    code, or with any when it is -1; the Const's value is then unused), `_targets` (a list of
    node names the run also runs);
  * `C/_feed<i>` is a Const whose value is fed to the tensor named by its attr `_feed`; in a
    string feed, `${TMP}` stands for a directory the test makes for the case;
  * `C/_file<i>` is a string Const whose value is written, before the case runs, to the file
    `${TMP}/<_path>` (its attr `_path`), for ops that read files (a lookup table's vocabulary).
The graph's function library holds the functions the cases call.

tests/core/op_conformance_test.cc runs each case in a DirectSession and compares; it also fails
when an op sg registers has no case and is not in its exclusion list. A dtype that TensorFlow's
OpDef allows and its CPU kernel runs gets cases whether or not sg's kernel has it; the test keeps
the list of dtypes sg's kernels lack. Cases that TensorFlow itself cannot run (no CPU kernel for
the dtype) are dropped and counted. The inputs come from a generator seeded by each case's name,
so the output is the same on every run: regenerate after adding an op or a case, and commit
`op_cases/`.
"""

import argparse
import collections
import ctypes
import gzip
import os
import sys
import zlib

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
OUT_DIR = os.path.join(HERE, "op_cases")

tf = None  # imported in main(): the import is slow and --help should not wait for it
attr_value_pb2 = None
op_def_registry = None
raw = None

# ---- dtypes --------------------------------------------------------------------------------

# Every dtype a sg tensor can hold by value, in the order cases are written.
UNIVERSE = ["float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64",
            "uint8", "uint16", "uint32", "uint64", "bool", "string", "complex64", "complex128"]
# sg's (and TensorFlow's DataTypeString) spelling, used in case names.
SG_NAME = {"float32": "float", "float64": "double", "float16": "half"}

FLOATS = ["float32", "float64", "float16", "bfloat16"]
INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
COMPLEX = ["complex64", "complex128"]


def sgname(dt):
    dt = tf.as_dtype(dt).name
    return SG_NAME.get(dt, dt)


def npdtype(dt):
    dt = tf.as_dtype(dt)
    if dt == tf.string:
        return object
    return dt.as_numpy_dtype


def is_float(dt):
    return tf.as_dtype(dt).name in FLOATS


def is_int(dt):
    return tf.as_dtype(dt).name in INTS


def is_complex(dt):
    return tf.as_dtype(dt).name in COMPLEX


def tf_types(op, attr="T", universe=UNIVERSE):
    """The dtypes of `universe` that TensorFlow's OpDef of `op` allows for type attr `attr`."""
    opdef = op_def_registry.get(op)
    for a in opdef.attr:
        if a.name == attr:
            if not a.HasField("allowed_values"):
                return list(universe)
            allowed = set(a.allowed_values.list.type)
            return [d for d in universe if tf.as_dtype(d).as_datatype_enum in allowed]
    raise KeyError(f"{op} has no attr {attr}")


# ---- values --------------------------------------------------------------------------------

WORDS = [b"", b"a", b"bc", b"hello", b"sg", b"x y", b"\xc3\xa9t\xc3\xa9", b"TF", b"42"]


def values(rng, dt, shape, lo=-4.0, hi=4.0, nonzero=False):
    """A numpy array of dtype `dt`: floats uniform in [lo, hi) at 1/64 steps (exact in every float
    type), ints uniform in [lo, hi] clipped to the type, bools, short strings, complex numbers."""
    dt = tf.as_dtype(dt)
    shape = tuple(shape)
    if dt == tf.string:
        idx = rng.integers(0, len(WORDS), shape)
        out = np.empty(shape, dtype=object)
        for i, j in np.ndenumerate(idx):
            out[i] = WORDS[j]
        return out
    if dt == tf.bool:
        return rng.random(shape) < 0.5
    if is_int(dt):
        info = np.iinfo(dt.as_numpy_dtype)
        a, b = max(int(lo), info.min), min(int(hi), info.max)
        v = np.asarray(rng.integers(a, b + 1, shape))
        if nonzero:
            v[v == 0] = 1 if b >= 1 else -1
        return v.astype(dt.as_numpy_dtype)
    v = np.asarray(np.round(rng.uniform(lo, hi, shape) * 64) / 64)
    if is_complex(dt):
        v = v + 1j * (np.round(rng.uniform(lo, hi, shape) * 64) / 64)
    if nonzero:
        v[np.abs(v) < 0.25] = 0.5
    return np.asarray(v).astype(npdtype(dt))


def special_values(dt):
    """Edge values of a float or int dtype: signed zeros, infinities, NaN, halves, extremes."""
    dt = tf.as_dtype(dt)
    if is_int(dt):
        info = np.iinfo(dt.as_numpy_dtype)
        v = sorted({info.min, info.min + 1, -1 if info.min < 0 else 2, 0, 1, info.max - 1,
                    info.max})
        return np.array(v, dtype=dt.as_numpy_dtype)
    v = [np.nan, np.inf, -np.inf, 0.0, -0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 1e-3, -1e-3, 7.0, -7.0,
         60.0, -60.0]
    return np.array(v, dtype=np.float64).astype(npdtype(dt))


# ---- cases ---------------------------------------------------------------------------------


def hide_shape(t):
    """`t` behind a PlaceholderWithDefault of unknown shape: TensorFlow's shape functions then
    cannot see its value, and an error the kernel raises at run time reaches the run."""
    return tf.compat.v1.placeholder_with_default(t, [None] * len(t.shape))


def hide_rank(t):
    """As hide_shape, and the rank unknown too (for a kernel's own rank checks)."""
    return tf.compat.v1.placeholder_with_default(t, None)


class Out:
    """A fetched tensor with how to compare it (see the module docstring)."""

    def __init__(self, t, rtol=None, atol=None, check=None, lo=None, hi=None, mean=None,
                 std=None):
        self.t, self.rtol, self.atol, self.check = t, rtol, atol, check
        self.lo, self.hi, self.mean, self.std = lo, hi, mean, std


class Case:
    def __init__(self, name, error):
        self.name = name
        self.error = error
        self.graph = tf.Graph()  # a graph per case: TensorFlow places a whole graph at once
        self.outs = []
        self.targets = []
        self.feeds = []  # (tensor, value)
        self.files = []  # (path under ${TMP}, bytes)


class Group:
    """The cases of one op_cases/<name>.pb."""

    def __init__(self, name):
        self.name = name
        self.cases = []
        self.failed = []  # cases whose graph could not be built or run
        self.cur = None
        self.rng = None

    def case(self, name, build, error=False, rtol=None, atol=None, rename=None, edit=None):
        """Builds case `name`: build() returns a tensor, an Out, an Operation (a target) or a
        list of them. error=True: TensorFlow's run fails and sg's must fail with the same code;
        error="any": with any code. rename={"node": "Op"}: the stored NodeDef of node `name/node`
        gets op type Op (an op TensorFlow no longer builds, run here as its successor).
        edit(graph_def, name): rewrites the case's stored GraphDef after TensorFlow ran it (an
        op TensorFlow cannot run, stored in place of the one it ran).
        rtol/atol apply to every output that does not set its own."""
        assert "/" not in name and name not in {c.name for c in self.cases}, name
        self.cur = Case(name, error)
        self.cur.rename = rename or {}
        self.cur.edit = edit
        self.rng = np.random.default_rng(zlib.crc32(name.encode()))
        try:
            with self.cur.graph.as_default(), tf.compat.v1.name_scope(name + "/"):
                res = build()
        except Exception as e:  # a mistake in the case: report it, carry on with the others
            self.failed.append(f"{name}: {type(e).__name__}: {str(e)[:400]}")
            self.cur = None
            return
        def flatten(r):
            return [y for x in r for y in flatten(x)] if isinstance(r, (list, tuple)) else [r]
        for r in flatten(res):
            if isinstance(r, tf.Operation):
                self.cur.targets.append(r)
            elif isinstance(r, Out):
                self.cur.outs.append(r)
            else:
                self.cur.outs.append(Out(r))
        for o in self.cur.outs:
            o.rtol = o.rtol if o.rtol is not None else rtol
            o.atol = o.atol if o.atol is not None else atol
        self.cases.append(self.cur)
        self.cur = None

    def feed(self, tensor, value):
        self.cur.feeds.append((tensor, value))

    def file(self, path, contents):
        """Writes `contents` to ${TMP}/`path` before the case runs; returns that path."""
        self.cur.files.append((path, contents))
        return "${TMP}/" + path

    def vals(self, dt, shape, **kw):
        return values(self.rng, dt, shape, **kw)

    def const(self, value, dt=None, name=None):
        if dt is not None:
            value = np.asarray(value).astype(npdtype(dt)) if tf.as_dtype(dt) != tf.string \
                else np.asarray(value, dtype=object)
        return tf.constant(value, dtype=dt, name=name)

    def rand(self, dt, shape, name=None, **kw):
        return self.const(self.vals(dt, shape, **kw), dt, name=name)


def session_config():
    # No Grappler and no constant folding: TensorFlow's kernels compute every output (a rewrite
    # such as x / c -> x * (1 / c) would change the last bits).
    cfg = tf.compat.v1.ConfigProto()
    cfg.graph_options.rewrite_options.disable_meta_optimizer = True
    cfg.graph_options.optimizer_options.opt_level = tf.compat.v1.OptimizerOptions.L0
    cfg.graph_options.optimizer_options.do_constant_folding = False
    cfg.intra_op_parallelism_threads = 1
    cfg.inter_op_parallelism_threads = 2
    return cfg


def make_const_node(node, value, dtype, shape=None):
    node.op = "Const"
    node.attr["dtype"].type = dtype.as_datatype_enum
    node.attr["value"].tensor.CopyFrom(tf.make_tensor_proto(value, dtype, shape=shape))


Stats = collections.namedtuple("Stats", "cases dropped")


def run_case(c, tmpdir):
    """Runs case `c` in TensorFlow: (outputs, error code); None when TensorFlow has no kernel."""
    feed_dict = {}
    for t, v in c.feeds:
        if isinstance(v, np.ndarray) and v.dtype == object:
            v = np.vectorize(lambda s: s.replace(b"${TMP}", tmpdir.encode()), otypes=[object])(v)
        elif isinstance(v, bytes):
            v = v.replace(b"${TMP}", tmpdir.encode())
        feed_dict[t] = v
    for path, contents in c.files:
        with open(os.path.join(tmpdir, path), "wb") as f:
            f.write(contents)
    opts = tf.compat.v1.RunOptions(timeout_in_ms=60000)
    with tf.compat.v1.Session(graph=c.graph, config=session_config()) as sess:
        try:
            res = sess.run([[o.t for o in c.outs], c.targets], feed_dict=feed_dict, options=opts)
            err = None
        except tf.errors.OpError as e:
            if "No OpKernel was registered" in e.message or (
                    not c.error and e.error_code == tf.errors.UNIMPLEMENTED):
                if os.environ.get("SG_CASES_VERBOSE"):
                    print(f"  {c.name}: {e.message[:600]}")
                return None
            if not c.error:
                raise RuntimeError(f"case {c.name}: TensorFlow failed: {e.message}") from e
            return [], e.error_code
    if c.error:
        raise RuntimeError(f"case {c.name}: TensorFlow did not fail")
    return res[0], None


def rename_functions(gdef, prefix):
    """Names the library's functions `prefix_0`, `prefix_1` ... in order: TensorFlow numbers them
    with a process-wide counter, which would make the file depend on the groups run before."""
    import re

    def creation_order(f):  # TensorFlow's names end in the counter: __inference_f_123
        m = re.search(r"_(\d+)$", f.signature.name)
        return (int(m.group(1)) if m else -1, f.signature.name)
    ordered = sorted(gdef.library.function, key=creation_order)
    names = {f.signature.name: f"{prefix}_{i}" for i, f in enumerate(ordered)}

    def fix_attr(v):
        if v.HasField("func") and v.func.name in names:
            v.func.name = names[v.func.name]
        for f in v.list.func:
            if f.name in names:
                f.name = names[f.name]
        for a in v.func.attr.values():
            fix_attr(a)

    def fix_nodes(nodes):
        for n in nodes:
            if n.op in names:
                n.op = names[n.op]
            for v in n.attr.values():
                fix_attr(v)
    fix_nodes(gdef.node)
    for f in gdef.library.function:
        f.signature.name = names[f.signature.name]
        fix_nodes(f.node_def)
        for v in f.attr.values():
            fix_attr(v)
    gdef.library.function.sort(key=lambda f: f.signature.name)
    for grad in gdef.library.gradient:
        grad.function_name = names.get(grad.function_name, grad.function_name)
        grad.gradient_func = names.get(grad.gradient_func, grad.gradient_func)


def run_group(group, tmpdir):
    """Runs each case in TensorFlow; returns the GraphDef with the expectations and the stats."""
    gdef = None
    functions = set()
    kept, dropped = 0, []
    for c in group.cases:
        try:
            ran = run_case(c, tmpdir)
        except RuntimeError as e:
            group.failed.append(str(e)[:600])
            continue
        if ran is None:
            dropped.append(c.name)
            continue
        res, err = ran
        kept += 1
        cdef = c.graph.as_graph_def()
        rename_functions(cdef, c.name.replace(".", "_"))
        if gdef is None:
            gdef = tf.compat.v1.GraphDef()
            gdef.versions.CopyFrom(cdef.versions)
        for n in cdef.node:
            suffix = n.name[len(c.name) + 1:]
            if suffix in c.rename:
                n.op = c.rename[suffix]
        if c.edit is not None:
            c.edit(cdef, c.name)
        gdef.node.extend(cdef.node)
        for fdef in cdef.library.function:
            if fdef.signature.name not in functions:
                functions.add(fdef.signature.name)
                gdef.library.function.add().CopyFrom(fdef)
        for i, o in enumerate(c.outs):
            n = gdef.node.add()
            n.name = f"{c.name}/_expect{i}"
            dt = o.t.dtype.base_dtype
            if err is not None:
                make_const_node(n, np.zeros([], np.int32), tf.int32)
                n.attr["_error"].i = -1 if c.error == "any" else err
            elif o.check in ("range", "moments"):
                make_const_node(n, np.zeros([], npdtype(dt)) if dt != tf.string else b"", dt,
                                shape=list(np.shape(res[i])))
            elif dt == tf.string:
                # An object array: np.asarray(b"..\0") would be a NUL-padded 'S' scalar, which
                # drops the string's trailing NUL bytes.
                make_const_node(n, np.asarray(res[i], dtype=object), dt)
            else:
                make_const_node(n, np.asarray(res[i]), dt)
            n.attr["_fetch"].s = o.t.name.encode()
            for k in ("rtol", "atol", "lo", "hi", "mean", "std"):
                v = getattr(o, k)
                if v is not None:
                    n.attr["_" + k].f = v
            if o.check:
                n.attr["_check"].s = o.check.encode()
            if i == 0 and c.targets:
                n.attr["_targets"].list.s.extend(op.name.encode() for op in c.targets)
        for i, (t, v) in enumerate(c.feeds):
            n = gdef.node.add()
            n.name = f"{c.name}/_feed{i}"
            make_const_node(n, v, t.dtype.base_dtype)
            n.attr["_feed"].s = t.name.encode()
        for i, (path, contents) in enumerate(c.files):
            n = gdef.node.add()
            n.name = f"{c.name}/_file{i}"
            make_const_node(n, contents, tf.string)
            n.attr["_path"].s = path.encode()
    if gdef is None:
        gdef = tf.compat.v1.GraphDef()
    return gdef, Stats(kept, dropped)


# ---- groups --------------------------------------------------------------------------------

GROUPS = collections.OrderedDict()


def group(fn):
    GROUPS[fn.__name__] = fn
    return fn


def op_fn(op):
    return getattr(tf.raw_ops, op)


# Shapes every dtype gets, and the extra ones the first float and int dtypes get.
UNARY_SHAPES = [("mat", [2, 3])]
UNARY_SHAPES_MAIN = [("scalar", []), ("empty", [0, 3]), ("vec", [67]), ("rank4", [2, 1, 3, 2])]
MAIN_DTYPES = ("float32", "int32", "bool", "string")

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
]


@group
def einsum(g):
    for dt in tf_types("Einsum", universe=[d for d in UNIVERSE if d not in ("bool", "string")]):
        main = tf.as_dtype(dt).name in MAIN_DTYPES
        for sname, eq, shapes in EINSUM_CASES:
            if not main and sname not in ("matmul", "batch", "attn_scores", "trace"):
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


CONV_CASES = [
    # name, input NHWC, filter HWIO, strides, padding, dilations, explicit paddings
    ("valid", [1, 5, 5, 2], [3, 3, 2, 3], [1, 1, 1, 1], "VALID", [1, 1, 1, 1], []),
    ("same", [2, 5, 4, 2], [3, 3, 2, 3], [1, 1, 1, 1], "SAME", [1, 1, 1, 1], []),
    ("stride2_same", [1, 6, 5, 3], [3, 2, 3, 2], [1, 2, 2, 1], "SAME", [1, 1, 1, 1], []),
    ("stride2_valid", [1, 7, 6, 1], [2, 3, 1, 2], [1, 2, 2, 1], "VALID", [1, 1, 1, 1], []),
    ("stride23", [1, 7, 6, 1], [2, 3, 1, 2], [1, 2, 3, 1], "VALID", [1, 1, 1, 1], []),
    ("dilated", [1, 7, 7, 2], [3, 3, 2, 2], [1, 1, 1, 1], "SAME", [1, 2, 2, 1], []),
    ("explicit", [1, 4, 4, 2], [3, 3, 2, 2], [1, 1, 1, 1], "EXPLICIT", [1, 1, 1, 1],
     [0, 0, 1, 2, 2, 0, 0, 0]),
    ("1x1", [2, 3, 3, 4], [1, 1, 4, 5], [1, 1, 1, 1], "VALID", [1, 1, 1, 1], []),
    ("grouped", [1, 5, 5, 4], [3, 3, 2, 6], [1, 1, 1, 1], "SAME", [1, 1, 1, 1], []),
    ("grouped_depthwise", [2, 5, 4, 3], [3, 3, 1, 6], [1, 2, 1, 1], "SAME", [1, 1, 1, 1], []),
    ("empty_batch", [0, 4, 4, 2], [3, 3, 2, 2], [1, 1, 1, 1], "SAME", [1, 1, 1, 1], []),
]


@group
def nn_conv(g):
    for dt in tf_types("Conv2D"):
        for sname, x, f, st, pad, dil, ex in CONV_CASES:
            if dt != "float32" and sname not in ("same", "stride2_valid"):
                continue
            g.case(f"Conv2D.{sgname(dt)}.{sname}",
                   lambda: raw.Conv2D(input=g.rand(dt, x, lo=-2, hi=2),
                                      filter=g.rand(dt, f, lo=-2, hi=2), strides=st, padding=pad,
                                      dilations=dil, explicit_paddings=ex, name="op"))
    for dt in tf_types("DepthwiseConv2dNative"):
        for sname, x, f, st, pad, dil, ex in CONV_CASES:
            if dt != "float32" and sname not in ("same", "stride2_valid"):
                continue
            if sname in ("dilated", "stride23"):
                continue  # TensorFlow's CPU kernel has no dilations and equal strides only
            if sname.startswith("grouped"):
                continue  # Conv2D's own
            f = f[:3] + [2]  # channel multiplier 2
            # TensorFlow's half kernel sums in half: a few ulps of the sum's magnitude apart.
            tol = 2e-2 if dt in ("float16", "bfloat16") else None
            g.case(f"DepthwiseConv2dNative.{sgname(dt)}.{sname}",
                   lambda: raw.DepthwiseConv2dNative(
                       input=g.rand(dt, x, lo=-2, hi=2), filter=g.rand(dt, f, lo=-2, hi=2),
                       strides=st, padding=pad, dilations=dil, explicit_paddings=ex, name="op"),
                   rtol=tol, atol=tol)


POOL_CASES = [
    # name, input NHWC, ksize, strides, padding
    ("valid", [1, 5, 5, 2], [1, 2, 2, 1], [1, 2, 2, 1], "VALID"),
    ("same", [2, 5, 4, 3], [1, 3, 3, 1], [1, 2, 2, 1], "SAME"),
    ("overlap", [1, 4, 6, 1], [1, 3, 2, 1], [1, 1, 1, 1], "SAME"),
    ("global", [1, 3, 3, 2], [1, 3, 3, 1], [1, 1, 1, 1], "VALID"),
    ("empty_batch", [0, 4, 4, 1], [1, 2, 2, 1], [1, 2, 2, 1], "VALID"),
]


@group
def nn_pool(g):
    for op in ("MaxPool", "AvgPool"):
        for dt in tf_types(op):
            for sname, x, k, st, pad in POOL_CASES:
                if dt != "float32" and sname not in ("same",):
                    continue
                g.case(f"{op}.{sgname(dt)}.{sname}",
                       lambda: op_fn(op)(**{"input" if op == "MaxPool" else "value":
                                            g.rand(dt, x, lo=-4, hi=4)},
                                         ksize=k, strides=st, padding=pad, name="op"))
        g.case(f"{op}.float.nchw",
               lambda: op_fn(op)(**{"input" if op == "MaxPool" else "value":
                                    g.rand("float32", [1, 2, 4, 4])}, ksize=[1, 1, 2, 2],
                                 strides=[1, 1, 2, 2], padding="VALID", data_format="NCHW",
                                 name="op"), error=True)
    for dt in tf_types("LRN"):
        for sname, r, bias, alpha, beta in [("default", 5, 1.0, 1.0, 0.5),
                                            ("r2", 2, 2.0, 1e-1, 0.75), ("r0", 0, 1.0, 0.5, 1.0)]:
            if dt != "float32" and sname != "r2":
                continue
            g.case(f"LRN.{sgname(dt)}.{sname}",
                   lambda: raw.LRN(input=g.rand(dt, [2, 2, 3, 7], lo=-2, hi=2), depth_radius=r,
                                   bias=bias, alpha=alpha, beta=beta, name="op"))


@group
def nn_batch_norm(g):
    for op in ("FusedBatchNorm", "FusedBatchNormV2", "FusedBatchNormV3"):
        for dt in tf_types(op):
            variants = [("train", True, "NHWC", 1.0), ("infer", False, "NHWC", 1.0)]
            if dt == "float32":
                variants += [("train_nchw", True, "NCHW", 1.0), ("infer_nchw", False, "NCHW", 1.0),
                             ("train_avg", True, "NHWC", 0.25)]
            for sname, training, fmt, factor in variants:
                def build():
                    x = [2, 3, 2, 4] if fmt == "NHWC" else [2, 4, 3, 2]
                    c = 4
                    stat = "float32"
                    mean = g.rand(stat, [c] if (not training or factor != 1.0) else [0])
                    var = g.rand(stat, [c] if (not training or factor != 1.0) else [0], lo=0.5,
                                 hi=2)
                    outs = op_fn(op)(x=g.rand(dt, x, lo=-2, hi=2), scale=g.rand(stat, [c]),
                                     offset=g.rand(stat, [c]), mean=mean, variance=var,
                                     epsilon=0.001, exponential_avg_factor=factor,
                                     data_format=fmt, is_training=training, name="op")
                    # y, batch_mean, batch_variance: the reserve spaces are the kernel's own.
                    return list(outs)[:3]
                g.case(f"{op}.{sgname(dt)}.{sname}", build)

def conv_out_size(n, k, s, pad, before=0, after=0):
    if pad == "VALID":
        return (n - k + s) // s
    if pad == "SAME":
        return (n + s - 1) // s
    return (n + before + after - k + s) // s


def conv_out_shape(x, f, st, pad, ex=None):
    """The NHWC / NDHWC output shape of a convolution of input `x` with filter `f`."""
    nd = len(x) - 2
    ex = ex or [0] * (2 * len(x))
    return [x[0]] + [conv_out_size(x[i + 1], f[i], st[i + 1], pad, ex[2 * i + 2], ex[2 * i + 3])
                     for i in range(nd)] + [f[-1]]


# Half and bfloat16 convolutions: TensorFlow's CPU kernels sum in the narrow type, rounding
# every partial sum (of magnitude up to ~30 here); sg sums in float and rounds once. (rtol, atol)
NARROW_TOL = {"float16": (1e-2, 5e-2), "bfloat16": (6e-2, 0.25)}

CONV_BACKPROP_CASES = [
    # name, input NHWC, filter HWIO, strides, padding, explicit paddings
    ("valid", [1, 5, 5, 2], [3, 3, 2, 3], [1, 1, 1, 1], "VALID", []),
    ("same", [2, 5, 4, 2], [3, 3, 2, 3], [1, 1, 1, 1], "SAME", []),
    ("stride2_same", [1, 6, 5, 3], [3, 2, 3, 2], [1, 2, 2, 1], "SAME", []),
    ("stride2_valid", [1, 7, 6, 1], [2, 3, 1, 2], [1, 2, 2, 1], "VALID", []),
    ("stride23", [1, 7, 6, 1], [2, 3, 1, 2], [1, 2, 3, 1], "VALID", []),
    ("stride_gt_kernel", [1, 7, 7, 2], [2, 2, 2, 3], [1, 3, 3, 1], "SAME", []),
    ("explicit", [1, 4, 4, 2], [3, 3, 2, 2], [1, 1, 1, 1], "EXPLICIT", [0, 0, 1, 2, 2, 0, 0, 0]),
    ("1x1", [2, 3, 3, 4], [1, 1, 4, 5], [1, 1, 1, 1], "VALID", []),
    ("empty_batch", [0, 4, 4, 2], [3, 3, 2, 2], [1, 1, 1, 1], "SAME", []),
]


@group
def nn_conv_backprop(g):
    for dt in tf_types("Conv2DBackpropInput"):
        for sname, x, f, st, pad, ex in CONV_BACKPROP_CASES:
            if dt != "float32" and sname not in ("same", "stride2_valid", "stride_gt_kernel"):
                continue
            rtol, atol = NARROW_TOL.get(dt, (None, None))
            g.case(f"Conv2DBackpropInput.{sgname(dt)}.{sname}",
                   lambda: raw.Conv2DBackpropInput(
                       input_sizes=x, filter=g.rand(dt, f, lo=-2, hi=2),
                       out_backprop=g.rand(dt, conv_out_shape(x, f, st, pad, ex), lo=-2, hi=2),
                       strides=st, padding=pad, explicit_paddings=ex, name="op"),
                   rtol=rtol, atol=atol)
    x, f, st = [2, 5, 4, 3], [3, 2, 3, 2], [1, 2, 1, 1]
    g.case("Conv2DBackpropInput.float.sizes2",
           lambda: raw.Conv2DBackpropInput(
               input_sizes=x[1:3], filter=g.rand("float32", f),
               out_backprop=g.rand("float32", conv_out_shape(x, f, st, "SAME")), strides=st,
               padding="SAME", name="op"))
    g.case("Conv2DBackpropInput.float.nchw",
           lambda: raw.Conv2DBackpropInput(
               input_sizes=[1, 2, 5, 5], filter=g.rand("float32", [3, 3, 2, 3]),
               out_backprop=g.rand("float32", [1, 3, 5, 5]), strides=[1, 1, 1, 1],
               padding="SAME", data_format="NCHW", name="op"), error=True)
    g.case("Conv2DBackpropInput.float.dilated",
           lambda: raw.Conv2DBackpropInput(
               input_sizes=[1, 5, 5, 2], filter=g.rand("float32", [3, 3, 2, 3]),
               out_backprop=g.rand("float32", [1, 5, 5, 3]), strides=[1, 1, 1, 1],
               padding="SAME", dilations=[1, 2, 2, 1], name="op"), error=True)
    g.case("Conv2DBackpropInput.float.bad_out_backprop",
           lambda: raw.Conv2DBackpropInput(
               input_sizes=[1, 5, 5, 2], filter=g.rand("float32", [3, 3, 2, 3]),
               out_backprop=hide_shape(g.rand("float32", [1, 4, 5, 3])), strides=[1, 1, 1, 1],
               padding="SAME", name="op"), error=True)
    g.case("Conv2DBackpropInput.float.negative_size",
           lambda: raw.Conv2DBackpropInput(
               input_sizes=hide_shape(g.const([1, -5, 5, 2], "int32")),
               filter=g.rand("float32", [3, 3, 2, 3]),
               out_backprop=g.rand("float32", [1, 5, 5, 3]), strides=[1, 1, 1, 1],
               padding="SAME", name="op"), error=True)
    for dt in tf_types("Conv2DBackpropFilter"):
        for sname, x, f, st, pad, ex in CONV_BACKPROP_CASES:
            if dt != "float32" and sname not in ("same", "stride2_valid", "stride_gt_kernel"):
                continue
            rtol, atol = NARROW_TOL.get(dt, (None, None))
            g.case(f"Conv2DBackpropFilter.{sgname(dt)}.{sname}",
                   lambda: raw.Conv2DBackpropFilter(
                       input=g.rand(dt, x, lo=-2, hi=2), filter_sizes=f,
                       out_backprop=g.rand(dt, conv_out_shape(x, f, st, pad, ex), lo=-2, hi=2),
                       strides=st, padding=pad, explicit_paddings=ex, name="op"),
                   rtol=rtol, atol=atol)
    g.case("Conv2DBackpropFilter.float.grouped",
           lambda: raw.Conv2DBackpropFilter(
               input=g.rand("float32", [1, 5, 5, 4]), filter_sizes=[3, 3, 2, 3],
               out_backprop=g.rand("float32", [1, 5, 5, 3]), strides=[1, 1, 1, 1],
               padding="SAME", name="op"), error=True)
    g.case("Conv2DBackpropFilter.float.nchw",
           lambda: raw.Conv2DBackpropFilter(
               input=g.rand("float32", [1, 2, 5, 5]), filter_sizes=[3, 3, 2, 3],
               out_backprop=g.rand("float32", [1, 3, 5, 5]), strides=[1, 1, 1, 1],
               padding="SAME", data_format="NCHW", name="op"), error=True)


CONV3D_CASES = [
    # name, input NDHWC, filter DHWIO, strides, padding
    ("valid", [1, 4, 5, 4, 2], [2, 3, 2, 2, 3], [1, 1, 1, 1, 1], "VALID"),
    ("same", [2, 3, 4, 4, 2], [3, 2, 3, 2, 2], [1, 1, 1, 1, 1], "SAME"),
    ("strided", [1, 5, 6, 5, 1], [2, 2, 3, 1, 2], [1, 2, 1, 2, 1], "SAME"),
    ("strided_valid", [1, 5, 6, 7, 2], [2, 3, 2, 2, 2], [1, 2, 3, 2, 1], "VALID"),
    ("empty_batch", [0, 3, 3, 3, 2], [2, 2, 2, 2, 2], [1, 1, 1, 1, 1], "SAME"),
]


def conv3d_v1(op, arg):
    """Makes the stored V2 gradient node `op` its V1 `op` (which TensorFlow 2.21 no longer
    builds): input `arg`, the shape vector, becomes the tensor `shaped` whose shape it took."""
    def edit(gdef, case):
        for n in gdef.node:
            if n.name == f"{case}/op":
                n.op = op
                n.input[arg] = f"{case}/shaped"
                del n.attr["data_format"]
                if "Tshape" in n.attr:
                    del n.attr["Tshape"]
    return edit


@group
def nn_conv3d(g):
    for dt in tf_types("Conv3D"):
        for sname, x, f, st, pad in CONV3D_CASES:
            if dt != "float32" and sname not in ("same", "strided_valid"):
                continue
            rtol, atol = NARROW_TOL.get(dt, (None, None))
            g.case(f"Conv3D.{sgname(dt)}.{sname}",
                   lambda: raw.Conv3D(input=g.rand(dt, x, lo=-2, hi=2),
                                      filter=g.rand(dt, f, lo=-2, hi=2), strides=st,
                                      padding=pad, name="op"), rtol=rtol, atol=atol)
    g.case("Conv3D.float.ncdhw",
           lambda: raw.Conv3D(input=g.rand("float32", [1, 2, 3, 3, 3]),
                              filter=g.rand("float32", [2, 2, 2, 2, 2]),
                              strides=[1, 1, 1, 1, 1], padding="SAME", data_format="NCDHW",
                              name="op"), error=True)
    g.case("Conv3D.float.dilated",
           lambda: raw.Conv3D(input=g.rand("float32", [1, 4, 4, 4, 2]),
                              filter=g.rand("float32", [2, 2, 2, 2, 2]),
                              strides=[1, 1, 1, 1, 1], padding="SAME", dilations=[1, 2, 2, 2, 1],
                              name="op"), error=True)
    g.case("Conv3D.float.depth_mismatch",
           lambda: raw.Conv3D(input=hide_shape(g.rand("float32", [1, 3, 3, 3, 4])),
                              filter=g.rand("float32", [2, 2, 2, 2, 2]),
                              strides=[1, 1, 1, 1, 1], padding="SAME", name="op"), error=True)
    for op in ("Conv3DBackpropInputV2", "Conv3DBackpropInput"):
        for dt in tf_types(op):
            for sname, x, f, st, pad in CONV3D_CASES:
                if dt != "float32" and sname not in ("same", "strided_valid"):
                    continue
                rtol, atol = NARROW_TOL.get(dt, (None, None))

                def build():
                    w = g.rand(dt, f, lo=-2, hi=2)
                    dy = g.rand(dt, conv_out_shape(x, f, st, pad), lo=-2, hi=2)
                    sizes = x
                    if op == "Conv3DBackpropInput":  # run as V2, stored as V1 (conv3d_v1)
                        sizes = tf.shape(g.rand(dt, x, name="shaped"), name="sizes")
                    return raw.Conv3DBackpropInputV2(input_sizes=sizes, filter=w,
                                                     out_backprop=dy, strides=st, padding=pad,
                                                     name="op")
                g.case(f"{op}.{sgname(dt)}.{sname}", build, rtol=rtol, atol=atol,
                       edit=conv3d_v1(op, 0) if op == "Conv3DBackpropInput" else None)
    x, f, st = [1, 3, 4, 4, 2], [2, 2, 2, 2, 3], [1, 1, 2, 1, 1]
    g.case("Conv3DBackpropInputV2.float.int64_sizes",
           lambda: raw.Conv3DBackpropInputV2(
               input_sizes=g.const(x, "int64"), filter=g.rand("float32", f),
               out_backprop=g.rand("float32", conv_out_shape(x, f, st, "SAME")), strides=st,
               padding="SAME", name="op"))
    g.case("Conv3DBackpropInputV2.float.ncdhw",
           lambda: raw.Conv3DBackpropInputV2(
               input_sizes=[1, 2, 3, 3, 3], filter=g.rand("float32", [2, 2, 2, 2, 3]),
               out_backprop=g.rand("float32", [1, 3, 3, 3, 3]), strides=[1, 1, 1, 1, 1],
               padding="SAME", data_format="NCDHW", name="op"), error=True)
    for op in ("Conv3DBackpropFilterV2", "Conv3DBackpropFilter"):
        for dt in tf_types(op):
            for sname, x, f, st, pad in CONV3D_CASES:
                if dt != "float32" and sname not in ("same", "strided_valid"):
                    continue
                rtol, atol = NARROW_TOL.get(dt, (None, None))

                def build():
                    xv = g.rand(dt, x, lo=-2, hi=2)
                    dy = g.rand(dt, conv_out_shape(x, f, st, pad), lo=-2, hi=2)
                    sizes = f
                    if op == "Conv3DBackpropFilter":  # run as V2, stored as V1 (conv3d_v1)
                        sizes = tf.shape(g.rand(dt, f, name="shaped"), name="sizes")
                    return raw.Conv3DBackpropFilterV2(input=xv, filter_sizes=sizes,
                                                      out_backprop=dy, strides=st, padding=pad,
                                                      name="op")
                g.case(f"{op}.{sgname(dt)}.{sname}", build, rtol=rtol, atol=atol,
                       edit=conv3d_v1(op, 1) if op == "Conv3DBackpropFilter" else None)
    g.case("Conv3DBackpropFilterV2.float.bad_out_backprop",
           lambda: raw.Conv3DBackpropFilterV2(
               input=g.rand("float32", [1, 3, 3, 3, 2]), filter_sizes=[2, 2, 2, 2, 3],
               out_backprop=hide_shape(g.rand("float32", [1, 3, 3, 2, 3])),
               strides=[1, 1, 1, 1, 1], padding="SAME", name="op"), error=True)


POOL3D_CASES = [
    # name, input NDHWC, ksize, strides, padding
    ("valid", [1, 4, 5, 4, 2], [1, 2, 2, 2, 1], [1, 2, 2, 2, 1], "VALID"),
    ("same", [2, 3, 5, 4, 3], [1, 2, 3, 3, 1], [1, 2, 2, 1, 1], "SAME"),
    ("overlap", [1, 4, 4, 4, 1], [1, 3, 2, 3, 1], [1, 1, 1, 1, 1], "SAME"),
    ("empty_batch", [0, 2, 2, 2, 1], [1, 2, 2, 2, 1], [1, 1, 1, 1, 1], "VALID"),
]


@group
def nn_pool_nd(g):
    for dt in tf_types("MaxPoolV2"):
        for sname, x, k, st, pad in POOL_CASES:
            if dt != "float32" and sname != "same":
                continue
            g.case(f"MaxPoolV2.{sgname(dt)}.{sname}",
                   lambda: raw.MaxPoolV2(input=g.rand(dt, x, lo=-100, hi=100), ksize=k,
                                         strides=st, padding=pad, name="op"))
    g.case("MaxPoolV2.float.nan",
           lambda: raw.MaxPoolV2(input=g.const(np.array(
               [np.nan, 1, 2, np.nan, -np.inf, 3, 0, np.nan, 1]).reshape([1, 3, 3, 1]),
               "float32"), ksize=[1, 2, 2, 1], strides=[1, 1, 1, 1], padding="SAME", name="op"))
    g.case("MaxPoolV2.float.hidden_window",
           lambda: raw.MaxPoolV2(input=g.rand("float32", [1, 5, 5, 2]),
                                 ksize=hide_shape(g.const([1, 3, 2, 1], "int32")),
                                 strides=hide_shape(g.const([1, 2, 1, 1], "int32")),
                                 padding="VALID", name="op"))
    g.case("MaxPoolV2.float.batch_window",
           lambda: raw.MaxPoolV2(input=g.rand("float32", [2, 4, 4, 1]),
                                 ksize=hide_shape(g.const([2, 2, 2, 1], "int32")),
                                 strides=[1, 1, 1, 1], padding="VALID", name="op"), error=True)
    g.case("MaxPoolV2.float.short_ksize",
           lambda: raw.MaxPoolV2(input=g.rand("float32", [1, 4, 4, 1]),
                                 ksize=hide_shape(g.const([1, 2, 2], "int32")),
                                 strides=[1, 1, 1, 1], padding="VALID", name="op"), error=True)
    for dt in tf_types("MaxPoolWithArgmax"):
        for sname, x, k, st, pad in POOL_CASES:
            if dt != "float32" and sname != "same":
                continue
            for targ in ("int64", "int32"):
                for batch in (False, True):
                    if (targ == "int32" or batch) and (dt != "float32" or sname != "same"):
                        continue
                    vname = sname + ("_int32" if targ == "int32" else "") + \
                        ("_batch_index" if batch else "")
                    # TensorFlow's kernel refuses an empty input.
                    g.case(f"MaxPoolWithArgmax.{sgname(dt)}.{vname}",
                           lambda: list(raw.MaxPoolWithArgmax(
                               input=g.rand(dt, x, lo=-100, hi=100), ksize=k, strides=st,
                               padding=pad, Targmax=targ, include_batch_in_index=batch,
                               name="op")), error=sname == "empty_batch")
    g.case("MaxPoolWithArgmax.float.ties_nan",
           lambda: list(raw.MaxPoolWithArgmax(input=g.const(np.array(
               [3, 3, 1, 3, np.nan, 2, 1, 2, 2]).reshape([1, 3, 3, 1]), "float32"),
               ksize=[1, 2, 2, 1], strides=[1, 1, 1, 1], padding="SAME", name="op")))
    for op in ("MaxPool3D", "AvgPool3D"):
        for dt in tf_types(op):
            for sname, x, k, st, pad in POOL3D_CASES:
                if dt != "float32" and sname != "same":
                    continue
                g.case(f"{op}.{sgname(dt)}.{sname}",
                       lambda: op_fn(op)(input=g.rand(dt, x), ksize=k, strides=st, padding=pad,
                                         name="op"))
        g.case(f"{op}.float.ncdhw",
               lambda: op_fn(op)(input=g.rand("float32", [1, 2, 4, 4, 4]),
                                 ksize=[1, 1, 2, 2, 2], strides=[1, 1, 2, 2, 2], padding="VALID",
                                 data_format="NCDHW", name="op"), error=True)


@group
def nn_data_format(g):
    for dt in tf_types("DataFormatDimMap"):
        for sname, v, src, dst in [("default", [-4, -3, -2, -1, 0, 1, 2, 3], "NHWC", "NCHW"),
                                   ("back", [[0, 1], [2, 3]], "NCHW", "NHWC"),
                                   ("wrap", [4, 7, -5, -8], "NHWC", "NCHW"),
                                   ("scalar", 2, "NHWC", "HWNC"),
                                   ("5d", [0, 1, 2, 3, 4, -1], "NDHWC", "NCDHW"),
                                   ("empty", np.zeros([0], np.int64), "NHWC", "NCHW")]:
            if dt != "int32" and sname not in ("default", "5d"):
                continue
            g.case(f"DataFormatDimMap.{sgname(dt)}.{sname}",
                   lambda: raw.DataFormatDimMap(x=g.const(v, dt), src_format=src,
                                                dst_format=dst, name="op"))
    g.case("DataFormatDimMap.int32.not_permutation",
           lambda: raw.DataFormatDimMap(x=g.const([0, 1], "int32"), src_format="NHWC",
                                        dst_format="NHWA", name="op"), error=True)
    g.case("DataFormatDimMap.int32.length3",
           lambda: raw.DataFormatDimMap(x=g.const([0, 1], "int32"), src_format="NHW",
                                        dst_format="NWH", name="op"), error=True)
    for dt in tf_types("DataFormatVecPermute"):
        for sname, v, src, dst in [("default", [10, 20, 30, 40], "NHWC", "NCHW"),
                                   ("back", [10, 20, 30, 40], "NCHW", "NHWC"),
                                   ("spatial", [10, 20], "NHWC", "NWHC"),
                                   ("pairs", [[1, 2], [3, 4], [5, 6], [7, 8]], "NHWC", "NCHW"),
                                   ("spatial_pairs", [[1, 2], [3, 4]], "NHWC", "NWHC"),
                                   ("5d", [1, 2, 3, 4, 5], "NDHWC", "NCDHW"),
                                   ("5d_spatial", [1, 2, 3], "NDHWC", "NHWDC")]:
            if dt != "int32" and sname not in ("default", "pairs"):
                continue
            g.case(f"DataFormatVecPermute.{sgname(dt)}.{sname}",
                   lambda: raw.DataFormatVecPermute(x=g.const(v, dt), src_format=src,
                                                    dst_format=dst, name="op"))
    for sname, v in [("size3", [1, 2, 3]), ("rows3", [[1, 2, 3]] * 4), ("scalar", 1)]:
        g.case(f"DataFormatVecPermute.int32.{sname}",
               lambda: raw.DataFormatVecPermute(x=hide_rank(g.const(v, "int32")), name="op"),
               error=True)



def fused_conv2d(g, dt, x, w, args, fused_ops, **attrs):
    """A _FusedConv2D node (TensorFlow's Python has no wrapper for it)."""
    graph = tf.compat.v1.get_default_graph()
    av = attr_value_pb2.AttrValue
    lv = attr_value_pb2.AttrValue.ListValue
    a = {"T": av(type=tf.as_dtype(dt).as_datatype_enum),
         "TArgs": av(list=lv(type=[t.dtype.as_datatype_enum for t in args])),
         "num_args": av(i=len(args)), "num_host_args": av(i=0),
         "strides": av(list=lv(i=attrs.get("strides", [1, 1, 1, 1]))),
         "padding": av(s=attrs.get("padding", "SAME").encode()),
         "explicit_paddings": av(list=lv(i=attrs.get("explicit_paddings", []))),
         "dilations": av(list=lv(i=attrs.get("dilations", [1, 1, 1, 1]))),
         "fused_ops": av(list=lv(s=[o.encode() for o in fused_ops])),
         "epsilon": av(f=attrs.get("epsilon", 0.001)),
         "leakyrelu_alpha": av(f=attrs.get("alpha", 0.2))}
    return graph.create_op("_FusedConv2D", [x, w] + list(args), [tf.as_dtype(dt)], attrs=a,
                           name="op").outputs[0]


FUSED_OPS = [["BiasAdd"], ["BiasAdd", "Relu"], ["BiasAdd", "Relu6"], ["BiasAdd", "Elu"],
             ["BiasAdd", "LeakyRelu"], ["FusedBatchNorm"], ["FusedBatchNorm", "Relu"],
             ["FusedBatchNorm", "Relu6"], ["FusedBatchNorm", "Elu"],
             ["FusedBatchNorm", "LeakyRelu"]]


def fused_pad_edit(op):
    """Makes the stored Conv2D `op` (of a MirrorPad, of a ResizeBilinear) the fused `op` of the
    case's x, size, paddings and w."""
    def edit(gdef, case):
        for n in gdef.node:
            if n.name == f"{case}/op":
                keep = {k: n.attr[k] for k in ("T", "strides", "padding")}
                n.op = op
                del n.input[:]
                names = ["x", "size", "paddings", "w"] if op == "FusedResizeAndPadConv2D" \
                    else ["x", "paddings", "w"]
                n.input.extend(f"{case}/{x}" for x in names)
                n.attr.clear()
                for k, v in keep.items():
                    n.attr[k].CopyFrom(v)
                n.attr["mode"].s = b"SYMMETRIC"
                if op == "FusedResizeAndPadConv2D":
                    n.attr["resize_align_corners"].b = False
    return edit


@group
def nn_fused_conv(g):
    # TensorFlow's CPU kernel takes float and double only; half, int8 and qint8 fail with
    # INVALID_ARGUMENT rather than as a missing kernel, so they get no cases (nor sg kernels).
    for dt in ("float32", "float64"):
        for ops in FUSED_OPS:
            for sname, x, f, st, pad, dil, ex in CONV_CASES:
                if sname.startswith("grouped") or (
                        sname not in ("same", "stride2_valid") and
                        (dt != "float32" or ops not in (["BiasAdd"], ["FusedBatchNorm"]))):
                    continue

                def build():
                    c = f[3]
                    if ops[0] == "BiasAdd":
                        args = [g.rand(dt, [c])]
                    else:
                        args = [g.rand(dt, [c]), g.rand(dt, [c]), g.rand(dt, [c]),
                                g.rand(dt, [c], lo=0.25, hi=2)]
                    return fused_conv2d(g, dt, g.rand(dt, x, lo=-2, hi=2),
                                        g.rand(dt, f, lo=-2, hi=2), args, ops, strides=st,
                                        padding=pad, dilations=dil, explicit_paddings=ex,
                                        alpha=0.3)
                # Case names cannot start with "_" (a TensorFlow name scope), so these read FusedConv2D.
                g.case(f"FusedConv2D.{sgname(dt)}.{'_'.join(ops)}.{sname}", build, atol=1e-5)
    g.case("FusedConv2D.float.unsupported_ops",
           lambda: fused_conv2d(g, "float32", g.rand("float32", [1, 3, 3, 2]),
                                g.rand("float32", [2, 2, 2, 2]), [g.rand("float32", [2])],
                                ["BiasAdd", "Tanh"]), error=True)
    pads = [[0, 0], [1, 2], [2, 0], [0, 0]]
    for op in ("FusedPadConv2D", "FusedResizeAndPadConv2D"):
        for dt in tf_types(op):
            for mode in ("REFLECT", "SYMMETRIC"):
                # Batch 1 only: TensorFlow 2.21's CPU kernels compute every batch from the
                # first image (batch b of the output is batch 0's); sg pads each image.
                for sname, x, f, st, pad in [("valid", [1, 4, 5, 2], [2, 3, 2, 3], [1, 1, 1, 1],
                                              "VALID"),
                                             ("same_strided", [1, 5, 4, 3], [3, 2, 3, 2],
                                              [1, 2, 3, 1], "SAME")]:
                    if dt != "float32" and (mode != "REFLECT" or sname != "valid"):
                        continue
                    rtol, atol = NARROW_TOL.get(dt, (None, None))
                    for align in ((False,) if op == "FusedPadConv2D" or dt != "float32"
                                  else (False, True)):
                        def build():
                            xv = g.rand(dt, x, lo=-2, hi=2)
                            wv = g.rand(dt, f, lo=-2, hi=2)
                            if op == "FusedPadConv2D":
                                return raw.FusedPadConv2D(input=xv, paddings=pads, filter=wv,
                                                          mode=mode, strides=st, padding=pad,
                                                          name="op")
                            return raw.FusedResizeAndPadConv2D(
                                input=xv, size=[x[1] + 2, x[2] - 1], paddings=pads, filter=wv,
                                mode=mode, strides=st, padding=pad,
                                resize_align_corners=align, name="op")
                        g.case(f"{op}.{sgname(dt)}.{mode.lower()}_{sname}"
                               + ("_align" if align else ""), build, rtol=rtol, atol=atol)
    # Batches beyond the first, checked against the unfused ops TensorFlow runs correctly.
    for op in ("FusedPadConv2D", "FusedResizeAndPadConv2D"):
        def build():
            x = g.rand("float32", [3, 4, 5, 2], name="x")
            w = g.rand("float32", [2, 3, 2, 3], name="w")
            p = g.const(pads, "int32", name="paddings")
            img = x
            if op == "FusedResizeAndPadConv2D":
                img = raw.ResizeBilinear(images=x, size=g.const([6, 4], "int32", name="size"))
            return raw.Conv2D(input=raw.MirrorPad(input=img, paddings=p, mode="SYMMETRIC"),
                              filter=w, strides=[1, 2, 1, 1], padding="SAME", name="op")
        g.case(f"{op}.float.batches_unfused", build, edit=fused_pad_edit(op))
    g.case("FusedPadConv2D.float.batch_padding",
           lambda: raw.FusedPadConv2D(input=g.rand("float32", [1, 4, 4, 2]),
                                      paddings=[[1, 0], [1, 1], [1, 1], [0, 0]],
                                      filter=g.rand("float32", [2, 2, 2, 2]), mode="REFLECT",
                                      strides=[1, 1, 1, 1], padding="VALID", name="op"),
           error=True)
    g.case("FusedPadConv2D.float.reflect_too_wide",
           lambda: raw.FusedPadConv2D(input=g.rand("float32", [1, 3, 4, 2]),
                                      paddings=[[0, 0], [3, 1], [1, 1], [0, 0]],
                                      filter=g.rand("float32", [2, 2, 2, 2]), mode="REFLECT",
                                      strides=[1, 1, 1, 1], padding="VALID", name="op"),
           error=True)


EIP_CASES = [
    # name, input NHWC, ksizes, strides, rates, padding
    ("same", [2, 5, 4, 2], [1, 2, 3, 1], [1, 1, 1, 1], [1, 1, 1, 1], "SAME"),
    ("valid_strided", [1, 7, 6, 3], [1, 3, 2, 1], [1, 2, 3, 1], [1, 1, 1, 1], "VALID"),
    ("rates", [1, 7, 7, 1], [1, 2, 3, 1], [1, 1, 2, 1], [1, 2, 2, 1], "SAME"),
    ("1x1", [1, 3, 3, 2], [1, 1, 1, 1], [1, 2, 2, 1], [1, 1, 1, 1], "VALID"),
    ("empty_batch", [0, 4, 4, 2], [1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], "SAME"),
]


@group
def image_extract_patches(g):
    for dt in tf_types("ExtractImagePatches"):
        for sname, x, k, st, r, pad in EIP_CASES:
            if dt != "float32" and sname not in ("same", "rates"):
                continue
            g.case(f"ExtractImagePatches.{sgname(dt)}.{sname}",
                   lambda: raw.ExtractImagePatches(images=g.rand(dt, x, lo=-50, hi=50), ksizes=k,
                                                   strides=st, rates=r, padding=pad, name="op"))
    g.case("ExtractImagePatches.float.batch_window",
           lambda: raw.ExtractImagePatches(images=g.rand("float32", [2, 4, 4, 1]),
                                           ksizes=[2, 2, 2, 1], strides=[1, 1, 1, 1],
                                           rates=[1, 1, 1, 1], padding="SAME", name="op"),
           error=True)
    g.case("ExtractImagePatches.float.window_too_big",
           lambda: raw.ExtractImagePatches(images=hide_shape(g.rand("float32", [1, 4, 4, 1])),
                                           ksizes=[1, 7, 2, 1], strides=[1, 1, 1, 1],
                                           rates=[1, 1, 1, 1], padding="VALID", name="op"),
           error=True)



DILATION_CASES = [
    # name, input NHWC, filter HWC, strides, rates, padding
    ("same", [2, 5, 4, 2], [2, 3, 2], [1, 1, 1, 1], [1, 1, 1, 1], "SAME"),
    ("valid_strided", [1, 7, 6, 1], [3, 2, 1], [1, 2, 3, 1], [1, 1, 1, 1], "VALID"),
    ("rates", [1, 7, 7, 2], [2, 2, 2], [1, 1, 1, 1], [1, 2, 3, 1], "SAME"),
    ("empty_batch", [0, 4, 4, 1], [2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], "SAME"),
]


def dilation_out_shape(x, f, st, r, pad):
    return [x[0]] + [conv_out_size(x[i + 1], (f[i] - 1) * r[i + 1] + 1, st[i + 1], pad)
                     for i in range(2)] + [x[3]]


@group
def nn_dilation(g):
    for op in ("Dilation2D", "Dilation2DBackpropInput", "Dilation2DBackpropFilter"):
        for dt in tf_types(op):
            for sname, x, f, st, r, pad in DILATION_CASES:
                if dt != "float32" and sname not in ("same", "rates"):
                    continue
                lo = 0 if tf.as_dtype(dt).is_unsigned else -4

                def build():
                    xv = g.rand(dt, x, lo=lo, hi=4)
                    fv = g.rand(dt, f, lo=lo, hi=4)
                    if op == "Dilation2D":
                        return raw.Dilation2D(input=xv, filter=fv, strides=st, rates=r,
                                              padding=pad, name="op")
                    dy = g.rand(dt, dilation_out_shape(x, f, st, r, pad), lo=lo, hi=4)
                    return op_fn(op)(input=xv, filter=fv, out_backprop=dy, strides=st, rates=r,
                                     padding=pad, name="op")
                g.case(f"{op}.{sgname(dt)}.{sname}", build)
    g.case("Dilation2D.float.depth_mismatch",
           lambda: raw.Dilation2D(input=hide_shape(g.rand("float32", [1, 4, 4, 2])),
                                  filter=hide_shape(g.rand("float32", [2, 2, 3])),
                                  strides=[1, 1, 1, 1], rates=[1, 1, 1, 1], padding="SAME",
                                  name="op"), error=True)
    g.case("Dilation2DBackpropInput.float.bad_out_backprop",
           lambda: raw.Dilation2DBackpropInput(
               input=g.rand("float32", [1, 4, 4, 2]), filter=g.rand("float32", [2, 2, 2]),
               out_backprop=hide_shape(g.rand("float32", [1, 3, 4, 2])), strides=[1, 1, 1, 1],
               rates=[1, 1, 1, 1], padding="SAME", name="op"), error=True)


def bngn_edit(eps, scale):
    """Makes the stored node `op` (the formula TensorFlow ran) a BatchNormWithGlobalNormalization
    of the case's t, m, v, beta and gamma: TensorFlow 2.21 refuses to run that op (it was
    deprecated at GraphDef version 9), so its expected values come from the same formula."""
    def edit(gdef, case):
        for n in gdef.node:
            if n.name == f"{case}/op":
                dt = n.attr["T"].type
                n.op = "BatchNormWithGlobalNormalization"
                del n.input[:]
                n.input.extend(f"{case}/{x}" for x in ("t", "m", "v", "beta", "gamma"))
                n.attr.clear()
                n.attr["T"].type = dt
                n.attr["variance_epsilon"].f = eps
                n.attr["scale_after_normalization"].b = scale
    return edit


@group
def nn_batch_norm_global(g):
    # TensorFlow's CPU kernel takes float, double and half only.
    for dt in ("float32", "float64", "float16"):
        for scale in (True, False):
            if dt != "float32" and not scale:
                continue

            def build():
                c = 3
                t = g.rand(dt, [2, 3, 2, c], name="t")
                m = g.rand(dt, [c], name="m")
                v = g.rand(dt, [c], lo=0.25, hi=2, name="v")
                beta = g.rand(dt, [c], name="beta")
                gamma = g.rand(dt, [c], name="gamma")
                mul = tf.math.rsqrt(v + tf.constant(0.001, dt))
                if scale:
                    mul = mul * gamma
                return tf.add((t - m) * mul, beta, name="op")
            tol = 1e-2 if dt == "float16" else 1e-5
            g.case(f"BatchNormWithGlobalNormalization.{sgname(dt)}."
                   + ("scaled" if scale else "unscaled"), build, atol=tol, rtol=tol,
                   edit=bngn_edit(0.001, scale))


def is_main(dt):
    return tf.as_dtype(dt).name in MAIN_DTYPES


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
def typed_tensor_proto(value, dt, shape):
    """A TensorProto with its values in the typed field (float_val, int_val ...) rather than
    tensor_content: the other encoding TensorFlow writes, e.g. for tf.fill-like constants."""
    from tensorflow.core.framework import tensor_pb2, tensor_shape_pb2
    dt = tf.as_dtype(dt)
    p = tensor_pb2.TensorProto(dtype=dt.as_datatype_enum)
    p.tensor_shape.CopyFrom(tensor_shape_pb2.TensorShapeProto(
        dim=[tensor_shape_pb2.TensorShapeProto.Dim(size=d) for d in shape]))
    v = np.asarray(value).reshape(-1)
    name = dt.name
    if name == "float32":
        p.float_val.extend(v.tolist())
    elif name == "float64":
        p.double_val.extend(v.tolist())
    elif name in ("float16", "bfloat16"):
        p.half_val.extend(v.astype(npdtype(dt)).view(np.uint16).tolist())
    elif name in ("int8", "int16", "int32", "uint8", "uint16"):
        p.int_val.extend(v.tolist())
    elif name == "int64":
        p.int64_val.extend(v.tolist())
    elif name == "uint32":
        p.uint32_val.extend(v.tolist())
    elif name == "uint64":
        p.uint64_val.extend(v.tolist())
    elif name == "bool":
        p.bool_val.extend(v.tolist())
    elif name == "string":
        p.string_val.extend(v.tolist())
    elif name == "complex64":
        for c in v:
            p.scomplex_val.extend([c.real, c.imag])
    elif name == "complex128":
        for c in v:
            p.dcomplex_val.extend([c.real, c.imag])
    return p


def const_op(proto, dt, name="op"):
    graph = tf.compat.v1.get_default_graph()
    op = graph.create_op("Const", [], [tf.as_dtype(dt)],
                         attrs={"dtype": attr_value_pb2.AttrValue(
                                    type=tf.as_dtype(dt).as_datatype_enum),
                                "value": attr_value_pb2.AttrValue(tensor=proto)}, name=name)
    return op.outputs[0]


@group
def basic(g):
    for dt in UNIVERSE:
        g.case(f"Const.{sgname(dt)}.content", lambda: g.rand(dt, [2, 3], name="op"))
        g.case(f"Const.{sgname(dt)}.typed",
               lambda: const_op(typed_tensor_proto(g.vals(dt, [2, 3]), dt, [2, 3]), dt))
        g.case(f"Const.{sgname(dt)}.fill_last",
               lambda: const_op(typed_tensor_proto(g.vals(dt, [2]), dt, [2, 3]), dt))
        g.case(f"Const.{sgname(dt)}.scalar", lambda: g.rand(dt, [], name="op"))
        g.case(f"Const.{sgname(dt)}.empty",
               lambda: const_op(typed_tensor_proto([], dt, [0, 4]), dt))
        g.case(f"Identity.{sgname(dt)}.mat", lambda: raw.Identity(input=g.rand(dt, [2, 3]),
                                                                  name="op"))
        g.case(f"Snapshot.{sgname(dt)}.mat", lambda: raw.Snapshot(input=g.rand(dt, [2, 3]),
                                                                  name="op"))
        g.case(f"StopGradient.{sgname(dt)}.mat",
               lambda: raw.StopGradient(input=g.rand(dt, [2, 3]), name="op"))
        g.case(f"PreventGradient.{sgname(dt)}.mat",
               lambda: raw.PreventGradient(input=g.rand(dt, [2, 3]), message="no", name="op"))
        def placeholder(shape):
            x = raw.Placeholder(dtype=dt, shape=shape, name="x")
            g.feed(x, g.vals(dt, [2, 3]))
            return raw.Identity(input=x, name="op")
        g.case(f"Placeholder.{sgname(dt)}.fed", lambda: placeholder([2, 3]))
        # PlaceholderV2 left GraphDefs at version 23; TensorFlow 2.21 runs it as Placeholder.
        g.case(f"PlaceholderV2.{sgname(dt)}.fed", lambda: placeholder([None, 3]),
               rename={"x": "PlaceholderV2"})
        g.case(f"PlaceholderWithDefault.{sgname(dt)}.default",
               lambda: raw.PlaceholderWithDefault(input=g.rand(dt, [2, 3]), shape=[None, 3],
                                                  name="op"))
        def fed_default():
            x = raw.PlaceholderWithDefault(input=g.rand(dt, [2, 3]), shape=[None, 3], name="x")
            g.feed(x, g.vals(dt, [1, 3]))
            return raw.Identity(input=x, name="op")
        g.case(f"PlaceholderWithDefault.{sgname(dt)}.fed", fed_default)
    for op in ("Placeholder", "PlaceholderV2"):
        g.case(f"{op}.float.unfed",
               lambda: raw.Identity(input=raw.Placeholder(dtype="float32", shape=[2], name="x"),
                                    name="op"), error=True, rename={"x": op})
    for sname, shape in [("scalar", []), ("empty", [0, 2])]:
        g.case(f"Identity.float.{sname}", lambda: raw.Identity(input=g.rand("float32", shape),
                                                               name="op"))
    g.case("IdentityN.mixed.three",
           lambda: list(raw.IdentityN(input=[g.rand("float32", [2]), g.rand("string", [3]),
                                             g.rand("int64", [])], name="op")))
    for dt in ("float32", "int32", "bool", "string", "complex64", "float16", "bfloat16"):
        g.case(f"IdentityN.{sgname(dt)}.one",
               lambda: list(raw.IdentityN(input=[g.rand(dt, [2, 2])], name="op")))
    for dt in tf_types("CheckNumerics"):
        g.case(f"CheckNumerics.{sgname(dt)}.finite",
               lambda: raw.CheckNumerics(tensor=g.rand(dt, [2, 3]), message="bad", name="op"))
        g.case(f"CheckNumerics.{sgname(dt)}.nan",
               lambda: raw.CheckNumerics(tensor=g.const([1.0, np.nan], dt), message="bad",
                                         name="op"), error=True)
        g.case(f"CheckNumerics.{sgname(dt)}.inf",
               lambda: raw.CheckNumerics(tensor=g.const([-np.inf, 1.0], dt), message="bad",
                                         name="op"), error=True)
    g.case("CheckNumerics.float.empty",
           lambda: raw.CheckNumerics(tensor=g.rand("float32", [0]), message="m", name="op"))
    for op in ("NoOp", "ControlTrigger"):
        def control(op=op):
            c = op_fn(op)(name="op")
            with tf.control_dependencies([c]):
                return raw.Identity(input=g.rand("float32", [2]), name="out")
        g.case(f"{op}.none.control_input", control)
        g.case(f"{op}.none.target", lambda: [g.rand("int32", [1]), op_fn(op)(name="op")])


@group
def logging(g):
    for sname, cond, fails in [("true", True, False), ("false", False, True),
                               ("vec1", [True], True)]:
        def build(cond=cond):
            x = g.rand("float32", [5])
            a = raw.Assert(condition=hide_shape(g.const(cond, "bool")),
                           data=[g.const(["x ="], "string"), x, g.const([1, 2], "int64")],
                           summarize=2, name="op")
            with tf.control_dependencies([a]):
                return tf.identity(x, name="out")
        g.case(f"Assert.{sname}", build, error=fails)
    def not_scalar():
        a = raw.Assert(condition=hide_shape(g.const([True, True], "bool")),
                       data=[g.const(1.0, "float32")], name="op")
        with tf.control_dependencies([a]):
            return tf.identity(g.const(2.0, "float32"), name="out")
    g.case("Assert.not_scalar", not_scalar, error=True)


@group
def random(g):
    specs = [("RandomUniform", None, 0.0, 1.0, 0.5, 0.2887),
             ("RandomStandardNormal", None, -7.0, 7.0, 0.0, 1.0),
             ("TruncatedNormal", None, -2.0, 2.0, 0.0, 0.8796)]
    for op, _, lo, hi, mean, std in specs:
        for dt in tf_types(op, "dtype"):
            for sname, shape, st in [("mat", [3, 5], "int32"), ("odd", [7], "int64"),
                                     ("scalar", [], "int32"), ("empty", [0, 3], "int32")]:
                if dt != "float32" and sname in ("scalar", "empty"):
                    continue
                # A seeded kernel reproduces TensorFlow's Philox stream exactly.
                g.case(f"{op}.{sgname(dt)}.seeded_{sname}",
                       lambda: op_fn(op)(shape=g.const(shape, st), dtype=dt, seed=7, seed2=11,
                                         name="op"))
            g.case(f"{op}.{sgname(dt)}.seed2_only",
                   lambda: op_fn(op)(shape=g.const([4, 2], "int32"), dtype=dt, seed=0, seed2=5,
                                     name="op"))
            n = 4000
            g.case(f"{op}.{sgname(dt)}.unseeded",
                   lambda: Out(op_fn(op)(shape=g.const([n], "int32"), dtype=dt, name="op"),
                               check="moments", lo=lo, hi=hi, mean=mean, std=std,
                               atol=0.1 * std + 0.02))
    for dt in tf_types("RandomUniformInt", "Tout"):
        for sname, shape, lo, hi in [("mat", [3, 5], -5, 20), ("wide", [9], -2**30, 2**30),
                                     ("one", [4], 3, 4)]:
            g.case(f"RandomUniformInt.{sgname(dt)}.seeded_{sname}",
                   lambda: raw.RandomUniformInt(shape=g.const(shape, "int32"),
                                                minval=g.const(lo, dt), maxval=g.const(hi, dt),
                                                seed=3, seed2=9, name="op"))
        g.case(f"RandomUniformInt.{sgname(dt)}.unseeded",
               lambda: Out(raw.RandomUniformInt(shape=g.const([2000], "int64"),
                                                minval=g.const(-3, dt), maxval=g.const(7, dt),
                                                name="op"),
                           check="moments", lo=-3, hi=6, mean=1.5, std=2.872, atol=0.3))
        g.case(f"RandomUniformInt.{sgname(dt)}.empty_range",
               lambda: raw.RandomUniformInt(shape=g.const([2], "int32"), minval=g.const(3, dt),
                                            maxval=g.const(3, dt), seed=1, seed2=1, name="op"),
               error=True)
RANDOM_SHAPES = [("mat", [3, 5]), ("odd", [7]), ("scalar", []), ("empty", [0, 3]),
                 ("long", [1001])]
STATELESS_FLOAT_OPS = ["StatelessRandomUniform", "StatelessRandomNormal",
                       "StatelessTruncatedNormal"]


@group
def random_stateless(g):
    # Exact where sg computes exactly TensorFlow's arithmetic (uniforms, integers); normals go
    # through log, sqrt, sin and cos, where the default tolerance allows for libm differences.
    for op in STATELESS_FLOAT_OPS:
        exact = 0.0 if op == "StatelessRandomUniform" else None
        for dt in tf_types(op, "dtype"):
            for sname, shape in RANDOM_SHAPES:
                if dt != "float32" and sname in ("scalar", "empty"):
                    continue
                g.case(f"{op}.{sgname(dt)}.{sname}",
                       lambda: op_fn(op)(shape=g.const(shape, "int32"),
                                         seed=g.const([7, 11], "int64"), dtype=dt, name="op"),
                       rtol=exact, atol=exact)
        g.case(f"{op}.float.seed_int32_negative",
               lambda: op_fn(op)(shape=g.const([2, 3], "int64"),
                                 seed=g.const([-3, 2**31 - 1], "int32"), dtype="float32",
                                 name="op"), rtol=exact, atol=exact)
        g.case(f"{op}.float.seed_bad_shape",
               lambda: op_fn(op)(shape=g.const([2], "int32"),
                                 seed=hide_shape(g.const([1, 2, 3], "int64")), name="op"),
               error=True)
        g.case(f"{op}.float.shape_not_vector",
               lambda: op_fn(op)(shape=hide_rank(g.const([[2]], "int32")),
                                 seed=g.const([1, 2], "int64"), name="op"), error=True)
        g.case(f"{op}.float.shape_negative",
               lambda: op_fn(op)(shape=g.const([2, -1], "int32"),
                                 seed=g.const([1, 2], "int64"), name="op"), error=True)
    for dt in tf_types("StatelessRandomUniformInt", "dtype"):
        big = 2**62 if dt == "int64" else 2**30
        for sname, shape, lo, hi in [("mat", [3, 5], -5, 20), ("wide", [9], -big, big),
                                     ("one", [4], 3, 4), ("odd", [7], 0, 1000)]:
            g.case(f"StatelessRandomUniformInt.{sgname(dt)}.{sname}",
                   lambda: raw.StatelessRandomUniformInt(
                       shape=g.const(shape, "int32"), seed=g.const([5, -9], "int64"),
                       minval=g.const(lo, dt), maxval=g.const(hi, dt), name="op"))
        g.case(f"StatelessRandomUniformInt.{sgname(dt)}.empty_range",
               lambda: raw.StatelessRandomUniformInt(
                   shape=g.const([2], "int32"), seed=g.const([1, 1], "int64"),
                   minval=g.const(3, dt), maxval=g.const(3, dt), name="op"), error=True)
        g.case(f"StatelessRandomUniformInt.{sgname(dt)}.empty_output_bad_range",
               lambda: raw.StatelessRandomUniformInt(
                   shape=g.const([0], "int32"), seed=g.const([1, 1], "int64"),
                   minval=g.const(3, dt), maxval=g.const(1, dt), name="op"))
    g.case("StatelessRandomUniformInt.int32.minval_not_scalar",
           lambda: raw.StatelessRandomUniformInt(
               shape=g.const([2], "int32"), seed=g.const([1, 1], "int64"),
               minval=hide_rank(g.const([3], "int32")), maxval=g.const(5, "int32"), name="op"),
           error=True)
    for dt in tf_types("StatelessRandomUniformFullInt", "dtype"):
        for st in ("int32", "int64"):
            g.case(f"StatelessRandomUniformFullInt.{sgname(dt)}.seed_{st}",
                   lambda: raw.StatelessRandomUniformFullInt(
                       shape=g.const([3, 3], "int32"), seed=g.const([-1, 12345], st), dtype=dt,
                       name="op"))
    g.case("StatelessRandomUniformFullInt.uint32.seed_uint32",
           lambda: raw.StatelessRandomUniformFullInt(
               shape=g.const([3], "int32"), seed=g.const([1, 2], "uint32"), dtype="uint32",
               name="op"), error=True)
    for st in ("int32", "int64"):
        g.case(f"StatelessRandomGetKeyCounterAlg.{st}",
               lambda: list(raw.StatelessRandomGetKeyCounterAlg(
                   seed=g.const([-7, 2**31 - 1], st), name="op")))
    for st in ("int32", "int64"):
        g.case(f"StatelessRandomGetKeyCounter.{st}",
               lambda: list(raw.StatelessRandomGetKeyCounter(seed=g.const([123, -5], st),
                                                             name="op")))
    g.case("StatelessRandomGetKeyCounter.int64.bad_seed",
           lambda: list(raw.StatelessRandomGetKeyCounter(
               seed=hide_shape(g.const([1], "int64")), name="op")), error=True)
    g.case("StatelessRandomGetAlg.none", lambda: raw.StatelessRandomGetAlg(name="op"))

    # What tf.random.stateless_uniform and friends write in a TF2 graph: the key and counter
    # of StatelessRandomGetKeyCounter, the algorithm a constant.
    def tf2_uniform():
        k, c = raw.StatelessRandomGetKeyCounter(seed=g.const([1, 2], "int64"), name="kc")
        return raw.StatelessRandomUniformV2(shape=g.const([2, 3], "int32"), key=k, counter=c,
                                            alg=g.const(1, "int32"), name="op")
    g.case("StatelessRandomGetKeyCounter.int64.feeds_uniform_v2", tf2_uniform, rtol=0.0,
           atol=0.0)
    g.case("StatelessRandomGetKeyCounterAlg.int64.bad_seed",
           lambda: list(raw.StatelessRandomGetKeyCounterAlg(
               seed=hide_shape(g.const([1, 2, 3], "int64")), name="op")), error=True)


STATELESS_V2_FLOAT_OPS = ["StatelessRandomUniformV2", "StatelessRandomNormalV2",
                          "StatelessTruncatedNormalV2"]


@group
def random_stateless_v2(g):
    def key_counter(seed=(3, 4)):
        k, c, _ = raw.StatelessRandomGetKeyCounterAlg(seed=g.const(list(seed), "int64"),
                                                      name="kc")
        return k, c

    # Algorithms: 1 Philox, 3 auto-select (Philox on CPU); TensorFlow's CPU kernels reject
    # ThreeFry (2) and unknown ids.
    for op in STATELESS_V2_FLOAT_OPS:
        exact = 0.0 if op == "StatelessRandomUniformV2" else None
        for dt in tf_types(op, "dtype"):
            for sname, shape in RANDOM_SHAPES:
                if dt != "float32" and sname in ("scalar", "empty"):
                    continue
                for alg in (1, 3):
                    if alg == 3 and sname != "mat":
                        continue
                    def build():
                        k, c = key_counter()
                        return op_fn(op)(shape=g.const(shape, "int32"), key=k, counter=c,
                                         alg=g.const(alg, "int32"), dtype=dt, name="op")
                    g.case(f"{op}.{sgname(dt)}.{sname}_alg{alg}", build, rtol=exact,
                           atol=exact)
        g.case(f"{op}.float.literal_key_counter",
               lambda: op_fn(op)(shape=g.const([6], "int64"),
                                 key=g.const([0xfedcba9876543210], "uint64"),
                                 counter=g.const([2**64 - 1, 17, 99], "uint64"),
                                 alg=g.const(1, "int32"), name="op"), rtol=exact, atol=exact)
        for alg in (0, 2, 4):
            g.case(f"{op}.float.alg{alg}",
                   lambda: op_fn(op)(shape=g.const([3], "int32"),
                                     key=g.const([1], "uint64"),
                                     counter=g.const([1, 2, 3, 4, 5], "uint64"),
                                     alg=g.const(alg, "int32"), name="op"), error=True)
        g.case(f"{op}.float.key_bad_shape",
               lambda: op_fn(op)(shape=g.const([3], "int32"),
                                 key=hide_shape(g.const([1, 2], "uint64")),
                                 counter=g.const([1, 2], "uint64"),
                                 alg=g.const(1, "int32"), name="op"), error=True)
        g.case(f"{op}.float.alg_not_scalar",
               lambda: op_fn(op)(shape=g.const([3], "int32"), key=g.const([1], "uint64"),
                                 counter=g.const([1, 2], "uint64"),
                                 alg=hide_rank(g.const([1], "int32")), name="op"), error=True)
    for dt in tf_types("StatelessRandomUniformIntV2", "dtype"):
        big = 2**62 if dt in ("int64", "uint64") else 2**30
        for sname, shape, lo, hi in [("mat", [3, 5], 5, 20), ("wide", [9], -big, big),
                                     ("one", [4], 3, 4)]:
            def build():
                k, c = key_counter((8, 1))
                return raw.StatelessRandomUniformIntV2(
                    shape=g.const(shape, "int32"), key=k, counter=c, alg=g.const(1, "int32"),
                    minval=g.const(lo, dt), maxval=g.const(hi, dt), name="op")
            g.case(f"StatelessRandomUniformIntV2.{sgname(dt)}.{sname}", build)
        g.case(f"StatelessRandomUniformIntV2.{sgname(dt)}.empty_range",
               lambda: raw.StatelessRandomUniformIntV2(
                   shape=g.const([2], "int32"), key=g.const([1], "uint64"),
                   counter=g.const([1, 2], "uint64"), alg=g.const(1, "int32"),
                   minval=g.const(3, dt), maxval=g.const(3, dt), name="op"), error=True)
    g.case("StatelessRandomUniformIntV2.int32.negative_range",
           lambda: raw.StatelessRandomUniformIntV2(
               shape=g.const([2, 3], "int64"), key=g.const([77], "uint64"),
               counter=g.const([1, 2], "uint64"), alg=g.const(3, "int32"),
               minval=g.const(-2**31, "int32"), maxval=g.const(-5, "int32"), name="op"))
    for dt in tf_types("StatelessRandomUniformFullIntV2", "dtype"):
        for alg in (1, 3):
            def build():
                k, c = key_counter((-2, 6))
                return raw.StatelessRandomUniformFullIntV2(
                    shape=g.const([7], "int32"), key=k, counter=c, alg=g.const(alg, "int32"),
                    dtype=dt, name="op")
            g.case(f"StatelessRandomUniformFullIntV2.{sgname(dt)}.alg{alg}", build)
    g.case("StatelessRandomUniformFullIntV2.uint64.alg2",
           lambda: raw.StatelessRandomUniformFullIntV2(
               shape=g.const([3], "int32"), key=g.const([1], "uint64"),
               counter=g.const([1, 2], "uint64"), alg=g.const(2, "int32"), name="op"),
           error=True)


@group
def random_shuffle(g):
    for dt in UNIVERSE:
        g.case(f"RandomShuffle.{sgname(dt)}.vec",
               lambda: raw.RandomShuffle(value=g.rand(dt, [13]), seed=7, seed2=11, name="op"))
    for sname, shape in [("mat", [6, 3]), ("rank3", [5, 2, 2]), ("one_row", [1, 4]),
                         ("empty_rows", [4, 0]), ("no_rows", [0, 3]), ("scalar", []),
                         ("long", [1000])]:
        g.case(f"RandomShuffle.float.{sname}",
               lambda: raw.RandomShuffle(value=g.rand("float32", shape), seed=3, seed2=0,
                                         name="op"))
    # Unseeded: a permutation of 0..99 has exactly these statistics.
    g.case("RandomShuffle.int32.unseeded",
           lambda: Out(raw.RandomShuffle(value=g.const(np.arange(100), "int32"), name="op"),
                       check="moments", lo=0, hi=99, mean=49.5, std=28.866, atol=0.01))
    def kc(seed=(1, 2)):
        return raw.StatelessRandomGetKeyCounter(seed=g.const(list(seed), "int64"), name="kc")
    for dt in UNIVERSE:
        def build():
            k, c = kc()
            return raw.StatelessShuffle(value=g.rand(dt, [11]), key=k, counter=c,
                                        alg=g.const(1, "int32"), name="op")
        g.case(f"StatelessShuffle.{sgname(dt)}.vec", build)
    for sname, shape, alg in [("mat_auto", [6, 3], 3), ("scalar", [], 1), ("one_row", [1, 4], 1),
                              ("long", [777], 1)]:
        def build():
            k, c = kc((-3, 8))
            return raw.StatelessShuffle(value=g.rand("float32", shape), key=k, counter=c,
                                        alg=g.const(alg, "int32"), name="op")
        g.case(f"StatelessShuffle.float.{sname}", build)
    for alg in (0, 2):
        g.case(f"StatelessShuffle.float.alg{alg}",
               lambda: raw.StatelessShuffle(value=g.rand("float32", [5]),
                                            key=g.const([1], "uint64"),
                                            counter=g.const([1, 2], "uint64"),
                                            alg=g.const(alg, "int32"), name="op"), error=True)
    g.case("RandomShuffle.int64.seed2_only",
           lambda: raw.RandomShuffle(value=g.const(np.arange(9), "int64"), seed=0, seed2=2,
                                     name="op"))


def poisson_v1(gdef, case):
    """Stores the RandomPoissonV2 node `op` (rate and output of one dtype) as a RandomPoisson:
    TensorFlow 2.21 refuses to run RandomPoisson in a current GraphDef."""
    for n in gdef.node:
        if n.name == f"{case}/op":
            n.op = "RandomPoisson"
            del n.attr["R"]


@group
def random_sampling(g):
    # Seeded stateful ops and stateless ops: TensorFlow's values exactly (computed in double).
    for op in ("Multinomial", "StatelessMultinomial"):
        stateless = op == "StatelessMultinomial"

        def mult(logits, n, out="int64", seed=(7, 11), seed_dt="int64"):
            n = g.const(n, "int32") if isinstance(n, int) else n
            if stateless:
                return raw.StatelessMultinomial(logits=logits, num_samples=n,
                                                seed=g.const(list(seed), seed_dt),
                                                output_dtype=out, name="op")
            return raw.Multinomial(logits=logits, num_samples=n,
                                   seed=seed[0], seed2=seed[1], output_dtype=out, name="op")
        for dt in tf_types(op, "T"):
            g.case(f"{op}.{sgname(dt)}.mat", lambda: mult(g.rand(dt, [3, 5]), 6))
            if dt != "float32":
                continue
            g.case(f"{op}.float.int32_out", lambda: mult(g.rand(dt, [2, 4]), 5, out="int32"))
            # 37 samples: rows start inside a Philox block.
            g.case(f"{op}.float.long_rows", lambda: mult(g.rand(dt, [4, 50], lo=-8, hi=2), 37))
            g.case(f"{op}.float.infinite_logits",
                   lambda: mult(g.const([[0.0, -np.inf, 1.0, 2.0], [-np.inf] * 4,
                                         [np.nan, 1.0, 0.5, np.inf]], "float32"), 8))
            g.case(f"{op}.float.empty_batch", lambda: mult(g.rand(dt, [0, 4]), 3))
            g.case(f"{op}.float.no_samples", lambda: mult(g.rand(dt, [2, 4]), 0))
            g.case(f"{op}.float.seed_other",
                   lambda: mult(g.rand(dt, [2, 6]), 9, seed=(0, 5) if not stateless else (-1, 3),
                                seed_dt="int32"))
            g.case(f"{op}.float.negative_samples", lambda: mult(g.rand(dt, [2, 4]),
                                                                hide_shape(g.const(-1, "int32"))),
                   error=True)
            g.case(f"{op}.float.no_classes", lambda: mult(g.rand(dt, [2, 0]), 3), error=True)
            g.case(f"{op}.float.logits_not_matrix",
                   lambda: mult(hide_rank(g.rand(dt, [4])), 3), error=True)
    # Unseeded: fresh random seeds, so only the statistics are TensorFlow's.
    g.case("Multinomial.float.unseeded",
           lambda: Out(raw.Multinomial(logits=g.const(np.zeros([1, 4]), "float32"),
                                       num_samples=g.const(4000, "int32"), name="op"),
                       check="moments", lo=0, hi=3, mean=1.5, std=1.118, atol=0.13))
    g.case("RandomGamma.float.unseeded",
           lambda: Out(raw.RandomGamma(shape=g.const([4000], "int32"),
                                       alpha=g.const(2.0, "float32"), name="op"),
                       check="moments", lo=0, hi=40, mean=2.0, std=1.414, atol=0.16))
    g.case("RandomPoissonV2.int64.unseeded",
           lambda: Out(raw.RandomPoissonV2(shape=g.const([4000], "int32"),
                                           rate=g.const(4.0, "float64"), name="op"),
                       check="moments", lo=0, hi=40, mean=4.0, std=2.0, atol=0.22))
    g.case("StatelessMultinomial.float.seed_bad_shape",
           lambda: raw.StatelessMultinomial(logits=g.rand("float32", [2, 3]),
                                            num_samples=g.const(2, "int32"),
                                            seed=hide_shape(g.const([1, 2, 3], "int64")),
                                            name="op"), error=True)

    alphas = [0.5, 1.0, 2.5, 7.0, 0.01, 30.0]
    for dt in tf_types("RandomGamma", "T"):
        g.case(f"RandomGamma.{sgname(dt)}.vec",
               lambda: raw.RandomGamma(shape=g.const([3], "int32"), alpha=g.const(alphas, dt),
                                       seed=7, seed2=11, name="op"))
        g.case(f"StatelessRandomGammaV2.{sgname(dt)}.vec",
               lambda: raw.StatelessRandomGammaV2(shape=g.const([3, 6], "int32"),
                                                  seed=g.const([4, 5], "int64"),
                                                  alpha=g.const(alphas, dt), name="op"))
    for dt in tf_types("StatelessRandomGammaV3", "dtype"):
        for alg in (1, 3):
            def build():
                k, c = raw.StatelessRandomGetKeyCounter(seed=g.const([4, 5], "int64"),
                                                        name="kc")
                return raw.StatelessRandomGammaV3(shape=g.const([3, 6], "int32"), key=k,
                                                  counter=c, alg=g.const(alg, "int32"),
                                                  alpha=g.const(alphas, dt), name="op")
            g.case(f"StatelessRandomGammaV3.{sgname(dt)}.alg{alg}", build)
    g.case("StatelessRandomGammaV3.float.alg2",
           lambda: raw.StatelessRandomGammaV3(shape=g.const([3], "int32"),
                                              key=g.const([1], "uint64"),
                                              counter=g.const([1, 2], "uint64"),
                                              alg=g.const(2, "int32"),
                                              alpha=g.const(1.5, "float32"), name="op"),
           error=True)
    g.case("StatelessRandomGammaV3.float.shape_mismatch",
           lambda: raw.StatelessRandomGammaV3(shape=g.const([3, 2], "int32"),
                                              key=g.const([1], "uint64"),
                                              counter=g.const([1, 2], "uint64"),
                                              alg=g.const(1, "int32"),
                                              alpha=g.const([1.0, 2.0, 3.0], "float32"),
                                              name="op"), error=True)
    g.case("RandomGamma.float.matrix_alpha",
           lambda: raw.RandomGamma(shape=g.const([], "int64"),
                                   alpha=g.rand("float32", [2, 3], lo=0.1, hi=5), seed=3,
                                   seed2=0, name="op"))
    g.case("RandomGamma.double.special_alpha",
           lambda: raw.RandomGamma(shape=g.const([2], "int32"),
                                   alpha=g.const([0.0, -1.0, np.nan, np.inf, 1e-30], "float64"),
                                   seed=1, seed2=2, name="op"))
    g.case("RandomGamma.float.empty",
           lambda: raw.RandomGamma(shape=g.const([0], "int32"), alpha=g.const([1.0], "float32"),
                                   seed=1, seed2=2, name="op"))
    g.case("RandomGamma.float.shape_not_vector",
           lambda: raw.RandomGamma(shape=hide_rank(g.const([[2]], "int32")),
                                   alpha=g.const([1.0], "float32"), seed=1, seed2=2, name="op"),
           error=True)
    g.case("StatelessRandomGammaV2.float.scalar_alpha",
           lambda: raw.StatelessRandomGammaV2(shape=g.const([5], "int64"),
                                              seed=g.const([-4, 5], "int32"),
                                              alpha=g.const(0.3, "float32"), name="op"))
    g.case("StatelessRandomGammaV2.float.empty_mismatch",
           lambda: raw.StatelessRandomGammaV2(shape=g.const([0, 2], "int32"),
                                              seed=g.const([4, 5], "int64"),
                                              alpha=g.const([1.0, 2.0, 3.0], "float32"),
                                              name="op"))
    g.case("StatelessRandomGammaV2.float.shape_mismatch",
           lambda: raw.StatelessRandomGammaV2(shape=g.const([3, 2], "int32"),
                                              seed=g.const([4, 5], "int64"),
                                              alpha=g.const([1.0, 2.0, 3.0], "float32"),
                                              name="op"), error=True)
    g.case("StatelessRandomGammaV2.float.seed_bad_shape",
           lambda: raw.StatelessRandomGammaV2(shape=g.const([3], "int32"),
                                              seed=hide_shape(g.const([4], "int64")),
                                              alpha=g.const([1.0, 2.0, 3.0], "float32"),
                                              name="op"), error=True)

    def rates(dt):
        if tf.as_dtype(dt).is_integer:
            return [0, 1, 3, 10, 12, 100, 1000, -2]
        return [0.5, 3.0, 9.99, 10.0, 12.5, 100.0, 1000.0, -2.0, np.inf]
    for r in tf_types("RandomPoissonV2", "R"):
        for dt in tf_types("RandomPoissonV2", "dtype"):
            g.case(f"RandomPoissonV2.{sgname(dt)}.rate_{sgname(r)}",
                   lambda: raw.RandomPoissonV2(shape=g.const([3], "int32"),
                                               rate=g.const(rates(r), r), seed=7, seed2=11,
                                               dtype=dt, name="op"))
            g.case(f"StatelessRandomPoisson.{sgname(dt)}.lam_{sgname(r)}",
                   lambda: raw.StatelessRandomPoisson(shape=g.const([3, len(rates(r))], "int32"),
                                                      seed=g.const([9, -9], "int64"),
                                                      lam=g.const(rates(r), r), dtype=dt,
                                                      name="op"))
    for dt in tf_types("RandomPoisson", "dtype"):
        g.case(f"RandomPoisson.{sgname(dt)}.vec",
               lambda: raw.RandomPoissonV2(shape=g.const([2, 2], "int64"),
                                           rate=g.const([0.5, 4.0, 25.0], dt), seed=5, seed2=6,
                                           dtype=dt, name="op"), edit=poisson_v1)
    g.case("RandomPoissonV2.int64.matrix_rate",
           lambda: raw.RandomPoissonV2(shape=g.const([], "int32"),
                                       rate=g.rand("float64", [2, 3], lo=0, hi=40), seed=0,
                                       seed2=3, name="op"))
    g.case("RandomPoissonV2.int64.empty",
           lambda: raw.RandomPoissonV2(shape=g.const([0], "int32"),
                                       rate=g.const([1.0], "float64"), seed=1, seed2=2,
                                       name="op"))
    g.case("StatelessRandomPoisson.int32.shape_mismatch",
           lambda: raw.StatelessRandomPoisson(shape=g.const([3, 2], "int32"),
                                              seed=g.const([4, 5], "int64"),
                                              lam=g.const([1.0, 2.0, 3.0], "float32"),
                                              dtype="int32", name="op"), error=True)


@group
def random_crop(g):
    """SampleDistortedBoundingBox and its V2 and stateless forms, seeded: TensorFlow's crops."""
    def sdbb(op, dt="int32", size=(100, 80, 3), boxes=None, covered=0.3, seed=(7, 11), **attrs):
        if boxes is None:
            boxes = [[[0.1, 0.2, 0.5, 0.9], [0.3, 0.3, 0.95, 0.6]]]
        img = size if isinstance(size, tf.Tensor) else g.const(list(size), dt)
        bb = g.const(np.asarray(boxes, np.float32).reshape([1, -1, 4]), "float32") \
            if not isinstance(boxes, tf.Tensor) else boxes
        if op == "SampleDistortedBoundingBox":
            r = raw.SampleDistortedBoundingBox(image_size=img, bounding_boxes=bb, seed=seed[0],
                                               seed2=seed[1], min_object_covered=covered,
                                               name="op", **attrs)
        elif op == "SampleDistortedBoundingBoxV2":
            r = raw.SampleDistortedBoundingBoxV2(image_size=img, bounding_boxes=bb,
                                                 min_object_covered=g.const(covered, "float32"),
                                                 seed=seed[0], seed2=seed[1], name="op", **attrs)
        else:
            r = raw.StatelessSampleDistortedBoundingBox(
                image_size=img, bounding_boxes=bb, min_object_covered=g.const(covered, "float32"),
                seed=g.const(list(seed), "int64"), name="op", **attrs)
        return list(r)
    for op in ("SampleDistortedBoundingBox", "SampleDistortedBoundingBoxV2",
               "StatelessSampleDistortedBoundingBox"):
        for dt in tf_types(op, "T"):
            g.case(f"{op}.{sgname(dt)}.boxes", lambda: sdbb(op, dt))
        g.case(f"{op}.int32.no_boxes", lambda: sdbb(op, boxes=np.zeros([0, 4]),
                                                     use_image_if_no_bounding_boxes=True))
        g.case(f"{op}.int32.image_too", lambda: sdbb(op, covered=0.9, seed=(3, 4),
                                                     use_image_if_no_bounding_boxes=True))
        g.case(f"{op}.int32.fallback_whole_image",
               lambda: sdbb(op, boxes=[[0.0, 0.0, 0.01, 0.01]], covered=1.0, max_attempts=3))
        g.case(f"{op}.int64.ranges",
               lambda: sdbb(op, "int64", size=(480, 640, 3), covered=0.1,
                            aspect_ratio_range=[0.5, 2.0], area_range=[0.3, 0.9],
                            max_attempts=20, seed=(1, 123)))
        g.case(f"{op}.int32.wide_image",
               lambda: sdbb(op, size=(7, 300, 1), boxes=[[0.0, 0.0, 1.0, 1.0]], covered=0.0,
                            aspect_ratio_range=[3.0, 9.0], seed=(5, 5)))
        g.case(f"{op}.int32.box_out_of_range",
               lambda: sdbb(op, boxes=[[0.1, 0.2, 1.5, 0.9]]), error=True)
        g.case(f"{op}.int32.no_boxes_not_allowed",
               lambda: sdbb(op, boxes=np.zeros([0, 4])), error=True)
        g.case(f"{op}.int32.image_size_length",
               lambda: sdbb(op, size=hide_shape(g.const([100, 80], "int32"))), error=True)
        g.case(f"{op}.int32.area_range_above_one",
               lambda: sdbb(op, area_range=[0.5, 1.5]), error=True)
        g.case(f"{op}.int32.negative_height",
               lambda: sdbb(op, size=(-4, 80, 3)), error=True)
        g.case(f"{op}.int32.boxes_not_rank3",
               lambda: sdbb(op, boxes=hide_rank(g.const(np.zeros([2, 4], np.float32)))),
               error=True)
    g.case("SampleDistortedBoundingBoxV2.int32.unseeded",
           lambda: [Out(t, check="range", lo=lo, hi=hi) for t, lo, hi in zip(
               raw.SampleDistortedBoundingBoxV2(
                   image_size=g.const([100, 80, 3], "int32"),
                   bounding_boxes=g.const([[[0.1, 0.2, 0.5, 0.9]]], "float32"),
                   min_object_covered=g.const(0.3, "float32"), name="op"),
               (0, -1, 0.0), (100, 100, 1.0))])
    for op in ("SampleDistortedBoundingBoxV2", "StatelessSampleDistortedBoundingBox"):
        g.case(f"{op}.int32.negative_covered", lambda: sdbb(op, covered=-0.5), error=True)
    g.case("StatelessSampleDistortedBoundingBox.int32.seed_int32",
           lambda: list(raw.StatelessSampleDistortedBoundingBox(
               image_size=g.const([50, 60, 3], "int32"),
               bounding_boxes=g.const([[[0.2, 0.2, 0.7, 0.8]]], "float32"),
               min_object_covered=g.const(0.2, "float32"), seed=g.const([-8, 9], "int32"),
               name="op")))


NUMERIC_STATE = ["float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64",
                 "uint8", "uint16", "uint32", "uint64", "complex64", "complex128"]


@group
def state_ref(g):
    for dt in UNIVERSE:
        def assign_read(op="VariableV2"):
            v = op_fn(op)(shape=[2, 3], dtype=dt, name="v")
            a = raw.Assign(ref=v, value=g.rand(dt, [2, 3]), name="op")
            with tf.control_dependencies([a]):
                return raw.Identity(input=v, name="read")
        g.case(f"Assign.{sgname(dt)}.read", assign_read)
        def assign_out():
            v = raw.VariableV2(shape=[2], dtype=dt, name="v")
            return raw.Identity(input=raw.Assign(ref=v, value=g.rand(dt, [2]), name="op"),
                                name="out")
        g.case(f"VariableV2.{sgname(dt)}.assign_out", assign_out)
        def ref_identity():
            v = raw.VariableV2(shape=[3], dtype=dt, name="v")
            a = raw.Assign(ref=v, value=g.rand(dt, [3]), name="assign")
            return raw.Identity(input=raw.RefIdentity(input=a, name="op"), name="out")
        g.case(f"RefIdentity.{sgname(dt)}.after_assign", ref_identity)
        def temporary():
            t = raw.TemporaryVariable(shape=[2, 2], dtype=dt, var_name="tmp", name="t")
            a = raw.Assign(ref=t, value=g.rand(dt, [2, 2]), name="assign")
            return raw.DestroyTemporaryVariable(ref=a, var_name="tmp", name="op")
        g.case(f"TemporaryVariable.{sgname(dt)}.assign_destroy", temporary)
    g.case("Variable.float.assign_read",
           lambda: (lambda v: [raw.Identity(input=raw.Assign(ref=v, value=g.rand("float32", [2]),
                                                             name="op"), name="out")])(
               raw.Variable(shape=[2], dtype="float32", name="v")))
    def reshape_assign():
        v = raw.VariableV2(shape=[2], dtype="float32", name="v")
        a = raw.Assign(ref=v, value=g.rand("float32", [3, 2]), validate_shape=False, name="op")
        return raw.Identity(input=a, name="out")
    g.case("Assign.float.no_validate_shape", reshape_assign)
    def uninitialized():
        v = raw.VariableV2(shape=[2], dtype="float32", name="v")
        return raw.Identity(input=v, name="out")
    g.case("VariableV2.float.uninitialized", uninitialized, error=True)
    def is_initialized(init):
        v = raw.VariableV2(shape=[2], dtype="int32", name="v")
        if not init:
            return raw.IsVariableInitialized(ref=v, name="op")
        a = raw.Assign(ref=v, value=g.const([1, 2], "int32"), name="assign")
        with tf.control_dependencies([a]):
            return raw.IsVariableInitialized(ref=v, name="op")
    g.case("IsVariableInitialized.int32.before", lambda: is_initialized(False))
    g.case("IsVariableInitialized.int32.after", lambda: is_initialized(True))
    for dt in NUMERIC_STATE:
        for op in ("AssignAdd", "AssignSub"):
            def update(op=op):
                v = raw.VariableV2(shape=[2, 3], dtype=dt, name="v")
                a = raw.Assign(ref=v, value=g.rand(dt, [2, 3], lo=0, hi=8), name="assign")
                with tf.control_dependencies([a]):
                    u = op_fn(op)(ref=v, value=g.rand(dt, [2, 3], lo=0, hi=3), name="op")
                return raw.Identity(input=u, name="out")
            g.case(f"{op}.{sgname(dt)}.after_assign", update)


@group
def state_resource(g):
    for dt in UNIVERSE:
        def assign_read(dt=dt):
            h = raw.VarHandleOp(dtype=dt, shape=[2, 3], shared_name="v", name="v")
            a = raw.AssignVariableOp(resource=h, value=g.rand(dt, [2, 3]), name="assign")
            with tf.control_dependencies([a]):
                return raw.ReadVariableOp(resource=h, dtype=dt, name="op")
        g.case(f"ReadVariableOp.{sgname(dt)}.after_assign", assign_read)
        def gather(dt=dt):
            h = raw.VarHandleOp(dtype=dt, shape=[4, 2], shared_name="v", name="v")
            a = raw.AssignVariableOp(resource=h, value=g.rand(dt, [4, 2]), name="assign")
            with tf.control_dependencies([a]):
                return raw.ResourceGather(resource=h, indices=g.const([3, 0, 3], "int32"),
                                          dtype=dt, name="op")
        g.case(f"ResourceGather.{sgname(dt)}.rows", gather)
    for dt in NUMERIC_STATE:
        for op in ("AssignAddVariableOp", "AssignSubVariableOp"):
            def update(op=op, dt=dt):
                h = raw.VarHandleOp(dtype=dt, shape=[3], shared_name="v", name="v")
                a = raw.AssignVariableOp(resource=h, value=g.rand(dt, [3], lo=2, hi=8),
                                         name="assign")
                with tf.control_dependencies([a]):
                    u = op_fn(op)(resource=h, value=g.rand(dt, [3], lo=0, hi=2), name="op")
                with tf.control_dependencies([u]):
                    return raw.ReadVariableOp(resource=h, dtype=dt, name="read")
            g.case(f"{op}.{sgname(dt)}.read", update)
    def gather_variants():
        h = raw.VarHandleOp(dtype="float32", shape=[2, 3, 2], shared_name="v", name="v")
        a = raw.AssignVariableOp(resource=h, value=g.rand("float32", [2, 3, 2]), name="assign")
        with tf.control_dependencies([a]):
            return [raw.ResourceGather(resource=h, indices=g.const([[2, 0], [1, 1]], "int64"),
                                       dtype="float32", batch_dims=1, name="op"),
                    raw.ResourceGather(resource=h, indices=g.const(1, "int32"), dtype="float32",
                                       name="scalar"),
                    raw.ResourceGather(resource=h, indices=g.const(np.zeros([0], np.int32)),
                                       dtype="float32", name="empty")]
    g.case("ResourceGather.float.variants", gather_variants)
    def out_of_range():
        h = raw.VarHandleOp(dtype="float32", shape=[2], shared_name="v", name="v")
        a = raw.AssignVariableOp(resource=h, value=g.rand("float32", [2]), name="assign")
        with tf.control_dependencies([a]):
            return raw.ResourceGather(resource=h, indices=g.const([2], "int32"),
                                      dtype="float32", name="op")
    g.case("ResourceGather.float.out_of_range", out_of_range, error=True)
    def initialized(stage):
        h = raw.VarHandleOp(dtype="int32", shape=[], shared_name="v", name="v")
        if stage == "before":
            return raw.VarIsInitializedOp(resource=h, name="op")
        a = raw.AssignVariableOp(resource=h, value=g.const(3, "int32"), name="assign")
        with tf.control_dependencies([a]):
            if stage == "after":
                return raw.VarIsInitializedOp(resource=h, name="op")
            d = raw.DestroyResourceOp(resource=h, name="destroy")
        with tf.control_dependencies([d]):
            return raw.VarIsInitializedOp(resource=h, name="op")
    for stage in ("before", "after", "destroyed"):
        g.case(f"VarIsInitializedOp.int32.{stage}", lambda: initialized(stage))
    def destroy_missing(ignore):
        h = raw.VarHandleOp(dtype="int32", shape=[], shared_name="v", name="v")
        d = raw.DestroyResourceOp(resource=h, ignore_lookup_error=ignore, name="op")
        with tf.control_dependencies([d]):
            return raw.Identity(input=g.const(1, "int32"), name="out")
    g.case("DestroyResourceOp.int32.missing_ignored", lambda: destroy_missing(True))
    g.case("DestroyResourceOp.int32.missing", lambda: destroy_missing(False), error=True)
    def read_uninitialized():
        h = raw.VarHandleOp(dtype="float32", shape=[2], shared_name="v", name="v")
        return raw.ReadVariableOp(resource=h, dtype="float32", name="op")
    g.case("ReadVariableOp.float.uninitialized", read_uninitialized, error=True)
@group
def control_flow(g):
    # v1 while loops (Enter, Merge, Switch, LoopCond, NextIteration, Exit) carrying a value of
    # each dtype through the loop unchanged beside a counter and an accumulator.
    for dt in UNIVERSE:
        def loop():
            carried = g.rand(dt, [2])
            i, acc, c = tf.compat.v1.while_loop(
                lambda i, acc, c: raw.Less(x=i, y=g.const(4, "int32")),
                lambda i, acc, c: (raw.AddV2(x=i, y=g.const(1, "int32")),
                                   raw.Mul(x=acc, y=g.const(2.0, "float32")), c),
                [g.const(0, "int32"), g.const(1.5, "float32"), carried], name="loop")
            return [i, acc, c]
        g.case(f"Enter.{sgname(dt)}.while_loop", loop)
        def cond(pred):
            x, y = g.rand(dt, [3]), g.rand(dt, [3])
            return tf.compat.v1.cond(g.const(pred, "bool"), lambda: raw.Identity(input=x),
                                     lambda: raw.Identity(input=y), name="cond")
        g.case(f"Switch.{sgname(dt)}.cond_true", lambda: cond(True))
        g.case(f"Merge.{sgname(dt)}.cond_false", lambda: cond(False))
    def nested():
        def outer_body(i, total):
            j, s = tf.compat.v1.while_loop(
                lambda j, s: raw.Less(x=j, y=i),
                lambda j, s: (raw.AddV2(x=j, y=g.const(1, "int32")), raw.AddV2(x=s, y=j)),
                [g.const(0, "int32"), g.const(0, "int32")], name="inner")
            return raw.AddV2(x=i, y=g.const(1, "int32")), raw.AddV2(x=total, y=s)
        return list(tf.compat.v1.while_loop(lambda i, t: raw.Less(x=i, y=g.const(5, "int32")),
                                            outer_body, [g.const(0, "int32"),
                                                         g.const(0, "int32")], name="outer"))
    g.case("Enter.int32.nested_loops", nested)
    def zero_iterations():
        return list(tf.compat.v1.while_loop(
            lambda i, x: raw.Less(x=i, y=g.const(0, "int32")),
            lambda i, x: (raw.AddV2(x=i, y=g.const(1, "int32")), raw.Neg(x=x)),
            [g.const(0, "int32"), g.rand("float32", [2, 2])], name="loop"))
    g.case("LoopCond.int32.zero_iterations", zero_iterations)
    def raw_switch_merge():
        x = g.rand("float32", [2])
        f, t = raw.Switch(data=x, pred=g.const(True), name="op")
        out, index = raw.Merge(inputs=[raw.Neg(x=f), raw.Identity(input=t)], name="merge")
        return [out, index]
    g.case("Switch.float.raw_merge_index", raw_switch_merge)

    # The Ref forms, on a ref variable: a hand-built loop (RefEnter, RefMerge, RefSwitch,
    # RefNextIteration, RefExit) around a counter, reading the variable after the loop.
    def ref_loop():
        v = raw.VariableV2(shape=[2], dtype="float32", name="v")
        a = raw.Assign(ref=v, value=g.rand("float32", [2]), name="assign")
        frame = "ref_loop"
        ei = raw.Enter(data=g.const(0, "int32"), frame_name=frame, name="enter_i")
        ev = raw.RefEnter(data=a, frame_name=frame, name="enter_v")
        limit = raw.Enter(data=g.const(3, "int32"), frame_name=frame, is_constant=True,
                          name="limit")
        one = raw.Enter(data=g.const(1, "int32"), frame_name=frame, is_constant=True,
                        name="one")
        mi = raw.Merge(inputs=[ei, ei], name="merge_i")
        mv = raw.RefMerge(inputs=[ev, ev], name="merge_v")
        pred = raw.LoopCond(input=raw.Less(x=mi.output, y=limit), name="cond")
        si = raw.Switch(data=mi.output, pred=pred, name="switch_i")
        sv = raw.RefSwitch(data=mv.output, pred=pred, name="switch_v")
        ni = raw.NextIteration(data=raw.AddV2(x=si.output_true, y=one), name="next_i")
        nv = raw.RefNextIteration(data=sv.output_true, name="next_v")
        mi.output.op._update_input(1, ni)
        mv.output.op._update_input(1, nv)
        xi = raw.Exit(data=si.output_false, name="exit_i")
        xv = raw.RefExit(data=sv.output_false, name="exit_v")
        return [xi, raw.Identity(input=xv, name="read")]
    g.case("RefEnter.float.ref_loop", ref_loop)
    def ref_switch_merge():
        v = raw.VariableV2(shape=[3], dtype="int32", name="v")
        a = raw.Assign(ref=v, value=g.rand("int32", [3]), name="assign")
        f, t = raw.RefSwitch(data=a, pred=g.const(False), name="op")
        out, index = raw.RefMerge(inputs=[f, t], name="merge")
        return [raw.Identity(input=out, name="read"), index]
    g.case("RefSwitch.int32.ref_merge", ref_switch_merge)


@group
def functions(g):
    def call(op, dt):
        @tf.function(autograph=False)
        def f(x, y):
            return raw.AddV2(x=raw.Mul(x=x, y=y), y=x), raw.Identity(input=y)
        spec = tf.TensorSpec([2], dt)
        cf = f.get_concrete_function(spec, spec)
        cf.add_to_graph(tf.compat.v1.get_default_graph())
        return list(op_fn(op)(args=[g.rand(dt, [2]), g.rand(dt, [2])], Tout=[dt, dt], f=cf,
                              name="op"))
    for op in ("PartitionedCall", "StatefulPartitionedCall"):
        for dt in ("float32", "int32", "float64"):
            g.case(f"{op}.{sgname(dt)}.two_outputs", lambda: call(op, dt))
    def nested():
        @tf.function(autograph=False)
        def inner(x):
            return raw.Square(x=x)
        @tf.function(autograph=False)
        def outer(x):
            return raw.AddV2(x=inner(x), y=g.const(1.0, "float32"))
        return outer(g.rand("float32", [3]))
    g.case("PartitionedCall.float.nested", nested)
    def stateful():
        @tf.function(autograph=False)
        def f(x):
            r = raw.RandomUniform(shape=g.const([3], "int32"), dtype="float32", seed=4, seed2=2)
            return raw.AddV2(x=x, y=r)
        return f(g.rand("float32", [3]))
    g.case("StatefulPartitionedCall.float.seeded_random", stateful)
    def mixed():
        @tf.function(autograph=False)
        def f(s, n):
            return raw.StringJoin(inputs=[s, s], separator="-"), raw.Neg(x=n)
        return list(f(g.rand("string", [2]), g.rand("int64", [2, 2])))
    g.case("PartitionedCall.string.mixed_dtypes", mixed)


@group
def send_recv(g):
    dev = "/job:localhost/replica:0/task:0/device:CPU:0"
    for dt in ("float32", "int32", "string", "bool", "float16", "int64", "complex64"):
        def pair():
            graph = tf.compat.v1.get_default_graph()
            tdt = tf.as_dtype(dt)
            common = dict(tensor_name=attr_value_pb2.AttrValue(s=b"edge_x"),
                          send_device=attr_value_pb2.AttrValue(s=dev.encode()),
                          send_device_incarnation=attr_value_pb2.AttrValue(i=1),
                          recv_device=attr_value_pb2.AttrValue(s=dev.encode()),
                          client_terminated=attr_value_pb2.AttrValue(b=False))
            typ = attr_value_pb2.AttrValue(type=tdt.as_datatype_enum)
            send = graph.create_op("_Send", [g.rand(dt, [2, 3])], [],
                                   attrs=dict(common, T=typ), name="send")
            recv = graph.create_op("_Recv", [], [tdt], attrs=dict(common, tensor_type=typ),
                                   name="op")
            return [recv.outputs[0], send]
        g.case(f"Recv.{sgname(dt)}.local_pair", pair)  # a name cannot start with "_"
SAVE_DTYPES = ["float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64",
               "uint8", "uint16", "uint32", "uint64", "bool", "string", "complex64",
               "complex128"]


def prefix_placeholder(g, path, name="prefix"):
    p = raw.Placeholder(dtype="string", shape=[], name=name)
    g.feed(p, np.array(path.encode(), dtype=object))
    return p


@group
def io(g):
    for dt in SAVE_DTYPES:
        def save_restore():
            prefix = prefix_placeholder(g, "${TMP}/ckpt")
            x = g.rand(dt, [2, 3])
            s = raw.SaveV2(prefix=prefix, tensor_names=g.const([b"x", b"y"], "string"),
                           shape_and_slices=g.const([b"", b""], "string"),
                           tensors=[x, g.rand(dt, [])], name="save")
            with tf.control_dependencies([s]):
                return list(raw.RestoreV2(prefix=prefix,
                                          tensor_names=g.const([b"y", b"x"], "string"),
                                          shape_and_slices=g.const([b"", b""], "string"),
                                          dtypes=[dt, dt], name="op"))
        g.case(f"RestoreV2.{sgname(dt)}.round_trip", save_restore)
    def restore_slice():
        prefix = prefix_placeholder(g, "${TMP}/ckpt")
        s = raw.SaveV2(prefix=prefix, tensor_names=g.const([b"x"], "string"),
                       shape_and_slices=g.const([b""], "string"),
                       tensors=[g.rand("float32", [4, 3])], name="save")
        with tf.control_dependencies([s]):
            return list(raw.RestoreV2(prefix=prefix, tensor_names=g.const([b"x"], "string"),
                                      shape_and_slices=g.const([b"4 3 1,2:-"], "string"),
                                      dtypes=["float32"], name="op"))
    g.case("RestoreV2.float.slice", restore_slice)
    def restore_missing():
        prefix = prefix_placeholder(g, "${TMP}/ckpt")
        s = raw.SaveV2(prefix=prefix, tensor_names=g.const([b"x"], "string"),
                       shape_and_slices=g.const([b""], "string"),
                       tensors=[g.rand("float32", [2])], name="save")
        with tf.control_dependencies([s]):
            return list(raw.RestoreV2(prefix=prefix, tensor_names=g.const([b"nope"], "string"),
                                      shape_and_slices=g.const([b""], "string"),
                                      dtypes=["float32"], name="op"))
    g.case("RestoreV2.float.missing_tensor", restore_missing, error=True)
    def merge():
        pa = prefix_placeholder(g, "${TMP}/part_a", "prefix_a")
        pb = prefix_placeholder(g, "${TMP}/part_b", "prefix_b")
        pm = prefix_placeholder(g, "${TMP}/merged", "prefix_m")
        sa = raw.SaveV2(prefix=pa, tensor_names=g.const([b"a"], "string"),
                        shape_and_slices=g.const([b""], "string"),
                        tensors=[g.rand("float32", [3])], name="save_a")
        sb = raw.SaveV2(prefix=pb, tensor_names=g.const([b"b", b"c"], "string"),
                        shape_and_slices=g.const([b"", b""], "string"),
                        tensors=[g.rand("int64", [2, 2]), g.rand("string", [2])], name="save_b")
        with tf.control_dependencies([sa, sb]):
            m = raw.MergeV2Checkpoints(checkpoint_prefixes=raw.Pack(values=[pa, pb]),
                                       destination_prefix=pm, name="op")
        with tf.control_dependencies([m]):
            return list(raw.RestoreV2(prefix=pm, tensor_names=g.const([b"c", b"a", b"b"],
                                                                      "string"),
                                      shape_and_slices=g.const([b"", b"", b""], "string"),
                                      dtypes=["string", "float32", "int64"], name="restore"))
    g.case("MergeV2Checkpoints.none.save_merge_restore", merge)
    for sname, base, shard, num in [("first", b"model", 0, 3), ("last", b"/a/b/ckpt", 2, 3),
                                    ("big", b"x_temp/part", 12345, 99999)]:
        g.case(f"ShardedFilename.string.{sname}",
               lambda: raw.ShardedFilename(basename=g.const(base, "string"),
                                           shard=g.const(shard, "int32"),
                                           num_shards=g.const(num, "int32"), name="op"))
    for sname, base, num in [("three", b"model", 3), ("one", b"/tmp/x", 1)]:
        g.case(f"ShardedFilespec.string.{sname}",
               lambda: raw.ShardedFilespec(basename=g.const(base, "string"),
                                           num_shards=g.const(num, "int32"), name="op"))


def example(**features):
    from tensorflow.core.example import example_pb2, feature_pb2
    ex = example_pb2.Example()
    for k, v in features.items():
        f = ex.features.feature[k]
        if isinstance(v, list) and v and isinstance(v[0], bytes):
            f.bytes_list.value.extend(v)
        elif isinstance(v, list) and v and isinstance(v[0], float):
            f.float_list.value.extend(v)
        elif isinstance(v, list):
            f.int64_list.value.extend(v)
    return ex.SerializeToString(deterministic=True)


@group
def logging_print(g):
    for dt in UNIVERSE:
        g.case(f"Print.{sgname(dt)}.data",
               lambda: raw.Print(input=g.rand(dt, [2, 3]),
                                 data=[g.rand(dt, [4]), g.rand("string", [2])],
                                 message="sg conformance: ", summarize=2, name="op"))
    g.case("Print.float.no_data",
           lambda: raw.Print(input=g.rand("float32", []), data=[], name="op"))
    g.case("Print.int32.first_n",
           lambda: raw.Print(input=g.rand("int32", [0, 2]), data=[g.rand("int64", [3, 3])],
                             first_n=1, summarize=-1, name="op"))

    def print_v2(stream, end="\n", value=b"sg conformance: PrintV2"):
        def build():
            s = g.const(value, "string")
            return [raw.PrintV2(input=s, output_stream=stream, end=end, name="op"), s]
        return build
    for stream in ("stderr", "stdout", "log(info)", "log(warning)", "log(error)"):
        g.case(f"PrintV2.none.{stream.replace('(', '_').replace(')', '')}", print_v2(stream))
    g.case("PrintV2.none.end", print_v2("stderr", end=" <end>\n"))
    g.case("PrintV2.none.bad_stream", print_v2("nowhere"), error=True)

    def print_v2_vector():
        s = g.const([b"a", b"b"], "string")
        return [raw.PrintV2(input=hide_rank(s), name="op"), s]
    g.case("PrintV2.none.vector", print_v2_vector, error=True)
    g.case("Timestamp.none.now",
           lambda: Out(raw.Timestamp(name="op"), check="range", lo=1.7e9, hi=1e10))


@group
def parsing(g):
    exs = [example(age=[31], score=[0.5, 1.5], name=[b"ann"], tags=[b"a", b"b"], ids=[7, 8, 9]),
           example(age=[40], name=[b"bob"], ids=[]),
           example(score=[2.0, -1.0], tags=[b"c"])]
    def v1(serialized, with_names=True):
        return list(raw.ParseExample(
            serialized=g.const(serialized, "string"),
            names=g.const([b"e%d" % i for i in range(len(serialized))] if with_names else [],
                          "string"),
            sparse_keys=[g.const(b"ids", "string"), g.const(b"tags", "string")],
            dense_keys=[g.const(b"age", "string"), g.const(b"name", "string"),
                        g.const(b"score", "string")],
            dense_defaults=[g.const([-1], "int64"), g.const([b"?"], "string"),
                            g.const([0.0, 0.0], "float32")],
            sparse_types=["int64", "string"], dense_shapes=[[1], [1], [2]], name="op"))
    g.case("ParseExample.none.dense_sparse", lambda: v1(exs))
    g.case("ParseExample.none.no_names", lambda: v1(exs[:2], False))
    g.case("ParseExample.none.empty_batch", lambda: v1(np.zeros([0], dtype=object), False))
    g.case("ParseExample.none.bad_shape",
           lambda: v1([example(age=[1, 2], score=[1.0, 2.0])], False), error=True)
    g.case("ParseExample.none.missing_required",
           lambda: list(raw.ParseExample(
               serialized=g.const([example(age=[1])], "string"), names=g.const([], "string"),
               sparse_keys=[], dense_keys=[g.const(b"score", "string")],
               dense_defaults=[g.const(np.zeros([0], np.float32), "float32")],
               sparse_types=[], dense_shapes=[[2]], name="op")), error=True)
    def v2(serialized, ragged=False):
        return list(raw.ParseExampleV2(
            serialized=g.const(serialized, "string"), names=g.const([], "string"),
            sparse_keys=g.const([b"ids"], "string"),
            dense_keys=g.const([b"age", b"score", b"tags"], "string"),
            ragged_keys=g.const([b"name"] if ragged else np.zeros([0], object), "string"),
            dense_defaults=[g.const([0], "int64"), g.const([9.0, 9.0], "float32"),
                            g.const(b"", "string")],
            num_sparse=1, sparse_types=["int64"],
            ragged_value_types=["string"] if ragged else [],
            ragged_split_types=["int64"] if ragged else [],
            dense_shapes=[[1], [2], [None]], name="op"))
    g.case("ParseExampleV2.none.dense_sparse_varlen", lambda: v2(exs))
    g.case("ParseExampleV2.none.scalar_input", lambda: v2(exs[0]))
    g.case("ParseExampleV2.none.ragged", lambda: v2(exs, ragged=True))


@group
def parsing_single(g):
    exs = [example(age=[31], score=[0.5, 1.5], name=[b"ann"], tags=[b"a", b"b"], ids=[7, 8, 9]),
           example(age=[40], name=[b"bob"], ids=[]),
           example(score=[2.0, -1.0], tags=[b"c"]),
           example()]

    def single(serialized, dense_shapes=([1], [2], [None]), defaults=None):
        defaults = defaults or [g.const([0], "int64"), g.const([9.0, 9.0], "float32"),
                                g.const(b"", "string")]
        return list(raw.ParseSingleExample(
            serialized=g.const(serialized, "string"), dense_defaults=defaults, num_sparse=2,
            sparse_keys=["ids", "name"], dense_keys=["age", "score", "tags"],
            sparse_types=["int64", "string"], dense_shapes=list(dense_shapes), name="op"))
    for i, ex in enumerate(exs):
        g.case(f"ParseSingleExample.none.example{i}", lambda: single(ex))
    g.case("ParseSingleExample.none.matrix_default",
           lambda: list(raw.ParseSingleExample(
               serialized=g.const(exs[1], "string"),
               dense_defaults=[g.const([[1.0, 2.0], [3.0, 4.0]], "float32")], num_sparse=0,
               sparse_keys=[], dense_keys=["score"], sparse_types=[], dense_shapes=[[2, 2]],
               name="op")))
    g.case("ParseSingleExample.none.missing_required",
           lambda: single(exs[1], defaults=[g.const([0], "int64"),
                                            g.const(np.zeros([0], np.float32), "float32"),
                                            g.const(b"", "string")]), error=True)
    g.case("ParseSingleExample.none.wrong_count",
           lambda: single(example(age=[1, 2])), error=True)
    g.case("ParseSingleExample.none.wrong_type",
           lambda: single(example(age=[1.5])), error=True)
    g.case("ParseSingleExample.none.not_a_proto",
           lambda: single(b"\x0a\x05ab"), error=True)
    g.case("ParseSingleExample.none.vector_input",
           lambda: list(raw.ParseSingleExample(
               serialized=hide_rank(g.const([exs[0]], "string")),
               dense_defaults=[g.const([0], "int64")], num_sparse=0, sparse_keys=[],
               dense_keys=["age"], sparse_types=[], dense_shapes=[[1]], name="op")), error=True)


@group
def summaries(g):
    real = tf_types("ScalarSummary")
    for dt in real:
        g.case(f"ScalarSummary.{sgname(dt)}.vector",
               lambda: raw.ScalarSummary(tags=g.const([b"loss", b"acc", b"lr"], "string"),
                                         values=g.rand(dt, [3], lo=-100, hi=100), name="op"))
        g.case(f"HistogramSummary.{sgname(dt)}.matrix",
               lambda: raw.HistogramSummary(tag=g.const(b"weights", "string"),
                                            values=g.rand(dt, [4, 5], lo=-100, hi=100),
                                            name="op"))
    g.case("ScalarSummary.float.scalar",
           lambda: raw.ScalarSummary(tags=g.const(b"x", "string"),
                                     values=g.const(np.float32(2.5)), name="op"))
    g.case("ScalarSummary.float.special",
           lambda: raw.ScalarSummary(tags=g.const([[b"a", b"b"], [b"c", b"d"]], "string"),
                                     values=g.const([[np.nan, np.inf], [-0.0, 1e-30]],
                                                    "float32"), name="op"))
    g.case("ScalarSummary.double.rounded",
           lambda: raw.ScalarSummary(tags=g.const([b"a"], "string"),
                                     values=g.const([0.1], "float64"), name="op"))
    g.case("ScalarSummary.float.empty",
           lambda: raw.ScalarSummary(tags=g.const(np.zeros([0], object), "string"),
                                     values=g.const(np.zeros([0], np.float32)), name="op"))
    g.case("ScalarSummary.float.shape_mismatch",
           lambda: raw.ScalarSummary(tags=hide_rank(g.const([b"a", b"b"], "string")),
                                     values=g.const([1.0, 2.0, 3.0], "float32"), name="op"),
           error=True)
    for sname, vals in [("edges", [0.0, -0.0, 1e-12, -1e-12, 1.1e-12, 5e-13, 1e20, -1e21, 1.0,
                                   1.0, 2.0, 1e300]),
                        ("tiny", [1e-300, -1e-300, 0.0]),
                        ("wide", np.linspace(-1e6, 1e6, 37)),
                        ("one", [3.0])]:
        g.case(f"HistogramSummary.double.{sname}",
               lambda: raw.HistogramSummary(tag=g.const(b"h", "string"),
                                            values=g.const(np.array(vals, np.float64), "float64"),
                                            name="op"))
    g.case("HistogramSummary.float.empty",
           lambda: raw.HistogramSummary(tag=g.const(b"none", "string"),
                                        values=g.const(np.zeros([0, 3], np.float32)), name="op"))
    g.case("HistogramSummary.float.default_type",
           lambda: raw.HistogramSummary(tag=g.const(b"h", "string"),
                                        values=g.const([1.5, -2.5], "float32"), name="op"))
    for sname, v in [("nan", np.nan), ("inf", np.inf)]:
        g.case(f"HistogramSummary.float.{sname}",
               lambda: raw.HistogramSummary(tag=g.const(b"bad", "string"),
                                            values=g.const([1.0, v], "float32"), name="op"),
               error=True)

    def scalar(tag, v):
        return raw.ScalarSummary(tags=g.const(tag, "string"), values=g.const(np.float32(v)))

    def hist(tag):
        return raw.HistogramSummary(tag=g.const(tag, "string"),
                                    values=g.const([1.0, 2.0, 2.5], "float32"))
    g.case("MergeSummary.none.three",
           lambda: raw.MergeSummary(inputs=[scalar(b"a", 1.0), hist(b"h"),
                                            tf.stack([scalar(b"b", 2.0), scalar(b"c", 3.0)])],
                                    name="op"))
    g.case("MergeSummary.none.one",
           lambda: raw.MergeSummary(inputs=[scalar(b"a", 1.0)], name="op"))
    g.case("MergeSummary.none.empty_inputs",
           lambda: raw.MergeSummary(inputs=[g.const(np.zeros([0], object), "string"),
                                            g.const(b"", "string")], name="op"))
    g.case("MergeSummary.none.duplicate_tag",
           lambda: raw.MergeSummary(inputs=[scalar(b"a", 1.0), scalar(b"a", 2.0)], name="op"),
           error=True)
    g.case("MergeSummary.none.not_a_summary",
           lambda: raw.MergeSummary(inputs=[g.const(b"\x0a\x05ab", "string")], name="op"),
           error=True)
    rate = lambda r=16000: g.const(np.int32(r))  # noqa: E731
    for sname, shape in [("stereo", [5, 2]), ("mono", [7, 1]), ("no_frames", [0, 3])]:
        g.case(f"EncodeWav.float.{sname}",
               lambda: raw.EncodeWav(audio=g.rand("float32", shape, lo=-1.5, hi=1.5),
                                     sample_rate=rate(), name="op"))
    g.case("EncodeWav.float.rounding",
           lambda: raw.EncodeWav(audio=g.const([[0.5, -1.5], [1.0, -1.0], [2e-5, -2e-5],
                                                [1.5 / 32768, -1.5 / 32768],
                                                [0.5 / 32768, -0.5 / 32768]], "float32"),
                                 sample_rate=rate(8000), name="op"))
    for sname, shape, r in [("no_channels", [3, 0], 16000), ("zero_rate", [3, 1], 0),
                            ("negative_rate", [3, 1], -5)]:
        g.case(f"EncodeWav.float.{sname}",
               lambda: raw.EncodeWav(audio=g.rand("float32", shape), sample_rate=rate(r),
                                     name="op"), error=True)
    g.case("EncodeWav.float.vector",
           lambda: raw.EncodeWav(audio=hide_rank(g.rand("float32", [3])), sample_rate=rate(),
                                 name="op"), error=True)


def sequence_example(context=None, lists=None):
    """A serialized tf.SequenceExample: context {key: values}, lists {key: [step values]}, the
    kind of each (bytes, float or int64) read from its first value."""
    from tensorflow.core.example import example_pb2

    def fill(f, v):
        if v and isinstance(v[0], bytes):
            f.bytes_list.value.extend(v)
        elif v and isinstance(v[0], float):
            f.float_list.value.extend(v)
        elif v:
            f.int64_list.value.extend(v)
    ex = example_pb2.SequenceExample()
    for k, v in (context or {}).items():
        fill(ex.context.feature[k], v)
    for k, steps in (lists or {}).items():
        fl = ex.feature_lists.feature_list[k]
        for v in steps:
            fill(fl.feature.add(), v)
    return ex.SerializeToString(deterministic=True)


@group
def parsing_sequence(g):
    seqs = [sequence_example({"len": [3], "lang": [b"en"], "nums": [5, 6]},
                             {"tok": [[1.0, 0.5], [2.0, 1.5], [3.0, 2.5]],
                              "ids": [[1, 2], [], [3]], "words": [[b"a"], [b"b"], [b"c"]],
                              "spf": [[0.25], [], [1.0, 2.0], [3.0]],
                              "words2": [[b"p", b"q"], [b"r"]]}),
            sequence_example({"len": [1], "nums": [7]},
                             {"tok": [[4.0, 4.5]], "words": [[b"z"]]}),
            sequence_example({}, {"tok": []}),
            sequence_example()]

    def single(ser, missing=(b"words",), defaults=None, name=b"ex"):
        defaults = defaults if defaults is not None else [g.const([0], "int64")]
        k = lambda s: g.const(s, "string")  # noqa: E731
        return list(raw.ParseSingleSequenceExample(
            serialized=g.const(ser, "string"),
            feature_list_dense_missing_assumed_empty=g.const(list(missing) or
                                                             np.zeros([0], object), "string"),
            context_sparse_keys=[k(b"lang")], context_dense_keys=[k(b"len")],
            feature_list_sparse_keys=[k(b"ids")],
            feature_list_dense_keys=[k(b"tok"), k(b"words")],
            context_dense_defaults=defaults, debug_name=g.const(name, "string"),
            context_sparse_types=["string"], feature_list_dense_types=["float32", "string"],
            context_dense_shapes=[[1]], feature_list_sparse_types=["int64"],
            feature_list_dense_shapes=[[2], [1]], name="op"))
    for i, ser in enumerate(seqs[:3]):
        g.case(f"ParseSingleSequenceExample.none.example{i}", lambda: single(ser))
    g.case("ParseSingleSequenceExample.none.missing_list",
           lambda: single(seqs[2], missing=()), error=True)
    g.case("ParseSingleSequenceExample.none.missing_context",
           lambda: single(seqs[3], defaults=[g.const(np.zeros([0], np.int64), "int64")]),
           error=True)
    g.case("ParseSingleSequenceExample.none.wrong_step_size",
           lambda: single(sequence_example({"len": [1]}, {"tok": [[1.0]], "words": [[b"a"]]})),
           error=True)
    g.case("ParseSingleSequenceExample.none.wrong_type",
           lambda: single(sequence_example({"len": [1]}, {"tok": [[1, 2]]})), error=True)
    g.case("ParseSingleSequenceExample.none.not_a_proto",
           lambda: single(b"\x0a\x05ab"), error=True)

    def batch(sers, missing=("tok", "words", "x"), names=True):
        return list(raw.ParseSequenceExample(
            serialized=g.const(sers, "string"),
            debug_name=g.const([b"e%d" % i for i in range(len(sers))] if names else
                               np.zeros([0], object), "string"),
            context_dense_defaults=[g.const([-1], "int64")],
            feature_list_dense_missing_assumed_empty=list(missing),
            context_sparse_keys=["lang"], context_dense_keys=["len"],
            feature_list_sparse_keys=["ids", "spf"], feature_list_dense_keys=["tok", "words", "x"],
            Ncontext_sparse=1, Ncontext_dense=1, Nfeature_list_sparse=2, Nfeature_list_dense=3,
            context_sparse_types=["string"], feature_list_dense_types=["float32", "string",
                                                                       "int64"],
            context_dense_shapes=[[1]], feature_list_sparse_types=["int64", "float32"],
            feature_list_dense_shapes=[[2], [1], [2, 2]], name="op"))
    g.case("ParseSequenceExample.none.batch", lambda: batch(seqs))
    g.case("ParseSequenceExample.none.no_names", lambda: batch(seqs[:2], names=False))
    g.case("ParseSequenceExample.none.one", lambda: batch(seqs[1:2]))
    g.case("ParseSequenceExample.none.empty_batch",
           lambda: batch(np.zeros([0], object), names=False))
    g.case("ParseSequenceExample.none.missing_list",
           lambda: batch(seqs, missing=("x",)), error=True)
    g.case("ParseSequenceExample.none.wrong_step_size",
           lambda: batch([sequence_example({}, {"tok": [[1.0, 2.0, 3.0]]})]), error=True)
    def v2(sers, ragged=True, split="int64", missing=(True, True, True), names=True):
        n = lambda v: g.const(list(v) if v else np.zeros([0], object), "string")  # noqa: E731
        return list(raw.ParseSequenceExampleV2(
            serialized=g.const(sers, "string"),
            debug_name=(g.const([b"e%d" % i for i in range(len(sers))], "string")
                        if names and not isinstance(sers, bytes) else n([])),
            context_sparse_keys=n([b"lang"]), context_dense_keys=n([b"len"]),
            context_ragged_keys=n([b"nums"] if ragged else []),
            feature_list_sparse_keys=n([b"ids"]),
            feature_list_dense_keys=n([b"tok", b"words", b"x"]),
            feature_list_ragged_keys=n([b"spf", b"words2"] if ragged else []),
            feature_list_dense_missing_assumed_empty=g.const(list(missing), "bool"),
            context_dense_defaults=[g.const([-1], "int64")], Ncontext_sparse=1,
            context_sparse_types=["string"],
            context_ragged_value_types=["int64"] if ragged else [],
            context_ragged_split_types=[split] if ragged else [],
            context_dense_shapes=[[1]], Nfeature_list_sparse=1, Nfeature_list_dense=3,
            feature_list_dense_types=["float32", "string", "int64"],
            feature_list_sparse_types=["int64"],
            feature_list_ragged_value_types=["float32", "string"] if ragged else [],
            feature_list_ragged_split_types=[split, split] if ragged else [],
            feature_list_dense_shapes=[[2], [1], [2, 2]], name="op"))
    for split in ("int32", "int64"):
        g.case(f"ParseSequenceExampleV2.{split}.batch", lambda: v2(seqs, split=split))
    g.case("ParseSequenceExampleV2.none.no_names", lambda: v2(seqs[:2], names=False))
    g.case("ParseSequenceExampleV2.none.empty_batch",
           lambda: v2(np.zeros([0], object), names=False))
    g.case("ParseSequenceExampleV2.none.scalar", lambda: v2(seqs[0], ragged=False))
    g.case("ParseSequenceExampleV2.none.missing_list",
           lambda: v2(seqs, missing=(True, False, True)), error=True)
    g.case("ParseSequenceExampleV2.none.wrong_type",
           lambda: v2([sequence_example({}, {"spf": [[1, 2]]})]), error=True)
    g.case("ParseSequenceExample.none.dense_and_sparse",
           lambda: list(raw.ParseSequenceExample(
               serialized=g.const(seqs[:1], "string"), debug_name=g.const([b"e"], "string"),
               context_dense_defaults=[], feature_list_dense_missing_assumed_empty=[],
               context_sparse_keys=[], context_dense_keys=[], feature_list_sparse_keys=["tok"],
               feature_list_dense_keys=["tok"], Nfeature_list_sparse=1, Nfeature_list_dense=1,
               feature_list_dense_types=["float32"], feature_list_sparse_types=["float32"],
               feature_list_dense_shapes=[[2]], name="op")), error=True)


def wav_bytes(samples, rate, channels):
    import struct
    data = np.asarray(samples, dtype="<i2").tobytes()
    return (b"RIFF" + struct.pack("<I", 36 + len(data)) + b"WAVE" + b"fmt " +
            struct.pack("<IHHIIHH", 16, 1, channels, rate, rate * channels * 2, channels * 2, 16) +
            b"data" + struct.pack("<I", len(data)) + data)


@group
def audio(g):
    rng = np.random.default_rng(5)
    mono = (np.sin(np.arange(64) * 0.3) * 20000).astype(np.int16)
    stereo = rng.integers(-32768, 32767, [40, 2]).astype(np.int16)
    for sname, data, rate, ch, want_ch, want_n in [
            ("mono", mono, 16000, 1, -1, -1), ("stereo", stereo.reshape(-1), 8000, 2, -1, -1),
            ("to_mono", stereo.reshape(-1), 8000, 2, 1, -1),
            ("pad", mono, 16000, 1, -1, 100), ("truncate", mono, 16000, 1, 2, 10)]:
        g.case(f"DecodeWav.none.{sname}",
               lambda: list(raw.DecodeWav(contents=g.const(wav_bytes(data, rate, ch), "string"),
                                          desired_channels=want_ch, desired_samples=want_n,
                                          name="op")))
    g.case("DecodeWav.none.not_wav",
           lambda: list(raw.DecodeWav(contents=g.const(b"RIFX1234", "string"), name="op")),
           error=True)
    signal = np.sin(np.arange(400) * 0.05)[:, None] + 0.25 * rng.uniform(-1, 1, [400, 1])
    for sname, win, stride, sq in [("default", 64, 32, False), ("squared", 50, 20, True),
                                   ("odd", 33, 17, False)]:
        g.case(f"AudioSpectrogram.float.{sname}",
               lambda: raw.AudioSpectrogram(input=g.const(signal, "float32"), window_size=win,
                                            stride=stride, magnitude_squared=sq, name="op"),
               rtol=1e-4, atol=1e-4)
    g.case("AudioSpectrogram.float.stereo",
           lambda: raw.AudioSpectrogram(input=g.const(np.concatenate([signal, -signal], 1),
                                                      "float32"),
                                        window_size=64, stride=64, name="op"),
           rtol=1e-4, atol=1e-4)
    def mfcc(**kw):
        spec = raw.AudioSpectrogram(input=g.const(signal, "float32"), window_size=256,
                                    stride=128, magnitude_squared=True, name="spectrogram")
        return raw.Mfcc(spectrogram=spec, sample_rate=g.const(16000, "int32"), name="op", **kw)
    g.case("Mfcc.float.default", lambda: mfcc(), rtol=1e-3, atol=1e-3)
    g.case("Mfcc.float.options",
           lambda: mfcc(upper_frequency_limit=3000.0, lower_frequency_limit=100.0,
                        filterbank_channel_count=20, dct_coefficient_count=8),
           rtol=1e-3, atol=1e-3)


# ---- images: files made here (PNG, GIF and BMP by hand, JPEG by TensorFlow's encoder) ----------


def test_image(rng, h, w, c=3):
    """Smooth gradients and waves with some noise, uint8 [h, w, c]: JPEG keeps it well."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    planes = [xx / max(w - 1, 1), yy / max(h - 1, 1), 0.5 + 0.5 * np.sin(xx / 2.5 + yy / 4.0),
              0.5 + 0.5 * np.cos(xx / 3.0 - yy / 2.0)]
    img = np.stack(planes[:c], axis=2) * 255 + rng.uniform(-20, 20, (h, w, c))
    return np.clip(np.round(img), 0, 255).astype(np.uint8)


def tf_run(build):
    """Runs build() in a graph of its own (TensorFlow writing a test file)."""
    with tf.Graph().as_default():
        out = build()
        with tf.compat.v1.Session(config=session_config()) as sess:
            return sess.run(out)


def jpeg_bytes(img, **kw):
    return tf_run(lambda: raw.EncodeJpeg(image=tf.constant(img), **kw))


def png_bytes(pixels, color_type, bit_depth, palette=None, trns=None, interlace=False):
    """A PNG of `pixels` ([h, w, c] samples, or [h, w] palette indices), unfiltered rows."""
    import struct
    pixels = np.asarray(pixels)
    h, w = pixels.shape[:2]

    def chunk(tag, data):
        return (struct.pack(">I", len(data)) + tag + data +
                struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF))

    def rows(img):
        out = b""
        for y in range(img.shape[0]):
            row = img[y].reshape(-1).astype(np.int64)
            if bit_depth == 16:
                data = row.astype(">u2").tobytes()
            elif bit_depth == 8:
                data = row.astype(np.uint8).tobytes()
            else:
                per = 8 // bit_depth
                row = np.concatenate([row, np.zeros((-len(row)) % per, np.int64)])
                packed = np.zeros(len(row) // per, np.int64)
                for k in range(per):
                    packed = packed | (row[k::per] << (8 - bit_depth * (k + 1)))
                data = packed.astype(np.uint8).tobytes()
            out += b"\x00" + data
        return out

    img = pixels.reshape(h, w, -1)
    if interlace:  # Adam7: seven sub-images, the empty ones left out
        raw_data = b"".join(rows(img[y0::dy, x0::dx]) for x0, y0, dx, dy in
                            [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4),
                             (1, 0, 2, 2), (0, 1, 1, 2)] if img[y0::dy, x0::dx].size)
    else:
        raw_data = rows(img)
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, bit_depth,
                                                            color_type, 0, 0, int(interlace)))
    if palette is not None:
        out += chunk(b"PLTE", np.asarray(palette, np.uint8).tobytes())
    if trns is not None:
        out += chunk(b"tRNS", trns)
    return out + chunk(b"IDAT", zlib.compress(raw_data, 9)) + chunk(b"IEND", b"")


def gif_bytes(width, height, frames, palette=None):
    """A GIF89a; each frame is a dict: indices [h, w], and optional left, top, palette (a local
    color table) and transparent (an index). LZW codes stay 9 bits wide (a clear code every 100
    literals), which every decoder reads."""
    import struct

    def table(colors):
        colors = np.asarray(colors, np.uint8).reshape(-1, 3)
        bits = max(1, int(np.ceil(np.log2(len(colors)))))
        padded = np.zeros((1 << bits, 3), np.uint8)
        padded[:len(colors)] = colors
        return bits, padded.tobytes()

    def lzw(indices):
        codes, bits = [], 9
        for i, v in enumerate(indices):
            if i % 100 == 0:
                codes.append(256)
            codes.append(int(v))
        codes.append(257)
        acc, n, out = 0, 0, bytearray()
        for c in codes:
            acc |= c << n
            n += bits
            while n >= 8:
                out.append(acc & 0xFF)
                acc >>= 8
                n -= 8
        if n:
            out.append(acc & 0xFF)
        blocks = b"".join(bytes([len(out[i:i + 255])]) + bytes(out[i:i + 255])
                          for i in range(0, len(out), 255))
        return bytes([8]) + blocks + b"\x00"

    out = b"GIF89a" + struct.pack("<HH", width, height)
    if palette is not None:
        bits, data = table(palette)
        out += bytes([0x80 | 0x70 | (bits - 1), 0, 0]) + data
    else:
        out += bytes([0, 0, 0])
    for f in frames:
        idx = np.asarray(f["indices"], np.uint8)
        if "transparent" in f:
            out += bytes([0x21, 0xF9, 4, 1, 0, 0, f["transparent"], 0])
        packed, local = 0, b""
        if "palette" in f:
            bits, local = table(f["palette"])
            packed = 0x80 | (bits - 1)
        out += b"\x2C" + struct.pack("<HHHHB", f.get("left", 0), f.get("top", 0), idx.shape[1],
                                     idx.shape[0], packed) + local
        out += lzw(idx.reshape(-1))
    return out + b"\x3B"


def bmp_bytes(pixels, bpp, top_down=False):
    """An uncompressed BMP: RGB(A) pixels [h, w, 3 or 4] as BGR(A), or gray [h, w, 1] at 8 bits;
    rows bottom-up unless top_down, padded to 4 bytes."""
    import struct
    pixels = np.asarray(pixels, np.uint8)
    h, w, c = pixels.shape
    data = b""
    for y in (range(h) if top_down else range(h - 1, -1, -1)):
        row = pixels[y]
        if c >= 3:
            row = row[:, [2, 1, 0] + ([3] if c == 4 else [])]
        b = row.tobytes()
        data += b + b"\x00" * ((-len(b)) % 4)
    header = struct.pack("<IiiHHIIiiII", 40, w, -h if top_down else h, 1, bpp, 0, len(data),
                         2835, 2835, 0, 0)
    return b"BM" + struct.pack("<IHHI", 14 + 40 + len(data), 0, 0, 14 + 40) + header + data


@group
def image_codecs(g):
    rng = np.random.default_rng(11)
    rgb = test_image(rng, 17, 23)
    small = test_image(rng, 8, 6)
    gray = test_image(rng, 13, 9, 1)
    jpegs = {
        "rgb": jpeg_bytes(rgb),
        "q50": jpeg_bytes(rgb, quality=50),
        "444": jpeg_bytes(rgb, chroma_downsampling=False),
        "progressive": jpeg_bytes(rgb, progressive=True),
        "gray": jpeg_bytes(gray),
    }

    def decode_jpeg(data, **kw):
        return raw.DecodeJpeg(contents=g.const(data, "string"), name="op", **kw)
    for name, data in jpegs.items():
        g.case(f"DecodeJpeg.uint8.{name}", lambda: decode_jpeg(data))
    for ch in (1, 3):
        g.case(f"DecodeJpeg.uint8.rgb_channels{ch}", lambda: decode_jpeg(jpegs["rgb"], channels=ch))
        g.case(f"DecodeJpeg.uint8.gray_channels{ch}",
               lambda: decode_jpeg(jpegs["gray"], channels=ch))
    for ratio in (2, 4, 8):
        g.case(f"DecodeJpeg.uint8.ratio{ratio}", lambda: decode_jpeg(jpegs["rgb"], ratio=ratio))
    for dct in ("INTEGER_FAST", "INTEGER_ACCURATE"):
        g.case(f"DecodeJpeg.uint8.{dct.lower()}", lambda: decode_jpeg(jpegs["q50"], dct_method=dct))
    g.case("DecodeJpeg.uint8.no_fancy_upscaling",
           lambda: decode_jpeg(jpegs["rgb"], fancy_upscaling=False))
    g.case("DecodeJpeg.uint8.accurate_no_fancy",
           lambda: decode_jpeg(jpegs["progressive"], fancy_upscaling=False,
                               dct_method="INTEGER_ACCURATE", channels=1))
    # Damaged files: libjpeg's own recovery (warnings) must give TensorFlow's pixels; truncation
    # fails unless recovery is asked for; garbage fails.
    corrupt = bytearray(jpegs["rgb"])
    for i in range(len(corrupt) - 120, len(corrupt) - 40, 7):
        corrupt[i] ^= 0x5A
    g.case("DecodeJpeg.uint8.corrupt_marker", lambda: decode_jpeg(bytes(corrupt)), error=True)
    # Bad entropy codes but no marker in the scan: libjpeg warns and decodes on.
    scrambled = bytearray(jpegs["rgb"])
    sos = scrambled.index(b"\xff\xda")
    scan = sos + 2 + int.from_bytes(scrambled[sos + 2:sos + 4], "big")
    for i in range(scan + 40, len(scrambled) - 10, 5):
        if 0xFF not in scrambled[i - 1:i + 1]:  # leave markers and stuffed bytes alone
            scrambled[i] = (scrambled[i] * 7 + 3) & 0x7F
    g.case("DecodeJpeg.uint8.corrupt_scan", lambda: decode_jpeg(bytes(scrambled)))
    truncated = jpegs["rgb"][:len(jpegs["rgb"]) * 2 // 3]
    g.case("DecodeJpeg.uint8.truncated", lambda: decode_jpeg(truncated), error=True)
    g.case("DecodeJpeg.uint8.truncated_recover",
           lambda: decode_jpeg(truncated, try_recover_truncated=True))
    g.case("DecodeJpeg.uint8.truncated_recover_fraction",
           lambda: decode_jpeg(truncated, try_recover_truncated=True, acceptable_fraction=0.5))
    g.case("DecodeJpeg.uint8.no_eoi", lambda: decode_jpeg(jpegs["rgb"][:-2]), error=True)
    g.case("DecodeJpeg.uint8.header_only", lambda: decode_jpeg(jpegs["rgb"][:200]), error=True)
    g.case("DecodeJpeg.uint8.garbage_after_soi",
           lambda: decode_jpeg(b"\xff\xd8\xff" + bytes(rng.integers(0, 256, 300, np.uint8))),
           error=True)
    g.case("DecodeJpeg.uint8.not_an_image", lambda: decode_jpeg(b"hello, world"), error=True)
    g.case("DecodeJpeg.uint8.empty", lambda: decode_jpeg(b""), error=True)
    g.case("DecodeJpeg.uint8.bad_ratio", lambda: decode_jpeg(jpegs["rgb"], ratio=3), error=True)
    g.case("DecodeJpeg.uint8.four_channels", lambda: decode_jpeg(jpegs["rgb"], channels=4),
           error=True)
    g.case("DecodeJpeg.uint8.bad_dct_method",
           lambda: decode_jpeg(jpegs["rgb"], dct_method="FLOAT"), error=True)
    g.case("DecodeJpeg.uint8.vector_contents",
           lambda: raw.DecodeJpeg(contents=hide_rank(g.const([jpegs["rgb"]], "string")),
                                  name="op"), error=True)

    # DecodeAndCropJpeg: windows on and off the iMCU grid (libjpeg widens them to it).
    big = jpeg_bytes(test_image(rng, 40, 52))
    for name, data, window, kw in [
            ("origin", big, [0, 0, 16, 16], {}), ("unaligned", big, [3, 5, 20, 27], {}),
            ("right_edge", big, [10, 40, 30, 12], {}), ("whole", big, [0, 0, 40, 52], {}),
            ("one_pixel", big, [39, 51, 1, 1], {}), ("gray", jpegs["gray"], [2, 3, 9, 5], {}),
            ("to_gray", big, [7, 9, 11, 13], {"channels": 1}),
            ("ratio2", big, [1, 3, 10, 20], {"ratio": 2}),
            ("no_fancy", big, [5, 17, 17, 17], {"fancy_upscaling": False}),
            ("accurate", big, [5, 17, 17, 17], {"dct_method": "INTEGER_ACCURATE"}),
            ("progressive", jpegs["progressive"], [4, 6, 8, 10], {}),
            ("444", jpegs["444"], [3, 3, 7, 9], {})]:
        g.case(f"DecodeAndCropJpeg.uint8.{name}",
               lambda: raw.DecodeAndCropJpeg(contents=g.const(data, "string"),
                                             crop_window=g.const(window, "int32"), name="op",
                                             **kw))
    for name, window in [("outside", [30, 40, 20, 20]), ("zero_width", [0, 0, 5, 0]),
                         ("negative_x", [0, -1, 5, 5]), ("ratio_outside", [0, 0, 40, 52])]:
        g.case(f"DecodeAndCropJpeg.uint8.{name}",
               lambda: raw.DecodeAndCropJpeg(contents=g.const(big, "string"),
                                             crop_window=g.const(window, "int32"),
                                             ratio=2 if name == "ratio_outside" else 1,
                                             name="op"), error=True)
    g.case("DecodeAndCropJpeg.uint8.three_numbers",
           lambda: raw.DecodeAndCropJpeg(contents=g.const(big, "string"),
                                         crop_window=hide_shape(g.const([0, 0, 5], "int32")),
                                         name="op"), error=True)
    g.case("DecodeAndCropJpeg.uint8.png_file",
           lambda: raw.DecodeAndCropJpeg(contents=g.const(tf_run(lambda: raw.EncodePng(
               image=tf.constant(small))), "string"), crop_window=g.const([0, 0, 2, 2], "int32"),
               name="op"), error=True)
    g.case("DecodeAndCropJpeg.uint8.truncated_recover",
           lambda: raw.DecodeAndCropJpeg(contents=g.const(big[:len(big) // 2], "string"),
                                         crop_window=g.const([20, 8, 18, 30], "int32"),
                                         try_recover_truncated=True, name="op"))
    # ExtractJpegShape reads the headers only.
    for name, data in [("rgb", jpegs["rgb"]), ("gray", jpegs["gray"]),
                       ("progressive", jpegs["progressive"]), ("truncated", big[:len(big) // 2])]:
        for dt in ("int32", "int64"):
            g.case(f"ExtractJpegShape.{dt}.{name}",
                   lambda: raw.ExtractJpegShape(contents=g.const(data, "string"), output_type=dt,
                                                name="op"))
    g.case("ExtractJpegShape.int32.progressive_truncated",
           lambda: raw.ExtractJpegShape(contents=g.const(jpegs["progressive"][:300], "string"),
                                        name="op"))
    g.case("ExtractJpegShape.int32.header_cut",
           lambda: raw.ExtractJpegShape(contents=g.const(jpegs["rgb"][:100], "string"),
                                        name="op"), error=True)
    g.case("ExtractJpegShape.int32.png_file",
           lambda: raw.ExtractJpegShape(contents=g.const(b"\x89PNG\r\n\x1a\n", "string"),
                                        name="op"), error=True)

    # PNG: every color type and bit depth, palettes with transparency, Adam7 interlacing.
    def pngs():
        h, w = 7, 11
        v8 = rng.integers(0, 256, (h, w, 4))
        v16 = rng.integers(0, 65536, (h, w, 4))
        idx = rng.integers(0, 5, (h, w))
        pal = rng.integers(0, 256, (5, 3))
        return {
            "gray8": png_bytes(v8[..., :1], 0, 8),
            "gray16": png_bytes(v16[..., :1], 0, 16),
            "gray1": png_bytes(v8[..., :1] % 2, 0, 1),
            "gray4": png_bytes(v8[..., :1] % 16, 0, 4),
            "gray_trns": png_bytes(v8[..., :1], 0, 8, trns=bytes([0, int(v8[0, 0, 0])])),
            "gray_alpha": png_bytes(v8[..., :2], 4, 8),
            "gray_alpha16": png_bytes(v16[..., :2], 4, 16),
            "rgb8": png_bytes(v8[..., :3], 2, 8),
            "rgb16": png_bytes(v16[..., :3], 2, 16),
            "rgba8": png_bytes(v8, 6, 8),
            "rgba16": png_bytes(v16, 6, 16),
            "palette": png_bytes(idx, 3, 8, palette=pal),
            "palette2": png_bytes(idx % 4, 3, 2, palette=pal[:4]),
            "palette_trns": png_bytes(idx, 3, 8, palette=pal, trns=bytes([0, 128, 255])),
            "interlaced": png_bytes(v8[..., :3], 2, 8, interlace=True),
            "interlaced16": png_bytes(v16, 6, 16, interlace=True),
        }
    files = pngs()
    for name, data in files.items():
        for ch in (0, 1, 3, 4):
            for dt in ("uint8", "uint16"):
                g.case(f"DecodePng.{dt}.{name}_channels{ch}",
                       lambda: raw.DecodePng(contents=g.const(data, "string"), channels=ch,
                                             dtype=dt, name="op"))
    g.case("DecodePng.uint8.channels2",
           lambda: raw.DecodePng(contents=g.const(files["gray_alpha"], "string"), channels=2,
                                 name="op"), error=True)
    tf_png = tf_run(lambda: raw.EncodePng(image=tf.constant(rgb)))
    g.case("DecodePng.uint8.tensorflow_png",
           lambda: raw.DecodePng(contents=g.const(tf_png, "string"), name="op"))
    bad_crc = bytearray(files["rgb8"])
    bad_crc[40] ^= 1  # inside IDAT
    for name, data in [("bad_crc", bytes(bad_crc)), ("truncated", files["rgb8"][:60]),
                       ("no_iend", files["rgb8"][:-12]), ("signature_only", files["rgb8"][:8])]:
        g.case(f"DecodePng.uint8.{name}",
               lambda: raw.DecodePng(contents=g.const(data, "string"), name="op"), error=True)
    # DecodeJpeg and DecodePng read each other's files; DecodeGif gives 4-D.
    g.case("DecodeJpeg.uint8.png_file",
           lambda: decode_jpeg(files["rgba8"], channels=3))
    g.case("DecodePng.uint16.jpeg_file",
           lambda: raw.DecodePng(contents=g.const(jpegs["rgb"], "string"), dtype="uint16",
                                 name="op"))
    g.case("DecodeGif.uint8.png_file",
           lambda: raw.DecodeGif(contents=g.const(files["gray16"], "string"), name="op"))
    g.case("DecodeGif.uint8.jpeg_file",
           lambda: raw.DecodeGif(contents=g.const(jpegs["gray"], "string"), name="op"))

    # GIF: one frame, animations with offsets, local color tables and transparency.
    pal = rng.integers(0, 256, (6, 3))
    f0 = rng.integers(0, 6, (9, 10))
    gifs = {
        "one_frame": gif_bytes(10, 9, [{"indices": f0}], pal),
        "animated": gif_bytes(10, 9, [
            {"indices": f0},
            {"indices": rng.integers(0, 6, (4, 5)), "left": 3, "top": 2, "transparent": 2},
            {"indices": rng.integers(0, 4, (9, 10)), "palette": rng.integers(0, 256, (4, 3))},
            {"indices": rng.integers(0, 6, (3, 3)), "left": 8, "top": 7}], pal),
        "first_partial": gif_bytes(10, 9, [
            {"indices": rng.integers(0, 6, (5, 6)), "left": 2, "top": 1, "transparent": 0},
            {"indices": rng.integers(0, 6, (9, 10)), "transparent": 1}], pal),
    }
    for name, data in gifs.items():
        g.case(f"DecodeGif.uint8.{name}",
               lambda: raw.DecodeGif(contents=g.const(data, "string"), name="op"))
        for expand in (True, False):
            g.case(f"DecodeImage.uint8.gif_{name}_expand{int(expand)}",
                   lambda: raw.DecodeImage(contents=g.const(data, "string"),
                                           expand_animations=expand, name="op"))
    g.case("DecodeJpeg.uint8.gif_file",
           lambda: decode_jpeg(gifs["one_frame"]))
    g.case("DecodePng.uint8.animated_gif",
           lambda: raw.DecodePng(contents=g.const(gifs["animated"], "string"), name="op"),
           error=True)
    bad_index = gif_bytes(4, 3, [{"indices": np.full((3, 4), 5)}], pal[:2])
    g.case("DecodeGif.uint8.index_outside_palette",
           lambda: raw.DecodeGif(contents=g.const(bad_index, "string"), name="op"), error=True)
    g.case("DecodeGif.uint8.truncated",
           lambda: raw.DecodeGif(contents=g.const(gifs["animated"][:60], "string"), name="op"),
           error=True)
    for name, shape in [("zero_width", (2, 0)), ("zero_height", (0, 3)), ("zero_size", (0, 0))]:
        data = gif_bytes(10, 9, [{"indices": f0}, {"indices": np.zeros(shape)}], pal)
        g.case(f"DecodeGif.uint8.{name}_frame",
               lambda: raw.DecodeGif(contents=g.const(data, "string"), name="op"))
    # A second frame whose pixels end early, or are missing, is dropped.
    import struct
    two = gif_bytes(10, 9, [{"indices": f0}, {"indices": f0[:4]}], pal)
    at = two.rindex(b"\x2C" + struct.pack("<HHHH", 0, 0, 10, 4))
    short = two[:at + 7] + struct.pack("<H", 9) + two[at + 9:]
    g.case("DecodeGif.uint8.frame_ends_early",
           lambda: raw.DecodeGif(contents=g.const(short, "string"), name="op"))
    g.case("DecodeGif.uint8.cut_after_descriptor",
           lambda: raw.DecodeGif(contents=g.const(two[:at + 10], "string"), name="op"))
    g.case("DecodeGif.uint8.no_color_map",
           lambda: raw.DecodeGif(contents=g.const(gif_bytes(4, 3, [{"indices": f0[:3, :4]}]),
                                                  "string"), name="op"), error=True)

    # BMP: 24 and 32 bits, 8-bit gray, top-down rows, row padding.
    rgba = test_image(rng, 5, 7, 4)
    bmps = {
        "rgb24": bmp_bytes(rgba[..., :3], 24),
        "rgba32": bmp_bytes(rgba, 32),
        "gray8": bmp_bytes(rgba[..., :1], 8),
        "top_down": bmp_bytes(rgba[..., :3], 24, top_down=True),
    }
    for name, data in bmps.items():
        for ch in (0, 3, 4):
            g.case(f"DecodeBmp.uint8.{name}_channels{ch}",
                   lambda: raw.DecodeBmp(contents=g.const(data, "string"), channels=ch,
                                         name="op"))
    for name, data in [("extra_byte", bmps["rgb24"] + b"\x00"), ("short", bmps["rgb24"][:-3]),
                       ("header_only", bmps["rgb24"][:30]),
                       ("bpp16", bmps["rgb24"][:28] + b"\x10\x00" + bmps["rgb24"][30:])]:
        g.case(f"DecodeBmp.uint8.{name}",
               lambda: raw.DecodeBmp(contents=g.const(data, "string"), name="op"), error=True)
    g.case("DecodeBmp.uint8.channels1",
           lambda: raw.DecodeBmp(contents=g.const(bmps["rgb24"], "string"), channels=1,
                                 name="op"), error=True)
    g.case("DecodeBmp.uint8.jpeg_file",
           lambda: raw.DecodeBmp(contents=g.const(jpegs["rgb"], "string"), name="op"),
           error=True)
    g.case("DecodeJpeg.uint8.bmp_file", lambda: decode_jpeg(bmps["rgb24"]), error=True)

    # DecodeImage: each format, each dtype (16-bit PNG samples, scaled 8-bit ones, floats).
    files_by_format = [("jpeg", jpegs["rgb"]), ("png8", files["rgba8"]),
                       ("png16", files["rgb16"]), ("gif", gifs["one_frame"]),
                       ("bmp", bmps["rgba32"])]
    for fname, data in files_by_format:
        for dt in ("uint8", "uint16", "float32"):
            for ch in (0, 3):
                g.case(f"DecodeImage.{sgname(dt)}.{fname}_channels{ch}",
                       lambda: raw.DecodeImage(contents=g.const(data, "string"), channels=ch,
                                               dtype=dt, expand_animations=False, name="op"))
    g.case("DecodeImage.uint8.gray_jpeg_channels1",
           lambda: raw.DecodeImage(contents=g.const(jpegs["gray"], "string"), channels=1,
                                   name="op"))
    g.case("DecodeImage.uint8.png_channels4",
           lambda: raw.DecodeImage(contents=g.const(files["palette_trns"], "string"), channels=4,
                                   name="op"))
    g.case("DecodeImage.uint8.gif_channels1",
           lambda: raw.DecodeImage(contents=g.const(gifs["one_frame"], "string"), channels=1,
                                   name="op"), error=True)
    g.case("DecodeImage.uint8.unknown_format",
           lambda: raw.DecodeImage(contents=g.const(b"\x00\x01\x02\x03 not an image", "string"),
                                   name="op"), error=True)

    # Damaged files, decoded (or refused) as TensorFlow does: bytes changed, cut or repeated
    # after the first four (the format stays recognized).
    frng = np.random.default_rng(99)

    def damage(data):
        data = bytearray(data)
        kind = frng.integers(0, 4)
        if kind == 0:
            for _ in range(frng.integers(1, 4)):
                data[frng.integers(4, len(data))] ^= int(frng.integers(1, 256))
        elif kind == 1:
            del data[frng.integers(8, len(data)):]
        elif kind == 2:
            i = int(frng.integers(4, len(data)))
            data[i:i] = data[i:i + int(frng.integers(1, 40))]
        else:
            i = int(frng.integers(4, len(data)))
            data[i:i + int(frng.integers(1, 40))] = bytes(40)[:len(data[i:i + 40])]
        return bytes(data)

    def tf_fails(data):
        try:
            tf_run(lambda: raw.DecodeImage(contents=tf.constant(data, tf.string)))
            return False
        except tf.errors.OpError:
            return True
    for bname, data in [("jpeg", jpegs["rgb"]), ("jpeg_progressive", jpegs["progressive"]),
                        ("jpeg_gray", jpegs["gray"]), ("png", files["rgb8"]),
                        ("png_palette", files["palette_trns"]), ("png_gray1", files["gray1"]),
                        ("png_interlaced", files["interlaced16"]), ("gif", gifs["animated"]),
                        ("gif_partial", gifs["first_partial"]), ("bmp", bmps["rgba32"]),
                        ("bmp_top_down", bmps["top_down"])]:
        for k in range(30):
            damaged = damage(data)
            g.case(f"DecodeImage.uint8.damaged_{bname}_{k}",
                   lambda: raw.DecodeImage(contents=g.const(damaged, "string"), name="op"),
                   error=tf_fails(damaged))

    # Encoders: TensorFlow's bytes.
    for dt, hi in (("uint8", 255), ("uint16", 65535)):
        for ch in (1, 2, 3, 4):
            g.case(f"EncodePng.{dt}.channels{ch}",
                   lambda: raw.EncodePng(image=g.const(rng.integers(0, hi + 1, (6, 9, ch)), dt),
                                         name="op"))
    for level in (0, 1, 9):
        g.case(f"EncodePng.uint8.compression{level}",
               lambda: raw.EncodePng(image=g.const(rgb, "uint8"), compression=level, name="op"))
    g.case("EncodePng.uint8.batch",
           lambda: raw.EncodePng(image=g.const(rng.integers(0, 256, (2, 3, 4, 5, 3)), "uint8"),
                                 name="op"))
    g.case("EncodePng.uint8.empty_batch",
           lambda: raw.EncodePng(image=g.const(np.zeros((0, 4, 5, 3)), "uint8"), name="op"))
    g.case("EncodePng.uint8.five_channels",
           lambda: raw.EncodePng(image=g.const(np.zeros((2, 2, 5)), "uint8"), name="op"),
           error=True)
    g.case("EncodePng.uint8.bad_compression",
           lambda: raw.EncodePng(image=g.const(rgb, "uint8"), compression=10, name="op"),
           error=True)
    for name, img, kw in [
            ("rgb", rgb, {}), ("gray", gray, {}), ("quality10", rgb, {"quality": 10}),
            ("quality100", rgb, {"quality": 100}), ("progressive", rgb, {"progressive": True}),
            ("optimize_size", rgb, {"optimize_size": True}),
            ("no_chroma_downsampling", rgb, {"chroma_downsampling": False}),
            ("density_cm", rgb, {"density_unit": "cm", "x_density": 72, "y_density": 96}),
            ("xmp", small, {"xmp_metadata": "<x:xmpmeta>sg</x:xmpmeta>"}),
            ("format_rgb", small, {"format": "rgb"}),
            ("format_grayscale", gray, {"format": "grayscale"})]:
        g.case(f"EncodeJpeg.uint8.{name}",
               lambda: raw.EncodeJpeg(image=g.const(img, "uint8"), name="op", **kw))
    for name, img, q in [("q0", rgb, 0), ("q50", rgb, 50), ("q100", rgb, 100), ("gray", gray, 75)]:
        g.case(f"EncodeJpegVariableQuality.uint8.{name}",
               lambda: raw.EncodeJpegVariableQuality(images=g.const(img, "uint8"),
                                                     quality=g.const(q, "int32"), name="op"))
    g.case("EncodeJpegVariableQuality.uint8.quality101",
           lambda: raw.EncodeJpegVariableQuality(images=g.const(rgb, "uint8"),
                                                 quality=g.const(101, "int32"), name="op"),
           error=True)
    g.case("EncodeJpegVariableQuality.uint8.two_channels",
           lambda: raw.EncodeJpegVariableQuality(images=g.const(np.zeros((2, 2, 2)), "uint8"),
                                                 quality=g.const(90, "int32"), name="op"),
           error=True)
    g.case("EncodeJpeg.uint8.format_mismatch",
           lambda: raw.EncodeJpeg(image=g.const(rgb, "uint8"), format="grayscale", name="op"),
           error=True)
    g.case("EncodeJpeg.uint8.two_channels",
           lambda: raw.EncodeJpeg(image=g.const(np.zeros((2, 2, 2)), "uint8"), name="op"),
           error=True)
    g.case("EncodeJpeg.uint8.empty",
           lambda: raw.EncodeJpeg(image=g.const(np.zeros((0, 3, 3)), "uint8"), name="op"),
           error=True)
    g.case("EncodeJpeg.uint8.bad_quality",
           lambda: raw.EncodeJpeg(image=g.const(rgb, "uint8"), quality=101, name="op"),
           error=True)


RESIZE_TYPES = ["int8", "uint8", "int16", "uint16", "int32", "int64", "bfloat16", "float16",
                "float32", "float64"]


@group
def image_resize(g):
    def images(dt, shape):
        if is_float(dt):
            return g.rand(dt, shape, lo=-2, hi=6)
        lo, hi = (-100, 100) if dt in ("int8", "int16", "int32", "int64") else (0, 255)
        return g.rand(dt, shape, lo=lo, hi=hi)

    def resize(op, dt, in_shape, size, **kw):
        return op_fn(op)(images=images(dt, in_shape), size=g.const(size, "int32"), name="op",
                         **kw)
    variants = [("legacy", {}), ("align_corners", {"align_corners": True}),
                ("half_pixel", {"half_pixel_centers": True})]
    for op in ("ResizeBilinear", "ResizeNearestNeighbor", "ResizeBicubic", "ResizeArea"):
        for vname, kw in variants:
            if op == "ResizeArea" and "half_pixel_centers" in kw:
                continue
            for dt in tf_types(op, universe=RESIZE_TYPES):
                g.case(f"{op}.{sgname(dt)}.up_{vname}",
                       lambda: resize(op, dt, [2, 4, 5, 3], [7, 9], **kw))
                g.case(f"{op}.{sgname(dt)}.down_{vname}",
                       lambda: resize(op, dt, [1, 9, 11, 2], [4, 3], **kw))
            g.case(f"{op}.float.mixed_{vname}",
                   lambda: resize(op, "float32", [2, 6, 4, 1], [4, 10], **kw))
            g.case(f"{op}.float.to_one_{vname}",
                   lambda: resize(op, "float32", [1, 5, 6, 4], [1, 1], **kw))
            g.case(f"{op}.float.from_one_{vname}",
                   lambda: resize(op, "float32", [1, 1, 1, 3], [3, 2], **kw))
            g.case(f"{op}.uint8.odd_ratio_{vname}",
                   lambda: resize(op, "uint8", [1, 13, 17, 3], [5, 7], **kw))
        g.case(f"{op}.float.same_size", lambda: resize(op, "float32", [2, 3, 4, 2], [3, 4]))
        g.case(f"{op}.int32.same_size", lambda: resize(op, "int32", [1, 3, 4, 2], [3, 4]))
        g.case(f"{op}.float.empty_batch", lambda: resize(op, "float32", [0, 3, 4, 2], [5, 6]))
        g.case(f"{op}.float.large_channels",
               lambda: resize(op, "float32", [1, 4, 3, 9], [6, 5]))
        if op != "ResizeArea":
            g.case(f"{op}.float.both_centers",
                   lambda: resize(op, "float32", [1, 3, 3, 1], [5, 5], align_corners=True,
                                  half_pixel_centers=True), error=True)
        g.case(f"{op}.float.zero_size",
               lambda: op_fn(op)(images=images("float32", [1, 3, 3, 1]),
                                 size=hide_shape(g.const([0, 4], "int32")), name="op"),
               error=True)
        g.case(f"{op}.float.size_of_three",
               lambda: op_fn(op)(images=images("float32", [1, 3, 3, 1]),
                                 size=hide_shape(g.const([2, 4, 1], "int32")), name="op"),
               error=True)
        g.case(f"{op}.float.rank3_images",
               lambda: op_fn(op)(images=hide_rank(images("float32", [3, 3, 1])),
                                 size=g.const([2, 2], "int32"), name="op"),
               error=True)
        g.case(f"{op}.float.empty_image",
               lambda: op_fn(op)(images=hide_shape(images("float32", [1, 0, 3, 1])),
                                 size=g.const([2, 2], "int32"), name="op"),
               error=True)
    # Special values flow through (NaN and infinities stay where their weights put them).
    for op in ("ResizeBilinear", "ResizeBicubic", "ResizeArea", "ResizeNearestNeighbor"):
        def special():
            v = special_values("float32")
            img = np.resize(v, (1, 3, 4, 1)).astype(np.float32)
            return op_fn(op)(images=g.const(img, "float32"), size=g.const([5, 7], "int32"),
                             name="op")
        g.case(f"{op}.float.special_values", special)



@group
def image_crop_and_resize(g):
    I = "int32"
    boxes = [[0.1, 0.2, 0.8, 0.9], [0.0, 0.0, 1.0, 1.0], [-0.3, 0.5, 1.2, 1.4],
             [0.9, 0.8, 0.2, 0.1], [0.5, 0.5, 0.5, 0.5]]
    for dt in tf_types("CropAndResize"):
        for method in ("bilinear", "nearest"):
            g.case(f"CropAndResize.{sgname(dt)}.{method}",
                   lambda: raw.CropAndResize(image=g.rand(dt, [2, 6, 7, 3], lo=0, hi=100),
                                             boxes=g.const(boxes, "float32"),
                                             box_ind=g.const([1, 0, 1, 0, 1], I),
                                             crop_size=g.const([4, 5], I), method=method,
                                             extrapolation_value=-7.5, name="op"))
    for sname, crop in (("one_by_one", [1, 1]), ("one_row", [1, 4]), ("tall", [9, 1])):
        g.case(f"CropAndResize.float.{sname}",
               lambda: raw.CropAndResize(image=g.rand("float32", [1, 5, 4, 2]),
                                         boxes=g.const(boxes, "float32"),
                                         box_ind=g.const([0] * 5, I), crop_size=g.const(crop, I),
                                         name="op"))
    g.case("CropAndResize.float.no_boxes",
           lambda: raw.CropAndResize(image=g.rand("float32", [1, 5, 4, 2]),
                                     boxes=g.const(np.zeros([0, 4]), "float32"),
                                     box_ind=g.const(np.zeros([0]), I), crop_size=g.const([2, 2], I),
                                     name="op"))
    for sname, img, bx, ind, crop in (
            ("box_index_out_of_range", [2, 4, 4, 1], [[0, 0, 1, 1]], [2], [2, 2]),
            ("box_index_negative", [2, 4, 4, 1], [[0, 0, 1, 1]], [-1], [2, 2]),
            ("nan_box", [1, 4, 4, 1], [[np.nan, 0, 1, 1]], [0], [2, 2]),
            ("inf_box", [1, 4, 4, 1], [[0, 0, np.inf, 1]], [0], [2, 2]),
            ("zero_crop", [1, 4, 4, 1], [[0, 0, 1, 1]], [0], [0, 2]),
            ("empty_image", [1, 0, 4, 1], [[0, 0, 1, 1]], [0], [2, 2]),
            ("boxes_not_4", [1, 4, 4, 1], [[0, 0, 1]], [0], [2, 2]),
            ("box_ind_mismatch", [1, 4, 4, 1], [[0, 0, 1, 1]], [0, 0], [2, 2]),
            ("crop_size_3", [1, 4, 4, 1], [[0, 0, 1, 1]], [0], [2, 2, 2]),
            ("image_rank3", [4, 4, 1], [[0, 0, 1, 1]], [0], [2, 2])):
        g.case(f"CropAndResize.float.{sname}",
               lambda: raw.CropAndResize(image=hide_rank(g.rand("float32", img)),
                                         boxes=hide_rank(g.const(bx, "float32")),
                                         box_ind=hide_rank(g.const(ind, I)),
                                         crop_size=hide_rank(g.const(crop, I)), name="op"),
               error=True)

@group
def image_adjust(g):
    F = "float32"
    # The colour adjustments: TensorFlow's CPU kernels take float only (half gets no case).

    def rgb(shape, lo=0.0, hi=1.0):
        # Not on a 1/64 grid: the hue and saturation arithmetic rounds.
        return g.const(g.rng.uniform(lo, hi, shape).astype(np.float32), F)

    for sname, shape in (("batch", [2, 5, 7, 3]), ("rank3", [6, 5, 3]), ("rank5", [2, 1, 3, 4, 3]),
                         ("one_pixel", [1, 1, 1, 3]), ("empty", [0, 4, 4, 3])):
        for factor in (1.7, 0.3, -0.8):
            fs = str(factor).replace(".", "_").replace("-", "m")
            g.case(f"AdjustContrastv2.float.{sname}_{fs}",
                   lambda: raw.AdjustContrastv2(images=rgb(shape, -3, 7),
                                                contrast_factor=g.const(factor, F), name="op"))
        for scale in (0.0, 0.5, 1.0, 2.5):
            fs = str(scale).replace(".", "_")
            g.case(f"AdjustSaturation.float.{sname}_{fs}",
                   lambda: raw.AdjustSaturation(images=rgb(shape), scale=g.const(scale, F),
                                                name="op"))
        for delta in (0.0, 0.3, -0.45, 1.25, -0.9):
            fs = str(delta).replace(".", "_").replace("-", "m")
            g.case(f"AdjustHue.float.{sname}_{fs}",
                   lambda: raw.AdjustHue(images=rgb(shape), delta=g.const(delta, F), name="op"))
    g.case("AdjustContrastv2.float.channels_5",
           lambda: raw.AdjustContrastv2(images=rgb([2, 4, 3, 5], -3, 7),
                                        contrast_factor=g.const(2.0, F), name="op"))
    g.case("AdjustContrastv2.float.large_image",
           lambda: raw.AdjustContrastv2(images=rgb([1, 33, 47, 3], 0, 255),
                                        contrast_factor=g.const(0.6, F), name="op"))
    # Pixels outside [0, 1], greys (no hue), pure colours and ties between channels.
    special = np.array([[0.5, 0.5, 0.5], [0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0],
                        [0, 1, 1], [1, 0, 1], [0.25, 0.75, 0.75], [0.75, 0.75, 0.25],
                        [-0.3, 0.4, 1.2], [1.5, -0.5, 0.2], [-0.2, -0.4, -0.1], [2, 3, 1]],
                       np.float32).reshape([1, 2, 7, 3])
    for scale in (0.5, 1.5):
        g.case(f"AdjustSaturation.float.special_{str(scale).replace('.', '_')}",
               lambda: raw.AdjustSaturation(images=g.const(special, F), scale=g.const(scale, F),
                                            name="op"))
    for delta in (0.2, -0.7):
        g.case(f"AdjustHue.float.special_{str(delta).replace('.', '_').replace('-', 'm')}",
               lambda: raw.AdjustHue(images=g.const(special, F), delta=g.const(delta, F),
                                     name="op"))
    # AdjustContrast, removed from graphs at GraphDef version 2: each case is a GraphDef of
    # producer version 1, imported first into the case's graph (which then takes that version),
    # so TensorFlow runs the op's own kernel.
    def old_contrast(img, factor, lo, hi, hide=False):
        name = g.cur.name
        tmp = tf.Graph()
        with tmp.as_default(), tf.compat.v1.name_scope(name + "/"):
            h = hide_rank if hide else (lambda t: t)
            ins = [h(tf.constant(v, name=arg)) for arg, v in
                   (("images", img), ("contrast_factor", np.float32(factor)),
                    ("min_value", np.float32(lo)), ("max_value", np.float32(hi)))]
            raw.AdjustContrastv2(images=tf.zeros([1, 1, 1]), contrast_factor=1.0, name="op")
        gd = tmp.as_graph_def()
        keep = [n for n in gd.node if not n.name.startswith(f"{name}/op/") and
                not n.name.startswith(f"{name}/zeros")]
        for n in keep:
            if n.name == f"{name}/op":
                del n.input[:]
                n.input.extend(t.name[:-2] for t in ins)
                n.op = "AdjustContrast"
                n.attr["T"].type = tf.as_dtype(img.dtype).as_datatype_enum
        del gd.node[:]
        gd.node.extend(keep)
        gd.versions.producer = 1
        tf.compat.v1.import_graph_def(gd, name="")
        return tf.compat.v1.get_default_graph().get_tensor_by_name(f"{name}/op:0")

    for dt in tf_types("AdjustContrast"):
        lo, hi = (0, 255) if dt == "uint8" else (-100, 100)
        for factor, mn, mx in ((1.7, -1e9, 1e9), (0.4, 20.0, 60.0), (-2.5, -30.0, 150.0)):
            fs = str(factor).replace(".", "_").replace("-", "m")
            g.case(f"AdjustContrast.{sgname(dt)}.factor_{fs}",
                   lambda: old_contrast(g.vals(dt, [2, 4, 5, 3], lo=lo, hi=hi), factor, mn, mx))
    g.case("AdjustContrast.float.rank3",
           lambda: old_contrast(g.vals(F, [6, 5, 2]), 1.3, -2.0, 2.0))
    g.case("AdjustContrast.float.empty",
           lambda: old_contrast(g.vals(F, [0, 5, 2]), 1.3, -2.0, 2.0))
    g.case("AdjustContrast.float.rank2",
           lambda: old_contrast(g.vals(F, [6, 5]), 1.3, -2.0, 2.0, hide=True), error=True)
    for op, arg, rgb_only in (("AdjustContrastv2", "contrast_factor", False),
                              ("AdjustSaturation", "scale", True), ("AdjustHue", "delta", True)):
        bad = [("rank2", [4, 3], 0.5), ("scalar_is_vector", [2, 2, 3], [0.5])]
        if rgb_only:
            bad.append(("channels_4", [2, 2, 4], 0.5))
        for sname, shape, v in bad:
            g.case(f"{op}.float.{sname}",
                   lambda: op_fn(op)(images=hide_rank(rgb(shape)),
                                     **{arg: hide_rank(g.const(v, F))}, name="op"),
                   error=True)


@group
def image_projective(g):
    I = "int32"
    # Two transforms that carry much of the output outside the input (rotation, shear, shift and
    # a small projection), so every fill mode has work; not exact in float, so the bilinear
    # weights round.
    tr = [[0.9, -0.3, 1.5, 0.25, 1.1, -2.0, 0.01, -0.02],
          [1.3, 0.4, -3.2, -0.5, 0.8, 2.5, 0.0, 0.03]]

    def images(dt, shape):
        if is_float(dt):
            return g.rand(dt, shape)
        lo, hi = (0, 255) if dt == "uint8" else (-100, 100)
        return g.rand(dt, shape, lo=lo, hi=hi)

    def v3(dt, img, t, out, interp, mode, fill=3.5, hide=None):
        h = hide or (lambda x: x)
        return raw.ImageProjectiveTransformV3(
            images=h(images(dt, img)), transforms=h(g.const(t, "float32")),
            output_shape=h(g.const(out, I)), fill_value=g.const(fill, "float32"),
            interpolation=interp, fill_mode=mode, name="op")

    def v2(dt, img, t, out, interp, mode, hide=None):
        h = hide or (lambda x: x)
        return raw.ImageProjectiveTransformV2(
            images=h(images(dt, img)), transforms=h(g.const(t, "float32")),
            output_shape=h(g.const(out, I)), interpolation=interp, fill_mode=mode, name="op")

    modes = ("CONSTANT", "REFLECT", "WRAP", "NEAREST")
    for dt in tf_types("ImageProjectiveTransformV3", "dtype"):
        for interp in ("NEAREST", "BILINEAR"):
            for mode in modes:
                g.case(f"ImageProjectiveTransformV3.{sgname(dt)}.{interp.lower()}_{mode.lower()}",
                       lambda: v3(dt, [2, 5, 6, 2], tr, [6, 7], interp, mode, fill=-3.5))
                g.case(f"ImageProjectiveTransformV2.{sgname(dt)}.{interp.lower()}_{mode.lower()}",
                       lambda: v2(dt, [2, 5, 6, 2], tr, [6, 7], interp, mode))
    F = "float32"
    for interp in ("NEAREST", "BILINEAR"):
        il = interp.lower()
        for mode in modes:
            ml = mode.lower()
            # Coordinates many periods out (REFLECT and WRAP count their periods).
            g.case(f"ImageProjectiveTransformV3.float.far_{il}_{ml}",
                   lambda: v3(F, [1, 4, 5, 1], [[7.3, 1.1, -30.5, -2.2, 6.1, 11.7, 0, 0]],
                              [9, 11], interp, mode))
            # A one-pixel image (and one pixel wide).
            g.case(f"ImageProjectiveTransformV3.float.one_pixel_{il}_{ml}",
                   lambda: v3(F, [1, 1, 1, 2], [tr[0]], [3, 4], interp, mode))
            g.case(f"ImageProjectiveTransformV3.float.one_column_{il}_{ml}",
                   lambda: v3(F, [1, 4, 1, 1], [tr[1]], [5, 3], interp, mode))
            # An image of no rows: every pixel is the fill value.
            g.case(f"ImageProjectiveTransformV3.float.no_rows_{il}_{ml}",
                   lambda: v3(F, [1, 0, 4, 1], [tr[0]], [2, 3], interp, mode))
        # k = c0 x + c1 y + 1 is 0 along a line of output pixels.
        g.case(f"ImageProjectiveTransformV3.float.projection_zero_{il}",
               lambda: v3(F, [1, 4, 4, 1], [[1, 0, 0, 0, 1, 0, -0.5, -0.25]], [5, 5], interp,
                          "CONSTANT", fill=9))
        g.case(f"ImageProjectiveTransformV2.float.projection_zero_{il}",
               lambda: v2(F, [1, 4, 4, 1], [[1, 0, 0, 0, 1, 0, -1, 0]], [3, 4], interp,
                          "REFLECT"))
        # One transform for a batch of three images.
        g.case(f"ImageProjectiveTransformV3.float.shared_transform_{il}",
               lambda: v3(F, [3, 4, 5, 2], [tr[1]], [4, 5], interp, "WRAP"))
        g.case(f"ImageProjectiveTransformV3.uint8.identity_{il}",
               lambda: v3("uint8", [2, 3, 4, 3], [[1, 0, 0, 0, 1, 0, 0, 0]], [3, 4], interp,
                          "CONSTANT"))
        # Output larger and smaller than the input.
        g.case(f"ImageProjectiveTransformV3.float.upscale_{il}",
               lambda: v3(F, [1, 3, 4, 1], [[0.37, 0, 0, 0, 0.41, 0, 0, 0]], [8, 11], interp,
                          "NEAREST"))
        g.case(f"ImageProjectiveTransformV3.float.downscale_{il}",
               lambda: v3(F, [1, 9, 8, 1], [[2.7, 0, 0.3, 0, 3.1, -0.2, 0, 0]], [3, 2], interp,
                          "CONSTANT"))
    # Fill values cast to an integer dtype truncate (and wrap for uint8).
    for fill in (2.7, -2.7, 300.0):
        g.case(f"ImageProjectiveTransformV3.uint8.fill_{str(fill).replace('.', '_')}",
               lambda: v3("uint8", [1, 3, 4, 1], tr[:1], [4, 6], "BILINEAR", "CONSTANT", fill))
        g.case(f"ImageProjectiveTransformV3.int32.fill_{str(fill).replace('.', '_')}",
               lambda: v3("int32", [1, 3, 4, 1], tr[:1], [4, 6], "BILINEAR", "CONSTANT", fill))
    # An unknown interpolation or fill mode has no case: TensorFlow's kernel logs it and writes
    # all-fill (interpolation) or unspecified (fill mode) outputs, where sg's fails.
    g.case("ImageProjectiveTransformV3.float.empty_batch",
           lambda: v3(F, [0, 4, 5, 1], [tr[0]], [3, 3], "BILINEAR", "CONSTANT"))
    g.case("ImageProjectiveTransformV3.float.no_channels",
           lambda: v3(F, [1, 4, 5, 0], [tr[0]], [3, 3], "BILINEAR", "CONSTANT"))
    for sname, img, t, out in (
            ("images_rank3", [4, 5, 1], [tr[0]], [3, 3]),
            ("transforms_rank1", [1, 4, 5, 1], tr[0], [3, 3]),
            ("transforms_7", [1, 4, 5, 1], [tr[0][:7]], [3, 3]),
            ("transforms_batch_mismatch", [2, 4, 5, 1], tr * 2, [3, 3]),
            ("transforms_empty", [2, 4, 5, 1], np.zeros([0, 8]), [3, 3]),
            ("output_shape_negative", [1, 4, 5, 1], [tr[0]], [-1, 3]),
            ("output_shape_zero", [1, 4, 5, 1], [tr[0]], [3, 0]),
            ("output_shape_3", [1, 4, 5, 1], [tr[0]], [3, 3, 1]),
            ("output_shape_2d", [1, 4, 5, 1], [tr[0]], [[3, 3]])):
        for op, fn in (("ImageProjectiveTransformV3", v3), ("ImageProjectiveTransformV2", v2)):
            g.case(f"{op}.float.{sname}",
                   lambda: fn(F, img, t, out, "BILINEAR", "CONSTANT", hide=hide_rank),
                   error=True)


@group
def image_nms(g):
    def boxes(n, clustered=True):
        # Boxes around a few centers (many overlaps), corners in either order.
        c = g.rng.uniform(0.2, 0.8, (3, 2))[g.rng.integers(0, 3, n)] if clustered else \
            g.rng.uniform(0, 1, (n, 2))
        c = c + g.rng.normal(0, 0.05, (n, 2))
        hw = g.rng.uniform(0.1, 0.3, (n, 2))
        b = np.concatenate([c - hw / 2, c + hw / 2], 1)
        flip = g.rng.random(n) < 0.3
        b[flip] = b[flip][:, [2, 3, 0, 1]]
        return b

    def scores(n, ties=False):
        s = g.rng.uniform(0, 1, n)
        if ties:  # a few distinct values: the order among equal scores shows
            s = np.round(s * 4) / 4
        return s

    def v(version, dt, n, max_out, iou=0.5, score=None, sigma=None, ties=False, pad=None,
          tdt=None, box_values=None, score_values=None, hide_max=False):
        b = box_values if box_values is not None else boxes(n)
        s = score_values if score_values is not None else scores(n, ties)
        m = g.const(max_out, "int32")
        args = dict(boxes=g.const(b.reshape(n, 4), dt), scores=g.const(s, dt),
                    max_output_size=hide_shape(m) if hide_max else m, name="op")
        if version == 1:
            return raw.NonMaxSuppression(iou_threshold=iou, **args)
        tdt = tdt or dt
        args["iou_threshold"] = g.const(iou, tdt)
        if version >= 3:
            args["score_threshold"] = g.const(score if score is not None else 0.0, tdt)
        if version >= 4:
            args["pad_to_max_output_size"] = bool(pad)
        if version == 5:
            args["soft_nms_sigma"] = g.const(sigma or 0.0, dt)
            return list(raw.NonMaxSuppressionV5(**args))
        if version == 4:
            return list(raw.NonMaxSuppressionV4(**args))
        return op_fn(f"NonMaxSuppressionV{version}")(**args)

    g.case("NonMaxSuppression.float.basic", lambda: v(1, "float32", 20, 6))
    g.case("NonMaxSuppression.float.iou0", lambda: v(1, "float32", 20, 20, iou=0.0))
    g.case("NonMaxSuppression.float.ties", lambda: v(1, "float32", 30, 30, ties=True))
    for version in (2, 3, 4, 5):
        op = f"NonMaxSuppressionV{version}"
        for dt in ("float32", "float16"):
            n = sgname(dt)
            g.case(f"{op}.{n}.basic", lambda: v(version, dt, 20, 6))
            g.case(f"{op}.{n}.all", lambda: v(version, dt, 25, 100, iou=0.3))
            g.case(f"{op}.{n}.ties", lambda: v(version, dt, 40, 40, ties=True, iou=0.4))
            g.case(f"{op}.{n}.none", lambda: v(version, dt, 0, 5))
            g.case(f"{op}.{n}.max0", lambda: v(version, dt, 10, 0))
            if version >= 3:
                g.case(f"{op}.{n}.score_threshold",
                       lambda: v(version, dt, 30, 10, score=0.45))
            if version >= 4:
                g.case(f"{op}.{n}.padded",
                       lambda: v(version, dt, 30, 12, score=0.3, pad=True))
        if version in (2, 3, 4):
            g.case(f"{op}.half.float_thresholds",
                   lambda: v(version, "float16", 20, 8, score=0.2, tdt="float32"))
            g.case(f"{op}.float.half_thresholds",
                   lambda: v(version, "float32", 20, 8, score=0.2, tdt="float16"))
        g.case(f"{op}.float.iou_above_one", lambda: v(version, "float32", 5, 3, iou=1.5),
               error=True)
        g.case(f"{op}.float.negative_max", lambda: v(version, "float32", 3, -1, hide_max=True),
               error=True)
    # Degenerate boxes: empty areas never suppress; identical boxes always do.
    degenerate = np.array([[0, 0, 1, 1], [0, 0, 1, 1], [0.5, 0.5, 0.5, 0.9], [1, 1, 0, 0],
                           [0.2, 0.2, 0.2, 0.2], [0, 0, 0.5, 0.5], [0.5, 0.5, 0, 0]])
    for version in (3, 5):
        g.case(f"NonMaxSuppressionV{version}.float.degenerate",
               lambda: v(version, "float32", 7, 7, box_values=degenerate,
                         score_values=np.array([0.9, 0.9, 0.8, 0.7, 0.6, 0.6, 0.6])))
    for sigma in (0.1, 0.5, 2.0):
        for dt in ("float32", "float16"):
            g.case(f"NonMaxSuppressionV5.{sgname(dt)}.soft_sigma{sigma}",
                   lambda: v(5, dt, 25, 15, iou=0.5, score=0.1, sigma=sigma))
    g.case("NonMaxSuppressionV5.float.soft_padded",
           lambda: v(5, "float32", 25, 30, iou=1.0, score=0.2, sigma=0.3, pad=True))
    g.case("NonMaxSuppressionV5.float.negative_sigma",
           lambda: v(5, "float32", 5, 3, sigma=-1.0), error=True)
    g.case("NonMaxSuppressionV3.float.boxes_3_columns",
           lambda: raw.NonMaxSuppressionV3(boxes=hide_shape(g.const(np.zeros((4, 3)), "float32")),
                                           scores=g.const(np.zeros(4), "float32"),
                                           max_output_size=g.const(2, "int32"),
                                           iou_threshold=g.const(0.5, "float32"),
                                           score_threshold=g.const(0.0, "float32"), name="op"),
           error=True)
    g.case("NonMaxSuppressionV3.float.score_count",
           lambda: raw.NonMaxSuppressionV3(boxes=g.const(boxes(4), "float32"),
                                           scores=hide_shape(g.const(np.zeros(5), "float32")),
                                           max_output_size=g.const(2, "int32"),
                                           iou_threshold=g.const(0.5, "float32"),
                                           score_threshold=g.const(0.0, "float32"), name="op"),
           error=True)

    def overlaps(n, thr, score):
        m = g.rng.uniform(0, 1, (n, n))
        m = (m + m.T) / 2
        return raw.NonMaxSuppressionWithOverlaps(
            overlaps=g.const(m, "float32"), scores=g.const(scores(n, True), "float32"),
            max_output_size=g.const(n, "int32"), overlap_threshold=g.const(thr, "float32"),
            score_threshold=g.const(score, "float32"), name="op")
    g.case("NonMaxSuppressionWithOverlaps.float.basic", lambda: overlaps(15, 0.5, 0.1))
    g.case("NonMaxSuppressionWithOverlaps.float.threshold_above_one",
           lambda: overlaps(10, 1.5, -1.0))
    g.case("NonMaxSuppressionWithOverlaps.float.not_square",
           lambda: raw.NonMaxSuppressionWithOverlaps(
               overlaps=hide_shape(g.const(np.zeros((3, 4)), "float32")),
               scores=g.const(np.zeros(3), "float32"), max_output_size=g.const(2, "int32"),
               overlap_threshold=g.const(0.5, "float32"),
               score_threshold=g.const(0.0, "float32"), name="op"), error=True)

    def combined(batch, n, q, classes, per_class, total, iou=0.5, score=0.2, ties=False,
                 hide_sizes=False, **kw):
        b = np.stack([np.stack([boxes(n)] * q, 1) + g.rng.normal(0, 0.02, (n, q, 4))
                      for _ in range(batch)]) * 1.2 - 0.1  # some corners outside [0, 1]
        s = g.rng.uniform(0, 1, (batch, n, classes))
        if ties:
            s = np.round(s * 5) / 5

        def maybe_hide(t):
            return hide_shape(t) if hide_sizes else t
        return list(raw.CombinedNonMaxSuppression(
            boxes=g.const(b.reshape(batch, n, q, 4), "float32"), scores=g.const(s, "float32"),
            max_output_size_per_class=maybe_hide(g.const(per_class, "int32")),
            max_total_size=maybe_hide(g.const(total, "int32")),
            iou_threshold=g.const(iou, "float32"), score_threshold=g.const(score, "float32"),
            name="op", **kw))
    g.case("CombinedNonMaxSuppression.float.shared_boxes",
           lambda: combined(2, 20, 1, 3, 4, 8))
    g.case("CombinedNonMaxSuppression.float.box_per_class",
           lambda: combined(2, 15, 4, 4, 3, 10))
    g.case("CombinedNonMaxSuppression.float.ties", lambda: combined(3, 30, 1, 4, 6, 15, ties=True))
    g.case("CombinedNonMaxSuppression.float.ties_per_class",
           lambda: combined(2, 25, 3, 3, 10, 40, ties=True, iou=0.7, score=0.0))
    g.case("CombinedNonMaxSuppression.float.pad_per_class",
           lambda: combined(2, 20, 1, 3, 2, 50, pad_per_class=True))
    g.case("CombinedNonMaxSuppression.float.pad_per_class_total",
           lambda: combined(2, 20, 1, 3, 5, 7, pad_per_class=True))
    g.case("CombinedNonMaxSuppression.float.no_clip",
           lambda: combined(1, 20, 1, 2, 5, 6, clip_boxes=False))
    g.case("CombinedNonMaxSuppression.float.nothing_above_threshold",
           lambda: combined(2, 10, 1, 2, 3, 4, score=1.5))
    g.case("CombinedNonMaxSuppression.float.more_per_class_than_boxes",
           lambda: combined(1, 4, 1, 2, 10, 20))
    g.case("CombinedNonMaxSuppression.float.zero_per_class",
           lambda: combined(1, 4, 1, 2, 0, 3, hide_sizes=True), error=True)
    g.case("CombinedNonMaxSuppression.float.zero_total",
           lambda: combined(1, 4, 1, 2, 2, 0, hide_sizes=True), error=True)
    g.case("CombinedNonMaxSuppression.float.bad_q",
           lambda: list(raw.CombinedNonMaxSuppression(
               boxes=hide_shape(g.const(np.zeros((1, 4, 2, 4)), "float32")),
               scores=g.const(np.zeros((1, 4, 3)), "float32"),
               max_output_size_per_class=g.const(2, "int32"),
               max_total_size=g.const(2, "int32"), iou_threshold=g.const(0.5, "float32"),
               score_threshold=g.const(0.0, "float32"), name="op")), error=True)
    g.case("CombinedNonMaxSuppression.float.iou_above_one",
           lambda: combined(1, 4, 1, 2, 2, 2, iou=1.5), error=True)


@group
def strings(g):
    words = np.array([b"abc", b"", b"a1b2", b"hello world", b"AbC", b"\xc3\xa9t\xc3\xa9",
                      b"aaa", b"x.y"], dtype=object)
    for sname, pattern in [("literal", b"abc"), ("class", b"[a-z]+"),
                           ("alternation", b"a(1b2|bc|aa)"), ("dot", b".*"),
                           ("anchors", b"^a.*$"), ("case_insensitive", b"(?i)abc"),
                           ("digits", b"\\w\\d\\w\\d"), ("utf8", b"\xc3\xa9t."),
                           ("escaped_dot", b"x\\.y"), ("repeat", b"a{2,3}")]:
        g.case(f"StaticRegexFullMatch.string.{sname}",
               lambda: raw.StaticRegexFullMatch(input=g.const(words, "string"), pattern=pattern,
                                                name="op"))
        g.case(f"RegexFullMatch.string.{sname}",
               lambda: raw.RegexFullMatch(input=g.const(words.reshape(2, 4), "string"),
                                          pattern=g.const(pattern, "string"), name="op"))
    g.case("RegexFullMatch.string.scalar",
           lambda: raw.RegexFullMatch(input=g.const(b"abc", "string"),
                                      pattern=g.const(b"a.c", "string"), name="op"))
    g.case("RegexFullMatch.string.empty",
           lambda: raw.RegexFullMatch(input=g.const(np.zeros([0], object), "string"),
                                      pattern=g.const(b"a", "string"), name="op"))
    g.case("RegexFullMatch.string.bad_pattern",
           lambda: raw.RegexFullMatch(input=g.const([b"a"], "string"),
                                      pattern=g.const(b"(", "string"), name="op"), error=True)
    for sname, shapes, sep in [("two", [[3], [3]], b""), ("scalar_bcast", [[], [2, 2], []], b"-"),
                               ("one", [[2]], b", "), ("scalars", [[], []], b"/"),
                               ("empty", [[0], []], b"x")]:
        g.case(f"StringJoin.string.{sname}",
               lambda: raw.StringJoin(inputs=[g.rand("string", s) for s in shapes],
                                      separator=sep, name="op"))
    g.case("StringJoin.string.mismatch",
           lambda: raw.StringJoin(inputs=[g.rand("string", [2]),
                                          tf.compat.v1.placeholder_with_default(
                                              g.rand("string", [3]), [None])], name="op"),
           error=True)


def unknown_shape(t):
    """`t` behind a PlaceholderWithDefault of unknown rank: TensorFlow's shape functions see
    nothing, so a shape the kernel rejects reaches the run."""
    return tf.compat.v1.placeholder_with_default(t, shape=None)


TEXT = np.array([b"Hello, World! This is sg.", b"  TensorFlow 2.21 writes   these GRAPHS... ",
                 b"", b"\xc3\x89T\xc3\x89 caf\xc3\xa9 \xce\xa3", b"A-B_C d.e\t\n", b"x\x00Y z",
                 b"\xff bad \xc3", b" \t\v\f\r\n"], dtype=object)


@group
def strings_text(g):
    text = lambda shape=(2, 4): g.const(TEXT.reshape(shape), "string")  # noqa: E731
    for op in ("StringLower", "StringUpper"):
        for enc in ("", "utf-8"):
            g.case(f"{op}.string.{enc or 'ascii'}",
                   lambda: op_fn(op)(input=text(), encoding=enc, name="op"))
        g.case(f"{op}.string.scalar",
               lambda: op_fn(op)(input=g.const(b"MiXeD", "string"), name="op"))
        g.case(f"{op}.string.empty",
               lambda: op_fn(op)(input=g.const(np.zeros([0, 2], object), "string"), name="op"))
        g.case(f"{op}.string.bad_encoding",
               lambda: op_fn(op)(input=text(), encoding="latin1", name="op"), error=True)
    g.case("StringStrip.string.mixed", lambda: raw.StringStrip(input=text(), name="op"))
    g.case("StringStrip.string.scalar",
           lambda: raw.StringStrip(input=g.const(b"\n a\x00b \t", "string"), name="op"))
    for unit in ("BYTE", "UTF8_CHAR"):
        g.case(f"StringLength.string.{unit.lower()}",
               lambda: raw.StringLength(input=text((8,)), unit=unit, name="op"))
    g.case("StringLength.string.empty",
           lambda: raw.StringLength(input=g.const(np.zeros([0], object), "string"), name="op"))
    words = np.concatenate([TEXT, np.array([b"a", b"b", b"hello", b"x" * 100, b"sg" * 33],
                                           dtype=object)])
    for n in (1, 2, 1000, 2 ** 31 - 1, 2 ** 62 + 7):
        g.case(f"StringToHashBucketFast.string.buckets_{n}",
               lambda: raw.StringToHashBucketFast(input=g.const(words, "string"), num_buckets=n,
                                                  name="op"))
    g.case("StringToHashBucketFast.string.scalar",
           lambda: raw.StringToHashBucketFast(input=g.const(b"token", "string"), num_buckets=10,
                                              name="op"))
    for sname, pattern, rewrite in [("class", b"[^a-z0-9 ]", b" "), ("spaces", b" +", b" "),
                                    ("empty_match", b"b*", b"[\\0]"),
                                    ("groups", b"(\\w)(\\w*)", b"\\2\\1"),
                                    ("bad_rewrite", b"(b)", b"\\2"), ("utf8", b"\xc3\xa9", b"e"),
                                    ("anchor", b"^\\s+|\\s+$", b"")]:
        for glob in (True, False):
            suffix = sname if glob else sname + "_first"
            g.case(f"StaticRegexReplace.string.{suffix}",
                   lambda: raw.StaticRegexReplace(input=text(), pattern=pattern, rewrite=rewrite,
                                                  replace_global=glob, name="op"))
            g.case(f"RegexReplace.string.{suffix}",
                   lambda: raw.RegexReplace(input=text(), pattern=g.const(pattern, "string"),
                                            rewrite=g.const(rewrite, "string"),
                                            replace_global=glob, name="op"))
    g.case("StaticRegexReplace.string.bad_pattern",
           lambda: raw.StaticRegexReplace(input=text(), pattern=b"(", rewrite=b"", name="op"),
           error=True)
    g.case("RegexReplace.string.bad_pattern",
           lambda: raw.RegexReplace(input=text(), pattern=g.const(b"(", "string"),
                                    rewrite=g.const(b"", "string"), name="op"), error=True)
    g.case("RegexReplace.string.pattern_vector",
           lambda: raw.RegexReplace(input=text(), pattern=unknown_shape(g.const([b"a"], "string")),
                                    rewrite=g.const(b"", "string"), name="op"), error=True)
    g.case("RegexReplace.string.rewrite_vector",
           lambda: raw.RegexReplace(input=text(), pattern=g.const(b"a", "string"),
                                    rewrite=unknown_shape(g.const([b""], "string")), name="op"),
           error=True)
    split_in = np.array([b"a b  c ", b"  ", b"", b"x\ty\nz", b"a,,b,", b"a ", b"1<>2<>3"],
                        dtype=object)
    for sname, sep in [("whitespace", b""), ("comma", b","), ("space", b" "), ("multi", b"<>")]:
        for maxsplit in (-1, 0, 1, 2):
            g.case(f"StringSplitV2.string.{sname}_max{maxsplit}".replace("-1", "all"),
                   lambda: list(raw.StringSplitV2(input=g.const(split_in, "string"),
                                                  sep=g.const(sep, "string"), maxsplit=maxsplit,
                                                  name="op")))
    g.case("StringSplitV2.string.empty",
           lambda: list(raw.StringSplitV2(input=g.const(np.zeros([0], object), "string"),
                                          sep=g.const(b"", "string"), name="op")))
    g.case("StringSplitV2.string.scalar_input",
           lambda: list(raw.StringSplitV2(input=unknown_shape(g.const(b"a b", "string")),
                                          sep=g.const(b"", "string"), name="op")), error=True)
    g.case("StringSplitV2.string.sep_vector",
           lambda: list(raw.StringSplitV2(input=g.const([b"a b"], "string"),
                                          sep=unknown_shape(g.const([b" "], "string")),
                                          name="op")), error=True)
    sub_in = np.array([[b"hello", b"\xc3\xa9t\xc3\xa9x"], [b"ab", b""]], dtype=object)
    for dt in ("int32", "int64"):
        for unit in ("BYTE", "UTF8_CHAR"):
            g.case(f"Substr.{dt}.{unit.lower()}",
                   lambda: raw.Substr(input=g.const(sub_in, "string"),
                                      pos=g.const([[1, 1], [-2, 0]], dt),
                                      len=g.const([[10, 2], [1, -1]], dt), unit=unit, name="op"))
        g.case(f"Substr.{dt}.broadcast_row",
               lambda: raw.Substr(input=g.const(sub_in[:1], "string"), pos=g.const([0, 1], dt),
                                  len=g.const([1, 2], dt), name="op"))
        g.case(f"Substr.{dt}.scalar_pos",
               lambda: raw.Substr(input=g.const(sub_in, "string"), pos=g.const(0, dt),
                                  len=g.const(2, dt), name="op"))
        g.case(f"Substr.{dt}.scalar_input",
               lambda: raw.Substr(input=g.const(b"hello", "string"), pos=g.const([0, 1, -5], dt),
                                  len=g.const([1, 3, 2], dt), name="op"))
        g.case(f"Substr.{dt}.pos_past_end",
               lambda: raw.Substr(input=g.const(sub_in, "string"),
                                  pos=g.const([[1, 1], [3, 0]], dt),
                                  len=g.const([[1, 1], [1, 1]], dt), name="op"), error=True)
        g.case(f"Substr.{dt}.pos_before_start",
               lambda: raw.Substr(input=g.const(sub_in, "string"),
                                  pos=g.const([[1, 1], [-3, 0]], dt),
                                  len=g.const([[1, 1], [1, 1]], dt), name="op"), error=True)


HASH_WORDS = np.array([b"", b"a", b"hello", b"TensorFlow", b"x" * 7, b"y" * 8, b"z" * 9,
                       b"\xc3\xa9t\xc3\xa9", b"sg" * 40, b"\x00\xff"], dtype=object)


@group
def strings_hash(g):
    words = lambda: g.const(HASH_WORDS, "string")  # noqa: E731
    for n in (1, 3, 1000, 2 ** 31 - 1, 2 ** 62 + 7):
        g.case(f"StringToHashBucket.string.buckets_{n}",
               lambda: raw.StringToHashBucket(string_tensor=words(), num_buckets=n, name="op"))
        g.case(f"StringToHashBucketStrong.string.buckets_{n}",
               lambda: raw.StringToHashBucketStrong(input=words(), num_buckets=n, key=[1, 2],
                                                    name="op"))
    g.case("StringToHashBucket.string.matrix",
           lambda: raw.StringToHashBucket(string_tensor=g.const(HASH_WORDS.reshape(2, 5),
                                                                "string"),
                                          num_buckets=77, name="op"))
    g.case("StringToHashBucket.string.scalar",
           lambda: raw.StringToHashBucket(string_tensor=g.const(b"token", "string"),
                                          num_buckets=10, name="op"))
    for sname, key in [("zero_key", [0, 0]), ("negative_key", [-1, -(2 ** 63)]),
                       ("big_key", [2 ** 63 - 1, 123456789])]:
        g.case(f"StringToHashBucketStrong.string.{sname}",
               lambda: raw.StringToHashBucketStrong(input=g.const(HASH_WORDS.reshape(5, 2),
                                                                  "string"),
                                                    num_buckets=2 ** 62 + 7, key=key,
                                                    name="op"))
    g.case("StringToHashBucketStrong.string.empty",
           lambda: raw.StringToHashBucketStrong(input=g.const(np.zeros([0, 3], object), "string"),
                                                num_buckets=5, key=[3, 4], name="op"))
    g.case("StringToHashBucketStrong.string.short_key",
           lambda: raw.StringToHashBucketStrong(input=words(), num_buckets=5, key=[1],
                                                name="op"), error=True)
    method = lambda: g.const(b"farmhash64", "string")  # noqa: E731
    for dt in UNIVERSE:
        g.case(f"Fingerprint.{sgname(dt)}.matrix",
               lambda: raw.Fingerprint(data=g.rand(dt, [3, 4]), method=method(), name="op"))
        g.case(f"Fingerprint.{sgname(dt)}.vector",
               lambda: raw.Fingerprint(data=g.rand(dt, [5]), method=method(), name="op"))
    g.case("Fingerprint.string.words",
           lambda: raw.Fingerprint(data=g.const(HASH_WORDS, "string"), method=method(),
                                   name="op"))
    g.case("Fingerprint.string.rank3",
           lambda: raw.Fingerprint(data=g.const(HASH_WORDS.reshape(5, 2, 1), "string"),
                                   method=method(), name="op"))
    g.case("Fingerprint.string.one_column",
           lambda: raw.Fingerprint(data=g.const(HASH_WORDS.reshape(10, 1), "string"),
                                   method=method(), name="op"))
    g.case("Fingerprint.float.no_rows",
           lambda: raw.Fingerprint(data=g.rand("float32", [0, 3]), method=method(), name="op"))
    g.case("Fingerprint.float.empty_rows",
           lambda: raw.Fingerprint(data=g.rand("float32", [2, 0]), method=method(), name="op"))
    g.case("Fingerprint.int32.scalar",
           lambda: raw.Fingerprint(data=hide_rank(g.rand("int32", [])), method=method(),
                                   name="op"), error=True)
    g.case("Fingerprint.int32.bad_method",
           lambda: raw.Fingerprint(data=g.rand("int32", [2]),
                                   method=hide_rank(g.const(b"md5", "string")), name="op"),
           error=True)


@group
def strings_codec(g):
    s = lambda v: g.const(np.array(v, dtype=object), "string")  # noqa: E731
    grid = np.array([[b"a", b"b", b"c"], [b"d", b"", b"f"]], dtype=object)
    for sname, axes, keep in [("rows", [1], False), ("cols", [0], False), ("all", [0, 1], False),
                              ("all_reversed", [1, 0], False), ("negative", [-1], True),
                              ("none", [], False), ("keep_all", [0, 1], True),
                              ("scalar_axis", 0, False)]:
        g.case(f"ReduceJoin.string.{sname}",
               lambda: raw.ReduceJoin(inputs=g.const(grid, "string"),
                                      reduction_indices=g.const(axes, "int32"), keep_dims=keep,
                                      separator=", ", name="op"))
    cube = np.array([bytes([97 + i]) for i in range(24)], dtype=object).reshape(2, 3, 4)
    for sname, axes in [("middle", [1]), ("outer_inner", [2, 0]), ("last_two", [-2, -1]),
                        ("mixed", [1, 0, 2])]:
        g.case(f"ReduceJoin.string.cube_{sname}",
               lambda: raw.ReduceJoin(inputs=g.const(cube, "string"),
                                      reduction_indices=g.const(axes, "int32"), name="op"))
    g.case("ReduceJoin.string.empty_axis",
           lambda: raw.ReduceJoin(inputs=g.const(np.zeros([2, 0], object), "string"),
                                  reduction_indices=g.const([1], "int32"), separator="-",
                                  name="op"))
    g.case("ReduceJoin.string.empty_rows",
           lambda: raw.ReduceJoin(inputs=g.const(np.zeros([0, 2], object), "string"),
                                  reduction_indices=g.const([1], "int32"), name="op"))
    g.case("ReduceJoin.string.scalar_input",
           lambda: raw.ReduceJoin(inputs=g.const(b"x", "string"),
                                  reduction_indices=g.const(np.zeros([0], np.int32), "int32"),
                                  name="op"))
    g.case("ReduceJoin.string.axis_out_of_range",
           lambda: raw.ReduceJoin(inputs=hide_rank(g.const(grid, "string")),
                                  reduction_indices=g.const([2], "int32"), name="op"),
           error=True)
    g.case("ReduceJoin.string.duplicate_axis",
           lambda: raw.ReduceJoin(inputs=hide_rank(g.const(grid, "string")),
                                  reduction_indices=g.const([1, -1], "int32"), name="op"),
           error=True)
    split_in = [b"a b,c", b",,", b"", b"  x  ", b"one", b"a\tb c"]
    for sname, delim in [("space", b" "), ("any_of", b" ,"), ("chars", b""), ("tab", b"\t")]:
        for skip in (True, False):
            g.case(f"StringSplit.string.{sname}_{'skip' if skip else 'keep'}",
                   lambda: list(raw.StringSplit(input=s(split_in), delimiter=g.const(delim,
                                                                                     "string"),
                                                skip_empty=skip, name="op")))
    g.case("StringSplit.string.empty",
           lambda: list(raw.StringSplit(input=g.const(np.zeros([0], object), "string"),
                                        delimiter=g.const(b" ", "string"), name="op")))
    g.case("StringSplit.string.matrix_input",
           lambda: list(raw.StringSplit(input=hide_rank(g.const([[b"a b"]], "string")),
                                        delimiter=g.const(b" ", "string"), name="op")),
           error=True)
    raw_bytes = [b"", b"a", b"ab", b"abc", b"abcd", b"\xff\xfe\xfd", b"\xfb\xff", b"hello, world"]
    for pad in (False, True):
        g.case(f"EncodeBase64.string.{'pad' if pad else 'no_pad'}",
               lambda: raw.EncodeBase64(input=s(raw_bytes), pad=pad, name="op"))
    g.case("EncodeBase64.string.matrix",
           lambda: raw.EncodeBase64(input=g.const(np.array(raw_bytes, object).reshape(2, 4),
                                                  "string"),
                                    pad=True, name="op"))
    g.case("DecodeBase64.string.mixed",
           lambda: raw.DecodeBase64(input=s([b"", b"YQ", b"YQ==", b"YWI", b"YWI=", b"YWJj",
                                             b"__79", b"-_8", b"YR", b"aGVsbG8sIHdvcmxk"]),
                                    name="op"))
    g.case("DecodeBase64.string.scalar",
           lambda: raw.DecodeBase64(input=g.const(b"c2c", "string"), name="op"))
    for sname, bad in [("one_mod_four", b"YWJjZ"), ("bad_char", b"a+b/"),
                       ("inner_pad", b"YQ==YQ"), ("short_pad", b"YQ="), ("three_pad", b"A==="),
                       ("newline", b"YQ==\n")]:
        g.case(f"DecodeBase64.string.{sname}",
               lambda: raw.DecodeBase64(input=s([b"YQ", bad]), name="op"), error=True)
    rng = np.random.default_rng(7)
    for dt in tf_types("DecodeRaw", "out_type"):
        size = np.dtype(npdtype(dt)).itemsize if dt != "bfloat16" else 2
        if dt == "bool":
            data = [bytes(rng.integers(0, 2, 6, dtype=np.uint8)) for _ in range(4)]
        elif is_float(dt) or is_complex(dt):
            data = [g.vals(dt, [3]).tobytes() if dt != "bfloat16" else
                    g.vals("float16", [3]).tobytes() for _ in range(4)]
        else:
            data = [bytes(rng.integers(0, 256, 3 * size, dtype=np.uint8)) for _ in range(4)]
        for little in (True, False):
            g.case(f"DecodeRaw.{sgname(dt)}.{'little' if little else 'big'}",
                   lambda: raw.DecodeRaw(bytes=g.const(np.array(data, object).reshape(2, 2),
                                                       "string"),
                                         out_type=dt, little_endian=little, name="op"))
    g.case("DecodeRaw.int32.scalar",
           lambda: raw.DecodeRaw(bytes=g.const(b"\x01\x00\x00\x00\x02\x00\x00\x00", "string"),
                                 out_type="int32", name="op"))
    g.case("DecodeRaw.int16.empty_strings",
           lambda: raw.DecodeRaw(bytes=s([b"", b""]), out_type="int16", name="op"))
    g.case("DecodeRaw.int16.no_strings",
           lambda: raw.DecodeRaw(bytes=g.const(np.zeros([0, 2], object), "string"),
                                 out_type="int16", name="op"))
    g.case("DecodeRaw.int32.ragged",
           lambda: raw.DecodeRaw(bytes=s([b"abcd", b"ab"]), out_type="int32", name="op"),
           error=True)
    g.case("DecodeRaw.int32.partial_element",
           lambda: raw.DecodeRaw(bytes=s([b"abcdef"]), out_type="int32", name="op"), error=True)


UNICODE_TEXT = np.array([b"h\xc3\xa9llo", b"", b"\xff a \xc3", b"\x01\x7f\xc2\x80x\t\n",
                         b"\xed\xa0\x80z", b"\xf4\x90\x80\x80", b"\xc0\xaf", b"\xe2\x82",
                         b"\xf0\x9f\x98\x80!", b"\xe6\x97\xa5\xe6\x9c\xac\x00"], dtype=object)


@group
def strings_unicode(g):
    text = lambda shape=(10,): g.const(UNICODE_TEXT.reshape(shape), "string")  # noqa: E731
    utf16 = np.array([b"\x00a\x00b\xd8\x3d\xde\x00", b"\xd8\x00\x00a\xdc\x00", b"\x00\x01\x00",
                      b""], dtype=object)
    utf32 = np.array([b"\x00\x00\x00a\x00\x01\xf6\x00", b"\x00\x11\x00\x00\xff\xff\xff\xff",
                      b"\x00\x00\xd8\x00\x00\x00", b"\x00\x00\x00\x1f"], dtype=object)
    inputs = [("utf8", "UTF-8", UNICODE_TEXT), ("utf16", "UTF-16-BE", utf16),
              ("utf32", "UTF-32-BE", utf32), ("latin1", "ISO-8859-1", UNICODE_TEXT[:4])]
    for op in ("UnicodeDecode", "UnicodeDecodeWithOffsets"):
        for iname, enc, data in inputs:
            for errors in ("replace", "ignore"):
                for ctrl in (False, True):
                    g.case(f"{op}.none.{iname}_{errors}{'_ctrl' if ctrl else ''}",
                           lambda: list(op_fn(op)(input=g.const(data, "string"),
                                                  input_encoding=enc, errors=errors,
                                                  replace_control_characters=ctrl,
                                                  name="op")))
        # Tsplits int32 aborts TensorFlow 2.21's kernel (a check failure): int64 only.
        for sdt in ("int64",):
            g.case(f"{op}.{sdt}.matrix",
                   lambda: list(op_fn(op)(input=text((5, 2)), input_encoding="UTF-8",
                                          Tsplits=sdt, replacement_char=63, name="op")))
        g.case(f"{op}.none.scalar",
               lambda: list(op_fn(op)(input=g.const(b"\xc3\xa9t\xc3\xa9", "string"),
                                      input_encoding="UTF-8", name="op")))
        g.case(f"{op}.none.empty",
               lambda: list(op_fn(op)(input=g.const(np.zeros([0, 2], object), "string"),
                                      input_encoding="UTF-8", name="op")))
        g.case(f"{op}.none.surrogate_replacement",
               lambda: list(op_fn(op)(input=text(), input_encoding="UTF-8",
                                      replacement_char=0xD800, name="op")))
        g.case(f"{op}.none.strict_valid",
               lambda: list(op_fn(op)(input=g.const([b"ok", b"\xc3\xa9"], "string"),
                                      input_encoding="UTF-8", errors="strict", name="op")))
        g.case(f"{op}.none.strict",
               lambda: list(op_fn(op)(input=text(), input_encoding="UTF-8", errors="strict",
                                      name="op")), error=True)
        g.case(f"{op}.none.bad_replacement",
               lambda: list(op_fn(op)(input=text(), input_encoding="UTF-8",
                                      replacement_char=0x110000, name="op")), error=True)
        g.case(f"{op}.none.bad_encoding",
               lambda: list(op_fn(op)(input=text(), input_encoding="no-such-encoding",
                                      name="op")), error=True)
    values = [104, 0xD800, 0x110000, -1, 233, 0x1F600, 0, 0x1F, 0x10FFFF, 0xDFFF, 0x7FF, 0x800]
    for sdt in ("int32", "int64"):
        for enc in ("UTF-8", "UTF-16-BE", "UTF-32-BE"):
            for errors in ("replace", "ignore"):
                g.case(f"UnicodeEncode.{sdt}.{enc.replace('-', '').lower()}_{errors}",
                       lambda: raw.UnicodeEncode(input_values=g.const(values, "int32"),
                                                 input_splits=g.const([0, 2, 2, 7, 12], sdt),
                                                 output_encoding=enc, errors=errors,
                                                 name="op"))
        g.case(f"UnicodeEncode.{sdt}.replacement_char",
               lambda: raw.UnicodeEncode(input_values=g.const(values, "int32"),
                                         input_splits=g.const([0, 12], sdt),
                                         output_encoding="UTF-16-BE", replacement_char=0x1F600,
                                         name="op"))
        g.case(f"UnicodeEncode.{sdt}.strict_valid",
               lambda: raw.UnicodeEncode(input_values=g.const([104, 233, 0x1F600], "int32"),
                                         input_splits=g.const([0, 1, 3], sdt),
                                         output_encoding="UTF-8", errors="strict", name="op"))
        g.case(f"UnicodeEncode.{sdt}.no_rows",
               lambda: raw.UnicodeEncode(input_values=g.const(np.zeros([0], np.int32), "int32"),
                                         input_splits=g.const([0], sdt),
                                         output_encoding="UTF-8", name="op"))
        g.case(f"UnicodeEncode.{sdt}.strict",
               lambda: raw.UnicodeEncode(input_values=g.const([104, -1], "int32"),
                                         input_splits=g.const([0, 2], sdt),
                                         output_encoding="UTF-8", errors="strict", name="op"),
               error=True)
        for sname, splits in [("first_not_zero", [1, 2]), ("last_short", [0, 1]),
                              ("last_long", [0, 3]), ("no_splits", np.zeros([0], np.int64))]:
            g.case(f"UnicodeEncode.{sdt}.{sname}",
                   lambda: raw.UnicodeEncode(input_values=g.const([104, 105], "int32"),
                                             input_splits=hide_shape(g.const(splits, sdt)),
                                             output_encoding="UTF-8", name="op"), error=True)
    for iname, enc, data in inputs:
        for out_enc in ("UTF-8", "UTF-16-BE", "UTF-32-BE"):
            for errors in ("replace", "ignore"):
                g.case(f"UnicodeTranscode.none.{iname}_to_{out_enc.replace('-', '').lower()}_"
                       f"{errors}",
                       lambda: raw.UnicodeTranscode(input=g.const(data, "string"),
                                                    input_encoding=enc, output_encoding=out_enc,
                                                    errors=errors, name="op"))
    g.case("UnicodeTranscode.none.controls",
           lambda: raw.UnicodeTranscode(input=text((2, 5)), input_encoding="UTF-8",
                                        output_encoding="UTF-8", replace_control_characters=True,
                                        replacement_char=42, name="op"))
    for errors in ("ignore", "strict"):
        g.case(f"UnicodeDecode.none.controls_{errors}",
               lambda: list(raw.UnicodeDecode(input=g.const([b"a\x01b", b"\t"], "string"),
                                              input_encoding="UTF-8", errors=errors,
                                              replace_control_characters=True, name="op")))
    g.case("UnicodeTranscode.none.controls_ignore",
           lambda: raw.UnicodeTranscode(input=text((2, 5)), input_encoding="UTF-8",
                                        output_encoding="UTF-16-BE", errors="ignore",
                                        replace_control_characters=True, name="op"))
    g.case("UnicodeTranscode.none.controls_strict",
           lambda: raw.UnicodeTranscode(input=g.const([b"a\x01b"], "string"),
                                        input_encoding="UTF-8", output_encoding="UTF-8",
                                        errors="strict", replace_control_characters=True,
                                        name="op"), error=True)
    g.case("UnicodeTranscode.none.surrogate_replacement",
           lambda: raw.UnicodeTranscode(input=text(), input_encoding="UTF-8",
                                        output_encoding="UTF-8", replacement_char=0xD800,
                                        name="op"))
    g.case("UnicodeTranscode.none.scalar",
           lambda: raw.UnicodeTranscode(input=g.const(b"a\xc3\xa9", "string"),
                                        input_encoding="UTF-8", output_encoding="UTF-16-BE",
                                        name="op"))
    g.case("UnicodeTranscode.none.strict",
           lambda: raw.UnicodeTranscode(input=text(), input_encoding="UTF-8",
                                        output_encoding="UTF-8", errors="strict", name="op"),
           error=True)
    g.case("UnicodeTranscode.none.bad_encoding",
           lambda: raw.UnicodeTranscode(input=text(), input_encoding="no-such-encoding",
                                        output_encoding="UTF-8", name="op"), error=True)


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
               lambda: r2t(shape=unknown_shape(g.const(shape, "int64")),
                           values=unknown_shape(values()), default_value=unknown_shape(default()),
                           row_partition_tensors=[unknown_shape(p()) for p in parts],
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
                                 num_segments=unknown_shape(g.const(-1, "int32")), name="op"),
               error=True)
        g.case(f"{op}.float.ids_not_prefix",
               lambda: op_fn(op)(data=g.rand("float32", [4]),
                                 segment_ids=unknown_shape(g.const([0, 1], "int32")),
                                 num_segments=g.const(3, "int32"), name="op"), error=True)
        g.case(f"{op}.float.num_segments_vector",
               lambda: op_fn(op)(data=g.rand("float32", [4]),
                                 segment_ids=g.const([0, 1, 1, 0], "int32"),
                                 num_segments=unknown_shape(g.const([3], "int32")), name="op"),
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
               lambda: raw.DenseBincount(input=unknown_shape(g.const(arr, I)),
                                         size=unknown_shape(g.const(size, I)),
                                         weights=unknown_shape(g.const(weights, F)), name="op"),
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


@group
def internal_ops(g):
    """Ops of TensorFlow's runtime that graphs may hold: Send/Recv under their other names,
    _HostCast, _ArrayToList/_ListToArray and RefSelect."""
    dev = "/job:localhost/replica:0/task:0/device:CPU:0"
    for send_op, recv_op in (("Send", "Recv"), ("_HostSend", "_HostRecv")):
        for dt in ("float32", "int32", "string", "bool"):
            def pair(send_op=send_op, recv_op=recv_op, dt=dt):
                graph = tf.compat.v1.get_default_graph()
                tdt = tf.as_dtype(dt)
                common = dict(tensor_name=attr_value_pb2.AttrValue(s=b"edge_x"),
                              send_device=attr_value_pb2.AttrValue(s=dev.encode()),
                              send_device_incarnation=attr_value_pb2.AttrValue(i=1),
                              recv_device=attr_value_pb2.AttrValue(s=dev.encode()),
                              client_terminated=attr_value_pb2.AttrValue(b=False))
                typ = attr_value_pb2.AttrValue(type=tdt.as_datatype_enum)
                send = graph.create_op(send_op, [g.rand(dt, [2, 3])], [],
                                       attrs=dict(common, T=typ), name="send")
                recv = graph.create_op(recv_op, [], [tdt], attrs=dict(common, tensor_type=typ),
                                       name="op")
                return [recv.outputs[0], send]
            g.case(f"{recv_op.lstrip('_')}.{sgname(dt)}.local_pair", pair)
    f32 = tf.TensorSpec([2], tf.float32)
    def remote_call(target):
        f = concrete(lambda x, y: (raw.AddV2(x=x, y=y), raw.Mul(x=x, y=y)), f32, f32)
        return list(raw.RemoteCall(target=g.const(target, "string"),
                                   args=[g.rand("float32", [2]), g.rand("float32", [2])],
                                   Tout=[tf.float32, tf.float32], f=f, name="op"))
    g.case("RemoteCall.float.local_cpu", lambda: remote_call(dev.encode()))
    for src, dst in (("float32", "int32"), ("int64", "float16"), ("bool", "float32")):
        g.case(f"HostCast.{sgname(dst)}.from_{sgname(src)}",
               lambda: tf.compat.v1.get_default_graph().create_op(
                   "_HostCast", [g.rand(src, [2, 3])], [tf.as_dtype(dst)],
                   attrs=dict(SrcT=attr_value_pb2.AttrValue(type=tf.as_dtype(src).as_datatype_enum),
                              DstT=attr_value_pb2.AttrValue(type=tf.as_dtype(dst).as_datatype_enum),
                              Truncate=attr_value_pb2.AttrValue(b=False)),
                   name="op").outputs[0])
    def type_list(dts):
        return attr_value_pb2.AttrValue(list=attr_value_pb2.AttrValue.ListValue(
            type=[tf.as_dtype(d).as_datatype_enum for d in dts]))
    def array_to_list():
        xs = [g.rand("float32", [2]), g.rand("float32", [3, 1])]
        op = tf.compat.v1.get_default_graph().create_op(
            "_ArrayToList", xs, [tf.float32, tf.float32],
            attrs=dict(T=attr_value_pb2.AttrValue(type=tf.float32.as_datatype_enum),
                       N=attr_value_pb2.AttrValue(i=2), out_types=type_list(["float32"] * 2)),
            name="op")
        return list(op.outputs)
    g.case("ArrayToList.float.two", array_to_list)
    def list_to_array():
        xs = [g.rand("int32", [2]), g.rand("int32", [])]
        op = tf.compat.v1.get_default_graph().create_op(
            "_ListToArray", xs, [tf.int32, tf.int32],
            attrs=dict(Tin=type_list(["int32"] * 2), N=attr_value_pb2.AttrValue(i=2),
                       T=attr_value_pb2.AttrValue(type=tf.int32.as_datatype_enum)),
            name="op")
        return list(op.outputs)
    g.case("ListToArray.int32.two", list_to_array)
    for index, err in ((1, False), (2, True), (-1, True)):
        def ref_select(index=index):
            vs = []
            for i in range(2):
                v = raw.VariableV2(shape=[2], dtype="float32", name=f"v{i}")
                vs.append(raw.Assign(ref=v, value=g.rand("float32", [2]), name=f"assign{i}"))
            return raw.Identity(input=raw.RefSelect(index=g.const(index, "int32"), inputs=vs,
                                                    name="op"), name="out")
        g.case(f"RefSelect.float.index{index}", ref_select, error=err)

@group
def io_v1(g):
    """V1 checkpoints: Save, SaveSlices, Restore, RestoreSlice, RestoreV2 reading them, and the
    files' bytes (through ReadFile), which must be TensorFlow's."""
    def after(op):  # a tensor to fetch that needs `op` run (an error case must fetch something)
        with tf.control_dependencies([op]):
            return tf.constant(0, name="after")
    # TensorFlow's V1 writer has no uint32, uint64 or bfloat16.
    for dt in ("uint32", "uint64", "bfloat16"):
        g.case(f"Save.{sgname(dt)}.unsupported",
               lambda: after(raw.Save(filename=prefix_placeholder(g, "${TMP}/u"),
                                      tensor_names=g.const([b"x"], "string"),
                                      data=[g.rand(dt, [2])], name="op")), error=True)
    for dt in [d for d in SAVE_DTYPES if d not in ("uint32", "uint64", "bfloat16")]:
        def round_trip(dt=dt):
            path = prefix_placeholder(g, "${TMP}/ckpt")
            s = raw.Save(filename=path, tensor_names=g.const([b"x", b"a"], "string"),
                         data=[g.rand(dt, [2, 3]), g.rand(dt, [])], name="save")
            with tf.control_dependencies([s]):
                return [raw.Restore(file_pattern=path, tensor_name=g.const(b"x", "string"),
                                    dt=dt, name="op"),
                        raw.Restore(file_pattern=path, tensor_name=g.const(b"a", "string"),
                                    dt=dt, name="op2"),
                        raw.ReadFile(filename=path, name="bytes")]
        g.case(f"Restore.{sgname(dt)}.round_trip", round_trip)
        def v2_fallback(dt=dt):
            path = prefix_placeholder(g, "${TMP}/v1")
            s = raw.Save(filename=path, tensor_names=g.const([b"w"], "string"),
                         data=[g.rand(dt, [3])], name="save")
            with tf.control_dependencies([s]):
                return raw.RestoreV2(prefix=path, tensor_names=g.const([b"w"], "string"),
                                     shape_and_slices=g.const([b""], "string"), dtypes=[dt],
                                     name="op")
        g.case(f"RestoreV2.{sgname(dt)}.v1_checkpoint", v2_fallback)

    def slices(spec, dt="float32"):
        path = prefix_placeholder(g, "${TMP}/sl")
        # Two slices of a [100, 3] tensor (rows 70..89 and 0..69), a whole matrix and a scalar.
        s = raw.SaveSlices(filename=path, tensor_names=g.const([b"x", b"x2", b"m", b"y"], "string"),
                           shapes_and_slices=g.const([b"100 3 70,20:-", b"", b"", b""], "string"),
                           data=[g.rand(dt, [20, 3]), g.rand(dt, [4]), g.rand(dt, [2, 2]),
                                 g.rand(dt, [])], name="save")
        with tf.control_dependencies([s]):
            return [raw.RestoreSlice(file_pattern=path, tensor_name=g.const(b"x", "string"),
                                     shape_and_slice=g.const(spec.encode(), "string"), dt=dt,
                                     name="op"),
                    raw.ReadFile(filename=path, name="bytes")]
    g.case("RestoreSlice.float.within_slice", lambda: slices("100 3 75,10:1,2"))
    g.case("RestoreSlice.float.whole_slice", lambda: slices("100 3 70,20:-"))
    g.case("RestoreSlice.float.not_covered", lambda: slices("100 3 60,20:-"), error=True)
    g.case("RestoreSlice.float.wrong_shape", lambda: slices("50 3 0,10:-"), error=True)

    def sharded():
        # Two shards, each one half of a [4, 2] tensor; Restore reads both through a pattern.
        outs = []
        for shard, spec in ((0, b"4 2 0,2:-"), (1, b"4 2 2,2:-")):
            path = prefix_placeholder(g, f"${{TMP}}/sh-0000{shard}-of-00002", name=f"p{shard}")
            outs.append(raw.SaveSlices(filename=path, tensor_names=g.const([b"v"], "string"),
                                       shapes_and_slices=g.const([spec], "string"),
                                       data=[g.rand("int64", [2, 2])], name=f"save{shard}"))
        pattern = prefix_placeholder(g, "${TMP}/sh-?????-of-00002", name="pattern")
        with tf.control_dependencies(outs):
            return [raw.Restore(file_pattern=pattern, tensor_name=g.const(b"v", "string"),
                                dt="int64", name="op"),
                    raw.RestoreSlice(file_pattern=pattern, tensor_name=g.const(b"v", "string"),
                                     shape_and_slice=g.const(b"4 2 1,2:1,1", "string"),
                                     dt="int64", name="op2")]
    g.case("Restore.int64.sharded", sharded)

    # Keys with escaped bytes and multi-byte numbers: a name holding 0x00, a start past 64
    # and one past 2^13.
    def keys():
        path = prefix_placeholder(g, "${TMP}/k")
        s = raw.SaveSlices(filename=path, tensor_names=g.const([b"a\x00b\xc3\xa9\x01", b"big"], "string"),
                           shapes_and_slices=g.const([b"", b"20000 1 9000,2:-"], "string"),
                           data=[g.rand("int32", [2]), g.rand("int32", [2, 1])], name="save")
        with tf.control_dependencies([s]):
            return [raw.ReadFile(filename=path, name="op"),
                    raw.RestoreSlice(file_pattern=path, tensor_name=g.const(b"big", "string"),
                                     shape_and_slice=g.const(b"20000 1 9001,1:-", "string"),
                                     dt="int32", name="op2")]
    g.case("SaveSlices.int32.key_encoding", keys)

    def restore_error(name, dt, pattern="${TMP}/e"):
        path = prefix_placeholder(g, "${TMP}/e")
        s = raw.Save(filename=path, tensor_names=g.const([b"x"], "string"),
                     data=[g.rand("float32", [2])], name="save")
        with tf.control_dependencies([s]):
            return raw.Restore(file_pattern=prefix_placeholder(g, pattern, name="pattern"),
                               tensor_name=g.const(name, "string"), dt=dt, name="op")
    g.case("Restore.float.missing_tensor", lambda: restore_error(b"nope", "float32"), error=True)
    g.case("Restore.int32.wrong_dtype", lambda: restore_error(b"x", "int32"), error=True)
    g.case("Restore.float.no_file", lambda: restore_error(b"x", "float32", "${TMP}/none*"),
           error=True)
    def not_a_checkpoint():
        path = prefix_placeholder(g, g.file("junk", b"not a table, not a checkpoint at all....."
                                                    b"................................"))
        return raw.Restore(file_pattern=path, tensor_name=g.const(b"x", "string"), dt="float32",
                           name="op")
    g.case("Restore.float.not_a_checkpoint", not_a_checkpoint, error=True)
    g.case("Save.float.names_mismatch",
           lambda: after(raw.Save(filename=prefix_placeholder(g, "${TMP}/m"),
                                  tensor_names=hide_rank(g.const([b"x", b"y"], "string")),
                                  data=[g.rand("float32", [2])], name="op")), error=True)
    g.case("SaveSlices.float.slice_shape_mismatch",
           lambda: after(raw.SaveSlices(filename=prefix_placeholder(g, "${TMP}/m"),
                                        tensor_names=g.const([b"x"], "string"),
                                        shapes_and_slices=g.const([b"10 2 0,3:-"], "string"),
                                        data=[g.rand("float32", [2, 2])], name="op")),
           error=True)
    g.case("ReadFile.string.missing", lambda: raw.ReadFile(
        filename=prefix_placeholder(g, "${TMP}/absent"), name="op"), error=True)

@group
def dynamic_stitch(g):
    I = "int32"
    for dt in tf_types("DynamicPartition"):
        # Partition 3 is empty.
        g.case(f"DynamicPartition.{sgname(dt)}.rows",
               lambda: raw.DynamicPartition(data=g.rand(dt, [5, 2]),
                                            partitions=g.const([1, 0, 2, 1, 1], I),
                                            num_partitions=4, name="op"))
        if not is_main(dt):
            continue
        for sname, dshape, parts, n in [
                ("matrix_partitions", [2, 3, 2], [[0, 1, 0], [1, 1, 0]], 2),
                ("same_shape", [2, 3], [[0, 1, 2], [2, 1, 0]], 3),
                ("scalar", [], 1, 2),
                ("empty", [0, 3], np.zeros([0]), 2),
                ("one", [4], [0, 0, 0, 0], 1),
                ("vec", [67], None, 5)]:
            g.case(f"DynamicPartition.{sgname(dt)}.{sname}",
                   lambda: raw.DynamicPartition(data=g.rand(dt, dshape),
                                                partitions=g.const(
                                                    g.rng.integers(0, n, dshape)
                                                    if parts is None else parts, I),
                                                num_partitions=n, name="op"))
    for sname, dshape, parts, n in [("out_of_range", [3], [0, 2, 1], 2),
                                    ("negative", [3], [0, -1, 1], 2),
                                    ("shape_mismatch", [3, 2], [0, 1], 2),
                                    ("partitions_longer", [2], [[0, 1]], 2)]:
        g.case(f"DynamicPartition.float.{sname}",
               lambda: raw.DynamicPartition(data=hide_rank(g.rand("float32", dshape)),
                                            partitions=hide_rank(g.const(parts, I)),
                                            num_partitions=n, name="op"), error=True)

    for op in ("DynamicStitch", "ParallelDynamicStitch"):
        for dt in tf_types(op):
            g.case(f"{op}.{sgname(dt)}.basic",
                   lambda: op_fn(op)(indices=[g.const([0, 2], I), g.const([[1], [3]], I)],
                                     data=[g.rand(dt, [2, 2]), g.rand(dt, [2, 1, 2])],
                                     name="op"))
            if not is_main(dt):
                continue
            cases = [("gap", [[0, 4]], [[2, 3]]),
                     ("scalars", [1, 0], [[], []]),
                     ("empty", [np.zeros([0])], [[0, 2]]),
                     ("three", [[4, 0], [2], [[1, 3]]], [[2], [1], [1, 2]]),
                     ("matrix_indices", [[[0, 1], [2, 3]]], [[2, 2, 3]])]
            if op == "DynamicStitch":  # ParallelDynamicStitch leaves duplicates' order open
                cases.append(("duplicates", [[0, 1, 2], [1, 0]], [[3], [2]]))
            for sname, idx, shapes in cases:
                g.case(f"{op}.{sgname(dt)}.{sname}",
                       lambda: op_fn(op)(indices=[g.const(i, I) for i in idx],
                                         data=[g.rand(dt, s) for s in shapes], name="op"))
        for sname, idx, shapes in [("negative", [[0, -1]], [[2]]),
                                   ("data_not_prefixed", [[0, 1]], [[3, 2]]),
                                   ("element_mismatch", [[0], [1]], [[1, 2], [1, 3]])]:
            g.case(f"{op}.float.{sname}",
                   lambda: op_fn(op)(indices=[hide_rank(g.const(i, I)) for i in idx],
                                     data=[hide_rank(g.rand("float32", s)) for s in shapes],
                                     name="op"), error=True)


def table_kv(g, kdt, vdt, keys, values, shared_name="t", op="HashTableV2"):
    h = op_fn(op)(key_dtype=kdt, value_dtype=vdt, shared_name=shared_name, name="table")
    return h, raw.InitializeTableV2(table_handle=h, keys=g.const(keys, kdt),
                                    values=g.const(values, vdt), name="init")


def after(op, g):
    """A tensor that runs `op` first: a case fetches at least one tensor."""
    with tf.control_dependencies([op]):
        return raw.Identity(input=g.const(1, "int32"), name="out")


def find_and_size(g, h, deps, keys, default, kdt, vdt):
    with tf.control_dependencies(deps):
        return [raw.LookupTableFindV2(table_handle=h, keys=g.const(keys, kdt),
                                      default_value=g.const(default, vdt), name="op"),
                raw.LookupTableSizeV2(table_handle=h, name="size")]


KV = {"int32": [3, -1, 7, 1000], "int64": [3, -(2 ** 40), 7, 2 ** 50],
      "string": [b"the", b"", b"\xc3\xa9t\xc3\xa9", b"model"]}
VV = {"bool": [True, False, True, True], "int32": [1, -2, 3, 2 ** 31 - 1],
      "int64": [10, -(2 ** 60), 0, 5], "float32": [0.5, -1.25, 3.0, 1e30],
      "float64": [0.1, -2.5, 1e-300, 7.0], "string": [b"a", b"", b"long value", b"\xff"]}


@group
def lookup(g):
    for kdt, keys in KV.items():
        for vdt, vals in VV.items():
            default = vals[1] if vdt != "bool" else False
            def build(kdt=kdt, keys=keys, vdt=vdt, vals=vals, default=default):
                h, i = table_kv(g, kdt, vdt, keys[:3], vals[:3])
                return find_and_size(g, h, [i], [[keys[0], keys[3]], [keys[2], keys[1]]],
                                     default, kdt, vdt)
            g.case(f"LookupTableFindV2.{sgname(vdt)}.{kdt}_keys", build)
            def mutable(kdt=kdt, keys=keys, vdt=vdt, vals=vals, default=default):
                h = raw.MutableHashTableV2(key_dtype=kdt, value_dtype=vdt, shared_name="m",
                                           name="table")
                ins = raw.LookupTableInsertV2(table_handle=h, keys=g.const(keys[:3], kdt),
                                              values=g.const(vals[:3], vdt), name="insert")
                with tf.control_dependencies([ins]):
                    ins2 = raw.LookupTableInsertV2(table_handle=h, keys=g.const(keys[2:], kdt),
                                                   values=g.const(vals[:2], vdt), name="insert2")
                with tf.control_dependencies([ins2]):
                    rm = raw.LookupTableRemoveV2(table_handle=h, keys=g.const(keys[1:2], kdt),
                                                 name="remove")
                return find_and_size(g, h, [rm], keys, default, kdt, vdt)
            g.case(f"LookupTableInsertV2.{sgname(vdt)}.{kdt}_keys", mutable)
    S, I64 = "string", "int64"
    k3, v3 = [b"a", b"b", b"c"], [1, 2, 3]
    def per_key_default():
        h, i = table_kv(g, S, I64, k3, v3)
        return find_and_size(g, h, [i], [b"a", b"z", b"c", b"y"], [7, 8, 9, 10], S, I64)
    g.case("LookupTableFindV2.int64.per_key_default", per_key_default)
    def mutable_per_key_default():
        h = raw.MutableHashTableV2(key_dtype=S, value_dtype=I64, shared_name="m", name="table")
        ins = raw.LookupTableInsertV2(table_handle=h, keys=g.const(k3, S),
                                      values=g.const(v3, I64), name="insert")
        return find_and_size(g, h, [ins], [b"a", b"z", b"c", b"y"], [7, 8, 9, 10], S, I64)
    g.case("LookupTableFindV2.int64.mutable_per_key_default", mutable_per_key_default)
    def bad_default():
        h, i = table_kv(g, S, I64, k3, v3)
        return find_and_size(g, h, [i], [b"a", b"z"], [7, 8, 9], S, I64)
    g.case("LookupTableFindV2.int64.bad_default", bad_default, error=True)
    def wrong_key_dtype():
        h, i = table_kv(g, S, I64, k3, v3)
        return find_and_size(g, h, [i], [1, 2], -1, "int32", I64)
    g.case("LookupTableFindV2.int64.wrong_key_dtype", wrong_key_dtype, error=True)
    def uninitialized():
        h = raw.HashTableV2(key_dtype=S, value_dtype=I64, shared_name="t", name="table")
        return find_and_size(g, h, [], [b"a"], -1, S, I64)
    g.case("LookupTableFindV2.int64.uninitialized", uninitialized, error=True)
    def size_uninitialized():
        h = raw.HashTableV2(key_dtype=S, value_dtype=I64, shared_name="t", name="table")
        return raw.LookupTableSizeV2(table_handle=h, name="op")
    g.case("LookupTableSizeV2.none.uninitialized", size_uninitialized)
    def init_twice(keys, vals):
        h, i = table_kv(g, S, I64, k3, v3)
        with tf.control_dependencies([i]):
            i2 = raw.InitializeTableV2(table_handle=h, keys=g.const(keys, S),
                                       values=g.const(vals, I64), name="init2")
        return find_and_size(g, h, [i2], k3, -1, S, I64)
    g.case("InitializeTableV2.int64.twice_same_size", lambda: init_twice([b"x", b"y", b"z"],
                                                                         [7, 8, 9]))
    g.case("InitializeTableV2.int64.twice_other_size", lambda: init_twice([b"x"], [7]),
           error=True)
    def duplicates(vals):
        h, i = table_kv(g, S, I64, [b"a", b"b", b"a"], vals)
        return find_and_size(g, h, [i], [b"a"], -1, S, I64)
    g.case("InitializeTableV2.int64.duplicate_same_value", lambda: duplicates([1, 2, 1]))
    g.case("InitializeTableV2.int64.duplicate_other_value", lambda: duplicates([1, 2, 3]),
           error=True)
    def init_matrix():
        h = raw.HashTableV2(key_dtype=S, value_dtype=I64, shared_name="t", name="table")
        i = raw.InitializeTableV2(table_handle=h, keys=unknown_shape(g.const([k3], S)),
                                  values=unknown_shape(g.const([v3], I64)), name="init")
        return find_and_size(g, h, [i], [b"a"], -1, S, I64)
    g.case("InitializeTableV2.int64.keys_matrix", init_matrix, error=True)
    def init_lengths():
        h = raw.HashTableV2(key_dtype=S, value_dtype=I64, shared_name="t", name="table")
        i = raw.InitializeTableV2(table_handle=h, keys=unknown_shape(g.const(k3, S)),
                                  values=unknown_shape(g.const([1], I64)), name="init")
        return find_and_size(g, h, [i], [b"a"], -1, S, I64)
    g.case("InitializeTableV2.int64.lengths_differ", init_lengths, error=True)
    def private_tables():
        h = raw.HashTableV2(key_dtype=S, value_dtype=I64, name="table")
        h2 = raw.HashTableV2(key_dtype=S, value_dtype=I64, name="table2")
        i = raw.InitializeTableV2(table_handle=h, keys=g.const(k3, S), values=g.const(v3, I64),
                                  name="init")
        with tf.control_dependencies([i]):
            return [raw.LookupTableSizeV2(table_handle=h, name="op"),
                    raw.LookupTableSizeV2(table_handle=h2, name="size2")]
    g.case("HashTableV2.none.private_tables", private_tables)
    def conflict():
        h = raw.HashTableV2(key_dtype=S, value_dtype=I64, shared_name="s", name="op")
        h2 = raw.HashTableV2(key_dtype=S, value_dtype="int32", shared_name="s", name="table2")
        return [raw.LookupTableSizeV2(table_handle=h, name="size"),
                raw.LookupTableSizeV2(table_handle=h2, name="size2")]
    g.case("HashTableV2.none.conflicting_dtypes", conflict, error=True)
    def mutable_conflict():
        h = raw.MutableHashTableV2(key_dtype=S, value_dtype=I64, shared_name="s", name="op")
        h2 = raw.MutableHashTableV2(key_dtype=S, value_dtype=S, shared_name="s", name="table2")
        return [raw.LookupTableSizeV2(table_handle=h, name="size"),
                raw.LookupTableSizeV2(table_handle=h2, name="size2")]
    g.case("MutableHashTableV2.none.conflicting_dtypes", mutable_conflict, error=True)
    def insert_static():
        h, i = table_kv(g, S, I64, k3, v3)
        with tf.control_dependencies([i]):
            return after(raw.LookupTableInsertV2(table_handle=h, keys=g.const([b"q"], S),
                                                 values=g.const([5], I64), name="op"), g)
    g.case("LookupTableInsertV2.int64.static_table", insert_static, error=True)
    def remove_static():
        h, i = table_kv(g, S, I64, k3, v3)
        with tf.control_dependencies([i]):
            return after(raw.LookupTableRemoveV2(table_handle=h, keys=g.const([b"a"], S),
                                                 name="op"), g)
    g.case("LookupTableRemoveV2.int64.static_table", remove_static, error=True)
    def insert_shapes():
        h = raw.MutableHashTableV2(key_dtype=S, value_dtype=I64, shared_name="m", name="table")
        ins = raw.LookupTableInsertV2(table_handle=h, keys=g.const([[b"a", b"b"]], S),
                                      values=g.const([[1, 2]], I64), name="op")
        return find_and_size(g, h, [ins], [b"a", b"b"], -1, S, I64)
    g.case("LookupTableInsertV2.int64.matrix", insert_shapes)
    def insert_mismatch():
        h = raw.MutableHashTableV2(key_dtype=S, value_dtype=I64, shared_name="m", name="table")
        return after(raw.LookupTableInsertV2(table_handle=h, keys=g.const([b"a", b"b"], S),
                                             values=g.const([1], I64), name="op"), g)
    g.case("LookupTableInsertV2.int64.shape_mismatch", insert_mismatch, error=True)
    for op in ("HashTableV2", "MutableHashTableV2"):
        def import_export(op=op):
            h = op_fn(op)(key_dtype=S, value_dtype=I64, shared_name="t", name="table")
            deps = []
            if op == "MutableHashTableV2":
                deps = [raw.LookupTableInsertV2(table_handle=h, keys=g.const([b"old"], S),
                                                values=g.const([9], I64), name="insert")]
            with tf.control_dependencies(deps):
                imp = raw.LookupTableImportV2(table_handle=h, keys=g.const(k3, S),
                                              values=g.const(v3, I64), name="op")
            with tf.control_dependencies([imp]):
                keys, values = raw.LookupTableExportV2(table_handle=h, Tkeys=S, Tvalues=I64,
                                                       name="export")
            # TensorFlow exports in its hash order: compare what does not depend on it.
            found = raw.LookupTableFindV2(table_handle=h, keys=keys,
                                          default_value=g.const(-1, I64), name="find")
            return [raw.Size(input=keys, name="count"),
                    raw.Sum(input=values, axis=g.const([0], "int32"), name="sum"),
                    raw.All(input=raw.Equal(x=found, y=values), axis=g.const([0], "int32"),
                            name="same"),
                    find_and_size(g, h, [imp], [b"old", b"a", b"c"], -1, S, I64)]
        g.case(f"LookupTableImportV2.int64.{op}", import_export)
    g.case("LookupTableExportV2.int64.empty",
           lambda: list(raw.LookupTableExportV2(
               table_handle=raw.MutableHashTableV2(key_dtype=S, value_dtype=I64, name="table"),
               Tkeys=S, Tvalues=I64, name="op")))

    # Text files.
    vocab = b"the\t10\tx\nmodel\t 20\r\nruns\t3.5\tz\nb\t-4\tw\n"
    def text(kdt, vdt, ki, vi, contents=vocab, query=None, default=None, **kw):
        path = g.file("vocab.txt", contents)
        h = raw.HashTableV2(key_dtype=kdt, value_dtype=vdt, shared_name="t", name="table")
        i = raw.InitializeTableFromTextFileV2(
            table_handle=h, filename=tf.compat.v1.placeholder_with_default(path.encode(), []),
            key_index=ki, value_index=vi, name="op", **kw)
        g.feed(i.inputs[1], path.encode())
        return find_and_size(g, h, [i], query, default, kdt, vdt)
    lines = [b"the\t10\tx", b"model\t 20", b"runs\t3.5\tz", b"b\t-4\tw", b"zz"]
    tcases = [
        ("whole_line_to_line_number", S, I64, -2, -1, {}),
        ("whole_line_offset", S, I64, -2, -1, {"offset": 5}),
        ("vocab_size", S, I64, -2, -1, {"vocab_size": 2}),
        ("column_to_line_number", S, I64, 0, -1, {}),
        ("column_to_string", S, S, 0, 2, {"vocab_size": 1}),
        ("line_number_to_whole_line", I64, S, -1, -2, {"offset": -1}),
        ("column_to_int64", S, I64, 0, 1, {"vocab_size": 2}),
        ("column_to_int32", S, "int32", 0, 1, {"vocab_size": 2}),
        ("column_to_float", S, "float32", 0, 1, {}),
        ("column_to_double", S, "float64", 0, 1, {}),
        ("int64_key_column", I64, S, 1, 0, {"vocab_size": 2}),
        ("space_delimiter", S, S, 0, 1, {"delimiter": " ", "contents": b"the a\nmodel  b\n"}),
    ]
    for sname, kdt, vdt, ki, vi, kw in tcases:
        query = {S: [b"the", b"model", b"runs", b"zz", b"the\t10\tx", b"model\t 20",
                     b"b\t-4\tw"], I64: [-1, 0, 1, 2, 3, 10, 20]}[kdt]
        default = {S: b"?", I64: -1, "int32": -1, "float32": -1.0, "float64": -1.0}[vdt]
        g.case(f"InitializeTableFromTextFileV2.{sgname(vdt)}.{sname}",
               lambda: text(kdt, vdt, ki, vi, query=query, default=default, **kw))
    q = [b"the"]
    terr = [
        ("vocab_size_too_big", S, I64, -2, -1, vocab, {"vocab_size": 9}),
        ("empty_line", S, I64, -2, -1, b"a\n\nb\n", {}),
        ("missing_columns", S, S, 0, 2, vocab, {}),
        ("not_an_int", I64, S, 0, 1, vocab, {}),
        ("not_a_float", S, "float32", 2, 0, vocab, {"vocab_size": 1}),
        ("line_number_int32_key", "int32", S, -1, 0, vocab, {}),
        ("line_number_int32_value", S, "int32", 0, -1, vocab, {}),
        ("delimiter_two_chars", S, I64, 0, -1, vocab, {"delimiter": "ab"}),
        ("delimiter_empty", S, I64, -2, -1, vocab, {"delimiter": ""}),
        ("bool_values", S, "bool", 0, 1, vocab, {}),
    ]
    for sname, kdt, vdt, ki, vi, contents, kw in terr:
        query = [b"the"] if kdt == S else [0]
        default = {S: b"?", I64: -1, "int32": -1, "float32": -1.0, "bool": False}[vdt]
        g.case(f"InitializeTableFromTextFileV2.{sgname(vdt)}.{sname}",
               lambda: text(kdt, vdt, ki, vi, contents=contents, query=query, default=default,
                            **kw), error=True)
    def missing_file():
        h = raw.HashTableV2(key_dtype=S, value_dtype=I64, shared_name="t", name="table")
        path = b"${TMP}/no_such_vocab.txt"
        fname = tf.compat.v1.placeholder_with_default(path, [])
        g.feed(fname, path)
        i = raw.InitializeTableFromTextFileV2(table_handle=h, filename=fname, key_index=-2,
                                              value_index=-1, name="op")
        return find_and_size(g, h, [i], q, -1, S, I64)
    g.case("InitializeTableFromTextFileV2.int64.missing_file", missing_file, error=True)
    def empty_filename():
        h = raw.HashTableV2(key_dtype=S, value_dtype=I64, shared_name="t", name="table")
        i = raw.InitializeTableFromTextFileV2(table_handle=h, filename=g.const(b"", S),
                                              key_index=-2, value_index=-1, name="op")
        return find_and_size(g, h, [i], q, -1, S, I64)
    g.case("InitializeTableFromTextFileV2.int64.empty_filename", empty_filename, error=True)
    def text_twice():
        path = g.file("vocab.txt", vocab)
        other = g.file("other.txt", b"a\nb\n")
        h = raw.HashTableV2(key_dtype=S, value_dtype=I64, shared_name="t", name="table")
        f1 = tf.compat.v1.placeholder_with_default(path.encode(), [])
        f2 = tf.compat.v1.placeholder_with_default(other.encode(), [])
        g.feed(f1, path.encode())
        g.feed(f2, other.encode())
        i = raw.InitializeTableFromTextFileV2(table_handle=h, filename=f2, key_index=-2,
                                              value_index=-1, name="init")
        with tf.control_dependencies([i]):
            i2 = raw.InitializeTableFromTextFileV2(table_handle=h, filename=f1, key_index=-2,
                                                   value_index=-1, name="op")
        return find_and_size(g, h, [i2], [b"a", b"b", lines[0]], -1, S, I64)
    g.case("InitializeTableFromTextFileV2.int64.initialized_table_kept", text_twice)


@group
def tensor_array(g):
    for dt in UNIVERSE:
        def write_gather():
            h, flow = raw.TensorArrayV3(size=g.const(3, "int32"), dtype=dt,
                                        element_shape=[2], name="ta")
            for i in range(3):
                flow = raw.TensorArrayWriteV3(handle=h, index=g.const(i, "int32"),
                                              value=g.rand(dt, [2]), flow_in=flow,
                                              name=f"write{i}")
            return [raw.TensorArrayGatherV3(handle=h, indices=g.const([2, 0], "int32"),
                                            flow_in=flow, dtype=dt, element_shape=[2],
                                            name="op"),
                    raw.TensorArrayReadV3(handle=h, index=g.const(1, "int32"), flow_in=flow,
                                          dtype=dt, name="read"),
                    raw.TensorArraySizeV3(handle=h, flow_in=flow, name="size")]
        g.case(f"TensorArrayGatherV3.{sgname(dt)}.writes", write_gather)
        def scatter_concat():
            h, flow = raw.TensorArrayV3(size=g.const(3, "int32"), dtype=dt, name="ta")
            flow = raw.TensorArrayScatterV3(handle=h, indices=g.const([2, 0, 1], "int32"),
                                            value=g.rand(dt, [3, 2]), flow_in=flow,
                                            name="scatter")
            value, lengths = raw.TensorArrayConcatV3(handle=h, flow_in=flow, dtype=dt,
                                                     name="op")
            return [value, lengths]
        g.case(f"TensorArrayScatterV3.{sgname(dt)}.concat", scatter_concat)
        def split_read():
            h, flow = raw.TensorArrayV3(size=g.const(3, "int32"), dtype=dt, name="ta")
            flow = raw.TensorArraySplitV3(handle=h, value=g.rand(dt, [5, 2]),
                                          lengths=g.const([2, 0, 3], "int64"), flow_in=flow,
                                          name="op")
            reads = [raw.TensorArrayReadV3(handle=h, index=g.const(i, "int32"), flow_in=flow,
                                           dtype=dt, name=f"read{i}") for i in range(3)]
            with tf.control_dependencies(reads):
                close = raw.TensorArrayCloseV3(handle=h, name="close")
            return reads + [close]
        g.case(f"TensorArraySplitV3.{sgname(dt)}.read_close", split_read)
    def dynamic():
        h, flow = raw.TensorArrayV3(size=g.const(0, "int32"), dtype="float32",
                                    dynamic_size=True, name="ta")
        for i in (0, 3):
            flow = raw.TensorArrayWriteV3(handle=h, index=g.const(i, "int32"),
                                          value=g.rand("float32", [2]), flow_in=flow,
                                          name=f"write{i}")
        return [raw.TensorArraySizeV3(handle=h, flow_in=flow, name="op"),
                raw.TensorArrayGatherV3(handle=h, indices=g.const([3, 0], "int32"),
                                        flow_in=flow, dtype="float32", name="gather")]
    g.case("TensorArraySizeV3.float.dynamic_size", dynamic)
    def read_twice():
        h, flow = raw.TensorArrayV3(size=g.const(1, "int32"), dtype="float32",
                                    clear_after_read=True, name="ta")
        flow = raw.TensorArrayWriteV3(handle=h, index=g.const(0, "int32"),
                                      value=g.rand("float32", [2]), flow_in=flow, name="write")
        r1 = raw.TensorArrayReadV3(handle=h, index=g.const(0, "int32"), flow_in=flow,
                                   dtype="float32", name="read1")
        with tf.control_dependencies([r1]):
            return raw.TensorArrayReadV3(handle=h, index=g.const(0, "int32"), flow_in=flow,
                                         dtype="float32", name="op")
    g.case("TensorArrayReadV3.float.read_cleared", read_twice, error=True)
    def out_of_range():
        h, flow = raw.TensorArrayV3(size=g.const(2, "int32"), dtype="float32", name="ta")
        return raw.TensorArrayWriteV3(handle=h, index=g.const(2, "int32"),
                                      value=g.rand("float32", [2]), flow_in=flow, name="op")
    g.case("TensorArrayWriteV3.float.out_of_range", out_of_range, error=True)
    def in_loop():
        ta = tf.TensorArray(tf.float32, size=4)
        def body(i, ta):
            return raw.AddV2(x=i, y=g.const(1, "int32")), ta.write(i, raw.Cast(
                x=raw.Mul(x=i, y=i), DstT="float32"))
        _, ta = tf.compat.v1.while_loop(lambda i, ta: raw.Less(x=i, y=g.const(4, "int32")),
                                        body, [g.const(0, "int32"), ta], name="loop")
        return ta.stack(name="op")
    g.case("TensorArrayWriteV3.float.while_loop", in_loop)


def older_tensor_arrays(suffix, pack=False):
    """An `edit` that turns a case's V3 TensorArray graph into the V2 ops (suffix "V2") or the
    first ones (""): TensorArray has no flow output there, so its consumers read a Const 0.
    pack=True also turns node `op` (a gather or scatter of every index) into TensorArrayPack or
    TensorArrayUnpack, dropping its indices input."""
    def edit(gdef, name):
        flows = {}
        for n in gdef.node:
            if not n.name.startswith(name + "/"):
                continue
            if n.op == "TensorArrayV3":
                n.op = "TensorArray" + suffix
                del n.attr["identical_element_shapes"]
                flows[n.name + ":1"] = n.name + "_flow"
            elif n.op.startswith("TensorArray") and n.op.endswith("V3"):
                n.op = n.op[:-2] + suffix
            if pack and n.name == name + "/op":
                n.op = {"TensorArrayGather": "TensorArrayPack",
                        "TensorArrayScatter": "TensorArrayUnpack"}[n.op]
                del n.input[1]
        for n in gdef.node:
            for i, inp in enumerate(n.input):
                if inp in flows:
                    n.input[i] = flows[inp]
        for flow in flows.values():
            make_const_node(gdef.node.add(name=flow), np.float32(0), tf.float32)
    return edit


@group
def tensor_array_old(g):
    # The V2 and first TensorArray ops, which TensorFlow 2.21 no longer builds (they are
    # deprecated): each case runs the V3 ops and is stored with the older ones (see
    # older_tensor_arrays); their kernels are the same.
    for suffix in ("V2", ""):
        edit = older_tensor_arrays(suffix)
        for dt in UNIVERSE:
            def write_gather():
                h, flow = raw.TensorArrayV3(size=g.const(3, "int32"), dtype=dt,
                                            element_shape=[2], name="ta")
                for i in range(3):
                    flow = raw.TensorArrayWriteV3(handle=h, index=g.const(i, "int32"),
                                                  value=g.rand(dt, [2]), flow_in=flow,
                                                  name=f"write{i}")
                return [raw.TensorArrayGatherV3(handle=h, indices=g.const([2, 0], "int32"),
                                                flow_in=flow, dtype=dt, element_shape=[2],
                                                name="op"),
                        raw.TensorArrayReadV3(handle=h, index=g.const(1, "int32"), flow_in=flow,
                                              dtype=dt, name="read"),
                        raw.TensorArraySizeV3(handle=h, flow_in=flow, name="size")]
            g.case(f"TensorArrayGather{suffix}.{sgname(dt)}.writes", write_gather, edit=edit)
            def scatter_concat():
                h, flow = raw.TensorArrayV3(size=g.const(3, "int32"), dtype=dt, name="ta")
                flow = raw.TensorArrayScatterV3(handle=h, indices=g.const([2, 0, 1], "int32"),
                                                value=g.rand(dt, [3, 2]), flow_in=flow,
                                                name="scatter")
                value, lengths = raw.TensorArrayConcatV3(handle=h, flow_in=flow, dtype=dt,
                                                         name="op")
                return [value, lengths]
            g.case(f"TensorArrayScatter{suffix}.{sgname(dt)}.concat", scatter_concat, edit=edit)
            def split_read():
                h, flow = raw.TensorArrayV3(size=g.const(3, "int32"), dtype=dt, name="ta")
                flow = raw.TensorArraySplitV3(handle=h, value=g.rand(dt, [5, 2]),
                                              lengths=g.const([2, 0, 3], "int64"), flow_in=flow,
                                              name="op")
                reads = [raw.TensorArrayReadV3(handle=h, index=g.const(i, "int32"),
                                               flow_in=flow, dtype=dt, name=f"read{i}")
                         for i in range(3)]
                with tf.control_dependencies(reads):
                    close = raw.TensorArrayCloseV3(handle=h, name="close")
                return reads + [close]
            g.case(f"TensorArraySplit{suffix}.{sgname(dt)}.read_close", split_read, edit=edit)
        def dynamic():
            h, flow = raw.TensorArrayV3(size=g.const(0, "int32"), dtype="float32",
                                        dynamic_size=True, name="ta")
            for i in (0, 3):
                flow = raw.TensorArrayWriteV3(handle=h, index=g.const(i, "int32"),
                                              value=g.rand("float32", [2]), flow_in=flow,
                                              name=f"write{i}")
            return [raw.TensorArraySizeV3(handle=h, flow_in=flow, name="op"),
                    raw.TensorArrayGatherV3(handle=h, indices=g.const([3, 0], "int32"),
                                            flow_in=flow, dtype="float32", name="gather")]
        g.case(f"TensorArraySize{suffix}.float.dynamic_size", dynamic, edit=edit)
        def read_twice():
            h, flow = raw.TensorArrayV3(size=g.const(1, "int32"), dtype="float32",
                                        clear_after_read=True, name="ta")
            flow = raw.TensorArrayWriteV3(handle=h, index=g.const(0, "int32"),
                                          value=g.rand("float32", [2]), flow_in=flow,
                                          name="write")
            r1 = raw.TensorArrayReadV3(handle=h, index=g.const(0, "int32"), flow_in=flow,
                                       dtype="float32", name="read1")
            with tf.control_dependencies([r1]):
                return raw.TensorArrayReadV3(handle=h, index=g.const(0, "int32"), flow_in=flow,
                                             dtype="float32", name="op")
        g.case(f"TensorArrayRead{suffix}.float.read_cleared", read_twice, error=True, edit=edit)
        def out_of_range():
            h, flow = raw.TensorArrayV3(size=g.const(2, "int32"), dtype="float32", name="ta")
            return raw.TensorArrayWriteV3(handle=h, index=g.const(2, "int32"),
                                          value=g.rand("float32", [2]), flow_in=flow, name="op")
        g.case(f"TensorArrayWrite{suffix}.float.out_of_range", out_of_range, error=True,
               edit=edit)
        def negative_size():
            h, flow = raw.TensorArrayV3(size=hide_shape(g.const([-1], "int32"))[0],
                                        dtype="float32", name="op")
            return raw.TensorArraySizeV3(handle=h, flow_in=flow, name="size")
        g.case(f"TensorArray{suffix}.float.negative_size", negative_size, error=True, edit=edit)
    # TensorArrayUnpack and TensorArrayPack: a scatter and a gather of every index.
    pack_edit = older_tensor_arrays("", pack=True)
    for dt in UNIVERSE:
        def unpack_read():
            h, flow = raw.TensorArrayV3(size=g.const(3, "int32"), dtype=dt, name="ta")
            flow = raw.TensorArrayScatterV3(handle=h, indices=g.const([0, 1, 2], "int32"),
                                            value=g.rand(dt, [3, 2]), flow_in=flow, name="op")
            return [raw.TensorArrayReadV3(handle=h, index=g.const(i, "int32"), flow_in=flow,
                                          dtype=dt, name=f"read{i}") for i in (2, 0)]
        g.case(f"TensorArrayUnpack.{sgname(dt)}.read", unpack_read, edit=pack_edit)
        def write_pack():
            h, flow = raw.TensorArrayV3(size=g.const(2, "int32"), dtype=dt, name="ta")
            for i in range(2):
                flow = raw.TensorArrayWriteV3(handle=h, index=g.const(i, "int32"),
                                              value=g.rand(dt, [3]), flow_in=flow,
                                              name=f"write{i}")
            return raw.TensorArrayGatherV3(handle=h, indices=g.const([0, 1], "int32"),
                                           flow_in=flow, dtype=dt, name="op")
        g.case(f"TensorArrayPack.{sgname(dt)}.writes", write_pack, edit=pack_edit)
    def pack_empty():
        h, flow = raw.TensorArrayV3(size=g.const(0, "int32"), dtype="float32", name="ta")
        return raw.TensorArrayGatherV3(handle=h, indices=g.const(np.zeros([0], np.int32)),
                                       flow_in=flow, dtype="float32", element_shape=[2, 3],
                                       name="op")
    g.case("TensorArrayPack.float.empty", pack_empty, edit=pack_edit)
    def unpack_too_many():
        h, flow = raw.TensorArrayV3(size=g.const(2, "int32"), dtype="float32", name="ta")
        return raw.TensorArrayScatterV3(handle=h, indices=g.const([0, 1, 2], "int32"),
                                        value=g.rand("float32", [3, 2]), flow_in=flow,
                                        name="op")
    g.case("TensorArrayUnpack.float.too_many", unpack_too_many, error=True, edit=pack_edit)


@group
def queues(g):
    # FIFOQueue and PaddingFIFOQueue: each case runs enqueues, dequeues and closes in one step,
    # ordered by control dependencies so that nothing waits (a step that would wait forever is
    # not a case; tests/core/queue_test.cc covers waiting across steps and closing sessions).
    def after(op):
        """A tensor computed after `op`, an op without outputs (every case fetches something)."""
        with tf.control_dependencies([op]):
            return raw.Identity(input=g.const(0, "int32"), name="after")
    def seq(*ops):
        """Runs the thunks in order, each after the previous one's ops; returns their results."""
        out, deps = [], []
        for op in ops:
            with tf.control_dependencies(deps):
                r = op()
            out.append(r)
            deps = r if isinstance(r, list) else [r]
        return out
    def sequence(dt, ref=False):
        # EnqueueMany 3, Enqueue 1, Dequeue 1, DequeueMany 2, Close, DequeueUpTo 5 (gets 1),
        # then size and is_closed.
        if ref:
            q = raw.FIFOQueue(component_types=[dt, "int32"], shapes=[[2], []], name="q")
            v = "QueueEnqueueMany QueueEnqueue QueueDequeue QueueDequeueMany QueueClose " \
                "QueueDequeueUpTo QueueSize QueueIsClosed".split()
        else:
            q = raw.FIFOQueueV2(component_types=[dt, "int32"], shapes=[[2], []], name="q")
            v = "QueueEnqueueManyV2 QueueEnqueueV2 QueueDequeueV2 QueueDequeueManyV2 " \
                "QueueCloseV2 QueueDequeueUpToV2 QueueSizeV2 QueueIsClosedV2".split()
        types = [dt, "int32"]
        e1, e2, d1, d2, c, d3 = seq(
            lambda: op_fn(v[0])(handle=q, components=[g.rand(dt, [3, 2]),
                                                     g.const([1, 2, 3], "int32")],
                                name="enqueue_many"),
            lambda: op_fn(v[1])(handle=q, components=[g.rand(dt, [2]), g.const(4, "int32")],
                                name="enqueue"),
            lambda: op_fn(v[2])(handle=q, component_types=types, name="dequeue"),
            lambda: op_fn(v[3])(handle=q, n=g.const(2, "int32"), component_types=types,
                                name="dequeue_many"),
            lambda: op_fn(v[4])(handle=q, name="close"),
            lambda: op_fn(v[5])(handle=q, n=g.const(5, "int32"), component_types=types,
                                name="dequeue_up_to"))
        with tf.control_dependencies(d3):
            return d1 + d2 + d3 + [op_fn(v[6])(handle=q, name="size"),
                                   op_fn(v[7])(handle=q, name="is_closed")]
    for dt in UNIVERSE:
        g.case(f"QueueEnqueueManyV2.{sgname(dt)}.sequence", lambda: sequence(dt))
        def padded(dt=dt):
            q = raw.PaddingFIFOQueueV2(component_types=[dt], shapes=[[None, 2]], name="q")
            _, _, d = seq(
                lambda: raw.QueueEnqueueV2(handle=q, components=[g.rand(dt, [1, 2])],
                                           name="enqueue1"),
                lambda: raw.QueueEnqueueV2(handle=q, components=[g.rand(dt, [3, 2])],
                                           name="enqueue2"),
                lambda: raw.QueueDequeueManyV2(handle=q, n=g.const(2, "int32"),
                                               component_types=[dt], name="op"))
            return d
        g.case(f"PaddingFIFOQueueV2.{sgname(dt)}.pad", padded)
    for dt in ("float32", "string"):
        g.case(f"QueueEnqueueMany.{sgname(dt)}.sequence", lambda: sequence(dt, ref=True))
    def padded_ref():
        q = raw.PaddingFIFOQueue(component_types=["int32", "string"], shapes=[[None], [2, None]],
                                 name="q")
        _, _, d, s = seq(
            lambda: raw.QueueEnqueue(handle=q, components=[g.const([1, 2, 3], "int32"),
                                                           g.const([[b"a"], [b"b"]], "string")],
                                     name="enqueue1"),
            lambda: raw.QueueEnqueue(handle=q, components=[g.const([4], "int32"),
                                                           g.const([[b"c", b"d"], [b"e", b"f"]],
                                                                   "string")],
                                     name="enqueue2"),
            lambda: raw.QueueDequeueMany(handle=q, n=g.const(2, "int32"),
                                         component_types=["int32", "string"], name="op"),
            lambda: raw.QueueSize(handle=q, name="size"))
        return d + [s]
    g.case("PaddingFIFOQueue.int32.pad", padded_ref)
    def padded_zero():
        q = raw.PaddingFIFOQueueV2(component_types=["float32"], shapes=[[None, 2]], name="q")
        return raw.QueueDequeueManyV2(handle=q, n=g.const(0, "int32"),
                                      component_types=["float32"], name="op")
    g.case("PaddingFIFOQueueV2.float.dequeue_zero", padded_zero)
    def fake():
        q = raw.FIFOQueueV2(component_types=["float32"], name="q")
        r = raw.FakeQueue(resource=q, name="op")
        _, d, s, c = seq(
            lambda: raw.QueueEnqueue(handle=r, components=[g.rand("float32", [2, 3])],
                                     name="enqueue"),
            lambda: raw.QueueDequeue(handle=r, component_types=["float32"], name="dequeue"),
            lambda: raw.QueueSize(handle=r, name="size"),
            lambda: raw.QueueIsClosed(handle=r, name="is_closed"))
        return d + [s, c]
    g.case("FakeQueue.float.ref_ops", fake)
    def above_capacity():
        # DequeueMany of more than the capacity, beside an EnqueueMany that must wait for room:
        # both finish whichever runs first.
        q = raw.FIFOQueueV2(component_types=["int32"], shapes=[[]], capacity=2, name="q")
        e = raw.QueueEnqueueManyV2(handle=q, components=[g.const([5, 6, 7, 8], "int32")],
                                   name="enqueue")
        d = raw.QueueDequeueManyV2(handle=q, n=g.const(4, "int32"), component_types=["int32"],
                                   name="op")
        return d + [e]
    g.case("QueueDequeueManyV2.int32.above_capacity", above_capacity)
    def dequeue_zero():
        q = raw.FIFOQueueV2(component_types=["int32", "bool"], shapes=[[3], [0, 2]], name="q")
        return raw.QueueDequeueManyV2(handle=q, n=g.const(0, "int32"),
                                      component_types=["int32", "bool"], name="op")
    g.case("QueueDequeueManyV2.int32.zero", dequeue_zero)
    def empty_enqueue_many_closed():
        q = raw.FIFOQueueV2(component_types=["int32"], shapes=[[]], name="q")
        _, _, s = seq(lambda: raw.QueueCloseV2(handle=q, name="close"),
                      lambda: raw.QueueEnqueueManyV2(handle=q, components=[
                          g.const(np.zeros([0], np.int32))], name="op"),
                      lambda: raw.QueueSizeV2(handle=q, name="size"))
        return s
    g.case("QueueEnqueueManyV2.int32.empty_on_closed", empty_enqueue_many_closed)
    def cancel_close():
        q = raw.FIFOQueueV2(component_types=["int32"], name="q")
        _, _, d, c = seq(
            lambda: raw.QueueEnqueueV2(handle=q, components=[g.const(3, "int32")], name="enq"),
            lambda: raw.QueueCloseV2(handle=q, cancel_pending_enqueues=True, name="op"),
            lambda: raw.QueueDequeueV2(handle=q, component_types=["int32"], name="dequeue"),
            lambda: raw.QueueIsClosedV2(handle=q, name="is_closed"))
        return d + [c]
    g.case("QueueCloseV2.int32.cancel_pending_enqueues", cancel_close)

    # Errors.
    def closed_then(op, many=None, up_to=False):
        q = raw.FIFOQueueV2(component_types=["float32"], shapes=[[]], name="q")
        e = raw.QueueEnqueueManyV2(handle=q, components=[g.const([1.0, 2.0], "float32")],
                                   name="enqueue")
        with tf.control_dependencies([e]):
            c = raw.QueueCloseV2(handle=q, name="close")
        with tf.control_dependencies([c]):
            return op(q)
    g.case("QueueDequeueManyV2.float.closed_too_few",
           lambda: closed_then(lambda q: raw.QueueDequeueManyV2(
               handle=q, n=g.const(3, "int32"), component_types=["float32"], name="op")),
           error=True)
    def closed_empty(op):
        q = raw.FIFOQueueV2(component_types=["float32"], shapes=[[]], name="q")
        c = raw.QueueCloseV2(handle=q, name="close")
        with tf.control_dependencies([c]):
            return op(q)
    g.case("QueueDequeueV2.float.closed_empty",
           lambda: closed_empty(lambda q: raw.QueueDequeueV2(
               handle=q, component_types=["float32"], name="op")), error=True)
    g.case("QueueDequeueUpToV2.float.closed_empty",
           lambda: closed_empty(lambda q: raw.QueueDequeueUpToV2(
               handle=q, n=g.const(2, "int32"), component_types=["float32"], name="op")),
           error=True)
    g.case("QueueEnqueueV2.float.closed",
           lambda: closed_empty(lambda q: after(raw.QueueEnqueueV2(
               handle=q, components=[g.const(1.0, "float32")], name="op"))), error=True)
    g.case("QueueCloseV2.float.twice",
           lambda: closed_empty(lambda q: after(raw.QueueCloseV2(handle=q, name="op"))),
           error=True)
    def close_twice_cancelling(q):
        c = raw.QueueCloseV2(handle=q, cancel_pending_enqueues=True, name="op")
        with tf.control_dependencies([c]):
            return raw.QueueIsClosedV2(handle=q, name="is_closed")
    g.case("QueueCloseV2.float.twice_cancelling", lambda: closed_empty(close_twice_cancelling))
    def unshaped_many():
        q = raw.FIFOQueueV2(component_types=["float32"], name="q")
        e = raw.QueueEnqueueV2(handle=q, components=[g.const(1.0, "float32")], name="enqueue")
        with tf.control_dependencies([e]):
            return raw.QueueDequeueManyV2(handle=q, n=g.const(1, "int32"),
                                          component_types=["float32"], name="op")
    g.case("QueueDequeueManyV2.float.no_shapes", unshaped_many, error=True)
    def timeout(op):
        q = raw.FIFOQueueV2(component_types=["float32"], name="q")
        if op == "enqueue":
            return after(raw.QueueEnqueueV2(handle=q, components=[g.const(1.0, "float32")],
                                            timeout_ms=100, name="op"))
        return raw.QueueDequeueV2(handle=q, component_types=["float32"], timeout_ms=100,
                                  name="op")
    g.case("QueueEnqueueV2.float.timeout", lambda: timeout("enqueue"), error=True)
    g.case("QueueDequeueV2.float.timeout", lambda: timeout("dequeue"), error=True)
    def enqueue_bad(types, shapes, components, many=False):
        q = raw.FIFOQueueV2(component_types=types, shapes=shapes, name="q")
        fn = raw.QueueEnqueueManyV2 if many else raw.QueueEnqueueV2
        return after(fn(handle=q, components=[hide_rank(c) for c in components], name="op"))
    g.case("QueueEnqueueV2.int32.wrong_dtype",
           lambda: enqueue_bad(["float32"], [], [g.const(1, "int32")]), error=True)
    g.case("QueueEnqueueV2.float.wrong_count",
           lambda: enqueue_bad(["float32", "float32"], [], [g.const(1.0, "float32")]),
           error=True)
    g.case("QueueEnqueueV2.float.wrong_shape",
           lambda: enqueue_bad(["float32"], [[2]], [g.const([1.0, 2.0, 3.0], "float32")]),
           error=True)
    g.case("QueueEnqueueManyV2.float.wrong_shape",
           lambda: enqueue_bad(["float32"], [[2]], [g.const([[1.0, 2.0, 3.0]], "float32")],
                               many=True), error=True)
    g.case("QueueEnqueueManyV2.int32.unequal_sizes",
           lambda: enqueue_bad(["int32", "int32"], [[], []], [g.const([1, 2], "int32"),
                                                              g.const([1, 2, 3], "int32")],
                               many=True), error=True)
    def dequeue_wrong_dtype():
        q = raw.FIFOQueueV2(component_types=["float32"], name="q")
        e = raw.QueueEnqueueV2(handle=q, components=[g.const(1.0, "float32")], name="enqueue")
        with tf.control_dependencies([e]):
            return raw.QueueDequeueV2(handle=q, component_types=["int32"], name="op")
    g.case("QueueDequeueV2.int32.wrong_dtype", dequeue_wrong_dtype, error=True)
    def negative_n():
        q = raw.FIFOQueueV2(component_types=["int32"], shapes=[[]], name="q")
        return raw.QueueDequeueManyV2(
            handle=q, n=hide_shape(g.const([-1], "int32"))[0], component_types=["int32"],
            name="op")
    g.case("QueueDequeueManyV2.int32.negative_n", negative_n, error=True)
    def bad_queue(op, shapes):
        q = op_fn(op)(component_types=["float32"], shapes=shapes, name="op")
        return raw.QueueSizeV2(handle=q, name="size")
    g.case("PaddingFIFOQueueV2.float.no_shapes", lambda: bad_queue("PaddingFIFOQueueV2", []),
           error=True)
    g.case("PaddingFIFOQueueV2.float.unknown_rank",
           lambda: bad_queue("PaddingFIFOQueueV2", [tf.TensorShape(None)]), error=True)
    g.case("FIFOQueueV2.float.partial_shape", lambda: bad_queue("FIFOQueueV2", [[None]]),
           error=True)
    g.case("FIFOQueueV2.float.too_many_shapes",
           lambda: bad_queue("FIFOQueueV2", [[1], [2]]), error=True)
    def shared(capacity):
        q1 = raw.FIFOQueueV2(component_types=["float32"], capacity=3, shared_name="s",
                             name="q1")
        q2 = raw.FIFOQueueV2(component_types=["float32"], capacity=capacity, shared_name="s",
                             name="q2")
        e = raw.QueueEnqueueV2(handle=q1, components=[g.const(2.5, "float32")], name="enqueue")
        with tf.control_dependencies([e]):
            return raw.QueueDequeueV2(handle=q2, component_types=["float32"], name="op")
    g.case("FIFOQueueV2.float.shared_name", lambda: shared(3))
    g.case("FIFOQueueV2.float.shared_name_mismatch", lambda: shared(4), error=True)


@group
def stacks(g):
    # Per-step stacks, pushed and popped in one step in the order control dependencies give.
    def push_pop(dt, ref):
        if ref:
            h = raw.Stack(elem_type=dt, stack_name="s", name="stack")
            push, pop, close = raw.StackPush, raw.StackPop, raw.StackClose
        else:
            h = raw.StackV2(max_size=g.const(-1, "int32"), elem_type=dt, stack_name="s",
                            name="stack")
            push, pop, close = raw.StackPushV2, raw.StackPopV2, raw.StackCloseV2
        p1 = push(handle=h, elem=g.rand(dt, [2]), name="push1")
        with tf.control_dependencies([p1]):
            p2 = push(handle=h, elem=g.rand(dt, [3, 1]), name="op")
        with tf.control_dependencies([p2]):
            a = pop(handle=h, elem_type=dt, name="pop1")
        with tf.control_dependencies([a]):
            b = pop(handle=h, elem_type=dt, name="pop2")
        with tf.control_dependencies([b]):
            c = close(handle=h, name="close")
        return [p1, p2, a, b, c]
    for dt in UNIVERSE:
        g.case(f"StackPushV2.{sgname(dt)}.push_pop", lambda: push_pop(dt, False))
    for dt in ("float32", "int32", "string"):
        g.case(f"StackPush.{sgname(dt)}.push_pop", lambda: push_pop(dt, True))
    def bounded(max_size, pushes):
        h = raw.StackV2(max_size=g.const(max_size, "int32"), elem_type="float32",
                        name="stack")
        deps, out = [], []
        for i in range(pushes):
            with tf.control_dependencies(deps):
                p = raw.StackPushV2(handle=h, elem=g.const(float(i), "float32"),
                                    name="op" if i == pushes - 1 else f"push{i}")
            deps = [p]
            out.append(p)
        return out
    g.case("StackV2.float.at_max_size", lambda: bounded(2, 2))
    g.case("StackV2.float.negative_max_size", lambda: bounded(-5, 3))
    g.case("StackPushV2.float.overflow", lambda: bounded(1, 2), error=True)
    def empty_pop():
        h = raw.StackV2(max_size=g.const(-1, "int32"), elem_type="float32", name="stack")
        return raw.StackPopV2(handle=h, elem_type="float32", name="op")
    g.case("StackPopV2.float.empty", empty_pop, error=True)
    def pop_ref_empty():
        h = raw.Stack(elem_type="int32", name="stack")
        return raw.StackPop(handle=h, elem_type="int32", name="op")
    g.case("StackPop.int32.empty", pop_ref_empty, error=True)
    def wrong_push():
        h = raw.StackV2(max_size=g.const(-1, "int32"), elem_type="float32", name="stack")
        return raw.StackPushV2(handle=h, elem=g.const(1, "int32"), name="op")
    g.case("StackPushV2.int32.wrong_dtype", wrong_push, error=True)
    def wrong_pop():
        h = raw.StackV2(max_size=g.const(-1, "int32"), elem_type="float32", name="stack")
        p = raw.StackPushV2(handle=h, elem=g.const(1.0, "float32"), name="push")
        with tf.control_dependencies([p]):
            return raw.StackPopV2(handle=h, elem_type="int32", name="op")
    g.case("StackPopV2.int32.wrong_dtype", wrong_pop, error=True)
    def closed(op):
        h = raw.StackV2(max_size=g.const(-1, "int32"), elem_type="float32", name="stack")
        c = raw.StackCloseV2(handle=h, name="close")
        with tf.control_dependencies([c]):
            if op == "push":
                return raw.StackPushV2(handle=h, elem=g.const(1.0, "float32"), name="op")
            if op == "pop":
                return raw.StackPopV2(handle=h, elem_type="float32", name="op")
            c2 = raw.StackCloseV2(handle=h, name="op")
        with tf.control_dependencies([c2]):
            return raw.Identity(input=g.const(1, "int32"), name="after")
    g.case("StackPushV2.float.closed", lambda: closed("push"), error=True)
    g.case("StackPopV2.float.closed", lambda: closed("pop"), error=True)
    g.case("StackCloseV2.float.twice", lambda: closed("close"))
    def max_size_vector():
        h = raw.StackV2(max_size=hide_rank(g.const([1], "int32")), elem_type="float32",
                        name="op")
        return raw.StackPushV2(handle=h, elem=g.const(1.0, "float32"), name="push")
    g.case("StackV2.float.max_size_vector", max_size_vector, error=True)
    def in_loop():
        # A stack per step, pushed in a while loop and popped after it (as the v1 gradients).
        h = raw.StackV2(max_size=g.const(-1, "int32"), elem_type="int32", name="stack")
        def body(i):
            p = raw.StackPushV2(handle=h, elem=raw.Mul(x=i, y=i), name="push")
            with tf.control_dependencies([p]):
                return raw.AddV2(x=i, y=g.const(1, "int32"))
        n = tf.compat.v1.while_loop(lambda i: raw.Less(x=i, y=g.const(4, "int32")), body,
                                    [g.const(0, "int32")], name="loop")
        with tf.control_dependencies([n]):
            a = raw.StackPopV2(handle=h, elem_type="int32", name="op")
        with tf.control_dependencies([a]):
            b = raw.StackPopV2(handle=h, elem_type="int32", name="pop2")
        return [a, b]
    g.case("StackPopV2.int32.after_loop", in_loop)


@group
def session_tensors(g):
    # One run each: the handle's text, and the errors of a run that reads back or deletes a
    # handle the session does not hold (a run's own handles are kept only once it succeeds;
    # tests/core/session_tensor_test.cc reads one back in a later run).
    for dt in UNIVERSE:
        # Through an Identity: TensorFlow's Session.run turns a fetched handle into an object.
        g.case(f"GetSessionHandle.{sgname(dt)}.handle",
               lambda: raw.Identity(input=raw.GetSessionHandle(value=g.rand(dt, [2, 3]),
                                                               name="op"), name="text"))
    def v2():
        h = raw.GetSessionHandleV2(value=g.rand("float32", [2]), name="op")
        with tf.control_dependencies([h]):
            return raw.Identity(input=g.const(1, "int32"), name="after")
    g.case("GetSessionHandleV2.float.made", v2)
    def same_run():
        h = raw.GetSessionHandle(value=g.rand("float32", [2]), name="handle")
        return raw.GetSessionTensor(handle=h, dtype="float32", name="op")
    g.case("GetSessionTensor.float.same_run", same_run, error=True)
    g.case("GetSessionTensor.float.unknown_handle",
           lambda: raw.GetSessionTensor(handle=g.const(b"abc", "string"), dtype="float32",
                                        name="op"), error=True)
    def delete_unknown():
        d = raw.DeleteSessionTensor(handle=g.const(b"abc", "string"), name="op")
        with tf.control_dependencies([d]):
            return raw.Identity(input=g.const(1, "int32"), name="after")
    g.case("DeleteSessionTensor.string.unknown_handle", delete_unknown, error=True)


def concrete(fn, *specs):
    """`fn` traced (no autograph) for `specs`, its FunctionDef added to the case's graph."""
    cf = tf.function(fn, autograph=False).get_concrete_function(*specs)
    cf.add_to_graph(tf.compat.v1.get_default_graph())
    return cf


@group
def functional(g):
    f32 = tf.TensorSpec([2], tf.float32)
    i32 = tf.TensorSpec([], tf.int32)
    for op in ("While", "StatelessWhile"):
        def loop(limit, op=op):
            cond = concrete(lambda i, x: raw.Less(x=i, y=tf.constant(limit)), i32, f32)
            body = concrete(lambda i, x: (raw.AddV2(x=i, y=tf.constant(1)),
                                          raw.Mul(x=x, y=tf.constant(2.0))), i32, f32)
            return list(op_fn(op)(input=[g.const(0, "int32"), g.rand("float32", [2])],
                                  cond=cond, body=body, name="op"))
        g.case(f"{op}.float.three_iterations", lambda: loop(3))
        g.case(f"{op}.float.zero_iterations", lambda: loop(0))
        def strings(op=op):
            s = tf.TensorSpec([], tf.string)
            cond = concrete(lambda i, t: raw.Less(x=i, y=tf.constant(2)), i32, s)
            body = concrete(lambda i, t: (raw.AddV2(x=i, y=tf.constant(1)),
                                          raw.StringJoin(inputs=[t, t], separator="+")), i32, s)
            return list(op_fn(op)(input=[g.const(0, "int32"), g.const(b"ab", "string")],
                                  cond=cond, body=body, name="op"))
        g.case(f"{op}.string.doubling", strings)
    for op in ("If", "StatelessIf"):
        def branch(pred, op=op):
            then_f = concrete(lambda x, y: raw.AddV2(x=x, y=y), f32, f32)
            else_f = concrete(lambda x, y: raw.Sub(x=x, y=y), f32, f32)
            return list(op_fn(op)(cond=pred, input=[g.rand("float32", [2]),
                                                    g.rand("float32", [2])],
                                  Tout=["float32"], then_branch=then_f, else_branch=else_f,
                                  name="op"))
        g.case(f"{op}.bool.true", lambda: branch(g.const(True)))
        g.case(f"{op}.bool.false", lambda: branch(g.const(False)))
        # A condition of another dtype is converted as ToBool does.
        g.case(f"{op}.int32.zero", lambda: branch(g.const(0, "int32")))
        g.case(f"{op}.float.nonempty", lambda: branch(g.const([0.0, 0.0], "float32")))
        g.case(f"{op}.string.empty", lambda: branch(g.const(b"", "string")))
    for op in ("Case", "StatelessCase"):
        def switch(index, op=op):
            branches = [concrete(lambda x, k=k: raw.Mul(x=x, y=tf.constant(float(k + 1))), f32)
                        for k in range(3)]
            return list(op_fn(op)(branch_index=g.const(index, "int32"),
                                  input=[g.rand("float32", [2])], Tout=["float32"],
                                  branches=branches, name="op"))
        for index in (0, 2, 5, -1):
            g.case(f"{op}.int32.index{index}".replace("-", "neg"), lambda: switch(index))
    for dt in ("float32", "int32", "string", "bool"):
        for index, n in ((1, 3), (0, 2), (7, 3), (-2, 2)):
            def switch_n():
                graph = tf.compat.v1.get_default_graph()
                op = graph.create_op(
                    "_SwitchN", [g.rand(dt, [2]), g.const(index, "int32")], [tf.as_dtype(dt)] * n,
                    attrs={"T": attr_value_pb2.AttrValue(type=tf.as_dtype(dt).as_datatype_enum),
                           "num_outs": attr_value_pb2.AttrValue(i=n)}, name="op")
                live = index if 0 <= index < n else n - 1  # out of range: the last output
                return op.outputs[live]
            g.case(f"SwitchN.{sgname(dt)}.index{index}_of{n}".replace("-", "neg"), switch_n)
    for sname, value, dt in [("zero", 0.0, "float32"), ("nonzero", -2.5, "float32"),
                             ("int", 3, "int32"), ("int_zero", 0, "int64"),
                             ("empty_string", b"", "string"), ("string", b"x", "string"),
                             ("false", False, "bool"), ("vector", [0, 0], "int32"),
                             ("empty_vector", np.zeros([0], np.float32), "float32")]:
        g.case(f"ToBool.{sgname(dt)}.{sname}",
               lambda: raw.ToBool(input=g.const(value, dt), name="op"))
    def disable_copy_on_read():
        h = raw.VarHandleOp(dtype="float32", shape=[3], shared_name="v", name="v")
        a = raw.AssignVariableOp(resource=h, value=g.rand("float32", [3]), name="assign")
        with tf.control_dependencies([a]):
            d = raw.DisableCopyOnRead(resource=h, name="op")
        with tf.control_dependencies([d]):
            return raw.ReadVariableOp(resource=h, dtype="float32", name="read")
    g.case("DisableCopyOnRead.float.read", disable_copy_on_read)


LIST_DTYPES = ["float32", "float64", "float16", "int32", "int64", "int8", "uint8", "bool",
               "string", "complex64"]


@group
def tensor_list(g):
    def shape_of(s):
        return g.const(s, "int32") if s is not None else g.const(-1, "int32")
    for dt in LIST_DTYPES:
        def from_tensor():
            x = g.rand(dt, [3, 2])
            h = raw.TensorListFromTensor(tensor=x, element_shape=shape_of([2]), name="op")
            return [raw.TensorListStack(input_handle=h, element_shape=shape_of([2]),
                                        element_dtype=dt, name="stack"),
                    raw.TensorListGetItem(input_handle=h, index=g.const(1, "int32"),
                                          element_shape=shape_of([2]), element_dtype=dt,
                                          name="get"),
                    raw.TensorListGather(input_handle=h, indices=g.const([2, 0], "int32"),
                                         element_shape=shape_of([2]), element_dtype=dt,
                                         name="gather"),
                    raw.TensorListLength(input_handle=h, name="length")]
        g.case(f"TensorListFromTensor.{sgname(dt)}.read", from_tensor)
        def push_pop():
            h = raw.EmptyTensorList(element_shape=shape_of([2]),
                                    max_num_elements=g.const(-1, "int32"), element_dtype=dt,
                                    name="op")
            for i in range(3):
                h = raw.TensorListPushBack(input_handle=h, tensor=g.rand(dt, [2]),
                                           name=f"push{i}")
            h2, last = raw.TensorListPopBack(input_handle=h, element_shape=shape_of([2]),
                                             element_dtype=dt, name="pop")
            return [last, raw.TensorListStack(input_handle=h2, element_shape=shape_of([2]),
                                              element_dtype=dt, name="stack")]
        g.case(f"EmptyTensorList.{sgname(dt)}.push_pop", push_pop)
        def reserve_set():
            h = raw.TensorListReserve(element_shape=shape_of([2]),
                                      num_elements=g.const(3, "int32"), element_dtype=dt,
                                      name="op")
            h = raw.TensorListSetItem(input_handle=h, index=g.const(2, "int32"),
                                      item=g.rand(dt, [2]), name="set2")
            h = raw.TensorListSetItem(input_handle=h, index=g.const(0, "int32"),
                                      item=g.rand(dt, [2]), name="set0")
            h = raw.TensorListSetItem(input_handle=h, index=g.const(1, "int32"),
                                      item=g.rand(dt, [2]), name="set1")
            return raw.TensorListStack(input_handle=h, element_shape=shape_of([2]),
                                       element_dtype=dt, name="stack")
        g.case(f"TensorListReserve.{sgname(dt)}.set_all", reserve_set)
        def scatter_concat():
            h = raw.TensorListScatter(tensor=g.rand(dt, [3, 2]), indices=g.const([2, 0, 1],
                                                                                  "int32"),
                                      element_shape=shape_of([2]), name="op")
            value, lengths = raw.TensorListConcat(input_handle=h, element_dtype=dt,
                                                  element_shape=[2], name="concat")
            return [value, lengths]
        g.case(f"TensorListScatter.{sgname(dt)}.concat", scatter_concat)
    def split_concat():
        h = raw.TensorListSplit(tensor=g.rand("float32", [5, 2]), element_shape=shape_of([-1, 2]),
                                lengths=g.const([2, 0, 3], "int64"), name="op")
        value, lengths = raw.TensorListConcatV2(
            input_handle=h, element_shape=shape_of([-1, 2]), leading_dims=g.const([], "int64"),
            element_dtype="float32", name="concat")
        return [value, lengths, raw.TensorListGetItem(
            input_handle=h, index=g.const(2, "int32"), element_shape=shape_of([-1, 2]),
            element_dtype="float32", name="get")]
    g.case("TensorListSplit.float.concat_v2", split_concat)
    def scatter_v2():
        h = raw.TensorListScatterV2(tensor=g.rand("int32", [2, 3]),
                                    indices=g.const([3, 1], "int32"),
                                    element_shape=shape_of([3]),
                                    num_elements=g.const(5, "int32"), name="op")
        return [raw.TensorListLength(input_handle=h, name="length"),
                raw.TensorListGetItem(input_handle=h, index=g.const(3, "int32"),
                                      element_shape=shape_of([3]), element_dtype="int32",
                                      name="get3"),
                # An element never set reads as zeros of the element shape.
                raw.TensorListGetItem(input_handle=h, index=g.const(0, "int32"),
                                      element_shape=shape_of([3]), element_dtype="int32",
                                      name="get0")]
    g.case("TensorListScatterV2.int32.sparse", scatter_v2)
    def scatter_existing():
        h = raw.TensorListFromTensor(tensor=g.rand("float32", [4, 2]),
                                     element_shape=shape_of([2]), name="list")
        h = raw.TensorListScatterIntoExistingList(input_handle=h, tensor=g.rand("float32",
                                                                                 [2, 2]),
                                                  indices=g.const([3, 0], "int32"), name="op")
        return raw.TensorListStack(input_handle=h, element_shape=shape_of([2]),
                                   element_dtype="float32", name="stack")
    g.case("TensorListScatterIntoExistingList.float.two", scatter_existing)
    def resize(size):
        h = raw.TensorListFromTensor(tensor=g.rand("float32", [3, 2]),
                                     element_shape=shape_of([2]), name="list")
        h = raw.TensorListResize(input_handle=h, size=g.const(size, "int32"), name="op")
        return [raw.TensorListLength(input_handle=h, name="length"),
                raw.TensorListStack(input_handle=h, element_shape=shape_of([2]),
                                    element_dtype="float32", name="stack")]
    g.case("TensorListResize.float.grow", lambda: resize(5))
    g.case("TensorListResize.float.shrink", lambda: resize(1))
    def element_shape(shape, st):
        h = raw.EmptyTensorList(element_shape=g.const(shape, "int32"),
                                max_num_elements=g.const(-1, "int32"), element_dtype="float32",
                                name="list")
        return raw.TensorListElementShape(input_handle=h, shape_type=st, name="op")
    g.case("TensorListElementShape.int32.known", lambda: element_shape([2, 3], "int32"))
    g.case("TensorListElementShape.int64.partial", lambda: element_shape([-1, 3], "int64"))
    g.case("TensorListElementShape.int32.unknown_rank", lambda: element_shape(-1, "int32"))
    def concat_lists():
        a = raw.TensorListFromTensor(tensor=g.rand("float32", [2, 2]),
                                     element_shape=shape_of([2]), name="a")
        b = raw.TensorListFromTensor(tensor=g.rand("float32", [1, 2]),
                                     element_shape=shape_of([2]), name="b")
        h = raw.TensorListConcatLists(input_a=a, input_b=b, element_dtype="float32", name="op")
        return raw.TensorListStack(input_handle=h, element_shape=shape_of([2]),
                                   element_dtype="float32", name="stack")
    g.case("TensorListConcatLists.float.two", concat_lists)
    def push_back_batch():
        lists = raw.Pack(values=[raw.TensorListFromTensor(tensor=g.rand("float32", [1, 2]),
                                                          element_shape=shape_of([2]),
                                                          name=f"list{i}") for i in range(3)],
                         name="lists")
        h = raw.TensorListPushBackBatch(input_handles=lists, tensor=g.rand("float32", [3, 2]),
                                        name="op")
        return [raw.TensorListStack(input_handle=l, element_shape=shape_of([2]),
                                    element_dtype="float32", name=f"stack{i}")
                for i, l in enumerate(raw.Unpack(value=h, num=3, name="unpack"))]
    g.case("TensorListPushBackBatch.float.three_lists", push_back_batch)
    def get_out_of_range():
        h = raw.TensorListFromTensor(tensor=g.rand("float32", [2, 2]),
                                     element_shape=shape_of([2]), name="list")
        return raw.TensorListGetItem(input_handle=h, index=g.const(2, "int32"),
                                     element_shape=shape_of([2]), element_dtype="float32",
                                     name="op")
    g.case("TensorListGetItem.float.out_of_range", get_out_of_range, error=True)
    def pop_empty():
        h = raw.EmptyTensorList(element_shape=shape_of([2]),
                                max_num_elements=g.const(-1, "int32"), element_dtype="float32",
                                name="list")
        return list(raw.TensorListPopBack(input_handle=h, element_shape=shape_of([2]),
                                          element_dtype="float32", name="op"))[1]
    g.case("TensorListPopBack.float.empty", pop_empty, error=True)
    def while_v2_list():
        h0 = raw.TensorListReserve(element_shape=shape_of([2]), num_elements=g.const(4, "int32"),
                                   element_dtype="float32", name="reserve")
        i32 = tf.TensorSpec([], tf.int32)
        v = tf.TensorSpec([], tf.variant)
        cond = concrete(lambda i, l: raw.Less(x=i, y=tf.constant(4)), i32, v)
        body = concrete(lambda i, l: (
            raw.AddV2(x=i, y=tf.constant(1)),
            raw.TensorListSetItem(input_handle=l, index=i,
                                  item=raw.Fill(dims=tf.constant([2]),
                                                value=raw.Cast(x=i, DstT="float32")))), i32, v)
        _, h = raw.While(input=[g.const(0, "int32"), h0], cond=cond, body=body, name="op")
        return raw.TensorListStack(input_handle=h, element_shape=shape_of([2]),
                                   element_dtype="float32", name="stack")
    g.case("While.float.tensor_list", while_v2_list)


@group
def array_layout(g):
    for op in ("SpaceToDepth", "DepthToSpace"):
        f = op_fn(op)
        base = [1, 4, 6, 3] if op == "SpaceToDepth" else [1, 2, 3, 8]
        for dt in tf_types(op):
            g.case(f"{op}.{sgname(dt)}.block2", lambda: f(input=g.rand(dt, base), block_size=2,
                                                          name="op"))
            if not is_main(dt):
                continue
            for sname, shape, bs in [("block3", [2, 3, 6, 2] if op == "SpaceToDepth"
                                      else [2, 1, 2, 18], 3),
                                     ("empty", [0, 2, 2, 4], 2),
                                     ("one", [1, 2, 2, 4], 2)]:
                g.case(f"{op}.{sgname(dt)}.{sname}",
                       lambda: f(input=g.rand(dt, shape), block_size=bs, name="op"))
            # TensorFlow's CPU kernels take NHWC only: NCHW finds no kernel.
            g.case(f"{op}.{sgname(dt)}.nchw",
                   lambda: f(input=g.rand(dt, [1, 8, 4, 4]), block_size=2, data_format="NCHW",
                             name="op"), error=True)
            g.case(f"{op}.{sgname(dt)}.not_divisible",
                   lambda: f(input=hide_shape(g.rand(dt, [1, 3, 3, 3])), block_size=2,
                             name="op"), error=True)
            g.case(f"{op}.{sgname(dt)}.rank3",
                   lambda: f(input=hide_rank(g.rand(dt, [4, 4, 4])), block_size=2, name="op"),
                   error=True)
    for dt in tf_types("SpaceToBatchND"):
        g.case(f"SpaceToBatchND.{sgname(dt)}.block2",
               lambda: raw.SpaceToBatchND(input=g.rand(dt, [2, 4, 4, 1]),
                                          block_shape=g.const([2, 2], "int32"),
                                          paddings=g.const([[0, 0], [0, 0]], "int32"),
                                          name="op"))
        g.case(f"BatchToSpaceND.{sgname(dt)}.block2",
               lambda: raw.BatchToSpaceND(input=g.rand(dt, [8, 2, 2, 1]),
                                          block_shape=g.const([2, 2], "int32"),
                                          crops=g.const([[0, 0], [0, 0]], "int32"), name="op"))
        g.case(f"SpaceToBatch.{sgname(dt)}.pad",
               lambda: raw.SpaceToBatch(input=g.rand(dt, [1, 3, 4, 2]),
                                        paddings=g.const([[1, 0], [0, 2]], "int32"),
                                        block_size=2, name="op"))
        g.case(f"BatchToSpace.{sgname(dt)}.crop",
               lambda: raw.BatchToSpace(input=g.rand(dt, [4, 2, 3, 2]),
                                        crops=g.const([[1, 0], [0, 2]], "int32"),
                                        block_size=2, name="op"))
        if not is_main(dt):
            continue
        # input shape, block_shape, paddings (crops), index types
        for sname, shape, block, pads, bt, pt in [
                ("pad", [1, 3, 5, 2], [2, 3], [[1, 0], [2, 2]], "int32", "int64"),
                ("one_dim", [2, 5, 3], [3], [[1, 0]], "int64", "int32"),
                ("three_dims", [1, 2, 4, 2, 2], [2, 2, 1], [[0, 0], [0, 2], [1, 1]], "int64",
                 "int64"),
                ("no_block", [2, 3], np.zeros([0], np.int32), np.zeros([0, 2], np.int32),
                 "int32", "int32"),
                ("empty", [0, 4, 2], [2], [[0, 0]], "int32", "int32"),
                ("block1", [2, 3, 2], [1, 1], [[1, 1], [0, 1]], "int32", "int32")]:
            g.case(f"SpaceToBatchND.{sgname(dt)}.{sname}",
                   lambda: raw.SpaceToBatchND(input=g.rand(dt, shape),
                                              block_shape=g.const(block, bt),
                                              paddings=g.const(pads, pt), name="op"))
        for sname, shape, block, crops, bt, ct in [
                ("crop", [6, 2, 2, 2], [2, 3], [[1, 0], [2, 2]], "int32", "int64"),
                ("one_dim", [6, 2, 3], [3], [[1, 2]], "int64", "int32"),
                ("three_dims", [8, 1, 3, 2, 2], [2, 2, 2], [[0, 0], [0, 2], [1, 1]], "int64",
                 "int64"),
                ("no_block", [2, 3], np.zeros([0], np.int32), np.zeros([0, 2], np.int32),
                 "int32", "int32"),
                ("empty", [0, 4, 2], [2], [[0, 0]], "int32", "int32"),
                ("crop_all", [4, 1, 2], [2, 2], [[2, 0], [1, 1]], "int32", "int32")]:
            g.case(f"BatchToSpaceND.{sgname(dt)}.{sname}",
                   lambda: raw.BatchToSpaceND(input=g.rand(dt, shape),
                                              block_shape=g.const(block, bt),
                                              crops=g.const(crops, ct), name="op"))
        g.case(f"SpaceToBatch.{sgname(dt)}.int64_block3",
               lambda: raw.SpaceToBatch(input=g.rand(dt, [2, 3, 6, 1]),
                                        paddings=g.const([[0, 0], [0, 0]], "int64"),
                                        block_size=3, name="op"))
        g.case(f"BatchToSpace.{sgname(dt)}.int64_block3",
               lambda: raw.BatchToSpace(input=g.rand(dt, [9, 1, 2, 1]),
                                        crops=g.const([[0, 1], [2, 0]], "int64"),
                                        block_size=3, name="op"))
        g.case(f"SpaceToBatchND.{sgname(dt)}.not_divisible",
               lambda: raw.SpaceToBatchND(input=hide_shape(g.rand(dt, [1, 3, 4])),
                                          block_shape=g.const([2], "int32"),
                                          paddings=hide_shape(g.const([[0, 0]], "int32")),
                                          name="op"), error=True)
        g.case(f"SpaceToBatchND.{sgname(dt)}.negative_pad",
               lambda: raw.SpaceToBatchND(input=hide_shape(g.rand(dt, [1, 4, 4])),
                                          block_shape=g.const([2], "int32"),
                                          paddings=hide_shape(g.const([[-2, 0]], "int32")),
                                          name="op"), error=True)
        def zero_block():
            block = tf.compat.v1.placeholder("int32", [1], name="block")
            g.feed(block, np.array([0], np.int32))  # a constant 0 fails in the shape function
            return raw.SpaceToBatchND(input=hide_shape(g.rand(dt, [1, 4, 4])), block_shape=block,
                                      paddings=hide_shape(g.const([[0, 0]], "int32")), name="op")
        g.case(f"SpaceToBatchND.{sgname(dt)}.zero_block", zero_block, error=True)
        g.case(f"SpaceToBatchND.{sgname(dt)}.rank_too_small",
               lambda: raw.SpaceToBatchND(input=hide_rank(g.rand(dt, [4, 4])),
                                          block_shape=g.const([2, 2], "int32"),
                                          paddings=g.const([[0, 0], [0, 0]], "int32"),
                                          name="op"), error=True)
        g.case(f"BatchToSpaceND.{sgname(dt)}.batch_not_divisible",
               lambda: raw.BatchToSpaceND(input=hide_shape(g.rand(dt, [3, 2, 2])),
                                          block_shape=g.const([2], "int32"),
                                          crops=hide_shape(g.const([[0, 0]], "int32")),
                                          name="op"), error=True)
        g.case(f"BatchToSpaceND.{sgname(dt)}.crop_too_big",
               lambda: raw.BatchToSpaceND(input=hide_shape(g.rand(dt, [2, 2, 2])),
                                          block_shape=g.const([2], "int32"),
                                          crops=hide_shape(g.const([[3, 2]], "int32")),
                                          name="op"), error=True)
        g.case(f"SpaceToBatchND.{sgname(dt)}.huge_padding",
               lambda: raw.SpaceToBatchND(input=hide_shape(g.rand(dt, [1, 4, 4])),
                                          block_shape=g.const([2], "int64"),
                                          paddings=hide_shape(g.const([[2**62, 0]], "int64")),
                                          name="op"), error=True)
        g.case(f"BatchToSpaceND.{sgname(dt)}.huge_block",
               lambda: raw.BatchToSpaceND(input=hide_shape(g.rand(dt, [2, 4, 4])),
                                          block_shape=g.const([2**40], "int64"),
                                          crops=hide_shape(g.const([[0, 0]], "int64")),
                                          name="op"), error=True)
        g.case(f"SpaceToBatch.{sgname(dt)}.rank3",
               lambda: raw.SpaceToBatch(input=hide_rank(g.rand(dt, [2, 2, 2])),
                                        paddings=g.const([[0, 0], [0, 0]], "int32"),
                                        block_size=2, name="op"), error=True)


def topk_v1(k):
    """Makes the stored TopKV2 node `op` a TopK with attr k: TensorFlow 2.21's CPU kernel of
    TopK asks for an index_type attr TopK does not have, so TensorFlow runs TopKV2 instead."""
    def edit(gdef, case):
        for n in gdef.node:
            if n.name == f"{case}/op":
                n.op = "TopK"
                del n.input[1]
                del n.attr["Tk"]
                del n.attr["index_type"]
                n.attr["k"].i = k
    return edit


@group
def array_topk(g):
    for dt in tf_types("TopKV2"):
        for kt in ("int32",) if not is_main(dt) else ("int32", "int64", "int16"):
            g.case(f"TopKV2.{sgname(dt)}.mat_k{kt}",
                   lambda: list(raw.TopKV2(input=g.rand(dt, [3, 7], lo=-3, hi=3),
                                           k=g.const(3, kt), name="op")))
        g.case(f"TopKV2.{sgname(dt)}.idx64",
               lambda: list(raw.TopKV2(input=g.rand(dt, [5], lo=-2, hi=2), k=g.const(5, "int32"),
                                       index_type="int64", name="op")))
        g.case(f"TopKV2.{sgname(dt)}.idx16",
               lambda: list(raw.TopKV2(input=g.rand(dt, [2, 4], lo=-2, hi=2),
                                       k=g.const(2, "int32"), index_type="int16", name="op")))
        g.case(f"TopK.{sgname(dt)}.mat",
               lambda: list(raw.TopKV2(input=g.rand(dt, [2, 6], lo=-3, hi=3),
                                       k=g.const(4, "int32"), name="op")), edit=topk_v1(4))
        s = special_values(dt)
        if is_float(dt):
            s = s[~np.isnan(s.astype(np.float64))]  # NaN has no place in TensorFlow's order
        g.case(f"TopKV2.{sgname(dt)}.special",
               lambda: list(raw.TopKV2(input=g.const(s, dt), k=g.const(len(s), "int32"),
                                       name="op")))
        if not is_main(dt):
            continue
        for sname, shape, k in [("k1", [4, 9], 1), ("k0", [2, 3], 0), ("all", [2, 3, 5], 5),
                                ("vec", [67], 10), ("empty_rows", [0, 4], 2),
                                ("ties", [2, 40], 7)]:
            lo, hi = (-1, 1) if sname in ("ties", "k1") else (-4, 4)
            g.case(f"TopKV2.{sgname(dt)}.{sname}",
                   lambda: list(raw.TopKV2(input=g.rand(dt, shape, lo=lo, hi=hi),
                                           k=g.const(k, "int32"), name="op")))
        g.case(f"TopK.{sgname(dt)}.ties",
               lambda: list(raw.TopKV2(input=g.rand(dt, [3, 20], lo=-1, hi=1),
                                       k=g.const(5, "int32"), name="op")), edit=topk_v1(5))
        # Unsorted: the order is the kernel's own; sorting the result again makes it comparable.
        def unsorted():
            x = g.const(np.arange(24).reshape(2, 12) % 7 * 3 - 5 + np.arange(24).reshape(2, 12)
                        / 64, dt) if is_float(dt) else g.const(
                            np.random.default_rng(1).permutation(24).reshape(2, 12), dt)
            v, i = raw.TopKV2(input=x, k=g.const(5, "int32"), sorted=False, name="op")
            sv, _ = raw.TopKV2(input=v, k=g.const(5, "int32"), name="resort_values")
            si, _ = raw.TopKV2(input=raw.Neg(x=i), k=g.const(5, "int32"), name="resort_indices")
            return [sv, si]
        g.case(f"TopKV2.{sgname(dt)}.unsorted", unsorted)
        g.case(f"TopKV2.{sgname(dt)}.k_too_big",
               lambda: raw.TopKV2(input=hide_shape(g.rand(dt, [2, 3])),
                                  k=hide_shape(g.const(4, "int32")), name="op"), error=True)
        g.case(f"TopKV2.{sgname(dt)}.negative_k",
               lambda: raw.TopKV2(input=hide_shape(g.rand(dt, [2, 3])),
                                  k=hide_shape(g.const(-1, "int32")), name="op"), error=True)
        g.case(f"TopKV2.{sgname(dt)}.scalar",
               lambda: raw.TopKV2(input=hide_rank(g.rand(dt, [])),
                                  k=hide_shape(g.const(0, "int32")), name="op"), error=True)
    preds = np.array([[0.5, 2.0, 2.0, -1.0, np.nan], [1.0, 1.0, 1.0, 1.0, 1.0],
                      [np.inf, 3.0, -np.inf, 0.0, 3.0], [0.0, -0.0, 0.25, 0.25, -3.0]])
    for dt in tf_types("InTopKV2"):
        for k in (0, 1, 2, 3, 5, 6):
            g.case(f"InTopKV2.{sgname(dt)}.k{k}",
                   lambda: raw.InTopKV2(predictions=g.const(preds, "float32"),
                                        targets=g.const([1, 3, 4, 0], dt), k=g.const(k, dt),
                                        name="op"))
            g.case(f"InTopK.{sgname(dt)}.k{k}",
                   lambda: raw.InTopK(predictions=g.const(preds, "float32"),
                                      targets=g.const([2, 0, 2, 1], dt), k=k, name="op"))
        g.case(f"InTopKV2.{sgname(dt)}.nan_and_out_of_range",
               lambda: raw.InTopKV2(predictions=g.const(preds, "float32"),
                                    targets=g.const([4, 5, -1, 3], dt), k=g.const(5, dt),
                                    name="op"))
        g.case(f"InTopKV2.{sgname(dt)}.random",
               lambda: raw.InTopKV2(predictions=g.rand("float32", [6, 10]),
                                    targets=g.const([0, 9, 3, 4, 5, 1], dt), k=g.const(3, dt),
                                    name="op"))
        g.case(f"InTopK.{sgname(dt)}.empty",
               lambda: raw.InTopK(predictions=g.rand("float32", [0, 3]),
                                  targets=g.const(np.zeros([0]), dt), k=1, name="op"))
        g.case(f"InTopKV2.{sgname(dt)}.batch_mismatch",
               lambda: raw.InTopKV2(predictions=hide_shape(g.rand("float32", [2, 3])),
                                    targets=hide_shape(g.const([0, 1, 2], dt)),
                                    k=g.const(1, dt), name="op"), error=True)
        g.case(f"InTopKV2.{sgname(dt)}.k_not_scalar",
               lambda: raw.InTopKV2(predictions=g.rand("float32", [2, 3]),
                                    targets=g.const([0, 1], dt),
                                    k=hide_rank(g.const([1], dt)), name="op"), error=True)
        g.case(f"InTopK.{sgname(dt)}.rank1",
               lambda: raw.InTopK(predictions=hide_rank(g.rand("float32", [3])),
                                  targets=g.const([0], dt), k=1, name="op"), error=True)


@group
def array_misc(g):
    for dt in tf_types("ReverseSequence"):
        for lt in ("int64", "int32") if is_main(dt) else ("int64",):
            g.case(f"ReverseSequence.{sgname(dt)}.seq1_{lt}",
                   lambda: raw.ReverseSequence(input=g.rand(dt, [3, 5, 2]),
                                               seq_lengths=g.const([5, 0, 3], lt), seq_dim=1,
                                               name="op"))
        if is_main(dt):
            for sname, shape, lens, sd, bd in [("batch_after", [4, 2, 3], [1, 4, 2], 0, 2),
                                               ("seq_last", [2, 3, 4], [2, 3, 1], 2, 1),
                                               ("vec2", [2, 6], [6, 1], 1, 0),
                                               ("empty", [0, 3], np.zeros([0]), 1, 0),
                                               ("rank4", [2, 2, 3, 2], [3, 2], 2, 0)]:
                g.case(f"ReverseSequence.{sgname(dt)}.{sname}",
                       lambda: raw.ReverseSequence(input=g.rand(dt, shape),
                                                   seq_lengths=g.const(lens, "int64"),
                                                   seq_dim=sd, batch_dim=bd, name="op"))
            g.case(f"ReverseSequence.{sgname(dt)}.too_long",
                   lambda: raw.ReverseSequence(input=g.rand(dt, [2, 3]),
                                               seq_lengths=g.const([4, 1], "int64"), seq_dim=1,
                                               name="op"), error=True)
            g.case(f"ReverseSequence.{sgname(dt)}.negative_length",
                   lambda: raw.ReverseSequence(input=g.rand(dt, [2, 3]),
                                               seq_lengths=g.const([-1, 1], "int32"), seq_dim=1,
                                               name="op"), error=True)
            g.case(f"ReverseSequence.{sgname(dt)}.same_dims",
                   lambda: raw.ReverseSequence(input=hide_rank(g.rand(dt, [2, 3])),
                                               seq_lengths=g.const([1, 1], "int32"), seq_dim=0,
                                               batch_dim=0, name="op"), error=True)
            g.case(f"ReverseSequence.{sgname(dt)}.lengths_mismatch",
                   lambda: raw.ReverseSequence(input=hide_shape(g.rand(dt, [2, 3])),
                                               seq_lengths=hide_shape(g.const([1, 1, 1],
                                                                              "int32")),
                                               seq_dim=1, name="op"), error=True)
    for dt in tf_types("Roll"):
        g.case(f"Roll.{sgname(dt)}.mat",
               lambda: raw.Roll(input=g.rand(dt, [3, 4]), shift=g.const([1, -3], "int32"),
                                axis=g.const([0, 1], "int32"), name="op"))
        if not is_main(dt):
            continue
        for sname, shape, shift, axis, st, at in [
                ("scalar_shift", [5], 2, 0, "int64", "int32"),
                ("big_shift", [2, 3, 4], [7, -10], [2, -3], "int32", "int64"),
                ("repeat_axis", [6], [2, 3], [0, 0], "int64", "int64"),
                ("zero", [3, 3], [0], [1], "int32", "int32"),
                ("empty", [0, 3], [1, 2], [0, 1], "int32", "int32"),
                ("rank4", [2, 3, 2, 3], [1, 1, -1], [0, 3, 1], "int32", "int32"),
                ("no_axes", [2, 3], np.zeros([0]), np.zeros([0]), "int32", "int32")]:
            g.case(f"Roll.{sgname(dt)}.{sname}",
                   lambda: raw.Roll(input=g.rand(dt, shape), shift=g.const(shift, st),
                                    axis=g.const(axis, at), name="op"))
        g.case(f"Roll.{sgname(dt)}.bad_axis",
               lambda: raw.Roll(input=g.rand(dt, [2, 3]), shift=g.const([1], "int32"),
                                axis=hide_shape(g.const([2], "int32")), name="op"), error=True)
        g.case(f"Roll.{sgname(dt)}.size_mismatch",
               lambda: raw.Roll(input=g.rand(dt, [2, 3]), shift=hide_shape(g.const([1, 1],
                                                                                  "int32")),
                                axis=hide_shape(g.const([0], "int32")), name="op"), error=True)
        g.case(f"Roll.{sgname(dt)}.scalar_input",
               lambda: raw.Roll(input=hide_rank(g.rand(dt, [])), shift=g.const(1, "int32"),
                                axis=g.const(0, "int32"), name="op"), error=True)
    for dt in tf_types("Bucketize"):
        g.case(f"Bucketize.{sgname(dt)}.mat",
               lambda: raw.Bucketize(input=g.rand(dt, [3, 4], lo=-5, hi=5),
                                     boundaries=[-3.0, -0.5, 0.0, 1.0, 2.5, 4.0], name="op"))
        g.case(f"Bucketize.{sgname(dt)}.no_boundaries",
               lambda: raw.Bucketize(input=g.rand(dt, [4]), boundaries=[], name="op"))
        g.case(f"Bucketize.{sgname(dt)}.on_boundaries",
               lambda: raw.Bucketize(input=g.const([-1, 0, 1, 2, 3], dt),
                                     boundaries=[0.0, 1.0, 1.0, 2.0], name="op"))
        g.case(f"Bucketize.{sgname(dt)}.special",
               lambda: raw.Bucketize(input=g.const(special_values(dt), dt),
                                     boundaries=[-10.0, -0.5, 0.0, 0.1, 0.5, 16777220.0],
                                     name="op"))
        g.case(f"Bucketize.{sgname(dt)}.float_rounding",
               lambda: raw.Bucketize(input=g.const([16777219, 16777221, 0], dt),
                                     boundaries=[0.1, 16777220.0], name="op"))
        g.case(f"Bucketize.{sgname(dt)}.unsorted",
               lambda: raw.Bucketize(input=g.const([1], dt), boundaries=[2.0, 1.0], name="op"),
               error=True)
    for dt in ("float32", "float64", "float16", "bfloat16"):
        for it in ("int32", "int64"):
            g.case(f"LinSpace.{sgname(dt)}.{it}",
                   lambda: raw.LinSpace(start=g.const(-1.5, dt), stop=g.const(2.25, dt),
                                        num=g.const(7, it), name="op"))
        for sname, a, b, n in [("one", 3.0, 5.0, 1), ("down", 10.0, -2.0, 5),
                               ("same", 1.0, 1.0, 3), ("many", 0.0, 1.0, 1001)]:
            g.case(f"LinSpace.{sgname(dt)}.{sname}",
                   lambda: raw.LinSpace(start=g.const(a, dt), stop=g.const(b, dt),
                                        num=g.const(n, "int32"), name="op"))
        g.case(f"LinSpace.{sgname(dt)}.zero_num",
               lambda: raw.LinSpace(start=g.const(1.0, dt), stop=g.const(2.0, dt),
                                    num=hide_shape(g.const(0, "int32")), name="op"), error=True)
    for dt in tf_types("BroadcastArgs"):
        for sname, a, b in [("bcast", [2, 1, 3], [4, 1]), ("zero", [2, 0, 3], [1, 3]),
                            ("empty", np.zeros([0]), [3, 2]), ("both_empty", np.zeros([0]),
                                                                 np.zeros([0])),
                            ("same", [5, 4], [5, 4]), ("ones", [1, 1], [1])]:
            g.case(f"BroadcastArgs.{sgname(dt)}.{sname}",
                   lambda: raw.BroadcastArgs(s0=g.const(a, dt), s1=g.const(b, dt), name="op"))
        g.case(f"BroadcastArgs.{sgname(dt)}.incompatible",
               lambda: raw.BroadcastArgs(s0=hide_shape(g.const([2, 3], dt)),
                                         s1=hide_shape(g.const([2], dt)), name="op"),
               error=True)
    for dt in tf_types("ConcatOffset", "shape_type"):
        for sname, axis, shapes in [("axis1", 1, [[2, 3], [2, 5], [2, 0]]),
                                    ("neg_axis", -1, [[2, 3], [2, 5]]),
                                    ("axis0", 0, [[1, 4, 2], [3, 4, 2], [2, 4, 2], [0, 4, 2]]),
                                    ("vec", 0, [[3], [4]])]:
            g.case(f"ConcatOffset.{sgname(dt)}.{sname}",
                   lambda: list(raw.ConcatOffset(concat_dim=g.const(axis, "int32"),
                                                 shape=[g.const(s, dt) for s in shapes],
                                                 name="op")))
        if dt == "int64":  # offsets past int64 wrap around, as TensorFlow's
            g.case("ConcatOffset.int64.huge",
                   lambda: list(raw.ConcatOffset(concat_dim=g.const(0, "int32"),
                                                 shape=[g.const([2**62], dt)] * 3, name="op")))
        g.case(f"ConcatOffset.{sgname(dt)}.bad_axis",
               lambda: list(raw.ConcatOffset(concat_dim=hide_shape(g.const(2, "int32")),
                                             shape=[g.const([2, 3], dt), g.const([2, 5], dt)],
                                             name="op")), error=True)
        g.case(f"ConcatOffset.{sgname(dt)}.mismatch",
               lambda: list(raw.ConcatOffset(concat_dim=g.const(1, "int32"),
                                             shape=[hide_shape(g.const([2, 3], dt)),
                                                    hide_shape(g.const([3, 5], dt))],
                                             name="op")), error=True)
        g.case(f"ConcatOffset.{sgname(dt)}.rank_mismatch",
               lambda: list(raw.ConcatOffset(concat_dim=g.const(0, "int32"),
                                             shape=[hide_shape(g.const([2, 3], dt)),
                                                    hide_shape(g.const([3], dt))],
                                             name="op")), error=True)
    for dt in UNIVERSE:
        g.case(f"Empty.{sgname(dt)}.init",
               lambda: raw.Empty(shape=g.const([2, 3], "int32"), dtype=dt, init=True, name="op"))
        if is_main(dt):
            g.case(f"Empty.{sgname(dt)}.scalar_init",
                   lambda: raw.Empty(shape=g.const(np.zeros([0]), "int32"), dtype=dt, init=True,
                                     name="op"))
            g.case(f"Empty.{sgname(dt)}.no_elements",
                   lambda: raw.Empty(shape=g.const([3, 0, 2], "int32"), dtype=dt, name="op"))
            g.case(f"Empty.{sgname(dt)}.negative",
                   lambda: raw.Empty(shape=hide_shape(g.const([2, -1], "int32")), dtype=dt,
                                     name="op"), error=True)
    for dt in UNIVERSE:
        g.case(f"EnsureShape.{sgname(dt)}.exact",
               lambda: raw.EnsureShape(input=g.rand(dt, [2, 3]), shape=[2, 3], name="op"))
        if is_main(dt):
            for sname, shape, want in [("partial", [2, 3], [None, 3]), ("unknown", [4], None),
                                       ("scalar", [], []), ("empty", [0, 2], [0, None])]:
                g.case(f"EnsureShape.{sgname(dt)}.{sname}",
                       lambda: raw.EnsureShape(input=hide_rank(g.rand(dt, shape)),
                                               shape=tf.TensorShape(want), name="op"))
            g.case(f"EnsureShape.{sgname(dt)}.mismatch",
                   lambda: raw.EnsureShape(input=hide_rank(g.rand(dt, [2, 3])), shape=[3, 2],
                                           name="op"), error=True)
            g.case(f"EnsureShape.{sgname(dt)}.rank_mismatch",
                   lambda: raw.EnsureShape(input=hide_rank(g.rand(dt, [2, 3])), shape=[None],
                                           name="op"), error=True)


@group
def array_unique(g):
    for dt in tf_types("UniqueV2"):
        lo, hi = (-2, 2)
        for oi in ("int32", "int64") if is_main(dt) else ("int32",):
            g.case(f"UniqueV2.{sgname(dt)}.vec_{oi}",
                   lambda: list(raw.UniqueV2(x=g.rand(dt, [9], lo=lo, hi=hi),
                                             axis=g.const([0], "int64"), out_idx=oi,
                                             name="op")))
            g.case(f"UniqueWithCounts.{sgname(dt)}.vec_{oi}",
                   lambda: list(raw.UniqueWithCounts(x=g.rand(dt, [9], lo=lo, hi=hi),
                                                     out_idx=oi, name="op")))
            g.case(f"UniqueWithCountsV2.{sgname(dt)}.vec_{oi}",
                   lambda: list(raw.UniqueWithCountsV2(x=g.rand(dt, [9], lo=lo, hi=hi),
                                                       axis=g.const([-1], "int32"), out_idx=oi,
                                                       name="op")))
            g.case(f"ListDiff.{sgname(dt)}.vec_{oi}",
                   lambda: list(raw.ListDiff(x=g.rand(dt, [9], lo=lo, hi=hi),
                                             y=g.rand(dt, [3], lo=lo, hi=hi), out_idx=oi,
                                             name="op")))
        def rows():
            v = g.vals(dt, [3, 2], lo=-1, hi=1)
            return g.const(np.concatenate([v, v[::-1], v[1:2]], axis=0), dt)
        g.case(f"UniqueV2.{sgname(dt)}.rows",
               lambda: list(raw.UniqueV2(x=rows(), axis=g.const([0], "int64"), name="op")))
        g.case(f"UniqueWithCountsV2.{sgname(dt)}.rows",
               lambda: list(raw.UniqueWithCountsV2(x=rows(), axis=g.const([0], "int32"),
                                                   name="op")))
        if is_float(dt) or is_int(dt):
            s = special_values(dt)
            g.case(f"UniqueWithCounts.{sgname(dt)}.special",
                   lambda: list(raw.UniqueWithCounts(x=g.const(np.concatenate([s, s[::-1]]), dt),
                                                     name="op")))
            g.case(f"ListDiff.{sgname(dt)}.special",
                   lambda: list(raw.ListDiff(x=g.const(np.concatenate([s, s[::-1]]), dt),
                                             y=g.const(s[::3], dt), name="op")))
        if not is_main(dt):
            continue
        for sname, shape, axis in [("cols", [2, 7], 1), ("mid", [2, 5, 2], 1),
                                   ("neg_axis", [3, 4], -2), ("empty_axis", [2, 0], 1),
                                   ("empty_slices", [2, 0], 0), ("scalar_rows", [6], 0)]:
            for op in ("UniqueV2", "UniqueWithCountsV2"):
                g.case(f"{op}.{sgname(dt)}.{sname}",
                       lambda: list(op_fn(op)(x=g.rand(dt, shape, lo=-1, hi=1),
                                              axis=g.const([axis], "int64"), name="op")))
        g.case(f"UniqueV2.{sgname(dt)}.no_axis",
               lambda: list(raw.UniqueV2(x=g.rand(dt, [8], lo=-1, hi=1),
                                         axis=g.const(np.zeros([0]), "int64"), name="op")))
        g.case(f"UniqueV2.{sgname(dt)}.no_axis_matrix",
               lambda: list(raw.UniqueV2(x=hide_rank(g.rand(dt, [2, 2])),
                                         axis=g.const(np.zeros([0]), "int64"), name="op")),
               error=True)
        g.case(f"UniqueV2.{sgname(dt)}.two_axes",
               lambda: list(raw.UniqueV2(x=g.rand(dt, [2, 2]),
                                         axis=hide_rank(g.const([0, 1], "int64")), name="op")),
               error=True)
        g.case(f"UniqueWithCountsV2.{sgname(dt)}.bad_axis",
               lambda: list(raw.UniqueWithCountsV2(x=g.rand(dt, [2, 2]),
                                                   axis=hide_shape(g.const([2], "int64")),
                                                   name="op")),
               error=True)
        g.case(f"UniqueWithCounts.{sgname(dt)}.empty",
               lambda: list(raw.UniqueWithCounts(x=g.rand(dt, [0]), name="op")))
        g.case(f"UniqueWithCounts.{sgname(dt)}.matrix",
               lambda: list(raw.UniqueWithCounts(x=hide_rank(g.rand(dt, [2, 2])), name="op")),
               error=True)
        for sname, xs, ys in [("empty_x", [0], [3]), ("empty_y", [5], [0]), ("all", [4], [9])]:
            g.case(f"ListDiff.{sgname(dt)}.{sname}",
                   lambda: list(raw.ListDiff(x=g.rand(dt, xs, lo=-1, hi=1),
                                             y=g.rand(dt, ys, lo=-1, hi=1), name="op")))
        g.case(f"ListDiff.{sgname(dt)}.matrix",
               lambda: list(raw.ListDiff(x=hide_rank(g.rand(dt, [2, 2])), y=g.rand(dt, [2]),
                                         name="op")), error=True)


@group
def array_matrix_diag(g):
    aligns = ["RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT"]
    for dt in tf_types("MatrixDiag"):
        for op, new in (("MatrixDiag", "BatchMatrixDiag"),
                        ("MatrixDiagPart", "BatchMatrixDiagPart"),
                        ("MatrixSetDiag", "BatchMatrixSetDiag")):
            for name in (op, new):
                rename = {"op": new} if name == new else None
                if op == "MatrixDiag":
                    build = lambda: raw.MatrixDiag(diagonal=g.rand(dt, [2, 3]), name="op")
                elif op == "MatrixDiagPart":
                    build = lambda: raw.MatrixDiagPart(input=g.rand(dt, [2, 3, 4]), name="op")
                else:
                    build = lambda: raw.MatrixSetDiag(input=g.rand(dt, [2, 4, 3]),
                                                      diagonal=g.rand(dt, [2, 3]), name="op")
                g.case(f"{name}.{sgname(dt)}.batch", build, rename=rename)
        pad = lambda: g.rand(dt, [])
        g.case(f"MatrixDiagV3.{sgname(dt)}.band",
               lambda: raw.MatrixDiagV3(diagonal=g.rand(dt, [2, 3, 4]),
                                        k=g.const([-1, 1], "int32"),
                                        num_rows=g.const(-1, "int32"),
                                        num_cols=g.const(-1, "int32"), padding_value=pad(),
                                        name="op"))
        g.case(f"MatrixDiagPartV3.{sgname(dt)}.band",
               lambda: raw.MatrixDiagPartV3(input=g.rand(dt, [2, 4, 5]),
                                            k=g.const([-2, 1], "int32"), padding_value=pad(),
                                            name="op"))
        g.case(f"MatrixSetDiagV3.{sgname(dt)}.band",
               lambda: raw.MatrixSetDiagV3(input=g.rand(dt, [2, 4, 5]),
                                           diagonal=g.rand(dt, [2, 4, 4]),
                                           k=g.const([-1, 2], "int32"), name="op"))
        if not is_main(dt):
            continue
        for align in aligns:
            a = align.lower()
            g.case(f"MatrixDiagV3.{sgname(dt)}.{a}",
                   lambda: raw.MatrixDiagV3(diagonal=g.rand(dt, [3, 4]),
                                            k=g.const([-2, 0], "int32"),
                                            num_rows=g.const(-1, "int32"),
                                            num_cols=g.const(5, "int32"), padding_value=pad(),
                                            align=align, name="op"))
            g.case(f"MatrixDiagPartV3.{sgname(dt)}.{a}",
                   lambda: raw.MatrixDiagPartV3(input=g.rand(dt, [3, 5, 4]),
                                                k=g.const([-3, 2], "int32"),
                                                padding_value=pad(), align=align, name="op"))
            g.case(f"MatrixDiagPartV3.{sgname(dt)}.wide_{a}",
                   lambda: raw.MatrixDiagPartV3(input=g.rand(dt, [2, 6]),
                                                k=g.const([1, 4], "int32"),
                                                padding_value=pad(), align=align, name="op"))
            g.case(f"MatrixSetDiagV3.{sgname(dt)}.{a}",
                   lambda: raw.MatrixSetDiagV3(input=g.rand(dt, [5, 4]),
                                               diagonal=g.rand(dt, [4, 4]),
                                               k=g.const([-3, 0], "int32"), align=align,
                                               name="op"))
        g.case(f"MatrixDiagV2.{sgname(dt)}.band",
               lambda: raw.MatrixDiagV2(diagonal=g.rand(dt, [2, 2, 3]),
                                        k=g.const([0, 1], "int32"),
                                        num_rows=g.const(-1, "int32"),
                                        num_cols=g.const(-1, "int32"), padding_value=pad(),
                                        name="op"))
        g.case(f"MatrixDiagPartV2.{sgname(dt)}.band",
               lambda: raw.MatrixDiagPartV2(input=g.rand(dt, [4, 3]), k=g.const([-2, 1], "int32"),
                                            padding_value=pad(), name="op"))
        g.case(f"MatrixSetDiagV2.{sgname(dt)}.band",
               lambda: raw.MatrixSetDiagV2(input=g.rand(dt, [3, 4]), diagonal=g.rand(dt, [2, 3]),
                                           k=g.const([1, 2], "int32"), name="op"))
        for sname, shape, k, rows, cols in [("super", [3], 1, -1, -1),
                                            ("sub_rows", [3], -2, 6, -1),
                                            ("cols", [2, 3], 0, -1, 4),
                                            ("scalar_k", [1, 2], -1, 3, 2),
                                            ("empty", [0, 2], 0, -1, -1)]:
            g.case(f"MatrixDiagV3.{sgname(dt)}.{sname}",
                   lambda: raw.MatrixDiagV3(diagonal=g.rand(dt, shape), k=g.const(k, "int32"),
                                            num_rows=g.const(rows, "int32"),
                                            num_cols=g.const(cols, "int32"), padding_value=pad(),
                                            name="op"))
        for sname, shape, k in [("super", [3, 4], 2), ("sub", [4, 3], -3),
                                ("main_empty", [2, 0, 3], 0), ("rank4", [2, 1, 3, 3], [0, 1])]:
            g.case(f"MatrixDiagPartV3.{sgname(dt)}.{sname}",
                   lambda: raw.MatrixDiagPartV3(input=g.rand(dt, shape), k=g.const(k, "int32"),
                                                padding_value=pad(), name="op"))
        g.case(f"MatrixSetDiagV3.{sgname(dt)}.scalar_k",
               lambda: raw.MatrixSetDiagV3(input=g.rand(dt, [2, 3, 4]),
                                           diagonal=g.rand(dt, [2, 3]), k=g.const(1, "int32"),
                                           name="op"))
        g.case(f"MatrixDiag.{sgname(dt)}.vec",
               lambda: raw.MatrixDiag(diagonal=g.rand(dt, [4]), name="op"))
        g.case(f"MatrixDiagPart.{sgname(dt)}.wide",
               lambda: raw.MatrixDiagPart(input=g.rand(dt, [2, 5]), name="op"))
        g.case(f"MatrixSetDiag.{sgname(dt)}.tall",
               lambda: raw.MatrixSetDiag(input=g.rand(dt, [5, 2]), diagonal=g.rand(dt, [2]),
                                         name="op"))
        g.case(f"MatrixDiagPartV3.{sgname(dt)}.k_reversed",
               lambda: raw.MatrixDiagPartV3(input=g.rand(dt, [3, 3]),
                                            k=hide_shape(g.const([1, -1], "int32")),
                                            padding_value=pad(), name="op"), error=True)
        g.case(f"MatrixDiagPartV3.{sgname(dt)}.k_out_of_bound",
               lambda: raw.MatrixDiagPartV3(input=hide_shape(g.rand(dt, [3, 3])),
                                            k=hide_shape(g.const([3], "int32")),
                                            padding_value=pad(), name="op"), error=True)
        g.case(f"MatrixSetDiagV3.{sgname(dt)}.bad_diagonal",
               lambda: raw.MatrixSetDiagV3(input=hide_shape(g.rand(dt, [3, 4])),
                                           diagonal=hide_shape(g.rand(dt, [4])),
                                           k=g.const(0, "int32"), name="op"), error=True)
        g.case(f"MatrixDiagV3.{sgname(dt)}.inconsistent",
               lambda: raw.MatrixDiagV3(diagonal=hide_shape(g.rand(dt, [3])),
                                        k=g.const(0, "int32"),
                                        num_rows=hide_shape(g.const(5, "int32")),
                                        num_cols=hide_shape(g.const(6, "int32")),
                                        padding_value=pad(), name="op"), error=True)
        g.case(f"MatrixDiagV3.{sgname(dt)}.wrong_num_diags",
               lambda: raw.MatrixDiagV3(diagonal=hide_shape(g.rand(dt, [2, 3])),
                                        k=hide_shape(g.const([0, 2], "int32")),
                                        num_rows=g.const(-1, "int32"),
                                        num_cols=g.const(-1, "int32"),
                                        padding_value=pad(), name="op"), error=True)
        g.case(f"MatrixDiagPart.{sgname(dt)}.vector",
               lambda: raw.MatrixDiagPart(input=hide_rank(g.rand(dt, [3])), name="op"),
               error=True)
    for dt in tf_types("Diag"):
        for sname, shape in [("vec", [3]), ("mat", [2, 2])] + (
                [("rank3", [1, 2, 2]), ("empty", [0])] if is_main(dt) else []):
            g.case(f"Diag.{sgname(dt)}.{sname}",
                   lambda: raw.Diag(diagonal=g.rand(dt, shape), name="op"))
            g.case(f"DiagPart.{sgname(dt)}.{sname}",
                   lambda: raw.DiagPart(input=g.rand(dt, shape + shape), name="op"))
        if is_main(dt):
            g.case(f"DiagPart.{sgname(dt)}.odd_rank",
                   lambda: raw.DiagPart(input=hide_rank(g.rand(dt, [2, 2, 2])), name="op"),
                   error=True)
            g.case(f"DiagPart.{sgname(dt)}.mismatch",
                   lambda: raw.DiagPart(input=hide_shape(g.rand(dt, [2, 3])), name="op"),
                   error=True)
            g.case(f"Diag.{sgname(dt)}.scalar",
                   lambda: raw.Diag(diagonal=hide_rank(g.rand(dt, [])), name="op"), error=True)


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


def complex_special(dt):
    """Complex edge values: every pair of real and imaginary parts from signed zeros, small and
    large magnitudes, infinities and NaN."""
    parts = np.array([0.0, -0.0, 1.5, -2.5, 1e-3, 60.0, np.inf, -np.inf, np.nan])
    re, im = np.meshgrid(parts, parts)
    out = np.empty(re.size, dtype=npdtype(dt))  # not re + 1j * im: inf * 1j has a NaN real part
    out.real, out.imag = re.reshape(-1), im.reshape(-1)
    return out


@group
def complex_numbers(g):
    """Complex, Real, Imag, ComplexAbs, Angle, Conj and ConjugateTranspose."""
    pairs = [("float32", "complex64"), ("float64", "complex128")]
    for rdt, cdt in pairs:
        for sname, xs, ys in BINARY_SHAPES + BINARY_SHAPES_MAIN:
            g.case(f"Complex.{sgname(rdt)}.{sname}",
                   lambda: raw.Complex(real=g.rand(rdt, xs), imag=g.rand(rdt, ys), Tout=cdt,
                                       name="op"))
        g.case(f"Complex.{sgname(rdt)}.special",
               lambda: raw.Complex(real=g.const(special_values(rdt).reshape(-1, 1), rdt),
                                   imag=g.const(special_values(rdt).reshape(1, -1), rdt),
                                   Tout=cdt, name="op"))
        g.case(f"Complex.{sgname(rdt)}.incompatible",
               lambda: raw.Complex(real=hide_shape(g.rand(rdt, [2, 3])),
                                   imag=hide_shape(g.rand(rdt, [4])), Tout=cdt, name="op"),
               error=True)
        for op in ("Real", "Imag", "ComplexAbs", "Angle"):
            f = op_fn(op)
            arg = "x" if op == "ComplexAbs" else "input"
            for sname, shape in [("mat", [2, 3]), ("scalar", []), ("empty", [0, 3]),
                                 ("vec", [67]), ("rank4", [2, 1, 3, 2])]:
                g.case(f"{op}.{sgname(cdt)}.{sname}",
                       lambda: f(**{arg: g.rand(cdt, shape)}, Tout=rdt, name="op"))
            g.case(f"{op}.{sgname(cdt)}.special",
                   lambda: f(**{arg: g.const(complex_special(cdt), cdt)}, Tout=rdt, name="op"))
        for sname, shape in [("mat", [2, 3]), ("scalar", []), ("empty", [0, 3]), ("vec", [67])]:
            g.case(f"Conj.{sgname(cdt)}.{sname}",
                   lambda: raw.Conj(input=g.rand(cdt, shape), name="op"))
        g.case(f"Conj.{sgname(cdt)}.special",
               lambda: raw.Conj(input=g.const(complex_special(cdt), cdt), name="op"))
    # (Not string: TensorFlow 2.21's ConjugateTranspose aborts the process on strings.)
    for dt in ["complex64", "complex128", "float32", "float64", "int32", "int64", "uint8",
               "bool", "float16", "bfloat16"]:
        for sname, shape, perm in [("mat", [2, 3], [1, 0]), ("rank3", [2, 3, 4], [2, 0, 1]),
                                   ("identity", [2, 3], [0, 1]), ("scalar", [], []),
                                   ("empty", [0, 3, 2], [1, 2, 0])]:
            g.case(f"ConjugateTranspose.{sgname(dt)}.{sname}",
                   lambda: raw.ConjugateTranspose(x=g.rand(dt, shape),
                                                  perm=g.const(perm, "int32"), name="op"))
    g.case("ConjugateTranspose.complex64.perm_int64",
           lambda: raw.ConjugateTranspose(x=g.rand("complex64", [2, 3, 1]),
                                          perm=g.const([2, 1, 0], "int64"), name="op"))
    for sname, perm in [("perm_out_of_range", [0, 3]), ("perm_duplicate", [1, 1]),
                        ("perm_size", [1, 0, 2])]:
        g.case(f"ConjugateTranspose.complex64.{sname}",
               lambda: raw.ConjugateTranspose(x=hide_shape(g.rand("complex64", [2, 3])),
                                              perm=hide_shape(g.const(perm, "int32")),
                                              name="op"), error=True)


def fft_atol(dt, expected, n):
    """Absolute tolerance of an FFT output: a few ulps of the dtype (float32 for complex64),
    times log2 of the transform size, times the output's root mean square. The float rounding of
    an FFT grows with the number of butterfly stages and with the signal's energy, not with each
    output term's own size, so a term that cancels to near zero needs this absolute margin."""
    eps = np.finfo(np.float32 if tf.as_dtype(dt).name in ("float32", "complex64")
                   else np.float64).eps
    rms = float(np.sqrt(np.mean(np.abs(expected) ** 2))) if np.size(expected) else 0.0
    return float(8 * eps * max(1.0, np.log2(max(n, 1))) * max(rms, 1.0))


@group
def spectral(g):
    """FFT, IFFT, RFFT, IRFFT and their 2D and 3D forms."""
    cases = {
        1: [("n1", [1]), ("n2", [2]), ("n3", [3]), ("n5", [5]), ("n7", [7]), ("n8", [8]),
            ("n12", [12]), ("n17", [17]), ("n64", [64]), ("n100", [100]), ("n512", [512]),
            ("batch", [3, 16]), ("batch_rank3", [2, 3, 10]), ("empty", [2, 0]),
            ("empty_batch", [0, 4])],
        2: [("4x6", [4, 6]), ("1x1", [1, 1]), ("5x7", [5, 7]), ("batch", [3, 8, 8]),
            ("16x16", [16, 16]), ("empty", [3, 0])],
        3: [("2x3x4", [2, 3, 4]), ("4x4x4", [4, 4, 4]), ("batch", [2, 3, 5, 2]),
            ("4x8x8", [4, 8, 8]), ("empty", [0, 2, 2])],
    }
    suffix = {1: "", 2: "2D", 3: "3D"}
    for rank in (1, 2, 3):
        for inverse in (False, True):
            op = ("IFFT" if inverse else "FFT") + suffix[rank]
            f = op_fn(op)
            npf = np.fft.ifftn if inverse else np.fft.fftn
            for dt in tf_types(op, "Tcomplex"):
                for sname, shape in cases[rank]:
                    if sname == "n512" and dt == "complex128":
                        continue  # the long transform in single precision only (file size)
                    def build(shape=shape):
                        x = g.vals(dt, shape)
                        axes = tuple(range(len(shape) - rank, len(shape)))
                        want = npf(x, axes=axes) if x.size else x
                        n = int(np.prod(shape[-rank:]))
                        return Out(f(input=g.const(x, dt), name="op"),
                                   atol=fft_atol(dt, want, n))
                    g.case(f"{op}.{sgname(dt)}.{sname}", build)
            g.case(f"{op}.complex64.rank_too_low",
                   lambda: f(input=hide_rank(g.rand("complex64", [4] * (rank - 1))), name="op"),
                   error=True)

    # (name, input shape, fft_length) per rank; the input may be longer than fft_length (the
    # op crops it). For the inverse ops the input's last dim is the half spectrum's. No
    # fft_length of 0: TensorFlow 2.21 aborts the process on one (sg gives zeros or an empty
    # output).
    real_cases = {
        1: [("n1", [1], [1]), ("n2", [2], [2]), ("n3", [3], [3]), ("n4", [4], [4]),
            ("n5", [5], [5]), ("n9", [9], [9]), ("n16", [16], [16]), ("n17", [17], [17]),
            ("n100", [100], [100]), ("n256", [256], [256]), ("n512", [512], [512]),
            ("batch", [3, 2, 12], [12]), ("crop", [2, 10], [7]), ("crop_even", [2, 10], [6]),
            ("empty_batch", [0, 8], [8])],
        2: [("4x6", [4, 6], [4, 6]), ("5x7", [5, 7], [5, 7]), ("1x1", [1, 1], [1, 1]),
            ("batch", [2, 8, 8], [8, 8]), ("crop", [5, 9], [3, 6]), ("16x16", [16, 16], [16, 16])],
        3: [("2x3x4", [2, 3, 4], [2, 3, 4]), ("3x3x5", [3, 3, 5], [3, 3, 5]),
            ("batch", [2, 2, 4, 6], [2, 4, 6]), ("crop", [3, 4, 9], [2, 3, 7]),
            ("4x8x8", [4, 8, 8], [4, 8, 8])],
    }
    pairs = [("float32", "complex64"), ("float64", "complex128")]
    for rank in (1, 2, 3):
        for inverse in (False, True):
            op = ("IRFFT" if inverse else "RFFT") + suffix[rank]
            f = op_fn(op)
            for rdt, cdt in pairs:
                dt = cdt if inverse else rdt
                other_type = {"Treal": rdt} if inverse else {"Tcomplex": cdt}
                for sname, shape, fft in real_cases[rank]:
                    if sname == "n512" and rdt == "float64":
                        continue  # the long transform in single precision only (file size)
                    def build(shape=shape, fft=fft):
                        shape = list(shape)
                        if inverse:  # the half spectrum, one longer than needed when cropping
                            shape[-1] = fft[-1] // 2 + 1 + (1 if "crop" in sname else 0)
                        x = g.vals(dt, shape)
                        axes = tuple(range(len(shape) - rank, len(shape)))
                        crop = tuple([slice(None)] * (len(shape) - rank) +
                                     [slice(0, m) for m in fft[:-1]] +
                                     [slice(0, fft[-1] // 2 + 1 if inverse else fft[-1])])
                        n = int(np.prod(fft))
                        if x.size == 0 or n == 0:
                            want = np.zeros(0)
                        elif inverse:
                            want = np.fft.irfftn(x[crop], s=fft, axes=axes)
                        else:
                            want = np.fft.rfftn(x[crop], s=fft, axes=axes)
                        return Out(f(input=g.const(x, dt), fft_length=g.const(fft, "int32"),
                                     **other_type, name="op"),
                                   atol=fft_atol(dt, want, n))
                    g.case(f"{op}.{sgname(dt)}.{sname}", build)
            # Errors, seen by the kernel only: too small an input, a negative or misshapen
            # fft_length, too low a rank.
            rdt, cdt = pairs[0]
            dt = cdt if inverse else rdt
            other_type = {"Treal": rdt} if inverse else {"Tcomplex": cdt}
            fft = [4] * rank
            short = [4] * (rank - 1) + [2]
            for sname, shape, length in [("input_too_short", short, fft),
                                         ("negative_length", [4] * rank, [4] * (rank - 1) + [-1]),
                                         ("length_shape", [4] * rank, fft + [4]),
                                         ("rank_too_low", [4] * (rank - 1), fft)]:
                g.case(f"{op}.{sgname(dt)}.{sname}",
                       lambda: f(input=hide_rank(g.rand(dt, shape)),
                                 fft_length=hide_shape(g.const(length, "int32")),
                                 **other_type, name="op"), error=True)


# ---- sg's op list --------------------------------------------------------------------------


class _Buffer(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("length", ctypes.c_size_t),
                ("data_deallocator", ctypes.c_void_p)]


def sg_op_list_bytes(libsg):
    lib = ctypes.CDLL(libsg)
    lib.SG_GetAllOpList.restype = ctypes.POINTER(_Buffer)
    lib.SG_DeleteBuffer.argtypes = [ctypes.POINTER(_Buffer)]
    buf = lib.SG_GetAllOpList()
    data = ctypes.string_at(buf.contents.data, buf.contents.length)
    lib.SG_DeleteBuffer(buf)
    return data


def sg_op_names(libsg):
    # libsg is loaded in a process of its own: beside TensorFlow's libraries it crashes at exit.
    import subprocess
    data = subprocess.run([sys.executable, os.path.abspath(__file__), "--print-sg-ops", libsg],
                          check=True, capture_output=True).stdout
    from tensorflow.core.framework import op_def_pb2
    ops = op_def_pb2.OpList()
    ops.ParseFromString(data)
    return sorted(op.name for op in ops.op)


def main():
    global tf, attr_value_pb2, op_def_registry, raw
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--libsg", default=os.path.join(REPO, "build", "c_api", "libsg.so.1"),
                    help="to list the ops sg registers that no case covers")
    ap.add_argument("--out", default=OUT_DIR)
    ap.add_argument("--only", nargs="*", default=None, help="group names")
    args = ap.parse_args()

    import tempfile
    import tensorflow
    from tensorflow.core.framework import attr_value_pb2 as avp
    from tensorflow.python.framework import op_def_registry as odr
    tf, attr_value_pb2, op_def_registry, raw = tensorflow, avp, odr, tensorflow.raw_ops
    tf.compat.v1.disable_eager_execution()
    tf.compat.v1.disable_control_flow_v2()

    os.makedirs(args.out, exist_ok=True)
    names = args.only if args.only else list(GROUPS)
    covered = set()
    total = 0
    failed = []
    for name in names:
        g = Group(name)
        GROUPS[name](g)
        with tempfile.TemporaryDirectory() as tmp:
            gdef, stats = run_group(g, tmp)
        data = gdef.SerializeToString(deterministic=True)
        with open(os.path.join(args.out, name + ".pb.gz"), "wb") as f:
            # gzip with no name and no time in its header: the same cases, the same bytes.
            with gzip.GzipFile(fileobj=f, mode="wb", compresslevel=9, mtime=0, filename="") as z:
                z.write(data)
        covered |= {n.op for n in gdef.node}
        for fdef in gdef.library.function:
            covered |= {n.op for n in fdef.node_def}
        total += stats.cases
        size = os.path.getsize(os.path.join(args.out, name + ".pb.gz"))
        print(f"{name}: {stats.cases} cases, {size} bytes"
              + (f"; {len(stats.dropped)} dropped (no TensorFlow CPU kernel)"
                 if stats.dropped else ""))
        failed += g.failed
    for f in failed:
        print("failed: " + f)
    print(f"make_op_cases: {total} cases in {len(names)} groups"
          + (f"; {len(failed)} cases failed" if failed else ""))
    if os.path.exists(args.libsg) and not args.only:
        missing = [op for op in sg_op_names(args.libsg) if op not in covered]
        if missing:
            print("ops sg registers without a case: " + " ".join(missing))
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--print-sg-ops":
        sys.stdout.buffer.write(sg_op_list_bytes(sys.argv[2]))
        sys.exit(0)
    sys.exit(main())
