#!/usr/bin/env python3
"""List the ops sg registers for which TensorFlow defines a gradient but sg's gradient registry
has no entry (neither a function nor a NO_GRADIENT).

    PY=$(tests/oracle/setup_venv.sh)
    $PY tests/oracle/list_grad_gaps.py [--libsg build/c_api/libsg.so.1] [--all]

sg's ops come from its registry (SG_GetAllOpList through ctypes, in a child process) or, without
a build, from tests/oracle/tf_opdefs.pbtxt (the ops sg registers that TensorFlow has). sg's
gradient entries are read from core/gradients/*.cc (every SG_REGISTER_GRADIENT and
SG_REGISTER_NO_GRADIENT names its op as a string literal). TensorFlow's come from its python
gradient registry (ops.get_gradient_function's table, after importing tensorflow, which loads
every *_grad.py): an entry of None is TensorFlow's NotDifferentiable, which this reports apart.
--all also lists the ops TensorFlow has no gradient entry for at all.
"""

import argparse
import glob
import os
import re
import subprocess
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dump_opdefs  # noqa: E402

REGISTRATION = re.compile(r'SG_REGISTER_(NO_)?GRADIENT\(\s*"([A-Za-z0-9_]+)"')


def sg_gradient_entries():
    """{op: True for a function, False for NO_GRADIENT} from core/gradients/*.cc."""
    entries = {}
    for path in sorted(glob.glob(os.path.join(dump_opdefs.REPO, "core", "gradients", "*.cc"))):
        with open(path) as f:
            for m in REGISTRATION.finditer(f.read()):
                entries.setdefault(m.group(2), m.group(1) is None)
    return entries


def sg_op_names(libsg):
    """sg's registered op names, read in a child process: libsg.so and TensorFlow in one process
    (each with its own protobuf and abseil) can crash."""
    code = ("import ctypes, sys\n"
            "class B(ctypes.Structure):\n"
            "    _fields_ = [('data', ctypes.c_void_p), ('length', ctypes.c_size_t),\n"
            "                ('dealloc', ctypes.c_void_p)]\n"
            "lib = ctypes.CDLL(sys.argv[1])\n"
            "lib.SG_GetAllOpList.restype = ctypes.POINTER(B)\n"
            "b = lib.SG_GetAllOpList()\n"
            "sys.stdout.buffer.write(ctypes.string_at(b.contents.data, b.contents.length))\n")
    data = subprocess.run([sys.executable, "-c", code, libsg], check=True,
                          stdout=subprocess.PIPE).stdout
    from tensorflow.core.framework import op_def_pb2
    ops = op_def_pb2.OpList()
    ops.ParseFromString(data)
    return {op.name for op in ops.op}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--libsg", default=os.path.join(dump_opdefs.REPO, "build", "c_api",
                                                    "libsg.so.1"))
    ap.add_argument("--all", action="store_true")
    args = ap.parse_args()

    import tensorflow as tf  # noqa: F401  (loads every gradient registration)
    from tensorflow.python.framework import ops

    if os.path.exists(args.libsg):
        sg_ops = sg_op_names(args.libsg)
    else:
        print(f"list_grad_gaps: {args.libsg} not found; sg's ops from tf_opdefs.pbtxt",
              file=sys.stderr)
        sg_ops = set(dump_opdefs.names_in_dump(dump_opdefs.DEFAULT_OUT))
    tf_grads = ops._gradient_registry.list()  # pylint: disable=protected-access
    entries = sg_gradient_entries()
    missing, not_differentiable, no_entry = [], [], []
    for op in sorted(sg_ops):
        if op in entries:
            continue
        if op not in tf_grads:
            no_entry.append(op)
        elif ops._gradient_registry.lookup(op) is None:  # pylint: disable=protected-access
            not_differentiable.append(op)
        else:
            missing.append(op)
    print(f"# {len(sg_ops)} sg ops, {len(entries)} sg gradient entries")
    print(f"# TensorFlow has a gradient function, sg no entry ({len(missing)}):")
    for op in missing:
        print(op)
    print(f"# TensorFlow NotDifferentiable, sg no entry ({len(not_differentiable)}):")
    for op in not_differentiable:
        print(op)
    if args.all:
        print(f"# no entry in either ({len(no_entry)}):")
        for op in no_entry:
            print(op)


if __name__ == "__main__":
    main()
