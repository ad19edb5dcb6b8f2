"""The four suit symbols drawn with Pillow primitives, each inside a box (x, y, w, h).

Drawn on a supersampled canvas and scaled down by the caller (see `sprites`), so the shapes
are simple polygons, ellipses and rectangles with outlines.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from PIL import ImageDraw

Box = tuple[float, float, float, float]

GOLD = (226, 170, 38)
GOLD_LIGHT = (246, 212, 110)
BROWN = (96, 58, 14)
RED = (184, 36, 36)
DARK_RED = (120, 20, 24)
STEEL = (170, 192, 220)
BLUE = (30, 74, 150)
DARK_BLUE = (18, 40, 90)
WOOD = (120, 150, 46)
WOOD_DARK = (58, 78, 20)
KNOT = (140, 90, 40)

#: width / height of each symbol, used to fit it in a box
ASPECT: dict[str, float] = {"c": 0.78, "d": 1.0, "s": 0.3, "b": 0.36}


def fit(box: Box, aspect: float) -> Box:
    """The largest box of `aspect` (w/h) centred in `box`."""
    x, y, w, h = box
    if w / h > aspect:
        nw = h * aspect
        return (x + (w - nw) / 2, y, nw, h)
    nh = w / aspect
    return (x, y + (h - nh) / 2, w, nh)


def _pt(box: Box, u: float, v: float) -> tuple[float, float]:
    x, y, w, h = box
    return (x + u * w, y + v * h)


def _rect(box: Box, u0: float, v0: float, u1: float, v1: float) -> tuple[float, ...]:
    return (*_pt(box, u0, v0), *_pt(box, u1, v1))


def _line_width(box: Box) -> int:
    return max(1, round(min(box[2], box[3] * 0.9) * 0.06))


def draw_coin(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """Denari: a gold coin with a ring and a red centre (a rosette when large)."""
    b = fit(box, ASPECT["d"])
    lw = max(1, round(b[2] * 0.045))
    draw.ellipse(_rect(b, 0, 0, 1, 1), fill=GOLD, outline=BROWN, width=lw)
    draw.ellipse(_rect(b, 0.16, 0.16, 0.84, 0.84), fill=GOLD_LIGHT, outline=BROWN, width=lw)
    if b[2] > 160:
        for i in range(8):
            a = i * math.pi / 4
            cu, cv = 0.5 + 0.2 * math.cos(a), 0.5 + 0.2 * math.sin(a)
            draw.ellipse(_rect(b, cu - 0.07, cv - 0.07, cu + 0.07, cv + 0.07), fill=RED)
    draw.ellipse(_rect(b, 0.36, 0.36, 0.64, 0.64), fill=RED, outline=DARK_RED, width=lw)


def draw_cup(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """Coppe: a golden goblet with a red rim, knot and jewel."""
    b = fit(box, ASPECT["c"])
    lw = _line_width(b)
    # foot and stem
    draw.polygon([_pt(b, 0.42, 0.62), _pt(b, 0.58, 0.62), _pt(b, 0.8, 0.92), _pt(b, 0.2, 0.92)],
                 fill=GOLD, outline=BROWN, width=lw)
    draw.ellipse(_rect(b, 0.14, 0.86, 0.86, 1.0), fill=GOLD, outline=BROWN, width=lw)
    draw.ellipse(_rect(b, 0.32, 0.58, 0.68, 0.7), fill=RED, outline=DARK_RED, width=lw)
    # bowl: lower half of an ellipse, then the rim
    draw.chord(_rect(b, 0.02, -0.42, 0.98, 0.6), 0, 180, fill=GOLD, outline=BROWN, width=lw)
    draw.ellipse(_rect(b, 0.02, 0.0, 0.98, 0.18), fill=RED, outline=DARK_RED, width=lw)
    draw.ellipse(_rect(b, 0.4, 0.27, 0.6, 0.42), fill=RED, outline=DARK_RED, width=lw)


def draw_sword(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """Spade: a straight blue-steel sword, point up, with a crossguard and a red grip."""
    b = fit(box, ASPECT["s"])
    lw = _line_width((b[0], b[1], b[2] * 2.2, b[3]))
    draw.polygon([_pt(b, 0.5, 0.0), _pt(b, 0.78, 0.1), _pt(b, 0.74, 0.7), _pt(b, 0.26, 0.7),
                  _pt(b, 0.22, 0.1)], fill=STEEL, outline=DARK_BLUE, width=lw)
    draw.line([_pt(b, 0.5, 0.08), _pt(b, 0.5, 0.66)], fill=BLUE, width=lw)
    draw.rounded_rectangle(_rect(b, 0.0, 0.68, 1.0, 0.76), radius=lw * 2, fill=BLUE,
                           outline=DARK_BLUE, width=lw)
    draw.rectangle(_rect(b, 0.36, 0.76, 0.64, 0.92), fill=RED, outline=DARK_RED, width=lw)
    draw.ellipse(_rect(b, 0.22, 0.9, 0.78, 1.0), fill=GOLD, outline=BROWN, width=lw)


def draw_club(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """Bastoni: a knotty green baton, wider at the top, with cut branch stubs."""
    b = fit(box, ASPECT["b"])
    lw = _line_width((b[0], b[1], b[2] * 2, b[3]))
    for u0, v0, u1, v1 in ((-0.02, 0.2, 0.3, 0.3), (0.7, 0.42, 1.02, 0.52),
                           (-0.02, 0.62, 0.3, 0.72)):
        draw.ellipse(_rect(b, u0, v0, u1, v1), fill=KNOT, outline=WOOD_DARK, width=lw)
    draw.polygon([_pt(b, 0.12, 0.08), _pt(b, 0.88, 0.08), _pt(b, 0.7, 0.96), _pt(b, 0.3, 0.96)],
                 fill=WOOD, outline=WOOD_DARK, width=lw)
    draw.ellipse(_rect(b, 0.1, 0.0, 0.9, 0.16), fill=WOOD, outline=WOOD_DARK, width=lw)
    draw.ellipse(_rect(b, 0.28, 0.9, 0.72, 1.0), fill=RED, outline=DARK_RED, width=lw)
    draw.line([_pt(b, 0.5, 0.2), _pt(b, 0.5, 0.85)], fill=WOOD_DARK, width=lw)


SYMBOLS: dict[str, Callable[[ImageDraw.ImageDraw, Box], None]] = {
    "c": draw_cup,
    "d": draw_coin,
    "s": draw_sword,
    "b": draw_club,
}


def draw_suit(draw: ImageDraw.ImageDraw, suit: str, box: Box) -> None:
    """Draw the symbol of `suit` (c, d, s, b) fitted in `box`."""
    SYMBOLS[suit](draw, box)
