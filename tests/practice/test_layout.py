"""Issue 36: the practice message says what the CPU players did since the member's last
decision (and the hand's earlier moves where they fit), carries its hand image in a gallery
with alt text, and stays within Discord's Components V2 limits, in English and Italian."""

from __future__ import annotations

import pytest

from bot.discord_utils.errors import refusal_text
from bot.engine import events as ev
from bot.i18n import t
from bot.i18n.cards import card_name
from bot.tables import TableError, display_name
from cogs.practice_layout import ALT_LIMIT, TEXT_LIMIT
from tests.harness import EPHEMERAL, FakeMessage, Harness
from tests.practice.helpers import (
    PracticeDriver,
    button,
    gallery,
    ids,
    practice_session,
    said,
    shown_text,
)

V2 = 1 << 15
WAGERS = (ev.BetMade, ev.Raised, ev.Called, ev.Passed)


def all_components(message: FakeMessage) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []

    def walk(items: list[dict[str, object]]) -> None:
        for item in items:
            out.append(item)
            walk(item.get("components") or [])  # type: ignore[arg-type]

    walk(message.components)
    return out


def since_block(message: FakeMessage, lang: str) -> list[str] | None:
    """The lines under "Since your last move" (None when the block is not shown whole)."""
    head = f"**{t('practice.moves.since', lang)}**"
    for display in (c for c in all_components(message) if c.get("type") == 10):
        lines = str(display.get("content")).split("\n")
        if head in lines:
            block = lines[lines.index(head) + 1:]
            more = t("practice.moves.more", lang, count=1)[:3]
            return None if any(line.startswith(f"-# {more}") for line in block) else block
    return None


def within_limits(message: FakeMessage) -> None:
    """A Components V2 message as Discord takes it: the flag, no content or embeds, at most
    40 components and 4,000 characters of text, alt text of at most 1,024 characters."""
    assert message.flags & V2 and not message.content and not message.embeds
    parts = all_components(message)
    assert len(parts) <= 40, len(parts)
    assert len(shown_text(message)) <= TEXT_LIMIT
    for item in gallery(message):
        assert 0 < len(str(item.get("description"))) <= ALT_LIMIT


@pytest.mark.parametrize(("locale", "lang", "moves"), [
    ("en-US", "en", {ev.BetMade: "bets", ev.Raised: "raises to", ev.Called: "calls",
                     ev.Passed: "passes"}),
    ("it", "it", {ev.BetMade: "punta", ev.Raised: "rilancia a", ev.Called: "vede",
                  ev.Passed: "passa"}),
])
async def test_each_cpu_move_since_the_members_decision_is_told(
    h: Harness, locale: str, lang: str, moves: dict[type, str]
) -> None:
    member = h.member(f"Dora{lang}", locale=locale)
    driver = PracticeDriver(h, member, seed=9)
    await driver.open(players=3)
    table = practice_session(h.bot.tables, member.id)
    assert table is not None
    checked = 0
    for _ in range(60):
        within_limits(driver.message)
        if button(driver.message, "next") is not None:
            break
        info = table.hand_for(member.id)
        events = list(info.events)
        mine = [i for i, e in enumerate(events) if e.seat == info.seat and isinstance(
            e, (*WAGERS, ev.Declared, ev.Played)) and not getattr(e, "forced", False)]
        block = since_block(driver.message, lang)
        if mine and block is not None:
            cpu_moves = [e for e in events[mine[-1] + 1:] if isinstance(e, WAGERS)
                         and e.seat != info.seat]
            told = list(block)
            for event in cpu_moves:  # each in order, by its player, with its word
                name = display_name(table.snapshot.players[event.seat])
                word = moves[type(event)]
                match = next((i for i, line in enumerate(told)
                              if line.startswith(f"{name} {word}")), None)
                assert match is not None, (name, word, block)
                told = told[match + 1:]
                checked += 1
        await driver.step()
    assert checked >= 3, checked


async def test_the_image_has_its_alt_text_and_the_text_names_the_cards(h: Harness) -> None:
    for locale, lang in (("en-US", "en"), ("it", "it")):
        member = h.member(f"Ezio{lang}", locale=locale)
        driver = PracticeDriver(h, member, seed=2)
        opened = await driver.open(players=5)
        within_limits(driver.message)
        items = gallery(driver.message)
        assert [i["media"]["url"] for i in items] == ["attachment://practice.png"]
        alt = str(items[0]["description"])
        table = practice_session(h.bot.tables, member.id)
        assert table is not None
        info = table.hand_for(member.id)
        for card in info.seat_view.hand:  # every card of the hand, by its name
            assert card_name(card.code, lang) in alt, (card, alt)
        assert [f.filename for f in opened.files] == ["practice.png"]
        await driver.click("leave")


async def test_a_refusal_reads_as_at_a_real_table(h: Harness) -> None:
    """Issue 35: practice words no refusal of its own: a stale click says what the one place
    (`refusal_text`) says at a real table, in the member's language."""
    for locale, lang in (("en-US", "en"), ("it", "it")):
        member = h.member(f"Fabio{lang}", locale=locale)
        driver = PracticeDriver(h, member, seed=6)
        await driver.open()
        old = next(i for i in ids(driver.message) if i.split(":")[3] in ("pass", "best"))
        await driver.step()
        again = await h.click(member, driver.message_id, old)
        assert refusal_text(TableError("stale_button"), lang) in said(again)
        within_limits(driver.message)
        await driver.click("leave")
        gone = await h.click(member, driver.message_id, old)
        assert refusal_text(TableError("no_table"), lang) in said(gone)
        assert t("practice.none", lang) in said(gone)


async def test_a_practice_message_of_before_the_change_is_converted_by_its_next_click(
    h: Harness
) -> None:
    """A practice message sent before the change (content, an embed, action rows) becomes the
    layout in the edit its next click makes: the V2 flag, no content, no embed."""
    gina = h.member("Gina")
    driver = PracticeDriver(h, gina, seed=5)
    await driver.open(players=2)
    message = driver.message
    leave = button(message, "leave")
    assert leave is not None
    message.flags = EPHEMERAL  # as the bot sent it before: no V2 flag
    message.content = "**Your cards, hand 1**"
    message.embeds = [{"title": "Practice table", "type": "rich"}]
    message.components = [{"type": 1, "components": [
        {"type": 2, "style": 4, "label": "Leave", "custom_id": leave}]}]
    stale = leave.replace(":leave", ":next")  # a button of the old message, stale now
    message.components[0]["components"].append(
        {"type": 2, "style": 2, "label": "Next hand", "custom_id": stale})
    clicked = await h.click(gina, driver.message_id, stale)
    assert clicked.responded and clicked.ephemeral
    within_limits(driver.message)
    assert refusal_text(TableError("stale_button"), "en") in said(driver.message)
    assert button(driver.message, "leave") is not None
