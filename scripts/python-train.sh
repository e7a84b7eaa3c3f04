#!/usr/bin/env bash
# The opt-in smoke trainings of the Python package (not run by scripts/test): MaskablePPO
# (sb3-contrib, PyTorch) on the vector environment stepped in Rust, against random and by
# self-play against a league of its own snapshots (its curve against sowing.evaluate's
# ladder), and AlphaZero (sowing.BatchedMCTS with a NumPy network) by self-play on
# Hoyito III; each prints its results against random and greedy. A virtualenv of its own under target/ with the pinned
# packages of crates/sowing-py/requirements-train.txt (PyTorch from PyPI: a large download).
#
#   scripts/python-train.sh                       # both, the figures of docs/python.md
#   PPO_STEPS=200000 SELFPLAY_STEPS=200000 AZ_MINUTES=0.5 scripts/python-train.sh   # quicker
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
venv="$root/target/python-train-venv"
python="${PYTHON:-python3}"

if ! "$venv/bin/python" -m pip --version >/dev/null 2>&1; then
  rm -rf "$venv"
  "$python" -m venv "$venv"
fi
export PATH="$venv/bin:$PATH"
pip=("$venv/bin/python" -m pip --disable-pip-version-check --quiet)
"${pip[@]}" install -r crates/sowing-py/requirements-train.txt
"${pip[@]}" install --no-build-isolation ./crates/sowing-py

cd "$root/target"
echo "== MaskablePPO (examples/maskable_ppo.py)"
"$venv/bin/python" "$root/crates/sowing-py/examples/maskable_ppo.py" \
  --steps "${PPO_STEPS:-1000000}" --opponent "${PPO_OPPONENT:-random}"
echo "== MaskablePPO self-play (examples/selfplay_ppo.py)"
"$venv/bin/python" "$root/crates/sowing-py/examples/selfplay_ppo.py" \
  --steps "${SELFPLAY_STEPS:-2000000}" --checkpoints "${SELFPLAY_CHECKPOINTS:-4}"
echo "== AlphaZero (examples/alphazero.py)"
"$venv/bin/python" "$root/crates/sowing-py/examples/alphazero.py" --minutes "${AZ_MINUTES:-3}"
