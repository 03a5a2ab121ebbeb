"""Op conformance cases: SymbolicGradient (the gradient of a library function, run as an op)."""

from op_case_lib import *  # noqa: F401,F403


@group
def symbolic_gradient(g):
    spec = lambda dt: tf.TensorSpec([2, 3], dt)  # noqa: E731

    # f(x, y) = (x * y + sin(x), exp(y)): inputs x, y, dp, dq -> (dx, dy).
    for dt in ("float32", "float64"):
        def two_outputs(dt=dt):
            def f(x, y):
                return raw.AddV2(x=raw.Mul(x=x, y=y), y=raw.Sin(x=x)), raw.Exp(x=y)
            cf = concrete(f, spec(dt), spec(dt))
            ins = [g.rand(dt, [2, 3]) for _ in range(4)]
            return list(raw.SymbolicGradient(input=ins, Tout=[dt, dt], f=cf, name="op"))
        g.case(f"SymbolicGradient.{sgname(dt)}.two_outputs", two_outputs)

    # A function that ignores its second input (its dx is zeros) and broadcasts a [3] input.
    def unused_and_broadcast():
        def f(x, b, unused):
            return raw.Square(x=raw.AddV2(x=x, y=b))
        cf = concrete(f, spec("float32"), tf.TensorSpec([3], "float32"), spec("float32"))
        ins = [g.rand("float32", [2, 3]), g.rand("float32", [3]), g.rand("float32", [2, 3]),
               g.rand("float32", [2, 3])]
        return list(raw.SymbolicGradient(input=ins, Tout=["float32"] * 3, f=cf, name="op"))
    g.case("SymbolicGradient.float.unused_and_broadcast", unused_and_broadcast)

    # (A body calling another function is left out: TensorFlow's SymbolicGradient fails with "No
    # gradient defined for op: PartitionedCall"; sg differentiates it, see
    # tests/core/control_flow_gradients_test.cc.)

    # Errors: one input too few (no dy for f's second output).
    def missing_dy():
        def f(x, y):
            return raw.Mul(x=x, y=y), raw.Exp(x=y)
        cf = concrete(f, spec("float32"), spec("float32"))
        ins = [g.rand("float32", [2, 3]) for _ in range(3)]
        return list(raw.SymbolicGradient(input=ins, Tout=["float32", "float32"], f=cf, name="op"))
    g.case("SymbolicGradient.float.missing_dy", missing_dy, error=True)
