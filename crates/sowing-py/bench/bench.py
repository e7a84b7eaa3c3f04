"""Speed of the Python package, side by side with OpenSpiel's C++ Oware and PettingZoo.

    python crates/sowing-py/bench/bench.py [--runs 5] [--seconds 2] [--json]

Every figure is uniformly random legal play, on one thread unless the row says 2, as
environment steps (moves) per second, the median of ``--runs`` runs of about ``--seconds`` each:

- ``VecGame``: 1,024 Hoyito II games stepped in Rust, the random legal actions drawn
  in Rust by ``VecGame.sample_actions`` (the figure of record), or with NumPy from the
  masks (their cost included), or the step alone;
- ``Game.play``: single moves from Python, replaying recorded random games (the move
  choice not included), and a plain loop that also asks ``legal_actions()`` and draws;
- OpenSpiel: its own C++ ``oware`` and our ``sowing_hoyito_ii`` (a Python game) through
  the same loop of ``legal_actions``, a random choice and ``apply_action``;
- PettingZoo: the classic ``connect_four_v3`` (the closest classic environment: two
  players, perfect information, a small discrete action space with a mask; needs
  pygame) and ours, through the same ``last()``/``step`` loop.
- Gymnasium: ``sowing/HoyitoII-v0`` against the random opponent (agent steps), and
  ``sowing.vector.SowingVectorEnv``, 1,024 games against the random opponent stepped in
  Rust (agent steps: each one the agent's move and the opponent's replies), with the
  actions drawn with NumPy from the masks, or the step alone; on 1 and 2 threads; in
  self-play (an agent step is one move, either side's); and against a Python policy
  (NumPy's argmax of the masks, called once a round for all the games it moves in).

``--only WORDS`` keeps the rows whose name has one of the comma-separated words (``--only
vector,oware``: the vector environment beside OpenSpiel's Oware).

Each row gives steps per second of wall-clock time and per second of the process's CPU
time (``time.process_time``): on a machine shared with other work the process waits for
the processor, and the CPU-time figure is the closer one to a core of its own. Figures
vary with the machine's load: quote medians, and say how loaded it was.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import platform
import random
import statistics
import time
from typing import Callable

# One thread: NumPy's BLAS would otherwise start a thread a core (idle, but not always asleep).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

import sowing


class Clock:
    """Wall-clock and CPU time since it was made, or summed over `with` blocks."""

    def __init__(self) -> None:
        self.wall = 0.0
        self.cpu = 0.0

    def __enter__(self) -> "Clock":
        self._wall, self._cpu = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *_: object) -> None:
        self.wall += time.perf_counter() - self._wall
        self.cpu += time.process_time() - self._cpu


def timed(run: Callable[[float], object], seconds: float, runs: int) -> dict:
    """Medians of `runs` runs of `run(seconds)`, which returns a step count, or a step
    count and the Clock of the part to time (else the whole run is timed)."""
    wall, cpu = [], []
    for _ in range(runs):
        with Clock() as whole:
            result = run(seconds)
        steps, clock = result if isinstance(result, tuple) else (result, whole)
        wall.append(steps / clock.wall)
        cpu.append(steps / clock.cpu)
    return {"wall": statistics.median(wall), "cpu": statistics.median(cpu),
            "wall_runs": wall, "cpu_runs": cpu}


def vec_game_sampled(n: int = 1024) -> Callable[[float], int]:
    def run(seconds: float) -> int:
        vec = sowing.VecGame(n, "hoyito-ii", seed=1)
        steps = 0
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            for _ in range(50):
                vec.step(vec.sample_actions())
            steps += 50 * n
        return steps

    return run


def vec_game(n: int = 1024, step_only: bool = False) -> Callable[[float], object]:
    def run(seconds: float) -> object:
        vec = sowing.VecGame(n, "hoyito-ii")
        rng = np.random.default_rng(1)
        masks = vec.masks
        steps = 0
        stepping = Clock()
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            for _ in range(50):
                # Uniform over the legal actions: the largest of uniform draws where legal.
                actions = (rng.random(masks.shape) * masks).argmax(axis=1)
                with stepping:
                    vec.step(actions)
            steps += 50 * n
        return (steps, stepping) if step_only else steps

    return run


@functools.lru_cache(maxsize=None)
def recorded_games(count: int = 2000) -> list[list[int]]:
    rng = random.Random(1)
    games = []
    for _ in range(count):
        game = sowing.Game("hoyito-ii")
        actions = []
        while not game.is_over:
            action = rng.choice(game.legal_actions())
            game.play(action)
            actions.append(action)
        games.append(actions)
    return games


def game_play(games: Callable[[], list[list[int]]]) -> Callable[[float], int]:
    def run(seconds: float) -> int:
        steps = 0
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            for actions in games()[:200]:
                game = sowing.Game("hoyito-ii")
                play = game.play
                for action in actions:
                    play(action)
                steps += len(actions)
        return steps

    return run


def game_loop(seconds: float) -> int:
    rng = random.Random(2)
    steps = 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        for _ in range(20):
            game = sowing.Game("hoyito-ii")
            while not game.is_over:
                game.play(rng.choice(game.legal_actions()))
                steps += 1
    return steps


def openspiel(name: str) -> Callable[[float], int]:
    import pyspiel

    import sowing.openspiel  # noqa: F401

    game = pyspiel.load_game(name)

    def run(seconds: float) -> int:
        rng = random.Random(3)
        steps = 0
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            for _ in range(5):
                state = game.new_initial_state()
                while not state.is_terminal():
                    state.apply_action(rng.choice(state.legal_actions()))
                    steps += 1
        return steps

    return run


def pettingzoo(make: Callable[[], object]) -> Callable[[float], int]:
    def run(seconds: float) -> int:
        rng = np.random.default_rng(4)
        env = make()
        steps = 0
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            env.reset(seed=int(rng.integers(1 << 30)))
            for agent in env.agent_iter():
                observation, _, termination, truncation, _ = env.last()
                if termination or truncation:
                    env.step(None)
                    continue
                env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
                steps += 1
        env.close()
        return steps

    return run


def gymnasium_env(seconds: float) -> int:
    import gymnasium

    env = gymnasium.make("sowing/HoyitoII-v0", opponent="random")
    rng = np.random.default_rng(5)
    steps = 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        _, info = env.reset(seed=int(rng.integers(1 << 30)))
        terminated = False
        while not terminated:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, _, terminated, _, info = env.step(action)
            steps += 1
    return steps


def first_legal(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """A policy opponent as cheap as one can be: the leftmost legal column (NumPy)."""
    return masks.argmax(axis=1)


def vector_env(step_only: bool, opponent: object = "random", threads: int = 1
               ) -> Callable[[float], object]:
    from sowing.vector import SowingVectorEnv

    def run(seconds: float) -> object:
        env = SowingVectorEnv(1024, "hoyito-ii", opponent=opponent, threads=threads, seed=6)
        env.reset(seed=6)
        masks = env.core.masks  # the core's own array, overwritten by each step
        rng = np.random.default_rng(6)
        steps = 0
        stepping = Clock()
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            for _ in range(20):
                actions = (rng.random(masks.shape) * masks).argmax(axis=1)
                with stepping:
                    env.step(actions)
            steps += 20 * 1024
        return (steps, stepping) if step_only else steps

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--only", default="", help="comma-separated words of the rows to run")
    args = parser.parse_args()

    rows = [
        ("sowing.VecGame, 1,024 Hoyito II games, sample_actions", vec_game_sampled()),
        ("sowing.VecGame, 1,024 Hoyito II games, NumPy draws", vec_game()),
        ("sowing.VecGame.step alone", vec_game(step_only=True)),
        ("sowing.Game.play, Hoyito II (recorded random games)", game_play(recorded_games)),
        ("sowing.Game: legal_actions + choice + play", game_loop),
        ("OpenSpiel oware (C++), from Python", openspiel("oware")),
        ("OpenSpiel sowing_hoyito_ii (Python game)", openspiel("sowing_hoyito_ii")),
    ]
    try:
        from pettingzoo.classic import connect_four_v3

        rows.append(("PettingZoo connect_four_v3 (classic)", pettingzoo(connect_four_v3.env)))
    except ImportError as error:  # pygame missing
        print(f"(PettingZoo connect_four_v3 left out: {error})")
    from sowing.pettingzoo import env as sowing_env

    rows.append(("PettingZoo sowing, Hoyito II", pettingzoo(lambda: sowing_env(game="hoyito-ii"))))
    rows.append(("Gymnasium sowing/HoyitoII-v0 vs random", gymnasium_env))
    rows.append(("sowing.vector, 1,024 games vs random, NumPy draws", vector_env(False)))
    rows.append(("sowing.vector, 1,024 games vs random, step alone", vector_env(True)))
    rows.append(("sowing.vector, 1,024 games vs random, 2 threads, step alone",
                 vector_env(True, threads=2)))
    rows.append(("sowing.vector self-play, 1,024 games, step alone",
                 vector_env(True, opponent="self")))
    rows.append(("sowing.vector self-play, 1,024 games, 2 threads, step alone",
                 vector_env(True, opponent="self", threads=2)))
    rows.append(("sowing.vector, 1,024 games vs a Python policy, step and policy",
                 vector_env(True, opponent=first_legal)))
    if args.only:
        words = [w.strip().lower() for w in args.only.split(",") if w.strip()]
        rows = [(name, run) for name, run in rows if any(w in name.lower() for w in words)]

    results = []
    if not args.json:
        print(f"{'steps per second (median)':55} {'wall':>11} {'CPU':>11}   CPU runs")
    for name, run in rows:
        figures = timed(run, args.seconds, args.runs)
        results.append({"name": name, **figures})
        if not args.json:
            runs = ", ".join(f"{r / 1e3:,.0f}k" for r in figures["cpu_runs"])
            print(f"{name:55} {figures['wall']:>11,.0f} {figures['cpu']:>11,.0f}   ({runs})",
                  flush=True)
    load = open("/proc/loadavg").read().split()[:3] if platform.system() == "Linux" else []
    if args.json:
        print(json.dumps({"python": platform.python_version(), "load": load,
                          "cpus": os.cpu_count(), "results": results}))
    elif load:
        print(f"load average {' '.join(load)} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
