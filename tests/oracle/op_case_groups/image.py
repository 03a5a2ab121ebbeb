"""Op conformance cases: Image codecs (files made here), resizing, crops, colour ops, transforms and NMS."""

from op_case_lib import *  # noqa: F401,F403


# ---- images: files made here (PNG, GIF and BMP by hand, JPEG by TensorFlow's encoder) ----------


def test_image(rng, h, w, c=3):
    """Smooth gradients and waves with some noise, uint8 [h, w, c]: JPEG keeps it well."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    planes = [xx / max(w - 1, 1), yy / max(h - 1, 1), 0.5 + 0.5 * np.sin(xx / 2.5 + yy / 4.0),
              0.5 + 0.5 * np.cos(xx / 3.0 - yy / 2.0)]
    img = np.stack(planes[:c], axis=2) * 255 + rng.uniform(-20, 20, (h, w, c))
    return np.clip(np.round(img), 0, 255).astype(np.uint8)


def tf_run(build):
    """Runs build() in a graph of its own (TensorFlow writing a test file)."""
    with tf.Graph().as_default():
        out = build()
        with tf.compat.v1.Session(config=session_config()) as sess:
            return sess.run(out)


def jpeg_bytes(img, **kw):
    return tf_run(lambda: raw.EncodeJpeg(image=tf.constant(img), **kw))


def png_bytes(pixels, color_type, bit_depth, palette=None, trns=None, interlace=False):
    """A PNG of `pixels` ([h, w, c] samples, or [h, w] palette indices), unfiltered rows."""
    import struct
    pixels = np.asarray(pixels)
    h, w = pixels.shape[:2]

    def chunk(tag, data):
        return (struct.pack(">I", len(data)) + tag + data +
                struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF))

    def rows(img):
        out = b""
        for y in range(img.shape[0]):
            row = img[y].reshape(-1).astype(np.int64)
            if bit_depth == 16:
                data = row.astype(">u2").tobytes()
            elif bit_depth == 8:
                data = row.astype(np.uint8).tobytes()
            else:
                per = 8 // bit_depth
                row = np.concatenate([row, np.zeros((-len(row)) % per, np.int64)])
                packed = np.zeros(len(row) // per, np.int64)
                for k in range(per):
                    packed = packed | (row[k::per] << (8 - bit_depth * (k + 1)))
                data = packed.astype(np.uint8).tobytes()
            out += b"\x00" + data
        return out

    img = pixels.reshape(h, w, -1)
    if interlace:  # Adam7: seven sub-images, the empty ones left out
        raw_data = b"".join(rows(img[y0::dy, x0::dx]) for x0, y0, dx, dy in
                            [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4),
                             (1, 0, 2, 2), (0, 1, 1, 2)] if img[y0::dy, x0::dx].size)
    else:
        raw_data = rows(img)
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, bit_depth,
                                                            color_type, 0, 0, int(interlace)))
    if palette is not None:
        out += chunk(b"PLTE", np.asarray(palette, np.uint8).tobytes())
    if trns is not None:
        out += chunk(b"tRNS", trns)
    return out + chunk(b"IDAT", zlib.compress(raw_data, 9)) + chunk(b"IEND", b"")


def gif_bytes(width, height, frames, palette=None):
    """A GIF89a; each frame is a dict: indices [h, w], and optional left, top, palette (a local
    color table) and transparent (an index). LZW codes stay 9 bits wide (a clear code every 100
    literals), which every decoder reads."""
    import struct

    def table(colors):
        colors = np.asarray(colors, np.uint8).reshape(-1, 3)
        bits = max(1, int(np.ceil(np.log2(len(colors)))))
        padded = np.zeros((1 << bits, 3), np.uint8)
        padded[:len(colors)] = colors
        return bits, padded.tobytes()

    def lzw(indices):
        codes, bits = [], 9
        for i, v in enumerate(indices):
            if i % 100 == 0:
                codes.append(256)
            codes.append(int(v))
        codes.append(257)
        acc, n, out = 0, 0, bytearray()
        for c in codes:
            acc |= c << n
            n += bits
            while n >= 8:
                out.append(acc & 0xFF)
                acc >>= 8
                n -= 8
        if n:
            out.append(acc & 0xFF)
        blocks = b"".join(bytes([len(out[i:i + 255])]) + bytes(out[i:i + 255])
                          for i in range(0, len(out), 255))
        return bytes([8]) + blocks + b"\x00"

    out = b"GIF89a" + struct.pack("<HH", width, height)
    if palette is not None:
        bits, data = table(palette)
        out += bytes([0x80 | 0x70 | (bits - 1), 0, 0]) + data
    else:
        out += bytes([0, 0, 0])
    for f in frames:
        idx = np.asarray(f["indices"], np.uint8)
        if "transparent" in f:
            out += bytes([0x21, 0xF9, 4, 1, 0, 0, f["transparent"], 0])
        packed, local = 0, b""
        if "palette" in f:
            bits, local = table(f["palette"])
            packed = 0x80 | (bits - 1)
        out += b"\x2C" + struct.pack("<HHHHB", f.get("left", 0), f.get("top", 0), idx.shape[1],
                                     idx.shape[0], packed) + local
        out += lzw(idx.reshape(-1))
    return out + b"\x3B"


def bmp_bytes(pixels, bpp, top_down=False):
    """An uncompressed BMP: RGB(A) pixels [h, w, 3 or 4] as BGR(A), or gray [h, w, 1] at 8 bits;
    rows bottom-up unless top_down, padded to 4 bytes."""
    import struct
    pixels = np.asarray(pixels, np.uint8)
    h, w, c = pixels.shape
    data = b""
    for y in (range(h) if top_down else range(h - 1, -1, -1)):
        row = pixels[y]
        if c >= 3:
            row = row[:, [2, 1, 0] + ([3] if c == 4 else [])]
        b = row.tobytes()
        data += b + b"\x00" * ((-len(b)) % 4)
    header = struct.pack("<IiiHHIIiiII", 40, w, -h if top_down else h, 1, bpp, 0, len(data),
                         2835, 2835, 0, 0)
    return b"BM" + struct.pack("<IHHI", 14 + 40 + len(data), 0, 0, 14 + 40) + header + data


@group
def image_codecs(g):
    rng = np.random.default_rng(11)
    rgb = test_image(rng, 17, 23)
    small = test_image(rng, 8, 6)
    gray = test_image(rng, 13, 9, 1)
    jpegs = {
        "rgb": jpeg_bytes(rgb),
        "q50": jpeg_bytes(rgb, quality=50),
        "444": jpeg_bytes(rgb, chroma_downsampling=False),
        "progressive": jpeg_bytes(rgb, progressive=True),
        "gray": jpeg_bytes(gray),
    }

    def decode_jpeg(data, **kw):
        return raw.DecodeJpeg(contents=g.const(data, "string"), name="op", **kw)
    for name, data in jpegs.items():
        g.case(f"DecodeJpeg.uint8.{name}", lambda: decode_jpeg(data))
    for ch in (1, 3):
        g.case(f"DecodeJpeg.uint8.rgb_channels{ch}", lambda: decode_jpeg(jpegs["rgb"], channels=ch))
        g.case(f"DecodeJpeg.uint8.gray_channels{ch}",
               lambda: decode_jpeg(jpegs["gray"], channels=ch))
    for ratio in (2, 4, 8):
        g.case(f"DecodeJpeg.uint8.ratio{ratio}", lambda: decode_jpeg(jpegs["rgb"], ratio=ratio))
    for dct in ("INTEGER_FAST", "INTEGER_ACCURATE"):
        g.case(f"DecodeJpeg.uint8.{dct.lower()}", lambda: decode_jpeg(jpegs["q50"], dct_method=dct))
    g.case("DecodeJpeg.uint8.no_fancy_upscaling",
           lambda: decode_jpeg(jpegs["rgb"], fancy_upscaling=False))
    g.case("DecodeJpeg.uint8.accurate_no_fancy",
           lambda: decode_jpeg(jpegs["progressive"], fancy_upscaling=False,
                               dct_method="INTEGER_ACCURATE", channels=1))
    # Damaged files: libjpeg's own recovery (warnings) must give TensorFlow's pixels; truncation
    # fails unless recovery is asked for; garbage fails.
    corrupt = bytearray(jpegs["rgb"])
    for i in range(len(corrupt) - 120, len(corrupt) - 40, 7):
        corrupt[i] ^= 0x5A
    g.case("DecodeJpeg.uint8.corrupt_marker", lambda: decode_jpeg(bytes(corrupt)), error=True)
    # Bad entropy codes but no marker in the scan: libjpeg warns and decodes on.
    scrambled = bytearray(jpegs["rgb"])
    sos = scrambled.index(b"\xff\xda")
    scan = sos + 2 + int.from_bytes(scrambled[sos + 2:sos + 4], "big")
    for i in range(scan + 40, len(scrambled) - 10, 5):
        if 0xFF not in scrambled[i - 1:i + 1]:  # leave markers and stuffed bytes alone
            scrambled[i] = (scrambled[i] * 7 + 3) & 0x7F
    g.case("DecodeJpeg.uint8.corrupt_scan", lambda: decode_jpeg(bytes(scrambled)))
    truncated = jpegs["rgb"][:len(jpegs["rgb"]) * 2 // 3]
    g.case("DecodeJpeg.uint8.truncated", lambda: decode_jpeg(truncated), error=True)
    g.case("DecodeJpeg.uint8.truncated_recover",
           lambda: decode_jpeg(truncated, try_recover_truncated=True))
    g.case("DecodeJpeg.uint8.truncated_recover_fraction",
           lambda: decode_jpeg(truncated, try_recover_truncated=True, acceptable_fraction=0.5))
    g.case("DecodeJpeg.uint8.no_eoi", lambda: decode_jpeg(jpegs["rgb"][:-2]), error=True)
    g.case("DecodeJpeg.uint8.header_only", lambda: decode_jpeg(jpegs["rgb"][:200]), error=True)
    g.case("DecodeJpeg.uint8.garbage_after_soi",
           lambda: decode_jpeg(b"\xff\xd8\xff" + bytes(rng.integers(0, 256, 300, np.uint8))),
           error=True)
    g.case("DecodeJpeg.uint8.not_an_image", lambda: decode_jpeg(b"hello, world"), error=True)
    g.case("DecodeJpeg.uint8.empty", lambda: decode_jpeg(b""), error=True)
    g.case("DecodeJpeg.uint8.bad_ratio", lambda: decode_jpeg(jpegs["rgb"], ratio=3), error=True)
    g.case("DecodeJpeg.uint8.four_channels", lambda: decode_jpeg(jpegs["rgb"], channels=4),
           error=True)
    g.case("DecodeJpeg.uint8.bad_dct_method",
           lambda: decode_jpeg(jpegs["rgb"], dct_method="FLOAT"), error=True)
    g.case("DecodeJpeg.uint8.vector_contents",
           lambda: raw.DecodeJpeg(contents=hide_rank(g.const([jpegs["rgb"]], "string")),
                                  name="op"), error=True)

    # DecodeAndCropJpeg: windows on and off the iMCU grid (libjpeg widens them to it).
    big = jpeg_bytes(test_image(rng, 40, 52))
    for name, data, window, kw in [
            ("origin", big, [0, 0, 16, 16], {}), ("unaligned", big, [3, 5, 20, 27], {}),
            ("right_edge", big, [10, 40, 30, 12], {}), ("whole", big, [0, 0, 40, 52], {}),
            ("one_pixel", big, [39, 51, 1, 1], {}), ("gray", jpegs["gray"], [2, 3, 9, 5], {}),
            ("to_gray", big, [7, 9, 11, 13], {"channels": 1}),
            ("ratio2", big, [1, 3, 10, 20], {"ratio": 2}),
            ("no_fancy", big, [5, 17, 17, 17], {"fancy_upscaling": False}),
            ("accurate", big, [5, 17, 17, 17], {"dct_method": "INTEGER_ACCURATE"}),
            ("progressive", jpegs["progressive"], [4, 6, 8, 10], {}),
            ("444", jpegs["444"], [3, 3, 7, 9], {})]:
        g.case(f"DecodeAndCropJpeg.uint8.{name}",
               lambda: raw.DecodeAndCropJpeg(contents=g.const(data, "string"),
                                             crop_window=g.const(window, "int32"), name="op",
                                             **kw))
    for name, window in [("outside", [30, 40, 20, 20]), ("zero_width", [0, 0, 5, 0]),
                         ("negative_x", [0, -1, 5, 5]), ("ratio_outside", [0, 0, 40, 52])]:
        g.case(f"DecodeAndCropJpeg.uint8.{name}",
               lambda: raw.DecodeAndCropJpeg(contents=g.const(big, "string"),
                                             crop_window=g.const(window, "int32"),
                                             ratio=2 if name == "ratio_outside" else 1,
                                             name="op"), error=True)
    g.case("DecodeAndCropJpeg.uint8.three_numbers",
           lambda: raw.DecodeAndCropJpeg(contents=g.const(big, "string"),
                                         crop_window=hide_shape(g.const([0, 0, 5], "int32")),
                                         name="op"), error=True)
    g.case("DecodeAndCropJpeg.uint8.png_file",
           lambda: raw.DecodeAndCropJpeg(contents=g.const(tf_run(lambda: raw.EncodePng(
               image=tf.constant(small))), "string"), crop_window=g.const([0, 0, 2, 2], "int32"),
               name="op"), error=True)
    g.case("DecodeAndCropJpeg.uint8.truncated_recover",
           lambda: raw.DecodeAndCropJpeg(contents=g.const(big[:len(big) // 2], "string"),
                                         crop_window=g.const([20, 8, 18, 30], "int32"),
                                         try_recover_truncated=True, name="op"))
    # ExtractJpegShape reads the headers only.
    for name, data in [("rgb", jpegs["rgb"]), ("gray", jpegs["gray"]),
                       ("progressive", jpegs["progressive"]), ("truncated", big[:len(big) // 2])]:
        for dt in ("int32", "int64"):
            g.case(f"ExtractJpegShape.{dt}.{name}",
                   lambda: raw.ExtractJpegShape(contents=g.const(data, "string"), output_type=dt,
                                                name="op"))
    g.case("ExtractJpegShape.int32.progressive_truncated",
           lambda: raw.ExtractJpegShape(contents=g.const(jpegs["progressive"][:300], "string"),
                                        name="op"))
    g.case("ExtractJpegShape.int32.header_cut",
           lambda: raw.ExtractJpegShape(contents=g.const(jpegs["rgb"][:100], "string"),
                                        name="op"), error=True)
    g.case("ExtractJpegShape.int32.png_file",
           lambda: raw.ExtractJpegShape(contents=g.const(b"\x89PNG\r\n\x1a\n", "string"),
                                        name="op"), error=True)

    # PNG: every color type and bit depth, palettes with transparency, Adam7 interlacing.
    def pngs():
        h, w = 7, 11
        v8 = rng.integers(0, 256, (h, w, 4))
        v16 = rng.integers(0, 65536, (h, w, 4))
        idx = rng.integers(0, 5, (h, w))
        pal = rng.integers(0, 256, (5, 3))
        return {
            "gray8": png_bytes(v8[..., :1], 0, 8),
            "gray16": png_bytes(v16[..., :1], 0, 16),
            "gray1": png_bytes(v8[..., :1] % 2, 0, 1),
            "gray4": png_bytes(v8[..., :1] % 16, 0, 4),
            "gray_trns": png_bytes(v8[..., :1], 0, 8, trns=bytes([0, int(v8[0, 0, 0])])),
            "gray_alpha": png_bytes(v8[..., :2], 4, 8),
            "gray_alpha16": png_bytes(v16[..., :2], 4, 16),
            "rgb8": png_bytes(v8[..., :3], 2, 8),
            "rgb16": png_bytes(v16[..., :3], 2, 16),
            "rgba8": png_bytes(v8, 6, 8),
            "rgba16": png_bytes(v16, 6, 16),
            "palette": png_bytes(idx, 3, 8, palette=pal),
            "palette2": png_bytes(idx % 4, 3, 2, palette=pal[:4]),
            "palette_trns": png_bytes(idx, 3, 8, palette=pal, trns=bytes([0, 128, 255])),
            "interlaced": png_bytes(v8[..., :3], 2, 8, interlace=True),
            "interlaced16": png_bytes(v16, 6, 16, interlace=True),
        }
    files = pngs()
    for name, data in files.items():
        for ch in (0, 1, 3, 4):
            for dt in ("uint8", "uint16"):
                g.case(f"DecodePng.{dt}.{name}_channels{ch}",
                       lambda: raw.DecodePng(contents=g.const(data, "string"), channels=ch,
                                             dtype=dt, name="op"))
    g.case("DecodePng.uint8.channels2",
           lambda: raw.DecodePng(contents=g.const(files["gray_alpha"], "string"), channels=2,
                                 name="op"), error=True)
    tf_png = tf_run(lambda: raw.EncodePng(image=tf.constant(rgb)))
    g.case("DecodePng.uint8.tensorflow_png",
           lambda: raw.DecodePng(contents=g.const(tf_png, "string"), name="op"))
    bad_crc = bytearray(files["rgb8"])
    bad_crc[40] ^= 1  # inside IDAT
    for name, data in [("bad_crc", bytes(bad_crc)), ("truncated", files["rgb8"][:60]),
                       ("no_iend", files["rgb8"][:-12]), ("signature_only", files["rgb8"][:8])]:
        g.case(f"DecodePng.uint8.{name}",
               lambda: raw.DecodePng(contents=g.const(data, "string"), name="op"), error=True)
    # DecodeJpeg and DecodePng read each other's files; DecodeGif gives 4-D.
    g.case("DecodeJpeg.uint8.png_file",
           lambda: decode_jpeg(files["rgba8"], channels=3))
    g.case("DecodePng.uint16.jpeg_file",
           lambda: raw.DecodePng(contents=g.const(jpegs["rgb"], "string"), dtype="uint16",
                                 name="op"))
    g.case("DecodeGif.uint8.png_file",
           lambda: raw.DecodeGif(contents=g.const(files["gray16"], "string"), name="op"))
    g.case("DecodeGif.uint8.jpeg_file",
           lambda: raw.DecodeGif(contents=g.const(jpegs["gray"], "string"), name="op"))

    # GIF: one frame, animations with offsets, local color tables and transparency.
    pal = rng.integers(0, 256, (6, 3))
    f0 = rng.integers(0, 6, (9, 10))
    gifs = {
        "one_frame": gif_bytes(10, 9, [{"indices": f0}], pal),
        "animated": gif_bytes(10, 9, [
            {"indices": f0},
            {"indices": rng.integers(0, 6, (4, 5)), "left": 3, "top": 2, "transparent": 2},
            {"indices": rng.integers(0, 4, (9, 10)), "palette": rng.integers(0, 256, (4, 3))},
            {"indices": rng.integers(0, 6, (3, 3)), "left": 8, "top": 7}], pal),
        "first_partial": gif_bytes(10, 9, [
            {"indices": rng.integers(0, 6, (5, 6)), "left": 2, "top": 1, "transparent": 0},
            {"indices": rng.integers(0, 6, (9, 10)), "transparent": 1}], pal),
    }
    for name, data in gifs.items():
        g.case(f"DecodeGif.uint8.{name}",
               lambda: raw.DecodeGif(contents=g.const(data, "string"), name="op"))
        for expand in (True, False):
            g.case(f"DecodeImage.uint8.gif_{name}_expand{int(expand)}",
                   lambda: raw.DecodeImage(contents=g.const(data, "string"),
                                           expand_animations=expand, name="op"))
    g.case("DecodeJpeg.uint8.gif_file",
           lambda: decode_jpeg(gifs["one_frame"]))
    g.case("DecodePng.uint8.animated_gif",
           lambda: raw.DecodePng(contents=g.const(gifs["animated"], "string"), name="op"),
           error=True)
    bad_index = gif_bytes(4, 3, [{"indices": np.full((3, 4), 5)}], pal[:2])
    g.case("DecodeGif.uint8.index_outside_palette",
           lambda: raw.DecodeGif(contents=g.const(bad_index, "string"), name="op"), error=True)
    g.case("DecodeGif.uint8.truncated",
           lambda: raw.DecodeGif(contents=g.const(gifs["animated"][:60], "string"), name="op"),
           error=True)
    for name, shape in [("zero_width", (2, 0)), ("zero_height", (0, 3)), ("zero_size", (0, 0))]:
        data = gif_bytes(10, 9, [{"indices": f0}, {"indices": np.zeros(shape)}], pal)
        g.case(f"DecodeGif.uint8.{name}_frame",
               lambda: raw.DecodeGif(contents=g.const(data, "string"), name="op"))
    # A second frame whose pixels end early, or are missing, is dropped.
    import struct
    two = gif_bytes(10, 9, [{"indices": f0}, {"indices": f0[:4]}], pal)
    at = two.rindex(b"\x2C" + struct.pack("<HHHH", 0, 0, 10, 4))
    short = two[:at + 7] + struct.pack("<H", 9) + two[at + 9:]
    g.case("DecodeGif.uint8.frame_ends_early",
           lambda: raw.DecodeGif(contents=g.const(short, "string"), name="op"))
    g.case("DecodeGif.uint8.cut_after_descriptor",
           lambda: raw.DecodeGif(contents=g.const(two[:at + 10], "string"), name="op"))
    g.case("DecodeGif.uint8.no_color_map",
           lambda: raw.DecodeGif(contents=g.const(gif_bytes(4, 3, [{"indices": f0[:3, :4]}]),
                                                  "string"), name="op"), error=True)

    # BMP: 24 and 32 bits, 8-bit gray, top-down rows, row padding.
    rgba = test_image(rng, 5, 7, 4)
    bmps = {
        "rgb24": bmp_bytes(rgba[..., :3], 24),
        "rgba32": bmp_bytes(rgba, 32),
        "gray8": bmp_bytes(rgba[..., :1], 8),
        "top_down": bmp_bytes(rgba[..., :3], 24, top_down=True),
    }
    for name, data in bmps.items():
        for ch in (0, 3, 4):
            g.case(f"DecodeBmp.uint8.{name}_channels{ch}",
                   lambda: raw.DecodeBmp(contents=g.const(data, "string"), channels=ch,
                                         name="op"))
    for name, data in [("extra_byte", bmps["rgb24"] + b"\x00"), ("short", bmps["rgb24"][:-3]),
                       ("header_only", bmps["rgb24"][:30]),
                       ("bpp16", bmps["rgb24"][:28] + b"\x10\x00" + bmps["rgb24"][30:])]:
        g.case(f"DecodeBmp.uint8.{name}",
               lambda: raw.DecodeBmp(contents=g.const(data, "string"), name="op"), error=True)
    g.case("DecodeBmp.uint8.channels1",
           lambda: raw.DecodeBmp(contents=g.const(bmps["rgb24"], "string"), channels=1,
                                 name="op"), error=True)
    g.case("DecodeBmp.uint8.jpeg_file",
           lambda: raw.DecodeBmp(contents=g.const(jpegs["rgb"], "string"), name="op"),
           error=True)
    g.case("DecodeJpeg.uint8.bmp_file", lambda: decode_jpeg(bmps["rgb24"]), error=True)

    # DecodeImage: each format, each dtype (16-bit PNG samples, scaled 8-bit ones, floats).
    files_by_format = [("jpeg", jpegs["rgb"]), ("png8", files["rgba8"]),
                       ("png16", files["rgb16"]), ("gif", gifs["one_frame"]),
                       ("bmp", bmps["rgba32"])]
    for fname, data in files_by_format:
        for dt in ("uint8", "uint16", "float32"):
            for ch in (0, 3):
                g.case(f"DecodeImage.{sgname(dt)}.{fname}_channels{ch}",
                       lambda: raw.DecodeImage(contents=g.const(data, "string"), channels=ch,
                                               dtype=dt, expand_animations=False, name="op"))
    g.case("DecodeImage.uint8.gray_jpeg_channels1",
           lambda: raw.DecodeImage(contents=g.const(jpegs["gray"], "string"), channels=1,
                                   name="op"))
    g.case("DecodeImage.uint8.png_channels4",
           lambda: raw.DecodeImage(contents=g.const(files["palette_trns"], "string"), channels=4,
                                   name="op"))
    g.case("DecodeImage.uint8.gif_channels1",
           lambda: raw.DecodeImage(contents=g.const(gifs["one_frame"], "string"), channels=1,
                                   name="op"), error=True)
    g.case("DecodeImage.uint8.unknown_format",
           lambda: raw.DecodeImage(contents=g.const(b"\x00\x01\x02\x03 not an image", "string"),
                                   name="op"), error=True)

    # Damaged files, decoded (or refused) as TensorFlow does: bytes changed, cut or repeated
    # after the first four (the format stays recognized).
    frng = np.random.default_rng(99)

    def damage(data):
        data = bytearray(data)
        kind = frng.integers(0, 4)
        if kind == 0:
            for _ in range(frng.integers(1, 4)):
                data[frng.integers(4, len(data))] ^= int(frng.integers(1, 256))
        elif kind == 1:
            del data[frng.integers(8, len(data)):]
        elif kind == 2:
            i = int(frng.integers(4, len(data)))
            data[i:i] = data[i:i + int(frng.integers(1, 40))]
        else:
            i = int(frng.integers(4, len(data)))
            data[i:i + int(frng.integers(1, 40))] = bytes(40)[:len(data[i:i + 40])]
        return bytes(data)

    def tf_fails(data):
        try:
            tf_run(lambda: raw.DecodeImage(contents=tf.constant(data, tf.string)))
            return False
        except tf.errors.OpError:
            return True
    for bname, data in [("jpeg", jpegs["rgb"]), ("jpeg_progressive", jpegs["progressive"]),
                        ("jpeg_gray", jpegs["gray"]), ("png", files["rgb8"]),
                        ("png_palette", files["palette_trns"]), ("png_gray1", files["gray1"]),
                        ("png_interlaced", files["interlaced16"]), ("gif", gifs["animated"]),
                        ("gif_partial", gifs["first_partial"]), ("bmp", bmps["rgba32"]),
                        ("bmp_top_down", bmps["top_down"])]:
        for k in range(30):
            damaged = damage(data)
            g.case(f"DecodeImage.uint8.damaged_{bname}_{k}",
                   lambda: raw.DecodeImage(contents=g.const(damaged, "string"), name="op"),
                   error=tf_fails(damaged))

    # Encoders: TensorFlow's bytes.
    for dt, hi in (("uint8", 255), ("uint16", 65535)):
        for ch in (1, 2, 3, 4):
            g.case(f"EncodePng.{dt}.channels{ch}",
                   lambda: raw.EncodePng(image=g.const(rng.integers(0, hi + 1, (6, 9, ch)), dt),
                                         name="op"))
    for level in (0, 1, 9):
        g.case(f"EncodePng.uint8.compression{level}",
               lambda: raw.EncodePng(image=g.const(rgb, "uint8"), compression=level, name="op"))
    g.case("EncodePng.uint8.batch",
           lambda: raw.EncodePng(image=g.const(rng.integers(0, 256, (2, 3, 4, 5, 3)), "uint8"),
                                 name="op"))
    g.case("EncodePng.uint8.empty_batch",
           lambda: raw.EncodePng(image=g.const(np.zeros((0, 4, 5, 3)), "uint8"), name="op"))
    g.case("EncodePng.uint8.five_channels",
           lambda: raw.EncodePng(image=g.const(np.zeros((2, 2, 5)), "uint8"), name="op"),
           error=True)
    g.case("EncodePng.uint8.bad_compression",
           lambda: raw.EncodePng(image=g.const(rgb, "uint8"), compression=10, name="op"),
           error=True)
    for name, img, kw in [
            ("rgb", rgb, {}), ("gray", gray, {}), ("quality10", rgb, {"quality": 10}),
            ("quality100", rgb, {"quality": 100}), ("progressive", rgb, {"progressive": True}),
            ("optimize_size", rgb, {"optimize_size": True}),
            ("no_chroma_downsampling", rgb, {"chroma_downsampling": False}),
            ("density_cm", rgb, {"density_unit": "cm", "x_density": 72, "y_density": 96}),
            ("xmp", small, {"xmp_metadata": "<x:xmpmeta>sg</x:xmpmeta>"}),
            ("format_rgb", small, {"format": "rgb"}),
            ("format_grayscale", gray, {"format": "grayscale"})]:
        g.case(f"EncodeJpeg.uint8.{name}",
               lambda: raw.EncodeJpeg(image=g.const(img, "uint8"), name="op", **kw))
    for name, img, q in [("q0", rgb, 0), ("q50", rgb, 50), ("q100", rgb, 100), ("gray", gray, 75)]:
        g.case(f"EncodeJpegVariableQuality.uint8.{name}",
               lambda: raw.EncodeJpegVariableQuality(images=g.const(img, "uint8"),
                                                     quality=g.const(q, "int32"), name="op"))
    g.case("EncodeJpegVariableQuality.uint8.quality101",
           lambda: raw.EncodeJpegVariableQuality(images=g.const(rgb, "uint8"),
                                                 quality=g.const(101, "int32"), name="op"),
           error=True)
    g.case("EncodeJpegVariableQuality.uint8.two_channels",
           lambda: raw.EncodeJpegVariableQuality(images=g.const(np.zeros((2, 2, 2)), "uint8"),
                                                 quality=g.const(90, "int32"), name="op"),
           error=True)
    g.case("EncodeJpeg.uint8.format_mismatch",
           lambda: raw.EncodeJpeg(image=g.const(rgb, "uint8"), format="grayscale", name="op"),
           error=True)
    g.case("EncodeJpeg.uint8.two_channels",
           lambda: raw.EncodeJpeg(image=g.const(np.zeros((2, 2, 2)), "uint8"), name="op"),
           error=True)
    g.case("EncodeJpeg.uint8.empty",
           lambda: raw.EncodeJpeg(image=g.const(np.zeros((0, 3, 3)), "uint8"), name="op"),
           error=True)
    g.case("EncodeJpeg.uint8.bad_quality",
           lambda: raw.EncodeJpeg(image=g.const(rgb, "uint8"), quality=101, name="op"),
           error=True)


RESIZE_TYPES = ["int8", "uint8", "int16", "uint16", "int32", "int64", "bfloat16", "float16",
                "float32", "float64"]


@group
def image_resize(g):
    def images(dt, shape):
        if is_float(dt):
            return g.rand(dt, shape, lo=-2, hi=6)
        lo, hi = (-100, 100) if dt in ("int8", "int16", "int32", "int64") else (0, 255)
        return g.rand(dt, shape, lo=lo, hi=hi)

    def resize(op, dt, in_shape, size, **kw):
        return op_fn(op)(images=images(dt, in_shape), size=g.const(size, "int32"), name="op",
                         **kw)
    variants = [("legacy", {}), ("align_corners", {"align_corners": True}),
                ("half_pixel", {"half_pixel_centers": True})]
    for op in ("ResizeBilinear", "ResizeNearestNeighbor", "ResizeBicubic", "ResizeArea"):
        for vname, kw in variants:
            if op == "ResizeArea" and "half_pixel_centers" in kw:
                continue
            for dt in tf_types(op, universe=RESIZE_TYPES):
                g.case(f"{op}.{sgname(dt)}.up_{vname}",
                       lambda: resize(op, dt, [2, 4, 5, 3], [7, 9], **kw))
                g.case(f"{op}.{sgname(dt)}.down_{vname}",
                       lambda: resize(op, dt, [1, 9, 11, 2], [4, 3], **kw))
            g.case(f"{op}.float.mixed_{vname}",
                   lambda: resize(op, "float32", [2, 6, 4, 1], [4, 10], **kw))
            g.case(f"{op}.float.to_one_{vname}",
                   lambda: resize(op, "float32", [1, 5, 6, 4], [1, 1], **kw))
            g.case(f"{op}.float.from_one_{vname}",
                   lambda: resize(op, "float32", [1, 1, 1, 3], [3, 2], **kw))
            g.case(f"{op}.uint8.odd_ratio_{vname}",
                   lambda: resize(op, "uint8", [1, 13, 17, 3], [5, 7], **kw))
        g.case(f"{op}.float.same_size", lambda: resize(op, "float32", [2, 3, 4, 2], [3, 4]))
        g.case(f"{op}.int32.same_size", lambda: resize(op, "int32", [1, 3, 4, 2], [3, 4]))
        g.case(f"{op}.float.empty_batch", lambda: resize(op, "float32", [0, 3, 4, 2], [5, 6]))
        g.case(f"{op}.float.large_channels",
               lambda: resize(op, "float32", [1, 4, 3, 9], [6, 5]))
        if op != "ResizeArea":
            g.case(f"{op}.float.both_centers",
                   lambda: resize(op, "float32", [1, 3, 3, 1], [5, 5], align_corners=True,
                                  half_pixel_centers=True), error=True)
        g.case(f"{op}.float.zero_size",
               lambda: op_fn(op)(images=images("float32", [1, 3, 3, 1]),
                                 size=hide_shape(g.const([0, 4], "int32")), name="op"),
               error=True)
        g.case(f"{op}.float.size_of_three",
               lambda: op_fn(op)(images=images("float32", [1, 3, 3, 1]),
                                 size=hide_shape(g.const([2, 4, 1], "int32")), name="op"),
               error=True)
        g.case(f"{op}.float.rank3_images",
               lambda: op_fn(op)(images=hide_rank(images("float32", [3, 3, 1])),
                                 size=g.const([2, 2], "int32"), name="op"),
               error=True)
        g.case(f"{op}.float.empty_image",
               lambda: op_fn(op)(images=hide_shape(images("float32", [1, 0, 3, 1])),
                                 size=g.const([2, 2], "int32"), name="op"),
               error=True)
    # Special values flow through (NaN and infinities stay where their weights put them).
    for op in ("ResizeBilinear", "ResizeBicubic", "ResizeArea", "ResizeNearestNeighbor"):
        def special():
            v = special_values("float32")
            img = np.resize(v, (1, 3, 4, 1)).astype(np.float32)
            return op_fn(op)(images=g.const(img, "float32"), size=g.const([5, 7], "int32"),
                             name="op")
        g.case(f"{op}.float.special_values", special)



@group
def image_crop_and_resize(g):
    I = "int32"
    boxes = [[0.1, 0.2, 0.8, 0.9], [0.0, 0.0, 1.0, 1.0], [-0.3, 0.5, 1.2, 1.4],
             [0.9, 0.8, 0.2, 0.1], [0.5, 0.5, 0.5, 0.5]]
    for dt in tf_types("CropAndResize"):
        for method in ("bilinear", "nearest"):
            g.case(f"CropAndResize.{sgname(dt)}.{method}",
                   lambda: raw.CropAndResize(image=g.rand(dt, [2, 6, 7, 3], lo=0, hi=100),
                                             boxes=g.const(boxes, "float32"),
                                             box_ind=g.const([1, 0, 1, 0, 1], I),
                                             crop_size=g.const([4, 5], I), method=method,
                                             extrapolation_value=-7.5, name="op"))
    for sname, crop in (("one_by_one", [1, 1]), ("one_row", [1, 4]), ("tall", [9, 1])):
        g.case(f"CropAndResize.float.{sname}",
               lambda: raw.CropAndResize(image=g.rand("float32", [1, 5, 4, 2]),
                                         boxes=g.const(boxes, "float32"),
                                         box_ind=g.const([0] * 5, I), crop_size=g.const(crop, I),
                                         name="op"))
    g.case("CropAndResize.float.no_boxes",
           lambda: raw.CropAndResize(image=g.rand("float32", [1, 5, 4, 2]),
                                     boxes=g.const(np.zeros([0, 4]), "float32"),
                                     box_ind=g.const(np.zeros([0]), I), crop_size=g.const([2, 2], I),
                                     name="op"))
    for sname, img, bx, ind, crop in (
            ("box_index_out_of_range", [2, 4, 4, 1], [[0, 0, 1, 1]], [2], [2, 2]),
            ("box_index_negative", [2, 4, 4, 1], [[0, 0, 1, 1]], [-1], [2, 2]),
            ("nan_box", [1, 4, 4, 1], [[np.nan, 0, 1, 1]], [0], [2, 2]),
            ("inf_box", [1, 4, 4, 1], [[0, 0, np.inf, 1]], [0], [2, 2]),
            ("zero_crop", [1, 4, 4, 1], [[0, 0, 1, 1]], [0], [0, 2]),
            ("empty_image", [1, 0, 4, 1], [[0, 0, 1, 1]], [0], [2, 2]),
            ("boxes_not_4", [1, 4, 4, 1], [[0, 0, 1]], [0], [2, 2]),
            ("box_ind_mismatch", [1, 4, 4, 1], [[0, 0, 1, 1]], [0, 0], [2, 2]),
            ("crop_size_3", [1, 4, 4, 1], [[0, 0, 1, 1]], [0], [2, 2, 2]),
            ("image_rank3", [4, 4, 1], [[0, 0, 1, 1]], [0], [2, 2])):
        g.case(f"CropAndResize.float.{sname}",
               lambda: raw.CropAndResize(image=hide_rank(g.rand("float32", img)),
                                         boxes=hide_rank(g.const(bx, "float32")),
                                         box_ind=hide_rank(g.const(ind, I)),
                                         crop_size=hide_rank(g.const(crop, I)), name="op"),
               error=True)

@group
def image_adjust(g):
    F = "float32"
    # The colour adjustments: TensorFlow's CPU kernels take float only (half gets no case).

    def rgb(shape, lo=0.0, hi=1.0):
        # Not on a 1/64 grid: the hue and saturation arithmetic rounds.
        return g.const(g.rng.uniform(lo, hi, shape).astype(np.float32), F)

    for sname, shape in (("batch", [2, 5, 7, 3]), ("rank3", [6, 5, 3]), ("rank5", [2, 1, 3, 4, 3]),
                         ("one_pixel", [1, 1, 1, 3]), ("empty", [0, 4, 4, 3])):
        for factor in (1.7, 0.3, -0.8):
            fs = str(factor).replace(".", "_").replace("-", "m")
            g.case(f"AdjustContrastv2.float.{sname}_{fs}",
                   lambda: raw.AdjustContrastv2(images=rgb(shape, -3, 7),
                                                contrast_factor=g.const(factor, F), name="op"))
        for scale in (0.0, 0.5, 1.0, 2.5):
            fs = str(scale).replace(".", "_")
            g.case(f"AdjustSaturation.float.{sname}_{fs}",
                   lambda: raw.AdjustSaturation(images=rgb(shape), scale=g.const(scale, F),
                                                name="op"))
        for delta in (0.0, 0.3, -0.45, 1.25, -0.9):
            fs = str(delta).replace(".", "_").replace("-", "m")
            g.case(f"AdjustHue.float.{sname}_{fs}",
                   lambda: raw.AdjustHue(images=rgb(shape), delta=g.const(delta, F), name="op"))
    g.case("AdjustContrastv2.float.channels_5",
           lambda: raw.AdjustContrastv2(images=rgb([2, 4, 3, 5], -3, 7),
                                        contrast_factor=g.const(2.0, F), name="op"))
    g.case("AdjustContrastv2.float.large_image",
           lambda: raw.AdjustContrastv2(images=rgb([1, 33, 47, 3], 0, 255),
                                        contrast_factor=g.const(0.6, F), name="op"))
    # Pixels outside [0, 1], greys (no hue), pure colours and ties between channels.
    special = np.array([[0.5, 0.5, 0.5], [0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0],
                        [0, 1, 1], [1, 0, 1], [0.25, 0.75, 0.75], [0.75, 0.75, 0.25],
                        [-0.3, 0.4, 1.2], [1.5, -0.5, 0.2], [-0.2, -0.4, -0.1], [2, 3, 1]],
                       np.float32).reshape([1, 2, 7, 3])
    for scale in (0.5, 1.5):
        g.case(f"AdjustSaturation.float.special_{str(scale).replace('.', '_')}",
               lambda: raw.AdjustSaturation(images=g.const(special, F), scale=g.const(scale, F),
                                            name="op"))
    for delta in (0.2, -0.7):
        g.case(f"AdjustHue.float.special_{str(delta).replace('.', '_').replace('-', 'm')}",
               lambda: raw.AdjustHue(images=g.const(special, F), delta=g.const(delta, F),
                                     name="op"))
    # AdjustContrast, removed from graphs at GraphDef version 2: each case is a GraphDef of
    # producer version 1, imported first into the case's graph (which then takes that version),
    # so TensorFlow runs the op's own kernel.
    def old_contrast(img, factor, lo, hi, hide=False):
        name = g.cur.name
        tmp = tf.Graph()
        with tmp.as_default(), tf.compat.v1.name_scope(name + "/"):
            h = hide_rank if hide else (lambda t: t)
            ins = [h(tf.constant(v, name=arg)) for arg, v in
                   (("images", img), ("contrast_factor", np.float32(factor)),
                    ("min_value", np.float32(lo)), ("max_value", np.float32(hi)))]
            raw.AdjustContrastv2(images=tf.zeros([1, 1, 1]), contrast_factor=1.0, name="op")
        gd = tmp.as_graph_def()
        keep = [n for n in gd.node if not n.name.startswith(f"{name}/op/") and
                not n.name.startswith(f"{name}/zeros")]
        for n in keep:
            if n.name == f"{name}/op":
                del n.input[:]
                n.input.extend(t.name[:-2] for t in ins)
                n.op = "AdjustContrast"
                n.attr["T"].type = tf.as_dtype(img.dtype).as_datatype_enum
        del gd.node[:]
        gd.node.extend(keep)
        gd.versions.producer = 1
        tf.compat.v1.import_graph_def(gd, name="")
        return tf.compat.v1.get_default_graph().get_tensor_by_name(f"{name}/op:0")

    for dt in tf_types("AdjustContrast"):
        lo, hi = (0, 255) if dt == "uint8" else (-100, 100)
        for factor, mn, mx in ((1.7, -1e9, 1e9), (0.4, 20.0, 60.0), (-2.5, -30.0, 150.0)):
            fs = str(factor).replace(".", "_").replace("-", "m")
            g.case(f"AdjustContrast.{sgname(dt)}.factor_{fs}",
                   lambda: old_contrast(g.vals(dt, [2, 4, 5, 3], lo=lo, hi=hi), factor, mn, mx))
    g.case("AdjustContrast.float.rank3",
           lambda: old_contrast(g.vals(F, [6, 5, 2]), 1.3, -2.0, 2.0))
    g.case("AdjustContrast.float.empty",
           lambda: old_contrast(g.vals(F, [0, 5, 2]), 1.3, -2.0, 2.0))
    g.case("AdjustContrast.float.rank2",
           lambda: old_contrast(g.vals(F, [6, 5]), 1.3, -2.0, 2.0, hide=True), error=True)
    for op, arg, rgb_only in (("AdjustContrastv2", "contrast_factor", False),
                              ("AdjustSaturation", "scale", True), ("AdjustHue", "delta", True)):
        bad = [("rank2", [4, 3], 0.5), ("scalar_is_vector", [2, 2, 3], [0.5])]
        if rgb_only:
            bad.append(("channels_4", [2, 2, 4], 0.5))
        for sname, shape, v in bad:
            g.case(f"{op}.float.{sname}",
                   lambda: op_fn(op)(images=hide_rank(rgb(shape)),
                                     **{arg: hide_rank(g.const(v, F))}, name="op"),
                   error=True)


@group
def image_projective(g):
    I = "int32"
    # Two transforms that carry much of the output outside the input (rotation, shear, shift and
    # a small projection), so every fill mode has work; not exact in float, so the bilinear
    # weights round.
    tr = [[0.9, -0.3, 1.5, 0.25, 1.1, -2.0, 0.01, -0.02],
          [1.3, 0.4, -3.2, -0.5, 0.8, 2.5, 0.0, 0.03]]

    def images(dt, shape):
        if is_float(dt):
            return g.rand(dt, shape)
        lo, hi = (0, 255) if dt == "uint8" else (-100, 100)
        return g.rand(dt, shape, lo=lo, hi=hi)

    def v3(dt, img, t, out, interp, mode, fill=3.5, hide=None):
        h = hide or (lambda x: x)
        return raw.ImageProjectiveTransformV3(
            images=h(images(dt, img)), transforms=h(g.const(t, "float32")),
            output_shape=h(g.const(out, I)), fill_value=g.const(fill, "float32"),
            interpolation=interp, fill_mode=mode, name="op")

    def v2(dt, img, t, out, interp, mode, hide=None):
        h = hide or (lambda x: x)
        return raw.ImageProjectiveTransformV2(
            images=h(images(dt, img)), transforms=h(g.const(t, "float32")),
            output_shape=h(g.const(out, I)), interpolation=interp, fill_mode=mode, name="op")

    modes = ("CONSTANT", "REFLECT", "WRAP", "NEAREST")
    for dt in tf_types("ImageProjectiveTransformV3", "dtype"):
        for interp in ("NEAREST", "BILINEAR"):
            for mode in modes:
                g.case(f"ImageProjectiveTransformV3.{sgname(dt)}.{interp.lower()}_{mode.lower()}",
                       lambda: v3(dt, [2, 5, 6, 2], tr, [6, 7], interp, mode, fill=-3.5))
                g.case(f"ImageProjectiveTransformV2.{sgname(dt)}.{interp.lower()}_{mode.lower()}",
                       lambda: v2(dt, [2, 5, 6, 2], tr, [6, 7], interp, mode))
    F = "float32"
    for interp in ("NEAREST", "BILINEAR"):
        il = interp.lower()
        for mode in modes:
            ml = mode.lower()
            # Coordinates many periods out (REFLECT and WRAP count their periods).
            g.case(f"ImageProjectiveTransformV3.float.far_{il}_{ml}",
                   lambda: v3(F, [1, 4, 5, 1], [[7.3, 1.1, -30.5, -2.2, 6.1, 11.7, 0, 0]],
                              [9, 11], interp, mode))
            # A one-pixel image (and one pixel wide).
            g.case(f"ImageProjectiveTransformV3.float.one_pixel_{il}_{ml}",
                   lambda: v3(F, [1, 1, 1, 2], [tr[0]], [3, 4], interp, mode))
            g.case(f"ImageProjectiveTransformV3.float.one_column_{il}_{ml}",
                   lambda: v3(F, [1, 4, 1, 1], [tr[1]], [5, 3], interp, mode))
            # An image of no rows: every pixel is the fill value.
            g.case(f"ImageProjectiveTransformV3.float.no_rows_{il}_{ml}",
                   lambda: v3(F, [1, 0, 4, 1], [tr[0]], [2, 3], interp, mode))
        # k = c0 x + c1 y + 1 is 0 along a line of output pixels.
        g.case(f"ImageProjectiveTransformV3.float.projection_zero_{il}",
               lambda: v3(F, [1, 4, 4, 1], [[1, 0, 0, 0, 1, 0, -0.5, -0.25]], [5, 5], interp,
                          "CONSTANT", fill=9))
        g.case(f"ImageProjectiveTransformV2.float.projection_zero_{il}",
               lambda: v2(F, [1, 4, 4, 1], [[1, 0, 0, 0, 1, 0, -1, 0]], [3, 4], interp,
                          "REFLECT"))
        # One transform for a batch of three images.
        g.case(f"ImageProjectiveTransformV3.float.shared_transform_{il}",
               lambda: v3(F, [3, 4, 5, 2], [tr[1]], [4, 5], interp, "WRAP"))
        g.case(f"ImageProjectiveTransformV3.uint8.identity_{il}",
               lambda: v3("uint8", [2, 3, 4, 3], [[1, 0, 0, 0, 1, 0, 0, 0]], [3, 4], interp,
                          "CONSTANT"))
        # Output larger and smaller than the input.
        g.case(f"ImageProjectiveTransformV3.float.upscale_{il}",
               lambda: v3(F, [1, 3, 4, 1], [[0.37, 0, 0, 0, 0.41, 0, 0, 0]], [8, 11], interp,
                          "NEAREST"))
        g.case(f"ImageProjectiveTransformV3.float.downscale_{il}",
               lambda: v3(F, [1, 9, 8, 1], [[2.7, 0, 0.3, 0, 3.1, -0.2, 0, 0]], [3, 2], interp,
                          "CONSTANT"))
    # Fill values cast to an integer dtype truncate (and wrap for uint8).
    for fill in (2.7, -2.7, 300.0):
        g.case(f"ImageProjectiveTransformV3.uint8.fill_{str(fill).replace('.', '_')}",
               lambda: v3("uint8", [1, 3, 4, 1], tr[:1], [4, 6], "BILINEAR", "CONSTANT", fill))
        g.case(f"ImageProjectiveTransformV3.int32.fill_{str(fill).replace('.', '_')}",
               lambda: v3("int32", [1, 3, 4, 1], tr[:1], [4, 6], "BILINEAR", "CONSTANT", fill))
    # An unknown interpolation or fill mode has no case: TensorFlow's kernel logs it and writes
    # all-fill (interpolation) or unspecified (fill mode) outputs, where sg's fails.
    g.case("ImageProjectiveTransformV3.float.empty_batch",
           lambda: v3(F, [0, 4, 5, 1], [tr[0]], [3, 3], "BILINEAR", "CONSTANT"))
    g.case("ImageProjectiveTransformV3.float.no_channels",
           lambda: v3(F, [1, 4, 5, 0], [tr[0]], [3, 3], "BILINEAR", "CONSTANT"))
    for sname, img, t, out in (
            ("images_rank3", [4, 5, 1], [tr[0]], [3, 3]),
            ("transforms_rank1", [1, 4, 5, 1], tr[0], [3, 3]),
            ("transforms_7", [1, 4, 5, 1], [tr[0][:7]], [3, 3]),
            ("transforms_batch_mismatch", [2, 4, 5, 1], tr * 2, [3, 3]),
            ("transforms_empty", [2, 4, 5, 1], np.zeros([0, 8]), [3, 3]),
            ("output_shape_negative", [1, 4, 5, 1], [tr[0]], [-1, 3]),
            ("output_shape_zero", [1, 4, 5, 1], [tr[0]], [3, 0]),
            ("output_shape_3", [1, 4, 5, 1], [tr[0]], [3, 3, 1]),
            ("output_shape_2d", [1, 4, 5, 1], [tr[0]], [[3, 3]])):
        for op, fn in (("ImageProjectiveTransformV3", v3), ("ImageProjectiveTransformV2", v2)):
            g.case(f"{op}.float.{sname}",
                   lambda: fn(F, img, t, out, "BILINEAR", "CONSTANT", hide=hide_rank),
                   error=True)


@group
def image_nms(g):
    def boxes(n, clustered=True):
        # Boxes around a few centers (many overlaps), corners in either order.
        c = g.rng.uniform(0.2, 0.8, (3, 2))[g.rng.integers(0, 3, n)] if clustered else \
            g.rng.uniform(0, 1, (n, 2))
        c = c + g.rng.normal(0, 0.05, (n, 2))
        hw = g.rng.uniform(0.1, 0.3, (n, 2))
        b = np.concatenate([c - hw / 2, c + hw / 2], 1)
        flip = g.rng.random(n) < 0.3
        b[flip] = b[flip][:, [2, 3, 0, 1]]
        return b

    def scores(n, ties=False):
        s = g.rng.uniform(0, 1, n)
        if ties:  # a few distinct values: the order among equal scores shows
            s = np.round(s * 4) / 4
        return s

    def v(version, dt, n, max_out, iou=0.5, score=None, sigma=None, ties=False, pad=None,
          tdt=None, box_values=None, score_values=None, hide_max=False):
        b = box_values if box_values is not None else boxes(n)
        s = score_values if score_values is not None else scores(n, ties)
        m = g.const(max_out, "int32")
        args = dict(boxes=g.const(b.reshape(n, 4), dt), scores=g.const(s, dt),
                    max_output_size=hide_shape(m) if hide_max else m, name="op")
        if version == 1:
            return raw.NonMaxSuppression(iou_threshold=iou, **args)
        tdt = tdt or dt
        args["iou_threshold"] = g.const(iou, tdt)
        if version >= 3:
            args["score_threshold"] = g.const(score if score is not None else 0.0, tdt)
        if version >= 4:
            args["pad_to_max_output_size"] = bool(pad)
        if version == 5:
            args["soft_nms_sigma"] = g.const(sigma or 0.0, dt)
            return list(raw.NonMaxSuppressionV5(**args))
        if version == 4:
            return list(raw.NonMaxSuppressionV4(**args))
        return op_fn(f"NonMaxSuppressionV{version}")(**args)

    g.case("NonMaxSuppression.float.basic", lambda: v(1, "float32", 20, 6))
    g.case("NonMaxSuppression.float.iou0", lambda: v(1, "float32", 20, 20, iou=0.0))
    g.case("NonMaxSuppression.float.ties", lambda: v(1, "float32", 30, 30, ties=True))
    for version in (2, 3, 4, 5):
        op = f"NonMaxSuppressionV{version}"
        for dt in ("float32", "float16"):
            n = sgname(dt)
            g.case(f"{op}.{n}.basic", lambda: v(version, dt, 20, 6))
            g.case(f"{op}.{n}.all", lambda: v(version, dt, 25, 100, iou=0.3))
            g.case(f"{op}.{n}.ties", lambda: v(version, dt, 40, 40, ties=True, iou=0.4))
            g.case(f"{op}.{n}.none", lambda: v(version, dt, 0, 5))
            g.case(f"{op}.{n}.max0", lambda: v(version, dt, 10, 0))
            if version >= 3:
                g.case(f"{op}.{n}.score_threshold",
                       lambda: v(version, dt, 30, 10, score=0.45))
            if version >= 4:
                g.case(f"{op}.{n}.padded",
                       lambda: v(version, dt, 30, 12, score=0.3, pad=True))
        if version in (2, 3, 4):
            g.case(f"{op}.half.float_thresholds",
                   lambda: v(version, "float16", 20, 8, score=0.2, tdt="float32"))
            g.case(f"{op}.float.half_thresholds",
                   lambda: v(version, "float32", 20, 8, score=0.2, tdt="float16"))
        g.case(f"{op}.float.iou_above_one", lambda: v(version, "float32", 5, 3, iou=1.5),
               error=True)
        g.case(f"{op}.float.negative_max", lambda: v(version, "float32", 3, -1, hide_max=True),
               error=True)
    # Degenerate boxes: empty areas never suppress; identical boxes always do.
    degenerate = np.array([[0, 0, 1, 1], [0, 0, 1, 1], [0.5, 0.5, 0.5, 0.9], [1, 1, 0, 0],
                           [0.2, 0.2, 0.2, 0.2], [0, 0, 0.5, 0.5], [0.5, 0.5, 0, 0]])
    for version in (3, 5):
        g.case(f"NonMaxSuppressionV{version}.float.degenerate",
               lambda: v(version, "float32", 7, 7, box_values=degenerate,
                         score_values=np.array([0.9, 0.9, 0.8, 0.7, 0.6, 0.6, 0.6])))
    for sigma in (0.1, 0.5, 2.0):
        for dt in ("float32", "float16"):
            g.case(f"NonMaxSuppressionV5.{sgname(dt)}.soft_sigma{sigma}",
                   lambda: v(5, dt, 25, 15, iou=0.5, score=0.1, sigma=sigma))
    g.case("NonMaxSuppressionV5.float.soft_padded",
           lambda: v(5, "float32", 25, 30, iou=1.0, score=0.2, sigma=0.3, pad=True))
    g.case("NonMaxSuppressionV5.float.negative_sigma",
           lambda: v(5, "float32", 5, 3, sigma=-1.0), error=True)
    g.case("NonMaxSuppressionV3.float.boxes_3_columns",
           lambda: raw.NonMaxSuppressionV3(boxes=hide_shape(g.const(np.zeros((4, 3)), "float32")),
                                           scores=g.const(np.zeros(4), "float32"),
                                           max_output_size=g.const(2, "int32"),
                                           iou_threshold=g.const(0.5, "float32"),
                                           score_threshold=g.const(0.0, "float32"), name="op"),
           error=True)
    g.case("NonMaxSuppressionV3.float.score_count",
           lambda: raw.NonMaxSuppressionV3(boxes=g.const(boxes(4), "float32"),
                                           scores=hide_shape(g.const(np.zeros(5), "float32")),
                                           max_output_size=g.const(2, "int32"),
                                           iou_threshold=g.const(0.5, "float32"),
                                           score_threshold=g.const(0.0, "float32"), name="op"),
           error=True)

    def overlaps(n, thr, score):
        m = g.rng.uniform(0, 1, (n, n))
        m = (m + m.T) / 2
        return raw.NonMaxSuppressionWithOverlaps(
            overlaps=g.const(m, "float32"), scores=g.const(scores(n, True), "float32"),
            max_output_size=g.const(n, "int32"), overlap_threshold=g.const(thr, "float32"),
            score_threshold=g.const(score, "float32"), name="op")
    g.case("NonMaxSuppressionWithOverlaps.float.basic", lambda: overlaps(15, 0.5, 0.1))
    g.case("NonMaxSuppressionWithOverlaps.float.threshold_above_one",
           lambda: overlaps(10, 1.5, -1.0))
    g.case("NonMaxSuppressionWithOverlaps.float.not_square",
           lambda: raw.NonMaxSuppressionWithOverlaps(
               overlaps=hide_shape(g.const(np.zeros((3, 4)), "float32")),
               scores=g.const(np.zeros(3), "float32"), max_output_size=g.const(2, "int32"),
               overlap_threshold=g.const(0.5, "float32"),
               score_threshold=g.const(0.0, "float32"), name="op"), error=True)

    def combined(batch, n, q, classes, per_class, total, iou=0.5, score=0.2, ties=False,
                 hide_sizes=False, **kw):
        b = np.stack([np.stack([boxes(n)] * q, 1) + g.rng.normal(0, 0.02, (n, q, 4))
                      for _ in range(batch)]) * 1.2 - 0.1  # some corners outside [0, 1]
        s = g.rng.uniform(0, 1, (batch, n, classes))
        if ties:
            s = np.round(s * 5) / 5

        def maybe_hide(t):
            return hide_shape(t) if hide_sizes else t
        return list(raw.CombinedNonMaxSuppression(
            boxes=g.const(b.reshape(batch, n, q, 4), "float32"), scores=g.const(s, "float32"),
            max_output_size_per_class=maybe_hide(g.const(per_class, "int32")),
            max_total_size=maybe_hide(g.const(total, "int32")),
            iou_threshold=g.const(iou, "float32"), score_threshold=g.const(score, "float32"),
            name="op", **kw))
    g.case("CombinedNonMaxSuppression.float.shared_boxes",
           lambda: combined(2, 20, 1, 3, 4, 8))
    g.case("CombinedNonMaxSuppression.float.box_per_class",
           lambda: combined(2, 15, 4, 4, 3, 10))
    g.case("CombinedNonMaxSuppression.float.ties", lambda: combined(3, 30, 1, 4, 6, 15, ties=True))
    g.case("CombinedNonMaxSuppression.float.ties_per_class",
           lambda: combined(2, 25, 3, 3, 10, 40, ties=True, iou=0.7, score=0.0))
    g.case("CombinedNonMaxSuppression.float.pad_per_class",
           lambda: combined(2, 20, 1, 3, 2, 50, pad_per_class=True))
    g.case("CombinedNonMaxSuppression.float.pad_per_class_total",
           lambda: combined(2, 20, 1, 3, 5, 7, pad_per_class=True))
    g.case("CombinedNonMaxSuppression.float.no_clip",
           lambda: combined(1, 20, 1, 2, 5, 6, clip_boxes=False))
    g.case("CombinedNonMaxSuppression.float.nothing_above_threshold",
           lambda: combined(2, 10, 1, 2, 3, 4, score=1.5))
    g.case("CombinedNonMaxSuppression.float.more_per_class_than_boxes",
           lambda: combined(1, 4, 1, 2, 10, 20))
    g.case("CombinedNonMaxSuppression.float.zero_per_class",
           lambda: combined(1, 4, 1, 2, 0, 3, hide_sizes=True), error=True)
    g.case("CombinedNonMaxSuppression.float.zero_total",
           lambda: combined(1, 4, 1, 2, 2, 0, hide_sizes=True), error=True)
    g.case("CombinedNonMaxSuppression.float.bad_q",
           lambda: list(raw.CombinedNonMaxSuppression(
               boxes=hide_shape(g.const(np.zeros((1, 4, 2, 4)), "float32")),
               scores=g.const(np.zeros((1, 4, 3)), "float32"),
               max_output_size_per_class=g.const(2, "int32"),
               max_total_size=g.const(2, "int32"), iou_threshold=g.const(0.5, "float32"),
               score_threshold=g.const(0.0, "float32"), name="op")), error=True)
    g.case("CombinedNonMaxSuppression.float.iou_above_one",
           lambda: combined(1, 4, 1, 2, 2, 2, iou=1.5), error=True)
