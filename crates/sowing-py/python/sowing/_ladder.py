"""The reference players of ``sowing.evaluate``'s ladder, their fixed Elo anchors, and the
games a policy plays against them (all at once, the policy asked once a round).

The anchors put the rungs on one fixed scale, random at 0. They were measured on Hoyito II
2×6 with ``sow match`` (pairs of games from near-even 6-ply openings, docs/engine.md):

- greedy +430 over random (``sow match --p1 greedy --p2 random --games 200 --nodes
  10000000``: 92.2%, +362 to +534), level 1 +89 over greedy (62.5%, 200 games, +46 to +135);
- levels 2 to 6 each over the level below: +494, +372, +200, +402, +196 (docs/engine.md,
  "Strength": 100 games each; level 6 at 100 ms a move, as it plays here);
- ``perfect`` (the tables' best move inside them, level 5 outside) +69 over level 5
  (with Hoyito II tables to 12 seeds: 67 won, 105 drawn, 28 lost of 200 games from the
  openings of ``sow match --seed 1``, +20 to +118; by this module's own players).

They are the same numbers for every game and option: an Elo compares agents of one game
(the levels' gaps differ somewhat between games, and were measured once, with intervals of
about ±60 to ±150).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

from ._policy import Policy, ask
from ._sowing import Engine, Game, Tables, match_openings

ANCHORS: dict[str, float] = {
    "random": 0.0,
    "greedy": 430.0,
    "level:1": 519.0,
    "level:2": 1013.0,
    "level:3": 1385.0,
    "level:4": 1585.0,
    "level:5": 1987.0,
    "level:6": 2183.0,
    "perfect": 2056.0,
}

# Affordable by default: levels 1–4 take well under a millisecond a move, level 5 about
# 10 ms; level 6 (100 ms a move) is left to be asked for.
DEFAULT_RUNGS = ("random", "greedy", "level:1", "level:2", "level:3", "level:4", "level:5",
                 "perfect")

# The level ``perfect`` plays outside the tables.
PERFECT_FALLBACK = 5

Player = Callable[[Game], str]


def check_rungs(rungs: tuple[str, ...]) -> None:
    """Refuses a rung that is not on the ladder."""
    for name in rungs:
        if name not in ANCHORS:
            raise ValueError(f"unknown rung {name!r}: the ladder is {', '.join(ANCHORS)}")


def player(name: str, tables: Tables, seed: int) -> Player:
    """A reference player: its move in a game, by name."""
    if name == "perfect":
        return perfect(tables, Engine(level=PERFECT_FALLBACK, seed=seed))
    if name == "level:6":
        engine = Engine(level=6, movetime=100, seed=seed)  # as its anchor was measured
    elif name.startswith("level:"):
        engine = Engine(level=int(name[6:]), seed=seed)
    else:
        engine = Engine(player=name, seed=seed)
    return engine.best_move


def perfect(tables: Tables, fallback: Engine) -> Player:
    """The tables' best move inside them (a capturing one first, then one that does not
    end the game by repetition: equal by value, these do not let a won position drift),
    else the fallback engine's."""
    built = set(tables.layers)

    def move(game: Game) -> str:
        if sum(game.pits) not in built:
            return fallback.best_move(game)
        best = tables.probe(game).best

        def rank(name: str) -> tuple[int, int]:
            after = game.copy()
            report = after.play(name)
            return (report.captured == 0, after.end == "repetition")

        return min(best, key=rank)

    return move


@dataclass
class Pairing:
    """One game of the policy against a rung."""

    rung: int
    game: Game
    agent: str
    opponent: Player


def openings(rules: dict, pairs: int, seed: int) -> list[Game]:
    """The openings of ``pairs`` pairs of games, as ``sow match --seed SEED`` draws them
    (random plies, 6 on 2×6 boards, kept when a fixed search values them near even, a
    different one each pair): the protocol the anchors were measured with."""
    options = {k: v for k, v in rules.items() if k not in ("game", "pits")}
    drawn = match_openings((rules["game"], rules["pits"], options), None, None, seed, pairs)
    games = []
    for line in drawn["moves"][:pairs]:
        game = Game(**rules)
        for move in line:
            game.play(move)
        games.append(game)
    return games


def play(policy: Policy, pairings: list[Pairing],
         watch: Optional[Callable[[Game, int], None]] = None) -> None:
    """Plays every game to its end: the opponents' moves and the agent's forced passes
    one game at a time, the agent's choices in one batch a round. ``watch(game, action)``
    sees each of the agent's moves before it is played."""
    live = list(pairings)
    while live:
        for pairing in live:
            _advance(pairing)
        live = [p for p in live if not p.game.is_over]
        if not live:
            break
        actions = ask(policy, [p.game for p in live])
        for pairing, action in zip(live, actions):
            if watch is not None:
                watch(pairing.game, action)
            pairing.game.play(action)


def _advance(pairing: Pairing) -> None:
    """Plays until the agent has a sowing move to choose, or the game is over."""
    game = pairing.game
    n = game.pits_per_row
    while not game.is_over:
        if game.to_move != pairing.agent:
            game.play(pairing.opponent(game))
        elif game.legal_actions() == [n]:
            game.play("pass")
        else:
            return
