#!/usr/bin/env bash
# Makes (or reuses) the virtual environment with the pinned TensorFlow oracle and prints its
# python's path on the last line of stdout.
#
#   tests/oracle/setup_venv.sh            # venv in $SG_ORACLE_VENV (default ~/.cache/sg/tf-oracle)
#
# Idempotent: when the venv already holds exactly requirements.txt, pip is not run.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
VENV="${SG_ORACLE_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/sg/tf-oracle}"
STAMP="$VENV/.sg-requirements"
if [ -x "$VENV/bin/python" ] && [ -f "$STAMP" ] && cmp -s "$STAMP" "$HERE/requirements.txt"; then
  echo "$VENV/bin/python"
  exit 0
fi
PY="${PYTHON:-python3}"
if ! "$PY" -c 'import venv, ensurepip' >/dev/null 2>&1; then
  echo "setup_venv: $PY lacks venv/ensurepip (Debian: apt-get install python3-venv)" >&2
  exit 1
fi
mkdir -p "$(dirname "$VENV")"
"$PY" -m venv "$VENV" >&2
"$VENV/bin/pip" install -q --disable-pip-version-check -r "$HERE/requirements.txt" >&2
cp "$HERE/requirements.txt" "$STAMP"
echo "$VENV/bin/python"
