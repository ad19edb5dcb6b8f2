"""Pillow images of cards, hands, tables and leaderboards, from plain snapshots to PNG bytes.

Pure functions, safe to call from `asyncio.to_thread` (the only shared state is caches of
sprites and fonts). Every visible label comes from the `render` and `cards` catalogues.
"""

from __future__ import annotations

from PIL import Image

from bot.render.alt_text import hand_alt_text, table_alt_text
from bot.render.hand import render_hand
from bot.render.leaderboard import leaderboard_text, render_leaderboard
from bot.render.snapshots import (
    HandSnapshot,
    LeaderboardSnapshot,
    LeaderRowInfo,
    PaymentInfo,
    PointInfo,
    SeatInfo,
    TableSnapshot,
)
from bot.render.sprites import card_back, card_face
from bot.render.table import render_table


def render_card(code: str, width: int = 100) -> Image.Image:
    """The cached RGBA sprite of card `code` ("7d"), `width` px wide; "back" gives the back.

    The image is shared by every caller: paste it or `.copy()` it, never modify it.
    """
    if code == "back":
        return card_back(width)
    return card_face(code, width)


__all__ = [
    "HandSnapshot",
    "LeaderRowInfo",
    "LeaderboardSnapshot",
    "PaymentInfo",
    "PointInfo",
    "SeatInfo",
    "TableSnapshot",
    "hand_alt_text",
    "leaderboard_text",
    "render_card",
    "render_hand",
    "render_leaderboard",
    "render_table",
    "table_alt_text",
]
