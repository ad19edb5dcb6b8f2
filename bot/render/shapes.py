"""Small drawing helpers shared by the images: labels in pills, number formatting, phases."""

from __future__ import annotations

from PIL import ImageDraw

from bot.i18n import t
from bot.i18n.numbers import format_number
from bot.render.text import draw_text, fit_text, safe_text, text_width

PHASE_KEYS: dict[str, str] = {
    "lobby": "render.phase.lobby",
    "small_point": "render.phase.small_point",
    "big_point": "render.phase.big_point",
    "showdown": "render.phase.showdown",
    "stoppa": "render.phase.stoppa",
    "over": "render.phase.over",
}
STATUS_KEYS: dict[str, str] = {
    "in": "render.status.in",
    "passed": "render.status.passed",
    "allin": "render.status.allin",
    "out": "render.status.out",
    "sitting_out": "render.status.sitting_out",
}


def status_label(status: str, lang: str) -> str:
    """A seat's status as shown ("in", "passed", "all-in", ...); unknown statuses read as "in"."""
    return t(STATUS_KEYS.get(status, STATUS_KEYS["in"]), lang)


def fmt_int(value: int, lang: str) -> str:
    """An integer with thousands separators: 1,234 (en) or 1.234 (it) (`format_number`)."""
    return format_number(value, lang)


def pill_width(text: str, size: int, max_width: int | None = None) -> int:
    """The width `pill` would use for `text`."""
    pad = max(4, size // 2)
    shown = fit_text(text, size, max(8, max_width - 2 * pad)) if max_width else safe_text(text)
    return text_width(shown, size) + 2 * pad


def pill(
    draw: ImageDraw.ImageDraw,
    xy: tuple[int, int],
    text: str,
    size: int,
    fill: tuple[int, int, int],
    ink: tuple[int, int, int],
    *,
    max_width: int | None = None,
) -> int:
    """A rounded label whose top-left corner is `xy`; return its width."""
    pad = max(4, size // 2)
    shown = fit_text(text, size, max(8, max_width - 2 * pad)) if max_width else safe_text(text)
    width = text_width(shown, size) + 2 * pad
    x, y = xy
    height = size + pad
    draw.rounded_rectangle((x, y, x + width, y + height), radius=height // 2, fill=fill)
    draw_text(draw, (x + width / 2, y + height / 2), shown, size, ink, anchor="mm")
    return width


def phase_label(phase: str, lang: str, deal_no: int | None = None, deals: int = 0) -> str:
    """The phase as players say it: "Punto piccolo 2/4", "Punto grosso", "Stoppa"."""
    if phase == "small_point" and deal_no is not None and deals:
        return t("render.phase.small_point_n", lang, n=deal_no + 1, total=deals)
    key = PHASE_KEYS.get(phase)
    return t(key, lang) if key is not None else phase
