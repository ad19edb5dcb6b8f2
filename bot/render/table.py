"""The public table image: seats around an oval felt, pots and phase in the middle.

Only public information is drawn: names, chips, card counts (as a back icon and a number),
statuses, bets, declared (shown) cards, and the stoppa sequence on the table.
"""

from __future__ import annotations

import math
from functools import cache

from PIL import Image, ImageDraw

from bot.i18n import t
from bot.i18n.cards import rank_name
from bot.render.png import encode_png
from bot.render.shapes import fmt_int, phase_label, pill, pill_width, status_label
from bot.render.snapshots import SeatInfo, TableSnapshot
from bot.render.sprites import flat, mini_card
from bot.render.stoppa_row import PlacedCard, stoppa_layout
from bot.render.text import draw_text, safe_text, text_width
from bot.render.theme import (
    FELT,
    FELT_DARK,
    FELT_LIGHT,
    GOLD,
    INK,
    MUTED,
    PANEL,
    RAIL,
    RGB,
    SHADOW,
    STATUS_COLOURS,
)

WIDTH, HEIGHT = 800, 600
HEADER = 44
CENTRE = (400, 326)
RADII = (300, 222)
SEAT_W, SEAT_H = 210, 84
MINI_SHOWN = 26
MINI_TABLE = 40
CONTENT = (250, 198, 550, 500)
#: room kept below the stoppa's cards for the line saying what the sequence needs
STOPPA_FOOT = 30
#: The widest line of the hand's end: between the side seats of a 4-player table.
ENDING_WIDTH = 356
#: The catalogue name of each special hand (R-11).
SPECIAL_NAMES = {
    "ricchezza": "table.special.ricchezza",
    "misera": "table.special.misera",
    "assi": "table.special.assi",
}
DIMMED = {"out", "sitting_out"}
#: The colour of the "sat out" mark of a player whose turns are passed for them.
AWAY_COLOUR = (150, 110, 40)


@cache
def _background() -> Image.Image:
    image = Image.new("RGB", (WIDTH, HEIGHT), FELT_DARK)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, HEADER), fill=PANEL)
    draw.ellipse((44, 78, WIDTH - 44, HEIGHT - 22), fill=RAIL)
    draw.ellipse((58, 92, WIDTH - 58, HEIGHT - 36), fill=FELT)
    draw.ellipse((150, 150, WIDTH - 150, HEIGHT - 94), outline=FELT_LIGHT, width=2)
    return image


def seat_positions(count: int) -> list[tuple[int, int]]:
    """Top-left corners of the seat boxes: seat 0 at the bottom, then counter-clockwise, the
    playing order at a real table (R-3): the next seat is to the right of the one before."""
    out = []
    for k in range(count):
        angle = math.radians(90 - k * 360 / max(count, 1))
        cx = CENTRE[0] + RADII[0] * math.cos(angle)
        cy = CENTRE[1] + RADII[1] * math.sin(angle)
        x = min(max(8, round(cx - SEAT_W / 2)), WIDTH - 8 - SEAT_W)
        y = min(max(HEADER + 8, round(cy - SEAT_H / 2)), HEIGHT - 8 - SEAT_H)
        out.append((x, y))
    return out


def _chip(draw: ImageDraw.ImageDraw, x: int, y: int, size: int = 14) -> None:
    draw.ellipse((x, y, x + size, y + size), fill=GOLD, outline=SHADOW)
    draw.ellipse((x + 4, y + 4, x + size - 4, y + size - 4), outline=SHADOW)


def _seat(image: Image.Image, draw: ImageDraw.ImageDraw, seat: SeatInfo, x: int, y: int,
          lang: str) -> None:
    """One seat's panel: the name row, the chips and cards, the status and bet, the shown
    cards (drawn in this order)."""
    dim = seat.status in DIMMED or seat.away
    ink = MUTED if dim else INK
    outline, width = (GOLD, 3) if seat.to_act else (SHADOW, 1)
    draw.rounded_rectangle((x, y, x + SEAT_W, y + SEAT_H), radius=10, fill=PANEL,
                           outline=outline, width=width)
    right = x + SEAT_W - 8
    shown = seat.shown[:3]
    shown_w = len(shown) * (MINI_SHOWN + 3)
    _name_row(draw, seat, x, y, right, ink, lang)
    # rows 2 and 3 share the width with the shown cards
    _chips_rows(image, draw, seat, x, y, right - shown_w, ink, lang)
    sx = right - shown_w + 3
    top = y + SEAT_H
    for code in shown:
        card = flat("mini", code, MINI_SHOWN, PANEL)
        top = y + SEAT_H - card.height - 6
        image.paste(card, (sx, top))
        sx += MINI_SHOWN + 3
    if shown and seat.shown_value is not None:
        label = t("table_image.shown", lang, value=seat.shown_value)
        draw_text(draw, (right, top - 2), label, 12, GOLD, anchor="rb", bold=True,
                  max_width=shown_w + 40)


def _name_row(draw: ImageDraw.ImageDraw, seat: SeatInfo, x: int, y: int, right: int,
              ink: RGB, lang: str) -> None:
    """Row 1 of a seat: the dealer disc, the name (with the turn's arrow), the CPU tag."""
    nx = x + 9
    if seat.dealer:
        draw.ellipse((nx, y + 8, nx + 20, y + 28), fill=GOLD)
        draw_text(draw, (nx + 10, y + 18), t("render.dealer_mark", lang), 14, SHADOW,
                  anchor="mm", bold=True)
        nx += 26
    name_right = right
    if seat.cpu:
        label = t("render.cpu", lang)
        tag_w = pill_width(label, 11)
        pill(draw, (right - tag_w, y + 10), label, 11, MUTED, SHADOW)
        name_right -= tag_w + 6
    if seat.to_act:
        draw.polygon([(nx, y + 11), (nx + 9, y + 18), (nx, y + 25)], fill=GOLD)
        nx += 13
    draw_text(draw, (nx, y + 18), seat.name, 17, GOLD if seat.to_act else ink, anchor="lm",
              bold=True, max_width=name_right - nx)


def _chips_rows(image: Image.Image, draw: ImageDraw.ImageDraw, seat: SeatInfo, x: int, y: int,
                text_right: int, ink: RGB, lang: str) -> None:
    """Rows 2 and 3 of a seat, left of the shown cards (`text_right`): chips and cards held,
    then the status (or the away mark) and the bet."""
    _chip(draw, x + 9, y + 37)
    used = draw_text(draw, (x + 29, y + 44), fmt_int(seat.chips, lang), 16, ink, anchor="lm",
                     max_width=max(20, text_right - x - 29 - 40))
    bx = x + 29 + used + 12
    image.paste(flat("mini_back", "", 12, PANEL), (bx, y + 35))
    draw_text(draw, (bx + 16, y + 44), str(seat.cards), 16, ink, anchor="lm")
    status = seat.status if seat.status in STATUS_COLOURS else "in"
    if seat.away:  # the mark replaces the status: nobody waits for this seat
        pw = pill(draw, (x + 8, y + 58), t("living.away_mark", lang), 12, AWAY_COLOUR, INK,
                  max_width=100)
    else:
        pw = pill(draw, (x + 8, y + 58), status_label(status, lang), 12,
                  STATUS_COLOURS[status], INK, max_width=100)
    if seat.bet:
        bx = x + 8 + pw + 8
        amount = fmt_int(seat.bet, lang)
        label = t("render.bet", lang, amount=amount)
        size = 15
        if text_width(safe_text(label), size) > text_right - bx:  # no room: the gold amount
            label = amount
            size = 15 if text_width(amount, 15) <= text_right - bx else 12
        draw_text(draw, (bx, y + 67), label, size, GOLD, anchor="lm",
                  max_width=max(10, text_right - bx))


def pot_lines(snap: TableSnapshot) -> list[str]:
    """The pot labels shown in the middle of the table (only the non-zero ones)."""
    lang = snap.lang
    lines = []
    if snap.deal_no is not None and 0 <= snap.deal_no < len(snap.small_pots):
        small = snap.small_pots[snap.deal_no]
        if small:
            lines.append(t("render.small_pot", lang, amount=fmt_int(small, lang)))
    for key, amount in (("big_pot", snap.big_pot), ("carry", snap.carry),
                        ("bets", sum(s.bet for s in snap.seats)), ("level", snap.level)):
        if amount:
            lines.append(t(f"render.{key}", lang, amount=fmt_int(amount, lang)))
    return lines


def stoppa_cards(snap: TableSnapshot, y: int) -> tuple[list[PlacedCard], int]:
    """Where the stoppa's cards lie below `y` (`stoppa_row`); at the hand's end only the
    last sequence, to leave room for the payments."""
    left, _, right, bottom = CONTENT
    sequence = [code for play in snap.stoppa_table for code in play]
    before = snap.stoppa_before if snap.phase != "over" else ()
    return stoppa_layout(before, sequence, left=left, right=right, top=y,
                         bottom=bottom - STOPPA_FOOT)


def _stoppa(image: Image.Image, draw: ImageDraw.ImageDraw, snap: TableSnapshot, y: int) -> int:
    """The cards of the stoppa on the table (none overlapping another) and what the open
    sequence needs, or who closed it; returns the y below them."""
    lang = snap.lang
    left, _, right, _ = CONTENT
    if snap.stoppa_table or snap.stoppa_before:
        draw_text(draw, (CENTRE[0], y), t("render.on_table", lang), 14, MUTED, anchor="mt")
        placed, y = stoppa_cards(snap, y + 22)
        for spot in placed:
            card = mini_card(spot.code, spot.width)
            image.paste(card, (spot.x, spot.y), card)
        y += 6
    if snap.phase == "over" or snap.winner:
        return y
    if snap.needed is not None and 1 <= snap.needed <= 10:
        text = t("render.needed", lang, rank=snap.needed, name=rank_name(snap.needed, lang))
    else:
        text = t("render.open", lang)
    draw_text(draw, (CENTRE[0], y), text, 19, GOLD, anchor="mt", bold=True,
              max_width=right - left)
    return y + 26


def ending_lines(snap: TableSnapshot) -> list[str]:
    """What the centre says once the hand is over: the winner, then each payment."""
    lang = snap.lang
    lines = []
    if snap.winner and snap.special in SPECIAL_NAMES:
        lines.append(t("table_image.special", lang, player=snap.winner,
                       kind=t(SPECIAL_NAMES[snap.special], lang)))
    elif snap.winner:
        lines.append(t("table_image.closer", lang, player=snap.winner))
    lines += [t("table_image.payment", lang, payer=p.payer, to=p.to,
                amount=fmt_int(p.amount, lang)) for p in snap.payments]
    return lines


def _ending(image: Image.Image, draw: ImageDraw.ImageDraw, snap: TableSnapshot, y: int) -> None:
    """The hand's end in the centre: the cards that prove a special hand, the winner (gold)
    and the payments below."""
    left, _, right, bottom = CONTENT
    if snap.proof:
        step = min(MINI_TABLE + 4, (right - left - MINI_TABLE) / max(1, len(snap.proof) - 1))
        total = step * (len(snap.proof) - 1) + MINI_TABLE
        x = CENTRE[0] - total / 2
        for code in snap.proof:
            card = mini_card(code, MINI_TABLE)
            image.paste(card, (round(x), y), card)
            x += step
        y += round(MINI_TABLE * 1.4) + 10
    for i, line in enumerate(ending_lines(snap)):
        if y > bottom - 16:
            break
        size = 18 if i == 0 else 15
        draw_text(draw, (CENTRE[0], y), line, size, GOLD if i == 0 else INK, anchor="mt",
                  bold=i == 0, max_width=ENDING_WIDTH)
        y += size + 7


def table_image(snap: TableSnapshot) -> Image.Image:
    """The table as a Pillow image (RGB, 800 x 600); `render_table` encodes it."""
    lang = snap.lang
    image = _background().copy()
    draw = ImageDraw.Draw(image)
    title = snap.title or t("render.table_title", lang)
    hand = t("render.hand_no", lang, number=snap.hand_no) if snap.hand_no else ""
    hand_w = draw_text(draw, (WIDTH - 16, HEADER // 2), hand, 16, MUTED, anchor="rm") if hand else 0
    draw_text(draw, (16, HEADER // 2), title, 20, INK, anchor="lm", bold=True,
              max_width=WIDTH - 48 - hand_w)

    left, top, right, _ = CONTENT
    label = phase_label(snap.phase, lang, snap.deal_no, snap.deals or len(snap.small_pots))
    draw_text(draw, (CENTRE[0], top + 6), label, 24, GOLD, anchor="mt", bold=True,
              max_width=right - left)
    y = top + 42
    for line in pot_lines(snap):
        draw_text(draw, (CENTRE[0], y), line, 16, INK, anchor="mt", max_width=right - left)
        y += 23
    if snap.phase == "stoppa" or snap.stoppa_table or snap.stoppa_before:
        y = _stoppa(image, draw, snap, y + 8)
    if snap.phase == "over" or snap.winner:
        _ending(image, draw, snap, y + 8)

    for seat, (x, sy) in zip(snap.seats, seat_positions(len(snap.seats)), strict=True):
        _seat(image, draw, seat, x, sy, lang)
    return image


def render_table(snap: TableSnapshot) -> bytes:
    """The table image as PNG bytes (800 x 600)."""
    return encode_png(table_image(snap))
