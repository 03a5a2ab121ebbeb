#!/bin/sh
# tf_while_test.sh CC LIBTENSORFLOW SG_TF_INCLUDE WORK_DIR [SANITIZE]
# While loops built from C and TF_GraphRemoveFunction through sg's libtensorflow.so.2:
# tests/dropin/tf_while_client.c, which checks every value against a hand computation, is built
# against sg's tensorflow/c headers and run on sg's library. With the oracle venv's wheel it is
# also built against TensorFlow 2.21's own headers and run once on TensorFlow's
# libtensorflow_cc.so.2 and once on sg's library, and the two printouts (operation names, values,
# error codes; not the gradients, which TensorFlow's run fails) must be the same line for line;
# without the venv that part is skipped (said on stdout) and the test passes on the first part.
set -eu
cc="$1" lib="$2" sg_include="$3" work="$4" sanitize="${5:-}"
here="$(cd "$(dirname "$0")" && pwd)"
fail() { echo "tf_while_test: FAILED: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"
flags=""
if [ -n "$sanitize" ]; then flags="-fsanitize=$sanitize"; fi
cflags="-std=c99 -D_POSIX_C_SOURCE=200112L -Wall -Wextra -pedantic"
libdir="$(dirname "$lib")"
# shellcheck disable=SC2086
"$cc" $flags $cflags -I"$sg_include" -o "$work/client_sg_headers" "$here/tf_while_client.c" \
  "$lib" -Wl,-rpath,"$libdir" || fail "the client does not build against sg's headers"
"$work/client_sg_headers" > "$work/sg_headers.txt" \
  || { cat "$work/sg_headers.txt"; fail "the client fails on sg"; }
cat "$work/sg_headers.txt"

. "$here/tf_oracle_paths.sh"
if ! find_tf_wheel; then
  echo "tf_while_test: the comparison with TensorFlow is SKIPPED: $TF_WHEEL_MISSING"
  echo "tf_while_test: passed"
  exit 0
fi
# TensorFlow's own library: no sanitizer (its code is not built for one).
# shellcheck disable=SC2086
"$cc" $cflags -I"$TF_WHEEL_INCLUDE" -o "$work/client_tf" "$here/tf_while_client.c" \
  "$TF_WHEEL_DIR/libtensorflow_cc.so.2" "$TF_WHEEL_DIR/libtensorflow_framework.so.2" \
  -Wl,-rpath,"$TF_WHEEL_DIR" || fail "the client does not build against TensorFlow's library"
# shellcheck disable=SC2086
"$cc" $flags $cflags -I"$TF_WHEEL_INCLUDE" -o "$work/client_sg" "$here/tf_while_client.c" \
  "$lib" -Wl,-rpath,"$libdir" || fail "the client does not build against TensorFlow's headers"
# TensorFlow 2.21's own gradient of these loops fails when run ("Merge has inputs from different
# frames"): it is not computed there; sg's gradients are checked against the hand computations.
TF_CPP_MIN_LOG_LEVEL=2 "$work/client_tf" --no-gradients > "$work/tf.txt" 2> "$work/tf.err" \
  || { cat "$work/tf.txt" "$work/tf.err"; fail "the client fails on TensorFlow"; }
"$work/client_sg" --no-gradients > "$work/sg.txt" \
  || { cat "$work/sg.txt"; fail "the client fails on sg"; }
diff "$work/tf.txt" "$work/sg.txt" || fail "sg's printout (right) differs from TensorFlow's (left)"
echo "tf_while_test: TensorFlow's library prints the same"
echo "tf_while_test: passed"
