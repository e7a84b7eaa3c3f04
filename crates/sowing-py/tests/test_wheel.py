"""The wheel of scripts/python-wheel.sh installs and works where there is no Rust toolchain:
a fresh virtualenv, cargo and rustc off the PATH."""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

# What the fresh install must do: no cargo, the package from the fresh virtualenv, a game
# played to its end, an environment stepped, the engine's move.
USE = """
import random, shutil, sys
assert shutil.which("cargo") is None and shutil.which("rustc") is None, "a Rust toolchain"
import numpy as np
import sowing
assert sowing.__file__.startswith(sys.prefix), sowing.__file__
game, rng = sowing.Game("ayoayo"), random.Random(0)
while not game.is_over:
    game.play(rng.choice(game.legal_moves()))
vec = sowing.VecGame(8, "hoyito-ii", seed=0)
observations, masks = vec.reset()
for _ in range(50):
    observations, rewards, terminations, masks = vec.step(vec.sample_actions())
assert observations.shape == (8, 20) and masks.shape == (8, 6)
move = sowing.Engine(level=2).best_move(sowing.Game("hoyito-iii"))
print("ok", game.result, move)
"""


def the_wheel() -> Path:
    """The wheel scripts/python-test.sh built ($SOWING_WHEEL), else the one in target/."""
    given = os.environ.get("SOWING_WHEEL")
    wheels = [Path(given)] if given else sorted((ROOT / "target" / "wheels").glob("sowing-*.whl"))
    if len(wheels) != 1 or not wheels[0].is_file():
        pytest.fail(f"no single wheel (found {wheels}): run scripts/python-wheel.sh, "
                    "as scripts/python-test.sh does")
    return wheels[0]


def without_rust(environ: dict[str, str], venv: Path) -> dict[str, str]:
    """The environment with the fresh virtualenv first on the PATH, and no directory that
    holds cargo or rustc, nor any variable of Rust's or Python's that would reach past it."""
    kept = [d for d in environ.get("PATH", "").split(os.pathsep)
            if d and not any((Path(d) / tool).exists() for tool in ("cargo", "rustc"))
            and Path(d).resolve() != Path(sys.prefix, "bin").resolve()]
    env = {k: v for k, v in environ.items()
           if not k.startswith(("CARGO", "RUSTUP", "PYTHON", "VIRTUAL_ENV", "PYO3", "MATURIN"))}
    env["PATH"] = os.pathsep.join([str(venv / "bin"), *kept])
    return env


def test_the_wheel_installs_and_works_without_rust(tmp_path):
    wheel = the_wheel()
    assert "-cp39-abi3-" in wheel.name  # one wheel for every CPython from 3.9 on
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    env = without_rust(dict(os.environ), venv)
    python = str(venv / "bin" / "python")
    # Binary packages only (no build can start); numpy at the tests' version (pip's cache).
    numpy = f"numpy=={importlib.metadata.version('numpy')}"
    subprocess.run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    "--only-binary", ":all:", str(wheel), numpy],
                   check=True, env=env, cwd=tmp_path)
    done = subprocess.run([python, "-c", USE], env=env, cwd=tmp_path, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok ")
