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
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
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
        render_mode: ``None``, ``"ansi"`` or ``"rgb_array"`` (``sowing.render``).
    """

    metadata = {
        "render_modes": ["ansi", "rgb_array"],
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
        **options: Optional[str],
    ) -> None:
        super().__init__()
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
        south = _common.reward(self.reward_mode, before, after, over, self.seeds)
        self.rewards = {"player_0": south, "player_1": 0.0 - south}
        if over:
            self.terminations = dict.fromkeys(self.agents, True)
            for name in self.agents:
                self.infos[name] = {"result": self.game.result, "end": self.game.end}
            self.agent_selection = AGENT_OF[_common.other(SIDES[agent])]
        else:
            self.agent_selection = AGENT_OF[self.game.to_move]
        self._accumulate_rewards()

    def render(self) -> Any:
        if self.render_mode == "rgb_array":
            from .render import board_image

            return board_image(self.game)
        if self.render_mode is None:
            return None
        return _common.board_text(self.game)

    def close(self) -> None:
        pass
