"""Writes TensorFlow 2 SavedModels for tests/tools/sg_tool_freeze_tf2_test.py, with TensorFlow's
outputs on a fixed input. Run with the oracle venv's python (tests/oracle/setup_venv.sh).

  python make_tf2_saved_models.py OUT_DIR

OUT_DIR/<model>/ is the SavedModel, OUT_DIR/<model>_x.npy the input, OUT_DIR/<model>_y.npy
TensorFlow's output, and OUT_DIR/models.json names, per model, the serving signature's input and
output tensors in the graph, and the variables' count.
  module  a tf.Module saved by tf.saved_model.save: y = x @ w + b; its second signature "bump"
          assigns to a variable (which freezing must refuse)
  keras   a Keras 3 Sequential (Dense 3->4 relu, Dense 4->2) written by model.export
"""
import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import keras  # noqa: E402
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow.core.protobuf import saved_model_pb2  # noqa: E402

out = sys.argv[1]
os.makedirs(out, exist_ok=True)


class Module(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable([[1.0, 2.0, -1.0], [3.0, 4.0, 0.5]], name="w")
        self.b = tf.Variable([0.5, -0.5, 0.25], name="b")
        self.count = tf.Variable(0.0, name="count")

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def __call__(self, x):
        return {"y": tf.nn.relu(tf.matmul(x, self.w) + self.b)}

    @tf.function(input_signature=[])
    def bump(self):
        return {"count": self.count.assign_add(1.0)}


def signature_tensors(model_dir, signature="serving_default"):
    """The graph tensors of a signature's inputs and outputs, as two lists."""
    sm = saved_model_pb2.SavedModel()
    with open(os.path.join(model_dir, "saved_model.pb"), "rb") as f:
        sm.ParseFromString(f.read())
    sig = sm.meta_graphs[0].signature_def[signature]
    return [t.name for t in sig.inputs.values()], [t.name for t in sig.outputs.values()]


models = {}
m = Module()
tf.saved_model.save(m, os.path.join(out, "module"),
                    signatures={"serving_default": m.__call__, "bump": m.bump})
x = np.array([[1, 2], [-3, 0.5], [0.25, -1]], np.float32)
np.save(os.path.join(out, "module_x.npy"), x)
np.save(os.path.join(out, "module_y.npy"), m(x)["y"].numpy())
(i,), (o,) = signature_tensors(os.path.join(out, "module"))
_, (bump,) = signature_tensors(os.path.join(out, "module"), "bump")
models["module"] = {"input": i, "output": o, "variables": 2, "bump": bump}

keras.utils.set_random_seed(7)
k = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="relu"),
                      keras.layers.Dense(2)])
k.export(os.path.join(out, "keras"), verbose=False)
x = np.array([[1, 2, 3], [-1, 0.5, 2], [0.1, -0.2, 0.3], [4, -5, 6]], np.float32)
np.save(os.path.join(out, "keras_x.npy"), x)
np.save(os.path.join(out, "keras_y.npy"), k(x).numpy())
(i,), (o,) = signature_tensors(os.path.join(out, "keras"))
models["keras"] = {"input": i, "output": o, "variables": 4}

with open(os.path.join(out, "models.json"), "w") as f:
    json.dump(models, f, indent=1)
print("wrote", ", ".join(sorted(models)), "to", out)
