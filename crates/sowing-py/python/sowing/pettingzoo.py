"""A PettingZoo AEC environment: both sides as agents, ``"player_0"`` (South, who moves
first) and ``"player_1"`` (North), as in PettingZoo's classic environments.

>>> from sowing.pettingzoo import env
>>> e = env(game="ayoayo")
>>> e.reset(seed=0)
>>> for agent in e.agent_iter():
...     observation, reward, termination, truncation, info = e.last()
...     if termination or truncation:
...         action = None
...     else:
...         action = int(observation["action_mask"].argmax())
...     e.step(action)

Each observation is the classic ``{"observation", "action_mask"}`` dict: the float32
``Game.observation`` from that agent's point of view and an int8 mask of its legal
columns (all zero when it is not its turn). The agent to move is the side to move, so a
Hoyito capture gives the same agent the next step too; forced passes are played by the
environment, so an agent is asked only when it has a real choice.

``parallel_env`` is the same game under PettingZoo's Parallel API: every step takes an
action from each live agent and plays the one of the side to move (the other's is
ignored; its mask is all zero). PettingZoo's ``aec_to_parallel`` cannot convert the AEC
environment: it expects the agents to act in a fixed cycle, and here a capture gives the
same side another turn.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

from . import _common
from ._sowing import Game

AGENTS = ["player_0", "player_1"]
SIDES = {"player_0": "south", "player_1": "north"}
AGENT_OF = {"south": "player_0", "north": "player_1"}


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's classic wrappers: an illegal action ends the game
    with the worst reward for its player (minus every seed), actions outside the space are
    refused, and the AEC call order is enforced. Keywords as ``raw_env``."""
    environment = raw_env(**kwargs)
    environment = wrappers.TerminateIllegalWrapper(
        environment, illegal_reward=-float(environment.seeds)
    )
    environment = wrappers.AssertOutOfBoundsWrapper(environment)
    environment = wrappers.OrderEnforcingWrapper(environment)
    return environment


class raw_env(AECEnv):
    """One of the games for two agents.

    Args:
        game, pits, options: the rules (the rule options by keyword: ``casa_rows`` …, those
            of ``sowing.OPTIONS``), as for ``sowing.Game``.
        reward: ``"margin"``: each agent's final seed margin when the game ends (zero-sum);
            ``"captures"``: the change of each agent's margin at every step;
            ``"normalized"``: the final margin over the seeds of the game (-1 … 1);
            ``"win"``: 1, 0 or -1 when the game ends.
        render_mode: ``None``, ``"human"`` (the board printed as text), ``"ansi"`` or
            ``"rgb_array"`` (``sowing.render``).
        max_episode_steps: truncate the game after this many moves (``None``: never; the
            repetition rule ends every game anyway).
    """

    metadata = {
        "render_modes": ["human", "ansi", "rgb_array"],
        "name": "sowing_v0",
        "is_parallelizable": False,
        "render_fps": 4,
    }

    def __init__(
        self,
        game: str = "hoyito-ii",
        pits: int = 6,
        reward: str = "margin",
        render_mode: Optional[str] = None,
        max_episode_steps: Optional[int] = None,
        **options: Optional[str],
    ) -> None:
        super().__init__()
        if max_episode_steps is not None and (
            isinstance(max_episode_steps, bool)
            or not isinstance(max_episode_steps, (int, np.integer))
            or max_episode_steps < 1
        ):
            raise ValueError(
                f"max_episode_steps must be None or a positive integer, not {max_episode_steps!r}"
            )
        self.max_episode_steps = max_episode_steps
        self._steps = 0
        self._rules, self.game = _common.environment_game(
            game, pits, reward, render_mode, self.metadata["render_modes"], options
        )
        n, size, seeds = _common.spaces_size(self.game)
        self._n = n
        self.seeds = seeds
        self.reward_mode = reward
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, float(seeds), shape=(size,), dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, shape=(n,), dtype=np.int8),
                }
            )
            for agent in AGENTS
        }
        self.action_spaces = {agent: spaces.Discrete(n) for agent in AGENTS}

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        mask = np.zeros(self._n, dtype=np.int8)
        if not self.game.is_over and SIDES[agent] == self.game.to_move:
            mask[:] = self.game.action_mask()[: self._n]
        return {"observation": self.game.observation(SIDES[agent]), "action_mask": mask}

    def reset(self, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None) -> None:
        # The games have no chance: the seed changes nothing.
        self.game = Game(**self._rules)
        _common.settle(self.game)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = AGENT_OF[self.game.to_move]
        self._steps = 0

    def step(self, action: Optional[int]) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert action is not None
        self._cumulative_rewards[agent] = 0
        before = _common.margin(self.game, "south")
        self.game.play(_common.integer_action(action))
        _common.settle(self.game)
        after = _common.margin(self.game, "south")
        over = self.game.is_over
        self._steps += 1
        truncated = not over and self._steps == self.max_episode_steps
        south = _common.reward(self.reward_mode, before, after, over, self.seeds)
        self.rewards = {"player_0": south, "player_1": 0.0 - south}
        if over:
            self.terminations = dict.fromkeys(self.agents, True)
            for name in self.agents:
                self.infos[name] = {"result": self.game.result, "end": self.game.end}
        if truncated:
            self.truncations = dict.fromkeys(self.agents, True)
        if over or truncated:
            self.agent_selection = AGENT_OF[_common.other(SIDES[agent])]
        else:
            self.agent_selection = AGENT_OF[self.game.to_move]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Any:
        if self.render_mode == "rgb_array":
            from .render import board_image

            return board_image(self.game)
        if self.render_mode is None:
            return None
        if self.render_mode == "human":
            print(_common.board_text(self.game))
            return None
        return _common.board_text(self.game)

    def close(self) -> None:
        pass


def parallel_env(**kwargs: Any) -> ParallelEnv:
    """The game under PettingZoo's Parallel API. Keywords as ``raw_env``."""
    return parallel_raw_env(**kwargs)


class parallel_raw_env(ParallelEnv):
    """One of the games for two agents who both answer every step: the action of the
    side to move is played, the other one's ignored (its mask is all zero, so a masked
    sample gives anything). An illegal action of the mover ends the game with the worst
    reward for it (minus every seed) and 0 for the other, as ``env()``'s wrappers do, with
    ``infos[agent]["illegal_action"]``. Keywords and observations as ``raw_env``."""

    metadata = {**raw_env.metadata, "name": "sowing_parallel_v0", "is_parallelizable": True}

    def __init__(self, **kwargs: Any) -> None:
        super().__init__()
        self.aec = raw_env(**kwargs)
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        self.render_mode = self.aec.render_mode

    def observation_space(self, agent: str) -> spaces.Space:
        return self.aec.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Space:
        return self.aec.action_space(agent)

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        return {agent: self.aec.observe(agent) for agent in AGENTS}

    def reset(
        self, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        self.aec.reset(seed=seed, options=options)
        self.agents = list(AGENTS)
        infos = {agent: {"to_move": self.aec.agent_selection} for agent in AGENTS}
        return self._observations(), infos

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], ...]:
        if not self.agents:
            raise RuntimeError("the game is over: call reset() before step()")
        mover = self.aec.agent_selection
        if actions.get(mover) is None:
            raise ValueError(f"{mover} is to move and has no action in {actions!r}")
        action = _common.integer_action(actions[mover])
        mask = self.aec.observe(mover)["action_mask"]
        infos: dict[str, dict[str, Any]]
        if 0 <= action < len(mask) and mask[action]:
            self.aec.step(action)
            rewards = {agent: float(self.aec.rewards[agent]) for agent in AGENTS}
            terminations = {agent: bool(self.aec.terminations[agent]) for agent in AGENTS}
            truncations = {agent: bool(self.aec.truncations[agent]) for agent in AGENTS}
            infos = {agent: dict(self.aec.infos[agent]) for agent in AGENTS}
        else:
            rewards = {agent: 0.0 for agent in AGENTS}
            rewards[mover] = -float(self.aec.seeds)
            terminations = dict.fromkeys(AGENTS, True)
            truncations = dict.fromkeys(AGENTS, False)
            infos = {agent: {"illegal_action": agent == mover} for agent in AGENTS}
        for agent in AGENTS:
            infos[agent]["to_move"] = self.aec.agent_selection
        observations = self._observations()
        if any(terminations.values()) or any(truncations.values()):
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> Any:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()
