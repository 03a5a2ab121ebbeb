"""Writes TensorFlow 2 SavedModels for tests/tools/sg_tool_freeze_tf2_test.py, with TensorFlow's
outputs on a fixed input. Run with the oracle venv's python (tests/oracle/setup_venv.sh).

  python make_tf2_saved_models.py OUT_DIR

OUT_DIR/<model>/ is the SavedModel (OUT_DIR/<model>/graph.pb and ckpt.* for a TensorFlow 1
graph), OUT_DIR/<model>_x<i>.npy its inputs, OUT_DIR/<model>_y<i>.npy TensorFlow's outputs from the
unfrozen model, and OUT_DIR/models.json names, per model, the input and output tensors in the
graph, the variables' count, the ops of the graph and its functions (to check that a model has the
uses it is meant to test), and the outputs of the signatures freezing must refuse.
  module     a tf.Module saved by tf.saved_model.save: y = x @ w + b; its signatures "bump"
             (AssignAddVariableOp), "scatter" (ResourceScatterAdd) and "descend"
             (ResourceApplyGradientDescent) change a variable, which freezing must refuse
  keras      a Keras 3 Sequential (Dense 3->4 relu, Dense 4->2) written by model.export
  embedding  a Keras 3 Sequential (Embedding 10x3, Flatten, Dense 12->2) written by model.export;
             Keras 3 reads the table and gathers (GatherV2)
  lookup     tf.nn.embedding_lookup of a variable (ResourceGather), tf.gather_nd of it
             (ResourceGatherNd) and ResourceGather with batch_dims=1
  shape      a variable of declared shape [None, 3]: tf.shape of it (a read and Shape) and
             VariableShape of its handle (int64)
  cond       tf.cond (If) and tf.switch_case (Case) whose branches read a variable
  loop       tf.while_loop whose condition reads one variable and body gathers rows of another
             (While; the handles are loop variables the body gives back unchanged)
  v1         a TensorFlow 1 graph (control flow v1) with a checkpoint written by Saver: tf.cond
             gathering rows of a variable (handle through Switch), tf.while_loop gathering rows
             and taking VariableShape of the variable's handle, a loop variable (Enter, Merge,
             Switch, NextIteration, Exit), read after the loop; "bumped" needs an assignment
"""
import json
import os
import subprocess
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import keras  # noqa: E402
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow.core.protobuf import saved_model_pb2  # noqa: E402

out = sys.argv[1]
os.makedirs(out, exist_ok=True)


class Module(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable([[1.0, 2.0, -1.0], [3.0, 4.0, 0.5]], name="w")
        self.b = tf.Variable([0.5, -0.5, 0.25], name="b")
        self.count = tf.Variable(0.0, name="count")

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def __call__(self, x):
        return {"y": tf.nn.relu(tf.matmul(x, self.w) + self.b)}

    @tf.function(input_signature=[])
    def bump(self):
        return {"count": self.count.assign_add(1.0)}

    @tf.function(input_signature=[])
    def scatter(self):
        self.b.scatter_add(tf.IndexedSlices(tf.constant([1.0]), tf.constant([0])))
        return {"b": self.b.read_value()}

    @tf.function(input_signature=[])
    def descend(self):
        tf.raw_ops.ResourceApplyGradientDescent(var=self.b.handle, alpha=0.5, delta=tf.ones([3]))
        return {"b": self.b.read_value()}


class Lookup(tf.Module):
    def __init__(self):
        super().__init__()
        self.table = tf.Variable(np.arange(15, dtype=np.float32).reshape(5, 3) / 4, name="table")
        self.cube = tf.Variable(np.arange(24, dtype=np.float32).reshape(2, 3, 4) - 5, name="cube")

    @tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
    def __call__(self, ids):
        pairs = tf.reshape(ids[:4], [2, 2]) % 3
        return {"rows": tf.nn.embedding_lookup(self.table, ids),
                "cells": tf.gather_nd(self.table, tf.stack([ids, ids % 3], 1)),
                "batched": tf.raw_ops.ResourceGather(resource=self.cube.handle, indices=pairs,
                                                     dtype=tf.float32, batch_dims=1)}


class Shape(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable(np.ones([4, 3], np.float32), shape=tf.TensorShape([None, 3]), name="v")

    @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
    def __call__(self, x):
        return {"scaled": tf.cast(tf.shape(self.v), tf.float32) * x,
                "shape": tf.raw_ops.VariableShape(input=self.v.handle, out_type=tf.int64)}


class Cond(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable([[1.0, -2.0], [3.0, 0.5]], name="v")
        self.s = tf.Variable(10.0, name="s")

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def __call__(self, x):
        return {"taken": tf.cond(x > 0, lambda: self.v * x, lambda: self.v - x),
                "other": tf.cond(x < 0, lambda: self.v * x, lambda: self.v - x),
                "case": tf.switch_case(tf.cast(x, tf.int32) % 3,
                                       [lambda: self.s + x, lambda: self.v[0, 0] * self.s,
                                        lambda: self.s - self.v[1, 1]])}


class Loop(tf.Module):
    def __init__(self):
        super().__init__()
        self.rows = tf.Variable(np.arange(12, dtype=np.float32).reshape(4, 3) - 3, name="rows")
        self.n = tf.Variable(3, name="n")

    @tf.function(input_signature=[tf.TensorSpec([3], tf.float32)])
    def __call__(self, x):
        _, acc = tf.while_loop(lambda i, acc: i < self.n,
                               lambda i, acc: (i + 1, acc + tf.gather(self.rows, i) * x),
                               [0, tf.zeros([3])])
        return {"acc": acc}


def signature_tensors(model_dir, signature="serving_default"):
    """The graph tensors of a signature's inputs and outputs, as two lists sorted by key."""
    sig = saved_model_proto(model_dir).meta_graphs[0].signature_def[signature]
    return ([sig.inputs[k].name for k in sorted(sig.inputs)],
            [sig.outputs[k].name for k in sorted(sig.outputs)])


def saved_model_proto(model_dir):
    sm = saved_model_pb2.SavedModel()
    with open(os.path.join(model_dir, "saved_model.pb"), "rb") as f:
        sm.ParseFromString(f.read())
    return sm


def graph_ops(graph_def):
    """The ops of a GraphDef's nodes and its functions' nodes."""
    ops = {n.op for n in graph_def.node}
    for f in graph_def.library.function:
        ops |= {n.op for n in f.node_def}
    return sorted(ops)


def save(name, xs, ys, **info):
    """Writes the input and output values (numpy arrays, in signature order) of model `name`."""
    for i, x in enumerate(xs):
        np.save(os.path.join(out, "%s_x%d.npy" % (name, i)), x)
    for i, y in enumerate(ys):
        np.save(os.path.join(out, "%s_y%d.npy" % (name, i)), np.asarray(y))
    models[name] = info


def save_module(name, module, inputs, **signatures):
    """tf.saved_model.save of `module` (called on `inputs`) with its __call__ as the serving
    signature, plus `signatures`."""
    tf.saved_model.save(module, os.path.join(out, name),
                        signatures=dict(serving_default=module.__call__, **signatures))
    result = module(*inputs)
    ins, outs = signature_tensors(os.path.join(out, name))
    save(name, inputs, [result[k].numpy() for k in sorted(result)], kind="saved_model", inputs=ins,
         outputs=outs, variables=len(module.variables),
         ops=graph_ops(saved_model_proto(os.path.join(out, name)).meta_graphs[0].graph_def))


models = {}
m = Module()
save_module("module", m, [np.array([[1, 2], [-3, 0.5], [0.25, -1]], np.float32)],
            bump=m.bump, scatter=m.scatter, descend=m.descend)
models["module"]["variables"] = 2  # count is only assigned
models["module"]["refused"] = {
    sig: signature_tensors(os.path.join(out, "module"), sig)[1][0] for sig in ("bump", "scatter", "descend")}

keras.utils.set_random_seed(7)
k = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="relu"),
                      keras.layers.Dense(2)])
k.export(os.path.join(out, "keras"), verbose=False)
x = np.array([[1, 2, 3], [-1, 0.5, 2], [0.1, -0.2, 0.3], [4, -5, 6]], np.float32)
ins, outs = signature_tensors(os.path.join(out, "keras"))
save("keras", [x], [k(x).numpy()], kind="saved_model", inputs=ins, outputs=outs, variables=4,
     ops=graph_ops(saved_model_proto(os.path.join(out, "keras")).meta_graphs[0].graph_def))

e = keras.Sequential([keras.Input((4,), dtype="int32"), keras.layers.Embedding(10, 3),
                      keras.layers.Flatten(), keras.layers.Dense(2)])
e.export(os.path.join(out, "embedding"), verbose=False)
x = np.array([[1, 2, 3, 9], [0, 0, 7, 4], [5, 6, 8, 2]], np.int32)
ins, outs = signature_tensors(os.path.join(out, "embedding"))
save("embedding", [x], [e(x).numpy()], kind="saved_model", inputs=ins, outputs=outs, variables=3,
     ops=graph_ops(saved_model_proto(os.path.join(out, "embedding")).meta_graphs[0].graph_def))

save_module("lookup", Lookup(), [np.array([4, 0, 2, 2, 1], np.int32)])
save_module("shape", Shape(), [np.array([0.5, -2], np.float32)])
save_module("cond", Cond(), [np.array(2.0, np.float32)])
save_module("loop", Loop(), [np.array([1, -2, 0.5], np.float32)])

# The TensorFlow 1 graph runs in a process of its own (eager execution off, control flow v1).
v1 = subprocess.run([sys.executable, "-c", """
import os, sys
import numpy as np, tensorflow as tf
from tensorflow.core.framework import types_pb2
tf.compat.v1.disable_eager_execution()
tf.compat.v1.disable_control_flow_v2()
v1, out = tf.compat.v1, sys.argv[1]
g = tf.Graph()
with g.as_default():
    x = v1.placeholder(tf.float32, [3], name="x")
    v = v1.get_variable("v", initializer=np.arange(12, dtype=np.float32).reshape(4, 3) - 2, use_resource=True)
    n = v1.get_variable("n", initializer=3, use_resource=True)
    y_cond = tf.cond(tf.reduce_sum(x) > 0, lambda: tf.gather(v, 1) * x, lambda: tf.gather(v, 2) - x)

    def body(i, acc, h):
        row = tf.raw_ops.ResourceGather(resource=h, indices=i, dtype=tf.float32)
        rows = tf.cast(tf.raw_ops.VariableShape(input=h)[0], tf.float32)
        return i + 1, tf.reshape(acc + row * x + rows, [3]), h
    _, acc, h_out = tf.while_loop(lambda i, acc, h: i < n.read_value(), body,
                                  [0, tf.zeros([3]), v.handle])
    last = tf.raw_ops.ReadVariableOp(resource=h_out, dtype=tf.float32)[3]
    y = tf.identity(acc + y_cond + last, name="y")
    with tf.control_dependencies([v.assign_add(tf.ones([4, 3]))]):
        tf.identity(v.read_value(), name="bumped")
    with v1.Session() as s:
        s.run(v1.global_variables_initializer())
        xs = np.array([1, -2, 3], np.float32)
        np.save(os.path.join(out, "v1_x0.npy"), xs)
        np.save(os.path.join(out, "v1_y0.npy"), s.run(y, {x: xs}))
        v1.train.Saver({"v": v, "n": n}).save(s, os.path.join(out, "v1", "ckpt"), write_meta_graph=False)
gd = g.as_graph_def()
with open(os.path.join(out, "v1", "graph.pb"), "wb") as f:
    f.write(gd.SerializeToString())
# The handle is a loop variable: Merge, NextIteration and Exit carry it.
print(",".join(sorted({n.op for n in gd.node})))
print(",".join(sorted({n.op for n in gd.node if n.attr["T"].type == types_pb2.DT_RESOURCE})))
""", out], capture_output=True, text=True)
if v1.returncode != 0:
    sys.exit("the TensorFlow 1 graph: " + v1.stderr[-3000:])
ops, handle_ops = v1.stdout.split()
models["v1"] = {"kind": "graph", "inputs": ["x:0"], "outputs": ["y:0"], "variables": 2,
                "ops": ops.split(","), "handle_ops": handle_ops.split(","),
                "refused": {"bumped": "bumped:0"}}

with open(os.path.join(out, "models.json"), "w") as f:
    json.dump(models, f, indent=1)
print("wrote", ", ".join(sorted(models)), "to", out)
