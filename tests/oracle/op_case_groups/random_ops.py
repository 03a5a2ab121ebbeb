"""Op conformance cases: Seeded, stateless and sampling random ops."""

from op_case_lib import *  # noqa: F401,F403


@group
def random(g):
    specs = [("RandomUniform", None, 0.0, 1.0, 0.5, 0.2887),
             ("RandomStandardNormal", None, -7.0, 7.0, 0.0, 1.0),
             ("TruncatedNormal", None, -2.0, 2.0, 0.0, 0.8796)]
    for op, _, lo, hi, mean, std in specs:
        for dt in tf_types(op, "dtype"):
            for sname, shape, st in [("mat", [3, 5], "int32"), ("odd", [7], "int64"),
                                     ("scalar", [], "int32"), ("empty", [0, 3], "int32")]:
                if dt != "float32" and sname in ("scalar", "empty"):
                    continue
                # A seeded kernel reproduces TensorFlow's Philox stream exactly.
                g.case(f"{op}.{sgname(dt)}.seeded_{sname}",
                       lambda: op_fn(op)(shape=g.const(shape, st), dtype=dt, seed=7, seed2=11,
                                         name="op"))
            g.case(f"{op}.{sgname(dt)}.seed2_only",
                   lambda: op_fn(op)(shape=g.const([4, 2], "int32"), dtype=dt, seed=0, seed2=5,
                                     name="op"))
            n = 4000
            g.case(f"{op}.{sgname(dt)}.unseeded",
                   lambda: Out(op_fn(op)(shape=g.const([n], "int32"), dtype=dt, name="op"),
                               check="moments", lo=lo, hi=hi, mean=mean, std=std,
                               atol=0.1 * std + 0.02))
    for dt in tf_types("RandomUniformInt", "Tout"):
        for sname, shape, lo, hi in [("mat", [3, 5], -5, 20), ("wide", [9], -2**30, 2**30),
                                     ("one", [4], 3, 4)]:
            g.case(f"RandomUniformInt.{sgname(dt)}.seeded_{sname}",
                   lambda: raw.RandomUniformInt(shape=g.const(shape, "int32"),
                                                minval=g.const(lo, dt), maxval=g.const(hi, dt),
                                                seed=3, seed2=9, name="op"))
        g.case(f"RandomUniformInt.{sgname(dt)}.unseeded",
               lambda: Out(raw.RandomUniformInt(shape=g.const([2000], "int64"),
                                                minval=g.const(-3, dt), maxval=g.const(7, dt),
                                                name="op"),
                           check="moments", lo=-3, hi=6, mean=1.5, std=2.872, atol=0.3))
        g.case(f"RandomUniformInt.{sgname(dt)}.empty_range",
               lambda: raw.RandomUniformInt(shape=g.const([2], "int32"), minval=g.const(3, dt),
                                            maxval=g.const(3, dt), seed=1, seed2=1, name="op"),
               error=True)
RANDOM_SHAPES = [("mat", [3, 5]), ("odd", [7]), ("scalar", []), ("empty", [0, 3]),
                 ("long", [1001])]
STATELESS_FLOAT_OPS = ["StatelessRandomUniform", "StatelessRandomNormal",
                       "StatelessTruncatedNormal"]


@group
def random_stateless(g):
    # Exact where sg computes exactly TensorFlow's arithmetic (uniforms, integers); normals go
    # through log, sqrt, sin and cos, where the default tolerance allows for libm differences.
    for op in STATELESS_FLOAT_OPS:
        exact = 0.0 if op == "StatelessRandomUniform" else None
        for dt in tf_types(op, "dtype"):
            for sname, shape in RANDOM_SHAPES:
                if dt != "float32" and sname in ("scalar", "empty"):
                    continue
                g.case(f"{op}.{sgname(dt)}.{sname}",
                       lambda: op_fn(op)(shape=g.const(shape, "int32"),
                                         seed=g.const([7, 11], "int64"), dtype=dt, name="op"),
                       rtol=exact, atol=exact)
        g.case(f"{op}.float.seed_int32_negative",
               lambda: op_fn(op)(shape=g.const([2, 3], "int64"),
                                 seed=g.const([-3, 2**31 - 1], "int32"), dtype="float32",
                                 name="op"), rtol=exact, atol=exact)
        g.case(f"{op}.float.seed_bad_shape",
               lambda: op_fn(op)(shape=g.const([2], "int32"),
                                 seed=hide_shape(g.const([1, 2, 3], "int64")), name="op"),
               error=True)
        g.case(f"{op}.float.shape_not_vector",
               lambda: op_fn(op)(shape=hide_rank(g.const([[2]], "int32")),
                                 seed=g.const([1, 2], "int64"), name="op"), error=True)
        g.case(f"{op}.float.shape_negative",
               lambda: op_fn(op)(shape=g.const([2, -1], "int32"),
                                 seed=g.const([1, 2], "int64"), name="op"), error=True)
    for dt in tf_types("StatelessRandomUniformInt", "dtype"):
        big = 2**62 if dt == "int64" else 2**30
        for sname, shape, lo, hi in [("mat", [3, 5], -5, 20), ("wide", [9], -big, big),
                                     ("one", [4], 3, 4), ("odd", [7], 0, 1000)]:
            g.case(f"StatelessRandomUniformInt.{sgname(dt)}.{sname}",
                   lambda: raw.StatelessRandomUniformInt(
                       shape=g.const(shape, "int32"), seed=g.const([5, -9], "int64"),
                       minval=g.const(lo, dt), maxval=g.const(hi, dt), name="op"))
        g.case(f"StatelessRandomUniformInt.{sgname(dt)}.empty_range",
               lambda: raw.StatelessRandomUniformInt(
                   shape=g.const([2], "int32"), seed=g.const([1, 1], "int64"),
                   minval=g.const(3, dt), maxval=g.const(3, dt), name="op"), error=True)
        g.case(f"StatelessRandomUniformInt.{sgname(dt)}.empty_output_bad_range",
               lambda: raw.StatelessRandomUniformInt(
                   shape=g.const([0], "int32"), seed=g.const([1, 1], "int64"),
                   minval=g.const(3, dt), maxval=g.const(1, dt), name="op"))
    g.case("StatelessRandomUniformInt.int32.minval_not_scalar",
           lambda: raw.StatelessRandomUniformInt(
               shape=g.const([2], "int32"), seed=g.const([1, 1], "int64"),
               minval=hide_rank(g.const([3], "int32")), maxval=g.const(5, "int32"), name="op"),
           error=True)
    for dt in tf_types("StatelessRandomUniformFullInt", "dtype"):
        for st in ("int32", "int64"):
            g.case(f"StatelessRandomUniformFullInt.{sgname(dt)}.seed_{st}",
                   lambda: raw.StatelessRandomUniformFullInt(
                       shape=g.const([3, 3], "int32"), seed=g.const([-1, 12345], st), dtype=dt,
                       name="op"))
    g.case("StatelessRandomUniformFullInt.uint32.seed_uint32",
           lambda: raw.StatelessRandomUniformFullInt(
               shape=g.const([3], "int32"), seed=g.const([1, 2], "uint32"), dtype="uint32",
               name="op"), error=True)
    for st in ("int32", "int64"):
        g.case(f"StatelessRandomGetKeyCounterAlg.{st}",
               lambda: list(raw.StatelessRandomGetKeyCounterAlg(
                   seed=g.const([-7, 2**31 - 1], st), name="op")))
    for st in ("int32", "int64"):
        g.case(f"StatelessRandomGetKeyCounter.{st}",
               lambda: list(raw.StatelessRandomGetKeyCounter(seed=g.const([123, -5], st),
                                                             name="op")))
    g.case("StatelessRandomGetKeyCounter.int64.bad_seed",
           lambda: list(raw.StatelessRandomGetKeyCounter(
               seed=hide_shape(g.const([1], "int64")), name="op")), error=True)
    g.case("StatelessRandomGetAlg.none", lambda: raw.StatelessRandomGetAlg(name="op"))

    # What tf.random.stateless_uniform and friends write in a TF2 graph: the key and counter
    # of StatelessRandomGetKeyCounter, the algorithm a constant.
    def tf2_uniform():
        k, c = raw.StatelessRandomGetKeyCounter(seed=g.const([1, 2], "int64"), name="kc")
        return raw.StatelessRandomUniformV2(shape=g.const([2, 3], "int32"), key=k, counter=c,
                                            alg=g.const(1, "int32"), name="op")
    g.case("StatelessRandomGetKeyCounter.int64.feeds_uniform_v2", tf2_uniform, rtol=0.0,
           atol=0.0)
    g.case("StatelessRandomGetKeyCounterAlg.int64.bad_seed",
           lambda: list(raw.StatelessRandomGetKeyCounterAlg(
               seed=hide_shape(g.const([1, 2, 3], "int64")), name="op")), error=True)


STATELESS_V2_FLOAT_OPS = ["StatelessRandomUniformV2", "StatelessRandomNormalV2",
                          "StatelessTruncatedNormalV2"]


@group
def random_stateless_v2(g):
    def key_counter(seed=(3, 4)):
        k, c, _ = raw.StatelessRandomGetKeyCounterAlg(seed=g.const(list(seed), "int64"),
                                                      name="kc")
        return k, c

    # Algorithms: 1 Philox, 3 auto-select (Philox on CPU); TensorFlow's CPU kernels reject
    # ThreeFry (2) and unknown ids.
    for op in STATELESS_V2_FLOAT_OPS:
        exact = 0.0 if op == "StatelessRandomUniformV2" else None
        for dt in tf_types(op, "dtype"):
            for sname, shape in RANDOM_SHAPES:
                if dt != "float32" and sname in ("scalar", "empty"):
                    continue
                for alg in (1, 3):
                    if alg == 3 and sname != "mat":
                        continue
                    def build():
                        k, c = key_counter()
                        return op_fn(op)(shape=g.const(shape, "int32"), key=k, counter=c,
                                         alg=g.const(alg, "int32"), dtype=dt, name="op")
                    g.case(f"{op}.{sgname(dt)}.{sname}_alg{alg}", build, rtol=exact,
                           atol=exact)
        g.case(f"{op}.float.literal_key_counter",
               lambda: op_fn(op)(shape=g.const([6], "int64"),
                                 key=g.const([0xfedcba9876543210], "uint64"),
                                 counter=g.const([2**64 - 1, 17, 99], "uint64"),
                                 alg=g.const(1, "int32"), name="op"), rtol=exact, atol=exact)
        for alg in (0, 2, 4):
            g.case(f"{op}.float.alg{alg}",
                   lambda: op_fn(op)(shape=g.const([3], "int32"),
                                     key=g.const([1], "uint64"),
                                     counter=g.const([1, 2, 3, 4, 5], "uint64"),
                                     alg=g.const(alg, "int32"), name="op"), error=True)
        g.case(f"{op}.float.key_bad_shape",
               lambda: op_fn(op)(shape=g.const([3], "int32"),
                                 key=hide_shape(g.const([1, 2], "uint64")),
                                 counter=g.const([1, 2], "uint64"),
                                 alg=g.const(1, "int32"), name="op"), error=True)
        g.case(f"{op}.float.alg_not_scalar",
               lambda: op_fn(op)(shape=g.const([3], "int32"), key=g.const([1], "uint64"),
                                 counter=g.const([1, 2], "uint64"),
                                 alg=hide_rank(g.const([1], "int32")), name="op"), error=True)
    for dt in tf_types("StatelessRandomUniformIntV2", "dtype"):
        big = 2**62 if dt in ("int64", "uint64") else 2**30
        for sname, shape, lo, hi in [("mat", [3, 5], 5, 20), ("wide", [9], -big, big),
                                     ("one", [4], 3, 4)]:
            def build():
                k, c = key_counter((8, 1))
                return raw.StatelessRandomUniformIntV2(
                    shape=g.const(shape, "int32"), key=k, counter=c, alg=g.const(1, "int32"),
                    minval=g.const(lo, dt), maxval=g.const(hi, dt), name="op")
            g.case(f"StatelessRandomUniformIntV2.{sgname(dt)}.{sname}", build)
        g.case(f"StatelessRandomUniformIntV2.{sgname(dt)}.empty_range",
               lambda: raw.StatelessRandomUniformIntV2(
                   shape=g.const([2], "int32"), key=g.const([1], "uint64"),
                   counter=g.const([1, 2], "uint64"), alg=g.const(1, "int32"),
                   minval=g.const(3, dt), maxval=g.const(3, dt), name="op"), error=True)
    g.case("StatelessRandomUniformIntV2.int32.negative_range",
           lambda: raw.StatelessRandomUniformIntV2(
               shape=g.const([2, 3], "int64"), key=g.const([77], "uint64"),
               counter=g.const([1, 2], "uint64"), alg=g.const(3, "int32"),
               minval=g.const(-2**31, "int32"), maxval=g.const(-5, "int32"), name="op"))
    for dt in tf_types("StatelessRandomUniformFullIntV2", "dtype"):
        for alg in (1, 3):
            def build():
                k, c = key_counter((-2, 6))
                return raw.StatelessRandomUniformFullIntV2(
                    shape=g.const([7], "int32"), key=k, counter=c, alg=g.const(alg, "int32"),
                    dtype=dt, name="op")
            g.case(f"StatelessRandomUniformFullIntV2.{sgname(dt)}.alg{alg}", build)
    g.case("StatelessRandomUniformFullIntV2.uint64.alg2",
           lambda: raw.StatelessRandomUniformFullIntV2(
               shape=g.const([3], "int32"), key=g.const([1], "uint64"),
               counter=g.const([1, 2], "uint64"), alg=g.const(2, "int32"), name="op"),
           error=True)


@group
def random_shuffle(g):
    for dt in UNIVERSE:
        g.case(f"RandomShuffle.{sgname(dt)}.vec",
               lambda: raw.RandomShuffle(value=g.rand(dt, [13]), seed=7, seed2=11, name="op"))
    for sname, shape in [("mat", [6, 3]), ("rank3", [5, 2, 2]), ("one_row", [1, 4]),
                         ("empty_rows", [4, 0]), ("no_rows", [0, 3]), ("scalar", []),
                         ("long", [1000])]:
        g.case(f"RandomShuffle.float.{sname}",
               lambda: raw.RandomShuffle(value=g.rand("float32", shape), seed=3, seed2=0,
                                         name="op"))
    # Unseeded: a permutation of 0..99 has exactly these statistics.
    g.case("RandomShuffle.int32.unseeded",
           lambda: Out(raw.RandomShuffle(value=g.const(np.arange(100), "int32"), name="op"),
                       check="moments", lo=0, hi=99, mean=49.5, std=28.866, atol=0.01))
    def kc(seed=(1, 2)):
        return raw.StatelessRandomGetKeyCounter(seed=g.const(list(seed), "int64"), name="kc")
    for dt in UNIVERSE:
        def build():
            k, c = kc()
            return raw.StatelessShuffle(value=g.rand(dt, [11]), key=k, counter=c,
                                        alg=g.const(1, "int32"), name="op")
        g.case(f"StatelessShuffle.{sgname(dt)}.vec", build)
    for sname, shape, alg in [("mat_auto", [6, 3], 3), ("scalar", [], 1), ("one_row", [1, 4], 1),
                              ("long", [777], 1)]:
        def build():
            k, c = kc((-3, 8))
            return raw.StatelessShuffle(value=g.rand("float32", shape), key=k, counter=c,
                                        alg=g.const(alg, "int32"), name="op")
        g.case(f"StatelessShuffle.float.{sname}", build)
    for alg in (0, 2):
        g.case(f"StatelessShuffle.float.alg{alg}",
               lambda: raw.StatelessShuffle(value=g.rand("float32", [5]),
                                            key=g.const([1], "uint64"),
                                            counter=g.const([1, 2], "uint64"),
                                            alg=g.const(alg, "int32"), name="op"), error=True)
    g.case("RandomShuffle.int64.seed2_only",
           lambda: raw.RandomShuffle(value=g.const(np.arange(9), "int64"), seed=0, seed2=2,
                                     name="op"))


def poisson_v1(gdef, case):
    """Stores the RandomPoissonV2 node `op` (rate and output of one dtype) as a RandomPoisson:
    TensorFlow 2.21 refuses to run RandomPoisson in a current GraphDef."""
    for n in gdef.node:
        if n.name == f"{case}/op":
            n.op = "RandomPoisson"
            del n.attr["R"]


@group
def random_sampling(g):
    # Seeded stateful ops and stateless ops: TensorFlow's values exactly (computed in double).
    for op in ("Multinomial", "StatelessMultinomial"):
        stateless = op == "StatelessMultinomial"

        def mult(logits, n, out="int64", seed=(7, 11), seed_dt="int64"):
            n = g.const(n, "int32") if isinstance(n, int) else n
            if stateless:
                return raw.StatelessMultinomial(logits=logits, num_samples=n,
                                                seed=g.const(list(seed), seed_dt),
                                                output_dtype=out, name="op")
            return raw.Multinomial(logits=logits, num_samples=n,
                                   seed=seed[0], seed2=seed[1], output_dtype=out, name="op")
        for dt in tf_types(op, "T"):
            g.case(f"{op}.{sgname(dt)}.mat", lambda: mult(g.rand(dt, [3, 5]), 6))
            if dt != "float32":
                continue
            g.case(f"{op}.float.int32_out", lambda: mult(g.rand(dt, [2, 4]), 5, out="int32"))
            # 37 samples: rows start inside a Philox block.
            g.case(f"{op}.float.long_rows", lambda: mult(g.rand(dt, [4, 50], lo=-8, hi=2), 37))
            g.case(f"{op}.float.infinite_logits",
                   lambda: mult(g.const([[0.0, -np.inf, 1.0, 2.0], [-np.inf] * 4,
                                         [np.nan, 1.0, 0.5, np.inf]], "float32"), 8))
            g.case(f"{op}.float.empty_batch", lambda: mult(g.rand(dt, [0, 4]), 3))
            g.case(f"{op}.float.no_samples", lambda: mult(g.rand(dt, [2, 4]), 0))
            g.case(f"{op}.float.seed_other",
                   lambda: mult(g.rand(dt, [2, 6]), 9, seed=(0, 5) if not stateless else (-1, 3),
                                seed_dt="int32"))
            g.case(f"{op}.float.negative_samples", lambda: mult(g.rand(dt, [2, 4]),
                                                                hide_shape(g.const(-1, "int32"))),
                   error=True)
            g.case(f"{op}.float.no_classes", lambda: mult(g.rand(dt, [2, 0]), 3), error=True)
            g.case(f"{op}.float.logits_not_matrix",
                   lambda: mult(hide_rank(g.rand(dt, [4])), 3), error=True)
    # Unseeded: fresh random seeds, so only the statistics are TensorFlow's.
    g.case("Multinomial.float.unseeded",
           lambda: Out(raw.Multinomial(logits=g.const(np.zeros([1, 4]), "float32"),
                                       num_samples=g.const(4000, "int32"), name="op"),
                       check="moments", lo=0, hi=3, mean=1.5, std=1.118, atol=0.13))
    g.case("RandomGamma.float.unseeded",
           lambda: Out(raw.RandomGamma(shape=g.const([4000], "int32"),
                                       alpha=g.const(2.0, "float32"), name="op"),
                       check="moments", lo=0, hi=40, mean=2.0, std=1.414, atol=0.16))
    g.case("RandomPoissonV2.int64.unseeded",
           lambda: Out(raw.RandomPoissonV2(shape=g.const([4000], "int32"),
                                           rate=g.const(4.0, "float64"), name="op"),
                       check="moments", lo=0, hi=40, mean=4.0, std=2.0, atol=0.22))
    g.case("StatelessMultinomial.float.seed_bad_shape",
           lambda: raw.StatelessMultinomial(logits=g.rand("float32", [2, 3]),
                                            num_samples=g.const(2, "int32"),
                                            seed=hide_shape(g.const([1, 2, 3], "int64")),
                                            name="op"), error=True)

    alphas = [0.5, 1.0, 2.5, 7.0, 0.01, 30.0]
    for dt in tf_types("RandomGamma", "T"):
        g.case(f"RandomGamma.{sgname(dt)}.vec",
               lambda: raw.RandomGamma(shape=g.const([3], "int32"), alpha=g.const(alphas, dt),
                                       seed=7, seed2=11, name="op"))
        g.case(f"StatelessRandomGammaV2.{sgname(dt)}.vec",
               lambda: raw.StatelessRandomGammaV2(shape=g.const([3, 6], "int32"),
                                                  seed=g.const([4, 5], "int64"),
                                                  alpha=g.const(alphas, dt), name="op"))
    for dt in tf_types("StatelessRandomGammaV3", "dtype"):
        for alg in (1, 3):
            def build():
                k, c = raw.StatelessRandomGetKeyCounter(seed=g.const([4, 5], "int64"),
                                                        name="kc")
                return raw.StatelessRandomGammaV3(shape=g.const([3, 6], "int32"), key=k,
                                                  counter=c, alg=g.const(alg, "int32"),
                                                  alpha=g.const(alphas, dt), name="op")
            g.case(f"StatelessRandomGammaV3.{sgname(dt)}.alg{alg}", build)
    g.case("StatelessRandomGammaV3.float.alg2",
           lambda: raw.StatelessRandomGammaV3(shape=g.const([3], "int32"),
                                              key=g.const([1], "uint64"),
                                              counter=g.const([1, 2], "uint64"),
                                              alg=g.const(2, "int32"),
                                              alpha=g.const(1.5, "float32"), name="op"),
           error=True)
    g.case("StatelessRandomGammaV3.float.shape_mismatch",
           lambda: raw.StatelessRandomGammaV3(shape=g.const([3, 2], "int32"),
                                              key=g.const([1], "uint64"),
                                              counter=g.const([1, 2], "uint64"),
                                              alg=g.const(1, "int32"),
                                              alpha=g.const([1.0, 2.0, 3.0], "float32"),
                                              name="op"), error=True)
    g.case("RandomGamma.float.matrix_alpha",
           lambda: raw.RandomGamma(shape=g.const([], "int64"),
                                   alpha=g.rand("float32", [2, 3], lo=0.1, hi=5), seed=3,
                                   seed2=0, name="op"))
    g.case("RandomGamma.double.special_alpha",
           lambda: raw.RandomGamma(shape=g.const([2], "int32"),
                                   alpha=g.const([0.0, -1.0, np.nan, np.inf, 1e-30], "float64"),
                                   seed=1, seed2=2, name="op"))
    g.case("RandomGamma.float.empty",
           lambda: raw.RandomGamma(shape=g.const([0], "int32"), alpha=g.const([1.0], "float32"),
                                   seed=1, seed2=2, name="op"))
    g.case("RandomGamma.float.shape_not_vector",
           lambda: raw.RandomGamma(shape=hide_rank(g.const([[2]], "int32")),
                                   alpha=g.const([1.0], "float32"), seed=1, seed2=2, name="op"),
           error=True)
    g.case("StatelessRandomGammaV2.float.scalar_alpha",
           lambda: raw.StatelessRandomGammaV2(shape=g.const([5], "int64"),
                                              seed=g.const([-4, 5], "int32"),
                                              alpha=g.const(0.3, "float32"), name="op"))
    g.case("StatelessRandomGammaV2.float.empty_mismatch",
           lambda: raw.StatelessRandomGammaV2(shape=g.const([0, 2], "int32"),
                                              seed=g.const([4, 5], "int64"),
                                              alpha=g.const([1.0, 2.0, 3.0], "float32"),
                                              name="op"))
    g.case("StatelessRandomGammaV2.float.shape_mismatch",
           lambda: raw.StatelessRandomGammaV2(shape=g.const([3, 2], "int32"),
                                              seed=g.const([4, 5], "int64"),
                                              alpha=g.const([1.0, 2.0, 3.0], "float32"),
                                              name="op"), error=True)
    g.case("StatelessRandomGammaV2.float.seed_bad_shape",
           lambda: raw.StatelessRandomGammaV2(shape=g.const([3], "int32"),
                                              seed=hide_shape(g.const([4], "int64")),
                                              alpha=g.const([1.0, 2.0, 3.0], "float32"),
                                              name="op"), error=True)

    def rates(dt):
        if tf.as_dtype(dt).is_integer:
            return [0, 1, 3, 10, 12, 100, 1000, -2]
        return [0.5, 3.0, 9.99, 10.0, 12.5, 100.0, 1000.0, -2.0, np.inf]
    for r in tf_types("RandomPoissonV2", "R"):
        for dt in tf_types("RandomPoissonV2", "dtype"):
            g.case(f"RandomPoissonV2.{sgname(dt)}.rate_{sgname(r)}",
                   lambda: raw.RandomPoissonV2(shape=g.const([3], "int32"),
                                               rate=g.const(rates(r), r), seed=7, seed2=11,
                                               dtype=dt, name="op"))
            g.case(f"StatelessRandomPoisson.{sgname(dt)}.lam_{sgname(r)}",
                   lambda: raw.StatelessRandomPoisson(shape=g.const([3, len(rates(r))], "int32"),
                                                      seed=g.const([9, -9], "int64"),
                                                      lam=g.const(rates(r), r), dtype=dt,
                                                      name="op"))
    for dt in tf_types("RandomPoisson", "dtype"):
        g.case(f"RandomPoisson.{sgname(dt)}.vec",
               lambda: raw.RandomPoissonV2(shape=g.const([2, 2], "int64"),
                                           rate=g.const([0.5, 4.0, 25.0], dt), seed=5, seed2=6,
                                           dtype=dt, name="op"), edit=poisson_v1)
    g.case("RandomPoissonV2.int64.matrix_rate",
           lambda: raw.RandomPoissonV2(shape=g.const([], "int32"),
                                       rate=g.rand("float64", [2, 3], lo=0, hi=40), seed=0,
                                       seed2=3, name="op"))
    g.case("RandomPoissonV2.int64.empty",
           lambda: raw.RandomPoissonV2(shape=g.const([0], "int32"),
                                       rate=g.const([1.0], "float64"), seed=1, seed2=2,
                                       name="op"))
    g.case("StatelessRandomPoisson.int32.shape_mismatch",
           lambda: raw.StatelessRandomPoisson(shape=g.const([3, 2], "int32"),
                                              seed=g.const([4, 5], "int64"),
                                              lam=g.const([1.0, 2.0, 3.0], "float32"),
                                              dtype="int32", name="op"), error=True)


@group
def random_crop(g):
    """SampleDistortedBoundingBox and its V2 and stateless forms, seeded: TensorFlow's crops."""
    def sdbb(op, dt="int32", size=(100, 80, 3), boxes=None, covered=0.3, seed=(7, 11), **attrs):
        if boxes is None:
            boxes = [[[0.1, 0.2, 0.5, 0.9], [0.3, 0.3, 0.95, 0.6]]]
        img = size if isinstance(size, tf.Tensor) else g.const(list(size), dt)
        bb = g.const(np.asarray(boxes, np.float32).reshape([1, -1, 4]), "float32") \
            if not isinstance(boxes, tf.Tensor) else boxes
        if op == "SampleDistortedBoundingBox":
            r = raw.SampleDistortedBoundingBox(image_size=img, bounding_boxes=bb, seed=seed[0],
                                               seed2=seed[1], min_object_covered=covered,
                                               name="op", **attrs)
        elif op == "SampleDistortedBoundingBoxV2":
            r = raw.SampleDistortedBoundingBoxV2(image_size=img, bounding_boxes=bb,
                                                 min_object_covered=g.const(covered, "float32"),
                                                 seed=seed[0], seed2=seed[1], name="op", **attrs)
        else:
            r = raw.StatelessSampleDistortedBoundingBox(
                image_size=img, bounding_boxes=bb, min_object_covered=g.const(covered, "float32"),
                seed=g.const(list(seed), "int64"), name="op", **attrs)
        return list(r)
    for op in ("SampleDistortedBoundingBox", "SampleDistortedBoundingBoxV2",
               "StatelessSampleDistortedBoundingBox"):
        for dt in tf_types(op, "T"):
            g.case(f"{op}.{sgname(dt)}.boxes", lambda: sdbb(op, dt))
        g.case(f"{op}.int32.no_boxes", lambda: sdbb(op, boxes=np.zeros([0, 4]),
                                                     use_image_if_no_bounding_boxes=True))
        g.case(f"{op}.int32.image_too", lambda: sdbb(op, covered=0.9, seed=(3, 4),
                                                     use_image_if_no_bounding_boxes=True))
        g.case(f"{op}.int32.fallback_whole_image",
               lambda: sdbb(op, boxes=[[0.0, 0.0, 0.01, 0.01]], covered=1.0, max_attempts=3))
        g.case(f"{op}.int64.ranges",
               lambda: sdbb(op, "int64", size=(480, 640, 3), covered=0.1,
                            aspect_ratio_range=[0.5, 2.0], area_range=[0.3, 0.9],
                            max_attempts=20, seed=(1, 123)))
        g.case(f"{op}.int32.wide_image",
               lambda: sdbb(op, size=(7, 300, 1), boxes=[[0.0, 0.0, 1.0, 1.0]], covered=0.0,
                            aspect_ratio_range=[3.0, 9.0], seed=(5, 5)))
        g.case(f"{op}.int32.box_out_of_range",
               lambda: sdbb(op, boxes=[[0.1, 0.2, 1.5, 0.9]]), error=True)
        g.case(f"{op}.int32.no_boxes_not_allowed",
               lambda: sdbb(op, boxes=np.zeros([0, 4])), error=True)
        g.case(f"{op}.int32.image_size_length",
               lambda: sdbb(op, size=hide_shape(g.const([100, 80], "int32"))), error=True)
        g.case(f"{op}.int32.area_range_above_one",
               lambda: sdbb(op, area_range=[0.5, 1.5]), error=True)
        g.case(f"{op}.int32.negative_height",
               lambda: sdbb(op, size=(-4, 80, 3)), error=True)
        g.case(f"{op}.int32.boxes_not_rank3",
               lambda: sdbb(op, boxes=hide_rank(g.const(np.zeros([2, 4], np.float32)))),
               error=True)
    g.case("SampleDistortedBoundingBoxV2.int32.unseeded",
           lambda: [Out(t, check="range", lo=lo, hi=hi) for t, lo, hi in zip(
               raw.SampleDistortedBoundingBoxV2(
                   image_size=g.const([100, 80, 3], "int32"),
                   bounding_boxes=g.const([[[0.1, 0.2, 0.5, 0.9]]], "float32"),
                   min_object_covered=g.const(0.3, "float32"), name="op"),
               (0, -1, 0.0), (100, 100, 1.0))])
    for op in ("SampleDistortedBoundingBoxV2", "StatelessSampleDistortedBoundingBox"):
        g.case(f"{op}.int32.negative_covered", lambda: sdbb(op, covered=-0.5), error=True)
    g.case("StatelessSampleDistortedBoundingBox.int32.seed_int32",
           lambda: list(raw.StatelessSampleDistortedBoundingBox(
               image_size=g.const([50, 60, 3], "int32"),
               bounding_boxes=g.const([[[0.2, 0.2, 0.7, 0.8]]], "float32"),
               min_object_covered=g.const(0.2, "float32"), seed=g.const([-8, 9], "int32"),
               name="op")))
