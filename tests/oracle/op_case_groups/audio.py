"""Op conformance cases: WAV codecs and audio spectrograms."""

from op_case_lib import *  # noqa: F401,F403


def wav_bytes(samples, rate, channels):
    import struct
    data = np.asarray(samples, dtype="<i2").tobytes()
    return (b"RIFF" + struct.pack("<I", 36 + len(data)) + b"WAVE" + b"fmt " +
            struct.pack("<IHHIIHH", 16, 1, channels, rate, rate * channels * 2, channels * 2, 16) +
            b"data" + struct.pack("<I", len(data)) + data)


@group
def audio(g):
    rng = np.random.default_rng(5)
    mono = (np.sin(np.arange(64) * 0.3) * 20000).astype(np.int16)
    stereo = rng.integers(-32768, 32767, [40, 2]).astype(np.int16)
    for sname, data, rate, ch, want_ch, want_n in [
            ("mono", mono, 16000, 1, -1, -1), ("stereo", stereo.reshape(-1), 8000, 2, -1, -1),
            ("to_mono", stereo.reshape(-1), 8000, 2, 1, -1),
            ("pad", mono, 16000, 1, -1, 100), ("truncate", mono, 16000, 1, 2, 10)]:
        g.case(f"DecodeWav.none.{sname}",
               lambda: list(raw.DecodeWav(contents=g.const(wav_bytes(data, rate, ch), "string"),
                                          desired_channels=want_ch, desired_samples=want_n,
                                          name="op")))
    g.case("DecodeWav.none.not_wav",
           lambda: list(raw.DecodeWav(contents=g.const(b"RIFX1234", "string"), name="op")),
           error=True)
    signal = np.sin(np.arange(400) * 0.05)[:, None] + 0.25 * rng.uniform(-1, 1, [400, 1])
    for sname, win, stride, sq in [("default", 64, 32, False), ("squared", 50, 20, True),
                                   ("odd", 33, 17, False)]:
        g.case(f"AudioSpectrogram.float.{sname}",
               lambda: raw.AudioSpectrogram(input=g.const(signal, "float32"), window_size=win,
                                            stride=stride, magnitude_squared=sq, name="op"),
               rtol=1e-4, atol=1e-4)
    g.case("AudioSpectrogram.float.stereo",
           lambda: raw.AudioSpectrogram(input=g.const(np.concatenate([signal, -signal], 1),
                                                      "float32"),
                                        window_size=64, stride=64, name="op"),
           rtol=1e-4, atol=1e-4)
    def mfcc(**kw):
        spec = raw.AudioSpectrogram(input=g.const(signal, "float32"), window_size=256,
                                    stride=128, magnitude_squared=True, name="spectrogram")
        return raw.Mfcc(spectrogram=spec, sample_rate=g.const(16000, "int32"), name="op", **kw)
    g.case("Mfcc.float.default", lambda: mfcc(), rtol=1e-3, atol=1e-3)
    g.case("Mfcc.float.options",
           lambda: mfcc(upper_frequency_limit=3000.0, lower_frequency_limit=100.0,
                        filterbank_channel_count=20, dct_coefficient_count=8),
           rtol=1e-3, atol=1e-3)
