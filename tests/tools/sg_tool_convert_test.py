#!/usr/bin/env python3
"""`sg convert`: .pb -> .pbtxt -> .pb round trips keep the graph (the same text again, the same
outputs when run), and --strip-default-attrs drops exactly the attrs equal to their OpDef
default (tests/tools/strip_attrs.pbtxt says which) while the graph still computes the same.

Usage: sg_tool_convert_test.py SG_BINARY TOOLS_TESTDATA_DIR TESTDATA_DIR
"""
import os
import re
import subprocess
import tempfile
import threading

from tool_test_lib import DATA, SG, TOOLS, check, finish, run  # noqa: F401


def attr_keys(pbtxt):
    """{node name: [attr keys]} of a GraphDef in sg's (libprotobuf's) text format."""
    nodes = {}
    for block in re.split(r"^node \{$", open(pbtxt).read(), flags=re.M)[1:]:
        name = re.search(r'^  name: "([^"]*)"$', block, re.M).group(1)
        nodes[name] = re.findall(r'^    key: "([^"]*)"$', block, re.M)
    return nodes


tmp_dir = tempfile.TemporaryDirectory()
tmp = tmp_dir.name

# ---- Round trip of the digits classifier. ------------------------------------------------------
src = os.path.join(DATA, "digits_mlp.pb")
a, b, c = (os.path.join(tmp, n) for n in ("a.pbtxt", "b.pb", "c.pbtxt"))
p = run(["convert", src, a])
check(re.match(r"^.*digits_mlp.pb \(\d+ nodes\) -> .*a.pbtxt \(text\)$", p.stdout.strip()) is not None, "summary: %r" % p.stdout)
check(open(a).read().startswith("node {\n  name: "), "a.pbtxt is text")
run(["convert", a, b])
run(["convert", b, c])
check(open(a).read() == open(c).read(), "pb -> pbtxt -> pb -> pbtxt gives the same text")
check(len(attr_keys(a)) == int(re.search(r"\((\d+) nodes\)", p.stdout).group(1)), "every node in the text")
feed = "input=[1,64]:" + ",".join(str(i % 17 / 16.0) for i in range(64))
outs = [run(["run", g, "--feed", feed, "--fetch", "probs"]).stdout for g in (src, a, b)]
check(outs[0] == outs[1] == outs[2] and outs[0].startswith("probs float32 [1,10]"),
      "the original, the text and the binary again compute the same: %s" % outs)
# A graph read from a pipe (no size to take before reading) gives the same too.
r, w = os.pipe()
writer = threading.Thread(target=lambda: (os.write(w, open(src, "rb").read()), os.close(w)))
writer.start()
piped = subprocess.run([SG, "run", "/dev/fd/%d" % r, "--feed", feed, "--fetch", "probs"],
                       capture_output=True, text=True, pass_fds=(r,))
writer.join()
os.close(r)
check(piped.returncode == 0 and piped.stdout == outs[0],
      "the graph through a pipe: %r %r" % (piped.stdout, piped.stderr))

# ---- --strip-default-attrs. --------------------------------------------------------------------
g = os.path.join(TOOLS, "strip_attrs.pbtxt")
s, sb = os.path.join(tmp, "stripped.pbtxt"), os.path.join(tmp, "stripped.pb")
p = run(["convert", g, s, "--strip-default-attrs"])
check(p.stdout.strip().endswith("4 default-valued attrs stripped"), "4 stripped: %r" % p.stdout)
got = attr_keys(s)
want = {"x": ["dtype"], "x2": ["dtype", "shape"], "w": ["dtype", "value"], "y": ["T"],
        "z": ["T", "transpose_b"]}
check(got == want, "attrs after stripping: %s" % got)
run(["convert", g, sb, "--strip-default-attrs"])
for graph in (g, s, sb):
    p = run(["run", graph, "--feed", "x=[[1,1]]", "--fetch", "z"])
    check(p.stdout.split("\n")[1].split() == ["16", "36"], "%s: z = ([1,1] w) w^T = [16, 36]: %r" % (graph, p.stdout))
# Without the option nothing is stripped.
n = os.path.join(tmp, "kept.pbtxt")
run(["convert", g, n])
check(attr_keys(n)["y"] == ["T", "transpose_a", "transpose_b"], "without --strip-default-attrs: %s" % attr_keys(n)["y"])

# ---- Errors: one line, exit 1. -----------------------------------------------------------------
bad = os.path.join(tmp, "bad.pb")
with open(bad, "wb") as f:
    f.write(b"\xff\xff\xff\xff not a proto")
for args, text in ((["convert", os.path.join(tmp, "none.pb"), n], "cannot open"),
                   (["convert", bad, n], "is not a binary GraphDef"),
                   (["convert", g], "convert takes IN and OUT"),
                   (["convert", g, n, "--strip"], "unknown option '--strip'")):
    p = run(args, expect_ok=False)
    check(p.returncode == 1 and p.stderr.startswith("sg: INVALID_ARGUMENT: ") and text in p.stderr,
          "sg %s: %r" % (" ".join(args[1:]), p.stderr))

finish()
print("OK")
