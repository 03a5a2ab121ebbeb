#!/usr/bin/env python3
"""TensorFlow's tf.gradients values for the ops of core/gradients/{segment,linalg,math_grad_extra,
resource,image,second_order}_grad.cc and the later additions to nn_grad.cc and array_grad.cc
(the oracle half of tests/core/gradients_more_test.cc).

    PY=$(tests/oracle/setup_venv.sh)
    $PY tests/oracle/make_grad_cases_more.py [--out tests/oracle/grad_cases_more] [--only case ...]

Same format as make_grad_cases.py (whose writer this reuses): one binary GraphDef per case,
<case>.pb, with the forward graph as TensorFlow 2.21 builds it, "y", "oracle/dy",
"oracle/feed/<x>" and "oracle/grad/<x>". Every y has a static shape (results whose shape TF
only knows at run time are reshaped to it).
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_grad_cases as base  # noqa: E402

tf = base.tf
HERE = base.HERE

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


@case
def segment_reductions(p):
    d = p("d", [6, 2], 0.5, 1.5)
    ids = tf.constant([0, 0, 1, 2, 2, 2])
    terms = [tf.math.segment_mean(d, ids), tf.math.segment_max(d, ids),
             tf.math.segment_min(d, ids), tf.math.segment_prod(d, ids)]
    return tf.add_n([tf.reshape(t, [3, 2]) * (i + 1.0) for i, t in enumerate(terms)])


@case
def unsorted_segments(p):
    d = p("d", [6, 2], 0.5, 1.5)
    ids = tf.constant([1, -1, 0, 1, 2, 0])
    return (tf.math.unsorted_segment_max(d, ids, 3) - tf.math.unsorted_segment_min(d, ids, 3)
            + tf.math.unsorted_segment_prod(d, ids, 3))


@case
def sparse_segments(p):
    d = p("d", [4, 3])
    idx, ids = tf.constant([0, 2, 2, 3]), tf.constant([0, 0, 1, 3])
    terms = [tf.sparse.segment_sum(d, idx, ids), tf.sparse.segment_mean(d, idx, ids),
             tf.sparse.segment_sqrt_n(d, idx, ids)]
    return tf.add_n([tf.reshape(t, [4, 3]) * (i + 1.0) for i, t in enumerate(terms)])


@case
def sparse_segments_num_segments(p):
    d = p("d", [4, 3])
    idx, ids = tf.constant([3, 1, 1, 0]), tf.constant([0, 2, 2, 4])
    return (tf.sparse.segment_sum(d, idx, ids, num_segments=5)
            - tf.sparse.segment_mean(d, idx, ids, num_segments=5)
            + tf.sparse.segment_sqrt_n(d, idx, ids, num_segments=5) * 3.0)


@case
def gather_scatter_nd(p):
    t, u = p("t", [4, 2]), p("u", [2, 2])
    idx = tf.constant([[1], [3]])
    terms = [tf.tensor_scatter_nd_update(t, idx, u), tf.tensor_scatter_nd_add(t, idx, u) * 2.0,
             tf.tensor_scatter_nd_sub(t, idx, u), tf.tensor_scatter_nd_max(t, idx, u),
             tf.tensor_scatter_nd_min(t, idx, u), tf.scatter_nd(idx, u * u, [4, 2])]
    s = tf.add_n([tf.reshape(v, [4, 2]) for v in terms])
    return tf.concat([tf.gather_nd(s, [[0, 1], [3, 0], [3, 0]]),
                      tf.reshape(tf.gather_nd(s, [[2], [1]]), [4])], 0)


@case
def stitch_partition(p):
    a, b = p("a", [2, 3]), p("b", [2, 3])
    parts = tf.dynamic_partition(tf.concat([a, b * b], 0), [1, 0, 2, 1], 3)
    stitched = tf.dynamic_stitch([[0, 2], [3, 1]], [a, b])
    return tf.reshape(tf.concat([parts[2], parts[0], stitched], 0), [6, 3])


@case
def sparse_to_dense(p):
    v, d = p("v", [3]), p("d", [])
    return tf.raw_ops.SparseToDense(sparse_indices=[[0, 1], [1, 2], [2, 0]], output_shape=[3, 4],
                                    sparse_values=v * v, default_value=d) * 2.0


@case
def topk_reverse_roll(p):
    x = p("x", [3, 5])
    top = tf.math.top_k(x, 2).values
    rev = tf.reverse_sequence(x, tf.constant([2, 5, 1], tf.int64), seq_axis=1, batch_axis=0)
    return tf.concat([top, tf.roll(rev, [1, -2], [0, 1])], 1)


@case
def matrix_ops(p):
    a, dg = p("a", [2, 3, 3]), p("dg", [2, 3])
    inv = tf.linalg.inv(a + 3.0 * tf.eye(3, dtype=a.dtype))
    band = tf.linalg.diag_part(a, k=(-1, 1), align="LEFT_RIGHT")       # [2, 3, 3]
    built = tf.linalg.diag(dg, k=1, num_rows=4, num_cols=4)            # [2, 4, 4]
    set_ = tf.linalg.set_diag(a, dg * 2.0, k=(0, 0))
    terms = [inv, band, tf.slice(built, [0, 1, 0], [2, 3, 3]), set_,
             tf.linalg.diag(tf.linalg.diag_part(a))]
    return tf.add_n([tf.reshape(t, [2, 3, 3]) for t in terms])


@case
def xlogy_family(p):
    # Not "y": that name is the output's.
    x, y = p("x", [2, 3], 0.5, 2.0), p("v", [3], 0.5, 2.0)
    return (tf.math.xlogy(x, y) + tf.math.xlog1py(y, x) + tf.math.xdivy(x, y)
            + tf.math.divide_no_nan(x, y) + tf.math.multiply_no_nan(x, y) + tf.atan2(x, y - 1.0)
            + tf.math.floormod(x * 3.0, y) + tf.math.erfc(x - 1.0))


@case
def prod_cumprod(p):
    x = p("x", [2, 3, 4], 0.5, 1.5)
    cum = tf.math.cumprod(x, axis=2, exclusive=True, reverse=True)
    return (tf.reduce_prod(x, axis=1) + tf.reduce_sum(tf.reduce_prod(x, axis=[0, 2], keepdims=True))
            + tf.reshape(tf.slice(cum, [0, 1, 0], [2, 1, 4]), [2, 4]))


@case
def cumulative_logsumexp(p):
    x = p("x", [2, 4])
    exclusive = tf.math.cumulative_logsumexp(x, axis=1, exclusive=True, reverse=True)
    # The exclusive scan's last element is log(0) = -inf: only the others are used.
    return (tf.math.cumulative_logsumexp(x, axis=1)
            + tf.concat([tf.slice(exclusive, [0, 0], [2, 3]), tf.zeros([2, 1], x.dtype)], 1))


@case
def complex_fft(p):
    a, b = p("a", [2, 4]), p("b", [2, 4])
    z = tf.complex(a, b)
    w = tf.signal.fft(z) * tf.math.conj(z) + tf.signal.ifft(z * z)
    w2 = tf.signal.fft2d(tf.reshape(z, [2, 2, 2])) + tf.reshape(
        tf.signal.ifft3d(tf.reshape(z, [1, 2, 2, 2])), [2, 2, 2])
    return (tf.math.real(w) + tf.math.imag(w) * 0.5 + tf.math.angle(z)
            + tf.reshape(tf.math.real(w2) - tf.math.imag(w2), [2, 4]))


@case
def complex_abs(p):
    a, b = p("a", [2, 3]), p("b", [2, 3])
    return tf.abs(tf.complex(a, b)) * 2.0


def flat_concat(*ts):
    return tf.concat([tf.reshape(t, [-1]) for t in ts], 0)


@case
def einsum(p):
    a, b, c, d = p("a", [2, 3, 4]), p("b", [4, 2]), p("c", [2, 1, 3, 4]), p("d", [3, 4, 2])
    return flat_concat(tf.einsum("abc,cd->da", a, b), tf.einsum("ij,kj->", b, b),
                       tf.einsum("...ij,...jk->...ik", c, d), tf.einsum("bij->j", a),
                       tf.einsum("ij->ji", b))


@case
def real_fft(p):
    x, x7, a, b = p("x", [2, 6]), p("x7", [2, 7]), p("a", [2, 4]), p("b", [2, 4])
    t, u = tf.signal.rfft(x), tf.signal.rfft(x7)
    z = tf.complex(a, b)
    tt = tf.linalg.adjoint(tf.reshape(z * z, [2, 2, 2]))   # ConjugateTranspose
    return flat_concat(tf.math.real(t), tf.math.imag(t) * 0.7, tf.math.real(u) - tf.math.imag(u),
                       tf.signal.irfft(z, [6]), tf.signal.irfft(z, [7]) * 2.0, tf.math.imag(tt))


@case
def real_fft_2d(p):
    x, a, b = p("x", [2, 3, 4]), p("a", [4, 3]), p("b", [4, 3])
    t = tf.signal.rfft2d(x)
    z = tf.complex(a, b)
    return flat_concat(tf.math.real(t) - tf.math.imag(t) * 0.3, tf.signal.irfft2d(z, [4, 4]),
                       tf.signal.irfft2d(z, [4, 5]) * 0.5)


@case
def projective_transform(p):
    x = p("x", [1, 4, 5, 2])
    t = tf.constant([[1, 0, 1, 0, 1, -1, 0, 0]], tf.float32)
    return (tf.raw_ops.ImageProjectiveTransformV2(images=x, transforms=t, output_shape=[4, 5],
                                                  interpolation="BILINEAR")
            + tf.raw_ops.ImageProjectiveTransformV3(images=x, transforms=t, output_shape=[4, 5],
                                                    fill_value=0.0, interpolation="NEAREST"))


@case
def extract_patches(p):
    x = p("x", [2, 4, 3, 2])
    return tf.image.extract_patches(x, sizes=[1, 2, 2, 1], strides=[1, 2, 1, 1],
                                    rates=[1, 1, 2, 1], padding="SAME") * 1.5


@case
def crop_and_resize(p):
    image, boxes = p("image", [1, 4, 4, 2]), p("boxes", [2, 4], 0.1, 0.9)
    return tf.image.crop_and_resize(image, boxes, [0, 0], [3, 3])


@case
def resize_bicubic(p):
    x = p("x", [1, 3, 3, 1])
    return tf.compat.v1.image.resize_bicubic(x, [5, 4])


@case
def resize_bicubic_variants(p):
    x = p("x", [2, 4, 3, 2])
    r = tf.raw_ops
    return flat_concat(r.ResizeBicubic(images=x, size=[7, 5], align_corners=True),
                       r.ResizeBicubic(images=x, size=[3, 6], half_pixel_centers=True) * 2.0,
                       r.ResizeBicubic(images=x, size=[2, 2], half_pixel_centers=True))


@case
def einsum_repeated(p):
    a, b, c = p("a", [3, 3]), p("b", [3, 3, 2]), p("c", [2, 4])
    return flat_concat(tf.einsum("ii->", a), tf.einsum("ii->i", a) * 2.0,
                       tf.einsum("iij,jk->ik", b, c), tf.einsum("iij,k->k", b, c[0]))


@case
def activation_grad_grads(p):
    a, b = p("a", [2, 3]), p("b", [2, 3], 0.5, 2.0)
    r = tf.raw_ops
    return (r.ReluGrad(gradients=a, features=b - 1.2) + r.Relu6Grad(gradients=a, features=b * 4.0 - 2.0)
            + r.LeakyReluGrad(gradients=a, features=b - 1.2, alpha=0.3)
            + r.EluGrad(gradients=a, outputs=b - 1.4) + r.SeluGrad(gradients=a, outputs=b - 1.6)
            + r.SoftplusGrad(gradients=a, features=b - 1.0))


@case
def math_grad_grads(p):
    a, b = p("a", [2, 3]), p("b", [2, 3], 0.5, 2.0)
    r = tf.raw_ops
    return (r.SigmoidGrad(y=b * 0.4, dy=a) + r.TanhGrad(y=b - 1.0, dy=a) + r.SqrtGrad(y=b, dy=a)
            + r.RsqrtGrad(y=b, dy=a) + r.ReciprocalGrad(y=b, dy=a) + r.InvGrad(y=b, dy=a) * 0.5)


@case
def pool_conv_grad_grads(p):
    x, g, o = p("x", [1, 4, 4, 2]), p("g", [1, 2, 2, 2]), p("o", [1, 4, 2, 3])
    f, d = p("f", [2, 2, 2, 2]), p("d", [1, 3, 3, 4])
    r = tf.raw_ops
    win = dict(ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID")
    pooled = r.MaxPool(input=x, **win)
    mpg = r.MaxPoolGrad(orig_input=x, orig_output=pooled, grad=g, **win)
    mpgg = r.MaxPoolGradGrad(orig_input=x, orig_output=pooled, grad=mpg * 2.0, **win)
    mpg2 = r.MaxPoolGradV2(orig_input=x, orig_output=pooled, grad=g, ksize=[1, 2, 2, 1],
                           strides=[1, 2, 2, 1], padding="VALID")
    apg = r.AvgPoolGrad(orig_input_shape=[1, 4, 4, 2], grad=g, **win)
    cbf = r.Conv2DBackpropFilter(input=x, filter_sizes=[2, 2, 2, 3], out_backprop=o,
                                 strides=[1, 1, 2, 1], padding="SAME")
    dw = dict(strides=[1, 1, 1, 1], padding="VALID")
    dwf = r.DepthwiseConv2dNativeBackpropFilter(input=x, filter_sizes=[2, 2, 2, 2], out_backprop=d, **dw)
    dwi = r.DepthwiseConv2dNativeBackpropInput(input_sizes=[1, 4, 4, 2], filter=f, out_backprop=d, **dw)
    return flat_concat(mpg, mpgg, mpg2, apg, cbf, dwf, dwi, r.BiasAddGrad(out_backprop=o),
                       r.BiasAddGrad(out_backprop=x, data_format="NCHW"))


@case
def pool_conv_3d(p):
    x, f, o = p("x", [1, 3, 3, 3, 2]), p("f", [2, 2, 2, 2, 3]), p("o", [1, 2, 2, 2, 3])
    v, g = p("v", [1, 4, 4, 4, 2]), p("g", [1, 2, 2, 2, 2])
    r = tf.raw_ops
    conv = dict(strides=[1, 1, 1, 1, 1], padding="VALID")
    win = dict(ksize=[1, 2, 2, 2, 1], strides=[1, 2, 2, 2, 1], padding="VALID")
    mx = r.MaxPool3D(input=v, **win)
    mg = r.MaxPool3DGrad(orig_input=v, orig_output=mx, grad=g, **win)
    return flat_concat(
        r.Conv3D(input=x, filter=f, **conv),
        r.Conv3DBackpropInputV2(input_sizes=[1, 3, 3, 3, 2], filter=f, out_backprop=o, **conv),
        r.Conv3DBackpropFilterV2(input=x, filter_sizes=[2, 2, 2, 2, 3], out_backprop=o, **conv),
        r.AvgPool3D(input=v, **win), mx, mg,
        r.MaxPool3DGradGrad(orig_input=v, orig_output=mx, grad=mg * 2.0, **win),
        r.AvgPool3DGrad(orig_input_shape=[1, 4, 4, 4, 2], grad=g, **win))


@case
def batch_norms(p):
    x, scale, offset = p("x", [2, 2, 2, 3]), p("scale", [3], 0.5, 1.5), p("offset", [3])
    mean, var = p("mean", [3]), p("var", [3], 0.5, 1.5)
    r = tf.raw_ops
    empty = tf.constant([], tf.float32)
    train = dict(x=x, scale=scale, offset=offset, mean=empty, variance=empty, is_training=True)
    infer = dict(x=x, scale=scale, offset=offset, mean=mean, variance=var, is_training=False)
    return flat_concat(
        r.FusedBatchNorm(**train).y, r.FusedBatchNormV2(**train).y * 2.0,
        r.FusedBatchNorm(**infer).y, r.FusedBatchNormV2(**infer).y * 0.5,
        mean * var,  # (inference gives them no gradient; BatchNormWithGlobalNormalization,
                     # which would, is too old for TensorFlow 2.21 to build: sg checks it
                     # against finite differences only)
        r.BiasAddV1(value=x, bias=offset),
        r.MaxPoolWithArgmax(input=x, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="SAME").output)


@case
def array_more(p):
    x, im, u, v, m = p("x", [2, 3]), p("im", [1, 4, 2, 2]), p("u", [4, 3]), p("v", [3]), p("m", [5, 4])
    r = tf.raw_ops
    i64 = lambda t: tf.constant(t, tf.int64)  # noqa: E731
    s2b = r.SpaceToBatchND(input=im, block_shape=[2, 2], paddings=[[0, 0], [0, 0]])
    s2b1 = r.SpaceToBatch(input=im, paddings=[[0, 0], [1, 1]], block_size=2)
    return flat_concat(
        r.Reverse(tensor=x, dims=[True, False]), r.CheckNumerics(tensor=x, message="x"),
        r.CheckNumericsV2(tensor=x * 2.0, message="x"), r.EnsureShape(input=x, shape=[2, 3]),
        r.PlaceholderWithDefault(input=x * 3.0, shape=[2, 3]),
        r.Print(input=x, data=[x], message="oracle: "),
        r.Diag(diagonal=x), r.DiagPart(input=r.Diag(diagonal=x * x)),
        s2b, r.BatchToSpaceND(input=s2b * s2b, block_shape=[2, 2], crops=[[0, 1], [0, 0]]),
        s2b1, r.BatchToSpace(input=s2b1 * 2.0, crops=[[1, 0], [0, 2]], block_size=2),
        r.SpaceToDepth(input=im, block_size=2), r.DepthToSpace(input=r.SpaceToDepth(input=im * im, block_size=2), block_size=2),
        r.TensorStridedSliceUpdate(input=u, begin=[0, 0], end=[4, 3], strides=[2, 1], value=x),
        r.TensorStridedSliceUpdate(input=u * 2.0, begin=[1, 0], end=[3, 3], strides=[1, 1], value=v),
        r.MirrorPadGrad(input=m, paddings=[[1, 1], [1, 0]], mode="REFLECT"),
        r.StridedSliceGrad(shape=[4, 5], begin=[0, 1], end=[4, 5], strides=[2, 2], dy=x[:, :2]),
        r.QuantizeAndDequantizeV2(input=x, input_min=-1.0, input_max=1.0, range_given=True),
        r.QuantizeAndDequantizeV3(input=x, input_min=-1.0, input_max=1.0, num_bits=4, range_given=True),
        r.QuantizeAndDequantizeV4(input=x, input_min=-0.5, input_max=0.5, range_given=True),
        r.QuantizeAndDequantizeV4(input=x * 2.0, input_min=[-0.5, -1.0, 0.0], input_max=[0.5, 0.2, 1.0],
                                  axis=1, range_given=True),
        tf.reshape(r.SparseFillEmptyRows(indices=i64([[0, 1], [2, 0], [2, 2]]), values=v,
                                         dense_shape=i64([4, 3]),
                                         default_value=x[0, 0]).output_values, [5]))


@case
def fake_quant(p):
    x, mn, mx = p("x", [2, 4], -1.5, 1.5), p("mn", [], -1.2, -0.8), p("mx", [], 0.8, 1.2)
    mnc, mxc = p("mnc", [4], -1.2, -0.8), p("mxc", [4], 0.8, 1.2)
    r = tf.raw_ops
    return flat_concat(r.FakeQuantWithMinMaxArgs(inputs=x, min=-1.0, max=1.0),
                       r.FakeQuantWithMinMaxVars(inputs=x * 0.9, min=mn, max=mx) * 2.0,
                       r.FakeQuantWithMinMaxVarsPerChannel(inputs=x, min=mnc, max=mxc, num_bits=4))


base.FLOAT32_CASES.update({"crop_and_resize", "resize_bicubic", "resize_bicubic_variants",
                           "pool_conv_grad_grads", "pool_conv_3d", "batch_norms", "fake_quant"})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(HERE, "grad_cases_more"))
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    base.tf1.disable_eager_execution()
    for name, fn in CASES.items():
        if args.only and name not in args.only:
            continue
        base.make(name, fn, args.out)


if __name__ == "__main__":
    main()
