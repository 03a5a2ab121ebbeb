#!/usr/bin/env python3
"""Writes the models bench/infer_bench.sh times: frozen TensorFlow GraphDefs and their ONNX forms.

    PY=$(tests/oracle/setup_venv.sh)      (with bench/requirements.txt installed: tf2onnx, onnx)
    $PY bench/make_infer_models.py [--full-size] OUT_DIR [NAME...]

  mobilenet_v2, resnet50, inception_v3, efficientnet_b0, vgg16
                  keras.applications (weights=None, classifier_activation=None) at the input
                  size of make_corpus.py's `apps` set (64x64x3, InceptionV3 75x75x3: issue 15's
                  figures), or with --full-size at their usual size (224x224x3, InceptionV3
                  299x299x3: 12 to 16 times the work), weights set by
                  tests/oracle/make_corpus.py's reinit_weights (seeded, calibrated so that the
                  logits are of order one: outputs can then be compared at a tolerance)
  mnist_cnn       28x28x1: Conv2D 5x5x32 + ReLU, MaxPool 2x2, Conv2D 5x5x64 + ReLU, MaxPool 2x2,
                  Dense 10
  autoencoder     784 -> 256 -> 64 -> 256 -> 784, each MatMul + BiasAdd + Relu
  lstm            ../shared/testdata/tf_graphs/tf2onnx_lstm_frozen.pb (a TF 1.x static-unrolled
                  LSTM, 529 nodes; keep_prob fed 1) when present, else a Keras LSTM (28 steps of
                  28, 128 units, Dense 10) frozen here

For each NAME: NAME.pb (frozen the TF 2 way, convert_variables_to_constants_v2 with
lower_control_flow=False, as make_corpus.py freezes), NAME.onnx (tf2onnx; missing when the
conversion fails, and the manifest says why), and NAME.spec, the lines infer_bench reads:

  graph NAME.pb
  onnx NAME.onnx                                        (absent without an ONNX form)
  input TF_NAME ONNX_NAME DIMS LO HI                    DIMS: comma-separated, -1 is the batch,
                                                        "scalar" for rank 0; values uniform in
                                                        [LO, HI] (a constant when LO == HI)
  output TF_NAME ONNX_NAME
  tolerance REL                                         outputs agree when max |a - b| is at
                                                        most REL * max(1, max |a|)

OUT_DIR/manifest.json lists every model: description, node count, input and output names, the
ONNX conversion's result. Models already written (NAME.spec exists) are kept: delete OUT_DIR to
make them again (a directory holds one input size). Nothing here is committed.
"""

import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, "tests", "oracle"))
# make_corpus sets TensorFlow's environment (quiet logs, no oneDNN rewrites, determinism) before
# importing it, and gives the seeded weight calibration the Keras applications need.
from make_corpus import SEED, keras, np, reinit_weights, rng_for, tf  # noqa: E402
from tensorflow.python.framework.convert_to_constants import (  # noqa: E402
    convert_variables_to_constants_v2)

SHARED_LSTM = os.path.join(REPO, "..", "shared", "testdata", "tf_graphs", "tf2onnx_lstm_frozen.pb")
ONNX_OPSET = 17

# name: (keras.applications function, preprocess family, (side, full side), range of the
# benchmark's inputs: that of family.preprocess_input applied to pixels in [0, 255])
APPS = {
    "mobilenet_v2": ("MobileNetV2", "mobilenet_v2", (64, 224), (-1.0, 1.0)),
    "resnet50": ("ResNet50", "resnet", (64, 224), (-124.0, 152.0)),
    "inception_v3": ("InceptionV3", "inception_v3", (75, 299), (-1.0, 1.0)),
    "efficientnet_b0": ("EfficientNetB0", "efficientnet", (64, 224), (0.0, 255.0)),
    "vgg16": ("VGG16", "vgg16", (64, 224), (-124.0, 152.0)),
}
SMALL = ("mnist_cnn", "autoencoder", "lstm")
ALL = tuple(APPS) + SMALL
# Deep random networks amplify rounding (InceptionV3's logits are 5e-4 from exact in TensorFlow
# itself, make_corpus.py), and the three runtimes fuse and reorder differently.
APP_TOLERANCE = 2e-3
SMALL_TOLERANCE = 1e-4


def log(msg):
    print(f"make_infer_models: {msg}", flush=True)


def freeze(model, spec):
    """A frozen GraphDef of model(x, training=False), and its input and output tensor names."""
    fn = tf.function(lambda x: model(x, training=False))
    concrete = fn.get_concrete_function(spec)
    frozen = convert_variables_to_constants_v2(concrete, lower_control_flow=False)
    return (frozen.graph.as_graph_def(), [t.name for t in frozen.inputs],
            [t.name for t in frozen.outputs])


def make_app(name, full_size):
    app, family, sides, value_range = APPS[name]
    side = sides[1] if full_size else sides[0]
    keras.utils.set_random_seed(SEED + 3)
    rng = rng_for(app)
    model = getattr(keras.applications, app)(weights=None, input_shape=(side, side, 3),
                                             classifier_activation=None)
    preprocess = getattr(keras.applications, family).preprocess_input

    def images(n):
        return np.asarray(preprocess(rng.uniform(0, 255, (n, side, side, 3)).astype(np.float32)),
                          np.float32)

    reinit_weights(model, [[images(1)]], images, rng)
    description = (f"keras.applications.{app}(weights=None, input_shape=({side}, {side}, 3), "
                   f"classifier_activation=None), {model.count_params()} parameters")
    graph_def, inputs, outputs = freeze(
        model, tf.TensorSpec([None, side, side, 3], tf.float32, name="images"))
    keras.backend.clear_session()
    return dict(graph_def=graph_def, description=description, tolerance=APP_TOLERANCE,
                inputs=[(inputs[0], [-1, side, side, 3], value_range)], outputs=outputs)


def make_sequential(name, layers, input_shape, value_range, description):
    keras.utils.set_random_seed(SEED + 5)
    rng = rng_for(name)
    x = keras.Input(input_shape, name="x")
    h = x
    for layer in layers:
        h = layer(h)
    model = keras.Model(x, h, name=name)

    def sample(n):
        return rng.uniform(*value_range, (n,) + input_shape).astype(np.float32)

    reinit_weights(model, [[sample(1)]], sample, rng)
    graph_def, inputs, outputs = freeze(
        model, tf.TensorSpec([None, *input_shape], tf.float32, name="x"))
    keras.backend.clear_session()
    return dict(graph_def=graph_def, description=description, tolerance=SMALL_TOLERANCE,
                inputs=[(inputs[0], [-1, *input_shape], value_range)], outputs=outputs)


def make_mnist_cnn():
    L = keras.layers
    return make_sequential(
        "mnist_cnn",
        [L.Conv2D(32, 5, activation="relu"), L.MaxPooling2D(2), L.Conv2D(64, 5, activation="relu"),
         L.MaxPooling2D(2), L.Flatten(), L.Dense(10)],
        (28, 28, 1), (0.0, 1.0),
        "MNIST-sized CNN: Conv2D 5x5x32 + ReLU, MaxPool 2x2, Conv2D 5x5x64 + ReLU, MaxPool 2x2, "
        "Dense 10")


def make_autoencoder():
    L = keras.layers
    return make_sequential(
        "autoencoder", [L.Dense(n, activation="relu") for n in (256, 64, 256, 784)], (784,),
        (0.0, 1.0), "autoencoder 784 -> 256 -> 64 -> 256 -> 784, each MatMul + BiasAdd + Relu")


def make_lstm():
    if os.path.exists(SHARED_LSTM):
        graph_def = tf.compat.v1.GraphDef()
        with open(SHARED_LSTM, "rb") as f:
            graph_def.ParseFromString(f.read())
        return dict(graph_def=graph_def, tolerance=SMALL_TOLERANCE,
                    description="tf2onnx_lstm_frozen.pb (shared testdata): TF 1.x static-unrolled "
                                "LSTM over 28 steps of 28, keep_prob fed 1",
                    inputs=[("X:0", [-1, 784], (0.0, 1.0)), ("keep_prob:0", [], (1.0, 1.0))],
                    outputs=["output:0"])
    log("lstm: ../shared/testdata absent, a Keras LSTM instead")
    L = keras.layers
    return make_sequential(
        "lstm", [L.Reshape((28, 28)), L.LSTM(128), L.Dense(10)], (784,), (0.0, 1.0),
        "Keras LSTM (functional While) over 28 steps of 28, 128 units, Dense 10")


def to_onnx(graph_def, inputs, outputs, path):
    """Converts with tf2onnx; returns (onnx input names, onnx output names) or raises."""
    import onnx
    import tf2onnx
    tf2onnx.convert.from_graph_def(graph_def, input_names=inputs, output_names=outputs,
                                   opset=ONNX_OPSET, output_path=path)
    m = onnx.load(path, load_external_data=False)
    initializers = {i.name for i in m.graph.initializer}
    onnx_inputs = [i.name for i in m.graph.input if i.name not in initializers]
    onnx_outputs = [o.name for o in m.graph.output]
    # tf2onnx keeps TensorFlow's tensor names; check rather than assume.
    if sorted(onnx_inputs) != sorted(inputs) or onnx_outputs != list(outputs):
        raise ValueError(f"ONNX names {onnx_inputs} -> {onnx_outputs} differ from TensorFlow's")
    return inputs, outputs


def write(out_dir, name, model):
    t0 = time.time()
    graph_def = model["graph_def"]
    with open(os.path.join(out_dir, name + ".pb"), "wb") as f:
        f.write(graph_def.SerializeToString())
    input_names = [i[0] for i in model["inputs"]]
    entry = dict(description=model["description"], nodes=len(graph_def.node),
                 inputs=[dict(name=n, dims=d, range=list(r)) for n, d, r in model["inputs"]],
                 outputs=list(model["outputs"]), tolerance=model["tolerance"],
                 onnx=None, onnx_error=None)
    onnx_path = os.path.join(out_dir, name + ".onnx")
    try:
        to_onnx(graph_def, input_names, model["outputs"], onnx_path)
        entry["onnx"] = name + ".onnx"
    except Exception as e:  # noqa: BLE001 (any failure of tf2onnx): no ONNX form, said so
        entry["onnx_error"] = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
        if os.path.exists(onnx_path):
            os.remove(onnx_path)
        log(f"{name}: tf2onnx failed: {entry['onnx_error']}")
    lines = [f"graph {name}.pb"]
    if entry["onnx"]:
        lines.append(f"onnx {entry['onnx']}")
    for n, d, (lo, hi) in model["inputs"]:
        dims = ",".join(str(x) for x in d) if d else "scalar"
        lines.append(f"input {n} {n} {dims} {lo!r} {hi!r}")
    for n in model["outputs"]:
        lines.append(f"output {n} {n}")
    lines.append(f"tolerance {model['tolerance']!r}")
    with open(os.path.join(out_dir, name + ".spec.tmp"), "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(os.path.join(out_dir, name + ".spec.tmp"), os.path.join(out_dir, name + ".spec"))
    log(f"{name}: {entry['nodes']} nodes, ONNX {'yes' if entry['onnx'] else 'no'}, "
        f"{time.time() - t0:.0f} s to write")
    return entry


def main(argv):
    if not argv or argv[0].startswith("-"):
        sys.exit(__doc__)
    full_size = argv[0] == "--full-size"
    if full_size:
        argv = argv[1:]
    if not argv:
        sys.exit(__doc__)
    out_dir, names = argv[0], argv[1:] or list(ALL)
    unknown = [n for n in names if n not in ALL]
    if unknown:
        sys.exit(f"unknown models {unknown}; known: {' '.join(ALL)}")
    os.makedirs(out_dir, exist_ok=True)
    manifest_path = os.path.join(out_dir, "manifest.json")
    manifest = {}
    if os.path.exists(manifest_path):
        with open(manifest_path) as f:
            manifest = json.load(f)
    makers = dict(mnist_cnn=make_mnist_cnn, autoencoder=make_autoencoder, lstm=make_lstm)
    for name in names:
        if os.path.exists(os.path.join(out_dir, name + ".spec")) and name in manifest:
            continue
        t0 = time.time()
        model = makers[name]() if name in makers else make_app(name, full_size)
        log(f"{name}: built and frozen in {time.time() - t0:.0f} s")
        manifest[name] = write(out_dir, name, model)
        with open(manifest_path + ".tmp", "w") as f:
            json.dump(manifest, f, indent=1, sort_keys=True)
        os.replace(manifest_path + ".tmp", manifest_path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
