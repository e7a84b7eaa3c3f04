"""sowing.Engine: the engine crate's players from Python."""

from __future__ import annotations

import random
import threading

import pytest

import sowing
from conftest import random_game


def test_level_is_reproducible_and_legal():
    game = sowing.Game("hoyito-iii")
    game.play("C")
    first = sowing.Engine(level=3, seed=4).analyse(game)
    again = sowing.Engine(level=3, seed=4).analyse(game)
    assert first.best in game.legal_moves()
    assert (first.best, first.score, first.pv, first.nodes) == (
        again.best, again.score, again.pv, again.nodes)
    assert first.pv[0] == first.best
    assert first.depth >= 1 and first.nodes > 0
    assert isinstance(first.score, float) and first.score_text is not None
    assert "Analysis(" in repr(first)


def test_nodes_and_depth_limits():
    game = sowing.Game("ayoayo")
    by_nodes = sowing.Engine(nodes=5000).analyse(game)
    assert by_nodes.nodes <= 5000 + 1000  # stops within an iteration's check
    by_depth = sowing.Engine(depth=3).analyse(game)
    assert by_depth.depth == 3


def test_movetime_and_the_default_play_a_legal_move():
    game = sowing.Game()
    assert sowing.Engine(movetime=20).best_move(game) in game.legal_moves()
    engine = sowing.Engine()
    assert engine.name == "level:6"


def test_a_proven_end():
    # Two plies from the end of a random game: the search proves North wins by 24.
    game = sowing.Game.from_text("hoyito-ii 0,1,1,0,0,1/0,1,0,0,1,3 12-28 S N")
    analysis = sowing.Engine(depth=12).analyse(game)
    assert analysis.proven
    assert analysis.score == -24.0 and analysis.score_text == "loss by 24"
    assert analysis.pv[0] == analysis.best


@pytest.mark.parametrize("name", ["random", "greedy", "mcts:playouts=200", "search:depth=2"])
def test_players_by_name(name):
    game = random_game(dict(game="hoyito-ii"), random.Random(2), max_moves=10)
    engine = sowing.Engine(player=name, seed=1)
    assert engine.name == name
    analysis = engine.analyse(game)
    assert analysis.best in game.legal_moves()
    assert analysis.pv[0] == analysis.best
    engine.new_game()


def test_a_game_between_engines_ends():
    game = sowing.Game("ayoayo")
    players = {"south": sowing.Engine(level=2, seed=1), "north": sowing.Engine(level=1, seed=2)}
    while not game.is_over:
        game.play(players[game.to_move].best_move(game))
    assert game.result in ("south", "north", "draw")


def test_searches_run_in_threads():
    # The GIL is released during a search: threads searching at once all finish.
    game = sowing.Game()
    results = []
    engines = [sowing.Engine(nodes=3000, seed=s) for s in range(4)]
    threads = [threading.Thread(target=lambda e=e: results.append(e.best_move(game)))
               for e in engines]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 4 and set(results) <= set(game.legal_moves())


@pytest.mark.parametrize(
    "kwargs",
    [dict(level=0), dict(level=7), dict(player="chess"), dict(player="search:depth=x"),
     dict(level=3, player="random")],
)
def test_bad_engine_specs(kwargs):
    with pytest.raises(sowing.SowingError):
        sowing.Engine(**kwargs)


def test_no_move_in_a_finished_game():
    game = random_game(dict(game="ayoayo"), random.Random(3))
    with pytest.raises(sowing.IllegalMoveError, match="over"):
        sowing.Engine(level=1).analyse(game)
