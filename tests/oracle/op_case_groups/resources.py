"""Op conformance cases: Lookup tables, TensorArrays, queues, stacks, session tensors and functional ops."""

from op_case_lib import *  # noqa: F401,F403


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
        i = raw.InitializeTableV2(table_handle=h, keys=hide_rank(g.const([k3], S)),
                                  values=hide_rank(g.const([v3], I64)), name="init")
        return find_and_size(g, h, [i], [b"a"], -1, S, I64)
    g.case("InitializeTableV2.int64.keys_matrix", init_matrix, error=True)
    def init_lengths():
        h = raw.HashTableV2(key_dtype=S, value_dtype=I64, shared_name="t", name="table")
        i = raw.InitializeTableV2(table_handle=h, keys=hide_rank(g.const(k3, S)),
                                  values=hide_rank(g.const([1], I64)), name="init")
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
    for out_type in ("int32", "int64"):
        def variable_shape(out_type=out_type):
            h = raw.VarHandleOp(dtype="float32", shape=[2, 3], shared_name="vs", name="v")
            a = raw.AssignVariableOp(resource=h, value=g.rand("float32", [2, 3]), name="assign")
            with tf.control_dependencies([a]):
                return raw.VariableShape(input=h, out_type=out_type, name="op")
        g.case(f"VariableShape.{out_type}", variable_shape)
