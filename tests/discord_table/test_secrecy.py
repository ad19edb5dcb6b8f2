"""Issue 7: "Nothing secret in any public message, log line or embed".

A whole game is played; every REST call that posted or edited something public (the table
message, the turn pings, non-ephemeral interaction answers) and every log record is scanned for
the codes and the names (Italian and English) of the cards that were hidden at that moment: in
a player's hand and neither declared nor played. Each turn is a segment: a card counts as
hidden during the turn when it was hidden both before and after it (within one hand).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass

import pytest

from bot.engine import SeatView
from bot.i18n.cards import card_name
from tests.discord_table.driver import CARD, TableDriver
from tests.discord_table.test_game import open_table
from tests.harness import EPHEMERAL, Call, Harness


@dataclass(frozen=True)
class Moment:
    """What was secret at one moment of the game."""

    hand_no: int
    hidden: frozenset[str]
    calls: int
    logs: int


def shown_cards(view: SeatView | None) -> set[str]:
    """Cards the public view shows: declared points and the cards played in the stoppa."""
    if view is None:
        return set()
    out: set[str] = set()
    for point in view.declared:
        out.update(c.code for c in point.cards)
    for play in view.stoppa.table if view.stoppa is not None else ():
        out.update(c.code for c in play)
    return out


def moment(driver: TableDriver, caplog: pytest.LogCaptureFixture) -> Moment:
    """The hidden cards now (the hands of the members minus what the table shows)."""
    state = driver.state()
    h = driver.h
    if state is None:
        return Moment(-1, frozenset(), len(h.calls), len(caplog.records))
    held: set[str] = set()
    for member in driver.members:
        try:
            held.update(c.code for c in driver.hand_info(member).seat_view.hand)
        except Exception:  # not dealt in (no hand)
            continue
    hidden = held - shown_cards(state.view)
    return Moment(state.hand_no, frozenset(hidden), len(h.calls), len(caplog.records))


def is_public(h: Harness, call: Call) -> bool:
    """Whether a REST call posted or edited something everybody in the channel sees."""
    if call.method not in ("POST", "PATCH") or not isinstance(call.json, dict):
        return False
    if call.via == "http":
        return True
    token = call.token
    if call.callback_type is not None or (call.method == "POST" and "/webhooks/" in call.path):
        if call.callback_type == 9:  # a modal: only the clicker sees it
            return False
        return not call.flags & EPHEMERAL and bool(call.data)
    original = h.fake.originals.get(token) if token else None
    return original is not None and not h.fake.messages[original].ephemeral


def leaks(text: str, hidden: frozenset[str]) -> set[str]:
    """Hidden cards named in `text` by code or by name (in Italian or English)."""
    found = set(CARD.findall(text)) & hidden
    for code in hidden:
        if card_name(code, "it") in text or card_name(code, "en") in text:
            found.add(code)
    return found


async def test_no_hidden_card_in_any_public_message_embed_or_log_line(
    tmp_path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    async with Harness.create(tmp_path, seed=5, guild_locale="it") as h:
        members = [h.member("Anna"), h.member("Bruno", locale="it"), h.member("Carla"),
                   h.member("Dario", locale="it")]
        await open_table(h, members)
        await h.slash(members[3], "stoppa round")
        driver = TableDriver(h, members, seed=17)
        checked = boundaries = 0
        found: list[tuple[int, str, set[str]]] = []
        for _ in range(2000):
            if driver.state() is None:
                break
            before = moment(driver, caplog)
            # players look at their cards now and then (ephemeral: must not count as public)
            if driver.rng.random() < 0.3:
                await h.slash(driver.member(driver.state().to_act), "stoppa hand")
            await driver.play_turn("mixed")
            after = moment(driver, caplog)
            if after.hand_no != before.hand_no:
                boundaries += 1  # the end of a hand shows cards legitimately
                continue
            hidden = before.hidden & after.hidden
            checked += 1
            for call in h.calls[before.calls:after.calls]:
                if is_public(h, call):
                    bad = leaks(json.dumps(call.json, ensure_ascii=False), hidden)
                    if bad:
                        found.append((before.hand_no, call.path, bad))
            for record in caplog.records[before.logs:after.logs]:
                bad = leaks(record.getMessage(), hidden)
                if bad:
                    found.append((before.hand_no, f"log {record.name}", bad))
        assert driver.state() is None, "the table did not close"
        assert checked > 30 and boundaries >= 3
        assert found == []
        # the scan can see: private replies of the same game do carry hidden cards
        private = [c for c in h.calls if c.via == "webhook" and not is_public(h, c)]
        assert any(CARD.search(json.dumps(c.json)) for c in private if c.json)
