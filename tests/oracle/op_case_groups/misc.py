"""Op conformance cases: Internal ops, v1 readers and savers, DynamicStitch."""

from op_case_lib import *  # noqa: F401,F403
from op_case_groups.io_parsing import SAVE_DTYPES, prefix_placeholder


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
