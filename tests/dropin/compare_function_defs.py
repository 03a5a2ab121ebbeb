"""compare_function_defs.py TF_DIR SG_DIR CASE...: each CASE.pb of TF_DIR (TensorFlow's
TF_GraphToFunction) and SG_DIR (sg's) parsed as FunctionDefs must be equal. Tensor attrs are
compared by value (sg writes a Const's value as tensor_content, TensorFlow as float_val)."""
import difflib
import sys

import tensorflow as tf
from google.protobuf import text_format
from tensorflow.core.framework import function_pb2


def load(path):
    f = function_pb2.FunctionDef()
    with open(path, "rb") as data:
        f.ParseFromString(data.read())
    for node in f.node_def:
        for value in node.attr.values():
            if value.HasField("tensor"):
                value.tensor.CopyFrom(tf.make_tensor_proto(tf.make_ndarray(value.tensor)))
    return f


def main():
    tf_dir, sg_dir, cases = sys.argv[1], sys.argv[2], sys.argv[3:]
    bad = 0
    for case in cases:
        want = load(f"{tf_dir}/{case}.pb")
        got = load(f"{sg_dir}/{case}.pb")
        if want == got:
            print(f"{case}: same FunctionDef as TensorFlow")
            continue
        bad += 1
        print(f"{case}: FunctionDefs differ (- TensorFlow, + sg)")
        print("\n".join(difflib.unified_diff(
            text_format.MessageToString(want).splitlines(),
            text_format.MessageToString(got).splitlines(), "tensorflow", "sg", lineterm="")))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
