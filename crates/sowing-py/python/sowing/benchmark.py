"""``sowing.evaluate``: how far an agent's moves are from perfect play, by the endgame tables,
and its Elo against a fixed ladder of reference players.

>>> import sowing, sowing.tables
>>> _ = sowing.tables.build("hoyito-ii", max_seeds=8, dir=directory)
>>> def first_legal(observations, masks):
...     return masks.argmax(axis=1)
>>> result = sowing.evaluate(first_legal, "hoyito-ii", dir=directory, positions=50, rungs=())
>>> sorted(result.published), result.published_total.positions
([8], 50)

The positions, and what is reported of them, per seed count (seeds left on the board):

- **published**: a fixed set, the same for anyone with the same seed
  (:func:`published_set`): games of uniformly random legal moves from the start, from
  ``random.Random(seed)`` (one generator for all the games, each move
  ``rng.choice(game.legal_moves())``), taking every position whose seed count is a layer
  of the tables and whose mover has two legal moves or more, without repeats (by position
  text), until ``positions`` are taken.
- **own games**: every position of the agent's games against the ladder that the tables
  hold and where it had two moves or more.

For each: the positions, the share of moves that lose value (the move's table value below
the position's) and the mean seeds lost a move (the position's value less the move's).
Values come from the tables only; a value is that of the position without its history (as
the tables define it).

The ladder: ``games`` games against each rung of ``rungs`` (reference players with fixed
Elo anchors, ``ANCHORS``), in pairs as ``sow match --seed SEED`` plays them: pair k starts
from the opening ``sow match`` draws for it (random plies that a fixed search values near
even), the same for every rung, played once with the agent as South and once as North.
Each rung's score gives an Elo with Wilson's interval, and all of them one Elo fitted by
maximum likelihood (``sowing.elo``).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Any, Optional, Union

from . import _ladder, _positions
from ._policy import Policy, PolicyError, ask
from ._sowing import Game, Tables
from .elo import Rating, fit, rung_rating
from .tables import open_tables

__all__ = ["Evaluation", "PolicyError", "RungResult", "SeedStats", "evaluate",
           "published_set", "ANCHORS", "DEFAULT_RUNGS"]

ANCHORS = _ladder.ANCHORS
DEFAULT_RUNGS = _ladder.DEFAULT_RUNGS


@dataclass
class SeedStats:
    """The agent's moves in positions of one seed count (or all of them)."""

    positions: int = 0
    losing: int = 0
    lost: int = 0

    @property
    def losing_share(self) -> float:
        """The share of moves whose value is below the position's."""
        return self.losing / self.positions if self.positions else 0.0

    @property
    def mean_loss(self) -> float:
        """Seeds lost a move, on average: the position's value less the move's."""
        return self.lost / self.positions if self.positions else 0.0

    def add(self, loss: int) -> None:
        self.positions += 1
        self.losing += loss > 0
        self.lost += loss


@dataclass(frozen=True)
class RungResult:
    """The agent's games against one reference player."""

    name: str
    anchor: float
    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """The agent's score fraction (a draw half a point)."""
        return (self.wins + self.draws / 2) / self.games

    @property
    def rating(self) -> Rating:
        """The agent's Elo from this rung alone (Wilson's 95% interval)."""
        return rung_rating(self.anchor, self.wins + self.draws / 2, self.games)


@dataclass(frozen=True)
class Evaluation:
    """What ``evaluate`` found; ``print`` it for a table."""

    game: str
    pits: int
    options: dict[str, str]
    layers: list[int]
    seed: int
    published: dict[int, SeedStats]
    own_games: dict[int, SeedStats]
    ladder: list[RungResult]
    elo: Optional[Rating]
    seconds: float
    policy_calls: int = 0

    @property
    def published_total(self) -> SeedStats:
        return _total(self.published)

    @property
    def own_games_total(self) -> SeedStats:
        return _total(self.own_games)

    def __str__(self) -> str:
        rules = " ".join([self.game, f"2x{self.pits}"] + [f"{k}={v}" for k, v in
                                                          sorted(self.options.items())])
        lines = [f"evaluation of {rules} (tables: layers {self.layers}; seed {self.seed}; "
                 f"{self.seconds:.1f} s, {self.policy_calls} policy calls)"]
        for title, table in (("published set", self.published), ("own games", self.own_games)):
            lines.append(f"{title}: seeds  positions  losing  mean loss")
            for seeds in sorted(table):
                lines.append(_row(str(seeds), table[seeds]))
            lines.append(_row("all", _total(table)))
        if self.ladder:
            lines.append("ladder: rung      anchor  W-D-L     score  Elo (95%)")
            for rung in self.ladder:
                lines.append(f"  {rung.name:<14}{rung.anchor:>6.0f}  "
                             f"{rung.wins}-{rung.draws}-{rung.losses:<6}"
                             f"{rung.score:>6.1%}  {rung.rating}")
            lines.append(f"Elo over the ladder: {self.elo}")
        return "\n".join(lines)


def _row(label: str, stats: SeedStats) -> str:
    return (f"  {label:>12}  {stats.positions:>9}  {stats.losing_share:>6.1%}  "
            f"{stats.mean_loss:>9.3f}")


def _total(table: dict[int, SeedStats]) -> SeedStats:
    total = SeedStats()
    for stats in table.values():
        total.positions += stats.positions
        total.losing += stats.losing
        total.lost += stats.lost
    return total


def _rules(game: str, pits: int, options: dict[str, str]) -> dict[str, Any]:
    """The rules as ``Game``'s keywords, checked by making a game (``RulesError``)."""
    rules: dict[str, Any] = dict(game=game, pits=pits, **options)
    Game(**rules)
    return rules


def _tables(rules: dict[str, Any], dir: Any) -> Tables:
    tables = open_tables(dir=dir, **rules)
    _positions.layers(tables)  # TablesError when there are none
    return tables


def published_set(game: str = "hoyito-ii", pits: int = 6, *,
                  dir: Optional[Union[str, os.PathLike]] = None, positions: int = 1000,
                  seed: int = 0, **options: str) -> list[str]:
    """The published positions (position texts) of ``evaluate``: see the module's
    documentation for how they are drawn. They depend on the seed, the rules and the
    tables' layers only."""
    rules = _rules(game, pits, options)
    return [g.position_text for g in _positions.played(rules, _tables(rules, dir),
                                                        positions, seed)]


def loss(tables: Tables, game: Game, action: int) -> int:
    """Seeds the action loses by the tables: the position's value less the move's."""
    probe = tables.probe(game)
    return probe.value - probe.moves[game.move_name(action)]


def evaluate(
    policy: Policy,
    game: str = "hoyito-ii",
    pits: int = 6,
    *,
    dir: Optional[Union[str, os.PathLike]] = None,
    positions: int = 1000,
    seed: int = 0,
    rungs: tuple[str, ...] = DEFAULT_RUNGS,
    games: int = 20,
    batch_size: int = 1024,
    **options: str,
) -> Evaluation:
    """Evaluates ``policy(observations, masks) -> actions`` (the vector environments'
    protocol, one call a batch) on the published set of ``positions`` positions drawn with
    ``seed``, and by ``games`` games (rounded up to pairs) against each rung of ``rungs``
    (``"random"``, ``"greedy"``, ``"level:1"`` … ``"level:6"``, ``"perfect"``), with the
    endgame tables of the game in ``dir`` (``sowing.tables``' default directory if None).

    Raises ``RulesError`` (unknown game or option), ``TablesError`` (no tables),
    ``PolicyError`` (an answer of the wrong shape or type, or an illegal action) and
    ``ValueError`` (a negative count, an unknown rung)."""
    if not callable(policy):
        raise TypeError(f"policy must be callable as policy(observations, masks), not "
                        f"{type(policy).__name__}")
    for name, value in (("positions", positions), ("games", games), ("seed", seed)):
        if value < 0:
            raise ValueError(f"{name} must not be negative, not {value}")
    if batch_size < 1:
        raise ValueError(f"batch_size must be positive, not {batch_size}")
    rungs = tuple(rungs)
    _ladder.check_rungs(rungs)
    rules = _rules(game, pits, options)
    tables = _tables(rules, dir)
    built = _positions.layers(tables)
    started = time.perf_counter()
    calls = 0

    def counted(observations: Any, masks: Any) -> Any:
        nonlocal calls
        calls += 1
        return policy(observations, masks)

    published: dict[int, SeedStats] = {}
    chosen = _positions.played(rules, tables, positions, seed)
    for first in range(0, len(chosen), batch_size):
        part = chosen[first:first + batch_size]
        for position, action in zip(part, ask(counted, part)):
            published.setdefault(sum(position.pits), SeedStats()).add(
                loss(tables, position, action))

    own: dict[int, SeedStats] = {}

    def watch(position: Game, action: int) -> None:
        if _positions.inside(position, built) and _positions.has_choice(position):
            own.setdefault(sum(position.pits), SeedStats()).add(loss(tables, position, action))

    pairings = []
    starts = _ladder.openings(rules, (games + 1) // 2, seed) if rungs and games else []
    for index, name in enumerate(rungs):
        opponent = _ladder.player(name, tables, seed)
        for start in starts:
            for agent in ("south", "north"):
                pairings.append(_ladder.Pairing(index, start.copy(), agent, opponent))
    _ladder.play(counted, pairings, watch)

    ladder = []
    for index, name in enumerate(rungs if starts else ()):
        results = [_outcome(p) for p in pairings if p.rung == index]
        ladder.append(RungResult(name, ANCHORS[name], sum(r > 0 for r in results),
                                 sum(r == 0 for r in results), sum(r < 0 for r in results)))
    played = [r for r in ladder if r.games]
    elo = fit([(r.anchor, r.wins + r.draws / 2, r.games) for r in played]) if played else None
    return Evaluation(
        game=game, pits=pits, options=dict(options), layers=sorted(built), seed=seed,
        published=dict(sorted(published.items())), own_games=dict(sorted(own.items())),
        ladder=ladder, elo=elo, seconds=time.perf_counter() - started, policy_calls=calls)


def _outcome(pairing: _ladder.Pairing) -> int:
    """1, 0 or -1: the agent won, drew or lost."""
    result = pairing.game.result
    return 0 if result == "draw" else (1 if result == pairing.agent else -1)
