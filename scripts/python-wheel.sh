#!/usr/bin/env bash
# Builds the Python package's wheel, target/wheels/sowing-VERSION-cp39-abi3-PLATFORM.whl
# (abi3: one wheel for every CPython from 3.9 on), with the pinned maturin of
# crates/sowing-py/requirements-test.txt and the crate's release-py profile (the release
# one aborts on panic; an extension module must unwind), and prints its path. The wheel
# installs with pip where there is no Rust toolchain (crates/sowing-py/tests/test_wheel.py
# checks it in a fresh virtualenv without cargo).
# scripts/python-test.sh builds it and installs it, so the tests test this wheel.
#
#   scripts/python-wheel.sh                        # uses (or makes) target/python-venv
#   pip install target/wheels/sowing-*.whl         # anywhere: no cargo needed
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
venv="$root/target/python-venv"
python="${PYTHON:-python3}"
out="$root/target/wheels"

if ! "$venv/bin/maturin" --version >/dev/null 2>&1; then
  if ! "$venv/bin/python" -m pip --version >/dev/null 2>&1; then
    rm -rf "$venv"
    "$python" -m venv "$venv"
  fi
  "$venv/bin/python" -m pip --disable-pip-version-check --quiet install \
    "$(grep '^maturin==' crates/sowing-py/requirements-test.txt)"
fi
# One wheel, from these sources: none left from another version.
rm -f "$out"/sowing-*.whl
# maturin's messages go to standard error; standard output is the wheel's path alone.
"$venv/bin/maturin" build --profile release-py --locked --manifest-path crates/sowing-py/Cargo.toml \
  --interpreter "$venv/bin/python" --out "$out" >&2
wheels=("$out"/sowing-*.whl)
if [ "${#wheels[@]}" -ne 1 ] || [ ! -f "${wheels[0]}" ]; then
  echo "python-wheel: expected one wheel in $out, found: ${wheels[*]}" >&2
  exit 1
fi
echo "${wheels[0]}"
