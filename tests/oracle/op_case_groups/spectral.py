"""Op conformance cases: Complex numbers and the FFT family."""

from op_case_lib import *  # noqa: F401,F403
from op_case_groups.math import BINARY_SHAPES, BINARY_SHAPES_MAIN


def complex_special(dt):
    """Complex edge values: every pair of real and imaginary parts from signed zeros, small and
    large magnitudes, infinities and NaN."""
    parts = np.array([0.0, -0.0, 1.5, -2.5, 1e-3, 60.0, np.inf, -np.inf, np.nan])
    re, im = np.meshgrid(parts, parts)
    out = np.empty(re.size, dtype=npdtype(dt))  # not re + 1j * im: inf * 1j has a NaN real part
    out.real, out.imag = re.reshape(-1), im.reshape(-1)
    return out


@group
def complex_numbers(g):
    """Complex, Real, Imag, ComplexAbs, Angle, Conj and ConjugateTranspose."""
    pairs = [("float32", "complex64"), ("float64", "complex128")]
    for rdt, cdt in pairs:
        for sname, xs, ys in BINARY_SHAPES + BINARY_SHAPES_MAIN:
            g.case(f"Complex.{sgname(rdt)}.{sname}",
                   lambda: raw.Complex(real=g.rand(rdt, xs), imag=g.rand(rdt, ys), Tout=cdt,
                                       name="op"))
        g.case(f"Complex.{sgname(rdt)}.special",
               lambda: raw.Complex(real=g.const(special_values(rdt).reshape(-1, 1), rdt),
                                   imag=g.const(special_values(rdt).reshape(1, -1), rdt),
                                   Tout=cdt, name="op"))
        g.case(f"Complex.{sgname(rdt)}.incompatible",
               lambda: raw.Complex(real=hide_shape(g.rand(rdt, [2, 3])),
                                   imag=hide_shape(g.rand(rdt, [4])), Tout=cdt, name="op"),
               error=True)
        for op in ("Real", "Imag", "ComplexAbs", "Angle"):
            f = op_fn(op)
            arg = "x" if op == "ComplexAbs" else "input"
            for sname, shape in [("mat", [2, 3]), ("scalar", []), ("empty", [0, 3]),
                                 ("vec", [67]), ("rank4", [2, 1, 3, 2])]:
                g.case(f"{op}.{sgname(cdt)}.{sname}",
                       lambda: f(**{arg: g.rand(cdt, shape)}, Tout=rdt, name="op"))
            g.case(f"{op}.{sgname(cdt)}.special",
                   lambda: f(**{arg: g.const(complex_special(cdt), cdt)}, Tout=rdt, name="op"))
        for sname, shape in [("mat", [2, 3]), ("scalar", []), ("empty", [0, 3]), ("vec", [67])]:
            g.case(f"Conj.{sgname(cdt)}.{sname}",
                   lambda: raw.Conj(input=g.rand(cdt, shape), name="op"))
        g.case(f"Conj.{sgname(cdt)}.special",
               lambda: raw.Conj(input=g.const(complex_special(cdt), cdt), name="op"))
    # (Not string: TensorFlow 2.21's ConjugateTranspose aborts the process on strings.)
    for dt in ["complex64", "complex128", "float32", "float64", "int32", "int64", "uint8",
               "bool", "float16", "bfloat16"]:
        for sname, shape, perm in [("mat", [2, 3], [1, 0]), ("rank3", [2, 3, 4], [2, 0, 1]),
                                   ("identity", [2, 3], [0, 1]), ("scalar", [], []),
                                   ("empty", [0, 3, 2], [1, 2, 0])]:
            g.case(f"ConjugateTranspose.{sgname(dt)}.{sname}",
                   lambda: raw.ConjugateTranspose(x=g.rand(dt, shape),
                                                  perm=g.const(perm, "int32"), name="op"))
    g.case("ConjugateTranspose.complex64.perm_int64",
           lambda: raw.ConjugateTranspose(x=g.rand("complex64", [2, 3, 1]),
                                          perm=g.const([2, 1, 0], "int64"), name="op"))
    for sname, perm in [("perm_out_of_range", [0, 3]), ("perm_duplicate", [1, 1]),
                        ("perm_size", [1, 0, 2])]:
        g.case(f"ConjugateTranspose.complex64.{sname}",
               lambda: raw.ConjugateTranspose(x=hide_shape(g.rand("complex64", [2, 3])),
                                              perm=hide_shape(g.const(perm, "int32")),
                                              name="op"), error=True)


def fft_atol(dt, expected, n):
    """Absolute tolerance of an FFT output: a few ulps of the dtype (float32 for complex64),
    times log2 of the transform size, times the output's root mean square. The float rounding of
    an FFT grows with the number of butterfly stages and with the signal's energy, not with each
    output term's own size, so a term that cancels to near zero needs this absolute margin."""
    eps = np.finfo(np.float32 if tf.as_dtype(dt).name in ("float32", "complex64")
                   else np.float64).eps
    rms = float(np.sqrt(np.mean(np.abs(expected) ** 2))) if np.size(expected) else 0.0
    return float(8 * eps * max(1.0, np.log2(max(n, 1))) * max(rms, 1.0))


@group
def spectral(g):
    """FFT, IFFT, RFFT, IRFFT and their 2D and 3D forms."""
    cases = {
        1: [("n1", [1]), ("n2", [2]), ("n3", [3]), ("n5", [5]), ("n7", [7]), ("n8", [8]),
            ("n12", [12]), ("n17", [17]), ("n64", [64]), ("n100", [100]), ("n512", [512]),
            ("batch", [3, 16]), ("batch_rank3", [2, 3, 10]), ("empty", [2, 0]),
            ("empty_batch", [0, 4])],
        2: [("4x6", [4, 6]), ("1x1", [1, 1]), ("5x7", [5, 7]), ("batch", [3, 8, 8]),
            ("16x16", [16, 16]), ("empty", [3, 0])],
        3: [("2x3x4", [2, 3, 4]), ("4x4x4", [4, 4, 4]), ("batch", [2, 3, 5, 2]),
            ("4x8x8", [4, 8, 8]), ("empty", [0, 2, 2])],
    }
    suffix = {1: "", 2: "2D", 3: "3D"}
    for rank in (1, 2, 3):
        for inverse in (False, True):
            op = ("IFFT" if inverse else "FFT") + suffix[rank]
            f = op_fn(op)
            npf = np.fft.ifftn if inverse else np.fft.fftn
            for dt in tf_types(op, "Tcomplex"):
                for sname, shape in cases[rank]:
                    if sname == "n512" and dt == "complex128":
                        continue  # the long transform in single precision only (file size)
                    def build(shape=shape):
                        x = g.vals(dt, shape)
                        axes = tuple(range(len(shape) - rank, len(shape)))
                        want = npf(x, axes=axes) if x.size else x
                        n = int(np.prod(shape[-rank:]))
                        return Out(f(input=g.const(x, dt), name="op"),
                                   atol=fft_atol(dt, want, n))
                    g.case(f"{op}.{sgname(dt)}.{sname}", build)
            g.case(f"{op}.complex64.rank_too_low",
                   lambda: f(input=hide_rank(g.rand("complex64", [4] * (rank - 1))), name="op"),
                   error=True)

    # (name, input shape, fft_length) per rank; the input may be longer than fft_length (the
    # op crops it). For the inverse ops the input's last dim is the half spectrum's. No
    # fft_length of 0: TensorFlow 2.21 aborts the process on one (sg gives zeros or an empty
    # output).
    real_cases = {
        1: [("n1", [1], [1]), ("n2", [2], [2]), ("n3", [3], [3]), ("n4", [4], [4]),
            ("n5", [5], [5]), ("n9", [9], [9]), ("n16", [16], [16]), ("n17", [17], [17]),
            ("n100", [100], [100]), ("n256", [256], [256]), ("n512", [512], [512]),
            ("batch", [3, 2, 12], [12]), ("crop", [2, 10], [7]), ("crop_even", [2, 10], [6]),
            ("empty_batch", [0, 8], [8])],
        2: [("4x6", [4, 6], [4, 6]), ("5x7", [5, 7], [5, 7]), ("1x1", [1, 1], [1, 1]),
            ("batch", [2, 8, 8], [8, 8]), ("crop", [5, 9], [3, 6]), ("16x16", [16, 16], [16, 16])],
        3: [("2x3x4", [2, 3, 4], [2, 3, 4]), ("3x3x5", [3, 3, 5], [3, 3, 5]),
            ("batch", [2, 2, 4, 6], [2, 4, 6]), ("crop", [3, 4, 9], [2, 3, 7]),
            ("4x8x8", [4, 8, 8], [4, 8, 8])],
    }
    pairs = [("float32", "complex64"), ("float64", "complex128")]
    for rank in (1, 2, 3):
        for inverse in (False, True):
            op = ("IRFFT" if inverse else "RFFT") + suffix[rank]
            f = op_fn(op)
            for rdt, cdt in pairs:
                dt = cdt if inverse else rdt
                other_type = {"Treal": rdt} if inverse else {"Tcomplex": cdt}
                for sname, shape, fft in real_cases[rank]:
                    if sname == "n512" and rdt == "float64":
                        continue  # the long transform in single precision only (file size)
                    def build(shape=shape, fft=fft):
                        shape = list(shape)
                        if inverse:  # the half spectrum, one longer than needed when cropping
                            shape[-1] = fft[-1] // 2 + 1 + (1 if "crop" in sname else 0)
                        x = g.vals(dt, shape)
                        axes = tuple(range(len(shape) - rank, len(shape)))
                        crop = tuple([slice(None)] * (len(shape) - rank) +
                                     [slice(0, m) for m in fft[:-1]] +
                                     [slice(0, fft[-1] // 2 + 1 if inverse else fft[-1])])
                        n = int(np.prod(fft))
                        if x.size == 0 or n == 0:
                            want = np.zeros(0)
                        elif inverse:
                            want = np.fft.irfftn(x[crop], s=fft, axes=axes)
                        else:
                            want = np.fft.rfftn(x[crop], s=fft, axes=axes)
                        return Out(f(input=g.const(x, dt), fft_length=g.const(fft, "int32"),
                                     **other_type, name="op"),
                                   atol=fft_atol(dt, want, n))
                    g.case(f"{op}.{sgname(dt)}.{sname}", build)
            # Errors, seen by the kernel only: too small an input, a negative or misshapen
            # fft_length, too low a rank.
            rdt, cdt = pairs[0]
            dt = cdt if inverse else rdt
            other_type = {"Treal": rdt} if inverse else {"Tcomplex": cdt}
            fft = [4] * rank
            short = [4] * (rank - 1) + [2]
            for sname, shape, length in [("input_too_short", short, fft),
                                         ("negative_length", [4] * rank, [4] * (rank - 1) + [-1]),
                                         ("length_shape", [4] * rank, fft + [4]),
                                         ("rank_too_low", [4] * (rank - 1), fft)]:
                g.case(f"{op}.{sgname(dt)}.{sname}",
                       lambda: f(input=hide_rank(g.rand(dt, shape)),
                                 fft_length=hide_shape(g.const(length, "int32")),
                                 **other_type, name="op"), error=True)
