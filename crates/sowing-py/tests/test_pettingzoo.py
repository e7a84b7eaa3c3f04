"""The PettingZoo environments: the AEC one (api_test, seed_test, render_test) and the
Parallel one (parallel_api_test, parallel_seed_test), and play."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from pettingzoo.test import (
    api_test,
    parallel_api_test,
    parallel_seed_test,
    render_test,
    seed_test,
)
from pettingzoo.utils.conversions import aec_to_parallel

import sowing
from sowing.pettingzoo import env, parallel_env, raw_env

GAMES = [dict(game="hoyito-ii"), dict(game="hoyito-ii", pits=12), dict(game="hoyito-iii"),
         dict(game="ayoayo")]


@pytest.mark.parametrize("rules", GAMES)
def test_api_test(rules):
    api_test(env(**rules), num_cycles=1000, verbose_progress=False)


@pytest.mark.parametrize("rules", GAMES)
def test_seed_test(rules):
    seed_test(functools.partial(env, **rules), num_cycles=200)


@pytest.mark.parametrize("reward", ["margin", "captures"])
def test_zero_sum_rewards_add_up_to_the_margin(reward):
    e = env(game="hoyito-iii", reward=reward)
    e.reset(seed=0)
    rng = np.random.default_rng(3)
    totals = {"player_0": 0.0, "player_1": 0.0}
    for agent in e.agent_iter():
        observation, reward_now, termination, truncation, info = e.last()
        totals[agent] += reward_now
        if termination or truncation:
            e.step(None)
            continue
        assert observation["action_mask"].any()
        e.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    game = e.unwrapped.game
    south, north = game.captured
    assert totals["player_0"] == south - north == -totals["player_1"]


def test_only_the_agent_to_move_has_a_mask():
    e = raw_env(game="ayoayo")
    e.reset()
    assert e.observe("player_0")["action_mask"].tolist() == [1] * 6
    assert e.observe("player_1")["action_mask"].tolist() == [0] * 6


def test_illegal_action_ends_the_game_for_its_player():
    e = env(game="hoyito-ii")
    e.reset()
    e.unwrapped.game = sowing.Game.from_text("hoyito-ii 0,4,4,4,4,4/4,4,4,4,4,4 4-0 S -")
    assert e.observe("player_0")["action_mask"].tolist() == [0, 1, 1, 1, 1, 1]
    e.step(0)  # PettingZoo logs a warning
    assert e.rewards["player_0"] == -48.0 and e.rewards["player_1"] == 0
    assert all(e.terminations.values())


@pytest.mark.parametrize("rules", GAMES)
def test_parallel_api_test(rules):
    parallel_api_test(parallel_env(**rules), num_cycles=1000)


def test_parallel_seed_test():
    parallel_seed_test(functools.partial(parallel_env, game="ayoayo"), num_cycles=200)


def test_render_test_with_every_mode_including_human(capsys):
    render_test(env)
    assert "human" in raw_env.metadata["render_modes"]
    e = env(render_mode="human")
    e.reset()
    assert e.render() is None
    assert "S" in capsys.readouterr().out  # the board was printed


def test_aec_to_parallel_is_refused_with_the_reason_and_parallel_env_is_the_way():
    # The AEC environment is not parallelizable: a capture gives the same side another
    # turn, and PettingZoo's conversion wants the agents in a fixed cycle.
    assert raw_env.metadata["is_parallelizable"] is False
    with pytest.raises(AssertionError):
        aec_to_parallel(env())
    assert parallel_env().metadata["is_parallelizable"] is True


@pytest.mark.parametrize("rules", GAMES)
def test_the_parallel_game_is_the_aec_game(rules):
    aec, par = raw_env(**rules), parallel_env(**rules)
    aec.reset()
    observations, infos = par.reset()
    rng = np.random.default_rng(0)
    while par.agents:
        mover = aec.agent_selection
        assert infos["player_0"]["to_move"] == mover
        for agent in ("player_0", "player_1"):
            assert np.array_equal(observations[agent]["observation"],
                                  aec.observe(agent)["observation"])
        legal = np.flatnonzero(observations[mover]["action_mask"])
        action = int(rng.choice(legal))
        # The waiting agent's action is ignored, whatever it is.
        actions = {agent: (action if agent == mover else 5) for agent in par.agents}
        observations, rewards, terminations, truncations, infos = par.step(actions)
        aec.step(action)
        assert rewards == aec.rewards
        assert terminations == aec.terminations
    assert aec.game.is_over


def test_the_parallel_game_refuses_a_missing_or_illegal_move():
    par = parallel_env(game="hoyito-ii")
    observations, infos = par.reset()
    with pytest.raises(ValueError, match="player_0 is to move"):
        par.step({"player_1": 0})
    while observations[par.aec.agent_selection]["action_mask"].all():
        mover = par.aec.agent_selection
        observations, *_ = par.step({mover: int(observations[mover]["action_mask"].argmax())})
    mover = par.aec.agent_selection
    illegal = int(np.flatnonzero(observations[mover]["action_mask"] == 0)[0])
    _, rewards, terminations, _, infos = par.step({mover: illegal})
    assert rewards[mover] == -48.0 and all(terminations.values())
    assert infos[mover]["illegal_action"] and par.agents == []
    with pytest.raises(RuntimeError, match="reset"):
        par.step({mover: 0})


def test_max_episode_steps_truncates_both_agents():
    e = raw_env(game="ayoayo", max_episode_steps=5)
    e.reset()
    steps = 0
    while not any(e.truncations.values()):
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
        steps += 1
    assert steps == 5 and all(e.truncations.values()) and not any(e.terminations.values())
    par = parallel_env(game="ayoayo", max_episode_steps=3)
    observations, _ = par.reset()
    for _ in range(3):
        mover = par.aec.agent_selection
        action = int(np.flatnonzero(observations[mover]["action_mask"])[0])
        observations, _, _, truncations, _ = par.step({mover: action})
    assert all(truncations.values()) and par.agents == []
    with pytest.raises(ValueError, match="max_episode_steps"):
        raw_env(max_episode_steps=0)
