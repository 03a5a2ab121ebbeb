#!/usr/bin/env bash
# Installs the dependencies, builds sg and runs every test: once in the Release-with-assertions
# build (build/, GCC), then in one Clang build (build-asan/, scripts/build.sh --asan) under
# AddressSanitizer + UndefinedBehaviorSanitizer, where the lock annotations are also checked as
# errors and every fuzz target is built as a libFuzzer binary and run for FUZZ_SECONDS
# (scripts/fuzz.sh, JOBS targets at a time); then the runtime's concurrency tests under
# ThreadSanitizer (build-tsan/, scripts/build.sh --tsan).
# Exits non-zero if anything fails. Each phase prints how long the previous one took. CI runs
# this from a cold start on 2 cores within its hour; the README gives the time of each phase.
#
#   BUILD_DIR       plain build (default build/)
#   ASAN_BUILD_DIR  sanitizer and fuzz build (default build-asan/)
#   TSAN_BUILD_DIR  ThreadSanitizer build (default build-tsan/)
#   FUZZ_SECONDS    how long each fuzz target runs (default 20 here)
#   SG_SKIP_ASAN=1  skip the ASan build (its tests and the fuzz runs); SG_SKIP_TSAN=1,
#                   SG_SKIP_FUZZ=1 likewise (quick local runs; CI never sets them)
#   SG_SKIP_ORACLE=1  do not make the TensorFlow oracle's venv (the model corpus's Keras
#                   applications are then skipped, and ctest says so)
#   SG_FREE_BUILDS=1  remove each build directory once its tests have run (ccache keeps the
#                   objects), so that the disk holds one build at a time, not three; .ci/run
#                   sets it, its clone being thrown away after the run
set -euo pipefail

cd "$(dirname "$0")/.."
REPO="$(pwd)"
BUILD_DIR="${BUILD_DIR:-build}"
ASAN_BUILD_DIR="${ASAN_BUILD_DIR:-build-asan}"
TSAN_BUILD_DIR="${TSAN_BUILD_DIR:-build-tsan}"
JOBS="${JOBS:-$(nproc)}"
export JOBS

phase_start=$SECONDS
phase() {  # phase NAME: prints the time taken by the previous phase and the free disk, then NAME
  local free
  free=$(df -Pm . 2>/dev/null | awk 'NR == 2 { print $4 }')
  echo "=== test.sh: ${1} (previous phase took $((SECONDS - phase_start)) s, total $SECONDS s;" \
       "${free:-?} MiB free on this disk)"
  phase_start=$SECONDS
}
free_build() {  # free_build DIR: with SG_FREE_BUILDS=1, removes a build directory done with
  if [ "${SG_FREE_BUILDS:-0}" = 1 ]; then
    echo "=== test.sh: removing $1 (SG_FREE_BUILDS=1)"
    rm -rf "$1"
  fi
}

ctest_args=(--output-on-failure --timeout 600 -j "$JOBS")
failed=()
# What the fuzz targets found, printed again at the end: the build directory that holds their
# logs and inputs may be gone by then (SG_FREE_BUILDS), and CI shows the end of the output.
fuzz_report="$(mktemp)"
trap 'rm -f "$fuzz_report"' EXIT

phase "install-deps"
scripts/install-deps.sh

# The TensorFlow oracle (tests/oracle/setup_venv.sh, pinned tensorflow-cpu from PyPI): ctest's
# model_corpus_generate writes the Keras applications of the model corpus with it. Without it
# (no PyPI) those cases are skipped and ctest prints why; every other test runs. It is made in the
# background while sg builds (most of it is waiting for the download), and waited for before ctest.
venv_pid=""
venv_log="$(mktemp)"
if [ "${SG_SKIP_ORACLE:-0}" != 1 ]; then
  echo "=== test.sh: making the TensorFlow oracle venv in the background"
  tests/oracle/setup_venv.sh >"$venv_log" 2>&1 &
  venv_pid=$!
fi
wait_for_venv() {
  [ -n "$venv_pid" ] || return 0
  phase "waiting for the TensorFlow oracle venv"
  if ! wait "$venv_pid"; then
    cat "$venv_log" >&2
    echo "test.sh: could not make the TensorFlow oracle venv; the model corpus's Keras" \
         "applications will be skipped" >&2
  fi
  venv_pid=""
}

# The Java and Go bindings are built and tested in the plain build wherever their toolchains are
# (explicitly, so that a build directory configured before they existed picks them up too).
binding_args=()
if command -v swig >/dev/null 2>&1 && command -v javac >/dev/null 2>&1; then
  binding_args+=(-DSG_BUILD_JAVA=ON)
fi
if command -v swig >/dev/null 2>&1 && { command -v go >/dev/null 2>&1 || [ -x /usr/local/go/bin/go ]; }; then
  binding_args+=(-DSG_BUILD_GO=ON)
fi

phase "build ($BUILD_DIR)"
BUILD_DIR="$BUILD_DIR" scripts/build.sh ${binding_args[@]+"${binding_args[@]}"}

wait_for_venv
phase "ctest ($BUILD_DIR)"
if ! (cd "$BUILD_DIR" && ctest "${ctest_args[@]}"); then
  failed+=("ctest in $BUILD_DIR")
fi
free_build "$BUILD_DIR"

if [ "${SG_SKIP_ASAN:-0}" != 1 ]; then
  phase "build under ASan+UBSan, with the fuzz targets and thread-safety analysis ($ASAN_BUILD_DIR)"
  BUILD_DIR="$ASAN_BUILD_DIR" scripts/build.sh --asan

  phase "ctest under ASan+UBSan ($ASAN_BUILD_DIR)"
  # Leaks are errors; UBSan stops at the first report (-fno-sanitize-recover) with a stack. The
  # soak test runs in the plain build only: its bound on memory growth is not one that ASan's
  # quarantine (freed memory held back on purpose) can meet.
  if ! (cd "$ASAN_BUILD_DIR" &&
        ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=0}" \
        UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}" \
        ctest "${ctest_args[@]}" -LE soak); then
    failed+=("ctest under ASan+UBSan in $ASAN_BUILD_DIR")
  fi

  if [ "${SG_SKIP_FUZZ:-0}" != 1 ]; then
    phase "fuzz targets, ${FUZZ_SECONDS:-20} s each, $JOBS at a time (scripts/fuzz.sh, $ASAN_BUILD_DIR)"
    if ! FUZZ_BUILD_DIR="$ASAN_BUILD_DIR" FUZZ_SKIP_BUILD=1 FUZZ_SECONDS="${FUZZ_SECONDS:-20}" \
         FUZZ_JOBS="$JOBS" FUZZ_REPORT="$fuzz_report" \
         scripts/fuzz.sh; then
      failed+=("scripts/fuzz.sh")
    fi
  fi
  free_build "$ASAN_BUILD_DIR"
fi

# The concurrency tests under ThreadSanitizer: sessions under concurrent Run and Close, the
# executor's pools (the test graphs' loops and conds), master and worker in process and over gRPC
# (rendezvous, RecvTensor, cancellation, three tasks in one process), and the C API's graph lock.
# Not here: cluster_test, whose tasks are `sg server` processes (a report inside one would not
# reach the test, and three TSan processes on a small machine miss the tests' connection
# deadlines), and the Java and Go bindings' stress tests (a JVM or a Go binary does not load a
# TSan-instrumented libsg: TSan must be in the executable; each binding only converts and calls
# the C API that c_api_bad_input_test covers).
TSAN_TESTS=(session_test testdata_graphs_test master_session_test worker_test server_test
            c_api_bad_input_test)
if [ "${SG_SKIP_TSAN:-0}" != 1 ]; then
  phase "build under TSan ($TSAN_BUILD_DIR)"
  BUILD_DIR="$TSAN_BUILD_DIR" scripts/build.sh --tsan -- sg_core sg_distributed sg "${TSAN_TESTS[@]}"

  phase "ctest under TSan ($TSAN_BUILD_DIR)"
  tsan_regex="^($(IFS='|'; echo "${TSAN_TESTS[*]}"))\$"
  if ! (cd "$TSAN_BUILD_DIR" &&
        TSAN_OPTIONS="${TSAN_OPTIONS:-second_deadlock_stack=1 suppressions=$REPO/tests/tsan_suppressions.txt}" \
        ctest "${ctest_args[@]}" -R "$tsan_regex"); then
    failed+=("ctest under TSan in $TSAN_BUILD_DIR")
  fi
  free_build "$TSAN_BUILD_DIR"
fi

phase "done"
if [ -s "$fuzz_report" ]; then
  echo "=== test.sh: what the fuzz targets found (scripts/fuzz.sh)"
  cat "$fuzz_report"
fi
if [ ${#failed[@]} -gt 0 ]; then
  printf 'test.sh: FAILED: %s\n' "${failed[@]}" >&2
  exit 1
fi
echo "test.sh: all tests passed"
