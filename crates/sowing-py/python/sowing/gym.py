"""Gymnasium environments: one agent against an engine player.

Importing ``sowing`` registers (when Gymnasium is installed)::

    sowing/HoyitoII-v0     Hoyito II, 2x6
    sowing/HoyitoII12-v0   Hoyito II, 2x12
    sowing/HoyitoIII-v0    Hoyito III
    sowing/Ayoayo-v0       Ayoayo

>>> import gymnasium, sowing
>>> env = gymnasium.make("sowing/HoyitoII-v0", opponent="level:3")
>>> obs, info = env.reset(seed=1)
>>> action = int(info["action_mask"].argmax())
>>> obs, reward, terminated, truncated, info = env.step(action)

Actions are the columns of the agent's pits (``Discrete(N)``); ``info["action_mask"]``
(int8) says which are legal. The agent is asked only when it has a real choice: the
opponent's moves, extra turns of the opponent and every forced pass are played inside
``step``. An extra turn of the agent (a Hoyito capture) is simply its next step.
"""

from __future__ import annotations

from typing import Any, Optional, Union

import gymnasium
import numpy as np
from gymnasium import spaces

from . import _common
from ._sowing import Engine, Game, IllegalMoveError


class SowingEnv(gymnasium.Env):
    """One of the games against an engine player.

    Args:
        game: ``"hoyito-ii"``, ``"hoyito-iii"`` or ``"ayoayo"``.
        pits: pits a row (12 for Hoyito II's long board).
        opponent: a player name (``"random"``, ``"greedy"``, ``"level:1"`` …
            ``"level:6"``, ``"mcts"``, ``"search:…"``) or an ``Engine``; a name is built
            anew at each ``reset`` with a seed drawn from the environment's generator, so
            that a seeded reset replays the same game.
        agent: the side the agent plays, ``"south"`` (moves first) or ``"north"``.
        reward: ``"margin"``: the final seed margin (agent's captures less the opponent's)
            on the last step, 0 before; ``"captures"``: the change of that margin over
            each step, which adds up to the same total; ``"normalized"``: the final
            margin divided by the seeds of the game (-1 … 1, what PPO learns best from);
            ``"win"``: 1, 0 or -1 on the last step.
        illegal_action: ``"lose"``: an illegal action ends the episode with the worst
            reward (minus every seed of the game; -1 for ``normalized`` and ``win``) and
            ``info["illegal_action"] = True``; ``"raise"``: raises ``IllegalMoveError``.
            An action that is not an integer (2.7, ``"A"``) raises ``TypeError`` either
            way, and so does stepping a finished episode (``ResetNeeded``) before
            ``reset``.
        options: the rule options (``casa_rows``, ``leftover``, ``final_four``: those
            of ``sowing.OPTIONS``), as for ``sowing.Game``.

    Observation: float32 ``2N + 8`` from the agent's point of view (``Game.observation``):
    its pits, the opponent's, both captures, whether it is to move, the last sower and
    who takes the last four. ``action_masks()`` gives the legal actions (sb3-contrib's
    convention for MaskablePPO), as ``info["action_mask"]`` does.

    Render modes: ``"ansi"`` (the board as text) and ``"rgb_array"`` (as the web page
    draws it, ``sowing.render.board_image``). Environments copy (``copy.deepcopy``) and
    pickle, an ``Engine`` opponent with them (without what its search learnt).
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}

    def __init__(
        self,
        game: str = "hoyito-ii",
        pits: int = 6,
        opponent: Union[str, Engine] = "random",
        agent: str = "south",
        reward: str = "margin",
        illegal_action: str = "lose",
        render_mode: Optional[str] = None,
        **options: Optional[str],
    ) -> None:
        if agent not in ("south", "north"):
            raise ValueError(f"agent must be south or north, not {agent!r}")
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action must be lose or raise, not {illegal_action!r}")
        self._rules, self.game = _common.environment_game(
            game, pits, reward, render_mode, self.metadata["render_modes"], options
        )
        n, size, seeds = _common.spaces_size(self.game)
        self._n = n
        self._seeds = seeds
        if isinstance(opponent, str):
            Engine(player=opponent)  # refuse an unknown name now, not at reset
        self._opponent_spec = opponent
        # A name is built at each reset; an Engine (or any object with its best_move and
        # new_game) is used as it is.
        self._engine: Optional[Engine] = None if isinstance(opponent, str) else opponent
        self._started = False
        self._lost = False
        self.agent = agent
        self.reward_mode = reward
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(n)
        self.observation_space = spaces.Box(0.0, float(seeds), shape=(size,), dtype=np.float32)

    def action_masks(self) -> np.ndarray:
        """bool ``(N,)``: the agent's legal actions now (none once the episode is over)."""
        return self._mask().astype(np.bool_)

    def _mask(self) -> np.ndarray:
        mask = np.zeros(self._n, dtype=np.int8)
        if not self.game.is_over and self.game.to_move == self.agent:
            mask[:] = self.game.action_mask()[: self._n]
        return mask

    def _observe(self) -> tuple[np.ndarray, dict[str, Any]]:
        return self.game.observation(self.agent), _common.info_of(
            self.game, action_mask=self._mask()
        )

    def _advance(self) -> None:
        """Plays the opponent's moves and every forced pass until the agent has a choice."""
        game = self.game
        while not game.is_over:
            if game.legal_actions() == [self._n]:
                game.play("pass")
            elif game.to_move == self.agent:
                return
            else:
                assert self._engine is not None
                game.play(self._engine.best_move(game))

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self.game = Game(**self._rules)
        self._lost = False
        self._started = True
        if isinstance(self._opponent_spec, str):
            engine_seed = int(self.np_random.integers(0, 2**63 - 1))
            self._engine = Engine(player=self._opponent_spec, seed=engine_seed)
        else:
            self._opponent_spec.new_game()
        self._advance()
        return self._observe()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        action = _common.integer_action(action)
        if self.game.is_over or self._lost or not self._started:
            raise gymnasium.error.ResetNeeded(
                "the episode is over (or never started): call reset() before step()"
            )
        mask = self._mask()
        if not (0 <= action < self._n and mask[action]):
            if self.illegal_action == "raise":
                legal = [int(a) for a in np.flatnonzero(mask)]
                raise IllegalMoveError(
                    f"action {action} is not legal (legal: {legal}; position "
                    f"{self.game.position_text})"
                )
            observation, info = self._observe()
            info["illegal_action"] = True
            self._lost = True
            worst = _common.worst_reward(self.reward_mode, self._seeds)
            return observation, worst, True, False, info
        before = _common.margin(self.game, self.agent)
        self.game.play(action)
        self._advance()
        after = _common.margin(self.game, self.agent)
        terminated = self.game.is_over
        reward = _common.reward(self.reward_mode, before, after, terminated, self._seeds)
        observation, info = self._observe()
        return observation, reward, terminated, False, info

    def render(self) -> Union[None, str, np.ndarray]:
        if self.render_mode == "ansi":
            return _common.board_text(self.game)
        if self.render_mode == "rgb_array":
            from .render import board_image

            return board_image(self.game)
        return None


ENVIRONMENTS = {
    "sowing/HoyitoII-v0": {"game": "hoyito-ii"},
    "sowing/HoyitoII12-v0": {"game": "hoyito-ii", "pits": 12},
    "sowing/HoyitoIII-v0": {"game": "hoyito-iii"},
    "sowing/Ayoayo-v0": {"game": "ayoayo"},
}


def register() -> None:
    """Registers the environments with Gymnasium (done on ``import sowing``); the vector
    environment stepped in Rust (``sowing.vector.SowingVectorEnv``) is each id's
    ``vector_entry_point``, for ``gymnasium.make_vec(…,
    vectorization_mode="vector_entry_point")``."""
    for env_id, kwargs in ENVIRONMENTS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point="sowing.gym:SowingEnv",
                vector_entry_point="sowing.vector:SowingVectorEnv",
                kwargs=kwargs,
            )


register()
