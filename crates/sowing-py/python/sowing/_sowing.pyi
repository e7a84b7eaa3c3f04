"""Type stubs of the native module (crates/sowing-py/src)."""

import os
from typing import Any, Callable, Literal, Optional, Sequence, Union, final, overload

import numpy as np
import numpy.typing as npt
from typing_extensions import TypedDict, Unpack

# The names starting with `_` exist only here (stubtest checks the rest against the module).
_GameName = Literal["hoyito-ii", "hoyito-iii", "ayoayo"]
_SideName = Literal["south", "north"]
_EndName = Literal["board-cleared", "last-four", "cannot-feed", "repetition"]
_MoveLike = Union[str, int]

class _RuleOptions(TypedDict, total=False):
    """The rule options by keyword (`**options` of every constructor): the rules crate's
    table, as `OPTIONS` gives it (a test checks these against it)."""

    casa_rows: Optional[Literal["any", "opponent"]]
    leftover: Optional[Literal["last-mover", "holder"]]
    final_four: Optional[Literal["capturer", "south", "north"]]

# (game, pits, options), for the functions of `sowing.distributed`.
_RuleArgs = tuple[str, int, Optional[dict[str, str]]]
# A policy: observations (B, 2N + 8) and masks (B, N) in, B actions out.
_Policy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8]], Any]

class _OptionEntry(TypedDict):
    """A keyword of rules in `OPTIONS`."""

    name: str
    type: type
    default: Union[int, str]
    values: tuple[Union[int, str], ...]
    flag: str
    rule: str
    label: str
    description: str

__all__ = [
    "Game",
    "Report",
    "Engine",
    "Analysis",
    "VecGame",
    "VectorGame",
    "BatchedMCTS",
    "Tables",
    "Probe",
    "tables_dir",
    "tables_build",
    "tables_plan",
    "tables_solve",
    "tables_write_layer",
    "TablesShard",
    "match_player",
    "match_openings",
    "match_game",
    "match_report",
    "SowingError",
    "IllegalMoveError",
    "ParseError",
    "RulesError",
    "TablesError",
    "GAMES",
    "MAX_LAPS",
    "OPTIONS",
    "END_CODES",
    "MATCH_MOVETIME_MS",
]
GAMES: list[str]
MAX_LAPS: int
OPTIONS: dict[str, dict[str, _OptionEntry]]
END_CODES: list[str]
MATCH_MOVETIME_MS: int

class SowingError(ValueError):
    """Any input the rules or the engine refuse; the message is the rules crate's."""

class IllegalMoveError(SowingError):
    """A move that is not legal in the position (or not a move of this board)."""

class ParseError(SowingError):
    """A position text, game record or JSON state that could not be read."""

class RulesError(SowingError):
    """An unknown game, board size or option value, or an option the game does not have."""

class TablesError(SowingError):
    """Endgame tables that could not be built, opened or probed."""

@final
class Report:
    """What a move did."""

    @property
    def move(self) -> str: ...
    @property
    def laps(self) -> int: ...
    @property
    def captured(self) -> int: ...
    @property
    def extra_turn(self) -> bool: ...
    @property
    def end(self) -> Optional[_EndName]: ...

@final
class Game:
    """A game with its history, undo and the repetition rule.

    Moves are names (``"A"`` … South's pits, ``"a"`` … North's, ``"pass"``) or action
    numbers: the column of the mover's pit, ``0 … N-1``, and ``N`` for a pass.
    """

    def __new__(
        cls,
        game: _GameName = "hoyito-ii",
        pits: int = 6,
        **options: Unpack[_RuleOptions],
    ) -> "Game": ...
    @property
    def game(self) -> _GameName: ...
    @property
    def pits_per_row(self) -> int: ...
    @property
    def options(self) -> dict[str, str]: ...
    def legal_moves(self) -> list[str]: ...
    def legal_actions(self) -> list[int]: ...
    def action_mask(self) -> npt.NDArray[np.int8]:
        """``N + 1`` values, the last one for a pass."""
    @overload
    def play(self, move: _MoveLike, *, mv: None = None) -> Report:
        """Raises ``IllegalMoveError`` (the game unchanged) when the move is not legal."""
    @overload
    def play(self, move: None = None, *, mv: _MoveLike) -> Report:
        """``mv``: the argument's old name, still taken."""
    def undo(self) -> Optional[str]: ...
    def redo(self) -> Optional[str]: ...
    def copy(self) -> "Game": ...
    def __copy__(self) -> "Game": ...
    def __deepcopy__(self, memo: Any) -> "Game": ...
    @property
    def is_over(self) -> bool: ...
    @property
    def result(self) -> Optional[Literal["south", "north", "draw"]]: ...
    @property
    def end(self) -> Optional[_EndName]: ...
    @property
    def to_move(self) -> _SideName: ...
    @property
    def pits(self) -> list[int]: ...
    @property
    def captured(self) -> tuple[int, int]: ...
    @property
    def ply(self) -> int: ...
    @property
    def moves(self) -> list[str]: ...
    @property
    def position_text(self) -> str: ...
    def state(self) -> dict[str, Any]:
        """The JSON machine state of RULES.md, as ``sow replay`` prints it."""
    @staticmethod
    def from_state(
        state: Union[dict[str, Any], str],
        **options: Unpack[_RuleOptions],
    ) -> "Game": ...
    @staticmethod
    def from_text(text: str) -> "Game": ...
    def record(self) -> str: ...
    @staticmethod
    def from_record(text: str) -> "Game": ...
    def observation(self, side: Optional[_SideName] = None) -> npt.NDArray[np.float32]:
        """``2N + 8`` float32 values from ``side``'s point of view (default: the mover)."""
    def action_of(self, name: str) -> int: ...
    def move_name(self, action: int) -> str: ...

@final
class Analysis:
    """What a search found."""

    @property
    def best(self) -> str: ...
    @property
    def score(self) -> Optional[float]: ...
    @property
    def proven(self) -> bool: ...
    @property
    def score_text(self) -> Optional[str]: ...
    @property
    def pv(self) -> list[str]: ...
    @property
    def depth(self) -> int: ...
    @property
    def nodes(self) -> int: ...

@final
class Engine:
    """A computer player of the engine crate; searches release the GIL."""

    def __new__(
        cls,
        level: Optional[int] = None,
        *,
        movetime: Optional[int] = None,
        nodes: Optional[int] = None,
        depth: Optional[int] = None,
        player: Optional[str] = None,
        seed: int = 0,
    ) -> "Engine": ...
    @property
    def name(self) -> str: ...
    @property
    def limits(self) -> tuple[Optional[int], Optional[int], Optional[int]]:
        """(movetime in ms, nodes, depth) of every move; ``None``: not limited by that."""
    def analyse(self, game: Game) -> Analysis: ...
    def best_move(self, game: Game) -> str: ...
    def new_game(self) -> None: ...
    def __copy__(self) -> "Engine": ...
    def __deepcopy__(self, memo: Any) -> "Engine": ...

@final
class VecGame:
    """``n`` games stepped together in Rust, writing into arrays it owns."""

    def __new__(
        cls,
        n: int,
        game: _GameName = "hoyito-ii",
        pits: int = 6,
        *,
        reward: Literal["margin", "captures"] = "margin",
        seed: Optional[int] = None,
        **options: Unpack[_RuleOptions],
    ) -> "VecGame": ...
    @property
    def num_envs(self) -> int: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def observation_size(self) -> int: ...
    @property
    def observations(self) -> npt.NDArray[np.float32]: ...
    @property
    def rewards(self) -> npt.NDArray[np.float32]: ...
    @property
    def terminations(self) -> npt.NDArray[np.bool_]: ...
    @property
    def masks(self) -> npt.NDArray[np.int8]: ...
    @property
    def to_move(self) -> npt.NDArray[np.int8]: ...
    def reset(
        self, *, seed: Optional[int] = None
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]: ...
    def sample_actions(self) -> npt.NDArray[np.int64]: ...
    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.int8],
    ]: ...
    def game(self, index: int) -> Game: ...
    def __len__(self) -> int: ...
    def __copy__(self) -> "VecGame": ...
    def __deepcopy__(self, memo: Any) -> "VecGame": ...

@final
class VectorGame:
    """``n`` games of one agent against an opponent whose replies are played inside each
    step, in Rust: the core of ``sowing.vector``."""

    def __new__(
        cls,
        n: int,
        game: _GameName = "hoyito-ii",
        pits: int = 6,
        *,
        opponent: Union[str, _Policy, Sequence[_Policy], None] = None,
        opponent_weights: Optional[Sequence[float]] = None,
        agent: Literal["south", "north", "alternate"] = "south",
        reward: Literal["margin", "captures", "normalized", "win"] = "margin",
        illegal_action: Literal["lose", "raise"] = "lose",
        autoreset: Literal["next-step", "same-step"] = "next-step",
        seed: Optional[int] = None,
        threads: Optional[int] = None,
        engine_memory: int = 1024,
        **options: Unpack[_RuleOptions],
    ) -> "VectorGame": ...
    @property
    def num_envs(self) -> int: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def observation_size(self) -> int: ...
    @property
    def seeds(self) -> int: ...
    @property
    def opponent(self) -> str: ...
    @property
    def seed(self) -> Optional[int]: ...
    @property
    def threads(self) -> int: ...
    @property
    def needs_reset(self) -> bool: ...
    @property
    def observations(self) -> npt.NDArray[np.float32]: ...
    @property
    def final_observations(self) -> npt.NDArray[np.float32]: ...
    @property
    def rewards(self) -> npt.NDArray[np.float32]: ...
    @property
    def seat_rewards(self) -> npt.NDArray[np.float32]: ...
    @property
    def terminations(self) -> npt.NDArray[np.bool_]: ...
    @property
    def masks(self) -> npt.NDArray[np.int8]: ...
    @property
    def agents(self) -> npt.NDArray[np.int8]: ...
    def reset(
        self, seed: Optional[int] = None, mask: Optional[npt.NDArray[np.bool_]] = None
    ) -> None: ...
    def step(self, actions: npt.ArrayLike) -> None: ...
    def send(self, actions: npt.ArrayLike) -> None: ...
    def recv(self) -> None: ...
    def set_opponent(
        self,
        opponent: Union[_Policy, Sequence[_Policy]],
        opponent_weights: Optional[Sequence[float]] = None,
    ) -> None: ...
    def moves(self, index: int) -> list[int]: ...
    def game(self, index: int) -> Game: ...
    def __len__(self) -> int: ...

@final
class BatchedMCTS:
    """AlphaZero's search (PUCT) over many games at once, the leaves valued in batches by
    a Python function ``evaluate(observations, masks) -> (logits, values)``."""

    def __new__(
        cls,
        *,
        simulations: int = 64,
        c_puct: float = 1.5,
        dirichlet_alpha: float = 0.5,
        noise_fraction: float = 0.25,
        virtual_loss: float = 1.0,
        leaves_per_round: int = 4,
        tables: Optional["Tables"] = None,
        seed: int = 0,
    ) -> "BatchedMCTS": ...
    def search(
        self,
        games: list[Game],
        evaluate: Any,
        *,
        noise: bool = True,
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """The visits of each root's columns ``(G, N)`` and each root's value ``(G,)``."""
    @property
    def last_search(self) -> tuple[int, int, int]:
        """(network calls, positions the network valued, exact leaves) of the last search."""
    @property
    def simulations(self) -> int: ...

# The pieces of `sow match` behind `python -m sowing.distributed match`.
def match_player(text: str) -> str: ...
def match_openings(
    rules: _RuleArgs,
    plies: Optional[int],
    balance: Optional[str],
    seed: int,
    pairs: int,
) -> dict[str, Any]: ...
def match_game(
    rules: _RuleArgs,
    rounds: Optional[int],
    opening: list[str],
    p1: str,
    p2: str,
    p1_south: bool,
    seed: int,
    index: int,
    movetime: Optional[int] = None,
    nodes: Optional[int] = None,
    depth: Optional[int] = None,
) -> tuple[float, int, Optional[str], list[str]]: ...
def match_report(
    rules: _RuleArgs,
    p1: str,
    p2: str,
    rounds: Optional[int],
    openings: dict[str, Any],
    games: list[tuple[float, int, Optional[str]]],
    out: str,
) -> str: ...

@final
class Probe:
    """A position's exact value and each legal move's, for the player to move."""

    @property
    def value(self) -> int: ...
    @property
    def moves(self) -> dict[str, int]: ...
    @property
    def best(self) -> list[str]: ...

@final
class Tables:
    """The endgame tables of one game and its options, memory-mapped."""

    def __new__(
        cls,
        game: _GameName = "hoyito-ii",
        pits: int = 6,
        *,
        dir: Optional[Union[str, "os.PathLike[str]"]] = None,
        max_seeds: Optional[int] = None,
        **options: Unpack[_RuleOptions],
    ) -> "Tables": ...
    @property
    def max_seeds(self) -> int: ...
    @property
    def layers(self) -> list[int]: ...
    @property
    def dir(self) -> "os.PathLike[str]": ...
    def value(self, position: Union[str, Game]) -> int: ...
    def probe(self, position: Union[str, Game]) -> Probe: ...
    # The pieces of a build spread over a cluster (`python -m sowing.distributed tables`).
    def layer_len(self, seeds: int) -> int: ...
    def expand(self, seeds: int, start: int, end: int) -> tuple[bytes, bytes, bytes]: ...
    def expand_parts(self, seeds: int, start: int, end: int, bounds: list[int]) -> list[bytes]: ...

@final
class TablesShard:
    """One shard of a layer's solve split across workers (`sowing.distributed`)."""

    def __new__(cls, bounds: list[int], index: int,
                scratch: Optional[str] = None) -> "TablesShard": ...
    def receive(self, part: bytes) -> None: ...
    def seal(self) -> int: ...
    def begin(self, threshold: int) -> list[bytes]: ...
    def step(self, inbox: list[bytes]) -> list[bytes]: ...
    @property
    def pending(self) -> bool: ...
    def values(self) -> bytes: ...

def tables_dir(dir: Optional[Union[str, "os.PathLike[str]"]] = None) -> "os.PathLike[str]": ...
def tables_build(
    game: _GameName = "hoyito-ii",
    pits: int = 6,
    *,
    max_seeds: int,
    dir: Optional[Union[str, "os.PathLike[str]"]] = None,
    threads: Optional[int] = None,
    layers: str = "reachable",
    extra: list[int] = ...,
    **options: Unpack[_RuleOptions],
) -> dict[str, Any]: ...
def tables_plan(
    game: _GameName = "hoyito-ii",
    pits: int = 6,
    *,
    max_seeds: int,
    layers: str = "reachable",
    extra: list[int] = ...,
    **options: Unpack[_RuleOptions],
) -> list[int]: ...
def tables_write_layer(
    rules: _RuleArgs,
    seeds: int,
    parts: list[bytes],
    dir: Optional[Union[str, "os.PathLike[str]"]] = None,
) -> "os.PathLike[str]": ...
def tables_solve(
    rules: _RuleArgs,
    seeds: int,
    parts: list[tuple[int, bytes, bytes, bytes]],
    dir: Optional[Union[str, "os.PathLike[str]"]] = None,
) -> "os.PathLike[str]": ...
