#!/usr/bin/env python3
"""`sg freeze`: the digits SavedModel frozen to `probs` gives, run as a plain GraphDef, the same
probabilities as the SavedModel run with its checkpoint restored (and TensorFlow's, recorded in
tests/testdata); a graph of resource variables, with a checkpoint sg writes at test time, frozen
to y = x * v gives the values written down here, as do handles passed through a While, IdentityN
and ResourceGather (tests/tools/freeze_handles.pbtxt); and the errors, refusals of uses a constant
cannot stand for among them, are one line each.

Usage: sg_tool_freeze_test.py SG_BINARY TOOLS_TESTDATA_DIR TESTDATA_DIR
"""
import os
import re
import struct
import tempfile

from tool_test_lib import DATA, SG, TOOLS, check, finish, run  # noqa: F401


def read_f4_npy(path):
    """The float32 values of a little-endian .npy file (format 1.0 or 2.0)."""
    with open(path, "rb") as f:
        b = f.read()
    assert b[:6] == b"\x93NUMPY", path
    if b[6] == 1:
        hlen, start = struct.unpack("<H", b[8:10])[0], 10
    else:
        hlen, start = struct.unpack("<I", b[8:12])[0], 12
    header = b[start:start + hlen].decode("latin1")
    assert "'<f4'" in header, header
    body = b[start + hlen:]
    return list(struct.unpack("<%df" % (len(body) // 4), body))


tmp_dir = tempfile.TemporaryDirectory()
tmp = tmp_dir.name
sm = os.path.join(DATA, "digits_saved_model")

# ---- The digits SavedModel (VariableV2, checkpoint in variables/). ----------------------------
frozen = os.path.join(tmp, "digits_frozen.pb")
p = run(["freeze", "--saved_model", sm, "--outputs", "probs", "--out", frozen])
print(p.stdout)
check(p.stdout.startswith("froze 4 variables into constants;"), "four variables frozen: %r" % p.stdout)
inspect = run(["inspect", frozen]).stdout
hist = dict((op, int(n)) for n, op in re.findall(r"^\s+(\d+)\s+(\S+)$", inspect, re.M))
print(hist)
for op in ("VariableV2", "Assign", "RestoreV2", "SaveV2", "NoOp"):
    check(op not in hist, "the frozen graph has no %s" % op)
check(hist.get("Const") == 4 and hist.get("MatMul") == 2 and hist.get("Softmax") == 1,
      "4 Const, 2 MatMul, 1 Softmax: %s" % hist)
text = os.path.join(tmp, "digits_frozen.pbtxt")
run(["convert", frozen, text])
body = open(text).read()
check(re.search(r'name: "hidden/w"\n  op: "Const"', body) is not None, "hidden/w is a Const")
check(re.search(r'tensor_shape \{\n\s+dim \{\n\s+size: 64\n\s+\}\n\s+dim \{\n\s+size: 64', body) is not None,
      "hidden/w holds a 64x64 tensor")

out_frozen, out_sm = os.path.join(tmp, "frozen_out"), os.path.join(tmp, "sm_out")
os.mkdir(out_frozen)
os.mkdir(out_sm)
x = os.path.join(DATA, "digits_test_x.npy")
run(["run", frozen, "--feed", "input=@" + x, "--fetch", "probs", "--out", out_frozen])
run(["run", "--saved_model", sm, "--input", "x=@" + x, "--output", "probs", "--out", out_sm])
got = read_f4_npy(os.path.join(out_frozen, "probs.npy"))
want = read_f4_npy(os.path.join(out_sm, "probs.npy"))
tf = read_f4_npy(os.path.join(DATA, "digits_tf_probs.npy"))
check(len(got) == 3600 and len(want) == 3600, "360 x 10 probabilities: %d, %d" % (len(got), len(want)))
check(max(abs(a - b) for a, b in zip(got, want)) <= 1e-6, "frozen == SavedModel with its checkpoint")
check(max(abs(a - b) for a, b in zip(got, tf)) <= 1e-5, "frozen == TensorFlow's probabilities")

# ---- Resource variables: a checkpoint written by sg's SaveV2, v = [3,4], w = 10. ---------------
graph = os.path.join(TOOLS, "resource_vars.pbtxt")
ckpt = os.path.join(tmp, "ckpt")
run(["run", graph, "--feed", 'prefix="%s"' % ckpt, "--target", "save"])
check(os.path.exists(ckpt + ".index"), "the checkpoint was written")
rfrozen = os.path.join(tmp, "resource_frozen.pbtxt")
p = run(["freeze", "--graph", graph, "--checkpoint", ckpt, "--outputs", "y:0", "--out", rfrozen])
check(p.stdout.startswith("froze 1 variables into constants; kept 4 of 15 nodes") and p.stdout.split("\n")[1].strip() == "v",
      "only v is needed: %r" % p.stdout)
body = open(rfrozen).read()
nodes = re.findall(r'^  name: "([^"]*)"\n  op: "([^"]*)"', body, re.M)
check(nodes == [("v", "Const"), ("x", "Placeholder"), ("read_v", "Identity"), ("y", "Mul")],
      "v a Const, read_v an Identity, the rest pruned: %s" % nodes)
check(re.search(r'name: "read_v"\n  op: "Identity"\n  input: "v"\n  attr \{\n    key: "T"', body) is not None,
      "read_v is Identity(v) with attr T")
p = run(["run", rfrozen, "--feed", "x=[1,2]", "--fetch", "y"])
check(p.stdout.split("\n")[1].split() == ["3", "8"], "y = x * v = [3, 8]: %r" % p.stdout)

# ---- Handles passed on (freeze_handles.pbtxt, the same checkpoint): a While whose body gives the
# handle back, IdentityN, ResourceGather. ---------------------------------------------------------
hgraph = os.path.join(TOOLS, "freeze_handles.pbtxt")
hfrozen = os.path.join(tmp, "handles_frozen.pbtxt")
p = run(["freeze", "--graph", hgraph, "--checkpoint", ckpt, "--outputs", "after,g,rw", "--out", hfrozen])
check(p.stdout.startswith("froze 2 variables into constants; kept 9 of 18 nodes"), "v and w frozen: %r" % p.stdout)
body = open(hfrozen).read()
for gone in ("DT_RESOURCE", 'op: "VarHandleOp"', 'op: "ReadVariableOp"', 'op: "ResourceGather"', "validate_indices"):
    check(gone not in body, "no %s left in the frozen handles graph" % gone)
check(re.search(r'name: "g"\n  op: "GatherV2"\n  input: "both"\n  input: "rows"\n  input: "g/axis"\n', body) is not None,
      "g is GatherV2(both, rows, g/axis)")
check(re.search(r'name: "g/axis"\n  op: "Const"\n  input: "\^rows"\n', body) is not None,
      "the axis runs where the indices are made")
check(re.search(r'key: "output_shapes"\n    value \{\n      list \{\n        shape \{\n        \}\n'
                r'        shape \{\n          dim \{\n            size: 2\n', body) is not None,
      "the loop's output 1 has v's shape [2]")
p = run(["run", hfrozen, "--fetch", "after", "--fetch", "g", "--fetch", "rw"])
lines = p.stdout.split("\n")
check([lines[1].split(), lines[3].split(), lines[5].split()] == [["3", "4"], ["4", "3"], ["10"]],
      "after = v = [3,4], g = v[[1,0]] = [4,3], rw = w = 10: %r" % p.stdout)

# ---- Errors. ------------------------------------------------------------------------------------
def fails(args, code, text):
    p = run(args, expect_ok=False)
    ok = p.returncode == 1 and p.stderr.startswith("sg: %s: " % code) and text in p.stderr and p.stderr.count("\n") == 1
    check(ok, "sg %s: want %s '%s', got rc %d %r" % (" ".join(args[:3]), code, text, p.returncode, p.stderr))


out = os.path.join(tmp, "never.pb")
fails(["freeze", "--graph", graph, "--checkpoint", ckpt, "--outputs", "read_v_save", "--out", out],
      "UNIMPLEMENTED", "node 'assign_v' (AssignVariableOp) uses variable 'v'")
for output, text in (
        ("read_pass", "function 'pass', called by node 'pass_call' (StatefulPartitionedCall), "
                      "returns the handle of variable 'v'"),
        ("read_m", "node 'm' (Merge) joins the handle of variable 'v' with 'other'"),
        ("read_swapped", "node 'swapped' (While) passes variable 'v' as loop variable 0, "
                         "which its body 'swap_body' does not return"),
        ("read_scatter", "node 'scatter' (ResourceScatterAdd) uses variable 'v' in a way a constant cannot stand for")):
    fails(["freeze", "--graph", hgraph, "--checkpoint", ckpt, "--outputs", output, "--out", out], "UNIMPLEMENTED", text)
fails(["freeze", "--graph", graph, "--checkpoint", os.path.join(tmp, "nope"), "--outputs", "y", "--out", out],
      "NOT_FOUND", "reading checkpoint")
fails(["freeze", "--graph", graph, "--checkpoint", ckpt, "--outputs", "nope", "--out", out],
      "NOT_FOUND", "the graph has no node 'nope'")
fails(["freeze", "--saved_model", sm, "--tag", "train", "--outputs", "probs", "--out", out],
      "INVALID_ARGUMENT", "no MetaGraph tagged 'train'; it has: serve")
fails(["freeze", "--graph", graph, "--outputs", "y", "--out", out], "INVALID_ARGUMENT", "needs --checkpoint")
check(not os.path.exists(out), "no output file after the errors")

finish()
print("OK")
