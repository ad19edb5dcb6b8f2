"""The final standings of a sit-and-go tournament: an image and its text version.

Posted in the tournament's thread when it ends (`cogs.tournament`): every entrant by finishing
place, with the prize they won (in the server's currency) and the hand in which they went out
(the winner: the hand that ended the tournament). The cog builds a `StandingsSnapshot` from
the tournament's places and payouts and renders it off the event loop (`asyncio.to_thread`).
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.i18n import t
from bot.i18n.currency import Currency
from bot.render.png import encode_png
from bot.render.shapes import fmt_int
from bot.render.text import draw_text, name_text
from bot.render.theme import FELT, FELT_DARK, FELT_LIGHT, GOLD, INK, MUTED, PANEL, SHADOW

WIDTH = 640
HEADER = 78
ROW = 46
FOOTER = 36
PAD = 18
#: the colours of the first three places (gold, silver, bronze)
MEDALS = {1: (240, 192, 60), 2: (196, 204, 212), 3: (205, 127, 50)}
#: the width of the "went out" column
HAND_COLUMN = 150


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One finisher: place (1 = the winner), display name, prize in chips (0: none) and the
    tournament hand (1-based) in which their place was decided."""

    place: int
    name: str
    prize: int
    hand: int


@dataclass(frozen=True, slots=True)
class StandingsSnapshot:
    """Everything the standings image shows, in `lang`."""

    rows: tuple[StandingRow, ...]
    number: int
    pool: int
    hands: int
    lang: str = "en"
    server: str = ""
    currency_name: str | None = None
    currency_emoji: str | None = None

    @property
    def currency(self) -> Currency:
        """The currency the prizes are written in."""
        return Currency(self.currency_name, self.currency_emoji)


def prize_text(snap: StandingsSnapshot, prize: int, *, emoji: bool = True) -> str:
    """A prize as written on the image ("1,332 chips") or a dash for no prize."""
    if prize <= 0:
        return t("tournaments.image.no_prize", snap.lang)
    amount = fmt_int(prize, snap.lang)
    if emoji:
        return snap.currency.amount(amount, snap.lang)
    return f"{amount} {snap.currency.word(prize, snap.lang)}"


def hand_text(row: StandingRow, lang: str) -> str:
    """"winner" for the first place, else "out in hand N"."""
    if row.place == 1:
        return t("tournaments.image.winner", lang, hand=row.hand)
    return t("tournaments.image.out_hand", lang, hand=row.hand)


def title_text(snap: StandingsSnapshot) -> str:
    """The image's title: "Tournament #7: final standings"."""
    return t("tournaments.image.title", snap.lang, number=snap.number)


def footer_text(snap: StandingsSnapshot) -> str:
    """The server's name (made safe to draw), or the game's when unknown."""
    return name_text(snap.server) if snap.server else t("tournaments.image.footer", snap.lang)


def subtitle_text(snap: StandingsSnapshot, *, emoji: bool = True) -> str:
    """The prize pool, the players and the hands played."""
    return t(
        "tournaments.image.subtitle", snap.lang,
        pool=prize_text(snap, snap.pool, emoji=emoji) if snap.pool else fmt_int(0, snap.lang),
        players=len(snap.rows), hands=snap.hands,
    )


def standings_image(snap: StandingsSnapshot) -> Image.Image:
    """The standings as a Pillow image (RGB, `WIDTH` px wide, one row per finisher)."""
    lang = snap.lang
    rows = sorted(snap.rows, key=lambda r: r.place)
    height = HEADER + max(1, len(rows)) * ROW + FOOTER
    image = Image.new("RGB", (WIDTH, height), FELT_DARK)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((2, 2, WIDTH - 3, height - 3), radius=14, fill=FELT)
    draw_text(draw, (PAD, 14), title_text(snap), 23, INK, bold=True,
              max_width=WIDTH - 2 * PAD)
    draw_text(draw, (PAD, 46), subtitle_text(snap, emoji=False), 15, MUTED,
              max_width=WIDTH - 2 * PAD)
    y = HEADER
    for i, row in enumerate(rows):
        winner = row.place == 1
        fill = PANEL if i % 2 == 0 else FELT_LIGHT
        draw.rounded_rectangle((PAD - 6, y + 3, WIDTH - PAD + 6, y + ROW - 3), radius=9,
                               fill=fill, outline=GOLD if winner else None,
                               width=2 if winner else 0)
        cx, cy = PAD + 18, y + ROW // 2
        medal = MEDALS.get(row.place)
        if medal is not None:
            draw.ellipse((cx - 15, cy - 15, cx + 15, cy + 15), fill=medal, outline=SHADOW)
            draw_text(draw, (cx, cy), str(row.place), 16, SHADOW, anchor="mm", bold=True)
        else:
            draw_text(draw, (cx, cy), str(row.place), 16, MUTED, anchor="mm")
        prize = prize_text(snap, row.prize, emoji=False)
        used = draw_text(draw, (WIDTH - PAD - 6, cy), prize, 18, GOLD if row.prize else MUTED,
                         anchor="rm", bold=bool(row.prize))
        hand_x = WIDTH - PAD - 6 - max(used, 110) - 20
        draw_text(draw, (hand_x, cy), hand_text(row, lang), 14, GOLD if winner else MUTED,
                  anchor="rm", max_width=HAND_COLUMN)
        name_right = hand_x - HAND_COLUMN - 12
        draw_text(draw, (PAD + 46, cy), row.name, 19, INK, anchor="lm", bold=winner,
                  max_width=max(60, name_right - PAD - 46))
        y += ROW
    draw_text(draw, (WIDTH - PAD, height - FOOTER / 2 - 2), footer_text(snap), 13, MUTED,
              anchor="rm", max_width=WIDTH - 2 * PAD)
    return image


def render_standings(snap: StandingsSnapshot) -> bytes:
    """The standings image as PNG bytes (blocking: call it through `asyncio.to_thread`)."""
    return encode_png(standings_image(snap))


def standings_text(snap: StandingsSnapshot) -> str:
    """The standings as plain lines: the image's alt text and the embed's list."""
    lines = [t("tournaments.image.alt_header", snap.lang, title=title_text(snap),
               summary=subtitle_text(snap))]
    for row in sorted(snap.rows, key=lambda r: r.place):
        lines.append(t("tournaments.image.alt_row", snap.lang, place=row.place, name=row.name,
                       prize=prize_text(snap, row.prize), out=hand_text(row, snap.lang)))
    return "\n".join(lines)
