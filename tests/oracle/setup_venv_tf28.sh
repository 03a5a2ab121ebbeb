#!/usr/bin/env bash
# Makes (or reuses) the virtual environment with TensorFlow 2.8, the oracle of the op groups whose
# CPU kernels TensorFlow 2.21 lacks (README.md: the BoostedTrees quantile ops), and prints its
# python's path on the last line of stdout. As setup_venv.sh, with its own venv and
# requirements_tf28.txt, on Python 3.10 (TensorFlow 2.8's wheels stop there).
#
#   tests/oracle/setup_venv_tf28.sh   # venv in $SG_ORACLE_VENV_TF28 (default ~/.cache/sg/tf-oracle-2.8)
#   PYTHON=/path/to/python3.10 tests/oracle/setup_venv_tf28.sh
#
# Idempotent: when the venv already holds exactly requirements_tf28.txt, pip is not run.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
REQS="$HERE/requirements_tf28.txt"
VENV="${SG_ORACLE_VENV_TF28:-${XDG_CACHE_HOME:-$HOME/.cache}/sg/tf-oracle-2.8}"
STAMP="$VENV/.sg-requirements"
if [ -x "$VENV/bin/python" ] && [ -f "$STAMP" ] && cmp -s "$STAMP" "$REQS"; then
  echo "$VENV/bin/python"
  exit 0
fi
PY="${PYTHON:-python3.10}"
if ! "$PY" -c 'import sys, venv, ensurepip; assert sys.version_info[:2] == (3, 10)' >/dev/null 2>&1; then
  echo "setup_venv_tf28: $PY is not a Python 3.10 with venv/ensurepip (set PYTHON)" >&2
  exit 1
fi
mkdir -p "$(dirname "$VENV")"
"$PY" -m venv "$VENV" >&2
"$VENV/bin/pip" install -q --disable-pip-version-check -r "$REQS" >&2
cp "$REQS" "$STAMP"
echo "$VENV/bin/python"
