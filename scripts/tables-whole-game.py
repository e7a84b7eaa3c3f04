#!/usr/bin/env python3
"""The whole game of Hoyito (2x6) on paper: the cost of every reachable layer to 48 seeds on
a cluster, from per-position costs measured on this machine (docs/tables.md, "The whole
game, on paper"). Prints one line a layer and the totals.

    scripts/tables-whole-game.py [--cpu-us US] [--growth G] [--moves M] [--exits E]
                                 [--messages S] [--rounds-growth R] [--machines N]
                                 [--cores C] [--memory-gib GIB] [--network-gbit GBIT]

--cpu-us: CPU microseconds a position at 24 seeds (expansion and solve; measured: CPU time of
`sow tables build` over its positions); --growth: how much a position costs more for each
4 seeds more (fitted on the measured layers 16, 20 and 24); --moves: moves inside the layer a
position; --exits: moves a position that leave its layer (captures: lookups in the layers below);
--messages: messages a position of the solve sends to the owners of its predecessors (measured:
2.2 between 4 shards in layer 24 of Hoyito III, a share 3/4 of all of them: 2.93); rounds of
the attractors a layer (over every threshold), each a barrier of every worker
(--round-latency-ms): as measured to 28 seeds (160, 163, 206 in the split solve of layers 16, 20,
24; 258 in the solve of layer 28 on disk), then --rounds-growth more for each 4 seeds.
"""

import argparse
from math import comb

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--cpu-us", type=float, default=0.98)
parser.add_argument("--growth", type=float, default=1.3)
parser.add_argument("--moves", type=float, default=3.2)
parser.add_argument("--exits", type=float, default=2.5)
parser.add_argument("--messages", type=float, default=2.93)
parser.add_argument("--rounds-growth", type=int, default=52)
parser.add_argument("--machines", type=int, default=64)
parser.add_argument("--cores", type=int, default=64)
parser.add_argument("--memory-gib", type=float, default=256)
parser.add_argument("--network-gbit", type=float, default=10)
parser.add_argument("--round-latency-ms", type=float, default=1.0)
args = parser.parse_args()

GIB = 2**30
# Bytes a position held by the worker that owns it during its layer's solve: value, best
# exit, counter (1 byte each), the row start of its predecessors (8 bytes: a layer of 2×6
# past 28 seeds has more moves than 32 bits count), and its predecessors, 5 bytes each
# (indices below 2^40 = 1.1 trillion).
OWNED = 3 + 8
PER_MOVE = 5
# Over the network, once a layer: each move inside goes from the worker that sowed it to the
# owner of its target (5 + 5 bytes: parent and target); in the solve each decided position
# tells the owners of its predecessors (--messages a position, 5 bytes each). Each exit (a capture) asks the
# owner of its target in a lower layer for its value (5 bytes there, 1 back): the lower
# layers stay sharded in the workers' memory (193 GB below 48 seeds: 3 GB a worker of 64)
# instead of being read at random from disk. Messages between ranges of one worker stay
# home: a share 1/N of them.
SHIP = 10
MESSAGE = 5
LOOKUP = 6
MEASURED_ROUNDS = {16: 160, 20: 163, 24: 206, 28: 258}  # below 16: as 16

workers = args.machines
cores = args.machines * args.cores
total = dict(positions=0, cpu_h=0.0, wall_s=0.0, net=0.0, disk=0.0)
print(f"{'seeds':>5} {'positions':>17} {'CPU-hours':>10} {'wall':>8} {'GiB/worker':>10} "
      f"{'network TB':>10} {'rounds':>6}")
for seeds in range(4, 49, 4):
    positions = comb(seeds + 11, 11)
    cpu_s = positions * args.cpu_us * 1e-6 * args.growth ** ((seeds - 24) / 4)
    moves = positions * args.moves
    lower = sum(comb(s + 11, 11) for s in range(4, seeds, 4))
    held = (positions * OWNED + moves * PER_MOVE + lower) / workers
    sent = moves * SHIP + positions * (args.messages * MESSAGE + args.exits * LOOKUP)
    net = sent * (workers - 1) / workers
    rounds = MEASURED_ROUNDS.get(max(seeds, 16), 258 + args.rounds_growth * (seeds - 28) // 4)
    compute = cpu_s / cores
    transfer = net / workers / (args.network_gbit * 1e9 / 8)
    wall = max(compute, transfer) + rounds * args.round_latency_ms / 1000
    total["positions"] += positions
    total["cpu_h"] += cpu_s / 3600
    total["wall_s"] += wall
    total["net"] += net
    total["disk"] += positions
    print(f"{seeds:>5} {positions:>17,} {cpu_s / 3600:>10.1f} {wall:>7.0f}s {held / GIB:>10.1f} "
          f"{net / 1e12:>10.2f} {rounds:>6}")
print(f"total {total['positions']:>17,} {total['cpu_h']:>10.1f} {total['wall_s'] / 3600:>7.2f}h "
      f"{'':>10} {total['net'] / 1e12:>10.2f}")
print(f"files: {total['disk'] / 1e9:.0f} GB (one byte a position), "
      f"{total['disk'] / workers / 1e9:.1f} GB a worker")
