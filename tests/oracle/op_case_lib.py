"""What the op conformance groups share: dtypes, input values, and the Group and Case classes
that build each case in a tf.compat.v1 Graph and run it in TensorFlow (make_op_cases.py says what
a case stores). Importing this module imports TensorFlow in graph mode with v1 control flow."""

import collections
import os
import zlib

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
# oneDNN off: its kernels round differently from the Eigen ones and abort on some bad shapes.
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow.core.framework import attr_value_pb2  # noqa: E402,F401
from tensorflow.python.framework import op_def_registry  # noqa: E402

raw = tf.raw_ops
tf.compat.v1.disable_eager_execution()
tf.compat.v1.disable_control_flow_v2()

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


# The dtypes that get the extra shapes and variants of a group (one of each kind).
MAIN_DTYPES = ("float32", "int32", "bool", "string")


def is_main(dt):
    return tf.as_dtype(dt).name in MAIN_DTYPES


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


def concrete(fn, *specs):
    """`fn` traced (no autograph) for `specs`, its FunctionDef added to the case's graph."""
    cf = tf.function(fn, autograph=False).get_concrete_function(*specs)
    cf.add_to_graph(tf.compat.v1.get_default_graph())
    return cf


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


def session_config(inter_op_threads=2):
    # No Grappler and no constant folding: TensorFlow's kernels compute every output (a rewrite
    # such as x / c -> x * (1 / c) would change the last bits). One intra-op thread, so that a
    # kernel sums in one order; make_training_cases.py also asks for one inter-op thread.
    cfg = tf.compat.v1.ConfigProto()
    cfg.graph_options.rewrite_options.disable_meta_optimizer = True
    cfg.graph_options.optimizer_options.opt_level = tf.compat.v1.OptimizerOptions.L0
    cfg.graph_options.optimizer_options.do_constant_folding = False
    cfg.intra_op_parallelism_threads = 1
    cfg.inter_op_parallelism_threads = inter_op_threads
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
# The TensorFlow that writes each group: a version prefix and the script that makes its venv.
# Every group is written by the pinned 2.21 (requirements.txt) except those whose kernels 2.21
# lacks, which name an older oracle (README.md); make_op_cases.py runs a group only under its own.
MAIN_ORACLE = ("2.21.", "setup_venv.sh")
ORACLES = {}


def group(fn=None, *, oracle=None):
    """Registers a group: @group, or @group(oracle=(version prefix, venv script))."""
    def register(f):
        GROUPS[f.__name__] = f
        ORACLES[f.__name__] = oracle or MAIN_ORACLE
        return f
    return register(fn) if fn is not None else register


def runs_here(name):
    """Whether this process's TensorFlow is group `name`'s oracle."""
    return tf.__version__.startswith(ORACLES[name][0])


def op_fn(op):
    return getattr(tf.raw_ops, op)
