#!/bin/sh
# tf_plugin_test.sh CC LIBTENSORFLOW LIBTENSORFLOW_FRAMEWORK SG_TF_INCLUDE WORK_DIR [SANITIZE]
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
# sg's libtensorflow_framework.so.2 (a filter of libtensorflow.so.2 with TensorFlow's framework
# names, c_api/dropin/framework_stub.c): the same library linked with -ltensorflow_framework
# against sg's build tree (as TensorFlow's plugins are against TensorFlow's) gives the same
# printout, and loads where libtensorflow.so.2 was opened with RTLD_LOCAL, which the library
# linked to nothing cannot (tf_plugin_local_loader.c); with the wheel, every name sg's framework
# library defines is one TensorFlow's defines, and the library built against TensorFlow's headers
# and linked with TensorFlow's flag (-l:libtensorflow_framework.so.2) against sg's tree runs on
# sg's library and on TensorFlow's.
set -eu
cc="$1" lib="$2" framework="$3" sg_include="$4" work="$5" sanitize="${6:-}"
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

# same_printout A B: the printouts A and B name their libraries' paths; the rest must be equal.
same_printout() {
  sed "s|$work/[a-z_]*plugin\([0-9]\)\.so|PLUGIN\1.so|g" "$1" > "$1.paths"
  sed "s|$work/[a-z_]*plugin\([0-9]\)\.so|PLUGIN\1.so|g" "$2" > "$2.paths"
  diff "$1.paths" "$2.paths"
}

# libtensorflow_framework.so.2: SONAME, the filter of libtensorflow.so.2, TF_ names only,
# unversioned (as TensorFlow's), each one a function of libtensorflow.so.2.
fwdir="$(dirname "$framework")"
readelf -d "$framework" > "$work/framework_dynamic.txt"
grep -q 'SONAME.*\[libtensorflow_framework\.so\.2\]' "$work/framework_dynamic.txt" \
  || fail "the SONAME of $framework is not libtensorflow_framework.so.2"
grep -q 'FILTER.*\[libtensorflow\.so\.2\]' "$work/framework_dynamic.txt" \
  || fail "$framework is not a filter of libtensorflow.so.2"
nm -D --defined-only "$framework" | awk '{ print $3 }' | sort -u > "$work/framework_symbols.txt"
nm -D --defined-only "$lib" | awk '{ print $3 }' | sed 's/@.*//' | sort -u > "$work/lib_symbols.txt"
bad="$(grep -v '^TF_[A-Za-z0-9_]*$' "$work/framework_symbols.txt" || true)"
[ -z "$bad" ] || fail "libtensorflow_framework.so.2 exports symbols that are not unversioned TF_ names: $bad"
missing="$(comm -23 "$work/framework_symbols.txt" "$work/lib_symbols.txt")"
[ -z "$missing" ] || fail "libtensorflow_framework.so.2 has names libtensorflow.so.2 lacks: $missing"
nfw="$(wc -l < "$work/framework_symbols.txt")"
[ "$nfw" -ge 80 ] || fail "libtensorflow_framework.so.2 has only $nfw names"
for f in TF_NewStatus TF_AllocateOutput TF_NewKernelBuilder TF_RegisterOpDefinition TF_TensorData; do
  grep -qx "$f" "$work/framework_symbols.txt" || fail "libtensorflow_framework.so.2 lacks $f"
done
# The library linked with -ltensorflow_framework (and, without a sanitizer's runtime to leave
# undefined, -Wl,--no-undefined: every function it calls is in libtensorflow_framework.so.2, and
# --as-needed keeps the dependency).
strict=""
if [ -z "$sanitize" ]; then strict="-Wl,--no-undefined"; fi
build_plugins "$work/fw_plugin" "$sg_include" -L"$fwdir" -ltensorflow_framework $strict \
  -Wl,--as-needed -Wl,-rpath,"$fwdir"
readelf -d "$work/fw_plugin0.so" | grep -q 'NEEDED.*\[libtensorflow_framework\.so\.2\]' \
  || fail "the library linked with -ltensorflow_framework does not need libtensorflow_framework.so.2"
"$work/client_sg_headers" "$work/fw_plugin0.so" "$work/fw_plugin1.so" "$work/fw_plugin2.so" \
  > "$work/fw.txt" || { cat "$work/fw.txt"; fail "the client fails on the libraries linked with -ltensorflow_framework"; }
same_printout "$work/sg_headers.txt" "$work/fw.txt" \
  || fail "the library linked with -ltensorflow_framework prints differently (right)"
echo "tf_plugin_test: linked with -ltensorflow_framework ($nfw names): the same printout"
# libtensorflow.so.2 opened with RTLD_LOCAL: only the library linked with -ltensorflow_framework
# finds its TF_ functions.
# shellcheck disable=SC2086
"$cc" $flags $cflags -D_GNU_SOURCE -I"$sg_include" -o "$work/local_loader" \
  "$here/tf_plugin_local_loader.c" -ldl || fail "tf_plugin_local_loader.c does not build"
out="$("$work/local_loader" "$lib" "$work/fw_plugin0.so")" \
  || fail "RTLD_LOCAL, linked with -ltensorflow_framework: $out"
[ "$out" = "loaded, op SgTestAddOne registered" ] || fail "RTLD_LOCAL: $out"
rc=0
out="$("$work/local_loader" "$lib" "$work/sg_plugin0.so")" || rc=$?
[ "$rc" -eq 2 ] || fail "RTLD_LOCAL, linked to nothing: exit $rc (2 expected): $out"
case "$out" in
  *"undefined symbol: TF_"*) ;;
  *) fail "RTLD_LOCAL, linked to nothing: $out" ;;
esac
echo "tf_plugin_test: RTLD_LOCAL: $out (linked to nothing); loaded when linked with -ltensorflow_framework"

. "$here/tf_oracle_paths.sh"
if ! find_tf_wheel; then
  echo "tf_plugin_test: the comparison with TensorFlow is SKIPPED: $TF_WHEEL_MISSING"
  echo "tf_plugin_test: passed"
  exit 0
fi
# Every name of sg's libtensorflow_framework.so.2 is one of TensorFlow's.
nm -D --defined-only "$TF_WHEEL_DIR/libtensorflow_framework.so.2" | awk '{ print $3 }' \
  | sed 's/@.*//' | sort -u > "$work/tf_framework_symbols.txt"
extra="$(comm -23 "$work/framework_symbols.txt" "$work/tf_framework_symbols.txt")"
[ -z "$extra" ] || fail "sg's libtensorflow_framework.so.2 defines names TensorFlow's does not: $extra"
# The library built against TensorFlow's headers, linked as TensorFlow's flags say against sg's
# tree, on sg's library.
build_plugins "$work/tf_fw_plugin" "$TF_WHEEL_INCLUDE" -L"$fwdir" -l:libtensorflow_framework.so.2 \
  $strict -Wl,--as-needed -Wl,-rpath,"$fwdir"
"$work/client_sg_headers" "$work/tf_fw_plugin0.so" "$work/tf_fw_plugin1.so" \
  "$work/tf_fw_plugin2.so" > "$work/tf_fw.txt" \
  || { cat "$work/tf_fw.txt"; fail "the client fails on the libraries built against TensorFlow's headers"; }
same_printout "$work/sg_headers.txt" "$work/tf_fw.txt" \
  || fail "the library built against TensorFlow's headers prints differently (right)"
echo "tf_plugin_test: built against TensorFlow's headers, linked to sg's libtensorflow_framework.so.2: the same printout"
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
# The library linked against sg's libtensorflow_framework.so.2 loads into TensorFlow as well
# (its names are unversioned, as TensorFlow's). Not in a sanitizer build: that library carries
# the sanitizer's instrumentation, whose runtime TensorFlow's process does not have.
if [ -n "$sanitize" ]; then
  echo "tf_plugin_test: the library linked to sg's tree is not loaded into TensorFlow ($sanitize build)"
  exit 0
fi
TF_CPP_MIN_LOG_LEVEL=2 "$work/client_tf" "$work/tf_fw_plugin0.so" "$work/tf_fw_plugin1.so" \
  "$work/tf_fw_plugin2.so" --core > "$work/tf_fw_on_tf.txt" 2> "$work/tf_fw_on_tf.err" \
  || { cat "$work/tf_fw_on_tf.txt" "$work/tf_fw_on_tf.err"; fail "TensorFlow fails on the library linked against sg's tree"; }
same_printout "$work/tf.txt" "$work/tf_fw_on_tf.txt" \
  || fail "TensorFlow prints differently (right) on the library linked against sg's tree"
echo "tf_plugin_test: the library linked to sg's libtensorflow_framework.so.2 runs on TensorFlow too"
echo "tf_plugin_test: TensorFlow's library prints the same (--core)"
echo "tf_plugin_test: passed"
