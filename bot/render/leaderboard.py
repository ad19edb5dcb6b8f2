"""The leaderboard image and its text version (the cog sends both)."""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.i18n import t
from bot.i18n.currency import Currency
from bot.render.png import encode_png
from bot.render.shapes import fmt_int
from bot.render.snapshots import LeaderboardSnapshot
from bot.render.text import draw_text, name_text
from bot.render.theme import FELT, FELT_DARK, FELT_LIGHT, GOLD, INK, MUTED, PANEL, SHADOW

WIDTH = 600
HEADER = 64
ROW = 42
FOOTER = 34
PAD = 16
BY_KEYS: dict[str, str] = {
    "balance": "render.lb.by.balance",
    "net": "render.lb.by.net",
    "closes": "render.lb.by.closes",
    "rating": "ranking.board_by",
}
MEDALS = {1: (240, 192, 60), 2: (196, 204, 212), 3: (205, 127, 50)}


def by_label(by: str, lang: str, currency: Currency | None = None, *, emoji: bool = True) -> str:
    """What the board ranks by: "chips" (or the server's currency), "net winnings",
    "stoppe closed"; `emoji=False` for the image, whose fonts have no emoji."""
    if currency is not None and not currency.is_default and by not in ("net", "closes"):
        return currency.label(lang, emoji=emoji)
    return t(BY_KEYS.get(by, BY_KEYS["balance"]), lang)


def value_text(value: int, by: str, lang: str) -> str:
    """A row's figure: signed for net winnings, with thousands separators."""
    text = fmt_int(value, lang)
    return f"+{text}" if by == "net" and value > 0 else text


def title_text(snap: LeaderboardSnapshot, *, drawn: bool = False) -> str:
    """The board's title, with the server's name when there is one (made safe if `drawn`)."""
    if snap.server:
        server = name_text(snap.server) if drawn else snap.server
        return t("render.lb.title_server", snap.lang, server=server)
    return t("render.lb.title", snap.lang)


def leaderboard_image(snap: LeaderboardSnapshot) -> Image.Image:
    """The leaderboard as a Pillow image (RGB, 600 px wide)."""
    lang = snap.lang
    rows = snap.rows
    height = HEADER + max(1, len(rows)) * ROW + FOOTER
    image = Image.new("RGB", (WIDTH, height), FELT_DARK)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((2, 2, WIDTH - 3, height - 3), radius=14, fill=FELT)
    draw_text(draw, (PAD, 14), title_text(snap, drawn=True), 22, INK, bold=True,
              max_width=WIDTH - 2 * PAD)
    draw_text(draw, (PAD, 42), by_label(snap.by, lang, snap.currency, emoji=False), 15, MUTED,
              max_width=WIDTH - 2 * PAD)
    y = HEADER
    if not rows:
        draw_text(draw, (WIDTH / 2, y + ROW / 2), t("render.lb.empty", lang), 17, MUTED,
                  anchor="mm")
    for i, row in enumerate(rows):
        fill = PANEL if i % 2 == 0 else FELT_LIGHT
        draw.rounded_rectangle((PAD - 4, y + 3, WIDTH - PAD + 4, y + ROW - 3), radius=8, fill=fill)
        cx, cy = PAD + 18, y + ROW // 2
        medal = MEDALS.get(row.rank)
        if medal is not None:
            draw.ellipse((cx - 14, cy - 14, cx + 14, cy + 14), fill=medal, outline=SHADOW)
            draw_text(draw, (cx, cy), str(row.rank), 15, SHADOW, anchor="mm", bold=True)
        else:
            draw_text(draw, (cx, cy), str(row.rank), 15, MUTED, anchor="mm")
        value = value_text(row.value, snap.by, lang)
        used = draw_text(draw, (WIDTH - PAD - 6, cy), value, 18, GOLD, anchor="rm", bold=True)
        draw_text(draw, (PAD + 44, cy), row.name, 18, INK, anchor="lm",
                  max_width=WIDTH - 2 * PAD - 44 - used - 20)
        y += ROW
    draw_text(draw, (WIDTH - PAD, height - FOOTER / 2 - 2), t("render.lb.page", lang,
              page=snap.page), 13, MUTED, anchor="rm")
    return image


def render_leaderboard(snap: LeaderboardSnapshot) -> bytes:
    """The leaderboard image as PNG bytes."""
    return encode_png(leaderboard_image(snap))


def leaderboard_text(snap: LeaderboardSnapshot) -> str:
    """The leaderboard as plain text lines (sent beside the image; also its alt text)."""
    lang = snap.lang
    lines = [t("render.lb.header", lang, title=title_text(snap),
               by=by_label(snap.by, lang, snap.currency), page=snap.page)]
    if not snap.rows:
        lines.append(t("render.lb.empty", lang))
    for row in snap.rows:
        lines.append(t("render.lb.row", lang, rank=row.rank, name=row.name,
                       value=value_text(row.value, snap.by, lang)))
    return "\n".join(lines)
