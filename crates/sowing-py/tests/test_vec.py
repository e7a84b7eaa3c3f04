"""sowing.VecGame against the plain environment (the PettingZoo one), move for move."""

from __future__ import annotations

import numpy as np
import pytest

import sowing
from sowing.pettingzoo import raw_env

SIDE_INDEX = {"player_0": 0, "player_1": 1}


@pytest.mark.parametrize(
    "rules",
    [dict(game="hoyito-ii"), dict(game="hoyito-ii", pits=12), dict(game="hoyito-iii"),
     dict(game="ayoayo"), dict(game="ayoayo", leftover="holder")],
)
@pytest.mark.parametrize("reward", ["margin", "captures"])
def test_vec_game_matches_the_plain_environment(rules, reward):
    n = 6
    steps = 1500 if rules.get("pits") != 12 else 600
    vec = sowing.VecGame(n, reward=reward, **rules)
    plain = [raw_env(reward=reward, **rules) for _ in range(n)]
    for env in plain:
        env.reset()
    rng = np.random.default_rng(11)
    finished = repeated = 0
    observations, masks = vec.reset()
    for _ in range(steps):
        for i, env in enumerate(plain):
            agent = env.agent_selection
            seen = env.observe(agent)
            assert np.array_equal(observations[i], seen["observation"])
            assert np.array_equal(masks[i], seen["action_mask"])
            assert vec.to_move[i] == SIDE_INDEX[agent]
        actions = np.array(
            [rng.choice(np.flatnonzero(masks[i])) for i in range(n)], dtype=np.int64)
        out = vec.step(actions)
        assert out[0] is observations and out[3] is masks  # written in place
        _, rewards, terminations, _ = out
        for i, env in enumerate(plain):
            mover = env.agent_selection
            env.step(int(actions[i]))
            assert rewards[i] == env.rewards[mover]
            assert terminations[i] == env.terminations[mover]
            if terminations[i]:
                finished += 1
                repeated += env.game.end == "repetition"
                env.reset()
    assert finished > 0
    if rules in (dict(game="hoyito-ii"), dict(game="hoyito-iii")):
        # The repetition rule (C.3) ends some of these games (about 7% of random Hoyito
        # games on 2x6), so VecGame's own check (a Bloom filter of the hashes, then the
        # positions) is exercised here, not only the plain game's.
        assert repeated > 0


def test_vec_game_of_one_game_is_its_game():
    vec = sowing.VecGame(1, "ayoayo")
    game = sowing.Game("ayoayo")
    rng = np.random.default_rng(1)
    while True:
        action = int(rng.choice(np.flatnonzero(vec.masks[0])))
        mover = game.to_move
        game.play(action)
        while not game.is_over and game.legal_moves() == ["pass"]:
            game.play("pass")
        vec.step(np.array([action]))
        if vec.terminations[0]:
            break
        assert not game.is_over
        assert vec.game(0).position_text == game.position_text
        assert vec.rewards[0] == 0
    assert game.is_over
    south, north = game.captured
    assert vec.rewards[0] == (south - north if mover == "south" else north - south)
    assert vec.game(0) == sowing.Game("ayoayo")  # restarted (a new game has no history)


def test_shapes_and_types():
    vec = sowing.VecGame(5, "hoyito-ii", 12)
    assert len(vec) == vec.num_envs == 5
    assert vec.num_actions == 12 and vec.observation_size == 32
    assert vec.observations.shape == (5, 32) and vec.observations.dtype == np.float32
    assert vec.masks.shape == (5, 12) and vec.masks.dtype == np.int8
    assert vec.rewards.dtype == np.float32 and vec.terminations.dtype == np.bool_
    assert vec.to_move.tolist() == [0] * 5
    assert vec.masks.sum() == 5 * 12


def test_illegal_actions_change_nothing():
    vec = sowing.VecGame(3, "hoyito-ii")
    before = vec.observations.copy()
    with pytest.raises(sowing.IllegalMoveError, match="game 1: action 6"):
        vec.step(np.array([0, 6, 0]))
    with pytest.raises(sowing.IllegalMoveError, match="action -1"):
        vec.step(np.array([0, 0, -1]))
    assert np.array_equal(vec.observations, before)
    vec.step(np.array([0, 0, 0]))
    vec.step(np.array([0, 0, 0]))  # North's pit a is never empty after South's A
    empty = [c for c in range(6) if vec.observations[0][c] == 0 and vec.masks[0][c] == 0]
    if empty:
        with pytest.raises(sowing.IllegalMoveError):
            vec.step(np.array([empty[0]] * 3))


def test_bad_arguments():
    with pytest.raises(sowing.SowingError, match="2 actions for 3 games"):
        sowing.VecGame(3).step(np.array([0, 0]))
    with pytest.raises(TypeError):
        sowing.VecGame(3).step(np.array([0.5, 0.5, 0.5]))
    with pytest.raises(sowing.SowingError, match="at least one"):
        sowing.VecGame(0)
    with pytest.raises(sowing.SowingError, match="unknown reward"):
        sowing.VecGame(2, reward="win")
    with pytest.raises(sowing.RulesError):
        sowing.VecGame(2, "ayoayo", 12)
    with pytest.raises(sowing.SowingError, match="no game 9"):
        sowing.VecGame(2).game(9)


@pytest.mark.parametrize("rules", [dict(game="hoyito-ii"), dict(game="ayoayo"),
                                   dict(game="hoyito-ii", pits=12)])
def test_sample_actions_are_legal_and_seeded(rules):
    def play(seed):
        vec = sowing.VecGame(8, seed=seed, **rules)
        drawn = []
        for _ in range(300):
            actions = vec.sample_actions()
            assert actions.dtype == np.int64 and actions.shape == (8,)
            assert vec.masks[np.arange(8), actions].all()  # every one legal
            drawn.append(actions.copy())
            vec.step(actions)
        return np.array(drawn)

    first = play(5)
    assert np.array_equal(first, play(5))  # the same seed, the same draws
    assert not np.array_equal(first, play(6))


@pytest.mark.parametrize("pits, tail", [(6, 20.5), (12, 31.3)])
def test_sample_actions_are_uniform_over_the_legal_ones(pits, tail):
    vec = sowing.VecGame(2, "hoyito-ii", pits, seed=3)  # the start: every column legal
    counts = np.zeros(pits)
    for _ in range(500 * pits):
        for action in vec.sample_actions():
            counts[action] += 1
    # Chi-squared with pits - 1 degrees of freedom: `tail` is its 0.1% tail; the seed is
    # fixed, so this is no coin toss.
    assert ((counts - 1000) ** 2 / 1000).sum() < tail
    vec = sowing.VecGame(1, "hoyito-ii", seed=3)
    vec.reset(seed=3)
    again = [int(vec.sample_actions()[0]) for _ in range(20)]
    vec.reset(seed=3)
    assert again == [int(vec.sample_actions()[0]) for _ in range(20)]
    assert vec.sample_actions() is vec.sample_actions()  # one array, overwritten
    vec.sample_actions().flags.writeable = False
    with pytest.raises(sowing.SowingError, match="cannot write its array"):
        vec.sample_actions()


@pytest.mark.parametrize("how", ["copy", "deepcopy", "pickle"])
def test_vec_game_copies_and_pickles(how):
    import copy
    import pickle

    vec = sowing.VecGame(16, "hoyito-iii", reward="captures", seed=2)
    rng = np.random.default_rng(2)
    for _ in range(150):  # long enough that some games are deep in a run without capture
        vec.step(vec.sample_actions())
    other = {"copy": copy.copy, "deepcopy": copy.deepcopy,
             "pickle": lambda v: pickle.loads(pickle.dumps(v))}[how](vec)
    assert other is not vec and other.observations is not vec.observations
    for name in ("observations", "masks", "to_move"):
        assert np.array_equal(getattr(other, name), getattr(vec, name))
    for i in range(16):
        assert other.game(i) == vec.game(i)
    for _ in range(300):  # the same games from here on, repetitions included
        actions = (rng.random(vec.masks.shape) * vec.masks).argmax(axis=1)
        a, b = vec.step(actions), other.step(actions)
        for x, y in zip(a, b):
            assert np.array_equal(x, y)
