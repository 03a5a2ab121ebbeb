#!/usr/bin/env bash
# sg's main job, end to end: installs the dependencies, builds, then runs the digits classifier
# (a frozen TensorFlow graph, tests/testdata/digits_mlp.pb) on held-out samples through the `sg`
# command and through the C example, and compares the accuracy with TensorFlow's own.
#
#   BUILD_DIR  build directory (default build/)
set -euo pipefail

cd "$(dirname "$0")/.."
BUILD_DIR="${BUILD_DIR:-build}"
TD=tests/testdata
SG="$BUILD_DIR/tools/sg"

scripts/install-deps.sh
BUILD_DIR="$BUILD_DIR" scripts/build.sh

if [ ! -x "$SG" ]; then
  echo "demo: $SG was not built" >&2
  exit 1
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Small .npy helpers (python3's standard library only; the files are numpy format 1.0, C order).
npy() {
  python3 - "$@" <<'PY'
import ast, json, struct, sys

def read(path):
    b = open(path, "rb").read()
    assert b[:6] == b"\x93NUMPY", path
    hlen = struct.unpack("<H", b[8:10])[0] if b[6] == 1 else struct.unpack("<I", b[8:12])[0]
    start = 10 if b[6] == 1 else 12
    h = ast.literal_eval(b[start:start + hlen].decode("latin1"))
    n = 1
    for d in h["shape"]:
        n *= d
    fmt = {"<f4": "f", "<i4": "i", "<i8": "q"}[h["descr"]]
    vals = struct.unpack("<%d%s" % (n, fmt), b[start + hlen:start + hlen + n * struct.calcsize(fmt)])
    return h["descr"], list(h["shape"]), list(vals)

def write(path, descr, shape, vals):
    fmt = {"<f4": "f", "<i4": "i", "<i8": "q"}[descr]
    shp = "(%d,)" % shape[0] if len(shape) == 1 else "(%s)" % ", ".join("%d" % d for d in shape)
    h = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shp)
    h += " " * (63 - (10 + len(h)) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h.encode("latin1"))
        f.write(struct.pack("<%d%s" % (len(vals), fmt), *vals))

def argmax_rows(shape, vals):
    c = shape[-1]
    return [max(range(c), key=lambda k: vals[r * c + k]) for r in range(len(vals) // c)]

cmd = sys.argv[1]
if cmd == "head":  # head SRC DST N: the first N rows of SRC
    src, dst, n = sys.argv[2], sys.argv[3], int(sys.argv[4])
    descr, shape, vals = read(src)
    row = len(vals) // shape[0]
    write(dst, descr, [n] + shape[1:], vals[:n * row])
elif cmd == "labels":  # labels Y N: the first N labels
    print(" ".join(str(v) for v in read(sys.argv[2])[2][:int(sys.argv[3])]))
elif cmd == "predict":  # predict PROBS.npy: the argmax of each row
    _, shape, probs = read(sys.argv[2])
    print(" ".join(str(c) for c in argmax_rows(shape, probs)))
elif cmd == "accuracy":  # accuracy PROBS.npy Y.npy [TF_PROBS.npy]: accuracy, max |diff| to TF
    _, shape, probs = read(sys.argv[2])
    labels = read(sys.argv[3])[2]
    pred = argmax_rows(shape, probs)
    correct = sum(p == y for p, y in zip(pred, labels))
    line = "%d/%d correct, accuracy %.5f" % (correct, len(labels), correct / len(labels))
    if len(sys.argv) > 4:
        tf = read(sys.argv[4])[2]
        line += ", max |sg - TensorFlow| over all probabilities %.2g" % max(
            abs(a - b) for a, b in zip(probs, tf))
    print(line)
elif cmd == "tf_accuracy":  # tf_accuracy expected.json
    d = json.load(open(sys.argv[2]))["digits_mlp"]
    print("%d/%d correct, accuracy %.5f (TensorFlow %s)" % (
        d["test_correct"], d["num_test"], d["test_accuracy"],
        json.load(open(sys.argv[2]))["tensorflow_version"]))
PY
}

echo
echo "=== The digits classifier: $TD/digits_mlp.pb (64 -> 64 ReLU -> 10, trained by TensorFlow)"
"$SG" inspect "$TD/digits_mlp.pb"

echo
echo "=== sg run on the first 5 held-out samples (labels: $(npy labels "$TD/digits_test_y.npy" 5))"
npy head "$TD/digits_test_x.npy" "$work/first5.npy" 5
"$SG" run "$TD/digits_mlp.pb" --feed "input:0=@$work/first5.npy" --fetch probs:0
"$SG" run "$TD/digits_mlp.pb" --feed "input:0=@$work/first5.npy" --fetch probs:0 --out "$work" >/dev/null
echo "predicted classes: $(npy predict "$work/probs_0.npy")"

echo
echo "=== sg run on all 360 held-out samples, one batch, 200 runs"
"$SG" run "$TD/digits_mlp.pb" --feed "input:0=@$TD/digits_test_x.npy" --fetch probs:0 \
  --repeat 200 --out "$work"
echo "sg:         $(npy accuracy "$work/probs_0.npy" "$TD/digits_test_y.npy" "$TD/digits_tf_probs.npy")"
echo "TensorFlow: $(npy tf_accuracy "$TD/expected.json")"

example="$BUILD_DIR/examples/classify_digits"
echo
if [ -x "$example" ]; then
  echo "=== The C example (examples/classify_digits.c, through libsg's C API): accuracy and latency per batch"
  for batch in 1 32 90; do
    echo "--- batch $batch"
    "$example" "$TD/digits_mlp.pb" "$TD/digits_test_x.npy" "$TD/digits_test_y.npy" "$batch"
  done
else
  echo "demo: $example was not built" >&2
  exit 1
fi

echo
echo "=== The same classifier served from a SavedModel (tests/testdata/digits_saved_model: variables restored from its checkpoint)"
"$SG" run --saved_model "$TD/digits_saved_model" --input "x=@$TD/digits_test_x.npy" --output probs \
  --out "$work" >/dev/null
echo "sg (SavedModel): $(npy accuracy "$work/probs.npy" "$TD/digits_test_y.npy" "$TD/digits_tf_probs.npy")"

# A local cluster: one ps and two worker tasks, each an `sg server` process on loopback. The
# client session's target is worker 0's master, which places the graph over all three tasks
# (--config round_robin_placement=1 spreads the nodes round robin, so tensors cross tasks through
# _Send/_Recv and RecvTensor), partitions it and runs every step on all of them.
echo
echo "=== The same classifier on a local cluster: ps:1, worker:2 (sg server processes on 127.0.0.1)"
ports=($(python3 -c 'import socket
s=[socket.socket() for _ in range(3)]
[x.bind(("127.0.0.1",0)) for x in s]
print(*[x.getsockname()[1] for x in s])'))
spec="ps=127.0.0.1:${ports[0]};worker=127.0.0.1:${ports[1]},127.0.0.1:${ports[2]}"
pids=()
stop_cluster() { for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap 'stop_cluster; rm -rf "$work"' EXIT
for task in ps:0 worker:0 worker:1; do
  "$SG" server --cluster "$spec" --job "${task%%:*}" --task "${task##*:}" \
    >"$work/server_${task/:/_}.log" 2>&1 &
  pids+=($!)
done
for task in ps_0 worker_0 worker_1; do
  for _ in $(seq 100); do grep -q "serving" "$work/server_$task.log" 2>/dev/null && break; sleep 0.1; done
  head -1 "$work/server_$task.log"
done
mkdir -p "$work/cluster"
"$SG" run "$TD/digits_mlp.pb" --feed "input:0=@$TD/digits_test_x.npy" --fetch probs:0 \
  --session_target "grpc://127.0.0.1:${ports[1]}" --config round_robin_placement=1 --repeat 50 \
  --out "$work/cluster"
echo "sg (cluster): $(npy accuracy "$work/cluster/probs_0.npy" "$TD/digits_test_y.npy" "$TD/digits_tf_probs.npy")"
stop_cluster
trap 'rm -rf "$work"' EXIT
echo
echo "demo: done"
