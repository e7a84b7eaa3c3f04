"""OpenSpiel games: importing this module registers them as Python games.

>>> import pyspiel
>>> import sowing.openspiel
>>> game = pyspiel.load_game("sowing_hoyito_ii")
>>> state = game.new_initial_state()
>>> state.apply_action(state.legal_actions()[0])

Registered: ``sowing_hoyito_ii`` (parameters ``pits`` = 6 or 12, ``casa_rows``),
``sowing_hoyito_iii`` (``casa_rows``, ``final_four``) and ``sowing_ayoayo``
(``leftover``). Players are 0 = South (moves first) and 1 = North. Actions are the
columns of the mover's pits, ``0 … N-1``, and ``N`` for a pass (a real move: the only
legal one when there is no sowing move, C.2). Returns are the final seed margins (zero
sum; a draw is ``[0.0, 0.0]``). The observation tensor is ``Game.observation`` from the
player's point of view, and so is the information-state tensor (the game has perfect
information: every player's information state is the history, whose string it gives).
``state.undo_action(player, action)`` takes back the last action (see ``SowingState``).

The rules have no move limit (a game ends when the board empties, on the last four, when
Ayoayo's mover cannot feed, or when a position recurs, C.3), so ``max_game_length`` is a
generous bound, not a rule: see ``MAX_GAME_LENGTH``.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Optional

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from . import _common
from ._sowing import OPTIONS, Game

# OpenSpiel wants a bound on plies; the rules have none, and nothing here enforces this
# one. It is far above any game seen: of 20,000 uniformly random games the longest took 587
# plies in Hoyito II, 665 in Hoyito III and 83 in Ayoayo; of 3,000 on 2x12, 7,555.
MAX_GAME_LENGTH = 100_000

# Each game's parameters and their defaults, from the rules crate's table (``pits`` only
# where the game has more than one board).
_PARAMETERS = {
    game: {
        name: entry["default"]
        for name, entry in options.items()
        if name != "pits" or len(entry["values"]) > 1
    }
    for game, options in OPTIONS.items()
}

_NAMES = {
    "hoyito-ii": ("sowing_hoyito_ii", "Hoyito II (sowing)"),
    "hoyito-iii": ("sowing_hoyito_iii", "Hoyito III (sowing)"),
    "ayoayo": ("sowing_ayoayo", "Ayoayo (sowing)"),
}

_SIDES = ("south", "north")


def _game_type(game: str) -> pyspiel.GameType:
    short_name, long_name = _NAMES[game]
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_PARAMETERS[game],
    )


def _rules(game: str, params: dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments of ``sowing.Game`` for these OpenSpiel parameters."""
    given = dict(_PARAMETERS[game])
    given.update(params)
    rules: dict[str, Any] = {"game": game}
    for key, value in given.items():
        rules[key] = OPTIONS[game][key]["type"](value) if key in OPTIONS[game] else value
    return rules


class SowingGame(pyspiel.Game):
    """One of the games for OpenSpiel."""

    def __init__(self, game: str, params: Optional[dict[str, Any]] = None) -> None:
        self.rules = _rules(game, params or {})
        probe = Game(**self.rules)
        n, _, seeds = _common.spaces_size(probe)
        self.pits_per_row = n
        self.seeds = seeds
        info = pyspiel.GameInfo(
            num_distinct_actions=n + 1,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-float(seeds),
            max_utility=float(seeds),
            utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(_game_type(game), info, params or {})

    def new_initial_state(self) -> "SowingState":
        return SowingState(self, Game(**self.rules))

    def make_py_observer(
        self, iig_obs_type: Optional[pyspiel.IIGObservationType] = None, params: Any = None
    ) -> Any:
        if iig_obs_type is None or (
            iig_obs_type.public_info and not iig_obs_type.perfect_recall
        ):
            return BoardObserver(self, params)
        return InformationStateObserver(self, iig_obs_type, params)


class PlayerAction(NamedTuple):
    """An entry of ``SowingState.full_history()``, as ``pyspiel.PlayerAction`` (which
    Python cannot make)."""

    player: int
    action: int


class SowingState(pyspiel.State):
    """A position with its history; ``state.game_`` is the ``sowing.Game``.

    ``undo_action(player, action)`` takes back the last action. OpenSpiel keeps a state's
    history in C++ (``State::history_`` and ``move_number_``, protected members of
    ``spiel.h`` that only ``ApplyAction`` and deserialization write), and a Python game
    cannot pop it: ``PyState`` (``python/pybind11/python_games.h``) does not forward
    ``UndoAction`` to Python, so C++ reaches ``State::UndoAction``, whose body is a fatal
    error (``spiel.h``: "UndoAction function is not overridden"); ``pyspiel.State``'s
    ``undo_action`` is that C++ method (``pyspiel.cc``), which this class's shadows for
    Python callers. So the state keeps the actions itself (``full_history``) and answers
    ``history()``, ``history_str()``, ``full_history()``, ``move_number()`` and
    ``is_initial_state()`` from them, in Python; the information-state string (the
    history) reads them too. C++ code that reads the C++ history of a state that was
    undone (OpenSpiel's C++ algorithms: ``UndoAction`` from C++ fails anyway) still sees
    the actions taken back.
    """

    def __init__(self, game: SowingGame, sowing_game: Game) -> None:
        super().__init__(game)
        self.game_ = sowing_game
        self._n = game.pits_per_row
        # (player, action) of every action applied and not undone.
        self._actions: list[tuple[int, int]] = []

    def current_player(self) -> int:
        if self.game_.is_over:
            return pyspiel.PlayerId.TERMINAL
        return _SIDES.index(self.game_.to_move)

    def _legal_actions(self, player: int) -> list[int]:
        return self.game_.legal_actions()

    def _apply_action(self, action: int) -> None:
        player = self.current_player()
        self.game_.play(int(action))
        self._actions.append((player, int(action)))

    def undo_action(self, player: int, action: int) -> None:
        """Takes back the last action, which was ``action`` of ``player`` (as OpenSpiel's
        C++ games check, a mismatch is refused: ``pyspiel.SpielError``)."""
        if not self._actions:
            raise pyspiel.SpielError("undo_action: no action to undo (the initial state)")
        if self._actions[-1] != (player, action):
            last_player, last_action = self._actions[-1]
            raise pyspiel.SpielError(
                f"undo_action({player}, {action}): the last action was {last_action} "
                f"of player {last_player}"
            )
        self.game_.undo()
        self._actions.pop()

    def history(self) -> list[int]:
        return [action for _, action in self._actions]

    def full_history(self) -> list[PlayerAction]:
        return [PlayerAction(player, action) for player, action in self._actions]

    def history_str(self) -> str:
        return ", ".join(str(action) for _, action in self._actions)

    def move_number(self) -> int:
        return len(self._actions)

    def is_initial_state(self) -> bool:
        return not self._actions

    def is_initial_non_chance_state(self) -> bool:
        return not self._actions

    def _action_to_string(self, player: int, action: int) -> str:
        if action == self._n:
            return "pass"
        base = "A" if player == 0 else "a"
        return chr(ord(base) + int(action))

    def is_terminal(self) -> bool:
        return self.game_.is_over

    def returns(self) -> list[float]:
        if not self.game_.is_over:
            return [0.0, 0.0]
        south = float(_common.margin(self.game_, "south"))
        # 0.0 - south, not -south: a draw is [0.0, 0.0], not [0.0, -0.0].
        return [south, 0.0 - south]

    def __str__(self) -> str:
        return self.game_.position_text


class BoardObserver:
    """The observation of ``Game.observation`` for OpenSpiel's observer interface."""

    def __init__(self, game: SowingGame, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        size = 2 * game.pits_per_row + 8
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: SowingState, player: int) -> None:
        self.tensor[:] = state.game_.observation(_SIDES[player])

    def string_from(self, state: SowingState, player: int) -> str:
        return state.game_.position_text


class InformationStateObserver(BoardObserver):
    """The information state of a perfect-information game: every player knows the whole
    history. Its string is the history (OpenSpiel's public-information observer); its
    tensor is the position's (``Game.observation``), the perfect-information tensor: the
    moves before it change nothing to come but the repetition rule (C.3)."""

    def __init__(self, game: SowingGame, iig_obs_type: Any, params: Any) -> None:
        super().__init__(game, params)
        self._history = IIGObserverForPublicInfoGame(iig_obs_type, params)

    def string_from(self, state: SowingState, player: int) -> str:
        return self._history.string_from(state, player)


class HoyitoIIGame(SowingGame):
    """``sowing_hoyito_ii``: Hoyito II, 2x6 or (``pits=12``) 2x12."""

    def __init__(self, params: Optional[dict[str, Any]] = None) -> None:
        super().__init__("hoyito-ii", params)


class HoyitoIIIGame(SowingGame):
    """``sowing_hoyito_iii``: Hoyito III."""

    def __init__(self, params: Optional[dict[str, Any]] = None) -> None:
        super().__init__("hoyito-iii", params)


class AyoayoGame(SowingGame):
    """``sowing_ayoayo``: Ayoayo."""

    def __init__(self, params: Optional[dict[str, Any]] = None) -> None:
        super().__init__("ayoayo", params)


# Module-level classes as the factories (as OpenSpiel's own Python games do): the registry
# outlives the interpreter, and a factory it alone held would be freed after the GIL is gone.
pyspiel.register_game(_game_type("hoyito-ii"), HoyitoIIGame)
pyspiel.register_game(_game_type("hoyito-iii"), HoyitoIIIGame)
pyspiel.register_game(_game_type("ayoayo"), AyoayoGame)
