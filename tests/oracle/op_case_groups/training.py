"""Op conformance cases: the training ops (optimizer steps) on ref and resource variables.

Each case makes the variable and its slots, assigns them, runs the op twice (the second step
after the first, by a control dependency) and fetches what the ref form returns and every
variable read after the second step."""

from op_case_lib import *  # noqa: F401,F403

I32, I64 = "int32", "int64"
DTYPES = FLOATS + COMPLEX  # TensorFlow has no integer kernels; dtypes it lacks are dropped

# Per optimizer: its slots (with the range of their initial values: accumulators that enter a
# square root or a power start positive), its scalars in OpDef order (global_step apart), and the
# attr variants to cover. The gradient is uniform in [-2, 2).
POS = (0.5, 2.0)
ANY = (-1.0, 1.0)
SPECS = {
    "GradientDescent": dict(slots=[], scalars=dict(alpha=0.5), grad="delta"),
    "Momentum": dict(slots=[("accum", ANY)], scalars=dict(lr=0.25, momentum=0.75),
                     variants=[{}, dict(use_nesterov=True)]),
    "KerasMomentum": dict(slots=[("accum", ANY)], scalars=dict(lr=0.25, momentum=0.75),
                          variants=[{}, dict(use_nesterov=True)]),
    "Adam": dict(slots=[("m", ANY), ("v", POS)],
                 scalars=dict(beta1_power=0.81, beta2_power=0.998, lr=0.125, beta1=0.9,
                              beta2=0.999, epsilon=1e-3),
                 variants=[{}, dict(use_nesterov=True)]),
    "AdamWithAmsgrad": dict(slots=[("m", ANY), ("v", POS), ("vhat", POS)],
                            scalars=dict(beta1_power=0.81, beta2_power=0.998, lr=0.125,
                                         beta1=0.9, beta2=0.999, epsilon=1e-3)),
    "AdaMax": dict(slots=[("m", ANY), ("v", POS)],
                   scalars=dict(beta1_power=0.81, lr=0.125, beta1=0.9, beta2=0.99,
                                epsilon=1e-3)),
    "Adagrad": dict(slots=[("accum", POS)], scalars=dict(lr=0.25),
                    variants=[{}, dict(update_slots=False)]),
    "AdagradV2": dict(slots=[("accum", POS)], scalars=dict(lr=0.25, epsilon=0.1),
                      variants=[{}, dict(update_slots=False)]),
    "AdagradDA": dict(slots=[("gradient_accumulator", ANY),
                             ("gradient_squared_accumulator", POS)],
                      scalars=dict(lr=0.25, l1=0.05, l2=0.1), step=3,
                      variants=[{}, dict(_l1=0.0)]),
    "Adadelta": dict(slots=[("accum", POS), ("accum_update", POS)],
                     scalars=dict(lr=1.0, rho=0.9, epsilon=1e-2)),
    "RMSProp": dict(slots=[("ms", POS), ("mom", ANY)],
                    scalars=dict(lr=0.125, rho=0.9, momentum=0.5, epsilon=1e-2)),
    "CenteredRMSProp": dict(slots=[("mg", (-0.5, 0.5)), ("ms", (1.0, 2.0)), ("mom", ANY)],
                            scalars=dict(lr=0.125, rho=0.9, momentum=0.5, epsilon=1e-2)),
    "Ftrl": dict(slots=[("accum", POS), ("linear", ANY)],
                 scalars=dict(lr=0.5, l1=0.1, l2=0.2, lr_power=-0.5),
                 variants=[{}, dict(multiply_linear_by_lr=True), dict(_lr_power=-0.75),
                           dict(multiply_linear_by_lr=True, _lr_power=-0.75)]),
    "FtrlV2": dict(slots=[("accum", POS), ("linear", ANY)],
                   scalars=dict(lr=0.5, l1=0.1, l2=0.2, l2_shrinkage=0.05, lr_power=-0.5),
                   variants=[{}, dict(multiply_linear_by_lr=True), dict(_lr_power=-0.75),
                             dict(multiply_linear_by_lr=True, _lr_power=-0.75)]),
    "ProximalAdagrad": dict(slots=[("accum", POS)], scalars=dict(lr=0.25, l1=0.05, l2=0.1),
                            variants=[{}, dict(_l1=0.0)]),
    "ProximalGradientDescent": dict(slots=[], scalars=dict(alpha=0.25, l1=0.05, l2=0.1),
                                    grad="delta", variants=[{}, dict(_l1=0.0)]),
    "AddSign": dict(slots=[("m", ANY)],
                    scalars=dict(lr=0.25, alpha=1.0, sign_decay=0.5, beta=0.9)),
    "PowerSign": dict(slots=[("m", ANY)],
                      scalars=dict(lr=0.25, logbase=0.6875, sign_decay=0.5, beta=0.9)),
}
DENSE = ["GradientDescent", "Momentum", "Adam", "AdaMax", "Adagrad", "AdagradV2", "AdagradDA",
         "Adadelta", "RMSProp", "CenteredRMSProp", "Ftrl", "FtrlV2", "ProximalAdagrad",
         "ProximalGradientDescent", "AddSign", "PowerSign"]
DENSE_RESOURCE_ONLY = ["KerasMomentum", "AdamWithAmsgrad"]
SPARSE = ["Momentum", "Adagrad", "AdagradV2", "AdagradDA", "Adadelta", "RMSProp",
          "CenteredRMSProp", "Ftrl", "FtrlV2", "ProximalAdagrad", "ProximalGradientDescent"]
SPARSE_RESOURCE_ONLY = ["KerasMomentum"]


def variant_name(v):
    return "_".join(k.lstrip("_") + ("" if val is True else str(val).replace(".", "p")
                                     .replace("-", "m"))
                    for k, val in sorted(v.items())) or "default"


def build_step(g, opt, dt, resource, sparse, shape, rows=None, ity=I32, variant=None,
               steps=2, hide=False, grad_shape=None, override=None, init=True, grad_values=None):
    """Makes the variables, runs `steps` chained steps of the op and returns the fetches."""
    spec = SPECS[opt]
    variant = variant or {}
    attrs = {k: v for k, v in variant.items() if not k.startswith("_")}
    scalars = dict(spec["scalars"])
    for k, v in variant.items():
        if k.startswith("_"):
            scalars[k[1:]] = v
    scalars.update(override or {})
    op = ("Resource" if resource else "") + ("SparseApply" if sparse else "Apply") + opt
    names = ["var"] + [s for s, _ in spec["slots"]]
    ranges = [(-2.0, 2.0)] + [r for _, r in spec["slots"]]
    vars_, inits = [], []
    for name, (lo, hi) in zip(names, ranges):
        value = g.rand(dt, shape, lo=lo, hi=hi, name=f"{name}_init")
        if resource:
            h = raw.VarHandleOp(dtype=dt, shape=list(shape), shared_name=name, name=name)
            if init:
                inits.append(raw.AssignVariableOp(resource=h, value=value, name=f"assign_{name}"))
        else:
            h = raw.VariableV2(shape=list(shape), dtype=dt, name=name)
            if init:
                inits.append(raw.Assign(ref=h, value=value, name=f"assign_{name}"))
        vars_.append(h)
    deps = inits
    out = None
    for step in range(steps):
        kw = dict(zip(names, vars_))
        for k, v in scalars.items():
            kw[k] = g.const(v, dt, name=f"{k}{step}")
        if "step" in spec:
            kw["global_step"] = g.const(spec["step"] + step, I64, name=f"global_step{step}")
        gshape = grad_shape or ([len(rows)] + list(shape[1:]) if sparse else list(shape))
        grad = g.rand(dt, gshape, name=f"grad{step}") if grad_values is None else \
            g.const(np.asarray(grad_values).reshape(gshape), dt, name=f"grad{step}")
        if hide:
            grad = hide_rank(grad)
        kw[spec.get("grad", "grad") if not sparse else "grad"] = grad
        if sparse:
            idx = g.const(rows, ity, name=f"indices{step}")
            kw["indices"] = hide_rank(idx) if hide else idx
        with tf.control_dependencies(deps):
            out = op_fn(op)(name=f"op{step}", **kw, **attrs)
        deps = [out.op if isinstance(out, tf.Tensor) else out]
    fetches = []
    with tf.control_dependencies(deps):
        if not resource:
            fetches.append(raw.Identity(input=out, name="out"))
        for name, h in zip(names, vars_):
            if resource:
                fetches.append(raw.ReadVariableOp(resource=h, dtype=dt, name=f"read_{name}"))
            elif name != "var":
                fetches.append(raw.Identity(input=h, name=f"read_{name}"))
    return fetches


def dense_cases(g, opt, forms):
    spec = SPECS[opt]
    for resource in forms:
        op = ("ResourceApply" if resource else "Apply") + opt
        for dt in DTYPES:
            for v in spec.get("variants", [{}]):
                g.case(f"{op}.{sgname(dt)}.{variant_name(v)}",
                       lambda: build_step(g, opt, dt, resource, False, [2, 3], variant=v))
        # One step of a rank-0 and of an empty variable; a gradient of another shape.
        g.case(f"{op}.float.scalar",
               lambda: build_step(g, opt, "float32", resource, False, [], steps=1))
        g.case(f"{op}.float.empty",
               lambda: build_step(g, opt, "float32", resource, False, [2, 0], steps=1))
        # Infinities, NaN, signed zeros in the gradient.
        g.case(f"{op}.float.special_grad",
               lambda: build_step(g, opt, "float32", resource, False, [16], steps=1,
                                  grad_values=special_values("float32")))
        g.case(f"{op}.float.grad_mismatch",
               lambda: build_step(g, opt, "float32", resource, False, [2, 3], steps=1,
                                  hide=True, grad_shape=[3, 2]), error=True)
        g.case(f"{op}.float.uninitialized",
               lambda: build_step(g, opt, "float32", resource, False, [2], steps=1,
                                  init=False), error=True)


def sparse_cases(g, opt, forms):
    spec = SPECS[opt]
    for resource in forms:
        op = ("ResourceSparseApply" if resource else "SparseApply") + opt
        for dt in DTYPES:
            for v in spec.get("variants", [{}]):
                # Row 2 twice: the two updates apply in order.
                g.case(f"{op}.{sgname(dt)}.{variant_name(v)}",
                       lambda: build_step(g, opt, dt, resource, True, [4, 3], rows=[2, 0, 2],
                                          variant=v))
        g.case(f"{op}.float.int64_indices",
               lambda: build_step(g, opt, "float32", resource, True, [5, 2], rows=[4, 1],
                                  ity=I64))
        g.case(f"{op}.double.vector",
               lambda: build_step(g, opt, "float64", resource, True, [5], rows=[3, 0, 3, 4]))
        g.case(f"{op}.float.rank3",
               lambda: build_step(g, opt, "float32", resource, True, [3, 2, 2], rows=[1],
                                  steps=1))
        g.case(f"{op}.float.no_indices",
               lambda: build_step(g, opt, "float32", resource, True, [3, 2], rows=[],
                                  steps=1))
        g.case(f"{op}.float.special_grad",
               lambda: build_step(g, opt, "float32", resource, True, [4, 4], rows=[3, 1, 3, 0],
                                  steps=1, grad_values=special_values("float32")))
        g.case(f"{op}.float.out_of_range",
               lambda: build_step(g, opt, "float32", resource, True, [4, 3], rows=[1, 4],
                                  steps=1, hide=True), error=True)
        g.case(f"{op}.float.negative_index",
               lambda: build_step(g, opt, "float32", resource, True, [4, 3], rows=[-1],
                                  ity=I64, steps=1, hide=True), error=True)
        g.case(f"{op}.float.grad_rows_mismatch",
               lambda: build_step(g, opt, "float32", resource, True, [4, 3], rows=[1, 2],
                                  grad_shape=[3, 3], steps=1, hide=True), error=True)
        g.case(f"{op}.float.grad_cols_mismatch",
               lambda: build_step(g, opt, "float32", resource, True, [4, 3], rows=[1, 2],
                                  grad_shape=[2, 2], steps=1, hide=True), error=True)
        g.case(f"{op}.float.uninitialized",
               lambda: build_step(g, opt, "float32", resource, True, [4, 3], rows=[1],
                                  steps=1, init=False), error=True)


@group
def training_dense(g):
    """Apply* and ResourceApply*: every dtype and attr variant, two chained steps."""
    for opt in DENSE:
        dense_cases(g, opt, [False, True])
    for opt in DENSE_RESOURCE_ONLY:
        dense_cases(g, opt, [True])
    # The values TensorFlow's CPU kernels reject.
    for resource in [False, True]:
        op = ("ResourceApply" if resource else "Apply") + "ProximalAdagrad"
        for bad in [dict(lr=0.0), dict(l1=-0.5), dict(l2=-0.5)]:
            g.case(f"{op}.float.bad_{variant_name(bad)}",
                   lambda: build_step(g, "ProximalAdagrad", "float32", resource, False, [2],
                                      steps=1, override=bad), error=True)
    # use_locking changes nothing but the locking.
    g.case("ApplyAdam.float.use_locking",
           lambda: build_step(g, "Adam", "float32", False, False, [2, 3],
                              variant=dict(use_locking=True)))
    g.case("ResourceApplyMomentum.float.use_locking",
           lambda: build_step(g, "Momentum", "float32", True, False, [2, 3],
                              variant=dict(use_locking=True)))


@group
def training_sparse(g):
    """SparseApply* and ResourceSparseApply*: every dtype and attr variant, duplicate rows."""
    for opt in SPARSE:
        sparse_cases(g, opt, [False, True])
    for opt in SPARSE_RESOURCE_ONLY:
        sparse_cases(g, opt, [True])
    for resource in [False, True]:
        for opt, bads in [("ProximalAdagrad", [dict(lr=-0.25), dict(l1=-0.5), dict(l2=-0.5)]),
                          ("Ftrl", [dict(lr=0.0), dict(l1=-0.5), dict(l2=-0.5),
                                    dict(lr_power=0.5)]),
                          ("FtrlV2", [dict(l2_shrinkage=-0.5)])]:
            op = ("ResourceSparseApply" if resource else "SparseApply") + opt
            for bad in bads:
                g.case(f"{op}.float.bad_{variant_name(bad)}",
                       lambda: build_step(g, opt, "float32", resource, True, [3, 2], rows=[1],
                                          steps=1, override=bad), error=True)
    g.case("SparseApplyAdagrad.float.use_locking",
           lambda: build_step(g, "Adagrad", "float32", False, True, [4, 3], rows=[2, 0, 2],
                              variant=dict(use_locking=True)))
    g.case("ResourceSparseApplyFtrl.float.use_locking",
           lambda: build_step(g, "Ftrl", "float32", True, True, [4, 3], rows=[2, 0, 2],
                              variant=dict(use_locking=True)))


@group
def training_slot_shapes(g):
    """A resource slot of another shape than the variable (of unknown shape to the graph: a ref
    one, or a known one, fails when the graph is built)."""
    F = "float32"

    def mismatch(sparse):
        var = raw.VarHandleOp(dtype=F, shape=tf.TensorShape(None), shared_name="var", name="var")
        accum = raw.VarHandleOp(dtype=F, shape=tf.TensorShape(None),
                                shared_name="accum", name="accum")
        inits = [raw.AssignVariableOp(resource=var, value=g.rand(F, [3, 2]), name="assign_var"),
                 raw.AssignVariableOp(resource=accum, value=g.rand(F, [2, 3], lo=0.5, hi=2),
                                      name="assign_accum")]
        with tf.control_dependencies(inits):
            if sparse:
                op = raw.ResourceSparseApplyAdagrad(var=var, accum=accum, lr=g.const(0.1, F),
                                                    grad=g.rand(F, [1, 2]),
                                                    indices=g.const([1], I32), name="op")
            else:
                op = raw.ResourceApplyAdagrad(var=var, accum=accum, lr=g.const(0.1, F),
                                              grad=g.rand(F, [3, 2]), name="op")
        with tf.control_dependencies([op]):
            return tf.constant(0, name="after")
    g.case("ResourceApplyAdagrad.float.slot_mismatch", lambda: mismatch(False), error=True)
    g.case("ResourceSparseApplyAdagrad.float.slot_mismatch", lambda: mismatch(True), error=True)
