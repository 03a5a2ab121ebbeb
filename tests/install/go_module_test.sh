#!/bin/sh
# go_module_test.sh BUILD_DIR SOURCE_DIR WORK_DIR [C_COMPILER] [GO]
# The Go binding as a Go user gets it: installs sg's runtime, dev and go components into a
# temporary prefix (cmake --install), writes a scratch module that requires sg.invalid/go and
# replaces it with the install's share/sg/go, and builds it with a plain `go build`: GOFLAGS,
# the user's go env file and every CGO_* flag unset, the module proxy off (offline), libsg found
# only through pkg-config (PKG_CONFIG_PATH at the install's sg.pc). The program
# (tests/install/go_module/main.go) runs the digits classifier and checks its probabilities
# against TensorFlow's. Exits 77 (skipped) without go, SWIG or pkg-config, or when the build was
# configured without the Go binding (-DSG_BUILD_GO=OFF, the sanitizer presets).
set -eu
build="$1" src="$2" work="$3" cc="${4:-cc}" go="${5:-}"
skip() { echo "go_module_test: SKIPPED: $*"; exit 77; }
fail() { echo "go_module_test: FAILED: $*" >&2; exit 1; }

[ -n "$go" ] || go="$(command -v go || true)"
[ -n "$go" ] && [ -x "$go" ] || skip "go is not installed (Debian's golang-go, or go.dev/dl)"
command -v swig > /dev/null || skip "swig is not installed (the go tool runs it on capi.swig)"
command -v pkg-config > /dev/null || skip "pkg-config is not installed (cgo finds libsg with it)"
grep -q '^SG_BUILD_GO:BOOL=ON$' "$build/CMakeCache.txt" \
  || skip "$build was configured without the Go binding (SG_BUILD_GO is not ON)"

prefix="$work/prefix"
rm -rf "$work"
mkdir -p "$work/app"
for component in runtime dev go; do
  cmake --install "$build" --prefix "$prefix" --component "$component" >> "$work/install.log" 2>&1 \
    || { cat "$work/install.log"; fail "cmake --install --component $component"; }
done

# The installed module: sources without tests, sg.i as a file, the installed cgo.go.
mod="$prefix/share/sg/go"
grep -qx 'module sg.invalid/go' "$mod/go.mod" || fail "$mod/go.mod does not name sg.invalid/go"
[ -f "$mod/internal/capi/capi.swig" ] && [ ! -L "$mod/internal/capi/capi.swig" ] \
  || fail "internal/capi/capi.swig is not installed as a file"
grep -q '^// #cgo pkg-config: sg$' "$mod/internal/capi/cgo.go" \
  && grep -q '^// #cgo CPPFLAGS: -DSG_SWIG_INPUTS=[0-9a-f]\{16\}$' "$mod/internal/capi/cgo.go" \
  || fail "the installed internal/capi/cgo.go lacks its #cgo lines"
[ -z "$(find "$mod" -name '*_test.go')" ] || fail "tests installed: $(find "$mod" -name '*_test.go')"
[ -z "$(find "$mod" -name '*_wrap.c' -o -name '*_gc.c' -o -name 'capi.go')" ] \
  || fail "SWIG output installed"
echo "go_module_test: the module in $mod:"
(cd "$mod" && find . -type f | sort | sed 's/^/  /')
pc="$(find "$prefix" -path '*/pkgconfig/sg.pc' | head -1)"
[ -n "$pc" ] || fail "sg.pc is not installed"
libdir="$(PKG_CONFIG_PATH="$(dirname "$pc")" pkg-config --variable=libdir sg)"

# A user's module, in a directory of its own.
cat > "$work/app/go.mod" <<EOM
module example.com/digits

go 1.19

require sg.invalid/go v0.1.0

replace sg.invalid/go => $mod
EOM
cp "$src/tests/install/go_module/main.go" "$work/app/main.go"
echo "go_module_test: $work/app/go.mod:"
sed 's/^/  /' "$work/app/go.mod"

# Nothing but PATH, HOME, CC, the build cache and PKG_CONFIG_PATH reaches the go tool.
gocache="$(env -u GOFLAGS GOENV=off "$go" env GOCACHE)"
(cd "$work/app" && env -i PATH="$PATH" HOME="$HOME" GOCACHE="$gocache" GOENV=off GOPROXY=off \
   GOTOOLCHAIN=local CGO_ENABLED=1 CC="$cc" PKG_CONFIG_PATH="$(dirname "$pc")" \
   "$go" build -o "$work/digits" .) > "$work/build.log" 2>&1 \
  || { cat "$work/build.log"; fail "go build in the scratch module"; }
cat "$work/build.log"

LD_LIBRARY_PATH="$libdir" "$work/digits" "$src/tests/testdata/digits_mlp.pb" \
  "$src/tests/testdata/digits_test_x.npy" "$src/tests/testdata/digits_tf_probs.npy" \
  > "$work/digits.out" 2>&1 || { cat "$work/digits.out"; fail "the program built against the install"; }
cat "$work/digits.out"
grep -qx 'go_module main: ok' "$work/digits.out" || fail "the program did not finish"
echo "go_module_test: ok"
