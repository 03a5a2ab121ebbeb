#!/usr/bin/env python3
"""Write tests/testdata/list_ops/while_v1.pb: a TensorFlow 2.21 graph whose v1 while loop
(Enter/Merge/Switch/LoopCond/NextIteration/Exit, control flow v2 off) fills TensorLists, and print
what TensorFlow fetches from it for n = 5 (tests/core/list_ops_test.cc checks sg against these).

    PY=$(tests/oracle/setup_venv.sh)
    $PY tests/oracle/make_list_ops_graph.py

The loop runs i = 0 .. n-1 with x = float(i) and
  pushed:   TensorListPushBack of [x, x*x] onto an EmptyTensorList of element shape [2]
  reserved: TensorListSetItem of x + 10 at index n-1-i of TensorListReserve([], n)
  ragged:   TensorListPushBack of fill([i], x) onto an EmptyTensorList of element shape [None]
and after the loop fetches TensorListStack(pushed), TensorListGather(reserved, [0, n-1]),
TensorListConcatV2(ragged) (tensor and lengths) and TensorListLength(ragged).
"""

import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import tensorflow as tf  # noqa: E402
from tensorflow.python.ops import gen_list_ops, list_ops  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(os.path.dirname(HERE), "testdata", "list_ops", "while_v1.pb")


def build():
    tf.compat.v1.disable_eager_execution()
    tf.compat.v1.disable_control_flow_v2()
    g = tf.Graph()
    with g.as_default():
        n = tf.compat.v1.placeholder(tf.int32, [], name="n")
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

        _, pushed, reserved, ragged = tf.compat.v1.while_loop(
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
    return g


def main():
    g = build()
    ops = sorted({op.type for op in g.get_operations()})
    assert "Enter" in ops and "While" not in ops and "StatelessWhile" not in ops, ops
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "wb") as f:
        f.write(g.as_graph_def().SerializeToString())
    with tf.compat.v1.Session(graph=g) as s:
        fetches = ["stacked:0", "gathered:0", "concatenated:0", "lengths:0", "length:0"]
        for name, value in zip(fetches, s.run(fetches, {"n:0": 5})):
            print(name, value.dtype, list(value.shape), value.flatten().tolist())
    print("ops:", ", ".join(ops))
    print("wrote", OUT)


if __name__ == "__main__":
    main()
