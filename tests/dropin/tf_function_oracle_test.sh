#!/bin/sh
# tf_function_oracle_test.sh CC LIBTENSORFLOW WORK_DIR [SANITIZE]
# Builds tests/dropin/tf_function_client.c against TensorFlow 2.21's own headers from the oracle
# venv's wheel, runs it once on the wheel's libtensorflow_cc.so.2 and once on sg's
# libtensorflow.so.2, and checks that sg's TF_GraphToFunction gives the FunctionDefs TensorFlow
# gives (compare_function_defs.py). SKIPPED (exit 77) without the venv.
set -eu
cc="$1" lib="$2" work="$3" sanitize="${4:-}"
here="$(cd "$(dirname "$0")" && pwd)"
fail() { echo "tf_function_oracle_test: FAILED: $*" >&2; exit 1; }
. "$here/tf_oracle_paths.sh"
if ! find_tf_wheel; then
  echo "tf_function_oracle_test: SKIPPED: $TF_WHEEL_MISSING"
  exit 77
fi
python="$(cd "$TF_WHEEL_DIR/../../../.." && pwd)/bin/python"
[ -x "$python" ] || { echo "tf_function_oracle_test: SKIPPED: no python at $python"; exit 77; }
rm -rf "$work"
mkdir -p "$work/tf" "$work/sg"
flags=""
if [ -n "$sanitize" ]; then flags="-fsanitize=$sanitize"; fi
cflags="-std=c99 -D_POSIX_C_SOURCE=200112L -Wall -Wextra -pedantic -I$TF_WHEEL_INCLUDE"
# TensorFlow's own library: no sanitizer (its code is not built for one).
# shellcheck disable=SC2086
"$cc" $cflags -o "$work/client_tf" "$here/tf_function_client.c" \
  "$TF_WHEEL_DIR/libtensorflow_cc.so.2" "$TF_WHEEL_DIR/libtensorflow_framework.so.2" \
  -Wl,-rpath,"$TF_WHEEL_DIR" || fail "the client does not build against TensorFlow's library"
# shellcheck disable=SC2086
"$cc" $flags $cflags -o "$work/client_sg" "$here/tf_function_client.c" "$lib" \
  -Wl,-rpath,"$(dirname "$lib")" || fail "the client does not build against sg's library"
TF_CPP_MIN_LOG_LEVEL=2 "$work/client_tf" "$work/tf" || fail "the client fails on TensorFlow"
"$work/client_sg" "$work/sg" || fail "the client fails on sg"
TF_CPP_MIN_LOG_LEVEL=2 "$python" "$here/compare_function_defs.py" "$work/tf" "$work/sg" \
  affine renamed control generated || fail "sg's FunctionDefs differ from TensorFlow's"
echo "tf_function_oracle_test: passed"
