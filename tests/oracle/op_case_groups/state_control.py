"""Op conformance cases: Ref and resource variables, v1 control flow, functions, _Send/_Recv."""

from op_case_lib import *  # noqa: F401,F403


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
