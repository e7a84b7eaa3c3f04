"""The board as a picture (the environments' ``rgb_array`` render mode), drawn with NumPy
alone in the colours of the web page (crates/sowing-web/static): a wooden board, North's
row on top (``a`` on the right) and South's below (``A`` on the left), each pit's seeds and
its count, each side's captured seeds in its store (North's on the left, South's on the
right), and the pits the side to move may sow ringed in yellow.

>>> import sowing
>>> from sowing.render import board_image
>>> board_image(sowing.Game("hoyito-ii")).shape
(232, 608, 3)
"""

from __future__ import annotations

import numpy as np

from ._sowing import Game

CELL = 72  # pixels a pit
RADIUS = 28
MARGIN = 16
# The page's colours (style.css and the gradients of board.js).
WOOD_TOP = (201, 143, 85)
WOOD_BOTTOM = (147, 89, 42)
WOOD_EDGE = (110, 66, 32)
HOLE = (81, 49, 15)
HOLE_EDGE = (47, 26, 7)
LEGAL = (244, 200, 74)
BADGE = (255, 250, 240)
BADGE_INK = (36, 26, 16)
SEEDS = [(230, 214, 176), (217, 164, 65), (189, 182, 162), (168, 115, 63)]
SEED_EDGE = (94, 56, 21)

# Digits 0-9 on a 3x5 grid, one string of rows each.
_DIGITS = [
    "111101101101111", "010110010010111", "111001111100111", "111001111001111",
    "101101111001001", "111100111001111", "111100111101111", "111001001001001",
    "111101111101111", "111101111001111",
]


def _disc(image: np.ndarray, cx: float, cy: float, r: float, colour: tuple[int, int, int],
          ring: float = 0.0) -> None:
    """A filled disc of radius ``r`` at ``(cx, cy)``, or with ``ring`` > 0 only the band
    of that width inside its edge."""
    h, w, _ = image.shape
    x0, x1 = max(int(cx - r - 1), 0), min(int(cx + r + 2), w)
    y0, y1 = max(int(cy - r - 1), 0), min(int(cy + r + 2), h)
    yy, xx = np.ogrid[y0:y1, x0:x1]
    d2 = (xx - cx) ** 2 + (yy - cy) ** 2
    inside = d2 <= r * r
    if ring > 0:
        inside &= d2 >= (r - ring) ** 2
    image[y0:y1, x0:x1][inside] = colour


def _number(image: np.ndarray, value: int, cx: float, cy: float, scale: int,
            colour: tuple[int, int, int]) -> None:
    """``value`` in the 3x5 digits, ``scale`` pixels a dot, centred on ``(cx, cy)``."""
    text = str(value)
    width = (4 * len(text) - 1) * scale
    left, top = int(cx - width / 2), int(cy - 2.5 * scale)
    for k, ch in enumerate(text):
        bits = _DIGITS[int(ch)]
        for i, bit in enumerate(bits):
            if bit == "1":
                row, col = divmod(i, 3)
                x = left + (4 * k + col) * scale
                y = top + row * scale
                image[y:y + scale, x:x + scale] = colour


def _seeds(image: np.ndarray, count: int, cx: float, cy: float, radius: float, salt: int) -> None:
    """Up to 40 seeds spread over a disc (the golden angle's spiral), each a small disc."""
    shown = min(count, 40)
    spread = radius - 6
    for k in range(shown):
        r = spread * np.sqrt((k + 0.5) / max(shown, 1))
        angle = k * 2.399963 + salt
        x, y = cx + r * np.cos(angle), cy + r * np.sin(angle)
        _disc(image, x, y, 4.2, SEED_EDGE)
        _disc(image, x, y, 3.3, SEEDS[(k + salt) % 4])


def board_image(game: Game) -> np.ndarray:
    """The board of ``game`` as a uint8 RGB array ``(height, width, 3)``."""
    n = game.pits_per_row
    pits = game.pits
    south_captured, north_captured = game.captured
    width = (n + 2) * CELL + 2 * MARGIN
    height = 2 * CELL + 2 * MARGIN + 56  # room for the count badges
    shade = np.linspace(0.0, 1.0, height)[:, None]
    top, bottom = np.array(WOOD_TOP, float), np.array(WOOD_BOTTOM, float)
    image = np.empty((height, width, 3), np.uint8)
    image[:] = (top + (bottom - top) * shade)[:, None, :].astype(np.uint8)
    image[:3], image[-3:], image[:, :3], image[:, -3:] = WOOD_EDGE, WOOD_EDGE, WOOD_EDGE, WOOD_EDGE
    legal = set()
    if not game.is_over:
        mover = 0 if game.to_move == "south" else 1
        legal = {mover * n + c for c in game.legal_actions() if c < n}
    row_y = {1: MARGIN + 28 + CELL / 2, 0: MARGIN + 28 + 1.5 * CELL}
    for i, count in enumerate(pits):
        side, column = divmod(i, n)
        # South's row from the left; North's from the right (counter-clockwise sowing).
        x = MARGIN + CELL * (1.5 + (column if side == 0 else n - 1 - column))
        y = row_y[side]
        _disc(image, x, y, RADIUS + 1.5, HOLE_EDGE)
        _disc(image, x, y, RADIUS, HOLE)
        if i in legal:
            _disc(image, x, y, RADIUS + 2, LEGAL, ring=5)
        _seeds(image, count, x, y, RADIUS, 3 * i + 1)
        badge_y = y - RADIUS - 14 if side == 1 else y + RADIUS + 14
        _disc(image, x, badge_y, 12, BADGE)
        _number(image, count, x, badge_y, 2, BADGE_INK)
    # The stores: North's on the left, South's on the right, as tall as both rows.
    for captured, x in ((north_captured, MARGIN + CELL / 2), (south_captured, width - MARGIN - CELL / 2)):
        y0, y1 = int(row_y[1] - RADIUS), int(row_y[0] + RADIUS)
        x0, x1 = int(x - RADIUS), int(x + RADIUS)
        image[y0 - 2:y1 + 2, x0 - 2:x1 + 2] = HOLE_EDGE
        image[y0:y1, x0:x1] = HOLE
        _seeds(image, captured, x, (y0 + y1) / 2, RADIUS, 7)
        _disc(image, x, (y0 + y1) / 2, 14, BADGE)
        _number(image, captured, x, (y0 + y1) / 2, 2, BADGE_INK)
    return image
