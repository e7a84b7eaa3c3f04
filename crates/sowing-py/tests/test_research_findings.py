"""What a researcher trying the package found (issue "Research, next", section 4), each
answered: memory, strided actions, messages, resets, the evaluator's answers, indices,
seeds and Ctrl-C."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import gymnasium
import numpy as np
import pytest

import sowing
from sowing.vector import SowingVecEnv, SowingVectorEnv, VectorGame


def run_limited(code: str, gib: float) -> subprocess.CompletedProcess:
    """Runs ``code`` in a Python whose address space is capped at ``gib`` GiB more than it
    has after importing sowing, as ``ulimit -v`` would."""
    prelude = textwrap.dedent(f"""
        import resource, numpy as np, sowing
        from sowing.vector import SowingVectorEnv, VectorGame
        size = int(open("/proc/self/status").read().split("VmSize:")[1].split()[0]) * 1024
        limit = size + int({gib} * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    """)
    return subprocess.run(
        [sys.executable, "-c", prelude + textwrap.dedent(code)],
        capture_output=True, text=True, timeout=300,
    )


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads Linux's /proc")
def test_engine_opponents_fit_the_batch_or_raise_memory_error():
    # 256 level:6 games in 2 GiB: the tables share 1 GiB (4 MiB each, not 64).
    fits = run_limited("""
        env = SowingVectorEnv(256, opponent="level:6", seed=0)
        env.reset(seed=0)
        print("built", env.num_envs)
    """, gib=2)
    assert fits.returncode == 0, fits.stderr
    assert "built 256" in fits.stdout
    # Asking for 8 GiB of tables under the same cap is refused before any allocation.
    refused = run_limited("""
        try:
            VectorGame(256, opponent="level:6", engine_memory=8192)
        except MemoryError as e:
            print("MemoryError:", e)
    """, gib=2)
    assert refused.returncode == 0, refused.stderr
    assert "MemoryError: 256 games would need about" in refused.stdout
    assert "MiB are available" in refused.stdout


def test_strided_int64_actions_are_taken():
    core = VectorGame(4, seed=0)
    strided = np.zeros((4, 2), np.int64)[:, 0]
    assert not strided.flags["C_CONTIGUOUS"]
    core.step(strided)
    vec = sowing.VecGame(4, seed=0)
    vec.step(np.stack([vec.sample_actions(), vec.sample_actions()], axis=1)[:, 0])


def test_a_float_move_is_refused_in_plain_words():
    game = sowing.Game()
    with pytest.raises(TypeError, match=r"a move is a name .* or an action number \(an integer\), not 2\.0 \(float\)"):
        game.play(2.0)
    with pytest.raises(TypeError, match="not True"):
        game.play(True)
    game.play(np.int64(2))
    with pytest.raises(sowing.IllegalMoveError, match="not an action"):
        game.play(2**80)


def test_vector_environments_refuse_a_step_before_reset():
    with pytest.raises(gymnasium.error.ResetNeeded, match="never reset"):
        SowingVectorEnv(2).step(np.zeros(2, np.int64))
    with pytest.raises(gymnasium.error.ResetNeeded, match="never reset"):
        SowingVecEnv(2).step(np.zeros(2, np.int64))
    env = SowingVectorEnv(2)
    env.reset(seed=0)
    env.step(np.zeros(2, np.int64))


def test_the_evaluator_must_answer_numbers_in_range():
    games = [sowing.Game() for _ in range(3)]
    mcts = sowing.BatchedMCTS(simulations=8, seed=0)

    def answering(values, logits=None):
        def evaluate(observations, masks):
            n = len(masks)
            given = np.zeros(masks.shape, np.float32) if logits is None else logits(masks)
            return given, np.full(n, values, np.float32)
        return evaluate

    with pytest.raises(ValueError, match="value NaN for row 0 is not a number in -1"):
        mcts.search(games, answering(np.nan))
    with pytest.raises(ValueError, match="value 1.5 for row 0"):
        mcts.search(games, answering(1.5))
    with pytest.raises(ValueError, match="logit inf for row 0, column 0"):
        mcts.search(games, answering(0.0, lambda m: np.full(m.shape, np.inf, np.float32)))
    # -inf on the illegal columns is what a masked network gives: taken.
    mask_out = lambda m: np.where(m > 0, 0.0, -np.inf).astype(np.float32)  # noqa: E731
    visits, values = mcts.search(games, answering(1.0, mask_out))
    assert visits.shape == (3, 6)


def test_indices_and_seeds_of_any_size():
    with pytest.raises(sowing.SowingError, match=r"no game -1: the VecGame has 4 \(0 to 3\)"):
        sowing.VecGame(4).game(-1)
    with pytest.raises(sowing.SowingError, match="no game -1: the VectorGame has 4"):
        VectorGame(4).game(-1)
    first, _ = SowingVectorEnv(4).reset(seed=2**70)
    again, _ = SowingVectorEnv(4).reset(seed=2**70)
    other, _ = SowingVectorEnv(4).reset(seed=2**70 + 1)
    assert np.array_equal(first, again)
    assert SowingVectorEnv(4, seed=2**70).core.seed is not None
    del other


def test_ctrl_c_stops_engine_opponents_at_once():
    # Each reply of this opponent thinks 20 s; Ctrl-C after 0.5 s must not wait for it.
    core2 = VectorGame(2, opponent="search:time=20000", seed=0, threads=2,
                       illegal_action="raise")
    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    started = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        core2.step(core2.masks.argmax(axis=1))
    assert time.monotonic() - started < 5
    assert core2.needs_reset
    with pytest.raises(sowing.SowingError, match="interrupted"):
        core2.step(core2.masks.argmax(axis=1))


def test_ctrl_c_stops_a_single_engine_search():
    engine = sowing.Engine(player="search:time=20000")
    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    started = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        engine.best_move(sowing.Game())
    assert time.monotonic() - started < 5
    # The engine searches again afterwards (the stop flag is cleared).
    assert sowing.Engine(level=1).best_move(sowing.Game()) in sowing.Game().legal_moves()
    quick = sowing.Engine(player="search:nodes=2000")
    assert quick.best_move(sowing.Game()) in sowing.Game().legal_moves()
