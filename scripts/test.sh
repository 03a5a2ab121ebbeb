#!/usr/bin/env bash
# Installs the dependencies, builds sg and runs every test: once in the Release-with-assertions
# build (build/), once more under AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/).
# Exits non-zero if anything fails. Takes well under 20 minutes on 2 cores with a warm ccache.
#
#   BUILD_DIR       plain build (default build/)
#   ASAN_BUILD_DIR  sanitizer build (default build-asan/)
#   SG_SKIP_ASAN=1  skip the sanitizer pass (quick local runs; CI never sets it)
#   SG_SKIP_ORACLE=1  do not make the TensorFlow oracle's venv (the model corpus's Keras
#                   applications are then skipped, and ctest says so)
set -euo pipefail

cd "$(dirname "$0")/.."
REPO="$(pwd)"
BUILD_DIR="${BUILD_DIR:-build}"
ASAN_BUILD_DIR="${ASAN_BUILD_DIR:-build-asan}"
JOBS="${JOBS:-$(nproc)}"
export JOBS

phase_start=$SECONDS
phase() {  # phase NAME: prints the time taken by the previous phase, then NAME
  echo "=== test.sh: ${1} (previous phase took $((SECONDS - phase_start)) s, total $SECONDS s)"
  phase_start=$SECONDS
}

ctest_args=(--output-on-failure --timeout 600 -j "$JOBS")
failed=()

phase "install-deps"
scripts/install-deps.sh

# The TensorFlow oracle (tests/oracle/setup_venv.sh, pinned tensorflow-cpu from PyPI): ctest's
# model_corpus_generate writes the Keras applications of the model corpus with it. Without it
# (no PyPI) those cases are skipped and ctest prints why; every other test runs.
if [ "${SG_SKIP_ORACLE:-0}" != 1 ]; then
  phase "TensorFlow oracle venv"
  if ! tests/oracle/setup_venv.sh >/dev/null; then
    echo "test.sh: could not make the TensorFlow oracle venv; the model corpus's Keras" \
         "applications will be skipped" >&2
  fi
fi

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

phase "ctest ($BUILD_DIR)"
if ! (cd "$BUILD_DIR" && ctest "${ctest_args[@]}"); then
  failed+=("ctest in $BUILD_DIR")
fi

if [ "${SG_SKIP_ASAN:-0}" != 1 ]; then
  phase "build under ASan+UBSan ($ASAN_BUILD_DIR)"
  BUILD_DIR="$ASAN_BUILD_DIR" scripts/build.sh -DSG_SANITIZE=address,undefined

  phase "ctest under ASan+UBSan ($ASAN_BUILD_DIR)"
  # Leaks are errors; UBSan stops at the first report (-fno-sanitize-recover) with a stack.
  export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=0}"
  export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
  if ! (cd "$ASAN_BUILD_DIR" && ctest "${ctest_args[@]}"); then
    failed+=("ctest under ASan+UBSan in $ASAN_BUILD_DIR")
  fi
fi

phase "done"
if [ ${#failed[@]} -gt 0 ]; then
  printf 'test.sh: FAILED: %s\n' "${failed[@]}" >&2
  exit 1
fi
echo "test.sh: all tests passed"
