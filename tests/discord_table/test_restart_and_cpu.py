"""A restart in the middle of a hand, and tables with CPU seats."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.i18n import t
from tests.discord_table.driver import TableDriver
from tests.discord_table.test_game import START, open_table
from tests.discord_table.test_refusals import old_turn_ids, turn_button
from tests.harness import Harness


async def test_restart_mid_hand_resumes_and_old_buttons_still_work(h: Harness) -> None:
    members = [h.member(name) for name in ("Anna", "Bruno", "Carla")]
    await open_table(h, members)
    driver = TableDriver(h, members, seed=11)
    for _ in range(3):
        await driver.play_turn("mixed")
    before = driver.state()
    assert before is not None and before.to_act is not None and before.hand_no == 1
    message = driver.table_message()
    actor = driver.member(before.to_act)
    old_ids = old_turn_ids(h)  # its turn buttons as a message of before issue 36 had them
    assert turn_button(old_ids, "pass").endswith(f":{before.hand_no}:{before.turn}")
    cards_before = driver.hand_info(actor).seat_view.hand

    await h.restart()

    resumed = driver.state()
    assert resumed is not None
    assert (resumed.hand_no, resumed.turn, resumed.to_act) == (
        before.hand_no, before.turn, before.to_act
    )
    assert resumed.message_id == message.id
    assert driver.hand_info(actor).seat_view.hand == cards_before
    # the old message's button, captured before the restart, still plays
    clicked = await h.click(actor, message.id, turn_button(old_ids, "pass"))
    assert clicked.type == 6
    after = driver.state()
    assert after is not None and after.turn == before.turn + 1
    # the message kept being the table's message, edited by the new bot
    assert driver.table_message().id == message.id
    # (which shows only what everyone shares: no turn buttons, issue 36)
    assert not any(i.count(":") >= 4 for i in h.message(message.id).custom_ids())
    hand = await h.slash(actor, "stoppa hand")
    assert hand.ephemeral and hand.files and hand.files[0].is_png
    assert await h.store.audit() == []


async def test_one_human_and_two_cpus_play_to_the_close(h: Harness) -> None:
    anna = h.member("Anna")
    opened = await h.slash(anna, "stoppa new")
    assert opened.ephemeral
    added = await h.slash(anna, "stoppa addbot", level="easy")
    assert added.ephemeral and added.text == t("table.reply.cpu_added", "en")
    message = TableDriver(h, [anna]).table_message()
    add_cpu = next(i for i in message.custom_ids() if i.endswith(":addcpu"))
    by_button = await h.click(anna, message.id, add_cpu)
    assert by_button.ephemeral and by_button.text == t("table.reply.cpu_added", "en")
    state = h.bot.tables.state(h.channel_id)
    assert state is not None and sum(1 for s in state.seats if s.cpu) == 2

    start = next(i for i in TableDriver(h, [anna]).table_message().custom_ids()
                 if i.endswith(":start"))
    started = await h.click(anna, message.id, start)
    # the answer to Start is her live panel, already showing the first hand (issue 36)
    assert started.ephemeral and t("table.hand.title", "en", hand_no=1) in started.text
    await h.slash(anna, "stoppa round")

    driver = TableDriver(h, [anna], seed=2)
    turns = await driver.play_until_closed("buttons")
    assert turns > 5
    assert h.bot.tables.state(h.channel_id) is None
    assert await h.store.audit() == []
    balances, escrow, minted = await h.store.total_chips(h.guild_id)
    assert escrow == 0 and balances == minted
    cpus = [s.user_id for s in state.seats if s.cpu]
    stored = await h.store.balances(h.guild_id, [anna.id, *cpus])
    assert sum(stored.values()) == 3 * START and stored[anna.id] != START


async def test_a_turn_timeout_reaches_the_table_message(tmp_path: Path) -> None:
    async with Harness.create(tmp_path, seed=3, turn_timeout=0.6) as h:
        members = [h.member(name) for name in ("Anna", "Bruno", "Carla")]
        await open_table(h, members)
        driver = TableDriver(h, members)
        state = driver.state()
        assert state is not None and state.to_act is not None
        late = driver.member(state.to_act)
        message = driver.table_message()
        await asyncio.sleep(0.7)  # the turn timer fires (a pass: nobody bet yet)
        await h.settle()
        after = driver.state()
        assert after is not None and after.turn > state.turn
        expected = t("tables.timeout.pass", "en", player=late.name)
        assert expected in h.message(message.id).text
        await h.slash(members[0], "stoppa round")  # stop the clock quickly
