"""A practice table is its member's: one each, beside a real seat, and it survives a restart."""

from __future__ import annotations

from bot.tables.policies.practice import practice_channel
from tests.harness import Harness
from tests.practice.helpers import (
    PracticeDriver,
    answered_privately,
    button,
    practice_session,
    said,
)


async def test_a_second_practice_shows_the_same_table(h: Harness) -> None:
    anna = h.member("Anna")
    first = PracticeDriver(h, anna)
    await first.open(players=2)
    table = practice_session(h.bot.tables, anna.id)
    assert table is not None
    await first.step()
    where = (table.meta.in_play.hand_no, table.meta.in_play.turn)
    again = PracticeDriver(h, anna)
    reply = await again.open(channel="general", players=5, level="hard")  # another channel
    assert "where you left it" in said(reply)
    assert practice_session(h.bot.tables, anna.id) is table
    assert (table.meta.in_play.hand_no, table.meta.in_play.turn) == where
    assert len(table.row.seats) == 3  # the first /practice's two CPU players, not five
    rows = await h.store.query(
        "SELECT COUNT(*) FROM tables WHERE channel_id = ? AND status != 'closed'",
        (practice_channel(anna.id),),
    )
    assert rows[0][0] == 1


async def test_a_member_seated_at_a_real_table_may_practise(h: Harness) -> None:
    anna, boss = h.member("Anna"), h.member("Boss")
    await h.slash(boss, "stoppa new")
    await h.slash(anna, "stoppa join")
    real = h.bot.tables.table_of(h.guild_id, anna.id)
    assert real is not None
    practice = PracticeDriver(h, anna)
    await practice.open()
    await practice.play_hands(1)
    assert h.bot.tables.table_of(h.guild_id, anna.id) == h.bot.tables.state(h.channel_id)
    assert anna.id in [s.user_id for s in h.bot.tables.state(h.channel_id).seats]  # type: ignore[union-attr]


async def test_a_practising_member_may_open_a_real_table_in_the_same_channel(
    h: Harness,
) -> None:
    anna = h.member("Anna")
    await PracticeDriver(h, anna).open()
    opened = await h.slash(anna, "stoppa new")
    state = h.bot.tables.state(h.channel_id)
    assert state is not None, said(opened)
    assert state.table_id != practice_session(h.bot.tables, anna.id).id  # type: ignore[union-attr]
    assert [s for s in h.bot.tables.open_tables(h.guild_id)] == [state]


async def test_a_restart_mid_hand_resumes_the_practice_table(h: Harness) -> None:
    anna = h.member("Anna")
    practice = PracticeDriver(h, anna, seed=3)
    await practice.open(players=4, level="hard")
    await practice.step()
    table = practice_session(h.bot.tables, anna.id)
    assert table is not None and table.in_hand
    in_play = table.meta.in_play
    before = (table.id, in_play.hand_no, in_play.turn, table.hand_for(anna.id).seat_view)
    old_message = practice.message_id

    await h.restart()

    resumed = practice_session(h.bot.tables, anna.id)
    assert resumed is not None and resumed is not table
    assert (resumed.id, resumed.meta.in_play.hand_no, resumed.meta.in_play.turn,
            resumed.hand_for(anna.id).seat_view) == before
    # the message from before the restart still plays (its buttons are rebuilt from their ids)
    step = await practice.step()
    answered_privately(step)
    assert (resumed.meta.in_play.hand_no, resumed.meta.in_play.turn) != before[1:3]
    # and /practice shows the table where it is
    again = PracticeDriver(h, anna)
    shown = await again.open()
    assert "where you left it" in said(shown) and again.message_id != old_message
    assert button(again.message, "leave") is not None
