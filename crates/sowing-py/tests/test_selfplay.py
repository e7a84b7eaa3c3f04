"""sowing.vector past one fixed opponent: self-play (both seats learn), Python policies and
leagues as the opponent (one call a policy a round, never one a game), stepping on
several threads, and send/recv; each checked against sowing.Game move for move."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import sowing
from sowing.vector import League, SowingVecEnv, SowingVectorEnv, VectorGame


def random_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal column of each row of ``masks``."""
    return (rng.random(masks.shape) * masks).argmax(axis=1)


def first_legal(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """A policy: the leftmost legal column."""
    return masks.argmax(axis=1)


def margin(game: sowing.Game, side: int) -> int:
    south, north = game.captured
    return south - north if side == 0 else north - south


def settle(game: sowing.Game) -> None:
    while not game.is_over and game.legal_moves() == ["pass"]:
        game.play("pass")


@pytest.mark.parametrize("game", ["hoyito-ii", "hoyito-iii", "ayoayo"])
def test_self_play_steps_both_seats_from_the_movers_view(game):
    n = 8
    core = VectorGame(n, game, opponent="self", reward="captures", seed=3)
    rng = np.random.default_rng(0)
    ended = 0
    over = np.zeros(n, bool)
    for _ in range(300):
        before = [core.game(i) for i in range(n)]
        for i, g in enumerate(before):
            if over[i]:
                continue
            assert core.agents[i] == (0 if g.to_move == "south" else 1)
            assert np.array_equal(core.observations[i], g.observation(g.to_move))
            assert np.array_equal(core.masks[i], g.action_mask()[:6])
        actions = random_legal(core.masks, rng)
        movers = core.agents.copy()
        core.step(actions)
        for i, g in enumerate(before):
            if over[i]:  # next-step autoreset: this step restarted the game
                assert core.seat_rewards[i].tolist() == [0, 0]
                continue
            south_before = margin(g, 0)
            g.play(int(actions[i]))
            settle(g)
            assert g.position_text == core.game(i).position_text
            south = margin(g, 0) - south_before
            assert core.seat_rewards[i].tolist() == [south, -south]
            assert core.rewards[i] == (south if movers[i] == 0 else -south)
            assert core.terminations[i] == g.is_over
            ended += g.is_over
        over = core.terminations.copy()
    assert ended > 0


def test_self_play_rewards_add_up_to_the_final_margin_for_each_seat():
    core = VectorGame(16, "ayoayo", opponent="self", reward="captures", seed=11)
    rng = np.random.default_rng(1)
    totals = np.zeros((16, 2))
    finished = 0
    while finished < 16:
        core.step(random_legal(core.masks, rng))
        totals += core.seat_rewards
        for i in np.flatnonzero(core.terminations):
            final = core.game(i)
            assert totals[i].tolist() == [margin(final, 0), margin(final, 1)]
            totals[i] = 0
            finished += 1
    assert finished >= 16


def test_self_play_terminal_rewards_go_to_both_seats():
    core = VectorGame(8, opponent="self", reward="win", seed=2)
    rng = np.random.default_rng(2)
    seen = 0
    for _ in range(3000):
        core.step(random_legal(core.masks, rng))
        for i in np.flatnonzero(core.terminations):
            final = core.game(i)
            south = np.sign(margin(final, 0))
            assert core.seat_rewards[i].tolist() == [south, -south]
            seen += 1
        if seen >= 8:
            break
    assert seen >= 8


def test_a_python_policy_plays_the_opponent_as_the_same_moves_would():
    n = 32
    calls = []

    def policy(observations, masks):
        calls.append(len(observations))
        assert observations.dtype == np.float32 and masks.dtype == np.int8
        assert observations.shape == (len(masks), 20) and masks.shape[1] == 6
        assert masks.any(axis=1).all()
        return first_legal(observations, masks)

    core = VectorGame(n, opponent=policy, agent="alternate", reward="captures", seed=4)
    games = [core.game(i) for i in range(n)]
    rng = np.random.default_rng(3)
    steps = 60
    for _ in range(steps):
        actions = random_legal(core.masks, rng)
        before = [(core.game(i), int(core.agents[i])) for i in range(n)]
        core.step(actions)
        for i in range(n):
            game, agent = before[i]
            if core.terminations[i] or game.is_over:
                continue
            agent_side = "south" if agent == 0 else "north"
            m0 = margin(game, agent)
            game.play(int(actions[i]))
            while not game.is_over and (game.legal_moves() == ["pass"] or game.to_move != agent_side):
                if game.legal_moves() == ["pass"]:
                    game.play("pass")
                else:
                    game.play(int(np.flatnonzero(game.action_mask()[:6])[0]))
            assert game.position_text == core.game(i).position_text
            assert core.rewards[i] == margin(game, agent) - m0
            assert np.array_equal(core.observations[i], game.observation(agent_side))
    del games
    # One call for every game waiting on the policy, round by round: far fewer than games.
    assert len(calls) < steps * 4
    assert max(calls) > 8


def test_a_league_draws_a_policy_for_each_game_and_takes_new_ones():
    asked = {"a": 0, "b": 0}

    def named(name):
        def policy(observations, masks):
            asked[name] += len(masks)
            return first_legal(observations, masks)
        return policy

    league = League([named("a")])
    env = SowingVectorEnv(16, opponent=league, agent="north", seed=5)
    env.reset(seed=5)
    rng = np.random.default_rng(4)
    for _ in range(20):
        env.step(random_legal(env.action_masks(), rng))
    assert asked["a"] > 0 and asked["b"] == 0
    league.add(named("b"), weight=1000.0)
    env.set_opponent(league)
    asked["a"] = 0
    for _ in range(600):
        env.step(random_legal(env.action_masks(), rng))
    # The games started since then drew "b" almost always.
    assert asked["b"] > 10 * asked["a"]
    with pytest.raises(sowing.SowingError, match="opponent_weights"):
        VectorGame(4, opponent=[first_legal, first_legal], opponent_weights=[1.0])
    with pytest.raises(sowing.SowingError, match="not all zero"):
        VectorGame(4, opponent=[first_legal], opponent_weights=[0.0])
    with pytest.raises(TypeError, match="member 1 is not callable"):
        VectorGame(4, opponent=[first_legal, 3])
    with pytest.raises(sowing.SowingError, match="plays random"):
        VectorGame(4).set_opponent(first_legal)


def test_a_policy_that_answers_badly_is_named_and_the_games_need_a_reset():
    with pytest.raises(sowing.IllegalMoveError, match="the opponent's policy chose action 99"):
        VectorGame(8, opponent=lambda o, m: np.full(len(m), 99), agent="north", seed=1)
    answers = {"good": True}

    def flaky(observations, masks):
        if answers["good"]:
            return first_legal(observations, masks)
        raise RuntimeError("the network is down")

    core = VectorGame(8, opponent=flaky, seed=1)
    answers["good"] = False
    with pytest.raises(RuntimeError, match="the network is down"):
        core.step(core.masks.argmax(axis=1))
    assert core.needs_reset
    with pytest.raises(sowing.SowingError, match="need reset"):
        core.step(core.masks.argmax(axis=1))
    env = SowingVectorEnv(8, opponent=flaky, seed=1)
    with pytest.raises(gymnasium.error.ResetNeeded, match="never reset"):
        env.step(np.zeros(8, np.int64))
    answers["good"] = True
    core.reset()
    assert not core.needs_reset
    core.step(core.masks.argmax(axis=1))
    bad_shape = VectorGame(4, opponent=lambda o, m: [0], seed=1)
    with pytest.raises(sowing.SowingError, match="the opponent's policy returned 1 actions for"):
        bad_shape.step(random_legal(bad_shape.masks, np.random.default_rng(0)))
    with pytest.raises(TypeError, match="cannot be pickled"):
        import pickle

        pickle.dumps(VectorGame(2, opponent=first_legal))
    with pytest.raises(sowing.SowingError, match="use step"):
        VectorGame(2, opponent=first_legal).send([0, 0])


@pytest.mark.parametrize("opponent", ["random", "greedy", "self", "level:1"])
def test_threads_and_send_recv_play_the_same_games(opponent):
    n = 64
    runs = []
    for threads, asynchronous in [(1, False), (2, False), (2, True), (1, True)]:
        core = VectorGame(n, "ayoayo", opponent=opponent, agent="alternate", seed=9,
                          threads=threads, reward="captures", autoreset="same-step")
        assert core.threads == threads
        rng = np.random.default_rng(7)
        record = []
        for _ in range(40):
            actions = random_legal(core.masks, rng)
            if asynchronous:
                core.send(actions)
                with pytest.raises(sowing.SowingError, match="under way"):
                    core.step(actions)
                core.recv()
            else:
                core.step(actions)
            record.append((core.observations.copy(), core.rewards.copy(),
                           core.seat_rewards.copy(), core.terminations.copy()))
        runs.append(record)
    for other in runs[1:]:
        for a, b in zip(runs[0], other):
            for x, y in zip(a, b):
                assert np.array_equal(x, y)


def test_recv_without_send_and_gymnasium_send_recv():
    core = VectorGame(4, seed=1)
    with pytest.raises(sowing.SowingError, match="recv"):
        core.recv()
    env = SowingVectorEnv(8, threads=2, seed=3)
    obs, infos = env.reset(seed=3)
    env.send(infos["action_mask"].argmax(axis=1))
    obs, rewards, terminations, truncations, infos = env.recv()
    assert obs.shape == (8, 20) and infos["action_mask"].shape == (8, 6)


def test_the_sb3_vec_env_steps_asynchronously_on_threads():
    env = SowingVecEnv(8, threads=2, seed=1)
    env.reset()
    env.step_async(env.action_masks().argmax(axis=1))
    obs, rewards, dones, infos = env.step_wait()
    assert obs.shape == (8, 20)
    env.close()


def test_gymnasium_self_play_gives_the_mover_and_both_rewards():
    env = SowingVectorEnv(4, opponent="self", reward="captures", seed=1)
    obs, infos = env.reset(seed=1)
    assert infos["to_move"].tolist() == [0, 0, 0, 0]
    rng = np.random.default_rng(0)
    for _ in range(30):
        obs, rewards, terminations, truncations, infos = env.step(
            random_legal(infos["action_mask"], rng))
        assert infos["seat_rewards"].shape == (4, 2)
        assert np.array_equal(infos["seat_rewards"][:, 0], -infos["seat_rewards"][:, 1])
