"""The Hint button of a practice table: an ephemeral line, computed from the member's own seat
view, that never names a card the member cannot see (checked at every decision of many hands,
in English and Italian, against the cards the CPU seats hold hidden at that moment)."""

from __future__ import annotations

from tests.harness import Harness
from tests.players.test_hint import CODE, visible_codes
from tests.practice.helpers import PracticeDriver, button, practice_session, said


async def test_a_hint_names_only_cards_the_member_sees(h: Harness) -> None:
    drivers = [PracticeDriver(h, h.member("Anna"), seed=8),
               PracticeDriver(h, h.member("Bice", locale="it"), seed=9)]
    for driver, level in zip(drivers, ("hard", "random"), strict=True):
        await driver.open(players=4, level=level)
    hints = 0
    for hands in range(1, 7):
        for driver in drivers:
            table = practice_session(h.bot.tables, driver.member.id)
            assert table is not None
            while table.meta.in_play.hand_no < hands or table.in_hand:
                if button(driver.message, "hint") is not None:
                    info = table.hand_for(driver.member.id)
                    seen = visible_codes(info.seat_view)
                    hand = table.hand
                    assert hand is not None
                    hidden = {c.code for seat in range(len(table.meta.in_play.players))
                              if seat != info.seat for c in hand.seat_view(seat).hand} - seen
                    message_before = said(driver.message)
                    shown = await driver.click("hint")
                    named = set(CODE.findall(shown.text))
                    assert named <= seen and not named & hidden, (named, seen)
                    assert shown.message is not None and shown.message.id != driver.message_id
                    assert said(driver.message) == message_before  # the table is unchanged
                    word = "Suggerimento" if driver.member.locale == "it" else "Hint"
                    assert shown.text.startswith(word), shown.text
                    hints += 1
                await driver.step()
    assert hints >= 12
