"""sowing.evaluate, sowing.elo and sowing.dataset: the tables' answers, checked against
values probed independently, reproducible sets, Elo maths on known cases, clear errors."""

from __future__ import annotations

import math

import numpy as np
import pytest

import sowing
import sowing.dataset
import sowing.tables
from sowing.benchmark import PolicyError, published_set
from sowing.elo import Z95, elo_difference, fit, rung_rating, wilson

GAMES = {"hoyito-ii": 8, "ayoayo": 5}


@pytest.fixture(scope="session")
def tables_dir(tmp_path_factory):
    """Small tables of every game here (a second or two)."""
    directory = tmp_path_factory.mktemp("tables")
    for game, max_seeds in GAMES.items():
        sowing.tables.build(game, max_seeds=max_seeds, dir=directory)
    return directory


def position_of(observation: np.ndarray, game: str) -> sowing.Game:
    """The position an observation shows, with South to move: the tables fold the side to
    move away, so its values, column by column, are the observed position's."""
    n = (len(observation) - 8) // 2
    x = observation.astype(int).tolist()
    sower = "south" if x[2 * n + 3] else "north" if x[2 * n + 4] else None
    state = {"game": game, "pits_per_row": n, "pits": x[:2 * n],
             "captured": [x[2 * n], x[2 * n + 1]], "to_move": "south", "over": False,
             "winner": None, "last_sower": sower}
    return sowing.Game.from_state(state)


class TablesPolicy:
    """Plays the worst (or the best) move by the tables inside them, the first legal column
    elsewhere, and keeps what it expects `evaluate` to report of each call: the loss of
    every move in a position inside the tables with a choice, by seed count."""

    def __init__(self, game: str, directory, worst: bool):
        self.game, self.worst = game, worst
        self.tables = sowing.tables.open_tables(game, dir=directory)
        self.calls: list[dict[int, list[int]]] = []

    def __call__(self, observations, masks):
        assert observations.dtype == np.float32 and masks.dtype == np.int8
        assert observations.shape == (len(masks), 2 * masks.shape[1] + 8)
        expected: dict[int, list[int]] = {}
        actions = []
        for observation, mask in zip(observations, masks):
            legal = np.flatnonzero(mask).tolist()
            seeds = int(observation[:2 * len(mask)].sum())
            if seeds not in self.tables.layers:
                actions.append(legal[0])
                continue
            probe = self.tables.probe(position_of(observation, self.game))
            values = {"ABCDEF".index(name): value for name, value in probe.moves.items()}
            assert sorted(values) == legal
            pick = (min if self.worst else max)(legal, key=lambda c: values[c])
            actions.append(pick)
            if len(legal) >= 2:
                expected.setdefault(seeds, []).append(probe.value - values[pick])
        self.calls.append(expected)
        return np.array(actions, dtype=np.int64)


def merged(calls: list[dict[int, list[int]]]) -> dict[int, list[int]]:
    found: dict[int, list[int]] = {}
    for call in calls:
        for seeds, losses in call.items():
            found.setdefault(seeds, []).extend(losses)
    return found


def assert_reports(report: dict, expected: dict[int, list[int]]) -> None:
    assert sorted(report) == sorted(expected)
    for seeds, losses in expected.items():
        stats = report[seeds]
        assert stats.positions == len(losses)
        assert stats.lost == sum(losses)
        assert stats.mean_loss == pytest.approx(sum(losses) / len(losses))
        assert stats.losing_share == pytest.approx(sum(x > 0 for x in losses) / len(losses))


@pytest.mark.parametrize("game", GAMES)
def test_the_worst_moves_lose_what_the_tables_say(game, tables_dir):
    policy = TablesPolicy(game, tables_dir, worst=True)
    result = sowing.evaluate(policy, game, dir=tables_dir, positions=300, seed=1,
                             rungs=("random", "level:1"), games=4, batch_size=300)
    # The first call is the published set, in one batch; the others the ladder's games.
    assert_reports(result.published, policy.calls[0])
    assert_reports(result.own_games, merged(policy.calls[1:]))
    assert result.published_total.positions == 300
    assert result.own_games_total.positions > 0
    # Independently of the policy: each published position's gap between its value and
    # its worst move's, probed by position text.
    tables = sowing.tables.open_tables(game, dir=tables_dir)
    gaps: dict[int, list[int]] = {}
    for text in published_set(game, dir=tables_dir, positions=300, seed=1):
        probe = tables.probe(text)
        gaps.setdefault(sum(sowing.Game.from_text(text).pits), []).append(
            probe.value - min(probe.moves.values()))
    assert_reports(result.published, gaps)
    assert result.published_total.mean_loss > 0 and result.published_total.losing_share > 0


@pytest.mark.parametrize("game", GAMES)
def test_the_best_moves_lose_nothing(game, tables_dir):
    policy = TablesPolicy(game, tables_dir, worst=False)
    result = sowing.evaluate(policy, game, dir=tables_dir, positions=200, seed=2,
                             rungs=("greedy",), games=4)
    for stats in [*result.published.values(), *result.own_games.values()]:
        assert stats.positions > 0 and stats.lost == 0 and stats.losing_share == 0
    assert result.published_total.positions == 200


def test_the_published_set_follows_from_its_seed(tables_dir):
    first = published_set("hoyito-ii", dir=tables_dir, positions=100, seed=7)
    assert first == published_set("hoyito-ii", dir=tables_dir, positions=100, seed=7)
    assert len(set(first)) == 100
    assert first != published_set("hoyito-ii", dir=tables_dir, positions=100, seed=8)
    # As published: a change of how the set is drawn shows here.
    assert first[:3] == ["hoyito-ii 1,1,0,0,0,2/0,1,1,0,1,1 8-32 S S",
                         "hoyito-ii 1,1,0,0,0,0/1,0,2,1,1,1 8-32 N S",
                         "hoyito-ii 2,0,1,1,0,0/1,0,2,1,0,0 8-32 S N"]
    # A shorter set is the start of a longer one.
    assert published_set("hoyito-ii", dir=tables_dir, positions=10, seed=7) == first[:10]
    for text in first:
        game = sowing.Game.from_text(text)
        assert sum(game.pits) in (4, 8) and len(game.legal_actions()) >= 2
    # What `evaluate` plays is that set, in that order.
    seen: list[str] = []

    def recorder(observations, masks):
        for observation in observations:
            seen.append(position_of(observation, "hoyito-ii").pits)
        return masks.argmax(axis=1)

    sowing.evaluate(recorder, dir=tables_dir, positions=100, seed=7, rungs=())
    turned = []
    for text in first:
        game = sowing.Game.from_text(text)
        pits = game.pits
        turned.append(pits if game.to_move == "south" else pits[6:] + pits[:6])
    assert seen == turned


def test_the_ladder_plays_pairs_against_each_rung(tables_dir):
    result = sowing.evaluate(lambda o, m: m.argmax(axis=1), dir=tables_dir, positions=0,
                             rungs=("random", "perfect"), games=3)
    assert [r.name for r in result.ladder] == ["random", "perfect"]
    for rung in result.ladder:
        assert rung.games == 4  # rounded up to pairs
        assert rung.anchor == sowing.benchmark.ANCHORS[rung.name]
        assert rung.score == (rung.wins + rung.draws / 2) / 4
    assert result.elo == fit([(r.anchor, r.wins + r.draws / 2, r.games) for r in result.ladder])
    assert result.published == {} and result.published_total.positions == 0
    text = str(result)
    assert "published set" in text and "Elo over the ladder" in text and "perfect" in text


def test_elo_on_known_cases():
    low, high = wilson(50, 100)
    assert (low, high) == (pytest.approx(0.40383, abs=1e-5), pytest.approx(0.59617, abs=1e-5))
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    assert elo_difference(0.75) == pytest.approx(400 * math.log10(3))  # 190.85
    assert elo_difference(1.0) == math.inf and elo_difference(0.0) == -math.inf
    one = rung_rating(1000, 75, 100)
    assert one.elo == pytest.approx(1000 + 400 * math.log10(3))
    assert one.low == pytest.approx(1000 + elo_difference(wilson(75, 100)[0]))
    # The fit: one rung gives the rung's own estimate; symmetric rungs their middle.
    assert fit([(1000, 75, 100)]).elo == pytest.approx(one.elo, abs=1e-6)
    assert fit([(-100, 50, 100), (100, 50, 100)]).elo == pytest.approx(0, abs=1e-6)
    # Many games: the likelihood-ratio interval is the normal one, ±z/√(n p(1-p)) in
    # logits, times 400/ln 10.
    many = fit([(0, 5000, 10000)])
    half = Z95 / math.sqrt(10000 * 0.25) * 400 / math.log(10)
    assert many.low == pytest.approx(-half, rel=1e-3) and many.high == pytest.approx(half, rel=1e-3)
    # Every game won: no upper end; the lower one where n·ln E(R) = -z²/2.
    won = fit([(500, 20, 20)])
    e = math.exp(-Z95 ** 2 / 40)
    assert won.elo == math.inf and won.high == math.inf
    assert won.low == pytest.approx(500 + 400 * math.log10(e / (1 - e)), abs=1e-6)
    lost = fit([(500, 0, 20)])
    assert lost.elo == lost.low == -math.inf
    assert lost.high == pytest.approx(1000 - won.low, abs=1e-6)  # the mirror image
    assert str(won) == f"+inf ({round(won.low):+d} to +inf)"
    with pytest.raises(ValueError, match="no games"):
        fit([])
    with pytest.raises(ValueError, match="points"):
        wilson(11, 10)


def test_bad_arguments_are_refused_clearly(tables_dir, tmp_path):
    first = lambda o, m: m.argmax(axis=1)  # noqa: E731
    with pytest.raises(sowing.RulesError, match="chess"):
        sowing.evaluate(first, "chess", dir=tables_dir)
    with pytest.raises(sowing.TablesError, match="no endgame tables"):
        sowing.evaluate(first, "hoyito-iii", dir=tmp_path / "none")
    with pytest.raises(PolicyError, match=r"must return 5 actions.*shape \(5, 6\)"):
        sowing.evaluate(lambda o, m: m, dir=tables_dir, positions=5, rungs=())
    assert issubclass(PolicyError, sowing.IllegalMoveError)
    with pytest.raises(PolicyError, match="must return 5 actions"):
        sowing.evaluate(lambda o, m: [0], dir=tables_dir, positions=5, rungs=())
    with pytest.raises(PolicyError, match="integers"):
        sowing.evaluate(lambda o, m: m.argmax(axis=1) + 0.5, dir=tables_dir, positions=5,
                        rungs=())
    with pytest.raises(PolicyError, match=r"action -1 in row 0, which is not legal in 'hoyito-ii"):
        sowing.evaluate(lambda o, m: np.full(len(m), -1), dir=tables_dir, positions=5,
                        rungs=())
    with pytest.raises(PolicyError, match="not legal"):  # an illegal move in a game
        sowing.evaluate(lambda o, m: (1 - m).argmax(axis=1), dir=tables_dir, positions=0,
                        rungs=("random",), games=2)
    with pytest.raises(TypeError, match="callable"):
        sowing.evaluate("first", dir=tables_dir)
    with pytest.raises(ValueError, match="unknown rung 'level:9'"):
        sowing.evaluate(first, dir=tables_dir, rungs=("level:9",))
    with pytest.raises(ValueError, match="positions must not be negative"):
        sowing.evaluate(first, dir=tables_dir, positions=-1)
    with pytest.raises(ValueError, match="seed must not be negative, not -3"):
        sowing.evaluate(first, dir=tables_dir, seed=-3)
    # No games: no ladder, and nothing to rate.
    quiet = sowing.evaluate(first, dir=tables_dir, positions=5, games=0)
    assert quiet.ladder == [] and quiet.elo is None and "ladder" not in str(quiet)
    # Layers that play from the start never reaches.
    sowing.tables.build("hoyito-ii", max_seeds=0, dir=tmp_path / "odd", extra=[5])
    with pytest.raises(sowing.TablesError, match="reached no new position"):
        published_set("hoyito-ii", dir=tmp_path / "odd", positions=1)


def test_a_dataset_round_trips_through_parquet(tables_dir, tmp_path):
    path = tmp_path / "ayoayo.parquet"
    written = sowing.dataset.write_dataset(path, "ayoayo", dir=tables_dir, tables=150,
                                           self_play=100, seed=3)
    table = sowing.dataset.read_dataset(path)
    assert table.schema == sowing.dataset.schema(6) and table.equals(written)
    rows = table.to_pylist()
    assert [r["source"] for r in rows] == ["tables"] * 150 + ["self-play"] * 100
    assert len({r["position"] for r in rows if r["source"] == "tables"}) == 150
    tables = sowing.tables.open_tables("ayoayo", dir=tables_dir)
    for row in rows:
        game = sowing.Game.from_text(row["position"])
        probe = tables.probe(row["position"])
        assert (row["game"], row["pits"], row["options"]) == ("ayoayo", 6, '{"leftover": "last-mover"}')
        assert row["value"] == probe.value and row["seeds"] == sum(game.pits) <= 5
        assert row["observation"] == pytest.approx(game.observation().tolist())
        assert row["mask"] == game.action_mask()[:6].tolist() and sum(row["mask"]) >= 2
        assert row["move_values"] == [probe.moves.get(game.move_name(c)) if row["mask"][c]
                                      else None for c in range(6)]
        assert row["best"] == sorted(game.action_of(m) for m in probe.best)
    observations, masks, best = sowing.dataset.arrays(table)
    assert observations.shape == (250, 20) and masks.shape == best.shape == (250, 6)
    assert (best <= masks).all() and (best.sum(axis=1) >= 1).all()
    # The same seed, the same rows.
    again = sowing.dataset.write_dataset(tmp_path / "again.parquet", "ayoayo", dir=tables_dir,
                                         tables=150, self_play=100, seed=3)
    assert again.equals(table)


def test_the_dataset_command(tables_dir, tmp_path, capsys):
    out = tmp_path / "h.parquet"
    assert sowing.dataset.main([str(out), "--dir", str(tables_dir), "--tables", "20",
                                "--self-play", "10", "--casa-rows", "any"]) == 0
    assert "20 tables, 10 self-play" in capsys.readouterr().out
    assert sowing.dataset.read_dataset(out).num_rows == 30
    assert sowing.dataset.main([str(out), "--game", "chess", "--dir", str(tables_dir)]) == 2
    assert "chess" in capsys.readouterr().err
    assert sowing.dataset.main([str(out), "--game", "hoyito-iii",
                                "--dir", str(tmp_path / "none")]) == 2
    assert "no endgame tables" in capsys.readouterr().err
