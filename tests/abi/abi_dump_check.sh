#!/bin/sh
# abi_dump_check.sh LIBSG HEADER_DIR BASELINE_DUMP_XZ WORK_DIR
# Dumps the ABI of the freshly built libsg (abi-dumper reads the DWARF of the c_api/*.cc objects,
# built with -g: SG_C_API_DEBUG_INFO) restricted to the public headers, and compares it with the
# committed baseline (abi-compliance-checker). Fails on any binary or source incompatibility:
# a removed or changed function, a changed value struct or enum. Additions pass.
# Exits 77 (ctest: skipped) when abi-dumper or abi-compliance-checker is not installed
# (scripts/install-deps.sh installs both). Refresh the baseline: scripts/refresh-abi-baseline.sh.
set -eu
lib="$1" headers="$2" baseline="$3" work="$4"

for tool in abi-dumper abi-compliance-checker xz; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "abi_dump_check: SKIPPED: $tool is not installed (scripts/install-deps.sh installs it)"
    exit 77
  fi
done
if ! readelf -S "$lib" | grep -q '\.debug_info'; then
  echo "abi_dump_check: $lib has no debug info: configure with -DSG_C_API_DEBUG_INFO=ON" >&2
  exit 1
fi

rm -rf "$work"
mkdir -p "$work"
xz -dc "$baseline" > "$work/baseline.dump"
abi-dumper "$lib" -o "$work/current.dump" -lver current -public-headers "$headers" \
  > "$work/abi-dumper.log" 2>&1 || { cat "$work/abi-dumper.log" >&2; exit 1; }

if abi-compliance-checker -l sg -old "$work/baseline.dump" -new "$work/current.dump" \
    -report-path "$work/report.html" > "$work/acc.log" 2>&1; then
  grep -E '^(Binary|Source) compatibility|^Total' "$work/acc.log"
  echo "abi_dump_check: libsg is compatible with tests/abi/baseline"
  exit 0
fi
cat "$work/acc.log" >&2
# The report is HTML; as text, its part from the problem summary to the file lists says what
# broke (removed symbols, changed types and signatures, by name).
sed -e 's/<[^>]*>/ /g' -e 's/&nbsp;\|&#160;/ /g' "$work/report.html" | tr -s ' \t' \
  | grep -v '^ *$' | sed -n '/Problem Summary/,/Header Files/p' | grep -v 'to the top' \
  | head -80 >&2 || true
echo "abi_dump_check: FAILED: libsg breaks the ABI of tests/abi/baseline; report: $work/report.html" >&2
echo "  (an intended addition that still fails here is not an addition; a deliberate break" >&2
echo "   needs a new SONAME, see DESIGN.md \"The C ABI\")" >&2
exit 1
