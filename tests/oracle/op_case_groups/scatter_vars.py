"""Op conformance cases: the row scatters on variables (Scatter{Update,Add,Sub,Mul,Div,Min,Max} on
refs, ResourceScatter* on resources) and the resource gathers (ResourceGather's batch_dims,
ResourceGatherNd)."""

from op_case_lib import *  # noqa: F401,F403

SCATTER_KINDS = ["Update", "Add", "Sub", "Mul", "Div", "Min", "Max"]
I = "int32"


def scatter_updates(g, kind, dt, shape):
    """Updates for Scatter<kind>: small, and never zero for Div (TensorFlow's integer division
    traps; its resource kernel refuses a zero of any dtype)."""
    if dt == "string" or dt == "bool":
        return g.rand(dt, shape)
    lo = 1 if kind == "Div" and not is_float(dt) and not is_complex(dt) else -3
    # Drawn flat: values() cannot mark zeros of a 0-d array.
    v = g.vals(dt, [int(np.prod(shape))], lo=lo, hi=3, nonzero=(kind == "Div"))
    return g.const(v.reshape(shape), dt)


def ref_scatter(g, kind, dt, idx, ushape, shape=(4, 2), ity=I, updates=None, init=None,
                hide=False, **kw):
    """Scatter<kind> on a VariableV2 assigned a value first; fetches the ref output."""
    v = raw.VariableV2(shape=list(shape), dtype=dt, name="v")
    init = g.rand(dt, list(shape), lo=1, hi=8) if init is None else init
    a = raw.Assign(ref=v, value=init, name="assign")
    u = scatter_updates(g, kind, dt, ushape) if updates is None else updates
    with tf.control_dependencies([a]):
        out = op_fn("Scatter" + kind)(ref=v, indices=g.const(idx, ity),
                                      updates=hide_rank(u) if hide else u, name="op", **kw)
    return raw.Identity(input=out, name="out")


def resource_scatter(g, kind, dt, idx, ushape, shape=(4, 2), ity=I, updates=None, init=None):
    """ResourceScatter<kind> on an assigned resource variable; fetches its value after."""
    h = raw.VarHandleOp(dtype=dt, shape=list(shape), shared_name="v", name="v")
    init = g.rand(dt, list(shape), lo=1, hi=8) if init is None else init
    a = raw.AssignVariableOp(resource=h, value=init, name="assign")
    u = scatter_updates(g, kind, dt, ushape) if updates is None else updates
    with tf.control_dependencies([a]):
        s = op_fn("ResourceScatter" + kind)(resource=h, indices=g.const(idx, ity),
                                            updates=hide_rank(u), name="op")
    with tf.control_dependencies([s]):
        return raw.ReadVariableOp(resource=h, dtype=dt, name="out")


@group
def scatter_ref_vars(g):
    """Scatter{Update,Add,Sub,Mul,Div,Min,Max} on ref variables."""
    for kind in SCATTER_KINDS:
        op = "Scatter" + kind
        for dt in tf_types(op):
            n = sgname(dt)
            # Index 1 twice: applied in order (Update: the last wins).
            g.case(f"{op}.{n}.rows", lambda: ref_scatter(g, kind, dt, [1, 3, 1], [3, 2]))
            g.case(f"{op}.{n}.scalar_update",
                   lambda: ref_scatter(g, kind, dt, [2, 0, 2], [], ity="int64"))
            if is_main(dt):
                g.case(f"{op}.{n}.matrix_indices",
                       lambda: ref_scatter(g, kind, dt, [[0, 3], [3, 3]], [2, 2, 2],
                                           ity="int64", use_locking=True))
                g.case(f"{op}.{n}.rank3",
                       lambda: ref_scatter(g, kind, dt, [1, 0], [2, 3, 2], shape=(2, 3, 2),
                                           use_locking=False))
                g.case(f"{op}.{n}.scalar_index",
                       lambda: ref_scatter(g, kind, dt, 2, [2]))
                g.case(f"{op}.{n}.empty",
                       lambda: ref_scatter(g, kind, dt, np.zeros([0], np.int32), [0, 2]))
        # Errors: an index out of range (either end), updates of the wrong shape, an
        # uninitialized variable.
        g.case(f"{op}.float.out_of_range",
               lambda: ref_scatter(g, kind, "float32", [0, 4], [2, 2]), error=True)
        g.case(f"{op}.float.negative_index",
               lambda: ref_scatter(g, kind, "float32", [-1], [1, 2], ity="int64"), error=True)
        g.case(f"{op}.float.updates_mismatch",
               lambda: ref_scatter(g, kind, "float32", [0, 1], [2, 3], hide=True), error=True)
        g.case(f"{op}.float.updates_rank",
               lambda: ref_scatter(g, kind, "float32", [0, 1], [2], hide=True), error=True)
        def uninitialized(op=op):
            v = raw.VariableV2(shape=[3], dtype="float32", name="v")
            return op_fn(op)(ref=v, indices=g.const([0], I), updates=g.const([2.0], "float32"),
                             name="op")
        g.case(f"{op}.float.uninitialized", uninitialized, error=True)
    # Floats divided by zero follow IEEE (the ref kernel has no zero check).
    g.case("ScatterDiv.float.by_zero",
           lambda: ref_scatter(g, "Div", "float32", [0, 1, 2], [3, 2],
                               updates=g.const([[0, -0.0], [0, 1], [2, 0]], "float32"),
                               init=g.const([[1, 1], [0, -2], [np.inf, 3]], "float32"),
                               shape=(3, 2)))
    # NaN: Min and Max keep a NaN in the variable and ignore a NaN update.
    for kind in ("Min", "Max"):
        for dt in ("float32", "float64"):
            g.case(f"Scatter{kind}.{sgname(dt)}.nan",
                   lambda: ref_scatter(
                       g, kind, dt, [0, 1, 2, 0], [4, 2],
                       init=g.const([[np.nan, 1], [2, np.nan], [-np.inf, 0]], dt),
                       updates=g.const([[3, np.nan], [np.nan, -1], [np.inf, -0.0],
                                        [-5, 7]], dt), shape=(3, 2)))
    # Integers wrap.
    g.case("ScatterAdd.int32.wraps",
           lambda: ref_scatter(g, "Add", "int32", [0, 0], [2],
                               init=g.const([2**31 - 2, 5], "int32"),
                               updates=g.const([1, 3], "int32"), shape=(2,)))
    g.case("ScatterMul.uint8.wraps",
           lambda: ref_scatter(g, "Mul", "uint8", [1, 1], [2],
                               init=g.const([3, 200], "uint8"),
                               updates=g.const([2, 3], "uint8"), shape=(2,)))
    g.case("ScatterDiv.int32.truncates",
           lambda: ref_scatter(g, "Div", "int32", [0, 1, 2], [3],
                               init=g.const([-7, 7, -2**31], "int32"),
                               updates=g.const([2, -2, 3], "int32"), shape=(3,)))


@group
def scatter_resource_vars(g):
    """ResourceScatter{Update,Add,Sub,Mul,Div,Min,Max} on resource variables."""
    for kind in SCATTER_KINDS:
        op = "ResourceScatter" + kind
        for dt in tf_types(op, "dtype"):
            n = sgname(dt)
            g.case(f"{op}.{n}.rows", lambda: resource_scatter(g, kind, dt, [1, 3, 1], [3, 2]))
            g.case(f"{op}.{n}.scalar_update",
                   lambda: resource_scatter(g, kind, dt, [2, 0, 2], [], ity="int64"))
            if is_main(dt):
                g.case(f"{op}.{n}.matrix_indices",
                       lambda: resource_scatter(g, kind, dt, [[0, 3], [3, 3]], [2, 2, 2],
                                                ity="int64"))
                g.case(f"{op}.{n}.rank3",
                       lambda: resource_scatter(g, kind, dt, [1, 0], [2, 3, 2], shape=(2, 3, 2)))
                g.case(f"{op}.{n}.empty",
                       lambda: resource_scatter(g, kind, dt, np.zeros([0], np.int32), [0, 2]))
        g.case(f"{op}.float.out_of_range",
               lambda: resource_scatter(g, kind, "float32", [0, 4], [2, 2]), error=True)
        g.case(f"{op}.float.negative_index",
               lambda: resource_scatter(g, kind, "float32", [-1], [1, 2], ity="int64"),
               error=True)
        g.case(f"{op}.float.updates_rank",
               lambda: resource_scatter(g, kind, "float32", [0, 1], [2]), error=True)
        g.case(f"{op}.float.indices_prefix",
               lambda: resource_scatter(g, kind, "float32", [0, 1], [3, 2]), error=True)
        def never_assigned(op=op):
            h = raw.VarHandleOp(dtype="float32", shape=[3], shared_name="v", name="v")
            s = op_fn(op)(resource=h, indices=g.const([0], I),
                          updates=g.const([2.0], "float32"), name="op")
            with tf.control_dependencies([s]):
                return tf.constant(0, name="done")
        g.case(f"{op}.float.never_assigned", never_assigned, error=True)
    # (Updates of another dtype than the variable's are not a case: TensorFlow's Python refuses to
    # build the op. Nor is ScatterDiv of an integer by zero: TensorFlow's process dies of SIGFPE.)
    # The resource kernel refuses a zero divisor, whatever the dtype.
    for dt in ("float32", "int32", "complex64"):
        g.case(f"ResourceScatterDiv.{sgname(dt)}.zero",
               lambda: resource_scatter(g, "Div", dt, [0, 1], [2, 2],
                                        updates=g.const([[1, 2], [0, 3]], dt)), error=True)
    for kind in ("Min", "Max"):
        g.case(f"ResourceScatter{kind}.float.nan",
               lambda: resource_scatter(
                   g, kind, "float32", [0, 1, 2, 0], [4, 2],
                   init=g.const([[np.nan, 1], [2, np.nan], [-np.inf, 0]], "float32"),
                   updates=g.const([[3, np.nan], [np.nan, -1], [np.inf, -0.0], [-5, 7]],
                                   "float32"), shape=(3, 2)))
    # A read before the scatter keeps the value it read.
    def snapshot():
        h = raw.VarHandleOp(dtype="float32", shape=[3], shared_name="v", name="v")
        a = raw.AssignVariableOp(resource=h, value=g.rand("float32", [3]), name="assign")
        with tf.control_dependencies([a]):
            before = raw.ReadVariableOp(resource=h, dtype="float32", name="before")
        with tf.control_dependencies([before]):
            s = raw.ResourceScatterAdd(resource=h, indices=g.const([2], I),
                                       updates=g.const([10], "float32"), name="op")
        with tf.control_dependencies([s]):
            after = raw.ReadVariableOp(resource=h, dtype="float32", name="after")
        return [raw.Identity(input=before, name="b"), after]
    g.case("ResourceScatterAdd.float.snapshot", snapshot)


def resource_var(g, dt, shape):
    h = raw.VarHandleOp(dtype=dt, shape=list(shape), shared_name="v", name="v")
    a = raw.AssignVariableOp(resource=h, value=g.rand(dt, list(shape)), name="assign")
    return h, a


@group
def resource_gather_vars(g):
    """ResourceGather with batch_dims, and ResourceGatherNd."""
    for dt in tf_types("ResourceGather", "dtype"):
        def batched(dt=dt):
            h, a = resource_var(g, dt, [2, 3, 2])
            with tf.control_dependencies([a]):
                return raw.ResourceGather(resource=h, indices=g.const([[2, 0, 2], [1, 1, 0]], I),
                                          dtype=dt, batch_dims=1, name="op")
        g.case(f"ResourceGather.{sgname(dt)}.batch_dims", batched)
    def batch_variants():
        h, a = resource_var(g, "float32", [2, 3, 4])
        with tf.control_dependencies([a]):
            return [raw.ResourceGather(resource=h, indices=g.const([[[3, 0], [1, 1], [2, 3]],
                                                                    [[0, 0], [3, 2], [1, 0]]],
                                                                   "int64"),
                                       dtype="float32", batch_dims=2, name="two"),
                    raw.ResourceGather(resource=h, indices=g.const([[[2], [0]], [[1], [1]]], I),
                                       dtype="float32", batch_dims=1, name="deep"),
                    raw.ResourceGather(resource=h, indices=g.const([1, 0], I),
                                       dtype="float32", batch_dims=1, name="one_each"),
                    raw.ResourceGather(resource=h, indices=g.const(np.zeros([2, 0], np.int32)),
                                       dtype="float32", batch_dims=1, name="empty")]
    g.case("ResourceGather.float.batch_variants", batch_variants)
    def batch_out_of_range(idx):
        h, a = resource_var(g, "float32", [2, 3])
        with tf.control_dependencies([a]):
            return raw.ResourceGather(resource=h, indices=hide_shape(g.const(idx, I)),
                                      dtype="float32", batch_dims=1, name="op")
    g.case("ResourceGather.float.batch_out_of_range",
           lambda: batch_out_of_range([[0], [6]]), error=True)
    g.case("ResourceGather.float.batch_negative_index",
           lambda: batch_out_of_range([[-1], [0]]), error=True)

    for dt in tf_types("ResourceGatherNd", "dtype"):
        def rows(dt=dt):
            h, a = resource_var(g, dt, [3, 2])
            with tf.control_dependencies([a]):
                return raw.ResourceGatherNd(resource=h, indices=g.const([[2], [0], [2]], I),
                                            dtype=dt, name="op")
        g.case(f"ResourceGatherNd.{sgname(dt)}.rows", rows)
    def nd_variants():
        h, a = resource_var(g, "float32", [2, 3, 2])
        with tf.control_dependencies([a]):
            return [raw.ResourceGatherNd(resource=h, indices=g.const([[0, 2, 1], [1, 0, 0]],
                                                                     "int64"),
                                         dtype="float32", name="elements"),
                    raw.ResourceGatherNd(resource=h, indices=g.const([[[1, 2]], [[0, 0]]], I),
                                         dtype="float32", name="slices"),
                    raw.ResourceGatherNd(resource=h, indices=g.const(np.zeros([0, 1], np.int32)),
                                         dtype="float32", name="empty")]
    g.case("ResourceGatherNd.float.variants", nd_variants)
    def nd_error(idx):
        h, a = resource_var(g, "float32", [3, 2])
        with tf.control_dependencies([a]):
            return raw.ResourceGatherNd(resource=h, indices=hide_shape(g.const(idx, I)),
                                        dtype="float32", name="op")
    g.case("ResourceGatherNd.float.out_of_range", lambda: nd_error([[3]]), error=True)
    g.case("ResourceGatherNd.float.negative_index", lambda: nd_error([[0, -1]]), error=True)
    g.case("ResourceGatherNd.float.too_deep", lambda: nd_error([[0, 1, 0]]), error=True)
