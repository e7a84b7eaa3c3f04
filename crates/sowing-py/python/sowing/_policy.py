"""Asking a policy for moves: the protocol of the vector environments, one call a batch.

A policy is ``policy(observations, masks) -> actions``: float32 observations ``(B, 2N + 8)``
from the mover's point of view (``Game.observation()``), int8 masks ``(B, N)`` of the legal
sowing columns (``Game.action_mask()`` without its pass column: a policy is asked only when
it has a sowing move, and passes are played for it), and B integer actions back.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from ._sowing import Game, IllegalMoveError

Policy = Callable[[np.ndarray, np.ndarray], Any]


class PolicyError(IllegalMoveError):
    """A policy that answered outside the protocol: wrong shape or type, or an illegal
    action; the message says which row and position. An ``IllegalMoveError``, as the
    vector environments raise for a policy opponent's bad answer."""


def batch(games: Sequence[Game]) -> tuple[np.ndarray, np.ndarray]:
    """The observations and masks of ``games`` (each with a sowing move to choose)."""
    n = games[0].pits_per_row
    observations = np.stack([game.observation() for game in games]).astype(np.float32)
    masks = np.stack([game.action_mask()[:n] for game in games]).astype(np.int8)
    return observations, masks


def ask(policy: Policy, games: Sequence[Game]) -> list[int]:
    """The policy's action in each of ``games``, checked: one call for the whole batch."""
    observations, masks = batch(games)
    answer = policy(observations, masks)
    try:
        actions = np.asarray(answer)
    except Exception as error:  # a ragged list, an object NumPy cannot read
        raise PolicyError(f"the policy returned {type(answer).__name__}, which is not an "
                          f"array of {len(games)} actions: {error}") from error
    if actions.shape != (len(games),):
        raise PolicyError(f"the policy must return {len(games)} actions, one a row of "
                          f"observations {observations.shape}, not an array of shape "
                          f"{actions.shape}")
    if actions.dtype.kind not in "iu":
        raise PolicyError(f"the policy's actions must be integers (columns 0 … "
                          f"{masks.shape[1] - 1}), not {actions.dtype}")
    for row, (action, mask) in enumerate(zip(actions.tolist(), masks)):
        if not (0 <= action < len(mask) and mask[action]):
            legal = np.flatnonzero(mask).tolist()
            raise PolicyError(f"the policy chose action {action} in row {row}, which is not "
                              f"legal in {games[row].position_text!r} (legal: {legal})")
    return actions.tolist()
