"""A sit-and-go through the real bot (issue 21): `/tournament new`, entrants by button and
by command, the table started in its own thread, played to the end by CPU players, the
results and the standings image posted in the thread, and the prize pool paid exactly."""

from __future__ import annotations

from pathlib import Path

from bot.i18n import t
from bot.tournaments.state import Phase
from tests.discord_table.driver import TableDriver
from tests.discord_tournament.conftest import button, note, open_tournament
from tests.harness import FakeMember, Harness
from tests.harness.harness import THREAD_BOT_PERMISSIONS

#: a quick tournament: the ante rises every hand from 60, and every stack is 10 antes
QUICK = {"schedule": "turbo", "starting_stack": 600, "hands_per_level": 1}


async def chips(h: Harness) -> tuple[int, int, int]:
    """(balances, escrows + pools, minted) of the harness's server."""
    return await h.store.total_chips(h.guild_id)


async def test_four_cpus_play_to_the_end_and_the_pool_is_paid_exactly(
    h: Harness, boss: FakeMember
) -> None:
    h.set_bot_permissions("stoppa", permissions=THREAD_BOT_PERMISSIONS)  # threads allowed
    await h.slash(boss, "balance")  # the manager's account exists before the books are read
    number, message = await open_tournament(h, boss, buy_in=250, payout="65_35", **QUICK)
    assert message.custom_ids() == [button(number, a)
                                    for a in ("join", "leave", "cpu", "start", "cancel")]
    text = h.message(message.id).text
    assert t("tournaments.embed.title", "en", number=number) in text
    assert "250 chips" in text and "0 of 4 taken" in text and "1st: 65%, 2nd: 35%" in text
    before = await chips(h)
    for i in range(3):
        reply = await h.click(boss, message.id, button(number, "cpu"))
        assert reply.type == 6  # the registration message itself changes
        assert f"{i + 1} of 4 taken" in h.message(message.id).text
    assert (await chips(h))[1] == before[1] + 3 * 250  # three buy-ins in the pool
    last = await h.click(boss, message.id, button(number, "cpu"))  # the last seat: it starts
    await h.settle()
    info = await h.bot.tournaments.info(number)  # type: ignore[union-attr]
    assert info.status is Phase.FINISHED
    assert sorted(p.place for p in info.places) == [1, 2, 3, 4]
    # the whole pool is paid, 65/35, the odd chip to the winner; nothing created or lost
    assert sum(info.payouts.values()) == 1000
    winner = next(p.user_id for p in info.places if p.place == 1)
    second = next(p.user_id for p in info.places if p.place == 2)
    assert dict(info.payouts) == {winner: 650, second: 350}
    # each CPU entrant's account was opened with the starting balance, paid the buy-in and
    # received its prize: the books move exactly the pool, and balance with the ledger
    start = (await h.store.server_settings(h.guild_id)).starting_balance
    cpus = [e.user_id for e in info.entrants]
    assert all(e.cpu == "easy" for e in info.entrants)
    balances = await h.store.balances(h.guild_id, cpus)
    assert balances == {c: start - 250 + info.payouts.get(c, 0) for c in cpus}
    after = await chips(h)
    assert after[2] - before[2] == 4 * start  # the four CPU accounts, nothing else minted
    assert after[0] + after[1] == after[2] and after[1] == 0  # the pool is empty again
    assert await h.store.audit() == []
    # the table played in a thread of its own, where the results are, with the image
    threads = [c for c in h.fake.channels.values() if c.get("type") == 11]
    assert len(threads) == 1
    thread = int(threads[0]["id"])
    assert threads[0]["name"] == t("tournaments.thread_name", "en", number=number)
    assert threads[0]["thread_metadata"]["archived"]  # closed with the table
    posted = h.messages(thread)
    results = [m for m in posted if m.files and m.files[0].filename == "standings.png"]
    assert len(results) == 1
    (png,) = results[0].files
    assert png.is_png
    text = results[0].text
    assert t("tournaments.results.title", "en", number=number) in text
    assert "650 chips" in text and "350 chips" in text
    assert f"<#{thread}>" in last.text
    # the registration message shows the end, without buttons
    final = h.message(message.id)
    assert final.custom_ids() == []
    assert f"<#{thread}>" in final.text


async def test_a_member_joins_leaves_and_gets_the_buy_in_back(
    h: Harness, boss: FakeMember, anna: FakeMember, bob: FakeMember
) -> None:
    start = await h.store.balance(h.guild_id, bob.id)
    number, message = await open_tournament(h, boss, buy_in=150)
    joined = await h.slash(bob, "tournament join")
    assert joined.ephemeral
    assert joined.text == t("tournaments.reply.joined", "en", number=number, buy_in=150)
    assert await h.store.balance(h.guild_id, bob.id) == start - 150
    assert "Bob" in h.message(message.id).text or f"<@{bob.id}>" in h.message(message.id).text
    again = await h.click(bob, message.id, button(number, "join"))  # a double click
    assert note(again) == t("store.tournament_registered", "en")
    assert await h.store.balance(h.guild_id, bob.id) == start - 150
    left = await h.click(bob, message.id, button(number, "leave"))
    assert note(left) == t("tournaments.reply.left", "en", number=number, buy_in=150)
    assert await h.store.balance(h.guild_id, bob.id) == start
    assert f"<@{bob.id}>" not in h.message(message.id).text
    # in Italian for an Italian member
    joined_it = await h.click(anna, message.id, button(number, "join"))
    assert note(joined_it) == t("tournaments.reply.joined", "it", number=number, buy_in=150)
    assert await h.store.audit() == []


async def test_cancel_refunds_everyone_and_retires_the_buttons(
    h: Harness, boss: FakeMember, bob: FakeMember
) -> None:
    start = await h.store.balance(h.guild_id, bob.id)
    number, message = await open_tournament(h, boss, buy_in=200)
    await h.click(bob, message.id, button(number, "join"))
    await h.click(boss, message.id, button(number, "cpu"))
    refused = await h.click(bob, message.id, button(number, "cancel"))
    assert note(refused) == t("tournaments.error.not_host_cancel", "en")
    done = await h.slash(boss, "tournament cancel", tournament=str(number))
    assert done.text == t("tournaments.reply.cancelled", "en", number=number)
    assert await h.store.balance(h.guild_id, bob.id) == start
    assert h.message(message.id).custom_ids() == []
    assert t("tournaments.embed.cancelled", "en") in h.message(message.id).text
    # a button of the old message: a polite note, nothing changes
    stale = await h.click(bob, message.id, button(number, "join"))
    assert note(stale) == t("tournaments.error.over", "en", number=number)
    twice = await h.slash(boss, "tournament cancel", tournament=str(number))
    assert twice.text == t("tournaments.error.over", "en", number=number)
    assert await h.store.balance(h.guild_id, bob.id) == start
    assert await h.store.audit() == []


async def test_a_member_and_three_cpus_in_italian_where_threads_are_not_allowed(
    tmp_path: Path,
) -> None:
    async with Harness.create(tmp_path, seed=5, guild_locale="it") as h:
        anna = h.member("Anna", locale="it", manage_guild=True)
        start = await h.store.balance(h.guild_id, anna.id)
        number, message = await open_tournament(h, anna, buy_in=100, payout="50_30_20",
                                                **QUICK)
        assert t("tournaments.embed.title", "it", number=number) in message.text
        assert "1º: 50%, 2º: 30%, 3º: 20%" in message.text
        await h.click(anna, message.id, button(number, "join"))
        assert await h.store.balance(h.guild_id, anna.id) == start - 100
        for _ in range(2):
            await h.slash(anna, "tournament addbot", level="easy")
        started = await h.slash(anna, "tournament addbot", level="hard")  # the last seat
        # the bot may not create threads here (the invite's permissions): the table plays
        # in the channel, and the member is told why
        assert t("tournaments.reply.started", "it", number=number,
                 where=f"<#{h.channel_id}>") in started.text
        assert t("tournaments.no_threads", "it", permissions=t(
            "access.permission.create_public_threads", "it")) in started.text
        assert not [c for c in h.fake.channels.values() if c.get("type") == 11]
        state = h.bot.tables.state(h.channel_id)  # type: ignore[union-attr]
        assert state is not None and state.tournament is not None
        assert state.tournament.id == number
        # the table message: the tournament and its level named, no Join / Add CPU / Start
        await h.settle()
        table_message = h.message(state.message_id)  # type: ignore[arg-type]
        assert t("table.embed.tournament", "it", number=number, level=1,
                 hands=state.tournament.hands_to_next_level) in table_message.text
        actions = {cid.split(":")[2] for cid in table_message.custom_ids()}
        # in a hand, Leave is in each player's panel (issue 36); My cards opens it
        assert "hand" in actions and not actions & {"join", "addcpu", "start", "leave"}
        turns = await TableDriver(h, [anna], seed=2).play_until_closed("mixed")
        await h.settle()
        info = await h.bot.tournaments.info(number)  # type: ignore[union-attr]
        assert info.status is Phase.FINISHED
        assert sum(info.payouts.values()) == info.prize_pool == 400
        assert sorted(info.payouts.values(), reverse=True) == [200, 120, 80]
        assert await h.store.balance(h.guild_id, anna.id) == (
            start - 100 + info.payouts.get(anna.id, 0)
        )
        totals = await h.store.total_chips(h.guild_id)
        assert totals[0] + totals[1] == totals[2] and totals[1] == 0
        assert await h.store.audit() == []
        (results,) = [m for m in h.messages() if m.files
                      and m.files[0].filename == "standings.png"]
        assert results.files[0].is_png
        text = results.text
        assert t("tournaments.results.title", "it", number=number) in text
        assert "Anna" in text or f"<@{anna.id}>" in text
        assert "200 fiches" in text and "120 fiches" in text and "80 fiches" in text
        assert turns > 0  # Anna played her turns, by commands and buttons


async def test_an_entrant_who_switches_discord_to_italian_gets_the_results_in_italian(
    tmp_path: Path,
) -> None:
    """She registers in English; her moves in Italian are kept with her entry at each hand's
    end, so the results (posted when the table is gone) speak Italian."""
    async with Harness.create(tmp_path, seed=5) as h:  # the server's locale: en-US
        anna = h.member("Anna", manage_guild=True)
        number, message = await open_tournament(h, anna, buy_in=100, **QUICK)
        await h.click(anna, message.id, button(number, "join"))
        info = await h.bot.tournaments.info(number)  # type: ignore[union-attr]
        assert info.languages == {anna.id: "en"}
        anna.locale = "it"  # her Discord in Italian from now on
        for level in ("easy", "easy", "hard"):
            await h.slash(anna, "tournament addbot", level=level)
        assert await TableDriver(h, [anna], seed=2).play_until_closed("mixed") > 0
        await h.settle()
        info = await h.bot.tournaments.info(number)  # type: ignore[union-attr]
        assert info.status is Phase.FINISHED
        assert info.languages == {anna.id: "it"}
        (results,) = [m for m in h.messages() if m.files
                      and m.files[0].filename == "standings.png"]
        assert t("tournaments.results.title", "it", number=number) in results.text
        assert await h.store.audit() == []


async def test_ending_the_table_calls_the_tournament_off_with_refunds(
    h: Harness, boss: FakeMember, bob: FakeMember
) -> None:
    start = await h.store.balance(h.guild_id, bob.id)
    number, message = await open_tournament(h, boss, buy_in=120, seats=3)
    await h.slash(bob, "tournament join")
    assert await h.store.balance(h.guild_id, bob.id) == start - 120
    await h.slash(boss, "tournament addbot")
    await h.slash(boss, "tournament addbot")  # full: it plays in the channel
    assert t("tournaments.embed.running", "en", where=f"<#{h.channel_id}>") in h.message(
        message.id).text
    ended = await h.slash(boss, "stoppa end")
    assert ended.ephemeral
    await h.settle()
    info = await h.bot.tournaments.info(number)  # type: ignore[union-attr]
    assert info.status is Phase.CANCELLED
    assert await h.store.balance(h.guild_id, bob.id) == start
    assert t("tournaments.embed.cancelled", "en") in h.message(message.id).text
    assert await h.store.audit() == []


async def test_a_restart_mid_tournament_resumes_and_the_results_still_come(
    tmp_path: Path,
) -> None:
    async with Harness.create(tmp_path, seed=8) as h:
        h.set_bot_permissions("stoppa", permissions=THREAD_BOT_PERMISSIONS)
        anna = h.member("Anna", manage_guild=True)
        number, message = await open_tournament(h, anna, buy_in=50, seats=3,
                                                schedule="turbo", starting_stack=600,
                                                hands_per_level=2)
        await h.click(anna, message.id, button(number, "join"))
        await h.click(anna, message.id, button(number, "cpu"))
        await h.click(anna, message.id, button(number, "cpu"))
        (thread,) = [int(c["id"]) for c in h.fake.channels.values() if c.get("type") == 11]
        driver = TableDriver(h, [anna], seed=4)
        h.channel_id = thread  # the driver plays the table of the harness's channel
        await driver.play_turn("slash")
        before = await h.slash(anna, "tournament status")
        assert not before.ephemeral  # asked at the tournament's table
        await h.restart()
        info = await h.bot.tournaments.info(number)  # type: ignore[union-attr]
        assert info.status is Phase.RUNNING and info.table_id is not None
        after = await h.slash(anna, "tournament status")
        assert after.text == before.text  # the same level, stacks and places
        await driver.play_until_closed("buttons")
        await h.settle()
        info = await h.bot.tournaments.info(number)  # type: ignore[union-attr]
        assert info.status is Phase.FINISHED and sum(info.payouts.values()) == 150
        results = [m for m in h.messages(thread) if m.files
                   and m.files[0].filename == "standings.png"]
        assert len(results) == 1 and results[0].files[0].is_png
        assert await h.store.audit() == []
