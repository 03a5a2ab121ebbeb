#!/usr/bin/env bash
# Refreshes the ABI baseline of libsg.so.1 after an intended addition to the C API:
#
#   scripts/refresh-abi-baseline.sh            # then review and commit tests/abi/
#
# It builds libsg (scripts/build.sh; the C API sources get -g, SG_C_API_DEBUG_INFO) and rewrites
#   tests/abi/symbols.txt                    the exported dynamic symbols (nm -D --defined-only)
#   tests/abi/baseline/libsg.abi.dump.xz     the ABI dump (abi-dumper over the public headers)
#   tests/abi/baseline/c_api.h               the header old_client.c is compiled against
# The ctest tests abi_symbols, abi_dump_compat and abi_old_client check against these.
#
# Before rewriting anything it checks the new library against the current baseline and stops if
# a symbol was removed or the ABI dump comparison fails: additions only. A deliberate break
# (a new SONAME, see DESIGN.md "The C ABI") passes --force.
#
#   BUILD_DIR   build directory (default build/, as scripts/build.sh)
#   LIBSG       an already built libsg.so (with SG_C_API_DEBUG_INFO) to take instead of building
set -euo pipefail

REPO="$(cd "$(dirname "$0")/.." && pwd)"
cd "$REPO"
BUILD_DIR="${BUILD_DIR:-build}"
case "$BUILD_DIR" in /*) ;; *) BUILD_DIR="$REPO/$BUILD_DIR" ;; esac
force=0
if [ "${1:-}" = "--force" ]; then force=1; fi

for tool in abi-dumper abi-compliance-checker xz nm; do
  command -v "$tool" >/dev/null || { echo "refresh-abi-baseline: $tool missing (scripts/install-deps.sh)" >&2; exit 1; }
done

if [ -n "${LIBSG:-}" ]; then
  lib="$LIBSG"
else
  BUILD_DIR="$BUILD_DIR" scripts/build.sh -DSG_C_API_DEBUG_INFO=ON -- sg
  lib="$BUILD_DIR/c_api/libsg.so"
fi
abi="$REPO/tests/abi"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Additions only, unless --force.
if [ $force = 0 ] && [ -f "$abi/symbols.txt" ]; then
  cmake -DLIB="$lib" -DNM=nm -DLIST="$abi/symbols.txt" -P "$abi/check_symbols.cmake" \
    > "$work/symbols.log" 2>&1 || true
  if grep -q 'removed from the library' "$work/symbols.log"; then
    cat "$work/symbols.log" >&2
    echo "refresh-abi-baseline: symbols were removed; not refreshing (--force for a deliberate break)" >&2
    exit 1
  fi
fi
if [ $force = 0 ] && [ -f "$abi/baseline/libsg.abi.dump.xz" ]; then
  if ! sh "$abi/abi_dump_check.sh" "$lib" "$REPO/c_api/include/sg" \
      "$abi/baseline/libsg.abi.dump.xz" "$work/check"; then
    echo "refresh-abi-baseline: the library is not compatible with the baseline; not refreshing" >&2
    echo "  (--force for a deliberate break, which also needs a new SONAME)" >&2
    exit 1
  fi
fi

version="$(sed -n 's/^#define SG_VERSION_STRING "\(.*\)"/\1/p' c_api/include/sg/c_api.h)"
{
  echo "# The dynamic symbols libsg.so.1 exports (nm -D --defined-only), all in version node SG_1."
  echo "# Checked by ctest abi_symbols; rewritten by scripts/refresh-abi-baseline.sh (sg $version)."
  nm -D --defined-only "$lib" | awk '{print $3}' | sed 's/@.*//' | grep -v '^SG_1$' | LC_ALL=C sort
} > "$abi/symbols.txt"

mkdir -p "$abi/baseline"
abi-dumper "$lib" -o "$work/libsg.abi.dump" -lver "$version" \
  -public-headers "$REPO/c_api/include/sg" > "$work/abi-dumper.log" 2>&1 \
  || { cat "$work/abi-dumper.log" >&2; exit 1; }
xz -9e -c "$work/libsg.abi.dump" > "$abi/baseline/libsg.abi.dump.xz"
cp c_api/include/sg/c_api.h "$abi/baseline/c_api.h"

echo "refresh-abi-baseline: $(grep -vc '^#' "$abi/symbols.txt") symbols; dump $(wc -c < "$work/libsg.abi.dump") bytes" \
     "($(wc -c < "$abi/baseline/libsg.abi.dump.xz") compressed)"
git status --short -- tests/abi
echo "Review (git diff tests/abi/symbols.txt tests/abi/baseline/c_api.h) and commit tests/abi/."
