#!/bin/sh
# tf_headers_test.sh CXX NM SG_TF_INCLUDE WORK_DIR
# sg's tensorflow/c headers against TensorFlow 2.21's own (the oracle venv's wheel): for every TF_
# function the wheel exports from its C API headers, the function's type as C++ mangles it; the
# layout and member types of every value struct; every enum value (tf_header_probe.cc, compiled
# against each header set; the two outputs must be identical). ops.h and kernels.h, of which sg
# declares a subset: each function sg's declare must be one TensorFlow's declare and export, and
# its type is compared likewise. SKIPPED (exit 77) without the venv.
set -eu
cxx="$1" nm="$2" sg_include="$3" work="$4"
here="$(cd "$(dirname "$0")" && pwd)"
rm -rf "$work"
mkdir -p "$work"
fail() { echo "tf_headers_test: FAILED: $*" >&2; exit 1; }
. "$here/tf_oracle_paths.sh"
if ! find_tf_wheel; then
  echo "tf_headers_test: SKIPPED: $TF_WHEEL_MISSING"
  exit 77
fi

# The functions to compare: exported by the wheel and declared by its C API headers.
for h in c_api.h c_api_experimental.h tf_attrtype.h tf_buffer.h tf_datatype.h tf_file_statistics.h \
         tf_status.h tf_tensor.h tf_tstring.h; do
  echo "#include \"tensorflow/c/$h\""
done > "$work/headers.cc"
"$cxx" -E -P -I"$TF_WHEEL_INCLUDE" "$work/headers.cc" \
  | grep -oE '\bTF_[A-Za-z0-9_]+[[:space:]]*\(' | sed 's/[[:space:]]*($//' | sort -u > "$work/declared.txt"
for so in libtensorflow_cc.so.2 libtensorflow_framework.so.2; do
  "$nm" -D --defined-only "$TF_WHEEL_DIR/$so" | awk '{ print $3 }' | sed 's/@.*//' | grep '^TF_' || true
done | sort -u > "$work/exported.txt"
comm -12 "$work/declared.txt" "$work/exported.txt" > "$work/compared.txt"
n="$(wc -l < "$work/compared.txt")"
[ "$n" -ge 200 ] || fail "only $n functions found in the wheel"

# ops.h and kernels.h: the functions sg's declare beyond those of the headers above.
# declared_in INCLUDE_DIR HEADER...: the TF_ names followed by "(" after preprocessing.
declared_in() {
  inc="$1"; shift
  for h in "$@"; do echo "#include \"tensorflow/c/$h\""; done > "$work/probe_headers.cc"
  "$cxx" -E -P -I"$inc" "$work/probe_headers.cc" \
    | grep -oE '\bTF_[A-Za-z0-9_]+[[:space:]]*\(' | sed 's/[[:space:]]*($//' | sort -u
}
declared_in "$sg_include" ops.h kernels.h > "$work/sg_plugin_all.txt"
declared_in "$sg_include" c_api.h c_api_experimental.h tf_attrtype.h tf_buffer.h tf_datatype.h \
  tf_file_statistics.h tf_status.h tf_tensor.h tf_tstring.h > "$work/sg_base.txt"
comm -23 "$work/sg_plugin_all.txt" "$work/sg_base.txt" > "$work/sg_plugin.txt"
np="$(wc -l < "$work/sg_plugin.txt")"
[ "$np" -ge 40 ] || fail "only $np functions found in sg's ops.h and kernels.h"
declared_in "$TF_WHEEL_INCLUDE" ops.h kernels.h > "$work/tf_plugin_declared.txt"
unknown="$(comm -23 "$work/sg_plugin.txt" "$work/tf_plugin_declared.txt")"
[ -z "$unknown" ] || fail "sg's ops.h and kernels.h declare functions TensorFlow's do not: $unknown"
unexported="$(comm -23 "$work/sg_plugin.txt" "$work/exported.txt")"
[ -z "$unexported" ] || fail "sg's ops.h and kernels.h declare functions TensorFlow's wheel does not export: $unexported"
sort -u "$work/compared.txt" "$work/sg_plugin.txt" | sed 's/.*/SG_PROBE_FUNCTION(&)/' > "$work/functions.inc"

for side in tensorflow sg; do
  if [ "$side" = tensorflow ]; then inc="$TF_WHEEL_INCLUDE"; else inc="$sg_include"; fi
  "$cxx" -std=c++17 -I"$inc" -DSG_PROBE_FUNCTIONS="\"$work/functions.inc\"" \
    -o "$work/probe_$side" "$here/tf_header_probe.cc" 2> "$work/compile_$side.log" \
    || { cat "$work/compile_$side.log" >&2; fail "tf_header_probe.cc does not compile against the $side headers"; }
  "$work/probe_$side" > "$work/$side.txt" || fail "probe_$side"
done
if ! diff -u "$work/tensorflow.txt" "$work/sg.txt" > "$work/diff.txt"; then
  cat "$work/diff.txt" >&2
  fail "sg's headers differ from TensorFlow's (- TensorFlow, + sg)"
fi
echo "tf_headers_test: $n function types (and $np of ops.h and kernels.h, of $(comm -12 "$work/tf_plugin_declared.txt" "$work/exported.txt" | comm -23 - "$work/declared.txt" | wc -l) TensorFlow's declare and export), $(grep -c '^member' "$work/sg.txt") struct members and $(grep -c '^value' "$work/sg.txt") constants are the same in sg's headers as in TensorFlow's"
