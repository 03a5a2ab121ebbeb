#!/usr/bin/env python3
"""TensorFlow restores a digits-classifier checkpoint that sg wrote and prints its held-out accuracy.

    $PY tests/oracle/eval_digits_checkpoint.py PREFIX TEST_X.npy TEST_Y.npy

PREFIX is a V2 checkpoint holding hidden/w [64, 64], hidden/b [64], out/w [64, 10], out/b [10]
(examples/train_digits.c writes one). TensorFlow builds the classifier (MatMul, BiasAdd, ReLU,
MatMul, BiasAdd) with ref variables of those names, restores them with a tf.compat.v1 Saver
(RestoreV2), and prints "held-out accuracy: C/N = A" as train_digits does, so that the two lines
can be compared. Run by tests/c_api/train_digits_test.sh.
"""

import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402


def main(argv):
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    prefix, xs, ys = argv[1], np.load(argv[2]), np.load(argv[3])
    import tensorflow as tf
    tf1 = tf.compat.v1
    tf1.disable_eager_execution()
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [None, 64])
        shapes = {"hidden/w": [64, 64], "hidden/b": [64], "out/w": [64, 10], "out/b": [10]}
        v = {k: tf1.get_variable(k, shape=s, use_resource=False) for k, s in shapes.items()}
        h = tf.nn.relu(tf.nn.bias_add(tf.matmul(x, v["hidden/w"]), v["hidden/b"]))
        logits = tf.nn.bias_add(tf.matmul(h, v["out/w"]), v["out/b"])
        saver = tf1.train.Saver(v)
        with tf1.Session(graph=g) as sess:
            saver.restore(sess, prefix)
            out = sess.run(logits, {x: xs})
    correct = int(np.sum(np.argmax(out, 1) == ys))
    print(f"held-out accuracy: {correct}/{len(ys)} = {correct / len(ys):.5f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
