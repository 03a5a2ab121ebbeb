#!/bin/sh
# tf_symbols_test.sh MODE LIBTENSORFLOW NM CC SG_TF_INCLUDE WORK_DIR
# The TF_ and TFE_ symbols of sg's libtensorflow.so.2.
#   MODE exports:    the library exports exactly the functions sg's tensorflow/c headers declare
#                    (TF_, and TFE_ from eager/c_api.h), each under version node VERS_1.0
#                    (TensorFlow's), and nothing else (no SG_, no C++ symbols). Always runs.
#   MODE tensorflow: every TF_ function that TensorFlow 2.21's wheel exports (libtensorflow_cc.so.2,
#                    and libtensorflow_framework.so.2 where TensorFlow moved the status, buffer and
#                    tensor functions) and declares in the headers of its C API (c_api.h,
#                    c_api_experimental.h, tf_*.h), and every TFE_ function it exports and
#                    declares in eager/c_api.h, is exported by sg's library. The list is written
#                    at test time from the wheel to WORK_DIR/tensorflow_symbols.txt. SKIPPED (exit 77) without the oracle venv.
set -eu
mode="$1" lib="$2" nm="$3" cc="$4" sg_include="$5" work="$6"
here="$(cd "$(dirname "$0")" && pwd)"
rm -rf "$work"
mkdir -p "$work"
fail() { echo "tf_symbols_test: FAILED: $*" >&2; exit 1; }

# Every dynamic symbol the library defines, "name@@version".
"$nm" -D --defined-only "$lib" | awk '{ print $3 }' | sort -u > "$work/exported_raw.txt"
grep -v '^VERS_1\.0$' "$work/exported_raw.txt" | sed 's/@.*//' | sort -u > "$work/exported.txt"

# declared_by PREFIX INCLUDE_DIR HEADER...: the names of the functions starting with PREFIX
# (TF_ or TFE_) that C headers declare: identifiers followed by "(" after preprocessing, less the
# static inline TF_TString_* helpers of tf_tstring.h (inline in TensorFlow's too: no symbol of
# either library).
declared_by() {
  prefix="$1" inc="$2"; shift 2
  for h in "$@"; do echo "#include \"tensorflow/c/$h\""; done > "$work/headers.c"
  "$cc" -E -P -I"$inc" "$work/headers.c" | grep -oE "\\b${prefix}[A-Za-z0-9_]+[[:space:]]*\\(" \
    | sed 's/[[:space:]]*($//' | grep -v '^TF_TString_' | sort -u
}

case "$mode" in
exports)
  bad="$(grep -v '@@VERS_1\.0$' "$work/exported_raw.txt" | grep -v '^VERS_1\.0$' || true)"
  [ -z "$bad" ] || fail "symbols outside version node VERS_1.0:
$bad"
  others="$(grep -v '^TFE\{0,1\}_' "$work/exported.txt" || true)"
  [ -z "$others" ] || fail "symbols that are not TF_ or TFE_ functions are exported:
$others"
  { declared_by TF_ "$sg_include" c_api.h c_api_experimental.h tf_file_statistics.h ops.h kernels.h
    declared_by TFE_ "$sg_include" eager/c_api.h; } | sort -u > "$work/declared.txt"
  missing="$(comm -23 "$work/declared.txt" "$work/exported.txt")"
  extra="$(comm -13 "$work/declared.txt" "$work/exported.txt")"
  [ -z "$missing" ] || fail "declared in sg's tensorflow/c headers but not exported:
$missing"
  [ -z "$extra" ] || fail "exported but not declared in sg's tensorflow/c headers:
$extra"
  echo "tf_symbols_test: $(wc -l < "$work/exported.txt") TF_ and TFE_ functions declared and exported, all @@VERS_1.0"
  ;;
tensorflow)
  . "$here/tf_oracle_paths.sh"
  if ! find_tf_wheel; then
    echo "tf_symbols_test: SKIPPED: $TF_WHEEL_MISSING"
    exit 77
  fi
  for so in libtensorflow_cc.so.2 libtensorflow_framework.so.2; do
    "$nm" -D --defined-only "$TF_WHEEL_DIR/$so" | awk '{ print $3 }' | sed 's/@.*//' | grep '^TFE\{0,1\}_' || true
  done | sort -u > "$work/wheel_exports.txt"
  { declared_by TF_ "$TF_WHEEL_INCLUDE" c_api.h c_api_experimental.h tf_attrtype.h tf_buffer.h \
      tf_datatype.h tf_file_statistics.h tf_status.h tf_tensor.h tf_tstring.h
    declared_by TFE_ "$TF_WHEEL_INCLUDE" eager/c_api.h; } | sort -u > "$work/wheel_declared.txt"
  comm -12 "$work/wheel_exports.txt" "$work/wheel_declared.txt" > "$work/tensorflow_symbols.txt"
  n="$(wc -l < "$work/tensorflow_symbols.txt")"
  [ "$n" -ge 250 ] || fail "only $n TF_ and TFE_ symbols found in the wheel: is $TF_WHEEL_DIR a TensorFlow 2.x wheel?"
  missing="$(comm -23 "$work/tensorflow_symbols.txt" "$work/exported.txt")"
  [ -z "$missing" ] || fail "TensorFlow exports these, sg's libtensorflow.so.2 does not:
$missing"
  echo "tf_symbols_test: all $n TF_ and TFE_ functions TensorFlow's wheel exports from its C API headers are exported by sg ($(wc -l < "$work/exported.txt") in all; list: $work/tensorflow_symbols.txt)"
  extra="$(comm -13 "$work/tensorflow_symbols.txt" "$work/exported.txt" | tr '\n' ' ')"
  [ -z "$extra" ] || echo "tf_symbols_test: sg exports these beyond it: $extra"
  ;;
*) fail "unknown mode $mode" ;;
esac
