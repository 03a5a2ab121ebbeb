#!/bin/sh
# Runs the sg tool on the digits classifier: inspect, run with inline and .npy feeds (compared with
# TensorFlow's probabilities), --repeat, --out, and the one-line error format.
# Usage: sg_tool_test.sh SG_BINARY TESTDATA_DIR
set -eu
SG=$1
DATA=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# inspect: histogram, the placeholder with dtype and shape, the outputs.
"$SG" inspect "$DATA/digits_mlp.pb" > "$TMP/inspect.txt"
cat "$TMP/inspect.txt"
grep -q '^ *2  MatMul$' "$TMP/inspect.txt" || fail "inspect: no 'MatMul' count of 2"
grep -q '^ *5  Identity$' "$TMP/inspect.txt" || fail "inspect: no 'Identity' count of 5"
grep -q '^  input  float32 \[?,64\]  (Placeholder)$' "$TMP/inspect.txt" || fail "inspect: placeholder line"
sed -n '/likely outputs/,$p' "$TMP/inspect.txt" | grep -q '^  probs  float32 \[?,10\]' || fail "inspect: probs is not a likely output"

# run: the first 3 test samples inline, against TensorFlow's probabilities (.npy header: 128 bytes).
X=$(od -A n -v -t f4 -j 128 -N 768 "$DATA/digits_test_x.npy" | tr -s ' \n' ',,' | sed 's/^,//; s/,$//')
od -A n -v -t f4 -j 128 -N 120 "$DATA/digits_tf_probs.npy" | tr -s ' ' '\n' | sed '/^$/d' > "$TMP/want.txt"
"$SG" run "$DATA/digits_mlp.pb" --feed "input=[3,64]:$X" --fetch probs:0 --config intra_op_threads=1 > "$TMP/run.txt"
cat "$TMP/run.txt"
head -1 "$TMP/run.txt" | grep -q '^probs:0 float32 \[3,10\]$' || fail "run: header line"
tail -n +2 "$TMP/run.txt" | tr -s ' ' '\n' | sed '/^$/d' > "$TMP/got.txt"
paste "$TMP/got.txt" "$TMP/want.txt" | awk '
  { d = $1 - $2; if (d < 0) d = -d; if (d > 1e-5) { print "value " NR ": got " $1 " want " $2; bad = 1 } }
  END { if (NR != 30) { print "expected 30 values, got " NR; bad = 1 } exit bad }' || fail "run: values differ"

# The same without the graph optimiser, with both ConfigProto keys the tool sets as a message.
"$SG" run "$DATA/digits_mlp.pb" --feed "input=[3,64]:$X" --fetch probs:0 --config graph_optimizer=0 \
  --config round_robin_placement=1 --config intra_op_threads=1 > "$TMP/run_l0.txt"
tail -n +2 "$TMP/run_l0.txt" | tr -s ' ' '\n' | sed '/^$/d' > "$TMP/got_l0.txt"
paste "$TMP/got_l0.txt" "$TMP/want.txt" | awk '
  { d = $1 - $2; if (d < 0) d = -d; if (d > 1e-5) { print "value " NR ": got " $1 " want " $2; bad = 1 } }
  END { if (NR != 30) { print "expected 30 values, got " NR; bad = 1 } exit bad }' \
  || fail "run with graph_optimizer=0: values differ"
if "$SG" run "$DATA/digits_mlp.pb" --feed "input=[3,64]:$X" --fetch probs:0 --config nope=1 \
  2> "$TMP/err.txt"; then fail "an unknown --config key succeeded"; fi
grep -q "graph_optimizer" "$TMP/err.txt" || fail "the unknown-key error does not list graph_optimizer"

# run: all 360 samples from the .npy, written with --out, timed with --repeat.
"$SG" run "$DATA/digits_mlp.pb" --feed input=@"$DATA/digits_test_x.npy" --fetch probs --fetch logits:0 \
  --repeat 5 --out "$TMP" > "$TMP/out.txt"
cat "$TMP/out.txt"
grep -q 'median: .* us  p90: .* us' "$TMP/out.txt" || fail "--repeat: no latency line"
[ -s "$TMP/probs.npy" ] && [ -s "$TMP/logits_0.npy" ] || fail "--out: files missing"
[ "$(wc -c < "$TMP/probs.npy")" -eq $((128 + 360 * 10 * 4)) ] || fail "--out: probs.npy size"
od -A n -v -t f4 -j 128 "$TMP/probs.npy" | tr -s ' ' '\n' | sed '/^$/d' > "$TMP/got_all.txt"
od -A n -v -t f4 -j 128 "$DATA/digits_tf_probs.npy" | tr -s ' ' '\n' | sed '/^$/d' > "$TMP/want_all.txt"
paste "$TMP/got_all.txt" "$TMP/want_all.txt" | awk '
  { d = $1 - $2; if (d < 0) d = -d; if (d > 1e-5) bad++ } END { if (NR != 3600 || bad) exit 1 }' \
  || fail "--out: probs.npy differs from TensorFlow's"

# errors: one line "sg: CODE: message" on stderr, non-zero exit.
if "$SG" run "$DATA/digits_mlp.pb" --feed nope=1 --fetch probs 2> "$TMP/err.txt"; then fail "bad feed succeeded"; fi
[ "$(wc -l < "$TMP/err.txt")" -eq 1 ] || fail "error is not one line"
grep -q "^sg: NOT_FOUND: .*'nope'" "$TMP/err.txt" || fail "error line: $(cat "$TMP/err.txt")"
if "$SG" run "$DATA/digits_mlp.pb" --feed "input=[2,3]:1,2,3,4,5,6" --fetch probs 2> "$TMP/err.txt"; then fail "bad shape succeeded"; fi
grep -q "^sg: INVALID_ARGUMENT: .*input" "$TMP/err.txt" || fail "error line: $(cat "$TMP/err.txt")"
if "$SG" inspect "$DATA/README.md" 2> "$TMP/err.txt"; then fail "inspect of a non-graph succeeded"; fi
grep -q "^sg: INVALID_ARGUMENT: " "$TMP/err.txt" || fail "error line: $(cat "$TMP/err.txt")"
echo "sg_tool_test: OK"
