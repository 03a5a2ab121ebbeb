# Sourced by the drop-in tests: finds TensorFlow's wheel in the oracle venv without importing it
# (tests/oracle/setup_venv.sh makes the venv; these tests never install anything).
# Sets TF_WHEEL_DIR (site-packages/tensorflow) and TF_WHEEL_INCLUDE, or returns 1 with a reason
# in TF_WHEEL_MISSING.
find_tf_wheel() {
  venv="${SG_ORACLE_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/sg/tf-oracle}"
  TF_WHEEL_DIR=""
  for d in "$venv"/lib/python3*/site-packages/tensorflow; do
    if [ -f "$d/libtensorflow_cc.so.2" ] && [ -f "$d/include/tensorflow/c/c_api.h" ]; then
      TF_WHEEL_DIR="$d"
    fi
  done
  if [ -z "$TF_WHEEL_DIR" ]; then
    TF_WHEEL_MISSING="no TensorFlow oracle venv with the wheel's C library and headers at $venv (tests/oracle/setup_venv.sh makes it)"
    return 1
  fi
  TF_WHEEL_INCLUDE="$TF_WHEEL_DIR/include"
  return 0
}
