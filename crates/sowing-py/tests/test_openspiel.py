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


def _snapshot(state):
    """Everything a caller can read of a state, through the Python API and through C++
    (the observation tensors, the information-state string via the observer)."""
    terminal = state.is_terminal()
    return (
        str(state), state.current_player(), state.is_terminal(), state.returns(),
        state.history(), state.history_str(), state.move_number(), state.is_initial_state(),
        [(pa.player, pa.action) for pa in state.full_history()],
        None if terminal else state.legal_actions(),
        [state.observation_tensor(p) for p in (0, 1)],
        [state.information_state_string(p) for p in (0, 1)],
        state.game_.position_text, state.game_.moves,
    )


@pytest.mark.parametrize(
    "name, params", [("sowing_hoyito_ii", {}), ("sowing_hoyito_iii", {}), ("sowing_ayoayo", {})]
)
def test_undo_action_takes_back_every_action_to_the_start(name, params):
    import random

    game = pyspiel.load_game(name, params)
    rng = random.Random(27)
    for _ in range(5):
        state = game.new_initial_state()
        seen = [_snapshot(state)]
        played = []
        while not state.is_terminal() and len(played) < 300:
            player, action = state.current_player(), rng.choice(state.legal_actions())
            state.apply_action(action)
            played.append((player, action))
            seen.append(_snapshot(state))
        assert state.history() == [a for _, a in played]
        for index in range(len(played) - 1, -1, -1):
            state.undo_action(*played[index])
            assert _snapshot(state) == seen[index]
        assert state.is_initial_state() and state.move_number() == 0


def test_undo_action_then_other_moves_clone_and_pickle_keep_the_history():
    import pickle

    game = pyspiel.load_game("sowing_hoyito_ii")
    state = game.new_initial_state()
    state.apply_action(2)
    state.apply_action(state.legal_actions()[0])
    first = state.history()
    state.undo_action(1, first[1])
    other = [a for a in state.legal_actions() if a != first[1]][0]
    state.apply_action(other)
    assert state.history() == [2, other]
    assert state.information_state_string(0) == f"2, {other}"
    fresh = game.new_initial_state()
    fresh.apply_action(2)
    fresh.apply_action(other)
    assert _snapshot(state.clone()) == _snapshot(fresh)
    assert _snapshot(pickle.loads(pickle.dumps(state))) == _snapshot(fresh)
    child = state.child(state.legal_actions()[0])
    last = child.full_history()[-1]
    child.undo_action(last.player, last.action)
    assert _snapshot(child) == _snapshot(fresh)


def test_undo_action_refuses_what_was_not_the_last_action():
    game = pyspiel.load_game("sowing_ayoayo")
    state = game.new_initial_state()
    with pytest.raises(pyspiel.SpielError, match="no action to undo"):
        state.undo_action(0, 0)
    state.apply_action(3)
    with pytest.raises(pyspiel.SpielError, match="the last action was 3 of player 0"):
        state.undo_action(0, 4)
    with pytest.raises(pyspiel.SpielError, match="the last action was 3 of player 0"):
        state.undo_action(1, 3)
    assert state.history() == [3]
