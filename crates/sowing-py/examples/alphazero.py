"""AlphaZero on Hoyito III in a few minutes of CPU: self-play searched by ``sowing.BatchedMCTS``
(PUCT in Rust, many games at once, one network call a round for all their leaves), a small
network in NumPy alone (no PyTorch needed), then the network's search against ``random``
and ``greedy``.

    python crates/sowing-py/examples/alphazero.py --minutes 3

The network: the observation (``Game.observation``, from the mover's point of view) scaled
down, two hidden layers of 128 ReLU units, a policy head (logits of the columns) and a
value head (tanh: the mover's expected result, -1 … 1). Trained with Adam on the search's
visit distributions (cross-entropy) and the games' results (squared error), from a window
of the latest self-play positions. ``--tables N`` builds the endgame tables up to N seeds
on the board (in a temporary directory) and lets the search use them as exact leaves.
"""

from __future__ import annotations

import argparse
import tempfile
import time

import numpy as np

import sowing
import sowing.tables

GAME = "hoyito-iii"
N = 6
SIZE = 2 * N + 8


class Network:
    """A two-layer perceptron with a policy and a value head, trained by Adam."""

    def __init__(self, hidden: int, rng: np.random.Generator) -> None:
        def layer(fan_in: int, fan_out: int) -> np.ndarray:
            return rng.normal(0.0, np.sqrt(2.0 / fan_in), (fan_in, fan_out)).astype(np.float32)

        self.params = {
            "w1": layer(SIZE, hidden), "b1": np.zeros(hidden, np.float32),
            "w2": layer(hidden, hidden), "b2": np.zeros(hidden, np.float32),
            "wp": layer(hidden, N) * 0.1, "bp": np.zeros(N, np.float32),
            "wv": layer(hidden, 1) * 0.1, "bv": np.zeros(1, np.float32),
        }
        self.moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in self.params.items()}
        self.t = 0

    @staticmethod
    def features(observations: np.ndarray) -> np.ndarray:
        x = observations.astype(np.float32, copy=True)
        x[:, : 2 * N] /= 4.0  # seeds in the pits: 4 each at the start
        x[:, 2 * N : 2 * N + 2] /= 24.0  # captures: half the seeds
        return x

    def forward(self, observations: np.ndarray):
        p = self.params
        x = self.features(observations)
        z1 = x @ p["w1"] + p["b1"]
        h1 = np.maximum(z1, 0)
        z2 = h1 @ p["w2"] + p["b2"]
        h2 = np.maximum(z2, 0)
        logits = h2 @ p["wp"] + p["bp"]
        value = np.tanh(h2 @ p["wv"] + p["bv"])[:, 0]
        return logits, value, (x, z1, h1, z2, h2)

    def evaluate(self, observations: np.ndarray, masks: np.ndarray):
        """``BatchedMCTS``'s evaluator: logits and values of a batch."""
        logits, value, _ = self.forward(observations)
        return logits, value

    def train_step(self, obs, masks, targets, results, lr: float) -> tuple[float, float]:
        p = self.params
        logits, value, (x, z1, h1, z2, h2) = self.forward(obs)
        batch = len(obs)
        logits = np.where(masks == 1, logits, -1e9)
        logits -= logits.max(axis=1, keepdims=True)
        probs = np.exp(logits)
        probs /= probs.sum(axis=1, keepdims=True)
        policy_loss = -np.mean(np.sum(targets * np.log(probs + 1e-9), axis=1))
        value_loss = np.mean((value - results) ** 2)
        d_logits = (probs - targets) / batch
        d_value = (2.0 * (value - results) * (1.0 - value**2) / batch)[:, None]
        grads = {"wp": h2.T @ d_logits, "bp": d_logits.sum(0),
                 "wv": h2.T @ d_value, "bv": d_value.sum(0)}
        d_h2 = d_logits @ p["wp"].T + d_value @ p["wv"].T
        d_z2 = d_h2 * (z2 > 0)
        grads["w2"], grads["b2"] = h1.T @ d_z2, d_z2.sum(0)
        d_z1 = (d_z2 @ p["w2"].T) * (z1 > 0)
        grads["w1"], grads["b1"] = x.T @ d_z1, d_z1.sum(0)
        self.t += 1
        for key, grad in grads.items():
            m, v = self.moments[key]
            m *= 0.9
            m += 0.1 * grad
            v *= 0.999
            v += 0.001 * grad**2
            m_hat = m / (1 - 0.9**self.t)
            v_hat = v / (1 - 0.999**self.t)
            p[key] -= (lr * m_hat / (np.sqrt(v_hat) + 1e-8)).astype(np.float32)
        return float(policy_loss), float(value_loss)


def settle(game: sowing.Game) -> None:
    while not game.is_over and game.legal_moves() == ["pass"]:
        game.play("pass")


def margin(game: sowing.Game, side: str) -> int:
    south, north = game.captured
    return south - north if side == "south" else north - south


def self_play(net: Network, mcts: sowing.BatchedMCTS, games: int, seconds: float,
              rng: np.random.Generator, lr: float) -> dict:
    """Self-play for ``seconds``: ``games`` games searched together; after every move of
    all of them, a few training steps on the latest positions."""
    window = 60_000
    buffer_obs = np.zeros((window, SIZE), np.float32)
    buffer_mask = np.zeros((window, N), np.int8)
    buffer_pi = np.zeros((window, N), np.float32)
    buffer_z = np.zeros(window, np.float32)
    filled = written = 0
    boards = [sowing.Game(GAME) for _ in range(games)]
    records: list[list] = [[] for _ in range(games)]
    finished = moves = 0
    losses = (0.0, 0.0)
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        visits, _ = mcts.search(boards, net.evaluate, noise=True)
        for i, game in enumerate(boards):
            pi = visits[i] / visits[i].sum()
            if game.ply < 12:  # the opening: moves drawn as often as searched
                action = int(rng.choice(N, p=pi))
            else:
                action = int(visits[i].argmax())
            mask = game.action_mask()[:N]
            records[i].append((game.observation(), mask, pi, game.to_move))
            game.play(action)
            settle(game)
            moves += 1
            if game.is_over:
                for obs, m, target, side in records[i]:
                    k = written % window
                    buffer_obs[k], buffer_mask[k], buffer_pi[k] = obs, m, target
                    buffer_z[k] = np.sign(margin(game, side))
                    written += 1
                filled = min(written, window)
                finished += 1
                boards[i] = sowing.Game(GAME)
                records[i] = []
        if filled >= 2048:
            for _ in range(4):
                pick = rng.integers(0, filled, 512)
                losses = net.train_step(buffer_obs[pick], buffer_mask[pick], buffer_pi[pick],
                                        buffer_z[pick], lr)
    return {"games": finished, "moves": moves, "positions": written,
            "policy_loss": losses[0], "value_loss": losses[1]}


def match(net: Network, mcts: sowing.BatchedMCTS, opponent: str, games: int, seed: int) -> dict:
    """The network's search (no noise, the most visited move) against ``opponent``, half
    the games as South: wins, draws and losses."""
    boards = [sowing.Game(GAME) for _ in range(games)]
    sides = ["south" if i % 2 == 0 else "north" for i in range(games)]
    engines = [sowing.Engine(player=opponent, seed=seed + i) for i in range(games)]
    for game in boards:
        settle(game)
    while not all(game.is_over for game in boards):
        ours = [i for i, g in enumerate(boards) if not g.is_over and g.to_move == sides[i]]
        if ours:
            visits, _ = mcts.search([boards[i] for i in ours], net.evaluate, noise=False)
            for i, row in zip(ours, visits):
                boards[i].play(int(row.argmax()))
                settle(boards[i])
        for i, game in enumerate(boards):
            while not game.is_over and game.to_move != sides[i]:
                game.play(engines[i].best_move(game))
                settle(game)
    results = [np.sign(margin(g, s)) for g, s in zip(boards, sides)]
    return {"won": results.count(1), "drawn": results.count(0), "lost": results.count(-1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=3.0, help="self-play time")
    parser.add_argument("--games", type=int, default=128, help="self-play games at once")
    parser.add_argument("--simulations", type=int, default=48)
    parser.add_argument("--eval-games", type=int, default=100)
    parser.add_argument("--eval-simulations", type=int, default=48)
    parser.add_argument("--tables", type=int, default=0, help="endgame tables up to N seeds")
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    rng = np.random.default_rng(args.seed)
    net = Network(128, rng)
    tables = None
    if args.tables:
        directory = tempfile.mkdtemp(prefix="sowing-tables-")
        sowing.tables.build(GAME, max_seeds=args.tables, dir=directory)
        tables = sowing.tables.open_tables(GAME, dir=directory)
    search = sowing.BatchedMCTS(simulations=args.simulations, leaves_per_round=8,
                                tables=tables, seed=args.seed)
    judge = sowing.BatchedMCTS(simulations=args.eval_simulations, leaves_per_round=8,
                               tables=tables, seed=args.seed + 1)
    before = {o: match(net, judge, o, args.eval_games, 1000) for o in ("random", "greedy")}
    start = time.process_time()
    wall = time.perf_counter()
    stats = self_play(net, search, args.games, 60 * args.minutes, rng, args.lr)
    cpu = time.process_time() - start
    print(f"AlphaZero, {GAME}: {stats['games']} self-play games ({stats['moves']:,} moves, "
          f"{args.simulations} simulations a move) in {time.perf_counter() - wall:.0f} s "
          f"({cpu:.0f} s of CPU); losses: policy {stats['policy_loss']:.3f}, "
          f"value {stats['value_loss']:.3f}")
    for opponent in ("random", "greedy"):
        after = match(net, judge, opponent, args.eval_games, 2000)
        score = (after["won"] + after["drawn"] / 2) / args.eval_games
        print(f"  against {opponent:6} ({args.eval_simulations} simulations a move): "
              f"untrained {before[opponent]}, trained {after} ({score:.0%} of the points)")


if __name__ == "__main__":
    main()
