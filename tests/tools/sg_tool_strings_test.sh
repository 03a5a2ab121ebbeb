#!/bin/sh
# The sg tool's string tensors in .npy files: NumPy bytes (|S) and unicode (<U) arrays as feeds
# (--feed NAME=@file.npy), string fetches written as bytes arrays (--out DIR), and the errors for
# object arrays and mismatched dtypes. The .npy files are written here byte by byte, in NumPy's
# own layout (format 1.0, header padded to 64 bytes), so expected outputs compare with cmp.
# Usage: sg_tool_strings_test.sh SG_BINARY TESTS_TOOLS_DIR
set -eu
SG=$1
GRAPH=$2/strings.pbtxt
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
echo "sg_tool_strings_test: OK"
