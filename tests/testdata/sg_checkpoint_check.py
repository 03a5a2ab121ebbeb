"""Has sg write a checkpoint and reads it back with TensorFlow.

Used by make_testdata.py at generation time (issue 6: "reads a checkpoint that sg wrote back into
TensorFlow, checking values"). It drives sg through its C API (libsg.so, via ctypes), so it needs
a build of sg; TensorFlow is only the independent reader here.

The check, on a TF1 SavedModel with variables:
  1. sg loads the SavedModel (SG_LoadSessionFromSavedModel), which restores the variables.
  2. sg runs the model's own saver op (MetaGraphDef.saver_def: SaveV2, ShardedFilename and
     MergeV2Checkpoints), with the filename tensor fed a fresh prefix and every variable's value
     fed a new value chosen here (original * -2 + 0.25), so the file cannot be a copy of
     TensorFlow's.
  3. TensorFlow's checkpoint reader (tf.train.load_checkpoint) opens that prefix: it must list
     exactly the variables of the original checkpoint, with the same dtypes and shapes, and hold
     exactly the values sg was fed.
  4. TensorFlow restores the sg-written checkpoint into the SavedModel's graph with its own Saver
     and runs the signature: the output must equal the same graph run on the new values fed
     directly.
"""

import ctypes
import os
import tempfile

import numpy as np

SG_OK = 0
SG_FLOAT = 1
SG_STRING = 7


class _Output(ctypes.Structure):
    _fields_ = [("oper", ctypes.c_void_p), ("index", ctypes.c_int)]


class _Buffer(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("length", ctypes.c_size_t),
                ("data_deallocator", ctypes.c_void_p)]


def find_libsg(repo_root):
    """Returns the path of a built libsg.so.1 under the repo's build/ (or None)."""
    path = os.path.join(repo_root, "build", "c_api", "libsg.so.1")
    return path if os.path.exists(path) else None


class _Sg:
    def __init__(self, path):
        lib = ctypes.CDLL(path)
        vp, c_int, c_size_t = ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t
        sigs = {
            "SG_NewStatus": (vp, []),
            "SG_DeleteStatus": (None, [vp]),
            "SG_GetCode": (c_int, [vp]),
            "SG_Message": (ctypes.c_char_p, [vp]),
            "SG_NewGraph": (vp, []),
            "SG_DeleteGraph": (None, [vp]),
            "SG_NewSessionOptions": (vp, []),
            "SG_DeleteSessionOptions": (None, [vp]),
            "SG_NewBuffer": (ctypes.POINTER(_Buffer), []),
            "SG_DeleteBuffer": (None, [ctypes.POINTER(_Buffer)]),
            "SG_LoadSessionFromSavedModel": (vp, [vp, vp, ctypes.c_char_p,
                                                  ctypes.POINTER(ctypes.c_char_p), c_int, vp,
                                                  ctypes.POINTER(_Buffer), vp]),
            "SG_CloseSession": (None, [vp, vp]),
            "SG_DeleteSession": (None, [vp, vp]),
            "SG_GraphOperationByName": (vp, [vp, ctypes.c_char_p]),
            "SG_AllocateTensor": (vp, [c_int, ctypes.POINTER(ctypes.c_int64), c_int, c_size_t]),
            "SG_DeleteTensor": (None, [vp]),
            "SG_TensorData": (vp, [vp]),
            "SG_NewStringTensor": (vp, [ctypes.POINTER(ctypes.c_int64), c_int,
                                        ctypes.POINTER(ctypes.c_char_p),
                                        ctypes.POINTER(c_size_t), ctypes.c_int64, vp]),
            "SG_SessionRun": (None, [vp, vp, ctypes.POINTER(_Output), ctypes.POINTER(vp), c_int,
                                     ctypes.POINTER(_Output), ctypes.POINTER(vp), c_int,
                                     ctypes.POINTER(vp), c_int, vp, vp]),
        }
        for name, (res, args) in sigs.items():
            fn = getattr(lib, name)
            fn.restype, fn.argtypes = res, args
            setattr(self, name[3:], fn)
        self.status = self.NewStatus()

    def check(self, what):
        code = self.GetCode(self.status)
        if code != SG_OK:
            raise RuntimeError("sg: %s: code %d: %s"
                               % (what, code, self.Message(self.status).decode()))

    def output(self, graph, tensor_name):
        op_name, _, index = tensor_name.partition(":")
        op = self.GraphOperationByName(graph, op_name.encode())
        if not op:
            raise RuntimeError("sg: the graph has no operation %r" % op_name)
        return _Output(op, int(index or 0))

    def string_scalar(self, text):
        data = text.encode()
        t = self.NewStringTensor(None, 0, (ctypes.c_char_p * 1)(data),
                                 (ctypes.c_size_t * 1)(len(data)), 1, self.status)
        self.check("SG_NewStringTensor")
        return t

    def float_tensor(self, array):
        array = np.ascontiguousarray(array, dtype=np.float32)
        dims = (ctypes.c_int64 * max(array.ndim, 1))(*array.shape)
        t = self.AllocateTensor(SG_FLOAT, dims, array.ndim, array.nbytes)
        ctypes.memmove(self.TensorData(t), array.ctypes.data, array.nbytes)
        return t


def check(tf, libsg_path, saved_model_dir, signature_key, input_key, input_value, tags=("serve",)):
    """Runs the check described at the top; raises on any mismatch. Returns a summary dict."""
    tf1 = tf.compat.v1
    from tensorflow.core.protobuf import meta_graph_pb2

    original = tf.train.load_checkpoint(os.path.join(saved_model_dir, "variables", "variables"))
    var_shapes = original.get_variable_to_shape_map()
    var_dtypes = original.get_variable_to_dtype_map()
    names = sorted(var_shapes)
    new_values = {n: (original.get_tensor(n) * np.float32(-2) + np.float32(0.25)).astype(np.float32)
                  for n in names}
    for n in names:
        if var_dtypes[n] != tf.float32:
            raise RuntimeError("the check handles float variables only; %s is %s" % (n, var_dtypes[n]))

    sg = _Sg(libsg_path)
    out_dir = tempfile.mkdtemp(prefix="sg_ckpt_")
    prefix = os.path.join(out_dir, "from_sg")

    graph = sg.NewGraph()
    opts = sg.NewSessionOptions()
    meta_buf = sg.NewBuffer()
    tag_array = (ctypes.c_char_p * len(tags))(*[t.encode() for t in tags])
    session = sg.LoadSessionFromSavedModel(opts, None, saved_model_dir.encode(), tag_array,
                                           len(tags), graph, meta_buf, sg.status)
    sg.check("SG_LoadSessionFromSavedModel(%s)" % saved_model_dir)
    meta = meta_graph_pb2.MetaGraphDef()
    meta.ParseFromString(ctypes.string_at(meta_buf.contents.data, meta_buf.contents.length))
    sg.DeleteBuffer(meta_buf)
    saver_def = meta.saver_def

    feeds = [(saver_def.filename_tensor_name, sg.string_scalar(prefix))]
    feeds += [(n + ":0", sg.float_tensor(new_values[n])) for n in names]
    inputs = (_Output * len(feeds))(*[sg.output(graph, name) for name, _ in feeds])
    values = (ctypes.c_void_p * len(feeds))(*[t for _, t in feeds])
    fetch = (_Output * 1)(sg.output(graph, saver_def.save_tensor_name))
    result = (ctypes.c_void_p * 1)()
    sg.SessionRun(session, None, inputs, values, len(feeds), fetch, result, 1, None, 0, None,
                  sg.status)
    sg.check("running the saver's save op %s" % saver_def.save_tensor_name)
    sg.DeleteTensor(result[0])
    for _, t in feeds:
        sg.DeleteTensor(t)
    sg.CloseSession(session, sg.status)
    sg.DeleteSession(session, sg.status)
    sg.DeleteGraph(graph)
    sg.DeleteSessionOptions(opts)
    sg.DeleteStatus(sg.status)

    # 3. TensorFlow's reader: same variables, dtypes, shapes; sg's values, bit for bit.
    written = tf.train.load_checkpoint(prefix)
    if sorted(written.get_variable_to_shape_map()) != names:
        raise RuntimeError("sg's checkpoint holds %s, expected %s"
                           % (sorted(written.get_variable_to_shape_map()), names))
    for n in names:
        got = written.get_tensor(n)
        if written.get_variable_to_dtype_map()[n] != var_dtypes[n] or list(got.shape) != var_shapes[n]:
            raise RuntimeError("%s: dtype/shape %s%s, expected %s%s" % (
                n, written.get_variable_to_dtype_map()[n], list(got.shape), var_dtypes[n],
                var_shapes[n]))
        if not np.array_equal(got, new_values[n]):
            raise RuntimeError("%s: TensorFlow reads other values than sg wrote" % n)

    # 4. TensorFlow restores the file with its Saver and runs the signature.
    sig = meta.signature_def[signature_key]
    out_name = sorted(sig.outputs.values(), key=lambda i: i.name)[0].name
    g = tf.Graph()
    with tf1.Session(graph=g) as sess:
        loaded = tf1.saved_model.loader.load(sess, list(tags), saved_model_dir)
        saver = tf1.train.Saver(saver_def=loaded.saver_def)
        saver.restore(sess, prefix)
        restored = sess.run(out_name, {sig.inputs[input_key].name: input_value})
        direct = sess.run(out_name, dict([(sig.inputs[input_key].name, input_value)] +
                                         [(n + ":0", new_values[n]) for n in names]))
    if not np.array_equal(restored, direct):
        raise RuntimeError("TensorFlow restored from sg's checkpoint gives other outputs (max "
                           "|diff| %g)" % float(np.max(np.abs(restored - direct))))
    files = sorted(os.listdir(out_dir))
    for f in files:
        os.remove(os.path.join(out_dir, f))
    os.rmdir(out_dir)
    return {"variables": len(names), "files": files, "output": out_name}
