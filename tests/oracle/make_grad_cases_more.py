#!/usr/bin/env python3
"""TensorFlow's tf.gradients values for the ops of core/gradients/{segment,linalg,math_grad_extra,
resource,image}_grad.cc (the oracle half of tests/core/gradients_more_test.cc).

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


base.FLOAT32_CASES.update({"crop_and_resize", "resize_bicubic"})


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
