"""Card sprites drawn once with Pillow primitives and cached: faces, back, mini cards.

Everything is drawn on a canvas `SS` times larger and scaled down by block averaging, which
gives smooth edges. Sprites are cached with `functools.cache` (keyed by code and size) and shared:
**never modify a returned image** (paste it, or `.copy()` it first).
"""

from __future__ import annotations

from functools import cache

from PIL import Image, ImageDraw

from bot.engine import ALL_CARDS, Card
from bot.render.symbols import (
    ASPECT,
    BROWN,
    DARK_RED,
    GOLD,
    GOLD_LIGHT,
    RED,
    Box,
    draw_suit,
)
from bot.render.text import font
from bot.render.theme import SUIT_INK

SS = 4
CARD_RATIO = 1.6
PAPER = (252, 247, 232)
EDGE = (60, 52, 44)
SKIN = (241, 200, 150)
BACK_RED = (140, 28, 44)
BACK_LINE = (176, 64, 78)

#: pip centres (u, v) inside the pip area for ranks 1-7
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.5, 0.2), (0.5, 0.8)),
    3: ((0.5, 0.15), (0.5, 0.5), (0.5, 0.85)),
    4: ((0.25, 0.2), (0.75, 0.2), (0.25, 0.8), (0.75, 0.8)),
    5: ((0.25, 0.17), (0.75, 0.17), (0.5, 0.5), (0.25, 0.83), (0.75, 0.83)),
    6: ((0.25, 0.15), (0.75, 0.15), (0.25, 0.5), (0.75, 0.5), (0.25, 0.85), (0.75, 0.85)),
    7: ((0.25, 0.13), (0.75, 0.13), (0.5, 0.32), (0.25, 0.52), (0.75, 0.52), (0.25, 0.87),
        (0.75, 0.87)),
}
#: pip box size in card units (card = 100 wide) for: (count, wide suit?)
_PIP_SIZE = {1: ((62, 84), (30, 116)), 2: ((40, 44), (22, 60)), 3: ((34, 34), (18, 44)),
             4: ((29, 29), (17, 44))}
#: tint of the figure panel, per rank
FIGURE_TINT = {8: (214, 232, 204), 9: (208, 224, 244), 10: (246, 214, 206)}


def _pip_size(rank: int, suit: str) -> tuple[int, int]:
    wide = ASPECT[suit] >= 0.7
    sizes = _PIP_SIZE[min(rank, 4)]
    if rank >= 4 and wide:
        return (25, 25) if rank == 7 else (27, 27) if rank >= 5 else sizes[0]
    return sizes[0] if wide else sizes[1]


def _canvas(width: int, height: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGBA", (width * SS, height * SS), (0, 0, 0, 0))
    return image, ImageDraw.Draw(image)


def _finish(image: Image.Image, width: int, height: int) -> Image.Image:
    """Scale the supersampled drawing down by averaging each SS x SS block (a box filter).

    A box filter has no ringing, unlike LANCZOS: edges stay as crisp to the eye, the sprites
    have a sixth as many distinct colours, and the PNGs they end up in are half the size and
    quicker to compress.
    """
    if image.size == (width * SS, height * SS):
        return image.reduce(SS)
    return image.resize((width, height), Image.Resampling.BOX)


def card_size(width: int) -> tuple[int, int]:
    """(width, height) of a full card sprite of `width`."""
    return width, round(width * CARD_RATIO)


def _index(draw: ImageDraw.ImageDraw, rank: int, suit: str, u: float) -> None:
    """The corner index (rank number over a small suit symbol), top left, `u` px per unit."""
    ink = SUIT_INK[suit]
    size = round((19 if rank < 10 else 17) * u)
    draw.text((11 * u, 3 * u), str(rank), font=font(size), fill=ink, anchor="ma",
              stroke_width=max(1, round(0.9 * u)), stroke_fill=ink)
    draw_suit(draw, suit, (4 * u, 25 * u, 14 * u, 17 * u))


def _figure(draw: ImageDraw.ImageDraw, rank: int, suit: str, u: float) -> None:
    """Fante, Cavallo, Re: a tinted panel, an emblem, and the suit symbol below."""
    panel = (20 * u, 10 * u, 80 * u, 150 * u)
    draw.rounded_rectangle(panel, radius=6 * u, fill=FIGURE_TINT[rank], outline=SUIT_INK[suit],
                           width=round(1.6 * u))
    lw = round(1.4 * u)
    if rank == 10:  # Re: a crown with jewels over a head and a robe
        draw.chord((30 * u, 62 * u, 70 * u, 104 * u), 180, 360, fill=SUIT_INK[suit],
                   outline=EDGE, width=lw)
        draw.ellipse((39 * u, 42 * u, 61 * u, 66 * u), fill=SKIN, outline=EDGE, width=lw)
        crown = [(28, 40), (28, 18), (38, 30), (50, 12), (62, 30), (72, 18), (72, 40)]
        draw.polygon([(x * u, y * u) for x, y in crown], fill=GOLD, outline=BROWN, width=lw)
        for x, y in ((28, 18), (50, 12), (72, 18)):
            draw.ellipse(((x - 3.5) * u, (y - 3.5) * u, (x + 3.5) * u, (y + 3.5) * u), fill=RED,
                         outline=DARK_RED, width=lw)
        draw.rectangle((28 * u, 34 * u, 72 * u, 40 * u), fill=GOLD_LIGHT, outline=BROWN,
                       width=lw)
    elif rank == 9:  # Cavallo: a horse's head in profile
        head = [(66, 102), (40, 102), (42, 78), (36, 70), (24, 66), (22, 58), (28, 50),
                (46, 34), (50, 20), (56, 30), (64, 32), (74, 52), (76, 80)]
        draw.polygon([(x * u, y * u) for x, y in head], fill=(150, 96, 52), outline=EDGE,
                      width=lw)
        mane = [(56, 30), (64, 32), (74, 52), (76, 80), (66, 102), (70, 76), (66, 54)]
        draw.polygon([(x * u, y * u) for x, y in mane], fill=(70, 40, 20), outline=EDGE,
                     width=lw)
        draw.ellipse((41 * u, 43 * u, 47 * u, 49 * u), fill=EDGE)
        draw.line([(36 * u, 54 * u), (58 * u, 66 * u)], fill=SUIT_INK[suit], width=round(2 * u))
        draw.ellipse((24 * u, 58 * u, 28 * u, 62 * u), fill=EDGE)
    else:  # Fante: a page with a plumed cap
        draw.chord((28 * u, 66 * u, 72 * u, 112 * u), 180, 360, fill=SUIT_INK[suit],
                   outline=EDGE, width=lw)
        draw.ellipse((38 * u, 40 * u, 62 * u, 68 * u), fill=SKIN, outline=EDGE, width=lw)
        draw.polygon([(56 * u, 36 * u), (74 * u, 14 * u), (66 * u, 38 * u)], fill=RED,
                     outline=DARK_RED, width=lw)
        draw.ellipse((30 * u, 32 * u, 70 * u, 46 * u), fill=SUIT_INK[suit], outline=EDGE,
                     width=lw)
    draw_suit(draw, suit, (32 * u, 108 * u, 36 * u, 38 * u))


@cache
def card_face(code: str, width: int = 100) -> Image.Image:
    """The face of card `code` (`7d`), `width` px wide, RGBA, cached. Do not modify it."""
    card = Card.parse(code)
    rank, suit = card.rank, card.suit
    width = int(width)
    w, h = card_size(width)
    image, draw = _canvas(w, h)
    u = w * SS / 100
    draw.rounded_rectangle((0, 0, w * SS - 1, h * SS - 1), radius=round(7 * u), fill=PAPER,
                           outline=EDGE, width=max(SS, round(1.2 * u)))
    _index(draw, rank, suit, u)
    corner = (0, 0, round(22 * u), round(44 * u))
    flipped = image.crop(corner).rotate(180)
    image.paste(flipped, (w * SS - corner[2], h * SS - corner[3]))
    if rank >= 8:
        _figure(draw, rank, suit, u)
    else:
        pw, ph = _pip_size(rank, suit)
        area: Box = (20 * u, 8 * u, 60 * u, 144 * u)
        for pu, pv in PIPS[rank]:
            cx, cy = area[0] + pu * area[2], area[1] + pv * area[3]
            draw_suit(draw, suit, (cx - pw * u / 2, cy - ph * u / 2, pw * u, ph * u))
    return _finish(image, w, h)


@cache
def card_back(width: int = 100) -> Image.Image:
    """The back of a card, `width` px wide, RGBA, cached. Do not modify it."""
    w, h = card_size(int(width))
    image, draw = _canvas(w, h)
    u = w * SS / 100
    draw.rounded_rectangle((0, 0, w * SS - 1, h * SS - 1), radius=round(7 * u), fill=PAPER,
                           outline=EDGE, width=max(SS, round(1.2 * u)))
    inner = (6 * u, 6 * u, w * SS - 6 * u, h * SS - 6 * u)
    draw.rounded_rectangle(inner, radius=round(4 * u), fill=BACK_RED)
    step = 12 * u
    lw = max(1, round(1.2 * u))
    k: float = -h * SS
    while k < w * SS + h * SS:
        draw.line([(k, 0), (k + h * SS, h * SS)], fill=BACK_LINE, width=lw)
        draw.line([(k + h * SS, 0), (k, h * SS)], fill=BACK_LINE, width=lw)
        k += step
    # clear the lattice outside the inner panel by redrawing the paper frame
    mask = Image.new("L", image.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle(inner, radius=round(4 * u), fill=255)
    frame, frame_draw = _canvas(w, h)
    frame_draw.rounded_rectangle((0, 0, w * SS - 1, h * SS - 1), radius=round(7 * u),
                                 fill=PAPER, outline=EDGE, width=max(SS, round(1.2 * u)))
    frame.paste(image, (0, 0), mask)
    draw = ImageDraw.Draw(frame)
    cx, cy = w * SS / 2, h * SS / 2
    draw.ellipse((cx - 26 * u, cy - 20 * u, cx + 26 * u, cy + 20 * u), fill=PAPER, outline=GOLD,
                 width=round(3 * u))
    draw.text((cx, cy), "55", font=font(round(24 * u)), fill=BACK_RED, anchor="mm",
              stroke_width=round(u), stroke_fill=BACK_RED)
    return _finish(frame, w, h)


@cache
def mini_card(code: str, width: int = 40) -> Image.Image:
    """A small card for tables (shown points, the stoppa sequence): big rank over the suit."""
    card = Card.parse(code)
    rank, suit = card.rank, card.suit
    width = int(width)
    h = round(width * 1.4)
    image, draw = _canvas(width, h)
    u = width * SS / 40
    draw.rounded_rectangle((0, 0, width * SS - 1, h * SS - 1), radius=round(4 * u), fill=PAPER,
                           outline=EDGE, width=max(SS, round(1 * u)))
    ink = SUIT_INK[suit]
    size = round((21 if rank < 10 else 18) * u)
    draw.text((width * SS / 2, 3 * u), str(rank), font=font(size), fill=ink, anchor="ma",
              stroke_width=max(1, round(0.8 * u)), stroke_fill=ink)
    draw_suit(draw, suit, (6 * u, 25 * u, 28 * u, 28 * u))
    return _finish(image, width, h)


@cache
def mini_back(width: int = 16) -> Image.Image:
    """A tiny card back (an icon next to card counts)."""
    return card_back(100).resize(card_size(int(width)), Image.Resampling.LANCZOS)


def all_codes() -> tuple[str, ...]:
    """The 40 card codes, suit by suit (c, d, s, b), rank 1 to 10."""
    return tuple(card.code for card in ALL_CARDS)


@cache
def flat(kind: str, code: str, width: int, background: tuple[int, int, int]) -> Image.Image:
    """A cached sprite flattened onto an opaque `background` colour (RGB).

    `kind` is "face", "mini" (`code` a card) or "back", "mini_back" (`code` ignored). Pasting
    the result needs no mask, a plain copy of rows, several times quicker than an alpha paste;
    use it where the sprite lies on that one colour. Do not modify it.
    """
    if kind == "face":
        sprite = card_face(code, width)
    elif kind == "mini":
        sprite = mini_card(code, width)
    elif kind == "back":
        sprite = card_back(width)
    elif kind == "mini_back":
        sprite = mini_back(width)
    else:
        raise ValueError(f"unknown sprite kind {kind!r}")
    out = Image.new("RGB", sprite.size, background)
    out.paste(sprite, (0, 0), sprite)
    return out
