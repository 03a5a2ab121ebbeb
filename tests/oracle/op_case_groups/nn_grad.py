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
