"""Op conformance cases: Convolutions, pooling and batch normalization, in each data format."""

from op_case_lib import *  # noqa: F401,F403


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
    # Channel counts off oneDNN's blocks of 8 and 16 (float only).
    ("wide_stride2", [2, 9, 7, 17], [3, 3, 17, 24], [1, 2, 2, 1], "SAME", [1, 1, 1, 1], []),
    ("wide_valid", [1, 10, 9, 32], [3, 3, 32, 40], [1, 1, 1, 1], "VALID", [1, 1, 1, 1], []),
    ("wide_explicit", [1, 8, 9, 20], [2, 3, 20, 19], [1, 1, 1, 1], "EXPLICIT", [1, 1, 1, 1],
     [0, 0, 2, 1, 0, 2, 0, 0]),
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
    # Multiplier 1, as MobileNet's, on many channels.
    for sname, x, f, st, pad, dil, ex in CONV_CASES:
        if sname.startswith("wide"):
            f = f[:3] + [1]
            g.case(f"DepthwiseConv2dNative.float.{sname}_m1",
                   lambda: raw.DepthwiseConv2dNative(
                       input=g.rand("float32", x, lo=-2, hi=2),
                       filter=g.rand("float32", f, lo=-2, hi=2), strides=st, padding=pad,
                       dilations=dil, explicit_paddings=ex, name="op"))


POOL_CASES = [
    # name, input NHWC, ksize, strides, padding
    ("valid", [1, 5, 5, 2], [1, 2, 2, 1], [1, 2, 2, 1], "VALID"),
    ("same", [2, 5, 4, 3], [1, 3, 3, 1], [1, 2, 2, 1], "SAME"),
    ("overlap", [1, 4, 6, 1], [1, 3, 2, 1], [1, 1, 1, 1], "SAME"),
    ("global", [1, 3, 3, 2], [1, 3, 3, 1], [1, 1, 1, 1], "VALID"),
    ("empty_batch", [0, 4, 4, 1], [1, 2, 2, 1], [1, 2, 2, 1], "VALID"),
    ("wide", [2, 9, 11, 19], [1, 3, 3, 1], [1, 2, 2, 1], "SAME"),
    ("wide_valid", [1, 8, 9, 40], [1, 2, 3, 1], [1, 2, 3, 1], "VALID"),
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


def fused_matmul(g, dt, a, b, bias, fused_ops, transpose_a=False, transpose_b=False, alpha=0.2):
    """A _FusedMatMul node (TensorFlow's Python has no wrapper for it either)."""
    graph = tf.compat.v1.get_default_graph()
    av = attr_value_pb2.AttrValue
    lv = attr_value_pb2.AttrValue.ListValue
    a_ = {"T": av(type=tf.as_dtype(dt).as_datatype_enum), "num_args": av(i=1),
          "transpose_a": av(b=transpose_a), "transpose_b": av(b=transpose_b),
          "fused_ops": av(list=lv(s=[o.encode() for o in fused_ops])),
          "epsilon": av(f=0.0001), "leakyrelu_alpha": av(f=alpha)}
    return graph.create_op("_FusedMatMul", [a, b, bias], [tf.as_dtype(dt)], attrs=a_,
                           name="op").outputs[0]


FUSED_MATMUL_OPS = [["BiasAdd"], ["BiasAdd", "Relu"], ["BiasAdd", "Relu6"], ["BiasAdd", "Elu"],
                    ["BiasAdd", "LeakyRelu"], ["BiasAdd", "Tanh"], ["BiasAdd", "Sigmoid"]]


@group
def nn_fused_matmul(g):
    # name, a's shape, b's shape, transpose_a, transpose_b ("large" takes the threaded product)
    shapes = [("plain", [3, 5], [5, 4], False, False),
              ("transposed", [5, 3], [4, 5], True, True),
              ("large", [70, 64], [64, 80], False, False)]
    for dt in tf_types("_FusedMatMul"):
        rtol, atol = NARROW_TOL.get(dt, (None, None))
        for ops in FUSED_MATMUL_OPS:
            for sname, sa, sb, ta, tb in shapes:
                if (dt != "float32" or ops != ["BiasAdd", "Relu"]) and sname == "large":
                    continue
                if dt != "float32" and sname != "plain":
                    continue

                def build():
                    n = sb[0] if tb else sb[1]
                    return fused_matmul(g, dt, g.rand(dt, sa, lo=-2, hi=2),
                                        g.rand(dt, sb, lo=-1, hi=1), g.rand(dt, [n]), ops,
                                        transpose_a=ta, transpose_b=tb, alpha=0.3)
                g.case(f"FusedMatMul.{sgname(dt)}.{'_'.join(ops)}.{sname}", build, rtol=rtol,
                       atol=atol)
    for sname, ops in [("gelu", ["BiasAdd", "GeluExact"]), ("no_bias", ["Relu"])]:
        g.case(f"FusedMatMul.float.unsupported_{sname}",
               lambda: fused_matmul(g, "float32", g.rand("float32", [2, 3]),
                                    g.rand("float32", [3, 2]), g.rand("float32", [2]), ops),
               error=True)


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
                        (dt != "float32" or (ops not in (["BiasAdd"], ["FusedBatchNorm"]) and
                                             not sname.startswith("wide")))):
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
