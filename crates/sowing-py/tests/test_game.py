"""sowing.Game: every method, and every refusal as a Python exception."""

from __future__ import annotations

import copy
import json
import pickle
import random

import numpy as np
import pytest

import sowing
from conftest import VARIANTS, random_game


def test_start_position():
    game = sowing.Game()
    assert game.game == "hoyito-ii"
    assert game.pits_per_row == 6
    assert game.pits == [4] * 12
    assert game.captured == (0, 0)
    assert game.to_move == "south"
    assert not game.is_over
    assert game.result is None and game.end is None
    assert game.legal_moves() == ["A", "B", "C", "D", "E", "F"]
    assert game.legal_actions() == [0, 1, 2, 3, 4, 5]
    assert game.action_mask().tolist() == [1, 1, 1, 1, 1, 1, 0]
    assert game.action_mask().dtype == np.int8
    assert game.position_text == "hoyito-ii 4,4,4,4,4,4/4,4,4,4,4,4 0-0 S -"
    assert game.options == {"casa_rows": "any"}
    assert sowing.Game("hoyito-ii", 12).legal_moves() == list("ABCDEFGHIJKL")


def test_options_are_kept():
    assert sowing.Game("ayoayo", leftover="holder").options == {"leftover": "holder"}
    game = sowing.Game("hoyito-iii", casa_rows="opponent", final_four="north")
    assert game.options == {"casa_rows": "opponent", "final_four": "north"}
    assert "final-four=north" in game.position_text


def test_play_by_name_and_by_action_agree():
    by_name, by_action = sowing.Game("ayoayo"), sowing.Game("ayoayo")
    rng = random.Random(5)
    while not by_name.is_over:
        name = rng.choice(by_name.legal_moves())
        action = by_name.action_of(name)
        assert by_name.move_name(action) == name
        a = by_name.play(name)
        b = by_action.play(action)
        assert (a.move, a.laps, a.captured, a.extra_turn, a.end) == (
            b.move, b.laps, b.captured, b.extra_turn, b.end)
        assert by_name.position_text == by_action.position_text
    assert by_name.end is not None and by_name.result in ("south", "north", "draw")


def test_report_of_a_move():
    game = sowing.Game("ayoayo")
    report = game.play("C")
    assert report.move == "C"
    assert report.laps >= 1
    assert report.extra_turn is False
    assert report.end is None
    assert "Report(" in repr(report)
    assert game.to_move == "north"
    assert game.moves == ["C"] and game.ply == 1


def test_pass_is_an_action():
    # South has no seeds: the only move is a pass (C.2), action N.
    game = sowing.Game.from_text("hoyito-ii 0,0,0,0,0,0/0,0,0,4,4,4 16-20 S N")
    assert game.legal_moves() == ["pass"]
    assert game.legal_actions() == [6]
    assert game.action_mask().tolist() == [0, 0, 0, 0, 0, 0, 1]
    assert game.play(6).move == "pass"
    assert game.to_move == "north"


def test_undo_redo_copy():
    game = sowing.Game()
    assert game.undo() is None
    game.play("C")
    after = game.position_text
    snapshot = game.copy()
    assert game.undo() == "C"
    assert game.position_text == sowing.Game().position_text
    assert game.redo() == "C"
    assert game.position_text == after
    assert game == snapshot
    snapshot.play(snapshot.legal_moves()[0])
    assert game != snapshot and game.position_text == after
    assert copy.copy(game) == game and copy.deepcopy(game) == game


def test_state_round_trip_and_json():
    rng = random.Random(3)
    for rules in VARIANTS:
        game = sowing.Game(**rules)
        for _ in range(rng.randrange(0, 30)):
            if game.is_over:
                break
            game.play(rng.choice(game.legal_moves()))
        state = game.state()
        assert state["legal"] == game.legal_moves()
        assert state["over"] == game.is_over
        json.dumps(state)  # plain JSON types
        options = {k: v for k, v in rules.items() if k not in ("game", "pits")}
        back = sowing.Game.from_state(state, **options)
        assert back.position_text == game.position_text
        assert back.state() == state
        assert sowing.Game.from_state(json.dumps(state), **options).state() == state


def test_text_and_record_round_trip():
    rng = random.Random(4)
    for rules in VARIANTS:
        game = random_game(rules, rng, max_moves=40)
        assert sowing.Game.from_text(game.position_text).position_text == game.position_text
        back = sowing.Game.from_record(game.record())
        assert back == game
        assert back.record() == game.record()


def test_record_keeps_tags():
    record = '[Game "ayoayo"]\n[South "Ana"]\n\n1. C *\n'
    game = sowing.Game.from_record(record)
    assert game.moves == ["C"]
    assert '[South "Ana"]' in game.record()


def test_pickle():
    game = random_game(dict(game="hoyito-iii"), random.Random(8), max_moves=25)
    assert pickle.loads(pickle.dumps(game)) == game


def test_observation():
    game = sowing.Game.from_text("ayoayo 0,1,0,2,1,0/1,0,1,0,3,2 18-18 N S leftover=holder")
    south = game.observation("south")
    north = game.observation()
    assert south.dtype == np.float32 and south.shape == (20,)
    assert south[:12].tolist() == [0, 1, 0, 2, 1, 0, 1, 0, 1, 0, 3, 2]
    assert north[:12].tolist() == [1, 0, 1, 0, 3, 2, 0, 1, 0, 2, 1, 0]
    assert south[12:14].tolist() == [18, 18]
    # to move, last sower (self, opponent), last four (capturer, self, opponent)
    assert south[14:].tolist() == [0, 1, 0, 1, 0, 0]
    assert north[14:].tolist() == [1, 0, 1, 1, 0, 0]
    hoyito = sowing.Game("hoyito-iii", final_four="north")
    assert hoyito.observation("south")[-3:].tolist() == [0, 0, 1]
    assert hoyito.observation("north")[-3:].tolist() == [0, 1, 0]


def test_a_finished_game_refuses_every_move():
    game = random_game(dict(game="hoyito-ii"), random.Random(1))
    assert game.is_over
    assert game.legal_moves() == [] and game.legal_actions() == []
    for move in ["A", "a", "pass", 0]:
        with pytest.raises(sowing.IllegalMoveError, match="the game is over"):
            game.play(move)


@pytest.mark.parametrize(
    "move, message",
    [
        ("a", "that pit is the opponent's"),
        ("G", "is not a move"),
        ("", "is not a move"),
        ("pass", "a sowing move is available"),
        (7, "is not an action"),
        (-1, "is not an action"),
    ],
)
def test_illegal_moves_raise_with_the_rules_message(move, message):
    game = sowing.Game()
    with pytest.raises(sowing.IllegalMoveError, match=message):
        game.play(move)
    assert game.position_text == sowing.Game().position_text and game.moves == []


def test_empty_pit_is_refused():
    game = sowing.Game.from_text("hoyito-ii 0,4,4,4,4,4/4,4,4,4,4,4 4-0 S -")
    with pytest.raises(sowing.IllegalMoveError, match="that pit is empty"):
        game.play("A")
    with pytest.raises(sowing.IllegalMoveError, match="that pit is empty"):
        game.play(0)


def test_wrong_types_raise_type_errors():
    game = sowing.Game()
    with pytest.raises(TypeError):
        game.play(2.5)
    with pytest.raises(TypeError):
        game.play(None)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(game="chess"), "unknown game"),
        (dict(game="ayoayo", pits=12), "not played with 12 pits"),
        (dict(game="hoyito-iii", pits=7), "not played with 7 pits"),
        (dict(game="ayoayo", casa_rows="any"), "casa-rows is not an option of ayoayo"),
        (dict(game="hoyito-ii", leftover="holder"), "leftover is not an option of hoyito-ii"),
        (dict(game="hoyito-ii", final_four="north"), "final-four is not an option of hoyito-ii"),
        (dict(game="hoyito-iii", final_four="east"), "unknown final-four"),
        (dict(game="ayoayo", leftover="nobody"), "unknown leftover"),
    ],
)
def test_wrong_game_or_option(kwargs, message):
    with pytest.raises(sowing.RulesError, match=message):
        sowing.Game(**kwargs)


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "position text"),
        ("hoyito-ii 4,4 0-0 S -", "two rows"),
        ("hoyito-ii 4,4,4,4,4,4/4,4,4,4,4,x 0-0 S -", "not a seed count"),
        ("chess 4,4,4,4,4,4/4,4,4,4,4,4 0-0 S -", "position text"),
        ("hoyito-ii 4,4,4,4,4,4/4,4,4,4,4,4 0-0 Q -", "position text"),
        ("hoyito-ii 255,255,4,4,4,4/4,4,4,4,4,4 0-0 S -", "position text"),
        ("\x00\xff", "position text"),
    ],
)
def test_malformed_text(text, message):
    with pytest.raises(sowing.ParseError, match=message):
        sowing.Game.from_text(text)


@pytest.mark.parametrize(
    "record",
    [
        "[Game \"ayoayo\"]\n\n1. Q *\n",
        "[Game \"ayoayo\"]\n\n1. a *\n",
        "[Game \"chess\"]\n\n*\n",
        "[Game \"ayoayo\"\n",
        "[Game \"ayoayo\"]\n\n1. C 1-0\n",
        "",
    ],
)
def test_malformed_record(record):
    with pytest.raises(sowing.ParseError, match="record"):
        sowing.Game.from_record(record)


@pytest.mark.parametrize(
    "state",
    [
        "{",
        "[]",
        {"game": "hoyito-ii"},
        {"game": "chess", "pits_per_row": 6, "pits": [4] * 12, "captured": [0, 0],
         "to_move": "south", "over": False, "winner": None, "last_sower": None},
        {"game": "hoyito-ii", "pits_per_row": 6, "pits": [4] * 11, "captured": [0, 0],
         "to_move": "south", "over": False, "winner": None, "last_sower": None},
        {"game": "hoyito-ii", "pits_per_row": 6, "pits": [4] * 12, "captured": [0],
         "to_move": "south", "over": False, "winner": None, "last_sower": None},
        {"game": "hoyito-ii", "pits_per_row": 6, "pits": [4] * 12, "captured": [0, 0],
         "to_move": "east", "over": False, "winner": None, "last_sower": None},
        {"game": "hoyito-ii", "pits_per_row": 6, "pits": [300] + [4] * 11, "captured": [0, 0],
         "to_move": "south", "over": False, "winner": None, "last_sower": None},
    ],
)
def test_malformed_state(state):
    with pytest.raises(sowing.ParseError, match="JSON state"):
        sowing.Game.from_state(state)


def test_state_with_an_option_of_another_game():
    state = sowing.Game("ayoayo").state()
    with pytest.raises(sowing.RulesError, match="casa-rows is not an option of ayoayo"):
        sowing.Game.from_state(state, casa_rows="opponent")


def test_unserialisable_state_is_a_type_error():
    with pytest.raises(TypeError):
        sowing.Game.from_state({"game": object()})


def test_bad_side():
    with pytest.raises(sowing.SowingError):
        sowing.Game().observation("east")


def test_exceptions_are_value_errors():
    for error in (sowing.IllegalMoveError, sowing.ParseError, sowing.RulesError):
        assert issubclass(error, sowing.SowingError)
    assert issubclass(sowing.SowingError, ValueError)
