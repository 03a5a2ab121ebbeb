#!/usr/bin/env bash
# Configures and builds sg: Release with assertions (NDEBUG not defined), Ninja, ccache.
#
#   scripts/build.sh [CMAKE_ARG...] [-- NINJA_TARGET...]
#
#   BUILD_DIR   build directory (default: build/ in the repo; relative paths are taken from the repo)
#   CCACHE_DIR  ccache's store (default: ~/.cache/ccache)
#   JOBS        parallel jobs (default: nproc)
#
# Example: BUILD_DIR=build-asan scripts/build.sh -DSG_SANITIZE=address,undefined
set -euo pipefail

REPO="$(cd "$(dirname "$0")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-build}"
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
mkdir -p "$CCACHE_DIR"
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi

# Release with assertions: CMake's Release flags without -DNDEBUG.
cmake -S "$REPO" -B "$BUILD_DIR" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_FLAGS_RELEASE="-O2 -g0" \
  -DCMAKE_CXX_FLAGS_RELEASE="-O2 -g0" \
  "${launcher[@]}" \
  "${cmake_args[@]}"

cmake --build "$BUILD_DIR" -j "$JOBS" ${targets[@]+-- "${targets[@]}"}
