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


MODELS = {"mlp_embed": mlp_embed, "cnn": cnn, "linear": linear}
# Which optimizers each model is trained with: every one on the embedding model (dense and
# sparse updates in one graph), a few on the others.
PLAN = {"mlp_embed": None, "cnn": ["momentum", "adam"], "linear": ["sgd", "adagrad"]}


def op_histogram(gdef):
    h = {}
    for n in gdef.node:
        h[n.op] = h.get(n.op, 0) + 1
    return dict(sorted(h.items()))


def session_config():
    cfg = tf.compat.v1.ConfigProto()
    cfg.graph_options.rewrite_options.disable_meta_optimizer = True
    cfg.graph_options.optimizer_options.opt_level = tf.compat.v1.OptimizerOptions.L0
    cfg.graph_options.optimizer_options.do_constant_folding = False
    cfg.intra_op_parallelism_threads = 1
    cfg.inter_op_parallelism_threads = 1
    return cfg


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
                name, nodes = write_case(args.out, model, opt_name, resource)
                count += 1
                print(f"{name}: {nodes} nodes")
    print(f"make_training_cases: {count} cases")
    return 0


if __name__ == "__main__":
    sys.exit(main())
