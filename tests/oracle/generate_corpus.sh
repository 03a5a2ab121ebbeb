#!/bin/sh
# ctest's model_corpus_generate fixture: writes the Keras applications of the model corpus into
# OUT_DIR with the TensorFlow oracle (tests/oracle/make_corpus.py), unless OUT_DIR/.stamp shows
# they are there already from this script, requirements.txt and set (then it takes a moment).
# Without the oracle's venv it writes the reason to OUT_DIR/SKIPPED, prints "skipped: ..." and
# exits 77 (ctest: skipped); it never installs anything.
#
#   sh tests/oracle/generate_corpus.sh OUT_DIR
#
#   SG_ORACLE_VENV        the venv (default ~/.cache/sg/tf-oracle, as setup_venv.sh)
#   SG_MODEL_CORPUS_SET   apps (default: one application per family) or apps-all (all 40)
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$1
SET=${SG_MODEL_CORPUS_SET:-apps}
VENV=${SG_ORACLE_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/sg/tf-oracle}
mkdir -p "$OUT"
skip() {
  echo "skipped: $*"
  echo "$*" > "$OUT/SKIPPED"
  exit 77
}
[ -x "$VENV/bin/python" ] ||
  skip "no TensorFlow oracle venv at $VENV (tests/oracle/setup_venv.sh makes it)"
cmp -s "$VENV/.sg-requirements" "$HERE/requirements.txt" ||
  skip "the venv at $VENV does not hold tests/oracle/requirements.txt (rerun tests/oracle/setup_venv.sh)"
rm -f "$OUT/SKIPPED"
STAMP=$({ cat "$HERE/make_corpus.py" "$HERE/requirements.txt"; printf '%s' "$SET"; } |
        sha256sum | cut -d' ' -f1)
if [ -f "$OUT/.stamp" ] && [ "$(cat "$OUT/.stamp")" = "$STAMP" ]; then
  echo "generate_corpus: $OUT holds the $SET set already"
  exit 0
fi
echo "generate_corpus: writing the $SET set into $OUT (a few minutes of TensorFlow)"
exec "$VENV/bin/python" "$HERE/make_corpus.py" --set "$SET" --out "$OUT" --stamp "$STAMP"
