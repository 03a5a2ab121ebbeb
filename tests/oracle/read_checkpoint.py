#!/usr/bin/env python3
"""TensorFlow reads a checkpoint sg wrote: each variable's value must equal sg's, bit for bit.

    $PY tests/oracle/read_checkpoint.py PREFIX NAME=FILE.npy [NAME=FILE.npy ...]

PREFIX is the checkpoint's prefix (PREFIX.index and PREFIX.data-*), as a Saver's SaveV2 writes
it; each NAME is a variable's key in the checkpoint and FILE.npy the value sg held when it saved.
TensorFlow restores every variable twice: with tf.train.load_checkpoint (the bundle reader) and
with a tf.compat.v1 Saver in a graph of variables of those names (RestoreV2, as a TF 1.x
program would). Exits 0 when both give exactly sg's values, 1 (naming the variable) otherwise.
Run by tests/core/training_test.cc.
"""

import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    prefix = argv[1]
    want = {}
    for arg in argv[2:]:
        name, _, path = arg.partition("=")
        want[name] = np.load(path, allow_pickle=False)
    import tensorflow as tf
    reader = tf.train.load_checkpoint(prefix)
    bad = 0
    for name, value in want.items():
        got = reader.get_tensor(name)
        if got.dtype != value.dtype or got.shape != value.shape or \
                got.tobytes() != value.tobytes():
            print(f"read_checkpoint: {name}: TensorFlow's reader gives {got.dtype}{list(got.shape)}"
                  f" {got.ravel()[:4]}..., sg held {value.dtype}{list(value.shape)}"
                  f" {value.ravel()[:4]}...", file=sys.stderr)
            bad += 1
    g = tf.Graph()
    with g.as_default():
        tf.compat.v1.disable_eager_execution()
        variables = {name: tf.compat.v1.get_variable(name, shape=value.shape,
                                                     dtype=tf.as_dtype(value.dtype),
                                                     use_resource=False)
                     for name, value in want.items()}
        saver = tf.compat.v1.train.Saver(variables)
        with tf.compat.v1.Session(graph=g) as sess:
            saver.restore(sess, prefix)
            for name, v in variables.items():
                got = sess.run(v)
                if got.tobytes() != want[name].tobytes():
                    print(f"read_checkpoint: {name}: a Saver restores other values than sg's",
                          file=sys.stderr)
                    bad += 1
    print(f"read_checkpoint: TensorFlow read {len(want)} variables from {prefix}"
          + (f"; {bad} differ" if bad else ", each equal to sg's"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
