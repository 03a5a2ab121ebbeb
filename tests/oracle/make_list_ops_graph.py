#!/usr/bin/env python3
"""Write GraphDefs whose while loops carry TensorLists, and print TensorFlow's results for them
(tests/core/list_ops_test.cc checks sg against these numbers, written there by hand).

    PY=$(tests/oracle/setup_venv.sh)
    $PY tests/oracle/make_list_ops_graph.py [--out tests/oracle/list_graphs]

while_v1.pb: control flow v1 (Enter/Merge/Switch/LoopCond/NextIteration/Exit). The loop runs
i = 0 .. n-1 with x = float(i) and
  pushed:   TensorListPushBack of [x, x*x] onto an EmptyTensorList of element shape [2]
  reserved: TensorListSetItem of x + 10 at index n-1-i of TensorListReserve([], n)
  ragged:   TensorListPushBack of fill([i], x) onto an EmptyTensorList of element shape [None]
and after the loop fetches TensorListStack(pushed), TensorListGather(reserved, [0, n-1]),
TensorListConcatV2(ragged) (tensor and lengths) and TensorListLength(ragged).

while_v2.pb: TensorFlow 2's control flow (a While node whose cond and body are library
functions) with tf.TensorArrays, which TensorFlow 2 builds from TensorList ops: a fixed-size
array written with [x, x*x] at i, a dynamic one written with x*3 at 2i (growing through
TensorListSetItem's resize_if_index_out_of_bounds), then stacked, gathered and concatenated.

Each graph is run for n = 5 from the written bytes, imported into a fresh graph. A rerun writes
the same bytes.
"""

import argparse
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"

import tensorflow as tf  # noqa: E402
from tensorflow.python.ops import gen_list_ops, list_ops  # noqa: E402

tf1 = tf.compat.v1
HERE = os.path.dirname(os.path.abspath(__file__))


def build_v1():
    tf1.disable_control_flow_v2()
    g = tf.Graph()
    with g.as_default():
        n = tf1.placeholder(tf.int32, [], name="n")
        pushed = list_ops.empty_tensor_list(element_shape=[2], element_dtype=tf.float32)
        reserved = list_ops.tensor_list_reserve(element_shape=[], num_elements=n,
                                                element_dtype=tf.float32)
        ragged = list_ops.empty_tensor_list(element_shape=[None], element_dtype=tf.float32)

        def body(i, pushed, reserved, ragged):
            x = tf.cast(i, tf.float32)
            pushed = list_ops.tensor_list_push_back(pushed, tf.stack([x, x * x]))
            reserved = list_ops.tensor_list_set_item(reserved, n - 1 - i, x + 10.0)
            ragged = list_ops.tensor_list_push_back(ragged, tf.fill([i], x))
            return i + 1, pushed, reserved, ragged

        _, pushed, reserved, ragged = tf1.while_loop(
            lambda i, *_: i < n, body, [tf.constant(0), pushed, reserved, ragged])
        tf.identity(list_ops.tensor_list_stack(pushed, tf.float32, element_shape=[2]),
                    name="stacked")
        tf.identity(list_ops.tensor_list_gather(reserved, [0, n - 1], tf.float32,
                                                element_shape=[]), name="gathered")
        concat, lengths = gen_list_ops.tensor_list_concat_v2(
            ragged, element_dtype=tf.float32, element_shape=[-1],
            leading_dims=tf.zeros([0], tf.int64), name="concat")
        tf.identity(concat, name="concatenated")
        tf.identity(lengths, name="lengths")
        tf.identity(list_ops.tensor_list_length(ragged), name="length")
    ops = {op.type for op in g.get_operations()}
    assert "Enter" in ops and not ops & {"While", "StatelessWhile"}, ops
    return g, ["stacked:0", "gathered:0", "concatenated:0", "lengths:0", "length:0"]


def build_v2():
    tf1.enable_control_flow_v2()
    g = tf.Graph()
    with g.as_default():
        n = tf1.placeholder(tf.int32, [], name="n")
        fixed = tf.TensorArray(tf.float32, size=n, element_shape=[2])
        dynamic = tf.TensorArray(tf.float32, size=0, dynamic_size=True, element_shape=[])

        def body(i, fixed, dynamic):
            x = tf.cast(i, tf.float32)
            return i + 1, fixed.write(i, tf.stack([x, x * x])), dynamic.write(2 * i, x * 3.0)

        _, fixed, dynamic = tf.while_loop(lambda i, *_: i < n, body, [0, fixed, dynamic])
        tf.identity(fixed.stack(), name="stacked")
        tf.identity(fixed.gather([n - 1, 0]), name="gathered")
        tf.identity(dynamic.stack(), name="dynamic")
        tf.identity(dynamic.size(), name="dynamic_size")
        tf.identity(fixed.concat(), name="concatenated")
    gd = g.as_graph_def()
    ops = {n.op for n in gd.node} | {n.op for f in gd.library.function for n in f.node_def}
    assert ops & {"While", "StatelessWhile"} and "Enter" not in ops, ops
    return g, ["stacked:0", "gathered:0", "dynamic:0", "dynamic_size:0", "concatenated:0"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(HERE, "list_graphs"))
    args = ap.parse_args()
    tf1.disable_eager_execution()
    os.makedirs(args.out, exist_ok=True)
    for name, build in (("while_v1.pb", build_v1), ("while_v2.pb", build_v2)):
        g, fetches = build()
        data = g.as_graph_def().SerializeToString(deterministic=True)
        with open(os.path.join(args.out, name), "wb") as f:
            f.write(data)
        gd = tf1.GraphDef()
        gd.ParseFromString(data)
        fresh = tf.Graph()
        with fresh.as_default():
            tf1.import_graph_def(gd, name="")
        with tf1.Session(graph=fresh) as s:
            print(name)
            for fetch, value in zip(fetches, s.run(fetches, {"n:0": 5})):
                print(" ", fetch, value.dtype, list(value.shape), value.flatten().tolist())
    print("wrote", args.out)


if __name__ == "__main__":
    main()
