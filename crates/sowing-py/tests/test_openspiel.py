"""The OpenSpiel games: OpenSpiel's random_sim_test, the state API, and MCTS against the engine."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import pyspiel
import pytest

import sowing
import sowing.openspiel  # noqa: F401  (registers the games)

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@pytest.mark.parametrize(
    "name, params",
    [("sowing_hoyito_ii", {}), ("sowing_hoyito_ii", {"pits": 12}),
     ("sowing_hoyito_ii", {"casa_rows": "opponent"}), ("sowing_hoyito_iii", {}),
     ("sowing_hoyito_iii", {"final_four": "north"}), ("sowing_ayoayo", {}),
     ("sowing_ayoayo", {"leftover": "holder"})],
)
def test_random_sim_test(name, params):
    game = pyspiel.load_game(name, params)
    # Random games on 2x12 run to thousands of plies, each checked in full: one is enough.
    sims = 1 if params.get("pits") == 12 else 10
    pyspiel.random_sim_test(game, num_sims=sims, serialize=False, verbose=False)


def test_registered_names():
    names = pyspiel.registered_names()
    for name in ("sowing_hoyito_ii", "sowing_hoyito_iii", "sowing_ayoayo"):
        assert name in names


def test_state_follows_the_rules():
    game = pyspiel.load_game("sowing_ayoayo")
    assert game.num_distinct_actions() == 7
    assert game.observation_tensor_shape() == [20]
    state = game.new_initial_state()
    assert state.current_player() == 0
    assert state.legal_actions() == [0, 1, 2, 3, 4, 5]
    state.apply_action(2)
    reference = sowing.Game("ayoayo")
    reference.play("C")
    assert str(state) == reference.position_text
    assert state.action_to_string(1, 0) == "a"
    assert state.observation_tensor(1) == reference.observation("north").tolist()
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert str(state) == reference.position_text  # the clone is independent
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[-1])
    south, north = state.game_.captured
    assert state.returns() == [south - north, north - south]


def test_pass_is_action_n():
    game = pyspiel.load_game("sowing_hoyito_ii")
    state = game.new_initial_state()
    state.game_ = sowing.Game.from_text("hoyito-ii 0,0,0,0,0,0/0,0,0,4,4,4 16-20 S N")
    assert state.legal_actions() == [6]
    assert state.action_to_string(0, 6) == "pass"


def test_mcts_against_the_engine_example(monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["openspiel_mcts.py", "--games", "1", "--simulations", "20"])
    runpy.run_path(str(EXAMPLES / "openspiel_mcts.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert "MCTS" in out and "score" in out
