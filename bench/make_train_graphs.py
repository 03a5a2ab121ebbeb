#!/usr/bin/env python3
"""Writes the training graphs train_step_bench times: tf.compat.v1 graphs as TensorFlow writes them.

    PY=$(tests/oracle/setup_venv.sh)
    $PY bench/make_train_graphs.py OUT_DIR

  digits_mlp_adam.pb  the digits classifier (64 -> 64 ReLU -> 10, tests/testdata/digits_mlp.pb's
                      model), sparse softmax cross-entropy, AdamOptimizer(0.005)
  cnn_momentum.pb     a small CNN on 28x28x1 images: Conv2D 5x5x16 + ReLU + MaxPool 2x2,
                      Conv2D 5x5x32 + ReLU + MaxPool 2x2, Dense 128 + ReLU, Dense 10;
                      MomentumOptimizer(0.01, 0.9)

Each has placeholders `x` (float32 [64, ...]) and `labels` (int32 [64]), an init op `init` and a
train op `train` (one step); variables are ref variables with constant initial values. The graphs
are not committed: bench/train_step_bench.sh writes them into its build directory.
"""

import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"

import numpy as np  # noqa: E402

BATCH = 64


def main(out_dir):
    import tensorflow as tf
    tf1 = tf.compat.v1
    tf1.disable_eager_execution()
    os.makedirs(out_dir, exist_ok=True)
    rng = np.random.default_rng(0)

    def var(name, shape, std):
        value = (rng.standard_normal(shape) * std).astype(np.float32) if std else \
            np.zeros(shape, np.float32)
        return tf1.get_variable(name, initializer=tf1.constant_initializer(value), shape=shape,
                                use_resource=False)

    def write(name, build, optimizer):
        g = tf.Graph()
        with g.as_default():
            logits = build()
            labels = tf1.placeholder(tf.int32, [BATCH], name="labels")
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
                labels=labels, logits=logits), name="loss")
            optimizer().minimize(loss, name="train")
            tf.group(tf1.global_variables_initializer(), name="init")
        with open(os.path.join(out_dir, name + ".pb"), "wb") as f:
            f.write(g.as_graph_def().SerializeToString())
        print(f"{name}.pb: {len(g.as_graph_def().node)} nodes")

    def mlp():
        x = tf1.placeholder(tf.float32, [BATCH, 64], name="x")
        h = tf.nn.relu(tf.nn.bias_add(tf.matmul(x, var("hidden/w", [64, 64], 0.17)),
                                      var("hidden/b", [64], 0)))
        return tf.nn.bias_add(tf.matmul(h, var("out/w", [64, 10], 0.12)), var("out/b", [10], 0))

    def cnn():
        x = tf1.placeholder(tf.float32, [BATCH, 28, 28, 1], name="x")
        h = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, var("c1/w", [5, 5, 1, 16], 0.2), 1, "SAME"),
                                      var("c1/b", [16], 0)))
        h = tf.nn.max_pool2d(h, 2, 2, "VALID")
        h = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(h, var("c2/w", [5, 5, 16, 32], 0.05), 1,
                                                   "SAME"), var("c2/b", [32], 0)))
        h = tf.nn.max_pool2d(h, 2, 2, "VALID")
        h = tf.reshape(h, [BATCH, 7 * 7 * 32])
        h = tf.nn.relu(tf.matmul(h, var("d1/w", [7 * 7 * 32, 128], 0.03)) + var("d1/b", [128], 0))
        return tf.matmul(h, var("d2/w", [128, 10], 0.1)) + var("d2/b", [10], 0)

    write("digits_mlp_adam", mlp, lambda: tf1.train.AdamOptimizer(0.005))
    write("cnn_momentum", cnn, lambda: tf1.train.MomentumOptimizer(0.01, 0.9))
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
