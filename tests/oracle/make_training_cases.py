#!/usr/bin/env python3
"""sg's training cases: tf.compat.v1 training graphs, and TensorFlow's variables after N steps.

    PY=$(tests/oracle/setup_venv.sh)
    $PY tests/oracle/make_training_cases.py              # -> tests/oracle/training/ (committed)
    $PY tests/oracle/make_training_cases.py --only adam  # cases whose name has a word

Each case is a small model built in a tf.compat.v1 Graph and trained by one of
tf.compat.v1.train's optimizers, the way a TensorFlow 1.x program writes it: variables with
constant initial values, `minimize()` (TensorFlow's own gradient graph: BroadcastGradientArgs,
ReluGrad, SparseSoftmaxCrossEntropyWithLogits, MaxPoolGrad, the optimizer's Apply* or
SparseApply* ops ...), `global_variables_initializer()` and a `Saver`. The whole GraphDef is
written as TensorFlow exports it; tests/core/training_test.cc imports it into sg, runs the init
op, then the train op once per step with that step's batch, and compares the loss of each step
and the variables after the last one with TensorFlow's.

A case is a directory with `graph.pb.gz` (a gzipped binary GraphDef), `case.json` and .npy files:

  {"name": "mlp_embed.adam.resource", "description": "...",
   "init": "init", "train_op": "train", "loss": "loss:0", "steps": 4,
   "feeds": [[{"name": "ids:0", "file": "step0.ids.npy"}, ...], ...],     (one list per step)
   "losses": "losses.npy",                        (TensorFlow's loss at each step, float32 [steps])
   "variables": [{"name": "emb", "fetch": "final/emb:0", "file": "var.emb.npy"}, ...],
   "saver": {"filename": "save/Const:0", "save": "save/control_dependency:0",
             "restore": "save/restore_all"},
   "rtol": 1e-4, "atol": 1e-5, "ops": {"ApplyAdam": 3, ...}}

`final/<var>` is an Identity of the variable's value, built after the train op (not run during
training). The saver lets the test write a checkpoint from sg and have TensorFlow read it back
(tests/oracle/read_checkpoint.py).

TensorFlow runs on one thread with oneDNN off and Grappler off, so two runs write the same
values. Float results are compared within rtol/atol, not bit for bit: sg's kernels sum in another
order than TensorFlow's (MatMul, the reductions of the gradient graph), and a few steps of an
optimizer carry those last-bit differences forward.
"""

import argparse
import gzip
import json
import os
import shutil
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"
os.environ["TF_DETERMINISTIC_OPS"] = "1"

import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_DIR = os.path.join(HERE, "training")
STEPS = 4

tf = None  # imported in main(): --help should not wait for TensorFlow


def optimizers(global_step):
    """name -> (a v1 optimizer, what it exercises): every family tf.compat.v1.train offers."""
    t = tf.compat.v1.train
    return {
        "sgd": (t.GradientDescentOptimizer(0.1), "ApplyGradientDescent; sparse: ScatterSub"),
        "momentum": (t.MomentumOptimizer(0.1, 0.9), "ApplyMomentum, SparseApplyMomentum"),
        "nesterov": (t.MomentumOptimizer(0.05, 0.9, use_nesterov=True), "use_nesterov"),
        "adam": (t.AdamOptimizer(0.01), "ApplyAdam; sparse: ScatterAdd on m and v"),
        "adagrad": (t.AdagradOptimizer(0.1), "ApplyAdagrad, SparseApplyAdagrad"),
        "adagrad_da": (t.AdagradDAOptimizer(0.1, global_step, l1_regularization_strength=0.01,
                                            l2_regularization_strength=0.01),
                       "ApplyAdagradDA, SparseApplyAdagradDA"),
        "adadelta": (t.AdadeltaOptimizer(1.0), "ApplyAdadelta, SparseApplyAdadelta"),
        "rmsprop": (t.RMSPropOptimizer(0.01, momentum=0.5), "ApplyRMSProp, SparseApplyRMSProp"),
        "rmsprop_centered": (t.RMSPropOptimizer(0.01, centered=True),
                             "ApplyCenteredRMSProp, SparseApplyCenteredRMSProp"),
        "ftrl": (t.FtrlOptimizer(0.1, l1_regularization_strength=0.01,
                                 l2_regularization_strength=0.01), "ApplyFtrl, SparseApplyFtrl"),
        "ftrl_v2": (t.FtrlOptimizer(0.1, l1_regularization_strength=0.01,
                                    l2_shrinkage_regularization_strength=0.02),
                    "ApplyFtrlV2, SparseApplyFtrlV2"),
        "proximal_adagrad": (t.ProximalAdagradOptimizer(0.1, l1_regularization_strength=0.01,
                                                        l2_regularization_strength=0.01),
                             "ApplyProximalAdagrad, SparseApplyProximalAdagrad"),
        "proximal_sgd": (t.ProximalGradientDescentOptimizer(0.1, l1_regularization_strength=0.01,
                                                            l2_regularization_strength=0.01),
                         "ApplyProximalGradientDescent, SparseApplyProximalGradientDescent"),
    }


def init_value(rng, shape, scale):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def variable(name, value, resource, dtype=None):
    return tf.compat.v1.get_variable(name, initializer=tf.constant_initializer(value),
                                     shape=value.shape, dtype=dtype or tf.float32,
                                     use_resource=resource)


def mlp_embed(rng, resource):
    """Embedding (sparse gradients) -> mean -> Dense+ReLU -> Dense -> sparse softmax loss."""
    ids = tf.compat.v1.placeholder(tf.int32, [8, 3], name="ids")
    labels = tf.compat.v1.placeholder(tf.int32, [8], name="labels")
    emb = variable("emb", init_value(rng, [20, 4], 0.5), resource)
    w1 = variable("w1", init_value(rng, [4, 6], 0.5), resource)
    b1 = variable("b1", init_value(rng, [6], 0.1), resource)
    w2 = variable("w2", init_value(rng, [6, 3], 0.5), resource)
    b2 = variable("b2", init_value(rng, [3], 0.1), resource)
    h = tf.reduce_mean(tf.nn.embedding_lookup(emb, ids), axis=1)
    h = tf.nn.relu(tf.nn.bias_add(tf.matmul(h, w1), b1))
    logits = tf.nn.bias_add(tf.matmul(h, w2), b2)
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=labels, logits=logits), name="loss")

    def batch(step_rng):
        return {ids: step_rng.integers(0, 20, [8, 3]).astype(np.int32),
                labels: step_rng.integers(0, 3, [8]).astype(np.int32)}
    return loss, [emb, w1, b1, w2, b2], batch


def cnn(rng, resource):
    """Conv2D+bias+ReLU -> MaxPool -> Dense -> softmax cross-entropy (dense labels)."""
    x = tf.compat.v1.placeholder(tf.float32, [4, 8, 8, 1], name="x")
    y = tf.compat.v1.placeholder(tf.float32, [4, 3], name="y")
    k = variable("kernel", init_value(rng, [3, 3, 1, 4], 0.4), resource)
    kb = variable("kernel_bias", init_value(rng, [4], 0.1), resource)
    w = variable("w", init_value(rng, [4 * 4 * 4, 3], 0.2), resource)
    b = variable("b", init_value(rng, [3], 0.1), resource)
    h = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, k, [1, 1, 1, 1], "SAME"), kb))
    h = tf.nn.max_pool2d(h, 2, 2, "VALID")
    logits = tf.nn.bias_add(tf.matmul(tf.reshape(h, [4, -1]), w), b)
    loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=logits),
                          name="loss")

    def batch(step_rng):
        lab = step_rng.integers(0, 3, [4])
        return {x: step_rng.uniform(-1, 1, [4, 8, 8, 1]).astype(np.float32),
                y: np.eye(3, dtype=np.float32)[lab]}
    return loss, [k, kb, w, b], batch


def linear(rng, resource):
    """Linear regression, mean squared error (broadcast gradients of a bias)."""
    x = tf.compat.v1.placeholder(tf.float32, [16, 3], name="x")
    y = tf.compat.v1.placeholder(tf.float32, [16, 1], name="y")
    w = variable("w", init_value(rng, [3, 1], 0.5), resource)
    b = variable("b", np.zeros([1], np.float32), resource)
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y), name="loss")
    true_w = np.array([[1.5], [-2.0], [0.5]], np.float32)

    def batch(step_rng):
        xv = step_rng.uniform(-1, 1, [16, 3]).astype(np.float32)
        return {x: xv, y: (xv @ true_w + 0.25).astype(np.float32)}
    return loss, [w, b], batch


def rnn(rng, resource):
    """A tanh RNN over 5 time steps by tf.while_loop (v1 control flow: Enter/Merge/Switch/Exit,
    and TensorFlow's v1 loop gradient with stacks), mean squared error of the last state."""
    return _rnn(rng, resource)


def rnn_v2(rng, resource):
    """The same RNN with control flow v2: a While op, and TensorFlow's while_v2 gradient (a
    second While popping TensorLists the forward loop pushed)."""
    return _rnn(rng, resource)


def _rnn(rng, resource):
    x = tf.compat.v1.placeholder(tf.float32, [5, 4, 3], name="x")  # time, batch, features
    target = tf.compat.v1.placeholder(tf.float32, [4, 6], name="target")
    w = variable("w", init_value(rng, [3, 6], 0.5), resource)
    u = variable("u", init_value(rng, [6, 6], 0.3), resource)
    b = variable("b", init_value(rng, [6], 0.1), resource)

    def body(t, h):
        return t + 1, tf.tanh(tf.matmul(x[t], w) + tf.matmul(h, u) + b)

    _, h = tf.while_loop(lambda t, h: t < 5, body, [0, tf.zeros([4, 6])])
    loss = tf.reduce_mean(tf.square(h - target), name="loss")

    def batch(step_rng):
        return {x: step_rng.uniform(-1, 1, [5, 4, 3]).astype(np.float32),
                target: step_rng.uniform(-0.5, 0.5, [4, 6]).astype(np.float32)}
    return loss, [w, u, b], batch


MODELS = {"mlp_embed": mlp_embed, "cnn": cnn, "linear": linear, "rnn": rnn, "rnn_v2": rnn_v2}
CONTROL_FLOW_V2 = {"rnn_v2"}
# Which optimizers each model is trained with: every one on the embedding model (dense and
# sparse updates in one graph), a few on the others.
PLAN = {"mlp_embed": None, "cnn": ["momentum", "adam"], "linear": ["sgd", "adagrad"],
        "rnn": ["adam"], "rnn_v2": ["adam"]}


def op_histogram(gdef):
    h = {}
    for n in gdef.node:
        h[n.op] = h.get(n.op, 0) + 1
    return dict(sorted(h.items()))


def session_config():
    """op_case_lib's configuration (no Grappler, no constant folding, one intra-op thread), with
    one inter-op thread as well."""
    import op_case_lib  # imports TensorFlow, so not at the top (see `tf` above)
    return op_case_lib.session_config(inter_op_threads=1)


def write_case(out_dir, model, opt_name, resource):
    import zlib
    kind = "resource" if resource else "ref"
    name = f"{model}.{opt_name}.{kind}"
    rng = np.random.default_rng(zlib.crc32(model.encode()))  # same weights for every optimizer
    g = tf.Graph()
    with g.as_default():
        tf.compat.v1.set_random_seed(1)
        loss, variables, batch = MODELS[model](rng, resource)
        global_step = tf.compat.v1.train.get_or_create_global_step()
        opt, what = optimizers(global_step)[opt_name]
        train = opt.minimize(loss, global_step=global_step, name="train")
        with tf.name_scope("final"):
            finals = [tf.identity(v.read_value() if resource else v, name=v.op.name)
                      for v in variables]
        init = tf.compat.v1.global_variables_initializer()
        init = tf.group(init, name="init")
        saver = tf.compat.v1.train.Saver(variables)
        gdef = g.as_graph_def()
    sdef = saver.as_saver_def()
    case_dir = os.path.join(out_dir, name)
    shutil.rmtree(case_dir, ignore_errors=True)
    os.makedirs(case_dir)
    step_rng = np.random.default_rng(zlib.crc32(name.encode()) ^ 0x5A5A)
    feeds, losses = [], []
    with tf.compat.v1.Session(graph=g, config=session_config()) as sess:
        sess.run(init)
        for step in range(STEPS):
            fd = batch(step_rng)
            step_feeds = []
            for t, v in fd.items():
                f = f"step{step}.{t.op.name}.npy"
                np.save(os.path.join(case_dir, f), v, allow_pickle=False)
                step_feeds.append({"name": t.name, "file": f})
            feeds.append(step_feeds)
            _, lv = sess.run([train, loss], feed_dict=fd)
            losses.append(lv)
        values = sess.run(finals)
    np.save(os.path.join(case_dir, "losses.npy"), np.array(losses, np.float32), allow_pickle=False)
    var_entries = []
    for v, t, val in zip(variables, finals, values):
        f = f"var.{v.op.name}.npy"
        np.save(os.path.join(case_dir, f), val, allow_pickle=False)
        var_entries.append({"name": v.op.name, "fetch": t.name, "file": f})
    with open(os.path.join(case_dir, "graph.pb.gz"), "wb") as f:
        # gzip with no name and no time in its header: the same graph, the same bytes.
        with gzip.GzipFile(fileobj=f, mode="wb", compresslevel=9, mtime=0, filename="") as z:
            z.write(gdef.SerializeToString(deterministic=True))
    meta = {
        "name": name,
        "description": f"{MODELS[model].__doc__} Trained by {type(opt).__name__} "
                       f"({what}), {kind} variables, {STEPS} steps.",
        "init": "init", "train_op": train.name, "loss": loss.name, "steps": STEPS,
        "feeds": feeds, "losses": "losses.npy", "variables": var_entries,
        "saver": {"filename": sdef.filename_tensor_name, "save": sdef.save_tensor_name,
                  "restore": sdef.restore_op_name},
        "rtol": 1e-4, "atol": 1e-5,
        "ops": op_histogram(gdef),
    }
    with open(os.path.join(case_dir, "case.json"), "w") as f:
        json.dump(meta, f, indent=1, sort_keys=True)
        f.write("\n")
    return name, len(gdef.node)


# ---- between-graph replication ---------------------------------------------------------------

REPLICATED_STEPS = 60  # per worker


def write_replicated_case(out_dir):
    """Linear regression by SGD, between-graph replicated as a TF 1.x program writes it: each of
    two workers builds the same graph with tf.compat.v1.train.replica_device_setter (variables
    on /job:ps/task:0, the rest on its own /job:worker/task:i) and steps it on its own batches.
    Written: one GraphDef per worker, the dataset, and TensorFlow's single-process run of the
    same updates in turn (worker 0's batch, then worker 1's ...): the loss on the whole dataset
    before training and after 2 x REPLICATED_STEPS updates."""
    import zlib
    name = "replicated.linear.sgd"
    case_dir = os.path.join(out_dir, name)
    shutil.rmtree(case_dir, ignore_errors=True)
    os.makedirs(case_dir)
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    n, d = 64, 4
    xs = rng.uniform(-1, 1, [n, d]).astype(np.float32)
    true_w = rng.uniform(-2, 2, [d, 1]).astype(np.float32)
    ys = (xs @ true_w + 0.5 + rng.normal(0, 0.1, [n, 1])).astype(np.float32)
    np.save(os.path.join(case_dir, "x.npy"), xs, allow_pickle=False)
    np.save(os.path.join(case_dir, "y.npy"), ys, allow_pickle=False)

    def build(worker):
        g = tf.Graph()
        with g.as_default():
            setter = tf.compat.v1.train.replica_device_setter(
                ps_tasks=1, worker_device=f"/job:worker/task:{worker}")
            with tf.compat.v1.device(setter):
                x = tf.compat.v1.placeholder(tf.float32, [None, d], name="x")
                y = tf.compat.v1.placeholder(tf.float32, [None, 1], name="y")
                w = tf.compat.v1.get_variable("w", initializer=tf.zeros_initializer(),
                                              shape=[d, 1], use_resource=False)
                b = tf.compat.v1.get_variable("b", initializer=tf.zeros_initializer(),
                                              shape=[1], use_resource=False)
                loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y), name="loss")
                global_step = tf.compat.v1.train.get_or_create_global_step()
                tf.compat.v1.train.GradientDescentOptimizer(0.1).minimize(
                    loss, global_step=global_step, name="train")
                tf.group(tf.compat.v1.global_variables_initializer(), name="init")
        return g

    for worker in (0, 1):
        gdef = build(worker).as_graph_def()
        with open(os.path.join(case_dir, f"graph_worker{worker}.pb.gz"), "wb") as f:
            with gzip.GzipFile(fileobj=f, mode="wb", compresslevel=9, mtime=0, filename="") as z:
                z.write(gdef.SerializeToString(deterministic=True))
    # Single process: the same graph without devices, the same updates in turn.
    g = build(0)
    for op in g.get_operations():
        op._set_device("")  # noqa: SLF001 (TensorFlow has no public way to clear a device)
    batch = 8
    with tf.compat.v1.Session(graph=g, config=session_config()) as sess:
        feed_all = {"x:0": xs, "y:0": ys}
        sess.run("init")
        initial = float(sess.run("loss:0", feed_all))
        for step in range(2 * REPLICATED_STEPS):
            worker, k = step % 2, step // 2
            idx = batch_indices(worker, k, n, batch)
            sess.run("train", {"x:0": xs[idx], "y:0": ys[idx]})
        final = float(sess.run("loss:0", feed_all))
    meta = {
        "name": name, "description": write_replicated_case.__doc__.replace("\n    ", " "),
        "graphs": ["graph_worker0.pb.gz", "graph_worker1.pb.gz"], "x": "x.npy", "y": "y.npy",
        "batch": batch, "steps_per_worker": REPLICATED_STEPS,
        "batches": "worker w's step k feeds rows (w * 8 + k * 16 + i) % 64, i < 8",
        "init": "init", "train_op": "train", "loss": "loss:0", "feeds": ["x:0", "y:0"],
        "initial_loss": initial, "final_loss": final,
    }
    with open(os.path.join(case_dir, "case.json"), "w") as f:
        json.dump(meta, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"{name}: loss {initial:.4f} -> {final:.4f} in one process")


def batch_indices(worker, k, n, batch):
    """The rows of worker `worker`'s `k`-th batch (case.json's "batches" says it in words)."""
    return [(worker * batch + k * 2 * batch + i) % n for i in range(batch)]


def main():
    global tf
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=OUT_DIR)
    ap.add_argument("--only", nargs="*", default=None, help="words a case's name must hold")
    args = ap.parse_args()
    import tensorflow
    tf = tensorflow
    tf.compat.v1.disable_eager_execution()
    tf.compat.v1.disable_control_flow_v2()
    os.makedirs(args.out, exist_ok=True)
    count = 0
    for model, plan in PLAN.items():
        with tf.Graph().as_default():
            gs = tf.compat.v1.train.get_or_create_global_step()
            names = plan or list(optimizers(gs).keys())
        for opt_name in names:
            for resource in (False, True):
                name = f"{model}.{opt_name}.{'resource' if resource else 'ref'}"
                if args.only and not any(w in name for w in args.only):
                    continue
                if model in CONTROL_FLOW_V2:
                    tf.compat.v1.enable_control_flow_v2()
                name, nodes = write_case(args.out, model, opt_name, resource)
                tf.compat.v1.disable_control_flow_v2()
                count += 1
                print(f"{name}: {nodes} nodes")
    if not args.only or any(w in "replicated.linear.sgd" for w in args.only):
        write_replicated_case(args.out)
        count += 1
    print(f"make_training_cases: {count} cases")
    return 0


if __name__ == "__main__":
    sys.exit(main())
