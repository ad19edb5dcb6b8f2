"""The public table message as Discord's layout components (Components V2, issue 36).

One `discord.ui.LayoutView`: the title with the phase and whose turn it is until when, the
table image in a MediaGallery, a Container of text blocks (seats, pots, the last hand's
result, the last events, the fair deal, the stakes), then the row of buttons anyone may use.
The gallery sits outside the Container: it spans the whole message's width (on a 390 px
phone about 310 px, against 250 inside a Container and less in an embed, whose image is
fitted to 400 x 300), so that the image's small text (pots, a seat's chips) stays readable.
The Container's accent colour (green open, grey closed) only repeats what the text says.

Discord's limits for one V2 message: 40 components (nested ones included) and 4,000
characters of text; `fit` drops the oldest event lines first, then the oldest result lines,
so that a six-player table's longest result still fits in both languages. The image's
description (alt text) is at most 1,024 characters (`alt_text`; discord.py sends what it is
given and Discord refuses a longer one).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import discord

from bot.i18n import t
from cogs.table_text import TableTexts

#: Discord's limits for a Components V2 message and for a media item's description.
TEXT_LIMIT = 4000
COMPONENT_LIMIT = 40
ALT_LIMIT = 1024
OPEN_COLOUR = discord.Colour.dark_green()
CLOSED_COLOUR = discord.Colour.dark_grey()


def alt_text(text: str, limit: int = ALT_LIMIT) -> str:
    """`text` within `limit` characters, cut after its last whole line (or word) that fits,
    with an ellipsis: a screen reader never stops mid-word."""
    if len(text) <= limit:
        return text
    head = text[: limit - 1]
    cut = max(head.rfind("\n"), head.rfind(". ") + 1)
    if cut < limit // 2:
        cut = head.rfind(" ")
    return (head[:cut] if cut > 0 else head).rstrip() + "…"


def _block(heading: str, lines: Sequence[str]) -> str:
    return "\n".join([f"**{heading}**", *lines]) if lines else ""


def _quiet(text: str | None) -> str:
    """Small grey text (Discord's `-#` subtext), line by line."""
    return "\n".join(f"-# {line}" for line in text.splitlines() if line) if text else ""


def text_blocks(texts: TableTexts, lang: str) -> list[str]:
    """The text blocks of the message, in order; the image goes after the first one."""
    blocks = [
        "\n".join([f"## {texts.title}", *texts.top]),
        _block(t("table.embed.players", lang), texts.seats),
        _block(t("table.embed.pots", lang), texts.pots),
        _block(texts.result_title, texts.result),
        _block(t("table.embed.events", lang), texts.events),
        _quiet(f"{t('fairness.table.field', lang)} · {texts.fair}" if texts.fair else None),
        _quiet(texts.stakes),
    ]
    return [b for b in blocks if b]


def fit(texts: TableTexts, lang: str, limit: int = TEXT_LIMIT) -> TableTexts:
    """`texts` within `limit` characters of text: the oldest event lines go first, then the
    oldest lines of the result (its payments, at the end, are what players look for)."""
    while len("".join(text_blocks(texts, lang))) > limit:
        if len(texts.events) > 1:
            texts = replace(texts, events=texts.events[1:])
        elif len(texts.result) > 1:
            texts = replace(texts, result=texts.result[1:])
        else:
            return replace(texts, events=(), fair=None)
    return texts


def table_layout(
    texts: TableTexts,
    lang: str,
    *,
    closed: bool = False,
    image: str | None = None,
    alt: str = "",
    buttons: discord.ui.ActionRow | None = None,
) -> discord.ui.LayoutView:
    """The table message: `texts` in a Container, the image attached as `image` (its alt
    text `alt`) after the turn line, then `buttons` (None: no buttons)."""
    blocks = text_blocks(fit(texts, lang), lang)
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.TextDisplay(blocks[0]))
    if image is not None:
        media = discord.MediaGalleryItem(f"attachment://{image}", description=alt_text(alt) or None)
        view.add_item(discord.ui.MediaGallery(media))
    if blocks[1:]:
        view.add_item(discord.ui.Container(
            *(discord.ui.TextDisplay(block) for block in blocks[1:]),
            accent_colour=CLOSED_COLOUR if closed else OPEN_COLOUR,
        ))
    if buttons is not None and buttons.children:
        view.add_item(buttons)
    return view
