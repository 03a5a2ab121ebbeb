#!/usr/bin/env python3
"""Write GraphDefs with TensorFlow 2's functional control flow, and TensorFlow's results for them.

    PY=$(tests/oracle/setup_venv.sh)
    $PY tests/oracle/make_tf2_graphs.py [--out tests/oracle/tf2_graphs]

TensorFlow 2.21 builds each graph as it writes them today: `tf.while_loop`, `tf.cond` and
`tf.switch_case` become While/StatelessWhile, If/StatelessIf and Case nodes whose bodies are
functions of the graph's library; `tf.function`s called from a graph become
StatefulPartitionedCall nodes; variables are resource variables (VarHandleOp). Nothing is
stripped or lowered. TensorFlow then imports the written bytes into a fresh graph and runs each
graph's runs in order in one session, and the results go to expected.json, in the format of
tests/testdata/expected.json (see tests/testdata/make_testdata.py's docstring).
tests/core/testdata_graphs_test.cc runs them all through sg.

Inputs are fixed numbers and no random op is used, so a rerun writes the same files.
"""

import argparse
import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

tf1 = tf.compat.v1
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "testdata"))


def tensor_json(value):
    a = np.asarray(value)
    if a.dtype == np.float32:
        vals = [float(str(v)) for v in a.reshape(-1)]
        back = np.array(vals, np.float64).astype(np.float32)
        assert np.array_equal(back.view(np.uint32), a.reshape(-1).view(np.uint32)), a
    elif a.dtype == np.float64:
        vals = [float(v) for v in a.reshape(-1)]
    elif a.dtype in (np.int32, np.int64):
        vals = [int(v) for v in a.reshape(-1)]
    elif a.dtype == np.bool_:
        vals = [bool(v) for v in a.reshape(-1)]
    else:
        raise ValueError("unsupported dtype %s" % a.dtype)
    return {"dtype": a.dtype.name, "shape": list(a.shape), "values": vals}


def op_histogram(graph_def):
    hist = {}
    for n in graph_def.node:
        hist[n.op] = hist.get(n.op, 0) + 1
    for f in graph_def.library.function:
        for n in f.node_def:
            hist[n.op] = hist.get(n.op, 0) + 1
    return dict(sorted(hist.items()))


def run_sequence(graph_bytes, runs):
    gd = tf1.GraphDef()
    gd.ParseFromString(graph_bytes)
    g = tf.Graph()
    with g.as_default():
        tf1.import_graph_def(gd, name="")
    config = tf1.ConfigProto(intra_op_parallelism_threads=1, inter_op_parallelism_threads=1)
    results = []
    with tf1.Session(graph=g, config=config) as sess:
        for run in runs:
            feeds = {g.get_tensor_by_name(k): v for k, v in run.get("feeds", {}).items()}
            names = list(run.get("fetches", []))
            targets = [g.get_operation_by_name(t) for t in run.get("targets", [])]
            out = sess.run([g.get_tensor_by_name(n) for n in names] + targets, feed_dict=feeds)
            results.append({
                "name": run["name"], "targets": list(run.get("targets", [])),
                "feeds": {k: tensor_json(v) for k, v in run.get("feeds", {}).items()},
                "fetches": {n: tensor_json(v) for n, v in zip(names, out[:len(names)])}})
    return results


GRAPHS = []


def graph(fn):
    GRAPHS.append(fn)
    return fn


@graph
def while_v2():
    """tf.while_loop: i counts to n while acc multiplies by x; a loop-invariant capture (y)."""
    n = tf1.placeholder(tf.int32, [], name="n")
    x = tf1.placeholder(tf.float32, [2], name="x")
    y = tf1.placeholder(tf.float32, [2], name="y")
    i, acc = tf.while_loop(lambda i, acc: i < n,
                           lambda i, acc: (i + 1, acc * x + y),
                           [tf.constant(0), tf.ones([2])])
    tf.identity(i, name="i_out")
    tf.identity(acc, name="acc_out")
    runs = []
    for k in (0, 1, 5):
        runs.append({"name": f"n={k}",
                     "feeds": {"n:0": np.int32(k), "x:0": np.float32([2, -0.5]),
                               "y:0": np.float32([1, 3])},
                     "fetches": ["i_out:0", "acc_out:0"]})
    return runs


@graph
def cond_v2():
    """tf.cond with branches that use constants only, and a cond over a captured tensor."""
    p = tf1.placeholder(tf.bool, [], name="p")
    x = tf1.placeholder(tf.float32, [3], name="x")
    a = tf.cond(p, lambda: x * 2.0, lambda: x - tf.constant([1.0, 2.0, 3.0]))
    b = tf.cond(p, lambda: tf.constant(7), lambda: tf.constant(-7))
    c = tf.cond(tf.reduce_sum(x) > 0, lambda: tf.reduce_max(x), lambda: tf.reduce_min(x))
    tf.identity(a, name="a")
    tf.identity(b, name="b")
    tf.identity(c, name="c")
    runs = []
    for pv, xv in ((True, [1, -5, 2]), (False, [1, -5, 2]), (False, [3, 1, 2])):
        runs.append({"name": f"p={pv},x={xv}",
                     "feeds": {"p:0": np.bool_(pv), "x:0": np.float32(xv)},
                     "fetches": ["a:0", "b:0", "c:0"]})
    return runs


@graph
def switch_case_v2():
    """tf.switch_case over three branches; an index out of range takes the last one."""
    idx = tf1.placeholder(tf.int32, [], name="idx")
    x = tf1.placeholder(tf.float32, [2], name="x")
    out = tf.switch_case(idx, [lambda: x + 1.0, lambda: x * x, lambda: tf.constant([9.0, 9.0])])
    tf.identity(out, name="out")
    return [{"name": f"idx={k}", "feeds": {"idx:0": np.int32(k), "x:0": np.float32([3, -2])},
             "fetches": ["out:0"]} for k in (0, 1, 2, 5, -1)]


@graph
def nested_v2():
    """A while loop whose body holds a cond and an inner while loop bounded by the outer index."""
    n = tf1.placeholder(tf.int32, [], name="n")

    def body(i, total):
        def inner(j, t):
            return j + 1, t + tf.cast(j, tf.float32)
        _, t = tf.while_loop(lambda j, t: j < i, inner, [tf.constant(0), tf.constant(0.0)])
        total = tf.cond(tf.equal(i % 2, 0), lambda: total + t, lambda: total - t)
        return i + 1, total

    i, total = tf.while_loop(lambda i, t: i < n, body, [tf.constant(0), tf.constant(0.0)])
    tf.identity(total, name="total")
    tf.identity(i, name="count")
    return [{"name": f"n={k}", "feeds": {"n:0": np.int32(k)}, "fetches": ["total:0", "count:0"]}
            for k in (0, 3, 6)]


@graph
def variables_v2():
    """Resource variables changed inside a while body and read after it (stateful While)."""
    n = tf1.placeholder(tf.int32, [], name="n")
    v = tf1.get_variable("v", initializer=tf.constant([1.0, 2.0]), use_resource=True)
    w = tf1.get_variable("w", initializer=tf.constant(0), use_resource=True)

    def body(i):
        with tf.control_dependencies([v.assign_add(tf.constant([0.5, -1.0])),
                                      w.assign_add(i)]):
            return i + 1

    loop = tf.while_loop(lambda i: i < n, body, [tf.constant(0)])[0]
    with tf.control_dependencies([loop]):
        tf.identity(v.read_value(), name="v_after")
        tf.identity(w.read_value(), name="w_after")
    tf1.variables_initializer([v, w], name="init")
    return [
        {"name": "init", "targets": ["init"]},
        {"name": "n=3", "feeds": {"n:0": np.int32(3)}, "fetches": ["v_after:0", "w_after:0"]},
        {"name": "n=2 again", "feeds": {"n:0": np.int32(2)},
         "fetches": ["v_after:0", "w_after:0"]},
    ]


@graph
def tensor_list_v2():
    """A TensorArray (TensorList ops in TF 2) written in a loop, unstacked, read, gathered, stacked."""
    n = tf1.placeholder(tf.int32, [], name="n")
    x = tf1.placeholder(tf.float32, [None, 2], name="x")
    rows = tf.TensorArray(tf.float32, size=0, dynamic_size=True, element_shape=[2])
    rows = rows.unstack(x)

    def body(i, out):
        return i + 1, out.write(i, rows.read(i % rows.size()) * tf.cast(i + 1, tf.float32))

    _, out = tf.while_loop(lambda i, out: i < n, body,
                           [tf.constant(0), tf.TensorArray(tf.float32, size=n, element_shape=[2])])
    tf.identity(out.stack(), name="stacked")
    tf.identity(out.gather([0, n - 1]), name="gathered")
    tf.identity(out.size(), name="size")
    return [{"name": f"n={k}", "feeds": {"n:0": np.int32(k),
                                        "x:0": np.float32([[1, 2], [3, 4], [5, -6]])},
             "fetches": ["stacked:0", "gathered:0", "size:0"]} for k in (1, 4)]


@graph
def stateful_cond_v2():
    """A stateful If: only the branch taken assigns its variable."""
    p = tf1.placeholder(tf.bool, [], name="p")
    v = tf1.get_variable("v", initializer=tf.constant(10.0), use_resource=True)
    w = tf1.get_variable("w", initializer=tf.constant(20.0), use_resource=True)

    def then_fn():
        with tf.control_dependencies([v.assign_add(1.0)]):
            return tf.constant(1)

    def else_fn():
        with tf.control_dependencies([w.assign_sub(2.0)]):
            return tf.constant(2)

    taken = tf.cond(p, then_fn, else_fn)
    with tf.control_dependencies([taken]):
        tf.identity(v.read_value(), name="v_after")
        tf.identity(w.read_value(), name="w_after")
    tf.identity(taken, name="taken")
    tf1.variables_initializer([v, w], name="init")
    return [{"name": "init", "targets": ["init"]}] + [
        {"name": f"p={pv}", "feeds": {"p:0": np.bool_(pv)},
         "fetches": ["taken:0", "v_after:0", "w_after:0"]} for pv in (True, True, False)]


@graph
def function_call_v2():
    """A tf.function called from the graph (StatefulPartitionedCall) holding a loop and a cond."""
    @tf.function
    def collatz_steps(x):
        steps = tf.constant(0)
        while x > 1:
            x = tf.cond(tf.equal(x % 2, 0), lambda: x // 2, lambda: 3 * x + 1)
            steps += 1
        return steps

    x = tf1.placeholder(tf.int32, [], name="x")
    tf.identity(collatz_steps(x), name="steps")
    return [{"name": f"x={k}", "feeds": {"x:0": np.int32(k)}, "fetches": ["steps:0"]}
            for k in (1, 6, 27)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(HERE, "tf2_graphs"))
    args = ap.parse_args()
    tf1.disable_eager_execution()
    os.makedirs(args.out, exist_ok=True)
    graphs = []
    for fn in GRAPHS:
        g = tf.Graph()
        with g.as_default():
            runs = fn()
        gd = g.as_graph_def()
        data = gd.SerializeToString(deterministic=True)
        name = fn.__name__ + ".pb"
        with open(os.path.join(args.out, name), "wb") as f:
            f.write(data)
        graphs.append({"file": name, "description": fn.__doc__.strip(),
                       "producer": gd.versions.producer, "ops": op_histogram(gd),
                       "runs": run_sequence(data, runs)})
        print(f"{name}: {len(data)} bytes, ops {sorted(graphs[-1]['ops'])}")
    with open(os.path.join(args.out, "expected.json"), "w") as f:
        json.dump({"tensorflow_version": tf.__version__, "graphs": graphs}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
