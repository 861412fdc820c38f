#!/usr/bin/env bash
# The Python package's tests (python/tests, pytest), run by scripts/test.sh: makes a virtual
# environment in the target directory with the pinned tools of python/requirements-test.txt
# (maturin, pytest, AALpy; from PyPI), installs the package into it as a user would
# (`pip install ./python`: maturin's release build of the one cdylib, in target/python), and
# runs pytest. Without python3 (or its venv module) the tests are skipped and the skip recorded
# in test-skips.txt like the Rust tests' skips (crate ioco-testkit); IOCO_NO_SKIP=1 (CI) makes
# that a failure. IOCO_BIN (default: target/debug/ioco when built) lets the tests compare with
# the command line.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
target="${CARGO_TARGET_DIR:-target}"
[[ "$target" = /* ]] || target="$root/$target"
skip() {
  if [[ -n "${IOCO_NO_SKIP:-}" && "${IOCO_NO_SKIP}" != 0 ]]; then
    echo "python/tests cannot run (IOCO_NO_SKIP is set, so this is a failure): $1" >&2
    exit 1
  fi
  echo "ioco-test-skip: python/tests: $1" >&2
  mkdir -p "$target"
  printf 'python/tests\t%s\n' "$1" >>"$target/test-skips.txt"
  exit 0
}
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
python3 -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 10))' 2>/dev/null ||
  skip "python3 >= 3.10 with its venv module is needed (AALpy 2 needs 3.10; apt install python3-venv)"
venv="$target/python-venv"
if [[ ! -x "$venv/bin/python" ]]; then
  python3 -m venv "$venv"
fi
export PIP_DISABLE_PIP_VERSION_CHECK=1
# as if activated: maturin's build backend runs the `maturin` of the PATH
export VIRTUAL_ENV="$venv" PATH="$venv/bin:$PATH"
"$venv/bin/python" -m pip install -q -r python/requirements-test.txt
# the package as a user installs it (maturin from the venv: the pinned one), release build
start=$(date +%s)
CARGO_TARGET_DIR="$target/python" "$venv/bin/python" -m pip install -q --no-build-isolation \
  --force-reinstall --no-deps ./python
echo "test_python.sh: pip install ./python took $(($(date +%s) - start)) s"
if [[ -z "${IOCO_BIN:-}" && -x "$target/debug/ioco" ]]; then
  export IOCO_BIN="$target/debug/ioco"
fi
export IOCO_CORPUS="${IOCO_CORPUS:-$root/../shared/corpus}"
export IOCO_SKIP_LOG="$target/test-skips.txt"
cd python
# not `python -m pytest`: that puts python/ (the sources, without the built module) first on
# the path
exec "$venv/bin/pytest" -q tests "$@"
