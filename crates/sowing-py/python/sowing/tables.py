"""Perfect-play endgame tables (the tables crate; ``sow tables``, docs/tables.md).

>>> import sowing.tables
>>> sowing.tables.build("hoyito-ii", max_seeds=5, dir=directory)["built"]
[4]
>>> sowing.tables.build("hoyito-ii", max_seeds=5, dir=directory, layers="all")["built"]
[1, 2, 3, 5]
>>> probe = sowing.tables.probe("hoyito-ii 0,0,0,0,1,0/3,0,0,0,0,0 20-23 S -", dir=directory)
>>> probe.value == max(probe.moves.values())
True

A value is the future captures of the player to move minus the opponent's, with best play
from both under every rule, repetition included. The files are the ones ``sow tables
build`` writes, in ``dir``: by default ``$SOWING_TABLES``, else ``sowing/tables`` in the
user's data directory (``~/.local/share`` on Linux), as for ``sow tables``.

By default a build computes only the layers play from the start reaches (in Hoyito every
capture takes a multiple of 4 seeds, so the layers 4, 8, …); ``layers="all"`` builds every
one, and ``extra=[13]`` adds layer 13 (with 9, 5 and 1 below it) for set-up positions. A
probe of a position in a layer not built raises ``TablesError`` saying so.
"""

from __future__ import annotations

import os
from typing import Any, Optional, Sequence, Union

from ._sowing import Game, Probe, Tables, TablesError, tables_build, tables_dir

__all__ = ["Probe", "Tables", "TablesError", "build", "default_dir", "open_tables", "probe"]

_opened: dict[tuple[Any, ...], Tables] = {}


def default_dir(dir: Optional[Union[str, os.PathLike]] = None) -> str:
    """The tables' directory: ``dir``, else ``$SOWING_TABLES``, else the user's data one."""
    return str(tables_dir(dir))


def build(
    game: str = "hoyito-ii",
    pits: int = 6,
    *,
    max_seeds: int,
    dir: Optional[Union[str, os.PathLike]] = None,
    threads: Optional[int] = None,
    layers: str = "reachable",
    extra: Sequence[int] = (),
    **options: str,
) -> dict[str, Any]:
    """Builds (or completes) a game's tables up to ``max_seeds`` seeds on the board, as
    ``sow tables build`` does: the same files. ``layers`` is ``"reachable"`` (the layers
    play from the start reaches) or ``"all"``; ``extra`` adds layers (with those they need).
    Returns the layers built and reused."""
    return tables_build(game, pits, max_seeds=max_seeds, dir=dir, threads=threads,
                        layers=layers, extra=list(extra), **options)


def open_tables(
    game: str = "hoyito-ii", pits: int = 6, *, dir: Optional[Union[str, os.PathLike]] = None,
    **options: str,
) -> Tables:
    """The tables of a game in ``dir``, opened once and kept for later probes."""
    key = (default_dir(dir), game, pits, tuple(sorted(options.items())))
    tables = _opened.get(key)
    if tables is None:
        tables = _opened[key] = Tables(game, pits, dir=dir, **options)
    return tables


def probe(position: Union[str, Game], dir: Optional[Union[str, os.PathLike]] = None) -> Probe:
    """The exact value of a position (a ``Game`` or a position text) and of each legal
    move, for the player to move. Raises ``TablesError`` when the tables do not hold it."""
    game = position if isinstance(position, Game) else Game.from_text(position)
    rules = dict(game=game.game, pits=game.pits_per_row, dir=dir, **game.options)
    try:
        return open_tables(**rules).probe(position)
    except TablesError:
        # Built further since they were opened? Open them again, once.
        _opened.pop((default_dir(dir), game.game, game.pits_per_row,
                     tuple(sorted(game.options.items()))), None)
        return open_tables(**rules).probe(position)
