#!/bin/sh
# consumer_test.sh BUILD_DIR SOURCE_DIR WORK_DIR [C_COMPILER] [SANITIZE]
# Installs the build into a temporary prefix (cmake --install) and uses it as a client would:
#  1. checks the layout (headers, libsg.so symlinks and SONAME, sg.pc, the CMake package, bin/sg);
#  2. builds examples/hello.c with `cc $(pkg-config --cflags --libs sg)` and runs the digits
#     classifier with it;
#  3. builds tests/install/cmake_consumer (find_package(sg), sg::sg) and runs it;
#  4. runs the installed sg tool (it finds libsg through its rpath).
# SANITIZE (e.g. address,undefined) is passed on to the clients when the library was built so.
set -eu
build="$1" src="$2" work="$3" cc="${4:-cc}" sanitize="${5:-}"
prefix="$work/prefix"
rm -rf "$work"
mkdir -p "$work"
fail() { echo "consumer_test: FAILED: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" > "$work/install.log" || { cat "$work/install.log"; fail "cmake --install"; }

# 1. Layout.
for f in include/sg/c_api.h include/sg/tf_c_api.h lib/libsg.so lib/libsg.so.1 lib/pkgconfig/sg.pc \
         lib/cmake/sg/sgConfig.cmake lib/cmake/sg/sgConfigVersion.cmake lib/cmake/sg/sgTargets.cmake \
         bin/sg; do
  [ -e "$prefix/$f" ] || fail "$f is not installed"
done
[ -L "$prefix/lib/libsg.so" ] && [ -L "$prefix/lib/libsg.so.1" ] || fail "libsg.so and libsg.so.1 must be symlinks"
readelf -d "$prefix/lib/libsg.so" | grep -q 'SONAME.*\[libsg\.so\.1\]' || fail "SONAME is not libsg.so.1"
grep -q "^prefix=$prefix\$" "$prefix/lib/pkgconfig/sg.pc" || fail "sg.pc has the wrong prefix: $(grep ^prefix= "$prefix/lib/pkgconfig/sg.pc")"
echo "consumer_test: installed into $prefix:"
(cd "$prefix" && find . -type f -o -type l | sort | sed 's/^/  /')

flags=""
if [ -n "$sanitize" ]; then flags="-fsanitize=$sanitize"; fi
export LD_LIBRARY_PATH="$prefix/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

# 2. pkg-config.
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
echo "consumer_test: pkg-config --cflags --libs sg: $(pkg-config --cflags --libs sg)"
# shellcheck disable=SC2046
"$cc" $flags -std=c99 -D_POSIX_C_SOURCE=200112L -Wall -Wextra -o "$work/hello" \
  "$src/examples/hello.c" $(pkg-config --cflags --libs sg) || fail "building hello.c with pkg-config"
"$work/hello" "$src/tests/testdata/digits_mlp.pb" input probs > "$work/hello.out" || fail "hello"
cat "$work/hello.out"
# Ten probabilities that sum to 1.
awk '{ for (i = 2; i <= NF; ++i) s += $i; n = NF - 1 } END { exit !(n == 10 && s > 0.999 && s < 1.001) }' \
  "$work/hello.out" || fail "hello's output is not ten probabilities"

# 3. find_package(sg).
cmake -S "$src/tests/install/cmake_consumer" -B "$work/cmake_consumer" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_C_COMPILER="$cc" -DCMAKE_C_FLAGS="$flags" > "$work/cmake_consumer.log" 2>&1 \
  || { cat "$work/cmake_consumer.log"; fail "configuring the find_package(sg) project"; }
cmake --build "$work/cmake_consumer" >> "$work/cmake_consumer.log" 2>&1 \
  || { cat "$work/cmake_consumer.log"; fail "building the find_package(sg) project"; }
"$work/cmake_consumer/consumer" || fail "the find_package(sg) consumer"

# 4. The installed tool, through its rpath only.
env -u LD_LIBRARY_PATH "$prefix/bin/sg" inspect "$src/tests/testdata/digits_mlp.pb" > "$work/sg.out" \
  || fail "bin/sg inspect"
echo "consumer_test: bin/sg inspect: $(head -1 "$work/sg.out")"
echo "consumer_test: ok"
