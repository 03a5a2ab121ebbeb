#!/usr/bin/env python3
"""`sg inspect --dot`: the dot text of a small graph has exactly its nodes (name and op) and edges
(output index, control edges dashed); a graph of 301 nodes is grouped by name scope into
clusters with deep scopes collapsed; a run's partitions are drawn per device with their
_Send/_Recv pairs (sg run --partition-dot), and without running the step (sg inspect --partition);
.svg goes through Graphviz's dot when it is installed and
fails with one clear line when it is not.

Usage: sg_tool_dot_test.py SG_BINARY TOOLS_TESTDATA_DIR TESTDATA_DIR
"""
import os
import re
import shutil
import tempfile

from tool_test_lib import DATA, SG, TOOLS, check, finish  # noqa: F401
from tool_test_lib import run as run_sg


def run(args, env=None):
    return run_sg(args, expect_ok=False, env=env)


NODE = re.compile(r'^\s*"((?:[^"\\]|\\.)*)" \[(.*)\];$')
EDGE = re.compile(r'^\s*"((?:[^"\\]|\\.)*)" -> "((?:[^"\\]|\\.)*)"(?: \[(.*)\])?;$')


def parse(path):
    """The nodes {id: attrs}, edges [(src, dst, attrs)] and cluster labels of a dot file."""
    nodes, edges, clusters = {}, [], []
    with open(path) as f:
        lines = f.read().splitlines()
    check(lines[0] == "digraph G {" and lines[-1] == "}", "a digraph: %r ... %r" % (lines[0], lines[-1]))
    for i, line in enumerate(lines):
        m = EDGE.match(line)
        if m:
            edges.append((m.group(1), m.group(2), m.group(3) or ""))
            continue
        m = NODE.match(line)
        if m:
            nodes[m.group(1)] = m.group(2)
        if line.strip().startswith("subgraph cluster_"):
            clusters.append(re.match(r'\s*label="(.*)";', lines[i + 1]).group(1))
    return nodes, edges, clusters


tmp_dir = tempfile.TemporaryDirectory()
tmp = tmp_dir.name

# ---- A small graph: every node and edge, nothing else. ---------------------------------------
dot = os.path.join(tmp, "small.dot")
p = run(["inspect", os.path.join(TOOLS, "dot_graph.pbtxt"), "--dot", dot])
check(p.returncode == 0 and ("graph drawn to " + dot) in p.stdout, "inspect --dot: %r %r" % (p.stdout, p.stderr))
nodes, edges, clusters = parse(dot)
want_nodes = {"x": "Placeholder", "c": "Const", "u": "Unique", "a": "AddV2", "gate": "NoOp", "b": "Identity"}
check(set(nodes) == set(want_nodes), "nodes %s" % sorted(nodes))
for name, op in want_nodes.items():
    check('label="%s\\n%s"' % (name, op) in nodes.get(name, ""), "%s labelled name and op: %r" % (name, nodes.get(name)))
want_edges = {("x", "u", 'label="0"'), ("u", "a", 'label="1"'), ("c", "a", 'label="0"'),
              ("a", "gate", "style=dashed"), ("u", "b", 'label="0"'), ("gate", "b", "style=dashed")}
check(set(edges) == want_edges and len(edges) == len(want_edges), "edges %s" % sorted(edges))
check(clusters == [], "a small graph is drawn flat: %s" % clusters)

# ---- A SavedModel's graph. ----------------------------------------------------------------------
sm_dot = os.path.join(tmp, "sm.dot")
p = run(["inspect", "--saved_model", os.path.join(DATA, "digits_saved_model"), "--dot", sm_dot])
check(p.returncode == 0, "inspect --saved_model --dot: %r" % p.stderr)
nodes, edges, _ = parse(sm_dot)
check('label="hidden/MatMul\\nMatMul"' in nodes.get("hidden/MatMul", ""), "the SavedModel's hidden/MatMul")
check(("hidden/w/read", "hidden/MatMul", 'label="0"') in edges, "hidden/w/read -> hidden/MatMul")

# ---- 301 nodes: grouped by scope, the depth-2 scopes collapsed. --------------------------------
big = os.path.join(tmp, "big.pbtxt")
with open(big, "w") as f:
    f.write('node { name: "input" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } } }\n')
    prev = "input"
    for i in range(30):
        for j in range(10):
            name = "layer%d/block/op%d" % (i, j)
            f.write('node { name: "%s" op: "Relu" input: "%s" attr { key: "T" value { type: DT_FLOAT } } }\n' % (name, prev))
            prev = name
big_dot = os.path.join(tmp, "big.dot")
p = run(["inspect", big, "--dot", big_dot])
check(p.returncode == 0, "inspect --dot on 301 nodes: %r" % p.stderr)
nodes, edges, clusters = parse(big_dot)
want = {"input"} | {"layer%d/block" % i for i in range(30)}
check(set(nodes) == want, "boxes: input and one per layer%%d/block, got %d: %s" % (len(nodes), sorted(nodes)[:5]))
check(all("shape=box3d" in nodes[n] and "(10 ops)" in nodes[n] for n in want - {"input"}),
      "collapsed scopes are box3d with their op count")
check(sorted(clusters) == sorted("layer%d" % i for i in range(30)), "one cluster per layer: %s" % clusters[:5])
want_edges = {("input", "layer0/block", "")} | {("layer%d/block" % i, "layer%d/block" % (i + 1), "") for i in range(29)}
check(set(edges) == want_edges, "edges between the collapsed scopes: %s" % sorted(edges)[:5])

# ---- sg run --partition-dot: the per-device partitions of a run, transfers in red. --------------
def members(path):
    """{node: device} from the clusters of a partitions drawing."""
    member, current = {}, None
    for line in open(path).read().splitlines():
        m = re.match(r'\s*label="(/job:[^"]*)";', line)
        if m:
            current = m.group(1)
        m = NODE.match(line)
        if m and current:
            member[m.group(1)] = current.rsplit("/", 1)[-1]
    return member


pdot = os.path.join(tmp, "partitions.dot")
p = run(["run", os.path.join(TOOLS, "two_devices.pbtxt"), "--feed", "x=[1,2]", "--fetch", "z",
         "--config", "cpu_devices=2", "--partition-dot", pdot])
check(p.returncode == 0, "run --partition-dot: %r" % p.stderr)
nodes, edges, clusters = parse(pdot)
check(sorted(clusters) == ["/job:localhost/replica:0/task:0/device:CPU:%d" % d for d in range(2)],
      "a cluster per device: %s" % clusters)
member = members(pdot)
check(member.get("sq") == "device:CPU:1" and member.get("z") == "device:CPU:0", "sq on CPU:1, z on CPU:0: %s" % member)
transfers = [(s, d) for s, d, a in edges if "color=red" in a]
check(len(transfers) == 2 and all(nodes[s].endswith('\\n_Send"') and nodes[d].endswith('\\n_Recv"') for s, d in transfers)
      and {member[s] for s, _ in transfers} == {"device:CPU:0", "device:CPU:1"},
      "a _Send -> _Recv transfer each way: %s" % transfers)

# ---- sg inspect --partition: the same step partitioned without running it. --------------------
two = os.path.join(TOOLS, "two_devices.pbtxt")
idot = os.path.join(tmp, "inspect_partitions.dot")
p = run(["inspect", two, "--partition", "--feed", "x", "--fetch", "z", "--config", "cpu_devices=2",
         "--dot", idot])
check(p.returncode == 0, "inspect --partition --dot: %r" % p.stderr)
# Written down from the placement: CPU:0 has x's _Arg, the _Send of x, the _Recv of sq, z and its
# _Retval; CPU:1 the _Recv of x, sq and the _Send of sq.
want_summary = ["partitions of %s: 2" % two,
                "  /job:localhost/replica:0/task:0/device:CPU:0  5 nodes  1 _Send  1 _Recv",
                "  /job:localhost/replica:0/task:0/device:CPU:1  3 nodes  1 _Send  1 _Recv",
                "partitions drawn to " + idot]
check(p.stdout.splitlines() == want_summary, "inspect --partition summary: %r" % p.stdout)
nodes, edges, clusters = parse(idot)
check(sorted(clusters) == ["/job:localhost/replica:0/task:0/device:CPU:%d" % d for d in range(2)],
      "inspect --partition: a cluster per device: %s" % clusters)
member = members(idot)
check(member.get("sq") == "device:CPU:1" and member.get("z") == "device:CPU:0",
      "inspect --partition: sq on CPU:1, z on CPU:0: %s" % member)
check(sum(1 for d in member.values() if d == "device:CPU:0") == 5 and
      sum(1 for d in member.values() if d == "device:CPU:1") == 3, "5 + 3 nodes drawn: %s" % member)
transfers = [(s, d, a) for s, d, a in edges if "color=red" in a]
check(len(transfers) == 2 and all(nodes[s].endswith('\\n_Send"') and nodes[d].endswith('\\n_Recv"')
                                  and member[s] != member[d] for s, d, _ in transfers)
      and {member[s] for s, _, _ in transfers} == {"device:CPU:0", "device:CPU:1"},
      "inspect --partition: a _Send -> _Recv edge each way between the devices: %s" % transfers)
check(open(idot).read() == open(pdot).read(),
      "inspect --partition draws exactly what run --partition-dot draws for the same step")

# Without --feed x the step would fail to run (x is a Placeholder never fed), but it partitions:
# x itself sits on CPU:0; run's --feed NAME=VALUES form is taken too, the value unread.
p = run(["inspect", two, "--partition", "--fetch", "z", "--config", "cpu_devices=2", "--dot", idot])
check(p.returncode == 0 and "device:CPU:0  5 nodes  1 _Send  1 _Recv" in p.stdout,
      "inspect --partition without feeds: %r %r" % (p.stdout, p.stderr))
nodes, _, _ = parse(idot)
check(nodes.get("x", "").endswith('\\nPlaceholder"'), "the unfed x is drawn as its Placeholder: %s" % sorted(nodes))
p = run(["run", two, "--fetch", "z", "--config", "cpu_devices=2"])
check(p.returncode == 1, "running that step fails: %r" % p.stderr)

# Errors: a placement the session cannot satisfy (one CPU device), no step, step options without
# --partition, unknown names.
p = run(["inspect", two, "--partition", "--feed", "x=[1,2]", "--fetch", "z"])
check(p.returncode == 1 and p.stderr.startswith("sg: INVALID_ARGUMENT: --partition:") and "'sq'" in p.stderr
      and "device:CPU:1" in p.stderr, "sq pinned to CPU:1 of a one-device session: %r" % p.stderr)
p = run(["inspect", two, "--partition"])
check(p.returncode == 1 and p.stderr.startswith("sg: INVALID_ARGUMENT:") and "--fetch" in p.stderr,
      "inspect --partition needs a fetch: %r" % p.stderr)
p = run(["inspect", two, "--fetch", "z"])
check(p.returncode == 1 and "--fetch goes with --partition" in p.stderr, "--fetch alone: %r" % p.stderr)
p = run(["inspect", two, "--partition", "--fetch", "nosuch"])
check(p.returncode == 1 and p.stderr.startswith("sg: NOT_FOUND:") and "nosuch" in p.stderr,
      "an unknown fetch: %r" % p.stderr)

# ---- sg run --saved_model --partition-dot: the digits SavedModel's one partition. ----------------
smdot = os.path.join(tmp, "sm_partitions.dot")
p = run(["run", "--saved_model", os.path.join(DATA, "digits_saved_model"), "--input",
         "x=[[%s]]" % ",".join(["0.5"] * 64), "--output", "probs", "--partition-dot", smdot])
check(p.returncode == 0 and p.stdout.startswith("probs (probs:0): float32 [1,10]"),
      "run --saved_model --partition-dot: %r %r" % (p.stdout, p.stderr))
nodes, edges, clusters = parse(smdot)
check(clusters == ["/job:localhost/replica:0/task:0/device:CPU:0"], "one cluster, CPU:0: %s" % clusters)
check(any(n.startswith("_arg_") for n in nodes) and any(n.startswith("_retval_probs") for n in nodes)
      and "probs" in nodes and nodes["probs"].endswith('\\nSoftmax"'),
      "the partition feeds x, runs probs (Softmax) and returns it: %s" % sorted(nodes))
check(not [e for e in edges if "color=red" in e[2]], "no transfers in one partition")

# ---- .svg: through Graphviz when installed; a clear error without it. -------------------------
svg = os.path.join(tmp, "small.svg")
if shutil.which("dot"):
    p = run(["inspect", os.path.join(TOOLS, "dot_graph.pbtxt"), "--dot", svg])
    check(p.returncode == 0, "--dot .svg: %r" % p.stderr)
    text = open(svg).read() if os.path.exists(svg) else ""
    check("<svg" in text and ">gate<" in text and ">Unique<" in text, "the svg draws the nodes")
    check(not os.path.exists(svg + ".tmp.dot"), "the temporary .dot is removed")
else:
    print("SKIP --dot FILE.svg: Graphviz's dot is not installed (apt-get install graphviz)")
empty = os.path.join(tmp, "empty_path")
os.mkdir(empty)
p = run(["inspect", os.path.join(TOOLS, "dot_graph.pbtxt"), "--dot", os.path.join(tmp, "x.svg")],
        env=dict(os.environ, PATH=empty))
check(p.returncode == 1 and p.stderr.startswith("sg: UNAVAILABLE: --dot") and "graphviz" in p.stderr,
      "--dot .svg without dot: %r" % p.stderr)
p = run(["inspect", os.path.join(TOOLS, "dot_graph.pbtxt"), "--dot", os.path.join(tmp, "x.png")])
check(p.returncode == 1 and "must end in .dot" in p.stderr, "--dot x.png: %r" % p.stderr)

finish()
print("OK")
