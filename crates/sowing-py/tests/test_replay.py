"""Agreement with `sow replay`: 1,000 random games of every game and option, the JSON state
after each game compared with Game.state(); and games continued from a saved state."""

from __future__ import annotations

import json
import random
import subprocess
from typing import Optional

import pytest

import sowing
from conftest import VARIANTS, random_game

GAMES = 1000


def replay_args(sow: str, rules: dict) -> list[str]:
    args = [sow, "replay", "--game", rules["game"]]
    for key, flag in (("pits", "--pits"), ("casa_rows", "--casa-rows"),
                      ("leftover", "--leftover"), ("final_four", "--final-four")):
        if key in rules:
            args += [flag, str(rules[key])]
    return args


def sow_replay(sow: str, rules: dict, moves: list[str], start: Optional[dict] = None) -> dict:
    args = replay_args(sow, rules)
    stdin = None
    if start is not None:
        args += ["--from", "-"]
        stdin = json.dumps(start)
    args += ["--"] + moves
    done = subprocess.run(args, input=stdin, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_random_games_agree_with_sow_replay(sow):
    rng = random.Random(2026)
    ends = set()
    for index in range(GAMES):
        rules = VARIANTS[index % len(VARIANTS)]
        game = random_game(rules, rng)
        assert game.is_over
        ends.add(game.end)
        assert sow_replay(sow, rules, game.moves) == game.state(), (rules, game.moves)
    # The random games end in every way a game can end.
    assert ends == {"board-cleared", "last-four", "repetition", "cannot-feed"}


def test_games_continued_from_a_state_agree(sow):
    rng = random.Random(7)
    for index in range(100):
        rules = VARIANTS[index % len(VARIANTS)]
        whole = random_game(rules, rng)
        cut = rng.randrange(len(whole.moves))
        head = sowing.Game(**rules)
        for move in whole.moves[:cut]:
            head.play(move)
        state = head.state()
        options = {k: v for k, v in rules.items() if k not in ("game", "pits")}
        tail = sowing.Game.from_state(state, **options)
        for move in whole.moves[cut:]:
            if tail.is_over:  # a repetition of a position before the cut: not seen from a state
                break
            tail.play(move)
        played = whole.moves[cut:cut + len(tail.moves)]
        assert sow_replay(sow, rules, played, start=state) == tail.state()


@pytest.mark.parametrize("moves", [["Q"], ["A", "A"], ["pass"]])
def test_sow_and_python_refuse_the_same_moves(sow, moves):
    rules = dict(game="hoyito-ii")
    done = subprocess.run(replay_args(sow, rules) + ["--"] + moves, capture_output=True,
                          text=True, check=False)
    assert done.returncode == 2 and done.stdout == ""
    game = sowing.Game(**rules)
    with pytest.raises(sowing.IllegalMoveError):
        for move in moves:
            game.play(move)
