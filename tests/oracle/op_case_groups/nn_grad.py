"""Op conformance cases: gradient ops of the neural-network family (activation and unary math
gradients, BiasAddGrad, L2Loss, sparse softmax cross entropy, BroadcastGradientArgs, pooling,
batch normalization and depthwise convolution gradients)."""

from op_case_lib import *  # noqa: F401,F403


ACT_GRADS = [
    # op, second input's name, its value range
    ("ReluGrad", "features", (-4, 4)),
    ("Relu6Grad", "features", (-2, 8)),
    ("EluGrad", "outputs", (-1, 4)),
    ("SeluGrad", "outputs", (-1.7, 4)),
    ("LeakyReluGrad", "features", (-4, 4)),
    ("SoftplusGrad", "features", (-4, 4)),
    ("SoftsignGrad", "features", (-4, 4)),
]

UNARY_GRADS = ["SigmoidGrad", "TanhGrad", "SqrtGrad", "RsqrtGrad", "ReciprocalGrad", "InvGrad"]


@group
def nn_grad_activation(g):
    for op, second, (lo, hi) in ACT_GRADS:
        for dt in tf_types(op):
            def build():
                grads = g.rand(dt, [3, 5], lo=-3, hi=3)
                x = g.vals(dt, [3, 5], lo=lo, hi=hi)
                if is_float(dt):
                    x.flat[:3] = [0, 6, -0.0]  # the boundaries of Relu and Relu6
                elif op == "Relu6Grad":
                    x.flat[:2] = [0, 6]
                return op_fn(op)(**{"gradients": grads, second: g.const(x, dt)}, name="op")
            g.case(f"{op}.{sgname(dt)}", build)
        g.case(f"{op}.float.shape_mismatch",
               lambda: op_fn(op)(**{"gradients": hide_shape(g.rand("float32", [2, 3])),
                                    second: hide_shape(g.rand("float32", [3, 2]))}, name="op"),
               error=True)
        g.case(f"{op}.float.empty",
               lambda: op_fn(op)(**{"gradients": g.rand("float32", [0, 3]),
                                    second: g.rand("float32", [0, 3])}, name="op"))
    g.case("LeakyReluGrad.float.alpha",
           lambda: raw.LeakyReluGrad(gradients=g.rand("float32", [7], lo=-3, hi=3),
                                     features=g.rand("float32", [7]), alpha=-1.5, name="op"))
    g.case("ReluGrad.float.special",
           lambda: raw.ReluGrad(gradients=g.const(special_values("float32")),
                                features=g.rand("float32", [16]), name="op"))


@group
def nn_grad_unary(g):
    for op in UNARY_GRADS:
        for dt in tf_types(op):
            def build():
                lo, hi = ((0.25, 2) if op in ("SqrtGrad", "RsqrtGrad", "ReciprocalGrad",
                                              "InvGrad") else (-1, 1))
                y = g.vals(dt, [4, 3], lo=lo, hi=hi, nonzero=True)
                dy = g.vals(dt, [4, 3], lo=-2, hi=2)
                dy.flat[0] = 0
                return op_fn(op)(y=g.const(y, dt), dy=g.const(dy, dt), name="op")
            g.case(f"{op}.{sgname(dt)}", build)
        # dy == 0 where y is 0 or inf: 0 for the mul_no_nan ops, NaN for the others.
        g.case(f"{op}.float.zero_dy",
               lambda: op_fn(op)(y=g.const([0.0, np.inf, 2.0, 0.0], "float32"),
                                 dy=g.const([0.0, 0.0, 0.0, 1.0], "float32"), name="op"))
        # TensorFlow's kernel checks the element counts only; the output has y's shape.
        g.case(f"{op}.float.reshaped",
               lambda: op_fn(op)(y=hide_shape(g.rand("float32", [2, 3], lo=0.5, hi=2)),
                                 dy=hide_shape(g.rand("float32", [6])), name="op"))
        g.case(f"{op}.float.size_mismatch",
               lambda: op_fn(op)(y=hide_shape(g.rand("float32", [2, 3], lo=0.5, hi=2)),
                                 dy=hide_shape(g.rand("float32", [5])), name="op"), error=True)


@group
def nn_grad_loss(g):
    for dt in tf_types("BiasAddGrad"):
        if is_complex(dt) or is_float(dt) or is_int(dt):
            g.case(f"BiasAddGrad.{sgname(dt)}",
                   lambda: raw.BiasAddGrad(out_backprop=g.rand(dt, [2, 3, 4], lo=-4, hi=4),
                                           name="op"))
    for fmt, shape in [("NHWC", [2, 3, 2, 5]), ("NCHW", [2, 5, 3, 2]), ("NCHW", [3, 4, 2]),
                       ("NHWC", [0, 3]), ("NCHW", [2, 3, 2, 2, 2])]:
        g.case(f"BiasAddGrad.float.{fmt.lower()}_{len(shape)}d_{shape[0]}",
               lambda: raw.BiasAddGrad(out_backprop=g.rand("float32", shape), data_format=fmt,
                                       name="op"))
    # A matrix in NCHW (the shape function wants rank 3; the kernel takes dim 1 as channels).
    g.case("BiasAddGrad.float.nchw_2d",
           lambda: raw.BiasAddGrad(out_backprop=hide_rank(g.rand("float32", [3, 4])),
                                   data_format="NCHW", name="op"))
    g.case("BiasAddGrad.half.nchw",
           lambda: raw.BiasAddGrad(out_backprop=g.rand("float16", [2, 3, 8, 4]),
                                   data_format="NCHW", name="op"))
    g.case("BiasAddGrad.int8.wrap",
           lambda: raw.BiasAddGrad(out_backprop=g.const(np.full([4, 2], 100), "int8"),
                                   name="op"))
    g.case("BiasAddGrad.float.rank1",
           lambda: raw.BiasAddGrad(out_backprop=hide_rank(g.rand("float32", [4])), name="op"),
           error=True)

    for dt in tf_types("L2Loss"):
        g.case(f"L2Loss.{sgname(dt)}",
               lambda: raw.L2Loss(t=g.rand(dt, [3, 4], lo=-2, hi=2), name="op"))
    g.case("L2Loss.float.scalar", lambda: raw.L2Loss(t=g.const(3.0, "float32"), name="op"))
    g.case("L2Loss.float.empty", lambda: raw.L2Loss(t=g.rand("float32", [0, 4]), name="op"))

    op = "SparseSoftmaxCrossEntropyWithLogits"
    for dt in tf_types(op):
        for lt in tf_types(op, "Tlabels"):
            g.case(f"{op}.{sgname(dt)}.{sgname(lt)}",
                   lambda: raw.SparseSoftmaxCrossEntropyWithLogits(
                       features=g.rand(dt, [4, 5], lo=-4, hi=4),
                       labels=g.const([0, 4, 2, 2], lt), name="op"))
    g.case(f"{op}.float.large_logits",
           lambda: raw.SparseSoftmaxCrossEntropyWithLogits(
               features=g.const([[1000.0, 0.0, -1000.0], [5.0, 5.0, 5.0]], "float32"),
               labels=g.const([2, 1], "int32"), name="op"))
    g.case(f"{op}.float.empty_batch",
           lambda: raw.SparseSoftmaxCrossEntropyWithLogits(
               features=g.rand("float32", [0, 3]), labels=g.const(np.zeros([0]), "int64"),
               name="op"))
    for sname, labels in [("label_too_big", [0, 3]), ("label_negative", [-1, 0])]:
        g.case(f"{op}.float.{sname}",
               lambda: raw.SparseSoftmaxCrossEntropyWithLogits(
                   features=g.rand("float32", [2, 3]), labels=g.const(labels, "int32"),
                   name="op"), error=True)
    g.case(f"{op}.float.batch_mismatch",
           lambda: raw.SparseSoftmaxCrossEntropyWithLogits(
               features=hide_shape(g.rand("float32", [2, 3])),
               labels=hide_shape(g.const([0, 1, 2], "int64")), name="op"), error=True)
    g.case(f"{op}.float.rank3",
           lambda: raw.SparseSoftmaxCrossEntropyWithLogits(
               features=hide_rank(g.rand("float32", [2, 3, 1])),
               labels=hide_rank(g.const([0, 1], "int64")), name="op"), error=True)

    # SoftmaxCrossEntropyWithLogits (already in sg): dtypes and broadcasting of the labels.
    op = "SoftmaxCrossEntropyWithLogits"
    for dt in tf_types(op):
        g.case(f"{op}.{sgname(dt)}.broadcast_labels",
               lambda: raw.SoftmaxCrossEntropyWithLogits(
                   features=g.rand(dt, [3, 4], lo=-3, hi=3),
                   labels=g.const([[0.25, 0.25, 0.5, 0.0]], dt), name="op"))

    for dt in tf_types("BroadcastGradientArgs"):
        for sname, s0, s1 in [("same", [2, 3], [2, 3]), ("row", [2, 3], [3]),
                              ("col", [2, 1], [1, 3]), ("ones", [1, 1, 4], [1, 4]),
                              ("scalar", [], [2, 3]), ("both_one", [2, 1], [2, 1]),
                              ("zero", [0, 1], [1, 5]), ("rank3", [4, 1, 3], [5, 1])]:
            g.case(f"BroadcastGradientArgs.{sgname(dt)}.{sname}",
                   lambda: raw.BroadcastGradientArgs(s0=g.const(np.array(s0, dtype=np.int64), dt),
                                                     s1=g.const(np.array(s1, dtype=np.int64), dt),
                                                     name="op"))
    g.case("BroadcastGradientArgs.int32.incompatible",
           lambda: raw.BroadcastGradientArgs(s0=g.const([2, 3], "int32"),
                                             s1=g.const([4], "int32"), name="op"), error=True)
    g.case("BroadcastGradientArgs.int32.not_vector",
           lambda: raw.BroadcastGradientArgs(s0=hide_rank(g.const([[2, 3]], "int32")),
                                             s1=g.const([3], "int32"), name="op"), error=True)


# ---- pooling -----------------------------------------------------------------------------------

def pool_geometry(n, k, s, pad):
    """Output size and leading padding along one dim, TensorFlow's arithmetic."""
    if pad == "VALID":
        return (n - k + s) // s, 0
    out = (n + s - 1) // s
    return out, max((out - 1) * s + k - n, 0) // 2


def np_max_pool(x, k, s, pad):
    """MaxPool of channels-last `x` (spatial window k, strides s) with TensorFlow's first-maximum
    argmax (flat within the image), as numpy arrays."""
    x = np.asarray(x)
    nd = x.ndim - 2
    geo = [pool_geometry(x.shape[1 + i], k[i], s[i], pad) for i in range(nd)]
    outs = [o for o, _ in geo]
    y = np.zeros([x.shape[0]] + outs + [x.shape[-1]], dtype=x.dtype)
    arg = np.zeros(y.shape, dtype=np.int64)
    for b in range(x.shape[0]):
        for o in np.ndindex(*outs):
            lo = [max(o[i] * s[i] - geo[i][1], 0) for i in range(nd)]
            hi = [min(o[i] * s[i] - geo[i][1] + k[i], x.shape[1 + i]) for i in range(nd)]
            for c in range(x.shape[-1]):
                best, where = None, -1
                for p in np.ndindex(*[h - l for l, h in zip(lo, hi)]):
                    q = tuple(l + d for l, d in zip(lo, p))
                    v = x[(b,) + q + (c,)]
                    if where < 0 or best < v:
                        best = v
                        where = int(np.ravel_multi_index(q + (c,), x.shape[1:]))
                y[(b,) + o + (c,)] = best
                arg[(b,) + o + (c,)] = where
    return y, arg


POOL_GRAD_CASES = [
    # name, input NHWC, ksize, strides, padding
    ("valid", [1, 4, 4, 2], [1, 2, 2, 1], [1, 2, 2, 1], "VALID"),
    ("same", [2, 5, 4, 2], [1, 3, 3, 1], [1, 2, 2, 1], "SAME"),
    ("overlap", [1, 4, 5, 1], [1, 3, 2, 1], [1, 1, 1, 1], "SAME"),
    ("stride_gt_k", [1, 7, 6, 1], [1, 2, 2, 1], [1, 3, 3, 1], "VALID"),
    ("big_window", [1, 3, 3, 2], [1, 4, 5, 1], [1, 1, 2, 1], "SAME"),
    ("empty_batch", [0, 4, 4, 1], [1, 2, 2, 1], [1, 2, 2, 1], "VALID"),
    # Windows that tile the input (stride = window, no padding), sg's own path for MaxPoolGrad:
    # a last row and column left out, 19 channels (off any vector width), a 3x2 window.
    ("tile_tail", [2, 7, 9, 19], [1, 2, 2, 1], [1, 2, 2, 1], "VALID"),
    ("tile_3x2", [1, 6, 7, 3], [1, 3, 2, 1], [1, 3, 2, 1], "VALID"),
]


def pool_input(g, dt, shape):
    """Values with many ties (whole numbers in [-3, 3]), so the tie-breaking shows."""
    return np.round(g.vals(dt, shape, lo=-3, hi=3).astype(np.float64)).astype(npdtype(dt))


@group
def nn_grad_maxpool(g):
    for op in ("MaxPoolGrad", "MaxPoolGradV2", "MaxPoolGradGrad", "MaxPoolGradGradV2"):
        v2 = op.endswith("V2")
        gradgrad = "GradGrad" in op
        for dt in tf_types(op):
            for sname, x, k, st, pad in POOL_GRAD_CASES:
                if dt != "float32" and sname != "same":
                    continue
                if v2 and sname not in ("same", "overlap"):
                    continue
                def build():
                    xv = pool_input(g, dt, x)
                    yv, _ = np_max_pool(xv, k[1:3], st[1:3], pad)
                    grad = g.rand(dt, x if gradgrad else yv.shape, lo=-4, hi=4)
                    args = dict(orig_input=g.const(xv, dt), orig_output=g.const(yv, dt),
                                grad=grad, padding=pad, name="op")
                    if v2:
                        args.update(ksize=g.const(k, "int32"), strides=g.const(st, "int32"))
                    else:
                        args.update(ksize=k, strides=st)
                    return op_fn(op)(**args)
                g.case(f"{op}.{sgname(dt)}.{sname}", build)
        # Errors: NCHW (TensorFlow's CPU kernels are NHWC only), a grad or orig_output of the
        # wrong shape.
        def bad(fmt="NHWC", grad_shape=None, out_shape=None):
            def build():
                x = [1, 4, 4, 1] if fmt == "NHWC" else [1, 1, 4, 4]
                k = [1, 2, 2, 1] if fmt == "NHWC" else [1, 1, 2, 2]
                y = out_shape or ([1, 2, 2, 1] if fmt == "NHWC" else [1, 1, 2, 2])
                gs = grad_shape or (x if gradgrad else y)
                args = dict(orig_input=hide_shape(g.rand("float32", x)),
                            orig_output=hide_shape(g.rand("float32", y)),
                            grad=hide_shape(g.rand("float32", gs)), padding="VALID",
                            data_format=fmt, name="op")
                if v2:
                    args.update(ksize=g.const(k, "int32"), strides=g.const(k, "int32"))
                else:
                    args.update(ksize=k, strides=k)
                return op_fn(op)(**args)
            return build
        g.case(f"{op}.float.nchw", bad(fmt="NCHW"), error=True)
        g.case(f"{op}.float.bad_grad", bad(grad_shape=[1, 3, 3, 1]), error=True)
        g.case(f"{op}.float.bad_orig_output", bad(out_shape=[1, 3, 2, 1]), error=True)
    # MaxPoolGrad with EXPLICIT padding.
    g.case("MaxPoolGrad.float.explicit",
           lambda: raw.MaxPoolGrad(
               orig_input=g.rand("float32", [1, 4, 4, 1]),
               orig_output=raw.MaxPool(input=g.rand("float32", [1, 4, 4, 1]), ksize=[1, 2, 2, 1],
                                       strides=[1, 2, 2, 1], padding="EXPLICIT",
                                       explicit_paddings=[0, 0, 1, 1, 0, 1, 0, 0]),
               grad=g.rand("float32", [1, 3, 2, 1]), ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1],
               padding="EXPLICIT", explicit_paddings=[0, 0, 1, 1, 0, 1, 0, 0], name="op"))
    g.case("MaxPoolGradV2.float.bad_ksize",
           lambda: raw.MaxPoolGradV2(
               orig_input=g.rand("float32", [1, 4, 4, 1]),
               orig_output=g.rand("float32", [1, 2, 2, 1]), grad=g.rand("float32", [1, 2, 2, 1]),
               ksize=hide_shape(g.const([1, 2, 2], "int32")),
               strides=g.const([1, 2, 2, 1], "int32"), padding="VALID", name="op"), error=True)

    op = "MaxPoolGradWithArgmax"
    for dt in tf_types(op):
        for sname, x, k, st, pad in POOL_GRAD_CASES:
            if dt != "float32" and sname != "same":
                continue
            for batch_index in ((False, True) if dt == "float32" else (False,)):
                def build():
                    xv = pool_input(g, dt, x)
                    yv, arg = np_max_pool(xv, k[1:3], st[1:3], pad)
                    if batch_index:
                        arg = arg + (np.arange(arg.shape[0]) * int(np.prod(x[1:]))).reshape(
                            [-1, 1, 1, 1])
                    return raw.MaxPoolGradWithArgmax(
                        input=g.const(xv, dt), grad=g.rand(dt, yv.shape, lo=-4, hi=4),
                        argmax=g.const(arg, "int64"), ksize=k, strides=st, padding=pad,
                        include_batch_in_index=batch_index, name="op")
                g.case(f"{op}.{sgname(dt)}.{sname}{'_batch' if batch_index else ''}", build)
    g.case(f"{op}.float.bad_grad",
           lambda: raw.MaxPoolGradWithArgmax(
               input=g.rand("float32", [1, 4, 4, 1]),
               grad=hide_shape(g.rand("float32", [1, 3, 3, 1])),
               argmax=hide_shape(g.const(np.zeros([1, 2, 2, 1]), "int64")), ksize=[1, 2, 2, 1],
               strides=[1, 2, 2, 1], padding="VALID", name="op"), error=True)
    g.case(f"{op}.float.bad_argmax",
           lambda: raw.MaxPoolGradWithArgmax(
               input=g.rand("float32", [1, 4, 4, 1]), grad=g.rand("float32", [1, 2, 2, 1]),
               argmax=hide_shape(g.const(np.zeros([1, 2, 1, 1]), "int64")), ksize=[1, 2, 2, 1],
               strides=[1, 2, 2, 1], padding="VALID", name="op"), error=True)
    # An argmax beyond the input makes TensorFlow's kernel abort the process (a CHECK), so it
    # has no case here; sg returns INVALID_ARGUMENT.


@group
def nn_grad_avgpool(g):
    op = "AvgPoolGrad"
    for dt in tf_types(op):
        for sname, x, k, st, pad in POOL_GRAD_CASES:
            if dt != "float32" and sname not in ("same", "overlap"):
                continue
            def build():
                out = [x[0]] + [pool_geometry(x[1 + i], k[1 + i], st[1 + i], pad)[0]
                                for i in range(2)] + [x[3]]
                return raw.AvgPoolGrad(orig_input_shape=g.const(x, "int32"),
                                       grad=g.rand(dt, out, lo=-4, hi=4), ksize=k, strides=st,
                                       padding=pad, name="op")
            g.case(f"{op}.{sgname(dt)}.{sname}", build)
    g.case(f"{op}.float.nchw",
           lambda: raw.AvgPoolGrad(orig_input_shape=g.const([1, 1, 4, 4], "int32"),
                                   grad=g.rand("float32", [1, 1, 2, 2]), ksize=[1, 1, 2, 2],
                                   strides=[1, 1, 2, 2], padding="VALID", data_format="NCHW",
                                   name="op"), error=True)
    g.case(f"{op}.float.negative_dim",
           lambda: raw.AvgPoolGrad(orig_input_shape=hide_shape(g.const([1, -4, 4, 1], "int32")),
                                   grad=g.rand("float32", [1, 2, 2, 1]), ksize=[1, 2, 2, 1],
                                   strides=[1, 2, 2, 1], padding="VALID", name="op"), error=True)
    g.case(f"{op}.float.shape_not_4",
           lambda: raw.AvgPoolGrad(orig_input_shape=hide_shape(g.const([1, 4, 4], "int32")),
                                   grad=g.rand("float32", [1, 2, 2, 1]), ksize=[1, 2, 2, 1],
                                   strides=[1, 2, 2, 1], padding="VALID", name="op"), error=True)
    # A grad with more windows than the input has: TensorFlow spreads the ones in range.
    g.case(f"{op}.float.grad_too_big",
           lambda: raw.AvgPoolGrad(orig_input_shape=g.const([1, 4, 4, 1], "int32"),
                                   grad=g.rand("float32", [1, 3, 3, 1]), ksize=[1, 2, 2, 1],
                                   strides=[1, 2, 2, 1], padding="VALID", name="op"))
    g.case(f"{op}.float.grad_far_too_big",
           lambda: raw.AvgPoolGrad(orig_input_shape=g.const([1, 4, 4, 1], "int32"),
                                   grad=g.rand("float32", [1, 4, 4, 1]), ksize=[1, 2, 2, 1],
                                   strides=[1, 2, 2, 1], padding="VALID", name="op"), error=True)


POOL3D_GRAD_CASES = [
    # name, input NDHWC, ksize, strides, padding
    ("valid", [1, 4, 4, 4, 2], [1, 2, 2, 2, 1], [1, 2, 2, 2, 1], "VALID"),
    ("same", [2, 3, 5, 4, 1], [1, 2, 3, 3, 1], [1, 1, 2, 2, 1], "SAME"),
    ("overlap", [1, 3, 4, 3, 1], [1, 2, 2, 2, 1], [1, 1, 1, 1, 1], "VALID"),
]


@group
def nn_grad_pool3d(g):
    for op in ("MaxPool3DGrad", "AvgPool3DGrad", "MaxPool3DGradGrad"):
        for dt in tf_types(op):
            for sname, x, k, st, pad in POOL3D_GRAD_CASES:
                if dt != "float32" and sname != "same":
                    continue
                def build():
                    xv = pool_input(g, dt, x)
                    yv, _ = np_max_pool(xv, k[1:4], st[1:4], pad)
                    if op == "AvgPool3DGrad":
                        return raw.AvgPool3DGrad(orig_input_shape=g.const(x, "int32"),
                                                 grad=g.rand(dt, yv.shape, lo=-4, hi=4),
                                                 ksize=k, strides=st, padding=pad, name="op")
                    grad = g.rand(dt, x if op == "MaxPool3DGradGrad" else yv.shape, lo=-4,
                                  hi=4)
                    return op_fn(op)(orig_input=g.const(xv, dt), orig_output=g.const(yv, dt),
                                     grad=grad, ksize=k, strides=st, padding=pad, name="op")
                g.case(f"{op}.{sgname(dt)}.{sname}", build)
        g.case(f"{op}.float.ncdhw",
               lambda: (raw.AvgPool3DGrad(orig_input_shape=g.const([1, 1, 4, 4, 4], "int32"),
                                          grad=g.rand("float32", [1, 1, 2, 2, 2]),
                                          ksize=[1, 1, 2, 2, 2], strides=[1, 1, 2, 2, 2],
                                          padding="VALID", data_format="NCDHW", name="op")
                        if op == "AvgPool3DGrad" else
                        op_fn(op)(orig_input=g.rand("float32", [1, 1, 4, 4, 4]),
                                  orig_output=g.rand("float32", [1, 1, 2, 2, 2]),
                                  grad=g.rand("float32", [1, 1, 2, 2, 2] if op == "MaxPool3DGrad"
                                              else [1, 1, 4, 4, 4]),
                                  ksize=[1, 1, 2, 2, 2], strides=[1, 1, 2, 2, 2],
                                  padding="VALID", data_format="NCDHW", name="op")),
               error=True)
    g.case("MaxPool3DGrad.float.bad_grad",
           lambda: raw.MaxPool3DGrad(orig_input=g.rand("float32", [1, 4, 4, 4, 1]),
                                     orig_output=g.rand("float32", [1, 2, 2, 2, 1]),
                                     grad=hide_shape(g.rand("float32", [1, 1, 2, 2, 1])),
                                     ksize=[1, 2, 2, 2, 1], strides=[1, 2, 2, 2, 1],
                                     padding="VALID", name="op"), error=True)
    g.case("MaxPool3DGradGrad.float.bad_orig_output",
           lambda: raw.MaxPool3DGradGrad(orig_input=g.rand("float32", [1, 4, 4, 4, 1]),
                                         orig_output=hide_shape(g.rand("float32", [1, 1, 2, 2, 1])),
                                         grad=g.rand("float32", [1, 4, 4, 4, 1]),
                                         ksize=[1, 2, 2, 2, 1], strides=[1, 2, 2, 2, 1],
                                         padding="VALID", name="op"), error=True)
    g.case("AvgPool3DGrad.float.batch_mismatch",
           lambda: raw.AvgPool3DGrad(orig_input_shape=g.const([2, 4, 4, 4, 1], "int32"),
                                     grad=g.rand("float32", [1, 2, 2, 2, 1]),
                                     ksize=[1, 2, 2, 2, 1], strides=[1, 2, 2, 2, 1],
                                     padding="VALID", name="op"), error=True)
    # MaxPool3DGrad gives the gradient to every element within 1e-5 of the maximum.
    g.case("MaxPool3DGrad.float.near_ties",
           lambda: raw.MaxPool3DGrad(
               orig_input=g.const(np.array([1.0, 1.000001, 0.99, 1.0, 0.5, 1.00002, 0.2, 1.0],
                                           dtype=np.float32).reshape([1, 2, 2, 2, 1])),
               orig_output=g.const(np.array([1.00002], dtype=np.float32).reshape([1, 1, 1, 1, 1])),
               grad=g.const(np.array([3.0], dtype=np.float32).reshape([1, 1, 1, 1, 1])),
               ksize=[1, 2, 2, 2, 1], strides=[1, 2, 2, 2, 1], padding="VALID", name="op"))


# ---- batch normalization -----------------------------------------------------------------------

@group
def nn_grad_batch_norm(g):
    for op in ("FusedBatchNormGrad", "FusedBatchNormGradV2", "FusedBatchNormGradV3"):
        for dt in tf_types(op):
            variants = [("train", True, "NHWC"), ("infer", False, "NHWC")]
            if dt == "float32":
                variants += [("train_nchw", True, "NCHW"), ("infer_nchw", False, "NCHW"),
                             ("train_empty", True, "NHWC")]
                if op == "FusedBatchNormGradV3":
                    variants += [("train_ndhwc", True, "NDHWC"), ("infer_ndhwc", False, "NDHWC"),
                                 ("train_ncdhw", True, "NCDHW"), ("infer_ncdhw", False, "NCDHW")]
            for sname, training, fmt in variants:
                def build():
                    c = 3
                    shape = {"NHWC": [2, 3, 2, c], "NCHW": [2, c, 3, 2],
                             "NDHWC": [2, 2, 2, 2, c], "NCDHW": [2, c, 2, 2, 2]}[fmt]
                    if sname.endswith("empty"):
                        shape = [0, 3, 2, c]
                    xv = g.vals(dt, shape, lo=-2, hi=2)
                    axes = tuple(i for i in range(len(shape))
                                 if i != (len(shape) - 1 if fmt.endswith("C") else 1))
                    if training and xv.size:
                        mean = xv.astype(np.float64).mean(axis=axes)
                        var = xv.astype(np.float64).var(axis=axes)
                    else:
                        mean = g.vals("float32", [c], lo=-1, hi=1)
                        var = g.vals("float32", [c], lo=0.25, hi=2)
                    stat = "float32"
                    args = dict(y_backprop=g.rand(dt, shape, lo=-2, hi=2), x=g.const(xv, dt),
                                scale=g.rand(stat, [c], lo=-2, hi=2),
                                reserve_space_1=g.const(mean, stat),
                                reserve_space_2=g.const(var, stat), epsilon=0.001,
                                data_format=fmt, is_training=training, name="op")
                    if op == "FusedBatchNormGradV3":
                        args["reserve_space_3"] = g.rand(stat, [c])
                    return list(op_fn(op)(**args))
                # TensorFlow's CPU kernel takes channels-first layouts in training only.
                g.case(f"{op}.{sgname(dt)}.{sname}", build,
                       error=not training and fmt.startswith("NC"))
        extra = op == "FusedBatchNormGradV3"
        def bad(x_shape, dy_shape, c):
            def build():
                args = dict(y_backprop=hide_shape(g.rand("float32", dy_shape)),
                            x=hide_shape(g.rand("float32", x_shape)),
                            scale=hide_shape(g.rand("float32", [c])),
                            reserve_space_1=hide_shape(g.rand("float32", [c])),
                            reserve_space_2=hide_shape(g.rand("float32", [c], lo=0.5, hi=1)),
                            name="op")
                if extra:
                    args["reserve_space_3"] = g.rand("float32", [c])
                return list(op_fn(op)(**args))[:3]
            return build
        g.case(f"{op}.float.shape_mismatch", bad([1, 2, 2, 3], [1, 2, 3, 3], 3), error=True)
        g.case(f"{op}.float.bad_channels", bad([1, 2, 2, 3], [1, 2, 2, 3], 2), error=True)

    for dt in tf_types("BatchNormWithGlobalNormalizationGrad", universe=FLOATS):
        if dt == "bfloat16":
            continue  # TensorFlow's CPU kernel: float, double and half
        for scale in (True, False):
            if dt != "float32" and not scale:
                continue

            def build():
                c = 3
                t = g.rand(dt, [2, 3, 2, c], name="t")
                m = g.rand(dt, [c], name="m")
                v = g.rand(dt, [c], lo=0.25, hi=2, name="v")
                gamma = g.rand(dt, [c], name="gamma")
                bp = g.rand(dt, [2, 3, 2, c], lo=-2, hi=2, name="backprop")
                r = tf.math.rsqrt(v + tf.constant(0.001, dt))
                db = tf.reduce_sum(bp, [0, 1, 2])
                s2 = tf.reduce_sum(bp * (t - m), [0, 1, 2])
                mul = r * gamma if scale else r
                dx = bp * mul
                dm = -db * mul
                dg = s2 * r if scale else tf.zeros_like(db)
                cube = r * tf.square(r) * tf.constant(-0.5, dt)
                dv = s2 * (cube * gamma if scale else cube)
                return tf.identity_n([dx, dm, dv, db, dg], name="op")
            tol = 1e-2 if dt == "float16" else 1e-5
            g.case(f"BatchNormWithGlobalNormalizationGrad.{sgname(dt)}."
                   + ("scaled" if scale else "unscaled"), build, atol=tol, rtol=tol,
                   edit=bngn_grad_edit(0.001, scale))


def bngn_grad_edit(eps, scale):
    """Makes the stored IdentityN node `op` (over the formula TensorFlow ran) a
    BatchNormWithGlobalNormalizationGrad of the case's t, m, v, gamma and backprop: TensorFlow 2.21
    refuses to run that op (deprecated at GraphDef version 9)."""
    def edit(gdef, case):
        for n in gdef.node:
            if n.name == f"{case}/op":
                dt = n.attr["T"].list.type[0]
                n.op = "BatchNormWithGlobalNormalizationGrad"
                del n.input[:]
                n.input.extend(f"{case}/{x}" for x in ("t", "m", "v", "gamma", "backprop"))
                n.attr.clear()
                n.attr["T"].type = dt
                n.attr["variance_epsilon"].f = eps
                n.attr["scale_after_normalization"].b = scale
    return edit


# ---- depthwise convolution and LRN -------------------------------------------------------------

def window_out_size(n, k, s, pad, before=0, after=0):
    if pad == "EXPLICIT":
        return (n + before + after - k + s) // s
    return pool_geometry(n, k, s, pad)[0]


DEPTHWISE_GRAD_CASES = [
    # name, input NHWC, filter [KH, KW, C, M], stride, padding, explicit paddings
    ("valid", [1, 5, 5, 2], [3, 3, 2, 2], 1, "VALID", []),
    ("same", [2, 5, 4, 3], [3, 3, 3, 2], 1, "SAME", []),
    ("stride2_same", [1, 6, 5, 2], [3, 2, 2, 1], 2, "SAME", []),
    ("stride2_valid", [1, 7, 6, 1], [2, 3, 1, 3], 2, "VALID", []),
    ("explicit", [1, 4, 4, 2], [3, 3, 2, 1], 1, "EXPLICIT", [0, 0, 1, 2, 2, 0, 0, 0]),
    ("empty_batch", [0, 4, 4, 2], [3, 3, 2, 2], 1, "SAME", []),
]


@group
def nn_grad_depthwise(g):
    for op in ("DepthwiseConv2dNativeBackpropInput", "DepthwiseConv2dNativeBackpropFilter"):
        for dt in tf_types(op):
            for sname, x, f, st, pad, ex in DEPTHWISE_GRAD_CASES:
                if dt != "float32" and sname not in ("same", "stride2_valid"):
                    continue
                def build():
                    out = [x[0]] + [window_out_size(x[1 + i], f[i], st, pad,
                                                    *(ex[2 + 2 * i:4 + 2 * i] or [0, 0]))
                                    for i in range(2)] + [f[2] * f[3]]
                    dy = g.rand(dt, out, lo=-2, hi=2)
                    common = dict(strides=[1, st, st, 1], padding=pad, explicit_paddings=ex,
                                  name="op")
                    if op.endswith("Input"):
                        return raw.DepthwiseConv2dNativeBackpropInput(
                            input_sizes=g.const(x, "int32"), filter=g.rand(dt, f, lo=-2, hi=2),
                            out_backprop=dy, **common)
                    return raw.DepthwiseConv2dNativeBackpropFilter(
                        input=g.rand(dt, x, lo=-2, hi=2), filter_sizes=g.const(f, "int32"),
                        out_backprop=dy, **common)
                if sname == "empty_batch" and op.endswith("Filter"):
                    continue  # TensorFlow leaves the filter gradient uninitialized (sg: zeros)
                # TensorFlow's half and bfloat16 kernels sum in their own type (sg in float):
                # bfloat16 sums of ~20 terms land up to ~0.1 from the float sum.
                tol = {"float16": (2e-2, 2e-2), "bfloat16": (2e-2, 0.1)}.get(dt, (None, None))
                g.case(f"{op}.{sgname(dt)}.{sname}", build, rtol=tol[0], atol=tol[1])

        def variant(fmt="NHWC", strides=(1, 1, 1, 1), dilations=(1, 1, 1, 1), dy_shape=None,
                    depth=2):
            def build():
                x = [1, 5, 5, 2] if fmt == "NHWC" else [1, 2, 5, 5]
                f = [3, 3, depth, 2]
                dy = dy_shape or ([1, 5, 5, 4] if fmt == "NHWC" else [1, 4, 5, 5])
                common = dict(strides=list(strides), padding="SAME", data_format=fmt,
                              dilations=list(dilations), name="op")
                if op.endswith("Input"):
                    return raw.DepthwiseConv2dNativeBackpropInput(
                        input_sizes=g.const(x, "int32"),
                        filter=hide_shape(g.rand("float32", f)),
                        out_backprop=hide_shape(g.rand("float32", dy)), **common)
                return raw.DepthwiseConv2dNativeBackpropFilter(
                    input=hide_shape(g.rand("float32", x)), filter_sizes=g.const(f, "int32"),
                    out_backprop=hide_shape(g.rand("float32", dy)), **common)
            return build
        g.case(f"{op}.float.nchw", variant(fmt="NCHW"), error=True)
        g.case(f"{op}.float.unequal_strides", variant(strides=(1, 1, 2, 1)), error=True)
        g.case(f"{op}.float.bad_rows", variant(dy_shape=[1, 4, 5, 4]), error=True)
        g.case(f"{op}.float.bad_depth", variant(dy_shape=[1, 5, 5, 3]), error=True)
        if op.endswith("Input"):
            g.case(f"{op}.float.filter_depth", variant(depth=3), error=True)
        # TensorFlow's CPU kernels ignore the dilations (the undilated gradient).
        g.case(f"{op}.float.dilations_ignored", variant(dilations=(1, 2, 2, 1)))


@group
def nn_grad_lrn(g):
    for dt in tf_types("LRNGrad"):
        for sname, r, bias, alpha, beta in [("default", 5, 1.0, 1.0, 0.5),
                                            ("r2", 2, 2.0, 1e-1, 0.75), ("r0", 0, 1.0, 0.5, 1.0),
                                            ("wide", 9, 1.5, 0.2, 0.6)]:
            if dt != "float32" and sname != "r2":
                continue
            def build():
                x = g.rand(dt, [2, 2, 3, 7], lo=-2, hi=2)
                y = raw.LRN(input=x, depth_radius=r, bias=bias, alpha=alpha, beta=beta)
                return raw.LRNGrad(input_grads=g.rand(dt, [2, 2, 3, 7], lo=-2, hi=2),
                                   input_image=x, output_image=y, depth_radius=r, bias=bias,
                                   alpha=alpha, beta=beta, name="op")
            # TensorFlow's half kernel computes in half.
            tol = 1e-2 if dt == "float16" else None
            g.case(f"LRNGrad.{sgname(dt)}.{sname}", build, rtol=tol, atol=tol)
    g.case("LRNGrad.float.shape_mismatch",
           lambda: raw.LRNGrad(input_grads=hide_shape(g.rand("float32", [1, 2, 2, 3])),
                               input_image=hide_shape(g.rand("float32", [1, 2, 2, 4])),
                               output_image=hide_shape(g.rand("float32", [1, 2, 2, 3])),
                               name="op"), error=True)
    g.case("LRNGrad.float.rank3",
           lambda: raw.LRNGrad(input_grads=hide_rank(g.rand("float32", [2, 2, 3])),
                               input_image=hide_rank(g.rand("float32", [2, 2, 3])),
                               output_image=hide_rank(g.rand("float32", [2, 2, 3])),
                               name="op"), error=True)
