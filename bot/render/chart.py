"""The `/stats` chart: a player's chips over their last hands, drawn with Pillow.

Pillow rather than matplotlib: the chart is one line, a zero line and three kinds of marker;
Pillow is already a dependency, draws it in a few milliseconds and with the fonts and colours
of the other images, while matplotlib would add a large dependency and ~0.5 s of import time.
The line is the running total of the hands' results (what the hands won or lost, not the
balance, which dailies and grants also move). Pure: call it through `asyncio.to_thread`.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.i18n import t
from bot.render.png import encode_png
from bot.render.shapes import fmt_int
from bot.render.text import draw_text
from bot.render.theme import FELT, FELT_LIGHT, GOLD, INK, MUTED, NEW, PANEL, SHADOW

WIDTH, HEIGHT = 800, 380
PLOT = (78, 64, 776, 322)  # left, top, right, bottom
CLOSE_COLOUR = NEW
SPECIAL_COLOUR = (230, 90, 90)
AREA = "history.chart"


@dataclass(frozen=True, slots=True)
class ChartPoint:
    """One hand on the chart: the running total after it and what the player did in it."""

    total: int
    big_won: bool = False
    closed: bool = False
    special: bool = False


@dataclass(frozen=True, slots=True)
class ChipChart:
    """The chart of one player's last hands, oldest first."""

    points: tuple[ChartPoint, ...]
    player: str = ""
    lang: str = "en"


def _marker(draw: ImageDraw.ImageDraw, kind: str, x: float, y: float) -> None:
    if kind == "big":
        draw.ellipse((x - 6, y - 6, x + 6, y + 6), fill=GOLD, outline=SHADOW)
    elif kind == "close":
        draw.polygon([(x, y - 8), (x + 7, y + 5), (x - 7, y + 5)], fill=CLOSE_COLOUR,
                     outline=SHADOW)
    else:
        draw.rectangle((x - 5, y - 5, x + 5, y + 5), fill=SPECIAL_COLOUR, outline=SHADOW)


def chart_image(chart: ChipChart) -> Image.Image:
    """The chart as an RGB image (800 x 380)."""
    lang = chart.lang
    image = Image.new("RGB", (WIDTH, HEIGHT), PANEL)
    draw = ImageDraw.Draw(image)
    left, top, right, bottom = PLOT
    draw.rectangle(PLOT, fill=FELT)
    title = t("history.chart.title", lang, player=chart.player, count=len(chart.points))
    draw_text(draw, (16, 22), title, 19, INK, anchor="lm", bold=True, max_width=WIDTH - 32)
    totals = [0] + [p.total for p in chart.points]
    low, high = float(min(totals)), float(max(totals))
    if high == low:
        low, high = low - 10, high + 10
    pad = (high - low) * 0.08
    low, high = low - pad, high + 2.5 * pad  # room above for the markers

    def ypos(value: float) -> float:
        return bottom - (value - low) / (high - low) * (bottom - top)

    def xpos(i: int) -> float:
        return left + 12 + i * (right - left - 24) / max(1, len(totals) - 1)

    zero = ypos(0)
    draw.line((left, zero, right, zero), fill=FELT_LIGHT, width=2)
    for value in sorted({min(totals), 0, max(totals)}):
        draw_text(draw, (left - 8, ypos(value)), fmt_int(value, lang), 13, MUTED, anchor="rm")
    draw_text(draw, ((left + right) / 2, bottom + 14), t("history.chart.axis", lang), 13, MUTED,
              anchor="mm")
    line = [(xpos(i), ypos(v)) for i, v in enumerate(totals)]
    if len(line) > 1:
        draw.line(line, fill=INK, width=3, joint="curve")
    for i, p in enumerate(chart.points, start=1):
        x, y = xpos(i), ypos(p.total)
        draw.ellipse((x - 3, y - 3, x + 3, y + 3), fill=INK)
        offset = 0
        for kind, on in (("big", p.big_won), ("close", p.closed), ("special", p.special)):
            if on:
                _marker(draw, kind, x, y - 14 - offset)
                offset += 16
    # legend
    x = 16
    ly = HEIGHT - 22
    for kind, key in (("big", "legend_big"), ("close", "legend_close"),
                      ("special", "legend_special")):
        _marker(draw, kind, x + 7, ly)
        x += 20 + draw_text(draw, (x + 18, ly), t(AREA + "." + key, lang), 14, INK,
                            anchor="lm") + 16
    return image


def render_chart(chart: ChipChart) -> bytes:
    """The chart as PNG bytes."""
    return encode_png(chart_image(chart))
