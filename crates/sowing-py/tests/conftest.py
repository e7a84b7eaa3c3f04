"""Shared fixtures: the `sow` binary (for agreement with `sow replay`) and random play."""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

import pytest

import sowing

ROOT = Path(__file__).resolve().parents[3]

# Every game and option the rules know, with the keywords of sowing.Game.
VARIANTS = [
    dict(game="hoyito-ii"),
    dict(game="hoyito-ii", pits=12),
    dict(game="hoyito-ii", casa_rows="opponent"),
    dict(game="hoyito-iii"),
    dict(game="hoyito-iii", casa_rows="opponent"),
    dict(game="hoyito-iii", final_four="south"),
    dict(game="hoyito-iii", final_four="north"),
    dict(game="ayoayo"),
    dict(game="ayoayo", leftover="holder"),
]


@pytest.fixture(scope="session")
def sow() -> str:
    """The `sow` command: $SOW, else the debug build of the workspace, else on the PATH."""
    candidates = [os.environ.get("SOW"), str(ROOT / "target" / "debug" / "sow"), shutil.which("sow")]
    for candidate in candidates:
        if candidate and Path(candidate).is_file():
            return candidate
    pytest.fail("no sow binary: run `cargo build -p sowing-cli` or set SOW")


def random_game(rules: dict, rng: random.Random, max_moves: int = 100_000) -> sowing.Game:
    """A game of uniformly random legal moves, to the end."""
    game = sowing.Game(**rules)
    while not game.is_over and game.ply < max_moves:
        game.play(rng.choice(game.legal_moves()))
    return game
