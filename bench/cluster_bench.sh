#!/usr/bin/env bash
# Tensors between two tasks of an in-process cluster (bench/cluster_bench.cc) in sg and in
# TensorFlow 2.21's C library, from the same source. Builds both (scripts/build.sh with
# -DSG_BUILD_BENCH=ON and the oracle venv's tensorflow package), runs the two programs in turn
# RUNS times (default 3: this machine is noisy, so runs are interleaved), and prints each
# benchmark's median time per library (the median of the runs' medians, in microseconds), the
# ratio sg / TensorFlow (below 1: sg is faster), and each library's cross-task 64 MiB fetch
# against the raw TCP copy of the same bytes on loopback.
#
#   bench/cluster_bench.sh [RUNS]          BUILD_DIR (default build), JOBS as scripts/build.sh
set -euo pipefail
REPO="$(cd "$(dirname "$0")/.." && pwd)"
RUNS=${1:-3}
BUILD="${BUILD_DIR:-build}"
case "$BUILD" in /*) ;; *) BUILD="$REPO/$BUILD" ;; esac
PY=$("$REPO/tests/oracle/setup_venv.sh")
TF_DIR=$(TF_CPP_MIN_LOG_LEVEL=3 "$PY" -c "import os, tensorflow; print(os.path.dirname(tensorflow.__file__))")
BUILD_DIR="$BUILD" "$REPO/scripts/build.sh" -DSG_BUILD_BENCH=ON -DSG_TF_PACKAGE_DIR="$TF_DIR" \
  -- cluster_bench_sg cluster_bench_tf >/dev/null
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
for i in $(seq "$RUNS"); do
  for lib in sg tf; do
    TF_CPP_MIN_LOG_LEVEL=2 "$BUILD/bench/cluster_bench_$lib" --benchmark_format=json \
      > "$OUT/$lib.$i.json" 2>"$OUT/$lib.$i.err" || { cat "$OUT/$lib.$i.err" >&2; exit 1; }
  done
done
"$PY" - "$OUT" "$RUNS" <<'PYEOF'
import json, statistics, sys
out, runs = sys.argv[1], int(sys.argv[2])
times = {}
for lib in ("sg", "tf"):
    for i in range(1, runs + 1):
        for b in json.load(open(f"{out}/{lib}.{i}.json"))["benchmarks"]:
            if b.get("error_occurred"):
                sys.exit(f"{lib}: {b['name']}: {b.get('error_message')}")
            times.setdefault(b["name"].split("/")[0], {}).setdefault(lib, []).append(b["median_us"])
med = {n: {lib: statistics.median(v) for lib, v in t.items()} for n, t in times.items()}
print(f"median of {runs} interleaved runs' medians, microseconds per step:")
for name, m in med.items():
    print(f"  {name:26s} sg {m['sg']:10.1f}   TensorFlow {m['tf']:10.1f}   sg/TF {m['sg'] / m['tf']:.2f}")
tcp = statistics.median(times["BM_RawTcp64MiB"]["sg"] + times["BM_RawTcp64MiB"]["tf"])
for lib in ("sg", "tf"):
    print(f"  {lib}: the 64 MiB fetch from task 1 is {med['BM_Fetch64MiBFromTask1'][lib] / tcp:.1f}x"
          " the raw TCP copy")
PYEOF
