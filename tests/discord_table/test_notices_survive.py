"""Issue 25: what a player must read survives the table message's window of last lines.

The notices of a change ("Hand 3 is over", "Anna was sat out for a whole hand and leaves the
table") are kept before the engine events of the same change and of the next hand's deal,
which used to push them out of the lines the message shows."""

from __future__ import annotations

from pathlib import Path

from bot.client import TableOptions
from bot.i18n import t
from bot.tables import FakeClock
from tests.discord_table.test_living import _sit_anna_out, _table_in, _table_message, _turn
from tests.harness import Harness


async def test_hand_over_and_a_sat_out_leaver_reach_the_table_message(tmp_path: Path) -> None:
    clock = FakeClock()
    async with Harness.create(tmp_path, seed=7, table_options=TableOptions(clock=clock)) as h:
        anna, bruno = h.member("Anna"), h.member("Bruno")
        state = await _sit_anna_out(h, clock, anna, bruno)
        await h.restart()  # in the middle: she is still sat out, her hand goes on
        state = _table_in(h, h.channel_id)
        assert state.seat_of(anna.id).away  # type: ignore[union-attr]
        seen_over: set[int] = set()
        for _ in range(300):  # Bruno plays until Anna, sat out a whole hand, leaves
            state = _table_in(h, h.channel_id)
            if state.seat_of(anna.id) is None:
                break
            hand_no = state.hand_no
            await _turn(h, bruno, h.channel_id)
            await h.bot.tables.wait_idle()  # type: ignore[union-attr]
            await h.settle()
            after = _table_in(h, h.channel_id)
            if after.hand_no != hand_no:  # a hand ended: the message says so
                text = _table_message(h).text
                assert t("tables.hand_over", "en", hand_no=hand_no) in text, text
                seen_over.add(hand_no)
        else:
            raise AssertionError("Anna never left")
        assert seen_over
        text = _table_message(h).text
        assert t("living.away_removed", "en", player="Anna") in text, text
        assert t("tables.hand_over", "en", hand_no=state.hand_no - 1) in text, text
