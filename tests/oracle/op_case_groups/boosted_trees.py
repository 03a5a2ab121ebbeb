"""Op conformance cases: the BoostedTrees quantile ops (TF Lite's Flex allowlist has ten).

TensorFlow 2.21 registers these ops but no kernels for them (nor does any TensorFlow since 2.10),
so this group is written by TensorFlow 2.8, the last release with them (ORACLE below, the venv
of setup_venv_tf28.sh); make_op_cases.py skips it under 2.21. The ten OpDefs are the same in 2.8
and 2.21.
Cases that would crash that TensorFlow (a summary not [n, 4], lists longer than the streams,
epsilon >= 1, or <= 0 in MakeQuantileSummaries, a generate_quantiles flush of an empty stream,
num_buckets 0 or 1) are not here; sg returns INVALID_ARGUMENT for them, or for num_buckets 0
and 1 the minimum and maximum (tests/core/boosted_trees_ops_test.cc). How 2.8.4's boundaries
differ from the sources we have: README.md."""

from op_case_lib import *  # noqa: F401,F403

ORACLE = ("2.8.", "setup_venv_tf28.sh")

F = "float32"


def handle(name="q"):
    return raw.BoostedTreesQuantileStreamResourceHandleOp(container="", shared_name=name,
                                                          name="handle")


def create(g, h, eps, num_streams, max_elements=None, name="create"):
    kw = {} if max_elements is None else {"max_elements": max_elements}
    return raw.BoostedTreesCreateQuantileStreamResource(
        quantile_stream_resource_handle=h, epsilon=g.const(eps, F),
        num_streams=g.const(num_streams, "int64"), name=name, **kw)


def summaries(g, features, weights, eps, name="summaries"):
    return raw.BoostedTreesMakeQuantileSummaries(
        float_values=[g.const(f, F) for f in features], example_weights=g.const(weights, F),
        epsilon=g.const(eps, F), name=name)


def chain(ops_fns):
    """Runs each fn under control dependencies on the previous op; returns the last result."""
    prev = None
    for fn in ops_fns:
        if prev is None:
            prev = fn()
        else:
            with tf.control_dependencies([prev] if not isinstance(prev, list) else prev):
                prev = fn()
    return prev


def after(op, g):
    with tf.control_dependencies([op]):
        return raw.Identity(input=g.const(1, "int32"), name="out")


def feature_values(g, n, kind):
    if kind == "grid":  # 1/64 steps in [-4, 4): many equal values
        return g.vals(F, [n])
    if kind == "normal":
        return g.rng.standard_normal(n).astype(np.float32) * 3
    if kind == "few":  # a handful of distinct values
        return g.rng.integers(0, 5, n).astype(np.float32)
    raise ValueError(kind)


def example_weights(g, n, kind):
    if kind == "one":
        return [1.0]
    if kind == "scalar":
        return [2.5]
    if kind == "mixed":  # zero and negative weights are ignored
        w = np.round(g.rng.uniform(0, 3, n) * 16) / 16
        w[g.rng.random(n) < 0.15] = 0
        w[g.rng.random(n) < 0.05] = -1
        return w.astype(np.float32)
    raise ValueError(kind)


def pipeline(g, eps, num_buckets, feats, weights, batches=1, generate_quantiles=False,
             max_elements=None, flush_summaries=False):
    """Create -> (MakeQuantileSummaries -> AddSummaries) x batches -> Flush -> GetBoundaries."""
    nf = len(feats)
    h = handle()
    steps = [lambda: create(g, h, eps, nf, max_elements)]
    for b in range(batches):
        def add(b=b):
            fs = [f[b::batches] for f in feats]
            ws = weights if len(weights) == 1 else weights[b::batches]
            s = summaries(g, fs, ws, eps, name=f"summaries{b}")
            return raw.BoostedTreesQuantileStreamResourceAddSummaries(
                quantile_stream_resource_handle=h, summaries=s, name=f"add{b}")
        steps.append(add)
    if flush_summaries:
        steps.append(lambda: raw.BoostedTreesFlushQuantileSummaries(
            quantile_stream_resource_handle=h, num_features=nf, name="flush_summaries"))
        return chain(steps)
    steps.append(lambda: raw.BoostedTreesQuantileStreamResourceFlush(
        quantile_stream_resource_handle=h, num_buckets=g.const(num_buckets, "int64"),
        generate_quantiles=generate_quantiles, name="flush"))
    steps.append(lambda: raw.BoostedTreesQuantileStreamResourceGetBucketBoundaries(
        quantile_stream_resource_handle=h, num_features=nf, name="boundaries"))
    return chain(steps)


@group(oracle=ORACLE)
def boosted_trees(g):
    MQS = "BoostedTreesMakeQuantileSummaries"
    # ---- MakeQuantileSummaries ----------------------------------------------------------------
    g.case(f"{MQS}.float.exact", lambda: summaries(
        g, [[3, 1, 2, 5, 4, 1, 7, 0.5, 2, 9]], [1.0], 0.01))
    g.case(f"{MQS}.float.empty", lambda: summaries(g, [np.zeros([0], np.float32)], [1.0], 0.1))
    g.case(f"{MQS}.float.empty_weights", lambda: summaries(
        g, [np.zeros([0], np.float32)], np.zeros([0], np.float32), 0.1))
    g.case(f"{MQS}.float.special", lambda: summaries(
        g, [[np.inf, -np.inf, 0.0, -0.0, 1e30, -1e-30, 2.0, 2.0]], [1.0], 0.1))
    for eps in (0.001, 0.01, 0.05, 0.2, 0.6):
        for n, kind, wkind in ((50, "grid", "one"), (300, "normal", "mixed"),
                               (1000, "few", "scalar")):
            def build(eps=eps, n=n, kind=kind, wkind=wkind):
                feats = [feature_values(g, n, kind), feature_values(g, n, "normal")]
                return summaries(g, feats, example_weights(g, n, wkind), eps)
            g.case(f"{MQS}.float.eps{eps}_{n}_{kind}_{wkind}", build)
    g.case(f"{MQS}.float.bad_weights", lambda: summaries(
        g, [[1, 2, 3, 4]], [1.0, 2.0], 0.1), error=True)
    # The feature below hides its shape: TensorFlow's kernel reads it flat.
    g.case(f"{MQS}.float.matrix_values", lambda: raw.BoostedTreesMakeQuantileSummaries(
        float_values=[hide_rank(g.const([[1, 5], [3, 2]], F))], example_weights=g.const([1.0], F),
        epsilon=g.const(0.1, F)))

    # ---- Bucketize ----------------------------------------------------------------------------
    BKT = "BoostedTreesBucketize"
    def bucketize(values, bounds):
        return raw.BoostedTreesBucketize(float_values=[g.const(v, F) for v in values],
                                         bucket_boundaries=[g.const(b, F) for b in bounds])
    g.case(f"{BKT}.float.on_boundaries", lambda: bucketize(
        [[-5, 0, 0.5, 1, 1.5, 2, 3, 3.5, 4, 10]], [[0, 1, 2, 3, 4]]))
    g.case(f"{BKT}.float.two_features", lambda: bucketize(
        [[-1, 0.25, 7, 100], [5, 6, -7, 0]], [[0.25, 7], [-7, -1, 0, 5, 5.5, 6]]))
    g.case(f"{BKT}.float.no_boundaries", lambda: bucketize([[1, 2, 3], [4, 5, 6]],
                                                           [[1, 2], np.zeros([0])]))
    g.case(f"{BKT}.float.one_boundary", lambda: bucketize([[-1, 1, 2]], [[1]]))
    g.case(f"{BKT}.float.special", lambda: bucketize(
        [[np.nan, np.inf, -np.inf, -0.0, 0.0]], [[-1, 0, 1]]))
    g.case(f"{BKT}.float.empty", lambda: bucketize([np.zeros([0])], [[1, 2]]))
    def bucketize_random():
        vals = [feature_values(g, 40, "grid"), feature_values(g, 40, "normal")]
        bounds = [np.sort(feature_values(g, 9, "grid")), np.sort(feature_values(g, 3, "normal"))]
        return bucketize(vals, bounds)
    g.case(f"{BKT}.float.random", bucketize_random)
    g.case(f"{BKT}.float.matrix_boundaries", lambda: raw.BoostedTreesBucketize(
        float_values=[g.const([1, 2], F)], bucket_boundaries=[hide_rank(g.const([[1, 2]], F))]),
        error=True)

    # ---- the resource ------------------------------------------------------------------------
    # Boundaries (generate_quantiles false) and quantiles of the same streams.
    FLUSH = "BoostedTreesQuantileStreamResourceFlush"
    for eps, nb, n, batches, kind, wkind in (
            (0.01, 10, 100, 1, "grid", "one"),
            (0.01, 4, 500, 3, "normal", "mixed"),
            (0.05, 20, 2000, 5, "normal", "mixed"),
            (0.1, 5, 300, 2, "few", "scalar"),
            (0.2, 100, 1000, 4, "grid", "mixed"),
            (0.001, 7, 600, 6, "normal", "one")):
        def build(eps=eps, nb=nb, n=n, batches=batches, kind=kind, wkind=wkind):
            feats = [feature_values(g, n, kind), feature_values(g, n, "normal")]
            return pipeline(g, eps, nb, feats, example_weights(g, n, wkind), batches)
        g.case(f"{FLUSH}.float.eps{eps}_buckets{nb}_{n}x{batches}_{kind}_{wkind}", build)
        def quantiles(eps=eps, nb=nb, n=n, batches=batches, kind=kind, wkind=wkind):
            feats = [feature_values(g, n, kind)]
            return pipeline(g, eps, max(nb, 3), feats, example_weights(g, n, wkind), batches,
                            generate_quantiles=True)
        g.case(f"{FLUSH}.float.quantiles_eps{eps}_buckets{max(nb, 3)}_{n}x{batches}_{kind}",
               quantiles)
    # Larger streams, where the prune to num_buckets drops several entries.
    for nb in (2, 3, 37):
        def prune(nb=nb):
            n = 3000
            feats = [feature_values(g, n, "normal"), feature_values(g, n, "few")]
            return pipeline(g, 0.02, nb, feats, example_weights(g, n, "mixed"), batches=3)
        g.case(f"{FLUSH}.float.prune_buckets{nb}", prune)
    def small_max_elements():  # a tiny max_elements: many levels
        feats = [feature_values(g, 400, "normal")]
        return pipeline(g, 0.05, 8, feats, [1.0], batches=8, max_elements=64,
                        generate_quantiles=True)
    g.case(f"{FLUSH}.float.max_elements64", small_max_elements)
    def tf_unit_test():  # the data of TensorFlow's quantile_ops_test
        feats = [[1.2, 12.1, 0.3, 0.5, 0.6, 2.2], [2.3, 1.2, 1.1, 2.6, 3.2, 0.8]]
        return pipeline(g, 0.01, 3, feats, [10, 1, 1, 1, 1, 1], max_elements=1 << 16)
    g.case(f"{FLUSH}.float.tf_unit_test", tf_unit_test)
    # num_buckets 0 and 1 crash TensorFlow 2.8 (sg: as 2, the minimum and the maximum); a
    # negative one does not.
    def negative_buckets():
        return pipeline(g, 0.1, -1, [feature_values(g, 50, "normal")], [1.0])
    g.case(f"{FLUSH}.float.negative_buckets", negative_buckets)
    def no_summaries():  # flush with nothing added: no boundaries
        h = handle()
        return chain([lambda: create(g, h, 0.1, 2),
                      lambda: raw.BoostedTreesQuantileStreamResourceFlush(
                          quantile_stream_resource_handle=h, num_buckets=g.const(5, "int64")),
                      lambda: raw.BoostedTreesQuantileStreamResourceGetBucketBoundaries(
                          quantile_stream_resource_handle=h, num_features=2)])
    g.case(f"{FLUSH}.float.no_summaries", no_summaries)
    def flush_twice():  # the second flush finds fresh streams
        h = handle()
        s = summaries(g, [feature_values(g, 30, "normal")], [1.0], 0.1)
        def flush(name, quantiles):  # quantiles of an empty stream would crash TensorFlow
            return raw.BoostedTreesQuantileStreamResourceFlush(
                quantile_stream_resource_handle=h, num_buckets=g.const(5, "int64"),
                generate_quantiles=quantiles, name=name)
        def get(name):
            return raw.BoostedTreesQuantileStreamResourceGetBucketBoundaries(
                quantile_stream_resource_handle=h, num_features=1, name=name)
        first = chain([lambda: create(g, h, 0.1, 1),
                       lambda: raw.BoostedTreesQuantileStreamResourceAddSummaries(
                           quantile_stream_resource_handle=h, summaries=s),
                       lambda: flush("flush1", True), lambda: get("get1")])
        second = chain([lambda: first, lambda: flush("flush2", False), lambda: get("get2")])
        return first + second
    g.case(f"{FLUSH}.float.flush_twice", flush_twice)
    def add_after_flush():  # summaries added after a flush start a new stream
        h = handle()
        s1 = summaries(g, [feature_values(g, 30, "normal")], [1.0], 0.1, name="s1")
        s2 = summaries(g, [feature_values(g, 30, "normal") + 10], [1.0], 0.1, name="s2")
        return chain([lambda: create(g, h, 0.1, 1),
                      lambda: raw.BoostedTreesQuantileStreamResourceAddSummaries(
                          quantile_stream_resource_handle=h, summaries=s1, name="add1"),
                      lambda: raw.BoostedTreesQuantileStreamResourceFlush(
                          quantile_stream_resource_handle=h, num_buckets=g.const(4, "int64"),
                          generate_quantiles=True, name="flush1"),
                      lambda: raw.BoostedTreesQuantileStreamResourceAddSummaries(
                          quantile_stream_resource_handle=h, summaries=s2, name="add2"),
                      lambda: raw.BoostedTreesQuantileStreamResourceFlush(
                          quantile_stream_resource_handle=h, num_buckets=g.const(4, "int64"),
                          generate_quantiles=True, name="flush2"),
                      lambda: raw.BoostedTreesQuantileStreamResourceGetBucketBoundaries(
                          quantile_stream_resource_handle=h, num_features=1)])
    g.case(f"{FLUSH}.float.add_after_flush", add_after_flush)
    def create_twice():  # the second create finds the resource and changes nothing
        h = handle()
        s = summaries(g, [feature_values(g, 100, "normal")], [1.0], 0.01)
        return chain([lambda: create(g, h, 0.01, 1, name="create1"),
                      lambda: create(g, h, 0.5, 3, name="create2"),
                      lambda: raw.BoostedTreesQuantileStreamResourceAddSummaries(
                          quantile_stream_resource_handle=h, summaries=s),
                      lambda: raw.BoostedTreesQuantileStreamResourceFlush(
                          quantile_stream_resource_handle=h, num_buckets=g.const(10, "int64"),
                          generate_quantiles=True),
                      lambda: raw.BoostedTreesQuantileStreamResourceGetBucketBoundaries(
                          quantile_stream_resource_handle=h, num_features=1)])
    g.case("BoostedTreesCreateQuantileStreamResource.float.twice", create_twice)

    # A summary given by hand (as a serialized one would be): added to a stream as it is.
    ADD = "BoostedTreesQuantileStreamResourceAddSummaries"
    def hand_summaries():
        h = handle()
        a = g.const([[1, 3, 0, 3], [4, 2, 3, 5]], F)
        b = g.const([[3, 1, 0, 1], [4, 1, 1, 2]], F)
        c = g.const(np.zeros([0, 4]), F)
        steps = [lambda: create(g, h, 0.01, 1)]
        for i, s in enumerate((a, b, c)):
            steps.append(lambda s=s, i=i: raw.BoostedTreesQuantileStreamResourceAddSummaries(
                quantile_stream_resource_handle=h, summaries=[s], name=f"add{i}"))
        steps.append(lambda: raw.BoostedTreesFlushQuantileSummaries(
            quantile_stream_resource_handle=h, num_features=1))
        return chain(steps)
    g.case(f"{ADD}.float.hand_summaries", hand_summaries)
    FQS = "BoostedTreesFlushQuantileSummaries"
    for eps, n, batches in ((0.01, 200, 4), (0.1, 1000, 3), (0.3, 500, 10)):
        def build(eps=eps, n=n, batches=batches):
            feats = [feature_values(g, n, "normal"), feature_values(g, n, "grid")]
            return pipeline(g, eps, 0, feats, example_weights(g, n, "mixed"), batches,
                            flush_summaries=True)
        g.case(f"{FQS}.float.eps{eps}_{n}x{batches}", build)
    def flush_summaries_fewer():  # num_features below the streams: the first ones
        h = handle()
        s = summaries(g, [feature_values(g, 40, "normal"), feature_values(g, 40, "few")], [1.0],
                      0.05)
        return chain([lambda: create(g, h, 0.05, 2),
                      lambda: raw.BoostedTreesQuantileStreamResourceAddSummaries(
                          quantile_stream_resource_handle=h, summaries=s),
                      lambda: raw.BoostedTreesFlushQuantileSummaries(
                          quantile_stream_resource_handle=h, num_features=1)])
    g.case(f"{FQS}.float.fewer_features", flush_summaries_fewer)

    # ---- serialized boundaries ----------------------------------------------------------------
    DES = "BoostedTreesQuantileStreamResourceDeserialize"
    def deserialize():
        h = handle()
        b = [hide_rank(g.const([-1, 0, 2.5], F)), g.const(np.zeros([0]), F), g.const([7], F)]
        bounds = chain([lambda: create(g, h, 0.1, 3),
                        lambda: raw.BoostedTreesQuantileStreamResourceDeserialize(
                            quantile_stream_resource_handle=h, bucket_boundaries=b),
                        lambda: raw.BoostedTreesQuantileStreamResourceGetBucketBoundaries(
                            quantile_stream_resource_handle=h, num_features=3)])
        buckets = raw.BoostedTreesBucketize(
            float_values=[g.const([-2, 0, 1, 3], F), g.const([1, 2, -5, 0], F),
                          g.const([6, 7, 8, 7.5], F)],
            bucket_boundaries=bounds)
        return bounds + buckets
    g.case(f"{DES}.float.three", deserialize)
    def deserialize_fewer():  # num_streams below the resource's: the first ones
        h = handle()
        return chain([lambda: create(g, h, 0.1, 2),
                      lambda: raw.BoostedTreesQuantileStreamResourceDeserialize(
                          quantile_stream_resource_handle=h,
                          bucket_boundaries=[hide_rank(g.const([1, 2], F))]),
                      lambda: raw.BoostedTreesQuantileStreamResourceGetBucketBoundaries(
                          quantile_stream_resource_handle=h, num_features=2)])
    g.case(f"{DES}.float.fewer_streams", deserialize_fewer)
    def deserialize_then_flush():  # a flush replaces deserialized boundaries
        h = handle()
        s = summaries(g, [feature_values(g, 60, "grid")], [1.0], 0.1)
        return chain([lambda: create(g, h, 0.1, 1),
                      lambda: raw.BoostedTreesQuantileStreamResourceDeserialize(
                          quantile_stream_resource_handle=h,
                          bucket_boundaries=[hide_rank(g.const([1, 2], F))]),
                      lambda: raw.BoostedTreesQuantileStreamResourceAddSummaries(
                          quantile_stream_resource_handle=h, summaries=s),
                      lambda: raw.BoostedTreesQuantileStreamResourceFlush(
                          quantile_stream_resource_handle=h, num_buckets=g.const(6, "int64"),
                          generate_quantiles=True),
                      lambda: raw.BoostedTreesQuantileStreamResourceGetBucketBoundaries(
                          quantile_stream_resource_handle=h, num_features=1)])
    g.case(f"{DES}.float.then_flush", deserialize_then_flush)

    # ---- initialized / missing ---------------------------------------------------------------
    INIT = "IsBoostedTreesQuantileStreamResourceInitialized"
    g.case(f"{INIT}.float.missing", lambda: raw.IsBoostedTreesQuantileStreamResourceInitialized(
        quantile_stream_resource_handle=handle()))
    def initialized():
        h = handle()
        return chain([lambda: create(g, h, 0.1, 0),
                      lambda: raw.IsBoostedTreesQuantileStreamResourceInitialized(
                          quantile_stream_resource_handle=h)])
    g.case(f"{INIT}.float.created", initialized)
    def other_name():
        h = handle("a")
        h2 = raw.BoostedTreesQuantileStreamResourceHandleOp(shared_name="b", name="handle2")
        return chain([lambda: create(g, h, 0.1, 1),
                      lambda: [raw.IsBoostedTreesQuantileStreamResourceInitialized(
                          quantile_stream_resource_handle=h, name="init_a"),
                          raw.IsBoostedTreesQuantileStreamResourceInitialized(
                              quantile_stream_resource_handle=h2, name="init_b")]])
    g.case(f"{INIT}.float.other_name", other_name)
    def missing(op):
        h = handle()
        if op == FLUSH:
            return after(raw.BoostedTreesQuantileStreamResourceFlush(
                quantile_stream_resource_handle=h, num_buckets=g.const(3, "int64")), g)
        if op == ADD:
            return after(raw.BoostedTreesQuantileStreamResourceAddSummaries(
                quantile_stream_resource_handle=h, summaries=[g.const([[1, 1, 0, 1]], F)]), g)
        if op == DES:
            return after(raw.BoostedTreesQuantileStreamResourceDeserialize(
                quantile_stream_resource_handle=h, bucket_boundaries=[hide_rank(g.const([1.], F))]),
                g)
        if op == FQS:
            return raw.BoostedTreesFlushQuantileSummaries(quantile_stream_resource_handle=h,
                                                          num_features=1)
        return raw.BoostedTreesQuantileStreamResourceGetBucketBoundaries(
            quantile_stream_resource_handle=h, num_features=1)
    for op in (FLUSH, ADD, DES, FQS, "BoostedTreesQuantileStreamResourceGetBucketBoundaries"):
        g.case(f"{op}.float.missing_resource", lambda op=op: missing(op), error=True)

    # ---- bad inputs TensorFlow's kernels reject -----------------------------------------------
    CREATE = "BoostedTreesCreateQuantileStreamResource"
    def bad_create(eps, n):
        h = handle()
        return after(raw.BoostedTreesCreateQuantileStreamResource(
            quantile_stream_resource_handle=h, epsilon=hide_rank(g.const(eps, F)),
            num_streams=hide_rank(g.const(n, "int64"))), g)
    g.case(f"{CREATE}.float.zero_epsilon", lambda: bad_create(0.0, 1), error=True)
    g.case(f"{CREATE}.float.negative_epsilon", lambda: bad_create(-0.5, 1), error=True)
    g.case(f"{CREATE}.float.nan_epsilon", lambda: bad_create(np.nan, 1), error=True)
    g.case(f"{CREATE}.float.negative_streams", lambda: bad_create(0.1, -1), error=True)
    g.case(f"{CREATE}.float.vector_epsilon", lambda: bad_create([0.1], 1), error=True)
    g.case(f"{CREATE}.float.vector_streams", lambda: bad_create(0.1, [1]), error=True)
