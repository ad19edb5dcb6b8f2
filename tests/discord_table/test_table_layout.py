"""The table message as Discord's layout components (issue 36): within Discord's limits at six
players in both languages in every phase, its alt text within 1,024 characters, results
before lobby notices in its last events, and an old (embed) table message converted."""

from __future__ import annotations

import string
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import discord

from bot.i18n import t
from bot.tables import Notice, TableState
from cogs.table_images import table_snapshot_of
from cogs.table_items import table_buttons
from cogs.table_layout import ALT_LIMIT, alt_text, table_layout
from cogs.table_text import (
    EVENT_LINES,
    event_notice,
    last_lines,
    notice_text,
    table_texts,
)
from tests.discord_table.conftest import publisher
from tests.discord_table.driver import TableDriver
from tests.discord_table.test_game import open_table
from tests.harness import Harness
from tests.harness.contract import cross_field_errors

MESSAGE = "/channels/{channel_id}/messages"
V2 = 1 << 15
#: Display names as long as Discord allows (32), some full of characters markdown escapes.
LONG_NAMES = ("Massimiliano Bartolomeo Ferraris", "_*_Giovanna_*_Mariastella_*_Ros_",
              "Anna-Lucia dei Conti di Montalto", "~~Pierfrancesco Giambattista~~__",
              "Ludovica Immacolata Santangelo", "Bartolomeo_Filippo_Sanseverino_")


def _worst_lines(state: TableState, lang: str, names: dict[int, str]) -> list[str]:
    """The longest last events this table could show: its own events' lines and the
    longest notices of the service, the `EVENT_LINES` longest of them."""
    users = list(names)
    notices = [n for e in state.events if (n := event_notice(e, state.players)) is not None]
    notices += [
        Notice("tables.timeouts_removed", {"player": users[0], "count": 3}, ("player",)),
        Notice("tables.leaves_after_hand", {"player": users[1]}, ("player",)),
        Notice("tables.round_called", {"player": users[2]}, ("player",)),
        Notice("tables.kicked", {"player": users[3], "by": users[4]}, ("player", "by")),
        Notice("tables.sits_out", {"player": users[5], "ante": 99999}, ("player",)),
        Notice("tables.waiting_players", {"have": 2, "need": 3}),
        Notice("tables.closed"),
        Notice("table.embed.converted"),
    ]
    texts = [notice_text(n, lang, names) for n in notices]
    return sorted(texts, key=len)[-EVENT_LINES:]


def _payload(state: TableState, lang: str, names: dict[int, str]) -> dict[str, Any]:
    snapshot = table_snapshot_of(state, names, lang=lang, title="x")
    from bot.render import table_alt_text

    texts = table_texts(state, lang, names, _worst_lines(state, lang, names))
    view = table_layout(texts, lang, closed=state.status == "closed", image="table.png",
                        alt=table_alt_text(snapshot), buttons=table_buttons(state, lang))
    return {"components": view.to_components(), "flags": V2}


def _phase(state: TableState) -> str:
    if state.status == "closed":
        return "closed"
    if state.last_hand is not None:
        return "hand over"
    return state.phase or "lobby"


async def test_every_table_payload_fits_at_six_players_in_both_languages(h: Harness) -> None:
    members = [h.member(name) for name in LONG_NAMES]
    states: list[TableState] = []
    pub = publisher(h)
    push = pub.push
    pub.push = lambda update: (states.append(update.state), push(update))[1]  # type: ignore
    await open_table(h, members)
    driver = TableDriver(h, members, seed=3)
    await h.slash(members[0], "stoppa round")
    await driver.play_until_closed("mixed")
    names = {m.id: m.name for m in members}
    seen: dict[str, int] = {}
    for state in states:
        for extra in ({}, {"tournament": SimpleNamespace(id=99999, level=99,
                                                         hands_to_next_level=99)}):
            shown = replace(state, **extra)  # type: ignore[arg-type]
            for lang in ("en", "it"):
                payload = _payload(shown, lang, names)
                assert cross_field_errors(MESSAGE, payload) == [], (_phase(state), lang)
                text = sum(len(c.get("content", "")) for c in _walk(payload["components"]))
                seen[_phase(state)] = max(seen.get(_phase(state), 0), text)
    assert set(seen) >= {"lobby", "small_point", "big_point", "showdown", "stoppa",
                         "hand over", "closed"}, seen
    assert max(seen.values()) > 1500, seen  # the worst case was written, not an empty table


def _walk(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for item in items:
        out.append(item)
        out += _walk(item.get("components") or [])
    return out


def test_the_alt_text_is_cut_to_discords_1024_at_a_line() -> None:
    lines = [f"Seat {i}: " + string.ascii_lowercase * 3 + "." for i in range(40)]
    long = "\n".join(lines)
    cut = alt_text(long)
    assert len(cut) <= ALT_LIMIT and cut.endswith("…")
    assert cut[:-1] in long and cut[:-1].rstrip().endswith(".")  # whole lines only
    assert alt_text("short") == "short"
    # discord.py sends a longer description as it is (Discord refuses it): we cut it
    item = discord.MediaGalleryItem("attachment://table.png", description=long)
    assert item.to_dict()["description"] == long


def test_results_and_moves_come_before_lobby_notices() -> None:
    def event(key: str, **params: Any) -> Notice:
        return Notice(f"table.event.{key}", {"player": 1, **params}, ("player",))

    hand = [event("play", cards="5c"), event("play", cards="6c"), event("close"),
            event("payment", amount=10, to=2), event("payment", amount=20, to=3),
            Notice("tables.hand_over", {"hand_no": 3})]
    lobby = [Notice("tables.cpu_joined", {"player": -1, "level": "easy"}, ("player",)),
             Notice("tables.joined", {"player": 4}, ("player",)),
             Notice("tables.joined", {"player": 5}, ("player",))]
    kept = last_lines(hand + lobby, size=6)
    assert kept == hand, "a lobby notice pushed out a result or a move"
    kept = last_lines(hand + lobby, size=8)
    assert kept[:6] == hand and kept[6:] == lobby[1:]  # the newest lobby notices fill up


async def test_an_old_embed_table_message_is_converted_in_one_edit(h: Harness) -> None:
    members = [h.member(name) for name in ("Anna", "Bruno", "Carla")]
    await open_table(h, members)
    message = TableDriver(h, members).table_message()
    # the message as the bot posted it before issue 36: an embed with the image and a row
    message.flags = 0
    message.embeds = [{"title": "Stoppa table #1", "image": {"url": "attachment://table.png"}}]
    message.components = [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "My cards", "custom_id": "stoppa:1:hand"}]}]
    before = len(h.calls)
    await h.restart()
    await h.settle()
    edits = [c for c in h.calls[before:] if c.via == "http" and c.method == "PATCH"
             and c.path == MESSAGE + "/{message_id}"]
    first = edits[0]
    assert first.json["flags"] & V2 and first.json["embeds"] == []
    assert first.json.get("content") is None and first.files  # the image uploaded with it
    shown = h.message(message.id)
    assert shown.flags & V2 and not shown.embeds and shown.media_urls() == [
        "attachment://table.png"]
    assert t("table.embed.converted", "en") in shown.text
    assert [f.filename for f in shown.attachments] == ["table.png"]
    # said once: the next edits of a layout message do not ask again nor say it again
    gets = [c for c in h.calls[before:] if c.method == "GET" and c.path.endswith("{message_id}")]
    assert len(gets) == 1


def test_the_lines_of_hands_before_the_last_one_come_last() -> None:
    def hand(no: int) -> list[Notice]:
        return [Notice("tables.hand_started", {"hand_no": no, "dealer": 1}, ("dealer",)),
                Notice("table.event.pass", {"player": 1, "level": 0}, ("player",)),
                Notice("table.event.close", {"player": 2}, ("player",)),
                Notice("tables.hand_over", {"hand_no": no})]

    lines = [line for no in range(1, 6) for line in hand(no)] + hand(6)[:2]
    assert last_lines(lines, size=6) == lines[-6:]  # hand 5's lines and hand 6's
    assert last_lines(lines, size=7) == lines[-7:]  # then the newest older one
