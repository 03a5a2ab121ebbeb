#!/bin/sh
# tf_client_test.sh HEADERS CC LIBTENSORFLOW SG_TF_INCLUDE TESTDATA WORK_DIR [SANITIZE]
# Builds tests/dropin/tf_headers_client.c against a set of TensorFlow C API headers, links it to
# sg's libtensorflow.so.2 (and nothing else of sg's) and runs it on tests/testdata.
#   HEADERS tensorflow: TensorFlow 2.21's own headers from the oracle venv's wheel; SKIPPED
#                       (exit 77) without the venv.
#   HEADERS sg:         sg's copies (c_api/dropin/include); always runs.
set -eu
headers="$1" cc="$2" lib="$3" sg_include="$4" testdata="$5" work="$6" sanitize="${7:-}"
here="$(cd "$(dirname "$0")" && pwd)"
rm -rf "$work"
mkdir -p "$work"
fail() { echo "tf_client_test: FAILED: $*" >&2; exit 1; }
case "$headers" in
tensorflow)
  . "$here/tf_oracle_paths.sh"
  if ! find_tf_wheel; then
    echo "tf_client_test: SKIPPED: $TF_WHEEL_MISSING"
    exit 77
  fi
  include="$TF_WHEEL_INCLUDE" ;;
sg) include="$sg_include" ;;
*) fail "HEADERS is tensorflow or sg, not $headers" ;;
esac
flags=""
if [ -n "$sanitize" ]; then flags="-fsanitize=$sanitize"; fi
libdir="$(dirname "$lib")"
# shellcheck disable=SC2086
"$cc" $flags -std=c99 -D_POSIX_C_SOURCE=200112L -Wall -Wextra -pedantic -I"$include" \
  -o "$work/tf_headers_client" "$here/tf_headers_client.c" "$lib" -Wl,-rpath,"$libdir" -lm \
  || fail "tf_headers_client.c does not build against $include"
needed="$(readelf -d "$work/tf_headers_client" | grep NEEDED)"
echo "$needed" | grep -q '\[libtensorflow\.so\.2\]' || fail "the client does not need libtensorflow.so.2:
$needed"
if readelf -d "$lib" "$work/tf_headers_client" | grep NEEDED | grep -q libsg; then
  fail "libsg is needed at run time"
fi
echo "tf_client_test: built against $include"
"$work/tf_headers_client" "$testdata"
