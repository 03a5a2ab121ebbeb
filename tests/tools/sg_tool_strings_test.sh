#!/bin/sh
# The sg tool's string tensors in .npy files: NumPy bytes (|S) and unicode (<U) arrays as feeds
# (--feed NAME=@file.npy), string fetches written as bytes arrays (--out DIR), and the errors for
# object arrays and mismatched dtypes. The .npy files are written here byte by byte, in NumPy's
# own layout (format 1.0, header padded to 64 bytes), so expected outputs compare with cmp.
# Also the command-line values (tools/values.h) through values.pbtxt and strings.pbtxt: nested
# lists with the placeholder's dtype, quoted strings, complex64 .npy files, and a round trip of
# NumPy 'U' and 'S' arrays checked by NumPy itself (the oracle venv's; skipped without it).
# Usage: sg_tool_strings_test.sh SG_BINARY TESTS_TOOLS_DIR
set -eu
SG=$1
GRAPH=$2/strings.pbtxt
VALUES=$2/values.pbtxt
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# npy FILE DESCR SHAPE DATA: DATA is a printf format of the element bytes (octal escapes).
npy() {
  dict="{'descr': '$2', 'fortran_order': False, 'shape': $3, }"
  len=$(( ${#dict} + 1 ))
  pad=$(( (64 - (10 + len) % 64) % 64 ))
  total=$(( len + pad ))
  {
    printf '\223NUMPY\001\000'
    printf "\\$(printf '%03o' $(( total % 256 )))\\$(printf '%03o' $(( total / 256 )))"
    printf '%s' "$dict"
    printf "%${pad}s" ''
    printf '\n'
    printf "$4"
  } > "$1"
}

# Bytes arrays, shapes (3,) and (2, 2) (row-major); "" and an element of full width included.
npy "$TMP/a.npy" '|S5' '(3,)' 'ab\000\000\000hello\000\000\000\000\000'
npy "$TMP/b.npy" '|S2' '(3,)' 'x\000yzz\000'
npy "$TMP/a22.npy" '|S1' '(2, 2)' 'pqrs'
# Unicode (UTF-32LE code points): "é" and "z€" become UTF-8 bytes.
npy "$TMP/u.npy" '<U2' '(2,)' '\351\000\000\000\000\000\000\000z\000\000\000\254\040\000\000'
npy "$TMP/u2.npy" '<U1' '(2,)' 'A\000\000\000B\000\000\000'
# What sg should write back for them.
npy "$TMP/want_joined.npy" '|S8' '(3,)' 'ab-x\000\000\000\000hello-yz-z\000\000\000\000\000\000'
npy "$TMP/want_same.npy" '|S5' '(3,)' 'ab\000\000\000hello\000\000\000\000\000'
npy "$TMP/want_u.npy" '|S4' '(2,)' '\303\251\000\000z\342\202\254'
npy "$TMP/want_u_joined.npy" '|S6' '(2,)' '\303\251-A\000\000z\342\202\254-B'
npy "$TMP/want_a22.npy" '|S1' '(2, 2)' 'pqrs'

# --out writes string fetches as bytes arrays, byte for byte as NumPy would.
mkdir "$TMP/out"
"$SG" run "$GRAPH" --feed a=@"$TMP/a.npy" --feed b=@"$TMP/b.npy" --fetch joined --fetch same:0 \
  --out "$TMP/out" > "$TMP/run.txt"
cat "$TMP/run.txt"
grep -q '^joined string \[3\] -> ' "$TMP/run.txt" || fail "--out: no line for joined"
cmp "$TMP/out/joined.npy" "$TMP/want_joined.npy" || fail "--out: joined.npy differs"
cmp "$TMP/out/same_0.npy" "$TMP/want_same.npy" || fail "--out: same_0.npy differs"

# A unicode feed arrives as UTF-8; both kinds of array mix in one run.
"$SG" run "$GRAPH" --feed a=@"$TMP/u.npy" --feed b=@"$TMP/u2.npy" --fetch same --fetch joined \
  --out "$TMP/out" > /dev/null
cmp "$TMP/out/same.npy" "$TMP/want_u.npy" || fail "unicode feed: same.npy differs"
cmp "$TMP/out/joined.npy" "$TMP/want_u_joined.npy" || fail "unicode feed: joined.npy differs"

# Shape (2, 2) keeps its shape and order; printing shows the strings.
"$SG" run "$GRAPH" --feed a=@"$TMP/a22.npy" --fetch same --out "$TMP/out" > /dev/null
cmp "$TMP/out/same.npy" "$TMP/want_a22.npy" || fail "(2, 2) feed: same.npy differs"
"$SG" run "$GRAPH" --feed a=@"$TMP/a.npy" --fetch same > "$TMP/print.txt"
cat "$TMP/print.txt"
[ "$(sed -n 2p "$TMP/print.txt")" = '  "ab" "hello" ""' ] || fail "printed strings: $(cat "$TMP/print.txt")"

# Object arrays (pickles) are refused with a message saying what to do; so is a float file.
npy "$TMP/obj.npy" '|O' '(1,)' '\000\000\000\000\000\000\000\000'
if "$SG" run "$GRAPH" --feed a=@"$TMP/obj.npy" --fetch same 2> "$TMP/err.txt"; then
  fail "an object array was accepted"
fi
cat "$TMP/err.txt"
grep -q "^sg: INVALID_ARGUMENT: feed 'a': .*obj.npy' holds Python objects (dtype object).*astype(bytes)" \
  "$TMP/err.txt" || fail "object array error: $(cat "$TMP/err.txt")"
npy "$TMP/f.npy" '<f4' '(1,)' '\000\000\200\077'
if "$SG" run "$GRAPH" --feed a=@"$TMP/f.npy" --fetch same 2> "$TMP/err.txt"; then
  fail "a float32 file fed a string placeholder"
fi
grep -q "^sg: INVALID_ARGUMENT: feed 'a' is string but .*f.npy holds float32" "$TMP/err.txt" ||
  fail "dtype error: $(cat "$TMP/err.txt")"
# expect_run WANT ARGS...: runs sg with ARGS and compares its stdout with WANT exactly.
expect_run() {
  want=$1
  shift
  "$SG" run "$@" > "$TMP/got.txt" || fail "sg run $*: exit $?"
  printf '%s\n' "$want" > "$TMP/want.txt"
  cmp -s "$TMP/got.txt" "$TMP/want.txt" || fail "sg run $*: got
$(cat "$TMP/got.txt")
want
$want"
}
# expect_error PATTERN ARGS...: sg run fails with one line matching PATTERN.
expect_error() {
  pattern=$1
  shift
  if "$SG" run "$@" > /dev/null 2> "$TMP/err.txt"; then fail "sg run $* succeeded"; fi
  [ "$(wc -l < "$TMP/err.txt")" -eq 1 ] || fail "sg run $*: error is not one line"
  grep -q "$pattern" "$TMP/err.txt" || fail "sg run $*: error $(cat "$TMP/err.txt")"
}

# Nested lists: the shape from the nesting, the dtype from the placeholder (int32 for x and y).
expect_run 'sum int32 [2,2]
  11 22
  33 44' "$VALUES" --feed 'x=[[1,2],[3,4]]' --feed 'y=[[10, 20], [30, 40]]' --fetch sum
# Broadcasting [2,1] + [3]; and the older "[shape]:values" form next to a nested list.
expect_run 'sum int32 [2,3]
  11 21 31
  12 22 32' "$VALUES" --feed 'x=[[1],[2]]' --feed 'y=[10,20,30]' --fetch sum
expect_run 'sum int32 [2,2]
  2 3
  4 5' "$VALUES" --feed 'x=[2,2]:1,2,3,4' --feed 'y=[[1,1],[1,1]]' --fetch sum
expect_run 'sum int32 [0]' "$VALUES" --feed 'x=[]' --feed 'y=[]' --fetch sum
# float32 [2,2]; bool as true/false or 1/0.
expect_run 'fid float32 [2,2]
  1.5 -2
  0.3 4' "$VALUES" --feed 'f=[[1.5,-2],[3e-1,4]]' --fetch fid
expect_run 'bid bool [4]
  true false true false' "$VALUES" --feed 'b=[true,false,1,0]' --fetch bid
# Errors: ragged nesting, an unclosed list, a quoted string for an int32, a bad bool.
expect_error "^sg: INVALID_ARGUMENT: feed 'x': ragged nesting: .*shape \[1\] after one of shape \[2\]" \
  "$VALUES" --feed 'x=[[1,2],[3]]' --feed 'y=1' --fetch sum
expect_error "^sg: INVALID_ARGUMENT: feed 'x': the list at offset 0 is not closed" \
  "$VALUES" --feed 'x=[1,2' --feed 'y=1' --fetch sum
expect_error "^sg: INVALID_ARGUMENT: feed 'x' is int32, but its value holds a quoted string" \
  "$VALUES" --feed 'x="7"' --feed 'y=1' --fetch sum
expect_error "^sg: INVALID_ARGUMENT: feed 'b': 'yes' is not a bool" "$VALUES" --feed 'b=[yes]' --fetch bid

# Strings: a quoted string is a scalar (\" and \\ escapes); lists of them nest; bare lists stay.
expect_run 'joined string []
  "one string-x\y"' "$GRAPH" --feed 'a="one string"' --feed 'b="x\\y"' --fetch joined
expect_run 'same string [2,1]
  "p"
  "q"' "$GRAPH" --feed 'a=[["p"],["q"]]' --fetch same
expect_run 'same string [2]
  "ab" "c"' "$GRAPH" --feed 'a=ab,c' --fetch same
"$SG" run "$GRAPH" --feed 'a=["x", "y\"q"]' --feed 'b=["1","2"]' --fetch joined --out "$TMP/out" > /dev/null
npy "$TMP/want_q.npy" '|S5' '(2,)' 'x-1\000\000y"q-2'
cmp "$TMP/out/joined.npy" "$TMP/want_q.npy" || fail "quoted list feed: joined.npy differs"
expect_error "^sg: INVALID_ARGUMENT: feed 'a': unterminated string" "$GRAPH" --feed 'a="abc' --fetch same
expect_error "^sg: INVALID_ARGUMENT: feed 'a': bad escape" "$GRAPH" --feed 'a="a\n"' --fetch same

# complex64 .npy: (1+2j, 3-4j) printed as (re,im) and written back byte for byte.
npy "$TMP/c.npy" '<c8' '(2,)' '\000\000\200\077\000\000\000\100\000\000\100\100\000\000\200\300'
expect_run 'cid complex64 [2]
  (1,2) (3,-4)' "$VALUES" --feed c=@"$TMP/c.npy" --fetch cid
"$SG" run "$VALUES" --feed c=@"$TMP/c.npy" --fetch cid --out "$TMP/out" > /dev/null
cmp "$TMP/out/cid.npy" "$TMP/c.npy" || fail "complex64: cid.npy differs from the fed file"

# complex64 on the command line in Python's notation.
expect_run 'cid complex64 [2,2]
  (1,2) (3,-4)
  (0,0.5) (-1.5,0)' "$VALUES" --feed 'c=[[1+2j,3-4j],[0.5j,-1.5]]' --fetch cid
expect_error "^sg: INVALID_ARGUMENT: feed 'c': '1+2' is not a complex64" "$VALUES" --feed 'c=[1+2]' --fetch cid

# NumPy round trips: 'U' (non-ASCII) and 'S' (arbitrary bytes) arrays written by NumPy, fed
# through Identity, and the 'S' arrays sg writes read back by NumPy.
PY=${SG_ORACLE_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/sg/tf-oracle}/bin/python
if [ -x "$PY" ] && "$PY" -c 'import numpy' 2> /dev/null; then
  "$PY" - "$TMP" <<'PYEOF' || fail "NumPy could not write the round-trip inputs"
import sys, numpy as np
d = sys.argv[1]
np.save(d + "/np_u.npy", np.array([["héllo", "z€"], ["", "𝄞x"]]))
np.save(d + "/np_s.npy", np.array([b"\xff\x00a", b"", b"plain"]))
PYEOF
  "$SG" run "$GRAPH" --feed a=@"$TMP/np_u.npy" --fetch same --out "$TMP/out" > /dev/null
  cp "$TMP/out/same.npy" "$TMP/out_u.npy"
  "$SG" run "$GRAPH" --feed a=@"$TMP/np_s.npy" --fetch same --out "$TMP/out" > /dev/null
  "$PY" - "$TMP" <<'PYEOF' || fail "NumPy round trip differs"
import sys, numpy as np
d = sys.argv[1]
u = np.load(d + "/out_u.npy")
assert u.dtype.kind == "S" and u.shape == (2, 2), (u.dtype, u.shape)
assert [x.decode("utf-8") for x in u.ravel()] == ["héllo", "z€", "", "𝄞x"], u
s = np.load(d + "/out/same.npy")
assert s.dtype.kind == "S" and s.shape == (3,), (s.dtype, s.shape)
assert s.tolist() == [b"\xff\x00a", b"", b"plain"], s
PYEOF
  echo "NumPy round trips: OK"
else
  echo "SKIP NumPy round trips: no numpy in $PY (tests/oracle/setup_venv.sh makes it)"
fi
echo "sg_tool_strings_test: OK"
