"""Op conformance cases: File I/O, Print, tf.Example parsing and summaries."""

from op_case_lib import *  # noqa: F401,F403


SAVE_DTYPES = ["float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64",
               "uint8", "uint16", "uint32", "uint64", "bool", "string", "complex64",
               "complex128"]


def prefix_placeholder(g, path, name="prefix"):
    p = raw.Placeholder(dtype="string", shape=[], name=name)
    g.feed(p, np.array(path.encode(), dtype=object))
    return p


@group
def io(g):
    for dt in SAVE_DTYPES:
        def save_restore():
            prefix = prefix_placeholder(g, "${TMP}/ckpt")
            x = g.rand(dt, [2, 3])
            s = raw.SaveV2(prefix=prefix, tensor_names=g.const([b"x", b"y"], "string"),
                           shape_and_slices=g.const([b"", b""], "string"),
                           tensors=[x, g.rand(dt, [])], name="save")
            with tf.control_dependencies([s]):
                return list(raw.RestoreV2(prefix=prefix,
                                          tensor_names=g.const([b"y", b"x"], "string"),
                                          shape_and_slices=g.const([b"", b""], "string"),
                                          dtypes=[dt, dt], name="op"))
        g.case(f"RestoreV2.{sgname(dt)}.round_trip", save_restore)
    def restore_slice():
        prefix = prefix_placeholder(g, "${TMP}/ckpt")
        s = raw.SaveV2(prefix=prefix, tensor_names=g.const([b"x"], "string"),
                       shape_and_slices=g.const([b""], "string"),
                       tensors=[g.rand("float32", [4, 3])], name="save")
        with tf.control_dependencies([s]):
            return list(raw.RestoreV2(prefix=prefix, tensor_names=g.const([b"x"], "string"),
                                      shape_and_slices=g.const([b"4 3 1,2:-"], "string"),
                                      dtypes=["float32"], name="op"))
    g.case("RestoreV2.float.slice", restore_slice)
    def restore_missing():
        prefix = prefix_placeholder(g, "${TMP}/ckpt")
        s = raw.SaveV2(prefix=prefix, tensor_names=g.const([b"x"], "string"),
                       shape_and_slices=g.const([b""], "string"),
                       tensors=[g.rand("float32", [2])], name="save")
        with tf.control_dependencies([s]):
            return list(raw.RestoreV2(prefix=prefix, tensor_names=g.const([b"nope"], "string"),
                                      shape_and_slices=g.const([b""], "string"),
                                      dtypes=["float32"], name="op"))
    g.case("RestoreV2.float.missing_tensor", restore_missing, error=True)
    def merge():
        pa = prefix_placeholder(g, "${TMP}/part_a", "prefix_a")
        pb = prefix_placeholder(g, "${TMP}/part_b", "prefix_b")
        pm = prefix_placeholder(g, "${TMP}/merged", "prefix_m")
        sa = raw.SaveV2(prefix=pa, tensor_names=g.const([b"a"], "string"),
                        shape_and_slices=g.const([b""], "string"),
                        tensors=[g.rand("float32", [3])], name="save_a")
        sb = raw.SaveV2(prefix=pb, tensor_names=g.const([b"b", b"c"], "string"),
                        shape_and_slices=g.const([b"", b""], "string"),
                        tensors=[g.rand("int64", [2, 2]), g.rand("string", [2])], name="save_b")
        with tf.control_dependencies([sa, sb]):
            m = raw.MergeV2Checkpoints(checkpoint_prefixes=raw.Pack(values=[pa, pb]),
                                       destination_prefix=pm, name="op")
        with tf.control_dependencies([m]):
            return list(raw.RestoreV2(prefix=pm, tensor_names=g.const([b"c", b"a", b"b"],
                                                                      "string"),
                                      shape_and_slices=g.const([b"", b"", b""], "string"),
                                      dtypes=["string", "float32", "int64"], name="restore"))
    g.case("MergeV2Checkpoints.none.save_merge_restore", merge)
    for sname, base, shard, num in [("first", b"model", 0, 3), ("last", b"/a/b/ckpt", 2, 3),
                                    ("big", b"x_temp/part", 12345, 99999)]:
        g.case(f"ShardedFilename.string.{sname}",
               lambda: raw.ShardedFilename(basename=g.const(base, "string"),
                                           shard=g.const(shard, "int32"),
                                           num_shards=g.const(num, "int32"), name="op"))
    for sname, base, num in [("three", b"model", 3), ("one", b"/tmp/x", 1)]:
        g.case(f"ShardedFilespec.string.{sname}",
               lambda: raw.ShardedFilespec(basename=g.const(base, "string"),
                                           num_shards=g.const(num, "int32"), name="op"))


def example(**features):
    from tensorflow.core.example import example_pb2, feature_pb2
    ex = example_pb2.Example()
    for k, v in features.items():
        f = ex.features.feature[k]
        if isinstance(v, list) and v and isinstance(v[0], bytes):
            f.bytes_list.value.extend(v)
        elif isinstance(v, list) and v and isinstance(v[0], float):
            f.float_list.value.extend(v)
        elif isinstance(v, list):
            f.int64_list.value.extend(v)
    return ex.SerializeToString(deterministic=True)


@group
def logging_print(g):
    for dt in UNIVERSE:
        g.case(f"Print.{sgname(dt)}.data",
               lambda: raw.Print(input=g.rand(dt, [2, 3]),
                                 data=[g.rand(dt, [4]), g.rand("string", [2])],
                                 message="sg conformance: ", summarize=2, name="op"))
    g.case("Print.float.no_data",
           lambda: raw.Print(input=g.rand("float32", []), data=[], name="op"))
    g.case("Print.int32.first_n",
           lambda: raw.Print(input=g.rand("int32", [0, 2]), data=[g.rand("int64", [3, 3])],
                             first_n=1, summarize=-1, name="op"))

    def print_v2(stream, end="\n", value=b"sg conformance: PrintV2"):
        def build():
            s = g.const(value, "string")
            return [raw.PrintV2(input=s, output_stream=stream, end=end, name="op"), s]
        return build
    for stream in ("stderr", "stdout", "log(info)", "log(warning)", "log(error)"):
        g.case(f"PrintV2.none.{stream.replace('(', '_').replace(')', '')}", print_v2(stream))
    g.case("PrintV2.none.end", print_v2("stderr", end=" <end>\n"))
    g.case("PrintV2.none.bad_stream", print_v2("nowhere"), error=True)

    def print_v2_vector():
        s = g.const([b"a", b"b"], "string")
        return [raw.PrintV2(input=hide_rank(s), name="op"), s]
    g.case("PrintV2.none.vector", print_v2_vector, error=True)
    g.case("Timestamp.none.now",
           lambda: Out(raw.Timestamp(name="op"), check="range", lo=1.7e9, hi=1e10))


@group
def parsing(g):
    exs = [example(age=[31], score=[0.5, 1.5], name=[b"ann"], tags=[b"a", b"b"], ids=[7, 8, 9]),
           example(age=[40], name=[b"bob"], ids=[]),
           example(score=[2.0, -1.0], tags=[b"c"])]
    def v1(serialized, with_names=True):
        return list(raw.ParseExample(
            serialized=g.const(serialized, "string"),
            names=g.const([b"e%d" % i for i in range(len(serialized))] if with_names else [],
                          "string"),
            sparse_keys=[g.const(b"ids", "string"), g.const(b"tags", "string")],
            dense_keys=[g.const(b"age", "string"), g.const(b"name", "string"),
                        g.const(b"score", "string")],
            dense_defaults=[g.const([-1], "int64"), g.const([b"?"], "string"),
                            g.const([0.0, 0.0], "float32")],
            sparse_types=["int64", "string"], dense_shapes=[[1], [1], [2]], name="op"))
    g.case("ParseExample.none.dense_sparse", lambda: v1(exs))
    g.case("ParseExample.none.no_names", lambda: v1(exs[:2], False))
    g.case("ParseExample.none.empty_batch", lambda: v1(np.zeros([0], dtype=object), False))
    g.case("ParseExample.none.bad_shape",
           lambda: v1([example(age=[1, 2], score=[1.0, 2.0])], False), error=True)
    g.case("ParseExample.none.missing_required",
           lambda: list(raw.ParseExample(
               serialized=g.const([example(age=[1])], "string"), names=g.const([], "string"),
               sparse_keys=[], dense_keys=[g.const(b"score", "string")],
               dense_defaults=[g.const(np.zeros([0], np.float32), "float32")],
               sparse_types=[], dense_shapes=[[2]], name="op")), error=True)
    def v2(serialized, ragged=False):
        return list(raw.ParseExampleV2(
            serialized=g.const(serialized, "string"), names=g.const([], "string"),
            sparse_keys=g.const([b"ids"], "string"),
            dense_keys=g.const([b"age", b"score", b"tags"], "string"),
            ragged_keys=g.const([b"name"] if ragged else np.zeros([0], object), "string"),
            dense_defaults=[g.const([0], "int64"), g.const([9.0, 9.0], "float32"),
                            g.const(b"", "string")],
            num_sparse=1, sparse_types=["int64"],
            ragged_value_types=["string"] if ragged else [],
            ragged_split_types=["int64"] if ragged else [],
            dense_shapes=[[1], [2], [None]], name="op"))
    g.case("ParseExampleV2.none.dense_sparse_varlen", lambda: v2(exs))
    g.case("ParseExampleV2.none.scalar_input", lambda: v2(exs[0]))
    g.case("ParseExampleV2.none.ragged", lambda: v2(exs, ragged=True))


@group
def parsing_single(g):
    exs = [example(age=[31], score=[0.5, 1.5], name=[b"ann"], tags=[b"a", b"b"], ids=[7, 8, 9]),
           example(age=[40], name=[b"bob"], ids=[]),
           example(score=[2.0, -1.0], tags=[b"c"]),
           example()]

    def single(serialized, dense_shapes=([1], [2], [None]), defaults=None):
        defaults = defaults or [g.const([0], "int64"), g.const([9.0, 9.0], "float32"),
                                g.const(b"", "string")]
        return list(raw.ParseSingleExample(
            serialized=g.const(serialized, "string"), dense_defaults=defaults, num_sparse=2,
            sparse_keys=["ids", "name"], dense_keys=["age", "score", "tags"],
            sparse_types=["int64", "string"], dense_shapes=list(dense_shapes), name="op"))
    for i, ex in enumerate(exs):
        g.case(f"ParseSingleExample.none.example{i}", lambda: single(ex))
    g.case("ParseSingleExample.none.matrix_default",
           lambda: list(raw.ParseSingleExample(
               serialized=g.const(exs[1], "string"),
               dense_defaults=[g.const([[1.0, 2.0], [3.0, 4.0]], "float32")], num_sparse=0,
               sparse_keys=[], dense_keys=["score"], sparse_types=[], dense_shapes=[[2, 2]],
               name="op")))
    g.case("ParseSingleExample.none.missing_required",
           lambda: single(exs[1], defaults=[g.const([0], "int64"),
                                            g.const(np.zeros([0], np.float32), "float32"),
                                            g.const(b"", "string")]), error=True)
    g.case("ParseSingleExample.none.wrong_count",
           lambda: single(example(age=[1, 2])), error=True)
    g.case("ParseSingleExample.none.wrong_type",
           lambda: single(example(age=[1.5])), error=True)
    g.case("ParseSingleExample.none.not_a_proto",
           lambda: single(b"\x0a\x05ab"), error=True)
    g.case("ParseSingleExample.none.vector_input",
           lambda: list(raw.ParseSingleExample(
               serialized=hide_rank(g.const([exs[0]], "string")),
               dense_defaults=[g.const([0], "int64")], num_sparse=0, sparse_keys=[],
               dense_keys=["age"], sparse_types=[], dense_shapes=[[1]], name="op")), error=True)


@group
def summaries(g):
    from tensorflow.core.framework import summary_pb2
    meta = summary_pb2.SummaryMetadata(
        plugin_data=summary_pb2.SummaryMetadata.PluginData(plugin_name="scalars",
                                                            content=b"\x08\x01"),
        display_name="shown", summary_description="about it").SerializeToString()
    for dt, tensor in [("float32", lambda: g.rand("float32", [2, 3], lo=-10, hi=10)),
                       ("int64", lambda: g.const([[1, -2], [3, 4]], "int64")),
                       ("bool", lambda: g.const([True, False, True], "bool")),
                       ("string", lambda: g.const([b"a", b"", b"ccc"], "string")),
                       ("float64", lambda: g.const(np.zeros([0, 2], np.float64))),
                       ("int32", lambda: g.const(np.int32(7)))]:
        g.case(f"TensorSummaryV2.{sgname(dt)}.metadata",
               lambda tensor=tensor: raw.TensorSummaryV2(
                   tag=g.const(b"weights", "string"), tensor=tensor(),
                   serialized_summary_metadata=g.const(meta, "string"), name="op"))
        g.case(f"TensorSummary.{sgname(dt)}.attrs",
               lambda tensor=tensor: raw.TensorSummary(
                   tensor=tensor(), description="what it is", labels=["x", "y"],
                   display_name="a name", name="op"))
    g.case("TensorSummaryV2.float.empty_metadata",
           lambda: raw.TensorSummaryV2(tag=g.const(b"t", "string"),
                                       tensor=g.const([1.5], "float32"),
                                       serialized_summary_metadata=g.const(b"", "string"),
                                       name="op"))
    g.case("TensorSummary.float.defaults",
           lambda: raw.TensorSummary(tensor=g.const([1.5, 2.5], "float32"), name="op"))
    g.case("TensorSummaryV2.float.tag_not_scalar",
           lambda: raw.TensorSummaryV2(tag=hide_rank(g.const([b"a", b"b"], "string")),
                                       tensor=g.const([1.5], "float32"),
                                       serialized_summary_metadata=g.const(b"", "string"),
                                       name="op"), error=True)
    g.case("TensorSummaryV2.float.metadata_not_scalar",
           lambda: raw.TensorSummaryV2(tag=g.const(b"t", "string"),
                                       tensor=g.const([1.5], "float32"),
                                       serialized_summary_metadata=hide_rank(
                                           g.const([b"", b""], "string")),
                                       name="op"), error=True)
    real = tf_types("ScalarSummary")
    for dt in real:
        g.case(f"ScalarSummary.{sgname(dt)}.vector",
               lambda: raw.ScalarSummary(tags=g.const([b"loss", b"acc", b"lr"], "string"),
                                         values=g.rand(dt, [3], lo=-100, hi=100), name="op"))
        g.case(f"HistogramSummary.{sgname(dt)}.matrix",
               lambda: raw.HistogramSummary(tag=g.const(b"weights", "string"),
                                            values=g.rand(dt, [4, 5], lo=-100, hi=100),
                                            name="op"))
    g.case("ScalarSummary.float.scalar",
           lambda: raw.ScalarSummary(tags=g.const(b"x", "string"),
                                     values=g.const(np.float32(2.5)), name="op"))
    g.case("ScalarSummary.float.special",
           lambda: raw.ScalarSummary(tags=g.const([[b"a", b"b"], [b"c", b"d"]], "string"),
                                     values=g.const([[np.nan, np.inf], [-0.0, 1e-30]],
                                                    "float32"), name="op"))
    g.case("ScalarSummary.double.rounded",
           lambda: raw.ScalarSummary(tags=g.const([b"a"], "string"),
                                     values=g.const([0.1], "float64"), name="op"))
    g.case("ScalarSummary.float.empty",
           lambda: raw.ScalarSummary(tags=g.const(np.zeros([0], object), "string"),
                                     values=g.const(np.zeros([0], np.float32)), name="op"))
    g.case("ScalarSummary.float.shape_mismatch",
           lambda: raw.ScalarSummary(tags=hide_rank(g.const([b"a", b"b"], "string")),
                                     values=g.const([1.0, 2.0, 3.0], "float32"), name="op"),
           error=True)
    for sname, vals in [("edges", [0.0, -0.0, 1e-12, -1e-12, 1.1e-12, 5e-13, 1e20, -1e21, 1.0,
                                   1.0, 2.0, 1e300]),
                        ("tiny", [1e-300, -1e-300, 0.0]),
                        ("wide", np.linspace(-1e6, 1e6, 37)),
                        ("one", [3.0])]:
        g.case(f"HistogramSummary.double.{sname}",
               lambda: raw.HistogramSummary(tag=g.const(b"h", "string"),
                                            values=g.const(np.array(vals, np.float64), "float64"),
                                            name="op"))
    g.case("HistogramSummary.float.empty",
           lambda: raw.HistogramSummary(tag=g.const(b"none", "string"),
                                        values=g.const(np.zeros([0, 3], np.float32)), name="op"))
    g.case("HistogramSummary.float.default_type",
           lambda: raw.HistogramSummary(tag=g.const(b"h", "string"),
                                        values=g.const([1.5, -2.5], "float32"), name="op"))
    for sname, v in [("nan", np.nan), ("inf", np.inf)]:
        g.case(f"HistogramSummary.float.{sname}",
               lambda: raw.HistogramSummary(tag=g.const(b"bad", "string"),
                                            values=g.const([1.0, v], "float32"), name="op"),
               error=True)

    def scalar(tag, v):
        return raw.ScalarSummary(tags=g.const(tag, "string"), values=g.const(np.float32(v)))

    def hist(tag):
        return raw.HistogramSummary(tag=g.const(tag, "string"),
                                    values=g.const([1.0, 2.0, 2.5], "float32"))
    g.case("MergeSummary.none.three",
           lambda: raw.MergeSummary(inputs=[scalar(b"a", 1.0), hist(b"h"),
                                            tf.stack([scalar(b"b", 2.0), scalar(b"c", 3.0)])],
                                    name="op"))
    g.case("MergeSummary.none.one",
           lambda: raw.MergeSummary(inputs=[scalar(b"a", 1.0)], name="op"))
    g.case("MergeSummary.none.empty_inputs",
           lambda: raw.MergeSummary(inputs=[g.const(np.zeros([0], object), "string"),
                                            g.const(b"", "string")], name="op"))
    g.case("MergeSummary.none.duplicate_tag",
           lambda: raw.MergeSummary(inputs=[scalar(b"a", 1.0), scalar(b"a", 2.0)], name="op"),
           error=True)
    g.case("MergeSummary.none.not_a_summary",
           lambda: raw.MergeSummary(inputs=[g.const(b"\x0a\x05ab", "string")], name="op"),
           error=True)
    rate = lambda r=16000: g.const(np.int32(r))  # noqa: E731
    for sname, shape in [("stereo", [5, 2]), ("mono", [7, 1]), ("no_frames", [0, 3])]:
        g.case(f"EncodeWav.float.{sname}",
               lambda: raw.EncodeWav(audio=g.rand("float32", shape, lo=-1.5, hi=1.5),
                                     sample_rate=rate(), name="op"))
    g.case("EncodeWav.float.rounding",
           lambda: raw.EncodeWav(audio=g.const([[0.5, -1.5], [1.0, -1.0], [2e-5, -2e-5],
                                                [1.5 / 32768, -1.5 / 32768],
                                                [0.5 / 32768, -0.5 / 32768]], "float32"),
                                 sample_rate=rate(8000), name="op"))
    for sname, shape, r in [("no_channels", [3, 0], 16000), ("zero_rate", [3, 1], 0),
                            ("negative_rate", [3, 1], -5)]:
        g.case(f"EncodeWav.float.{sname}",
               lambda: raw.EncodeWav(audio=g.rand("float32", shape), sample_rate=rate(r),
                                     name="op"), error=True)
    g.case("EncodeWav.float.vector",
           lambda: raw.EncodeWav(audio=hide_rank(g.rand("float32", [3])), sample_rate=rate(),
                                 name="op"), error=True)


def sequence_example(context=None, lists=None):
    """A serialized tf.SequenceExample: context {key: values}, lists {key: [step values]}, the
    kind of each (bytes, float or int64) read from its first value."""
    from tensorflow.core.example import example_pb2

    def fill(f, v):
        if v and isinstance(v[0], bytes):
            f.bytes_list.value.extend(v)
        elif v and isinstance(v[0], float):
            f.float_list.value.extend(v)
        elif v:
            f.int64_list.value.extend(v)
    ex = example_pb2.SequenceExample()
    for k, v in (context or {}).items():
        fill(ex.context.feature[k], v)
    for k, steps in (lists or {}).items():
        fl = ex.feature_lists.feature_list[k]
        for v in steps:
            fill(fl.feature.add(), v)
    return ex.SerializeToString(deterministic=True)


@group
def parsing_sequence(g):
    seqs = [sequence_example({"len": [3], "lang": [b"en"], "nums": [5, 6]},
                             {"tok": [[1.0, 0.5], [2.0, 1.5], [3.0, 2.5]],
                              "ids": [[1, 2], [], [3]], "words": [[b"a"], [b"b"], [b"c"]],
                              "spf": [[0.25], [], [1.0, 2.0], [3.0]],
                              "words2": [[b"p", b"q"], [b"r"]]}),
            sequence_example({"len": [1], "nums": [7]},
                             {"tok": [[4.0, 4.5]], "words": [[b"z"]]}),
            sequence_example({}, {"tok": []}),
            sequence_example()]

    def single(ser, missing=(b"words",), defaults=None, name=b"ex"):
        defaults = defaults if defaults is not None else [g.const([0], "int64")]
        k = lambda s: g.const(s, "string")  # noqa: E731
        return list(raw.ParseSingleSequenceExample(
            serialized=g.const(ser, "string"),
            feature_list_dense_missing_assumed_empty=g.const(list(missing) or
                                                             np.zeros([0], object), "string"),
            context_sparse_keys=[k(b"lang")], context_dense_keys=[k(b"len")],
            feature_list_sparse_keys=[k(b"ids")],
            feature_list_dense_keys=[k(b"tok"), k(b"words")],
            context_dense_defaults=defaults, debug_name=g.const(name, "string"),
            context_sparse_types=["string"], feature_list_dense_types=["float32", "string"],
            context_dense_shapes=[[1]], feature_list_sparse_types=["int64"],
            feature_list_dense_shapes=[[2], [1]], name="op"))
    for i, ser in enumerate(seqs[:3]):
        g.case(f"ParseSingleSequenceExample.none.example{i}", lambda: single(ser))
    g.case("ParseSingleSequenceExample.none.missing_list",
           lambda: single(seqs[2], missing=()), error=True)
    g.case("ParseSingleSequenceExample.none.missing_context",
           lambda: single(seqs[3], defaults=[g.const(np.zeros([0], np.int64), "int64")]),
           error=True)
    g.case("ParseSingleSequenceExample.none.wrong_step_size",
           lambda: single(sequence_example({"len": [1]}, {"tok": [[1.0]], "words": [[b"a"]]})),
           error=True)
    g.case("ParseSingleSequenceExample.none.wrong_type",
           lambda: single(sequence_example({"len": [1]}, {"tok": [[1, 2]]})), error=True)
    g.case("ParseSingleSequenceExample.none.not_a_proto",
           lambda: single(b"\x0a\x05ab"), error=True)

    def batch(sers, missing=("tok", "words", "x"), names=True):
        return list(raw.ParseSequenceExample(
            serialized=g.const(sers, "string"),
            debug_name=g.const([b"e%d" % i for i in range(len(sers))] if names else
                               np.zeros([0], object), "string"),
            context_dense_defaults=[g.const([-1], "int64")],
            feature_list_dense_missing_assumed_empty=list(missing),
            context_sparse_keys=["lang"], context_dense_keys=["len"],
            feature_list_sparse_keys=["ids", "spf"], feature_list_dense_keys=["tok", "words", "x"],
            Ncontext_sparse=1, Ncontext_dense=1, Nfeature_list_sparse=2, Nfeature_list_dense=3,
            context_sparse_types=["string"], feature_list_dense_types=["float32", "string",
                                                                       "int64"],
            context_dense_shapes=[[1]], feature_list_sparse_types=["int64", "float32"],
            feature_list_dense_shapes=[[2], [1], [2, 2]], name="op"))
    g.case("ParseSequenceExample.none.batch", lambda: batch(seqs))
    g.case("ParseSequenceExample.none.no_names", lambda: batch(seqs[:2], names=False))
    g.case("ParseSequenceExample.none.one", lambda: batch(seqs[1:2]))
    g.case("ParseSequenceExample.none.empty_batch",
           lambda: batch(np.zeros([0], object), names=False))
    g.case("ParseSequenceExample.none.missing_list",
           lambda: batch(seqs, missing=("x",)), error=True)
    g.case("ParseSequenceExample.none.wrong_step_size",
           lambda: batch([sequence_example({}, {"tok": [[1.0, 2.0, 3.0]]})]), error=True)
    def v2(sers, ragged=True, split="int64", missing=(True, True, True), names=True):
        n = lambda v: g.const(list(v) if v else np.zeros([0], object), "string")  # noqa: E731
        return list(raw.ParseSequenceExampleV2(
            serialized=g.const(sers, "string"),
            debug_name=(g.const([b"e%d" % i for i in range(len(sers))], "string")
                        if names and not isinstance(sers, bytes) else n([])),
            context_sparse_keys=n([b"lang"]), context_dense_keys=n([b"len"]),
            context_ragged_keys=n([b"nums"] if ragged else []),
            feature_list_sparse_keys=n([b"ids"]),
            feature_list_dense_keys=n([b"tok", b"words", b"x"]),
            feature_list_ragged_keys=n([b"spf", b"words2"] if ragged else []),
            feature_list_dense_missing_assumed_empty=g.const(list(missing), "bool"),
            context_dense_defaults=[g.const([-1], "int64")], Ncontext_sparse=1,
            context_sparse_types=["string"],
            context_ragged_value_types=["int64"] if ragged else [],
            context_ragged_split_types=[split] if ragged else [],
            context_dense_shapes=[[1]], Nfeature_list_sparse=1, Nfeature_list_dense=3,
            feature_list_dense_types=["float32", "string", "int64"],
            feature_list_sparse_types=["int64"],
            feature_list_ragged_value_types=["float32", "string"] if ragged else [],
            feature_list_ragged_split_types=[split, split] if ragged else [],
            feature_list_dense_shapes=[[2], [1], [2, 2]], name="op"))
    for split in ("int32", "int64"):
        g.case(f"ParseSequenceExampleV2.{split}.batch", lambda: v2(seqs, split=split))
    g.case("ParseSequenceExampleV2.none.no_names", lambda: v2(seqs[:2], names=False))
    g.case("ParseSequenceExampleV2.none.empty_batch",
           lambda: v2(np.zeros([0], object), names=False))
    g.case("ParseSequenceExampleV2.none.scalar", lambda: v2(seqs[0], ragged=False))
    g.case("ParseSequenceExampleV2.none.missing_list",
           lambda: v2(seqs, missing=(True, False, True)), error=True)
    g.case("ParseSequenceExampleV2.none.wrong_type",
           lambda: v2([sequence_example({}, {"spf": [[1, 2]]})]), error=True)
    g.case("ParseSequenceExample.none.dense_and_sparse",
           lambda: list(raw.ParseSequenceExample(
               serialized=g.const(seqs[:1], "string"), debug_name=g.const([b"e"], "string"),
               context_dense_defaults=[], feature_list_dense_missing_assumed_empty=[],
               context_sparse_keys=[], context_dense_keys=[], feature_list_sparse_keys=["tok"],
               feature_list_dense_keys=["tok"], Nfeature_list_sparse=1, Nfeature_list_dense=1,
               feature_list_dense_types=["float32"], feature_list_sparse_types=["float32"],
               feature_list_dense_shapes=[[2]], name="op")), error=True)
