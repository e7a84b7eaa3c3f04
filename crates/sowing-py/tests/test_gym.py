"""The Gymnasium environments: registered on import, Gymnasium's own checker, rewards."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import sowing
from sowing.gym import ENVIRONMENTS, SowingEnv

IDS = ["sowing/HoyitoII-v0", "sowing/HoyitoIII-v0", "sowing/Ayoayo-v0", "sowing/HoyitoII12-v0"]


def test_registered_on_import():
    assert set(IDS) == set(ENVIRONMENTS)
    for env_id in IDS:
        assert env_id in gymnasium.registry


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize("opponent", ["level:3", "random"])
def test_gymnasium_check_env(env_id, opponent):
    env = gymnasium.make(env_id, opponent=opponent)
    with_warnings = []
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped, skip_render_check=False)
        with_warnings = [str(w.message) for w in caught]
    assert with_warnings == []


def play_out(env, rng, **reset):
    observation, info = env.reset(**reset)
    total, steps, rewards = 0.0, 0, []
    while True:
        assert env.observation_space.contains(observation)
        mask = info["action_mask"]
        assert mask.dtype == np.int8 and mask.any()  # asked only with a choice
        assert env.unwrapped.game.to_move == env.unwrapped.agent
        action = int(rng.choice(np.flatnonzero(mask)))
        observation, reward, terminated, truncated, info = env.step(action)
        rewards.append(reward)
        steps += 1
        assert not truncated
        if terminated:
            assert not info["action_mask"].any()
            return rewards, info


@pytest.mark.parametrize("agent", ["south", "north"])
def test_margin_reward_is_paid_at_the_end(agent):
    env = gymnasium.make("sowing/HoyitoIII-v0", opponent="greedy", agent=agent)
    rewards, info = play_out(env, np.random.default_rng(0), seed=3)
    game = env.unwrapped.game
    south, north = game.captured
    margin = south - north if agent == "south" else north - south
    assert rewards[-1] == margin and all(r == 0 for r in rewards[:-1])
    assert info["result"] == game.result


def test_captures_reward_adds_up_to_the_margin():
    env = gymnasium.make("sowing/Ayoayo-v0", opponent="level:1", reward="captures")
    rewards, _ = play_out(env, np.random.default_rng(1), seed=4)
    south, north = env.unwrapped.game.captured
    assert sum(rewards) == south - north
    assert any(r != 0 for r in rewards[:-1])


def test_seeded_resets_replay_the_same_game():
    env = gymnasium.make("sowing/HoyitoII-v0", opponent="level:2")
    first, _ = play_out(env, np.random.default_rng(5), seed=9)
    moves = env.unwrapped.game.moves
    second, _ = play_out(env, np.random.default_rng(5), seed=9)
    assert first == second and env.unwrapped.game.moves == moves


def test_engine_object_as_opponent():
    env = SowingEnv(game="ayoayo", opponent=sowing.Engine(level=1, seed=3))
    play_out(env, np.random.default_rng(2), seed=1)


EMPTY_A = "hoyito-ii 0,4,4,4,4,4/4,4,4,4,4,4 4-0 S -"


def test_illegal_action_loses_or_raises():
    env = gymnasium.make("sowing/HoyitoII-v0")
    env.reset(seed=0)
    env.unwrapped.game = sowing.Game.from_text(EMPTY_A)
    _, reward, terminated, _, info = env.step(0)
    assert terminated and reward == -48.0 and info["illegal_action"]
    strict = gymnasium.make("sowing/HoyitoII-v0", illegal_action="raise")
    strict.reset(seed=0)
    strict.unwrapped.game = sowing.Game.from_text(EMPTY_A)
    with pytest.raises(sowing.IllegalMoveError, match="action 0 is not legal"):
        strict.step(0)
    with pytest.raises(sowing.IllegalMoveError, match="action 6 is not legal"):
        strict.step(6)
    assert strict.unwrapped.game.position_text == EMPTY_A


def test_render_ansi():
    env = gymnasium.make("sowing/HoyitoII12-v0", render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert "l  k  j" in text and "A  B  C" in text and "south to move" in text


@pytest.mark.parametrize(
    "kwargs",
    [dict(agent="east"), dict(reward="score"), dict(illegal_action="ignore"),
     dict(opponent="chess"), dict(render_mode="text")],
)
def test_bad_arguments(kwargs):
    with pytest.raises(ValueError):
        gymnasium.make("sowing/HoyitoII-v0", **kwargs)
