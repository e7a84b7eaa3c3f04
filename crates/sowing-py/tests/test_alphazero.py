"""sowing.BatchedMCTS: AlphaZero's search in Rust, its leaves valued by a Python function."""

from __future__ import annotations

import numpy as np
import pytest

import sowing
import sowing.tables


def uniform(calls):
    """An evaluator that knows nothing: equal logits, value 0; records its batches."""

    def evaluate(observations, masks):
        calls.append((observations.copy(), masks.copy()))
        assert observations.dtype == np.float32 and masks.dtype == np.int8
        return np.zeros(masks.shape, np.float32), np.zeros(len(masks))

    return evaluate


def test_visits_add_up_and_only_legal_columns_are_visited():
    games = [sowing.Game("hoyito-iii") for _ in range(5)]
    rng = np.random.default_rng(0)
    for game in games:
        for _ in range(int(rng.integers(0, 12))):
            if game.is_over:
                break
            game.play(int(rng.choice(game.legal_actions())))
    games = [g for g in games if not g.is_over]
    calls = []
    mcts = sowing.BatchedMCTS(simulations=40, leaves_per_round=4, seed=1)
    visits, values = mcts.search(games, uniform(calls))
    assert visits.shape == (len(games), 6) and values.shape == (len(games),)
    for game, row in zip(games, visits):
        assert row.sum() == 40
        mask = game.action_mask()[:6]
        assert (row[mask == 0] == 0).all()
        assert -1 <= values[0] <= 1
    network_calls, valued, _ = mcts.last_search
    assert network_calls == len(calls) and valued == sum(len(m) for _, m in calls)
    # Batched: far fewer calls than positions, each batch from several games.
    assert network_calls < valued / 2
    for observations, masks in calls:
        assert (masks.sum(axis=1) > 0).all()  # every leaf has a move: none is over
        assert (observations[:, 2 * 6 + 2] == 1).all()  # from the mover's point of view


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    directory = tmp_path_factory.mktemp("tables")
    sowing.tables.build("hoyito-iii", max_seeds=8, dir=directory)
    return sowing.tables.open_tables("hoyito-iii", dir=directory)


def endgames(tables, count):
    """Positions of random Hoyito III games with at most 8 seeds on the board where one
    move wins and another does not (by the tables), with the winning moves."""
    rng = np.random.default_rng(1)
    found = []
    while len(found) < count:
        game = sowing.Game("hoyito-iii")
        while not game.is_over and sum(game.pits) > 8:
            game.play(int(rng.choice(game.legal_actions())))
        if game.is_over or game.legal_moves() == ["pass"]:
            continue
        south, north = game.captured
        now = south - north if game.to_move == "south" else north - south
        finals = {move: now + value for move, value in tables.probe(game).moves.items()}
        winning = {move for move, final in finals.items() if final > 0}
        if winning and len(winning) < len(finals):
            found.append((game, winning))
    return found


def oracle(tables):
    """An evaluator that knows the exact values: each observation made back into a
    position (from the mover's point of view, as South to move: the rules are the same
    for both sides with the default options) and valued by the tables, as a network that
    had learnt them would: 1, 0 or -1 as the mover wins, draws or loses."""

    def evaluate(observations, masks):
        values = []
        for x in observations.astype(int):
            own, theirs = x[:6], x[6:12]
            last = "S" if x[15] else "N" if x[16] else "-"
            text = (f"hoyito-iii {','.join(map(str, own))}/{','.join(map(str, theirs))} "
                    f"{x[12]}-{x[13]} S {last}")
            values.append(np.sign(x[12] - x[13] + tables.value(text)))
        return np.zeros(masks.shape, np.float32), np.array(values, np.float32)

    return evaluate


def test_the_search_finds_the_winning_moves(tables):
    """Valued exactly one move ahead, the search plays a winning move: the values are
    backed up from the right side's point of view, extra turns (Hoyito captures) too."""
    cases = endgames(tables, 6)
    mcts = sowing.BatchedMCTS(simulations=60, seed=0)
    visits, values = mcts.search([game for game, _ in cases], oracle(tables), noise=False)
    for (game, winning), row, value in zip(cases, visits, values):
        assert game.move_name(int(row.argmax())) in winning, (game.position_text, row)
        assert value > 0


def test_tables_value_the_leaves_exactly(tables):
    game = endgames(tables, 1)[0][0]
    calls = []
    mcts = sowing.BatchedMCTS(simulations=30, tables=tables, seed=0)
    visits, values = mcts.search([game], uniform(calls), noise=False)
    # Only the root goes to the network: every position below it is in the tables.
    assert len(calls) == 1 and len(calls[0][1]) == 1
    assert mcts.last_search[2] == 30
    # The most visited move wins (one does, by the choice of the position).
    south, north = game.captured
    now = south - north if game.to_move == "south" else north - south
    best = game.move_name(int(visits[0].argmax()))
    assert now + tables.probe(game).moves[best] > 0


def test_bad_evaluators_and_arguments():
    game = sowing.Game("ayoayo")
    mcts = sowing.BatchedMCTS(simulations=4)
    with pytest.raises(ValueError, match="logits of shape"):
        mcts.search([game], lambda o, m: (np.zeros((len(m), 3)), np.zeros(len(m))))
    with pytest.raises(ValueError, match=r"\(logits, values\)"):
        mcts.search([game], lambda o, m: None)
    with pytest.raises(ZeroDivisionError):
        mcts.search([game], lambda o, m: 1 / 0)
    with pytest.raises(sowing.SowingError, match="simulations must not be negative"):
        sowing.BatchedMCTS(simulations=-1)
    over = sowing.Game.from_text("ayoayo 0,0,0,0,0,0/0,0,0,0,0,0 24-24 S -")
    with pytest.raises(sowing.SowingError, match="over"):
        mcts.search([over], uniform([]))
    with pytest.raises(sowing.SowingError, match="other rules"):
        mcts.search([game, sowing.Game("hoyito-ii")], uniform([]))


def test_the_alphazero_example_runs(monkeypatch, capsys):
    """examples/alphazero.py, a few seconds of it (its figures: scripts/python-train.sh)."""
    import runpy
    import sys
    from pathlib import Path

    example = Path(__file__).resolve().parents[1] / "examples" / "alphazero.py"
    monkeypatch.setattr(sys, "argv", [
        "alphazero.py", "--minutes", "0.03", "--games", "16", "--simulations", "8",
        "--eval-games", "2", "--eval-simulations", "4", "--tables", "4"])
    runpy.run_path(str(example), run_name="__main__")
    out = capsys.readouterr().out
    assert "self-play games" in out and "against random" in out and "against greedy" in out
