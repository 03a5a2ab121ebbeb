#!/usr/bin/env bash
# Inference latency of sg against TensorFlow 2.21 and ONNX Runtime 1.30 (issue 15): the same
# source (bench/infer_bench.cc) built against each one's C API, on the same models (TensorFlow
# frozen GraphDefs, and tf2onnx's ONNX conversions of them), outputs compared.
#
#   bench/infer_bench.sh [ROUNDS]        ROUNDS interleaved rounds (default 3); medians printed
#
# Environment:
#   MODELS        the models (default: all of bench/make_infer_models.py's; QUICK=1: the small ones)
#   BATCHES       batch sizes (default "1 8"; mnist_cnn also runs at 64 when this is the default)
#   THREADS       intra-op thread counts (default "1 2")
#   FULL_SIZE=1   the Keras applications at 224x224 (InceptionV3 299x299) instead of the 64x64
#                 (75x75) of the TF 2.x corpus and issue 15's table: 12-16 times the work; choose
#                 fewer models or batches to stay within the half hour
#   INTER         inter-op threads of every latency run (default 1; the 8-caller runs use 2)
#   MAX_SECONDS   timed seconds per process at most (default 1.5; at least 3 runs are timed)
#   CONCURRENT    models also run with 8 callers on one session, 2 threads, batch 1 (throughput);
#                 default "mobilenet_v2 resnet50" when those are in MODELS and QUICK is unset
#   BUILD_DIR     build directory (default build), JOBS as scripts/build.sh
#   SG_BENCH_CACHE  where ONNX Runtime's library and header are kept (default ~/.cache/sg/bench)
#
# Steps: installs bench/requirements.txt (tf2onnx, onnx) into the TensorFlow oracle venv, with
# tests/oracle/requirements.txt as constraints, and stops if `pip check` then complains or
# TensorFlow's version changed; fetches ONNX Runtime's C library (npm's onnxruntime-node package)
# and C header (the Go module github.com/yalue/onnxruntime_go, which carries it) into the cache;
# builds infer_bench_sg, infer_bench_tf and infer_bench_ort; writes the models into the build
# tree once (make_infer_models.py; made again when that script changes); then each round runs
# every model x batch x threads in the three programs, each a fresh process, in an order rotated
# from round to round. Prints the table of median latencies (microseconds) with ratios, the
# largest output differences (a difference beyond the model's tolerance is a FAIL and the exit
# status is 1), cold start (read + import + session + first run) and peak resident memory.
# Without ONNX Runtime (fetch failed) or an ONNX form of a model (tf2onnx failed), that column
# says so and the rest still runs.
set -euo pipefail
REPO="$(cd "$(dirname "$0")/.." && pwd)"
ROUNDS=${1:-3}
BUILD="${BUILD_DIR:-build}"
case "$BUILD" in /*) ;; *) BUILD="$REPO/$BUILD" ;; esac
CACHE="${SG_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sg/bench}"
if [ -n "${QUICK:-}" ]; then
  MODELS=${MODELS:-"mnist_cnn autoencoder lstm"}
  CONCURRENT=${CONCURRENT:-}
else
  MODELS=${MODELS:-"mnist_cnn autoencoder lstm mobilenet_v2 resnet50 inception_v3 efficientnet_b0 vgg16"}
  default_concurrent=""
  for m in mobilenet_v2 resnet50; do
    case " $MODELS " in *" $m "*) default_concurrent="$default_concurrent $m" ;; esac
  done
  CONCURRENT=${CONCURRENT-$default_concurrent}
fi
DEFAULT_BATCHES=0
[ -z "${BATCHES:-}" ] && DEFAULT_BATCHES=1
BATCHES=${BATCHES:-"1 8"}
THREADS=${THREADS:-"1 2"}
MAX_SECONDS=${MAX_SECONDS:-1.5}
INTER=${INTER:-1}
log() { echo "infer_bench: $*" >&2; }

# ---- tf2onnx in the oracle venv ------------------------------------------------------------------
PY=$("$REPO/tests/oracle/setup_venv.sh")
pip_has() {  # every "name==version" line of a requirements file installed
  "$PY" - "$1" <<'PYEOF'
import sys
from importlib.metadata import version, PackageNotFoundError
for line in open(sys.argv[1]):
    line = line.split("#")[0].strip()
    if not line:
        continue
    name, want = line.split("==")
    try:
        if version(name) != want:
            sys.exit(1)
    except PackageNotFoundError:
        sys.exit(1)
PYEOF
}
tf_version() { "$PY" -c "from importlib.metadata import version; print(version('tensorflow-cpu'))"; }
if ! pip_has "$REPO/bench/requirements.txt"; then
  before=$(tf_version)
  log "installing bench/requirements.txt into the oracle venv"
  "$PY" -m pip install -q --disable-pip-version-check -r "$REPO/bench/requirements.txt" \
    -c "$REPO/tests/oracle/requirements.txt" >&2
  if ! "$PY" -m pip check >&2 || [ "$(tf_version)" != "$before" ]; then
    log "the oracle venv is no longer consistent after installing bench/requirements.txt" \
        "(pip check, or tensorflow-cpu $before -> $(tf_version)): remove it and run" \
        "tests/oracle/setup_venv.sh again"
    exit 1
  fi
fi
TF_DIR=$(TF_CPP_MIN_LOG_LEVEL=3 "$PY" -c "import os, tensorflow; print(os.path.dirname(tensorflow.__file__))" \
         2>/dev/null) || { log "the oracle venv cannot import tensorflow"; exit 1; }

# ---- ONNX Runtime's C library and header -------------------------------------------------------
ORT_VERSION=1.30.0
ORT_GO_VERSION=v1.26.0  # the Go binding whose module carries the C API header ORT_VERSION accepts
ORT_DIR="$CACHE/onnxruntime-$ORT_VERSION"
fetch_ort() {
  mkdir -p "$ORT_DIR"
  if [ ! -f "$ORT_DIR/libonnxruntime.so.1" ]; then
    local tmp
    tmp=$(mktemp -d "$CACHE/npm.XXXXXX")
    (cd "$tmp" && npm pack --silent "onnxruntime-node@$ORT_VERSION" >/dev/null &&
     tar xzf "onnxruntime-node-$ORT_VERSION.tgz" --strip-components=5 \
       package/bin/napi-v6/linux/x64/libonnxruntime.so.1) &&
      mv "$tmp/libonnxruntime.so.1" "$ORT_DIR/"
    rm -rf "$tmp"
  fi
  if [ ! -f "$ORT_DIR/onnxruntime_c_api.h" ] || [ ! -f "$ORT_DIR/onnxruntime_ep_c_api.h" ]; then
    command -v go >/dev/null || { log "no go command to fetch ONNX Runtime's header"; return 1; }
    local dir
    dir=$(cd "$CACHE" && GOMODCACHE="$CACHE/gomod" GOFLAGS=-modcacherw GO111MODULE=on \
          go mod download -json "github.com/yalue/onnxruntime_go@$ORT_GO_VERSION" |
          "$PY" -c "import json, sys; print(json.load(sys.stdin)['Dir'])")
    cp "$dir/onnxruntime_c_api.h" "$dir/onnxruntime_ep_c_api.h" "$ORT_DIR/"
  fi
  [ -f "$ORT_DIR/libonnxruntime.so.1" ] && [ -f "$ORT_DIR/onnxruntime_c_api.h" ]
}
mkdir -p "$CACHE"
HAVE_ORT=1
fetch_ort || { HAVE_ORT=0; log "ONNX Runtime could not be fetched: its column is left out"; }

# ---- build ---------------------------------------------------------------------------------------
LIBS="sg tf"
[ "$HAVE_ORT" = 1 ] && LIBS="sg tf ort"
targets=()
for lib in $LIBS; do targets+=("infer_bench_$lib"); done
log "building ${targets[*]}"
ort_arg=()
[ "$HAVE_ORT" = 1 ] && ort_arg=(-DSG_ORT_DIR="$ORT_DIR")
BUILD_DIR="$BUILD" "$REPO/scripts/build.sh" -DSG_BUILD_BENCH=ON -DSG_TF_PACKAGE_DIR="$TF_DIR" \
  "${ort_arg[@]}" -- "${targets[@]}" >/dev/null

# ---- models --------------------------------------------------------------------------------------
MODEL_DIR="$BUILD/bench/infer_models"
size_arg=()
if [ -n "${FULL_SIZE:-}" ]; then
  MODEL_DIR="$BUILD/bench/infer_models_full"
  size_arg=(--full-size)
fi
stamp=$(cat "$REPO/bench/make_infer_models.py" "$REPO/bench/requirements.txt" | sha256sum | cut -c1-16)
if [ "$(cat "$MODEL_DIR/.stamp" 2>/dev/null)" != "$stamp" ]; then
  rm -rf "$MODEL_DIR"
  mkdir -p "$MODEL_DIR"
  echo "$stamp" > "$MODEL_DIR/.stamp"
fi
log "models in $MODEL_DIR: $MODELS"
# shellcheck disable=SC2086
"$PY" "$REPO/bench/make_infer_models.py" "${size_arg[@]}" "$MODEL_DIR" $MODELS 2>&1 | grep "^make_infer_models" >&2 || true
for m in $MODELS; do
  [ -f "$MODEL_DIR/$m.spec" ] || { log "make_infer_models.py did not write $m"; exit 1; }
done

# ---- rounds --------------------------------------------------------------------------------------
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
RESULTS="$OUT/results.jsonl"
: > "$RESULTS"
run_one() {  # lib model batch threads mode [extra args...]
  local lib=$1 model=$2 batch=$3 threads=$4 mode=$5
  shift 5
  local line
  line=$(TF_CPP_MIN_LOG_LEVEL=2 timeout 900 "$BUILD/bench/infer_bench_$lib" --models "$MODEL_DIR" \
           --model "$model" --batch "$batch" --threads "$threads" --mode "$mode" "$@" \
           2>>"$OUT/stderr.$lib" | tail -n 1) || true
  [ -n "$line" ] || line="{\"lib\": \"$lib\", \"model\": \"$model\", \"batch\": $batch, \"threads\": $threads, \"mode\": \"$mode\", \"error\": \"crashed or timed out (see its stderr)\"}"
  echo "$line" >> "$RESULTS"
}
read -r -a lib_list <<< "$LIBS"
start=$(date +%s)
for round in $(seq "$ROUNDS"); do
  for model in $MODELS; do
    batches=$BATCHES
    [ "$DEFAULT_BATCHES" = 1 ] && [ "$model" = mnist_cnn ] && batches="$BATCHES 64"
    for batch in $batches; do
      for threads in $THREADS; do
        n=${#lib_list[@]}
        for k in $(seq 0 $((n - 1))); do  # the order rotates with the round
          lib=${lib_list[$(((k + round) % n))]}
          run_one "$lib" "$model" "$batch" "$threads" latency --inter "$INTER" \
            --runs 1000 --max-seconds "$MAX_SECONDS" --out "$OUT/$model.$batch.$threads.$lib.bin"
        done
      done
    done
  done
  for model in $CONCURRENT; do
    for k in $(seq 0 $((${#lib_list[@]} - 1))); do
      lib=${lib_list[$(((k + round) % ${#lib_list[@]}))]}
      run_one "$lib" "$model" 1 2 concurrent --inter 2 --callers 8 --runs 20
    done
  done
  log "round $round of $ROUNDS done ($(( $(date +%s) - start )) s)"
done

# ---- report --------------------------------------------------------------------------------------
"$PY" - "$OUT" "$MODEL_DIR" "$ROUNDS" "$LIBS" "$MODELS" "$INTER" <<'PYEOF'
import collections, json, os, statistics, sys
import numpy as np

out, model_dir, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
libs, models, inter = sys.argv[4].split(), sys.argv[5].split(), sys.argv[6]
manifest = json.load(open(os.path.join(model_dir, "manifest.json")))
rows = collections.defaultdict(lambda: collections.defaultdict(list))
errors = collections.defaultdict(set)
for line in open(os.path.join(out, "results.jsonl")):
    r = json.loads(line)
    key = (r["mode"], r["model"], r["batch"], r["threads"])
    if r.get("error"):
        errors[key + (r["lib"],)].add(r["error"])
    else:
        rows[key][r["lib"]].append(r)

def med(key, lib, field):
    rs = rows[key].get(lib, [])
    return statistics.median(r[field] for r in rs) if rs else None

def cell(key, lib, field, fmt="{:.0f}"):
    v = med(key, lib, field)
    if v is not None:
        return fmt.format(v)
    if lib == "ort" and not manifest[key[1]].get("onnx"):
        return "no ONNX"
    return "error" if errors.get(key + (lib,)) else "-"

def ratio(key, a, b, field="median_us"):
    x, y = med(key, a, field), med(key, b, field)
    return f"{x / y:.2f}" if x and y else "-"

failed = []
def compare(key):
    """max |a - b| of sg against the others; beyond tolerance * max(1, max |ref|) is a FAIL."""
    model, batch, threads = key[1:]
    tol = manifest[model]["tolerance"]
    outs = {}
    for lib in libs:
        path = os.path.join(out, f"{model}.{batch}.{threads}.{lib}.bin")
        if os.path.exists(path):
            outs[lib] = np.fromfile(path, np.float32)
    cells, ok = [], True
    for other in ("tf", "ort"):
        if "sg" not in outs or other not in outs:
            cells.append("-")
            continue
        a, b = outs["sg"], outs[other]
        if a.shape != b.shape:
            cells.append(f"size {a.size} vs {b.size}")
            ok = False
            continue
        d = float(np.abs(a.astype(np.float64) - b).max(initial=0.0))
        if not np.isfinite(d) or d > tol * max(1.0, float(np.abs(b).max(initial=0.0))):
            ok = False
        cells.append(f"{d:.1e}")
    if "tf" in outs and "ort" in outs and outs["tf"].shape == outs["ort"].shape:
        d = float(np.abs(outs["tf"].astype(np.float64) - outs["ort"]).max(initial=0.0))
        cells.append(f"{d:.1e}")
    else:
        cells.append("-")
    if not ok:
        failed.append(f"{model} batch {batch} threads {threads}: outputs differ beyond "
                      f"{tol:g} x max(1, max |output|)")
    return cells + ["ok" if ok else "FAIL"]

latency = sorted((k for k in rows if k[0] == "latency"),
                 key=lambda k: (models.index(k[1]) if k[1] in models else 0, k[2], k[3]))
print(f"median latency in microseconds, median of {rounds} interleaved rounds (each the median "
      f"of its process's timed runs); threads = intra-op threads, inter-op threads {inter}:\n")
print("| model | batch | threads | sg | TensorFlow | ONNX Runtime | sg / TF | sg / ORT "
      "| max abs diff sg-TF | sg-ORT | TF-ORT | outputs |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for key in latency:
    print(f"| {key[1]} | {key[2]} | {key[3]} | {cell(key, 'sg', 'median_us')} | "
          f"{cell(key, 'tf', 'median_us')} | {cell(key, 'ort', 'median_us')} | "
          f"{ratio(key, 'sg', 'tf')} | {ratio(key, 'sg', 'ort')} | "
          + " | ".join(compare(key)) + " |")

print("\ncold start in milliseconds (read + import + session + first run, in a fresh process; "
      "ONNX Runtime parses in its session) and peak resident memory in MiB, batch 1, "
      "1 thread, medians:\n")
print("| model | sg cold | TF cold | ORT cold | sg / TF | sg / ORT | sg first run | TF first run "
      "| ORT first run | sg MiB | TF MiB | ORT MiB |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
ms, mib = "{:.1f}", "{:.0f}"
for key in latency:
    if key[2] != 1 or key[3] != min(k[3] for k in latency if k[1] == key[1]):
        continue
    scaled = {}
    for lib in libs:
        for field, div in (("cold_us", 1e3), ("first_run_us", 1e3), ("peak_rss_kb", 1024)):
            v = med(key, lib, field)
            scaled[lib, field] = ms.format(v / div) if field != "peak_rss_kb" and v is not None \
                else (mib.format(v / div) if v is not None else cell(key, lib, field))
    print(f"| {key[1]} | " + " | ".join(scaled.get((l, "cold_us"), "-") for l in ("sg", "tf", "ort"))
          + f" | {ratio(key, 'sg', 'tf', 'cold_us')} | {ratio(key, 'sg', 'ort', 'cold_us')} | "
          + " | ".join(scaled.get((l, "first_run_us"), "-") for l in ("sg", "tf", "ort")) + " | "
          + " | ".join(scaled.get((l, "peak_rss_kb"), "-") for l in ("sg", "tf", "ort")) + " |")

concurrent = [k for k in rows if k[0] == "concurrent"]
if concurrent:
    print("\n8 callers on one session (batch 1, 2 intra-op threads): inferences per second "
          "(higher is better) and median call latency in microseconds:\n")
    print("| model | sg /s | TF /s | ORT /s | sg / TF | sg / ORT | sg call | TF call | ORT call |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for key in concurrent:
        print(f"| {key[1]} | " + " | ".join(cell(key, l, "items_per_s") for l in ("sg", "tf", "ort"))
              + f" | {ratio(key, 'sg', 'tf', 'items_per_s')} | {ratio(key, 'sg', 'ort', 'items_per_s')} | "
              + " | ".join(cell(key, l, "median_us") for l in ("sg", "tf", "ort")) + " |")

skipped = [f"{m}: {e['onnx_error']}" for m, e in manifest.items() if not e.get("onnx")]
if skipped and "ort" in libs:
    print("\nno ONNX form (tf2onnx failed), ONNX Runtime skipped: " + "; ".join(skipped))
run_errors = 0
for key, errs in sorted(errors.items()):
    if not (key[4] == "ort" and not manifest[key[1]].get("onnx")):
        run_errors += 1
        print(f"ERROR {key[4]} {key[0]} {key[1]} batch {key[2]} threads {key[3]}: "
              + "; ".join(sorted(errs)))
for f in failed:
    print("FAIL " + f)
sys.exit(1 if failed or run_errors else 0)
PYEOF
