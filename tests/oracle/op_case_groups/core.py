"""Op conformance cases: Const, Identity and the ops every graph has; logging ops."""

from op_case_lib import *  # noqa: F401,F403


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
