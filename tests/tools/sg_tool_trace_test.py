#!/usr/bin/env python3
"""`sg run --trace FILE.json`: loads the Chrome trace with Python's json and checks it against the
graph: one slice per executed node on the device the graph places it on, dur >= 0, thread and
process names, and the Send/Recv pairs of a two-device graph as flows between the devices, in
one process and over a cluster of two `sg server` tasks (the workers' parts merged); there, too,
`sg inspect --partition` fails with UNIMPLEMENTED (a cluster partitions a step only when it runs).

Usage: sg_tool_trace_test.py SG_BINARY TOOLS_TESTDATA_DIR TESTDATA_DIR
"""
import json
import os
import socket
import subprocess
import tempfile

from tool_test_lib import DATA, SG, TOOLS, check, finish, run  # noqa: F401


def load(path):
    with open(path) as f:
        trace = json.load(f)  # raises on anything that is not JSON
    events = trace["traceEvents"]
    procs = {e["pid"]: e["args"]["name"] for e in events
             if e["ph"] == "M" and e["name"] == "process_name"}
    threads = {(e["pid"], e["tid"]) for e in events
               if e["ph"] == "M" and e["name"] == "thread_name"}
    slices = [e for e in events if e["ph"] == "X"]
    for s in slices:
        check(s["pid"] in procs, "slice %s: pid %s has no process_name" % (s["name"], s["pid"]))
        check((s["pid"], s["tid"]) in threads, "slice %s: its thread has no thread_name" % s["name"])
        check(s["dur"] >= 0 and s["ts"] >= 0, "slice %s: ts %s dur %s" % (s["name"], s["ts"], s["dur"]))
        check(s["args"]["name"] == s["name"], "slice %s: args.name" % s["name"])
    return events, procs, slices


tmp_dir = tempfile.TemporaryDirectory()
tmp = tmp_dir.name

# ---- A graph over two CPU devices: x (CPU:0) -> sq (CPU:1) -> z (CPU:0). ------------------------
trace = os.path.join(tmp, "two.json")
p = run(["run", os.path.join(TOOLS, "two_devices.pbtxt"), "--feed", "x=[1,2]", "--fetch", "z",
         "--config", "cpu_devices=2", "--config", "graph_optimizer=0", "--trace", trace])
check(p.stdout.split("\n")[1].split() == ["2", "6"], "z = x*x + x: got %r" % p.stdout)
events, procs, slices = load(trace)
print("processes:", procs)
print("slices:", sorted((s["name"], s["cat"], procs[s["pid"]].rsplit("/", 1)[-1]) for s in slices))
check(len(procs) == 2, "two devices, got %s" % procs)
by_name = {}
for s in slices:
    by_name.setdefault(s["name"], []).append(s)
graph_nodes = {"x": "Placeholder", "sq": "Square", "z": "AddV2"}
placement = {"sq": "CPU:1", "z": "CPU:0"}
for name in ("sq", "z"):
    got = by_name.get(name, [])
    check(len(got) == 1, "one slice for %s, got %d" % (name, len(got)))
    if got:
        check(got[0]["cat"] == graph_nodes[name] and got[0]["args"]["op"] == graph_nodes[name],
              "%s: op %s" % (name, got[0]["cat"]))
        check(procs[got[0]["pid"]].endswith(placement[name]), "%s ran on %s" % (name, procs[got[0]["pid"]]))
        check(got[0]["args"]["outputs"] == ["float32[2]"], "%s outputs %s" % (name, got[0]["args"]["outputs"]))
        check(got[0]["args"]["output_bytes"] == 8, "%s output_bytes" % name)
# Every other slice is a node the runtime added (the partitioner's transfers, the feed/fetch
# plumbing), never a node the graph does not have.
for s in slices:
    check(s["name"] in graph_nodes or s["cat"].startswith("_"),
          "slice %s (%s) is neither a graph node nor an added one" % (s["name"], s["cat"]))
sends = [s for s in slices if s["cat"] == "_Send"]
recvs = [s for s in slices if s["cat"] == "_Recv"]
check(len(sends) >= 2 and len(recvs) >= 2, "a _Send/_Recv pair each way: %d sends, %d recvs" % (len(sends), len(recvs)))


def enclosing(ev, candidates):
    return [s for s in candidates if s["pid"] == ev["pid"] and s["tid"] == ev["tid"]
            and s["ts"] <= ev["ts"] <= s["ts"] + s["dur"] + 0.001]


flows = {}
for e in events:
    if e["ph"] in ("s", "f"):
        flows.setdefault(e["id"], {})[e["ph"]] = e
check(len(flows) >= 2, "at least two flows (x to CPU:1, sq back), got %d" % len(flows))
crossed = set()
for fid, pair in flows.items():
    check(set(pair) == {"s", "f"}, "flow %s has both ends" % fid)
    if set(pair) != {"s", "f"}:
        continue
    s, f = pair["s"], pair["f"]
    check(s["pid"] != f["pid"], "flow %s crosses devices" % fid)
    check(f.get("bp") == "e", "flow %s end binds to its enclosing slice" % fid)
    check(len(enclosing(s, sends)) == 1, "flow %s starts on a _Send slice" % fid)
    check(len(enclosing(f, recvs)) == 1, "flow %s ends on a _Recv slice" % fid)
    crossed.add((procs[s["pid"]].rsplit("/", 1)[-1], procs[f["pid"]].rsplit("/", 1)[-1]))
check(crossed == {("device:CPU:0", "device:CPU:1"), ("device:CPU:1", "device:CPU:0")},
      "flows both ways between the devices: %s" % crossed)

# ---- --repeat traces the last run only: the same slices once. ----------------------------------
trace3 = os.path.join(tmp, "repeat.json")
run(["run", os.path.join(TOOLS, "two_devices.pbtxt"), "--feed", "x=[1,2]", "--fetch", "z",
     "--config", "cpu_devices=2", "--repeat", "3", "--trace", trace3])
_, _, slices3 = load(trace3)
check(sorted(s["name"] for s in slices3 if s["name"] in graph_nodes) == ["sq", "z"],
      "--repeat 3: one run's slices, got %s" % sorted(s["name"] for s in slices3))

# ---- A SavedModel run: the digits classifier's two MatMuls. -----------------------------------
sm_trace = os.path.join(tmp, "sm.json")
run(["run", "--saved_model", os.path.join(DATA, "digits_saved_model"), "--input",
     "x=@" + os.path.join(DATA, "digits_test_x.npy"), "--output", "probs", "--trace", sm_trace])
_, _, sm_slices = load(sm_trace)
# The optimiser fuses each MatMul with its BiasAdd (and Relu), named after the last node fused.
matmuls = [s for s in sm_slices if s["cat"] in ("MatMul", "_FusedMatMul")]
check(len(matmuls) == 2, "the SavedModel's 2 MatMul slices, got %d" % len(matmuls))
check(sorted(s["args"]["outputs"][0] for s in matmuls) == ["float32[360,10]", "float32[360,64]"],
      "MatMul outputs of batch 360: %s" % [s["args"]["outputs"] for s in matmuls])
probs = [s for s in sm_slices if s["name"] == "probs"]
check(len(probs) == 1 and probs[0]["cat"] == "Softmax" and probs[0]["args"]["outputs"] == ["float32[360,10]"],
      "one Softmax slice 'probs' of float32[360,10]: %s" % probs)
variables = sorted(s["name"] for s in sm_slices if s["cat"] == "VariableV2")
check(variables == ["hidden/b", "hidden/w", "out/b", "out/w"], "the four variables: %s" % variables)

# ---- A cluster of two `sg server` tasks: the step's parts, merged from both workers, and the
# transfers between the tasks as flows. ---------------------------------------------------------
def free_ports(n):
    socks = [socket.socket() for _ in range(n)]
    for so in socks:
        so.bind(("127.0.0.1", 0))
    ports = [so.getsockname()[1] for so in socks]
    for so in socks:
        so.close()
    return ports


ports = free_ports(2)
spec = "worker=" + ",".join("127.0.0.1:%d" % p for p in ports)
with open(os.path.join(TOOLS, "two_devices.pbtxt")) as f:
    text = f.read()
text = text.replace('"/device:CPU:0"', '"/job:worker/replica:0/task:0/device:CPU:0"')
text = text.replace('"/device:CPU:1"', '"/job:worker/replica:0/task:1/device:CPU:0"')
cluster_graph = os.path.join(tmp, "two_tasks.pbtxt")
with open(cluster_graph, "w") as f:
    f.write(text)
servers = []
try:
    for task in range(2):
        servers.append(subprocess.Popen([SG, "server", "--cluster", spec, "--job", "worker", "--task", str(task)],
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
    for srv in servers:
        line = srv.stdout.readline()  # "sg: serving worker:N on grpc://..." once it listens
        check("serving" in line, "a server started: %r" % line)
    cluster_trace = os.path.join(tmp, "cluster.json")
    p = run(["run", cluster_graph, "--feed", "x=[1,2]", "--fetch", "z", "--session_target",
             "grpc://127.0.0.1:%d" % ports[0], "--trace", cluster_trace])
    check(p.stdout.split("\n")[1].split() == ["2", "6"], "z on the cluster: %r" % p.stdout)
    events, procs, slices = load(cluster_trace)
    check(sorted(procs.values()) == ["/job:worker/replica:0/task:%d/device:CPU:0" % t for t in range(2)],
          "a process per task: %s" % procs)
    for name, task in (("sq", 1), ("z", 0)):
        got = [s for s in slices if s["name"] == name]
        check(len(got) == 1 and "/task:%d/" % task in procs[got[0]["pid"]], "%s ran once on task %d" % (name, task))
    flows = {}
    for e in events:
        if e["ph"] in ("s", "f"):
            flows.setdefault(e["id"], {})[e["ph"]] = e
    tasks = {(procs[f["s"]["pid"]].split("/")[3], procs[f["f"]["pid"]].split("/")[3])
             for f in flows.values() if set(f) == {"s", "f"}}
    check(tasks == {("task:0", "task:1"), ("task:1", "task:0")}, "flows between the tasks both ways: %s" % tasks)
    # A cluster partitions a step only when it runs it: inspect --partition says so, pointing to
    # run --partition-dot.
    p = run(["inspect", cluster_graph, "--partition", "--feed", "x", "--fetch", "z", "--session_target",
             "grpc://127.0.0.1:%d" % ports[0]], expect_ok=False)
    check(p.returncode == 1 and p.stderr.startswith("sg: UNIMPLEMENTED: --partition: a cluster session")
          and "--partition-dot" in p.stderr, "inspect --partition on a cluster: %r" % p.stderr)
finally:
    for srv in servers:
        srv.terminate()
    for srv in servers:
        try:
            srv.wait(timeout=10)
        except subprocess.TimeoutExpired:
            srv.kill()

# ---- Errors: an unwritable file is one line and exit 1. ---------------------------------------
p = run(["run", os.path.join(TOOLS, "two_devices.pbtxt"), "--feed", "x=[1,2]", "--fetch", "z",
         "--config", "cpu_devices=2", "--trace", os.path.join(tmp, "no/such/dir/t.json")],
        expect_ok=False)
check(p.returncode == 1 and p.stderr.startswith("sg: INVALID_ARGUMENT: --trace: cannot write"),
      "unwritable --trace: rc %d, %r" % (p.returncode, p.stderr))

finish()
print("OK")
