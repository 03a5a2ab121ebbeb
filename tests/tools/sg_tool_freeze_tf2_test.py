#!/usr/bin/env python3
"""`sg freeze` on models written by TensorFlow 2.21: SavedModels (tf.saved_model.save of a
tf.Module, Keras 3's model.export), whose checkpoints are object-based
("w/.ATTRIBUTES/VARIABLE_VALUE") and whose signatures call functions with the variables' handles,
and a TensorFlow 1 graph with a Saver checkpoint. Between them the handles are read, gathered
(ResourceGather, ResourceGatherNd), asked for their shape (VariableShape) and passed through
tf.cond / tf.switch_case / tf.while_loop (If, Case, While) and v1 control flow (Switch, Enter,
Merge, NextIteration, Exit). The models are written at test time by
tests/tools/make_tf2_saved_models.py with the TensorFlow oracle's venv, into OUT_DIR (the build
tree), with TensorFlow's outputs from the unfrozen models; the frozen graph run by `sg run` must
give those numbers, hold no variable, resource op, restore or save, and also run in TensorFlow
itself. Signatures that change a variable are refused. Without the venv it prints "skipped: ..."
(ctest: SKIP_REGULAR_EXPRESSION) and exits 0.

Usage: sg_tool_freeze_tf2_test.py SG_BINARY TOOLS_TESTDATA_DIR TESTDATA_DIR OUT_DIR
"""
import json
import os
import re
import shutil
import struct
import subprocess
import sys

from tool_test_lib import SG, TOOLS, check, finish, run  # noqa: F401

OUT = sys.argv[4]
venv = os.environ.get("SG_ORACLE_VENV") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "sg", "tf-oracle")
PY = os.path.join(venv, "bin", "python")
if not os.access(PY, os.X_OK):
    print("skipped: no TensorFlow oracle venv at %s (tests/oracle/setup_venv.sh makes it)" % venv)
    sys.exit(0)

shutil.rmtree(OUT, ignore_errors=True)
gen = subprocess.run([PY, os.path.join(TOOLS, "make_tf2_saved_models.py"), OUT],
                     capture_output=True, text=True)
if gen.returncode != 0:
    print(gen.stdout, gen.stderr)
    sys.exit("FAIL: make_tf2_saved_models.py exited with %d" % gen.returncode)
models = json.load(open(os.path.join(OUT, "models.json")))


NPY_TYPES = {"'<f4'": "f", "'<i4'": "i", "'<i8'": "q"}

# What each model is meant to test, written down here: ops its graph must have before freezing,
# and ops the frozen graph must have in their place.
NEEDS = {
    "embedding": ["GatherV2"],  # Keras 3's Embedding reads the table, then gathers
    "lookup": ["ResourceGather", "ResourceGatherNd"],
    "shape": ["VariableShape", "Shape"],
    "cond": ["If", "Case"],
    "loop": ["While", "ResourceGather"],
    "v1": ["ResourceGather", "VariableShape", "Enter", "Switch", "Merge", "NextIteration", "Exit"],
}
GIVES = {
    "embedding": ["GatherV2"],
    "lookup": ["GatherV2", "GatherNd"],
    "shape": ["Shape"],
    "cond": ["If", "Case"],
    "loop": ["While", "GatherV2"],
    "v1": ["GatherV2", "Shape", "Merge"],
}
# The op each refused output needs, and the variable it names.
REFUSED = {"bump": ("AssignAddVariableOp", "count"), "scatter": ("ResourceScatterAdd", "b"),
           "descend": ("ResourceApplyGradientDescent", "b"), "bumped": ("AssignAddVariableOp", "v")}


def read_npy(path):
    """(shape, values, struct code) of a little-endian float32/int32/int64 .npy file of format 1.0."""
    with open(path, "rb") as f:
        b = f.read()
    hlen = struct.unpack("<H", b[8:10])[0]
    header = b[10:10 + hlen].decode("latin1")
    code = [c for t, c in NPY_TYPES.items() if t in header]
    assert code, header
    shape = tuple(int(d) for d in re.findall(r"\d+", header.split("'shape':")[1].split(")")[0]))
    body = b[10 + hlen:]
    n = len(body) // struct.calcsize(code[0])
    return shape, list(struct.unpack("<%d%s" % (n, code[0]), body)), code[0]


def op_of(tensor):
    return tensor.rsplit(":", 1)[0]


def freeze_args(name, info, outputs, out):
    src = (["--graph", os.path.join(OUT, name, "graph.pb"), "--checkpoint", os.path.join(OUT, name, "ckpt")]
           if info["kind"] == "graph" else ["--saved_model", os.path.join(OUT, name)])
    ops = sorted({op_of(o) for o in outputs})
    return ["freeze"] + src + ["--outputs", ",".join(ops), "--out", out]


for name, info in sorted(models.items()):
    for op in NEEDS.get(name, []):
        check(op in info["ops"], "%s: TensorFlow's graph has %s (ops: %s)" % (name, op, info["ops"]))
    if name == "v1":
        for op in ("Enter", "Switch", "Merge", "NextIteration", "Exit"):
            check(op in info["handle_ops"], "v1: a %s carries the handle: %s" % (op, info["handle_ops"]))
    frozen = os.path.join(OUT, name + "_frozen.pb")
    p = run(freeze_args(name, info, info["outputs"], frozen))
    print(p.stdout)
    check(p.stdout.startswith("froze %d variables into constants;" % info["variables"]),
          "%s: %d variables frozen: %r" % (name, info["variables"], p.stdout))
    hist = dict((op, int(n)) for n, op in re.findall(r"^\s+(\d+)\s+(\S+)$", run(["inspect", frozen]).stdout, re.M))
    check("VarHandleOp" not in hist, "%s: no VarHandleOp left: %s" % (name, hist))
    if info["kind"] == "saved_model":
        check(hist.get("Const") == info["variables"], "%s: the variables are Consts: %s" % (name, hist))
    text = os.path.join(OUT, name + "_frozen.pbtxt")
    run(["convert", frozen, text])
    body = open(text).read()
    for gone in ('op: "ReadVariableOp"', 'op: "VarHandleOp"', 'op: "ResourceGather"', 'op: "ResourceGatherNd"',
                 'op: "VariableShape"', 'op: "RestoreV2"', 'op: "SaveV2"', 'op: "AssignVariableOp"',
                 "DT_RESOURCE", "__inference__traced_restore"):
        check(gone not in body, "%s: no %s left in the graph or its functions" % (name, gone))
    for op in GIVES.get(name, []):
        check('op: "%s"' % op in body, "%s: the frozen graph has %s" % (name, op))
    if name == "lookup":
        check(re.search(r'key: "batch_dims"\s+value \{\s+i: 1\s', body) is not None and
              re.search(r'int_val: 1\s', body) is not None,
              "lookup: the batched gather keeps batch_dims 1, its axis a Const 1")
    if info["kind"] == "saved_model":
        check("signature" in body and "StatefulPartitionedCall" in body, "%s: the serving function is kept" % name)

    # sg runs the frozen graph: TensorFlow's outputs of the unfrozen model.
    out_dir = os.path.join(OUT, name + "_out")
    os.makedirs(out_dir, exist_ok=True)
    args = ["run", frozen]
    for i, t in enumerate(info["inputs"]):
        args += ["--feed", "%s=@%s" % (op_of(t), os.path.join(OUT, "%s_x%d.npy" % (name, i)))]
    for t in info["outputs"]:
        args += ["--fetch", t]
    run(args + ["--out", out_dir])
    for i, t in enumerate(info["outputs"]):
        got_shape, got, got_code = read_npy(os.path.join(out_dir, t.replace(":", "_") + ".npy"))
        want_shape, want, want_code = read_npy(os.path.join(OUT, "%s_y%d.npy" % (name, i)))
        check((got_shape, got_code) == (want_shape, want_code),
              "%s %s: shape %s and type %s, TensorFlow's %s %s" % (name, t, got_shape, got_code, want_shape, want_code))
        check(len(got) == len(want) and all(abs(a - b) <= 1e-5 * max(1.0, abs(b)) for a, b in zip(got, want)),
              "%s %s: frozen graph in sg == TensorFlow: %s vs %s" % (name, t, got[:6], want[:6]))

    # Outputs that change a variable cannot be frozen: one line naming the op and variable.
    for what, output in sorted(info.get("refused", {}).items()):
        never = os.path.join(OUT, "never.pb")
        p = run(freeze_args(name, info, [output], never), expect_ok=False)
        op, var = REFUSED[what]
        check(p.returncode == 1 and p.stderr.startswith("sg: UNIMPLEMENTED: ") and "(%s)" % op in p.stderr
              and "uses variable '%s'" % var in p.stderr and p.stderr.count("\n") == 1,
              "%s %s: freezing %s: %r" % (name, what, op, p.stderr))
        check(not os.path.exists(never), "%s %s: no output file after the error" % (name, what))

# TensorFlow runs the frozen graphs too (a check that the rewritten graphs and functions are
# valid), all in one process.
tf_run = subprocess.run([PY, "-c", """
import json, os, sys
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import numpy as np, tensorflow as tf
out = sys.argv[1]
failed = 0
for name, info in sorted(json.load(open(os.path.join(out, "models.json"))).items()):
    g = tf.compat.v1.GraphDef()
    g.ParseFromString(open(os.path.join(out, name + "_frozen.pb"), "rb").read())
    try:
        with tf.Graph().as_default() as graph:
            tf.compat.v1.import_graph_def(g, name="")
            feeds = {t: np.load(os.path.join(out, "%s_x%d.npy" % (name, i))) for i, t in enumerate(info["inputs"])}
            with tf.compat.v1.Session(graph=graph) as s:
                ys = s.run(info["outputs"], feeds)
        for i, y in enumerate(ys):
            np.testing.assert_allclose(y, np.load(os.path.join(out, "%s_y%d.npy" % (name, i))), rtol=1e-5, atol=1e-6)
        print("TensorFlow ran the frozen", name)
    except Exception as e:
        failed += 1
        print("FAIL: TensorFlow on the frozen %s: %s" % (name, str(e)[-1500:]))
sys.exit(1 if failed else 0)
""", OUT], capture_output=True, text=True)
print(tf_run.stdout)
check(tf_run.returncode == 0 and tf_run.stdout.count("TensorFlow ran the frozen") == len(models),
      "TensorFlow runs the frozen graphs: %s" % tf_run.stderr[-2000:])

finish()
print("OK")
