"""Issue 9: a whole game in Italian (members and server in Italian) shows no English text."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.i18n import catalogue, t
from tests.discord_table.driver import TableDriver
from tests.discord_table.test_game import open_table
from tests.harness import Harness

#: Catalogue areas whose texts can reach a player of the table.
AREAS = ("table.", "tables.", "engine.", "render.", "errors.", "cards.")
PLACEHOLDER = re.compile(r"\{[^}]*\}")


def english_fragments() -> set[str]:
    """Pieces of English catalogue texts (between placeholders) that no Italian text holds."""
    english, italian = catalogue("en"), catalogue("it")
    italian_blob = "\n".join(italian.values())
    out: set[str] = set()
    for key, text in english.items():
        if not key.startswith(AREAS) or italian.get(key) == text:
            continue
        for piece in PLACEHOLDER.split(text):
            piece = piece.strip(" .,:;()!?·-\n")
            if len(piece) >= 8 and piece not in italian_blob:
                out.add(piece)
    return out


def english_card_words() -> set[str]:
    """English rank and suit names ("Knight", "Coins"...) that differ from the Italian."""
    english, italian = catalogue("en"), catalogue("it")
    return {
        text for key, text in english.items()
        if key.startswith(("cards.rank.", "cards.suit.")) and italian.get(key) != text
    }


@pytest.fixture
async def h_it(tmp_path: Path) -> AsyncIterator[Harness]:
    """A ready bot in a guild whose preferred locale is Italian."""
    async with Harness.create(tmp_path, seed=9, guild_locale="it") as harness:
        yield harness


async def test_a_game_in_italian_has_no_english_text(h_it: Harness) -> None:
    h = h_it
    members = [h.member(name, locale="it") for name in ("Anna", "Bruno", "Carla", "Dario")]
    await open_table(h, members)
    await h.slash(members[1], "stoppa round")
    driver = TableDriver(h, members, seed=4)
    hands = 0
    for _ in range(2000):
        state = driver.state()
        if state is None:
            break
        if state.hand_no > hands:
            hands = state.hand_no
            reply = await h.slash(members[hands % 4], "stoppa hand")
            assert reply.ephemeral and t("table.hand.title", "it", hand_no=hands) in reply.text
            await h.slash(members[0], "stoppa status")
        await driver.play_turn("mixed")
    assert driver.state() is None and hands == 4

    # every message the bot sent or edited, public or private, with its components
    sent = [
        json.dumps(c.json, ensure_ascii=False)
        for c in h.calls
        if c.method in ("POST", "PATCH") and isinstance(c.json, dict)
    ]
    blob = "\n".join(sent)
    assert t("table.embed.closed", "it") in blob and t("table.event.phase_stoppa", "it") in blob
    found = sorted(f for f in english_fragments() if f in blob)
    assert not found, found
    words = sorted(w for w in english_card_words() if re.search(rf"\b{re.escape(w)}\b", blob))
    assert not words, words
