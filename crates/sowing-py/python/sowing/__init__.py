"""Hoyito II, Hoyito III and Ayoayo at the speed of Rust.

The exact rules (``Game``), the engine (``Engine``), a vectorised environment stepped in
Rust (``VecGame``), vector environments for trainers with the opponent inside
(``sowing.vector``, on ``VectorGame``) and, when their libraries are installed,
environments for Gymnasium (``sowing.gym``, registered as ``sowing/HoyitoII-v0`` … on
import), PettingZoo
(``sowing.pettingzoo.env``) and OpenSpiel (``import sowing.openspiel``); the endgame
tables (``sowing.tables``), a benchmark with exact answers from them (``sowing.evaluate``),
datasets of exact values (``python -m sowing.dataset``) and matches on a Ray cluster
(``python -m sowing.distributed``).

>>> import sowing
>>> game = sowing.Game("ayoayo")
>>> game.play("C")
Report(move="C", laps=5, captured=7, extra_turn=False, end=None)
>>> game.to_move
'north'

``sowing.OPTIONS`` is the table of each game's rules by keyword (``pits`` and the rule
options, with their types, defaults and values), read from the rules crate.
"""

from importlib.util import find_spec as _find_spec

from ._sowing import (
    END_CODES,
    GAMES,
    MAX_LAPS,
    OPTIONS,
    Analysis,
    BatchedMCTS,
    Engine,
    Game,
    IllegalMoveError,
    ParseError,
    Report,
    RulesError,
    SowingError,
    TablesError,
    VecGame,
    VectorGame,
)

__all__ = [
    "END_CODES",
    "GAMES",
    "MAX_LAPS",
    "OPTIONS",
    "Analysis",
    "BatchedMCTS",
    "Engine",
    "Game",
    "IllegalMoveError",
    "ParseError",
    "Report",
    "RulesError",
    "SowingError",
    "TablesError",
    "VecGame",
    "VectorGame",
]

from .benchmark import evaluate  # noqa: E402  (after the native names it uses)

__all__ += ["evaluate"]

# Gymnasium ids are registered on import when Gymnasium is installed (it has no plugin
# entry points any more); the other ecosystems are imported only when asked for.
if _find_spec("gymnasium") is not None:
    from . import gym as _gym  # noqa: F401
