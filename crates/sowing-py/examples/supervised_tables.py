"""A small network learns perfect endgame moves from a dataset of `python -m sowing.dataset`.

A two-layer perceptron in NumPy alone (no PyTorch): the observation (divided by the game's
seeds) in, one logit a column out, trained with Adam to put its probability on the best
moves (cross-entropy of the legal softmax against "any best move": -log Σ_best p). Accuracy:
the share of held-out positions where its most likely legal move is a best one; chance is
what a uniformly random legal move scores, the mean of |best| / |legal|. Positions of the
test file that are also in the training file are left out of the test.

    python -m sowing.dataset --game ayoayo --dir T --tables 50000 --self-play 50000 --seed 0 train.parquet
    python -m sowing.dataset --game ayoayo --dir T --tables 10000 --self-play 10000 --seed 1 test.parquet
    python crates/sowing-py/examples/supervised_tables.py train.parquet test.parquet

It then plays the trained network through ``sowing.evaluate`` (published set and ladder).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import sowing
from sowing.dataset import arrays, read_dataset


class Network:
    """observation → ReLU(W1) → ReLU(W2) → logits, with Adam's moments."""

    def __init__(self, inputs: int, hidden: int, outputs: int, scale: float, seed: int):
        rng = np.random.default_rng(seed)
        self.scale = scale

        def layer(a: int, b: int) -> list[np.ndarray]:
            return [rng.normal(0, np.sqrt(2 / a), (a, b)).astype(np.float32),
                    np.zeros(b, np.float32)]

        self.params = layer(inputs, hidden) + layer(hidden, hidden) + layer(hidden, outputs)
        self.moments = [(np.zeros_like(p), np.zeros_like(p)) for p in self.params]
        self.steps = 0

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
        w1, b1, w2, b2, w3, b3 = self.params
        h0 = x / self.scale
        h1 = np.maximum(h0 @ w1 + b1, 0)
        h2 = np.maximum(h1 @ w2 + b2, 0)
        return h2 @ w3 + b3, [h0, h1, h2]

    def logits(self, x: np.ndarray, masks: np.ndarray) -> np.ndarray:
        out, _ = self.forward(x)
        return np.where(masks == 1, out, -np.inf)

    def train_step(self, x: np.ndarray, masks: np.ndarray, best: np.ndarray,
                   rate: float) -> float:
        out, (h0, h1, h2) = self.forward(x)
        logits = np.where(masks == 1, out, -1e9)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits) * masks
        p /= p.sum(axis=1, keepdims=True)
        on_best = (p * best).sum(axis=1)
        loss = float(-np.log(on_best + 1e-12).mean())
        # d(-log Σ_best p)/d logit_j = p_j - p_j·best_j / Σ_best p
        grad = (p - p * best / (on_best[:, None] + 1e-12)) / len(x)
        w1, b1, w2, b2, w3, b3 = self.params
        g3 = h2.T @ grad
        d2 = (grad @ w3.T) * (h2 > 0)
        g2 = h1.T @ d2
        d1 = (d2 @ w2.T) * (h1 > 0)
        g1 = h0.T @ d1
        grads = [g1, d1.sum(0), g2, d2.sum(0), g3, grad.sum(0)]
        self.steps += 1
        for param, g, (m, v) in zip(self.params, grads, self.moments):
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
            m_hat = m / (1 - 0.9 ** self.steps)
            v_hat = v / (1 - 0.999 ** self.steps)
            param -= rate * m_hat / (np.sqrt(v_hat) + 1e-8)
        return loss

    def policy(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The protocol of ``sowing.evaluate``: the most likely legal column."""
        return self.logits(observations, masks).argmax(axis=1)


def accuracy(net: Network, x: np.ndarray, masks: np.ndarray, best: np.ndarray) -> float:
    chosen = net.logits(x, masks).argmax(axis=1)
    return float(best[np.arange(len(x)), chosen].mean())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("train")
    parser.add_argument("test")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--rate", type=float, default=1e-3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tables", help="the tables' directory, to evaluate the network")
    args = parser.parse_args()

    train, test = read_dataset(args.train), read_dataset(args.test)
    known = set(train.column("position").to_pylist())
    fresh = np.array([p not in known for p in test.column("position").to_pylist()])
    x, masks, best = arrays(train)
    tx, tmasks, tbest = (a[fresh] for a in arrays(test))
    game = train.column("game")[0].as_py()
    seeds = sum(sowing.Game(game).pits)
    chance = float((tbest.sum(axis=1) / tmasks.sum(axis=1)).mean())
    print(f"{game}: {len(x)} training positions, {len(tx)} held out "
          f"({int((~fresh).sum())} test positions also in training left out); "
          f"chance {chance:.1%}")

    net = Network(x.shape[1], args.hidden, masks.shape[1], seeds, args.seed)
    rng = np.random.default_rng(args.seed)
    started = time.perf_counter()
    for epoch in range(1, args.epochs + 1):
        order = rng.permutation(len(x))
        losses = [net.train_step(x[b], masks[b], best[b], args.rate)
                  for b in np.array_split(order, max(1, len(x) // args.batch))]
        if epoch % 5 == 0 or epoch == args.epochs:
            print(f"epoch {epoch}: loss {np.mean(losses):.3f}, train accuracy "
                  f"{accuracy(net, x, masks, best):.1%}, held-out {accuracy(net, tx, tmasks, tbest):.1%}"
                  f" ({time.perf_counter() - started:.0f} s)")
    held_out = accuracy(net, tx, tmasks, tbest)
    print(f"held-out accuracy {held_out:.1%} (chance {chance:.1%})")
    if args.tables:
        print(sowing.evaluate(net.policy, game, dir=args.tables, seed=args.seed))


if __name__ == "__main__":
    main()
