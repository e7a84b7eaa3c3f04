"""A fixed amount of ``VecGame`` work, for counting instructions rather than timing:

    valgrind --tool=callgrind python crates/sowing-py/bench/vec_steps.py 260
    valgrind --tool=callgrind python crates/sowing-py/bench/vec_steps.py 210

steps 1,024 Hoyito II games ``CALLS`` times with the random legal actions of bench.py
(seeded), and prints a checksum of the observations (the same for the same games).
``callgrind_annotate --inclusive=yes`` then gives the instructions of
``VecGame::__pymethod_step__`` and what it calls; the difference of the two runs, over
51,200 steps, cancels Python's start-up and the first 210 steps of every game (games of
random play last about 80 moves, so the 50 steps counted are a mix of every stage; the
first steps from the start sow longer relays than the rest)."""

from __future__ import annotations

import sys

import numpy as np

import sowing


def main() -> None:
    calls = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    vec = sowing.VecGame(1024, "hoyito-ii")
    rng = np.random.default_rng(1)
    masks = vec.masks
    for _ in range(calls):
        vec.step((rng.random(masks.shape) * masks).argmax(axis=1))
    print(int(vec.observations.sum()))


if __name__ == "__main__":
    main()
