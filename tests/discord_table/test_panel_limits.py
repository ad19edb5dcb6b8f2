"""Every payload of the live panel fits Discord's Components V2 limits (issue 36): at most 40
components (nested ones included) and 4,000 characters of text, with no content or embeds,
at a table of SIX players in English and in Italian, in every phase a panel shows: the
betting with its quick amounts, the showdown's select of points, the stoppa's select of
openings, the end of a hand with its result, a panel whose token ran out, a closed table.

All six players keep their panel open while the hands are played (by slash command and in
the panels, typed amounts included), so every panel follows every phase."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.engine import Bet, Call, Raise
from bot.i18n import t
from bot.tables import PlayerHand
from cogs.table_panel import PanelBook
from tests.discord_table.driver import TableDriver
from tests.discord_table.test_game import open_table
from tests.harness import Harness
from tests.harness.contract import V2_COMPONENTS, V2_TEXT, cross_field_errors
from tests.harness.transport import COMPONENTS_V2, TEXT_DISPLAY, sent_text, walk_components
from tests.harness.transport import Call as Request

NAMES = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio")
LOCALES = {"en": "en-US", "it": "it"}
HANDS = 3


def panels(h: Harness) -> PanelBook:
    """The table cog's live panels."""
    cog: Any = h.bot.get_cog("TableCog")
    return cog.panels  # type: ignore[no-any-return]


def panel_calls(h: Harness) -> list[Request]:
    """Every request that wrote a player's panel through a token: the edits of a private
    message that is a panel now (a private reply to Join or to a command is not one)."""
    out = []
    for call in h.calls:
        if call.via != "webhook" or call.method != "PATCH" or call.token is None:
            continue
        message = h.fake.messages.get(h.fake.originals.get(call.token, 0))
        if message is not None and message.ephemeral and message.v2:
            out.append(call)
    return out


def phases(data: dict[str, Any], lang: str) -> set[str]:
    """The phases a panel payload shows (what a player would call them)."""
    text = sent_text(data)
    ids = [str(c.get("custom_id")) for c in walk_components(data.get("components"))]
    options = [str(o.get("value")) for c in walk_components(data.get("components"))
               for o in c.get("options") or []]
    found = set()
    if any(":bet:" in i for i in ids) and any(":other:" in i for i in ids):
        found.add("betting")
    if any(o.startswith("declare") for o in options):
        found.add("showdown")
    if any(o.startswith("play") for o in options):
        found.add("stoppa")
    if t("handover.title", lang, hand_no=1)[:6] in text and "result" not in found:
        found.add("result")
    if t("table.hand.expired", lang, button=t("table.button.panel", lang)) in text:
        found.add("expired")
    if t("tables.closed", lang) in text or text.startswith(
            t("table.hand.closed", lang, amount=0).split("0")[0]):
        found.add("closed")
    return found


class Stayer(TableDriver):
    """A driver whose players stay in the hand (call, now and then bet; pass only when
    nothing else is left), so that hands reach the showdown and the stoppa."""

    def choose(self, info: PlayerHand) -> Any:
        actions = list(info.actions)
        calls = [a for a in actions if isinstance(a, Call)]
        bets = [a for a in actions if isinstance(a, Bet | Raise)]
        if bets and (not calls or self.rng.random() < 0.3):
            return self.rng.choice(bets[:1] + bets[-1:])
        if calls:
            return calls[0]
        return super().choose(info)


async def play_six(h: Harness, lang: str, seed: int) -> None:
    """Six players, every panel open, `HANDS` hands; then every token runs out, the panels
    come back, and the table is closed."""
    locale = LOCALES[lang]
    members = [h.member(name, locale=locale, manage_guild=name == "Anna") for name in NAMES]
    await open_table(h, members)
    driver = Stayer(h, members, seed=seed)
    for member in members:
        await driver.panel_of(member)
    stoppa = False  # until a hand reached the stoppa (not every hand does)
    while (state := driver.state()) is not None and (
            state.hand_no <= HANDS or (not stoppa and state.hand_no <= 3 * HANDS)):
        await driver.service.wait_idle()
        await h.settle()
        stoppa = stoppa or (driver.state() or state).phase == "stoppa"
        await driver.play_turn("mixed")
    book = panels(h)
    book.life = 0.5  # the tokens run out: each panel says so
    table_id = int(driver.table_message().custom_ids()[0].split(":")[1])
    for member in members:
        panel = book.panel(table_id, member.id)
        if panel is not None:
            panel.wake.set()
    await asyncio.sleep(0.7)
    await h.settle()
    book.life = 14 * 60.0
    for member in members:  # each brings their panel back, then the table closes
        panel = driver.panels[member.id]
        await h.click(member, panel.id, panel.custom_ids()[0])
    await h.slash(members[0], "stoppa end")
    await h.settle()


@pytest.mark.parametrize("lang", ["en", "it"])
async def test_six_players_panels_fit_discords_limits_in_every_phase(
    tmp_path: Path, lang: str
) -> None:
    async with Harness.create(tmp_path, seed=7, guild_locale=LOCALES[lang]) as h:
        await play_six(h, lang, seed=4)
        calls = panel_calls(h)
        seen: set[str] = set()
        for call in calls:
            data = call.data
            assert data["flags"] & COMPONENTS_V2, data
            assert "content" not in data and not data.get("embeds")
            components = walk_components(data["components"])
            assert len(components) <= V2_COMPONENTS
            assert sum(len(c.get("content") or "") for c in components
                       if c.get("type") == TEXT_DISPLAY) <= V2_TEXT
            assert cross_field_errors(call.path, data) == []
            seen |= phases(data, lang)
        assert seen == {"betting", "showdown", "stoppa", "result", "expired", "closed"}, seen
        biggest = max(len(walk_components(c.data["components"])) for c in calls)
        longest = max(len(sent_text(c.data)) for c in calls)
        assert biggest < V2_COMPONENTS and longest < V2_TEXT  # and room to spare
