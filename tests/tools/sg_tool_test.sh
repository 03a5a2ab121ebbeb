#!/bin/sh
# Runs the sg tool on the digits classifier: inspect, run with inline and .npy feeds (compared with
# TensorFlow's probabilities), --repeat (of a GraphDef and of a SavedModel), --out, and the
# one-line error format.
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
  --repeat 5 --out "$TMP" > "$TMP/out.txt" 2> "$TMP/repeat_err.txt"
cat "$TMP/out.txt"
# --repeat: percentiles in order, throughput in runs and (batch 360) items, and no progress line
# on stderr when it is not a terminal.
N='[0-9][0-9]*\.[0-9]'
grep -q "^runs: 5  min: $N us  p50: $N us  p90: $N us  p99: $N us$" "$TMP/out.txt" ||
  fail "--repeat: no latency line"
grep '^runs: ' "$TMP/out.txt" | awk '{ if (!($4 <= $7 && $7 <= $10 && $10 <= $13)) exit 1 }' ||
  fail "--repeat: percentiles out of order"
grep -q "^throughput: $N runs/s  $N items/s (batch 360)$" "$TMP/out.txt" || fail "--repeat: no throughput line"
# Both are printed to 0.1, so they agree to within 360 x 0.05 + 0.05.
grep '^throughput: ' "$TMP/out.txt" | awk '{ d = $4 - 360 * $2; if (d < 0) d = -d; if (d > 18.05) exit 1 }' ||
  fail "--repeat: items/s is not 360 x runs/s"
[ ! -s "$TMP/repeat_err.txt" ] || fail "--repeat wrote to a non-terminal stderr: $(cat "$TMP/repeat_err.txt")"
# On a terminal (script(1) gives one) a progress line shows and is cleared at the end.
if command -v script > /dev/null 2>&1; then
  script -qec "\"$SG\" run \"$DATA/digits_mlp.pb\" --feed input=@\"$DATA/digits_test_x.npy\" --fetch probs --repeat 300 --out \"$TMP\" 2>&1 >/dev/null" \
    /dev/null > "$TMP/tty.txt" || fail "--repeat on a terminal failed"
  grep -q 'sg: run 300/300 (100%)' "$TMP/tty.txt" || fail "--repeat: no progress line on a terminal: $(cat -v "$TMP/tty.txt")"
else
  echo "SKIP --repeat progress on a terminal: no script(1)"
fi
[ -s "$TMP/probs.npy" ] && [ -s "$TMP/logits_0.npy" ] || fail "--out: files missing"
[ "$(wc -c < "$TMP/probs.npy")" -eq $((128 + 360 * 10 * 4)) ] || fail "--out: probs.npy size"
od -A n -v -t f4 -j 128 "$TMP/probs.npy" | tr -s ' ' '\n' | sed '/^$/d' > "$TMP/got_all.txt"
od -A n -v -t f4 -j 128 "$DATA/digits_tf_probs.npy" | tr -s ' ' '\n' | sed '/^$/d' > "$TMP/want_all.txt"
paste "$TMP/got_all.txt" "$TMP/want_all.txt" | awk '
  { d = $1 - $2; if (d < 0) d = -d; if (d > 1e-5) bad++ } END { if (NR != 3600 || bad) exit 1 }' \
  || fail "--out: probs.npy differs from TensorFlow's"

# A nested list through the SavedModel's signature input: the first sample as [[64 values]].
X1=$(echo "$X" | cut -d, -f1-64)
"$SG" run --saved_model "$DATA/digits_saved_model" --input "x=[[$X1]]" --output probs > "$TMP/sm.txt"
cat "$TMP/sm.txt"
head -1 "$TMP/sm.txt" | grep -q '^probs (probs:0): float32 \[1,10\]$' || fail "--input nested: header"
tail -n +2 "$TMP/sm.txt" | tr -s ' ' '\n' | sed '/^$/d' > "$TMP/got_sm.txt"
head -10 "$TMP/want.txt" | paste "$TMP/got_sm.txt" - | awk '
  { d = $1 - $2; if (d < 0) d = -d; if (d > 1e-5) bad = 1 } END { if (NR != 10 || bad) exit 1 }' ||
  fail "--input nested: values differ"
if "$SG" run --saved_model "$DATA/digits_saved_model" --input "x=[[1,2],[3]]" 2> "$TMP/err.txt"; then
  fail "a ragged --input succeeded"
fi
grep -q "^sg: INVALID_ARGUMENT: --input x: ragged nesting" "$TMP/err.txt" || fail "ragged --input: $(cat "$TMP/err.txt")"

# SavedModel --repeat: the same run loop as for a GraphDef (latency line, runs/s and items/s of
# the batch of 360, no progress off a terminal, a progress line on one), and the outputs of the
# last run are TensorFlow's probabilities.
mkdir "$TMP/sm_out"
"$SG" run --saved_model "$DATA/digits_saved_model" --input x=@"$DATA/digits_test_x.npy" \
  --output probs --repeat 4 --out "$TMP/sm_out" > "$TMP/sm_repeat.txt" 2> "$TMP/sm_repeat_err.txt"
cat "$TMP/sm_repeat.txt"
grep -q "^runs: 4  min: $N us  p50: $N us  p90: $N us  p99: $N us$" "$TMP/sm_repeat.txt" ||
  fail "SavedModel --repeat: no latency line"
grep '^runs: ' "$TMP/sm_repeat.txt" | awk '{ if (!($4 <= $7 && $7 <= $10 && $10 <= $13)) exit 1 }' ||
  fail "SavedModel --repeat: percentiles out of order"
grep -q "^throughput: $N runs/s  $N items/s (batch 360)$" "$TMP/sm_repeat.txt" ||
  fail "SavedModel --repeat: no throughput line"
[ ! -s "$TMP/sm_repeat_err.txt" ] || fail "SavedModel --repeat wrote to stderr: $(cat "$TMP/sm_repeat_err.txt")"
od -A n -v -t f4 -j 128 "$TMP/sm_out/probs.npy" | tr -s ' ' '\n' | sed '/^$/d' > "$TMP/got_sm_all.txt"
paste "$TMP/got_sm_all.txt" "$TMP/want_all.txt" | awk '
  { d = $1 - $2; if (d < 0) d = -d; if (d > 1e-5) bad++ } END { if (NR != 3600 || bad) exit 1 }' \
  || fail "SavedModel --repeat --out: probs.npy differs from TensorFlow's"
if command -v script > /dev/null 2>&1; then
  script -qec "\"$SG\" run --saved_model \"$DATA/digits_saved_model\" --input x=@\"$DATA/digits_test_x.npy\" --repeat 50 --out \"$TMP/sm_out\" 2>&1 >/dev/null" \
    /dev/null > "$TMP/sm_tty.txt" || fail "SavedModel --repeat on a terminal failed"
  grep -q 'sg: run 50/50 (100%)' "$TMP/sm_tty.txt" || fail "SavedModel --repeat: no progress line: $(cat -v "$TMP/sm_tty.txt")"
fi
if "$SG" run --saved_model "$DATA/digits_saved_model" --input x=@"$DATA/digits_test_x.npy" --repeat 0 \
  2> "$TMP/err.txt"; then fail "SavedModel --repeat 0 succeeded"; fi
grep -q "^sg: INVALID_ARGUMENT: --repeat '0' is not a count >= 1$" "$TMP/err.txt" || fail "--repeat 0: $(cat "$TMP/err.txt")"

# errors: one line "sg: CODE: message" on stderr, non-zero exit.
if "$SG" run "$DATA/digits_mlp.pb" --feed nope=1 --fetch probs 2> "$TMP/err.txt"; then fail "bad feed succeeded"; fi
[ "$(wc -l < "$TMP/err.txt")" -eq 1 ] || fail "error is not one line"
grep -q "^sg: NOT_FOUND: .*'nope'" "$TMP/err.txt" || fail "error line: $(cat "$TMP/err.txt")"
# A feed of another shape than the graph declares runs, as with TensorFlow's C API; here the first
# layer's product then fails, naming its node.
if "$SG" run "$DATA/digits_mlp.pb" --feed "input=[2,3]:1,2,3,4,5,6" --fetch probs 2> "$TMP/err.txt"; then fail "bad shape succeeded"; fi
grep -q "^sg: INVALID_ARGUMENT: Matrix size-incompatible.*node 'hidden/" "$TMP/err.txt" || fail "error line: $(cat "$TMP/err.txt")"
if "$SG" inspect "$DATA/README.md" 2> "$TMP/err.txt"; then fail "inspect of a non-graph succeeded"; fi
grep -q "^sg: INVALID_ARGUMENT: " "$TMP/err.txt" || fail "error line: $(cat "$TMP/err.txt")"
echo "sg_tool_test: OK"
