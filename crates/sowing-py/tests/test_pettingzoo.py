"""The PettingZoo AEC environment: PettingZoo's api_test and seed_test, and play."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import sowing
from sowing.pettingzoo import env, raw_env

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
