#!/usr/bin/env python3
"""Write small forward graphs and TensorFlow's tf.gradients values for them (the oracle of
tests/core/gradients_oracle_test.cc, which adds the gradients with sg's AddSymbolicGradients).

    PY=$(tests/oracle/setup_venv.sh)
    $PY tests/oracle/make_grad_cases.py [--out tests/oracle/grad_cases] [--only case ...]

Each case is one binary GraphDef, <case>.pb: the forward graph exactly as TensorFlow 2.21 builds
it in graph mode (tf.compat.v1), taken before tf.gradients adds anything, plus Const nodes that
carry the data:
  y                      the output differentiated (an Identity of the case's result)
  oracle/dy              the initial gradient fed to tf.gradients as grad_ys (random)
  oracle/feed/<x>        the value fed to placeholder <x>
  oracle/grad/<x>        TensorFlow's d(sum(y * dy))/d<x> for that feed
Every placeholder is an x. Inputs come from a fixed seed, so a rerun writes the same files.
"""

import argparse
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

tf1 = tf.compat.v1
HERE = os.path.dirname(os.path.abspath(__file__))

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


# Each case function takes a placeholder factory p(name, shape, lo, hi) and returns y.

@case
def broadcast_arith(p):
    a, b = p("a", [2, 3], 0.5, 2.0), p("b", [3], 0.5, 2.0)
    return (a * b - a / b + b - a) ** 2 + tf.pow(a, b) + tf.math.squared_difference(a, b)


@case
def unary_chain(p):
    x = p("x", [2, 3], 0.5, 2.0)
    return tf.exp(-x) + tf.math.log(x) + tf.abs(x) * tf.square(x) + tf.math.log1p(x) + tf.sin(x) * tf.cos(x)


@case
def maximum_minimum_select(p):
    a, b = p("a", [2, 3]), p("b", [2, 1])
    return tf.maximum(a, b) * tf.minimum(a, 0.25) + tf.where(a > b, a * 2.0, b * 3.0)


@case
def matmul_chain(p):
    x, w1, w2 = p("x", [2, 3]), p("w1", [3, 4]), p("w2", [5, 4])
    h = tf.matmul(x, w1)
    return tf.matmul(tf.matmul(h, w2, transpose_b=True), h, transpose_a=True)


@case
def batch_matmul_broadcast(p):
    a, b = p("a", [2, 1, 2, 3]), p("b", [3, 3, 2])
    return tf.linalg.matmul(a, b)


@case
def reductions(p):
    x = p("x", [2, 3, 4])
    return (tf.reduce_mean(x * x, axis=1) + tf.reduce_max(x, axis=1) - tf.reduce_min(x, axis=[1])
            + tf.squeeze(tf.reduce_sum(x, axis=[0, 1], keepdims=True), 0))


@case
def softmax_xent(p):
    x, w, b, lab = p("x", [4, 3]), p("w", [3, 5]), p("b", [5]), p("labels", [4, 5])
    logits = tf.matmul(x, w) + b
    loss = tf.nn.softmax_cross_entropy_with_logits(labels=tf.nn.softmax(lab), logits=logits)
    return tf.reduce_mean(loss) + tf.reduce_sum(tf.nn.log_softmax(logits) * 0.1)


@case
def raw_softmax_xent(p):
    # The op itself, without tf.nn's reshapes (whose shapes are only known at run time).
    logits, lab = p("logits", [4, 5]), p("labels", [4, 5])
    loss, _ = tf.raw_ops.SoftmaxCrossEntropyWithLogits(features=logits, labels=tf.nn.softmax(lab))
    return loss * 2.0 + tf.reduce_sum(tf.nn.log_softmax(logits) * tf.nn.softmax(logits), axis=1)


@case
def array_ops(p):
    a, b = p("a", [2, 3]), p("b", [2, 2])
    c = tf.concat([a, b], axis=1)                 # [2, 5]
    t = tf.reshape(tf.transpose(c), [5, 2])
    s = tf.slice(t, [1, 0], [3, 2])               # [3, 2]
    padded = tf.pad(s, [[1, 0], [0, 2]])          # [4, 4]
    tiled = tf.tile(padded, [1, 2])               # [4, 8]
    g = tf.gather(tiled, [3, 0, 3], axis=0)       # [3, 8]
    g2 = tf.gather(g, [[1, 7], [0, 0]], axis=1)   # [3, 2, 2]
    stacked = tf.stack(tf.unstack(g2, axis=1)[::-1], axis=0)
    return tf.squeeze(tf.expand_dims(stacked, 0), 0) * 1.5


@case
def conv2d(p):
    x, f = p("x", [1, 5, 5, 2]), p("f", [3, 3, 2, 3])
    return tf.nn.conv2d(x, f, strides=[1, 2, 2, 1], padding="SAME") * 2.0


@case
def math_extra(p):
    x, lo = p("x", [3, 4], -2.0, 2.0), p("lo", [3, 4], -1.0, 0.0)
    return (tf.math.erf(x) + tf.sinh(x) * tf.cosh(x) + tf.tan(x * 0.5) + tf.atan(x)
            + tf.cumsum(x, axis=1, reverse=True) + tf.clip_by_value(x, lo, 0.75))


@case
def split_reverse_segments(p):
    x = p("x", [4, 6])
    a, b, c = tf.split(x, 3, axis=1)
    d, e = tf.split(x, [1, 3], axis=0)
    seg = tf.math.unsorted_segment_sum(x, [2, -1, 0, 2], 3)
    return ((tf.reverse(a, [1]) * c + b) * 2.0 + tf.reduce_sum(e * e) + tf.reduce_sum(d)
            + tf.reduce_sum(seg * seg))


@case
def conv2d_transpose(p):
    v, f = p("v", [1, 2, 2, 3]), p("f", [3, 3, 2, 3])
    return tf.nn.conv2d_transpose(v, f, [1, 4, 4, 2], strides=2, padding="SAME")


# Cases that need gradient kernels landing separately (skipped by the test until they do).

@case
def mlp_relu_bias_sparse_xent(p):
    x, w, b = p("x", [4, 3]), p("w", [3, 5]), p("b", [5])
    logits = tf.nn.bias_add(tf.nn.relu(tf.matmul(x, w)), b)
    labels = tf.constant([0, 4, 2, 1])
    return tf.reduce_mean(
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))


@case
def activations(p):
    x = p("x", [2, 4], -2.0, 2.0)
    return (tf.tanh(x) + tf.sigmoid(x) + tf.nn.relu6(x * 4.0) + tf.nn.elu(x) + tf.nn.softplus(x)
            + tf.sqrt(x * x + 1.0) + tf.math.rsqrt(x * x + 1.0) + tf.math.reciprocal(x * x + 1.0))


@case
def cnn_pool_batchnorm_l2(p):
    x, f = p("x", [2, 4, 4, 2]), p("f", [2, 2, 2, 3])
    scale, offset = p("scale", [3], 0.5, 1.5), p("offset", [3])
    h = tf.nn.conv2d(x, f, strides=1, padding="SAME")
    h, _, _ = tf.compat.v1.nn.fused_batch_norm(h, scale, offset, is_training=True)
    h = tf.nn.max_pool2d(h, 2, 2, "VALID") + tf.nn.avg_pool2d(h, 2, 2, "VALID")
    return h + tf.nn.l2_loss(f)


@case
def strided_slice(p):
    x = p("x", [4, 5])
    return x[1:, ::2] * 3.0


# TensorFlow 1.x control flow (tf.compat.v1.disable_control_flow_v2): v1 while loops (Enter, Merge,
# Switch, LoopCond, NextIteration, Exit) and v1 conds (Switch, Merge).

@case
def v1_while_loop(p):
    x, w = p("x", [2, 3]), p("w", [2, 3])
    _, y = tf.while_loop(lambda i, y: i < 4,
                         lambda i, y: (i + 1, y * w + tf.sin(y) * tf.cast(i, y.dtype)), [0, x])
    return y * x


@case
def v1_while_loop_data_dependent(p):
    x, w = p("x", [3], 0.1, 1.0), p("w", [3], 0.1, 1.0)
    (y,) = tf.while_loop(lambda y: tf.reduce_sum(y) < 20.0, lambda y: y * 1.5 + tf.square(w), [x])
    return tf.sin(y)


@case
def v1_while_loop_two_results(p):
    x, w = p("x", [2, 2]), p("w", [2, 2])
    _, a, b = tf.while_loop(lambda i, a, b: i < 3,
                            lambda i, a, b: (i + 1, tf.matmul(a, w) + b, tf.tanh(b) * a),
                            [0, x, w])
    return a * 2.0 + b


@case
def v1_cond(p):
    x, w = p("x", [2, 3]), p("w", [2, 3])
    return tf.cond(tf.reduce_sum(x) > 0.0, lambda: x * w, lambda: tf.sin(x)) + \
        tf.cond(tf.reduce_sum(x) < 0.0, lambda: x * w, lambda: tf.cos(w))


V1_CONTROL_FLOW = {"v1_while_loop", "v1_while_loop_data_dependent", "v1_while_loop_two_results",
                   "v1_cond"}
FLOAT32_CASES = {"conv2d", "conv2d_transpose", "cnn_pool_batchnorm_l2"}


def make(name, fn, out_dir):
    dtype = tf.float32 if name in FLOAT32_CASES else tf.float64
    rng = np.random.default_rng(sum(map(ord, name)))  # a fixed seed per case
    feeds = {}
    g = tf.Graph()
    with g.as_default():
        def p(pname, shape, lo=-1.0, hi=1.0):
            ph = tf1.placeholder(dtype, shape, name=pname)
            feeds[ph] = rng.uniform(lo, hi, size=shape).astype(dtype.as_numpy_dtype)
            return ph

        y = tf.identity(fn(p), name="y")
        assert y.op.name == "y", "a case may not name a placeholder y"
        forward = g.as_graph_def()
        dy_value = rng.uniform(0.5, 1.5, size=y.shape.as_list()).astype(dtype.as_numpy_dtype)
        xs = list(feeds)
        grads = tf.gradients(y, xs, grad_ys=tf.constant(dy_value))
        with tf1.Session(graph=g) as sess:
            values = sess.run(grads, feed_dict=feeds)
    data = tf.Graph()
    with data.as_default():
        tf.constant(dy_value, name="oracle/dy")
        for ph, v in feeds.items():
            tf.constant(v, name="oracle/feed/" + ph.op.name)
        for ph, v in zip(xs, values):
            assert v is not None, (name, ph.op.name)
            tf.constant(np.asarray(v), name="oracle/grad/" + ph.op.name)
    forward.node.extend(data.as_graph_def().node)
    with open(os.path.join(out_dir, name + ".pb"), "wb") as f:
        f.write(forward.SerializeToString(deterministic=True))
    print(f"{name}: {len(forward.node)} nodes")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(HERE, "grad_cases"))
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    tf1.disable_eager_execution()
    for name, fn in CASES.items():
        if args.only and name not in args.only:
            continue
        if name in V1_CONTROL_FLOW:
            tf1.disable_control_flow_v2()
        make(name, fn, args.out)
        tf1.enable_control_flow_v2()


if __name__ == "__main__":
    main()
