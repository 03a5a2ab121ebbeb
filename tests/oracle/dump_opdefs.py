#!/usr/bin/env python3
"""Dump TensorFlow's OpDefs for the ops sg registers, as a text-format OpList.

    PY=$(tests/oracle/setup_venv.sh)
    $PY tests/oracle/dump_opdefs.py [--libsg build/c_api/libsg.so.1] [--add OP ...]

The op names come from sg's own registry (SG_GetAllOpList through ctypes, so build sg first),
from the ops already in the dump (a dump never loses an op by accident), and from --add. For
each, TensorFlow's OpDef is written with its documentation (summary, description, per-arg and
per-attr descriptions) and its args' full-type annotations (experimental_full_type, used by
TensorFlow's type inference, which sg does not have) dropped; `tests/core/opdef_test.cc` compares
sg's registry with it field by field. Ops sg registers that TensorFlow does not have are listed
in a comment at the top and are not in the OpList (the test keeps its own list of them). Adding
an op to sg means regenerating this file.
"""

import argparse
import ctypes
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DEFAULT_OUT = os.path.join(HERE, "tf_opdefs.pbtxt")


class _Buffer(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("length", ctypes.c_size_t),
                ("data_deallocator", ctypes.c_void_p)]


def sg_op_list_bytes(libsg):
    """sg's serialized OpList. Call it before TensorFlow is imported: libsg loaded into a process
    that already holds TensorFlow's libraries crashes in its static initializers."""
    lib = ctypes.CDLL(libsg)
    lib.SG_GetAllOpList.restype = ctypes.POINTER(_Buffer)
    lib.SG_DeleteBuffer.argtypes = [ctypes.POINTER(_Buffer)]
    buf = lib.SG_GetAllOpList()
    data = ctypes.string_at(buf.contents.data, buf.contents.length)
    lib.SG_DeleteBuffer(buf)
    return data


def names_in_dump(path):
    names = []
    if not os.path.exists(path):
        return names
    with open(path) as f:
        for line in f:
            if line.startswith("  name: \""):
                names.append(line.split('"')[1])
    return names


def strip_docs_and_full_types(op):
    op.ClearField("summary")
    op.ClearField("description")
    for arg in list(op.input_arg) + list(op.output_arg):
        arg.ClearField("description")
        arg.ClearField("experimental_full_type")
    for attr in op.attr:
        attr.ClearField("description")
    if op.HasField("deprecation"):
        op.deprecation.ClearField("explanation")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--libsg", default=os.path.join(REPO, "build", "c_api", "libsg.so.1"))
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--add", nargs="*", default=[], help="more op names to dump")
    args = ap.parse_args()
    sg_ops = sg_op_list_bytes(args.libsg) if os.path.exists(args.libsg) else None

    import tensorflow as tf
    from google.protobuf import text_format
    from tensorflow.core.framework import op_def_pb2
    from tensorflow.python.framework import op_def_registry

    names = set(names_in_dump(args.out)) | set(args.add)
    if sg_ops is not None:
        sg_list = op_def_pb2.OpList()
        sg_list.ParseFromString(sg_ops)
        names |= {op.name for op in sg_list.op}
    else:
        print(f"dump_opdefs: {args.libsg} not found; dumping only the ops already in the dump "
              "and --add", file=sys.stderr)
    out = op_def_pb2.OpList()
    not_in_tf = []
    for name in sorted(names):
        op = op_def_registry.get(name)
        if op is None:
            not_in_tf.append(name)
            continue
        op = op_def_pb2.OpDef.FromString(op.SerializeToString())
        strip_docs_and_full_types(op)
        out.op.append(op)
    with open(args.out, "w") as f:
        f.write(f"# TensorFlow {tf.__version__}'s OpDefs for the ops sg registers, documentation\n"
                "# and full types dropped. Written by tests/oracle/dump_opdefs.py; do not edit\n"
                "# by hand.\n")
        if not_in_tf:
            f.write("# sg ops TensorFlow does not have: " + ", ".join(not_in_tf) + "\n")
        f.write(text_format.MessageToString(out))
    print(f"dump_opdefs: {len(out.op)} OpDefs -> {args.out}"
          + (f"; not in TensorFlow: {', '.join(not_in_tf)}" if not_in_tf else ""))


if __name__ == "__main__":
    main()
