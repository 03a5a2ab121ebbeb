#!/bin/sh
# rust_crate_test.sh BUILD_DIR WORK_DIR [SANITIZE]
# The Rust `tensorflow` crate (crates.io), unchanged, over sg's drop-in libtensorflow.so.2: its
# graph and session examples built with cargo against an install of sg, found by tensorflow-sys
# through `pkg-config tensorflow`, and run from a copy of the crate's directory (they read their
# models from examples/ there), each checked for the result its source documents:
#   addition               prints 42 (2 + 40 through a GraphDef written by TensorFlow)
#   expressions            "Checking output_tensor[i] ... Success!" for 2*x+1 at x = 2, 3
#   regression             w and b learned back to 0.1 and 0.3 (GraphDef with the v1 optimizer)
#   regression_checkpoint  the same, saved to a checkpoint, re-initialised and restored
#   regression_savedmodel  the same from a TensorFlow 2 SavedModel (functions, resource variables)
#   xor                    trained, saved as a SavedModel by the crate, loaded back: every error
#                          under 0.1 (the example fails otherwise)
# The crate and its dependencies are fetched once into a cache (SG_RUST_CRATE_CACHE, default
# ~/.cache/sg/rust-tensorflow-crate, its own CARGO_HOME and target directory); later runs are
# offline. Exits 77 (skipped, with the reason) without cargo, without crates.io on the first run,
# or in a sanitizer build (a Rust program cannot load an ASan-instrumented library).

set -eu
build="$1" work="$2" sanitize="${3:-}"
crate_version=0.21.0
skip() { echo "rust_crate_test: SKIPPED: $*"; exit 77; }
fail() { echo "rust_crate_test: FAILED: $*" >&2; exit 1; }

[ -z "$sanitize" ] || skip "sanitizer build ($sanitize): a Rust program cannot load its library"
cargo="$(command -v cargo 2>/dev/null || true)"
[ -n "$cargo" ] || { [ -x "$HOME/.cargo/bin/cargo" ] && cargo="$HOME/.cargo/bin/cargo"; } || true
[ -n "$cargo" ] || skip "cargo is not installed (rustup.rs, or PATH)"
command -v pkg-config >/dev/null 2>&1 || skip "pkg-config is not installed"

cache="${SG_RUST_CRATE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sg/rust-tensorflow-crate}"
export CARGO_HOME="$cache/cargo-home"
export CARGO_TARGET_DIR="$cache/target"
# No debug info, no incremental state: a third of the build time and a fifth of the disk.
export CARGO_PROFILE_DEV_DEBUG=0 CARGO_INCREMENTAL=0
# rustup's proxies (cargo, rustc) find their toolchains from RUSTUP_HOME, not CARGO_HOME.
export RUSTUP_HOME="${RUSTUP_HOME:-$HOME/.rustup}"
crate="$cache/tensorflow-$crate_version"
mkdir -p "$cache"
t0=$(date +%s)

# 1. The crate, fetched once: a throwaway package that depends on it puts it into CARGO_HOME's
#    registry; a copy of it is the package we build (with its own Cargo.lock), whose own
#    dependencies (dev-dependencies included: the examples use rand) are fetched too.
if [ ! -f "$crate/.sg-fetched" ]; then
  rm -rf "$cache/probe" "$crate"
  mkdir -p "$cache/probe/src"
  printf '[package]\nname = "probe"\nversion = "0.1.0"\nedition = "2021"\n[dependencies]\ntensorflow = "=%s"\n' \
    "$crate_version" > "$cache/probe/Cargo.toml"
  echo 'fn main() {}' > "$cache/probe/src/main.rs"
  (cd "$cache/probe" && "$cargo" fetch) > "$cache/fetch.log" 2>&1 \
    || { tail -5 "$cache/fetch.log"; skip "cannot fetch the tensorflow crate $crate_version from crates.io"; }
  src=""
  for d in "$CARGO_HOME"/registry/src/*/tensorflow-"$crate_version"; do src="$d"; done
  [ -n "$src" ] && [ -f "$src/Cargo.toml" ] || fail "cargo fetch left no tensorflow-$crate_version source"
  cp -R "$src" "$crate"
  (cd "$crate" && "$cargo" fetch) >> "$cache/fetch.log" 2>&1 \
    || { tail -5 "$cache/fetch.log"; skip "cannot fetch the crate's dependencies from crates.io"; }
  touch "$crate/.sg-fetched"
fi

# 2. sg installed where tensorflow-sys's pkg-config finds it.
rm -rf "$work"
mkdir -p "$work/tmp"
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" > "$work/install.log" || { cat "$work/install.log"; fail "cmake --install"; }
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
[ "$(pkg-config --modversion tensorflow)" = 2.21.0 ] || fail "pkg-config tensorflow does not find sg's tensorflow.pc"

# 3. The examples, built offline against it.
examples="addition expressions regression regression_checkpoint regression_savedmodel xor"
set --
for e in $examples; do set -- "$@" --example "$e"; done
(cd "$crate" && "$cargo" build --offline --features tensorflow_unstable "$@") > "$work/cargo.log" 2>&1 \
  || { tail -30 "$work/cargo.log"; fail "cargo build of the crate's examples"; }
grep -q "rustc-link-search=native=$prefix/lib" "$CARGO_TARGET_DIR"/debug/build/tensorflow-sys-*/output 2>/dev/null \
  || fail "tensorflow-sys did not take libtensorflow from pkg-config's $prefix/lib"
t1=$(date +%s)
echo "rust_crate_test: built the examples of tensorflow $crate_version in $((t1 - t0)) s"

# 4. Run each from a copy of the crate's examples/ (regression_checkpoint writes beside its model).
cp -R "$crate/examples" "$work/examples"
failures=0
for e in $examples; do
  out="$work/$e.out"
  status=0
  (cd "$work" && TMPDIR="$work/tmp" LD_LIBRARY_PATH="$prefix/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
     timeout 300 "$CARGO_TARGET_DIR/debug/examples/$e") > "$out" 2>&1 || status=$?
  ok=1
  case "$e" in
    addition)
      [ "$status" = 0 ] && [ "$(cat "$out")" = 42 ] || ok=0 ;;
    expressions|regression|regression_checkpoint|regression_savedmodel)
      [ "$status" = 0 ] && [ "$(grep -c 'Success!$' "$out")" = 2 ] && ! grep -q FAIL "$out" || ok=0 ;;
    xor)
      [ "$status" = 0 ] && [ "$(grep -c '^Error: ' "$out")" = 8 ] || ok=0 ;;
  esac
  if [ "$ok" = 1 ]; then
    echo "rust_crate_test: $e: ok: $(tr '\n' ' ' < "$out")"
  else
    echo "rust_crate_test: $e: FAILED (exit $status):" >&2
    cat "$out" >&2
    failures=$((failures + 1))
  fi
done
echo "rust_crate_test: ran the examples in $(($(date +%s) - t1)) s"
[ "$failures" = 0 ] || fail "$failures example(s)"
echo "rust_crate_test: ok"
