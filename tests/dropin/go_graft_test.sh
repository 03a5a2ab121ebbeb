#!/bin/sh
# go_graft_test.sh BUILD_DIR WORK_DIR [SANITIZE]
# TensorFlow's Go package, unchanged, over sg's drop-in libtensorflow.so.2: graft v0.10.0
# (github.com/wamuir/graft, the maintained fork on the Go module proxy: TensorFlow 2.18's Go
# bindings with their generated protos; TensorFlow's own github.com/tensorflow/tensorflow/
# tensorflow/go does not build from the proxy, its for_core_protos_go_proto package being
# generated at build time and absent), built through cgo against an install of sg and its graph,
# session, SavedModel, tensor and op tests run with `go test` (packages tensorflow and
# tensorflow/op). Every test must pass except:
#   - the eager tests (contexts, tensor handles): sg has no eager runtime (TFE_ fails);
#   - KNOWN below: run one by one and reported (pass or fail), not gating, each with its reason.
# Headers and library: sg's installed ones only (tensorflow/c/*.h, with the inline TF_TString_*
# helpers graft's tensor.go calls, and libtensorflow.so).
# The module is fetched once into a cache (SG_GO_GRAFT_CACHE, default ~/.cache/sg/go-graft, its
# own GOMODCACHE); later runs are offline. SKIPPED (77) without go, without the module proxy on
# the first run, or in a sanitizer build (a Go program cannot load an ASan-instrumented library).
set -eu
build="$(cd "$1" && pwd)" work="$2" sanitize="${3:-}"
case "$work" in /*) ;; *) work="$(pwd)/$work" ;; esac
graft_version=v0.10.0
skip() { echo "go_graft_test: SKIPPED: $*"; exit 77; }
fail() { echo "go_graft_test: FAILED: $*" >&2; exit 1; }

[ -z "$sanitize" ] || skip "sanitizer build ($sanitize): a Go program cannot load its library"
go="$(command -v go 2>/dev/null || true)"
[ -n "$go" ] || { [ -x /usr/local/go/bin/go ] && go=/usr/local/go/bin/go; } || true
[ -n "$go" ] || skip "go is not installed"

# Known failures: test name, then why.
KNOWN="TestDataset:sg has no tf.data ops (TensorDataset)"
EAGER='^Test(Context|NewTensorHandle|TensorHandle)'

cache="${SG_GO_GRAFT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sg/go-graft}"
export GOMODCACHE="$cache/mod" GOFLAGS=-mod=mod GOTOOLCHAIN=local CGO_ENABLED=1
mkdir -p "$cache/client"
t0=$(date +%s)

# 1. The module, fetched once.
if [ ! -f "$cache/client/.sg-fetched" ]; then
  cd "$cache/client"
  rm -f go.mod go.sum
  printf 'module sgclient\n\ngo 1.18\n' > go.mod
  printf 'package sgclient\n\nimport (\n\t_ "github.com/wamuir/graft/tensorflow"\n\t_ "github.com/wamuir/graft/tensorflow/op"\n)\n' > client.go
  { "$go" get "github.com/wamuir/graft@$graft_version" && "$go" mod tidy && "$go" mod download all; } \
    > "$cache/fetch.log" 2>&1 || { tail -5 "$cache/fetch.log"; skip "cannot fetch github.com/wamuir/graft@$graft_version from the Go module proxy"; }
  touch .sg-fetched
fi
export GOPROXY=off
cd "$cache/client"

# 2. sg installed; the headers to compile graft with.
rm -rf "$work"
mkdir -p "$work"
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" > "$work/install.log" || { cat "$work/install.log"; fail "cmake --install"; }
include="$prefix/include"
export CGO_CFLAGS="-I$include" CGO_LDFLAGS="-L$prefix/lib -ltensorflow"
export LD_LIBRARY_PATH="$prefix/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

# 3. The tests that must pass.
skip_re="$EAGER|^($(echo "$KNOWN" | cut -d: -f1 | paste -sd'|'))\$"
status=0
"$go" test -count=1 -v -skip "$skip_re" github.com/wamuir/graft/tensorflow github.com/wamuir/graft/tensorflow/op \
  > "$work/go_test.log" 2>&1 || status=$?
passed=$(grep -c '^--- PASS' "$work/go_test.log" || true)
if [ "$status" != 0 ]; then
  grep -E -A8 '^(--- FAIL|panic|FAIL)' "$work/go_test.log" >&2 || tail -40 "$work/go_test.log" >&2
  fail "go test (log: $work/go_test.log)"
fi
[ "$passed" -ge 50 ] || fail "only $passed tests passed: did go test run them?"
echo "go_graft_test: graft $graft_version: $passed tests passed ($(grep -cE '^(ok|FAIL)[[:space:]]' "$work/go_test.log") packages)"

# 4. The known failures, one at a time (one panics), reported.
echo "$KNOWN" | while IFS=: read -r name why; do
  if "$go" test -count=1 -run "^$name\$" github.com/wamuir/graft/tensorflow github.com/wamuir/graft/tensorflow/op \
       > "$work/$name.log" 2>&1; then
    echo "go_graft_test: known failure $name now PASSES: take it off the list"
  else
    echo "go_graft_test: known failure $name still fails ($why)"
  fi
done
echo "go_graft_test: ok in $(($(date +%s) - t0)) s"
