#!/usr/bin/env python3
"""Writes the op conformance cases: TensorFlow 2.21's results for every op sg registers.

    PY=$(tests/oracle/setup_venv.sh)
    $PY tests/oracle/make_op_cases.py                 # every group, into tests/oracle/op_cases/
    $PY tests/oracle/make_op_cases.py --only math_unary array_shape

A case is a handful of nodes that TensorFlow builds in a tf.compat.v1 Graph, mostly one op from
tf.raw_ops on Const inputs, so each NodeDef is exactly what TensorFlow writes (every attr, defaults
included). TensorFlow runs each case (its graph optimizations off, so the kernels compute) and the
outputs are stored beside the case as Consts. Each group of cases becomes one binary GraphDef,
`op_cases/<group>.pb.gz` (gzip keeps the repository small). The groups live in
`op_case_groups/`, a module per family of ops; `op_case_lib.py` holds what they share. A case:

  * every node of case C is named `C/...`; a case name has no '/' and reads `Op.dtype.variant`
    (the dtype part, sg's spelling of the dtype under test, is absent when there is none);
  * `C/_expect<i>` is a Const holding the expected value of the tensor named by its attr
    `_fetch` (a string). Optional attrs on it: `_rtol`, `_atol` (floats: a tolerance other than
    the dtype's default), `_check` ("value" by default; "range": dtype, shape and every element
    in [`_lo`, `_hi`] only, for unseeded random ops; "moments": also mean and standard deviation
    within `_atol` of `_mean` and `_std`), `_error` (an int: the run must fail with this error
    code, or with any when it is -1; the Const's value is then unused), `_targets` (a list of
    node names the run also runs);
  * `C/_feed<i>` is a Const whose value is fed to the tensor named by its attr `_feed`; in a
    string feed, `${TMP}` stands for a directory the test makes for the case;
  * `C/_file<i>` is a string Const whose value is written, before the case runs, to the file
    `${TMP}/<_path>` (its attr `_path`), for ops that read files (a lookup table's vocabulary).
The graph's function library holds the functions the cases call.

tests/core/op_conformance_test.cc runs each case in a DirectSession and compares; it also fails
when an op sg registers has no case and is not in its exclusion list. A dtype that TensorFlow's
OpDef allows and its CPU kernel runs gets cases whether or not sg's kernel has it; the test keeps
the list of dtypes sg's kernels lack. Cases that TensorFlow itself cannot run (no CPU kernel for
the dtype) are dropped and counted. The inputs come from a generator seeded by each case's name,
so the output is the same on every run: regenerate after adding an op or a case, and commit
`op_cases/`.
"""

import argparse
import ctypes
import gzip
import importlib
import os
import pkgutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
OUT_DIR = os.path.join(HERE, "op_cases")




# ---- sg's op list --------------------------------------------------------------------------


class _Buffer(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("length", ctypes.c_size_t),
                ("data_deallocator", ctypes.c_void_p)]


def sg_op_list_bytes(libsg):
    lib = ctypes.CDLL(libsg)
    lib.SG_GetAllOpList.restype = ctypes.POINTER(_Buffer)
    lib.SG_DeleteBuffer.argtypes = [ctypes.POINTER(_Buffer)]
    buf = lib.SG_GetAllOpList()
    data = ctypes.string_at(buf.contents.data, buf.contents.length)
    lib.SG_DeleteBuffer(buf)
    return data


def sg_op_names(libsg):
    # libsg is loaded in a process of its own: beside TensorFlow's libraries it crashes at exit.
    import subprocess
    data = subprocess.run([sys.executable, os.path.abspath(__file__), "--print-sg-ops", libsg],
                          check=True, capture_output=True).stdout
    from tensorflow.core.framework import op_def_pb2
    ops = op_def_pb2.OpList()
    ops.ParseFromString(data)
    return sorted(op.name for op in ops.op)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--libsg", default=os.path.join(REPO, "build", "c_api", "libsg.so.1"),
                    help="to list the ops sg registers that no case covers")
    ap.add_argument("--out", default=OUT_DIR)
    ap.add_argument("--only", nargs="*", default=None, help="group names")
    args = ap.parse_args()

    import tempfile
    # TensorFlow is imported here, not above: --help and --print-sg-ops should not load it.
    sys.path.insert(0, HERE)
    from op_case_lib import GROUPS, ORACLES, Group, run_group, runs_here, tf
    import op_case_groups
    for m in pkgutil.iter_modules(op_case_groups.__path__):
        importlib.import_module("op_case_groups." + m.name)

    os.makedirs(args.out, exist_ok=True)
    names = args.only if args.only else list(GROUPS)
    covered = set()
    total = 0
    failed = []
    skipped = []
    for name in names:
        if not runs_here(name):
            # Another TensorFlow writes this group (op_case_lib.ORACLES): its file stays as it is.
            version, script = ORACLES[name]
            print(f"{name}: skipped, written by TensorFlow {version}x "
                  f"(PY=$(tests/oracle/{script}); $PY tests/oracle/make_op_cases.py --only "
                  f"{name}); this is {tf.__version__}")
            skipped.append(name)
            path = os.path.join(args.out, name + ".pb.gz")
            if os.path.exists(path):  # its ops are covered all the same
                gdef = tf.compat.v1.GraphDef()
                with gzip.open(path, "rb") as z:
                    gdef.ParseFromString(z.read())
                covered |= {n.op for n in gdef.node}
            continue
        g = Group(name)
        GROUPS[name](g)
        with tempfile.TemporaryDirectory() as tmp:
            gdef, stats = run_group(g, tmp)
        data = gdef.SerializeToString(deterministic=True)
        with open(os.path.join(args.out, name + ".pb.gz"), "wb") as f:
            # gzip with no name and no time in its header: the same cases, the same bytes.
            with gzip.GzipFile(fileobj=f, mode="wb", compresslevel=9, mtime=0, filename="") as z:
                z.write(data)
        covered |= {n.op for n in gdef.node}
        for fdef in gdef.library.function:
            covered |= {n.op for n in fdef.node_def}
        total += stats.cases
        size = os.path.getsize(os.path.join(args.out, name + ".pb.gz"))
        print(f"{name}: {stats.cases} cases, {size} bytes"
              + (f"; {len(stats.dropped)} dropped (no TensorFlow CPU kernel)"
                 if stats.dropped else ""))
        failed += g.failed
    for f in failed:
        print("failed: " + f)
    print(f"make_op_cases: {total} cases in {len(names) - len(skipped)} groups"
          + (f" ({len(skipped)} skipped)" if skipped else "")
          + (f"; {len(failed)} cases failed" if failed else ""))
    if os.path.exists(args.libsg) and not args.only:
        missing = [op for op in sg_op_names(args.libsg) if op not in covered]
        if missing:
            print("ops sg registers without a case: " + " ".join(missing))
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--print-sg-ops":
        sys.stdout.buffer.write(sg_op_list_bytes(sys.argv[2]))
        sys.exit(0)
    sys.exit(main())
