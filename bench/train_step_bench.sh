#!/usr/bin/env bash
# One training step of the digits MLP (Adam) and of a small CNN (momentum), batch 64, in sg and in
# TensorFlow 2.21's C library, from the same source (bench/train_step_bench.cc). Builds both
# (scripts/build.sh with -DSG_BUILD_BENCH=ON and the oracle venv's tensorflow package), writes the
# TensorFlow-made graphs into the build tree, then runs the two programs in turn RUNS times
# (default 5: this machine is noisy, so runs are interleaved) and prints each benchmark's median
# step time per library and the ratio sg / TensorFlow (below 1: sg is faster).
#
#   bench/train_step_bench.sh [RUNS]          BUILD_DIR (default build), JOBS as scripts/build.sh
set -euo pipefail
REPO="$(cd "$(dirname "$0")/.." && pwd)"
RUNS=${1:-5}
BUILD="${BUILD_DIR:-build}"
case "$BUILD" in /*) ;; *) BUILD="$REPO/$BUILD" ;; esac
PY=$("$REPO/tests/oracle/setup_venv.sh")
TF_DIR=$(TF_CPP_MIN_LOG_LEVEL=3 "$PY" -c "import os, tensorflow; print(os.path.dirname(tensorflow.__file__))")
BUILD_DIR="$BUILD" "$REPO/scripts/build.sh" -DSG_BUILD_BENCH=ON -DSG_TF_PACKAGE_DIR="$TF_DIR" \
  -- train_step_bench_sg train_step_bench_tf >/dev/null
GRAPHS="$BUILD/bench/train_graphs"
"$PY" "$REPO/bench/make_train_graphs.py" "$GRAPHS" >/dev/null
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
for i in $(seq "$RUNS"); do
  for lib in sg tf; do
    TRAIN_BENCH_GRAPHS="$GRAPHS" "$BUILD/bench/train_step_bench_$lib" --benchmark_format=json \
      --benchmark_min_time=2 > "$OUT/$lib.$i.json" 2>/dev/null
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
            times.setdefault(b["name"], {}).setdefault(lib, []).append(b["real_time"])
print(f"median of {runs} interleaved runs, microseconds per training step (batch 64):")
for name, t in times.items():
    sg, tf = statistics.median(t["sg"]), statistics.median(t["tf"])
    print(f"  {name:32s} sg {sg:9.1f}   TensorFlow {tf:9.1f}   sg/TF {sg / tf:.2f}")
PYEOF
