#!/bin/sh
# tf_plugin_test.sh CC LIBTENSORFLOW SG_TF_INCLUDE WORK_DIR [SANITIZE]
# Op libraries through sg's libtensorflow.so.2: tests/dropin/plugin_add_one.c, a C library
# registering op SgTestAddOne and its kernels through tensorflow/c/ops.h and kernels.h, is built
# three ways (the op and kernels; the op again; a kernel of an unknown op) against sg's headers,
# linked to nothing (its TF_ symbols come from the client's libtensorflow.so.2), and
# tf_plugin_client.c loads them through TF_LoadLibrary and checks every value by hand. With the
# oracle venv's wheel, the library and the client are also built against TensorFlow 2.21's own
# headers (the library linked to libtensorflow_framework.so.2, as TensorFlow's plugins are) and
# run on TensorFlow's library, and the printout of the part both share (--core) must be the same
# line for line. Not compared: TensorFlow 2.21 loads the two bad libraries without an error (it
# ignores an op registered again by another library, and a kernel of an unknown op), which sg
# reports as ALREADY_EXISTS and NOT_FOUND.
set -eu
cc="$1" lib="$2" sg_include="$3" work="$4" sanitize="${5:-}"
here="$(cd "$(dirname "$0")" && pwd)"
fail() { echo "tf_plugin_test: FAILED: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"
flags=""
if [ -n "$sanitize" ]; then flags="-fsanitize=$sanitize"; fi
libdir="$(dirname "$lib")"
# build_plugins PREFIX INCLUDE [LIB...]: PREFIX0.so (good), PREFIX1.so (duplicate op),
# PREFIX2.so (kernel of an unknown op).
build_plugins() {
  prefix="$1" inc="$2"; shift 2
  for mode in 0 1 2; do
    # shellcheck disable=SC2086
    "$cc" $flags -std=c11 -Wall -Wextra -pedantic -fPIC -shared -DPLUGIN_MODE=$mode -I"$inc" \
      -o "$prefix$mode.so" "$here/plugin_add_one.c" "$@" \
      || fail "plugin_add_one.c (mode $mode) does not build against $inc"
  done
}
cflags="-std=c99 -D_POSIX_C_SOURCE=200112L -Wall -Wextra -pedantic"
build_plugins "$work/sg_plugin" "$sg_include"
# shellcheck disable=SC2086
"$cc" $flags $cflags -I"$sg_include" -o "$work/client_sg_headers" "$here/tf_plugin_client.c" \
  "$lib" -Wl,-rpath,"$libdir" || fail "the client does not build against sg's headers"
"$work/client_sg_headers" "$work/sg_plugin0.so" "$work/sg_plugin1.so" "$work/sg_plugin2.so" \
  > "$work/sg_headers.txt" || { cat "$work/sg_headers.txt"; fail "the client fails on sg"; }
cat "$work/sg_headers.txt"

. "$here/tf_oracle_paths.sh"
if ! find_tf_wheel; then
  echo "tf_plugin_test: the comparison with TensorFlow is SKIPPED: $TF_WHEEL_MISSING"
  echo "tf_plugin_test: passed"
  exit 0
fi
# TensorFlow's own library: no sanitizer (its code is not built for one).
flags=""
build_plugins "$work/tf_plugin" "$TF_WHEEL_INCLUDE" "$TF_WHEEL_DIR/libtensorflow_framework.so.2" \
  -Wl,-rpath,"$TF_WHEEL_DIR"
# shellcheck disable=SC2086
"$cc" $cflags -I"$TF_WHEEL_INCLUDE" -o "$work/client_tf" "$here/tf_plugin_client.c" \
  "$TF_WHEEL_DIR/libtensorflow_cc.so.2" "$TF_WHEEL_DIR/libtensorflow_framework.so.2" \
  -Wl,-rpath,"$TF_WHEEL_DIR" || fail "the client does not build against TensorFlow's library"
TF_CPP_MIN_LOG_LEVEL=2 "$work/client_tf" "$work/tf_plugin0.so" "$work/tf_plugin1.so" \
  "$work/tf_plugin2.so" --core > "$work/tf.txt" 2> "$work/tf.err" \
  || { cat "$work/tf.txt" "$work/tf.err"; fail "the client fails on TensorFlow"; }
"$work/client_sg_headers" "$work/sg_plugin0.so" "$work/sg_plugin1.so" "$work/sg_plugin2.so" \
  --core > "$work/sg.txt" || { cat "$work/sg.txt"; fail "the client fails on sg (--core)"; }
diff "$work/tf.txt" "$work/sg.txt" || fail "sg's printout (right) differs from TensorFlow's (left)"
echo "tf_plugin_test: TensorFlow's library prints the same (--core)"
echo "tf_plugin_test: passed"
