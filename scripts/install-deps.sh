#!/usr/bin/env bash
# Installs every build and test dependency of sg from Debian 12's packages.
# Idempotent: when every package is already installed, apt is not touched at all.
# Works as root or, for another user, through sudo. Non-interactive.
set -euo pipefail

PACKAGES=(
  # toolchain and build
  cmake ninja-build g++ ccache pkg-config binutils git
  # Clang for test.sh's checks: thread-safety analysis, ThreadSanitizer, libFuzzer (the
  # sanitizer and fuzzer runtimes are in libclang-rt, which clang only recommends)
  clang libclang-rt-14-dev
  # protobuf and gRPC (gRPC is used by the distributed runtime)
  protobuf-compiler libprotobuf-dev libgrpc++-dev protobuf-compiler-grpc
  # libraries
  libabsl-dev libeigen3-dev zlib1g-dev libleveldb-dev libre2-dev
  # string ops: FarmHash (StringToHashBucketFast, Fingerprint), HighwayHash's SipHash
  # (StringToHashBucketStrong), ICU (StringLower/Upper with utf-8)
  libfarmhash-dev libhighwayhash-dev libicu-dev
  # image codecs: JPEG (libjpeg-turbo), PNG, GIF
  libjpeg62-turbo-dev libpng-dev libgif-dev
  # FFT kernels: KISS FFT's header-only C++ template (BSD; FFTW is GPL)
  libkissfft-dev
  # oneDNN: float matrix products when present (it picks AVX-512 code at run time)
  libdnnl-dev
  # tests and benchmarks
  libgtest-dev libgmock-dev libbenchmark-dev nlohmann-json3-dev python3 python3-venv
  # the TLS test of tests/distributed makes its certificates with openssl
  openssl
  # `sg inspect --dot FILE.svg` runs Graphviz's dot (its test draws an svg when dot is there)
  graphviz
  # bindings and ABI checks (the Java binding: a JDK 17 with jni.h; curl fetches JUnit below)
  swig abi-dumper abi-compliance-checker xz-utils openjdk-17-jdk-headless curl ca-certificates
  # the Java binding's Maven artifact (bindings/java/maven; its test fetches Maven's plugins once)
  maven
  # the portable build's tests run the library under emulated older CPUs (qemu-x86_64 -cpu)
  qemu-user
)
# The Go binding needs a go tool (>= 1.19). A preinstalled one (/usr/local/go, or on PATH) is used
# as it is; only without one is Debian's golang-go (1.19) installed.
if ! command -v go >/dev/null 2>&1 && [ ! -x /usr/local/go/bin/go ]; then
  PACKAGES+=(golang-go)
fi

# JUnit 5's console launcher for the Java binding's tests, fetched once from Maven Central into
# the user's cache (bindings/java/CMakeLists.txt looks there) and checked against its SHA-1.
JUNIT_VERSION=1.10.2
JUNIT_SHA1=552303cce67dc3485ded393d744c0f6b5cae355b
JUNIT_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/sg"
JUNIT_JAR="$JUNIT_DIR/junit-platform-console-standalone-$JUNIT_VERSION.jar"
fetch_junit() {
  if [ -f "$JUNIT_JAR" ] && echo "$JUNIT_SHA1  $JUNIT_JAR" | sha1sum -c --status; then
    return 0
  fi
  if ! command -v curl >/dev/null 2>&1; then
    echo "install-deps: curl is missing; cannot fetch $JUNIT_JAR (the Java tests need it)" >&2
    return 1
  fi
  local url="https://repo1.maven.org/maven2/org/junit/platform/junit-platform-console-standalone/$JUNIT_VERSION/junit-platform-console-standalone-$JUNIT_VERSION.jar"
  echo "install-deps: fetching $url"
  mkdir -p "$JUNIT_DIR"
  curl -fsSL --retry 3 -o "$JUNIT_JAR.tmp" "$url"
  if ! echo "$JUNIT_SHA1  $JUNIT_JAR.tmp" | sha1sum -c --status; then
    rm -f "$JUNIT_JAR.tmp"
    echo "install-deps: $url does not have SHA-1 $JUNIT_SHA1" >&2
    return 1
  fi
  mv "$JUNIT_JAR.tmp" "$JUNIT_JAR"
}

missing=()
for pkg in "${PACKAGES[@]}"; do
  # dpkg -s succeeds for removed-but-configured packages too; check the status line.
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  fetch_junit
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
fetch_junit
