"""What the environments share: options, the board as text for people, margins."""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from ._sowing import OPTIONS, Game


def rule_options() -> dict[str, dict[str, Any]]:
    """Every rule option's keyword (``casa_rows`` …; ``pits`` left out), with its entry of
    ``sowing.OPTIONS`` and ``games``, the games that have it: read from the rules crate's
    table, the one list of them."""
    found: dict[str, dict[str, Any]] = {}
    for game, options in OPTIONS.items():
        for name, entry in options.items():
            if name != "pits":
                found.setdefault(name, {**entry, "games": []})["games"].append(game)
    return found


def game_options(options: dict[str, Optional[str]]) -> dict[str, str]:
    """The rule options given (those not ``None``), as keyword arguments of ``Game``,
    which checks them against the rules crate's table."""
    return {key: value for key, value in options.items() if value is not None}


def environment_game(
    game: str,
    pits: int,
    reward: str,
    render_mode: Optional[str],
    render_modes: list[str],
    options: dict[str, Optional[str]],
) -> tuple[dict[str, Any], Game]:
    """Checks the arguments the environments share and makes their game: the rules (as
    keyword arguments of ``Game``) and the game at the start."""
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
    if render_mode is not None and render_mode not in render_modes:
        allowed = ", ".join(repr(mode) for mode in render_modes)
        raise ValueError(f"render_mode must be None or one of {allowed}, not {render_mode!r}")
    rules = dict(game=game, pits=pits, **game_options(options))
    return rules, Game(**rules)


REWARDS = ("margin", "captures", "normalized", "win")


def reward(mode: str, before: int, after: int, over: bool, seeds: int) -> float:
    """A step's reward from a player's margin ``before`` and ``after`` it: ``"margin"``,
    the final margin on the last step (0 before); ``"captures"``, the change of the margin
    (the same total, spread over the steps); ``"normalized"``, the final margin divided by
    the seeds of the game (in -1 … 1: the raw ±48 margin makes PPO's value targets large);
    ``"win"``, 1, 0 or -1 for a win, draw or loss."""
    if mode == "captures":
        return float(after - before)
    if not over:
        return 0.0
    if mode == "normalized":
        return after / seeds
    if mode == "win":
        return float((after > 0) - (after < 0))
    return float(after)


def worst_reward(mode: str, seeds: int) -> float:
    """The reward of an illegal action, which loses: the worst of the mode."""
    return -float(seeds) if mode in ("margin", "captures") else -1.0


def integer_action(action: Any) -> int:
    """``action`` as an int: a Python or NumPy integer, or a NumPy array of one integer;
    anything else (a float such as 2.7, a bool, a string) raises ``TypeError`` rather than
    being rounded."""
    if isinstance(action, np.ndarray) and action.size == 1:
        action = action.reshape(()).item() if action.dtype.kind in "iu" else action
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise TypeError(f"an action is an integer (a column), not {action!r}")
    return int(action)


def margin(game: Game, side: str) -> int:
    """Seeds captured by ``side`` less those captured by its opponent."""
    south, north = game.captured
    return south - north if side == "south" else north - south


def other(side: str) -> str:
    """The opponent of ``side``."""
    return "north" if side == "south" else "south"


def board_text(game: Game) -> str:
    """The board as South sees it: North's row on top (``a`` on the right), then South's,
    with the captures and the side to move."""
    n = game.pits_per_row
    pits = game.pits
    north = pits[n:][::-1]
    south = pits[:n]
    letters_north = [chr(ord("a") + c) for c in range(n)][::-1]
    letters_south = [chr(ord("A") + c) for c in range(n)]
    cell = "{:>3}".format
    lines = [
        "".join(cell(x) for x in letters_north),
        "".join(cell(x) for x in north),
        "".join(cell(x) for x in south),
        "".join(cell(x) for x in letters_south),
    ]
    south_captured, north_captured = game.captured
    if game.is_over:
        status = f"over: {game.result}"
    else:
        status = f"{game.to_move} to move"
    lines.append(f"captured S {south_captured} N {north_captured}; {status}")
    return "\n".join(lines) + "\n"


def spaces_size(game: Game) -> tuple[int, int, int]:
    """Pits a row, numbers in an observation, and seeds in the game (the largest value any
    observation number takes)."""
    n = game.pits_per_row
    return n, 2 * n + 8, sum(game.pits) + sum(game.captured)


def settle(game: Game) -> None:
    """Plays passes until the side to move has a sowing move or the game is over."""
    while not game.is_over and game.legal_actions() == [game.pits_per_row]:
        game.play("pass")


def info_of(game: Game, **extra: Any) -> dict[str, Any]:
    """Facts about the game for ``info`` dicts."""
    info: dict[str, Any] = {"to_move": game.to_move, "position": game.position_text}
    if game.is_over:
        info["result"] = game.result
        info["end"] = game.end
    info.update(extra)
    return info
