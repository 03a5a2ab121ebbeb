"""What the sg tool's Python tests share: their arguments, soft checks and running `sg`.

Usage of a test: TEST.py SG_BINARY TOOLS_TESTDATA_DIR TESTDATA_DIR. A test imports from here,
calls check() for each assertion (a failure is printed and counted, the test goes on), and ends
with finish(), which exits non-zero when any check failed.
"""
import subprocess
import sys

SG, TOOLS, DATA = sys.argv[1], sys.argv[2], sys.argv[3]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def run(args, expect_ok=True, env=None):
    """Runs `sg ARGS`, output captured as text; with expect_ok a non-zero exit ends the test."""
    p = subprocess.run([SG] + args, capture_output=True, text=True, env=env)
    if expect_ok and p.returncode != 0:
        print(p.stdout, p.stderr)
        sys.exit("FAIL: sg %s exited with %d" % (" ".join(args), p.returncode))
    return p


def finish():
    if failures:
        sys.exit("%d check(s) failed" % len(failures))
