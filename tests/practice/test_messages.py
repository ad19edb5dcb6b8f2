"""The practice message: in the member's language, the bet modal, stale clicks, /help."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.client import TableOptions
from bot.i18n import t
from bot.tables.clock import FakeClock
from tests.harness import Harness, Reply
from tests.practice.helpers import (
    PracticeDriver,
    answered_privately,
    button,
    components,
    ids,
    practice_session,
    said,
    shown_text,
)


def labels(driver: PracticeDriver) -> set[str]:
    return {str(c.get("label")) for c in components(driver.message)}


async def test_an_italian_member_reads_italian(h: Harness) -> None:
    bice = h.member("Bice", locale="it")
    driver = PracticeDriver(h, bice)
    opened = await driver.open(players=2)
    assert "fiches di prova" in said(opened) and "Tavolo di prova" in said(opened)
    assert "chips" not in said(opened).lower()
    assert {"Suggerimento", "Esci"} <= labels(driver)
    await driver.play_hands(1)
    assert "Prossima mano" in labels(driver)


async def test_other_amount_opens_the_modal_and_plays_the_amount(h: Harness) -> None:
    anna = h.member("Anna")
    driver = PracticeDriver(h, anna, seed=4)
    await driver.open(players=3)
    table = practice_session(h.bot.tables, anna.id)
    assert table is not None
    for _ in range(200):  # to a decision where a bet of another amount is offered
        if button(driver.message, "other") is not None:
            break
        await driver.step()
    custom_id = button(driver.message, "other")
    assert custom_id is not None
    opened = await h.click(anna, driver.message_id, custom_id)
    assert opened.modal is not None and opened.first_response_after is not None
    info = table.hand_for(anna.id)
    assert info.bet_range is not None
    low, high = info.bet_range
    turn = table.meta.in_play.turn
    submitted = await h.submit_modal(anna, opened.modal["custom_id"],
                                     {"amount": str((low + high) // 2)}, opened_by=opened)
    answered_privately(submitted)
    assert table.meta.in_play.turn > turn


async def test_a_stale_click_shows_the_table_as_it_is(h: Harness) -> None:
    anna = h.member("Anna")
    driver = PracticeDriver(h, anna, seed=6)
    await driver.open()
    old = next(i for i in ids(driver.message) if i.split(":")[3] in ("pass", "best"))
    await driver.step()
    table = practice_session(h.bot.tables, anna.id)
    assert table is not None
    where = (table.meta.in_play.hand_no, table.meta.in_play.turn)
    again = await h.click(anna, driver.message_id, old)  # a button of an older version
    answered_privately(again)
    assert (table.meta.in_play.hand_no, table.meta.in_play.turn) == where
    assert "out of date" in said(again).lower() or "older" in said(again).lower(), said(again)
    assert button(driver.message, "leave") is not None


async def test_help_lists_practice(h: Harness) -> None:
    for locale in ("en-US", "it"):
        reply = await h.slash(h.member(f"M{locale}", locale=locale), "help")
        assert "/practice" in reply.text and "/learn" in reply.text


async def test_every_answer_comes_first_even_when_the_store_is_slow(tmp_path: Path) -> None:
    """Every practice answer is deferred before any store I/O: a store that takes 4 s a call
    still sees each interaction answered within Discord's 3 seconds (harness time)."""
    options = TableOptions(clock=FakeClock())
    async with Harness.create(tmp_path, seed=11, table_options=options) as h:
        await slow_practice(h)


async def slow_practice(h: Harness) -> None:
    anna = h.member("Anna")
    driver = PracticeDriver(h, anna, seed=2)
    h.slow_store(4.0)
    await driver.open()  # `seen` checks each answer: in time and private
    await driver.click("hint")
    await driver.click("leave")  # deferred by the same path as every move
    assert practice_session(h.bot.tables, anna.id) is None


async def test_the_turn_is_said_once_and_the_commitment_line_stays(h: Harness) -> None:
    """Issue 34: the practice text replaced the last line of the hand text, which became the
    fair deal's commitment line: the turn was said twice ("It is your turn (). You may: ..."
    and "It is your turn. You may: ...") and the commitment was lost."""
    for locale, turn, fair in (("en-US", "It is your turn", "Fair deal"),
                               ("it", "Tocca a te", "Mazzo garantito")):
        member = h.member(f"P{locale}", locale=locale)
        driver = PracticeDriver(h, member, seed=3)
        await driver.open(players=2)
        seen = 0
        for _ in range(40):
            text = shown_text(driver.message)
            if turn in text:
                seen += 1
                assert text.count(turn) == 1, text
                assert "()" not in text, text
                assert fair in text, text
            if "stoppa:practice" not in " ".join(ids(driver.message)) or seen >= 3:
                break
            await driver.step()
        assert seen, "the member had a turn"
        await driver.click("leave")


async def other_amount_modal(h: Harness, driver: PracticeDriver) -> Reply:
    """Play until the member may bet another amount, then open that modal."""
    for _ in range(200):
        if button(driver.message, "other") is not None:
            break
        await driver.step()
    custom_id = button(driver.message, "other")
    assert custom_id is not None
    opened = await h.click(driver.member, driver.message_id, custom_id)
    assert opened.modal is not None
    return opened


@pytest.mark.parametrize("typed", ["²", "①", "5²", "٣٠", "１２", "-5", "1e3", "5\x00", "\x00"])
async def test_a_typed_amount_that_is_not_ascii_digits_is_refused_politely(
    h: Harness, caplog: pytest.LogCaptureFixture, typed: str
) -> None:
    """Issue 34: the practice amount was read with `str.isdigit()`, so "²" passed and `int()`
    raised outside the answer's `try`. It is read as every typed number is
    (`bot.discord_utils.numbers.typed_number`): a polite private refusal, nothing played."""
    anna = h.member("Anna")
    driver = PracticeDriver(h, anna, seed=4)
    await driver.open(players=3)
    opened = await other_amount_modal(h, driver)
    table = practice_session(h.bot.tables, anna.id)
    assert table is not None
    where = (table.meta.in_play.hand_no, table.meta.in_play.turn)
    refused = await h.submit_modal(anna, opened.modal["custom_id"],  # type: ignore[index]
                                   {"amount": typed}, opened_by=opened)
    answered_privately(refused)
    assert (table.meta.in_play.hand_no, table.meta.in_play.turn) == where
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
    low, high = table.hand_for(anna.id).bet_range or (0, 0)  # worded as at a real table
    assert t("table.refuse.bad_amount", "en", min=low, max=high) in said(driver.message)
