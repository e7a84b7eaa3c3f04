"""The rough edges a first user hit (issue 27): strict actions, finished episodes, copies and
pickles, named errors, dtypes, OpenSpiel's draws and information state, pictures."""

from __future__ import annotations

import copy
import pickle

import gymnasium
import numpy as np
import pytest

import sowing
from sowing.gym import SowingEnv
from sowing.render import board_image


def test_the_gym_environment_masks_and_refuses_what_is_not_an_action():
    env = SowingEnv(opponent="random")
    env.reset(seed=1)
    assert env.action_masks().dtype == np.bool_
    assert np.array_equal(env.action_masks(), env._mask().astype(bool))
    for bad in (2.7, "A", True, np.float32(1.0), None):
        with pytest.raises(TypeError, match="integer"):
            env.step(bad)
    env.step(np.int64(0))  # NumPy integers are actions
    env.step(np.array(int(np.flatnonzero(env.action_masks())[0])))


def test_stepping_a_finished_episode_raises():
    env = SowingEnv(opponent="greedy", reward="win")
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(0)  # never reset
    _, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    terminated = False
    while not terminated:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, reward, terminated, _, info = env.step(action)
    assert reward in (-1.0, 0.0, 1.0)
    assert not env.action_masks().any()
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(0)


@pytest.mark.parametrize("reward, worst", [("margin", -48.0), ("normalized", -1.0), ("win", -1.0)])
def test_the_rewards_of_an_illegal_action(reward, worst):
    env = SowingEnv(reward=reward)
    _, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    while info["action_mask"].all():
        _, _, _, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    _, value, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
    assert terminated and value == worst and info["illegal_action"]
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(0)


def test_normalized_rewards_are_the_margin_over_the_seeds():
    margin, normalized = SowingEnv(reward="margin"), SowingEnv(reward="normalized")
    _, info = margin.reset(seed=5)
    normalized.reset(seed=5)
    rng = np.random.default_rng(5)
    terminated = False
    while not terminated:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, a, terminated, _, info = margin.step(action)
        _, b, _, _, _ = normalized.step(action)
        assert b == pytest.approx(a / 48)


def test_environments_copy_and_pickle():
    env = SowingEnv(opponent=sowing.Engine(level=1, seed=4))
    _, info = env.reset(seed=2)
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    for other in (copy.deepcopy(env), pickle.loads(pickle.dumps(env))):
        assert other.game == env.game
        assert other is not env and other.game is not env.game
        mask = other.action_masks()
        action = int(np.flatnonzero(mask)[0])
        a = copy.deepcopy(env).step(action)
        b = other.step(action)
        assert np.array_equal(a[0], b[0]) and a[1:4] == b[1:4]


def test_engines_copy_pickle_and_show_their_limits():
    engine = sowing.Engine(level=2, movetime=50, seed=7)
    assert repr(engine) == "Engine(level=2, movetime=50, seed=7)"
    assert engine.limits == (50, None, None)
    assert repr(sowing.Engine(player="mcts", nodes=100)) == 'Engine(player="mcts", nodes=100)'
    assert repr(sowing.Engine()) == 'Engine(player="level:6", movetime=100)'
    game = sowing.Game("hoyito-iii")
    for other in (copy.copy(engine), copy.deepcopy(engine), pickle.loads(pickle.dumps(engine))):
        assert repr(other) == repr(engine)
        assert other.best_move(game) == sowing.Engine(level=2, movetime=50, seed=7).best_move(game)


@pytest.mark.parametrize(
    "make, name",
    [(lambda: sowing.Game("hoyito-ii", -6), "pits"),
     (lambda: sowing.Engine(movetime=-5), "movetime"),
     (lambda: sowing.Engine(nodes=-1), "nodes"),
     (lambda: sowing.Engine(depth=-2), "depth"),
     (lambda: sowing.VecGame(-3), "n"),
     (lambda: sowing.VectorGame(2, pits=-1), "pits"),
     (lambda: sowing.tables.build("ayoayo", max_seeds=-4, dir="/nonexistent"), "max_seeds")],
)
def test_negative_arguments_are_named(make, name):
    import sowing.tables  # noqa: F401

    with pytest.raises(sowing.SowingError, match=f"^{name} must not be negative"):
        make()


def test_huge_batches_raise_memory_error():
    with pytest.raises(MemoryError):
        sowing.VecGame(10**12)
    with pytest.raises(MemoryError):
        sowing.VecGame(2**62)


def test_vec_game_takes_any_integer_dtype():
    vec = sowing.VecGame(4, seed=0)
    for dtype in (np.int8, np.uint8, np.int16, np.int32, np.uint32, np.int64):
        vec.step(vec.sample_actions().astype(dtype))
    vec.step(list(vec.sample_actions()))
    with pytest.raises(TypeError, match=r"integer dtype and shape \(4,\), not float64 of shape \(4,\)"):
        vec.step(np.zeros(4))


def test_the_native_classes_are_final_in_the_stubs():
    from pathlib import Path

    stubs = (Path(sowing.__file__).parent / "_sowing.pyi").read_text()
    for name in ("Game", "Engine", "VecGame", "VectorGame", "Tables", "BatchedMCTS"):
        assert f"@final\nclass {name}" in stubs
        with pytest.raises(TypeError):
            type("Sub", (getattr(sowing._sowing, name),), {})


def test_openspiel_draws_and_information_state():
    import pyspiel

    import sowing.openspiel  # noqa: F401

    game = pyspiel.load_game("sowing_hoyito_ii")
    assert game.get_type().provides_information_state_tensor
    state = game.new_initial_state()
    state.apply_action(2)
    assert state.information_state_tensor(1) == state.observation_tensor(1)
    assert len(state.information_state_tensor(0)) == 20
    drawn = game.new_initial_state()
    drawn.game_ = sowing.Game.from_text("hoyito-ii 0,0,0,0,0,0/0,0,0,0,0,0 24-24 S -")
    assert drawn.is_terminal()
    returns = drawn.returns()
    assert returns == [0.0, 0.0]
    assert all(np.copysign(1.0, r) == 1.0 for r in returns)  # no -0.0


def test_rgb_array_pictures():
    game = sowing.Game("hoyito-ii")
    image = board_image(game)
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
    game.play("C")
    assert not np.array_equal(board_image(game), image)  # the picture follows the board
    env = gymnasium.make("sowing/HoyitoIII-v0", render_mode="rgb_array")
    env.reset(seed=0)
    frame = env.render()
    assert frame.shape == image.shape
    twelve = board_image(sowing.Game("hoyito-ii", 12))
    assert twelve.shape[1] > image.shape[1]
    from sowing.pettingzoo import env as pz_env

    e = pz_env(game="ayoayo", render_mode="rgb_array")
    e.reset(seed=0)
    assert e.render().shape[2] == 3
