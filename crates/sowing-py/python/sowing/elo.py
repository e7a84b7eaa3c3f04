"""Elo from match scores, for ``sowing.evaluate``'s ladder.

A player rated R scores, by the logistic model, ``E = 1 / (1 + 10 ** ((A - R) / 400))``
against one rated A. Two estimates:

- :func:`rung_rating`, from one opponent alone: R = A + 400·log10(s / (1 − s)) for the score
  fraction s, its interval the Wilson score interval of s carried through the same formula
  (Wilson's, not the normal one, because a score of 0% or 100% is common against a ladder's
  ends: its interval is then one-sided instead of empty).
- :func:`fit`, from every opponent at once, whose ratings (the anchors) are fixed: the R
  that maximises the likelihood of the scores, with the likelihood-ratio interval (the R
  whose log-likelihood is within z²/2 of the best). A draw counts half a point, as a win
  of half a game.

>>> round(rung_rating(0, points=75, games=100).elo, 1)
190.8
>>> [round(x, 4) for x in wilson(50, 100)]
[0.4038, 0.5962]
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

__all__ = ["Rating", "Z95", "elo_difference", "expected_score", "fit", "rung_rating", "wilson"]

# The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054

# Bisection brackets: far beyond any rating a ladder can tell apart.
_SPAN = 10_000.0


@dataclass(frozen=True)
class Rating:
    """An Elo estimate and its interval; ``±inf`` where the scores do not bound it (every
    game won: no upper end; every game lost: no lower end)."""

    elo: float
    low: float
    high: float

    def __str__(self) -> str:
        return f"{_number(self.elo)} ({_number(self.low)} to {_number(self.high)})"


def _number(x: float) -> str:
    return f"{round(x):+d}" if math.isfinite(x) else ("+inf" if x > 0 else "-inf")


def expected_score(rating: float, anchor: float) -> float:
    """The score fraction the logistic model expects of ``rating`` against ``anchor``."""
    return 1.0 / (1.0 + 10.0 ** ((anchor - rating) / 400.0))


def elo_difference(score: float) -> float:
    """The rating difference a score fraction means: ``±inf`` at 1 and 0."""
    if not 0.0 <= score <= 1.0:
        raise ValueError(f"a score fraction is in 0 … 1, not {score}")
    if score in (0.0, 1.0):
        return math.inf if score else -math.inf
    return 400.0 * math.log10(score / (1.0 - score))


def wilson(points: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a score of ``points`` in ``games`` games."""
    if games <= 0:
        raise ValueError(f"games must be positive, not {games}")
    if not 0 <= points <= games:
        raise ValueError(f"points must be in 0 … {games}, not {points}")
    p = points / games
    z2 = z * z
    denominator = 1.0 + z2 / games
    centre = (p + z2 / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / denominator
    # Exactly 0 and 1 at the ends (rounding would give a finite Elo where none is bounded).
    low = 0.0 if points == 0 else max(0.0, centre - half)
    high = 1.0 if points == games else min(1.0, centre + half)
    return low, high


def rung_rating(anchor: float, points: float, games: int, z: float = Z95) -> Rating:
    """The rating that a score against one opponent rated ``anchor`` means."""
    low, high = wilson(points, games, z)
    return Rating(anchor + elo_difference(points / games),
                  anchor + elo_difference(low), anchor + elo_difference(high))


def _softplus(x: float) -> float:
    """ln(1 + eˣ), without overflow."""
    return max(x, 0.0) + math.log1p(math.exp(-abs(x)))


def log_likelihood(rating: float, results: Sequence[tuple[float, float, int]]) -> float:
    """ln of the probability of the scores ``(anchor, points, games)`` at ``rating``."""
    total = 0.0
    for anchor, points, games in results:
        x = (anchor - rating) * math.log(10.0) / 400.0  # E = 1 / (1 + eˣ)
        total -= points * _softplus(x) + (games - points) * _softplus(-x)
    return total


def _bisect(inside: Callable[[float], bool], good: float, bad: float) -> float:
    """The boundary between ``good`` (where ``inside`` holds) and ``bad``."""
    for _ in range(200):
        middle = (good + bad) / 2
        if inside(middle):
            good = middle
        else:
            bad = middle
        if abs(good - bad) < 1e-9:
            break
    return (good + bad) / 2


def fit(results: Sequence[tuple[float, float, int]], z: float = Z95) -> Rating:
    """The maximum-likelihood rating from scores ``(anchor, points, games)`` against
    opponents of fixed ratings, with its likelihood-ratio interval."""
    results = [(float(a), float(p), int(n)) for a, p, n in results if n > 0]
    if not results:
        raise ValueError("no games to rate")
    for anchor, points, games in results:
        if not 0 <= points <= games:
            raise ValueError(f"points must be in 0 … {games}, not {points}")
    points = sum(p for _, p, _ in results)
    games = sum(n for _, _, n in results)
    lowest = min(a for a, _, _ in results) - _SPAN
    highest = max(a for a, _, _ in results) + _SPAN

    def gradient(rating: float) -> float:
        # Points won less points expected: falls as the rating rises.
        return sum(p - n * expected_score(rating, a) for a, p, n in results)

    if points == 0:
        best, best_ll = -math.inf, 0.0
    elif points == games:
        best, best_ll = math.inf, 0.0
    else:
        best = _bisect(lambda r: gradient(r) > 0, lowest, highest)
        best_ll = log_likelihood(best, results)

    def plausible(rating: float) -> bool:
        return 2.0 * (best_ll - log_likelihood(rating, results)) <= z * z

    low = -math.inf if points == 0 else _bisect(
        plausible, best if math.isfinite(best) else highest, lowest)
    high = math.inf if points == games else _bisect(
        plausible, best if math.isfinite(best) else lowest, highest)
    return Rating(best, low, high)
