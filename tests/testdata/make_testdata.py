#!/usr/bin/env python3
"""Generate sg's test graphs and TensorFlow's expected outputs.

TensorFlow is only an oracle here: it builds TF1-style GraphDefs and computes
the values that sg must reproduce. sg itself never depends on TensorFlow.

Regenerate (from the repository root):

    pip install -r tests/testdata/requirements.txt
    python3 tests/testdata/make_testdata.py            # writes into tests/testdata/
    python3 tests/testdata/make_testdata.py --out DIR  # writes elsewhere (to diff)

All graphs are built with `tf.compat.v1` in graph mode, with v2 behaviour and
control flow v2 disabled, so variables are `VariableV2` (ref variables) and
while/cond lower to Switch/Merge/Enter/Exit/NextIteration/LoopCond.

Determinism: all weights and inputs come from numpy's `RandomState` (stable
across numpy versions), no TensorFlow random op is used, and every session runs
single-threaded with oneDNN off. Re-running with the pinned versions on the
same machine reproduces every file byte for byte (checked). On a CPU with a
different instruction set, Eigen may pick other kernels, so float results in
expected.json / digits_tf_probs.npy and the trained digits weights (hence
digits_mlp.pb and the SavedModel variables) could differ in the last bits; the
structure of every graph, all node names, the digits split and the inputs are
the same everywhere.

Outputs (see README.md next to this script for details and node names):

    digits_mlp.pb          frozen 64 -> 64 ReLU -> 10 classifier
    digits_test_x.npy      float32 [360, 64] held-out inputs, already scaled by 1/16
    digits_test_y.npy      int32   [360] labels
    digits_train_x.npy     float32 [1437, 64] the training split, scaled by 1/16
    digits_train_y.npy     int32   [1437] its labels
    digits_train_init.npy  float32 [4810] the weights TensorFlow's training started from
    digits_train_batches.npy int32 [600, 64] the rows of the training split each step took
    digits_tf_probs.npy    float32 [360, 10] TensorFlow's `probs` for those inputs
    digits_saved_model/    the same classifier as a TF1 SavedModel with variables
    while_loop.pb, cond.pb, variables.pb, conv_net.pb, ops_mix.pb,
    tensor_array.pb, function_call.pb      small GraphDefs
    expected.json          feeds and TensorFlow's results for the small graphs

expected.json format
--------------------
{
  "tensorflow_version": "2.15.1",
  "digits_mlp": {"test_accuracy": 0.97.., "num_test": 360, ...},
  "graphs": [
    {
      "file": "cond.pb",
      "description": "...",
      "ops": {"Switch": 6, ...},      # op histogram (informative only)
      "runs": [                       # in order; one Session per graph, so
        {                             # variable state carries from run to run
          "name": "pred_true",
          "targets": ["init"],        # node names run for effect only
          "feeds":   {"x:0":   TENSOR, ...},
          "fetches": {"out:0": TENSOR, ...}   # TensorFlow's output
        }, ...
      ]
    }, ...
  ]
}
TENSOR = {"dtype": "float32"|"float64"|"int32"|"int64"|"bool",
          "shape": [d0, d1, ...],     # [] for a scalar
          "values": [v, ...]}         # FLAT list, row-major (C order), for
                                      # feeds and fetches alike; bools are
                                      # true/false; floats are written as the
                                      # shortest decimal that round-trips the
                                      # exact float32 value.
Compare floats with a tolerance (e.g. rtol 1e-5, atol 1e-6; transcendental
functions may differ in the last ulp); integers and bools exactly.
"""

import argparse
import hashlib
import json
import os
import shutil
import sys

# Must be set before TensorFlow is imported.
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"
os.environ["TF_DETERMINISTIC_OPS"] = "1"

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from sklearn.datasets import load_digits  # noqa: E402
from tensorflow.python.framework import function as tf_function  # noqa: E402

import sg_checkpoint_check  # noqa: E402  (next to this script)

tf1 = tf.compat.v1
tf1.disable_v2_behavior()
tf1.disable_control_flow_v2()
tf1.disable_resource_variables()

EXPECTED_TF_VERSION = "2.15.1"
NUM_TEST = 360


def session_config():
    return tf1.ConfigProto(intra_op_parallelism_threads=1,
                           inter_op_parallelism_threads=1,
                           use_per_session_threads=True)


# ----------------------------------------------------------------------------
# helpers
# ----------------------------------------------------------------------------

def tensor_json(value):
    """numpy value -> {"dtype", "shape", "values"(flat)}"""
    a = np.asarray(value)
    if a.dtype == np.float32:
        # shortest decimal that round-trips in float32 (checked)
        vals = [float(str(v)) if np.isfinite(v) else float(v) for v in a.reshape(-1)]
        back = np.array(vals, np.float64).astype(np.float32)
        assert np.array_equal(back.view(np.uint32), a.reshape(-1).view(np.uint32)), a
    elif a.dtype == np.float64:
        vals = [float(v) for v in a.reshape(-1)]
    elif a.dtype in (np.int32, np.int64, np.int8, np.int16, np.uint8):
        vals = [int(v) for v in a.reshape(-1)]
    elif a.dtype == np.bool_:
        vals = [bool(v) for v in a.reshape(-1)]
    else:
        raise ValueError("unsupported dtype %s" % a.dtype)
    for v in vals:
        if isinstance(v, float) and not np.isfinite(v):
            raise ValueError("non-finite value in expected output")
    return {"dtype": a.dtype.name, "shape": list(a.shape), "values": vals}


def write_pb(out_dir, filename, graph_def):
    data = graph_def.SerializeToString(deterministic=True)
    with open(os.path.join(out_dir, filename), "wb") as f:
        f.write(data)
    return data


def load_graph_def(data):
    gd = tf1.GraphDef()
    gd.ParseFromString(data)
    return gd


def run_sequence(graph_bytes, runs):
    """Import the serialized GraphDef into a fresh graph (exactly what sg will
    read) and execute `runs` in order in one session. Fills in "fetches"."""
    g = tf.Graph()
    with g.as_default():
        tf1.import_graph_def(load_graph_def(graph_bytes), name="")
    results = []
    with tf1.Session(graph=g, config=session_config()) as sess:
        for run in runs:
            feeds = {g.get_tensor_by_name(k): v for k, v in run.get("feeds", {}).items()}
            fetch_names = list(run.get("fetches", []))
            targets = [g.get_operation_by_name(t) for t in run.get("targets", [])]
            fetch_tensors = [g.get_tensor_by_name(n) for n in fetch_names]
            out = sess.run(fetch_tensors + targets, feed_dict=feeds)
            entry = {"name": run["name"], "targets": list(run.get("targets", [])),
                     "feeds": {k: tensor_json(v) for k, v in run.get("feeds", {}).items()},
                     "fetches": {n: tensor_json(v)
                                 for n, v in zip(fetch_names, out[:len(fetch_names)])}}
            results.append(entry)
    return results


def freeze(sess, graph, output_names):
    gd = tf1.graph_util.convert_variables_to_constants(
        sess, graph.as_graph_def(), output_names)
    return gd


def op_histogram(graph_def):
    hist = {}
    for n in graph_def.node:
        hist[n.op] = hist.get(n.op, 0) + 1
    for f in graph_def.library.function:
        for n in f.node_def:
            key = "%s (in function %s)" % (n.op, f.signature.name)
            hist[key] = hist.get(key, 0) + 1
    return dict(sorted(hist.items()))


# ----------------------------------------------------------------------------
# 1 + 2. digits classifier: frozen GraphDef and SavedModel
# ----------------------------------------------------------------------------

def digits_data():
    d = load_digits()
    x = (d.data / 16.0).astype(np.float32)
    y = d.target.astype(np.int32)
    assert x.shape == (1797, 64)
    perm = np.random.RandomState(0).permutation(len(x))
    test_idx, train_idx = perm[:NUM_TEST], perm[NUM_TEST:]
    return x[train_idx], y[train_idx], x[test_idx], y[test_idx]


def digits_inference(x, init_values=None):
    """input [?,64] -> hidden 64 ReLU -> logits 10 -> probs.
    Variables are VariableV2; their initial values are numpy constants so no
    TF random op is involved."""
    rs = np.random.RandomState(1)
    if init_values is None:
        init_values = {
            "hidden/w": (rs.randn(64, 64) * np.sqrt(2.0 / 64)).astype(np.float32),
            "hidden/b": np.zeros(64, np.float32),
            "out/w": (rs.randn(64, 10) * np.sqrt(1.0 / 64)).astype(np.float32),
            "out/b": np.zeros(10, np.float32),
        }
    vs = {}
    with tf1.variable_scope("hidden"):
        vs["hidden/w"] = tf1.Variable(init_values["hidden/w"], name="w")
        vs["hidden/b"] = tf1.Variable(init_values["hidden/b"], name="b")
        h = tf.nn.relu(tf.nn.bias_add(tf.matmul(x, vs["hidden/w"], name="MatMul"),
                                      vs["hidden/b"], name="BiasAdd"), name="Relu")
    with tf1.variable_scope("out"):
        vs["out/w"] = tf1.Variable(init_values["out/w"], name="w")
        vs["out/b"] = tf1.Variable(init_values["out/b"], name="b")
        z = tf.nn.bias_add(tf.matmul(h, vs["out/w"], name="MatMul"), vs["out/b"],
                           name="BiasAdd")
    logits = tf.identity(z, name="logits")
    probs = tf.nn.softmax(logits, name="probs")
    return logits, probs, vs


def make_digits(out_dir, summary):
    xtr, ytr, xte, yte = digits_data()
    steps, batch = 600, 64

    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [None, 64], name="input")
        labels = tf1.placeholder(tf.int32, [None], name="labels")
        logits, probs, vs = digits_inference(x)
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
            labels=labels, logits=logits))
        train = tf1.train.AdamOptimizer(0.005).minimize(loss)
        init = tf1.global_variables_initializer()
        rs = np.random.RandomState(2)
        batches = []
        with tf1.Session(graph=g, config=session_config()) as sess:
            sess.run(init)
            initial = {k: sess.run(v) for k, v in vs.items()}
            for step in range(steps):
                idx = rs.randint(0, len(xtr), size=batch)
                batches.append(idx)
                l, _ = sess.run([loss, train], {x: xtr[idx], labels: ytr[idx]})
                if step % 100 == 0 or step == steps - 1:
                    print("digits step %d loss %.4f" % (step, l))
            trained = {k: sess.run(v) for k, v in vs.items()}
            frozen = freeze(sess, g, ["logits", "probs"])

    data = write_pb(out_dir, "digits_mlp.pb", frozen)

    # TensorFlow's own output from the frozen file.
    g2 = tf.Graph()
    with g2.as_default():
        tf1.import_graph_def(load_graph_def(data), name="")
        with tf1.Session(graph=g2, config=session_config()) as sess:
            probs_v, logits_v = sess.run(["probs:0", "logits:0"], {"input:0": xte})
    probs_v = probs_v.astype(np.float32)
    acc = float(np.mean(np.argmax(probs_v, 1) == yte))
    print("digits: TensorFlow accuracy on the %d held-out samples: %.4f (%d/%d)"
          % (NUM_TEST, acc, int(round(acc * NUM_TEST)), NUM_TEST))
    np.save(os.path.join(out_dir, "digits_test_x.npy"), xte.astype(np.float32))
    np.save(os.path.join(out_dir, "digits_test_y.npy"), yte.astype(np.int32))
    # The training split, for the programs that train the classifier through the C API
    # (examples/train_digits.c and the Java and Go examples).
    np.save(os.path.join(out_dir, "digits_train_x.npy"), xtr.astype(np.float32))
    np.save(os.path.join(out_dir, "digits_train_y.npy"), ytr.astype(np.int32))
    # What TensorFlow's training started from and fed, for those programs to train the same way:
    # the initial hidden/w, hidden/b, out/w, out/b flattened and concatenated, and each step's rows.
    np.save(os.path.join(out_dir, "digits_train_init.npy"), np.concatenate(
        [initial[k].ravel() for k in ("hidden/w", "hidden/b", "out/w", "out/b")]).astype(np.float32))
    np.save(os.path.join(out_dir, "digits_train_batches.npy"), np.stack(batches).astype(np.int32))
    np.save(os.path.join(out_dir, "digits_tf_probs.npy"), probs_v)

    # SavedModel with (non-frozen) variables holding the trained weights.
    sm_dir = os.path.join(out_dir, "digits_saved_model")
    if os.path.exists(sm_dir):
        shutil.rmtree(sm_dir)
    g3 = tf.Graph()
    with g3.as_default():
        x = tf1.placeholder(tf.float32, [None, 64], name="input")
        zeros = {k: np.zeros_like(v) for k, v in trained.items()}
        logits, probs, vs = digits_inference(x, zeros)
        with tf1.Session(graph=g3, config=session_config()) as sess:
            sess.run(tf1.global_variables_initializer())
            for k, v in vs.items():
                v.load(trained[k], sess)  # feeds the value: no big Const in the graph
            sig = tf1.saved_model.signature_def_utils.build_signature_def(
                inputs={"x": tf1.saved_model.utils.build_tensor_info(x)},
                outputs={"probs": tf1.saved_model.utils.build_tensor_info(probs),
                         "logits": tf1.saved_model.utils.build_tensor_info(logits)},
                method_name=tf1.saved_model.signature_constants.PREDICT_METHOD_NAME)
            builder = tf1.saved_model.Builder(sm_dir)
            builder.add_meta_graph_and_variables(
                sess, [tf1.saved_model.tag_constants.SERVING],
                signature_def_map={"serving_default": sig},
                strip_default_attrs=False)
            builder.save(as_text=False)

    # Check the SavedModel reproduces the frozen graph's output.
    g4 = tf.Graph()
    with tf1.Session(graph=g4, config=session_config()) as sess:
        meta = tf1.saved_model.loader.load(sess, ["serve"], sm_dir)
        s = meta.signature_def["serving_default"]
        sm_probs = sess.run(s.outputs["probs"].name, {s.inputs["x"].name: xte})
    diff = float(np.max(np.abs(sm_probs - probs_v)))
    print("digits: SavedModel vs frozen max |diff| = %g" % diff)
    assert diff <= 1e-6, diff

    summary["digits_mlp"] = {
        "file": "digits_mlp.pb",
        "saved_model": "digits_saved_model",
        "input": "input:0",
        "outputs": ["logits:0", "probs:0"],
        "num_test": NUM_TEST,
        "test_accuracy": acc,
        "test_correct": int(np.sum(np.argmax(probs_v, 1) == yte)),
        "train_steps": steps,
        "saved_model_signature": {"tag": "serve", "key": "serving_default",
                                  "inputs": {"x": "input:0"},
                                  "outputs": {"probs": "probs:0", "logits": "logits:0"}},
    }
    # A small fixed run in expected.json too (first 4 held-out samples).
    return {
        "file": "digits_mlp.pb",
        "description": "frozen digits MLP; first 4 held-out samples "
                       "(full set: digits_test_x.npy / digits_tf_probs.npy)",
        "runs": run_sequence(data, [{"name": "first4", "feeds": {"input:0": xte[:4]},
                                     "fetches": ["logits:0", "probs:0"]}]),
        "ops": op_histogram(frozen),
    }


# ----------------------------------------------------------------------------
# 3. small graphs
# ----------------------------------------------------------------------------

def make_while_loop(out_dir):
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [None], name="x")
        n = tf1.placeholder(tf.int32, [], name="n")
        i0 = tf.constant(0, tf.int32, name="i0")
        s0 = tf.constant(0, tf.int32, name="s0")

        def cond(i, s, v):
            return tf.less(i, n)

        def body(i, s, v):
            return [tf.add(i, 1), tf.add(s, i), tf.multiply(v, 2.0)]

        i_f, s_f, v_f = tf1.while_loop(cond, body, [i0, s0, x], name="loop",
                                       back_prop=False, parallel_iterations=10)
        tf.identity(i_f, name="iterations")
        tf.identity(s_f, name="sum")
        tf.identity(v_f, name="doubled")
        gd = g.as_graph_def()
    data = write_pb(out_dir, "while_loop.pb", gd)
    fetch = ["sum:0", "doubled:0", "iterations:0"]
    x_v = np.array([1.0, -0.5, 3.25], np.float32)
    runs = [
        {"name": "n10", "feeds": {"x:0": x_v, "n:0": np.int32(10)}, "fetches": fetch},
        {"name": "n3", "feeds": {"x:0": x_v[:2], "n:0": np.int32(3)}, "fetches": fetch},
        {"name": "n0", "feeds": {"x:0": x_v, "n:0": np.int32(0)}, "fetches": fetch},
    ]
    return {"file": "while_loop.pb",
            "description": "v1 while_loop: i from 0 while i < n: sum += i; x *= 2 "
                           "(n=10 gives sum 45 and x*1024)",
            "runs": run_sequence(data, runs), "ops": op_histogram(gd)}


def make_cond(out_dir):
    g = tf.Graph()
    with g.as_default():
        pred = tf1.placeholder(tf.bool, [], name="pred")
        x = tf1.placeholder(tf.float32, [None], name="x")
        out = tf1.cond(pred,
                       lambda: tf.add(tf.multiply(x, 2.0), 1.0),
                       lambda: tf.subtract(tf.square(x), tf.reduce_sum(x)),
                       name="cond")
        tf.identity(out, name="out")
        # second cond: predicate computed in the graph, branches with different ops
        p2 = tf.greater(tf.reduce_sum(x), 0.0, name="pred2")
        out2 = tf1.cond(p2,
                        lambda: tf.nn.relu(x) * tf.constant(3.0),
                        lambda: tf.concat([tf.abs(x)], axis=0) - 1.0,
                        name="cond2")
        tf.identity(out2, name="out2")
        gd = g.as_graph_def()
    data = write_pb(out_dir, "cond.pb", gd)
    xa = np.array([1.5, -2.0, 0.25, 4.0], np.float32)
    xb = np.array([-3.0, 1.0, -0.5, 0.5], np.float32)
    fetch = ["out:0", "out2:0"]
    runs = [
        {"name": "pred_true", "feeds": {"pred:0": np.bool_(True), "x:0": xa}, "fetches": fetch},
        {"name": "pred_false", "feeds": {"pred:0": np.bool_(False), "x:0": xa}, "fetches": fetch},
        {"name": "pred_false_neg_sum", "feeds": {"pred:0": np.bool_(False), "x:0": xb},
         "fetches": fetch},
        {"name": "only_out", "feeds": {"pred:0": np.bool_(True), "x:0": xb},
         "fetches": ["out:0"]},
    ]
    return {"file": "cond.pb",
            "description": "v1 tf.cond: out = pred ? 2x+1 : x^2 - sum(x); "
                           "out2 = sum(x)>0 ? 3*relu(x) : |x|-1",
            "runs": run_sequence(data, runs), "ops": op_histogram(gd)}


def make_variables(out_dir):
    g = tf.Graph()
    with g.as_default():
        counter = tf1.Variable(np.int32(0), name="counter")
        w = tf1.Variable(np.array([1.0, 2.0], np.float32), name="w")
        delta = tf1.placeholder(tf.float32, [2], name="delta")
        tf1.variables_initializer([counter, w], name="init")
        tf1.assign_add(counter, 1, name="incr")
        tf1.assign_add(w, delta, name="w_add")
        tf1.assign(w, tf.multiply(w, 2.0), name="w_double")
        tf.identity(counter, name="counter_value")
        tf.identity(w, name="w_value")
        tf.add(tf.cast(counter, tf.float32), tf.reduce_sum(w), name="total")
        gd = g.as_graph_def()
    data = write_pb(out_dir, "variables.pb", gd)
    runs = [
        {"name": "init", "targets": ["init"]},
        {"name": "read0", "fetches": ["counter_value:0", "w_value:0"]},
        {"name": "incr1", "fetches": ["incr:0"]},
        {"name": "incr2", "fetches": ["incr:0"]},
        {"name": "incr3_target_only", "targets": ["incr"]},
        {"name": "read3", "fetches": ["counter_value:0"]},
        {"name": "w_add", "feeds": {"delta:0": np.array([0.5, -1.0], np.float32)},
         "fetches": ["w_add:0"]},
        {"name": "w_double", "targets": ["w_double"]},
        {"name": "read_w", "fetches": ["w_value:0", "total:0"]},
        {"name": "reinit", "targets": ["init"]},
        {"name": "read_after_reinit", "fetches": ["counter_value:0", "w_value:0", "total:0"]},
    ]
    return {"file": "variables.pb",
            "description": "NOT frozen: VariableV2 counter (int32, 0) and w (float32 [1,2]); "
                           "runs must share one session, in order",
            "runs": run_sequence(data, runs), "ops": op_histogram(gd)}


def make_conv_net(out_dir):
    rs = np.random.RandomState(3)
    g = tf.Graph()
    outputs = ["conv1_out", "bn_out", "dw_out", "maxpool_out", "conv2_out",
               "conv3_out", "avgpool_same_out", "avgpool_valid_out", "logits", "probs"]
    with g.as_default():
        x = tf1.placeholder(tf.float32, [None, 8, 8, 1], name="input")

        def var(name, shape, scale=0.5, offset=0.0):
            return tf1.Variable((rs.randn(*shape) * scale + offset).astype(np.float32),
                                name=name)

        w1 = var("conv1/w", [3, 3, 1, 4])
        b1 = var("conv1/b", [4], 0.1)
        c1 = tf.nn.conv2d(x, w1, strides=[1, 1, 1, 1], padding="SAME", name="conv1/Conv2D")
        c1 = tf.nn.bias_add(c1, b1, name="conv1/BiasAdd")
        c1 = tf.nn.relu6(c1, name="conv1/Relu6")
        tf.identity(c1, name="conv1_out")

        scale = var("bn/gamma", [4], 0.2, 1.0)
        offset = var("bn/beta", [4], 0.1)
        mean = var("bn/moving_mean", [4], 0.3, 0.5)
        variance = tf1.Variable(rs.uniform(0.5, 2.0, 4).astype(np.float32),
                                name="bn/moving_variance")
        bn, _, _ = tf1.nn.fused_batch_norm(c1, scale, offset, mean, variance,
                                           epsilon=1e-3, is_training=False,
                                           name="bn/FusedBatchNormV3")
        tf.identity(bn, name="bn_out")

        wd = var("dw/w", [3, 3, 4, 2])
        dw = tf1.nn.depthwise_conv2d_native(bn, wd, strides=[1, 1, 1, 1], padding="SAME",
                                            name="dw/DepthwiseConv2dNative")
        dw = tf.nn.relu(dw, name="dw/Relu")
        tf.identity(dw, name="dw_out")                                  # [N,8,8,8]

        mp = tf.nn.max_pool2d(dw, ksize=2, strides=2, padding="VALID", name="maxpool")
        tf.identity(mp, name="maxpool_out")                             # [N,4,4,8]

        w2 = var("conv2/w", [3, 3, 8, 6], 0.3)
        b2 = var("conv2/b", [6], 0.1)
        c2 = tf.nn.conv2d(mp, w2, strides=[1, 1, 1, 1], padding="VALID", name="conv2/Conv2D")
        c2 = tf.nn.relu6(tf.nn.bias_add(c2, b2, name="conv2/BiasAdd"), name="conv2/Relu6")
        tf.identity(c2, name="conv2_out")                               # [N,2,2,6]

        # strided SAME conv (asymmetric padding) and pools on a second branch
        w3 = var("conv3/w", [3, 3, 4, 4], 0.4)
        c3 = tf.nn.conv2d(bn, w3, strides=[1, 2, 2, 1], padding="SAME", name="conv3/Conv2D")
        tf.identity(c3, name="conv3_out")                               # [N,4,4,4]
        ap1 = tf.nn.avg_pool2d(c3, ksize=3, strides=1, padding="SAME", name="avgpool_same")
        tf.identity(ap1, name="avgpool_same_out")                       # [N,4,4,4]
        ap2 = tf.nn.avg_pool2d(ap1, ksize=2, strides=2, padding="VALID", name="avgpool_valid")
        tf.identity(ap2, name="avgpool_valid_out")                      # [N,2,2,4]

        cat = tf.concat([c2, ap2], axis=3, name="concat")               # [N,2,2,10]
        flat = tf.reshape(cat, [-1, 40], name="flatten")
        wf = var("fc/w", [40, 10], 0.3)
        bf = var("fc/b", [10], 0.1)
        z = tf.nn.bias_add(tf.matmul(flat, wf, name="fc/MatMul"), bf, name="fc/BiasAdd")
        tf.identity(z, name="logits")
        tf.nn.softmax(z, name="probs")
        with tf1.Session(graph=g, config=session_config()) as sess:
            sess.run(tf1.global_variables_initializer())
            gd = freeze(sess, g, outputs)
    data = write_pb(out_dir, "conv_net.pb", gd)
    xte = digits_data()[2]
    imgs = xte[:2].reshape(2, 8, 8, 1)
    fetch = [o + ":0" for o in outputs]
    runs = [{"name": "batch2", "feeds": {"input:0": imgs}, "fetches": fetch},
            {"name": "batch1", "feeds": {"input:0": imgs[1:]}, "fetches": ["probs:0"]}]
    return {"file": "conv_net.pb",
            "description": "frozen tiny CNN over [N,8,8,1] (NHWC); intermediate results "
                           "fetched as *_out",
            "runs": run_sequence(data, runs), "ops": op_histogram(gd)}


def make_ops_mix(out_dir):
    rs = np.random.RandomState(4)
    g = tf.Graph()
    outs = []

    def out(name, t):
        outs.append(name + ":0")
        return tf.identity(t, name=name)

    with g.as_default():
        x = tf1.placeholder(tf.float32, [2, 3, 4], name="x")
        y = tf1.placeholder(tf.float32, [2, 3, 4], name="y")       # positive values
        ids = tf1.placeholder(tf.int32, [None], name="ids")        # values in [0, 3)
        ia = tf1.placeholder(tf.int32, [6], name="ia")
        ib = tf1.placeholder(tf.int32, [6], name="ib")             # no zeros

        # slicing
        out("out_strided_slice", x[:, 1:, ::2])
        out("out_strided_slice_shrink", x[..., 0])
        out("out_strided_slice_newaxis", x[:, tf.newaxis, 1, -2:])
        out("out_strided_slice_reverse", x[::-1, :, 1:3])
        out("out_strided_slice_neg", x[1, -1, -3:-1])
        out("out_slice", tf.slice(x, [0, 1, 1], [2, 2, -1]))
        # joining / splitting
        out("out_concat", tf.concat([x, y], axis=1))
        out("out_concat_neg_axis", tf.concat([x, y, x], axis=-1))
        out("out_pack", tf.stack([x, y], axis=1))
        for k, t in enumerate(tf.unstack(x, axis=1)):
            out("out_unpack_%d" % k, t)
        for k, t in enumerate(tf.split(x, 2, axis=2)):
            out("out_split_%d" % k, t)
        for k, t in enumerate(tf.split(x, [1, 3], axis=2)):
            out("out_splitv_%d" % k, t)
        # shape manipulation
        out("out_transpose", tf.transpose(x, [2, 0, 1]))
        out("out_tile", tf.tile(x, [1, 2, 1]))
        out("out_pad", tf.pad(x, [[0, 0], [1, 2], [0, 1]]))
        out("out_padv2", tf.pad(x, [[1, 0], [0, 0], [2, 1]], constant_values=-1.5))
        out("out_expand_dims", tf.expand_dims(x, -1))
        out("out_squeeze", tf.squeeze(x[:, :1, :], axis=[1]))
        out("out_reshape", tf.reshape(x, [4, -1]))
        out("out_shape", tf.shape(x))
        out("out_size", tf.size(ids))
        # gather / one-hot / cast
        out("out_gather", tf.gather(x, ids, axis=1))
        out("out_gather_axis0", tf.gather(tf.reshape(x, [6, 4]), ids))
        out("out_one_hot", tf.one_hot(ids, depth=4))
        out("out_one_hot_custom", tf.one_hot(ids, depth=3, on_value=5, off_value=-1,
                                             axis=0, dtype=tf.int32))
        out("out_cast_f2i", tf.cast(x * 3.0, tf.int32))
        out("out_cast_i2f", tf.cast(ia, tf.float32))
        out("out_cast_f2b", tf.cast(tf.round(x), tf.bool))
        # reductions
        out("out_sum_keep", tf.reduce_sum(x, axis=1, keepdims=True))
        out("out_sum", tf.reduce_sum(x, axis=[0, 2]))
        out("out_mean", tf.reduce_mean(x, axis=[0, 2]))
        out("out_mean_keep", tf.reduce_mean(x, axis=-1, keepdims=True))
        out("out_max_keep", tf.reduce_max(x, axis=-1, keepdims=True))
        out("out_min_all", tf.reduce_min(x))
        out("out_prod", tf.reduce_prod(y, axis=2))
        out("out_prod_keep", tf.reduce_prod(y, axis=0, keepdims=True))
        out("out_argmax", tf.argmax(x, axis=2))
        out("out_argmax_i32", tf.argmax(x, axis=0, output_type=tf.int32))
        out("out_argmin", tf.argmin(x, axis=1))
        # comparisons and selection
        out("out_equal", tf.equal(ids, 1))
        out("out_greater", tf.greater(x, 0.0))
        out("out_logical_and", tf.logical_and(tf.greater(x, -0.5), tf.less(x, 0.5)))
        out("out_select", tf1.where(tf.greater(x, y), x, y))                 # Select
        out("out_select_v2", tf.where(tf.constant([True, False, True, False]),
                                      x, tf.constant(0.0)))                  # SelectV2
        # generators
        out("out_range", tf.range(0, 10, 3))
        out("out_range_float", tf.range(0.5, 2.0, 0.5))
        out("out_range_dynamic", tf.range(tf.shape(x)[2]))
        out("out_fill", tf.fill([2, 3], 7.0))
        out("out_fill_dynamic", tf.fill(tf.shape(ids), 2))
        out("out_zeros_like", tf.zeros_like(ids))
        out("out_ones_like", tf.ones_like(ids))
        # matmul
        out("out_batch_matmul", tf.matmul(x, tf.transpose(y, [0, 2, 1])))
        out("out_batch_matmul_bcast",
            tf.matmul(x, tf.constant(rs.randn(4, 5).astype(np.float32))))
        out("out_batch_matmul_adj", tf.matmul(x, y, adjoint_a=True))
        out("out_matmul_tb", tf.matmul(tf.reshape(x, [6, 4]), tf.reshape(y, [6, 4]),
                                       transpose_b=True))
        # arithmetic
        out("out_add_bcast", x + tf.constant([1.0, 2.0, 3.0, 4.0]))
        out("out_sub", x - y)
        out("out_mul", x * y)
        out("out_addn", tf.add_n([x, y, x]))
        out("out_pow", tf.pow(y, 1.5))
        out("out_floordiv_int", tf.math.floordiv(ia, ib))
        out("out_floordiv_float", tf.math.floordiv(x * 4.0, tf.constant(1.5)))
        out("out_floormod_int", tf.math.floormod(ia, ib))
        out("out_floormod_float", tf.math.floormod(x * 4.0, tf.constant(-1.5)))
        out("out_realdiv", tf.math.truediv(x, y))
        out("out_rsqrt", tf.math.rsqrt(y))
        out("out_sqrt", tf.sqrt(y))
        out("out_exp", tf.exp(x))
        out("out_log", tf.math.log(y))
        out("out_tanh", tf.tanh(x))
        out("out_sigmoid", tf.sigmoid(x))
        out("out_elu", tf.nn.elu(x))
        out("out_relu", tf.nn.relu(x))
        out("out_softmax", tf.nn.softmax(x))
        out("out_log_softmax", tf.nn.log_softmax(x))
        out("out_maximum", tf.maximum(x, 0.1))
        out("out_minimum", tf.minimum(x, y))
        out("out_abs", tf.abs(x))
        out("out_abs_int", tf.abs(ia))
        out("out_neg", tf.negative(x))
        out("out_square", tf.square(x))
        out("out_square_int", tf.square(ia))
        gd = g.as_graph_def()
    data = write_pb(out_dir, "ops_mix.pb", gd)

    # rounded to 1/64 so casts, floors and rounds are far from ambiguous
    def q(a):
        return (np.round(a * 64.0) / 64.0).astype(np.float32)
    xv = q(rs.uniform(-2.0, 2.0, (2, 3, 4)))
    xv.flat[5] = 0.0
    xv.flat[7] = 0.5       # tf.round half to even, Cast boundary
    xv.flat[9] = -1.25
    yv = q(rs.uniform(0.25, 2.0, (2, 3, 4)))
    feeds = {"x:0": xv, "y:0": yv,
             "ids:0": np.array([2, 0, 1, 2], np.int32),
             "ia:0": np.array([-7, -3, 0, 3, 7, 8], np.int32),
             "ib:0": np.array([2, 2, 3, -2, -3, 3], np.int32)}
    runs = [{"name": "all", "feeds": feeds, "fetches": outs}]
    return {"file": "ops_mix.pb",
            "description": "many elementwise/shape ops; each result is an Identity out_*",
            "runs": run_sequence(data, runs), "ops": op_histogram(gd)}


def make_tensor_array(out_dir):
    rs = np.random.RandomState(5)
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [None, 2, 3], name="x")          # [T, B, D]
        h0 = tf1.placeholder(tf.float32, [2, 4], name="h0")              # [B, H]
        wx = tf.constant(rs.randn(3, 4).astype(np.float32) * 0.5, name="rnn/wx")
        wh = tf.constant(rs.randn(4, 4).astype(np.float32) * 0.5, name="rnn/wh")
        b = tf.constant(rs.randn(4).astype(np.float32) * 0.1, name="rnn/b")
        steps = tf.shape(x, name="x_shape")[0]
        ta_in = tf1.TensorArray(tf.float32, size=steps, name="ta_in",
                                clear_after_read=True).unstack(x, name="ta_in_scatter")
        # dynamic_size so that stack()/size() use TensorArraySizeV3 (a fixed-size
        # TensorArray answers size() with its size tensor); clear_after_read off
        # because both stack() and gather() read element 0.
        ta_out = tf1.TensorArray(tf.float32, size=0, dynamic_size=True, name="ta_out",
                                 clear_after_read=False)

        def cond(t, h, ta):
            return tf.less(t, steps)

        def body(t, h, ta):
            xt = ta_in.read(t, name="x_t")
            h_new = tf.tanh(tf.matmul(xt, wx) + tf.matmul(h, wh) + b, name="h_new")
            return [t + 1, h_new, ta.write(t, h_new, name="write_h")]

        _, h_final, ta_final = tf1.while_loop(
            cond, body, [tf.constant(0, name="t0"), h0, ta_out], name="rnn",
            back_prop=False)
        tf.identity(ta_final.stack(name="stack"), name="outputs")       # [T, B, H]
        tf.identity(h_final, name="final_state")
        tf.identity(ta_final.size(name="ta_size"), name="num_steps")
        # also a gather of selected steps
        tf.identity(ta_final.gather([0], name="gather_first"), name="first_output")
        gd = g.as_graph_def()
    data = write_pb(out_dir, "tensor_array.pb", gd)
    fetch = ["outputs:0", "final_state:0", "num_steps:0", "first_output:0"]
    xv = rs.randn(5, 2, 3).astype(np.float32)
    hv = rs.randn(2, 4).astype(np.float32) * 0.1
    runs = [{"name": "T5", "feeds": {"x:0": xv, "h0:0": hv}, "fetches": fetch},
            {"name": "T2", "feeds": {"x:0": xv[:2], "h0:0": np.zeros_like(hv)},
             "fetches": fetch},
            {"name": "T1", "feeds": {"x:0": xv[3:4], "h0:0": hv}, "fetches": fetch}]
    return {"file": "tensor_array.pb",
            "description": "dynamic_rnn-like v1 while loop: h = tanh(x_t Wx + h Wh + b), "
                           "TensorArrayV3 scatter(unstack)/read/write/gather(stack)/size",
            "runs": run_sequence(data, runs), "ops": op_histogram(gd)}


def make_function_call(out_dir):
    g = tf.Graph()
    with g.as_default():
        @tf_function.Defun(tf.float32, tf.float32, func_name="inner_fn", noinline=True)
        def inner_fn(a, b):
            return a * b + tf.tanh(a)

        @tf_function.Defun(tf.float32, tf.float32, func_name="scale_add", noinline=True)
        def scale_add(a, b):
            return inner_fn(a, b) * 2.0 - b

        @tf_function.Defun(tf.float32, func_name="two_outputs", noinline=True,
                           out_names=["sq", "neg"])
        def two_outputs(a):
            return tf.square(a), tf.negative(a)

        @tf.function(autograph=False)
        def tf_fn(a, b):
            return tf.nn.relu(a - b) + 1.0

        x = tf1.placeholder(tf.float32, [None], name="x")
        y = tf1.placeholder(tf.float32, [None], name="y")
        r = scale_add(x, y, name="call_scale_add")
        tf.identity(r, name="out_defun")
        sq, neg = two_outputs(x, name="call_two_outputs")
        tf.identity(sq, name="out_sq")
        tf.identity(neg, name="out_neg")
        tf.identity(tf_fn(x, y), name="out_partitioned")
        gd = g.as_graph_def()
    # tf.function names its FunctionDef "__inference_tf_fn_<uid>" with a
    # process-wide counter; give it a fixed name so the file does not change
    # when other graphs are added to this script (checked by running it below).
    stable = "__inference_tf_fn_0"
    old = [f.signature.name for f in gd.library.function
           if f.signature.name.startswith("__inference_tf_fn_")]
    assert len(old) == 1, old
    for f in gd.library.function:
        if f.signature.name == old[0]:
            f.signature.name = stable
    for n in gd.node:
        if n.op == "PartitionedCall" and n.attr["f"].func.name == old[0]:
            n.attr["f"].func.name = stable
    data = write_pb(out_dir, "function_call.pb", gd)
    feeds = {"x:0": np.array([0.5, -1.0, 2.0], np.float32),
             "y:0": np.array([1.5, 0.25, -2.0], np.float32)}
    runs = [{"name": "defun", "feeds": feeds,
             "fetches": ["out_defun:0", "out_sq:0", "out_neg:0"]},
            {"name": "partitioned_call", "feeds": feeds, "fetches": ["out_partitioned:0"]}]
    return {"file": "function_call.pb",
            "description": "Defun calls (op type = function name, _noinline, nested "
                           "call inside scale_add, 2-output function) and a tf.function "
                           "call (PartitionedCall with attr f)",
            "runs": run_sequence(data, runs), "ops": op_histogram(gd)}


# ----------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--libsg", default=None,
                    help="sg's libsg.so.1 for the checkpoint check (default: build/c_api/ of "
                         "this repository)")
    ap.add_argument("--no-sg-check", action="store_true",
                    help="skip reading an sg-written checkpoint back into TensorFlow")
    args = ap.parse_args()
    libsg = None
    if not args.no_sg_check:
        repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        libsg = args.libsg or sg_checkpoint_check.find_libsg(repo)
        if libsg is None:
            sys.exit("make_testdata: no libsg.so.1 under build/c_api/: build sg first "
                     "(scripts/build.sh), name one with --libsg, or pass --no-sg-check")
    out_dir = args.out
    os.makedirs(out_dir, exist_ok=True)
    if tf.__version__ != EXPECTED_TF_VERSION:
        print("WARNING: TensorFlow %s, files were made with %s"
              % (tf.__version__, EXPECTED_TF_VERSION), file=sys.stderr)

    summary = {"tensorflow_version": tf.__version__}
    graphs = [make_digits(out_dir, summary)]
    if libsg is not None:
        # sg writes a checkpoint of the digits SavedModel's variables; TensorFlow reads it back.
        result = sg_checkpoint_check.check(
            tf, libsg, os.path.join(out_dir, "digits_saved_model"), "serving_default", "x",
            np.load(os.path.join(out_dir, "digits_test_x.npy"))[:8])
        print("sg checkpoint read back by TensorFlow: %d variables, files %s, %s equal"
              % (result["variables"], " ".join(result["files"]), result["output"]))
    else:
        print("sg checkpoint check: SKIPPED (--no-sg-check)")
    for make in (make_while_loop, make_cond, make_variables, make_conv_net,
                 make_ops_mix, make_tensor_array, make_function_call):
        graphs.append(make(out_dir))
    summary["graphs"] = graphs
    with open(os.path.join(out_dir, "expected.json"), "w") as f:
        json.dump(summary, f, indent=1, sort_keys=False)
        f.write("\n")

    for gr in graphs:
        print("%s: %s" % (gr["file"], ", ".join("%s x%d" % kv for kv in gr["ops"].items())))
    print("files:")
    for root, _, files in os.walk(out_dir):
        for fn in sorted(files):
            p = os.path.join(root, fn)
            with open(p, "rb") as fh:
                digest = hashlib.sha256(fh.read()).hexdigest()[:16]
            print("  %-50s %8d  %s" % (os.path.relpath(p, out_dir), os.path.getsize(p), digest))


if __name__ == "__main__":
    main()
