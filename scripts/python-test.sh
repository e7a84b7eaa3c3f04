#!/usr/bin/env bash
# The Python package's tests (crates/sowing-py, docs/python.md): a virtualenv under target/,
# the pinned packages of crates/sowing-py/requirements-test.txt from PyPI, the package's
# wheel built by scripts/python-wheel.sh (maturin builds the Rust extension) and installed,
# then pytest (tests/test_wheel.py installs that wheel again where no cargo is). Needs only
# python3 (3.9 or later), pip and cargo; installs Debian's python3-venv when the venv module
# is missing. Exits non-zero on any failure, and when pytest ran no test.
#
#   scripts/python-test.sh            # everything
#   scripts/python-test.sh -k gym     # arguments go to pytest
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
venv="$root/target/python-venv"
python="${PYTHON:-python3}"

if ! "$venv/bin/python" -m pip --version >/dev/null 2>&1; then
  rm -rf "$venv" # none yet, or one left half-made (Debian's python3 without python3-venv)
  if ! "$python" -m venv "$venv" >/dev/null 2>&1; then
    echo "python-test: installing Debian's python3-venv"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq python3-venv >/dev/null
    rm -rf "$venv"
    "$python" -m venv "$venv"
  fi
fi
export PATH="$venv/bin:$PATH" # the maturin build backend runs the venv's maturin
pip=("$venv/bin/python" -m pip --disable-pip-version-check --quiet)
"${pip[@]}" install -r crates/sowing-py/requirements-test.txt
# The pinned maturin of the virtualenv builds the wheel (no download of a newer one); the
# tests use that wheel, built once.
SOWING_WHEEL=$(scripts/python-wheel.sh)
export SOWING_WHEEL
"${pip[@]}" install --force-reinstall --no-deps "$SOWING_WHEEL"

# `sow replay`, for the agreement tests.
if [ -z "${SOW:-}" ]; then
  cargo build -q -p sowing-cli --locked
  SOW="$root/target/debug/sow"
fi
export SOW

status=0
(cd crates/sowing-py && "$venv/bin/python" -m pytest tests -q -p no:cacheprovider "$@") || status=$?
if [ "$status" -eq 5 ]; then
  echo "python-test: pytest collected no tests: failing" >&2
  exit 1
fi
exit "$status"
