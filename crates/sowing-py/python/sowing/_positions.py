"""Positions inside the endgame tables, drawn reproducibly: by play from the start (the
published set of ``sowing.evaluate``, and self-play for datasets) and uniformly from the
tables' layers (datasets).

Every generator here uses Python's ``random.Random(seed)``, whose ``randrange``, ``choice``
and ``sample`` give the same numbers on every platform and Python version since 3.2, so a
seed names the same positions for anyone.
"""

from __future__ import annotations

import itertools
import random
from typing import Any, Callable, Optional

from ._sowing import Game, Tables, TablesError

# How many games (or draws) in a row may add no new position before a generator gives up:
# the tables' layers are then out of reach of play, or exhausted.
PATIENCE = 2_000


def seeds(game: Game) -> int:
    """Seeds left on the board."""
    return sum(game.pits)


def layers(tables: Tables) -> set[int]:
    """The tables' layers, refused when there are none."""
    built = set(tables.layers)
    if not built:
        raise TablesError(f"no endgame tables in {tables.dir}: build them with "
                          "sowing.tables.build(game, max_seeds=…, dir=…) or `sow tables build`")
    return built


def inside(game: Game, built: set[int]) -> bool:
    """Whether the tables value the position: not over, its seed count a built layer."""
    return not game.is_over and seeds(game) in built


def has_choice(game: Game) -> bool:
    """Whether the mover has two moves or more (a single move cannot lose anything)."""
    return not game.is_over and len(game.legal_actions()) >= 2


Chooser = Callable[[Game], str]


def played(rules: dict[str, Any], tables: Tables, count: int, seed: int,
           chooser: Optional[Callable[[int], Chooser]] = None) -> list[Game]:
    """``count`` distinct positions (by position text) inside the tables where the mover
    has a choice, in the order games from the start reach them.

    Game k (0, 1, …) is played by ``chooser(k)`` for both sides, by default uniformly
    random legal moves from one ``random.Random(seed)`` for all games; every position of a
    game inside the tables with a choice is taken, until ``count``. Raises ``TablesError``
    when ``PATIENCE`` games in a row add none."""
    built = layers(tables)
    rng = random.Random(seed)

    def uniform(game: Game) -> str:
        return rng.choice(game.legal_moves())

    found: list[Game] = []
    seen: set[str] = set()
    idle = 0
    for index in itertools.count():
        if len(found) >= count:
            break
        choose = chooser(index) if chooser else uniform
        game = Game(**rules)
        before = len(found)
        while not game.is_over and len(found) < count:
            if inside(game, built) and has_choice(game) and game.position_text not in seen:
                seen.add(game.position_text)
                found.append(Game.from_text(game.position_text))  # no history
            game.play(choose(game))
        idle = 0 if len(found) > before else idle + 1
        if idle >= PATIENCE:
            raise TablesError(
                f"{PATIENCE} games in a row reached no new position in the tables' layers "
                f"{sorted(built)} ({len(found)} of {count} found): play does not reach them")
    return found


def uniform(rules: dict[str, Any], tables: Tables, count: int, seed: int) -> list[Game]:
    """``count`` distinct positions drawn from the tables' layers, each a layer chosen
    uniformly, then a board uniformly among those of that many seeds (stars and bars), the
    side to move, the captures and Ayoayo's last sower at random; kept when the mover has a
    choice. Raises ``TablesError`` when ``PATIENCE`` draws in a row add none."""
    built = sorted(layers(tables))
    rng = random.Random(seed)
    start = Game(**rules)
    n = start.pits_per_row
    total = seeds(start)
    options: dict[str, Any] = start.options
    found: list[Game] = []
    seen: set[str] = set()
    idle = 0
    while len(found) < count:
        on_board = rng.choice(built)
        bars = sorted(rng.sample(range(on_board + 2 * n - 1), 2 * n - 1))
        edges = [-1, *bars, on_board + 2 * n - 1]
        pits = [edges[i + 1] - edges[i] - 1 for i in range(2 * n)]
        rest = total - on_board
        # Hoyito captures four at a time: split the captures so when they can be.
        step = 4 if start.game != "ayoayo" and rest % 4 == 0 else 1
        south = step * rng.randrange(rest // step + 1)
        sower = rng.choice([None, "south", "north"]) if start.game == "ayoayo" else None
        state = {"game": start.game, "pits_per_row": n, "pits": pits,
                 "captured": [south, rest - south], "to_move": rng.choice(["south", "north"]),
                 "over": False, "winner": None, "last_sower": sower}
        game = Game.from_state(state, **options)
        if has_choice(game) and game.position_text not in seen:
            seen.add(game.position_text)
            found.append(game)
            idle = 0
        else:
            idle += 1
            if idle >= PATIENCE:
                raise TablesError(f"{PATIENCE} draws in a row found no new position with a "
                                  f"choice in the layers {built} ({len(found)} of {count})")
    return found

