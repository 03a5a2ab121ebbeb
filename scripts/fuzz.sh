#!/usr/bin/env bash
# Builds the fuzz targets of fuzz/ as libFuzzer binaries with Clang under AddressSanitizer and
# UndefinedBehaviorSanitizer (scripts/build.sh --asan, build-asan/, the build scripts/test.sh
# also runs the sanitizer tests in), then runs each target for a bounded time from its committed
# seed corpus and regression inputs, and prints the executions per target. Exits non-zero when a
# target crashes, hangs, leaks or trips a sanitizer; the input that did it is kept under
# build-asan/artifacts/<target>/ and the command to reproduce it is printed.
#
#   scripts/fuzz.sh [TARGET...]       targets: graph tensor_proto checkpoint saved_model master
#                                     worker wire (default: all)
#
#   FUZZ_SECONDS     how long each target runs (default 60)
#   FUZZ_BUILD_DIR   build directory (default build-asan/)
#   FUZZ_SKIP_BUILD  1: use the binaries already built
#   FUZZ_JOBS        how many targets run at once (default 1)
#   JOBS             parallel build jobs (default: nproc)
#   FUZZ_REPORT      a file to which each failing target's finding is appended: the sanitizer's
#                    or libFuzzer's report (40 lines from its first) and the input's first
#                    4 KiB in base64 (scripts/test.sh prints it again at its end, where CI's log
#                    shows it)
#
# New inputs that reach new code go to build-asan/corpus/<target>/ (not to the repository);
# fuzz/README.md says how to turn a crash into a regression input.
set -euo pipefail

cd "$(dirname "$0")/.."
REPO="$(pwd)"
FUZZ_SECONDS="${FUZZ_SECONDS:-60}"
FUZZ_JOBS="${FUZZ_JOBS:-1}"
FUZZ_BUILD_DIR="${FUZZ_BUILD_DIR:-build-asan}"
case "$FUZZ_BUILD_DIR" in /*) ;; *) FUZZ_BUILD_DIR="$REPO/$FUZZ_BUILD_DIR" ;; esac
ALL_TARGETS=(graph tensor_proto checkpoint saved_model master worker wire)
if [ $# -gt 0 ]; then targets=("$@"); else targets=("${ALL_TARGETS[@]}"); fi

if [ "${FUZZ_SKIP_BUILD:-0}" != 1 ]; then
  fuzzers=()
  for t in "${targets[@]}"; do fuzzers+=("${t}_fuzzer"); done
  BUILD_DIR="$FUZZ_BUILD_DIR" scripts/build.sh --asan -- "${fuzzers[@]}"
fi

# A single allocation over 1 GiB fails (new throws, the step fails with RESOURCE_EXHAUSTED), as
# it may on a real host; memory in use over 3 GiB is reported as a finding by libFuzzer.
# (FUZZ_ASAN_OPTIONS / FUZZ_UBSAN_OPTIONS override; the caller's ASAN_OPTIONS are not used.)
export ASAN_OPTIONS="${FUZZ_ASAN_OPTIONS:-allocator_may_return_null=1:max_allocation_size_mb=1024:detect_leaks=1:detect_stack_use_after_return=0}"
export UBSAN_OPTIONS="${FUZZ_UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

# fuzz_one TARGET: runs it, then writes "rc runs coverage" to its log's .result file.
fuzz_one() {
  local t=$1
  local exe="$FUZZ_BUILD_DIR/fuzz/${t}_fuzzer"
  local work="$FUZZ_BUILD_DIR/corpus/$t" artifacts="$FUZZ_BUILD_DIR/artifacts/$t"
  local log="$FUZZ_BUILD_DIR/fuzz-$t.log"
  mkdir -p "$work" "$artifacts"
  local inputs=("$work" "$REPO/fuzz/corpus/$t")
  [ -d "$REPO/fuzz/regressions/$t" ] && inputs+=("$REPO/fuzz/regressions/$t")
  local rc=0
  "$exe" -max_total_time="$FUZZ_SECONDS" -timeout=60 -rss_limit_mb=3072 -malloc_limit_mb=4096 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" "${inputs[@]}" >"$log" 2>&1 || rc=$?
  local runs cov
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1) || true
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2) || true
  echo "$rc ${runs:-?} ${cov:-?}" >"$log.result"
}

# FUZZ_JOBS targets at a time (each libFuzzer process uses one core).
running=0
for t in "${targets[@]}"; do
  echo "=== fuzz.sh: $t for ${FUZZ_SECONDS} s"
  rm -f "$FUZZ_BUILD_DIR/fuzz-$t.log.result"
  fuzz_one "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$FUZZ_JOBS" ]; then wait -n || true; running=$((running - 1)); fi
done
wait

failed=()
summary=()
for t in "${targets[@]}"; do
  log="$FUZZ_BUILD_DIR/fuzz-$t.log"
  read -r rc runs cov <"$log.result" || { rc=1; runs="?"; cov="?"; }
  if [ "$rc" -ne 0 ]; then
    failed+=("$t")
    summary+=("$t: FAILED (exit $rc) after $runs executions; see $log")
    tail -60 "$log" >&2
    for a in "$FUZZ_BUILD_DIR/artifacts/$t"/*; do
      [ -f "$a" ] && echo "fuzz.sh: reproduce with: $FUZZ_BUILD_DIR/fuzz/${t}_fuzzer $a" >&2
    done
    if [ -n "${FUZZ_REPORT:-}" ]; then
      {
        echo "--- fuzz target $t failed (exit $rc) after $runs executions:"
        pattern='==[0-9]+== ?(ERROR|WARNING)|ERROR: libFuzzer|runtime error:|^Slowest'
        first=$(grep -n -m1 -E "$pattern" "$log" | cut -d: -f1) || true
        tail -n +"${first:-1}" "$log" | head -40
        for a in "$FUZZ_BUILD_DIR/artifacts/$t"/*; do
          [ -f "$a" ] || continue
          echo "--- its input $(basename "$a") ($(stat -c %s "$a") bytes;" \
               "the first 4096 in base64):"
          head -c 4096 "$a" | base64
        done
      } >>"$FUZZ_REPORT"
    fi
  else
    summary+=("$t: $runs executions in ${FUZZ_SECONDS} s, coverage $cov, no crash")
  fi
done

echo "=== fuzz.sh: summary"
printf '  %s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz.sh: FAILED: ${failed[*]}" >&2
  exit 1
fi
