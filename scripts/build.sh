#!/usr/bin/env bash
# Configures and builds sg: Release with assertions (NDEBUG not defined), Ninja, ccache.
#
#   scripts/build.sh [--asan | --tsan] [CMAKE_ARG...] [-- NINJA_TARGET...]
#
#   (no preset)  the compiler CMake finds (GCC on Debian), -O2; build/
#   --asan       Clang, -O1 with line tables; AddressSanitizer and UndefinedBehaviorSanitizer,
#                the fuzz targets as libFuzzer binaries (SG_BUILD_FUZZERS) and the lock
#                annotations checked as errors (SG_THREAD_SAFETY_ANALYSIS), all in one build so
#                that the sanitizer tests, the fuzz runs and the analysis share its objects;
#                no Java or Go bindings; build-asan/
#   --tsan       Clang, -O2 without debug info; ThreadSanitizer and the lock annotations checked;
#                no Java or Go bindings; build-tsan/ (tests/tsan_suppressions.txt matches the
#                frames of this build: line tables would add inlined frames without namespaces)
#
#   The two Clang builds do without precompiled headers (SG_PCH=OFF), so that ccache finds their
#   objects from any clone: CMake hands Clang the header's absolute path after -Xclang, which
#   ccache does not rewrite relative to CCACHE_BASEDIR, so each clone (CI's is new every run) got
#   misses only. Compiled from source, a file's command line holds paths ccache does rewrite, and
#   ccache leaves the working directory out of its hash (CCACHE_NOHASHDIR): an object from another
#   clone has that clone's directory in its line tables, which changes no code.
#
#   BUILD_DIR   build directory (default as above; relative paths are taken from the repo)
#   CCACHE_DIR  ccache's store (default: ~/.cache/ccache)
#   JOBS        parallel jobs (default: nproc)
#
# Examples: scripts/build.sh --asan -- session_test graph_fuzzer
#           BUILD_DIR=build-debug scripts/build.sh -DCMAKE_CXX_FLAGS_RELEASE="-O0 -g"
set -euo pipefail

REPO="$(cd "$(dirname "$0")/.." && pwd)"
preset=""
case "${1:-}" in --asan|--tsan) preset="$1"; shift ;; esac

opt_flags="-O2 -g0"
preset_args=()
clang_args=(-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DSG_THREAD_SAFETY_ANALYSIS=ON
            -DSG_BUILD_JAVA=OFF -DSG_BUILD_GO=OFF -DSG_PCH=OFF)
case "$preset" in
  --asan)
    default_dir=build-asan
    opt_flags="-O1 -gline-tables-only"
    # UndefinedBehaviorSanitizer without the checks that double the build time of the Eigen
    # kernels (CMakeLists.txt, SG_SANITIZE_EXCLUDE): AddressSanitizer already reports what
    # they would (null and out-of-object accesses), or they are not bugs on x86-64 (alignment).
    # Each test links all of sg_core, instrumented: about 200 MB a binary, so the build tree was
    # on its way to about 15 GB. The executables are linked without PIE (its relocations were
    # 24 MB of each) and their line tables compressed (zlib; the symbolizer reads them so):
    # 121-127 MB a binary, 8.9 GB for the whole tree.
    preset_args=("${clang_args[@]}" -DSG_SANITIZE=address,undefined -DSG_BUILD_FUZZERS=ON
                 "-DSG_SANITIZE_EXCLUDE=alignment,null,object-size,pointer-overflow,vptr,function"
                 "-DCMAKE_EXE_LINKER_FLAGS=-no-pie -Wl,--compress-debug-sections=zlib"
                 "-DCMAKE_SHARED_LINKER_FLAGS=-Wl,--compress-debug-sections=zlib")
    ;;
  --tsan)
    default_dir=build-tsan
    preset_args=("${clang_args[@]}" -DSG_SANITIZE=thread)
    ;;
  *) default_dir=build ;;
esac
if [ -n "$preset" ]; then export CC=clang CXX=clang++ CCACHE_NOHASHDIR=true; fi

BUILD_DIR="${BUILD_DIR:-$default_dir}"
case "$BUILD_DIR" in /*) ;; *) BUILD_DIR="$REPO/$BUILD_DIR" ;; esac
JOBS="${JOBS:-$(nproc)}"

cmake_args=()
targets=()
while [ $# -gt 0 ]; do
  if [ "$1" = "--" ]; then shift; targets=("$@"); break; fi
  cmake_args+=("$1"); shift
done

# ccache: one store per user; paths below the repo are hashed relative to it, so another clone or
# checkout of the same sources hits the same entries.
export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/ccache}"
export CCACHE_BASEDIR="$REPO"
# Precompiled headers (SG_PCH) are cached too when ccache may ignore their time stamps and macros.
export CCACHE_SLOPPINESS="${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}"
mkdir -p "$CCACHE_DIR"
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi

# Release with assertions: CMake's Release flags without -DNDEBUG. The caller's arguments come
# last, so they override the preset's.
cmake -S "$REPO" -B "$BUILD_DIR" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_FLAGS_RELEASE="$opt_flags" \
  -DCMAKE_CXX_FLAGS_RELEASE="$opt_flags" \
  "${launcher[@]}" \
  ${preset_args[@]+"${preset_args[@]}"} \
  ${cmake_args[@]+"${cmake_args[@]}"}

cmake --build "$BUILD_DIR" -j "$JOBS" ${targets[@]+-- "${targets[@]}"}
