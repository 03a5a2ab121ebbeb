#!/usr/bin/env python3
"""float16 and bfloat16 values in the sg tool: typed on the command line (rounded to nearest even,
as TensorFlow does), printed, written to .npy (float16 as '<f2', bfloat16 as '<f4'), and a float32
.npy fed to a bfloat16 placeholder. Every expectation is worked out by hand here; the graph is
tests/tools/half_values.pbtxt, which also casts each value to float32 to show it exactly.

Usage: sg_tool_half_test.py SG_BINARY TOOLS_TESTDATA_DIR TESTDATA_DIR
"""
import os
import struct
import tempfile

from tool_test_lib import SG, TOOLS, check, finish, run  # noqa: F401

G = os.path.join(TOOLS, "half_values.pbtxt")
tmp_dir = tempfile.TemporaryDirectory()
tmp = tmp_dir.name


def npy(path):
    """(descr, shape text, body bytes) of a .npy file of format 1.0."""
    with open(path, "rb") as f:
        b = f.read()
    assert b[:6] == b"\x93NUMPY" and b[6] == 1, path
    hlen = struct.unpack("<H", b[8:10])[0]
    header = b[10:10 + hlen].decode("latin1")
    descr = header.split("'descr': '")[1].split("'")[0]
    shape = header.split("'shape': ")[1].split(")")[0] + ")"
    return descr, shape, b[10 + hlen:]


def lines(p):
    return [line.strip() for line in p.stdout.strip().split("\n")]


# ---- float16. 1/3 = 1.0101010101|0101...b * 2^-2 rounds down to 0x3555 = 1365/4096 =
# 0.333251953125; 65504 is the largest half; 65519 is below 65504 + 16 (half a step of 32) and
# rounds down; 65520 is the tie, which goes to the even 65536, infinity; -2.5 is 0xC100; 6e-8 is
# 1.0066 times the smallest subnormal 2^-24 and rounds to it (0x0001).
p = run(["run", G, "--feed", "h=[0.3333333333333333,65504,65519,65520,-2.5,6e-8]",
         "--fetch", "hid", "--fetch", "hf"])
got = lines(p)
check(got[0] == "hid float16 [6]", "hid's header: %r" % got)
check(got[1].split() == ["0.33325", "65504", "65504", "inf", "-2.5", "5.9605e-08"],
      "float16 printed with 5 digits: %r" % got[1])
check(got[3].split() == ["0.333252", "65504", "65504", "inf", "-2.5", "5.960464e-08"],
      "float16 cast to float32: %r" % got[3])
out = os.path.join(tmp, "out")
os.mkdir(out)
run(["run", G, "--feed", "h=[[0.3333333333333333,65504,65520],[-2.5,6e-8,-0.0]]", "--fetch", "hid",
     "--out", out])
descr, shape, body = npy(os.path.join(out, "hid.npy"))
check(descr == "<f2" and shape == "(2, 3)", "hid.npy is <f2 (2, 3): %s %s" % (descr, shape))
check(struct.unpack("<6H", body) == (0x3555, 0x7BFF, 0x7C00, 0xC100, 0x0001, 0x8000),
      "hid.npy bits: %s" % [hex(x) for x in struct.unpack("<6H", body)])
# Python's struct reads binary16 too: the exact values.
check(struct.unpack("<6e", body)[:2] == (0.333251953125, 65504.0), "hid.npy values")

# A '<f2' file feeds a float16 placeholder unchanged (1.5 = 0x3E00, -0.25 = 0xB400).
f2 = os.path.join(tmp, "h.npy")
with open(f2, "wb") as f:
    header = "{'descr': '<f2', 'fortran_order': False, 'shape': (2,), }"
    header += " " * (63 - len(header)) + "\n"
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() +
            struct.pack("<2H", 0x3E00, 0xB400))
p = run(["run", G, "--feed", "h=@" + f2, "--fetch", "hf"])
check(lines(p)[1].split() == ["1.5", "-0.25"], "float16 .npy feed: %r" % p.stdout)

# ---- bfloat16 (8 bits of precision). 1.00390625 = 1 + 2^-8 is the tie between 1 and 1 + 2^-7: to
# the even 1. 1.01171875 = 1 + 3 * 2^-8 is the tie between 1 + 2^-7 and 1 + 2^-6: to the even
# 1 + 2^-6 = 1.015625. 1/3 = 1.0101010|1010...b * 2^-2 rounds up to 171/512 = 0.333984375. 3.4e38 is
# past the largest bfloat16 (255 * 2^120 = 3.3895e38) plus half a step (2^120): infinity.
p = run(["run", G, "--feed", "bf=[1.00390625,1.01171875,0.3333333333,-2.5,3.4e38]",
         "--fetch", "bid", "--fetch", "bff"])
got = lines(p)
check(got[0] == "bid bfloat16 [5]", "bid's header: %r" % got)
check(got[1].split() == ["1", "1.016", "0.334", "-2.5", "inf"], "bfloat16 printed with 4 digits: %r" % got[1])
check(got[3].split() == ["1", "1.015625", "0.3339844", "-2.5", "inf"], "bfloat16 cast to float32: %r" % got[3])
run(["run", G, "--feed", "bf=[1.00390625,1.01171875,0.3333333333,-2.5]", "--fetch", "bid", "--out", out])
descr, shape, body = npy(os.path.join(out, "bid.npy"))
check(descr == "<f4" and shape == "(4,)", "bid.npy is float32 (no NumPy bfloat16): %s %s" % (descr, shape))
check(struct.unpack("<4f", body) == (1.0, 1.015625, 0.333984375, -2.5),
      "bid.npy holds the bfloat16 values exactly: %s" % (struct.unpack("<4f", body),))

# A float32 .npy feeds a bfloat16 placeholder, each value rounded as on the command line.
f4 = os.path.join(tmp, "bf.npy")
with open(f4, "wb") as f:
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }"
    header += " " * (63 - len(header)) + "\n"
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() +
            struct.pack("<3f", 1.00390625, 1.01171875, 1.0 / 3))
p = run(["run", G, "--feed", "bf=@" + f4, "--fetch", "bff"])
check(lines(p)[1].split() == ["1", "1.015625", "0.3339844"], "float32 .npy into bfloat16: %r" % p.stdout)

# ---- Errors: one line each.
for feed, fetch, want in (("h=[1,abc]", "hid", "sg: INVALID_ARGUMENT: feed 'h': 'abc' is not a float16"),
                          ("bf=[1e]", "bid", "sg: INVALID_ARGUMENT: feed 'bf': '1e' is not a bfloat16"),
                          ("h=@" + f4, "hid", "sg: INVALID_ARGUMENT: feed 'h' is float16 but")):
    p = run(["run", G, "--feed", feed, "--fetch", fetch], expect_ok=False)
    check(p.returncode == 1 and p.stderr.startswith(want) and p.stderr.count("\n") == 1,
          "%s: want %r, got %d %r" % (feed, want, p.returncode, p.stderr))

finish()
print("OK")
