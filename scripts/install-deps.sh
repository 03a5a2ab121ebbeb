#!/usr/bin/env bash
# Installs every build and test dependency of sg from Debian 12's packages.
# Idempotent: when every package is already installed, apt is not touched at all.
# Works as root or, for another user, through sudo. Non-interactive.
set -euo pipefail

PACKAGES=(
  # toolchain and build
  cmake ninja-build g++ ccache pkg-config binutils git
  # protobuf and gRPC (gRPC is used by the distributed runtime)
  protobuf-compiler libprotobuf-dev libgrpc++-dev protobuf-compiler-grpc
  # libraries
  libabsl-dev libeigen3-dev zlib1g-dev libleveldb-dev
  # oneDNN: float matrix products when present (it picks AVX-512 code at run time)
  libdnnl-dev
  # tests and benchmarks
  libgtest-dev libgmock-dev libbenchmark-dev nlohmann-json3-dev python3
  # the TLS test of tests/distributed makes its certificates with openssl
  openssl
  # bindings and ABI checks
  swig abi-dumper abi-compliance-checker xz-utils
)

missing=()
for pkg in "${PACKAGES[@]}"; do
  # dpkg -s succeeds for removed-but-configured packages too; check the status line.
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1; then
  SUDO=(sudo -n)
  if ! sudo -n true 2>/dev/null; then
    SUDO=(sudo)  # may ask for a password once
  fi
else
  echo "install-deps: not root and sudo is missing; install as root: apt-get install ${missing[*]}" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
  -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold "${missing[@]}"
