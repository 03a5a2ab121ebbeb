#!/usr/bin/env bash
# The Java binding as a Maven user gets it: `mvn install` of the build tree's Maven project
# (bindings/java/maven, staged by CMake) into a fresh local repository, then a separate project
# (tests/java/consumer) that only declares a dependency on org.sg:sg builds offline against that
# repository and runs the digits classifier, checking TensorFlow's probabilities (example.Digits).
# Then, without Maven: the extracted libraries are reused, a damaged one is written again, and
# -Dorg.sg.jni.library still overrides the jar's.
#
#   maven_consumer_test.sh MAVEN_PROJECT_DIR CONSUMER_DIR TESTDATA_DIR VERSION
#
# Every Maven run here is offline (mvn -o). The plugins come from SG_MAVEN_REPO (default
# ${XDG_CACHE_HOME:-~/.cache}/sg/m2), copied into the temporary repository; when it lacks the
# plugins of the current poms (a marker keyed by their hash), this script fills it once by running
# the same two builds online against it (about 40 MB from Maven Central; later runs need no
# network). Exits 77 (ctest: skipped) when mvn is missing.
set -euo pipefail

if ! command -v mvn >/dev/null 2>&1; then
  echo "SKIPPED: mvn is not installed (Debian's maven; scripts/install-deps.sh installs it)"
  exit 77
fi
maven_project=$(realpath "$1") consumer=$(realpath "$2") testdata=$(realpath "$3") version=$4
for f in "$maven_project/pom.xml" "$maven_project/src/main/resources/org/sg/native/linux-x86_64/sha256sums" \
         "$consumer/pom.xml" "$testdata/digits_mlp.pb"; do
  [ -f "$f" ] || { echo "FAILED: missing $f (build the sg_maven target)" >&2; exit 1; }
done

plugins=${SG_MAVEN_REPO:-${XDG_CACHE_HOME:-$HOME/.cache}/sg/m2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mvn_common=(-B -ntp -Dstyle.color=never -Dsg.version="$version" -Dsg.testdata="$testdata")

# Builds the artifact and the consumer in copies under $1 against the local repository $2.
build_both() {
  local work=$1 repo=$2; shift 2
  rm -rf "$work" && mkdir -p "$work"
  cp -r "$maven_project" "$work/sg" && rm -rf "$work/sg/target"
  cp -r "$consumer" "$work/consumer" && rm -rf "$work/consumer/target"
  local sum
  sum=$(sha256sum "$work/sg/src/main/resources/org/sg/native/linux-x86_64/sha256sums" | cut -c1-64)
  (cd "$work/sg" && mvn "$@" "${mvn_common[@]}" -Dmaven.repo.local="$repo" install) &&
  (cd "$work/consumer" && env -u LD_LIBRARY_PATH XDG_CACHE_HOME="$work/cache" \
     mvn "$@" "${mvn_common[@]}" -Dmaven.repo.local="$repo" \
       -Dsg.native.dir="$work/cache/sg/native/$sum" verify)
}

marker="$plugins/.sg-plugins-$(cat "$maven_project/pom.xml" "$consumer/pom.xml" | sed "s/$version//g" | sha256sum | cut -c1-16)"
if [ ! -f "$marker" ]; then
  echo "== fetching Maven's plugins once into $plugins (online)"
  mkdir -p "$plugins"
  if ! build_both "$tmp/fetch" "$plugins" -q >"$tmp/fetch.log" 2>&1; then
    tail -40 "$tmp/fetch.log" >&2
    echo "FAILED: the online builds that fetch Maven's plugins into $plugins (is Maven Central reachable?)" >&2
    exit 1
  fi
  rm -rf "$plugins/org/sg" "$plugins/example"  # keep only what Maven Central gave
  touch "$marker"
fi

echo "== mvn -o install of $maven_project, then mvn -o verify of the consumer"
cp -r "$plugins" "$tmp/m2"
rm -f "$tmp"/m2/.sg-plugins-*
# (sed: Maven 3.8 writes colour resets even in batch mode)
build_both "$tmp/run" "$tmp/m2" -o -q 2>&1 | sed 's/\x1b\[[0-9;]*m//g' | tee "$tmp/run.log" || {
  echo "FAILED: the offline Maven builds" >&2; exit 1; }
grep -q '^digits: 360 samples as TensorFlow, 354 correct' "$tmp/run.log" ||
  { echo "FAILED: the consumer did not print its result" >&2; exit 1; }

installed="$tmp/m2/org/sg/sg/$version"
for f in "sg-$version.pom" "sg-$version.jar" "sg-$version-sources.jar" "sg-$version-javadoc.jar"; do
  [ -s "$installed/$f" ] || { echo "FAILED: $installed/$f was not installed" >&2; exit 1; }
done
listing() { jar tf "$1"; }
check_entry() {
  listing "$1" | grep -qx "$2" || { echo "FAILED: $1 lacks $2" >&2; exit 1; }
}
for e in org/sg/native/linux-x86_64/libsg.so.1 org/sg/native/linux-x86_64/libsg_jni.so \
         org/sg/native/linux-x86_64/sha256sums org/sg/NativeLibrary.class org/sg/Session.class; do
  check_entry "$installed/sg-$version.jar" "$e"
done
check_entry "$installed/sg-$version-sources.jar" org/sg/NativeLibrary.java
check_entry "$installed/sg-$version-sources.jar" org/sg/Native.java  # SWIG's, from the build
check_entry "$installed/sg-$version-javadoc.jar" org/sg/Session.html
echo "ok: installed the jar, its sources and javadoc jars, and the pom"

# The extraction: one directory per content hash, files matching the jar's list.
mkdir -p "$tmp/sums" && (cd "$tmp/sums" && jar xf "$installed/sg-$version.jar" org/sg/native/linux-x86_64/sha256sums)
cache="$tmp/run/cache"
native=$(echo "$cache"/sg/native/*)
[ "$(ls -d "$cache"/sg/native/* | wc -l)" = 1 ] || { echo "FAILED: not one directory in $cache/sg/native" >&2; exit 1; }
[ "$(stat -c %a "$native")" = 700 ] || { echo "FAILED: $native is not private (mode $(stat -c %a "$native"))" >&2; exit 1; }
(cd "$native" && sha256sum -c --quiet "$tmp/sums/org/sg/native/linux-x86_64/sha256sums") ||
  { echo "FAILED: the extracted libraries differ from the jar's list" >&2; exit 1; }
echo "ok: extracted to $native, hashes as listed"

run_digits() {
  env -u LD_LIBRARY_PATH XDG_CACHE_HOME="$cache" java -Dsg.testdata="$testdata" -Dsg.native.dir="$native" \
    "$@" -cp "$tmp/run/consumer/target/classes:$installed/sg-$version.jar" example.Digits
}
before=$(stat -c %Y.%i "$native/libsg.so.1")
run_digits >/dev/null
[ "$(stat -c %Y.%i "$native/libsg.so.1")" = "$before" ] || { echo "FAILED: libsg.so.1 extracted again although intact" >&2; exit 1; }
echo "ok: a second run reuses the extracted libraries"

printf 'damaged' | dd of="$native/libsg_jni.so" bs=1 seek=4096 conv=notrunc status=none
run_digits >/dev/null
(cd "$native" && sha256sum -c --quiet "$tmp/sums/org/sg/native/linux-x86_64/sha256sums") ||
  { echo "FAILED: the damaged libsg_jni.so was not written again" >&2; exit 1; }
echo "ok: a damaged extracted library is detected by its hash and written again"

if run_digits -Dorg.sg.jni.library="$tmp/nowhere/libsg_jni.so" >"$tmp/override.log" 2>&1; then
  echo "FAILED: -Dorg.sg.jni.library naming a missing file did not stop the load" >&2; exit 1
fi
grep -q "$tmp/nowhere/libsg_jni.so: no such file" "$tmp/override.log" ||
  { cat "$tmp/override.log" >&2; echo "FAILED: the override's failure does not name its file" >&2; exit 1; }
echo "ok: -Dorg.sg.jni.library overrides the jar's libraries"
echo "PASSED"
