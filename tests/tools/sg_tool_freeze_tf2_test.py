#!/usr/bin/env python3
"""`sg freeze --saved_model` on SavedModels written by TensorFlow 2 (tf.saved_model.save of a
tf.Module, Keras 3's model.export), whose checkpoints are object-based
("w/.ATTRIBUTES/VARIABLE_VALUE") and whose signatures call functions with the variables' handles.
The models are written at test time by tests/tools/make_tf2_saved_models.py with the TensorFlow
oracle's venv, into OUT_DIR (the build tree); the frozen graph run by `sg run` must give
TensorFlow's outputs, hold no variable, restore or save, and also run in TensorFlow itself.
Without the venv it prints "skipped: ..." (ctest: SKIP_REGULAR_EXPRESSION) and exits 0.

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


def read_f4_npy(path):
    """(shape, float32 values) of a little-endian .npy file of format 1.0."""
    with open(path, "rb") as f:
        b = f.read()
    hlen = struct.unpack("<H", b[8:10])[0]
    header = b[10:10 + hlen].decode("latin1")
    assert "'<f4'" in header, header
    shape = tuple(int(d) for d in re.findall(r"\d+", header.split("'shape':")[1].split(")")[0]))
    body = b[10 + hlen:]
    return shape, list(struct.unpack("<%df" % (len(body) // 4), body))


def op_of(tensor):
    return tensor.rsplit(":", 1)[0]


for name, info in sorted(models.items()):
    sm = os.path.join(OUT, name)
    frozen = os.path.join(OUT, name + "_frozen.pb")
    p = run(["freeze", "--saved_model", sm, "--outputs", op_of(info["output"]), "--out", frozen])
    print(p.stdout)
    check(p.stdout.startswith("froze %d variables into constants;" % info["variables"]),
          "%s: %d variables frozen: %r" % (name, info["variables"], p.stdout))
    hist = dict((op, int(n)) for n, op in re.findall(r"^\s+(\d+)\s+(\S+)$", run(["inspect", frozen]).stdout, re.M))
    check("VarHandleOp" not in hist and hist.get("Const") == info["variables"],
          "%s: the variables are Consts: %s" % (name, hist))
    text = os.path.join(OUT, name + "_frozen.pbtxt")
    run(["convert", frozen, text])
    body = open(text).read()
    for gone in ('op: "ReadVariableOp"', 'op: "VarHandleOp"', 'op: "RestoreV2"', 'op: "SaveV2"',
                 'op: "AssignVariableOp"', "DT_RESOURCE", "__inference__traced_restore"):
        check(gone not in body, "%s: no %s left in the graph or its functions" % (name, gone))
    check("signature" in body and "StatefulPartitionedCall" in body, "%s: the serving function is kept" % name)

    # sg runs the frozen graph: TensorFlow's outputs.
    out_dir = os.path.join(OUT, name + "_out")
    os.makedirs(out_dir, exist_ok=True)
    x = os.path.join(OUT, name + "_x.npy")
    run(["run", frozen, "--feed", "%s=@%s" % (op_of(info["input"]), x), "--fetch", info["output"],
         "--out", out_dir])
    got_shape, got = read_f4_npy(os.path.join(out_dir, info["output"].replace(":", "_") + ".npy"))
    want_shape, want = read_f4_npy(os.path.join(OUT, name + "_y.npy"))
    check(got_shape == want_shape, "%s: shape %s, TensorFlow's %s" % (name, got_shape, want_shape))
    check(max(abs(a - b) for a, b in zip(got, want)) <= 1e-5,
          "%s: frozen graph in sg == TensorFlow: %s vs %s" % (name, got[:6], want[:6]))

    # TensorFlow runs the frozen graph too (a check that the rewritten functions are valid).
    tf_run = subprocess.run([PY, "-c", """
import os, sys
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import numpy as np, tensorflow as tf
g = tf.compat.v1.GraphDef()
g.ParseFromString(open(sys.argv[1], "rb").read())
with tf.Graph().as_default() as graph:
    tf.compat.v1.import_graph_def(g, name="")
    with tf.compat.v1.Session(graph=graph) as s:
        y = s.run(sys.argv[3], {sys.argv[2]: np.load(sys.argv[4])})
np.testing.assert_allclose(y, np.load(sys.argv[5]), rtol=1e-5, atol=1e-6)
print("TensorFlow ran the frozen graph")
""", frozen, info["input"], info["output"], x, os.path.join(OUT, name + "_y.npy")],
                            capture_output=True, text=True)
    check(tf_run.returncode == 0, "%s: TensorFlow runs the frozen graph: %s" % (name, tf_run.stderr[-2000:]))

# A signature that assigns to a variable cannot be frozen: one line naming the op.
p = run(["freeze", "--saved_model", os.path.join(OUT, "module"), "--outputs",
         op_of(models["module"]["bump"]), "--out", os.path.join(OUT, "never.pb")], expect_ok=False)
check(p.returncode == 1 and p.stderr.startswith("sg: UNIMPLEMENTED: ") and "AssignAddVariableOp" in p.stderr
      and p.stderr.count("\n") == 1, "freezing an assignment: %r" % p.stderr)
check(not os.path.exists(os.path.join(OUT, "never.pb")), "no output file after the error")

finish()
print("OK")
