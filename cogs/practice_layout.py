"""The practice message as Discord's layout components (Components V2), and its words.

Beside a real table a learner sees no table message: the practice message alone must say what
the CPU players did. So it narrates the hand (`bot.render.narration.Narrator`, the words of
the demo and of `python -m bot play`): what happened since the member's last decision in full,
the hand's earlier moves above it where they fit. The hand image sits in a gallery, wider than
an embed's image and with its alt text (up to Discord's 1,024 characters; discord.py sends a
longer `description` as it is, and its docstring's 256 is not Discord's limit), then the cards
and the turn in words, the moves, and the table (seats, pots, stakes) below a divider. One
message, updated by each click, as before.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.engine import events as ev
from bot.i18n import t
from bot.render.narration import Narrator, hand_over_text
from bot.tables import PlayerHand, PracticeTable, display_name
from cogs.table_text import pot_lines, seat_lines

#: Discord's limits of a Components V2 message: the text of all its text displays, and a
#: media item's description (alt text)
TEXT_LIMIT = 4000
ALT_LIMIT = 1024
IMAGE_NAME = "practice.png"
#: A player's own choices (a forced pass or a table-played card is not one)
DECISIONS = (ev.BetMade, ev.Raised, ev.Called, ev.WentAllIn, ev.Passed, ev.Conceded,
             ev.Declared, ev.Played)
ACCENT = discord.Colour.dark_green()
#: How many lines of the hand's moves the message shows: since the member's last decision
#: (a raising war between CPU players is long), and before it; and the room kept for the
#: headings of the two
SINCE_LINES = 14
EARLIER_LINES = 6
ROOM_FOR_HEADS = 200


@dataclass(frozen=True, slots=True)
class HandMoves:
    """The hand in words: the moves before the member's last decision (theirs the last of
    them) and those since; `decided`: whether they decided yet in this hand."""

    earlier: tuple[str, ...]
    since: tuple[str, ...]
    decided: bool


def _decision_of(event: ev.Event, seat: int) -> bool:
    return (isinstance(event, DECISIONS) and event.seat == seat
            and not getattr(event, "forced", False))


def hand_moves(info: PlayerHand, names: Sequence[str], lang: str) -> HandMoves:
    """What everyone did in the hand so far, cut at the member's last decision; at the hand's
    end, its result last."""
    events = list(info.events)
    cut = next((i + 1 for i in range(len(events) - 1, -1, -1)
                if _decision_of(events[i], info.seat)), 0)
    narrator = Narrator(list(names), lang, show_deals=False)
    narrator.eldest = info.seat_view.eldest
    earlier = narrator.lines(events[:cut]) + narrator.flush()
    since = narrator.lines(events[cut:]) + narrator.flush()
    result = info.seat_view.result
    if info.phase == "over" and result is not None:
        since.append(hand_over_text(info.hand_no, result, names, lang))
    return HandMoves(tuple(earlier), tuple(since), cut > 0)


def seat_names(table: PracticeTable, member: int, name: str) -> list[str]:
    """The name of each seat of the hand (the member by their display name)."""
    return [name if user == member else display_name(user) for user in table.state.players]


def moves_text(moves: HandMoves, lang: str, room: int) -> str | None:
    """The hand's moves: the last `SINCE_LINES` since the member's last decision and, when
    all of those fit, the last `EARLIER_LINES` before it (a line says how many are left out),
    within `room` characters; None when there is nothing to tell."""
    if not moves.earlier and not moves.since:
        return None
    since = list(moves.since[-SINCE_LINES:])
    earlier = list(moves.earlier[-EARLIER_LINES:]) if len(since) == len(moves.since) else []
    while earlier and len("\n".join([*earlier, *since])) > room - ROOM_FOR_HEADS:
        earlier.pop(0)
    dropped = len(moves.earlier) + len(moves.since) - len(earlier) - len(since)
    more = ["-# " + t("practice.moves.more", lang, count=dropped)] if dropped else []
    lines = [*more, *(f"-# {line}" for line in earlier)]
    if since:
        head = t("practice.moves.since" if moves.decided else "practice.moves.so_far", lang)
        if earlier:
            lines.insert(0, f"**{t('practice.moves.earlier', lang)}**")
            lines.append(f"**{head}**")
        else:
            lines.insert(0, f"**{head}**")
        lines += since
    text = "\n".join(lines)
    return text if len(text) <= room else text[-room:]


def table_text(table: PracticeTable, lang: str, names: dict[int, str]) -> str:
    """The table below the divider: the seats, the pots, the stakes."""
    state = table.state
    lines = [f"**{t('table.embed.players', lang)}**", *seat_lines(state, lang, names)]
    pots = pot_lines(state, lang)
    if pots:
        lines += [f"**{t('table.embed.pots', lang)}**", *pots]
    with contextlib.suppress(KeyError, IndexError):
        lines.append("-# " + t("table.embed.stakes", lang, **state.stakes.to_dict()))
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class PracticeBody:
    """What the practice message shows, in reading order (laid out by `layout`)."""

    #: the title, what practice chips are, the hand and its phase
    head: str
    #: what the click brought (opened, a refusal, closed...)
    top: str | None = None
    #: the hand's moves (`moves_text`), fitted into what the other texts leave
    moves: HandMoves | None = None
    #: the alt text of the hand image attached (None: no image)
    alt: str | None = None
    #: the member's cards and turn, and what to choose
    hand: str | None = None
    rows: tuple[discord.ui.ActionRow[Any], ...] = ()
    table: str | None = None


def layout(body: PracticeBody, lang: str) -> discord.ui.LayoutView:
    """The message: one container of the head, the click's answer, the hand's moves, the hand
    image (`attachment://practice.png`, uploaded with the edit), the cards and the turn, the
    moves' buttons, and below a divider the table (discord.py sets the V2 flag)."""
    fixed = [x for x in (body.head, body.top, body.hand, body.table) if x]
    room = TEXT_LIMIT - sum(len(x) for x in fixed)
    moves = moves_text(body.moves, lang, room) if body.moves is not None and room > 0 else None
    box: discord.ui.Container[Any] = discord.ui.Container(accent_colour=ACCENT)
    for text in (body.head, body.top, moves):
        if text:
            box.add_item(discord.ui.TextDisplay(text))
    if body.alt is not None:
        box.add_item(discord.ui.MediaGallery(discord.MediaGalleryItem(
            f"attachment://{IMAGE_NAME}", description=body.alt[:ALT_LIMIT] or None)))
    if body.hand:
        box.add_item(discord.ui.TextDisplay(body.hand))
    for row in body.rows:
        box.add_item(row)
    if body.table:
        box.add_item(discord.ui.Separator())
        box.add_item(discord.ui.TextDisplay(body.table))
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(box)
    return view
