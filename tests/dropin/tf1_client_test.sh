#!/bin/sh
# tf1_client_test.sh BUILD_DIR SOURCE_DIR WORK_DIR [C_COMPILER] [SANITIZE]
# Installs the build into a temporary prefix (cmake --install) and uses the drop-in
# libtensorflow.so.2 as a TensorFlow C client would:
#  1. checks the layout: include/tensorflow/c/*.h, libtensorflow.so -> .so.2 -> .so.2.21.0 with
#     SONAME libtensorflow.so.2 and no need of libsg, libtensorflow_framework.so -> .so.2 ->
#     .so.2.21.0 (SONAME libtensorflow_framework.so.2, a filter of libtensorflow.so.2),
#     lib/pkgconfig/tensorflow.pc (2.21.0);
#  2. builds tests/dropin/tf1_client.c, written for TensorFlow 1.15's C API, with
#     `cc $(pkg-config --cflags --libs tensorflow)` and runs it;
#  3. moves the installed tree and checks that tensorflow.pc follows it.
set -eu
build="$1" src="$2" work="$3" cc="${4:-cc}" sanitize="${5:-}"
prefix="$work/prefix"
rm -rf "$work"
mkdir -p "$work"
fail() { echo "tf1_client_test: FAILED: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" > "$work/install.log" || { cat "$work/install.log"; fail "cmake --install"; }

# 1. Layout.
for h in c_api.h c_api_experimental.h c_api_macros.h tf_attrtype.h tf_buffer.h tf_datatype.h \
         tf_file_statistics.h tf_status.h tf_tensor.h tf_tstring.h; do
  [ -f "$prefix/include/tensorflow/c/$h" ] || fail "include/tensorflow/c/$h is not installed"
done
for f in libtensorflow.so libtensorflow.so.2 libtensorflow.so.2.21.0 libtensorflow_framework.so \
         libtensorflow_framework.so.2 libtensorflow_framework.so.2.21.0 pkgconfig/tensorflow.pc; do
  [ -e "$prefix/lib/$f" ] || fail "lib/$f is not installed"
done
[ -L "$prefix/lib/libtensorflow.so" ] && [ -L "$prefix/lib/libtensorflow.so.2" ] \
  || fail "libtensorflow.so and libtensorflow.so.2 must be symlinks"
readelf -d "$prefix/lib/libtensorflow.so.2" | grep -q 'SONAME.*\[libtensorflow\.so\.2\]' \
  || fail "SONAME is not libtensorflow.so.2"
if readelf -d "$prefix/lib/libtensorflow.so.2" | grep NEEDED | grep -q libsg; then
  fail "libtensorflow.so.2 needs libsg"
fi
readelf -d "$prefix/lib/libtensorflow_framework.so.2" > "$work/framework_dynamic.txt"
grep -q 'SONAME.*\[libtensorflow_framework\.so\.2\]' "$work/framework_dynamic.txt" \
  && grep -q 'FILTER.*\[libtensorflow\.so\.2\]' "$work/framework_dynamic.txt" \
  || fail "libtensorflow_framework.so.2 is not a filter of libtensorflow.so.2 named so"

# 2. pkg-config, a TensorFlow 1.15-style client.
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
[ "$(pkg-config --modversion tensorflow)" = 2.21.0 ] || fail "tensorflow.pc's version is $(pkg-config --modversion tensorflow)"
echo "tf1_client_test: pkg-config --cflags --libs tensorflow: $(pkg-config --cflags --libs tensorflow)"
flags=""
if [ -n "$sanitize" ]; then flags="-fsanitize=$sanitize"; fi
# shellcheck disable=SC2046,SC2086
"$cc" $flags -std=c99 -Wall -Wextra -pedantic -o "$work/tf1_client" "$src/tests/dropin/tf1_client.c" \
  $(pkg-config --cflags --libs tensorflow) -lm || fail "building tf1_client.c with pkg-config"
LD_LIBRARY_PATH="$prefix/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
  "$work/tf1_client" "$src/tests/testdata" || fail "tf1_client"

# 3. tensorflow.pc locates the tree from its own directory.
mv "$prefix" "$work/moved"
libs="$(PKG_CONFIG_PATH="$work/moved/lib/pkgconfig" pkg-config --libs tensorflow)"
case "$libs" in
  *"$work/moved/lib"*) ;;
  *) fail "after moving the tree, pkg-config --libs tensorflow gives $libs" ;;
esac
echo "tf1_client_test: ok"
