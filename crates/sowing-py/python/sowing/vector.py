"""Vector environments for trainers: many games of one agent against an opponent, stepped
in Rust with the opponent's replies played inside each step.

Two interfaces over the same core (``sowing.VectorGame``):

- ``SowingVectorEnv``: Gymnasium's ``VectorEnv`` (1.x), registered as the
  ``vector_entry_point`` of the ``sowing/…`` ids::

      import gymnasium, sowing
      envs = gymnasium.make_vec("sowing/HoyitoII-v0", num_envs=1024,
                                vectorization_mode="vector_entry_point", opponent="random")

- ``SowingVecEnv``: Stable-Baselines3's ``VecEnv`` (with ``action_masks()`` for
  sb3-contrib's MaskablePPO), without importing Stable-Baselines3 unless it is installed::

      from sb3_contrib import MaskablePPO
      from sowing.vector import SowingVecEnv
      model = MaskablePPO("MlpPolicy", SowingVecEnv(256, reward="normalized")).learn(100_000)

Both take the options of ``sowing.gym.SowingEnv`` (the game, ``opponent``, ``agent``,
``reward``, ``illegal_action``) with these differences: the opponent is a player name
(``"random"``, ``"greedy"``, ``"level:1"`` … ``"level:6"``, ``"search:…"``, ``"mcts"``;
the engine's players search on a thread pool, one game a task), and ``agent`` may also be
``"alternate"`` (South in the even games and North in the odd ones, each game changing
sides at every restart). Observations and masks are those of the single environment; the
mask of a game that ended at the last step (Gymnasium's next-step autoreset) is all ones,
since its next action is ignored.

The opponent may also be your own policy: a callable ``policy(observations, masks)``
taking float32 observations ``(B, 2N + 8)`` and int8 masks ``(B, N)`` of the B games where
it is to move (from its side's point of view) and returning B actions. It is called once
for all those games, never once a game. A ``League`` of policies (frozen snapshots of a
torch or NumPy policy, say) draws one for each game at its start; ``set_opponent`` changes
it between steps. ``opponent="self"`` is self-play: the agent plays both sides, the
observation and mask are those of the side to move, ``infos["to_move"]`` says which, and
``infos["seat_rewards"]`` gives each seat's reward of the step (South, North).

``threads`` steps the games on that many Rust threads with the GIL released, and
``send(actions)``/``recv()`` (Stable-Baselines3's ``step_async``/``step_wait``) let the
trainer compute while they step.

The environments copy (``copy.deepcopy``) and pickle in the middle of play, and the copy
goes on as the original would (the games' random streams included); an engine opponent is
rebuilt from its seed, without what its search learnt in the game under way. A batch
whose opponent is a Python policy does not pickle.
"""

from __future__ import annotations

import importlib.util
from typing import Any, Callable, Optional, Sequence, Union

import numpy as np

from . import _common
from ._sowing import VectorGame

__all__ = ["League", "Policy", "SowingVectorEnv", "SowingVecEnv", "VectorGame"]

#: A policy: ``policy(observations, masks) -> actions`` for a batch of positions.
Policy = Callable[[np.ndarray, np.ndarray], Any]


class League:
    """Policies that take turns as the opponent: each game draws one at its start, with
    the given weights (all alike by default). Add frozen snapshots as training goes on
    (``league.add(copy.deepcopy(policy))``) and hand the league to ``set_opponent``."""

    def __init__(self, policies: Sequence[Policy] = (), weights: Optional[Sequence[float]] = None):
        self.policies: list[Policy] = list(policies)
        self.weights: list[float] = (
            [1.0] * len(self.policies) if weights is None else [float(w) for w in weights]
        )
        if len(self.weights) != len(self.policies):
            raise ValueError(f"{len(self.weights)} weights for {len(self.policies)} policies")

    def add(self, policy: Policy, weight: float = 1.0) -> None:
        """Adds ``policy``, drawn with ``weight``, for the games that start from now on."""
        self.policies.append(policy)
        self.weights.append(float(weight))

    def __len__(self) -> int:
        return len(self.policies)

    def __repr__(self) -> str:
        return f"League({len(self.policies)} policies, weights={self.weights})"


def _opponent_args(opponent: Any) -> dict[str, Any]:
    """The core's ``opponent`` and ``opponent_weights`` for a name, a policy or a league."""
    if isinstance(opponent, League):
        if not opponent.policies:
            raise ValueError("the league has no policy yet")
        return {"opponent": list(opponent.policies), "opponent_weights": opponent.weights}
    if isinstance(opponent, str) or callable(opponent):
        return {"opponent": opponent}
    raise TypeError(
        "opponent must be a player's name (random, greedy, level:N, self …), a policy "
        f"(a callable taking observations and masks) or a League, not {opponent!r}"
    )

_REWARDS = ("margin", "captures", "normalized", "win")


def _core(
    num_envs: int,
    game: str,
    pits: int,
    opponent: Any,
    agent: str,
    reward: str,
    illegal_action: str,
    autoreset: str,
    seed: Optional[int],
    options: dict[str, Optional[str]],
    threads: Optional[int] = None,
    engine_memory: int = 1024,
) -> VectorGame:
    if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)):
        raise TypeError(f"num_envs must be an integer, not {num_envs!r}")
    if num_envs < 1:
        raise ValueError(f"num_envs must be at least 1, not {num_envs}")
    return VectorGame(
        int(num_envs), game, pits, **_opponent_args(opponent), agent=agent, reward=reward,
        illegal_action=illegal_action, autoreset=autoreset, seed=_seed_of(seed),
        threads=threads, engine_memory=engine_memory, **_common.game_options(options),
    )


def _spaces(core: VectorGame) -> tuple[Any, Any]:
    from gymnasium import spaces

    observation = spaces.Box(
        0.0, float(core.seeds), shape=(core.observation_size,), dtype=np.float32
    )
    return observation, spaces.Discrete(core.num_actions)


def _renders(core: VectorGame, render_mode: Optional[str]) -> Optional[tuple[Any, ...]]:
    if render_mode is None:
        return None
    from . import render

    games = [core.game(i) for i in range(core.num_envs)]
    if render_mode == "ansi":
        return tuple(_common.board_text(game) for game in games)
    return tuple(render.board_image(game) for game in games)


def _seed_of(seed: Union[None, int, Sequence[Optional[int]]]) -> Optional[int]:
    """One seed for the core from Gymnasium's seed argument (an int, or a list whose first
    entry seeds them all: every game has its own stream, drawn from one seed). Seeds of
    64 bits and more (Gymnasium takes any) are folded to 64 by NumPy's ``SeedSequence``."""
    if seed is None:
        return None
    if isinstance(seed, (list, tuple)):
        return _seed_of(seed[0])
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be None or a non-negative integer, not {seed!r}")
    if seed >= 2**64:
        return int(np.random.SeedSequence(int(seed)).generate_state(1, np.uint64)[0])
    return int(seed)


def _check_started(core: VectorGame, started: bool) -> None:
    """Refuses a step before the first ``reset()``, or after a step cut short, as the
    single environment does (Gymnasium's ``ResetNeeded``, else a ``RuntimeError``)."""
    if started and not core.needs_reset:
        return
    why = "a step was cut short" if started else "the environment was never reset"
    message = f"{why}: call reset() before step()"
    if _gymnasium is not None:
        raise _gymnasium.error.ResetNeeded(message)
    raise RuntimeError(message)


try:
    import gymnasium as _gymnasium
except ImportError:  # pragma: no cover - Gymnasium is needed for SowingVectorEnv only
    _gymnasium = None  # type: ignore[assignment]


if _gymnasium is not None:
    from gymnasium.vector import AutoresetMode as _AutoresetMode
    from gymnasium.vector.utils import batch_space as _batch_space

    class SowingVectorEnv(_gymnasium.vector.VectorEnv):
        """``num_envs`` games of one agent against ``opponent``, as Gymnasium's
        ``VectorEnv``. See the module's documentation for the options.

        ``autoreset_mode`` is Gymnasium's ``AutoresetMode.NEXT_STEP`` (the default: the
        step that ends a game returns its last observation, the next one restarts it) or
        ``SAME_STEP`` (the step restarts it at once, its last observation and info in
        ``infos["final_obs"]`` and ``infos["final_info"]``). ``infos["action_mask"]``
        holds the masks, as the single environment's ``info["action_mask"]``, and
        ``action_masks()`` returns them too (sb3-contrib's convention).

        ``copy`` (True): return fresh arrays from ``step`` and ``reset``; with False, the
        core's own arrays, overwritten by the next step. ``threads`` and
        ``engine_memory`` (MiB, the engine opponents' tables in all) go to the core.
        ``send(actions)`` then ``recv()`` is ``step`` in two halves, the games stepping in
        between while the caller computes.
        """

        metadata = {
            "render_modes": ["ansi", "rgb_array"],
            "render_fps": 4,
            "autoreset_mode": _AutoresetMode.NEXT_STEP,
        }

        def __init__(
            self,
            num_envs: int = 1,
            game: str = "hoyito-ii",
            pits: int = 6,
            opponent: Any = "random",
            agent: str = "south",
            reward: str = "margin",
            illegal_action: str = "lose",
            render_mode: Optional[str] = None,
            autoreset_mode: Union[str, Any] = _AutoresetMode.NEXT_STEP,
            copy: bool = True,
            seed: Optional[int] = None,
            threads: Optional[int] = None,
            engine_memory: int = 1024,
            **options: Optional[str],
        ) -> None:
            if render_mode is not None and render_mode not in self.metadata["render_modes"]:
                raise ValueError(
                    f"render_mode must be None, 'ansi' or 'rgb_array', not {render_mode!r}"
                )
            mode = _AutoresetMode(autoreset_mode)
            if mode not in (_AutoresetMode.NEXT_STEP, _AutoresetMode.SAME_STEP):
                raise ValueError(f"autoreset_mode must be NEXT_STEP or SAME_STEP, not {mode}")
            self.core = _core(
                num_envs, game, pits, opponent, agent, reward, illegal_action,
                "same-step" if mode == _AutoresetMode.SAME_STEP else "next-step", seed,
                options, threads, engine_memory,
            )
            self._started = False
            self.metadata = {**type(self).metadata, "autoreset_mode": mode}
            self.num_envs = self.core.num_envs
            self.render_mode = render_mode
            self.copy = copy
            self.single_observation_space, self.single_action_space = _spaces(self.core)
            self.observation_space = _batch_space(self.single_observation_space, self.num_envs)
            self.action_space = _batch_space(self.single_action_space, self.num_envs)
            self._all = np.ones(self.num_envs, dtype=np.bool_)

        def _out(self, array: np.ndarray) -> np.ndarray:
            return array.copy() if self.copy else array

        def _infos(self) -> dict[str, Any]:
            infos = {"action_mask": self._out(self.core.masks), "_action_mask": self._all.copy()}
            if self.core.opponent == "self":
                infos["to_move"] = self._out(self.core.agents)
                infos["seat_rewards"] = self._out(self.core.seat_rewards)
            return infos

        def set_opponent(self, opponent: Any) -> None:
            """Changes a policy opponent (a policy or a ``League``) for the games that
            start from now on; the games under way keep theirs."""
            self.core.set_opponent(**_opponent_args(opponent))

        def reset(
            self,
            *,
            seed: Union[None, int, Sequence[Optional[int]]] = None,
            options: Optional[dict[str, Any]] = None,
        ) -> tuple[np.ndarray, dict[str, Any]]:
            """Restarts the games (only those of ``options["reset_mask"]`` if given);
            ``seed`` reseeds them all, so that the same seed replays the same games."""
            super().reset(seed=_seed_of(seed))
            mask = None
            if options and "reset_mask" in options:
                mask = np.asarray(options["reset_mask"], dtype=np.bool_)
                if mask.shape != (self.num_envs,):
                    raise ValueError(
                        f"reset_mask must be {self.num_envs} booleans, not shape {mask.shape}"
                    )
            self.core.reset(_seed_of(seed), mask)
            self._started = True
            return self._out(self.core.observations), self._infos()

        def step(
            self, actions: Any
        ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
            _check_started(self.core, self._started)
            self.core.step(actions)
            return self._results()

        def send(self, actions: Any) -> None:
            """Starts ``step(actions)`` on the core's threads and returns at once."""
            _check_started(self.core, self._started)
            self.core.send(actions)

        def recv(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
            """Waits for the step ``send`` started and returns what ``step`` would."""
            self.core.recv()
            return self._results()

        def _results(
            self,
        ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
            terminations = self._out(self.core.terminations)
            infos = self._infos()
            if self.metadata["autoreset_mode"] == _AutoresetMode.SAME_STEP and terminations.any():
                ended = terminations.copy()
                final = np.empty(self.num_envs, dtype=object)
                final[:] = None
                for i in np.flatnonzero(ended):
                    final[i] = self.core.final_observations[i].copy()
                infos["final_obs"] = final
                infos["_final_obs"] = ended
                infos["final_info"] = {}
                infos["_final_info"] = ended.copy()
            return (
                self._out(self.core.observations),
                self._out(self.core.rewards),
                terminations,
                np.zeros(self.num_envs, dtype=np.bool_),
                infos,
            )

        def action_masks(self) -> np.ndarray:
            """bool ``(num_envs, N)``: the agent's legal columns in each game."""
            return self.core.masks.astype(np.bool_)

        def render(self) -> Optional[tuple[Any, ...]]:
            """Each game's board: text (``"ansi"``) or an RGB image (``"rgb_array"``)."""
            return _renders(self.core, self.render_mode)

else:  # pragma: no cover

    class SowingVectorEnv:  # type: ignore[no-redef]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            raise ImportError("SowingVectorEnv needs Gymnasium: pip install gymnasium")


class SowingVecEnv:
    """``num_envs`` games of one agent against ``opponent``, as Stable-Baselines3's
    ``VecEnv`` (``reset``/``step_async``/``step_wait``, ``infos[i]["terminal_observation"]``
    when game ``i`` ended and restarted, ``env_method("action_masks")`` and
    ``action_masks()`` for sb3-contrib's MaskablePPO). Registered as a virtual subclass
    of ``stable_baselines3.common.vec_env.VecEnv`` when Stable-Baselines3 is installed,
    so that its algorithms take it as it is, with no ``DummyVecEnv`` around it.

    Options as ``SowingVectorEnv``; ``seed`` seeds the first reset. ``step_async``
    starts the step on the core's threads (unless the opponent is a Python policy) and
    ``step_wait`` waits for it.
    """

    def __init__(
        self,
        num_envs: int = 1,
        game: str = "hoyito-ii",
        pits: int = 6,
        opponent: Any = "random",
        agent: str = "south",
        reward: str = "margin",
        illegal_action: str = "lose",
        render_mode: Optional[str] = None,
        seed: Optional[int] = None,
        threads: Optional[int] = None,
        engine_memory: int = 1024,
        **options: Optional[str],
    ) -> None:
        _register_with_sb3()
        if render_mode not in (None, "ansi", "rgb_array"):
            raise ValueError(
                f"render_mode must be None, 'ansi' or 'rgb_array', not {render_mode!r}"
            )
        self.core = _core(
            num_envs, game, pits, opponent, agent, reward, illegal_action, "same-step",
            seed, options, threads, engine_memory,
        )
        self._started = False
        self._sent = False
        self.num_envs = self.core.num_envs
        self.observation_space, self.action_space = _spaces(self.core)
        self.render_mode = render_mode
        self.metadata = {"render_modes": ["ansi", "rgb_array"]}
        self.reset_infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        self._seed: Optional[int] = seed
        self._options: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        self._actions: Optional[np.ndarray] = None
        self.closed = False

    # The VecEnv interface.

    def reset(self) -> np.ndarray:
        if self._sent:
            self.core.recv()
            self._sent = False
        self.core.reset(_seed_of(self._seed))
        self._started = True
        self._seed = None
        self.reset_infos = [{} for _ in range(self.num_envs)]
        return self.core.observations.copy()

    def step_async(self, actions: np.ndarray) -> None:
        _check_started(self.core, self._started)
        if self.core.threads > 1 and self.core.opponent not in ("policy", "league"):
            self.core.send(actions)
            self._sent = True
        else:
            self._actions = actions

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        if self._sent:
            self._sent = False
            self.core.recv()
        elif self._actions is not None:
            actions, self._actions = self._actions, None
            self.core.step(actions)
        else:
            raise RuntimeError("step_wait without step_async")
        dones = self.core.terminations.copy()
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if dones.any():
            final = self.core.final_observations
            for i in np.flatnonzero(dones):
                infos[i]["terminal_observation"] = final[i].copy()
                infos[i]["TimeLimit.truncated"] = False
        return self.core.observations.copy(), self.core.rewards.copy(), dones, infos

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        self.step_async(actions)
        return self.step_wait()

    def close(self) -> None:
        if self._sent:
            self.core.recv()
            self._sent = False
        self.closed = True

    def set_opponent(self, opponent: Any) -> None:
        """As ``SowingVectorEnv.set_opponent``."""
        self.core.set_opponent(**_opponent_args(opponent))

    def action_masks(self) -> np.ndarray:
        """bool ``(num_envs, N)``: the agent's legal columns in each game."""
        return self.core.masks.astype(np.bool_)

    def _indices(self, indices: Union[None, int, Sequence[int]]) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, (int, np.integer)):
            return [int(indices)]
        return [int(i) for i in indices]

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        return [getattr(self, attr_name) for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        setattr(self, attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
    ) -> list[Any]:
        chosen = self._indices(indices)
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in chosen]
        result = getattr(self, method_name)(*method_args, **method_kwargs)
        return [result for _ in chosen]

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False for _ in self._indices(indices)]

    def has_attr(self, attr_name: str) -> bool:
        return hasattr(self, attr_name)

    def seed(self, seed: Optional[int] = None) -> Sequence[Optional[int]]:
        """Seeds the next reset (every game its own stream, drawn from ``seed``)."""
        self._seed = seed
        return [seed for _ in range(self.num_envs)]

    def set_options(self, options: Union[list[dict[str, Any]], dict[str, Any], None] = None) -> None:
        if options is None:
            options = {}
        if isinstance(options, dict):
            options = [options] * self.num_envs
        self._options = list(options)

    def get_images(self) -> Sequence[Optional[np.ndarray]]:
        from . import render

        return [render.board_image(self.core.game(i)) for i in range(self.num_envs)]

    def render(self, mode: Optional[str] = None) -> Optional[Any]:
        renders = _renders(self.core, mode or self.render_mode)
        return None if renders is None else renders[0]

    def getattr_depth_check(self, name: str, already_found: bool) -> Optional[str]:
        if hasattr(self, name) and already_found:
            return f"{type(self).__module__}.{type(self).__name__}"
        return None

    @property
    def unwrapped(self) -> "SowingVecEnv":
        return self


def _register_with_sb3() -> None:
    """Makes ``SowingVecEnv`` a ``VecEnv`` for Stable-Baselines3's checks, when it is
    installed (``VecEnv`` is an abstract base class: registering adds no method)."""
    if importlib.util.find_spec("stable_baselines3") is None:
        return
    from stable_baselines3.common.vec_env import VecEnv

    if not issubclass(SowingVecEnv, VecEnv):
        VecEnv.register(SowingVecEnv)
