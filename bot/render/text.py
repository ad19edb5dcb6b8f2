"""Fonts and safe text: Pillow's bundled Aileron font covers ASCII only, so fold the rest.

Accented letters become the letter plus an apostrophe, the Italian typewriter way ("è" -> "e'"),
a few typographic signs get ASCII stand-ins, and anything else the font lacks (emoji, other
scripts) is dropped; a name left empty becomes "?". Alt texts keep the original strings.
"""

from __future__ import annotations

import unicodedata
from functools import cache, lru_cache

from PIL import Image, ImageDraw, ImageFont

#: characters the bundled font draws (checked against Pillow 13's Aileron subset)
_SUPPORTED = frozenset(
    [chr(i) for i in range(0x20, 0x7F)] + list("©«°±´·»‘’“”…‹›⁄™")
)
_STAND_INS = {"—": "-", "–": "-", "×": "x", "\u00a0": " ", "\u202f": " ", "•": "·"}
_ACCENTS = {"\u0300", "\u0301"}
ELLIPSIS = "…"


@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled scalable font at `size` px (cached; FreeType fonts are read-only)."""
    loaded = ImageFont.load_default(size=size)
    if not isinstance(loaded, ImageFont.FreeTypeFont):  # pragma: no cover - Pillow without FreeType
        raise RuntimeError("Pillow was built without FreeType; the renderer needs it")
    return loaded


@cache
def _fold_char(ch: str) -> str:
    if ch in _SUPPORTED:
        return ch
    if ch in _STAND_INS:
        return _STAND_INS[ch]
    parts = unicodedata.normalize("NFD", ch)
    base = "".join(p for p in parts if p in _SUPPORTED)
    if base and len(base) == 1 and base.isalpha():
        return base + ("'" if any(p in _ACCENTS for p in parts) else "")
    folded = unicodedata.normalize("NFKC", ch)
    if folded != ch and all(c in _SUPPORTED for c in folded):
        return folded
    return ""


def safe_text(text: str, empty: str = "") -> str:
    """`text` reduced to characters the bundled font can draw (see the module docstring)."""
    out = "".join(_fold_char(ch) for ch in str(text))
    out = " ".join(out.split()) if out.strip() else ""
    return out or empty


@lru_cache(maxsize=8192)
def text_width(text: str, size: int) -> int:
    """Width in px of `text` drawn at `size` (the text must already be safe)."""
    return int(font(size).getlength(text) + 0.5)


@lru_cache(maxsize=4096)
def fit_text(text: str, size: int, max_width: int) -> str:
    """`text` made safe and cut with an ellipsis so that it fits in `max_width` px."""
    text = safe_text(text, "?")
    if text_width(text, size) <= max_width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if text_width(text[:mid].rstrip() + ELLIPSIS, size) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + ELLIPSIS if lo else ELLIPSIS


@lru_cache(maxsize=4096)
def text_mask(
    text: str, size: int, anchor: str = "la", bold: bool = False
) -> tuple[Image.Image, int, int]:
    """The coverage mask of `text` and its offset from the anchor point (cached, read-only)."""
    face = font(size)
    left, top, right, bottom = face.getbbox(text, anchor=anchor)
    extra = 1 if bold else 0
    mask = Image.new("L", (max(1, right - left + extra), max(1, bottom - top)), 0)
    pen = ImageDraw.Draw(mask)
    pen.text((-left, -top), text, font=face, fill=255, anchor=anchor)
    if bold:  # a second pass one pixel to the right: crisper than a stroke at small sizes
        pen.text((1 - left, -top), text, font=face, fill=255, anchor=anchor)
    return mask, left, top


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: tuple[int, ...],
    *,
    anchor: str = "la",
    bold: bool = False,
    max_width: int | None = None,
) -> int:
    """Draw safe (and, with `max_width`, fitted) text; return its width in px.

    Text is rendered once per (text, size, anchor, bold) into a cached mask and then stamped
    with the colour, so labels repeated across images cost a paste, not a FreeType render.
    """
    shown = fit_text(text, size, int(max_width)) if max_width is not None else safe_text(text)
    if not shown:
        return 0
    mask, left, top = text_mask(shown, size, anchor, bold)
    draw.bitmap((round(xy[0]) + left, round(xy[1]) + top), mask, fill=fill)
    return text_width(shown, size) + (1 if bold else 0)
