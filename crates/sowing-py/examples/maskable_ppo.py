"""MaskablePPO (sb3-contrib) on the vector environment stepped in Rust, with no wrapper but
Stable-Baselines3's own VecMonitor; then the trained policy against random and greedy.

    pip install ./crates/sowing-py sb3-contrib     # sb3-contrib brings PyTorch
    python crates/sowing-py/examples/maskable_ppo.py --steps 2000000

``scripts/python-train.sh`` runs it (and the AlphaZero example) in a virtualenv of its own.
The agent plays Hoyito II against the random opponent, half its games as South and half
as North (``agent="alternate"``), rewarded by the final margin divided by the seeds
(``reward="normalized"``: the raw ±48 margin makes PPO's value targets too large).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import VecMonitor

from sowing.vector import SowingVecEnv


def evaluate(model: MaskablePPO, game: str, opponent: str, games: int, seed: int) -> dict:
    """The policy (its most likely legal action) in ``games`` games against ``opponent``,
    half of them as South: wins, draws and losses."""
    env = SowingVecEnv(games, game, opponent=opponent, agent="alternate", reward="win",
                       seed=seed)
    obs = env.reset()
    results = np.full(games, np.nan)
    while np.isnan(results).any():
        actions, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
        obs, rewards, dones, _ = env.step(actions)
        first = dones & np.isnan(results)  # each game's first result counts
        results[first] = rewards[first]
    return {"won": int((results > 0).sum()), "drawn": int((results == 0).sum()),
            "lost": int((results < 0).sum())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="hoyito-ii")
    parser.add_argument("--steps", type=int, default=2_000_000, help="agent steps to train")
    parser.add_argument("--envs", type=int, default=256)
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--eval-games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    env = VecMonitor(SowingVecEnv(args.envs, args.game, opponent=args.opponent,
                                  agent="alternate", reward="normalized", seed=args.seed))
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=64, batch_size=4096, n_epochs=4, learning_rate=1e-3,
        gamma=1.0, ent_coef=0.01, policy_kwargs={"net_arch": [128, 128]},
        seed=args.seed, device="cpu", verbose=0,
    )
    before = {o: evaluate(model, args.game, o, args.eval_games, 1) for o in ("random", "greedy")}
    start = time.perf_counter()
    model.learn(total_timesteps=args.steps)
    seconds = time.perf_counter() - start
    print(f"MaskablePPO, {args.game} against {args.opponent}: {args.steps:,} agent steps "
          f"in {seconds:.0f} s ({args.steps / seconds:,.0f} a second, training included)")
    for opponent in ("random", "greedy"):
        after = evaluate(model, args.game, opponent, args.eval_games, 2)
        score = (after["won"] + after["drawn"] / 2) / args.eval_games
        print(f"  against {opponent:6}: before training {before[opponent]}, after {after} "
              f"({score:.0%} of the points)")


if __name__ == "__main__":
    main()
