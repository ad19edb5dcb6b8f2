"""Colours and sizes shared by the images (an opaque felt panel reads on dark and light themes)."""

from __future__ import annotations

RGB = tuple[int, int, int]

FELT: RGB = (24, 86, 56)
FELT_DARK: RGB = (15, 58, 38)
FELT_LIGHT: RGB = (36, 110, 72)
RAIL: RGB = (74, 44, 26)
PANEL: RGB = (19, 44, 33)
INK: RGB = (246, 244, 236)
MUTED: RGB = (186, 208, 194)
GOLD: RGB = (246, 196, 66)
NEW: RGB = (80, 170, 255)
SHADOW: RGB = (8, 30, 20)

#: suit colours, as on Napoletane cards (used for indexes and text)
SUIT_INK: dict[str, RGB] = {
    "c": (190, 40, 40),
    "d": (168, 112, 0),
    "s": (30, 74, 150),
    "b": (40, 110, 46),
}

STATUS_COLOURS: dict[str, RGB] = {
    "in": (62, 160, 88),
    "passed": (112, 118, 114),
    "allin": (224, 120, 30),
    "out": (150, 52, 52),
    "sitting_out": (88, 92, 118),
}

#: PNG settings: fixed so the same snapshot always gives the same bytes
PNG_COMPRESS_LEVEL = 1
