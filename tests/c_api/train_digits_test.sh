#!/bin/sh
# examples/train_digits trains the digits classifier through the C API (SG_AddGradients, Adam)
# from TensorFlow's initial weights on TensorFlow's batches, and must reach TensorFlow's held-out
# accuracy for the same model and training (digits_mlp's
# test_accuracy in tests/testdata/expected.json, passed as TF_ACCURACY) within one point. Then
# TensorFlow restores the checkpoint train_digits saved and must find the same accuracy to the
# sample (tests/oracle/eval_digits_checkpoint.py; skipped, and said so, without the oracle venv).
#
#   train_digits_test.sh TRAIN_DIGITS TESTDATA_DIR ORACLE_DIR TF_ACCURACY
set -eu
bin=$1 data=$2 oracle=$3 tf_accuracy=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" "$data" "$tmp/digits.ckpt" > "$tmp/out.txt"
cat "$tmp/out.txt"
sg_line=$(grep '^held-out accuracy:' "$tmp/out.txt")
sg_accuracy=${sg_line##*= }
if ! awk -v a="$sg_accuracy" -v t="$tf_accuracy" 'BEGIN { exit !(a >= t - 0.01) }'; then
  echo "FAIL: sg's held-out accuracy $sg_accuracy is more than one point below TensorFlow's $tf_accuracy"
  exit 1
fi
echo "sg's accuracy $sg_accuracy, TensorFlow's $tf_accuracy: within one point"
venv=${SG_ORACLE_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/sg/tf-oracle}
if [ ! -x "$venv/bin/python" ]; then
  echo "checkpoint read-back skipped: no TensorFlow oracle venv at $venv"
  exit 0
fi
tf_line=$("$venv/bin/python" "$oracle/eval_digits_checkpoint.py" "$tmp/digits.ckpt" \
  "$data/digits_test_x.npy" "$data/digits_test_y.npy")
echo "TensorFlow, from sg's checkpoint: $tf_line"
if [ "$tf_line" != "$sg_line" ]; then
  echo "FAIL: TensorFlow restored other weights than sg trained ('$tf_line' vs '$sg_line')"
  exit 1
fi
echo "PASS"
