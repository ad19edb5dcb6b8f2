"""Safe text for the images: Aileron where it has the glyphs, DejaVu Sans elsewhere.

A label or a name is cleaned first (`safe_text`): NFC, whitespace collapsed, control and format
characters (zero-width joiners, variation selectors) dropped. A character neither font draws
becomes a visible placeholder box if it is a letter or digit ("山田" -> "□□"), and is dropped
otherwise (emoji DejaVu lacks: "Marco 🎲" -> "Marco"); a text left empty becomes the box, so a
name never vanishes. Then the text is split into words and each word is drawn in Aileron when
Aileron has every character of it, else in DejaVu Sans ("Perché no" -> DejaVu "Perché",
Aileron "no"), all on one baseline. Text with right-to-left letters (Hebrew, Arabic) is drawn as
one DejaVu run: with libraqm (shaped, bidi) when Pillow has it, else in reversed visual order.
Alt texts keep the original strings.
"""

from __future__ import annotations

import math
import re
import unicodedata
from functools import cache, lru_cache

from PIL import Image, ImageDraw, ImageFont, features

from bot.render.faces import AILERON, DEJAVU, aileron, aileron_codes, dejavu, dejavu_codes, face

ELLIPSIS = "…"
PLACEHOLDER = "□"
_DROP_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
_WORDS = re.compile(r"(\s+)")
_RTL = {"R", "AL"}

#: a run of text in one font: (text, AILERON or DEJAVU)
Run = tuple[str, int]


def font(size: int) -> ImageFont.FreeTypeFont:
    """Aileron at `size` px: the house font (card indexes, the card back)."""
    return aileron(size)


@cache
def _clean_char(ch: str) -> str:
    if ch.isspace():
        return " "
    code = ord(ch)
    if 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF:  # variation selectors
        return ""
    category = unicodedata.category(ch)
    if category in _DROP_CATEGORIES:
        return ""
    if code in aileron_codes() or code in dejavu_codes():
        return ch
    return PLACEHOLDER if category[0] in "LN" else ""


def safe_text(text: str, empty: str = "") -> str:
    """`text` reduced to what the fonts can draw (see the module docstring); `empty` if none."""
    normal = unicodedata.normalize("NFC", str(text))
    out = " ".join("".join(_clean_char(ch) for ch in normal).split())
    return out or empty


def name_text(name: str) -> str:
    """A name made safe for drawing, never empty: the placeholder box if nothing is drawable."""
    return safe_text(name, PLACEHOLDER)


def _has_rtl(text: str) -> bool:
    return any(unicodedata.bidirectional(ch) in _RTL for ch in text)


def visual_order(text: str) -> str:
    """A crude bidi for the BASIC layout: each stretch of right-to-left text reversed in place.

    Strong RTL letters, and the spaces and punctuation between them, are reversed as a block;
    left-to-right text and digits keep their order. (Used only when libraqm is missing.)
    """
    out: list[str] = []
    block: list[str] = []
    pending: list[str] = []  # neutrals after an RTL letter: RTL only if more RTL follows
    for ch in text:
        kind = unicodedata.bidirectional(ch)
        if kind in _RTL:
            block.extend(pending)
            pending = []
            block.append(ch)
        elif block and kind in ("WS", "ON", "CS", "ES", "ET", "NSM"):
            pending.append(ch)
        else:
            if block:
                out.extend(reversed(block))
                block = []
            out.extend(pending)
            pending = []
            out.append(ch)
    out.extend(reversed(block))
    out.extend(pending)
    return "".join(out)


@cache
def _raqm() -> bool:
    return bool(features.check("raqm"))


@cache
def _rtl_font(size: int) -> ImageFont.FreeTypeFont:
    return dejavu(size).font_variant(layout_engine=ImageFont.Layout.RAQM)


def _run_font(which: int, size: int, text: str) -> ImageFont.FreeTypeFont:
    if which == DEJAVU and _raqm() and _has_rtl(text):
        return _rtl_font(size)
    return face(which, size)


@lru_cache(maxsize=8192)
def runs(text: str) -> tuple[Run, ...]:
    """`text` (already safe) split into runs of one font each, spaces joined to the runs."""
    if not text:
        return ()
    if _has_rtl(text):
        return ((text if _raqm() else visual_order(text), DEJAVU),)
    plain = aileron_codes()
    tokens = [token for token in _WORDS.split(text) if token]
    fonts = [AILERON if token.isspace() or all(ord(ch) in plain for ch in token) else DEJAVU
             for token in tokens]
    for i, token in enumerate(tokens):  # a space between two DejaVu words is a DejaVu space
        if token.isspace() and 0 < i < len(tokens) - 1 and fonts[i - 1] == fonts[i + 1] == DEJAVU:
            fonts[i] = DEJAVU
    out: list[list] = []
    for token, which in zip(tokens, fonts, strict=True):
        if out and out[-1][1] == which:
            out[-1][0] += token
        else:
            out.append([token, which])
    return tuple((chunk, which) for chunk, which in out)


def _advances(text: str, size: int) -> tuple[tuple[float, ...], float]:
    """The x of each run of `text` and the total advance width."""
    xs = []
    x = 0.0
    for chunk, which in runs(text):
        xs.append(x)
        x += _run_font(which, size, chunk).getlength(chunk)
    return tuple(xs), x


@lru_cache(maxsize=8192)
def text_width(text: str, size: int) -> int:
    """Width in px of `text` drawn at `size` (the text must already be safe)."""
    return int(_advances(text, size)[1] + 0.5)


@lru_cache(maxsize=4096)
def fit_text(text: str, size: int, max_width: int) -> str:
    """`text` made safe and cut with an ellipsis so that it fits in `max_width` px."""
    text = safe_text(text, PLACEHOLDER)
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


def _anchor_point(anchor: str, size: int, width: float, top: int, bottom: int) -> tuple[float,
                                                                                      float]:
    """Where `anchor` lies relative to (start of line, baseline); vertical metrics: Aileron's."""
    ascent, descent = aileron(size).getmetrics()
    ax = {"l": 0.0, "m": width / 2, "r": width}[anchor[0]]
    ay = {"a": -ascent, "t": top, "m": (descent - ascent) / 2, "s": 0, "b": bottom,
          "d": descent}[anchor[1]]
    return ax, ay


@lru_cache(maxsize=4096)
def text_mask(
    text: str, size: int, anchor: str = "la", bold: bool = False
) -> tuple[Image.Image, int, int]:
    """The coverage mask of `text` and its offset from the anchor point (cached, read-only).

    Each run is drawn on a common baseline; vertical anchors use Aileron's metrics for every
    font so that labels line up whatever font they end up in.
    """
    xs, width = _advances(text, size)
    parts = runs(text)
    left, top, right, bottom = math.inf, math.inf, -math.inf, -math.inf
    for x, (chunk, which) in zip(xs, parts, strict=True):
        l_, t_, r_, b_ = _run_font(which, size, chunk).getbbox(chunk, anchor="ls")
        left, top = min(left, x + l_), min(top, t_)
        right, bottom = max(right, x + r_), max(bottom, b_)
    if not parts or right <= left:
        left, top, right, bottom = 0, -1, 1, 0
    left, top = math.floor(left), math.floor(top)
    right, bottom = math.ceil(right), math.ceil(bottom)
    extra = 1 if bold else 0
    mask = Image.new("L", (max(1, right - left + extra), max(1, bottom - top)), 0)
    pen = ImageDraw.Draw(mask)
    for x, (chunk, which) in zip(xs, parts, strict=True):
        run_font = _run_font(which, size, chunk)
        pen.text((x - left, -top), chunk, font=run_font, fill=255, anchor="ls")
        if bold:  # a second pass one pixel to the right: crisper than a stroke at small sizes
            pen.text((x - left + 1, -top), chunk, font=run_font, fill=255, anchor="ls")
    ax, ay = _anchor_point(anchor, size, width, top, bottom)
    return mask, round(left - ax), round(top - ay)


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
