"""Datasets for supervised learning: positions with their exact values and best moves from
the endgame tables, written to Parquet (pyarrow: ``pip install 'sowing[research]'``).

    python -m sowing.dataset --game hoyito-ii --dir TABLES --tables 20000 \\
        --self-play 20000 --seed 0 out.parquet

Each row is one position where the mover has two legal moves or more (a sowing move to
choose; positions where it can only pass are left out), from one of two sources:

- ``"tables"``: drawn uniformly from the tables' layers (a layer at random, then a board
  at random among those of that many seeds, the side to move, the split of the captures
  and Ayoayo's last sower at random);
- ``"self-play"``: reached by games of ``Engine(level=LEVEL, seed=SEED·2³² + k)`` against
  itself (game k; the level's noise varies the games), every position inside the tables.

Both are drawn from ``random.Random(seed)`` (the self-play source from ``seed + 1``); no
position appears twice within a source. The schema (``SCHEMA``), N the pits a row:

=============  ================================  ==========================================
column         type                              what
=============  ================================  ==========================================
game           string                            ``hoyito-ii``, ``hoyito-iii`` or ``ayoayo``
pits           int8                              N
options        string                            the rule options, a JSON object by keyword
position       string                            the position text (docs/notation.md)
observation    fixed_size_list<float32>[2N+8]    ``Game.observation()``, from the mover
mask           fixed_size_list<int8>[N]          legal sowing columns (``action_mask()[:N]``)
value          int16                             the position's value for the mover (seeds)
move_values    fixed_size_list<int16>[N]         each legal column's value, null if illegal
best           list<int8>                        the columns whose value is ``value``
seeds          int16                             seeds on the board (the tables' layer)
source         string                            ``tables`` or ``self-play``
=============  ================================  ==========================================

A value is the mover's future captures less the opponent's with perfect play (docs/tables.md).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, Optional, Sequence, Union

import numpy as np

from . import _common, _positions
from ._sowing import Engine, Game, SowingError, Tables
from .tables import open_tables

__all__ = ["SOURCES", "columns", "main", "schema", "write_dataset"]

SOURCES = ("tables", "self-play")


def _pyarrow() -> Any:
    try:
        import pyarrow
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        raise ImportError("sowing.dataset writes Parquet with pyarrow: "
                          "pip install 'sowing[research]' (or pyarrow)") from None
    return pyarrow


def schema(pits: int = 6) -> Any:
    """The datasets' Arrow schema for boards of ``pits`` pits a row."""
    pa = _pyarrow()
    return pa.schema([
        ("game", pa.string()), ("pits", pa.int8()), ("options", pa.string()),
        ("position", pa.string()),
        ("observation", pa.list_(pa.float32(), 2 * pits + 8)),
        ("mask", pa.list_(pa.int8(), pits)),
        ("value", pa.int16()),
        ("move_values", pa.list_(pa.int16(), pits)),
        ("best", pa.list_(pa.int8())),
        ("seeds", pa.int16()), ("source", pa.string()),
    ])


def columns(positions: Sequence[Game], tables: Tables, source: str) -> dict[str, list[Any]]:
    """The rows of ``positions`` (each inside the tables, with a choice), by column."""
    rows: dict[str, list[Any]] = {name: [] for name in schema().names}
    for game in positions:
        n = game.pits_per_row
        probe = tables.probe(game)
        values: list[Optional[int]] = [None] * n
        for name, value in probe.moves.items():
            values[game.action_of(name)] = value
        rows["game"].append(game.game)
        rows["pits"].append(n)
        rows["options"].append(json.dumps(game.options, sort_keys=True))
        rows["position"].append(game.position_text)
        rows["observation"].append(game.observation().tolist())
        rows["mask"].append(game.action_mask()[:n].tolist())
        rows["value"].append(probe.value)
        rows["move_values"].append(values)
        rows["best"].append(sorted(game.action_of(name) for name in probe.best))
        rows["seeds"].append(sum(game.pits))
        rows["source"].append(source)
    return rows


def _self_play(level: int, seed: int) -> Any:
    """Game k's player: its own seed, apart from every game of every other dataset seed."""
    def chooser(index: int) -> Any:
        return Engine(level=level, seed=(seed << 32) + index).best_move
    return chooser


def write_dataset(
    path: Union[str, os.PathLike],
    game: str = "hoyito-ii",
    pits: int = 6,
    *,
    dir: Optional[Union[str, os.PathLike]] = None,
    tables: int = 1000,
    self_play: int = 1000,
    seed: int = 0,
    level: int = 1,
    **options: str,
) -> Any:
    """Writes ``tables`` positions drawn from the tables and ``self_play`` reached by
    self-play of ``level`` (module documentation) to the Parquet file ``path``, and
    returns them as a ``pyarrow.Table``. The tables are those of the game in ``dir``."""
    pa = _pyarrow()
    if not 0 <= seed < 2**31:
        raise ValueError(f"seed must be in 0 … 2**31 - 1, not {seed}")
    for name, value in (("tables", tables), ("self_play", self_play)):
        if value < 0:
            raise ValueError(f"{name} must not be negative, not {value}")
    rules: dict[str, Any] = dict(game=game, pits=pits, **options)
    Game(**rules)  # RulesError for an unknown game or option
    opened = open_tables(dir=dir, **rules)
    drawn = columns(_positions.uniform(rules, opened, tables, seed), opened, "tables")
    played = columns(_positions.played(rules, opened, self_play, seed + 1,
                                       _self_play(level, seed)), opened, "self-play")
    data = {name: drawn[name] + played[name] for name in drawn}
    table = pa.table(data, schema=schema(pits))
    pa.parquet.write_table(table, path)
    return table


def read_dataset(path: Union[str, os.PathLike]) -> Any:
    """A dataset written by ``write_dataset``, as a ``pyarrow.Table``."""
    return _pyarrow().parquet.read_table(path)


def arrays(table: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A dataset's observations ``(R, 2N+8)`` float32, masks ``(R, N)`` int8 and best
    moves ``(R, N)`` as 0/1 int8, for training."""
    observations = np.stack(table.column("observation").to_pylist()).astype(np.float32)
    masks = np.stack(table.column("mask").to_pylist()).astype(np.int8)
    best = np.zeros_like(masks)
    for row, columns_ in enumerate(table.column("best").to_pylist()):
        best[row, columns_] = 1
    return observations, masks, best


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m sowing.dataset``: writes a dataset and says what it holds."""
    parser = argparse.ArgumentParser(prog="python -m sowing.dataset", description=__doc__.split(
        "\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", help="the Parquet file to write")
    parser.add_argument("--game", default="hoyito-ii", help="hoyito-ii, hoyito-iii or ayoayo")
    parser.add_argument("--pits", type=int, default=6, help="pits per row: 6, or 12 for Hoyito II")
    for name, option in _common.rule_options().items():
        parser.add_argument(option["flag"], dest=name, choices=option["values"],
                            help=f"{option['description']} ({option['rule']})")
    parser.add_argument("--dir", help="the tables' directory (default: sowing.tables')")
    parser.add_argument("--tables", type=int, default=1000,
                        help="positions drawn uniformly from the tables (default 1000)")
    parser.add_argument("--self-play", type=int, default=1000,
                        help="positions reached by self-play (default 1000)")
    parser.add_argument("--level", type=int, default=1, help="the self-play level (default 1)")
    parser.add_argument("--seed", type=int, default=0, help="the seed (default 0)")
    args = parser.parse_args(argv)
    options = _common.game_options({name: getattr(args, name) for name in
                                    _common.rule_options()})
    try:
        table = write_dataset(args.out, args.game, args.pits, dir=args.dir, tables=args.tables,
                              self_play=args.self_play, seed=args.seed, level=args.level,
                              **options)
    except (SowingError, ValueError) as error:
        print(f"python -m sowing.dataset: {error}", file=sys.stderr)
        return 2
    sources = table.column("source").to_pylist()
    print(f"{args.out}: {table.num_rows} positions ("
          + ", ".join(f"{sources.count(s)} {s}" for s in SOURCES) + ")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
