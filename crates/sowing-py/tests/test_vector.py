"""sowing.vector: Gymnasium's VectorEnv API and autoreset modes, the single environment
move for move, seeding, and Stable-Baselines3's VecEnv interface (without Stable-Baselines3)."""

from __future__ import annotations

import pickle

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence
from gymnasium.vector import AutoresetMode

import sowing
from sowing.gym import SowingEnv
from sowing.vector import SowingVecEnv, SowingVectorEnv

SIDES = ("south", "north")


def legal_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal column of each row of ``masks``."""
    return (rng.random(masks.shape) * masks).argmax(axis=1)


def test_make_vec_returns_the_rust_vector_environment():
    envs = gymnasium.make_vec(
        "sowing/HoyitoII-v0", num_envs=16, vectorization_mode="vector_entry_point",
        opponent="random",
    )
    assert isinstance(envs.unwrapped, SowingVectorEnv)
    assert envs.num_envs == 16
    assert envs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert envs.single_action_space == gymnasium.spaces.Discrete(6)
    assert envs.single_observation_space.shape == (20,)
    assert envs.action_space.shape == (16,)
    assert envs.observation_space.shape == (16, 20)
    assert envs.spec.id == "sowing/HoyitoII-v0"
    twelve = gymnasium.make_vec("sowing/HoyitoII12-v0", num_envs=2,
                                vectorization_mode="vector_entry_point")
    assert twelve.single_action_space.n == 12
    envs.close()


@pytest.mark.parametrize("env_id", ["sowing/HoyitoII-v0", "sowing/HoyitoIII-v0", "sowing/Ayoayo-v0"])
@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_vector_api(env_id, mode):
    """What Gymnasium's vector environments promise: data in the spaces, the info
    convention (a ``_key`` mask beside each key), fresh arrays, and the autoreset mode."""
    envs = gymnasium.make_vec(env_id, num_envs=8, vectorization_mode="vector_entry_point",
                              autoreset_mode=mode, reward="captures")
    obs, infos = envs.reset(seed=3)
    assert obs in envs.observation_space
    assert infos["action_mask"].shape == (8, envs.single_action_space.n)
    assert infos["_action_mask"].all()
    rng = np.random.default_rng(0)
    ended_before = np.zeros(8, bool)
    endings = 0
    for _ in range(400):
        actions = legal_actions(infos["action_mask"], rng)
        assert actions in envs.action_space
        previous = obs
        obs, rewards, terminations, truncations, infos = envs.step(actions)
        assert obs in envs.observation_space
        assert obs is not previous and not np.shares_memory(obs, previous)
        assert rewards.dtype == np.float32 and rewards.shape == (8,)
        assert terminations.dtype == np.bool_ and truncations.dtype == np.bool_
        assert not truncations.any()
        if mode == AutoresetMode.NEXT_STEP:
            # A game that ended at the last step restarts now: no reward, not over, its
            # observation a start position's (the agent is South, to move).
            assert not terminations[ended_before].any()
            assert (rewards[ended_before] == 0).all()
            assert (obs[ended_before, -6] == 1).all()  # the agent is to move
            for i in np.flatnonzero(ended_before):
                assert envs.unwrapped.core.moves(i) == []
            ended_before = terminations.copy()
        else:
            if terminations.any():
                assert (infos["_final_obs"] == terminations).all()
                for i in np.flatnonzero(terminations):
                    assert infos["final_obs"][i] in envs.single_observation_space
                    assert envs.unwrapped.core.moves(i) == []  # restarted already
                assert all(infos["final_obs"][i] is None for i in np.flatnonzero(~terminations))
            else:
                assert "final_obs" not in infos
        endings += int(terminations.sum())
    assert endings > 0
    envs.close()


def test_same_step_final_observations_are_the_next_step_last_observations():
    """The two autoreset modes play the same games (same seed, same actions) up to each
    game's first end: SAME_STEP's final_obs is NEXT_STEP's last observation."""
    a = SowingVectorEnv(6, "hoyito-iii", autoreset_mode=AutoresetMode.NEXT_STEP)
    b = SowingVectorEnv(6, "hoyito-iii", autoreset_mode=AutoresetMode.SAME_STEP)
    obs_a, info_a = a.reset(seed=7)
    obs_b, _ = b.reset(seed=7)
    rng = np.random.default_rng(7)
    live = np.ones(6, bool)
    while live.any():
        actions = legal_actions(info_a["action_mask"], rng)
        obs_a, rew_a, term_a, _, info_a = a.step(actions)
        obs_b, rew_b, term_b, _, info_b = b.step(actions)
        assert (rew_a[live] == rew_b[live]).all() and (term_a[live] == term_b[live]).all()
        for i in np.flatnonzero(live):
            expected = info_b["final_obs"][i] if term_b[i] else obs_b[i]
            assert np.array_equal(obs_a[i], expected)
        live &= ~term_a


class Replay:
    """An opponent for ``sowing.gym.SowingEnv`` that plays the columns a VectorGame game
    chose for its opponent, in order (``columns``: both sides' columns in turn)."""

    def __init__(self, columns: list[int]) -> None:
        self.columns = columns

    def best_move(self, game: sowing.Game) -> int:
        played = sum(move != "pass" for move in game.moves)
        return self.columns[played]

    def new_game(self) -> None:
        pass


@pytest.mark.parametrize(
    "rules", [dict(game="hoyito-ii"), dict(game="hoyito-iii"), dict(game="ayoayo"),
              dict(game="hoyito-ii", pits=12)])
@pytest.mark.parametrize("reward", ["margin", "captures", "normalized", "win"])
@pytest.mark.parametrize("agent", ["south", "alternate"])
def test_the_single_environment_move_for_move(rules, reward, agent):
    """Every episode of the vector environment, replayed in the single Gymnasium
    environment (its opponent replaying the vector game's replies): the same
    observations, masks, rewards and ends at every step."""
    n = 4
    envs = SowingVectorEnv(n, opponent="random", agent=agent, reward=reward, **rules)
    core = envs.core
    obs, infos = envs.reset(seed=11)
    rng = np.random.default_rng(11)
    episodes = [[] for _ in range(n)]  # each game's steps: (action, obs, mask, reward, end)
    seats = [SIDES[s] for s in core.agents]
    starts = [(obs[i].copy(), infos["action_mask"][i].copy()) for i in range(n)]
    checked = 0
    ended = np.zeros(n, bool)
    for _ in range(150 if rules.get("pits") != 12 else 400):
        actions = legal_actions(infos["action_mask"], rng)
        obs, rewards, terminations, _, infos = envs.step(actions)
        for i in range(n):
            if ended[i]:  # this step restarted it
                seats[i] = SIDES[core.agents[i]]
                starts[i] = (obs[i].copy(), infos["action_mask"][i].copy())
                episodes[i] = []
                continue
            episodes[i].append((int(actions[i]), obs[i].copy(), infos["action_mask"][i].copy(),
                                float(rewards[i]), bool(terminations[i])))
            if terminations[i]:
                replay(rules, reward, seats[i], core.moves(i), starts[i], episodes[i])
                assert core.game(i).is_over
                checked += 1
        ended = terminations.copy()
    assert checked >= (3 if rules.get("pits") != 12 else 1)


def replay(rules, reward, seat, columns, start, steps):
    single = SowingEnv(opponent=Replay(columns), agent=seat, reward=reward, **rules)
    obs, info = single.reset(seed=0)
    assert np.array_equal(obs, start[0])
    assert np.array_equal(info["action_mask"], start[1])
    for k, (action, v_obs, v_mask, v_reward, v_end) in enumerate(steps):
        obs, reward_value, terminated, _, info = single.step(action)
        assert np.array_equal(obs, v_obs), k
        assert np.float32(reward_value) == np.float32(v_reward), k
        assert terminated == v_end, k
        if not terminated:
            assert np.array_equal(info["action_mask"], v_mask), k
    assert terminated
    assert single.game.position_text == single.game.position_text


@pytest.mark.parametrize("opponent", ["random", "greedy", "level:1"])
def test_seeding(opponent):
    def run(seed):
        envs = SowingVectorEnv(6, "hoyito-ii", opponent=opponent, agent="alternate")
        obs, infos = envs.reset(seed=seed)
        rng = np.random.default_rng(0)
        trace = [obs]
        for _ in range(60):
            obs, rewards, terminations, _, infos = envs.step(legal_actions(infos["action_mask"], rng))
            trace += [obs, rewards, terminations]
        return trace

    first = run(5)
    assert all(data_equivalence(a, b, exact=True) for a, b in zip(first, run(5)))
    assert not all(np.array_equal(a, b) for a, b in zip(first, run(6)))


def test_seeded_games_differ_from_each_other():
    envs = SowingVectorEnv(64, opponent="random", agent="north", seed=1)
    # The agent plays North: each game starts with a random reply of South.
    obs, _ = envs.reset(seed=1)
    assert len({row.tobytes() for row in obs}) > 1


def test_partial_reset_and_the_alternating_seat():
    envs = SowingVectorEnv(4, agent="alternate")
    envs.reset(seed=2)
    assert envs.core.agents.tolist() == [0, 1, 0, 1]
    rng = np.random.default_rng(2)
    _, infos = envs.reset(seed=2)
    for _ in range(5):
        _, _, terminations, _, infos = envs.step(legal_actions(infos["action_mask"], rng))
        assert not terminations.any()
    moves = [envs.core.moves(i) for i in range(4)]
    envs.reset(options={"reset_mask": np.array([True, False, False, True])})
    assert envs.core.moves(1) == moves[1] and envs.core.moves(2) == moves[2]
    assert envs.core.agents.tolist() == [1, 1, 0, 0]  # the reset ones changed sides
    with pytest.raises(ValueError, match="reset_mask"):
        envs.reset(options={"reset_mask": [True]})


def test_engine_opponents_play_whole_games():
    for opponent in ("greedy", "level:1"):
        envs = SowingVectorEnv(8, "hoyito-iii", opponent=opponent, reward="win", seed=4)
        obs, infos = envs.reset(seed=4)
        rng = np.random.default_rng(4)
        results = []
        for _ in range(300):
            obs, rewards, terminations, _, infos = envs.step(legal_actions(infos["action_mask"], rng))
            results += rewards[terminations].tolist()
        assert results and set(results) <= {-1.0, 0.0, 1.0}
        # A random agent loses most games against either.
        assert np.mean(results) < 0


def test_illegal_actions():
    envs = SowingVectorEnv(3, reward="normalized", seed=0)
    _, infos = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    while infos["action_mask"][0].all():  # until game 0 has an empty pit
        _, _, _, _, infos = envs.step(legal_actions(infos["action_mask"], rng))
    illegal = int(np.flatnonzero(infos["action_mask"][0] == 0)[0])
    actions = legal_actions(infos["action_mask"], rng)
    actions[0] = illegal
    _, rewards, terminations, _, infos = envs.step(actions)
    assert rewards[0] == -1.0 and terminations[0]
    assert infos["action_mask"][0].all()  # over: the next action is ignored
    strict = SowingVectorEnv(2, illegal_action="raise")
    strict.reset(seed=0)
    before = strict.core.observations.copy()
    with pytest.raises(sowing.IllegalMoveError, match="game 1: action 6"):
        strict.step(np.array([0, 6]))
    assert np.array_equal(strict.core.observations, before)  # no game moved


def test_actions_of_any_integer_dtype_and_nothing_else():
    envs = SowingVectorEnv(4)
    envs.reset(seed=0)
    for dtype in (np.int8, np.uint8, np.int16, np.int32, np.uint64):
        envs.step(np.zeros(4, dtype))
    envs.step([1, 1, 1, 1])
    with pytest.raises(TypeError, match="integer dtype and shape \\(4,\\), not float64"):
        envs.step(np.zeros(4))
    with pytest.raises(TypeError, match="shape \\(4,\\)"):
        envs.step(np.zeros((2, 2), np.int64))
    with pytest.raises(sowing.SowingError, match="3 actions for 4 games"):
        envs.step(np.zeros(3, np.int32))


def test_bad_arguments():
    with pytest.raises(sowing.SowingError, match="unknown reward"):
        SowingVectorEnv(2, reward="score")
    with pytest.raises(sowing.SowingError, match="unknown player"):
        SowingVectorEnv(2, opponent="smart")
    with pytest.raises(TypeError, match="a player.s name"):
        SowingVectorEnv(2, opponent=sowing.Engine(1))
    with pytest.raises(sowing.SowingError, match="south, north or alternate"):
        SowingVectorEnv(2, agent="east")
    with pytest.raises(ValueError, match="at least 1"):
        SowingVectorEnv(0)
    with pytest.raises(sowing.SowingError, match="n must not be negative"):
        sowing.VectorGame(-1)
    with pytest.raises(MemoryError):
        sowing.VectorGame(10**12)
    with pytest.raises(ValueError, match="render_mode"):
        SowingVectorEnv(2, render_mode="human")


def test_the_records_of_the_games():
    envs = SowingVectorEnv(2, "ayoayo", opponent="greedy", seed=3)
    _, infos = envs.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(4):
        _, _, terminations, _, infos = envs.step(legal_actions(infos["action_mask"], rng))
    game = envs.core.game(0)
    assert len([m for m in game.moves if m != "pass"]) == len(envs.core.moves(0))
    agent_view = game.observation("south")
    assert np.array_equal(agent_view, envs.core.observations[0])
    assert pickle.loads(pickle.dumps(game)) == game
    with pytest.raises(sowing.SowingError, match="no game 5"):
        envs.core.game(5)


def test_render_modes():
    envs = SowingVectorEnv(2, render_mode="rgb_array")
    envs.reset(seed=0)
    images = envs.render()
    assert len(images) == 2 and images[0].dtype == np.uint8 and images[0].shape[2] == 3
    text = SowingVectorEnv(2, render_mode="ansi")
    text.reset(seed=0)
    assert "south to move" in text.render()[0]


def test_stable_baselines3_interface():
    """SB3's VecEnv calls, as its algorithms make them (SB3 itself is not needed)."""
    env = SowingVecEnv(8, "hoyito-ii", reward="normalized", seed=9)
    assert env.num_envs == 8
    assert env.observation_space.shape == (20,) and env.action_space.n == 6
    obs = env.reset()
    assert obs.shape == (8, 20)
    rng = np.random.default_rng(9)
    endings = 0
    for _ in range(300):
        masks = np.stack(env.env_method("action_masks"))
        assert masks.dtype == np.bool_ and masks.shape == (8, 6)
        assert np.array_equal(masks, env.action_masks())
        env.step_async(legal_actions(masks, rng))
        obs, rewards, dones, infos = env.step_wait()
        assert obs.shape == (8, 20) and rewards.shape == (8,) and dones.shape == (8,)
        assert len(infos) == 8
        for i in range(8):
            if dones[i]:
                endings += 1
                terminal = infos[i]["terminal_observation"]
                assert terminal.shape == (20,)
                assert -1 <= rewards[i] <= 1
                # Restarted already: the new game's first observation.
                assert env.core.moves(i) == []
            else:
                assert "terminal_observation" not in infos[i]
    assert endings > 0
    assert env.get_attr("render_mode") == [None] * 8
    assert env.env_is_wrapped(object) == [False] * 8
    env.seed(9)
    first = env.reset()
    env.seed(9)
    assert np.array_equal(first, env.reset())
    env.close()


def _steps_equal(a, b):
    """Two results of a step (or reset) are the same: arrays equal, infos equal."""
    assert len(a) == len(b)
    for x, y in zip(a, b):
        assert data_equivalence(x, y), (x, y)


def _copies(envs):
    import copy

    return [pickle.loads(pickle.dumps(envs)), copy.deepcopy(envs)]


@pytest.mark.parametrize("opponent", ["random", "greedy"])
@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
@pytest.mark.parametrize("agent", ["south", "alternate"])
def test_vector_environments_pickle_and_continue_identically(opponent, mode, agent):
    """Pickled (or deep-copied) in the middle of play, after some games ended, the
    environment goes on as the original: the same observations, rewards, terminations,
    infos and masks for the same actions, the opponents' generators continuing."""
    envs = SowingVectorEnv(12, "hoyito-iii", opponent=opponent, agent=agent,
                           reward="captures", autoreset_mode=mode, seed=11)
    _, infos = envs.reset(seed=11)
    rng = np.random.default_rng(11)
    for _ in range(40):
        _, _, _, _, infos = envs.step(legal_actions(infos["action_mask"], rng))
    copies = _copies(envs)
    for other in copies:
        assert other is not envs and other.core is not envs.core
        assert other.core.num_envs == 12 and other.core.seed == 11
        assert np.array_equal(other.action_masks(), envs.action_masks())
        assert np.array_equal(other.core.observations, envs.core.observations)
        assert [other.core.moves(i) for i in range(12)] == [envs.core.moves(i) for i in range(12)]
    for _ in range(150):
        actions = legal_actions(infos["action_mask"], rng)
        result = envs.step(actions)
        for other in copies:
            _steps_equal(other.step(actions), result)
        infos = result[4]
    # A reset without a seed continues the games' own streams too.
    result = envs.reset()
    for other in copies:
        _steps_equal(other.reset(), result)


def test_the_sb3_vector_environment_pickles_and_continues_identically():
    env = SowingVecEnv(6, "ayoayo", opponent="greedy", reward="normalized", seed=4)
    env.reset()
    rng = np.random.default_rng(4)
    for _ in range(30):
        env.step(legal_actions(env.action_masks(), rng))
    copies = _copies(env)
    for _ in range(120):
        actions = legal_actions(env.action_masks(), rng)
        obs, rewards, dones, infos = env.step(actions)
        for other in copies:
            o, r, d, i = other.step(actions)
            assert np.array_equal(o, obs) and np.array_equal(r, rewards)
            assert np.array_equal(d, dones) and data_equivalence(i, infos)


def test_the_core_pickles_with_its_arrays_and_streams():
    core = sowing.VectorGame(5, "hoyito-ii", 12, opponent="random", agent="north",
                             autoreset="same-step", seed=8)
    rng = np.random.default_rng(8)
    for _ in range(25):
        core.step(legal_actions(core.masks, rng))
    other = pickle.loads(pickle.dumps(core))
    for name in ("observations", "final_observations", "rewards", "terminations", "masks",
                 "agents"):
        assert np.array_equal(getattr(other, name), getattr(core, name)), name
        assert getattr(other, name) is not getattr(core, name)
    assert repr(other) == repr(core)
    assert [other.game(i) for i in range(5)] == [core.game(i) for i in range(5)]
    for _ in range(200):
        actions = legal_actions(core.masks, rng)
        core.step(actions)
        other.step(actions)
        assert np.array_equal(other.observations, core.observations)
        assert np.array_equal(other.rewards, core.rewards)


def test_an_engine_opponent_pickles_and_plays_on():
    """An engine opponent is rebuilt from its seed: its games go on, legal and whole."""
    envs = SowingVectorEnv(3, opponent="level:1", seed=2)
    _, infos = envs.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(10):
        _, _, _, _, infos = envs.step(legal_actions(infos["action_mask"], rng))
    other = pickle.loads(pickle.dumps(envs))
    assert other.core.opponent == "level:1"
    assert [other.core.game(i) for i in range(3)] == [envs.core.game(i) for i in range(3)]
    ended = 0
    for _ in range(300):
        _, _, terminations, _, infos = other.step(legal_actions(infos["action_mask"], rng))
        ended += int(terminations.sum())
    assert ended > 0


def test_a_corrupt_pickle_is_refused_with_a_reason():
    core = sowing.VectorGame(2, seed=1)
    restore, (settings, seats, arrays) = core.__reduce__()
    moves, agent, over, state, engine_seed = seats[0]
    bad = [(bytes([0, 0, 0, 0, 0, 0, 0, 0, 0, 0]), agent, over, state, engine_seed), seats[1]]
    with pytest.raises(sowing.SowingError, match="game 0: move"):
        restore(settings, bad, arrays)
    with pytest.raises(sowing.SowingError, match="game 1: a generator state of zeros"):
        restore(settings, [seats[0], (moves, agent, over, [0, 0, 0, 0], engine_seed)], arrays)
    with pytest.raises(sowing.SowingError, match="1 games' states for 2 games"):
        restore(settings, seats[:1], arrays)
