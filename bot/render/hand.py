"""The hand image: one player's cards, sorted, the new ones tagged, the best point haloed."""

from __future__ import annotations

from functools import cache

from PIL import Image, ImageDraw

from bot.engine import Card
from bot.i18n import t
from bot.i18n.cards import suit_name
from bot.render.png import encode_png
from bot.render.points import point_order
from bot.render.shapes import phase_label, pill, pill_width
from bot.render.snapshots import HandSnapshot
from bot.render.sprites import card_size, flat
from bot.render.text import draw_text, name_text
from bot.render.theme import FELT, FELT_DARK, GOLD, INK, MUTED, NEW, SHADOW

CARD_W = 100
GAP = 10
PAD = 16
PER_ROW = 7
HEADER = 50
TAG = 22
FOOTER = 46
MIN_WIDTH = 480
HALO = 5


def sort_hand(cards: tuple[str, ...], phase: str) -> tuple[str, ...]:
    """Cards in display order: by rank in the stoppa, else by suit (c, d, s, b), best first."""
    if phase == "stoppa":
        return tuple(sorted(cards, key=Card.parse))
    return tuple(sorted(cards, key=lambda c: (Card.parse(c).suit_index, point_order(c))))


def rows_of(count: int) -> list[int]:
    """How many cards go on each row (at most 7 a row, rows balanced: 10 -> 5+5, 13 -> 7+6)."""
    if count <= 0:
        return []
    rows = -(-count // PER_ROW)
    base, extra = divmod(count, rows)
    return [base + (1 if i < extra else 0) for i in range(rows)]


@cache
def _background(width: int, height: int) -> Image.Image:
    image = Image.new("RGB", (width, height), FELT_DARK)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((2, 2, width - 3, height - 3), radius=14, fill=FELT)
    draw.line((PAD, HEADER - 4, width - PAD, HEADER - 4), fill=FELT_DARK, width=2)
    return image


def hand_image(snap: HandSnapshot) -> Image.Image:
    """The hand as a Pillow image (RGB); `render_hand` encodes it."""
    lang = snap.lang
    cards = sort_hand(tuple(snap.cards), snap.phase)
    rows = rows_of(len(cards))
    cw, ch = card_size(CARD_W)
    widest = max(rows, default=0)
    width = max(MIN_WIDTH, 2 * PAD + widest * cw + max(0, widest - 1) * GAP)
    new = set(snap.new_cards) & set(cards)
    tag = TAG if new else 8
    body = len(rows) * (tag + ch + GAP) if rows else 60
    height = HEADER + body + (FOOTER if snap.best is not None else 8)
    image = _background(width, height).copy()
    draw = ImageDraw.Draw(image)

    title = t("render.hand_of", lang, player=name_text(snap.player)) if snap.player else t(
        "render.your_hand", lang)
    right = 0
    if snap.your_turn:
        label = t("render.your_turn", lang)
        right = pill_width(label, 16)
        pill(draw, (width - PAD - right, 12), label, 16, GOLD, SHADOW)
    used = draw_text(draw, (PAD, 14), title, 20, INK, bold=True,
                     max_width=width - 2 * PAD - right - 180)
    draw_text(draw, (PAD + used + 12, 16), phase_label(snap.phase, lang), 17, MUTED,
              max_width=width - 3 * PAD - used - right - 12)

    best = set(snap.best.cards) if snap.best else set()
    y = HEADER
    index = 0
    for count in rows:
        row_w = count * cw + (count - 1) * GAP
        x = (width - row_w) // 2
        for _ in range(count):
            code = cards[index]
            index += 1
            top = y + tag
            if code in best:
                halo = (x - HALO, top - HALO, x + cw + HALO - 1, top + ch + HALO - 1)
                draw.rounded_rectangle(halo, radius=10, fill=GOLD)
            image.paste(flat("face", code, CARD_W, GOLD if code in best else FELT), (x, top))
            if code in new:
                pill(draw, (x + cw // 2 - 24, y - 1), t("render.new", lang), 13, NEW, SHADOW,
                     max_width=cw)
            x += cw + GAP
        y += tag + ch + GAP
    if not cards:
        draw_text(draw, (width / 2, HEADER + 30), t("render.no_cards", lang), 18, MUTED,
                  anchor="mm")

    if snap.best is not None:
        fy = height - FOOTER + 8
        draw.rounded_rectangle((PAD, fy + 4, PAD + 22, fy + 26), radius=5, fill=GOLD)
        text = t("render.best_point", lang, value=snap.best.value,
                 suit=suit_name(snap.best.suit, lang))
        draw_text(draw, (PAD + 32, fy + 15), text, 20, INK, anchor="lm", bold=True,
                  max_width=width - 2 * PAD - 40)
    return image


def render_hand(snap: HandSnapshot) -> bytes:
    """The hand image as PNG bytes (at most 800 px wide; 13 cards wrap to two rows)."""
    return encode_png(hand_image(snap))
