#!/usr/bin/env python3
"""Write TensorFlow 2 graphs with function calls and functional conditionals, and tf.gradients'
values for them, in the format of make_grad_cases.py (read by tests/core/gradients_oracle_test.cc
from tests/oracle/grad_cases/<case>.pb):

    PY=$(tests/oracle/setup_venv.sh)
    $PY tests/oracle/make_cf_grad_cases.py [--out tests/oracle/grad_cases] [--only case ...]

Each case is a tf.function traced on float64 TensorSpecs (its placeholders, named after them):
the graph of its concrete function as TensorFlow 2 builds it, so nested tf.functions are
StatefulPartitionedCall nodes, tf.cond / tf.switch_case functional StatelessIf / StatelessCase
nodes and tf.while_loop (Stateless)While nodes, with the functions in the GraphDef's library. (The cases hold no variables, so there is
nothing to freeze; convert_variables_to_constants_v2, even with lower_control_flow=False, runs
Grappler's function inlining, which removes the calls and the Case these cases are about.)
Added nodes:
  y                      Identity of the function's output (the value differentiated)
  oracle/dy              the initial gradient (random)
  oracle/feed/<x>        the value fed to placeholder <x>
  oracle/grad/<x>        tf.gradients(y, x, grad_ys=dy) for those feeds, run as a tf.function
Inputs come from a fixed seed per case, so a rerun writes the same files.
"""

import argparse
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
F64 = tf.float64

CASES = {}


def case(shapes, ranges=None):
    """Registers fn(*xs) -> y, called on float64 placeholders of `shapes` (name -> shape)."""
    def wrap(fn):
        CASES[fn.__name__] = (fn, shapes, ranges or {})
        return fn
    return wrap


@tf.function
def inner_mul_sin(a, b):
    return a * b + tf.sin(a), tf.exp(b)


@tf.function
def inner_nested(a, b):
    p, q = inner_mul_sin(a, b)
    return tf.sin(p) * q


@case({"a": [2, 3], "b": [2, 3]})
def cf_function_call(a, b):
    p, q = inner_mul_sin(a, b)
    return p * q + a


@case({"a": [2, 3], "b": [2, 3]})
def cf_nested_function_calls(a, b):
    return inner_nested(a, b) + inner_nested(b, a)


def _cond(a, b):
    return tf.cond(tf.reduce_sum(a) > 0.0,
                   lambda: a * b + tf.sin(b),
                   lambda: tf.square(a) - b)


@case({"a": [2, 3], "b": [2, 3]}, {"a": (0.1, 1.0)})
def cf_cond_true(a, b):
    return _cond(a, b) * b


@case({"a": [2, 3], "b": [2, 3]}, {"a": (-1.0, -0.1)})
def cf_cond_false(a, b):
    return _cond(a, b) * b


@case({"a": [2, 3], "b": [2, 3]}, {"a": (0.1, 1.0)})
def cf_cond_one_branch_ignores_an_input(a, b):
    return tf.cond(tf.reduce_mean(a) > 0.0, lambda: tf.exp(a), lambda: a * b) + b


@case({"a": [2, 3], "b": [2, 3]}, {"a": (0.1, 1.0)})
def cf_cond_calls_a_function(a, b):
    return tf.cond(tf.reduce_sum(a) > 0.0,
                   lambda: inner_nested(a, b),
                   lambda: a - b)


@case({"a": [2, 3], "b": [2, 3]}, {"a": (0.1, 1.0)})
def cf_function_with_cond(a, b):
    return inner_with_cond(a, b) * 2.0


@tf.function
def inner_with_cond(a, b):
    return tf.cond(tf.reduce_sum(b) > 100.0, lambda: a + b, lambda: tf.cos(a) * b)


@case({"a": [2, 3], "b": [2, 3]})
def cf_switch_case(a, b):
    index = tf.cast(tf.reduce_sum(a) > 0.0, tf.int32) + 1  # 1 or 2
    return tf.switch_case(index, [lambda: a * 2.0, lambda: a * b, lambda: tf.sin(a) + b])


@case({"a": [2, 3], "b": [2, 3]})
def cf_while_fixed_count(a, b):
    # b is captured: a loop variable the body passes on unchanged.
    _, x = tf.while_loop(lambda i, x: i < 4,
                         lambda i, x: (i + 1, x * b + tf.sin(x) * tf.cast(i, F64)), [0, a])
    return x * a


@case({"a": [2, 3], "b": [2, 3]}, {"a": (0.1, 1.0), "b": (0.1, 1.0)})
def cf_while_data_dependent_count(a, b):
    (x,) = tf.while_loop(lambda x: tf.reduce_sum(x) < 20.0, lambda x: x * 1.5 + tf.square(b), [a])
    return tf.sin(x)


@case({"a": [2, 3], "b": [2, 3]})
def cf_while_maximum_iterations(a, b):
    (x,) = tf.while_loop(lambda x: tf.reduce_sum(x) < 1e9, lambda x: tf.sin(x) * b + x, [a],
                         maximum_iterations=3)
    return x


@case({"a": [2, 3], "b": [2, 3]})
def cf_while_nested(a, b):
    def body(i, x):
        _, y = tf.while_loop(lambda j, y: j < 2, lambda j, y: (j + 1, tf.sin(y) * b + y), [0, x])
        return i + 1, y * a
    return tf.while_loop(lambda i, x: i < 3, body, [0, a])[1]


@tf.function
def inner_loop(a, b):
    return tf.while_loop(lambda i, x: i < 3, lambda i, x: (i + 1, tf.tanh(x * b)), [0, a])[1]


@case({"a": [2, 3], "b": [2, 3]})
def cf_while_in_a_function(a, b):
    return inner_loop(a, b) * inner_loop(b, a)


@case({"a": [2, 3], "b": [2, 3]})
def cf_while_with_cond_in_body(a, b):
    def body(i, x):
        x = tf.cond(i % 2 == 0, lambda: x * b, lambda: tf.cos(x))
        return i + 1, x
    return tf.while_loop(lambda i, x: i < 4, body, [0, a])[1]


@case({"a": [2, 3], "b": [2, 3]})
def cf_while_no_iteration(a, b):
    return tf.while_loop(lambda i, x: i < 0, lambda i, x: (i + 1, x * b), [0, a])[1] * b


@case({"a": [4, 3], "b": [3, 3]}, {"b": (-0.5, 0.5)})
def cf_while_tensor_array_rnn(a, b):
    # h(t) = tanh(a[t] + h(t-1) b): a read from one TensorArray, the hs written to another.
    rows = tf.TensorArray(F64, size=4).unstack(a)

    def body(t, h, hs):
        h = tf.tanh(tf.reshape(rows.read(t), [1, 3]) + tf.matmul(h, b))
        return t + 1, h, hs.write(t, h[0])

    _, h, hs = tf.while_loop(lambda t, h, hs: t < 4, body,
                             [0, tf.zeros([1, 3], F64), tf.TensorArray(F64, size=4)])
    return hs.stack() * 2.0 + h


@case({"a": [5, 2], "b": [2]})
def cf_while_tensor_array_push_and_gather(a, b):
    # A dynamically sized TensorArray: each step writes one value; the result gathers two.
    rows = tf.TensorArray(F64, size=5).unstack(a)

    def body(t, acc):
        return t + 1, acc.write(t, tf.sin(rows.read(t)) * b)

    _, acc = tf.while_loop(lambda t, acc: t < 5, body,
                           [0, tf.TensorArray(F64, size=0, dynamic_size=True)])
    return acc.gather([4, 1]) + tf.reduce_sum(acc.stack(), axis=0)


def make(name, fn, shapes, ranges, out_dir):
    rng = np.random.default_rng(sum(map(ord, name)))
    specs = [tf.TensorSpec(shape, F64, name=x) for x, shape in shapes.items()]
    feeds = []
    for x, shape in shapes.items():
        lo, hi = ranges.get(x, (-1.0, 1.0))
        feeds.append(rng.uniform(lo, hi, size=shape))

    concrete = tf.function(fn).get_concrete_function(*specs)
    forward = concrete.graph.as_graph_def()
    out_name = concrete.outputs[0].name
    y_shape = concrete.outputs[0].shape.as_list()
    dy_value = rng.uniform(0.5, 1.5, size=y_shape)

    @tf.function
    def grads(*args):
        xs, dy = list(args[:-1]), args[-1]
        return tf.gradients(fn(*xs), xs, grad_ys=dy)

    values = grads(*[tf.constant(v) for v in feeds], tf.constant(dy_value))

    y = forward.node.add()
    y.name = "y"
    y.op = "Identity"
    y.input.append(out_name[:-2] if out_name.endswith(":0") else out_name)
    y.attr["T"].type = F64.as_datatype_enum
    data = tf.Graph()
    with data.as_default():
        tf.constant(dy_value, name="oracle/dy")
        for x, v in zip(shapes, feeds):
            tf.constant(v, name="oracle/feed/" + x)
        for x, v in zip(shapes, values):
            assert v is not None, (name, x)
            tf.constant(v.numpy(), name="oracle/grad/" + x)
    forward.node.extend(data.as_graph_def().node)
    ops = sorted({n.op for n in forward.node} | {n.op for f in forward.library.function
                                                  for n in f.node_def})
    with open(os.path.join(out_dir, name + ".pb"), "wb") as f:
        f.write(forward.SerializeToString(deterministic=True))
    print(f"{name}: {len(forward.node)} nodes, {len(forward.library.function)} functions, "
          f"ops {' '.join(o for o in ops if o in FUNCTIONAL)}")


FUNCTIONAL = {"If", "StatelessIf", "Case", "StatelessCase", "PartitionedCall",
              "StatefulPartitionedCall", "While", "StatelessWhile"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(HERE, "grad_cases"))
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name, (fn, shapes, ranges) in CASES.items():
        if args.only and name not in args.only:
            continue
        make(name, fn, shapes, ranges, args.out)


if __name__ == "__main__":
    main()
