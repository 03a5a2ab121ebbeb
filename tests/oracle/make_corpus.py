#!/usr/bin/env python3
"""sg's model corpus: models written by TensorFlow 2.21, with their inputs and TensorFlow's outputs.

    PY=$(tests/oracle/setup_venv.sh)
    $PY tests/oracle/make_corpus.py --set small              # -> tests/oracle/corpus/ (committed)
    $PY tests/oracle/make_corpus.py --set apps --out DIR     # Keras applications, one per family
    $PY tests/oracle/make_corpus.py --set apps-all --out DIR # every Keras application (long)
    $PY tests/oracle/make_corpus.py --set small --only keras_lstm    # cases whose name has a word

Every model is written the way TensorFlow writes it, nothing stripped or rewritten afterwards, in
one or both of two forms:

  NAME.frozen       a frozen GraphDef of a concrete function: convert_variables_to_constants_v2
                    with lower_control_flow=False, so While/If stay functional as in TF 2 graphs
                    (`model.pb`). The v1 case is frozen the TF 1 way (graph_util).
  NAME.saved_model  a TF2 SavedModel (tf.saved_model.save, or Keras 3's model.export), served
                    through its signature (`saved_model/`).

Each case is a directory holding `case.json`, the model, and one `.npy` per input and output of
each run: NumPy float32/int32/int64/bool arrays, and bytes (`|S..`) arrays for string tensors.

  {"name": "keras_lstm.frozen", "form": "frozen" | "saved_model", "model": "model.pb",
   "tags": ["serve"], "signature": "serving_default",          (saved_model only)
   "rtol": 1e-4, "atol": 1e-4, "tolerance_note": "...",           (float outputs)
   "tf_float32_error": 3e-6,                                      (|float32 - float64|, or null)
   "description": "...", "ops": {"While": 2, ...},                (op histogram, functions too)
   "runs": [{"batch": 1,
             "feeds":   [{"name": "x:0", "file": "run0.in.x.npy", "dtype": "float32", "shape": [1, 6, 5]}],
             "fetches": [{"name": "Identity:0", "file": "run0.out.Identity_0.npy", ...}]}]}

For a frozen graph a feed or fetch name is a tensor of the graph ("x:0"); for a SavedModel it is
a key of the signature's inputs or outputs. TensorFlow's outputs are computed from the written
artifact, not from the Python objects: the GraphDef is imported into a fresh graph and run in a
tf.compat.v1.Session, the SavedModel is loaded with tf.saved_model.load and its signature called.

TensorFlow runs the graphs as written: Grappler and the classic graph optimizer are off, since
their rewrites (batch normalization folded into convolutions, fused ops) round differently.

Determinism: fixed seeds everywhere, oneDNN off (TF_ENABLE_ONEDNN_OPTS=0) and one thread, so that
two runs write the same inputs, weights and outputs (the .npy files are byte for byte the same;
the order of a frozen graph's variable reads, and so the model files' bytes, may change). Weights are not trained and not downloaded: models are
built with weights=None, then every weight is set from a seeded generator and rescaled layer by
layer on a calibration batch so that activations stay of order one (see `reinit_weights`); Keras
applications use classifier_activation=None, so their output is order-one logits, compared at
rtol 1e-4 / atol 1e-4 like the other float outputs, except where TensorFlow's own float32 result
is further than that from the exact one: every frozen graph is also run in float64 (a widened copy,
never written), and atol becomes 4 times TensorFlow's float32 error when that is larger
(`tf_float32_error` and `tolerance_note` in case.json say so). Deep random networks amplify
rounding: InceptionV3's logits are 5e-4 from exact in TensorFlow itself.

The sets:

  small     a small fully convolutional Keras classifier (BatchNormalization, depthwise, pooling),
            a transformer encoder block (MultiHeadAttention, LayerNormalization, exact GELU),
            Keras LSTM, GRU and Bidirectional (TF 2 functional While), tf.compat.v1 dynamic_rnn
            (v1 and v2 control flow), an SSD-style detection head with NMS, image pre-processing
            from encoded JPEG/PNG bytes, text pre-processing from strings, TF2 SavedModels with
            several signatures, variables and an asset. Small enough to commit (tests/oracle/corpus).
  apps      one Keras application per family (the smallest), frozen, at 64x64 (75x75 where the
            family needs more), batch 1 and 2, plus MobileNetV2 as a SavedModel: about 1 GB and
            a few minutes of TensorFlow; generated at test time into the build tree.
  apps-all  every application keras.applications offers (40): tens of minutes, several GB, and
            up to 12 GB of memory for ConvNeXtXLarge.

ctest's fixture (generate_corpus.sh) runs this only when OUT/.stamp does not match a hash of this
script, requirements.txt and the set: the first run of the tests pays, the others do not.
"""

import argparse
import hashlib
import json
import os
import shutil
import sys
import time

# Before TensorFlow is imported: deterministic CPU kernels, no oneDNN rewrites, quiet logs.
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"
os.environ["TF_DETERMINISTIC_OPS"] = "1"
os.environ["KERAS_BACKEND"] = "tensorflow"
os.environ["CUDA_VISIBLE_DEVICES"] = ""

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SMALL_OUT = os.path.join(HERE, "corpus")
SEED = 20240611

DEFAULT_RTOL = 1e-4
DEFAULT_ATOL = 1e-4

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

tf.config.threading.set_inter_op_parallelism_threads(1)
tf.config.threading.set_intra_op_parallelism_threads(1)
# TensorFlow's own outputs are those of the graph as written: Grappler's rewrites (folding batch
# normalization into convolutions, fusing ops) change the rounding, by up to 3e-4 relative on the
# logits of MobileNetV3Small, which is TensorFlow disagreeing with itself, not with sg.
tf.config.optimizer.set_experimental_options({"disable_meta_optimizer": True})

import keras  # noqa: E402
from tensorflow.python.framework.convert_to_constants import (  # noqa: E402
    convert_variables_to_constants_v2)
from tensorflow.python.util import nest  # noqa: E402


def log(msg):
    print(f"make_corpus: {msg}", flush=True)


def rng_for(name):
    """A generator seeded from SEED and `name`, so a case's numbers do not depend on the others."""
    digest = hashlib.sha256(f"{SEED}:{name}".encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], "little"))


# ---- writing cases ------------------------------------------------------------------------------

def _file_key(name):
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in name)


def _save_npy(path, value):
    a = np.asarray(value)
    if a.dtype == object:  # TensorFlow's string tensors come back as object arrays of bytes
        items = [bytes(v) for v in a.reshape(-1)]
        if any(v.endswith(b"\0") for v in items):
            raise ValueError(f"{path}: a string ends in NUL, which a bytes .npy cannot keep")
        width = max([len(v) for v in items] + [1])
        a = np.array(items, dtype=f"S{width}").reshape(a.shape)
    np.save(path, a, allow_pickle=False)
    return a


def _tensor_entry(case_dir, run_index, direction, name, value):
    file = f"run{run_index}.{direction}.{_file_key(name)}.npy"
    a = _save_npy(os.path.join(case_dir, file), value)
    dtype = "string" if a.dtype.kind == "S" else str(a.dtype)
    return {"name": name, "file": file, "dtype": dtype, "shape": list(a.shape)}


def op_histogram(graph_def):
    """Op counts of a GraphDef, the nodes of its function library included."""
    counts = {}
    nodes = list(graph_def.node)
    for f in graph_def.library.function:
        nodes.extend(f.node_def)
    for n in nodes:
        counts[n.op] = counts.get(n.op, 0) + 1
    return dict(sorted(counts.items()))


class Case:
    """One case directory, written under a temporary name and renamed when complete."""

    def __init__(self, out_dir, name, form, description, rtol=DEFAULT_RTOL, atol=DEFAULT_ATOL,
                 tolerance_note=None):
        self.name = f"{name}.{form}"
        self.final_dir = os.path.join(out_dir, self.name)
        self.dir = self.final_dir + ".tmp"
        shutil.rmtree(self.dir, ignore_errors=True)
        os.makedirs(self.dir)
        self.meta = {"name": self.name, "form": form, "description": description,
                     "rtol": rtol, "atol": atol}
        if tolerance_note:
            self.meta["tolerance_note"] = tolerance_note
        self.runs = []

    def add_run(self, feeds, fetches):
        """feeds, fetches: lists of (name, numpy value) in signature / graph order."""
        i = len(self.runs)
        batch = None
        for _, v in feeds:
            shape = np.shape(v)
            if shape:
                batch = int(shape[0])
                break
        self.runs.append({
            "batch": batch,
            "feeds": [_tensor_entry(self.dir, i, "in", n, v) for n, v in feeds],
            "fetches": [_tensor_entry(self.dir, i, "out", n, v) for n, v in fetches],
        })

    def finish(self):
        self.meta["runs"] = self.runs
        with open(os.path.join(self.dir, "case.json"), "w") as f:
            json.dump(self.meta, f, indent=1, sort_keys=True)
            f.write("\n")
        shutil.rmtree(self.final_dir, ignore_errors=True)
        os.rename(self.dir, self.final_dir)
        log(f"wrote {self.name}")


def run_graph_def(graph_def, input_names, output_names, runs):
    """TensorFlow's outputs for each run (a list of input values) of a GraphDef imported into a
    fresh graph, in one session."""
    g = tf.Graph()
    with g.as_default():
        tf.import_graph_def(graph_def, name="")
    config = tf.compat.v1.ConfigProto(intra_op_parallelism_threads=1,
                                      inter_op_parallelism_threads=1)
    config.graph_options.rewrite_options.disable_meta_optimizer = True
    config.graph_options.optimizer_options.opt_level = tf.compat.v1.OptimizerOptions.L0
    config.graph_options.optimizer_options.do_constant_folding = False
    with tf.compat.v1.Session(graph=g, config=config) as sess:
        inputs = [g.get_tensor_by_name(n) for n in input_names]
        return [sess.run(output_names, feed_dict=dict(zip(inputs, values))) for values in runs]


def to_float64(graph_def):
    """A copy of `graph_def` computing in float64: every float32 type attr and constant widened.
    Only to measure TensorFlow's own float32 rounding error; never written."""
    from tensorflow.core.framework import types_pb2
    out = tf.compat.v1.GraphDef()
    out.CopyFrom(graph_def)
    for n in list(out.node) + [n for f in out.library.function for n in f.node_def]:
        for a in n.attr.values():
            if a.HasField("type") and a.type == types_pb2.DT_FLOAT:
                a.type = types_pb2.DT_DOUBLE
            if a.HasField("list") and a.list.type:
                a.list.type[:] = [types_pb2.DT_DOUBLE if t == types_pb2.DT_FLOAT else t
                                  for t in a.list.type]
            if a.HasField("tensor") and a.tensor.dtype == types_pb2.DT_FLOAT:
                a.tensor.CopyFrom(tf.make_tensor_proto(tf.make_ndarray(a.tensor).astype(np.float64)))
    return out


def float32_error(graph_def, input_names, output_names, runs, outputs):
    """The largest |float32 - float64| over the float outputs of all runs: how far TensorFlow's
    own float32 result is from the exact one. None when the graph has an op without a float64
    kernel."""
    try:
        wide_runs = [[v.astype(np.float64) if getattr(v, "dtype", None) == np.float32 else v
                      for v in values] for values in runs]
        wide = run_graph_def(to_float64(graph_def), input_names, output_names, wide_runs)
    except Exception as e:  # noqa: BLE001 (no float64 kernel, ...): no measurement
        log(f"  no float64 reference ({type(e).__name__})")
        return None
    err = 0.0
    for outs32, outs64 in zip(outputs, wide):
        for a, b in zip(outs32, outs64):
            if np.asarray(a).dtype == np.float32:
                err = max(err, float(np.abs(a.astype(np.float64) - b).max(initial=0.0)))
    return err


# sg's float32 rounding differs from TensorFlow's about as much as TensorFlow's differs from the
# exact result, so outputs may differ by up to twice that; with a margin:
FLOAT32_ERROR_FACTOR = 4


def write_graph_def_case(case, graph_def, input_names, output_names, runs, output_keys=None):
    """Writes model.pb and, for each run (a list of input values), TensorFlow's outputs.
    `output_keys` (the function's structured output names) are recorded beside the tensors.
    The float tolerance widens to FLOAT32_ERROR_FACTOR times TensorFlow's own float32 error
    (against a float64 run of the same graph) when that is larger; returns the case's atol."""
    with open(os.path.join(case.dir, "model.pb"), "wb") as f:
        f.write(graph_def.SerializeToString())
    case.meta["model"] = "model.pb"
    case.meta["ops"] = op_histogram(graph_def)
    if output_keys:
        case.meta["output_keys"] = dict(zip(output_names, output_keys))
    outputs = run_graph_def(graph_def, input_names, output_names, runs)
    err = float32_error(graph_def, input_names, output_names, runs, outputs)
    case.meta["tf_float32_error"] = err
    if err is not None and FLOAT32_ERROR_FACTOR * err > case.meta["atol"]:
        case.meta["atol"] = float(f"{FLOAT32_ERROR_FACTOR * err:.2g}")
        case.meta["tolerance_note"] = (
            f"TensorFlow's float32 outputs are {err:.2g} from a float64 run of the same graph "
            f"(rounding amplified by depth): atol is {FLOAT32_ERROR_FACTOR} times that")
    for values, outs in zip(runs, outputs):
        case.add_run(list(zip(input_names, values)), list(zip(output_names, outs)))
    case.finish()
    return case.meta["atol"]


def frozen_case(out_dir, name, fn, input_specs, runs, description, **tol):
    """NAME.frozen: `fn` (a tf.function) traced for `input_specs` and frozen as TF 2 freezes.
    Returns the case's atol."""
    concrete = fn.get_concrete_function(*input_specs)
    frozen = convert_variables_to_constants_v2(concrete, lower_control_flow=False)
    graph_def = frozen.graph.as_graph_def()
    input_names = [t.name for t in frozen.inputs]
    output_names = [t.name for t in frozen.outputs]
    output_keys = [path for path, _ in
                   nest.flatten_with_joined_string_paths(concrete.structured_outputs)]
    if len(output_keys) != len(output_names) or output_keys == [""]:
        output_keys = None
    case = Case(out_dir, name, "frozen", description, **tol)
    return write_graph_def_case(case, graph_def, input_names, output_names, runs, output_keys)


def saved_model_case(out_dir, name, save, runs, description, signature="serving_default", **tol):
    """NAME.saved_model: save(export_dir) writes the SavedModel; each run is a dict of inputs
    keyed by the signature's input keys, called through tf.saved_model.load."""
    case = Case(out_dir, name, "saved_model", description, **tol)
    export_dir = os.path.join(case.dir, "saved_model")
    save(export_dir)
    case.meta.update(model="saved_model", tags=["serve"], signature=signature)
    from tensorflow.core.protobuf import saved_model_pb2
    sm = saved_model_pb2.SavedModel()
    with open(os.path.join(export_dir, "saved_model.pb"), "rb") as f:
        sm.ParseFromString(f.read())
    case.meta["ops"] = op_histogram(sm.meta_graphs[0].graph_def)
    loaded = tf.saved_model.load(export_dir)
    sig = loaded.signatures[signature]
    input_keys = sorted(sig.structured_input_signature[1].keys())
    for feeds in runs:
        if sorted(feeds) != input_keys:
            raise ValueError(f"{case.name}: feeds {sorted(feeds)} but the signature takes {input_keys}")
        outs = sig(**{k: tf.constant(v) for k, v in feeds.items()})
        case.add_run([(k, feeds[k]) for k in input_keys],
                     [(k, outs[k].numpy()) for k in sorted(outs)])
    case.finish()


# ---- deterministic weights ----------------------------------------------------------------------

_KERNEL_ATTRS = ("kernel", "depthwise_kernel", "pointwise_kernel")


def _calibrate_call(layer, rng, args, kwargs):
    """Calls `layer` on concrete inputs after choosing its weights from them (see reinit_weights)."""
    name = type(layer).__name__
    if name == "BatchNormalization":
        x = np.asarray(args[0])
        axis = layer.axis if isinstance(layer.axis, int) else layer.axis[0]
        axis = axis % x.ndim
        reduce_axes = tuple(i for i in range(x.ndim) if i != axis)
        mean = x.mean(axis=reduce_axes)
        var = x.var(axis=reduce_axes)
        c = mean.shape[0]
        # A channel that hardly varies (a ReLU that is mostly off) is not blown up to unit
        # variance: that would amplify rounding differences tenfold and more at each such layer.
        var = np.maximum(var, 0.1 * float(var.mean()) + 1e-6)
        layer.moving_mean.assign(mean + 0.1 * np.sqrt(var) * rng.standard_normal(c))
        layer.moving_variance.assign(var * rng.uniform(0.8, 1.25, c))
        return layer(*args, **kwargs)
    kernels = [getattr(layer, a) for a in _KERNEL_ATTRS if getattr(layer, a, None) is not None]
    if name in ("Dense", "Conv1D", "Conv2D", "Conv3D", "DepthwiseConv2D", "SeparableConv2D",
                "Conv2DTranspose") and kernels:
        # Scale the last kernel (and bias) so that the output has unit standard deviation.
        y = np.asarray(layer(*args, **kwargs))
        std = float(y.std())
        if np.isfinite(std) and std > 1e-6:
            scale = 1.0 / std
            kernels[-1].assign(kernels[-1].numpy() * scale)
            if getattr(layer, "bias", None) is not None:
                layer.bias.assign(layer.bias.numpy() * scale)
    return layer(*args, **kwargs)


def _perturb_vectors(model, rng):
    """Gammas, betas, biases and moving statistics drawn at random (their initial values, ones
    and zeros, would hide a swapped or ignored parameter)."""
    for v in model.weights:
        leaf = v.path.split("/")[-1] if hasattr(v, "path") else v.name
        shape = tuple(v.shape)
        if len(shape) != 1:
            continue
        if leaf == "gamma":
            v.assign(rng.uniform(0.5, 1.5, shape).astype(np.float32))
        elif leaf in ("beta", "bias"):
            v.assign(v.numpy() + 0.1 * rng.standard_normal(shape).astype(np.float32))
        elif leaf == "moving_mean":
            v.assign(0.1 * rng.standard_normal(shape).astype(np.float32))
        elif leaf == "moving_variance":
            v.assign(rng.uniform(0.5, 1.5, shape).astype(np.float32))


CALIBRATION_BATCH = 16


def reinit_weights(model, runs, sample, rng):
    """Deterministic weights keeping activations of order one, for a functional Keras model.

    Kernels keep Keras' seeded initialization (its fan-in scaling); vectors are drawn at random;
    then the graph is run op by op on a calibration batch, and each BatchNormalization takes its
    moving statistics from the batch it sees, and each convolution or dense layer is rescaled so
    that its output has unit standard deviation. One eager pass, in the graph's own order.

    The calibration batch is the runs' inputs (`runs`: lists of one input array each) topped up
    with `sample(n)` to CALIBRATION_BATCH: statistics of a few other inputs alone, taken where
    the feature maps are 2x2, let the test inputs' activations grow twentyfold by the logits.
    """
    inputs = [r[0] for r in runs]
    have = sum(len(x) for x in inputs)
    x_calib = np.concatenate(inputs + [sample(max(CALIBRATION_BATCH - have, 1))]).astype(np.float32)
    _perturb_vectors(model, rng)
    if not hasattr(model, "_run_through_graph"):
        return

    def operation_fn(op):
        if isinstance(op, keras.layers.Layer) and op.weights:
            return lambda *a, **k: _calibrate_call(op, rng, a, k)
        return op

    model._run_through_graph(tf.constant(x_calib), operation_fn=operation_fn)


def keras_frozen_and_saved(out_dir, name, model, input_specs, runs, description, forms, **tol):
    """Cases of a Keras model: frozen (a tf.function of model(x, training=False)) and/or a
    SavedModel written by Keras 3's model.export (signature serving_default)."""
    if "frozen" in forms:
        fn = tf.function(lambda *xs: model(list(xs) if len(xs) > 1 else xs[0], training=False))
        atol = frozen_case(out_dir, name, fn, input_specs, runs, description, **tol)
        if atol > tol.get("atol", DEFAULT_ATOL):  # the same model, the same rounding
            tol = dict(tol, atol=atol, tolerance_note="the atol measured on the frozen form "
                                                      "(TensorFlow's float32 error, see there)")
    if "saved_model" in forms:
        def save(export_dir):
            model.export(export_dir, format="tf_saved_model", verbose=False,
                         input_signature=list(input_specs))
        # model.export names the signature inputs after the input signature's TensorSpecs.
        sig_keys = [spec.name for spec in input_specs]
        saved_model_case(out_dir, name, save, [dict(zip(sig_keys, values)) for values in runs],
                         description, **tol)


# ---- the small set ------------------------------------------------------------------------------

def make_transformer_encoder(out_dir):
    keras.utils.set_random_seed(SEED + 1)
    rng = rng_for("transformer_encoder")
    seq, d_model, heads, ff = 8, 32, 4, 64
    x = keras.Input((seq, d_model), name="tokens")
    attn = keras.layers.MultiHeadAttention(num_heads=heads, key_dim=d_model // heads, name="mha")
    h = keras.layers.LayerNormalization(epsilon=1e-6, name="ln1")(x + attn(x, x))
    f = keras.layers.Dense(ff, name="ff1")(h)
    f = keras.layers.Activation(lambda t: keras.activations.gelu(t, approximate=False),
                                name="gelu_exact")(f)
    f = keras.layers.Dense(d_model, name="ff2")(f)
    y = keras.layers.LayerNormalization(epsilon=1e-6, name="ln2")(h + f)
    model = keras.Model(x, y, name="transformer_encoder")
    runs = [[rng.standard_normal((b, seq, d_model)).astype(np.float32)] for b in (1, 2)]
    reinit_weights(model, runs, lambda n: rng.standard_normal((n, seq, d_model)), rng)
    keras_frozen_and_saved(
        out_dir, "transformer_encoder", model,
        [tf.TensorSpec([None, seq, d_model], tf.float32, name="tokens")], runs,
        "Transformer encoder block: Keras MultiHeadAttention (4 heads), LayerNormalization, "
        "Dense feed-forward with exact (erf) GELU, residuals", ("frozen", "saved_model"))


def make_conv_net(out_dir):
    keras.utils.set_random_seed(SEED + 4)
    rng = rng_for("conv_net")
    L = keras.layers
    x = keras.Input((24, 24, 3), name="image")
    h = L.Conv2D(8, 3, strides=2, padding="same", use_bias=False, name="stem")(x)
    h = L.BatchNormalization(name="stem_bn")(h)
    h = L.ReLU(6.0, name="stem_relu6")(h)
    h = L.DepthwiseConv2D(3, padding="same", name="dw")(h)
    h = L.BatchNormalization(name="dw_bn")(h)
    h = L.Activation("swish", name="swish")(h)
    h = L.MaxPooling2D(2, name="max_pool")(h)
    h = L.Conv2D(16, 1, activation="relu", name="expand")(h)
    h = L.AveragePooling2D(2, padding="same", name="avg_pool")(h)
    h = L.Conv2D(5, 1, name="classifier")(h)
    y = L.GlobalAveragePooling2D(name="gap")(h)
    model = keras.Model(x, y, name="conv_net")
    runs = [[rng.uniform(-1, 1, (b, 24, 24, 3)).astype(np.float32)] for b in (1, 2)]
    reinit_weights(model, runs, lambda n: rng.uniform(-1, 1, (n, 24, 24, 3)), rng)
    keras_frozen_and_saved(
        out_dir, "conv_net", model, [tf.TensorSpec([None, 24, 24, 3], tf.float32, name="image")],
        runs, "a small fully convolutional Keras classifier: Conv2D, BatchNormalization, ReLU6, "
        "DepthwiseConv2D, swish, max and average pooling, 1x1 convolution head, global average "
        "pooling (no MatMul)", ("frozen", "saved_model"))


def make_keras_rnn(out_dir, name, build, description):
    keras.utils.set_random_seed(SEED + 2)
    rng = rng_for(name)
    seq, feat = 6, 5
    x = keras.Input((seq, feat), name="sequence")
    model = keras.Model(x, build(x), name=name)
    runs = [[rng.standard_normal((b, seq, feat)).astype(np.float32)] for b in (1, 2)]
    reinit_weights(model, runs, lambda n: rng.standard_normal((n, seq, feat)), rng)
    keras_frozen_and_saved(out_dir, name, model,
                           [tf.TensorSpec([None, seq, feat], tf.float32, name="sequence")], runs,
                           description, ("frozen", "saved_model"))


def make_keras_rnns(out_dir):
    L = keras.layers
    make_keras_rnn(
        out_dir, "keras_lstm",
        lambda x: L.Dense(3, name="head")(L.LSTM(8, name="lstm2")(
            L.LSTM(8, return_sequences=True, name="lstm1")(x))),
        "two stacked Keras 3 LSTMs (TF 2 functional While, TensorList ops) and a Dense head")
    make_keras_rnn(
        out_dir, "keras_gru",
        lambda x: L.Dense(3, name="head")(L.GRU(8, name="gru2", reset_after=False)(
            L.GRU(8, return_sequences=True, name="gru1")(x))),
        "two stacked Keras 3 GRUs (reset_after True, then False) and a Dense head")
    make_keras_rnn(
        out_dir, "keras_bidirectional",
        lambda x: L.Dense(3, name="head")(
            L.Bidirectional(L.GRU(4, name="gru"), merge_mode="sum", name="bigru")(
                L.Bidirectional(L.LSTM(6, return_sequences=True, name="lstm"), name="bilstm")(x))),
        "Keras Bidirectional LSTM (concat) then Bidirectional GRU (sum): forward and reversed While")


class _V1LSTMCell:
    """A minimal LSTM cell in raw TensorFlow ops for tf.compat.v1.nn.dynamic_rnn (Keras 3 has no
    tf.compat.v1 cells). Weights are tf.compat.v1 variables, frozen afterwards."""

    def __init__(self, units, input_dim, rng):
        self.units = units
        w = rng.standard_normal((input_dim + units, 4 * units)) / np.sqrt(input_dim + units)
        self.w = tf.compat.v1.get_variable("lstm/kernel", initializer=w.astype(np.float32))
        self.b = tf.compat.v1.get_variable(
            "lstm/bias", initializer=(0.1 * rng.standard_normal(4 * units)).astype(np.float32))

    @property
    def state_size(self):
        return (self.units, self.units)

    @property
    def output_size(self):
        return self.units

    def zero_state(self, batch_size, dtype):
        z = tf.zeros(tf.stack([batch_size, self.units]), dtype)
        return (z, z)

    def __call__(self, inputs, state, scope=None):
        c, h = state
        z = tf.matmul(tf.concat([inputs, h], 1), self.w) + self.b
        i, j, f, o = tf.split(z, 4, axis=1)
        c = tf.sigmoid(f + 1.0) * c + tf.sigmoid(i) * tf.tanh(j)
        h = tf.sigmoid(o) * tf.tanh(c)
        return h, (c, h)


def make_v1_dynamic_rnn(out_dir, control_flow_v2):
    name = "v1_dynamic_rnn" + ("_cfv2" if control_flow_v2 else "")
    rng = rng_for(name)
    seq, feat, units = 7, 4, 6
    g = tf.Graph()
    with g.as_default():
        if control_flow_v2:
            tf.compat.v1.enable_control_flow_v2()
        else:
            tf.compat.v1.disable_control_flow_v2()
        try:
            x = tf.compat.v1.placeholder(tf.float32, [None, seq, feat], name="x")
            lengths = tf.compat.v1.placeholder(tf.int32, [None], name="lengths")
            cell = _V1LSTMCell(units, feat, rng)
            outputs, (c, h) = tf.compat.v1.nn.dynamic_rnn(cell, x, sequence_length=lengths,
                                                          dtype=tf.float32)
            tf.identity(outputs, name="outputs")
            tf.identity(h, name="final_h")
            with tf.compat.v1.Session(graph=g) as sess:
                sess.run(tf.compat.v1.global_variables_initializer())
                graph_def = tf.compat.v1.graph_util.convert_variables_to_constants(
                    sess, g.as_graph_def(), ["outputs", "final_h"])
        finally:
            tf.compat.v1.enable_control_flow_v2()
    flow = "v2 (functional While)" if control_flow_v2 else "v1 (Enter/Exit/Merge/Switch, TensorArrayV3)"
    case = Case(out_dir, name, "frozen",
                f"tf.compat.v1.nn.dynamic_rnn over a raw-op LSTM cell with sequence_length, "
                f"control flow {flow}, frozen with tf.compat.v1.graph_util")
    runs = []
    for b, lens in ((1, [5]), (2, [7, 3])):
        runs.append([rng.standard_normal((b, seq, feat)).astype(np.float32),
                     np.array(lens, np.int32)])
    write_graph_def_case(case, graph_def, ["x:0", "lengths:0"], ["outputs:0", "final_h:0"], runs)


class SsdHead(tf.Module):
    """A small SSD-style detector: two conv feature maps, box and class heads per anchor, anchor
    decoding, and per-image NMS (NonMaxSuppressionV5, padded) over the batch with tf.map_fn, plus
    tf.image.combined_non_max_suppression on the same boxes."""

    def __init__(self, rng):
        super().__init__()

        def var(shape, fan_in):
            return tf.Variable((rng.standard_normal(shape) / np.sqrt(fan_in)).astype(np.float32))

        self.num_classes, self.anchors_per_cell, self.max_out = 3, 2, 5
        a, k = self.anchors_per_cell, self.num_classes
        self.c1 = var((3, 3, 3, 8), 27)
        self.c2 = var((3, 3, 8, 8), 72)
        self.box = [var((1, 1, 8, a * 4), 8), var((1, 1, 8, a * 4), 8)]
        self.cls = [var((1, 1, 8, a * k), 8), var((1, 1, 8, a * k), 8)]
        anchors = []
        for size, cells in ((0.25, 8), (0.5, 4)):
            for i in range(cells):
                for j in range(cells):
                    for ar in (1.0, 2.0):
                        cy, cx = (i + 0.5) / cells, (j + 0.5) / cells
                        anchors.append([cy, cx, size / np.sqrt(ar), size * np.sqrt(ar)])
        self.anchors = tf.constant(np.array(anchors, np.float32))

    @tf.function(input_signature=[tf.TensorSpec([None, 32, 32, 3], tf.float32, name="images")])
    def detect(self, images):
        f1 = tf.nn.relu(tf.nn.conv2d(images, self.c1, 4, "SAME"))   # 8x8
        f2 = tf.nn.relu(tf.nn.conv2d(f1, self.c2, 2, "SAME"))       # 4x4
        batch = tf.shape(images)[0]
        boxes, logits = [], []
        for f, wb, wc in ((f1, self.box[0], self.cls[0]), (f2, self.box[1], self.cls[1])):
            boxes.append(tf.reshape(tf.nn.conv2d(f, wb, 1, "SAME"), [batch, -1, 4]))
            logits.append(tf.reshape(tf.nn.conv2d(f, wc, 1, "SAME"), [batch, -1, self.num_classes]))
        deltas = tf.concat(boxes, 1)
        scores = tf.sigmoid(tf.concat(logits, 1))
        ya, xa, ha, wa = tf.unstack(self.anchors, axis=1)
        dy, dx, dh, dw = tf.unstack(deltas * 0.1, axis=2)
        yc, xc = dy * ha + ya, dx * wa + xa
        h, w = tf.exp(dh) * ha, tf.exp(dw) * wa
        decoded = tf.stack([yc - h / 2, xc - w / 2, yc + h / 2, xc + w / 2], axis=2)

        def per_image(args):
            b, s = args
            best = tf.reduce_max(s, axis=1)
            cls = tf.argmax(s, axis=1, output_type=tf.int32)
            idx, sel_scores, valid = tf.raw_ops.NonMaxSuppressionV5(
                boxes=b, scores=best, max_output_size=self.max_out, iou_threshold=0.5,
                score_threshold=0.3, soft_nms_sigma=0.0, pad_to_max_output_size=True)
            return tf.gather(b, idx), sel_scores, tf.gather(cls, idx), valid

        det_boxes, det_scores, det_classes, num = tf.map_fn(
            per_image, (decoded, scores),
            fn_output_signature=(tf.float32, tf.float32, tf.int32, tf.int32))
        combined = tf.image.combined_non_max_suppression(
            tf.expand_dims(decoded, 2), scores, max_output_size_per_class=3, max_total_size=6,
            iou_threshold=0.5, score_threshold=0.3)
        return {"detection_boxes": det_boxes, "detection_scores": det_scores,
                "detection_classes": det_classes, "num_detections": num,
                "combined_boxes": combined.nmsed_boxes, "combined_scores": combined.nmsed_scores,
                "combined_classes": combined.nmsed_classes,
                "combined_valid": combined.valid_detections}


def make_ssd_head(out_dir):
    rng = rng_for("ssd_head")
    module = SsdHead(rng)
    runs = [[rng.uniform(0, 1, (b, 32, 32, 3)).astype(np.float32)] for b in (1, 2)]
    description = SsdHead.__doc__.replace("\n    ", " ").strip()
    frozen_case(out_dir, "ssd_head", module.detect,
                [tf.TensorSpec([None, 32, 32, 3], tf.float32, name="images")], runs, description)
    saved_model_case(
        out_dir, "ssd_head",
        lambda d: tf.saved_model.save(module, d, signatures={"serving_default": module.detect}),
        [{"images": r[0]} for r in runs], description)


class RoiHead(tf.Module):
    """A two-stage detector's second stage: a conv proposal head scores anchors, tf.math.top_k
    keeps the best 4 per image, their boxes are gathered (batch_dims=1), decoded and clipped,
    tf.image.crop_and_resize cuts 7x7 crops of them (bilinear, and nearest for a mask branch),
    and a small conv + dense head classifies each crop."""

    def __init__(self, rng):
        super().__init__()

        def var(shape, fan_in):
            return tf.Variable((rng.standard_normal(shape) / np.sqrt(fan_in)).astype(np.float32))

        self.conv = var((3, 3, 3, 8), 27)
        self.score = var((1, 1, 8, 1), 8)
        self.delta = var((1, 1, 8, 4), 8)
        self.roi_conv = var((3, 3, 3, 6), 27)
        self.cls = var((6, 4), 6)
        cells = 8
        anchors = [[(i + 0.5) / cells, (j + 0.5) / cells, 0.3, 0.3]
                   for i in range(cells) for j in range(cells)]
        self.anchors = tf.constant(np.array(anchors, np.float32))

    @tf.function(input_signature=[tf.TensorSpec([None, 32, 32, 3], tf.float32, name="images")])
    def detect(self, images):
        batch = tf.shape(images)[0]
        f = tf.nn.relu(tf.nn.conv2d(images, self.conv, 4, "SAME"))          # 8x8
        scores = tf.reshape(tf.nn.conv2d(f, self.score, 1, "SAME"), [batch, -1])
        deltas = tf.reshape(tf.nn.conv2d(f, self.delta, 1, "SAME"), [batch, -1, 4])
        top, idx = tf.math.top_k(scores, k=4)
        d = tf.gather(deltas, idx, batch_dims=1)                              # [b, 4, 4]
        a = tf.gather(self.anchors, idx)                                      # [b, 4, 4]
        cy = a[..., 0] + 0.1 * d[..., 0] * a[..., 2]
        cx = a[..., 1] + 0.1 * d[..., 1] * a[..., 3]
        h = a[..., 2] * tf.exp(0.2 * d[..., 2])
        w = a[..., 3] * tf.exp(0.2 * d[..., 3])
        boxes = tf.clip_by_value(tf.stack([cy - h / 2, cx - w / 2, cy + h / 2, cx + w / 2], -1),
                                 -0.1, 1.1)
        flat = tf.reshape(boxes, [-1, 4])
        box_indices = tf.repeat(tf.range(batch), 4)
        crops = tf.image.crop_and_resize(images, flat, box_indices, [7, 7],
                                         extrapolation_value=0.5)
        masks = tf.image.crop_and_resize(images[..., :1], flat, box_indices, [5, 5],
                                         method="nearest")
        roi = tf.nn.relu(tf.nn.conv2d(crops, self.roi_conv, 1, "VALID"))      # 5x5
        logits = tf.matmul(tf.reduce_mean(roi, axis=[1, 2]), self.cls)
        return {"boxes": boxes, "scores": tf.sigmoid(top), "crops": crops, "masks": masks,
                "logits": tf.reshape(logits, [batch, 4, 4])}


def make_roi_head(out_dir):
    rng = rng_for("roi_head")
    module = RoiHead(rng)
    runs = [[rng.uniform(0, 1, (b, 32, 32, 3)).astype(np.float32)] for b in (1, 2)]
    description = RoiHead.__doc__.replace("\n    ", " ").strip()
    frozen_case(out_dir, "roi_head", module.detect,
                [tf.TensorSpec([None, 32, 32, 3], tf.float32, name="images")], runs, description)
    saved_model_case(
        out_dir, "roi_head",
        lambda d: tf.saved_model.save(module, d, signatures={"serving_default": module.detect}),
        [{"images": r[0]} for r in runs], description)


@tf.function(input_signature=[tf.TensorSpec([None, 4000], tf.float32, name="waveform")])
def audio_features(waveform):
    """Speech front end: tf.signal.stft (Hann window, RFFT), magnitude, a mel filter bank,
    log, MFCCs (a DCT through the FFT), and the inverse STFT of the spectrum."""
    stft = tf.signal.stft(waveform, frame_length=256, frame_step=128, fft_length=256)
    magnitude = tf.abs(stft)
    mel_matrix = tf.signal.linear_to_mel_weight_matrix(
        num_mel_bins=20, num_spectrogram_bins=129, sample_rate=8000,
        lower_edge_hertz=80.0, upper_edge_hertz=3800.0)
    mel = tf.tensordot(magnitude, mel_matrix, 1)
    log_mel = tf.math.log(mel + 1e-6)
    mfccs = tf.signal.mfccs_from_log_mel_spectrograms(log_mel)[..., :13]
    inverse = tf.signal.inverse_stft(
        stft, frame_length=256, frame_step=128, fft_length=256,
        window_fn=tf.signal.inverse_stft_window_fn(128))
    return {"magnitude": magnitude, "log_mel": log_mel, "mfccs": mfccs, "inverse": inverse}


def make_audio_features(out_dir):
    rng = rng_for("audio_features")
    t = np.arange(4000, dtype=np.float32) / 8000.0

    def wave(b):
        f0 = 200 + 150 * b
        return (0.6 * np.sin(2 * np.pi * f0 * t) + 0.3 * np.sin(2 * np.pi * 3.1 * f0 * t) +
                0.05 * rng.standard_normal(4000)).astype(np.float32)
    runs = [[np.stack([wave(b) for b in range(n)])] for n in (1, 2)]
    description = audio_features.__doc__.replace("\n    ", " ").strip()
    tol = dict(rtol=1e-3, atol=1e-3, tolerance_note=(
        "256-point FFTs then a log: sg's FFT library and TensorFlow's sum in different orders, "
        "and the log magnifies the rounding of the smallest mel bins"))
    frozen_case(out_dir, "audio_features", audio_features,
                [tf.TensorSpec([None, 4000], tf.float32, name="waveform")], runs, description,
                **tol)
    module = tf.Module()
    module.fn = audio_features
    saved_model_case(
        out_dir, "audio_features",
        lambda d: tf.saved_model.save(module, d, signatures={"serving_default": audio_features}),
        [{"waveform": r[0]} for r in runs], description, **tol)


def _test_image(rng, h, w):
    """A smooth deterministic RGB image (gradients and blobs), so that JPEG keeps it well."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    img = np.stack([xx / w, yy / h, 0.5 + 0.5 * np.sin(xx / 3.0 + yy / 5.0)], axis=2) * 255
    img += rng.uniform(-10, 10, (1, 1, 3))
    return np.clip(img, 0, 255).astype(np.uint8)


class ImagePreprocess(tf.Module):
    """Image pre-processing as a serving signature: a vector of encoded images (bytes) is decoded
    with tf.io.decode_image (JPEG or PNG in one batch) or decode_jpeg, resized, cropped and
    normalized, per image in tf.map_fn."""

    def __init__(self, jpeg_only):
        super().__init__()
        self.jpeg_only = jpeg_only

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string, name="encoded")])
    def preprocess(self, encoded):
        def one(data):
            if self.jpeg_only:
                img = tf.io.decode_jpeg(data, channels=3)
                img = tf.image.central_crop(img, 0.75)
            else:
                img = tf.io.decode_image(data, channels=3, expand_animations=False)
            img = tf.image.convert_image_dtype(img, tf.float32)
            img = tf.image.resize(img, [16, 16], method="bilinear")
            if self.jpeg_only:
                img = tf.image.per_image_standardization(img)
            return img

        images = tf.map_fn(one, encoded, fn_output_signature=tf.TensorSpec([16, 16, 3], tf.float32))
        return {"images": images, "mean": tf.reduce_mean(images, axis=[1, 2])}


def make_image_preprocess(out_dir):
    for name, jpeg_only in (("image_decode", False), ("image_jpeg", True)):
        rng = rng_for(name)
        module = ImagePreprocess(jpeg_only)
        encoded = []
        for i, (h, w) in enumerate(((24, 20), (30, 36), (20, 28))):
            img = tf.constant(_test_image(rng, h, w))
            if jpeg_only or i % 2 == 0:
                encoded.append(tf.io.encode_jpeg(img, quality=95).numpy())
            else:
                encoded.append(tf.io.encode_png(img).numpy())
        runs = [[np.array(encoded[:1], dtype=object)], [np.array(encoded[1:], dtype=object)]]
        what = "decode_jpeg, central_crop, per_image_standardization" if jpeg_only else \
            "decode_image on a JPEG and a PNG"
        description = (f"image pre-processing from encoded bytes: {what}, convert_image_dtype, "
                       f"bilinear resize to 16x16, in tf.map_fn over a string vector")
        # The default tolerance: sg decodes JPEG with libjpeg-turbo at TensorFlow's settings
        # (JDCT_IFAST, fancy upsampling), so its pixels are TensorFlow's.
        frozen_case(out_dir, name, module.preprocess,
                    [tf.TensorSpec([None], tf.string, name="encoded")],
                    [[np.array(r[0])] for r in runs], description)
        saved_model_case(
            out_dir, name,
            lambda d, m=module: tf.saved_model.save(m, d, signatures={"serving_default": m.preprocess}),
            [{"encoded": r[0]} for r in runs], description)


@tf.function(input_signature=[tf.TensorSpec([None], tf.string, name="text")])
def text_preprocess(text):
    t = tf.strings.lower(text)
    t = tf.strings.regex_replace(t, r"[^a-z0-9 ]", " ")
    t = tf.strings.regex_replace(t, r" +", " ")
    t = tf.strings.strip(t)
    tokens = tf.strings.split(t, sep=" ").to_tensor(default_value="", shape=[None, 8])
    ids = tf.strings.to_hash_bucket_fast(tokens, 1000)
    ids = tf.where(tokens == "", tf.zeros_like(ids), ids + 1)
    lengths = tf.reduce_sum(tf.cast(tokens != "", tf.int32), axis=1)
    return {"normalized": t, "tokens": tokens, "ids": ids, "lengths": lengths,
            "chars": tf.strings.length(t, unit="UTF8_CHAR")}


_TEXTS = [b"Hello, World! This is sg.", b"  TensorFlow 2.21 writes   these GRAPHS... ",
          b"numbers 123 and 4567 stay", b"A-B_C d.e"]


def make_text_preprocess(out_dir):
    description = ("text pre-processing from strings: lower, regex_replace, strip, split "
                   "(ragged, to_tensor), to_hash_bucket_fast, string lengths")
    runs = [[np.array(_TEXTS[:1], dtype=object)], [np.array(_TEXTS[1:3], dtype=object)]]
    frozen_case(out_dir, "text_preprocess", text_preprocess,
                [tf.TensorSpec([None], tf.string, name="text")], runs, description)

    module = tf.Module()
    module.fn = text_preprocess
    saved_model_case(
        out_dir, "text_preprocess",
        lambda d: tf.saved_model.save(module, d, signatures={"serving_default": text_preprocess}),
        [{"text": r[0]} for r in runs], description)


class TextClassifier(tf.Module):
    """A TF2 SavedModel with an asset: a vocabulary file read by a StaticVocabularyTable
    (TextFileInitializer, run by the SavedModel's init op), an embedding variable, mean pooling
    and a dense layer, served through its signature."""

    def __init__(self, vocab_path, rng):
        super().__init__()
        self.vocab = tf.saved_model.Asset(vocab_path)
        init = tf.lookup.TextFileInitializer(
            self.vocab, tf.string, tf.lookup.TextFileIndex.WHOLE_LINE,
            tf.int64, tf.lookup.TextFileIndex.LINE_NUMBER)
        self.table = tf.lookup.StaticVocabularyTable(init, num_oov_buckets=2)
        self.embedding = tf.Variable(rng.standard_normal((12, 4)).astype(np.float32))
        self.w = tf.Variable((rng.standard_normal((4, 3)) / 2).astype(np.float32))
        self.b = tf.Variable((0.1 * rng.standard_normal(3)).astype(np.float32))

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string, name="sentence")])
    def classify(self, sentence):
        tokens = tf.strings.split(tf.strings.lower(sentence))
        ids = tf.ragged.map_flat_values(self.table.lookup, tokens)
        vectors = tf.ragged.map_flat_values(tf.nn.embedding_lookup, self.embedding, ids)
        pooled = tf.reduce_mean(vectors, axis=1)
        logits = tf.matmul(pooled, self.w) + self.b
        return {"logits": logits, "label": tf.argmax(logits, axis=1),
                "ids": ids.to_tensor(default_value=-1, shape=[None, 6])}


def make_text_classifier(out_dir):
    rng = rng_for("text_vocab")
    vocab_dir = os.path.join(out_dir, ".text_vocab_src")
    os.makedirs(vocab_dir, exist_ok=True)
    vocab_path = os.path.join(vocab_dir, "vocab.txt")
    with open(vocab_path, "w") as f:
        f.write("\n".join(["the", "model", "runs", "graph", "sg", "tensor", "fast", "a", "b",
                           "good"]) + "\n")
    module = TextClassifier(vocab_path, rng)
    runs = [{"sentence": np.array([b"the model runs fast"], dtype=object)},
            {"sentence": np.array([b"sg runs a GRAPH", b"unknown words and tensor"], dtype=object)}]
    saved_model_case(
        out_dir, "text_vocab",
        lambda d: tf.saved_model.save(module, d, signatures={"serving_default": module.classify}),
        runs, TextClassifier.__doc__.replace("\n    ", " ").strip())
    shutil.rmtree(vocab_dir)


class MultiSignature(tf.Module):
    """A TF2 SavedModel of a tf.Module with variables and two signatures: serving_default (two
    float inputs, a dict of outputs) and `classify` (an int64 label and a bool), chosen by key."""

    def __init__(self, rng):
        super().__init__()
        self.w = tf.Variable(rng.standard_normal((5, 4)).astype(np.float32), name="w")
        self.scale = tf.Variable(np.float32(1.5), name="scale")
        self.calls = tf.Variable(np.int64(7), name="offset")

    @tf.function(input_signature=[tf.TensorSpec([None, 5], tf.float32, name="x"),
                                  tf.TensorSpec([None, 4], tf.float32, name="bias")])
    def serve(self, x, bias):
        y = tf.matmul(x, self.w) * self.scale + bias
        return {"y": y, "norm": tf.norm(y, axis=1), "softmax": tf.nn.softmax(y)}

    @tf.function(input_signature=[tf.TensorSpec([None, 5], tf.float32, name="features")])
    def classify(self, features):
        logits = tf.matmul(features, self.w)
        return {"label": tf.argmax(logits, axis=1) + self.calls,
                "confident": tf.reduce_max(tf.nn.softmax(logits), axis=1) > 0.5}


def make_multi_signature(out_dir):
    rng = rng_for("module_signatures")
    m = MultiSignature(rng)

    def save(d):
        tf.saved_model.save(m, d, signatures={"serving_default": m.serve, "classify": m.classify})

    runs = [{"x": rng.standard_normal((b, 5)).astype(np.float32),
             "bias": rng.standard_normal((b, 4)).astype(np.float32)} for b in (1, 2)]
    description = MultiSignature.__doc__.replace("\n    ", " ").strip()
    saved_model_case(out_dir, "module_signatures", save, runs, description)
    runs = [{"features": rng.standard_normal((b, 5)).astype(np.float32)} for b in (1, 3)]
    saved_model_case(out_dir, "module_signatures_classify", save, runs,
                     description + " (this case: the classify signature)", signature="classify")


SMALL = [
    ("conv_net", make_conv_net),
    ("transformer_encoder", make_transformer_encoder),
    ("keras_lstm keras_gru keras_bidirectional", make_keras_rnns),
    ("v1_dynamic_rnn", lambda d: make_v1_dynamic_rnn(d, False)),
    ("v1_dynamic_rnn_cfv2", lambda d: make_v1_dynamic_rnn(d, True)),
    ("ssd_head", make_ssd_head),
    ("roi_head", make_roi_head),
    ("audio_features", make_audio_features),
    ("image_decode image_jpeg", make_image_preprocess),
    ("text_preprocess", make_text_preprocess),
    ("text_vocab", make_text_classifier),
    ("module_signatures", make_multi_signature),
]


# ---- Keras applications -------------------------------------------------------------------------

# Every application keras.applications offers (keras 3.15), by family (the module holding its
# preprocess_input); the first of each family is the one the `apps` set makes (VGG19 is left to
# apps-all: it is VGG16 with three more convolutions). Input side: 64, or the family's minimum
# when that is larger.
APP_FAMILIES = [
    ("convnext", 64, ["ConvNeXtTiny", "ConvNeXtSmall", "ConvNeXtBase", "ConvNeXtLarge",
                      "ConvNeXtXLarge"]),
    ("densenet", 64, ["DenseNet121", "DenseNet169", "DenseNet201"]),
    ("efficientnet", 64, ["EfficientNetB0", "EfficientNetB1", "EfficientNetB2", "EfficientNetB3",
                          "EfficientNetB4", "EfficientNetB5", "EfficientNetB6", "EfficientNetB7"]),
    ("efficientnet_v2", 64, ["EfficientNetV2B0", "EfficientNetV2B1", "EfficientNetV2B2",
                             "EfficientNetV2B3", "EfficientNetV2S", "EfficientNetV2M",
                             "EfficientNetV2L"]),
    ("inception_resnet_v2", 75, ["InceptionResNetV2"]),
    ("inception_v3", 75, ["InceptionV3"]),
    ("mobilenet", 64, ["MobileNet"]),
    ("mobilenet_v2", 64, ["MobileNetV2"]),
    ("mobilenet_v3", 64, ["MobileNetV3Small", "MobileNetV3Large"]),
    ("nasnet", 64, ["NASNetMobile", "NASNetLarge"]),
    ("resnet", 64, ["ResNet50", "ResNet101", "ResNet152"]),
    ("resnet_v2", 64, ["ResNet50V2", "ResNet101V2", "ResNet152V2"]),
    ("vgg16", 64, ["VGG16"]),
    ("vgg19", 64, ["VGG19"]),
    ("xception", 75, ["Xception"]),
]
APP_SAVED_MODELS = {"MobileNetV2"}


def make_app(out_dir, family, app, side):
    keras.utils.set_random_seed(SEED + 3)
    rng = rng_for(app)
    t0 = time.time()
    kwargs = dict(weights=None, input_shape=(side, side, 3), classifier_activation=None)
    model = getattr(keras.applications, app)(**kwargs)
    t1 = time.time()
    # Random pixels through the family's own preprocess_input, so that every model sees inputs in
    # the range it expects (models that normalize inside, like ConvNeXt, take raw pixels; fed
    # [-1, 1] they would barely tell one image from another).
    preprocess = getattr(keras.applications, family).preprocess_input

    def images(n):
        return np.asarray(preprocess(rng.uniform(0, 255, (n, side, side, 3)).astype(np.float32)),
                          np.float32)

    runs = [[images(b)] for b in (1, 2)]
    reinit_weights(model, runs, images, rng)
    t2 = time.time()
    forms = ("frozen", "saved_model") if app in APP_SAVED_MODELS else ("frozen",)
    description = (f"keras.applications.{app}(weights=None, input_shape=({side}, {side}, 3), "
                   f"classifier_activation=None), seeded weights calibrated to order-one "
                   f"activations; {model.count_params()} parameters; input: random pixels "
                   f"through {family}.preprocess_input; output: logits")
    keras_frozen_and_saved(out_dir, "app_" + app.lower(), model,
                           [tf.TensorSpec([None, side, side, 3], tf.float32, name="images")],
                           runs, description, forms)
    log(f"{app}: {time.time() - t0:.0f} s (build {t1 - t0:.0f} s, weights {t2 - t1:.0f} s, "
        f"freeze, run and write {time.time() - t2:.0f} s)")
    keras.backend.clear_session()


def app_makers(all_apps):
    makers = []
    for family, side, apps in APP_FAMILIES:
        if not all_apps and family == "vgg19":  # the same ops as VGG16
            continue
        for app in (apps if all_apps else apps[:1]):
            makers.append(("app_" + app.lower(),
                           lambda d, f=family, a=app, s=side: make_app(d, f, a, s)))
    return makers


# ---- main ---------------------------------------------------------------------------------------

def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--set", choices=("small", "apps", "apps-all"), default="small")
    p.add_argument("--out", help="output directory (default: tests/oracle/corpus for small)")
    p.add_argument("--only", nargs="*", default=[], help="make only cases whose names have one of these")
    p.add_argument("--stamp", help="written to OUT/.stamp once the whole set is written "
                                   "(generate_corpus.sh passes a hash of this script, "
                                   "requirements.txt and the set, and compares it next time)")
    args = p.parse_args()
    out = args.out or (DEFAULT_SMALL_OUT if args.set == "small" else None)
    if out is None:
        p.error("--out is required for the apps sets")
    os.makedirs(out, exist_ok=True)
    stamp_path = os.path.join(out, ".stamp")
    makers = SMALL if args.set == "small" else app_makers(args.set == "apps-all")
    if args.only:
        makers = [(n, m) for n, m in makers if any(w in n for w in args.only)]
    else:  # a whole set: no case of an earlier run stays behind
        for entry in os.listdir(out):
            path = os.path.join(out, entry)
            if os.path.isdir(path) and (entry.endswith(".tmp") or
                                        os.path.exists(os.path.join(path, "case.json"))):
                shutil.rmtree(path)
        if os.path.exists(stamp_path):
            os.remove(stamp_path)
    t0 = time.time()
    for names, make in makers:
        make(out)
    if args.stamp and not args.only:
        with open(stamp_path, "w") as f:
            f.write(args.stamp + "\n")
    log(f"{len(makers)} makers in {time.time() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
