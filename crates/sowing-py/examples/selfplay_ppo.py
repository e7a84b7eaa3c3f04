"""Self-play PPO: MaskablePPO (sb3-contrib) against a league of its own frozen snapshots,
stepped in Rust, with its curve against the ladder of ``sowing.evaluate``.

    pip install ./crates/sowing-py sb3-contrib pyarrow     # sb3-contrib brings PyTorch
    python crates/sowing-py/examples/selfplay_ppo.py --steps 2000000 --checkpoints 4

The opponent is never a built-in player: it is a ``sowing.vector.League`` of frozen copies
of the policy being trained (each game draws one at its start; they sample their moves),
starting with the untrained policy, and every ``--snapshot-every`` agent steps the policy
as it stands joins the league, which keeps the ``--league-size`` most recent snapshots. The vector environment asks each snapshot once a round for
all the games it plays, so the league costs one forward pass a snapshot a step, not one a
game. At each checkpoint the trained policy (its most likely legal move) goes through
``sowing.evaluate``: its seeds lost per move against the endgame tables on the published
set, and its Elo against the ladder (random, greedy, levels 1–3 by default), with the 95%
interval. ``scripts/python-train.sh`` runs it.
"""

from __future__ import annotations

import argparse
import copy
import tempfile
import time
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import VecMonitor

import sowing
import sowing.tables
from sowing.vector import League, SowingVecEnv


class Frozen:
    """A frozen copy of a MaskablePPO policy as a policy callable: it samples its move
    among the legal ones (``deterministic=True``: the most likely one)."""

    def __init__(self, policy: Any, deterministic: bool = False) -> None:
        self.policy = copy.deepcopy(policy).eval()
        self.deterministic = deterministic

    def __call__(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            actions, _ = self.policy.predict(observations, action_masks=masks.astype(bool),
                                             deterministic=self.deterministic)
        return actions


class SelfPlay(BaseCallback):
    """Adds a snapshot to the league every ``every`` agent steps (the oldest leaves once
    there are ``size``: each member costs a forward pass a round), and evaluates the policy
    at every ``checkpoint`` steps."""

    def __init__(self, env: SowingVecEnv, league: League, every: int, size: int,
                 checkpoint: int, evaluate: Any) -> None:
        super().__init__()
        self.env, self.league, self.every, self.size = env, league, every, size
        self.checkpoint, self.evaluate = checkpoint, evaluate
        self.next_snapshot, self.next_checkpoint = every, checkpoint
        self.snapshots = 1

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next_snapshot:
            kept = self.league.policies[max(0, len(self.league) - self.size + 1):]
            members = (kept if self.size > 1 else []) + [Frozen(self.model.policy)]
            self.league = League(members)
            self.env.set_opponent(self.league)
            self.snapshots += 1
            self.next_snapshot += self.every
        if self.num_timesteps >= self.next_checkpoint:
            self.evaluate(self.model, self.num_timesteps, self.snapshots)
            self.next_checkpoint += self.checkpoint
        return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="hoyito-ii")
    parser.add_argument("--steps", type=int, default=2_000_000, help="agent steps to train")
    parser.add_argument("--checkpoints", type=int, default=4)
    parser.add_argument("--snapshot-every", type=int, default=100_000)
    parser.add_argument("--league-size", type=int, default=8,
                        help="the most recent snapshots the league keeps")
    parser.add_argument("--envs", type=int, default=256)
    parser.add_argument("--rungs", default="random,greedy,level:1,level:2,level:3")
    parser.add_argument("--games", type=int, default=100, help="games against each rung")
    parser.add_argument("--positions", type=int, default=2000,
                        help="positions of the published set")
    parser.add_argument("--tables-seeds", type=int, default=12,
                        help="the endgame tables to this many seeds judge the moves")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--torch-threads", type=int, default=1,
                        help="PyTorch's threads: the network is small, and more threads spin "
                             "against each other on a busy machine")
    args = parser.parse_args()
    if args.league_size < 1 or args.checkpoints < 1:
        parser.error("--league-size and --checkpoints must be at least 1")

    torch.set_num_threads(args.torch_threads)
    tables = tempfile.mkdtemp(prefix="sowing-tables-")
    built = time.perf_counter()
    sowing.tables.build(args.game, max_seeds=args.tables_seeds, dir=tables)
    print(f"tables of {args.game} to {args.tables_seeds} seeds built in "
          f"{time.perf_counter() - built:.0f} s")
    rungs = tuple(args.rungs.split(","))
    started = time.perf_counter()

    def evaluate(model: MaskablePPO, steps: int, snapshots: int) -> None:
        """One row of the curve: ``snapshots`` taken so far, the Elo, the tables' verdict."""
        clock = time.perf_counter()
        result = sowing.evaluate(Frozen(model.policy, deterministic=True), args.game,
                                 dir=tables, positions=args.positions, seed=args.seed,
                                 rungs=rungs, games=args.games)
        scores = "  ".join(f"{r.name} {r.score:.0%}" for r in result.ladder)
        total = result.published_total
        print(f"{steps:>10,} steps  {time.perf_counter() - started:>6.0f} s  "
              f"snapshots {snapshots:>3}  Elo {result.elo}  "
              f"loss {total.mean_loss:.2f} seeds/move ({total.losing_share:.0%} lose)  "
              f"{scores}   [evaluated in {time.perf_counter() - clock:.0f} s]", flush=True)

    def environment(opponent: Any) -> SowingVecEnv:
        return SowingVecEnv(args.envs, args.game, opponent=opponent, agent="alternate",
                            reward="normalized", seed=args.seed)

    # The policy is made first, on an environment of the same spaces, so that its untrained
    # self is the league's first member: self-play from the first step.
    model = MaskablePPO(
        "MlpPolicy", VecMonitor(environment("random")), n_steps=64, batch_size=4096,
        n_epochs=4, learning_rate=1e-3, gamma=1.0, ent_coef=0.01,
        policy_kwargs={"net_arch": [128, 128]}, seed=args.seed, device="cpu", verbose=0,
    )
    league = League([Frozen(model.policy)])
    env = environment(league)
    model.set_env(VecMonitor(env))
    evaluate(model, 0, len(league))
    callback = SelfPlay(env, league, args.snapshot_every, args.league_size,
                        args.steps // args.checkpoints, evaluate)
    model.learn(total_timesteps=args.steps, callback=callback)
    seconds = time.perf_counter() - started
    print(f"MaskablePPO self-play, {args.game}: {args.steps:,} agent steps in {seconds:.0f} s "
          f"({args.steps / seconds:,.0f} a second, training and evaluations included)")


if __name__ == "__main__":
    main()
